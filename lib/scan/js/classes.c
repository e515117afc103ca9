/*
 * classes.c — JavaScript / TypeScript error classes (js.h): a class with a
 * default message or code (undici's `this.message = message || '...'`,
 * super('...'), a message naming the constructor's parameters), a site of
 * its own and the message of a `new X()` that gives none; the message
 * templates of a messages/ folder (ESLint's `messageTemplate`); and the
 * report of an error's construction, js_report_ctor: new X(...),
 * createError (@fastify/error's, http-errors'), NestJS's and Hono's HTTP
 * exceptions, Node's ERR_* classes, `Object.assign(new X(..), { code })`.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "js.h"

/* ---- error classes with a default message -----------------------------------
 * `class ConnectTimeoutError extends UndiciError { constructor (message) {
 * super(message); this.message = message || 'Connect Timeout Error';
 * this.code = 'UND_ERR_CONNECT_TIMEOUT' } }` (undici), or `super('...')`:
 * the message and code live in the class.  The class is a site of its own,
 * and the tree (collect(): the classes of every file) gives them to a
 * `new ConnectTimeoutError()` that has no message of its own. */

/* The parameter names of `constructor(a, b = 1, ...rest, public c: T)`
 * (open: its '('), one per line; a destructured one is an empty line. */
static char *ctor_params(const ctx *c, size_t open)
{
	size_t st[8], en[8];
	size_t na = split_args(c, open, st, en, 8);
	fl_buf b = {0};
	for (size_t k = 0; k < na; k++) {
		size_t q = st[k];
		while (q < en[k] && (is_id(c, q, "public") || is_id(c, q, "private") ||
				     is_id(c, q, "protected") || is_id(c, q, "readonly") ||
				     is_p(c, q, "...")))
			q++;
		if (k)
			fl_buf_putc(&b, '\n');
		if (q < en[k] && is_kind(c, q, FL_TK_IDENT))
			fl_buf_put(&b, c->t.src + c->t.v[q].off, c->t.v[q].len);
	}
	fl_buf_cstr(&b);
	return b.s;
}

/* Whether msg has a hole ${name} for a name of params (one per line). */
bool js_names_param(const char *msg, const char *params)
{
	for (const char *p = params; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		for (const char *h = strstr(msg, "${"); n && h; h = strstr(h + 2, "${"))
			if (strncmp(h + 2, p, n) == 0 && h[2 + n] == '}')
				return true;
		p += n + (nl ? 1 : 0);
	}
	return false;
}

/* The message of a default: `message || 'text'`, `msg ?? 'text'`, or a
 * literal; [b, e) */
static char *default_msg(const ctx *c, size_t b, size_t e)
{
	for (size_t k = e; k-- > b;)
		if (is_p(c, k, "||") || is_p(c, k, "??")) {
			b = k + 1;
			break;
		}
	/* a literal or template, possibly concatenated ('text ' + x) */
	return e > b && is_kind(c, b, FL_TK_STRING) ? js_msg_of(c, b, e) : NULL;
}

/* The end of the value that starts at token v, before `end`: at a `;`, or
 * at a line's end unless the value goes on over it (a `+` ending the line
 * or starting the next; with defaults, `||` and `??` too: `message ||
 * 'text'`); a bracket's contents are passed over whole. */
static size_t value_end(const ctx *c, size_t v, size_t end, bool defaults)
{
	const fl_toks *t = &c->t;
	size_t e = v;
	while (e < end && !is_p(c, e, ";") &&
	       !(e > v && (t->v[e].flags & FL_TF_NL_BEFORE) && !is_p(c, e, "+") && !is_p(c, e - 1, "+") &&
		 !(defaults && (is_p(c, e, "||") || is_p(c, e - 1, "||") || is_p(c, e, "??") ||
				is_p(c, e - 1, "??")))))
		e = fl_tok_is_opener(t, e) && c->match[e] < end ? c->match[e] + 1 : e + 1;
	return e;
}

/* The text a local of the constructor holds when it is handed to
 * super(): `let message = \`Module not found: ${err}\`; ... super(message)`
 * (webpack's error classes, which append to it first: the text as
 * declared).  name: the identifier given to super(), in [b, e) the
 * tokens before it. */
static char *local_msg(const ctx *c, size_t b, size_t e, size_t name)
{
	const fl_toks *t = &c->t;
	for (size_t q = e; q-- > b + 1;) {
		if (t->v[q].len != t->v[name].len || !is_kind(c, q, FL_TK_IDENT) ||
		    memcmp(t->src + t->v[q].off, t->src + t->v[name].off, t->v[q].len) != 0 ||
		    !is_p(c, q + 1, "=") ||
		    !(is_id(c, q - 1, "let") || is_id(c, q - 1, "const") || is_id(c, q - 1, "var")))
			continue;
		return default_msg(c, q + 2, value_end(c, q + 2, e, false));
	}
	return NULL;
}

/* The class declared at token i (`class`), its default message and code,
 * or false. */
bool js_class_defaults(const ctx *c, size_t i, jsclass *jc)
{
	const fl_toks *t = &c->t;
	memset(jc, 0, sizeof *jc);
	jc->tpl = NONE;
	size_t name = i + 1;
	if (!is_kind(c, name, FL_TK_IDENT) || !is_id(c, name + 1, "extends"))
		return false;
	/* extends A.B.C { */
	size_t k = name + 2, base = NONE;
	while (k < t->n && is_kind(c, k, FL_TK_IDENT)) {
		base = k;
		if (!is_p(c, k + 1, "."))
			break;
		k += 2;
	}
	k++;
	if (base == NONE || !is_p(c, k, "{") || c->match[k] >= t->n ||
	    (!errorish(t, name) && !errorish(t, base)))
		return false;
	size_t end = c->match[k];
	char *params = NULL;
	for (size_t q = k + 1; q < end && q - k < 20000; q++) {
		if (!params && is_id(c, q, "constructor") && is_p(c, q + 1, "(") &&
		    c->match[q + 1] < end)
			params = ctor_params(c, q + 1);
		/* this.message = ...; this.code = '...'; super('...') */
		if (is_id(c, q, "this") && is_p(c, q + 1, ".") && is_p(c, q + 3, "=")) {
			size_t v = q + 4, e = value_end(c, v, end, true);
			if (is_id(c, q + 2, "message") && !jc->msg) {
				jc->msg = default_msg(c, v, e);
				if (jc->msg)
					jc->at = q;
			} else if (is_id(c, q + 2, "code") && !jc->code && e == v + 1 &&
				   is_kind(c, v, FL_TK_STRING)) {
				jc->code = fl_xstrdup(fl_tok_str(t, &t->v[v]));
				if (!jc->at)
					jc->at = q;
			} else if (is_id(c, q + 2, "messageTemplate") && e == v + 1 &&
				   is_kind(c, v, FL_TK_STRING)) {
				jc->tpl = v;
			}
			q = e > q ? e - 1 : q;
		} else if (is_id(c, q, "super") && is_p(c, q + 1, "(") && !jc->msg &&
			   c->match[q + 1] < end) {
			size_t st[4], en[4];
			size_t na = split_args(c, q + 1, st, en, 4);
			if (na >= 1) {
				jc->msg = default_msg(c, st[0], en[0]);
				/* super(message): a local's text */
				if (!jc->msg && en[0] == st[0] + 1 && is_kind(c, st[0], FL_TK_IDENT))
					jc->msg = local_msg(c, k, q, st[0]);
				if (jc->msg)
					jc->at = q;
			}
		}
	}
	if (jc->msg && !*jc->msg) {
		free(jc->msg);
		jc->msg = NULL;
	}
	if (params && jc->msg && js_names_param(jc->msg, params))
		jc->params = params;
	else
		free(params);
	if (!jc->msg && !jc->code)
		return false;
	jc->name = name;
	return true;
}

/* `new X(args)` of a class whose message names constructor parameters
 * (or a call of an error object's factory, "ofac:NAME"): that message
 * with each named parameter replaced by its argument (a literal's text,
 * else the expression as a hole ${expr}); NULL when the class has none. */
char *js_compose_args(const ctx *c, const char *cls, const size_t *s, const size_t *e,
		      size_t na)
{
	const char *dm, *dc, *params = fl_classdefs_params(c->tree, cls);
	int ds;
	if (!params || !fl_classdefs_find(c->tree, cls, &dm, &dc, &ds) || !dm)
		return NULL;
	char *names[8] = {0}, *values[8] = {0};
	size_t np = 0;
	for (const char *p = params; np < 8;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		names[np] = fl_xstrndup(p, n);
		if (np < na && n) {
			if (is_kind(c, s[np], FL_TK_STRING))
				values[np] = js_msg_of(c, s[np], e[np]);
			if (!values[np]) {
				char *x = fl_tok_span_text(&c->t, s[np], e[np], 80);
				values[np] = fl_xasprintf("${%s}", x);
				free(x);
			}
		}
		np++;
		if (!nl)
			break;
		p = nl + 1;
	}
	char *m = fl_msg_subst(dm, (const char *const *)names, (const char *const *)values, np);
	for (size_t k = 0; k < np; k++) {
		free(names[k]);
		free(values[k]);
	}
	return m;
}

/* ---- message templates ------------------------------------------------------
 * ESLint's messages/NAME.js, `module.exports = function (it) { return `
 * No files matching "${pattern}" were found.`.trimStart(); }` (or an object
 * of such texts, one per key), is what the CLI prints for an error whose
 * `messageTemplate` is "NAME": a class's `this.messageTemplate = "NAME"`, or
 * `err.messageTemplate = "NAME"` before `throw err`.  Each text of such a
 * file is a site of its own; the tree keeps them ("tpl:NAME", "tpl:NAME:1",
 * ...) and a class's template name ("tplof:CLASS", keys no identifier can
 * take) for the errors that name them, which get the texts too. */
#define MAX_TPL 16

/* NAME of a path .../messages/NAME.js, or false. */
bool js_tpl_file(const char *path, const char **name, size_t *len)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	if (!slash)
		return false;
	const char *dir = slash;
	while (dir > path && dir[-1] != '/')
		dir--;
	const char *b = slash + 1, *dot = strrchr(b, '.');
	if (slash - dir != 8 || memcmp(dir, "messages", 8) != 0 || !dot || dot == b)
		return false;
	*name = b;
	*len = (size_t)(dot - b);
	return true;
}

/* The texts of a messages file: a string returned (`return `...`.trimStart()`,
 * `=> '...'`) or given to a key of an object (`env: `...``), of two words at
 * least; leading blank space removed (the CLI trims it).  Their tokens in
 * at[], messages (owned) in msg[]; returns how many. */
static size_t tpl_texts(const ctx *c, size_t *at, char **msg, size_t max)
{
	const fl_toks *t = &c->t;
	size_t n = 0;
	for (size_t i = 1; i < t->n && n < max; i++) {
		if (t->v[i].kind != FL_TK_STRING)
			continue;
		bool ret = is_id(c, i - 1, "return") || is_p(c, i - 1, "=>");
		bool prop = i >= 3 && is_p(c, i - 1, ":") &&
			    (is_kind(c, i - 2, FL_TK_IDENT) || is_kind(c, i - 2, FL_TK_STRING)) &&
			    (is_p(c, i - 3, "{") || is_p(c, i - 3, ","));
		if (!ret && !prop)
			continue;
		size_t e = i + 1;
		if (is_p(c, e, ".") && (is_id(c, e + 1, "trimStart") || is_id(c, e + 1, "trim") ||
					is_id(c, e + 1, "trimEnd")) &&
		    is_p(c, e + 2, "(") && is_p(c, e + 3, ")"))
			e += 4;
		if (e < t->n && !is_p(c, e, ";") && !is_p(c, e, ",") && !is_p(c, e, "}") &&
		    !is_p(c, e, ")"))
			continue;
		const char *s = fl_tok_str(t, &t->v[i]);
		while (*s == '\n' || *s == '\r' || *s == ' ' || *s == '\t')
			s++;
		const char *sp = strchr(s, ' ');
		if (!sp || strlen(s) < 12)
			continue;
		at[n] = i;
		msg[n] = fl_xstrdup(s);
		fl_msg_trim(msg[n++]);
	}
	return n;
}

/* Key of template `name` (text k) in the tree; caller frees. */
static char *tpl_key(const char *name, size_t len, size_t k)
{
	return k ? fl_xasprintf("tpl:%.*s:%zu", (int)len, name, k)
		 : fl_xasprintf("tpl:%.*s", (int)len, name);
}

/* The texts of the templates file of a messages folder into the tree. */
void js_tpl_collect(fl_classdefs *tr, const ctx *c, const char *name, size_t len)
{
	size_t at[MAX_TPL];
	char *msg[MAX_TPL];
	size_t n = tpl_texts(c, at, msg, MAX_TPL);
	for (size_t k = 0; k < n; k++) {
		char *key = tpl_key(name, len, k);
		fl_classdefs_add(tr, key, msg[k], NULL, 0);
		free(key);
	}
}

/* Each text of a messages file is a site: what the CLI prints. */
void js_tpl_sites(ctx *c, const char *name, size_t len)
{
	size_t at[MAX_TPL];
	char *msg[MAX_TPL];
	size_t n = tpl_texts(c, at, msg, MAX_TPL);
	char *fn = fl_xstrndup(name, len);
	for (size_t k = 0; k < n; k++) {
		/* holes printing a known text, as js_emit() reads them */
		char *plain = fl_js_hole_unstyle(msg[k]);
		char *v[2] = {plain ? plain : msg[k], NULL};
		bool ch = fl_js_hole_choice(v[0], &v[0], &v[1]);
		char *own = ch ? v[0] : NULL;
		if (ch && strcmp(v[0], v[1]) == 0) {
			free(v[1]);
			v[1] = NULL;
		}
		for (int j = 0; j < 2 && v[j]; j++) {
			fl_site s = {.line = c->t.v[at[k]].line,
				     .col = c->t.v[at[k]].col,
				     .message = v[j],
				     .type = FL_T_EXCEPTION,
				     .severity = FL_S_ERROR,
				     .function = fn,
				     .idiom = "message template"};
			fl_site_add(c->out, &s);
		}
		free(own);
		free(v[1]);
		free(plain);
		free(msg[k]);
	}
	free(fn);
}

/* The error made at `at` of class cls (NULL: none) shows template c->tpl
 * or its class's: a site for each text of it.  Returns how many. */
static size_t tpl_emit(ctx *c, size_t at, const char *cls, const char *code,
		       const char *type, const char *sev, int http, const char *idiom)
{
	const char *name = c->tpl, *m, *dc;
	int ds;
	if (!name && cls) {
		char *key = fl_xasprintf("tplof:%s", cls);
		if (!fl_classdefs_find(c->tree, key, &name, &dc, &ds))
			name = NULL;
		free(key);
	}
	if (!name)
		return 0;
	size_t k = 0;
	for (; k < MAX_TPL; k++) {
		char *key = tpl_key(name, strlen(name), k);
		bool ok = fl_classdefs_find(c->tree, key, &m, &dc, &ds) && m;
		free(key);
		if (!ok)
			break;
		js_emit(c, at, m, code, cls, type, sev, http, idiom);
	}
	return k;
}

/* A byte scan before lexing: a file that can declare such a class, or
 * make one with createError(). */
bool js_has_error_class(const char *s, size_t n)
{
	return ((fl_memmem(s, n, "this.message", 12) || fl_memmem(s, n, "this.code", 9) ||
		 fl_memmem(s, n, "super(", 6)) &&
		fl_may_declare_error_class(s, n)) ||
	       fl_memmem(s, n, "createError(", 12);
}

/* js_report_ctor() without a message: the class's default, if the tree has
 * one; *msg and *code are set only when NULL */
static void class_default(const ctx *c, const char *cls, char **msg, char **code)
{
	const char *dm, *dc;
	int ds;
	if (!fl_classdefs_find(c->tree, cls, &dm, &dc, &ds))
		return;
	if (!*msg && dm)
		*msg = fl_xstrdup(dm);
	if (!*code && dc)
		*code = fl_xstrdup(dc);
}

/* `Object.assign(new X(...), { code: 'ENOSCRIPT' })` (npm's, Node's
 * idiom): the code the object literal after the construction at clsi
 * (its argument list's '(' at open) gives, or NULL. */
static char *assign_code(const ctx *c, size_t clsi, size_t open)
{
	size_t nw = clsi;
	while (nw >= 2 && is_p(c, nw - 1, ".") && is_kind(c, nw - 2, FL_TK_IDENT))
		nw -= 2;
	if (nw < 5 || !is_id(c, nw - 1, "new") || !is_p(c, nw - 2, "(") || !is_id(c, nw - 3, "assign") ||
	    !is_p(c, nw - 4, ".") || !is_id(c, nw - 5, "Object"))
		return NULL;
	size_t close = c->match[open];
	if (close >= c->t.n || !is_p(c, close + 1, ",") || !is_p(c, close + 2, "{"))
		return NULL;
	char *code = NULL;
	char *m = js_obj_message(c, close + 2, &code);
	free(m);
	return code;
}

/* A class named for a warning: DeprecationWarning, CommentCompilationWarning */
bool js_warning_class(const char *cls)
{
	size_t l = cls ? strlen(cls) : 0;
	return l > 7 && strcmp(cls + l - 7, "Warning") == 0;
}

/* report an error object construction (new X(...)) at site position at */
void js_report_ctor(ctx *c, size_t at, size_t clsi, size_t open,
		    const char *idiom, const char *extra_code)
{
	char *cls = fl_tok_dup(&c->t, clsi);
	size_t s[8], e[8];
	size_t na = split_args(c, open, s, e, 8);
	char *msg = NULL, *code = NULL;
	int http = 0;
	const char *type = FL_T_EXCEPTION, *sev = FL_S_ERROR;
	const char *dm = NULL, *dc = NULL;
	int ds = 0;
	char *base = NULL;
	fl_strv texts = {0}; /* a local's texts, one per branch */
	if (strcmp(cls, "createError") == 0 &&
	    js_code_first_create(c, open, &msg, &code, &http, &base)) {
		/* an error class made by @fastify/error: its message and code */
		free(cls);
		cls = base;
	} else if (js_looks_code_name(cls, strlen(cls)) &&
		   fl_classdefs_find(c->tree, cls, &dm, &dc, &ds) && dm) {
		/* new FST_ERR_X(args) of a class made so: the arguments fill
		 * the message's %s, they are not the message */
		msg = fl_xstrdup(dm);
		code = dc ? fl_xstrdup(dc) : NULL;
		http = ds;
	} else if (strncmp(cls, "ERR_", 4) == 0) {
		code = fl_xstrdup(cls);
	} else if (strcmp(cls, "createError") == 0 ||
		   strcmp(cls, "HttpError") == 0) {
		for (size_t k = 0; k < na; k++) {
			int st = js_status_of(c, s[k], e[k]);
			if (st && !http)
				http = st;
			else if (!msg && is_p(c, s[k], "{"))
				msg = js_obj_message(c, s[k], &code);
			else if (!msg)
				msg = js_msg_of(c, s[k], e[k]);
		}
		type = FL_T_HTTP;
		free(cls);
		cls = NULL;
		if (http < 400 || http > 599) {
			free(msg);
			free(code);
			return;
		}
	} else {
		msg = js_compose_args(c, cls, s, e, na);
		if (msg)
			class_default(c, cls, &msg, &code);
		for (size_t k = 0; k < na && !msg; k++) {
			if (is_p(c, s[k], "{") && c->match[s[k]] == e[k] - 1)
				msg = js_obj_message(c, s[k], &code);
			else
				msg = js_ctor_arg_msg(c, s[k], e[k]);
			if (msg && k + 1 < na && js_looks_code(msg) &&
			    is_kind(c, s[k], FL_TK_STRING) && e[k] == s[k] + 1) {
				char *m2 = js_msg_of(c, s[k + 1], e[k + 1]);
				if (m2) {
					free(code);
					code = msg;
					msg = m2;
				}
			}
			if (msg && !code && k + 1 < na) {
				code = js_arg_code(c, s[k + 1], e[k + 1]);
				c->arg_code = code != NULL;
			}
		}
		/* code: in a later options object */
		for (size_t k = 0; k < na && !code; k++)
			if (is_p(c, s[k], "{")) {
				char *m = js_obj_message(c, s[k], &code);
				free(m);
			}
		/* a local holding one text per branch: a site each */
		for (size_t k = 0; k < na && !msg && !texts.n; k++)
			if (js_ctor_arg_texts(c, s[k], e[k], &texts) >= 2)
				msg = fl_xstrdup(texts.v[0]);
			else
				fl_strv_free(&texts);
		if (!msg)
			class_default(c, cls, &msg, &code);
		/* no text known (a variable's, a value passed on: `throw new
		 * Error(msg)`): the class alone, for a throw, as a JVM throw
		 * of a variable's text; a stack's frame names its line
		 * (lookup.c's class_at_frames) */
		if (!msg && !code && strncmp(idiom, "throw", 5) == 0)
			msg = fl_xstrdup(cls);
		int st = js_http_by_name(cls);
		/* NestJS's HttpException('msg', HttpStatus.X) takes the status
		 * second, Hono's HTTPException(401, { message }) first */
		if (!st && (strcmp(cls, "HttpException") == 0 || strcmp(cls, "HTTPException") == 0)) {
			for (size_t k = 0; k < na && !st; k++)
				st = js_status_of(c, s[k], e[k]);
			if (!st)
				st = -1;
		}
		if (st) {
			type = FL_T_HTTP;
			http = st > 0 ? st : 0;
		}
	}
	if (http >= 400)
		sev = fl_http_severity(http);
	else if (js_warning_class(cls))
		sev = FL_S_WARNING;
	if (extra_code && !code)
		code = fl_xstrdup(extra_code);
	if (!code)
		code = assign_code(c, clsi, open);
	tpl_emit(c, at, cls, code, type, sev, http, idiom);
	js_emit(c, at, msg, code, cls, type, sev, http, idiom);
	for (size_t k = 1; k < texts.n; k++)
		js_emit(c, at, texts.v[k], code, cls, type, sev, http, idiom);
	fl_strv_free(&texts);
	c->arg_code = false;
	free(msg);
	free(code);
	free(cls);
}

/* The error classes of the file are sites of their own. */
void js_class_sites(ctx *c)
{
	for (size_t i = 0; i + 2 < c->t.n; i++) {
		jsclass jc;
		if (!is_id(c, i, "class") || !js_class_defaults(c, i, &jc))
			continue;
		char *cls = fl_tok_dup(&c->t, jc.name);
		fl_site s = {.line = c->t.v[jc.at].line,
			     .col = c->t.v[jc.at].col,
			     .message = jc.msg,
			     .code = jc.code,
			     .cls = cls,
			     .type = FL_T_EXCEPTION,
			     .severity = js_warning_class(cls) ? FL_S_WARNING : FL_S_ERROR,
			     .function = cls,
			     .idiom = is_id(c, jc.at, "super") ? "class constructor super()"
				      : "class constructor this.message"};
		fl_site_add(c->out, &s);
		free(cls);
		free(jc.msg);
		free(jc.code);
		free(jc.params);
	}
}
