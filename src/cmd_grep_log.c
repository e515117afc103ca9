/*
 * cmd_grep_log.c — `faultline grep-log FILE | -`: stream a log and annotate
 * every line (or multi-line error) that matches a known error, then count
 * the matches per record.  --json prints JSON Lines, one per matched error.
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "grep-log",
	.synopsis = "faultline grep-log [--db FILE] [--repo OWNER/NAME] [--json] FILE | -",
	.about =
	"Stream a log of any size and annotate every line that matches a known "
	"error (read and ranked as explain reads it, confident answers only) with "
	"the record's id, file:line and one-line meaning; a multi-line error (a "
	"traceback, a panic, a stack trace, a cause chain) is one. Lines that match "
	"nothing print nothing. Ends with a count per record.\n\n"
	"FILE is the log; \"-\" reads stdin. A --repo that the store does not hold "
	"is an error (exit 1).",
	.examples = {
		{"faultline grep-log /var/log/shopd.log",
		 "Every known error in a log, then how often each occurred."},
		{"journalctl -u shopd --since today | faultline grep-log -",
		 "The same for what a service logged today."},
		{"faultline grep-log --json build.log | jq -r '\"\\(.line): \\(.filePath):\\(.lineNumber)\"'",
		 "One JSON object per matched error; here the log line and the source "
		 "line that raised it."},
	},
};

struct count {
	char *id, *where, *message;
	long long n;
	/* scan --history: its versions, and as text ("v1.0 - v1.2, HEAD") */
	fl_record_versions v;
	bool has_v;
	char *ranges;
};

struct glstate {
	fl_store *st;
	bool json;
	struct count *counts;
	size_t ncounts, capcounts;
	long long matched;
	uint32_t *slot;     /* per lookup entry: 1 + its index in counts */
	bool versions;      /* some record has versions (scan --history) */
	bool oom;           /* stopped: out of memory */
};

/* the versions of record id into c (none: left NULL) */
static void count_versions(fl_store *st, const char *repo, const char *id, struct count *c)
{
	fl_err err;
	if (fl_store_get_record_versions(st, repo, id, &c->v, &err) != 1)
		return;
	c->has_v = true;
	c->ranges = fl_record_versions_ranges(&c->v);
}

/* the first sentence of the record's documentation */
static char *meaning(fl_store *st, const char *id)
{
	fl_entry e;
	fl_err err;
	if (fl_store_get_entry(st, id, &e, &err) != 1)
		return strdup("");
	const char *d = e.documentation;
	const char *dot = strstr(d, ". ");
	char *out = dot ? strndup(d, (size_t)(dot - d) + 1) : strdup(d);
	fl_entry_free(&e);
	return out;
}

static int on_match(const fl_logmatch *lm, void *ud)
{
	struct glstate *g = ud;
	const fl_match *m = lm->m;
	g->matched++;
	size_t i = g->slot[m->entry] ? g->slot[m->entry] - 1 : g->ncounts;
	if (i == g->ncounts) {
		g->slot[m->entry] = (uint32_t)g->ncounts + 1;
		if (g->ncounts == g->capcounts) {
			/* grown by half: a log naming thousands of records
			 * moved the whole array at every new one */
			size_t cap = g->capcounts ? g->capcounts + g->capcounts / 2 : 64;
			struct count *v = realloc(g->counts, cap * sizeof *g->counts);
			if (!v) {
				g->oom = true;
				return 1; /* stops the grep */
			}
			g->counts = v;
			g->capcounts = cap;
		}
		char where[4096];
		snprintf(where, sizeof where, "%s:%d", m->file_path, m->line);
		g->counts[i] = (struct count){.id = strdup(m->id), .where = strdup(where),
					      .message = g->json ? NULL : meaning(g->st, m->id)};
		if (g->versions)
			count_versions(g->st, m->repo, m->id, &g->counts[i]);
		g->ncounts++;
	}
	g->counts[i].n++;
	if (g->json) {
		const struct count *c = &g->counts[i];
		json_t *o = fl_logmatch_json(lm, cli_match_json, c->has_v ? &c->v : NULL);
		char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		puts(s);
		free(s);
		json_decref(o);
		return 0;
	}
	const char *nl = memchr(lm->text, '\n', lm->text_len);
	int first = nl ? (int)(nl - lm->text) : (int)lm->text_len;
	if (lm->end_line > lm->line)
		printf("%zu-%zu: %.*s ...\n", lm->line, lm->end_line, first, lm->text);
	else
		printf("%zu: %.*s\n", lm->line, first, lm->text);
	printf("    -> %s  %s:%d  [%s %.3f]  %s\n", m->id, m->file_path, m->line,
	       m->match_type, m->score, g->counts[i].message);
	if (g->counts[i].ranges)
		printf("       raised in %s%s\n", g->counts[i].ranges,
		       fl_record_versions_at_head(&g->counts[i].v) ? ""
			: " (no longer at the last version scanned)");
	if (lm->cut_lines)
		printf("    (%zu line%s over %d bytes: matched on its first and last %d bytes)\n",
		       lm->cut_lines, lm->cut_lines > 1 ? "s" : "", FL_LINE_MAX, FL_LINE_KEEP);
	return 0;
}

static int cmp_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->id, y->id);
}

int cmd_grep_log(int argc, char **argv)
{
	const char *db = NULL, *repo = NULL;
	bool json = false;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_VAL("repo", repo, "OWNER/NAME",
			"only errors of this repository (default: every repository)"),
		CLI_FLAG("json", json,
			 "print one JSON object per matched error, in log order: line, "
			 "endLine, text, id, repo, slug, filePath, lineNumber, matchType, "
			 "score, captures, and versions (first, last, atHead) for a "
			 "record scanned with --history (default: text, and the counts at "
			 "the end)"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos != 1)
		return cli_fail(EXIT_USAGE, "grep-log: which log? usage: %s", HELP.synopsis);
	if (repo && (rc = cli_check_repo("grep-log", repo)))
		return rc;
	FILE *in = stdin;
	if (strcmp(pos[0], "-") != 0) {
		in = fopen(pos[0], "rb");
		if (!in)
			return cli_fail(1, "grep-log: cannot open %s", pos[0]);
	}
	fl_store *st = cli_open_store(db, true);
	if (!st || cli_repo_missing(st, "grep-log", repo)) {
		if (st)
			fl_store_close(st);
		if (in != stdin)
			fclose(in);
		return 1;
	}
	fl_lookup *lk;
	fl_err err;
	if (fl_lookup_open(st, &lk, &err) < 0) {
		fl_store_close(st);
		if (in != stdin)
			fclose(in);
		return cli_fail(1, "%s", err.msg);
	}
	struct glstate g = {st, json, NULL, 0, 0, 0,
			    calloc(fl_lookup_count(lk) + 1, sizeof(uint32_t)),
			    fl_store_has_versions(st, &err) > 0, false};
	fl_grep_stats stats;
	rc = fl_grep_log(lk, in, repo, on_match, &g, &stats, &err);
	if (in != stdin)
		fclose(in);
	if (rc == 0 && !json && !g.oom) {
		if (g.ncounts > 1) /* no match: no array to sort (NULL) */
			qsort(g.counts, g.ncounts, sizeof *g.counts, cmp_count);
		printf("\n%lld matched errors in %lld lines, %zu distinct records\n",
		       g.matched, stats.lines, g.ncounts);
		for (size_t i = 0; i < g.ncounts; i++)
			printf("%8lld  %s  %s\n", g.counts[i].n, g.counts[i].id, g.counts[i].where);
	}
	for (size_t i = 0; i < g.ncounts; i++) {
		free(g.counts[i].id);
		free(g.counts[i].where);
		free(g.counts[i].message);
		free(g.counts[i].ranges);
		if (g.counts[i].has_v)
			fl_record_versions_free(&g.counts[i].v);
	}
	free(g.counts);
	free(g.slot);
	fl_lookup_close(lk);
	fl_lookup_thread_done();
	fl_store_close(st);
	if (rc < 0)
		return cli_fail(1, "grep-log: %s", err.msg);
	if (g.oom)
		return cli_fail(1, "grep-log: out of memory");
	return 0;
}
