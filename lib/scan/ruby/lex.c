/*
 * lex.c — the Ruby lexer (lib/scan/ruby/, ruby.h): comments, =begin/=end,
 * '' "" `` with #{} interpolation, %q %Q %w %i %r %() literals with any
 * delimiter, heredocs <<~ <<- << with several per line, symbols, regex
 * literals, ?a character literals, __END__.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruby.h"

#define INTERP_MAX_NEST 32

/* ---- lexer ----------------------------------------------------------------- */

static const char *const rb_ops[] = {
	"**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||=", "&.", "::",
	"..",  "==",  "!=",  ">=",  "<=",  "&&",  "||",  "<<",  ">>", "**",
	"=~",  "!~",  "+=",  "-=",  "*=",  "/=",  "%=",  "|=",  "&=", "^=",
	"=>",  "->",  NULL};

typedef struct rblex {
	fl_toks *t;
	bool hd_pending;
	size_t hd_line_end; /* the '\n' ending the line holding heredoc starts */
	size_t hd_next;     /* where lexing resumes after the bodies */
	int hd_next_line;
	bool done;
} rblex;

static bool is_id_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

static bool is_id_char(unsigned char c)
{
	return is_id_start(c) || (c >= '0' && c <= '9');
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
	       c == '\v';
}

static bool starts(const fl_toks *t, size_t p, const char *s)
{
	size_t l = strlen(s);
	return p + l <= t->srclen && memcmp(t->src + p, s, l) == 0;
}

/* at a line start: =begin ... =end, __END__ */
static void line_start_checks(rblex *L)
{
	fl_toks *t = L->t;
	size_t p = t->pos;
	if (starts(t, p, "=begin") &&
	    (p + 6 >= t->srclen || is_space((unsigned char)t->src[p + 6]))) {
		while (t->pos < t->srclen) {
			const char *nl = memchr(t->src + t->pos, '\n',
						t->srclen - t->pos);
			if (!nl) {
				t->pos = t->srclen;
				return;
			}
			t->pos = (size_t)(nl - t->src);
			fl_lx_adv(t);
			t->nl = true;
			if (starts(t, t->pos, "=end") &&
			    (t->pos + 4 >= t->srclen ||
			     is_space((unsigned char)t->src[t->pos + 4]))) {
				fl_lx_line_comment(t);
				return;
			}
		}
		return;
	}
	if (starts(t, p, "__END__") &&
	    (p + 7 == t->srclen || t->src[p + 7] == '\n' ||
	     (t->src[p + 7] == '\r' &&
	      (p + 8 == t->srclen || t->src[p + 8] == '\n')))) {
		t->pos = t->srclen;
		L->done = true;
	}
}

static void ws(rblex *L)
{
	fl_toks *t = L->t;
	if (L->hd_pending && t->pos > L->hd_line_end)
		L->hd_pending = false; /* crossed inside a token: give up */
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		if (c == '\n') {
			t->nl = true;
			if (L->hd_pending && t->pos == L->hd_line_end) {
				L->hd_pending = false;
				t->pos = L->hd_next;
				t->line = L->hd_next_line;
				t->line_start = t->pos;
			} else {
				t->line++;
				t->pos++;
				t->line_start = t->pos;
			}
			line_start_checks(L);
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v') {
			t->pos++;
		} else if (c == '\\' && fl_lx_peek(t, 1) == '\n') {
			if (L->hd_pending && t->pos + 1 == L->hd_line_end) {
				t->pos++;
				continue; /* let the '\n' branch jump */
			}
			t->pos += 2;
			t->line++;
			t->line_start = t->pos;
		} else if (c == '#') {
			fl_lx_line_comment(t);
		} else {
			break;
		}
	}
}

/* Skip the code of an interpolation #{...} copying it verbatim into b (if
 * b); t->pos after '#{'.  Stops after the closing '}' or at stop byte. */
static void skip_code(fl_toks *t, fl_buf *b, int nest, size_t limit);

/* Copy a nested quoted string inside interpolated code. */
static void skip_nested_str(fl_toks *t, fl_buf *b, int nest, size_t limit)
{
	char q = t->src[t->pos];
	if (b)
		fl_buf_putc(b, q);
	t->pos++;
	while (t->pos < limit) {
		char c = t->src[t->pos];
		if (c == '\\' && t->pos + 1 < limit) {
			if (b)
				fl_buf_put(b, t->src + t->pos, 2);
			t->pos++;
			fl_lx_adv(t);
			continue;
		}
		if (q != '\'' && c == '#' && t->pos + 1 < limit &&
		    t->src[t->pos + 1] == '{' && nest < INTERP_MAX_NEST) {
			if (b)
				fl_buf_put(b, "#{", 2);
			size_t h = b ? b->n : 0;
			t->pos += 2;
			skip_code(t, b, nest + 1, limit);
			if (b)
				fl_buf_squeeze_hole(b, h);
			continue;
		}
		if (b)
			fl_buf_putc(b, c);
		fl_lx_adv(t);
		if (c == q)
			return;
	}
}

/* A regex literal /.../ in interpolated code at t->pos: copy it through
 * its closing '/' (with its flags) into b; false (nothing consumed) when
 * it does not end on its line. */
static bool skip_code_regex(fl_toks *t, fl_buf *b, size_t limit)
{
	size_t e = t->pos + 1;
	bool cls = false;
	for (; e < limit && t->src[e] != '\n'; e++) {
		char c = t->src[e];
		if (c == '\\' && e + 1 < limit && t->src[e + 1] != '\n')
			e++;
		else if (c == '[')
			cls = true;
		else if (c == ']')
			cls = false;
		else if (c == '/' && !cls)
			break;
	}
	if (e >= limit || t->src[e] != '/')
		return false;
	e++;
	while (e < limit && is_id_char((unsigned char)t->src[e]))
		e++;
	if (b)
		fl_buf_put(b, t->src + t->pos, e - t->pos);
	t->pos = e; /* within one line: no line count to keep */
	return true;
}

static void skip_code(fl_toks *t, fl_buf *b, int nest, size_t limit)
{
	int depth = 1;
	char prev = '{'; /* the last code byte that is not blank */
	while (t->pos < limit) {
		char c = t->src[t->pos];
		if (c == '/' && prev && strchr("([{,=|&!?:;~<>+-*%^", prev) &&
		    skip_code_regex(t, b, limit)) {
			/* `#{caller.first[/`.*'/]}`: a regex, whose quotes
			 * open no string */
			prev = '/';
			continue;
		}
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			prev = c;
		if (c == '$' && t->pos + 1 < limit && strchr("'\"`&~!@/\\;,.<>_0*$?:", t->src[t->pos + 1])) {
			/* `#{$'}`: a special global, whose quote opens no string */
			if (b)
				fl_buf_put(b, t->src + t->pos, 2);
			t->pos += 2;
			continue;
		}
		if (c == '{') {
			depth++;
		} else if (c == '}') {
			if (--depth == 0) {
				if (b)
					fl_buf_putc(b, '}');
				t->pos++;
				return;
			}
		} else if ((c == '"' || c == '\'' || c == '`') &&
			   nest < INTERP_MAX_NEST) {
			skip_nested_str(t, b, nest, limit);
			continue;
		}
		if (b)
			fl_buf_putc(b, c);
		fl_lx_adv(t);
	}
}

/* Decode string content from t->pos up to the closing delimiter `close`
 * (nesting `open` when open != close) or to limit (close < 0).
 * interp: double-quoted semantics (escapes, #{}); else single-quoted.
 * Appends to t->arena when b is non-NULL.  Consumes the closer. */
static bool rb_body(fl_toks *t, fl_buf *b, int open, int close, bool interp,
		    size_t limit, bool stop_nl)
{
	const char *s = t->src;
	int depth = 0;
	bool had = false;
	while (t->pos < limit) {
		size_t r = t->pos;
		while (r < limit) {
			unsigned char c = (unsigned char)s[r];
			if (c == close || c == open || c == '\\' || c == '\n' ||
			    (c == '#' && interp))
				break;
			r++;
		}
		if (r > t->pos) {
			if (b)
				fl_buf_put(b, s + t->pos, r - t->pos);
			t->pos = r;
			continue;
		}
		unsigned char c = (unsigned char)s[t->pos];
		if (c == close && close >= 0) {
			if (depth == 0) {
				t->pos++;
				return had;
			}
			depth--;
			if (b)
				fl_buf_putc(b, (char)c);
			t->pos++;
		} else if (c == open && open >= 0 && open != close) {
			depth++;
			if (b)
				fl_buf_putc(b, (char)c);
			t->pos++;
		} else if (c == '\n') {
			if (stop_nl)
				return had;
			if (b)
				fl_buf_putc(b, '\n');
			fl_lx_adv(t);
		} else if (c == '\\') {
			int d = t->pos + 1 < limit ? (unsigned char)s[t->pos + 1]
						   : -1;
			if (d < 0) {
				if (b)
					fl_buf_putc(b, '\\');
				t->pos++;
			} else if (!interp) {
				if (d == '\\' || d == close || d == open) {
					if (b)
						fl_buf_putc(b, (char)d);
				} else if (b) {
					fl_buf_putc(b, '\\');
					fl_buf_putc(b, (char)d);
				}
				t->pos++;
				fl_lx_adv(t);
			} else if (d == 's') {
				if (b)
					fl_buf_putc(b, ' ');
				t->pos += 2;
			} else if (d == '\n') {
				t->pos++;
				fl_lx_adv(t);
			} else {
				fl_buf tmp = {0};
				fl_lx_escape(t, b ? b : &tmp);
				fl_buf_free(&tmp);
				if (t->pos > limit)
					t->pos = limit;
			}
		} else { /* '#' in interp */
			int d = t->pos + 1 < limit ? (unsigned char)s[t->pos + 1]
						   : -1;
			if (d == '{') {
				t->pos += 2;
				had = true;
				if (b)
					fl_buf_putc(b, '{');
				size_t h = b ? b->n : 0;
				skip_code(t, b, 1, limit);
				if (b)
					fl_buf_squeeze_hole(b, h);
			} else if ((d == '@' || d == '$') && t->pos + 2 < limit &&
				   (is_id_start((unsigned char)s[t->pos + 2]) ||
				    s[t->pos + 2] == '@')) {
				/* #@var / #$var */
				size_t st = t->pos + 1, e = t->pos + 2;
				while (e < limit &&
				       (is_id_char((unsigned char)s[e]) ||
					s[e] == '@'))
					e++;
				had = true;
				if (b) {
					fl_buf_putc(b, '{');
					fl_buf_put(b, s + st, e - st);
					fl_buf_putc(b, '}');
				}
				t->pos = e;
			} else {
				if (b)
					fl_buf_putc(b, '#');
				t->pos++;
			}
		}
	}
	return had;
}

static bool is_kwtext(const char *s, size_t n)
{
	static const char *const kws[] = {
		"if",   "unless", "while", "until", "and",   "or",   "not",
		"when", "case",   "then",  "else",  "elsif", "do",   "begin",
		"in",   "yield",  "raise", "fail",  "puts",  "print", "p",
		"return", "abort", "require", "include", "extend", NULL};
	for (const char *const *k = kws; *k; k++)
		if (strlen(*k) == n && memcmp(*k, s, n) == 0)
			return true;
	return false;
}

/* Is the lexer at the start of an operand (so / % ? << start literals)? */
static bool expr_start(rblex *L)
{
	fl_toks *t = L->t;
	if (t->n == 0)
		return true;
	const fl_tok *p = &t->v[t->n - 1];
	switch (p->kind) {
	case FL_TK_NUMBER:
	case FL_TK_STRING:
	case FL_TK_CHAR:
	case FL_TK_OTHER:
		return false;
	case FL_TK_PUNCT: {
		char c = t->src[p->off];
		return !(p->len == 1 && (c == ')' || c == ']' || c == '}'));
	}
	case FL_TK_IDENT: {
		const char *s = t->src + p->off;
		if (is_kwtext(s, p->len))
			return true;
		/* `foo /re/`: a command call with a literal argument */
		bool sp_before = t->pos > 0 && (t->src[t->pos - 1] == ' ' ||
						t->src[t->pos - 1] == '\t');
		int nx = fl_lx_peek(t, 1);
		if (t->n >= 2 && t->v[t->n - 2].kind == FL_TK_PUNCT &&
		    t->src[t->v[t->n - 2].off] == '.')
			/* a method's: only a %-literal opening right after a
			 * space (`logger.warn %(text)`; `a.size % 2` is a
			 * remainder) */
			return t->src[t->pos] == '%' && sp_before && nx >= 0 &&
			       strchr("([{<|", nx) != NULL;
		return sp_before && nx >= 0 && !is_space(nx) && nx != '=' &&
		       ((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_');
	}
	}
	return true;
}

static bool prev_is_cmd_ident(rblex *L)
{
	fl_toks *t = L->t;
	return t->n > 0 && t->v[t->n - 1].kind == FL_TK_IDENT &&
	       !is_kwtext(t->src + t->v[t->n - 1].off, t->v[t->n - 1].len);
}

/* after a predicate method's name and a space (`text.include? ?'`): a
 * character literal, its argument, not a ternary */
static bool prev_is_predicate(rblex *L)
{
	fl_toks *t = L->t;
	if (t->n == 0 || t->v[t->n - 1].kind != FL_TK_IDENT || t->pos == 0 ||
	    (t->src[t->pos - 1] != ' ' && t->src[t->pos - 1] != '\t'))
		return false;
	const fl_tok *p = &t->v[t->n - 1];
	return p->len >= 2 && t->src[p->off + p->len - 1] == '?';
}

static int closer_for(int c)
{
	return c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : c == '<' ? '>' : c;
}

static void push_str(rblex *L, size_t start, int line, int col, int kind,
		     int open, int close, bool interp, bool stop_nl)
{
	fl_toks *t = L->t;
	fl_tok *tok = fl_toks_push(t, kind, start, 0, line, col);
	fl_toks_str_begin(t, tok);
	bool had = rb_body(t, &t->arena, open, close, interp, t->srclen,
			   stop_nl);
	tok = &t->v[t->n - 1];
	tok->len = (uint32_t)(t->pos - start);
	if (had)
		tok->flags |= FL_TF_INTERP;
	fl_toks_str_end(t, tok);
}

/* regex literal /.../flags: t->pos at '/'. same_line: must close on this
 * line, else false is returned and nothing consumed. */
static bool rb_regex(rblex *L, bool same_line)
{
	fl_toks *t = L->t;
	size_t start = t->pos;
	if (same_line) {
		size_t p = start + 1;
		bool ok = false;
		while (p < t->srclen && t->src[p] != '\n') {
			if (t->src[p] == '\\') {
				p += 2;
				continue;
			}
			if (t->src[p] == '/') {
				ok = true;
				break;
			}
			p++;
		}
		if (!ok)
			return false;
	}
	int line = t->line, col = fl_lx_col(t);
	t->pos++;
	rb_body(t, NULL, -1, '/', true, t->srclen, false);
	while (t->pos < t->srclen && is_id_char((unsigned char)t->src[t->pos]))
		t->pos++;
	fl_toks_push(t, FL_TK_OTHER, start, t->pos - start, line, col);
	return true;
}

/* heredoc at '<<'; returns false if this is not a heredoc */
static bool rb_heredoc(rblex *L)
{
	fl_toks *t = L->t;
	const char *s = t->src;
	size_t p = t->pos + 2;
	bool squiggly = false, dash = false;
	if (p < t->srclen && (s[p] == '~' || s[p] == '-')) {
		squiggly = s[p] == '~';
		dash = s[p] == '-';
		p++;
	}
	if (p >= t->srclen)
		return false;
	bool interp = true;
	size_t ib, ie;
	char q = s[p];
	if (q == '\'' || q == '"' || q == '`') {
		interp = q != '\'';
		ib = p + 1;
		ie = ib;
		while (ie < t->srclen && s[ie] != q && s[ie] != '\n')
			ie++;
		if (ie >= t->srclen || s[ie] != q || ie == ib)
			return false;
		p = ie + 1;
	} else {
		if (!is_id_start((unsigned char)q))
			return false;
		if (!squiggly && !dash && !(q >= 'A' && q <= 'Z') && q != '_')
			return false;
		ib = p;
		ie = p;
		while (ie < t->srclen && is_id_char((unsigned char)s[ie]))
			ie++;
		p = ie;
	}
	if (!squiggly && !dash && !expr_start(L))
		return false;
	if ((squiggly || dash) && !expr_start(L) && !prev_is_cmd_ident(L))
		return false;
	size_t idl = ie - ib;
	int line = t->line, col = fl_lx_col(t);
	size_t start = t->pos;
	/* where the body starts */
	if (!L->hd_pending) {
		const char *nl = memchr(s + p, '\n', t->srclen - p);
		L->hd_line_end = nl ? (size_t)(nl - s) : t->srclen;
		L->hd_next = nl ? L->hd_line_end + 1 : t->srclen;
		L->hd_next_line = t->line + 1;
		L->hd_pending = nl != NULL;
	}
	size_t bs = L->hd_next, be = bs, q2 = bs;
	int ln = L->hd_next_line;
	size_t min_ind = (size_t)-1;
	/* find the terminator line */
	while (q2 < t->srclen) {
		const char *nl = memchr(s + q2, '\n', t->srclen - q2);
		size_t le = nl ? (size_t)(nl - s) : t->srclen;
		size_t a = q2;
		if (squiggly || dash)
			while (a < le && (s[a] == ' ' || s[a] == '\t'))
				a++;
		size_t te = le;
		if (te > a && s[te - 1] == '\r')
			te--;
		if (te - a == idl && memcmp(s + a, s + ib, idl) == 0) {
			be = q2;
			q2 = nl ? le + 1 : t->srclen;
			ln++;
			goto found;
		}
		if (squiggly) {
			size_t ind = 0, k = q2;
			while (k < le && (s[k] == ' ' || s[k] == '\t'))
				k++, ind++;
			if (k < le && !(k + 1 == le && s[k] == '\r') &&
			    ind < min_ind)
				min_ind = ind;
		}
		q2 = nl ? le + 1 : t->srclen;
		if (nl)
			ln++;
	}
	be = t->srclen;
found:;
	if (min_ind == (size_t)-1)
		min_ind = 0;
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, p - start, line, col);
	fl_toks_str_begin(t, tok);
	/* decode line by line (dedenting for <<~) */
	size_t save_pos = t->pos, save_ls = t->line_start;
	int save_line = t->line;
	size_t a = bs;
	bool had = false;
	while (a < be) {
		if (squiggly) {
			size_t k = 0;
			while (k < min_ind && a < be && (s[a] == ' ' || s[a] == '\t'))
				a++, k++;
		}
		const char *nl = memchr(s + a, '\n', be - a);
		size_t le = nl ? (size_t)(nl - s) + 1 : be;
		t->pos = a;
		if (rb_body(t, &t->arena, -1, -1, interp, le, false))
			had = true;
		a = t->pos > le ? t->pos : le;
	}
	t->pos = save_pos;
	t->line = save_line;
	t->line_start = save_ls;
	tok = &t->v[t->n - 1];
	if (had)
		tok->flags |= FL_TF_INTERP;
	fl_toks_str_end(t, tok);
	t->pos = p;
	if (L->hd_pending) {
		L->hd_next = q2;
		L->hd_next_line = ln;
	}
	return true;
}

/* %-literal at '%'; returns false if not one */
static bool rb_percent(rblex *L)
{
	fl_toks *t = L->t;
	size_t p = t->pos + 1;
	if (p >= t->srclen)
		return false;
	char ty = 0;
	if (strchr("qQwWiIrsx", t->src[p]) && t->src[p] &&
	    p + 1 < t->srclen) {
		ty = t->src[p];
		p++;
	}
	unsigned char d = (unsigned char)t->src[p];
	if (is_id_char(d) || is_space(d) || d == 0)
		return false;
	if (!ty && d == '=')
		return false;
	size_t start = t->pos;
	int line = t->line, col = fl_lx_col(t);
	t->pos = p + 1;
	int close = closer_for(d);
	int open = close != d ? d : -1;
	bool interp = !(ty == 'q' || ty == 'w' || ty == 'i' || ty == 's');
	int kind = (ty == 0 || ty == 'q' || ty == 'Q') ? FL_TK_STRING
						       : FL_TK_OTHER;
	push_str(L, start, line, col, kind, open, close, interp, false);
	return true;
}

void fl_rb_lex(fl_toks *t)
{
	rblex L = {.t = t};
	const char *s = t->src;
	line_start_checks(&L);
	while (!L.done) {
		ws(&L);
		if (L.done || t->pos >= t->srclen)
			break;
		unsigned char c = (unsigned char)s[t->pos];
		int col = fl_lx_col(t);
		size_t st = t->pos;
		if (is_id_start(c) || c == '@' ||
		    (c == '$' && t->pos + 1 < t->srclen)) {
			size_t r = t->pos;
			if (c == '$') {
				r++;
				if (is_id_char((unsigned char)s[r])) {
					while (r < t->srclen &&
					       is_id_char((unsigned char)s[r]))
						r++;
				} else if (s[r] == '-' && r + 1 < t->srclen) {
					r += 2;
				} else {
					r++; /* $! $" $' ... */
				}
			} else {
				while (r < t->srclen && s[r] == '@')
					r++;
				while (r < t->srclen &&
				       is_id_char((unsigned char)s[r]))
					r++;
				if (r < t->srclen && (s[r] == '?' || s[r] == '!') &&
				    !(r + 1 < t->srclen && s[r + 1] == '=') &&
				    r > st && is_id_char((unsigned char)s[r - 1]))
					r++;
			}
			if (r == st)
				r++;
			t->pos = r;
			fl_toks_push(t, FL_TK_IDENT, st, r - st, t->line, col);
		} else if (c >= '0' && c <= '9') {
			fl_lx_number(t);
		} else if (c == '"' || c == '`') {
			t->pos++;
			push_str(&L, st, t->line, col, FL_TK_STRING, -1, c, true,
				 false);
		} else if (c == '\'') {
			t->pos++;
			push_str(&L, st, t->line, col, FL_TK_STRING, -1, c, false,
				 false);
		} else if (c == ':' && fl_lx_peek(t, 1) == ':') {
			fl_lx_punct(t, rb_ops);
		} else if (c == ':' && (fl_lx_peek(t, 1) == '"' ||
					fl_lx_peek(t, 1) == '\'')) {
			int q = fl_lx_peek(t, 1);
			t->pos += 2;
			push_str(&L, st, t->line, col, FL_TK_OTHER, -1, q,
				 q == '"', false);
		} else if (c == ':' && fl_lx_peek(t, 1) >= 0 &&
			   (is_id_start((unsigned char)fl_lx_peek(t, 1)) ||
			    fl_lx_peek(t, 1) == '@' || fl_lx_peek(t, 1) == '$') &&
			   !(t->pos > 0 &&
			     (is_id_char((unsigned char)s[t->pos - 1]) ||
			      s[t->pos - 1] == '?' || s[t->pos - 1] == '!' ||
			      s[t->pos - 1] == ')' || s[t->pos - 1] == ']'))) {
			size_t r = t->pos + 1;
			while (r < t->srclen && (s[r] == '@' || s[r] == '$'))
				r++;
			while (r < t->srclen && is_id_char((unsigned char)s[r]))
				r++;
			if (r < t->srclen && (s[r] == '?' || s[r] == '!' ||
					      s[r] == '='))
				if (!(r + 1 < t->srclen &&
				      (s[r + 1] == '=' || s[r + 1] == '>' ||
				       s[r + 1] == '~')))
					r++;
			t->pos = r;
			fl_toks_push(t, FL_TK_OTHER, st, r - st, t->line, col);
		} else if (c == '/' && expr_start(&L)) {
			bool cmd = prev_is_cmd_ident(&L);
			if (!rb_regex(&L, cmd))
				fl_lx_punct(t, rb_ops);
		} else if (c == '%' && expr_start(&L)) {
			if (!rb_percent(&L))
				fl_lx_punct(t, rb_ops);
		} else if (c == '?' &&
			   ((expr_start(&L) && !prev_is_cmd_ident(&L)) || prev_is_predicate(&L)) &&
			   t->pos + 1 < t->srclen &&
			   !is_space((unsigned char)s[t->pos + 1])) {
			size_t r = t->pos + 1;
			if (s[r] == '\\')
				r += 2;
			else
				r++;
			if (r > t->srclen)
				r = t->srclen;
			if (r < t->srclen && is_id_char((unsigned char)s[r]) &&
			    s[t->pos + 1] != '\\') {
				fl_lx_punct(t, rb_ops);
			} else {
				t->pos = r;
				fl_toks_push(t, FL_TK_CHAR, st, r - st, t->line,
					     col);
			}
		} else if (c == '<' && fl_lx_peek(t, 1) == '<') {
			if (!rb_heredoc(&L))
				fl_lx_punct(t, rb_ops);
		} else {
			fl_lx_punct(t, rb_ops);
		}
	}
}
