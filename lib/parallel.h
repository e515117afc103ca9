/*
 * parallel.h — run independent work items on every core.
 *
 * fl_parallel_for(n, fn, arg) calls fn(arg, i) once for each i in [0, n),
 * on up to fl_ncpu() threads (the calling thread is one of them), and
 * returns when all calls have returned.  Items are handed out in order from
 * a shared counter, so the split adapts to uneven items.  fn must only
 * touch state owned by item i (or synchronise itself).
 */
#ifndef FL_PARALLEL_H
#define FL_PARALLEL_H
#include <stddef.h>

int fl_ncpu(void);
void fl_parallel_for(size_t n, void (*fn)(void *arg, size_t i), void *arg);

#endif
