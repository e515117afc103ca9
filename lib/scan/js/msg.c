/*
 * msg.c — the messages of a JavaScript / TypeScript error (js.h), built
 * from argument tokens: literals, templates and concatenations, a terminal
 * style around them (chalk.red(x)), both arms of `c ? 'a' : 'b'`,
 * `['...', x].join('\n')`, util.format / sprintf, an object literal's
 * message and code, a local holding the message (one text per branch; a
 * const read into a template's holes); error codes, HTTP statuses, and
 * @fastify/error's createError('CODE', 'message', status).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "js.h"

static const char *const concat_plus[] = {"+", NULL};
static const char *const wrappers[] = {"t", "__", "_", "gettext", "tr",
				       "i18n", NULL};
static const fl_msg_opts msg_opts = {.concat_ops = concat_plus,
				     .wrappers = wrappers};

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

/* `cond ? 'a' : 'b'`: the message of each arm that has one; the first,
 * the second kept in *c->alt for a site of its own (when both have one). */
static char *ternary_msg(const ctx *c, size_t b, size_t e)
{
	size_t q, colon;
	if (!ternary(c, b, e, &q, &colon))
		return NULL;
	char *m1 = js_msg_of(c, q + 1, colon), *m2 = js_msg_of(c, colon + 1, e);
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

static void put_part(const ctx *c, fl_buf *out, size_t b, size_t e, bool *lit);

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
		if (is_p(c, st[k], "..."))
			put_part(c, &out, st[k], en[k], NULL);
		else
			put_part(c, &out, st[k], en[k], &lit);
	}
	char *r = lit && n < 64 ? fl_xstrdup(fl_buf_cstr(&out)) : NULL;
	fl_buf_free(&out);
	return r;
}

/* An argument's part of a joined text: its message (*lit then set; lit
 * NULL: not looked for), else {name} of its last identifier (`{}` when it
 * has none). */
static void put_part(const ctx *c, fl_buf *out, size_t b, size_t e, bool *lit)
{
	if (lit && e == b + 1 && is_kind(c, b, FL_TK_STRING)) {
		/* as written: its blanks are the text's, "" none */
		fl_buf_put(out, fl_tok_str(&c->t, &c->t.v[b]), c->t.v[b].slen);
		*lit = *lit || c->t.v[b].slen > 0;
		return;
	}
	char *m = lit ? js_msg_of(c, b, e) : NULL;
	if (m) {
		*lit = true;
		fl_buf_puts(out, m);
		free(m);
		return;
	}
	size_t id = NONE;
	for (size_t q = b; q < e; q++)
		if (c->t.v[q].kind == FL_TK_IDENT)
			id = q;
	fl_buf_putc(out, '{');
	if (id != NONE)
		fl_buf_put(out, c->t.src + c->t.v[id].off, c->t.v[id].len);
	fl_buf_putc(out, '}');
}

/* `"Unknown argument ".concat(m, " here").concat(n)` [b, e), what Babel
 * makes of a template literal (a package's lib/ or bin/ as published):
 * the literal and the arguments joined; NULL when [b, e) is no such
 * chain. */
static char *concat_msg(const ctx *c, size_t b, size_t e)
{
	fl_buf out = {0};
	bool lit = false, ok = true;
	put_part(c, &out, b, b + 1, &lit);
	size_t k = b + 1, n = 0;
	while (k < e && ok) {
		size_t open = k + 2;
		size_t st[16], en[16], na;
		ok = is_p(c, k, ".") && is_id(c, k + 1, "concat") && is_p(c, open, "(") &&
		     c->match[open] < e && (na = split_args(c, open, st, en, 16)) <= 16 &&
		     ++n <= 16;
		for (size_t a = 0; ok && a < na; a++)
			put_part(c, &out, st[a], en[a], &lit);
		k = ok ? c->match[open] + 1 : e;
	}
	char *r = ok && lit && n ? fl_xstrdup(fl_buf_cstr(&out)) : NULL;
	fl_buf_free(&out);
	return r;
}

/* The text token a local named at token i (followed by ',' or ')') is
 * declared with (`let error = 'installCommandRenamed';`) in the enclosing
 * function before i: its first value, which later assignments may
 * change; NONE when there is none. */
static size_t key_local(const ctx *c, size_t i)
{
	if (!is_kind(c, i, FL_TK_IDENT) || !(is_p(c, i + 1, ",") || is_p(c, i + 1, ")")))
		return NONE;
	const frame *f = c->nfr ? &c->fr[c->nfr - 1] : NULL;
	size_t from = f && f->name != NONE ? f->name : 0;
	const fl_tok *x = &c->t.v[i];
	for (size_t k = i; k-- > from + 1;) {
		const fl_tok *y = &c->t.v[k];
		if (y->kind == FL_TK_IDENT && y->len == x->len &&
		    memcmp(c->t.src + y->off, c->t.src + x->off, x->len) == 0 && is_p(c, k + 1, "=") &&
		    (is_id(c, k - 1, "const") || is_id(c, k - 1, "let") || is_id(c, k - 1, "var")))
			return is_kind(c, k + 2, FL_TK_STRING) && (is_p(c, k + 3, ";") || k + 3 >= c->t.n ||
								    c->t.v[k + 3].line > c->t.v[k + 2].line)
				       ? k + 2
				       : NONE;
	}
	return NONE;
}

/* `reporter.lang('noPackageJson', loc)` [b, e): a call named for
 * translating (lang, t, i18n, __, translate, getMessage) given a name of
 * a table of texts of the tree ("msgname:NAME", js_table_collect): the
 * table's text, its $0, $1 ... the arguments after the name ({name} of
 * each one's last identifier, {} past the last); NULL when [b, e) is no
 * such call. */
char *js_i18n_msg(const ctx *c, size_t b, size_t e)
{
	static const char *const names[] = {"lang", "t", "i18n", "__", "translate", "getMessage", NULL};
	size_t k = b;
	while (k + 2 < e && is_kind(c, k, FL_TK_IDENT) && is_p(c, k + 1, ".") && is_kind(c, k + 2, FL_TK_IDENT))
		k += 2;
	if (!c->tree || !c->tree->n || !is_kind(c, k, FL_TK_IDENT) || !is_p(c, k + 1, "(") ||
	    c->match[k + 1] != e - 1)
		return NULL;
	bool named = false;
	for (const char *const *n = names; *n && !named; n++)
		named = is_id(c, k, *n);
	if (!named)
		return NULL;
	/* the name, or a local given it first (`let error =
	 * 'installCommandRenamed'; ... reporter.lang(error, ...)`) */
	size_t kt = is_kind(c, k + 2, FL_TK_STRING) ? k + 2 : key_local(c, k + 2);
	if (kt == NONE || c->t.v[kt].slen > 64)
		return NULL;
	char key[80];
	snprintf(key, sizeof key, "msgname:%.*s", (int)c->t.v[kt].slen, fl_tok_str(&c->t, &c->t.v[kt]));
	const char *text, *code;
	int st;
	if (!fl_classdefs_find(c->tree, key, &text, &code, &st) || !text)
		return NULL;
	size_t as[10], ae[10];
	size_t na = split_args(c, k + 1, as, ae, 10);
	fl_buf out = {0};
	for (const char *p = text; *p; p++) {
		if (*p != '$' || !(p[1] >= '0' && p[1] <= '9')) {
			fl_buf_putc(&out, *p);
			continue;
		}
		size_t a = (size_t)(p[1] - '0') + 1;
		p++;
		if (a < na && a < 10)
			put_part(c, &out, as[a], ae[a], NULL);
		else
			fl_buf_puts(&out, "{}");
	}
	char *r = fl_xstrdup(fl_buf_cstr(&out));
	fl_buf_free(&out);
	return r;
}

/* message of [b, e) with guards against pathological inputs */
char *js_msg_of(const ctx *c, size_t b, size_t e)
{
	while (e > b && unstyle(c, &b, &e))
		;
	if (e - b >= 6 && is_p(c, b, "[")) {
		char *jm = join_msg(c, b, e);
		if (jm)
			return jm;
	}
	if (e - b >= 4 && is_kind(c, b, FL_TK_IDENT) && is_p(c, e - 1, ")")) {
		char *im = js_i18n_msg(c, b, e);
		if (im)
			return im;
	}
	if (e - b >= 5 && is_kind(c, b, FL_TK_STRING) && is_p(c, b + 1, ".") &&
	    is_id(c, b + 2, "concat")) {
		char *cm = concat_msg(c, b, e);
		if (cm)
			return cm;
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
			return js_msg_of(c, s[0], en[0]);
	}
	char *m = fl_msg_guarded(&c->t, b, e, &msg_opts, 4000, 48, true);
	if (m && !*m) {
		free(m);
		return NULL;
	}
	return m;
}

/* value span of property `key` directly in the object literal at open */
bool js_obj_prop(const ctx *c, size_t open, const char *key, size_t *vb, size_t *ve)
{
	if (!is_p(c, open, "{"))
		return false;
	size_t s[64], e[64];
	size_t n = split_args(c, open, s, e, 64);
	for (size_t k = 0; k < n; k++) {
		size_t b = s[k];
		/* a shorthand property, `{ type: 'Parse', message, index }`:
		 * the name is its value */
		if (e[k] == b + 1 && c->t.v[b].kind == FL_TK_IDENT && fl_tok_is(&c->t, b, key)) {
			*vb = b;
			*ve = b + 1;
			return true;
		}
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

/* message from an object literal: message / error / msg / detail keys (a
 * local variable's literal too: { message: errDescription }) */
char *js_obj_message(const ctx *c, size_t open, char **code)
{
	static const char *const keys[] = {"message", "error", "msg",
					   "detail", "error_description",
					   NULL};
	size_t vb, ve;
	char *m = NULL;
	for (const char *const *k = keys; *k && !m; k++) {
		if (!js_obj_prop(c, open, *k, &vb, &ve))
			continue;
		if (is_p(c, vb, "{") && c->match[vb] == ve - 1)
			m = js_obj_message(c, vb, code);
		else
			m = js_ctor_arg_msg(c, vb, ve);
	}
	if (code && !*code && js_obj_prop(c, open, "code", &vb, &ve) &&
	    ve == vb + 1 && c->t.v[vb].kind == FL_TK_STRING &&
	    c->t.v[vb].slen)
		*code = fl_xstrdup(fl_tok_str(&c->t, &c->t.v[vb]));
	return m;
}

bool js_looks_code(const char *s)
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
bool js_looks_code_name(const char *s, size_t n)
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
char *js_arg_code(const ctx *c, size_t b, size_t e)
{
	const fl_toks *t = &c->t;
	if (e == b + 1 && t->v[b].kind == FL_TK_STRING) {
		const char *s = fl_tok_str(t, &t->v[b]);
		return js_looks_code_name(s, strlen(s)) ? fl_xstrdup(s) : NULL;
	}
	if (e == b + 3 && t->v[b].kind == FL_TK_IDENT && is_p(c, b + 1, ".") &&
	    t->v[b + 2].kind == FL_TK_IDENT) {
		const char *q = t->src + t->v[b].off;
		if (!(q[0] >= 'A' && q[0] <= 'Z'))
			return NULL;
		const char *s = t->src + t->v[b + 2].off;
		if (js_looks_code_name(s, t->v[b + 2].len))
			return fl_xstrndup(s, t->v[b + 2].len);
	}
	return NULL;
}

int js_http_by_name(const char *n)
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
int js_status_of(const ctx *c, size_t b, size_t e)
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
		int v = js_http_by_name(n);
		free(n);
		return v;
	}
	return 0;
}

/* @fastify/error: createError('FST_ERR_X', 'message %s', status, Base)
 * at the '(' open, the code first (http-errors' createError takes a
 * status first instead).  The message, code, status (0: none) and base
 * class (NULL: none), malloc'd; false when it is not that form. */
bool js_code_first_create(const ctx *c, size_t open, char **msg, char **code,
			  int *http, char **base)
{
	size_t s[8], e[8];
	size_t na = split_args(c, open, s, e, 8);
	if (na < 2 || na > 4 || e[0] != s[0] + 1 || !is_kind(c, s[0], FL_TK_STRING))
		return false;
	const char *cs = fl_tok_str(&c->t, &c->t.v[s[0]]);
	if (!cs || !js_looks_code(cs))
		return false;
	char *m = js_msg_of(c, s[1], e[1]);
	if (!m)
		return false;
	*msg = m;
	*code = fl_xstrdup(cs);
	*http = na >= 3 ? js_status_of(c, s[2], e[2]) : 0;
	if (*http < 100 || *http > 599)
		*http = 0;
	if (base)
		*base = na >= 4 && e[3] == s[3] + 1 && is_kind(c, s[3], FL_TK_IDENT)
			? fl_tok_dup(&c->t, s[3]) : NULL;
	return true;
}

const char *const js_decl[] = {"const", "let", "var", NULL};

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
		return fl_var_msg(&c->t, c->match, from, at, k, js_decl, js_var_expr_msg, c);
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
char *js_inline_locals(const ctx *c, size_t at, const char *msg)
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

char *js_var_expr_msg(const void *ud, size_t b, size_t e)
{
	const ctx *c = ud;
	if (is_p(c, b, "{") && c->match[b] == e - 1)
		return NULL; /* an object: not a message */
	return js_msg_of(c, b, e);
}

static bool js_keyword(const ctx *c, size_t i)
{
	static const char *const kw[] = {"if", "for", "while", "switch", "catch", "function",
					 "return", "with", "do", "else", "typeof", "await", NULL};
	for (size_t k = 0; kw[k]; k++)
		if (is_id(c, i, kw[k]))
			return true;
	return false;
}

/* The end of the expression returned at token q + 1 of a body closing at
 * close: a `;`, the body's `}`, or a new line that does not go on with
 * the expression. */
static size_t return_end(const ctx *c, size_t q, size_t close)
{
	size_t k = q + 1;
	while (k < close && !is_p(c, k, ";")) {
		if (k > q + 1 && (c->t.v[k].flags & FL_TF_NL_BEFORE)) {
			static const char *const go_on[] = {"+", ".", "?", ":", "?.", "||", "&&", "??", NULL};
			bool on = false;
			for (size_t g = 0; go_on[g] && !on; g++)
				on = is_p(c, k, go_on[g]) || is_p(c, k - 1, go_on[g]);
			on |= is_p(c, k - 1, "(") || is_p(c, k - 1, ",") || is_p(c, k - 1, "=>");
			if (!on)
				break;
		}
		if (fl_tok_is_opener(&c->t, k) && c->match[k] < c->t.n && c->match[k] > k)
			k = c->match[k] + 1;
		else if (fl_tok_is_closer(&c->t, k))
			break;
		else
			k++;
	}
	return k;
}

/* The one text the body [open, close] (its braces) returns: every
 * `return` of it (not of a function inside it) gives that same text;
 * else NULL. */
static char *body_text(const ctx *c, size_t open, size_t close)
{
	char *text = NULL;
	for (size_t q = open + 1; q < close; q++) {
		/* a function inside: its returns are its own */
		if (is_id(c, q, "function") || is_p(c, q, "=>")) {
			size_t k = q + 1;
			while (k < close && !is_p(c, k, "{") && !is_p(c, k, ";") &&
			       !((c->t.v[k].flags & FL_TF_NL_BEFORE) && is_p(c, q, "=>")))
				k = fl_tok_is_opener(&c->t, k) && c->match[k] < c->t.n && c->match[k] > k
					    ? c->match[k] + 1 : k + 1;
			if (k < close && is_p(c, k, "{") && c->match[k] < c->t.n && c->match[k] > k)
				q = c->match[k];
			continue;
		}
		if (!is_id(c, q, "return"))
			continue;
		size_t re = return_end(c, q, close);
		if (!fl_same_text(&text, re > q + 1 ? js_msg_of(c, q + 1, re) : NULL))
			return NULL;
		q = re;
	}
	return text;
}

/* The text the file's one function `name` returns (`function
 * badValue(v) { return `bad value ${v}`; }`, `const badValue = (v) =>
 * `...``, a class's method `badValue(v) { ... }` when method), for
 * `throw new Error(badValue(v))`; NULL when there is not exactly one such
 * declaration or its returns give no one text. */
static char *helper_text(const ctx *c, size_t nm, bool method)
{
	const fl_tok *n = &c->t.v[nm];
	const char *name = c->t.src + n->off;
	size_t found = NONE, body = NONE, arrow = NONE;
	if (!fl_helper_budget_take(c->t.n))
		return NULL;
	for (size_t k = 0; k + 2 < c->t.n; k++) {
		const fl_tok *x = &c->t.v[k];
		if (k == nm || x->kind != FL_TK_IDENT || x->len != n->len ||
		    memcmp(c->t.src + x->off, name, n->len) != 0)
			continue;
		size_t b = NONE, a = NONE;
		if (!method && k > 0 && is_id(c, k - 1, "function") && is_p(c, k + 1, "(")) {
			size_t cp = c->match[k + 1];
			if (cp < c->t.n && cp + 1 < c->t.n && is_p(c, cp + 1, "{"))
				b = cp + 1;
		} else if (!method && k > 0 && (is_id(c, k - 1, "const") || is_id(c, k - 1, "let")) &&
			   is_p(c, k + 1, "=")) {
			size_t p = k + 2;
			if (is_id(c, p, "async"))
				p++;
			if (is_p(c, p, "(") && c->match[p] < c->t.n)
				p = c->match[p] + 1;
			else if (is_kind(c, p, FL_TK_IDENT))
				p++;
			else
				continue;
			if (!is_p(c, p, "=>"))
				continue;
			if (is_p(c, p + 1, "{"))
				b = p + 1;
			else
				a = p + 1;
		} else if (method && is_p(c, k + 1, "(") && !js_keyword(c, k) &&
			   (k == 0 || !is_p(c, k - 1, "."))) {
			size_t cp = c->match[k + 1];
			if (cp < c->t.n && cp + 1 < c->t.n && is_p(c, cp + 1, "{"))
				b = cp + 1;
		}
		if (b == NONE && a == NONE)
			continue;
		if (found != NONE)
			return NULL; /* two of that name: which one runs is not known */
		found = k;
		body = b;
		arrow = a;
	}
	if (found == NONE)
		return NULL;
	if (arrow != NONE) {
		size_t e = return_end(c, arrow - 1, c->t.n);
		return e > arrow ? js_msg_of(c, arrow, e) : NULL;
	}
	size_t close = c->match[body];
	if (close >= c->t.n || close <= body)
		return NULL;
	return body_text(c, body, close);
}

/* The text a call [b, e) returns when it calls a helper of the file that
 * returns one: `badValue(v)`, `this.badValue(v)`. */
static char *call_text(const ctx *c, size_t b, size_t e)
{
	bool method = e > b + 4 && is_id(c, b, "this") && is_p(c, b + 1, ".");
	size_t nm = method ? b + 2 : b;
	if (!is_kind(c, nm, FL_TK_IDENT) || !is_p(c, nm + 1, "(") || c->match[nm + 1] != e - 1 ||
	    c->t.v[nm].len < 3 || (!method && b > 0 && is_p(c, b - 1, ".")) || js_keyword(c, nm))
		return NULL;
	return helper_text(c, nm, method);
}

/* message of a constructor argument: literals, templates, and a local
 * variable assigned one of those before (const msg = `...`; new Error(msg)) */
char *js_ctor_arg_msg(const ctx *c, size_t b, size_t e)
{
	while (e > b && unstyle(c, &b, &e))
		;
	char *m = js_msg_of(c, b, e);
	if (!m && e - b >= 3)
		m = call_text(c, b, e);
	if (m || e - b != 1 || !is_kind(c, b, FL_TK_IDENT))
		return m;
	const frame *f = c->nfr ? &c->fr[c->nfr - 1] : NULL;
	size_t from = f && f->name != NONE ? f->name : 0;
	return fl_var_msg(&c->t, c->match, from, b, b, js_decl, js_var_expr_msg, c);
}

/* The texts of an assignment's expression [b, e) (fl_var_msgs): a
 * message, or each arm of a choice that is one. */
static size_t expr_texts(const void *ud, size_t b, size_t e, fl_strv *out)
{
	const ctx *c = ud;
	size_t q, colon;
	if (ternary(c, b, e, &q, &colon))
		return expr_texts(ud, q + 1, colon, out) + expr_texts(ud, colon + 1, e, out);
	char *m = js_var_expr_msg(ud, b, e);
	if (!m)
		return 0;
	fl_strv_push(out, m);
	free(m);
	return 1;
}

/* The texts a local variable passed as argument [b, e) holds where it is
 * used when its assignments differ by branch (`let message = '...'; if
 * (x) message = '...'`): appended to out (at most 4); how many. */
size_t js_ctor_arg_texts(const ctx *c, size_t b, size_t e, fl_strv *out)
{
	if (e - b != 1 || !is_kind(c, b, FL_TK_IDENT))
		return 0;
	const frame *f = c->nfr ? &c->fr[c->nfr - 1] : NULL;
	size_t from = f && f->name != NONE ? f->name : 0;
	return fl_var_msgs(&c->t, c->match, from, b, b, js_decl, expr_texts, c, 4, out);
}
