/*
 * walk.c — the walk over a JVM file's tokens (jvm.h): brackets and scopes,
 * the names of classes and methods (Java's method declarations, Kotlin's
 * and Scala's fun / def, expression-bodied functions), the guard of a site
 * (the enclosing if, a when / case arm, Kotlin's `x ?: throw`), and the
 * emitting of a site.  The rules at each identifier are rules.c's.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jvm.h"

static const char *name_at(const ctx *c, int32_t off)
{
	return fl_scopes_name(&c->sc, off);
}

static int32_t add_name(ctx *c, const char *cls, const char *s, size_t n)
{
	return fl_scopes_add_name(&c->sc, cls, s, n);
}

static void push(ctx *c, int kind)
{
	fl_scopes_push(&c->sc, kind);
}

static const char *cur_class(ctx *c)
{
	scope *p = top(c);
	return p ? name_at(c, p->cls) : NULL;
}

static const char *cur_func(ctx *c)
{
	if (c->xf_on && c->xf_depth >= c->sc.n)
		return name_at(c, c->xf_fn);
	if (c->xf_on) {
		/* innermost FUNC scope deeper than the expression function? */
		for (size_t k = c->sc.n; k > c->xf_depth; k--)
			if (c->sc.v[k - 1].kind == SC_FUNC)
				return name_at(c, c->sc.v[k - 1].fn);
		return name_at(c, c->xf_fn);
	}
	scope *p = top(c);
	return p ? name_at(c, p->fn) : NULL;
}

static bool is_kw(const ctx *c, size_t i)
{
	static const char *const kw[] = {
		"if", "for", "while", "switch", "catch", "synchronized", "try",
		"return", "new", "else", "do", "throw", "super", "this",
		"assert", "case", "when", "match", "finally", "yield", NULL};
	for (const char *const *k = kw; *k; k++)
		if (is_s(c, i, *k))
			return true;
	return false;
}

/* Java: is the '{' at i the body of a method/constructor declaration?
 * Returns the name token or NOIDX. */
static size_t java_method_at(ctx *c, size_t i)
{
	if (i == 0)
		return NOIDX;
	size_t p = i - 1;
	/* throws A, B.C */
	size_t lim = i > 64 ? i - 64 : 0;
	if (!is_p(c, p, ")")) {
		size_t k = p;
		while (k > lim && !is(c, k, "throws")) {
			if (!is_id(c, k) && !is_p(c, k, ",") && !is_p(c, k, ".") &&
			    !is_p(c, k, ">") && !is_p(c, k, "<"))
				return NOIDX;
			k--;
		}
		if (!is(c, k, "throws") || k == 0)
			return NOIDX;
		p = k - 1;
		if (!is_p(c, p, ")"))
			return NOIDX;
	}
	size_t o = c->match[p];
	if (o == NOIDX || o == 0)
		return NOIDX;
	size_t nm = o - 1;
	if (!is_id(c, nm) || is_kw(c, nm))
		return NOIDX;
	if (nm == 0)
		return nm;
	size_t b = nm - 1;
	if (is(c, b, "new") || is_p(c, b, ".") || is_p(c, b, "->"))
		return NOIDX;
	if (is_id(c, b) || is_p(c, b, ">") || is_p(c, b, "]") ||
	    is_p(c, b, "?"))
		return nm;
	const char *cls = cur_class(c);
	if (cls && strlen(cls) == c->t.v[nm].len &&
	    memcmp(cls, tsrc(c, nm), c->t.v[nm].len) == 0)
		return nm;
	return NOIDX;
}

/* Scan back from p over balanced groups to an arm start; returns the
 * first token of the arm pattern or NOIDX. */
static size_t arm_start(const ctx *c, size_t p, int mode /* 0 kotlin when,
	1 case */)
{
	size_t k = p, lim = p > 96 ? p - 96 : 0;
	while (k > lim) {
		size_t j = k - 1;
		if (c->match[j] != NOIDX && c->match[j] < j) {
			j = c->match[j];
		} else if (c->match[j] != NOIDX) {
			/* an unmatched-before opener: block start */
			return mode == 0 ? k : NOIDX;
		}
		if (mode == 1) {
			if (is(c, j, "case"))
				return j + 1;
			if (is_p(c, j, ";") || is_p(c, j, "=>") || is(c, j, "default"))
				return NOIDX;
		} else {
			if (c->t.v[j].flags & FL_TF_NL_BEFORE)
				return j;
		}
		k = j;
	}
	return NOIDX;
}

/* Kotlin's `x ?: throw ...`: the site fires when x is null.  The left
 * operand of the elvis at p: names, calls, indexes, `.`, `?.` and `!!`
 * back to what starts the expression (`=`, `return`, `(`, `,` ...). */
static char *elvis_guard(ctx *c, size_t p)
{
	size_t b = p;
	for (int n = 0; b > 0 && n < 64; n++) {
		size_t k = b - 1;
		if ((is_p(c, k, ")") || is_p(c, k, "]")) && c->match[k] != NOIDX && c->match[k] < k) {
			b = c->match[k];
			continue;
		}
		if ((is_id(c, k) && !is(c, k, "return") && !is(c, k, "else") && !is(c, k, "as") &&
		     !is(c, k, "in") && !is(c, k, "is")) ||
		    is_p(c, k, ".") || is_p(c, k, "?.") || is_p(c, k, "!!") ||
		    c->t.v[k].kind == FL_TK_NUMBER || c->t.v[k].kind == FL_TK_STRING) {
			b = k;
			continue;
		}
		break;
	}
	if (b >= p || is_p(c, b, ".") || is_p(c, b, "?."))
		return NULL;
	/* only a whole operand: after `=`, `return`, `(`, `,`, `{`, `->` or
	 * at a line's start; `if (a) x else null ?: throw` and
	 * `v as? T ?: throw` are not guessed at */
	if (b > 0 && !(c->t.v[b].flags & FL_TF_NL_BEFORE)) {
		size_t k = b - 1;
		if (!(is_p(c, k, "=") || is(c, k, "return") || is_p(c, k, "(") || is_p(c, k, ",") ||
		      is_p(c, k, "{") || is_p(c, k, "->")))
			return NULL;
	}
	char *x = fl_tok_span_text(&c->t, b, p, 200);
	char *g = fl_xasprintf("%s == null", x);
	free(x);
	return g;
}

/* The condition of the if whose block ends at '}' token p: `if (c) {
 * ... }`; false for any other block. */
static bool if_cond_of_block(const ctx *c, size_t p, uint32_t *gb, uint32_t *ge)
{
	if (!is_p(c, p, "}") || c->match[p] == NOIDX || c->match[p] >= p)
		return false;
	size_t o = c->match[p];
	if (o < 3 || !is_p(c, o - 1, ")"))
		return false;
	size_t q = c->match[o - 1];
	if (q == NOIDX || q == 0 || q >= o - 1 || !is(c, q - 1, "if") || q + 1 >= o - 1)
		return false;
	*gb = (uint32_t)(q + 1);
	*ge = (uint32_t)(o - 1);
	return true;
}

/* The condition of the if whose else is token e (`if (c) { ... } else`,
 * the last if of an else-if chain): what follows e runs when it does not
 * hold. */
static bool else_cond(const ctx *c, size_t e, uint32_t *gb, uint32_t *ge)
{
	return e >= 1 && is(c, e, "else") && if_cond_of_block(c, e - 1, gb, ge);
}

static char *guard_if_for(ctx *c, size_t first)
{
	if (first == 0)
		return NULL;
	size_t p = first - 1;
	if (c->d == D_KOTLIN && is_p(c, p, "?:"))
		return elvis_guard(c, p);
	if (is_p(c, p, ")") && c->match[p] != NOIDX && c->match[p] > 0) {
		size_t o = c->match[p];
		if (is(c, o - 1, "if"))
			return fl_scope_guard_nest(&c->t, top(c), SC_IF,
						   fl_tok_span_text(&c->t, o + 1, p, 200));
		if (is(c, o - 1, "while"))
			return fl_tok_span_text(&c->t, o + 1, p, 200);
	}
	uint32_t eb, ee;
	if (else_cond(c, p, &eb, &ee)) {
		/* } else throw ... */
		return fl_scope_guard_nest(&c->t, top(c), SC_IF,
					   fl_guard_span(&c->t, eb, ee, true, false));
	}
	if (is_p(c, p, "->") || is_p(c, p, "=>") || is_p(c, p, ":")) {
		scope *s = top(c);
		size_t a = NOIDX;
		if (is_p(c, p, "->") && c->d == D_KOTLIN && s &&
		    s->kind == SC_SWITCH)
			a = arm_start(c, p, 0);
		else if (c->d != D_KOTLIN)
			a = arm_start(c, p, 1);
		if (a != NOIDX && a < p) {
			if ((is(c, a, "else") || is(c, a, "_")) && a + 1 == p)
				return NULL;
			return fl_tok_span_text(&c->t, a, p, 200);
		}
		if (a != NOIDX || is_p(c, p, "->") || is_p(c, p, "=>"))
			return NULL;
	}
	scope *s = top(c);
	if (s && s->kind == SC_IF && s->ge > s->gb) {
		/* computed once per block: many sites may share it */
		if (s->gtext < 0) {
			char *g = fl_guard_span(&c->t, s->gb, s->ge, s->neg, false);
			if (fl_scope_is_if(&c->t, s, SC_IF) && c->sc.n >= 2)
				g = fl_scope_guard_nest(&c->t, &c->sc.v[c->sc.n - 2], SC_IF, g);
			s->gtext = add_name(c, NULL, g, strlen(g));
			free(g);
		}
		return fl_xstrdup(name_at(c, s->gtext));
	}
	return NULL;
}

char *jvm_guard_for(ctx *c, size_t first, bool *early)
{
	if (early)
		*early = false;
	/* a statement of a Java switch's case: the case's labels (for an
	 * arm, `case A -> throw ...`, rather than the arm's text), with an if
	 * of the case's own around it */
	char *sw = c->d == D_JAVA ? fl_switch_guard(&c->t, c->match, first) : NULL;
	if (sw && first > 0 && (is_p(c, first - 1, "->") || is_p(c, first - 1, ":")))
		return sw;
	char *g = guard_if_for(c, first);
	/* no if around it: the early exits before it in its block (Java's;
	 * Kotlin's `if (c) return` and `?: return` are left) */
	if (!g && c->d == D_JAVA) {
		g = fl_early_guard(&c->t, c->match, first);
		if (early)
			*early = g != NULL;
	}
	if (g && sw)
		return fl_guard_nest(sw, g, false);
	return g ? g : sw;
}

/* the site s describes; its guard, unless given, is the enclosing one */
void jvm_emit(ctx *c, site_spec *s)
{
	fl_site site = {0};
	const fl_tok *tk = &c->t.v[s->first];
	site.line = tk->line;
	site.col = tk->col;
	site.message = s->msg;
	site.code = s->code;
	site.cls = s->cls;
	site.type = s->type;
	site.severity = s->sev;
	site.http = s->http;
	/* guard first: it may grow the names arena that function points
	 * into */
	char *g = s->guard_set ? s->guard : jvm_guard_for(c, s->first, &site.early);
	site.function = cur_func(c);
	if (g && !*g) {
		free(g);
		g = NULL;
	}
	site.guard = g;
	site.idiom = s->idiom;
	if ((site.message && *site.message) || site.code)
		fl_site_add(c->out, &site);
	free(g);
}

/* declaration keywords */
static void decl_at(ctx *c, size_t i)
{
	bool dot_before = i > 0 && (is_p(c, i - 1, ".") || is_p(c, i - 1, "::"));
	if (dot_before)
		return;
	if (is(c, i, "class") || is(c, i, "interface") || is(c, i, "object") ||
	    is(c, i, "enum") || is(c, i, "trait") ||
	    (is(c, i, "record") && c->d == D_JAVA && is_id(c, i + 1) &&
	     is_p(c, i + 2, "("))) {
		size_t k = i + 1;
		if (is(c, k, "class") || is(c, k, "interface"))
			k++;
		if (is_id(c, k) && !is(c, k, "extends") && !is(c, k, "implements")) {
			c->pend_kind = SC_CLASS;
			c->pend_name = (uint32_t)k;
			c->pend_paren = c->paren;
			if (is(c, i, "enum") && c->d != D_SCALA)
				jvm_error_enum(c, k);
		}
		return;
	}
	if ((is(c, i, "fun") && c->d == D_KOTLIN) ||
	    (is(c, i, "def") && c->d == D_SCALA)) {
		size_t nm = NOIDX;
		if (c->d == D_SCALA) {
			if (i + 1 < c->t.n)
				nm = i + 1;
		} else {
			int ang = 0;
			for (size_t k = i + 1; k < c->t.n && k < i + 48; k++) {
				if (is_p(c, k, "<"))
					ang++;
				else if (is_p(c, k, ">"))
					ang--;
				else if (is_p(c, k, "(") || is_p(c, k, "{") ||
					 is_p(c, k, "=") || is_p(c, k, ";"))
					break;
				else if (is_id(c, k) && ang <= 0)
					nm = k;
			}
		}
		if (nm != NOIDX && !is(c, nm, "interface")) {
			c->pend_kind = SC_FUNC;
			c->pend_name = (uint32_t)nm;
			c->pend_paren = c->paren;
			c->pend_col = c->line_col;
		}
	}
}

/* the file's tokens in order: brackets, scopes and declarations, and the
 * rules at each identifier */
void jvm_walk(ctx *c)
{
	size_t n = c->t.n;
	for (size_t i = 0; i < n; i++) {
		const fl_tok *tk = &c->t.v[i];
		bool nl = (tk->flags & FL_TF_NL_BEFORE) || i == 0;
		if (tk->kind == FL_TK_PUNCT && is_p(c, i, "@") && is(c, i + 1, "ResponseStatus") &&
		    is_p(c, i + 2, "("))
			jvm_rule_response_status(c, i);
		if (nl)
			c->line_col = tk->col;
		/* end of an expression-bodied function (Kotlin/Scala) */
		if (c->xf_on && nl && c->sc.n <= c->xf_depth && tk->col <= c->xf_col)
			c->xf_on = false;
		/* pending func declaration expires at a new line */
		if (c->pend_kind == SC_FUNC && nl && c->paren == c->pend_paren &&
		    i > c->pend_name + 1 && !is_p(c, i, "{") && !is_p(c, i, "=") &&
		    !is_p(c, i, ":") && !is_p(c, i, ")") && !is(c, i, "where"))
			c->pend_kind = 0;
		if (tk->kind == FL_TK_PUNCT && tk->len == 1) {
			char ch = c->t.src[tk->off];
			if (ch == '(' || ch == '[') {
				c->paren++;
				continue;
			}
			if (ch == ')' || ch == ']') {
				if (c->paren > 0)
					c->paren--;
				continue;
			}
			if (ch == '{') {
				int kind = SC_OTHER;
				const char *nm = NULL;
				size_t nml = 0, at = 0;
				size_t jm;
				if (c->pend_kind && c->paren == c->pend_paren) {
					kind = c->pend_kind;
					at = c->pend_name;
					nm = tsrc(c, c->pend_name);
					nml = c->t.v[c->pend_name].len;
					c->pend_kind = 0;
				} else if (c->d == D_JAVA &&
					   (jm = java_method_at(c, i)) != NOIDX) {
					kind = SC_FUNC;
					at = jm;
					nm = tsrc(c, jm);
					nml = c->t.v[jm].len;
				}
				const char *cls = cur_class(c);
				push(c, kind);
				scope *s = top(c);
				if (kind == SC_CLASS) {
					s->cls = add_name(c, NULL, nm, nml);
				} else if (kind == SC_FUNC) {
					s->fn = add_name(c, cls, nm, nml);
					s->fn_at = (uint32_t)at;
				} else if (i > 0) {
					size_t p = i - 1;
					if (is_p(c, p, ")") && c->match[p] != NOIDX &&
					    c->match[p] > 0) {
						size_t o = c->match[p];
						if (is(c, o - 1, "if") ||
						    is(c, o - 1, "while")) {
							s->kind = SC_IF;
							s->gb = (uint32_t)(o + 1);
							s->ge = (uint32_t)p;
						} else if (is(c, o - 1, "when") ||
							   is(c, o - 1, "switch")) {
							s->kind = SC_SWITCH;
						}
					} else if (is(c, p, "when") || is(c, p, "match")) {
						s->kind = SC_SWITCH;
					} else if (else_cond(c, p, &s->gb, &s->ge)) {
						/* } else { */
						s->kind = SC_IF;
						s->neg = 1;
					}
				}
				continue;
			}
			if (ch == '}') {
				if (c->sc.n)
					c->sc.n--;
				if (c->xf_on && c->sc.n < c->xf_depth)
					c->xf_on = false;
				if (c->pend_kind)
					c->pend_kind = 0;
				continue;
			}
			if (ch == ';') {
				if (c->paren == c->pend_paren)
					c->pend_kind = 0;
				continue;
			}
			if (ch == '=' && c->pend_kind == SC_FUNC &&
			    c->paren == c->pend_paren) {
				if (is_p(c, i + 1, "{"))
					continue; /* block body follows */
				c->xf_on = true;
				c->xf_fn = add_name(c, cur_class(c),
						    tsrc(c, c->pend_name),
						    c->t.v[c->pend_name].len);
				c->xf_depth = c->sc.n;
				c->xf_col = c->pend_col;
				c->pend_kind = 0;
				continue;
			}
			continue;
		}
		if (tk->kind != FL_TK_IDENT)
			continue;
		decl_at(c, i);
		jvm_rules_at(c, i);
	}
}
