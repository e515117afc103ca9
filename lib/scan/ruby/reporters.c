/*
 * reporters.c — the Ruby tree's collect pass (lib/scan/ruby/, ruby.h):
 * exception classes with a default message of their own, and the tree's
 * own reporters (methods that raise, abort, warn with or hand on their
 * first parameter: `alert_error "..."`, `Bundler.ui.warn "..."`), with the
 * severity a call of one of them gets.
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruby.h"

/* ---- exception classes with a default message -------------------------------
 * `class MissingWarden < StandardError; def initialize; super "..."; end`
 * (devise), `def initialize(msg = "..."); super; end`, `def message;
 * "..."; end`: the class has a message of its own, which a `raise
 * MissingWarden` without one gets (collect(): the classes of every file). */

static bool excy(const fl_toks *t, size_t k)
{
	const char *s = t->src + t->v[k].off;
	size_t n = t->v[k].len;
	return (n > 5 && memcmp(s + n - 5, "Error", 5) == 0) ||
	       (n > 9 && memcmp(s + n - 9, "Exception", 9) == 0);
}

/* The last statement of a method body [body, end) (a line ending in `+`
 * or `\\` goes on on the next): its start, *e its end; NONE when the body
 * is empty. */
static size_t last_stmt(const fl_toks *t, const size_t *m, size_t body, size_t end,
			size_t *e)
{
	size_t s = NONE;
	for (size_t k = body; k < end;) {
		size_t x = fl_rb_line_end(t, m, k);
		while (x < end && x > k && (is_p(t, x - 1, '+') || is_p(t, x - 1, '\\')))
			x = fl_rb_line_end(t, m, x);
		s = k;
		*e = x > end ? end : x;
		k = x;
	}
	return s;
}

/* In the class body (from token q to the class's end, the class at column
 * ccol): the message `def NAME` (no parameter) returns, its last statement;
 * NULL otherwise. */
static char *method_msg(const fl_toks *t, const size_t *m, size_t q, int ccol, size_t name)
{
	for (; q + 2 < t->n; q++) {
		if ((t->v[q].flags & FL_TF_NL_BEFORE) && t->v[q].col <= ccol)
			break;
		if (!is_kw(t, q, "def") || !(t->v[q].flags & FL_TF_NL_BEFORE) ||
		    !fl_rb_same_tok(t, q + 1, name) || !(t->v[q + 2].flags & FL_TF_NL_BEFORE))
			continue;
		int dcol = t->v[q].col;
		size_t body = q + 2, end = body, e;
		while (end < t->n && !((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col <= dcol))
			end++;
		size_t s = last_stmt(t, m, body, end, &e);
		char *r = s == NONE ? NULL : fl_rb_msg(t, s, e);
		/* the message keeps the line break a text joined after it
		 * needs (a message's own trailing one is trimmed) */
		const fl_tok *l = &t->v[e - 1];
		if (r && l->kind == FL_TK_STRING && l->slen && fl_tok_str(t, l)[l->slen - 1] == '\n') {
			char *x = fl_xasprintf("%s\n", r);
			free(r);
			r = x;
		}
		return r;
	}
	return NULL;
}

/* `def message; build_message + "Checked in ..."; end` (rubygems'
 * MissingSpecError): the message its last statement [b, e) makes, each
 * operand of `+` that calls a method of the class (from token c, the class
 * at column ccol) without arguments replaced by what that method returns,
 * another lone name by {name}.  NULL when no part is a literal. */
static char *message_expr(const fl_toks *t, const size_t *m, size_t b, size_t e, size_t c,
			  int ccol)
{
	fl_buf out = {0};
	bool lit = false, ok = true;
	for (size_t k = b; k < e && ok;) {
		size_t x = k;
		while (x < e && !is_p(t, x, '+'))
			x = fl_tok_is_opener(t, x) && m[x] != NONE && m[x] > x ? m[x] + 1 : x + 1;
		if (x > e)
			x = e;
		char *part = NULL;
		if (x == k + 1 && t->v[k].kind == FL_TK_IDENT) {
			part = method_msg(t, m, c, ccol, k);
			if (!part) {
				part = fl_xasprintf("{%.*s}", (int)t->v[k].len, t->src + t->v[k].off);
			} else {
				lit = true;
			}
		} else {
			part = x > k ? fl_rb_msg(t, k, x) : NULL;
			lit = lit || part;
			ok = part != NULL;
		}
		if (part)
			fl_buf_puts(&out, part);
		free(part);
		k = x + 1;
	}
	char *r = ok && lit && out.n ? fl_xstrdup(fl_buf_cstr(&out)) : NULL;
	fl_buf_free(&out);
	return r;
}

/* The class statement at i: its default message, or false. */
bool fl_rb_class_default_at(const fl_toks *t, const size_t *m, size_t i, rbclass *rc)
{
	memset(rc, 0, sizeof *rc);
	if (i > 0 && !(t->v[i].flags & FL_TF_NL_BEFORE))
		return false;
	size_t k = i + 1;
	while (k + 2 < t->n && t->v[k].kind == FL_TK_IDENT && fl_tok_is(t, k + 1, "::"))
		k += 2;
	if (k >= t->n || !fl_rb_const_path(t, k, k + 1) || (t->v[k].flags & FL_TF_NL_BEFORE))
		return false;
	rc->name = k;
	/* < Base: an exception class by its name or its base's */
	bool ex = excy(t, k);
	if (k + 2 < t->n && is_p(t, k + 1, '<'))
		for (size_t q = k + 2; q < t->n && !(t->v[q].flags & FL_TF_NL_BEFORE); q++)
			if (t->v[q].kind == FL_TK_IDENT && excy(t, q))
				ex = true;
	if (!ex)
		return false;
	int ccol = t->v[i].col;
	for (size_t q = k + 1; q + 1 < t->n && q - i < 20000; q++) {
		const fl_tok *tk = &t->v[q];
		if ((tk->flags & FL_TF_NL_BEFORE) && tk->col <= ccol)
			break; /* the class's `end` (or what follows a one-liner) */
		if (!is_kw(t, q, "def") || !(tk->flags & FL_TF_NL_BEFORE) || rc->msg)
			continue;
		int dcol = tk->col;
		size_t body = fl_rb_line_end(t, m, q), end = body;
		while (end < t->n && !((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col <= dcol))
			end++;
		if (fl_tok_is(t, q + 1, "message") && body < end) {
			/* def message; "..."; end: one expression */
			if (fl_rb_line_end(t, m, body) == end) {
				rc->msg = fl_rb_msg(t, body, end);
				rc->at = body;
				rc->idiom = "class method message";
			}
			/* or its last statement joins what other methods of
			 * the class return */
			size_t le, ls = last_stmt(t, m, body, end, &le);
			if (!rc->msg && ls != NONE && (rc->msg = message_expr(t, m, ls, le, k + 1, ccol))) {
				rc->at = ls;
				rc->idiom = "class method message";
			}
			continue;
		}
		if (!fl_tok_is(t, q + 1, "initialize"))
			continue;
		/* def initialize(msg = "default") ... super */
		size_t po = q + 2;
		if (is_p(t, po, '(') && m[po] != NONE) {
			size_t ps[8], pe[8];
			size_t np = fl_tok_split(t, m, po + 1, m[po], ps, pe, 8);
			for (size_t a = 0; a < np && !rc->msg; a++) {
				if (pe[a] - ps[a] < 3 || t->v[ps[a]].kind != FL_TK_IDENT ||
				    !is_p(t, ps[a] + 1, '='))
					continue;
				/* passed on: a bare super (the same arguments),
				 * super(name) or super name */
				bool passed = false;
				for (size_t r = body; r < end; r++) {
					if (!is_kw(t, r, "super"))
						continue;
					size_t le = fl_rb_line_end(t, m, r);
					if (le == r + 1 ||
					    (le == r + 4 && is_p(t, r + 1, '(') && fl_rb_same_tok(t, r + 2, ps[a])) ||
					    (le == r + 2 && fl_rb_same_tok(t, r + 1, ps[a])))
						passed = true;
				}
				char *d = passed ? fl_rb_msg(t, ps[a] + 2, pe[a]) : NULL;
				if (d) {
					rc->msg = d;
					rc->at = ps[a] + 2;
					rc->idiom = "class constructor initialize";
				}
			}
		}
		/* super "..." / super("...") */
		for (size_t r = body; r < end && !rc->msg; r++) {
			if (!is_kw(t, r, "super"))
				continue;
			size_t b = r + 1, e = fl_rb_line_end(t, m, r);
			if (b < e && is_p(t, b, '(') && m[b] != NONE && m[b] + 1 == e) {
				e = m[b];
				b++;
			}
			char *d = b < e ? fl_rb_msg(t, b, e) : NULL;
			if (d) {
				rc->msg = d;
				rc->at = r;
				rc->idiom = "class constructor initialize super";
			}
		}
	}
	if (rc->msg && *rc->msg)
		return true;
	free(rc->msg);
	rc->msg = NULL;
	return false;
}

/* Whether a file can hold such a class (a byte scan, before lexing). */
bool fl_rb_has_class_default(const char *s, size_t n)
{
	return fl_memmem(s, n, "class ", 6) &&
	       ((fl_memmem(s, n, "def initialize", 14) && fl_memmem(s, n, "super", 5)) ||
		fl_memmem(s, n, "def message", 11));
}

/* ---- the tree's own reporters -----------------------------------------------
 * `def error(statement); raise Gem::InvalidSpecificationException,
 * statement; end`, `def alert_warning(statement, q = nil); ui.alert_warning
 * statement, q; end`, Bundler's `def error(msg); tell_err(msg, :red); end`:
 * methods that hand their first parameter on to what reports it.  Found by
 * what they do, as the C family's reporter table (c/reporters.c) finds its
 * functions: the collect pass notes, for every `def NAME(p, ...)` of the
 * tree, what the body does with p (raises it, aborts or warns with it,
 * exits with it, or passes it as the first argument of another call), and
 * whether NAME's last word says a severity (error, warn, warning, fatal).
 * A method is a reporter when its name says a severity and it passes p on,
 * or when it raises, aborts or warns with p itself or through a chain of
 * such methods (resolved at lookup, up to 8 steps).  A call `NAME "..."` /
 * `recv.NAME("...")` of a reporter is then a site of its own. */

void *fl_rb_tree_new(void)
{
	rbtree *r = fl_xcalloc(1, sizeof *r);
	r->cls = fl_classdefs_new();
	return r;
}

void fl_rb_tree_free(void *tree)
{
	rbtree *r = tree;
	if (!r)
		return;
	fl_classdefs_free(r->cls);
	for (size_t k = 0; k < r->n; k++) {
		free(r->v[k].name);
		free(r->v[k].target);
		free(r->v[k].cls);
		free(r->v[k].file);
	}
	free(r->v);
	fl_strmap_free(&r->idx);
	free(r);
}

/* Add rep (its strings taken over). */
static void rep_add(rbtree *r, rbrep *rep)
{
	if (r->n >= 1u << 20) {
		free(rep->name);
		free(rep->target);
		free(rep->cls);
		free(rep->file);
		return;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->v = fl_xrealloc(r->v, r->cap * sizeof *r->v);
	}
	size_t prev;
	rep->next = fl_strmap_get(&r->idx, rep->name, &prev) ? prev : NONE;
	r->v[r->n] = *rep;
	fl_strmap_put(&r->idx, rep->name, r->n++);
}

void fl_rb_tree_merge(void *tree, void *part)
{
	rbtree *r = tree, *p = part;
	fl_classdefs_merge(r->cls, p->cls);
	for (size_t k = 0; k < p->n; k++) {
		rep_add(r, &p->v[k]);
		memset(&p->v[k], 0, sizeof p->v[k]);
	}
}

/* The severity a method's name says by its last word: 1 error, 2 warning. */
static int name_sev(const char *s, size_t n)
{
	const char *w = s;
	for (size_t k = 0; k < n; k++)
		if (s[k] == '_')
			w = s + k + 1;
	size_t l = (size_t)(s + n - w);
	if (l == 0 || (l == n && n < 4))
		return 0;
#define W(x) (l == sizeof(x) - 1 && memcmp(w, x, l) == 0)
	if (W("error") || W("fatal") || W("die"))
		return 1;
	if (W("warn") || W("warning"))
		return 2;
#undef W
	return 0;
}

/* The first parameter of the def at d (its name token at d+1, or d+3 for
 * `def self.x`): a plain name, else NONE.  *body gets the first token of
 * the body. */
static size_t def_param(const fl_toks *t, const size_t *m, size_t d, size_t *body)
{
	size_t k = d + 1;
	if (k + 2 < t->n && is_p(t, k + 1, '.'))
		k += 2;
	if (k + 1 >= t->n || t->v[k].kind != FL_TK_IDENT)
		return NONE;
	size_t p = k + 1;
	if (is_p(t, p, '(') && t->v[p].off == t->v[k].off + t->v[k].len) {
		if (m[p] == NONE)
			return NONE;
		*body = m[p] + 1;
		p++;
	} else {
		if (t->v[p].flags & FL_TF_NL_BEFORE)
			return NONE;
		*body = fl_rb_line_end(t, m, k);
	}
	if (p >= t->n || t->v[p].kind != FL_TK_IDENT || (t->v[p].flags & FL_TF_NL_BEFORE))
		return NONE;
	char c = t->src[t->v[p].off];
	if (!(c >= 'a' && c <= 'z') && c != '_')
		return NONE;
	/* p: or p = default */
	if (is_p(t, p + 1, ':'))
		return NONE;
	return p;
}

/* Whether string token k interpolates the name at token p: "#{p}". */
static bool interpolates(const fl_toks *t, size_t k, size_t p)
{
	if (t->v[k].kind != FL_TK_STRING || !(t->v[k].flags & FL_TF_INTERP))
		return false;
	char pat[80];
	if (t->v[p].len + 3 > sizeof pat)
		return false;
	pat[0] = '{';
	memcpy(pat + 1, t->src + t->v[p].off, t->v[p].len);
	pat[t->v[p].len + 1] = '}';
	return fl_memmem(fl_tok_str(t, &t->v[k]), t->v[k].slen, pat, t->v[p].len + 2) != NULL;
}

/* What the body [b, e) does with parameter token p (what one use says;
 * the first one that says something wins); returns the token of the call
 * or raise, or NONE.  *whole: p is the whole argument (not interpolated
 * into a longer text). */
static size_t def_uses(const fl_toks *t, size_t p, size_t b, size_t e, rbrep *rep,
		       bool *whole)
{
	for (size_t k = b; k < e && k < t->n; k++) {
		bool use = fl_rb_same_tok(t, k, p) && t->v[k].kind == FL_TK_IDENT &&
			   !is_p(t, k + 1, '.') && !is_p(t, k + 1, '[');
		if (!use && !interpolates(t, k, p))
			continue;
		*whole = use;
		/* the call it is the first argument of: `M p`, `M(p`, `M "#{p}"` */
		size_t c = k - 1;
		if (is_p(t, c, '(') && c > b && t->v[c].off == t->v[c - 1].off + t->v[c - 1].len)
			c--;
		else if (t->v[k].flags & FL_TF_NL_BEFORE)
			continue;
		size_t cls = NONE, cle = NONE;
		if (is_p(t, c, ',')) {
			/* raise Foo::Bar, p */
			size_t q = c;
			while (q > b && (fl_rb_const_path(t, q - 1, q) || fl_tok_is(t, q - 1, "::")))
				q--;
			if (q < c && q > b && (is_kw(t, q - 1, "raise") || is_kw(t, q - 1, "fail")) &&
			    fl_rb_const_path(t, q, c)) {
				cls = q;
				cle = c;
				c = q - 1;
			} else {
				continue;
			}
		} else if (c > b + 3 && is_p(t, k - 1, '(') && fl_tok_is(t, c, "new") &&
			   is_p(t, c - 1, '.')) {
			/* raise Foo.new(p) */
			size_t q = c - 1;
			while (q > b && (fl_rb_const_path(t, q - 1, q) || fl_tok_is(t, q - 1, "::")))
				q--;
			if (q < c - 1 && q > b && (is_kw(t, q - 1, "raise") || is_kw(t, q - 1, "fail")) &&
			    fl_rb_const_path(t, q, c - 1)) {
				cls = q;
				cle = c - 1;
				c = q - 1;
			} else {
				continue;
			}
		}
		if (t->v[c].kind != FL_TK_IDENT || c < b)
			continue;
		if (is_kw(t, c, "raise") || is_kw(t, c, "fail")) {
			rep->how = RH_RAISE;
			if (cls != NONE) {
				fl_buf bb = {0};
				fl_rb_put_span(&bb, t, cls, cle);
				rep->cls = fl_xstrdup(fl_buf_cstr(&bb));
				fl_buf_free(&bb);
				if (strstr(rep->cls, "Exit"))
					rep->how = RH_EXIT; /* SystemExit: a status */
			}
			return c;
		}
		bool recv = c > 0 && (is_p(t, c - 1, '.') || fl_tok_is(t, c - 1, "&."));
		if (!recv && (is_kw(t, c, "abort") || is_kw(t, c, "warn") || is_kw(t, c, "exit") ||
			      fl_tok_is(t, c, "exit!"))) {
			rep->how = t->src[t->v[c].off] == 'a' ? RH_ABORT
				   : t->src[t->v[c].off] == 'w' ? RH_WARN : RH_EXIT;
			return c;
		}
		if (is_kw(t, c, "if") || is_kw(t, c, "unless") || is_kw(t, c, "return") ||
		    is_kw(t, c, "and") || is_kw(t, c, "or") || is_kw(t, c, "not") ||
		    is_kw(t, c, "when") || is_kw(t, c, "while") || is_kw(t, c, "until") ||
		    is_kw(t, c, "yield") || is_kw(t, c, "super") || is_kw(t, c, "defined?"))
			continue;
		char f = t->src[t->v[c].off];
		if (!((f >= 'a' && f <= 'z') || f == '_'))
			continue;
		rep->how = RH_FWD;
		rep->target = fl_tok_dup(t, c);
		return c;
	}
	return NONE;
}

/* Every `def NAME(p, ...)` of the file with what it does with p. */
static void collect_reporters(rbtree *r, const fl_toks *t, const size_t *m,
			      const char *path)
{
	for (size_t d = 0; d + 2 < t->n; d++) {
		if (!is_kw(t, d, "def") || !(t->v[d].flags & FL_TF_NL_BEFORE || d == 0))
			continue;
		size_t body = NONE;
		size_t p = def_param(t, m, d, &body);
		if (p == NONE || body >= t->n)
			continue;
		int dcol = t->v[d].col;
		size_t end = body;
		while (end < t->n && end - body < 4000 &&
		       !((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col <= dcol))
			end++;
		size_t nm = p - 1;
		while (nm > d && t->v[nm].kind != FL_TK_IDENT)
			nm--;
		rbrep rep = {0};
		bool whole = false;
		size_t c = def_uses(t, p, body, end, &rep, &whole);
		rep.named = (uint8_t)name_sev(t->src + t->v[nm].off, t->v[nm].len);
		/* a method whose name says no severity reports only when it
		 * hands p on whole, unconditionally: a statement of the
		 * body's top level without a modifier if/unless (`def
		 * gem(name); raise LoadError, "skipping #{name}" if x` is no
		 * reporter) */
		bool top = c != NONE && whole && (t->v[c].flags & FL_TF_NL_BEFORE) &&
			   t->v[c].col == t->v[body].col;
		if (top) {
			size_t le = fl_rb_line_end(t, m, c);
			for (size_t q = c; q < le; q++)
				if (is_kw(t, q, "if") || is_kw(t, q, "unless"))
					top = false;
		}
		if (rep.how == RH_NONE || (!rep.named && !top) ||
		    (rep.how == RH_FWD && !rep.named && strcmp(rep.target, "puts") == 0)) {
			free(rep.target);
			free(rep.cls);
			continue;
		}
		rep.name = fl_tok_dup(t, nm);
		rep.file = fl_xstrdup(path ? path : "");
		rep_add(r, &rep);
	}
}

/* What one definition reports: FL_S_*, "exit", or NULL (*cls: the class
 * it raises). */
static const char *rep_one(const rbtree *r, const rbrep *x, const char *path,
			   const char **cls, int depth);

/* A reporter's severity: FL_S_* of what it does, or NULL when name is no
 * reporter; RH_EXIT gives "exit".  *cls gets the class it raises (or NULL).
 * The definitions of the calling file (path) are asked first; the rest of
 * the tree only when the file defines no method of that name. */
const char *fl_rb_rep_sev(const rbtree *r, const char *name, const char *path,
			   const char **cls, int depth)
{
	size_t k0;
	*cls = NULL;
	if (!r || depth > 8 || !fl_strmap_get(&r->idx, name, &k0))
		return NULL;
	for (int pass = 0; pass < 2; pass++) {
		bool here = false;
		const char *sev = NULL, *c1 = NULL;
		for (size_t k = k0; k != NONE; k = r->v[k].next) {
			const rbrep *x = &r->v[k];
			if (pass == 0 && (!path || strcmp(x->file, path) != 0))
				continue;
			here = true;
			const char *c = NULL;
			const char *s = rep_one(r, x, path, &c, depth);
			if (!s)
				continue;
			if (!sev) {
				sev = s;
				c1 = c;
				*cls = c;
			} else if (!c || !c1 || strcmp(c, c1) != 0) {
				/* methods of one name raising different
				 * classes: which one is called is unknown */
				*cls = NULL;
			}
		}
		if (here || sev)
			return sev;
	}
	return NULL;
}

static const char *rep_one(const rbtree *r, const rbrep *x, const char *path,
			   const char **cls, int depth)
{
	*cls = x->how == RH_RAISE ? x->cls : NULL;
	if (x->named && x->how != RH_EXIT)
		return x->named == 1 ? FL_S_ERROR : FL_S_WARNING;
	switch (x->how) {
	case RH_RAISE:
		return FL_S_ERROR;
	case RH_ABORT:
		return FL_S_CRITICAL;
	case RH_WARN:
		return FL_S_WARNING;
	case RH_EXIT:
		return "exit";
	case RH_FWD:
		if (strcmp(x->target, x->name) != 0)
			return fl_rb_rep_sev(r, x->target, path, cls, depth + 1);
		/* ui.alert_error statement inside alert_error: another
		 * definition of the same name, elsewhere in the tree */
		return fl_rb_rep_sev(r, x->target, NULL, cls, depth + 1);
	}
	return NULL;
}

void fl_rb_collect(void *tree, const fl_src *src)
{
	rbtree *r = tree;
	if (!r || !src->text || !src->len || !fl_memmem(src->text, src->len, "def", 3))
		return;
	fl_toks t;
	fl_toks_init(&t, src);
	fl_rb_lex(&t);
	size_t *m = fl_tok_match_table(&t, FL_MATCH_RECOVER);
	bool classes = fl_rb_has_class_default(src->text, src->len);
	for (size_t i = 0; classes && i < t.n && r->cls->n < 65536; i++) {
		rbclass rc;
		if (!is_kw(&t, i, "class") || !fl_rb_class_default_at(&t, m, i, &rc))
			continue;
		/* params "": the message is the class's own whatever the
		 * constructor gets (super "...", def message); NULL: it is
		 * only the default of a message parameter */
		char *name = fl_tok_dup(&t, rc.name);
		bool own = strcmp(rc.idiom, "class constructor initialize") != 0;
		fl_classdefs_add_params(r->cls, name, rc.msg, NULL, 0, own ? fl_xstrdup("") : NULL);
		free(name);
	}
	collect_reporters(r, &t, m, src->path);
	free(m);
	fl_toks_free(&t);
}
