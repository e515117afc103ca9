/*
 * lex.c — the Rust family's lexer (rust.h): nested block comments, cooked
 * strings (escapes decoded, a backslash-newline continuation skipping the
 * next line's indentation), raw strings r#"..."#, byte and C strings (b"",
 * br"", c"", cr""), char literals told from lifetimes, raw identifiers
 * r#x, and the multi-byte operators the rules read.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>

#include "rust.h"

static bool rs_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

static bool rs_ident_byte(int c)
{
	return rs_ident_start(c) || (c >= '0' && c <= '9');
}

/* cooked string; t->pos at the opening quote, token starts at start */
static void rs_cooked(fl_toks *t, size_t start, int line, int col, int flags)
{
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, 0, line, col);
	tok->flags |= (uint8_t)flags;
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
		if (c == '\\') {
			int n1 = fl_lx_peek(t, 1);
			if (n1 == '\n' || (n1 == '\r' && fl_lx_peek(t, 2) == '\n')) {
				/* continuation: skip newline and leading ws */
				t->pos++;
				while (t->pos < n) {
					char w = s[t->pos];
					if (w == ' ' || w == '\t' || w == '\r' ||
					    w == '\n')
						fl_lx_adv(t);
					else
						break;
				}
				continue;
			}
			if (n1 == '0') {
				t->pos += 2; /* NUL: nothing printable */
				continue;
			}
			fl_lx_escape(t, &t->arena);
			continue;
		}
		if (c == '\n') {
			fl_buf_putc(&t->arena, c);
			fl_lx_adv(t);
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

/* raw string r#"..."#; t->pos at the first '#' or '"' after the r */
static void rs_raw(fl_toks *t, size_t start, int line, int col, int flags)
{
	size_t hashes = 0;
	while (t->pos < t->srclen && t->src[t->pos] == '#') {
		hashes++;
		t->pos++;
	}
	t->pos++; /* quote */
	size_t body = t->pos, end = t->srclen, after = t->srclen;
	const char *s = t->src;
	size_t p = body;
	while (p < t->srclen) {
		const char *q = memchr(s + p, '"', t->srclen - p);
		if (!q)
			break;
		size_t qi = (size_t)(q - s);
		size_t h = 0;
		while (h < hashes && qi + 1 + h < t->srclen && s[qi + 1 + h] == '#')
			h++;
		if (h == hashes) {
			end = qi;
			after = qi + 1 + hashes;
			break;
		}
		p = qi + 1;
	}
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, after - start, line, col);
	tok->flags |= (uint8_t)(flags | FL_TF_RAW);
	fl_toks_str_begin(t, tok);
	fl_buf_put(&t->arena, s + body, end - body);
	fl_toks_str_end(t, tok);
	fl_lx_adv_to(t, after);
}

/* char literal or lifetime; t->pos at the quote, token starts at start */
static void rs_quote(fl_toks *t, size_t start, int line, int col)
{
	const char *s = t->src;
	size_t n = t->srclen, p = t->pos;
	if (p + 1 < n && s[p + 1] == '\\') {
		size_t q = p + 3;
		size_t lim = p + 16;
		while (q < n && q < lim && s[q] != '\'' && s[q] != '\n')
			q++;
		if (q < n && s[q] == '\'') {
			t->pos = q + 1;
			fl_toks_push(t, FL_TK_CHAR, start, t->pos - start, line, col);
			return;
		}
	} else if (p + 1 < n && s[p + 1] != '\n') {
		size_t l = fl_utf8_len((unsigned char)s[p + 1]);
		if (p + 1 + l < n && s[p + 1 + l] == '\'') {
			t->pos = p + 2 + l;
			fl_toks_push(t, FL_TK_CHAR, start, t->pos - start, line, col);
			return;
		}
		if (rs_ident_start((unsigned char)s[p + 1])) {
			size_t q = p + 1;
			while (q < n && rs_ident_byte((unsigned char)s[q]))
				q++;
			t->pos = q;
			fl_toks_push(t, FL_TK_OTHER, start, q - start, line, col);
			return;
		}
	}
	t->pos = p + 1;
	fl_toks_push(t, FL_TK_PUNCT, start, 1, line, col);
}

/* string prefixes b" br" r" r#" c" cr" b' and raw identifiers r#x */
static bool rs_prefixed(fl_toks *t)
{
	const char *s = t->src;
	size_t n = t->srclen, p = t->pos, q = p;
	int line = t->line, col = fl_lx_col(t), flags = 0;
	if (s[q] == 'b') {
		flags |= FL_TF_BYTES;
		q++;
	} else if (s[q] == 'c') {
		q++;
	}
	if (q < n && s[q] == 'r') {
		size_t h = q + 1;
		while (h < n && s[h] == '#')
			h++;
		if (h < n && s[h] == '"') {
			t->pos = q + 1;
			rs_raw(t, p, line, col, flags);
			return true;
		}
		if (q == p && h == p + 2 && h < n && rs_ident_start((unsigned char)s[h])) {
			size_t e = h;
			while (e < n && rs_ident_byte((unsigned char)s[e]))
				e++;
			t->pos = e;
			fl_toks_push(t, FL_TK_IDENT, p, e - p, line, col);
			return true;
		}
		return false;
	}
	if (q > p && q < n && s[q] == '"') {
		t->pos = q;
		rs_cooked(t, p, line, col, flags);
		return true;
	}
	if (q == p + 1 && s[p] == 'b' && q < n && s[q] == '\'') {
		t->pos = q;
		rs_quote(t, p, line, col);
		return true;
	}
	return false;
}

/* punctuation: the Rust multi-byte operators rules care about ("<<" and
 * ">>" stay two tokens: they close generics) */
static const char *const rs_ops[] = {
	"::", "->", "-=", "=>", "==", "!=", "<=", ">=", "+=", "*=", "/=", "%=",
	"^=", "&&", "&=", "||", "|=", "..", "...", "..=", NULL};

/* What a token starting with each byte may be (a table the compiler
 * builds): one dispatch instead of a chain of tests per token. */
enum { RS_PUNCT, RS_IDENT, RS_PREFIX, RS_DIGIT, RS_SLASH, RS_DQUOTE, RS_SQUOTE };
#define RS_(c)                                                                 \
	((c) == 'r' || (c) == 'b' || (c) == 'c'                    ? RS_PREFIX  \
	 : ((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') ||         \
			   (c) == '_' || (c) >= 0x80                  ? RS_IDENT   \
	 : (c) >= '0' && (c) <= '9'                                 ? RS_DIGIT   \
	 : (c) == '/'                                               ? RS_SLASH   \
	 : (c) == '"'                                               ? RS_DQUOTE  \
	 : (c) == '\''                                              ? RS_SQUOTE  \
								      : RS_PUNCT)
#define RS4_(b) RS_(b), RS_((b) + 1), RS_((b) + 2), RS_((b) + 3)
#define RS16_(b) RS4_(b), RS4_((b) + 4), RS4_((b) + 8), RS4_((b) + 12)
#define RS64_(b) RS16_(b), RS16_((b) + 16), RS16_((b) + 32), RS16_((b) + 48)
static const uint8_t rs_start[256] = {RS64_(0), RS64_(64), RS64_(128), RS64_(192)};
#undef RS_
#undef RS4_
#undef RS16_
#undef RS64_

void rs_lex(fl_toks *t)
{
	for (;;) {
		fl_lx_skip_ws(t);
		if (t->pos >= t->srclen)
			break;
		int c = (unsigned char)t->src[t->pos], c1;
		switch (rs_start[c]) {
		case RS_IDENT:
			fl_lx_ident(t, false);
			continue;
		case RS_PREFIX:
			/* r"", r#"", r#ident, b"", b'', br"", c"", cr"": the
			 * second byte says whether to look */
			c1 = fl_lx_peek(t, 1);
			if ((c1 == '"' || c1 == '#' || c1 == '\'' || c1 == 'r') && rs_prefixed(t))
				continue;
			fl_lx_ident(t, false);
			continue;
		case RS_DIGIT:
			fl_lx_number(t);
			continue;
		case RS_SLASH:
			c1 = fl_lx_peek(t, 1);
			if (c1 == '/') {
				fl_lx_line_comment(t);
				continue;
			}
			if (c1 == '*') {
				fl_lx_block_comment(t, "/*", "*/", true);
				continue;
			}
			break;
		case RS_DQUOTE:
			rs_cooked(t, t->pos, t->line, fl_lx_col(t), 0);
			continue;
		case RS_SQUOTE:
			rs_quote(t, t->pos, t->line, fl_lx_col(t));
			continue;
		default:
			break;
		}
		fl_lx_punct(t, rs_ops);
	}
}
