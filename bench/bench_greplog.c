/*
 * bench_greplog.c — grep-log alone: a log (bench_lookup --log-file writes
 * the realistic mixed one) streamed through the lookup of a store, in
 * process, as bench_lookup times it (the literal databases prepared
 * before the timing, matches counted, not printed), several runs in a
 * row.  Prints each run's MB/s and CPU seconds, then the median, so that
 * a change to the grep path is measured in a few seconds instead of the
 * whole lookup benchmark's minute.
 *
 * usage: bench_greplog --db STORE --log PATH [--runs N]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_util.h"
#include "faultline.h"

static int count_cb(const fl_logmatch *lm, void *ud)
{
	(void)lm;
	(*(long long *)ud)++;
	return 0;
}

static double cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	const char *db = NULL, *log = NULL;
	int runs = 5;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--db"))
			db = argv[i + 1];
		else if (!strcmp(argv[i], "--log"))
			log = argv[i + 1];
		else if (!strcmp(argv[i], "--runs"))
			runs = atoi(argv[i + 1]);
		else
			db = NULL, i = argc;
	}
	if (!db || !log || runs < 1 || runs > 100) {
		fprintf(stderr, "usage: bench_greplog --db STORE --log PATH [--runs N]\n");
		return 2;
	}
	fl_store *st;
	fl_lookup *lk;
	fl_err err;
	if (fl_store_open(db, true, &st, &err) < 0 || fl_lookup_open(st, &lk, &err) < 0) {
		fprintf(stderr, "bench_greplog: %s\n", err.msg);
		return 1;
	}
	fl_lookup_prepare_long(lk);
	double mbs[100];
	for (int r = 0; r < runs; r++) {
		FILE *in = fopen(log, "rb");
		if (!in) {
			fprintf(stderr, "bench_greplog: cannot read %s\n", log);
			return 1;
		}
		long long matched = 0;
		fl_grep_stats gs;
		double c0 = cpu_seconds(), a = now();
		if (fl_grep_log(lk, in, NULL, count_cb, &matched, &gs, &err) < 0) {
			fprintf(stderr, "bench_greplog: %s\n", err.msg);
			return 1;
		}
		double dt = now() - a, cpu = cpu_seconds() - c0;
		fclose(in);
		mbs[r] = (double)gs.bytes / 1e6 / dt;
		printf("run %d          %.0f MB/s (%.0f MB, %lld lines, %lld matched) in %.3f s, %.3f CPU-s\n",
		       r + 1, mbs[r], (double)gs.bytes / 1e6, gs.lines, matched, dt, cpu);
	}
	qsort(mbs, (size_t)runs, sizeof *mbs, cmpd);
	printf("grep-log        median %.0f MB/s of %d runs\n", pct(mbs, (size_t)runs, 0.5), runs);
	fl_lookup_close(lk);
	fl_store_close(st);
	return 0;
}
