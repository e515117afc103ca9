/*
 * lang_php.c — PHP: lexer and rules.
 *
 * Lexer: only code inside <?php ... ?> / <?= ... ?> is code; //, # and
 * block comments (`#[` is an attribute); '..' (\' and \\ only), ".." and
 * heredoc with escapes and interpolation ($var, {$expr}, ${expr} become
 * {var} / {expr}), nowdoc, indented closing markers (PHP 7.3+).
 *
 * Rules: throw new X(..), throw X::factory(..), ValidationException::
 * withMessages, trigger_error, abort / abort_if / abort_unless, die / exit,
 * error_log, Symfony createNotFoundException / *HttpException.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang.h"
#include "lex.h"
#include "../util.h"

#define NONE ((size_t)-1)

/* ---- lexer ------------------------------------------------------------- */

static const char *const php_ops[] = {
	"===", "!==", "<=>", "**=", "...", "<<=", ">>=", "?\?=", "?->", "::",
	"->",  "=>",  "==",  "!=",  "<>",  "<=",  ">=",  "&&",  "||",  "??",
	"++",  "--",  "+=",  "-=",  "*=",  "/=",  ".=",  "%=",  "&=",  "|=",
	"^=",  "**",  "<<",  ">>",  NULL};

static bool is_id_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

static bool is_id_char(int c)
{
	return is_id_start(c) || (c >= '0' && c <= '9');
}

/* escape in a double-quoted string / heredoc at t->pos (backslash) */
static void php_escape(fl_toks *t, char q)
{
	fl_buf *b = &t->arena;
	int n = fl_lx_peek(t, 1);
	switch (n) {
	case 'n': fl_buf_putc(b, '\n'); t->pos += 2; return;
	case 't': fl_buf_putc(b, '\t'); t->pos += 2; return;
	case 'r': fl_buf_putc(b, '\r'); t->pos += 2; return;
	case 'v': fl_buf_putc(b, '\v'); t->pos += 2; return;
	case 'e': fl_buf_putc(b, '\x1b'); t->pos += 2; return;
	case 'f': fl_buf_putc(b, '\f'); t->pos += 2; return;
	case '\\': fl_buf_putc(b, '\\'); t->pos += 2; return;
	case '$': fl_buf_putc(b, '$'); t->pos += 2; return;
	case 'x':
		if (fl_hexval(fl_lx_peek(t, 2)) >= 0) {
			int v = fl_hexval(fl_lx_peek(t, 2));
			t->pos += 3;
			if (fl_hexval(fl_lx_peek(t, 0)) >= 0) {
				v = v * 16 + fl_hexval(fl_lx_peek(t, 0));
				t->pos++;
			}
			fl_buf_putc(b, (char)v);
			return;
		}
		break;
	case 'u':
		if (fl_lx_peek(t, 2) == '{') {
			size_t p = t->pos + 3;
			uint32_t v = 0;
			int k = 0;
			while (p < t->srclen && k < 7 &&
			       fl_hexval((unsigned char)t->src[p]) >= 0) {
				v = v * 16 + (uint32_t)fl_hexval((unsigned char)t->src[p]);
				p++;
				k++;
			}
			if (k > 0 && p < t->srclen && t->src[p] == '}') {
				fl_buf_put_utf8(b, v);
				t->pos = p + 1;
				return;
			}
		}
		break;
	default:
		if (n >= '0' && n <= '7') {
			int v = 0;
			t->pos++;
			for (int k = 0; k < 3; k++) {
				int d = fl_lx_peek(t, 0);
				if (d < '0' || d > '7')
					break;
				v = v * 8 + (d - '0');
				t->pos++;
			}
			fl_buf_putc(b, (char)(v & 0xFF));
			return;
		}
		if (q && n == q) {
			fl_buf_putc(b, q);
			t->pos += 2;
			return;
		}
		break;
	}
	/* not an escape: backslash kept */
	fl_buf_putc(b, '\\');
	t->pos++;
}

/* end of a {$...} / ${...} group whose '{' is at p: index of the '}' */
static size_t brace_end(const fl_toks *t, size_t p, size_t end)
{
	int depth = 0;
	while (p < end) {
		char c = t->src[p];
		if (c == '{') {
			depth++;
		} else if (c == '}') {
			if (--depth == 0)
				return p;
		} else if (c == '\'' || c == '"') {
			p++;
			while (p < end && t->src[p] != c && t->src[p] != '\n') {
				if (t->src[p] == '\\')
					p++;
				p++;
			}
		} else if (c == '\n') {
			return end; /* be conservative */
		}
		p++;
	}
	return end;
}

static void put_placeholder(fl_toks *t, size_t b, size_t e)
{
	fl_buf_putc(&t->arena, '{');
	while (b < e && t->src[b] == '$')
		b++;
	fl_buf_put(&t->arena, t->src + b, e - b);
	fl_buf_putc(&t->arena, '}');
}

/* Decode interpolating text from t->pos up to quote q (consumed) or, for
 * heredocs (q == 0), up to end, removing `indent` leading blanks per line.
 * Returns FL_TF_INTERP when an interpolation was seen. */
static uint8_t php_interp(fl_toks *t, char q, size_t end, size_t indent)
{
	uint8_t fl = 0;
	while (t->pos < end) {
		char c = t->src[t->pos];
		int n = fl_lx_peek(t, 1);
		if (q && c == q) {
			t->pos++;
			return fl;
		}
		if (c == '\\') {
			php_escape(t, q);
			continue;
		}
		if (c == '$' && is_id_start(n)) {
			size_t s = t->pos;
			t->pos++;
			while (t->pos < end && is_id_char((unsigned char)t->src[t->pos]))
				t->pos++;
			if (t->pos < end && t->src[t->pos] == '[') {
				size_t p = t->pos + 1;
				while (p < end && p - t->pos < 128 && t->src[p] != ']' &&
				       t->src[p] != '\n' && t->src[p] != q)
					p++;
				if (p < end && t->src[p] == ']')
					t->pos = p + 1;
			} else if (t->pos + 2 < end && t->src[t->pos] == '-' &&
				   t->src[t->pos + 1] == '>' &&
				   is_id_start((unsigned char)t->src[t->pos + 2])) {
				t->pos += 2;
				while (t->pos < end &&
				       is_id_char((unsigned char)t->src[t->pos]))
					t->pos++;
			}
			put_placeholder(t, s, t->pos);
			fl = FL_TF_INTERP;
			continue;
		}
		if ((c == '{' && n == '$') || (c == '$' && n == '{')) {
			size_t ob = c == '{' ? t->pos : t->pos + 1;
			size_t cb = brace_end(t, ob, end);
			if (cb < end) {
				put_placeholder(t, ob + 1, cb);
				t->pos = cb + 1;
				fl = FL_TF_INTERP;
				continue;
			}
		}
		if (c == '\n') {
			fl_buf_putc(&t->arena, '\n');
			fl_lx_adv(t);
			for (size_t k = 0; k < indent && t->pos < end &&
					   (t->src[t->pos] == ' ' ||
					    t->src[t->pos] == '\t');
			     k++)
				t->pos++;
			continue;
		}
		size_t s = t->pos;
		while (t->pos < end) {
			c = t->src[t->pos];
			if (c == q || c == '\\' || c == '$' || c == '{' ||
			    c == '\n')
				break;
			t->pos++;
		}
		if (t->pos == s)
			t->pos++;
		fl_buf_put(&t->arena, t->src + s, t->pos - s);
	}
	return fl;
}

static void lex_dq(fl_toks *t, char q)
{
	size_t start = t->pos;
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, 0, t->line,
				   fl_lx_col(t));
	size_t ti = t->n - 1;
	fl_toks_str_begin(t, tok);
	t->pos++;
	uint8_t fl = php_interp(t, q, t->srclen, 0);
	tok = &t->v[ti];
	tok->flags |= fl;
	tok->len = (uint32_t)(t->pos - start);
	fl_toks_str_end(t, tok);
}

static void lex_sq(fl_toks *t)
{
	size_t start = t->pos;
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, 0, t->line,
				   fl_lx_col(t));
	fl_toks_str_begin(t, tok);
	t->pos++;
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		if (c == '\'') {
			t->pos++;
			break;
		}
		if (c == '\\') {
			int n = fl_lx_peek(t, 1);
			if (n == '\'' || n == '\\') {
				fl_buf_putc(&t->arena, (char)n);
				t->pos += 2;
				continue;
			}
		}
		if (c == '\n') {
			fl_buf_putc(&t->arena, c);
			fl_lx_adv(t);
			continue;
		}
		size_t s = t->pos;
		while (t->pos < t->srclen && t->src[t->pos] != '\'' &&
		       t->src[t->pos] != '\\' && t->src[t->pos] != '\n')
			t->pos++;
		if (t->pos == s)
			t->pos++;
		fl_buf_put(&t->arena, t->src + s, t->pos - s);
	}
	tok->len = (uint32_t)(t->pos - start);
	fl_toks_str_end(t, tok);
}

/* <<<ID / <<<"ID" / <<<'ID' at t->pos; returns false if not a heredoc */
static bool lex_heredoc(fl_toks *t)
{
	size_t p = t->pos + 3;
	while (p < t->srclen && (t->src[p] == ' ' || t->src[p] == '\t'))
		p++;
	char qc = 0;
	if (p < t->srclen && (t->src[p] == '"' || t->src[p] == '\''))
		qc = t->src[p++];
	size_t ids = p;
	if (p >= t->srclen || !is_id_start((unsigned char)t->src[p]))
		return false;
	while (p < t->srclen && is_id_char((unsigned char)t->src[p]))
		p++;
	size_t idl = p - ids;
	if (qc) {
		if (p >= t->srclen || t->src[p] != qc)
			return false;
		p++;
	}
	if (p < t->srclen && t->src[p] == '\r')
		p++;
	if (p >= t->srclen || t->src[p] != '\n')
		return false;
	size_t body = p + 1;
	/* find the closing marker line */
	size_t ls = body, body_end = t->srclen, close_end = t->srclen,
	       indent = 0;
	while (ls < t->srclen) {
		size_t q = ls;
		while (q < t->srclen && (t->src[q] == ' ' || t->src[q] == '\t'))
			q++;
		if (q + idl <= t->srclen &&
		    memcmp(t->src + q, t->src + ids, idl) == 0 &&
		    (q + idl == t->srclen ||
		     !is_id_char((unsigned char)t->src[q + idl]))) {
			indent = q - ls;
			body_end = ls > body ? ls - 1 : body; /* drop last \n */
			if (body_end > body && t->src[body_end - 1] == '\r')
				body_end--;
			close_end = q + idl;
			break;
		}
		const char *nl = memchr(t->src + ls, '\n', t->srclen - ls);
		if (!nl)
			break;
		ls = (size_t)(nl - t->src) + 1;
	}
	size_t start = t->pos;
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, 0, t->line,
				   fl_lx_col(t));
	size_t ti = t->n - 1;
	fl_toks_str_begin(t, tok);
	/* move to body start (line tracking) */
	while (t->pos < body)
		fl_lx_adv(t);
	for (size_t k = 0; k < indent && t->pos < body_end &&
			   (t->src[t->pos] == ' ' || t->src[t->pos] == '\t');
	     k++)
		t->pos++;
	uint8_t fl = 0;
	if (qc == '\'') {
		/* nowdoc: raw, indentation removed */
		while (t->pos < body_end) {
			char c = t->src[t->pos];
			fl_buf_putc(&t->arena, c);
			fl_lx_adv(t);
			if (c == '\n')
				for (size_t k = 0;
				     k < indent && t->pos < body_end &&
				     (t->src[t->pos] == ' ' || t->src[t->pos] == '\t');
				     k++)
					t->pos++;
		}
	} else {
		fl = php_interp(t, 0, body_end, indent);
	}
	while (t->pos < close_end)
		fl_lx_adv(t);
	tok = &t->v[ti];
	tok->flags |= fl | (qc == '\'' ? FL_TF_RAW : 0);
	tok->len = (uint32_t)(t->pos - start);
	fl_toks_str_end(t, tok);
	return true;
}

/* line comment: to newline or ?> */
static void php_line_comment(fl_toks *t)
{
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		if (c == '\n')
			return;
		if (c == '?' && fl_lx_peek(t, 1) == '>')
			return;
		t->pos++;
	}
}

static bool open_tag(const fl_toks *t, size_t p, size_t *after)
{
	if (p + 2 > t->srclen || t->src[p] != '<' || t->src[p + 1] != '?')
		return false;
	if (p + 2 < t->srclen && t->src[p + 2] == '=') {
		*after = p + 3;
		return true;
	}
	if (p + 5 <= t->srclen) {
		const char *s = t->src + p + 2;
		if ((s[0] | 0x20) == 'p' && (s[1] | 0x20) == 'h' &&
		    (s[2] | 0x20) == 'p') {
			*after = p + 5;
			return true;
		}
	}
	return false;
}

/* move t->pos forward to p, counting lines (a newline crossed counts
 * as one before the next token) */
static void jump_to(fl_toks *t, size_t p)
{
	int line = t->line;
	fl_lx_adv_to(t, p);
	if (t->line != line)
		t->nl = true;
}

static void lex_php(fl_toks *t)
{
	bool html = true;
	for (;;) {
		if (html) {
			size_t after = 0, p = t->pos;
			bool found = false;
			while (p < t->srclen) {
				const char *lt = memchr(t->src + p, '<',
							t->srclen - p);
				if (!lt)
					break;
				p = (size_t)(lt - t->src);
				if (open_tag(t, p, &after)) {
					found = true;
					break;
				}
				p++;
			}
			jump_to(t, found ? after : t->srclen);
			if (!found)
				break;
			html = false;
			continue;
		}
		fl_lx_skip_ws(t);
		if (t->pos >= t->srclen)
			break;
		unsigned char c = (unsigned char)t->src[t->pos];
		int n = fl_lx_peek(t, 1);
		if (c == '?' && n == '>') {
			fl_toks_push(t, FL_TK_PUNCT, t->pos, 2, t->line,
				     fl_lx_col(t));
			t->pos += 2;
			html = true;
		} else if (c == '#' && n == '[') {
			fl_lx_punct(t, NULL);
		} else if (c == '#' || (c == '/' && n == '/')) {
			php_line_comment(t);
		} else if (c == '/' && n == '*') {
			fl_lx_block_comment(t, "/*", "*/", false);
		} else if (c == '\'') {
			lex_sq(t);
		} else if (c == '"' || c == '`') {
			lex_dq(t, (char)c);
		} else if (c == '<' && n == '<' && fl_lx_peek(t, 2) == '<' &&
			   lex_heredoc(t)) {
			;
		} else if (c == '$' && is_id_start(n)) {
			size_t s = t->pos;
			int col = fl_lx_col(t);
			t->pos++;
			while (t->pos < t->srclen &&
			       is_id_char((unsigned char)t->src[t->pos]))
				t->pos++;
			fl_toks_push(t, FL_TK_IDENT, s, t->pos - s, t->line, col);
		} else if (is_id_start(c)) {
			fl_lx_ident(t, false);
		} else if ((c >= '0' && c <= '9') ||
			   (c == '.' && n >= '0' && n <= '9')) {
			fl_lx_number(t);
		} else {
			fl_lx_punct(t, php_ops);
		}
	}
}

/* ---- rules ------------------------------------------------------------- */

typedef struct frame {
	uint8_t kind; /* 0 block, 1 function, 2 class, 3 control */
	size_t name, cls;
	size_t gb, ge;
	bool neg; /* an else's block: it runs when the guard does not hold */
} frame;

/* The tree (the collect pass): what a caught exception's getMessage()
 * holds.  thrown: by class, the one message `throw new C('...')` gives it
 * in the tree (two, or one not known, make it unknown); decl: "C" for a
 * class the tree declares, ">C" for one a class of the tree extends. */
typedef struct php_tree {
	fl_classdefs *thrown, *decl;
} php_tree;

typedef struct ctx {
	fl_toks t;
	size_t *match;
	fl_sites *out;
	frame *fr;
	size_t nfr, capfr;
	uint8_t *used;
	const php_tree *tree; /* scan: the collected tree, or NULL */
	php_tree *part;       /* collect: the file's part (nothing emitted) */
} ctx;

static const char *const concat_dot[] = {".", NULL};
static const char *const wrappers[] = {"__", "_", "gettext", "trans",
				       "_e", "__e", "esc_html__", NULL};
static const fl_msg_opts msg_opts = {.concat_ops = concat_dot,
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

/* message of [b, e) with guards against pathological inputs */
static char *msg_of(const ctx *c, size_t b, size_t e)
{
	char *m = fl_msg_guarded(&c->t, b, e, &msg_opts, 4000, 48, true);
	if (m && !*m) {
		free(m);
		return NULL;
	}
	return m;
}

static frame *top(ctx *c)
{
	return c->nfr ? &c->fr[c->nfr - 1] : NULL;
}


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

/* message of one argument: sprintf("fmt", ..) gives fmt with %% decoded;
 * a named argument `name: expr` is looked through; a local variable (or
 * one joined by `.`) gives what it was assigned, `depth` levels deep
 * ($message = $e->getMessage() . ':' . $errors, with $errors a local) */
static char *expr_msg(const ctx *c, size_t b, size_t e, int depth);

struct var_ud {
	const ctx *c;
	int depth;
};

static char *var_expr_msg(const void *ud, size_t b, size_t e)
{
	const struct var_ud *u = ud;
	return expr_msg(u->c, b, e, u->depth);
}

/* message of an argument [b, e): literals, sprintf(...), and a local
 * variable assigned one of those before (throw new X($message)) */
static char *arg_msg(const ctx *c, size_t b, size_t e)
{
	return expr_msg(c, b, e, 2);
}

static const frame *top_c(const ctx *c)
{
	return c->nfr ? &c->fr[c->nfr - 1] : NULL;
}

/* Is [b, e) one local variable ($x, not $this)? */
static bool local_var(const ctx *c, size_t b, size_t e)
{
	return e == b + 1 && is_kind(c, b, FL_TK_IDENT) && c->t.src[c->t.v[b].off] == '$' &&
	       !is_id(c, b, "$this");
}

/* the message local variable b holds where it is used, NULL if unknown */
static char *local_msg(const ctx *c, size_t b, int depth)
{
	if (depth <= 0)
		return NULL;
	const frame *f = top_c(c);
	size_t from = f && f->name != NONE ? f->name : 0;
	struct var_ud u = {c, depth - 1};
	return fl_var_msg(&c->t, c->match, from, b, b, NULL, var_expr_msg, &u);
}

/* At least 3 letters outside {placeholders}: a text of its own. */
static bool has_text(const char *m)
{
	int letters = 0, depth = 0;
	for (const char *p = m; *p && letters < 3; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}' && depth)
			depth--;
		else if (!depth && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				    (unsigned char)*p >= 0x80))
			letters++;
	}
	return letters >= 3;
}

/* The class of the exception `catch (C $v) { ... }` binds to variable v
 * (token v), the catch's block holding token at: its last name token, or
 * NONE (no such catch, several classes caught, another binding). */
static size_t caught_class(const ctx *c, size_t v, size_t at)
{
	const fl_tok *vt = &c->t.v[v];
	for (size_t k = at, n = 0; k-- > 0 && n < 20000; n++) {
		if (!is_id(c, k, "catch") || !is_p(c, k + 1, "("))
			continue;
		size_t cp = c->match[k + 1];
		if (cp >= c->t.n || !is_p(c, cp + 1, "{") || c->match[cp + 1] >= c->t.n ||
		    c->match[cp + 1] < at)
			continue;
		/* (\A\B $v): names and backslashes, then the variable */
		size_t last = NONE;
		for (size_t q = k + 2; q + 1 < cp; q++) {
			if (is_kind(c, q, FL_TK_IDENT) && c->t.src[c->t.v[q].off] != '$')
				last = q;
			else if (!is_p(c, q, "\\"))
				return NONE;
		}
		const fl_tok *x = &c->t.v[cp - 1];
		if (last == NONE || x->len != vt->len ||
		    memcmp(c->t.src + x->off, c->t.src + vt->off, x->len) != 0)
			continue; /* another variable: an outer catch may bind it */
		return last;
	}
	return NONE;
}

/* [b, e) is `$e->getMessage()` of a caught exception whose class the
 * tree throws with one message only, and which no class of the tree
 * extends: that message.  Caller frees; NULL otherwise. */
static char *caught_msg(const ctx *c, size_t b, size_t e)
{
	if (!c->tree || e != b + 5 || !is_kind(c, b, FL_TK_IDENT) ||
	    c->t.src[c->t.v[b].off] != '$' || !(is_p(c, b + 1, "->") || is_p(c, b + 1, "?->")) ||
	    !is_id(c, b + 2, "getMessage") || !is_p(c, b + 3, "(") || !is_p(c, b + 4, ")"))
		return NULL;
	size_t k = caught_class(c, b, b);
	if (k == NONE)
		return NULL;
	char *cls = fl_tok_dup(&c->t, k), *sub = fl_xjoin(">", "", cls);
	const char *m = NULL, *code, *d;
	int st;
	bool ok = fl_classdefs_find(c->tree->decl, cls, &d, &code, &st) &&
		  !fl_classdefs_find(c->tree->decl, sub, &d, &code, &st) &&
		  fl_classdefs_find(c->tree->thrown, cls, &m, &code, &st) && m;
	free(cls);
	free(sub);
	return ok ? fl_xstrdup(m) : NULL;
}

/* the name token of a sprintf / vsprintf call that is all of [b, e), a
 * leading `\` allowed (`\sprintf(...)`, as php-cs-fixer writes native
 * calls), or NONE */
static size_t sprintf_call(const ctx *c, size_t b, size_t e)
{
	if (b < e && is_p(c, b, "\\"))
		b++;
	if (b < e && e - b >= 3 && (is_id(c, b, "sprintf") || is_id(c, b, "vsprintf")) &&
	    is_p(c, b + 1, "(") && c->match[b + 1] == e - 1)
		return b;
	return NONE;
}

/* [b, e) joined by `.` with a sprintf(...) operand, or a local variable
 * that holds a message: sprintf('..%s..', $x) . $suffix, $err . '.'.  The
 * operands' texts joined (the call gives its format, a literal its text,
 * a local its message, anything else {its last name}); NULL when no
 * operand is such a call or local. */
static char *concat_sprintf(const ctx *c, size_t b, size_t e, int depth)
{
	size_t ob[16], oe[16], n = 0, k = b;
	char *var[16] = {0};
	bool call = false;
	while (k < e && n < 16) {
		size_t q = k;
		while (q < e && !is_p(c, q, "."))
			q = fl_tok_is_opener(&c->t, q) && c->match[q] < e ? c->match[q] + 1 : q + 1;
		if (q == k)
			goto fail;
		ob[n] = k;
		oe[n] = q;
		if (sprintf_call(c, k, q) != NONE)
			call = true;
		else if (local_var(c, k, q) && (var[n] = local_msg(c, k, depth)) != NULL)
			call = true;
		else if ((var[n] = caught_msg(c, k, q)) != NULL)
			call = true;
		n++;
		k = q + 1;
		if (q == e)
			break;
	}
	if (!call || n < 2 || oe[n - 1] != e)
		goto fail;
	fl_buf out = {0};
	for (size_t i = 0; i < n; i++) {
		if (var[i]) {
			fl_buf_puts(&out, var[i]);
			continue;
		}
		/* a literal as written: the blank between two pieces is text */
		size_t lb = ob[i], le = oe[i], f = sprintf_call(c, lb, le);
		size_t s[1], en[1];
		if (f != NONE && split_args(c, f + 1, s, en, 1) == 1 && en[0] == s[0] + 1 &&
		    is_kind(c, s[0], FL_TK_STRING)) {
			lb = s[0];
			le = en[0];
		}
		if (le == lb + 1 && is_kind(c, lb, FL_TK_STRING)) {
			const fl_tok *x = &c->t.v[lb];
			const char *r = fl_tok_str(&c->t, x);
			for (size_t q = 0; q < x->slen; q++) {
				fl_buf_putc(&out, r[q]);
				if (f != NONE && r[q] == '%' && q + 1 < x->slen && r[q + 1] == '%')
					q++;
			}
			continue;
		}
		char *p = f != NONE ? expr_msg(c, ob[i], oe[i], 0) : msg_of(c, ob[i], oe[i]);
		if (p) {
			fl_buf_puts(&out, p);
			free(p);
			continue;
		}
		/* its last name outside brackets: {getName} of
		 * Utils::getName($record), as the other messages name a call */
		size_t last = NONE;
		for (size_t q = ob[i]; q < oe[i];) {
			if (is_kind(c, q, FL_TK_IDENT))
				last = q;
			q = fl_tok_is_opener(&c->t, q) && c->match[q] < oe[i] ? c->match[q] + 1
									      : q + 1;
		}
		if (last == NONE) {
			fl_buf_free(&out);
			goto fail;
		}
		const fl_tok *x = &c->t.v[last];
		size_t skip = c->t.src[x->off] == '$';
		fl_buf_putc(&out, '{');
		fl_buf_put(&out, c->t.src + x->off + skip, x->len - skip);
		fl_buf_putc(&out, '}');
	}
	for (size_t i = 0; i < n; i++)
		free(var[i]);
	fl_buf_cstr(&out);
	fl_msg_trim(out.s);
	return out.s;
fail:
	for (size_t i = 0; i < n; i++)
		free(var[i]);
	return NULL;
}

/* The one text the file's one function or method `name` (token nm)
 * returns: `function badValue($v) { return "bad value $v"; }`, every
 * `return` of its body giving that same text; else NULL.  For `throw new
 * X(badValue($v))`, `$this->describe($key)`, `self::describe($key)`. */
static char *helper_msg(const ctx *c, size_t nm, int depth)
{
	const fl_tok *n = &c->t.v[nm];
	size_t found = NONE;
	if (!fl_helper_budget_take(c->t.n))
		return NULL;
	for (size_t k = 1; k + 1 < c->t.n; k++) {
		const fl_tok *x = &c->t.v[k];
		if (k == nm || x->kind != FL_TK_IDENT || x->len != n->len || !is_id(c, k - 1, "function") ||
		    memcmp(c->t.src + x->off, c->t.src + n->off, n->len) != 0 || !is_p(c, k + 1, "("))
			continue;
		if (found != NONE)
			return NULL; /* two of that name: which one runs is not known */
		found = k;
	}
	if (found == NONE)
		return NULL;
	size_t cp = c->match[found + 1], ob = cp + 1;
	if (cp >= c->t.n)
		return NULL;
	if (is_p(c, ob, ":")) /* a return type */
		while (ob < c->t.n && !is_p(c, ob, "{") && !is_p(c, ob, ";"))
			ob++;
	if (ob >= c->t.n || !is_p(c, ob, "{") || c->match[ob] >= c->t.n || c->match[ob] <= ob)
		return NULL;
	size_t close = c->match[ob];
	char *text = NULL;
	for (size_t q = ob + 1; q < close; q++) {
		if (is_id(c, q, "function") || is_id(c, q, "fn")) { /* a closure's returns are its own */
			size_t k = q + 1;
			while (k < close && !is_p(c, k, "{") && !is_p(c, k, ";"))
				k++;
			if (k < close && is_p(c, k, "{") && c->match[k] < close)
				q = c->match[k];
			continue;
		}
		if (!is_id(c, q, "return"))
			continue;
		size_t re = q + 1;
		while (re < close && !is_p(c, re, ";"))
			re = fl_tok_is_opener(&c->t, re) && c->match[re] < close && c->match[re] > re
				     ? c->match[re] + 1 : re + 1;
		char *m = re > q + 1 ? expr_msg(c, q + 1, re, depth - 1) : NULL;
		if (m && !has_text(m)) {
			free(m);
			m = NULL;
		}
		if (!fl_same_text(&text, m))
			return NULL;
		q = re;
	}
	return text;
}

/* [b, e) a call of a function or method of the file: its name's token */
static size_t helper_call(const ctx *c, size_t b, size_t e)
{
	size_t nm = b;
	if (e > b + 4 && (is_id(c, b, "$this") || is_id(c, b, "self") || is_id(c, b, "static")) &&
	    (is_p(c, b + 1, "->") || is_p(c, b + 1, "::")))
		nm = b + 2;
	if (!is_kind(c, nm, FL_TK_IDENT) || c->t.src[c->t.v[nm].off] == '$' || c->t.v[nm].len < 3 ||
	    !is_p(c, nm + 1, "(") || c->match[nm + 1] != e - 1 || (nm == b && b > 0 && (is_p(c, b - 1, "->") || is_p(c, b - 1, "::"))))
		return NONE;
	return nm;
}

static char *expr_msg(const ctx *c, size_t b, size_t e, int depth)
{
	if (e - b >= 3 && is_kind(c, b, FL_TK_IDENT) && is_p(c, b + 1, ":"))
		b += 2;
	if (local_var(c, b, e))
		return local_msg(c, b, depth);
	size_t call = sprintf_call(c, b, e);
	if (call != NONE) {
		b = call;
		size_t s[1], en[1];
		if (split_args(c, b + 1, s, en, 1) < 1)
			return NULL;
		char *m = depth > 0 ? concat_sprintf(c, s[0], en[0], depth) : NULL;
		if (!m)
			m = msg_of(c, s[0], en[0]);
		if (m) {
			char *w = m;
			for (const char *r = m; *r; r++) {
				*w++ = *r;
				if (r[0] == '%' && r[1] == '%')
					r++;
			}
			*w = '\0';
		}
		return m;
	}
	if (e - b <= 4000) {
		char *m = concat_sprintf(c, b, e, depth);
		if (m)
			return m;
	}
	/* the thrown argument itself only: a helper whose value a local
	 * holds for a placeholder returns a value (a path), not the text */
	size_t hc = depth >= 2 ? helper_call(c, b, e) : NONE;
	if (hc != NONE) {
		char *m = helper_msg(c, hc, depth);
		if (m)
			return m;
	}
	return msg_of(c, b, e);
}

/* ---- alternative messages ----------------------------------------------------
 * A message built in a local variable in several branches, or chosen by a
 * ternary, is thrown as one of a few texts:
 *
 *   if ($a) { $message = 'not found in '.$cwd; }
 *   else { $message = 'no config file: '.$file; }
 *   $hint = $full ? 'To start, create one.' : '';
 *   throw new \InvalidArgumentException($message.PHP_EOL.$hint);
 *
 * gives four records at the throw, one per text.  Only where there are
 * two texts at least; one text is arg_msg's. */

#define ALT_MAX 8

/* the top-level `?` and its `:` of [b, e) (not a short `?:`) */
static bool ternary(const ctx *c, size_t b, size_t e, size_t *q, size_t *col)
{
	int nest = 0;
	*q = NONE;
	for (size_t k = b; k < e; k++) {
		if (fl_tok_is_opener(&c->t, k) && c->match[k] < e) {
			k = c->match[k];
			continue;
		}
		if (is_p(c, k, "?")) {
			if (*q == NONE)
				*q = k;
			else
				nest++;
		} else if (is_p(c, k, ":") && *q != NONE) {
			if (nest) {
				nest--;
				continue;
			}
			*col = k;
			return k > *q + 1 && k + 1 < e;
		}
	}
	return false;
}

/* Is [b, e) one operand of a concatenation: no operator outside
 * brackets but member access (a string, a variable, a call, a constant,
 * a bracketed group)? */
static bool operand(const ctx *c, size_t b, size_t e)
{
	if (b >= e)
		return false;
	for (size_t k = b; k < e; k++) {
		if (fl_tok_is_opener(&c->t, k) && c->match[k] < e) {
			k = c->match[k];
			continue;
		}
		if (is_kind(c, k, FL_TK_PUNCT) && !is_p(c, k, "->") && !is_p(c, k, "?->") &&
		    !is_p(c, k, "::") && !is_p(c, k, "\\"))
			return false;
	}
	return true;
}

static size_t expr_alts(const ctx *c, size_t b, size_t e, int depth, fl_strv *out);

static size_t alts_put(fl_strv *out, const char *m)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i], m) == 0)
			return 0;
	fl_strv_push(out, m);
	return 1;
}

struct alt_ud {
	const ctx *c;
	int depth;
};

static size_t var_alts(const void *ud, size_t b, size_t e, fl_strv *out)
{
	const struct alt_ud *u = ud;
	return expr_alts(u->c, b, e, u->depth, out);
}

/* the texts of one operand of a concatenation: a literal's, PHP_EOL's
 * line break, a local's or a bracketed choice's alternatives, else the
 * operand's message or {its last name} */
static void operand_alts(const ctx *c, size_t b, size_t e, int depth, fl_strv *out)
{
	if (e == b + 1 && is_id(c, b, "PHP_EOL")) {
		fl_strv_push(out, "\n");
		return;
	}
	if ((local_var(c, b, e) || (is_p(c, b, "(") && c->match[b] == e - 1) ||
	     (e == b + 1 && is_kind(c, b, FL_TK_STRING))) &&
	    expr_alts(c, b, e, depth, out))
		return;
	char *m = caught_msg(c, b, e);
	if (!m)
		m = sprintf_call(c, b, e) != NONE ? expr_msg(c, b, e, 0) : msg_of(c, b, e);
	if (!m) {
		size_t last = NONE;
		for (size_t q = b; q < e;) {
			if (is_kind(c, q, FL_TK_IDENT))
				last = q;
			q = fl_tok_is_opener(&c->t, q) && c->match[q] < e ? c->match[q] + 1 : q + 1;
		}
		if (last == NONE)
			return;
		const fl_tok *x = &c->t.v[last];
		size_t skip = c->t.src[x->off] == '$';
		m = fl_xasprintf("{%.*s}", (int)(x->len - skip), c->t.src + x->off + skip);
	}
	fl_strv_push(out, m);
	free(m);
}

#define CONDS 4

/* one text of a join so far, and the branch each choice of a condition
 * on the way took (0 none yet, 1 the first, 2 the second) */
typedef struct part {
	char *s;
	uint8_t br[CONDS];
} part;

static bool same_span(const ctx *c, size_t b1, size_t e1, size_t b2, size_t e2)
{
	if (e1 - b1 != e2 - b2)
		return false;
	for (size_t k = 0; k < e1 - b1; k++) {
		const fl_tok *x = &c->t.v[b1 + k], *y = &c->t.v[b2 + k];
		if (x->kind != y->kind || x->len != y->len ||
		    memcmp(c->t.src + x->off, c->t.src + y->off, x->len) != 0)
			return false;
	}
	return true;
}

/* A bracketed choice (cond ? 'a' : 'b') of one text a branch: its two
 * texts in ov and the slot of its condition among cb/ce (a new one
 * added), else -1 */
static int choice_operand(const ctx *c, size_t b, size_t e, int depth, size_t *cb, size_t *ce,
			  size_t *nc, fl_strv *ov)
{
	size_t q, col;
	if (!is_p(c, b, "(") || c->match[b] != e - 1 || !ternary(c, b + 1, e - 1, &q, &col))
		return -1;
	fl_strv t1 = {0}, t2 = {0};
	int slot = -1;
	if (expr_alts(c, q + 1, col, depth, &t1) == 1 && expr_alts(c, col + 1, e - 1, depth, &t2) == 1) {
		for (size_t k = 0; k < *nc && slot < 0; k++)
			if (same_span(c, cb[k], ce[k], b + 1, q))
				slot = (int)k;
		if (slot < 0 && *nc < CONDS) {
			cb[*nc] = b + 1;
			ce[*nc] = q;
			slot = (int)(*nc)++;
		}
		if (slot >= 0) {
			fl_strv_push(ov, t1.v[0]);
			fl_strv_push(ov, t2.v[0]);
		}
	}
	fl_strv_free(&t1);
	fl_strv_free(&t2);
	return slot;
}

static void parts_free(part *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].s);
}

/* [b, e) joined by `.`: every choice of its operands' texts, at most
 * ALT_MAX (a condition that chooses twice takes the same branch both
 * times: ($g ? ' (global)' : '') ... ($g ? 'global ' : '')); 0 when it
 * is no such join or has more */
static size_t concat_alts(const ctx *c, size_t b, size_t e, int depth, fl_strv *out)
{
	part acc[ALT_MAX], next[ALT_MAX];
	size_t na = 1, k = b, nops = 0, cb[CONDS], ce[CONDS], nc = 0;
	acc[0] = (part){fl_xstrdup(""), {0}};
	while (k < e) {
		size_t q = k;
		while (q < e && !is_p(c, q, "."))
			q = fl_tok_is_opener(&c->t, q) && c->match[q] < e ? c->match[q] + 1 : q + 1;
		fl_strv ov = {0};
		int slot = choice_operand(c, k, q, depth, cb, ce, &nc, &ov);
		if (slot < 0 && operand(c, k, q))
			operand_alts(c, k, q, depth, &ov);
		size_t nn = 0;
		bool over = !ov.n;
		for (size_t i = 0; i < na && !over; i++)
			for (size_t j = 0; j < ov.n && !over; j++) {
				if (slot >= 0 && acc[i].br[slot] && acc[i].br[slot] != j + 1)
					continue;
				if (nn == ALT_MAX) {
					over = true;
					break;
				}
				next[nn] = acc[i];
				next[nn].s = fl_xjoin(acc[i].s, "", ov.v[j]);
				if (slot >= 0)
					next[nn].br[slot] = (uint8_t)(j + 1);
				nn++;
			}
		fl_strv_free(&ov);
		parts_free(acc, na);
		if (over) {
			parts_free(next, nn);
			return 0;
		}
		memcpy(acc, next, nn * sizeof *acc);
		na = nn;
		nops++;
		k = q + 1;
	}
	size_t n = 0;
	for (size_t i = 0; i < na && nops >= 2; i++)
		n += alts_put(out, acc[i].s);
	parts_free(acc, na);
	return n;
}

/* The texts [b, e) can have, appended to out: a choice `c ? x : y`
 * gives x's and y's, a local variable its assignments' (fl_var_msgs), a
 * join by `.` each combination of its operands' texts, '' the empty
 * text, anything else expr_msg's message.  Returns how many were
 * appended; 0 when unknown or more than ALT_MAX. */
static size_t expr_alts(const ctx *c, size_t b, size_t e, int depth, fl_strv *out)
{
	if (e - b >= 3 && is_kind(c, b, FL_TK_IDENT) && is_p(c, b + 1, ":"))
		b += 2;
	while (e - b >= 3 && is_p(c, b, "(") && c->match[b] == e - 1) {
		b++;
		e--;
	}
	if (b >= e || out->n >= ALT_MAX)
		return 0;
	if (e == b + 1 && is_kind(c, b, FL_TK_STRING)) {
		/* as written: the blank that ends 'global ' joins it to what
		 * follows */
		const fl_tok *x = &c->t.v[b];
		char *m = fl_xstrndup(fl_tok_str(&c->t, x), x->slen);
		size_t n = alts_put(out, m);
		free(m);
		return n;
	}
	if (local_var(c, b, e)) {
		if (depth <= 0)
			return 0;
		const frame *f = top_c(c);
		size_t from = f && f->name != NONE ? f->name : 0;
		struct alt_ud u = {c, depth - 1};
		fl_strv v = {0};
		size_t n = 0;
		if (fl_var_msgs(&c->t, c->match, from, b, b, NULL, var_alts, &u, ALT_MAX, &v))
			for (size_t i = 0; i < v.n; i++)
				n += alts_put(out, v.v[i]);
		fl_strv_free(&v);
		return n;
	}
	size_t q, col;
	if (ternary(c, b, e, &q, &col)) {
		fl_strv v = {0};
		size_t n = 0;
		if (expr_alts(c, q + 1, col, depth, &v) && expr_alts(c, col + 1, e, depth, &v) &&
		    v.n <= ALT_MAX)
			for (size_t i = 0; i < v.n; i++)
				n += alts_put(out, v.v[i]);
		fl_strv_free(&v);
		return n;
	}
	if (e - b <= 4000) {
		fl_strv v = {0};
		size_t n = 0;
		if (concat_alts(c, b, e, depth, &v) >= 2) {
			for (size_t i = 0; i < v.n; i++)
				n += alts_put(out, v.v[i]);
			fl_strv_free(&v);
			return n;
		}
		fl_strv_free(&v);
	}
	char *m = expr_msg(c, b, e, depth);
	size_t n = m ? alts_put(out, m) : 0;
	free(m);
	return n;
}

/* The texts of argument [b, e) when it has two at least: PHP_EOL a line
 * break, trailing blanks off, empty texts left out.  0 otherwise. */
static size_t arg_alts(const ctx *c, size_t b, size_t e, fl_strv *out)
{
	fl_strv v = {0};
	size_t n = 0;
	expr_alts(c, b, e, 2, &v);
	fl_strv t = {0};
	for (size_t i = 0; i < v.n && v.n >= 2; i++) {
		char *m = v.v[i], *w = m;
		for (const char *r = m; *r;) {
			if (strncmp(r, "{PHP_EOL}", 9) == 0) {
				*w++ = '\n';
				r += 9;
			} else {
				*w++ = *r++;
			}
		}
		*w = '\0';
		fl_msg_trim(m);
		if (*m)
			alts_put(&t, m);
	}
	fl_strv_free(&v);
	if (t.n >= 2)
		for (size_t i = 0; i < t.n; i++)
			n += alts_put(out, t.v[i]);
	fl_strv_free(&t);
	return n;
}

/* ---- frames -------------------------------------------------------------- */

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
static size_t qname(const ctx *c, size_t k, size_t *after)
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
			return msg_of(c, k, k + 1);
		return msg_of(c, k, e);
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
		if (m && has_text(m))
			fl_classdefs_add(c->part->thrown, cls, fl_xstrdup(m), NULL, 0);
		else if (!m || !strstr(m, "{getMessage}"))
			fl_classdefs_add(c->part->thrown, cls, NULL, NULL, 0);
		free(eol);
	}
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
			m = arg_msg(c, s[0], e[0]);
		emit(c, i, m, st == 404 ? "NotFoundHttpException"
				       : "AccessDeniedHttpException",
		     FL_T_HTTP, fl_http_severity(st), st, "throw");
		free(m);
		return;
	}
	size_t clsi = qname(c, k, &after);
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
			msg = arg_msg(c, s[a], e[a]);
			ma = a;
		}
	for (size_t a = first; a < na && !msg; a++) {
		if (is_kind(c, s[a], FL_TK_IDENT) && is_p(c, s[a] + 1, ":"))
			continue;
		if (ma == NONE)
			ma = a;
		msg = arg_msg(c, s[a], e[a]);
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
	bool several = ma != NONE && arg_alts(c, s[ma], e[ma], &alts);
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
	char *m = arg_msg(c, s[0], e[0]);
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
	char *m = arg_msg(c, s[ncond + 1], e[ncond + 1]);
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
	char *m = arg_msg(c, s[0], e[0]);
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
	char *m = arg_msg(c, s[ai], e[ai]);
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
	if (m && has_text(m)) {
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
	if (is_kind(c, v, FL_TK_IDENT) && is_p(c, v + 1, "::") && is_id(c, v + 2, "FAILURE") &&
	    is_p(c, v + 3, ";"))
		return true;
	return false;
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
	char *m = arg_msg(c, s[0], e[0]);
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
	const char *sev = tag == TAG_ERROR	 ? FL_S_ERROR
			  : tag == TAG_WARNING ? FL_S_WARNING
			  : fails_after(c, i + 1) ? FL_S_ERROR
						  : NULL;
	if (sev && *m) {
		char *idiom = fl_tok_dup(&c->t, i);
		emit(c, i, m, NULL, FL_T_CONSOLE, sev, 0, idiom);
		free(idiom);
	}
	free(m);
}

static bool console_method(const ctx *c, size_t i)
{
	return (is_id(c, i, "writeError") || is_id(c, i, "write") || is_id(c, i, "writeln")) &&
	       i > 0 && (is_p(c, i - 1, "->") || is_p(c, i - 1, "?->")) && is_p(c, i + 1, "(");
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

/* ---- the tree -------------------------------------------------------------- */

static void *tree_new(void)
{
	php_tree *t = fl_xcalloc(1, sizeof *t);
	t->thrown = fl_classdefs_new();
	t->decl = fl_classdefs_new();
	return t;
}

static void tree_free(void *tree)
{
	php_tree *t = tree;
	if (!t)
		return;
	fl_classdefs_free(t->thrown);
	fl_classdefs_free(t->decl);
	free(t);
}

static void tree_merge(void *tree, void *part)
{
	php_tree *t = tree, *p = part;
	fl_classdefs_merge(t->thrown, p->thrown);
	fl_classdefs_merge(t->decl, p->decl);
}

/* a file's tokens, from the collect pass to its scan */
typedef struct lexed {
	fl_toks t;
	size_t *match;
} lexed;

static void lexed_free(void *p)
{
	lexed *x = p;
	if (!x)
		return;
	free(x->match);
	fl_toks_free(&x->t);
	free(x);
}

/* The classes the file declares and extends, and the messages it throws
 * them with (collect_thrown); `new C(...)` not thrown here makes C's
 * message unknown (it is thrown elsewhere, with what message is not
 * known).  The file's tokens are returned with keep, else freed. */
static void *collect_file(void *part, const fl_src *src, bool keep)
{
	if (!part || !src->text || !src->len ||
	    (!fl_memmem(src->text, src->len, "throw", 5) && !fl_memmem(src->text, src->len, "class", 5)))
		return NULL;
	php_tree *pt = part;
	lexed *x = fl_xcalloc(1, sizeof *x);
	ctx c = {0};
	fl_toks_init(&c.t, src);
	lex_php(&c.t);
	c.match = fl_tok_match_table(&c.t, FL_MATCH_SKIP_ONE);
	c.part = pt;
	for (size_t k = 0; k + 1 < c.t.n; k++) {
		bool after_new = k > 0 && is_id(&c, k - 1, "new");
		if (is_id(&c, k, "class") && !after_new && !(k > 0 && is_p(&c, k - 1, "::")) &&
		    is_kind(&c, k + 1, FL_TK_IDENT)) {
			char *n = fl_tok_dup(&c.t, k + 1);
			fl_classdefs_add(pt->decl, n, fl_xstrdup("1"), NULL, 0);
			free(n);
		} else if (is_id(&c, k, "extends") || (is_id(&c, k, "new") &&
							!(k > 0 && is_id(&c, k - 1, "throw")))) {
			size_t after, last = qname(&c, k + 1, &after);
			if (last == NONE)
				continue;
			char *n = fl_tok_dup(&c.t, last);
			if (is_id(&c, k, "extends")) {
				char *sub = fl_xjoin(">", "", n);
				fl_classdefs_add(pt->decl, sub, fl_xstrdup("1"), NULL, 0);
				free(sub);
			} else {
				fl_classdefs_add(pt->thrown, n, NULL, NULL, 0);
			}
			free(n);
		}
	}
	rules(&c);
	free(c.fr);
	x->t = c.t;
	x->match = c.match;
	if (keep)
		return x;
	lexed_free(x);
	return NULL;
}

static void collect(void *tree, const fl_src *src)
{
	collect_file(tree, src, false);
}

static void *collect_keep(void *part, const fl_src *src)
{
	return collect_file(part, src, true);
}

static void scan(const void *tree, const fl_src *src, fl_sites *out)
{
	lexed *x = src->cache;
	ctx c = {0};
	if (x) {
		/* lexed by the collect pass, from this same text */
		c.t = x->t;
		c.match = x->match;
		free(x);
	} else {
		fl_toks_init(&c.t, src);
		lex_php(&c.t);
		c.match = fl_tok_match_table(&c.t, FL_MATCH_SKIP_ONE);
	}
	c.out = out;
	c.tree = tree;
	fl_helper_budget_reset(c.t.n);
	rules(&c);
	free(c.match);
	free(c.fr);
	fl_toks_free(&c.t);
}

static bool is_test_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	/* PHP packages keep their tests under Tests/ (Symfony, PSR-4
	 * "Vendor\\Pkg\\Tests\\" namespaces); the core only knows tests/ */
	if (strncmp(path, "Tests/", 6) == 0 || strstr(path, "/Tests/"))
		return true;
	return n > 8 && strcmp(base + n - 8, "Test.php") == 0;
}

static const char *const exts[] = {".php", NULL};

const fl_lang fl_lang_php = {.name = "php",
			     .extensions = exts,
			     .printf_ints = true,
			     .is_test_file = is_test_file,
			     .tree_new = tree_new,
			     .tree_free = tree_free,
			     .collect = collect,
			     .tree_merge = tree_merge,
			     .collect_keep = collect_keep,
			     .cache_free = lexed_free,
			     .scan = scan};
