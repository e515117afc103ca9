/*
 * lang_c.c — the C / C++ family: lexer (comments, prefixed and raw string
 * literals, char literals, digit separators, preprocessor lines with
 * continuations, `#if 0` blocks) and the rules for C and C++ error sites:
 * C++ throw, BSD err.h, perror, fprintf(stderr)/fputs(stderr), syslog,
 * glib, Postgres ereport/elog, CPython PyErr_*, and the project's own
 * reporter functions inferred per tree (printf format attributes, names).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "../strmap.h"
#include "../util.h"
#include "lang.h"
#include "lex.h"

/* own token flags (lex.h uses 0x01..0x08) */
#define TF_DIR 0x40      /* token belongs to a preprocessor directive line */
#define TF_DIRSTART 0x80 /* the '#' starting a directive; tok->str = kind */

enum { DK_OTHER = 0, DK_IF, DK_ELSE, DK_ENDIF };

#define MAX_TOKS 6000000u
#define NONE UINT32_MAX

/* ---- character classes ----------------------------------------------------- */

#define C_IDENT 1
#define C_DIGIT 2
#define C_PLAIN 4 /* not special inside a string literal */

/* the classes of each byte, as a table built by the compiler (the tests
 * it replaces were a quarter of the lexer's time) */
#define CC_(c)                                                                 \
	(((((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') ||        \
	   (c) == '_' || (c) == '$' || (c) >= 0x80)                            \
		  ? C_IDENT                                                    \
	  : ((c) >= '0' && (c) <= '9') ? (C_DIGIT | C_IDENT)                   \
				       : 0) |                                  \
	 (((c) != '"' && (c) != '\\' && (c) != '\n') ? C_PLAIN : 0))
#define CC4_(b) CC_(b), CC_((b) + 1), CC_((b) + 2), CC_((b) + 3)
#define CC16_(b) CC4_(b), CC4_((b) + 4), CC4_((b) + 8), CC4_((b) + 12)
#define CC64_(b) CC16_(b), CC16_((b) + 16), CC16_((b) + 32), CC16_((b) + 48)
static const uint8_t cclass_tab[256] = {CC64_(0), CC64_(64), CC64_(128), CC64_(192)};
#undef CC_
#undef CC4_
#undef CC16_
#undef CC64_

static inline unsigned cclass(unsigned char c)
{
	return cclass_tab[c];
}

static void init_tabs(void)
{
}

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

/* always inlined: w is a literal at nearly every call, whose length the
 * compiler then knows (it was strlen's most frequent caller) */
static inline __attribute__((always_inline)) bool word_is(const char *s, size_t n, const char *w)
{
	size_t l = strlen(w);
	return n == l && memcmp(s, w, l) == 0;
}

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

static void lex_c(fl_toks *t)
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

/* ---- token helpers -------------------------------------------------------- */

typedef struct ctx {
	const fl_toks *t;
	size_t *mt; /* bracket matches (both directions), NONE if none */
	const void *tree;
	fl_sites *out;
	const fl_src *src;
} ctx;

static inline bool tk_p1(const fl_toks *t, size_t i, char c)
{
	return i < t->n && t->v[i].kind == FL_TK_PUNCT && t->v[i].len == 1 &&
	       t->src[t->v[i].off] == c;
}

static inline bool tk_p(const fl_toks *t, size_t i, const char *s)
{
	return fl_tok_is_punct(t, i, s);
}

static inline bool tk_id(const fl_toks *t, size_t i, const char *s)
{
	return fl_tok_is_ident(t, i, s);
}

static inline bool is_open(const fl_toks *t, size_t i)
{
	return tk_p1(t, i, '(') || tk_p1(t, i, '[') || tk_p1(t, i, '{');
}

static inline bool is_close(const fl_toks *t, size_t i)
{
	return tk_p1(t, i, ')') || tk_p1(t, i, ']') || tk_p1(t, i, '}');
}

static size_t *compute_match(const fl_toks *t)
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
static int split_args(const ctx *c, size_t open, size_t *st, size_t *en,
		      int max)
{
	size_t close;
	size_t n = fl_tok_split_args(c->t, c->mt, open, st, en, (size_t)max,
				     &close, TF_DIR);
	return close == FL_NOMATCH ? -1 : (int)n;
}

/* ---- messages --------------------------------------------------------------- */

static const char *const wrappers[] = {
	"_", "N_", "Q_", "gettext", "tr", "_T", "TEXT", "_TEXT", "QT_TR_NOOP",
	"string", "string_view", "QString", "QStringLiteral", "QLatin1String",
	"wxString", "to_string", "format", "StrFormat", "u8string", NULL};

/* functions that join their arguments into one string */
static const char *const concatenators[] = {"concat", "StrCat", "str_concat", NULL};

static bool in_list(const fl_toks *t, size_t i, const char *const *l)
{
	for (; *l; l++)
		if (fl_tok_is(t, i, *l))
			return true;
	return false;
}

/* qualified name a::b::c starting at i; returns index of last ident or
 * NONE */
static size_t qual_end(const fl_toks *t, size_t i, size_t e)
{
	size_t k = i;
	if (tk_p(t, k, "::"))
		k++;
	if (k >= e || t->v[k].kind != FL_TK_IDENT)
		return NONE;
	while (k + 2 < e && tk_p(t, k + 1, "::") &&
	       t->v[k + 2].kind == FL_TK_IDENT)
		k += 2;
	return k;
}

static void put_placeholder(const fl_toks *t, size_t b, size_t e, fl_buf *out)
{
	size_t last = NONE, any = NONE;
	int depth = 0;
	for (size_t k = b; k < e; k++) {
		if (is_open(t, k))
			depth++;
		else if (is_close(t, k))
			depth--;
		if (t->v[k].kind == FL_TK_IDENT) {
			any = k;
			if (depth == 0)
				last = k;
		}
	}
	if (last == NONE)
		last = any;
	fl_buf_putc(out, '{');
	if (last != NONE)
		fl_buf_put(out, t->src + t->v[last].off, t->v[last].len);
	fl_buf_putc(out, '}');
}

static bool build_expr(const ctx *c, size_t b, size_t e, fl_buf *out, int lvl);

/* one operand; true when it held a literal */
static bool build_operand(const ctx *c, size_t b, size_t e, fl_buf *out,
			  int lvl)
{
	const fl_toks *t = c->t;
	if (b >= e)
		return false;
	/* ( expr ) */
	if (tk_p1(t, b, '(') && c->mt[b] == e - 1)
		return build_expr(c, b + 1, e - 1, out, lvl + 1);
	/* wrapper( literal ), std::string("..."), fmt::format("...", ...) */
	size_t q = qual_end(t, b, e);
	if (q != NONE && q + 1 < e && (tk_p1(t, q + 1, '(') || tk_p1(t, q + 1, '{')) &&
	    c->mt[q + 1] == e - 1 && in_list(t, q, wrappers)) {
		size_t st[1], en[1];
		if (split_args(c, q + 1, st, en, 1) >= 1) {
			fl_buf tmp = {0};
			bool lit = build_expr(c, st[0], en[0], &tmp, lvl + 1);
			if (lit || fl_tok_is(t, q, "to_string") ||
			    fl_tok_is(t, q, "string")) {
				fl_buf_put(out, tmp.s, tmp.n);
				fl_buf_free(&tmp);
				return lit;
			}
			fl_buf_free(&tmp);
		}
	}
	/* concat("type must be boolean, but is ", j.type_name()),
	 * absl::StrCat(...): the arguments joined, each literal as it is and
	 * anything else a placeholder */
	if (q != NONE && q + 1 < e && tk_p1(t, q + 1, '(') && c->mt[q + 1] == e - 1 &&
	    in_list(t, q, concatenators)) {
		size_t st[16], en[16];
		int na = split_args(c, q + 1, st, en, 16);
		if (na >= 1 && na < 16) {
			bool lit = false;
			for (int a = 0; a < na; a++)
				if (build_expr(c, st[a], en[a], out, lvl + 1))
					lit = true;
			return lit;
		}
	}
	/* x.c_str() / x.str() / x.data() / x.string(): drop the accessor */
	if (e - b >= 5 && tk_p1(t, e - 1, ')') && tk_p1(t, e - 2, '(') &&
	    (tk_id(t, e - 3, "c_str") || tk_id(t, e - 3, "str") ||
	     tk_id(t, e - 3, "data") || tk_id(t, e - 3, "string")) &&
	    (tk_p1(t, e - 4, '.') || tk_p(t, e - 4, "->"))) {
		put_placeholder(t, b, e - 4, out);
		return false;
	}
	/* run of adjacent literals, macros (PRIu64) between them */
	bool any = false, all = true;
	for (size_t k = b; k < e; k++) {
		if (t->v[k].kind == FL_TK_STRING)
			any = true;
		else if (tk_p1(t, k, '#') && k + 1 < e &&
			 t->v[k + 1].kind == FL_TK_IDENT)
			continue; /* macro stringification #x */
		else if (t->v[k].kind != FL_TK_IDENT)
			all = false;
	}
	if (any && all) {
		for (size_t k = b; k < e; k++) {
			if (tk_p1(t, k, '#'))
				continue;
			if (t->v[k].kind == FL_TK_STRING) {
				fl_buf_put(out, fl_tok_str(t, &t->v[k]),
					   t->v[k].slen);
			} else {
				fl_msg_put_macro(out, t->src + t->v[k].off,
						 t->v[k].len);
			}
		}
		return true;
	}
	put_placeholder(t, b, e, out);
	return false;
}

/* expression: operands joined by '+' (C++ string concatenation) */
static bool build_expr(const ctx *c, size_t b, size_t e, fl_buf *out, int lvl)
{
	const fl_toks *t = c->t;
	if (lvl > 50 || b >= e)
		return false;
	bool any = false;
	size_t s = b;
	for (size_t k = b; k <= e; k++) {
		if (k < e && is_open(t, k) && c->mt[k] != NONE && c->mt[k] > k &&
		    c->mt[k] < e) {
			k = c->mt[k];
			continue;
		}
		if (k == e || tk_p1(t, k, '+')) {
			if (k > s && build_operand(c, s, k, out, lvl))
				any = true;
			s = k + 1;
		}
	}
	return any;
}

/* true when the message has at least two letters outside placeholders */
static bool has_text(const char *m)
{
	int letters = 0;
	for (const char *p = m; *p;) {
		if (*p == '%') {
			p++;
			if (*p == '%') {
				p++;
				continue;
			}
			while (*p && strchr("-+ #0123456789.*'", *p))
				p++;
			while (*p && strchr("hlLqjzt", *p))
				p++;
			if (*p)
				p++;
			continue;
		}
		if (*p == '{') {
			const char *q = strchr(p, '}');
			if (q) {
				p = q + 1;
				continue;
			}
		}
		unsigned char ch = (unsigned char)*p;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    ch >= 0x80)
			letters++;
		p++;
	}
	return letters >= 2;
}

/* Message of argument [b, e), or NULL when it holds no literal text. */
/* A message built in out: its text (out's buffer, trimmed; with fmt, %%
 * undoubled), or NULL, out freed, when it holds no literal (lit false) or
 * too little text. */
static char *msg_done(fl_buf *out, bool lit, bool fmt)
{
	if (!lit) {
		fl_buf_free(out);
		return NULL;
	}
	fl_buf_cstr(out);
	fl_msg_trim(out->s);
	if (fmt)
		fl_msg_undouble(out->s, "%");
	if (!has_text(out->s)) {
		fl_buf_free(out);
		return NULL;
	}
	return out->s;
}

static char *arg_msg(const ctx *c, size_t b, size_t e, bool fmt)
{
	fl_buf out = {0};
	return msg_done(&out, build_expr(c, b, e, &out, 0), fmt);
}

/* the argument is a string literal, or a wrapped one */
static bool arg_is_literal(const fl_toks *t, size_t b, size_t e)
{
	if (b >= e)
		return false;
	if (t->v[b].kind == FL_TK_STRING)
		return true;
	if (e - b >= 4 && t->v[b].kind == FL_TK_IDENT &&
	    (fl_tok_is(t, b, "_") || fl_tok_is(t, b, "N_") ||
	     fl_tok_is(t, b, "Q_") || fl_tok_is(t, b, "gettext") ||
	     fl_tok_is(t, b, "_T") || fl_tok_is(t, b, "TEXT") ||
	     fl_tok_is(t, b, "tr")) &&
	    tk_p1(t, b + 1, '(') && t->v[b + 2].kind == FL_TK_STRING)
		return true;
	return false;
}

/* The message a stream insertion chain writes, from token p (a `<<`) to
 * the end of the statement (`LOG(ERROR) << "bad size " << n;`): literals
 * as they are, other operands as placeholders, std::endl and blank
 * character literals left out.  NULL when no literal text is written. */
static char *stream_msg(const ctx *c, size_t p)
{
	const fl_toks *t = c->t;
	fl_buf out = {0};
	bool lit = false;
	for (int ops = 0; ops < 64 && p < t->n && tk_p(t, p, "<<"); ops++) {
		size_t b = p + 1, k = b;
		while (k < t->n && !tk_p(t, k, "<<") && !tk_p1(t, k, ';') &&
		       !tk_p1(t, k, ',') && !is_close(t, k)) {
			if (is_open(t, k) && c->mt[k] != NONE && c->mt[k] > k)
				k = c->mt[k];
			k++;
		}
		if (k == b)
			break;
		p = k;
		if ((k - b == 1 && tk_id(t, b, "endl")) ||
		    (k - b == 3 && tk_id(t, b, "std") && tk_id(t, b + 2, "endl")))
			continue;
		if (k - b == 1 && t->v[b].kind == FL_TK_CHAR) {
			/* ':' stays, '\n' and ' ' do not */
			const char *q = t->src + t->v[b].off;
			if (t->v[b].len == 3 && q[1] != '\\' && q[1] != ' ')
				fl_buf_putc(&out, q[1]);
			continue;
		}
		if (build_expr(c, b, k, &out, 0))
			lit = true;
	}
	return msg_done(&out, lit, false);
}

/* ---- reporter names ----------------------------------------------------- */

enum { SEV_NONE = 0, SEV_WARN, SEV_ERR, SEV_CRIT, SEV_REPORT, SEV_LOG };

/* always inlined so that strlen() of the literal w folds to a constant */
static inline __attribute__((always_inline)) bool ieq(const char *a, size_t n, const char *w)
{
	size_t l = strlen(w);
	if (n != l)
		return false;
	for (size_t i = 0; i < n; i++) {
		char x = a[i], y = w[i];
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return false;
	}
	return true;
}

static inline bool c_lower(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

static inline bool c_upper(char ch)
{
	return ch >= 'A' && ch <= 'Z';
}

/* Severity suggested by the words of a name (split on '_' and at camelCase
 * humps: addReplyErrorFormat = add Reply Error Format); attr=true also
 * accepts the wider word list used for format-attribute functions.
 * SEV_REPORT: a reporting name without a severity word; SEV_LOG: a logging
 * name ("serverLog", "log_msg") that reports only with an error level. */
static int name_sev_uncached(const char *s, size_t n, bool attr)
{
	int best = SEV_NONE;
	bool log = false;
	size_t i = 0, words = 0;
	while (i < n) {
		while (i < n && s[i] == '_')
			i++;
		size_t b = i;
		while (i < n && s[i] != '_' &&
		       !(i > b && c_upper(s[i]) && c_lower(s[i - 1])))
			i++;
		if (i == b)
			break;
		const char *w = s + b;
		size_t l = i - b;
		if (words == 0 &&
		    (ieq(w, l, "is") || ieq(w, l, "has") || ieq(w, l, "get") ||
		     ieq(w, l, "clear") || ieq(w, l, "reset") ||
		     ieq(w, l, "on") || ieq(w, l, "to") || ieq(w, l, "str") ||
		     ieq(w, l, "num") || ieq(w, l, "count") ||
		     ieq(w, l, "should")))
			return SEV_NONE;
		/* checkIgnoreWarning(), warning_ignored(): predicates */
		if (ieq(w, l, "ignore") || ieq(w, l, "ignored"))
			return SEV_NONE;
		if (i == n && words > 0 &&
		    (ieq(w, l, "count") || ieq(w, l, "object") ||
		     ieq(w, l, "dump") ||
		     ieq(w, l, "level") || ieq(w, l, "file") ||
		     ieq(w, l, "fd") || ieq(w, l, "enabled") || ieq(w, l, "code") ||
		     ieq(w, l, "type") || ieq(w, l, "handler") ||
		     ieq(w, l, "callback") || ieq(w, l, "cb") ||
		     ieq(w, l, "fn") || ieq(w, l, "func") || ieq(w, l, "t") ||
		     ieq(w, l, "ptr") || ieq(w, l, "name") ||
		     ieq(w, l, "id") || ieq(w, l, "num") ||
		     ieq(w, l, "len") || ieq(w, l, "size") ||
		     ieq(w, l, "str") || ieq(w, l, "string")))
			return SEV_NONE;
		words++;
		/* a lower-case compound of a setting verb and an error word, for a
		 * function with a printf format attribute: seterr(), set_error's
		 * one-word form, reporterror(), raiseerr() */
		if (attr && l >= 6) {
			static const char *const verbs[] = {"set", "report", "raise", "throw", "record", NULL};
			for (int vi = 0; verbs[vi]; vi++) {
				size_t vl = strlen(verbs[vi]);
				if (l > vl && ieq(w, vl, verbs[vi]) &&
				    (ieq(w + vl, l - vl, "err") || ieq(w + vl, l - vl, "error") ||
				     ieq(w + vl, l - vl, "errf") || ieq(w + vl, l - vl, "errorf"))) {
					w += vl;
					l -= vl;
					break;
				}
			}
		}
		/* printf-style names with a trailing 'f': failf, errorf,
		 * warnf, fatalf, panicf, dief, errf, logf */
		if (l > 3 && w[l - 1] == 'f' &&
		    (ieq(w, l - 1, "die") || ieq(w, l - 1, "fatal") ||
		     ieq(w, l - 1, "panic") || ieq(w, l - 1, "error") ||
		     ieq(w, l - 1, "fail") || ieq(w, l - 1, "warn") ||
		     ieq(w, l - 1, "err") || ieq(w, l - 1, "log")))
			l--;
		int v = SEV_NONE;
		if (ieq(w, l, "die") || ieq(w, l, "fatal") ||
		    ieq(w, l, "panic") || ieq(w, l, "bug") ||
		    ieq(w, l, "croak"))
			v = SEV_CRIT;
		else if (ieq(w, l, "error") || ieq(w, l, "fail"))
			v = SEV_ERR;
		else if (ieq(w, l, "warn") || ieq(w, l, "warning"))
			v = SEV_WARN;
		else if (attr && (ieq(w, l, "abort") || ieq(w, l, "emerg")))
			v = SEV_CRIT;
		else if (attr && (ieq(w, l, "err") || ieq(w, l, "errx") ||
				  ieq(w, l, "failure")))
			v = SEV_ERR;
		else if (attr && (ieq(w, l, "usage") || ieq(w, l, "report") ||
				  ieq(w, l, "complain")))
			v = SEV_REPORT;
		else if (ieq(w, l, "log"))
			log = true;
		if (v == SEV_REPORT) {
			if (best == SEV_NONE)
				best = SEV_REPORT;
		} else if (v != SEV_NONE &&
			   (best == SEV_NONE || best == SEV_REPORT || v > best)) {
			best = v;
		}
	}
	if (best == SEV_NONE && log)
		return SEV_LOG;
	return best;
}

/* name_sev() of the names met before, per thread: a tree calls the same
 * few hundred functions thousands of times.  Names up to 31 bytes. */
struct sev_memo {
	char name[31];
	uint8_t len;          /* 0: empty */
	int8_t sev[2];        /* by attr; SCHAR_MIN: not known yet */
};
#define SEV_MEMO_SIZE 2048
static _Thread_local struct sev_memo sev_memo[SEV_MEMO_SIZE];

static int name_sev(const char *s, size_t n, bool attr)
{
	if (n == 0 || n > sizeof sev_memo[0].name)
		return name_sev_uncached(s, n, attr);
	/* a cheap hash: a collision only costs a recomputation */
	size_t h = n * 131u + (unsigned char)s[0] * 31u +
		   (unsigned char)s[n - 1] * 7u + (unsigned char)s[n / 2] * 17u +
		   (unsigned char)s[n / 3] * 3u;
	struct sev_memo *m = &sev_memo[h & (SEV_MEMO_SIZE - 1)];
	if (m->len != n || memcmp(m->name, s, n) != 0) {
		memcpy(m->name, s, n);
		m->len = (uint8_t)n;
		m->sev[0] = m->sev[1] = SCHAR_MIN;
	}
	if (m->sev[attr] == SCHAR_MIN)
		m->sev[attr] = (int8_t)name_sev_uncached(s, n, attr);
	return m->sev[attr];
}

static const char *sev_str(int s)
{
	return s == SEV_CRIT ? FL_S_CRITICAL : s == SEV_WARN ? FL_S_WARNING
							  : FL_S_ERROR;
}

/* ---- tree: reporter functions with printf format attributes ---------------- */

typedef struct rep {
	char *name;
	int fmt;      /* 1-based index of the format argument */
	bool noret;
} rep;

/* a function-like macro forwarding to a reporter:
 * #define serverPanic(...) _serverPanic(__FILE__, __LINE__, __VA_ARGS__) */
#define MAC_ARGS 16
typedef struct cmac {
	char *name, *target;
	int8_t amap[MAC_ARGS]; /* target arg k -> macro arg (named), -1 none */
	int8_t va_pos;         /* target arg position of __VA_ARGS__, -1 none */
	int8_t nnamed;         /* named macro parameters */
} cmac;

typedef struct ctree {
	rep *v;
	size_t cap, n;
	cmac *mv;
	size_t mn, mcap;
	uint32_t *mh;     /* hash of mv by name: index + 1, 0 = empty */
	size_t mhcap;
} ctree;

static uint64_t hash_name(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* tree_find() with the name's hash_name() given (a call site looks its
 * name up in both tables) */
static const rep *tree_find_h(const ctree *tr, const char *s, size_t n, uint64_t h)
{
	if (!tr || !tr->cap)
		return NULL;
	size_t i = h & (tr->cap - 1);
	while (tr->v[i].name) {
		if (strncmp(tr->v[i].name, s, n) == 0 && tr->v[i].name[n] == '\0')
			return &tr->v[i];
		i = (i + 1) & (tr->cap - 1);
	}
	return NULL;
}

static const rep *tree_find(const ctree *tr, const char *s, size_t n)
{
	return tree_find_h(tr, s, n, hash_name(s, n));
}

static void tree_put(ctree *tr, const char *s, size_t n, int fmt, bool noret)
{
	if (tree_find(tr, s, n))
		return;
	if ((tr->n + 1) * 2 > tr->cap) {
		size_t cap = tr->cap ? tr->cap * 2 : 64;
		rep *v = fl_xcalloc(cap, sizeof *v);
		for (size_t i = 0; i < tr->cap; i++) {
			if (!tr->v[i].name)
				continue;
			size_t j = hash_name(tr->v[i].name,
					     strlen(tr->v[i].name)) & (cap - 1);
			while (v[j].name)
				j = (j + 1) & (cap - 1);
			v[j] = tr->v[i];
		}
		free(tr->v);
		tr->v = v;
		tr->cap = cap;
	}
	size_t j = hash_name(s, n) & (tr->cap - 1);
	while (tr->v[j].name)
		j = (j + 1) & (tr->cap - 1);
	tr->v[j].name = fl_xstrndup(s, n);
	tr->v[j].fmt = fmt;
	tr->v[j].noret = noret;
	tr->n++;
}

static void *c_tree_new(void)
{
	return fl_xcalloc(1, sizeof(ctree));
}

static void c_tree_free(void *p)
{
	ctree *tr = p;
	if (!tr)
		return;
	for (size_t i = 0; i < tr->cap; i++)
		free(tr->v[i].name);
	free(tr->v);
	for (size_t i = 0; i < tr->mn; i++) {
		free(tr->mv[i].name);
		free(tr->mv[i].target);
	}
	free(tr->mv);
	free(tr->mh);
	free(tr);
}

static const cmac *mac_find(const ctree *tr, const char *s, size_t n);
static void mac_add(ctree *tr, const cmac *m);

/* Fold one file's part into the tree: the same first-wins and cap rules as
 * collecting that file into the tree directly (names are moved). */
static void c_tree_merge(void *tree, void *part)
{
	ctree *tr = tree, *p = part;
	for (size_t i = 0; i < p->cap; i++) {
		rep *r = &p->v[i];
		if (r->name && !tree_find(tr, r->name, strlen(r->name)))
			tree_put(tr, r->name, strlen(r->name), r->fmt, r->noret);
	}
	for (size_t i = 0; i < p->mn; i++) {
		cmac *m = &p->mv[i];
		if (tr->mn >= 4096 || mac_find(tr, m->name, strlen(m->name)))
			continue;
		mac_add(tr, m);
		m->name = m->target = NULL;
	}
}

static bool icontains(const char *s, size_t n, const char *w)
{
	size_t l = strlen(w);
	for (size_t i = 0; i + l <= n; i++)
		if (ieq(s + i, l, w))
			return true;
	return false;
}

static bool all_upper(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] >= 'a' && s[i] <= 'z')
			return false;
	return true;
}

/* identifiers that take parentheses but are not the declared name */
static bool attr_like(const fl_toks *t, size_t i)
{
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
#define KW(w) {w, sizeof w - 1}
	static const struct {
		const char *w;
		size_t n;
	} kw[] = {
		KW("__attribute__"), KW("__attribute"), KW("__declspec"), KW("alignas"),
		KW("_Alignas"), KW("alignof"), KW("decltype"), KW("noexcept"), KW("throw"),
		KW("sizeof"), KW("typeof"), KW("__typeof__"), KW("__asm__"), KW("asm"), KW("if"),
		KW("while"), KW("for"), KW("switch"), KW("return"), KW("__THROW"), KW("_Pragma"),
		KW("__pragma"), KW("defined")};
#undef KW
	for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
		if (n == kw[k].n && memcmp(s, kw[k].w, n) == 0)
			return true;
	if (all_upper(s, n) &&
	    (icontains(s, n, "PRINTF") || icontains(s, n, "FORMAT") ||
	     icontains(s, n, "ATTR") || icontains(s, n, "NORETURN") ||
	     icontains(s, n, "GNUC") || icontains(s, n, "LIKE") ||
	     icontains(s, n, "NONNULL") || icontains(s, n, "DEPRECATED")))
		return true;
	if (icontains(s, n, "printflike"))
		return true;
	return false;
}

static bool is_num(const fl_toks *t, size_t i, int *v)
{
	if (i >= t->n || t->v[i].kind != FL_TK_NUMBER)
		return false;
	int x = 0;
	for (size_t k = 0; k < t->v[i].len && k < 4; k++) {
		char ch = t->src[t->v[i].off + k];
		if (ch < '0' || ch > '9')
			return false;
		x = x * 10 + (ch - '0');
	}
	*v = x;
	return true;
}

static void collect_hit(ctree *tr, const ctx *c, size_t hit, int fmt)
{
	const fl_toks *t = c->t;
	bool dir = t->v[hit].flags & TF_DIR;
	/* statement bounds around the hit */
	size_t b = hit;
	while (b > 0) {
		size_t p = b - 1;
		if ((bool)(t->v[p].flags & TF_DIR) != dir)
			break;
		if (is_close(t, p) && c->mt[p] != NONE && c->mt[p] < p) {
			b = c->mt[p];
			continue;
		}
		if (tk_p1(t, p, ';') || tk_p1(t, p, '{') || tk_p1(t, p, '}'))
			break;
		if (t->v[b].flags & TF_DIRSTART)
			break;
		b = p;
		if (hit - b > 4000)
			return;
	}
	size_t e = hit;
	while (e < t->n) {
		if ((bool)(t->v[e].flags & TF_DIR) != dir)
			break;
		if (is_open(t, e) && c->mt[e] != NONE && c->mt[e] > e) {
			e = c->mt[e] + 1;
			continue;
		}
		if (tk_p1(t, e, ';') || tk_p1(t, e, '{') || tk_p1(t, e, '}'))
			break;
		e++;
		if (e - hit > 4000)
			return;
	}
	size_t name = NONE;
	bool noret = false;
	for (size_t k = b; k < e; k++) {
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		const char *s = t->src + t->v[k].off;
		size_t n = t->v[k].len;
		if (icontains(s, n, "noreturn") || word_is(s, n, "__dead2") ||
		    word_is(s, n, "__dead"))
			noret = true;
	}
	for (size_t k = b; k < e; k++) {
		if (is_open(t, k) && !tk_p1(t, k, '(') && c->mt[k] != NONE &&
		    c->mt[k] > k) {
			k = c->mt[k];
			continue;
		}
		if (tk_p1(t, k, '(')) {
			if (k > b && t->v[k - 1].kind == FL_TK_IDENT &&
			    !attr_like(t, k - 1)) {
				name = k - 1;
				break;
			}
			if (c->mt[k] != NONE && c->mt[k] > k)
				k = c->mt[k];
			else
				break;
		}
	}
	if (name == NONE)
		return;
	const char *s = t->src + t->v[name].off;
	size_t n = t->v[name].len;
	if (name_sev(s, n, true) == SEV_NONE && !noret)
		return;
	tree_put(tr, s, n, fmt, noret);
}

static const cmac *mac_find_h(const ctree *tr, const char *s, size_t n, uint64_t hn)
{
	if (!tr || !tr->mhcap)
		return NULL;
	for (size_t h = hn & (tr->mhcap - 1); tr->mh[h];
	     h = (h + 1) & (tr->mhcap - 1)) {
		const cmac *m = &tr->mv[tr->mh[h] - 1];
		if (strncmp(m->name, s, n) == 0 && m->name[n] == '\0')
			return m;
	}
	return NULL;
}

static const cmac *mac_find(const ctree *tr, const char *s, size_t n)
{
	return mac_find_h(tr, s, n, hash_name(s, n));
}

/* Append m (its strings now owned by tr) and index it by name. */
static void mac_add(ctree *tr, const cmac *m)
{
	if (tr->mn == tr->mcap) {
		tr->mcap = tr->mcap ? tr->mcap * 2 : 16;
		tr->mv = fl_xrealloc(tr->mv, tr->mcap * sizeof *tr->mv);
	}
	tr->mv[tr->mn++] = *m;
	if (tr->mn * 2 > tr->mhcap) {
		free(tr->mh);
		tr->mhcap = tr->mhcap ? tr->mhcap * 2 : 64;
		tr->mh = fl_xcalloc(tr->mhcap, sizeof *tr->mh);
		for (size_t i = 0; i < tr->mn; i++) {
			size_t h = hash_name(tr->mv[i].name, strlen(tr->mv[i].name)) & (tr->mhcap - 1);
			while (tr->mh[h])
				h = (h + 1) & (tr->mhcap - 1);
			tr->mh[h] = (uint32_t)(i + 1);
		}
		return;
	}
	size_t h = hash_name(m->name, strlen(m->name)) & (tr->mhcap - 1);
	while (tr->mh[h])
		h = (h + 1) & (tr->mhcap - 1);
	tr->mh[h] = (uint32_t)tr->mn;
}

/* #define NAME(params) ... target(args) ...: record NAME when target is a
 * reporting name and its arguments forward the macro's parameters */
static void collect_macro(ctree *tr, const ctx *c, size_t k)
{
	const fl_toks *t = c->t;
	size_t nm = k + 2, op = k + 3;
	if (!tk_id(t, k + 1, "define") || nm >= t->n || op >= t->n ||
	    t->v[nm].kind != FL_TK_IDENT || tr->mn >= 4096)
		return;
	/* #define failf Curl_failf: an alias of a reporting name */
	if (t->v[op].kind == FL_TK_IDENT && (t->v[op].flags & TF_DIR) &&
	    (op + 1 >= t->n || !(t->v[op + 1].flags & TF_DIR) ||
	     (t->v[op + 1].flags & TF_DIRSTART)) &&
	    name_sev(t->src + t->v[op].off, t->v[op].len, true) != SEV_NONE &&
	    !mac_find(tr, t->src + t->v[nm].off, t->v[nm].len)) {
		cmac m = {.va_pos = 0, .nnamed = 0};
		memset(m.amap, -1, sizeof m.amap);
		m.name = fl_xstrndup(t->src + t->v[nm].off, t->v[nm].len);
		m.target = fl_xstrndup(t->src + t->v[op].off, t->v[op].len);
		mac_add(tr, &m);
		return;
	}
	if (!tk_p1(t, op, '(') || t->v[op].off != t->v[nm].off + t->v[nm].len ||
	    c->mt[op] == NONE)
		return;
	size_t cp = c->mt[op];
	/* parameters */
	size_t par[MAC_ARGS];
	int np = 0;
	bool va = false;
	for (size_t j = op + 1; j < cp; j++) {
		if (t->v[j].kind == FL_TK_IDENT && np < MAC_ARGS)
			par[np++] = j;
		else if (tk_p(t, j, "..."))
			va = true;
	}
	/* #define JSON_THROW(exception) throw exception: JSON_THROW(X(...))
	 * is a throw of X(...) (the target "throw" marks it) */
	size_t b = cp + 1, pe = b + 1;
	bool paren = b + 1 < t->n && tk_p1(t, b + 1, '(');
	if (paren)
		pe = b + 2;
	if (np == 1 && !va && pe < t->n && tk_id(t, b, "throw") &&
	    (t->v[b].flags & TF_DIR) && !(t->v[b].flags & TF_DIRSTART) &&
	    t->v[pe].kind == FL_TK_IDENT && (t->v[pe].flags & TF_DIR) &&
	    t->v[pe].len == t->v[par[0]].len &&
	    memcmp(t->src + t->v[pe].off, t->src + t->v[par[0]].off, t->v[pe].len) == 0 &&
	    (!paren || tk_p1(t, pe + 1, ')'))) {
		size_t after = pe + (paren ? 2 : 1);
		if ((after >= t->n || !(t->v[after].flags & TF_DIR) ||
		     (t->v[after].flags & TF_DIRSTART)) &&
		    !mac_find(tr, t->src + t->v[nm].off, t->v[nm].len)) {
			cmac m = {.va_pos = -1, .nnamed = 1};
			memset(m.amap, -1, sizeof m.amap);
			m.amap[0] = 0;
			m.name = fl_xstrndup(t->src + t->v[nm].off, t->v[nm].len);
			m.target = fl_xstrdup("throw");
			mac_add(tr, &m);
		}
		return;
	}
	for (size_t j = cp + 1; j + 1 < t->n && (t->v[j].flags & TF_DIR) &&
				!(t->v[j].flags & TF_DIRSTART);
	     j++) {
		if (t->v[j].kind != FL_TK_IDENT || !tk_p1(t, j + 1, '(') ||
		    c->mt[j + 1] == NONE)
			continue;
		const char *ts = t->src + t->v[j].off;
		size_t tn = t->v[j].len;
		/* __attribute__((__warning__(msg))): a compiler diagnostic */
		if (attr_like(t, j) ||
		    (tn > 4 && memcmp(ts, "__", 2) == 0 && memcmp(ts + tn - 2, "__", 2) == 0))
			continue;
		if (name_sev(ts, tn, true) == SEV_NONE)
			continue;
		cmac m = {.va_pos = -1, .nnamed = (int8_t)np};
		memset(m.amap, -1, sizeof m.amap);
		bool fwd = false;
		size_t st[MAC_ARGS], en[MAC_ARGS];
		int na = split_args(c, j + 1, st, en, MAC_ARGS);
		for (int a = 0; a < na; a++) {
			if (en[a] - st[a] != 1 || t->v[st[a]].kind != FL_TK_IDENT)
				continue;
			if (va && tk_id(t, st[a], "__VA_ARGS__")) {
				m.va_pos = (int8_t)a;
				fwd = true;
				continue;
			}
			for (int q = 0; q < np; q++)
				if (t->v[par[q]].len == t->v[st[a]].len &&
				    memcmp(t->src + t->v[par[q]].off,
					   t->src + t->v[st[a]].off,
					   t->v[st[a]].len) == 0) {
					m.amap[a] = (int8_t)q;
					fwd = true;
				}
		}
		if (!fwd)
			continue;
		if (mac_find(tr, t->src + t->v[nm].off, t->v[nm].len))
			return;
		m.name = fl_xstrndup(t->src + t->v[nm].off, t->v[nm].len);
		m.target = fl_xstrndup(ts, tn);
		mac_add(tr, &m);
		return;
	}
}

/* Whether c_collect() can find anything in s[0..n), by a byte scan much
 * cheaper than lexing: it may answer yes wrongly, never no wrongly.  A
 * format attribute needs an identifier containing "printf" (any case); a
 * reporting macro needs a `#define NAME` whose rest (the logical line)
 * names a reporting function. */
static bool gap_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* The next token's first byte after p, skipping blanks; NULL when a
 * comment or a line continuation may be there (the caller then assumes a
 * match). */
static const char *gap_fwd(const char *p, const char *end)
{
	while (p < end && gap_ws(*p))
		p++;
	return p < end && (*p == '/' || *p == '\\') ? NULL : p;
}

/* The previous token's last byte before p (> begin), or NULL as gap_fwd. */
static const char *gap_back(const char *p, const char *begin)
{
	while (p > begin && gap_ws(p[-1]))
		p--;
	if (p == begin)
		return begin; /* nothing before: no match, and no comment */
	return p[-1] == '/' || p[-1] == '\\' ? NULL : p - 1;
}

/* A number token at p: its end, or NULL when there is none. */
static const char *pp_number(const char *p, const char *end)
{
	if (p >= end || *p < '0' || *p > '9')
		return NULL;
	while (p < end && ((cclass((unsigned char)*p) & C_IDENT) || *p == '.'))
		p++;
	return p;
}

/* Whether the identifier s[b..e), which contains "printf", can be part of
 * what c_collect() takes for a format attribute: `format(printf, N, M)`
 * (an identifier containing "format" and '(' before it) or `PRINTF(N, M)`
 * (a number list after it). */
static bool printf_attr_like(const char *s, size_t n, size_t b, size_t e)
{
	const char *begin = s, *end = s + n;
	/* NAME(N, M) */
	const char *g = gap_fwd(s + e, end);
	if (!g)
		return true;
	if (g < end && *g == '(') {
		const char *q = gap_fwd(g + 1, end);
		if (!q)
			return true;
		if ((q = pp_number(q, end)) != NULL) {
			if (!(q = gap_fwd(q, end)))
				return true;
			if (q < end && *q == ',') {
				if (!(q = gap_fwd(q + 1, end)))
					return true;
				if ((q = pp_number(q, end)) != NULL) {
					if (!(q = gap_fwd(q, end)) || (q < end && *q == ')'))
						return true;
				}
			}
		}
	}
	/* format(printf, ...: a ',' after it (as c_collect() wants the next
	 * token to be); "printf(" and the like, a call, are not */
	if (g >= end || *g != ',')
		return false;
	const char *p = gap_back(s + b, begin);
	if (!p)
		return true;
	if (p == begin || *p != '(')
		return false;
	p = gap_back(p, begin);
	if (!p)
		return true;
	if (p == begin && !(cclass((unsigned char)*p) & C_IDENT))
		return false;
	const char *ie = p + 1, *ib = ie;
	while (ib > begin && (cclass((unsigned char)ib[-1]) & C_IDENT))
		ib--;
	return icontains(ib, (size_t)(ie - ib), "format");
}

/* The first i' >= i where "pr" starts, in any case (n when none):
 * sixteen bytes at a time with SSE2 (a lone 'p' is too common to stop
 * at), else eight for the 'p'. */
static size_t next_p(const char *s, size_t i, size_t n)
{
#ifdef __SSE2__
	const __m128i low = _mm_set1_epi8(0x20), p = _mm_set1_epi8('p'),
		      r = _mm_set1_epi8('r');
	while (i + 17 <= n) {
		__m128i a = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), low);
		__m128i b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + i + 1)), low);
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_and_si128(_mm_cmpeq_epi8(a, p), _mm_cmpeq_epi8(b, r)));
		if (m)
			return i + (size_t)__builtin_ctz(m);
		i += 16;
	}
#endif
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	while (i + 8 <= n) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		uint64_t x = (w | ones * 0x20) ^ (ones * 'p');
		if ((x - ones) & ~x & high)
			break;
		i += 8;
	}
	while (i < n && (s[i] | 0x20) != 'p')
		i++;
	return i;
}

static bool collect_worth(const char *s, size_t n)
{
	for (size_t i = next_p(s, 0, n); i + 6 <= n; i = next_p(s, i + 1, n)) {
		if (!ieq(s + i, 6, "printf"))
			continue;
		size_t b = i, e = i + 6;
		while (b > 0 && (cclass((unsigned char)s[b - 1]) & C_IDENT))
			b--;
		while (e < n && (cclass((unsigned char)s[e]) & C_IDENT))
			e++;
		if (printf_attr_like(s, n, b, e))
			return true;
		i = e;
	}
	const char *end = s + n;
	for (const char *h = memchr(s, '#', n); h; h = memchr(h + 1, '#', (size_t)(end - h - 1))) {
		/* `# define NAME`: what names a reporter comes after NAME */
		const char *q = gap_fwd(h + 1, end);
		if (!q)
			return true;
		if (end - q < 6 || memcmp(q, "define", 6) != 0 ||
		    (q + 6 < end && (cclass((unsigned char)q[6]) & C_IDENT)))
			continue;
		if (!(q = gap_fwd(q + 6, end)))
			return true;
		while (q < end && (cclass((unsigned char)*q) & C_IDENT))
			q++;
		while (q < end) {
			unsigned char c = (unsigned char)*q;
			if (c == '\n') {
				if (q[-1] == '\\' || (q[-1] == '\r' && q - 2 > h && q[-2] == '\\')) {
					q++;
					continue; /* continued on the next line */
				}
				break;
			}
			if (c == '/' && q + 1 < end && q[1] == '*') {
				/* a comment the directive continues after */
				const char *e = q + 2;
				while (e + 1 < end && !(e[0] == '*' && e[1] == '/')) {
					if (*e == '\n')
						return true;
					e++;
				}
				if (e + 1 >= end)
					return true;
				q = e + 2;
				continue;
			}
			if (!(cclass(c) & C_IDENT)) {
				q++;
				continue;
			}
			const char *b = q;
			while (q < end && (cclass((unsigned char)*q) & C_IDENT))
				q++;
			/* every suffix after a digit too, wherever a number
			 * token may end */
			if (q - b == 5 && memcmp(b, "throw", 5) == 0)
				return true; /* a throwing macro */
			for (const char *w = b; w < q; w++) {
				if (w > b && !(cclass((unsigned char)w[-1]) & C_DIGIT))
					continue;
				if (name_sev(w, (size_t)(q - w), true) != SEV_NONE)
					return true;
			}
		}
		if (q >= end)
			break;
		h = q - 1 > h ? q - 1 : h;
	}
	return false;
}

/* Tests turn the byte scan off to check that it never skips a file the
 * collect pass would find something in. */
bool fl_c_collect_prefilter = true;

/* A file's tokens and bracket matches, lexed by its collect pass and
 * kept for its scan. */
typedef struct lexed {
	fl_toks t;
	size_t *mt;
} lexed;

static void lexed_free(void *p)
{
	lexed *x = p;
	if (!x)
		return;
	free(x->mt);
	fl_toks_free(&x->t);
	free(x);
}

/* Collect the file into tree; its tokens, when it was worth lexing, are
 * returned (keep) or freed. */
static lexed *collect_file(ctree *tr, const fl_src *src, bool keep)
{
	if (!tr || !src->text || !src->len)
		return NULL;
	if (fl_c_collect_prefilter && !collect_worth(src->text, src->len))
		return NULL;
	init_tabs();
	lexed *x = fl_xcalloc(1, sizeof *x);
	fl_toks *t = &x->t;
	fl_toks_init(t, src);
	lex_c(t);
	x->mt = compute_match(t);
	ctx c = {.t = t, .mt = x->mt};
	for (size_t k = 0; k + 2 < t->n; k++) {
		if (t->v[k].flags & TF_DIRSTART) {
			collect_macro(tr, &c, k);
			continue;
		}
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		const char *s = t->src + t->v[k].off;
		size_t n = t->v[k].len;
		int fmt = 0;
		/* the token checks first: cheaper than the names */
		if (k >= 2 && tk_p1(t, k - 1, '(') && tk_p1(t, k + 1, ',') &&
		    t->v[k - 2].kind == FL_TK_IDENT &&
		    (word_is(s, n, "printf") || word_is(s, n, "__printf__") ||
		     word_is(s, n, "gnu_printf") ||
		     word_is(s, n, "__gnu_printf__")) &&
		    icontains(t->src + t->v[k - 2].off, t->v[k - 2].len, "format") &&
		    is_num(t, k + 2, &fmt)) {
			collect_hit(tr, &c, k, fmt);
		} else if (tk_p1(t, k + 1, '(') && tk_p1(t, k + 3, ',') &&
			   tk_p1(t, k + 5, ')') && icontains(s, n, "printf") &&
			   is_num(t, k + 2, &fmt) && is_num(t, k + 4, &(int){0})) {
			collect_hit(tr, &c, k, fmt);
		}
	}
	if (keep)
		return x;
	lexed_free(x);
	return NULL;
}

static void c_collect(void *tree, const fl_src *src)
{
	collect_file(tree, src, false);
}

/* The tokens take 36 bytes each (about 8 times the file's size) from the
 * collect pass to the scan: the core asks for them only while the files
 * kept are not too large, past which lexing again costs less than the
 * fresh pages. */
static void *c_collect_keep(void *tree, const fl_src *src)
{
	return collect_file(tree, src, true);
}

/* ---- scopes ------------------------------------------------------------------ */

enum { SK_TOP = 0, SK_NS, SK_EXTERN, SK_CLASS, SK_FUNC, SK_BLOCK, SK_OTHER };

typedef struct scope {
	uint8_t kind;
	uint32_t ss;     /* statement start (non-function scopes) */
	uint32_t nb, ne; /* name tokens */
	uint32_t gb, ge; /* guard condition tokens (gb == ge: none) */
} scope;

typedef struct sstack {
	scope *v;
	size_t n, cap;
} sstack;

static scope *sk_push(sstack *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		s->v = fl_xrealloc(s->v, cap * sizeof *s->v);
		memset(s->v + s->cap, 0, (cap - s->cap) * sizeof *s->v);
		s->cap = cap;
	}
	scope *sc = &s->v[s->n++];
	memset(sc, 0, sizeof *sc);
	return sc;
}

/* guard of a `{` or a statement preceded by `)` of if/while */
static bool cond_before(const ctx *c, size_t i, uint32_t *gb, uint32_t *ge)
{
	const fl_toks *t = c->t;
	if (i == 0 || !tk_p1(t, i - 1, ')'))
		return false;
	uint32_t o = c->mt[i - 1];
	if (o == NONE || o == 0 || o >= i - 1)
		return false;
	size_t kw = o - 1;
	if (tk_id(t, kw, "constexpr") && kw > 0)
		kw--;
	if (!tk_id(t, kw, "if") && !tk_id(t, kw, "while"))
		return false;
	/* `} while (x);` of a do-while is not a guard */
	if (tk_id(t, kw, "while") && kw > 0 && tk_p1(t, kw - 1, '}'))
		return false;
	*gb = o + 1;
	*ge = (uint32_t)(i - 1);
	return true;
}

/* name chain ending at ident index k: returns first token index */
static size_t chain_start(const fl_toks *t, size_t k)
{
	size_t b = k;
	if (b > 0 && tk_p1(t, b - 1, '~'))
		b--;
	for (int guard = 0; guard < 64 && b >= 2 && tk_p(t, b - 1, "::"); guard++) {
		size_t p = b - 2;
		if (tk_p1(t, p, '>')) {
			int d = 0;
			size_t q = p, lim = 0;
			while (lim++ < 200) {
				if (tk_p1(t, q, '>'))
					d++;
				else if (tk_p(t, q, ">>"))
					d += 2;
				else if (tk_p1(t, q, '<'))
					d--;
				if (d <= 0 || q == 0)
					break;
				q--;
			}
			if (d != 0 || q == 0)
				break;
			p = q - 1;
		}
		if (t->v[p].kind != FL_TK_IDENT)
			break;
		b = p;
	}
	return b;
}

/* Decide what a `{` at index i opens in a non-function scope. */
static void analyze_brace(const ctx *c, size_t ss, size_t i, scope *sc)
{
	const fl_toks *t = c->t;
	size_t cand = NONE;
	bool ns = false, ext = false, en = false, clskw = false, eq = false,
	     stop = false;
	size_t prev = NONE;
	if (i - ss > 100000)
		ss = i - 100000;
	for (size_t k = ss; k < i; k++) {
		if (t->v[k].flags & TF_DIR)
			continue;
		if (is_open(t, k)) {
			if (tk_p1(t, k, '(') && prev != NONE && !stop) {
				if (t->v[prev].kind == FL_TK_IDENT &&
				    !attr_like(t, prev)) {
					bool up = all_upper(t->src + t->v[prev].off,
							    t->v[prev].len);
					if (cand == NONE || !up)
						cand = prev;
				} else if (t->v[prev].kind == FL_TK_PUNCT) {
					for (size_t q = prev; q + 4 > prev && q > ss; q--)
						if (tk_id(t, q - 1, "operator")) {
							cand = q - 1;
							break;
						}
				}
			}
			if (c->mt[k] == NONE || c->mt[k] <= k || c->mt[k] >= i)
				break;
			k = c->mt[k];
			prev = k;
			continue;
		}
		if (t->v[k].kind == FL_TK_IDENT) {
			if (tk_id(t, k, "namespace"))
				ns = true;
			else if (tk_id(t, k, "enum"))
				en = true;
			else if (tk_id(t, k, "extern") &&
				 k + 1 < t->n && t->v[k + 1].kind == FL_TK_STRING)
				ext = true;
			else if ((tk_id(t, k, "class") || tk_id(t, k, "struct") ||
				  tk_id(t, k, "union")) &&
				 !(prev != NONE && (tk_p1(t, prev, '<') ||
						    tk_p1(t, prev, ','))))
				clskw = true;
		} else if (tk_p1(t, k, '=')) {
			if (cand == NONE)
				eq = true;
		} else if ((tk_p1(t, k, ':') || tk_p(t, k, "->")) &&
			   cand != NONE) {
			stop = true;
		}
		prev = k;
	}
	if (ns) {
		sc->kind = SK_NS;
	} else if (ext && cand == NONE) {
		sc->kind = SK_EXTERN;
	} else if (en || eq) {
		sc->kind = SK_OTHER;
	} else if (cand != NONE) {
		sc->kind = SK_FUNC;
		sc->nb = (uint32_t)chain_start(t, cand);
		sc->ne = (uint32_t)cand + 1;
		if (tk_id(t, cand, "operator")) {
			size_t q = cand + 1;
			while (q < i && !tk_p1(t, q, '(') && q - cand < 4)
				q++;
			sc->ne = (uint32_t)q;
		}
	} else if (clskw) {
		sc->kind = SK_CLASS;
		/* name: last identifier before ':' / '{', skipping `final` */
		size_t name = NONE;
		for (size_t k = ss; k < i; k++) {
			if (t->v[k].flags & TF_DIR)
				continue;
			if (tk_p1(t, k, ':'))
				break;
			if (t->v[k].kind == FL_TK_IDENT && !tk_id(t, k, "final") &&
			    !tk_id(t, k, "class") && !tk_id(t, k, "struct") &&
			    !tk_id(t, k, "union"))
				name = k;
			if (is_open(t, k) && c->mt[k] != NONE && c->mt[k] > k &&
			    c->mt[k] < i)
				k = c->mt[k];
		}
		if (name != NONE) {
			sc->nb = (uint32_t)name;
			sc->ne = (uint32_t)name + 1;
		}
	} else {
		sc->kind = SK_OTHER;
	}
}

/* raw text of tokens [b, e) joined, skipping template argument lists */
static void put_name(const fl_toks *t, size_t b, size_t e, fl_buf *out)
{
	int angle = 0;
	for (size_t k = b; k < e; k++) {
		if (tk_p1(t, k, '<')) {
			angle++;
			continue;
		}
		if (angle > 0) {
			if (tk_p1(t, k, '>'))
				angle--;
			else if (tk_p(t, k, ">>"))
				angle -= 2;
			continue;
		}
		fl_buf_put(out, t->src + t->v[k].off, t->v[k].len);
	}
}

static char *func_name(const fl_toks *t, const sstack *s)
{
	size_t f = NONE;
	for (size_t k = s->n; k-- > 0;)
		if (s->v[k].kind == SK_FUNC) {
			f = k;
			break;
		}
	if (f == NONE || s->v[f].nb >= s->v[f].ne)
		return NULL;
	fl_buf out = {0};
	for (size_t k = 0; k < f; k++) {
		if (s->v[k].kind == SK_CLASS && s->v[k].nb < s->v[k].ne) {
			put_name(t, s->v[k].nb, s->v[k].ne, &out);
			fl_buf_puts(&out, "::");
		}
	}
	put_name(t, s->v[f].nb, s->v[f].ne, &out);
	fl_buf_cstr(&out);
	return out.s;
}

/* ---- sites ------------------------------------------------------------------- */

typedef struct walk {
	ctx c;
	sstack main, dir;
	/* #if nesting for main scope depth: saved depth, first-branch end */
	size_t *ifs;
	size_t nifs, capifs;
} walk;

static void emit(walk *w, const sstack *sk, size_t start, size_t at,
		 char *msg, const char *code, const char *cls,
		 const char *type, const char *sev, const char *idiom)
{
	const fl_toks *t = w->c.t;
	if ((!msg || !*msg) && !code) {
		free(msg);
		return;
	}
	/* guard: unbraced if/while right before the statement (skipping a
	 * `return`), else the braced block's condition */
	uint32_t gb = 0, ge = 0;
	size_t s0 = start;
	if (tk_id(t, s0 - 1, "return") && s0 > 0)
		s0--;
	if (!cond_before(&w->c, s0, &gb, &ge)) {
		gb = ge = 0;
		if (sk->n > 0) {
			const scope *top = &sk->v[sk->n - 1];
			bool stmt_else = s0 > 0 && tk_id(t, s0 - 1, "else");
			if (!stmt_else && top->kind == SK_BLOCK) {
				gb = top->gb;
				ge = top->ge;
			}
		}
	}
	char *guard = gb < ge ? fl_tok_span_text(t, gb, ge, 200) : NULL;
	char *fn = (t->v[at].flags & TF_DIR) ? NULL : func_name(t, sk);
	fl_site site = {
		.line = t->v[at].line,
		.col = t->v[at].col,
		.message = msg,
		.code = code,
		.cls = cls,
		.type = type,
		.severity = sev,
		.function = fn,
		.guard = guard,
		.idiom = idiom,
	};
	fl_site_add(w->c.out, &site);
	free(msg);
	free(guard);
	free(fn);
}

#define MAXA 16

static int level_sev_syslog(const fl_toks *t, size_t b, size_t e)
{
	for (size_t k = b; k < e; k++) {
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		const char *s = t->src + t->v[k].off;
		size_t n = t->v[k].len;
		if (word_is(s, n, "LOG_EMERG") || word_is(s, n, "LOG_ALERT") ||
		    word_is(s, n, "LOG_CRIT"))
			return SEV_CRIT;
		if (word_is(s, n, "LOG_ERR"))
			return SEV_ERR;
		if (word_is(s, n, "LOG_WARNING") || word_is(s, n, "LOG_WARN"))
			return SEV_WARN;
	}
	return SEV_NONE;
}

static int level_sev_pg(const fl_toks *t, size_t b, size_t e)
{
	for (size_t k = b; k < e; k++) {
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		const char *s = t->src + t->v[k].off;
		size_t n = t->v[k].len;
		if (word_is(s, n, "ERROR"))
			return SEV_ERR;
		if (word_is(s, n, "FATAL") || word_is(s, n, "PANIC"))
			return SEV_CRIT;
		if (word_is(s, n, "WARNING"))
			return SEV_WARN;
	}
	return SEV_NONE;
}

/* generic level argument of a reporter: returns SEV_* or -1 for a
 * non-reporting level (info/debug) */
static int level_sev_generic(const fl_toks *t, size_t b, size_t e)
{
	if (e - b != 1 || t->v[b].kind != FL_TK_IDENT)
		return SEV_NONE;
	const char *s = t->src + t->v[b].off;
	size_t n = t->v[b].len;
	if (!all_upper(s, n))
		return SEV_NONE;
	if (icontains(s, n, "CRIT") || icontains(s, n, "FATAL") ||
	    icontains(s, n, "EMERG") || icontains(s, n, "ALERT") ||
	    icontains(s, n, "PANIC"))
		return SEV_CRIT;
	if (icontains(s, n, "ERR"))
		return SEV_ERR;
	if (icontains(s, n, "WARN"))
		return SEV_WARN;
	if (icontains(s, n, "INFO") || icontains(s, n, "DEBUG") ||
	    icontains(s, n, "NOTICE") || icontains(s, n, "TRACE") ||
	    icontains(s, n, "VERBOSE"))
		return -1;
	return SEV_NONE;
}

static bool is_stderr(const fl_toks *t, size_t b, size_t e)
{
	if (e - b == 1 && (tk_id(t, b, "stderr") || tk_id(t, b, "__stderrp")))
		return true;
	if (e - b == 3 && tk_id(t, b, "std") && tk_p(t, b + 1, "::") &&
	    tk_id(t, b + 2, "stderr"))
		return true;
	return false;
}

/* static member functions that build the exception they are called on:
 * `throw type_error::create(302, "...", &j)` throws a type_error */
static const char *const factories[] = {"create", "Create", "make", "Make", "make_error", "New", NULL};

/* A throw at token i of the expression starting at token j: `throw X(...)`,
 * `throw new X(...)`, `throw "..."`, `throw X::create(code, "...")`, or a
 * throwing macro's argument (JSON_THROW(X(...))). */
static void site_throw_expr(walk *w, const sstack *sk, size_t i, size_t j)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	bool nw = false;
	if (tk_id(t, j, "new")) {
		nw = true;
		j++;
	}
	const char *idiom = nw ? "throw new" : "throw";
	if (j >= t->n)
		return;
	if (t->v[j].kind == FL_TK_STRING || arg_is_literal(t, j, t->n)) {
		size_t e = j;
		while (e < t->n && !tk_p1(t, e, ';') && !tk_p1(t, e, ',') &&
		       !is_close(t, e) && (t->v[e].flags & TF_DIR) ==
						  (t->v[i].flags & TF_DIR)) {
			if (is_open(t, e) && c->mt[e] != NONE && c->mt[e] > e)
				e = c->mt[e];
			e++;
		}
		emit(w, sk, i, i, arg_msg(c, j, e, false), NULL, NULL,
		     FL_T_EXCEPTION, FL_S_ERROR, idiom);
		return;
	}
	size_t q = qual_end(t, j, t->n);
	if (q == NONE)
		return;
	size_t k = q + 1;
	if (tk_p1(t, k, '<')) {
		int d = 0;
		size_t lim = 0;
		for (; k < t->n && lim < 400; k++, lim++) {
			if (tk_p1(t, k, '<'))
				d++;
			else if (tk_p1(t, k, '>'))
				d--;
			else if (tk_p(t, k, ">>"))
				d -= 2;
			else if (tk_p1(t, k, ';'))
				return;
			if (d <= 0)
				break;
		}
		k++;
	}
	if (!tk_p1(t, k, '(') && !tk_p1(t, k, '{'))
		return;
	/* X::create(...): the class is X */
	bool factory = q >= j + 2 && tk_p(t, q - 1, "::") && in_list(t, q, factories);
	fl_buf cb = {0};
	put_name(t, j, factory ? q - 1 : q + 1, &cb);
	fl_buf_cstr(&cb);
	size_t st[MAXA], en[MAXA];
	int na = split_args(c, k, st, en, MAXA);
	char *msg = NULL, *code = NULL;
	int a = 0;
	if (na == 0) {
		if (!factory)
			msg = fl_xstrdup(cb.s);
	} else {
		for (; a < na && !msg; a++)
			msg = arg_msg(c, st[a], en[a], false);
	}
	/* a factory's leading number is the error's id within its class:
	 * type_error::create(302, ...) is type_error.302, as nlohmann/json
	 * prints it ("[json.exception.type_error.302] ...") */
	if (factory && msg && a >= 2 && en[0] - st[0] == 1 &&
	    t->v[st[0]].kind == FL_TK_NUMBER) {
		const char *cls = strrchr(cb.s, ':');
		cls = cls ? cls + 1 : cb.s;
		char *num = fl_tok_dup(t, st[0]);
		code = fl_xjoin(cls, ".", num);
		free(num);
	}
	if (msg)
		emit(w, sk, i, i, msg, code, cb.s, FL_T_EXCEPTION, FL_S_ERROR,
		     idiom);
	free(code);
	fl_buf_free(&cb);
}

static void site_throw(walk *w, const sstack *sk, size_t i)
{
	site_throw_expr(w, sk, i, i + 1);
}

static void site_ereport(walk *w, const sstack *sk, size_t start, size_t i,
			 size_t *st, size_t *en, int na, bool elog)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	if (na < 2)
		return;
	int sev = level_sev_pg(t, st[0], en[0]);
	if (sev == SEV_NONE)
		return;
	const char *type = sev == SEV_WARN ? FL_T_CONSOLE : FL_T_EXCEPTION;
	if (elog) {
		emit(w, sk, start, i, arg_msg(c, st[1], en[1], true), NULL, NULL,
		     type, sev_str(sev), "elog");
		return;
	}
	char *msg = NULL, *code = NULL;
	size_t close = c->mt[i + 1];
	for (size_t k = st[1]; k < close; k++) {
		if (t->v[k].kind != FL_TK_IDENT || !tk_p1(t, k + 1, '('))
			continue;
		size_t a[1], b[1];
		if (!msg && (tk_id(t, k, "errmsg") ||
			     tk_id(t, k, "errmsg_internal") ||
			     tk_id(t, k, "errmsg_plural"))) {
			if (split_args(c, k + 1, a, b, 1) >= 1)
				msg = arg_msg(c, a[0], b[0], true);
		} else if (!code && tk_id(t, k, "errcode")) {
			if (split_args(c, k + 1, a, b, 1) >= 1 && b[0] - a[0] == 1 &&
			    t->v[a[0]].kind == FL_TK_IDENT)
				code = fl_tok_dup(t, a[0]);
		}
	}
	emit(w, sk, start, i, msg, code, NULL, type, sev_str(sev), "ereport");
	free(code);
}

/* glog and Abseil logging at token i (name s, n bytes, at most 13):
 * LOG(ERROR) / ABSL_LOG(ERROR) <<
 * "...", PLOG(FATAL) << ..., DLOG(WARNING) << ..., and the CHECK macros,
 * which abort with their message (CHECK(p != nullptr) << "..."); true when
 * i is one of them followed by `<<` (a site or, LOG(INFO), none). */
static bool site_stream_log(walk *w, const sstack *sk, size_t i, const char *s, size_t n)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	size_t close = c->mt[i + 1];
	char nm[16];
	memcpy(nm, s, n);
	nm[n] = '\0';
	if (n > 5 && memcmp(s, "ABSL_", 5) == 0) { /* ABSL_LOG(ERROR) */
		s += 5;
		n -= 5;
	}
	bool log = word_is(s, n, "LOG") || word_is(s, n, "PLOG") || word_is(s, n, "DLOG");
	bool check = !log && (word_is(s, n, "CHECK") || word_is(s, n, "PCHECK") ||
			      word_is(s, n, "CHECK_EQ") || word_is(s, n, "CHECK_NE") ||
			      word_is(s, n, "CHECK_LT") || word_is(s, n, "CHECK_LE") ||
			      word_is(s, n, "CHECK_GT") || word_is(s, n, "CHECK_GE"));
	if (!log && !check)
		return false;
	/* without a stream after it, it is some other LOG(...) or CHECK(...)
	 * (a project's printf-like LOG(level, fmt, ...)): not decided here */
	if (close == NONE || !tk_p(t, close + 1, "<<"))
		return false;
	const char *sev = FL_S_CRITICAL, *type = FL_T_PANIC;
	if (log) {
		if (close != i + 3 || t->v[i + 2].kind != FL_TK_IDENT)
			return true;
		const char *l = t->src + t->v[i + 2].off;
		size_t ln = t->v[i + 2].len;
		type = FL_T_CONSOLE;
		if (word_is(l, ln, "ERROR"))
			sev = FL_S_ERROR;
		else if (word_is(l, ln, "WARNING"))
			sev = FL_S_WARNING;
		else if (!word_is(l, ln, "FATAL") && !word_is(l, ln, "DFATAL") &&
			 !word_is(l, ln, "QFATAL"))
			return true; /* INFO, VERBOSE ... */
	}
	emit(w, sk, i, i, stream_msg(c, close + 1), NULL, NULL, type, sev, nm);
	return true;
}

static void site_call(walk *w, const sstack *sk, size_t i)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	if (i > 0 && (tk_p1(t, i - 1, '.') || tk_p(t, i - 1, "->")))
		return;
	size_t start = i;
	if (i > 0 && tk_p(t, i - 1, "::")) {
		start = i - 1;
		if (start > 0 && t->v[start - 1].kind == FL_TK_IDENT)
			start--;
	}
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	size_t st[MAXA], en[MAXA];
	int na = -2;
	char nm[64];
	{
		size_t l = n < sizeof nm - 1 ? n : sizeof nm - 1;
		memcpy(nm, s, l);
		nm[l] = '\0';
	}
#define ARGS() (na == -2 ? (na = split_args(c, i + 1, st, en, MAXA)) : na)
#define NAME(x) word_is(s, n, x)
	/* glog / Abseil: LOG(ERROR) << "..." and CHECK(cond) << "..." */
	if (start == i && n >= 3 && n <= 13 && memchr("LPDCA", s[0], 5) &&
	    site_stream_log(w, sk, i, s, n))
		return;
	/* spdlog::error("cannot open {}", path) */
	if (start != i && i >= 2 && tk_id(t, i - 2, "spdlog") &&
	    (NAME("error") || NAME("critical") || NAME("warn"))) {
		if (ARGS() >= 1)
			emit(w, sk, start, i, arg_msg(c, st[0], en[0], false), NULL,
			     NULL, FL_T_CONSOLE,
			     NAME("critical") ? FL_S_CRITICAL : NAME("warn") ? FL_S_WARNING : FL_S_ERROR,
			     "spdlog");
		return;
	}
	/* the library reporters below all start with one of these letters
	 * and are 3-19 bytes long: most calls are none of them */
	if (n < 3 || n > 19 || !memchr("evwpfsgP", s[0], 8))
		goto project;
	if (NAME("err") || NAME("errx") || NAME("verr") || NAME("verrx")) {
		if (ARGS() >= 2)
			emit(w, sk, start, i, arg_msg(c, st[1], en[1], true), NULL,
			     NULL, FL_T_CONSOLE, FL_S_CRITICAL, nm);
		return;
	}
	if (NAME("warn") || NAME("warnx") || NAME("vwarn") || NAME("vwarnx")) {
		if (ARGS() >= 1)
			emit(w, sk, start, i, arg_msg(c, st[0], en[0], true), NULL,
			     NULL, FL_T_CONSOLE, FL_S_WARNING, nm);
		return;
	}
	if (NAME("perror")) {
		if (ARGS() >= 1)
			emit(w, sk, start, i, arg_msg(c, st[0], en[0], false), NULL,
			     NULL, FL_T_CONSOLE, FL_S_ERROR, "perror");
		return;
	}
	if (NAME("fprintf") || NAME("vfprintf") || NAME("fwprintf")) {
		if (ARGS() >= 2 && is_stderr(t, st[0], en[0]))
			emit(w, sk, start, i, arg_msg(c, st[1], en[1], true), NULL,
			     NULL, FL_T_CONSOLE, FL_S_ERROR, "fprintf(stderr)");
		return;
	}
	if (NAME("fputs") || NAME("fputws")) {
		if (ARGS() >= 2 && is_stderr(t, st[1], en[1]))
			emit(w, sk, start, i, arg_msg(c, st[0], en[0], false), NULL,
			     NULL, FL_T_CONSOLE, FL_S_ERROR, "fputs(stderr)");
		return;
	}
	if (NAME("syslog") || NAME("vsyslog")) {
		if (ARGS() >= 2) {
			int sev = level_sev_syslog(t, st[0], en[0]);
			if (sev != SEV_NONE)
				emit(w, sk, start, i, arg_msg(c, st[1], en[1], true),
				     NULL, NULL, FL_T_CONSOLE, sev_str(sev), "syslog");
		}
		return;
	}
	if (NAME("g_error") || NAME("g_critical") || NAME("g_warning")) {
		if (ARGS() >= 1)
			emit(w, sk, start, i, arg_msg(c, st[0], en[0], true), NULL,
			     NULL, FL_T_CONSOLE,
			     NAME("g_warning") ? FL_S_WARNING : FL_S_CRITICAL,
			     nm);
		return;
	}
	if (NAME("g_set_error") || NAME("g_set_error_literal")) {
		if (ARGS() >= 4)
			emit(w, sk, start, i,
			     arg_msg(c, st[3], en[3], NAME("g_set_error")), NULL,
			     NULL, FL_T_EXCEPTION, FL_S_ERROR,
			     nm);
		return;
	}
	if (NAME("ereport") || NAME("elog")) {
		if (ARGS() >= 2)
			site_ereport(w, sk, start, i, st, en, na, NAME("elog"));
		return;
	}
	if (NAME("PyErr_SetString") || NAME("PyErr_Format")) {
		if (ARGS() >= 2 && en[0] - st[0] == 1 &&
		    t->v[st[0]].kind == FL_TK_IDENT) {
			const char *cs = t->src + t->v[st[0]].off;
			size_t cl = t->v[st[0]].len;
			if (cl > 7 && memcmp(cs, "PyExc_", 6) == 0) {
				cs += 6;
				cl -= 6;
			}
			char *cls = fl_xstrndup(cs, cl);
			emit(w, sk, start, i,
			     arg_msg(c, st[1], en[1], NAME("PyErr_Format")), NULL,
			     cls, FL_T_EXCEPTION, FL_S_ERROR,
			     nm);
			free(cls);
		}
		return;
	}
project:
	/* status returns of LevelDB/RocksDB/Abseil style:
	 * Status::Corruption("bad block handle"),
	 * absl::InvalidArgumentError("...") */
	if (start != i && i >= 2 &&
	    ((tk_id(t, i - 2, "Status") && n >= 5 && s[0] >= 'A' && s[0] <= 'Z' &&
	      !NAME("OK") && !NAME("Status") && !NAME("CopyState") &&
	      !NAME("ToString") && !(n > 2 && s[0] == 'I' && s[1] == 's')) ||
	     (tk_id(t, i - 2, "absl") && n > 5 && s[0] >= 'A' && s[0] <= 'Z' &&
	      memcmp(s + n - 5, "Error", 5) == 0))) {
		if (ARGS() <= 0 || na > 2)
			return;
		/* Status(code, msg, msg2) prints "msg: msg2" */
		fl_buf mb = {0};
		bool lit = false;
		for (int a = 0; a < na; a++) {
			if (a)
				fl_buf_puts(&mb, ": ");
			char *m = arg_msg(c, st[a], en[a], false);
			if (m) {
				lit = true;
				fl_buf_puts(&mb, m);
				free(m);
			} else {
				put_placeholder(t, st[a], en[a], &mb);
			}
		}
		fl_buf_cstr(&mb);
		bool absl = tk_id(t, i - 2, "absl");
		char *code = fl_xstrndup(s, absl ? n - 5 : n);
		if (lit)
			emit(w, sk, start, i, fl_xstrdup(mb.s), code,
			     absl ? "absl::Status" : "Status", FL_T_ERROR_CODE,
			     FL_S_ERROR, absl ? "absl::Status" : "Status::");
		free(code);
		fl_buf_free(&mb);
		return;
	}
	/* the project's own reporters */
	if (start > 0 && (tk_id(t, start - 1, "throw") || tk_id(t, start - 1, "new")))
		return;
	/* __warning__("...") in __attribute__((...)): a compiler diagnostic */
	if (n > 4 && s[0] == '_' && s[1] == '_' && s[n - 2] == '_' && s[n - 1] == '_')
		return;
	uint64_t hn = hash_name(s, n);
	if (start == i) {
		/* a macro that throws its argument */
		const cmac *tm = mac_find_h(w->c.tree, s, n, hn);
		if (tm && strcmp(tm->target, "throw") == 0) {
			if (i + 2 < c->mt[i + 1])
				site_throw_expr(w, sk, i, i + 2);
			return;
		}
	}
	const rep *r = tree_find_h(w->c.tree, s, n, hn);
	if (!r && start != i)
		return; /* std::runtime_error(...) etc. */
	int nsev = name_sev(s, n, r != NULL);
	/* a macro forwarding to a reporter: its format argument is the
	 * target's, moved by the arguments the macro adds (__FILE__...) */
	const cmac *mc = r ? NULL : mac_find_h(w->c.tree, s, n, hn);
	int mfmt = -1;
	if (mc) {
		const rep *tr = tree_find(w->c.tree, mc->target, strlen(mc->target));
		int tsev = name_sev(mc->target, strlen(mc->target), tr != NULL);
		if (nsev == SEV_NONE || nsev == SEV_REPORT || nsev == SEV_LOG)
			nsev = tsev == SEV_NONE ? nsev : tsev;
		if (tr && tr->fmt >= 1 && tr->fmt <= MAC_ARGS) {
			int f = tr->fmt - 1;
			if (mc->va_pos >= 0 && f >= mc->va_pos)
				mfmt = mc->nnamed + (f - mc->va_pos);
			else
				mfmt = mc->amap[f];
			/* mfmt < 0: the macro supplies the format itself
			 * (BUG("%s: %s", msg, ...)): take the first literal
			 * argument as below */
		}
		if (tr && tr->noret)
			nsev = nsev == SEV_NONE || nsev == SEV_REPORT ? SEV_CRIT : nsev;
	}
	if (!r && !mc && (nsev == SEV_NONE || nsev == SEV_REPORT))
		return;
	if (mc && nsev == SEV_NONE)
		return;
	if (ARGS() <= 0)
		return;
	int argi = -1;
	if (mfmt >= 0) {
		if (mfmt >= na || mfmt >= MAXA)
			return;
		argi = mfmt;
	} else if (r) {
		if (r->fmt < 1 || r->fmt > na || r->fmt > MAXA)
			return;
		argi = r->fmt - 1;
	} else {
		for (int a = 0; a < na && a < MAXA; a++)
			if (arg_is_literal(t, st[a], en[a])) {
				argi = a;
				break;
			}
		if (argi < 0)
			return;
	}
	int sev = nsev;
	if (sev == SEV_NONE || sev == SEV_REPORT || sev == SEV_LOG) {
		int lv = SEV_NONE;
		for (int a = 0; a < argi; a++) {
			int x = level_sev_generic(t, st[a], en[a]);
			if (x != SEV_NONE) {
				lv = x;
				break;
			}
		}
		if (lv < 0)
			return;
		/* a logger reports only at an error or warning level */
		if (sev == SEV_LOG && lv == SEV_NONE)
			return;
		sev = lv != SEV_NONE ? lv : (r && r->noret) ? SEV_CRIT : SEV_ERR;
	}
	emit(w, sk, start, i, arg_msg(c, st[argi], en[argi], true), NULL, NULL,
	     FL_T_CONSOLE, sev_str(sev), nm);
#undef ARGS
#undef NAME
}

static void walk_tokens(walk *w)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	sk_push(&w->main)->kind = SK_TOP;
	uint32_t dk = DK_OTHER; /* the kind of the directive dir tokens are in */
	for (size_t i = 0; i < t->n; i++) {
		const fl_tok *k = &t->v[i];
		bool dir = k->flags & TF_DIR;
		if (k->flags & TF_DIRSTART) {
			dk = k->str;
			w->dir.n = 0;
			sk_push(&w->dir)->kind = SK_OTHER;
			/* keep the main scope depth consistent across #if
			 * branches */
			if (k->str == DK_IF) {
				if (w->nifs + 2 > w->capifs) {
					w->capifs = w->capifs ? w->capifs * 2 : 32;
					w->ifs = fl_xrealloc(w->ifs, w->capifs * 2 *
								      sizeof *w->ifs);
				}
				w->ifs[2 * w->nifs] = w->main.n;
				w->ifs[2 * w->nifs + 1] = SIZE_MAX;
				w->nifs++;
			} else if (k->str == DK_ELSE && w->nifs) {
				size_t *e = &w->ifs[2 * (w->nifs - 1)];
				if (e[1] == SIZE_MAX)
					e[1] = w->main.n;
				if (e[0] <= w->main.cap && e[0] >= 1)
					w->main.n = e[0];
			} else if (k->str == DK_ENDIF && w->nifs) {
				size_t *e = &w->ifs[2 * (w->nifs - 1)];
				if (e[1] != SIZE_MAX && e[1] <= w->main.cap &&
				    e[1] >= 1)
					w->main.n = e[1];
				w->nifs--;
			}
		}
		sstack *sk = dir ? &w->dir : &w->main;
		if (k->kind == FL_TK_PUNCT && k->len == 1) {
			char ch = t->src[k->off];
			scope *top = &sk->v[sk->n - 1];
			if (ch == '{') {
				uint8_t tk = top->kind;
				uint32_t ss = top->ss;
				scope *sc = sk_push(sk);
				if (!dir && (tk == SK_TOP || tk == SK_NS ||
					     tk == SK_EXTERN || tk == SK_CLASS)) {
					analyze_brace(c, ss, i, sc);
				} else {
					sc->kind = (tk == SK_OTHER && !dir) ? SK_OTHER
									    : SK_BLOCK;
					if (tk == SK_CLASS || tk == SK_FUNC ||
					    tk == SK_BLOCK || dir)
						sc->kind = SK_BLOCK;
					cond_before(c, i, &sc->gb, &sc->ge);
				}
				sc->ss = (uint32_t)i + 1;
			} else if (ch == '}') {
				if (sk->n > 1)
					sk->n--;
				sk->v[sk->n - 1].ss = (uint32_t)i + 1;
			} else if (ch == ';') {
				top->ss = (uint32_t)i + 1;
			}
			continue;
		}
		if (k->kind != FL_TK_IDENT)
			continue;
		/* an #if or #elif condition calls nothing
		 * (JSON_HEDLEY_HAS_WARNING("-Wc++98-compat")) */
		if (dir && (dk == DK_IF || dk == DK_ELSE))
			continue;
		if (tk_id(t, i, "throw")) {
			site_throw(w, sk, i);
			continue;
		}
		/* std::cerr << "bad input: " << n */
		if (tk_id(t, i, "cerr") && tk_p(t, i + 1, "<<") &&
		    (i == 0 || !tk_p1(t, i - 1, '.'))) {
			size_t at = i >= 2 && tk_id(t, i - 2, "std") && tk_p(t, i - 1, "::") ? i - 2 : i;
			emit(w, sk, at, at, stream_msg(c, i + 1), NULL, NULL, FL_T_CONSOLE,
			     FL_S_ERROR, "std::cerr");
			continue;
		}
		if (tk_p1(t, i + 1, '(') && c->mt[i + 1] != NONE &&
		    (t->v[i + 1].flags & TF_DIR) == (k->flags & TF_DIR))
			site_call(w, sk, i);
	}
}

static void c_scan(const void *tree, const fl_src *src, fl_sites *out)
{
	lexed *x = src ? src->cache : NULL;
	if (!src || !src->text) {
		lexed_free(x);
		return;
	}
	init_tabs();
	fl_toks t;
	size_t *mt;
	if (x) {
		/* lexed by the collect pass, from this same text */
		t = x->t;
		mt = x->mt;
		free(x);
	} else {
		fl_toks_init(&t, src);
		lex_c(&t);
		mt = compute_match(&t);
	}
	walk w;
	memset(&w, 0, sizeof w);
	w.c.t = &t;
	w.c.mt = mt;
	w.c.tree = tree;
	w.c.out = out;
	w.c.src = src;
	walk_tokens(&w);
	free(w.main.v);
	free(w.dir.v);
	free(w.ifs);
	free(w.c.mt);
	fl_toks_free(&t);
}

/* ---- test files ------------------------------------------------------------ */

static bool c_is_test_file(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *dot = strrchr(b, '.');
	if (!dot)
		return false;
	size_t stem = (size_t)(dot - b);
	static const char *const suf[] = {"_test", "_tests", "_unittest",
					  "-test", NULL};
	for (const char *const *s = suf; *s; s++) {
		size_t l = strlen(*s);
		if (stem > l && memcmp(b + stem - l, *s, l) == 0)
			return true;
	}
	if (stem > 5 && memcmp(b, "test_", 5) == 0)
		return true;
	return false;
}

static const char *const exts[] = {".c",   ".h",   ".cc",  ".cpp", ".cxx",
				   ".c++", ".hpp", ".hh",  ".hxx", ".inl",
				   NULL};

const fl_lang fl_lang_c = {
	.name = "c",
	.extensions = exts,
	.is_test_file = c_is_test_file,
	.tree_new = c_tree_new,
	.tree_free = c_tree_free,
	.collect = c_collect,
	.tree_merge = c_tree_merge,
	.collect_keep = c_collect_keep,
	.cache_free = lexed_free,
	.scan = c_scan,
};
