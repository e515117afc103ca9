/*
 * fuzz_lang_c.c — libFuzzer target for the C / C++ family: the first byte
 * picks the file extension (C, C++, header), the rest is the file.
 */
#include "fuzz_lang.h"

extern const fl_lang fl_lang_c;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {
		"src/a.c", "src/a.cpp", "src/a.h", "src/a.hpp"};
	return fuzz_scan_pick(&fl_lang_c, paths, 4, data, size);
}
