/* fuzz_lang_js.c — libFuzzer target for the js scanner. */
#include <stddef.h>
#include <stdint.h>

#include "scan/lang.h"
#include "scan/sites.h"

extern const fl_lang fl_lang_js;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* first byte picks the dialect: .js (JSX on), .ts (JSX off), .tsx */
	static const char *const paths[] = {"f.js", "f.ts", "f.tsx", "f.mjs"};
	const char *path = paths[size ? data[0] % 4 : 0];
	if (size) {
		data++;
		size--;
	}
	fl_src src = {.path = path, .text = (const char *)data, .len = size};
	fl_sites *s = fl_sites_new();
	fl_lang_js.scan(NULL, &src, s);
	fl_sites_free(s);
	return 0;
}
