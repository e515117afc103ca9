/*
 * rules.c — the PHP rules (lib/scan/php/, php.h): throw new X(..), throw
 * X::factory(..), ValidationException::withMessages, trigger_error, abort /
 * abort_if / abort_unless, die / exit, error_log and writes to STDERR,
 * Symfony createNotFoundException / *HttpException, console output
 * (writeError / writeln with style tags); the frames (class, function,
 * control block) that give a site its function and its guard, and the
 * sites emitted.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "php.h"

/* ---- HTTP statuses ------------------------------------------------------- */

static int http_by_name(const char *n)
{
	static const struct {
		const char *name;
		int code;
	} tab[] = {
		{"BadRequestHttpException", 400},
		{"UnauthorizedHttpException", 401},
		{"AccessDeniedHttpException", 403},
		{"NotFoundHttpException", 404},
		{"MethodNotAllowedHttpException", 405},
		{"NotAcceptableHttpException", 406},
		{"ConflictHttpException", 409}, {"GoneHttpException", 410},
		{"LengthRequiredHttpException", 411},
		{"PreconditionFailedHttpException", 412},
		{"UnsupportedMediaTypeHttpException", 415},
		{"UnprocessableEntityHttpException", 422},
		{"TooManyRequestsHttpException", 429},
		{"ServiceUnavailableHttpException", 503},
		/* Response::HTTP_X */
		{"HTTP_BAD_REQUEST", 400}, {"HTTP_UNAUTHORIZED", 401},
		{"HTTP_PAYMENT_REQUIRED", 402}, {"HTTP_FORBIDDEN", 403},
		{"HTTP_NOT_FOUND", 404}, {"HTTP_METHOD_NOT_ALLOWED", 405},
		{"HTTP_CONFLICT", 409}, {"HTTP_GONE", 410},
		{"HTTP_UNPROCESSABLE_ENTITY", 422},
		{"HTTP_TOO_MANY_REQUESTS", 429},
		{"HTTP_INTERNAL_SERVER_ERROR", 500},
		{"HTTP_NOT_IMPLEMENTED", 501}, {"HTTP_BAD_GATEWAY", 502},
		{"HTTP_SERVICE_UNAVAILABLE", 503},
	};
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
		if (strcmp(tab[i].name, n) == 0)
			return tab[i].code;
	return 0;
}

/* Slim's HTTP exceptions, new HttpNotFoundException($request[, $message]):
 * the status and the default message of each */
static const struct {
	const char *name;
	int code;
	const char *msg;
} slim_http[] = {
	{"HttpBadRequestException", 400, "Bad request."},
	{"HttpUnauthorizedException", 401, "Unauthorized."},
	{"HttpForbiddenException", 403, "Forbidden."},
	{"HttpNotFoundException", 404, "Not found."},
	{"HttpMethodNotAllowedException", 405, "Method not allowed."},
	{"HttpGoneException", 410, "Gone."},
	{"HttpTooManyRequestsException", 429, "Too many requests."},
	{"HttpInternalServerErrorException", 500, "Internal server error."},
	{"HttpNotImplementedException", 501, "Not implemented."},
};

static int status_of(const ctx *c, size_t b, size_t e)
{
	if (e == b + 1 && is_kind(c, b, FL_TK_NUMBER)) {
		const fl_tok *k = &c->t.v[b];
		if (k->len != 3)
			return 0;
		const char *s = c->t.src + k->off;
		int v = 0;
		for (int i = 0; i < 3; i++) {
			if (s[i] < '0' || s[i] > '9')
				return 0;
			v = v * 10 + (s[i] - '0');
		}
		return v;
	}
	if (e > b && is_kind(c, e - 1, FL_TK_IDENT)) {
		char *n = fl_tok_dup(&c->t, e - 1);
		int v = http_by_name(n);
		free(n);
		return v;
	}
	return 0;
}

/* ---- frames -------------------------------------------------------------- */

static frame *top(ctx *c)
{
	return c->nfr ? &c->fr[c->nfr - 1] : NULL;
}

static bool is_ctl_kw(const ctx *c, size_t i)
{
	static const char *const kw[] = {
		"if", "elseif", "for", "foreach", "while", "switch", "catch",
		"function", "fn", "use", "return", "match", "array", "list",
		"isset", "empty", "unset", "declare", "new", "else", "echo",
		"print", "and", "or", NULL};
	if (!is_kind(c, i, FL_TK_IDENT) || c->t.src[c->t.v[i].off] == '$')
		return true;
	for (const char *const *k = kw; *k; k++)
		if (fl_tok_is(&c->t, i, *k))
			return true;
	return false;
}

static size_t params_close(const ctx *c, size_t i)
{
	if (i == 0)
		return NONE;
	if (is_p(c, i - 1, ")"))
		return i - 1;
	for (size_t k = i - 1, n = 0; k > 0 && n < 12; k--, n++) {
		if (is_p(c, k, ";") || is_p(c, k, "{") || is_p(c, k, "}"))
			return NONE;
		if (is_p(c, k, ")") && is_p(c, k + 1, ":"))
			return k;
	}
	return NONE;
}

/* The condition of the if whose else is token e (`if (c) { ... } else`,
 * the last if or elseif of a chain): what follows e runs when it does not
 * hold.  [*gb, *ge) are its tokens. */
static bool else_cond(const ctx *c, size_t e, size_t *gb, size_t *ge)
{
	if (e < 4 || !is_id(c, e, "else") || !is_p(c, e - 1, "}"))
		return false;
	size_t o = c->match[e - 1];
	if (o >= e - 1 || o < 3 || !is_p(c, o - 1, ")"))
		return false;
	size_t q = c->match[o - 1];
	if (q >= o - 1 || q == 0 || q + 1 >= o - 1 ||
	    !(is_id(c, q - 1, "if") || is_id(c, q - 1, "elseif")))
		return false;
	*gb = q + 1;
	*ge = o - 1;
	return true;
}

static void push_frame(ctx *c, size_t i)
{
	if (c->nfr == c->capfr) {
		c->capfr = c->capfr ? c->capfr * 2 : 32;
		c->fr = fl_xrealloc(c->fr, c->capfr * sizeof *c->fr);
	}
	frame *p = top(c);
	frame f = {0, p ? p->name : NONE, p ? p->cls : NONE, NONE, NONE, false};
	if (i > 0) {
		for (size_t k = i - 1, n = 0; n < 24; k--, n++) {
			if (is_p(c, k, ";") || is_p(c, k, "{") ||
			    is_p(c, k, "}") || is_p(c, k, "(") || is_p(c, k, ")"))
				break;
			if ((is_id(c, k, "class") || is_id(c, k, "interface") ||
			     is_id(c, k, "trait") || is_id(c, k, "enum")) &&
			    !(k > 0 && is_p(c, k - 1, "::"))) {
				f.kind = 2;
				f.cls = is_kind(c, k + 1, FL_TK_IDENT) &&
						!is_id(c, k + 1, "extends") &&
						!is_id(c, k + 1, "implements")
					? k + 1
					: NONE;
				f.name = NONE;
				goto done;
			}
			if (k == 0)
				break;
		}
		size_t pc = params_close(c, i);
		if (pc != NONE && c->match[pc] < c->t.n && c->match[pc] > 0) {
			size_t o = c->match[pc], q = o - 1;
			if (is_id(c, q, "if") || is_id(c, q, "elseif") ||
			    is_id(c, q, "while")) {
				f.kind = 3;
				f.gb = o + 1;
				f.ge = pc;
				goto done;
			}
			if (is_kind(c, q, FL_TK_IDENT) && !is_ctl_kw(c, q) && q > 0 &&
			    (is_id(c, q - 1, "function") ||
			     (is_p(c, q - 1, "&") && q > 1 &&
			      is_id(c, q - 2, "function")))) {
				f.kind = 1;
				f.name = q;
				f.cls = (p && p->kind == 2) ? p->cls : NONE;
				goto done;
			}
		}
		if (else_cond(c, i - 1, &f.gb, &f.ge)) {
			/* } else { */
			f.kind = 3;
			f.neg = true;
		}
	}
done:
	c->fr[c->nfr++] = f;
}

static char *func_name(const ctx *c)
{
	if (!c->nfr)
		return NULL;
	const frame *f = &c->fr[c->nfr - 1];
	if (f->name == NONE)
		return NULL;
	char *n = fl_tok_dup(&c->t, f->name);
	if (f->cls == NONE)
		return n;
	char *cl = fl_tok_dup(&c->t, f->cls);
	char *r = fl_xjoin(cl, "::", n);
	free(cl);
	free(n);
	return r;
}

/* msg with each {PHP_EOL} the line break it prints, or NULL when it has
 * none.  Caller frees. */
static char *eol_dup(const char *msg)
{
	if (!strstr(msg, "{PHP_EOL}"))
		return NULL;
	fl_buf b = {0};
	for (const char *p = msg; *p;) {
		if (strncmp(p, "{PHP_EOL}", 9) == 0) {
			fl_buf_putc(&b, '\n');
			p += 9;
		} else {
			fl_buf_putc(&b, *p++);
		}
	}
	fl_buf_cstr(&b);
	return b.s;
}

/* Frame f is an if's (or elseif's) block, or its else's. */
static bool frame_is_if(const ctx *c, const frame *f)
{
	return f->kind == 3 && f->gb != NONE && f->ge > f->gb &&
	       (f->neg ||
		(f->gb >= 2 && (is_id(c, f->gb - 2, "if") || is_id(c, f->gb - 2, "elseif"))));
}

static char *guard_if_at(const ctx *c, size_t at)
{
	/* the frame around the guard's if: another if's block adds its
	 * condition (fl_guard_nest) */
	const frame *outer = c->nfr ? &c->fr[c->nfr - 1] : NULL;
	char *g;
	bool is_if;
	if (at > 1 && is_id(c, at - 1, "return"))
		at--;
	if (at > 0 && is_p(c, at - 1, ")") && c->match[at - 1] < c->t.n) {
		size_t o = c->match[at - 1];
		if (!(o > 0 && (is_id(c, o - 1, "if") || is_id(c, o - 1, "elseif") ||
				is_id(c, o - 1, "while"))))
			return NULL;
		g = fl_tok_span_text(&c->t, o + 1, at - 1, 200);
		is_if = !is_id(c, o - 1, "while");
	} else {
		size_t gb, ge;
		bool neg = false;
		if (at > 0 && is_id(c, at - 1, "else")) {
			/* } else throw ...; */
			if (!else_cond(c, at - 1, &gb, &ge))
				return NULL;
			neg = true;
			is_if = true;
		} else {
			if (!c->nfr)
				return NULL;
			const frame *f = &c->fr[c->nfr - 1];
			if (f->kind != 3 || f->gb == NONE)
				return NULL;
			gb = f->gb;
			ge = f->ge;
			neg = f->neg;
			is_if = frame_is_if(c, f);
			outer = c->nfr > 1 ? &c->fr[c->nfr - 2] : NULL;
		}
		g = fl_guard_span(&c->t, gb, ge, neg, false);
	}
	if (g && *g && is_if && outer && frame_is_if(c, outer))
		g = fl_guard_nest(fl_guard_span(&c->t, outer->gb, outer->ge, outer->neg, false), g,
				  false);
	return g;
}

/* The guard of a site at token at: the if around it, else its switch's
 * case, else the early exits of its block (fl_early_guard; *early says
 * so) */
static char *guard_at(const ctx *c, size_t at, bool *early)
{
	char *g = guard_if_at(c, at), *sw = fl_switch_guard(&c->t, c->match, at);
	*early = false;
	/* no if around it: the early exits before it in its block */
	if (!g) {
		g = fl_early_guard(&c->t, c->match, at);
		*early = g != NULL;
	}
	/* an if of the case's own around it: both hold */
	if (g && sw)
		return fl_guard_nest(sw, g, false);
	return g ? g : sw;
}

static void emit_g(ctx *c, size_t at, const char *msg, const char *code,
		   const char *cls, const char *type, const char *sev, int http,
		   const char *idiom, const char *guard)
{
	if (((!msg || !*msg) && !code) || c->part)
		return;
	/* PHP_EOL joined into a message is the line break it prints */
	char *eol = msg ? eol_dup(msg) : NULL;
	if (eol)
		msg = eol;
	char *fn = func_name(c);
	bool early = false;
	char *g = guard ? fl_xstrdup(guard) : guard_at(c, at, &early);
	fl_site s = {.line = c->t.v[at].line,
		     .col = c->t.v[at].col,
		     .message = msg,
		     .code = code,
		     .cls = cls,
		     .type = type,
		     .severity = sev,
		     .http = http,
		     .function = fn,
		     .guard = g,
		     .early = early,
		     .idiom = idiom};
	fl_site_add(c->out, &s);
	free(fn);
	free(g);
	free(eol);
}

static void emit(ctx *c, size_t at, const char *msg, const char *cls,
		 const char *type, const char *sev, int http, const char *idiom)
{
	emit_g(c, at, msg, NULL, cls, type, sev, http, idiom, NULL);
}

/* ---- site rules ------------------------------------------------------------ */

/* qualified name (\A\B\C or A\B) starting at k: returns the last ident */
size_t php_qname(const ctx *c, size_t k, size_t *after)
{
	size_t last = NONE;
	if (is_p(c, k, "\\"))
		k++;
	while (is_kind(c, k, FL_TK_IDENT) && c->t.src[c->t.v[k].off] != '$') {
		last = k;
		if (is_p(c, k + 1, "\\"))
			k += 2;
		else {
			k++;
			break;
		}
	}
	*after = k;
	return last;
}

/* first string literal value inside the array at open (withMessages) */
static char *array_first_msg(const ctx *c, size_t open)
{
	size_t cl = c->match[open];
	if (cl >= c->t.n)
		return NULL;
	for (size_t k = open + 1; k < cl && k < open + 4000; k++) {
		if (!is_kind(c, k, FL_TK_STRING) || is_p(c, k + 1, "=>"))
			continue;
		size_t e = k + 1;
		while (e < cl && (is_p(c, e, ".") || is_kind(c, e, FL_TK_STRING) ||
				  (is_kind(c, e, FL_TK_IDENT) && is_p(c, e - 1, "."))))
			e++;
		if (k > open + 1 && is_p(c, k - 1, "(") && k >= 2 &&
		    is_kind(c, k - 2, FL_TK_IDENT))
			return php_msg_of(c, k, k + 1);
		return php_msg_of(c, k, e);
	}
	return NULL;
}

/* One lower-case word, snake_case or dotted: a name (client_id,
 * code_verifier, user.email), not a sentence */
static bool data_word(const char *m)
{
	if (!*m)
		return false;
	for (const char *p = m; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		      *p == '.' || *p == '-'))
			return false;
	return true;
}

/* Collect: the messages class cls is thrown with here (alts when
 * several, else msg; both NULL: unknown, a factory's or none).  A
 * message with no text of its own that passes a caught one on
 * ("{getMessage}: {implode}") says nothing of cls's own; any other
 * unknown makes cls's message unknown. */
static void collect_thrown(ctx *c, const char *cls, const fl_strv *alts, const char *msg)
{
	size_t n = alts ? alts->n : 1;
	for (size_t k = 0; k < n; k++) {
		const char *m = alts ? alts->v[k] : msg;
		char *eol = m ? eol_dup(m) : NULL;
		if (eol)
			m = eol;
		if (m && php_has_text(m))
			fl_classdefs_add(c->part->thrown, cls, fl_xstrdup(m), NULL, 0);
		else if (!m || !strstr(m, "{getMessage}"))
			fl_classdefs_add(c->part->thrown, cls, NULL, NULL, 0);
		free(eol);
	}
}

/* The message class cls's constructor gives its parent, as the tree
 * collected it (lang.c's ctor_msg), or NULL (caller frees). */
static char *known_ctor_msg(const ctx *c, const char *cls)
{
	const char *cm, *cc;
	int cs;
	return c->tree && fl_classdefs_find(c->tree->ctor, cls, &cm, &cc, &cs) && cm ? fl_xstrdup(cm)
											: NULL;
}

static void rule_throw(ctx *c, size_t i)
{
	size_t k = i + 1, after;
	bool isnew = is_id(c, k, "new");
	if (isnew)
		k++;
	/* $this->createNotFoundException('..') */
	if (!isnew && is_id(c, k, "$this") && is_p(c, k + 1, "->") &&
	    is_kind(c, k + 2, FL_TK_IDENT) && is_p(c, k + 3, "(")) {
		int st = is_id(c, k + 2, "createNotFoundException")	? 404
			 : is_id(c, k + 2, "createAccessDeniedException") ? 403
									   : 0;
		if (!st)
			return;
		size_t s[2], e[2];
		char *m = NULL;
		if (split_args(c, k + 3, s, e, 2) >= 1)
			m = php_arg_msg(c, s[0], e[0]);
		emit(c, i, m, st == 404 ? "NotFoundHttpException"
				       : "AccessDeniedHttpException",
		     FL_T_HTTP, fl_http_severity(st), st, "throw");
		free(m);
		return;
	}
	size_t clsi = php_qname(c, k, &after);
	if (clsi == NONE)
		return;
	char *cls = fl_tok_dup(&c->t, clsi);
	size_t open = NONE;
	const char *idiom = isnew ? "throw new" : "throw";
	const char *type = FL_T_EXCEPTION, *sev = FL_S_ERROR;
	bool validation = strcmp(cls, "ValidationException") == 0;
	if (isnew && is_p(c, after, "(")) {
		open = after;
	} else if (!isnew && is_p(c, after, "::") &&
		   is_kind(c, after + 1, FL_TK_IDENT) && is_p(c, after + 2, "(")) {
		open = after + 2;
		if (validation && is_id(c, after + 1, "withMessages") && !c->part) {
			size_t s[1], e[1];
			char *m = NULL;
			if (split_args(c, open, s, e, 1) >= 1 &&
			    is_p(c, s[0], "["))
				m = array_first_msg(c, s[0]);
			emit(c, i, m, cls, FL_T_VALIDATION, FL_S_WARNING, 0,
			     "ValidationException::withMessages");
			free(m);
			free(cls);
			return;
		}
	}
	if (open == NONE && !isnew) {
		free(cls);
		return;
	}
	size_t s[8], e[8];
	/* `throw new X;`: no arguments */
	size_t na = open == NONE ? 0 : split_args(c, open, s, e, 8);
	int http = http_by_name(cls);
	size_t first = 0;
	if (strcmp(cls, "UnauthorizedHttpException") == 0 ||
	    strcmp(cls, "ServiceUnavailableHttpException") == 0 ||
	    strcmp(cls, "TooManyRequestsHttpException") == 0)
		first = 1;
	if (strcmp(cls, "HttpException") == 0 && na >= 1) {
		http = status_of(c, s[0], e[0]);
		first = 1;
		/* Slim: new HttpException($request, 'message', 418) */
		if (!http && na >= 3 && is_kind(c, s[0], FL_TK_IDENT) &&
		    c->t.src[c->t.v[s[0]].off] == '$')
			http = status_of(c, s[2], e[2]);
	}
	/* Slim: the request first, then an optional message (else the
	 * class's own) */
	const char *dflt = NULL;
	for (size_t q = 0; isnew && q < sizeof slim_http / sizeof *slim_http; q++) {
		if (strcmp(cls, slim_http[q].name) != 0)
			continue;
		http = slim_http[q].code;
		if (na >= 1 && is_kind(c, s[0], FL_TK_IDENT) &&
		    c->t.src[c->t.v[s[0]].off] == '$') {
			first = 1;
			if (na == 1)
				dflt = slim_http[q].msg;
		}
	}
	char *msg = NULL;
	size_t ma = NONE; /* the message's argument */
	/* named argument message: wins */
	for (size_t a = 0; a < na; a++)
		if (is_id(c, s[a], "message") && is_p(c, s[a] + 1, ":")) {
			free(msg);
			msg = php_arg_msg(c, s[a], e[a]);
			ma = a;
		}
	for (size_t a = first; a < na && !msg; a++) {
		if (is_kind(c, s[a], FL_TK_IDENT) && is_p(c, s[a] + 1, ":"))
			continue;
		if (ma == NONE)
			ma = a;
		msg = php_arg_msg(c, s[a], e[a]);
		if (msg)
			ma = a;
		/* a static factory's lower-case word argument is data, not its
		 * message: OAuthServerException::invalidRequest('client_id')
		 * names the parameter; the factory writes the message */
		if (msg && !isnew && data_word(msg)) {
			free(msg);
			msg = NULL;
		}
	}
	/* the message the class's constructor makes of what it is given
	 * (`throw new UnknownTypeException($type)`) */
	if (!msg && isnew)
		msg = known_ctor_msg(c, cls);
	/* `throw new X;` / `throw new X()`: the class is all there is (its
	 * default message), as in the other languages; with an argument that
	 * is not understood the message is unknown */
	if (!msg && isnew && na == 0)
		msg = fl_xstrdup(cls);
	if (!msg && dflt)
		msg = fl_xstrdup(dflt);
	if (validation) {
		type = FL_T_VALIDATION;
		sev = FL_S_WARNING;
	} else if (http >= 400 && http <= 599) {
		type = FL_T_HTTP;
		sev = fl_http_severity(http);
	} else {
		http = 0;
	}
	/* a message of several texts (branches, a choice): one record each */
	fl_strv alts = {0};
	bool several = ma != NONE && php_arg_alts(c, s[ma], e[ma], &alts);
	if (c->part) {
		collect_thrown(c, cls, isnew && na ? (several ? &alts : NULL) : NULL,
			       isnew && na ? msg : NULL);
	} else if (several) {
		for (size_t k = 0; k < alts.n; k++)
			if (isnew || !data_word(alts.v[k]))
				emit(c, i, alts.v[k], cls, type, sev, http, idiom);
	} else {
		emit(c, i, msg, cls, type, sev, http, idiom);
	}
	fl_strv_free(&alts);
	free(msg);
	free(cls);
}

static void rule_trigger(ctx *c, size_t i)
{
	size_t s[2], e[2];
	size_t na = split_args(c, i + 1, s, e, 2);
	if (na < 1)
		return;
	char *m = php_arg_msg(c, s[0], e[0]);
	const char *sev = FL_S_INFO;
	if (na >= 2 && is_kind(c, e[1] - 1, FL_TK_IDENT)) {
		if (is_id(c, e[1] - 1, "E_USER_ERROR") ||
		    is_id(c, e[1] - 1, "E_ERROR"))
			sev = FL_S_ERROR;
		else if (is_id(c, e[1] - 1, "E_USER_WARNING") ||
			 is_id(c, e[1] - 1, "E_WARNING") ||
			 is_id(c, e[1] - 1, "E_USER_DEPRECATED"))
			sev = FL_S_WARNING;
	}
	emit(c, i, m, NULL, FL_T_CONSOLE, sev, 0,
	     is_id(c, i, "user_error") ? "user_error" : "trigger_error");
	free(m);
}

static void rule_abort(ctx *c, size_t i, int ncond)
{
	size_t s[4], e[4];
	size_t na = split_args(c, i + 1, s, e, 4);
	if (na < (size_t)ncond + 2)
		return;
	int st = status_of(c, s[ncond], e[ncond]);
	if (st < 400 || st > 599)
		return;
	char *m = php_arg_msg(c, s[ncond + 1], e[ncond + 1]);
	char *g = NULL;
	if (ncond) {
		char *cond = fl_tok_span_text(&c->t, s[0], e[0], 200);
		if (is_id(c, i, "abort_unless")) {
			g = fl_xasprintf("!(%s)", cond);
			free(cond);
		} else {
			g = cond;
		}
	}
	char *idiom = fl_tok_dup(&c->t, i);
	emit_g(c, i, m, NULL, NULL, FL_T_HTTP, fl_http_severity(st), st, idiom, g);
	free(idiom);
	free(g);
	free(m);
}

static void rule_simple(ctx *c, size_t i, const char *type, const char *sev)
{
	size_t s[2], e[2];
	size_t na = split_args(c, i + 1, s, e, 2);
	if (na < 1)
		return;
	char *m = php_arg_msg(c, s[0], e[0]);
	char *idiom = fl_tok_dup(&c->t, i);
	emit(c, i, m, NULL, type, sev, 0, idiom);
	free(idiom);
	free(m);
}

/* [b, e) names the standard error stream: STDERR (\STDERR), or the
 * string 'php://stderr' */
static bool stderr_arg(const ctx *c, size_t b, size_t e)
{
	if (b < e && is_p(c, b, "\\"))
		b++;
	if (e != b + 1)
		return false;
	if (is_id(c, b, "STDERR"))
		return true;
	if (!is_kind(c, b, FL_TK_STRING))
		return false;
	const char *v = fl_tok_str(&c->t, &c->t.v[b]);
	return v && strcmp(v, "php://stderr") == 0;
}

/* fwrite(STDERR, "..."), fputs(STDERR, ...), fprintf(STDERR, "...%s...",
 * $x), file_put_contents('php://stderr', ...) and error_log("..."): what
 * the program prints on its standard error (or its error log), as C's
 * fprintf(stderr, ...).  The message is argument ai; a warning when the
 * text says so, an error otherwise; a message of a value alone is no
 * site.  False when the call writes elsewhere. */
static bool rule_stderr(ctx *c, size_t i, size_t ai, const char *idiom)
{
	size_t s[3], e[3];
	size_t na = split_args(c, i + 1, s, e, 3);
	if (na <= ai || (ai && !stderr_arg(c, s[0], e[0])))
		return false;
	char *m = php_arg_msg(c, s[ai], e[ai]);
	if (m && is_id(c, i, "fprintf"))
		fl_msg_undouble(m, "%");
	/* the line break that ends what it writes (. PHP_EOL) is no part of
	 * the message */
	char *eol = m ? eol_dup(m) : NULL;
	if (eol) {
		free(m);
		m = eol;
	}
	if (m)
		fl_msg_trim(m);
	if (m && php_has_text(m)) {
		emit(c, i, m, NULL, FL_T_CONSOLE, fl_print_severity(m), 0, idiom);
	}
	free(m);
	return true;
}

/* ---- console output ------------------------------------------------------ */

enum { TAG_NONE, TAG_OTHER, TAG_WARNING, TAG_ERROR };

/* Length of the symfony/console style tag at s (0: none): a named style
 * (<error>, </warning>, <info>...), an inline one (<fg=red;options=bold>,
 * <href=...>) or </>.  *kind gets what an opening tag says of the text. */
static size_t style_tag(const char *s, int *kind)
{
	static const struct {
		const char *name;
		int kind;
	} named[] = {{"error", TAG_ERROR},   {"warning", TAG_WARNING}, {"info", TAG_OTHER},
		     {"comment", TAG_OTHER}, {"question", TAG_OTHER},  {"highlight", TAG_OTHER}};
	static const char *const inl[] = {"fg=", "bg=", "options=", "href=", NULL};
	if (s[0] != '<')
		return 0;
	const char *p = s + 1;
	bool close = *p == '/';
	p += close;
	*kind = TAG_OTHER;
	if (close && *p == '>')
		return 3;
	for (size_t k = 0; k < sizeof named / sizeof *named; k++) {
		size_t l = strlen(named[k].name);
		if (strncmp(p, named[k].name, l) == 0 && p[l] == '>') {
			if (!close)
				*kind = named[k].kind;
			return (size_t)(p + l + 1 - s);
		}
	}
	for (const char *const *q = inl; *q; q++) {
		if (strncmp(p, *q, strlen(*q)) != 0)
			continue;
		const char *e = p;
		while (*e && *e != '>' && *e != '<' && *e != '\n')
			e++;
		if (*e == '>')
			return (size_t)(e + 1 - s);
	}
	return 0;
}

/* The style tags taken off m in place, as the console's formatter prints
 * it; returns the most severe opening tag seen. */
static int strip_style(char *m)
{
	int worst = TAG_NONE;
	char *w = m;
	for (const char *r = m; *r;) {
		int kind;
		size_t n = style_tag(r, &kind);
		if (n) {
			if (kind > worst)
				worst = kind;
			r += n;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
	return worst;
}

/* Is the token at r a `return` of a failing status: a number other than
 * 0 (`return 1;`), or a class's constant, FAILURE (`return
 * Command::FAILURE;`) or, with any_error, any named for an error or a
 * failure (`return self::INPUT_ERROR;`)? */
static bool failing_return(const ctx *c, size_t r, bool any_error)
{
	if (!is_id(c, r, "return"))
		return false;
	size_t v = r + 1;
	if (is_kind(c, v, FL_TK_NUMBER) && is_p(c, v + 1, ";")) {
		const fl_tok *x = &c->t.v[v];
		for (size_t q = 0; q < x->len; q++)
			if (c->t.src[x->off + q] != '0')
				return true;
		return false;
	}
	if (!is_kind(c, v, FL_TK_IDENT) || !is_p(c, v + 1, "::") || !is_kind(c, v + 2, FL_TK_IDENT) ||
	    !is_p(c, v + 3, ";"))
		return false;
	if (!any_error)
		return is_id(c, v + 2, "FAILURE");
	const char *k = c->t.src + c->t.v[v + 2].off;
	size_t kl = c->t.v[v + 2].len;
	return fl_memmem(k, kl, "ERROR", 5) || fl_memmem(k, kl, "FAIL", 4);
}

/* Is the statement of the call whose `(` is at open followed by a failing
 * `return` (a non-zero number, or a constant such as Command::FAILURE)? */
/* The end (its `;`) of a quiet statement at k: one that prints nothing
 * and does not leave (cleanup such as `Silencer::call('unlink', $f);`),
 * else NONE */
static size_t quiet_stmt(const ctx *c, size_t k)
{
	static const char *const loud[] = {"return", "throw", "if", "else", "echo", "print",
					   "printf", "exit", "die", "write", "writeln",
					   "writeError", "trigger_error", NULL};
	for (size_t q = k, n = 0; q < c->t.n && n < 64; q++, n++) {
		if (is_p(c, q, ";"))
			return q > k ? q : NONE;
		if (is_p(c, q, "{") || is_p(c, q, "}"))
			return NONE;
		for (const char *const *w = loud; *w; w++)
			if (is_id(c, q, *w))
				return NONE;
		if (fl_tok_is_opener(&c->t, q) && c->match[q] < c->t.n)
			q = c->match[q] - 1;
	}
	return NONE;
}

static bool fails_after(const ctx *c, size_t open)
{
	size_t cl = c->match[open];
	if (cl >= c->t.n || !is_p(c, cl + 1, ";"))
		return false;
	/* a cleanup statement or two may come before the return */
	size_t r = cl + 2;
	for (int n = 0; n < 2 && r < c->t.n && !is_id(c, r, "return"); n++) {
		size_t q = quiet_stmt(c, r);
		if (q == NONE)
			return false;
		r = q + 1;
	}
	return failing_return(c, r, false);
}

/* TAG_ERROR or TAG_WARNING when text m starts by saying so, a level word
 * and a colon or a dash ("Warning - The configuration file did not pass
 * validation!", "Error: ..."), else TAG_NONE. */
static int said_level(const char *m)
{
	static const struct {
		const char *w;
		int kind;
	} lv[] = {{"Warning", TAG_WARNING}, {"WARNING", TAG_WARNING}, {"Error", TAG_ERROR},
		  {"ERROR", TAG_ERROR}, {"Fatal", TAG_ERROR}, {"FATAL", TAG_ERROR}};
	for (size_t k = 0; k < sizeof lv / sizeof *lv; k++) {
		size_t l = strlen(lv[k].w);
		if (strncmp(m, lv[k].w, l) == 0 &&
		    (m[l] == ':' || (m[l] == ' ' && m[l + 1] == '-' && m[l + 2] == ' ')))
			return lv[k].kind;
	}
	return TAG_NONE;
}

/* `$this->writeMessage('Warning', 'Your XML configuration validates
 * against a deprecated schema.')` at i (the method's name): a writer
 * given a level word and a text, the name saying it writes or reports. */
static bool rule_level_write(ctx *c, size_t i)
{
	const char *n = c->t.src + c->t.v[i].off;
	size_t nl = c->t.v[i].len;
	if (!is_p(c, i + 1, "(") ||
	    !(fl_memmem(n, nl, "rite", 4) || fl_memmem(n, nl, "essage", 6) || fl_memmem(n, nl, "rint", 4) ||
	      fl_memmem(n, nl, "eport", 5)))
		return false;
	size_t s[3], e[3];
	if (split_args(c, i + 1, s, e, 3) != 2 || e[0] != s[0] + 1 || !is_kind(c, s[0], FL_TK_STRING))
		return false;
	const char *w = fl_tok_str(&c->t, &c->t.v[s[0]]);
	int kind = strcasecmp(w, "warning") == 0 ? TAG_WARNING
		   : strcasecmp(w, "error") == 0 || strcasecmp(w, "fatal") == 0 ? TAG_ERROR
										 : TAG_NONE;
	if (kind == TAG_NONE)
		return false;
	char *m = php_arg_msg(c, s[1], e[1]);
	if (m && strchr(m, ' ') && php_has_text(m)) {
		char *idiom = fl_tok_dup(&c->t, i);
		emit(c, i, m, NULL, FL_T_CONSOLE, kind == TAG_ERROR ? FL_S_ERROR : FL_S_WARNING, 0,
		     idiom);
		free(idiom);
	}
	free(m);
	return true;
}

/* $io->writeError('<error>...</error>'), $output->writeln(sprintf(
 * '<warning>...%s</warning>', $x)): what a console command prints, its
 * style tags taken off.  An error or warning tag makes it an error or a
 * warning; an untagged text counts when the command fails right after
 * (`return 1;`).  Text at the debug verbosity, and a single word (a status
 * such as FAIL), are left out; so are the blank lines printed before it. */
static void rule_console(ctx *c, size_t i)
{
	size_t s[3], e[3];
	size_t na = split_args(c, i + 1, s, e, 3);
	if (na < 1 || is_p(c, s[0], "[") || is_id(c, s[0], "array"))
		return;
	for (size_t a = 1; a < na; a++)
		if (is_kind(c, e[a] - 1, FL_TK_IDENT) &&
		    (is_id(c, e[a] - 1, "DEBUG") || is_id(c, e[a] - 1, "VERBOSITY_DEBUG")))
			return;
	char *m = php_arg_msg(c, s[0], e[0]);
	if (!m)
		return;
	int tag = strip_style(m);
	fl_msg_trim(m);
	/* a blank line printed before the text is no part of it */
	size_t lead = strspn(m, " \t\r\n");
	memmove(m, m + lead, strlen(m + lead) + 1);
	/* one word ("FAIL", "WARNING") is a status, not a message */
	if (!strchr(m, ' ')) {
		free(m);
		return;
	}
	int said = said_level(m);
	const char *sev = tag == TAG_ERROR	 ? FL_S_ERROR
			  : tag == TAG_WARNING ? FL_S_WARNING
			  : said ? (said == TAG_ERROR ? FL_S_ERROR : FL_S_WARNING)
			  : fails_after(c, i + 1) ? FL_S_ERROR
						  : NULL;
	if (sev && *m) {
		char *idiom = fl_tok_dup(&c->t, i);
		emit(c, i, m, NULL, FL_T_CONSOLE, sev, 0, idiom);
		free(idiom);
	}
	free(m);
}

/* ---- error values and the file's reporters ------------------------------- */

/* a class name that says it is an error made to be reported: ...Exception,
 * ...Error, ...Warning, ...Failure, or a test case standing for one
 * (PHPUnit's WarningTestCase, ErrorTestCase) */
static bool error_value_class(const char *s, size_t n)
{
	static const char *const suf[] = {"Exception", "Error", "Warning", "Failure", NULL};
	if (n > 8 && memcmp(s + n - 8, "TestCase", 8) == 0)
		n -= 8;
	for (const char *const *x = suf; *x; x++) {
		size_t l = strlen(*x);
		if (n >= l && memcmp(s + n - l, *x, l) == 0)
			return true;
	}
	return false;
}

/* `new X(...)` at i not thrown here: an error value made and handed on
 * (`$this->addTest(new WarningTestCase(sprintf('No tests found in class
 * "%s".', ...)))`, `$result->addWarning($this, new Warning(...))`): a site
 * of its message, when it is a text of words. */
static void rule_new_value(ctx *c, size_t i)
{
	size_t after, clsi = php_qname(c, i + 1, &after);
	if (clsi == NONE || !is_p(c, after, "(") ||
	    !error_value_class(c->t.src + c->t.v[clsi].off, c->t.v[clsi].len))
		return;
	size_t s[2], e[2];
	if (split_args(c, after, s, e, 2) < 1)
		return;
	char *msg = php_arg_msg(c, s[0], e[0]);
	char *cls = fl_tok_dup(&c->t, clsi);
	if (!msg)
		msg = known_ctor_msg(c, cls);
	if (msg && strchr(msg, ' ') && php_has_text(msg)) {
		bool warn = fl_memmem(cls, strlen(cls), "Warning", 7) != NULL;
		emit(c, i, msg, cls, FL_T_EXCEPTION, warn ? FL_S_WARNING : FL_S_ERROR, 0, "new");
	}
	free(msg);
	free(cls);
}

/* The file's one method NAME (token nm) that prints its first parameter
 * and exits: `private function exitWithErrorMessage(string $message): void
 * { $this->printVersionString(); print $message . PHP_EOL; exit(...); }`;
 * or that throws it, *thrown then the class's token (`private function
 * nullOrThrow($message) { if ($this->notNull === true) { throw new
 * RuntimeException($message); } return null; }`). */
static bool reporter_method(const ctx *c, size_t nm, size_t *thrown)
{
	*thrown = NONE;
	size_t found = php_file_function(c, nm);
	if (found == NONE || c->match[found + 1] >= c->t.n)
		return false;
	/* its first parameter: `$message`, after a type */
	size_t po = found + 1, pc = c->match[po], param = NONE;
	for (size_t q = po + 1; q < pc && param == NONE; q++) {
		if (is_p(c, q, ","))
			break;
		if (is_kind(c, q, FL_TK_IDENT) && c->t.src[c->t.v[q].off] == '$')
			param = q;
	}
	size_t ob = pc + 1;
	while (ob < c->t.n && ob < pc + 8 && !is_p(c, ob, "{") && !is_p(c, ob, ";"))
		ob++;
	if (param == NONE || ob >= c->t.n || !is_p(c, ob, "{") || c->match[ob] >= c->t.n)
		return false;
	size_t close = c->match[ob];
	bool prints = false, exits = false;
	const fl_tok *pv = &c->t.v[param];
	for (size_t q = ob + 1; q + 3 < close; q++) {
		/* throw new X($param ...), at any depth */
		size_t after, ci;
		if (!is_id(c, q, "throw") || !is_id(c, q + 1, "new") ||
		    (ci = php_qname(c, q + 2, &after)) == NONE || !is_p(c, after, "(") ||
		    after + 1 >= close)
			continue;
		const fl_tok *a = &c->t.v[after + 1];
		if (a->len == pv->len && a->kind == pv->kind &&
		    memcmp(c->t.src + a->off, c->t.src + pv->off, pv->len) == 0 &&
		    (is_p(c, after + 2, ")") || is_p(c, after + 2, ","))) {
			*thrown = ci;
			return true;
		}
	}
	for (size_t q = ob + 1; q < close; q++) {
		if (is_p(c, q, "{") && c->match[q] < close) {
			q = c->match[q]; /* its own level only */
			continue;
		}
		if ((is_id(c, q, "exit") || is_id(c, q, "die")) && q > 0 &&
		    (is_p(c, q - 1, ";") || is_p(c, q - 1, "{")))
			exits = true;
		if (!(is_id(c, q, "print") || is_id(c, q, "echo") || is_id(c, q, "printf")) ||
		    !(is_p(c, q - 1, ";") || is_p(c, q - 1, "{")))
			continue;
		for (size_t r = q + 1; r < close && !is_p(c, r, ";"); r++)
			if (c->t.v[r].len == pv->len && c->t.v[r].kind == pv->kind &&
			    memcmp(c->t.src + c->t.v[r].off, c->t.src + pv->off, pv->len) == 0)
				prints = true;
	}
	return prints && exits;
}

/* `$this->NAME(...)`, `self::NAME(...)` at i (NAME) of a reporter method
 * of the file: a site of its first argument's text. */
static bool rule_reporter_call(ctx *c, size_t i)
{
	if (i < 2 || !(is_id(c, i - 2, "$this") || is_id(c, i - 2, "self") || is_id(c, i - 2, "static")) ||
	    !is_p(c, i + 1, "(") || c->match[i + 1] >= c->t.n)
		return false;
	size_t s[1], e[1];
	if (split_args(c, i + 1, s, e, 1) < 1)
		return false;
	bool lit = false;
	for (size_t q = s[0]; q < e[0] && !lit; q++)
		lit = is_kind(c, q, FL_TK_STRING);
	size_t thrown;
	if (!lit || !reporter_method(c, i, &thrown))
		return false;
	fl_strv alts = {0};
	char *idiom = fl_xasprintf("%s %.*s", thrown != NONE ? "thrower" : "reporter",
				   (int)c->t.v[i].len, c->t.src + c->t.v[i].off);
	char *cls = thrown != NONE ? fl_tok_dup(&c->t, thrown) : NULL;
	const char *type = thrown != NONE ? FL_T_EXCEPTION : FL_T_CONSOLE;
	const char *sev = thrown != NONE ? FL_S_ERROR : FL_S_CRITICAL;
	if (php_arg_alts(c, s[0], e[0], &alts)) {
		for (size_t k = 0; k < alts.n; k++)
			emit(c, i, alts.v[k], cls, type, sev, 0, idiom);
	} else {
		char *m = php_arg_msg(c, s[0], e[0]);
		emit(c, i, m, cls, type, sev, 0, idiom);
		free(m);
	}
	free(cls);
	free(idiom);
	fl_strv_free(&alts);
	return true;
}

/* `$this->addViolation($node, array(...))` in a rule's class that a
 * catalogue of the tree gives a message (catalog.c): the violation it
 * reports, printed as a line of the report */
static bool rule_catalog(ctx *c, size_t i)
{
	char *m;
	if (!php_rule_catalog(c, i, &m))
		return false;
	char *idiom = fl_xasprintf("$this->%.*s", (int)c->t.v[i].len, c->t.src + c->t.v[i].off);
	emit(c, i - 2, m, NULL, FL_T_CONSOLE, FL_S_ERROR, 0, idiom);
	free(idiom);
	free(m);
	return true;
}

/* `print '...';` / `echo '...';` at i, a statement followed by an exit
 * that is no success (`exit(TestRunner::EXCEPTION_EXIT);`, `exit(1)`,
 * `die;`): the program's report of why it stops. */
static void rule_print_exit(ctx *c, size_t i)
{
	if (i > 0 && !is_p(c, i - 1, ";") && !is_p(c, i - 1, "{") && !is_p(c, i - 1, "}"))
		return;
	size_t e = i + 1;
	while (e < c->t.n && e < i + 256 && !is_p(c, e, ";"))
		e = fl_tok_is_opener(&c->t, e) && c->match[e] < c->t.n && c->match[e] > e ? c->match[e] + 1
											  : e + 1;
	if (e >= c->t.n || !is_p(c, e, ";") || e == i + 1)
		return;
	size_t x = e + 1;
	/* or a failing status returned: `return self::INPUT_ERROR;`,
	 * `return 1;` (pdepend's command) */
	bool ret = false;
	if (is_id(c, x, "return")) {
		if (!(ret = failing_return(c, x, true)))
			return;
	} else if (!(is_id(c, x, "exit") || is_id(c, x, "die"))) {
		return;
	}
	/* exit(0), exit() and exit(X::SUCCESS_EXIT) end well */
	if (!ret && is_p(c, x + 1, "(") && (is_p(c, x + 2, ")") ||
				    (is_kind(c, x + 2, FL_TK_NUMBER) && c->t.v[x + 2].len == 1 &&
				     c->t.src[c->t.v[x + 2].off] == '0' && is_p(c, x + 3, ")"))))
		return;
	for (size_t q = x + 2; !ret && is_p(c, x + 1, "(") && q < c->match[x + 1] && q < c->t.n; q++)
		if (is_kind(c, q, FL_TK_IDENT) &&
		    (fl_memmem(c->t.src + c->t.v[q].off, c->t.v[q].len, "SUCCESS", 7) ||
		     fl_memmem(c->t.src + c->t.v[q].off, c->t.v[q].len, "Success", 7)))
			return;
	/* (the line break it ends with, PHP_EOL, is taken off where every
	 * site is added) */
	/* echo's arguments, separated by commas, are printed one after
	 * another (`echo 'Option ', $option, ' requires a value.', PHP_EOL`) */
	fl_buf b = {0};
	bool ok = true;
	for (size_t q = i + 1; q < e && ok;) {
		size_t pe = q;
		while (pe < e && !is_p(c, pe, ","))
			pe = fl_tok_is_opener(&c->t, pe) && c->match[pe] < e ? c->match[pe] + 1 : pe + 1;
		char *part = pe > q ? php_arg_msg(c, q, pe) : NULL;
		if (part) {
			fl_buf_puts(&b, part);
			/* the spaces a literal ends with, which a message's
			 * text drops, join it to the next argument */
			if (pe == q + 1 && is_kind(c, q, FL_TK_STRING)) {
				const char *r = fl_tok_str(&c->t, &c->t.v[q]);
				size_t rl = c->t.v[q].slen, sp = 0;
				while (sp < rl && r[rl - 1 - sp] == ' ')
					sp++;
				size_t pl = strlen(part);
				for (size_t k = 0; k < sp && !(pl > k && part[pl - 1 - k] == ' '); k++)
					fl_buf_putc(&b, ' ');
			}
		} else if (!(pe == q + 1 && is_id(c, q, "PHP_EOL"))) {
			/* a value: `{name}` of its last name (records.md) */
			size_t nm = NONE;
			for (size_t k = q; k < pe; k++)
				if (is_kind(c, k, FL_TK_IDENT))
					nm = k;
			if (nm == NONE) {
				ok = false;
			} else {
				const char *w = c->t.src + c->t.v[nm].off;
				size_t wl = c->t.v[nm].len;
				if (wl > 1 && *w == '$')
					w++, wl--;
				fl_buf_printf(&b, "{%.*s}", (int)wl, w);
			}
		}
		free(part);
		q = pe + 1;
	}
	char *m = ok && b.n ? fl_xstrdup(fl_buf_cstr(&b)) : NULL;
	fl_buf_free(&b);
	if (m && strchr(m, ' ') && php_has_text(m))
		emit(c, i, m, NULL, FL_T_CONSOLE, FL_S_ERROR, 0, is_id(c, i, "echo") ? "echo" : "print");
	free(m);
}

static bool console_method(const ctx *c, size_t i)
{
	return (is_id(c, i, "writeError") || is_id(c, i, "write") || is_id(c, i, "writeln")) &&
	       i > 0 && (is_p(c, i - 1, "->") || is_p(c, i - 1, "?->")) && is_p(c, i + 1, "(");
}

void php_rules(ctx *c)
{
	const fl_toks *t = &c->t;
	for (size_t i = 0; i < t->n; i++) {
		const fl_tok *k = &t->v[i];
		if (k->kind == FL_TK_PUNCT && k->len == 1) {
			char ch = t->src[k->off];
			if (ch == '{')
				push_frame(c, i);
			else if (ch == '}' && c->nfr)
				c->nfr--;
			continue;
		}
		if (k->kind != FL_TK_IDENT)
			continue;
		if (c->part) {
			if (fl_tok_is(t, i, "throw"))
				rule_throw(c, i);
			continue;
		}
		if (console_method(c, i)) {
			rule_console(c, i);
			continue;
		}
		if (i >= 2 && is_p(c, i - 1, "->") && rule_catalog(c, i))
			continue;
		if (i >= 2 && (is_p(c, i - 1, "->") || is_p(c, i - 1, "::")) &&
		    (rule_reporter_call(c, i) || rule_level_write(c, i)))
			continue;
		if (fl_tok_is(t, i, "new") && !(i > 0 && is_id(c, i - 1, "throw"))) {
			rule_new_value(c, i);
			continue;
		}
		if (fl_tok_is(t, i, "print") || fl_tok_is(t, i, "echo")) {
			rule_print_exit(c, i);
			continue;
		}
		if (i > 0 && (is_p(c, i - 1, "->") || is_p(c, i - 1, "?->") ||
			      is_p(c, i - 1, "::") || is_id(c, i - 1, "function") ||
			      is_id(c, i - 1, "new")))
			continue;
		bool call = is_p(c, i + 1, "(");
		if (fl_tok_is(t, i, "throw")) {
			rule_throw(c, i);
		} else if (!call) {
			continue;
		} else if (fl_tok_is(t, i, "trigger_error") ||
			   fl_tok_is(t, i, "user_error")) {
			rule_trigger(c, i);
		} else if (fl_tok_is(t, i, "abort")) {
			rule_abort(c, i, 0);
		} else if (fl_tok_is(t, i, "abort_if") ||
			   fl_tok_is(t, i, "abort_unless")) {
			rule_abort(c, i, 1);
		} else if (fl_tok_is(t, i, "die") || fl_tok_is(t, i, "exit")) {
			rule_simple(c, i, FL_T_CONSOLE, FL_S_CRITICAL);
		} else if (fl_tok_is(t, i, "error_log")) {
			rule_stderr(c, i, 0, "error_log");
		} else if (fl_tok_is(t, i, "fwrite")) {
			rule_stderr(c, i, 1, "fwrite(STDERR)");
		} else if (fl_tok_is(t, i, "fputs")) {
			rule_stderr(c, i, 1, "fputs(STDERR)");
		} else if (fl_tok_is(t, i, "fprintf")) {
			rule_stderr(c, i, 1, "fprintf(STDERR)");
		} else if (fl_tok_is(t, i, "file_put_contents")) {
			rule_stderr(c, i, 1, "file_put_contents(php://stderr)");
		}
	}
}
