/*
 * slab.h — where a scan keeps the texts of the files it has read until it
 * scans them: large blocks in transparent huge pages, shared out to the
 * reading threads and released together after the scan.
 */
#ifndef FL_SCAN_SLAB_H
#define FL_SCAN_SLAB_H

#include <pthread.h>
#include <stddef.h>

/* The blocks of one scan (every thread's). */
typedef struct fl_slabs {
	pthread_mutex_t lock;
	struct fl_slab_block {
		char *p;
		size_t n;
	} *v;
	size_t n, cap;
} fl_slabs;

/* One thread's current block. */
typedef struct fl_slab {
	fl_slabs *all;
	char *p;
	size_t left;
} fl_slab;

void fl_slabs_init(fl_slabs *s);
/* Unmap every block: every text handed out is gone. */
void fl_slabs_free(fl_slabs *s);

/* n bytes (16-byte aligned) from the thread's block, a new block when it
 * has not that much left; NULL when n is too large for a block or no
 * block can be had (then the caller mallocs). Never freed one by one. */
char *fl_slab_alloc(fl_slab *s, size_t n);

#endif
