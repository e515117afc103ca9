/*
 * compose.c — C messages composed before they are reported: formatters
 * and variadic reporters known by their definitions (the collect pass),
 * error values made from a message (`jv_invalid_with_msg(jv_string_fmt(
 * "Cannot index %s with %s", ...))`), string constructors and
 * concatenations, local variables holding a message, functions of the
 * file returning a message they format, and the file's helpers that
 * compose a message around a parameter their call sites fill
 * (`type_error(bad, "has no keys")` prints "%s (%s) has no keys").
 * SQL statements a program formats are not messages.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

#define MAXA 16

/* ---- names ------------------------------------------------------------------ */

/* The words of a name (split on '_' and at camelCase humps), one at a time:
 * *i is where to look next; false at the end. */
static bool next_word(const char *s, size_t n, size_t *i, const char **w, size_t *l)
{
	size_t k = *i;
	while (k < n && s[k] == '_')
		k++;
	size_t b = k;
	while (k < n && s[k] != '_' &&
	       !(k > b && s[k] >= 'A' && s[k] <= 'Z' && s[k - 1] >= 'a' && s[k - 1] <= 'z'))
		k++;
	*i = k;
	*w = s + b;
	*l = k - b;
	return k > b;
}

static bool has_word(const char *s, size_t n, const char *word)
{
	const char *w;
	size_t l, i = 0;
	while (next_word(s, n, &i, &w, &l))
		if (ieq(w, l, word))
			return true;
	return false;
}

static bool first_word_is(const char *s, size_t n, const char *word)
{
	const char *w;
	size_t l, i = 0;
	return next_word(s, n, &i, &w, &l) && ieq(w, l, word);
}

static bool last_word_is(const char *s, size_t n, const char *word)
{
	const char *w = NULL, *x;
	size_t l = 0, xl, i = 0;
	while (next_word(s, n, &i, &x, &xl)) {
		w = x;
		l = xl;
	}
	return w && ieq(w, l, word);
}

/* "invalid" in s, in any case: a byte scan before the words are split */
static bool has_invalid(const char *s, size_t n)
{
	for (size_t k = 0; k + 7 <= n; k++)
		if ((s[k] | 0x20) == 'i' && ieq(s + k, 7, "invalid"))
			return true;
	return false;
}

bool c_errval_name(const char *s, size_t n)
{
	if (!has_invalid(s, n))
		return false;
	if (first_word_is(s, n, "is") || first_word_is(s, n, "get") || first_word_is(s, n, "has"))
		return false;
	return has_word(s, n, "invalid") &&
	       (has_word(s, n, "msg") || has_word(s, n, "message") || has_word(s, n, "errmsg"));
}

/* the name of a variable that holds a message */
static bool msg_var_name(const char *s, size_t n)
{
	return has_word(s, n, "msg") || has_word(s, n, "message") || has_word(s, n, "errmsg") ||
	       has_word(s, n, "reason") || has_word(s, n, "err") || has_word(s, n, "error");
}

/* a constructor of a string value from a C string: jv_string("..."),
 * json_string("..."), PyUnicode_FromString("...") */
static bool string_ctor(const char *s, size_t n)
{
	return n > 6 && (last_word_is(s, n, "string") || last_word_is(s, n, "str")) &&
	       !first_word_is(s, n, "is") && !first_word_is(s, n, "get");
}

static bool printf_named(const char *s, size_t n)
{
	return fl_memmem(s, n, "printf", 6) != NULL;
}

static const rep *tree_rep(const ctx *c, size_t i)
{
	return c_tree_find(c->tree, c->t->src + c->t->v[i].off, c->t->v[i].len);
}

static int letters(const char *s)
{
	int n = 0;
	for (; *s; s++) {
		if (*s == '%' && s[1]) {
			s++; /* a conversion's letter is no text */
			continue;
		}
		n += (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z');
	}
	return n;
}

/* ---- messages built in an argument --------------------------------------------- */

/* The text of [b, e) when it is only string literals, maybe in a wrapper
 * (`_("...")`) or a string constructor (`jv_string("Regex failure: ")`):
 * as written, untrimmed, %% kept; else NULL. */
static char *raw_text(const ctx *c, size_t b, size_t e)
{
	const fl_toks *t = c->t;
	if (e >= b + 3 && t->v[b].kind == FL_TK_IDENT && tk_p1(t, b + 1, '(') && c->mt[b + 1] == e - 1) {
		b += 2;
		e -= 1;
	}
	if (b >= e)
		return NULL;
	fl_buf out = {0};
	for (size_t k = b; k < e; k++) {
		if (t->v[k].kind != FL_TK_STRING) {
			fl_buf_free(&out);
			return NULL;
		}
		fl_buf_put(&out, fl_tok_str(t, &t->v[k]), t->v[k].slen);
	}
	fl_buf_cstr(&out);
	return out.s;
}

static char *msg_expr(const ctx *c, size_t b, size_t e, int depth, bool lit_vars);
static bool sql_text(const char *m);
static bool returned_text(const ctx *c, size_t name, size_t *b, size_t *e);

/* The tokens [b, e) are one call NAME(...): its '(' */
static size_t one_call(const ctx *c, size_t b, size_t e)
{
	const fl_toks *t = c->t;
	if (e < b + 3 || t->v[b].kind != FL_TK_IDENT || !tk_p1(t, b + 1, '(') ||
	    c->mt[b + 1] != e - 1)
		return NONE;
	return b + 1;
}

/* The statement `NAME = expr;` (or a declaration `T NAME = expr;`) last
 * before token at, in the same function: the bounds of expr. */
/* The statements `NAME = expr;` (or declarations `T NAME = expr;`)
 * before token at (NAME), in the same function, the nearest first: the
 * bounds of each expr, at most max; how many. */
static int assignments(const ctx *c, size_t at, size_t *xb, size_t *xe, int max)
{
	const fl_toks *t = c->t;
	int depth = 0, n = 0;
	for (size_t k = at, lim = 0; k-- > 0 && lim < 3000; lim++) {
		if (t->v[k].flags & TF_DIR)
			continue;
		if (tk_p1(t, k, '}')) {
			depth++;
		} else if (tk_p1(t, k, '{')) {
			if (--depth < 0) {
				/* the function's body starts here */
				if (k > 0 && tk_p1(t, k - 1, ')') && c->mt[k - 1] != NONE &&
				    c->mt[k - 1] > 0 &&
				    t->v[c->mt[k - 1] - 1].kind == FL_TK_IDENT &&
				    !tk_id(t, c->mt[k - 1] - 1, "if") &&
				    !tk_id(t, c->mt[k - 1] - 1, "while") &&
				    !tk_id(t, c->mt[k - 1] - 1, "for") &&
				    !tk_id(t, c->mt[k - 1] - 1, "switch"))
					return n;
				depth = 0;
			}
		} else if (tk_p1(t, k, '=') && k >= 2 && t->v[k - 1].kind == FL_TK_IDENT &&
			   t->v[k - 1].len == t->v[at].len &&
			   memcmp(t->src + t->v[k - 1].off, t->src + t->v[at].off, t->v[at].len) == 0 &&
			   (tk_p1(t, k - 2, ';') || tk_p1(t, k - 2, '{') || tk_p1(t, k - 2, '}') ||
			    tk_p1(t, k - 2, '*') || tk_p1(t, k - 2, ')') ||
			    t->v[k - 2].kind == FL_TK_IDENT)) {
			size_t e = k + 1;
			while (e < at && !tk_p1(t, e, ';') && !tk_p1(t, e, ',')) {
				if (is_open(t, e) && c->mt[e] != NONE && c->mt[e] > e)
					e = c->mt[e];
				e++;
			}
			if (e >= at || e == k + 1)
				return n;
			xb[n] = k + 1;
			xe[n] = e;
			if (++n == max)
				return n;
		}
	}
	return n;
}

static bool last_assignment(const ctx *c, size_t at, size_t *xb, size_t *xe)
{
	return assignments(c, at, xb, xe, 1) == 1;
}

static char *call_msg(const ctx *c, size_t b, size_t e, int depth)
{
	const fl_toks *t = c->t;
	size_t op = one_call(c, b, e);
	if (op == NONE)
		return NULL;
	const char *s = t->src + t->v[b].off;
	size_t n = t->v[b].len;
	size_t st[MAXA], en[MAXA];
	int na = c_split_args(c, op, st, en, MAXA);
	if (na <= 0 || na > MAXA)
		return NULL;
	const rep *r = tree_rep(c, b);
	/* a formatter of the tree (jv_string_fmt), or a library's
	 * (g_strdup_printf, sqlite3_mprintf) given a literal format */
	if (r && r->fmtr)
		return r->fmt >= 1 && r->fmt <= na ? c_fmt_msg(c, st, en, na, r->fmt - 1) : NULL;
	if (!r && printf_named(s, n) && c_arg_is_literal(c, st[0], en[0], true))
		return c_fmt_msg(c, st, en, na, 0);
	if (na == 1 && string_ctor(s, n))
		return msg_expr(c, st[0], en[0], depth + 1, false);
	/* jv_string_concat(jv_string("Regex failure: "), jv_string(buf)) */
	if (na >= 2 && last_word_is(s, n, "concat")) {
		fl_buf out = {0};
		bool lit = false;
		for (int a = 0; a < na; a++) {
			char *m = raw_text(c, st[a], en[a]);
			if (!m)
				m = msg_expr(c, st[a], en[a], depth + 1, false);
			if (m) {
				fl_buf_puts(&out, m);
				free(m);
				lit = true;
				continue;
			}
			size_t pb = st[a], pe = en[a], in = one_call(c, pb, pe);
			if (in != NONE && string_ctor(t->src + t->v[pb].off, t->v[pb].len)) {
				pb = in + 1;
				pe = c->mt[in];
			}
			c_put_placeholder(t, pb, pe, &out);
		}
		fl_buf_cstr(&out);
		if (!lit) {
			fl_buf_free(&out);
			return NULL;
		}
		fl_msg_trim(out.s);
		return out.s;
	}
	/* an error value made from a message */
	if (c_errval_name(s, n)) {
		for (int a = 0; a < na; a++) {
			char *m = msg_expr(c, st[a], en[a], depth + 1, false);
			if (m)
				return m;
		}
	}
	/* the text of a string value: jv_string_value(msg) */
	if (na == 1 && last_word_is(s, n, "value") && has_word(s, n, "string"))
		return msg_expr(c, st[0], en[0], depth + 1, false);
	/* a function of the file that returns a message it formats
	 * (check_object_key(k) returning jv_string_fmt("Cannot use %s (%s)
	 * as object key", ...)) */
	size_t rb, re;
	if (returned_text(c, b, &rb, &re))
		return msg_expr(c, rb, re, depth + 1, false);
	return NULL;
}

static char *msg_expr(const ctx *c, size_t b, size_t e, int depth, bool lit_vars)
{
	const fl_toks *t = c->t;
	if (b >= e || depth > 4)
		return NULL;
	if (c_arg_is_literal(c, b, e, true))
		return c_arg_msg(c, b, e, false);
	/* a local variable: what it was last given, when that builds a
	 * message (a literal only for a variable named for one: a literal
	 * held in `name` is data more often than a message) */
	if (e == b + 1 && t->v[b].kind == FL_TK_IDENT) {
		size_t xb, xe;
		if (!last_assignment(c, b, &xb, &xe))
			return NULL;
		bool lit = c_arg_is_literal(c, xb, xe, true);
		if (lit && !(lit_vars || msg_var_name(t->src + t->v[b].off, t->v[b].len)))
			return NULL;
		return msg_expr(c, xb, xe, depth + 1, false);
	}
	return call_msg(c, b, e, depth);
}

/* an SQL statement a program builds (and reports when it fails), not a
 * message */
static bool sql_text(const char *m)
{
	static const char *const kw[] = {"SELECT ", "INSERT ", "UPDATE ", "DELETE ", "PRAGMA ",
					 "CREATE ", "DROP ", "ALTER ", "WITH ", "REPLACE ", NULL};
	for (const char *const *k = kw; *k; k++)
		if (strncmp(m, *k, strlen(*k)) == 0)
			return true;
	return false;
}

char *c_nested_msg(const ctx *c, size_t b, size_t e)
{
	if (c_arg_is_literal(c, b, e, false))
		return NULL; /* the caller's own rule reads literals */
	char *m = msg_expr(c, b, e, 0, false);
	if (m && sql_text(m)) {
		free(m);
		return NULL;
	}
	return m;
}

/* ---- variadic definitions (collect pass) ------------------------------------------ */

static bool same_tok(const fl_toks *t, size_t a, size_t b)
{
	return t->v[a].len == t->v[b].len &&
	       memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) == 0;
}

/* the parameter [b, e)'s name: its last identifier */
static size_t param_name(const fl_toks *t, size_t b, size_t e)
{
	for (size_t k = e; k-- > b;)
		if (t->v[k].kind == FL_TK_IDENT)
			return k;
	return NONE;
}

static bool char_pointer(const fl_toks *t, size_t b, size_t e)
{
	bool chr = false, ptr = false;
	for (size_t k = b; k < e; k++) {
		chr = chr || tk_id(t, k, "char") || tk_id(t, k, "wchar_t") || tk_id(t, k, "gchar");
		ptr = ptr || tk_p1(t, k, '*') || tk_p1(t, k, '[');
	}
	return chr && ptr;
}

/* a call that reports what it is given: a reporting name, a reporter of
 * the tree, or a library's printer to stderr */
static bool reporting_call(const ctx *c, size_t j, const size_t *st, const size_t *en, int na)
{
	const fl_toks *t = c->t;
	const char *s = t->src + t->v[j].off;
	size_t n = t->v[j].len;
	if (word_is(s, n, "verr") || word_is(s, n, "verrx") || word_is(s, n, "vwarn") ||
	    word_is(s, n, "vwarnx") || word_is(s, n, "vsyslog") || word_is(s, n, "perror"))
		return true;
	if (printf_named(s, n) || word_is(s, n, "fputs") || word_is(s, n, "write")) {
		for (int a = 0; a < na; a++)
			if ((en[a] == st[a] + 1 && tk_id(t, st[a], "STDERR_FILENO")) ||
			    c_err_stream(t, st[a], en[a]))
				return true;
		return false;
	}
	const rep *r = c_tree_find(c->tree, s, n);
	if (r && !r->fmtr)
		return true;
	int sev = c_name_sev(s, n, false);
	return sev == SEV_WARN || sev == SEV_ERR || sev == SEV_CRIT || c_errval_name(s, n);
}

/* a parameter (but fmt) compared with <, >, <=, >= in the body: a
 * verbosity the message is printed at */
static bool level_gated(const fl_toks *t, size_t ob, size_t cb, const size_t *pn, int np, int fmt)
{
	for (size_t k = ob + 1; k + 1 < cb; k++) {
		if (!tk_p1(t, k, '<') && !tk_p1(t, k, '>') && !tk_p(t, k, "<=") && !tk_p(t, k, ">="))
			continue;
		for (int p = 0; p < np; p++)
			if (p != fmt && pn[p] != NONE &&
			    ((t->v[k - 1].kind == FL_TK_IDENT && same_tok(t, k - 1, pn[p])) ||
			     (t->v[k + 1].kind == FL_TK_IDENT && same_tok(t, k + 1, pn[p]))))
				return true;
	}
	return false;
}

#define MAXT 16

static bool tainted(const fl_toks *t, size_t b, size_t e, const size_t *taint, int nt)
{
	if (e != b + 1 || t->v[b].kind != FL_TK_IDENT)
		return false;
	for (int x = 0; x < nt; x++)
		if (same_tok(t, b, taint[x]))
			return true;
	return false;
}

/* Whether a reporting call at j reports the formatted text itself: it is
 * its format (vfprintf(stderr, fmt, ap)), the first conversion of a
 * format without text of its own (fprintf(stderr, "%s\n", buf)), or, for
 * a reporter without a format, an argument (report_error(l, m)); not a
 * detail of another message (fatal("%s\n%s\n", errmsg(db), sql)). */
static bool reports_text(const ctx *c, size_t j, const size_t *a, const size_t *b, int na,
			 const size_t *taint, int nt)
{
	const fl_toks *t = c->t;
	const char *s = t->src + t->v[j].off;
	size_t n = t->v[j].len;
	const rep *r = c_tree_find(c->tree, s, n);
	int fmt = -1;
	if (r && !r->fmtr && r->fmt >= 1)
		fmt = r->fmt - 1;
	else
		/* a printer's, or a reporter's first literal with a
		 * conversion (fatal("%s\n%s\n", ...) defined further on) */
		for (int k = 0; k < na && fmt < 0; k++) {
			if (printf_named(s, n) && tainted(t, a[k], b[k], taint, nt)) {
				fmt = k;
			} else if (c_arg_is_literal(c, a[k], b[k], false)) {
				char *f = raw_text(c, a[k], b[k]);
				if (f && (printf_named(s, n) || strchr(f, '%')))
					fmt = k;
				free(f);
			}
		}
	if (fmt < 0) {
		for (int k = 0; k < na; k++)
			if (tainted(t, a[k], b[k], taint, nt))
				return true;
		return false;
	}
	if (fmt >= na)
		return false;
	if (tainted(t, a[fmt], b[fmt], taint, nt))
		return true;
	char *f = raw_text(c, a[fmt], b[fmt]);
	if (!f)
		return false;
	bool first = letters(f) == 0 && strchr(f, '%') && fmt + 1 < na &&
		     tainted(t, a[fmt + 1], b[fmt + 1], taint, nt);
	free(f);
	return first;
}

/* The first call of the body [ob, cb] writing to an error stream
 * (fputs, fprintf, fwrite...) writes parameter p: `fputs(prefix, errors)`. */
static bool writes_first(const ctx *c, size_t ob, size_t cb, size_t p)
{
	const fl_toks *t = c->t;
	for (size_t x = ob + 1; x + 1 < cb; x++) {
		if (t->v[x].kind != FL_TK_IDENT || !tk_p1(t, x + 1, '(') || c->mt[x + 1] == NONE)
			continue;
		const char *s = t->src + t->v[x].off;
		size_t n = t->v[x].len;
		bool ps = word_is(s, n, "fputs"), pf = word_is(s, n, "fprintf");
		if (!ps && !pf && !word_is(s, n, "fwrite") && !word_is(s, n, "vfprintf") &&
		    !word_is(s, n, "fputc") && !word_is(s, n, "putc"))
			continue;
		size_t a[MAXA], b[MAXA];
		int na = c_split_args(c, x + 1, a, b, MAXA);
		bool err = false;
		for (int q = 0; q < na && !err; q++)
			err = c_err_stream(t, a[q], b[q]);
		if (!err)
			continue;
		/* fputs(P, S) or fprintf(S, "%s", P) */
		if (ps && na == 2)
			return b[0] == a[0] + 1 && same_tok(t, a[0], p);
		if (pf && na == 3 && b[2] == a[2] + 1 && same_tok(t, a[2], p) && b[1] == a[1] + 1 &&
		    t->v[a[1]].kind == FL_TK_STRING)
			return strcmp(fl_tok_str(t, &t->v[a[1]]), "%s") == 0;
		return false;
	}
	return false;
}

/* A variadic reporter's call at j passing its format (parameter token
 * fmtp) and va_list on, `voutf(config, WARN_PREFIX, fmt, ap)`: the text
 * of the argument before the format when the function called (defined in
 * the file) writes that parameter first to an error stream; else NULL. */
static char *callee_head(const ctx *c, size_t j, const size_t *a, const size_t *b, int na,
			 size_t fmtp)
{
	const fl_toks *t = c->t;
	int f = -1;
	for (int q = 1; q < na && f < 0; q++)
		if (b[q] == a[q] + 1 && same_tok(t, a[q], fmtp))
			f = q;
	if (f < 1)
		return NULL;
	char *head = c_head_text(c, a[f - 1], b[f - 1]);
	if (!head)
		return NULL;
	/* the definition: NAME(params) { body } */
	for (size_t d = 1; d + 1 < t->n; d++) {
		if (d == j || t->v[d].kind != FL_TK_IDENT || !same_tok(t, d, j) ||
		    !tk_p1(t, d + 1, '(') || (t->v[d].flags & TF_DIR) || c->mt[d + 1] == NONE)
			continue;
		size_t cp = c->mt[d + 1], ob = cp + 1;
		if (!tk_p1(t, ob, '{') || c->mt[ob] == NONE || tk_p1(t, d - 1, '.') ||
		    tk_p(t, d - 1, "->"))
			continue;
		size_t st[MAXA], en[MAXA];
		int np = c_split_args(c, d + 1, st, en, MAXA);
		if (np != na)
			break;
		size_t pn = param_name(t, st[f - 1], en[f - 1]);
		if (pn != NONE && char_pointer(t, st[f - 1], en[f - 1]) &&
		    writes_first(c, ob, c->mt[ob], pn))
			return head;
		break;
	}
	free(head);
	return NULL;
}

void c_collect_variadic(ctree *tr, const ctx *c, size_t k)
{
	const fl_toks *t = c->t;
	if ((t->v[k].flags & TF_DIR) || !tk_p1(t, k + 1, ')') || !tk_p1(t, k + 2, '{'))
		return;
	size_t op = c->mt[k + 1], ob = k + 2, cb = c->mt[k + 2];
	if (op == NONE || op == 0 || cb == NONE || cb <= ob)
		return;
	size_t nm = op - 1;
	if (t->v[nm].kind != FL_TK_IDENT || c_attr_like(t, nm))
		return;
	const char *name = t->src + t->v[nm].off;
	size_t nlen = t->v[nm].len;
	/* one known already (a format attribute on its declaration) is
	 * read for whether it makes an error value */
	const rep *known = c_tree_find(tr, name, nlen);
	if (known && (known->fmtr || known->errval))
		return;
	/* a name that says it only logs, traces or prints, unless it also
	 * says error */
	if (c_quiet_name(name, nlen))
		return;
	size_t st[MAXA], en[MAXA], pn[MAXA];
	int np = c_split_args(c, op, st, en, MAXA);
	if (np < 2 || np > MAXA)
		return;
	for (int p = 0; p < np; p++)
		pn[p] = param_name(t, st[p], en[p]);
	/* va_start(ap, fmt): fmt a char pointer parameter */
	size_t taint[MAXT];
	int nt = 0, fmt = -1;
	for (size_t j = ob + 1; j < cb && fmt < 0; j++) {
		if (!tk_id(t, j, "va_start") || !tk_p1(t, j + 1, '('))
			continue;
		size_t a[2], b[2];
		if (c_split_args(c, j + 1, a, b, 2) != 2 || b[0] != a[0] + 1 || b[1] != a[1] + 1 ||
		    t->v[a[0]].kind != FL_TK_IDENT)
			return;
		for (int p = 0; p < np; p++)
			if (pn[p] != NONE && same_tok(t, pn[p], a[1]) && char_pointer(t, st[p], en[p]))
				fmt = p;
		taint[nt++] = a[0];
	}
	if (fmt < 0)
		return;
	/* follow the formatted text: the calls given the va_list, the
	 * variables given their results, to a reporting call */
	bool passes = false, reports = false, errval = false;
	char *head = NULL;
	for (size_t j = ob + 1; j < cb; j++) {
		if (t->v[j].kind != FL_TK_IDENT || !tk_p1(t, j + 1, '(') || c->mt[j + 1] == NONE ||
		    tk_id(t, j, "va_start") || tk_id(t, j, "va_end") || tk_id(t, j, "va_arg"))
			continue;
		size_t close = c->mt[j + 1];
		bool given = false;
		for (size_t q = j + 2; q < close && !given; q++)
			for (int x = 0; x < nt && !given; x++)
				given = t->v[q].kind == FL_TK_IDENT && same_tok(t, q, taint[x]) &&
					!tk_p1(t, q - 1, '.') && !tk_p(t, q - 1, "->");
		if (!given)
			continue;
		passes = true;
		size_t a[MAXA], b[MAXA];
		int na = c_split_args(c, j + 1, a, b, MAXA);
		if (reporting_call(c, j, a, b, na)) {
			if (reports_text(c, j, a, b, na, taint, nt)) {
				const char *cs = t->src + t->v[j].off;
				const rep *cr = c_tree_find(c->tree, cs, t->v[j].len);
				errval = c_errval_name(cs, t->v[j].len) || (cr && cr->errval);
				reports = true;
				break;
			}
			continue; /* the text is a detail of another message */
		}
		if (!head && pn[fmt] != NONE)
			head = callee_head(c, j, a, b, na, pn[fmt]);
		/* m = format(...); vsnprintf(buf, n, fmt, ap) */
		if (j >= 2 && tk_p1(t, j - 1, '=') && t->v[j - 2].kind == FL_TK_IDENT && nt < MAXT)
			taint[nt++] = j - 2;
		if (printf_named(t->src + t->v[j].off, t->v[j].len) && na >= 1 && b[0] == a[0] + 1 &&
		    t->v[a[0]].kind == FL_TK_IDENT && nt < MAXT)
			taint[nt++] = a[0];
	}
	if (!passes) {
		free(head);
		return;
	}
	/* a reporting name reports what it formats (make_error(p, fmt, ...)
	 * returning an error value) */
	int own = c_name_sev(name, nlen, true);
	if (own == SEV_WARN || own == SEV_ERR || own == SEV_CRIT)
		reports = true;
	/* a printer gated by a level reports nothing of its own: known as
	 * such, no other rule takes it for a reporter */
	if (reports && level_gated(t, ob, cb, pn, np, fmt))
		reports = false;
	if (!known) {
		c_tree_put_kind(tr, name, nlen, fmt + 1, false, !reports);
		/* one that returns nothing prints what it formats, at the
		 * level its caller gives (`void message(enum
		 * message_verbosity v, const char *fmt, ...)`, gated by v) */
		if (!reports && c_returns_void(t, nm))
			c_tree_set_lvl(tr, name, nlen);
	}
	if (reports && errval)
		c_tree_set_errval(tr, name, nlen);
	if (reports && head)
		c_reporter_head_put(tr, name, nlen, head);
	free(head);
}

/* ---- helpers composing a message ------------------------------------------------ */

#define MAXTPL 4

typedef struct helper {
	size_t name;     /* its name's token */
	int param;       /* the parameter the message is composed around */
	/* the text around it in each of its formats (as printed), and
	 * what they all share (set once the body is read) */
	char *pre[MAXTPL], *suf[MAXTPL];
	char *cpre, *csuf;
	int ntpl;
	int sev;
	bool whole;      /* the parameter is the format itself: each call's
			    literal is the message (ls's file_failure) */
} helper;

typedef struct helpers {
	helper *v;
	size_t n, cap;
	/* functions returning a message they format: name token, the
	 * returned expression */
	size_t (*ret)[3];
	size_t nret, capret;
} helpers;

static bool returned_text(const ctx *c, size_t name, size_t *b, size_t *e)
{
	const helpers *hs = c->helpers;
	if (!hs)
		return false;
	for (size_t k = 0; k < hs->nret; k++)
		if (same_tok(c->t, hs->ret[k][0], name) && hs->ret[k][0] != name) {
			*b = hs->ret[k][1];
			*e = hs->ret[k][2];
			return true;
		}
	return false;
}

/* `return FORMATTER("...", ...);` in the body [ob, cb] of function nm */
static void find_returned(const ctx *c, helpers *hs, size_t nm, size_t ob, size_t cb)
{
	const fl_toks *t = c->t;
	for (size_t j = ob + 1; j + 2 < cb; j++) {
		if (!tk_id(t, j, "return") || t->v[j + 1].kind != FL_TK_IDENT || !tk_p1(t, j + 2, '('))
			continue;
		size_t close = c->mt[j + 2];
		const rep *r = tree_rep(c, j + 1);
		if (close == NONE || close >= cb || !tk_p1(t, close + 1, ';') || !r || !r->fmtr)
			continue;
		if (hs->nret == hs->capret) {
			hs->capret = hs->capret ? hs->capret * 2 : 8;
			hs->ret = fl_xrealloc(hs->ret, hs->capret * sizeof *hs->ret);
		}
		hs->ret[hs->nret][0] = nm;
		hs->ret[hs->nret][1] = j + 1;
		hs->ret[hs->nret][2] = close + 1;
		hs->nret++;
		return;
	}
}

/* text of a format [p, q) with %% undone */
static char *fmt_piece(const char *p, size_t n)
{
	char *s = fl_xstrndup(p, n);
	fl_msg_undouble(s, "%");
	return s;
}

/* the common part: prefix (dir > 0) or suffix (dir < 0) of a and b */
static void keep_common(char *a, const char *b, int dir)
{
	size_t la = strlen(a), lb = strlen(b), k = 0;
	if (dir > 0) {
		while (k < la && k < lb && a[k] == b[k])
			k++;
		a[k] = '\0';
	} else {
		while (k < la && k < lb && a[la - 1 - k] == b[lb - 1 - k])
			k++;
		memmove(a, a + la - k, k + 1);
	}
}

/* The index of the char pointer parameter (of [pst, pen)) that the
 * lone identifier at token k names, or -1. */
static int char_param(const fl_toks *t, const size_t *pst, const size_t *pen, int np, size_t k)
{
	for (int q = 0; q < np; q++) {
		size_t pn = param_name(t, pst[q], pen[q]);
		if (pn != NONE && same_tok(t, pn, k) && char_pointer(t, pst[q], pen[q]))
			return q;
	}
	return -1;
}

/* A new helper nm around parameter q, its first format's text pre and suf
 * (owned); NULL (pre and suf freed) when 256 are kept already. */
static helper *helper_add(helpers *hs, size_t nm, int q, int sev, char *pre, char *suf)
{
	if (hs->n >= 256) {
		free(pre);
		free(suf);
		return NULL;
	}
	if (hs->n == hs->cap) {
		hs->cap = hs->cap ? hs->cap * 2 : 8;
		hs->v = fl_xrealloc(hs->v, hs->cap * sizeof *hs->v);
	}
	helper *h = &hs->v[hs->n++];
	memset(h, 0, sizeof *h);
	h->name = nm;
	h->param = q;
	h->sev = sev;
	h->pre[0] = pre;
	h->suf[0] = suf;
	h->ntpl = 1;
	return h;
}

/* A format call at j in the body of helper h (parameters [pst, pen)):
 * when one of its %s conversions takes a char pointer parameter, the
 * text around it. */
static void helper_format(const ctx *c, helpers *hs, size_t nm, const size_t *pst,
			  const size_t *pen, int np, size_t j, int fmt, int sev)
{
	const fl_toks *t = c->t;
	size_t st[MAXA], en[MAXA];
	int na = c_split_args(c, j + 1, st, en, MAXA);
	if (fmt < 0 || fmt >= na || na > MAXA)
		return;
	char *f = raw_text(c, st[fmt], en[fmt]);
	if (!f || sql_text(f)) {
		free(f);
		return;
	}
	int next = fmt + 1;
	for (const char *p = f; *p; p++) {
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		int stars = 0;
		size_t l = fl_printf_conv(p, &stars);
		if (!l)
			break;
		next += stars;
		int q;
		if (p[l - 1] == 's' && !stars && next < na && en[next] == st[next] + 1 &&
		    t->v[st[next]].kind == FL_TK_IDENT &&
		    (q = char_param(t, pst, pen, np, st[next])) >= 0) {
			char *pre = fmt_piece(f, (size_t)(p - f));
			char *suf = fmt_piece(p + l, strlen(p + l));
			helper *h = hs->n ? &hs->v[hs->n - 1] : NULL;
			if (h && h->name == nm) {
				/* another format of the same helper */
				if (h->param == q && h->ntpl < MAXTPL) {
					h->pre[h->ntpl] = pre;
					h->suf[h->ntpl++] = suf;
					pre = suf = NULL;
				}
				free(pre);
				free(suf);
			} else {
				helper_add(hs, nm, q, sev, pre, suf);
			}
			free(f);
			return;
		}
		next++;
		p += l - 1;
	}
	free(f);
}

/* Whether the text a formatter call at j (format argument fmt) makes,
 * in a body ending at cb, is reported: given at once to an error value or
 * a reporter (`jv_invalid_with_msg(jv_string_fmt(...))`), or held in a
 * variable or a buffer given to one later (`snprintf(buf, n, "...", x);
 * result_error(ctx, buf)`), not one used otherwise (a name looked up). */
static bool format_reported(const ctx *c, size_t j, int fmt, size_t ob, size_t cb)
{
	const fl_toks *t = c->t;
	size_t o = NONE;
	for (size_t k = j; k-- > ob + 1 && o == NONE;) {
		if (tk_p1(t, k, '(') && c->mt[k] != NONE && c->mt[k] > j)
			o = k;
		else if (tk_p1(t, k, ';') || tk_p1(t, k, '{') || tk_p1(t, k, '}'))
			break;
	}
	if (o != NONE && o > 0 && t->v[o - 1].kind == FL_TK_IDENT) {
		const char *s = t->src + t->v[o - 1].off;
		size_t n = t->v[o - 1].len;
		int os = c_name_sev(s, n, false);
		return c_errval_name(s, n) || os == SEV_ERR || os == SEV_CRIT || os == SEV_WARN;
	}
	/* the variable given the text, or the buffer written */
	size_t var = NONE;
	if (j >= 2 && tk_p1(t, j - 1, '=') && t->v[j - 2].kind == FL_TK_IDENT) {
		var = j - 2;
	} else {
		size_t st[MAXA], en[MAXA];
		int na = c_split_args(c, j + 1, st, en, MAXA);
		for (int a = 0; a < fmt && a < na && var == NONE; a++)
			if (en[a] == st[a] + 1 && t->v[st[a]].kind == FL_TK_IDENT)
				var = st[a];
	}
	if (var == NONE)
		return false;
	size_t taint[1] = {var};
	for (size_t k = c->mt[j + 1] + 1; k < cb; k++) {
		if (t->v[k].kind != FL_TK_IDENT || !tk_p1(t, k + 1, '(') || c->mt[k + 1] == NONE)
			continue;
		size_t a[MAXA], b[MAXA];
		int na = c_split_args(c, k + 1, a, b, MAXA);
		bool given = false;
		for (int x = 0; x < na && !given; x++)
			given = tainted(t, a[x], b[x], taint, 1);
		if (given && reporting_call(c, k, a, b, na))
			return true;
	}
	return false;
}

/* `static void file_failure (bool serious, char const *message, char
 * const *file) { error (0, errno, message, quoteaf (file)); }`: a
 * reporter's call at j in the body of function nm whose format is one of
 * nm's char pointer parameters.  fmt: the format argument's index when
 * the reporter's is known, else -1 (a reporting name: its first argument
 * that is a literal or such a parameter is the format).  nm is then a
 * helper whose calls report the literal they give that parameter, as it
 * is.  True when it is one. */
static bool helper_forward(const ctx *c, helpers *hs, size_t nm, const size_t *pst,
			   const size_t *pen, int np, size_t j, int fmt, int sev)
{
	const fl_toks *t = c->t;
	size_t st[MAXA], en[MAXA];
	int na = c_split_args(c, j + 1, st, en, MAXA);
	if (na <= 0 || na > MAXA || fmt >= na)
		return false;
	/* the format argument: the reporter's, else its first argument
	 * that is a literal (helper_format's) or a char pointer parameter */
	int a = fmt, q = -1;
	for (int k = 0; a < 0 && k < na; k++) {
		if (c_arg_is_literal(c, st[k], en[k], false))
			return false;
		if (en[k] == st[k] + 1 && t->v[st[k]].kind == FL_TK_IDENT &&
		    (q = char_param(t, pst, pen, np, st[k])) >= 0)
			a = k;
	}
	if (a < 0 || en[a] != st[a] + 1 || t->v[st[a]].kind != FL_TK_IDENT)
		return false;
	if (q < 0 && (q = char_param(t, pst, pen, np, st[a])) < 0)
		return false;
	if (hs->n && hs->v[hs->n - 1].name == nm)
		return true; /* one per helper */
	helper *h = helper_add(hs, nm, q, sev, fl_xstrdup(""), fl_xstrdup(""));
	if (h)
		h->whole = true;
	return true;
}

/* the body [ob, cb] of function nm(params at op) */
static void helper_body(const ctx *c, helpers *hs, size_t nm, size_t op, size_t ob, size_t cb)
{
	const fl_toks *t = c->t;
	size_t pst[MAXA], pen[MAXA];
	int np = c_split_args(c, op, pst, pen, MAXA);
	if (np <= 0 || np > MAXA)
		return;
	bool any = false;
	for (int q = 0; q < np && !any; q++)
		any = char_pointer(t, pst[q], pen[q]);
	if (!any)
		return;
	int own = c_name_sev(t->src + t->v[nm].off, t->v[nm].len, false);
	bool named = own == SEV_WARN || own == SEV_ERR || own == SEV_CRIT;
	for (size_t j = ob + 1; j < cb; j++) {
		if (t->v[j].kind != FL_TK_IDENT || !tk_p1(t, j + 1, '(') || c->mt[j + 1] == NONE)
			continue;
		const rep *r = tree_rep(c, j);
		int fmt = -1, sev = named ? own : SEV_ERR;
		if (r && r->fmt >= 1) {
			if (r->fmtr && !format_reported(c, j, r->fmt - 1, ob, cb))
				continue;
			fmt = r->fmt - 1;
		} else if ((tk_id(t, j, "fprintf") || tk_id(t, j, "vfprintf")) && tk_id(t, j + 2, "stderr") &&
			   tk_p1(t, j + 3, ',')) {
			fmt = 1;
		}
		/* the helper's parameter is the reporter's format: a reporter
		 * by its name (error, die, warn), or any printer to stderr in a
		 * helper named for reporting (not `say(level, fmt, ...)`, a
		 * verbose printer) */
		int cs = c_name_sev(t->src + t->v[j].off, t->v[j].len, false);
		bool reporter = cs == SEV_ERR || cs == SEV_CRIT || cs == SEV_WARN || (fmt >= 0 && named);
		if (reporter && !same_tok(t, j, nm) &&
		    helper_forward(c, hs, nm, pst, pen, np, j, fmt,
				   named ? own : cs == SEV_CRIT || cs == SEV_WARN ? cs : SEV_ERR))
			return;
		if (fmt >= 0)
			helper_format(c, hs, nm, pst, pen, np, j, fmt, sev);
	}
}

static void helper_free(helper *h)
{
	for (int k = 0; k < h->ntpl; k++) {
		free(h->pre[k]);
		free(h->suf[k]);
	}
	free(h->cpre);
	free(h->csuf);
}

/* After helper h's body: what its formats share, when that holds text
 * (yyerror's "jq: error: %s (...)" and "jq: error: %s"); false when the
 * helper composes nothing worth a record. */
static bool helper_done(const fl_toks *t, helper *h)
{
	h->cpre = fl_xstrdup(h->pre[0]);
	h->csuf = fl_xstrdup(h->suf[0]);
	for (int k = 1; k < h->ntpl; k++) {
		keep_common(h->cpre, h->pre[k], 1);
		keep_common(h->csuf, h->suf[k], -1);
	}
	if (h->ntpl > 1 && letters(h->cpre) + letters(h->csuf) < 2) {
		free(h->cpre);
		free(h->csuf);
		h->cpre = h->csuf = NULL; /* each format on its own */
	}
	if (h->whole)
		return true; /* each call's literal is the message */
	/* a format without text of its own (`"%s\n"`) composes nothing but
	 * in a helper named for reporting */
	int own = c_name_sev(t->src + t->v[h->name].off, t->v[h->name].len, false);
	bool named = own == SEV_WARN || own == SEV_ERR || own == SEV_CRIT;
	if (!named && h->cpre && letters(h->cpre) + letters(h->csuf) < 2)
		return false;
	return true;
}

void *c_helpers_find(const ctx *c)
{
	const fl_toks *t = c->t;
	helpers *hs = fl_xcalloc(1, sizeof *hs);
	for (size_t i = 1; i < t->n; i++) {
		if ((t->v[i].flags & TF_DIR) || !tk_p1(t, i, '{') || !tk_p1(t, i - 1, ')'))
			continue;
		size_t op = c->mt[i - 1], cb = c->mt[i];
		if (op == NONE || op == 0 || cb == NONE || cb <= i)
			continue;
		size_t nm = op - 1;
		if (t->v[nm].kind != FL_TK_IDENT || c_attr_like(t, nm))
			continue;
		size_t before = hs->n;
		const char *s = t->src + t->v[nm].off;
		size_t n = t->v[nm].len;
		/* a helper that traces prints at its own level */
		if (!c_icontains(s, n, "debug") && !c_icontains(s, n, "trace") &&
		    !c_icontains(s, n, "verbose") && !c_icontains(s, n, "info") &&
		    c_name_sev(s, n, false) != SEV_LOG)
			helper_body(c, hs, nm, op, i, cb);
		if (hs->nret < 1024)
			find_returned(c, hs, nm, i, cb);
		if (hs->n > before && !helper_done(t, &hs->v[hs->n - 1])) {
			helper_free(&hs->v[hs->n - 1]);
			hs->n--;
		}
		i = cb; /* not into the body */
	}
	return hs;
}

void c_helpers_free(void *p)
{
	helpers *hs = p;
	if (!hs)
		return;
	for (size_t i = 0; i < hs->n; i++)
		helper_free(&hs->v[i]);
	free(hs->v);
	free(hs->ret);
	free(hs);
}

/* The values a helper's argument [b, e) gives: its message, or, for a
 * variable given several literals before (`msg = "cannot be
 * csv-formatted"; ... msg = "cannot be tsv-formatted"`), each of them. */
static int arg_values(const ctx *c, size_t b, size_t e, char **v, int max)
{
	const fl_toks *t = c->t;
	size_t xb[4], xe[4];
	int n = 0, na;
	if (e == b + 1 && t->v[b].kind == FL_TK_IDENT && max >= 2 &&
	    (na = assignments(c, b, xb, xe, max < 4 ? max : 4)) >= 2) {
		for (int a = 0; a < na && c_arg_is_literal(c, xb[a], xe[a], true); a++) {
			char *m = c_arg_msg(c, xb[a], xe[a], false);
			if (m)
				v[n++] = m;
		}
		if (n >= 2)
			return n;
		while (n)
			free(v[--n]);
	}
	v[0] = msg_expr(c, b, e, 0, true);
	return v[0] != NULL;
}

char *c_helper_msg(const ctx *c, size_t i, const size_t *st, const size_t *en, int na,
		   int k, int *sev)
{
	const helpers *hs = c->helpers;
	const fl_toks *t = c->t;
	if (!hs)
		return NULL;
	for (size_t x = 0; x < hs->n; x++) {
		const helper *h = &hs->v[x];
		if (!same_tok(t, h->name, i) || h->name == i)
			continue;
		int ntpl = h->cpre ? 1 : h->ntpl;
		if (h->param >= na || k >= ntpl * 4)
			return NULL;
		char *v[4];
		int nv = arg_values(c, st[h->param], en[h->param], v, 4);
		if (k >= ntpl * nv) {
			for (int a = 0; a < nv; a++)
				free(v[a]);
			return NULL;
		}
		int tp = k / nv;
		const char *m = v[k % nv];
		char *out = h->cpre ? fl_xjoin(h->cpre, m, h->csuf) : fl_xjoin(h->pre[tp], m, h->suf[tp]);
		for (int a = 0; a < nv; a++)
			free(v[a]);
		fl_msg_trim(out);
		*sev = h->sev;
		return out;
	}
	return NULL;
}
