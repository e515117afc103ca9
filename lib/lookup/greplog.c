/*
 * greplog.c — streaming a log of any size through the lookup with constant
 * memory.  The calling thread reads the log in 4 MB chunks, each cut before
 * a line that starts a new error unit whatever came before it, so chunks
 * are independent; worker threads (one per core) take a chunk each: one
 * literal scan finds the few lines worth a closer look, multi-line errors
 * (tracebacks, panics, cause chains, stack traces) are grouped into one
 * unit and looked up as one query, and lines are confirmed from the
 * chunk's literal occurrences.  The calling thread reports the matches in
 * log order; at most a few chunks are in flight.  A line longer than
 * FL_LINE_MAX is matched on its head and tail; with a time limit, every
 * line checks it and the log stops at the first unit it cuts short.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util.h"
#include "lookup_internal.h"

#define CHUNK (4u << 20)
#define UNIT_MAX (1u << 20)   /* a longer unit is flushed as it is */
#define UNIT_LINES 2000
#define MAX_WORKERS 8

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

/* Could the line continue a unit of some kind (other than closing a
 * traceback, or following a line that asks for the next one)?  Exactly
 * the lines continues() looks at: blank, indented, a continuation prefix,
 * a Go frame. */
static bool could_continue(const char *s, size_t n)
{
	static const char *const prefixes[] = {"Caused by:", "... ", "stack backtrace:",
		"note: run with", "note: Some details",
		"During handling of the above exception",
		"The above exception was the direct cause",
		"Traceback (most recent call last)", "goroutine ", "created by ",
		"[signal ", "exit status", "panic: ", NULL};
	if (blank(s, n) || s[0] == ' ' || s[0] == '\t')
		return true;
	if (strchr("C.snDTgc[ep", s[0]) && s[0])
		for (const char *const *p = prefixes; *p; p++)
			if ((*p)[0] == s[0] && starts(s, n, *p))
				return true;
	return go_frame(s, n);
}

/* Does the line end with ':' (spaces and '\r' aside)? */
static bool ends_colon(const char *s, size_t n)
{
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	return n && s[n - 1] == ':';
}

enum ukind { U_PLAIN, U_TRACEBACK, U_GOPANIC, U_RUSTPANIC };

struct unit {
	size_t start, end;     /* byte range in the buffer (end after '\n') */
	size_t line, nlines;   /* first line (0-based in the chunk), line count */
	size_t first_len;      /* length of the first line */
	enum ukind kind;
	bool resolved;         /* kind known (else PLAIN, GOPANIC or a Rust
				  panic without want_next: the same for any
				  line could_continue rejects) */
	bool closed;           /* nothing more can join */
	bool want_next;        /* the next line joins whatever it is */
	size_t blanks;         /* trailing blank lines held back */
	size_t text_len;       /* its text without the line ends after it
				  (push_unit) */
	bool quiet;            /* one line with no confident answer
				  (fl_line_quiet): neither scanned nor looked up */
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
		if (ends_colon(s, n))
			*want_next = true;
		return U_RUSTPANIC;
	}
	return U_PLAIN;
}

/* Start a unit at the line [s, s+n): its kind now when it is cheap or
 * needed by the next line whatever it is (want_next), else later. */
static void unit_begin(struct unit *u, const char *s, size_t n)
{
	if (starts(s, n, "Traceback (most recent call last)")) {
		u->kind = U_TRACEBACK;
		u->resolved = true;
	} else if (ends_colon(s, n)) {
		u->kind = kind_of(s, n, &u->want_next);
		u->resolved = true;
	} else {
		u->kind = U_PLAIN;
	}
}

static void unit_resolve(struct unit *u, const char *buf)
{
	if (u->resolved)
		return;
	bool want;
	u->kind = kind_of(buf + u->start, u->first_len, &want);
	u->resolved = true;
}

/* Can the line L = [s, ...) at offset p start a new unit whatever came
 * before it?  L is no continuation of any kind, and the line before it
 * neither leaves a traceback open nor asks for the next line. */
static bool independent(const char *buf, size_t p, size_t n)
{
	if (p == 0 || could_continue(buf + p, n))
		return false;
	const char *nl = p >= 2 ? memrchr(buf, '\n', p - 1) : NULL;
	size_t pp = nl ? (size_t)(nl - buf) + 1 : 0;
	const char *s = buf + pp;
	size_t m = p - 1 - pp;
	if (blank(s, m) || s[0] == ' ' || s[0] == '\t' || ends_colon(s, m))
		return false;
	return !starts(s, m, "Traceback (most recent call last)") &&
	       !starts(s, m, "During handling of the above exception") &&
	       !starts(s, m, "The above exception was the direct cause");
}

/* Where to end a chunk of complete lines [0, upto): before the last line
 * that is independent, within UNIT_MAX of the end; upto when none is (the
 * unit there is cut, as any unit longer than UNIT_MAX). */
static size_t safe_cut(const char *buf, size_t upto)
{
	size_t end = upto; /* end of the line looked at (after its '\n') */
	while (end > 0 && upto - end < UNIT_MAX) {
		const char *nl = end >= 2 ? memrchr(buf, '\n', end - 1) : NULL;
		size_t p = nl ? (size_t)(nl - buf) + 1 : 0;
		if (independent(buf, p, end - 1 - p))
			return p;
		end = p;
	}
	return upto;
}

/* ---- one chunk ------------------------------------------------------------------ */

struct gmatch {
	size_t line, end_line; /* 0-based in the chunk */
	size_t off, len;       /* the unit's text in the chunk */
	size_t cut_lines;      /* lines matched on head and tail only */
	fl_match m;            /* captures and evidence owned */
};

struct chunk {
	char *buf;
	size_t bufmap;         /* fl_xzalloc_huge's */
	size_t len;            /* bytes to process */
	long long seq;
	int state;
	long long lines, units; /* looked at (all of them unless timed out) */
	long long cut_lines;
	bool cut_first;        /* its one line is a longer line's head and
				  tail (long_line) */
	bool timed_out;        /* the time limit stopped it after lines */
	struct gmatch *res;
	size_t nres, rescap;
};
enum { C_FREE, C_READY, C_BUSY, C_DONE };

/* One thread's working state. */
struct worker {
	fl_lookup *lk;
	const char *repo;
	fl_occs occ;           /* the chunk's occurrences */
	bool scanned;          /* occ is complete */
	size_t oi;             /* next occurrence to consider */
	fl_occs rel;           /* a unit's occurrences, relative to it */
	struct hit *hits;
	size_t hitcap;
	struct unit *units;    /* the chunk's units (group_units) */
	size_t nunits, ucap, umap; /* umap: fl_xzalloc_huge's */
	size_t lines;          /* the chunk's lines */
	char *dense;           /* the units that are not quiet, end to end */
	size_t dcap;
};

static void worker_free(struct worker *w)
{
	free(w->occ.v);
	free(w->rel.v);
	free(w->hits);
	fl_free_huge(w->units, w->umap);
	free(w->dense);
}

/* Keep the unit u of chunk c for the scan, with whether it is quiet (one
 * line that cannot have a confident answer). */
static void push_unit(struct worker *w, const struct chunk *c, struct unit *u)
{
	if (w->nunits == w->ucap) {
		/* megabytes for a chunk of short lines: on huge pages */
		size_t cap = w->ucap ? w->ucap * 2 : 1024, map;
		struct unit *v = fl_xzalloc_huge(cap * sizeof *v, &map);
		if (w->nunits)
			memcpy(v, w->units, w->nunits * sizeof *v);
		fl_free_huge(w->units, w->umap);
		w->units = v;
		w->ucap = cap;
		w->umap = map;
	}
	size_t len = u->end - u->start;
	while (len && (c->buf[u->start + len - 1] == '\n' || c->buf[u->start + len - 1] == '\r'))
		len--;
	u->text_len = len;
	u->quiet = u->nlines == 1 && !c->cut_first && fl_line_quiet(c->buf + u->start, len);
	w->units[w->nunits++] = *u;
}

static bool is_code_byte(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void report(struct chunk *c, const struct unit *u, size_t len, size_t ncut,
		   fl_match *m)
{
	if (c->nres == c->rescap) {
		c->rescap = c->rescap ? c->rescap * 2 : 64;
		c->res = fl_xrealloc(c->res, c->rescap * sizeof *c->res);
	}
	struct gmatch *g = &c->res[c->nres++];
	g->line = u->line;
	g->end_line = u->line + (u->nlines ? u->nlines - 1 : 0);
	g->off = u->start;
	g->len = len;
	g->cut_lines = ncut;
	g->m = *m;
	memset(&m->captures, 0, sizeof m->captures); /* moved */
	memset(&m->evidence, 0, sizeof m->evidence);
	memset(&m->sites, 0, sizeof m->sites);
}

static void push_occ(fl_occs *ob, fl_occ o)
{
	if (ob->n == ob->cap) {
		ob->cap = ob->cap ? ob->cap * 2 : 64;
		ob->v = fl_xrealloc(ob->v, ob->cap * sizeof *ob->v);
	}
	ob->v[ob->n++] = o;
}

static void flush(struct worker *w, struct chunk *c, struct unit *u)
{
	if (u->end <= u->start)
		return;
	fl_lookup *lk = w->lk;
	/* the occurrences inside the unit */
	size_t first = w->oi;
	while (w->oi < w->occ.n && w->occ.v[w->oi].end <= u->end)
		w->oi++;
	size_t last = w->oi;
	if (w->scanned && first == last)
		return; /* nothing known occurs here: the fast path */
	const char *text = c->buf + u->start;
	size_t len = u->text_len;
	size_t olen = len;     /* the unit's text, as reported */
	char *cut = NULL;      /* a long line's head and tail */
	size_t ncut = c->cut_first ? 1 : 0; /* cut already: the chunk's line */
	bool complete = true;
	if (!ncut && u->nlines == 1 && len > FL_LINE_MAX) {
		/* one long line: its head and tail, scanned on their own */
		size_t cutlen;
		ncut = fl_lk_cut_lines(text, len, &cut, &cutlen);
		text = cut;
		len = cutlen;
		complete = fl_lk_scan(lk, text, len, &w->rel);
		c->cut_lines += (long long)ncut;
		if (complete && !w->rel.n)
			goto out;
	} else if (w->scanned) {
		/* relative to the unit */
		w->rel.n = 0;
		for (size_t o = first; o < last; o++)
			if (w->occ.v[o].end > u->start && w->occ.v[o].end - u->start <= len)
				push_occ(&w->rel, (fl_occ){w->occ.v[o].id,
							   (uint32_t)(w->occ.v[o].end - u->start)});
	} else {
		/* the chunk's scan was cut short: this unit's own */
		complete = fl_lk_scan(lk, text, len, &w->rel);
		if (complete && !w->rel.n)
			return;
	}
	const fl_occ *occ = w->rel.v;
	size_t nocc = w->rel.n;
	if (u->nlines == 1 && complete) {
		/* occurrences of short patterns in a long message are no
		 * answer (FL_SHORT_COVER): skip the line without a closer look
		 * when only such occurrences are there */
		bool viable = false;
		size_t msglen = SIZE_MAX;
		for (size_t o = 0; o < nocc && !viable; o++)
			viable = fl_lk_short_viable(lk, occ[o].id, text, len, occ[o].end, &msglen);
		if (!viable)
			goto out;
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
		fl_lk_explain_occs(lk, text, len, complete ? occ : NULL, nocc, w->repo, 1,
				   false, &r);
		if (!ncut) {
			ncut = r.cut_lines; /* cut by the lookup itself */
			c->cut_lines += (long long)ncut;
		}
		if (r.n && r.match_type && strcmp(r.match_type, "fuzzy") != 0 &&
		    r.v[0].score >= FL_LK_PATTERN_MIN)
			report(c, u, olen, ncut, &r.v[0]);
		fl_result_free(&r);
		fl_lk_prepare(lk);
		goto out;
	}
	/* one line: an error code wins, then the most specific pattern */
	for (size_t o = 0; o < nocc; o++) {
		uint32_t cs, f;
		if (fl_lk_is_factor(lk, occ[o].id, &cs, &f))
			continue;
		const fl_index *cix = &lk->seg[cs];
		const char *code = ix_str(cix, cix->hscodes[f - cix->h->n_factors]);
		size_t cl = strlen(code);
		size_t end = occ[o].end;
		if (end < cl)
			continue;
		size_t beg = end - cl;
		if ((beg > 0 && is_code_byte(text[beg - 1])) || (end < len && is_code_byte(text[end])))
			continue;
		/* the first record with the code, of either segment (in the
		 * order a full rebuild gives them) */
		uint32_t bs = 0, be = UINT32_MAX;
		uint64_t border = UINT64_MAX;
		for (uint32_t s = 0; s < lk->nseg; s++) {
			const fl_index *ix = &lk->seg[s];
			const idx_code *cd = fl_index_code(ix, code);
			for (; cd && cd < ix->codes + ix->h->n_codes &&
			       strcmp(ix_str(ix, cd->str), code) == 0; cd++) {
				const idx_entry *x = &ix->ent[cd->entry];
				if (fl_lk_dead(lk, s, x) ||
				    (w->repo && strcmp(ix_str(ix, x->repo), w->repo) != 0))
					continue;
				uint64_t ord = fl_lk_order(lk, s, cd->entry);
				if (ord < border)
					border = ord, bs = s, be = cd->entry;
				break; /* the segment's first: its codes are in order */
			}
		}
		if (be == UINT32_MAX)
			continue;
		fl_match m = {0};
		fl_lk_fill(lk, bs, be, &m);
		m.code = code;
		m.score = 1.0;
		m.match_type = "exact-code";
		report(c, u, olen, ncut, &m);
		goto out;
	}
	/* the line read as explain reads it (its level, the classes and
	 * paths it names): the same text ranks the same way in both */
	fl_query q;
	fl_normalize(text, len, &q);
	/* a line with no confident answer (logged as informational, naming
	 * nothing that gives a record evidence): its patterns need not be
	 * tried */
	if (!fl_lk_query_may_confide(&q)) {
		fl_query_free(&q);
		goto out;
	}
	size_t nh = fl_lk_pattern_occs(lk, text, len, occ, nocc, complete, w->repo, &q, 1,
				       &w->hits, 0, &w->hitcap);
	if (nh)
		nh = fl_lk_rank(lk, w->hits, nh);
	fl_query_free(&q);
	/* a log is annotated with confident answers only (rank.c) */
	if (!nh || !w->hits[0].strong)
		goto out;
	struct hit *h = &w->hits[0];
	const fl_index *ix = &lk->seg[h->seg];
	uint32_t whole = ix->ent[h->entry].whole; /* a line's part: its record */
	const idx_entry *x = &ix->ent[whole];
	fl_match m = {0};
	fl_lk_fill(lk, h->seg, whole, &m);
	m.score = h->score;
	m.match_type = "pattern";
	for (size_t k = 0; k < h->ncaps; k++) {
		char *cap = fl_xstrndup(text + h->caps[k].start, h->caps[k].end - h->caps[k].start);
		fl_strv_push(&m.captures, cap);
		free(cap);
	}
	fl_lk_sites(ix, x, text, len, NULL, &m);
	report(c, u, olen, ncut, &m);
out:
	free(cut);
}

/* Flush the unit; false when the time limit cut its lookup short (what it
 * reported is taken back: the chunk ends before the unit). */
static bool flush_timed(struct worker *w, struct chunk *c, struct unit *u)
{
	size_t nres = c->nres;
	flush(w, c, u);
	if (!fl_lk_timed_out())
		return true;
	while (c->nres > nres) {
		fl_strv_free(&c->res[--c->nres].m.captures);
		fl_strv_free(&c->res[c->nres].m.evidence);
		fl_strv_free(&c->res[c->nres].m.sites);
	}
	return false;
}

/* The chunk's lines grouped into units (w->units), each single line
 * marked quiet when no confident answer can come of it (fl_line_quiet:
 * informational, naming nothing that gives evidence). */
static void group_units(struct worker *w, const struct chunk *c)
{
	const char *buf = c->buf;
	size_t upto = c->len;
	w->nunits = 0;
	struct unit u;
	memset(&u, 0, sizeof u);
	bool open = false;
	size_t pos = 0, ln = 0;
	while (pos < upto) {
		const char *s = buf + pos;
		const char *nl = memchr(s, '\n', upto - pos);
		size_t n = nl ? (size_t)(nl - s) : upto - pos;
		size_t next = pos + n + (nl ? 1 : 0);
		if (open && (u.end - u.start > UNIT_MAX || u.nlines >= UNIT_LINES)) {
			push_unit(w, c, &u);
			open = false;
		}
		if (open && !u.resolved && could_continue(s, n))
			unit_resolve(&u, buf);
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
			if (open)
				push_unit(w, c, &u);
			memset(&u, 0, sizeof u);
			u.start = pos;
			u.end = next;
			u.line = ln;
			u.nlines = 1;
			u.first_len = n;
			unit_begin(&u, s, n);
			open = true;
		}
		pos = next;
		ln++;
	}
	if (open)
		push_unit(w, c, &u);
	w->lines = ln;
}

/* The literal scan of the units that are not quiet: in place when all of
 * them are, else over a copy of their runs, whose occurrences are taken
 * back to the chunk's offsets (a literal never spans two units to any
 * effect: each unit is confirmed on its own text). */
static bool scan_units(struct worker *w, const struct chunk *c)
{
	size_t nquiet = 0;
	for (size_t k = 0; k < w->nunits; k++)
		nquiet += w->units[k].quiet;
	if (!nquiet)
		return fl_lk_scan(w->lk, c->buf, c->len, &w->occ);
	struct span {
		size_t at, from, len; /* in the copy, in the chunk, bytes */
	};
	struct span *sp = NULL;
	size_t nsp = 0, spcap = 0, dn = 0;
	for (size_t k = 0; k < w->nunits;) {
		if (w->units[k].quiet) {
			k++;
			continue;
		}
		size_t e = k + 1;
		while (e < w->nunits && !w->units[e].quiet)
			e++;
		size_t from = w->units[k].start, to = w->units[e - 1].end;
		if (nsp == spcap) {
			spcap = spcap ? spcap * 2 : 256;
			sp = fl_xrealloc(sp, spcap * sizeof *sp);
		}
		sp[nsp++] = (struct span){dn, from, to - from};
		if (dn + (to - from) > w->dcap) {
			w->dcap = (dn + (to - from)) * 2;
			w->dense = fl_xrealloc(w->dense, w->dcap);
		}
		memcpy(w->dense + dn, c->buf + from, to - from);
		dn += to - from;
		k = e;
	}
	bool ok = fl_lk_scan(w->lk, w->dense, dn, &w->occ);
	size_t j = 0;
	for (size_t o = 0; ok && o < w->occ.n; o++) {
		size_t end = w->occ.v[o].end;
		while (j + 1 < nsp && end > sp[j].at + sp[j].len)
			j++;
		w->occ.v[o].end = (uint32_t)(sp[j].from + (end - sp[j].at));
	}
	free(sp);
	return ok;
}

/* Group the chunk's lines into units and look the promising ones up. */
static void process_chunk(struct worker *w, struct chunk *c)
{
	fl_lk_prepare_bulk(w->lk);
	w->oi = 0;
	c->cut_lines = c->cut_first ? 1 : 0;
	c->timed_out = false;
	group_units(w, c);
	/* a long chunk waits for the literal databases when another worker
	 * is mapping (or making) them, rather than taking the literal
	 * table at 60 ns a byte: its results are reported after that
	 * worker's anyway */
	if (c->len > FL_LITTAB_COLD)
		fl_lookup_prepare_long(w->lk);
	w->scanned = scan_units(w, c);
	if (!w->scanned)
		w->occ.n = 0; /* too many literal hits: each unit is scanned alone */
	for (size_t k = 0; k < w->nunits; k++) {
		struct unit *u = &w->units[k];
		if (fl_lk_expired() || (!u->quiet && !flush_timed(w, c, u))) {
			/* the lines before the unit being looked at are done */
			c->timed_out = true;
			c->lines = (long long)u->line;
			c->units = (long long)k;
			return;
		}
	}
	c->lines = (long long)w->lines;
	c->units = (long long)w->nunits;
}

/* ---- the pipeline ------------------------------------------------------------- */

/* The last FL_LINE_KEEP bytes of a line seen so far, with s[0, n) after. */
static void keep_tail(char *tail, size_t *tn, const char *s, size_t n)
{
	if (n >= FL_LINE_KEEP) {
		memcpy(tail, s + n - FL_LINE_KEEP, FL_LINE_KEEP);
		*tn = FL_LINE_KEEP;
		return;
	}
	size_t keep = *tn + n > FL_LINE_KEEP ? FL_LINE_KEEP - n : *tn;
	memmove(tail, tail + *tn - keep, keep);
	memcpy(tail + keep, s, n);
	*tn = keep + n;
}

/* buf[0, have) (have = chunk) starts a line longer than the buffer: read
 * on to its end keeping its first and last FL_LINE_KEEP bytes (at
 * character boundaries), so that memory stays constant and the line is
 * still one line.  buf becomes head "\u2026" tail (and '\n' when the line
 * had one), what follows the line goes to carry; returns buf's length. */
static size_t long_line(char *buf, size_t have, size_t chunk, FILE *in, char *carry,
			size_t *ncarry, bool *eof, bool *failed, long long *bytes)
{
	size_t h = FL_LINE_KEEP;
	for (int k = 0; k < 3 && ((unsigned char)buf[h] & 0xC0) == 0x80; k++)
		h--;
	char tail[FL_LINE_KEEP];
	size_t tn = 0;
	keep_tail(tail, &tn, buf + h, have - h);
	bool nl = false;
	*ncarry = 0;
	for (;;) {
		size_t r = fread(buf + h, 1, chunk - h, in);
		*bytes += (long long)r;
		if (r == 0) {
			if (ferror(in))
				*failed = true;
			*eof = true;
			break;
		}
		const char *e = memchr(buf + h, '\n', r);
		if (e) {
			size_t before = (size_t)(e - (buf + h));
			keep_tail(tail, &tn, buf + h, before);
			*ncarry = r - before - 1;
			memcpy(carry, e + 1, *ncarry);
			nl = true;
			break;
		}
		keep_tail(tail, &tn, buf + h, r);
	}
	size_t t = 0;
	for (int k = 0; k < 3 && t < tn && ((unsigned char)tail[t] & 0xC0) == 0x80; k++)
		t++;
	memcpy(buf + h, "\xE2\x80\xA6", 3);
	memcpy(buf + h + 3, tail + t, tn - t);
	size_t n = h + 3 + tn - t;
	if (nl)
		buf[n++] = '\n';
	return n;
}

struct pipeline {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct chunk *slot;
	size_t nslot;
	bool quit;
	fl_lookup *lk;
	const char *repo;
	double deadline;       /* fl_now_mono() time limit, 0 = none */
};

static void *worker_main(void *arg)
{
	struct pipeline *p = arg;
	struct worker w;
	memset(&w, 0, sizeof w);
	w.lk = p->lk;
	w.repo = p->repo;
	fl_lk_set_deadline(p->deadline);
	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct chunk *c = NULL;
		for (size_t i = 0; i < p->nslot; i++)
			if (p->slot[i].state == C_READY && (!c || p->slot[i].seq < c->seq))
				c = &p->slot[i];
		if (!c) {
			if (p->quit)
				break;
			pthread_cond_wait(&p->work, &p->mu);
			continue;
		}
		c->state = C_BUSY;
		pthread_mutex_unlock(&p->mu);
		process_chunk(&w, c);
		pthread_mutex_lock(&p->mu);
		c->state = C_DONE;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	worker_free(&w);
	fl_lookup_thread_done();
	return NULL;
}

static void chunk_clear(struct chunk *c)
{
	for (size_t i = 0; i < c->nres; i++) {
		fl_strv_free(&c->res[i].m.captures);
		fl_strv_free(&c->res[i].m.evidence);
		fl_strv_free(&c->res[i].m.sites);
	}
	c->nres = 0;
}

int fl_lk_grep_log(fl_lookup *lk, FILE *in, const char *repo, fl_logmatch_cb cb,
		   void *ud, fl_grep_stats *stats, size_t chunk, int threads,
		   double seconds, fl_err *err)
{
	if (chunk < 2)
		chunk = 2;
	if (threads < 0) {
		long np = sysconf(_SC_NPROCESSORS_ONLN);
		threads = np >= 2 ? (int)(np < MAX_WORKERS ? np : MAX_WORKERS) : 0;
	}
	if (threads > MAX_WORKERS)
		threads = MAX_WORKERS;
	struct pipeline p;
	memset(&p, 0, sizeof p);
	p.lk = lk;
	p.repo = repo;
	p.deadline = seconds > 0 ? fl_now_mono() + seconds : 0;
	fl_lk_set_deadline(p.deadline);
	p.nslot = (size_t)threads + 2;
	p.slot = fl_xcalloc(p.nslot, sizeof *p.slot);
	size_t carrymap;
	char *carry = fl_xzalloc_huge(chunk, &carrymap);
	size_t ncarry = 0;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.work, NULL);
	pthread_cond_init(&p.done, NULL);
	pthread_t th[MAX_WORKERS];
	int nth = 0;
	struct worker self; /* the calling thread works alone */
	memset(&self, 0, sizeof self);
	self.lk = lk;
	self.repo = repo;

	fl_grep_stats st = {0};
	long long seq_read = 0, seq_emit = 0;
	long long base = 1;       /* number of the first line not yet reported */
	bool eof = false, stop = false, failed = false, late = false;
	pthread_mutex_lock(&p.mu);
	for (;;) {
		/* report the finished chunks, in order */
		struct chunk *c = NULL;
		for (size_t i = 0; i < p.nslot; i++)
			if (p.slot[i].state == C_DONE && p.slot[i].seq == seq_emit)
				c = &p.slot[i];
		if (c) {
			pthread_mutex_unlock(&p.mu);
			for (size_t i = 0; i < c->nres && !stop; i++) {
				struct gmatch *g = &c->res[i];
				fl_logmatch lm = {(size_t)base + g->line, (size_t)base + g->end_line,
						  c->buf + g->off, g->len, &g->m, g->cut_lines};
				if (cb(&lm, ud))
					stop = true;
			}
			chunk_clear(c);
			if (!late) {
				base += c->lines;
				st.lines += c->lines;
				st.units += c->units;
				st.cut_lines += c->cut_lines;
			}
			if (c->timed_out && !late) {
				/* nothing after the lines done is reported */
				late = true;
				stop = true;
			}
			seq_emit++;
			pthread_mutex_lock(&p.mu);
			c->state = C_FREE;
			continue;
		}
		if (seq_emit == seq_read && (eof || stop || failed))
			break;
		/* read the next chunk into a free slot */
		struct chunk *f = NULL;
		if (!eof && !stop && !failed)
			for (size_t i = 0; i < p.nslot && !f; i++)
				if (p.slot[i].state == C_FREE)
					f = &p.slot[i];
		if (!f) {
			pthread_cond_wait(&p.done, &p.mu);
			continue;
		}
		pthread_mutex_unlock(&p.mu);
		if (!f->buf)
			f->buf = fl_xzalloc_huge(chunk, &f->bufmap);
		memcpy(f->buf, carry, ncarry);
		size_t have = ncarry;
		while (!eof && have < chunk) {
			size_t r = fread(f->buf + have, 1, chunk - have, in);
			have += r;
			st.bytes += (long long)r;
			if (r == 0) {
				if (ferror(in))
					failed = true;
				eof = true;
			}
		}
		/* complete lines, ending where a unit must start; all of it at
		 * the end; a line that fills the whole buffer, cut */
		size_t upto = have;
		f->cut_first = false;
		if (!eof) {
			const char *nl = memrchr(f->buf, '\n', have);
			if (nl) {
				upto = safe_cut(f->buf, (size_t)(nl - f->buf) + 1);
			} else if (chunk > 3 * FL_LINE_KEEP) {
				upto = long_line(f->buf, have, chunk, in, carry, &ncarry, &eof,
						 &failed, &st.bytes);
				f->cut_first = true;
			}
		}
		if (!f->cut_first) {
			ncarry = have - upto;
			memcpy(carry, f->buf + upto, ncarry);
		}
		f->len = upto;
		pthread_mutex_lock(&p.mu);
		if (failed || upto == 0)
			continue;
		f->seq = seq_read++;
		if (threads > 0 && (nth > 0 || !eof)) {
			/* more than one chunk: the workers take them */
			bool first = nth == 0;
			while (nth < threads && pthread_create(&th[nth], NULL, worker_main, &p) == 0)
				nth++;
			/* a long log: the index pages in memory mapped at once
			 * while the first chunk is worked on */
			if (first && nth > 0) {
				f->state = C_READY;
				pthread_cond_signal(&p.work);
				pthread_mutex_unlock(&p.mu);
				for (size_t s = 0; s < lk->nseg; s++)
					fl_index_populate(&lk->seg[s]);
				pthread_mutex_lock(&p.mu);
				continue;
			}
		}
		if (nth > 0) {
			f->state = C_READY;
			pthread_cond_signal(&p.work);
		} else {
			pthread_mutex_unlock(&p.mu);
			process_chunk(&self, f);
			pthread_mutex_lock(&p.mu);
			f->state = C_DONE;
		}
	}
	p.quit = true;
	pthread_cond_broadcast(&p.work);
	pthread_mutex_unlock(&p.mu);
	for (int t = 0; t < nth; t++)
		pthread_join(th[t], NULL);
	for (size_t i = 0; i < p.nslot; i++) {
		chunk_clear(&p.slot[i]);
		free(p.slot[i].res);
		fl_free_huge(p.slot[i].buf, p.slot[i].bufmap);
	}
	free(p.slot);
	fl_free_huge(carry, carrymap);
	worker_free(&self);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.work);
	pthread_cond_destroy(&p.done);
	fl_lk_set_deadline(0);
	if (stats)
		*stats = st;
	if (failed)
		return fl_seterr(err, "cannot read the log");
	return late ? 1 : 0;
}

int fl_grep_log(fl_lookup *lk, FILE *in, const char *repo, fl_logmatch_cb cb,
		void *ud, fl_grep_stats *stats, fl_err *err)
{
	return fl_lk_grep_log(lk, in, repo, cb, ud, stats, CHUNK, -1, 0, err);
}

int fl_grep_log_until(fl_lookup *lk, FILE *in, const char *repo,
		      fl_logmatch_cb cb, void *ud, double seconds,
		      fl_grep_stats *stats, fl_err *err)
{
	return fl_lk_grep_log(lk, in, repo, cb, ud, stats, CHUNK, -1, seconds, err);
}
