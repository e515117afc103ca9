/*
 * context.c — the Rust family's context stack (rust.h): what each block
 * is, announced by what comes before its '{' (fn, impl and trait, an
 * error type's `impl Display`, enum, if / while, match, a test attribute)
 * and read at it: the enclosing fn and type, a guard (an if's condition,
 * an else's or a let-else's failing one, a match arm's pattern), a match's
 * arms as they are walked, a test's code skipped.  Attributes that are
 * rules (#[error], #[body]) are handed to theirs.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "rust.h"

/* what a block announced before its '{' is (rs_pend's kind) */
enum { P_GUARD, P_FN, P_IMPL, P_IMPL_DISPLAY, P_ENUM, P_MATCH, P_TEST };

static void pend_add(rs_st *st, size_t brace, int kind, char *name, size_t gb,
		     size_t ge)
{
	if (brace == NONE || st->np >= MAX_PEND) {
		free(name);
		return;
	}
	rs_pend *p = &st->pend[st->np++];
	p->brace = brace;
	p->kind = kind;
	p->name = name;
	p->gb = gb;
	p->ge = ge;
}

/* first '{' of the body after tokens starting at from, or NONE */
static size_t rs_find_body(const rs_st *st, size_t from)
{
	const fl_toks *t = st->t;
	size_t k = from;
	for (int steps = 0; k < t->n && steps < SCAN_LIMIT; steps++) {
		char c = fl_tok_pch(t, k);
		if (c == '{')
			return k;
		if (c == '(' || c == '[') {
			if (st->m[k] == NONE)
				return NONE;
			k = st->m[k] + 1;
			continue;
		}
		if (c == ';' || c == '}' || c == ')' || c == ']' ||
		    fl_tok_is_punct(t, k, "=>"))
			return NONE;
		k++;
	}
	return NONE;
}

void rs_ctx_push(rs_st *st, size_t k)
{
	if (st->csn == st->csc) {
		st->csc = st->csc ? st->csc * 2 : 64;
		st->cs = fl_xrealloc(st->cs, st->csc * sizeof *st->cs);
	}
	rs_ctx *par = &st->cs[st->csn - 1];
	rs_ctx c = {0};
	c.open = k;
	c.fn = par->fn;
	c.fn_tok = par->fn_tok;
	c.test = par->test;
	c.display = par->display;
	c.arm_start = c.ab = c.ae = c.inner_close = c.arm_body = NONE;
	c.sb = c.se = NONE;
	if (par->is_match && par->arm == 1 && par->arm_body == k) {
		c.has_guard = true;
		c.gb = par->ab;
		c.ge = par->ae;
		c.guard_arm = true;
		c.sb = par->sb;
		c.se = par->se;
	}
	size_t w = 0;
	for (size_t i = 0; i < st->np; i++) {
		rs_pend *p = &st->pend[i];
		if (p->brace > k) {
			st->pend[w++] = *p;
			continue;
		}
		if (p->brace == k) {
			switch (p->kind) {
			case P_GUARD:
				c.has_guard = true;
				c.gb = p->gb;
				c.ge = p->ge;
				c.guard_arm = false;
				break;
			case P_FN:
				free(c.own_fn);
				if (par->type)
					c.own_fn = fl_xjoin(par->type, "::", p->name);
				else
					c.own_fn = fl_xstrdup(p->name);
				c.fn = c.own_fn;
				c.fn_tok = p->gb;
				if (st->part && !par->type)
					rs_note_error_factory(st, p->gb, k);
				break;
			case P_IMPL:
			case P_IMPL_DISPLAY:
				free(c.type);
				c.type = p->name;
				p->name = NULL;
				c.fn = NULL;
				c.fn_tok = 0;
				c.display = p->kind == P_IMPL_DISPLAY ? c.type : NULL;
				break;
			case P_ENUM:
				free(c.enm);
				c.enm = p->name;
				p->name = NULL;
				break;
			case P_MATCH:
				c.is_match = true;
				c.sb = p->gb;
				c.se = p->ge;
				break;
			case P_TEST:
				c.test = true;
				break;
			}
		}
		free(p->name);
	}
	st->np = w;
	/* `} else {`: the block runs when the if's condition (the last of an
	 * else-if chain) does not hold */
	const fl_toks *t = st->t;
	if (!c.has_guard && k >= 2 && fl_tok_is_ident(t, k - 1, "else") &&
	    fl_tok_pch(t, k - 2) == '}' && st->m[k - 2] != NONE &&
	    st->m[k - 2] == st->if_open) {
		c.has_guard = true;
		c.neg = true;
		c.gb = st->if_gb;
		c.ge = st->if_ge;
	} else if (!c.has_guard && k >= 4 && fl_tok_is_ident(t, k - 1, "else") &&
		   fl_tok_pch(t, k - 2) != '}') {
		/* let-else, `let P = x else {`: the block runs when x does not
		 * match P (the guard is `let P = x`, stated by rs_emit) */
		size_t j = k - 2;
		for (int steps = 0; j > 0 && steps < SCAN_LIMIT; steps++) {
			char ch = fl_tok_pch(t, j);
			if ((ch == ')' || ch == ']' || ch == '}') && st->m[j] != NONE && st->m[j] < j) {
				j = st->m[j] - 1;
				continue;
			}
			if (ch == ';' || ch == '{' || ch == '(' || ch == '[' || ch == ')' ||
			    ch == ']' || ch == '}' || fl_tok_is_ident(t, j, "let"))
				break;
			j--;
		}
		if (fl_tok_is_ident(t, j, "let") && j + 2 < k - 1) {
			c.has_guard = true;
			c.neg = true;
			c.gb = j;
			c.ge = k - 1;
		}
	}
	st->cs[st->csn++] = c;
}

void rs_ctx_free(rs_ctx *c)
{
	free(c->own_fn);
	free(c->type);
	free(c->enm);
}

void rs_ctx_pop(rs_st *st, size_t k)
{
	size_t o = st->m[k];
	if (o == NONE)
		return;
	st->if_open = NONE;
	while (st->csn > 1 && st->cs[st->csn - 1].open >= o) {
		rs_ctx *c = &st->cs[--st->csn];
		size_t open = c->open;
		if (open == o && c->has_guard && !c->guard_arm && !c->neg &&
		    c->gb > 0 && fl_tok_is_ident(st->t, c->gb - 1, "if")) {
			st->if_open = o;
			st->if_gb = c->gb;
			st->if_ge = c->ge;
		}
		rs_ctx_free(c);
		rs_ctx *par = &st->cs[st->csn - 1];
		if (par->is_match && par->arm == 1 && par->arm_body == open) {
			par->arm = 0;
			par->arm_start = NONE;
		}
	}
}

/* #[cfg(test)] / #[test] / #[tokio::test] at '#' i ('[' at i+1) */
static bool is_test_attr(const rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t cl = st->m[i + 1];
	if (cl == NONE)
		return false;
	size_t k = i + 2;
	if (fl_tok_is_ident(t, k, "cfg") && fl_tok_pch(t, k + 1) == '(') {
		bool test = false;
		for (size_t j = k + 2; j < cl && j < k + 64; j++) {
			if (fl_tok_is_ident(t, j, "not"))
				return false;
			if (fl_tok_is_ident(t, j, "test"))
				test = true;
		}
		return test;
	}
	/* path ending in test */
	while (k + 1 < cl && t->v[k].kind == FL_TK_IDENT && fl_tok_is_punct(t, k + 1, "::"))
		k += 2;
	return fl_tok_is_ident(t, k, "test") && (k + 1 == cl || fl_tok_pch(t, k + 1) == '(');
}

/* match arm bookkeeping at token i (c: its punctuation) */
void rs_track_arm(rs_st *st, size_t i, char c)
{
	const fl_toks *t = st->t;
	rs_ctx *top = &st->cs[st->csn - 1];
	if (!top->is_match)
		return;
	if (top->arm == 0) {
		if (fl_tok_is_punct(t, i, "=>")) {
			top->arm = 1;
			top->ab = top->arm_start;
			top->ae = i;
			top->inner_close = NONE;
			top->arm_body = fl_tok_pch(t, i + 1) == '{' ? i + 1 : NONE;
			/* `Self::Eof => "unexpected end of input",` in an
			 * error's Display: a phrase, not a fragment */
			if (top->display && i + 2 < t->n &&
			    t->v[i + 1].kind == FL_TK_STRING &&
			    (fl_tok_pch(t, i + 2) == ',' || fl_tok_pch(t, i + 2) == '}') &&
			    memchr(fl_tok_str(t, &t->v[i + 1]), ' ', t->v[i + 1].slen))
				rs_display_literal_arm(st, i + 1);
		} else if (top->arm_start == NONE && c != ',' && c != '}') {
			top->arm_start = i;
		}
	} else {
		bool outside = top->inner_close == NONE || i > top->inner_close;
		if ((c == '(' || c == '[') && outside)
			top->inner_close = st->m[i] == NONE ? t->n : st->m[i];
		else if (c == ',' && outside) {
			top->arm = 0;
			top->arm_start = NONE;
		}
	}
}

/* the first letters of the keywords rs_track_keyword follows (fn, impl,
 * trait, enum, if, while, match) */
static const bool kw_first[256] = {
	['f'] = true, ['i'] = true, ['t'] = true, ['e'] = true, ['w'] = true, ['m'] = true,
};

/* fn / impl / trait / enum / if / while / match at the identifier i: what
 * the context of their body will be */
void rs_track_keyword(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	const fl_tok *k = &t->v[i];
	if (k->len < 2 || k->len > 5 || !kw_first[(unsigned char)t->src[k->off]])
		return;
	if (fl_tok_is(t, i, "fn") && i + 1 < t->n && t->v[i + 1].kind == FL_TK_IDENT) {
		size_t j = i + 2;
		if (fl_tok_pch(t, j) == '<') {
			int d = 0, lim = 0;
			for (; j < t->n && lim < SCAN_LIMIT; j++, lim++) {
				if (fl_tok_pch(t, j) == '<')
					d++;
				else if (fl_tok_pch(t, j) == '>' && --d == 0) {
					j++;
					break;
				}
			}
		}
		if (fl_tok_pch(t, j) == '(' && st->m[j] != NONE) {
			size_t b = rs_find_body(st, st->m[j] + 1);
			pend_add(st, b, P_FN, fl_tok_dup(t, i + 1), i + 1, 0);
		}
	} else if (fl_tok_is(t, i, "impl") || fl_tok_is(t, i, "trait")) {
		bool usage = i > 0 && (fl_tok_is_punct(t, i - 1, "->") ||
				       fl_tok_pch(t, i - 1) == ':' || fl_tok_pch(t, i - 1) == '(' ||
				       fl_tok_pch(t, i - 1) == ',' || fl_tok_pch(t, i - 1) == '<' ||
				       fl_tok_pch(t, i - 1) == '=' || fl_tok_pch(t, i - 1) == '&');
		if (!usage) {
			size_t b = rs_find_body(st, i + 1);
			if (b != NONE) {
				char *ty = rs_impl_type(st, i, b);
				pend_add(st, b, rs_display_of_error(st, i, b, ty) ? P_IMPL_DISPLAY : P_IMPL,
					 ty, 0, 0);
			}
		}
	} else if (fl_tok_is(t, i, "enum") && i + 1 < t->n && t->v[i + 1].kind == FL_TK_IDENT) {
		size_t b = rs_find_body(st, i + 2);
		pend_add(st, b, P_ENUM, fl_tok_dup(t, i + 1), 0, 0);
	} else if (fl_tok_is(t, i, "if") || fl_tok_is(t, i, "while")) {
		size_t b = rs_find_body(st, i + 1);
		if (b != NONE && b > i + 1)
			pend_add(st, b, P_GUARD, NULL, i + 1, b);
	} else if (fl_tok_is(t, i, "match")) {
		size_t b = rs_find_body(st, i + 1);
		if (b != NONE && b > i + 1)
			pend_add(st, b, P_MATCH, NULL, i + 1, b);
		else
			pend_add(st, b, P_MATCH, NULL, NONE, NONE);
	}
}

/* `#![...]` / `#[...]` at '#' i: test attributes, #[error(...)], #[body] */
void rs_track_attr(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	const rs_ctx *top = &st->cs[st->csn - 1];
	if (fl_tok_pch(t, i + 1) == '!' && fl_tok_pch(t, i + 2) == '[' && is_test_attr(st, i + 1)) {
		st->file_test = true;
		return;
	}
	if (fl_tok_pch(t, i + 1) != '[' || st->m[i + 1] == NONE)
		return;
	if (is_test_attr(st, i)) {
		size_t j = st->m[i + 1] + 1;
		for (int s = 0; s < 16 && fl_tok_pch(t, j) == '#' && fl_tok_pch(t, j + 1) == '[' &&
				st->m[j + 1] != NONE;
		     s++)
			j = st->m[j + 1] + 1;
		size_t b = rs_find_body(st, j);
		pend_add(st, b, P_TEST, NULL, 0, 0);
	} else if (!top->test && !st->file_test && fl_tok_is_ident(t, i + 2, "error") &&
		   fl_tok_pch(t, i + 3) == '(') {
		rs_rule_thiserror(st, i);
	} else if (!top->test && !st->file_test && fl_tok_is_ident(t, i + 2, "body")) {
		rs_rule_status_body(st, i);
	}
}
