/*
 * lang_jvm.c — Java, Kotlin and Scala (dialect by extension).
 *
 * Lexer: // and block comments (nested in Kotlin/Scala), Java strings and
 * text blocks (incidental indentation stripped per the JLS), Kotlin strings
 * and raw strings with templates ("$x", "${expr}" -> "${x}", "${expr}"),
 * Scala strings, raw strings and interpolators (s"", f"", raw"", any id""),
 * char literals, backtick identifiers, annotations.
 *
 * Rules: throw [new] X(...), Kotlin error/require/check/requireNotNull/
 * checkNotNull, Scala require/sys.error, Guava Preconditions, Objects.
 * requireNonNull, SLF4J/log4j/JUL/Android logging, Spring
 * ResponseStatusException, and exception constructors outside `throw`
 * (orElseThrow(() -> new X("..."))).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "../strmap.h"
#include "lex.h"
#include "../util.h"

enum { D_JAVA, D_KOTLIN, D_SCALA };

#define NOIDX FL_NOMATCH
#define THROWER "throws:" /* tree key prefix of thrower methods */
#define MAX_ARG_TOKS 256
#define MAX_ARG_DEPTH 48
#define MAX_TMPL_DEPTH 24

/* ======================================================================
 * lexer
 * ====================================================================== */

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

static void jvm_lex(lx *L)
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

/* ======================================================================
 * rules
 * ====================================================================== */

enum { SC_OTHER, SC_CLASS, SC_FUNC, SC_IF, SC_SWITCH };

typedef fl_scope scope;

typedef struct ctx {
	fl_toks t;
	int d;
	const fl_src *src;
	fl_sites *out;
	size_t *match; /* fl_tok_match_table, FL_MATCH_INNERMOST */
	fl_scopes sc; /* scopes and their names */
	int paren;
	int line_col; /* column of the first token of the current line */
	/* pending declaration */
	int pend_kind; /* 0, SC_CLASS, SC_FUNC */
	uint32_t pend_name;
	int pend_paren;
	int pend_col;
	/* expression-bodied function */
	bool xf_on;
	int32_t xf_fn;
	size_t xf_depth;
	int xf_col;
	fl_factories fac; /* the file's exception factories, found on first use */
	const fl_factories *ctors; /* constructors of the tree's exception
				      classes (collect()), or NULL */
	fl_buf *log;      /* an early scan (collect_scan): the tree is taken
			     for empty, and each lookup is logged here */
	fl_strmap own;    /* reporter-named methods declared in this file:
			     1 a thrower, 0 not (built on first use) */
	bool own_built;
} ctx;

static inline bool is_s(const ctx *c, size_t i, const char *s)
{
	return fl_tok_is(&c->t, i, s);
}

/* string-literal arguments only */
#define is(c, i, lit) fl_tok_is(&(c)->t, (i), "" lit)
#define is_p(c, i, lit) fl_tok_is_punct(&(c)->t, (i), "" lit)

static inline bool is_id(const ctx *c, size_t i)
{
	return fl_tok_is_kind(&c->t, i, FL_TK_IDENT);
}

static const char *tsrc(const ctx *c, size_t i)
{
	return c->t.src + c->t.v[i].off;
}

/* Arguments of the bracket opened at `open` (at most max). */
static size_t args(const ctx *c, size_t open, size_t *st, size_t *en,
		   size_t max, size_t *close)
{
	return fl_tok_split_args(&c->t, c->match, open, st, en, max, close, 0);
}

static const char *const plus_ops[] = {"+", NULL};

/* Bounded fl_msg_from_expr (guards against deep recursion / big spans). */
static char *expr_msg(const ctx *c, size_t b, size_t e)
{
	fl_msg_opts o = {.concat_ops = plus_ops};
	return fl_msg_guarded(&c->t, b, e, &o, MAX_ARG_TOKS, MAX_ARG_DEPTH,
			      false);
}

/* printf format escapes of java.lang.String.format: %% and %n */
static void decode_printf(char *m)
{
	char *w = m;
	for (char *r = m; *r; r++) {
		if (r[0] == '%' && r[1] == '%') {
			*w++ = '%';
			r++;
		} else if (r[0] == '%' && r[1] == 'n') {
			*w++ = '\n';
			r++;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	fl_msg_trim(m);
}


/* Kotlin String.trimIndent() / trimMargin("|") on a message, in place */
static void kotlin_trim(char *m, bool margin)
{
	fl_buf out = {0};
	/* split into lines */
	size_t n = strlen(m);
	size_t nlines = 1;
	for (size_t k = 0; k < n; k++)
		if (m[k] == '\n')
			nlines++;
	size_t minind = SIZE_MAX;
	if (!margin) {
		const char *p = m;
		for (size_t l = 0; l < nlines; l++) {
			const char *e = strchr(p, '\n');
			size_t len = e ? (size_t)(e - p) : strlen(p);
			size_t ind = 0;
			while (ind < len && (p[ind] == ' ' || p[ind] == '\t'))
				ind++;
			if (ind < len && ind < minind)
				minind = ind;
			p = e ? e + 1 : p + len;
		}
		if (minind == SIZE_MAX)
			minind = 0;
	}
	const char *p = m;
	bool first = true;
	for (size_t l = 0; l < nlines; l++) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		size_t ind = 0;
		while (ind < len && (p[ind] == ' ' || p[ind] == '\t'))
			ind++;
		bool blank = ind == len;
		if (!((l == 0 || l == nlines - 1) && blank)) {
			if (!first)
				fl_buf_putc(&out, '\n');
			first = false;
			if (margin) {
				if (ind < len && p[ind] == '|')
					fl_buf_put(&out, p + ind + 1, len - ind - 1);
				else
					fl_buf_put(&out, p, len);
			} else if (!blank) {
				fl_buf_put(&out, p + minind, len - minind);
			}
		}
		p = e ? e + 1 : p + len;
	}
	fl_buf_cstr(&out);
	memcpy(m, out.s, out.n + 1);
	fl_buf_free(&out);
}

static char *arg_msg(const ctx *c, size_t b, size_t e, int lvl);

/* message of a lambda / block body [b, e) ("{ "..." }" contents) */
static char *body_msg(const ctx *c, size_t b, size_t e, int lvl)
{
	/* take the last statement */
	size_t s = b;
	for (size_t k = b; k < e; k++) {
		if (c->match[k] != NOIDX && c->match[k] > k) {
			k = c->match[k];
			continue;
		}
		if (is_p(c, k, ";") ||
		    (k > b && (c->t.v[k].flags & FL_TF_NL_BEFORE) &&
		     !is_p(c, k, "+") && !is_p(c, k - 1, "+")))
			s = is_p(c, k, ";") ? k + 1 : k;
	}
	if (s >= e)
		return NULL;
	return arg_msg(c, s, e, lvl + 1);
}

/* Message of one argument expression [b, e). */
static char *arg_msg(const ctx *c, size_t b, size_t e, int lvl)
{
	if (b >= e || lvl > 4)
		return NULL;
	/* named argument (Kotlin/Scala): name = expr */
	if (e - b >= 3 && is_id(c, b) && is_p(c, b + 1, "="))
		b += 2;
	/* lambda / supplier */
	if (is_p(c, b, "{") && c->match[b] == e - 1)
		return body_msg(c, b + 1, e - 1, lvl);
	if (e - b >= 4 && is_p(c, b, "(") && c->match[b] == b + 1 &&
	    is_p(c, b + 2, "->"))
		return arg_msg(c, b + 3, e, lvl + 1);
	/* String.format("...", ...), MessageFormat.format("...", ...) */
	if (e - b >= 4 && is_id(c, b) && is_p(c, b + 1, ".") &&
	    (is(c, b + 2, "format")) && is_p(c, b + 3, "(") &&
	    c->match[b + 3] == e - 1) {
		size_t st[8], en[8];
		size_t na = args(c, b + 3, st, en, 8, NULL);
		for (size_t k = 0; k < na; k++) {
			char *m = arg_msg(c, st[k], en[k], lvl + 1);
			if (m) {
				if (is(c, b, "String"))
					decode_printf(m);
				return m;
			}
		}
		return NULL;
	}
	/* "...".formatted(...) / "...".format(...) / "...".trimIndent() */
	if (e - b >= 4 && c->t.v[b].kind == FL_TK_STRING && is_p(c, b + 1, ".") &&
	    is_id(c, b + 2) && is_p(c, b + 3, "(") && c->match[b + 3] == e - 1) {
		const char *s = fl_tok_str(&c->t, &c->t.v[b]);
		char *m = fl_xstrdup(s);
		if (is(c, b + 2, "formatted") || is(c, b + 2, "format"))
			decode_printf(m);
		else if (is(c, b + 2, "trimIndent"))
			kotlin_trim(m, false);
		else if (is(c, b + 2, "trimMargin"))
			kotlin_trim(m, true);
		fl_msg_trim(m);
		return m;
	}
	return expr_msg(c, b, e);
}

/* first argument (from `from`) that yields a message */
static char *first_msg(const ctx *c, const size_t *st, const size_t *en,
		       size_t na, size_t from, size_t *which)
{
	for (size_t k = from; k < na; k++) {
		char *m = arg_msg(c, st[k], en[k], 0);
		if (m && !*m) {
			free(m);
			m = NULL;
		}
		if (m) {
			if (which)
				*which = k;
			return m;
		}
	}
	return NULL;
}

static const char *name_at(const ctx *c, int32_t off)
{
	return fl_scopes_name(&c->sc, off);
}

static int32_t add_name(ctx *c, const char *cls, const char *s, size_t n)
{
	return fl_scopes_add_name(&c->sc, cls, s, n);
}

static scope *top(ctx *c)
{
	return fl_scopes_top(&c->sc);
}

static void push(ctx *c, int kind)
{
	fl_scopes_push(&c->sc, kind);
}

static const char *cur_class(ctx *c)
{
	scope *p = top(c);
	return p ? name_at(c, p->cls) : NULL;
}

static const char *cur_func(ctx *c)
{
	if (c->xf_on && c->xf_depth >= c->sc.n)
		return name_at(c, c->xf_fn);
	if (c->xf_on) {
		/* innermost FUNC scope deeper than the expression function? */
		for (size_t k = c->sc.n; k > c->xf_depth; k--)
			if (c->sc.v[k - 1].kind == SC_FUNC)
				return name_at(c, c->sc.v[k - 1].fn);
		return name_at(c, c->xf_fn);
	}
	scope *p = top(c);
	return p ? name_at(c, p->fn) : NULL;
}

static bool is_kw(const ctx *c, size_t i)
{
	static const char *const kw[] = {
		"if", "for", "while", "switch", "catch", "synchronized", "try",
		"return", "new", "else", "do", "throw", "super", "this",
		"assert", "case", "when", "match", "finally", "yield", NULL};
	for (const char *const *k = kw; *k; k++)
		if (is_s(c, i, *k))
			return true;
	return false;
}

/* Java: is the '{' at i the body of a method/constructor declaration?
 * Returns the name token or NOIDX. */
static size_t java_method_at(ctx *c, size_t i)
{
	if (i == 0)
		return NOIDX;
	size_t p = i - 1;
	/* throws A, B.C */
	size_t lim = i > 64 ? i - 64 : 0;
	if (!is_p(c, p, ")")) {
		size_t k = p;
		while (k > lim && !is(c, k, "throws")) {
			if (!is_id(c, k) && !is_p(c, k, ",") && !is_p(c, k, ".") &&
			    !is_p(c, k, ">") && !is_p(c, k, "<"))
				return NOIDX;
			k--;
		}
		if (!is(c, k, "throws") || k == 0)
			return NOIDX;
		p = k - 1;
		if (!is_p(c, p, ")"))
			return NOIDX;
	}
	size_t o = c->match[p];
	if (o == NOIDX || o == 0)
		return NOIDX;
	size_t nm = o - 1;
	if (!is_id(c, nm) || is_kw(c, nm))
		return NOIDX;
	if (nm == 0)
		return nm;
	size_t b = nm - 1;
	if (is(c, b, "new") || is_p(c, b, ".") || is_p(c, b, "->"))
		return NOIDX;
	if (is_id(c, b) || is_p(c, b, ">") || is_p(c, b, "]") ||
	    is_p(c, b, "?"))
		return nm;
	const char *cls = cur_class(c);
	if (cls && strlen(cls) == c->t.v[nm].len &&
	    memcmp(cls, tsrc(c, nm), c->t.v[nm].len) == 0)
		return nm;
	return NOIDX;
}

/* HTTP status of an argument: HttpStatus.NOT_FOUND, 404,
 * HttpStatusCode.valueOf(404) */
static int arg_http(const ctx *c, size_t b, size_t e)
{
	for (size_t k = b; k < e && k < b + 8; k++) {
		const fl_tok *tk = &c->t.v[k];
		if (tk->kind == FL_TK_NUMBER && tk->len == 3) {
			int v = atoi(tsrc(c, k));
			if (v >= 100 && v <= 599)
				return v;
		}
	}
	if (e >= b + 1 && is_id(c, e - 1)) {
		int v = fl_http_status_by_name(tsrc(c, e - 1), c->t.v[e - 1].len);
		if (v)
			return v;
		/* HttpStatus.NOT_FOUND.code (Javalin) */
		if (e >= b + 3 && is_p(c, e - 2, ".") && is_id(c, e - 3) &&
		    (is_s(c, e - 1, "code") || is_s(c, e - 1, "value")))
			return fl_http_status_by_name(tsrc(c, e - 3), c->t.v[e - 3].len);
	}
	return 0;
}

static bool ends_with(const char *s, size_t n, const char *suf);

/* Javalin's HTTP errors: throw NotFoundResponse("..."), a class named
 * after the status (its message by default that status's reason phrase),
 * or HttpResponseException(HttpStatus.X or 404, "...") (*full set: the
 * status is the first argument); 0 for others */
static int javalin_status(const ctx *c, const char *nm, size_t nl,
			  const size_t *st, const size_t *en, size_t na, bool *full)
{
	int v = 0;
	*full = false;
	if (nl > 8 && ends_with(nm, nl, "Response")) {
		v = fl_http_status_by_name(nm, nl - 8);
	} else if (nl == 21 && memcmp(nm, "HttpResponseException", 21) == 0 && na >= 1) {
		v = arg_http(c, st[0], en[0]);
		*full = true;
	}
	return v >= 400 && v <= 599 ? v : 0;
}

/* a named argument details = ... (not a message) */
static bool named_not_msg(const ctx *c, size_t b, size_t e)
{
	return e > b + 1 && is_id(c, b) && is_p(c, b + 1, "=") && !is_s(c, b, "message");
}

/* first token of a dotted call chain ending at callee index m */
static size_t chain_start(const ctx *c, size_t m)
{
	size_t f = m;
	while (f >= 2 && (is_p(c, f - 1, ".") || is_p(c, f - 1, "?.")) &&
	       (is_id(c, f - 2)))
		f -= 2;
	return f;
}

/* Scan back from p over balanced groups to an arm start; returns the
 * first token of the arm pattern or NOIDX. */
static size_t arm_start(const ctx *c, size_t p, int mode /* 0 kotlin when,
	1 case */)
{
	size_t k = p, lim = p > 96 ? p - 96 : 0;
	while (k > lim) {
		size_t j = k - 1;
		if (c->match[j] != NOIDX && c->match[j] < j) {
			j = c->match[j];
		} else if (c->match[j] != NOIDX) {
			/* an unmatched-before opener: block start */
			return mode == 0 ? k : NOIDX;
		}
		if (mode == 1) {
			if (is(c, j, "case"))
				return j + 1;
			if (is_p(c, j, ";") || is_p(c, j, "=>") || is(c, j, "default"))
				return NOIDX;
		} else {
			if (c->t.v[j].flags & FL_TF_NL_BEFORE)
				return j;
		}
		k = j;
	}
	return NOIDX;
}

/* Kotlin's `x ?: throw ...`: the site fires when x is null.  The left
 * operand of the elvis at p: names, calls, indexes, `.`, `?.` and `!!`
 * back to what starts the expression (`=`, `return`, `(`, `,` ...). */
static char *elvis_guard(ctx *c, size_t p)
{
	size_t b = p;
	for (int n = 0; b > 0 && n < 64; n++) {
		size_t k = b - 1;
		if ((is_p(c, k, ")") || is_p(c, k, "]")) && c->match[k] != NOIDX && c->match[k] < k) {
			b = c->match[k];
			continue;
		}
		if ((is_id(c, k) && !is(c, k, "return") && !is(c, k, "else") && !is(c, k, "as") &&
		     !is(c, k, "in") && !is(c, k, "is")) ||
		    is_p(c, k, ".") || is_p(c, k, "?.") || is_p(c, k, "!!") ||
		    c->t.v[k].kind == FL_TK_NUMBER || c->t.v[k].kind == FL_TK_STRING) {
			b = k;
			continue;
		}
		break;
	}
	if (b >= p || is_p(c, b, ".") || is_p(c, b, "?."))
		return NULL;
	/* only a whole operand: after `=`, `return`, `(`, `,`, `{`, `->` or
	 * at a line's start; `if (a) x else null ?: throw` and
	 * `v as? T ?: throw` are not guessed at */
	if (b > 0 && !(c->t.v[b].flags & FL_TF_NL_BEFORE)) {
		size_t k = b - 1;
		if (!(is_p(c, k, "=") || is(c, k, "return") || is_p(c, k, "(") || is_p(c, k, ",") ||
		      is_p(c, k, "{") || is_p(c, k, "->")))
			return NULL;
	}
	char *x = fl_tok_span_text(&c->t, b, p, 200);
	char *g = fl_xasprintf("%s == null", x);
	free(x);
	return g;
}

static char *guard_for(ctx *c, size_t first)
{
	if (first == 0)
		return NULL;
	size_t p = first - 1;
	if (c->d == D_KOTLIN && is_p(c, p, "?:"))
		return elvis_guard(c, p);
	if (is_p(c, p, ")") && c->match[p] != NOIDX && c->match[p] > 0) {
		size_t o = c->match[p];
		if (is(c, o - 1, "if") || is(c, o - 1, "while"))
			return fl_tok_span_text(&c->t, o + 1, p, 200);
	}
	if (is_p(c, p, "->") || is_p(c, p, "=>") || is_p(c, p, ":")) {
		scope *s = top(c);
		size_t a = NOIDX;
		if (is_p(c, p, "->") && c->d == D_KOTLIN && s &&
		    s->kind == SC_SWITCH)
			a = arm_start(c, p, 0);
		else if (c->d != D_KOTLIN)
			a = arm_start(c, p, 1);
		if (a != NOIDX && a < p) {
			if ((is(c, a, "else") || is(c, a, "_")) && a + 1 == p)
				return NULL;
			return fl_tok_span_text(&c->t, a, p, 200);
		}
		if (a != NOIDX || is_p(c, p, "->") || is_p(c, p, "=>"))
			return NULL;
	}
	scope *s = top(c);
	if (s && s->kind == SC_IF && s->ge > s->gb) {
		/* computed once per block: many sites may share it */
		if (s->gtext < 0) {
			char *g = fl_tok_span_text(&c->t, s->gb, s->ge, 200);
			s->gtext = add_name(c, NULL, g, strlen(g));
			free(g);
		}
		return fl_xstrdup(name_at(c, s->gtext));
	}
	return NULL;
}

typedef struct site_spec {
	size_t first;
	const char *msg, *cls, *type, *sev, *idiom, *code;
	int http;
	char *guard; /* owned; NULL = compute */
	bool guard_set;
} site_spec;

static void emit(ctx *c, site_spec *s)
{
	fl_site site = {0};
	const fl_tok *tk = &c->t.v[s->first];
	site.line = tk->line;
	site.col = tk->col;
	site.message = s->msg;
	site.code = s->code;
	site.cls = s->cls;
	site.type = s->type;
	site.severity = s->sev;
	site.http = s->http;
	/* guard first: it may grow the names arena that function points
	 * into */
	char *g = s->guard_set ? s->guard : guard_for(c, s->first);
	site.function = cur_func(c);
	if (g && !*g) {
		free(g);
		g = NULL;
	}
	site.guard = g;
	site.idiom = s->idiom;
	if ((site.message && *site.message) || site.code)
		fl_site_add(c->out, &site);
	free(g);
}

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t l = strlen(suf);
	return n >= l && memcmp(s + n - l, suf, l) == 0;
}

static bool is_upper(char ch)
{
	return ch >= 'A' && ch <= 'Z';
}

/* name of a constructor call: tokens [b, ...) = Qualified.Name [<...>] (
 * returns the index of '(' or NOIDX; *cls_i the simple name token */
static size_t ctor_at(const ctx *c, size_t b, size_t *cls_i)
{
	size_t k = b;
	if (!is_id(c, k))
		return NOIDX;
	for (int guard = 0; guard < 32; guard++) {
		if (is_p(c, k + 1, ".") && is_id(c, k + 2)) {
			k += 2;
			continue;
		}
		break;
	}
	*cls_i = k;
	size_t p = k + 1;
	if (is_p(c, p, "<")) {
		/* skip generic arguments */
		int d = 0;
		size_t lim = p + 64;
		for (; p < c->t.n && p < lim; p++) {
			if (is_p(c, p, "<"))
				d++;
			else if (is_p(c, p, ">")) {
				if (--d == 0) {
					p++;
					break;
				}
			} else if (!is_id(c, p) && !is_p(c, p, ",") &&
				   !is_p(c, p, ".") && !is_p(c, p, "?"))
				return NOIDX;
		}
	}
	if (!is_p(c, p, "("))
		return NOIDX;
	return p;
}

static char *dup_tok(const ctx *c, size_t i)
{
	return fl_tok_dup(&c->t, i);
}

/* The message held by a local variable passed as an argument:
 * `String msg = String.format("...", x); throw new X(msg);` */
static const char *const java_decl[] = {"String", "final", "var", NULL};
static const char *const kotlin_decl[] = {"val", "var", NULL};

static char *var_arg_msg(const void *ud, size_t b, size_t e)
{
	return arg_msg(ud, b, e, 0);
}

static char *local_msg(ctx *c, const size_t *st, const size_t *en, size_t na)
{
	scope *sc = top(c);
	return sc ? fl_var_arg_msg(&c->t, c->match, sc->fn_at, st, en, na,
				   c->d == D_JAVA ? java_decl : kotlin_decl, var_arg_msg, c)
		  : NULL;
}

/* ---- exception factories --------------------------------------------------
 * A throw of a call to a method of this file that builds (or throws) one
 * exception: gson's `throw unexpectedTokenError("a boolean")` with
 * `IllegalStateException unexpectedTokenError(String expected) { return new
 * IllegalStateException("Expected " + expected + ...); }` (lex.h). */

static bool excy_name(const char *nm, size_t nl)
{
	return ends_with(nm, nl, "Exception") || ends_with(nm, nl, "Error") ||
	       ends_with(nm, nl, "Throwable") || ends_with(nm, nl, "Fault");
}

/* The token after the declaration head of the method whose parameter list
 * closes at `close` (Java `throws A, B`, Kotlin `: Type`): '{' or '=', or
 * NOIDX. */
static size_t fac_body_at(const ctx *c, size_t close)
{
	size_t k = close + 1, lim = close + 64;
	if (c->d == D_JAVA && is(c, k, "throws"))
		k++;
	else if (c->d != D_JAVA && is_p(c, k, ":"))
		k++;
	else
		return is_p(c, k, "{") ? k : NOIDX;
	for (; k < c->t.n && k < lim; k++) {
		if (is_p(c, k, "{") || (c->d != D_JAVA && is_p(c, k, "=")))
			return k;
		if (!is_id(c, k) && !is_p(c, k, ",") && !is_p(c, k, ".") &&
		    !is_p(c, k, "<") && !is_p(c, k, ">") && !is_p(c, k, "?"))
			return NOIDX;
	}
	return NOIDX;
}

/* The exception construction at j (`new X(`, or Kotlin/Scala `X(`):
 * the class token and the '(' of its arguments, or NOIDX. */
static size_t fac_ctor(const ctx *c, size_t j, size_t *ci)
{
	if (c->d == D_JAVA || is(c, j, "new")) {
		if (!is(c, j, "new"))
			return NOIDX;
		j++;
	}
	size_t open = ctor_at(c, j, ci);
	if (open == NOIDX || !excy_name(tsrc(c, *ci), c->t.v[*ci].len) ||
	    !is_upper(tsrc(c, *ci)[0]))
		return NOIDX;
	return open;
}

/* Add to fs the factory `name` whose parameter list opens at popen (NOIDX:
 * none) and that builds class token cls with the arguments opened at copen.
 * Kept even without a message: an overload of the same arity is then
 * ambiguous. */
static size_t fac_ctor_at(const void *ud, size_t at, size_t *cls)
{
	return fac_ctor(ud, at, cls);
}

static void fac_make(ctx *c, fl_factories *fs, const char *prefix, size_t name,
		     size_t popen, size_t cls, size_t copen)
{
	fl_factory f = {0};
	size_t st[FL_FAC_PARAMS], en[FL_FAC_PARAMS];
	size_t np = popen == NOIDX ? 0 : args(c, popen, st, en, FL_FAC_PARAMS, NULL);
	for (size_t k = 0; k < np; k++) {
		/* Java `final String expected`: the last name; Kotlin/Scala
		 * `expected: String` (`val expected: String`): the name before ':' */
		size_t nm = NOIDX;
		bool dflt = false;
		for (size_t q = st[k]; q < en[k]; q++) {
			if (c->d != D_JAVA && is_p(c, q, ":"))
				break;
			if (is_id(c, q) && !is(c, q, "val") && !is(c, q, "var"))
				nm = q;
			if (c->match[q] != NOIDX && c->match[q] > q)
				q = c->match[q];
		}
		/* Kotlin/Scala `limit: Int = 10`: may be left out */
		for (size_t q = st[k]; q < en[k] && c->d != D_JAVA; q++)
			dflt |= is_p(c, q, "=");
		if (!dflt)
			f.nreq = f.np + 1;
		if (nm == NOIDX) {
			for (size_t q = 0; q < f.np; q++)
				free(f.param[q]);
			return;
		}
		f.param[f.np++] = dup_tok(c, nm);
	}
	size_t ast[16], aen[16];
	size_t na = args(c, copen, ast, aen, 16, NULL);
	f.msg = first_msg(c, ast, aen, na, 0, NULL);
	if (!f.msg && na >= 1)
		f.msg = fl_msg_params(&c->t, c->match, ast[0], aen[0], plus_ops,
				      f.param, f.np);
	if (prefix)
		f.name = fl_xasprintf("%s%.*s", prefix, (int)c->t.v[name].len, tsrc(c, name));
	else
		f.name = dup_tok(c, name);
	f.cls = cls == NOIDX ? NULL : dup_tok(c, cls);
	fl_factories_add(fs, &f);
}

/* Find the methods of the file that build or throw exactly one exception
 * (`return new X(...)`, `throw new X(...)`; Kotlin `return X(...)`, `= X(...)`). */
/* The body ('{', or Kotlin's '=') of the method declared with its name at
 * token i (Kotlin `fun name(`, Java `Type name(`), or NOIDX. */
static size_t method_body(const ctx *c, size_t i)
{
	if (i == 0 || !is_id(c, i) || !is_p(c, i + 1, "(") || c->match[i + 1] == NOIDX)
		return NOIDX;
	if (c->d != D_JAVA) {
		if (!is(c, i - 1, "fun") && !is(c, i - 1, "def"))
			return NOIDX;
	} else if (!(is_p(c, i - 1, ">") || is_p(c, i - 1, "]") ||
		     (is_id(c, i - 1) && !is(c, i - 1, "new") &&
		      !is(c, i - 1, "return") && !is(c, i - 1, "throw") &&
		      !is(c, i - 1, "else") && !is(c, i - 1, "case") &&
		      !is(c, i - 1, "yield")))) {
		return NOIDX;
	}
	return fac_body_at(c, c->match[i + 1]);
}

static void fac_find(ctx *c)
{
	c->fac.found = true;
	for (size_t i = 1; i + 1 < c->t.n && c->fac.n < 256; i++) {
		size_t body = method_body(c, i);
		if (body == NOIDX)
			continue;
		size_t ci = NOIDX;
		size_t copen = fl_fac_body_ctor(&c->t, c->match, is_p(c, body, "=") ? body + 1 : body,
						is_p(c, body, "="), fac_ctor_at, c, &ci);
		if (copen != NOIDX)
			fac_make(c, &c->fac, NULL, i, i + 1, ci, copen);
	}
}

static bool own_non_thrower(ctx *c, size_t i, size_t na);

/* The tree's factory of that name for na arguments (fl_factories_find):
 * every use of the tree by a scan goes through here.  An early scan
 * (c->log) takes the tree for empty (none) and logs the lookup: a
 * name's length, the arguments, the name. */
static const fl_factory *tree_find(ctx *c, const char *name, size_t len, size_t na)
{
	if (!c->log)
		return fl_factories_find(c->ctors, name, len, na);
	uint32_t h[2] = {(uint32_t)len, (uint32_t)na};
	fl_buf_put(c->log, (const char *)h, sizeof h);
	fl_buf_put(c->log, name, len);
	return NULL;
}

/* A statement `name(args);` calling a thrower method of the tree: a site
 * with the message the method builds.  False when it is not one. */
static bool rule_thrower(ctx *c, size_t i)
{
	size_t b = i > 1 && is(c, i - 2, "this") && is_p(c, i - 1, ".") ? i - 2 : i;
	/* a statement of its own: after ; { } else, or an if/for/while head */
	if (b == 0 || !(is_p(c, b - 1, ";") || is_p(c, b - 1, "{") || is_p(c, b - 1, "}") ||
			is(c, b - 1, "else") || is_p(c, b - 1, ")") || is_p(c, b - 1, "->")))
		return false;
	size_t close = c->match[i + 1];
	if (close == NOIDX || !is_p(c, close + 1, ";"))
		return false;
	size_t st[16], en[16];
	size_t na = args(c, i + 1, st, en, 16, NULL);
	char key[256];
	int kl = snprintf(key, sizeof key, THROWER "%.*s", (int)c->t.v[i].len, tsrc(c, i));
	if (kl <= 0 || (size_t)kl >= sizeof key)
		return false;
	/* the tree's thrower first: the file's own methods are looked at
	 * (once a file) only for a call of one */
	const fl_factory *f = tree_find(c, key, (size_t)kl, na);
	if (!f || own_non_thrower(c, i, na))
		return false;
	char *m = fl_factory_compose(f, st, en, na, var_arg_msg, c);
	char *idiom = dup_tok(c, i);
	site_spec s = {.first = b, .cls = f->cls, .type = FL_T_EXCEPTION,
		       .sev = FL_S_ERROR, .idiom = idiom, .msg = m};
	emit(c, &s);
	free(idiom);
	free(m);
	return true;
}

/* throw factory(args): the factory's message and class, or false */
static bool rule_factory(ctx *c, size_t first, size_t ci, const size_t *st,
			 const size_t *en, size_t na)
{
	if (!c->fac.found)
		fac_find(c);
	const fl_factory *f = fl_factories_find(&c->fac, tsrc(c, ci), c->t.v[ci].len, na);
	if (!f)
		return false;
	char *m = fl_factory_compose(f, st, en, na, var_arg_msg, c);
	site_spec s = {.first = first, .cls = f->cls, .type = FL_T_EXCEPTION,
		       .sev = FL_S_ERROR, .idiom = "throw", .msg = m};
	emit(c, &s);
	free(m);
	return true;
}

/* throw [new] X(...) or new XException(...) outside throw */
static void rule_ctor(ctx *c, size_t first, size_t b, bool thrown,
		      const char *idiom)
{
	size_t ci;
	size_t open = ctor_at(c, b, &ci);
	if (open == NOIDX)
		return;
	const char *nm = tsrc(c, ci);
	size_t nl = c->t.v[ci].len;
	bool is_cls = is_upper(nm[0]);
	bool excy = ends_with(nm, nl, "Exception") || ends_with(nm, nl, "Error") ||
		    ends_with(nm, nl, "Throwable") || ends_with(nm, nl, "Fault") ||
		    (c->d == D_SCALA && nl > 7 && ends_with(nm, nl, "Failure"));
	if (!thrown && !excy)
		return;
	size_t st[16], en[16];
	size_t na = args(c, open, st, en, 16, NULL);
	/* throw factory(...), a method of this file, called on this or on
	 * an instance (`reader.unexpectedTokenError(...)`), not on another
	 * class (`Errors.x(...)`) */
	if (thrown && !is_cls && !is(c, b - 1, "new")) {
		bool own = true;
		for (size_t k = b; k < ci; k += 2)
			own &= is_id(c, k) && !is_upper(tsrc(c, k)[0]);
		if (own && rule_factory(c, first, ci, st, en, na))
			return;
		/* Class.method(args) of a static factory of the tree */
		if (!own && ci >= b + 2 && is_p(c, ci - 1, ".") && is_id(c, ci - 2) &&
		    is_upper(tsrc(c, ci - 2)[0]) && c->ctors) {
			char key[256];
			int kl = snprintf(key, sizeof key, "%.*s.%.*s", (int)c->t.v[ci - 2].len,
					  tsrc(c, ci - 2), (int)nl, nm);
			const fl_factory *f = kl > 0 && (size_t)kl < sizeof key
				? tree_find(c, key, (size_t)kl, na) : NULL;
			if (f) {
				char *m = fl_factory_compose(f, st, en, na, var_arg_msg, c);
				site_spec s = {.first = first, .cls = f->cls, .type = FL_T_EXCEPTION,
					       .sev = FL_S_ERROR, .idiom = idiom, .msg = m};
				emit(c, &s);
				free(m);
				return;
			}
		}
	}
	char *cls = is_cls ? dup_tok(c, ci) : NULL;
	site_spec s = {.first = first, .cls = cls, .type = FL_T_EXCEPTION,
		       .sev = FL_S_ERROR, .idiom = idiom};
	char *m = NULL;
	const fl_factory *f = NULL;
	if (ends_with(nm, nl, "ResponseStatusException") && na >= 1) {
		s.http = arg_http(c, st[0], en[0]);
		if (s.http) {
			s.type = FL_T_HTTP;
			s.sev = fl_http_severity(s.http);
		}
		m = first_msg(c, st, en, na, 1, NULL);
	} else if (is_cls && c->ctors &&
		   (f = tree_find(c, nm, nl, na)) != NULL) {
		/* new X(args) of an exception class of the tree whose
		 * constructor builds the message: super("..." + arg) */
		m = fl_factory_compose(f, st, en, na, var_arg_msg, c);
		if (m && strchr(m, '{') && !strchr(f->msg, '%')) {
			/* only the parameters of the constructor: what the call
			 * passes, read as usual */
			bool all = true;
			for (const char *q = m; *q && all; q++)
				all = *q == '{' ? (q = strchr(q, '}')) != NULL : false;
			if (all) {
				free(m);
				m = first_msg(c, st, en, na, 0, NULL);
			}
		}
	} else {
		m = first_msg(c, st, en, na, 0, NULL);
	}
	bool full; /* HttpResponseException(status, message) */
	int jst = is_cls ? javalin_status(c, nm, nl, st, en, na, &full) : 0;
	if (jst) {
		s.http = jst;
		s.type = FL_T_HTTP;
		s.sev = fl_http_severity(jst);
		if (full) {
			free(m);
			m = first_msg(c, st, en, na, 1, NULL);
			/* HttpStatus.X.message: the status's reason phrase */
			if (!m && na >= 2 && en[1] >= st[1] + 3 && is_s(c, en[1] - 1, "message") &&
			    is_p(c, en[1] - 2, ".") && is_id(c, en[1] - 3)) {
				int v = fl_http_status_by_name(tsrc(c, en[1] - 3), c->t.v[en[1] - 3].len);
				if (v && fl_http_reason(v))
					m = fl_xstrdup(fl_http_reason(v));
			}
		}
		bool given = false;
		for (size_t k = full ? 1 : 0; k < na; k++)
			given |= !named_not_msg(c, st[k], en[k]);
		if (!m && !given && !full && fl_http_reason(jst))
			m = fl_xstrdup(fl_http_reason(jst));
	}
	/* the message a local holds: thrown, or an exception built to be
	 * returned or reported (`String message = "..." + e; X error = new
	 * X(message, e); return Result.error(error)`) */
	if (!m && (thrown || excy))
		m = local_msg(c, st, en, na);
	if (!m && !thrown) {
		/* a bare constructor outside throw without a message: not a
		 * site (it is reported where it is thrown, if anywhere) */
		free(cls);
		return;
	}
	/* the class is known but no literal was given: its name */
	if (!m && cls)
		m = fl_xstrdup(cls);
	s.msg = m;
	emit(c, &s);
	free(m);
	free(cls);
}

/* call with (args) and/or a trailing lambda { ... }; returns message */
static char *call_msg(ctx *c, size_t callee, size_t from_arg, size_t *st,
		      size_t *en, size_t *na, size_t *after)
{
	size_t p = callee + 1;
	*na = 0;
	char *m = NULL;
	size_t close = p;
	if (is_p(c, p, "(")) {
		*na = args(c, p, st, en, 16, &close);
		if (close >= c->t.n)
			return NULL;
		m = first_msg(c, st, en, *na, from_arg, NULL);
		p = close + 1;
	}
	if (is_p(c, p, "{") && c->match[p] != NOIDX && c->d != D_JAVA) {
		if (!m)
			m = body_msg(c, p + 1, c->match[p], 0);
		close = c->match[p];
	}
	if (after)
		*after = close;
	return m;
}

static int log_level(const ctx *c, size_t m, const char **sev)
{
	static const struct {
		const char *k, *s;
	} tab[] = {
		{"error", FL_S_ERROR}, {"warn", FL_S_WARNING},
		{"warning", FL_S_WARNING}, {"severe", FL_S_ERROR},
		{"fatal", FL_S_CRITICAL}, {"critical", FL_S_CRITICAL},
		{NULL, NULL},
	};
	for (int k = 0; tab[k].k; k++)
		if (is_s(c, m, tab[k].k)) {
			*sev = tab[k].s;
			return 1;
		}
	return 0;
}

/* guard_arg0 of rule_simple: the first argument is the condition that
 * must hold (require, check, checkArgument: the site fires when it does
 * not), or the value that must not be null (requireNotNull) */
enum { G_NONE = 0, G_HOLDS, G_NOT_NULL };

static void rule_simple(ctx *c, size_t first, size_t callee, size_t from_arg,
			const char *cls, const char *deflt, const char *prefix,
			int guard_arg0, const char *type, const char *sev)
{
	size_t st[16], en[16], na;
	char *m = call_msg(c, callee, from_arg, st, en, &na, NULL);
	if (!is_p(c, callee + 1, "(") && !is_p(c, callee + 1, "{")) {
		free(m);
		return;
	}
	if (!m && deflt)
		m = fl_xstrdup(deflt);
	if (m && prefix) {
		char *x = fl_xasprintf("%s%s", prefix, m);
		free(m);
		m = x;
	}
	char *idiom = fl_tok_span_text(&c->t, first, callee + 1, 80);
	site_spec s = {.first = first, .cls = cls, .type = type, .sev = sev,
		       .idiom = idiom, .msg = m};
	if (guard_arg0 != G_NONE && na >= 1) {
		char *cond = fl_tok_span_text(&c->t, st[0], en[0], 200);
		s.guard = guard_arg0 == G_HOLDS ? fl_guard_not(cond, false)
						: fl_xasprintf("%s == null", cond);
		free(cond);
		s.guard_set = true;
	}
	emit(c, &s);
	free(idiom);
	free(m);
}

/* rules on the identifier at i; returns nothing, sites emitted */
static void rules_at(ctx *c, size_t i)
{
	const fl_tok *tk = &c->t.v[i];
	bool dot_before = i > 0 && (is_p(c, i - 1, ".") || is_p(c, i - 1, "?.") ||
				    is_p(c, i - 1, "::"));
	bool call = is_p(c, i + 1, "(");
	char ch = c->t.src[tk->off];

	if (is(c, i, "throw")) {
		size_t b = i + 1;
		bool nw = is(c, b, "new");
		if (nw)
			b++;
		rule_ctor(c, i, b, true, nw ? "throw new" : "throw");
		return;
	}
	if (is(c, i, "new")) {
		if (i > 0 && is(c, i - 1, "throw"))
			return;
		rule_ctor(c, i, i + 1, false, "new");
		return;
	}
	/* a call of a thrower method of the tree as a statement:
	 * `_reportError("...");` (or `this._reportError(...)`) */
	if (c->d == D_JAVA && call && c->ctors && !is_upper(ch) &&
	    (!dot_before || (i >= 2 && is_p(c, i - 1, ".") && is(c, i - 2, "this"))) &&
	    rule_thrower(c, i))
		return;
	/* Kotlin and Scala constructor call of an exception outside throw
	 * (Scala's case classes: `Left(DecodingFailure("...", c.history))`) */
	if (c->d != D_JAVA && call && !dot_before && is_upper(ch) &&
	    !is(c, i, "TODO") &&
	    !(i > 0 && (is(c, i - 1, "throw") || is(c, i - 1, "fun") ||
			is(c, i - 1, "class") || is_p(c, i - 1, ":") ||
			is(c, i - 1, "case") || is(c, i - 1, "extends") ||
			is(c, i - 1, "with") || is(c, i - 1, "object") ||
			is(c, i - 1, "def") || is(c, i - 1, "new")))) {
		const char *nm = tsrc(c, i);
		size_t nl = tk->len;
		/* a Failure of one's own takes a message: scala.util.Failure
		 * takes an exception (and is not one) */
		bool failure = c->d == D_SCALA && nl > 7 && ends_with(nm, nl, "Failure") &&
			       c->t.v[i + 2].kind == FL_TK_STRING;
		if (ends_with(nm, nl, "Exception") || ends_with(nm, nl, "Error") || failure)
			rule_ctor(c, i, i, false, "constructor");
		return;
	}
	if (i > 0 && (is(c, i - 1, "fun") || is(c, i - 1, "def")))
		return;

	/* Kotlin stdlib */
	if (c->d == D_KOTLIN && !dot_before && (call || is_p(c, i + 1, "{"))) {
		if (is(c, i, "error") && call) {
			rule_simple(c, i, i, 0, "IllegalStateException", NULL,
				    NULL, G_NONE, FL_T_EXCEPTION, FL_S_ERROR);
			return;
		}
		if (is(c, i, "require") && call) {
			rule_simple(c, i, i, 1, "IllegalArgumentException",
				    "Failed requirement.", NULL, G_HOLDS,
				    FL_T_EXCEPTION, FL_S_ERROR);
			return;
		}
		if (is(c, i, "check") && call) {
			rule_simple(c, i, i, 1, "IllegalStateException",
				    "Check failed.", NULL, G_HOLDS, FL_T_EXCEPTION,
				    FL_S_ERROR);
			return;
		}
		if (is(c, i, "requireNotNull") && call) {
			rule_simple(c, i, i, 1, "IllegalArgumentException",
				    "Required value was null.", NULL, G_NOT_NULL,
				    FL_T_EXCEPTION, FL_S_ERROR);
			return;
		}
		if (is(c, i, "checkNotNull") && call) {
			rule_simple(c, i, i, 1, "IllegalStateException",
				    "Required value was null.", NULL, G_NOT_NULL,
				    FL_T_EXCEPTION, FL_S_ERROR);
			return;
		}
		if (is(c, i, "TODO") && call) {
			size_t st[4], en[4];
			size_t na = args(c, i + 1, st, en, 4, NULL);
			char *m = first_msg(c, st, en, na, 0, NULL);
			char *x = m ? fl_xasprintf("An operation is not implemented: %s", m)
				    : fl_xstrdup("An operation is not implemented.");
			site_spec s = {.first = i, .cls = "NotImplementedError",
				       .type = FL_T_EXCEPTION, .sev = FL_S_ERROR,
				       .idiom = "TODO", .msg = x};
			emit(c, &s);
			free(m);
			free(x);
			return;
		}
	}
	/* Scala Predef */
	if (c->d == D_SCALA && call) {
		if (!dot_before && is(c, i, "require")) {
			size_t st[4], en[4];
			size_t na = args(c, i + 1, st, en, 4, NULL);
			char *m = first_msg(c, st, en, na, 1, NULL);
			char *x = m ? fl_xasprintf("requirement failed: %s", m)
				    : fl_xstrdup("requirement failed");
			site_spec s = {.first = i, .cls = "IllegalArgumentException",
				       .type = FL_T_EXCEPTION, .sev = FL_S_ERROR,
				       .idiom = "require", .msg = x};
			if (na >= 1) {
				char *cond = fl_tok_span_text(&c->t, st[0], en[0], 200);
				s.guard = fl_guard_not(cond, false); /* require(cond) */
				free(cond);
				s.guard_set = true;
			}
			emit(c, &s);
			free(m);
			free(x);
			return;
		}
		if (dot_before && is(c, i, "error") && i >= 2 && is(c, i - 2, "sys")) {
			rule_simple(c, i - 2, i, 0, "RuntimeException", NULL, NULL, G_NONE, FL_T_EXCEPTION, FL_S_ERROR);
			return;
		}
	}
	if (!call)
		goto logging;
	/* Guava Preconditions (qualified or static import) */
	{
		bool pre = !dot_before ||
			   (i >= 2 && is_p(c, i - 1, ".") &&
			    is(c, i - 2, "Preconditions"));
		bool kotlin_std = c->d == D_KOTLIN && !dot_before;
		if (pre && !kotlin_std) {
			if (is(c, i, "checkArgument")) {
				rule_simple(c, chain_start(c, i), i, 1,
					    "IllegalArgumentException",
					    "IllegalArgumentException", NULL, G_HOLDS,
					    FL_T_EXCEPTION, FL_S_ERROR);
				return;
			}
			if (is(c, i, "checkState")) {
				rule_simple(c, chain_start(c, i), i, 1,
					    "IllegalStateException",
					    "IllegalStateException", NULL, G_HOLDS,
					    FL_T_EXCEPTION, FL_S_ERROR);
				return;
			}
			if (is(c, i, "checkNotNull")) {
				rule_simple(c, chain_start(c, i), i, 1,
					    "NullPointerException",
					    "NullPointerException", NULL, G_NONE,
					    FL_T_EXCEPTION, FL_S_ERROR);
				return;
			}
		}
		if (is(c, i, "requireNonNull") &&
		    (!dot_before || (i >= 2 && is(c, i - 2, "Objects")))) {
			rule_simple(c, chain_start(c, i), i, 1,
				    "NullPointerException", "NullPointerException",
				    NULL, G_NONE, FL_T_EXCEPTION, FL_S_ERROR);
			return;
		}
	}
logging:
	/* logging: recv.error(...) / recv.warn { ... } */
	if (dot_before && i >= 2 && is_id(c, i - 2) &&
	    (call || (c->d != D_JAVA && is_p(c, i + 1, "{")))) {
		size_t r = i - 2;
		const char *sev = NULL;
		bool android = is(c, r, "Log") || is(c, r, "Timber");
		if (android && (is(c, i, "e") || is(c, i, "w") || is(c, i, "wtf"))) {
			sev = is(c, i, "e") ? FL_S_ERROR
			      : is(c, i, "w") ? FL_S_WARNING : FL_S_CRITICAL;
			rule_simple(c, chain_start(c, i), i,
				    is(c, r, "Log") ? 1 : 0, NULL, NULL, NULL, G_NONE, FL_T_CONSOLE, sev);
			return;
		}
		if (!fl_tok_contains_ci(&c->t, r, "log"))
			return;
		if (log_level(c, i, &sev)) {
			rule_simple(c, chain_start(c, i), i, 0, NULL, NULL, NULL, G_NONE, FL_T_CONSOLE, sev);
			return;
		}
		if (is(c, i, "log") && call && is_id(c, i + 2) &&
		    is(c, i + 2, "Level") && is_p(c, i + 3, ".") &&
		    is_id(c, i + 4) && log_level(c, i + 4, &sev)) {
			rule_simple(c, chain_start(c, i), i, 1, NULL, NULL, NULL, G_NONE, FL_T_CONSOLE, sev);
			return;
		}
		if (is(c, i, "log") && call && is_id(c, i + 2) &&
		    is(c, i + 2, "Level") && is_p(c, i + 3, ".") &&
		    is_id(c, i + 4)) {
			const char *nm = tsrc(c, i + 4);
			size_t nl = c->t.v[i + 4].len;
			if ((nl == 5 && memcmp(nm, "ERROR", 5) == 0) ||
			    (nl == 6 && memcmp(nm, "SEVERE", 6) == 0))
				sev = FL_S_ERROR;
			else if ((nl == 4 && memcmp(nm, "WARN", 4) == 0) ||
				 (nl == 7 && memcmp(nm, "WARNING", 7) == 0))
				sev = FL_S_WARNING;
			else if (nl == 5 && memcmp(nm, "FATAL", 5) == 0)
				sev = FL_S_CRITICAL;
			if (sev)
				rule_simple(c, chain_start(c, i), i, 1, NULL, NULL,
					    NULL, G_NONE, FL_T_CONSOLE, sev);
		}
	}
}

/* An enum that is a catalogue of errors (`enum ErrorCode { USER_NOT_FOUND(
 * 40401, "User not found", HttpStatus.NOT_FOUND), ... }`, Kotlin `enum
 * class ApiError(val msg: String)`): by its name (Error, Exception in it,
 * or ResultCode at its end), each constant whose arguments hold a message
 * is a record: the constant is its code, the enum its class, an HTTP
 * status among the arguments makes it an HTTP error.  name: the enum's
 * name token; the body's '{' follows. */
static void error_enum(ctx *c, size_t name)
{
	const char *nm = tsrc(c, name);
	size_t nl = c->t.v[name].len;
	bool errorish = fl_memmem(nm, nl, "Error", 5) || fl_memmem(nm, nl, "Exception", 9) ||
			ends_with(nm, nl, "ResultCode");
	if (!errorish)
		return;
	size_t k = name + 1;
	/* Kotlin's primary constructor, Java's implements ... */
	while (k < c->t.n && k < name + 64 && !is_p(c, k, "{")) {
		if (is_p(c, k, ";") || is_p(c, k, "="))
			return;
		k = fl_tok_is_opener(&c->t, k) && c->match[k] != NOIDX ? c->match[k] + 1 : k + 1;
	}
	if (k >= c->t.n || !is_p(c, k, "{") || c->match[k] == NOIDX)
		return;
	size_t end = c->match[k];
	char *cls = dup_tok(c, name);
	for (size_t q = k + 1; q < end;) {
		/* NAME ( args ) [ { body } ] , ... ; (a constant without
		 * arguments, `OK,`, is passed over) */
		if (is_id(c, q) && is_p(c, q + 1, ",")) {
			q += 2;
			continue;
		}
		if (!is_id(c, q) || !is_p(c, q + 1, "(") || c->match[q + 1] == NOIDX ||
		    c->match[q + 1] >= end)
			break;
		size_t close = c->match[q + 1];
		size_t st[8], en[8];
		size_t na = args(c, q + 1, st, en, 8, NULL);
		char *msg = NULL, *scode = NULL;
		int http = 0;
		for (size_t a = 0; a < na; a++) {
			if (c->t.v[st[a]].kind == FL_TK_STRING) {
				/* ("SHOP-404", "Order not found"): a word is a
				 * code clients see, a phrase the message */
				char *m = first_msg(c, st, en, a + 1, a, NULL);
				if (m && !strchr(m, ' ') && en[a] == st[a] + 1 && !scode) {
					scode = m;
				} else if (m && !msg) {
					msg = m;
				} else {
					free(m);
				}
			} else if (!http && en[a] > st[a] && is_id(c, en[a] - 1) &&
				   en[a] - st[a] <= 3) {
				http = fl_http_status_by_name(tsrc(c, en[a] - 1), c->t.v[en[a] - 1].len);
			}
		}
		if (!msg) {
			msg = scode; /* one word: the message all the same */
			scode = NULL;
		}
		if (msg) {
			char *code = scode ? scode : dup_tok(c, q);
			scode = NULL;
			site_spec sp = {.first = q, .cls = cls, .code = code,
					.type = http >= 400 ? FL_T_HTTP : FL_T_ERROR_CODE,
					.sev = http >= 400 ? fl_http_severity(http) : FL_S_ERROR,
					.http = http >= 400 ? http : 0,
					.idiom = "error enum constant", .msg = msg};
			emit(c, &sp);
			free(code);
			free(msg);
		}
		free(scode);
		q = close + 1;
		if (is_p(c, q, "{") && c->match[q] != NOIDX)
			q = c->match[q] + 1;
		if (!is_p(c, q, ","))
			break;
		q++;
	}
	free(cls);
}

/* declaration keywords */
static void decl_at(ctx *c, size_t i)
{
	bool dot_before = i > 0 && (is_p(c, i - 1, ".") || is_p(c, i - 1, "::"));
	if (dot_before)
		return;
	if (is(c, i, "class") || is(c, i, "interface") || is(c, i, "object") ||
	    is(c, i, "enum") || is(c, i, "trait") ||
	    (is(c, i, "record") && c->d == D_JAVA && is_id(c, i + 1) &&
	     is_p(c, i + 2, "("))) {
		size_t k = i + 1;
		if (is(c, k, "class") || is(c, k, "interface"))
			k++;
		if (is_id(c, k) && !is(c, k, "extends") && !is(c, k, "implements")) {
			c->pend_kind = SC_CLASS;
			c->pend_name = (uint32_t)k;
			c->pend_paren = c->paren;
			if (is(c, i, "enum") && c->d != D_SCALA)
				error_enum(c, k);
		}
		return;
	}
	if ((is(c, i, "fun") && c->d == D_KOTLIN) ||
	    (is(c, i, "def") && c->d == D_SCALA)) {
		size_t nm = NOIDX;
		if (c->d == D_SCALA) {
			if (i + 1 < c->t.n)
				nm = i + 1;
		} else {
			int ang = 0;
			for (size_t k = i + 1; k < c->t.n && k < i + 48; k++) {
				if (is_p(c, k, "<"))
					ang++;
				else if (is_p(c, k, ">"))
					ang--;
				else if (is_p(c, k, "(") || is_p(c, k, "{") ||
					 is_p(c, k, "=") || is_p(c, k, ";"))
					break;
				else if (is_id(c, k) && ang <= 0)
					nm = k;
			}
		}
		if (nm != NOIDX && !is(c, nm, "interface")) {
			c->pend_kind = SC_FUNC;
			c->pend_name = (uint32_t)nm;
			c->pend_paren = c->paren;
			c->pend_col = c->line_col;
		}
	}
}

/* Spring's @ResponseStatus(code = HttpStatus.NOT_FOUND, reason = "...")
 * on an exception class: the response's status and message whenever the
 * class is thrown, at the '@' i */
static void rule_response_status(ctx *c, size_t i)
{
	size_t open = i + 2;
	if (c->match[open] == NOIDX)
		return;
	size_t st[4], en[4];
	size_t na = args(c, open, st, en, 4, NULL);
	int status = 0;
	size_t reason = NOIDX;
	for (size_t k = 0; k < na; k++) {
		size_t b = st[k], e = en[k];
		bool named = e - b >= 3 && is_id(c, b) && is_p(c, b + 1, "=");
		if (named && is(c, b, "reason") && e == b + 3 &&
		    c->t.v[b + 2].kind == FL_TK_STRING) {
			reason = b + 2;
			continue;
		}
		if (named && !is(c, b, "value") && !is(c, b, "code"))
			continue;
		/* HttpStatus.NOT_FOUND or a static import NOT_FOUND */
		size_t last = e - 1;
		if (is_id(c, last))
			status = fl_http_status_by_name(tsrc(c, last), c->t.v[last].len);
	}
	if (reason == NOIDX || status < 400 || status > 599)
		return;
	/* the class it is on: after other annotations and modifiers */
	size_t k = c->match[open] + 1;
	for (int s = 0; s < 16 && k < c->t.n; s++) {
		if (is_p(c, k, "@") && is_id(c, k + 1)) {
			k += 2;
			while (k + 1 < c->t.n && is_p(c, k, ".") && is_id(c, k + 1))
				k += 2;
			if (is_p(c, k, "(") && c->match[k] != NOIDX)
				k = c->match[k] + 1;
			continue;
		}
		if (is(c, k, "public") || is(c, k, "final") || is(c, k, "abstract") ||
		    is(c, k, "static") || is(c, k, "open") || is(c, k, "data") ||
		    is(c, k, "internal") || is(c, k, "private")) {
			k++;
			continue;
		}
		break;
	}
	if (!is(c, k, "class") || !is_id(c, k + 1) ||
	    !excy_name(tsrc(c, k + 1), c->t.v[k + 1].len))
		return;
	char *cls = dup_tok(c, k + 1);
	char *msg = fl_xstrdup(fl_tok_str(&c->t, &c->t.v[reason]));
	site_spec sp = {.first = reason, .msg = msg, .cls = cls, .type = FL_T_HTTP,
			.sev = fl_http_severity(status), .http = status,
			.idiom = "class annotation @ResponseStatus"};
	emit(c, &sp);
	free(msg);
	free(cls);
}

static void walk(ctx *c)
{
	size_t n = c->t.n;
	for (size_t i = 0; i < n; i++) {
		const fl_tok *tk = &c->t.v[i];
		bool nl = (tk->flags & FL_TF_NL_BEFORE) || i == 0;
		if (tk->kind == FL_TK_PUNCT && is_p(c, i, "@") && is(c, i + 1, "ResponseStatus") &&
		    is_p(c, i + 2, "("))
			rule_response_status(c, i);
		if (nl)
			c->line_col = tk->col;
		/* end of an expression-bodied function (Kotlin/Scala) */
		if (c->xf_on && nl && c->sc.n <= c->xf_depth && tk->col <= c->xf_col)
			c->xf_on = false;
		/* pending func declaration expires at a new line */
		if (c->pend_kind == SC_FUNC && nl && c->paren == c->pend_paren &&
		    i > c->pend_name + 1 && !is_p(c, i, "{") && !is_p(c, i, "=") &&
		    !is_p(c, i, ":") && !is_p(c, i, ")") && !is(c, i, "where"))
			c->pend_kind = 0;
		if (tk->kind == FL_TK_PUNCT && tk->len == 1) {
			char ch = c->t.src[tk->off];
			if (ch == '(' || ch == '[') {
				c->paren++;
				continue;
			}
			if (ch == ')' || ch == ']') {
				if (c->paren > 0)
					c->paren--;
				continue;
			}
			if (ch == '{') {
				int kind = SC_OTHER;
				const char *nm = NULL;
				size_t nml = 0, at = 0;
				size_t jm;
				if (c->pend_kind && c->paren == c->pend_paren) {
					kind = c->pend_kind;
					at = c->pend_name;
					nm = tsrc(c, c->pend_name);
					nml = c->t.v[c->pend_name].len;
					c->pend_kind = 0;
				} else if (c->d == D_JAVA &&
					   (jm = java_method_at(c, i)) != NOIDX) {
					kind = SC_FUNC;
					at = jm;
					nm = tsrc(c, jm);
					nml = c->t.v[jm].len;
				}
				const char *cls = cur_class(c);
				push(c, kind);
				scope *s = top(c);
				if (kind == SC_CLASS) {
					s->cls = add_name(c, NULL, nm, nml);
				} else if (kind == SC_FUNC) {
					s->fn = add_name(c, cls, nm, nml);
					s->fn_at = (uint32_t)at;
				} else if (i > 0) {
					size_t p = i - 1;
					if (is_p(c, p, ")") && c->match[p] != NOIDX &&
					    c->match[p] > 0) {
						size_t o = c->match[p];
						if (is(c, o - 1, "if") ||
						    is(c, o - 1, "while")) {
							s->kind = SC_IF;
							s->gb = (uint32_t)(o + 1);
							s->ge = (uint32_t)p;
						} else if (is(c, o - 1, "when") ||
							   is(c, o - 1, "switch")) {
							s->kind = SC_SWITCH;
						}
					} else if (is(c, p, "when") || is(c, p, "match")) {
						s->kind = SC_SWITCH;
					}
				}
				continue;
			}
			if (ch == '}') {
				if (c->sc.n)
					c->sc.n--;
				if (c->xf_on && c->sc.n < c->xf_depth)
					c->xf_on = false;
				if (c->pend_kind)
					c->pend_kind = 0;
				continue;
			}
			if (ch == ';') {
				if (c->paren == c->pend_paren)
					c->pend_kind = 0;
				continue;
			}
			if (ch == '=' && c->pend_kind == SC_FUNC &&
			    c->paren == c->pend_paren) {
				if (is_p(c, i + 1, "{"))
					continue; /* block body follows */
				c->xf_on = true;
				c->xf_fn = add_name(c, cur_class(c),
						    tsrc(c, c->pend_name),
						    c->t.v[c->pend_name].len);
				c->xf_depth = c->sc.n;
				c->xf_col = c->pend_col;
				c->pend_kind = 0;
				continue;
			}
			continue;
		}
		if (tk->kind != FL_TK_IDENT)
			continue;
		decl_at(c, i);
		rules_at(c, i);
	}
}

static int dialect_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (dot && (strcmp(dot, ".kt") == 0 || strcmp(dot, ".kts") == 0))
		return D_KOTLIN;
	if (dot && (strcmp(dot, ".scala") == 0 || strcmp(dot, ".sc") == 0))
		return D_SCALA;
	return D_JAVA;
}

/* ---- exception classes whose constructors build the message ---------------
 * `class ResourceNotFoundException extends RuntimeException {
 * ResourceNotFoundException(String resource, Object id) {
 * super(String.format("%s not found with id %s", resource, id)); } }` (Java),
 * `class NotFound(id: String) : RuntimeException("Item $id not found")`
 * (Kotlin): each constructor is kept as a factory of its class (lex.h), and
 * `throw new ResourceNotFoundException("User", id)` in any file of the tree
 * gets the message the constructor builds. */
static void class_ctors(ctx *c, fl_factories *fs)
{
	for (size_t i = 0; i + 3 < c->t.n && fs->n < 65536; i++) {
		if (!is(c, i, "class") || !is_id(c, i + 1))
			continue;
		size_t name = i + 1, k = name + 1;
		if (!excy_name(tsrc(c, name), c->t.v[name].len))
			continue;
		if (c->d != D_JAVA) {
			/* class NAME(params) : BASE(args) */
			size_t popen = NOIDX;
			if (is_p(c, k, "(") && c->match[k] != NOIDX) {
				popen = k;
				k = c->match[k] + 1;
			}
			if (!is_p(c, k, ":"))
				continue;
			size_t ci;
			size_t o = ctor_at(c, k + 1, &ci);
			if (o != NOIDX && popen != NOIDX)
				fac_make(c, fs, NULL, name, popen, name, o);
			continue;
		}
		/* Java: extends BASE ... { constructors } */
		while (k < c->t.n && !is_p(c, k, "{") && k - name < 64)
			k++;
		if (!is_p(c, k, "{") || c->match[k] == NOIDX)
			continue;
		size_t end = c->match[k];
		for (size_t q = k + 1; q + 1 < end; q++) {
			if (c->t.v[q].len != c->t.v[name].len || !is_p(c, q + 1, "(") ||
			    memcmp(tsrc(c, q), tsrc(c, name), c->t.v[q].len) != 0 ||
			    is(c, q - 1, "new") || is_p(c, q - 1, ".") ||
			    c->match[q + 1] == NOIDX)
				continue;
			size_t body = fac_body_at(c, c->match[q + 1]);
			if (body == NOIDX || !is_p(c, body, "{") || !is(c, body + 1, "super") ||
			    !is_p(c, body + 2, "("))
				continue;
			fac_make(c, fs, NULL, name, q + 1, name, body + 2);
		}
	}
}

/* ---- thrower methods (Java) ---------------------------------------------------
 * `protected void _reportError(String msg) throws JsonParseException { throw
 * _constructReadException(msg); }` (jackson): a method whose body is one
 * throw is a reporter, like C's die(); each call `_reportError("Unexpected
 * end-of-input")`, in any file of the tree, is a site with the message the
 * method builds from its arguments.  Kept in the tree as "throws:NAME". */
/* A thrower is named like one (as C's reporters are): an override such as
 * `write(JsonWriter out, Class value) { throw new Unsupported...; }` must not
 * make every `write(a, b);` of the tree a site. */
static bool thrower_word(const char *s, size_t n)
{
	static const char *const words[] = {"report", "throw", "fail", "error", "raise",
					    "invalid", "illegal", "unsupported",
					    "unexpected", "abort", "panic", "die", NULL};
	/* asked of every call of a file: one pass over the name, a word
	 * tried only where the name has its first letter (in either case) */
	if (n < 3)
		return false;
	for (size_t a = 0; a + 3 <= n; a++) {
		char ch = s[a] >= 'A' && s[a] <= 'Z' ? (char)(s[a] - 'A' + 'a') : s[a];
		switch (ch) {
		case 'r': case 't': case 'f': case 'e': case 'i':
		case 'u': case 'a': case 'p': case 'd':
			break;
		default:
			continue;
		}
		for (const char *const *w = words; *w; w++) {
			if ((*w)[0] != ch)
				continue;
			size_t k = 1;
			for (; (*w)[k] && a + k < n; k++) {
				char x = s[a + k];
				if (x >= 'A' && x <= 'Z')
					x = (char)(x - 'A' + 'a');
				if (x != (*w)[k])
					break;
			}
			if (!(*w)[k])
				return true;
		}
	}
	return false;
}

static bool thrower_name(const ctx *c, size_t i)
{
	return thrower_word(tsrc(c, i), c->t.v[i].len);
}

/* The '(' of the exception a thrower method named at token i builds
 * (`{ throw new X(...); }` or `{ throw factory(...); }`, the whole body), its
 * class token in *cls (NOIDX for a factory's), or NOIDX. */
static size_t thrower_body(const ctx *c, size_t i, size_t *cls)
{
	size_t body = method_body(c, i);
	*cls = NOIDX;
	if (body == NOIDX || !is_p(c, body, "{") || !is(c, body + 1, "throw"))
		return NOIDX;
	size_t end = c->match[body], x = body + 2, copen;
	if (is(c, x, "new"))
		copen = ctor_at(c, x + 1, cls);
	else if (is_id(c, x) && is_p(c, x + 1, "("))
		copen = x + 1; /* another factory: its class is not known */
	else
		return NOIDX;
	if (copen == NOIDX || c->match[copen] == NOIDX ||
	    !is_p(c, c->match[copen] + 1, ";") || c->match[copen] + 2 != end)
		return NOIDX;
	return copen;
}

static void class_throwers(ctx *c, fl_factories *fs)
{
	for (size_t i = 1; i + 4 < c->t.n && fs->n < 65536; i++) {
		if (!is_id(c, i) || !is_p(c, i + 1, "(") || !thrower_name(c, i))
			continue;
		size_t cls;
		size_t copen = thrower_body(c, i, &cls);
		if (copen != NOIDX)
			fac_make(c, fs, THROWER, i, i + 1, cls, copen);
	}
}

/* Whether this file declares a method of that name and arity that is not a
 * thrower (its own reportError that logs, or an overload that delegates):
 * then the call is not the tree's thrower. */
static bool own_non_thrower(ctx *c, size_t i, size_t na)
{
	char key[300];
	if (!c->own_built) {
		c->own_built = true;
		for (size_t k = 1; k + 1 < c->t.n; k++) {
			if (!is_id(c, k) || !is_p(c, k + 1, "(") || !thrower_name(c, k) ||
			    c->t.v[k].len > 256 || method_body(c, k) == NOIDX)
				continue;
			size_t st[16], en[16], cls, old;
			size_t np = args(c, k + 1, st, en, 16, NULL);
			size_t v = thrower_body(c, k, &cls) != NOIDX;
			snprintf(key, sizeof key, "%.*s/%zu", (int)c->t.v[k].len, tsrc(c, k), np);
			if (!fl_strmap_get(&c->own, key, &old) || old)
				fl_strmap_put(&c->own, key, v);
		}
	}
	if (c->t.v[i].len > 256)
		return false;
	snprintf(key, sizeof key, "%.*s/%zu", (int)c->t.v[i].len, tsrc(c, i), na);
	size_t v = 1;
	return fl_strmap_get(&c->own, key, &v) && v == 0;
}

/* A byte scan: whether a file can declare such a method (a '{' followed by
 * `throw `). */
static bool has_thrower(const char *s, size_t n)
{
	for (const char *p = s; (p = fl_memmem(p, (size_t)(s + n - p), "throw ", 6)) != NULL; p += 6) {
		const char *b = p;
		while (b > s && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n' || b[-1] == '\r'))
			b--;
		if (b > s && b[-1] == '{')
			return true;
	}
	return false;
}

/* The Java lexer's white space and identifier bytes ('$' included). */
static bool ws_byte(char ch)
{
	return fl_lx_class[(unsigned char)ch] & 36;
}

static bool jid_byte(char ch)
{
	return fl_lx_class[(unsigned char)ch] & 3;
}

/* Whether the line that ends at s[p] (exclusive) may hold a comment: a
 * walk back to a line before may have stepped over one (`// see: x`). */
static bool line_has_slash(const char *s, size_t p)
{
	while (p > 0 && s[p - 1] != '\n')
		if (s[--p] == '/')
			return true;
	return false;
}

/* p moved back over white space; *maybe set when it steps onto a line
 * that may end in a comment. */
static size_t back_ws(const char *s, size_t p, bool *maybe)
{
	while (p > 0 && ws_byte(s[p - 1])) {
		p--;
		if (s[p] == '\n' && line_has_slash(s, p))
			*maybe = true;
	}
	return p;
}

/* A byte scan, after has_thrower(): whether the file can declare a thrower
 * method (class_throwers): a `{` then `throw` (nothing but white space
 * between) that opens the body of a method whose name is a thrower's:
 * `name(...) {` or `name(...) throws X, Y {`.  Whatever a byte scan cannot
 * judge (a comment, an escape, a string in the parameters) is a maybe. */
static bool may_declare_thrower(const char *s, size_t n)
{
	for (const char *q = s; (q = fl_memmem(q, (size_t)(s + n - q), "throw", 5)) != NULL; q += 5) {
		size_t at = (size_t)(q - s);
		if ((at > 0 && jid_byte(s[at - 1])) ||
		    (at + 5 < n && jid_byte(s[at + 5])))
			continue;
		bool maybe = false;
		size_t p = back_ws(s, at, &maybe);
		if (maybe || (p > 0 && s[p - 1] == '/'))
			return true;
		if (p == 0 || s[p - 1] != '{')
			continue;
		p--;
		/* back over a throws clause to the parameters' ')' */
		while (p > 0 && (jid_byte(s[p - 1]) || ws_byte(s[p - 1]) || s[p - 1] == ',' ||
				 s[p - 1] == '.' || s[p - 1] == '<' || s[p - 1] == '>' ||
				 s[p - 1] == '?')) {
			p--;
			if (s[p] == '\n' && line_has_slash(s, p))
				return true;
		}
		if (p == 0)
			continue;
		if (s[p - 1] == '/' || s[p - 1] == '\\')
			return true;
		if (s[p - 1] != ')')
			continue;
		/* back to its '(' */
		p--;
		int depth = 0;
		size_t lim = p > 65536 ? p - 65536 : 0;
		for (;;) {
			if (p == lim)
				return true;
			char ch = s[p];
			if (ch == '"' || ch == '\'' || ch == '/' || ch == '\\')
				return true;
			if (ch == ')')
				depth++;
			else if (ch == '(' && --depth == 0)
				break;
			p--;
		}
		/* the name before it */
		p = back_ws(s, p, &maybe);
		if (maybe || (p > 0 && (s[p - 1] == '/' || s[p - 1] == '\\')))
			return true;
		size_t e = p;
		while (p > 0 && jid_byte(s[p - 1]))
			p--;
		if (p > 0 && s[p - 1] == '\\')
			return true;
		if (thrower_word(s + p, e - p))
			return true;
	}
	return false;
}

/* A byte scan, after has_static_factory(): whether the file has a `new`
 * of a class named like an exception (what a static factory's body
 * returns: fac_ctor), `new pkg.FooException`; a maybe for what a byte
 * scan cannot judge. */
static bool may_new_exception(const char *s, size_t n)
{
	for (const char *q = s; (q = fl_memmem(q, (size_t)(s + n - q), "new", 3)) != NULL; q += 3) {
		size_t at = (size_t)(q - s);
		if ((at > 0 && jid_byte(s[at - 1])) ||
		    (at + 3 < n && jid_byte(s[at + 3])))
			continue;
		size_t p = at + 3, b = p, e = p;
		for (;;) {
			while (p < n && ws_byte(s[p]))
				p++;
			if (p < n && (s[p] == '/' || s[p] == '\\'))
				return true;
			b = p;
			while (p < n && jid_byte(s[p]))
				p++;
			e = p;
			if (p < n && s[p] == '\\')
				return true;
			while (p < n && ws_byte(s[p]))
				p++;
			if (e == b || p >= n || s[p] != '.')
				break;
			p++;
		}
		if (p < n && s[p] == '/')
			return true;
		if (excy_name(s + b, e - b))
			return true;
	}
	return false;
}

static bool has_ctor_class(const char *s, size_t n)
{
	return fl_may_declare_error_class(s, n);
}

/* A byte scan: a Java file that can declare a static method returning a
 * new exception (`static X method(...) { return new X(...); }`). */
static bool has_static_factory(const char *s, size_t n)
{
	return fl_memmem(s, n, "static ", 7) && fl_memmem(s, n, "return new ", 11) &&
	       (fl_memmem(s, n, "Exception", 9) || fl_memmem(s, n, "Error", 5));
}

/* The name of the file's class: its file name without the extension. */
static bool file_class(const char *path, char *out, size_t cap)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *dot = strrchr(b, '.');
	size_t n = dot ? (size_t)(dot - b) : strlen(b);
	if (!n || n + 2 > cap || !is_upper(b[0]))
		return false;
	memcpy(out, b, n);
	out[n] = '.';
	out[n + 1] = '\0';
	return true;
}

/* The file's static methods that build one exception, in the tree as
 * "Class.method" (commons-io's UnsupportedOperationExceptions.method(name)
 * returns `new UnsupportedOperationException(name + " not supported")`):
 * `throw Class.method(args)` in any file then has the message it builds. */
static void class_static_factories(ctx *c, fl_factories *fs)
{
	char prefix[256];
	if (!c->src->path || !file_class(c->src->path, prefix, sizeof prefix))
		return;
	for (size_t i = 1; i + 1 < c->t.n && fs->n < 65536; i++) {
		size_t body = method_body(c, i);
		if (body == NOIDX || !is_p(c, body, "{"))
			continue;
		/* static among the modifiers before the return type */
		bool stat = false;
		for (size_t k = i; k-- > 0 && i - k < 16;) {
			if (is_p(c, k, ";") || is_p(c, k, "{") || is_p(c, k, "}"))
				break;
			stat |= is(c, k, "static");
		}
		if (!stat)
			continue;
		size_t ci = NOIDX;
		size_t copen = fl_fac_body_ctor(&c->t, c->match, body, false, fac_ctor_at, c, &ci);
		if (copen != NOIDX && ci != NOIDX &&
		    excy_name(tsrc(c, ci), c->t.v[ci].len))
			fac_make(c, fs, prefix, i, i + 1, ci, copen);
	}
}

/* A file's tokens and bracket table, lexed by the collect pass and kept
 * for its scan (collect_keep): a Java file that may declare an exception
 * class, a thrower or a factory is lexed once, not twice. */
typedef struct jvm_lexed {
	fl_toks t;
	size_t *match;
} jvm_lexed;

static void jvm_lexed_free(void *p)
{
	jvm_lexed *x = p;
	if (!x)
		return;
	free(x->match);
	fl_toks_free(&x->t);
	free(x);
}

static void *jvm_collect_file(void *tree, const fl_src *src, bool keep)
{
	if (!tree || !src->text)
		return NULL;
	bool ctors = has_ctor_class(src->text, src->len);
	bool throwers = dialect_of(src->path) == D_JAVA && has_thrower(src->text, src->len) &&
			may_declare_thrower(src->text, src->len);
	bool statics = dialect_of(src->path) == D_JAVA && has_static_factory(src->text, src->len) &&
		       may_new_exception(src->text, src->len);
	if (!ctors && !throwers && !statics)
		return NULL;
	ctx c;
	memset(&c, 0, sizeof c);
	c.d = dialect_of(src->path);
	c.src = src;
	fl_toks_init(&c.t, src);
	lx L = {.t = &c.t, .d = c.d};
	jvm_lex(&L);
	fl_buf_free(&L.scratch);
	c.match = fl_tok_match_table(&c.t, FL_MATCH_INNERMOST);
	if (ctors)
		class_ctors(&c, tree);
	if (throwers)
		class_throwers(&c, tree);
	if (statics)
		class_static_factories(&c, tree);
	fl_factories_free(&c.fac);
	fl_strmap_free(&c.own);
	fl_scopes_free(&c.sc);
	if (keep) {
		jvm_lexed *x = fl_xmalloc(sizeof *x);
		x->t = c.t;
		x->match = c.match;
		return x;
	}
	free(c.match);
	fl_toks_free(&c.t);
	return NULL;
}

static void jvm_scan_ctx(ctx *cp, const void *tree, const fl_src *src, fl_sites *out);

/* The file collected into part and scanned on the same tokens, as if the
 * tree were empty (lang.h: collect_scan): the log of the scan's lookups
 * (an fl_buf), or NULL when the hint says it would likely not stand. */
/* The names of the factories the files read so far declare, each with
 * the arities they take: three masks of HINT_ARGS bits (arities 0..20,
 * the last one any more): taken by one of them, by two or more (a lookup
 * of that arity is then ambiguous: none), by one with a message (what a
 * lookup finds); shared by the threads of the read
 * phase: a file that constructs one of them (`new X(`), whose early scan
 * would not stand (the JDK declares the exceptions its files throw), is
 * collected only, and scanned once the tree is whole. */
#define HINT_ARGS 21
#define HINT_TWICE HINT_ARGS
#define HINT_MSG (2 * HINT_ARGS)

typedef struct jvm_hint {
	pthread_mutex_t lock;
	fl_strmap names;
} jvm_hint;

static void *jvm_hint_new(void)
{
	jvm_hint *h = fl_xcalloc(1, sizeof *h);
	pthread_mutex_init(&h->lock, NULL);
	return h;
}

static void jvm_hint_free(void *p)
{
	jvm_hint *h = p;
	if (!h)
		return;
	pthread_mutex_destroy(&h->lock);
	fl_strmap_free(&h->names);
	free(h);
}

/* The arguments of the call whose '(' is at s[p], counted by bytes (its
 * commas outside brackets and quotes), or -1 when a byte scan cannot tell
 * (a comment, a text block, no ')'). */
static int byte_args(const char *s, size_t n, size_t p)
{
	int depth = 0, commas = 0;
	bool any = false;
	for (size_t q = p + 1; q < n && q < p + 4096; q++) {
		char ch = s[q];
		if (ch == '"' || ch == '\'') {
			if (q + 2 < n && s[q + 1] == ch && s[q + 2] == ch)
				return -1;
			for (q++; q < n && s[q] != ch; q++)
				if (s[q] == '\\')
					q++;
				else if (s[q] == '\n')
					return -1;
			any = true;
			continue;
		}
		if (ch == '/')
			return -1;
		if (ch == '(' || ch == '[' || ch == '{') {
			depth++;
		} else if (ch == ')' || ch == ']' || ch == '}') {
			if (depth-- == 0)
				return any ? commas + 1 : 0;
		} else if (ch == ',' && depth == 0) {
			commas++;
		}
		if (!ws_byte(ch))
			any = true;
	}
	return -1;
}

/* Whether the text constructs a class of a factory declared so far, with
 * an arity it takes: the last name of each `new a.b.X(` looked up.  A
 * guess only: the early scan's lookups decide (jvm_early_holds). */
static bool likely_found(jvm_hint *h, const char *s, size_t n)
{
	bool found = false;
	pthread_mutex_lock(&h->lock);
	if (h->names.n)
		for (const char *q = s; !found && (q = fl_memmem(q, (size_t)(s + n - q), "new", 3)) != NULL; q += 3) {
			size_t at = (size_t)(q - s), p = at + 3;
			if ((at > 0 && jid_byte(s[at - 1])) || p >= n || !ws_byte(s[p]))
				continue;
			size_t b = p, e = p;
			for (;;) {
				while (p < n && ws_byte(s[p]))
					p++;
				b = p;
				while (p < n && jid_byte(s[p]))
					p++;
				e = p;
				if (e == b || p >= n || s[p] != '.')
					break;
				p++;
			}
			char name[256];
			if (e == b || e - b >= sizeof name)
				continue;
			memcpy(name, s + b, e - b);
			name[e - b] = '\0';
			size_t arities;
			if (!fl_strmap_get(&h->names, name, &arities))
				continue;
			while (p < n && ws_byte(s[p]))
				p++;
			int na = p < n && s[p] == '(' ? byte_args(s, n, p) : -1;
			uint64_t v = arities;
			if (na < 0 || na >= HINT_ARGS - 1)
				found = true;
			else /* one factory of that arity, with a message */
				found = (v >> (na + HINT_MSG) & 1) && !(v >> (na + HINT_TWICE) & 1);
		}
	pthread_mutex_unlock(&h->lock);
	return found;
}

static void *jvm_collect_scan(void *part, const fl_src *src, fl_sites *out, void *hint)
{
	static const fl_factories none; /* the tree taken for empty */
	jvm_lexed *x = src->text ? jvm_collect_file(part, src, true) : NULL;
	jvm_hint *h = hint;
	const fl_factories *fs = part;
	if (h && fs && fs->n) {
		pthread_mutex_lock(&h->lock);
		for (size_t k = 0; k < fs->n; k++) {
			const fl_factory *f = &fs->v[k];
			uint64_t v = 0;
			size_t got;
			if (fl_strmap_get(&h->names, f->name, &got))
				v = got;
			for (size_t a = f->nreq; a <= f->np && a < HINT_ARGS; a++) {
				uint64_t bit = (uint64_t)1 << a;
				if (v & bit)
					v |= bit << HINT_TWICE;
				v |= bit;
				if (f->msg)
					v |= bit << HINT_MSG;
			}
			if (f->np >= HINT_ARGS) /* any arity over: a maybe */
				v |= (uint64_t)1 << (HINT_ARGS - 1) << HINT_MSG;
			fl_strmap_put(&h->names, f->name, (size_t)v);
		}
		pthread_mutex_unlock(&h->lock);
	}
	if (h && src->text && likely_found(h, src->text, src->len)) {
		jvm_lexed_free(x);
		return NULL;
	}
	fl_buf *log = fl_xcalloc(1, sizeof *log);
	fl_src s = *src;
	s.cache = x;
	ctx c;
	memset(&c, 0, sizeof c);
	c.log = log;
	jvm_scan_ctx(&c, &none, &s, out);
	return log;
}

static bool jvm_early_holds(const void *tree, const void *log)
{
	const fl_buf *b = log;
	for (size_t p = 0; p + 8 <= b->n;) {
		uint32_t h[2];
		memcpy(h, b->s + p, sizeof h);
		p += sizeof h;
		if (fl_factories_find(tree, b->s + p, h[0], h[1]))
			return false;
		p += h[0];
	}
	return true;
}

static void jvm_early_free(void *log)
{
	if (log)
		fl_buf_free(log);
	free(log);
}

static void jvm_collect(void *tree, const fl_src *src)
{
	jvm_collect_file(tree, src, false);
}

static void *jvm_collect_keep(void *part, const fl_src *src)
{
	return jvm_collect_file(part, src, true);
}

static void jvm_scan_ctx(ctx *cp, const void *tree, const fl_src *src, fl_sites *out)
{
	ctx c = *cp;
	c.ctors = tree;
	c.d = dialect_of(src->path);
	c.src = src;
	c.out = out;
	jvm_lexed *x = src->cache;
	if (x) {
		/* lexed by the collect pass, from this same text */
		c.t = x->t;
		c.match = x->match;
		free(x);
	} else {
		fl_toks_init(&c.t, src);
		lx L = {.t = &c.t, .d = c.d};
		jvm_lex(&L);
		fl_buf_free(&L.scratch);
		c.match = fl_tok_match_table(&c.t, FL_MATCH_INNERMOST);
	}
	walk(&c);
	fl_factories_free(&c.fac);
	fl_strmap_free(&c.own);
	free(c.match);
	fl_scopes_free(&c.sc);
	fl_toks_free(&c.t);
}

static void jvm_scan(const void *tree, const fl_src *src, fl_sites *out)
{
	ctx c;
	memset(&c, 0, sizeof c);
	jvm_scan_ctx(&c, tree, src, out);
}

static bool jvm_is_test_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	static const char *const suf[] = {
		"Test.java", "Tests.java", "IT.java", "TestCase.java",
		"Test.kt", "Tests.kt", "IT.kt",
		"Spec.scala", "Test.scala", "Suite.scala", "Tests.scala",
		NULL};
	for (const char *const *s = suf; *s; s++)
		if (ends_with(base, n, *s))
			return true;
	return false;
}

static const char *const jvm_exts[] = {".java", ".kt", ".kts", ".scala",
				       NULL};

const fl_lang fl_lang_jvm = {
	.name = "jvm",
	.extensions = jvm_exts,
	.printf_ints = true,
	.is_test_file = jvm_is_test_file,
	.tree_new = fl_factories_tree_new,
	.tree_free = fl_factories_tree_free,
	.collect = jvm_collect,
	.tree_merge = fl_factories_tree_merge,
	.collect_keep = jvm_collect_keep,
	.cache_free = jvm_lexed_free,
	.collect_scan = jvm_collect_scan,
	.early_holds = jvm_early_holds,
	.early_free = jvm_early_free,
	.hint_new = jvm_hint_new,
	.hint_free = jvm_hint_free,
	.scan = jvm_scan,
};
