/*
 * tmpl.c — error types' templates (see go.h)
 *
 * An error type's Error() method often assembles its text from the
 * value's fields:
 *
 *     func (e LangError) Error() string {
 *             var buf bytes.Buffer
 *             buf.WriteString(e.Pos.String() + ": ")
 *             buf.WriteString(e.Feature)
 *             if strings.HasSuffix(e.Feature, "s") {
 *                     buf.WriteString(" are a ")
 *             } else { ... }
 *             ...
 *     }
 *
 * or `return fmt.Sprintf("%s: %s", e.Op, e.Msg)`.  The text a user sees is
 * decided where the value is made: `LangError{Feature: "arrays", ...}`, or
 * a call of a function that makes it from a parameter of its own
 * (`p.langErr(pos, "arrays", ...)`).  The collect pass reads each such
 * method into a template (literal parts, fields, conditions on fields,
 * placeholders for the rest); the scan renders it where a value is made
 * with literal fields, or where such a function is called with a literal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "go.h"

#define GT_MAX_NODES 96

static void tm_add(gotmpl *tp, int kind, char *s, char *arg)
{
	if (tp->n == tp->cap) {
		tp->cap = tp->cap ? tp->cap * 2 : 16;
		tp->v = fl_xrealloc(tp->v, tp->cap * sizeof *tp->v);
	}
	gtnode *x = &tp->v[tp->n++];
	memset(x, 0, sizeof *x);
	x->kind = (uint8_t)kind;
	x->s = s;
	x->arg = arg;
}

static void tm_lit(gotmpl *tp, const char *s, size_t n)
{
	if (!n)
		return;
	/* joined to a literal just before it */
	if (tp->n > tp->fence && tp->v[tp->n - 1].kind == GT_LIT) {
		gtnode *x = &tp->v[tp->n - 1];
		size_t l = strlen(x->s);
		x->s = fl_xrealloc(x->s, l + n + 1);
		memcpy(x->s + l, s, n);
		x->s[l + n] = '\0';
		return;
	}
	tm_add(tp, GT_LIT, fl_xstrndup(s, n), NULL);
}

void go_tmpl_free(gotmpl *tp)
{
	for (size_t k = 0; k < tp->n; k++) {
		free(tp->v[k].s);
		free(tp->v[k].arg);
	}
	free(tp->v);
	free(tp->type);
	free(tp->dir);
}

/* ---- reading an Error() method ------------------------------------------------ */

typedef struct {
	const fl_toks *t;
	const size_t *m;
	size_t recv;  /* the receiver's name token */
	gotmpl *tp;
	bool done;    /* a return was read */
} tmrd;

/* `r.F` at [b, e) (or `r.F.String()`, `r.F.Error()`, `string(r.F)`): the
 * field's token, or NONE */
static size_t tm_field(const tmrd *r, size_t b, size_t e)
{
	const fl_toks *t = r->t;
	if (e == b + 6 && fl_tok_is_ident(t, b, "string") && fl_tok_pch(t, b + 1) == '(')
		return tm_field(r, b + 2, b + 5);
	if (e < b + 3 || !go_same_tok(t, b, r->recv) || fl_tok_pch(t, b + 1) != '.' ||
	    t->v[b + 2].kind != FL_TK_IDENT)
		return NONE;
	if (e == b + 3)
		return b + 2;
	if (e == b + 7 && fl_tok_pch(t, b + 3) == '.' &&
	    (fl_tok_is_ident(t, b + 4, "String") || fl_tok_is_ident(t, b + 4, "Error")) &&
	    fl_tok_pch(t, b + 5) == '(' && fl_tok_pch(t, b + 6) == ')')
		return b + 2;
	return NONE;
}

/* a placeholder for the expression [b, e): `{name}` of its last
 * identifier (records.md), String and Error calls left out */
static void tm_ph(tmrd *r, size_t b, size_t e)
{
	const fl_toks *t = r->t;
	size_t nm = NONE;
	for (size_t k = b; k < e; k++)
		if (t->v[k].kind == FL_TK_IDENT && !fl_tok_is(t, k, "String") && !fl_tok_is(t, k, "Error"))
			nm = k;
	char *s = nm != NONE ? fl_xasprintf("{%.*s}", (int)t->v[nm].len, t->src + t->v[nm].off)
			     : fl_xstrdup("{}");
	tm_add(r->tp, GT_PH, s, NULL);
}

static void tm_fieldnode(tmrd *r, size_t f, bool quote, char *unknown)
{
	tm_add(r->tp, GT_FIELD, fl_tok_dup(r->t, f), unknown);
	r->tp->v[r->tp->n - 1].quote = quote;
}

/* a format literal at f and its arguments [sb[1..na)): literal parts,
 * fields, the other verbs as written */
static bool tm_format(tmrd *r, size_t f, const size_t *sb, const size_t *se, size_t na, size_t first)
{
	const fl_toks *t = r->t;
	if (t->v[f].kind != FL_TK_STRING)
		return false;
	const char *s = fl_tok_str(t, &t->v[f]);
	size_t n = t->v[f].slen, lit = 0, arg = first;
	for (size_t k = 0; k < n; k++) {
		if (s[k] != '%')
			continue;
		tm_lit(r->tp, s + lit, k - lit);
		if (k + 1 < n && s[k + 1] == '%') {
			tm_lit(r->tp, "%", 1);
			lit = ++k + 1;
			continue;
		}
		size_t q = k + 1;
		while (q < n && strchr("+-# 0123456789.", s[q]))
			q++;
		if (q >= n || s[q] == '[' || s[q] == '*')
			return false;
		size_t fld = arg < na ? tm_field(r, sb[arg], se[arg]) : NONE;
		if (fld != NONE && q == k + 1 && strchr("svq", s[q]))
			tm_fieldnode(r, fld, s[q] == 'q', fl_xstrndup(s + k, q + 1 - k));
		else
			tm_lit(r->tp, s + k, q + 1 - k); /* the placeholder as written */
		arg++;
		lit = q + 1;
		k = q;
	}
	tm_lit(r->tp, s + lit, n - lit);
	return true;
}

/* the operands of [b, e) joined by '+' */
static bool tm_expr(tmrd *r, size_t b, size_t e)
{
	const fl_toks *t = r->t;
	const size_t *m = r->m;
	for (size_t k = b; k < e;) {
		size_t ob = k;
		while (k < e && !(fl_tok_is(t, k, "+") && t->v[k].kind == FL_TK_PUNCT)) {
			if (fl_tok_is_opener(t, k) && m[k] != NONE && m[k] > k && m[k] < e)
				k = m[k];
			k++;
		}
		size_t oe = k;
		if (oe == ob)
			return false;
		size_t fld;
		if (oe == ob + 1 && t->v[ob].kind == FL_TK_STRING) {
			tm_lit(r->tp, fl_tok_str(t, &t->v[ob]), t->v[ob].slen);
		} else if (oe == ob + 1 && t->v[ob].kind == FL_TK_CHAR && t->v[ob].len == 3) {
			tm_lit(r->tp, t->src + t->v[ob].off + 1, 1);
		} else if ((fld = tm_field(r, ob, oe)) != NONE) {
			tm_fieldnode(r, fld, false, fl_xasprintf("{%.*s}", (int)t->v[fld].len,
								   t->src + t->v[fld].off));
		} else if (is_qcall(t, ob, "fmt", "Sprintf") && m[ob + 3] != NONE && m[ob + 3] + 1 == oe) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			size_t na = go_args(t, m, ob + 3, sb, se);
			if (!na || se[0] != sb[0] + 1 || !tm_format(r, sb[0], sb, se, na, 1))
				return false;
		} else {
			tm_ph(r, ob, oe);
		}
		if (r->tp->n > GT_MAX_NODES)
			return false;
		k++; /* the '+' */
	}
	return true;
}

/* the end of the simple statement starting at k: the next token at its
 * level on a new line or a ';', or the block's end */
static size_t tm_stmt_end(const tmrd *r, size_t k, size_t e)
{
	const fl_toks *t = r->t;
	for (size_t q = k; q < e; q++) {
		if (q > k && ((t->v[q].flags & FL_TF_NL_BEFORE) || fl_tok_pch(t, q - 1) == ';'))
			return q;
		if (fl_tok_is_opener(t, q) && r->m[q] != NONE && r->m[q] > q)
			q = r->m[q];
	}
	return e;
}

/* a condition [b, e) on a field: GC_* into the node at x */
static void tm_cond(tmrd *r, size_t b, size_t e, gtnode *x)
{
	const fl_toks *t = r->t;
	x->cond = GC_UNKNOWN;
	bool neg = false;
	if (b < e && fl_tok_is(t, b, "!")) {
		neg = true;
		b++;
	}
	size_t f;
	if ((f = tm_field(r, b, e)) != NONE) { /* a bool field */
		x->cond = neg ? GC_UNSET : GC_SET;
	} else if (neg) {
		return;
	} else if ((is_qcall(t, b, "strings", "HasSuffix") || is_qcall(t, b, "strings", "HasPrefix")) &&
		   r->m[b + 3] != NONE && r->m[b + 3] + 1 == e) {
		size_t sb[MAX_ARGS], se[MAX_ARGS];
		if (go_args(t, r->m, b + 3, sb, se) != 2 || se[1] != sb[1] + 1 ||
		    t->v[sb[1]].kind != FL_TK_STRING || (f = tm_field(r, sb[0], se[0])) == NONE)
			return;
		x->cond = fl_tok_is(t, b + 2, "HasSuffix") ? GC_SUFFIX : GC_PREFIX;
		x->arg = fl_xstrndup(fl_tok_str(t, &t->v[sb[1]]), t->v[sb[1]].slen);
	} else {
		/* r.F OP V, len(r.F) OP V */
		size_t op = NONE;
		for (size_t k = b; k < e; k++) {
			if (fl_tok_is_opener(t, k) && r->m[k] != NONE && r->m[k] > k)
				k = r->m[k];
			else if (t->v[k].kind == FL_TK_PUNCT &&
				 (fl_tok_is(t, k, "==") || fl_tok_is(t, k, "!=") || fl_tok_is(t, k, ">")))
				op = op == NONE ? k : e; /* one comparison only */
		}
		if (op == NONE || op >= e || op + 2 != e)
			return;
		bool ln = fl_tok_is_ident(t, b, "len") && fl_tok_pch(t, b + 1) == '(' && r->m[b + 1] + 1 == op;
		f = ln ? tm_field(r, b + 2, op - 1) : tm_field(r, b, op);
		if (f == NONE)
			return;
		size_t v = op + 1;
		bool eq = fl_tok_is(t, op, "==");
		if (t->v[v].kind == FL_TK_STRING && t->v[v].slen == 0)
			x->cond = eq ? GC_UNSET : GC_SET;
		else if (fl_tok_is_ident(t, v, "nil") || fl_tok_is(t, v, "0"))
			x->cond = eq ? GC_UNSET : GC_SET;
		else if (t->v[v].kind == FL_TK_STRING && !fl_tok_is(t, op, ">")) {
			x->cond = eq ? GC_EQ : GC_NE;
			x->arg = fl_xstrndup(fl_tok_str(t, &t->v[v]), t->v[v].slen);
		} else {
			return;
		}
	}
	x->s = fl_tok_dup(t, f);
}

static bool tm_block(tmrd *r, size_t b, size_t e);

/* `if COND { ... } [else ...]` at k; *next gets what follows */
static bool tm_if(tmrd *r, size_t k, size_t e, size_t *next)
{
	const fl_toks *t = r->t;
	size_t ob = NONE;
	for (size_t q = k + 1; q < e; q++) {
		if (fl_tok_pch(t, q) == '{') {
			ob = q;
			break;
		}
		if (fl_tok_pch(t, q) == ';')
			return false; /* if x := ...; cond */
		if (fl_tok_is_opener(t, q) && r->m[q] != NONE && r->m[q] > q)
			q = r->m[q];
	}
	if (ob == NONE || r->m[ob] == NONE || r->m[ob] >= e)
		return false;
	size_t at = r->tp->n;
	tm_add(r->tp, GT_IF, NULL, NULL);
	tm_cond(r, k + 1, ob, &r->tp->v[at]);
	size_t n0 = r->tp->n;
	r->tp->fence = n0;
	if (!tm_block(r, ob + 1, r->m[ob]) || r->done)
		return false;
	r->tp->v[at].nthen = (uint32_t)(r->tp->n - n0);
	size_t q = r->m[ob] + 1;
	if (q < e && fl_tok_is_ident(t, q, "else")) {
		size_t n1 = r->tp->n;
		r->tp->fence = n1;
		if (fl_tok_is_ident(t, q + 1, "if")) {
			if (!tm_if(r, q + 1, e, next))
				return false;
		} else if (fl_tok_pch(t, q + 1) == '{' && r->m[q + 1] != NONE && r->m[q + 1] < e) {
			if (!tm_block(r, q + 2, r->m[q + 1]) || r->done)
				return false;
			*next = r->m[q + 1] + 1;
		} else {
			return false;
		}
		r->tp->v[at].nelse = (uint32_t)(r->tp->n - n1);
		r->tp->fence = r->tp->n;
		return true;
	}
	*next = q;
	r->tp->fence = r->tp->n;
	return true;
}

/* the statements of [b, e) */
static bool tm_block(tmrd *r, size_t b, size_t e)
{
	const fl_toks *t = r->t;
	const size_t *m = r->m;
	for (size_t k = b; k < e && !r->done;) {
		if (fl_tok_pch(t, k) == ';') {
			k++;
			continue;
		}
		if (r->tp->n > GT_MAX_NODES)
			return false;
		size_t se = tm_stmt_end(r, k, e);
		if (fl_tok_is_ident(t, k, "var") ||
		    (t->v[k].kind == FL_TK_IDENT && fl_tok_is(t, k + 1, ":="))) {
			k = se; /* the buffer's declaration, a local */
			continue;
		}
		if (fl_tok_is_ident(t, k, "if")) {
			size_t nx;
			if (!tm_if(r, k, e, &nx))
				return false;
			k = nx;
			continue;
		}
		if (fl_tok_is_ident(t, k, "for")) {
			size_t ob = NONE;
			for (size_t q = k + 1; q < e && ob == NONE; q++)
				if (fl_tok_pch(t, q) == '{')
					ob = q;
				else if (fl_tok_is_opener(t, q) && m[q] != NONE && m[q] > q)
					q = m[q];
			if (ob == NONE || m[ob] == NONE || m[ob] >= e)
				return false;
			tm_ph(r, k + 1, ob); /* what it goes over */
			k = m[ob] + 1;
			continue;
		}
		if (fl_tok_is_ident(t, k, "return")) {
			r->done = true;
			/* return buf.String() */
			if (se == k + 6 && t->v[k + 1].kind == FL_TK_IDENT && fl_tok_pch(t, k + 2) == '.' &&
			    fl_tok_is_ident(t, k + 3, "String") && fl_tok_pch(t, k + 4) == '(' &&
			    fl_tok_pch(t, k + 5) == ')')
				return true;
			return se > k + 1 && tm_expr(r, k + 1, se);
		}
		/* buf.WriteString(x), buf.WriteByte('c'), fmt.Fprintf(&buf, ...) */
		if (t->v[k].kind == FL_TK_IDENT && fl_tok_pch(t, k + 1) == '.' && t->v[k + 2].kind == FL_TK_IDENT &&
		    fl_tok_pch(t, k + 3) == '(' && m[k + 3] != NONE && m[k + 3] + 1 == se) {
			size_t sb[MAX_ARGS], sx[MAX_ARGS];
			size_t na = go_args(t, m, k + 3, sb, sx);
			if (fl_tok_is(t, k, "fmt") && na >= 2 && fl_tok_pch(t, sb[0]) == '&' &&
			    (fl_tok_is(t, k + 2, "Fprintf") || fl_tok_is(t, k + 2, "Fprint"))) {
				if (fl_tok_is(t, k + 2, "Fprintf") ? !(sx[1] == sb[1] + 1 && tm_format(r, sb[1], sb, sx, na, 2))
								: !tm_expr(r, sb[1], sx[na - 1]))
					return false;
			} else if (!go_same_tok(t, k, r->recv) && na == 1 &&
				   (fl_tok_is(t, k + 2, "WriteString") || fl_tok_is(t, k + 2, "WriteByte") ||
				    fl_tok_is(t, k + 2, "WriteRune"))) {
				if (!tm_expr(r, sb[0], sx[0]))
					return false;
			} else {
				return false;
			}
			k = se;
			continue;
		}
		return false;
	}
	return true;
}

/* `func (r T) Error() string {` at func token i: its template (added to
 * g) */
void go_tmpl_collect(gotree *g, const fl_toks *t, const size_t *m, size_t i, const char *dir)
{
	if (fl_tok_pch(t, i + 1) != '(' || m[i + 1] == NONE)
		return;
	size_t rc = m[i + 1];
	if (!fl_tok_is_ident(t, rc + 1, "Error") || fl_tok_pch(t, rc + 2) != '(' || fl_tok_pch(t, rc + 3) != ')' ||
	    !fl_tok_is_ident(t, rc + 4, "string") || fl_tok_pch(t, rc + 5) != '{' || m[rc + 5] == NONE)
		return;
	/* (r T), (r *T) */
	size_t k = i + 2;
	if (t->v[k].kind != FL_TK_IDENT)
		return;
	size_t recv = k++;
	if (fl_tok_pch(t, k) == '*')
		k++;
	if (t->v[k].kind != FL_TK_IDENT || !(k + 1 == rc || fl_tok_pch(t, k + 1) == '['))
		return;
	gotmpl tp = {0};
	tmrd r = {.t = t, .m = m, .recv = recv, .tp = &tp};
	bool fields = false;
	if (tm_block(&r, rc + 6, m[rc + 5]) && r.done)
		for (size_t q = 0; q < tp.n && !fields; q++)
			fields = tp.v[q].kind == GT_FIELD || (tp.v[q].kind == GT_IF && tp.v[q].s);
	if (!fields) {
		tp.type = tp.dir = NULL;
		go_tmpl_free(&tp);
		return;
	}
	tp.type = fl_tok_dup(t, k);
	tp.dir = fl_xstrdup(dir);
	go_tmpl_add(g, &tp);
}

/* ---- rendering ---------------------------------------------------------------- */

static const gtval *tm_val(const gtval *v, size_t nv, const char *name)
{
	for (size_t k = 0; k < nv; k++)
		if (strlen(name) == v[k].nl && memcmp(name, v[k].name, v[k].nl) == 0)
			return &v[k];
	return NULL;
}

static bool tm_holds(const gtnode *x, const gtval *v)
{
	int st = v ? v->st : GV_ZERO;
	const char *s = st == GV_LIT ? v->text : "";
	size_t n = strlen(s), a = x->arg ? strlen(x->arg) : 0;
	switch (x->cond) {
	case GC_SET:
		return st == GV_UNKNOWN || n > 0;
	case GC_UNSET:
		return st != GV_UNKNOWN && n == 0;
	case GC_SUFFIX:
		return st == GV_UNKNOWN || (n >= a && memcmp(s + n - a, x->arg, a) == 0);
	case GC_PREFIX:
		return st == GV_UNKNOWN || (n >= a && memcmp(s, x->arg, a) == 0);
	case GC_EQ:
		return st != GV_UNKNOWN && strcmp(s, x->arg) == 0;
	case GC_NE:
		return st == GV_UNKNOWN || strcmp(s, x->arg) != 0;
	default:
		return true; /* a condition not read: its first branch */
	}
}

static void tm_render(const gotmpl *tp, size_t b, size_t e, const gtval *v, size_t nv, fl_buf *o,
		      bool *filled)
{
	for (size_t k = b; k < e; k++) {
		const gtnode *x = &tp->v[k];
		if (x->kind == GT_LIT || x->kind == GT_PH) {
			fl_buf_puts(o, x->s);
		} else if (x->kind == GT_FIELD) {
			const gtval *f = tm_val(v, nv, x->s);
			if (f && f->st == GV_LIT) {
				fl_buf_puts(o, x->quote ? "\"" : "");
				fl_buf_puts(o, f->text);
				fl_buf_puts(o, x->quote ? "\"" : "");
				*filled = true;
			} else if (!f || f->st == GV_UNKNOWN) {
				fl_buf_puts(o, x->arg);
			}
		} else { /* GT_IF */
			bool h = tm_holds(x, x->s ? tm_val(v, nv, x->s) : NULL);
			size_t tb = k + 1, te = tb + x->nthen;
			if (h)
				tm_render(tp, tb, te, v, nv, o, filled);
			else
				tm_render(tp, te, te + x->nelse, v, nv, o, filled);
			k = te + x->nelse - 1;
		}
	}
}

char *go_tmpl_render(const gotmpl *tp, const gtval *v, size_t nv, bool *filled)
{
	fl_buf o = {0};
	*filled = false;
	tm_render(tp, 0, tp->n, v, nv, &o, filled);
	char *s = fl_xstrdup(fl_buf_cstr(&o));
	fl_buf_free(&o);
	return s;
}

/* ---- the tree's templates ----------------------------------------------------- */

void go_tmpl_add(gotree *g, gotmpl *tp)
{
	if (g->tn == g->tcap) {
		g->tcap = g->tcap ? g->tcap * 2 : 16;
		g->tv = fl_xrealloc(g->tv, g->tcap * sizeof *g->tv);
	}
	size_t prev;
	tp->next = fl_strmap_get(&g->tidx, tp->type, &prev) ? prev : NONE;
	fl_strmap_put(&g->tidx, tp->type, g->tn);
	g->tv[g->tn++] = *tp;
}

const gotmpl *go_tmpl_find(const gotree *g, const char *type, const char *dir, const char *q, size_t ql)
{
	size_t k0;
	if (!g || !g->tn || !fl_strmap_get(&g->tidx, type, &k0))
		return NULL;
	for (size_t k = k0; k != NONE; k = g->tv[k].next) {
		const gotmpl *tp = &g->tv[k];
		if (q ? go_dir_is(tp->dir, q, ql) : strcmp(tp->dir, dir) == 0)
			return tp;
	}
	return NULL;
}

/* ---- where a value is made ---------------------------------------------------- */

/* the value of a field [b, e): literal text (a literal, literals joined,
 * a string constant of the file) or unknown */
static void tm_value(const go_kcs *kc, const fl_toks *t, size_t b, size_t e, gtval *v, fl_buf *tmp)
{
	size_t kl;
	const char *k = go_kconst(kc, t, b, e, &kl);
	v->st = GV_UNKNOWN;
	if (k) {
		v->text = fl_xstrndup(k, kl);
		v->st = GV_LIT;
		return;
	}
	fl_buf_reset(tmp);
	for (size_t q = b; q < e; q++) {
		if (q > b && !(fl_tok_is(t, q, "+") && ++q < e))
			return;
		if (t->v[q].kind != FL_TK_STRING)
			return;
		fl_buf_put(tmp, fl_tok_str(t, &t->v[q]), t->v[q].slen);
	}
	v->text = fl_xstrdup(fl_buf_cstr(tmp));
	v->st = GV_LIT;
}

size_t go_tmpl_fields(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t open, gtval *v,
		      size_t max)
{
	size_t sb[16], se[16];
	size_t na = fl_tok_split_args(t, m, open, sb, se, 16, NULL, 0), n = 0;
	fl_buf tmp = {0};
	for (size_t a = 0; a < na && n < max; a++) {
		if (se[a] < sb[a] + 3 || t->v[sb[a]].kind != FL_TK_IDENT || fl_tok_pch(t, sb[a] + 1) != ':')
			continue;
		gtval *x = &v[n++];
		memset(x, 0, sizeof *x);
		x->name = t->src + t->v[sb[a]].off;
		x->nl = t->v[sb[a]].len;
		x->tok = sb[a] + 2;
		tm_value(kc, t, sb[a] + 2, se[a], x, &tmp);
	}
	fl_buf_free(&tmp);
	return n;
}

void go_tmpl_vals_free(gtval *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(v[k].text);
}
