/*
 * msg.c — the JVM family's messages built from argument tokens (jvm.h):
 * concatenations, String.format / MessageFormat.format, "...".formatted(),
 * Kotlin's trimIndent / trimMargin, the last statement of a lambda or a
 * supplier, named arguments, the message a local variable holds, and a
 * call's message from its arguments or its trailing lambda.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jvm.h"

#define MAX_ARG_TOKS 256
#define MAX_ARG_DEPTH 48

const char *const jvm_plus_ops[] = {"+", NULL};


/* An operand of a concatenation that is a string constant of the file
 * (NAME or Outer.NAME): its literal text. */
static char *const_operand(const void *ud, size_t b, size_t e)
{
	const ctx *c = ud;
	size_t cb, ce;
	if (!jvm_name_ref(c, b, e) || !jvm_const_value(c, e - 1, &cb, &ce))
		return NULL;
	/* literals only, joined by + */
	fl_buf out = {0};
	for (size_t k = cb; k < ce; k += 2) {
		if (c->t.v[k].kind != FL_TK_STRING || (k + 1 < ce && !is_p(c, k + 1, "+"))) {
			fl_buf_free(&out);
			return NULL;
		}
		fl_buf_put(&out, fl_tok_str(&c->t, &c->t.v[k]), c->t.v[k].slen);
	}
	fl_buf_cstr(&out);
	return out.s;
}

/* Bounded fl_msg_from_expr (guards against deep recursion / big spans). */
static char *expr_msg(const ctx *c, size_t b, size_t e)
{
	fl_msg_opts o = {.concat_ops = jvm_plus_ops, .operand_text = const_operand, .ud = c};
	return fl_msg_guarded(&c->t, b, e, &o, MAX_ARG_TOKS, MAX_ARG_DEPTH,
			      false);
}

/* printf format escapes of java.lang.String.format: %% and %n */
static void decode_printf(char *m)
{
	char *w = m;
	for (char *r = m; *r; r++) {
		if (r[0] == '%' && r[1] == '%') {
			*w++ = '%';
			r++;
		} else if (r[0] == '%' && r[1] == 'n') {
			*w++ = '\n';
			r++;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	fl_msg_trim(m);
}

void jvm_decode_printf(char *m)
{
	decode_printf(m);
}


/* Kotlin String.trimIndent() / trimMargin("|") on a message, in place */
static void kotlin_trim(char *m, bool margin)
{
	fl_buf out = {0};
	/* split into lines */
	size_t n = strlen(m);
	size_t nlines = 1;
	for (size_t k = 0; k < n; k++)
		if (m[k] == '\n')
			nlines++;
	size_t minind = SIZE_MAX;
	if (!margin) {
		const char *p = m;
		for (size_t l = 0; l < nlines; l++) {
			const char *e = strchr(p, '\n');
			size_t len = e ? (size_t)(e - p) : strlen(p);
			size_t ind = 0;
			while (ind < len && (p[ind] == ' ' || p[ind] == '\t'))
				ind++;
			if (ind < len && ind < minind)
				minind = ind;
			p = e ? e + 1 : p + len;
		}
		if (minind == SIZE_MAX)
			minind = 0;
	}
	const char *p = m;
	bool first = true;
	for (size_t l = 0; l < nlines; l++) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		size_t ind = 0;
		while (ind < len && (p[ind] == ' ' || p[ind] == '\t'))
			ind++;
		bool blank = ind == len;
		if (!((l == 0 || l == nlines - 1) && blank)) {
			if (!first)
				fl_buf_putc(&out, '\n');
			first = false;
			if (margin) {
				if (ind < len && p[ind] == '|')
					fl_buf_put(&out, p + ind + 1, len - ind - 1);
				else
					fl_buf_put(&out, p, len);
			} else if (!blank) {
				fl_buf_put(&out, p + minind, len - minind);
			}
		}
		p = e ? e + 1 : p + len;
	}
	fl_buf_cstr(&out);
	memcpy(m, out.s, out.n + 1);
	fl_buf_free(&out);
}

static char *arg_msg(const ctx *c, size_t b, size_t e, int lvl);

/* message of a lambda / block body [b, e) ("{ "..." }" contents) */
static char *body_msg(const ctx *c, size_t b, size_t e, int lvl)
{
	/* take the last statement */
	size_t s = b;
	for (size_t k = b; k < e; k++) {
		if (c->match[k] != NOIDX && c->match[k] > k) {
			k = c->match[k];
			continue;
		}
		if (is_p(c, k, ";") ||
		    (k > b && (c->t.v[k].flags & FL_TF_NL_BEFORE) &&
		     !is_p(c, k, "+") && !is_p(c, k - 1, "+")))
			s = is_p(c, k, ";") ? k + 1 : k;
	}
	if (s >= e)
		return NULL;
	return arg_msg(c, s, e, lvl + 1);
}

/* The file's string constants (ctx's consts), found once: `static final
 * String NAME = ...` (or `final static`; a local's `final` is none),
 * Kotlin's `const val NAME = ...`. */
static void consts_find(const ctx *c)
{
	jvm_consts *k = c->consts;
	k->built = true;
	const fl_toks *t = &c->t;
	for (size_t i = 0; i + 5 < t->n; i++) {
		size_t nm;
		if (((is(c, i, "static") && is(c, i + 1, "final")) ||
		     (is(c, i, "final") && is(c, i + 1, "static"))) &&
		    is(c, i + 2, "String") && is_id(c, i + 3) && is_p(c, i + 4, "="))
			nm = i + 3;
		else if (is(c, i, "const") && is(c, i + 1, "val") && is_id(c, i + 2) &&
			 (is_p(c, i + 3, "=") || (is_p(c, i + 3, ":") && is(c, i + 4, "String") &&
						  i + 5 < t->n && is_p(c, i + 5, "="))))
			nm = i + 2;
		else
			continue;
		size_t b = is_p(c, nm + 1, "=") ? nm + 2 : nm + 4, e = b;
		while (e < t->n && e - b < 64 && !is_p(c, e, ";") &&
		       !(e > b && (t->v[e].flags & FL_TF_NL_BEFORE) && !is_p(c, e, "+") &&
			 !is_p(c, e - 1, "+"))) {
			if (c->match[e] != NOIDX && c->match[e] > e)
				e = c->match[e];
			e++;
		}
		if (e == b || e - b >= 64 || e >= t->n)
			continue;
		if (k->n == k->cap) {
			k->cap = k->cap ? 2 * k->cap : 16;
			k->v = fl_xrealloc(k->v, k->cap * sizeof *k->v);
		}
		k->v[k->n++] = (struct jvm_const){nm, b, e};
		i = e;
	}
}

/* The value of the file's string constant named by token i: [*b, *e). */
bool jvm_const_value(const ctx *c, size_t i, size_t *b, size_t *e)
{
	if (!c->consts || c->t.v[i].kind != FL_TK_IDENT)
		return false;
	if (!c->consts->built)
		consts_find(c);
	const fl_tok *x = &c->t.v[i];
	for (size_t k = 0; k < c->consts->n; k++) {
		const fl_tok *y = &c->t.v[c->consts->v[k].name];
		if (y->len == x->len && memcmp(c->t.src + y->off, c->t.src + x->off, x->len) == 0) {
			*b = c->consts->v[k].b;
			*e = c->consts->v[k].e;
			return true;
		}
	}
	return false;
}

/* Message of one argument expression [b, e). */
static char *arg_msg(const ctx *c, size_t b, size_t e, int lvl)
{
	if (b >= e || lvl > 4)
		return NULL;
	/* a string constant of the file: NAME, or Outer.NAME */
	size_t cb, ce;
	if (jvm_name_ref(c, b, e) && jvm_const_value(c, e - 1, &cb, &ce))
		return arg_msg(c, cb, ce, lvl + 1);
	/* named argument (Kotlin/Scala): name = expr */
	if (e - b >= 3 && is_id(c, b) && is_p(c, b + 1, "="))
		b += 2;
	/* lambda / supplier */
	if (is_p(c, b, "{") && c->match[b] == e - 1)
		return body_msg(c, b + 1, e - 1, lvl);
	if (e - b >= 4 && is_p(c, b, "(") && c->match[b] == b + 1 &&
	    is_p(c, b + 2, "->"))
		return arg_msg(c, b + 3, e, lvl + 1);
	/* String.format("...", ...), MessageFormat.format("...", ...) */
	if (e - b >= 4 && is_id(c, b) && is_p(c, b + 1, ".") &&
	    (is(c, b + 2, "format")) && is_p(c, b + 3, "(") &&
	    c->match[b + 3] == e - 1) {
		size_t st[8], en[8];
		size_t na = args(c, b + 3, st, en, 8, NULL);
		for (size_t k = 0; k < na; k++) {
			char *m = arg_msg(c, st[k], en[k], lvl + 1);
			if (m) {
				if (is(c, b, "String"))
					decode_printf(m);
				return m;
			}
		}
		return NULL;
	}
	/* format("...", ...) (String.format imported statically, or a
	 * wrapper of the class: `private static String format(String t,
	 * Object... a)`), Guava's lenientFormat("...", ...): the template */
	if (e - b >= 4 && (is(c, b, "format") || is(c, b, "lenientFormat")) &&
	    is_p(c, b + 1, "(") && c->match[b + 1] == e - 1 && (b == 0 || !is_p(c, b - 1, "."))) {
		size_t st[8], en[8];
		size_t na = args(c, b + 1, st, en, 8, NULL);
		if (na >= 1 && c->t.v[st[0]].kind == FL_TK_STRING) {
			char *m = arg_msg(c, st[0], en[0], lvl + 1);
			if (m && is(c, b, "format"))
				decode_printf(m);
			return m;
		}
	}
	/* `throw new IllegalStateException(buf.toString())`: the text a
	 * local StringBuilder of the function was given (a variable that is
	 * none gives nothing: jvm_builder_text finds no `V = new
	 * StringBuilder`) */
	/* ... as `new String(sb)` (ant's Project) or `String.valueOf(sb)` */
	size_t var = NOIDX;
	if (e == b + 5 && is_id(c, b) && is_p(c, b + 1, ".") && is(c, b + 2, "toString") &&
	    is_p(c, b + 3, "(") && is_p(c, b + 4, ")"))
		var = b;
	else if (e == b + 5 && is(c, b, "new") && is(c, b + 1, "String") && is_p(c, b + 2, "(") &&
		 is_id(c, b + 3) && is_p(c, b + 4, ")"))
		var = b + 3;
	else if (e == b + 6 && is(c, b, "String") && is_p(c, b + 1, ".") && is(c, b + 2, "valueOf") &&
		 is_p(c, b + 3, "(") && is_id(c, b + 4) && is_p(c, b + 5, ")"))
		var = b + 4;
	if (var != NOIDX && c->sc.n && c->sc.v[c->sc.n - 1].fn_at)
		return jvm_builder_text(c, c->sc.v[c->sc.n - 1].fn_at, b, var);
	/* "...".formatted(...) / "...".format(...) / "...".trimIndent() */
	if (e - b >= 4 && c->t.v[b].kind == FL_TK_STRING && is_p(c, b + 1, ".") &&
	    is_id(c, b + 2) && is_p(c, b + 3, "(") && c->match[b + 3] == e - 1) {
		const char *s = fl_tok_str(&c->t, &c->t.v[b]);
		char *m = fl_xstrdup(s);
		if (is(c, b + 2, "formatted") || is(c, b + 2, "format"))
			decode_printf(m);
		else if (is(c, b + 2, "trimIndent"))
			kotlin_trim(m, false);
		else if (is(c, b + 2, "trimMargin"))
			kotlin_trim(m, true);
		fl_msg_trim(m);
		return m;
	}
	return expr_msg(c, b, e);
}

/* The texts of a choice [b, e), `cond ? A : B` (B perhaps a choice in
 * turn): each arm's message that has text, appended to out (distinct, at
 * most 8); how many were added.  `new IOException(first ? "Input is not
 * in the .gz format" : "Garbage after a valid .gz stream")` */
static size_t choice_texts(const ctx *c, size_t b, size_t e, fl_strv *out, int depth_left);

size_t jvm_choice_texts(const ctx *c, size_t b, size_t e, fl_strv *out)
{
	return choice_texts(c, b, e, out, 16);
}

static size_t choice_texts(const ctx *c, size_t b, size_t e, fl_strv *out, int depth_left)
{
	if (depth_left <= 0 || e - b > MAX_ARG_TOKS)
		return 0;
	size_t q = NOIDX, col = NOIDX;
	int depth = 0;
	for (size_t k = b; k < e; k++) {
		if (c->match[k] != NOIDX && c->match[k] > k) {
			k = c->match[k];
			continue;
		}
		if (is_p(c, k, "?") && q == NOIDX)
			q = k;
		else if (is_p(c, k, "?"))
			depth++;
		else if (is_p(c, k, ":") && q != NOIDX && depth-- == 0) {
			col = k;
			break;
		}
	}
	if (q == NOIDX || col == NOIDX || q == b || col == q + 1 || col + 1 >= e)
		return 0;
	size_t added = 0;
	size_t arm[2][2] = {{q + 1, col}, {col + 1, e}};
	for (size_t a = 0; a < 2 && out->n < 8; a++) {
		if (a == 1 && choice_texts(c, arm[1][0], arm[1][1], out, depth_left - 1)) {
			added++;
			continue;
		}
		char *m = arg_msg(c, arm[a][0], arm[a][1], 1);
		if (m && fl_msg_plain_letters(m) >= 4 && fl_strv_push_new(out, m))
			added++;
		free(m);
	}
	return added;
}

/* first argument (from `from`) that yields a message */
char *jvm_first_msg(const ctx *c, const size_t *st, const size_t *en,
		    size_t na, size_t from, size_t *which)
{
	for (size_t k = from; k < na; k++) {
		char *m = arg_msg(c, st[k], en[k], 0);
		if (m && !*m) {
			free(m);
			m = NULL;
		}
		if (m) {
			if (which)
				*which = k;
			return m;
		}
	}
	return NULL;
}

/* The message held by a local variable passed as an argument:
 * `String msg = String.format("...", x); throw new X(msg);` */
static const char *const java_decl[] = {"String", "final", "var", NULL};
static const char *const kotlin_decl[] = {"val", "var", NULL};

char *jvm_var_arg_msg(const void *ud, size_t b, size_t e)
{
	return arg_msg(ud, b, e, 0);
}

char *jvm_local_msg(ctx *c, const size_t *st, const size_t *en, size_t na)
{
	scope *sc = top(c);
	return sc ? fl_var_arg_msg(&c->t, c->match, sc->fn_at, st, en, na,
				   c->d == D_JAVA ? java_decl : kotlin_decl, jvm_var_arg_msg, c)
		  : NULL;
}

/* The texts of an assignment's expression [b, e) (fl_var_msgs): a
 * choice's each, else its message; how many. */
static size_t local_alts(const void *ud, size_t b, size_t e, fl_strv *out)
{
	const ctx *c = ud;
	size_t n = jvm_choice_texts(c, b, e, out);
	if (n)
		return n;
	char *m = arg_msg(c, b, e, 0);
	if (!m)
		return 0;
	fl_strv_push(out, m);
	free(m);
	return 1;
}

size_t jvm_local_texts(ctx *c, size_t v, size_t at, fl_strv *out)
{
	scope *sc = top(c);
	if (!sc || !sc->fn_at || !is_id(c, v) || is_upper(tsrc(c, v)[0]) || is(c, v, "this") ||
	    is(c, v, "null"))
		return 0;
	return fl_var_msgs(&c->t, c->match, sc->fn_at, at, v,
			   c->d == D_JAVA ? java_decl : kotlin_decl, local_alts, c, 8, out);
}

/* call with (args) and/or a trailing lambda { ... }; returns message */
char *jvm_call_msg(ctx *c, size_t callee, size_t from_arg, size_t *st,
		   size_t *en, size_t *na, size_t *after)
{
	size_t p = callee + 1;
	*na = 0;
	char *m = NULL;
	size_t close = p;
	if (is_p(c, p, "(")) {
		*na = args(c, p, st, en, 16, &close);
		if (close >= c->t.n)
			return NULL;
		m = jvm_first_msg(c, st, en, *na, from_arg, NULL);
		p = close + 1;
	}
	if (is_p(c, p, "{") && c->match[p] != NOIDX && c->d != D_JAVA) {
		if (!m)
			m = body_msg(c, p + 1, c->match[p], 0);
		close = c->match[p];
	}
	if (after)
		*after = close;
	return m;
}

/* ---- StringBuilder texts --------------------------------------------------- */

/* Whether token k is the same identifier as token v. */
static bool same_id(const ctx *c, size_t k, size_t v)
{
	return is_id(c, k) && c->t.v[k].len == c->t.v[v].len &&
	       memcmp(tsrc(c, k), tsrc(c, v), c->t.v[v].len) == 0;
}

/* Adds the text of one appended value [b, e) to out: a literal as it is,
 * anything else one placeholder (none right after another: a loop's or
 * a branch's appends are one value). */
static void append_piece(const ctx *c, size_t b, size_t e, bool cond, fl_buf *out, bool *ph,
			 bool *lit)
{
	char *m = NULL;
	if (!cond && e == b + 1 && c->t.v[b].kind == FL_TK_STRING)
		m = fl_xstrdup(fl_tok_str(&c->t, &c->t.v[b]));
	else if (!cond && e == b + 1 && c->t.v[b].kind == FL_TK_CHAR && c->t.v[b].len == 3)
		m = fl_xstrndup(tsrc(c, b) + 1, 1);
	if (m) {
		fl_buf_puts(out, m);
		*ph = false;
		*lit = *lit || *m;
		free(m);
		return;
	}
	if (*ph)
		return;
	char *x = cond ? NULL : expr_msg(c, b, e);
	if (x && x[0] == '{' && strchr(x, '}') == x + strlen(x) - 1)
		fl_buf_puts(out, x); /* {name} */
	else
		fl_buf_puts(out, "{}");
	free(x);
	*ph = true;
}

/* StringBuilder, StringBuffer, commons-text's TextStringBuilder and
 * StrBuilder: a text built by appends */
static bool builder_class(const ctx *c, size_t k)
{
	if (!is_id(c, k))
		return false;
	const char *s = tsrc(c, k);
	size_t n = c->t.v[k].len;
	return ends_with(s, n, "StringBuilder") || ends_with(s, n, "StringBuffer") ||
	       ends_with(s, n, "StrBuilder");
}

char *jvm_builder_text(const ctx *c, size_t from, size_t to, size_t var)
{
	/* the last `V = new StringBuilder(...)` before `to` */
	size_t decl = NOIDX;
	for (size_t k = from; k + 3 < to; k++)
		if (same_id(c, k, var) && is_p(c, k + 1, "=") && is(c, k + 2, "new") &&
		    builder_class(c, k + 3) && is_p(c, k + 4, "(") && c->match[k + 4] != NOIDX)
			decl = k;
	if (decl == NOIDX)
		return NULL;
	fl_buf out = {0};
	bool ph = false, lit = false;
	size_t open = decl + 4, close = c->match[open];
	if (close > open + 1 && !(close == open + 2 && c->t.v[open + 1].kind == FL_TK_NUMBER))
		append_piece(c, open + 1, close, false, &out, &ph, &lit);
	int depth = 0;
	for (size_t k = close + 1; k < to; k++) {
		if (is_p(c, k, "{"))
			depth++;
		else if (is_p(c, k, "}"))
			depth--;
		if (depth < 0)
			break;
		if (!same_id(c, k, var) || !is_p(c, k + 1, ".") || !is(c, k + 2, "append"))
			continue;
		/* `if (x) buf.append(...)`, or deeper than the declaration:
		 * not every time */
		bool cond = depth > 0 || is_p(c, k - 1, ")") || is(c, k - 1, "else");
		for (size_t a = k + 2; is(c, a, "append") && is_p(c, a + 1, "(") &&
				       c->match[a + 1] != NOIDX && c->match[a + 1] < to;) {
			size_t st[4], en[4];
			size_t na = args(c, a + 1, st, en, 4, NULL);
			if (na == 1)
				append_piece(c, st[0], en[0], cond, &out, &ph, &lit);
			a = c->match[a + 1] + 1;
			if (!is_p(c, a, "."))
				break;
			a++;
		}
	}
	if (!lit) {
		fl_buf_free(&out);
		return NULL;
	}
	fl_buf_cstr(&out);
	fl_msg_trim(out.s);
	return out.s;
}
