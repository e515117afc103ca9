/*
 * lang_kept.h — shared by the language unit tests and the fuzz targets: a
 * file scanned again with what its collect pass kept (collect_keep), whose
 * sites must be those of the plain scan.
 */
#ifndef FL_TEST_LANG_KEPT_H
#define FL_TEST_LANG_KEPT_H

#include "scan/lang.h"
#include "scan/sites.h"

/* The sites of src scanned with cache (which the scan frees), sorted. */
static inline fl_sites *scan_with_kept(const fl_lang *L, const void *tree,
				       const fl_src *src, void *cache)
{
	fl_src kept = *src;
	kept.cache = cache;
	fl_sites *k = fl_sites_new();
	L->scan(tree, &kept, k);
	fl_sites_sort(k);
	return k;
}

#endif
