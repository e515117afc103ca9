/* fuzz_lang_go.c — libFuzzer target: scan the input as a .go file. */
#include <stddef.h>
#include <stdint.h>

#include "scan/lang.h"
#include "scan/sites.h"

extern const fl_lang fl_lang_go;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fl_src src = {.path = "fuzz/input.go", .text = (const char *)data, .len = size};
	void *tree = fl_lang_go.tree_new ? fl_lang_go.tree_new() : NULL;
	if (fl_lang_go.collect)
		fl_lang_go.collect(tree, &src);
	fl_sites *s = fl_sites_new();
	fl_lang_go.scan(tree, &src, s);
	fl_sites_sort(s);
	fl_sites_free(s);
	if (fl_lang_go.tree_free)
		fl_lang_go.tree_free(tree);
	return 0;
}
