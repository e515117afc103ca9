/*
 * lex.c — the JVM family's lexer (jvm.h): // and block comments (nested in
 * Kotlin/Scala), Java strings and text blocks (incidental indentation
 * stripped per the JLS), Kotlin strings and raw strings with templates
 * ("$x", "${expr}" -> "${x}", "${expr}"), Scala strings, raw strings and
 * interpolators (s"", f"", raw"", any id""), char literals, backtick
 * identifiers, annotations; escapes decoded.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jvm.h"

#define MAX_TMPL_DEPTH 24

typedef struct lx {
	fl_toks *t;
	int d;
	fl_buf scratch;
} lx;

static bool is_id_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

static bool is_id_byte(int c)
{
	return is_id_start(c) || (c >= '0' && c <= '9');
}

/* Decode one JVM escape at s[*p] == '\\'; advances *p. */
static void jvm_escape(const char *s, size_t n, size_t *p, fl_buf *out)
{
	size_t i = *p + 1;
	if (i >= n) {
		*p = n;
		return;
	}
	char c = s[i];
	switch (c) {
	case 'n': fl_buf_putc(out, '\n'); break;
	case 't': fl_buf_putc(out, '\t'); break;
	case 'r': fl_buf_putc(out, '\r'); break;
	case 'b': fl_buf_putc(out, '\b'); break;
	case 'f': fl_buf_putc(out, '\f'); break;
	case 's': fl_buf_putc(out, ' '); break;
	case '0': case '1': case '2': case '3': case '4': case '5': case '6':
	case '7': {
		unsigned v = 0;
		int k = 0, maxd = (c <= '3') ? 3 : 2;
		while (k < maxd && i < n && s[i] >= '0' && s[i] <= '7') {
			v = v * 8 + (unsigned)(s[i] - '0');
			i++;
			k++;
		}
		fl_buf_put_utf8(out, v);
		*p = i;
		return;
	}
	case 'u': {
		size_t j = i;
		while (j < n && s[j] == 'u')
			j++;
		uint32_t v = 0;
		int k = 0;
		while (k < 4 && j < n && fl_hexval((unsigned char)s[j]) >= 0) {
			v = v * 16 + (uint32_t)fl_hexval((unsigned char)s[j]);
			j++;
			k++;
		}
		if (k != 4) {
			fl_buf_putc(out, 'u');
			break;
		}
		/* surrogate pair */
		if (v >= 0xD800 && v <= 0xDBFF && j + 1 < n && s[j] == '\\' &&
		    s[j + 1] == 'u') {
			size_t q = j + 1;
			while (q < n && s[q] == 'u')
				q++;
			uint32_t lo = 0;
			int kk = 0;
			while (kk < 4 && q < n && fl_hexval((unsigned char)s[q]) >= 0) {
				lo = lo * 16 + (uint32_t)fl_hexval((unsigned char)s[q]);
				q++;
				kk++;
			}
			if (kk == 4 && lo >= 0xDC00 && lo <= 0xDFFF) {
				v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
				j = q;
			}
		}
		fl_buf_put_utf8(out, v);
		*p = j;
		return;
	}
	case '\n':
		/* text block line continuation */
		break;
	case '\r':
		if (i + 1 < n && s[i + 1] == '\n')
			i++;
		break;
	default:
		fl_buf_putc(out, c);
		break;
	}
	*p = i + 1;
}

static void jvm_unescape(const char *s, size_t n, fl_buf *out)
{
	size_t p = 0;
	while (p < n) {
		const char *bs = memchr(s + p, '\\', n - p);
		size_t e = bs ? (size_t)(bs - s) : n;
		fl_buf_put(out, s + p, e - p);
		p = e;
		if (p < n)
			jvm_escape(s, n, &p, out);
	}
}

static size_t skip_string_raw(const char *s, size_t n, size_t p, int depth);

/* From p (just after "${"), find the matching '}' in code; returns its
 * position or n. */
static size_t skip_expr(const char *s, size_t n, size_t p, int depth)
{
	int br = 0;
	while (p < n) {
		char c = s[p];
		if (c == '{') {
			br++;
		} else if (c == '}') {
			if (br == 0)
				return p;
			br--;
		} else if (c == '"') {
			p = skip_string_raw(s, n, p, depth + 1);
			continue;
		} else if (c == '\'') {
			/* char literal: at most a few bytes */
			size_t q = p + 1;
			if (q < n && s[q] == '\\')
				q += 2;
			else
				q++;
			while (q < n && q < p + 12 && s[q] != '\'' && s[q] != '\n')
				q++;
			if (q < n && s[q] == '\'') {
				p = q + 1;
				continue;
			}
		} else if (c == '/' && p + 1 < n && s[p + 1] == '/') {
			const char *nl = memchr(s + p, '\n', n - p);
			p = nl ? (size_t)(nl - s) : n;
			continue;
		} else if (c == '/' && p + 1 < n && s[p + 1] == '*') {
			p += 2;
			while (p + 1 < n && !(s[p] == '*' && s[p + 1] == '/'))
				p++;
			p = p + 2 < n ? p + 2 : n;
			continue;
		}
		p++;
	}
	return n;
}

/* s[p] == '"': skip a string literal (single or triple quoted, templates
 * nested); returns the position after it. */
static size_t skip_string_raw(const char *s, size_t n, size_t p, int depth)
{
	bool triple = p + 2 < n && s[p + 1] == '"' && s[p + 2] == '"';
	p += triple ? 3 : 1;
	while (p < n) {
		char c = s[p];
		if (!triple && c == '\\') {
			p += 2;
			continue;
		}
		if (!triple && c == '\n')
			return p;
		if (c == '"') {
			if (!triple)
				return p + 1;
			if (p + 2 < n && s[p + 1] == '"' && s[p + 2] == '"') {
				p += 3;
				while (p < n && s[p] == '"')
					p++;
				return p;
			}
		}
		if (c == '$' && p + 1 < n && s[p + 1] == '{' &&
		    depth < MAX_TMPL_DEPTH) {
			size_t e = skip_expr(s, n, p + 2, depth);
			p = e < n ? e + 1 : n;
			continue;
		}
		p++;
	}
	return n;
}

enum {
	SF_ESC = 1,     /* backslash escapes */
	SF_TMPL_K = 2,  /* Kotlin templates */
	SF_TMPL_S = 4,  /* Scala interpolation */
	SF_TRIPLE = 8,  /* ends at """ (extra quotes belong to the content) */
};

/* Decode string content from p (after the opening quote(s)) into out;
 * returns the position after the closing delimiter. */
static size_t str_body(lx *L, size_t p, int fl, fl_buf *out, bool *interp)
{
	const char *s = L->t->src;
	size_t n = L->t->srclen;
	while (p < n) {
		char c = s[p];
		if (c == '"') {
			if (!(fl & SF_TRIPLE))
				return p + 1;
			if (p + 2 < n && s[p + 1] == '"' && s[p + 2] == '"') {
				size_t q = p + 3;
				while (q < n && s[q] == '"') {
					fl_buf_putc(out, '"');
					q++;
				}
				return q;
			}
			fl_buf_putc(out, c);
			p++;
			continue;
		}
		if (c == '\n' && !(fl & SF_TRIPLE))
			return p; /* unterminated */
		if (c == '\\' && (fl & SF_ESC)) {
			jvm_escape(s, n, &p, out);
			continue;
		}
		if (c == '$' && (fl & (SF_TMPL_K | SF_TMPL_S)) && p + 1 < n) {
			char d = s[p + 1];
			if ((fl & SF_TMPL_S) && (d == '$' || d == '"')) {
				fl_buf_putc(out, d);
				p += 2;
				continue;
			}
			if (d == '{') {
				size_t e = skip_expr(s, n, p + 2, 0);
				size_t b = p + 2;
				if (e - b == 3 && s[b] == '\'' && s[b + 1] == '$' &&
				    s[b + 2] == '\'') {
					fl_buf_putc(out, '$'); /* ${'$'} */
				} else {
					fl_buf_puts(out, "${");
					size_t h = out->n;
					fl_buf_put(out, s + b, e - b);
					fl_buf_squeeze_hole(out, h);
					fl_buf_putc(out, '}');
					*interp = true;
				}
				p = e < n ? e + 1 : n;
				continue;
			}
			if (is_id_start((unsigned char)d) ||
			    (d == '`' && (fl & SF_TMPL_K))) {
				size_t q = p + 1;
				if (d == '`') {
					q++;
					while (q < n && s[q] != '`' && s[q] != '\n')
						q++;
					if (q < n && s[q] == '`')
						q++;
				} else {
					while (q < n && is_id_byte((unsigned char)s[q]))
						q++;
				}
				fl_buf_puts(out, "${");
				fl_buf_put(out, s + p + 1, q - p - 1);
				fl_buf_putc(out, '}');
				*interp = true;
				p = q;
				continue;
			}
		}
		/* plain run */
		size_t q = p + 1;
		while (q < n) {
			char e = s[q];
			if (e == '"' || e == '\\' || e == '$' || e == '\n')
				break;
			q++;
		}
		fl_buf_put(out, s + p, q - p);
		p = q;
	}
	return n;
}

/* Java text block: t->pos at the opening """. */
static void lex_text_block(lx *L)
{
	fl_toks *t = L->t;
	const char *s = t->src;
	size_t n = t->srclen;
	size_t start = t->pos;
	int line = t->line, col = fl_lx_col(t);
	size_t p = start + 3;
	/* rest of the opening line (a closing delimiter on it is not valid
	 * Java, but keep the literal on one line then) */
	while (p < n && s[p] != '\n') {
		if (s[p] == '"' && p + 2 < n && s[p + 1] == '"' && s[p + 2] == '"') {
			fl_tok *k = fl_toks_push(t, FL_TK_STRING, start, p + 3 - start,
						 line, col);
			k->flags |= FL_TF_RAW;
			fl_toks_str_begin(t, k);
			jvm_unescape(s + start + 3, p - start - 3, &t->arena);
			fl_toks_str_end(t, k);
			fl_lx_adv_to(t, p + 3);
			return;
		}
		p++;
	}
	size_t cs = p < n ? p + 1 : n;
	/* find the closing """ */
	size_t q = cs, ce = n, end = n;
	while (q < n) {
		if (s[q] == '\\') {
			q += 2;
			continue;
		}
		if (s[q] == '"' && q + 2 < n && s[q + 1] == '"' && s[q + 2] == '"') {
			ce = q;
			end = q + 3;
			break;
		}
		q++;
	}
	if (ce > n)
		ce = n;
	if (end > n)
		end = n;
	/* minimal indentation */
	size_t minind = SIZE_MAX;
	size_t ls = cs;
	bool last_blank = false;
	while (ls <= ce) {
		const char *nl = ls < ce ? memchr(s + ls, '\n', ce - ls) : NULL;
		size_t le = nl ? (size_t)(nl - s) : ce;
		size_t ind = 0;
		while (ls + ind < le && (s[ls + ind] == ' ' || s[ls + ind] == '\t'))
			ind++;
		bool blank = true;
		for (size_t k = ls + ind; k < le; k++)
			if (s[k] != '\r' && s[k] != ' ' && s[k] != '\t') {
				blank = false;
				break;
			}
		if (!nl) {
			/* closing line */
			last_blank = blank;
			if (blank || !blank)
				if (ind < minind)
					minind = ind;
			break;
		}
		if (!blank && ind < minind)
			minind = ind;
		ls = le + 1;
	}
	if (minind == SIZE_MAX)
		minind = 0;
	fl_buf *tmp = &L->scratch;
	fl_buf_reset(tmp);
	ls = cs;
	bool first = true;
	while (ls <= ce) {
		const char *nl = ls < ce ? memchr(s + ls, '\n', ce - ls) : NULL;
		size_t le = nl ? (size_t)(nl - s) : ce;
		if (!nl && last_blank)
			break;
		if (!first)
			fl_buf_putc(tmp, '\n');
		first = false;
		size_t b = ls, e = le;
		while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' ||
				 s[e - 1] == '\r'))
			e--;
		size_t k = 0;
		while (b < e && k < minind && (s[b] == ' ' || s[b] == '\t')) {
			b++;
			k++;
		}
		fl_buf_put(tmp, s + b, e - b);
		if (!nl)
			break;
		ls = le + 1;
	}
	if (last_blank && !first)
		fl_buf_putc(tmp, '\n');
	fl_tok *k = fl_toks_push(t, FL_TK_STRING, start, end - start, line, col);
	k->flags |= FL_TF_RAW;
	fl_toks_str_begin(t, k);
	jvm_unescape(tmp->s ? tmp->s : "", tmp->n, &t->arena);
	fl_toks_str_end(t, k);
	fl_lx_adv_to(t, end);
}

/* A string starting at t->pos (the opening quote); prefix_start is where
 * the token begins (an interpolator id in Scala), prefix its kind. */
static void lex_string(lx *L, size_t tok_start, int line, int col,
		       int prefix /* 0 none, 1 s/f/custom, 2 raw */)
{
	fl_toks *t = L->t;
	const char *s = t->src;
	size_t n = t->srclen;
	size_t p = t->pos;
	bool triple = p + 2 < n && s[p + 1] == '"' && s[p + 2] == '"';
	if (L->d == D_JAVA && triple) {
		lex_text_block(L);
		return;
	}
	int fl = 0;
	if (L->d == D_JAVA) {
		fl = SF_ESC;
	} else if (L->d == D_KOTLIN) {
		fl = SF_TMPL_K | (triple ? SF_TRIPLE : SF_ESC);
	} else {
		if (triple)
			fl = SF_TRIPLE;
		else if (prefix != 2)
			fl = SF_ESC;
		if (prefix)
			fl |= SF_TMPL_S;
		if (prefix == 1 && triple)
			fl |= SF_ESC;
	}
	if (triple)
		fl |= SF_TRIPLE;
	fl_tok *k = fl_toks_push(t, FL_TK_STRING, tok_start, 0, line, col);
	if (triple || prefix == 2)
		k->flags |= FL_TF_RAW;
	fl_toks_str_begin(t, k);
	bool interp = false;
	size_t end = str_body(L, p + (triple ? 3 : 1), fl, &t->arena, &interp);
	fl_toks_str_end(t, k);
	if (interp)
		k->flags |= FL_TF_INTERP;
	k->len = (uint32_t)(end - tok_start);
	fl_lx_adv_to(t, end);
}

static void lex_char(lx *L)
{
	fl_toks *t = L->t;
	const char *s = t->src;
	size_t n = t->srclen, p = t->pos;
	size_t q;
	if (p + 1 < n && s[p + 1] == '\\') {
		q = p + 3;
		while (q < n && q < p + 14 && s[q] != '\'' && s[q] != '\n')
			q++;
	} else {
		q = p + 1 + (p + 1 < n ? fl_utf8_len((unsigned char)s[p + 1]) : 1);
	}
	if (q < n && s[q] == '\'' && s[p + 1] != '\n') {
		fl_toks_push(t, FL_TK_CHAR, p, q + 1 - p, t->line, fl_lx_col(t));
		fl_lx_adv_to(t, q + 1);
		return;
	}
	/* Scala symbol or stray quote */
	fl_toks_push(t, FL_TK_PUNCT, p, 1, t->line, fl_lx_col(t));
	t->pos++;
}

static const char *const jvm_ops[] = {
	"->", "=>", "::", "==", "!=", "<=", ">=", "&&", "||", "?:", "?.",
	"!!", "++", "--", "+=", "-=", "*=", "/=", "<-", "===", "!==", "..",
	NULL,
};

static void lex_file(lx *L)
{
	fl_toks *t = L->t;
	const char *s = t->src;
	size_t n = t->srclen;
	for (;;) {
		fl_lx_skip_ws(t);
		if (t->pos >= n)
			break;
		unsigned char c = (unsigned char)s[t->pos];
		int c1 = fl_lx_peek(t, 1);
		if (c == '/' && c1 == '/') {
			fl_lx_line_comment(t);
			continue;
		}
		if (c == '/' && c1 == '*') {
			fl_lx_block_comment(t, "/*", "*/", L->d != D_JAVA);
			continue;
		}
		if (c == '"') {
			lex_string(L, t->pos, t->line, fl_lx_col(t), 0);
			continue;
		}
		if (c == '\'') {
			lex_char(L);
			continue;
		}
		if (c == '`' && L->d != D_JAVA) {
			size_t q = t->pos + 1;
			while (q < n && s[q] != '`' && s[q] != '\n')
				q++;
			if (q < n && s[q] == '`') {
				fl_toks_push(t, FL_TK_IDENT, t->pos, q + 1 - t->pos,
					     t->line, fl_lx_col(t));
				t->pos = q + 1;
			} else {
				fl_lx_punct(t, NULL);
			}
			continue;
		}
		if (is_id_start(c) || (c == '$' && L->d != D_KOTLIN)) {
			if (L->d == D_SCALA) {
				size_t q = t->pos;
				while (q < n && (is_id_byte((unsigned char)s[q]) ||
						 s[q] == '$'))
					q++;
				if (q < n && s[q] == '"') {
					size_t st = t->pos;
					int line = t->line, col = fl_lx_col(t);
					bool raw = q - st == 3 &&
						   memcmp(s + st, "raw", 3) == 0;
					t->pos = q;
					lex_string(L, st, line, col, raw ? 2 : 1);
					continue;
				}
			}
			fl_lx_ident(t, L->d != D_KOTLIN);
			continue;
		}
		if (c >= '0' && c <= '9') {
			fl_lx_number(t);
			continue;
		}
		fl_lx_punct(t, jvm_ops);
	}
}

void jvm_lex(fl_toks *t, int d)
{
	lx L = {.t = t, .d = d};
	lex_file(&L);
	fl_buf_free(&L.scratch);
}
