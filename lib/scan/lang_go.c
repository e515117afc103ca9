/*
 * lang_go.c — Go: lexer (// and non-nested block comments, interpreted and
 * raw strings, runes) and error-site rules (errors.New, fmt.Errorf,
 * pkg/errors, panic, log.Fatal and log.Panic variants, http.Error, gRPC status.Error*,
 * slog and zap/logrus-style loggers, sentinel error variables).
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../strmap.h"
#include "../util.h"
#include "lang.h"
#include "lex.h"

#define NONE ((size_t)-1)
#define SCAN_LIMIT 256
#define MSG_TOK_LIMIT 512
#define MAX_ARGS 8

/* ---- lexer ------------------------------------------------------------------ */

static bool go_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

/* "..." — ends at the closing quote or (unterminated) before a newline */
static void go_interp(fl_toks *t)
{
	size_t start = t->pos;
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, 0, t->line, fl_lx_col(t));
	size_t ti = t->n - 1;
	fl_toks_str_begin(t, tok);
	t->pos++;
	const char *s = t->src;
	size_t n = t->srclen;
	while (t->pos < n) {
		char c = s[t->pos];
		if (c == '"') {
			t->pos++;
			break;
		}
		if (c == '\n')
			break;
		if (c == '\\') {
			if (fl_lx_peek(t, 1) == '\n') {
				t->pos++;
				break;
			}
			fl_lx_escape(t, &t->arena);
			continue;
		}
		size_t q = t->pos + 1;
		while (q < n && s[q] != '"' && s[q] != '\\' && s[q] != '\n')
			q++;
		fl_buf_put(&t->arena, s + t->pos, q - t->pos);
		t->pos = q;
	}
	tok = &t->v[ti];
	tok->len = (uint32_t)(t->pos - start);
	fl_toks_str_end(t, tok);
}

/* `...` raw string, multi-line, carriage returns dropped */
static void go_raw(fl_toks *t)
{
	size_t start = t->pos;
	int line = t->line, col = fl_lx_col(t);
	const char *s = t->src;
	const char *q = memchr(s + start + 1, '`', t->srclen - start - 1);
	size_t end = q ? (size_t)(q - s) : t->srclen;
	size_t after = q ? end + 1 : end;
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, after - start, line, col);
	tok->flags |= FL_TF_RAW;
	fl_toks_str_begin(t, tok);
	size_t p = start + 1;
	while (p < end) {
		const char *cr = memchr(s + p, '\r', end - p);
		size_t stop = cr ? (size_t)(cr - s) : end;
		fl_buf_put(&t->arena, s + p, stop - p);
		p = stop + 1;
	}
	fl_toks_str_end(t, tok);
	fl_lx_adv_to(t, after);
}

static void go_rune(fl_toks *t)
{
	const char *s = t->src;
	size_t p = t->pos, n = t->srclen;
	size_t q = p + 1, lim = p + 16;
	while (q < n && q < lim && s[q] != '\'' && s[q] != '\n') {
		if (s[q] == '\\')
			q++;
		q++;
	}
	int col = fl_lx_col(t);
	if (q < n && q < lim && s[q] == '\'') {
		t->pos = q + 1;
		fl_toks_push(t, FL_TK_CHAR, p, t->pos - p, t->line, col);
	} else {
		t->pos = p + 1;
		fl_toks_push(t, FL_TK_PUNCT, p, 1, t->line, col);
	}
}

/* Go's operators (spec "Operators and punctuation") */
static const char *const go_ops[] = {
	":=", "==", "!=", "*=", "/=", "%=", "^=", "<-", "<=", "<<", "<<=",
	">=", ">>", ">>=", "&&", "&=", "&^", "&^=", "||", "|=", "++", "+=",
	"--", "-=", "...", NULL};

static void go_lex(fl_toks *t)
{
	for (;;) {
		fl_lx_skip_ws(t);
		if (t->pos >= t->srclen)
			break;
		int c = (unsigned char)t->src[t->pos];
		int c1 = fl_lx_peek(t, 1);
		if (c == '/' && c1 == '/') {
			fl_lx_line_comment(t);
			continue;
		}
		if (c == '/' && c1 == '*') {
			fl_lx_block_comment(t, "/*", "*/", false);
			continue;
		}
		if (c == '"')
			go_interp(t);
		else if (c == '`')
			go_raw(t);
		else if (c == '\'')
			go_rune(t);
		else if (c >= '0' && c <= '9')
			fl_lx_number(t);
		else if (c == '.' && c1 >= '0' && c1 <= '9')
			fl_lx_number(t);
		else if (go_ident_start(c))
			fl_lx_ident(t, false);
		else
			fl_lx_punct(t, go_ops);
	}
}

/* ---- token helpers ------------------------------------------------------------ */


/* the arguments of the bracket at open (at most MAX_ARGS) */
static size_t go_args(const fl_toks *t, const size_t *m, size_t open,
		      size_t *sb, size_t *se)
{
	return fl_tok_split_args(t, m, open, sb, se, MAX_ARGS, NULL, 0);
}

static const char *const go_concat[] = {"+", NULL};

static bool is_qcall(const fl_toks *t, size_t b, const char *pkg, const char *fn)
{
	return fl_tok_is_ident(t, b, pkg) && fl_tok_pch(t, b + 1) == '.' &&
	       fl_tok_is_ident(t, b + 2, fn) && fl_tok_pch(t, b + 3) == '(';
}

/* string constants of the file: const name = "text" */
typedef struct {
	size_t *name, *lit; /* token indices */
	size_t n, cap;
	fl_strmap idx;      /* name -> index (a file may declare thousands) */
} go_kcs;

/* the name of token i as a map key in buf; false when too long */
static bool kc_key(const fl_toks *t, size_t i, char *buf, size_t cap)
{
	const fl_tok *x = &t->v[i];
	if (x->len == 0 || x->len >= cap)
		return false;
	memcpy(buf, t->src + x->off, x->len);
	buf[x->len] = '\0';
	return true;
}

static const char *go_kconst(const go_kcs *kc, const fl_toks *t, size_t b, size_t e,
			     size_t *len);

static char *go_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t b, size_t e,
		    bool fmt, int depth);

/* the text of [b, e) when it is one name of a string constant of the
 * file (a name with two different texts is none) */
static const char *go_kconst(const go_kcs *kc, const fl_toks *t, size_t b, size_t e,
			     size_t *len)
{
	if (!kc || !kc->n || e != b + 1 || t->v[b].kind != FL_TK_IDENT)
		return NULL;
	char key[128];
	size_t i;
	if (!kc_key(t, b, key, sizeof key) || !fl_strmap_get(&kc->idx, key, &i) ||
	    kc->lit[i] == NONE)
		return NULL;
	*len = t->v[kc->lit[i]].slen;
	return fl_tok_str(t, &t->v[kc->lit[i]]);
}

/* A format call's message with the string constants among its arguments
 * written in: fmt.Errorf("%s%s", errFlagNeedsArg, name) with const
 * errFlagNeedsArg = "flag needs an argument: " gives
 * "flag needs an argument: %s".  Only plain %s / %v verbs take a constant;
 * NULL when the format at sb[fi] is no literal, uses explicit argument
 * indexes or '*', or no argument is a constant. */
static char *go_fmt_consts(const go_kcs *kc, const fl_toks *t, const size_t *sb,
			   const size_t *se, size_t na, size_t fi)
{
	if (!kc || !kc->n || fi >= na || se[fi] != sb[fi] + 1 ||
	    t->v[sb[fi]].kind != FL_TK_STRING)
		return NULL;
	const char *f = fl_tok_str(t, &t->v[sb[fi]]);
	size_t fl = t->v[sb[fi]].slen, arg = fi + 1;
	bool any = false;
	fl_buf out = {0};
	for (size_t p = 0; p < fl; p++) {
		if (f[p] != '%') {
			fl_buf_putc(&out, f[p]);
			continue;
		}
		if (p + 1 < fl && f[p + 1] == '%') {
			fl_buf_puts(&out, "%%");
			p++;
			continue;
		}
		size_t q = p + 1;
		while (q < fl && strchr("-+ #0123456789.", f[q]))
			q++;
		if (q >= fl || f[q] == '[' || f[q] == '*')
			goto fail;
		size_t kl;
		const char *k = arg < na ? go_kconst(kc, t, sb[arg], se[arg], &kl) : NULL;
		if (k && q == p + 1 && (f[q] == 's' || f[q] == 'v')) {
			for (size_t j = 0; j < kl; j++) {
				fl_buf_putc(&out, k[j]);
				if (k[j] == '%')
					fl_buf_putc(&out, '%');
			}
			any = true;
		} else {
			fl_buf_put(&out, f + p, q + 1 - p);
		}
		arg++;
		p = q;
	}
	if (!any)
		goto fail;
	fl_buf_cstr(&out);
	fl_msg_undouble(out.s, "%");
	fl_msg_trim(out.s);
	if (!*out.s)
		goto fail;
	return out.s;
fail:
	fl_buf_free(&out);
	return NULL;
}

/* [b, e) joined by '+' with an operand that is a fmt.Sprintf /
 * fmt.Errorf / errors.New call: the operands' texts joined (a call gives
 * its format, a literal its text, anything else a placeholder {name});
 * NULL when there is no such operand. */
static char *go_concat_calls(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t b, size_t e, int depth)
{
	size_t ob[16], oe[16], n = 0, k = b;
	bool call = false;
	while (k <= e && n < 16) {
		size_t q = k;
		while (q < e && fl_tok_pch(t, q) != '+')
			q = fl_tok_is_opener(t, q) && m[q] != NONE && m[q] < e ? m[q] + 1 : q + 1;
		if (q == k)
			return NULL;
		ob[n] = k;
		oe[n] = q;
		if (q - k >= 5 && fl_tok_pch(t, k + 3) == '(' && m[k + 3] == q - 1 &&
		    (is_qcall(t, k, "fmt", "Sprintf") || is_qcall(t, k, "fmt", "Errorf") ||
		     is_qcall(t, k, "errors", "New")))
			call = true;
		size_t kl;
		if (go_kconst(kc, t, k, q, &kl))
			call = true; /* errNotDefined + name */
		n++;
		if (q == e)
			break;
		k = q + 1;
	}
	if (!call || n < 2 || k > e || oe[n - 1] != e)
		return NULL;
	fl_buf out = {0};
	for (size_t i = 0; i < n; i++) {
		/* literals as written (the blank between two pieces is text) */
		size_t lb = ob[i], le = oe[i];
		bool f = false;
		if (le - lb >= 5 && fl_tok_pch(t, lb + 3) == '(' && m[lb + 3] == le - 1) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			f = !is_qcall(t, lb, "errors", "New");
			if (go_args(t, m, lb + 3, sb, se) >= 1) {
				lb = sb[0];
				le = se[0];
			}
		}
		size_t kl;
		const char *kt = go_kconst(kc, t, lb, le, &kl);
		if (kt) {
			fl_buf_put(&out, kt, kl);
			continue;
		}
		if (le == lb + 1 && t->v[lb].kind == FL_TK_STRING) {
			char *lit = fl_xstrndup(fl_tok_str(t, &t->v[lb]), t->v[lb].slen);
			if (f)
				fl_msg_undouble(lit, "%");
			fl_buf_puts(&out, lit);
			free(lit);
			continue;
		}
		char *p = go_msg(kc, t, m, ob[i], oe[i], false, depth + 1);
		if (p) {
			fl_buf_puts(&out, p);
			free(p);
		} else {
			/* a value: {its last name} */
			size_t last = NONE;
			for (size_t q = ob[i]; q < oe[i]; q++)
				if (t->v[q].kind == FL_TK_IDENT)
					last = q;
			fl_buf_putc(&out, '{');
			if (last != NONE)
				fl_buf_put(&out, t->src + t->v[last].off, t->v[last].len);
			fl_buf_putc(&out, '}');
		}
	}
	fl_buf_cstr(&out);
	fl_msg_trim(out.s);
	return out.s;
}

static char *go_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t b, size_t e,
		   bool fmt, int depth);

/* The one text the file's one function `name` (token nm) returns, for
 * `errors.New(badValue(v))`: `func badValue(v int) string { return
 * fmt.Sprintf("bad value %d", v) }`, every return of its body giving that
 * same text; else NULL.  Methods (a receiver before the name) are left
 * out: their name alone does not say which type's runs. */
static char *go_helper_text(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t nm,
			    int depth)
{
	const fl_tok *n = &t->v[nm];
	size_t found = FL_NOMATCH;
	if (!fl_helper_budget_take(t->n))
		return NULL;
	for (size_t k = 1; k + 1 < t->n; k++) {
		const fl_tok *x = &t->v[k];
		if (k == nm || x->kind != FL_TK_IDENT || x->len != n->len ||
		    !fl_tok_is_ident(t, k - 1, "func") || fl_tok_pch(t, k + 1) != '(' ||
		    memcmp(t->src + x->off, t->src + n->off, n->len) != 0)
			continue;
		if (found != FL_NOMATCH)
			return NULL;
		found = k;
	}
	if (found == FL_NOMATCH || m[found + 1] >= t->n)
		return NULL;
	/* the result type, then the body */
	size_t ob = m[found + 1] + 1;
	while (ob < t->n && fl_tok_pch(t, ob) != '{' && ob - found < 64)
		ob = fl_tok_pch(t, ob) == '(' && m[ob] < t->n ? m[ob] + 1 : ob + 1;
	if (ob >= t->n || fl_tok_pch(t, ob) != '{' || m[ob] >= t->n || m[ob] <= ob)
		return NULL;
	size_t close = m[ob];
	char *text = NULL;
	for (size_t q = ob + 1; q < close; q++) {
		if (fl_tok_is_ident(t, q, "func")) { /* a closure's returns are its own */
			size_t k = q + 1;
			while (k < close && fl_tok_pch(t, k) != '{')
				k = fl_tok_pch(t, k) == '(' && m[k] < close ? m[k] + 1 : k + 1;
			if (k < close && m[k] < close)
				q = m[k];
			continue;
		}
		if (!fl_tok_is_ident(t, q, "return"))
			continue;
		size_t re = q + 1;
		while (re < close && fl_tok_pch(t, re) != ';' && fl_tok_pch(t, re) != '}' &&
		       !(re > q + 1 && (t->v[re].flags & FL_TF_NL_BEFORE)))
			re = fl_tok_is_opener(t, re) && m[re] < close && m[re] > re ? m[re] + 1 : re + 1;
		if (!fl_same_text(&text, re > q + 1 ? go_msg(kc, t, m, q + 1, re, false, depth + 1) : NULL))
			return NULL;
		q = re;
	}
	return text;
}

/* message of the argument expression [b, e) */
static char *go_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t b, size_t e,
		    bool fmt, int depth)
{
	if (depth > 8 || b >= e || e > t->n)
		return NULL;
	/* fmt.Sprintf(...) / errors.New(...) / fmt.Errorf(...) as a whole */
	if (e - b >= 5 && fl_tok_pch(t, b + 3) == '(' && m[b + 3] == e - 1) {
		bool f = is_qcall(t, b, "fmt", "Sprintf") || is_qcall(t, b, "fmt", "Errorf") ||
			 is_qcall(t, b, "errors", "Errorf");
		bool p = is_qcall(t, b, "errors", "New") || is_qcall(t, b, "fmt", "Sprint") ||
			 is_qcall(t, b, "fmt", "Sprintln");
		if (f || p) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			size_t na = go_args(t, m, b + 3, sb, se);
			if (na == 0)
				return NULL;
			char *r = f ? go_fmt_consts(kc, t, sb, se, na, 0) : NULL;
			return r ? r : go_msg(kc, t, m, sb[0], se[0], f, depth + 1);
		}
	}
	char *s;
	size_t kl;
	const char *k;
	if (e - b == 1 && t->v[b].kind == FL_TK_STRING) {
		s = fl_xstrndup(fl_tok_str(t, &t->v[b]), t->v[b].slen);
		fl_msg_trim(s);
	} else if ((k = go_kconst(kc, t, b, e, &kl)) != NULL) {
		/* errors.New(errMsg) with const errMsg = "...": its text */
		s = fl_xstrndup(k, kl);
		fl_msg_trim(s);
	} else if (e - b >= 3 && t->v[b].kind == FL_TK_IDENT && t->v[b].len >= 3 &&
		   fl_tok_pch(t, b + 1) == '(' && m[b + 1] == e - 1 &&
		   (b == 0 || fl_tok_pch(t, b - 1) != '.') &&
		   (s = go_helper_text(kc, t, m, b, depth)) != NULL) {
		/* errors.New(badValue(v)): the text the file's function returns */
	} else if (e - b <= MSG_TOK_LIMIT && (s = go_concat_calls(kc, t, m, b, e, depth)) != NULL) {
		/* fmt.Sprintf("x %s. ", v) + "y": each operand's own text */
	} else {
		if (e - b > MSG_TOK_LIMIT)
			return NULL;
		fl_msg_opts o = {.concat_ops = go_concat};
		s = fl_msg_from_expr(t, b, e, &o);
	}
	if (s && fmt)
		fl_msg_undouble(s, "%");
	if (s && !*s) {
		free(s);
		return NULL;
	}
	return s;
}

/* log.Print-style message: operands joined (with spaces for the ln
 * variants, else between two non-string operands); NULL without any
 * literal */
static char *go_print_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, const size_t *sb,
			  const size_t *se, size_t na, bool ln)
{
	fl_buf out = {0};
	bool any = false, prev_str = true;
	for (size_t k = 0; k < na; k++) {
		if (se[k] - sb[k] > MSG_TOK_LIMIT)
			continue;
		char *p;
		bool one = se[k] - sb[k] == 1;
		if (one && t->v[sb[k]].kind == FL_TK_STRING)
			p = fl_xstrndup(fl_tok_str(t, &t->v[sb[k]]), t->v[sb[k]].slen);
		else if (one && t->v[sb[k]].kind == FL_TK_NUMBER)
			p = fl_tok_dup(t, sb[k]);
		else
			p = go_msg(kc, t, m, sb[k], se[k], false, 0);
		bool str = p != NULL;
		if (k > 0 && (ln || (!str && !prev_str)))
			fl_buf_putc(&out, ' ');
		if (p) {
			fl_buf_puts(&out, p);
			any = true;
			free(p);
		} else {
			size_t last = NONE;
			for (size_t j = sb[k]; j < se[k]; j++)
				if (t->v[j].kind == FL_TK_IDENT)
					last = j;
			fl_buf_putc(&out, '{');
			if (last != NONE)
				fl_buf_put(&out, t->src + t->v[last].off, t->v[last].len);
			fl_buf_putc(&out, '}');
		}
		prev_str = str;
	}
	if (!any) {
		fl_buf_free(&out);
		return NULL;
	}
	fl_buf_cstr(&out);
	fl_msg_trim(out.s);
	return out.s;
}

/* ---- tables ------------------------------------------------------------------- */

static const struct {
	const char *name;
	int code;
} http_status[] = {
	{"StatusContinue", 100}, {"StatusSwitchingProtocols", 101},
	{"StatusProcessing", 102}, {"StatusEarlyHints", 103},
	{"StatusOK", 200}, {"StatusCreated", 201}, {"StatusAccepted", 202},
	{"StatusNonAuthoritativeInfo", 203}, {"StatusNoContent", 204},
	{"StatusResetContent", 205}, {"StatusPartialContent", 206},
	{"StatusMultiStatus", 207}, {"StatusAlreadyReported", 208},
	{"StatusIMUsed", 226}, {"StatusMultipleChoices", 300},
	{"StatusMovedPermanently", 301}, {"StatusFound", 302},
	{"StatusSeeOther", 303}, {"StatusNotModified", 304},
	{"StatusUseProxy", 305}, {"StatusTemporaryRedirect", 307},
	{"StatusPermanentRedirect", 308}, {"StatusBadRequest", 400},
	{"StatusUnauthorized", 401}, {"StatusPaymentRequired", 402},
	{"StatusForbidden", 403}, {"StatusNotFound", 404},
	{"StatusMethodNotAllowed", 405}, {"StatusNotAcceptable", 406},
	{"StatusProxyAuthRequired", 407}, {"StatusRequestTimeout", 408},
	{"StatusConflict", 409}, {"StatusGone", 410},
	{"StatusLengthRequired", 411}, {"StatusPreconditionFailed", 412},
	{"StatusRequestEntityTooLarge", 413}, {"StatusRequestURITooLong", 414},
	{"StatusUnsupportedMediaType", 415},
	{"StatusRequestedRangeNotSatisfiable", 416},
	{"StatusExpectationFailed", 417}, {"StatusTeapot", 418},
	{"StatusMisdirectedRequest", 421}, {"StatusUnprocessableEntity", 422},
	{"StatusLocked", 423}, {"StatusFailedDependency", 424},
	{"StatusTooEarly", 425}, {"StatusUpgradeRequired", 426},
	{"StatusPreconditionRequired", 428}, {"StatusTooManyRequests", 429},
	{"StatusRequestHeaderFieldsTooLarge", 431},
	{"StatusUnavailableForLegalReasons", 451},
	{"StatusInternalServerError", 500}, {"StatusNotImplemented", 501},
	{"StatusBadGateway", 502}, {"StatusServiceUnavailable", 503},
	{"StatusGatewayTimeout", 504}, {"StatusHTTPVersionNotSupported", 505},
	{"StatusVariantAlsoNegotiates", 506}, {"StatusInsufficientStorage", 507},
	{"StatusLoopDetected", 508}, {"StatusNotExtended", 510},
	{"StatusNetworkAuthenticationRequired", 511},
};

/* HTTP status of the argument [b, e): http.StatusX or a number */
static int go_http_status(const fl_toks *t, size_t b, size_t e)
{
	if (e - b == 1 && t->v[b].kind == FL_TK_NUMBER) {
		int v = 0;
		for (uint32_t k = 0; k < t->v[b].len; k++) {
			char c = t->src[t->v[b].off + k];
			if (c < '0' || c > '9')
				return 0;
			v = v * 10 + (c - '0');
			if (v > 999)
				return 0;
		}
		return v >= 100 && v <= 599 ? v : 0;
	}
	if (e - b == 3 && fl_tok_pch(t, b + 1) == '.' && t->v[b + 2].kind == FL_TK_IDENT) {
		for (size_t k = 0; k < sizeof http_status / sizeof http_status[0]; k++)
			if (fl_tok_is(t, b + 2, http_status[k].name))
				return http_status[k].code;
	}
	return 0;
}

/* codes.NotFound -> NOT_FOUND (codes.Canceled -> CANCELLED) */
static char *go_grpc_code(const fl_toks *t, size_t b, size_t e)
{
	/* codes.X, or X of an aliased codes import */
	if (!(e - b == 3 && t->v[b].kind == FL_TK_IDENT && fl_tok_pch(t, b + 1) == '.' &&
	      t->v[b + 2].kind == FL_TK_IDENT))
		return NULL;
	const fl_tok *k = &t->v[b + 2];
	const char *s = t->src + k->off;
	if (k->len > 64)
		return NULL;
	if (fl_tok_is(t, b + 2, "Canceled"))
		return fl_xstrdup("CANCELLED");
	fl_buf out = {0};
	for (uint32_t j = 0; j < k->len; j++) {
		char c = s[j];
		if (c >= 'A' && c <= 'Z') {
			if (j > 0 && !(s[j - 1] >= 'A' && s[j - 1] <= 'Z'))
				fl_buf_putc(&out, '_');
			fl_buf_putc(&out, c);
		} else if (c >= 'a' && c <= 'z') {
			fl_buf_putc(&out, (char)(c - 'a' + 'A'));
		} else {
			fl_buf_putc(&out, c);
		}
	}
	fl_buf_cstr(&out);
	return out.s;
}

static bool go_same_tok(const fl_toks *t, size_t a, size_t b)
{
	return t->v[a].len == t->v[b].len &&
	       memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) == 0;
}

/* the local names of a file's imports: "base" for "cmd/go/internal/base",
 * or its alias */
#define MAX_IMPS 96
typedef struct {
	const char *s[MAX_IMPS];
	size_t l[MAX_IMPS];
	size_t n;
} go_imps;

static void go_imps_of(const fl_toks *t, const size_t *m, go_imps *im)
{
	im->n = 0;
	for (size_t i = 0; i + 1 < t->n; i++) {
		if (fl_tok_is_ident(t, i, "func"))
			break; /* the imports come first */
		if (!fl_tok_is_ident(t, i, "import"))
			continue;
		size_t e = fl_tok_pch(t, i + 1) == '(' && m[i + 1] != NONE ? m[i + 1] : i + 3;
		for (size_t k = i + 1; k < e && k < t->n && im->n < MAX_IMPS; k++) {
			if (t->v[k].kind != FL_TK_STRING)
				continue;
			if (t->v[k - 1].kind == FL_TK_IDENT && !fl_tok_is(t, k - 1, "import")) {
				im->s[im->n] = t->src + t->v[k - 1].off;
				im->l[im->n++] = t->v[k - 1].len;
				continue;
			}
			const char *p = fl_tok_str(t, &t->v[k]);
			size_t n = t->v[k].slen, b = n;
			while (b > 0 && p[b - 1] != '/')
				b--;
			im->s[im->n] = p + b;
			im->l[im->n++] = n - b;
		}
	}
}

static bool go_imported(const go_imps *im, const char *s, size_t n)
{
	for (size_t k = 0; k < im->n; k++)
		if (im->l[k] == n && memcmp(im->s[k], s, n) == 0)
			return true;
	return false;
}

/* ---- rules ------------------------------------------------------------------------ */

enum { P_GUARD, P_FN };

typedef struct {
	size_t brace;
	int kind;
	char *name;
	size_t gb, ge;
} go_pend;

typedef struct {
	size_t open;
	const char *fn;
	char *own_fn;
	bool has_guard;
	bool neg; /* an else's block: it runs when the guard does not hold */
	size_t gb, ge;
} go_ctx;

#define MAX_PEND 64

typedef struct {
	const fl_toks *t;
	size_t *m;
	go_ctx *cs;
	size_t csn, csc;
	go_pend pend[MAX_PEND];
	size_t np;
	/* the if block closed last: its '{' and condition, for an else after it */
	size_t if_open, if_gb, if_ge;
	fl_sites *out;
	size_t var_open, var_close; /* current var ( ... ) block */
	size_t consumed;            /* first token of a call already reported */
	struct {
		size_t tok;         /* alias identifier token */
		const char *canon;  /* errors, fmt, log, slog, http, status */
	} al[16];
	size_t nal;
	/* body of the current `func (e *T) Error() string` method */
	size_t errm_open, errm_close, errm_type;
	go_kcs kc;
	const void *tree;           /* the tree's gotree (format helpers) */
	const char *dir;            /* folder of the file */
	go_imps imps;               /* its imports' names (with a tree) */
	char *pkg;                  /* its package clause's name, or NULL */
} go_st;

static void kc_add(go_kcs *kc, const fl_toks *t, size_t name, size_t lit)
{
	char key[128];
	size_t i;
	if (!kc_key(t, name, key, sizeof key))
		return;
	if (fl_strmap_get(&kc->idx, key, &i)) {
		/* the same name twice (two functions' consts): the same text or none */
		if (kc->lit[i] != NONE &&
		    (t->v[kc->lit[i]].slen != t->v[lit].slen ||
		     memcmp(fl_tok_str(t, &t->v[kc->lit[i]]), fl_tok_str(t, &t->v[lit]),
			    t->v[lit].slen) != 0))
			kc->lit[i] = NONE;
		return;
	}
	fl_strmap_put(&kc->idx, key, kc->n);
	if (kc->n == kc->cap) {
		kc->cap = kc->cap ? kc->cap * 2 : 16;
		kc->name = fl_xrealloc(kc->name, kc->cap * sizeof *kc->name);
		kc->lit = fl_xrealloc(kc->lit, kc->cap * sizeof *kc->lit);
	}
	kc->name[kc->n] = name;
	kc->lit[kc->n] = lit;
	kc->n++;
}

/* one const spec at k: `name [string] = "text"` ending its line (or the
 * block); a typed constant of another type, an iota or an expression is
 * none */
static void kc_spec(go_kcs *kc, const fl_toks *t, size_t k, size_t end)
{
	if (k + 2 >= end || t->v[k].kind != FL_TK_IDENT)
		return;
	size_t eq = k + 1;
	if (fl_tok_is_ident(t, eq, "string"))
		eq++;
	if (eq + 1 >= end || !fl_tok_is_punct(t, eq, "=") || t->v[eq + 1].kind != FL_TK_STRING)
		return;
	size_t after = eq + 2;
	if (after < end && !(t->v[after].flags & FL_TF_NL_BEFORE) && fl_tok_pch(t, after) != ';' &&
	    fl_tok_pch(t, after) != ')')
		return;
	kc_add(kc, t, k, eq + 1);
}

/* the file's string constants, top-level and local */
static void go_collect_consts(go_kcs *kc, const fl_toks *t, const size_t *m)
{
	for (size_t i = 0; i < t->n; i++) {
		if (t->v[i].kind != FL_TK_IDENT || !fl_tok_is(t, i, "const"))
			continue;
		if (fl_tok_pch(t, i + 1) == '(' && m[i + 1] != NONE) {
			size_t end = m[i + 1];
			for (size_t k = i + 2; k < end; k++)
				if (k == i + 2 || (t->v[k].flags & FL_TF_NL_BEFORE) ||
				    fl_tok_pch(t, k - 1) == ';')
					kc_spec(kc, t, k, end);
			i = end;
		} else {
			kc_spec(kc, t, i + 1, t->n);
		}
	}
}

/* canonical package name of an import path we have rules for, or NULL */
static const char *go_canon_pkg(const char *p)
{
	static const char *const map[][2] = {
		{"errors", "errors"},
		{"github.com/pkg/errors", "errors"},
		{"github.com/cockroachdb/errors", "errors"},
		{"fmt", "fmt"},
		{"log", "log"},
		{"log/slog", "slog"},
		{"golang.org/x/exp/slog", "slog"},
		{"net/http", "http"},
		{"google.golang.org/grpc/status", "status"},
		{"google.golang.org/grpc/codes", "codes"},
	};
	for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
		if (strcmp(p, map[k][0]) == 0)
			return map[k][1];
	return NULL;
}

/* one import spec: [alias] "path" with the path token at k */
static void go_import_spec(go_st *st, size_t k)
{
	const fl_toks *t = st->t;
	if (k == 0 || t->v[k].kind != FL_TK_STRING || t->v[k - 1].kind != FL_TK_IDENT ||
	    fl_tok_is(t, k - 1, "import") || st->nal >= 16)
		return;
	const char *c = go_canon_pkg(fl_tok_str(t, &t->v[k]));
	if (!c || fl_tok_is(t, k - 1, c))
		return;
	st->al[st->nal].tok = k - 1;
	st->al[st->nal].canon = c;
	st->nal++;
}

static void go_import(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if (fl_tok_pch(t, i + 1) == '(' && st->m[i + 1] != NONE) {
		size_t end = st->m[i + 1];
		for (size_t k = i + 2; k < end && k < i + 2 + 1024; k++)
			go_import_spec(st, k);
	} else if (i + 2 < t->n) {
		go_import_spec(st, i + 2);
	}
}

static void pend_add(go_st *st, size_t brace, int kind, char *name, size_t gb,
		     size_t ge)
{
	if (brace == NONE || st->np >= MAX_PEND) {
		free(name);
		return;
	}
	go_pend *p = &st->pend[st->np++];
	p->brace = brace;
	p->kind = kind;
	p->name = name;
	p->gb = gb;
	p->ge = ge;
}

/* body '{' of a func signature after from; the body must start on the
 * line where the signature ends */
static size_t go_fn_body(const fl_toks *t, const size_t *m, size_t from)
{
	size_t k = from;
	for (int steps = 0; k < t->n && steps < SCAN_LIMIT; steps++) {
		if (k > from && (t->v[k].flags & FL_TF_NL_BEFORE))
			return NONE;
		char c = fl_tok_pch(t, k);
		if (c == '{')
			return k;
		if ((fl_tok_is_ident(t, k, "interface") || fl_tok_is_ident(t, k, "struct")) &&
		    fl_tok_pch(t, k + 1) == '{') {
			if (m[k + 1] == NONE)
				return NONE;
			k = m[k + 1] + 1;
			continue;
		}
		if (c == '(' || c == '[') {
			if (m[k] == NONE)
				return NONE;
			k = m[k] + 1;
			continue;
		}
		if (c == ';' || c == '}' || c == ')' || c == ']' || c == '=')
			return NONE;
		k++;
	}
	return NONE;
}

static size_t go_find_fn_body(const go_st *st, size_t from)
{
	return go_fn_body(st->t, st->m, from);
}

/* body '{' of an if; *semi gets the last depth-0 ';' (or NONE) */
static size_t go_find_if_body(const go_st *st, size_t from, size_t *semi)
{
	const fl_toks *t = st->t;
	size_t k = from;
	*semi = NONE;
	for (int steps = 0; k < t->n && steps < SCAN_LIMIT; steps++) {
		char c = fl_tok_pch(t, k);
		if (c == '{')
			return k;
		if (fl_tok_is_ident(t, k, "func") || fl_tok_is_ident(t, k, "struct") ||
		    fl_tok_is_ident(t, k, "interface"))
			return NONE;
		if (c == '(' || c == '[') {
			if (st->m[k] == NONE)
				return NONE;
			k = st->m[k] + 1;
			continue;
		}
		if (c == ';')
			*semi = k;
		if (c == '}' || c == ')' || c == ']')
			return NONE;
		k++;
	}
	return NONE;
}

static void ctx_push(go_st *st, size_t k)
{
	if (st->csn == st->csc) {
		st->csc = st->csc ? st->csc * 2 : 64;
		st->cs = fl_xrealloc(st->cs, st->csc * sizeof *st->cs);
	}
	go_ctx *par = &st->cs[st->csn - 1];
	go_ctx c = {0};
	c.open = k;
	c.fn = par->fn;
	size_t w = 0;
	for (size_t i = 0; i < st->np; i++) {
		go_pend *p = &st->pend[i];
		if (p->brace > k) {
			st->pend[w++] = *p;
			continue;
		}
		if (p->brace == k) {
			if (p->kind == P_GUARD) {
				c.has_guard = true;
				c.gb = p->gb;
				c.ge = p->ge;
			} else {
				free(c.own_fn);
				c.own_fn = p->name;
				p->name = NULL;
				c.fn = c.own_fn;
			}
		}
		free(p->name);
	}
	st->np = w;
	/* `} else {`: the block runs when the if's condition (the last of an
	 * else-if chain) does not hold */
	const fl_toks *t = st->t;
	if (!c.has_guard && k >= 2 && fl_tok_is(t, k - 1, "else") &&
	    fl_tok_pch(t, k - 2) == '}' && st->m[k - 2] != NONE &&
	    st->m[k - 2] == st->if_open) {
		c.has_guard = true;
		c.neg = true;
		c.gb = st->if_gb;
		c.ge = st->if_ge;
	}
	st->cs[st->csn++] = c;
}

static void ctx_pop(go_st *st, size_t k)
{
	size_t o = st->m[k];
	if (o == NONE)
		return;
	st->if_open = NONE;
	while (st->csn > 1 && st->cs[st->csn - 1].open >= o) {
		const go_ctx *c = &st->cs[st->csn - 1];
		if (c->open == o && c->has_guard && !c->neg) {
			st->if_open = o;
			st->if_gb = c->gb;
			st->if_ge = c->ge;
		}
		free(st->cs[--st->csn].own_fn);
	}
}

/* true when the message has a letter outside printf verbs and `{...}`
 * placeholders: "%v" or "%s: %w" alone is not an error message */
static bool go_has_text(const char *m)
{
	for (const char *p = m; *p; p++) {
		if (*p == '%') {
			p++;
			if (*p == '%')
				continue;
			while (*p && strchr("-+ #0123456789.*[]", *p))
				p++;
			if (!*p)
				break;
			continue; /* the verb letter */
		}
		if (*p == '{') {
			const char *q = strchr(p, '}');
			if (q) {
				p = q;
				continue;
			}
		}
		unsigned char ch = (unsigned char)*p;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch >= 0x80)
			return true;
	}
	return false;
}

static void emit(go_st *st, size_t at, const char *msg, const char *code,
		 const char *cls, const char *type, const char *sev, int http,
		 const char *idiom)
{
	if (msg && *msg && !go_has_text(msg))
		msg = NULL;
	if ((!msg || !*msg) && !code)
		return;
	const fl_toks *t = st->t;
	go_ctx *c = &st->cs[st->csn - 1];
	char *guard = c->has_guard ? fl_guard_span(t, c->gb, c->ge, c->neg, false) : NULL;
	bool own = guard != NULL;
	/* an if (or else) right inside another if's block: both hold */
	const go_ctx *o = st->csn >= 2 ? &st->cs[st->csn - 2] : NULL;
	if (guard && o && o->has_guard)
		guard = fl_guard_nest(fl_guard_span(t, o->gb, o->ge, o->neg, false), guard, false);
	/* a statement of a switch's case: the case's labels (with an if of
	 * the case's own around it) */
	bool arm = false;
	char *sw = fl_switch_guard_arm(t, st->m, at, &arm);
	if (sw && arm && own) {
		free(sw); /* an if inside a type's case: its condition says more */
		sw = NULL;
		arm = false;
	}
	/* no if around it: the early exits before it in its block (`if x ==
	 * nil { return nil }`) */
	bool early = false;
	if (!guard) {
		guard = fl_early_guard(t, st->m, at);
		early = guard != NULL;
	}
	if (sw)
		guard = guard ? fl_guard_nest(sw, guard, false) : sw;
	fl_site s = {
		.line = t->v[at].line,
		.col = t->v[at].col,
		.message = msg,
		.code = code,
		.cls = cls,
		.type = type,
		.severity = sev,
		.http = http,
		.function = c->fn,
		.guard = guard,
		.early = early,
		.arm = arm,
		.idiom = idiom,
		.unit = st->pkg,
	};
	fl_site_add(st->out, &s);
	free(guard);
}

/* method name of `func (recv) Name` / `func Name` at func token i */
static void go_func(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t j = i + 1;
	char *name = NULL;
	size_t type_tok = NONE;
	if (fl_tok_pch(t, j) == '(') {
		size_t rc = st->m[j];
		if (rc == NONE || rc + 1 >= t->n || t->v[rc + 1].kind != FL_TK_IDENT ||
		    !(fl_tok_pch(t, rc + 2) == '(' || fl_tok_pch(t, rc + 2) == '['))
			return; /* func literal or type */
		size_t type = NONE;
		for (size_t k = j + 1; k < rc;) {
			if (fl_tok_pch(t, k) == '[' && st->m[k] != NONE) {
				k = st->m[k] + 1;
				continue;
			}
			if (t->v[k].kind == FL_TK_IDENT)
				type = k;
			k++;
		}
		size_t mn = rc + 1;
		type_tok = type;
		if (type != NONE)
			name = fl_xasprintf("%.*s.%.*s", (int)t->v[type].len,
					    t->src + t->v[type].off, (int)t->v[mn].len,
					    t->src + t->v[mn].off);
		else
			name = fl_tok_dup(t, mn);
		j = mn + 1;
	} else if (j < t->n && t->v[j].kind == FL_TK_IDENT) {
		name = fl_tok_dup(t, j);
		j++;
	} else {
		return;
	}
	if (fl_tok_pch(t, j) == '[' && st->m[j] != NONE)
		j = st->m[j] + 1;
	if (fl_tok_pch(t, j) != '(' || st->m[j] == NONE) {
		free(name);
		return;
	}
	size_t b = go_find_fn_body(st, st->m[j] + 1);
	/* func (e *T) Error() string { ... }: its returns are the messages of
	 * the error type T */
	if (type_tok != NONE && b != NONE && b < t->n && st->m[b] != NONE &&
	    fl_tok_is(t, j - 1, "Error") && st->m[j] == j + 1 &&
	    fl_tok_is_ident(t, j + 2, "string") && b == j + 3) {
		st->errm_open = b;
		st->errm_close = st->m[b];
		st->errm_type = type_tok;
	}
	pend_add(st, b, P_FN, name, 0, 0);
}

/* `return EXPR` at i inside an Error() string method */
static void go_error_method_return(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t e = i + 1, lim = 0;
	while (e < st->errm_close && lim++ < MSG_TOK_LIMIT) {
		char c = fl_tok_pch(t, e);
		if (c == ';' || c == '}' || c == ')' || c == ']' || c == ',')
			break;
		if (e > i + 1 && (t->v[e].flags & FL_TF_NL_BEFORE) &&
		    !(t->v[e - 1].kind == FL_TK_PUNCT &&
		      (fl_tok_is(t, e - 1, "+") || fl_tok_pch(t, e - 1) == '.')))
			break;
		if (fl_tok_is_opener(t, e) && st->m[e] != NONE && st->m[e] > e)
			e = st->m[e];
		e++;
	}
	if (e <= i + 1)
		return;
	/* the expression must start with a literal or a formatting call */
	if (t->v[i + 1].kind != FL_TK_STRING && !is_qcall(t, i + 1, "fmt", "Sprintf") &&
	    !is_qcall(t, i + 1, "fmt", "Sprint"))
		return;
	char *msg = go_msg(&st->kc, t, st->m, i + 1, e, false, 0);
	char *cls = fl_tok_dup(t, st->errm_type);
	emit(st, i, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, 0, "Error() string");
	free(cls);
	free(msg);
}

/* sentinel name for a constructor call starting at token s, or NULL */
static char *go_sentinel(const go_st *st, size_t s)
{
	const fl_toks *t = st->t;
	if (s < 2 || fl_tok_pch(t, s - 1) != '=')
		return NULL;
	size_t nm = s - 2;
	if (t->v[nm].kind != FL_TK_IDENT)
		return NULL;
	if (nm >= 1 && t->v[nm - 1].kind == FL_TK_IDENT && !fl_tok_is(t, nm - 1, "var")) {
		nm--; /* var ErrX error = ... */
	}
	bool ok = false;
	if (nm >= 1 && fl_tok_is_ident(t, nm - 1, "var"))
		ok = true;
	else if (st->var_close != NONE && s > st->var_open && s < st->var_close &&
		 ((t->v[nm].flags & FL_TF_NL_BEFORE) || nm == st->var_open + 1 ||
		  fl_tok_pch(t, nm - 1) == ';'))
		ok = true;
	return ok ? fl_tok_dup(t, nm) : NULL;
}

static const char *const logger_methods[] = {
	"Error", "Errorf", "Errorln", "Errorw", "Fatal", "Fatalf", "Fatalln",
	"Fatalw", "Warn", "Warnf", "Warnln", "Warnw", "Warning", "Warningf",
	"Warningln", "Panic", "Panicf", "Panicln", "Panicw", "DPanic", "DPanicf",
	"DPanicw", "Critical", "Criticalf", NULL};

static const char *const go_callees[] = {
	"panic", "New", "Errorf", "Wrap", "Wrapf", "WithMessage", "WithMessagef",
	"Newf", "ErrorContext", "WarnContext", "NewHTTPError", "NewError",
	"JSON", "AbortWithStatusJSON", "IndentedJSON", "PureJSON", "XML", "String",
	"Fprintf", "Fprint", "Fprintln", NULL};

/* The message of a response body written as a map or struct literal:
 * gin.H{"error": "..."}, map[string]string{"message": "..."},
 * fiber.Map{"error": ...}, ErrorResponse{Message: "..."}: the value of its
 * error/message/msg/detail key, when it is literal text. */
static char *go_body_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t b, size_t e)
{
	static const char *const keys[] = {"error", "message", "msg", "detail", "err",
					   "Error", "Message", "Msg", "Detail", NULL};
	size_t open = NONE;
	for (size_t k = b; k < e && k < b + 16; k++)
		if (fl_tok_pch(t, k) == '{') {
			open = k;
			break;
		}
	if (open == NONE || m[open] == NONE || m[open] >= e)
		return NULL;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t n = go_args(t, m, open, sb, se);
	for (size_t a = 0; a < n; a++) {
		size_t kb = sb[a];
		if (se[a] < kb + 3 || fl_tok_pch(t, kb + 1) != ':')
			continue;
		const char *ks;
		size_t kl;
		if (t->v[kb].kind == FL_TK_STRING) {
			ks = fl_tok_str(t, &t->v[kb]);
			kl = t->v[kb].slen;
		} else if (t->v[kb].kind == FL_TK_IDENT) {
			ks = t->src + t->v[kb].off;
			kl = t->v[kb].len;
		} else {
			continue;
		}
		for (size_t q = 0; keys[q]; q++)
			if (strlen(keys[q]) == kl && memcmp(keys[q], ks, kl) == 0)
				return go_msg(kc, t, m, kb + 2, se[a], false, 0);
	}
	return NULL;
}

/* A web handler's error response: c.JSON(http.StatusBadRequest,
 * gin.H{"error": "..."}), c.AbortWithStatusJSON(404, ...), c.String(403,
 * "format", ...) (Gin, Echo, and the like).  Only a status of 400 or more,
 * and a message written here.  True when the call was one. */
static bool go_http_response(go_st *st, size_t i, size_t at, const size_t *sb,
			     const size_t *se, size_t na, const char *idiom)
{
	const fl_toks *t = st->t;
	bool str = fl_tok_is(t, i, "String");
	if (!(str || fl_tok_is(t, i, "JSON") || fl_tok_is(t, i, "AbortWithStatusJSON") ||
	      fl_tok_is(t, i, "IndentedJSON") || fl_tok_is(t, i, "PureJSON") ||
	      fl_tok_is(t, i, "XML")) || na < 2)
		return false;
	int code = go_http_status(t, sb[0], se[0]);
	if (code < 400)
		return false;
	char *msg = str ? go_msg(&st->kc, t, st->m, sb[1], se[1], true, 0)
			: go_body_msg(&st->kc, t, st->m, sb[1], se[1]);
	if (msg)
		emit(st, at, msg, NULL, NULL, FL_T_HTTP, fl_http_severity(code), code, idiom);
	free(msg);
	return true;
}

/* A web framework's HTTP error made with a status and a message: Echo's
 * NewHTTPError(http.StatusForbidden, "..."), Fiber's
 * fiber.NewError(fiber.StatusNotFound, "...").  The first argument must
 * be a status (http.StatusX, pkg.StatusX or a number 100-599).  True
 * when the call was one (and is done with). */
static bool go_http_error_ctor(go_st *st, size_t i, size_t at, const size_t *sb,
			       const size_t *se, size_t na, const char *idiom)
{
	const fl_toks *t = st->t;
	if (!(fl_tok_is(t, i, "NewHTTPError") || fl_tok_is(t, i, "NewError")) || na < 2)
		return false;
	int code = go_http_status(t, sb[0], se[0]);
	if (!code)
		return false;
	char *msg = go_msg(&st->kc, t, st->m, sb[1], se[1], false, 0);
	if (msg) {
		char *cls = go_sentinel(st, at);
		char sid[112];
		snprintf(sid, sizeof sid, "sentinel %s", idiom);
		emit(st, at, msg, NULL, cls, FL_T_HTTP,
		     code >= 500 ? FL_S_ERROR : FL_S_WARNING, code, cls ? sid : idiom);
		free(cls);
	}
	free(msg);
	return true;
}

/* the message of the argument ai of a call with arguments sb/se: a
 * format (f) with the file's string constants written in, else go_msg */
/* The literal a local variable named at token v holds when used there:
 * `msg := "..."` (or `var msg = "..."`) earlier in the same function,
 * and no other assignment to it in between; NONE otherwise.  The go
 * command's `msg := `cannot determine module path...`; return
 * fmt.Errorf(msg, dir, reason)`. */
static size_t go_local_literal(const go_st *st, size_t v)
{
	const fl_toks *t = st->t;
	if (t->v[v].kind != FL_TK_IDENT || v < 3)
		return NONE;
	for (size_t k = v - 1, steps = 0; k > 0 && steps < 4000; k--, steps++) {
		if (fl_tok_is_ident(t, k, "func") && (t->v[k].flags & FL_TF_NL_BEFORE))
			return NONE; /* the function's start */
		if (!go_same_tok(t, k, v) || (k > 0 && fl_tok_pch(t, k - 1) == '.'))
			continue;
		if (k + 1 >= t->n || t->v[k + 1].kind != FL_TK_PUNCT)
			continue;
		const char *op = t->src + t->v[k + 1].off;
		size_t ol = t->v[k + 1].len;
		bool def = ol == 2 && memcmp(op, ":=", 2) == 0;
		bool var = ol == 1 && op[0] == '=' && fl_tok_is_ident(t, k - 1, "var");
		if (ol == 1 && op[0] == '=' && !var)
			return NONE; /* msg = ...: which value reaches the use is unknown */
		if (ol >= 2 && op[ol - 1] == '=' && !def && !strchr("=!<>", op[0]))
			return NONE; /* msg += ... */
		if (!def && !var)
			continue; /* a use */
		/* the nearest assignment decides: one string literal ending
		 * its statement */
		size_t l = k + 2;
		if (l >= t->n || t->v[l].kind != FL_TK_STRING ||
		    !(l + 1 >= t->n || (t->v[l + 1].flags & FL_TF_NL_BEFORE) ||
		      fl_tok_pch(t, l + 1) == ';' || fl_tok_pch(t, l + 1) == '}'))
			return NONE;
		if (!(t->v[k].flags & FL_TF_NL_BEFORE) && fl_tok_pch(t, k - 1) != ';' &&
		    !fl_tok_is_ident(t, k - 1, "var"))
			return NONE; /* a, msg := ... */
		return l;
	}
	return NONE;
}

static char *go_arg_msg(go_st *st, const size_t *sb, const size_t *se, size_t na, size_t ai,
			bool f)
{
	char *r = f ? go_fmt_consts(&st->kc, st->t, sb, se, na, ai) : NULL;
	if (r)
		return r;
	size_t kl, l;
	if (se[ai] == sb[ai] + 1 && !go_kconst(&st->kc, st->t, sb[ai], se[ai], &kl) &&
	    (l = go_local_literal(st, sb[ai])) != NONE)
		return go_msg(&st->kc, st->t, st->m, l, l + 1, f, 0);
	return go_msg(&st->kc, st->t, st->m, sb[ai], se[ai], f, 0);
}

static bool in_list(const fl_toks *t, size_t i, const char *const *l)
{
	for (; *l; l++)
		if (fl_tok_is(t, i, *l))
			return true;
	return false;
}

static bool ends_f(const fl_toks *t, size_t i)
{
	return t->v[i].len > 1 && t->src[t->v[i].off + t->v[i].len - 1] == 'f';
}

/* fmt.Fprintf(os.Stderr, "...") and Fprint/Fprintln to os.Stderr: what a
 * command-line program tells its user went wrong (usage errors,
 * warnings), as C's fprintf(stderr, ...). */
static bool go_stderr_print(go_st *st, size_t at, size_t i, const size_t *sb,
			    const size_t *se, size_t na, const char *idiom)
{
	const fl_toks *t = st->t;
	bool f = fl_tok_is(t, i, "Fprintf");
	if (!f && !fl_tok_is(t, i, "Fprint") && !fl_tok_is(t, i, "Fprintln"))
		return false;
	if (na < 2 || se[0] != sb[0] + 3 || !fl_tok_is(t, sb[0], "os") ||
	    !fl_tok_is(t, sb[0] + 2, "Stderr"))
		return false;
	char *msg = f ? go_arg_msg(st, sb, se, na, 1, true)
		      : go_print_msg(&st->kc, t, st->m, sb + 1, se + 1, na - 1,
				     fl_tok_is(t, i, "Fprintln"));
	if (msg) {
		/* a warning when the text says so */
		emit(st, at, msg, NULL, NULL, FL_T_CONSOLE, fl_print_severity(msg), 0, idiom);
	}
	free(msg);
	return true;
}

static bool go_is_test_file(const char *path)
{
	size_t n = strlen(path);
	return n >= 8 && strcmp(path + n - 8, "_test.go") == 0;
}

/* ---- the tree's format helpers -------------------------------------------------
 * A function of the tree that takes a format and its arguments and hands
 * them on to a formatter that raises or reports: `func failf(format string,
 * args ...any) { fmt.Fprintf(os.Stderr, format, args...); os.Exit(2) }`,
 * `func notExistErrorf(format string, args ...any) error { return
 * notExistError{fmt.Errorf(format, args...)} }`, `func (g *G) errorf(...)
 * { ...fmt.Sprintf(format, args...); panic(stop) }`, `func
 * ImportErrorf(path, format string, args ...any)`.  collect() finds them
 * in every file; a call of one with a literal format is a site, as a call
 * of fmt.Errorf is.  A helper may hand its format on to another helper
 * (base.Fatalf -> Errorf -> log.Printf). */

/* GS_WEAK: a print to standard error by a helper whose name says no error
 * and that neither exits nor panics (a logging helper), unless a helper
 * that does hands its format on to it */
enum { GS_NONE, GS_ERR, GS_FATAL, GS_PANIC, GS_CONSOLE, GS_FWD, GS_WEAK };

typedef struct {
	char *name;       /* the function or method */
	char *dir;        /* folder of the file defining it ("" at the top) */
	char *fq, *fn;    /* GS_FWD: the callee's qualifier (or NULL) and name */
	bool method;      /* a method (called as x.name) */
	bool fq_pkg;      /* GS_FWD: fq is an imported package */
	bool fq_chain;    /* GS_FWD: called on a chain a.b.fn */
	bool errish;      /* its name says error, or it exits or panics */
	bool plain;       /* its parameter fi is a message, not a format
			     (`func errorExit(msg string)`) */
	char *pre, *suf;  /* the text it puts around it ("age: error: "+format),
			     or NULL */
	uint8_t sink;     /* GS_*: what it does with the format */
	uint8_t fi, ffi;  /* index of the format parameter; GS_FWD: of the
			     format in the callee's call */
	size_t next;      /* the next definition of the same name, or NONE */
} gohelp;

typedef struct {
	fl_strmap idx;    /* name -> its last definition in v */
	gohelp *v;
	size_t n, cap;
} gotree;

static void *go_tree_new(void)
{
	return fl_xcalloc(1, sizeof(gotree));
}

static void go_help_free(gohelp *h)
{
	free(h->pre);
	free(h->suf);
	free(h->name);
	free(h->dir);
	free(h->fq);
	free(h->fn);
}

static void go_tree_free(void *tree)
{
	gotree *g = tree;
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		go_help_free(&g->v[i]);
	free(g->v);
	fl_strmap_free(&g->idx);
	free(g);
}

static void go_help_add(gotree *g, gohelp *h)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 16;
		g->v = fl_xrealloc(g->v, g->cap * sizeof *g->v);
	}
	size_t prev;
	h->next = fl_strmap_get(&g->idx, h->name, &prev) ? prev : NONE;
	fl_strmap_put(&g->idx, h->name, g->n);
	g->v[g->n++] = *h;
}

static void go_tree_merge(void *tree, void *part)
{
	gotree *g = tree, *p = part;
	for (size_t i = 0; i < p->n; i++)
		go_help_add(g, &p->v[i]);
	p->n = 0;
}

/* whether a name says error: errorf, Fatalf, failf, dief, warnf... */
static bool go_errish_name(const char *s, size_t n)
{
	static const char *const words[] = {"err", "fatal", "fail", "die", "panic",
					    "warn", "abort", "exit", NULL};
	for (const char *const *w = words; *w; w++) {
		size_t l = strlen(*w);
		for (size_t k = 0; k + l <= n; k++)
			if (strncasecmp(s + k, *w, l) == 0)
				return true;
	}
	return false;
}

/* The open bracket `want` ('(' of a call, '{' of a composite literal
 * `T{a: x, b: k}`) whose list holds token k, or NONE: another bracket or a
 * statement's end first, or 256 tokens. */
static size_t go_enclosing(const fl_toks *t, const size_t *m, size_t k, char want)
{
	for (size_t q = k, steps = 0; q-- > 0 && steps < 256; steps++) {
		char c = fl_tok_pch(t, q);
		if ((c == ')' || c == ']' || c == '}') && m[q] != NONE && m[q] < q) {
			q = m[q];
			continue;
		}
		if (c == want)
			return q;
		if (c == '(' || c == '{' || c == ';' || c == '[')
			return NONE;
	}
	return NONE;
}

static size_t go_enclosing_paren(const fl_toks *t, const size_t *m, size_t k)
{
	return go_enclosing(t, m, k, '(');
}

/* a type named as an error's: ParseError, syntaxErr */
static bool go_error_type_name(const char *s, size_t n)
{
	return (n > 5 && memcmp(s + n - 5, "Error", 5) == 0) || (n > 3 && memcmp(s + n - 3, "Err", 3) == 0);
}

static bool go_is_stderr(const fl_toks *t, size_t b, size_t e)
{
	return e == b + 3 && fl_tok_is(t, b, "os") && fl_tok_is(t, b + 2, "Stderr");
}

/* What the call whose '(' is at open does with the format it gets as
 * argument ai (the arguments after it being the helper's own): GS_*.
 * *q: the callee's qualifier token (NONE when there is none or it is a
 * chain: *chain), *nm its name. */
static int go_fmt_callee(const fl_toks *t, const size_t *m, size_t open, size_t ai,
			 size_t *q, size_t *nm, bool *chain)
{
	*q = NONE;
	*chain = false;
	if (open == 0 || t->v[open - 1].kind != FL_TK_IDENT)
		return GS_NONE;
	*nm = open - 1;
	bool qual = open >= 3 && fl_tok_pch(t, open - 2) == '.';
	if (qual && t->v[open - 3].kind == FL_TK_IDENT &&
	    !(open >= 4 && fl_tok_pch(t, open - 4) == '.'))
		*q = open - 3;
	else if (qual)
		*chain = true;
	size_t n = *nm;
	if (*q != NONE && fl_tok_is(t, *q, "fmt")) {
		if (fl_tok_is(t, n, "Errorf") && ai == 0)
			return GS_ERR;
		if (fl_tok_is(t, n, "Fprintf") && ai == 1) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			if (go_args(t, m, open, sb, se) >= 2 && go_is_stderr(t, sb[0], se[0]))
				return GS_CONSOLE;
			return GS_NONE;
		}
		if (!fl_tok_is(t, n, "Sprintf") || ai != 0)
			return GS_NONE;
		/* fmt.Sprintf(format, args...) as an argument of a call that
		 * raises or reports */
		size_t eo, eq = *q, en;
		bool ec;
		/* ... or a field of an error value: `p.errPass(ParseError{Text:
		 * fmt.Sprintf(format, a...)})` */
		size_t lb = go_enclosing(t, m, eq, '{');
		if (lb != NONE && lb > 0 && t->v[lb - 1].kind == FL_TK_IDENT && lb - 1 != *q &&
		    go_error_type_name(t->src + t->v[lb - 1].off, t->v[lb - 1].len))
			return GS_ERR;
		for (int up = 0;; up++) {
			/* fmt.Sprintf("%s: %s", x, fmt.Sprintf(format, args...)):
			 * the call around the outer one */
			eo = go_enclosing_paren(t, m, eq);
			if (eo == NONE || eo == 0 || t->v[eo - 1].kind != FL_TK_IDENT)
				return GS_NONE;
			if (fl_tok_is(t, eo - 1, "panic") &&
			    !(eo >= 2 && fl_tok_pch(t, eo - 2) == '.'))
				return GS_PANIC;
			(void)go_fmt_callee(t, m, eo, 0, &eq, &en, &ec);
			/* fatalError(fmt.Sprintf(format, args...)): a
			 * conversion to an error type of the package */
			if (eq == NONE && !ec && en == eo - 1 &&
			    go_error_type_name(t->src + t->v[en].off, t->v[en].len) &&
			    m[eo] != NONE && fl_tok_pch(t, m[eo] - 1) == ')')
				return GS_ERR;
			if (eq == NONE)
				return GS_NONE;
			if (up == 2 || !fl_tok_is(t, eq, "fmt") || !fl_tok_is(t, en, "Sprintf"))
				break;
		}
		if (fl_tok_is(t, eq, "errors") && fl_tok_is(t, en, "New"))
			return GS_ERR;
		if (fl_tok_is(t, eq, "log"))
			return fl_tok_is(t, en, "Fatal") || fl_tok_is(t, en, "Fatalln") ? GS_FATAL
			       : fl_tok_is(t, en, "Panic") || fl_tok_is(t, en, "Panicln") ? GS_PANIC
			       : fl_tok_is(t, en, "Print") || fl_tok_is(t, en, "Println") ? GS_CONSOLE
										 : GS_NONE;
		if (fl_tok_is(t, eq, "fmt") && (fl_tok_is(t, en, "Fprintf") ||
						fl_tok_is(t, en, "Fprint") ||
						fl_tok_is(t, en, "Fprintln"))) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			if (go_args(t, m, eo, sb, se) >= 2 && go_is_stderr(t, sb[0], se[0]))
				return GS_CONSOLE;
		}
		return GS_NONE;
	}
	if (*q != NONE && fl_tok_is(t, *q, "log") && ai == 0)
		return fl_tok_is(t, n, "Fatalf") ? GS_FATAL
		       : fl_tok_is(t, n, "Panicf") ? GS_PANIC
		       : fl_tok_is(t, n, "Printf") ? GS_CONSOLE
						   : GS_NONE;
	if (*q != NONE && fl_tok_is(t, *q, "errors"))
		return (fl_tok_is(t, n, "Errorf") && ai == 0) ||
				       (fl_tok_is(t, n, "Wrapf") && ai == 1)
			       ? GS_ERR
			       : GS_NONE;
	if (*q != NONE && (fl_tok_is(t, *q, "strings") || fl_tok_is(t, *q, "os")))
		return GS_NONE;
	return ai < 256 ? GS_FWD : GS_NONE;
}

/* The parameters of the list opened at po: *v gets the index of the
 * variadic one (NONE), str[k] whether parameter k is a string; name[k]
 * its name token.  Returns how many (at most MAX_ARGS). */
static size_t go_params(const fl_toks *t, const size_t *m, size_t po, size_t *name,
			bool *str, size_t *v)
{
	size_t pb[MAX_ARGS], pe[MAX_ARGS];
	size_t n = go_args(t, m, po, pb, pe), pending = 0;
	*v = NONE;
	for (size_t k = 0; k < n; k++) {
		name[k] = t->v[pb[k]].kind == FL_TK_IDENT ? pb[k] : NONE;
		str[k] = false;
		if (pe[k] == pb[k] + 1)
			continue; /* a name whose type comes later */
		bool s = pe[k] == pb[k] + 2 && fl_tok_is_ident(t, pb[k] + 1, "string");
		if (fl_tok_is(t, pb[k] + 1, "...") && k == n - 1)
			*v = k;
		for (size_t j = pending; j <= k; j++)
			str[j] = s;
		pending = k + 1;
	}
	return n;
}

static void go_collect_helper(gotree *g, const fl_toks *t, const size_t *m, size_t nm,
			      size_t j, bool method, const char *dir, const go_imps *im);

/* the helper defined at func token i, if it is one (added to g) */
static void go_collect_func(gotree *g, const fl_toks *t, const size_t *m, size_t i,
			    const char *dir, const go_imps *im)
{
	size_t j = i + 1;
	bool method = false;
	if (fl_tok_pch(t, j) == '(') {
		if (m[j] == NONE)
			return;
		j = m[j] + 1;
		method = true;
	}
	if (j >= t->n || t->v[j].kind != FL_TK_IDENT)
		return;
	size_t nm = j++;
	if (fl_tok_pch(t, j) == '[' && m[j] != NONE)
		j = m[j] + 1;
	if (fl_tok_pch(t, j) != '(' || m[j] == NONE)
		return;
	go_collect_helper(g, t, m, nm, j, method, dir, im);
}

/* [b, e) is parameter token p, alone or joined to literals by '+'
 * (`"age: error: " + format`, `msg + "\n"`): the literals' texts before
 * and after it into *pre and *suf (NULL when none). */
static bool go_concat_param(const fl_toks *t, size_t b, size_t e, size_t p, char **pre, char **suf)
{
	*pre = *suf = NULL;
	fl_buf bf = {0}, af = {0};
	bool seen = false;
	for (size_t k = b; k < e; k++) {
		if (k > b && !(fl_tok_is(t, k, "+") && k + 1 < e))
			goto no;
		if (k > b)
			k++;
		if (t->v[k].kind == FL_TK_STRING) {
			fl_buf_put(seen ? &af : &bf, fl_tok_str(t, &t->v[k]), t->v[k].slen);
		} else if (!seen && go_same_tok(t, k, p)) {
			seen = true;
		} else {
			goto no;
		}
	}
	if (!seen)
		goto no;
	*pre = bf.n ? fl_xstrdup(fl_buf_cstr(&bf)) : NULL;
	*suf = af.n ? fl_xstrdup(fl_buf_cstr(&af)) : NULL;
	fl_buf_free(&bf);
	fl_buf_free(&af);
	return true;
no:
	fl_buf_free(&bf);
	fl_buf_free(&af);
	return false;
}

/* A format literal at token f with one conversion (%s, %v, %q) for the
 * message: the text around it into *pre / *suf (%q's quotes kept). */
static bool go_split_format(const fl_toks *t, size_t f, char **pre, char **suf)
{
	if (t->v[f].kind != FL_TK_STRING)
		return false;
	const char *s = fl_tok_str(t, &t->v[f]);
	size_t n = t->v[f].slen, at = NONE;
	for (size_t k = 0; k + 1 < n; k++) {
		if (s[k] != '%')
			continue;
		if (s[k + 1] == '%') {
			k++;
			continue;
		}
		if (at != NONE || !strchr("svq", s[k + 1]))
			return false;
		at = k;
	}
	if (at == NONE)
		return false;
	bool q = s[at + 1] == 'q';
	*pre = fl_xasprintf("%.*s%s", (int)at, s, q ? "\"" : "");
	*suf = fl_xasprintf("%s%.*s", q ? "\"" : "", (int)(n - at - 2), s + at + 2);
	return true;
}

/* Whether the name at r is a logger the file makes: `var l =
 * log.New(os.Stderr, "", 0)` or `l := log.New(...)` (age's cmd). */
static bool go_logger_var(const fl_toks *t, size_t r)
{
	for (size_t k = 0; k + 5 < t->n; k++)
		if (go_same_tok(t, k, r) && k != r &&
		    (fl_tok_pch(t, k + 1) == '=' || fl_tok_is(t, k + 1, ":=")) &&
		    fl_tok_is(t, k + 2, "log") && fl_tok_pch(t, k + 3) == '.' && fl_tok_is(t, k + 4, "New") &&
		    fl_tok_pch(t, k + 5) == '(')
			return true;
	return false;
}

/* A helper of a plain message (no format; of a variadic one, a parameter
 * before its variadic one: np counts those):
 * `func errorExit(msg string) { os.Stderr.WriteString(msg + "\n");
 * os.Exit(2) }`, `func warn(msg string) { fmt.Fprintln(os.Stderr,
 * "tool: warning:", msg) }`, `func bad(what string) error { return
 * errors.New("bad " + what) }`: its string parameter printed, logged or
 * made an error, with any text around it (h filled; false when none). */
static bool go_plain_helper(const fl_toks *t, const size_t *m, size_t b, size_t e, const size_t *name,
			    const bool *str, size_t np, gohelp *h)
{
	for (size_t k = b + 1; k < e; k++) {
		if (t->v[k].kind != FL_TK_IDENT || fl_tok_pch(t, k + 1) != '(' || m[k + 1] == NONE ||
		    m[k + 1] >= e)
			continue;
		bool q = k >= 2 && fl_tok_pch(t, k - 1) == '.';
		size_t sb[MAX_ARGS], se[MAX_ARGS];
		size_t na = go_args(t, m, k + 1, sb, se), first = 0;
		int sink = GS_NONE;
		bool fmtf = false, println = false;
		if (q && fl_tok_is(t, k, "WriteString") && k >= 4 && fl_tok_is(t, k - 2, "Stderr") &&
		    fl_tok_is(t, k - 4, "os") && na == 1) {
			sink = GS_CONSOLE;
		} else if (q && fl_tok_is(t, k - 2, "fmt") && na >= 2 && go_is_stderr(t, sb[0], se[0]) &&
			   (fl_tok_is(t, k, "Fprintln") || fl_tok_is(t, k, "Fprint") || fl_tok_is(t, k, "Fprintf"))) {
			sink = GS_CONSOLE;
			first = 1;
			fmtf = fl_tok_is(t, k, "Fprintf");
			println = fl_tok_is(t, k, "Fprintln");
		} else if (q && (fl_tok_is(t, k - 2, "log") ||
				 (t->v[k - 2].kind == FL_TK_IDENT && (k < 3 || fl_tok_pch(t, k - 3) != '.') &&
				  (ends_f(t, k) || fl_tok_is(t, k, "Print") || fl_tok_is(t, k, "Println") ||
				   fl_tok_is(t, k, "Fatal") || fl_tok_is(t, k, "Fatalln")) &&
				  go_logger_var(t, k - 2)))) {
			/* the log package's functions, or a logger's methods */
			fmtf = ends_f(t, k);
			sink = fl_tok_is(t, k, "Fatal") || fl_tok_is(t, k, "Fatalln") || fl_tok_is(t, k, "Fatalf")
				       ? GS_FATAL
			       : fl_tok_is(t, k, "Print") || fl_tok_is(t, k, "Println") || fl_tok_is(t, k, "Printf")
				       ? GS_CONSOLE
				       : GS_NONE;
			println = fl_tok_is(t, k, "Println") || fl_tok_is(t, k, "Fatalln");
		} else if (!q && fl_tok_is(t, k, "panic") && na == 1) {
			sink = GS_PANIC;
		} else if (q && fl_tok_is(t, k - 2, "errors") && fl_tok_is(t, k, "New") && na == 1) {
			sink = GS_ERR;
		} else if (q && fl_tok_is(t, k - 2, "fmt") && fl_tok_is(t, k, "Errorf")) {
			sink = GS_ERR;
			fmtf = true;
		} else if (!q && na == 1 && go_error_type_name(t->src + t->v[k].off, t->v[k].len)) {
			/* a conversion to a string error type: restic's
			 * `Fatal(s string) error { return Wrap(fatalError(s),
			 * "Fatal") }` */
			sink = GS_ERR;
		}
		if (sink == GS_NONE || first >= na)
			continue;
		char *pre = NULL, *suf = NULL;
		size_t fi = NONE;
		if (fmtf) {
			/* "...%s...", msg */
			if (na != first + 2 || se[first] != sb[first] + 1 || se[first + 1] != sb[first + 1] + 1)
				continue;
			for (size_t p = 0; p < np && fi == NONE; p++)
				if (str[p] && name[p] != NONE && go_same_tok(t, sb[first + 1], name[p]) &&
				    go_split_format(t, sb[first], &pre, &suf))
					fi = p;
		} else {
			/* the operands: one holds the message, the others are
			 * literals (Println puts a space between them) */
			fl_buf bf = {0}, af = {0};
			bool ok = true;
			const char *sep = println ? " " : "";
			for (size_t a = first; a < na && ok; a++) {
				char *p0 = NULL, *s0 = NULL;
				size_t hit = NONE;
				for (size_t p = 0; p < np && hit == NONE && fi == NONE; p++)
					if (str[p] && name[p] != NONE &&
					    go_concat_param(t, sb[a], se[a], name[p], &p0, &s0))
						hit = p;
				if (hit != NONE) {
					fi = hit;
					if (p0)
						fl_buf_puts(&bf, p0);
					if (s0)
						fl_buf_puts(&af, s0);
					free(p0);
					free(s0);
				} else if (se[a] == sb[a] + 1 && t->v[sb[a]].kind == FL_TK_STRING) {
					fl_buf *o = fi == NONE ? &bf : &af;
					if (fi != NONE)
						fl_buf_puts(o, sep);
					fl_buf_put(o, fl_tok_str(t, &t->v[sb[a]]), t->v[sb[a]].slen);
					if (fi == NONE)
						fl_buf_puts(o, sep);
				} else {
					ok = false;
				}
			}
			if (ok && fi != NONE) {
				pre = bf.n ? fl_xstrdup(fl_buf_cstr(&bf)) : NULL;
				suf = af.n ? fl_xstrdup(fl_buf_cstr(&af)) : NULL;
			} else {
				fi = NONE;
			}
			fl_buf_free(&bf);
			fl_buf_free(&af);
		}
		if (fi == NONE) {
			free(pre);
			free(suf);
			continue;
		}
		h->sink = (uint8_t)sink;
		h->fi = (uint8_t)fi;
		h->plain = true;
		h->pre = pre;
		h->suf = suf;
		return true;
	}
	return false;
}

/* The helper named at token nm whose parameter list opens at j, if it is
 * one (added to g). */
static void go_collect_helper(gotree *g, const fl_toks *t, const size_t *m, size_t nm,
			      size_t j, bool method, const char *dir, const go_imps *im)
{
	size_t name[MAX_ARGS], v;
	bool str[MAX_ARGS];
	size_t np = go_params(t, m, j, name, str, &v);
	size_t b = go_fn_body(t, m, m[j] + 1);
	if (b == NONE || m[b] == NONE)
		return;
	size_t e = m[b];
	gohelp h = {0};
	/* a plain helper by a name that says error (errorExit, warn, fail,
	 * usageErr): a method Set(name) returning errors.New("no such flag
	 * -" + name) is called with names, not messages */
	if (v == NONE && (!go_errish_name(t->src + t->v[nm].off, t->v[nm].len) ||
			  !go_plain_helper(t, m, b, e, name, str, np, &h)))
		return;
	/* a variadic one that prints a message parameter of its own and
	 * goes over the rest (age's errorWithHint(error string, hints
	 * ...string) printing each hint after) is a plain helper too */
	if (v != NONE && v > 0 && go_errish_name(t->src + t->v[nm].off, t->v[nm].len))
		go_plain_helper(t, m, b, e, name, str, v, &h);
	if (v != NONE && (name[v] == NONE || v == 0) && !h.sink)
		return;
	bool exits = false;
	int depth = 0;
	for (size_t k = b + 1; k < e; k++) {
		char c = fl_tok_pch(t, k);
		depth += c == '{' ? 1 : c == '}' ? -1 : 0;
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		/* it exits or panics, whatever happens (a statement of the
		 * body's own level) */
		if ((fl_tok_is(t, k, "panic") || fl_tok_is(t, k, "Exit")) &&
		    fl_tok_pch(t, k + 1) == '(' && depth == 0)
			exits = true;
		/* `args...` closing a call: the argument before it must be
		 * a string parameter, alone or joined to literals */
		if (h.sink || v == NONE || !go_same_tok(t, k, name[v]) || !fl_tok_is(t, k + 1, "...") ||
		    fl_tok_pch(t, k + 2) != ')' || m[k + 2] == NONE || k < 2 ||
		    fl_tok_pch(t, k - 1) != ',')
			continue;
		size_t open = m[k + 2];
		size_t sb[MAX_ARGS], se[MAX_ARGS];
		size_t na = go_args(t, m, open, sb, se), ai = NONE;
		for (size_t a = 1; a < na; a++)
			if (sb[a] == k)
				ai = a - 1;
		if (ai == NONE)
			continue;
		size_t fi = NONE;
		char *pre = NULL, *suf = NULL;
		for (size_t p = 0; p < np && fi == NONE; p++)
			if (str[p] && name[p] != NONE && go_concat_param(t, sb[ai], se[ai], name[p], &pre, &suf))
				fi = p;
		if (fi == NONE)
			continue;
		h.pre = pre;
		h.suf = suf;
		size_t q, cn;
		bool chain;
		int sink = go_fmt_callee(t, m, open, ai, &q, &cn, &chain);
		if (sink == GS_NONE || (sink == GS_FWD && go_same_tok(t, cn, nm))) {
			free(h.pre);
			free(h.suf);
			h.pre = h.suf = NULL;
			continue;
		}
		h.sink = (uint8_t)sink;
		h.fi = (uint8_t)fi;
		h.ffi = (uint8_t)ai;
		if (sink == GS_FWD) {
			h.fn = fl_tok_dup(t, cn);
			h.fq = q != NONE ? fl_tok_dup(t, q) : NULL;
			h.fq_pkg = q != NONE && go_imported(im, t->src + t->v[q].off, t->v[q].len);
			h.fq_chain = chain;
		}
	}
	if (!h.sink) {
		free(h.pre);
		free(h.suf);
		return;
	}
	h.errish = exits || go_errish_name(t->src + t->v[nm].off, t->v[nm].len);
	h.name = fl_tok_dup(t, nm);
	h.dir = fl_xstrdup(dir);
	h.method = method;
	go_help_add(g, &h);
}

/* A byte scan: `func NAME(... string)` or `func (r T) NAME(...)` with NAME
 * a name that says error (go_errish_name) and a string among the
 * parameters: the file may declare a plain helper (go_plain_helper). */
static bool go_may_plain_helper(const char *s, size_t n)
{
	const char *end = s + n;
	for (const char *p = s; (p = fl_memmem(p, (size_t)(end - p), "func ", 5)) != NULL;) {
		p += 5;
		if (p < end && *p == '(') { /* a receiver */
			const char *r = memchr(p, ')', (size_t)(end - p));
			if (!r)
				return false;
			p = r + 1;
			while (p < end && *p == ' ')
				p++;
		}
		const char *b = p;
		while (p < end && (fl_lx_class[(unsigned char)*p] & 1))
			p++;
		if (p == b || p >= end || *p != '(' || !go_errish_name(b, (size_t)(p - b)))
			continue;
		const char *c = memchr(p, ')', (size_t)(end - p));
		if (c && fl_memmem(p, (size_t)(c - p), "string", 6))
			return true;
	}
	return false;
}

static void go_collect(void *tree, const fl_src *src)
{
	gotree *g = tree;
	/* a helper's arguments: `args ...any` or `...interface{}` (gofmt's
	 * spelling) */
	if (!g || !src->text || src->len < 16 || (src->path && go_is_test_file(src->path)))
		return;
	const char *x = src->text;
	size_t xn = src->len;
	if (!go_may_plain_helper(x, xn) && !fl_memmem(x, xn, "...any", 6) &&
	    !fl_memmem(x, xn, "...interface{}", 14))
		return;
	fl_toks t;
	fl_toks_init(&t, src);
	go_lex(&t);
	size_t *m = fl_tok_match_table(&t, FL_MATCH_STRICT);
	const char *sl = src->path ? strrchr(src->path, '/') : NULL;
	char *dir = sl ? fl_xstrndup(src->path, (size_t)(sl - src->path)) : fl_xstrdup("");
	go_imps im;
	go_imps_of(&t, m, &im);
	for (size_t i = 0; i + 3 < t.n; i++) {
		if (!fl_tok_is_ident(&t, i, "func"))
			continue;
		if (i == 0 || (t.v[i].flags & FL_TF_NL_BEFORE))
			go_collect_func(g, &t, m, i, dir, &im);
		/* a helper of a function's own: `failf := func(format string,
		 * a ...any) error { return fmt.Errorf(format, a...) }`, called
		 * as any helper of its folder */
		else if (i >= 2 && fl_tok_is(&t, i - 1, ":=") && t.v[i - 2].kind == FL_TK_IDENT &&
			 (t.v[i - 2].flags & FL_TF_NL_BEFORE) && fl_tok_pch(&t, i + 1) == '(' &&
			 m[i + 1] != NONE)
			go_collect_helper(g, &t, m, i - 2, i + 1, false, dir, &im);
	}
	free(dir);
	free(m);
	fl_toks_free(&t);
}

/* whether folder dir's last name is s[0..n) */
static bool go_dir_is(const char *dir, const char *s, size_t n)
{
	const char *b = strrchr(dir, '/');
	b = b ? b + 1 : dir;
	return strlen(b) == n && memcmp(b, s, n) == 0;
}

static int go_help_sink(const gotree *g, const gohelp *h, int depth);

/* The helper a call names: `name(` in folder dir (q NULL), `q.name(` of
 * an imported package q (pkg: a function of a folder named q) or of a
 * value (a method), a method called on a chain (chain).  The first
 * definition with a sink; *sink gets it. */
static const gohelp *go_helper(const gotree *g, const char *name, const char *dir,
			       const char *q, size_t ql, bool pkg, bool chain, int *sink,
			       int depth)
{
	size_t k0;
	if (!g || depth > 6 || !fl_strmap_get(&g->idx, name, &k0))
		return NULL;
	for (size_t k = k0; k != NONE; k = g->v[k].next) {
		const gohelp *h = &g->v[k];
		bool ok;
		if (!q && !chain)
			ok = !h->method && strcmp(h->dir, dir) == 0;
		else if (pkg)
			ok = !h->method && go_dir_is(h->dir, q, ql);
		else /* a method; one of a plain message, of the package's
		      * own types (x.error("...") is any type's) */
			ok = h->method && (!h->plain || strcmp(h->dir, dir) == 0);
		if (!ok)
			continue;
		int s = go_help_sink(g, h, depth + 1);
		if (s != GS_NONE) {
			*sink = s;
			return h;
		}
	}
	return NULL;
}

/* what a helper does with its format, its forwards followed: GS_* */
static int go_help_sink(const gotree *g, const gohelp *h, int depth)
{
	if (h->sink != GS_FWD)
		return h->sink == GS_CONSOLE && !h->errish ? GS_WEAK : h->sink;
	int s = GS_NONE;
	const gohelp *to = go_helper(g, h->fn, h->dir, h->fq, h->fq ? strlen(h->fq) : 0,
				     h->fq_pkg, h->fq_chain, &s, depth);
	/* a forwarder whose name says no error (Debugf -> l.log, where log
	 * may exit for one level) reports only an error value it returns */
	if (to && to->fi == h->ffi)
		return h->errish ? (s == GS_WEAK ? GS_CONSOLE : s) : (s == GS_ERR ? s : GS_WEAK);
	/* a logger's method: x.Fatalf(format, args...) */
	if (h->fq || h->fq_chain) {
		char c = h->fn[0];
		size_t l = strlen(h->fn);
		if (h->ffi != 0 || l < 2 || h->fn[l - 1] != 'f')
			return GS_NONE;
		if (strncmp(h->fn, "Fatal", 5) == 0)
			return GS_FATAL;
		if (strncmp(h->fn, "Panic", 5) == 0)
			return GS_PANIC;
		if ((c == 'E' && strncmp(h->fn, "Error", 5) == 0) ||
		    (c == 'W' && strncmp(h->fn, "Warn", 4) == 0))
			return GS_CONSOLE;
		/* an error helper's logger: l.Printf("age: error: "+format,
		 * v...) in errorf */
		if (h->errish && strcmp(h->fn, "Printf") == 0)
			return GS_CONSOLE;
	}
	return GS_NONE;
}

/* A call of one of the tree's format helpers at i (`name(` with the
 * qualifier of go_call): true when it was one (and is done with). */
static bool go_helper_call(go_st *st, size_t i, size_t at, const char *idiom)
{
	const fl_toks *t = st->t;
	const gotree *g = st->tree;
	if (!g || !g->n || t->v[i].len >= 64)
		return false;
	char name[64];
	memcpy(name, t->src + t->v[i].off, t->v[i].len);
	name[t->v[i].len] = '\0';
	bool qual = i >= 2 && fl_tok_pch(t, i - 1) == '.';
	const char *q = NULL;
	size_t ql = 0;
	bool chain = false;
	if (qual && t->v[i - 2].kind == FL_TK_IDENT && !(i >= 3 && fl_tok_pch(t, i - 3) == '.')) {
		q = t->src + t->v[i - 2].off;
		ql = t->v[i - 2].len;
	} else if (qual) {
		chain = true;
	} else if (i > 0 && (fl_tok_is_ident(t, i - 1, "func") ||
			     (fl_tok_pch(t, i - 1) == ')' && st->m[i - 1] != NONE &&
			      st->m[i - 1] > 0 && fl_tok_is_ident(t, st->m[i - 1] - 1, "func")))) {
		return false; /* its definition */
	}
	int sink = GS_NONE;
	const gohelp *h = go_helper(g, name, st->dir, q, ql, q && go_imported(&st->imps, q, ql),
				    chain, &sink, 0);
	if (!h || sink == GS_WEAK)
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = go_args(t, st->m, i + 1, sb, se);
	if (na <= h->fi)
		return true;
	bool lit = false;
	for (size_t k = sb[h->fi]; k < se[h->fi] && !lit; k++)
		lit = t->v[k].kind == FL_TK_STRING;
	if (!lit)
		return true;
	char *msg = go_arg_msg(st, sb, se, na, h->fi, !h->plain);
	if (msg && h->plain && !strchr(msg, ' ')) {
		/* one word (w.error("nil")) is a key or a name, not a text */
		free(msg);
		return true;
	}
	if (msg && (h->pre || h->suf)) { /* the helper's own text around it */
		char *w = fl_xasprintf("%s%s%s", h->pre ? h->pre : "", msg, h->suf ? h->suf : "");
		free(msg);
		fl_msg_trim(w);
		msg = w;
	}
	bool warn = strncasecmp(name, "warn", 4) == 0 || strstr(name, "Warn");
	if (msg && sink == GS_ERR) {
		char *cls = go_sentinel(st, at);
		char sid[112];
		snprintf(sid, sizeof sid, "sentinel %s", idiom);
		emit(st, at, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, 0, cls ? sid : idiom);
		free(cls);
	} else if (msg) {
		emit(st, at, msg, NULL, NULL, sink == GS_PANIC ? FL_T_PANIC : FL_T_CONSOLE,
		     sink == GS_CONSOLE ? (warn ? FL_S_WARNING : FL_S_ERROR) : FL_S_CRITICAL, 0,
		     idiom);
	}
	free(msg);
	return true;
}

/* a call `name(` at token i (name is an identifier, i+1 is '(') */
static void go_call(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	bool qual = i >= 2 && fl_tok_pch(t, i - 1) == '.';
	bool simple = qual && t->v[i - 2].kind == FL_TK_IDENT &&
		      !(i >= 3 && fl_tok_pch(t, i - 3) == '.');
	size_t at = simple ? i - 2 : i;
	if (at == st->consumed)
		return;
	char idiom[96];
	if (simple)
		snprintf(idiom, sizeof idiom, "%.*s.%.*s", (int)t->v[i - 2].len > 40 ? 40 : (int)t->v[i - 2].len,
			 t->src + t->v[i - 2].off, (int)t->v[i].len > 40 ? 40 : (int)t->v[i].len,
			 t->src + t->v[i].off);
	else
		snprintf(idiom, sizeof idiom, "%s%.*s", qual ? "." : "",
			 (int)t->v[i].len > 40 ? 40 : (int)t->v[i].len, t->src + t->v[i].off);
	if (go_helper_call(st, i, at, idiom))
		return;
	if (!in_list(t, i, go_callees) && !in_list(t, i, logger_methods))
		return;
	const char *pkg = NULL;
	char pkgbuf[16];
	for (size_t a = 0; simple && a < st->nal; a++) {
		const fl_tok *x = &t->v[st->al[a].tok];
		if (x->len == t->v[i - 2].len &&
		    memcmp(t->src + x->off, t->src + t->v[i - 2].off, x->len) == 0)
			pkg = st->al[a].canon;
	}
	if (!pkg && simple && t->v[i - 2].len < sizeof pkgbuf) {
		memcpy(pkgbuf, t->src + t->v[i - 2].off, t->v[i - 2].len);
		pkgbuf[t->v[i - 2].len] = '\0';
		pkg = pkgbuf;
	}
	if (!qual) {
		if (i > 0 && fl_tok_is_ident(t, i - 1, "func"))
			return;
		if (!fl_tok_is(t, i, "panic")) {
			/* within the framework itself: NewHTTPError(code, "...") */
			size_t n = fl_tok_is(t, i, "NewHTTPError") ? go_args(t, st->m, i + 1, sb, se) : 0;
			if (n)
				go_http_error_ctor(st, i, i, sb, se, n, idiom);
			return;
		}
		if (go_args(t, st->m, i + 1, sb, se) != 1)
			return;
		char *msg = go_msg(&st->kc, t, st->m, sb[0], se[0], false, 0);
		if (msg && se[0] - sb[0] > 3 && fl_tok_pch(t, sb[0] + 3) == '(')
			st->consumed = sb[0];
		emit(st, i, msg, NULL, NULL, FL_T_PANIC, FL_S_CRITICAL, 0, "panic");
		free(msg);
		return;
	}
	size_t na = go_args(t, st->m, i + 1, sb, se);
	if (!na)
		return;
	if (go_http_error_ctor(st, i, at, sb, se, na, idiom) ||
	    go_http_response(st, i, at, sb, se, na, idiom))
		return;
	if (pkg && (!strcmp(pkg, "errors") || !strcmp(pkg, "fmt"))) {
		bool isfmt = !strcmp(pkg, "fmt");
		size_t ai;
		bool f;
		if (fl_tok_is(t, i, "New") && !isfmt)
			ai = 0, f = false;
		else if (fl_tok_is(t, i, "Errorf"))
			ai = 0, f = true;
		else if (!isfmt && (fl_tok_is(t, i, "Wrap") || fl_tok_is(t, i, "WithMessage")))
			ai = 1, f = false;
		else if (!isfmt && (fl_tok_is(t, i, "Wrapf") || fl_tok_is(t, i, "WithMessagef")))
			ai = 1, f = true;
		else if (isfmt && go_stderr_print(st, at, i, sb, se, na, idiom))
			return;
		else
			return;
		if (na <= ai)
			return;
		char *msg = go_arg_msg(st, sb, se, na, ai, f);
		if (msg) {
			/* var ErrX = errors.New("..."): a sentinel value */
			char *cls = go_sentinel(st, at);
			char sid[112];
			snprintf(sid, sizeof sid, "sentinel %s", idiom);
			emit(st, at, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, 0,
			     cls ? sid : idiom);
			free(cls);
		}
		free(msg);
		return;
	}
	if (pkg && !strcmp(pkg, "log") &&
	    (fl_tok_is(t, i, "Fatal") || fl_tok_is(t, i, "Fatalf") ||
	     fl_tok_is(t, i, "Fatalln") || fl_tok_is(t, i, "Panic") ||
	     fl_tok_is(t, i, "Panicf") || fl_tok_is(t, i, "Panicln"))) {
		bool panic = t->src[t->v[i].off] == 'P';
		char *msg = ends_f(t, i) ? go_arg_msg(st, sb, se, na, 0, true)
					 : go_print_msg(&st->kc, t, st->m, sb, se, na,
							t->src[t->v[i].off + t->v[i].len - 1] == 'n');
		emit(st, at, msg, NULL, NULL, panic ? FL_T_PANIC : FL_T_CONSOLE,
		     FL_S_CRITICAL, 0, idiom);
		free(msg);
		return;
	}
	if (pkg && !strcmp(pkg, "http")) {
		if (!fl_tok_is(t, i, "Error") || na < 3)
			return;
		char *msg = go_msg(&st->kc, t, st->m, sb[1], se[1], false, 0);
		int code = go_http_status(t, sb[2], se[2]);
		emit(st, at, msg, NULL, NULL, FL_T_HTTP,
		     code >= 400 && code < 500 ? FL_S_WARNING : FL_S_ERROR, code, idiom);
		free(msg);
		return;
	}
	if (pkg && !strcmp(pkg, "status")) {
		bool f = fl_tok_is(t, i, "Errorf") || fl_tok_is(t, i, "Newf");
		if (!(f || fl_tok_is(t, i, "Error") || fl_tok_is(t, i, "New")) || na < 2)
			return;
		char *code = go_grpc_code(t, sb[0], se[0]);
		char *msg = go_arg_msg(st, sb, se, na, 1, f);
		emit(st, at, msg, code, "status.Error", FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
		free(code);
		free(msg);
		return;
	}
	if (pkg && !strcmp(pkg, "slog")) {
		size_t ai = 0;
		const char *sev;
		if (fl_tok_is(t, i, "Error"))
			sev = FL_S_ERROR;
		else if (fl_tok_is(t, i, "Warn"))
			sev = FL_S_WARNING;
		else if (fl_tok_is(t, i, "ErrorContext"))
			sev = FL_S_ERROR, ai = 1;
		else if (fl_tok_is(t, i, "WarnContext"))
			sev = FL_S_WARNING, ai = 1;
		else
			return;
		if (na <= ai)
			return;
		size_t b = sb[ai], e = se[ai];
		char *msg = go_msg(&st->kc, t, st->m, b, e, false, 0);
		emit(st, at, msg, NULL, NULL, FL_T_CONSOLE, sev, 0, idiom);
		free(msg);
		return;
	}
	if (pkg && (!strcmp(pkg, "errors") || !strcmp(pkg, "fmt") || !strcmp(pkg, "status") ||
		    !strcmp(pkg, "strings") || !strcmp(pkg, "zap") || !strcmp(pkg, "codes")))
		return;
	/* zap / logrus / klog style loggers: x.Errorf("...") */
	if (!in_list(t, i, logger_methods))
		return;
	/* the message must be literal-based */
	bool lit = false;
	for (size_t k = sb[0]; k < se[0]; k++)
		if (t->v[k].kind == FL_TK_STRING) {
			lit = true;
			break;
		}
	if (!lit)
		return;
	const char *name = t->src + t->v[i].off;
	const char *type = FL_T_CONSOLE, *sev = FL_S_ERROR;
	if (name[0] == 'F')
		sev = FL_S_CRITICAL;
	else if (name[0] == 'W')
		sev = FL_S_WARNING;
	else if (name[0] == 'C')
		sev = FL_S_CRITICAL;
	else if (name[0] == 'P' || name[0] == 'D')
		type = FL_T_PANIC, sev = FL_S_CRITICAL;
	char *msg = go_arg_msg(st, sb, se, na, 0, ends_f(t, i));
	emit(st, at, msg, NULL, NULL, type, sev, 0, idiom);
	free(msg);
}

/* a path with a folder named `test` below the tree's top (filter.c lets
 * such a folder in for Go: a package like any other) */
static bool go_in_test_package(const char *path)
{
	return strstr(path, "/test/") != NULL;
}

/* a file of such a folder that only tests use: a program (package main)
 * or a helper package importing "testing" or a test framework */
static bool go_test_only(const fl_toks *t, const size_t *m)
{
	static const char *const tpk[] = {"testing", "github.com/stretchr/testify",
		"github.com/onsi/ginkgo", "github.com/onsi/gomega", "gotest.tools", NULL};
	for (size_t i = 0; i + 1 < t->n; i++) {
		if (t->v[i].kind != FL_TK_IDENT)
			continue;
		if (fl_tok_is(t, i, "package"))
			if (fl_tok_is_ident(t, i + 1, "main"))
				return true;
		if (fl_tok_is(t, i, "func"))
			break; /* the imports come first */
		if (!fl_tok_is(t, i, "import"))
			continue;
		size_t e = fl_tok_pch(t, i + 1) == '(' && m[i + 1] != NONE ? m[i + 1] : i + 3;
		for (size_t k = i + 1; k < e && k < t->n; k++) {
			if (t->v[k].kind != FL_TK_STRING)
				continue;
			const char *s = fl_tok_str(t, &t->v[k]);
			size_t n = t->v[k].slen;
			for (const char *const *p = tpk; *p; p++) {
				size_t l = strlen(*p);
				if (n >= l && memcmp(s, *p, l) == 0 && (n == l || s[l] == '/'))
					return true;
			}
		}
	}
	return false;
}

/* a call of a name starting in lower case at i: one of the tree's format
 * helpers (failf("..."), g.errorf("...")); true when it was one */
static bool go_lower_call(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	bool simple = i >= 2 && fl_tok_pch(t, i - 1) == '.' && t->v[i - 2].kind == FL_TK_IDENT &&
		      !(i >= 3 && fl_tok_pch(t, i - 3) == '.');
	size_t at = simple ? i - 2 : i;
	if (at == st->consumed)
		return false;
	char idiom[96];
	int nl = t->v[i].len > 40 ? 40 : (int)t->v[i].len;
	if (simple)
		snprintf(idiom, sizeof idiom, "%.*s.%.*s",
			 t->v[i - 2].len > 40 ? 40 : (int)t->v[i - 2].len,
			 t->src + t->v[i - 2].off, nl, t->src + t->v[i].off);
	else
		snprintf(idiom, sizeof idiom, "%s%.*s", fl_tok_pch(t, i - 1) == '.' ? "." : "", nl,
			 t->src + t->v[i].off);
	return go_helper_call(st, i, at, idiom);
}

static void go_scan(const void *tree, const fl_src *src, fl_sites *out)
{
	fl_toks tk;
	fl_toks_init(&tk, src);
	go_lex(&tk);
	const fl_toks *t = &tk;
	go_st st = {0};
	st.t = t;
	st.out = out;
	st.tree = tree;
	const char *sl = src->path ? strrchr(src->path, '/') : NULL;
	char *dir = sl ? fl_xstrndup(src->path, (size_t)(sl - src->path)) : fl_xstrdup("");
	st.dir = dir;
	st.m = fl_tok_match_table(t, FL_MATCH_STRICT);
	if (tree && ((const gotree *)tree)->n)
		go_imps_of(t, st.m, &st.imps);
	if (go_in_test_package(src->path) && go_test_only(t, st.m)) {
		free(st.m);
		free(dir);
		fl_toks_free(&tk);
		return;
	}
	st.csc = 64;
	st.cs = fl_xmalloc(st.csc * sizeof *st.cs);
	memset(&st.cs[0], 0, sizeof st.cs[0]);
	st.cs[0].open = NONE;
	st.csn = 1;
	st.var_open = st.var_close = st.consumed = NONE;
	st.if_open = NONE;
	st.errm_open = st.errm_close = st.errm_type = NONE;
	go_collect_consts(&st.kc, t, st.m);
	fl_helper_budget_reset(t->n);
	/* the package clause comes first */
	if (t->n > 1 && fl_tok_is(t, 0, "package") && t->v[1].kind == FL_TK_IDENT)
		st.pkg = fl_tok_dup(t, 1);

	for (size_t i = 0; i < t->n; i++) {
		char c = fl_tok_pch(t, i);
		if (c == '{') {
			ctx_push(&st, i);
			continue;
		}
		if (c == '}') {
			ctx_pop(&st, i);
			continue;
		}
		if (t->v[i].kind != FL_TK_IDENT)
			continue;
		if (fl_tok_pch(t, i + 1) == '(' && (t->src[t->v[i].off] == 'p' ||
					     (t->src[t->v[i].off] >= 'A' && t->src[t->v[i].off] <= 'Z'))) {
			go_call(&st, i);
			continue;
		}
		/* a call of one of the tree's format helpers: failf("...") */
		if (fl_tok_pch(t, i + 1) == '(' && tree && ((const gotree *)tree)->n &&
		    go_lower_call(&st, i))
			continue;
		if (st.errm_open != NONE && i > st.errm_open && i < st.errm_close &&
		    fl_tok_is(t, i, "return")) {
			go_error_method_return(&st, i);
			continue;
		}
		if (t->v[i].len == 6 && fl_tok_is(t, i, "import")) {
			go_import(&st, i);
			continue;
		}
		if (t->v[i].len > 4 || !memchr("fiv", t->src[t->v[i].off], 3))
			continue;
		if (fl_tok_is(t, i, "func")) {
			go_func(&st, i);
			continue;
		}
		if (fl_tok_is(t, i, "if")) {
			size_t semi;
			size_t b = go_find_if_body(&st, i + 1, &semi);
			size_t gb = semi != NONE ? semi + 1 : i + 1;
			if (b != NONE && gb < b)
				pend_add(&st, b, P_GUARD, NULL, gb, b);
			continue;
		}
		if (fl_tok_is(t, i, "var") && fl_tok_pch(t, i + 1) == '(' && st.m[i + 1] != NONE) {
			st.var_open = i + 1;
			st.var_close = st.m[i + 1];
			continue;
		}
	}
	for (size_t i = 0; i < st.csn; i++)
		free(st.cs[i].own_fn);
	for (size_t i = 0; i < st.np; i++)
		free(st.pend[i].name);
	free(st.cs);
	free(st.kc.name);
	free(st.kc.lit);
	fl_strmap_free(&st.kc.idx);
	free(st.m);
	free(st.pkg);
	free(dir);
	fl_toks_free(&tk);
}

static const char *const go_exts[] = {".go", NULL};

const fl_lang fl_lang_go = {
	.name = "go",
	.extensions = go_exts,
	.is_test_file = go_is_test_file,
	.test_folder_is_package = true,
	.docs_folder_is_package = true,
	.late_text = true,
	.tree_new = go_tree_new,
	.tree_free = go_tree_free,
	.collect = go_collect,
	.tree_merge = go_tree_merge,
	.scan = go_scan,
};
