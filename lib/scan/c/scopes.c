/*
 * scopes.c — where a C / C++ site stands: the scope stack (namespaces,
 * classes, functions, blocks), the enclosing function's name and the
 * condition guarding a block or a statement.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

/* ---- scopes ------------------------------------------------------------------ */


scope *c_sk_push(sstack *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		s->v = fl_xrealloc(s->v, cap * sizeof *s->v);
		memset(s->v + s->cap, 0, (cap - s->cap) * sizeof *s->v);
		s->cap = cap;
	}
	scope *sc = &s->v[s->n++];
	memset(sc, 0, sizeof *sc);
	return sc;
}

/* guard of a `{` or a statement preceded by `)` of if/while */
bool c_cond_before(const ctx *c, size_t i, uint32_t *gb, uint32_t *ge)
{
	const fl_toks *t = c->t;
	if (i == 0 || !tk_p1(t, i - 1, ')'))
		return false;
	uint32_t o = c->mt[i - 1];
	if (o == NONE || o == 0 || o >= i - 1)
		return false;
	size_t kw = o - 1;
	if (tk_id(t, kw, "constexpr") && kw > 0)
		kw--;
	if (!tk_id(t, kw, "if") && !tk_id(t, kw, "while"))
		return false;
	/* `} while (x);` of a do-while is not a guard */
	if (tk_id(t, kw, "while") && kw > 0 && tk_p1(t, kw - 1, '}'))
		return false;
	*gb = o + 1;
	*ge = (uint32_t)(i - 1);
	return true;
}

/* The condition of the if whose else comes right before token i (a `{`
 * or a statement): `if (c) { ... } else {`, the last if of an else-if
 * chain.  Its block runs when that condition does not hold. */
bool c_else_cond(const ctx *c, size_t i, uint32_t *gb, uint32_t *ge)
{
	const fl_toks *t = c->t;
	if (i < 3 || !tk_id(t, i - 1, "else"))
		return false;
	if (tk_p1(t, i - 2, ';')) {
		/* `if (c) stmt; else`: back over the statement to its if */
		size_t k = i - 2;
		for (int n = 0; k > 0 && n < 256; n++) {
			k--;
			if (tk_p1(t, k, ';') || tk_p1(t, k, '{') || tk_p1(t, k, '}') || (t->v[k].flags & TF_DIR))
				return false;
			if (!is_close(t, k))
				continue;
			size_t o = c->mt[k];
			if (o == NONE || o >= k)
				return false;
			if (tk_p1(t, k, ')') && o > 0 && tk_id(t, o - 1, "if"))
				return c_cond_before(c, k + 1, gb, ge);
			k = o;
		}
		return false;
	}
	if (!tk_p1(t, i - 2, '}'))
		return false;
	uint32_t o = c->mt[i - 2];
	if (o == NONE || o >= i - 2)
		return false;
	return c_cond_before(c, o, gb, ge);
}

/* name chain ending at ident index k: returns first token index */
static size_t chain_start(const fl_toks *t, size_t k)
{
	size_t b = k;
	if (b > 0 && tk_p1(t, b - 1, '~'))
		b--;
	for (int guard = 0; guard < 64 && b >= 2 && tk_p(t, b - 1, "::"); guard++) {
		size_t p = b - 2;
		if (tk_p1(t, p, '>')) {
			int d = 0;
			size_t q = p, lim = 0;
			while (lim++ < 200) {
				if (tk_p1(t, q, '>'))
					d++;
				else if (tk_p(t, q, ">>"))
					d += 2;
				else if (tk_p1(t, q, '<'))
					d--;
				if (d <= 0 || q == 0)
					break;
				q--;
			}
			if (d != 0 || q == 0)
				break;
			p = q - 1;
		}
		if (t->v[p].kind != FL_TK_IDENT)
			break;
		b = p;
	}
	return b;
}

/* A K&R definition's name before the `{` at i: `name (a, b) int a; char
 * *b; {` -- the parameters' declarations (names, `*`, `,`, array sizes)
 * back to a `)` whose list holds names only, after the function's name.
 * Old C trees (bash, parts of GNU) define their functions so.  Its
 * index, else NONE. */
size_t c_knr_name(const ctx *c, size_t i)
{
	const fl_toks *t = c->t;
	if (i < 4 || !tk_p1(t, i - 1, ';'))
		return NONE;
	size_t k = i - 1;
	for (int n = 0; n < 256 && k > 0; n++) {
		k--;
		if (t->v[k].flags & TF_DIR)
			return NONE;
		if (t->v[k].kind == FL_TK_IDENT || tk_p1(t, k, '*') || tk_p1(t, k, ',') ||
		    tk_p1(t, k, ';') || tk_p1(t, k, '[') || tk_p1(t, k, ']') ||
		    t->v[k].kind == FL_TK_NUMBER)
			continue;
		if (!tk_p1(t, k, ')'))
			return NONE;
		size_t o = c->mt[k];
		if (o == NONE || o == 0 || o >= k || t->v[o - 1].kind != FL_TK_IDENT ||
		    tk_p1(t, k + 1, ';'))
			return NONE;
		bool names = false;
		for (size_t q = o + 1; q < k; q++) {
			if (t->v[q].kind == FL_TK_IDENT)
				names = true;
			else if (!tk_p1(t, q, ','))
				return NONE;
		}
		return names ? o - 1 : NONE;
	}
	return NONE;
}

/* Decide what a `{` at index i opens in a non-function scope. */
void c_analyze_brace(const ctx *c, size_t ss, size_t i, scope *sc)
{
	const fl_toks *t = c->t;
	size_t knr = c_knr_name(c, i);
	if (knr != NONE) {
		sc->kind = SK_FUNC;
		sc->nb = (uint32_t)knr;
		sc->ne = (uint32_t)knr + 1;
		return;
	}
	size_t cand = NONE;
	bool ns = false, ext = false, en = false, clskw = false, eq = false,
	     stop = false;
	size_t prev = NONE;
	if (i - ss > 100000)
		ss = i - 100000;
	for (size_t k = ss; k < i; k++) {
		if (t->v[k].flags & TF_DIR)
			continue;
		if (is_open(t, k)) {
			if (tk_p1(t, k, '(') && prev != NONE && !stop) {
				if (t->v[prev].kind == FL_TK_IDENT &&
				    !c_attr_like(t, prev)) {
					bool up = all_upper(t->src + t->v[prev].off,
							    t->v[prev].len);
					if (cand == NONE || !up)
						cand = prev;
				} else if (t->v[prev].kind == FL_TK_PUNCT) {
					for (size_t q = prev; q + 4 > prev && q > ss; q--)
						if (tk_id(t, q - 1, "operator")) {
							cand = q - 1;
							break;
						}
				}
			}
			if (c->mt[k] == NONE || c->mt[k] <= k || c->mt[k] >= i)
				break;
			k = c->mt[k];
			prev = k;
			continue;
		}
		if (t->v[k].kind == FL_TK_IDENT) {
			if (tk_id(t, k, "namespace"))
				ns = true;
			else if (tk_id(t, k, "enum"))
				en = true;
			else if (tk_id(t, k, "extern") &&
				 k + 1 < t->n && t->v[k + 1].kind == FL_TK_STRING)
				ext = true;
			else if ((tk_id(t, k, "class") || tk_id(t, k, "struct") ||
				  tk_id(t, k, "union")) &&
				 !(prev != NONE && (tk_p1(t, prev, '<') ||
						    tk_p1(t, prev, ','))))
				clskw = true;
		} else if (tk_p1(t, k, '=')) {
			if (cand == NONE)
				eq = true;
		} else if ((tk_p1(t, k, ':') || tk_p(t, k, "->")) &&
			   cand != NONE) {
			stop = true;
		}
		prev = k;
	}
	if (ns) {
		sc->kind = SK_NS;
	} else if (ext && cand == NONE) {
		sc->kind = SK_EXTERN;
	} else if (en || eq) {
		sc->kind = SK_OTHER;
	} else if (cand != NONE) {
		sc->kind = SK_FUNC;
		sc->nb = (uint32_t)chain_start(t, cand);
		sc->ne = (uint32_t)cand + 1;
		if (tk_id(t, cand, "operator")) {
			size_t q = cand + 1;
			while (q < i && !tk_p1(t, q, '(') && q - cand < 4)
				q++;
			sc->ne = (uint32_t)q;
		}
	} else if (clskw) {
		sc->kind = SK_CLASS;
		/* name: last identifier before ':' / '{', skipping `final` */
		size_t name = NONE;
		for (size_t k = ss; k < i; k++) {
			if (t->v[k].flags & TF_DIR)
				continue;
			if (tk_p1(t, k, ':'))
				break;
			if (t->v[k].kind == FL_TK_IDENT && !tk_id(t, k, "final") &&
			    !tk_id(t, k, "class") && !tk_id(t, k, "struct") &&
			    !tk_id(t, k, "union"))
				name = k;
			if (is_open(t, k) && c->mt[k] != NONE && c->mt[k] > k &&
			    c->mt[k] < i)
				k = c->mt[k];
		}
		if (name != NONE) {
			sc->nb = (uint32_t)name;
			sc->ne = (uint32_t)name + 1;
		}
	} else {
		sc->kind = SK_OTHER;
	}
}

/* raw text of tokens [b, e) joined, skipping template argument lists */
void c_put_name(const fl_toks *t, size_t b, size_t e, fl_buf *out)
{
	int angle = 0;
	for (size_t k = b; k < e; k++) {
		if (tk_p1(t, k, '<')) {
			angle++;
			continue;
		}
		if (angle > 0) {
			if (tk_p1(t, k, '>'))
				angle--;
			else if (tk_p(t, k, ">>"))
				angle -= 2;
			continue;
		}
		fl_buf_put(out, t->src + t->v[k].off, t->v[k].len);
	}
}

char *c_func_name(const fl_toks *t, const sstack *s)
{
	size_t f = NONE;
	for (size_t k = s->n; k-- > 0;)
		if (s->v[k].kind == SK_FUNC) {
			f = k;
			break;
		}
	if (f == NONE || s->v[f].nb >= s->v[f].ne)
		return NULL;
	fl_buf out = {0};
	for (size_t k = 0; k < f; k++) {
		if (s->v[k].kind == SK_CLASS && s->v[k].nb < s->v[k].ne) {
			c_put_name(t, s->v[k].nb, s->v[k].ne, &out);
			fl_buf_puts(&out, "::");
		}
	}
	c_put_name(t, s->v[f].nb, s->v[f].ne, &out);
	fl_buf_cstr(&out);
	return out.s;
}
