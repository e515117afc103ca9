/*
 * msg.c — messages rebuilt from PHP tokens (lib/scan/php/, php.h): a
 * literal or a join by `.`, sprintf / vsprintf formats, named arguments,
 * what a local variable was assigned, the message a caught exception
 * holds (the tree's), the one text a helper function of the file
 * returns; and the alternative messages of an argument built in several
 * branches or chosen by a ternary.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "php.h"

static const char *const concat_dot[] = {".", NULL};
static const char *const wrappers[] = {"__", "_", "gettext", "trans",
				       "_e", "__e", "esc_html__", NULL};
static const fl_msg_opts msg_opts = {.concat_ops = concat_dot,
				     .wrappers = wrappers};

/* message of [b, e) with guards against pathological inputs */
char *php_msg_of(const ctx *c, size_t b, size_t e)
{
	char *m = fl_msg_guarded(&c->t, b, e, &msg_opts, 4000, 48, true);
	if (m && !*m) {
		free(m);
		return NULL;
	}
	return m;
}

/* message of one argument: sprintf("fmt", ..) gives fmt with %% decoded;
 * a named argument `name: expr` is looked through; a local variable (or
 * one joined by `.`) gives what it was assigned, `depth` levels deep
 * ($message = $e->getMessage() . ':' . $errors, with $errors a local) */
static char *expr_msg(const ctx *c, size_t b, size_t e, int depth);

struct var_ud {
	const ctx *c;
	int depth;
};

static char *var_expr_msg(const void *ud, size_t b, size_t e)
{
	const struct var_ud *u = ud;
	return expr_msg(u->c, b, e, u->depth);
}

/* message of an argument [b, e): literals, sprintf(...), and a local
 * variable assigned one of those before (throw new X($message)) */
char *php_arg_msg(const ctx *c, size_t b, size_t e)
{
	return expr_msg(c, b, e, 2);
}

static const frame *top_c(const ctx *c)
{
	return c->nfr ? &c->fr[c->nfr - 1] : NULL;
}

/* Is [b, e) one local variable ($x, not $this)? */
static bool local_var(const ctx *c, size_t b, size_t e)
{
	return e == b + 1 && is_kind(c, b, FL_TK_IDENT) && c->t.src[c->t.v[b].off] == '$' &&
	       !is_id(c, b, "$this");
}

/* the message local variable b holds where it is used, NULL if unknown */
static char *local_msg(const ctx *c, size_t b, int depth)
{
	if (depth <= 0)
		return NULL;
	const frame *f = top_c(c);
	size_t from = f && f->name != NONE ? f->name : 0;
	struct var_ud u = {c, depth - 1};
	return fl_var_msg(&c->t, c->match, from, b, b, NULL, var_expr_msg, &u);
}

/* At least 3 letters outside {placeholders}: a text of its own. */
bool php_has_text(const char *m)
{
	int letters = 0, depth = 0;
	for (const char *p = m; *p && letters < 3; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}' && depth)
			depth--;
		else if (!depth && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				    (unsigned char)*p >= 0x80))
			letters++;
	}
	return letters >= 3;
}

/* The class of the exception `catch (C $v) { ... }` binds to variable v
 * (token v), the catch's block holding token at: its last name token, or
 * NONE (no such catch, several classes caught, another binding). */
static size_t caught_class(const ctx *c, size_t v, size_t at)
{
	const fl_tok *vt = &c->t.v[v];
	for (size_t k = at, n = 0; k-- > 0 && n < 20000; n++) {
		if (!is_id(c, k, "catch") || !is_p(c, k + 1, "("))
			continue;
		size_t cp = c->match[k + 1];
		if (cp >= c->t.n || !is_p(c, cp + 1, "{") || c->match[cp + 1] >= c->t.n ||
		    c->match[cp + 1] < at)
			continue;
		/* (\A\B $v): names and backslashes, then the variable */
		size_t last = NONE;
		for (size_t q = k + 2; q + 1 < cp; q++) {
			if (is_kind(c, q, FL_TK_IDENT) && c->t.src[c->t.v[q].off] != '$')
				last = q;
			else if (!is_p(c, q, "\\"))
				return NONE;
		}
		const fl_tok *x = &c->t.v[cp - 1];
		if (last == NONE || x->len != vt->len ||
		    memcmp(c->t.src + x->off, c->t.src + vt->off, x->len) != 0)
			continue; /* another variable: an outer catch may bind it */
		return last;
	}
	return NONE;
}

/* [b, e) is `$e->getMessage()` of a caught exception whose class the
 * tree throws with one message only, and which no class of the tree
 * extends: that message.  Caller frees; NULL otherwise. */
static char *caught_msg(const ctx *c, size_t b, size_t e)
{
	if (!c->tree || e != b + 5 || !is_kind(c, b, FL_TK_IDENT) ||
	    c->t.src[c->t.v[b].off] != '$' || !(is_p(c, b + 1, "->") || is_p(c, b + 1, "?->")) ||
	    !is_id(c, b + 2, "getMessage") || !is_p(c, b + 3, "(") || !is_p(c, b + 4, ")"))
		return NULL;
	size_t k = caught_class(c, b, b);
	if (k == NONE)
		return NULL;
	char *cls = fl_tok_dup(&c->t, k), *sub = fl_xjoin(">", "", cls);
	const char *m = NULL, *code, *d;
	int st;
	bool ok = fl_classdefs_find(c->tree->decl, cls, &d, &code, &st) &&
		  !fl_classdefs_find(c->tree->decl, sub, &d, &code, &st) &&
		  fl_classdefs_find(c->tree->thrown, cls, &m, &code, &st) && m;
	free(cls);
	free(sub);
	return ok ? fl_xstrdup(m) : NULL;
}

/* the name token of a sprintf / vsprintf call that is all of [b, e), a
 * leading `\` allowed (`\sprintf(...)`, as php-cs-fixer writes native
 * calls), or NONE */
static size_t sprintf_call(const ctx *c, size_t b, size_t e)
{
	if (b < e && is_p(c, b, "\\"))
		b++;
	if (b < e && e - b >= 3 && (is_id(c, b, "sprintf") || is_id(c, b, "vsprintf")) &&
	    is_p(c, b + 1, "(") && c->match[b + 1] == e - 1)
		return b;
	return NONE;
}

/* [b, e) joined by `.` with a sprintf(...) operand, or a local variable
 * that holds a message: sprintf('..%s..', $x) . $suffix, $err . '.'.  The
 * operands' texts joined (the call gives its format, a literal its text,
 * a local its message, anything else {its last name}); NULL when no
 * operand is such a call or local. */
static char *concat_sprintf(const ctx *c, size_t b, size_t e, int depth)
{
	size_t ob[16], oe[16], n = 0, k = b;
	char *var[16] = {0};
	bool call = false;
	while (k < e && n < 16) {
		size_t q = k;
		while (q < e && !is_p(c, q, "."))
			q = fl_tok_is_opener(&c->t, q) && c->match[q] < e ? c->match[q] + 1 : q + 1;
		if (q == k)
			goto fail;
		ob[n] = k;
		oe[n] = q;
		if (sprintf_call(c, k, q) != NONE)
			call = true;
		else if (local_var(c, k, q) && (var[n] = local_msg(c, k, depth)) != NULL)
			call = true;
		else if ((var[n] = caught_msg(c, k, q)) != NULL)
			call = true;
		n++;
		k = q + 1;
		if (q == e)
			break;
	}
	if (!call || n < 2 || oe[n - 1] != e)
		goto fail;
	fl_buf out = {0};
	for (size_t i = 0; i < n; i++) {
		if (var[i]) {
			fl_buf_puts(&out, var[i]);
			continue;
		}
		/* a literal as written: the blank between two pieces is text */
		size_t lb = ob[i], le = oe[i], f = sprintf_call(c, lb, le);
		size_t s[1], en[1];
		if (f != NONE && split_args(c, f + 1, s, en, 1) == 1 && en[0] == s[0] + 1 &&
		    is_kind(c, s[0], FL_TK_STRING)) {
			lb = s[0];
			le = en[0];
		}
		if (le == lb + 1 && is_kind(c, lb, FL_TK_STRING)) {
			const fl_tok *x = &c->t.v[lb];
			const char *r = fl_tok_str(&c->t, x);
			for (size_t q = 0; q < x->slen; q++) {
				fl_buf_putc(&out, r[q]);
				if (f != NONE && r[q] == '%' && q + 1 < x->slen && r[q + 1] == '%')
					q++;
			}
			continue;
		}
		char *p = f != NONE ? expr_msg(c, ob[i], oe[i], 0) : php_msg_of(c, ob[i], oe[i]);
		if (p) {
			fl_buf_puts(&out, p);
			free(p);
			continue;
		}
		/* its last name outside brackets: {getName} of
		 * Utils::getName($record), as the other messages name a call */
		size_t last = NONE;
		for (size_t q = ob[i]; q < oe[i];) {
			if (is_kind(c, q, FL_TK_IDENT))
				last = q;
			q = fl_tok_is_opener(&c->t, q) && c->match[q] < oe[i] ? c->match[q] + 1
									      : q + 1;
		}
		if (last == NONE) {
			fl_buf_free(&out);
			goto fail;
		}
		const fl_tok *x = &c->t.v[last];
		size_t skip = c->t.src[x->off] == '$';
		fl_buf_putc(&out, '{');
		fl_buf_put(&out, c->t.src + x->off + skip, x->len - skip);
		fl_buf_putc(&out, '}');
	}
	for (size_t i = 0; i < n; i++)
		free(var[i]);
	fl_buf_cstr(&out);
	fl_msg_trim(out.s);
	return out.s;
fail:
	for (size_t i = 0; i < n; i++)
		free(var[i]);
	return NULL;
}

/* The one text the file's one function or method `name` (token nm)
 * returns: `function badValue($v) { return "bad value $v"; }`, every
 * `return` of its body giving that same text; else NULL.  For `throw new
 * X(badValue($v))`, `$this->describe($key)`, `self::describe($key)`. */
size_t php_file_function(const ctx *c, size_t nm)
{
	const fl_tok *n = &c->t.v[nm];
	size_t found = NONE;
	if (!fl_helper_budget_take(c->t.n))
		return NONE;
	for (size_t k = 1; k + 1 < c->t.n; k++) {
		const fl_tok *x = &c->t.v[k];
		if (k == nm || x->kind != FL_TK_IDENT || x->len != n->len || !is_id(c, k - 1, "function") ||
		    memcmp(c->t.src + x->off, c->t.src + n->off, n->len) != 0 || !is_p(c, k + 1, "("))
			continue;
		if (found != NONE)
			return NONE; /* two of that name: which one runs is not known */
		found = k;
	}
	return found;
}

static char *helper_msg(const ctx *c, size_t nm, int depth)
{
	size_t found = php_file_function(c, nm);
	if (found == NONE)
		return NULL;
	size_t cp = c->match[found + 1], ob = cp + 1;
	if (cp >= c->t.n)
		return NULL;
	if (is_p(c, ob, ":")) /* a return type */
		while (ob < c->t.n && !is_p(c, ob, "{") && !is_p(c, ob, ";"))
			ob++;
	if (ob >= c->t.n || !is_p(c, ob, "{") || c->match[ob] >= c->t.n || c->match[ob] <= ob)
		return NULL;
	size_t close = c->match[ob];
	char *text = NULL;
	for (size_t q = ob + 1; q < close; q++) {
		if (is_id(c, q, "function") || is_id(c, q, "fn")) { /* a closure's returns are its own */
			size_t k = q + 1;
			while (k < close && !is_p(c, k, "{") && !is_p(c, k, ";"))
				k++;
			if (k < close && is_p(c, k, "{") && c->match[k] < close)
				q = c->match[k];
			continue;
		}
		if (!is_id(c, q, "return"))
			continue;
		size_t re = q + 1;
		while (re < close && !is_p(c, re, ";"))
			re = fl_tok_is_opener(&c->t, re) && c->match[re] < close && c->match[re] > re
				     ? c->match[re] + 1 : re + 1;
		char *m = re > q + 1 ? expr_msg(c, q + 1, re, depth - 1) : NULL;
		if (m && !php_has_text(m)) {
			free(m);
			m = NULL;
		}
		if (!fl_same_text(&text, m))
			return NULL;
		q = re;
	}
	return text;
}

/* [b, e) a call of a function or method of the file: its name's token */
static size_t helper_call(const ctx *c, size_t b, size_t e)
{
	size_t nm = b;
	if (e > b + 4 && (is_id(c, b, "$this") || is_id(c, b, "self") || is_id(c, b, "static")) &&
	    (is_p(c, b + 1, "->") || is_p(c, b + 1, "::")))
		nm = b + 2;
	if (!is_kind(c, nm, FL_TK_IDENT) || c->t.src[c->t.v[nm].off] == '$' || c->t.v[nm].len < 3 ||
	    !is_p(c, nm + 1, "(") || c->match[nm + 1] != e - 1 || (nm == b && b > 0 && (is_p(c, b - 1, "->") || is_p(c, b - 1, "::"))))
		return NONE;
	return nm;
}

static char *expr_msg(const ctx *c, size_t b, size_t e, int depth)
{
	if (e - b >= 3 && is_kind(c, b, FL_TK_IDENT) && is_p(c, b + 1, ":"))
		b += 2;
	if (local_var(c, b, e))
		return local_msg(c, b, depth);
	size_t call = sprintf_call(c, b, e);
	if (call != NONE) {
		b = call;
		size_t s[1], en[1];
		if (split_args(c, b + 1, s, en, 1) < 1)
			return NULL;
		char *m = depth > 0 ? concat_sprintf(c, s[0], en[0], depth) : NULL;
		if (!m)
			m = php_msg_of(c, s[0], en[0]);
		if (m) {
			char *w = m;
			for (const char *r = m; *r; r++) {
				*w++ = *r;
				if (r[0] == '%' && r[1] == '%')
					r++;
			}
			*w = '\0';
		}
		return m;
	}
	if (e - b <= 4000) {
		char *m = concat_sprintf(c, b, e, depth);
		if (m)
			return m;
	}
	/* the thrown argument itself only: a helper whose value a local
	 * holds for a placeholder returns a value (a path), not the text */
	size_t hc = depth >= 2 ? helper_call(c, b, e) : NONE;
	if (hc != NONE) {
		char *m = helper_msg(c, hc, depth);
		if (m)
			return m;
	}
	return php_msg_of(c, b, e);
}

/* ---- alternative messages ----------------------------------------------------
 * A message built in a local variable in several branches, or chosen by a
 * ternary, is thrown as one of a few texts:
 *
 *   if ($a) { $message = 'not found in '.$cwd; }
 *   else { $message = 'no config file: '.$file; }
 *   $hint = $full ? 'To start, create one.' : '';
 *   throw new \InvalidArgumentException($message.PHP_EOL.$hint);
 *
 * gives four records at the throw, one per text.  Only where there are
 * two texts at least; one text is php_arg_msg's. */

#define ALT_MAX 8

/* the top-level `?` and its `:` of [b, e) (not a short `?:`) */
static bool ternary(const ctx *c, size_t b, size_t e, size_t *q, size_t *col)
{
	int nest = 0;
	*q = NONE;
	for (size_t k = b; k < e; k++) {
		if (fl_tok_is_opener(&c->t, k) && c->match[k] < e) {
			k = c->match[k];
			continue;
		}
		if (is_p(c, k, "?")) {
			if (*q == NONE)
				*q = k;
			else
				nest++;
		} else if (is_p(c, k, ":") && *q != NONE) {
			if (nest) {
				nest--;
				continue;
			}
			*col = k;
			return k > *q + 1 && k + 1 < e;
		}
	}
	return false;
}

/* Is [b, e) one operand of a concatenation: no operator outside
 * brackets but member access (a string, a variable, a call, a constant,
 * a bracketed group)? */
static bool operand(const ctx *c, size_t b, size_t e)
{
	if (b >= e)
		return false;
	for (size_t k = b; k < e; k++) {
		if (fl_tok_is_opener(&c->t, k) && c->match[k] < e) {
			k = c->match[k];
			continue;
		}
		if (is_kind(c, k, FL_TK_PUNCT) && !is_p(c, k, "->") && !is_p(c, k, "?->") &&
		    !is_p(c, k, "::") && !is_p(c, k, "\\"))
			return false;
	}
	return true;
}

static size_t expr_alts(const ctx *c, size_t b, size_t e, int depth, fl_strv *out);

static size_t alts_put(fl_strv *out, const char *m)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i], m) == 0)
			return 0;
	fl_strv_push(out, m);
	return 1;
}

struct alt_ud {
	const ctx *c;
	int depth;
};

static size_t var_alts(const void *ud, size_t b, size_t e, fl_strv *out)
{
	const struct alt_ud *u = ud;
	return expr_alts(u->c, b, e, u->depth, out);
}

/* the texts of one operand of a concatenation: a literal's, PHP_EOL's
 * line break, a local's or a bracketed choice's alternatives, else the
 * operand's message or {its last name} */
static void operand_alts(const ctx *c, size_t b, size_t e, int depth, fl_strv *out)
{
	if (e == b + 1 && is_id(c, b, "PHP_EOL")) {
		fl_strv_push(out, "\n");
		return;
	}
	if ((local_var(c, b, e) || (is_p(c, b, "(") && c->match[b] == e - 1) ||
	     (e == b + 1 && is_kind(c, b, FL_TK_STRING))) &&
	    expr_alts(c, b, e, depth, out))
		return;
	char *m = caught_msg(c, b, e);
	if (!m)
		m = sprintf_call(c, b, e) != NONE ? expr_msg(c, b, e, 0) : php_msg_of(c, b, e);
	if (!m) {
		size_t last = NONE;
		for (size_t q = b; q < e;) {
			if (is_kind(c, q, FL_TK_IDENT))
				last = q;
			q = fl_tok_is_opener(&c->t, q) && c->match[q] < e ? c->match[q] + 1 : q + 1;
		}
		if (last == NONE)
			return;
		const fl_tok *x = &c->t.v[last];
		size_t skip = c->t.src[x->off] == '$';
		m = fl_xasprintf("{%.*s}", (int)(x->len - skip), c->t.src + x->off + skip);
	}
	fl_strv_push(out, m);
	free(m);
}

#define CONDS 4

/* one text of a join so far, and the branch each choice of a condition
 * on the way took (0 none yet, 1 the first, 2 the second) */
typedef struct part {
	char *s;
	uint8_t br[CONDS];
} part;

static bool same_span(const ctx *c, size_t b1, size_t e1, size_t b2, size_t e2)
{
	if (e1 - b1 != e2 - b2)
		return false;
	for (size_t k = 0; k < e1 - b1; k++) {
		const fl_tok *x = &c->t.v[b1 + k], *y = &c->t.v[b2 + k];
		if (x->kind != y->kind || x->len != y->len ||
		    memcmp(c->t.src + x->off, c->t.src + y->off, x->len) != 0)
			return false;
	}
	return true;
}

/* A bracketed choice (cond ? 'a' : 'b') of one text a branch: its two
 * texts in ov and the slot of its condition among cb/ce (a new one
 * added), else -1 */
static int choice_operand(const ctx *c, size_t b, size_t e, int depth, size_t *cb, size_t *ce,
			  size_t *nc, fl_strv *ov)
{
	size_t q, col;
	if (!is_p(c, b, "(") || c->match[b] != e - 1 || !ternary(c, b + 1, e - 1, &q, &col))
		return -1;
	fl_strv t1 = {0}, t2 = {0};
	int slot = -1;
	if (expr_alts(c, q + 1, col, depth, &t1) == 1 && expr_alts(c, col + 1, e - 1, depth, &t2) == 1) {
		for (size_t k = 0; k < *nc && slot < 0; k++)
			if (same_span(c, cb[k], ce[k], b + 1, q))
				slot = (int)k;
		if (slot < 0 && *nc < CONDS) {
			cb[*nc] = b + 1;
			ce[*nc] = q;
			slot = (int)(*nc)++;
		}
		if (slot >= 0) {
			fl_strv_push(ov, t1.v[0]);
			fl_strv_push(ov, t2.v[0]);
		}
	}
	fl_strv_free(&t1);
	fl_strv_free(&t2);
	return slot;
}

static void parts_free(part *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].s);
}

/* [b, e) joined by `.`: every choice of its operands' texts, at most
 * ALT_MAX (a condition that chooses twice takes the same branch both
 * times: ($g ? ' (global)' : '') ... ($g ? 'global ' : '')); 0 when it
 * is no such join or has more */
static size_t concat_alts(const ctx *c, size_t b, size_t e, int depth, fl_strv *out)
{
	part acc[ALT_MAX], next[ALT_MAX];
	size_t na = 1, k = b, nops = 0, cb[CONDS], ce[CONDS], nc = 0;
	acc[0] = (part){fl_xstrdup(""), {0}};
	while (k < e) {
		size_t q = k;
		while (q < e && !is_p(c, q, "."))
			q = fl_tok_is_opener(&c->t, q) && c->match[q] < e ? c->match[q] + 1 : q + 1;
		fl_strv ov = {0};
		int slot = choice_operand(c, k, q, depth, cb, ce, &nc, &ov);
		if (slot < 0 && operand(c, k, q))
			operand_alts(c, k, q, depth, &ov);
		size_t nn = 0;
		bool over = !ov.n;
		for (size_t i = 0; i < na && !over; i++)
			for (size_t j = 0; j < ov.n && !over; j++) {
				if (slot >= 0 && acc[i].br[slot] && acc[i].br[slot] != j + 1)
					continue;
				if (nn == ALT_MAX) {
					over = true;
					break;
				}
				next[nn] = acc[i];
				next[nn].s = fl_xjoin(acc[i].s, "", ov.v[j]);
				if (slot >= 0)
					next[nn].br[slot] = (uint8_t)(j + 1);
				nn++;
			}
		fl_strv_free(&ov);
		parts_free(acc, na);
		if (over) {
			parts_free(next, nn);
			return 0;
		}
		memcpy(acc, next, nn * sizeof *acc);
		na = nn;
		nops++;
		k = q + 1;
	}
	size_t n = 0;
	for (size_t i = 0; i < na && nops >= 2; i++)
		n += alts_put(out, acc[i].s);
	parts_free(acc, na);
	return n;
}

/* The texts [b, e) can have, appended to out: a choice `c ? x : y`
 * gives x's and y's, a local variable its assignments' (fl_var_msgs), a
 * join by `.` each combination of its operands' texts, '' the empty
 * text, anything else expr_msg's message.  Returns how many were
 * appended; 0 when unknown or more than ALT_MAX. */
static size_t expr_alts(const ctx *c, size_t b, size_t e, int depth, fl_strv *out)
{
	if (e - b >= 3 && is_kind(c, b, FL_TK_IDENT) && is_p(c, b + 1, ":"))
		b += 2;
	while (e - b >= 3 && is_p(c, b, "(") && c->match[b] == e - 1) {
		b++;
		e--;
	}
	if (b >= e || out->n >= ALT_MAX)
		return 0;
	if (e == b + 1 && is_kind(c, b, FL_TK_STRING)) {
		/* as written: the blank that ends 'global ' joins it to what
		 * follows */
		const fl_tok *x = &c->t.v[b];
		char *m = fl_xstrndup(fl_tok_str(&c->t, x), x->slen);
		size_t n = alts_put(out, m);
		free(m);
		return n;
	}
	if (local_var(c, b, e)) {
		if (depth <= 0)
			return 0;
		const frame *f = top_c(c);
		size_t from = f && f->name != NONE ? f->name : 0;
		struct alt_ud u = {c, depth - 1};
		fl_strv v = {0};
		size_t n = 0;
		if (fl_var_msgs(&c->t, c->match, from, b, b, NULL, var_alts, &u, ALT_MAX, &v))
			for (size_t i = 0; i < v.n; i++)
				n += alts_put(out, v.v[i]);
		fl_strv_free(&v);
		return n;
	}
	size_t q, col;
	if (ternary(c, b, e, &q, &col)) {
		fl_strv v = {0};
		size_t n = 0;
		if (expr_alts(c, q + 1, col, depth, &v) && expr_alts(c, col + 1, e, depth, &v) &&
		    v.n <= ALT_MAX)
			for (size_t i = 0; i < v.n; i++)
				n += alts_put(out, v.v[i]);
		fl_strv_free(&v);
		return n;
	}
	if (e - b <= 4000) {
		fl_strv v = {0};
		size_t n = 0;
		if (concat_alts(c, b, e, depth, &v) >= 2) {
			for (size_t i = 0; i < v.n; i++)
				n += alts_put(out, v.v[i]);
			fl_strv_free(&v);
			return n;
		}
		fl_strv_free(&v);
	}
	char *m = expr_msg(c, b, e, depth);
	size_t n = m ? alts_put(out, m) : 0;
	free(m);
	return n;
}

/* The texts of argument [b, e) when it has two at least: PHP_EOL a line
 * break, trailing blanks off, empty texts left out.  0 otherwise. */
size_t php_arg_alts(const ctx *c, size_t b, size_t e, fl_strv *out)
{
	fl_strv v = {0};
	size_t n = 0;
	expr_alts(c, b, e, 2, &v);
	fl_strv t = {0};
	for (size_t i = 0; i < v.n && v.n >= 2; i++) {
		char *m = v.v[i], *w = m;
		for (const char *r = m; *r;) {
			if (strncmp(r, "{PHP_EOL}", 9) == 0) {
				*w++ = '\n';
				r += 9;
			} else {
				*w++ = *r++;
			}
		}
		*w = '\0';
		fl_msg_trim(m);
		if (*m)
			alts_put(&t, m);
	}
	fl_strv_free(&v);
	if (t.n >= 2)
		for (size_t i = 0; i < t.n; i++)
			n += alts_put(out, t.v[i]);
	fl_strv_free(&t);
	return n;
}
