/* fuzz_lang_ruby.c — libFuzzer target: scan arbitrary bytes as a ruby file. */
#include <stddef.h>
#include <stdint.h>

#include "scan/lang.h"
#include "scan/sites.h"

extern const fl_lang fl_lang_ruby;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = "fuzz/input.rb";
	if (size > 0 && (data[0] & 1))
		path = "fuzz/input.rake";
	fl_src src = {.path = path, .text = (const char *)data, .len = size};
	fl_sites *s = fl_sites_new();
	fl_lang_ruby.scan(NULL, &src, s);
	if (fl_lang_ruby.is_test_file)
		(void)fl_lang_ruby.is_test_file(path);
	fl_sites_free(s);
	return 0;
}
