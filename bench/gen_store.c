/*
 * gen_store.c — builds a large store for the lookup benchmarks from the
 * messages of real scanned trees: each generated record takes a real
 * message and varies it (one word replaced by a generated one, sometimes a
 * component prefix), so that patterns and their literal factors differ as
 * they do across many real repositories.  Records are stored as a scan
 * stores them: a repository's records of one file in one compressed block
 * (the records' rows hold no JSON).
 *
 * usage: gen_store --from SOURCE.db --db OUT.db --records N [--seed S]
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "faultline.h"

struct src {
	char **msg, **path, **cls;
	int *line;
	size_t n, cap;
};

static int collect(const fl_entry *e, void *ud)
{
	struct src *s = ud;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->msg = realloc(s->msg, s->cap * sizeof *s->msg);
		s->path = realloc(s->path, s->cap * sizeof *s->path);
		s->cls = realloc(s->cls, s->cap * sizeof *s->cls);
		s->line = realloc(s->line, s->cap * sizeof *s->line);
	}
	s->msg[s->n] = strdup(e->error_message);
	s->path[s->n] = strdup(e->file_path);
	s->cls[s->n] = e->error_class ? strdup(e->error_class) : NULL;
	s->line[s->n] = e->line_number;
	s->n++;
	return 0;
}

static unsigned long long rng = 88172645463325252ull;
static unsigned long long next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* a pronounceable generated word */
static void word(char *out, size_t len)
{
	static const char *const syl[] = {"ka", "lo", "mi", "ne", "ru", "ta", "vo",
		"zi", "be", "da", "fu", "go", "hi", "jo", "pe", "qua", "se", "ti",
		"wu", "xe", "yo", "bra", "cle", "dri", "fro", "glu", "pla", "sto"};
	out[0] = '\0';
	size_t n = 2 + next() % 3;
	for (size_t i = 0; i < n && strlen(out) + 4 < len; i++)
		strcat(out, syl[next() % (sizeof syl / sizeof syl[0])]);
}

/* vary msg: replace one alphabetic word of 3+ letters outside placeholders
 * with a generated word; sometimes prefix a component name */
static char *vary(const char *msg)
{
	size_t n = strlen(msg);
	size_t starts[256], ns = 0;
	int depth = 0;
	for (size_t i = 0; i < n && ns < 256; i++) {
		if (msg[i] == '{')
			depth++;
		else if (msg[i] == '}')
			depth--;
		if (depth == 0 && isalpha((unsigned char)msg[i]) &&
		    (i == 0 || !isalnum((unsigned char)msg[i - 1])) && msg[i] != '%' &&
		    (i == 0 || msg[i - 1] != '%')) {
			size_t k = i;
			while (k < n && isalpha((unsigned char)msg[k]))
				k++;
			if (k - i >= 3)
				starts[ns++] = i;
		}
	}
	char w[32], pre[48] = "";
	word(w, sizeof w);
	if (next() % 3 == 0) {
		char c[32];
		word(c, sizeof c);
		snprintf(pre, sizeof pre, "%s: ", c);
	}
	size_t cap = n + 128;
	char *out = malloc(cap);
	if (!ns) {
		snprintf(out, cap, "%s%s (%s)", pre, msg, w);
		return out;
	}
	size_t at = starts[next() % ns], end = at;
	while (end < n && isalpha((unsigned char)msg[end]))
		end++;
	snprintf(out, cap, "%s%.*s%s%s", pre, (int)at, msg, w, msg + end);
	return out;
}

/* by file, then line */
static int cmp_entry(const void *a, const void *b)
{
	const fl_entry *x = a, *y = b;
	int c = strcmp(x->file_path, y->file_path);
	if (c)
		return c;
	return x->line_number < y->line_number ? -1 : x->line_number > y->line_number;
}

int main(int argc, char **argv)
{
	const char *from = NULL, *db = NULL;
	long long records = 100000;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--from") == 0)
			from = argv[i + 1];
		else if (strcmp(argv[i], "--db") == 0)
			db = argv[i + 1];
		else if (strcmp(argv[i], "--records") == 0)
			records = atoll(argv[i + 1]);
		else if (strcmp(argv[i], "--seed") == 0)
			rng ^= (unsigned long long)atoll(argv[i + 1]) * 2654435761u;
	}
	if (!from || !db || records < 1) {
		fprintf(stderr, "usage: gen_store --from SOURCE.db --db OUT.db --records N [--seed S]\n");
		return 2;
	}
	fl_store *in, *out;
	fl_err err;
	if (fl_store_open(from, true, &in, &err) < 0) {
		fprintf(stderr, "gen_store: %s\n", err.msg);
		return 1;
	}
	struct src s = {0};
	fl_store_each_entry(in, NULL, collect, &s, &err);
	fl_store_close(in);
	if (!s.n) {
		fprintf(stderr, "gen_store: %s has no records to vary\n", from);
		return 1;
	}
	remove(db);
	if (fl_store_open(db, false, &out, &err) < 0 || fl_store_begin(out, &err) < 0) {
		fprintf(stderr, "gen_store: %s\n", err.msg);
		return 1;
	}
	char now[32];
	fl_now_iso(now);
	const char *sha = "0123456789abcdef0123456789abcdef01234567";
	int nrepos = 500;
	for (int r = 0; r < nrepos; r++) {
		char name[64];
		snprintf(name, sizeof name, "gen/repo%03d", r);
		fl_repo rp = {.repo = name, .default_branch = "main", .analyzed_sha = (char *)sha,
			      .analyzed_at = now, .source_files = -1, .error_count = records / nrepos};
		if (fl_store_put_repo(out, &rp, &err) < 0) {
			fprintf(stderr, "gen_store: %s\n", err.msg);
			return 1;
		}
	}
	static const char *const types[] = {"exception", "panic", "console", "http", "validation"};
	/* one repository at a time: its records made (record i goes to
	 * repository i % nrepos, as before), sorted by file, each file's
	 * in one block */
	long long per = (records + nrepos - 1) / nrepos;
	fl_entry *es = calloc((size_t)per + 1, sizeof *es);
	for (int r = 0; r < nrepos; r++) {
		char repo[64];
		snprintf(repo, sizeof repo, "gen/repo%03d", r);
		size_t ne = 0;
		for (long long i = r; i < records; i += nrepos) {
			size_t k = (size_t)(next() % s.n);
			char *msg = i < (long long)s.n ? strdup(s.msg[i]) : vary(s.msg[k]);
			size_t src = i < (long long)s.n ? (size_t)i : k;
			fl_entry *e = &es[ne++];
			memset(e, 0, sizeof *e);
			char id[17];
			fl_record_id(repo, NULL, msg, s.path[src], id);
			e->id = strdup(id);
			e->repo = strdup(repo);
			char *base = fl_slug_base(msg);
			e->slug = fl_slug_suffixed(base, id);
			free(base);
			e->error_message = msg;
			e->message_pattern = fl_message_pattern(msg);
			e->error_type = (char *)types[i % 5];
			e->error_class = s.cls[src];
			e->http_status = i % 5 == 3 ? 500 : 0;
			e->severity = "error";
			e->file_path = s.path[src];
			e->line_number = s.line[src] > 0 ? s.line[src] : 1;
			e->github_url = fl_permalink("github.com", repo, sha, s.path[src], e->line_number,
						     e->line_number, NULL);
			e->documentation = "Generated record for benchmarks, varied from a real message.";
			e->trigger_scenarios = "Generated.";
			e->common_situations = "Generated.";
			e->analyzed_sha = (char *)sha;
			e->analyzed_at = now;
			e->content_changed_at = now;
			e->schema_version = 2;
		}
		qsort(es, ne, sizeof *es, cmp_entry);
		for (size_t k = 0; k < ne;) {
			size_t j = k + 1;
			while (j < ne && strcmp(es[j].file_path, es[k].file_path) == 0)
				j++;
			/* a variation that made an id twice (same message, same
			 * file): the second left out */
			size_t m = k + 1;
			for (size_t x = k + 1; x < j; x++) {
				bool dup = false;
				for (size_t y = k; y < m && !dup; y++)
					dup = strcmp(es[x].id, es[y].id) == 0;
				if (!dup) {
					fl_entry t = es[m];
					es[m++] = es[x];
					es[x] = t;
				}
			}
			if (fl_store_put_file_entries(out, &es[k], NULL, m - k, &err) < 0)
				fprintf(stderr, "gen_store: skipped %zu records of %s: %s\n", m - k,
					es[k].file_path, err.msg);
			k = j;
		}
		for (size_t k = 0; k < ne; k++) {
			free(es[k].id);
			free(es[k].repo);
			free(es[k].slug);
			free(es[k].error_message);
			free(es[k].message_pattern);
			free(es[k].github_url);
		}
	}
	free(es);
	if (fl_store_commit(out, &err) < 0) {
		fprintf(stderr, "gen_store: %s\n", err.msg);
		return 1;
	}
	printf("gen_store: %lld records from %zu real messages into %s\n",
	       fl_store_count_entries(out, NULL), s.n, db);
	fl_store_close(out);
	return 0;
}
