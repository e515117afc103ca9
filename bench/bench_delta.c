/*
 * bench_delta.c — the incremental lookup index (lib/lookup/segment.c) on
 * a (generated) store: the full build, then a rescan of one repository
 * (its records written again: one removed, one changed, one added) and
 * the time until the next lookup is ready (the delta built and the new
 * record answered), warm explain latency p50/p99 on the base alone and on
 * base + delta (the literal databases of long texts made first, timed
 * apart), and the open of a lookup that finds the delta made.
 *
 * usage: bench_delta --db STORE [--repo OWNER/NAME] [--queries N]
 *                    [--bin FAULTLINE] [--warm-only 1]
 *
 * --warm-only 1: no build, no rescan: warm latency of the lookup the
 * store's index files give as they are.
 *
 * It changes the store (the repository's records are rewritten) and
 * replaces its lookup index files.  --bin: also cold `faultline explain`
 * processes over base + delta.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "faultline.h"

extern char **environ;

/* records, as JSON (written back as they were) */
struct recs {
	char **json;
	size_t n, cap;
};

static int collect(const fl_entry *e, void *ud)
{
	struct recs *r = ud;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 1024;
		r->json = realloc(r->json, r->cap * sizeof *r->json);
	}
	r->json[r->n++] = fl_entry_to_json(e, false);
	return 0;
}

/* the message as a program prints it: each {placeholder} filled */
static char *fill(const char *msg)
{
	char *out = malloc(2 * strlen(msg) + 3), *o = out;
	for (const char *p = msg; *p;) {
		const char *e = *p == '{' ? strchr(p, '}') : NULL;
		if (e) {
			*o++ = '4';
			*o++ = '2';
			p = e + 1;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

static void warm(fl_lookup *lk, char **qs, size_t nq, const char *what)
{
	double *lat = calloc(nq + 1, sizeof *lat);
	size_t answered = 0;
	for (size_t i = 0; i < nq; i++) {
		fl_result r;
		double a = now();
		fl_lookup_explain(lk, qs[i], strlen(qs[i]), NULL, 10, &r);
		lat[i] = now() - a;
		answered += r.n > 0;
		fl_result_free(&r);
	}
	qsort(lat, nq, sizeof *lat, cmpd);
	printf("warm explain    %s: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu queries, %zu answered)\n",
	       what, pct(lat, nq, 0.5) * 1e3, pct(lat, nq, 0.99) * 1e3, lat[nq ? nq - 1 : 0] * 1e3,
	       nq, answered);
	free(lat);
}

static double cold_run(const char *bin, const char *db, const char *q)
{
	char *argv[] = {(char *)bin, "explain", "--db", (char *)db, (char *)q, NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	double t0 = now();
	pid_t pid;
	if (posix_spawn(&pid, bin, &fa, NULL, argv, environ) != 0)
		return -1;
	int status;
	waitpid(pid, &status, 0);
	posix_spawn_file_actions_destroy(&fa);
	return now() - t0;
}

static void unlink_index(const char *db)
{
	static const char *const sfx[] = {".lookup", ".lookup.hs", ".lookup.delta",
					  ".lookup.delta.hs"};
	for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
		char *p;
		if (asprintf(&p, "%s%s", db, sfx[i]) >= 0) {
			unlink(p);
			free(p);
		}
	}
}

static fl_lookup *open_timed(fl_store *st, double *secs)
{
	fl_err err;
	fl_lookup *lk;
	double t0 = now();
	if (fl_lookup_open(st, &lk, &err) < 0) {
		fprintf(stderr, "bench_delta: %s\n", err.msg);
		exit(1);
	}
	*secs = now() - t0;
	return lk;
}

int main(int argc, char **argv)
{
	const char *db = NULL, *repo = "gen/repo123", *bin = NULL;
	size_t nq = 2000;
	bool warm_only = false;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--db") == 0)
			db = argv[i + 1];
		else if (strcmp(argv[i], "--repo") == 0)
			repo = argv[i + 1];
		else if (strcmp(argv[i], "--queries") == 0)
			nq = (size_t)atol(argv[i + 1]);
		else if (strcmp(argv[i], "--bin") == 0)
			bin = argv[i + 1];
		else if (strcmp(argv[i], "--warm-only") == 0)
			warm_only = atoi(argv[i + 1]) != 0;
	}
	if (!db) {
		fprintf(stderr, "usage: bench_delta --db STORE [--repo OWNER/NAME] [--queries N] [--bin FAULTLINE]\n");
		return 2;
	}
	fl_store *st;
	fl_err err;
	if (fl_store_open(db, false, &st, &err) < 0) {
		fprintf(stderr, "bench_delta: %s\n", err.msg);
		return 1;
	}
	/* the repository's records, and queries from it and a few others */
	struct recs mine = {0}, others = {0};
	if (fl_store_each_entry(st, repo, collect, &mine, &err) < 0 || mine.n < 3) {
		fprintf(stderr, "bench_delta: %s has too few records\n", repo);
		return 1;
	}
	for (int k = 0; k < 8; k++) {
		char name[64];
		snprintf(name, sizeof name, "gen/repo%03d", 17 + 59 * k);
		fl_store_each_entry(st, name, collect, &others, &err);
	}
	char **qs = calloc(nq + 1, sizeof *qs);
	size_t n = 0;
	for (size_t i = 0; i < others.n && n < nq; i += 1 + others.n / (nq + 1)) {
		fl_entry e;
		if (fl_entry_from_json(others.json[i], strlen(others.json[i]), &e, &err) == 0) {
			qs[n++] = fill(e.error_message);
			fl_entry_free(&e);
		}
	}
	nq = n;

	double t, t0;
	if (warm_only) {
		fl_lookup *lk = open_timed(st, &t);
		printf("index load      %.1f ms (%s)\n", t * 1e3,
		       fl_lookup_was_built(lk) ? "built" : "as kept");
		fl_lookup_prepare_long(lk);
		warm(lk, qs, nq, "as kept     ");
		fl_lookup_close(lk);
		fl_store_close(st);
		return 0;
	}
	/* the full build */
	unlink_index(db);
	fl_lookup *lk = open_timed(st, &t);
	printf("full build      %.2f s for %zu records\n", t, fl_lookup_count(lk));
	size_t records = fl_lookup_count(lk);
	t0 = now();
	bool ok = fl_lookup_prepare_long(lk);
	printf("log databases   %.2f s%s (base)\n", now() - t0, ok ? "" : " (FAILED)");
	warm(lk, qs, nq, "base alone  ");
	fl_lookup_close(lk);
	char *base;
	if (asprintf(&base, "%s.lookup", db) < 0)
		return 1;
	struct stat b0;
	stat(base, &b0);

	/* the rescan: the first record gone, the second changed, one new */
	t0 = now();
	if (fl_store_begin(st, &err) < 0 || fl_store_clear_repo(st, repo, &err) < 0) {
		fprintf(stderr, "bench_delta: %s\n", err.msg);
		return 1;
	}
	char *newmsg = NULL;
	for (size_t i = 1; i <= mine.n; i++) {
		fl_entry e;
		const char *json = mine.json[i < mine.n ? i : 1];
		if (fl_entry_from_json(json, strlen(json), &e, &err) < 0)
			continue;
		if (i == 1 || i == mine.n) {
			char *m;
			if (asprintf(&m, i == 1 ? "%s while the ledger was sealed" :
						  "the quartermaster refused to stamp ledger %s",
				     i == 1 ? e.error_message : "{ledger}") < 0)
				return 1;
			free(e.error_message);
			e.error_message = m;
			free(e.message_pattern);
			e.message_pattern = fl_message_pattern(m);
			char id[17];
			fl_record_id(repo, NULL, m, e.file_path, id);
			free(e.id);
			e.id = strdup(id);
			char *sb = fl_slug_base(m);
			free(e.slug);
			e.slug = fl_slug_suffixed(sb, id);
			free(sb);
			if (i == mine.n)
				newmsg = fill(m);
		}
		if (fl_store_put_entry(st, &e, NULL, &err) < 0)
			fprintf(stderr, "bench_delta: skipped: %s\n", err.msg);
		fl_entry_free(&e);
	}
	if (fl_store_commit(st, &err) < 0) {
		fprintf(stderr, "bench_delta: %s\n", err.msg);
		return 1;
	}
	printf("rescan write    %.2f s (%s: %zu records rewritten)\n", now() - t0, repo, mine.n);

	/* the next lookup: the delta built, the new record answered */
	t0 = now();
	lk = open_timed(st, &t);
	fl_result r;
	fl_lookup_explain(lk, newmsg, strlen(newmsg), NULL, 5, &r);
	double ready = now() - t0;
	bool found = r.n > 0 && strcmp(r.v[0].repo, repo) == 0;
	fl_result_free(&r);
	struct stat b1;
	stat(base, &b1);
	char *delta;
	if (asprintf(&delta, "%s.lookup.delta", db) < 0)
		return 1;
	struct stat ds;
	bool has_delta = stat(delta, &ds) == 0;
	printf("rescan of one repository in a %zu-record store: next lookup ready in %.3f s "
	       "(open %.3f s: %s; the new record %s; base %s)\n",
	       records, ready, t,
	       has_delta ? "a delta built" : "NO DELTA (full rebuild)", found ? "found" : "NOT FOUND",
	       b0.st_ino == b1.st_ino && b0.st_mtime == b1.st_mtime ? "not rewritten" : "REWRITTEN");
	if (has_delta)
		printf("delta file      %.1f MB\n", (double)ds.st_size / (1 << 20));
	t0 = now();
	ok = fl_lookup_prepare_long(lk);
	printf("log databases   %.2f s%s (the base's mapped, the delta's made)\n", now() - t0,
	       ok ? "" : " (FAILED)");
	warm(lk, qs, nq, "base + delta");
	fl_lookup_close(lk);

	/* a later process: the delta loaded */
	lk = open_timed(st, &t);
	printf("index load      %.1f ms with the delta made (in process)\n", t * 1e3);
	fl_lookup_close(lk);
	if (bin) {
		double cold[20];
		for (int i = 0; i < 20; i++)
			cold[i] = cold_run(bin, db, qs[i % (nq ? nq : 1)]);
		qsort(cold, 20, sizeof(double), cmpd);
		printf("cold explain    p50 %.1f ms, max %.1f ms over base + delta (whole process)\n",
		       pct(cold, 20, 0.5) * 1e3, cold[19] * 1e3);
	}
	fl_lookup_thread_done();
	fl_store_close(st);
	for (size_t i = 0; i < mine.n; i++)
		free(mine.json[i]);
	for (size_t i = 0; i < others.n; i++)
		free(others.json[i]);
	for (size_t i = 0; i < nq; i++)
		free(qs[i]);
	free(mine.json);
	free(others.json);
	free(qs);
	free(newmsg);
	free(base);
	free(delta);
	return found && has_delta ? 0 : 1;
}
