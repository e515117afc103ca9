/*
 * bench_scan.c — scan benchmark: scans a tree with libfaultline (into a
 * fresh temporary store, as `faultline scan` does; and again to records
 * only, without a store) and, in the same run,
 * searches the same tree with ripgrep for an equivalent regex set of
 * error-raising idioms, and prints both times, their ratio and the peak RSS.
 *
 * Also times the `faultline` binary next to this one (../faultline) as a
 * process, as ripgrep is timed: `faultline scan TREE --db FRESH`, process
 * start, scan, store and exit.
 *
 * usage: bench_scan TREE [RUNS]
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "faultline.h"

extern char **environ;

/* The idioms the scanner recognises, as one ripgrep regex set. */
static const char *const rg_patterns[] = {
	/* (?-u): ASCII word boundaries, as the scanner's lexers use */
	"(?-u)\\b(throw|raise|fail|abort|die|panic|bail|ensure|anyhow|unreachable|todo|unimplemented)\\b",
	"(?-u)\\b(errors\\.New|fmt\\.Errorf|errors\\.Wrapf?|errors\\.Errorf|http\\.Error|status\\.Errorf?)\\(",
	"(?-u)\\b(log|logger|LOG|logging|console|slog)\\.(error|Error|errorf|Errorf|fatal|Fatal|Fatalf|warn|Warn|warning|exception|critical|severe)\\(",
	"(?-u)\\b(err|errx|warn|warnx|perror|syslog|g_error|g_critical|g_warning|g_set_error|ereport|elog|PyErr_SetString|PyErr_Format|error|warning|fatal|BUG|usage_die|die_errno|error_errno)\\s*\\(",
	"fprintf\\s*\\(\\s*stderr",
	"\\.expect\\(\"",
	"#\\[error\\(",
	"(?-u)\\b(require|check|checkArgument|checkState|requireNonNull|trigger_error|LogError|LogWarning|LogCritical)\\s*[({]",
	"(?-u)\\bres\\.status\\(\\s*[45]",
	NULL,
};

static double run_rg(const char *tree)
{
	const char *argv[64];
	int k = 0;
	argv[k++] = "rg";
	argv[k++] = "--count-matches";
	argv[k++] = "--no-messages";
	for (int i = 0; rg_patterns[i]; i++) {
		argv[k++] = "-e";
		argv[k++] = rg_patterns[i];
	}
	argv[k++] = tree;
	argv[k] = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	double t0 = now();
	if (posix_spawnp(&pid, "rg", &fa, NULL, (char *const *)argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	int status;
	waitpid(pid, &status, 0);
	posix_spawn_file_actions_destroy(&fa);
	return now() - t0;
}

/* `faultline scan TREE --db DB` as a process: seconds, or -1 */
static double run_cli(const char *bin, const char *tree, const char *db)
{
	const char *argv[] = {bin, "scan", tree, "--db", db, NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	double t0 = now();
	if (posix_spawn(&pid, bin, &fa, NULL, (char *const *)argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	int status;
	waitpid(pid, &status, 0);
	posix_spawn_file_actions_destroy(&fa);
	double t = now() - t0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

/* the faultline binary of this build: <build>/bench/bench_scan -> <build>/faultline */
static char *cli_path(void)
{
	static char p[4096];
	ssize_t n = readlink("/proc/self/exe", p, sizeof p - 32);
	if (n <= 0)
		return NULL;
	p[n] = '\0';
	char *slash = strrchr(p, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	slash = strrchr(p, '/');
	if (!slash)
		return NULL;
	strcpy(slash, "/faultline");
	return access(p, X_OK) == 0 ? p : NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_scan TREE [RUNS]\n");
		return 2;
	}
	const char *tree = argv[1];
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	if (runs < 1)
		runs = 1;
	fl_scan_tune_heap(); /* as `faultline scan` does */
	char dir[] = "/tmp/fl-bench-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	double scan_t[64], rg_t[64], tree_t[64], cli_t[64];
	const char *bin = cli_path();
	bool cli_ok = bin != NULL;
	fl_scan_summary last = {0};
	for (int r = 0; r < runs && r < 64; r++) {
		rg_t[r] = run_rg(tree);
		char db[64];
		snprintf(db, sizeof db, "%s/run%d.db", dir, r);
		fl_store *st;
		fl_err err;
		double t0 = now();
		fl_scan_opts o = {.path = tree, .drop_records = true};
		fl_scan_prewarm(&o); /* as `faultline scan` does */
		if (fl_store_open(db, false, &st, &err) < 0) {
			fprintf(stderr, "bench_scan: %s\n", err.msg);
			return 1;
		}
		char started[32];
		fl_now_iso(started);
		o.log_started_at = started;
		fl_scan_result res;
		/* what `faultline scan` does: records written while scanning,
		 * the scan logged in the same transaction */
		if (fl_scan_into_store(&o, st, &res, &err) < 0) {
			fprintf(stderr, "bench_scan: %s\n", err.msg);
			return 1;
		}
		fl_scan_prewarm_join();
		fl_store_close(st);
		scan_t[r] = now() - t0;
		last = res.summary;
		fl_scan_result_free(&res);
		/* the same scan to records only, without a store */
		o.log_started_at = NULL;
		o.drop_records = false;
		t0 = now();
		if (fl_scan_tree(&o, &res, &err) < 0) {
			fprintf(stderr, "bench_scan: %s\n", err.msg);
			return 1;
		}
		tree_t[r] = now() - t0;
		fl_scan_result_free(&res);
		unlink(db);
		/* the binary, as a process */
		if (cli_ok) {
			cli_t[r] = run_cli(bin, tree, db);
			cli_ok = cli_t[r] > 0;
			char side[80];
			unlink(db);
			snprintf(side, sizeof side, "%s-wal", db);
			unlink(side);
			snprintf(side, sizeof side, "%s-shm", db);
			unlink(side);
		}
	}
	int n = runs < 64 ? runs : 64;
	qsort(scan_t, (size_t)n, sizeof(double), cmp_double);
	qsort(rg_t, (size_t)n, sizeof(double), cmp_double);
	qsort(tree_t, (size_t)n, sizeof(double), cmp_double);
	if (cli_ok)
		qsort(cli_t, (size_t)n, sizeof(double), cmp_double);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double scan = scan_t[n / 2], rg = rg_t[n / 2];
	printf("tree            %s\n", tree);
	printf("files           %lld in tree, %lld scanned, %.1f MB scanned\n",
	       last.files_seen, last.files_scanned, (double)last.bytes_scanned / 1e6);
	printf("records         %lld (%lld sites, %lld duplicates)\n", last.records,
	       last.sites, last.duplicates);
	printf("scan (median of %d)  %.3f s wall into a fresh store (as faultline scan), %.3f s to records without a store\n",
	       n, scan, tree_t[n / 2]);
	if (rg > 0)
		printf("ripgrep (median)     %.3f s wall, same tree, %d-regex idiom set\n",
		       rg, (int)(sizeof rg_patterns / sizeof rg_patterns[0]) - 1);
	else
		printf("ripgrep              not found\n");
	if (rg > 0)
		printf("ratio scan/ripgrep   %.2fx (records only, no store: %.2fx)\n", scan / rg,
		       tree_t[n / 2] / rg);
	if (cli_ok && rg > 0)
		printf("faultline scan, as a process like ripgrep: %.3f s wall, %.2fx ripgrep\n",
		       cli_t[n / 2], cli_t[n / 2] / rg);
	printf("peak RSS        %.1f MB\n", (double)ru.ru_maxrss / 1024.0);
	rmdir(dir);
	return 0;
}
