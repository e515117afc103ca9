/*
 * parallel.c — fl_parallel_for: a shared counter and a few threads.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "parallel.h"

#define MAX_THREADS 64

struct pf {
	size_t n;
	atomic_size_t next;
	void (*fn)(void *arg, size_t i);
	void *arg;
};

int fl_ncpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

static void *run(void *p)
{
	struct pf *pf = p;
	for (;;) {
		size_t i = atomic_fetch_add(&pf->next, 1);
		if (i >= pf->n)
			break;
		pf->fn(pf->arg, i);
	}
	return NULL;
}

void fl_parallel_for(size_t n, void (*fn)(void *arg, size_t i), void *arg)
{
	struct pf pf = {.n = n, .fn = fn, .arg = arg};
	atomic_init(&pf.next, 0);
	int want = fl_ncpu();
	if ((size_t)want > n)
		want = (int)n;
	pthread_t tids[MAX_THREADS];
	int started = 0;
	for (int t = 1; t < want; t++)
		if (pthread_create(&tids[started], NULL, run, &pf) == 0)
			started++;
	run(&pf); /* this thread works too; with no threads it does it all */
	for (int t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
}
