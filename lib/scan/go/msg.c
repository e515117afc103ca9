/*
 * msg.c — Go messages rebuilt from tokens (see go.h)
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "go.h"

/* ---- messages ----------------------------------------------------------------- */

static const char *const go_concat[] = {"+", NULL};

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

/* the text of [b, e) when it is one name of a string constant of the
 * file (a name with two different texts is none) */
const char *go_kconst(const go_kcs *kc, const fl_toks *t, size_t b, size_t e,
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
char *go_fmt_consts(const go_kcs *kc, const fl_toks *t, const size_t *sb,
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
char *go_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t b, size_t e,
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
char *go_print_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, const size_t *sb,
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
int go_http_status(const fl_toks *t, size_t b, size_t e)
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
char *go_grpc_code(const fl_toks *t, size_t b, size_t e)
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

bool go_same_tok(const fl_toks *t, size_t a, size_t b)
{
	return t->v[a].len == t->v[b].len &&
	       memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) == 0;
}

void go_imps_of(const fl_toks *t, const size_t *m, go_imps *im)
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

bool go_imported(const go_imps *im, const char *s, size_t n)
{
	for (size_t k = 0; k < im->n; k++)
		if (im->l[k] == n && memcmp(im->s[k], s, n) == 0)
			return true;
	return false;
}

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
void go_collect_consts(go_kcs *kc, const fl_toks *t, const size_t *m)
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

