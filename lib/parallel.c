/*
 * parallel.c — fl_parallel_for: a shared counter and a few threads; and
 * fl_thread_spawn, which starts a thread where a CPU is free.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
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

struct spawn {
	void *(*fn)(void *);
	void *arg;
	cpu_set_t all;  /* where the thread may run once started */
};

static void *spawned(void *p)
{
	struct spawn sp = *(struct spawn *)p;
	free(p);
	(void)sched_setaffinity(0, sizeof sp.all, &sp.all);
	return sp.fn(sp.arg);
}

int fl_thread_spawn(pthread_t *t, void *(*fn)(void *), void *arg, int k)
{
	struct spawn *sp = malloc(sizeof *sp);
	int cur = sched_getcpu();
	if (!sp || cur < 0 || sched_getaffinity(0, sizeof sp->all, &sp->all) != 0 ||
	    CPU_COUNT(&sp->all) < 2) {
		free(sp);
		return pthread_create(t, NULL, fn, arg);
	}
	sp->fn = fn;
	sp->arg = arg;
	/* the k-th allowed CPU after cur, wrapping around */
	int n = CPU_COUNT(&sp->all), skip = k % n + 1, cpu = cur;
	while (skip > 0) {
		cpu = (cpu + 1) % CPU_SETSIZE;
		if (CPU_ISSET(cpu, &sp->all))
			skip--;
	}
	pthread_attr_t at;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	int rc = pthread_attr_init(&at);
	if (rc == 0) {
		if (pthread_attr_setaffinity_np(&at, sizeof one, &one) == 0)
			rc = pthread_create(t, &at, spawned, sp);
		else
			rc = -1;
		pthread_attr_destroy(&at);
	}
	if (rc != 0) {
		/* the placement refused (a CPU set changed meanwhile...): an
		 * ordinary thread */
		free(sp);
		return pthread_create(t, NULL, fn, arg);
	}
	return 0;
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
		if (fl_thread_spawn(&tids[started], run, &pf, t - 1) == 0)
			started++;
	run(&pf); /* this thread works too; with no threads it does it all */
	for (int t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
}
