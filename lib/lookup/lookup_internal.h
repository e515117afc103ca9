/*
 * lookup_internal.h — the lookup handle, shared by the lookup modules.
 */
#ifndef FL_LOOKUP_INTERNAL_H
#define FL_LOOKUP_INTERNAL_H

#include "faultline.h"
#include "index.h"

struct fl_lookup {
	fl_index ix;
	bool built;        /* the index was (re)built on open */
};

/* Take ownership of an index built in memory. */
int fl_lookup_from_index(fl_index *ix, fl_lookup **out);

#endif
