/*
 * sites.c — the JavaScript / TypeScript rules (lib/scan/js/, js.h) and the
 * family's entry in the language table: throw new X(..) / throw X(..) /
 * throw "..", Promise.reject / reject (new X(..)), `const e = new X(..);
 * e.code = '..'; throw e`, Node ERR_* classes, res.status(N).send/json,
 * ctx.throw, createError, NestJS exceptions, console.error / console.warn,
 * a project's error factories (createXError(...) called anywhere; the
 * message they build, from the tree), message templates of a messages/
 * folder (ESLint's `messageTemplate`), both arms of `c ? 'a' : 'b'`,
 * terminal styles (chalk.red(x)) around a message, the calls of the
 * project's own reporters (this.error(message) of a method that writes its
 * parameter as an error and exits, found by what it does), `[...].join('\n')`
 * messages, `{ message, code }` given to an error factory.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "js.h"
#include "../sites.h"

#define NONE ((size_t)-1)

/* ---- rules ------------------------------------------------------------- */

typedef struct frame {
	uint8_t kind; /* 0 block, 1 function, 2 class, 3 control */
	size_t name, cls;      /* function name / class token, or NONE */
	size_t gb, ge;         /* guard span, gb == NONE when none */
	bool neg;              /* an else's block: it runs when the guard
				  does not hold */
} frame;

typedef struct ctx {
	fl_toks t;
	size_t *match;
	fl_sites *out;
	size_t out_base;  /* sites of this file start here in out */
	/* sites whose code came from a constructor argument (X.ERR_Y): index
	 * in out; such a code shared by different messages is a category and
	 * is dropped so the messages stay separate records */
	size_t *argc_v;
	size_t argc_n, argc_cap;
	bool arg_code;
	frame *fr;
	size_t nfr, capfr;
	uint8_t *used;
	const fl_classdefs *tree; /* error classes with a default message */
	bool hoek;                /* the file names @hapi/hoek (its Assert()) */
	char *guard;              /* the next site's own guard (an assertion's
				     failing condition); owned by its rule */
	const char *tpl;          /* the next error's message template name
				     (`err.messageTemplate = "name"`), or NULL */
	char **alt;               /* the other arm of a message `c ? 'a' : 'b'`
				     (msg_of), a second site at the next
				     emit(); owned by the rule walk */
	int choices;              /* template choices being expanded (emit) */
} ctx;

static const char *const concat_plus[] = {"+", NULL};
static const char *const wrappers[] = {"t", "__", "_", "gettext", "tr",
				       "i18n", NULL};
static const fl_msg_opts msg_opts = {.concat_ops = concat_plus,
				     .wrappers = wrappers};

static inline bool is_p(const ctx *c, size_t i, const char *s)
{
	return fl_tok_is_punct(&c->t, i, s);
}

static inline bool is_id(const ctx *c, size_t i, const char *s)
{
	return fl_tok_is_ident(&c->t, i, s);
}

static inline bool is_kind(const ctx *c, size_t i, int k)
{
	return fl_tok_is_kind(&c->t, i, k);
}

/* the arguments of the bracket at open (at most max) */
static size_t split_args(const ctx *c, size_t open, size_t *s, size_t *e,
			 size_t max)
{
	return fl_tok_split_args(&c->t, c->match, open, s, e, max, NULL, 0);
}

/* A terminal style around a text, chalk.red(x), pc.bold(x), colors.dim(x):
 * [*b, *e) narrowed to x; false when [b, e) is no such call. */
static bool unstyle(const ctx *c, size_t *b, size_t *e)
{
	size_t k = *b;
	while (is_kind(c, k, FL_TK_IDENT) && is_p(c, k + 1, ".") && k + 2 < *e)
		k += 2;
	if (k == *b || !is_kind(c, k, FL_TK_IDENT) || !is_p(c, k + 1, "(") ||
	    c->match[k + 1] != *e - 1 || *e - 1 <= k + 2)
		return false;
	bool style = false;
	for (const char *const *q = fl_js_styles; *q && !style; q++)
		style = fl_tok_is(&c->t, k, *q);
	size_t s[2], en[2];
	if (!style || split_args(c, k + 1, s, en, 2) != 1)
		return false;
	*b = s[0];
	*e = en[0];
	return true;
}

/* The top-level `?` and its `:` of a conditional [b, e), or false. */
static bool ternary(const ctx *c, size_t b, size_t e, size_t *q, size_t *colon)
{
	size_t qm = NONE;
	int nest = 0;
	for (size_t k = b; k < e; k++) {
		if (c->match[k] < c->t.n && c->match[k] > k) {
			k = c->match[k];
			continue;
		}
		if (is_p(c, k, "?")) {
			if (qm == NONE)
				qm = k;
			else
				nest++;
		} else if (is_p(c, k, ":") && qm != NONE) {
			if (nest-- == 0) {
				*q = qm;
				*colon = k;
				return k + 1 < e && qm > b;
			}
		}
	}
	return false;
}

static char *msg_of(const ctx *c, size_t b, size_t e);

/* `cond ? 'a' : 'b'`: the message of each arm that has one; the first,
 * the second kept in *c->alt for a site of its own (when both have one). */
static char *ternary_msg(const ctx *c, size_t b, size_t e)
{
	size_t q, colon;
	if (!ternary(c, b, e, &q, &colon))
		return NULL;
	char *m1 = msg_of(c, q + 1, colon), *m2 = msg_of(c, colon + 1, e);
	if (m1 && m2 && c->alt && !*c->alt && strcmp(m1, m2) != 0) {
		*c->alt = m2;
		return m1;
	}
	if (m1) {
		free(m2);
		return m1;
	}
	return m2;
}

/* `['line one', `line ${n}`].join('\n')` [b, e): the elements joined
 * (one without a literal as {name} of its last identifier); NULL when
 * [b, e) is no such join or no element has a literal. */
static char *join_msg(const ctx *c, size_t b, size_t e)
{
	size_t cb = c->match[b];
	if (!is_p(c, b, "[") || cb >= e || !is_p(c, cb + 1, ".") || !is_id(c, cb + 2, "join") ||
	    !is_p(c, cb + 3, "(") || c->match[cb + 3] != e - 1 || e - 1 != cb + 5 ||
	    !is_kind(c, cb + 4, FL_TK_STRING))
		return NULL;
	const char *sep = fl_tok_str(&c->t, &c->t.v[cb + 4]);
	size_t st[64], en[64];
	size_t n = split_args(c, b, st, en, 64);
	fl_buf out = {0};
	bool lit = false;
	for (size_t k = 0; k < n; k++) {
		if (k)
			fl_buf_puts(&out, sep);
		char *m = is_p(c, st[k], "...") ? NULL : msg_of(c, st[k], en[k]);
		if (m) {
			lit = true;
			fl_buf_puts(&out, m);
			free(m);
			continue;
		}
		size_t id = NONE;
		for (size_t q = st[k]; q < en[k]; q++)
			if (c->t.v[q].kind == FL_TK_IDENT)
				id = q;
		fl_buf_putc(&out, '{');
		if (id != NONE)
			fl_buf_put(&out, c->t.src + c->t.v[id].off, c->t.v[id].len);
		fl_buf_putc(&out, '}');
	}
	char *r = lit && n < 64 ? fl_xstrdup(fl_buf_cstr(&out)) : NULL;
	fl_buf_free(&out);
	return r;
}

/* message of [b, e) with guards against pathological inputs */
static char *msg_of(const ctx *c, size_t b, size_t e)
{
	while (e > b && unstyle(c, &b, &e))
		;
	if (e - b >= 6 && is_p(c, b, "[")) {
		char *jm = join_msg(c, b, e);
		if (jm)
			return jm;
	}
	if (e - b >= 4 && !is_kind(c, b, FL_TK_STRING) &&
	    !(is_p(c, b, "(") && c->match[b] == e - 1)) {
		char *tm = ternary_msg(c, b, e);
		if (tm)
			return tm;
	}
	/* util.format('... %s', x) / format(...) (util's, imported) /
	 * sprintf(...): its format string */
	size_t fb = e - b >= 5 && is_id(c, b, "util") && is_p(c, b + 1, ".") ? b + 2 : b;
	if (e - fb >= 3 && (fb > b ? is_id(c, fb, "format")
			   : is_id(c, fb, "sprintf") || is_id(c, fb, "vsprintf") ||
			     is_id(c, fb, "format")) &&
	    is_p(c, fb + 1, "(") && c->match[fb + 1] == e - 1) {
		size_t s[1], en[1];
		if (fl_tok_split_args(&c->t, c->match, fb + 1, s, en, 1, NULL, 0) >= 1 &&
		    is_kind(c, s[0], FL_TK_STRING) && en[0] == s[0] + 1)
			return msg_of(c, s[0], en[0]);
	}
	char *m = fl_msg_guarded(&c->t, b, e, &msg_opts, 4000, 48, true);
	if (m && !*m) {
		free(m);
		return NULL;
	}
	return m;
}

/* value span of property `key` directly in the object literal at open */
static bool obj_prop(const ctx *c, size_t open, const char *key, size_t *vb,
		     size_t *ve)
{
	if (!is_p(c, open, "{"))
		return false;
	size_t s[64], e[64];
	size_t n = split_args(c, open, s, e, 64);
	for (size_t k = 0; k < n; k++) {
		size_t b = s[k];
		if (e[k] - b < 3 || !is_p(c, b + 1, ":"))
			continue;
		bool hit = (c->t.v[b].kind == FL_TK_IDENT &&
			    fl_tok_is(&c->t, b, key)) ||
			   (c->t.v[b].kind == FL_TK_STRING &&
			    strcmp(fl_tok_str(&c->t, &c->t.v[b]), key) == 0);
		if (hit) {
			*vb = b + 2;
			*ve = e[k];
			return true;
		}
	}
	return false;
}

static char *ctor_arg_msg(const ctx *c, size_t b, size_t e);

/* message from an object literal: message / error / msg / detail keys (a
 * local variable's literal too: { message: errDescription }) */
static char *obj_message(const ctx *c, size_t open, char **code)
{
	static const char *const keys[] = {"message", "error", "msg",
					   "detail", "error_description",
					   NULL};
	size_t vb, ve;
	char *m = NULL;
	for (const char *const *k = keys; *k && !m; k++) {
		if (!obj_prop(c, open, *k, &vb, &ve))
			continue;
		if (is_p(c, vb, "{") && c->match[vb] == ve - 1)
			m = obj_message(c, vb, code);
		else
			m = ctor_arg_msg(c, vb, ve);
	}
	if (code && !*code && obj_prop(c, open, "code", &vb, &ve) &&
	    ve == vb + 1 && c->t.v[vb].kind == FL_TK_STRING &&
	    c->t.v[vb].slen)
		*code = fl_xstrdup(fl_tok_str(&c->t, &c->t.v[vb]));
	return m;
}

static bool looks_code(const char *s)
{
	size_t n = strlen(s);
	if (n < 3 || n > 64)
		return false;
	bool upper = false;
	for (const char *p = s; *p; p++) {
		if (*p >= 'A' && *p <= 'Z')
			upper = true;
		else if (!((*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	}
	return upper && strchr(s, '_') != NULL;
}

/* an error code constant: ERR_X, ECONNRESET, ETIMEDOUT */
static bool looks_code_name(const char *s, size_t n)
{
	if (n < 4 || n > 64 || !(s[0] >= 'A' && s[0] <= 'Z'))
		return false;
	bool us = false;
	for (size_t k = 0; k < n; k++) {
		if (s[k] == '_')
			us = true;
		else if (!((s[k] >= 'A' && s[k] <= 'Z') ||
			   (s[k] >= '0' && s[k] <= '9')))
			return false;
	}
	return us || s[0] == 'E';
}

/* errorCode written as the argument [b, e) after a message: 'ERR_X' or
 * Klass.ERR_X (a constant of the error class), else NULL */
static char *arg_code(const ctx *c, size_t b, size_t e)
{
	const fl_toks *t = &c->t;
	if (e == b + 1 && t->v[b].kind == FL_TK_STRING) {
		const char *s = fl_tok_str(t, &t->v[b]);
		return looks_code_name(s, strlen(s)) ? fl_xstrdup(s) : NULL;
	}
	if (e == b + 3 && t->v[b].kind == FL_TK_IDENT && is_p(c, b + 1, ".") &&
	    t->v[b + 2].kind == FL_TK_IDENT) {
		const char *q = t->src + t->v[b].off;
		if (!(q[0] >= 'A' && q[0] <= 'Z'))
			return NULL;
		const char *s = t->src + t->v[b + 2].off;
		if (looks_code_name(s, t->v[b + 2].len))
			return fl_xstrndup(s, t->v[b + 2].len);
	}
	return NULL;
}

static int http_by_name(const char *n)
{
	static const struct {
		const char *name;
		int code;
	} tab[] = {
		{"BadRequestException", 400}, {"UnauthorizedException", 401},
		{"ForbiddenException", 403}, {"NotFoundException", 404},
		{"MethodNotAllowedException", 405},
		{"NotAcceptableException", 406},
		{"RequestTimeoutException", 408}, {"ConflictException", 409},
		{"GoneException", 410}, {"PreconditionFailedException", 412},
		{"PayloadTooLargeException", 413},
		{"UnsupportedMediaTypeException", 415},
		{"ImATeapotException", 418}, {"MisdirectedException", 421},
		{"UnprocessableEntityException", 422},
		{"InternalServerErrorException", 500},
		{"NotImplementedException", 501}, {"BadGatewayException", 502},
		{"ServiceUnavailableException", 503},
		{"GatewayTimeoutException", 504},
		{"HttpVersionNotSupportedException", 505},
		/* HttpStatus.X */
		{"BAD_REQUEST", 400}, {"UNAUTHORIZED", 401}, {"FORBIDDEN", 403},
		{"NOT_FOUND", 404}, {"METHOD_NOT_ALLOWED", 405},
		{"CONFLICT", 409}, {"GONE", 410}, {"PAYLOAD_TOO_LARGE", 413},
		{"UNPROCESSABLE_ENTITY", 422}, {"TOO_MANY_REQUESTS", 429},
		{"INTERNAL_SERVER_ERROR", 500}, {"NOT_IMPLEMENTED", 501},
		{"BAD_GATEWAY", 502}, {"SERVICE_UNAVAILABLE", 503},
		{"GATEWAY_TIMEOUT", 504},
	};
	for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
		if (strcmp(tab[i].name, n) == 0)
			return tab[i].code;
	return 0;
}

/* HTTP status of the expression [b, e): a number or HttpStatus.X */
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
	if (e > b && is_kind(c, e - 1, FL_TK_IDENT) &&
	    (e == b + 1 || is_p(c, e - 2, "."))) {
		char *n = fl_tok_dup(&c->t, e - 1);
		int v = http_by_name(n);
		free(n);
		return v;
	}
	return 0;
}

/* @fastify/error: createError('FST_ERR_X', 'message %s', status, Base)
 * at the '(' open, the code first (http-errors' createError takes a
 * status first instead).  The message, code, status (0: none) and base
 * class (NULL: none), malloc'd; false when it is not that form. */
static bool code_first_create(const ctx *c, size_t open, char **msg, char **code,
			      int *http, char **base)
{
	size_t s[8], e[8];
	size_t na = split_args(c, open, s, e, 8);
	if (na < 2 || na > 4 || e[0] != s[0] + 1 || !is_kind(c, s[0], FL_TK_STRING))
		return false;
	const char *cs = fl_tok_str(&c->t, &c->t.v[s[0]]);
	if (!cs || !looks_code(cs))
		return false;
	char *m = msg_of(c, s[1], e[1]);
	if (!m)
		return false;
	*msg = m;
	*code = fl_xstrdup(cs);
	*http = na >= 3 ? status_of(c, s[2], e[2]) : 0;
	if (*http < 100 || *http > 599)
		*http = 0;
	if (base)
		*base = na >= 4 && e[3] == s[3] + 1 && is_kind(c, s[3], FL_TK_IDENT)
			? fl_tok_dup(&c->t, s[3]) : NULL;
	return true;
}

/* ---- frames (enclosing function / guard) ---------------------------------- */

static bool is_ctl_kw(const ctx *c, size_t i)
{
	static const char *const kw[] = {
		"if", "for", "while", "switch", "catch", "with", "function",
		"return", "typeof", "await", "new", "else", "do", "try",
		"super", "import", NULL};
	if (!is_kind(c, i, FL_TK_IDENT))
		return true;
	for (const char *const *k = kw; *k; k++)
		if (fl_tok_is(&c->t, i, *k))
			return true;
	return false;
}

static frame *top(ctx *c)
{
	return c->nfr ? &c->fr[c->nfr - 1] : NULL;
}

/* name of a function value whose first token is at q+1 (q = token before):
 * `name =`, `name:`, or NONE */
static size_t name_before(const ctx *c, size_t q)
{
	if (q == NONE || q >= c->t.n)
		return NONE;
	/* TS type parameters: const f = <E extends Env = Env>(...) => */
	if (is_p(c, q, ">")) {
		int depth = 0;
		size_t k = q;
		for (int n = 0; n < 64; n++, k--) {
			if (is_p(c, k, ">"))
				depth++;
			else if (is_p(c, k, "<") && --depth == 0)
				break;
			else if (is_p(c, k, ";") || is_p(c, k, "{") || is_p(c, k, "}") || k == 0)
				return NONE;
		}
		if (depth != 0 || k == 0)
			return NONE;
		q = k - 1;
	}
	if (is_id(c, q, "async") && q > 0)
		q--;
	if ((is_p(c, q, "=") || is_p(c, q, ":")) && q > 0 &&
	    (is_kind(c, q - 1, FL_TK_IDENT) || is_kind(c, q - 1, FL_TK_STRING)))
		return is_kind(c, q - 1, FL_TK_IDENT) ? q - 1 : NONE;
	return NONE;
}

/* find a ')' closing parameters before a '{' or '=>' at i (TS return types) */
static size_t params_close(const ctx *c, size_t i)
{
	if (i == 0)
		return NONE;
	if (is_p(c, i - 1, ")"))
		return i - 1;
	for (size_t k = i - 1, n = 0; k > 0 && n < 24; k--, n++) {
		/* an object type in the return type: ): T & { duplex?: 'half' } => */
		if (is_p(c, k, "}") && c->match[k] < k && c->match[k] > 0) {
			k = c->match[k];
			continue;
		}
		if (is_p(c, k, ";") || is_p(c, k, "{") || is_p(c, k, "}") ||
		    is_p(c, k, "=>") || is_p(c, k, "="))
			return NONE;
		if (is_p(c, k, ")") && is_p(c, k + 1, ":"))
			return k;
	}
	return NONE;
}

/* The condition of the if whose else is token e (`if (c) { ... } else`,
 * the last if of an else-if chain): what follows e runs when it does not
 * hold.  [*gb, *ge) are its tokens. */
static bool else_cond(const ctx *c, size_t e, size_t *gb, size_t *ge)
{
	if (e < 4 || !is_id(c, e, "else") || !is_p(c, e - 1, "}"))
		return false;
	size_t o = c->match[e - 1];
	if (o >= e - 1 || o < 3 || !is_p(c, o - 1, ")"))
		return false;
	size_t q = c->match[o - 1];
	if (q >= o - 1 || q == 0 || q + 1 >= o - 1 || !is_id(c, q - 1, "if"))
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
	const fl_toks *t = &c->t;
	if (i > 0) {
		size_t pv = i - 1;
		if (else_cond(c, pv, &f.gb, &f.ge)) {
			/* } else { */
			f.kind = 3;
			f.neg = true;
			goto done;
		}
		/* class body */
		for (size_t k = pv, n = 0; k != NONE && n < 24; k--, n++) {
			if (is_p(c, k, ";") || is_p(c, k, "{") ||
			    is_p(c, k, "}") || is_p(c, k, "=>"))
				break;
			if (is_id(c, k, "class")) {
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
		if (is_p(c, pv, "=>")) {
			/* arrow body; a curried one takes the name of the arrow
			 * it is the body of: const auth = (opts) => async (c, next) => { */
			size_t arrow = pv, nm = NONE;
			for (int hop = 0; hop < 4 && nm == NONE; hop++) {
				size_t pc = params_close(c, arrow);
				size_t q;
				if (pc != NONE && c->match[pc] < t->n)
					q = c->match[pc] ? c->match[pc] - 1 : NONE;
				else
					q = arrow >= 2 ? arrow - 2 : NONE; /* x => */
				nm = name_before(c, q);
				if (q != NONE && q > 0 && is_id(c, q, "async"))
					q--;
				if (nm != NONE || q == NONE || !is_p(c, q, "=>"))
					break;
				arrow = q;
			}
			if (nm != NONE) {
				f.kind = 1;
				f.name = nm;
				frame *pp = top(c);
				f.cls = (pp && pp->kind == 2 && is_p(c, nm + 1, "="))
						? pp->cls
						: NONE;
			}
			goto done;
		}
		size_t pc = params_close(c, i);
		if (pc != NONE && c->match[pc] < t->n && c->match[pc] > 0) {
			size_t o = c->match[pc];
			size_t q = o - 1;
			if (is_id(c, q, "if") || is_id(c, q, "while")) {
				f.kind = 3;
				f.gb = o + 1;
				f.ge = pc;
				goto done;
			}
			if (is_id(c, q, "function") ||
			    (is_p(c, q, "*") && is_id(c, q - 1, "function"))) {
				if (is_p(c, q, "*"))
					q--;
				size_t nm = name_before(c, q ? q - 1 : NONE);
				if (nm != NONE) {
					f.kind = 1;
					f.name = nm;
					f.cls = NONE;
				}
				goto done;
			}
			if (!is_ctl_kw(c, q)) {
				f.kind = 1;
				f.name = q;
				frame *pp = top(c);
				if (q > 0 && (is_id(c, q - 1, "function") ||
					      is_p(c, q - 1, "*")))
					f.cls = NONE;
				else
					f.cls = (pp && pp->kind == 2) ? pp->cls
								      : NONE;
				goto done;
			}
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
	char *r = fl_xjoin(cl, ".", n);
	free(cl);
	free(n);
	return r;
}

/* Frame f is an if's block (or its else's). */
static bool frame_is_if(const ctx *c, const frame *f)
{
	return f->kind == 3 && f->gb != NONE && f->ge > f->gb &&
	       (f->neg || (f->gb >= 2 && is_id(c, f->gb - 2, "if")));
}

static char *guard_if_at(const ctx *c, size_t at)
{
	/* the frame around the guard's if: another if's block adds its
	 * condition (fl_guard_nest) */
	const frame *outer = c->nfr ? &c->fr[c->nfr - 1] : NULL;
	char *g;
	bool is_if;
	/* brace-less `if (cond) stmt` */
	if (at > 1 && (is_id(c, at - 1, "return") || is_id(c, at - 1, "await")))
		at--;
	if (at > 0 && is_p(c, at - 1, ")") && c->match[at - 1] < c->t.n) {
		size_t o = c->match[at - 1];
		if (!(o > 0 && (is_id(c, o - 1, "if") || is_id(c, o - 1, "while"))))
			return NULL;
		g = fl_tok_span_text(&c->t, o + 1, at - 1, 200);
		is_if = is_id(c, o - 1, "if");
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
 * case */
static char *guard_at(const ctx *c, size_t at)
{
	char *g = guard_if_at(c, at), *sw = fl_switch_guard(&c->t, c->match, at);
	/* an if of the case's own around it: both hold */
	if (g && sw)
		return fl_guard_nest(sw, g, false);
	return g ? g : sw;
}

static char *var_expr_msg(const void *ud, size_t b, size_t e);
static const char *const js_decl[] = {"const", "let", "var", NULL};

/* The text local `name` (n bytes) holds at token at, when it is declared
 * once with one text before it in the enclosing function (`const header
 * = `Key "${key}"``), else NULL. */
static char *local_text(const ctx *c, size_t at, const char *name, size_t n)
{
	const frame *f = c->nfr ? &c->fr[c->nfr - 1] : NULL;
	size_t from = f && f->name != NONE ? f->name : 0;
	for (size_t k = at; k-- > from + 1;) {
		const fl_tok *x = &c->t.v[k];
		if (x->kind != FL_TK_IDENT || x->len != n ||
		    memcmp(c->t.src + x->off, name, n) != 0 || !is_p(c, k + 1, "=") ||
		    !(is_id(c, k - 1, "const") || is_id(c, k - 1, "let")))
			continue;
		return fl_var_msg(&c->t, c->match, from, at, k, js_decl, var_expr_msg, c);
	}
	return NULL;
}

/* Are the holes of text m names or member chains (`${a.b}`), not code? */
static bool simple_holes(const char *m)
{
	for (const char *h = strstr(m, "${"); h; h = strstr(h, "${")) {
		h += 2;
		while (isalnum((unsigned char)*h) || *h == '_' || *h == '$' || *h == '.')
			h++;
		if (*h != '}')
			return false;
	}
	return true;
}

/* msg with each hole `${name}` that names a local holding one text (the
 * head of the message kept in a const) replaced by that text; NULL when
 * there is none. */
static char *inline_locals(const ctx *c, size_t at, const char *msg)
{
	if (!strstr(msg, "${"))
		return NULL;
	fl_buf out = {0};
	bool any = false;
	for (const char *p = msg; *p;) {
		const char *h = strstr(p, "${");
		if (!h) {
			fl_buf_puts(&out, p);
			break;
		}
		fl_buf_put(&out, p, (size_t)(h - p));
		const char *nb = h + 2, *ne = nb;
		while (isalnum((unsigned char)*ne) || *ne == '_' || *ne == '$')
			ne++;
		char *v = NULL;
		if (*ne == '}' && ne > nb && !isdigit((unsigned char)*nb))
			v = local_text(c, at, nb, (size_t)(ne - nb));
		if (v && strlen(v) < 1000 && simple_holes(v)) {
			fl_buf_puts(&out, v);
			any = true;
			p = ne + 1;
		} else {
			fl_buf_put(&out, h, 2);
			p = nb;
		}
		free(v);
	}
	char *r = any ? fl_xstrdup(fl_buf_cstr(&out)) : NULL;
	fl_buf_free(&out);
	return r;
}

static void emit(ctx *c, size_t at, const char *msg, const char *code,
		 const char *cls, const char *type, const char *sev, int http,
		 const char *idiom)
{
	if (c->alt && *c->alt) {
		char *alt = *c->alt;
		*c->alt = NULL;
		if (msg && *msg)
			emit(c, at, alt, code, cls, type, sev, http, idiom);
		free(alt);
	}
	if ((!msg || !*msg) && !code)
		return;
	/* the holes of a template that print a known text: a styled
	 * literal shown as its text; each literal of a choice a site (two
	 * choices at most; not with a code, whose sites are one record) */
	char *inl = msg ? inline_locals(c, at, msg) : NULL;
	if (inl)
		msg = inl;
	char *plain = msg ? fl_js_hole_unstyle(msg) : NULL;
	if (plain)
		msg = plain;
	char *ca, *cb;
	if (msg && !code && c->choices < 2 && fl_js_hole_choice(msg, &ca, &cb)) {
		c->choices++;
		emit(c, at, ca, code, cls, type, sev, http, idiom);
		if (strcmp(ca, cb) != 0)
			emit(c, at, cb, code, cls, type, sev, http, idiom);
		c->choices--;
		free(ca);
		free(cb);
		free(plain);
		free(inl);
		return;
	}
	char *fn = func_name(c);
	char *g = c->guard ? NULL : guard_at(c, at);
	fl_site s = {.line = c->t.v[at].line,
		     .col = c->t.v[at].col,
		     .message = msg,
		     .code = code,
		     .cls = cls,
		     .type = type,
		     .severity = sev,
		     .http = http,
		     .function = fn,
		     .guard = c->guard ? c->guard : g,
		     .idiom = idiom};
	fl_site_add(c->out, &s);
	if (c->arg_code && code) {
		if (c->argc_n == c->argc_cap) {
			c->argc_cap = c->argc_cap ? 2 * c->argc_cap : 8;
			c->argc_v = fl_xrealloc(c->argc_v,
						c->argc_cap * sizeof *c->argc_v);
		}
		c->argc_v[c->argc_n++] = c->out->n - 1;
	}
	free(fn);
	free(g);
	free(plain);
	free(inl);
}

/* drop argument codes shared by sites with different messages */
static void drop_category_codes(ctx *c)
{
	fl_sites *o = c->out;
	bool *drop = fl_xcalloc(c->argc_n + 1, sizeof *drop);
	for (size_t a = 0; a < c->argc_n; a++)
		for (size_t b = c->out_base; b < o->n; b++) {
			const fl_site *x = &o->v[c->argc_v[a]], *y = &o->v[b];
			if (b != c->argc_v[a] && y->code &&
			    strcmp(x->code, y->code) == 0 &&
			    strcmp(x->message ? x->message : "",
				   y->message ? y->message : "") != 0)
				drop[a] = true;
		}
	for (size_t a = 0; a < c->argc_n; a++) {
		fl_site *x = &o->v[c->argc_v[a]];
		if (drop[a] && x->message && *x->message) {
			free((void *)x->code);
			x->code = NULL;
		}
	}
	free(drop);
}

/* ---- site rules ------------------------------------------------------------ */

/* end of the expression statement starting at b */
static size_t stmt_end(const ctx *c, size_t b)
{
	const fl_toks *t = &c->t;
	size_t k = b;
	for (size_t n = 0; k < t->n && n < 4000; n++) {
		const fl_tok *tk = &t->v[k];
		if (k > b && (tk->flags & FL_TF_NL_BEFORE)) {
			bool cont = is_p(c, k, "+") || is_p(c, k, ".") ||
				    is_p(c, k - 1, "+") || is_p(c, k - 1, "(") ||
				    is_p(c, k - 1, ",");
			if (!cont)
				break;
		}
		if (is_p(c, k, ";") || is_p(c, k, "}") || is_p(c, k, ")") ||
		    is_p(c, k, "]") || is_p(c, k, ","))
			break;
		if (c->match[k] < t->n && c->match[k] > k) {
			k = c->match[k] + 1;
			continue;
		}
		k++;
	}
	return k;
}

/* a construct `new X(args)` or `X(args)` at i (i at `new` or at X);
 * fills cls token range; returns the '(' index or NONE. */
static size_t ctor_at(const ctx *c, size_t i, size_t *cls)
{
	size_t k = i;
	if (is_id(c, k, "new"))
		k++;
	if (!is_kind(c, k, FL_TK_IDENT))
		return NONE;
	/* dotted name: take the last */
	while (is_p(c, k + 1, ".") && is_kind(c, k + 2, FL_TK_IDENT))
		k += 2;
	if (!is_p(c, k + 1, "("))
		return NONE;
	*cls = k;
	return k + 1;
}

/* report an error object construction (new X(...)) at site position at */

static char *var_expr_msg(const void *ud, size_t b, size_t e)
{
	const ctx *c = ud;
	if (is_p(c, b, "{") && c->match[b] == e - 1)
		return NULL; /* an object: not a message */
	return msg_of(c, b, e);
}

/* message of a constructor argument: literals, templates, and a local
 * variable assigned one of those before (const msg = `...`; new Error(msg)) */
static char *ctor_arg_msg(const ctx *c, size_t b, size_t e)
{
	while (e > b && unstyle(c, &b, &e))
		;
	char *m = msg_of(c, b, e);
	if (m || e - b != 1 || !is_kind(c, b, FL_TK_IDENT))
		return m;
	const frame *f = c->nfr ? &c->fr[c->nfr - 1] : NULL;
	size_t from = f && f->name != NONE ? f->name : 0;
	return fl_var_msg(&c->t, c->match, from, b, b, js_decl, var_expr_msg, c);
}

/* The texts of an assignment's expression [b, e) (fl_var_msgs): a
 * message, or each arm of a choice that is one. */
static size_t expr_texts(const void *ud, size_t b, size_t e, fl_strv *out)
{
	const ctx *c = ud;
	size_t q, colon;
	if (ternary(c, b, e, &q, &colon))
		return expr_texts(ud, q + 1, colon, out) + expr_texts(ud, colon + 1, e, out);
	char *m = var_expr_msg(ud, b, e);
	if (!m)
		return 0;
	fl_strv_push(out, m);
	free(m);
	return 1;
}

/* The texts a local variable passed as argument [b, e) holds where it is
 * used when its assignments differ by branch (`let message = '...'; if
 * (x) message = '...'`): appended to out (at most 4); how many. */
static size_t ctor_arg_texts(const ctx *c, size_t b, size_t e, fl_strv *out)
{
	if (e - b != 1 || !is_kind(c, b, FL_TK_IDENT))
		return 0;
	const frame *f = c->nfr ? &c->fr[c->nfr - 1] : NULL;
	size_t from = f && f->name != NONE ? f->name : 0;
	return fl_var_msgs(&c->t, c->match, from, b, b, js_decl, expr_texts, c, 4, out);
}

/* ---- error classes with a default message -----------------------------------
 * `class ConnectTimeoutError extends UndiciError { constructor (message) {
 * super(message); this.message = message || 'Connect Timeout Error';
 * this.code = 'UND_ERR_CONNECT_TIMEOUT' } }` (undici), or `super('...')`:
 * the message and code live in the class.  The class is a site of its own,
 * and the tree (collect(): the classes of every file) gives them to a
 * `new ConnectTimeoutError()` that has no message of its own. */
typedef struct jsclass {
	size_t name;       /* token of the class name */
	size_t at;         /* token where the message (or code) is set */
	char *msg, *code;  /* owned */
	char *params;      /* owned: the constructor's parameters, one per
			      line, when the message names one ("${feature}") */
	size_t tpl;        /* the string of `this.messageTemplate = "name"`,
			      or NONE */
} jsclass;

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
static bool names_param(const char *msg, const char *params)
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

static bool errorish(const fl_toks *t, size_t k)
{
	const char *n = t->src + t->v[k].off;
	size_t l = t->v[k].len;
	return t->v[k].kind == FL_TK_IDENT &&
	       ((l >= 5 && memcmp(n + l - 5, "Error", 5) == 0) ||
		(l >= 9 && memcmp(n + l - 9, "Exception", 9) == 0));
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
	return e > b && is_kind(c, b, FL_TK_STRING) ? msg_of(c, b, e) : NULL;
}

/* The class declared at token i (`class`), its default message and code,
 * or false. */
static bool class_defaults(const ctx *c, size_t i, jsclass *jc)
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
			size_t v = q + 4, e = v;
			while (e < end && !is_p(c, e, ";") &&
			       !(e > v && (t->v[e].flags & FL_TF_NL_BEFORE) &&
				 !is_p(c, e, "||") && !is_p(c, e - 1, "||") &&
				 !is_p(c, e, "??") && !is_p(c, e - 1, "??")))
				e = fl_tok_is_opener(t, e) && c->match[e] < end ? c->match[e] + 1 : e + 1;
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
				if (jc->msg)
					jc->at = q;
			}
		}
	}
	if (jc->msg && !*jc->msg) {
		free(jc->msg);
		jc->msg = NULL;
	}
	if (params && jc->msg && names_param(jc->msg, params))
		jc->params = params;
	else
		free(params);
	if (!jc->msg && !jc->code)
		return false;
	jc->name = name;
	return true;
}

/* `new X(args)` of a class whose message names constructor parameters:
 * that message with each named parameter replaced by its argument (a
 * literal's text, else the expression as a hole ${expr}); NULL when the
 * class has none. */
static char *compose_ctor(const ctx *c, const char *cls, const size_t *s, const size_t *e,
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
				values[np] = msg_of(c, s[np], e[np]);
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
static bool tpl_file(const char *path, const char **name, size_t *len)
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
static void tpl_collect(fl_classdefs *tr, const ctx *c, const char *name, size_t len)
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
static void tpl_sites(ctx *c, const char *name, size_t len)
{
	size_t at[MAX_TPL];
	char *msg[MAX_TPL];
	size_t n = tpl_texts(c, at, msg, MAX_TPL);
	char *fn = fl_xstrndup(name, len);
	for (size_t k = 0; k < n; k++) {
		/* holes printing a known text, as emit() reads them */
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
		emit(c, at, m, code, cls, type, sev, http, idiom);
	}
	return k;
}

/* A byte scan before lexing: a file that can declare such a class, or
 * make one with createError(). */
static bool has_error_class(const char *s, size_t n)
{
	return ((fl_memmem(s, n, "this.message", 12) || fl_memmem(s, n, "this.code", 9) ||
		 fl_memmem(s, n, "super(", 6)) &&
		fl_may_declare_error_class(s, n)) ||
	       fl_memmem(s, n, "createError(", 12);
}

/* report_ctor() without a message: the class's default, if the tree has
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
	char *m = obj_message(c, close + 2, &code);
	free(m);
	return code;
}

static void report_ctor(ctx *c, size_t at, size_t clsi, size_t open,
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
	    code_first_create(c, open, &msg, &code, &http, &base)) {
		/* an error class made by @fastify/error: its message and code */
		free(cls);
		cls = base;
	} else if (looks_code_name(cls, strlen(cls)) &&
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
			int st = status_of(c, s[k], e[k]);
			if (st && !http)
				http = st;
			else if (!msg && is_p(c, s[k], "{"))
				msg = obj_message(c, s[k], &code);
			else if (!msg)
				msg = msg_of(c, s[k], e[k]);
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
		msg = compose_ctor(c, cls, s, e, na);
		if (msg)
			class_default(c, cls, &msg, &code);
		for (size_t k = 0; k < na && !msg; k++) {
			if (is_p(c, s[k], "{") && c->match[s[k]] == e[k] - 1)
				msg = obj_message(c, s[k], &code);
			else
				msg = ctor_arg_msg(c, s[k], e[k]);
			if (msg && k + 1 < na && looks_code(msg) &&
			    is_kind(c, s[k], FL_TK_STRING) && e[k] == s[k] + 1) {
				char *m2 = msg_of(c, s[k + 1], e[k + 1]);
				if (m2) {
					free(code);
					code = msg;
					msg = m2;
				}
			}
			if (msg && !code && k + 1 < na) {
				code = arg_code(c, s[k + 1], e[k + 1]);
				c->arg_code = code != NULL;
			}
		}
		/* code: in a later options object */
		for (size_t k = 0; k < na && !code; k++)
			if (is_p(c, s[k], "{")) {
				char *m = obj_message(c, s[k], &code);
				free(m);
			}
		/* a local holding one text per branch: a site each */
		for (size_t k = 0; k < na && !msg && !texts.n; k++)
			if (ctor_arg_texts(c, s[k], e[k], &texts) >= 2)
				msg = fl_xstrdup(texts.v[0]);
			else
				fl_strv_free(&texts);
		if (!msg)
			class_default(c, cls, &msg, &code);
		int st = http_by_name(cls);
		/* NestJS's HttpException('msg', HttpStatus.X) takes the status
		 * second, Hono's HTTPException(401, { message }) first */
		if (!st && (strcmp(cls, "HttpException") == 0 || strcmp(cls, "HTTPException") == 0)) {
			for (size_t k = 0; k < na && !st; k++)
				st = status_of(c, s[k], e[k]);
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
	if (extra_code && !code)
		code = fl_xstrdup(extra_code);
	if (!code)
		code = assign_code(c, clsi, open);
	tpl_emit(c, at, cls, code, type, sev, http, idiom);
	emit(c, at, msg, code, cls, type, sev, http, idiom);
	for (size_t k = 1; k < texts.n; k++)
		emit(c, at, texts.v[k], code, cls, type, sev, http, idiom);
	fl_strv_free(&texts);
	c->arg_code = false;
	free(msg);
	free(code);
	free(cls);
}

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
static void rule_throw_factory(ctx *c, size_t i, size_t name, size_t open)
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
			    ? obj_message(c, st[a], &code) /* { message: '..', code: '..' } */
			    : msg_of(c, st[a], en[a]);
	if (!m) {
		free(code);
		return;
	}
	char *idiom = fl_xasprintf("throw %.*s", (int)n, s);
	emit(c, i, m, code, NULL, FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
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
static bool has_factory_decl(const char *s, size_t n)
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
static char *factory_msg(const ctx *c, size_t i, size_t *name)
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
		size_t o = ctor_at(c, k, &clsi);
		size_t st[2], en[2];
		if (o == NONE || !errorish(t, clsi) || split_args(c, o, st, en, 2) < 1)
			continue;
		char *m = msg_of(c, st[0], en[0]);
		if (!m && en[0] == st[0] + 1 && is_kind(c, st[0], FL_TK_IDENT))
			m = fl_var_msg(t, c->match, nm, st[0], st[0], js_decl, var_expr_msg, c);
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
 * throw is rule_throw_factory's) makes an error all the same: a site, with
 * the message of its first literal argument (or local variable holding
 * one), else the message the factory builds (the tree's). */
static void rule_factory_call(ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	if (!factory_name(s, n) || (n > 3 && memcmp(s, "get", 3) == 0) || c->match[i + 1] >= t->n ||
	    (i > 0 && (is_id(c, i - 1, "function") || is_id(c, i - 1, "new"))) ||
	    is_p(c, c->match[i + 1] + 1, "{"))
		return;
	size_t st[4], en[4];
	size_t na = split_args(c, i + 1, st, en, 4);
	char *m = NULL, *code = NULL;
	for (size_t a = 0; a < na && !m; a++)
		m = is_p(c, st[a], "{") && c->match[st[a]] == en[a] - 1
			    ? obj_message(c, st[a], &code) /* { message: '..', code: '..' } */
			    : ctor_arg_msg(c, st[a], en[a]);
	if (!m) {
		char *key = fl_xasprintf("fac:%.*s", (int)n, s);
		const char *dm, *dc;
		int ds;
		if (fl_classdefs_find(c->tree, key, &dm, &dc, &ds) && dm)
			m = fl_xstrdup(dm);
		free(key);
	}
	if (m && strchr(m, ' ')) /* one word is a key or a name, not a message */
		emit(c, i, m, code, NULL, FL_T_EXCEPTION, FL_S_ERROR, 0, "error factory call");
	free(m);
	free(code);
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
static bool has_reporter(const char *s, size_t n)
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
		if (en[q] == st[q] + 1 && c->t.v[st[q]].len == c->t.v[a].len &&
		    memcmp(c->t.src + c->t.v[st[q]].off, c->t.src + c->t.v[a].off, c->t.v[a].len) == 0)
			return (int)q;
	return -1;
}

/* The reporter whose parameters open at `open` ('(' after its name) and
 * whose body is the block at body: the position of the parameter it
 * reports, or -1.  When it throws it, the class it throws (*cls, else
 * NONE) and the parameter an if tests before (*cond, *neg; else -1). */
static int reporter_param(const ctx *c, size_t open, size_t body, size_t *cls, int *cond, bool *neg)
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
			size_t o = ctor_at(c, q + 1, &clsi);
			if (o == NONE || c->match[o] >= close || !is_kind(c, o + 1, FL_TK_IDENT))
				continue;
			from = o + 1;
			to = o + 2;
		} else if (is_kind(c, q, FL_TK_IDENT) && is_p(c, q + 1, "(") &&
			   c->match[q + 1] < close && !is_id(c, q - 1, "new") && reports_err(c, q)) {
			from = q + 2;
			to = c->match[q + 1];
		} else {
			continue;
		}
		for (size_t k = 0; k < np && param < 0; k++)
			if (en[k] == st[k] + 1 && is_kind(c, st[k], FL_TK_IDENT) &&
			    passes_param(c, from, to, st[k])) {
				param = (int)k;
				if (thrown && errorish(t, clsi)) {
					*cls = clsi;
					*cond = throw_cond(c, q, body, st, en, np, neg);
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
		      is_ctl_kw(c, i)))
		return NONE;
	return i;
}

/* In collect: the reporter declared at i (`function NAME(` or a method
 * `NAME(...) {` of a class or object), into the tree. */
static void reporter_collect(fl_classdefs *tr, const ctx *c, size_t i)
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
	size_t cls = NONE;
	int cond = -1;
	bool neg = false;
	int param = reporter_param(c, nm + 1, body, &cls, &cond, &neg);
	if (param < 0)
		return;
	char *key = fl_xasprintf("rep:%.*s", (int)t->v[nm].len, t->src + t->v[nm].off);
	/* "param", or "param cond neg Class" for a thrower */
	char *v = cls == NONE ? fl_xasprintf("%d", param)
			      : fl_xasprintf("%d %d %d %.*s", param, cond, neg ? 1 : 0, (int)t->v[cls].len,
					     t->src + t->v[cls].off);
	fl_classdefs_add(tr, key, v, NULL, method);
	free(key);
}

/* A call at i ('(' at i + 1) of a reporter of the tree: `this.NAME(...)`
 * of a method (self), `NAME(...)` of a function.  True when it is one. */
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
static bool has_pfactory(const char *s, size_t n)
{
	return fl_memmem(s, n, "return new ", 11) != NULL ||
	       fl_memmem(s, n, "return Object.assign(new ", 25) != NULL;
}

/* In collect: the factory declared at i (as reporter_collect), into the
 * tree. */
static void pfac_collect(fl_classdefs *tr, const ctx *c, size_t i)
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
	for (size_t q = body + 1; q < close && named; q++) {
		if (is_id(c, q, "function") || is_p(c, q, "=>") || is_id(c, q, "throw")) {
			nret = 0; /* a nested function, or a thrower: not this */
			break;
		}
		if (!is_id(c, q, "return"))
			continue;
		size_t r = q + 1, ci, o = NONE, ob = NONE;
		if (is_id(c, r, "Object") && is_p(c, r + 1, ".") && is_id(c, r + 2, "assign") &&
		    is_p(c, r + 3, "(") && is_id(c, r + 4, "new")) {
			o = ctor_at(c, r + 4, &ci);
			if (o != NONE && c->match[o] < t->n && is_p(c, c->match[o] + 1, ",") &&
			    is_p(c, c->match[o] + 2, "{"))
				ob = c->match[o] + 2;
		} else if (is_id(c, r, "new")) {
			o = ctor_at(c, r, &ci);
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
			msg = msg_of(c, st[0], en[0]);
		}
		if (msg && !names_param(msg, params.s)) {
			free(msg);
			msg = NULL;
		}
	}
	if (msg) {
		if (obj != NONE)
			free(obj_message(c, obj, &code));
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
static bool pfac_call(ctx *c, size_t i, size_t name, size_t open, bool self)
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
		values[k] = ctor_arg_msg(c, st[k], en[k]);
		/* a text, not a key or a name: words */
		if (values[k] && strchr(values[k], ' '))
			any = true;
	}
	if (any) {
		char *m = fl_msg_subst(tmpl, (const char *const *)names, (const char *const *)values, np);
		char *idiom = fl_xasprintf("throw %s%.*s", self ? "this." : "", (int)t->v[name].len,
					   t->src + t->v[name].off);
		c->used[name] = 1;
		emit(c, i, m, code, cls, FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
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

static bool rule_reporter_call(ctx *c, size_t i, bool self)
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
	char cls[128] = "";
	if (sscanf(pm, "%*d %d %d %127s", &cond, &neg, cls) != 3) {
		cond = -1;
		cls[0] = '\0';
	}
	char *m = ctor_arg_msg(c, st[k], en[k]), *code = NULL;
	for (size_t a = 0; a < na && m; a++)
		if (a != k && is_p(c, st[a], "{") && c->match[st[a]] == en[a] - 1) {
			char *om = obj_message(c, st[a], &code);
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
			c->guard = fl_guard_nest(guard_at(c, at), g, false);
		}
		emit(c, at, m, code, cls[0] ? cls : NULL, cls[0] ? FL_T_EXCEPTION : FL_T_CONSOLE,
		     FL_S_ERROR, 0, idiom);
		free(c->guard);
		c->guard = NULL;
		free(idiom);
	}
	free(m);
	free(code);
	return true;
}

static void rule_throw(ctx *c, size_t i)
{
	size_t k = i + 1, clsi;
	if (k >= c->t.n)
		return;
	size_t open = ctor_at(c, k, &clsi);
	if (open != NONE) {
		bool isnew = is_id(c, k, "new");
		/* a plain call: only class-like or known factories */
		if (!isnew) {
			const char *s = c->t.src + c->t.v[clsi].off;
			bool capital = *s >= 'A' && *s <= 'Z';
			if (!capital && !is_id(c, clsi, "createError")) {
				bool self = clsi == k + 2 && is_id(c, k, "this");
				if ((self || clsi == k) && pfac_call(c, i, clsi, open, self))
					return;
				rule_throw_factory(c, i, clsi, open);
				return;
			}
			if (is_id(c, clsi, "createError"))
				c->used[clsi] = 1;
		}
		if (isnew)
			c->used[k] = 1;
		report_ctor(c, i, clsi, open, isnew ? "throw new" : "throw",
			    NULL);
		return;
	}
	if (is_kind(c, k, FL_TK_STRING)) {
		size_t e = stmt_end(c, k);
		char *m = msg_of(c, k, e);
		emit(c, i, m, NULL, "Error", FL_T_EXCEPTION, FL_S_ERROR, 0,
		     "throw");
		free(m);
	}
}

static void rule_new_error(ctx *c, size_t i, const char *code);

/* `NAME = new X(...)` later thrown: report at `new` */
static bool rule_new_var(ctx *c, size_t i)
{
	if (i < 2 || !is_p(c, i - 1, "=") || !is_kind(c, i - 2, FL_TK_IDENT))
		return false;
	if (i >= 3 && (is_p(c, i - 3, ".") || is_p(c, i - 3, "?.")))
		return false;
	size_t clsi;
	size_t open = ctor_at(c, i, &clsi);
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
	int depth = 0;
	for (size_t k = c->match[open] + 1, n = 0; k < c->t.n && n < 400;
	     k++, n++) {
		if (is_p(c, k, "{") || is_p(c, k, "(") || is_p(c, k, "["))
			depth++;
		else if (is_p(c, k, "}") || is_p(c, k, ")") || is_p(c, k, "]"))
			if (--depth < 0)
				break;
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
		report_ctor(c, i, clsi, open, "throw new", code && *code ? code : NULL);
	else if (handed)
		rule_new_error(c, i, code && *code ? code : NULL);
	free(code);
	c->tpl = NULL;
	return true;
}

/* `new XError(..)` / `new XException(..)` handed on rather than thrown
 * (next(err), callback(err), emit('error', err), return err, abort(err)):
 * an error object with its message is an error site */
static void rule_new_error(ctx *c, size_t i, const char *code)
{
	size_t clsi;
	size_t open = ctor_at(c, i, &clsi);
	if (open == NONE || c->match[open] >= c->t.n)
		return;
	const char *n = c->t.src + c->t.v[clsi].off;
	size_t l = c->t.v[clsi].len;
	bool err = (l >= 5 && memcmp(n + l - 5, "Error", 5) == 0) ||
		   (l >= 9 && memcmp(n + l - 9, "Exception", 9) == 0);
	if (!err || !(n[0] >= 'A' && n[0] <= 'Z'))
		return;
	report_ctor(c, i, clsi, open, "new", code);
}

/* Promise.reject(x) / reject(x) */
static void rule_reject(ctx *c, size_t i, size_t open, const char *idiom)
{
	size_t s[2], e[2];
	size_t na = split_args(c, open, s, e, 2);
	if (na < 1)
		return;
	size_t clsi;
	size_t o2 = ctor_at(c, s[0], &clsi);
	if (o2 != NONE && is_id(c, s[0], "new")) {
		c->used[s[0]] = 1;
		report_ctor(c, i, clsi, o2, idiom, NULL);
		return;
	}
	if (o2 != NONE && is_id(c, clsi, "createError")) {
		c->used[clsi] = 1;
		report_ctor(c, i, clsi, o2, idiom, NULL);
		return;
	}
	if (is_kind(c, s[0], FL_TK_STRING) && strcmp(idiom, "Promise.reject") == 0) {
		char *m = msg_of(c, s[0], e[0]);
		emit(c, i, m, NULL, "Error", FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
		free(m);
	}
}

/* recv.status(N).send(..)/.json(..) */
static void rule_status(ctx *c, size_t i)
{
	/* i at receiver ident; i+1 '.', i+2 status|code, i+3 '(' */
	size_t o = i + 3;
	size_t cl = c->match[o];
	if (cl >= c->t.n)
		return;
	int st = status_of(c, o + 1, cl);
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
			msg = obj_message(c, s[0], &code);
		else
			msg = msg_of(c, s[0], e[0]);
	} else if (is_id(c, cl + 2, "end")) {
		msg = msg_of(c, s[0], e[0]);
	} else {
		return;
	}
	emit(c, i, msg, code, NULL, FL_T_HTTP, fl_http_severity(st), st,
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
	char *msg = msg_of(c, s[m], e[m]);
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
		emit(c, i, msg, NULL, "AssertionError", FL_T_EXCEPTION,
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
	int st = status_of(c, s[1], e[1]);
	char *msg = msg_of(c, s[2], e[2]);
	if (st >= 400 && st <= 599 && msg) {
		set_failing_guard(c, s[0], e[0]); /* it throws when falsy */
		emit(c, i, msg, NULL, NULL, FL_T_HTTP, fl_http_severity(st), st, "ctx.assert");
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
		int v = status_of(c, s[k], e[k]);
		if (v && !st)
			st = v;
		else if (!msg && is_p(c, s[k], "{"))
			msg = obj_message(c, s[k], &code);
		else if (!msg)
			msg = msg_of(c, s[k], e[k]);
	}
	if (st >= 400 && st <= 599)
		emit(c, i, msg, code, NULL, FL_T_HTTP, fl_http_severity(st), st,
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
		char *m = msg_of(c, s[k], e[k]);
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
		msg = na == 1 ? ctor_arg_msg(c, s[0], e[0]) : msg_of(c, s[0], e[0]);
	if (msg && na > 1 && !strchr(msg, '%') && na <= MAX_JOINED) {
		/* console.error('a:', x) prints its arguments joined by spaces */
		free(msg);
		msg = join_args_msg(c, s, e, 0, na);
	}
	for (size_t k = 1; k < na && !msg; k++)
		msg = msg_of(c, s[k], e[k]);
	emit(c, i, msg, NULL, NULL, FL_T_CONSOLE,
	     warn ? FL_S_WARNING : FL_S_ERROR, 0, idiom);
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
	char *msg = ctor_arg_msg(c, s[0], e[0]);
	if (msg && has_text(msg)) {
		emit(c, i, msg, NULL, NULL, FL_T_CONSOLE, fl_print_severity(msg), 0,
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
		emit(c, i, msg, NULL, "AssertError", FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
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
	char *msg = msg_of(c, s[0], e[0]);
	if (msg) {
		char idiom[64];
		snprintf(idiom, sizeof idiom, "Boom.%.*s", (int)c->t.v[i + 2].len,
			 c->t.src + c->t.v[i + 2].off);
		emit(c, i, msg, NULL, "Boom", FL_T_HTTP, fl_http_severity(st), st, idiom);
	}
	free(msg);
}

static void rules(ctx *c)
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
		if (k->kind != FL_TK_IDENT || c->used[i])
			continue;
		if (*c->alt) {
			free(*c->alt);
			*c->alt = NULL;
		}
		bool member = i > 0 && (is_p(c, i - 1, ".") || is_p(c, i - 1, "?."));
		if (member) {
			if (is_p(c, i + 1, "(") && is_id(c, i - 2, "this"))
				rule_reporter_call(c, i, true);
			continue;
		}
		if (fl_tok_is(t, i, "throw")) {
			rule_throw(c, i);
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
		} else if (t->v[i].kind == FL_TK_IDENT && logger_name(t, i) && is_p(c, i + 1, ".") &&
			   is_p(c, i + 3, "(") &&
			   (is_id(c, i + 2, "error") || is_id(c, i + 2, "warn") ||
			    is_id(c, i + 2, "fatal") || is_id(c, i + 2, "warning"))) {
			/* a project's logger: log.error('prefix', msg) */
			bool warn = is_id(c, i + 2, "warn") || is_id(c, i + 2, "warning");
			rule_console(c, i, warn, warn ? "logger.warn" : "logger.error");
		} else if (is_p(c, i + 1, ".") &&
			   (is_id(c, i + 2, "status") || is_id(c, i + 2, "code")) &&
			   is_p(c, i + 3, "(")) {
			rule_status(c, i);
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
				char *m = msg_of(c, s[0], e[0]);
				emit(c, i, m, NULL, NULL, FL_T_CONSOLE,
				     FL_S_WARNING, 0, "deprecate");
				free(m);
			}
		} else if (fl_tok_is(t, i, "createError") && is_p(c, i + 1, "(")) {
			report_ctor(c, i, i, i + 1, "createError", NULL);
		} else if (is_p(c, i + 1, "(")) {
			if (!rule_reporter_call(c, i, false))
				rule_factory_call(c, i);
		}
	}
}

static bool jsx_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	return !(dot && (strcmp(dot, ".ts") == 0 || strcmp(dot, ".mts") == 0 ||
			 strcmp(dot, ".cts") == 0));
}

static void js_collect(void *tree, const fl_src *src)
{
	fl_classdefs *tr = tree;
	const char *tn;
	size_t tl;
	bool tf = tpl_file(src->path, &tn, &tl);
	if (!tr || !src->text ||
	    (!tf && !has_error_class(src->text, src->len) &&
	     !has_factory_decl(src->text, src->len) && !has_reporter(src->text, src->len) &&
	     !has_pfactory(src->text, src->len)))
		return;
	ctx c = {0};
	fl_toks_init(&c.t, src);
	fl_js_lex(&c.t, jsx_of(src->path));
	c.match = fl_tok_match_table(&c.t, FL_MATCH_SKIP_ONE);
	if (tf)
		tpl_collect(tr, &c, tn, tl);
	for (size_t i = 0; i + 2 < c.t.n && tr->n < 65536; i++) {
		/* NAME: createError('CODE', 'message', ...) or NAME = ... */
		if (i >= 2 && is_id(&c, i, "createError") && is_p(&c, i + 1, "(") &&
		    is_kind(&c, i - 2, FL_TK_IDENT) &&
		    (is_p(&c, i - 1, ":") || is_p(&c, i - 1, "="))) {
			char *msg, *code;
			int http;
			if (code_first_create(&c, i + 1, &msg, &code, &http, NULL)) {
				char *name = fl_tok_dup(&c.t, i - 2);
				fl_classdefs_add(tr, name, msg, code, http);
				free(name);
			}
			continue;
		}
		if (is_id(&c, i, "function") || (is_kind(&c, i, FL_TK_IDENT) && is_p(&c, i + 1, "("))) {
			reporter_collect(tr, &c, i);
			pfac_collect(tr, &c, i);
		}
		size_t fn;
		char *fm = is_id(&c, i, "function") ? factory_msg(&c, i, &fn) : NULL;
		if (fm) {
			char *key = fl_xasprintf("fac:%.*s", (int)c.t.v[fn].len, c.t.src + c.t.v[fn].off);
			fl_classdefs_add(tr, key, fm, NULL, 0);
			free(key);
			continue;
		}
		jsclass jc;
		if (!is_id(&c, i, "class") || !class_defaults(&c, i, &jc))
			continue;
		char *name = fl_tok_dup(&c.t, jc.name);
		if (jc.tpl != NONE) {
			char *key = fl_xasprintf("tplof:%s", name);
			fl_classdefs_add(tr, key, fl_xstrdup(fl_tok_str(&c.t, &c.t.v[jc.tpl])),
					 NULL, 0);
			free(key);
		}
		fl_classdefs_add_params(tr, name, jc.msg, jc.code, 0, jc.params);
		free(name);
	}
	free(c.match);
	fl_toks_free(&c.t);
}

/* The error classes of the file are sites of their own. */
static void class_sites(ctx *c)
{
	for (size_t i = 0; i + 2 < c->t.n; i++) {
		jsclass jc;
		if (!is_id(c, i, "class") || !class_defaults(c, i, &jc))
			continue;
		char *cls = fl_tok_dup(&c->t, jc.name);
		fl_site s = {.line = c->t.v[jc.at].line,
			     .col = c->t.v[jc.at].col,
			     .message = jc.msg,
			     .code = jc.code,
			     .cls = cls,
			     .type = FL_T_EXCEPTION,
			     .severity = FL_S_ERROR,
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

static void scan(const void *tree, const fl_src *src, fl_sites *out)
{
	ctx c = {0};
	c.tree = tree;
	fl_toks_init(&c.t, src);
	const char *dot = src->path ? strrchr(src->path, '.') : NULL;
	bool jsx = true;
	if (dot && (strcmp(dot, ".ts") == 0 || strcmp(dot, ".mts") == 0 ||
		    strcmp(dot, ".cts") == 0))
		jsx = false;
	fl_js_lex(&c.t, jsx);
	c.out = out;
	c.match = fl_tok_match_table(&c.t, FL_MATCH_SKIP_ONE);
	c.used = fl_xcalloc(c.t.n + 1, 1);
	c.out_base = out->n;
	if (src->text && has_error_class(src->text, src->len))
		class_sites(&c);
	const char *tn;
	size_t tl;
	if (tpl_file(src->path, &tn, &tl))
		tpl_sites(&c, tn, tl);
	c.hoek = src->text && fl_memmem(src->text, src->len, "hoek", 4) != NULL;
	char *alt = NULL;
	c.alt = &alt;
	rules(&c);
	free(alt);
	drop_category_codes(&c);
	free(c.argc_v);
	free(c.used);
	free(c.match);
	free(c.fr);
	fl_toks_free(&c.t);
}

static bool is_test_file(const char *path)
{
	static const char *const exts[] = {".js",  ".jsx", ".ts", ".tsx",
					   ".mjs", ".cjs", ".mts", ".cts",
					   NULL};
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	if (!dot)
		return false;
	bool ok = false;
	for (const char *const *e = exts; *e; e++)
		if (strcmp(dot, *e) == 0)
			ok = true;
	if (!ok)
		return false;
	size_t stem = (size_t)(dot - base);
	static const char *const sfx[] = {".test", ".spec", "_test", NULL};
	for (const char *const *s = sfx; *s; s++) {
		size_t l = strlen(*s);
		if (stem > l && memcmp(dot - l, *s, l) == 0)
			return true;
	}
	return false;
}

static const char *const exts[] = {".js",  ".jsx", ".mjs", ".cjs", ".ts",
				   ".tsx", ".mts", ".cts", NULL};

const fl_lang fl_lang_js = {.name = "js",
			    .extensions = exts,
			    .is_test_file = is_test_file,
			    .tree_new = fl_classdefs_new,
			    .tree_free = fl_classdefs_free,
			    .collect = js_collect,
			    .tree_merge = fl_classdefs_merge,
			    .scan = scan};
