/*
 * slab.c — the scan's text blocks (slab.h).
 *
 * Why: a scan holds the text of every file from its read until its scan
 * (the collect pass sees the whole tree first): a tree of 200 MB of
 * sources is 200 MB of new heap, ~50 k page faults of 4 KB (each ~4 us on
 * the benchmark host, and the read's copy into a page not yet mapped is
 * the slowest part of reading).  A block advised as huge pages is one
 * fault per 2 MB; it is unmapped whole at the end, with no free() per
 * file.  Only what is written is touched, so a small tree pays for a few
 * huge pages at most.
 */
#define _DEFAULT_SOURCE
#include "slab.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "../util.h"

#define BLOCK ((size_t)16 << 20)
/* larger requests are malloc'd: a block is never more than 1/8 wasted at
 * its end */
#define LARGEST (BLOCK / 8)

void fl_slabs_init(fl_slabs *s)
{
	pthread_mutex_init(&s->lock, NULL);
	s->v = NULL;
	s->n = s->cap = 0;
}

void fl_slabs_free(fl_slabs *s)
{
	for (size_t i = 0; i < s->n; i++)
		munmap(s->v[i].p, s->v[i].n);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
	pthread_mutex_destroy(&s->lock);
}

/* A new block, aligned on a huge page; NULL when none can be mapped. */
static char *new_block(fl_slabs *s)
{
	char *p = fl_map_huge(BLOCK);
	if (!p)
		return NULL;
	pthread_mutex_lock(&s->lock);
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->v = fl_xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n].p = p;
	s->v[s->n].n = BLOCK;
	s->n++;
	pthread_mutex_unlock(&s->lock);
	return p;
}

char *fl_slab_alloc(fl_slab *s, size_t n)
{
	if (!s || !s->all || n > LARGEST)
		return NULL;
	n = (n + 15) & ~(size_t)15;
	if (n > s->left) {
		char *p = new_block(s->all);
		if (!p)
			return NULL;
		s->p = p;
		s->left = BLOCK;
	}
	char *r = s->p;
	s->p += n;
	s->left -= n;
	return r;
}
