/* fuzz_lang_c.c — libFuzzer target for the C / C++ family: the first byte
 * picks the file extension (C, C++, header), the rest is the file. */
#include <stddef.h>
#include <stdint.h>

#include "scan/lang.h"
#include "scan/sites.h"

extern const fl_lang fl_lang_c;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {"src/a.c", "src/a.cpp", "src/a.h",
					    "src/a.hpp"};
	if (size < 1)
		return 0;
	fl_src src = {.path = paths[data[0] & 3],
		      .text = (const char *)data + 1,
		      .len = size - 1};
	void *tree = fl_lang_c.tree_new();
	fl_lang_c.collect(tree, &src);
	fl_sites *s = fl_sites_new();
	fl_lang_c.scan(tree, &src, s);
	fl_sites_free(s);
	fl_lang_c.tree_free(tree);
	return 0;
}
