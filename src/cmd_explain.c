/*
 * cmd_explain.c — `faultline explain TEXT | -`: look an error text up and
 * print where it was raised, what it means and how to fix it (lookup.md).
 * Exit status 0 with matches, 3 with none.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "explain",
	.synopsis = "faultline explain [--db FILE] [--repo OWNER/NAME] [--limit N]\n"
		    "                         [--at VERSION] [--json] TEXT | -",
	.about =
	"Look an error text up and print where it was raised: the file and line, "
	"the values its placeholders captured, the other lines that raise it, what "
	"it means and how to fix it. TEXT is one message, a log line, a panic, a "
	"traceback, a cause chain or a whole pasted output; \"-\" reads it from "
	"stdin. What runtimes and loggers add (timestamps, levels, prefixes, "
	"colours) is stripped; what they carry (class names, paths, codes) is kept "
	"as evidence.\n\n"
	"Records scanned with `scan --history` know the versions that raise them: "
	"when the text names a version (`git version 2.39.5`, `npm@10.8.2`, "
	"`Python 3.11.7`, a User-Agent, a package folder such as serde-1.0.197/) "
	"or --at gives one, the records that exist in it rank first and the answer "
	"gives their line and permalink in it; otherwise a record that exists at "
	"HEAD ranks above one that existed only in earlier versions, and the answer "
	"says in which versions a record was raised.\n\n"
	"Exit status: 0 with matches, 3 with no confident match, 2 for a usage "
	"error (an empty TEXT among them), 1 for other failures (a --repo the "
	"store does not hold among them).",
	.examples = {
		{"faultline explain \"fatal: not a git repository (or any of the parent directories): .git\"",
		 "Where a message was raised, and what it means."},
		{"cargo run 2>&1 | faultline explain -",
		 "Explain what a failed run printed (a panic, a traceback, a log)."},
		{"faultline explain --at v2.39.5 \"fatal: No rebase in progress?\"",
		 "Where git 2.39.5 raised a message that is gone from its HEAD."},
		{"faultline explain --repo curl/curl --json \"curl: (6) Could not resolve host: x\"",
		 "Look in one repository only, and print the answer as JSON."},
	},
};

#define MAX_INPUT (512u * 1024 * 1024)

char *cli_read_all(FILE *f, size_t *len, const char *what)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	for (;;) {
		if (n + 1 >= cap) {
			if (cap >= MAX_INPUT) {
				cli_fail(1, "%s: input over %u MB", what, MAX_INPUT >> 20);
				free(buf);
				return NULL;
			}
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				cli_fail(1, "%s: out of memory", what);
				return NULL;
			}
			buf = nb;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		cli_fail(1, "%s: cannot read the input", what);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

json_t *cli_match_json(const fl_match *m)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(m->id));
	json_object_set_new(o, "repo", json_string(m->repo));
	json_object_set_new(o, "slug", json_string(m->slug));
	json_object_set_new(o, "code", m->code ? json_string(m->code) : json_null());
	json_object_set_new(o, "message", json_string(m->message));
	json_object_set_new(o, "score", json_real((double)(long)(m->score * 1000 + 0.5) / 1000.0));
	json_object_set_new(o, "matchType", json_string(m->match_type));
	json_object_set_new(o, "filePath", json_string(m->file_path));
	json_object_set_new(o, "lineNumber", m->line ? json_integer(m->line) : json_null());
	json_object_set_new(o, "githubUrl", json_string(m->github_url));
	json_t *caps = json_array();
	for (size_t k = 0; k < m->captures.n; k++) {
		json_t *c = json_string(m->captures.v[k]);
		json_array_append_new(caps, c ? c : json_string("\xEF\xBF\xBD"));
	}
	json_object_set_new(o, "captures", caps);
	/* why it ranks where it does, and a tie the evidence had to break */
	json_t *ev = json_array();
	for (size_t k = 0; k < m->evidence.n; k++)
		json_array_append_new(ev, json_string(m->evidence.v[k]));
	json_object_set_new(o, "evidence", ev);
	if (m->same_text > 1)
		json_object_set_new(o, "sameText", json_integer((json_int_t)m->same_text));
	/* the other lines that raise the record (one id for a text raised
	 * at several lines of a file) */
	if (m->sites.n) {
		json_t *sa = json_array();
		for (size_t k = 0; k < m->sites.n; k++)
			json_array_append_new(sa, json_string(m->sites.v[k]));
		json_object_set_new(o, "alsoRaisedAt", sa);
	}
	return o;
}

static void print_versions(const fl_match *m, const fl_match_version *x)
{
	if (!x->known)
		return;
	char *rg = fl_record_versions_ranges(&x->v);
	const fl_record_versions *v = &x->v;
	printf("   raised in %s%s\n", rg ? rg : "?",
	       x->at_head ? "" : " (no longer at the last version scanned)");
	free(rg);
	if (x->at >= 0 && x->run >= 0)
		printf("   in %s: %s:%d  %s\n", v->versions[x->at].name, m->file_path, x->line,
		       x->url ? x->url : "");
	else if (x->at >= 0)
		printf("   not raised in %s\n", v->versions[x->at].name);
}

static void print_readable(fl_store *st, fl_result *r, const fl_match_version *mv)
{
	for (size_t i = 0; i < r->n; i++) {
		fl_match *m = &r->v[i];
		const fl_strv sites = m->sites;
		bool moved = mv[i].at >= 0 && mv[i].run >= 0;
		printf("%zu. %s:%d  [%s %.3f]  %s\n", i + 1, m->file_path,
		       moved ? mv[i].line : m->line, m->match_type, m->score, m->id);
		printf("   %s\n", m->message);
		if (m->captures.n) {
			printf("   values:");
			for (size_t k = 0; k < m->captures.n; k++) {
				/* a value printed in quotes of its own (Go's %q,
				 * Python's !r) is shown as printed */
				const char *v = m->captures.v[k];
				size_t vl = strlen(v);
				bool quoted = vl >= 2 && strchr("\"'`", v[0]) && v[vl - 1] == v[0];
				printf(quoted ? "%s %s" : "%s \"%s\"", k ? "," : "", v);
			}
			printf("\n");
		}
		printf("   %s/%s  %s\n", m->repo, m->slug, m->github_url);
		print_versions(m, &mv[i]);
		if (sites.n) {
			printf("   also raised at:");
			for (size_t k = 0; k < sites.n; k++)
				printf("%s %s", k ? "," : "", sites.v[k]);
			printf("\n");
		}
		if (i == 0 && m->same_text > 1)
			printf("   %zu places raise this text; %s\n", m->same_text,
			       m->evidence.n ? "the evidence below points here"
					     : "nothing in the text tells them apart: this one is listed first, not chosen");
		if (i == 0) {
			for (size_t k = 0; k < m->evidence.n; k++)
				printf("   evidence: %s\n", m->evidence.v[k]);
			if (mv[i].why)
				printf("   evidence: %s\n", mv[i].why);
		}
		if (i == 0) {
			fl_entry e;
			fl_err err;
			if (fl_store_get_entry(st, m->id, &e, &err) == 1) {
				printf("\n   What it means: %s\n", e.documentation);
				printf("   When: %s\n", e.trigger_scenarios);
				for (size_t k = 0; k < e.solutions.n; k++)
					printf("   Fix %zu: %s\n", k + 1, e.solutions.v[k]);
				fl_entry_free(&e);
			}
			if (r->n > 1)
				printf("\n");
		}
	}
}

/* nothing but white space: no error text to look up */
static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

int cmd_explain(int argc, char **argv)
{
	const char *db = NULL, *repo = NULL, *limit_s = NULL, *at = NULL;
	bool json = false;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_VAL("repo", repo, "OWNER/NAME",
			"look in this repository only (default: every repository)"),
		CLI_VAL("limit", limit_s, "N", "at most N answers, 1 to 1000 (default: 10)"),
		CLI_VAL("at", at, "VERSION",
			"the version the text comes from (a tag such as v2.39.5, its number "
			"2.39.5, or HEAD): the records raised in it first, with their line and "
			"permalink in it (default: a version the text names, else HEAD)"),
		CLI_FLAG("json", json,
			 "print {\"query\", \"matches\", \"datasetVersion\"} as one JSON object "
			 "(cli.md) (default: text)"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos != 1)
		return cli_fail(EXIT_USAGE, "explain: what text? usage: %s", HELP.synopsis);
	size_t limit = 10;
	if (limit_s) {
		char *end;
		long v = strtol(limit_s, &end, 10);
		if (*end || v < 1 || v > 1000)
			return cli_fail(EXIT_USAGE, "explain: --limit takes a number from 1 to 1000");
		limit = (size_t)v;
	}
	if (repo && (rc = cli_check_repo("explain", repo)))
		return rc;
	char *text;
	size_t len;
	if (strcmp(pos[0], "-") == 0) {
		text = cli_read_all(stdin, &len, "explain");
		if (!text)
			return 1;
	} else {
		text = strdup(pos[0]);
		len = strlen(text);
	}
	if (blank(text, len)) {
		free(text);
		return cli_fail(EXIT_USAGE, "explain: the text to look up is empty%s\nusage: %s",
				strcmp(pos[0], "-") == 0 ? " (nothing on stdin)" : "", HELP.synopsis);
	}
	fl_store *st = cli_open_store(db, true);
	if (!st) {
		free(text);
		return 1;
	}
	if (cli_repo_missing(st, "explain", repo)) {
		fl_store_close(st);
		free(text);
		return 1;
	}
	fl_lookup *lk;
	fl_err err;
	if (fl_lookup_open(st, &lk, &err) < 0) {
		fl_store_close(st);
		free(text);
		return cli_fail(1, "%s", err.msg);
	}
	fl_result r;
	fl_lookup_explain(lk, text, len, repo, limit, &r);
	fl_match_version *mv;
	bool at_found;
	if (fl_result_versions(st, &r, at, text, len, &mv, &at_found, &err) < 0) {
		fl_result_free(&r);
		fl_lookup_close(lk);
		fl_store_close(st);
		free(text);
		return cli_fail(1, "%s", err.msg);
	}
	if (at && !at_found && r.n)
		fprintf(stderr, "faultline: warning: --at %s: no version of the answers' repositories"
			" is so named (scan --history stores the versions)\n", at);
	if (json) {
		json_t *o = json_object();
		json_t *qv = json_string(r.query);
		json_object_set_new(o, "query", qv ? qv : json_string(""));
		json_t *arr = json_array();
		for (size_t i = 0; i < r.n; i++) {
			json_t *mo = cli_match_json(&r.v[i]);
			fl_match_version_json(mo, &mv[i]);
			json_array_append_new(arr, mo);
		}
		json_object_set_new(o, "matches", arr);
		json_object_set_new(o, "datasetVersion", json_string(fl_lookup_version(lk)));
		if (r.cut_lines)
			json_object_set_new(o, "cutLines", json_integer((json_int_t)r.cut_lines));
		char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		puts(s);
		free(s);
		json_decref(o);
	} else if (r.n) {
		print_readable(st, &r, mv);
		if (r.cut_lines)
			printf("\nnote: %zu line%s over %d bytes: matched on its first and last %d bytes\n",
			       r.cut_lines, r.cut_lines > 1 ? "s" : "", FL_LINE_MAX, FL_LINE_KEEP);
	} else if (r.cut_lines) {
		fprintf(stderr, "faultline: no confident match (%zu line%s over %d bytes: matched on its first and last %d bytes)\n",
			r.cut_lines, r.cut_lines > 1 ? "s" : "", FL_LINE_MAX, FL_LINE_KEEP);
	} else {
		fprintf(stderr, "faultline: no confident match\n");
	}
	rc = r.n ? 0 : 3;
	fl_match_versions_free(mv, r.n);
	fl_result_free(&r);
	fl_lookup_close(lk);
	fl_lookup_thread_done();
	fl_store_close(st);
	free(text);
	return rc;
}
