/*
 * fuzz_lang_js.c — libFuzzer target for the js scanner: the first byte
 * picks the dialect (.js with JSX, .ts without, .tsx, .mjs), the rest is
 * the file.
 */
#include "fuzz_lang.h"

extern const fl_lang fl_lang_js;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {"f.js", "f.ts", "f.tsx", "f.mjs"};
	return fuzz_scan_pick(&fl_lang_js, paths, 4, data, size);
}
