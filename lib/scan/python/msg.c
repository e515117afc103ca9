/*
 * msg.c — Python messages (lib/scan/python/, python.h): the text of an
 * expression rebuilt from its tokens (`%` formatting, `.format(...)`,
 * f-strings, `+` concatenation, gettext wrappers and their plural forms,
 * str()/repr() as placeholders), the messages a local variable holds,
 * list-joined messages (`" - ".join(parts)`), a call's arguments and the
 * message or code one of them holds.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../strmap.h"
#include "python.h"

/* Split args of the bracket at open; returns count, or NONE when
 * unbalanced. */
size_t py_split_args(const fl_toks *t, const size_t *m, size_t open,
		     size_t *st, size_t *en, size_t max, size_t *close)
{
	size_t n = fl_tok_split_args(t, m, open, st, en, max, close, 0);
	return *close == FL_NOMATCH ? NONE : n;
}

/* fl_msg_from_expr with size and nesting limits. */
bool py_range_ok(const fl_toks *t, size_t b, size_t e)
{
	int d;
	return e > b && e - b <= MSG_MAX_TOKS && fl_tok_nesting(t, b, e, &d) &&
	       d <= MSG_MAX_DEPTH;
}

/* ---- message reconstruction ------------------------------------------------- */

static const char *const concat_ops[] = {"+", NULL};
/* (`__`: the translator Sphinx and its extensions make with
 * get_translation(), `__('Cannot find source directory (%s)')`) */
static const char *const wrappers[] = {
	"_", "__", "N_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy",
	"lazy_gettext", "_l", "gettext_noop", "ugettext_noop", NULL};
static const fl_msg_opts msg_opts = {.concat_ops = concat_ops,
				     .adjacent_join = true,
				     .wrappers = wrappers};

/* decode "{{" "}}" (fmt) or "%%" (pct) in the arena text of token k */
static void decode_fmt(fl_toks *s, size_t k, bool pct)
{
	fl_tok *tk = &s->v[k];
	if (tk->kind != FL_TK_STRING)
		return;
	char *p = s->arena.s + tk->str;
	size_t n = tk->slen, w = 0;
	for (size_t r = 0; r < n; r++) {
		char c = p[r];
		if (pct && c == '%' && r + 1 < n && p[r + 1] == '%')
			r++;
		else if (!pct && (c == '{' || c == '}') && r + 1 < n &&
			 p[r + 1] == c && !(tk->flags & FL_TF_INTERP))
			r++;
		p[w++] = c;
	}
	p[w] = '\0';
	tk->slen = (uint32_t)w;
}

static void decode_operand(fl_toks *s, size_t from, bool pct)
{
	for (size_t k = from; k < s->n; k++)
		decode_fmt(s, k, pct);
}

/* gettext's plural and context forms: `ngettext(singular, plural, n)`,
 * `pgettext(context, message)`, `npgettext(context, singular, plural, n)`
 * (and their u-/_lazy variants, Django's and the standard library's).
 * The argument that is the message: variant 0 the singular, variant 1
 * the plural; NONE when k is no such call. */
static size_t plural_arg(const fl_toks *t, size_t k, int variant)
{
	static const char *const plural[] = {
		"ngettext", "ungettext", "ngettext_lazy", "ungettext_lazy",
		"dngettext", NULL};
	static const char *const ctx[] = {"pgettext", "pgettext_lazy", NULL};
	static const char *const nctx[] = {"npgettext", "npgettext_lazy", NULL};
	if (t->v[k].kind != FL_TK_IDENT || !is_p(t, k + 1, '('))
		return NONE;
	for (const char *const *q = plural; *q; q++)
		if (fl_tok_is(t, k, *q))
			return strcmp(*q, "dngettext") == 0 ? (size_t)variant + 1
							    : (size_t)variant;
	for (const char *const *q = ctx; *q; q++)
		if (fl_tok_is(t, k, *q))
			return 1;
	for (const char *const *q = nctx; *q; q++)
		if (fl_tok_is(t, k, *q))
			return (size_t)variant + 1;
	return NONE;
}

/* Whether [b, e) calls a plural gettext form (its message has a second,
 * plural, variant). */
static bool has_plural(const fl_toks *t, size_t b, size_t e)
{
	for (size_t k = b; k + 1 < e; k++)
		if (plural_arg(t, k, 0) != plural_arg(t, k, 1))
			return true;
	return false;
}

/* dec: the escapes decoded in the whole text: 0 none, 1 `%%` (a `%`
 * formatting), 2 `{{` `}}` (a `.format()`) */
static char *py_msg_v(const fl_toks *t, size_t b, size_t e, int dec,
		      int variant);

/* ---- module constants ----------------------------------------------------------
 * `_ERR_MSG_PREFIX = 'No module named '` at the top level of a file, then
 * `raise ModuleNotFoundError(f"{_ERR_MSG_PREFIX}{name!r}")`, `PREFIX + x`,
 * `FMT.format(x)`, `FMT % x`: a name in capitals bound once, at module
 * level, to string literals is read as those literals wherever a message
 * of the file uses it.  The table is the file's being scanned or collected
 * on this thread (py_consts_begin / py_consts_end). */
typedef struct py_const {
	size_t name, vb, ve; /* the name's token, its literals' tokens; vb == ve: bound twice */
} py_const;

static _Thread_local struct {
	const char *src;
	py_const *v;
	size_t n;
	fl_strmap by_name; /* name -> index in v */
} consts;

static bool capital_name(const fl_toks *t, size_t i)
{
	const char *s = t->src + t->v[i].off;
	bool upper = false;
	for (size_t k = 0; k < t->v[i].len; k++) {
		if (s[k] >= 'a' && s[k] <= 'z')
			return false;
		upper |= s[k] >= 'A' && s[k] <= 'Z';
	}
	return upper;
}

static py_const *const_named(const fl_toks *t, size_t i)
{
	char name[128];
	size_t k;
	if (!consts.n || t->v[i].len >= sizeof name)
		return NULL;
	memcpy(name, t->src + t->v[i].off, t->v[i].len);
	name[t->v[i].len] = '\0';
	return fl_strmap_get(&consts.by_name, name, &k) ? &consts.v[k] : NULL;
}

/* `ErrorMessage("text" "more", ...)` at token v, the whole statement:
 * a capitalized callee given literals first; [*b, *e) those literals. */
static bool message_call(const fl_toks *t, size_t v, size_t *b, size_t *e)
{
	if (v + 3 >= t->n || t->v[v].kind != FL_TK_IDENT || !(t->src[t->v[v].off] >= 'A' &&
							     t->src[t->v[v].off] <= 'Z') ||
	    !is_p(t, v + 1, '(') || t->v[v + 2].kind != FL_TK_STRING || (t->v[v + 2].flags & FL_TF_INTERP))
		return false;
	size_t j = v + 2;
	while (j < t->n && t->v[j].kind == FL_TK_STRING && !(t->v[j].flags & FL_TF_INTERP))
		j++;
	if (j >= t->n || !(is_p(t, j, ',') || is_p(t, j, ')')))
		return false;
	/* the call ends the statement */
	size_t q = j;
	int depth = 1;
	for (; q < t->n && depth > 0; q++) {
		if (is_p(t, q, '(') || is_p(t, q, '[') || is_p(t, q, '{'))
			depth++;
		else if (is_p(t, q, ')') || is_p(t, q, ']') || is_p(t, q, '}'))
			depth--;
	}
	if (depth != 0 || (q < t->n && !(t->v[q].flags & FL_TF_NL_BEFORE)))
		return false;
	*b = v + 2;
	*e = j;
	return true;
}

/* The constant named at token i bound to the literals [vb, ve) (0, 0: to
 * something else).  Bound again at the top level, what the module's
 * functions (and other modules) see is the last binding. */
static void bind_const(const fl_toks *t, size_t i, size_t vb, size_t ve, size_t *cap)
{
	py_const *had = const_named(t, i);
	if (had) {
		had->name = i;
		had->vb = vb;
		had->ve = ve;
		return;
	}
	if (t->v[i].len >= 128)
		return;
	if (consts.n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		consts.v = fl_xrealloc(consts.v, *cap * sizeof *consts.v);
	}
	char name[128];
	memcpy(name, t->src + t->v[i].off, t->v[i].len);
	name[t->v[i].len] = '\0';
	fl_strmap_put(&consts.by_name, name, consts.n);
	consts.v[consts.n++] = (py_const){i, vb, ve};
}

void py_consts_begin(const fl_toks *t)
{
	py_consts_end();
	consts.src = t->src;
	size_t cap = 0;
	for (size_t i = 0; i + 1 < t->n; i++) {
		const fl_tok *k = &t->v[i];
		if (k->kind != FL_TK_IDENT || k->col != 1 || (i > 0 && !(k->flags & FL_TF_NL_BEFORE)) ||
		    !capital_name(t, i))
			continue;
		/* `NAME: Final = ...`: the annotation passed over */
		size_t o = i + 1;
		if (is_p(t, o, ':'))
			for (size_t lim = o + 8; o < lim && o + 1 < t->n && !(t->v[o + 1].flags & FL_TF_NL_BEFORE) &&
						 !is_p(t, o, '=');
			     o++)
				;
		const fl_tok *op = &t->v[o];
		if (op->kind != FL_TK_PUNCT || op->len > 2 || t->src[op->off + op->len - 1] != '=' ||
		    (op->flags & FL_TF_NL_BEFORE) || (o > i + 1 && op->len != 1))
			continue;
		size_t cb, ce;
		if (message_call(t, o + 1, &cb, &ce)) {
			/* `NAME: Final = ErrorMessage("text", code=...)`: a
			 * message object's text (mypy's message_registry);
			 * bound again, the last binding is the one seen */
			bind_const(t, i, cb, ce, &cap);
			continue;
		}
		/* literals, joined or with `+`, and constants bound before */
		size_t j = o + 1;
		bool operand = true; /* an operand is wanted next */
		while (j < t->n && (j == o + 1 || !(t->v[j].flags & FL_TF_NL_BEFORE))) {
			const py_const *pc;
			bool str = t->v[j].kind == FL_TK_STRING;
			if (operand && (str || (t->v[j].kind == FL_TK_IDENT &&
						(pc = const_named(t, j)) != NULL && pc->ve > pc->vb)))
				operand = false;
			else if (!operand && str && t->v[j - 1].kind == FL_TK_STRING)
				; /* "a" "b" */
			else if (!operand && fl_tok_is_punct(t, j, "+"))
				operand = true;
			else
				break;
			j++;
		}
		bool lit = op->len == 1 && j > o + 1 && !operand &&
			   (j == t->n || (t->v[j].flags & FL_TF_NL_BEFORE));
		bind_const(t, i, lit ? o + 1 : 0, lit ? j : 0, &cap);
	}
}

static void const_text(const fl_toks *t, const py_const *c, fl_buf *b, int depth);

void py_consts_each(const fl_toks *t, void (*each)(void *ud, const char *name, const char *text),
		    void *ud)
{
	for (size_t k = 0; k < consts.n; k++) {
		const py_const *c = &consts.v[k];
		/* bound once, to literals only (an f-string's holes are
		 * the file's own names) */
		if (c->ve <= c->vb || (t->v[c->vb].flags & FL_TF_INTERP))
			continue;
		fl_buf b = {0};
		const_text(t, c, &b, 0);
		fl_buf_cstr(&b);
		char name[128];
		size_t nl = t->v[c->name].len < sizeof name ? t->v[c->name].len : sizeof name - 1;
		memcpy(name, t->src + t->v[c->name].off, nl);
		name[nl] = '\0';
		/* a message: two words at least */
		if (b.n && strchr(b.s, ' ') && fl_msg_plain_letters(b.s) >= 6)
			each(ud, name, b.s);
		fl_buf_free(&b);
	}
}

void py_consts_end(void)
{
	fl_strmap_free(&consts.by_name);
	free(consts.v);
	consts.v = NULL;
	consts.n = 0;
	consts.src = NULL;
}

static void const_text(const fl_toks *t, const py_const *c, fl_buf *b, int depth);

/* msg with each field that is a module constant, `{PREFIX}` of an
 * f-string, replaced by the constant's text (one without braces).  Takes
 * msg, returns the message to use. */
static char *consts_in_fields(const fl_toks *t, char *msg)
{
	fl_buf out = {0};
	const char *p = msg;
	bool changed = false;
	for (const char *h; (h = strchr(p, '{')) != NULL;) {
		const char *q = h + 1;
		while ((*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_')
			q++;
		const py_const *c = NULL;
		char name[128];
		size_t at;
		if (*q == '}' && q > h + 1 && (size_t)(q - h - 1) < sizeof name) {
			memcpy(name, h + 1, (size_t)(q - h - 1));
			name[q - h - 1] = '\0';
			if (fl_strmap_get(&consts.by_name, name, &at) && consts.v[at].ve > consts.v[at].vb)
				c = &consts.v[at];
		}
		fl_buf text = {0};
		if (c)
			const_text(t, c, &text, 0);
		bool braces = text.n && (memchr(text.s, '{', text.n) || memchr(text.s, '}', text.n));
		if (!c || !text.n || braces || (t->v[c->vb].flags & FL_TF_INTERP)) {
			fl_buf_free(&text);
			fl_buf_put(&out, p, (size_t)(h - p) + 1);
			p = h + 1;
			continue;
		}
		fl_buf_put(&out, p, (size_t)(h - p));
		fl_buf_put(&out, text.s, text.n);
		fl_buf_free(&text);
		p = q + 1;
		changed = true;
	}
	if (!changed) {
		fl_buf_free(&out);
		return msg;
	}
	fl_buf_puts(&out, p);
	fl_buf_cstr(&out);
	free(msg);
	return out.s;
}

/* The tokens the constant c stands for: its literals and `+`, the
 * constants it is made of expanded (they were bound before it). */
static size_t const_len(const fl_toks *t, const py_const *c, int depth)
{
	size_t n = 0;
	for (size_t q = c->vb; q < c->ve; q++) {
		const py_const *in = t->v[q].kind == FL_TK_IDENT && depth < 8 ? const_named(t, q) : NULL;
		n += in && in->ve > in->vb ? const_len(t, in, depth + 1) : 1;
	}
	return n;
}

static void const_copy(const fl_toks *t, const py_const *c, fl_toks *s, const fl_tok *at, int depth)
{
	for (size_t q = c->vb; q < c->ve; q++) {
		const py_const *in = t->v[q].kind == FL_TK_IDENT && depth < 8 ? const_named(t, q) : NULL;
		if (in && in->ve > in->vb) {
			const_copy(t, in, s, at, depth + 1);
			continue;
		}
		fl_tok *d = &s->v[s->n++];
		*d = t->v[q];
		d->line = at->line;
		d->col = at->col;
		if (d->kind == FL_TK_STRING) {
			fl_toks_str_begin(s, d);
			fl_buf_put(&s->arena, fl_tok_str(t, &t->v[q]), t->v[q].slen);
			fl_toks_str_end(s, d);
		}
	}
}

/* The text of constant c (its literals joined), into b. */
static void const_text(const fl_toks *t, const py_const *c, fl_buf *b, int depth)
{
	for (size_t q = c->vb; q < c->ve; q++) {
		const py_const *in = t->v[q].kind == FL_TK_IDENT && depth < 8 ? const_named(t, q) : NULL;
		if (in && in->ve > in->vb)
			const_text(t, in, b, depth + 1);
		else if (t->v[q].kind == FL_TK_STRING)
			fl_buf_put(b, fl_tok_str(t, &t->v[q]), t->v[q].slen);
	}
}

/* The literals of the module constant at token k of t, or NULL. */
static const py_const *const_at(const fl_toks *t, size_t k, size_t b)
{
	if (!consts.n || t->src != consts.src || t->v[k].kind != FL_TK_IDENT ||
	    (k > b && is_p(t, k - 1, '.')) || (k + 1 < t->n && (is_p(t, k + 1, '(') || is_p(t, k + 1, '='))))
		return NULL;
	const py_const *c = const_named(t, k);
	return c && c->ve > c->vb ? c : NULL;
}

/* Message of the expression [b, e): handles `%` formatting and
 * `.format(...)`, then fl_msg_from_expr.  pct_all: decode %% everywhere
 * (logging call with arguments).  Caller frees. */
char *py_msg(const fl_toks *t, size_t b, size_t e, bool pct_all)
{
	return py_msg_v(t, b, e, pct_all ? 1 : 0, 0);
}

/* ---- text reshaped by a call: textwrap.dedent, inspect.cleandoc, strip ------- */

enum { RESHAPE_NONE, RESHAPE_DEDENT, RESHAPE_CLEANDOC, RESHAPE_STRIP };

/* Whether the parenthesis at open closes at close (nothing unbalanced in
 * between). */
static bool closes_at(const fl_toks *t, size_t open, size_t close)
{
	int d = 0;
	for (size_t k = open; k <= close; k++) {
		if (fl_tok_is_opener(t, k))
			d++;
		else if (fl_tok_is_closer(t, k) && --d == 0)
			return k == close;
	}
	return false;
}

/* [b, e) a call that reshapes the text inside it, [*ib, *ie):
 * `textwrap.dedent(X)`, `dedent(X)`, `inspect.cleandoc(X)`, `X.strip()`
 * (and rstrip, lstrip); RESHAPE_NONE otherwise.  `dedent(X).format(...)`
 * and `dedent(X) % args` are one too, *tail then the escapes decoded
 * after (py_msg_v's dec: 2 or 1), else 0. */
static int reshaper(const fl_toks *t, size_t b, size_t e, size_t *ib, size_t *ie, int *tail)
{
	size_t k = b;
	*tail = 0;
	if (k + 2 < e && t->v[k].kind == FL_TK_IDENT && is_p(t, k + 1, '.') &&
	    (fl_tok_is(t, k, "textwrap") || fl_tok_is(t, k, "inspect")))
		k += 2;
	if (k + 2 < e && (fl_tok_is(t, k, "dedent") || fl_tok_is(t, k, "cleandoc")) &&
	    is_p(t, k + 1, '(')) {
		int how = fl_tok_is(t, k, "dedent") ? RESHAPE_DEDENT : RESHAPE_CLEANDOC;
		*ib = k + 2;
		if (is_p(t, e - 1, ')') && closes_at(t, k + 1, e - 1)) {
			*ie = e - 1;
			return how;
		}
		/* the call's close, then `.format(...)` to the end or `% ...` */
		size_t c = k + 1;
		for (int d = 0; c < e; c++) {
			if (fl_tok_is_opener(t, c))
				d++;
			else if (fl_tok_is_closer(t, c) && --d == 0)
				break;
		}
		if (c + 4 < e && is_p(t, c + 1, '.') && fl_tok_is(t, c + 2, "format") &&
		    is_p(t, c + 3, '(') && closes_at(t, c + 3, e - 1)) {
			*ie = c;
			*tail = 2;
			return how;
		}
		if (c + 2 < e && is_p(t, c + 1, '%')) {
			*ie = c;
			*tail = 1;
			return how;
		}
	}
	if (e >= b + 5 && is_p(t, e - 4, '.') && is_p(t, e - 2, '(') && is_p(t, e - 1, ')') &&
	    (fl_tok_is(t, e - 3, "strip") || fl_tok_is(t, e - 3, "rstrip") ||
	     fl_tok_is(t, e - 3, "lstrip"))) {
		*ib = b;
		*ie = e - 4;
		return RESHAPE_STRIP;
	}
	return RESHAPE_NONE;
}

/* m (owned) as the reshaping call gives it: dedent removes the leading
 * whitespace all its non-blank lines share (blank lines left empty);
 * cleandoc also takes the first line's own, and blank lines at both ends;
 * strip the whitespace at both ends.  Returns the new text. */
static char *reshape(char *m, int how)
{
	if (how == RESHAPE_STRIP) {
		size_t a = strspn(m, " \t\r\n"), n = strlen(m);
		while (n > a && strchr(" \t\r\n", m[n - 1]))
			n--;
		memmove(m, m + a, n - a);
		m[n - a] = '\0';
		return m;
	}
	/* the margin: the shortest run of blanks before a non-blank line
	 * (cleandoc: of the lines after the first) */
	size_t margin = SIZE_MAX;
	bool first = true;
	for (const char *p = m; *p; first = false) {
		size_t w = strspn(p, " \t"), l = strcspn(p, "\n");
		if (w < l && !(first && how == RESHAPE_CLEANDOC) && w < margin)
			margin = w;
		p += l + (p[l] == '\n');
	}
	if (margin == SIZE_MAX)
		margin = 0;
	fl_buf out = {0};
	first = true;
	for (const char *p = m; *p; first = false) {
		size_t w = strspn(p, " \t"), l = strcspn(p, "\n");
		size_t cut = w >= l ? l : (first && how == RESHAPE_CLEANDOC) || w < margin ? w : margin;
		fl_buf_put(&out, p + cut, l - cut);
		if (p[l] == '\n')
			fl_buf_putc(&out, '\n');
		p += l + (p[l] == '\n');
	}
	free(m);
	fl_buf_cstr(&out);
	if (how == RESHAPE_CLEANDOC) {
		/* the blank lines at both ends */
		size_t a = strspn(out.s, "\n"), n = out.n;
		while (n > a && strchr(" \t\r\n", out.s[n - 1]))
			n--;
		memmove(out.s, out.s + a, n - a);
		out.s[n - a] = '\0';
	}
	return out.s;
}

/* `self.msg or 'value must be at least %s' % self.min` (voluptuous), `msg
 * or "empty value"`: a value given, else a default text.  The first token
 * after the one `or` at the top level of [b, e), when its left side is a
 * name, an attribute or a call (no text, comparison, `not` or ternary) and
 * its right side holds a text; NONE otherwise. */
static size_t or_default(const fl_toks *t, size_t b, size_t e)
{
	size_t at = NONE;
	bool text = false;
	int d = 0;
	for (size_t k = b; k < e; k++) {
		if (fl_tok_is_opener(t, k)) {
			d++;
			continue;
		}
		if (fl_tok_is_closer(t, k)) {
			if (--d < 0)
				return NONE;
			continue;
		}
		const fl_tok *x = &t->v[k];
		if (x->kind == FL_TK_STRING && at != NONE)
			text = true;
		if (d > 0)
			continue;
		if (x->kind == FL_TK_IDENT &&
		    (fl_tok_is_ident(t, k, "if") || fl_tok_is_ident(t, k, "else") ||
		     fl_tok_is_ident(t, k, "lambda") || fl_tok_is_ident(t, k, "for") ||
		     fl_tok_is_ident(t, k, "and") || fl_tok_is_ident(t, k, "not") ||
		     fl_tok_is_ident(t, k, "in") || fl_tok_is_ident(t, k, "is")))
			return NONE;
		if (fl_tok_is_ident(t, k, "or")) {
			if (at != NONE || k == b)
				return NONE;
			at = k;
		} else if (at == NONE && x->kind != FL_TK_IDENT && !is_p(t, k, '.')) {
			return NONE; /* the left side: a name, an attribute, a call */
		}
	}
	return at != NONE && at + 1 < e && text ? at + 1 : NONE;
}

/* py_msg(), with the singular (variant 0) or plural (1) of ngettext() */
static char *py_msg_v(const fl_toks *t, size_t b, size_t e, int dec,
		      int variant)
{
	if (!py_range_ok(t, b, e))
		return NULL;
	/* an expression in parentheses, as `return (... % args)` writes a
	 * long one: its inside (a tuple is no text) */
	if (e - b >= 3 && is_p(t, b, '(') && closes_at(t, b, e - 1) && is_p(t, e - 1, ')')) {
		bool tuple = false;
		for (size_t k = b + 1; k + 1 < e && !tuple; k++) {
			if (fl_tok_is_opener(t, k)) {
				int d = 0;
				for (; k + 1 < e; k++) {
					if (fl_tok_is_opener(t, k))
						d++;
					else if (fl_tok_is_closer(t, k) && --d == 0)
						break;
				}
				continue;
			}
			tuple = is_p(t, k, ',');
		}
		if (!tuple)
			return py_msg_v(t, b + 1, e - 1, dec, variant);
	}
	size_t dflt = or_default(t, b, e);
	if (dflt != NONE)
		return py_msg_v(t, dflt, e, dec, variant);
	size_t ib, ie;
	int tail;
	int how = reshaper(t, b, e, &ib, &ie, &tail);
	if (how != RESHAPE_NONE) {
		char *m = py_msg_v(t, ib, ie, tail ? tail : dec, variant);
		return m ? reshape(m, how) : NULL;
	}
	bool any = false;
	size_t more = 0; /* tokens the module constants add */
	for (size_t k = b; k < e; k++) {
		const py_const *c;
		if (t->v[k].kind == FL_TK_STRING)
			any = true;
		else if ((c = const_at(t, k, b)) != NULL)
			any = true, more += const_len(t, c, 0);
	}
	if (!any)
		return NULL;
	fl_toks s;
	memset(&s, 0, sizeof s);
	s.src = t->src;
	s.srclen = t->srclen;
	s.cap = e - b + 1 + more;
	s.v = fl_xmalloc(s.cap * sizeof *s.v);
	size_t opstart = 0;
	int depth = 0;
	bool *drop = fl_xcalloc(e - b + 1, 1);
	for (size_t k = b; k < e; k++) {
		const fl_tok *tk = &t->v[k];
		if (drop[k - b])
			continue;
		/* ngettext(singular, plural, n) gives the argument of the
		 * variant: the rest of the call is dropped */
		size_t pa = plural_arg(t, k, variant);
		if (pa != NONE) {
			int d = 0;
			size_t arg = 0, close = NONE;
			for (size_t j = k + 1; j < e; j++) {
				if (fl_tok_is_opener(t, j)) {
					if (d++ == 0) {
						drop[j - b] = true;
						continue;
					}
				} else if (fl_tok_is_closer(t, j) && --d == 0) {
					close = j;
					break;
				}
				if (d == 1 && is_p(t, j, ',')) {
					arg++;
					drop[j - b] = true;
				} else if (arg != pa) {
					drop[j - b] = true;
				}
			}
			if (close != NONE) {
				drop[close - b] = true;
				continue; /* the callee */
			}
			memset(drop + (k - b), 0, e - k); /* unbalanced: as written */
		}
		/* str(x) / repr(x) give {x} */
		if (tk->kind == FL_TK_IDENT && is_p(t, k + 1, '(') &&
		    (fl_tok_is(t, k, "str") || fl_tok_is(t, k, "repr")) &&
		    (k == b || !is_p(t, k - 1, '.'))) {
			int d = 0;
			for (size_t j = k + 1; j < e; j++) {
				if (fl_tok_is_opener(t, j))
					d++;
				else if (fl_tok_is_closer(t, j))
					if (--d == 0) {
						drop[j - b] = true;
						break;
					}
			}
			k++;
			continue;
		}
		if (depth == 0 && is_p(t, k, '%') && s.n > opstart) {
			decode_operand(&s, opstart, true);
			/* skip the right operand */
			int d = 0;
			size_t j = k + 1;
			for (; j < e; j++) {
				if (fl_tok_is_opener(t, j))
					d++;
				else if (fl_tok_is_closer(t, j))
					d--;
				else if (d == 0 && is_p(t, j, '+'))
					break;
			}
			k = j - 1;
			continue;
		}
		if (depth == 0 && is_p(t, k, '.') && k + 2 < e &&
		    fl_tok_is_ident(t, k + 1, "format") && is_p(t, k + 2, '(') &&
		    s.n > opstart) {
			decode_operand(&s, opstart, false);
			int d = 0;
			size_t j = k + 2;
			for (; j < e; j++) {
				if (fl_tok_is_opener(t, j))
					d++;
				else if (fl_tok_is_closer(t, j))
					if (--d == 0)
						break;
			}
			k = j;
			continue;
		}
		const py_const *pc = const_at(t, k, b);
		if (pc) {
			/* the constant's literals in its place */
			const_copy(t, pc, &s, tk, 0);
			continue;
		}
		if (fl_tok_is_opener(t, k))
			depth++;
		else if (fl_tok_is_closer(t, k))
			depth--;
		fl_tok *d = &s.v[s.n++];
		*d = *tk;
		if (tk->kind == FL_TK_STRING) {
			fl_toks_str_begin(&s, d);
			fl_buf_put(&s.arena, fl_tok_str(t, tk), tk->slen);
			fl_toks_str_end(&s, d);
		}
		if (depth == 0 && is_p(t, k, '+'))
			opstart = s.n;
	}
	free(drop);
	if (dec)
		decode_operand(&s, 0, dec == 1);
	char *msg = s.n ? fl_msg_from_expr(&s, 0, s.n, &msg_opts) : NULL;
	fl_toks_free(&s);
	if (msg && consts.n && t->src == consts.src && strchr(msg, '{'))
		msg = consts_in_fields(t, msg);
	if (msg && !msg[0]) {
		free(msg);
		msg = NULL;
	}
	return msg;
}

/* ---- messages held by a variable ----------------------------------------- */

/* Adds text m (owned, may be NULL) to out[*n] unless there; false when it
 * is no text or out is full. */
static bool add_text(char **out, size_t *n, char *m)
{
	if (!m || *n == MAXVAR) {
		free(m);
		return false;
	}
	for (size_t q = 0; q < *n; q++)
		if (strcmp(out[q], m) == 0) {
			free(m);
			return true;
		}
	out[(*n)++] = m;
	return true;
}

/* Whether the statement that starts at k (a name at the start of its line)
 * can be followed by the code at `at`: false when the block it is in ends
 * before `at` with a raise, return, continue or break (an except clause
 * that sets the text and raises there).  body_col: the column of the
 * function body's statements. */
static bool flows_to(const walker *w, size_t k, size_t at, int body_col)
{
	const fl_toks *t = w->t;
	/* (a statement of the body's own level flows on: not walked) */
	if (!(t->v[k].flags & FL_TF_NL_BEFORE) || t->v[k].col <= body_col)
		return true;
	int c = t->v[k].col;
	size_t last = k;
	for (size_t q = k + 1; q < at;) {
		if (t->v[q].flags & FL_TF_NL_BEFORE) {
			if (t->v[q].col < c)
				return !(fl_tok_is_ident(t, last, "raise") ||
					 fl_tok_is_ident(t, last, "return") ||
					 fl_tok_is_ident(t, last, "continue") ||
					 fl_tok_is_ident(t, last, "break"));
			if (t->v[q].col == c)
				last = q;
		}
		q = fl_tok_is_opener(t, q) && w->m[q] != NONE && w->m[q] > q ? w->m[q] + 1 : q + 1;
	}
	return true;
}

/* Whether [b, e) looks a text up in a table: `NAME.get(key)`,
 * `NAME.get(key, default)`, `NAME[key]`. */
static bool table_lookup(const walker *w, size_t b, size_t e)
{
	const fl_toks *t = w->t;
	if (e < b + 3 || t->v[b].kind != FL_TK_IDENT)
		return false;
	if (is_p(t, b + 1, '[') && w->m[b + 1] == e - 1)
		return true;
	return e >= b + 5 && is_p(t, b + 1, '.') && fl_tok_is_ident(t, b + 2, "get") &&
	       is_p(t, b + 3, '(') && w->m[b + 3] == e - 1;
}

/* The values of the dict literal the table [b, e) (table_lookup) names,
 * bound by the last `NAME = {...}` statement of [from, k), added to
 * out[*n]: `nargs_errors = {None: _('expected one argument'), ...}`.
 * False when there is no such literal, or a value is no text. */
static bool table_texts(const walker *w, size_t from, size_t k, size_t b, int dec,
			char **out, size_t *n)
{
	const fl_toks *t = w->t;
	size_t open = NONE;
	for (size_t q = k; q-- > from;)
		if ((t->v[q].flags & FL_TF_NL_BEFORE) &&
		    t->v[q].kind == FL_TK_IDENT && t->v[q].len == t->v[b].len &&
		    memcmp(t->src + t->v[q].off, t->src + t->v[b].off, t->v[b].len) == 0 &&
		    is_p(t, q + 1, '=')) {
			if (is_p(t, q + 2, '{') && w->m[q + 2] != NONE)
				open = q + 2;
			break;
		}
	if (open == NONE)
		return false;
	size_t st[MAXARGS], en[MAXARGS], close;
	size_t ni = py_split_args(t, w->m, open, st, en, MAXARGS, &close);
	if (ni == NONE || ni == 0 || ni == MAXARGS)
		return false;
	for (size_t q = 0; q < ni; q++) {
		size_t c = st[q];
		while (c < en[q] && !is_p(t, c, ':'))
			c = fl_tok_is_opener(t, c) && w->m[c] != NONE ? w->m[c] + 1 : c + 1;
		if (c + 1 >= en[q] || !py_range_ok(t, c + 1, en[q]))
			return false;
		if (!add_text(out, n, py_msg_v(t, c + 1, en[q], dec, 0)))
			return false;
	}
	return true;
}

/* The end of the expression statement that starts at token b, before at:
 * its next line or ';', brackets skipped whole; *open when a bracket of it
 * is never closed (the end is then that bracket). */
static size_t stmt_expr_end(const walker *w, size_t b, size_t at, bool *open)
{
	const fl_toks *t = w->t;
	size_t e = b;
	*open = false;
	while (e < at) {
		if (e > b && ((t->v[e].flags & FL_TF_NL_BEFORE) || is_p(t, e, ';')))
			break;
		if (fl_tok_is_opener(t, e)) {
			if (w->m[e] == NONE) {
				*open = true;
				break;
			}
			e = w->m[e] + 1;
			continue;
		}
		e++;
	}
	return e;
}

/* [*mb, *me) without the parentheses around it whole: `(a + b)` */
static void unwrap_parens(const walker *w, size_t *mb, size_t *me)
{
	while (*me > *mb + 2 && is_p(w->t, *mb, '(') && w->m[*mb] == *me - 1) {
		(*mb)++;
		(*me)--;
	}
}

/* `NAME += expr` at k: what expr adds ([k + 2, *end)) appended to the
 * texts out[0, *n) the variable holds: the text of its literals, a line
 * break for `linesep` (os.linesep), else {its last name}.  A statement at
 * the use's column or shallower always runs before the use; a deeper one
 * may not: each text is kept both without and with it.  False when the
 * expression cannot be read or the texts would be too many. */
static bool append_piece(walker *w, size_t k, size_t b, size_t at, int at_col, int body_col,
			 int dec, char **out, size_t *n, size_t *end)
{
	const fl_toks *t = w->t;
	bool open;
	size_t e = stmt_expr_end(w, b, at, &open);
	if (open)
		return false;
	*end = e;
	if (e == b || !flows_to(w, k, at, body_col))
		return e > b;
	size_t mb = b, me = e;
	unwrap_parens(w, &mb, &me);
	char *piece = py_range_ok(t, mb, me) ? py_msg_v(t, mb, me, dec, 0) : NULL;
	if (!piece) {
		size_t id = NONE;
		for (size_t q = mb; q < me; q++)
			if (t->v[q].kind == FL_TK_IDENT)
				id = q;
		if (id == NONE)
			return false;
		piece = fl_tok_is_ident(t, id, "linesep")
				? fl_xstrdup("\n")
				: fl_xasprintf("{%.*s}", (int)t->v[id].len, t->src + t->v[id].off);
	}
	bool always = t->v[k].col <= at_col;
	size_t n0 = *n;
	if (!always && 2 * n0 > MAXVAR) {
		free(piece);
		return false;
	}
	for (size_t q = 0; q < n0; q++) {
		char *joined = fl_xasprintf("%s%s", out[q], piece);
		if (always) {
			free(out[q]);
			out[q] = joined;
		} else if (!add_text(out, n, joined)) {
			free(piece);
			return false;
		}
	}
	free(piece);
	return true;
}

/* The messages a variable holds at `at`: every `NAME = <literal expr>`
 * statement of the enclosing function before `at`.  Returns the count, 0
 * when any assignment is not a message (or NAME is bound otherwise). */
size_t py_var_msgs(walker *w, size_t at, size_t var, int fmt, char **out)
{
	const fl_toks *t = w->t;
	size_t from = 0;
	for (size_t k = w->nblk; k-- > 0;)
		if (w->blk[k].kind == B_DEF && w->blk[k].name != NONE) {
			from = w->blk[k].name;
			break;
		}
	if (at > from + 20000)
		return 0;
	const fl_tok *v = &t->v[var];
	size_t n = 0, assigns = 0;
	bool bad = false;
	int dec = fmt == '%' ? 1 : fmt == '{' ? 2 : 0;
	int body_col = -1; /* the first statement's, after the def's line */
	size_t after = from + 1 < at && is_p(t, from + 1, '(') && w->m[from + 1] != NONE &&
			       w->m[from + 1] < at ? w->m[from + 1] + 1 : from + 1;
	for (size_t k = after; k < at && k < from + 4096; k++)
		if (t->v[k].flags & FL_TF_NL_BEFORE) {
			body_col = t->v[k].col;
			break;
		}
	size_t ls = at; /* the first token of the use's line */
	while (ls > from && !(t->v[ls].flags & FL_TF_NL_BEFORE))
		ls--;
	int at_col = t->v[ls].col;
	for (size_t k = from; k < at && !bad; k++) {
		if (fl_tok_is_opener(t, k)) {
			if (w->m[k] == NONE || w->m[k] >= at)
				break;
			k = w->m[k];
			continue;
		}
		if (t->v[k].kind != FL_TK_IDENT || t->v[k].len != v->len ||
		    memcmp(t->src + t->v[k].off, t->src + v->off, v->len) != 0)
			continue;
		if (fl_tok_is_punct(t, k + 1, "+=") && (t->v[k].flags & FL_TF_NL_BEFORE) && n) {
			/* `msg += linesep`, `msg += "more text"`: appended */
			size_t e = k + 2;
			if (!append_piece(w, k, e, at, at_col, body_col, dec, out, &n, &e))
				bad = true;
			k = e - 1;
			continue;
		}
		bool stmt = k == from || (t->v[k].flags & FL_TF_NL_BEFORE) ||
			    is_p(t, k - 1, ';');
		if (k > 0 && (fl_tok_is_ident(t, k - 1, "as") ||
			      fl_tok_is_ident(t, k - 1, "for") ||
			      fl_tok_is_ident(t, k - 1, "global") ||
			      fl_tok_is_ident(t, k - 1, "nonlocal")))
			bad = true;
		else if (k + 1 < t->n && t->v[k + 1].kind == FL_TK_PUNCT &&
			 !is_p(t, k + 1, '=') && !is_p(t, k + 1, '.') &&
			 !is_p(t, k + 1, '(') && !is_p(t, k + 1, '[') &&
			 t->v[k + 1].len >= 2 &&
			 t->src[t->v[k + 1].off + t->v[k + 1].len - 1] == '=' &&
			 !fl_tok_is_punct(t, k + 1, "==") &&
			 !fl_tok_is_punct(t, k + 1, "!=") &&
			 !fl_tok_is_punct(t, k + 1, "<=") &&
			 !fl_tok_is_punct(t, k + 1, ">="))
			bad = true; /* augmented assignment */
		else if (stmt && (is_p(t, k + 1, ',') || is_p(t, k + 1, ':')))
			bad = true; /* tuple target or annotation */
		else if (stmt && is_p(t, k + 1, '=')) {
			size_t b = k + 2;
			bool open; /* an unclosed bracket ends it there */
			size_t e = stmt_expr_end(w, b, at, &open);
			size_t mb = b, me = e;
			unwrap_parens(w, &mb, &me);
			if (++assigns > 64) {
				bad = true; /* too many to follow */
			} else if (!flows_to(w, k, at, body_col)) {
				/* a branch that raises or returns first */
			} else if (table_lookup(w, mb, me)) {
				/* `msg = errors.get(kind)`: the table's texts */
				if (!table_texts(w, from, k, mb, dec, out, &n))
					bad = true;
			} else {
				char *m = py_range_ok(t, mb, me) ? py_msg_v(t, mb, me, dec, 0) : NULL;
				/* `msg = message_registry.MISSING_RETURN`: a
				 * module's message constant */
				if (!m && me == mb + 3)
					m = py_module_const(w, mb);
				if ((m && !*m) ||
				    (!m && me == mb + 1 &&
				     (fl_tok_is_ident(t, mb, "None") ||
				      (t->v[mb].kind == FL_TK_STRING && t->v[mb].slen == 0))))
					free(m); /* "" / None: the no-error sentinel */
				else if (!add_text(out, &n, m))
					bad = true;
			}
			k = e - 1;
		}
	}
	if (bad) {
		for (size_t q = 0; q < n; q++)
			free(out[q]);
		n = 0;
	}
	return n;
}

/* ---- call arguments and the messages they hold ------------------------------ */

bool py_get_args(walker *w, size_t open, callargs *a, size_t *close)
{
	const fl_toks *t = w->t;
	size_t n = py_split_args(t, w->m, open, a->st, a->en, MAXARGS, close);
	if (n == NONE)
		return false;
	a->n = n;
	a->npos = 0;
	for (size_t k = 0; k < n; k++) {
		a->kw[k] = NONE;
		size_t s = a->st[k];
		if (a->en[k] > s + 1 && t->v[s].kind == FL_TK_IDENT &&
		    is_p(t, s + 1, '=')) {
			a->kw[k] = s;
			a->st[k] = s + 2;
		} else if (is_p(t, s, '*') || fl_tok_is_punct(t, s, "**")) {
			a->kw[k] = s; /* splat: neither */
		} else {
			a->pos[a->npos++] = k;
		}
	}
	return true;
}

size_t py_kwarg(const fl_toks *t, const callargs *a, const char *name)
{
	for (size_t k = 0; k < a->n; k++)
		if (a->kw[k] != NONE && fl_tok_is_ident(t, a->kw[k], name))
			return k;
	return NONE;
}

/* The message of one list element [b, e): its text, or {name} of its last
 * identifier when it holds no literal (the value shown at run time). */
void py_join_part(const fl_toks *t, size_t b, size_t e, fl_buf *out, bool *lit)
{
	char *m = py_range_ok(t, b, e) ? py_msg(t, b, e, false) : NULL;
	if (m) {
		*lit = true;
		fl_buf_puts(out, m);
		free(m);
		return;
	}
	size_t id = NONE;
	for (size_t q = b; q < e; q++)
		if (t->v[q].kind == FL_TK_IDENT)
			id = q;
	fl_buf_putc(out, '{');
	if (id != NONE)
		fl_buf_put(out, t->src + t->v[id].off, t->v[id].len);
	fl_buf_putc(out, '}');
}

/* Append the elements of the list literal at open to out, each after sep
 * (but the first of all: *first). */
static void join_list(const walker *w, size_t open, const char *sep, bool *first,
		      fl_buf *out, bool *lit)
{
	size_t st[32], en[32], close;
	size_t n = py_split_args(w->t, w->m, open, st, en, 32, &close);
	if (n == NONE)
		return;
	for (size_t q = open + 1; q < close; q++)
		if (fl_tok_is_ident(w->t, q, "for")) {
			/* a comprehension: values known at run time */
			n = 0;
			if (!*first)
				fl_buf_puts(out, sep);
			*first = false;
			fl_buf_puts(out, "{}");
			break;
		}
	for (size_t k = 0; k < n; k++) {
		if (!*first)
			fl_buf_puts(out, sep);
		*first = false;
		py_join_part(w->t, st[k], en[k], out, lit);
	}
}

/* The text list var is joined to at b, from the bindings and additions
 * in [from, b) (py_join_msg), skipping the binding at token skip;
 * *last and *prev: the last two bindings it read, NONE for none. */
static void join_var(walker *w, size_t b, size_t var, size_t from, int scol, const char *sep,
		     size_t skip, fl_buf *out, bool *lit, size_t *last, size_t *prev)
{
	const fl_toks *t = w->t;
	bool first = true, bound = false, cut = false;
	*last = *prev = NONE;
	for (size_t k = from; k < b && k - from < 20000; k++) {
		if (!(t->v[k].flags & FL_TF_NL_BEFORE) || t->v[k].len != t->v[var].len ||
		    t->v[k].kind != FL_TK_IDENT ||
		    memcmp(t->src + t->v[k].off, t->src + t->v[var].off, t->v[var].len) != 0)
			continue;
		if (is_p(t, k + 1, '=') && is_p(t, k + 2, '[') && w->m[k + 2] != NONE) {
			if (k == skip)
				continue;
			/* a new list: what came before is gone */
			fl_buf_reset(out);
			first = true;
			*lit = false;
			bound = true;
			cut = false;
			*prev = *last;
			*last = k;
			join_list(w, k + 2, sep, &first, out, lit);
		} else if (bound && !cut && t->v[k].col > scol &&
			   (fl_tok_is_punct(t, k + 1, "+=") || is_p(t, k + 1, '.'))) {
			cut = true; /* a part on a condition */
		} else if (bound && !cut && fl_tok_is_punct(t, k + 1, "+=") && is_p(t, k + 2, '[') &&
			   w->m[k + 2] != NONE) {
			join_list(w, k + 2, sep, &first, out, lit);
		} else if (bound && !cut && is_p(t, k + 1, '.') && is_p(t, k + 3, '(') &&
			   w->m[k + 3] != NONE) {
			if (fl_tok_is_ident(t, k + 2, "append")) {
				if (!first)
					fl_buf_puts(out, sep);
				first = false;
				py_join_part(t, k + 4, w->m[k + 3], out, lit);
			} else if (fl_tok_is_ident(t, k + 2, "extend") && is_p(t, k + 4, '[') &&
				   w->m[k + 4] == w->m[k + 3] - 1) {
				join_list(w, k + 4, sep, &first, out, lit);
			}
		} else if (is_p(t, k + 1, '=') || fl_tok_is_punct(t, k + 1, "+=")) {
			bound = false; /* something else than a list of texts */
			break;
		}
	}
	if (!bound)
		fl_buf_reset(out);
}

/* `" - ".join(parts)` [b, e): the parts joined, from a list literal or a
 * local list built in the enclosing function before `at` (`parts =
 * [...]`, then `parts.append(x)`, `parts.extend([...])`, `parts += [...]`
 * in order, up to the first added in a block deeper than the join's
 * statement, on a condition: the text always printed starts so).  NULL
 * when [b, e) is no such join, or the list is bound otherwise or holds no
 * literal. */
char *py_join_msg(walker *w, size_t b, size_t e, char **alt)
{
	const fl_toks *t = w->t;
	if (alt)
		*alt = NULL;
	if (e < b + 6)
		return NULL;
	if (t->v[b].kind != FL_TK_STRING || !is_p(t, b + 1, '.') ||
	    !fl_tok_is_ident(t, b + 2, "join") || !is_p(t, b + 3, '(') || w->m[b + 3] != e - 1)
		return NULL;
	const char *sep = fl_tok_str(t, &t->v[b]);
	fl_buf out = {0};
	bool first = true, lit = false;
	if (is_p(t, b + 4, '[') && w->m[b + 4] == e - 2) {
		join_list(w, b + 4, sep, &first, &out, &lit);
	} else if (e == b + 6 && t->v[b + 4].kind == FL_TK_IDENT) {
		size_t var = b + 4, from = 0;
		for (size_t k = w->nblk; k-- > 0;)
			if (w->blk[k].kind == B_DEF && w->blk[k].name != NONE) {
				from = w->blk[k].name;
				break;
			}
		/* the column of the statement that joins: a part added in a
		 * block deeper than it is added only on a condition, and
		 * ends the text (what is always printed is its start) */
		size_t ls = b;
		while (ls > from && !(t->v[ls].flags & FL_TF_NL_BEFORE) && b - ls < 256)
			ls--;
		int scol = t->v[ls].col;
		size_t last, prev;
		join_var(w, b, var, from, scol, sep, NONE, &out, &lit, &last, &prev);
		/* the list bound in two branches (`if x: parts = [A] else:
		 * parts = [B]`): the other one's text too */
		if (alt && out.n && lit && last != NONE && prev != NONE && t->v[last].col > scol &&
		    t->v[prev].col > scol) {
			fl_buf o2 = {0};
			bool lit2 = false;
			size_t l2, p2;
			join_var(w, b, var, from, scol, sep, last, &o2, &lit2, &l2, &p2);
			if (o2.n && lit2 && strcmp(fl_buf_cstr(&o2), fl_buf_cstr(&out)) != 0)
				*alt = fl_xstrdup(fl_buf_cstr(&o2));
			fl_buf_free(&o2);
		}
	}
	char *r = NULL;
	if (out.n && lit)
		r = fl_xstrdup(fl_buf_cstr(&out));
	fl_buf_free(&out);
	return r;
}

char *py_param_text(walker *w, size_t b, size_t e, size_t k, py_alt *alt)
{
	char *other = NULL;
	char *v = py_join_msg(w, b, e, alt->text ? NULL : &other);
	if (!v)
		v = py_msg(w->t, b, e, false);
	if (other) {
		alt->text = other;
		alt->k = k;
	}
	return v;
}

void py_alt_plural(walker *w, const char *text, char *const *names, char **values, size_t np,
		   const py_alt *alt)
{
	if (!alt->text || w->plural)
		return;
	char *v = values[alt->k];
	values[alt->k] = alt->text;
	w->plural = fl_msg_subst(text, (const char *const *)names, (const char *const *)values, np);
	values[alt->k] = v;
}

/* Whether [b, e) formats a local variable, the template of a message
 * assigned earlier: `msg % args` gives '%', `msg.format(...)` '{', else 0
 * (a module constant is read by py_msg() itself). */
static int template_use(const walker *w, size_t b, size_t e)
{
	const fl_toks *t = w->t;
	if (e < b + 3 || t->v[b].kind != FL_TK_IDENT || const_at(t, b, b) ||
	    (b > 0 && is_p(t, b - 1, '.')))
		return 0;
	if (is_p(t, b + 1, '%')) {
		/* the right operand is the rest: one term, no `+ more` */
		for (size_t k = b + 2; k < e;
		     k = fl_tok_is_opener(t, k) && w->m[k] != NONE ? w->m[k] + 1 : k + 1)
			if (is_p(t, k, '+') || is_p(t, k, '%'))
				return 0;
		return '%';
	}
	if (e >= b + 5 && is_p(t, b + 1, '.') && fl_tok_is_ident(t, b + 2, "format") &&
	    is_p(t, b + 3, '(') && w->m[b + 3] == e - 1)
		return '{';
	return 0;
}

/* `"File is not readable." if msg is None else msg`: the texts of the two
 * branches of a conditional expression [b, e) (NULL where a branch is
 * none); false when [b, e) is no such expression. */
static bool cond_branches(const walker *w, size_t b, size_t e, bool pct, char **m1, char **m2)
{
	const fl_toks *t = w->t;
	size_t at_if = NONE, at_else = NONE;
	for (size_t k = b; k < e; k = fl_tok_is_opener(t, k) && w->m[k] != NONE ? w->m[k] + 1 : k + 1) {
		if (fl_tok_is_ident(t, k, "if") && at_if == NONE)
			at_if = k;
		else if (fl_tok_is_ident(t, k, "else") && at_if != NONE) {
			at_else = k;
			break;
		}
		if (fl_tok_is_ident(t, k, "lambda") || fl_tok_is_ident(t, k, "for"))
			return false;
	}
	if (at_if == NONE || at_else == NONE || at_if == b || at_else + 1 >= e)
		return false;
	*m1 = py_range_ok(t, b, at_if) ? py_msg(t, b, at_if, pct) : NULL;
	*m2 = py_range_ok(t, at_else + 1, e) ? py_msg(t, at_else + 1, e, pct) : NULL;
	return true;
}

/* [b, e) another module's constant as it is, formatted (`.format(...)`)
 * or with `%`: `errors.DOCUMENT_FORMAT.format(document)` */
static bool module_const_use(const fl_toks *t, size_t b, size_t e)
{
	if (e == b + 3)
		return true;
	if (is_p(t, b + 3, '%'))
		return true;
	return e >= b + 6 && is_p(t, b + 3, '.') && fl_tok_is_ident(t, b + 4, "format") &&
	       is_p(t, b + 5, '(') && is_p(t, e - 1, ')') && closes_at(t, b + 5, e - 1);
}

char *py_module_const(walker *w, size_t b)
{
	const fl_toks *t = w->t;
	if (t->v[b].kind != FL_TK_IDENT || !is_p(t, b + 1, '.') || t->v[b + 2].kind != FL_TK_IDENT ||
	    !capital_name(t, b + 2) || t->v[b].len > 100 || t->v[b + 2].len > 100)
		return NULL;
	char key[220];
	snprintf(key, sizeof key, "const:%.*s.%.*s", (int)t->v[b].len, t->src + t->v[b].off,
		 (int)t->v[b + 2].len, t->src + t->v[b + 2].off);
	const char *msg = NULL, *code = NULL;
	int status = 0;
	return py_tree_find(w, key, &msg, &code, &status) && msg ? fl_xstrdup(msg) : NULL;
}

char *py_arg_msg(walker *w, const callargs *a, size_t k, bool pct)
{
	if (k == NONE || k >= a->n)
		return NULL;
	char *other;
	char *jm = py_join_msg(w, a->st[k], a->en[k], &other);
	if (jm) {
		/* the list's other binding: a site too */
		if (other && !w->plural)
			w->plural = other;
		else
			free(other);
		return jm;
	}
	char *c1, *c2;
	if (cond_branches(w, a->st[k], a->en[k], pct, &c1, &c2)) {
		/* the branch that is a text; both: the second a site too */
		if (c1 && c2 && !w->plural && strcmp(c1, c2) != 0) {
			w->plural = c2;
			c2 = NULL;
		}
		if (!c1) {
			c1 = c2;
			c2 = NULL;
		}
		free(c2);
		return c1;
	}
	int fmt = template_use(w, a->st[k], a->en[k]);
	if (fmt) {
		/* `msg % args`, `msg.format(...)`: the texts of the local */
		if (w->var == NONE) {
			w->var = a->st[k];
			w->var_fmt = fmt;
		}
		return NULL;
	}
	char *m = py_msg(w->t, a->st[k], a->en[k], pct);
	if (!m && a->en[k] >= a->st[k] + 3 && module_const_use(w->t, a->st[k], a->en[k]))
		m = py_module_const(w, a->st[k]);
	if (m && !w->plural && has_plural(w->t, a->st[k], a->en[k]))
		w->plural = py_msg_v(w->t, a->st[k], a->en[k], pct ? 1 : 0, 1);
	if (!m && a->en[k] == a->st[k] + 1 &&
	    w->t->v[a->st[k]].kind == FL_TK_IDENT && w->var == NONE)
		w->var = a->st[k];
	return m;
}

char *py_kw_msg(walker *w, const callargs *a, const char *const *names)
{
	for (; *names; names++) {
		char *m = py_arg_msg(w, a, py_kwarg(w->t, a, *names), false);
		if (m)
			return m;
	}
	return NULL;
}

/* errorCode from code="..." when it looks like a code (upper case) */
char *py_code_kw(walker *w, const callargs *a)
{
	static const char *const names[] = {"code", "error_code", NULL};
	for (const char *const *nm = names; *nm; nm++) {
		size_t k = py_kwarg(w->t, a, *nm);
		if (k == NONE || a->en[k] != a->st[k] + 1 ||
		    w->t->v[a->st[k]].kind != FL_TK_STRING)
			continue;
		const char *s = fl_tok_str(w->t, &w->t->v[a->st[k]]);
		bool ok = *s != '\0', upper = false;
		for (const char *p = s; *p; p++) {
			if (*p >= 'A' && *p <= 'Z')
				upper = true;
			else if (!((*p >= '0' && *p <= '9') || *p == '_' ||
				   *p == '-' || *p == '.'))
				ok = false;
		}
		if (ok && upper)
			return fl_xstrdup(s);
	}
	return NULL;
}

size_t py_param_list(const char *params, char **names, size_t max)
{
	size_t np = 0;
	for (const char *p = params; *p && np < max; np++) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		names[np] = fl_xstrndup(p, l);
		p += l + (nl ? 1 : 0);
	}
	return np;
}

bool py_def_body(const fl_toks *t, size_t d, size_t close, size_t max, bool defs,
		 size_t *body, size_t *end)
{
	size_t k = close + 1;
	while (k < t->n && !(t->v[k].flags & FL_TF_NL_BEFORE) && !is_p(t, k, ':'))
		k++;
	if (k + 1 >= t->n || !is_p(t, k, ':') || !(t->v[k + 1].flags & FL_TF_NL_BEFORE) ||
	    t->v[k + 1].col <= t->v[d].col)
		return false;
	size_t b = k + 1, e = b;
	while (e < t->n && !((t->v[e].flags & FL_TF_NL_BEFORE) && t->v[e].col <= t->v[d].col)) {
		if (e - b > max || (!defs && fl_tok_is_ident(t, e, "def")) ||
		    fl_tok_is_ident(t, e, "class") || fl_tok_is_ident(t, e, "yield"))
			return false;
		e++;
	}
	*body = b;
	*end = e;
	return true;
}

/* Order of two def tokens by their names (py_file_def's table). */
static int def_cmp(const void *a, const void *b, void *ud)
{
	const fl_toks *t = ud;
	const fl_tok *x = &t->v[*(const size_t *)a + 1], *y = &t->v[*(const size_t *)b + 1];
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(t->src + x->off, t->src + y->off, n);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

size_t py_file_def(walker *w, size_t nm)
{
	const fl_toks *t = w->t;
	const fl_tok *n = &t->v[nm];
	if (n->kind != FL_TK_IDENT)
		return NONE;
	if (!w->defs_found) {
		/* the file's defs, once, sorted by name */
		w->defs_found = true;
		size_t cap = 0;
		for (size_t k = 0; k + 2 < t->n; k++) {
			if (!fl_tok_is_ident(t, k, "def") || !(t->v[k].flags & FL_TF_NL_BEFORE) ||
			    t->v[k + 1].kind != FL_TK_IDENT || !is_p(t, k + 2, '(') || w->m[k + 2] == NONE)
				continue;
			if (w->ndefs == cap) {
				cap = cap ? 2 * cap : 64;
				w->defs = fl_xrealloc(w->defs, cap * sizeof *w->defs);
			}
			w->defs[w->ndefs++] = k;
		}
		if (w->ndefs > 1)
			qsort_r(w->defs, w->ndefs, sizeof *w->defs, def_cmp, (void *)t);
	}
	/* the one def of that name: two, and which one runs is not known */
	size_t lo = 0, hi = w->ndefs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const fl_tok *x = &t->v[w->defs[mid] + 1];
		size_t l = x->len < n->len ? x->len : n->len;
		int c = memcmp(t->src + x->off, t->src + n->off, l);
		if (!c)
			c = (x->len > n->len) - (x->len < n->len);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= w->ndefs || !py_same_ident(t, w->defs[lo] + 1, nm) ||
	    (lo + 1 < w->ndefs && py_same_ident(t, w->defs[lo + 1] + 1, nm)))
		return NONE;
	return w->defs[lo];
}

bool py_local_value(const fl_toks *t, const size_t *m, size_t body, size_t r, size_t v,
		    size_t *b, size_t *e)
{
	bool found = false;
	for (size_t q = body; q + 2 < r; q++) {
		if (!(t->v[q].flags & FL_TF_NL_BEFORE) || !py_same_ident(t, q, v) || !is_p(t, q + 1, '='))
			continue;
		if (found)
			return false;
		found = true;
		*b = q + 2;
		*e = *b;
		while (*e < r && !(*e > *b && (t->v[*e].flags & FL_TF_NL_BEFORE)))
			*e = fl_tok_is_opener(t, *e) && m[*e] != NONE && m[*e] > *e ? m[*e] + 1 : *e + 1;
	}
	return found && *e > *b;
}

size_t py_skip_def(const fl_toks *t, size_t q, size_t end)
{
	if (!fl_tok_is_ident(t, q, "def") || !(t->v[q].flags & FL_TF_NL_BEFORE))
		return q;
	int c = t->v[q].col;
	size_t e = q + 1;
	while (e < end && !((t->v[e].flags & FL_TF_NL_BEFORE) && t->v[e].col <= c))
		e++;
	return e;
}
