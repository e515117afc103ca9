/*
 * walk.c — the frames of the JavaScript / TypeScript walk (js.h): what each
 * block is (a function and its class, a class body, an if's or an else's
 * block) and so a site's function and guard (its if, its switch's case);
 * the emitting of a site, and the argument codes dropped when they are
 * categories; a statement's end, a construction `new X(...)`.  The walk
 * itself is rules.c's js_rules.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "js.h"
#include "../sites.h"

/* ---- frames (enclosing function / guard) ---------------------------------- */

bool js_is_ctl_kw(const ctx *c, size_t i)
{
	static const char *const kw[] = {
		"if", "for", "while", "switch", "catch", "with", "function",
		"return", "typeof", "await", "new", "else", "do", "try",
		"super", "import", NULL};
	if (!is_kind(c, i, FL_TK_IDENT))
		return true;
	for (const char *const *k = kw; *k; k++)
		if (fl_tok_is(&c->t, i, *k))
			return true;
	return false;
}

static frame *top(ctx *c)
{
	return c->nfr ? &c->fr[c->nfr - 1] : NULL;
}

/* name of a function value whose first token is at q+1 (q = token before):
 * `name =`, `name:`, or NONE */
static size_t name_before(const ctx *c, size_t q)
{
	if (q == NONE || q >= c->t.n)
		return NONE;
	/* TS type parameters: const f = <E extends Env = Env>(...) => */
	if (is_p(c, q, ">")) {
		int depth = 0;
		size_t k = q;
		for (int n = 0; n < 64; n++, k--) {
			if (is_p(c, k, ">"))
				depth++;
			else if (is_p(c, k, "<") && --depth == 0)
				break;
			else if (is_p(c, k, ";") || is_p(c, k, "{") || is_p(c, k, "}") || k == 0)
				return NONE;
		}
		if (depth != 0 || k == 0)
			return NONE;
		q = k - 1;
	}
	if (is_id(c, q, "async") && q > 0)
		q--;
	if ((is_p(c, q, "=") || is_p(c, q, ":")) && q > 0 &&
	    (is_kind(c, q - 1, FL_TK_IDENT) || is_kind(c, q - 1, FL_TK_STRING)))
		return is_kind(c, q - 1, FL_TK_IDENT) ? q - 1 : NONE;
	return NONE;
}

/* find a ')' closing parameters before a '{' or '=>' at i (TS return types) */
static size_t params_close(const ctx *c, size_t i)
{
	if (i == 0)
		return NONE;
	if (is_p(c, i - 1, ")"))
		return i - 1;
	for (size_t k = i - 1, n = 0; k > 0 && n < 24; k--, n++) {
		/* an object type in the return type: ): T & { duplex?: 'half' } => */
		if (is_p(c, k, "}") && c->match[k] < k && c->match[k] > 0) {
			k = c->match[k];
			continue;
		}
		if (is_p(c, k, ";") || is_p(c, k, "{") || is_p(c, k, "}") ||
		    is_p(c, k, "=>") || is_p(c, k, "="))
			return NONE;
		if (is_p(c, k, ")") && is_p(c, k + 1, ":"))
			return k;
	}
	return NONE;
}

/* The condition of the if whose else is token e (`if (c) { ... } else`,
 * the last if of an else-if chain): what follows e runs when it does not
 * hold.  [*gb, *ge) are its tokens. */
static bool else_cond(const ctx *c, size_t e, size_t *gb, size_t *ge)
{
	if (e < 4 || !is_id(c, e, "else") || !is_p(c, e - 1, "}"))
		return false;
	size_t o = c->match[e - 1];
	if (o >= e - 1 || o < 3 || !is_p(c, o - 1, ")"))
		return false;
	size_t q = c->match[o - 1];
	if (q >= o - 1 || q == 0 || q + 1 >= o - 1 || !is_id(c, q - 1, "if"))
		return false;
	*gb = q + 1;
	*ge = o - 1;
	return true;
}

void js_push_frame(ctx *c, size_t i)
{
	if (c->nfr == c->capfr) {
		c->capfr = c->capfr ? c->capfr * 2 : 32;
		c->fr = fl_xrealloc(c->fr, c->capfr * sizeof *c->fr);
	}
	frame *p = top(c);
	frame f = {0, p ? p->name : NONE, p ? p->cls : NONE, NONE, NONE, false};
	const fl_toks *t = &c->t;
	if (i > 0) {
		size_t pv = i - 1;
		if (else_cond(c, pv, &f.gb, &f.ge)) {
			/* } else { */
			f.kind = 3;
			f.neg = true;
			goto done;
		}
		/* class body */
		for (size_t k = pv, n = 0; k != NONE && n < 24; k--, n++) {
			if (is_p(c, k, ";") || is_p(c, k, "{") ||
			    is_p(c, k, "}") || is_p(c, k, "=>"))
				break;
			if (is_id(c, k, "class")) {
				f.kind = 2;
				f.cls = is_kind(c, k + 1, FL_TK_IDENT) &&
						!is_id(c, k + 1, "extends") &&
						!is_id(c, k + 1, "implements")
					? k + 1
					: NONE;
				f.name = NONE;
				goto done;
			}
			if (k == 0)
				break;
		}
		if (is_p(c, pv, "=>")) {
			/* arrow body; a curried one takes the name of the arrow
			 * it is the body of: const auth = (opts) => async (c, next) => { */
			size_t arrow = pv, nm = NONE;
			for (int hop = 0; hop < 4 && nm == NONE; hop++) {
				size_t pc = params_close(c, arrow);
				size_t q;
				if (pc != NONE && c->match[pc] < t->n)
					q = c->match[pc] ? c->match[pc] - 1 : NONE;
				else
					q = arrow >= 2 ? arrow - 2 : NONE; /* x => */
				nm = name_before(c, q);
				if (q != NONE && q > 0 && is_id(c, q, "async"))
					q--;
				if (nm != NONE || q == NONE || !is_p(c, q, "=>"))
					break;
				arrow = q;
			}
			if (nm != NONE) {
				f.kind = 1;
				f.name = nm;
				frame *pp = top(c);
				f.cls = (pp && pp->kind == 2 && is_p(c, nm + 1, "="))
						? pp->cls
						: NONE;
			}
			goto done;
		}
		size_t pc = params_close(c, i);
		if (pc != NONE && c->match[pc] < t->n && c->match[pc] > 0) {
			size_t o = c->match[pc];
			size_t q = o - 1;
			if (is_id(c, q, "if") || is_id(c, q, "while")) {
				f.kind = 3;
				f.gb = o + 1;
				f.ge = pc;
				goto done;
			}
			if (is_id(c, q, "function") ||
			    (is_p(c, q, "*") && is_id(c, q - 1, "function"))) {
				if (is_p(c, q, "*"))
					q--;
				size_t nm = name_before(c, q ? q - 1 : NONE);
				if (nm != NONE) {
					f.kind = 1;
					f.name = nm;
					f.cls = NONE;
				}
				goto done;
			}
			if (!js_is_ctl_kw(c, q)) {
				f.kind = 1;
				f.name = q;
				frame *pp = top(c);
				if (q > 0 && (is_id(c, q - 1, "function") ||
					      is_p(c, q - 1, "*")))
					f.cls = NONE;
				else
					f.cls = (pp && pp->kind == 2) ? pp->cls
								      : NONE;
				goto done;
			}
		}
	}
done:
	c->fr[c->nfr++] = f;
}

static char *func_name(const ctx *c)
{
	if (!c->nfr)
		return NULL;
	const frame *f = &c->fr[c->nfr - 1];
	if (f->name == NONE)
		return NULL;
	char *n = fl_tok_dup(&c->t, f->name);
	if (f->cls == NONE)
		return n;
	char *cl = fl_tok_dup(&c->t, f->cls);
	char *r = fl_xjoin(cl, ".", n);
	free(cl);
	free(n);
	return r;
}

/* Frame f is an if's block (or its else's). */
static bool frame_is_if(const ctx *c, const frame *f)
{
	return f->kind == 3 && f->gb != NONE && f->ge > f->gb &&
	       (f->neg || (f->gb >= 2 && is_id(c, f->gb - 2, "if")));
}

static char *guard_if_at(const ctx *c, size_t at)
{
	/* the frame around the guard's if: another if's block adds its
	 * condition (fl_guard_nest) */
	const frame *outer = c->nfr ? &c->fr[c->nfr - 1] : NULL;
	char *g;
	bool is_if;
	/* brace-less `if (cond) stmt` */
	if (at > 1 && (is_id(c, at - 1, "return") || is_id(c, at - 1, "await")))
		at--;
	if (at > 0 && is_p(c, at - 1, ")") && c->match[at - 1] < c->t.n) {
		size_t o = c->match[at - 1];
		if (!(o > 0 && (is_id(c, o - 1, "if") || is_id(c, o - 1, "while"))))
			return NULL;
		g = fl_tok_span_text(&c->t, o + 1, at - 1, 200);
		is_if = is_id(c, o - 1, "if");
	} else {
		size_t gb, ge;
		bool neg = false;
		if (at > 0 && is_id(c, at - 1, "else")) {
			/* } else throw ...; */
			if (!else_cond(c, at - 1, &gb, &ge))
				return NULL;
			neg = true;
			is_if = true;
		} else {
			if (!c->nfr)
				return NULL;
			const frame *f = &c->fr[c->nfr - 1];
			if (f->kind != 3 || f->gb == NONE)
				return NULL;
			gb = f->gb;
			ge = f->ge;
			neg = f->neg;
			is_if = frame_is_if(c, f);
			outer = c->nfr > 1 ? &c->fr[c->nfr - 2] : NULL;
		}
		g = fl_guard_span(&c->t, gb, ge, neg, false);
	}
	if (g && *g && is_if && outer && frame_is_if(c, outer))
		g = fl_guard_nest(fl_guard_span(&c->t, outer->gb, outer->ge, outer->neg, false), g,
				  false);
	return g;
}

/* The guard of a site at token at: the if around it, else its switch's
 * case, else the early exits of its block (fl_early_guard; *early says
 * so, when early is not NULL) */
char *js_guard_at(const ctx *c, size_t at, bool *early)
{
	char *g = guard_if_at(c, at), *sw = fl_switch_guard(&c->t, c->match, at);
	if (early)
		*early = false;
	/* no if around it: the early exits before it in its block */
	if (!g) {
		g = fl_early_guard(&c->t, c->match, at);
		if (early)
			*early = g != NULL;
	}
	/* an if of the case's own around it: both hold */
	if (g && sw)
		return fl_guard_nest(sw, g, false);
	return g ? g : sw;
}

void js_emit(ctx *c, size_t at, const char *msg, const char *code,
	     const char *cls, const char *type, const char *sev, int http,
	     const char *idiom)
{
	if (c->alt && *c->alt) {
		char *alt = *c->alt;
		*c->alt = NULL;
		if (msg && *msg)
			js_emit(c, at, alt, code, cls, type, sev, http, idiom);
		free(alt);
	}
	if ((!msg || !*msg) && !code)
		return;
	/* the holes of a template that print a known text: a styled
	 * literal shown as its text; each literal of a choice a site (two
	 * choices at most; not with a code, whose sites are one record) */
	char *inl = msg ? js_inline_locals(c, at, msg) : NULL;
	if (inl)
		msg = inl;
	char *plain = msg ? fl_js_hole_unstyle(msg) : NULL;
	if (plain)
		msg = plain;
	char *ca, *cb;
	if (msg && !code && c->choices < 2 && fl_js_hole_choice(msg, &ca, &cb)) {
		c->choices++;
		js_emit(c, at, ca, code, cls, type, sev, http, idiom);
		if (strcmp(ca, cb) != 0)
			js_emit(c, at, cb, code, cls, type, sev, http, idiom);
		c->choices--;
		free(ca);
		free(cb);
		free(plain);
		free(inl);
		return;
	}
	char *flat = msg ? fl_js_hole_flatten(msg) : NULL;
	if (flat)
		msg = flat;
	char *fn = func_name(c);
	bool early = false;
	char *g = c->guard ? NULL : js_guard_at(c, at, &early);
	fl_site s = {.line = c->t.v[at].line,
		     .col = c->t.v[at].col,
		     .message = msg,
		     .code = code,
		     .cls = cls,
		     .type = type,
		     .severity = sev,
		     .http = http,
		     .function = fn,
		     .guard = c->guard ? c->guard : g,
		     .early = early,
		     .idiom = idiom};
	fl_site_add(c->out, &s);
	if (c->arg_code && code) {
		if (c->argc_n == c->argc_cap) {
			c->argc_cap = c->argc_cap ? 2 * c->argc_cap : 8;
			c->argc_v = fl_xrealloc(c->argc_v,
						c->argc_cap * sizeof *c->argc_v);
		}
		c->argc_v[c->argc_n++] = c->out->n - 1;
	}
	free(fn);
	free(g);
	free(flat);
	free(plain);
	free(inl);
}

/* drop argument codes shared by sites with different messages */
void js_drop_category_codes(ctx *c)
{
	fl_sites *o = c->out;
	bool *drop = fl_xcalloc(c->argc_n + 1, sizeof *drop);
	for (size_t a = 0; a < c->argc_n; a++)
		for (size_t b = c->out_base; b < o->n; b++) {
			const fl_site *x = &o->v[c->argc_v[a]], *y = &o->v[b];
			if (b != c->argc_v[a] && y->code &&
			    strcmp(x->code, y->code) == 0 &&
			    strcmp(x->message ? x->message : "",
				   y->message ? y->message : "") != 0)
				drop[a] = true;
		}
	for (size_t a = 0; a < c->argc_n; a++) {
		fl_site *x = &o->v[c->argc_v[a]];
		if (drop[a] && x->message && *x->message) {
			free((void *)x->code);
			x->code = NULL;
		}
	}
	free(drop);
}

/* ---- a statement's end, a construction ------------------------------------- */

/* end of the expression statement starting at b */
size_t js_stmt_end(const ctx *c, size_t b)
{
	const fl_toks *t = &c->t;
	size_t k = b;
	for (size_t n = 0; k < t->n && n < 4000; n++) {
		const fl_tok *tk = &t->v[k];
		if (k > b && (tk->flags & FL_TF_NL_BEFORE)) {
			bool cont = is_p(c, k, "+") || is_p(c, k, ".") ||
				    is_p(c, k - 1, "+") || is_p(c, k - 1, "(") ||
				    is_p(c, k - 1, ",");
			if (!cont)
				break;
		}
		if (is_p(c, k, ";") || is_p(c, k, "}") || is_p(c, k, ")") ||
		    is_p(c, k, "]") || is_p(c, k, ","))
			break;
		if (c->match[k] < t->n && c->match[k] > k) {
			k = c->match[k] + 1;
			continue;
		}
		k++;
	}
	return k;
}

/* a construct `new X(args)` or `X(args)` at i (i at `new` or at X);
 * fills cls token range; returns the '(' index or NONE. */
size_t js_ctor_at(const ctx *c, size_t i, size_t *cls)
{
	size_t k = i;
	if (is_id(c, k, "new"))
		k++;
	if (!is_kind(c, k, FL_TK_IDENT))
		return NONE;
	/* dotted name: take the last */
	while (is_p(c, k + 1, ".") && is_kind(c, k + 2, FL_TK_IDENT))
		k += 2;
	if (!is_p(c, k + 1, "("))
		return NONE;
	*cls = k;
	return k + 1;
}
