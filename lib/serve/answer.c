/*
 * answer.c — the JSON (and Markdown) answers that the HTTP API and the MCP
 * server share: search (explain --json), a pasted log (grep-log --json),
 * records, repositories.  Each lookup runs within ANSWER_SECONDS.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"
#include "util.h"

char *srv_dump(const json_t *o)
{
	return json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
}

/* The time limit of one lookup or one pasted log: a search that runs out
 * answers no match and "timedOut": true; a log is "truncated": true and
 * ends at the last line looked at in full. */
#define ANSWER_SECONDS 10.0

json_t *srv_search_json(fl_lookup *lk, fl_store *st, const char *text, size_t len,
			const char *repo, size_t limit, const char *version,
			fl_match_json_fn mj)
{
	fl_result r;
	fl_err err;
	bool late = fl_lookup_explain_until(lk, text, len, repo, limit, ANSWER_SECONDS,
					    &r, &err) < 0;
	/* the records' versions (scan --history), when the store is at hand:
	 * ranked by the version the text names, else HEAD first */
	fl_match_version *mv = NULL;
	bool at_found;
	if (st && r.n && fl_result_versions(st, &r, NULL, text, len, &mv, &at_found, &err) < 0)
		mv = NULL; /* answered without them */
	json_t *o = json_object();
	json_t *qv = r.query ? json_string(r.query) : NULL;
	json_object_set_new(o, "query", qv ? qv : json_string(""));
	json_t *arr = json_array();
	for (size_t i = 0; i < r.n; i++) {
		json_t *m = mj(&r.v[i]);
		if (mv)
			fl_match_version_json(m, &mv[i]);
		json_array_append_new(arr, m);
	}
	if (mv)
		fl_match_versions_free(mv, r.n);
	json_object_set_new(o, "matches", arr);
	json_object_set_new(o, "datasetVersion", json_string(version ? version : fl_lookup_version(lk)));
	if (r.cut_lines)
		json_object_set_new(o, "cutLines", json_integer((json_int_t)r.cut_lines));
	if (late)
		json_object_set_new(o, "timedOut", json_true());
	fl_result_free(&r);
	return o;
}

struct logacc {
	json_t *arr;
	fl_match_json_fn mj;
	fl_store *st;           /* the records' versions (NULL: none) */
	double deadline;
	bool truncated;
};

static int on_logmatch(const fl_logmatch *lm, void *ud)
{
	struct logacc *a = ud;
	if (fl_now_mono() > a->deadline) {
		a->truncated = true;
		return 1;
	}
	fl_record_versions v;
	fl_err err;
	bool hv = a->st && fl_store_get_record_versions(a->st, lm->m->repo, lm->m->id, &v, &err) == 1;
	json_array_append_new(a->arr, fl_logmatch_json(lm, a->mj, hv ? &v : NULL));
	if (hv)
		fl_record_versions_free(&v);
	return 0;
}

json_t *srv_explain_log_json(fl_lookup *lk, fl_store *st, const char *log, size_t len,
			     const char *repo, const char *version,
			     fl_match_json_fn mj, fl_err *err)
{
	/* fmemopen of an empty buffer is not portable: give it one byte */
	static const char nl[] = "\n";
	FILE *in = fmemopen((void *)(len ? log : nl), len ? len : 1, "r");
	if (!in) {
		fl_seterr(err, "cannot read the log");
		return NULL;
	}
	struct logacc a = {json_array(), mj, st, fl_now_mono() + ANSWER_SECONDS, false};
	fl_grep_stats gs;
	bool begun = st && fl_store_read_begin(st);
	int rc = fl_grep_log_until(lk, in, repo, on_logmatch, &a, ANSWER_SECONDS, &gs, err);
	if (st)
		fl_store_read_end(st, begun);
	fclose(in);
	if (rc < 0) {
		json_decref(a.arr);
		return NULL;
	}
	if (rc > 0)
		a.truncated = true; /* the time ran out inside the lookup */
	json_t *o = json_object();
	json_object_set_new(o, "matches", a.arr);
	json_object_set_new(o, "lines", json_integer(len ? gs.lines : 0));
	if (a.truncated)
		json_object_set_new(o, "truncated", json_true());
	json_object_set_new(o, "datasetVersion", json_string(version ? version : fl_lookup_version(lk)));
	return o;
}

json_t *srv_entry_json(const fl_entry *e)
{
	char *s = fl_entry_to_json(e, false);
	json_t *o = s ? json_loads(s, 0, NULL) : NULL;
	free(s);
	return o ? o : json_null();
}

json_t *srv_repo_json(const fl_repo *r)
{
	char *s = fl_repo_to_json(r, false);
	json_t *o = s ? json_loads(s, 0, NULL) : NULL;
	free(s);
	return o ? o : json_null();
}

static int add_repo(const fl_repo *r, void *ud)
{
	json_array_append_new(ud, srv_repo_json(r));
	return 0;
}

json_t *srv_repos_json(fl_store *st, fl_err *err)
{
	json_t *arr = json_array();
	if (fl_store_each_repo(st, add_repo, arr, err) < 0) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

static void md_block(fl_buf *b, const char *title, const char *text, const char *lang)
{
	if (!text || !*text)
		return;
	fl_buf_puts(b, "\n**");
	fl_buf_puts(b, title);
	fl_buf_puts(b, "**\n\n");
	if (lang) {
		fl_buf_puts(b, "```");
		fl_buf_puts(b, lang);
		fl_buf_puts(b, "\n");
		fl_buf_puts(b, text);
		fl_buf_puts(b, "\n```\n");
	} else {
		fl_buf_puts(b, text);
		fl_buf_puts(b, "\n");
	}
}

char *srv_entry_markdown(const fl_entry *e)
{
	fl_buf b = {0};
	char *head = fl_xasprintf("# %s\n\n`%s` · %s/%s · %s%s%s · %s:%d\n",
				  e->error_message, e->id, e->repo, e->slug,
				  e->error_type, e->error_class ? " " : "",
				  e->error_class ? e->error_class : "",
				  e->file_path, e->line_number);
	fl_buf_puts(&b, head);
	free(head);
	if (e->error_code) {
		fl_buf_puts(&b, "\nError code: `");
		fl_buf_puts(&b, e->error_code);
		fl_buf_puts(&b, "`\n");
	}
	md_block(&b, "What it means", e->documentation, NULL);
	md_block(&b, "When it is raised", e->trigger_scenarios, NULL);
	md_block(&b, "Where people hit it", e->common_situations, NULL);
	if (e->solutions.n) {
		fl_buf_puts(&b, "\n**Fixes (most likely first)**\n\n");
		for (size_t i = 0; i < e->solutions.n; i++) {
			char *l = fl_xasprintf("%zu. %s\n", i + 1, e->solutions.v[i]);
			fl_buf_puts(&b, l);
			free(l);
		}
	}
	md_block(&b, "Example fix", e->example_fix, "");
	fl_buf_puts(&b, "\n## Defensive pattern\n");
	if (!e->handling_strategy && !e->validation_code && !e->type_guard && !e->try_catch_pattern)
		fl_buf_puts(&b, "\nNone recorded for this error: guard the condition named above before the call.\n");
	else {
		if (e->handling_strategy) {
			fl_buf_puts(&b, "\nStrategy: ");
			fl_buf_puts(&b, e->handling_strategy);
			fl_buf_puts(&b, "\n");
		}
		md_block(&b, "Validation", e->validation_code, "");
		md_block(&b, "Type guard", e->type_guard, "");
		md_block(&b, "Try/catch", e->try_catch_pattern, "");
	}
	if (e->prevention_tips.n) {
		fl_buf_puts(&b, "\n**Prevention**\n\n");
		for (size_t i = 0; i < e->prevention_tips.n; i++) {
			fl_buf_puts(&b, "- ");
			fl_buf_puts(&b, e->prevention_tips.v[i]);
			fl_buf_puts(&b, "\n");
		}
	}
	if (e->source_code) {
		char *t = fl_xasprintf("Source (lines %d-%d)", e->source_code_start, e->source_code_end);
		md_block(&b, t, e->source_code, "");
		free(t);
	}
	fl_buf_puts(&b, "\nPermalink: ");
	fl_buf_puts(&b, e->github_url);
	fl_buf_puts(&b, "\n");
	fl_buf_cstr(&b);
	return b.s;
}
