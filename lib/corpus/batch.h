/*
 * batch.h — the corpus run (`faultline batch`, batch.c): a supervisor that
 * claims queued repositories and runs each in a worker process, and the
 * worker's side (fl_run_one, corpus.h).
 */
#ifndef FL_BATCH_H
#define FL_BATCH_H

#include <signal.h>

#include "faultline.h"
#include "corpus.h"

typedef struct fl_batch_opts {
	/* the command that runs one row (argv, NULL-terminated): the row's
	 * id is appended; it prints JSON lines, {"phase":"fetch"} ... and
	 * last {"outcome":"done"|"skipped"|"failed", "analyzedSha", "repo",
	 * "records", "error"} */
	const char *const *worker_argv;
	int jobs;                   /* workers at once */
	long long limit;            /* rows to claim, 0 = until the queue is empty */
	double timeout;             /* seconds per repository, 0 = none */
	int max_attempts;           /* failed runs before a row is failed */
	const char *workdir;        /* clones go under it */
	bool progress;              /* a status line on stderr */
	volatile sig_atomic_t *stop;/* set (by a signal handler): stop now */
	/* told of each failed run (last: the row is now failed) */
	void (*on_failure)(const char *what, const char *error, bool last);
} fl_batch_opts;

typedef struct fl_batch_stats {
	long long done, skipped, failed, retried, stopped, reclaimed;
	long long records;
	double seconds;
} fl_batch_stats;

int fl_batch(fl_store *st, const fl_batch_opts *o, fl_batch_stats *s, fl_err *err);

#endif
