/*
 * sites.h — the site collector behind fl_site_add(): owns copies of the
 * sites one file produced, for the core and for the language unit tests.
 */
#ifndef FL_SCAN_SITES_H
#define FL_SCAN_SITES_H

#include "lang.h"

struct fl_sites {
	fl_site *v;
	size_t n, cap;
};

fl_sites *fl_sites_new(void);
void fl_sites_free(fl_sites *s);
void fl_sites_clear(fl_sites *s);
/* Sort by line, then column (stable); then a definition of a text (a
 * class's message) that the file also raises goes after its last raise,
 * so that a raise is the record's line (lookup.md: raise before
 * definition). */
void fl_sites_sort(fl_sites *s);

#endif
