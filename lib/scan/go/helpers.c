/*
 * helpers.c — the tree's format helpers (see go.h)
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "go.h"

/* ---- the tree ------------------------------------------------------------------- */

void *go_tree_new(void)
{
	return fl_xcalloc(1, sizeof(gotree));
}

static void go_help_free(gohelp *h)
{
	free(h->pre);
	free(h->suf);
	free(h->name);
	free(h->dir);
	free(h->fq);
	free(h->fn);
	free(h->tt);
	free(h->tf);
	free(h->given);
}

void go_tree_free(void *tree)
{
	gotree *g = tree;
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		go_help_free(&g->v[i]);
	free(g->v);
	fl_strmap_free(&g->idx);
	for (size_t i = 0; i < g->tn; i++)
		go_tmpl_free(&g->tv[i]);
	free(g->tv);
	fl_strmap_free(&g->tidx);
	free(g);
}

static void go_help_add(gotree *g, gohelp *h)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 16;
		g->v = fl_xrealloc(g->v, g->cap * sizeof *g->v);
	}
	size_t prev;
	h->next = fl_strmap_get(&g->idx, h->name, &prev) ? prev : NONE;
	fl_strmap_put(&g->idx, h->name, g->n);
	g->v[g->n++] = *h;
}

void go_tree_merge(void *tree, void *part)
{
	gotree *g = tree, *p = part;
	for (size_t i = 0; i < p->n; i++)
		go_help_add(g, &p->v[i]);
	p->n = 0;
	for (size_t i = 0; i < p->tn; i++)
		go_tmpl_add(g, &p->tv[i]);
	p->tn = 0;
}

/* whether a name says error: errorf, Fatalf, failf, dief, warnf... */
static bool go_errish_name(const char *s, size_t n)
{
	static const char *const words[] = {"err", "fatal", "fail", "die", "panic",
					    "warn", "abort", "exit", NULL};
	for (const char *const *w = words; *w; w++) {
		size_t l = strlen(*w);
		for (size_t k = 0; k + l <= n; k++)
			if (strncasecmp(s + k, *w, l) == 0)
				return true;
	}
	return false;
}

/* The open bracket `want` ('(' of a call, '{' of a composite literal
 * `T{a: x, b: k}`) whose list holds token k, or NONE: another bracket or a
 * statement's end first, or 256 tokens. */
static size_t go_enclosing(const fl_toks *t, const size_t *m, size_t k, char want)
{
	for (size_t q = k, steps = 0; q-- > 0 && steps < 256; steps++) {
		char c = fl_tok_pch(t, q);
		if ((c == ')' || c == ']' || c == '}') && m[q] != NONE && m[q] < q) {
			q = m[q];
			continue;
		}
		if (c == want)
			return q;
		if (c == '(' || c == '{' || c == ';' || c == '[')
			return NONE;
	}
	return NONE;
}

static size_t go_enclosing_paren(const fl_toks *t, const size_t *m, size_t k)
{
	return go_enclosing(t, m, k, '(');
}

bool go_error_type_name(const char *s, size_t n)
{
	return (n > 5 && memcmp(s + n - 5, "Error", 5) == 0) || (n > 3 && memcmp(s + n - 3, "Err", 3) == 0);
}

static bool go_is_stderr(const fl_toks *t, size_t b, size_t e)
{
	return e == b + 3 && fl_tok_is(t, b, "os") && fl_tok_is(t, b + 2, "Stderr");
}

/* What the call whose '(' is at open does with the format it gets as
 * argument ai (the arguments after it being the helper's own): GS_*.
 * *q: the callee's qualifier token (NONE when there is none or it is a
 * chain: *chain), *nm its name. */
static int go_fmt_callee(const fl_toks *t, const size_t *m, size_t open, size_t ai,
			 size_t *q, size_t *nm, bool *chain)
{
	*q = NONE;
	*chain = false;
	if (open == 0 || t->v[open - 1].kind != FL_TK_IDENT)
		return GS_NONE;
	*nm = open - 1;
	bool qual = open >= 3 && fl_tok_pch(t, open - 2) == '.';
	if (qual && t->v[open - 3].kind == FL_TK_IDENT &&
	    !(open >= 4 && fl_tok_pch(t, open - 4) == '.'))
		*q = open - 3;
	else if (qual)
		*chain = true;
	size_t n = *nm;
	if (*q != NONE && fl_tok_is(t, *q, "fmt")) {
		if (fl_tok_is(t, n, "Errorf") && ai == 0)
			return GS_ERR;
		if (fl_tok_is(t, n, "Fprintf") && ai == 1) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			if (go_args(t, m, open, sb, se) >= 2 && go_is_stderr(t, sb[0], se[0]))
				return GS_CONSOLE;
			return GS_NONE;
		}
		if (!fl_tok_is(t, n, "Sprintf") || ai != 0)
			return GS_NONE;
		/* fmt.Sprintf(format, args...) as an argument of a call that
		 * raises or reports */
		size_t eo, eq = *q, en;
		bool ec;
		/* ... or a field of an error value: `p.errPass(ParseError{Text:
		 * fmt.Sprintf(format, a...)})` */
		size_t lb = go_enclosing(t, m, eq, '{');
		if (lb != NONE && lb > 0 && t->v[lb - 1].kind == FL_TK_IDENT && lb - 1 != *q &&
		    go_error_type_name(t->src + t->v[lb - 1].off, t->v[lb - 1].len))
			return GS_ERR;
		for (int up = 0;; up++) {
			/* fmt.Sprintf("%s: %s", x, fmt.Sprintf(format, args...)):
			 * the call around the outer one */
			eo = go_enclosing_paren(t, m, eq);
			if (eo == NONE || eo == 0 || t->v[eo - 1].kind != FL_TK_IDENT)
				return GS_NONE;
			if (fl_tok_is(t, eo - 1, "panic") &&
			    !(eo >= 2 && fl_tok_pch(t, eo - 2) == '.'))
				return GS_PANIC;
			(void)go_fmt_callee(t, m, eo, 0, &eq, &en, &ec);
			/* fatalError(fmt.Sprintf(format, args...)): a
			 * conversion to an error type of the package */
			if (eq == NONE && !ec && en == eo - 1 &&
			    go_error_type_name(t->src + t->v[en].off, t->v[en].len) &&
			    m[eo] != NONE && fl_tok_pch(t, m[eo] - 1) == ')')
				return GS_ERR;
			if (eq == NONE)
				return GS_NONE;
			if (up == 2 || !fl_tok_is(t, eq, "fmt") || !fl_tok_is(t, en, "Sprintf"))
				break;
		}
		if (fl_tok_is(t, eq, "errors") && fl_tok_is(t, en, "New"))
			return GS_ERR;
		if (fl_tok_is(t, eq, "log"))
			return fl_tok_is(t, en, "Fatal") || fl_tok_is(t, en, "Fatalln") ? GS_FATAL
			       : fl_tok_is(t, en, "Panic") || fl_tok_is(t, en, "Panicln") ? GS_PANIC
			       : fl_tok_is(t, en, "Print") || fl_tok_is(t, en, "Println") ? GS_CONSOLE
										 : GS_NONE;
		if (fl_tok_is(t, eq, "fmt") && (fl_tok_is(t, en, "Fprintf") ||
						fl_tok_is(t, en, "Fprint") ||
						fl_tok_is(t, en, "Fprintln"))) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			if (go_args(t, m, eo, sb, se) >= 2 && go_is_stderr(t, sb[0], se[0]))
				return GS_CONSOLE;
		}
		return GS_NONE;
	}
	if (*q != NONE && fl_tok_is(t, *q, "log") && ai == 0)
		return fl_tok_is(t, n, "Fatalf") ? GS_FATAL
		       : fl_tok_is(t, n, "Panicf") ? GS_PANIC
		       : fl_tok_is(t, n, "Printf") ? GS_CONSOLE
						   : GS_NONE;
	if (*q != NONE && fl_tok_is(t, *q, "errors"))
		return (fl_tok_is(t, n, "Errorf") && ai == 0) ||
				       (fl_tok_is(t, n, "Wrapf") && ai == 1)
			       ? GS_ERR
			       : GS_NONE;
	if (*q != NONE && (fl_tok_is(t, *q, "strings") || fl_tok_is(t, *q, "os")))
		return GS_NONE;
	return ai < 256 ? GS_FWD : GS_NONE;
}

/* The parameters of the list opened at po: *v gets the index of the
 * variadic one (NONE), str[k] whether parameter k is a string; name[k]
 * its name token.  Returns how many (at most MAX_ARGS). */
static size_t go_params(const fl_toks *t, const size_t *m, size_t po, size_t *name,
			bool *str, size_t *v)
{
	size_t pb[MAX_ARGS], pe[MAX_ARGS];
	size_t n = go_args(t, m, po, pb, pe), pending = 0;
	*v = NONE;
	for (size_t k = 0; k < n; k++) {
		name[k] = t->v[pb[k]].kind == FL_TK_IDENT ? pb[k] : NONE;
		str[k] = false;
		if (pe[k] == pb[k] + 1)
			continue; /* a name whose type comes later */
		bool s = pe[k] == pb[k] + 2 && fl_tok_is_ident(t, pb[k] + 1, "string");
		if (fl_tok_is(t, pb[k] + 1, "...") && k == n - 1)
			*v = k;
		for (size_t j = pending; j <= k; j++)
			str[j] = s;
		pending = k + 1;
	}
	return n;
}

/* the helper defined at func token i, if it is one (added to g) */
void go_collect_func(gotree *g, const fl_toks *t, const size_t *m, size_t i,
			    const char *dir, const go_imps *im)
{
	size_t j = i + 1;
	bool method = false;
	if (fl_tok_pch(t, j) == '(') {
		if (m[j] == NONE)
			return;
		j = m[j] + 1;
		method = true;
	}
	if (j >= t->n || t->v[j].kind != FL_TK_IDENT)
		return;
	size_t nm = j++;
	if (fl_tok_pch(t, j) == '[' && m[j] != NONE)
		j = m[j] + 1;
	if (fl_tok_pch(t, j) != '(' || m[j] == NONE)
		return;
	go_collect_helper(g, t, m, nm, j, method, dir, im);
}

/* [b, e) is parameter token p, alone or joined to literals by '+'
 * (`"age: error: " + format`, `msg + "\n"`): the literals' texts before
 * and after it into *pre and *suf (NULL when none). */
static bool go_concat_param(const fl_toks *t, size_t b, size_t e, size_t p, char **pre, char **suf)
{
	*pre = *suf = NULL;
	fl_buf bf = {0}, af = {0};
	bool seen = false;
	for (size_t k = b; k < e; k++) {
		if (k > b && !(fl_tok_is(t, k, "+") && k + 1 < e))
			goto no;
		if (k > b)
			k++;
		if (t->v[k].kind == FL_TK_STRING) {
			fl_buf_put(seen ? &af : &bf, fl_tok_str(t, &t->v[k]), t->v[k].slen);
		} else if (!seen && go_same_tok(t, k, p)) {
			seen = true;
		} else {
			goto no;
		}
	}
	if (!seen)
		goto no;
	*pre = bf.n ? fl_xstrdup(fl_buf_cstr(&bf)) : NULL;
	*suf = af.n ? fl_xstrdup(fl_buf_cstr(&af)) : NULL;
	fl_buf_free(&bf);
	fl_buf_free(&af);
	return true;
no:
	fl_buf_free(&bf);
	fl_buf_free(&af);
	return false;
}

/* A format literal at token f with one conversion (%s, %v, %q) for the
 * message: the text around it into *pre / *suf (%q's quotes kept). */
static bool go_split_format(const fl_toks *t, size_t f, char **pre, char **suf)
{
	if (t->v[f].kind != FL_TK_STRING)
		return false;
	const char *s = fl_tok_str(t, &t->v[f]);
	size_t n = t->v[f].slen, at = NONE;
	for (size_t k = 0; k + 1 < n; k++) {
		if (s[k] != '%')
			continue;
		if (s[k + 1] == '%') {
			k++;
			continue;
		}
		if (at != NONE || !strchr("svq", s[k + 1]))
			return false;
		at = k;
	}
	if (at == NONE)
		return false;
	bool q = s[at + 1] == 'q';
	*pre = fl_xasprintf("%.*s%s", (int)at, s, q ? "\"" : "");
	*suf = fl_xasprintf("%s%.*s", q ? "\"" : "", (int)(n - at - 2), s + at + 2);
	return true;
}

/* Whether the name at r is a logger the file makes: `var l =
 * log.New(os.Stderr, "", 0)` or `l := log.New(...)` (age's cmd). */
static bool go_logger_var(const fl_toks *t, size_t r)
{
	for (size_t k = 0; k + 5 < t->n; k++)
		if (go_same_tok(t, k, r) && k != r &&
		    (fl_tok_pch(t, k + 1) == '=' || fl_tok_is(t, k + 1, ":=")) &&
		    fl_tok_is(t, k + 2, "log") && fl_tok_pch(t, k + 3) == '.' && fl_tok_is(t, k + 4, "New") &&
		    fl_tok_pch(t, k + 5) == '(')
			return true;
	return false;
}

/* A helper of a plain message (no format; of a variadic one, a parameter
 * before its variadic one: np counts those):
 * `func errorExit(msg string) { os.Stderr.WriteString(msg + "\n");
 * os.Exit(2) }`, `func warn(msg string) { fmt.Fprintln(os.Stderr,
 * "tool: warning:", msg) }`, `func bad(what string) error { return
 * errors.New("bad " + what) }`: its string parameter printed, logged or
 * made an error, with any text around it (h filled; false when none). */
static bool go_plain_helper(const fl_toks *t, const size_t *m, size_t b, size_t e, const size_t *name,
			    const bool *str, size_t np, gohelp *h)
{
	for (size_t k = b + 1; k < e; k++) {
		if (t->v[k].kind != FL_TK_IDENT || fl_tok_pch(t, k + 1) != '(' || m[k + 1] == NONE ||
		    m[k + 1] >= e)
			continue;
		bool q = k >= 2 && fl_tok_pch(t, k - 1) == '.';
		size_t sb[MAX_ARGS], se[MAX_ARGS];
		size_t na = go_args(t, m, k + 1, sb, se), first = 0;
		int sink = GS_NONE;
		bool fmtf = false, println = false;
		if (q && fl_tok_is(t, k, "WriteString") && k >= 4 && fl_tok_is(t, k - 2, "Stderr") &&
		    fl_tok_is(t, k - 4, "os") && na == 1) {
			sink = GS_CONSOLE;
		} else if (q && fl_tok_is(t, k - 2, "fmt") && na >= 2 && go_is_stderr(t, sb[0], se[0]) &&
			   (fl_tok_is(t, k, "Fprintln") || fl_tok_is(t, k, "Fprint") || fl_tok_is(t, k, "Fprintf"))) {
			sink = GS_CONSOLE;
			first = 1;
			fmtf = fl_tok_is(t, k, "Fprintf");
			println = fl_tok_is(t, k, "Fprintln");
		} else if (q && (fl_tok_is(t, k - 2, "log") ||
				 (t->v[k - 2].kind == FL_TK_IDENT && (k < 3 || fl_tok_pch(t, k - 3) != '.') &&
				  (go_ends_f(t, k) || fl_tok_is(t, k, "Print") || fl_tok_is(t, k, "Println") ||
				   fl_tok_is(t, k, "Fatal") || fl_tok_is(t, k, "Fatalln")) &&
				  go_logger_var(t, k - 2)))) {
			/* the log package's functions, or a logger's methods */
			fmtf = go_ends_f(t, k);
			sink = fl_tok_is(t, k, "Fatal") || fl_tok_is(t, k, "Fatalln") || fl_tok_is(t, k, "Fatalf")
				       ? GS_FATAL
			       : fl_tok_is(t, k, "Print") || fl_tok_is(t, k, "Println") || fl_tok_is(t, k, "Printf")
				       ? GS_CONSOLE
				       : GS_NONE;
			println = fl_tok_is(t, k, "Println") || fl_tok_is(t, k, "Fatalln");
		} else if (!q && fl_tok_is(t, k, "panic") && na == 1) {
			sink = GS_PANIC;
		} else if (q && fl_tok_is(t, k - 2, "errors") && fl_tok_is(t, k, "New") && na == 1) {
			sink = GS_ERR;
		} else if (q && fl_tok_is(t, k - 2, "fmt") && fl_tok_is(t, k, "Errorf")) {
			sink = GS_ERR;
			fmtf = true;
		} else if (!q && na == 1 && go_error_type_name(t->src + t->v[k].off, t->v[k].len)) {
			/* a conversion to a string error type: restic's
			 * `Fatal(s string) error { return Wrap(fatalError(s),
			 * "Fatal") }` */
			sink = GS_ERR;
		}
		if (sink == GS_NONE || first >= na)
			continue;
		char *pre = NULL, *suf = NULL;
		size_t fi = NONE;
		if (fmtf) {
			/* "...%s...", msg */
			if (na != first + 2 || se[first] != sb[first] + 1 || se[first + 1] != sb[first + 1] + 1)
				continue;
			for (size_t p = 0; p < np && fi == NONE; p++)
				if (str[p] && name[p] != NONE && go_same_tok(t, sb[first + 1], name[p]) &&
				    go_split_format(t, sb[first], &pre, &suf))
					fi = p;
		} else {
			/* the operands: one holds the message, the others are
			 * literals (Println puts a space between them) */
			fl_buf bf = {0}, af = {0};
			bool ok = true;
			const char *sep = println ? " " : "";
			for (size_t a = first; a < na && ok; a++) {
				char *p0 = NULL, *s0 = NULL;
				size_t hit = NONE;
				for (size_t p = 0; p < np && hit == NONE && fi == NONE; p++)
					if (str[p] && name[p] != NONE &&
					    go_concat_param(t, sb[a], se[a], name[p], &p0, &s0))
						hit = p;
				if (hit != NONE) {
					fi = hit;
					if (p0)
						fl_buf_puts(&bf, p0);
					if (s0)
						fl_buf_puts(&af, s0);
					free(p0);
					free(s0);
				} else if (se[a] == sb[a] + 1 && t->v[sb[a]].kind == FL_TK_STRING) {
					fl_buf *o = fi == NONE ? &bf : &af;
					if (fi != NONE)
						fl_buf_puts(o, sep);
					fl_buf_put(o, fl_tok_str(t, &t->v[sb[a]]), t->v[sb[a]].slen);
					if (fi == NONE)
						fl_buf_puts(o, sep);
				} else {
					ok = false;
				}
			}
			if (ok && fi != NONE) {
				pre = bf.n ? fl_xstrdup(fl_buf_cstr(&bf)) : NULL;
				suf = af.n ? fl_xstrdup(fl_buf_cstr(&af)) : NULL;
			} else {
				fi = NONE;
			}
			fl_buf_free(&bf);
			fl_buf_free(&af);
		}
		if (fi == NONE) {
			free(pre);
			free(suf);
			continue;
		}
		h->sink = (uint8_t)sink;
		h->fi = (uint8_t)fi;
		h->plain = true;
		h->pre = pre;
		h->suf = suf;
		return true;
	}
	return false;
}

/* A maker of an error value from a string parameter of its own:
 * `func (p *Parser) langErr(pos Pos, feature string, langs ...LangVariant)
 * { p.errPass(LangError{Filename: p.f.Name, Pos: pos, Feature: feature,
 * Langs: langs}) }`: the type, the field the parameter fills and the
 * other fields given into h. */
static bool go_error_maker(const fl_toks *t, const size_t *m, size_t b, size_t e, const size_t *name,
			   const bool *str, size_t np, gohelp *h)
{
	for (size_t k = b + 1; k + 1 < e; k++) {
		if (t->v[k].kind != FL_TK_IDENT || fl_tok_pch(t, k + 1) != '{' || m[k + 1] == NONE ||
		    m[k + 1] >= e || !go_error_type_name(t->src + t->v[k].off, t->v[k].len))
			continue;
		size_t sb[16], se[16];
		size_t na = fl_tok_split_args(t, m, k + 1, sb, se, 16, NULL, 0), fi = NONE, fk = NONE;
		fl_buf given = {0};
		for (size_t a = 0; a < na; a++) {
			if (se[a] < sb[a] + 3 || t->v[sb[a]].kind != FL_TK_IDENT || fl_tok_pch(t, sb[a] + 1) != ':')
				continue;
			size_t p = NONE;
			for (size_t q = 0; q < np && se[a] == sb[a] + 3; q++)
				if (str[q] && name[q] != NONE && go_same_tok(t, sb[a] + 2, name[q]))
					p = q;
			if (p != NONE && fi == NONE) {
				fi = p;
				fk = sb[a];
				continue;
			}
			fl_buf_puts(&given, given.n ? "" : ",");
			fl_buf_put(&given, t->src + t->v[sb[a]].off, t->v[sb[a]].len);
			if (p != NONE) /* another parameter's field: Field=index */
				fl_buf_printf(&given, "=%zu", p);
			fl_buf_putc(&given, ',');
		}
		if (fi == NONE) {
			fl_buf_free(&given);
			continue;
		}
		h->sink = GS_ERR;
		h->plain = true;
		h->fi = (uint8_t)fi;
		h->tt = fl_tok_dup(t, k);
		h->tf = fl_tok_dup(t, fk);
		h->given = given.n ? fl_xstrdup(fl_buf_cstr(&given)) : NULL;
		fl_buf_free(&given);
		return true;
	}
	return false;
}

/* the function named at nm whose body is [b, e), if it is a maker of an
 * error value by a name that says error (a helper that is nothing else) */
static void go_maker_add(gotree *g, const fl_toks *t, const size_t *m, size_t nm, size_t b, size_t e,
			 const size_t *name, const bool *str, size_t np, bool method, const char *dir)
{
	gohelp h = {0};
	if (!go_errish_name(t->src + t->v[nm].off, t->v[nm].len) ||
	    !go_error_maker(t, m, b, e, name, str, np, &h))
		return;
	h.errish = true;
	h.name = fl_tok_dup(t, nm);
	h.dir = fl_xstrdup(dir);
	h.method = method;
	go_help_add(g, &h);
}

/* The helper named at token nm whose parameter list opens at j, if it is
 * one (added to g). */
void go_collect_helper(gotree *g, const fl_toks *t, const size_t *m, size_t nm,
			      size_t j, bool method, const char *dir, const go_imps *im)
{
	size_t name[MAX_ARGS], v;
	bool str[MAX_ARGS];
	size_t np = go_params(t, m, j, name, str, &v);
	size_t b = go_fn_body(t, m, m[j] + 1);
	if (b == NONE || m[b] == NONE)
		return;
	size_t e = m[b];
	gohelp h = {0};
	/* a plain helper by a name that says error (errorExit, warn, fail,
	 * usageErr): a method Set(name) returning errors.New("no such flag
	 * -" + name) is called with names, not messages */
	if (v == NONE && (!go_errish_name(t->src + t->v[nm].off, t->v[nm].len) ||
			  !go_plain_helper(t, m, b, e, name, str, np, &h))) {
		go_maker_add(g, t, m, nm, b, e, name, str, np, method, dir);
		return;
	}
	/* a variadic one that prints a message parameter of its own and
	 * goes over the rest (age's errorWithHint(error string, hints
	 * ...string) printing each hint after) is a plain helper too */
	if (v != NONE && v > 0 && go_errish_name(t->src + t->v[nm].off, t->v[nm].len))
		go_plain_helper(t, m, b, e, name, str, v, &h);
	if (v != NONE && (name[v] == NONE || v == 0) && !h.sink) {
		go_maker_add(g, t, m, nm, b, e, name, str, v, method, dir);
		return;
	}
	bool exits = false;
	int depth = 0;
	for (size_t k = b + 1; k < e; k++) {
		char c = fl_tok_pch(t, k);
		depth += c == '{' ? 1 : c == '}' ? -1 : 0;
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		/* it exits or panics, whatever happens (a statement of the
		 * body's own level) */
		if ((fl_tok_is(t, k, "panic") || fl_tok_is(t, k, "Exit")) &&
		    fl_tok_pch(t, k + 1) == '(' && depth == 0)
			exits = true;
		/* `args...` closing a call: the argument before it must be
		 * a string parameter, alone or joined to literals */
		if (h.sink || v == NONE || !go_same_tok(t, k, name[v]) || !fl_tok_is(t, k + 1, "...") ||
		    fl_tok_pch(t, k + 2) != ')' || m[k + 2] == NONE || k < 2 ||
		    fl_tok_pch(t, k - 1) != ',')
			continue;
		size_t open = m[k + 2];
		size_t sb[MAX_ARGS], se[MAX_ARGS];
		size_t na = go_args(t, m, open, sb, se), ai = NONE;
		for (size_t a = 1; a < na; a++)
			if (sb[a] == k)
				ai = a - 1;
		if (ai == NONE)
			continue;
		size_t fi = NONE;
		char *pre = NULL, *suf = NULL;
		for (size_t p = 0; p < np && fi == NONE; p++)
			if (str[p] && name[p] != NONE && go_concat_param(t, sb[ai], se[ai], name[p], &pre, &suf))
				fi = p;
		if (fi == NONE)
			continue;
		h.pre = pre;
		h.suf = suf;
		size_t q, cn;
		bool chain;
		int sink = go_fmt_callee(t, m, open, ai, &q, &cn, &chain);
		if (sink == GS_NONE || (sink == GS_FWD && go_same_tok(t, cn, nm))) {
			free(h.pre);
			free(h.suf);
			h.pre = h.suf = NULL;
			continue;
		}
		h.sink = (uint8_t)sink;
		h.fi = (uint8_t)fi;
		h.ffi = (uint8_t)ai;
		if (sink == GS_FWD) {
			h.fn = fl_tok_dup(t, cn);
			h.fq = q != NONE ? fl_tok_dup(t, q) : NULL;
			h.fq_pkg = q != NONE && go_imported(im, t->src + t->v[q].off, t->v[q].len);
			h.fq_chain = chain;
		}
	}
	if (!h.sink) {
		free(h.pre);
		free(h.suf);
		if (v != NONE)
			go_maker_add(g, t, m, nm, b, e, name, str, v, method, dir);
		return;
	}
	h.errish = exits || go_errish_name(t->src + t->v[nm].off, t->v[nm].len);
	h.name = fl_tok_dup(t, nm);
	h.dir = fl_xstrdup(dir);
	h.method = method;
	go_help_add(g, &h);
}

/* A byte scan: `func NAME(... string)` or `func (r T) NAME(...)` with NAME
 * a name that says error (go_errish_name) and a string among the
 * parameters: the file may declare a plain helper (go_plain_helper). */
bool go_may_plain_helper(const char *s, size_t n)
{
	const char *end = s + n;
	for (const char *p = s; (p = fl_memmem(p, (size_t)(end - p), "func ", 5)) != NULL;) {
		p += 5;
		if (p < end && *p == '(') { /* a receiver */
			const char *r = memchr(p, ')', (size_t)(end - p));
			if (!r)
				return false;
			p = r + 1;
			while (p < end && *p == ' ')
				p++;
		}
		const char *b = p;
		while (p < end && (fl_lx_class[(unsigned char)*p] & 1))
			p++;
		if (p == b || p >= end || *p != '(' || !go_errish_name(b, (size_t)(p - b)))
			continue;
		const char *c = memchr(p, ')', (size_t)(end - p));
		if (c && fl_memmem(p, (size_t)(c - p), "string", 6))
			return true;
	}
	return false;
}

bool go_dir_is(const char *dir, const char *s, size_t n)
{
	const char *b = strrchr(dir, '/');
	b = b ? b + 1 : dir;
	return strlen(b) == n && memcmp(b, s, n) == 0;
}

static int go_help_sink(const gotree *g, const gohelp *h, int depth);

/* The helper a call names: `name(` in folder dir (q NULL), `q.name(` of
 * an imported package q (pkg: a function of a folder named q) or of a
 * value (a method), a method called on a chain (chain).  The first
 * definition with a sink; *sink gets it. */
const gohelp *go_helper(const gotree *g, const char *name, const char *dir,
			       const char *q, size_t ql, bool pkg, bool chain, int *sink,
			       int depth)
{
	size_t k0;
	if (!g || depth > 6 || !fl_strmap_get(&g->idx, name, &k0))
		return NULL;
	for (size_t k = k0; k != NONE; k = g->v[k].next) {
		const gohelp *h = &g->v[k];
		bool ok;
		if (!q && !chain)
			ok = !h->method && strcmp(h->dir, dir) == 0;
		else if (pkg)
			ok = !h->method && go_dir_is(h->dir, q, ql);
		else /* a method; one of a plain message, of the package's
		      * own types (x.error("...") is any type's) */
			ok = h->method && (!h->plain || strcmp(h->dir, dir) == 0);
		if (!ok)
			continue;
		int s = go_help_sink(g, h, depth + 1);
		if (s != GS_NONE) {
			*sink = s;
			return h;
		}
	}
	return NULL;
}

/* what a helper does with its format, its forwards followed: GS_* */
static int go_help_sink(const gotree *g, const gohelp *h, int depth)
{
	if (h->sink != GS_FWD)
		return h->sink == GS_CONSOLE && !h->errish ? GS_WEAK : h->sink;
	int s = GS_NONE;
	const gohelp *to = go_helper(g, h->fn, h->dir, h->fq, h->fq ? strlen(h->fq) : 0,
				     h->fq_pkg, h->fq_chain, &s, depth);
	/* a forwarder whose name says no error (Debugf -> l.log, where log
	 * may exit for one level) reports only an error value it returns */
	if (to && to->fi == h->ffi)
		return h->errish ? (s == GS_WEAK ? GS_CONSOLE : s) : (s == GS_ERR ? s : GS_WEAK);
	/* a logger's method: x.Fatalf(format, args...) */
	if (h->fq || h->fq_chain) {
		char c = h->fn[0];
		size_t l = strlen(h->fn);
		if (h->ffi != 0 || l < 2 || h->fn[l - 1] != 'f')
			return GS_NONE;
		if (strncmp(h->fn, "Fatal", 5) == 0)
			return GS_FATAL;
		if (strncmp(h->fn, "Panic", 5) == 0)
			return GS_PANIC;
		if ((c == 'E' && strncmp(h->fn, "Error", 5) == 0) ||
		    (c == 'W' && strncmp(h->fn, "Warn", 4) == 0))
			return GS_CONSOLE;
		/* an error helper's logger: l.Printf("age: error: "+format,
		 * v...) in errorf */
		if (h->errish && strcmp(h->fn, "Printf") == 0)
			return GS_CONSOLE;
	}
	return GS_NONE;
}

