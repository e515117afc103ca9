/*
 * lang_ruby.c — Ruby: lexer (comments, =begin/=end, '' "" `` with #{}
 * interpolation, %q %Q %w %i %r %() literals with any delimiter, heredocs
 * <<~ <<- << with several per line, symbols, regex literals, ?a character
 * literals, __END__) and the rules for raise / fail / abort / errors.add /
 * loggers / warn, the tree's own reporters (methods that raise, abort,
 * warn with or hand on their first parameter: `alert_error "..."`,
 * `Bundler.ui.warn "..."`), prints followed by a failing exit, and
 * messages held in local variables.  Blocks are tracked with a keyword
 * stack (class/module/def/if/.../end) to know `Class#method` and the
 * guarding `if`/`unless` condition.
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../strmap.h"
#include "../util.h"
#include "lex.h"

static const char *const exts[] = {".rb", ".rake", NULL};

#define NONE ((size_t)-1)
#define MSG_MAX_TOKS 512
#define MSG_MAX_DEPTH 32
#define INTERP_MAX_NEST 32
#define SCAN_CAP 2048
#define MAXVAR 4 /* messages one local variable may hold */

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
		if (t->n >= 2 && t->v[t->n - 2].kind == FL_TK_PUNCT &&
		    t->src[t->v[t->n - 2].off] == '.')
			return false;
		/* `foo /re/`: a command call with a literal argument */
		bool sp_before = t->pos > 0 && (t->src[t->pos - 1] == ' ' ||
						t->src[t->pos - 1] == '\t');
		int nx = fl_lx_peek(t, 1);
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

static void rb_lex(fl_toks *t)
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
		} else if (c == '?' && expr_start(&L) && !prev_is_cmd_ident(&L) &&
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

/* ---- shared walking helpers -------------------------------------------------- */


static inline bool is_p(const fl_toks *t, size_t i, char c)
{
	return fl_tok_pch(t, i) == c;
}

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
static char *rb_msg(const fl_toks *t, size_t b, size_t e)
{
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

/* ---- blocks ----------------------------------------------------------------- */

enum { B_CLASS = 1, B_MODULE, B_SCLASS, B_DEF, B_COND, B_CASE, B_OTHER };

typedef struct rbblk {
	int kind;
	size_t nb, ne;  /* CLASS/MODULE: name tokens; DEF: name tokens */
	bool singleton; /* DEF: def self.x */
	size_t cb, ce;  /* COND/CASE: guard tokens */
	bool neg;       /* unless / until: the guard is negated */
	size_t kw;      /* keyword token */
} rbblk;

typedef struct walker {
	const fl_toks *t;
	const size_t *m;
	const fl_classdefs *tree; /* exception classes with a default message */
	const struct rbtree *rep; /* the tree's own reporters */
	const char *path;         /* the file */
	rbblk *blk;
	size_t nblk, capblk;
	fl_sites *out;
	fl_buf fn;
	size_t skip_do;
} walker;

static void blk_push(walker *w, rbblk b)
{
	if (w->nblk == w->capblk) {
		w->capblk = w->capblk ? w->capblk * 2 : 32;
		w->blk = fl_xrealloc(w->blk, w->capblk * sizeof *w->blk);
	}
	w->blk[w->nblk++] = b;
}

static void put_span(fl_buf *b, const fl_toks *t, size_t s, size_t e)
{
	if (e <= s)
		return;
	fl_buf_put(b, t->src + t->v[s].off,
		   t->v[e - 1].off + t->v[e - 1].len - t->v[s].off);
}

static const char *cur_function(walker *w)
{
	size_t last = NONE;
	for (size_t k = 0; k < w->nblk; k++)
		if (w->blk[k].kind == B_DEF)
			last = k;
	if (last == NONE)
		return NULL;
	const fl_toks *t = w->t;
	fl_buf_reset(&w->fn);
	bool sclass = false;
	for (size_t k = 0; k < last; k++) {
		const rbblk *b = &w->blk[k];
		if (b->kind == B_SCLASS)
			sclass = true;
		if ((b->kind != B_CLASS && b->kind != B_MODULE) || b->ne <= b->nb)
			continue;
		if (w->fn.n)
			fl_buf_puts(&w->fn, "::");
		put_span(&w->fn, t, b->nb, b->ne);
	}
	const rbblk *d = &w->blk[last];
	if (w->fn.n)
		fl_buf_putc(&w->fn, (d->singleton || sclass) ? '.' : '#');
	put_span(&w->fn, t, d->nb, d->ne);
	return w->fn.n ? fl_buf_cstr(&w->fn) : NULL;
}

/* whether cur_guard() is a `case ... when` arm's pattern */
static bool cur_arm(const walker *w)
{
	return w->nblk && w->blk[w->nblk - 1].kind == B_CASE;
}

static char *cur_guard(walker *w)
{
	if (!w->nblk)
		return NULL;
	const rbblk *b = &w->blk[w->nblk - 1];
	if ((b->kind != B_COND && b->kind != B_CASE) || b->ce <= b->cb)
		return NULL;
	char *g = fl_tok_span_text(w->t, b->cb, b->ce, 200);
	if (b->neg) {
		/* unless x / until x: the block runs when x is false */
		char *r = fl_guard_not(g, false);
		free(g);
		return r;
	}
	return g;
}

/* keyword token: an identifier not used as method name, label or symbol */
static bool is_kw(const fl_toks *t, size_t i, const char *s)
{
	if (!fl_tok_is(t, i, s) || t->v[i].kind != FL_TK_IDENT)
		return false;
	if (i > 0 && t->v[i - 1].kind == FL_TK_PUNCT &&
	    (fl_tok_is(t, i - 1, ".") || fl_tok_is(t, i - 1, "&.") ||
	     fl_tok_is(t, i - 1, "::")))
		return false;
	if (i > 0 && fl_tok_is(t, i - 1, "def"))
		return false;
	/* label `if:` */
	if (i + 1 < t->n && is_p(t, i + 1, ':') &&
	    t->v[i + 1].off == t->v[i].off + t->v[i].len)
		return false;
	return true;
}

static bool cont_token(const fl_toks *t, size_t i)
{
	/* a token ending a line that continues the statement */
	if (t->v[i].kind != FL_TK_PUNCT)
		return is_kw(t, i, "and") || is_kw(t, i, "or") ||
		       is_kw(t, i, "not");
	if (fl_tok_is_closer(t, i))
		return false;
	return true;
}

static bool stmt_stop_kw(const fl_toks *t, size_t k)
{
	return is_kw(t, k, "if") || is_kw(t, k, "unless") ||
	       is_kw(t, k, "while") || is_kw(t, k, "until") ||
	       is_kw(t, k, "rescue") || is_kw(t, k, "and") ||
	       is_kw(t, k, "or") || is_kw(t, k, "end") || is_kw(t, k, "then") ||
	       is_kw(t, k, "do") || is_kw(t, k, "raise") || is_kw(t, k, "fail");
}

/* end of the expression/statement starting at j (exclusive): stops at a
 * newline not continued, ';', an unbalanced closer, or (when kws) a
 * modifier keyword.  Returns NONE on unbalanced brackets. */
static size_t stmt_end(walker *w, size_t j, bool kws)
{
	const fl_toks *t = w->t;
	size_t k = j;
	while (k < t->n) {
		if (k - j > SCAN_CAP)
			return NONE;
		if (k > j && (t->v[k].flags & FL_TF_NL_BEFORE) &&
		    !cont_token(t, k - 1) && !fl_tok_is(t, k, ".") &&
		    !fl_tok_is(t, k, "&."))
			break;
		if (k > j && (is_kw(t, k, "abort") || is_kw(t, k, "def") ||
			      is_kw(t, k, "class") || is_kw(t, k, "module") ||
			      (fl_tok_is(t, k, "errors") && fl_tok_is(t, k + 1, "."))))
			break;
		if (is_p(t, k, ';') || fl_tok_is_closer(t, k))
			break;
		if (kws ? stmt_stop_kw(t, k)
			: (is_kw(t, k, "end") || is_kw(t, k, "then") ||
			   (k > j && (is_kw(t, k, "raise") || is_kw(t, k, "fail")))))
			break;
		if (fl_tok_is_opener(t, k)) {
			if (w->m[k] == NONE)
				return NONE;
			k = w->m[k] + 1;
			continue;
		}
		k++;
	}
	return k;
}

/* ---- sites --------------------------------------------------------------------- */

static void emit(walker *w, size_t at, const char *msg, const char *cls,
		 const char *type, const char *sev, const char *guard,
		 const char *idiom)
{
	if (!msg || !*msg)
		return;
	fl_site s = {0};
	s.line = w->t->v[at].line;
	s.col = w->t->v[at].col;
	s.message = msg;
	s.cls = cls;
	s.type = type;
	s.severity = sev;
	s.function = cur_function(w);
	char *g = guard ? NULL : cur_guard(w);
	s.guard = guard ? guard : g;
	s.arm = !guard && cur_arm(w);
	s.idiom = idiom;
	fl_site_add(w->out, &s);
	free(g);
}

/* constant path Foo::Bar over all of [b, e) */
static bool const_path(const fl_toks *t, size_t b, size_t e)
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

#define MAXARGS 12

/* modifier guard text for a statement whose args end at a */
static char *modifier_guard(walker *w, size_t a)
{
	const fl_toks *t = w->t;
	if (a >= t->n || !(is_kw(t, a, "if") || is_kw(t, a, "unless")))
		return NULL;
	size_t e = stmt_end(w, a + 1, false);
	if (e == NONE || e <= a + 1)
		return NULL;
	/* `raise ... if x` fires when x holds; `... unless x` when it does not */
	char *g = fl_tok_span_text(t, a + 1, e, 200);
	if (is_kw(t, a, "if"))
		return g;
	char *r = fl_guard_not(g, false);
	free(g);
	return r;
}

/* arguments of a call at callee i: paren form or command form */
static bool call_args(walker *w, size_t i, size_t *st, size_t *en, size_t *n,
		      size_t *after)
{
	const fl_toks *t = w->t;
	size_t j = i + 1;
	if (j >= t->n) {
		*n = 0;
		*after = j;
		return true;
	}
	if (is_p(t, j, '(') && t->v[j].off == t->v[i].off + t->v[i].len) {
		if (w->m[j] == NONE)
			return false;
		size_t c = w->m[j];
		*n = fl_tok_split(w->t, w->m, j + 1, c, st, en, MAXARGS);
		*after = c + 1;
		return true;
	}
	if (t->v[j].flags & FL_TF_NL_BEFORE) {
		*n = 0;
		*after = j;
		return true;
	}
	size_t e = stmt_end(w, j, true);
	if (e == NONE)
		return false;
	*n = fl_tok_split(w->t, w->m, j, e, st, en, MAXARGS);
	*after = e;
	return true;
}

/* ---- exception classes with a default message -------------------------------
 * `class MissingWarden < StandardError; def initialize; super "..."; end`
 * (devise), `def initialize(msg = "..."); super; end`, `def message;
 * "..."; end`: the class has a message of its own, which a `raise
 * MissingWarden` without one gets (collect(): the classes of every file). */

typedef struct rbclass {
	size_t name;     /* token of the class name (last of a Foo::Bar path) */
	size_t at;       /* token where the message is set */
	char *msg;       /* owned */
	const char *idiom; /* how it is set: "class method message", ... */
} rbclass;

static bool excy(const fl_toks *t, size_t k)
{
	const char *s = t->src + t->v[k].off;
	size_t n = t->v[k].len;
	return (n > 5 && memcmp(s + n - 5, "Error", 5) == 0) ||
	       (n > 9 && memcmp(s + n - 9, "Exception", 9) == 0);
}

static bool same_tok(const fl_toks *t, size_t a, size_t b)
{
	return a < t->n && b < t->n && t->v[a].len == t->v[b].len &&
	       memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) == 0;
}

/* The end of the statement starting at k (the next token on a new line). */
static size_t line_end(const fl_toks *t, const size_t *m, size_t k)
{
	size_t e = k + 1;
	while (e < t->n && !(t->v[e].flags & FL_TF_NL_BEFORE) && !is_p(t, e, ';'))
		e = fl_tok_is_opener(t, e) && m[e] != NONE && m[e] > e ? m[e] + 1 : e + 1;
	return e > t->n ? t->n : e;
}

/* The class statement at i: its default message, or false. */
static bool class_default_at(const fl_toks *t, const size_t *m, size_t i, rbclass *rc)
{
	memset(rc, 0, sizeof *rc);
	if (i > 0 && !(t->v[i].flags & FL_TF_NL_BEFORE))
		return false;
	size_t k = i + 1;
	while (k + 2 < t->n && t->v[k].kind == FL_TK_IDENT && fl_tok_is(t, k + 1, "::"))
		k += 2;
	if (k >= t->n || !const_path(t, k, k + 1) || (t->v[k].flags & FL_TF_NL_BEFORE))
		return false;
	rc->name = k;
	/* < Base: an exception class by its name or its base's */
	bool ex = excy(t, k);
	if (k + 2 < t->n && is_p(t, k + 1, '<'))
		for (size_t q = k + 2; q < t->n && !(t->v[q].flags & FL_TF_NL_BEFORE); q++)
			if (t->v[q].kind == FL_TK_IDENT && excy(t, q))
				ex = true;
	if (!ex)
		return false;
	int ccol = t->v[i].col;
	for (size_t q = k + 1; q + 1 < t->n && q - i < 20000; q++) {
		const fl_tok *tk = &t->v[q];
		if ((tk->flags & FL_TF_NL_BEFORE) && tk->col <= ccol)
			break; /* the class's `end` (or what follows a one-liner) */
		if (!is_kw(t, q, "def") || !(tk->flags & FL_TF_NL_BEFORE) || rc->msg)
			continue;
		int dcol = tk->col;
		size_t body = line_end(t, m, q), end = body;
		while (end < t->n && !((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col <= dcol))
			end++;
		if (fl_tok_is(t, q + 1, "message") && body < end) {
			/* def message; "..."; end: one expression */
			if (line_end(t, m, body) == end) {
				rc->msg = rb_msg(t, body, end);
				rc->at = body;
				rc->idiom = "class method message";
			}
			continue;
		}
		if (!fl_tok_is(t, q + 1, "initialize"))
			continue;
		/* def initialize(msg = "default") ... super */
		size_t po = q + 2;
		if (is_p(t, po, '(') && m[po] != NONE) {
			size_t ps[8], pe[8];
			size_t np = fl_tok_split(t, m, po + 1, m[po], ps, pe, 8);
			for (size_t a = 0; a < np && !rc->msg; a++) {
				if (pe[a] - ps[a] < 3 || t->v[ps[a]].kind != FL_TK_IDENT ||
				    !is_p(t, ps[a] + 1, '='))
					continue;
				/* passed on: a bare super (the same arguments),
				 * super(name) or super name */
				bool passed = false;
				for (size_t r = body; r < end; r++) {
					if (!is_kw(t, r, "super"))
						continue;
					size_t le = line_end(t, m, r);
					if (le == r + 1 ||
					    (le == r + 4 && is_p(t, r + 1, '(') && same_tok(t, r + 2, ps[a])) ||
					    (le == r + 2 && same_tok(t, r + 1, ps[a])))
						passed = true;
				}
				char *d = passed ? rb_msg(t, ps[a] + 2, pe[a]) : NULL;
				if (d) {
					rc->msg = d;
					rc->at = ps[a] + 2;
					rc->idiom = "class constructor initialize";
				}
			}
		}
		/* super "..." / super("...") */
		for (size_t r = body; r < end && !rc->msg; r++) {
			if (!is_kw(t, r, "super"))
				continue;
			size_t b = r + 1, e = line_end(t, m, r);
			if (b < e && is_p(t, b, '(') && m[b] != NONE && m[b] + 1 == e) {
				e = m[b];
				b++;
			}
			char *d = b < e ? rb_msg(t, b, e) : NULL;
			if (d) {
				rc->msg = d;
				rc->at = r;
				rc->idiom = "class constructor initialize super";
			}
		}
	}
	if (rc->msg && *rc->msg)
		return true;
	free(rc->msg);
	rc->msg = NULL;
	return false;
}

/* Whether a file can hold such a class (a byte scan, before lexing). */
static bool has_class_default(const char *s, size_t n)
{
	return memmem(s, n, "class ", 6) &&
	       ((memmem(s, n, "def initialize", 14) && memmem(s, n, "super", 5)) ||
		memmem(s, n, "def message", 11));
}

/* ---- the tree's own reporters -----------------------------------------------
 * `def error(statement); raise Gem::InvalidSpecificationException,
 * statement; end`, `def alert_warning(statement, q = nil); ui.alert_warning
 * statement, q; end`, Bundler's `def error(msg); tell_err(msg, :red); end`:
 * methods that hand their first parameter on to what reports it.  Found by
 * what they do, as the C family's reporter table (c/reporters.c) finds its
 * functions: the collect pass notes, for every `def NAME(p, ...)` of the
 * tree, what the body does with p (raises it, aborts or warns with it,
 * exits with it, or passes it as the first argument of another call), and
 * whether NAME's last word says a severity (error, warn, warning, fatal).
 * A method is a reporter when its name says a severity and it passes p on,
 * or when it raises, aborts or warns with p itself or through a chain of
 * such methods (resolved at lookup, up to 8 steps).  A call `NAME "..."` /
 * `recv.NAME("...")` of a reporter is then a site of its own. */

enum { RH_NONE, RH_RAISE, RH_ABORT, RH_WARN, RH_EXIT, RH_FWD };

typedef struct rbrep {
	char *name;     /* the method */
	char *target;   /* RH_FWD: the method p goes on to */
	char *cls;      /* RH_RAISE: the class raised, or NULL */
	char *file;     /* the file defining it */
	uint8_t how;    /* RH_* */
	uint8_t named;  /* severity its name says: 0 none, 1 error, 2 warning */
	size_t next;    /* the next definition of the same name, or NONE */
} rbrep;

typedef struct rbtree {
	fl_classdefs *cls;  /* exception classes with a default message */
	fl_strmap idx;      /* name -> its last definition in v */
	rbrep *v;
	size_t n, cap;
} rbtree;

static void *rb_tree_new(void)
{
	rbtree *r = fl_xcalloc(1, sizeof *r);
	r->cls = fl_classdefs_new();
	return r;
}

static void rb_tree_free(void *tree)
{
	rbtree *r = tree;
	if (!r)
		return;
	fl_classdefs_free(r->cls);
	for (size_t k = 0; k < r->n; k++) {
		free(r->v[k].name);
		free(r->v[k].target);
		free(r->v[k].cls);
		free(r->v[k].file);
	}
	free(r->v);
	fl_strmap_free(&r->idx);
	free(r);
}

/* Add rep (its strings taken over). */
static void rep_add(rbtree *r, rbrep *rep)
{
	if (r->n >= 1u << 20) {
		free(rep->name);
		free(rep->target);
		free(rep->cls);
		free(rep->file);
		return;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->v = fl_xrealloc(r->v, r->cap * sizeof *r->v);
	}
	size_t prev;
	rep->next = fl_strmap_get(&r->idx, rep->name, &prev) ? prev : NONE;
	r->v[r->n] = *rep;
	fl_strmap_put(&r->idx, rep->name, r->n++);
}

static void rb_tree_merge(void *tree, void *part)
{
	rbtree *r = tree, *p = part;
	fl_classdefs_merge(r->cls, p->cls);
	for (size_t k = 0; k < p->n; k++) {
		rep_add(r, &p->v[k]);
		memset(&p->v[k], 0, sizeof p->v[k]);
	}
}

/* The severity a method's name says by its last word: 1 error, 2 warning. */
static int name_sev(const char *s, size_t n)
{
	const char *w = s;
	for (size_t k = 0; k < n; k++)
		if (s[k] == '_')
			w = s + k + 1;
	size_t l = (size_t)(s + n - w);
	if (l == 0 || (l == n && n < 4))
		return 0;
#define W(x) (l == sizeof(x) - 1 && memcmp(w, x, l) == 0)
	if (W("error") || W("fatal") || W("die"))
		return 1;
	if (W("warn") || W("warning"))
		return 2;
#undef W
	return 0;
}

/* The first parameter of the def at d (its name token at d+1, or d+3 for
 * `def self.x`): a plain name, else NONE.  *body gets the first token of
 * the body. */
static size_t def_param(const fl_toks *t, const size_t *m, size_t d, size_t *body)
{
	size_t k = d + 1;
	if (k + 2 < t->n && is_p(t, k + 1, '.'))
		k += 2;
	if (k + 1 >= t->n || t->v[k].kind != FL_TK_IDENT)
		return NONE;
	size_t p = k + 1;
	if (is_p(t, p, '(') && t->v[p].off == t->v[k].off + t->v[k].len) {
		if (m[p] == NONE)
			return NONE;
		*body = m[p] + 1;
		p++;
	} else {
		if (t->v[p].flags & FL_TF_NL_BEFORE)
			return NONE;
		*body = line_end(t, m, k);
	}
	if (p >= t->n || t->v[p].kind != FL_TK_IDENT || (t->v[p].flags & FL_TF_NL_BEFORE))
		return NONE;
	char c = t->src[t->v[p].off];
	if (!(c >= 'a' && c <= 'z') && c != '_')
		return NONE;
	/* p: or p = default */
	if (is_p(t, p + 1, ':'))
		return NONE;
	return p;
}

/* Whether string token k interpolates the name at token p: "#{p}". */
static bool interpolates(const fl_toks *t, size_t k, size_t p)
{
	if (t->v[k].kind != FL_TK_STRING || !(t->v[k].flags & FL_TF_INTERP))
		return false;
	char pat[80];
	if (t->v[p].len + 3 > sizeof pat)
		return false;
	pat[0] = '{';
	memcpy(pat + 1, t->src + t->v[p].off, t->v[p].len);
	pat[t->v[p].len + 1] = '}';
	return memmem(fl_tok_str(t, &t->v[k]), t->v[k].slen, pat, t->v[p].len + 2) != NULL;
}

/* What the body [b, e) does with parameter token p (what one use says;
 * the first one that says something wins); returns the token of the call
 * or raise, or NONE.  *whole: p is the whole argument (not interpolated
 * into a longer text). */
static size_t def_uses(const fl_toks *t, size_t p, size_t b, size_t e, rbrep *rep,
		       bool *whole)
{
	for (size_t k = b; k < e && k < t->n; k++) {
		bool use = same_tok(t, k, p) && t->v[k].kind == FL_TK_IDENT &&
			   !is_p(t, k + 1, '.') && !is_p(t, k + 1, '[');
		if (!use && !interpolates(t, k, p))
			continue;
		*whole = use;
		/* the call it is the first argument of: `M p`, `M(p`, `M "#{p}"` */
		size_t c = k - 1;
		if (is_p(t, c, '(') && c > b && t->v[c].off == t->v[c - 1].off + t->v[c - 1].len)
			c--;
		else if (t->v[k].flags & FL_TF_NL_BEFORE)
			continue;
		size_t cls = NONE, cle = NONE;
		if (is_p(t, c, ',')) {
			/* raise Foo::Bar, p */
			size_t q = c;
			while (q > b && (const_path(t, q - 1, q) || fl_tok_is(t, q - 1, "::")))
				q--;
			if (q < c && q > b && (is_kw(t, q - 1, "raise") || is_kw(t, q - 1, "fail")) &&
			    const_path(t, q, c)) {
				cls = q;
				cle = c;
				c = q - 1;
			} else {
				continue;
			}
		} else if (c > b + 3 && is_p(t, k - 1, '(') && fl_tok_is(t, c, "new") &&
			   is_p(t, c - 1, '.')) {
			/* raise Foo.new(p) */
			size_t q = c - 1;
			while (q > b && (const_path(t, q - 1, q) || fl_tok_is(t, q - 1, "::")))
				q--;
			if (q < c - 1 && q > b && (is_kw(t, q - 1, "raise") || is_kw(t, q - 1, "fail")) &&
			    const_path(t, q, c - 1)) {
				cls = q;
				cle = c - 1;
				c = q - 1;
			} else {
				continue;
			}
		}
		if (t->v[c].kind != FL_TK_IDENT || c < b)
			continue;
		if (is_kw(t, c, "raise") || is_kw(t, c, "fail")) {
			rep->how = RH_RAISE;
			if (cls != NONE) {
				fl_buf bb = {0};
				put_span(&bb, t, cls, cle);
				rep->cls = fl_xstrdup(fl_buf_cstr(&bb));
				fl_buf_free(&bb);
				if (strstr(rep->cls, "Exit"))
					rep->how = RH_EXIT; /* SystemExit: a status */
			}
			return c;
		}
		bool recv = c > 0 && (is_p(t, c - 1, '.') || fl_tok_is(t, c - 1, "&."));
		if (!recv && (is_kw(t, c, "abort") || is_kw(t, c, "warn") || is_kw(t, c, "exit") ||
			      fl_tok_is(t, c, "exit!"))) {
			rep->how = t->src[t->v[c].off] == 'a' ? RH_ABORT
				   : t->src[t->v[c].off] == 'w' ? RH_WARN : RH_EXIT;
			return c;
		}
		if (is_kw(t, c, "if") || is_kw(t, c, "unless") || is_kw(t, c, "return") ||
		    is_kw(t, c, "and") || is_kw(t, c, "or") || is_kw(t, c, "not") ||
		    is_kw(t, c, "when") || is_kw(t, c, "while") || is_kw(t, c, "until") ||
		    is_kw(t, c, "yield") || is_kw(t, c, "super") || is_kw(t, c, "defined?"))
			continue;
		char f = t->src[t->v[c].off];
		if (!((f >= 'a' && f <= 'z') || f == '_'))
			continue;
		rep->how = RH_FWD;
		rep->target = fl_tok_dup(t, c);
		return c;
	}
	return NONE;
}

/* Every `def NAME(p, ...)` of the file with what it does with p. */
static void collect_reporters(rbtree *r, const fl_toks *t, const size_t *m,
			      const char *path)
{
	for (size_t d = 0; d + 2 < t->n; d++) {
		if (!is_kw(t, d, "def") || !(t->v[d].flags & FL_TF_NL_BEFORE || d == 0))
			continue;
		size_t body = NONE;
		size_t p = def_param(t, m, d, &body);
		if (p == NONE || body >= t->n)
			continue;
		int dcol = t->v[d].col;
		size_t end = body;
		while (end < t->n && end - body < 4000 &&
		       !((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col <= dcol))
			end++;
		size_t nm = p - 1;
		while (nm > d && t->v[nm].kind != FL_TK_IDENT)
			nm--;
		rbrep rep = {0};
		bool whole = false;
		size_t c = def_uses(t, p, body, end, &rep, &whole);
		rep.named = (uint8_t)name_sev(t->src + t->v[nm].off, t->v[nm].len);
		/* a method whose name says no severity reports only when it
		 * hands p on whole, unconditionally: a statement of the
		 * body's top level without a modifier if/unless (`def
		 * gem(name); raise LoadError, "skipping #{name}" if x` is no
		 * reporter) */
		bool top = c != NONE && whole && (t->v[c].flags & FL_TF_NL_BEFORE) &&
			   t->v[c].col == t->v[body].col;
		if (top) {
			size_t le = line_end(t, m, c);
			for (size_t q = c; q < le; q++)
				if (is_kw(t, q, "if") || is_kw(t, q, "unless"))
					top = false;
		}
		if (rep.how == RH_NONE || (!rep.named && !top) ||
		    (rep.how == RH_FWD && !rep.named && strcmp(rep.target, "puts") == 0)) {
			free(rep.target);
			free(rep.cls);
			continue;
		}
		rep.name = fl_tok_dup(t, nm);
		rep.file = fl_xstrdup(path ? path : "");
		rep_add(r, &rep);
	}
}

/* What one definition reports: FL_S_*, "exit", or NULL (*cls: the class
 * it raises). */
static const char *rep_one(const rbtree *r, const rbrep *x, const char *path,
			   const char **cls, int depth);

/* A reporter's severity: FL_S_* of what it does, or NULL when name is no
 * reporter; RH_EXIT gives "exit".  *cls gets the class it raises (or NULL).
 * The definitions of the calling file (path) are asked first; the rest of
 * the tree only when the file defines no method of that name. */
static const char *rep_sev(const rbtree *r, const char *name, const char *path,
			   const char **cls, int depth)
{
	size_t k0;
	*cls = NULL;
	if (!r || depth > 8 || !fl_strmap_get(&r->idx, name, &k0))
		return NULL;
	for (int pass = 0; pass < 2; pass++) {
		bool here = false;
		const char *sev = NULL, *c1 = NULL;
		for (size_t k = k0; k != NONE; k = r->v[k].next) {
			const rbrep *x = &r->v[k];
			if (pass == 0 && (!path || strcmp(x->file, path) != 0))
				continue;
			here = true;
			const char *c = NULL;
			const char *s = rep_one(r, x, path, &c, depth);
			if (!s)
				continue;
			if (!sev) {
				sev = s;
				c1 = c;
				*cls = c;
			} else if (!c || !c1 || strcmp(c, c1) != 0) {
				/* methods of one name raising different
				 * classes: which one is called is unknown */
				*cls = NULL;
			}
		}
		if (here || sev)
			return sev;
	}
	return NULL;
}

static const char *rep_one(const rbtree *r, const rbrep *x, const char *path,
			   const char **cls, int depth)
{
	*cls = x->how == RH_RAISE ? x->cls : NULL;
	if (x->named && x->how != RH_EXIT)
		return x->named == 1 ? FL_S_ERROR : FL_S_WARNING;
	switch (x->how) {
	case RH_RAISE:
		return FL_S_ERROR;
	case RH_ABORT:
		return FL_S_CRITICAL;
	case RH_WARN:
		return FL_S_WARNING;
	case RH_EXIT:
		return "exit";
	case RH_FWD:
		if (strcmp(x->target, x->name) != 0)
			return rep_sev(r, x->target, path, cls, depth + 1);
		/* ui.alert_error statement inside alert_error: another
		 * definition of the same name, elsewhere in the tree */
		return rep_sev(r, x->target, NULL, cls, depth + 1);
	}
	return NULL;
}

static void rb_collect(void *tree, const fl_src *src)
{
	rbtree *r = tree;
	if (!r || !src->text || !src->len || !memmem(src->text, src->len, "def", 3))
		return;
	fl_toks t;
	fl_toks_init(&t, src);
	rb_lex(&t);
	size_t *m = fl_tok_match_table(&t, FL_MATCH_RECOVER);
	bool classes = has_class_default(src->text, src->len);
	for (size_t i = 0; classes && i < t.n && r->cls->n < 65536; i++) {
		rbclass rc;
		if (!is_kw(&t, i, "class") || !class_default_at(&t, m, i, &rc))
			continue;
		/* params "": the message is the class's own whatever the
		 * constructor gets (super "...", def message); NULL: it is
		 * only the default of a message parameter */
		char *name = fl_tok_dup(&t, rc.name);
		bool own = strcmp(rc.idiom, "class constructor initialize") != 0;
		fl_classdefs_add_params(r->cls, name, rc.msg, NULL, 0, own ? fl_xstrdup("") : NULL);
		free(name);
	}
	collect_reporters(r, &t, m, src->path);
	free(m);
	fl_toks_free(&t);
}

/* The message of raising class cls without one: the tree's default for
 * the class (by its last name), else the class's name. */
static char *class_default(const walker *w, const char *cls)
{
	const char *last = strrchr(cls, ':');
	last = last ? last + 1 : cls;
	const char *dm, *dc;
	int ds;
	if (w->tree && fl_classdefs_find(w->tree, last, &dm, &dc, &ds) && dm)
		return fl_xstrdup(dm);
	return fl_xstrdup(cls);
}

/* The class's default is a site of its own. */
static void class_site(walker *w, size_t i)
{
	rbclass rc;
	if (!class_default_at(w->t, w->m, i, &rc))
		return;
	char *cls = fl_tok_dup(w->t, rc.name);
	fl_site s = {0};
	s.line = w->t->v[rc.at].line;
	s.col = w->t->v[rc.at].col;
	s.message = rc.msg;
	s.cls = cls;
	s.type = FL_T_EXCEPTION;
	s.severity = FL_S_ERROR;
	s.function = cls;
	s.idiom = rc.idiom;
	fl_site_add(w->out, &s);
	free(cls);
	free(rc.msg);
}

static size_t arg_msgs(walker *w, size_t at, size_t b, size_t e, char **out);

/* The tree's message of class cls (by its last name) that its constructor
 * makes whatever its arguments (`def initialize(name); super "Unknown
 * command #{name}"`), or NULL. */
static char *known_default(const walker *w, const char *cls)
{
	const char *last = strrchr(cls, ':');
	last = last ? last + 1 : cls;
	const char *dm, *dc;
	int ds;
	if (w->tree && fl_classdefs_find(w->tree, last, &dm, &dc, &ds) && dm &&
	    fl_classdefs_params(w->tree, last))
		return fl_xstrdup(dm);
	return NULL;
}

static void do_raise(walker *w, size_t i, const char *idiom)
{
	const fl_toks *t = w->t;
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n == 0)
		return;
	char *cls = NULL, *msg = NULL;
	size_t a0b = st[0], a0e = en[0];
	size_t mb = NONE, me = NONE;
	bool ctor = false; /* mb is X.new's argument, not the message itself */
	if (a0e == a0b + 1 && t->v[a0b].kind == FL_TK_NUMBER) {
		/* fail(405, "Method Not Allowed"): not Kernel#fail (a status
		 * is no exception) but the project's own HTTP error reply */
		int st0 = 0;
		for (uint32_t q = 0; q < t->v[a0b].len && q < 4; q++) {
			char d = t->src[t->v[a0b].off + q];
			st0 = d >= '0' && d <= '9' ? st0 * 10 + (d - '0') : -1000;
		}
		if (t->v[a0b].len != 3)
			st0 = 0;
		if (st0 < 400 || st0 > 599 || n < 2)
			return;
		msg = rb_msg(t, st[1], en[1]);
		if (msg) {
			fl_site s = {0};
			s.line = t->v[i].line;
			s.col = t->v[i].col;
			s.message = msg;
			s.type = FL_T_HTTP;
			s.severity = st0 >= 500 ? FL_S_ERROR : FL_S_WARNING;
			s.http = st0;
			s.function = cur_function(w);
			char *g = cur_guard(w);
			s.guard = g;
			s.arm = cur_arm(w);
			s.idiom = idiom;
			fl_site_add(w->out, &s);
			free(g);
		}
		free(msg);
		return;
	}
	if (const_path(t, a0b, a0e)) {
		fl_buf b = {0};
		put_span(&b, t, a0b, a0e);
		cls = fl_xstrdup(fl_buf_cstr(&b));
		fl_buf_free(&b);
		if (n >= 2) {
			mb = st[1];
			me = en[1];
		} else {
			msg = class_default(w, cls);
		}
	} else {
		/* X.new(...) / X.new */
		size_t k = a0b;
		if (fl_tok_is(t, k, "::"))
			k++;
		while (k + 1 < a0e && t->v[k].kind == FL_TK_IDENT &&
		       fl_tok_is(t, k + 1, "::"))
			k += 2;
		if (k + 2 < a0e && fl_tok_is(t, k + 1, ".") &&
		    fl_tok_is(t, k + 2, "new") && const_path(t, a0b, k + 1)) {
			fl_buf b = {0};
			put_span(&b, t, a0b, k + 1);
			cls = fl_xstrdup(fl_buf_cstr(&b));
			fl_buf_free(&b);
			size_t p = k + 3;
			if (p == a0e) {
				msg = n >= 2 ? NULL : class_default(w, cls);
				if (n >= 2) {
					mb = st[1];
					me = en[1];
				}
			} else if (!is_p(t, p, '(') && !is_p(t, p, '.') &&
				   !(t->v[p].flags & FL_TF_NL_BEFORE)) {
				/* X.new "msg", arg: the command form */
				mb = p;
				me = a0e;
				ctor = true;
			} else if (is_p(t, p, '(') && w->m[p] != NONE &&
				   w->m[p] + 1 == a0e) {
				size_t s2[MAXARGS], e2[MAXARGS];
				size_t n2 = fl_tok_split(w->t, w->m, p + 1, w->m[p], s2, e2,
							MAXARGS);
				if (n2 == 0) {
					msg = class_default(w, cls);
				} else {
					mb = s2[0];
					me = e2[0];
					ctor = true;
				}
			}
		} else if (n >= 2) {
			mb = st[1];
			me = en[1];
		} else {
			mb = a0b;
			me = a0e;
			/* raise "msg" */
			bool lit = false;
			for (size_t q = a0b; q < a0e; q++)
				if (t->v[q].kind == FL_TK_STRING)
					lit = true;
			if (lit)
				cls = fl_xstrdup("RuntimeError");
		}
	}
	char *msgs[MAXVAR];
	size_t nm = 0;
	if (msg) {
		msgs[nm++] = msg;
	} else if (mb != NONE) {
		/* a literal, a local variable's messages, or (an argument
		 * the class's constructor makes its message of) the class's
		 * own message */
		nm = arg_msgs(w, i, mb, me, msgs);
		if (!nm && ctor && cls && (msgs[0] = known_default(w, cls)))
			nm = 1;
	}
	char *g = nm ? modifier_guard(w, after) : NULL;
	for (size_t q = 0; q < nm; q++) {
		emit(w, i, msgs[q], cls, FL_T_EXCEPTION, FL_S_ERROR, g, idiom);
		free(msgs[q]);
	}
	free(g);
	free(cls);
}

static void do_abort(walker *w, size_t i)
{
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n == 0)
		return;
	char *msg = rb_msg(w->t, st[0], en[0]);
	if (msg) {
		char *g = modifier_guard(w, after);
		emit(w, i, msg, NULL, FL_T_CONSOLE, FL_S_CRITICAL, g, "abort");
		free(g);
	}
	free(msg);
}

/* errors.add(:field, "msg") / errors.add(:base, :invalid, message: "m") */
static void do_errors_add(walker *w, size_t recv, size_t i)
{
	const fl_toks *t = w->t;
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n < 2)
		return;
	char *msg = NULL;
	for (size_t k = 1; k < n && !msg; k++) {
		size_t b = st[k];
		if (en[k] > b + 2 && t->v[b].kind == FL_TK_IDENT &&
		    fl_tok_is(t, b, "message") && is_p(t, b + 1, ':')) {
			msg = rb_msg(t, b + 2, en[k]);
		} else if (k == 1) {
			msg = rb_msg(t, b, en[k]);
		}
	}
	if (msg) {
		char *g = modifier_guard(w, after);
		emit(w, recv, msg, NULL, FL_T_VALIDATION, FL_S_WARNING, g,
		     "errors.add");
		free(g);
	}
	free(msg);
}

/* A logger: logger, @logger, Rails.logger, LOGGER, log, @log (the token
 * before ".error"). */
static bool logger_recv(const fl_toks *t, size_t k)
{
	if (t->v[k].kind != FL_TK_IDENT)
		return false;
	const char *s = t->src + t->v[k].off;
	size_t n = t->v[k].len;
	while (n && *s == '@') {
		s++;
		n--;
	}
	static const char *const names[] = {"logger", "LOGGER", "log", "LOG", NULL};
	for (const char *const *x = names; *x; x++)
		if (strlen(*x) == n && memcmp(s, *x, n) == 0)
			return true;
	return false;
}

/* A logger topic: "Error:", "Build Warning:", "" -- blank, or one line
 * ending in ':' (the text after it follows as the next argument). */
static bool topic_label(const char *m)
{
	size_t n = strlen(m);
	while (n && (m[n - 1] == ' ' || m[n - 1] == '\t'))
		n--;
	if (n == 0)
		return true;
	return m[n - 1] == ':' && n <= 40 && !memchr(m, '\n', n);
}

/* logger.error("msg"), logger.warn { "msg" }, warn "msg": the message is
 * the first argument, or the block's value.  ($stderr.puts is not one:
 * scripts print their usage and progress with it.) */
static void do_log(walker *w, size_t at, size_t i, const char *sev, const char *idiom)
{
	const fl_toks *t = w->t;
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n == 0)
		return;
	size_t b = st[0], e = en[0];
	if (is_p(t, b, '{') && w->m[b] != NONE && w->m[b] + 1 == e) {
		/* the block form: its only expression */
		b++;
		e--;
	}
	if (b >= e || (t->v[b].kind != FL_TK_STRING && !is_p(t, b, '(')))
		return; /* a variable or a call: no text of its own */
	char *msg = rb_msg(t, b, e);
	if (at != i && n >= 2 && (!msg || topic_label(msg))) {
		/* Jekyll's logger: `Jekyll.logger.warn "Deprecation:",
		 * "message"` logs the topic and the message on one line; a
		 * topic alone (the message a variable) is no message */
		char *m2 = t->v[st[1]].kind == FL_TK_STRING || is_p(t, st[1], '(')
				   ? rb_msg(t, st[1], en[1])
				   : NULL;
		char *joined = NULL;
		if (m2 && *m2)
			joined = msg && *msg ? fl_xasprintf("%s %s", msg, m2) : fl_xstrdup(m2);
		free(m2);
		free(msg);
		msg = joined;
	}
	if (msg) {
		char *g = modifier_guard(w, after);
		emit(w, at, msg, NULL, FL_T_CONSOLE, sev, g, idiom);
		free(g);
	}
	free(msg);
}

/* ---- messages held in a local variable ---------------------------------------
 * `msg = "..."; msg << "..."; raise X, msg`: the messages a local variable
 * holds where it is used, from the statements of the enclosing method
 * before the use.  `var = "..."` (also `String.new "..."`) sets it; `var =
 * case/if ... end` sets one per arm (each a message of its own); `var <<
 * "..."` and `var += "..."` at the level of the assignment append, and one
 * that is conditional (deeper, or with a modifier if/unless) ends what is
 * known (the message goes on at run time).  A parameter, a block or rescue
 * binding, or an assignment that is no message make it unknown. */


/* The string-led statements of a `case`/`if` expression starting at b,
 * down to the first line at column col or less: its arms' values. */
static size_t arm_msgs(walker *w, size_t b, int col, size_t at, char **out, size_t n)
{
	const fl_toks *t = w->t;
	for (size_t k = b + 1; k < at && n < MAXVAR; k++) {
		if ((t->v[k].flags & FL_TF_NL_BEFORE) && t->v[k].col <= col)
			break;
		if (t->v[k].kind != FL_TK_STRING || !(t->v[k].flags & FL_TF_NL_BEFORE))
			continue;
		size_t e = stmt_end(w, k, true);
		if (e == NONE || e > at)
			break;
		char *m = rb_msg(t, k, e);
		bool dup = false;
		for (size_t q = 0; m && q < n; q++)
			dup = dup || strcmp(out[q], m) == 0;
		if (m && !dup)
			out[n++] = m;
		else
			free(m);
		k = e - 1;
	}
	return n;
}

/* The message of an assigned or appended expression [b, e): String.new
 * "..." and String.new("...") are their literal. */
#define ARR_SEP '\x1e' /* between the elements of an array's messages */

/* [ "a", "b" ]: the elements' messages joined by ARR_SEP (what a
 * `#{x.join}` placeholder joins), or NULL when an element is no message. */
static char *array_msg(walker *w, size_t b, size_t e)
{
	const fl_toks *t = w->t;
	if (!is_p(t, b, '[') || w->m[b] != e - 1)
		return NULL;
	size_t st[16], en[16];
	size_t n = fl_tok_split(t, w->m, b + 1, e - 1, st, en, 16);
	if (n == 0 || n == 16)
		return NULL;
	fl_buf out = {0};
	for (size_t k = 0; k < n; k++) {
		char *m = t->v[st[k]].kind == FL_TK_STRING ? rb_msg(t, st[k], en[k]) : NULL;
		if (!m || strchr(m, ARR_SEP)) {
			free(m);
			fl_buf_free(&out);
			return NULL;
		}
		if (k)
			fl_buf_putc(&out, ARR_SEP);
		fl_buf_puts(&out, m);
		free(m);
	}
	fl_buf_cstr(&out);
	return out.s;
}

static size_t var_msgs_in(walker *w, size_t d, size_t at, size_t var, char **out,
			  int depth);

/* msg (taken over) with each placeholder of a local variable of the
 * method at d that holds one message (`gem = "'#{name}' (#{version})"`
 * then "Could not find a valid gem #{gem}") replaced by that message;
 * `#{x.join}` / `#{x.join("\n")}` join an array's messages. */
static char *expand_locals(walker *w, size_t d, size_t at, char *msg, int depth)
{
	const fl_toks *t = w->t;
	if (!msg || depth > 2 || d == NONE || !strchr(msg, '{'))
		return msg;
	fl_buf out = {0};
	bool changed = false;
	for (const char *p = msg; *p;) {
		const char *q = p + 1;
		while (*p == '{' && ((*q >= 'a' && *q <= 'z') || *q == '_' ||
				     (q > p + 1 && *q >= '0' && *q <= '9')))
			q++;
		size_t nl = (size_t)(q - p - 1);
		const char *sep = NULL;
		size_t sepl = 0;
		const char *close = NULL;
		if (*p == '{' && nl && nl < 64) {
			if (*q == '}') {
				close = q;
			} else if (strncmp(q, ".join}", 6) == 0) {
				sep = "";
				close = q + 5;
			} else if (strncmp(q, ".join(\"", 7) == 0 || strncmp(q, ".join('", 7) == 0) {
				const char *se = strchr(q + 7, q[6]);
				if (se && se[1] == ')' && se[2] == '}') {
					sep = q + 7;
					sepl = (size_t)(se - sep);
					close = se + 2;
				}
			}
		}
		size_t k = NONE;
		for (size_t j = d + 1; close && j < at && j < t->n; j++)
			if (t->v[j].kind == FL_TK_IDENT && t->v[j].len == nl &&
			    memcmp(t->src + t->v[j].off, p + 1, nl) == 0 &&
			    (t->v[j].flags & FL_TF_NL_BEFORE) && is_p(t, j + 1, '=') &&
			    t->v[j + 1].len == 1) {
				k = j;
				break;
			}
		char *vals[MAXVAR];
		size_t n = k != NONE ? var_msgs_in(w, d, at, k, vals, depth + 1) : 0;
		if (n == 1 && (sep || !strchr(vals[0], ARR_SEP))) {
			for (const char *v = vals[0]; *v; v++) {
				if (*v != ARR_SEP)
					fl_buf_putc(&out, *v);
				else if (sepl == 2 && sep[0] == '\\' && sep[1] == 'n')
					fl_buf_putc(&out, '\n');
				else
					fl_buf_put(&out, sep, sepl);
			}
			changed = true;
			p = close + 1;
		} else {
			fl_buf_putc(&out, *p++);
		}
		for (size_t q2 = 0; q2 < n; q2++)
			free(vals[q2]);
	}
	if (!changed) {
		fl_buf_free(&out);
		return msg;
	}
	free(msg);
	fl_buf_cstr(&out);
	return out.s;
}

static char *assigned_msg(walker *w, size_t b, size_t e)
{
	const fl_toks *t = w->t;
	char *arr = array_msg(w, b, e);
	if (arr)
		return arr;
	if (e > b + 3 && fl_tok_is(t, b, "String") && is_p(t, b + 1, '.') &&
	    fl_tok_is(t, b + 2, "new")) {
		b += 3;
		if (is_p(t, b, '(') && w->m[b] == e - 1) {
			b++;
			e--;
		}
	}
	return e > b ? rb_msg(t, b, e) : NULL;
}

static size_t method_msgs(walker *w, size_t name, char **out, int depth);

/* var_msgs() in the method whose `def` is token d. */
static size_t var_msgs_in(walker *w, size_t d, size_t at, size_t var, char **out,
			  int depth)
{
	const fl_toks *t = w->t;
	if (d == NONE || at <= d || at - d > 20000)
		return 0;
	const fl_tok *v = &t->v[var];
	char c0 = t->src[v->off];
	if (!((c0 >= 'a' && c0 <= 'z') || c0 == '_'))
		return 0;
	size_t n = 0;
	bool bad = false, open = true;
	int acol = -1;
	/* the def's header: its name and parameters (which may span lines) */
	size_t hdr = d + 2;
	if (hdr + 1 < t->n && is_p(t, hdr, '.'))
		hdr += 2;
	if (hdr < t->n && is_p(t, hdr, '(') && w->m[hdr] != NONE)
		hdr = w->m[hdr] + 1;
	else
		hdr = line_end(t, w->m, d);
	for (size_t k = d + 1; k < at && !bad; k++) {
		if (!same_tok(t, k, var) || t->v[k].kind != FL_TK_IDENT)
			continue;
		if (k < hdr) {
			bad = true; /* a parameter */
			break;
		}
		bool stmt = (t->v[k].flags & FL_TF_NL_BEFORE) || is_p(t, k - 1, ';');
		if (!stmt) {
			/* a parameter, |x| or => x binding, or x = inside an expression */
			bool rescued = false;
			if (fl_tok_is(t, k - 1, "=>"))
				for (size_t q = k - 1; q > d && t->v[q].line == t->v[k].line; q--)
					rescued = rescued || is_kw(t, q, "rescue");
			/* |msg| or |a, msg|: a block's parameter (not |x| msg << ...) */
			if ((is_p(t, k - 1, '|') && (is_p(t, k + 1, '|') || is_p(t, k + 1, ','))) ||
			    (is_p(t, k - 1, ',') && is_p(t, k + 1, '|')) ||
			    rescued || (is_p(t, k + 1, '=') && t->v[k + 1].len == 1) ||
			    t->v[k].line == t->v[d].line)
				bad = true;
			continue;
		}
		if (is_p(t, k + 1, '=') && t->v[k + 1].len == 1) {
			/* a new value */
			for (size_t q = 0; q < n; q++)
				free(out[q]);
			n = 0;
			open = true;
			acol = t->v[k].col;
			size_t b = k + 2;
			if (is_kw(t, b, "case") || is_kw(t, b, "if") || is_kw(t, b, "unless")) {
				n = arm_msgs(w, b, acol, at, out, 0);
				if (!n)
					bad = true;
				open = false;
				continue;
			}
			size_t e = stmt_end(w, b, true);
			if (e == NONE || e > at) {
				bad = true;
				break;
			}
			bool modifier = e < t->n && !(t->v[e].flags & FL_TF_NL_BEFORE) &&
					(is_kw(t, e, "if") || is_kw(t, e, "unless"));
			char *m = modifier ? NULL /* var = "..." if x: maybe unset */
					   : assigned_msg(w, b, e);
			if (m) {
				out[n++] = m;
			} else if (t->v[b].kind == FL_TK_IDENT &&
				   (e == b + 1 || (is_p(t, b + 1, '(') && w->m[b + 1] == e - 1))) {
				/* var = helper(...): what the file's method returns */
				n = method_msgs(w, b, out, depth + 1);
				open = n > 0;
				bad = n == 0;
			} else {
				bad = true;
			}
			k = e - 1;
		} else if (fl_tok_is(t, k + 1, "<<") || fl_tok_is(t, k + 1, "+=")) {
			size_t b = k + 2, e = stmt_end(w, b, true);
			if (e == NONE || e > at || !n) {
				bad = !n;
				open = false;
				continue;
			}
			bool modifier = e < t->n && !(t->v[e].flags & FL_TF_NL_BEFORE) &&
					(is_kw(t, e, "if") || is_kw(t, e, "unless"));
			char *m = open && t->v[k].col == acol && !modifier
				  ? assigned_msg(w, b, e)
				  : NULL;
			if (!m) {
				open = false;
			} else {
				for (size_t q = 0; q < n; q++) {
					char *j = fl_xasprintf("%s%s", out[q], m);
					free(out[q]);
					out[q] = j;
				}
			}
			free(m);
			k = e - 1;
		} else if (t->v[k + 1].kind == FL_TK_PUNCT && t->v[k + 1].len >= 2 &&
			   t->src[t->v[k + 1].off + t->v[k + 1].len - 1] == '=' &&
			   !fl_tok_is(t, k + 1, "==") && !fl_tok_is(t, k + 1, "!=")) {
			bad = true; /* ||=, -=: not a message any more */
		}
	}
	if (bad) {
		for (size_t q = 0; q < n; q++)
			free(out[q]);
		n = 0;
	}
	for (size_t q = 0; q < n; q++)
		out[q] = expand_locals(w, d, at, out[q], depth);
	return n;
}

static size_t var_msgs(walker *w, size_t at, size_t var, char **out)
{
	size_t d = NONE;
	for (size_t k = w->nblk; k-- > 0;)
		if (w->blk[k].kind == B_DEF) {
			d = w->blk[k].kw;
			break;
		}
	return var_msgs_in(w, d, at, var, out, 0);
}

/* The messages a method of the file returns (`def error_message; if x;
 * "..."; else; "..."; end; end`, `def not_found(name); message =
 * String.new("..."); ...; message; end`): its last statement's text, its
 * arms' texts, or the messages of the local variable it is.  The method
 * is the file's one `def` of name (token); two give nothing. */
static size_t method_msgs(walker *w, size_t name, char **out, int depth)
{
	const fl_toks *t = w->t;
	if (depth > 2)
		return 0;
	size_t d = NONE;
	for (size_t k = 0; k + 1 < t->n; k++)
		if (is_kw(t, k, "def") && same_tok(t, k + 1, name) && !is_p(t, k + 2, '.')) {
			if (d != NONE)
				return 0;
			d = k;
		}
	if (d == NONE)
		return 0;
	size_t body = d + 2;
	if (is_p(t, body, '(') && t->v[body].off == t->v[d + 1].off + t->v[d + 1].len) {
		if (w->m[body] == NONE)
			return 0;
		body = w->m[body] + 1;
	} else if (body < t->n && !(t->v[body].flags & FL_TF_NL_BEFORE)) {
		body = line_end(t, w->m, d + 1);
	}
	if (body >= t->n || !(t->v[body].flags & FL_TF_NL_BEFORE) ||
	    t->v[body].col <= t->v[d].col)
		return 0;
	int bcol = t->v[body].col;
	size_t end = body, last = body;
	while (end < t->n && end - body < 20000 &&
	       !((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col <= t->v[d].col)) {
		if ((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col == bcol &&
		    !is_kw(t, end, "end") && !is_kw(t, end, "else") &&
		    !is_kw(t, end, "elsif") && !is_kw(t, end, "when") &&
		    !is_kw(t, end, "rescue") && !is_kw(t, end, "ensure"))
			last = end;
		end++;
	}
	if (is_kw(t, last, "return"))
		last++;
	if (last >= end)
		return 0;
	if (is_kw(t, last, "if") || is_kw(t, last, "case") || is_kw(t, last, "unless"))
		return arm_msgs(w, last, bcol - 1, end, out, 0);
	size_t e = stmt_end(w, last, true);
	if (e == NONE || e > end)
		return 0;
	if (t->v[last].kind == FL_TK_STRING) {
		char *m = expand_locals(w, d, last, rb_msg(t, last, e), depth);
		out[0] = m;
		return m ? 1 : 0;
	}
	if (e == last + 1 && t->v[last].kind == FL_TK_IDENT)
		return var_msgs_in(w, d, last, last, out, depth);
	return 0;
}

/* The messages of argument [b, e): its text, or the messages of the local
 * variable it is, or of the file's method it calls.  Returns the count
 * (out[0] the text). */
static size_t arg_msgs(walker *w, size_t at, size_t b, size_t e, char **out)
{
	char *m = b < e ? rb_msg(w->t, b, e) : NULL;
	size_t n = 0;
	if (m) {
		size_t d = NONE;
		for (size_t k = w->nblk; k-- > 0 && d == NONE;)
			if (w->blk[k].kind == B_DEF)
				d = w->blk[k].kw;
		out[n++] = expand_locals(w, d, at, m, 0);
	} else if (e == b + 1 && w->t->v[b].kind == FL_TK_IDENT) {
		n = var_msgs(w, at, b, out);
		if (!n)
			n = method_msgs(w, b, out, 1);
	}
	/* an array itself is no message (only its join is) */
	size_t k2 = 0;
	for (size_t q = 0; q < n; q++) {
		if (strchr(out[q], ARR_SEP))
			free(out[q]);
		else
			out[k2++] = out[q];
	}
	return k2;
}

/* A call of one of the tree's reporters at i (rbtree): `alert_error "..."`,
 * `Bundler.ui.warn "..."`, `error "..." if x`, `warning(message)`. */
static bool do_report(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	if (!w->rep || t->v[i].kind != FL_TK_IDENT)
		return false;
	char c0 = t->src[t->v[i].off];
	if (!((c0 >= 'a' && c0 <= 'z') || c0 == '_') || is_p(t, i + 1, ':') ||
	    is_p(t, i + 1, '.') || fl_tok_is(t, i + 1, "&.") ||
	    (is_p(t, i + 1, '=') && t->v[i + 1].len == 1))
		return false;
	size_t r = i;
	if (i > 0 && (is_p(t, i - 1, '.') || fl_tok_is(t, i - 1, "&."))) {
		r = i - 1;
		while (r >= 1 && t->v[r - 1].kind == FL_TK_IDENT && i - r < 12) {
			r--;
			if (r >= 1 && (is_p(t, r - 1, '.') || fl_tok_is(t, r - 1, "::")))
				r--;
			else
				break;
		}
		if (is_p(t, r, '.'))
			return false;
	} else if (i > 0 && !(t->v[i].flags & FL_TF_NL_BEFORE) && !is_p(t, i - 1, ';') &&
		   !is_p(t, i - 1, '{') && !is_p(t, i - 1, '|') &&
		   !is_kw(t, i - 1, "then") && !is_kw(t, i - 1, "else") &&
		   !is_kw(t, i - 1, "do") && !is_kw(t, i - 1, "begin") &&
		   !is_kw(t, i - 1, "and") && !is_kw(t, i - 1, "or")) {
		return false;
	}
	if (i > 0 && is_kw(t, i - 1, "def"))
		return false;
	/* a bare call is self's method: the file's own definition first;
	 * one on a receiver (Bundler.ui.error) any of the tree's */
	char *name = fl_tok_dup(t, i);
	const char *cls = NULL;
	const char *sev = rep_sev(w->rep, name, r == i ? w->path : NULL, &cls, 0);
	free(name);
	if (!sev || strcmp(sev, "exit") == 0)
		return false;
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n == 0)
		return true;
	size_t b = st[0], e = en[0];
	if (!(t->v[b].kind == FL_TK_STRING || is_p(t, b, '(') ||
	      (e == b + 1 && t->v[b].kind == FL_TK_IDENT)))
		return true;
	char *msgs[MAXVAR];
	size_t nm = arg_msgs(w, i, b, e, msgs);
	char *g = nm ? modifier_guard(w, after) : NULL;
	char *idiom = fl_tok_span_text(t, r, i + 1, 48);
	for (size_t q = 0; q < nm; q++) {
		emit(w, r, msgs[q], cls, cls ? FL_T_EXCEPTION : FL_T_CONSOLE, sev, g, idiom);
		free(msgs[q]);
	}
	free(idiom);
	free(g);
	return true;
}

/* Whether the statements after `after` (the end of a print's arguments)
 * end the program with a failure: `exit 1`, `exit false`, `exit!`,
 * `abort`, or a call of the tree's exiting methods with a status other
 * than 0 (`terminate_interaction 1`), with only other prints between. */
static bool exits_after(walker *w, size_t after)
{
	const fl_toks *t = w->t;
	size_t k = after;
	for (int stmts = 0; stmts < 4 && k < t->n; stmts++) {
		if (is_kw(t, k, "if") || is_kw(t, k, "unless")) {
			size_t e = stmt_end(w, k + 1, false);
			if (e == NONE)
				return false;
			k = e;
		}
		if (is_p(t, k, ';'))
			k++;
		if (k >= t->n || (k > after && !(t->v[k].flags & FL_TF_NL_BEFORE) &&
				  !is_p(t, k - 1, ';')))
			return false;
		if (t->v[k].kind != FL_TK_IDENT)
			return false;
		if (is_kw(t, k, "abort") || fl_tok_is(t, k, "exit!"))
			return true;
		bool ex = is_kw(t, k, "exit");
		if (!ex && w->rep) {
			char *name = fl_tok_dup(t, k);
			const char *cls = NULL;
			const char *s = rep_sev(w->rep, name, w->path, &cls, 0);
			ex = s && strcmp(s, "exit") == 0;
			free(name);
		}
		bool print = fl_tok_is(t, k, "say") || fl_tok_is(t, k, "puts");
		size_t st[MAXARGS], en[MAXARGS], n, a2;
		if (!call_args(w, k, st, en, &n, &a2))
			return false;
		if (ex) /* no status: exit's and the exiting methods' default, 0 */
			return n > 0 && !(en[0] == st[0] + 1 &&
					  (fl_tok_is(t, st[0], "0") || fl_tok_is(t, st[0], "true")));
		if (!print)
			return false;
		k = a2;
	}
	return false;
}

/* `say "..."` / `puts "..."` that the program exits with a failure right
 * after: an error printed as normal output (RubyGems' `say "No gems found
 * matching ..."; terminate_interaction 1`).  A print not followed by such
 * an exit is normal output. */
static void do_print_exit(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	if (i > 0 && (is_kw(t, i - 1, "def") || is_p(t, i - 1, ':')))
		return;
	size_t r = i;
	if (i > 0 && is_p(t, i - 1, '.')) {
		/* $stderr.puts, STDERR.puts, ui.say */
		if (i < 2 || t->v[i - 2].kind != FL_TK_IDENT)
			return;
		r = i - 2;
	}
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n != 1 ||
	    t->v[st[0]].kind != FL_TK_STRING)
		return;
	if (!exits_after(w, after))
		return;
	char *msg = rb_msg(t, st[0], en[0]);
	if (msg) {
		char *g = modifier_guard(w, after);
		char *idiom = fl_tok_span_text(t, r, i + 1, 48);
		emit(w, r, msg, NULL, FL_T_CONSOLE, FL_S_ERROR, g, idiom);
		free(idiom);
		free(g);
	}
	free(msg);
}

/* ---- block tracking ----------------------------------------------------------- */

/* does the keyword at i start a statement (block form, not modifier)? */
static bool stmt_position(const fl_toks *t, size_t i)
{
	if (i == 0 || (t->v[i].flags & FL_TF_NL_BEFORE))
		return true;
	const fl_tok *p = &t->v[i - 1];
	if (p->kind == FL_TK_PUNCT)
		return !fl_tok_is_closer(t, i - 1);
	if (p->kind == FL_TK_IDENT) {
		static const char *const k[] = {"then", "else", "do", "begin",
						"and",  "or",   "not", "in",
						"when", "elsif", "unless", "if",
						NULL};
		for (const char *const *q = k; *q; q++)
			if (fl_tok_is(t, i - 1, *q))
				return true;
	}
	return false;
}

/* condition of if/unless/while/until/when at i: [i+1, end) */
static size_t cond_end(walker *w, size_t i, bool loop)
{
	const fl_toks *t = w->t;
	size_t k = i + 1;
	while (k < t->n) {
		if (k - i > SCAN_CAP)
			break;
		if (k > i + 1 && (t->v[k].flags & FL_TF_NL_BEFORE) &&
		    !cont_token(t, k - 1))
			break;
		if (is_kw(t, k, "if") || is_kw(t, k, "unless") ||
		    is_kw(t, k, "while") || is_kw(t, k, "until") ||
		    is_kw(t, k, "raise") || is_kw(t, k, "fail") ||
		    is_kw(t, k, "abort") || is_kw(t, k, "def") ||
		    is_kw(t, k, "class") || is_kw(t, k, "end") ||
		    is_kw(t, k, "when") || is_kw(t, k, "elsif"))
			break;
		if (is_p(t, k, ';') || is_kw(t, k, "then") || fl_tok_is_closer(t, k))
			break;
		if (loop && is_kw(t, k, "do")) {
			w->skip_do = k;
			break;
		}
		if (fl_tok_is_opener(t, k)) {
			if (w->m[k] == NONE)
				break;
			k = w->m[k] + 1;
			continue;
		}
		k++;
	}
	return k;
}

static void track(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	if (t->v[i].kind != FL_TK_IDENT)
		return;
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	char c0 = s[0];
	if (!(c0 >= 'a' && c0 <= 'z'))
		return;
	rbblk b = {0};
	b.kw = i;
	if (is_kw(t, i, "end")) {
		if (w->nblk)
			w->nblk--;
	} else if (is_kw(t, i, "class") || is_kw(t, i, "module")) {
		if (fl_tok_is(t, i + 1, "<<")) {
			b.kind = B_SCLASS;
		} else {
			b.kind = n == 5 ? B_CLASS : B_MODULE;
			size_t k = i + 1;
			b.nb = k;
			while (k < t->n && k - i < 32 &&
			       (t->v[k].kind == FL_TK_IDENT ||
				fl_tok_is(t, k, "::")) &&
			       !(k > i + 1 && (t->v[k].flags & FL_TF_NL_BEFORE)))
				k++;
			b.ne = k;
			if (b.ne == b.nb)
				return; /* `Foo.class` style or junk */
		}
		blk_push(w, b);
	} else if (is_kw(t, i, "def")) {
		size_t k = i + 1;
		if (k >= t->n)
			return;
		b.kind = B_DEF;
		if (k + 2 < t->n && fl_tok_is(t, k + 1, ".") &&
		    t->v[k].kind == FL_TK_IDENT) {
			b.singleton = true;
			k += 2;
		}
		b.nb = k;
		b.ne = k + 1;
		/* operator names: [] []= and the like */
		if (is_p(t, k, '[') && is_p(t, k + 1, ']')) {
			b.ne = k + 2;
			if (is_p(t, k + 2, '=') &&
			    t->v[k + 2].off == t->v[k + 1].off + 1)
				b.ne = k + 3;
		}
		/* setter name=  */
		if (k + 1 < t->n && is_p(t, k + 1, '=') &&
		    t->v[k + 1].off == t->v[k].off + t->v[k].len &&
		    is_p(t, k + 2, '('))
			b.ne = k + 2;
		size_t q = b.ne;
		if (is_p(t, q, '(') && w->m[q] != NONE)
			q = w->m[q] + 1;
		if (q < t->n && is_p(t, q, '=') &&
		    !(t->v[q].flags & FL_TF_NL_BEFORE))
			return; /* endless def */
		blk_push(w, b);
	} else if ((is_kw(t, i, "if") || is_kw(t, i, "unless") ||
		    is_kw(t, i, "while") || is_kw(t, i, "until")) &&
		   stmt_position(t, i)) {
		bool loop = s[0] == 'w' || (s[0] == 'u' && s[2] == 't');
		b.kind = B_COND;
		b.cb = i + 1;
		b.ce = cond_end(w, i, loop);
		b.neg = s[0] == 'u';
		blk_push(w, b);
	} else if (is_kw(t, i, "elsif")) {
		if (w->nblk && w->blk[w->nblk - 1].kind == B_COND) {
			rbblk *p = &w->blk[w->nblk - 1];
			p->cb = i + 1;
			p->ce = cond_end(w, i, false);
			p->neg = false;
		}
	} else if (is_kw(t, i, "else")) {
		if (w->nblk && (w->blk[w->nblk - 1].kind == B_COND ||
				w->blk[w->nblk - 1].kind == B_CASE)) {
			w->blk[w->nblk - 1].ce = w->blk[w->nblk - 1].cb;
		}
	} else if (is_kw(t, i, "when") ||
		   (is_kw(t, i, "in") && (t->v[i].flags & FL_TF_NL_BEFORE))) {
		if (w->nblk && w->blk[w->nblk - 1].kind == B_CASE) {
			rbblk *p = &w->blk[w->nblk - 1];
			p->cb = i + 1;
			p->ce = cond_end(w, i, false);
		}
	} else if (is_kw(t, i, "case")) {
		b.kind = B_CASE;
		blk_push(w, b);
	} else if (is_kw(t, i, "begin") || is_kw(t, i, "for")) {
		if (s[0] == 'f')
			cond_end(w, i, true);
		b.kind = B_OTHER;
		blk_push(w, b);
	} else if (is_kw(t, i, "do")) {
		if (w->skip_do == i)
			return;
		b.kind = B_OTHER;
		blk_push(w, b);
	}
}

static void scan(const void *tree, const fl_src *src, fl_sites *out)
{
	fl_toks t;
	fl_toks_init(&t, src);
	rb_lex(&t);
	walker w = {0};
	w.t = &t;
	w.m = fl_tok_match_table(&t, FL_MATCH_RECOVER);
	w.out = out;
	w.skip_do = NONE;
	w.tree = tree ? ((const rbtree *)tree)->cls : NULL;
	w.rep = tree;
	w.path = src->path;
	bool classes = src->text && has_class_default(src->text, src->len);
	for (size_t i = 0; i < t.n; i++) {
		if (t.v[i].kind != FL_TK_IDENT)
			continue;
		if (classes && is_kw(&t, i, "class"))
			class_site(&w, i);
		if (is_kw(&t, i, "raise")) {
			do_raise(&w, i, "raise");
		} else if (is_kw(&t, i, "fail")) {
			do_raise(&w, i, "fail");
		} else if (fl_tok_is(&t, i, "abort") &&
			   (i == 0 || !(fl_tok_is(&t, i - 1, ".") ||
					fl_tok_is(&t, i - 1, "def") ||
					fl_tok_is(&t, i - 1, "&."))) &&
			   !(is_p(&t, i + 1, ':'))) {
			do_abort(&w, i);
		} else if (i >= 2 && fl_tok_is(&t, i - 1, ".") && logger_recv(&t, i - 2) &&
			   (fl_tok_is(&t, i, "error") || fl_tok_is(&t, i, "fatal") ||
			    fl_tok_is(&t, i, "warn"))) {
			size_t r = i - 2;
			while (r >= 2 && fl_tok_is(&t, r - 1, ".") &&
			       t.v[r - 2].kind == FL_TK_IDENT && i - r < 8)
				r -= 2;
			const char *sev = fl_tok_is(&t, i, "warn") ? FL_S_WARNING
					  : fl_tok_is(&t, i, "fatal") ? FL_S_CRITICAL : FL_S_ERROR;
			char idiom[24];
			snprintf(idiom, sizeof idiom, "logger.%.*s", (int)t.v[i].len, t.src + t.v[i].off);
			do_log(&w, r, i, sev, idiom);
		} else if (fl_tok_is(&t, i, "warn") &&
			   (i == 0 || !(fl_tok_is(&t, i - 1, ".") || fl_tok_is(&t, i - 1, "def") ||
					fl_tok_is(&t, i - 1, "&."))) &&
			   !is_p(&t, i + 1, ':') && !is_p(&t, i + 1, '=')) {
			do_log(&w, i, i, FL_S_WARNING, "warn");
		} else if (fl_tok_is(&t, i, "errors") && fl_tok_is(&t, i + 1, ".") &&
			   fl_tok_is(&t, i + 2, "add")) {
			size_t r = i;
			while (r >= 2 && fl_tok_is(&t, r - 1, ".") &&
			       t.v[r - 2].kind == FL_TK_IDENT && i - r < 8)
				r -= 2;
			do_errors_add(&w, r, i + 2);
		} else if (fl_tok_is(&t, i, "say") || fl_tok_is(&t, i, "puts")) {
			do_print_exit(&w, i);
		} else {
			do_report(&w, i);
		}
		track(&w, i);
	}
	free(w.blk);
	fl_buf_free(&w.fn);
	free((void *)w.m);
	fl_toks_free(&t);
}

static bool is_test_file(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n < 3 || strcmp(b + n - 3, ".rb") != 0)
		return false;
	if (strncmp(b, "test_", 5) == 0)
		return true;
	return (n > 8 && strcmp(b + n - 8, "_spec.rb") == 0) ||
	       (n > 8 && strcmp(b + n - 8, "_test.rb") == 0);
}

const fl_lang fl_lang_ruby = {.name = "ruby",
			      .extensions = exts,
			      .is_test_file = is_test_file,
			      .tree_new = rb_tree_new,
			      .tree_free = rb_tree_free,
			      .collect = rb_collect,
			      .tree_merge = rb_tree_merge,
			      .scan = scan};
