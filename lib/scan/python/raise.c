/*
 * raise.c — the Python raise rules (lib/scan/python/, python.h): `raise
 * X(...)` (HTTP exceptions with their status, validation errors, a class's
 * default message or its __init__'s, `raise SomeError.from_config(...)`),
 * `return X(...)` in a function that makes errors for others to raise, and
 * `assert test, message`.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "../sites.h"
#include "python.h"

/* An exception that steers the program rather than reports an error (no
 * traceback is printed for it, or it ends a loop): SystemExit(2) after a
 * message printed, StopIteration... */
static bool control_flow(const char *cls)
{
	static const char *const names[] = {"SystemExit", "KeyboardInterrupt", "GeneratorExit",
					    "StopIteration", "StopAsyncIteration"};
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
		if (strcmp(cls, names[k]) == 0)
			return true;
	return false;
}

/* ---- HTTP exceptions -------------------------------------------------------- */

static const struct {
	const char *name;
	int status;
} http_classes[] = {
	{"BadRequest", 400}, {"Unauthorized", 401}, {"Forbidden", 403},
	{"NotFound", 404}, {"MethodNotAllowed", 405}, {"NotAcceptable", 406},
	{"RequestTimeout", 408}, {"Conflict", 409}, {"Gone", 410},
	{"PreconditionFailed", 412}, {"RequestEntityTooLarge", 413},
	{"UnsupportedMediaType", 415}, {"UnprocessableEntity", 422},
	{"TooManyRequests", 429}, {"InternalServerError", 500},
	{"NotImplemented", 501}, {"BadGateway", 502},
	{"ServiceUnavailable", 503}, {"GatewayTimeout", 504},
	{"Http404", 404}, {"NotAuthenticated", 401},
	{"AuthenticationFailed", 401},
	{"Throttled", 429}, {"HTTPNotFound", 404}, {"HTTPBadRequest", 400},
	{"HTTPForbidden", 403}, {"HTTPUnauthorized", 401},
	{"HTTPConflict", 409}, {"HTTPInternalServerError", 500},
	{NULL, 0}};

static int http_class_status(const char *s, size_t n, bool *is_http)
{
	*is_http = false;
	if ((n == 13 && memcmp(s, "HTTPException", 13) == 0) ||
	    (n == 9 && memcmp(s, "HTTPError", 9) == 0)) {
		*is_http = true;
		return 0;
	}
	for (int k = 0; http_classes[k].name; k++) {
		if (strlen(http_classes[k].name) == n &&
		    memcmp(http_classes[k].name, s, n) == 0) {
			*is_http = true;
			return http_classes[k].status;
		}
	}
	return 0;
}

/* status from a NUMBER token or an ident like HTTP_404_NOT_FOUND */
int py_status_of(const fl_toks *t, size_t b, size_t e)
{
	if (e <= b)
		return 0;
	size_t k = e - 1;
	const char *s = t->src + t->v[k].off;
	size_t n = t->v[k].len;
	if (t->v[k].kind == FL_TK_NUMBER && e - b == 1 && n == 3) {
		int v = (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
		if (v >= 100 && v <= 599 && s[1] >= '0' && s[1] <= '9' &&
		    s[2] >= '0' && s[2] <= '9')
			return v;
		return 0;
	}
	if (t->v[k].kind == FL_TK_IDENT && n >= 8 && memcmp(s, "HTTP_", 5) == 0 &&
	    s[5] >= '1' && s[5] <= '5' && s[6] >= '0' && s[6] <= '9' &&
	    s[7] >= '0' && s[7] <= '9')
		return (s[5] - '0') * 100 + (s[6] - '0') * 10 + (s[7] - '0');
	return 0;
}

/* ---- raise, return, assert ---------------------------------------------------- */

/* the keywords that pass a message when no argument does (click's
 * FileError(filename=path, hint="...") shows its hint) */
static const char *const msg_kws[] = {"detail", "message", "msg",
				      "description", "reason", "hint", NULL};

/* `assert test, message`: an AssertionError with that message (a
 * statement: at the start of a line, or after ':' or ';') */
void py_do_assert(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	w->var = NONE;
	w->var_fmt = 0;
	free(w->plural);
	w->plural = NULL;
	if (i > 0 && !(t->v[i].flags & FL_TF_NL_BEFORE) && !is_p(t, i - 1, ':') &&
	    !is_p(t, i - 1, ';'))
		return;
	/* the top-level comma of the statement, then its end */
	size_t comma = NONE, e = i + 1;
	while (e < t->n && e - i < 4096) {
		if (e > i + 1 && (t->v[e].flags & FL_TF_NL_BEFORE))
			break;
		if (is_p(t, e, ';'))
			break;
		if (is_p(t, e, ',') && comma == NONE)
			comma = e;
		if (fl_tok_is_opener(t, e)) {
			if (w->m[e] == NONE)
				return;
			e = w->m[e] + 1;
			continue;
		}
		e++;
	}
	if (comma == NONE || comma + 1 >= e)
		return;
	char *msg = py_msg(t, comma + 1, e, false);
	if (!msg && e == comma + 2 && t->v[comma + 1].kind == FL_TK_IDENT)
		w->var = comma + 1; /* a local variable: its assignments */
	/* it fires when its condition is false */
	char *cond = comma > i + 1 ? fl_tok_span_text(t, i + 1, comma, 200) : NULL;
	w->guard = fl_guard_not(cond, true);
	free(cond);
	py_emit(w, i, msg, NULL, "AssertionError", FL_T_EXCEPTION, FL_S_ERROR, 0, "assert");
	free(w->guard);
	w->guard = NULL;
	free(msg);
}

/* Whether the innermost def makes errors for others to raise: its name
 * says so (make_not_authenticated_error, _exception_for) or its return
 * annotation is an exception class (`-> HTTPException`). */
static bool error_factory(const walker *w)
{
	const fl_toks *t = w->t;
	size_t d = py_innermost(w, B_DEF);
	if (d == NONE || w->blk[d].name == NONE)
		return false;
	size_t nm = w->blk[d].name;
	const char *s = t->src + t->v[nm].off;
	size_t n = t->v[nm].len;
	if (contains_ci(s, n, "error") || contains_ci(s, n, "exception"))
		return true;
	/* def name(...) -> Annotation: */
	if (!is_p(t, nm + 1, '(') || w->m[nm + 1] == NONE)
		return false;
	size_t a = w->m[nm + 1] + 1;
	if (!fl_tok_is_punct(t, a, "->"))
		return false;
	size_t last = NONE;
	for (size_t k = a + 1; k < t->n && !is_p(t, k, ':') && k < a + 16; k++)
		if (t->v[k].kind == FL_TK_IDENT)
			last = k;
	if (last == NONE)
		return false;
	s = t->src + t->v[last].off;
	n = t->v[last].len;
	bool http;
	http_class_status(s, n, &http);
	return http || ends_with(s, n, "Error") || ends_with(s, n, "Exception");
}

static void do_raise_as(walker *w, size_t i, const char *idiom);
static void raise_expr(walker *w, size_t i, size_t j, size_t e, const char *idiom);

/* Whether the local w->var names holds texts at i. */
static bool var_texts(walker *w, size_t i)
{
	char *ms[MAXVAR];
	if (w->var == NONE)
		return false;
	size_t n = py_var_msgs(w, i, w->var, w->var_fmt, ms);
	for (size_t q = 0; q < n; q++)
		free(ms[q]);
	return n > 0;
}

/* `raise ArgumentError(action, _('expected one argument'))`,
 * `raise ParseError(token, msg % args)`: the first argument is the object
 * the error is about (no text, nor a local holding one at i), and a later
 * positional argument is the message (of more than one word).  Sets
 * w->var as py_arg_msg() does. */
static char *later_arg_msg(walker *w, const callargs *a, size_t i)
{
	if (var_texts(w, i))
		return NULL; /* the first argument's local holds texts */
	size_t var0 = w->var;
	int fmt0 = w->var_fmt;
	for (size_t k = 1; k < a->npos; k++) {
		w->var = NONE;
		w->var_fmt = 0;
		char *m = py_arg_msg(w, a, a->pos[k], false);
		if (m && !strchr(m, ' ')) {
			/* one word: a field's name, not a message (pip's
			 * MetadataInconsistent(req, "name", a, b)) */
			free(m);
			m = NULL;
		}
		if (m)
			return m;
		if (var_texts(w, i))
			return NULL; /* py_emit() gives its texts */
	}
	w->var = var0;
	w->var_fmt = fmt0;
	return NULL;
}

void py_do_stored(walker *w, size_t i, size_t pb)
{
	w->var = NONE;
	w->var_fmt = 0;
	free(w->plural);
	w->plural = NULL;
	raise_expr(w, pb, pb, w->m[i + 1] + 1, "stored");
}

void py_do_raise(walker *w, size_t i)
{
	do_raise_as(w, i, "raise");
}

/* `return X(...)` in an error factory (error_factory()): an exception made
 * here and raised by the factory's callers (`raise self.make_error()`),
 * recorded as a raise would be (do_raise_as() checks the rest). */
void py_do_return(walker *w, size_t i)
{
	do_raise_as(w, i, "return");
}

/* Whether the file defines `class NAME(...)` with a base named like an
 * exception (`class InvalidInput(ValueError):`).  The file's classes are
 * read once, on the first question (w->exc). */
static bool local_exception_class(walker *w, const char *nm, size_t nl)
{
	const fl_toks *t = w->t;
	const size_t *m = w->m;
	if (!w->exc_found) {
		w->exc_found = true;
		size_t cap = 0;
		for (size_t k = 0; k + 2 < t->n; k++) {
			if ((k > 0 && !(t->v[k].flags & FL_TF_NL_BEFORE)) || !fl_tok_is_ident(t, k, "class") ||
			    t->v[k + 1].kind != FL_TK_IDENT || !is_p(t, k + 2, '(') || m[k + 2] == NONE)
				continue;
			bool exc = false;
			for (size_t b = k + 3; b < m[k + 2] && !exc; b++)
				exc = t->v[b].kind == FL_TK_IDENT &&
				      py_excy_name(t->src + t->v[b].off, t->v[b].len);
			if (!exc)
				continue;
			if (w->nexc == cap) {
				cap = cap ? cap * 2 : 16;
				w->exc = fl_xrealloc(w->exc, cap * sizeof *w->exc);
			}
			w->exc[w->nexc++] = k + 1;
		}
	}
	for (size_t k = 0; k < w->nexc; k++)
		if (t->v[w->exc[k]].len == nl && memcmp(t->src + t->v[w->exc[k]].off, nm, nl) == 0)
			return true;
	return false;
}

bool py_stored_exception(walker *w, size_t i, size_t pb)
{
	const fl_toks *t = w->t;
	const char *nm = t->src + t->v[i].off;
	size_t nl = t->v[i].len;
	if (!(nm[0] >= 'A' && nm[0] <= 'Z') || pb < 2 || !is_p(t, i + 1, '(') ||
	    w->m[i + 1] == NONE)
		return false;
	bool stored;
	if (is_p(t, pb - 1, '=')) {
		/* into a subscript or an attribute, not a local (`err = X(...);
		 * raise err` is the raise's, raise.c py_var_ctor) nor a
		 * keyword argument */
		stored = is_p(t, pb - 2, ']') ||
			 (t->v[pb - 2].kind == FL_TK_IDENT && pb >= 3 && is_p(t, pb - 3, '.'));
	} else if (is_p(t, pb - 1, '(')) {
		stored = fl_tok_is_ident(t, pb - 2, "set_exception") ||
			 fl_tok_is_ident(t, pb - 2, "throw");
	} else {
		return false;
	}
	return stored && (py_excy_name(nm, nl) || local_exception_class(w, nm, nl));
}

static void do_raise_as(walker *w, size_t i, const char *idiom)
{
	const fl_toks *t = w->t;
	w->var = NONE;
	w->var_fmt = 0;
	free(w->plural);
	w->plural = NULL;
	size_t j = i + 1;
	if (j >= t->n || (t->v[j].flags & FL_TF_NL_BEFORE) || is_p(t, j, ';'))
		return; /* bare re-raise */
	/* end of the exception expression */
	size_t e = j;
	while (e < t->n) {
		if (e - j > 4096)
			return;
		if (e > j && (t->v[e].flags & FL_TF_NL_BEFORE))
			break;
		if (is_p(t, e, ';') || fl_tok_is_ident(t, e, "from") ||
		    fl_tok_is_ident(t, e, "raise"))
			break;
		if (is_p(t, e, ')') || is_p(t, e, ']') || is_p(t, e, '}'))
			break;
		if (fl_tok_is_opener(t, e)) {
			if (w->m[e] == NONE)
				return;
			e = w->m[e] + 1;
			continue;
		}
		e++;
	}
	raise_expr(w, i, j, e, idiom);
}

/* `raise X(self._undefined_message)` (a property), `raise
 * X(self._describe(key))`, `raise X(describe(kind))`: the texts the file's
 * one def of that name returns (jinja2's Undefined), each a site of the
 * raise; a return of no text (`return self._hint`) gives none.  Appends to
 * out; how many. */
static size_t returned_texts(walker *w, size_t b, size_t e, fl_strv *out)
{
	const fl_toks *t = w->t;
	size_t nm;
	if (e == b + 3 && (fl_tok_is_ident(t, b, "self") || fl_tok_is_ident(t, b, "cls")) &&
	    is_p(t, b + 1, '.') && t->v[b + 2].kind == FL_TK_IDENT)
		nm = b + 2;
	else if (e >= b + 5 && (fl_tok_is_ident(t, b, "self") || fl_tok_is_ident(t, b, "cls")) &&
		 is_p(t, b + 1, '.') && t->v[b + 2].kind == FL_TK_IDENT && is_p(t, b + 3, '(') &&
		 w->m[b + 3] == e - 1)
		nm = b + 2;
	else if (e >= b + 3 && t->v[b].kind == FL_TK_IDENT && is_p(t, b + 1, '(') &&
		 w->m[b + 1] == e - 1 && (b == 0 || !is_p(t, b - 1, '.')))
		nm = b;
	else
		return 0;
	if (t->v[nm].len < 3)
		return 0;
	size_t lo = py_file_def(w, nm);
	if (lo == NONE)
		return 0;
	size_t body, end;
	if (!py_def_body(t, lo, w->m[lo + 2], 2000, false, &body, &end))
		return 0;
	size_t added = 0;
	for (size_t q = body; q < end && out->n < 8; q++) {
		if (!fl_tok_is_ident(t, q, "return") || !(t->v[q].flags & FL_TF_NL_BEFORE))
			continue;
		size_t re = q + 1;
		while (re < end && !(t->v[re].flags & FL_TF_NL_BEFORE))
			re = fl_tok_is_opener(t, re) && w->m[re] != NONE && w->m[re] > re ? w->m[re] + 1 : re + 1;
		char *m = re > q + 1 && py_range_ok(t, q + 1, re) ? py_msg(t, q + 1, re, false) : NULL;
		if (m && fl_msg_plain_letters(m) >= 6 && fl_strv_push_new(out, m))
			added++;
		free(m);
	}
	return added;
}

/* Whether the name at token k is a parameter of the innermost def. */
static bool def_param(const walker *w, size_t k)
{
	size_t b = py_innermost(w, B_DEF);
	if (b == NONE || w->blk[b].name == NONE)
		return false;
	const fl_toks *t = w->t;
	size_t open = w->blk[b].name + 1, st[FL_FAC_PARAMS], en[FL_FAC_PARAMS], close;
	if (!is_p(t, open, '('))
		return false;
	size_t n = py_split_args(t, w->m, open, st, en, FL_FAC_PARAMS, &close);
	for (size_t q = 0; n != NONE && q < n; q++)
		if (t->v[st[q]].kind == FL_TK_IDENT && t->v[st[q]].len == t->v[k].len &&
		    memcmp(t->src + t->v[st[q]].off, t->src + t->v[k].off, t->v[k].len) == 0)
			return true;
	return false;
}

/* The class a call at open is given among its positional arguments, a
 * name (`UnexpectedCharError`, `exc.EmptyKeyError`) of a class the tree
 * knows a message for; NULL for none.  Caller frees. */
static char *class_arg(walker *w, size_t open)
{
	callargs a;
	size_t close;
	if (!py_get_args(w, open, &a, &close))
		return NULL;
	const fl_toks *t = w->t;
	for (size_t q = 0; q < a.npos; q++) {
		size_t b = a.st[a.pos[q]], e = a.en[a.pos[q]], k = b;
		while (k + 2 < e && t->v[k].kind == FL_TK_IDENT && is_p(t, k + 1, '.'))
			k += 2;
		if (k + 1 != e || t->v[k].kind != FL_TK_IDENT || t->v[k].len > 120 ||
		    !(t->src[t->v[k].off] >= 'A' && t->src[t->v[k].off] <= 'Z'))
			continue;
		char *name = fl_tok_dup(t, k);
		const char *dm, *dc;
		int ds;
		if (py_tree_find(w, name, &dm, &dc, &ds) && dm)
			return name;
		free(name);
	}
	return NULL;
}

/* Whether class cls sets its message in __init__ unless given one
 * (classes.c init_dflt: `if message is None: message = f"..."`) and the
 * call's arguments a give that parameter nothing, by position or name
 * (jinja's `raise TemplatesNotFound(names)`). */
static bool default_kept(const walker *w, const char *cls, const callargs *a)
{
	char key[220];
	snprintf(key, sizeof key, "dflt:%s", cls);
	const char *d = py_tree_params(w, key);
	const char *nl = d ? strchr(d, '\n') : NULL;
	if (!nl)
		return false;
	unsigned long pos = strtoul(nl + 1, NULL, 10);
	if (a->npos > pos)
		return false;
	const fl_toks *t = w->t;
	for (size_t k = 0; k < a->n; k++) {
		size_t kw = a->kw[k];
		if (kw != NONE && t->v[kw].len == (size_t)(nl - d) &&
		    memcmp(t->src + t->v[kw].off, d, t->v[kw].len) == 0)
			return false;
		if (is_p(t, a->st[k], '*') || fl_tok_is_punct(t, a->st[k], "**"))
			return false; /* *args, **kwargs: anything */
	}
	return true;
}

/* What a raise says as it is read (raise_expr): its class, message,
 * code, HTTP status, and the texts a def it calls returns. */
struct raise_st {
	char *cls, *msg, *code;
	bool upper, is_http;
	bool dflt; /* the class's __init__ sets the message: the raise gives
		      no value to the parameter that would replace it */
	int status;
	fl_strv rtexts;
};

/* The message of the call `X(args)` opening at p (raise_expr): an HTTP
 * exception's status and detail, a tree class's __init__ composed with
 * the arguments, else the message argument, a keyword, a later argument,
 * a key of the class's messages or the texts a def of the file returns.
 * False when the arguments cannot be read. */
static bool args_message(walker *w, size_t i, size_t j, size_t p, const char *cn, size_t cl,
			 const char *idiom, struct raise_st *r)
{
	const fl_toks *t = w->t;
	callargs a;
	size_t close;
	if (!py_get_args(w, p, &a, &close))
		return false;
	r->code = py_code_kw(w, &a);
	if (r->is_http) {
		size_t sk = py_kwarg(t, &a, "status_code");
		if (sk == NONE)
			sk = py_kwarg(t, &a, "status");
		if (sk == NONE)
			sk = py_kwarg(t, &a, "code");
		size_t mpos = 0;
		if (sk != NONE) {
			r->status = py_status_of(t, a.st[sk], a.en[sk]);
		} else if (a.npos > 0 && py_status_of(t, a.st[a.pos[0]], a.en[a.pos[0]])) {
			r->status = py_status_of(t, a.st[a.pos[0]], a.en[a.pos[0]]);
			mpos = 1;
		}
		if (a.npos > mpos)
			r->msg = py_arg_msg(w, &a, a.pos[mpos], false);
		if (!r->msg)
			r->msg = py_kw_msg(w, &a, msg_kws);
		if (!r->msg && a.n == 0 && r->upper)
			r->msg = fl_xstrdup(r->cls);
	} else if (r->cls && py_tree_params(w, r->cls)) {
		/* the class's __init__ builds the message from these */
		const char *dm, *dc;
		int ds;
		if (py_tree_find(w, r->cls, &dm, &dc, &ds) && dm)
			r->msg = py_class_decorate(w, r->cls,
						   py_compose_init(w, dm, py_tree_params(w, r->cls), &a));
	} else {
		size_t mk = a.npos > 0 ? a.pos[0] : NONE;
		if (cl == 19 && memcmp(cn, "PydanticCustomError", 19) == 0)
			mk = a.npos > 1 ? a.pos[1] : NONE;
		r->msg = py_arg_msg(w, &a, mk, false);
		if (!r->msg && mk != NONE && a.en[mk] > a.st[mk] + 2 && is_p(t, a.st[mk], '[') &&
		    w->m[a.st[mk]] == a.en[mk] - 1) {
			/* `raise CompileError([f"mypy: can't find module
			 * '{id}'"])`: a list of one message */
			size_t sb = a.st[mk] + 1, se = a.en[mk] - 1;
			if (se > sb && is_p(t, se - 1, ','))
				se--;
			bool one = true;
			for (size_t q = sb; q < se && one; q++) {
				if (fl_tok_is_opener(t, q) && w->m[q] != NONE)
					q = w->m[q];
				else if (is_p(t, q, ','))
					one = false;
			}
			if (one && py_range_ok(t, sb, se))
				r->msg = py_msg(t, sb, se, false);
		}
		if (!r->msg)
			r->msg = py_kw_msg(w, &a, msg_kws);
		if (!r->msg && r->upper && a.npos > 1 && mk == a.pos[0])
			r->msg = later_arg_msg(w, &a, i);
		/* `raise self.make_error("invalid")`: a key of the class's
		 * messages; `self.error_messages["invalid"]` */
		bool by_key = !r->upper && fl_tok_is_ident(t, j, "self") && r->msg && !strchr(r->msg, ' ');
		if ((by_key || !r->msg) && mk != NONE && strcmp(idiom, "raise") == 0 &&
		    py_keyed_texts(w, a.st[mk], a.en[mk], by_key, &r->rtexts)) {
			free(r->msg);
			r->msg = NULL;
		}
		if (!r->msg && !r->rtexts.n && mk != NONE && strcmp(idiom, "raise") == 0)
			returned_texts(w, a.st[mk], a.en[mk], &r->rtexts);
		if (!r->msg && a.n == 0 && r->upper)
			r->msg = fl_xstrdup(r->cls);
		if (!r->msg && !r->rtexts.n && r->cls && default_kept(w, r->cls, &a)) {
			/* `raise TemplatesNotFound(names)`: what it is given
			 * is not the message */
			r->dflt = true;
			w->var = NONE;
			w->var_fmt = 0;
		}
	}
	return true;
}

/* No message of its own (or only the class name): the class's default
 * message, when a class of the tree declares one, with its code and
 * status. */
static void class_default(walker *w, struct raise_st *r)
{
	if (!r->cls || (r->msg && strcmp(r->msg, r->cls) != 0) || (w->var != NONE && !r->dflt))
		return;
	const char *dm = NULL, *dc = NULL;
	int ds = 0;
	if (!py_tree_find(w, r->cls, &dm, &dc, &ds) || !dm)
		return;
	free(r->msg);
	r->msg = py_class_decorate(w, r->cls, fl_xstrdup(dm));
	if (!r->code && dc)
		r->code = fl_xstrdup(dc);
	if (!r->is_http && ds >= 400 && ds <= 599) {
		r->is_http = true;
		r->status = ds;
	}
}

/* No text of its own, or one word (`raise MissingRequiredClaimError(
 * "aud")`: a field, not the message): a class whose __str__ returns texts
 * shows one of them (`raise CalledProcessError(retcode, cmd)`), a site per
 * text, the raise before the class's returns.  True when it emitted. */
static bool class_texts(walker *w, size_t i, const char *idiom, const char *type, const char *sev,
			const struct raise_st *r)
{
	if (!r->cls || (r->msg && strcmp(r->msg, r->cls) != 0 && strchr(r->msg, ' ')) ||
	    var_texts(w, i) || strcmp(idiom, "raise") != 0 || strlen(r->cls) >= 200)
		return false;
	char key[220];
	const char *texts = NULL, *dc = NULL;
	int ds = 0;
	snprintf(key, sizeof key, "strs:%s", r->cls);
	if (!py_tree_find(w, key, &texts, &dc, &ds) || !texts)
		return false;
	for (const char *p = texts; *p;) {
		const char *q = strchr(p, PY_TEXT_SEP);
		size_t l = q ? (size_t)(q - p) : strlen(p);
		char *one = fl_xstrndup(p, l);
		py_emit1(w, i, one, r->code, r->cls, type, sev, r->is_http ? r->status : 0, idiom);
		free(one);
		p += l + (q ? 1 : 0);
	}
	return true;
}

/* The raise (or return) at i of the exception expression [j, e). */
static void raise_expr(walker *w, size_t i, size_t j, size_t e, const char *idiom)
{
	const fl_toks *t = w->t;
	struct raise_st r = {0};
	w->var = NONE;
	w->var_fmt = 0;
	/* dotted callee */
	size_t p = j;
	if (t->v[p].kind != FL_TK_IDENT)
		return;
	size_t last = p;
	while (p + 2 < e && is_p(t, p + 1, '.') &&
	       t->v[p + 2].kind == FL_TK_IDENT) {
		p += 2;
		last = p;
	}
	p++;
	const char *cn = t->src + t->v[last].off;
	size_t cl = t->v[last].len;
	/* `raise SomeError.from_config(path)`: an alternative constructor of
	 * the class; its arguments are not the message */
	bool altctor = false;
	if (last >= j + 2 && !(cn[0] >= 'A' && cn[0] <= 'Z') && is_p(t, p, '(') &&
	    t->src[t->v[last - 2].off] >= 'A' && t->src[t->v[last - 2].off] <= 'Z') {
		const char *bn = t->src + t->v[last - 2].off, *dm, *dc;
		size_t bl = t->v[last - 2].len;
		int ds;
		char *name = fl_xstrndup(bn, bl);
		/* named like an exception, or a class of the tree with a message */
		altctor = py_excy_name(bn, bl) || py_tree_find(w, name, &dm, &dc, &ds);
		free(name);
		if (altctor) {
			cn = bn;
			cl = bl;
		}
	}
	/* `raise suffixed_err(src, pos, "Unclosed array")`: an error
	 * factory of the tree given its message */
	if (!(cn[0] >= 'A' && cn[0] <= 'Z') && !altctor && strcmp(idiom, "raise") == 0 &&
	    is_p(t, p, '(') && py_raiser_call(w, last, j, true))
		return;
	r.upper = cn[0] >= 'A' && cn[0] <= 'Z';
	r.status = http_class_status(cn, cl, &r.is_http);
	/* a return is a site only when it calls an exception class (its name
	 * ends in Error or Exception, or an HTTP exception) in an error
	 * factory */
	if (strcmp(idiom, "return") == 0 &&
	    (!r.upper || !is_p(t, p, '(') ||
	     !(r.is_http || ends_with(cn, cl, "Error") || ends_with(cn, cl, "Exception")) ||
	     !error_factory(w)))
		return;
	/* `raise ErrorClass(message)` of a parameter: the class is the
	 * caller's, not a class of that name */
	r.cls = r.upper && !(last == j && def_param(w, j)) ? fl_xstrndup(cn, cl) : NULL;
	bool valid = ends_with(cn, cl, "ValidationError") ||
		     (cl == 19 && memcmp(cn, "PydanticCustomError", 19) == 0);
	const char *type = FL_T_EXCEPTION, *sev = FL_S_ERROR;
	if (p == e) {
		/* raise X */
		if (!r.upper) {
			size_t cb, ce;
			if (strcmp(idiom, "raise") == 0 && e == j + 1 &&
			    py_var_ctor(w, i, j, &cb, &ce))
				raise_expr(w, i, cb, ce, idiom); /* err = Cls(...); raise err */
			else if (strcmp(idiom, "raise") == 0)
				py_fac_raise(w, i, j, e);
			goto done;
		}
		r.msg = fl_xstrdup(r.cls);
	} else if (altctor) {
		r.msg = fl_xstrdup(r.cls);
	} else if (!is_p(t, p, '(') || !args_message(w, i, j, p, cn, cl, idiom, &r)) {
		goto done;
	}
	/* `raise self._make_error(...)`: the factory's messages */
	if (!r.upper && !r.msg && strcmp(idiom, "raise") == 0 && py_fac_raise(w, i, j, e)) {
		w->var = NONE;
		w->var_fmt = 0;
		goto done;
	}
	/* `raise self.parse_error(UnexpectedCharError, c)`: a helper given
	 * the class to make, whose message the tree knows */
	if (!r.upper && !r.msg && !r.cls && strcmp(idiom, "raise") == 0 && is_p(t, p, '(') &&
	    (r.cls = class_arg(w, p)) != NULL) {
		w->var = NONE;
		w->var_fmt = 0;
	}
	class_default(w, &r);
	if (r.is_http) {
		type = FL_T_HTTP;
		sev = fl_http_severity(r.status);
	} else if (valid) {
		type = FL_T_VALIDATION;
		sev = FL_S_WARNING;
	}
	if (class_texts(w, i, idiom, type, sev, &r))
		goto done;
	if (r.rtexts.n && (!r.msg || (r.cls && strcmp(r.msg, r.cls) == 0))) {
		for (size_t k = 0; k < r.rtexts.n; k++)
			py_emit1(w, i, r.rtexts.v[k], r.code, r.cls, type, sev, 0, idiom);
		goto done;
	}
	/* a stored exception is a site by its own text only */
	if (strcmp(idiom, "stored") == 0 && w->var == NONE &&
	    (!r.msg || (r.cls && strcmp(r.msg, r.cls) == 0)))
		goto done;
	size_t before = w->out->n;
	py_emit(w, i, r.msg, r.code, r.cls, type, sev, r.is_http ? r.status : 0, idiom);
	/* no text known (a variable's, a value passed on: `raise
	 * ValueError(msg)`, `raise KeyError(key)`, `raise X(e) from e`): the
	 * class alone, as a JVM throw of a variable's text; a traceback
	 * whose frame names the line tells it (lookup.c's class_at_frames) */
	if (w->out->n == before && r.cls && !r.code && strcmp(idiom, "raise") == 0 &&
	    !control_flow(r.cls))
		py_emit1(w, i, r.cls, NULL, r.cls, type, sev, r.is_http ? r.status : 0, idiom);
done:
	fl_strv_free(&r.rtexts);
	free(r.cls);
	free(r.msg);
	free(r.code);
}
