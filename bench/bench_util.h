/*
 * bench_util.h — what the benchmark programs share: a monotonic clock in
 * seconds, and percentiles of a sorted array of figures.
 */
#ifndef FL_BENCH_UTIL_H
#define FL_BENCH_UTIL_H
#include <stddef.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* qsort's comparison of doubles */
static inline int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* the p-th percentile (0..1) of v[0..n), sorted; 0 when empty */
static inline double pct(const double *v, size_t n, double p)
{
	return n ? v[(size_t)(p * (double)(n - 1) + 0.5)] : 0;
}

#endif
