/*
 * lang.c — the C / C++ family's entry in the language table: its
 * extensions, its test files, and the functions the core calls.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

/* ---- test files ------------------------------------------------------------ */

static bool c_is_test_file(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *dot = strrchr(b, '.');
	if (!dot)
		return false;
	size_t stem = (size_t)(dot - b);
	static const char *const suf[] = {"_test", "_tests", "_unittest",
					  "-test", NULL};
	for (const char *const *s = suf; *s; s++) {
		size_t l = strlen(*s);
		if (stem > l && memcmp(b + stem - l, *s, l) == 0)
			return true;
	}
	if (stem > 5 && memcmp(b, "test_", 5) == 0)
		return true;
	return false;
}

static const char *const exts[] = {".c",   ".h",   ".cc",  ".cpp", ".cxx",
				   ".c++", ".hpp", ".hh",  ".hxx", ".inl",
				   /* yacc / bison grammars: their actions are C (yacc.c) */
				   ".y",   ".yy",
				   /* templates of C source a build step
				    * copies or fills (sqlite's shell.c.in) */
				   ".c.in", ".h.in", NULL};

const fl_lang fl_lang_c = {
	.name = "c",
	.extensions = exts,
	.is_test_file = c_is_test_file,
	.printf_ints = true,
	.tree_new = c_tree_new,
	.tree_free = c_tree_free,
	.collect = c_collect,
	.tree_merge = c_tree_merge,
	.collect_keep = c_collect_keep,
	.cache_free = c_lexed_free,
	.scan = c_scan,
};
