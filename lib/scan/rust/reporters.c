/*
 * reporters.c — a Rust project's own reporters and error factories
 * (rust.h): functions that print, raise or make an error of a message
 * parameter, kept in the tree by name, and each call that gives that
 * parameter a text (a literal, a format!, a local variable holding one) as
 * a site with the function's text around it.
 *
 *   `fn print_error(msg: impl Into<String>) { eprintln!("[fd error]: {}", msg.into()) }`
 *       one parameter printed by the whole body: "rep:NAME", "[fd error]: {}"
 *   `pub fn internal<S: Display>(error: S) -> anyhow::Error { .. }`
 *       one parameter made an error: "rep:NAME", "{}" and the error type
 *   `fn run_step(&self, cmd: &Command, error_output: &'static str) -> Result<T> {
 *        .. .map_err(|_| anyhow!(error_output)) }`
 *   `fn print_msg(styles: bool, message: &str, prefix: &str, color: Color) {
 *        .. eprintln!("{}{}", style.paint(prefix), style.paint(message)) .. }`
 *       a parameter that a macro of the body prints or raises (eprintln!,
 *       panic!, anyhow! / bail!, error! / warn!): "rep:NAME" (a method's:
 *       "rem:NAME") with the parameters' names and a message that names
 *       them ("{prefix}{message}"); a function that hands its parameter on
 *       to such a function of its file (`fn print_error(s: bool, m: &str) {
 *       print_msg(s, m, "Error: ", Red) }`) is one too ("Error: {m}").
 *   `macro_rules! print_error { ($($arg:tt)*) => { .. stderr ..
 *        write_all(format!("lsd: {}\n\n", format!($($arg)*)).as_bytes()) .. } }`
 *       a macro that passes its arguments on whole to one that prints,
 *       raises or formats them: "mac:NAME", its text around the slot of
 *       theirs; each of its calls with a literal format is a site.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rust.h"

/* what a reporter of parameters does with its message (fl_factory.tag);
 * 0: a reporter or factory of one parameter, written "{}" */
enum { RK_PANIC = 1, RK_RAISE, RK_PRINT, RK_LOG_ERROR, RK_LOG_WARN, RK_PRINT_ERROR, RK_PRINT_WARN };

/* A printing reporter's level by the words of its name (print_warning,
 * warn, die, print_err, fatal): what it prints is a warning or an error
 * whatever the text says; RK_PRINT (the text tells) when no word does. */
static int print_level(const fl_toks *t, size_t fn)
{
	static const char *const warn[] = {"warn", "warning", NULL};
	static const char *const err[] = {"err", "error", "fatal", "die", "fail", "bail", "abort", NULL};
	const char *s = t->src + t->v[fn].off, *end = s + t->v[fn].len;
	while (s < end) {
		const char *w = s;
		while (s < end && *s != '_')
			s++;
		size_t n = (size_t)(s - w);
		for (const char *const *p = warn; *p; p++)
			if (strlen(*p) == n && strncasecmp(w, *p, n) == 0)
				return RK_PRINT_WARN;
		for (const char *const *p = err; *p; p++)
			if (strlen(*p) == n && strncasecmp(w, *p, n) == 0)
				return RK_PRINT_ERROR;
		s++;
	}
	return RK_PRINT;
}

/* ---- one parameter: the whole body prints it, or an error is made of it ---- */

/* A project's reporter: `fn print_error(msg: impl Into<String>) {
 * eprintln!("[fd error]: {}", msg.into()); }`, a function whose whole
 * body prints its parameter in a text of its own (the eprintln! at i, its
 * message msg, the printed argument [ab, ae)): kept in the tree as
 * "rep:NAME" with that text, so that each call giving a message is a site
 * (rs_rule_reporter_call). */
void rs_note_reporter(rs_st *st, size_t i, const char *msg, size_t ab, size_t ae)
{
	const fl_toks *t = st->t;
	const rs_ctx *c = &st->cs[st->csn - 1];
	if (!c->own_fn || c->open == NONE || i != c->open + 1 || !c->fn_tok || !msg)
		return;
	size_t close = st->m[c->open], end = st->m[i + 2];
	if (close == NONE || end == NONE ||
	    !(end + 1 == close || (end + 2 == close && fl_tok_pch(t, end + 1) == ';')))
		return;
	/* the argument: a parameter, as it is or converted */
	if (t->v[ab].kind != FL_TK_IDENT ||
	    !(ae == ab + 1 || (ae == ab + 5 && fl_tok_pch(t, ab + 1) == '.' && fl_tok_pch(t, ab + 3) == '(' &&
					   fl_tok_pch(t, ab + 4) == ')')))
		return;
	bool param = false;
	for (size_t k = c->fn_tok + 1; k < c->open && !param; k++)
		param = t->v[k].kind == FL_TK_IDENT && t->v[k].len == t->v[ab].len &&
			memcmp(t->src + t->v[k].off, t->src + t->v[ab].off, t->v[ab].len) == 0;
	const char *ph = strstr(msg, "{}");
	if (!param || !ph || strstr(ph + 2, "{") || memchr(msg, '{', (size_t)(ph - msg)))
		return;
	char name[128];
	int n = snprintf(name, sizeof name, "rep:%.*s", (int)t->v[c->fn_tok].len, t->src + t->v[c->fn_tok].off);
	if (n <= 0 || (size_t)n >= sizeof name)
		return;
	fl_factory f = {.name = fl_xstrdup(name), .msg = fl_xstrdup(msg)};
	fl_factories_add(st->part, &f);
}

/* past the generics `<...>` of the fn whose name is token name: its '(' */
static size_t fn_paren(const rs_st *st, size_t name, size_t limit)
{
	const fl_toks *t = st->t;
	size_t k = name + 1;
	if (fl_tok_pch(t, k) == '<') {
		int d = 0;
		for (; k < limit; k++) {
			if (fl_tok_pch(t, k) == '<')
				d++;
			else if (fl_tok_pch(t, k) == '>' && --d == 0)
				break;
		}
		k++;
	}
	if (k >= limit || fl_tok_pch(t, k) != '(' || st->m[k] == NONE || st->m[k] >= limit)
		return NONE;
	return k;
}

/* A free function that makes an error of its one parameter: `pub fn
 * internal<S: fmt::Display>(error: S) -> anyhow::Error { .. error .. }`
 * (name at token name, its body's '{' at body): kept in the tree as
 * "rep:NAME" with the message "{}" and the error type as class, so that
 * each call giving a message is an exception site (rs_rule_reporter_call). */
void rs_note_error_factory(rs_st *st, size_t name, size_t body)
{
	const fl_toks *t = st->t;
	size_t open = fn_paren(st, name, body);
	if (open == NONE)
		return;
	size_t close = st->m[open];
	if (close == open + 1 || t->v[open + 1].kind != FL_TK_IDENT || fl_tok_is(t, open + 1, "self") ||
	    fl_tok_is(t, open + 1, "mut"))
		return;
	for (size_t j = open + 1; j < close; j++) { /* one parameter */
		char ch = fl_tok_pch(t, j);
		if ((ch == '(' || ch == '[') && st->m[j] != NONE && st->m[j] < close)
			j = st->m[j];
		else if (ch == ',' && j + 1 < close)
			return;
	}
	/* -> an error type: its last name ends in Error, no Result, no Box */
	if (!fl_tok_is_punct(t, close + 1, "->"))
		return;
	size_t te = close + 2;
	while (te < body && !fl_tok_is_ident(t, te, "where"))
		te++;
	if (te <= close + 2 || t->v[te - 1].kind != FL_TK_IDENT || !rs_ends_with_error(t, te - 1))
		return;
	for (size_t j = close + 2; j < te; j++) /* a plain type: no closure */
		if (fl_tok_pch(t, j) == '<' || fl_tok_pch(t, j) == '(' || fl_tok_is_ident(t, j, "impl") ||
		    fl_tok_is_ident(t, j, "dyn"))
			return;
	/* the body uses the parameter */
	size_t pn = open + 1, end = st->m[body];
	bool used = false;
	for (size_t j = body + 1; end != NONE && j < end && !used; j++)
		used = t->v[j].kind == FL_TK_IDENT && t->v[j].len == t->v[pn].len &&
		       memcmp(t->src + t->v[j].off, t->src + t->v[pn].off, t->v[pn].len) == 0;
	if (!used)
		return;
	char key[128];
	int n = snprintf(key, sizeof key, "rep:%.*s", (int)t->v[name].len, t->src + t->v[name].off);
	if (n <= 0 || (size_t)n >= sizeof key)
		return;
	fl_factory f = {.name = fl_xstrdup(key), .msg = fl_xstrdup("{}"),
			.cls = fl_tok_span_text(t, close + 2, te, 120)};
	fl_factories_add(st->part, &f);
}

/* ---- reporters of parameters ---------------------------------------------------- */

/* The parameters of the fn whose name is token name: their names into pv
 * (the caller frees them), *self when it is a method; NONE when one is a
 * pattern (`(a, b): (T, U)`) or there are more than FL_FAC_PARAMS. */
static size_t fn_params(const rs_st *st, size_t name, char **pv, bool *self)
{
	const fl_toks *t = st->t;
	size_t open = fn_paren(st, name, t->n);
	*self = false;
	if (open == NONE)
		return NONE;
	size_t close = st->m[open], np = 0;
	for (size_t b = open + 1; b < close;) {
		/* one parameter [b, e): to the ',' outside brackets and <> */
		size_t e = b;
		int angle = 0;
		for (; e < close; e++) {
			char ch = fl_tok_pch(t, e);
			if ((ch == '(' || ch == '[' || ch == '{') && st->m[e] != NONE && st->m[e] < close)
				e = st->m[e];
			else if (ch == '<' && t->v[e].len == 1)
				angle++;
			else if (ch == '>' && t->v[e].len == 1 && angle > 0)
				angle--;
			else if (ch == ',' && angle == 0)
				break;
		}
		size_t k = b;
		while (k < e && (fl_tok_pch(t, k) == '&' || fl_tok_is_ident(t, k, "mut") ||
				 t->v[k].kind == FL_TK_CHAR || fl_tok_pch(t, k) == '\''))
			k++; /* &, &mut, a lifetime */
		if (k < e && fl_tok_is_ident(t, k, "self")) {
			*self = true;
		} else if (k + 1 < e && t->v[k].kind == FL_TK_IDENT && fl_tok_pch(t, k + 1) == ':' &&
			   !fl_tok_is_punct(t, k + 1, "::")) {
			if (np == FL_FAC_PARAMS) {
				for (size_t j = 0; j < np; j++)
					free(pv[j]);
				return NONE;
			}
			pv[np++] = fl_xstrndup(t->src + t->v[k].off, t->v[k].len);
		} else if (k < e) {
			for (size_t j = 0; j < np; j++)
				free(pv[j]);
			return NONE;
		}
		b = e + 1;
	}
	return np;
}

/* The parameter the expression [b, e) passes on as it is: `p`, `&p`,
 * `p.into()`, `p.as_ref()`, `style.paint(p)`; its index in pv, or -1. */
static int param_ref(const rs_st *st, size_t b, size_t e, char *const *pv, size_t np)
{
	const fl_toks *t = st->t;
	while (b < e && (fl_tok_pch(t, b) == '&' || fl_tok_pch(t, b) == '*'))
		b++;
	/* style.paint(p) / Red.paint(p) */
	if (e - b >= 5 && fl_tok_pch(t, e - 1) == ')' && st->m[e - 1] != NONE && st->m[e - 1] > b + 1 &&
	    fl_tok_is_ident(t, st->m[e - 1] - 1, "paint") && fl_tok_pch(t, st->m[e - 1] - 2) == '.') {
		size_t o = st->m[e - 1];
		b = o + 1;
		e = e - 1;
		while (b < e && fl_tok_pch(t, b) == '&')
			b++;
	}
	/* .into() .as_str() .to_string() ...: calls of no argument */
	while (e - b >= 5 && fl_tok_pch(t, e - 1) == ')' && fl_tok_pch(t, e - 2) == '(' &&
	       t->v[e - 3].kind == FL_TK_IDENT && fl_tok_pch(t, e - 4) == '.')
		e -= 4;
	if (e != b + 1 || t->v[b].kind != FL_TK_IDENT)
		return -1;
	for (size_t k = 0; k < np; k++)
		if (strlen(pv[k]) == t->v[b].len && memcmp(pv[k], t->src + t->v[b].off, t->v[b].len) == 0)
			return (int)k;
	return -1;
}

/* The format literal at token lit with its arguments [ab[k], ae[k]): its
 * placeholders of parameters written {param} (implicit, numbered or
 * inline), or NULL when none is a parameter. */
static char *format_params(const rs_st *st, size_t lit, const size_t *ab, const size_t *ae, size_t na,
			   char *const *pv, size_t np)
{
	const fl_toks *t = st->t;
	const char *s = fl_tok_str(t, &t->v[lit]);
	size_t n = t->v[lit].slen, next = 0;
	fl_buf out = {0};
	bool any = false;
	for (size_t p = 0; p < n;) {
		if ((s[p] == '{' || s[p] == '}') && p + 1 < n && s[p + 1] == s[p]) {
			fl_buf_put(&out, s + p, 2);
			p += 2;
			continue;
		}
		const char *q = s[p] == '{' ? memchr(s + p, '}', n - p) : NULL;
		if (!q) {
			fl_buf_putc(&out, s[p++]);
			continue;
		}
		size_t sb = p + 1, se = (size_t)(q - s);
		const char *colon = memchr(s + sb, ':', se - sb);
		size_t an = colon ? (size_t)(colon - s) - sb : se - sb;
		int ref = -1;
		if (an == 0 || (s[sb] >= '0' && s[sb] <= '9')) {
			size_t idx = an == 0 ? next++ : (size_t)atoi(s + sb);
			if (idx < na)
				ref = param_ref(st, ab[idx], ae[idx], pv, np);
		} else {
			for (size_t k = 0; k < np && ref < 0; k++)
				if (strlen(pv[k]) == an && memcmp(pv[k], s + sb, an) == 0)
					ref = (int)k;
		}
		if (ref >= 0) {
			fl_buf_printf(&out, "{%s}", pv[ref]);
			any = true;
		} else {
			fl_buf_put(&out, s + p, se + 1 - p);
		}
		p = se + 1;
	}
	fl_buf_cstr(&out);
	if (!any) {
		fl_buf_free(&out);
		return NULL;
	}
	fl_msg_undouble(out.s, "{}");
	fl_msg_trim(out.s);
	return out.s;
}

/* the factory named name in fs (any number of parameters), or NULL */
static fl_factory *named_factory(const fl_factories *fs, const char *name)
{
	for (size_t k = 0; k < fs->n; k++)
		if (strcmp(fs->v[k].name, name) == 0)
			return &fs->v[k];
	return NULL;
}

/* A reporter of parameters pv[0..np) of the fn whose name is token fn into
 * the file's part; takes msg and cls, frees the names.  Of a fn's several
 * texts (`if styles { eprintln!("{}{}", prefix, msg) } else {
 * eprintln!("{}", msg) }`) the shortest is kept: what is printed in every
 * case, the rest a prefix or a decoration the lookup reads around it. */
static void add_reporter(rs_st *st, size_t fn, bool self, char **pv, size_t np, char *msg, char *cls,
			 int tag)
{
	const fl_toks *t = st->t;
	char *name = fl_xasprintf("%s:%.*s", self ? "rem" : "rep", (int)t->v[fn].len, t->src + t->v[fn].off);
	if (tag == RK_PRINT || tag == RK_PRINT_ERROR || tag == RK_PRINT_WARN) {
		int lv = print_level(t, fn);
		tag = lv != RK_PRINT ? lv : tag;
	}
	if (msg && !strchr(msg, '{')) { /* no parameter in it: none */
		free(msg);
		msg = NULL;
	}
	fl_factory *old = msg ? named_factory(st->part, name) : NULL;
	if (old && old->tag && old->np == np && strlen(msg) < strlen(old->msg)) {
		free(old->msg);
		old->msg = msg;
		old->tag = tag;
		msg = NULL;
	}
	if (!msg || old) {
		free(name);
		free(msg);
		free(cls);
		for (size_t k = 0; k < np; k++)
			free(pv[k]);
		return;
	}
	fl_factory f = {.name = name, .msg = msg, .cls = cls, .np = np, .nreq = np, .tag = tag};
	for (size_t k = 0; k < np; k++)
		f.param[k] = pv[k];
	fl_factories_add(st->part, &f);
}

/* what a reporter does with its message, by the family (rs_macro_family)
 * of the macro at i that prints or raises it */
static int family_tag(const fl_toks *t, size_t i, int which)
{
	return which == 0   ? RK_PANIC
	       : which == 1 ? RK_RAISE
	       : which == 2 ? RK_PRINT
	       : t->src[t->v[i].off] == 'e' ? RK_LOG_ERROR
					    : RK_LOG_WARN;
}

void rs_note_param_reporter(rs_st *st, size_t i, int which, const size_t *sb, const size_t *se, size_t na,
			    size_t ai)
{
	const fl_toks *t = st->t;
	const rs_ctx *c = &st->cs[st->csn - 1];
	if (!st->part || !c->fn_tok || ai >= na)
		return;
	char *pv[FL_FAC_PARAMS];
	bool self;
	size_t np = fn_params(st, c->fn_tok, pv, &self);
	if (np == NONE)
		return;
	char *msg = NULL;
	int p;
	if (na == ai + 1 && (p = param_ref(st, sb[ai], se[ai], pv, np)) >= 0)
		msg = fl_xasprintf("{%s}", pv[p]); /* bail!(msg) */
	else if (se[ai] == sb[ai] + 1 && t->v[sb[ai]].kind == FL_TK_STRING)
		msg = format_params(st, sb[ai], sb + ai + 1, se + ai + 1, na - ai - 1, pv, np);
	add_reporter(st, c->fn_tok, self, pv, np, msg, NULL, family_tag(t, i, which));
}

/* a local's name says it holds a message: msg, error_output, err_text
 * (one pass over its bytes: every call's names are asked) */
static bool message_local(const fl_toks *t, size_t k)
{
	const char *s = t->src + t->v[k].off;
	size_t n = t->v[k].len;
	for (size_t i = 0; i + 3 <= n; i++) {
		const char *w;
		switch (s[i] | 0x20) {
		case 'm': w = s[i + 1] == 's' ? "msg" : "message"; break;
		case 't': w = "text"; break;
		case 'o': w = "output"; break;
		case 'e': w = "err"; break;
		case 'w': w = "warn"; break;
		case 'r': w = "reason"; break;
		case 'd': w = "desc"; break;
		default: continue;
		}
		size_t l = strlen(w);
		if (i + l <= n && strncasecmp(s + i, w, l) == 0)
			return true;
	}
	return false;
}

/* the argument [b, e) may give a text: a literal, a format!, a local
 * whose name says it holds a message (`let error_output = "..."`); not any
 * name, which a call of a common name (`x.scope(id)`) passes, and whose
 * file the early scan would have to read again */
static bool arg_may_give(const fl_toks *t, const size_t *m, size_t b, size_t e)
{
	while (b < e && fl_tok_pch(t, b) == '&')
		b++;
	return rs_lit_expr(t, m, b, e) || (e == b + 1 && t->v[b].kind == FL_TK_IDENT && message_local(t, b));
}

/* The call whose name is token nt, its arguments [sb, se): when it hands
 * a parameter of the enclosing fn on (a lone name), kept for
 * rs_reporters_forward. */
static void note_forward(rs_st *st, size_t nt, const size_t *sb, const size_t *se, size_t na)
{
	const fl_toks *t = st->t;
	const rs_ctx *c = &st->cs[st->csn - 1];
	if (!c->fn_tok)
		return;
	bool any = false;
	for (size_t k = 0; k < na && !any; k++) {
		size_t b = sb[k];
		while (b < se[k] && fl_tok_pch(t, b) == '&')
			b++;
		any = se[k] == b + 1 && t->v[b].kind == FL_TK_IDENT;
	}
	if (!any)
		return;
	if (st->nfwd == st->cfwd) {
		st->cfwd = st->cfwd ? st->cfwd * 2 : 16;
		st->fwd = fl_xrealloc(st->fwd, st->cfwd * sizeof *st->fwd);
	}
	st->fwd[st->nfwd].call = nt;
	st->fwd[st->nfwd].fn = c->fn_tok;
	st->fwd[st->nfwd].na = na;
	st->nfwd++;
}

/* the callee of the call whose name is token nt: "rep:NAME" or, after a
 * '.', "rem:NAME" into name[cap]; its length or 0 */
static size_t callee_name(const fl_toks *t, size_t nt, char *name, size_t cap)
{
	bool method = nt > 0 && fl_tok_pch(t, nt - 1) == '.';
	size_t l = t->v[nt].len;
	if (l + 5 > cap)
		return 0;
	memcpy(name, method ? "rem:" : "rep:", 4);
	memcpy(name + 4, t->src + t->v[nt].off, l);
	name[4 + l] = '\0';
	return 4 + l;
}

/* One pending call (note_forward): when its callee is a reporter of
 * the file, the enclosing fn is one too, with the callee's message and
 * its own parameters in it.  True when one was added. */
static bool forward_one(rs_st *st, size_t nt, size_t fn, size_t na)
{
	const fl_toks *t = st->t;
	char name[128];
	size_t n = callee_name(t, nt, name, sizeof name);
	const fl_factory *f = n ? fl_factories_find(st->part, name, n, na) : NULL;
	if (!f || !f->tag || f->np != na)
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	rs_args(t, st->m, nt + 1, sb, se);
	char *pv[FL_FAC_PARAMS];
	bool self;
	size_t np = fn_params(st, fn, pv, &self);
	if (np == NONE)
		return false;
	char *own = fl_xasprintf("%s:%.*s", self ? "rem" : "rep", (int)t->v[fn].len, t->src + t->v[fn].off);
	bool known = named_factory(st->part, own) || strcmp(own, f->name) == 0;
	free(own);
	char *vals[FL_FAC_PARAMS] = {0};
	bool passes = false;
	for (size_t k = 0; k < na && !known; k++) {
		int p = param_ref(st, sb[k], se[k], pv, np);
		if (p >= 0) {
			/* handed on to a parameter the callee's message names */
			char *ph = fl_xasprintf("{%s}", f->param[k]);
			if (strstr(f->msg, ph)) {
				vals[k] = fl_xasprintf("{%s}", pv[p]);
				passes = true;
			}
			free(ph);
		} else if (se[k] == sb[k] + 1 && t->v[sb[k]].kind == FL_TK_STRING) {
			/* a fragment: "Error: " keeps its space */
			vals[k] = fl_xstrndup(fl_tok_str(t, &t->v[sb[k]]), t->v[sb[k]].slen);
		} else if (rs_lit_expr(t, st->m, sb[k] + (fl_tok_pch(t, sb[k]) == '&'), se[k])) {
			vals[k] = rs_msg(t, st->m, sb[k], se[k], false, 0);
		}
	}
	char *msg = NULL;
	if (passes) {
		msg = fl_msg_subst(f->msg, (const char *const *)f->param, (const char *const *)vals, f->np);
		bool names = false; /* a parameter of the caller's is in it */
		for (size_t k = 0; k < np && !names; k++) {
			char *ph = fl_xasprintf("{%s}", pv[k]);
			names = strstr(msg, ph) != NULL;
			free(ph);
		}
		if (!names) {
			free(msg);
			msg = NULL;
		}
	}
	for (size_t k = 0; k < na; k++)
		free(vals[k]);
	if (!msg) {
		for (size_t k = 0; k < np; k++)
			free(pv[k]);
		return false;
	}
	add_reporter(st, fn, self, pv, np, msg, f->cls ? fl_xstrdup(f->cls) : NULL, f->tag);
	return true;
}

void rs_reporters_forward(rs_st *st)
{
	for (int round = 0; round < 4; round++) {
		bool more = false;
		for (size_t k = 0; k < st->nfwd; k++)
			more |= forward_one(st, st->fwd[k].call, st->fwd[k].fn, st->fwd[k].na);
		if (!more)
			break;
	}
	free(st->fwd);
	st->fwd = NULL;
	st->nfwd = st->cfwd = 0;
}

/* ---- calls of reporters ---------------------------------------------------------- */

/* The site at token at of reporter f's text msg, as f's tag says */
static void emit_tagged(rs_st *st, size_t at, const fl_factory *f, const char *msg, const char *idiom)
{
	switch (f->tag) {
	case RK_PANIC:
		rs_emit(st, at, msg, NULL, f->cls, FL_T_PANIC, FL_S_CRITICAL, idiom, NONE, NONE);
		break;
	case RK_RAISE:
		rs_emit(st, at, msg, NULL, f->cls, FL_T_EXCEPTION, FL_S_ERROR, idiom, NONE, NONE);
		break;
	case RK_LOG_ERROR:
	case RK_PRINT_ERROR:
		rs_emit(st, at, msg, NULL, NULL, FL_T_CONSOLE, FL_S_ERROR, idiom, NONE, NONE);
		break;
	case RK_LOG_WARN:
	case RK_PRINT_WARN:
		rs_emit(st, at, msg, NULL, NULL, FL_T_CONSOLE, FL_S_WARNING, idiom, NONE, NONE);
		break;
	default:
		rs_emit(st, at, msg, NULL, NULL, FL_T_CONSOLE, fl_print_severity(msg), idiom, NONE, NONE);
	}
}

/* A call of a reporter of parameters at its name nt (f): a site with the
 * reporter's message, each parameter given a text by the call in it */
static bool param_site(rs_st *st, size_t nt, const fl_factory *f, const size_t *sb, const size_t *se,
		       size_t na)
{
	const fl_toks *t = st->t;
	char *vals[FL_FAC_PARAMS] = {0};
	bool text = false;
	for (size_t k = 0; k < na && k < f->np; k++) {
		size_t b = sb[k];
		while (b < se[k] && fl_tok_pch(t, b) == '&')
			b++;
		char *ph = fl_xasprintf("{%s}", f->param[k]);
		if (strstr(f->msg, ph) && arg_may_give(t, st->m, b, se[k]) && (vals[k] = rs_arg_msg(st, b, se[k])))
			text |= rs_has_text(vals[k]);
		free(ph);
	}
	char *m1 = text ? fl_msg_subst(f->msg, (const char *const *)f->param, (const char *const *)vals, f->np)
			: NULL;
	for (size_t k = 0; k < FL_FAC_PARAMS; k++) {
		free(vals[k]);
		vals[k] = k < f->np ? "{}" : NULL;
	}
	if (!m1)
		return false;
	/* what the call gives no text stays a placeholder */
	char *msg = fl_msg_subst(m1, (const char *const *)f->param, (const char *const *)vals, f->np);
	free(m1);
	char idiom[140];
	snprintf(idiom, sizeof idiom, "%s()", f->name + 4);
	emit_tagged(st, nt, f, msg, idiom);
	free(msg);
	return true;
}

/* The call whose name is token nt (a free function's or, after a '.', a
 * method's), its arguments [sb, se): a site when the tree knows the callee
 * as a reporter and the call gives its message a text.  Scanning as if
 * the tree were empty, the callee's name is logged with the arguments that
 * may give a text (a literal, a format!, a lone name). */
static bool reporter_call(rs_st *st, size_t nt, const size_t *sb, const size_t *se, size_t na)
{
	const fl_toks *t = st->t;
	uint32_t mask = 0;
	for (size_t k = 0; k < na; k++)
		if (arg_may_give(t, st->m, sb[k], se[k]))
			mask |= 1u << k;
	char name[128];
	size_t n = mask ? callee_name(t, nt, name, sizeof name) : 0;
	if (!n)
		return false;
	if (st->log) {
		if (name[2] == 'p' && na == 1)
			rs_log_lookup(st, name, n, 0, mask);
		rs_log_lookup(st, name, n, na, mask);
		return false;
	}
	/* a reporter of one parameter: NAME("...") */
	const fl_factory *f = name[2] == 'p' && na == 1 ? fl_factories_find(st->tree, name, n, 0) : NULL;
	if (f && f->msg && !f->tag && rs_lit_expr(t, st->m, sb[0], se[0])) {
		char *msg = rs_msg(t, st->m, sb[0], se[0], false, 0);
		if (!msg)
			return false;
		const char *ph = strstr(f->msg, "{}");
		char *text = fl_xasprintf("%.*s%s%s", (int)(ph - f->msg), f->msg, msg, ph + 2);
		char idiom[140];
		snprintf(idiom, sizeof idiom, "%s()", name + 4);
		if (f->cls) /* an error factory's: the error it makes, raised by its caller */
			rs_emit(st, nt, text, NULL, f->cls, FL_T_EXCEPTION, FL_S_ERROR, idiom, NONE, NONE);
		else
			rs_emit(st, nt, text, NULL, NULL, FL_T_CONSOLE, fl_print_severity(text), idiom, NONE,
				NONE);
		free(text);
		free(msg);
		return true;
	}
	f = fl_factories_find(st->tree, name, n, na);
	return f && f->msg && f->tag && f->np == na && param_site(st, nt, f, sb, se, na);
}

/* the call at its name nt ('(' after it): its arguments split once, for
 * the forwarding and the site */
static bool call_at(rs_st *st, size_t nt)
{
	const fl_toks *t = st->t;
	if ((!st->tree && !st->log && !st->part) || fl_tok_pch(t, nt + 1) != '(' || st->m[nt + 1] == NONE)
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, nt + 1, sb, se);
	if (!na)
		return false;
	if (st->part)
		note_forward(st, nt, sb, se, na);
	return (st->tree || st->log) && reporter_call(st, nt, sb, se, na);
}

bool rs_rule_reporter_call(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if (i > 0 && (fl_tok_pch(t, i - 1) == '.' || fl_tok_is_ident(t, i - 1, "fn")))
		return false;
	/* a free function, maybe by its module's path; not a type's */
	if (i >= 2 && fl_tok_is_punct(t, i - 1, "::") && rs_upper_ident(t, i - 2))
		return false;
	return call_at(st, i);
}

bool rs_rule_reporter_method(rs_st *st, size_t dot)
{
	if (st->t->v[dot + 1].kind != FL_TK_IDENT)
		return false;
	return call_at(st, dot + 1);
}

/* ---- macros of a project that print, raise or format their arguments ------- */

/* A macro_rules! body's call at k (`eprintln!(...)`, `std::format!(...)`)
 * whose arguments are the macro's own, passed on whole: `$($arg)*` or
 * `$($arg:tt)*`, maybe with `$fmt, $($arg)*` before. */
static bool passes_all(const rs_st *st, size_t k)
{
	const fl_toks *t = st->t;
	if (t->v[k].kind != FL_TK_IDENT || fl_tok_pch(t, k + 1) != '!' || !fl_tok_is_opener(t, k + 2) ||
	    st->m[k + 2] == NONE)
		return false;
	size_t close = st->m[k + 2];
	return close >= k + 6 && fl_tok_pch(t, k + 3) == '$' && fl_tok_pch(t, k + 4) == '(' &&
	       st->m[k + 4] != NONE && st->m[k + 4] + 2 == close && fl_tok_pch(t, close - 1) == '*';
}

/* the macro whose call's bracket holds token k, directly as one argument:
 * its name token, *ai the argument's index; NONE when none */
static size_t macro_around(const rs_st *st, size_t k, size_t lo, size_t *ai)
{
	const fl_toks *t = st->t;
	int d = 0;
	for (size_t j = k; j-- > lo;) {
		char c = fl_tok_pch(t, j);
		if ((c == ')' || c == ']' || c == '}') && t->v[j].kind == FL_TK_PUNCT)
			d++;
		else if ((c == '(' || c == '[' || c == '{') && t->v[j].kind == FL_TK_PUNCT && d-- == 0) {
			if (j < 2 || fl_tok_pch(t, j - 1) != '!' || t->v[j - 2].kind != FL_TK_IDENT)
				return NONE;
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			size_t na = rs_args(t, st->m, j, sb, se);
			for (size_t a = 0; a < na; a++)
				if (sb[a] == k) {
					*ai = a;
					return j - 2;
				}
			return NONE;
		}
	}
	return NONE;
}

/* The string literal the argument [b, e) shows as it is: `"text"`,
 * `Yellow.paint("text")`, `"text".bold()`; its token, or NONE. */
static size_t literal_arg(const rs_st *st, size_t b, size_t e)
{
	const fl_toks *t = st->t;
	if (e - b >= 5 && fl_tok_pch(t, e - 1) == ')' && st->m[e - 1] == e - 3 &&
	    fl_tok_is_ident(t, e - 4, "paint") && fl_tok_pch(t, e - 5) == '.')
		b = e - 2, e = e - 1;
	while (e - b >= 5 && fl_tok_pch(t, e - 1) == ')' && fl_tok_pch(t, e - 2) == '(' &&
	       t->v[e - 3].kind == FL_TK_IDENT && fl_tok_pch(t, e - 4) == '.')
		e -= 4;
	return e == b + 1 && t->v[b].kind == FL_TK_STRING ? b : NONE;
}

void rs_note_macro_reporter(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t name = i + 2, open = i + 3;
	if (!st->part || t->v[name].kind != FL_TK_IDENT || !fl_tok_is_opener(t, open) || st->m[open] == NONE)
		return;
	size_t close = st->m[open];
	for (size_t k = open + 1; k < close; k++) {
		if (!passes_all(st, k))
			continue;
		/* from the call that takes the arguments out to the macro that
		 * prints or raises them, each format's text around the slot
		 * ("\x01") */
		char *msg = fl_xstrdup("\x01");
		size_t at = k, ai;
		int tag = 0;
		for (int up = 0; up < 3 && msg; up++) {
			/* a macro that prints or raises its format, given the
			 * arguments whole (not an assertion's, after its
			 * condition) */
			size_t fa;
			int which = rs_macro_family(t, at, &fa);
			if (which >= 0 && fa == 0) {
				tag = family_tag(t, at, which);
				break;
			}
			if (which >= 0 || (!fl_tok_is(t, at, "format") && !fl_tok_is(t, at, "format_args")))
				break;
			/* a format: the text of the macro around it, if any
			 * (the argument starts at its path: std::format!) */
			size_t ks = at;
			while (ks >= 2 && fl_tok_is_punct(t, ks - 1, "::") && t->v[ks - 2].kind == FL_TK_IDENT)
				ks -= 2;
			size_t outer = macro_around(st, ks, open + 1, &ai);
			if (outer == NONE || ai == 0)
				break;
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			rs_args(t, st->m, outer + 2, sb, se);
			if (se[0] != sb[0] + 1 || t->v[sb[0]].kind != FL_TK_STRING) {
				free(msg);
				msg = NULL;
				break;
			}
			/* the ai-th implicit placeholder of its literal; another
			 * one given a literal (Yellow.paint("[bat warning]")) is
			 * that text */
			size_t na = rs_args(t, st->m, outer + 2, sb, se);
			const char *s = fl_tok_str(t, &t->v[sb[0]]);
			size_t n = t->v[sb[0]].slen, seen = 0;
			fl_buf out = {0};
			for (size_t p = 0; p < n; p++) {
				if ((s[p] == '{' || s[p] == '}') && p + 1 < n && s[p + 1] == s[p]) {
					fl_buf_putc(&out, s[p++]);
					continue;
				}
				const char *q = s[p] == '{' ? memchr(s + p, '}', n - p) : NULL;
				if (q && q == s + p + 1 && ++seen < na) {
					if (seen == ai) {
						fl_buf_puts(&out, msg);
						p = (size_t)(q - s);
						continue;
					}
					size_t lit = literal_arg(st, sb[seen], se[seen]);
					if (lit != NONE) {
						fl_buf_put(&out, fl_tok_str(t, &t->v[lit]), t->v[lit].slen);
						p = (size_t)(q - s);
						continue;
					}
				} else if (q) {
					seen++;
				}
				fl_buf_putc(&out, s[p]);
			}
			free(msg);
			msg = fl_xstrdup(fl_buf_cstr(&out));
			fl_buf_free(&out);
			at = outer;
		}
		if (msg && !tag) {
			/* formatted and written out: to standard error when the
			 * body says so (`stderr().lock().write_all(...)`) */
			for (size_t j = open + 1; j < close && !tag; j++)
				if (fl_tok_is_ident(t, j, "stderr"))
					tag = RK_PRINT;
		}
		if (msg && tag) {
			if (tag == RK_PRINT)
				tag = print_level(t, name);
			fl_msg_trim(msg);
			char *key = fl_xasprintf("mac:%.*s", (int)t->v[name].len, t->src + t->v[name].off);
			if (!named_factory(st->part, key)) {
				fl_factory f = {.name = key, .msg = msg, .tag = tag};
				fl_factories_add(st->part, &f);
				return;
			}
			free(key);
		}
		free(msg);
		return;
	}
}

bool rs_rule_macro_reporter(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if ((!st->tree && !st->log) || !fl_tok_is_opener(t, i + 2) || st->m[i + 2] == NONE)
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, i + 2, sb, se);
	if (na == 0 || se[0] != sb[0] + 1 || t->v[sb[0]].kind != FL_TK_STRING)
		return false;
	char name[128];
	int n = snprintf(name, sizeof name, "mac:%.*s", (int)t->v[i].len, t->src + t->v[i].off);
	if (n <= 0 || (size_t)n >= sizeof name)
		return false;
	if (st->log) {
		rs_log_lookup(st, name, (size_t)n, 0, UINT32_MAX);
		return false;
	}
	const fl_factory *f = fl_factories_find(st->tree, name, (size_t)n, 0);
	const char *slot = f && f->msg && f->tag ? strchr(f->msg, '\x01') : NULL;
	if (!slot)
		return false;
	char *fmt = rs_msg(t, st->m, sb[0], se[0], true, 0);
	if (!fmt)
		return false;
	char *msg = fl_xasprintf("%.*s%s%s", (int)(slot - f->msg), f->msg, fmt, slot + 1);
	free(fmt);
	fl_msg_trim(msg);
	char idiom[140];
	snprintf(idiom, sizeof idiom, "%s!", name + 4);
	emit_tagged(st, i, f, msg, idiom);
	free(msg);
	return true;
}
