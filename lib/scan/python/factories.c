/*
 * factories.c — Python error factories across files (lib/scan/python/,
 * python.h): functions whose returns give an error (`return
 * DistributionNotFound("...")`, or another such function's value), kept
 * by the collect pass; a raise of their value (`raise error from e` with
 * `error = self.factory.get_installation_error(...)`, `raise
 * self._make_error(...)`) is a site per message they give.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "python.h"

/* ---- error factories across files ----------------------------------------------
 * pip's `error = self.factory.get_installation_error(e, constraints)` then
 * `raise error from e`, where get_installation_error ends in `return
 * DistributionNotFound("...")` or `return self._report_conflict(req)`
 * (whose own `return DistributionNotFound(f"No matching distribution found
 * for {req}")` holds the text): a function whose value is raised makes the
 * errors it returns.  collect() keeps, for each def of the tree, "fac:NAME":
 * what its returns give, one entry per `return`, FAC_SEP between them: a
 * message (`return Cls(<literal>)`, or a local variable assigned one once
 * before), written "Cls" FAC_CLS "message", or another function whose value
 * is returned (`return self._report(...)`), written FAC_REF "name".  A
 * message passed in (a parameter) is not the factory's own.  The raise of
 * such a call (py_fac_raise()) is a site per message, idiom "error factory
 * call". */
#define FAC_SEP '\x1f'
#define FAC_REF '\x1e'
#define FAC_CLS '\x1d'
#define FAC_MAX 8

/* A byte scan: `return Name(` with an upper-case Name, not None, True... */
bool py_has_factory(const char *s, size_t n)
{
	for (const char *p = s; (p = fl_memmem(p, (size_t)(s + n - p), "return ", 7)) != NULL;) {
		p += 7;
		if (p < s + n && *p >= 'A' && *p <= 'Z' && (size_t)(s + n - p) > 5 &&
		    memcmp(p, "None", 4) != 0 && memcmp(p, "True", 4) != 0 &&
		    memcmp(p, "False", 5) != 0 && memcmp(p, "NotImpl", 7) != 0)
			return true;
	}
	return false;
}

/* The end of the statement that starts at token b (the next token on a new
 * line, brackets skipped). */
static size_t stmt_end(const fl_toks *t, const size_t *m, size_t b)
{
	size_t e = b + 1;
	while (e < t->n && !(t->v[e].flags & FL_TF_NL_BEFORE) && !is_p(t, e, ';'))
		e = fl_tok_is_opener(t, e) && m[e] != NONE && m[e] > e ? m[e] + 1 : e + 1;
	return e > t->n ? t->n : e;
}

/* The message local variable v holds at `ret` in the body [body, ret): its
 * last assignment `v = <message>` at the start of a line, with no `v +=`
 * after it; NULL otherwise. */
static char *fac_var(const fl_toks *t, const size_t *m, size_t body, size_t ret, size_t v)
{
	size_t last = NONE;
	for (size_t k = body; k < ret; k++) {
		if (!(t->v[k].flags & FL_TF_NL_BEFORE) || t->v[k].kind != FL_TK_IDENT ||
		    t->v[k].len != t->v[v].len ||
		    memcmp(t->src + t->v[k].off, t->src + t->v[v].off, t->v[v].len) != 0)
			continue;
		if (is_p(t, k + 1, '='))
			last = k;
		else if (t->v[k + 1].kind == FL_TK_PUNCT && t->v[k + 1].len == 2 &&
			 t->src[t->v[k + 1].off + 1] == '=')
			last = NONE; /* augmented: built at run time */
	}
	if (last == NONE)
		return NULL;
	size_t b = last + 2, e = stmt_end(t, m, last + 1);
	return py_range_ok(t, b, e) ? py_msg(t, b, e, false) : NULL;
}

/* One `return` at r of a def's body [body, end): its entry appended to b. */
static void fac_return(const fl_toks *t, const size_t *m, size_t body, size_t r, fl_buf *b)
{
	size_t e = stmt_end(t, m, r), p = r + 1, last = p;
	if (p >= e || t->v[p].kind != FL_TK_IDENT)
		return;
	while (p + 2 < e && is_p(t, p + 1, '.') && t->v[p + 2].kind == FL_TK_IDENT)
		last = p += 2;
	if (!is_p(t, last + 1, '(') || m[last + 1] != e - 1)
		return;
	const char *s = t->src + t->v[last].off;
	size_t n = t->v[last].len;
	if (b->n)
		fl_buf_putc(b, FAC_SEP);
	if (!(s[0] >= 'A' && s[0] <= 'Z')) { /* another factory, maybe */
		fl_buf_putc(b, FAC_REF);
		fl_buf_put(b, s, n);
		return;
	}
	size_t st[MAXARGS], en[MAXARGS], close;
	size_t na = py_split_args(t, m, last + 1, st, en, MAXARGS, &close);
	char *msg = NULL;
	if (na != NONE && na >= 1 && !(en[0] > st[0] + 1 && is_p(t, st[0] + 1, '=')))
		msg = en[0] == st[0] + 1 && t->v[st[0]].kind == FL_TK_IDENT
			      ? fac_var(t, m, body, r, st[0])
		      : py_range_ok(t, st[0], en[0]) ? py_msg(t, st[0], en[0], false)
						  : NULL;
	if (msg && strchr(msg, ' ') && !strchr(msg, FAC_SEP)) {
		fl_buf_put(b, s, n);
		fl_buf_putc(b, FAC_CLS);
		fl_buf_puts(b, msg);
	} else {
		fl_buf_putc(b, FAC_REF); /* a placeholder: no message */
	}
	free(msg);
}

/* `def NAME(...):` at d (at the start of a line): "fac:NAME" in the tree
 * when a return of its body (not of a nested def) gives an error. */
void py_fac_collect(fl_classdefs *tr, const fl_toks *t, const size_t *m, size_t d)
{
	size_t nm = d + 1;
	if (nm + 1 >= t->n || t->v[nm].kind != FL_TK_IDENT || !is_p(t, nm + 1, '(') ||
	    m[nm + 1] == NONE)
		return;
	size_t k = m[nm + 1] + 1;
	while (k < t->n && !(t->v[k].flags & FL_TF_NL_BEFORE) && !is_p(t, k, ':'))
		k++;
	if (k + 1 >= t->n || !is_p(t, k, ':') || !(t->v[k + 1].flags & FL_TF_NL_BEFORE) ||
	    t->v[k + 1].col <= t->v[d].col)
		return;
	int dcol = t->v[d].col, skip = -1; /* a nested def's column */
	size_t body = k + 1;
	fl_buf b = {0};
	bool any = false;
	for (k = body; k < t->n && k - body < 20000;) {
		const fl_tok *tk = &t->v[k];
		bool nl = tk->flags & FL_TF_NL_BEFORE;
		if (nl && tk->col <= dcol)
			break;
		if (nl && skip >= 0 && tk->col <= skip)
			skip = -1;
		if (nl && skip < 0 && (fl_tok_is_ident(t, k, "def") || fl_tok_is_ident(t, k, "class")))
			skip = tk->col;
		else if (nl && skip < 0 && fl_tok_is_ident(t, k, "return")) {
			size_t before = b.n;
			fac_return(t, m, body, k, &b);
			any = any || (b.n > before && memchr(b.s + before, FAC_CLS, b.n - before));
		}
		k = fl_tok_is_opener(t, k) && m[k] != NONE && m[k] > k ? m[k] + 1 : k + 1;
	}
	if (any) {
		char *key = fl_xasprintf("fac:%.*s", (int)t->v[nm].len, t->src + t->v[nm].off);
		fl_classdefs_add(tr, key, fl_xstrdup(fl_buf_cstr(&b)), NULL, 0);
		free(key);
	}
	fl_buf_free(&b);
}

typedef struct facmsgs {
	char *msg[FAC_MAX], *cls[FAC_MAX];
	size_t n;
} facmsgs;

/* The messages factory name[0..n) gives, through the functions it returns
 * the value of (depth levels more), added to f. */
static void fac_resolve(const walker *w, const char *name, size_t n, int depth,
			facmsgs *f)
{
	char *key = fl_xasprintf("fac:%.*s", (int)n, name);
	const char *dm, *dc;
	int ds;
	bool found = py_tree_find(w, key, &dm, &dc, &ds) && dm;
	free(key);
	if (!found)
		return;
	for (const char *p = dm; *p && f->n < FAC_MAX;) {
		const char *q = strchr(p, FAC_SEP);
		size_t l = q ? (size_t)(q - p) : strlen(p);
		const char *c = memchr(p, FAC_CLS, l);
		if (*p == FAC_REF && l > 1 && depth > 0) {
			fac_resolve(w, p + 1, l - 1, depth - 1, f);
		} else if (c) {
			char *m = fl_xstrndup(c + 1, (size_t)(p + l - c - 1));
			bool dup = false;
			for (size_t k = 0; k < f->n && !dup; k++)
				dup = strcmp(f->msg[k], m) == 0;
			if (dup) {
				free(m);
			} else {
				f->cls[f->n] = fl_xstrndup(p, (size_t)(c - p));
				f->msg[f->n++] = m;
			}
		}
		if (!q)
			break;
		p = q + 1;
	}
}

/* The callee of the call that local variable v (token) holds at `at`: its
 * last assignment in the enclosing def, `v = [a.b.]name(...)` as a whole
 * statement, the call [*cb, *ce); NONE otherwise. */
static size_t fac_var_call(const walker *w, size_t at, size_t v, size_t *cb, size_t *ce)
{
	const fl_toks *t = w->t;
	size_t d = py_innermost(w, B_DEF), from, call = NONE;
	if (d == NONE || w->blk[d].name == NONE)
		return NONE;
	from = w->blk[d].name;
	for (size_t k = from; k < at && k - from < 20000; k++) {
		if (!(t->v[k].flags & FL_TF_NL_BEFORE) || t->v[k].kind != FL_TK_IDENT ||
		    t->v[k].len != t->v[v].len ||
		    memcmp(t->src + t->v[k].off, t->src + t->v[v].off, t->v[v].len) != 0)
			continue;
		if (!is_p(t, k + 1, '='))
			continue;
		size_t e = stmt_end(t, w->m, k + 1), p = k + 2;
		call = NONE;
		if (p >= e || t->v[p].kind != FL_TK_IDENT)
			continue;
		while (p + 2 < e && is_p(t, p + 1, '.') && t->v[p + 2].kind == FL_TK_IDENT)
			p += 2;
		if (is_p(t, p + 1, '(') && w->m[p + 1] == e - 1) {
			call = p;
			*cb = k + 2;
			*ce = e;
		}
	}
	return call;
}

bool py_var_ctor(const walker *w, size_t at, size_t v, size_t *b, size_t *e)
{
	size_t c = fac_var_call(w, at, v, b, e);
	return c != NONE && w->t->src[w->t->v[c].off] >= 'A' && w->t->src[w->t->v[c].off] <= 'Z';
}

/* `raise error [from e]` with error = factory(...), `raise
 * self._make_error(...)` [j, e) without a message of its own: a site per
 * message the factory gives.  True when it made any. */
bool py_fac_raise(walker *w, size_t i, size_t j, size_t e)
{
	const fl_toks *t = w->t;
	size_t callee = NONE;
	if (e == j + 1 && t->v[j].kind == FL_TK_IDENT) {
		size_t cb, ce;
		callee = fac_var_call(w, i, j, &cb, &ce);
	} else {
		size_t p = j;
		while (p + 2 < e && is_p(t, p + 1, '.') && t->v[p + 2].kind == FL_TK_IDENT)
			p += 2;
		if (t->v[p].kind == FL_TK_IDENT && is_p(t, p + 1, '(') && w->m[p + 1] == e - 1)
			callee = p;
	}
	if (callee == NONE)
		return false;
	const char *s = t->src + t->v[callee].off;
	if (s[0] >= 'A' && s[0] <= 'Z')
		return false; /* a class */
	facmsgs f = {0};
	fac_resolve(w, s, t->v[callee].len, 3, &f);
	for (size_t k = 0; k < f.n; k++) {
		py_emit1(w, i, f.msg[k], NULL, f.cls[k], FL_T_EXCEPTION, FL_S_ERROR, 0,
			 "error factory call");
		free(f.msg[k]);
		free(f.cls[k]);
	}
	return f.n > 0;
}
