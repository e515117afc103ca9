/*
 * factories.c — a JavaScript / TypeScript project's own error makers
 * (js.h), known from the tree's collect pass: its error factories
 * (createXError(...), called or thrown anywhere; the message they build),
 * its reporters (commander's this.error(message), a usageError(msg) that
 * prints and exits: found by what they do), and its factories of a message
 * passed in (npm's `throw this.usageError('...')`).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js.h"

/* a function's name says it makes an error: create/make/build/new...
 * Error/Err/Exception (createUnsupportedError, makeErr) */
static bool factory_name(const char *s, size_t n)
{
	static const char *const pre[] = {"create", "make", "build", "new", "get", NULL};
	bool p = false;
	for (int k = 0; pre[k] && !p; k++) {
		size_t l = strlen(pre[k]);
		p = n > l && memcmp(s, pre[k], l) == 0 && s[l] >= 'A' && s[l] <= 'Z';
	}
	if (!p)
		return false;
	return (n > 5 && memcmp(s + n - 5, "Error", 5) == 0) || (n > 3 && memcmp(s + n - 3, "Err", 3) == 0) ||
	       (n > 9 && memcmp(s + n - 9, "Exception", 9) == 0);
}

/* `throw createUnsupportedError('...', ...)`: a project's error factory,
 * from another module, thrown here with its message as the first literal
 * argument (mocha's errors.js) */
void js_rule_throw_factory(ctx *c, size_t i, size_t name, size_t open)
{
	const char *s = c->t.src + c->t.v[name].off;
	size_t n = c->t.v[name].len;
	if (!factory_name(s, n))
		return;
	c->used[name] = 1;
	size_t st[4], en[4];
	size_t na = split_args(c, open, st, en, 4);
	char *m = NULL, *code = NULL;
	for (size_t a = 0; a < na && !m; a++)
		m = is_p(c, st[a], "{") && c->match[st[a]] == en[a] - 1
			    ? js_obj_message(c, st[a], &code) /* { message: '..', code: '..' } */
			    : js_msg_of(c, st[a], en[a]);
	if (!m) {
		free(code);
		return;
	}
	char *idiom = fl_xasprintf("throw %.*s", (int)n, s);
	js_emit(c, i, m, code, NULL, FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
	free(idiom);
	free(code);
	free(m);
}

/* ---- error factories across files --------------------------------------------
 * mocha's errors.js: `function createMultipleDoneError(runnable, err) { var
 * message = format('done() called multiple times in %s %s', ...); ... var
 * err = new Error(message); ... return err; }`, called from other modules
 * with no message of their own: `self.emit('error',
 * createMultipleDoneError(self, err))`.  The tree keeps the message such a
 * function (factory_name()) builds, "fac:NAME"; a message passed in (a
 * parameter) is not its own. */

/* A byte scan: `function NAME` with NAME a factory's name. */
bool js_has_factory_decl(const char *s, size_t n)
{
	for (const char *p = s; (p = fl_memmem(p, (size_t)(s + n - p), "function ", 9)) != NULL;) {
		p += 9;
		const char *q = p;
		while (q < s + n && fl_js_id_char((unsigned char)*q))
			q++;
		if (factory_name(p, (size_t)(q - p)))
			return true;
	}
	return false;
}

/* The message the factory declared at `function` token i builds: the one
 * `new X(...)` of its body that is not thrown, whose argument is a literal
 * or a local variable holding one; NULL otherwise.  *name gets its name
 * token. */
char *js_factory_msg(const ctx *c, size_t i, size_t *name)
{
	const fl_toks *t = &c->t;
	size_t nm = i + 1;
	if (!is_kind(c, nm, FL_TK_IDENT) || !is_p(c, nm + 1, "(") || c->match[nm + 1] >= t->n ||
	    !factory_name(t->src + t->v[nm].off, t->v[nm].len))
		return NULL;
	size_t open = c->match[nm + 1] + 1;
	if (!is_p(c, open, "{") || c->match[open] >= t->n)
		return NULL;
	size_t close = c->match[open];
	char *msg = NULL;
	for (size_t k = open + 1; k < close && k - open < 4000; k++) {
		size_t clsi;
		if (!is_id(c, k, "new") || is_id(c, k - 1, "throw"))
			continue;
		size_t o = js_ctor_at(c, k, &clsi);
		size_t st[2], en[2];
		if (o == NONE || !errorish(t, clsi) || split_args(c, o, st, en, 2) < 1)
			continue;
		char *m = js_msg_of(c, st[0], en[0]);
		if (!m && en[0] == st[0] + 1 && is_kind(c, st[0], FL_TK_IDENT))
			m = fl_var_msg(t, c->match, nm, st[0], st[0], js_decl, js_var_expr_msg, c);
		if (!m)
			continue;
		if (msg) { /* two errors: which one is unknown */
			free(m);
			free(msg);
			return NULL;
		}
		msg = m;
	}
	*name = nm;
	return msg;
}

/* `createTimeoutError(msg, ms)`, `emit('error', createMultipleDoneError(self,
 * err))`: a call of a project's error factory that is not thrown here (a
 * throw is js_rule_throw_factory's) makes an error all the same: a site, with
 * the message of its first literal argument (or local variable holding
 * one), else the message the factory builds (the tree's). */
bool js_rule_factory_call(ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	if (!factory_name(s, n) || (n > 3 && memcmp(s, "get", 3) == 0) || c->match[i + 1] >= t->n ||
	    (i > 0 && (is_id(c, i - 1, "function") || is_id(c, i - 1, "new"))) ||
	    is_p(c, c->match[i + 1] + 1, "{"))
		return false;
	size_t st[4], en[4];
	size_t na = split_args(c, i + 1, st, en, 4);
	char *m = NULL, *code = NULL;
	for (size_t a = 0; a < na && !m; a++)
		m = is_p(c, st[a], "{") && c->match[st[a]] == en[a] - 1
			    ? js_obj_message(c, st[a], &code) /* { message: '..', code: '..' } */
			    : js_ctor_arg_msg(c, st[a], en[a]);
	if (!m) {
		char *key = fl_xasprintf("fac:%.*s", (int)n, s);
		const char *dm, *dc;
		int ds;
		if (fl_classdefs_find(c->tree, key, &dm, &dc, &ds) && dm)
			m = fl_xstrdup(dm);
		free(key);
	}
	bool made = m && strchr(m, ' '); /* one word is a key or a name, not a message */
	if (made)
		js_emit(c, i, m, code, NULL, FL_T_EXCEPTION, FL_S_ERROR, 0, "error factory call");
	free(m);
	free(code);
	return made;
}

/* ---- factories of error objects ----------------------------------------------
 * rollup's `export function errorMissingExport(binding: string, ...):
 * RollupLog { return { binding, code: MISSING_EXPORT, message: `"${binding}"
 * is not exported by ...`, url: ... }; }`, given to `this.error(...)`,
 * `this.warn(...)`, `onwarn(...)` wherever the error happens: the tree
 * keeps "ofac:NAME" (the message of the object it returns, its code), and
 * each call of NAME is a site. */

bool js_has_log_factory(const char *s, size_t n)
{
	return fl_memmem(s, n, "message:", 8) != NULL && fl_memmem(s, n, "return {", 8) != NULL &&
	       fl_memmem(s, n, "function ", 9) != NULL;
}

/* The text the file's constant NAME (token k) is given, `NAME = 'TEXT'`
 * at a statement's level (`const MISSING_EXPORT = 'MISSING_EXPORT',
 * ...`), or NULL. */
static const char *file_const_text(const ctx *c, size_t k)
{
	const fl_tok *x = &c->t.v[k];
	for (size_t q = 0; q + 3 < c->t.n; q++) {
		const fl_tok *y = &c->t.v[q];
		if (y->kind == FL_TK_IDENT && y->len == x->len && q != k &&
		    memcmp(c->t.src + y->off, c->t.src + x->off, x->len) == 0 && is_p(c, q + 1, "=") &&
		    is_kind(c, q + 2, FL_TK_STRING) && (is_p(c, q + 3, ",") || is_p(c, q + 3, ";")) &&
		    (is_id(c, q - 1, "const") || is_p(c, q - 1, ",")))
			return fl_tok_str(&c->t, &c->t.v[q + 2]);
	}
	return NULL;
}

static bool param_decl(const ctx *c, size_t b, size_t e);

void js_log_factory_collect(fl_classdefs *tr, const ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	size_t nm = i + 1;
	if (!is_id(c, i, "function") || !is_kind(c, nm, FL_TK_IDENT) || !is_p(c, nm + 1, "(") ||
	    c->match[nm + 1] >= t->n || t->v[nm].len > 120)
		return;
	/* the body, after a return type (`): RollupLog {`) */
	size_t open = c->match[nm + 1] + 1;
	if (is_p(c, open, ":"))
		for (size_t lim = open + 24; open < lim && open < t->n && !is_p(c, open, "{"); open++)
			;
	if (!is_p(c, open, "{") || c->match[open] >= t->n || c->match[open] - open > 2000)
		return;
	size_t close = c->match[open];
	for (size_t k = open + 1; k + 1 < close; k++) {
		if (is_id(c, k, "function") || is_p(c, k, "=>"))
			return; /* a nested function's return is its own */
		if (!is_id(c, k, "return") || !is_p(c, k + 1, "{") || c->match[k + 1] >= close)
			continue;
		size_t vb, ve;
		if (!js_obj_prop(c, k + 1, "message", &vb, &ve))
			continue;
		char *code = NULL;
		char *m = js_obj_message(c, k + 1, &code);
		if (!m || !strchr(m, ' ')) {
			free(m);
			free(code);
			return;
		}
		size_t cb, ce;
		if (!code && js_obj_prop(c, k + 1, "code", &cb, &ce) && ce == cb + 1 && is_kind(c, cb, FL_TK_IDENT)) {
			const char *cv = file_const_text(c, cb);
			if (cv && *cv)
				code = fl_xstrdup(cv);
		}
		char *key = fl_xasprintf("ofac:%.*s", (int)t->v[nm].len, t->src + t->v[nm].off);
		/* its parameters, one a line, for a call's arguments
		 * (js_compose_args): `errorInvalidOption(option: string, ...,
		 * explanation: string)` */
		size_t ps[8], pe[8];
		size_t np = split_args(c, nm + 1, ps, pe, 8);
		fl_buf pb = {0};
		bool named = false;
		for (size_t q = 0; q < np; q++) {
			if (q)
				fl_buf_putc(&pb, '\n');
			if (param_decl(c, ps[q], pe[q])) {
				fl_buf_put(&pb, t->src + t->v[ps[q]].off, t->v[ps[q]].len);
				named = true;
			}
		}
		if (named && strstr(m, "${")) {
			fl_buf_cstr(&pb);
			fl_classdefs_add_params(tr, key, m, code, 0, pb.s);
		} else {
			fl_classdefs_add(tr, key, m, code, 0);
			fl_buf_free(&pb);
		}
		free(key);
		return; /* its first: the others are its variants */
	}
}

bool js_rule_log_factory_call(ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	if (!c->tree || !c->tree->n || t->v[i].len > 120 || c->match[i + 1] >= t->n ||
	    (i > 0 && (is_id(c, i - 1, "function") || is_id(c, i - 1, "new") || is_p(c, i - 1, "."))) ||
	    is_p(c, c->match[i + 1] + 1, "{") ||
	    /* a method's return type (`name(...): T {`), not a choice's
	     * first arm (`c ? errorA(x) : errorB(y)`) */
	    (is_p(c, c->match[i + 1] + 1, ":") && !(i > 0 && is_p(c, i - 1, "?"))))
		return false;
	char key[160];
	snprintf(key, sizeof key, "ofac:%.*s", (int)t->v[i].len, t->src + t->v[i].off);
	const char *m, *code;
	int st;
	if (!fl_classdefs_find(c->tree, key, &m, &code, &st) || !m)
		return false;
	/* given to a warning's call: onwarn(...), this.warn(...) */
	bool warn = i >= 2 && is_p(c, i - 1, "(") && is_kind(c, i - 2, FL_TK_IDENT) &&
		    fl_tok_contains_ci(t, i - 2, "warn");
	/* the call's arguments in the message it names them in */
	size_t as[8], ae[8];
	size_t na = split_args(c, i + 1, as, ae, 8);
	/* (with a code, the file's calls are one record, its first: the
	 * message keeps the placeholders that tell them apart) */
	char *mm = code ? NULL : js_compose_args(c, key, as, ae, na);
	js_emit(c, i, mm ? mm : m, code, NULL, FL_T_EXCEPTION, warn ? FL_S_WARNING : FL_S_ERROR, 0,
		"error object factory");
	free(mm);
	return true;
}

/* ---- project reporters ---------------------------------------------------------
 * commander's `error(message, errorOptions) { this._outputConfiguration
 * .outputError(`${message}\n`, ...); ...; this._exit(exitCode, code,
 * message); }`, a `function usageError(msg) { console.error(msg);
 * process.exit(2); }`: a method or function that reports one of its
 * parameters (to stderr or an error writer, or as a thrown error) and
 * exits or throws.  Found by what it does (collect(): every file), each
 * call of it with a message (a literal, or a local variable holding one)
 * is a site: `this.error(message, { code: 'commander.unknownOption' })`.
 * The tree keeps "rep:NAME": the parameter's position as the message,
 * status 1 for a method (called as this.NAME), 0 for a function. */
#define REP_MAX_TOKS 600

/* A byte scan: the file can declare a reporter. */
bool js_has_reporter(const char *s, size_t n)
{
	return fl_memmem(s, n, "exit(", 5) != NULL || fl_memmem(s, n, "throw ", 6) != NULL;
}

/* Whether the call at callee token q reports what it is given: console
 * .error/.warn, process.stderr.write, a callee named like an error
 * writer (outputError, writeErr, logError). */
static bool reports_err(const ctx *c, size_t q)
{
	const char *s = c->t.src + c->t.v[q].off;
	size_t n = c->t.v[q].len;
	if ((is_id(c, q, "error") || is_id(c, q, "warn")) && q >= 2 && is_id(c, q - 2, "console"))
		return true;
	if (is_id(c, q, "write") && q >= 2 && is_id(c, q - 2, "stderr"))
		return true;
	return fl_memmem(s, n, "Error", 5) || fl_memmem(s, n, "Err", 3) ||
	       (n >= 5 && memcmp(s, "error", 5) == 0);
}

/* Whether [from, to) passes parameter token p on: whole, as an argument,
 * or in a template hole ${p}.  (A thrown error's [from, to) is its first
 * argument when that is one name.) */
static bool passes_param(const ctx *c, size_t from, size_t to, size_t p)
{
	const fl_toks *t = &c->t;
	const fl_tok *pk = &t->v[p];
	for (size_t r = from; r < to; r++) {
		const fl_tok *rk = &t->v[r];
		if (rk->kind == FL_TK_IDENT && rk->len == pk->len &&
		    memcmp(t->src + rk->off, t->src + pk->off, pk->len) == 0 && r > 0 &&
		    !is_p(c, r - 1, ".") && (is_p(c, r - 1, "(") || is_p(c, r - 1, ",")) &&
		    (is_p(c, r + 1, ")") || is_p(c, r + 1, ",")))
			return true;
		if (rk->kind == FL_TK_STRING && (rk->flags & FL_TF_INTERP)) {
			const char *h = fl_tok_str(t, rk);
			for (const char *x = h; (x = strstr(x, "${")) != NULL; x += 2)
				if (strncmp(x + 2, t->src + pk->off, pk->len) == 0 &&
				    x[2 + pk->len] == '}')
					return true;
		}
	}
	return false;
}

/* The parameter [b, e) is a name, with a type (`msg: string`) or a
 * default (`msg = 'Unexpected token'`) or not: its name is token b. */
static bool param_decl(const ctx *c, size_t b, size_t e)
{
	return is_kind(c, b, FL_TK_IDENT) &&
	       (e == b + 1 || is_p(c, b + 1, ":") || is_p(c, b + 1, "=") || is_p(c, b + 1, "?"));
}

/* A throw at thr that an if of the body opened at body runs (`if (!ok)
 * throw ...`, `if (bad) { throw ... }`) on one of the parameters [st[k],
 * en[k]): its position (*neg: the if tests its opposite), or -1. */
static int throw_cond(const ctx *c, size_t thr, size_t body, const size_t *st, const size_t *en,
		      size_t np, bool *neg)
{
	size_t k = thr - 1;
	if (is_p(c, k, "{") && k > body)
		k--;
	if (k <= body || !is_p(c, k, ")") || c->match[k] >= c->t.n)
		return -1;
	size_t o = c->match[k];
	if (o <= body + 1 || !is_id(c, o - 1, "if"))
		return -1;
	size_t a = o + 1;
	*neg = is_p(c, a, "!");
	if (*neg)
		a++;
	if (a + 1 != k || !is_kind(c, a, FL_TK_IDENT))
		return -1;
	for (size_t q = 0; q < np; q++)
		if (param_decl(c, st[q], en[q]) && c->t.v[st[q]].len == c->t.v[a].len &&
		    memcmp(c->t.src + c->t.v[st[q]].off, c->t.src + c->t.v[a].off, c->t.v[a].len) == 0)
			return (int)q;
	return -1;
}

/* The reporter whose parameters open at `open` ('(' after its name) and
 * whose body is the block at body: the position of the parameter it
 * reports, or -1.  When it throws it, the class it throws (*cls, else
 * NONE) and the parameter an if tests before (*cond, *neg; else -1). */
/* a parameter's name says it is the message: msg, message, text, reason */
static bool message_name(const ctx *c, size_t p)
{
	static const char *const w[] = {"msg", "message", "Message", "text", "reason", "description", NULL};
	return js_name_has(c, p, w);
}

/* the function called at q is a factory of a message passed in that the
 * tree knows (js_pfac_collect) */
static bool is_pfac(const fl_classdefs *tr, const ctx *c, size_t q)
{
	char fk[160];
	if (!tr || c->t.v[q].len > 120)
		return false;
	snprintf(fk, sizeof fk, "pfac:%.*s", (int)c->t.v[q].len, c->t.src + c->t.v[q].off);
	return fl_classdefs_params(tr, fk) != NULL;
}

/* Whether the template at token s begins with the hole of name token p
 * (`${msg} ...`). */
static bool template_head(const ctx *c, size_t s, size_t p)
{
	const char *x = fl_tok_str(&c->t, &c->t.v[s]);
	size_t n = c->t.v[p].len;
	return strncmp(x, "${", 2) == 0 && strncmp(x + 2, c->t.src + c->t.v[p].off, n) == 0 && x[2 + n] == '}';
}

static int reporter_param(const fl_classdefs *tr, const ctx *c, size_t open, size_t body, size_t *cls,
			  int *cond, bool *neg, size_t *tmpl)
{
	const fl_toks *t = &c->t;
	size_t close = c->match[body];
	if (close >= t->n || close - body > REP_MAX_TOKS)
		return -1;
	size_t st[6], en[6];
	size_t np = split_args(c, open, st, en, 6);
	int param = -1;
	bool ends = false;
	for (size_t q = body + 1; q < close; q++) {
		if (is_id(c, q, "function") || is_p(c, q, "=>"))
			return -1; /* a nested function: its own business */
		if (is_id(c, q, "throw") ||
		    ((is_id(c, q, "exit") || is_id(c, q, "_exit")) && is_p(c, q + 1, "(")))
			ends = true;
		bool thrown = is_id(c, q, "throw") && is_id(c, q + 1, "new");
		size_t from, to, clsi = NONE;
		if (thrown) {
			/* the parameter is the message: throw new X(p, ...) */
			size_t o = js_ctor_at(c, q + 1, &clsi);
			/* or a template holding it: throw new
			 * SyntaxError(`${msg} ${line}:${col} in ${file}`) */
			if (o == NONE || c->match[o] >= close ||
			    !(is_kind(c, o + 1, FL_TK_IDENT) ||
			      (is_kind(c, o + 1, FL_TK_STRING) && (t->v[o + 1].flags & FL_TF_INTERP) &&
			       (is_p(c, o + 2, ")") || is_p(c, o + 2, ",")))))
				continue;
			from = o + 1;
			to = o + 2;
		} else if (is_kind(c, q, FL_TK_IDENT) && is_p(c, q + 1, "(") &&
			   c->match[q + 1] < close && !is_id(c, q - 1, "new") && reports_err(c, q) &&
			   !(is_id(c, q - 1, "throw") && is_pfac(tr, c, q))) {
			/* (a factory's error thrown: js_reporter_forward) */
			from = q + 2;
			to = c->match[q + 1];
		} else {
			continue;
		}
		/* of several parameters passed on, the one named as a message */
		int first = -1, named = -1;
		for (size_t k = 0; k < np && param < 0 && named < 0; k++)
			if (param_decl(c, st[k], en[k]) && passes_param(c, from, to, st[k])) {
				if (first < 0)
					first = (int)k;
				if (message_name(c, st[k]))
					named = (int)k;
			}
		/* a text around a parameter is a reporter's only when the
		 * parameter is the message: so named, or the text's head
		 * (not `name must be a string, got ${value}`) */
		if (first >= 0 && is_kind(c, from, FL_TK_STRING) && named < 0 &&
		    !template_head(c, from, st[first]))
			first = -1;
		if (param < 0 && first >= 0) {
			param = named >= 0 ? named : first;
			if (thrown && errorish(t, clsi)) {
				*cls = clsi;
				*cond = throw_cond(c, q, body, st, en, np, neg);
				if (is_kind(c, from, FL_TK_STRING))
					*tmpl = from;
			}
		}
	}
	return ends ? param : -1;
}

/* The name token of a function declared at i (`function NAME(`, *method
 * 0) or of a method (`NAME(...) {` of a class or object, *method 1), or
 * NONE: a call, a member, a control keyword. */
static size_t decl_name(const ctx *c, size_t i, int *method)
{
	*method = 1;
	if (is_id(c, i, "function")) {
		*method = 0;
		return i + 1;
	}
	if (i > 0 && (is_p(c, i - 1, ".") || is_id(c, i - 1, "function") || is_id(c, i - 1, "new") ||
		      js_is_ctl_kw(c, i)))
		return NONE;
	return i;
}

/* In collect: the reporter declared at i (`function NAME(` or a method
 * `NAME(...) {` of a class or object), into the tree. */
void js_reporter_collect(fl_classdefs *tr, const ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	int method;
	size_t nm = decl_name(c, i, &method);
	if (nm == NONE)
		return;
	if (!is_kind(c, nm, FL_TK_IDENT) || !is_p(c, nm + 1, "(") || c->match[nm + 1] >= t->n)
		return;
	size_t body = c->match[nm + 1] + 1;
	if (!is_p(c, body, "{"))
		return;
	size_t cls = NONE, tmpl = NONE;
	int cond = -1;
	bool neg = false;
	int param = reporter_param(tr, c, nm + 1, body, &cls, &cond, &neg, &tmpl);
	if (param < 0)
		return;
	/* the text it throws holds the parameter: "name\ttemplate" */
	char *tv = NULL;
	if (tmpl != NONE) {
		size_t ps[6], pe[6];
		size_t np = split_args(c, nm + 1, ps, pe, 6);
		const fl_tok *pt = (size_t)param < np ? &t->v[ps[param]] : NULL;
		const char *tx = fl_tok_str(t, &t->v[tmpl]);
		if (pt && t->v[tmpl].slen < 400 && !memchr(tx, '\t', t->v[tmpl].slen))
			tv = fl_xasprintf("%.*s\t%.*s", (int)pt->len, t->src + pt->off, (int)t->v[tmpl].slen, tx);
	}
	char *key = fl_xasprintf("rep:%.*s", (int)t->v[nm].len, t->src + t->v[nm].off);
	/* "param", or "param cond neg Class" for a thrower */
	char *v = cls == NONE ? fl_xasprintf("%d", param)
			      : fl_xasprintf("%d %d %d %.*s", param, cond, neg ? 1 : 0, (int)t->v[cls].len,
					     t->src + t->v[cls].off);
	fl_classdefs_add(tr, key, v, tv, method);
	free(key);
}

/* `throw NAME(...)` at callee q, in the function whose parameters are
 * [ps[k], pe[k]) and whose name is just before them: when NAME is a
 * factory of the tree ("pfac:NAME", a free function) whose message is one
 * of its parameters whole ("${message}") and the call gives it one of
 * ours, the function is a reporter of that parameter, throwing the
 * factory's class (js-yaml's `throwError(state, message) { throw
 * generateError(state, message) }`).  The parameter's position, or -1. */
static int pfac_forward(fl_classdefs *tr, const ctx *c, size_t q, const size_t *ps, const size_t *pe,
			size_t np, bool warn)
{
	const fl_toks *t = &c->t;
	char fk[160];
	snprintf(fk, sizeof fk, "pfac:%.*s", (int)t->v[q].len, t->src + t->v[q].off);
	const char *tmpl, *code;
	int fm;
	const char *params = fl_classdefs_params(tr, fk);
	if (!params || !fl_classdefs_find(tr, fk, &tmpl, &code, &fm) || !tmpl || fm)
		return -1;
	const char *nl = strchr(params, '\n');
	size_t tl = strlen(tmpl);
	if (!nl || tl < 4 || tmpl[0] != '$' || tmpl[1] != '{' || tmpl[tl - 1] != '}')
		return -1;
	/* the factory's parameter the message is: its index */
	size_t fi = 0;
	bool found = false;
	for (const char *p = nl + 1; *p && !found; fi++) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		found = l == tl - 3 && memcmp(p, tmpl + 2, l) == 0;
		if (found)
			break;
		p += l + (e ? 1 : 0);
	}
	size_t st[6], en[6];
	size_t na = split_args(c, q + 1, st, en, 6);
	if (!found || fi >= na || en[fi] != st[fi] + 1 || !is_kind(c, st[fi], FL_TK_IDENT))
		return -1;
	for (size_t p = 0; p < np; p++) {
		if (pe[p] != ps[p] + 1 || !is_kind(c, ps[p], FL_TK_IDENT) || t->v[ps[p]].len != t->v[st[fi]].len ||
		    memcmp(t->src + t->v[ps[p]].off, t->src + t->v[st[fi]].off, t->v[ps[p]].len) != 0)
			continue;
		size_t nm = ps[0] - 2; /* NAME ( params */
		char key[160];
		snprintf(key, sizeof key, "rep:%.*s", (int)t->v[nm].len, t->src + t->v[nm].off);
		fl_classdefs_add(tr, key,
				 fl_xasprintf("%zu -1 0 %.*s%s", p, (int)(nl - params), params, warn ? " warn" : ""),
				 NULL, 0);
		return (int)p;
	}
	return -1;
}

/* a name that says warning (throwWarning, emitWarning, warn) */
static bool warn_name(const char *s, size_t n)
{
	return fl_memmem(s, n, "Warn", 4) || (n >= 4 && memcmp(s, "warn", 4) == 0);
}

/* In collect, after the file's reporters are known: the function declared
 * at i that hands one of its parameters, as the message, to a reporter
 * function of the tree (uglify-js's `croak(msg, line) { js_error(msg,
 * ...) }` over `js_error(message, ...) { throw new JS_Parse_Error(message,
 * ...) }`, and `token_error(token, msg) { croak(msg, ...) }` over croak)
 * is a reporter of that parameter, of the same class.  True when it made
 * one. */
bool js_reporter_forward(fl_classdefs *tr, const ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	int method;
	size_t nm = decl_name(c, i, &method);
	if (nm == NONE || method || !is_kind(c, nm, FL_TK_IDENT) || !is_p(c, nm + 1, "(") ||
	    c->match[nm + 1] >= t->n || t->v[nm].len > 120)
		return false;
	char key[160];
	snprintf(key, sizeof key, "rep:%.*s", (int)t->v[nm].len, t->src + t->v[nm].off);
	const char *pm, *dc;
	int m0;
	if (fl_classdefs_find(tr, key, &pm, &dc, &m0))
		return false; /* one already */
	size_t body = c->match[nm + 1] + 1;
	if (!is_p(c, body, "{") || c->match[body] >= t->n || c->match[body] - body > REP_MAX_TOKS)
		return false;
	size_t close = c->match[body];
	size_t ps[6], pe[6];
	size_t np = split_args(c, nm + 1, ps, pe, 6);
	for (size_t q = body + 1; q + 1 < close; q++) {
		if (is_id(c, q, "function") || is_p(c, q, "=>"))
			return false; /* a nested function: its own business */
		if (!is_kind(c, q, FL_TK_IDENT) || !is_p(c, q + 1, "(") || is_p(c, q - 1, ".") ||
		    c->match[q + 1] >= close || t->v[q].len > 120)
			continue;
		if (is_id(c, q - 1, "throw")) {
			/* throw generateError(state, message): a factory's
			 * error made of the parameter */
			int p = pfac_forward(tr, c, q, ps, pe, np, false);
			if (p >= 0)
				return true;
			continue;
		}
		/* a function named for warnings that hands such an error on
		 * (js-yaml's `throwWarning(state, message) {
		 * state.onWarning.call(null, generateError(state, message)) }`):
		 * a reporter of warnings */
		if (warn_name(t->src + t->v[nm].off, t->v[nm].len) &&
		    pfac_forward(tr, c, q, ps, pe, np, true) >= 0)
			return true;
		char ck[160];
		snprintf(ck, sizeof ck, "rep:%.*s", (int)t->v[q].len, t->src + t->v[q].off);
		const char *cv, *cd;
		int cm;
		if (strcmp(ck, key) == 0 || !fl_classdefs_find(tr, ck, &cv, &cd, &cm) || !cv || cm)
			continue;
		size_t st[6], en[6];
		size_t na = split_args(c, q + 1, st, en, 6), k = (size_t)atoi(cv);
		if (k >= na || en[k] != st[k] + 1 || !is_kind(c, st[k], FL_TK_IDENT))
			continue;
		for (size_t p = 0; p < np; p++) {
			if (pe[p] != ps[p] + 1 || !is_kind(c, ps[p], FL_TK_IDENT) ||
			    t->v[ps[p]].len != t->v[st[k]].len ||
			    memcmp(t->src + t->v[ps[p]].off, t->src + t->v[st[k]].off, t->v[ps[p]].len) != 0)
				continue;
			/* the callee's class, without its condition (its
			 * parameters' places, not ours) */
			int cond, neg;
			char cls[128] = "";
			char *v = sscanf(cv, "%*d %d %d %127s", &cond, &neg, cls) == 3
					  ? fl_xasprintf("%zu -1 0 %s", p, cls)
					  : fl_xasprintf("%zu", p);
			fl_classdefs_add(tr, key, v, NULL, 0);
			return true;
		}
	}
	return false;
}

/* ---- factories of a message passed in ----------------------------------------
 * npm's `usageError (prefix = '') { ... return Object.assign(new
 * Error(`\n${prefix}${this.usage}`), { code: 'EUSAGE' }) }`, a `function
 * invalid(msg) { return new TypeError(`invalid input: ${msg}`) }`: a
 * function or method that returns an error made of its parameter, thrown
 * elsewhere with a text (`throw this.usageError('Must provide a package
 * name')`).  The tree keeps "pfac:NAME": the message with ${param} holes,
 * the code of an Object.assign, status 1 for a method, and the class and
 * then the parameters, one per line. */

/* A byte scan: the file may declare such a factory. */
bool js_has_pfactory(const char *s, size_t n)
{
	if (fl_memmem(s, n, "return new ", 11) != NULL ||
	    fl_memmem(s, n, "return Object.assign(new ", 25) != NULL ||
	    (fl_memmem(s, n, " = new ", 7) != NULL && fl_memmem(s, n, "Error(", 6) != NULL))
		return true;
	/* `(new Error(text))`, a cast's parentheses around an error made */
	for (const char *p = s; (p = fl_memmem(p, (size_t)(s + n - p), "(new ", 5)) != NULL;) {
		p += 5;
		const char *q = p;
		while (q < s + n && fl_js_id_char((unsigned char)*q))
			q++;
		if (q - p >= 5 && q < s + n && *q == '(' && memcmp(q - 5, "Error", 5) == 0)
			return true;
	}
	return false;
}

/* In collect: the factory declared at i (as js_reporter_collect), into the
 * tree. */
void js_pfac_collect(fl_classdefs *tr, const ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	int method;
	size_t nm = decl_name(c, i, &method);
	if (nm == NONE)
		return;
	if (!is_kind(c, nm, FL_TK_IDENT) || !is_p(c, nm + 1, "(") || c->match[nm + 1] >= t->n ||
	    t->v[nm].len > 120)
		return;
	size_t body = c->match[nm + 1] + 1;
	if (!is_p(c, body, "{") || c->match[body] >= t->n || c->match[body] - body > REP_MAX_TOKS)
		return;
	size_t close = c->match[body];
	size_t ps[6], pe[6];
	size_t np = split_args(c, nm + 1, ps, pe, 6);
	fl_buf params = {0};
	size_t named = 0;
	for (size_t k = 0; k < np; k++) {
		size_t q = ps[k];
		if (is_p(c, q, "..."))
			break;
		if (k)
			fl_buf_putc(&params, '\n');
		if (is_kind(c, q, FL_TK_IDENT)) {
			fl_buf_put(&params, t->src + t->v[q].off, t->v[q].len);
			named++;
		}
	}
	size_t open = NONE, obj = NONE, clsi = NONE;
	int nret = 0;
	/* `const err = new SyntaxError(message)`, decorated, then `return
	 * err`: the error the variable holds */
	size_t var = NONE, vopen = NONE, vcls = NONE;
	for (size_t q = body + 1; q < close && named; q++) {
		if (is_id(c, q, "function") || is_p(c, q, "=>") || is_id(c, q, "throw")) {
			nret = 0; /* a nested function, or a thrower: not this */
			break;
		}
		/* (new X(...)) in parentheses: a JSDoc cast's, `const err =
		 * (new Error(text))` after a type comment */
		size_t nw = is_p(c, q + 3, "(") && is_id(c, q + 4, "new") ? q + 4 : q + 3;
		if ((is_id(c, q, "const") || is_id(c, q, "let") || is_id(c, q, "var")) &&
		    is_kind(c, q + 1, FL_TK_IDENT) && is_p(c, q + 2, "=") && is_id(c, nw, "new")) {
			size_t ci, o = js_ctor_at(c, nw, &ci);
			if (o != NONE && errorish(t, ci)) {
				var = q + 1;
				vopen = o;
				vcls = ci;
			}
			continue;
		}
		if (!is_id(c, q, "return"))
			continue;
		size_t r = q + 1, ci, o = NONE, ob = NONE;
		if (var != NONE && is_kind(c, r, FL_TK_IDENT) && t->v[r].len == t->v[var].len &&
		    memcmp(t->src + t->v[r].off, t->src + t->v[var].off, t->v[r].len) == 0 &&
		    (is_p(c, r + 1, ";") || is_p(c, r + 1, "}"))) {
			o = vopen;
			ci = vcls;
		} else if (is_id(c, r, "Object") && is_p(c, r + 1, ".") && is_id(c, r + 2, "assign") &&
		    is_p(c, r + 3, "(") && is_id(c, r + 4, "new")) {
			o = js_ctor_at(c, r + 4, &ci);
			if (o != NONE && c->match[o] < t->n && is_p(c, c->match[o] + 1, ",") &&
			    is_p(c, c->match[o] + 2, "{"))
				ob = c->match[o] + 2;
		} else if (is_id(c, r, "new")) {
			o = js_ctor_at(c, r, &ci);
		}
		if (o == NONE || !errorish(t, ci))
			continue;
		nret++;
		open = o;
		obj = ob;
		clsi = ci;
	}
	char *msg = NULL, *code = NULL;
	size_t st[2], en[2];
	fl_buf_cstr(&params);
	if (nret == 1 && split_args(c, open, st, en, 2) >= 1) {
		if (en[0] == st[0] + 1 && is_kind(c, st[0], FL_TK_IDENT)) {
			char *p = fl_tok_dup(t, st[0]);
			msg = fl_xasprintf("${%s}", p);
			free(p);
		} else {
			msg = js_msg_of(c, st[0], en[0]);
		}
		if (msg && !js_names_param(msg, params.s)) {
			free(msg);
			msg = NULL;
		}
	}
	if (msg) {
		if (obj != NONE)
			free(js_obj_message(c, obj, &code));
		char *key = fl_xasprintf("pfac:%.*s", (int)t->v[nm].len, t->src + t->v[nm].off);
		fl_buf v = {0};
		fl_buf_put(&v, t->src + t->v[clsi].off, t->v[clsi].len);
		fl_buf_putc(&v, '\n');
		fl_buf_puts(&v, params.s);
		fl_classdefs_add_params(tr, key, msg, code, method, fl_xstrdup(fl_buf_cstr(&v)));
		fl_buf_free(&v);
		free(key);
	}
	fl_buf_free(&params);
}

/* `throw NAME(...)` or `throw this.NAME(...)` (self) at throw i, NAME at
 * name, '(' at open, of a factory of the tree given a text: a site with the
 * factory's message, each parameter given a literal replaced by its text.
 * True when it made one. */
bool js_pfac_call(ctx *c, size_t i, size_t name, size_t open, bool self, const char *verb)
{
	const fl_toks *t = &c->t;
	if (!c->tree || !c->tree->n || t->v[name].len > 120 || c->match[open] >= t->n)
		return false;
	char key[160];
	snprintf(key, sizeof key, "pfac:%.*s", (int)t->v[name].len, t->src + t->v[name].off);
	const char *tmpl, *code;
	int method;
	const char *params = fl_classdefs_params(c->tree, key);
	if (!params || !fl_classdefs_find(c->tree, key, &tmpl, &code, &method) || !tmpl ||
	    (method == 1) != self)
		return false;
	const char *nl = strchr(params, '\n');
	if (!nl)
		return false;
	char *cls = fl_xstrndup(params, (size_t)(nl - params));
	char *names[6] = {0}, *values[6] = {0};
	size_t np = 0;
	for (const char *p = nl + 1; *p && np < 6; np++) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		names[np] = fl_xstrndup(p, l);
		p += l + (e ? 1 : 0);
	}
	size_t st[6], en[6];
	size_t na = split_args(c, open, st, en, 6);
	bool any = false;
	for (size_t k = 0; k < np && k < na; k++) {
		if (!*names[k])
			continue;
		values[k] = js_ctor_arg_msg(c, st[k], en[k]);
		/* a text, not a key or a name: words */
		if (values[k] && strchr(values[k], ' '))
			any = true;
	}
	if (any) {
		char *m = fl_msg_subst(tmpl, (const char *const *)names, (const char *const *)values, np);
		char *idiom = fl_xasprintf("%s %s%.*s", verb, self ? "this." : "", (int)t->v[name].len,
					   t->src + t->v[name].off);
		c->used[name] = 1;
		js_emit(c, i, m, code, cls, FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
		free(idiom);
		free(m);
	}
	for (size_t k = 0; k < np; k++) {
		free(names[k]);
		free(values[k]);
	}
	free(cls);
	return any;
}

/* The text a reporter throws ("name\ttemplate": `${msg} ${line}:${col}
 * in ${file}`) with its parameter's hole filled by the caller's text m
 * (taken over). */
static char *in_template(const char *dc, char *m)
{
	const char *tab = strchr(dc, '\t'), *tx = tab + 1;
	size_t nl = (size_t)(tab - dc);
	fl_buf out = {0};
	bool put = false;
	for (const char *p = tx; *p;) {
		if (p[0] == '$' && p[1] == '{' && strncmp(p + 2, dc, nl) == 0 && p[2 + nl] == '}' && !put) {
			fl_buf_puts(&out, m);
			p += 3 + nl;
			put = true;
		} else {
			fl_buf_putc(&out, *p++);
		}
	}
	if (!put) {
		fl_buf_free(&out);
		return m;
	}
	free(m);
	char *r = fl_xstrdup(fl_buf_cstr(&out));
	fl_buf_free(&out);
	return r;
}

/* A call at i ('(' at i + 1) of a reporter of the tree: `this.NAME(...)`
 * of a method (self), `NAME(...)` of a function.  True when it is one. */
bool js_rule_reporter_call(ctx *c, size_t i, bool self)
{
	const fl_toks *t = &c->t;
	if (!c->tree || !c->tree->n || t->v[i].len > 120 || c->match[i + 1] >= t->n)
		return false;
	char key[160];
	snprintf(key, sizeof key, "rep:%.*s", (int)t->v[i].len, t->src + t->v[i].off);
	const char *pm, *dc;
	int method;
	if (!fl_classdefs_find(c->tree, key, &pm, &dc, &method) || !pm || (method == 1) != self ||
	    is_p(c, c->match[i + 1] + 1, "{"))
		return false;
	size_t st[6], en[6];
	size_t na = split_args(c, i + 1, st, en, 6), k = (size_t)atoi(pm);
	if (k >= na)
		return true;
	/* a thrower: its class, and the parameter it tests before */
	int cond = -1, neg = 0;
	char cls[128] = "", kind[8] = "";
	int nf = sscanf(pm, "%*d %d %d %127s %7s", &cond, &neg, cls, kind);
	if (nf < 3) {
		cond = -1;
		cls[0] = '\0';
	}
	/* a reporter of warnings hands its error on, not throws it */
	bool warn = nf == 4 && strcmp(kind, "warn") == 0;
	char *m = js_ctor_arg_msg(c, st[k], en[k]), *code = NULL;
	if (m && dc && strchr(dc, '\t'))
		m = in_template(dc, m);
	for (size_t a = 0; a < na && m; a++)
		if (a != k && is_p(c, st[a], "{") && c->match[st[a]] == en[a] - 1) {
			char *om = js_obj_message(c, st[a], &code);
			free(om);
		}
	if (m && strchr(m, ' ')) {
		char *idiom = fl_xasprintf("%s%s", self ? "this." : "", key + 4);
		size_t at = self ? i - 2 : i;
		if (cond >= 0 && (size_t)cond < na && en[cond] > st[cond]) {
			/* it throws when that argument holds (or does not) */
			char *a = fl_tok_span_text(t, st[cond], en[cond], 200);
			char *g = neg ? fl_guard_not(a, false) : fl_xstrdup(a);
			free(a);
			free(c->guard);
			c->guard = fl_guard_nest(js_guard_at(c, at, NULL), g, false);
		}
		js_emit(c, at, m, code, cls[0] ? cls : NULL, cls[0] && !warn ? FL_T_EXCEPTION : FL_T_CONSOLE,
			warn ? FL_S_WARNING : FL_S_ERROR, 0, idiom);
		free(c->guard);
		c->guard = NULL;
		free(idiom);
	}
	free(m);
	free(code);
	return true;
}
