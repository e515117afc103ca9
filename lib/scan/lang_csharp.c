/*
 * lang_csharp.c — C#.
 *
 * Lexer: //, /// and block comments, preprocessor lines, "..." with
 * escapes, verbatim @"...", interpolated $"..{expr}.." / $@"" / @$"" with
 * nested braces and format specs (placeholders kept as written, {{ }}
 * decoded), raw string literals """...""" (C# 11, multi-line indentation
 * removed, $$ multi-dollar interpolation), char literals, @identifiers.
 *
 * Rules: throw new X(...) and throw expressions, exception constructors
 * outside throw, X.ThrowIfNull(...)-style guards, Microsoft.Extensions.
 * Logging LogError/LogWarning/LogCritical/Log(LogLevel.X, ...), Serilog/
 * NLog/log4net loggers, Console.Error.WriteLine, ASP.NET controller
 * results NotFound/BadRequest/Unauthorized/Forbid/Conflict/StatusCode/
 * Problem/UnprocessableEntity.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "lex.h"
#include "../util.h"

#define NOIDX FL_NOMATCH
#define MAX_ARG_TOKS 256
#define MAX_ARG_DEPTH 48
#define MAX_TMPL_DEPTH 24

/* ======================================================================
 * lexer
 * ====================================================================== */

static bool is_id_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

static bool is_id_byte(int c)
{
	return is_id_start(c) || (c >= '0' && c <= '9');
}

/* Decode one C# escape at s[*p] == '\\'; advances *p. */
static void cs_escape(const char *s, size_t n, size_t *p, fl_buf *out)
{
	size_t i = *p + 1;
	if (i >= n) {
		*p = n;
		return;
	}
	char c = s[i];
	int maxd = 0;
	bool exact = true;
	switch (c) {
	case 'n': fl_buf_putc(out, '\n'); break;
	case 't': fl_buf_putc(out, '\t'); break;
	case 'r': fl_buf_putc(out, '\r'); break;
	case 'b': fl_buf_putc(out, '\b'); break;
	case 'f': fl_buf_putc(out, '\f'); break;
	case 'v': fl_buf_putc(out, '\v'); break;
	case 'a': fl_buf_putc(out, '\a'); break;
	case 'e': fl_buf_putc(out, '\x1b'); break;
	case '0': fl_buf_putc(out, '\0'); break;
	case 'x': maxd = 4; exact = false; break;
	case 'u': maxd = 4; break;
	case 'U': maxd = 8; break;
	default: fl_buf_putc(out, c); break;
	}
	if (!maxd) {
		*p = i + 1;
		return;
	}
	size_t j = i + 1;
	uint32_t v = 0;
	int k = 0;
	while (k < maxd && j < n && fl_hexval((unsigned char)s[j]) >= 0) {
		v = v * 16 + (uint32_t)fl_hexval((unsigned char)s[j]);
		j++;
		k++;
	}
	if (k == 0 || (exact && k != maxd)) {
		fl_buf_putc(out, c);
		*p = i + 1;
		return;
	}
	if (v >= 0xD800 && v <= 0xDBFF && j + 5 < n && s[j] == '\\' &&
	    s[j + 1] == 'u') {
		uint32_t lo = 0;
		int kk = 0;
		size_t q = j + 2;
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
}

static size_t skip_string_at(const char *s, size_t n, size_t p, int depth);

static bool cs_id_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || (unsigned char)c >= 0x80;
}

/* The hole s[hb, he) is `nameof(a.b.Name)` or `nameof(Name<T>)` (blanks
 * allowed; nameof leaves type arguments out): the length of Name, its
 * start in *nb; 0 otherwise. */
static size_t nameof_hole(const char *s, size_t hb, size_t he, size_t *nb)
{
	while (hb < he && (s[hb] == ' ' || s[hb] == '\t'))
		hb++;
	while (he > hb && (s[he - 1] == ' ' || s[he - 1] == '\t'))
		he--;
	if (he - hb < 9 || memcmp(s + hb, "nameof", 6) != 0 || s[he - 1] != ')')
		return 0;
	size_t p = hb + 6;
	while (p < he && (s[p] == ' ' || s[p] == '\t'))
		p++;
	if (p >= he || s[p] != '(')
		return 0;
	size_t b = p + 1, e = he - 1;
	while (b < e && (s[b] == ' ' || s[b] == '\t'))
		b++;
	while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	if (e > b && s[e - 1] == '>') {
		/* type arguments: names, dots, commas, blanks, '?', '[]' */
		int depth = 0;
		size_t q = e;
		while (q > b) {
			char ch = s[--q];
			if (ch == '>') {
				depth++;
			} else if (ch == '<') {
				if (--depth == 0)
					break;
			} else if (!cs_id_byte(ch) && (!ch || !strchr(".,? \t[]", ch))) {
				return 0;
			}
		}
		if (depth != 0 || q == b)
			return 0;
		e = q;
		while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
			e--;
	}
	/* a dotted name: identifier bytes and dots only */
	size_t last = b;
	for (size_t q = b; q < e; q++) {
		if (s[q] == '.')
			last = q + 1;
		else if (!cs_id_byte(s[q]))
			return 0;
	}
	if (last >= e || (s[last] >= '0' && s[last] <= '9'))
		return 0;
	*nb = last;
	return e - last;
}

/* From p (just inside an interpolation hole), find the '}' closing it at
 * depth 0; returns its position or n. */
static size_t skip_expr(const char *s, size_t n, size_t p, int depth)
{
	int br = 0;
	while (p < n) {
		char c = s[p];
		if (c == '{' || c == '(' || c == '[') {
			br++;
		} else if (c == '}' || c == ')' || c == ']') {
			if (br == 0 && c == '}')
				return p;
			if (br > 0)
				br--;
		} else if (c == '"' || ((c == '$' || c == '@') && p + 1 < n &&
					(s[p + 1] == '"' || s[p + 1] == '$' ||
					 s[p + 1] == '@'))) {
			if (depth >= MAX_TMPL_DEPTH)
				return n;
			size_t q = skip_string_at(s, n, p, depth + 1);
			p = q > p ? q : p + 1;
			continue;
		} else if (c == '\'') {
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

/* string literal prefix at p: dollars, verbatim, quote count */
typedef struct strhead {
	int dollars;
	bool verbatim;
	int quotes; /* 1 or >= 3 (raw) */
	size_t body;  /* position after the opening quotes */
} strhead;

static bool str_head(const char *s, size_t n, size_t p, strhead *h)
{
	memset(h, 0, sizeof *h);
	size_t q = p;
	while (q < n && (s[q] == '$' || s[q] == '@')) {
		if (s[q] == '$')
			h->dollars++;
		else
			h->verbatim = true;
		q++;
		if (q - p > 64)
			return false;
	}
	if (q >= n || s[q] != '"')
		return false;
	size_t k = q;
	while (k < n && s[k] == '"')
		k++;
	size_t nq = k - q;
	if (nq >= 3 && !h->verbatim) {
		h->quotes = (int)nq;
		h->body = k;
	} else {
		h->quotes = 1;
		h->body = q + 1;
		/* "" is an empty string (or an escaped quote in verbatim,
		 * handled by the body loop) */
	}
	return true;
}

static size_t raw_close(const char *s, size_t n, size_t p, int quotes)
{
	/* p at a '"': is it a closing run of `quotes` quotes? returns the
	 * end or 0 */
	size_t k = p;
	while (k < n && s[k] == '"')
		k++;
	if ((int)(k - p) >= quotes)
		return k;
	return 0;
}

/* Walk a string body; decode into out when out != NULL.  indent: bytes of
 * leading whitespace to drop at each line start (raw multi-line).  Returns
 * the position after the closing delimiter (or n / the newline when
 * unterminated). */
static size_t str_walk(const char *s, size_t n, const strhead *h,
		       size_t p, size_t stop, size_t indent, fl_buf *out,
		       bool *interp, int depth)
{
	bool raw = h->quotes >= 3;
	int dl = h->dollars;
	bool at_line_start = false;
	while (p < n && p < stop) {
		char c = s[p];
		if (at_line_start) {
			size_t k = 0;
			while (k < indent && p < stop && (s[p] == ' ' || s[p] == '\t')) {
				p++;
				k++;
			}
			at_line_start = false;
			continue;
		}
		if (c == '"') {
			if (raw) {
				size_t e = raw_close(s, n, p, h->quotes);
				if (e)
					return e;
				if (out)
					fl_buf_putc(out, c);
				p++;
				continue;
			}
			if (h->verbatim && p + 1 < n && s[p + 1] == '"') {
				if (out)
					fl_buf_putc(out, '"');
				p += 2;
				continue;
			}
			return p + 1;
		}
		if (c == '\n') {
			if (!raw && !h->verbatim)
				return p;
			if (out)
				fl_buf_putc(out, '\n');
			p++;
			at_line_start = raw && indent;
			continue;
		}
		if (c == '\\' && !raw && !h->verbatim) {
			if (out)
				cs_escape(s, n, &p, out);
			else
				p += 2;
			continue;
		}
		if (dl && (c == '{' || c == '}')) {
			size_t k = p;
			while (k < n && s[k] == c && k - p < 64)
				k++;
			size_t run = k - p;
			if (c == '{' && (int)run >= dl && (raw || run % 2 == 1 || dl > 1)) {
				/* literal braces before the hole: run - dl */
				size_t lit = raw ? run - (size_t)dl : (run - 1);
				if (out)
					for (size_t q = 0; q < (raw ? lit : lit / 2); q++)
						fl_buf_putc(out, '{');
				size_t hb = p + run;
				size_t he = skip_expr(s, n, hb, depth);
				if (he > stop)
					he = stop;
				size_t nb, nl = nameof_hole(s, hb, he, &nb);
				if (nl) {
					/* {nameof(x.Name)} is the text "Name" */
					if (out)
						fl_buf_put(out, s + nb, nl);
				} else {
					if (out) {
						fl_buf_putc(out, '{');
						size_t h = out->n;
						fl_buf_put(out, s + hb, he - hb);
						fl_buf_squeeze_hole(out, h);
						fl_buf_putc(out, '}');
					}
					*interp = true;
				}
				p = he;
				/* consume the closing braces */
				int need = dl;
				while (p < n && p < stop && s[p] == '}' && need > 0) {
					p++;
					need--;
				}
				continue;
			}
			/* literal braces: {{ -> { in non-raw interpolated */
			if (out) {
				size_t cnt = raw ? run : (run + 1) / 2;
				for (size_t q = 0; q < cnt; q++)
					fl_buf_putc(out, c);
			}
			p = k;
			continue;
		}
		size_t q = p + 1;
		while (q < n && q < stop) {
			char e = s[q];
			if (e == '"' || e == '\\' || e == '\n' || e == '{' || e == '}')
				break;
			q++;
		}
		if (out)
			fl_buf_put(out, s + p, q - p);
		p = q;
	}
	return p < n ? p : n;
}

static size_t skip_string_at(const char *s, size_t n, size_t p, int depth)
{
	strhead h;
	if (!str_head(s, n, p, &h))
		return p + 1;
	bool interp = false;
	return str_walk(s, n, &h, h.body, n, 0, NULL, &interp, depth);
}

/* lex a string literal at t->pos (prefix included) */
static void lex_string(fl_toks *t)
{
	const char *s = t->src;
	size_t n = t->srclen;
	size_t start = t->pos;
	int line = t->line, col = fl_lx_col(t);
	strhead h;
	if (!str_head(s, n, start, &h)) {
		fl_lx_punct(t, NULL);
		return;
	}
	fl_tok *k = fl_toks_push(t, FL_TK_STRING, start, 0, line, col);
	if (h.verbatim || h.quotes >= 3)
		k->flags |= FL_TF_RAW;
	bool interp = false;
	size_t end;
	fl_toks_str_begin(t, k);
	if (h.quotes >= 3) {
		/* raw: single- or multi-line */
		size_t p = h.body;
		while (p < n && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r'))
			p++;
		if (p < n && s[p] == '\n') {
			size_t cs = p + 1;
			/* find the end without decoding */
			end = str_walk(s, n, &h, cs, n, 0, NULL, &interp, 0);
			size_t ce = end >= (size_t)h.quotes ? end - (size_t)h.quotes : cs;
			if (ce < cs || raw_close(s, n, ce, h.quotes) == 0)
				ce = end;
			/* closing line whitespace */
			size_t ls = ce;
			while (ls > cs && (s[ls - 1] == ' ' || s[ls - 1] == '\t'))
				ls--;
			size_t indent = 0, stop = ce;
			if (ls > cs && s[ls - 1] == '\n') {
				indent = ce - ls;
				stop = ls - 1;
				if (stop > cs && s[stop - 1] == '\r')
					stop--;
			} else if (ls == cs) {
				indent = ce - ls;
				stop = cs;
			}
			interp = false;
			/* first line indentation */
			size_t q = cs, kk = 0;
			while (kk < indent && q < stop && (s[q] == ' ' || s[q] == '\t')) {
				q++;
				kk++;
			}
			str_walk(s, n, &h, q, stop, indent, &t->arena, &interp, 0);
		} else {
			end = str_walk(s, n, &h, h.body, n, 0, &t->arena, &interp, 0);
			/* drop the closing quotes that were not content */
		}
	} else {
		end = str_walk(s, n, &h, h.body, n, 0, &t->arena, &interp, 0);
	}
	fl_toks_str_end(t, k);
	if (interp)
		k->flags |= FL_TF_INTERP;
	k->len = (uint32_t)(end - start);
	fl_lx_adv_to(t, end);
}

static void lex_char(fl_toks *t)
{
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
	fl_toks_push(t, FL_TK_PUNCT, p, 1, t->line, fl_lx_col(t));
	t->pos++;
}

static const char *const cs_ops[] = {
	"=>", "?\?=", "??", "?.", "==", "!=", "<=", ">=", "&&", "||", "::",
	"->", "++", "--", "+=", "-=", "*=", "/=", "..", NULL,
};

static bool line_start_before(const fl_toks *t)
{
	for (size_t p = t->pos; p > t->line_start; p--) {
		char c = t->src[p - 1];
		if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v')
			return false;
	}
	return true;
}

static void cs_lex(fl_toks *t)
{
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
			fl_lx_block_comment(t, "/*", "*/", false);
			continue;
		}
		if (c == '#' && line_start_before(t)) {
			fl_lx_line_comment(t);
			continue;
		}
		if (c == '"' || ((c == '$' || c == '@') &&
				 (c1 == '"' || c1 == '$' || c1 == '@'))) {
			lex_string(t);
			continue;
		}
		if (c == '\'') {
			lex_char(t);
			continue;
		}
		if (c == '@' && c1 >= 0 && is_id_start(c1)) {
			size_t st = t->pos;
			int col = fl_lx_col(t);
			size_t q = st + 1;
			while (q < n && is_id_byte((unsigned char)s[q]))
				q++;
			fl_toks_push(t, FL_TK_IDENT, st, q - st, t->line, col);
			t->pos = q;
			continue;
		}
		if (is_id_start(c)) {
			fl_lx_ident(t, false);
			continue;
		}
		if (c >= '0' && c <= '9') {
			fl_lx_number(t);
			continue;
		}
		fl_lx_punct(t, cs_ops);
	}
}

/* ======================================================================
 * rules
 * ====================================================================== */

enum { SC_OTHER, SC_CLASS, SC_FUNC, SC_IF, SC_SWITCH };

typedef fl_scope scope;

typedef struct ctx {
	fl_toks t;
	const fl_src *src;
	fl_sites *out;
	size_t *match; /* fl_tok_match_table, FL_MATCH_INNERMOST */
	fl_scopes sc; /* scopes and their names */
	int paren;
	/* pending class declaration */
	int pend_kind;
	uint32_t pend_name;
	int pend_paren;
	/* expression-bodied member: ends at ';' */
	bool xf_on;
	int32_t xf_fn;
	size_t xf_depth;
	int xf_paren;
	fl_factories fac; /* the file's exception factories, found on first use */
	const fl_factories *ctors; /* constructors of the tree's exception
				      classes (collect()), or NULL */
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

static char *arg_msg(const ctx *c, size_t b, size_t e, int lvl);

static const char *const msg_props[] = {"message", "error", "detail",
					"title", "reason", "description",
					"errormessage", NULL};

static bool tok_eq_ci(const ctx *c, size_t i, const char *s)
{
	size_t l = strlen(s);
	if (c->t.v[i].len != l)
		return false;
	const char *p = tsrc(c, i);
	for (size_t k = 0; k < l; k++) {
		char ch = p[k];
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if (ch != s[k])
			return false;
	}
	return true;
}

/* new { Message = "..." } / new Error { Detail = "..." } */
static char *initializer_msg(const ctx *c, size_t b, size_t e, int lvl)
{
	size_t k = b + 1;
	while (k < e && !is_p(c, k, "{")) {
		if (c->match[k] != NOIDX && c->match[k] > k)
			k = c->match[k];
		k++;
	}
	if (k >= e || c->match[k] == NOIDX || c->match[k] >= e)
		return NULL;
	size_t cl = c->match[k];
	size_t st[16], en[16];
	size_t na = args(c, k, st, en, 16, NULL);
	(void)cl;
	for (const char *const *pr = msg_props; *pr; pr++)
		for (size_t a = 0; a < na; a++)
			if (en[a] - st[a] >= 3 && is_id(c, st[a]) &&
			    is_p(c, st[a] + 1, "=") && tok_eq_ci(c, st[a], *pr))
				return arg_msg(c, st[a] + 2, en[a], lvl + 1);
	return NULL;
}

/* Message of one argument expression [b, e). */
static char *arg_msg(const ctx *c, size_t b, size_t e, int lvl)
{
	if (b >= e || lvl > 4)
		return NULL;
	/* named argument: name: expr */
	if (e - b >= 3 && is_id(c, b) && is_p(c, b + 1, ":"))
		b += 2;
	/* string.Format(...) / String.Format(provider, "...", ...) */
	if (e - b >= 4 && is_id(c, b) && is_p(c, b + 1, ".") &&
	    is(c, b + 2, "Format") && is_p(c, b + 3, "(") &&
	    c->match[b + 3] == e - 1) {
		size_t st[8], en[8];
		size_t na = args(c, b + 3, st, en, 8, NULL);
		for (size_t k = 0; k < na; k++) {
			char *m = arg_msg(c, st[k], en[k], lvl + 1);
			if (m) {
				fl_msg_undouble(m, "{}");
				fl_msg_trim(m);
				return m;
			}
		}
		return NULL;
	}
	/* "... {0} ...".FormatWith(culture, x): a format extension method on
	 * the literal (Newtonsoft's FormatWith, and the like) */
	if (e - b >= 4 && c->t.v[b].kind == FL_TK_STRING && is_p(c, b + 1, ".") &&
	    is_id(c, b + 2) && fl_tok_contains_ci(&c->t, b + 2, "format") &&
	    is_p(c, b + 3, "(") && c->match[b + 3] == e - 1) {
		char *m = fl_xstrdup(fl_tok_str(&c->t, &c->t.v[b]));
		fl_msg_undouble(m, "{}");
		fl_msg_trim(m);
		return m;
	}
	if (is(c, b, "new") && lvl < 3) {
		char *m = initializer_msg(c, b, e, lvl);
		if (m)
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
		"if", "for", "foreach", "while", "switch", "catch", "using",
		"lock", "fixed", "return", "new", "else", "do", "throw", "base",
		"this", "when", "nameof", "typeof", "sizeof", "default",
		"checked", "unchecked", "await", "in", "is", "as", "stackalloc",
		"async", "get", "set", "init", "add", "remove", "try",
		"finally", "unsafe", "yield", "case", "var", "where", NULL};
	for (const char *const *k = kw; *k; k++)
		if (is_s(c, i, *k))
			return true;
	return false;
}

static bool name_is_cur_class(ctx *c, size_t nm)
{
	const char *cls = cur_class(c);
	return cls && strlen(cls) == c->t.v[nm].len &&
	       memcmp(cls, tsrc(c, nm), c->t.v[nm].len) == 0;
}

/* token before a member name that makes it a declaration */
static bool decl_prefix(ctx *c, size_t b)
{
	if (is(c, b, "new") || is_p(c, b, ".") || is_kw(c, b))
		return false;
	return is_id(c, b) || is_p(c, b, ">") || is_p(c, b, "]") ||
	       is_p(c, b, "?") || is_p(c, b, "*");
}

/* Is the '{' or '=>' at i the body of a method / constructor / local
 * function / property?  Returns the name token or NOIDX. */
static size_t cs_member_at(ctx *c, size_t i)
{
	if (i == 0)
		return NOIDX;
	size_t p = i - 1;
	/* where constraints: ) where T : class, new() { */
	if (!is_p(c, p, ")") || (c->match[p] != NOIDX && c->match[p] > 0 &&
				 is(c, c->match[p] - 1, "new"))) {
		size_t lim = i > 48 ? i - 48 : 0, k = p;
		bool found = false;
		while (k > lim) {
			if (is(c, k, "where") && is_p(c, k - 1, ")")) {
				found = true;
				break;
			}
			if (is_p(c, k, ";") || is_p(c, k, "{") || is_p(c, k, "}") ||
			    is_p(c, k, "=>") || is_p(c, k, "="))
				break;
			if (c->match[k] != NOIDX && c->match[k] < k)
				k = c->match[k];
			if (k == 0)
				break;
			k--;
		}
		if (found) {
			p = k - 1;
		} else if (is_id(c, p) && !is_kw(c, p)) {
			/* property: Type Name { / Type Name => */
			scope *s = top(c);
			if (s && s->kind == SC_CLASS && p > 0 && decl_prefix(c, p - 1))
				return p;
			return NOIDX;
		} else if (!is_p(c, p, ")")) {
			return NOIDX;
		}
	}
	for (int hop = 0; hop < 2; hop++) {
		size_t o = c->match[p];
		if (o == NOIDX || o == 0 || o > p)
			return NOIDX;
		size_t nm = o - 1;
		/* constructor initializer: ) : base(...) { */
		if ((is(c, nm, "base") || is(c, nm, "this")) && nm >= 2 &&
		    is_p(c, nm - 1, ":") && is_p(c, nm - 2, ")")) {
			p = nm - 2;
			continue;
		}
		/* generic method Name<T>(...) */
		if (is_p(c, nm, ">")) {
			int d = 0;
			size_t k = nm, lim = nm > 32 ? nm - 32 : 0;
			for (; k > lim; k--) {
				if (is_p(c, k, ">"))
					d++;
				else if (is_p(c, k, "<") && --d == 0)
					break;
			}
			if (!is_p(c, k, "<") || k == 0)
				return NOIDX;
			nm = k - 1;
		}
		if (!is_id(c, nm) || is_kw(c, nm))
			return NOIDX;
		if (nm == 0)
			return nm;
		if (decl_prefix(c, nm - 1) || name_is_cur_class(c, nm))
			return nm;
		return NOIDX;
	}
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
	}
	return 0;
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

/* The condition of the if whose block ends at '}' token p: `if (c) {
 * ... }`; false for any other block. */
static bool if_cond_of_block(const ctx *c, size_t p, uint32_t *gb, uint32_t *ge)
{
	if (!is_p(c, p, "}") || c->match[p] == NOIDX || c->match[p] >= p)
		return false;
	size_t o = c->match[p];
	if (o < 3 || !is_p(c, o - 1, ")"))
		return false;
	size_t q = c->match[o - 1];
	if (q == NOIDX || q == 0 || q >= o - 1 || !is(c, q - 1, "if") || q + 1 >= o - 1)
		return false;
	*gb = (uint32_t)(q + 1);
	*ge = (uint32_t)(o - 1);
	return true;
}

/* The condition of the if whose else is token e (`if (c) { ... } else`,
 * the last if of an else-if chain): what follows e runs when it does not
 * hold. */
static bool else_cond(const ctx *c, size_t e, uint32_t *gb, uint32_t *ge)
{
	return e >= 1 && is(c, e, "else") && if_cond_of_block(c, e - 1, gb, ge);
}

static char *guard_if_for(ctx *c, size_t first)
{
	if (first == 0)
		return NULL;
	size_t p = first - 1;
	/* if (x) return NotFound("..."); */
	while (p > 0 && (is(c, p, "return") || is(c, p, "await")))
		p--;
	if (is_p(c, p, ")") && c->match[p] != NOIDX && c->match[p] > 0 &&
	    c->match[p] < p) {
		size_t o = c->match[p];
		if (is(c, o - 1, "if"))
			return fl_scope_guard_nest(&c->t, top(c), SC_IF,
						   fl_tok_span_text(&c->t, o + 1, p, 200));
		if (is(c, o - 1, "while"))
			return fl_tok_span_text(&c->t, o + 1, p, 200);
	}
	uint32_t eb, ee;
	if (else_cond(c, p, &eb, &ee)) {
		/* } else throw ...; */
		return fl_scope_guard_nest(&c->t, top(c), SC_IF,
					   fl_guard_span(&c->t, eb, ee, true, false));
	}
	if (is_p(c, p, "=>")) {
		scope *s = top(c);
		if (!s || s->kind != SC_SWITCH)
			return NULL;
		/* switch expression arm: back to ',' or '{' */
		size_t k = p, lim = p > 96 ? p - 96 : 0;
		while (k > lim) {
			size_t j = k - 1;
			if (c->match[j] != NOIDX && c->match[j] < j)
				j = c->match[j];
			else if (c->match[j] != NOIDX || is_p(c, j, ","))
				break;
			k = j;
		}
		if (k >= p || (is(c, k, "_") && k + 1 == p))
			return NULL;
		return fl_tok_span_text(&c->t, k, p, 200);
	}
	if (is_p(c, p, ":")) {
		size_t a = arm_start(c, p, 1);
		if (a != NOIDX && a < p)
			return fl_tok_span_text(&c->t, a, p, 200);
		if (a != NOIDX)
			return NULL;
	}
	scope *s = top(c);
	if (s && s->kind == SC_IF && s->ge > s->gb) {
		/* computed once per block: many sites may share it */
		if (s->gtext < 0) {
			char *g = fl_guard_span(&c->t, s->gb, s->ge, s->neg, false);
			if (fl_scope_is_if(&c->t, s, SC_IF) && c->sc.n >= 2)
				g = fl_scope_guard_nest(&c->t, &c->sc.v[c->sc.n - 2], SC_IF, g);
			s->gtext = add_name(c, NULL, g, strlen(g));
			free(g);
		}
		return fl_xstrdup(name_at(c, s->gtext));
	}
	return NULL;
}

/* The guard of a site whose statement starts at first: the if around
 * it, else its switch's case */
static char *guard_for(ctx *c, size_t first, bool *early)
{
	*early = false;
	char *sw = fl_switch_guard(&c->t, c->match, first);
	/* a case's statement: its labels, rather than the arm's text */
	if (sw && first > 0 && (is_p(c, first - 1, ":") || is_p(c, first - 1, "=>")))
		return sw;
	/* an if of the case's own around it: both hold */
	char *g = guard_if_for(c, first);
	/* no if around it: the early exits before it in its block */
	if (!g) {
		g = fl_early_guard(&c->t, c->match, first);
		*early = g != NULL;
	}
	if (g && sw)
		return fl_guard_nest(sw, g, false);
	return g ? g : sw;
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
	char *g = s->guard_set ? s->guard : guard_for(c, s->first, &site.early);
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

/* The parameter name an argument gives: "name", nameof(a.name), a
 * variable (then a placeholder {variable}); NULL for anything else. */
static char *param_name(const ctx *c, size_t b, size_t e)
{
	if (e - b >= 3 && is_id(c, b) && is_p(c, b + 1, ":"))
		b += 2; /* paramName: ... */
	if (e - b == 1 && c->t.v[b].kind == FL_TK_STRING) {
		const char *v = fl_tok_str(&c->t, &c->t.v[b]);
		return v && *v ? fl_xstrdup(v) : NULL;
	}
	if (e - b >= 4 && is(c, b, "nameof") && is_p(c, b + 1, "(") && is_p(c, e - 1, ")")) {
		/* the last name, without type arguments: nameof(x.Name) is
		 * "Name", nameof(Cache<T>) is "Cache" */
		size_t last = NOIDX;
		int angle = 0;
		for (size_t k = b + 2; k + 1 < e; k++) {
			if (is_p(c, k, "<"))
				angle++;
			else if (is_p(c, k, ">") && angle > 0)
				angle--;
			else if (!angle && is_id(c, k))
				last = k;
		}
		if (last != NOIDX)
			return dup_tok(c, last);
	}
	if (e - b == 1 && is_id(c, b)) {
		char *v = dup_tok(c, b);
		char *r = fl_xasprintf("{%s}", v);
		free(v);
		return r;
	}
	return NULL;
}

static bool is_string_arg(const ctx *c, size_t b, size_t e)
{
	if (e - b >= 3 && is_id(c, b) && is_p(c, b + 1, ":"))
		b += 2;
	return e > b && (c->t.v[b].kind == FL_TK_STRING ||
			 (is(c, b, "string") && b + 1 < e && is_p(c, b + 1, ".")) ||
			 (is(c, b, "String") && b + 1 < e && is_p(c, b + 1, ".")));
}

/* .NET's ArgumentException family prints "<message> (Parameter 'name')";
 * built with only a parameter name it prints the framework's own message.
 * The message of `new cls(args)` as the runtime shows it, or NULL when cls
 * is not one of them (or the arguments are not understood). */
/* ObjectDisposedException prints its message, then "Object name: 'X'."
 * on a line of its own when it has an object name; without a message of
 * its own, "Cannot access a disposed object." */
static char *disposed_msg(const char *msg, const char *name)
{
	const char *m = msg ? msg : "Cannot access a disposed object.";
	return name ? fl_xasprintf("%s\nObject name: '%s'.", m, name) : fl_xstrdup(m);
}

static char *argument_exception_msg(const ctx *c, const char *cls, const size_t *st,
				    const size_t *en, size_t na)
{
	if (strcmp(cls, "ObjectDisposedException") == 0) {
		/* (objectName) (objectName, message) (message, inner) */
		if (na < 1 || na > 2)
			return NULL;
		char *name = NULL, *msg = NULL;
		if (na == 2 && !is_string_arg(c, st[1], en[1])) {
			msg = first_msg(c, st, en, 1, 0, NULL);
			if (!msg)
				return NULL;
		} else {
			name = is(c, st[0], "null") ? NULL : param_name(c, st[0], en[0]);
			if (!name && !is(c, st[0], "null")) {
				/* an expression: its value at run time */
				char *x = fl_tok_span_text(&c->t, st[0], en[0], 60);
				name = fl_xasprintf("{%s}", x);
				free(x);
			}
			if (na == 2)
				msg = first_msg(c, st, en, 2, 1, NULL);
		}
		char *r = disposed_msg(msg, name);
		free(name);
		free(msg);
		return r;
	}
	bool isnull = strcmp(cls, "ArgumentNullException") == 0;
	bool range = strcmp(cls, "ArgumentOutOfRangeException") == 0;
	bool plain = strcmp(cls, "ArgumentException") == 0;
	if (!isnull && !range && !plain)
		return NULL;
	char *param = NULL, *msg = NULL, *actual = NULL;
	if (plain) {
		/* (message) (message, paramName) (message, paramName, inner) */
		if (na < 2)
			return NULL;
		msg = first_msg(c, st, en, 1, 0, NULL);
		if (is_string_arg(c, st[1], en[1]) || is(c, st[1], "nameof"))
			param = param_name(c, st[1], en[1]);
	} else if (na >= 1) {
		/* (paramName) (paramName, message) (paramName, actual, message);
		 * (message, inner) when the second is not text */
		if (na == 2 && !is_string_arg(c, st[1], en[1])) {
			msg = first_msg(c, st, en, 1, 0, NULL);
		} else {
			param = param_name(c, st[0], en[0]);
			size_t mi = range && na >= 3 ? 2 : 1;
			if (na > mi && !is(c, st[mi], "null"))
				msg = first_msg(c, st, en, mi + 1, mi, NULL);
			if (range && na >= 3)
				actual = param_name(c, st[1], en[1]);
		}
	}
	if (!msg && !plain)
		msg = fl_xstrdup(isnull ? "Value cannot be null."
				 : "Specified argument was out of the range of valid values.");
	if (!msg) {
		free(param);
		return NULL;
	}
	char *r = param ? fl_xasprintf("%s (Parameter '%s')", msg, param) : fl_xstrdup(msg);
	/* "Actual value was X." only for a variable ({name}); a literal or
	 * other expression is left out of the message */
	if (actual && *actual == '{') {
		char *r2 = fl_xasprintf("%s\nActual value was %s.", r, actual);
		free(r);
		r = r2;
	}
	free(param);
	free(msg);
	free(actual);
	return r;
}

/* ArgumentOutOfRangeException's throw helpers */
static const struct range_helper {
	const char *method;
	int nargs;          /* the value, and the value compared with */
	const char *text;   /* after "name ('value') " */
	const char *op;     /* the condition that throws */
} range_helpers[] = {
	{"ThrowIfZero", 1, "must be a non-zero value.", "== 0"},
	{"ThrowIfNegative", 1, "must be a non-negative value.", "< 0"},
	{"ThrowIfNegativeOrZero", 1, "must be a non-negative and non-zero value.", "<= 0"},
	{"ThrowIfGreaterThan", 2, "must be less than or equal to", ">"},
	{"ThrowIfGreaterThanOrEqual", 2, "must be less than", ">="},
	{"ThrowIfLessThan", 2, "must be greater than or equal to", "<"},
	{"ThrowIfLessThanOrEqual", 2, "must be greater than", "<="},
	{"ThrowIfEqual", 2, "must not be equal to", "=="},
	{"ThrowIfNotEqual", 2, "must be equal to", "!="},
};
#define NRANGE_HELPERS (sizeof range_helpers / sizeof range_helpers[0])

/* ArgumentOutOfRangeException's helper at token i, or NULL */
static const struct range_helper *range_helper_at(const ctx *c, size_t i)
{
	for (size_t k = 0; k < NRANGE_HELPERS; k++)
		if (fl_tok_is(&c->t, i, range_helpers[k].method))
			return &range_helpers[k];
	return NULL;
}

/* The condition under which cls.ThrowIfX(args) throws (token i is
 * ThrowIfX), as code: "size > 24", "key is null", or NULL. */
static char *throw_if_guard(const ctx *c, const char *cls, size_t i, const size_t *st,
			    const size_t *en, size_t na)
{
	if (na < 1)
		return NULL;
	char *x = fl_tok_span_text(&c->t, st[0], en[0], 80), *g = NULL;
	if (strcmp(cls, "ObjectDisposedException") == 0) {
		if (is(c, i, "ThrowIf"))
			g = fl_xstrdup(x);
	} else if (is(c, i, "ThrowIfNull")) {
		g = fl_xasprintf("%s is null", x);
	} else if (is(c, i, "ThrowIfNullOrEmpty")) {
		g = fl_xasprintf("%s is null or empty", x);
	} else if (is(c, i, "ThrowIfNullOrWhiteSpace")) {
		g = fl_xasprintf("%s is null, empty or white space", x);
	} else if (strcmp(cls, "ArgumentOutOfRangeException") == 0) {
		const struct range_helper *h = range_helper_at(c, i);
		if (h && h->nargs == 1) {
			g = fl_xasprintf("%s %s", x, h->op);
		} else if (h && na >= 2) {
			char *o = fl_tok_span_text(&c->t, st[1], en[1], 80);
			g = fl_xasprintf("%s %s %s", x, h->op, o);
			free(o);
		}
	}
	free(x);
	return g;
}

/* The framework's message of cls.ThrowIfX(args) (token i is ThrowIfX), as
 * .NET 8 words it, or NULL.  The parameter's name is the text of the
 * checked argument (CallerArgumentExpression) unless one is passed. */
static char *throw_if_msg(const ctx *c, const char *cls, size_t i, const size_t *st,
			  const size_t *en, size_t na)
{
	if (na < 1)
		return NULL;
	if (strcmp(cls, "ObjectDisposedException") == 0) {
		/* ThrowIf(condition, instance or type): its type's full name */
		if (!is(c, i, "ThrowIf") || na != 2)
			return NULL;
		char *what = fl_tok_span_text(&c->t, st[1], en[1], 60);
		char *name = fl_xasprintf("{%s}", what);
		char *r = disposed_msg(NULL, name);
		free(what);
		free(name);
		return r;
	}
	const char *text = NULL;
	size_t nargs = 1;
	bool isnull = false;
	if (strcmp(cls, "ArgumentNullException") == 0 && is(c, i, "ThrowIfNull")) {
		text = "Value cannot be null.";
		isnull = true;
	} else if (strcmp(cls, "ArgumentException") == 0 && is(c, i, "ThrowIfNullOrEmpty")) {
		text = "The value cannot be an empty string.";
		isnull = true;
	} else if (strcmp(cls, "ArgumentException") == 0 && is(c, i, "ThrowIfNullOrWhiteSpace")) {
		text = "The value cannot be an empty string or composed entirely of whitespace.";
		isnull = true;
	} else if (strcmp(cls, "ArgumentOutOfRangeException") == 0) {
		const struct range_helper *h = range_helper_at(c, i);
		if (h) {
			text = h->text;
			nargs = (size_t)h->nargs;
		}
	}
	if (!text || na < nargs || na > nargs + 1)
		return NULL;
	char *param = na > nargs ? param_name(c, st[nargs], en[nargs])
				 : fl_tok_span_text(&c->t, st[0], en[0], 80);
	if (!param)
		return NULL;
	char *r;
	if (isnull) {
		r = fl_xasprintf("%s (Parameter '%s')", text, param);
	} else {
		/* "name ('value') must be ... ['other']. (Parameter 'name')
		 * Actual value was value." */
		char *v = fl_tok_span_text(&c->t, st[0], en[0], 80);
		char *value = fl_xasprintf("{%s}", v);
		char *other = NULL;
		if (nargs == 2) {
			char *o = fl_tok_span_text(&c->t, st[1], en[1], 80);
			bool lit = en[1] == st[1] + 1 && c->t.v[st[1]].kind == FL_TK_NUMBER;
			other = lit ? fl_xstrdup(o) : fl_xasprintf("{%s}", o);
			free(o);
		}
		char *what = other ? fl_xasprintf("%s '%s'.", text, other) : fl_xstrdup(text);
		r = fl_xasprintf("%s ('%s') %s (Parameter '%s')\nActual value was %s.", param,
				 value, what, param, value);
		free(v);
		free(value);
		free(other);
		free(what);
	}
	free(param);
	return r;
}

/* The message held by a local variable passed as an argument:
 * `string message = "...".FormatWith(...); throw X.Create(reader, message);` */
static const char *const cs_decl[] = {"var", "string", "String", "const", NULL};

static char *var_arg_msg(const void *ud, size_t b, size_t e)
{
	return arg_msg(ud, b, e, 0);
}

static char *local_msg(ctx *c, const size_t *st, const size_t *en, size_t na)
{
	scope *sc = top(c);
	return sc ? fl_var_arg_msg(&c->t, c->match, sc->fn_at, st, en, na,
				   cs_decl, var_arg_msg, c)
		  : NULL;
}

/* The one text the file's one method `name` (token nm) returns, for
 * `throw new X(MissingMessage(name))` or `this.MissingMessage(name)`: a
 * block body whose every `return` gives that text, or an expression body
 * (`=> $"..."`); else NULL. */
static char *helper_text(const ctx *c, size_t nm)
{
	const fl_tok *n = &c->t.v[nm];
	size_t found = NOIDX;
	if (!fl_helper_budget_take(c->t.n))
		return NULL;
	for (size_t k = 1; k + 1 < c->t.n; k++) {
		const fl_tok *x = &c->t.v[k];
		if (k == nm || x->kind != FL_TK_IDENT || x->len != n->len ||
		    memcmp(tsrc(c, k), tsrc(c, nm), n->len) != 0 || !is_p(c, k + 1, "(") ||
		    c->match[k + 1] == NOIDX || c->match[k + 1] + 1 >= c->t.n)
			continue;
		/* a declaration: a return type before the name, a body after */
		size_t b = c->match[k + 1] + 1;
		if (!(is_p(c, b, "{") || is_p(c, b, "=>")) ||
		    !(is_id(c, k - 1) || is_p(c, k - 1, ">") || is_p(c, k - 1, "]") || is_p(c, k - 1, "?")) ||
		    is(c, k - 1, "new") || is(c, k - 1, "return") || is(c, k - 1, "throw") || is(c, k - 1, "await"))
			continue;
		if (found != NOIDX)
			return NULL; /* overloads: which one runs is not known */
		found = k;
	}
	if (found == NOIDX)
		return NULL;
	size_t b = c->match[found + 1] + 1;
	if (is_p(c, b, "=>")) {
		size_t e = b + 1;
		while (e < c->t.n && !is_p(c, e, ";"))
			e = c->match[e] != NOIDX && c->match[e] > e ? c->match[e] + 1 : e + 1;
		return e > b + 1 ? arg_msg(c, b + 1, e, 1) : NULL;
	}
	size_t close = c->match[b];
	if (close == NOIDX || close <= b)
		return NULL;
	char *text = NULL;
	for (size_t q = b + 1; q < close; q++) {
		if (!is(c, q, "return"))
			continue;
		size_t re = q + 1;
		while (re < close && !is_p(c, re, ";"))
			re = c->match[re] != NOIDX && c->match[re] > re && c->match[re] < close ? c->match[re] + 1 : re + 1;
		char *m = re > q + 1 ? arg_msg(c, q + 1, re, 1) : NULL;
		if (m && !*m) {
			free(m);
			m = NULL;
		}
		if (!fl_same_text(&text, m))
			return NULL;
		q = re;
	}
	return text;
}

/* The text a method of the file that the first argument calls returns. */
static char *helper_msg(const ctx *c, const size_t *st, const size_t *en, size_t na)
{
	if (!na)
		return NULL;
	size_t b = st[0], e = en[0];
	if (e > b + 4 && is(c, b, "this") && is_p(c, b + 1, "."))
		b += 2;
	else if (b > 0 && is_p(c, b - 1, "."))
		return NULL;
	if (e < b + 3 || !is_id(c, b) || !is_p(c, b + 1, "(") || c->match[b + 1] != e - 1 ||
	    c->t.v[b].len < 3)
		return NULL;
	return helper_text(c, b);
}

/* ---- exception factories --------------------------------------------------
 * A throw of a call to a method of this file that builds (or throws) one
 * exception: Newtonsoft's `throw CreateUnexpectedEndException()` with
 * `JsonReaderException CreateUnexpectedEndException() { return
 * JsonReaderException.Create(this, "Unexpected end when reading JSON."); }`
 * (lex.h). */

/* The exception construction at j: `new XException(` or a static factory
 * of an exception type, `XException.Create(`; the class token and the '('
 * of its arguments, or NOIDX. */
static size_t fac_ctor(const ctx *c, size_t j, size_t *ci)
{
	bool nw = is(c, j, "new");
	size_t open = ctor_at(c, nw ? j + 1 : j, ci);
	if (open == NOIDX)
		return NOIDX;
	if (!nw) {
		/* XException.Create(...): the class is the qualifier */
		if (*ci < j + 2 || !is_p(c, *ci - 1, "."))
			return NOIDX;
		*ci -= 2;
	}
	if (!ends_with(tsrc(c, *ci), c->t.v[*ci].len, "Exception"))
		return NOIDX;
	return open;
}

/* Add to fs the factory `name` (its parameter list opens at name + 1) that
 * builds class token cls with the arguments opened at copen.  Kept even
 * without a message: an overload of the same arity is then ambiguous. */
static size_t fac_ctor_at(const void *ud, size_t at, size_t *cls)
{
	return fac_ctor(ud, at, cls);
}

static void fac_make(ctx *c, fl_factories *fs, const char *prefix, size_t name,
		     size_t cls, size_t copen)
{
	fl_factory f = {0};
	size_t st[FL_FAC_PARAMS], en[FL_FAC_PARAMS];
	size_t np = args(c, name + 1, st, en, FL_FAC_PARAMS, NULL);
	for (size_t k = 0; k < np; k++) {
		/* `string message`, `Exception? ex = null`: the name before
		 * any default value */
		size_t nm = NOIDX, q = st[k];
		for (; q < en[k] && !is_p(c, q, "="); q++) {
			if (is_id(c, q))
				nm = q;
			if (c->match[q] != NOIDX && c->match[q] > q)
				q = c->match[q];
		}
		if (q == en[k] && !is(c, st[k], "params"))
			f.nreq = f.np + 1; /* required */
		if (nm == NOIDX) {
			for (size_t r = 0; r < f.np; r++)
				free(f.param[r]);
			return;
		}
		f.param[f.np++] = dup_tok(c, nm);
	}
	size_t ast[16], aen[16];
	size_t na = args(c, copen, ast, aen, 16, NULL);
	/* XException.Create(reader, "message"): the first argument that
	 * gives a message or passes a parameter on */
	f.msg = first_msg(c, ast, aen, na, 0, NULL);
	for (size_t k = 0; !f.msg && k < na; k++)
		f.msg = fl_msg_params(&c->t, c->match, ast[k], aen[k], plus_ops,
				      f.param, f.np);
	if (prefix)
		f.name = fl_xasprintf("%s.%.*s", prefix, (int)c->t.v[name].len, tsrc(c, name));
	else
		f.name = dup_tok(c, name);
	f.cls = dup_tok(c, cls);
	fl_factories_add(fs, &f);
}

/* Find the methods of the file that build or throw exactly one exception:
 * `Type Name(params) { ... return new X(...); }` or `=> new X(...)`. */
/* The factory methods declared in tokens [b, e) into fs, their names
 * qualified by prefix when not NULL. */
static void fac_find_in(ctx *c, fl_factories *fs, size_t b, size_t e, const char *prefix)
{
	for (size_t i = b > 0 ? b : 1; i + 1 < e && fs->n < 4096; i++) {
		if (!is_id(c, i) || !is_p(c, i + 1, "(") || c->match[i + 1] == NOIDX)
			continue;
		/* a declaration: a return type before the name */
		if (!(is_p(c, i - 1, ">") || is_p(c, i - 1, "]") || is_p(c, i - 1, "?") ||
		      (is_id(c, i - 1) && !is(c, i - 1, "new") && !is(c, i - 1, "return") &&
		       !is(c, i - 1, "throw") && !is(c, i - 1, "else") &&
		       !is(c, i - 1, "case") && !is(c, i - 1, "await") &&
		       !is(c, i - 1, "yield") && !is(c, i - 1, "is") &&
		       !is(c, i - 1, "as") && !is(c, i - 1, "in"))))
			continue;
		size_t body = c->match[i + 1] + 1;
		if (!is_p(c, body, "=>") && !is_p(c, body, "{"))
			continue;
		size_t ci = NOIDX;
		size_t copen = fl_fac_body_ctor(&c->t, c->match, is_p(c, body, "=>") ? body + 1 : body,
						is_p(c, body, "=>"), fac_ctor_at, c, &ci);
		if (copen != NOIDX)
			fac_make(c, fs, prefix, i, ci, copen);
	}
}

static void fac_find(ctx *c)
{
	c->fac.found = true;
	fac_find_in(c, &c->fac, 1, c->t.n, NULL);
}

/* The factory methods of each `partial class Name` of a file, as
 * "Name.Method": a partial class spread over files (Newtonsoft's
 * JsonTextReader.cs and JsonTextReader.Async.cs) calls factories declared
 * in another of its files. */
static void partial_factories(ctx *c, fl_factories *fs)
{
	for (size_t i = 0; i + 3 < c->t.n; i++) {
		if (!is(c, i, "partial") || !is(c, i + 1, "class") || !is_id(c, i + 2))
			continue;
		size_t k = i + 3;
		while (k < c->t.n && !is_p(c, k, "{") && k - i < 64)
			k++;
		if (!is_p(c, k, "{") || c->match[k] == NOIDX)
			continue;
		char *cls = dup_tok(c, i + 2);
		fac_find_in(c, fs, k + 1, c->match[k], cls);
		free(cls);
	}
}

/* throw factory(args): the factory's message and class, or false */
static bool rule_factory(ctx *c, size_t first, size_t ci, const size_t *st,
			 const size_t *en, size_t na)
{
	if (!c->fac.found)
		fac_find(c);
	const fl_factory *f = fl_factories_find(&c->fac, tsrc(c, ci), c->t.v[ci].len, na);
	const char *cls = cur_class(c);
	if (!f && c->ctors && cls && strlen(cls) < 200) {
		/* a factory of this partial class declared in another file */
		char q[512];
		int n = snprintf(q, sizeof q, "%s.%.*s", cls, (int)c->t.v[ci].len, tsrc(c, ci));
		if (n > 0 && (size_t)n < sizeof q)
			f = fl_factories_find(c->ctors, q, (size_t)n, na);
	}
	if (!f)
		return false;
	char *m = fl_factory_compose(f, st, en, na, var_arg_msg, c);
	site_spec s = {.first = first, .cls = f->cls, .type = FL_T_EXCEPTION,
		       .sev = FL_S_ERROR, .idiom = "throw", .msg = m};
	emit(c, &s);
	free(m);
	return true;
}

/* throw new X(...), throw Factory.Create(...), new XException(...) */
static void rule_ctor(ctx *c, size_t first, size_t b, bool thrown, bool nw,
		      const char *idiom)
{
	size_t ci;
	size_t open = ctor_at(c, b, &ci);
	if (open == NOIDX)
		return;
	const char *nm = tsrc(c, ci);
	size_t nl = c->t.v[ci].len;
	bool excy = ends_with(nm, nl, "Exception");
	if (!thrown && !excy)
		return;
	size_t st[16], en[16];
	size_t na = args(c, open, st, en, 16, NULL);
	/* throw Factory(...), a method of this file, called on this or on an
	 * instance, not on another type */
	if (thrown && !nw) {
		bool own = true;
		for (size_t k = b; k < ci; k += 2)
			own &= is_id(c, k) && !(tsrc(c, k)[0] >= 'A' && tsrc(c, k)[0] <= 'Z');
		if (own && rule_factory(c, first, ci, st, en, na))
			return;
	}
	/* the class is known for `new X(...)`; for a thrown factory call
	 * when it names an exception type (`throw XException.Create(...)`
	 * builds an XException) */
	char *cls = (nw || excy) ? dup_tok(c, ci) : NULL;
	/* a helper named for what it makes: Newtonsoft's
	 * MiscellaneousUtils.CreateArgumentOutOfRangeException(...) */
	if (cls && !nw && nl > 15 && strncmp(nm, "Create", 6) == 0 && nm[6] >= 'A' && nm[6] <= 'Z')
		memmove(cls, cls + 6, nl - 6 + 1);
	if (!cls && thrown && ci >= b + 2 && is_p(c, ci - 1, ".") &&
	    ends_with(tsrc(c, ci - 2), c->t.v[ci - 2].len, "Exception"))
		cls = dup_tok(c, ci - 2);
	char *m = nw && cls ? argument_exception_msg(c, cls, st, en, na) : NULL;
	const fl_factory *f;
	if (!m && nw && cls && c->ctors &&
	    (f = fl_factories_find(c->ctors, nm, nl, na)) != NULL) {
		/* new X(args) of an exception class of the tree whose
		 * constructor builds the message: : base($"...{arg}...") */
		m = fl_factory_compose(f, st, en, na, var_arg_msg, c);
		/* only a parameter passed on ({message}): read the call as usual */
		if (m && m[0] == '{' && strchr(m, '}') && !strchr(m, '}')[1]) {
			free(m);
			m = NULL;
		}
	}
	if (!m)
		m = first_msg(c, st, en, na, 0, NULL);
	if (!m)
		m = local_msg(c, st, en, na);
	if (!m)
		m = helper_msg(c, st, en, na);
	if (!m && nw && thrown)
		m = fl_xstrdup(cls);
	if (!m) {
		free(cls);
		return;
	}
	site_spec s = {.first = first, .cls = cls, .type = FL_T_EXCEPTION,
		       .sev = FL_S_ERROR, .idiom = idiom, .msg = m};
	emit(c, &s);
	free(m);
	free(cls);
}

static void rule_call(ctx *c, size_t first, size_t callee, size_t from_arg,
		      const char *cls, const char *deflt, bool braces,
		      const char *type, const char *sev, int http)
{
	size_t st[16], en[16];
	size_t na = args(c, callee + 1, st, en, 16, NULL);
	char *m = first_msg(c, st, en, na, from_arg, NULL);
	if (m && braces) {
		fl_msg_undouble(m, "{}");
		fl_msg_trim(m);
	}
	if (!m && deflt)
		m = fl_xstrdup(deflt);
	char *idiom = fl_tok_span_text(&c->t, first, callee + 1, 80);
	site_spec s = {.first = first, .cls = cls, .type = type, .sev = sev,
		       .idiom = idiom, .msg = m, .http = http};
	emit(c, &s);
	free(idiom);
	free(m);
}

static const char *level_sev(const ctx *c, size_t i)
{
	static const struct {
		const char *k, *s;
	} tab[] = {
		{"Error", FL_S_ERROR}, {"Warning", FL_S_WARNING},
		{"Warn", FL_S_WARNING}, {"Critical", FL_S_CRITICAL},
		{"Fatal", FL_S_CRITICAL}, {"ErrorFormat", FL_S_ERROR},
		{"WarnFormat", FL_S_WARNING}, {"FatalFormat", FL_S_CRITICAL},
		{NULL, NULL},
	};
	for (int k = 0; tab[k].k; k++)
		if (is_s(c, i, tab[k].k))
			return tab[k].s;
	return NULL;
}

/* A reporter's call at callee i (Report.Error (code, loc, "text", args)):
 * the first argument that starts with a string literal is the message.
 * The number before it is no record's errorCode: a compiler gives one
 * number to several texts (mcs's 246: "... could not be found. Are you
 * missing an assembly reference?" and two more), and a code is the
 * record's identity (records.md), which would fold them into one.
 * False when no argument starts with a literal. */
static bool rule_reporter(ctx *c, size_t i, const char *sev)
{
	size_t st[16], en[16];
	size_t na = args(c, i + 1, st, en, 16, NULL);
	for (size_t k = 0; k < na; k++) {
		if (!fl_tok_is_kind(&c->t, st[k], FL_TK_STRING))
			continue;
		char *m = arg_msg(c, st[k], en[k], 0);
		if (!m || !*m) {
			free(m);
			return false;
		}
		char *idiom = fl_tok_span_text(&c->t, i - 2, i + 1, 80);
		site_spec s = {.first = chain_start(c, i), .type = FL_T_CONSOLE, .sev = sev,
			       .idiom = idiom, .msg = m};
		emit(c, &s);
		free(idiom);
		free(m);
		return true;
	}
	return false;
}

/* StatusCodes.Status404NotFound, (int)HttpStatusCode.NotFound, 404 */
static int cs_http(const ctx *c, size_t b, size_t e)
{
	if (e > b && is_id(c, e - 1)) {
		const char *s = tsrc(c, e - 1);
		size_t n = c->t.v[e - 1].len;
		if (n >= 9 && memcmp(s, "Status", 6) == 0 && s[6] >= '1' &&
		    s[6] <= '5')
			return (s[6] - '0') * 100 + (s[7] - '0') * 10 + (s[8] - '0');
	}
	return arg_http(c, b, e);
}

static void rule_aspnet(ctx *c, size_t i, size_t first)
{
	static const struct {
		const char *k;
		int v;
	} tab[] = {
		{"NotFound", 404}, {"BadRequest", 400}, {"Unauthorized", 401},
		{"Forbid", 403}, {"Conflict", 409}, {"UnprocessableEntity", 422},
		{"StatusCode", -1}, {"Problem", 500}, {"ValidationProblem", 400},
		{NULL, 0},
	};
	int http = 0;
	for (int k = 0; tab[k].k; k++)
		if (is_s(c, i, tab[k].k))
			http = tab[k].v;
	if (!http)
		return;
	size_t st[16], en[16];
	size_t na = args(c, i + 1, st, en, 16, NULL);
	if (na == 0)
		return;
	char *m = NULL;
	if (http == -1) {
		http = cs_http(c, st[0], en[0]);
		m = first_msg(c, st, en, na, 1, NULL);
	} else if (is(c, i, "Problem") || is(c, i, "ValidationProblem")) {
		/* named: detail / statusCode / title; positional: detail,
		 * instance, statusCode, title */
		char *title = NULL;
		for (size_t a = 0; a < na; a++) {
			size_t b = st[a];
			bool named = en[a] - b >= 3 && is_id(c, b) && is_p(c, b + 1, ":");
			if ((named && is(c, b, "statusCode")) || (!named && a == 2)) {
				int h = cs_http(c, named ? b + 2 : b, en[a]);
				if (h)
					http = h;
			} else if ((named && is(c, b, "detail")) || (!named && a == 0)) {
				if (!m)
					m = arg_msg(c, b, en[a], 0);
			} else if ((named && is(c, b, "title")) || (!named && a == 3)) {
				if (!title)
					title = arg_msg(c, b, en[a], 0);
			}
		}
		if (!m) {
			m = title;
			title = NULL;
		}
		free(title);
	} else {
		m = first_msg(c, st, en, na, 0, NULL);
	}
	if (m && *m && http >= 100 && http <= 599) {
		char *idiom = fl_tok_span_text(&c->t, first, i + 1, 80);
		site_spec s = {.first = first, .type = FL_T_HTTP,
			       .sev = fl_http_severity(http), .idiom = idiom, .msg = m,
			       .http = http};
		emit(c, &s);
		free(idiom);
	}
	free(m);
}

static void rules_at(ctx *c, size_t i)
{
	bool dot_before = i > 0 && (is_p(c, i - 1, ".") || is_p(c, i - 1, "?."));
	bool call = is_p(c, i + 1, "(");

	if (is(c, i, "throw")) {
		size_t b = i + 1;
		bool nw = is(c, b, "new");
		if (nw)
			b++;
		rule_ctor(c, i, b, true, nw, nw ? "throw new" : "throw");
		return;
	}
	if (is(c, i, "new")) {
		if (i > 0 && is(c, i - 1, "throw"))
			return;
		rule_ctor(c, i, i + 1, false, true, "new");
		return;
	}
	if (!call)
		return;
	/* ArgumentNullException.ThrowIfNull(x) */
	if (dot_before && i >= 2 && is_id(c, i - 2) &&
	    c->t.v[i].len >= 7 && memcmp(tsrc(c, i), "ThrowIf", 7) == 0 &&
	    ends_with(tsrc(c, i - 2), c->t.v[i - 2].len, "Exception")) {
		char *cls = dup_tok(c, i - 2);
		size_t first = chain_start(c, i);
		char *idiom = fl_tok_span_text(&c->t, i - 2, i + 1, 80);
		/* ArgumentNullException.ThrowIfNull(x): the parameter name is
		 * the argument's text (CallerArgumentExpression) */
		size_t st[4], en[4];
		size_t na = args(c, i + 1, st, en, 4, NULL);
		char *msg = throw_if_msg(c, cls, i, st, en, na);
		site_spec s = {.first = first, .cls = cls, .type = FL_T_EXCEPTION,
			       .sev = FL_S_ERROR, .idiom = idiom, .msg = msg ? msg : cls};
		/* the helper's own condition guards the site */
		char *g = throw_if_guard(c, cls, i, st, en, na);
		if (g) {
			s.guard = g;
			s.guard_set = true;
		}
		emit(c, &s);
		free(msg);
		free(idiom);
		free(cls);
		return;
	}
	/* FluentValidation: RuleFor(x => x.Title).NotEmpty().WithMessage("...")
	 * is the message a failed rule reports ({PropertyName} and the like
	 * are its placeholders) */
	if (dot_before && is(c, i, "WithMessage") && is_p(c, i + 1, "(") && is_p(c, i - 1, ".")) {
		rule_call(c, i - 1, i, 0, NULL, NULL, false, FL_T_VALIDATION, FL_S_WARNING, 0);
		return;
	}
	/* Microsoft.Extensions.Logging */
	if (dot_before) {
		const char *sev = NULL;
		if (is(c, i, "LogError"))
			sev = FL_S_ERROR;
		else if (is(c, i, "LogWarning"))
			sev = FL_S_WARNING;
		else if (is(c, i, "LogCritical"))
			sev = FL_S_CRITICAL;
		if (sev) {
			rule_call(c, chain_start(c, i), i, 0, NULL, NULL, true,
				  FL_T_CONSOLE, sev, 0);
			return;
		}
		if (is(c, i, "Log") && is(c, i + 2, "LogLevel") &&
		    is_p(c, i + 3, ".") && is_id(c, i + 4) &&
		    (sev = level_sev(c, i + 4)) != NULL) {
			rule_call(c, chain_start(c, i), i, 1, NULL, NULL, true,
				  FL_T_CONSOLE, sev, 0);
			return;
		}
		/* Console.Error.WriteLine("...") */
		if ((is(c, i, "WriteLine") || is(c, i, "Write")) && i >= 4 &&
		    is(c, i - 2, "Error") && is(c, i - 4, "Console")) {
			rule_call(c, i - 4, i, 0, NULL, NULL, false, FL_T_CONSOLE,
				  FL_S_ERROR, 0);
			return;
		}
		/* a compiler's or a tool's reporter: Report.Error (103, loc,
		 * "The name `{0}' does not exist", name), report.Warning (162,
		 * 2, loc, "..."): the first literal argument is the message
		 * (the number before it is no code: rule_reporter) */
		if (i >= 2 && is_id(c, i - 2) &&
		    (fl_tok_contains_ci(&c->t, i - 2, "report") ||
		     fl_tok_contains_ci(&c->t, i - 2, "diagnostic")) &&
		    (sev = level_sev(c, i)) != NULL && rule_reporter(c, i, sev))
			return;
		/* Serilog / NLog / log4net: log.Error("...") */
		if (i >= 2 && is_id(c, i - 2) && fl_tok_contains_ci(&c->t, i - 2, "log") &&
		    (sev = level_sev(c, i)) != NULL) {
			rule_call(c, chain_start(c, i), i, 0, NULL, NULL, true,
				  FL_T_CONSOLE, sev, 0);
			return;
		}
	}
	/* ASP.NET results: return NotFound("..."), Results.NotFound(...) */
	if (!dot_before) {
		if (i > 0 && is_id(c, i - 1) && !is(c, i - 1, "return") &&
		    !is(c, i - 1, "await") && !is(c, i - 1, "else") &&
		    !is(c, i - 1, "yield"))
			return; /* a declaration */
		rule_aspnet(c, i, i);
	} else if (i >= 2 && (is(c, i - 2, "Results") ||
			      is(c, i - 2, "TypedResults") || is(c, i - 2, "this") ||
			      is(c, i - 2, "base"))) {
		rule_aspnet(c, i, i - 2);
	}
}

static void decl_at(ctx *c, size_t i)
{
	if (i > 0 && (is_p(c, i - 1, ".") || is_p(c, i - 1, ":")))
		return; /* where T : class, Foo.class */
	if (is(c, i, "class") || is(c, i, "interface") || is(c, i, "struct") ||
	    is(c, i, "record") || is(c, i, "enum")) {
		size_t k = i + 1;
		if (is(c, k, "class") || is(c, k, "struct"))
			k++;
		if (is_id(c, k) && !is_kw(c, k)) {
			c->pend_kind = SC_CLASS;
			c->pend_name = (uint32_t)k;
			c->pend_paren = c->paren;
		}
	}
}

static void walk(ctx *c)
{
	size_t n = c->t.n;
	for (size_t i = 0; i < n; i++) {
		const fl_tok *tk = &c->t.v[i];
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
				} else if ((jm = cs_member_at(c, i)) != NOIDX) {
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
					    c->match[p] > 0 && c->match[p] < p) {
						size_t o = c->match[p];
						if (is(c, o - 1, "if") ||
						    is(c, o - 1, "while")) {
							s->kind = SC_IF;
							s->gb = (uint32_t)(o + 1);
							s->ge = (uint32_t)p;
						} else if (is(c, o - 1, "switch")) {
							s->kind = SC_SWITCH;
						}
					} else if (is(c, p, "switch")) {
						s->kind = SC_SWITCH;
					} else if (else_cond(c, p, &s->gb, &s->ge)) {
						/* } else { */
						s->kind = SC_IF;
						s->neg = 1;
					}
				}
				continue;
			}
			if (ch == '}') {
				if (c->sc.n)
					c->sc.n--;
				if (c->xf_on && c->sc.n < c->xf_depth)
					c->xf_on = false;
				c->pend_kind = 0;
				continue;
			}
			if (ch == ';') {
				if (c->paren == c->pend_paren)
					c->pend_kind = 0;
				if (c->xf_on && c->sc.n == c->xf_depth &&
				    c->paren <= c->xf_paren)
					c->xf_on = false;
				continue;
			}
			continue;
		}
		if (tk->kind == FL_TK_PUNCT && is_p(c, i, "=>")) {
			size_t jm;
			if (!c->xf_on && (jm = cs_member_at(c, i)) != NOIDX) {
				c->xf_on = true;
				c->xf_fn = add_name(c, cur_class(c), tsrc(c, jm),
						    c->t.v[jm].len);
				c->xf_depth = c->sc.n;
				c->xf_paren = c->paren;
			}
			continue;
		}
		if (tk->kind != FL_TK_IDENT)
			continue;
		decl_at(c, i);
		rules_at(c, i);
	}
}

/* ---- exception classes whose constructors build the message ---------------
 * `public class ItemNotFoundException : Exception { public
 * ItemNotFoundException(string sku) : base($"No item with SKU {sku}") {} }`:
 * each constructor is kept as a factory of its class (lex.h), and `throw new
 * ItemNotFoundException("A-1")` in any file of the tree gets the message the
 * constructor builds. */
static void class_ctors(ctx *c, fl_factories *fs)
{
	for (size_t i = 0; i + 3 < c->t.n && fs->n < 65536; i++) {
		if (!is(c, i, "class") || !is_id(c, i + 1) ||
		    !ends_with(tsrc(c, i + 1), c->t.v[i + 1].len, "Exception"))
			continue;
		size_t name = i + 1, k = name + 1;
		while (k < c->t.n && !is_p(c, k, "{") && k - name < 64)
			k++;
		if (!is_p(c, k, "{") || c->match[k] == NOIDX)
			continue;
		size_t end = c->match[k];
		/* Name(params) : base(args) */
		for (size_t q = k + 1; q + 1 < end; q++) {
			if (c->t.v[q].len != c->t.v[name].len || !is_p(c, q + 1, "(") ||
			    memcmp(tsrc(c, q), tsrc(c, name), c->t.v[q].len) != 0 ||
			    is(c, q - 1, "new") || is_p(c, q - 1, ".") ||
			    c->match[q + 1] == NOIDX)
				continue;
			size_t cl = c->match[q + 1];
			if (!is_p(c, cl + 1, ":") || !is(c, cl + 2, "base") ||
			    !is_p(c, cl + 3, "(") || c->match[cl + 3] == NOIDX)
				continue;
			fac_make(c, fs, NULL, q, name, cl + 3);
		}
	}
}

static void cs_collect(void *tree, const fl_src *src)
{
	if (!tree || !src->text)
		return;
	bool ctors = fl_memmem(src->text, src->len, "base(", 5) &&
		     fl_may_declare_error_class(src->text, src->len);
	bool partial = fl_memmem(src->text, src->len, "partial", 7) != NULL;
	if (!ctors && !partial)
		return;
	ctx c;
	memset(&c, 0, sizeof c);
	c.src = src;
	fl_toks_init(&c.t, src);
	cs_lex(&c.t);
	c.match = fl_tok_match_table(&c.t, FL_MATCH_INNERMOST);
	if (ctors)
		class_ctors(&c, tree);
	if (partial)
		partial_factories(&c, tree);
	free(c.match);
	fl_toks_free(&c.t);
}

static void cs_scan(const void *tree, const fl_src *src, fl_sites *out)
{
	ctx c;
	memset(&c, 0, sizeof c);
	c.ctors = tree;
	c.src = src;
	c.out = out;
	fl_toks_init(&c.t, src);
	cs_lex(&c.t);
	c.match = fl_tok_match_table(&c.t, FL_MATCH_INNERMOST);
	fl_helper_budget_reset(c.t.n);
	walk(&c);
	free(c.match);
	fl_scopes_free(&c.sc);
	fl_factories_free(&c.fac);
	fl_toks_free(&c.t);
}

static bool cs_is_test_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	return ends_with(base, n, "Tests.cs") || ends_with(base, n, "Test.cs");
}

/* .jay: a jay grammar (yacc for C#), whose actions are C# */
static const char *const cs_exts[] = {".cs", ".jay", NULL};

const fl_lang fl_lang_csharp = {
	.name = "csharp",
	.extensions = cs_exts,
	.is_test_file = cs_is_test_file,
	.tree_new = fl_factories_tree_new,
	.tree_free = fl_factories_tree_free,
	.collect = cs_collect,
	.tree_merge = fl_factories_tree_merge,
	.scan = cs_scan,
};
