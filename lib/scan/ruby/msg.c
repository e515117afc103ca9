/*
 * msg.c — messages rebuilt from Ruby tokens (lib/scan/ruby/, ruby.h):
 * concatenation, format wrappers, %-literals, heredoc dedent, squish; and
 * the token helpers the rules and the collect pass share (spans, constant
 * paths, statement ends).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruby.h"

#define MSG_MAX_TOKS 512
#define MSG_MAX_DEPTH 32

/* ---- shared walking helpers -------------------------------------------------- */

/* fl_msg_from_expr with size and nesting limits. */
static bool range_ok(const fl_toks *t, size_t b, size_t e)
{
	int d;
	return e > b && e - b <= MSG_MAX_TOKS && fl_tok_nesting(t, b, e, &d) &&
	       d <= MSG_MAX_DEPTH;
}

/* ---- message reconstruction ------------------------------------------------- */

static const char *const concat_ops[] = {"+", "<<", NULL};
static const char *const wrappers[] = {"_", "N_", "s_", "format", "sprintf",
				       NULL};
static const fl_msg_opts msg_opts = {.concat_ops = concat_ops,
				     .adjacent_join = true,
				     .wrappers = wrappers};

static void decode_pct(fl_toks *s, size_t k)
{
	fl_tok *tk = &s->v[k];
	if (tk->kind != FL_TK_STRING)
		return;
	char *p = s->arena.s + tk->str;
	size_t n = tk->slen, w = 0;
	for (size_t r = 0; r < n; r++) {
		if (p[r] == '%' && r + 1 < n && p[r + 1] == '%')
			r++;
		p[w++] = p[r];
	}
	p[w] = '\0';
	tk->slen = (uint32_t)w;
}

/* ActiveSupport's String#strip_heredoc: the lines' common indentation
 * removed (blank lines do not count). */
static void dedent(char *m)
{
	size_t least = (size_t)-1;
	for (char *l = m; *l;) {
		size_t ind = 0;
		while (l[ind] == ' ' || l[ind] == '\t')
			ind++;
		if (l[ind] && l[ind] != '\n' && ind < least)
			least = ind;
		char *nl = strchr(l, '\n');
		if (!nl)
			break;
		l = nl + 1;
	}
	if (least == (size_t)-1 || least == 0)
		return;
	char *w = m;
	for (char *l = m; *l;) {
		size_t ind = 0;
		while (ind < least && (l[ind] == ' ' || l[ind] == '\t'))
			ind++;
		l += ind;
		while (*l && *l != '\n')
			*w++ = *l++;
		if (*l == '\n')
			*w++ = *l++;
	}
	*w = '\0';
}

/* String#squish: runs of white space one space, none at the ends; with
 * ends_only, String#strip. */
static void squish(char *m, bool ends_only)
{
	char *w = m, *r = m;
	while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r')
		r++;
	for (; *r; r++) {
		bool ws = *r == ' ' || *r == '\t' || *r == '\n' || *r == '\r';
		if (ws && !ends_only) {
			if (w > m && w[-1] != ' ')
				*w++ = ' ';
			continue;
		}
		*w++ = *r;
	}
	while (w > m && (w[-1] == ' ' || w[-1] == '\t' || w[-1] == '\n' || w[-1] == '\r'))
		w--;
	*w = '\0';
}

/* Message of the expression [b, e): `"..." % args` keeps the literal,
 * format()/sprintf() unwrap their format, `x.to_s` gives {x}; a heredoc's
 * .strip_heredoc / .squish / .strip are applied. */
bool fl_rb_styled(const fl_toks *t, size_t b, size_t e, size_t *ib, size_t *ie)
{
	size_t o = NONE;
	if (b + 2 < e && (fl_tok_is(t, b, "Rainbow") || fl_tok_is(t, b, "Paint")) &&
	    (is_p(t, b + 1, '(') || is_p(t, b + 1, '[')))
		o = b + 1;
	else if (b + 4 < e && t->v[b].kind == FL_TK_IDENT && is_p(t, b + 1, '.') &&
		 fl_tok_is(t, b + 2, "wrap") && is_p(t, b + 3, '(') &&
		 (fl_tok_contains_ci(t, b, "rainbow") || fl_tok_contains_ci(t, b, "color") ||
		  fl_tok_contains_ci(t, b, "paint")))
		o = b + 3;
	if (o == NONE)
		return false;
	/* the bracket's end: the first of its arguments */
	int d = 0;
	size_t c = NONE, arg_end = NONE;
	for (size_t k = o; k < e && c == NONE; k++) {
		if (fl_tok_is_opener(t, k))
			d++;
		else if (fl_tok_is_closer(t, k) && --d == 0)
			c = k;
		else if (d == 1 && is_p(t, k, ',') && arg_end == NONE)
			arg_end = k;
	}
	if (c == NONE)
		return false;
	/* then only colour methods: .red, .yellow.bright */
	for (size_t k = c + 1; k < e; k += 2)
		if (!is_p(t, k, '.') || k + 1 >= e || t->v[k + 1].kind != FL_TK_IDENT)
			return false;
	*ib = o + 1;
	*ie = arg_end != NONE ? arg_end : c;
	return *ie > *ib;
}

char *fl_rb_msg(const fl_toks *t, size_t b, size_t e)
{
	size_t ib, ie;
	if (fl_rb_styled(t, b, e, &ib, &ie))
		return fl_rb_msg(t, ib, ie);
	/* a whitespace method applied to the whole expression */
	int shape = 0; /* 1 strip_heredoc, 2 squish, 3 strip */
	if (e - b >= 3 && is_p(t, e - 2, '.')) {
		if (fl_tok_is(t, e - 1, "strip_heredoc"))
			shape = 1;
		else if (fl_tok_is(t, e - 1, "squish"))
			shape = 2;
		else if (fl_tok_is(t, e - 1, "strip"))
			shape = 3;
		if (shape)
			e -= 2;
	}
	if (!range_ok(t, b, e))
		return NULL;
	bool any = false;
	for (size_t k = b; k < e; k++)
		if (t->v[k].kind == FL_TK_STRING)
			any = true;
	if (!any)
		return NULL;
	fl_toks s;
	memset(&s, 0, sizeof s);
	s.src = t->src;
	s.srclen = t->srclen;
	s.cap = e - b + 1;
	s.v = fl_xmalloc(s.cap * sizeof *s.v);
	size_t opstart = 0, pct_until = 0;
	int depth = 0;
	for (size_t k = b; k < e; k++) {
		const fl_tok *tk = &t->v[k];
		if (depth == 0 && is_p(t, k, '%') && s.n > opstart) {
			for (size_t q = opstart; q < s.n; q++)
				decode_pct(&s, q);
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
		/* .to_s / .inspect / .freeze / .message are transparent */
		if (is_p(t, k, '.') && k + 1 < e &&
		    (fl_tok_is(t, k + 1, "to_s") || fl_tok_is(t, k + 1, "inspect") ||
		     fl_tok_is(t, k + 1, "freeze") || fl_tok_is(t, k + 1, "to_str"))) {
			k++;
			continue;
		}
		if (tk->kind == FL_TK_IDENT && is_p(t, k + 1, '(') &&
		    (fl_tok_is(t, k, "format") || fl_tok_is(t, k, "sprintf")))
			pct_until = k + 2 < e ? e : e; /* whole call */
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
			if (k < pct_until)
				decode_pct(&s, s.n - 1);
		}
		if (depth == 0 && (is_p(t, k, '+') || fl_tok_is(t, k, "<<")))
			opstart = s.n;
	}
	char *msg = s.n ? fl_msg_from_expr(&s, 0, s.n, &msg_opts) : NULL;
	fl_toks_free(&s);
	if (msg && shape == 1)
		dedent(msg);
	else if (msg && shape)
		squish(msg, shape == 3);
	if (msg && !msg[0]) {
		free(msg);
		msg = NULL;
	}
	return msg;
}

/* ---- token helpers of the rules and the collect pass ----------------------- */

void fl_rb_put_span(fl_buf *b, const fl_toks *t, size_t s, size_t e)
{
	if (e <= s)
		return;
	fl_buf_put(b, t->src + t->v[s].off,
		   t->v[e - 1].off + t->v[e - 1].len - t->v[s].off);
}

/* constant path Foo::Bar over all of [b, e) */
bool fl_rb_const_path(const fl_toks *t, size_t b, size_t e)
{
	if (b >= e)
		return false;
	size_t k = b;
	if (fl_tok_is(t, k, "::"))
		k++;
	while (k < e) {
		if (t->v[k].kind != FL_TK_IDENT)
			return false;
		char c = t->src[t->v[k].off];
		if (!(c >= 'A' && c <= 'Z'))
			return false;
		k++;
		if (k == e)
			return true;
		if (!fl_tok_is(t, k, "::"))
			return false;
		k++;
	}
	return false;
}

bool fl_rb_same_tok(const fl_toks *t, size_t a, size_t b)
{
	return a < t->n && b < t->n && t->v[a].len == t->v[b].len &&
	       memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) == 0;
}

/* The end of the statement starting at k (the next token on a new line). */
size_t fl_rb_line_end(const fl_toks *t, const size_t *m, size_t k)
{
	size_t e = k + 1;
	while (e < t->n && !(t->v[e].flags & FL_TF_NL_BEFORE) && !is_p(t, e, ';'))
		e = fl_tok_is_opener(t, e) && m[e] != NONE && m[e] > e ? m[e] + 1 : e + 1;
	return e > t->n ? t->n : e;
}
