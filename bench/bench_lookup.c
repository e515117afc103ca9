/*
 * bench_lookup.c — lookup benchmark over a (generated) store:
 *   - matcher build time and peak RSS (in a child process),
 *   - cold `faultline explain` processes (wall time),
 *   - warm explain latency p50/p99 on realistic queries (filled
 *     placeholders, some wrapped in log prefixes, tracebacks, panics) and
 *     how often the source record ranks first,
 *   - the naive baseline in the same run: every pattern tried in turn with
 *     PCRE2 (JIT), and the ratio,
 *   - grep-log throughput on a generated realistic mixed log.
 *
 * usage: bench_lookup --db STORE --bin FAULTLINE [--queries N]
 *                     [--baseline-queries N] [--log-mb M]
 *                     [--keep-index 1] [--log-file PATH]
 *                     [--query-file PATH] [--passes N]
 *
 * The grep-log figure counts matched units, and apart the matched units
 * that begin with one of the noise lines (which must never match).
 * --log-file keeps the generated log at PATH (for profiling
 * `faultline grep-log` on it).  --query-file keeps the generated queries
 * (and the messages they were made from) at PATH, and a later run with no
 * baseline and no log reads them from there instead of reading every
 * record (minutes at 10M).  --passes N runs the warm queries N times: the
 * first pass pays the first touch of the index's pages and of the
 * per-thread tables, the later ones only the lookups.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "bench_util.h"
#include "faultline.h"

extern char **environ;

struct rec {
	char *id, *msg, *pattern, *path;
};
struct recs {
	struct rec *v;
	size_t n, cap;
};

static int collect(const fl_entry *e, void *ud)
{
	struct recs *r = ud;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 4096;
		r->v = realloc(r->v, r->cap * sizeof *r->v);
	}
	r->v[r->n++] = (struct rec){strdup(e->id), strdup(e->error_message),
				     strdup(e->message_pattern), strdup(e->file_path)};
	return 0;
}

/* s written on one line: '\\', '\n' and '\t' escaped */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else
			fputc(*s, f);
	}
}

/* put_escaped's text [s, e) back, in a new string */
static char *unescape(const char *s, const char *e)
{
	char *out = malloc((size_t)(e - s) + 1), *o = out;
	for (; s < e; s++) {
		if (*s == '\\' && s + 1 < e) {
			s++;
			*o++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

/* Read up to nq "want<TAB>query" lines; returns how many. */
static size_t read_queries(const char *path, size_t nq, char **wants, char **qs)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char *line = NULL;
	size_t cap = 0, n = 0;
	ssize_t len;
	while (n < nq && (len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		char *tab = strchr(line, '\t');
		if (!tab)
			break;
		wants[n] = unescape(line, tab);
		qs[n] = unescape(tab + 1, line + len);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static unsigned long long rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* the message as a program would print it: placeholders filled */
static char *fill(const char *msg)
{
	static const char *const vals[] = {"/etc/app.toml", "42", "alice", "0x7f3a",
		"connection reset", "users", "3.14", "GET", "main"};
	size_t cap = strlen(msg) * 2 + 64, o = 0;
	char *out = malloc(cap);
	for (size_t i = 0; msg[i];) {
		const char *v = NULL;
		size_t skip = 0;
		if (msg[i] == '{') {
			const char *e = strchr(msg + i, '}');
			if (e) {
				skip = (size_t)(e - (msg + i)) + 1;
				v = vals[rnd() % 9];
			}
		} else if (msg[i] == '%' && msg[i + 1] == '%') {
			skip = 2;
			v = "%";
		} else if (msg[i] == '%') {
			size_t k = i + 1;
			while (msg[k] && strchr("-+ #0123456789.*lhzjtqL", msg[k]))
				k++;
			if (msg[k] && isalpha((unsigned char)msg[k])) {
				/* what the conversion prints: an integer one digits
				 * (of its base), a float one a number */
				static const char *const ints[] = {"42", "7", "1024", "0"};
				char cv = msg[k];
				skip = k + 1 - i;
				v = strchr("diu", cv)  ? ints[rnd() % 4]
				    : strchr("xX", cv) ? "7f3a"
				    : cv == 'o'        ? "17"
				    : strchr("eEfFgG", cv) ? "3.14"
							  : vals[rnd() % 9];
			}
		}
		if (v) {
			size_t l = strlen(v);
			if (o + l + 2 >= cap) {
				cap = (o + l) * 2 + 64;
				out = realloc(out, cap);
			}
			memcpy(out + o, v, l);
			o += l;
			i += skip;
		} else {
			if (o + 2 >= cap) {
				cap = o * 2 + 64;
				out = realloc(out, cap);
			}
			out[o++] = msg[i++];
		}
	}
	out[o] = '\0';
	return out;
}

/* a query as a user would paste it */
static char *wrap(const char *text, const char *path, int kind)
{
	char *q = NULL;
	switch (kind % 4) {
	case 0:
		q = strdup(text);
		break;
	case 1:
		if (asprintf(&q, "2026-11-29T10:00:00.123Z ERROR [worker-3] %s", text) < 0)
			q = NULL;
		break;
	case 2:
		if (asprintf(&q, "Traceback (most recent call last):\n  File \"/srv/%s\", line 10, in run\n    do()\nRuntimeError: %s", path, text) < 0)
			q = NULL;
		break;
	default:
		if (asprintf(&q, "panic: %s\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/%s:10 +0x1d\nexit status 2", text, path) < 0)
			q = NULL;
		break;
	}
	return q;
}

static void build_child(const char *db)
{
	pid_t pid = fork();
	if (pid == 0) {
		fl_store *st;
		fl_err err;
		char *idx;
		if (asprintf(&idx, "%s.lookup", db) < 0)
			_exit(1);
		remove(idx);
		if (fl_store_open(db, true, &st, &err) < 0)
			_exit(1);
		double t0 = now();
		fl_lookup *lk;
		if (fl_lookup_open(st, &lk, &err) < 0) {
			fprintf(stderr, "bench_lookup: %s\n", err.msg);
			_exit(1);
		}
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf("matcher build   %.2f s for %zu records, peak RSS %.0f MB (cached to %s)\n",
		       now() - t0, fl_lookup_count(lk), (double)ru.ru_maxrss / 1024.0, idx);
		fflush(stdout);
		/* the literal databases long texts are scanned with: made on
		 * the first log, timed apart */
		char *hs;
		if (asprintf(&hs, "%s.hs", idx) < 0)
			_exit(1);
		remove(hs);
		t0 = now();
		bool ok = fl_lookup_prepare_long(lk);
		getrusage(RUSAGE_SELF, &ru);
		printf("log databases   %.2f s%s, peak RSS %.0f MB (cached to %s)\n", now() - t0,
		       ok ? "" : " (FAILED)", (double)ru.ru_maxrss / 1024.0, hs);
		fflush(stdout);
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
}

static double cold_run(const char *bin, const char *db, const char *q)
{
	const char *argv[] = {bin, "explain", "--db", db, "--json", q, NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
	pid_t pid;
	double t0 = now();
	if (posix_spawn(&pid, bin, &fa, NULL, (char *const *)argv, environ) != 0)
		return -1;
	int st;
	waitpid(pid, &st, 0);
	posix_spawn_file_actions_destroy(&fa);
	return now() - t0;
}

/* the lines of the generated log that are no error */
static const char *const noise[] = {
	"INFO request served", "DEBUG cache hit for key", "INFO user logged in",
	"WARN slow query took", "INFO job finished", "DEBUG opening connection to",
	"INFO health check ok", "INFO upstream responded 200 in"};

struct grep_count {
	long long matched, noise;
};

/* noise lines are "<24-byte timestamp> <noise[k]> ..." */
static int count_cb(const fl_logmatch *lm, void *ud)
{
	struct grep_count *c = ud;
	c->matched++;
	if (lm->text_len > 25 && lm->text[24] == ' ')
		for (size_t k = 0; k < sizeof noise / sizeof *noise; k++) {
			size_t l = strlen(noise[k]);
			if (lm->text_len >= 25 + l && memcmp(lm->text + 25, noise[k], l) == 0) {
				c->noise++;
				break;
			}
		}
	return 0;
}

int main(int argc, char **argv)
{
	const char *db = NULL, *bin = NULL;
	size_t nq = 2000, nbase = 20;
	int keep = 0;
	long log_mb = 200;
	const char *log_file = NULL, *query_file = NULL;
	int passes = 1;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--db"))
			db = argv[i + 1];
		else if (!strcmp(argv[i], "--bin"))
			bin = argv[i + 1];
		else if (!strcmp(argv[i], "--queries"))
			nq = (size_t)atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--baseline-queries"))
			nbase = (size_t)atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--log-mb"))
			log_mb = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--keep-index"))
			keep = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--log-file"))
			log_file = argv[i + 1];
		else if (!strcmp(argv[i], "--query-file"))
			query_file = argv[i + 1];
		else if (!strcmp(argv[i], "--passes"))
			passes = atoi(argv[i + 1]) > 0 ? atoi(argv[i + 1]) : 1;
	}
	if (!db || !bin) {
		fprintf(stderr, "usage: bench_lookup --db STORE --bin FAULTLINE [--queries N] [--baseline-queries N] [--log-mb M] [--keep-index 1] [--log-file PATH] [--query-file PATH] [--passes N]\n");
		return 2;
	}
	if (!keep)
		build_child(db);

	fl_store *st;
	fl_err err;
	if (fl_store_open(db, true, &st, &err) < 0) {
		fprintf(stderr, "bench_lookup: %s\n", err.msg);
		return 1;
	}
	/* queries: from the file, else made from the records */
	struct recs rs = {0};
	char **qs = calloc(nq + 1, sizeof *qs);
	char **wants = calloc(nq + 1, sizeof *wants);
	size_t got = 0;
	if (query_file && nbase == 0 && log_mb <= 0)
		got = read_queries(query_file, nq, wants, qs);
	if (got == nq && nq > 0) {
		printf("queries         %zu from %s\n", nq, query_file);
	} else {
		for (size_t i = 0; i < got; i++) {
			free(wants[i]);
			free(qs[i]);
		}
		fl_store_each_entry(st, NULL, collect, &rs, &err);
		printf("records         %zu\n", rs.n);
		for (size_t i = 0; i < nq; i++) {
			size_t src = (size_t)(rnd() % rs.n);
			char *f = fill(rs.v[src].msg);
			qs[i] = wrap(f, rs.v[src].path, (int)i);
			wants[i] = strdup(rs.v[src].msg);
			free(f);
		}
		FILE *qf = query_file ? fopen(query_file, "w") : NULL;
		for (size_t i = 0; qf && i < nq; i++) {
			put_escaped(qf, wants[i]);
			fputc('\t', qf);
			put_escaped(qf, qs[i]);
			fputc('\n', qf);
		}
		if (qf)
			fclose(qf);
	}

	/* cold processes */
	double cold[20];
	for (int i = 0; i < 20; i++)
		cold[i] = cold_run(bin, db, qs[i % nq]);
	qsort(cold, 20, sizeof(double), cmpd);
	printf("cold explain    p50 %.1f ms, max %.1f ms (whole process, %s)\n",
	       pct(cold, 20, 0.5) * 1e3, cold[19] * 1e3, bin);

	/* warm */
	double t0 = now();
	fl_lookup *lk;
	if (fl_lookup_open(st, &lk, &err) < 0) {
		fprintf(stderr, "bench_lookup: %s\n", err.msg);
		return 1;
	}
	printf("index load      %.1f ms (in process)\n", (now() - t0) * 1e3);
	double *lat = calloc(nq, sizeof *lat);
	double p50 = 0; /* the last pass's */
	for (int pass = 1; pass <= passes; pass++) {
		double slow_t[5] = {0};
		size_t slow_i[5] = {0};
		size_t first = 0, top3 = 0, none = 0;
		for (size_t i = 0; i < nq; i++) {
			fl_result r;
			double a = now();
			fl_lookup_explain(lk, qs[i], strlen(qs[i]), NULL, 10, &r);
			lat[i] = now() - a;
			for (int k = 0; k < 5; k++)
				if (lat[i] > slow_t[k]) {
					for (int j = 4; j > k; j--) {
						slow_t[j] = slow_t[j - 1];
						slow_i[j] = slow_i[j - 1];
					}
					slow_t[k] = lat[i];
					slow_i[k] = i;
					break;
				}
			const char *want = wants[i];
			if (!r.n)
				none++;
			for (size_t k = 0; k < r.n && k < 3; k++)
				if (strcmp(r.v[k].message, want) == 0) {
					if (k == 0)
						first++;
					top3++;
					break;
				}
			if (pass == 1 && getenv("BENCH_MISSES") && (!r.n || strcmp(r.v[0].message, want) != 0))
				printf("miss            %.3f ms\n  query %.200s\n  want  %.200s\n  got   %.200s (%s, %.3f)\n",
				       lat[i] * 1e3, qs[i], want, r.n ? r.v[0].message : "-",
				       r.n && r.match_type ? r.match_type : "-", r.n ? r.v[0].score : 0.0);
			fl_result_free(&r);
		}
		qsort(lat, nq, sizeof *lat, cmpd);
		p50 = pct(lat, nq, 0.5);
		double p99 = pct(lat, nq, 0.99);
		printf("warm explain    p50 %.3f ms, p99 %.3f ms, max %.3f ms over %zu queries%s\n",
		       p50 * 1e3, p99 * 1e3, lat[nq - 1] * 1e3, nq,
		       passes > 1 ? (pass == 1 ? " (pass 1)" : " (again)") : "");
		if (getenv("BENCH_SLOWEST"))
			for (int k = 0; k < 5; k++)
				printf("slow query      %.3f ms: %.100s\n", slow_t[k] * 1e3, qs[slow_i[k]]);
		if (pass == 1)
			printf("accuracy        source message ranked first %.1f%%, in top 3 %.1f%%, no answer %.1f%%\n",
			       100.0 * (double)first / (double)nq, 100.0 * (double)top3 / (double)nq,
			       100.0 * (double)none / (double)nq);
	}

	/* naive baseline: every pattern in turn */
	if (nbase > 0) {
		double c0 = now();
		pcre2_code **codes = calloc(rs.n, sizeof *codes);
		for (size_t i = 0; i < rs.n; i++) {
			int ec;
			PCRE2_SIZE eo;
			codes[i] = pcre2_compile((PCRE2_SPTR)rs.v[i].pattern, PCRE2_ZERO_TERMINATED,
						 PCRE2_UTF, &ec, &eo, NULL);
			if (codes[i])
				pcre2_jit_compile(codes[i], PCRE2_JIT_COMPLETE);
		}
		double compile = now() - c0;
		pcre2_match_data *md = pcre2_match_data_create(64, NULL);
		double *bl = calloc(nbase, sizeof *bl);
		for (size_t q = 0; q < nbase && q < nq; q++) {
			double a = now();
			size_t hits = 0;
			for (size_t i = 0; i < rs.n; i++)
				if (codes[i] && pcre2_match(codes[i], (PCRE2_SPTR)qs[q],
							    strlen(qs[q]), 0, 0, md, NULL) > 0)
					hits++;
			bl[q] = now() - a;
			(void)hits;
		}
		size_t nb = nbase < nq ? nbase : nq;
		qsort(bl, nb, sizeof *bl, cmpd);
		double b50 = pct(bl, nb, 0.5);
		printf("naive PCRE2     p50 %.2f ms per query (%zu queries; %.1f s to compile %zu patterns)\n",
		       b50 * 1e3, nb, compile, rs.n);
		printf("speed-up        %.0fx (naive p50 / faultline p50)\n", b50 / p50);
		for (size_t i = 0; i < rs.n; i++)
			pcre2_code_free(codes[i]);
		free(codes);
		free(bl);
		pcre2_match_data_free(md);
	}

	/* grep-log over a realistic mixed log */
	if (log_mb > 0) {
		char tmpl[] = "/tmp/fl-bench-log-XXXXXX";
		const char *path = log_file ? log_file : tmpl;
		FILE *f = NULL;
		if (log_file) {
			f = fopen(log_file, "w");
		} else {
			int fd = mkstemp(tmpl);
			if (fd >= 0)
				f = fdopen(fd, "w");
		}
		if (!f) {
			fprintf(stderr, "bench_lookup: cannot write the log %s\n", path);
			return 1;
		}
		long long bytes = 0, errors = 0;
		while (bytes < log_mb * 1000000L) {
			char line[2048];
			int n;
			unsigned long long r = rnd();
			if (r % 100 < 3) {
				size_t k = (size_t)(rnd() % rs.n);
				char *t = fill(rs.v[k].msg);
				n = snprintf(line, sizeof line, "2026-11-29T10:%02d:%02d.%03dZ ERROR %s\n",
					     (int)(r % 60), (int)(r / 60 % 60), (int)(r % 1000), t);
				free(t);
				errors++;
			} else {
				n = snprintf(line, sizeof line,
					     "2026-11-29T10:%02d:%02d.%03dZ %s %llu id=%llx path=/api/v1/items/%llu\n",
					     (int)(r % 60), (int)(r / 60 % 60), (int)(r % 1000),
					     noise[r % 8], r % 100000, rnd(), r % 977);
			}
			if (n > 0)
				bytes += fwrite(line, 1, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1), f);
		}
		fclose(f);
		FILE *in = fopen(path, "rb");
		/* the log databases made (or mapped) before the timing: the
		 * build above times their making */
		fl_lookup_prepare_long(lk);
		struct grep_count gc = {0, 0};
		fl_grep_stats gs;
		double a = now();
		if (fl_grep_log(lk, in, NULL, count_cb, &gc, &gs, &err) < 0) {
			fprintf(stderr, "bench_lookup: %s\n", err.msg);
			return 1;
		}
		double dt = now() - a;
		fclose(in);
		if (!log_file)
			remove(path);
		printf("grep-log        %.0f MB/s (%.0f MB, %lld lines, %lld error lines written, %lld matched, %lld noise matched) in %.2f s\n",
		       (double)gs.bytes / 1e6 / dt, (double)gs.bytes / 1e6, gs.lines, errors,
		       gc.matched, gc.noise, dt);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("bench peak RSS  %.0f MB\n", (double)ru.ru_maxrss / 1024.0);
	fl_lookup_close(lk);
	fl_store_close(st);
	return 0;
}
