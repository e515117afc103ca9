/*
 * rules.c — the JVM family's error-site rules (jvm.h), tried at each
 * identifier of the walk (jvm_rules_at): throw [new] X(...) and exception
 * constructors outside throw (orElseThrow(() -> new X("..."))), calls of
 * the tree's thrower methods and factories, Kotlin's error / require /
 * check / requireNotNull / checkNotNull / TODO, Scala's require and
 * sys.error, Guava's Preconditions, Objects.requireNonNull, logging
 * (SLF4J, log4j, JUL, Android); HTTP errors (Spring's
 * ResponseStatusException and @ResponseStatus, Javalin's responses); enums
 * that are catalogues of errors.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jvm.h"

/* HTTP status of an argument: HttpStatus.NOT_FOUND, 404,
 * HttpStatusCode.valueOf(404) */
static int arg_http(const ctx *c, size_t b, size_t e)
{
	for (size_t k = b; k < e && k < b + 8; k++) {
		const fl_tok *tk = &c->t.v[k];
		if (tk->kind == FL_TK_NUMBER && tk->len == 3) {
			int v = atoi(tsrc(c, k));
			if (v >= 100 && v <= 599)
				return v;
		}
	}
	if (e >= b + 1 && is_id(c, e - 1)) {
		int v = fl_http_status_by_name(tsrc(c, e - 1), c->t.v[e - 1].len);
		if (v)
			return v;
		/* HttpStatus.NOT_FOUND.code (Javalin) */
		if (e >= b + 3 && is_p(c, e - 2, ".") && is_id(c, e - 3) &&
		    (is_s(c, e - 1, "code") || is_s(c, e - 1, "value")))
			return fl_http_status_by_name(tsrc(c, e - 3), c->t.v[e - 3].len);
	}
	return 0;
}

/* Javalin's HTTP errors: throw NotFoundResponse("..."), a class named
 * after the status (its message by default that status's reason phrase),
 * or HttpResponseException(HttpStatus.X or 404, "...") (*full set: the
 * status is the first argument); 0 for others */
static int javalin_status(const ctx *c, const char *nm, size_t nl,
			  const size_t *st, const size_t *en, size_t na, bool *full)
{
	int v = 0;
	*full = false;
	if (nl > 8 && ends_with(nm, nl, "Response")) {
		v = fl_http_status_by_name(nm, nl - 8);
	} else if (nl == 21 && memcmp(nm, "HttpResponseException", 21) == 0 && na >= 1) {
		v = arg_http(c, st[0], en[0]);
		*full = true;
	}
	return v >= 400 && v <= 599 ? v : 0;
}

/* a named argument details = ... (not a message) */
static bool named_not_msg(const ctx *c, size_t b, size_t e)
{
	return e > b + 1 && is_id(c, b) && is_p(c, b + 1, "=") && !is_s(c, b, "message");
}

/* first token of a dotted call chain ending at callee index m */
static size_t chain_start(const ctx *c, size_t m)
{
	size_t f = m;
	while (f >= 2 && (is_p(c, f - 1, ".") || is_p(c, f - 1, "?.")) &&
	       (is_id(c, f - 2)))
		f -= 2;
	return f;
}

/* Is the call at i made on `this` or on a class (a static one): this.NAME(
 * or Checks.NAME(? */
static bool own_or_class_call(const ctx *c, size_t i)
{
	return i >= 2 && is_p(c, i - 1, ".") &&
	       (is(c, i - 2, "this") || (is_id(c, i - 2) && is_upper(tsrc(c, i - 2)[0])));
}

/* `ctxt.reportBadDefinition(type, "...")`: a call on a local or a
 * parameter (a plain lower-case name, not a chain), at i. */
static bool var_call(const ctx *c, size_t i)
{
	if (i < 3 || !is_p(c, i - 1, ".") || !is_id(c, i - 2) || is_upper(tsrc(c, i - 2)[0]) ||
	    is(c, i - 2, "this") || is(c, i - 2, "super") || is_p(c, i - 3, "."))
		return false;
	/* named to throw (reportBadDefinition, failWith, throwIfInvalid):
	 * `log.error("...")` and `validator.check(...)` may be anyone's.
	 * (Asked of every call on an object: a word tried only where the
	 * name has its first letter.) */
	const char *nm = tsrc(c, i);
	size_t n = c->t.v[i].len;
	for (size_t a = 0; a + 4 <= n; a++) {
		char ch = (char)(nm[a] | 0x20);
		if ((ch == 'r' && ((a + 6 <= n && strncasecmp(nm + a, "report", 6) == 0) ||
				   (a + 5 <= n && strncasecmp(nm + a, "raise", 5) == 0))) ||
		    (ch == 'f' && strncasecmp(nm + a, "fail", 4) == 0) ||
		    (ch == 't' && a + 5 <= n && strncasecmp(nm + a, "throw", 5) == 0))
			return true;
	}
	return false;
}

/* The parameter a thrower's condition is the negation of, alone
 * (`if (!ok) throw ...`: "!{ok}"), or f->np when it is none. */
static size_t lone_negated_param(const fl_factory *f)
{
	size_t pl = f->cond ? strlen(f->cond) : 0;
	if (pl < 4 || f->cond[0] != '!' || f->cond[1] != '{' || f->cond[pl - 1] != '}')
		return f->np;
	for (size_t k = 0; k < f->np; k++)
		if (strlen(f->param[k]) == pl - 3 && strncmp(f->cond + 2, f->param[k], pl - 3) == 0)
			return k;
	return f->np;
}

/* The thrower a forwarder of the tree stands for (collect.c's forwarder,
 * "fwd:NAME" called with na arguments): the callee's message and
 * condition written on the forwarder's parameters, in *g (freed by the
 * caller with fl_factory_clear); false when there is none or the callee
 * is no thrower of the tree. */
static bool forwarded(ctx *c, const char *name, size_t len, size_t na, fl_factory *g)
{
	char key[300];
	int kl = snprintf(key, sizeof key, "fwd:%.*s", (int)len, name);
	if (kl <= 0 || (size_t)kl >= sizeof key)
		return false;
	const fl_factory *w = jvm_tree_find(c, key, (size_t)kl, na);
	if (!w || !w->cond)
		return false;
	/* the call's arguments on the forwarder's parameters */
	char *argv[FL_FAC_PARAMS] = {0};
	size_t nv = 0;
	for (const char *a = w->cond; nv < FL_FAC_PARAMS;) {
		const char *e = strchr(a, '\x1f');
		argv[nv++] = e ? fl_xstrndup(a, (size_t)(e - a)) : fl_xstrdup(a);
		if (!e)
			break;
		a = e + 1;
	}
	kl = snprintf(key, sizeof key, THROWER "%s", w->msg);
	const fl_factory *f = kl > 0 && (size_t)kl < sizeof key ? jvm_tree_find(c, key, (size_t)kl, nv) : NULL;
	bool ok = f && f->msg;
	if (ok) {
		memset(g, 0, sizeof *g);
		g->np = w->np;
		g->nreq = w->nreq;
		g->varargs = w->varargs;
		for (size_t k = 0; k < w->np; k++)
			g->param[k] = fl_xstrdup(w->param[k]);
		g->msg = fl_msg_subst(f->msg, (const char *const *)f->param, (const char *const *)argv, f->np);
		g->cls = f->cls ? fl_xstrdup(f->cls) : NULL;
		size_t p0 = lone_negated_param(f);
		if (f->cond && p0 < f->np && p0 < nv && strchr(argv[p0], ' ')) {
			/* `!{ok}` given `{reference} != null`: "{reference} == null" */
			g->cond = fl_guard_not(argv[p0], false);
		} else if (f->cond) {
			/* an argument that is an expression in parentheses, so
			 * that the condition keeps its sense */
			char *pv[FL_FAC_PARAMS] = {0};
			for (size_t k = 0; k < nv; k++)
				pv[k] = strchr(argv[k], ' ') ? fl_xasprintf("(%s)", argv[k]) : fl_xstrdup(argv[k]);
			g->cond = fl_msg_subst(f->cond, (const char *const *)f->param, (const char *const *)pv, f->np);
			for (size_t k = 0; k < nv; k++)
				free(pv[k]);
		}
		ok = g->msg && (!f->cond || g->cond);
	}
	for (size_t k = 0; k < nv; k++)
		free(argv[k]);
	return ok;
}

size_t jvm_message_param(const fl_factory *f)
{
	size_t n = f->msg ? strlen(f->msg) : 0;
	if (n < 3 || f->msg[0] != '{' || f->msg[n - 1] != '}')
		return f->np;
	for (size_t k = 0; k < f->np; k++)
		if (strlen(f->param[k]) == n - 2 && memcmp(f->param[k], f->msg + 1, n - 2) == 0)
			return k;
	return f->np;
}

/* A site of s for each text of alts given f's parameter k (f's message
 * with it in place), s's guard copied for each when set (jvm_emit takes
 * it). */
static void emit_alts(ctx *c, const site_spec *s, const fl_factory *f, size_t k, const fl_strv *alts)
{
	for (size_t a = 0; a < alts->n; a++) {
		const char *vals[FL_FAC_PARAMS] = {0};
		vals[k] = alts->v[a];
		char *x = fl_msg_subst(f->msg, (const char *const *)f->param, vals, f->np);
		site_spec o = *s;
		o.msg = x;
		if (s->guard_set)
			o.guard = s->guard ? fl_xstrdup(s->guard) : NULL;
		jvm_emit(c, &o);
		free(x);
	}
}

/* A statement `name(args);` calling a thrower method of the tree: a site
 * with the message the method builds.  False when it is not one. */
static bool rule_thrower(ctx *c, size_t i)
{
	/* on another object (`ctxt.reportInputMismatch(...)`, Jackson's
	 * contexts): a text of the call's own only, and perhaps returned
	 * (`return ctxt.reportBadDefinition(...)`, a generic T that is never
	 * returned) */
	bool other = var_call(c, i);
	size_t b = own_or_class_call(c, i) || other ? i - 2 : i;
	/* a statement of its own: after ; { } else, or an if/for/while head */
	if (b == 0 || !(is_p(c, b - 1, ";") || is_p(c, b - 1, "{") || is_p(c, b - 1, "}") ||
			is(c, b - 1, "else") || is_p(c, b - 1, ")") || is_p(c, b - 1, "->") ||
			(other && is(c, b - 1, "return"))))
		return false;
	size_t close = c->match[i + 1];
	if (close == NOIDX || !is_p(c, close + 1, ";"))
		return false;
	size_t st[16], en[16];
	size_t na = args(c, i + 1, st, en, 16, NULL);
	char key[256];
	int kl = snprintf(key, sizeof key, THROWER "%.*s", (int)c->t.v[i].len, tsrc(c, i));
	if (kl <= 0 || (size_t)kl >= sizeof key)
		return false;
	/* the tree's thrower first: the file's own methods are looked at
	 * (once a file) only for a call of one */
	/* the arguments that give a text, to choose among overloads */
	uint32_t text = 0;
	for (size_t a = 0; a < na && a < 32; a++)
		for (size_t q = st[a]; q < en[a]; q++)
			if (c->t.v[q].kind == FL_TK_STRING) {
				text |= (uint32_t)1 << a;
				break;
			}
	const fl_factory *f = jvm_tree_find_fit(c, key, (size_t)kl, na, text);
	fl_factory fwd = {0};
	if (!f && forwarded(c, tsrc(c, i), c->t.v[i].len, na, &fwd))
		f = &fwd;
	if (!f || jvm_own_non_thrower(c, i, na)) {
		fl_factory_clear(&fwd);
		return false;
	}
	char *m = fl_factory_compose(f, st, en, na, jvm_var_arg_msg, c);
	char *idiom = dup_tok(c, i);
	site_spec s = {.first = b, .cls = f->cls, .type = FL_T_EXCEPTION,
		       .sev = FL_S_ERROR, .idiom = idiom, .msg = m};
	/* the message a local holds, one per branch that assigns it
	 * (`msg = String.format("Cannot deserialize ...", ...); ...
	 * reportInputMismatch(type, msg);`), or a choice of texts (`ok ?
	 * "a" : "b"`): a site of each */
	size_t k = f->cond ? f->np : jvm_message_param(f);
	fl_strv alts = {0};
	if (k < na && ((en[k] == st[k] + 1 && jvm_local_texts(c, st[k], i, &alts)) ||
		       jvm_choice_texts(c, st[k], en[k], &alts))) {
		emit_alts(c, &s, f, k, &alts);
		fl_strv_free(&alts);
		free(idiom);
		free(m);
		fl_factory_clear(&fwd);
		return true;
	}
	if (other && (f->cond || !m || !f->msg || strcmp(m, f->msg) == 0 || fl_msg_plain_letters(m) < 8 ||
		      fl_msg_plain_letters(m) <= fl_msg_plain_letters(f->msg))) {
		/* no text of the call's own: not told from a method of that
		 * name of another class */
		free(idiom);
		free(m);
		fl_factory_clear(&fwd);
		return false;
	}
	/* a conditional thrower given a choice of texts (jsoup's
	 * `Validate.ensureNotNull(x, parent() != null ? "..." : "...",
	 * ...)`): a site of each, on the thrower's condition */
	size_t mp = jvm_message_param(f);
	if (f->cond && mp < f->np && mp < na && !other)
		jvm_choice_texts(c, st[mp], en[mp], &alts);
	if (f->cond) {
		/* a conditional thrower (check(ok, msg)): its condition in the
		 * call's words, within the call's own guard; a text only */
		if (!alts.n && (!m || !strchr(m, ' ') || strcmp(m, f->msg) == 0)) {
			/* a name, not a text (requireNonNull(x, "x")), or
			 * nothing the call gives: the other rules' */
			free(idiom);
			free(m);
			fl_factory_clear(&fwd);
			return false;
		}
		char *texts[FL_FAC_PARAMS] = {0};
		for (size_t k = 0; k < na && k < f->np && k < FL_FAC_PARAMS; k++) {
			texts[k] = fl_operand_text(&c->t, c->match, st[k], en[k], false);
		}
		char *g = fl_msg_subst(f->cond, (const char *const *)f->param,
				       (const char *const *)texts, f->np);
		/* `if (!ok)` given `n > 0`: "n <= 0" rather than "!(n > 0)" */
		if (g && lone_negated_param(f) < f->np && g[1] == '(' && g[strlen(g) - 1] == ')') {
			char *inner = fl_xstrndup(g + 2, strlen(g) - 3);
			free(g);
			g = fl_guard_not(inner, false);
			free(inner);
		}
		for (size_t k = 0; k < FL_FAC_PARAMS; k++)
			free(texts[k]);
		if (g && !strchr(g, '{')) {
			s.guard = fl_guard_nest(jvm_guard_for(c, b, NULL), g, false);
			s.guard_set = true;
		} else {
			free(g);
		}
	}
	emit_alts(c, &s, f, mp, &alts);
	if (alts.n) {
		if (s.guard_set)
			free(s.guard);
		fl_strv_free(&alts);
	} else {
		jvm_emit(c, &s);
	}
	free(idiom);
	free(m);
	fl_factory_clear(&fwd);
	return true;
}

/* Whether the receiver of the call at i (after its '.') is this file's
 * own: `this`, or the class the file is named for. */
static bool own_receiver(const ctx *c, size_t i)
{
	if (is(c, i - 2, "this"))
		return true;
	const char *path = c->src ? c->src->path : NULL;
	if (!path || !is_id(c, i - 2))
		return false;
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = c->t.v[i - 2].len;
	return strncmp(b, tsrc(c, i - 2), n) == 0 && b[n] == '.';
}

/* A call in its own file of one of the file's raisers of a message
 * parameter (collect.c's jvm_raisers_find) that gives the parameter a
 * text: a site of the raiser's class with that text, `return
 * notEmpty(chars, DEFAULT_NOT_EMPTY_MESSAGE);`.  False when it is none. */
static bool rule_own_raiser(ctx *c, size_t i, bool dot_before)
{
	if (!c->raisers.found)
		jvm_raisers_find(c);
	/* (the name first: asked at most calls of a file) */
	if (!jvm_raiser_named(c, i) || (dot_before && !(is_p(c, i - 1, ".") && own_receiver(c, i))))
		return false;
	size_t st[16], en[16];
	size_t na = args(c, i + 1, st, en, 16, NULL);
	/* overloads of one class and message are one raiser */
	const fl_factory *f = NULL;
	for (size_t k = 0; k < c->raisers.n; k++) {
		const fl_factory *g = &c->raisers.v[k];
		if (!g->msg || !g->cls || g->nlen != c->t.v[i].len ||
		    memcmp(g->name, tsrc(c, i), g->nlen) != 0 || na < g->nreq || (na > g->np && !g->varargs))
			continue;
		if (f && (strcmp(f->cls, g->cls) != 0 || strcmp(f->msg, g->msg) != 0 || f->tag != g->tag))
			return false;
		f = g;
	}
	if (!f)
		return false;
	/* a constant's text is raised at the raiser's throw
	 * (jvm_raiser_consts): the call is no site of its own */
	size_t mk = jvm_message_param(f);
	if (mk < na && jvm_name_ref(c, st[mk], en[mk]))
		return false;
	char *m = fl_factory_compose(f, st, en, na, jvm_var_arg_msg, c);
	if (!m || !strchr(m, ' ') || strcmp(m, f->msg) == 0 || fl_msg_plain_letters(m) < 4) {
		/* the parameter handed on, or no text */
		free(m);
		return false;
	}
	if (f->tag)
		jvm_decode_printf(m);
	char *idiom = dup_tok(c, i);
	site_spec s = {.first = dot_before ? i - 2 : i, .cls = f->cls, .type = FL_T_EXCEPTION,
		       .sev = FL_S_ERROR, .idiom = idiom, .msg = m};
	jvm_emit(c, &s);
	free(idiom);
	free(m);
	return true;
}

/* Whether the file declares a factory named by token i whose message is
 * one of the texts a method of the file returns (tag 1: jvm_fac_find). */
static bool own_factory_named(ctx *c, size_t i)
{
	if (!c->fac.found)
		jvm_fac_find(c);
	for (size_t k = 0; k < c->fac.n; k++)
		if (c->fac.v[k].tag == 1 && c->fac.v[k].nlen == c->t.v[i].len &&
		    memcmp(c->fac.v[k].name, tsrc(c, i), c->t.v[i].len) == 0)
			return true;
	return false;
}

/* throw factory(args): the factory's message and class, or false */
static bool rule_factory(ctx *c, size_t first, size_t ci, const size_t *st,
			 const size_t *en, size_t na)
{
	if (!c->fac.found)
		jvm_fac_find(c);
	const fl_factory *f = fl_factories_find(&c->fac, tsrc(c, ci), c->t.v[ci].len, na);
	if (!f)
		return false;
	char *m = fl_factory_compose(f, st, en, na, jvm_var_arg_msg, c);
	site_spec s = {.first = first, .cls = f->cls, .type = FL_T_EXCEPTION,
		       .sev = FL_S_ERROR, .idiom = "throw", .msg = m};
	jvm_emit(c, &s);
	free(m);
	return true;
}

/* Sites like s of the texts more[from...] (more emptied): the other
 * texts one construct raises. */
static void emit_more(ctx *c, const site_spec *s, fl_strv *more, size_t from)
{
	for (size_t k = from; k < more->n; k++) {
		site_spec o = *s;
		o.msg = more->v[k];
		o.guard = NULL;
		o.guard_set = false;
		jvm_emit(c, &o);
	}
	fl_strv_free(more);
}

/* Whether one of the first two arguments is a call of a method of the
 * file that returns texts (jvm_returned_texts, into more): 1 or 0; and 0
 * when not asked (ok false). */
static int returned_texts(const ctx *c, const size_t *st, const size_t *en, size_t na, bool ok,
			  fl_strv *more)
{
	for (size_t k = 0; ok && k < na && k < 2; k++)
		if (jvm_returned_texts(c, st[k], en[k], more))
			return 1;
	return 0;
}

/* throw [new] X(...) or new XException(...) outside throw */
static void rule_ctor(ctx *c, size_t first, size_t b, bool thrown,
		      const char *idiom)
{
	size_t ci;
	size_t open = jvm_ctor_at(c, b, &ci);
	if (open == NOIDX)
		return;
	const char *nm = tsrc(c, ci);
	size_t nl = c->t.v[ci].len;
	bool is_cls = is_upper(nm[0]);
	bool excy = ends_with(nm, nl, "Exception") || ends_with(nm, nl, "Error") ||
		    ends_with(nm, nl, "Throwable") || ends_with(nm, nl, "Fault") ||
		    (c->d == D_SCALA && nl > 7 && ends_with(nm, nl, "Failure"));
	if (!thrown && !excy)
		return;
	size_t st[16], en[16];
	size_t na = args(c, open, st, en, 16, NULL);
	/* throw factory(...), a method of this file, called on this or on
	 * an instance (`reader.unexpectedTokenError(...)`), not on another
	 * class (`Errors.x(...)`) */
	if (thrown && !is_cls && !is(c, b - 1, "new")) {
		bool own = true;
		for (size_t k = b; k < ci; k += 2)
			own &= is_id(c, k) && !is_upper(tsrc(c, k)[0]);
		if (own && rule_factory(c, first, ci, st, en, na))
			return;
		/* a factory of the file whose message a method of the file
		 * returns (`throw outOfBounds("checkIndex", i, n)`, its `new
		 * X(outOfBoundsMessage(kind, ...))` the texts' records): a
		 * one-word argument is no message */
		if (own && own_factory_named(c, ci)) {
			char *w = jvm_first_msg(c, st, en, na, 0, NULL);
			bool word = w && !strchr(w, ' ');
			free(w);
			if (word)
				return;
		}
		/* Class.method(args) of a static factory of the tree */
		if (!own && ci >= b + 2 && is_p(c, ci - 1, ".") && is_id(c, ci - 2) &&
		    is_upper(tsrc(c, ci - 2)[0]) && c->ctors) {
			char key[256];
			int kl = snprintf(key, sizeof key, "%.*s.%.*s", (int)c->t.v[ci - 2].len,
					  tsrc(c, ci - 2), (int)nl, nm);
			const fl_factory *f = kl > 0 && (size_t)kl < sizeof key
				? jvm_tree_find(c, key, (size_t)kl, na) : NULL;
			if (f) {
				char *m = fl_factory_compose(f, st, en, na, jvm_var_arg_msg, c);
				site_spec s = {.first = first, .cls = f->cls, .type = FL_T_EXCEPTION,
					       .sev = FL_S_ERROR, .idiom = idiom, .msg = m};
				jvm_emit(c, &s);
				free(m);
				return;
			}
		}
	}
	char *cls = is_cls ? dup_tok(c, ci) : NULL;
	site_spec s = {.first = first, .cls = cls, .type = FL_T_EXCEPTION,
		       .sev = FL_S_ERROR, .idiom = idiom};
	char *m = NULL;
	const fl_factory *f = NULL;
	/* a method of the file that returns the text, one per return
	 * (`throw new IndexOutOfBoundsException(badElementIndex(index,
	 * size, desc))`): asked once, when no argument is a message */
	fl_strv more = {0};
	int returned = -1; /* not asked yet */
	if (ends_with(nm, nl, "ResponseStatusException") && na >= 1) {
		s.http = arg_http(c, st[0], en[0]);
		if (s.http) {
			s.type = FL_T_HTTP;
			s.sev = fl_http_severity(s.http);
		}
		m = jvm_first_msg(c, st, en, na, 1, NULL);
	} else if (is_cls && c->ctors &&
		   ((m = jvm_first_msg(c, st, en, na, 0, NULL)) != NULL ||
		    (returned = returned_texts(c, st, en, na, thrown || excy, &more)) >= 0) &&
		   /* a returned text is a String: the constructor that takes
		    * one is meant, not a sole overload that makes a message
		    * of another type (the JDK's IndexOutOfBoundsException(int
		    * index)) */
		   (f = jvm_tree_find_own(c, nm, nl, na, !m && !returned)) != NULL) {
		free(m);
		fl_strv_free(&more); /* the constructor makes the message */
		/* new X(args) of an exception class of the tree whose
		 * constructor builds the message: super("..." + arg) */
		m = fl_factory_compose(f, st, en, na, jvm_var_arg_msg, c);
		if (m && strchr(m, '{') && !strchr(f->msg, '%')) {
			/* only the parameters of the constructor: what the call
			 * passes, read as usual */
			bool all = true;
			for (const char *q = m; *q && all; q++)
				all = *q == '{' ? (q = strchr(q, '}')) != NULL : false;
			if (all) {
				free(m);
				m = jvm_first_msg(c, st, en, na, 0, NULL);
			}
		}
	} else if (!m) {
		m = jvm_first_msg(c, st, en, na, 0, NULL);
	}
	bool full; /* HttpResponseException(status, message) */
	int jst = is_cls ? javalin_status(c, nm, nl, st, en, na, &full) : 0;
	if (jst) {
		s.http = jst;
		s.type = FL_T_HTTP;
		s.sev = fl_http_severity(jst);
		if (full) {
			free(m);
			m = jvm_first_msg(c, st, en, na, 1, NULL);
			/* HttpStatus.X.message: the status's reason phrase */
			if (!m && na >= 2 && en[1] >= st[1] + 3 && is_s(c, en[1] - 1, "message") &&
			    is_p(c, en[1] - 2, ".") && is_id(c, en[1] - 3)) {
				int v = fl_http_status_by_name(tsrc(c, en[1] - 3), c->t.v[en[1] - 3].len);
				if (v && fl_http_reason(v))
					m = fl_xstrdup(fl_http_reason(v));
			}
		}
		bool given = false;
		for (size_t k = full ? 1 : 0; k < na; k++)
			given |= !named_not_msg(c, st[k], en[k]);
		if (!m && !given && !full && fl_http_reason(jst))
			m = fl_xstrdup(fl_http_reason(jst));
	}
	/* the message a local holds: thrown, or an exception built to be
	 * returned or reported (`String message = "..." + e; X error = new
	 * X(message, e); return Result.error(error)`) */
	if (!m && (thrown || excy))
		m = jvm_local_msg(c, st, en, na);
	/* an error enum's constant, or one naming a bundle's key, given to
	 * the constructor: its text */
	if (!m && (thrown || excy))
		m = jvm_const_args_text(c, st, en, na);
	/* the texts a method of the file returns: a site per text */
	if (!m && returned < 0)
		returned = returned_texts(c, st, en, na, thrown || excy, &more);
	if (!m && returned > 0)
		m = fl_xstrdup(more.v[0]);
	/* a choice of texts: a site of each */
	for (size_t k = 0; !m && (thrown || excy) && k < na && k < 2; k++)
		if (jvm_choice_texts(c, st[k], en[k], &more))
			m = fl_xstrdup(more.v[0]);
	if (!m && !thrown) {
		/* a bare constructor outside throw without a message: not a
		 * site (it is reported where it is thrown, if anywhere) */
		free(cls);
		return;
	}
	/* the class is known but no literal was given: its name */
	if (!m && cls)
		m = fl_xstrdup(cls);
	s.msg = m;
	jvm_emit(c, &s);
	emit_more(c, &s, &more, 1);
	/* a raiser of its message parameter: the texts its own file's calls
	 * give it as constants are raised here */
	bool fmt;
	if (thrown && na >= 1 && top(c) &&
	    jvm_raiser_consts(c, top(c)->fn_at, st[0], en[0], &more, &fmt))
		emit_more(c, &s, &more, 0);
	free(m);
	free(cls);
}

/* the severity a logging method's name at m says (error, warn, severe...):
 * 1 and *sev, or 0 */
static int log_level(const ctx *c, size_t m, const char **sev)
{
	static const struct {
		const char *k, *s;
	} tab[] = {
		{"error", FL_S_ERROR}, {"warn", FL_S_WARNING},
		{"warning", FL_S_WARNING}, {"severe", FL_S_ERROR},
		{"fatal", FL_S_CRITICAL}, {"critical", FL_S_CRITICAL},
		{NULL, NULL},
	};
	for (int k = 0; tab[k].k; k++)
		if (is_s(c, m, tab[k].k)) {
			*sev = tab[k].s;
			return 1;
		}
	return 0;
}

/* guard_arg0 of rule_simple: the first argument is the condition that
 * must hold (require, check, checkArgument: the site fires when it does
 * not), or the value that must not be null (requireNotNull) */
enum { G_NONE = 0, G_HOLDS, G_NOT_NULL };

/* a call at callee whose message is its first argument from from_arg (or
 * its trailing lambda's), else deflt, with prefix put before it: a site of
 * class cls from first */
static void rule_simple(ctx *c, size_t first, size_t callee, size_t from_arg,
			const char *cls, const char *deflt, const char *prefix,
			int guard_arg0, const char *type, const char *sev)
{
	size_t st[16], en[16], na;
	char *m = jvm_call_msg(c, callee, from_arg, st, en, &na, NULL);
	if (!is_p(c, callee + 1, "(") && !is_p(c, callee + 1, "{")) {
		free(m);
		return;
	}
	if (!m && deflt)
		m = fl_xstrdup(deflt);
	if (m && prefix) {
		char *x = fl_xasprintf("%s%s", prefix, m);
		free(m);
		m = x;
	}
	char *idiom = fl_tok_span_text(&c->t, first, callee + 1, 80);
	site_spec s = {.first = first, .cls = cls, .type = type, .sev = sev,
		       .idiom = idiom, .msg = m};
	if (guard_arg0 != G_NONE && na >= 1) {
		char *cond = fl_tok_span_text(&c->t, st[0], en[0], 200);
		s.guard = guard_arg0 == G_HOLDS ? fl_guard_not(cond, false)
						: fl_xasprintf("%s == null", cond);
		free(cond);
		s.guard_set = true;
	}
	jvm_emit(c, &s);
	free(idiom);
	free(m);
}

/* throw [new] X(...), and new X(...) outside throw: true when the token
 * at i is one of the two keywords */
static bool rule_throw_new(ctx *c, size_t i)
{
	if (is(c, i, "throw")) {
		size_t b = i + 1;
		bool nw = is(c, b, "new");
		if (nw)
			b++;
		rule_ctor(c, i, b, true, nw ? "throw new" : "throw");
		return true;
	}
	if (is(c, i, "new")) {
		if (i > 0 && is(c, i - 1, "throw"))
			return true;
		rule_ctor(c, i, i + 1, false, "new");
		return true;
	}
	return false;
}

/* Kotlin and Scala constructor call of an exception outside throw
 * (Scala's case classes: `Left(DecodingFailure("...", c.history))`), at
 * the capitalized name i called without `new`: true when i is such a
 * call (a site or not) */
static bool rule_kotlin_ctor(ctx *c, size_t i, bool dot_before, bool call)
{
	if (c->d == D_JAVA || !call || dot_before || !is_upper(tsrc(c, i)[0]) ||
	    is(c, i, "TODO") ||
	    (i > 0 && (is(c, i - 1, "throw") || is(c, i - 1, "fun") ||
		       is(c, i - 1, "class") || is_p(c, i - 1, ":") ||
		       is(c, i - 1, "case") || is(c, i - 1, "extends") ||
		       is(c, i - 1, "with") || is(c, i - 1, "object") ||
		       is(c, i - 1, "def") || is(c, i - 1, "new"))))
		return false;
	const char *nm = tsrc(c, i);
	size_t nl = c->t.v[i].len;
	/* a Failure of one's own takes a message: scala.util.Failure
	 * takes an exception (and is not one) */
	bool failure = c->d == D_SCALA && nl > 7 && ends_with(nm, nl, "Failure") &&
		       c->t.v[i + 2].kind == FL_TK_STRING;
	if (ends_with(nm, nl, "Exception") || ends_with(nm, nl, "Error") || failure)
		rule_ctor(c, i, i, false, "constructor");
	return true;
}

/* Kotlin's stdlib: error, require, check, requireNotNull, checkNotNull,
 * TODO, called at i (not after a '.'); true when i is one */
static bool rule_kotlin_stdlib(ctx *c, size_t i, bool call)
{
	if (is(c, i, "error") && call) {
		rule_simple(c, i, i, 0, "IllegalStateException", NULL,
			    NULL, G_NONE, FL_T_EXCEPTION, FL_S_ERROR);
		return true;
	}
	if (is(c, i, "require") && call) {
		rule_simple(c, i, i, 1, "IllegalArgumentException",
			    "Failed requirement.", NULL, G_HOLDS,
			    FL_T_EXCEPTION, FL_S_ERROR);
		return true;
	}
	if (is(c, i, "check") && call) {
		rule_simple(c, i, i, 1, "IllegalStateException",
			    "Check failed.", NULL, G_HOLDS, FL_T_EXCEPTION,
			    FL_S_ERROR);
		return true;
	}
	if (is(c, i, "requireNotNull") && call) {
		rule_simple(c, i, i, 1, "IllegalArgumentException",
			    "Required value was null.", NULL, G_NOT_NULL,
			    FL_T_EXCEPTION, FL_S_ERROR);
		return true;
	}
	if (is(c, i, "checkNotNull") && call) {
		rule_simple(c, i, i, 1, "IllegalStateException",
			    "Required value was null.", NULL, G_NOT_NULL,
			    FL_T_EXCEPTION, FL_S_ERROR);
		return true;
	}
	if (is(c, i, "TODO") && call) {
		size_t st[4], en[4];
		size_t na = args(c, i + 1, st, en, 4, NULL);
		char *m = jvm_first_msg(c, st, en, na, 0, NULL);
		char *x = m ? fl_xasprintf("An operation is not implemented: %s", m)
			    : fl_xstrdup("An operation is not implemented.");
		site_spec s = {.first = i, .cls = "NotImplementedError",
			       .type = FL_T_EXCEPTION, .sev = FL_S_ERROR,
			       .idiom = "TODO", .msg = x};
		jvm_emit(c, &s);
		free(m);
		free(x);
		return true;
	}
	return false;
}

/* Scala's Predef: require(cond, "..."), sys.error("..."), called at i;
 * true when i is one */
static bool rule_scala_predef(ctx *c, size_t i, bool dot_before)
{
	if (!dot_before && is(c, i, "require")) {
		size_t st[4], en[4];
		size_t na = args(c, i + 1, st, en, 4, NULL);
		char *m = jvm_first_msg(c, st, en, na, 1, NULL);
		char *x = m ? fl_xasprintf("requirement failed: %s", m)
			    : fl_xstrdup("requirement failed");
		site_spec s = {.first = i, .cls = "IllegalArgumentException",
			       .type = FL_T_EXCEPTION, .sev = FL_S_ERROR,
			       .idiom = "require", .msg = x};
		if (na >= 1) {
			char *cond = fl_tok_span_text(&c->t, st[0], en[0], 200);
			s.guard = fl_guard_not(cond, false); /* require(cond) */
			free(cond);
			s.guard_set = true;
		}
		jvm_emit(c, &s);
		free(m);
		free(x);
		return true;
	}
	if (dot_before && is(c, i, "error") && i >= 2 && is(c, i - 2, "sys")) {
		rule_simple(c, i - 2, i, 0, "RuntimeException", NULL, NULL, G_NONE, FL_T_EXCEPTION, FL_S_ERROR);
		return true;
	}
	return false;
}

/* Whether the method named at token fn is a raiser of its parameter by
 * requireNonNull alone: one that also throws it (`notEmpty(chars, message)`
 * throws IllegalArgumentException when empty) raises its texts there. */
static bool npe_raiser(ctx *c, size_t fn)
{
	if (!fn)
		return false;
	if (!c->raisers.found)
		jvm_raisers_find(c);
	const fl_factory *f = jvm_raiser_named(c, fn);
	return f && f->cls && strcmp(f->cls, "NullPointerException") == 0;
}

/* Guava's Preconditions (qualified or a static import) and
 * Objects.requireNonNull, called at i; true when i is one */
static bool rule_preconditions(ctx *c, size_t i, bool dot_before)
{
	bool pre = !dot_before ||
		   (i >= 2 && is_p(c, i - 1, ".") &&
		    is(c, i - 2, "Preconditions"));
	bool kotlin_std = c->d == D_KOTLIN && !dot_before;
	if (pre && !kotlin_std) {
		if (is(c, i, "checkArgument")) {
			rule_simple(c, chain_start(c, i), i, 1,
				    "IllegalArgumentException",
				    "IllegalArgumentException", NULL, G_HOLDS,
				    FL_T_EXCEPTION, FL_S_ERROR);
			return true;
		}
		if (is(c, i, "checkState")) {
			rule_simple(c, chain_start(c, i), i, 1,
				    "IllegalStateException",
				    "IllegalStateException", NULL, G_HOLDS,
				    FL_T_EXCEPTION, FL_S_ERROR);
			return true;
		}
		if (is(c, i, "checkNotNull")) {
			rule_simple(c, chain_start(c, i), i, 1,
				    "NullPointerException",
				    "NullPointerException", NULL, G_NONE,
				    FL_T_EXCEPTION, FL_S_ERROR);
			return true;
		}
	}
	if (is(c, i, "requireNonNull") &&
	    (!dot_before || (i >= 2 && is(c, i - 2, "Objects")))) {
		rule_simple(c, chain_start(c, i), i, 1,
			    "NullPointerException", "NullPointerException",
			    NULL, G_NONE, FL_T_EXCEPTION, FL_S_ERROR);
		/* of a raiser of its message parameter: the texts its own
		 * file's calls give it as constants are raised here */
		size_t st[4], en[4];
		fl_strv more = {0};
		bool fmt;
		if (c->d == D_JAVA && top(c) && c->match[i + 1] != NOIDX &&
		    args(c, i + 1, st, en, 4, NULL) == 2 && npe_raiser(c, top(c)->fn_at) &&
		    jvm_raiser_consts(c, top(c)->fn_at, st[1], en[1], &more, &fmt)) {
			site_spec s = {.first = chain_start(c, i), .cls = "NullPointerException",
				       .type = FL_T_EXCEPTION, .sev = FL_S_ERROR,
				       .idiom = "requireNonNull"};
			emit_more(c, &s, &more, 0);
		}
		return true;
	}
	return false;
}

/* Validation helpers of other libraries, called on their class at i
 * (commons-lang3's Validate, Spring's Assert): the exception each throws,
 * the argument its message starts from, and whether its first argument is
 * a condition that must hold.  Without a message the site stands for the
 * class alone (the library's default text is the library's own site). */
static const struct validator {
	const char *recv, *name, *cls;
	size_t msg_arg;
	int guard;
} validators[] = {
	{"Validate", "isTrue", "IllegalArgumentException", 1, G_HOLDS},
	{"Validate", "validState", "IllegalStateException", 1, G_HOLDS},
	{"Validate", "notNull", "NullPointerException", 1, G_NOT_NULL},
	{"Validate", "notEmpty", "IllegalArgumentException", 1, G_NONE},
	{"Validate", "notBlank", "IllegalArgumentException", 1, G_NONE},
	{"Validate", "noNullElements", "IllegalArgumentException", 1, G_NONE},
	{"Validate", "validIndex", "IndexOutOfBoundsException", 2, G_NONE},
	{"Validate", "matchesPattern", "IllegalArgumentException", 2, G_NONE},
	{"Validate", "inclusiveBetween", "IllegalArgumentException", 3, G_NONE},
	{"Validate", "exclusiveBetween", "IllegalArgumentException", 3, G_NONE},
	{"Validate", "isInstanceOf", "IllegalArgumentException", 2, G_NONE},
	{"Validate", "isAssignableFrom", "IllegalArgumentException", 2, G_NONE},
	{"Validate", "finite", "IllegalArgumentException", 1, G_NONE},
	{"Validate", "notNaN", "IllegalArgumentException", 1, G_NONE},
	{"Assert", "isTrue", "IllegalArgumentException", 1, G_HOLDS},
	{"Assert", "state", "IllegalStateException", 1, G_HOLDS},
	{"Assert", "notNull", "IllegalArgumentException", 1, G_NOT_NULL},
	{"Assert", "isNull", "IllegalArgumentException", 1, G_NONE},
	{"Assert", "hasText", "IllegalArgumentException", 1, G_NONE},
	{"Assert", "hasLength", "IllegalArgumentException", 1, G_NONE},
	{"Assert", "notEmpty", "IllegalArgumentException", 1, G_NONE},
	{"Assert", "noNullElements", "IllegalArgumentException", 1, G_NONE},
	{"Assert", "isInstanceOf", "IllegalArgumentException", 2, G_NONE},
	{"Assert", "isAssignable", "IllegalArgumentException", 2, G_NONE},
};

static bool rule_validators(ctx *c, size_t i, bool dot_before)
{
	if (!dot_before || i < 2 || !is_p(c, i - 1, ".") || !is_id(c, i - 2))
		return false;
	/* asked of every `x.f(` call: the receiver's first byte before its
	 * length and bytes */
	const char r0 = tsrc(c, i - 2)[0];
	for (size_t k = 0; k < sizeof validators / sizeof *validators; k++) {
		const struct validator *v = &validators[k];
		if (r0 != v->recv[0] || !fl_tok_is(&c->t, i - 2, v->recv) || !fl_tok_is(&c->t, i, v->name))
			continue;
		rule_simple(c, chain_start(c, i), i, v->msg_arg, v->cls, v->cls, NULL, v->guard,
			    FL_T_EXCEPTION, FL_S_ERROR);
		return true;
	}
	return false;
}

/* A receiver named as a reporter of errors: a class or object whose name
 * ends with Errors, Error, Reporter, Diagnostics or Problems (not a
 * logger's: rule_logging reads those). */
static bool reporter_receiver(const ctx *c, size_t r)
{
	static const char *const ends[] = {"Errors", "Error", "Reporter", "Diagnostics", "Problems",
					   "errors", "reporter", NULL};
	const char *s = tsrc(c, r);
	size_t n = c->t.v[r].len;
	for (const char *const *e = ends; *e; e++) {
		size_t l = strlen(*e);
		if (n >= l && memcmp(s + n - l, *e, l) == 0)
			return true;
	}
	return false;
}

/* Whether the first text given to the call at i is a key, not a message:
 * one word of capitals, digits and '_' (Xerces' `fErrorReporter.reportError(
 * XMLMessageFormatter.XML_DOMAIN, "MSG_REQUIRED_ATTRIBUTE_NOT_SPECIFIED",
 * ...)`, whose text is a resource bundle's). */
static bool key_call(const ctx *c, size_t i)
{
	size_t open = i + 1, close = c->match[open];
	if (close == NOIDX)
		return false;
	for (size_t k = open + 1; k < close; k++) {
		if (c->t.v[k].kind != FL_TK_STRING)
			continue;
		const char *s = fl_tok_str(&c->t, &c->t.v[k]);
		size_t n = strlen(s);
		if (n < 2 || !(s[0] >= 'A' && s[0] <= 'Z'))
			return false;
		for (size_t q = 0; q < n; q++)
			if (!((s[q] >= 'A' && s[q] <= 'Z') || (s[q] >= '0' && s[q] <= '9') || s[q] == '_'))
				return false;
		return true;
	}
	return false;
}

/* The severity the words of the method name at m say (semantic_error,
 * parseError, warning, reportFatal): 1 and *sev, or 0. */
static int name_level(const ctx *c, size_t m, const char **sev)
{
	const char *s = tsrc(c, m);
	size_t n = c->t.v[m].len, i = 0;
	while (i < n) {
		while (i < n && s[i] == '_')
			i++;
		size_t b = i;
		i++;
		while (i < n && s[i] != '_' && !(s[i] >= 'A' && s[i] <= 'Z' && s[i - 1] >= 'a' && s[i - 1] <= 'z'))
			i++;
		size_t l = i - b;
		if (l == 5 && strncasecmp(s + b, "error", 5) == 0) {
			*sev = FL_S_ERROR;
			return 1;
		}
		if (l == 5 && strncasecmp(s + b, "fatal", 5) == 0) {
			*sev = FL_S_CRITICAL;
			return 1;
		}
		if ((l == 4 && strncasecmp(s + b, "warn", 4) == 0) ||
		    (l == 7 && strncasecmp(s + b, "warning", 7) == 0)) {
			*sev = FL_S_WARNING;
			return 1;
		}
	}
	return 0;
}

/* logging: recv.error(...) / recv.warn { ... } of a logger (a receiver
 * named for logs), Android's Log.e / Timber.w, JUL's log(Level.X, ...),
 * at the method name i */
static void rule_logging(ctx *c, size_t i, bool dot_before, bool call)
{
	if (!(dot_before && i >= 2 && is_id(c, i - 2) &&
	      (call || (c->d != D_JAVA && is_p(c, i + 1, "{")))))
		return;
	size_t r = i - 2;
	const char *sev = NULL;
	bool android = is(c, r, "Log") || is(c, r, "Timber");
	if (android && (is(c, i, "e") || is(c, i, "w") || is(c, i, "wtf"))) {
		sev = is(c, i, "e") ? FL_S_ERROR
		      : is(c, i, "w") ? FL_S_WARNING : FL_S_CRITICAL;
		rule_simple(c, chain_start(c, i), i,
			    is(c, r, "Log") ? 1 : 0, NULL, NULL, NULL, G_NONE, FL_T_CONSOLE, sev);
		return;
	}
	if (!fl_tok_contains_ci(&c->t, r, "log")) {
		/* a class of the program's that reports its errors, named so
		 * (JavaCC's JavaCCErrors.semantic_error(node, "..."),
		 * an ErrorReporter's warning(...)): a method whose name's
		 * words say error or warning, given a text */
		if (call && reporter_receiver(c, r) && name_level(c, i, &sev) && !key_call(c, i))
			rule_simple(c, chain_start(c, i), i, 0, NULL, NULL, NULL, G_NONE,
				    FL_T_CONSOLE, sev);
		return;
	}
	if (log_level(c, i, &sev)) {
		rule_simple(c, chain_start(c, i), i, 0, NULL, NULL, NULL, G_NONE, FL_T_CONSOLE, sev);
		return;
	}
	if (is(c, i, "log") && call && is_id(c, i + 2) &&
	    is(c, i + 2, "Level") && is_p(c, i + 3, ".") &&
	    is_id(c, i + 4) && log_level(c, i + 4, &sev)) {
		rule_simple(c, chain_start(c, i), i, 1, NULL, NULL, NULL, G_NONE, FL_T_CONSOLE, sev);
		return;
	}
	if (is(c, i, "log") && call && is_id(c, i + 2) &&
	    is(c, i + 2, "Level") && is_p(c, i + 3, ".") &&
	    is_id(c, i + 4)) {
		const char *nm = tsrc(c, i + 4);
		size_t nl = c->t.v[i + 4].len;
		if ((nl == 5 && memcmp(nm, "ERROR", 5) == 0) ||
		    (nl == 6 && memcmp(nm, "SEVERE", 6) == 0))
			sev = FL_S_ERROR;
		else if ((nl == 4 && memcmp(nm, "WARN", 4) == 0) ||
			 (nl == 7 && memcmp(nm, "WARNING", 7) == 0))
			sev = FL_S_WARNING;
		else if (nl == 5 && memcmp(nm, "FATAL", 5) == 0)
			sev = FL_S_CRITICAL;
		if (sev)
			rule_simple(c, chain_start(c, i), i, 1, NULL, NULL,
				    NULL, G_NONE, FL_T_CONSOLE, sev);
	}
}

/* a letter outside the {placeholders} and %conversions of m: a message
 * of a value alone ("{e}", "%s%n") has no text of its own */
static bool has_text(const char *m)
{
	for (const char *p = m; *p; p++) {
		if (*p == '{') {
			const char *q = strchr(p, '}');
			if (q) {
				p = q;
				continue;
			}
		}
		if (*p == '%' && p[1]) {
			p++;
			while (p[1] && strchr("-+ #0123456789.$<", *p))
				p++;
			continue;
		}
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (unsigned char)*p >= 0x80)
			return true;
	}
	return false;
}

/* A text that is one word and a colon ("Error: ", "Warning:"): the prefix
 * a reporter prints before the message it prints next, no text of its
 * own. */
static bool level_prefix(const char *m)
{
	const char *p = m;
	while (*p == ' ')
		p++;
	const char *w = p;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
		p++;
	if (p == w || *p != ':')
		return false;
	for (p++; *p; p++)
		if (*p != ' ')
			return false;
	return true;
}

/* Whether the statement after the call whose '(' is at open fails the
 * program: `return N;` with N a non-zero integer, or System.exit(N). */
static bool fails_after(const ctx *c, size_t open)
{
	if (c->match[open] == NOIDX || !is_p(c, c->match[open] + 1, ";"))
		return false;
	size_t k = c->match[open] + 2;
	if (k + 2 < c->t.n && is(c, k, "return")) {
		size_t v = k + 1;
		if (is_p(c, v, "-"))
			v++;
		return c->t.v[v].kind == FL_TK_NUMBER && !is_s(c, v, "0") && is_p(c, v + 1, ";");
	}
	if (k + 5 < c->t.n && is(c, k, "System") && is_p(c, k + 1, ".") && is(c, k + 2, "exit") &&
	    is_p(c, k + 3, "("))
		return c->t.v[k + 4].kind == FL_TK_NUMBER && !is_s(c, k + 4, "0");
	return false;
}

/* A call of a method of the program's own, unqualified (its class's, an
 * inherited or statically imported one), given a text first: a report
 * when its name says error or warning (JJDoc's `error("Argument \"" + a +
 * "\" must be an option setting.")`), or when the program fails right
 * after it (JJTree's `p("Last argument ..."); return 1;`).  True when the
 * call is one. */
static bool rule_bare_report(ctx *c, size_t i)
{
	if (c->match[i + 1] == NOIDX || i + 2 >= c->t.n || c->t.v[i + 2].kind != FL_TK_STRING)
		return false;
	/* a statement of its own: not an argument, a value thrown or
	 * returned (`throw syntaxError("...")`: a factory's) */
	if (i > 0 && !is_p(c, i - 1, ";") && !is_p(c, i - 1, "{") && !is_p(c, i - 1, "}") &&
	    !is(c, i - 1, "else")) {
		size_t o = is_p(c, i - 1, ")") ? c->match[i - 1] : NOIDX;
		if (o == NOIDX || o == 0 || !(is(c, o - 1, "if") || is(c, o - 1, "while") || is(c, o - 1, "for")))
			return false;
	}
	/* (named just so: a longer name, `_reportError`, may be a thrower's
	 * or a logger's of the file, read by other rules) */
	const char *sev = NULL;
	if (!(is(c, i, "error") || is(c, i, "warning") || is(c, i, "warn") || is(c, i, "fatal")) ||
	    !log_level(c, i, &sev)) {
		if (!fails_after(c, i + 1))
			return false;
		sev = FL_S_ERROR;
	}
	size_t st[16], en[16], na;
	char *m = jvm_call_msg(c, i, 0, st, en, &na, NULL);
	bool site = m && strchr(m, ' ') && has_text(m) && !level_prefix(m);
	free(m);
	if (site)
		rule_simple(c, i, i, 0, NULL, NULL, NULL, G_NONE, FL_T_CONSOLE, sev);
	return site;
}

/* System.err.println("...") (print, printf, format), Kotlin's and
 * Scala's too, and Scala's Console.err.println: what the program prints
 * on its standard error, as C's fprintf(stderr, ...).  The message is
 * composed as a thrown one's ("a" + b: "a {b}"), a printf format's %n and
 * %% decoded; a warning when the text says so, an error otherwise; a
 * print of a value alone is no site.  True when the call is one. */
static bool rule_stderr(ctx *c, size_t i, bool dot_before, bool call)
{
	if (!call || !dot_before || i < 4 || !is_p(c, i - 1, ".") ||
	    !(is(c, i - 2, "err") || is(c, i - 2, "out")) || !is_p(c, i - 3, ".") ||
	    !(is(c, i - 4, "System") || (c->d == D_SCALA && is(c, i - 4, "Console"))))
		return false;
	/* standard output: an error's text only when the program fails
	 * right after printing it (`System.out.println("File " + f + " not
	 * found."); return 1;`, or System.exit(1)) */
	if (is(c, i - 2, "out") && !fails_after(c, i + 1))
		return false;
	bool f = is(c, i, "printf") || is(c, i, "format");
	if (!f && !is(c, i, "println") && !is(c, i, "print"))
		return false;
	size_t st[16], en[16];
	size_t na = args(c, i + 1, st, en, 16, NULL);
	if (!na)
		return true;
	/* the text (a printf's format) is the first argument */
	char *m = jvm_first_msg(c, st, en, 1, 0, NULL);
	if (!m)
		m = jvm_local_msg(c, st, en, 1);
	if (m && f)
		jvm_decode_printf(m);
	if (m && has_text(m) && !level_prefix(m)) {
		char *idiom = fl_tok_span_text(&c->t, i - 4, i + 1, 80);
		site_spec s = {.first = chain_start(c, i), .type = FL_T_CONSOLE,
			       .sev = fl_print_severity(m), .idiom = idiom, .msg = m};
		jvm_emit(c, &s);
		free(idiom);
	}
	free(m);
	return true;
}

/* `@Override public String getMessage() { ... return "No part named " +
 * part; }`: each text the method returns is what the exception shows,
 * whatever it was built with; a definition of the class's message ("class
 * method getMessage"), guarded by the branch it returns in. */
static bool rule_get_message(ctx *c, size_t i)
{
	scope *s = top(c);
	size_t f = s ? s->fn_at : 0;
	if (!f || f < 2 || !is(c, f, "getMessage") || !is_p(c, f + 1, "(") ||
	    !is_p(c, f + 2, ")") || !is(c, f - 1, "String"))
		return false;
	bool over = false;
	for (size_t k = f - 1; k-- > 0 && f - k < 8;) {
		if (is_p(c, k, ";") || is_p(c, k, "{") || is_p(c, k, "}"))
			break;
		over = over || (is(c, k, "Override") && k > 0 && is_p(c, k - 1, "@"));
	}
	const char *cls = fl_scopes_name(&c->sc, s->cls);
	if (!cls || (!over && !jvm_excy_name(cls, strlen(cls))))
		return false;
	size_t e = i + 1;
	while (e < c->t.n && !is_p(c, e, ";") && !is_p(c, e, "}"))
		e = fl_tok_is_opener(&c->t, e) && c->match[e] != NOIDX && c->match[e] > e ? c->match[e] + 1
											      : e + 1;
	char *msg = e > i + 1 ? jvm_var_arg_msg(c, i + 1, e) : NULL;
	if (msg) {
		char *name = fl_xstrdup(cls);
		site_spec sp = {.first = i, .msg = msg, .cls = name, .type = FL_T_EXCEPTION,
				.sev = FL_S_ERROR, .idiom = "class method getMessage"};
		jvm_emit(c, &sp);
		free(name);
		free(msg);
	}
	return true;
}

/* the rules on the identifier at i, tried in turn until one takes it */
void jvm_rules_at(ctx *c, size_t i)
{
	bool dot_before = i > 0 && (is_p(c, i - 1, ".") || is_p(c, i - 1, "?.") ||
				    is_p(c, i - 1, "::"));
	bool call = is_p(c, i + 1, "(");

	if (c->d == D_JAVA && is(c, i, "return") && rule_get_message(c, i))
		return;
	if (rule_throw_new(c, i))
		return;
	/* a call of a thrower method of the tree as a statement:
	 * `_reportError("...");` (or `this._reportError(...)`, or a class's
	 * static `Checks.failWith(...)`) */
	if (c->d == D_JAVA && call && c->ctors && !is_upper(tsrc(c, i)[0]) &&
	    (!dot_before || own_or_class_call(c, i) || var_call(c, i)) &&
	    rule_thrower(c, i))
		return;
	if (rule_kotlin_ctor(c, i, dot_before, call))
		return;
	if (i > 0 && (is(c, i - 1, "fun") || is(c, i - 1, "def")))
		return;
	/* a Java method's declaration, not a call: `void checkState(boolean
	 * ok, String msg) {` (or `throws`); Kotlin's and Scala's calls take
	 * a block after their arguments (`require(ok) { "..." }`) */
	if (c->d == D_JAVA && call && !dot_before && c->match[i + 1] != NOIDX &&
	    (is_p(c, c->match[i + 1] + 1, "{") || is(c, c->match[i + 1] + 1, "throws")))
		return;
	/* a call of a raiser of its own file: `return notEmpty(chars,
	 * DEFAULT_NOT_EMPTY_MESSAGE);` */
	if (c->d == D_JAVA && call && !is_upper(tsrc(c, i)[0]) && c->match[i + 1] != NOIDX &&
	    rule_own_raiser(c, i, dot_before))
		return;
	if (c->d == D_KOTLIN && !dot_before && (call || is_p(c, i + 1, "{")) &&
	    rule_kotlin_stdlib(c, i, call))
		return;
	if (c->d == D_SCALA && call && rule_scala_predef(c, i, dot_before))
		return;
	if (call && rule_preconditions(c, i, dot_before))
		return;
	if (call && rule_validators(c, i, dot_before))
		return;
	if (call && jvm_rule_bundle_key(c, i, dot_before))
		return;
	if (call && jvm_rule_enum_text(c, i, dot_before))
		return;
	if (rule_stderr(c, i, dot_before, call))
		return;
	if (c->d == D_JAVA && call && !dot_before && rule_bare_report(c, i))
		return;
	rule_logging(c, i, dot_before, call);
}

/* An enum that is a catalogue of errors (`enum ErrorCode { USER_NOT_FOUND(
 * 40401, "User not found", HttpStatus.NOT_FOUND), ... }`, Kotlin `enum
 * class ApiError(val msg: String)`): by its name (Error, Exception in it,
 * or ResultCode at its end), each constant whose arguments hold a message
 * is a record: the constant is its code, the enum its class, an HTTP
 * status among the arguments makes it an HTTP error, a severity named
 * for warnings (ErrorSeverity.WARNING) a warning.  name: the enum's name
 * token; the body's '{' follows.  into: instead of records, each
 * constant's text into the tree as "enumtext:ENUM.CONST" and
 * "enumtext:CONST" (tag 2 for a warning's, else 1), for the calls that
 * report it (jvm_rule_enum_text). */
/* A StringTemplate text (ANTLR's ErrorType: "reference to undefined rule:
 * <arg>", "cannot find or open file: <arg><if(exception&&verbose)>;
 * reason: <exception><endif>") in the placeholders of a message: each
 * <name> as {name}, a conditional <if(...)>...<endif> left out (what is
 * printed when it does not hold); NULL when m holds no <arg...> or <if(. */
static char *st_template(const char *m)
{
	if (!strstr(m, "<arg") && !strstr(m, "<if("))
		return NULL;
	fl_buf b = {0};
	int skip = 0;
	for (const char *p = m; *p;) {
		if (strncmp(p, "<if(", 4) == 0) {
			const char *e = strstr(p, ")>");
			if (e) {
				skip++;
				p = e + 2;
				continue;
			}
		}
		if (strncmp(p, "<endif>", 7) == 0 && skip) {
			skip--;
			p += 7;
			continue;
		}
		if (*p == '<' && ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z'))) {
			const char *e = p + 1;
			while (isalnum((unsigned char)*e) || *e == '_' || *e == '.')
				e++;
			if (*e == '>') {
				if (!skip) {
					fl_buf_putc(&b, '{');
					fl_buf_put(&b, p + 1, (size_t)(e - p - 1));
					fl_buf_putc(&b, '}');
				}
				p = e + 1;
				continue;
			}
		}
		if (!skip)
			fl_buf_putc(&b, *p);
		p++;
	}
	char *r = fl_xstrdup(fl_buf_cstr(&b));
	fl_buf_free(&b);
	return r;
}

/* Is text m one word that only spells constant q's own name
 * (`WARNING("warning")`, `READ_ONLY("readonly")`: the letters the same,
 * whatever their case, '_' and '-' aside)?  It is the constant's label
 * then (an enum of severities), no message; a phrase (`NOT_FOUND("Not
 * found")`) stays one. */
static bool label_of(const ctx *c, size_t q, const char *m)
{
	const char *s = tsrc(c, q);
	size_t n = c->t.v[q].len, k = 0;
	if (strchr(m, ' '))
		return false;
	for (const char *p = m;; p++) {
		while (*p == '_' || *p == '-')
			p++;
		while (k < n && s[k] == '_')
			k++;
		if (!*p || k == n)
			return !*p && k == n;
		if (tolower((unsigned char)*p) != tolower((unsigned char)s[k]))
			return false;
		k++;
	}
}

static void error_enum(ctx *c, size_t name, fl_factories *into)
{
	const char *nm = tsrc(c, name);
	size_t nl = c->t.v[name].len;
	bool errorish = fl_memmem(nm, nl, "Error", 5) || fl_memmem(nm, nl, "Exception", 9) ||
			ends_with(nm, nl, "ResultCode");
	if (!errorish)
		return;
	size_t k = name + 1;
	/* Kotlin's primary constructor, Java's implements ... */
	while (k < c->t.n && k < name + 64 && !is_p(c, k, "{")) {
		if (is_p(c, k, ";") || is_p(c, k, "="))
			return;
		k = fl_tok_is_opener(&c->t, k) && c->match[k] != NOIDX ? c->match[k] + 1 : k + 1;
	}
	if (k >= c->t.n || !is_p(c, k, "{") || c->match[k] == NOIDX)
		return;
	size_t end = c->match[k];
	char *cls = dup_tok(c, name);
	for (size_t q = k + 1; q < end;) {
		/* NAME ( args ) [ { body } ] , ... ; (a constant without
		 * arguments, `OK,`, is passed over; so are its annotations,
		 * `@Deprecated`) */
		while (q + 1 < end && is_p(c, q, "@") && is_id(c, q + 1)) {
			q += 2;
			if (is_p(c, q, "(") && c->match[q] != NOIDX && c->match[q] < end)
				q = c->match[q] + 1;
		}
		if (is_id(c, q) && is_p(c, q + 1, ",")) {
			q += 2;
			continue;
		}
		if (!is_id(c, q) || !is_p(c, q + 1, "(") || c->match[q + 1] == NOIDX ||
		    c->match[q + 1] >= end)
			break;
		size_t close = c->match[q + 1];
		size_t st[8], en[8];
		size_t na = args(c, q + 1, st, en, 8, NULL);
		char *msg = NULL, *scode = NULL;
		int http = 0;
		bool warn = false;
		for (size_t a = 0; a < na; a++) {
			if (c->t.v[st[a]].kind == FL_TK_STRING) {
				/* ("SHOP-404", "Order not found"): a word is a
				 * code clients see, a phrase the message */
				char *m = jvm_first_msg(c, st, en, a + 1, a, NULL);
				if (m && !strchr(m, ' ') && en[a] == st[a] + 1 && !scode) {
					scode = m;
				} else if (m && !msg) {
					msg = m;
				} else {
					free(m);
				}
			} else if (en[a] > st[a] && is_id(c, en[a] - 1) && en[a] - st[a] <= 3) {
				if (!http)
					http = fl_http_status_by_name(tsrc(c, en[a] - 1),
								      c->t.v[en[a] - 1].len);
				warn = warn || fl_tok_contains_ci(&c->t, en[a] - 1, "warn");
			}
		}
		if (!msg) {
			msg = scode; /* one word: the message all the same */
			scode = NULL;
		}
		if (msg) {
			char *st = st_template(msg);
			if (st) {
				free(msg);
				msg = st;
			}
		}
		if (msg && label_of(c, q, msg)) {
			/* ERROR("error") of an enum of severities: a label */
			free(msg);
			msg = NULL;
		}
		if (msg && into) {
			for (int both = 0; both < 2; both++) {
				fl_factory f = {0};
				f.name = both ? fl_xasprintf("enumtext:%s.%.*s", cls, (int)c->t.v[q].len, tsrc(c, q))
					      : fl_xasprintf("enumtext:%.*s", (int)c->t.v[q].len, tsrc(c, q));
				f.msg = fl_xstrdup(msg);
				f.tag = warn ? 2 : 1;
				fl_factories_add(into, &f);
			}
		} else if (msg) {
			char *code = scode ? scode : dup_tok(c, q);
			scode = NULL;
			site_spec sp = {.first = q, .cls = cls, .code = code,
					.type = http >= 400 ? FL_T_HTTP : FL_T_ERROR_CODE,
					.sev = http >= 400 ? fl_http_severity(http)
					       : warn	   ? FL_S_WARNING
							   : FL_S_ERROR,
					.http = http >= 400 ? http : 0,
					.idiom = "error enum constant", .msg = msg};
			jvm_emit(c, &sp);
			free(code);
		}
		free(msg);
		free(scode);
		q = close + 1;
		if (is_p(c, q, "{") && c->match[q] != NOIDX)
			q = c->match[q] + 1;
		if (!is_p(c, q, ","))
			break;
		q++;
	}
	free(cls);
}

void jvm_error_enum(ctx *c, size_t name)
{
	error_enum(c, name, NULL);
}

void jvm_error_enums_collect(ctx *c, fl_factories *tree)
{
	for (size_t i = 0; i + 2 < c->t.n; i++) {
		if (!is(c, i, "enum") || (i > 0 && is_p(c, i - 1, ".")))
			continue;
		size_t k = is(c, i + 1, "class") ? i + 2 : i + 1;
		if (is_id(c, k))
			error_enum(c, k, tree);
	}
}

/* Spring's @ResponseStatus(code = HttpStatus.NOT_FOUND, reason = "...")
 * on an exception class: the response's status and message whenever the
 * class is thrown, at the '@' i */
void jvm_rule_response_status(ctx *c, size_t i)
{
	size_t open = i + 2;
	if (c->match[open] == NOIDX)
		return;
	size_t st[4], en[4];
	size_t na = args(c, open, st, en, 4, NULL);
	int status = 0;
	size_t reason = NOIDX;
	for (size_t k = 0; k < na; k++) {
		size_t b = st[k], e = en[k];
		bool named = e - b >= 3 && is_id(c, b) && is_p(c, b + 1, "=");
		if (named && is(c, b, "reason") && e == b + 3 &&
		    c->t.v[b + 2].kind == FL_TK_STRING) {
			reason = b + 2;
			continue;
		}
		if (named && !is(c, b, "value") && !is(c, b, "code"))
			continue;
		/* HttpStatus.NOT_FOUND or a static import NOT_FOUND */
		size_t last = e - 1;
		if (is_id(c, last))
			status = fl_http_status_by_name(tsrc(c, last), c->t.v[last].len);
	}
	if (reason == NOIDX || status < 400 || status > 599)
		return;
	/* the class it is on: after other annotations and modifiers */
	size_t k = c->match[open] + 1;
	for (int s = 0; s < 16 && k < c->t.n; s++) {
		if (is_p(c, k, "@") && is_id(c, k + 1)) {
			k += 2;
			while (k + 1 < c->t.n && is_p(c, k, ".") && is_id(c, k + 1))
				k += 2;
			if (is_p(c, k, "(") && c->match[k] != NOIDX)
				k = c->match[k] + 1;
			continue;
		}
		if (is(c, k, "public") || is(c, k, "final") || is(c, k, "abstract") ||
		    is(c, k, "static") || is(c, k, "open") || is(c, k, "data") ||
		    is(c, k, "internal") || is(c, k, "private")) {
			k++;
			continue;
		}
		break;
	}
	if (!is(c, k, "class") || !is_id(c, k + 1) ||
	    !jvm_excy_name(tsrc(c, k + 1), c->t.v[k + 1].len))
		return;
	char *cls = dup_tok(c, k + 1);
	char *msg = fl_xstrdup(fl_tok_str(&c->t, &c->t.v[reason]));
	site_spec sp = {.first = reason, .msg = msg, .cls = cls, .type = FL_T_HTTP,
			.sev = fl_http_severity(status), .http = status,
			.idiom = "class annotation @ResponseStatus"};
	jvm_emit(c, &sp);
	free(msg);
	free(cls);
}
