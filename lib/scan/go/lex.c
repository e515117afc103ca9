/*
 * lex.c — the Go lexer (see go.h)
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "go.h"

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

void go_lex(fl_toks *t)
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

