/*
 * heap.c — the malloc heap policy of a process whose main job is a scan
 * (the CLI's `scan`, the scan benchmark): what the scan allocates and frees
 * file after file stays in the heap, and the heap's new memory comes in
 * transparent huge pages.
 *
 * Why: on the benchmark host a page fault costs ~3.7 us; a scan of git's
 * sources took ~8 k of them (texts, tokens, records: ~30 MB of new heap,
 * ~30 ms of CPU) and its exit ~5 ms more to unmap them.  A 2 MB page is
 * one fault instead of 512: with this, ~1.8 k faults (the rest are the
 * libraries' pages and the page cache's), ~15 ms of zeroing huge pages.  With the kernel's default THP mode
 * ("madvise") a heap gets huge pages only where it was advised to, and a
 * malloc heap grows a few pages at a time, so no 2 MB of it is ever whole
 * when first touched: each scan thread takes one large block from its
 * heap (below the mmap threshold, so the heap grows to hold it), advises
 * the 2 MB-aligned part of it and frees it; the heap keeps that memory
 * (the trim threshold is above it) for what the thread allocates next.
 * Nothing is touched, so nothing is paid for what is not used.
 */
#define _DEFAULT_SOURCE
#include "heap.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "faultline.h"

/* AddressSanitizer's malloc is not glibc's: nothing to tune */
#if defined(__SANITIZE_ADDRESS__)
#define FL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FL_ASAN 1
#endif
#endif
#ifndef FL_ASAN
#define FL_ASAN 0
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)
/* blocks kept in the heap: up to this size (glibc maps larger ones) */
#define MMAP_THRESHOLD (32 << 20)
/* what each scan thread advises: under the threshold, more than a thread
 * of a git scan allocates */
#define ADVISED ((size_t)30 << 20)

#if defined(__GLIBC__) && !FL_ASAN
static atomic_bool tuned;
#endif

void fl_heap_thread_huge(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !FL_ASAN
	if (!atomic_load(&tuned))
		return;
	char *p = malloc(ADVISED);
	if (!p)
		return;
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t b = ((uintptr_t)p + ADVISED) & ~(HUGE_PAGE - 1);
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_HUGEPAGE); /* advice only */
	free(p);
#endif
}

void fl_scan_tune_heap(void)
{
#if defined(__GLIBC__) && !FL_ASAN
	/* a scan allocates and frees buffers of up to a few MB per file on
	 * every core (tokens, bracket tables, records): keep them in the
	 * heap for the next file instead of mapping each afresh and giving
	 * it back (glibc maps blocks over 128 KB at first) */
	mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
	atomic_store(&tuned, true);
	fl_heap_thread_huge(); /* the calling thread's (main) heap */
#endif
}
