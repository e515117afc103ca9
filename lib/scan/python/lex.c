/*
 * lex.c — the Python lexer (lib/scan/python/, python.h): every string
 * prefix (r, b, u, f, t and their pairs), triple quotes, f-strings with
 * nested replacement fields (copied verbatim), escapes, comments and
 * explicit line continuations.
 */
#include <stdint.h>

#include "python.h"

static const char *const py_ops[] = {
	"**=", "//=", ">>=", "<<=", "...", "->", ":=", "==", "!=", "<=", ">=",
	"**",  "//",  "<<",  ">>",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=",
	"^=",  "@=",  NULL};

static bool is_id_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

static bool is_id_char(unsigned char c)
{
	return is_id_start(c) || (c >= '0' && c <= '9');
}

/* whitespace, comments and explicit line continuations */
static void ws(fl_toks *t)
{
	for (;;) {
		fl_lx_skip_ws(t);
		int c = fl_lx_peek(t, 0), c1 = fl_lx_peek(t, 1);
		if (c == '\\' &&
		    (c1 == '\n' || (c1 == '\r' && fl_lx_peek(t, 2) == '\n'))) {
			/* explicit line continuation: no logical newline */
			t->pos += c1 == '\r' ? 3 : 2;
			t->line++;
			t->line_start = t->pos;
		} else if (c == '#') {
			fl_lx_line_comment(t);
		} else {
			break;
		}
	}
}

/* Python escapes; unknown escapes keep their backslash. */
static void py_escape(fl_toks *t, fl_buf *b)
{
	int c = fl_lx_peek(t, 1);
	switch (c) {
	case 'n': case 't': case 'r': case 'a': case 'b': case 'f': case 'v':
	case 'x': case 'u': case 'U': case '\\': case '\'': case '"':
	case '0': case '1': case '2': case '3': case '4': case '5': case '6':
	case '7':
		fl_lx_escape(t, b);
		return;
	case '\n':
		t->pos++;
		fl_lx_adv(t);
		return;
	case '\r':
		t->pos += 2;
		if (fl_lx_peek(t, 0) == '\n')
			fl_lx_adv(t);
		return;
	case -1:
		fl_buf_putc(b, '\\');
		t->pos++;
		return;
	default:
		/* \N{NAME} and unknown escapes stay as written */
		fl_buf_putc(b, '\\');
		t->pos++;
		return;
	}
}

/* Copy an f-string replacement field {...} verbatim.  t->pos at '{'. */
static void py_field(fl_toks *t, char q, bool triple)
{
	fl_buf *b = &t->arena;
	int depth = 0;
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		if (c == '\n' && !triple)
			return; /* unterminated */
		if (c == q) {
			if (!triple)
				return; /* the f-string ends here */
			if (fl_lx_peek(t, 1) == q && fl_lx_peek(t, 2) == q)
				return;
		}
		if (c == '{') {
			depth++;
		} else if (c == '}') {
			depth--;
			fl_buf_putc(b, c);
			t->pos++;
			if (depth <= 0)
				return;
			continue;
		} else if (c == '\'' || c == '"') {
			/* nested string of another quote */
			fl_buf_putc(b, c);
			t->pos++;
			while (t->pos < t->srclen) {
				char d = t->src[t->pos];
				if (d == '\n' && !triple)
					return;
				if (d == q && !triple)
					return;
				fl_buf_putc(b, d);
				fl_lx_adv(t);
				if (d == c)
					break;
			}
			continue;
		}
		fl_buf_putc(b, c);
		fl_lx_adv(t);
	}
}

/* t->pos at the opening quote; start/line/col of the prefix. */
static void py_string(fl_toks *t, size_t start, int line, int col, bool raw,
		      bool fstr, bool bytes)
{
	const char *s = t->src;
	char q = s[t->pos];
	bool triple = fl_lx_peek(t, 1) == q && fl_lx_peek(t, 2) == q;
	t->pos += triple ? 3 : 1;
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, 0, line, col);
	if (raw)
		tok->flags |= FL_TF_RAW;
	if (bytes)
		tok->flags |= FL_TF_BYTES;
	if (fstr)
		tok->flags |= FL_TF_INTERP;
	fl_toks_str_begin(t, tok);
	fl_buf *b = &t->arena;
	while (t->pos < t->srclen) {
		/* plain run */
		size_t r = t->pos;
		while (r < t->srclen) {
			char c = s[r];
			if (c == q || c == '\\' || c == '\n' || c == '{' ||
			    c == '}')
				break;
			r++;
		}
		if (r > t->pos) {
			fl_buf_put(b, s + t->pos, r - t->pos);
			t->pos = r;
			continue;
		}
		char c = s[t->pos];
		if (c == q) {
			if (!triple) {
				t->pos++;
				break;
			}
			if (fl_lx_peek(t, 1) == q && fl_lx_peek(t, 2) == q) {
				t->pos += 3;
				break;
			}
			fl_buf_putc(b, c);
			t->pos++;
		} else if (c == '\n') {
			if (!triple)
				break; /* unterminated */
			fl_buf_putc(b, c);
			fl_lx_adv(t);
		} else if (c == '\\') {
			if (raw) {
				fl_buf_putc(b, c);
				t->pos++;
				if (t->pos < t->srclen &&
				    (s[t->pos] == q || s[t->pos] == '\\')) {
					fl_buf_putc(b, s[t->pos]);
					t->pos++;
				}
			} else {
				py_escape(t, b);
			}
		} else if (c == '{') {
			if (fstr && fl_lx_peek(t, 1) == '{') {
				fl_buf_putc(b, '{');
				t->pos += 2;
			} else if (fstr) {
				py_field(t, q, triple);
			} else {
				fl_buf_putc(b, c);
				t->pos++;
			}
		} else { /* '}' */
			if (fstr && fl_lx_peek(t, 1) == '}')
				t->pos++;
			fl_buf_putc(b, c);
			t->pos++;
		}
	}
	tok = &t->v[t->n - 1];
	tok->len = (uint32_t)(t->pos - start);
	fl_toks_str_end(t, tok);
}

static bool prefix_flags(const char *p, size_t n, bool *raw, bool *fstr,
			 bool *bytes)
{
	*raw = *fstr = *bytes = false;
	if (n > 2)
		return false;
	bool u = false;
	for (size_t k = 0; k < n; k++) {
		char c = p[k] | 0x20;
		if (c == 'r' && !*raw)
			*raw = true;
		else if ((c == 'f' || c == 't') && !*fstr && !*bytes && !u)
			*fstr = true;
		else if (c == 'b' && !*bytes && !*fstr && !u)
			*bytes = true;
		else if (c == 'u' && n == 1)
			u = true;
		else
			return false;
	}
	return true;
}

void py_lex(fl_toks *t)
{
	const char *s = t->src;
	while (1) {
		ws(t);
		if (t->pos >= t->srclen)
			break;
		unsigned char c = (unsigned char)s[t->pos];
		int col = fl_lx_col(t);
		if (is_id_start(c)) {
			size_t st = t->pos, r = t->pos;
			while (r < t->srclen && is_id_char((unsigned char)s[r]))
				r++;
			bool raw, fstr, bytes;
			if (r < t->srclen && (s[r] == '\'' || s[r] == '"') &&
			    prefix_flags(s + st, r - st, &raw, &fstr, &bytes)) {
				t->pos = r;
				py_string(t, st, t->line, col, raw, fstr, bytes);
			} else {
				t->pos = r;
				fl_toks_push(t, FL_TK_IDENT, st, r - st, t->line,
					     col);
			}
		} else if ((c >= '0' && c <= '9') ||
			   (c == '.' && fl_lx_peek(t, 1) >= '0' &&
			    fl_lx_peek(t, 1) <= '9')) {
			fl_lx_number(t);
		} else if (c == '\'' || c == '"') {
			py_string(t, t->pos, t->line, col, false, false, false);
		} else {
			fl_lx_punct(t, py_ops);
		}
	}
}
