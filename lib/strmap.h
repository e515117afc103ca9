/*
 * strmap.h — a small string -> size_t hash map (open addressing), used for
 * id and slug sets during a scan and for token tables.
 */
#ifndef FL_STRMAP_H
#define FL_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fl_strmap {
	char **keys;
	size_t *vals;
	uint32_t *hashes;  /* of each key: probes and growth compare these
			    * first, and do not read the keys again */
	size_t cap, n;
} fl_strmap;

uint32_t fl_fnv1a(const char *s, size_t n);
/* Value of key, or false when absent. */
bool fl_strmap_get(const fl_strmap *m, const char *key, size_t *val);
/* Insert or overwrite (key copied). */
void fl_strmap_put(fl_strmap *m, const char *key, size_t val);
void fl_strmap_free(fl_strmap *m);

#endif
