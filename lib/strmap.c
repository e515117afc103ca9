/*
 * strmap.c — string -> size_t hash map with linear probing (XXH3 of the
 * keys, kept beside them).
 */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "util.h"

uint32_t fl_fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t key_hash(const char *key)
{
	return (uint32_t)XXH3_64bits(key, strlen(key));
}

static size_t slot(const fl_strmap *m, const char *key, uint32_t h)
{
	size_t i = h & (m->cap - 1);
	while (m->keys[i] && (m->hashes[i] != h || strcmp(m->keys[i], key) != 0))
		i = (i + 1) & (m->cap - 1);
	return i;
}

bool fl_strmap_get(const fl_strmap *m, const char *key, size_t *val)
{
	if (!m->cap)
		return false;
	size_t i = slot(m, key, key_hash(key));
	if (!m->keys[i])
		return false;
	if (val)
		*val = m->vals[i];
	return true;
}

static void grow(fl_strmap *m)
{
	fl_strmap big = {0};
	big.cap = m->cap ? m->cap * 2 : 64;
	big.keys = fl_xcalloc(big.cap, sizeof *big.keys);
	big.vals = fl_xcalloc(big.cap, sizeof *big.vals);
	big.hashes = fl_xcalloc(big.cap, sizeof *big.hashes);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		/* the keys are distinct: the first free slot is theirs */
		size_t j = m->hashes[i] & (big.cap - 1);
		while (big.keys[j])
			j = (j + 1) & (big.cap - 1);
		big.keys[j] = m->keys[i];
		big.vals[j] = m->vals[i];
		big.hashes[j] = m->hashes[i];
	}
	big.n = m->n;
	free(m->keys);
	free(m->vals);
	free(m->hashes);
	*m = big;
}

void fl_strmap_put(fl_strmap *m, const char *key, size_t val)
{
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	uint32_t h = key_hash(key);
	size_t i = slot(m, key, h);
	if (!m->keys[i]) {
		m->keys[i] = fl_xstrdup(key);
		m->hashes[i] = h;
		m->n++;
	}
	m->vals[i] = val;
}

void fl_strmap_free(fl_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	free(m->hashes);
	memset(m, 0, sizeof *m);
}
