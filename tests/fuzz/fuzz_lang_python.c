/* fuzz_lang_python.c — libFuzzer target: scan arbitrary bytes as a python file. */
#include <stddef.h>
#include <stdint.h>

#include "scan/lang.h"
#include "scan/sites.h"

extern const fl_lang fl_lang_python;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = "fuzz/input.py";
	fl_src src = {.path = path, .text = (const char *)data, .len = size};
	fl_sites *s = fl_sites_new();
	fl_lang_python.scan(NULL, &src, s);
	if (fl_lang_python.is_test_file)
		(void)fl_lang_python.is_test_file(path);
	fl_sites_free(s);
	return 0;
}
