/*
 * lex.c — the PHP lexer (lib/scan/php/, php.h): only code inside
 * <?php ... ?> / <?= ... ?> is code; //, # and block comments (`#[` is an
 * attribute); '..' (\' and \\ only), ".." and heredoc with escapes and
 * interpolation ($var, {$expr}, ${expr} become {var} / {expr}), nowdoc,
 * indented closing markers (PHP 7.3+).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "php.h"

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

void php_lex(fl_toks *t)
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
