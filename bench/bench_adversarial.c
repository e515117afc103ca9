/*
 * bench_adversarial.c — the lookup against inputs built to make it work
 * hard (issue #18): for each kind, the time of one in-process explain of
 * 1 MB (the target is under 0.5 s) and grep-log's throughput over M MB
 * (the target: 100 MB of any content under 60 s).
 *
 * Kinds: a phrase repeated on one line, the same as lines that match, one
 * line of random bytes, random bytes, invalid UTF-8, only newlines, lines
 * of 8,000 bytes packed with stored messages (many candidates per line),
 * log lines made of stored messages, JSON log lines, indented lines (one
 * multi-line unit after another).
 *
 * usage: bench_adversarial --db STORE [--grep-mb M] [--kinds K1,K2,...]
 *                          [--save DIR]
 * (the store's lookup index is built first when it is missing or stale;
 * --save keeps each generated log as DIR/KIND.log, for profiling
 * `faultline grep-log` on it)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "faultline.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static unsigned long long rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct msgs {
	char **v;
	size_t n, cap;
};

static int collect(const fl_entry *e, void *ud)
{
	struct msgs *m = ud;
	/* every 16th record is plenty of material */
	if (rnd() % 16)
		return 0;
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 4096;
		m->v = realloc(m->v, m->cap * sizeof *m->v);
	}
	m->v[m->n++] = strdup(e->error_message);
	return 0;
}

struct out {
	char *s;
	size_t n, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		o->cap = (o->n + n + 1) * 2;
		o->s = realloc(o->s, o->cap);
	}
	memcpy(o->s + o->n, s, n);
	o->n += n;
	o->s[o->n] = '\0';
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* kind k, at least n bytes (cut to n) */
static void make(const char *k, size_t n, const struct msgs *m, struct out *o)
{
	o->n = 0;
	while (o->n < n) {
		if (!strcmp(k, "phrase-line")) {
			puts_(o, "failed to ");
		} else if (!strcmp(k, "phrase-lines")) {
			puts_(o, "failed to failed to cannot open '/etc/x': failed to read\n");
		} else if (!strcmp(k, "random-line")) {
			char c = (char)('a' + rnd() % 26);
			put(o, &c, 1);
			if (o->n % 16 == 0)
				puts_(o, m->v[rnd() % m->n]); /* real words inside */
		} else if (!strcmp(k, "random-bytes")) {
			unsigned long long r = rnd();
			put(o, (const char *)&r, sizeof r);
		} else if (!strcmp(k, "bad-utf8")) {
			puts_(o, "\xff\xfe\xc3(\xe2\x82 \xa0\xa1 failed to \xf0\x9f\x92");
		} else if (!strcmp(k, "newlines")) {
			puts_(o, "\n\n\n\n\n\n\n\n");
		} else if (!strcmp(k, "dense-8k")) {
			size_t start = o->n;
			while (o->n - start < 8000) {
				puts_(o, m->v[rnd() % m->n]);
				puts_(o, " ");
			}
			o->n = start + 8000;
			puts_(o, "\n");
		} else if (!strcmp(k, "log-lines")) {
			puts_(o, "2026-11-29T10:00:00Z ERROR ");
			const char *s = m->v[rnd() % m->n];
			const char *nl = strchr(s, '\n');
			put(o, s, nl ? (size_t)(nl - s) : strlen(s));
			puts_(o, "\n");
		} else if (!strcmp(k, "json-lines")) {
			puts_(o, "{\"level\":\"error\",\"msg\":\"");
			for (const char *s = m->v[rnd() % m->n]; *s; s++)
				if (*s != '"' && *s != '\\' && (unsigned char)*s >= 0x20)
					put(o, s, 1);
			puts_(o, "\"}\n");
		} else if (!strcmp(k, "indented")) {
			puts_(o, "    at failed to failed to (cannot open x: failed to read)\n");
		} else {
			fprintf(stderr, "bench_adversarial: unknown kind %s\n", k);
			exit(2);
		}
	}
	o->n = n;
	o->s[n] = '\0';
}

static int count_cb(const fl_logmatch *lm, void *ud)
{
	(void)lm;
	++*(long long *)ud;
	return 0;
}

int main(int argc, char **argv)
{
	const char *db = NULL;
	const char *kinds = "phrase-line,phrase-lines,random-line,random-bytes,bad-utf8,"
			    "newlines,dense-8k,log-lines,json-lines,indented";
	long grep_mb = 100;
	const char *save_dir = NULL;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--db"))
			db = argv[i + 1];
		else if (!strcmp(argv[i], "--grep-mb"))
			grep_mb = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--kinds"))
			kinds = argv[i + 1];
		else if (!strcmp(argv[i], "--save"))
			save_dir = argv[i + 1];
	}
	if (!db) {
		fprintf(stderr, "usage: bench_adversarial --db STORE [--grep-mb M] [--kinds K1,K2,...]\n");
		return 2;
	}
	fl_store *st;
	fl_err err;
	fl_lookup *lk;
	if (fl_store_open(db, true, &st, &err) < 0 || fl_lookup_open(st, &lk, &err) < 0) {
		fprintf(stderr, "bench_adversarial: %s\n", err.msg);
		return 1;
	}
	struct msgs m = {0};
	fl_store_each_entry(st, NULL, collect, &m, &err);
	if (!m.n) {
		fprintf(stderr, "bench_adversarial: the store has no records\n");
		return 1;
	}
	printf("records %zu, messages sampled %zu, lines over %d bytes matched on %d + %d\n",
	       fl_lookup_count(lk), m.n, FL_LINE_MAX, FL_LINE_KEEP, FL_LINE_KEEP);
	printf("%-14s %12s %8s %8s   %14s %10s %10s\n", "kind", "explain 1MB", "matches",
	       "cut", "grep-log", "MB/s", "matched");
	char *list = strdup(kinds);
	struct out o = {0};
	for (char *save = NULL, *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		make(k, 1u << 20, &m, &o);
		fl_result r;
		/* warm: a first run, then the best of three */
		fl_lookup_explain(lk, o.s, o.n, NULL, 10, &r);
		fl_result_free(&r);
		double best = 1e9;
		for (int t = 0; t < 3; t++) {
			double t0 = now();
			fl_lookup_explain(lk, o.s, o.n, NULL, 10, &r);
			double dt = now() - t0;
			if (dt < best)
				best = dt;
			if (t < 2)
				fl_result_free(&r);
		}
		printf("%-14s %9.1f ms %8zu %8zu", k, best * 1e3, r.n, r.cut_lines);
		fl_result_free(&r);
		fflush(stdout);
		if (grep_mb <= 0) {
			printf("\n");
			continue;
		}
		size_t n = (size_t)grep_mb << 20;
		make(k, n, &m, &o);
		if (save_dir) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s.log", save_dir, k);
			FILE *f = fopen(path, "wb");
			if (!f || fwrite(o.s, 1, o.n, f) != o.n || fclose(f) != 0)
				fprintf(stderr, "bench_adversarial: cannot write %s\n", path);
		}
		FILE *in = fmemopen(o.s, o.n, "r");
		long long matched = 0;
		fl_grep_stats gs;
		double t0 = now();
		int rc = fl_grep_log(lk, in, NULL, count_cb, &matched, &gs, &err);
		double dt = now() - t0;
		fclose(in);
		if (rc < 0) {
			printf("   grep-log failed: %s\n", err.msg);
			continue;
		}
		printf("   %5ld MB %5.2f s %10.0f %10lld\n", grep_mb, dt, (double)grep_mb / dt,
		       matched);
		fflush(stdout);
	}
	free(o.s);
	free(list);
	for (size_t i = 0; i < m.n; i++)
		free(m.v[i]);
	free(m.v);
	fl_lookup_close(lk);
	fl_lookup_thread_done();
	fl_store_close(st);
	return 0;
}
