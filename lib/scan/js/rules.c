/*
 * rules.c — the JavaScript / TypeScript error-site rules by idiom (js.h):
 * throw new X(..) / throw X(..) / throw "..", `const e = new X(..); e.code
 * = '..'; throw e`, an error handed on (next(err), return err),
 * Promise.reject / reject (new X(..)), res.status(N).send / .json, Node's
 * assert, koa's ctx.throw / ctx.assert, console.error / console.warn,
 * process.stderr.write, a project's logger, @hapi/hoek's assert, @hapi/boom,
 * depd's deprecate; and js_rules, the walk over a file's tokens that keeps
 * the frames and runs the rules at each identifier.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js.h"

/* An object literal at open handed on as an error (thrown, or a
 * promise's rejection): a site when it holds a message (js_obj_message's
 * keys), with its code. */
static void rule_error_object(ctx *c, size_t i, size_t open, const char *idiom)
{
	if (c->match[open] >= c->t.n)
		return;
	char *code = NULL;
	char *m = js_obj_message(c, open, &code);
	if (m && *m)
		js_emit(c, i, m, code && *code ? code : NULL, NULL, FL_T_EXCEPTION, FL_S_ERROR, 0,
			idiom);
	free(m);
	free(code);
}

static void rule_throw(ctx *c, size_t i)
{
	size_t k = i + 1, clsi;
	if (k >= c->t.n)
		return;
	size_t open = js_ctor_at(c, k, &clsi);
	if (open != NONE) {
		bool isnew = is_id(c, k, "new");
		/* a plain call: only class-like or known factories */
		if (!isnew) {
			const char *s = c->t.src + c->t.v[clsi].off;
			bool capital = *s >= 'A' && *s <= 'Z';
			if (!capital && !is_id(c, clsi, "createError")) {
				bool self = clsi == k + 2 && is_id(c, k, "this");
				if ((self || clsi == k) && js_pfac_call(c, i, clsi, open, self, "throw"))
					return;
				js_rule_throw_factory(c, i, clsi, open);
				return;
			}
			if (is_id(c, clsi, "createError"))
				c->used[clsi] = 1;
		}
		if (isnew)
			c->used[k] = 1;
		js_report_ctor(c, i, clsi, open, isnew ? "throw new" : "throw",
			       NULL);
		return;
	}
	if (is_kind(c, k, FL_TK_STRING)) {
		size_t e = js_stmt_end(c, k);
		char *m = js_msg_of(c, k, e);
		js_emit(c, i, m, NULL, "Error", FL_T_EXCEPTION, FL_S_ERROR, 0,
			"throw");
		free(m);
		return;
	}
	/* throw { type: 'Name', message: `variable ${name} is undefined` }:
	 * a plain object holding the text (less's errors) */
	if (is_p(c, k, "{"))
		rule_error_object(c, i, k, "throw");
}

static void rule_new_error(ctx *c, size_t i, const char *code);

/* `NAME = new X(...)` later thrown: report at `new` */
/* The '}' at k closes the block of an if or else (`if (x) { ... }`). */
static bool block_of_if(const ctx *c, size_t k)
{
	size_t o = c->match[k];
	if (o >= c->t.n || o == 0)
		return false;
	if (is_id(c, o - 1, "else"))
		return true;
	if (!is_p(c, o - 1, ")") || c->match[o - 1] >= c->t.n || c->match[o - 1] == 0)
		return false;
	return is_id(c, c->match[o - 1] - 1, "if");
}

static bool rule_new_var(ctx *c, size_t i)
{
	if (i < 2 || !is_p(c, i - 1, "=") || !is_kind(c, i - 2, FL_TK_IDENT))
		return false;
	if (i >= 3 && (is_p(c, i - 3, ".") || is_p(c, i - 3, "?.")))
		return false;
	size_t clsi;
	size_t open = js_ctor_at(c, i, &clsi);
	if (open == NONE || c->match[open] >= c->t.n)
		return false;
	const fl_tok *nm = &c->t.v[i - 2];
	const char *nms = c->t.src + nm->off;
	size_t nl = nm->len;
#define IS_NAME(j)                                                             \
	(is_kind(c, (j), FL_TK_IDENT) && c->t.v[(j)].len == nl &&              \
	 memcmp(c->t.src + c->t.v[(j)].off, nms, nl) == 0)
	char *code = NULL;
	bool thrown = false, handed = false;
	int depth = 0, out = 0;
	for (size_t k = c->match[open] + 1, n = 0; k < c->t.n && n < 400;
	     k++, n++) {
		if (is_p(c, k, "{") || is_p(c, k, "(") || is_p(c, k, "["))
			depth++;
		else if (is_p(c, k, "}") || is_p(c, k, ")") || is_p(c, k, "]"))
			if (--depth < 0) {
				/* out of an if's block to the statements after
				 * it (`if (bad) { err = new E(...); } ...
				 * return err;`), two at most, not out of a
				 * call or a function */
				if (!is_p(c, k, "}") || ++out > 2 || !block_of_if(c, k))
					break;
				depth = 0;
			}
		if (IS_NAME(k) && is_p(c, k + 1, ".") && is_id(c, k + 2, "code") &&
		    is_p(c, k + 3, "=") && is_kind(c, k + 4, FL_TK_STRING) &&
		    !code)
			code = fl_xstrdup(fl_tok_str(&c->t, &c->t.v[k + 4]));
		if (IS_NAME(k) && is_p(c, k + 1, ".") && is_id(c, k + 2, "messageTemplate") &&
		    is_p(c, k + 3, "=") && is_kind(c, k + 4, FL_TK_STRING) && !c->tpl)
			c->tpl = fl_tok_str(&c->t, &c->t.v[k + 4]);
		if (is_id(c, k, "throw") && IS_NAME(k + 1) &&
		    !is_p(c, k + 2, ".") && !is_p(c, k + 2, "(")) {
			thrown = true;
			break;
		}
		if (is_id(c, k, "reject") && is_p(c, k + 1, "(") && IS_NAME(k + 2) &&
		    is_p(c, k + 3, ")")) {
			thrown = true;
			break;
		}
		if (IS_NAME(k) && is_p(c, k + 1, "=") && k != i - 2)
			break; /* reassigned */
		/* handed on: f(.., NAME) / return NAME */
		if (IS_NAME(k) && (is_p(c, k - 1, "(") || is_p(c, k - 1, ",") ||
				   is_id(c, k - 1, "return")) &&
		    (is_p(c, k + 1, ")") || is_p(c, k + 1, ",") ||
		     is_p(c, k + 1, ";")))
			handed = true;
	}
#undef IS_NAME
	if (thrown)
		js_report_ctor(c, i, clsi, open, "throw new", code && *code ? code : NULL);
	else if (handed)
		rule_new_error(c, i, code && *code ? code : NULL);
	free(code);
	c->tpl = NULL;
	return true;
}

/* `new XError(..)` / `new XException(..)` / `new XWarning(..)` handed on
 * rather than thrown
 * (next(err), callback(err), emit('error', err), return err, abort(err)):
 * an error object with its message is an error site */
static void rule_new_error(ctx *c, size_t i, const char *code)
{
	size_t clsi;
	size_t open = js_ctor_at(c, i, &clsi);
	if (open == NONE || c->match[open] >= c->t.n)
		return;
	const char *n = c->t.src + c->t.v[clsi].off;
	size_t l = c->t.v[clsi].len;
	/* (or a warning object: webpack's `addWarning(new
	 * UnsupportedFeatureWarning(...))`, printed as its warnings) */
	bool err = (l >= 5 && memcmp(n + l - 5, "Error", 5) == 0) ||
		   (l >= 9 && memcmp(n + l - 9, "Exception", 9) == 0) ||
		   (l >= 7 && memcmp(n + l - 7, "Warning", 7) == 0);
	if (!err || !(n[0] >= 'A' && n[0] <= 'Z'))
		return;
	js_report_ctor(c, i, clsi, open, "new", code);
}

/* Promise.reject(x) / reject(x) */
static void rule_reject(ctx *c, size_t i, size_t open, const char *idiom)
{
	size_t s[2], e[2];
	size_t na = split_args(c, open, s, e, 2);
	if (na < 1)
		return;
	size_t clsi;
	size_t o2 = js_ctor_at(c, s[0], &clsi);
	if (o2 != NONE && is_id(c, s[0], "new")) {
		c->used[s[0]] = 1;
		js_report_ctor(c, i, clsi, o2, idiom, NULL);
		return;
	}
	if (o2 != NONE && is_id(c, clsi, "createError")) {
		c->used[clsi] = 1;
		js_report_ctor(c, i, clsi, o2, idiom, NULL);
		return;
	}
	/* reject(configurationError(`No configuration for ${p}`)): a factory
	 * of the tree given a text */
	if (o2 != NONE && clsi == s[0] && is_kind(c, s[0], FL_TK_IDENT) &&
	    js_pfac_call(c, i, clsi, o2, false, idiom)) {
		c->used[clsi] = 1;
		return;
	}
	if (is_kind(c, s[0], FL_TK_STRING) && strcmp(idiom, "Promise.reject") == 0) {
		char *m = js_msg_of(c, s[0], e[0]);
		js_emit(c, i, m, NULL, "Error", FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
		free(m);
		return;
	}
	/* reject({ type: 'File', message: `'${f}' wasn't found` }) */
	if (is_p(c, s[0], "{") && c->match[s[0]] == e[0] - 1)
		rule_error_object(c, i, s[0], idiom);
}

/* recv.status(N).send(..)/.json(..) */
static void rule_status(ctx *c, size_t i)
{
	/* i at receiver ident; i+1 '.', i+2 status|code, i+3 '(' */
	size_t o = i + 3;
	size_t cl = c->match[o];
	if (cl >= c->t.n)
		return;
	int st = js_status_of(c, o + 1, cl);
	if (st < 400 || st > 599)
		return;
	if (!is_p(c, cl + 1, ".") || !is_kind(c, cl + 2, FL_TK_IDENT) ||
	    !is_p(c, cl + 3, "("))
		return;
	size_t s[2], e[2];
	size_t na = split_args(c, cl + 3, s, e, 2);
	if (na < 1)
		return;
	char *msg = NULL, *code = NULL;
	if (is_id(c, cl + 2, "json") || is_id(c, cl + 2, "send")) {
		if (is_p(c, s[0], "{") && c->match[s[0]] == e[0] - 1)
			msg = js_obj_message(c, s[0], &code);
		else
			msg = js_msg_of(c, s[0], e[0]);
	} else if (is_id(c, cl + 2, "end")) {
		msg = js_msg_of(c, s[0], e[0]);
	} else {
		return;
	}
	js_emit(c, i, msg, code, NULL, FL_T_HTTP, fl_http_severity(st), st,
		"res.status().send");
	free(msg);
	free(code);
}

/* An assertion's guard: it fires when [b, e) is falsy */
static void set_failing_guard(ctx *c, size_t b, size_t e)
{
	char *cond = fl_tok_span_text(&c->t, b, e, 200);
	c->guard = fl_guard_not(cond, false);
	free(cond);
}

static void clear_guard(ctx *c)
{
	free(c->guard);
	c->guard = NULL;
}

/* Node's assert(value, message), assert.ok(value, message),
 * assert.strictEqual(actual, expected, message) ..., assert.fail(message):
 * an AssertionError with the message, when given.  (Its code,
 * ERR_ASSERTION, is every assertion's: as a record's errorCode it would
 * make all the assertions of a file one record.) */
static void rule_assert(ctx *c, size_t i)
{
	static const char *const two[] = {"ok", NULL};
	static const char *const three[] = {
		"equal", "notEqual", "strictEqual", "notStrictEqual", "deepEqual",
		"notDeepEqual", "deepStrictEqual", "notDeepStrictEqual", "match",
		"doesNotMatch", NULL};
	size_t open, want;
	if (is_p(c, i + 1, "(")) {
		open = i + 1;
		want = 2;
	} else {
		if (!is_p(c, i + 1, ".") || !is_kind(c, i + 2, FL_TK_IDENT) || !is_p(c, i + 3, "("))
			return;
		open = i + 3;
		want = 0;
		for (size_t k = 0; two[k]; k++)
			if (is_id(c, i + 2, two[k]))
				want = 2;
		for (size_t k = 0; three[k]; k++)
			if (is_id(c, i + 2, three[k]))
				want = 3;
		if (is_id(c, i + 2, "fail"))
			want = 1;
		if (!want)
			return;
	}
	size_t s[4], e[4];
	if (split_args(c, open, s, e, 4) != want)
		return;
	size_t m = want - 1;
	/* a message written here: a string or a template literal first */
	if (!is_kind(c, s[m], FL_TK_STRING))
		return;
	char *msg = js_msg_of(c, s[m], e[m]);
	if (msg) {
		/* when it fires: the value is falsy; (not)(strict)Equal: the
		 * two compare (un)equal */
		const char *op = is_id(c, i + 2, "strictEqual")      ? "!=="
				 : is_id(c, i + 2, "equal")          ? "!="
				 : is_id(c, i + 2, "notStrictEqual") ? "==="
				 : is_id(c, i + 2, "notEqual")       ? "=="
								     : NULL;
		if (want == 2) {
			set_failing_guard(c, s[0], e[0]);
		} else if (want == 3 && op) {
			char *a = fl_tok_span_text(&c->t, s[0], e[0], 100);
			char *b = fl_tok_span_text(&c->t, s[1], e[1], 100);
			c->guard = fl_xasprintf("%s %s %s", a, op, b);
			free(a);
			free(b);
		}
		js_emit(c, i, msg, NULL, "AssertionError", FL_T_EXCEPTION,
			FL_S_ERROR, 0, "assert");
		clear_guard(c);
	}
	free(msg);
}

/* koa's ctx.assert(value, status, message) (http-assert): an HTTP error */
static void rule_ctx_assert(ctx *c, size_t i)
{
	size_t s[4], e[4];
	size_t na = split_args(c, i + 3, s, e, 4);
	if (na < 3)
		return;
	int st = js_status_of(c, s[1], e[1]);
	char *msg = js_msg_of(c, s[2], e[2]);
	if (st >= 400 && st <= 599 && msg) {
		set_failing_guard(c, s[0], e[0]); /* it throws when falsy */
		js_emit(c, i, msg, NULL, NULL, FL_T_HTTP, fl_http_severity(st), st, "ctx.assert");
		clear_guard(c);
	}
	free(msg);
}

static void rule_ctx_throw(ctx *c, size_t i)
{
	size_t o = i + 3;
	size_t s[3], e[3];
	size_t na = split_args(c, o, s, e, 3);
	int st = 0;
	char *msg = NULL, *code = NULL;
	for (size_t k = 0; k < na; k++) {
		int v = js_status_of(c, s[k], e[k]);
		if (v && !st)
			st = v;
		else if (!msg && is_p(c, s[k], "{"))
			msg = js_obj_message(c, s[k], &code);
		else if (!msg)
			msg = js_msg_of(c, s[k], e[k]);
	}
	if (st >= 400 && st <= 599)
		js_emit(c, i, msg, code, NULL, FL_T_HTTP, fl_http_severity(st), st,
			"ctx.throw");
	free(msg);
	free(code);
}

/* Arguments [from, na) as printed joined by spaces (console.error('a:',
 * x), Hoek.assert(cond, 'a:', x)): a literal one as its text, another as
 * {name} of its last identifier, or {}.  NULL when none is literal. */
static char *join_args_msg(ctx *c, const size_t *s, const size_t *e, size_t from,
			   size_t na)
{
	fl_buf b = {0};
	bool lit = false;
	for (size_t k = from; k < na; k++) {
		char *m = js_msg_of(c, s[k], e[k]);
		size_t id = NONE;
		for (size_t q = s[k]; q < e[k]; q++)
			if (c->t.v[q].kind == FL_TK_IDENT)
				id = q;
		if (k > from)
			fl_buf_putc(&b, ' ');
		if (m) {
			lit = true;
			fl_buf_puts(&b, m);
		} else if (id != NONE) {
			fl_buf_putc(&b, '{');
			fl_buf_put(&b, c->t.src + c->t.v[id].off, c->t.v[id].len);
			fl_buf_putc(&b, '}');
		} else {
			fl_buf_puts(&b, "{}");
		}
		free(m);
	}
	char *out = lit ? fl_xstrdup(fl_buf_cstr(&b)) : NULL;
	fl_buf_free(&b);
	return out;
}

#define MAX_JOINED 16

/* console.error(...), log.error(...): at i the receiver, at i + 3 the
 * call's '(' */
static void rule_console(ctx *c, size_t i, bool warn, const char *idiom)
{
	size_t s[MAX_JOINED + 1], e[MAX_JOINED + 1];
	/* one more than is joined: more arguments than that are not */
	size_t na = split_args(c, i + 3, s, e, MAX_JOINED + 1);
	char *msg = NULL;
	if (na > 0)
		msg = na == 1 ? js_ctor_arg_msg(c, s[0], e[0]) : js_msg_of(c, s[0], e[0]);
	if (msg && na > 1 && !strchr(msg, '%') && na <= MAX_JOINED) {
		/* console.error('a:', x) prints its arguments joined by spaces */
		free(msg);
		msg = join_args_msg(c, s, e, 0, na);
	}
	for (size_t k = 1; k < na && !msg; k++)
		msg = js_msg_of(c, s[k], e[k]);
	js_emit(c, i, msg, NULL, NULL, FL_T_CONSOLE,
		warn ? FL_S_WARNING : FL_S_ERROR, 0, idiom);
	free(msg);
}

static bool has_text(const char *m);

/* `complain(`Invalid option value ${v} for rule "${ruleName}"`)` at i: a
 * call of a function (or a callback parameter) named for reporting
 * (complain, fail, die, bail, fatal, panic, error, warn) that no rule of
 * the tree knows, given a text of words: an error (a warning for warn)
 * the program reports through it. */
static void rule_named_report(ctx *c, size_t i)
{
	static const char *const names[] = {"complain", "fail", "die", "bail", "fatal",
					    "panic", "error", "warn", NULL};
	bool named = false;
	for (const char *const *n = names; *n && !named; n++)
		named = is_id(c, i, *n);
	if (!named || (i > 0 && (is_p(c, i - 1, ".") || is_id(c, i - 1, "function") || is_id(c, i - 1, "new"))))
		return;
	size_t s[3], e[3];
	size_t na = split_args(c, i + 1, s, e, 3);
	if (na < 1)
		return;
	/* a text, or one of the tree's texts by name (`warn(reporter
	 * .lang('manifestLicenseNone'))`) */
	char *msg = is_kind(c, s[0], FL_TK_STRING) ? js_msg_of(c, s[0], e[0]) : js_i18n_msg(c, s[0], e[0]);
	if (msg && strchr(msg, ' ') && has_text(msg)) {
		bool warn = is_id(c, i, "warn");
		js_emit(c, i, msg, NULL, NULL, FL_T_CONSOLE, warn ? FL_S_WARNING : FL_S_ERROR, 0,
			warn ? "warn" : "reporting call");
	}
	free(msg);
}

/* a receiver named as a command line's or a terminal's: cli, program,
 * ui, shell, output, reporter, spinner, prompt (or ending so: myCli) --
 * not any object's error method (`emitter.error(...)`) */
static bool cli_receiver(const ctx *c, size_t i)
{
	static const char *const w[] = {"cli", "program", "ui", "term", "terminal", "shell", "output",
					"reporter", "spinner", "prompt", NULL};
	const char *s = c->t.src + c->t.v[i].off;
	size_t n = c->t.v[i].len;
	for (const char *const *p = w; *p; p++) {
		size_t l = strlen(*p);
		if (n >= l && strncasecmp(s + n - l, *p, l) == 0 &&
		    (n == l || (s[n - l] >= 'A' && s[n - l] <= 'Z') || s[n - l - 1] == '_'))
			return true;
	}
	return false;
}

/* The receiver at i is one name, or one of this object's
 * (`this.reporter.warn(...)`): not a member of another value's. */
static bool own_receiver(const ctx *c, size_t i)
{
	if (i == 0 || !is_p(c, i - 1, "."))
		return true;
	return i >= 2 && is_id(c, i - 2, "this") && !(i >= 3 && is_p(c, i - 3, "."));
}

/* `cli.error("Can't open " + fp)` at i (the receiver, one name said to
 * be a command line's or a terminal's, cli_receiver): an error whose text
 * is the first argument, starting with a literal of words. */
static void rule_error_method(ctx *c, size_t i)
{
	size_t s[3], e[3];
	size_t na = split_args(c, i + 3, s, e, 3);
	if (na < 1)
		return;
	/* a text, or one of the tree's texts by name */
	char *msg = is_kind(c, s[0], FL_TK_STRING) ? js_msg_of(c, s[0], e[0]) : js_i18n_msg(c, s[0], e[0]);
	char idiom[64];
	snprintf(idiom, sizeof idiom, "%.*s.error", (int)(c->t.v[i].len > 40 ? 40 : c->t.v[i].len),
		 c->t.src + c->t.v[i].off);
	if (msg && strchr(msg, ' ') && has_text(msg))
		js_emit(c, i, msg, NULL, NULL, FL_T_CONSOLE, FL_S_ERROR, 0, idiom);
	free(msg);
}

/* `result.warn(`Expected "${a}"`, { node })` at i (the receiver, one
 * name: any object's warn method): a warning whose text is the first
 * argument, a literal with words (a value passed on is the caller's). */
static void rule_warn_method(ctx *c, size_t i)
{
	size_t s[3], e[3];
	size_t na = split_args(c, i + 3, s, e, 3);
	if (na < 1 || na > 2)
		return;
	/* a text, or one of the tree's texts by name (reporter.lang(...)) */
	char *msg = is_kind(c, s[0], FL_TK_STRING) ? js_msg_of(c, s[0], e[0]) : js_i18n_msg(c, s[0], e[0]);
	if (msg && strchr(msg, ' ')) {
		char idiom[64];
		snprintf(idiom, sizeof idiom, "%.*s.warn", (int)(c->t.v[i].len < 40 ? c->t.v[i].len : 40),
			 c->t.src + c->t.v[i].off);
		js_emit(c, i, msg, NULL, NULL, FL_T_CONSOLE, FL_S_WARNING, 0, idiom);
	}
	free(msg);
}

/* `errors.push(filename + " does not exist")`, `warnings.push(`...`)`: a
 * text pushed onto a list whose name says errors or warnings, which the
 * program prints (Babel's CLI: "babel:" then each error) */
static void rule_push_message(ctx *c, size_t i)
{
	static const char *const warns[] = {"warn", NULL}, *const errs[] = {"error", "errs", "problem", NULL};
	bool warn = js_name_has_ci(c, i, warns); /* warnings, this.warns */
	if (!warn && !js_name_has_ci(c, i, errs))
		return;
	size_t a[2], b[2];
	if (split_args(c, i + 3, a, b, 2) != 1 || is_p(c, a[0], "{") || is_p(c, a[0], "["))
		return;
	char *msg = js_msg_of(c, a[0], b[0]);
	if (msg && strchr(msg, ' '))
		js_emit(c, i, msg, NULL, NULL, FL_T_CONSOLE, warn ? FL_S_WARNING : FL_S_ERROR, 0,
			warn ? "warnings.push" : "errors.push");
	free(msg);
}

/* a letter outside the {placeholders} (and ${holes}) of m: a write of a
 * value alone (`${err}\n`) has no text of its own */
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
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (unsigned char)*p >= 0x80)
			return true;
	}
	return false;
}

/* process.stderr.write('error: ...\n'): at i `process`, at i + 5 the
 * call's '('.  What the program prints on its standard error, as
 * console.error; a warning when the text says so. */
static void rule_stderr_write(ctx *c, size_t i)
{
	size_t s[2], e[2];
	size_t na = split_args(c, i + 5, s, e, 2);
	if (na < 1)
		return;
	char *msg = js_ctor_arg_msg(c, s[0], e[0]);
	if (msg && has_text(msg)) {
		js_emit(c, i, msg, NULL, NULL, FL_T_CONSOLE, fl_print_severity(msg), 0,
			"process.stderr.write");
	}
	free(msg);
}

/* a logger by its name: log, logger, npmlog, appLogger... */
static bool logger_name(const fl_toks *t, size_t i)
{
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	if (n < 3 || n > 40)
		return false;
	if ((n >= 3 && memcmp(s + n - 3, "log", 3) == 0) || (n >= 3 && memcmp(s + n - 3, "Log", 3) == 0))
		return true;
	return (n >= 6 && (memcmp(s + n - 6, "logger", 6) == 0 || memcmp(s + n - 6, "Logger", 6) == 0));
}

/* `LOGGER.error(` at i (.warn, .fatal, .warning), LOGGER a logger by its
 * name */
static bool logger_call(const ctx *c, size_t i)
{
	return c->t.v[i].kind == FL_TK_IDENT && logger_name(&c->t, i) && is_p(c, i + 1, ".") &&
	       is_p(c, i + 3, "(") &&
	       (is_id(c, i + 2, "error") || is_id(c, i + 2, "warn") || is_id(c, i + 2, "fatal") ||
		is_id(c, i + 2, "warning"));
}

static bool logger_warns(const ctx *c, size_t i)
{
	return is_id(c, i + 2, "warn") || is_id(c, i + 2, "warning");
}

/* @hapi/hoek's assert(condition, ...args): when the condition is falsy it
 * throws an AssertError whose message is the arguments joined by spaces
 * (Hoek.assert(x, 'scheme must be a function:', name)).  open is the '('. */
static void rule_hoek_assert(ctx *c, size_t i, size_t open, const char *idiom)
{
	size_t s[MAX_JOINED + 1], e[MAX_JOINED + 1];
	size_t na = split_args(c, open, s, e, MAX_JOINED + 1);
	if (na < 2 || na > MAX_JOINED)
		return;
	char *msg = join_args_msg(c, s, e, 1, na);
	if (msg) {
		set_failing_guard(c, s[0], e[0]);
		js_emit(c, i, msg, NULL, "AssertError", FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
		clear_guard(c);
	}
	free(msg);
}

/* @hapi/boom's helpers: Boom.notFound('message') makes the HTTP error of
 * its status (the helper's name says which) */
static const struct {
	const char *name;
	int status;
} boom_helpers[] = {
	{"badRequest", 400}, {"unauthorized", 401}, {"paymentRequired", 402},
	{"forbidden", 403}, {"notFound", 404}, {"methodNotAllowed", 405},
	{"notAcceptable", 406}, {"proxyAuthRequired", 407},
	{"clientTimeout", 408}, {"conflict", 409}, {"resourceGone", 410},
	{"lengthRequired", 411}, {"preconditionFailed", 412},
	{"entityTooLarge", 413}, {"uriTooLong", 414},
	{"unsupportedMediaType", 415}, {"rangeNotSatisfiable", 416},
	{"expectationFailed", 417}, {"teapot", 418}, {"badData", 422},
	{"locked", 423}, {"failedDependency", 424}, {"tooEarly", 425},
	{"preconditionRequired", 428}, {"tooManyRequests", 429},
	{"illegal", 451}, {"internal", 500}, {"badImplementation", 500},
	{"notImplemented", 501}, {"badGateway", 502},
	{"serverUnavailable", 503}, {"gatewayTimeout", 504},
};

/* Boom.x('message', ...) at i (i+1 '.', i+2 the helper, i+3 '(') */
static void rule_boom(ctx *c, size_t i)
{
	int st = 0;
	for (size_t k = 0; k < sizeof boom_helpers / sizeof boom_helpers[0]; k++)
		if (is_id(c, i + 2, boom_helpers[k].name))
			st = boom_helpers[k].status;
	if (!st)
		return;
	size_t s[4], e[4];
	if (split_args(c, i + 3, s, e, 4) < 1)
		return;
	char *msg = js_msg_of(c, s[0], e[0]);
	if (msg) {
		char idiom[64];
		snprintf(idiom, sizeof idiom, "Boom.%.*s", (int)c->t.v[i + 2].len,
			 c->t.src + c->t.v[i + 2].off);
		js_emit(c, i, msg, NULL, "Boom", FL_T_HTTP, fl_http_severity(st), st, idiom);
	}
	free(msg);
}

/* ---- message tables -----------------------------------------------------------
 * `const StandardErrors = { MissingSemicolon: "Missing semicolon.",
 * DeclarationMissingInitializer: ({ kind }) => `Missing initializer in
 * ${kind} declaration.`, ... }` (Babel's parser, Vue's compiler, a CLI's
 * errorMessages): an object whose name says errors or warnings, each
 * property a message, raised wherever its key is used.  Each is a site at
 * its key, of the idiom "error message table" (a definition: it ranks
 * after a line that raises the text itself); a key written as a code
 * (E_CONFIG, ERR_X, E042) is its code. */

/* a name that says it holds errors or warnings: StandardErrors,
 * errorMessages, WARNINGS, ParseDiagnostics */
static bool table_name(const ctx *c, size_t i)
{
	static const char *const w[] = {"error", "warning", "diagnostic", NULL};
	return js_name_has_ci(c, i, w);
}

/* a key written as a code: E_CONFIG, ERR_NO_FILE, E042 */
static bool code_key(const char *s, size_t n)
{
	if (n < 3 || !(s[0] >= 'A' && s[0] <= 'Z'))
		return false;
	bool under = false, digit = false;
	for (size_t k = 0; k < n; k++) {
		char ch = s[k];
		if (ch == '_')
			under = true;
		else if (ch >= '0' && ch <= '9')
			digit = true;
		else if (!(ch >= 'A' && ch <= 'Z'))
			return false;
	}
	return under || (digit && s[0] == 'E');
}

#define TABLE_MAX_TOKS 60000

/* a table of a program's texts by name: messages, MESSAGES, enMessages */
static bool text_table_name(const ctx *c, size_t i)
{
	static const char *const w[] = {"message", NULL};
	return js_name_has_ci(c, i, w);
}

static size_t table_at(const ctx *c, size_t i, size_t *keys, size_t *vb, size_t *ve, bool *warn,
		       bool (*named)(const ctx *, size_t));

size_t js_msg_table(const ctx *c, size_t i, size_t *keys, size_t *vb, size_t *ve, bool *warn)
{
	return table_at(c, i, keys, vb, ve, warn, table_name);
}

size_t js_text_table(const ctx *c, size_t i, size_t *keys, size_t *vb, size_t *ve)
{
	bool warn;
	return table_at(c, i, keys, vb, ve, &warn, text_table_name);
}

static size_t table_at(const ctx *c, size_t i, size_t *keys, size_t *vb, size_t *ve, bool *warn,
		       bool (*named)(const ctx *, size_t))
{
	const fl_toks *t = &c->t;
	size_t nm = i + 1, v = i + 2;
	if (!is_kind(c, nm, FL_TK_IDENT) || !named(c, nm))
		return 0;
	if (is_p(c, v, ":")) /* a type: `errorMessages: Record<Codes, string> =` */
		for (size_t lim = v + 24; v < lim && v < t->n && !is_p(c, v, "="); v++)
			;
	if (!is_p(c, v, "="))
		return 0;
	v++;
	if (is_id(c, v, "Object") && is_p(c, v + 1, ".") && is_id(c, v + 2, "freeze") && is_p(c, v + 3, "("))
		v += 4;
	if (!is_p(c, v, "{") || c->match[v] >= t->n || c->match[v] - v > TABLE_MAX_TOKS)
		return 0;
	static const char *const warns[] = {"warning", NULL};
	*warn = js_name_has_ci(c, nm, warns);
	size_t close = c->match[v];
	size_t *ps = fl_xmalloc(2 * JS_TABLE_MAX * sizeof *ps), *pe = ps + JS_TABLE_MAX;
	size_t np = fl_tok_split(t, c->match, v + 1, close, ps, pe, JS_TABLE_MAX);
	size_t nk = 0;
	for (size_t p = 0; p < np; p++) {
		size_t k = ps[p], val;
		if (is_p(c, k, "[") && c->match[k] < pe[p]) /* [Codes.X]: */
			val = c->match[k] + 1;
		else if (is_kind(c, k, FL_TK_IDENT) || is_kind(c, k, FL_TK_STRING))
			val = k + 1;
		else
			continue;
		if (!is_p(c, val, ":") || val + 1 >= pe[p])
			continue;
		val++;
		/* an arrow's text: ({ kind }) => `...`, x => `...` */
		for (size_t q = val; q < pe[p]; q++) {
			if (is_p(c, q, "(") && c->match[q] < pe[p]) {
				q = c->match[q];
				continue;
			}
			if (is_p(c, q, "=>")) {
				val = q + 1;
				break;
			}
		}
		if (!is_kind(c, val, FL_TK_STRING))
			continue;
		keys[nk] = k;
		ve[nk] = pe[p];
		vb[nk++] = val;
	}
	free(ps);
	/* a table of texts: two at least, and most of its strings sentences
	 * (not a map of names, `{ NOT_FOUND: 'not_found' }`) */
	size_t texts = 0;
	for (size_t q = 0; q < nk; q++)
		texts += memchr(fl_tok_str(t, &t->v[vb[q]]), ' ', t->v[vb[q]].slen) != NULL;
	return texts < 2 || texts * 2 < nk ? 0 : nk;
}

bool js_code_key(const char *s, size_t n)
{
	return code_key(s, n);
}

static void rule_message_table(ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	size_t *keys = fl_xmalloc(3 * JS_TABLE_MAX * sizeof *keys), *vb = keys + JS_TABLE_MAX,
	       *ve = vb + JS_TABLE_MAX;
	bool warn;
	size_t nk = js_msg_table(c, i, keys, vb, ve, &warn);
	for (size_t q = 0; q < nk; q++) {
		size_t k = keys[q];
		char *msg = js_msg_of(c, vb[q], ve[q]);
		if (!msg || !strchr(msg, ' ')) {
			free(msg);
			continue;
		}
		char *code = NULL;
		if (is_kind(c, k, FL_TK_IDENT) && code_key(t->src + t->v[k].off, t->v[k].len))
			code = fl_tok_dup(t, k);
		else if (is_kind(c, k, FL_TK_STRING) && code_key(fl_tok_str(t, &t->v[k]), t->v[k].slen))
			code = fl_xstrndup(fl_tok_str(t, &t->v[k]), t->v[k].slen);
		js_emit(c, k, msg, code, NULL, FL_T_EXCEPTION, FL_S_ERROR, 0, "error message table");
		free(code);
		free(msg);
	}
	free(keys);
}

/* A code of a message table of the tree (js_collect's "msgkey:" entries)
 * used where a problem is reported: the first argument of a call whose
 * name says so (jshint's `warningAt("W033", line, ch)`, `error("E001", t,
 * ...)`, `quit("E041", ...)`), or an object's `code:` handed to a call
 * (`this.trigger("error", { code: "E017", ... })`).  A site of the
 * table's text at the code, its code the key. */
static bool rule_table_code(ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	size_t lit;
	if (is_p(c, i + 1, "(") && is_kind(c, i + 2, FL_TK_STRING)) {
		static const char *const says[] = {"warn", "error", "err", "quit", "fail", "report",
						   "raise", "abort", "die", NULL};
		if (!js_name_has_ci(c, i, says) || is_id(c, i, "function"))
			return false;
		lit = i + 2;
	} else if (is_id(c, i, "code") && is_p(c, i + 1, ":") && is_kind(c, i + 2, FL_TK_STRING) &&
		   i > 0 && (is_p(c, i - 1, "{") || is_p(c, i - 1, ","))) {
		lit = i + 2;
	} else {
		return false;
	}
	const char *ks = fl_tok_str(t, &t->v[lit]);
	size_t kl = t->v[lit].slen;
	if (kl < 2 || kl > 40 || !(ks[0] >= 'A' && ks[0] <= 'Z'))
		return false;
	char key[64];
	const char *msg, *code;
	int warn;
	snprintf(key, sizeof key, "msgkey:%.*s", (int)kl, ks);
	if (!fl_classdefs_find(c->tree, key, &msg, &code, &warn) || !msg)
		return false;
	/* the idiom: the call that reports the code (`warningAt`,
	 * `linter.warn`), or the object's key */
	char idiom[96];
	bool call = is_p(c, i + 1, "(");
	if (call && i >= 2 && is_p(c, i - 1, ".") && is_kind(c, i - 2, FL_TK_IDENT))
		snprintf(idiom, sizeof idiom, "%.*s.%.*s", (int)(t->v[i - 2].len > 40 ? 40 : t->v[i - 2].len),
			 t->src + t->v[i - 2].off, (int)(t->v[i].len > 40 ? 40 : t->v[i].len), t->src + t->v[i].off);
	else if (call)
		snprintf(idiom, sizeof idiom, "%.*s", (int)(t->v[i].len > 80 ? 80 : t->v[i].len),
			 t->src + t->v[i].off);
	else {
		/* the call the object is given to: `this.trigger("error", {
		 * code: ... })` */
		size_t q = i, callee = NONE;
		for (int steps = 0; q > 0 && steps < 512; steps++) {
			q--;
			if ((is_p(c, q, ")") || is_p(c, q, "]") || is_p(c, q, "}")) && c->match[q] < q) {
				q = c->match[q];
				continue;
			}
			if (is_p(c, q, "(")) {
				if (q > 0 && is_kind(c, q - 1, FL_TK_IDENT))
					callee = q - 1;
				break;
			}
			if (is_p(c, q, ";"))
				break;
		}
		if (callee != NONE)
			snprintf(idiom, sizeof idiom, "%.*s", (int)(t->v[callee].len > 80 ? 80 : t->v[callee].len),
				 t->src + t->v[callee].off);
		else
			snprintf(idiom, sizeof idiom, "code:");
	}
	js_emit(c, lit, msg, code, NULL, FL_T_VALIDATION, warn ? FL_S_WARNING : FL_S_ERROR, 0, idiom);
	return true;
}

void js_rules(ctx *c)
{
	const fl_toks *t = &c->t;
	for (size_t i = 0; i < t->n; i++) {
		const fl_tok *k = &t->v[i];
		if (k->kind == FL_TK_PUNCT && k->len == 1) {
			char ch = t->src[k->off];
			if (ch == '{')
				js_push_frame(c, i);
			else if (ch == '}' && c->nfr)
				c->nfr--;
			continue;
		}
		if (k->kind != FL_TK_IDENT || c->used[i])
			continue;
		if (*c->alt) {
			free(*c->alt);
			*c->alt = NULL;
		}
		bool member = i > 0 && (is_p(c, i - 1, ".") || is_p(c, i - 1, "?."));
		if (member) {
			/* linter.warn("W008", ...): a code of the tree's tables */
			if (is_p(c, i + 1, "(") && c->tree && c->tree->n && rule_table_code(c, i))
				continue;
			if (is_p(c, i + 1, "(") && is_id(c, i - 2, "this"))
				js_rule_reporter_call(c, i, true);
			else if (is_p(c, i + 1, ".") && is_id(c, i + 2, "push") && is_p(c, i + 3, "("))
				rule_push_message(c, i); /* this.warnings.push(...) */
			else if (logger_call(c, i))
				/* a logger held by an object: context.logger
				 * .error(...), this.log.warn(...) */
				rule_console(c, i, logger_warns(c, i),
					     logger_warns(c, i) ? "logger.warn" : "logger.error");
			else if (own_receiver(c, i) && is_p(c, i + 1, ".") && is_id(c, i + 2, "warn") &&
				 is_p(c, i + 3, "("))
				rule_warn_method(c, i); /* this.reporter.warn(...) */
			else if (own_receiver(c, i) && is_p(c, i + 1, ".") && is_id(c, i + 2, "error") &&
				 is_p(c, i + 3, "(") && cli_receiver(c, i))
				rule_error_method(c, i); /* this.reporter.error(...) */
			continue;
		}
		if ((k->len == 3 || k->len == 5) &&
		    (fl_tok_is(t, i, "const") || fl_tok_is(t, i, "var") || fl_tok_is(t, i, "let")) &&
		    (is_p(c, i + 2, "=") || is_p(c, i + 2, ":"))) {
			rule_message_table(c, i);
		}
		if (c->tree && c->tree->n && rule_table_code(c, i)) {
			/* warningAt("W033", ...): a code of the tree's tables */
		} else if (fl_tok_is(t, i, "throw")) {
			rule_throw(c, i);
		} else if (fl_tok_is(t, i, "return") && is_kind(c, i + 1, FL_TK_IDENT) &&
			   is_p(c, i + 2, "(") && !fl_tok_is(t, i + 1, "new")) {
			/* `return syntaxError(`JSON5: invalid character ...`)`: an
			 * error of a factory of the tree made of a text and
			 * returned, to be thrown by the caller (json5's
			 * invalidChar) */
			if (js_pfac_call(c, i, i + 1, i + 2, false, "return"))
				c->used[i + 1] = 1;
		} else if (fl_tok_is(t, i, "new")) {
			if (!rule_new_var(c, i))
				rule_new_error(c, i, NULL);
		} else if (fl_tok_is(t, i, "Promise") && is_p(c, i + 1, ".") &&
			   is_id(c, i + 2, "reject") && is_p(c, i + 3, "(")) {
			rule_reject(c, i, i + 3, "Promise.reject");
		} else if (fl_tok_is(t, i, "reject") && is_p(c, i + 1, "(")) {
			rule_reject(c, i, i + 1, "reject");
		} else if (fl_tok_is(t, i, "console") && is_p(c, i + 1, ".") &&
			   is_p(c, i + 3, "(") &&
			   (is_id(c, i + 2, "error") || is_id(c, i + 2, "warn"))) {
			rule_console(c, i, is_id(c, i + 2, "warn"),
				     is_id(c, i + 2, "warn") ? "console.warn" : "console.error");
		} else if (fl_tok_is(t, i, "process") && is_p(c, i + 1, ".") &&
			   is_id(c, i + 2, "stderr") && is_p(c, i + 3, ".") &&
			   is_id(c, i + 4, "write") && is_p(c, i + 5, "(")) {
			rule_stderr_write(c, i);
		} else if (logger_call(c, i)) {
			/* a project's logger: log.error('prefix', msg) */
			bool warn = logger_warns(c, i);
			rule_console(c, i, warn, warn ? "logger.warn" : "logger.error");
		} else if (is_id(c, i, "report") && is_p(c, i + 1, "(") && is_p(c, i + 2, "{") &&
			   !(i > 0 && (is_p(c, i - 1, ".") || is_id(c, i - 1, "function"))) &&
			   js_lint_report(c, i, i + 1)) {
			/* stylelint's report({ message: messages.rejected }) */
		} else if (t->v[i].kind == FL_TK_IDENT && is_p(c, i + 1, ".") && is_id(c, i + 2, "report") &&
			   is_p(c, i + 3, "(") && is_p(c, i + 4, "{") && !(i > 0 && is_p(c, i - 1, ".")) &&
			   js_lint_report(c, i, i + 3)) {
			/* ESLint's context.report({ messageId: "x" }) */
		} else if (t->v[i].kind == FL_TK_IDENT && is_p(c, i + 1, ".") && is_id(c, i + 2, "warn") &&
			   is_p(c, i + 3, "(") && own_receiver(c, i)) {
			/* postcss's result.warn(text, { node }), a bundler
			 * plugin's this.warn(text): a warning of the program */
			rule_warn_method(c, i);
		} else if (t->v[i].kind == FL_TK_IDENT && is_p(c, i + 1, ".") && is_id(c, i + 2, "error") &&
			   is_p(c, i + 3, "(") && own_receiver(c, i) && cli_receiver(c, i)) {
			/* the cli package's cli.error("Can't open " + fp) */
			rule_error_method(c, i);
		} else if (is_p(c, i + 1, ".") &&
			   (is_id(c, i + 2, "status") || is_id(c, i + 2, "code")) &&
			   is_p(c, i + 3, "(")) {
			rule_status(c, i);
		} else if (is_p(c, i + 1, ".") && is_id(c, i + 2, "push") && is_p(c, i + 3, "(")) {
			rule_push_message(c, i);
		} else if (fl_tok_is(t, i, "ctx") && is_p(c, i + 1, ".") &&
			   is_id(c, i + 2, "throw") && is_p(c, i + 3, "(")) {
			rule_ctx_throw(c, i);
		} else if (fl_tok_is(t, i, "ctx") && is_p(c, i + 1, ".") &&
			   is_id(c, i + 2, "assert") && is_p(c, i + 3, "(")) {
			rule_ctx_assert(c, i);
		} else if ((fl_tok_is(t, i, "Hoek") || fl_tok_is(t, i, "hoek")) &&
			   is_p(c, i + 1, ".") && is_id(c, i + 2, "assert") &&
			   is_p(c, i + 3, "(")) {
			rule_hoek_assert(c, i, i + 3, "Hoek.assert");
		} else if (fl_tok_is(t, i, "Assert") && is_p(c, i + 1, "(") && c->hoek &&
			   !(i > 0 && (is_id(c, i - 1, "function") || is_p(c, i - 1, "=") ||
				       is_p(c, i - 1, ".")))) {
			/* const Assert = require('@hapi/hoek/assert') */
			rule_hoek_assert(c, i, i + 1, "Assert");
		} else if ((fl_tok_is(t, i, "Boom") || fl_tok_is(t, i, "boom")) &&
			   is_p(c, i + 1, ".") && is_kind(c, i + 2, FL_TK_IDENT) &&
			   is_p(c, i + 3, "(")) {
			rule_boom(c, i);
		} else if (fl_tok_is(t, i, "assert") &&
			   !(i > 0 && (is_id(c, i - 1, "function") || is_p(c, i - 1, "=")))) {
			rule_assert(c, i);
		} else if (fl_tok_is(t, i, "deprecate") && is_p(c, i + 1, "(") &&
			   !(i > 0 && (is_id(c, i - 1, "function") ||
				       is_p(c, i - 1, "=")))) {
			/* depd: deprecate('message') prints a warning */
			size_t s[2], e[2];
			if (split_args(c, i + 1, s, e, 2) == 1 &&
			    is_kind(c, s[0], FL_TK_STRING)) {
				char *m = js_msg_of(c, s[0], e[0]);
				js_emit(c, i, m, NULL, NULL, FL_T_CONSOLE,
					FL_S_WARNING, 0, "deprecate");
				free(m);
			}
		} else if (fl_tok_is(t, i, "createError") && is_p(c, i + 1, "(")) {
			js_report_ctor(c, i, i, i + 1, "createError", NULL);
		} else if (is_p(c, i + 1, "(")) {
			if (!js_rule_reporter_call(c, i, false) && !js_rule_factory_call(c, i) &&
			    !js_rule_log_factory_call(c, i) && !js_lint_helper_call(c, i))
				rule_named_report(c, i);
		}
	}
}
