/*
 * collect.c — the JVM family's exception factories and the tree's collect
 * pass (jvm.h): the methods of a file that build or throw one exception
 * (found on a throw's first use), and, kept in the tree for every file:
 * exception classes whose constructors build the message, thrower methods
 * (Java), static factories (Java); the byte scans that spare a file its
 * lexing when it can declare none; the early scan of a file as if the
 * tree were empty, with its log of lookups and the hint shared by the
 * read phase's threads.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "jvm.h"

/* ---- exception factories --------------------------------------------------
 * A throw of a call to a method of this file that builds (or throws) one
 * exception: gson's `throw unexpectedTokenError("a boolean")` with
 * `IllegalStateException unexpectedTokenError(String expected) { return new
 * IllegalStateException("Expected " + expected + ...); }` (lex.h). */

bool jvm_excy_name(const char *nm, size_t nl)
{
	return ends_with(nm, nl, "Exception") || ends_with(nm, nl, "Error") ||
	       ends_with(nm, nl, "Throwable") || ends_with(nm, nl, "Fault");
}

/* name of a constructor call: tokens [b, ...) = Qualified.Name [<...>] (
 * returns the index of '(' or NOIDX; *cls_i the simple name token */
size_t jvm_ctor_at(const ctx *c, size_t b, size_t *cls_i)
{
	size_t k = b;
	if (!is_id(c, k))
		return NOIDX;
	for (int guard = 0; guard < 32; guard++) {
		if (is_p(c, k + 1, ".") && is_id(c, k + 2)) {
			k += 2;
			continue;
		}
		break;
	}
	*cls_i = k;
	size_t p = k + 1;
	if (is_p(c, p, "<")) {
		/* skip generic arguments */
		int d = 0;
		size_t lim = p + 64;
		for (; p < c->t.n && p < lim; p++) {
			if (is_p(c, p, "<"))
				d++;
			else if (is_p(c, p, ">")) {
				if (--d == 0) {
					p++;
					break;
				}
			} else if (!is_id(c, p) && !is_p(c, p, ",") &&
				   !is_p(c, p, ".") && !is_p(c, p, "?"))
				return NOIDX;
		}
	}
	if (!is_p(c, p, "("))
		return NOIDX;
	return p;
}

/* The token after the declaration head of the method whose parameter list
 * closes at `close` (Java `throws A, B`, Kotlin `: Type`): '{' or '=', or
 * NOIDX. */
static size_t fac_body_at(const ctx *c, size_t close)
{
	size_t k = close + 1, lim = close + 64;
	if (c->d == D_JAVA && is(c, k, "throws"))
		k++;
	else if (c->d != D_JAVA && is_p(c, k, ":"))
		k++;
	else
		return is_p(c, k, "{") ? k : NOIDX;
	for (; k < c->t.n && k < lim; k++) {
		if (is_p(c, k, "{") || (c->d != D_JAVA && is_p(c, k, "=")))
			return k;
		if (!is_id(c, k) && !is_p(c, k, ",") && !is_p(c, k, ".") &&
		    !is_p(c, k, "<") && !is_p(c, k, ">") && !is_p(c, k, "?"))
			return NOIDX;
	}
	return NOIDX;
}

/* The exception construction at j (`new X(`, or Kotlin/Scala `X(`):
 * the class token and the '(' of its arguments, or NOIDX. */
static size_t fac_ctor(const ctx *c, size_t j, size_t *ci)
{
	if (c->d == D_JAVA || is(c, j, "new")) {
		if (!is(c, j, "new"))
			return NOIDX;
		j++;
	}
	size_t open = jvm_ctor_at(c, j, ci);
	if (open == NOIDX || !jvm_excy_name(tsrc(c, *ci), c->t.v[*ci].len) ||
	    !is_upper(tsrc(c, *ci)[0]))
		return NOIDX;
	return open;
}

/* Add to fs the factory `name` whose parameter list opens at popen (NOIDX:
 * none) and that builds class token cls with the arguments opened at copen.
 * Kept even without a message: an overload of the same arity is then
 * ambiguous. */
static size_t fac_ctor_at(const void *ud, size_t at, size_t *cls)
{
	return fac_ctor(ud, at, cls);
}

static size_t method_body(const ctx *c, size_t i);

/* The ';' that ends the return statement at ret, bracket groups skipped
 * (end, the method body's '}', when there is none before it). */
static size_t return_end(const ctx *c, size_t ret, size_t end)
{
	size_t x = ret + 1;
	while (x < end && !is_p(c, x, ";"))
		x = c->match[x] != NOIDX && c->match[x] > x ? c->match[x] + 1 : x + 1;
	return x;
}

size_t jvm_returned_texts(const ctx *c, size_t b, size_t e, fl_strv *out)
{
	if (e < b + 3 || !is_id(c, b) || !is_p(c, b + 1, "(") || c->match[b + 1] != e - 1 ||
	    (b > 0 && is_p(c, b - 1, ".")) || !fl_helper_budget_take(c->t.n))
		return 0;
	for (size_t i = 1; i + 1 < c->t.n; i++) {
		if (c->t.v[i].len != c->t.v[b].len || memcmp(tsrc(c, i), tsrc(c, b), c->t.v[b].len) != 0 ||
		    i == b)
			continue;
		size_t body = method_body(c, i);
		if (body != NOIDX && is_p(c, body, "=")) {
			/* Kotlin's and Scala's `fun name(...) = "text $x"`: the
			 * expression, to the end of its line (bracket groups
			 * skipped, an operator at a line's end going on) */
			size_t x = body + 1;
			while (x < c->t.n && !is_p(c, x, ";") && !(fl_tok_is_closer(&c->t, x))) {
				if (x > body + 1 && (c->t.v[x].flags & FL_TF_NL_BEFORE) &&
				    !is_p(c, x - 1, "+") && !is_p(c, x, "+") && !is_p(c, x, "."))
					break;
				x = c->match[x] != NOIDX && c->match[x] > x ? c->match[x] + 1 : x + 1;
			}
			char *m = x > body + 1 ? jvm_var_arg_msg(c, body + 1, x) : NULL;
			size_t n0 = out->n;
			if (m && *m)
				fl_strv_push(out, m);
			free(m);
			return out->n - n0;
		}
		if (body == NOIDX || !is_p(c, body, "{") || c->match[body] == NOIDX)
			continue;
		size_t end = c->match[body], n0 = out->n;
		for (size_t ret = body + 1; ret < end; ret++) {
			if (!is(c, ret, "return"))
				continue;
			size_t x = return_end(c, ret, end);
			char *m = NULL;
			if (x == ret + 6 && is_id(c, ret + 1) && is_p(c, ret + 2, ".") &&
			    is(c, ret + 3, "toString") && is_p(c, ret + 4, "(") && is_p(c, ret + 5, ")"))
				m = jvm_builder_text(c, body, ret, ret + 1);
			else if (x > ret + 1 && x < end)
				m = jvm_var_arg_msg(c, ret + 1, x);
			if (m && *m && out->n - n0 < 8)
				fl_strv_push(out, m);
			free(m);
			ret = x;
		}
		return out->n - n0;
	}
	return 0;
}

/* The one text a method of the file returns (jvm_returned_texts), NULL
 * when it returns none or several (commons-cli's exceptions build their
 * message so: `this(createMessage(missing))`). */
static char *returned_text(const ctx *c, size_t b, size_t e)
{
	fl_strv v = {0};
	char *m = jvm_returned_texts(c, b, e, &v) == 1 ? fl_xstrdup(v.v[0]) : NULL;
	fl_strv_free(&v);
	return m;
}

/* A message formatted from a template parameter, [b, e): `format(tmpl,
 * args)`, `String.format(tmpl, args)`, Guava's `lenientFormat(tmpl,
 * args)`: "{tmpl}" (a call gives the template), or NULL. */
static char *format_of_param(const ctx *c, size_t b, size_t e, const fl_factory *f)
{
	if (e - b >= 4 && is_id(c, b) && is_upper(tsrc(c, b)[0]) && is_p(c, b + 1, "."))
		b += 2; /* String.format, MessageFormat.format */
	if (e - b < 3 || !(is(c, b, "format") || is(c, b, "lenientFormat")) || !is_p(c, b + 1, "(") ||
	    c->match[b + 1] != e - 1 || !is_id(c, b + 2) || !(is_p(c, b + 3, ",") || b + 3 == e - 1))
		return NULL;
	for (size_t k = 0; k < f->np; k++)
		if (strlen(f->param[k]) == c->t.v[b + 2].len &&
		    memcmp(f->param[k], tsrc(c, b + 2), c->t.v[b + 2].len) == 0)
			return fl_xasprintf("{%s}", f->param[k]);
	return NULL;
}

static size_t raised_param(const ctx *c, size_t i, size_t b, size_t e, bool *fmt);

static void fac_make(ctx *c, fl_factories *fs, const char *prefix, size_t name,
		     size_t popen, size_t cls, size_t copen)
{
	fl_factory f = {0};
	size_t st[FL_FAC_PARAMS], en[FL_FAC_PARAMS];
	size_t np = popen == NOIDX ? 0 : args(c, popen, st, en, FL_FAC_PARAMS, NULL);
	for (size_t k = 0; k < np; k++) {
		/* Java `final String expected`: the last name; Kotlin/Scala
		 * `expected: String` (`val expected: String`): the name before ':' */
		size_t nm = NOIDX;
		bool dflt = false;
		for (size_t q = st[k]; q < en[k]; q++) {
			if (c->d != D_JAVA && is_p(c, q, ":"))
				break;
			if (is_id(c, q) && !is(c, q, "val") && !is(c, q, "var"))
				nm = q;
			if (c->match[q] != NOIDX && c->match[q] > q)
				q = c->match[q];
		}
		/* Kotlin/Scala `limit: Int = 10`, and a thrower's Java varargs
		 * `Object... args` (not a constructor's: a class of the same
		 * name in another package would take every `new X(cause)`):
		 * may be left out */
		for (size_t q = st[k]; q < en[k]; q++) {
			bool va = c->d == D_JAVA && prefix && is_p(c, q, ".."); /* "..." lexes as ".." "." */
			dflt |= (c->d != D_JAVA && is_p(c, q, "=")) || va;
			f.varargs |= va && k + 1 == np;
		}
		if (!dflt)
			f.nreq = f.np + 1;
		if (nm == NOIDX) {
			for (size_t q = 0; q < f.np; q++)
				free(f.param[q]);
			return;
		}
		f.param[f.np++] = dup_tok(c, nm);
	}
	size_t ast[16], aen[16];
	size_t na = copen == NOIDX ? 0 : args(c, copen, ast, aen, 16, NULL);
	f.msg = copen == NOIDX ? NULL : jvm_first_msg(c, ast, aen, na, 0, NULL);
	/* a constructor's this(createMessage(options)) or super(createMessage(
	 * token, matches), token): the text a method of the file returns */
	for (size_t k = 0; !f.msg && name == cls && k < na && k < 2; k++)
		f.msg = returned_text(c, ast[k], aen[k]);
	/* a thrower's message handed on whole, perhaps after other
	 * arguments (`throw MismatchedInputException.from(type, msg)`): its
	 * String parameter, as it is or String.format's format */
	for (size_t k = 0; !f.msg && prefix && popen == name + 1 && k < na; k++) {
		bool fmt;
		size_t p = raised_param(c, name, ast[k], aen[k], &fmt);
		if (p != SIZE_MAX && p < f.np)
			f.msg = fl_xasprintf("{%s}", f.param[p]);
	}
	if (!f.msg && na >= 1)
		f.msg = fl_msg_params(&c->t, c->match, ast[0], aen[0], jvm_plus_ops,
				      f.param, f.np);
	if (!f.msg && na >= 1)
		f.msg = format_of_param(c, ast[0], aen[0], &f);
	if (prefix)
		f.name = fl_xasprintf("%s%.*s", prefix, (int)c->t.v[name].len, tsrc(c, name));
	else
		f.name = dup_tok(c, name);
	f.cls = cls == NOIDX ? NULL : dup_tok(c, cls);
	fl_factories_add(fs, &f);
}

/* Find the methods of the file that build or throw exactly one exception
 * (`return new X(...)`, `throw new X(...)`; Kotlin `return X(...)`, `= X(...)`). */
/* The body ('{', or Kotlin's '=') of the method declared with its name at
 * token i (Kotlin `fun name(`, Java `Type name(`), or NOIDX. */
static size_t method_body(const ctx *c, size_t i)
{
	if (i == 0 || !is_id(c, i) || !is_p(c, i + 1, "(") || c->match[i + 1] == NOIDX)
		return NOIDX;
	if (c->d != D_JAVA) {
		if (!is(c, i - 1, "fun") && !is(c, i - 1, "def"))
			return NOIDX;
	} else if (!(is_p(c, i - 1, ">") || is_p(c, i - 1, "]") ||
		     (is_id(c, i - 1) && !is(c, i - 1, "new") &&
		      !is(c, i - 1, "return") && !is(c, i - 1, "throw") &&
		      !is(c, i - 1, "else") && !is(c, i - 1, "case") &&
		      !is(c, i - 1, "yield")))) {
		return NOIDX;
	}
	return fac_body_at(c, c->match[i + 1]);
}

void jvm_fac_find(ctx *c)
{
	c->fac.found = true;
	for (size_t i = 1; i + 1 < c->t.n && c->fac.n < 256; i++) {
		size_t body = method_body(c, i);
		if (body == NOIDX)
			continue;
		size_t ci = NOIDX;
		size_t copen = fl_fac_body_ctor(&c->t, c->match, is_p(c, body, "=") ? body + 1 : body,
						is_p(c, body, "="), fac_ctor_at, c, &ci);
		if (copen == NOIDX)
			continue;
		size_t before = c->fac.n;
		fac_make(c, &c->fac, NULL, i, i + 1, ci, copen);
		/* its message one of the texts a method of the file returns
		 * (`new X(outOfBoundsMessage(kind, i, n))`): tag 1, the
		 * records at that new (rules.c's rule_ctor) */
		size_t st[2], en[2];
		fl_strv v = {0};
		if (c->fac.n == before + 1 && !c->fac.v[before].msg &&
		    args(c, copen, st, en, 2, NULL) >= 1 && jvm_returned_texts(c, st[0], en[0], &v))
			c->fac.v[before].tag = 1;
		fl_strv_free(&v);
	}
}

/* ---- raisers of a message parameter (Java) --------------------------------
 * `static <T> T notEmpty(T chars, String message, Object... values) { ...
 * throw new IllegalArgumentException(String.format(message, values)); ...
 * }` (commons-lang's Validate): a method of any name whose body throws an
 * exception made of one of its String parameters, as it is or as the
 * format of String.format.  Its calls in its own file that give that
 * parameter a text are sites (rules.c's rule_own_raiser): the overload
 * `notEmpty(chars) { return notEmpty(chars, DEFAULT_NOT_EMPTY_MESSAGE); }`
 * states the text the library raises by default.  Found on first use, in
 * ctx's raisers; a factory's tag is 1 when its text is a format. */

/* The parameter of the method declared at token i that the argument
 * [b, e) of a `new X(...)` in its body is: P, String.format(P, ...) or
 * format(P, ...) (*fmt set), P a String parameter; its index, or SIZE_MAX */
static size_t raised_param(const ctx *c, size_t i, size_t b, size_t e, bool *fmt)
{
	*fmt = false;
	/* a supplier of it: () -> String.format(message, values) */
	if (e - b >= 4 && is_p(c, b, "(") && c->match[b] == b + 1 && is_p(c, b + 2, "->"))
		b += 3;
	if (e - b >= 5 && is(c, b, "String") && is_p(c, b + 1, ".") && is(c, b + 2, "format") &&
	    is_p(c, b + 3, "(") && c->match[b + 3] == e - 1) {
		b += 4;
		*fmt = true;
	} else if (e - b >= 3 && is(c, b, "format") && is_p(c, b + 1, "(") && c->match[b + 1] == e - 1) {
		b += 2;
		*fmt = true;
	}
	if (!is_id(c, b) || (*fmt ? !(is_p(c, b + 1, ",") || b + 2 == e) : b + 1 != e))
		return SIZE_MAX;
	size_t st[FL_FAC_PARAMS], en[FL_FAC_PARAMS];
	size_t np = args(c, i + 1, st, en, FL_FAC_PARAMS, NULL);
	for (size_t k = 0; k < np; k++) {
		size_t last = en[k] - 1;
		bool str = false;
		for (size_t q = st[k]; q < last; q++)
			str |= is(c, q, "String");
		if (str && c->t.v[last].len == c->t.v[b].len &&
		    memcmp(tsrc(c, last), tsrc(c, b), c->t.v[b].len) == 0)
			return k;
	}
	return SIZE_MAX;
}

/* The type of the parameter [b, e) of the method declared at token decl,
 * as text in out: its tokens but the last (the name), `final` left out; a
 * type parameter of the method by its bound (`<T extends Collection<?>>
 * ... final T collection`: "Collection<?>"). */
static void param_type(const ctx *c, size_t decl, size_t b, size_t e, fl_buf *out)
{
	out->n = 0;
	while (b + 1 < e && is(c, b, "final"))
		b++;
	if (b + 2 == e && is_id(c, b)) {
		/* T: the method's `<T extends X>`, before its name */
		for (size_t q = decl; q > 2 && decl - q < 48; q--) {
			if (is_p(c, q, ";") || is_p(c, q, "{") || is_p(c, q, "}"))
				break;
			if (!(is_p(c, q - 2, "<") || is_p(c, q - 2, ",")) || !is(c, q, "extends") ||
			    c->t.v[q - 1].len != c->t.v[b].len ||
			    memcmp(tsrc(c, q - 1), tsrc(c, b), c->t.v[b].len) != 0)
				continue;
			int depth = 0;
			for (size_t k = q + 1; k < decl; k++) {
				if (is_p(c, k, "<"))
					depth++;
				else if (is_p(c, k, ">") && depth-- == 0)
					break;
				else if (is_p(c, k, ">>"))
					break; /* the bound's and the list's ends */
				if (depth == 0 && is_p(c, k, ","))
					break;
				fl_buf_put(out, tsrc(c, k), c->t.v[k].len);
			}
			return;
		}
	}
	for (size_t k = b; k + 1 < e; k++)
		fl_buf_put(out, tsrc(c, k), c->t.v[k].len);
}

/* Whether the call with arguments st/en (na) made in the method declared
 * at token decl may be of the overload declared at fn, whose parameters
 * are pst/pen (np, var: the last are varargs): an argument that is a
 * parameter of the caller has the callee's parameter's type
 * (`notEmpty(final T[] array)` calls the overload of arrays, not the one
 * of collections). */
static bool overload_fits(const ctx *c, size_t decl, const size_t *st, const size_t *en,
			  size_t na, size_t fn, const size_t *pst, const size_t *pen, size_t np,
			  bool var)
{
	if (decl == NOIDX)
		return true;
	size_t cst[FL_FAC_PARAMS], cen[FL_FAC_PARAMS];
	size_t nc = args(c, decl + 1, cst, cen, FL_FAC_PARAMS, NULL);
	fl_buf x = {0}, y = {0};
	bool fits = true;
	for (size_t a = 0; a < na && a < np && fits; a++) {
		if (en[a] != st[a] + 1 || !is_id(c, st[a]) || (var && a + 1 >= np))
			continue;
		for (size_t p = 0; p < nc && fits; p++) {
			size_t nm = cen[p] - 1;
			if (c->t.v[nm].len != c->t.v[st[a]].len ||
			    memcmp(tsrc(c, nm), tsrc(c, st[a]), c->t.v[nm].len) != 0)
				continue;
			param_type(c, decl, cst[p], cen[p], &x);
			param_type(c, fn, pst[a], pen[a], &y);
			fits = x.n == y.n && memcmp(x.s, y.s, x.n) == 0;
		}
	}
	fl_buf_free(&x);
	fl_buf_free(&y);
	return fits;
}

size_t jvm_raiser_consts(ctx *c, size_t fn, size_t b, size_t e, fl_strv *out, bool *fmt)
{
	if (c->d != D_JAVA || fn == 0 || fn + 1 >= c->t.n || !is_p(c, fn + 1, "(") ||
	    c->match[fn + 1] == NOIDX)
		return 0;
	size_t k = raised_param(c, fn, b, e, fmt);
	/* each a walk over the file: a few dozen a file */
	if (k == SIZE_MAX || c->raiser_walks++ >= 64)
		return 0;
	size_t pst[FL_FAC_PARAMS], pen[FL_FAC_PARAMS];
	size_t np = args(c, fn + 1, pst, pen, FL_FAC_PARAMS, NULL);
	/* varargs last (`Object... values`: ".." "." before its name) */
	bool var = np && pen[np - 1] >= pst[np - 1] + 2 && is_p(c, pen[np - 1] - 2, ".");
	size_t added = 0, decl = NOIDX, decl_end = 0;
	for (size_t q = 0; q + 1 < c->t.n && out->n < 64; q++) {
		if (q >= decl_end)
			decl = NOIDX;
		size_t body = is_id(c, q) && is_p(c, q + 1, "(") ? method_body(c, q) : NOIDX;
		if (body != NOIDX && is_p(c, body, "{") && c->match[body] != NOIDX) {
			decl = q;
			decl_end = c->match[body];
		}
		if (c->t.v[q].len != c->t.v[fn].len || !is_id(c, q) || q == fn ||
		    memcmp(tsrc(c, q), tsrc(c, fn), c->t.v[fn].len) != 0 || !is_p(c, q + 1, "(") ||
		    c->match[q + 1] == NOIDX || body != NOIDX ||
		    (q > 0 && is_p(c, q - 1, ".") && !(q >= 2 && is(c, q - 2, "this"))))
			continue;
		size_t st[16], en[16];
		size_t na = args(c, q + 1, st, en, 16, NULL);
		if (na <= k || (na > np && !var) || !overload_fits(c, decl, st, en, na, fn, pst, pen, np, var))
			continue;
		/* a constant: NAME or Outer.NAME */
		if (!jvm_name_ref(c, st[k], en[k]))
			continue;
		char *m = jvm_var_arg_msg(c, st[k], en[k]);
		if (!m || !strchr(m, ' ') || fl_msg_plain_letters(m) < 4) {
			free(m);
			continue;
		}
		if (*fmt)
			jvm_decode_printf(m);
		bool seen = false;
		for (size_t j = 0; j < out->n && !seen; j++)
			seen = strcmp(out->v[j], m) == 0;
		if (seen) {
			free(m);
			continue;
		}
		fl_strv_push(out, m);
		free(m);
		added++;
	}
	return added;
}

static bool ws_byte(char ch);
static bool jid_byte(char ch);

/* A byte scan from q: the next `throw new X(name)` or `throw new
 * X(String.format(name, ...` (or `format(name, ...`), name an identifier,
 * what a raiser of its parameter throws: the offset of its `throw`, or
 * SIZE_MAX. */
static size_t next_raise_param(const char *s, size_t n, size_t from)
{
	for (const char *q = s + from; (q = fl_memmem(q, (size_t)(s + n - q), "throw new ", 10)) != NULL;) {
		const char *at = q, *p = q + 10, *e = s + n;
		q = p;
		while (p < e && (jid_byte(*p) || *p == '.'))
			p++;
		while (p < e && ws_byte(*p))
			p++;
		if (p >= e || *p != '(')
			continue;
		p++;
		while (p < e && ws_byte(*p))
			p++;
		if ((size_t)(e - p) > 14 && memcmp(p, "String.format(", 14) == 0)
			p += 14;
		else if ((size_t)(e - p) > 7 && memcmp(p, "format(", 7) == 0)
			p += 7;
		const char *b = p;
		while (p < e && jid_byte(*p))
			p++;
		if (p == b || (*b >= '0' && *b <= '9'))
			continue;
		while (p < e && ws_byte(*p))
			p++;
		if (p < e && (*p == ')' || *p == ','))
			return (size_t)(at - s);
	}
	return SIZE_MAX;
}

/* The token that starts at byte off, or NOIDX. */
static size_t tok_at(const ctx *c, size_t off)
{
	size_t lo = 0, hi = c->t.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->t.v[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->t.n && c->t.v[lo].off == off ? lo : NOIDX;
}

/* The name token of the method whose body holds token q, or NOIDX. */
static size_t enclosing_method(const ctx *c, size_t q)
{
	size_t steps = 0;
	for (size_t k = q; k-- > 0 && steps < 20000; steps++) {
		if (c->match[k] == NOIDX || c->match[k] < q) {
			/* a closed bracket before q: step over it */
			if (c->match[k] != NOIDX && c->match[k] < k)
				k = c->match[k];
			continue;
		}
		if (!is_p(c, k, "{"))
			continue;
		/* a block around q: a method's body? `name(...) [throws X] {` */
		size_t p = k;
		while (p > 0 && (is_id(c, p - 1) || is_p(c, p - 1, ",") || is_p(c, p - 1, ".")) &&
		       k - p < 32)
			p--;
		if (p > 0 && is_p(c, p - 1, ")") && c->match[p - 1] != NOIDX && c->match[p - 1] >= 2) {
			size_t nm = c->match[p - 1] - 1;
			if (method_body(c, nm) == k)
				return nm;
		}
	}
	return NOIDX;
}

const fl_factory *jvm_raiser_named(const ctx *c, size_t i)
{
	for (size_t k = 0; k < c->raisers.n; k++)
		if (c->raisers.v[k].nlen == c->t.v[i].len &&
		    memcmp(c->raisers.v[k].name, tsrc(c, i), c->t.v[i].len) == 0)
			return &c->raisers.v[k];
	return NULL;
}

/* The method named at token i a raiser of its parameter k: of the class
 * named at token cls, else of the class cname; fmt: the text is a
 * format. */
static void add_raiser(ctx *c, size_t i, size_t k, size_t cls, const char *cname, bool fmt)
{
	size_t before = c->raisers.n;
	fac_make(c, &c->raisers, "", i, i + 1, cls, NOIDX);
	if (c->raisers.n == before + 1 && k < c->raisers.v[before].np) {
		fl_factory *f = &c->raisers.v[before];
		f->msg = fl_xasprintf("{%s}", f->param[k]);
		if (!f->cls && cname)
			f->cls = fl_xstrdup(cname);
		f->tag = fmt;
	}
}

void jvm_raisers_find(ctx *c)
{
	c->raisers.found = true;
	if (c->d != D_JAVA)
		return;
	size_t last = NOIDX, tried = 0;
	/* bounded: a generated file of thousands of such throws in one
	 * method is walked back from a few hundred */
	for (size_t off = next_raise_param(c->t.src, c->t.srclen, 0);
	     off != SIZE_MAX && c->raisers.n < 256 && tried++ < 512;
	     off = next_raise_param(c->t.src, c->t.srclen, off + 10)) {
		size_t q = tok_at(c, off);
		if (q == NOIDX || q + 2 >= c->t.n || !is(c, q, "throw") || !is(c, q + 1, "new"))
			continue;
		size_t cls, copen = jvm_ctor_at(c, q + 2, &cls);
		if (copen == NOIDX || c->match[copen] == NOIDX || cls == NOIDX)
			continue;
		size_t i = enclosing_method(c, q);
		if (i == NOIDX || i == last)
			continue; /* a method's first such throw */
		size_t st[4], en[4];
		bool fmt;
		size_t na = args(c, copen, st, en, 4, NULL);
		size_t k = na >= 1 ? raised_param(c, i, st[0], en[0], &fmt) : SIZE_MAX;
		if (k == SIZE_MAX)
			continue;
		last = i;
		add_raiser(c, i, k, cls, NULL, fmt);
	}
	/* Objects.requireNonNull(object, message) (or a supplier of its
	 * format) of a parameter: a NullPointerException of it */
	tried = 0;
	for (const char *q = c->t.src; c->raisers.n < 256 && tried++ < 512 &&
	     (q = fl_memmem(q, (size_t)(c->t.src + c->t.srclen - q), "requireNonNull(", 15)) != NULL;
	     q += 15) {
		size_t r = tok_at(c, (size_t)(q - c->t.src));
		if (r == NOIDX || r + 1 >= c->t.n || !is_p(c, r + 1, "(") || c->match[r + 1] == NOIDX ||
		    (r > 0 && is_p(c, r - 1, ".") &&
							     !(r >= 2 && is(c, r - 2, "Objects"))))
			continue;
		size_t st[4], en[4];
		bool fmt;
		size_t i = enclosing_method(c, r);
		if (i == NOIDX || args(c, r + 1, st, en, 4, NULL) != 2)
			continue;
		size_t k = raised_param(c, i, st[1], en[1], &fmt);
		/* not a method of a throw of it, found above */
		if (k != SIZE_MAX && !jvm_raiser_named(c, i))
			add_raiser(c, i, k, NOIDX, "NullPointerException", fmt);
	}
}

/* The tree's factory of that name for na arguments (fl_factories_find):
 * every use of the tree by a scan goes through here.  An early scan
 * (c->log) takes the tree for empty (none) and logs the lookup: a
 * name's length, the arguments, the name. */
const fl_factory *jvm_tree_find(ctx *c, const char *name, size_t len, size_t na)
{
	return jvm_tree_find_own(c, name, len, na, false);
}

/* (the log's argument count holds own in its top bit) */
#define LOG_OWN 0x80000000u
/* (and a lookup that picks among overloads by the call's arguments,
 * jvm_tree_find_fit, in the bit below, the arguments' texts after the
 * name) */
#define LOG_FIT 0x40000000u

const fl_factory *jvm_tree_find_own(ctx *c, const char *name, size_t len, size_t na, bool own)
{
	if (!c->log)
		return fl_factories_find_own(c->ctors, name, len, na, own);
	uint32_t h[2] = {(uint32_t)len, (uint32_t)na | (own ? LOG_OWN : 0)};
	fl_buf_put(c->log, (const char *)h, sizeof h);
	fl_buf_put(c->log, name, len);
	return NULL;
}

struct fit {
	size_t na;
	uint32_t text;
};

/* Whether a call fits thrower f: the argument its message is holds a
 * text, when f has one such parameter. */
static bool fits_text(const fl_factory *f, const void *ud)
{
	const struct fit *a = ud;
	size_t k = jvm_message_param(f);
	return k >= f->np || k >= a->na || k >= 32 || (a->text >> k) & 1;
}

const fl_factory *jvm_tree_find_fit(ctx *c, const char *name, size_t len, size_t na,
				    uint32_t text)
{
	struct fit a = {na, text};
	if (!c->log)
		return fl_factories_find_fit(c->ctors, name, len, na, false, fits_text, &a);
	/* (the arguments' texts after the name: the early scan's test asks
	 * the tree the same question) */
	uint32_t h[2] = {(uint32_t)len, (uint32_t)na | LOG_FIT};
	fl_buf_put(c->log, (const char *)h, sizeof h);
	fl_buf_put(c->log, name, len);
	fl_buf_put(c->log, (const char *)&text, sizeof text);
	return NULL;
}

/* ---- exception classes whose constructors build the message ---------------
 * `class ResourceNotFoundException extends RuntimeException {
 * ResourceNotFoundException(String resource, Object id) {
 * super(String.format("%s not found with id %s", resource, id)); } }` (Java),
 * `class NotFound(id: String) : RuntimeException("Item $id not found")`
 * (Kotlin): each constructor is kept as a factory of its class (lex.h), and
 * `throw new ResourceNotFoundException("User", id)` in any file of the tree
 * gets the message the constructor builds. */

/* A constructor that hands its one parameter to its base unchanged
 * (`NullPointerException(String s) { super(s); }`) builds no message of
 * its own: a throw of it is read as any other (its message is the
 * argument), so it is kept without one, and the early scan of a file that
 * throws it stands (jvm_early_holds). */
static void ctor_passes_through(fl_factories *fs, size_t before)
{
	if (fs->n != before + 1)
		return;
	fl_factory *f = &fs->v[fs->n - 1];
	size_t n = f->msg ? strlen(f->msg) : 0;
	if (n < 3 || f->msg[0] != '{' || f->msg[n - 1] != '}')
		return;
	for (size_t k = 0; k < f->np; k++)
		if (strlen(f->param[k]) == n - 2 && memcmp(f->param[k], f->msg + 1, n - 2) == 0) {
			free(f->msg);
			f->msg = NULL;
			return;
		}
}

/* The one text `String getMessage() { return ...; }` returns in the class
 * body [b, e): what every instance shows, whatever its constructor passed
 * on; NULL when there is no such method, it returns in more than one
 * place (each text is then a site of its own: rules.c), or it builds on
 * the base's message (super). */
static char *get_message_text(ctx *c, size_t b, size_t e)
{
	for (size_t q = b + 1; q + 3 < e; q++) {
		if (!is(c, q, "getMessage") || !is(c, q - 1, "String") || !is_p(c, q + 1, "(") ||
		    !is_p(c, q + 2, ")") || !is_p(c, q + 3, "{") || c->match[q + 3] == NOIDX)
			continue;
		size_t end = c->match[q + 3], ret = NOIDX;
		for (size_t r = q + 4; r < end; r++) {
			/* the base's message, directly or through a method of the
			 * class (`getBaseMessage()`): what the constructor passed
			 * on still shows */
			if (is(c, r, "super") || is(c, r, "getMessage") || is(c, r, "getLocalizedMessage") ||
			    (is_id(c, r) && is_p(c, r + 1, "(") && !is_p(c, r - 1, ".")))
				return NULL;
			if (is(c, r, "return")) {
				if (ret != NOIDX)
					return NULL;
				ret = r;
			}
		}
		if (ret == NOIDX)
			return NULL;
		size_t x = return_end(c, ret, end);
		return x > ret + 1 && x < end ? jvm_var_arg_msg(c, ret + 1, x) : NULL;
	}
	return NULL;
}

static void class_ctors(ctx *c, fl_factories *fs)
{
	for (size_t i = 0; i + 3 < c->t.n && fs->n < 65536; i++) {
		if (!is(c, i, "class") || !is_id(c, i + 1))
			continue;
		size_t name = i + 1, k = name + 1;
		if (!jvm_excy_name(tsrc(c, name), c->t.v[name].len))
			continue;
		if (c->d != D_JAVA) {
			/* class NAME(params) : BASE(args) */
			size_t popen = NOIDX;
			if (is_p(c, k, "(") && c->match[k] != NOIDX) {
				popen = k;
				k = c->match[k] + 1;
			}
			if (!is_p(c, k, ":"))
				continue;
			size_t ci;
			size_t o = jvm_ctor_at(c, k + 1, &ci);
			if (o != NOIDX && popen != NOIDX) {
				size_t before = fs->n;
				fac_make(c, fs, NULL, name, popen, name, o);
				ctor_passes_through(fs, before);
			}
			continue;
		}
		/* Java: extends BASE ... { constructors } */
		while (k < c->t.n && !is_p(c, k, "{") && k - name < 64)
			k++;
		if (!is_p(c, k, "{") || c->match[k] == NOIDX)
			continue;
		size_t end = c->match[k], ctors = 0;
		/* getMessage() overridden with one text: the message of every
		 * constructor (and of the default one) */
		char *shown = get_message_text(c, k, end);
		for (size_t q = k + 1; q + 1 < end; q++) {
			if (c->t.v[q].len != c->t.v[name].len || !is_p(c, q + 1, "(") ||
			    memcmp(tsrc(c, q), tsrc(c, name), c->t.v[q].len) != 0 ||
			    is(c, q - 1, "new") || is_p(c, q - 1, ".") ||
			    c->match[q + 1] == NOIDX)
				continue;
			size_t body = fac_body_at(c, c->match[q + 1]);
			if (shown && body != NOIDX && is_p(c, body, "{")) {
				size_t before = fs->n;
				fac_make(c, fs, NULL, name, q + 1, name, NOIDX);
				if (fs->n == before + 1 && !fs->v[before].msg)
					fs->v[before].msg = fl_xstrdup(shown);
				ctors++;
				continue;
			}
			/* super(...), or this(...): another constructor of the
			 * class given the message (commons-cli's
			 * `this("Missing argument for option: " + option.getKey())`) */
			if (body == NOIDX || !is_p(c, body, "{") ||
			    !(is(c, body + 1, "super") || is(c, body + 1, "this")) ||
			    !is_p(c, body + 2, "("))
				continue;
			size_t before = fs->n;
			fac_make(c, fs, NULL, name, q + 1, name, body + 2);
			ctor_passes_through(fs, before);
		}
		if (shown && !ctors) {
			size_t before = fs->n;
			fac_make(c, fs, NULL, name, NOIDX, name, NOIDX);
			if (fs->n == before + 1 && !fs->v[before].msg)
				fs->v[before].msg = fl_xstrdup(shown);
		}
		free(shown);
	}
}

/* ---- thrower methods (Java) ---------------------------------------------------
 * `protected void _reportError(String msg) throws JsonParseException { throw
 * _constructReadException(msg); }` (jackson): a method whose body is one
 * throw is a reporter, like C's die(); each call `_reportError("Unexpected
 * end-of-input")`, in any file of the tree, is a site with the message the
 * method builds from its arguments.  Kept in the tree as "throws:NAME". */
/* A thrower is named like one (as C's reporters are): an override such as
 * `write(JsonWriter out, Class value) { throw new Unsupported...; }` must not
 * make every `write(a, b);` of the tree a site. */
static bool thrower_word(const char *s, size_t n)
{
	static const char *const words[] = {"report", "throw", "fail", "error", "raise",
					    "invalid", "illegal", "unsupported",
					    "unexpected", "abort", "panic", "die",
					    /* the conditional ones: check(ok, msg) */
					    "check", "require", "ensure", "verify", "validate",
					    "assert", NULL};
	/* asked of every call of a file: one pass over the name, a word
	 * tried only where the name has its first letter (in either case) */
	if (n < 3)
		return false;
	for (size_t a = 0; a + 3 <= n; a++) {
		char ch = s[a] >= 'A' && s[a] <= 'Z' ? (char)(s[a] - 'A' + 'a') : s[a];
		switch (ch) {
		case 'r': case 't': case 'f': case 'e': case 'i':
		case 'u': case 'a': case 'p': case 'd': case 'c': case 'v':
			break;
		default:
			continue;
		}
		for (const char *const *w = words; *w; w++) {
			if ((*w)[0] != ch)
				continue;
			size_t k = 1;
			for (; (*w)[k] && a + k < n; k++) {
				char x = s[a + k];
				if (x >= 'A' && x <= 'Z')
					x = (char)(x - 'A' + 'a');
				if (x != (*w)[k])
					break;
			}
			if (!(*w)[k])
				return true;
		}
	}
	return false;
}

static bool thrower_name(const ctx *c, size_t i)
{
	return thrower_word(tsrc(c, i), c->t.v[i].len);
}

/* The '(' of the exception a thrower method named at token i builds
 * (`{ throw new X(...); }` or `{ throw factory(...); }`, the whole body), its
 * class token in *cls (NOIDX for a factory's), or NOIDX.  A body that is
 * one if around the throw (`{ if (!ok) throw new X(msg); }`, `{ if (bad) {
 * throw ...; } }`, either followed by `return obj;`) gives the if's
 * condition in [*cb, *ce) (else both 0). */
static size_t thrower_body(const ctx *c, size_t i, size_t *cls, size_t *cb, size_t *ce)
{
	size_t body = method_body(c, i);
	*cls = NOIDX;
	*cb = *ce = 0;
	if (body == NOIDX || !is_p(c, body, "{"))
		return NOIDX;
	size_t end = c->match[body];
	if (end == NOIDX)
		return NOIDX;
	if (is(c, body + 1, "if") && is_p(c, body + 2, "(") && c->match[body + 2] != NOIDX) {
		/* a checker that returns what it checked after the if
		 * (`{ if (obj == null) throw new NullPointerException(msg);
		 * return obj; }`, requireNonNull's and checkNotNull's form):
		 * the if ends at the return */
		if (end >= body + 6 && is(c, end - 3, "return") && is_id(c, end - 2) && is_p(c, end - 1, ";"))
			end -= is(c, end - 4, "else") ? 4 : 3; /* (jsoup's `else return obj;`) */
		size_t cp = c->match[body + 2], t0 = cp + 1;
		bool braced = is_p(c, t0, "{") && c->match[t0] == end - 1;
		if (braced)
			t0++;
		if (!is(c, t0, "throw"))
			return NOIDX;
		*cb = body + 3;
		*ce = cp;
		body = t0 - 1; /* as if the throw opened the body */
		if (braced)
			end = c->match[t0 - 1];
	}
	/* the message parameter formatted first: `msg = _format(msg,
	 * args);` (or String.format), then the throw */
	while (*ce == 0 && is_id(c, body + 1) && is_p(c, body + 2, "=") && is_id(c, body + 3)) {
		size_t q = body + 4;
		if (is_p(c, q, ".") && is_id(c, q + 1))
			q += 2; /* String.format */
		if (!is_p(c, q, "(") || c->match[q] == NOIDX || !is_p(c, c->match[q] + 1, ";") ||
		    !is_id(c, q + 1) || c->t.v[q + 1].len != c->t.v[body + 1].len ||
		    memcmp(tsrc(c, q + 1), tsrc(c, body + 1), c->t.v[q + 1].len) != 0)
			break;
		body = c->match[q] + 1; /* as if the throw opened the body */
	}
	if (!is(c, body + 1, "throw"))
		return NOIDX;
	size_t x = body + 2, copen;
	if (is(c, x, "new"))
		copen = jvm_ctor_at(c, x + 1, cls);
	else if (is_id(c, x) && is_p(c, x + 1, "("))
		copen = x + 1; /* another factory: its class is not known */
	else if (is_id(c, x) && is_upper(tsrc(c, x)[0]) && is_p(c, x + 1, ".") && is_id(c, x + 2) &&
		 is_p(c, x + 3, "(")) {
		/* a static factory of an exception class:
		 * `MismatchedInputException.from(p, type, msg)` */
		copen = x + 3;
		if (jvm_excy_name(tsrc(c, x), c->t.v[x].len))
			*cls = x;
	} else
		return NOIDX;
	if (copen == NOIDX || c->match[copen] == NOIDX ||
	    !is_p(c, c->match[copen] + 1, ";") || c->match[copen] + 2 != end)
		return NOIDX;
	return copen;
}

/* Words a thrower's condition may hold besides its parameters. */
static const char *const cond_words[] = {"null", "true", "false", "instanceof", NULL};

/* A thrower that hands its parameters to another thrower of the tree
 * (Guava's `verifyNotNull(reference, template, args) { verify(reference !=
 * null, template, args); return reference; }`): its body one call
 * statement of a method named like a thrower, as it is or returned, then
 * at most `return obj;`.  Kept in the tree as "fwd:NAME" with its
 * parameters, the callee's name as msg, and the call's arguments, each
 * written on the parameters ({param}), joined by '\x1f' as cond: the
 * callee may be in another file, resolved at each call (rules.c's
 * forwarded).
 * False when the body is not of that form. */
static bool forwarder(ctx *c, fl_factories *fs, size_t i)
{
	size_t body = method_body(c, i);
	if (body == NOIDX || !is_p(c, body, "{") || c->match[body] == NOIDX)
		return false;
	size_t end = c->match[body], k = body + 1;
	if (end >= body + 5 && is(c, end - 3, "return") && is_id(c, end - 2) && is_p(c, end - 1, ";"))
		end -= 3;
	if (is(c, k, "return"))
		k++;
	if (is(c, k, "this") && is_p(c, k + 1, "."))
		k += 2;
	else if (is_id(c, k) && is_upper(tsrc(c, k)[0]) && is_p(c, k + 1, "."))
		k += 2; /* Class.callee(...) */
	if (!is_id(c, k) || !is_p(c, k + 1, "(") || c->match[k + 1] == NOIDX ||
	    !is_p(c, c->match[k + 1] + 1, ";") || c->match[k + 1] + 2 != end || !thrower_name(c, k))
		return false;
	/* the parameters, as a factory's */
	fl_factories tmp = {0};
	fac_make(c, &tmp, "fwd:", i, i + 1, NOIDX, NOIDX);
	if (tmp.n != 1) {
		fl_factories_free(&tmp);
		return false;
	}
	fl_factory *f = &tmp.v[0];
	size_t st[16], en[16];
	size_t na = args(c, k + 1, st, en, 16, NULL);
	bool same = c->t.v[k].len == c->t.v[i].len && memcmp(tsrc(c, k), tsrc(c, i), c->t.v[i].len) == 0;
	fl_buf b = {0};
	bool ok = na > 0 && !(same && na == f->np);
	for (size_t a = 0; a < na && ok; a++) {
		char *t = fl_cond_template(&c->t, st[a], en[a], f->param, f->np, cond_words);
		if (!t)
			t = fl_msg_params(&c->t, c->match, st[a], en[a], jvm_plus_ops, f->param, f->np);
		if (!t)
			t = format_of_param(c, st[a], en[a], f);
		ok = t && !strchr(t, '\x1f');
		if (ok) {
			if (a)
				fl_buf_putc(&b, '\x1f');
			fl_buf_puts(&b, t);
		}
		free(t);
	}
	if (ok) {
		fl_factory g = *f;
		memset(f, 0, sizeof *f); /* moved */
		tmp.n = 0;
		free(g.msg);
		g.msg = dup_tok(c, k);
		g.cond = fl_xstrdup(fl_buf_cstr(&b));
		fl_factories_add(fs, &g);
	}
	fl_buf_free(&b);
	fl_factories_free(&tmp);
	return ok;
}

static void class_throwers(ctx *c, fl_factories *fs)
{
	for (size_t i = 1; i + 4 < c->t.n && fs->n < 65536; i++) {
		/* a declaration first (a few tokens' test), then its name */
		if (!is_id(c, i) || !is_p(c, i + 1, "(") || method_body(c, i) == NOIDX || !thrower_name(c, i))
			continue;
		size_t cls, cb, ce;
		size_t copen = thrower_body(c, i, &cls, &cb, &ce);
		if (copen == NOIDX) {
			forwarder(c, fs, i);
			continue;
		}
		size_t before = fs->n;
		fac_make(c, fs, THROWER, i, i + 1, cls, copen);
		if (ce > cb && fs->n > before) {
			fl_factory *f = &fs->v[fs->n - 1];
			/* a message of its own raises at its throw (the top
			 * frame); one made of a parameter, at each call */
			bool named = false;
			for (size_t q = 0; f->msg && q < f->np && !named; q++) {
				char ph[300];
				snprintf(ph, sizeof ph, "{%s}", f->param[q]);
				named = strstr(f->msg, ph) != NULL;
			}
			f->cond = named ? fl_cond_template(&c->t, cb, ce, f->param, f->np, cond_words) : NULL;
			if (!f->cond) {
				/* on what a call cannot state: a thrower only
				 * sometimes, of unknown condition */
				free(f->msg);
				f->msg = NULL;
			}
		}
	}
}

/* Whether this file declares a method of that name and arity that is not a
 * thrower (its own reportError that logs, or an overload that delegates):
 * then the call is not the tree's thrower. */
bool jvm_own_non_thrower(ctx *c, size_t i, size_t na)
{
	char key[300];
	if (!c->own_built) {
		c->own_built = true;
		for (size_t k = 1; k + 1 < c->t.n; k++) {
			if (!is_id(c, k) || !is_p(c, k + 1, "(") || c->t.v[k].len > 256 ||
			    method_body(c, k) == NOIDX || !thrower_name(c, k))
				continue;
			size_t st[16], en[16], cls, old;
			size_t np = args(c, k + 1, st, en, 16, NULL);
			size_t cb, ce;
			size_t v = thrower_body(c, k, &cls, &cb, &ce) != NOIDX;
			snprintf(key, sizeof key, "%.*s/%zu", (int)c->t.v[k].len, tsrc(c, k), np);
			if (!fl_strmap_get(&c->own, key, &old) || old)
				fl_strmap_put(&c->own, key, v);
		}
	}
	if (c->t.v[i].len > 256)
		return false;
	snprintf(key, sizeof key, "%.*s/%zu", (int)c->t.v[i].len, tsrc(c, i), na);
	size_t v = 1;
	return fl_strmap_get(&c->own, key, &v) && v == 0;
}

static bool ws_char(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static const char *first_if_brace(const char *s, const char *p);

/* Whether the bytes before p (white space skipped) end a block's first if:
 * `{ if (...)` or `{ if (...) {`, its condition without ; { } */
static bool after_first_if(const char *s, const char *p)
{
	return first_if_brace(s, p) != NULL;
}

/* after_first_if's block: its '{', or NULL */
static const char *first_if_brace(const char *s, const char *p)
{
	const char *b = p;
	while (b > s && ws_char(b[-1]))
		b--;
	if (b > s && b[-1] == '{') {
		b--;
		while (b > s && ws_char(b[-1]))
			b--;
	}
	if (b <= s || b[-1] != ')')
		return NULL;
	int depth = 0;
	const char *lim = b - 200 > s ? b - 200 : s;
	for (b--; b > lim; b--) {
		if (*b == ')')
			depth++;
		else if (*b == '(' && --depth == 0)
			break;
		else if (*b == ';' || *b == '{' || *b == '}')
			return NULL;
	}
	if (b <= lim || *b != '(')
		return NULL;
	while (b > s && ws_char(b[-1]))
		b--;
	if (b - s < 3 || b[-1] != 'f' || b[-2] != 'i')
		return NULL;
	b -= 2;
	while (b > s && ws_char(b[-1]))
		b--;
	return b > s && b[-1] == '{' ? b - 1 : NULL;
}

/* A byte scan: whether a file can declare such a method (a '{' followed by
 * `throw `, or by one if around it). */
/* A byte scan back from b (exclusive) over one statement that formats a
 * variable again, `msg = _format(msg, args);` (thrower_body): where it
 * starts, or b when there is none; NULL for a maybe (a string or a
 * comment in its arguments). */
static const char *back_reformat(const char *s, const char *b)
{
	const char *p = b;
	while (p > s && ws_char(p[-1]))
		p--;
	if (p == s || p[-1] != ';')
		return b;
	p--;
	while (p > s && ws_char(p[-1]))
		p--;
	if (p == s || p[-1] != ')')
		return b;
	int depth = 0;
	for (p--;; p--) {
		if (p == s || b - p > 4096)
			return b;
		if (*p == '"' || *p == '/' || *p == '\'')
			return NULL;
		if (*p == ')')
			depth++;
		else if (*p == '(' && --depth == 0)
			break;
	}
	while (p > s && (ws_char(p[-1]) || fl_lx_class[(unsigned char)p[-1]] & 3 || p[-1] == '.'))
		p--;
	if (p == s || p[-1] != '=')
		return b;
	p--;
	while (p > s && ws_char(p[-1]))
		p--;
	const char *e = p;
	while (p > s && fl_lx_class[(unsigned char)p[-1]] & 3)
		p--;
	return p < e ? p : b;
}

static bool has_thrower(const char *s, size_t n)
{
	for (const char *p = s; (p = fl_memmem(p, (size_t)(s + n - p), "throw ", 6)) != NULL; p += 6) {
		const char *b = back_reformat(s, p);
		if (!b)
			return true;
		while (b > s && ws_char(b[-1]))
			b--;
		if (b > s && b[-1] == '{')
			return true;
		if (after_first_if(s, p))
			return true;
	}
	return false;
}

/* The Java lexer's white space and identifier bytes ('$' included). */
static bool ws_byte(char ch)
{
	return fl_lx_class[(unsigned char)ch] & 36;
}

static bool jid_byte(char ch)
{
	return fl_lx_class[(unsigned char)ch] & 3;
}

/* Whether the line that ends at s[p] (exclusive) may hold a comment: a
 * walk back to a line before may have stepped over one (`// see: x`). */
static bool line_has_slash(const char *s, size_t p)
{
	while (p > 0 && s[p - 1] != '\n')
		if (s[--p] == '/')
			return true;
	return false;
}

/* p moved back over white space; *maybe set when it steps onto a line
 * that may end in a comment. */
static size_t back_ws(const char *s, size_t p, bool *maybe)
{
	while (p > 0 && ws_byte(s[p - 1])) {
		p--;
		if (s[p] == '\n' && line_has_slash(s, p))
			*maybe = true;
	}
	return p;
}

/* A byte scan, after has_thrower(): whether the file can declare a thrower
 * method (class_throwers): a `{` then `throw` (nothing but white space
 * between) that opens the body of a method whose name is a thrower's:
 * `name(...) {` or `name(...) throws X, Y {`.  Whatever a byte scan cannot
 * judge (a comment, an escape, a string in the parameters) is a maybe. */
static bool may_declare_thrower(const char *s, size_t n)
{
	for (const char *q = s; (q = fl_memmem(q, (size_t)(s + n - q), "throw", 5)) != NULL; q += 5) {
		size_t at = (size_t)(q - s);
		if ((at > 0 && jid_byte(s[at - 1])) ||
		    (at + 5 < n && jid_byte(s[at + 5])))
			continue;
		bool maybe = false;
		const char *rf = back_reformat(s, q);
		if (!rf)
			return true;
		size_t p = back_ws(s, (size_t)(rf - s), &maybe);
		if (maybe || (p > 0 && s[p - 1] == '/'))
			return true;
		{
			/* `{ if (!ok) throw`, `{ if (!ok) { throw`: the body's
			 * one if */
			const char *f = first_if_brace(s, q);
			if (f)
				p = (size_t)(f - s) + 1;
			else if (p == 0 || s[p - 1] != '{')
				continue;
		}
		p--;
		/* back over a throws clause to the parameters' ')' */
		while (p > 0 && (jid_byte(s[p - 1]) || ws_byte(s[p - 1]) || s[p - 1] == ',' ||
				 s[p - 1] == '.' || s[p - 1] == '<' || s[p - 1] == '>' ||
				 s[p - 1] == '?')) {
			p--;
			if (s[p] == '\n' && line_has_slash(s, p))
				return true;
		}
		if (p == 0)
			continue;
		if (s[p - 1] == '/' || s[p - 1] == '\\')
			return true;
		if (s[p - 1] != ')')
			continue;
		/* back to its '(' */
		p--;
		int depth = 0;
		size_t lim = p > 65536 ? p - 65536 : 0;
		for (;;) {
			if (p == lim)
				return true;
			char ch = s[p];
			if (ch == '"' || ch == '\'' || ch == '/' || ch == '\\')
				return true;
			if (ch == ')')
				depth++;
			else if (ch == '(' && --depth == 0)
				break;
			p--;
		}
		/* the name before it */
		p = back_ws(s, p, &maybe);
		if (maybe || (p > 0 && (s[p - 1] == '/' || s[p - 1] == '\\')))
			return true;
		size_t e = p;
		while (p > 0 && jid_byte(s[p - 1]))
			p--;
		if (p > 0 && s[p - 1] == '\\')
			return true;
		if (thrower_word(s + p, e - p))
			return true;
	}
	return false;
}

/* A byte scan, after has_static_factory(): whether the file has a `new`
 * of a class named like an exception (what a static factory's body
 * returns: fac_ctor), `new pkg.FooException`; a maybe for what a byte
 * scan cannot judge. */
static bool may_new_exception(const char *s, size_t n)
{
	for (const char *q = s; (q = fl_memmem(q, (size_t)(s + n - q), "new", 3)) != NULL; q += 3) {
		size_t at = (size_t)(q - s);
		if ((at > 0 && jid_byte(s[at - 1])) ||
		    (at + 3 < n && jid_byte(s[at + 3])))
			continue;
		size_t p = at + 3, b = p, e = p;
		for (;;) {
			while (p < n && ws_byte(s[p]))
				p++;
			if (p < n && (s[p] == '/' || s[p] == '\\'))
				return true;
			b = p;
			while (p < n && jid_byte(s[p]))
				p++;
			e = p;
			if (p < n && s[p] == '\\')
				return true;
			while (p < n && ws_byte(s[p]))
				p++;
			if (e == b || p >= n || s[p] != '.')
				break;
			p++;
		}
		if (p < n && s[p] == '/')
			return true;
		if (jvm_excy_name(s + b, e - b))
			return true;
	}
	return false;
}

static bool has_ctor_class(const char *s, size_t n)
{
	return fl_may_declare_error_class(s, n);
}

/* A byte scan: a Java file that can declare a static method returning a
 * new exception (`static X method(...) { return new X(...); }`). */
static bool has_static_factory(const char *s, size_t n)
{
	return fl_memmem(s, n, "static ", 7) && fl_memmem(s, n, "return new ", 11) &&
	       (fl_memmem(s, n, "Exception", 9) || fl_memmem(s, n, "Error", 5));
}

/* The name of the file's class: its file name without the extension. */
static bool file_class(const char *path, char *out, size_t cap)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *dot = strrchr(b, '.');
	size_t n = dot ? (size_t)(dot - b) : strlen(b);
	if (!n || n + 2 > cap || !is_upper(b[0]))
		return false;
	memcpy(out, b, n);
	out[n] = '.';
	out[n + 1] = '\0';
	return true;
}

/* The file's static methods that build one exception, in the tree as
 * "Class.method" (commons-io's UnsupportedOperationExceptions.method(name)
 * returns `new UnsupportedOperationException(name + " not supported")`):
 * `throw Class.method(args)` in any file then has the message it builds. */
static void class_static_factories(ctx *c, fl_factories *fs)
{
	char prefix[256];
	if (!c->src->path || !file_class(c->src->path, prefix, sizeof prefix))
		return;
	for (size_t i = 1; i + 1 < c->t.n && fs->n < 65536; i++) {
		size_t body = method_body(c, i);
		if (body == NOIDX || !is_p(c, body, "{"))
			continue;
		/* static among the modifiers before the return type */
		bool stat = false;
		for (size_t k = i; k-- > 0 && i - k < 16;) {
			if (is_p(c, k, ";") || is_p(c, k, "{") || is_p(c, k, "}"))
				break;
			stat |= is(c, k, "static");
		}
		if (!stat)
			continue;
		size_t ci = NOIDX;
		size_t copen = fl_fac_body_ctor(&c->t, c->match, body, false, fac_ctor_at, c, &ci);
		if (copen != NOIDX && ci != NOIDX &&
		    jvm_excy_name(tsrc(c, ci), c->t.v[ci].len))
			fac_make(c, fs, prefix, i, i + 1, ci, copen);
	}
}

/* the tokens a collect pass kept (jvm_lexed) and did not hand to a scan */
void jvm_lexed_free(void *p)
{
	jvm_lexed *x = p;
	if (!x)
		return;
	free(x->match);
	fl_toks_free(&x->t);
	free(x->text);
	free(x);
}

/* A byte scan: the file can declare an error enum (jvm_error_enums_collect):
 * `enum ` before a name with Error, Exception or ResultCode in it. */
static bool has_error_enum(const char *s, size_t n)
{
	for (const char *p = s; (p = fl_memmem(p, (size_t)(s + n - p), "enum ", 5)) != NULL;) {
		p += 5;
		if (s + n - p > 6 && memcmp(p, "class ", 6) == 0)
			p += 6;
		const char *q = p;
		while (q < s + n && (isalnum((unsigned char)*q) || *q == '_' || *q == '$'))
			q++;
		size_t l = (size_t)(q - p);
		if (fl_memmem(p, l, "Error", 5) || fl_memmem(p, l, "Exception", 9) ||
		    (l >= 10 && memcmp(q - 10, "ResultCode", 10) == 0))
			return true;
	}
	return false;
}

static void *jvm_collect_file(void *tree, const fl_src *src, bool keep)
{
	if (!tree || !src->text)
		return NULL;
	if (jvm_props_path(src->path)) {
		jvm_props_collect(tree, src);
		return NULL;
	}
	/* a lexer's or parser's spec: its Java */
	fl_src spec;
	char *own = NULL;
	if (jvm_spec_path(src->path)) {
		own = jvm_spec_mask(src->path, src->text, src->len);
		spec = *src;
		spec.text = own;
		src = &spec;
	}
	bool ctors = has_ctor_class(src->text, src->len);
	bool throwers = jvm_dialect_of(src->path) == D_JAVA && has_thrower(src->text, src->len) &&
			may_declare_thrower(src->text, src->len);
	bool statics = jvm_dialect_of(src->path) == D_JAVA && has_static_factory(src->text, src->len) &&
		       may_new_exception(src->text, src->len);
	bool enums = has_error_enum(src->text, src->len);
	bool keys = jvm_dialect_of(src->path) == D_JAVA && jvm_may_have_key_consts(src->text, src->len);
	if (!ctors && !throwers && !statics && !enums && !keys) {
		free(own);
		return NULL;
	}
	ctx c;
	memset(&c, 0, sizeof c);
	c.d = jvm_dialect_of(src->path);
	c.src = src;
	fl_toks_init(&c.t, src);
	jvm_lex(&c.t, c.d);
	c.match = fl_tok_match_table(&c.t, FL_MATCH_INNERMOST);
	if (ctors)
		class_ctors(&c, tree);
	if (throwers)
		class_throwers(&c, tree);
	if (statics)
		class_static_factories(&c, tree);
	if (enums)
		jvm_error_enums_collect(&c, tree);
	if (keys)
		jvm_key_consts_collect(&c, tree);
	fl_factories_free(&c.fac);
	fl_strmap_free(&c.own);
	fl_scopes_free(&c.sc);
	if (keep) {
		jvm_lexed *x = fl_xmalloc(sizeof *x);
		x->t = c.t;
		x->match = c.match;
		x->text = own;
		return x;
	}
	free(c.match);
	fl_toks_free(&c.t);
	free(own);
	return NULL;
}

/* The file collected into part and scanned on the same tokens, as if the
 * tree were empty (lang.h: collect_scan): the log of the scan's lookups
 * (an fl_buf), or NULL when the hint says it would likely not stand. */
/* The names of the factories the files read so far declare, each with
 * the arities they take: three masks of HINT_ARGS bits (arities 0..20,
 * the last one any more): taken by one of them, by two or more (a lookup
 * of that arity is then ambiguous: none), by one with a message (what a
 * lookup finds); shared by the threads of the read
 * phase: a file that constructs one of them (`new X(`), whose early scan
 * would not stand (the JDK declares the exceptions its files throw), is
 * collected only, and scanned once the tree is whole. */
#define HINT_ARGS 21
#define HINT_TWICE HINT_ARGS
#define HINT_MSG (2 * HINT_ARGS)

typedef struct jvm_hint {
	pthread_mutex_t lock;
	fl_strmap names;
} jvm_hint;

void *jvm_hint_new(void)
{
	jvm_hint *h = fl_xcalloc(1, sizeof *h);
	pthread_mutex_init(&h->lock, NULL);
	return h;
}

void jvm_hint_free(void *p)
{
	jvm_hint *h = p;
	if (!h)
		return;
	pthread_mutex_destroy(&h->lock);
	fl_strmap_free(&h->names);
	free(h);
}

/* The arguments of the call whose '(' is at s[p], counted by bytes (its
 * commas outside brackets and quotes), or -1 when a byte scan cannot tell
 * (a comment, a text block, no ')'). */
static int byte_args(const char *s, size_t n, size_t p)
{
	int depth = 0, commas = 0;
	bool any = false;
	for (size_t q = p + 1; q < n && q < p + 4096; q++) {
		char ch = s[q];
		if (ch == '"' || ch == '\'') {
			if (q + 2 < n && s[q + 1] == ch && s[q + 2] == ch)
				return -1;
			for (q++; q < n && s[q] != ch; q++)
				if (s[q] == '\\')
					q++;
				else if (s[q] == '\n')
					return -1;
			any = true;
			continue;
		}
		if (ch == '/')
			return -1;
		if (ch == '(' || ch == '[' || ch == '{') {
			depth++;
		} else if (ch == ')' || ch == ']' || ch == '}') {
			if (depth-- == 0)
				return any ? commas + 1 : 0;
		} else if (ch == ',' && depth == 0) {
			commas++;
		}
		if (!ws_byte(ch))
			any = true;
	}
	return -1;
}

/* Whether the text constructs a class of a factory declared so far, with
 * an arity it takes: the last name of each `new a.b.X(` looked up.  A
 * guess only: the early scan's lookups decide (jvm_early_holds). */
static bool likely_found(jvm_hint *h, const char *s, size_t n)
{
	bool found = false;
	pthread_mutex_lock(&h->lock);
	if (h->names.n)
		for (const char *q = s; !found && (q = fl_memmem(q, (size_t)(s + n - q), "new", 3)) != NULL; q += 3) {
			size_t at = (size_t)(q - s), p = at + 3;
			if ((at > 0 && jid_byte(s[at - 1])) || p >= n || !ws_byte(s[p]))
				continue;
			size_t b = p, e = p;
			for (;;) {
				while (p < n && ws_byte(s[p]))
					p++;
				b = p;
				while (p < n && jid_byte(s[p]))
					p++;
				e = p;
				if (e == b || p >= n || s[p] != '.')
					break;
				p++;
			}
			char name[256];
			if (e == b || e - b >= sizeof name)
				continue;
			memcpy(name, s + b, e - b);
			name[e - b] = '\0';
			size_t arities;
			if (!fl_strmap_get(&h->names, name, &arities))
				continue;
			while (p < n && ws_byte(s[p]))
				p++;
			int na = p < n && s[p] == '(' ? byte_args(s, n, p) : -1;
			uint64_t v = arities;
			if (na < 0 || na >= HINT_ARGS - 1)
				found = true;
			else /* one factory of that arity, with a message */
				found = (v >> (na + HINT_MSG) & 1) && !(v >> (na + HINT_TWICE) & 1);
		}
	pthread_mutex_unlock(&h->lock);
	return found;
}

void *jvm_collect_scan(void *part, const fl_src *src, fl_sites *out, void *hint)
{
	static const fl_factories none; /* the tree taken for empty */
	jvm_lexed *x = src->text ? jvm_collect_file(part, src, true) : NULL;
	jvm_hint *h = hint;
	const fl_factories *fs = part;
	if (h && fs && fs->n) {
		pthread_mutex_lock(&h->lock);
		for (size_t k = 0; k < fs->n; k++) {
			const fl_factory *f = &fs->v[k];
			uint64_t v = 0;
			size_t got;
			if (fl_strmap_get(&h->names, f->name, &got))
				v = got;
			for (size_t a = f->nreq; a <= (f->varargs ? HINT_ARGS : f->np) && a < HINT_ARGS; a++) {
				uint64_t bit = (uint64_t)1 << a;
				if (v & bit)
					v |= bit << HINT_TWICE;
				v |= bit;
				if (f->msg)
					v |= bit << HINT_MSG;
			}
			if (f->np >= HINT_ARGS || f->varargs) /* any arity over: a maybe */
				v |= (uint64_t)1 << (HINT_ARGS - 1) << HINT_MSG;
			fl_strmap_put(&h->names, f->name, (size_t)v);
		}
		pthread_mutex_unlock(&h->lock);
	}
	if (h && src->text && likely_found(h, src->text, src->len)) {
		jvm_lexed_free(x);
		return NULL;
	}
	fl_buf *log = fl_xcalloc(1, sizeof *log);
	fl_src s = *src;
	s.cache = x;
	ctx c;
	memset(&c, 0, sizeof c);
	c.log = log;
	jvm_scan_ctx(&c, &none, &s, out);
	return log;
}

bool jvm_early_holds(const void *tree, const void *log)
{
	const fl_buf *b = log;
	for (size_t p = 0; p + 8 <= b->n;) {
		uint32_t h[2];
		memcpy(h, b->s + p, sizeof h);
		p += sizeof h;
		if (h[1] & LOG_FIT) {
			struct fit a = {h[1] & ~LOG_FIT, 0};
			if (p + h[0] + sizeof a.text > b->n)
				break;
			memcpy(&a.text, b->s + p + h[0], sizeof a.text);
			if (fl_factories_find_fit(tree, b->s + p, h[0], a.na, false, fits_text, &a))
				return false;
			p += h[0] + sizeof a.text;
			continue;
		}
		if (fl_factories_find_own(tree, b->s + p, h[0], h[1] & ~LOG_OWN, (h[1] & LOG_OWN) != 0))
			return false;
		p += h[0];
	}
	return true;
}

void jvm_early_free(void *log)
{
	if (log)
		fl_buf_free(log);
	free(log);
}

void jvm_collect(void *tree, const fl_src *src)
{
	jvm_collect_file(tree, src, false);
}

void *jvm_collect_keep(void *part, const fl_src *src)
{
	return jvm_collect_file(part, src, true);
}
