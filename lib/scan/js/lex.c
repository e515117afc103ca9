/*
 * lex.c — the JavaScript / TypeScript lexer (lib/scan/js/, js.h): // and
 * block comments, '..' ".." strings, template literals with nested ${...}
 * (kept as written in the decoded text), regex literals (regex vs division
 * by the previous token), JSX elements in .js/.jsx/.tsx (text content
 * skipped, {expr} lexed as code), hashbang.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "js.h"

/* ---- lexer ------------------------------------------------------------- */

static const char *const js_ops[] = {
	">>>=", "===", "!==", "**=", "...", "<<=", ">>=", ">>>", "&&=", "||=",
	"?\?=", "=>",  "==",  "!=",  "<=",  ">=",  "&&",  "||",  "??",  "?.",
	"++",   "--",  "+=",  "-=",  "*=",  "/=",  "%=",  "&=",  "|=",  "^=",
	"**",   "<<",  ">>",  NULL};

/* one escape inside a JS string / template: decoded into the arena */
static void js_escape(fl_toks *t)
{
	int n = fl_lx_peek(t, 1);
	if (n == '\r') {
		t->pos += 2;
		if (fl_lx_peek(t, 0) == '\n')
			fl_lx_adv(t);
		return;
	}
	if (n == 'a' || n == 'e') {
		fl_buf_putc(&t->arena, (char)n);
		t->pos += 2;
		return;
	}
	if (n == -1) {
		t->pos++;
		return;
	}
	fl_lx_escape(t, &t->arena);
}

static void lex_js_string(fl_toks *t, char q)
{
	size_t start = t->pos;
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, 0, t->line,
				   fl_lx_col(t));
	fl_toks_str_begin(t, tok);
	t->pos++;
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		if (c == q) {
			t->pos++;
			break;
		}
		if (c == '\n' || c == '\r')
			break; /* unterminated */
		if (c == '\\') {
			js_escape(t);
			continue;
		}
		size_t s = t->pos;
		while (t->pos < t->srclen) {
			c = t->src[t->pos];
			if (c == q || c == '\\' || c == '\n' || c == '\r')
				break;
			t->pos++;
		}
		fl_buf_put(&t->arena, t->src + s, t->pos - s);
	}
	tok->len = (uint32_t)(t->pos - start);
	fl_toks_str_end(t, tok);
}

/* skip a '..' or ".." string without decoding (inside ${} / JSX) */
static void skip_simple_string(fl_toks *t, char q, bool escapes)
{
	t->pos++;
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		if (c == q) {
			t->pos++;
			return;
		}
		if (escapes && (c == '\n'))
			return;
		if (escapes && c == '\\' && t->pos + 1 < t->srclen) {
			t->pos++;
		}
		fl_lx_adv(t);
	}
}

/* From just after "${": move t->pos to the matching '}' (or EOF). */
static void skip_tpl_expr(fl_toks *t)
{
	uint32_t small[32];
	uint32_t *st = small;
	size_t cap = 32, sp = 0;
	bool tpl = false;
	st[sp++] = 0;
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		int n = fl_lx_peek(t, 1);
		if (!tpl) {
			if (c == '\'' || c == '"') {
				skip_simple_string(t, c, true);
			} else if (c == '`') {
				tpl = true;
				t->pos++;
			} else if (c == '/' && n == '/') {
				fl_lx_line_comment(t);
			} else if (c == '/' && n == '*') {
				fl_lx_block_comment(t, "/*", "*/", false);
			} else if (c == '{') {
				st[sp - 1]++;
				t->pos++;
			} else if (c == '}') {
				if (st[sp - 1] == 0) {
					sp--;
					if (sp == 0)
						break;
					tpl = true;
				} else {
					st[sp - 1]--;
				}
				t->pos++;
			} else {
				fl_lx_adv(t);
			}
		} else {
			if (c == '`') {
				tpl = false;
				t->pos++;
			} else if (c == '\\') {
				t->pos++;
				fl_lx_adv(t);
			} else if (c == '$' && n == '{') {
				if (sp == cap) {
					uint32_t *nst = fl_xmalloc(cap * 2 * sizeof *nst);
					memcpy(nst, st, cap * sizeof *nst);
					if (st != small)
						free(st);
					st = nst;
					cap *= 2;
				}
				st[sp++] = 0;
				tpl = false;
				t->pos += 2;
			} else {
				fl_lx_adv(t);
			}
		}
	}
	if (st != small)
		free(st);
}

/* The text of a hole as the message keeps it (from `from` of the arena
 * on): its comments dropped, and its braces (`${fmt({})}`, an arrow's
 * block), which the records' placeholder `${...}` cannot hold: it ends at
 * the first '}' (records.md). */
static void hole_clean(fl_buf *b, size_t from)
{
	size_t w = from;
	char q = 0;
	for (size_t r = from; r < b->n;) {
		char c = b->s[r];
		if (q) {
			if (c == '\\' && r + 1 < b->n) {
				b->s[w++] = c;
				b->s[w++] = b->s[r + 1];
				r += 2;
				continue;
			}
			if (c == q)
				q = 0;
		} else if (c == '\'' || c == '"' || c == '`') {
			q = c;
		} else if (c == '/' && r + 1 < b->n && b->s[r + 1] == '*') {
			size_t e = r + 2;
			while (e + 1 < b->n && !(b->s[e] == '*' && b->s[e + 1] == '/'))
				e++;
			r = e + 2 < b->n ? e + 2 : b->n;
			continue;
		} else if (c == '{' || c == '}') {
			r++;
			continue;
		}
		b->s[w++] = c;
		r++;
	}
	b->n = w;
}

static void lex_template(fl_toks *t)
{
	size_t start = t->pos;
	fl_tok *tok = fl_toks_push(t, FL_TK_STRING, start, 0, t->line,
				   fl_lx_col(t));
	size_t ti = t->n - 1;
	fl_toks_str_begin(t, tok);
	t->pos++;
	uint8_t flags = 0;
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		if (c == '`') {
			t->pos++;
			break;
		}
		if (c == '\\') {
			js_escape(t);
			continue;
		}
		if (c == '$' && fl_lx_peek(t, 1) == '{') {
			t->pos += 2;
			size_t es = t->pos;
			skip_tpl_expr(t);
			fl_buf_puts(&t->arena, "${");
			size_t h = t->arena.n;
			fl_buf_put(&t->arena, t->src + es, t->pos - es);
			hole_clean(&t->arena, h);
			fl_buf_squeeze_hole(&t->arena, h);
			fl_buf_putc(&t->arena, '}');
			if (t->pos < t->srclen)
				t->pos++;
			flags |= FL_TF_INTERP;
			continue;
		}
		if (c == '\r') {
			fl_buf_putc(&t->arena, '\n');
			t->pos++;
			if (fl_lx_peek(t, 0) == '\n')
				fl_lx_adv(t);
			continue;
		}
		if (c == '\n') {
			fl_buf_putc(&t->arena, '\n');
			fl_lx_adv(t);
			continue;
		}
		size_t s = t->pos;
		while (t->pos < t->srclen) {
			c = t->src[t->pos];
			if (c == '`' || c == '\\' || c == '$' || c == '\n' ||
			    c == '\r')
				break;
			t->pos++;
		}
		if (t->pos == s)
			t->pos++;
		fl_buf_put(&t->arena, t->src + s, t->pos - s);
	}
	tok = &t->v[ti];
	tok->flags |= flags;
	tok->len = (uint32_t)(t->pos - start);
	fl_toks_str_end(t, tok);
}

static void lex_regex(fl_toks *t)
{
	size_t start = t->pos;
	int col = fl_lx_col(t);
	bool cls = false;
	t->pos++;
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		if (c == '\n' || c == '\r')
			break;
		if (c == '\\') {
			t->pos++;
			if (t->pos < t->srclen && t->src[t->pos] != '\n')
				t->pos++;
			continue;
		}
		if (c == '[')
			cls = true;
		else if (c == ']')
			cls = false;
		else if (c == '/' && !cls) {
			t->pos++;
			break;
		}
		t->pos++;
	}
	while (t->pos < t->srclen && fl_js_id_char((unsigned char)t->src[t->pos]))
		t->pos++;
	fl_toks_push(t, FL_TK_OTHER, start, t->pos - start, t->line, col);
}

static bool prev_is_word(const fl_toks *t, const char *const *words)
{
	if (!t->n)
		return false;
	size_t i = t->n - 1;
	for (; *words; words++)
		if (fl_tok_is(t, i, *words))
			return true;
	return false;
}

static bool regex_allowed(const fl_toks *t)
{
	static const char *const kw[] = {
		"return", "typeof", "case", "throw", "in",    "of",
		"instanceof", "new", "delete", "void", "yield", "await",
		"do",     "else",   NULL};
	if (!t->n)
		return true;
	const fl_tok *p = &t->v[t->n - 1];
	switch (p->kind) {
	case FL_TK_IDENT:
		return prev_is_word(t, kw);
	case FL_TK_NUMBER:
	case FL_TK_STRING:
	case FL_TK_OTHER:
		return false;
	case FL_TK_PUNCT:
		if (p->len == 1) {
			char c = t->src[p->off];
			if (c == ')' || c == ']' || c == '}')
				return false;
		}
		if (fl_tok_is(t, t->n - 1, "++") || fl_tok_is(t, t->n - 1, "--"))
			return false;
		return true;
	}
	return true;
}

static bool jsx_allowed(const fl_toks *t)
{
	static const char *const ok[] = {
		"(", "=", "?", ":", "&&", "||", ",", "=>", "[", "{", "??",
		"return", "yield", "default", "!", "}", ";", NULL};
	if (!t->n)
		return true;
	return prev_is_word(t, ok);
}

/* `<` at t->pos starts a JSX element? */
static bool jsx_start(const fl_toks *t)
{
	int c = fl_lx_peek(t, 1);
	if (c == '>')
		return true;
	if (!fl_js_id_start(c))
		return false;
	/* TS generic arrow <T,>(..) / <T extends X> */
	size_t p = t->pos + 1;
	while (p < t->srclen && (fl_js_id_char((unsigned char)t->src[p]) ||
				 t->src[p] == '.' || t->src[p] == '-' ||
				 t->src[p] == ':'))
		p++;
	while (p < t->srclen && (t->src[p] == ' ' || t->src[p] == '\t'))
		p++;
	if (p < t->srclen && t->src[p] == ',')
		return false;
	if (p + 8 <= t->srclen && memcmp(t->src + p, "extends ", 8) == 0)
		return false;
	return true;
}

enum { M_CODE = 0, M_TAG, M_CHILD };
typedef struct {
	uint8_t kind;
	uint32_t depth;
} mframe;

typedef struct {
	mframe *v;
	size_t n, cap;
} mstack;

static void mpush(mstack *m, uint8_t kind)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->v = fl_xrealloc(m->v, m->cap * sizeof *m->v);
	}
	m->v[m->n].kind = kind;
	m->v[m->n].depth = 0;
	m->n++;
}

/* one step inside a JSX tag (attributes) */
static void jsx_tag_step(fl_toks *t, mstack *m)
{
	fl_lx_skip_ws(t);
	if (t->pos >= t->srclen)
		return;
	char c = t->src[t->pos];
	int n = fl_lx_peek(t, 1);
	if (c == '/' && n == '>') {
		t->pos += 2;
		m->n--;
	} else if (c == '>') {
		t->pos++;
		m->v[m->n - 1].kind = M_CHILD;
	} else if (c == '{') {
		fl_lx_punct(t, NULL);
		mpush(m, M_CODE);
	} else if (c == '"' || c == '\'') {
		skip_simple_string(t, c, false);
	} else if (c == '/' && n == '/') {
		fl_lx_line_comment(t);
	} else if (c == '/' && n == '*') {
		fl_lx_block_comment(t, "/*", "*/", false);
	} else {
		fl_lx_adv(t);
	}
}

/* one step inside JSX children text */
static void jsx_child_step(fl_toks *t, mstack *m)
{
	while (t->pos < t->srclen) {
		char c = t->src[t->pos];
		if (c == '{') {
			fl_lx_punct(t, NULL);
			mpush(m, M_CODE);
			return;
		}
		if (c == '<') {
			int n = fl_lx_peek(t, 1);
			if (n == '/') {
				while (t->pos < t->srclen &&
				       t->src[t->pos] != '>')
					fl_lx_adv(t);
				if (t->pos < t->srclen)
					t->pos++;
				m->n--;
				return;
			}
			if (n == '>' || fl_js_id_start(n)) {
				t->pos++;
				mpush(m, M_TAG);
				return;
			}
		}
		fl_lx_adv(t);
	}
}

void fl_js_lex(fl_toks *t, bool jsx)
{
	mstack m = {0};
	if (t->srclen >= 2 && t->src[0] == '#' && t->src[1] == '!')
		fl_lx_line_comment(t);
	for (;;) {
		if (m.n && m.v[m.n - 1].kind == M_TAG) {
			if (t->pos >= t->srclen)
				break;
			jsx_tag_step(t, &m);
			continue;
		}
		if (m.n && m.v[m.n - 1].kind == M_CHILD) {
			if (t->pos >= t->srclen)
				break;
			jsx_child_step(t, &m);
			continue;
		}
		fl_lx_skip_ws(t);
		if (t->pos >= t->srclen)
			break;
		unsigned char c = (unsigned char)t->src[t->pos];
		int n = fl_lx_peek(t, 1);
		if (c == '/' && n == '/') {
			fl_lx_line_comment(t);
		} else if (c == '/' && n == '*') {
			fl_lx_block_comment(t, "/*", "*/", false);
		} else if (c == '\'' || c == '"') {
			lex_js_string(t, (char)c);
		} else if (c == '`') {
			lex_template(t);
		} else if (fl_js_id_start(c)) {
			fl_lx_ident(t, true);
		} else if (c == '#' && fl_js_id_start(n)) {
			size_t s = t->pos;
			int col = fl_lx_col(t);
			t->pos++;
			while (t->pos < t->srclen &&
			       fl_js_id_char((unsigned char)t->src[t->pos]))
				t->pos++;
			fl_toks_push(t, FL_TK_IDENT, s, t->pos - s, t->line, col);
		} else if ((c >= '0' && c <= '9') ||
			   (c == '.' && n >= '0' && n <= '9')) {
			fl_lx_number(t);
		} else if (c == '/' && regex_allowed(t)) {
			lex_regex(t);
		} else if (c == '<' && jsx && jsx_allowed(t) && jsx_start(t)) {
			fl_toks_push(t, FL_TK_OTHER, t->pos, 1, t->line,
				     fl_lx_col(t));
			t->pos++;
			mpush(&m, M_TAG);
		} else if (c == '{') {
			fl_lx_punct(t, NULL);
			if (m.n)
				m.v[m.n - 1].depth++;
		} else if (c == '}') {
			fl_lx_punct(t, NULL);
			if (m.n) {
				if (m.v[m.n - 1].depth == 0)
					m.n--;
				else
					m.v[m.n - 1].depth--;
			}
		} else {
			fl_lx_punct(t, js_ops);
		}
	}
	free(m.v);
}
