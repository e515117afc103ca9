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
#include <pthread.h>
#include <stddef.h>

int fl_ncpu(void);

/* pthread_create(t, NULL, fn, arg), the new thread started on a CPU other
 * than the calling thread's: the k-th of the CPUs this process may use,
 * counted from the one after the caller's (k = 0: the next one; k = 1 on
 * two cores: the caller's own, for a caller about to wait).  Once running,
 * the thread may run anywhere again.  Why: the kernel often queued a new
 * thread behind its busy creator, on the creator's CPU, while the other
 * CPU idled, until the next scheduler tick (up to 4 ms on the benchmark
 * host); so did the scan's workers and the folder walker. */
int fl_thread_spawn(pthread_t *t, void *(*fn)(void *), void *arg, int k);
void fl_parallel_for(size_t n, void (*fn)(void *arg, size_t i), void *arg);

#endif
