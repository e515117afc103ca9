/*
 * lint.c — a lint rule's messages (lib/scan/js/, js.h): a file's table of
 * texts by id -- stylelint's `const messages = ruleMessages(ruleName, {
 * rejected: 'Unexpected empty block', expected: (s) => `Expected "${s}"`
 * })`, ESLint's `meta: { messages: { unexpected: "Unexpected {{name}}." }
 * }` -- and the report calls that pick one: `report({ message:
 * messages.rejected, node, result, ruleName })`, `context.report({ node,
 * messageId: "unexpected" })`.  Each such call is a site of its text,
 * where the linter reports the problem it found in the user's code.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "js.h"

#define LINT_MAX 64 /* entries of a file's tables */

struct lintab {
	size_t var[LINT_MAX];  /* the table's name token (`messages`), or NONE
				  for a `messages:` property (ESLint's meta) */
	size_t key[LINT_MAX];  /* the entry's key token */
	char *text[LINT_MAX];  /* its text, owned */
	size_t n;
};
typedef struct lintab lintab;

/* The text of an entry's value [b, e): a literal or template, or an arrow
 * function (or function) returning one, its parameters left as holes. */
static char *entry_text(const ctx *c, size_t b, size_t e)
{
	if (b >= e)
		return NULL;
	if (is_kind(c, b, FL_TK_STRING) && e == b + 1)
		return js_msg_of(c, b, e);
	/* (a, b) => `...`, s => `...`, function (a) { return `...`; } */
	size_t q = b;
	if (is_p(c, q, "(") && c->match[q] < e)
		q = c->match[q] + 1;
	else if (is_kind(c, q, FL_TK_IDENT) && !is_id(c, q, "function"))
		q++;
	if (q < e && is_p(c, q, "=>") && q + 2 == e && is_kind(c, q + 1, FL_TK_STRING))
		return js_msg_of(c, q + 1, e);
	if (is_id(c, b, "function") && q == b + 1 && is_p(c, q, "(") && c->match[q] < e) {
		size_t o = c->match[q] + 1;
		if (o + 4 < e && is_p(c, o, "{") && is_id(c, o + 1, "return") &&
		    is_kind(c, o + 2, FL_TK_STRING) && is_p(c, o + 3, ";"))
			return js_msg_of(c, o + 2, o + 3);
	}
	return NULL;
}

/* ESLint's {{ name }} data holes, as the other families' {name} */
static char *eslint_holes(char *m)
{
	if (!m || !strstr(m, "{{"))
		return m;
	fl_buf b = {0};
	for (const char *p = m; *p;) {
		const char *e = p[0] == '{' && p[1] == '{' ? strstr(p + 2, "}}") : NULL;
		if (e) {
			const char *s = p + 2, *t = e;
			while (s < t && *s == ' ')
				s++;
			while (t > s && t[-1] == ' ')
				t--;
			fl_buf_putc(&b, '{');
			fl_buf_put(&b, s, (size_t)(t - s));
			fl_buf_putc(&b, '}');
			p = e + 2;
		} else {
			fl_buf_putc(&b, *p++);
		}
	}
	free(m);
	fl_buf_cstr(&b);
	return b.s;
}

/* The end of the property at k of an object literal that closes at close:
 * its ',' or close. */
static size_t prop_end(const ctx *c, size_t k, size_t close)
{
	size_t e = k;
	while (e < close && !is_p(c, e, ","))
		e = fl_tok_is_opener(&c->t, e) && c->match[e] < close ? c->match[e] + 1 : e + 1;
	return e;
}

/* The entries of the object literal opening at o into tab, of table var. */
static void read_table(const ctx *c, lintab *tab, size_t o, size_t var)
{
	size_t close = c->match[o];
	if (close >= c->t.n)
		return;
	for (size_t k = o + 1; k + 2 < close && tab->n < LINT_MAX;) {
		size_t e = prop_end(c, k, close);
		if ((is_kind(c, k, FL_TK_IDENT) || is_kind(c, k, FL_TK_STRING)) && is_p(c, k + 1, ":")) {
			char *m = eslint_holes(entry_text(c, k + 2, e));
			if (m) {
				tab->var[tab->n] = var;
				tab->key[tab->n] = k;
				tab->text[tab->n++] = m;
			}
		}
		k = e + 1;
	}
}

/* The file's tables: `NAME = f(..., { ... })` with NAME or f naming
 * messages, and `messages: { ... }`. */
static void build(const ctx *c, lintab *tab)
{
	const fl_toks *t = &c->t;
	static const char *const w[] = {"essages", NULL};
	for (size_t k = 0; k + 3 < t->n && tab->n < LINT_MAX; k++) {
		if (!is_kind(c, k, FL_TK_IDENT) || !js_name_has(c, k, w))
			continue;
		if (is_p(c, k + 1, ":") && is_p(c, k + 2, "{") && (k == 0 || !is_p(c, k - 1, "?"))) {
			read_table(c, tab, k + 2, NONE);
		} else if (is_p(c, k + 1, "=") && is_kind(c, k + 2, FL_TK_IDENT) && is_p(c, k + 3, "(") &&
			   c->match[k + 3] < t->n && is_p(c, c->match[k + 3] - 1, "}")) {
			/* the call's last argument is the object literal */
			size_t o = c->match[c->match[k + 3] - 1];
			if (o < t->n && o > k + 3)
				read_table(c, tab, o, k);
		}
	}
}

static bool same_text(const ctx *c, size_t a, size_t b)
{
	const fl_tok *x = &c->t.v[a], *y = &c->t.v[b];
	if (x->kind == FL_TK_STRING || y->kind == FL_TK_STRING) {
		const char *xs = x->kind == FL_TK_STRING ? fl_tok_str(&c->t, x) : c->t.src + x->off;
		size_t xl = x->kind == FL_TK_STRING ? x->slen : x->len;
		const char *ys = y->kind == FL_TK_STRING ? fl_tok_str(&c->t, y) : c->t.src + y->off;
		size_t yl = y->kind == FL_TK_STRING ? y->slen : y->len;
		return xl == yl && memcmp(xs, ys, xl) == 0;
	}
	return x->len == y->len && memcmp(c->t.src + x->off, c->t.src + y->off, x->len) == 0;
}

/* The text of entry key (token) of table var (NONE: the `messages:` one). */
static const char *find(const ctx *c, const lintab *tab, size_t var, size_t key)
{
	for (size_t k = 0; k < tab->n; k++)
		if (same_text(c, tab->key[k], key) &&
		    (var == NONE ? tab->var[k] == NONE
				 : tab->var[k] != NONE && same_text(c, tab->var[k], var)))
			return tab->text[k];
	return NULL;
}

/* The text of the entry [b, e) picks: `messages.rejected`, or
 * `messages.expected(a, b)`; NULL otherwise. */
static const char *member_text(const ctx *c, const lintab *tab, size_t b, size_t e)
{
	if (b + 3 > e || !is_kind(c, b, FL_TK_IDENT) || !is_p(c, b + 1, ".") ||
	    !is_kind(c, b + 2, FL_TK_IDENT) ||
	    !(b + 3 == e || (is_p(c, b + 3, "(") && c->match[b + 3] + 1 == e)))
		return NULL;
	return find(c, tab, b, b + 2);
}

/* The file's lint rule messages, read at the first call that asks. */
static const lintab *tables(ctx *c)
{
	if (!c->lint) {
		c->lint = fl_xcalloc(1, sizeof(lintab));
		build(c, c->lint);
	}
	return c->lint;
}

bool js_lint_report(ctx *c, size_t i, size_t open)
{
	const lintab *tab = tables(c);
	if (!tab->n || !is_p(c, open + 1, "{"))
		return false;
	size_t o = open + 1, close = c->match[o];
	if (close >= c->t.n)
		return false;
	const char *text = NULL;
	for (size_t k = o + 1; k + 2 < close && !text;) {
		size_t e = prop_end(c, k, close);
		/* message: messages.rejected, message: messages.expected(x) */
		if (is_id(c, k, "message") && is_p(c, k + 1, ":"))
			text = member_text(c, tab, k + 2, e);
		/* messageId: "unexpected" */
		else if (is_id(c, k, "messageId") && is_p(c, k + 1, ":") && k + 3 == e &&
			 is_kind(c, k + 2, FL_TK_STRING))
			text = find(c, tab, NONE, k + 2);
		k = e + 1;
	}
	if (!text)
		return false;
	js_emit(c, i, text, NULL, NULL, FL_T_VALIDATION, FL_S_ERROR, 0, "lint rule report");
	return true;
}

/* Whether the function named at token f is declared in the file
 * (`function F(P, ...)`) and hands its first parameter P to a report as
 * its message (`report({ result, ruleName, message, node })`, `message:
 * P`): stylelint's local `complain` helpers. */
static bool lint_helper(const ctx *c, size_t f)
{
	const fl_toks *t = &c->t;
	for (size_t k = 0; k + 3 < t->n; k++) {
		if (!is_id(c, k, "function") || k + 1 == f || !same_text(c, k + 1, f) ||
		    !is_p(c, k + 2, "(") || !is_kind(c, k + 3, FL_TK_IDENT))
			continue;
		size_t p = k + 3, close = c->match[k + 2];
		if (close + 1 >= t->n || !is_p(c, close + 1, "{") || c->match[close + 1] >= t->n)
			return false;
		size_t bc = c->match[close + 1];
		for (size_t q = close + 2; q + 3 < bc; q++) {
			if (!is_id(c, q, "report") || !is_p(c, q + 1, "(") || !is_p(c, q + 2, "{") ||
			    c->match[q + 2] >= bc)
				continue;
			for (size_t r = q + 3; r + 1 < c->match[q + 2]; r++) {
				if (!is_id(c, r, "message") || !(is_p(c, r - 1, ",") || is_p(c, r - 1, "{")))
					continue;
				bool shorthand = (is_p(c, r + 1, ",") || is_p(c, r + 1, "}")) && same_text(c, r, p);
				bool named = is_p(c, r + 1, ":") && same_text(c, r + 2, p) &&
					     (is_p(c, r + 3, ",") || is_p(c, r + 3, "}"));
				if (shorthand || named)
					return true;
			}
		}
		return false;
	}
	return false;
}

bool js_lint_helper_call(ctx *c, size_t i)
{
	/* complain(messages.rejected(value), node, index, length): a
	 * member first (no table is read for other calls) */
	size_t s[2], e[2];
	if (i + 3 >= c->t.n || !is_kind(c, i + 2, FL_TK_IDENT) || !is_p(c, i + 3, ".") ||
	    split_args(c, i + 1, s, e, 2) < 1)
		return false;
	const char *text = member_text(c, tables(c), s[0], e[0]);
	if (!text || !lint_helper(c, i))
		return false;
	js_emit(c, i, text, NULL, NULL, FL_T_VALIDATION, FL_S_ERROR, 0, "lint rule report");
	return true;
}

void js_lint_free(ctx *c)
{
	lintab *tab = c->lint;
	if (!tab)
		return;
	for (size_t k = 0; k < tab->n; k++)
		free(tab->text[k]);
	free(tab);
	c->lint = NULL;
}
