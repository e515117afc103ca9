/*
 * bench_publish.c — publishing benchmark: builds a store of N generated
 * records (default 100000, spread over 50 repositories, varied messages,
 * codes, classes, 37-line source windows) through the library API, then
 * times `export` (data set with search shards) and `site` (static pages
 * from that data set, checked first), then both again over their own
 * output (the export replaces the data set; the site is re-rendered in
 * place), and prints the figures and the peak RSS.  Outputs of an earlier
 * run in WORKDIR are removed before the store is built (not timed).
 *
 * usage: bench_publish [N] [WORKDIR]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "faultline.h"
#include "publish/publish.h"
#include "util.h"

static const char *const verbs[] = {"open", "read", "parse", "decode", "connect to", "resolve",
	"allocate", "lock", "flush", "validate", "load", "bind", "compile", "send", "accept"};
static const char *const nouns[] = {"config file", "socket", "header", "token", "record", "widget",
	"session", "buffer", "index", "cache entry", "certificate", "manifest", "schema", "stream"};
static const char *const tails[] = {": {err}", " after {n} retries", ": permission denied",
	" (expected {want}, got {got})", ": %s", ": unexpected end of input", "", ": timed out after %d ms"};
static const char *const classes[] = {"ValueError", "IOError", "TypeError", "io::Error", NULL, "RuntimeError"};
static const char *const types[] = {"exception", "error_code", "console", "panic", "validation", "http"};
static const char *const sevs[] = {"error", "critical", "warning", "error"};
static const char *const langs[] = {"python", "rust", "go", "c", "java"};

static unsigned long long rng = 88172645463325252ULL;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* CPU seconds (user + system) used so far, for figures independent of how
 * busy a shared machine is. */
static double cpu(double *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	char work[512];
	if (argc > 2)
		snprintf(work, sizeof work, "%s", argv[2]);
	else {
		strcpy(work, "/tmp/fl-bench-publish-XXXXXX");
		if (!mkdtemp(work))
			return 1;
	}
	char db[600], ds[600], site[600];
	snprintf(db, sizeof db, "%s/bench.db", work);
	snprintf(ds, sizeof ds, "%s/dataset", work);
	snprintf(site, sizeof site, "%s/site", work);
	unlink(db);
	pub_rmtree(ds);
	pub_rmtree(site);
	fl_store *st;
	fl_err err;
	if (fl_store_open(db, false, &st, &err) < 0) {
		fprintf(stderr, "bench_publish: %s\n", err.msg);
		return 1;
	}
	double t0 = fl_now_mono();
	const int nrepos = 50;
	const char *sha = "0123456789abcdef0123456789abcdef01234567";
	char now[32];
	fl_now_iso(now);
	/* a 37-line source window */
	char window[4096] = "";
	for (int l = 0; l < 37; l++) {
		char line[128];
		snprintf(line, sizeof line, "%s    if (state->field_%d != expected) { value = compute(%d); }",
			 l ? "\n" : "", l, l * 7);
		strcat(window, line);
	}
	fl_store_begin(st, &err);
	for (int r = 0; r < nrepos; r++) {
		char repo[64];
		snprintf(repo, sizeof repo, "org%02d/project-%02d", r % 17, r);
		long per = n / nrepos + (r < n % nrepos);
		for (long i = 0; i < per; i++) {
			char msg[256], path[128], code[64];
			snprintf(msg, sizeof msg, "cannot %s %s %ld%s", verbs[rnd(NELEM(verbs))],
				 nouns[rnd(NELEM(nouns))], i, tails[rnd(NELEM(tails))]);
			snprintf(path, sizeof path, "src/mod%ld/file%ld.c", i / 400, i / 20);
			bool has_code = rnd(10) == 0;
			snprintf(code, sizeof code, "ERR_%s_%ld", r % 2 ? "IO" : "PARSE", i);
			fl_entry e = {0};
			char id[17];
			fl_record_id(repo, has_code ? code : NULL, msg, path, id);
			e.id = id;
			e.repo = repo;
			char *base = fl_slug_base(has_code ? code : msg);
			e.slug = fl_slug_suffixed(base, id);
			free(base);
			e.error_code = has_code ? code : NULL;
			e.error_message = msg;
			e.message_pattern = fl_message_pattern(msg);
			e.error_type = (char *)types[rnd(NELEM(types))];
			e.error_class = (char *)classes[rnd(NELEM(classes))];
			e.http_status = strcmp(e.error_type, "http") == 0 ? 400 + (int)rnd(100) : 0;
			e.severity = (char *)sevs[rnd(NELEM(sevs))];
			e.file_path = path;
			int line = 19 + (int)(i % 20) * 40;
			e.line_number = line;
			e.source_code = window;
			e.source_code_start = line - 18;
			e.source_code_end = line + 18;
			e.github_url = fl_permalink("github.com", repo, sha, path, line - 18, line + 18, NULL);
			char doc[512], trig[512];
			snprintf(doc, sizeof doc, "`handler_%ld` raises this error when the %s cannot be processed. "
				 "The placeholders are filled in at run time.", i, nouns[rnd(NELEM(nouns))]);
			snprintf(trig, sizeof trig, "A call to `handler_%ld` with an invalid `%s` reaches line %d of %s.",
				 i, nouns[rnd(NELEM(nouns))], line, path);
			e.documentation = doc;
			e.trigger_scenarios = trig;
			e.common_situations = (char *)"Seen in logs and stack traces when the input is malformed.";
			fl_strv_push(&e.solutions, "Check the input against what the function accepts.");
			fl_strv_push(&e.solutions, "Retry once the resource is available.");
			fl_strv_push(&e.tags, langs[r % 5]);
			fl_strv_push(&e.tags, has_code ? "error-code" : "exception");
			if (rnd(3) == 0)
				fl_strv_push(&e.tags, "io");
			e.handling_strategy = (char *)"try-catch";
			e.analyzed_sha = (char *)sha;
			e.analyzed_at = now;
			e.content_changed_at = now;
			e.schema_version = 2;
			if (fl_store_put_entry(st, &e, NULL, &err) < 0) {
				fprintf(stderr, "bench_publish: %s\n", err.msg);
				return 1;
			}
			free(e.slug);
			free(e.message_pattern);
			free(e.github_url);
			fl_strv_free(&e.solutions);
			fl_strv_free(&e.tags);
		}
		fl_repo rp = {0};
		rp.repo = repo;
		rp.language = (char *)langs[r % 5];
		rp.source_files = 100;
		rp.default_branch = (char *)"main";
		rp.analyzed_sha = (char *)sha;
		rp.analyzed_at = now;
		rp.error_count = per;
		if (fl_store_put_repo(st, &rp, &err) < 0) {
			fprintf(stderr, "bench_publish: %s\n", err.msg);
			return 1;
		}
	}
	if (fl_store_commit(st, &err) < 0) {
		fprintf(stderr, "bench_publish: %s\n", err.msg);
		return 1;
	}
	printf("store: %ld records in %d repositories built in %.2f s\n", n, nrepos, fl_now_mono() - t0);

	double s0, s1, u0 = cpu(&s0), u1;
	for (int round = 0; round < 2; round++) {
		const char *what = round ? " again" : "";
		fl_export_stats es;
		if (fl_export(st, ds, &es, &err) < 0) {
			fprintf(stderr, "bench_publish: export: %s\n", err.msg);
			return 1;
		}
		u1 = cpu(&s1);
		printf("export%s: %lld records, %lld files, %.1f MB in %.2f s (cpu %.2f s user + %.2f s system)\n",
		       what, es.errors, es.files, (double)es.bytes / 1e6, es.seconds, u1 - u0, s1 - s0);
		u0 = u1;
		s0 = s1;
		fl_site_stats ss;
		if (fl_site_build(ds, site, NULL, &ss, &err) < 0) {
			fprintf(stderr, "bench_publish: site: %s\n", err.msg);
			return 1;
		}
		u1 = cpu(&s1);
		printf("site%s: %lld pages, %lld files, %.1f MB in %.2f s (cpu %.2f s user + %.2f s system; "
		       "data set checked and linked in); largest error page %lld bytes\n",
		       what, ss.pages, ss.files, (double)ss.bytes / 1e6, ss.seconds, u1 - u0, s1 - s0,
		       ss.largest_error_page);
		u0 = u1;
		s0 = s1;
	}
	fl_store_close(st);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS %.0f MB; output in %s\n", (double)ru.ru_maxrss / 1024, work);
	return 0;
}
