/*
 * fuzz_lang.h — the body every lexer's libFuzzer target shares: scan the
 * input as one file of a language, through the same steps as the scanner
 * core (per-tree state, collect pass, scan, sorting the sites).
 */
#ifndef FL_FUZZ_LANG_H
#define FL_FUZZ_LANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scan/lang.h"
#include "scan/sites.h"
#include "../lang_kept.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline bool fuzz_same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Scan size bytes at data as file `path` of language L.  A language that
 * keeps its collect pass's work for the scan (collect_keep) is scanned
 * both ways, which must find the same sites. */
static inline int fuzz_scan(const fl_lang *L, const char *path,
			    const uint8_t *data, size_t size)
{
	fl_src src = {.path = path, .text = (const char *)data, .len = size};
	void *tree = L->tree_new ? L->tree_new() : NULL;
	void *cache = fl_lang_collect_one(L, tree, &src);
	fl_sites *s = fl_sites_new();
	L->scan(tree, &src, s);
	fl_sites_sort(s);
	if (cache) {
		fl_sites *k = scan_with_kept(L, tree, &src, cache);
		if (k->n != s->n)
			abort();
		for (size_t i = 0; i < s->n; i++)
			if (k->v[i].line != s->v[i].line || k->v[i].col != s->v[i].col ||
			    !fuzz_same_str(k->v[i].message, s->v[i].message) ||
			    !fuzz_same_str(k->v[i].function, s->v[i].function) ||
			    !fuzz_same_str(k->v[i].guard, s->v[i].guard))
				abort();
		fl_sites_free(k);
	}
	fl_sites_free(s);
	if (L->tree_free)
		L->tree_free(tree);
	if (L->is_test_file)
		(void)L->is_test_file(path);
	return 0;
}

/* The first byte of the input picks one of n paths (the dialect or file
 * kind); the rest is the file.  An empty input scans as paths[0]. */
static inline int fuzz_scan_pick(const fl_lang *L, const char *const *paths,
				 size_t n, const uint8_t *data, size_t size)
{
	if (size == 0)
		return fuzz_scan(L, paths[0], data, size);
	return fuzz_scan(L, paths[data[0] % n], data + 1, size - 1);
}

#endif
