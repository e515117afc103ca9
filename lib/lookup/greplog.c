/*
 * greplog.c — streaming a log of any size through the lookup with constant
 * memory: one literal scan per 4 MB chunk finds the few lines worth a
 * closer look; multi-line errors (tracebacks, panics, cause chains, stack
 * traces) are grouped into one unit and looked up as one query.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "lookup_internal.h"

#define CHUNK (4u << 20)
#define UNIT_MAX (1u << 20)   /* a longer unit is flushed as it is */
#define UNIT_LINES 2000

static bool starts(const char *s, size_t n, const char *p)
{
	size_t l = strlen(p);
	return n >= l && memcmp(s, p, l) == 0;
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/* A Go frame line: "main.main()", "pkg.(*T).M(0x1, ...)" */
static bool go_frame(const char *s, size_t n)
{
	if (n < 3 || s[n - 1] != ')' )
		return n > 0 && (s[n - 1] == '\r') && go_frame(s, n - 1);
	const char *paren = memchr(s, '(', n);
	if (!paren || paren == s)
		return false;
	for (const char *p = s; p < paren; p++)
		if (!(isalnum((unsigned char)*p) || strchr("_./*-[]", *p)))
			return false;
	return memchr(s, '.', (size_t)(paren - s)) != NULL;
}

enum ukind { U_PLAIN, U_TRACEBACK, U_GOPANIC, U_RUSTPANIC };

struct unit {
	size_t start, end;     /* byte range in the buffer (end after '\n') */
	size_t line, nlines;   /* first line number, line count */
	enum ukind kind;
	bool closed;           /* nothing more can join */
	bool want_next;        /* the next line joins whatever it is */
	size_t blanks;         /* trailing blank lines held back */
	size_t blank_start;
};

/* Does the line [s, s+n) continue the unit? */
static bool continues(struct unit *u, const char *s, size_t n)
{
	if (u->closed)
		return false;
	if (u->want_next) {
		u->want_next = false;
		return true;
	}
	switch (u->kind) {
	case U_TRACEBACK:
		if (n && (s[0] == ' ' || s[0] == '\t'))
			return true;
		if (starts(s, n, "During handling of the above exception") ||
		    starts(s, n, "The above exception was the direct cause") ||
		    starts(s, n, "Traceback (most recent call last)"))
			return true;
		/* the final "Class: message" line closes it */
		u->closed = true;
		return true;
	case U_GOPANIC:
		return blank(s, n) || starts(s, n, "goroutine ") || (n && s[0] == '\t') ||
		       starts(s, n, "created by ") || starts(s, n, "[signal ") ||
		       starts(s, n, "exit status") || go_frame(s, n) ||
		       starts(s, n, "panic: ") || starts(s, n, "\t");
	default:
		break;
	}
	if (n && (s[0] == ' ' || s[0] == '\t'))
		return true;
	return starts(s, n, "Caused by:") || starts(s, n, "... ") ||
	       starts(s, n, "stack backtrace:") || starts(s, n, "note: run with") ||
	       starts(s, n, "note: Some details");
}

static enum ukind kind_of(const char *s, size_t n, bool *want_next)
{
	*want_next = false;
	if (starts(s, n, "Traceback (most recent call last)"))
		return U_TRACEBACK;
	const char *p = memmem(s, n, "panic: ", 7);
	if (p && (p == s || p[-1] == ' '))
		return U_GOPANIC;
	if (memmem(s, n, "panicked at ", 12)) {
		/* new form: "panicked at src/main.rs:2:5:" then the message */
		size_t m = n;
		while (m && (s[m - 1] == '\r' || s[m - 1] == ' '))
			m--;
		if (m && s[m - 1] == ':')
			*want_next = true;
		return U_RUSTPANIC;
	}
	return U_PLAIN;
}

struct glctx {
	fl_lookup *lk;
	const char *repo;
	fl_logmatch_cb cb;
	void *ud;
	fl_occs occ;
	size_t oi;             /* next occurrence to consider */
	struct hit *hits;
	size_t hitcap;
	fl_strv scratch;
	int stop;
};

static bool is_code_byte(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Report the best answer for a unit. */
static void report(struct glctx *g, const struct unit *u, const char *text,
		   size_t len, fl_match *m)
{
	fl_logmatch lm = {u->line, u->line + (u->nlines ? u->nlines - 1 : 0), text, len, m};
	if (!g->stop && g->cb(&lm, g->ud))
		g->stop = 1;
}

static void flush(struct glctx *g, const char *buf, struct unit *u)
{
	if (u->end <= u->start)
		return;
	const fl_index *ix = &g->lk->ix;
	/* the occurrences inside the unit */
	size_t first = g->oi;
	while (g->oi < g->occ.n && g->occ.v[g->oi].end <= u->end)
		g->oi++;
	size_t last = g->oi;
	if (first == last)
		return; /* nothing known occurs here: the fast path */
	const char *text = buf + u->start;
	size_t len = u->end - u->start;
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	if (u->nlines == 1) {
		/* occurrences of short patterns in a long message are no
		 * answer (FL_SHORT_COVER): skip the line without a closer look
		 * when only such occurrences are there */
		size_t msglen = fl_lk_message_len(text, len);
		bool viable = false;
		for (size_t o = first; o < last && !viable; o++) {
			uint32_t id = g->occ.v[o].id;
			viable = id >= ix->h->n_factors || ix->fmax[id] == UINT32_MAX ||
				 (double)ix->fmax[id] >= FL_SHORT_COVER * (double)msglen;
		}
		if (!viable)
			return;
	}
	/* multi-line errors, and lines whose message sits inside JSON or
	 * logfmt, go through the full lookup with normalisation */
	const char *t0 = text;
	while (t0 < text + len && (*t0 == ' ' || *t0 == '\t'))
		t0++;
	bool wrapped = (t0 < text + len && *t0 == '{') || memmem(text, len, "msg=", 4) ||
		       memmem(text, len, "message=", 8);
	if (u->nlines > 1 || wrapped) {
		fl_result r;
		fl_lk_explain(g->lk, text, len, g->repo, 1, false, &r);
		if (r.n && r.match_type && strcmp(r.match_type, "fuzzy") != 0)
			report(g, u, text, len, &r.v[0]);
		fl_result_free(&r);
		fl_lk_prepare(g->lk);
		return;
	}
	/* one line: an error code wins, then the most specific pattern */
	for (size_t o = first; o < last; o++) {
		uint32_t id = g->occ.v[o].id;
		if (id < ix->h->n_factors)
			continue;
		const char *code = ix_str(ix, ix->hscodes[id - ix->h->n_factors]);
		size_t cl = strlen(code);
		size_t end = g->occ.v[o].end - u->start;
		size_t beg = end - cl;
		if ((beg > 0 && is_code_byte(text[beg - 1])) || (end < len && is_code_byte(text[end])))
			continue;
		const idx_code *c = fl_index_code(ix, code);
		for (; c && c < ix->codes + ix->h->n_codes &&
		       strcmp(ix_str(ix, c->str), code) == 0; c++) {
			const idx_entry *x = &ix->ent[c->entry];
			if (g->repo && strcmp(ix_str(ix, x->repo), g->repo) != 0)
				continue;
			fl_match m = {0};
			m.entry = c->entry;
			m.id = ix_str(ix, x->id);
			m.repo = ix_str(ix, x->repo);
			m.slug = ix_str(ix, x->slug);
			m.code = code;
			m.message = ix_str(ix, x->msg);
			m.file_path = ix_str(ix, x->path);
			m.github_url = ix_str(ix, x->url);
			m.line = x->line;
			m.score = 1.0;
			m.match_type = "exact-code";
			report(g, u, text, len, &m);
			return;
		}
	}
	size_t nh = fl_lk_pattern_text(g->lk, text, len, g->repo, NULL, &g->hits, 0, &g->hitcap);
	if (!nh)
		return;
	fl_lk_rank(g->hits, nh);
	struct hit *h = &g->hits[0];
	const idx_entry *x = &ix->ent[h->entry];
	fl_match m = {0};
	m.entry = h->entry;
	m.id = ix_str(ix, x->id);
	m.repo = ix_str(ix, x->repo);
	m.slug = ix_str(ix, x->slug);
	m.code = x->code ? ix_str(ix, x->code) : NULL;
	m.message = ix_str(ix, x->msg);
	m.file_path = ix_str(ix, x->path);
	m.github_url = ix_str(ix, x->url);
	m.line = x->line;
	m.score = h->score;
	m.match_type = "pattern";
	for (size_t k = 0; k < h->ncaps; k++) {
		char *c = fl_xstrndup(text + h->caps[k].start, h->caps[k].end - h->caps[k].start);
		fl_strv_push(&m.captures, c);
		free(c);
	}
	report(g, u, text, len, &m);
	fl_strv_free(&m.captures);
}

int fl_grep_log(fl_lookup *lk, FILE *in, const char *repo, fl_logmatch_cb cb,
		void *ud, fl_grep_stats *stats, fl_err *err)
{
	struct glctx g;
	memset(&g, 0, sizeof g);
	g.lk = lk;
	g.repo = repo;
	g.cb = cb;
	g.ud = ud;
	fl_grep_stats st = {0};
	char *buf = fl_xmalloc(CHUNK + 1);
	size_t have = 0;          /* bytes in buf */
	size_t lineno = 1;        /* number of the line at buf[0] */
	bool eof = false;
	fl_lk_prepare(lk);
	while (!g.stop) {
		if (!eof && have < CHUNK) {
			size_t r = fread(buf + have, 1, CHUNK - have, in);
			have += r;
			st.bytes += r;
			if (r == 0) {
				if (ferror(in)) {
					free(buf);
					free(g.occ.v);
					free(g.hits);
					return fl_seterr(err, "cannot read the log");
				}
				eof = true;
			}
		}
		if (have == 0 && eof)
			break;
		/* complete lines: up to the last newline; all of it at the end,
		 * or when one line fills the whole buffer */
		size_t upto = have;
		if (!eof) {
			const char *nl = memrchr(buf, '\n', have);
			if (nl)
				upto = (size_t)(nl - buf) + 1;
			else if (have < CHUNK)
				continue;
		}
		g.oi = 0;
		if (!fl_lk_scan(lk, buf, upto, &g.occ))
			g.occ.n = 0; /* too many literal hits: units are skipped */
		struct unit u = {0};
		bool open = false;
		size_t pos = 0, ln = lineno;
		while (pos < upto && !g.stop) {
			const char *s = buf + pos;
			const char *nl = memchr(s, '\n', upto - pos);
			size_t n = nl ? (size_t)(nl - s) : upto - pos;
			size_t next = pos + n + (nl ? 1 : 0);
			if (open && (u.end - u.start > UNIT_MAX || u.nlines >= UNIT_LINES)) {
				flush(&g, buf, &u);
				st.units++;
				open = false;
			}
			if (open && blank(s, n) && u.kind != U_GOPANIC) {
				/* hold blank lines back: "error: x" + "" + "Caused by:" */
				u.blanks++;
				pos = next;
				ln++;
				continue;
			}
			if (open && continues(&u, s, n)) {
				u.nlines += u.blanks + 1;
				u.blanks = 0;
				u.end = next;
			} else {
				if (open) {
					flush(&g, buf, &u);
					st.units++;
				}
				memset(&u, 0, sizeof u);
				u.start = pos;
				u.end = next;
				u.line = ln;
				u.nlines = 1;
				u.kind = kind_of(s, n, &u.want_next);
				open = true;
			}
			pos = next;
			ln++;
		}
		/* the open unit may go on in the next chunk: keep its bytes when
		 * there is room for more */
		size_t keep_from = upto, keep_line = ln;
		if (open && !eof && !g.stop && u.end - u.start <= UNIT_MAX / 2 &&
		    (u.start > 0 || have < CHUNK)) {
			keep_from = u.start;
			keep_line = u.line;
		} else if (open) {
			flush(&g, buf, &u);
			st.units++;
		}
		memmove(buf, buf + keep_from, have - keep_from);
		have -= keep_from;
		lineno = keep_line;
		if (eof && have == 0)
			break;
	}
	free(buf);
	free(g.occ.v);
	free(g.hits);
	st.lines = lineno - 1;
	if (stats)
		*stats = st;
	return 0;
}
