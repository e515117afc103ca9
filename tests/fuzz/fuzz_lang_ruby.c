/*
 * fuzz_lang_ruby.c — libFuzzer target: scan arbitrary bytes as a ruby
 * file (an odd first byte makes it a .rake file).
 */
#include "fuzz_lang.h"

extern const fl_lang fl_lang_ruby;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the whole input is the file; its first byte also picks the
	 * extension */
	const char *path = size > 0 && (data[0] & 1) ? "fuzz/input.rake"
						   : "fuzz/input.rb";
	return fuzz_scan(&fl_lang_ruby, path, data, size);
}
