/*
 * cmd_batch.c — `faultline batch`: scan the queued repositories until the
 * queue is empty (lib/corpus/batch.c supervises; each repository runs in a
 * `faultline batch --one` worker process, this file's other half).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cli.h"
#include "corpus/batch.h"

static const cli_help HELP = {
	.name = "batch",
	.synopsis =
	"faultline batch [--db FILE] [--jobs N] [--limit N] [--timeout SECONDS]\n"
	"                [--workdir DIR] [--disk-budget MB] [--json]",
	.about =
	"Scan the queued repositories (`faultline queue add`) until the queue is "
	"empty or --limit repositories were taken: highest priority first, --jobs "
	"at once, each in a process of its own. Unattended and resumable:\n\n"
	"  - a repository whose commit is the one its last scan read is skipped\n"
	"    in milliseconds (a URL's commit is read from the remote's list of\n"
	"    references, nothing is fetched);\n"
	"  - a clone URL is fetched, bare, into a folder of --workdir that is\n"
	"    removed after the scan; a fetch that would pass --disk-budget fails;\n"
	"  - a fetch or scan that outlives --timeout is killed;\n"
	"  - a failed repository is tried once more after the others, then\n"
	"    marked failed with its error, and the run goes on;\n"
	"  - a batch killed midway (even by kill -9) loses only the repositories\n"
	"    it was scanning: the next batch takes them back. Two batches may\n"
	"    run on one store: no repository is scanned by both.\n\n"
	"Progress on a terminal; then a summary (done, skipped, failed, records, "
	"time). Exit status 0, or 1 when a repository failed for good in this "
	"run or the store failed; 130 when interrupted (the repositories in "
	"flight go back to pending).",
	.examples = {
		{"faultline batch --jobs 2",
		 "Scan the whole queue, two repositories at a time."},
		{"faultline batch --limit 10 --timeout 600",
		 "Take ten repositories, give each ten minutes."},
		{"faultline status",
		 "See what is pending, running, done and failed."},
	},
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static bool progress_on;

static void on_failure(const char *what, const char *error, bool last)
{
	fprintf(stderr, "%sfaultline: batch: %s: %s (%s)\n", progress_on ? "\r\033[K" : "",
		what, error, last ? "failed" : "will be tried again");
}

/* ---- the worker: one row, JSON lines on stdout ------------------------- */

static void print_phase(const char *phase)
{
	printf("{\"phase\":\"%s\"}\n", phase);
	fflush(stdout);
}

static int run_worker(const char *db, const char *id_s, const char *workdir,
		      long long budget, int threads, const char *parent)
{
	/* die with the batch that started this (kill -9 included); if it
	 * died before that was asked, its pid is no longer our parent's */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (parent && atol(parent) != (long)getppid())
		return cli_fail(1, "batch --one: the batch that started this (pid %s) is gone", parent);
	char *end;
	long long id = strtoll(id_s, &end, 10);
	if (*end || id <= 0)
		return cli_fail(EXIT_USAGE, "batch --one: not a queue row id: %s", id_s);
	fl_run_opts o = {
		.db = db, .id = id, .workdir = workdir, .budget = budget,
		.threads = threads, .on_phase = print_phase,
	};
	fl_run_result r;
	fl_run_one(&o, &r);
	json_t *out = json_object();
	json_object_set_new(out, "outcome", json_string(r.state == FL_Q_DONE ? "done" :
						r.state == FL_Q_SKIPPED ? "skipped" : "failed"));
	if (r.sha[0])
		json_object_set_new(out, "analyzedSha", json_string(r.sha));
	if (r.repo[0])
		json_object_set_new(out, "repo", json_string(r.repo));
	if (r.records >= 0)
		json_object_set_new(out, "records", json_integer(r.records));
	if (r.state == FL_Q_FAILED)
		json_object_set_new(out, "error", json_string(r.error));
	char *txt = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	puts(txt);
	free(txt);
	json_decref(out);
	return r.state == FL_Q_FAILED ? 1 : 0;
}

static bool number(const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || errno || !(v >= lo && v <= hi))
		return false;
	*out = v;
	return true;
}

int cmd_batch(int argc, char **argv)
{
	const char *db = NULL, *jobs_s = NULL, *limit_s = NULL, *timeout_s = NULL,
		   *workdir = NULL, *budget_s = NULL, *threads_s = NULL, *parent = NULL;
	bool json = false, one = false;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_VAL("jobs", jobs_s, "N",
			"repositories scanned at once, 1 to 64 (default: 1; each scan "
			"uses the cores divided among the jobs)"),
		CLI_VAL("limit", limit_s, "N",
			"take at most N repositories from the queue (default: all)"),
		CLI_VAL("timeout", timeout_s, "SECONDS",
			"kill a repository's fetch and scan after this long, and count "
			"it as a failed attempt (default: 1800; 0: no limit)"),
		CLI_VAL("workdir", workdir, "DIR",
			"where clone URLs are fetched, one folder each, removed after "
			"the scan (default: faultline-batch beside the store)"),
		CLI_VAL("disk-budget", budget_s, "MB",
			"the most the work folder may hold; a fetch that would pass it "
			"fails (default: 10240; 0: no limit)"),
		CLI_VAL("threads", threads_s, "N",
			"threads of each scan (default: the cores divided among the jobs)"),
		CLI_FLAG("json", json, "print the summary as one JSON object"),
		CLI_FLAG("one", one,
			 "(internal) run the queue row whose id is the operand, as a "
			 "worker of a batch: JSON lines on stdout"),
		CLI_VAL("parent", parent, "PID",
			"(internal, with --one) the batch process that runs this worker"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	double jobs = 1, limit = 0, timeout = 1800, budget_mb = 10240, threads = 0;
	if (jobs_s && !number(jobs_s, 1, 64, &jobs))
		return cli_fail(EXIT_USAGE, "batch: --jobs takes a number from 1 to 64");
	if (limit_s && !number(limit_s, 1, 1e12, &limit))
		return cli_fail(EXIT_USAGE, "batch: --limit takes a number of repositories, 1 or more");
	if (timeout_s && !number(timeout_s, 0, 1e7, &timeout))
		return cli_fail(EXIT_USAGE, "batch: --timeout takes seconds, 0 or more");
	if (budget_s && !number(budget_s, 0, 1e9, &budget_mb))
		return cli_fail(EXIT_USAGE, "batch: --disk-budget takes megabytes, 0 or more");
	if (threads_s && !number(threads_s, 1, 64, &threads))
		return cli_fail(EXIT_USAGE, "batch: --threads takes a number from 1 to 64");
	if ((long long)jobs != jobs || (long long)limit != limit || (long long)threads != threads)
		return cli_fail(EXIT_USAGE, "batch: --jobs, --limit and --threads take whole numbers");
	if (one != (npos == 1))
		return cli_fail(EXIT_USAGE, one ? "batch --one: which queue row?" :
				"batch: takes no operand\nusage: %s", HELP.synopsis);
	char *dbpath = db ? strdup(db) : fl_store_default_path();
	char *wd = NULL;
	if (workdir) {
		wd = strdup(workdir);
	} else {
		char *copy = strdup(dbpath);
		const char *d = dirname(copy);
		wd = malloc(strlen(d) + 20);
		if (wd)
			sprintf(wd, "%s/faultline-batch", d);
		free(copy);
	}
	long long budget = (long long)(budget_mb * 1e6);
	if (one) {
		rc = run_worker(dbpath, pos[0], wd, budget, (int)threads, parent);
		free(dbpath);
		free(wd);
		return rc;
	}
	fl_store *st = cli_open_store(dbpath, false);
	if (!st) {
		free(dbpath);
		free(wd);
		return 1;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0) {
		fl_store_close(st);
		free(dbpath);
		free(wd);
		return cli_fail(1, "batch: cannot find this program's file (/proc/self/exe): %s",
				strerror(errno));
	}
	exe[n] = '\0';
	int per_scan = (int)threads;
	if (!per_scan) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		per_scan = cores / (int)jobs > 0 ? (int)(cores / (int)jobs) : 1;
	}
	char threads_arg[16], budget_arg[32], parent_arg[24];
	snprintf(threads_arg, sizeof threads_arg, "%d", per_scan);
	snprintf(parent_arg, sizeof parent_arg, "%ld", (long)getpid());
	snprintf(budget_arg, sizeof budget_arg, "%.6g", budget_mb);
	const char *wargv[] = {
		exe, "batch", "--one", "--db", fl_store_path(st), "--workdir", wd,
		"--disk-budget", budget_arg, "--threads", threads_arg,
		"--parent", parent_arg, NULL,
	};
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	progress_on = isatty(2) && !json;
	fl_batch_opts o = {
		.worker_argv = wargv, .jobs = (int)jobs, .limit = (long long)limit,
		.timeout = timeout, .max_attempts = 2, .workdir = wd,
		.progress = progress_on, .stop = &stop, .on_failure = on_failure,
	};
	fl_batch_stats s;
	fl_err err;
	rc = fl_batch(st, &o, &s, &err);
	long long counts[FL_Q_NSTATES] = {0};
	fl_err cerr;
	fl_queue_counts(st, counts, &cerr);
	fl_store_close(st);
	free(dbpath);
	free(wd);
	if (rc < 0)
		return cli_fail(1, "batch: %s", err.msg);
	if (json) {
		json_t *j = json_object();
		json_object_set_new(j, "done", json_integer(s.done));
		json_object_set_new(j, "skipped", json_integer(s.skipped));
		json_object_set_new(j, "failed", json_integer(s.failed));
		json_object_set_new(j, "retried", json_integer(s.retried));
		json_object_set_new(j, "stopped", json_integer(s.stopped));
		json_object_set_new(j, "reclaimed", json_integer(s.reclaimed));
		json_object_set_new(j, "records", json_integer(s.records));
		json_object_set_new(j, "pending", json_integer(counts[FL_Q_PENDING]));
		json_object_set_new(j, "seconds", json_real(s.seconds));
		char *txt = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
		puts(txt);
		free(txt);
		json_decref(j);
	} else {
		printf("batch: %lld done (%lld records), %lld skipped (unchanged), %lld failed",
		       s.done, s.records, s.skipped, s.failed);
		if (s.retried)
			printf(", %lld failed once and queued again", s.retried);
		if (s.reclaimed)
			printf(", %lld taken back from a batch that died", s.reclaimed);
		printf(" in %.1f s; %lld pending\n", s.seconds, counts[FL_Q_PENDING]);
	}
	if (stop) {
		fprintf(stderr, "faultline: batch: interrupted; %lld repositor%s in flight went"
			" back to pending\n", s.stopped, s.stopped == 1 ? "y" : "ies");
		return 130;
	}
	return s.failed ? 1 : 0;
}
