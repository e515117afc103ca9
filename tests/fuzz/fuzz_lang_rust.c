/* fuzz_lang_rust.c — libFuzzer target: scan the input as a .rs file. */
#include <stddef.h>
#include <stdint.h>

#include "scan/lang.h"
#include "scan/sites.h"

extern const fl_lang fl_lang_rust;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fl_src src = {.path = "fuzz/input.rs", .text = (const char *)data, .len = size};
	void *tree = fl_lang_rust.tree_new ? fl_lang_rust.tree_new() : NULL;
	if (fl_lang_rust.collect)
		fl_lang_rust.collect(tree, &src);
	fl_sites *s = fl_sites_new();
	fl_lang_rust.scan(tree, &src, s);
	fl_sites_sort(s);
	fl_sites_free(s);
	if (fl_lang_rust.tree_free)
		fl_lang_rust.tree_free(tree);
	return 0;
}
