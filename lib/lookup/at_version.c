/*
 * at_version.c — the versions of a lookup's answers (scan --history): the
 * version a text names (or --at), each match's line and permalink in it,
 * and the matches ranked by whether they exist in it (or at HEAD); a log's
 * matched error as JSON, with its versions.
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "faultline.h"
#include "../util.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

/* The version numbers the text names (faultline.h). */
size_t fl_text_versions(const char *t, size_t len, fl_strv *out)
{
	for (size_t i = 0; i < len && out->n < 32; i++) {
		if (!is_digit(t[i]) || (i && (is_digit(t[i - 1]) || t[i - 1] == '.')))
			continue;
		size_t j = i, dots = 0;
		while (j < len && (is_digit(t[j]) || (t[j] == '.' && j + 1 < len && is_digit(t[j + 1])))) {
			dots += t[j] == '.';
			j++;
		}
		/* not followed by more of a word, nor by a port (an address) */
		if (!dots || (j < len && is_word(t[j])) ||
		    (j + 1 < len && t[j] == ':' && is_digit(t[j + 1])))
			continue;
		char before = i ? t[i - 1] : '\0';
		bool ok = before == '@' || before == '/' || before == '-' || before == 'v' ||
			  before == 'V';
		if (!ok && before == ' ' && i >= 2 && is_word(t[i - 2])) {
			/* "git version 2.39.5", "Version 1.2"; after another
			 * word three numbers ("cargo 1.95.0", "Python 3.11.7"),
			 * not a number in prose ("was 0.5") */
			ok = dots >= 2 || (i >= 8 && strncasecmp(t + i - 8, "version", 7) == 0);
		}
		if (ok) {
			char *v = fl_xstrndup(t + i, j - i);
			fl_strv_push(out, v);
			free(v);
		}
		i = j;
	}
	return out->n;
}

/* The stored permalink moved to another commit and line: the commit in
 * "/blob/SHA/" (or GitLab's "/-/blob/SHA/", Bitbucket's "/src/SHA/")
 * replaced, the anchor made "#L<line>"; NULL for a link that names no
 * commit (a file:// link). */
static char *url_at(const char *url, const char *old_sha, const char *sha, int line)
{
	const char *p = old_sha && *old_sha ? strstr(url, old_sha) : NULL;
	if (!p || strncmp(url, "file:", 5) == 0)
		return NULL;
	const char *hash = strchr(p, '#');
	size_t tail = hash ? (size_t)(hash - (p + strlen(old_sha))) : strlen(p + strlen(old_sha));
	return fl_xasprintf("%.*s%s%.*s#L%d", (int)(p - url), url, sha, (int)tail,
			    p + strlen(old_sha), line);
}

static void mv_free(fl_match_version *m)
{
	fl_record_versions_free(&m->v);
	free(m->url);
	free(m->why);
	memset(m, 0, sizeof *m);
}

void fl_match_versions_free(fl_match_version *mv, size_t n)
{
	for (size_t i = 0; i < n; i++)
		mv_free(&mv[i]);
	free(mv);
}

/* rank class of a match (lower first) */
static int rank_class(const fl_match_version *m, bool target)
{
	if (target)
		return !m->known ? 1 : m->run >= 0 ? 0 : 2;
	return !m->known || m->at_head ? 0 : 1;
}

int fl_result_versions(fl_store *st, fl_result *r, const char *at, const char *text,
		       size_t len, fl_match_version **out, bool *at_found, fl_err *err)
{
	*out = NULL;
	*at_found = false;
	fl_match_version *mv = fl_xcalloc(r->n ? r->n : 1, sizeof *mv);
	for (size_t i = 0; i < r->n; i++)
		mv[i].at = mv[i].run = -1;
	/* a store without a history scan (most): one look, no query per match */
	bool begun = fl_store_read_begin(st);
	int any = fl_store_has_versions(st, err);
	if (any <= 0) {
		fl_store_read_end(st, begun);
		if (any < 0) {
			free(mv);
			return -1;
		}
		*out = mv;
		return 0;
	}
	fl_strv named = {0};
	if (!at && text)
		fl_text_versions(text, len, &named);
	bool target = false;
	for (size_t i = 0; i < r->n; i++) {
		fl_match *m = &r->v[i];
		fl_match_version *x = &mv[i];
		x->at = x->run = -1;
		int rc = fl_store_get_record_versions(st, m->repo, m->id, &x->v, err);
		if (rc < 0) {
			fl_store_read_end(st, begun);
			fl_match_versions_free(mv, r->n);
			fl_strv_free(&named);
			return -1;
		}
		x->known = rc == 1;
		if (!x->known)
			continue;
		x->at_head = fl_record_versions_at_head(&x->v);
		const char *name = at;
		if (at) {
			x->run = fl_record_versions_find(&x->v, at, &x->at);
		} else {
			/* the first version the text names that is one of the
			 * record's repository's */
			for (size_t k = 0; k < named.n && x->at < 0; k++) {
				x->run = fl_record_versions_find(&x->v, named.v[k], &x->at);
				name = named.v[k];
			}
			if (x->at >= 0)
				x->why = fl_xasprintf("the text names version %s (%s)%s", name,
						      x->v.versions[x->at].name,
						      x->run >= 0 ? ", which raises it"
								  : ", which does not raise it");
		}
		if (x->at < 0)
			continue;
		target = true;
		*at_found = true;
		if (x->run < 0)
			continue;
		x->line = x->v.runs[x->run].line;
		/* the stored permalink names the record's last version */
		int last = x->v.runs[x->v.nruns - 1].last;
		x->url = url_at(m->github_url, x->v.versions[last].sha, x->v.versions[x->at].sha,
				x->line);
	}
	fl_store_read_end(st, begun);
	fl_strv_free(&named);
	/* within each tier, a stable partition by class */
	for (size_t i = 0; i < r->n;) {
		size_t j = i + 1;
		while (j < r->n && strcmp(r->v[j].match_type, r->v[i].match_type) == 0)
			j++;
		size_t n = j - i;
		fl_match *tm = fl_xcalloc(n, sizeof *tm);
		fl_match_version *tv = fl_xcalloc(n, sizeof *tv);
		size_t k = 0;
		for (int cls = 0; cls <= 2; cls++)
			for (size_t a = i; a < j; a++)
				if (rank_class(&mv[a], target) == cls) {
					tm[k] = r->v[a];
					tv[k++] = mv[a];
				}
		memcpy(r->v + i, tm, n * sizeof *tm);
		memcpy(mv + i, tv, n * sizeof *tv);
		free(tm);
		free(tv);
		i = j;
	}
	*out = mv;
	return 0;
}

void fl_match_version_json(json_t *o, const fl_match_version *x)
{
	if (x->why) {
		json_t *ev = json_object_get(o, "evidence");
		if (json_is_array(ev))
			json_array_append_new(ev, json_string(x->why));
	}
	if (!x->known)
		return;
	const fl_record_versions *v = &x->v;
	if (x->at >= 0 && x->run >= 0) {
		json_object_set_new(o, "lineNumber", json_integer(x->line));
		if (x->url)
			json_object_set_new(o, "githubUrl", json_string(x->url));
	}
	json_t *vo = json_object();
	json_object_set_new(vo, "first", json_string(v->versions[v->runs[0].first].name));
	json_object_set_new(vo, "last", json_string(v->versions[v->runs[v->nruns - 1].last].name));
	json_object_set_new(vo, "atHead", json_boolean(x->at_head));
	if (x->at >= 0) {
		json_object_set_new(vo, "at", json_string(v->versions[x->at].name));
		json_object_set_new(vo, "existsAt", json_boolean(x->run >= 0));
	}
	json_t *runs = json_array();
	for (size_t k = 0; k < v->nruns; k++) {
		json_t *r = json_object();
		json_object_set_new(r, "first", json_string(v->versions[v->runs[k].first].name));
		json_object_set_new(r, "last", json_string(v->versions[v->runs[k].last].name));
		json_object_set_new(r, "lineNumber", json_integer(v->runs[k].line));
		json_object_set_new(r, "blob", v->runs[k].blob[0] ? json_string(v->runs[k].blob)
								   : json_null());
		json_array_append_new(runs, r);
	}
	json_object_set_new(vo, "runs", runs);
	json_object_set_new(o, "versions", vo);
}

json_t *fl_logmatch_json(const fl_logmatch *lm, fl_match_json_fn mj, const fl_record_versions *v)
{
	json_t *o = json_object();
	json_object_set_new(o, "line", json_integer((json_int_t)lm->line));
	json_object_set_new(o, "endLine", json_integer((json_int_t)lm->end_line));
	json_t *t = json_stringn(lm->text, lm->text_len);
	if (!t) {
		char *fixed = fl_utf8_fix(lm->text, lm->text_len);
		t = json_string(fixed);
		free(fixed);
	}
	json_object_set_new(o, "text", t ? t : json_string("\xEF\xBF\xBD"));
	json_t *m = mj(lm->m);
	static const char *const keys[] = {"id", "repo", "slug", "filePath", "lineNumber",
					   "matchType", "score", "captures", "alsoRaisedAt"};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		if (json_object_get(m, keys[k]))
			json_object_set(o, keys[k], json_object_get(m, keys[k]));
	json_decref(m);
	if (lm->cut_lines)
		json_object_set_new(o, "cutLines", json_integer((json_int_t)lm->cut_lines));
	if (v && v->nruns && v->nversions) {
		json_t *vj = json_object();
		json_object_set_new(vj, "first", json_string(v->versions[v->runs[0].first].name));
		json_object_set_new(vj, "last",
				    json_string(v->versions[v->runs[v->nruns - 1].last].name));
		json_object_set_new(vj, "atHead",
				    json_boolean(fl_record_versions_at_head(v)));
		json_object_set_new(o, "versions", vj);
	}
	return o;
}
