/*
 * guard.c — a Rust site's guard and its emitting (rust.h): the guard is the
 * block's (an if's condition, both when an if is right inside another's,
 * an else's or a let-else's negated), a match arm's pattern (`None` and
 * `Err(..)` as the scrutinee's x.is_none() / x.is_err()), or the site's
 * own: an assertion's failing condition, the failure of the receiver an
 * error is made from (x.ok_or_else(|| ...), x.context(...)).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "rust.h"

/* The failing condition of a pattern test `let PAT = EXPR`, tokens
 * [b, e) after the `let`: "!matches!(EXPR, PAT)"; NULL when it is not one
 * plain test (a chain with && or ||, a typed pattern). */
static char *rs_let_not(const rs_st *st, size_t b, size_t e)
{
	const fl_toks *t = st->t;
	size_t eq = NONE;
	for (size_t k = b; k < e; k++) {
		char c = fl_tok_pch(t, k);
		if ((c == '(' || c == '[' || c == '{') && st->m[k] != NONE && st->m[k] < e) {
			k = st->m[k];
			continue;
		}
		if (fl_tok_is_punct(t, k, "&&") || fl_tok_is_punct(t, k, "||") ||
		    fl_tok_is_ident(t, k, "let") || fl_tok_is_punct(t, k, ":"))
			return NULL;
		if (fl_tok_is_punct(t, k, "=")) {
			if (eq != NONE)
				return NULL;
			eq = k;
		}
	}
	if (eq == NONE || eq == b || eq + 1 >= e)
		return NULL;
	char *pat = fl_tok_span_text(t, b, eq, 200);
	char *x = fl_tok_span_text(t, eq + 1, e, 200);
	/* `let Some(v) = x else`: x is None; `let Ok(v) = x else`: x failed */
	bool some = eq >= b + 3 && fl_tok_is_ident(t, b, "Some") && fl_tok_pch(t, b + 1) == '(' &&
		    st->m[b + 1] == eq - 1;
	bool ok = eq >= b + 3 && fl_tok_is_ident(t, b, "Ok") && fl_tok_pch(t, b + 1) == '(' &&
		  st->m[b + 1] == eq - 1;
	char *g = some || ok ? fl_xasprintf("%s.%s()", x, some ? "is_none" : "is_err")
			     : fl_xasprintf("!matches!(%s, %s)", x, pat);
	free(pat);
	free(x);
	return g;
}

/* Context x is an if's block (an `if let`'s too: its binding holds; not
 * a while's or a match arm's) or its else's. */
static bool plain_if(const rs_st *st, const rs_ctx *x)
{
	return x->has_guard && !x->guard_arm && x->gb >= 1 && x->gb < x->ge &&
	       fl_tok_is_ident(st->t, x->gb - 1, "if");
}

/* The guard of a match arm whose pattern is [gb, ge) in context c: for
 * `None` and `Err(..)` (a binding or `_` inside), the scrutinee's failure,
 * `x.is_none()` / `x.is_err()`, which says what failed; else the pattern. */
static char *arm_guard(const rs_st *st, const rs_ctx *c, size_t gb, size_t ge, bool *stated)
{
	const fl_toks *t = st->t;
	if (gb == NONE || gb >= ge)
		return NULL;
	/* `P if cond =>`: the arm's own condition says more than its pattern */
	for (size_t k = gb + 1; k + 1 < ge; k++) {
		char ch = fl_tok_pch(t, k);
		if ((ch == '(' || ch == '[' || ch == '{') && st->m[k] != NONE && st->m[k] < ge) {
			k = st->m[k];
			continue;
		}
		if (fl_tok_is_ident(t, k, "if")) {
			*stated = true;
			return fl_tok_span_text(t, k + 1, ge, 200);
		}
	}
	/* an expression arm's match is c; a block arm keeps its match's
	 * scrutinee (rs_ctx_push) */
	size_t sb = c->sb, se = c->se;
	if (sb != NONE && se > sb && se - sb <= 40) {
		bool none = ge == gb + 1 && fl_tok_is_ident(t, gb, "None");
		bool err = ge >= gb + 3 && ge <= gb + 5 && fl_tok_is_ident(t, gb, "Err") &&
			   fl_tok_pch(t, gb + 1) == '(' && st->m[gb + 1] == ge - 1;
		if (none || err) {
			char *x = fl_tok_span_text(t, sb, se, 200);
			char *g = fl_xasprintf("%s.%s()", x, none ? "is_none" : "is_err");
			free(x);
			*stated = true;
			return g;
		}
	}
	return fl_tok_span_text(t, gb, ge, 200);
}

void rs_emit(rs_st *st, size_t at, const char *msg, const char *code,
	     const char *cls, const char *type, const char *sev,
		 const char *idiom, size_t gb, size_t ge)
{
	if (msg && *msg && !rs_has_text(msg))
		msg = NULL;
	if (((!msg || !*msg) && !code) || !st->out)
		return;
	const fl_toks *t = st->t;
	rs_ctx *c = &st->cs[st->csn - 1];
	bool arm = false, neg = false, block = false;
	if (gb == NONE) {
		if (c->is_match && c->arm == 1) {
			gb = c->ab;
			ge = c->ae;
			arm = !st->guard;
		} else if (c->has_guard) {
			gb = c->gb;
			ge = c->ge;
			arm = c->guard_arm && !st->guard;
			neg = c->neg;
			block = !st->guard;
		}
	}
	bool stated = false; /* the arm's pattern as its scrutinee's test */
	char *guard = st->guard			     ? fl_xstrdup(st->guard)
		      : arm ? arm_guard(st, c, gb, ge, &stated)
		      : (gb != NONE && gb < ge) ? fl_tok_span_text(t, gb, ge, 200)
						 : NULL;
	if (stated)
		arm = false;
	if (guard && neg && !st->guard) {
		/* `if let P = x { } else {`: x does not match P */
		char *g = fl_tok_is_ident(t, gb, "let") ? rs_let_not(st, gb + 1, ge)
							 : fl_guard_not(guard, false);
		free(guard);
		guard = g;
	}
	/* an if (or else) right inside another if's block: both hold */
	const rs_ctx *o = st->csn >= 2 ? &st->cs[st->csn - 2] : NULL;
	if (guard && block && plain_if(st, c) && o && plain_if(st, o))
		guard = fl_guard_nest(fl_guard_span(t, o->gb, o->ge, o->neg, false), guard, false);
	fl_site s = {
		.line = t->v[at].line,
		.col = t->v[at].col,
		.message = msg,
		.code = code,
		.cls = cls,
		.type = type,
		.severity = sev,
		.function = c->fn,
		.guard = guard,
		.arm = arm,
		.idiom = idiom,
	};
	fl_site_add(st->out, &s);
	free(guard);
}

/* rs_emit() with the site's own guard g (owned; NULL: its context's, as
 * rs_emit finds it): st->guard holds g for that one site */
void rs_emit_guarded(rs_st *st, size_t at, const char *msg, const char *cls, const char *type,
		     const char *sev, const char *idiom, char *g)
{
	st->guard = g;
	rs_emit(st, at, msg, NULL, cls, type, sev, idiom, NONE, NONE);
	st->guard = NULL;
	free(g);
}

/* ---- receivers --------------------------------------------------------------- */

/* the keywords a receiver does not reach back past */
static const char *const kw_stop[] = {
	"let", "return", "if", "else", "match", "while", "for", "in", "mut",
	"move", "ref", "as", "break", "loop", "unsafe", "async", "const",
	"static", "fn", "pub", "where", "impl", "dyn", "box", "yield", NULL};

/* receiver expression ending before token end (exclusive); returns start */
size_t rs_receiver(const rs_st *st, size_t end)
{
	const fl_toks *t = st->t;
	size_t b = end;
	for (int steps = 0; b > 0 && steps < 64; steps++) {
		size_t k = b - 1;
		const fl_tok *tk = &t->v[k];
		char c = fl_tok_pch(t, k);
		if (c == ')' || c == ']') {
			if (st->m[k] == NONE)
				break;
			b = st->m[k];
			continue;
		}
		if (tk->kind == FL_TK_IDENT) {
			if (rs_in_list(t, k, kw_stop))
				break;
			b = k;
			continue;
		}
		if (tk->kind == FL_TK_STRING || tk->kind == FL_TK_NUMBER ||
		    tk->kind == FL_TK_CHAR || c == '.' || c == '?' ||
		    fl_tok_is_punct(t, k, "::")) {
			b = k;
			continue;
		}
		if (c == '>' && k >= 2) {
			/* turbofish ::<T> */
			size_t j = k;
			int d = 0, lim = 0;
			while (j > 0 && lim++ < 16) {
				if (fl_tok_pch(t, j) == '>')
					d++;
				else if (fl_tok_pch(t, j) == '<' && --d == 0)
					break;
				j--;
			}
			if (fl_tok_pch(t, j) == '<' && d == 0 && j > 0 &&
			    fl_tok_is_punct(t, j - 1, "::")) {
				b = j - 1;
				continue;
			}
		}
		break;
	}
	while (b < end && (fl_tok_pch(t, b) == '.' || fl_tok_is_punct(t, b, "::")))
		b++;
	return b;
}

/* Option methods of the standard library: a receiver ending in one of
 * these calls holds an Option, whose failure is None */
static const char *const option_calls[] = {
	"get", "get_mut", "first", "last", "next", "next_back", "pop", "find",
	"find_map", "position", "rposition", "parent", "file_name", "file_stem",
	"extension", "to_str", "strip_prefix", "strip_suffix", "split_once",
	"rsplit_once", "checked_add", "checked_sub", "checked_mul", "checked_div",
	"peek", "nth", "max", "min", "max_by_key", "min_by_key", "get_key_value",
	"home_dir", "var_os", "and_then", NULL};

/* the guard of an error made from the receiver [rb, dot) of .context(),
 * .ok_or_else(|| ...) or .map_err(|e| ...): the receiver failed, as
 * `x.is_none()` for an Option (ok_or, or a receiver ending in one of
 * option_calls) and `x.is_err()` for a Result; NULL when it has none */
char *rs_recv_guard(const rs_st *st, size_t rb, size_t dot, bool option)
{
	const fl_toks *t = st->t;
	if (rb == NONE || rb >= dot)
		return NULL;
	/* a call's result; not a value already an error (`err.context(..)`,
	 * `Err(e).with_context(..)`): the context is added unconditionally */
	if (fl_tok_pch(t, dot - 1) != ')' || (fl_tok_is_ident(t, rb, "Err") && st->m[rb + 1] == dot - 1) ||
	    (rb > 0 && fl_tok_pch(t, rb - 1) == '!') || (rb + 1 < dot && fl_tok_pch(t, rb + 1) == '!'))
		return NULL;
	if (!option && dot >= rb + 3 && fl_tok_pch(t, dot - 1) == ')' && st->m[dot - 1] != NONE &&
	    st->m[dot - 1] >= rb + 2 && fl_tok_pch(t, st->m[dot - 1] - 2) == '.') {
		size_t name = st->m[dot - 1] - 1;
		for (const char *const *l = option_calls; *l && !option; l++)
			option = fl_tok_is_ident(t, name, *l);
	}
	char *r = fl_tok_span_text(t, rb, dot, 200);
	/* a chain broken over lines (`builder\n    .add(p)`) reads as one */
	char *w = r;
	for (const char *p = r; *p; p++)
		if (!(p[0] == ' ' && p[1] == '.' && (p[2] == '_' || (p[2] >= 'a' && p[2] <= 'z'))))
			*w++ = *p;
	*w = '\0';
	char *g = fl_xasprintf("%s.%s()", r, option ? "is_none" : "is_err");
	free(r);
	return g;
}

/* anyhow!/format_err!/eyre! at i (the macro's name) as the error of a
 * failed Option or Result: x.ok_or_else(|| anyhow!(...)),
 * x.ok_or(anyhow!(...)), x.map_err(|e| anyhow!(...)), a block around
 * the macro allowed; the receiver's guard (rs_recv_guard), or NULL */
char *rs_closure_recv_guard(const rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t k = i;
	while (k >= 2 && fl_tok_is_punct(t, k - 1, "::") && t->v[k - 2].kind == FL_TK_IDENT)
		k -= 2;
	if (k >= 1 && fl_tok_pch(t, k - 1) == '{')
		k--;
	bool closure = false;
	if (k >= 1 && fl_tok_is_punct(t, k - 1, "||")) {
		k--;
		closure = true;
	} else if (k >= 3 && fl_tok_is_punct(t, k - 1, "|") && fl_tok_is_punct(t, k - 3, "|")) {
		k -= 3;
		closure = true;
	}
	if (closure && k >= 1 && fl_tok_is_ident(t, k - 1, "move"))
		k--;
	if (k < 3 || fl_tok_pch(t, k - 1) != '(' || fl_tok_pch(t, k - 3) != '.')
		return NULL;
	size_t name = k - 2;
	bool option = fl_tok_is_ident(t, name, closure ? "ok_or_else" : "ok_or");
	if (!option && !(closure && fl_tok_is_ident(t, name, "map_err")))
		return NULL;
	return rs_recv_guard(st, rs_receiver(st, k - 3), k - 3, option);
}
