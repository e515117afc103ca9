/*
 * lex.c — the C / C++ lexer: comments, prefixed and raw string literals,
 * char literals, digit separators, preprocessor lines with continuations,
 * `#if 0` blocks; and the bracket matches and argument lists of a file's
 * tokens.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

static inline bool is_ident_c(int c)
{
	return c >= 0 && (cclass((unsigned char)c) & C_IDENT);
}

/* ---- lexer ---------------------------------------------------------------- */

static void newline_at(fl_toks *t, size_t p)
{
	t->line++;
	t->line_start = p + 1;
}

/* Skip to the end of the logical line (backslash continuations followed),
 * leaving t->pos on the '\n' (or at end). */
static void skip_logical_line(fl_toks *t)
{
	const char *s = t->src;
	size_t n = t->srclen;
	while (t->pos < n) {
		const char *nl = memchr(s + t->pos, '\n', n - t->pos);
		if (!nl) {
			t->pos = n;
			return;
		}
		size_t q = (size_t)(nl - s);
		size_t b = q;
		if (b > t->pos && s[b - 1] == '\r')
			b--;
		if (b > t->pos && s[b - 1] == '\\') {
			newline_at(t, q);
			t->pos = q + 1;
			continue;
		}
		t->pos = q;
		return;
	}
}

static void skip_block_comment(fl_toks *t)
{
	const char *s = t->src;
	size_t n = t->srclen, p = t->pos + 2;
	while (p < n) {
		const char *q = memchr(s + p, '*', n - p);
		size_t stop = q ? (size_t)(q - s) : n;
		/* count newlines in [p, stop) */
		for (const char *nl = memchr(s + p, '\n', stop - p); nl;
		     nl = memchr(nl + 1, '\n', (size_t)(s + stop - nl - 1))) {
			newline_at(t, (size_t)(nl - s));
			t->nl = true;
		}
		if (!q) {
			t->pos = n;
			return;
		}
		if (stop + 1 < n && s[stop + 1] == '/') {
			t->pos = stop + 2;
			return;
		}
		p = stop + 1;
	}
	t->pos = n;
}

static inline fl_tok *push(fl_toks *t, int kind, size_t off, size_t len, int line,
		    int col, bool in_dir)
{
	fl_tok *k = fl_toks_push(t, kind, off, len, line, col);
	if (in_dir)
		k->flags |= TF_DIR;
	return k;
}

/* ordinary string literal; t->pos at the opening quote */
static void lex_string(fl_toks *t, size_t start, int line, int col, bool in_dir)
{
	const char *s = t->src;
	size_t n = t->srclen;
	fl_tok *k = push(t, FL_TK_STRING, start, 0, line, col, in_dir);
	size_t ki = t->n - 1;
	fl_toks_str_begin(t, k);
	t->pos++;
	while (t->pos < n) {
		unsigned char c = (unsigned char)s[t->pos];
		if (cclass(c) & C_PLAIN) {
			size_t b = t->pos;
			while (t->pos < n &&
			       (cclass((unsigned char)s[t->pos]) & C_PLAIN))
				t->pos++;
			fl_buf_put(&t->arena, s + b, t->pos - b);
			continue;
		}
		if (c == '"') {
			t->pos++;
			break;
		}
		if (c == '\n')
			break; /* unterminated */
		/* backslash */
		if (t->pos + 1 < n && s[t->pos + 1] == '\n') {
			newline_at(t, t->pos + 1);
			t->pos += 2;
		} else if (t->pos + 2 < n && s[t->pos + 1] == '\r' &&
			   s[t->pos + 2] == '\n') {
			newline_at(t, t->pos + 2);
			t->pos += 3;
		} else {
			fl_lx_escape(t, &t->arena);
		}
	}
	k = &t->v[ki];
	fl_toks_str_end(t, k);
	/* C++ user-defined literal suffix: "x"s, "x"sv, "x"_tag */
	if (t->pos < n) {
		unsigned char c = (unsigned char)s[t->pos];
		size_t p = t->pos;
		if (c == '_' || c == 's') {
			while (p < n && is_ident_c((unsigned char)s[p]))
				p++;
			size_t l = p - t->pos;
			if (c == '_' || (l == 1) ||
			    (l == 2 && s[t->pos + 1] == 'v'))
				t->pos = p;
		}
	}
	k->len = (uint32_t)(t->pos - start);
}

/* raw string R"delim( ... )delim"; t->pos at the quote.  Returns false
 * (nothing consumed) when the delimiter is invalid. */
static bool lex_raw(fl_toks *t, size_t start, int line, int col, bool in_dir)
{
	const char *s = t->src;
	size_t n = t->srclen, p = t->pos + 1, d0 = p;
	while (p < n && p - d0 <= 16 && s[p] != '(') {
		char c = s[p];
		if (c == ')' || c == '\\' || c == ' ' || c == '\t' ||
		    c == '\n' || c == '"' || c == '\r' || c == '\v' || c == '\f')
			return false;
		p++;
	}
	if (p >= n || s[p] != '(')
		return false;
	size_t dl = p - d0;
	size_t body = p + 1, end = n, after = n;
	for (size_t q = body; q < n;) {
		const char *r = memchr(s + q, ')', n - q);
		if (!r)
			break;
		size_t rp = (size_t)(r - s);
		if (rp + 1 + dl < n && memcmp(s + rp + 1, s + d0, dl) == 0 &&
		    s[rp + 1 + dl] == '"') {
			end = rp;
			after = rp + 2 + dl;
			break;
		}
		q = rp + 1;
	}
	fl_tok *k = push(t, FL_TK_STRING, start, after - start, line, col, in_dir);
	k->flags |= FL_TF_RAW;
	size_t ki = t->n - 1;
	fl_toks_str_begin(t, k);
	fl_buf_put(&t->arena, s + body, end - body);
	fl_toks_str_end(t, &t->v[ki]);
	for (const char *nl = memchr(s + body, '\n', end - body); nl;
	     nl = memchr(nl + 1, '\n', (size_t)(s + end - nl - 1)))
		newline_at(t, (size_t)(nl - s));
	t->pos = after;
	return true;
}

static void lex_char(fl_toks *t, size_t start, int line, int col, bool in_dir)
{
	const char *s = t->src;
	size_t n = t->srclen;
	t->pos++;
	while (t->pos < n) {
		char c = s[t->pos];
		if (c == '\'') {
			t->pos++;
			break;
		}
		if (c == '\n')
			break;
		if (c == '\\' && t->pos + 1 < n) {
			if (s[t->pos + 1] == '\n')
				newline_at(t, t->pos + 1);
			t->pos += 2;
			continue;
		}
		t->pos++;
	}
	push(t, FL_TK_CHAR, start, t->pos - start, line, col, in_dir);
}

static void lex_number(fl_toks *t, bool in_dir)
{
	const char *s = t->src;
	size_t n = t->srclen, start = t->pos;
	int col = fl_lx_col(t);
	bool hex = start + 1 < n && s[start] == '0' &&
		   (s[start + 1] == 'x' || s[start + 1] == 'X');
	size_t p = start;
	while (p < n) {
		unsigned char c = (unsigned char)s[p];
		if (is_ident_c(c) || c == '.') {
			p++;
		} else if (c == '\'' && p > start && p + 1 < n &&
			   is_ident_c((unsigned char)s[p + 1]) &&
			   is_ident_c((unsigned char)s[p - 1])) {
			p++; /* digit separator */
		} else if ((c == '+' || c == '-') && p > start &&
			   (hex ? (s[p - 1] == 'p' || s[p - 1] == 'P')
				: (s[p - 1] == 'e' || s[p - 1] == 'E'))) {
			p++;
		} else {
			break;
		}
	}
	if (p == start)
		p++;
	t->pos = p;
	push(t, FL_TK_NUMBER, start, p - start, t->line, col, in_dir);
}

/* C and C++ operators (C++ ->* .* <=> and the preprocessor's ##) */
static const char *const c_ops[] = {
	"::", "->", "->*", "--", "-=", "++", "+=", "<<", "<<=", "<=", "<=>",
	">>", ">>=", ">=", "==", "!=", "*=", "/=", "%=", "^=", "&&", "&=",
	"||", "|=", "...", ".*", "##", NULL};


/* after "#if" at t->pos: is the condition the literal 0? */
static bool is_if0(const fl_toks *t, size_t p)
{
	const char *s = t->src;
	size_t n = t->srclen;
	while (p < n && (s[p] == ' ' || s[p] == '\t'))
		p++;
	if (p >= n || s[p] != '0')
		return false;
	p++;
	while (p < n && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r'))
		p++;
	return p >= n || s[p] == '\n' ||
	       (s[p] == '/' && p + 1 < n && (s[p + 1] == '/' || s[p + 1] == '*'));
}

/* Skip an `#if 0` block; t->pos is anywhere on the #if line.  Stops after
 * the matching #endif, or at the start of a matching #else / #elif line
 * (returning its '#' position via *hash, else NONE-ish SIZE_MAX). */
static size_t skip_if0(fl_toks *t)
{
	const char *s = t->src;
	size_t n = t->srclen;
	int depth = 0;
	skip_logical_line(t);
	while (t->pos < n) {
		/* at a '\n' */
		newline_at(t, t->pos);
		t->pos++;
		t->nl = true;
		size_t p = t->pos;
		while (p < n && (s[p] == ' ' || s[p] == '\t'))
			p++;
		if (p < n && s[p] == '#') {
			size_t hash = p;
			p++;
			while (p < n && (s[p] == ' ' || s[p] == '\t'))
				p++;
			size_t w = p;
			while (p < n && s[p] >= 'a' && s[p] <= 'z')
				p++;
			const char *ws = s + w;
			size_t wl = p - w;
			if (word_is(ws, wl, "if") || word_is(ws, wl, "ifdef") ||
			    word_is(ws, wl, "ifndef")) {
				depth++;
			} else if (word_is(ws, wl, "endif")) {
				if (depth == 0) {
					t->pos = p;
					skip_logical_line(t);
					return SIZE_MAX;
				}
				depth--;
			} else if (depth == 0 &&
				   (word_is(ws, wl, "else") ||
				    word_is(ws, wl, "elif") ||
				    word_is(ws, wl, "elifdef") ||
				    word_is(ws, wl, "elifndef"))) {
				t->pos = hash;
				return hash;
			}
		}
		t->pos = p;
		skip_logical_line(t);
	}
	return SIZE_MAX;
}

/* the column of the token starting at start, on the current line (taken
 * when a token is made, not for every blank and newline) */
#define C_COL(t, start) ((int)((start) - (t)->line_start) + 1)

void c_lex(fl_toks *t)
{
	const char *s = t->src;
	size_t n = t->srclen;
	bool in_dir = false, bol = true;
	while (t->pos < n && t->n < MAX_TOKS) {
		unsigned char c = (unsigned char)s[t->pos];
		size_t start = t->pos;
		switch (c) {
		case '\n':
			newline_at(t, t->pos);
			t->pos++;
			t->nl = true;
			in_dir = false;
			bol = true;
			/* the next line's indentation, in one go */
			t->pos = fl_lx_blank_end(s, t->pos, n);
			continue;
		case ' ': case '\t': case '\r': case '\f': case '\v':
			t->pos = fl_lx_blank_end(s, t->pos + 1, n);
			continue;
		case '\\':
			if (t->pos + 1 < n && s[t->pos + 1] == '\n') {
				newline_at(t, t->pos + 1);
				t->pos += 2;
				continue;
			}
			if (t->pos + 2 < n && s[t->pos + 1] == '\r' &&
			    s[t->pos + 2] == '\n') {
				newline_at(t, t->pos + 2);
				t->pos += 3;
				continue;
			}
			t->pos++;
			push(t, FL_TK_OTHER, start, 1, t->line, C_COL(t, start), in_dir);
			bol = false;
			continue;
		case '/':
			if (t->pos + 1 < n && s[t->pos + 1] == '/') {
				skip_logical_line(t);
				continue;
			}
			if (t->pos + 1 < n && s[t->pos + 1] == '*') {
				skip_block_comment(t);
				continue;
			}
			break;
		case '#':
			if (bol && !in_dir) {
				size_t p = t->pos + 1;
				while (p < n && (s[p] == ' ' || s[p] == '\t'))
					p++;
				size_t w = p;
				while (p < n && s[p] >= 'a' && s[p] <= 'z')
					p++;
				const char *ws = s + w;
				size_t wl = p - w;
				if (word_is(ws, wl, "if") && is_if0(t, p)) {
					size_t h = skip_if0(t);
					if (h != SIZE_MAX) {
						/* continue at #else/#elif as if it were #if */
						fl_tok *k = push(t, FL_TK_PUNCT, h, 1,
								 t->line,
								 fl_lx_col(t), true);
						k->flags |= TF_DIRSTART;
						k->str = DK_IF;
						in_dir = true;
						bol = false;
						p = h + 1;
						while (p < n && (s[p] == ' ' || s[p] == '\t'))
							p++;
						w = p;
						while (p < n && s[p] >= 'a' && s[p] <= 'z')
							p++;
						t->pos = p;
						if (!word_is(s + w, p - w, "elif"))
							skip_logical_line(t);
					}
					continue;
				}
				fl_tok *k = push(t, FL_TK_PUNCT, start, 1, t->line, C_COL(t, start),
						 true);
				k->flags |= TF_DIRSTART;
				k->str = DK_OTHER;
				if (word_is(ws, wl, "if") || word_is(ws, wl, "ifdef") ||
				    word_is(ws, wl, "ifndef"))
					k->str = DK_IF;
				else if (word_is(ws, wl, "else") ||
					 word_is(ws, wl, "elif") ||
					 word_is(ws, wl, "elifdef") ||
					 word_is(ws, wl, "elifndef"))
					k->str = DK_ELSE;
				else if (word_is(ws, wl, "endif"))
					k->str = DK_ENDIF;
				in_dir = true;
				bol = false;
				t->pos++;
				if (word_is(ws, wl, "include") ||
				    word_is(ws, wl, "include_next") ||
				    word_is(ws, wl, "import") ||
				    word_is(ws, wl, "error") ||
				    word_is(ws, wl, "warning") ||
				    word_is(ws, wl, "pragma") ||
				    word_is(ws, wl, "line") ||
				    word_is(ws, wl, "ident") ||
				    word_is(ws, wl, "sccs") ||
				    word_is(ws, wl, "assert") ||
				    word_is(ws, wl, "unassert")) {
					/* free text (quotes may not pair up) */
					skip_logical_line(t);
				}
				continue;
			}
			break;
		case '"':
			lex_string(t, start, t->line, C_COL(t, start), in_dir);
			bol = false;
			continue;
		case '\'':
			lex_char(t, start, t->line, C_COL(t, start), in_dir);
			bol = false;
			continue;
		default:
			break;
		}
		bol = false;
		if (cclass(c) & C_DIGIT ||
		    (c == '.' && t->pos + 1 < n &&
		     (cclass((unsigned char)s[t->pos + 1]) & C_DIGIT))) {
			lex_number(t, in_dir);
			continue;
		}
		if (cclass(c) & C_IDENT) {
			size_t p = fl_lx_ident_end(s, t->pos, n, true);
			size_t l = p - start;
			if (p < n && (s[p] == '"' || s[p] == '\'') && l <= 3) {
				const char *w = s + start;
				bool pre = (l == 1 && (*w == 'L' || *w == 'u' ||
						       *w == 'U')) ||
					   (l == 2 && w[0] == 'u' && w[1] == '8');
				bool raw = s[p] == '"' && w[l - 1] == 'R' &&
					   (l == 1 ||
					    (l == 2 && (*w == 'L' || *w == 'u' ||
							*w == 'U')) ||
					    (l == 3 && w[0] == 'u' && w[1] == '8'));
				if (raw) {
					t->pos = p;
					if (lex_raw(t, start, t->line, C_COL(t, start), in_dir))
						continue;
					pre = true; /* invalid delimiter: plain */
				}
				if (pre) {
					t->pos = p;
					if (s[p] == '"')
						lex_string(t, start, t->line, C_COL(t, start),
							   in_dir);
					else
						lex_char(t, start, t->line, C_COL(t, start),
							 in_dir);
					continue;
				}
			}
			t->pos = p;
			push(t, FL_TK_IDENT, start, l, t->line, C_COL(t, start), in_dir);
			continue;
		}
		if (c < 0x20 || c == 0x7f || c == '`' || c == '@') {
			size_t p = t->pos + 1;
			while (p < n && ((unsigned char)s[p] < 0x20 ||
					 s[p] == 0x7f) &&
			       s[p] != '\n' && s[p] != ' ' && s[p] != '\t')
				p++;
			t->pos = p;
			push(t, FL_TK_OTHER, start, p - start, t->line, C_COL(t, start), in_dir);
			continue;
		}
		fl_lx_punct(t, c_ops);
		if (in_dir)
			t->v[t->n - 1].flags |= TF_DIR;
	}
}


size_t *c_match(const fl_toks *t)
{
	size_t n = t->n;
	size_t *mt = fl_xmalloc((n ? n : 1) * sizeof *mt);
	for (size_t i = 0; i < n; i++)
		mt[i] = NONE;
	/* the brackets only, as the lexer listed them (it never takes a
	 * token back); each directive's brackets pair among themselves, so
	 * the directive stack is emptied when a directive starts between
	 * two of its brackets */
	size_t nb = t->br_ok ? t->brn : n;
	uint32_t *st = fl_xmalloc((nb ? nb : 1) * sizeof *st);
	uint32_t *dst = fl_xmalloc((nb ? nb : 1) * sizeof *dst);
	size_t sp = 0, dsp = 0, last_dir = 0;
	for (size_t b = 0; b < nb; b++) {
		size_t i = t->br_ok ? t->br[b] : b;
		const fl_tok *k = &t->v[i];
		if (k->flags & TF_DIR) {
			for (size_t j = last_dir; j <= i; j++)
				if (t->v[j].flags & TF_DIRSTART)
					dsp = 0;
			last_dir = i + 1;
		}
		if (k->kind != FL_TK_PUNCT || k->len != 1)
			continue;
		char c = t->src[k->off];
		bool dir = k->flags & TF_DIR;
		if (c == '(' || c == '[' || c == '{') {
			if (dir)
				dst[dsp++] = (uint32_t)i;
			else
				st[sp++] = (uint32_t)i;
		} else if (c == ')' || c == ']' || c == '}') {
			if (dir && dsp) {
				uint32_t o = dst[--dsp];
				mt[o] = i;
				mt[i] = o;
			} else if (!dir && sp) {
				uint32_t o = st[--sp];
				mt[o] = i;
				mt[i] = o;
			}
		}
	}
	free(st);
	free(dst);
	return mt;
}

/* Arguments of the bracket list opened at `open` (directive lines inside
 * a list that is not one, and the reverse, are passed over); returns count
 * (<= max stored), or -1 when the list is unclosed. */
int c_split_args(const ctx *c, size_t open, size_t *st, size_t *en,
		      int max)
{
	size_t close;
	size_t n = fl_tok_split_args(c->t, c->mt, open, st, en, (size_t)max,
				     &close, TF_DIR);
	return close == FL_NOMATCH ? -1 : (int)n;
}
