/*
 * lang_rust.c — Rust: lexer (nested block comments, raw/byte/C strings,
 * char literals vs lifetimes, string continuation) and error-site rules
 * (panic!-family, assert!-family with message, .expect(), anyhow/eyre
 * macros, thiserror #[error(...)], io::Error::new/other, Err("..."),
 * compiler-style diagnostics builders, shell warnings and errors,
 * warnings.push / errors.push), with messages held in a local variable
 * (`let msg = format!(...); bail!(msg)`).  The scan is one function per
 * idiom: track_arm / track_keyword / track_attr keep the context,
 * rule_call dispatches to the rules.
 *
 * An error enum's variant says its message where it is declared (its
 * #[error("...")], its arm of the type's Display) and is raised where it
 * is built (`return Err(RustupError::ToolchainNotInstalled { name })`):
 * the tree's collect pass keeps each variant's message (an fl_factories
 * keyed "Enum::Variant"), and every construction of it, in any file,
 * becomes a site with that message (rule_variant).
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

#define NONE ((size_t)-1)
#define SCAN_LIMIT 256   /* max tokens a forward/backward look-around visits */
#define MSG_TOK_LIMIT 512 /* longer message expressions are not rebuilt */
#define MAX_ARGS 8

/* ---- lexer ------------------------------------------------------------------ */

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

static void rs_lex(fl_toks *t)
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

/* ---- token helpers ------------------------------------------------------------ */


/* the arguments of the bracket at open (at most MAX_ARGS) */
static size_t rs_args(const fl_toks *t, const size_t *m, size_t open,
		      size_t *sb, size_t *se)
{
	return fl_tok_split_args(t, m, open, sb, se, MAX_ARGS, NULL, 0);
}

static const char *const rs_concat[] = {"+", NULL};

/* message of an argument expression [b, e) */
static char *rs_msg(const fl_toks *t, const size_t *m, size_t b, size_t e,
		    bool fmt, int depth)
{
	if (depth > 8 || b >= e || e > t->n)
		return NULL;
	while (b < e && (fl_tok_is_punct(t, b, "&") || fl_tok_is_punct(t, b, "&&")))
		b++;
	/* trailing .into() .to_string() ... */
	while (e - b >= 5 && fl_tok_pch(t, e - 1) == ')' && fl_tok_pch(t, e - 2) == '(' &&
	       t->v[e - 3].kind == FL_TK_IDENT && fl_tok_pch(t, e - 4) == '.' &&
	       (fl_tok_is(t, e - 3, "into") || fl_tok_is(t, e - 3, "to_string") ||
		fl_tok_is(t, e - 3, "to_owned") || fl_tok_is(t, e - 3, "into_owned")))
		e -= 4;
	if (b >= e)
		return NULL;
	/* format!(...) / format_args!(...) / concat!(...) */
	if (e - b >= 3 && t->v[b].kind == FL_TK_IDENT && fl_tok_pch(t, b + 1) == '!' &&
	    fl_tok_is_opener(t, b + 2) && m[b + 2] == e - 1) {
		size_t sb[MAX_ARGS], se[MAX_ARGS];
		size_t na = rs_args(t, m, b + 2, sb, se);
		if (na && (fl_tok_is(t, b, "format") || fl_tok_is(t, b, "format_args")))
			return rs_msg(t, m, sb[0], se[0], true, depth + 1);
		if (na && fl_tok_is(t, b, "concat")) {
			fl_buf out = {0};
			for (size_t k = 0; k < na; k++) {
				if (se[k] - sb[k] == 1 && t->v[sb[k]].kind == FL_TK_STRING)
					fl_buf_put(&out, fl_tok_str(t, &t->v[sb[k]]),
						   t->v[sb[k]].slen);
				else if (se[k] - sb[k] == 1 && t->v[sb[k]].kind != FL_TK_PUNCT)
					fl_buf_put(&out, t->src + t->v[sb[k]].off,
						   t->v[sb[k]].len);
			}
			fl_buf_cstr(&out);
			if (fmt)
				fl_msg_undouble(out.s, "{}");
			fl_msg_trim(out.s);
			if (!*out.s) {
				fl_buf_free(&out);
				return NULL;
			}
			return out.s;
		}
		return NULL;
	}
	/* String::from(x) / Box::from(x) */
	if (e - b >= 5 && (fl_tok_is(t, b, "String") || fl_tok_is(t, b, "Box")) &&
	    fl_tok_is_punct(t, b + 1, "::") && fl_tok_is(t, b + 2, "from") &&
	    fl_tok_pch(t, b + 3) == '(' && m[b + 3] == e - 1)
		return rs_msg(t, m, b + 4, e - 1, fmt, depth + 1);
	if (e - b == 1 && t->v[b].kind == FL_TK_STRING) {
		char *s = fl_xstrndup(fl_tok_str(t, &t->v[b]), t->v[b].slen);
		if (fmt)
			fl_msg_undouble(s, "{}");
		fl_msg_trim(s);
		if (!*s) {
			free(s);
			return NULL;
		}
		return s;
	}
	if (e - b > MSG_TOK_LIMIT)
		return NULL;
	fl_msg_opts o = {.concat_ops = rs_concat};
	char *s = fl_msg_from_expr(t, b, e, &o);
	if (s && !*s) {
		free(s);
		return NULL;
	}
	return s;
}

/* ---- rules ----------------------------------------------------------------------- */

enum { P_GUARD, P_FN, P_IMPL, P_IMPL_DISPLAY, P_ENUM, P_MATCH, P_TEST };

typedef struct {
	size_t brace;
	int kind;
	char *name;
	size_t gb, ge;
} rs_pend;

typedef struct {
	size_t open;
	const char *fn;
	size_t fn_tok;        /* the enclosing fn's name token, 0 none */
	char *own_fn, *type, *enm;
	bool test;
	bool has_guard;
	size_t gb, ge;
	bool guard_arm;       /* gb..ge is the enclosing match arm's pattern */
	bool neg;             /* an else's block: it runs when gb..ge (its if's
				 condition) does not hold */
	bool is_match;
	size_t sb, se;        /* a match's scrutinee (`match x {`: x), or a
				 block arm's (its match's); sb NONE: none */
	int arm;
	size_t arm_start, ab, ae, inner_close, arm_body;
	const char *display;  /* in `impl Display for T` of an error type:
				 T (owned by that impl's context) */
} rs_ctx;

#define MAX_PEND 64

typedef struct {
	const fl_toks *t;
	size_t *m;
	rs_ctx *cs;
	size_t csn, csc;
	rs_pend pend[MAX_PEND];
	size_t np;
	/* the if block closed last: its '{' and condition, for an else */
	size_t if_open, if_gb, if_ge;
	fl_sites *out;        /* NULL: collecting only */
	const fl_factories *tree; /* the tree's variant messages, or NULL */
	fl_factories *part;   /* this file's variant messages go here, or NULL */
	fl_buf *log;          /* the variants looked up (collect_scan), or NULL */
	fl_strv globs;        /* the enums whose variants the file imports
				 (`use crate::errors::RustupError::*;`) */
	size_t use_end;       /* the ';' of the last `use` read */
	fl_strv imp_name, imp_full; /* variants it imports one by one:
				 `use E::{NotFound, Io as IoError};` ->
				 NotFound -> E::NotFound, IoError -> E::Io */
	bool file_test;
	char *guard;          /* the next site's own guard (an assertion's
				 failing condition, a receiver's failure):
				 set by emit_guarded for that one site */
} rs_st;

static void pend_add(rs_st *st, size_t brace, int kind, char *name, size_t gb,
		     size_t ge)
{
	if (brace == NONE || st->np >= MAX_PEND) {
		free(name);
		return;
	}
	rs_pend *p = &st->pend[st->np++];
	p->brace = brace;
	p->kind = kind;
	p->name = name;
	p->gb = gb;
	p->ge = ge;
}

/* first '{' of the body after tokens starting at from, or NONE */
static size_t rs_find_body(const rs_st *st, size_t from)
{
	const fl_toks *t = st->t;
	size_t k = from;
	for (int steps = 0; k < t->n && steps < SCAN_LIMIT; steps++) {
		char c = fl_tok_pch(t, k);
		if (c == '{')
			return k;
		if (c == '(' || c == '[') {
			if (st->m[k] == NONE)
				return NONE;
			k = st->m[k] + 1;
			continue;
		}
		if (c == ';' || c == '}' || c == ')' || c == ']' ||
		    fl_tok_is_punct(t, k, "=>"))
			return NONE;
		k++;
	}
	return NONE;
}

static void note_error_factory(rs_st *st, size_t name, size_t body);
static inline bool ends_with_error(const fl_toks *t, size_t i);
static bool upper_ident(const fl_toks *t, size_t i);

static void ctx_push(rs_st *st, size_t k)
{
	if (st->csn == st->csc) {
		st->csc = st->csc ? st->csc * 2 : 64;
		st->cs = fl_xrealloc(st->cs, st->csc * sizeof *st->cs);
	}
	rs_ctx *par = &st->cs[st->csn - 1];
	rs_ctx c = {0};
	c.open = k;
	c.fn = par->fn;
	c.fn_tok = par->fn_tok;
	c.test = par->test;
	c.display = par->display;
	c.arm_start = c.ab = c.ae = c.inner_close = c.arm_body = NONE;
	c.sb = c.se = NONE;
	if (par->is_match && par->arm == 1 && par->arm_body == k) {
		c.has_guard = true;
		c.gb = par->ab;
		c.ge = par->ae;
		c.guard_arm = true;
		c.sb = par->sb;
		c.se = par->se;
	}
	size_t w = 0;
	for (size_t i = 0; i < st->np; i++) {
		rs_pend *p = &st->pend[i];
		if (p->brace > k) {
			st->pend[w++] = *p;
			continue;
		}
		if (p->brace == k) {
			switch (p->kind) {
			case P_GUARD:
				c.has_guard = true;
				c.gb = p->gb;
				c.ge = p->ge;
				c.guard_arm = false;
				break;
			case P_FN:
				free(c.own_fn);
				if (par->type)
					c.own_fn = fl_xjoin(par->type, "::", p->name);
				else
					c.own_fn = fl_xstrdup(p->name);
				c.fn = c.own_fn;
				c.fn_tok = p->gb;
				if (st->part && !par->type)
					note_error_factory(st, p->gb, k);
				break;
			case P_IMPL:
			case P_IMPL_DISPLAY:
				free(c.type);
				c.type = p->name;
				p->name = NULL;
				c.fn = NULL;
				c.fn_tok = 0;
				c.display = p->kind == P_IMPL_DISPLAY ? c.type : NULL;
				break;
			case P_ENUM:
				free(c.enm);
				c.enm = p->name;
				p->name = NULL;
				break;
			case P_MATCH:
				c.is_match = true;
				c.sb = p->gb;
				c.se = p->ge;
				break;
			case P_TEST:
				c.test = true;
				break;
			}
		}
		free(p->name);
	}
	st->np = w;
	/* `} else {`: the block runs when the if's condition (the last of an
	 * else-if chain) does not hold */
	const fl_toks *t = st->t;
	if (!c.has_guard && k >= 2 && fl_tok_is_ident(t, k - 1, "else") &&
	    fl_tok_pch(t, k - 2) == '}' && st->m[k - 2] != NONE &&
	    st->m[k - 2] == st->if_open) {
		c.has_guard = true;
		c.neg = true;
		c.gb = st->if_gb;
		c.ge = st->if_ge;
	} else if (!c.has_guard && k >= 4 && fl_tok_is_ident(t, k - 1, "else") &&
		   fl_tok_pch(t, k - 2) != '}') {
		/* let-else, `let P = x else {`: the block runs when x does not
		 * match P (the guard is `let P = x`, stated by emit) */
		size_t j = k - 2;
		for (int steps = 0; j > 0 && steps < SCAN_LIMIT; steps++) {
			char ch = fl_tok_pch(t, j);
			if ((ch == ')' || ch == ']' || ch == '}') && st->m[j] != NONE && st->m[j] < j) {
				j = st->m[j] - 1;
				continue;
			}
			if (ch == ';' || ch == '{' || ch == '(' || ch == '[' || ch == ')' ||
			    ch == ']' || ch == '}' || fl_tok_is_ident(t, j, "let"))
				break;
			j--;
		}
		if (fl_tok_is_ident(t, j, "let") && j + 2 < k - 1) {
			c.has_guard = true;
			c.neg = true;
			c.gb = j;
			c.ge = k - 1;
		}
	}
	st->cs[st->csn++] = c;
}

static void ctx_free(rs_ctx *c)
{
	free(c->own_fn);
	free(c->type);
	free(c->enm);
}

static void ctx_pop(rs_st *st, size_t k)
{
	size_t o = st->m[k];
	if (o == NONE)
		return;
	st->if_open = NONE;
	while (st->csn > 1 && st->cs[st->csn - 1].open >= o) {
		rs_ctx *c = &st->cs[--st->csn];
		size_t open = c->open;
		if (open == o && c->has_guard && !c->guard_arm && !c->neg &&
		    c->gb > 0 && fl_tok_is_ident(st->t, c->gb - 1, "if")) {
			st->if_open = o;
			st->if_gb = c->gb;
			st->if_ge = c->ge;
		}
		ctx_free(c);
		rs_ctx *par = &st->cs[st->csn - 1];
		if (par->is_match && par->arm == 1 && par->arm_body == open) {
			par->arm = 0;
			par->arm_start = NONE;
		}
	}
}

/* true when the message has a letter outside `{...}`
 * placeholders: "{}: {}" or "{err}" alone is not an error message */
static bool rs_has_text(const char *m)
{
	int letters = 0;
	for (const char *p = m; *p; p++) {
		if (*p == '{') {
			const char *q = strchr(p, '}');
			if (q) {
				p = q;
				continue;
			}
		}
		unsigned char ch = (unsigned char)*p;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch >= 0x80)
			letters++;
	}
	return letters >= 1;
}

/* The failing condition of a pattern test `let PAT = EXPR`, tokens
 * [b, e) after the `let`: "!matches!(EXPR, PAT)"; NULL when it is not one
 * plain test (a chain with && or ||, a typed pattern). */
static char *rs_let_not(const rs_st *st, size_t b, size_t e)
{
	const fl_toks *t = st->t;
	size_t eq = NONE;
	for (size_t k = b; k < e; k++) {
		char c = fl_tok_pch(t, k);
		if ((c == '(' || c == '[' || c == '{') && st->m[k] != NONE && st->m[k] < e) {
			k = st->m[k];
			continue;
		}
		if (fl_tok_is_punct(t, k, "&&") || fl_tok_is_punct(t, k, "||") ||
		    fl_tok_is_ident(t, k, "let") || fl_tok_is_punct(t, k, ":"))
			return NULL;
		if (fl_tok_is_punct(t, k, "=")) {
			if (eq != NONE)
				return NULL;
			eq = k;
		}
	}
	if (eq == NONE || eq == b || eq + 1 >= e)
		return NULL;
	char *pat = fl_tok_span_text(t, b, eq, 200);
	char *x = fl_tok_span_text(t, eq + 1, e, 200);
	/* `let Some(v) = x else`: x is None; `let Ok(v) = x else`: x failed */
	bool some = eq >= b + 3 && fl_tok_is_ident(t, b, "Some") && fl_tok_pch(t, b + 1) == '(' &&
		    st->m[b + 1] == eq - 1;
	bool ok = eq >= b + 3 && fl_tok_is_ident(t, b, "Ok") && fl_tok_pch(t, b + 1) == '(' &&
		  st->m[b + 1] == eq - 1;
	char *g = some || ok ? fl_xasprintf("%s.%s()", x, some ? "is_none" : "is_err")
			     : fl_xasprintf("!matches!(%s, %s)", x, pat);
	free(pat);
	free(x);
	return g;
}

/* Context x is an if's block (an `if let`'s too: its binding holds; not
 * a while's or a match arm's) or its else's. */
static bool plain_if(const rs_st *st, const rs_ctx *x)
{
	return x->has_guard && !x->guard_arm && x->gb >= 1 && x->gb < x->ge &&
	       fl_tok_is_ident(st->t, x->gb - 1, "if");
}

/* The guard of a match arm whose pattern is [gb, ge) in context c: for
 * `None` and `Err(..)` (a binding or `_` inside), the scrutinee's failure,
 * `x.is_none()` / `x.is_err()`, which says what failed; else the pattern. */
static char *arm_guard(const rs_st *st, const rs_ctx *c, size_t gb, size_t ge, bool *stated)
{
	const fl_toks *t = st->t;
	if (gb == NONE || gb >= ge)
		return NULL;
	/* `P if cond =>`: the arm's own condition says more than its pattern */
	for (size_t k = gb + 1; k + 1 < ge; k++) {
		char ch = fl_tok_pch(t, k);
		if ((ch == '(' || ch == '[' || ch == '{') && st->m[k] != NONE && st->m[k] < ge) {
			k = st->m[k];
			continue;
		}
		if (fl_tok_is_ident(t, k, "if")) {
			*stated = true;
			return fl_tok_span_text(t, k + 1, ge, 200);
		}
	}
	/* an expression arm's match is c; a block arm keeps its match's
	 * scrutinee (ctx_push) */
	size_t sb = c->sb, se = c->se;
	if (sb != NONE && se > sb && se - sb <= 40) {
		bool none = ge == gb + 1 && fl_tok_is_ident(t, gb, "None");
		bool err = ge >= gb + 3 && ge <= gb + 5 && fl_tok_is_ident(t, gb, "Err") &&
			   fl_tok_pch(t, gb + 1) == '(' && st->m[gb + 1] == ge - 1;
		if (none || err) {
			char *x = fl_tok_span_text(t, sb, se, 200);
			char *g = fl_xasprintf("%s.%s()", x, none ? "is_none" : "is_err");
			free(x);
			*stated = true;
			return g;
		}
	}
	return fl_tok_span_text(t, gb, ge, 200);
}

static void emit(rs_st *st, size_t at, const char *msg, const char *code,
		 const char *cls, const char *type, const char *sev,
		 const char *idiom, size_t gb, size_t ge)
{
	if (msg && *msg && !rs_has_text(msg))
		msg = NULL;
	if (((!msg || !*msg) && !code) || !st->out)
		return;
	const fl_toks *t = st->t;
	rs_ctx *c = &st->cs[st->csn - 1];
	bool arm = false, neg = false, block = false;
	if (gb == NONE) {
		if (c->is_match && c->arm == 1) {
			gb = c->ab;
			ge = c->ae;
			arm = !st->guard;
		} else if (c->has_guard) {
			gb = c->gb;
			ge = c->ge;
			arm = c->guard_arm && !st->guard;
			neg = c->neg;
			block = !st->guard;
		}
	}
	bool stated = false; /* the arm's pattern as its scrutinee's test */
	char *guard = st->guard			     ? fl_xstrdup(st->guard)
		      : arm ? arm_guard(st, c, gb, ge, &stated)
		      : (gb != NONE && gb < ge) ? fl_tok_span_text(t, gb, ge, 200)
						 : NULL;
	if (stated)
		arm = false;
	if (guard && neg && !st->guard) {
		/* `if let P = x { } else {`: x does not match P */
		char *g = fl_tok_is_ident(t, gb, "let") ? rs_let_not(st, gb + 1, ge)
							 : fl_guard_not(guard, false);
		free(guard);
		guard = g;
	}
	/* an if (or else) right inside another if's block: both hold */
	const rs_ctx *o = st->csn >= 2 ? &st->cs[st->csn - 2] : NULL;
	if (guard && block && plain_if(st, c) && o && plain_if(st, o))
		guard = fl_guard_nest(fl_guard_span(t, o->gb, o->ge, o->neg, false), guard, false);
	fl_site s = {
		.line = t->v[at].line,
		.col = t->v[at].col,
		.message = msg,
		.code = code,
		.cls = cls,
		.type = type,
		.severity = sev,
		.function = c->fn,
		.guard = guard,
		.arm = arm,
		.idiom = idiom,
	};
	fl_site_add(st->out, &s);
	free(guard);
}

/* emit() with the site's own guard g (owned; NULL: its context's, as
 * emit finds it): st->guard holds g for that one site */
static void emit_guarded(rs_st *st, size_t at, const char *msg, const char *cls, const char *type,
			 const char *sev, const char *idiom, char *g)
{
	st->guard = g;
	emit(st, at, msg, NULL, cls, type, sev, idiom, NONE, NONE);
	st->guard = NULL;
	free(g);
}

static bool in_list(const fl_toks *t, size_t i, const char *const *l)
{
	for (; *l; l++)
		if (fl_tok_is(t, i, *l))
			return true;
	return false;
}

static const char *const panic_macros[] = {"panic", "unreachable", "todo",
					   "unimplemented", NULL};
static const char *const assert1[] = {"assert", "debug_assert", NULL};
static const char *const assert2[] = {"assert_eq", "assert_ne", "debug_assert_eq",
				      "debug_assert_ne", NULL};
static const char *const exc0[] = {"bail", "anyhow", "format_err", "eyre", NULL};
static const char *const kw_stop[] = {
	"let", "return", "if", "else", "match", "while", "for", "in", "mut",
	"move", "ref", "as", "break", "loop", "unsafe", "async", "const",
	"static", "fn", "pub", "where", "impl", "dyn", "box", "yield", NULL};

static void display_writes(rs_st *st, size_t s, const char *idiom);
static char *rs_var_msg(const rs_st *st, size_t b, size_t e);
static char *closure_recv_guard(const rs_st *st, size_t i);
static bool rs_lit_expr(const fl_toks *t, const size_t *m, size_t b, size_t e);

/* A project's reporter: `fn print_error(msg: impl Into<String>) {
 * eprintln!("[fd error]: {}", msg.into()); }`, a function whose whole
 * body prints its parameter in a text of its own (the eprintln! at i, its
 * message msg, the printed argument [ab, ae)): kept in the tree as
 * "rep:NAME" with that text, so that each call giving a message is a site
 * (rule_reporter_call). */
static void note_reporter(rs_st *st, size_t i, const char *msg, size_t ab, size_t ae)
{
	const fl_toks *t = st->t;
	const rs_ctx *c = &st->cs[st->csn - 1];
	if (!c->own_fn || c->open == NONE || i != c->open + 1 || !c->fn_tok || !msg)
		return;
	size_t close = st->m[c->open], end = st->m[i + 2];
	if (close == NONE || end == NONE ||
	    !(end + 1 == close || (end + 2 == close && fl_tok_pch(t, end + 1) == ';')))
		return;
	/* the argument: a parameter, as it is or converted */
	if (t->v[ab].kind != FL_TK_IDENT ||
	    !(ae == ab + 1 || (ae == ab + 5 && fl_tok_pch(t, ab + 1) == '.' && fl_tok_pch(t, ab + 3) == '(' &&
					   fl_tok_pch(t, ab + 4) == ')')))
		return;
	bool param = false;
	for (size_t k = c->fn_tok + 1; k < c->open && !param; k++)
		param = t->v[k].kind == FL_TK_IDENT && t->v[k].len == t->v[ab].len &&
			memcmp(t->src + t->v[k].off, t->src + t->v[ab].off, t->v[ab].len) == 0;
	const char *ph = strstr(msg, "{}");
	if (!param || !ph || strstr(ph + 2, "{") || memchr(msg, '{', (size_t)(ph - msg)))
		return;
	char name[128];
	int n = snprintf(name, sizeof name, "rep:%.*s", (int)t->v[c->fn_tok].len, t->src + t->v[c->fn_tok].off);
	if (n <= 0 || (size_t)n >= sizeof name)
		return;
	fl_factory f = {.name = fl_xstrdup(name), .msg = fl_xstrdup(msg)};
	fl_factories_add(st->part, &f);
}

/* A free function that makes an error of its one parameter: `pub fn
 * internal<S: fmt::Display>(error: S) -> anyhow::Error { .. error .. }`
 * (name at token name, its body's '{' at body): kept in the tree as
 * "rep:NAME" with the message "{}" and the error type as class, so that
 * each call giving a message is an exception site (rule_reporter_call). */
static void note_error_factory(rs_st *st, size_t name, size_t body)
{
	const fl_toks *t = st->t;
	size_t k = name + 1;
	if (fl_tok_pch(t, k) == '<') { /* generics */
		int d = 0;
		for (; k < body; k++) {
			if (fl_tok_pch(t, k) == '<')
				d++;
			else if (fl_tok_pch(t, k) == '>' && --d == 0)
				break;
		}
		k++;
	}
	if (k >= body || fl_tok_pch(t, k) != '(' || st->m[k] == NONE || st->m[k] >= body)
		return;
	size_t open = k, close = st->m[k];
	if (close == open + 1 || t->v[open + 1].kind != FL_TK_IDENT || fl_tok_is(t, open + 1, "self") ||
	    fl_tok_is(t, open + 1, "mut"))
		return;
	for (size_t j = open + 1; j < close; j++) { /* one parameter */
		char ch = fl_tok_pch(t, j);
		if ((ch == '(' || ch == '[') && st->m[j] != NONE && st->m[j] < close)
			j = st->m[j];
		else if (ch == ',' && j + 1 < close)
			return;
	}
	/* -> an error type: its last name ends in Error, no Result, no Box */
	if (!fl_tok_is_punct(t, close + 1, "->"))
		return;
	size_t te = close + 2;
	while (te < body && !fl_tok_is_ident(t, te, "where"))
		te++;
	if (te <= close + 2 || t->v[te - 1].kind != FL_TK_IDENT || !ends_with_error(t, te - 1))
		return;
	for (size_t j = close + 2; j < te; j++) /* a plain type: no closure */
		if (fl_tok_pch(t, j) == '<' || fl_tok_pch(t, j) == '(' || fl_tok_is_ident(t, j, "impl") ||
		    fl_tok_is_ident(t, j, "dyn"))
			return;
	/* the body uses the parameter */
	size_t pn = open + 1, end = st->m[body];
	bool used = false;
	for (size_t j = body + 1; end != NONE && j < end && !used; j++)
		used = t->v[j].kind == FL_TK_IDENT && t->v[j].len == t->v[pn].len &&
		       memcmp(t->src + t->v[j].off, t->src + t->v[pn].off, t->v[pn].len) == 0;
	if (!used)
		return;
	char key[128];
	int n = snprintf(key, sizeof key, "rep:%.*s", (int)t->v[name].len, t->src + t->v[name].off);
	if (n <= 0 || (size_t)n >= sizeof key)
		return;
	fl_factory f = {.name = fl_xstrdup(key), .msg = fl_xstrdup("{}"),
			.cls = fl_tok_span_text(t, close + 2, te, 120)};
	fl_factories_add(st->part, &f);
}

/* A call NAME(message) at the identifier i of a project reporter the tree
 * knows (note_reporter): a site with the reporter's text around the
 * message.  Scanning as if the tree were empty, the name is logged. */
static bool rule_reporter_call(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if ((!st->tree && !st->log) || fl_tok_pch(t, i + 1) != '(' || st->m[i + 1] == NONE ||
	    (i > 0 && (fl_tok_pch(t, i - 1) == '.' || fl_tok_is_ident(t, i - 1, "fn"))))
		return false;
	/* a free function, maybe by its module's path; not a type's */
	if (i >= 2 && fl_tok_is_punct(t, i - 1, "::") && upper_ident(t, i - 2))
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (rs_args(t, st->m, i + 1, sb, se) != 1 || !rs_lit_expr(t, st->m, sb[0], se[0]))
		return false;
	char name[128];
	int n = snprintf(name, sizeof name, "rep:%.*s", (int)t->v[i].len, t->src + t->v[i].off);
	if (n <= 0 || (size_t)n >= sizeof name)
		return false;
	if (st->log) {
		uint32_t len = (uint32_t)n;
		fl_buf_put(st->log, (const char *)&len, sizeof len);
		fl_buf_put(st->log, name, (size_t)n);
		return false;
	}
	const fl_factory *f = fl_factories_find(st->tree, name, (size_t)n, 0);
	if (!f || !f->msg)
		return false;
	char *msg = rs_msg(t, st->m, sb[0], se[0], false, 0);
	if (!msg)
		return false;
	const char *ph = strstr(f->msg, "{}");
	char *text = fl_xasprintf("%.*s%s%s", (int)(ph - f->msg), f->msg, msg, ph + 2);
	char idiom[140];
	snprintf(idiom, sizeof idiom, "%s()", name + 4);
	if (f->cls) /* an error factory's: the error it makes, raised by its caller */
		emit(st, i, text, NULL, f->cls, FL_T_EXCEPTION, FL_S_ERROR, idiom, NONE, NONE);
	else
		emit(st, i, text, NULL, NULL, FL_T_CONSOLE, fl_print_severity(text), idiom, NONE, NONE);
	free(text);
	free(msg);
	return true;
}

static void rule_macro(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t open = i + 2;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	int which = -1;
	size_t ai = 0;
	if (in_list(t, i, panic_macros))
		which = 0;
	else if (in_list(t, i, assert1))
		which = 0, ai = 1;
	else if (in_list(t, i, assert2))
		which = 0, ai = 2;
	else if (in_list(t, i, exc0))
		which = 1;
	else if (fl_tok_is(t, i, "ensure"))
		which = 1, ai = 1;
	else if (fl_tok_is(t, i, "eprintln") || fl_tok_is(t, i, "eprint"))
		which = 2; /* what the program prints on its standard error */
	else if (fl_tok_is(t, i, "error") || fl_tok_is(t, i, "warn"))
		which = 3; /* the log and tracing crates' error!/warn! */
	if (which < 0 && st->cs[st->csn - 1].display &&
	    (fl_tok_is(t, i, "write") || fl_tok_is(t, i, "writeln"))) {
		display_writes(st, i, "impl Display write!");
		return;
	}
	if (which < 0)
		return;
	size_t na = rs_args(t, st->m, open, sb, se);
	if (which == 3) {
		/* the format string: the first literal argument, after a
		 * `target: "..."` or tracing's fields (`path = %p,`) */
		ai = NONE;
		for (size_t k = 0; k < na && ai == NONE; k++)
			if (se[k] - sb[k] == 1 && t->v[sb[k]].kind == FL_TK_STRING)
				ai = k;
		if (ai == NONE)
			return;
	}
	if (na <= ai)
		return;
	/* the format string must be a literal (or format!/concat! of one:
	 * bail!(format!("...")) formats once, in the inner macro) */
	size_t b = sb[ai], e = se[ai];
	bool inner = e - b >= 4 && t->v[b].kind == FL_TK_IDENT && fl_tok_pch(t, b + 1) == '!' &&
		     fl_tok_is(t, b, "format") && fl_tok_is_opener(t, b + 2) &&
		     st->m[b + 2] == e - 1 && t->v[b + 3].kind == FL_TK_STRING;
	char *msg = NULL;
	if (which >= 2 && !(e - b == 1 && t->v[b].kind == FL_TK_STRING))
		return; /* eprintln!'s and error!'s format is a literal */
	if (!(e - b == 1 && t->v[b].kind == FL_TK_STRING) && !inner &&
	    !(fl_tok_is(t, b, "concat") && fl_tok_pch(t, b + 1) == '!')) {
		/* bail!(msg) after let msg = format!("..."): one argument */
		if (na != ai + 1 || !(msg = rs_var_msg(st, b, e)))
			return;
	} else {
		msg = rs_msg(t, st->m, b, e, !inner, 0);
	}
	char idiom[40];
	size_t l = t->v[i].len < 30 ? t->v[i].len : 30;
	memcpy(idiom, t->src + t->v[i].off, l);
	idiom[l] = '!';
	idiom[l + 1] = '\0';
	/* an assertion fires when its condition is false (assert!, ensure!)
	 * or its two values compare unequal (assert_eq!) or equal
	 * (assert_ne!) */
	char *g = NULL;
	if (which != 3 && ai == 1) {
		char *cond = fl_tok_span_text(t, sb[0], se[0], 200);
		g = fl_guard_not(cond, false);
		free(cond);
	} else if (which != 3 && ai == 2) {
		char *a = fl_tok_span_text(t, sb[0], se[0], 100);
		char *b2 = fl_tok_span_text(t, sb[1], se[1], 100);
		bool ne = t->v[i].len >= 2 &&
			  memcmp(t->src + t->v[i].off + t->v[i].len - 2, "ne", 2) == 0;
		g = fl_xasprintf("%s %s %s", a, ne ? "==" : "!=", b2);
		free(a);
		free(b2);
	}
	if (which == 2 && st->part && na == 2)
		note_reporter(st, i, msg, sb[1], se[1]);
	if (which == 0) {
		emit_guarded(st, i, msg, NULL, FL_T_PANIC, FL_S_CRITICAL, idiom, g);
	} else if (which == 2) {
		/* a warning when the text says so; a format of placeholders
		 * alone (eprintln!("{}", e)) has no text: emit drops it */
		emit_guarded(st, i, msg, NULL, FL_T_CONSOLE, fl_print_severity(msg), idiom, g);
	} else if (which == 3) {
		emit_guarded(st, i, msg, NULL, FL_T_CONSOLE,
			     t->src[t->v[i].off] == 'e' ? FL_S_ERROR : FL_S_WARNING, idiom, g);
	} else {
		emit_guarded(st, i, msg, NULL, FL_T_EXCEPTION, FL_S_ERROR, idiom,
			     g ? g : closure_recv_guard(st, i));
	}
	free(msg);
}

/* [b, e) is a message literal: "..." (optionally .into()/.to_string()...)
 * or format!("...", ...) spanning it whole */
static bool rs_lit_expr(const fl_toks *t, const size_t *m, size_t b, size_t e)
{
	if (b >= e)
		return false;
	if (t->v[b].kind == FL_TK_STRING)
		return e - b == 1 ||
		       (e - b == 5 && fl_tok_pch(t, b + 1) == '.' && fl_tok_pch(t, b + 3) == '(' &&
			fl_tok_pch(t, b + 4) == ')' &&
			(fl_tok_is(t, b + 2, "into") || fl_tok_is(t, b + 2, "to_string") ||
			 fl_tok_is(t, b + 2, "to_owned")));
	return e - b >= 4 && fl_tok_is(t, b, "format") && fl_tok_pch(t, b + 1) == '!' &&
	       fl_tok_is_opener(t, b + 2) && m[b + 2] == e - 1 && t->v[b + 3].kind == FL_TK_STRING;
}

static size_t rs_receiver(const rs_st *st, size_t end);

/* The body of the closure [*b, *e) (`|| x`, `move |e| { x }`): narrowed
 * to x; false when it is no closure. */
static bool closure_body(const rs_st *st, size_t *b, size_t *e)
{
	const fl_toks *t = st->t;
	size_t k = *b;
	if (fl_tok_is_ident(t, k, "move"))
		k++;
	if (fl_tok_is_punct(t, k, "||"))
		k++;
	else if (fl_tok_is_punct(t, k, "|") && k + 2 < *e && fl_tok_is_punct(t, k + 2, "|"))
		k += 3;
	else
		return false;
	*b = k;
	if (k + 2 <= *e && fl_tok_pch(t, k) == '{' && st->m[k] == *e - 1) {
		*b = k + 1;
		(*e)--;
	}
	return true;
}

/* The idiom of the method call at the '.' i: ".context", ".ok_or" */
static void method_idiom(const fl_toks *t, size_t i, char out[24])
{
	size_t l = t->v[i + 1].len < 20 ? t->v[i + 1].len : 20;
	out[0] = '.';
	memcpy(out + 1, t->src + t->v[i + 1].off, l);
	out[l + 1] = '\0';
}

/* Option methods of the standard library: a receiver ending in one of
 * these calls holds an Option, whose failure is None */
static const char *const option_calls[] = {
	"get", "get_mut", "first", "last", "next", "next_back", "pop", "find",
	"find_map", "position", "rposition", "parent", "file_name", "file_stem",
	"extension", "to_str", "strip_prefix", "strip_suffix", "split_once",
	"rsplit_once", "checked_add", "checked_sub", "checked_mul", "checked_div",
	"peek", "nth", "max", "min", "max_by_key", "min_by_key", "get_key_value",
	"home_dir", "var_os", "and_then", NULL};

/* the guard of an error made from the receiver [rb, dot) of .context(),
 * .ok_or_else(|| ...) or .map_err(|e| ...): the receiver failed, as
 * `x.is_none()` for an Option (ok_or, or a receiver ending in one of
 * option_calls) and `x.is_err()` for a Result; NULL when it has none */
static char *recv_guard(const rs_st *st, size_t rb, size_t dot, bool option)
{
	const fl_toks *t = st->t;
	if (rb == NONE || rb >= dot)
		return NULL;
	/* a call's result; not a value already an error (`err.context(..)`,
	 * `Err(e).with_context(..)`): the context is added unconditionally */
	if (fl_tok_pch(t, dot - 1) != ')' || (fl_tok_is_ident(t, rb, "Err") && st->m[rb + 1] == dot - 1) ||
	    (rb > 0 && fl_tok_pch(t, rb - 1) == '!') || (rb + 1 < dot && fl_tok_pch(t, rb + 1) == '!'))
		return NULL;
	if (!option && dot >= rb + 3 && fl_tok_pch(t, dot - 1) == ')' && st->m[dot - 1] != NONE &&
	    st->m[dot - 1] >= rb + 2 && fl_tok_pch(t, st->m[dot - 1] - 2) == '.') {
		size_t name = st->m[dot - 1] - 1;
		for (const char *const *l = option_calls; *l && !option; l++)
			option = fl_tok_is_ident(t, name, *l);
	}
	char *r = fl_tok_span_text(t, rb, dot, 200);
	/* a chain broken over lines (`builder\n    .add(p)`) reads as one */
	char *w = r;
	for (const char *p = r; *p; p++)
		if (!(p[0] == ' ' && p[1] == '.' && (p[2] == '_' || (p[2] >= 'a' && p[2] <= 'z'))))
			*w++ = *p;
	*w = '\0';
	char *g = fl_xasprintf("%s.%s()", r, option ? "is_none" : "is_err");
	free(r);
	return g;
}

/* anyhow!/format_err!/eyre! at i (the macro's name) as the error of a
 * failed Option or Result: x.ok_or_else(|| anyhow!(...)),
 * x.ok_or(anyhow!(...)), x.map_err(|e| anyhow!(...)), a block around
 * the macro allowed; the receiver's guard (recv_guard), or NULL */
static char *closure_recv_guard(const rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t k = i;
	while (k >= 2 && fl_tok_is_punct(t, k - 1, "::") && t->v[k - 2].kind == FL_TK_IDENT)
		k -= 2;
	if (k >= 1 && fl_tok_pch(t, k - 1) == '{')
		k--;
	bool closure = false;
	if (k >= 1 && fl_tok_is_punct(t, k - 1, "||")) {
		k--;
		closure = true;
	} else if (k >= 3 && fl_tok_is_punct(t, k - 1, "|") && fl_tok_is_punct(t, k - 3, "|")) {
		k -= 3;
		closure = true;
	}
	if (closure && k >= 1 && fl_tok_is_ident(t, k - 1, "move"))
		k--;
	if (k < 3 || fl_tok_pch(t, k - 1) != '(' || fl_tok_pch(t, k - 3) != '.')
		return NULL;
	size_t name = k - 2;
	bool option = fl_tok_is_ident(t, name, closure ? "ok_or_else" : "ok_or");
	if (!option && !(closure && fl_tok_is_ident(t, name, "map_err")))
		return NULL;
	return recv_guard(st, rs_receiver(st, k - 3), k - 3, option);
}

/* anyhow/eyre context: x.context("..."), x.with_context(|| format!("...")),
 * x.wrap_err(...); and warnings printed through a shell/logger object:
 * x.warn("..."), at the '.' i */
static void rule_context(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (rs_args(t, st->m, i + 2, sb, se) != 1)
		return;
	size_t b = sb[0], e = se[0];
	bool closure = fl_tok_is_ident(t, i + 1, "with_context") ||
		       fl_tok_is_ident(t, i + 1, "wrap_err_with");
	if (closure && !closure_body(st, &b, &e))
		return;
	char *msg = rs_lit_expr(t, st->m, b, e) ? rs_msg(t, st->m, b, e, false, 0)
		    : closure			  ? NULL
						  : rs_var_msg(st, b, e);
	if (!msg)
		return;
	char idiom[24];
	method_idiom(t, i, idiom);
	if (fl_tok_is_ident(t, i + 1, "warn")) {
		emit(st, i + 1, msg, NULL, NULL, FL_T_CONSOLE, FL_S_WARNING, idiom, NONE, NONE);
	} else {
		/* the context is added when the receiver fails */
		emit_guarded(st, i + 1, msg, NULL, FL_T_EXCEPTION, FL_S_ERROR, idiom,
			     recv_guard(st, rs_receiver(st, i), i, false));
	}
	free(msg);
}

/* receiver expression ending before token end (exclusive); returns start */
static size_t rs_receiver(const rs_st *st, size_t end)
{
	const fl_toks *t = st->t;
	size_t b = end;
	for (int steps = 0; b > 0 && steps < 64; steps++) {
		size_t k = b - 1;
		const fl_tok *tk = &t->v[k];
		char c = fl_tok_pch(t, k);
		if (c == ')' || c == ']') {
			if (st->m[k] == NONE)
				break;
			b = st->m[k];
			continue;
		}
		if (tk->kind == FL_TK_IDENT) {
			if (in_list(t, k, kw_stop))
				break;
			b = k;
			continue;
		}
		if (tk->kind == FL_TK_STRING || tk->kind == FL_TK_NUMBER ||
		    tk->kind == FL_TK_CHAR || c == '.' || c == '?' ||
		    fl_tok_is_punct(t, k, "::")) {
			b = k;
			continue;
		}
		if (c == '>' && k >= 2) {
			/* turbofish ::<T> */
			size_t j = k;
			int d = 0, lim = 0;
			while (j > 0 && lim++ < 16) {
				if (fl_tok_pch(t, j) == '>')
					d++;
				else if (fl_tok_pch(t, j) == '<' && --d == 0)
					break;
				j--;
			}
			if (fl_tok_pch(t, j) == '<' && d == 0 && j > 0 &&
			    fl_tok_is_punct(t, j - 1, "::")) {
				b = j - 1;
				continue;
			}
		}
		break;
	}
	while (b < end && (fl_tok_pch(t, b) == '.' || fl_tok_is_punct(t, b, "::")))
		b++;
	return b;
}

static inline bool ends_with_error(const fl_toks *t, size_t i)
{
	const fl_tok *k = &t->v[i];
	return k->kind == FL_TK_IDENT && k->len >= 5 &&
	       memcmp(t->src + k->off + k->len - 5, "Error", 5) == 0;
}

/* ... XError::new(...) / io::Error::other(...) at the Error ident i */
static void rule_error_new(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t start = i;
	for (int s = 0; s < 8 && start >= 2 && fl_tok_is_punct(t, start - 1, "::") &&
			t->v[start - 2].kind == FL_TK_IDENT;
	     s++)
		start -= 2;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, i + 3, sb, se);
	if (!na)
		return;
	char *msg = NULL;
	bool other = fl_tok_is(t, i + 2, "other");
	size_t a = !other && na >= 2 ? 1 : na == 1 ? 0 : NONE;
	/* X::new(format!(..), definition): the message first, the other
	 * argument a value (io::Error::new(kind, msg) has it second) */
	if (a == 1 && !rs_lit_expr(t, st->m, sb[1], se[1]) && rs_lit_expr(t, st->m, sb[0], se[0]))
		a = 0;
	if (a != NONE) {
		msg = rs_msg(t, st->m, sb[a], se[a], false, 0);
		if (!msg) /* io::Error::new(kind, msg) after let msg = "..." */
			msg = rs_var_msg(st, sb[a], se[a]);
	}
	if (msg) {
		char *cls = fl_tok_span_text(t, start, i + 1, 200);
		char *idiom = fl_xasprintf("%s::%.*s", cls, (int)t->v[i + 2].len,
					   t->src + t->v[i + 2].off);
		/* x.ok_or_else(|| io::Error::new(...)): raised when x fails */
		emit_guarded(st, start, msg, cls, FL_T_EXCEPTION, FL_S_ERROR, idiom, closure_recv_guard(st, start));
		free(cls);
		free(idiom);
	}
	free(msg);
}

/* #[error("...")] at '#' i */
/* `#[name = value]` at '#' i: the value's token, or NONE */
static size_t attr_value(const rs_st *st, size_t i, const char *name)
{
	const fl_toks *t = st->t;
	if (fl_tok_pch(t, i) != '#' || fl_tok_pch(t, i + 1) != '[' || st->m[i + 1] != i + 5 ||
	    !fl_tok_is_ident(t, i + 2, name) || fl_tok_pch(t, i + 3) != '=')
		return NONE;
	return i + 4;
}

/* the status of `#[status = NAME]` at '#' i (0: an unknown name), or -1
 * when it is another attribute */
static int attr_status(const rs_st *st, size_t i)
{
	size_t v = attr_value(st, i, "status");
	if (v == NONE || st->t->v[v].kind != FL_TK_IDENT)
		return -1;
	return fl_http_status_by_name(st->t->src + st->t->v[v].off, st->t->v[v].len);
}

/* axum's rejections: `#[status = UNPROCESSABLE_ENTITY] #[body = "..."]`
 * on a `struct Name` in a define_rejection! (the response's status and
 * body), at the body attribute '#' i */
static void rule_status_body(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t body = attr_value(st, i, "body");
	if (body == NONE || t->v[body].kind != FL_TK_STRING)
		return;
	/* the attributes around it: a status, then the struct they are on */
	int status = 0;
	size_t a = i;
	for (int s = 0; s < 8 && a >= 2 && fl_tok_pch(t, a - 1) == ']'; s++) {
		size_t open = st->m[a - 1];
		if (open == NONE || open == 0 || fl_tok_pch(t, open - 1) != '#')
			break;
		a = open - 1;
		int v = attr_status(st, a);
		if (v >= 0)
			status = v;
	}
	size_t k = st->m[i + 1] + 1;
	for (int s = 0; s < 8 && fl_tok_pch(t, k) == '#' && fl_tok_pch(t, k + 1) == '[' &&
			st->m[k + 1] != NONE;
	     s++) {
		int v = attr_status(st, k);
		if (v >= 0)
			status = v;
		k = st->m[k + 1] + 1;
	}
	if (status < 400 || status > 599)
		return;
	if (fl_tok_is_ident(t, k, "pub"))
		k += fl_tok_pch(t, k + 1) == '(' && st->m[k + 1] != NONE ? st->m[k + 1] - k + 1 : 1;
	if (!fl_tok_is_ident(t, k, "struct") || t->v[k + 1].kind != FL_TK_IDENT)
		return;
	char *msg = fl_xstrdup(fl_tok_str(t, &t->v[body]));
	char *cls = fl_tok_dup(t, k + 1);
	fl_site site = {.line = t->v[body].line, .col = t->v[body].col, .message = msg,
			.cls = cls, .type = FL_T_HTTP, .severity = fl_http_severity(status),
			.http = status, .function = cls, .idiom = "class attribute #[body]"};
	if (st->out)
		fl_site_add(st->out, &site);
	free(cls);
	free(msg);
}

/* The message of variant cls ("Enum::Variant", or a longer path whose
 * last two names are kept) into the file's part of the tree. */
/* A type named as an error's (ConfigError, ExpandErrorKind, IoErr,
 * RequestFailure): the enums whose variants are linked to where they are
 * built.  Not SyntaxKind or Ordering, whose paths fill a Rust file. */
static bool error_type_name(const char *s, size_t n)
{
	static const char *const parts[] = {"Error", "Exception", "Failure", "Fault", NULL};
	for (const char *const *p = parts; *p; p++)
		if (fl_memmem(s, n, *p, strlen(*p)))
			return true;
	return n > 3 && memcmp(s + n - 3, "Err", 3) == 0;
}

static void note_variant(rs_st *st, const char *cls, const char *msg)
{
	if (!st->part || !cls || !msg || !*msg || !rs_has_text(msg))
		return;
	const char *v = strrchr(cls, ':');
	if (!v || v == cls || v[-1] != ':' || !v[1])
		return;
	const char *e = v - 1; /* the '::' before the variant */
	const char *b = e;
	while (b > cls && !(b[-1] == ':'))
		b--;
	if (b == e || !error_type_name(b, (size_t)(e - b)))
		return;
	fl_factory f = {.name = fl_xstrdup(b), .msg = fl_xstrdup(msg), .cls = fl_xstrdup(cls)};
	fl_factories_add(st->part, &f);
}

static void rule_thiserror(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, i + 3, sb, se);
	if (!na || !(se[0] - sb[0] == 1 && t->v[sb[0]].kind == FL_TK_STRING))
		return;
	if (st->m[i + 1] == NONE)
		return;
	size_t k = st->m[i + 1] + 1;
	for (int s = 0; s < 16 && k < t->n; s++) {
		if (fl_tok_pch(t, k) == '#' && fl_tok_pch(t, k + 1) == '[' && st->m[k + 1] != NONE) {
			k = st->m[k + 1] + 1;
			continue;
		}
		if (fl_tok_is_ident(t, k, "pub")) {
			k++;
			if (fl_tok_pch(t, k) == '(' && st->m[k] != NONE)
				k = st->m[k] + 1;
			continue;
		}
		break;
	}
	char *cls = NULL;
	rs_ctx *c = &st->cs[st->csn - 1];
	if ((fl_tok_is_ident(t, k, "struct") || fl_tok_is_ident(t, k, "enum")) &&
	    k + 1 < t->n && t->v[k + 1].kind == FL_TK_IDENT)
		cls = fl_tok_dup(t, k + 1);
	else if (k < t->n && t->v[k].kind == FL_TK_IDENT && c->enm)
		cls = fl_xasprintf("%s::%.*s", c->enm, (int)t->v[k].len,
				   t->src + t->v[k].off);
	char *msg = rs_msg(t, st->m, sb[0], se[0], true, 0);
	emit(st, i, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, "#[error]", NONE, NONE);
	note_variant(st, cls, msg);
	free(msg);
	free(cls);
}

/* #[cfg(test)] / #[test] / #[tokio::test] at '#' i ('[' at i+1) */
static bool is_test_attr(const rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t cl = st->m[i + 1];
	if (cl == NONE)
		return false;
	size_t k = i + 2;
	if (fl_tok_is_ident(t, k, "cfg") && fl_tok_pch(t, k + 1) == '(') {
		bool test = false;
		for (size_t j = k + 2; j < cl && j < k + 64; j++) {
			if (fl_tok_is_ident(t, j, "not"))
				return false;
			if (fl_tok_is_ident(t, j, "test"))
				test = true;
		}
		return test;
	}
	/* path ending in test */
	while (k + 1 < cl && t->v[k].kind == FL_TK_IDENT && fl_tok_is_punct(t, k + 1, "::"))
		k += 2;
	return fl_tok_is_ident(t, k, "test") && (k + 1 == cl || fl_tok_pch(t, k + 1) == '(');
}

/* name of the type of impl/trait header tokens (i = impl/trait, body brace) */
static char *impl_type(const rs_st *st, size_t i, size_t brace)
{
	const fl_toks *t = st->t;
	size_t k = i + 1;
	if (fl_tok_is_ident(t, i, "trait"))
		return k < brace && t->v[k].kind == FL_TK_IDENT ? fl_tok_dup(t, k) : NULL;
	int ad = 0;
	if (fl_tok_pch(t, k) == '<') {
		for (; k < brace; k++) {
			if (fl_tok_pch(t, k) == '<')
				ad++;
			else if (fl_tok_pch(t, k) == '>' && --ad == 0) {
				k++;
				break;
			}
		}
	}
	ad = 0;
	for (size_t j = k; j < brace; j++) {
		if (fl_tok_pch(t, j) == '<')
			ad++;
		else if (fl_tok_pch(t, j) == '>')
			ad--;
		else if (ad == 0 && fl_tok_is_ident(t, j, "for")) {
			k = j + 1;
			break;
		}
	}
	while (k < brace && (fl_tok_pch(t, k) == '&' || t->v[k].kind == FL_TK_OTHER ||
			     fl_tok_is_ident(t, k, "mut") || fl_tok_is_ident(t, k, "dyn")))
		k++;
	size_t last = NONE;
	while (k < brace && t->v[k].kind == FL_TK_IDENT && !fl_tok_is(t, k, "where")) {
		last = k;
		if (fl_tok_is_punct(t, k + 1, "::"))
			k += 2;
		else
			break;
	}
	return last != NONE ? fl_tok_dup(t, last) : NULL;
}

/* `impl fmt::Display for T` (impl at i, body at brace) where T is an error
 * type by its name (ParseError, ErrorCode, ErrorKind, DecodeErr) */
static bool display_of_error(const rs_st *st, size_t i, size_t brace, const char *ty)
{
	const fl_toks *t = st->t;
	if (!ty || !fl_tok_is(t, i, "impl") ||
	    !(strstr(ty, "Error") || (strlen(ty) > 3 && fl_str_ends(ty, "Err"))))
		return false;
	for (size_t k = i + 1; k < brace; k++) {
		if (fl_tok_is_ident(t, k, "for"))
			return false;
		if (fl_tok_is_ident(t, k, "Display") && fl_tok_is_ident(t, k + 1, "for"))
			return true;
	}
	return false;
}

/* The error of a Display arm: the pattern's path (`ErrorCode::Eof`,
 * `Self::Eof(..)` as T::Eof), else the type. */
static char *display_class(const rs_st *st, const char *ty)
{
	const fl_toks *t = st->t;
	const rs_ctx *c = &st->cs[st->csn - 1];
	size_t b = NONE, e = NONE;
	if (c->is_match && c->arm == 1) {
		b = c->ab;
		e = c->ae;
	} else if (c->has_guard && !c->neg && st->csn > 1 && st->cs[st->csn - 2].is_match) {
		b = c->gb;
		e = c->ge;
	}
	fl_buf out = {0};
	size_t k = b;
	if (b != NONE && k < e && fl_tok_is_ident(t, k, "Self")) {
		fl_buf_puts(&out, ty);
		k++;
	} else if (b != NONE && k < e && t->v[k].kind == FL_TK_IDENT) {
		fl_buf_put(&out, t->src + t->v[k].off, t->v[k].len);
		k++;
	}
	bool path = false;
	while (out.n && k + 1 < e && fl_tok_is_punct(t, k, "::") &&
	       t->v[k + 1].kind == FL_TK_IDENT) {
		fl_buf_puts(&out, "::");
		fl_buf_put(&out, t->src + t->v[k + 1].off, t->v[k + 1].len);
		path = true;
		k += 2;
	}
	if (!path) {
		fl_buf_free(&out);
		return fl_xstrdup(ty);
	}
	fl_buf_cstr(&out);
	return out.s;
}

/* In `fn fmt` of an error type's Display? */
static bool in_display_fmt(const rs_st *st)
{
	const rs_ctx *c = &st->cs[st->csn - 1];
	return c->display && c->fn && fl_str_ends(c->fn, "::fmt");
}

/* The message an arm of an error type's Display gives: emitted with the
 * arm's error as its class.  A message that starts with a placeholder
 * wraps another one ("{} at line {}"): not a message of its own. */
static void display_emit(rs_st *st, size_t at, const char *msg, const char *idiom)
{
	/* nor is the tail of one (". Note that ...") or a label ("Backtrace:") */
	if (!msg || !*msg || msg[0] == '{' || strchr(".,;:", msg[0]) ||
	    msg[strlen(msg) - 1] == ':')
		return;
	char *cls = display_class(st, st->cs[st->csn - 1].display);
	emit(st, at, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, idiom, NONE, NONE);
	note_variant(st, cls, msg);
	free(cls);
}

/* `Self::Eof => "unexpected end of input",`: the string literal at k */
static void display_literal_arm(rs_st *st, size_t k)
{
	if (!in_display_fmt(st))
		return;
	char *msg = rs_msg(st->t, st->m, k, k + 1, false, 0);
	display_emit(st, k, msg, "impl Display");
	free(msg);
}

/* A write to the formatter starting at token s: `f.write_str(X)` or
 * `write!(f, "...", ...)`: its ')' in *close, the text argument's span
 * in *b, *e, whether it is a format string in *fmt. */
static bool write_call(const rs_st *st, size_t s, size_t *close, size_t *b, size_t *e,
		       bool *fmt)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (s + 3 < t->n && t->v[s].kind == FL_TK_IDENT && fl_tok_pch(t, s + 1) == '.' &&
	    fl_tok_is_ident(t, s + 2, "write_str") && fl_tok_pch(t, s + 3) == '(' &&
	    st->m[s + 3] != NONE) {
		if (rs_args(t, st->m, s + 3, sb, se) != 1)
			return false;
		*close = st->m[s + 3];
		*fmt = false;
	} else if (s + 2 < t->n && (fl_tok_is_ident(t, s, "write") || fl_tok_is_ident(t, s, "writeln")) &&
		   fl_tok_pch(t, s + 1) == '!' && fl_tok_pch(t, s + 2) == '(' && st->m[s + 2] != NONE) {
		if (rs_args(t, st->m, s + 2, sb, se) < 2)
			return false;
		sb[0] = sb[1];
		se[0] = se[1];
		*close = st->m[s + 2];
		*fmt = true;
	} else {
		return false;
	}
	*b = sb[0];
	*e = se[0];
	return true;
}

/* The statement before token s is a write to the formatter too. */
static bool prev_write(const rs_st *st, size_t s)
{
	const fl_toks *t = st->t;
	if (s < 3 || fl_tok_pch(t, s - 1) != ';')
		return false;
	size_t k = s - 2;
	if (fl_tok_pch(t, k) == '?')
		k--;
	if (fl_tok_pch(t, k) != ')' || st->m[k] == NONE)
		return false;
	size_t o = st->m[k], cl, b, e;
	bool fmt;
	if (o >= 1 && fl_tok_is_ident(t, o - 1, "fmt"))
		return true; /* Debug::fmt(x, f)?; x.fmt(f)?; */
	return (o >= 3 && write_call(st, o - 3, &cl, &b, &e, &fmt) && cl == k) ||
	       (o >= 2 && write_call(st, o - 2, &cl, &b, &e, &fmt) && cl == k);
}

/* The writes to the formatter from the one at token s to the last of the
 * statements that follow it (`f.write_str("unknown rule `")?;
 * f.write_str(name)?; f.write_str("`")`): one message, the text a
 * write that is not a literal adds a placeholder. */
static void display_writes(rs_st *st, size_t s, const char *idiom)
{
	const fl_toks *t = st->t;
	if (!in_display_fmt(st) || prev_write(st, s))
		return;
	fl_buf msg = {0};
	bool lit = false;
	size_t k = s, close, b, e;
	bool fmt;
	for (int n = 0; n < 16; n++) {
		if (!write_call(st, k, &close, &b, &e, &fmt)) {
			/* `Debug::fmt(x, f)?;`, `self.kind.fmt(f)?;`: a value
			 * written in between */
			size_t q = k;
			while (q < t->n && q - k < 24 && (t->v[q].kind == FL_TK_IDENT ||
							  fl_tok_is_punct(t, q, "::") ||
							  fl_tok_pch(t, q) == '.'))
				q++;
			if (q == k || !fl_tok_is_ident(t, q - 1, "fmt") || fl_tok_pch(t, q) != '(' ||
			    st->m[q] == NONE)
				break;
			fl_buf_puts(&msg, "{}");
			k = st->m[q] + 1;
			if (fl_tok_pch(t, k) == '?')
				k++;
			if (fl_tok_pch(t, k) != ';')
				break;
			k++;
			continue;
		}
		if (e - b == 1 && t->v[b].kind == FL_TK_STRING) {
			char *p = fl_xstrndup(fl_tok_str(t, &t->v[b]), t->v[b].slen);
			if (fmt)
				fl_msg_undouble(p, "{}");
			fl_buf_puts(&msg, p);
			free(p);
			lit = true;
		} else {
			fl_buf_puts(&msg, "{}");
		}
		k = close + 1;
		if (fl_tok_pch(t, k) == '?')
			k++;
		if (fl_tok_pch(t, k) != ';')
			break;
		k++;
	}
	fl_buf_cstr(&msg);
	if (lit) {
		fl_msg_trim(msg.s);
		display_emit(st, s, msg.s, idiom);
	}
	fl_buf_free(&msg);
}

/* the first letters of the keywords rs_scan() follows (fn, impl, trait,
 * enum, where, match ...) */
/* ---- messages held in a local variable ---------------------------------------
 * `let mut msg = format!("..."); ...; bail!(msg)`, `warnings.push(msg)`:
 * the one message a local variable of the enclosing fn is given (lex.c's
 * fl_var_msg), when that value is a literal, a format! of one or
 * String::from of one.  `msg.push_str(...)`, `write!(msg, ...)` and `msg
 * += ...` append: the message goes on at run time. */

static const char *const rs_decl[] = {"let", "mut", NULL};

static char *var_expr_msg(const void *ud, size_t b, size_t e)
{
	const rs_st *st = ud;
	const fl_toks *t = st->t;
	if (e - b >= 5 && fl_tok_is(t, b, "String") && fl_tok_is_punct(t, b + 1, "::") &&
	    fl_tok_is(t, b + 2, "from") && fl_tok_pch(t, b + 3) == '(' && st->m[b + 3] == e - 1 &&
	    rs_lit_expr(t, st->m, b + 4, e - 1))
		return rs_msg(t, st->m, b + 4, e - 1, false, 0);
	if (!rs_lit_expr(t, st->m, b, e))
		return NULL;
	return rs_msg(t, st->m, b, e, false, 0);
}

/* The message the lone local variable [b, e) holds, or NULL. */
static char *rs_var_msg(const rs_st *st, size_t b, size_t e)
{
	const fl_toks *t = st->t;
	size_t fn = st->cs[st->csn - 1].fn_tok;
	if (!fn || e != b + 1 || t->v[b].kind != FL_TK_IDENT)
		return NULL;
	return fl_var_arg_msg(t, st->m, fn, &b, &e, 1, rs_decl, var_expr_msg, st);
}

/* The message of argument [b, e): a literal (rs_lit_expr) or a local
 * variable holding one. */
static char *rs_arg_msg(const rs_st *st, size_t b, size_t e)
{
	if (rs_lit_expr(st->t, st->m, b, e))
		return rs_msg(st->t, st->m, b, e, false, 0);
	return rs_var_msg(st, b, e);
}

/* ---- diagnostics builders and collected warnings ------------------------------
 * Compiler-style diagnostics: `struct_span_err!(sess, sp, E0599, "no
 * method named `{}`", n)`, `sess.span_err(sp, "...")`,
 * `handler.struct_warn("...")`, `Diagnostic::new(Level::Error, "...")`;
 * and messages pushed to a list of warnings or errors: `warnings.push(msg)`.
 * The severity is the builder's word (warn, fatal, bug: else error). */

static const char *const diag_methods[] = {
	"span_err", "struct_err", "struct_span_err", "span_warn", "struct_warn",
	"struct_span_warn", "span_fatal", "struct_fatal", "struct_span_fatal",
	"span_bug", "span_err_with_code", "struct_span_err_with_code",
	"span_warn_with_code", "struct_span_warn_with_code", "err", "warn_with_code",
	NULL};

static const char *diag_sev(const fl_toks *t, size_t i)
{
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	if (fl_memmem(s, n, "warn", 4))
		return FL_S_WARNING;
	if (fl_memmem(s, n, "fatal", 5) || fl_memmem(s, n, "bug", 3))
		return FL_S_CRITICAL;
	return FL_S_ERROR;
}

/* An error code argument: E0599. */
static bool diag_code(const fl_toks *t, size_t b, size_t e)
{
	if (e != b + 1 || t->v[b].kind != FL_TK_IDENT || t->v[b].len != 5 ||
	    t->src[t->v[b].off] != 'E')
		return false;
	for (int k = 1; k < 5; k++) {
		char d = t->src[t->v[b].off + k];
		if (d < '0' || d > '9')
			return false;
	}
	return true;
}

/* The diagnostic whose arguments open at `open`: its message is the first
 * argument that is a literal (after the session, span and code). */
static void diag_emit(rs_st *st, size_t at, size_t open, const char *sev, const char *idiom)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, open, sb, se);
	char *code = NULL, *msg = NULL;
	for (size_t k = 0; k < na && !msg; k++) {
		if (diag_code(t, sb[k], se[k])) {
			free(code);
			code = fl_tok_dup(t, sb[k]);
		} else if (t->v[sb[k]].kind == FL_TK_STRING && se[k] - sb[k] == 1) {
			msg = rs_msg(t, st->m, sb[k], se[k], true, 0);
		} else if (rs_lit_expr(t, st->m, sb[k], se[k])) {
			msg = rs_msg(t, st->m, sb[k], se[k], false, 0);
		}
	}
	if (msg)
		emit(st, at, msg, code, NULL, FL_T_CONSOLE, sev, idiom, NONE, NONE);
	free(msg);
	free(code);
}

/* struct_span_err!(...) and the like, at the macro's name i */
static bool rule_diag_macro(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	bool diag = (n > 8 && memcmp(s, "struct_", 7) == 0 &&
		     (fl_memmem(s, n, "_err", 4) || fl_memmem(s, n, "_warn", 5))) ||
		    fl_tok_is(t, i, "span_err") || fl_tok_is(t, i, "span_warn") ||
		    fl_tok_is(t, i, "span_fatal") || fl_tok_is(t, i, "span_bug");
	if (!diag)
		return false;
	char idiom[48];
	snprintf(idiom, sizeof idiom, "%.*s!", (int)(n > 40 ? 40 : n), s);
	diag_emit(st, i, i + 2, diag_sev(t, i), idiom);
	return true;
}

/* x.span_err(sp, "..."), Diagnostic::new(Level::Error, "..."),
 * Diagnostic::spanned(sp, Level::Warning, "..."), warnings.push(msg), at the
 * '.' or the type's identifier i */
static bool rule_diag_call(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if (fl_tok_pch(t, i) == '.' && t->v[i + 1].kind == FL_TK_IDENT &&
	    fl_tok_pch(t, i + 2) == '(') {
		if (in_list(t, i + 1, diag_methods) &&
		    !(fl_tok_is(t, i + 1, "err") && !(i > 0 && (fl_tok_is(t, i - 1, "handler") ||
								 fl_tok_is(t, i - 1, "dcx") ||
								 fl_tok_is(t, i - 1, "sess"))))) {
			char idiom[48];
			snprintf(idiom, sizeof idiom, ".%.*s",
				 (int)(t->v[i + 1].len > 40 ? 40 : t->v[i + 1].len),
				 t->src + t->v[i + 1].off);
			diag_emit(st, i + 1, i + 2, diag_sev(t, i + 1), idiom);
			return true;
		}
		/* shell.error(...), config.shell().error(format!(...)): the
		 * terminal's error line (its warn is rule_context's) */
		if (fl_tok_is(t, i + 1, "error") && i > 0 &&
		    (fl_tok_is(t, i - 1, "shell") ||
		     (fl_tok_pch(t, i - 1) == ')' && i >= 3 && fl_tok_pch(t, i - 2) == '(' &&
		      fl_tok_is(t, i - 3, "shell")))) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			if (rs_args(t, st->m, i + 2, sb, se) != 1)
				return true;
			char *msg = rs_arg_msg(st, sb[0], se[0]);
			emit(st, i + 1, msg, NULL, NULL, FL_T_CONSOLE, FL_S_ERROR, ".error", NONE, NONE);
			free(msg);
			return true;
		}
		/* warnings.push(msg), self.errors.push(format!(...)) */
		if (fl_tok_is(t, i + 1, "push") && i > 0 && t->v[i - 1].kind == FL_TK_IDENT &&
		    (fl_tok_is(t, i - 1, "warnings") || fl_tok_is(t, i - 1, "errors"))) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			if (rs_args(t, st->m, i + 2, sb, se) != 1)
				return true;
			char *msg = rs_arg_msg(st, sb[0], se[0]);
			bool warn = fl_tok_is(t, i - 1, "warnings");
			size_t rb = rs_receiver(st, i);
			emit(st, rb < i ? rb : i - 1, msg, NULL, NULL,
			     warn ? FL_T_CONSOLE : FL_T_VALIDATION, warn ? FL_S_WARNING : FL_S_ERROR,
			     warn ? "warnings.push" : "errors.push", NONE, NONE);
			free(msg);
			return true;
		}
		return false;
	}
	/* Diagnostic::new(Level::Error, "...") / Diagnostic::spanned(sp, Level::Error, "...") */
	if (t->v[i].kind != FL_TK_IDENT || !fl_tok_is_punct(t, i + 1, "::") ||
	    fl_tok_pch(t, i + 3) != '(' ||
	    !(fl_tok_is(t, i, "Diagnostic") || fl_tok_is(t, i, "Diag")) ||
	    !(fl_tok_is(t, i + 2, "new") || fl_tok_is(t, i + 2, "spanned")))
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, i + 3, sb, se);
	const char *sev = NULL;
	for (size_t k = 0; k < na && !sev; k++)
		for (size_t q = sb[k]; q + 2 < se[k] + 1 && q + 2 < t->n; q++)
			if (fl_tok_is(t, q, "Level") && fl_tok_is_punct(t, q + 1, "::")) {
				sev = fl_tok_is(t, q + 2, "Warning") || fl_tok_is(t, q + 2, "Warn")
					      ? FL_S_WARNING
				      : fl_tok_is(t, q + 2, "Error") || fl_tok_is(t, q + 2, "Fatal") ||
						      fl_tok_is(t, q + 2, "Bug")
					      ? FL_S_ERROR
					      : NULL;
				break;
			}
	if (!sev)
		return true; /* a note or help: no error of its own */
	char idiom[48];
	snprintf(idiom, sizeof idiom, "%.*s::%.*s", (int)t->v[i].len, t->src + t->v[i].off,
		 (int)t->v[i + 2].len, t->src + t->v[i + 2].off);
	diag_emit(st, i, i + 3, sev, idiom);
	return true;
}

/* ---- the scan, by idiom ------------------------------------------------------ */

/* match arm bookkeeping at token i (c: its punctuation) */
static void track_arm(rs_st *st, size_t i, char c)
{
	const fl_toks *t = st->t;
	rs_ctx *top = &st->cs[st->csn - 1];
	if (!top->is_match)
		return;
	if (top->arm == 0) {
		if (fl_tok_is_punct(t, i, "=>")) {
			top->arm = 1;
			top->ab = top->arm_start;
			top->ae = i;
			top->inner_close = NONE;
			top->arm_body = fl_tok_pch(t, i + 1) == '{' ? i + 1 : NONE;
			/* `Self::Eof => "unexpected end of input",` in an
			 * error's Display: a phrase, not a fragment */
			if (top->display && i + 2 < t->n &&
			    t->v[i + 1].kind == FL_TK_STRING &&
			    (fl_tok_pch(t, i + 2) == ',' || fl_tok_pch(t, i + 2) == '}') &&
			    memchr(fl_tok_str(t, &t->v[i + 1]), ' ', t->v[i + 1].slen))
				display_literal_arm(st, i + 1);
		} else if (top->arm_start == NONE && c != ',' && c != '}') {
			top->arm_start = i;
		}
	} else {
		bool outside = top->inner_close == NONE || i > top->inner_close;
		if ((c == '(' || c == '[') && outside)
			top->inner_close = st->m[i] == NONE ? t->n : st->m[i];
		else if (c == ',' && outside) {
			top->arm = 0;
			top->arm_start = NONE;
		}
	}
}

static const bool kw_first[256] = {
	['f'] = true, ['i'] = true, ['t'] = true, ['e'] = true, ['w'] = true, ['m'] = true,
};

/* fn / impl / trait / enum / if / while / match at the identifier i: what
 * the context of their body will be */
static void track_keyword(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	const fl_tok *k = &t->v[i];
	if (k->len < 2 || k->len > 5 || !kw_first[(unsigned char)t->src[k->off]])
		return;
	if (fl_tok_is(t, i, "fn") && i + 1 < t->n && t->v[i + 1].kind == FL_TK_IDENT) {
		size_t j = i + 2;
		if (fl_tok_pch(t, j) == '<') {
			int d = 0, lim = 0;
			for (; j < t->n && lim < SCAN_LIMIT; j++, lim++) {
				if (fl_tok_pch(t, j) == '<')
					d++;
				else if (fl_tok_pch(t, j) == '>' && --d == 0) {
					j++;
					break;
				}
			}
		}
		if (fl_tok_pch(t, j) == '(' && st->m[j] != NONE) {
			size_t b = rs_find_body(st, st->m[j] + 1);
			pend_add(st, b, P_FN, fl_tok_dup(t, i + 1), i + 1, 0);
		}
	} else if (fl_tok_is(t, i, "impl") || fl_tok_is(t, i, "trait")) {
		bool usage = i > 0 && (fl_tok_is_punct(t, i - 1, "->") ||
				       fl_tok_pch(t, i - 1) == ':' || fl_tok_pch(t, i - 1) == '(' ||
				       fl_tok_pch(t, i - 1) == ',' || fl_tok_pch(t, i - 1) == '<' ||
				       fl_tok_pch(t, i - 1) == '=' || fl_tok_pch(t, i - 1) == '&');
		if (!usage) {
			size_t b = rs_find_body(st, i + 1);
			if (b != NONE) {
				char *ty = impl_type(st, i, b);
				pend_add(st, b, display_of_error(st, i, b, ty) ? P_IMPL_DISPLAY : P_IMPL,
					 ty, 0, 0);
			}
		}
	} else if (fl_tok_is(t, i, "enum") && i + 1 < t->n && t->v[i + 1].kind == FL_TK_IDENT) {
		size_t b = rs_find_body(st, i + 2);
		pend_add(st, b, P_ENUM, fl_tok_dup(t, i + 1), 0, 0);
	} else if (fl_tok_is(t, i, "if") || fl_tok_is(t, i, "while")) {
		size_t b = rs_find_body(st, i + 1);
		if (b != NONE && b > i + 1)
			pend_add(st, b, P_GUARD, NULL, i + 1, b);
	} else if (fl_tok_is(t, i, "match")) {
		size_t b = rs_find_body(st, i + 1);
		if (b != NONE && b > i + 1)
			pend_add(st, b, P_MATCH, NULL, i + 1, b);
		else
			pend_add(st, b, P_MATCH, NULL, NONE, NONE);
	}
}

/* `#![...]` / `#[...]` at '#' i: test attributes, #[error(...)], #[body] */
static void track_attr(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	const rs_ctx *top = &st->cs[st->csn - 1];
	if (fl_tok_pch(t, i + 1) == '!' && fl_tok_pch(t, i + 2) == '[' && is_test_attr(st, i + 1)) {
		st->file_test = true;
		return;
	}
	if (fl_tok_pch(t, i + 1) != '[' || st->m[i + 1] == NONE)
		return;
	if (is_test_attr(st, i)) {
		size_t j = st->m[i + 1] + 1;
		for (int s = 0; s < 16 && fl_tok_pch(t, j) == '#' && fl_tok_pch(t, j + 1) == '[' &&
				st->m[j + 1] != NONE;
		     s++)
			j = st->m[j + 1] + 1;
		size_t b = rs_find_body(st, j);
		pend_add(st, b, P_TEST, NULL, 0, 0);
	} else if (!top->test && !st->file_test && fl_tok_is_ident(t, i + 2, "error") &&
		   fl_tok_pch(t, i + 3) == '(') {
		rule_thiserror(st, i);
	} else if (!top->test && !st->file_test && fl_tok_is_ident(t, i + 2, "body")) {
		rule_status_body(st, i);
	}
}

/* An error that is only a text, made when an Option or a Result fails:
 * x.ok_or("..."), x.ok_or_else(|| format!("...")), x.map_err(|e|
 * format!("...: {}", e)), at the '.' i; guarded by x's failure */
static void rule_text_error(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (rs_args(t, st->m, i + 2, sb, se) != 1)
		return;
	size_t b = sb[0], e = se[0];
	if (!fl_tok_is_ident(t, i + 1, "ok_or") && !closure_body(st, &b, &e))
		return;
	if (b >= e || !rs_lit_expr(t, st->m, b, e))
		return;
	char *msg = rs_msg(t, st->m, b, e, false, 0);
	if (!msg)
		return;
	char idiom[24];
	method_idiom(t, i, idiom);
	emit_guarded(st, i + 1, msg, NULL, FL_T_EXCEPTION, FL_S_ERROR, idiom,
		     recv_guard(st, rs_receiver(st, i), i, !fl_tok_is_ident(t, i + 1, "map_err")));
	free(msg);
}

/* x.expect("...") at the '.' i */
static void rule_expect(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (rs_args(t, st->m, i + 2, sb, se) != 1)
		return;
	char *msg = rs_msg(t, st->m, sb[0], se[0], false, 0);
	if (msg) {
		size_t rb = rs_receiver(st, i);
		emit(st, i + 1, msg, NULL, NULL, FL_T_PANIC, FL_S_CRITICAL, ".expect",
		     rb < i ? rb : NONE, i);
	}
	free(msg);
}

/* proc-macro diagnostics: cx.error_spanned_by(x, "..."), at the '.' i */
static bool rule_error_method(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if (!(t->v[i + 1].kind == FL_TK_IDENT && t->v[i + 1].len > 6 &&
	      memcmp(t->src + t->v[i + 1].off, "error_", 6) == 0 &&
	      !fl_tok_is(t, i + 1, "error_count") && !fl_tok_is(t, i + 1, "error_kind")))
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, i + 2, sb, se);
	if (na >= 1 && na <= 3 && rs_lit_expr(t, st->m, sb[na - 1], se[na - 1])) {
		char *msg = rs_msg(t, st->m, sb[na - 1], se[na - 1], false, 0);
		char *idiom = fl_xasprintf(".%.*s", (int)(t->v[i + 1].len > 40 ? 40 : t->v[i + 1].len),
					   t->src + t->v[i + 1].off);
		emit(st, i + 1, msg, NULL, NULL, FL_T_EXCEPTION, FL_S_ERROR, idiom, NONE, NONE);
		free(idiom);
		free(msg);
	}
	return true;
}

/* E::custom("...") of serde-style error traits, at `custom` i */
static void rule_custom(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t b0 = i - 2;
	while (b0 >= 2 && fl_tok_is_punct(t, b0 - 1, "::") && t->v[b0 - 2].kind == FL_TK_IDENT)
		b0 -= 2;
	if (rs_args(t, st->m, i + 1, sb, se) != 1 ||
	    !(rs_lit_expr(t, st->m, sb[0], se[0]) ||
	      (se[0] - sb[0] >= 4 && fl_tok_is(t, sb[0], "format_args") &&
	       fl_tok_pch(t, sb[0] + 1) == '!' && st->m[sb[0] + 2] == se[0] - 1 &&
	       t->v[sb[0] + 3].kind == FL_TK_STRING)))
		return;
	char *msg = rs_msg(t, st->m, sb[0], se[0], false, 0);
	char *cls = fl_tok_span_text(t, b0, i - 1, 200);
	emit(st, b0, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, "Error::custom", NONE, NONE);
	free(cls);
	free(msg);
}

/* Err("...") / Err(msg) at `Err` i (not a pattern `Err(e) =>`) */
static void rule_err(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (rs_args(t, st->m, i + 1, sb, se) != 1)
		return;
	/* the conversion to the error type: Err(From::from(format!(...))),
	 * Err(Box::from(...)), Err(Box::new(...)), Err(anyhow::Error::msg(...)) */
	size_t b = sb[0], e = se[0];
	for (int n = 0; n < 2; n++) {
		size_t k = b;
		while (k + 2 < e && t->v[k].kind == FL_TK_IDENT && fl_tok_is_punct(t, k + 1, "::"))
			k += 2;
		if (k == b || k + 2 >= e || t->v[k].kind != FL_TK_IDENT || fl_tok_pch(t, k + 1) != '(' ||
		    st->m[k + 1] != e - 1 ||
		    !(fl_tok_is(t, k, "from") || fl_tok_is(t, k, "msg") ||
		      (fl_tok_is(t, k, "new") && fl_tok_is(t, k - 2, "Box"))))
			break;
		b = k + 2;
		e--;
	}
	char *msg = rs_msg(t, st->m, b, e, false, 0);
	if (!msg)
		msg = rs_var_msg(st, b, e);
	emit(st, i, msg, NULL, NULL, FL_T_EXCEPTION, FL_S_ERROR, "Err", NONE, NONE);
	free(msg);
}

/* ---- error variants built ---------------------------------------------------- */

static bool upper_ident(const fl_toks *t, size_t i)
{
	return i < t->n && t->v[i].kind == FL_TK_IDENT && t->src[t->v[i].off] >= 'A' &&
	       t->src[t->v[i].off] <= 'Z';
}

/* The type `Self` names at the current token: the innermost impl's. */
static const char *self_type(const rs_st *st)
{
	for (size_t k = st->csn; k-- > 0;)
		if (st->cs[k].type)
			return st->cs[k].type;
	return NULL;
}

/* Whether the variant path [b, e) is a pattern (a match arm's, a `let`'s,
 * an alternative, a `matches!`'s) or compared, not a value built. */
static bool variant_pattern(const rs_st *st, size_t b, size_t e)
{
	const fl_toks *t = st->t;
	while (e < t->n && fl_tok_pch(t, e) == ')')
		e++;
	if (e < t->n && (fl_tok_is_punct(t, e, "=>") || fl_tok_is_punct(t, e, "=") ||
			 fl_tok_is_punct(t, e, "|") || fl_tok_is_punct(t, e, "@") ||
			 fl_tok_is_punct(t, e, "==") || fl_tok_is_punct(t, e, "!=") ||
			 fl_tok_is_ident(t, e, "if")))
		return true;
	if (b == 0)
		return false;
	size_t p = b - 1;
	if (fl_tok_pch(t, p) == '&' && p > 0)
		p--;
	/* (not after a '|': a closure's `|_| E::V` builds one; an
	 * alternative is told by what follows the last one) */
	if (fl_tok_is_punct(t, p, "==") || fl_tok_is_punct(t, p, "!=") || fl_tok_is_punct(t, p, "@") ||
	    fl_tok_is_ident(t, p, "use"))
		return true;
	/* the enclosing bracket: matches!(x, E::V) */
	for (int n = 0; n < SCAN_LIMIT; n++) {
		char c = fl_tok_pch(t, p);
		if ((c == ')' || c == ']' || c == '}') && st->m[p] != NONE && st->m[p] < p) {
			p = st->m[p];
		} else if (c == '(' || c == '[' || c == '{') {
			return c == '(' && p >= 2 && fl_tok_pch(t, p - 1) == '!' &&
			       t->v[p - 2].kind == FL_TK_IDENT && t->v[p - 2].len >= 7 &&
			       memcmp(t->src + t->v[p - 2].off + t->v[p - 2].len - 7, "matches", 7) == 0;
		}
		if (p == 0 || c == ';')
			return false;
		p--;
	}
	return false;
}

static bool variant_site(rs_st *st, size_t b, size_t e, const char *ty, size_t tl, const char *v,
			 size_t vl);


/* `Enum::Variant`, `Enum::Variant(..)`, `Enum::Variant { .. }` or
 * `Self::Variant...` built at the identifier i (`Enum`): a site with the
 * message the tree holds for that variant.  Scanning as if the tree were
 * empty (collect_scan), the name is logged instead. */
static bool rule_variant(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if (!upper_ident(t, i) || !upper_ident(t, i + 2) || fl_tok_is_punct(t, i + 3, "::") ||
	    fl_tok_pch(t, i + 3) == '!')
		return false;
	if ((!st->tree && !st->log) || (st->use_end && i < st->use_end))
		return false;
	size_t b = i;
	while (b >= 2 && fl_tok_is_punct(t, b - 1, "::") && t->v[b - 2].kind == FL_TK_IDENT)
		b -= 2;
	size_t e = i + 3;
	char o = fl_tok_pch(t, e);
	if ((o == '(' || o == '{') && st->m[e] != NONE) {
		bool head = b > 0 && (fl_tok_is_ident(t, b - 1, "if") || fl_tok_is_ident(t, b - 1, "while") ||
				      fl_tok_is_ident(t, b - 1, "match") || fl_tok_is_ident(t, b - 1, "in"));
		if (o == '(' || !head)
			e = st->m[e] + 1;
	}
	const char *ty = t->src + t->v[i].off;
	int tl = (int)t->v[i].len;
	if (fl_tok_is(t, i, "Self")) {
		ty = self_type(st);
		if (!ty)
			return false;
		tl = (int)strlen(ty);
	}
	return variant_site(st, b, e, ty, (size_t)tl, t->src + t->v[i + 2].off, t->v[i + 2].len);
}

/* Whether the variant v built here is a copy of one already raised: in
 * `fn clone` (`Error::Io(ref e) => Error::Io(...)` of an `impl Clone`),
 * or in a match arm whose pattern is that same variant (a value rebuilt
 * from itself: with a path added, an inner error mapped). */
static bool variant_copied(const rs_st *st, const char *v, size_t vl)
{
	const fl_toks *t = st->t;
	const rs_ctx *c = &st->cs[st->csn - 1];
	if (c->fn && (fl_str_ends(c->fn, "clone") || fl_str_ends(c->fn, "clone_from")) &&
	    (strlen(c->fn) == 5 || strlen(c->fn) == 10 || fl_str_ends(c->fn, "::clone") ||
	     fl_str_ends(c->fn, "::clone_from")))
		return true;
	for (size_t k = st->csn; k-- > 0 && k + 2 >= st->csn;) {
		const rs_ctx *a = &st->cs[k];
		if (!a->is_match || a->arm != 1 || a->ab == NONE || a->ae == NONE)
			continue;
		for (size_t j = a->ab; j < a->ae && j < t->n; j++)
			if (t->v[j].kind == FL_TK_IDENT && t->v[j].len == vl &&
			    memcmp(t->src + t->v[j].off, v, vl) == 0 && j > a->ab &&
			    fl_tok_is_punct(t, j - 1, "::"))
				return true;
		break;
	}
	return false;
}

/* The variant `ty::v` at tokens [b, e): its site when the tree knows its
 * message and [b, e) builds it, not a pattern (while scanning as if the
 * tree were empty, the name is logged: the tree decides later). */
static bool variant_site(rs_st *st, size_t b, size_t e, const char *ty, size_t tl, const char *v,
			 size_t vl)
{
	char name[256];
	if (tl + 2 + vl >= sizeof name || !error_type_name(ty, tl))
		return false;
	memcpy(name, ty, tl);
	memcpy(name + tl, "::", 2);
	memcpy(name + tl + 2, v, vl);
	size_t n = tl + 2 + vl;
	name[n] = '\0';
	if (st->log) {
		uint32_t len = (uint32_t)n;
		fl_buf_put(st->log, (const char *)&len, sizeof len);
		fl_buf_put(st->log, name, n);
		return false;
	}
	const fl_factory *f = fl_factories_find(st->tree, name, n, 0);
	if (!f || variant_pattern(st, b, e) || variant_copied(st, v, vl))
		return false;
	/* the idiom: the variant built, as `Enum::Variant`; in
	 * x.ok_or_else(|| E::V) or x.map_err(|_| E::V), raised when x fails */
	emit_guarded(st, b, f->msg, f->cls, FL_T_EXCEPTION, FL_S_ERROR, name, closure_recv_guard(st, b));
	return true;
}

/* `use ...;` at token i: the enums whose variants it imports whole
 * (`E::*`) and the variants it imports by name (`E::V`, `E::{V, W as X}`,
 * E a type's name: it starts with a capital). */
static void track_use(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t owner = NONE; /* the enum of a `E::{...}` group */
	size_t k = i + 1;
	for (; k < t->n && k < i + SCAN_LIMIT && fl_tok_pch(t, k) != ';'; k++) {
		if (fl_tok_is_punct(t, k, "::") && k > i + 1 && upper_ident(t, k - 1)) {
			if (fl_tok_pch(t, k + 1) == '*') {
				char *g = fl_tok_dup(t, k - 1);
				fl_strv_push(&st->globs, g);
				free(g);
			} else if (fl_tok_pch(t, k + 1) == '{') {
				owner = k - 1;
			} else if (upper_ident(t, k + 1) && !fl_tok_is_punct(t, k + 2, "::") && owner == NONE) {
				/* E::V, or E::V as X */
				size_t as = fl_tok_is_ident(t, k + 2, "as") && t->v[k + 3].kind == FL_TK_IDENT ? k + 3 : k + 1;
				char *full = fl_xasprintf("%.*s::%.*s", (int)t->v[k - 1].len, t->src + t->v[k - 1].off,
							  (int)t->v[k + 1].len, t->src + t->v[k + 1].off);
				char *nm = fl_tok_dup(t, as);
				fl_strv_push(&st->imp_name, nm);
				fl_strv_push(&st->imp_full, full);
				free(nm);
				free(full);
			}
			continue;
		}
		if (owner != NONE && upper_ident(t, k) && !fl_tok_is_punct(t, k - 1, "::") &&
		    !fl_tok_is_punct(t, k + 1, "::")) {
			char c = fl_tok_pch(t, k - 1);
			if (c != '{' && c != ',')
				continue;
			size_t as = fl_tok_is_ident(t, k + 1, "as") && t->v[k + 2].kind == FL_TK_IDENT ? k + 2 : k;
			char *full = fl_xasprintf("%.*s::%.*s", (int)t->v[owner].len, t->src + t->v[owner].off,
						  (int)t->v[k].len, t->src + t->v[k].off);
			char *nm = fl_tok_dup(t, as);
			fl_strv_push(&st->imp_name, nm);
			fl_strv_push(&st->imp_full, full);
			free(nm);
			free(full);
		}
		if (fl_tok_pch(t, k) == '}')
			owner = NONE;
	}
	st->use_end = k;
}

/* A variant the file imported, built by its bare name at token i
 * (`Err(NotFound(name))`, `return Err(ReadOnly)`), not a pattern, a
 * type or a path's segment. */
static void rule_bare_variant(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if ((!st->tree && !st->log) || !upper_ident(t, i) || fl_tok_is_punct(t, i + 1, "::") ||
	    fl_tok_pch(t, i + 1) == '!' || fl_tok_pch(t, i + 1) == '<')
		return;
	/* an enum's own variants, declared; the names a `use` imports */
	if (st->cs[st->csn - 1].enm || (st->use_end && i < st->use_end))
		return;
	if (i > 0) {
		size_t p = i - 1;
		if (fl_tok_is_punct(t, p, "::") || fl_tok_pch(t, p) == '.' || fl_tok_is_punct(t, p, "->") ||
		    fl_tok_pch(t, p) == ':' || fl_tok_pch(t, p) == '<' || fl_tok_pch(t, p) == '\'' ||
		    fl_tok_is_ident(t, p, "impl") || fl_tok_is_ident(t, p, "for") ||
		    fl_tok_is_ident(t, p, "struct") || fl_tok_is_ident(t, p, "enum") ||
		    fl_tok_is_ident(t, p, "type") || fl_tok_is_ident(t, p, "dyn") ||
		    fl_tok_is_ident(t, p, "as") || fl_tok_is_ident(t, p, "fn") ||
		    fl_tok_is_ident(t, p, "trait") || fl_tok_is_ident(t, p, "use") ||
		    fl_tok_pch(t, p) == '#')
			return;
	}
	const char *v = t->src + t->v[i].off;
	size_t vl = t->v[i].len;
	const char *full = NULL;
	for (size_t k = 0; k < st->imp_name.n && !full; k++)
		if (strlen(st->imp_name.v[k]) == vl && memcmp(st->imp_name.v[k], v, vl) == 0)
			full = st->imp_full.v[k];
	if (!full && !st->globs.n)
		return;
	size_t e = i + 1;
	if ((fl_tok_pch(t, e) == '(' || fl_tok_pch(t, e) == '{') && st->m[e] != NONE) {
		bool head = i > 0 && (fl_tok_is_ident(t, i - 1, "if") || fl_tok_is_ident(t, i - 1, "while") ||
				      fl_tok_is_ident(t, i - 1, "match") || fl_tok_is_ident(t, i - 1, "in"));
		if (fl_tok_pch(t, e) == '(' || !head)
			e = st->m[e] + 1;
	}
	if (full) {
		const char *sep = strstr(full, "::");
		variant_site(st, i, e, full, (size_t)(sep - full), sep + 2, strlen(sep + 2));
		return;
	}
	for (size_t k = 0; k < st->globs.n; k++)
		if (variant_site(st, i, e, st->globs.v[k], strlen(st->globs.v[k]), v, vl))
			return;
}

/* the rules that start at an identifier followed by '!', '(' or '::', or
 * at a '.' two tokens before a '(' */
static void rule_call(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	const fl_tok *k = &t->v[i];
	char c = fl_tok_pch(t, i);
	const rs_ctx *top = &st->cs[st->csn - 1];
	if (k->kind == FL_TK_IDENT && fl_tok_pch(t, i + 1) == '!' && fl_tok_is_opener(t, i + 2)) {
		if (!rule_diag_macro(st, i))
			rule_macro(st, i);
		return;
	}
	if (c == '.') {
		if (top->display && fl_tok_is_ident(t, i + 1, "write_str") && i > 0 &&
		    t->v[i - 1].kind == FL_TK_IDENT)
			display_writes(st, i - 1, "impl Display write_str");
		else if (fl_tok_is_ident(t, i + 1, "expect"))
			rule_expect(st, i);
		else if (fl_tok_is_ident(t, i + 1, "ok_or") || fl_tok_is_ident(t, i + 1, "ok_or_else") ||
			 fl_tok_is_ident(t, i + 1, "map_err"))
			rule_text_error(st, i);
		else if (fl_tok_is_ident(t, i + 1, "context") ||
			 fl_tok_is_ident(t, i + 1, "with_context") ||
			 fl_tok_is_ident(t, i + 1, "wrap_err") ||
			 fl_tok_is_ident(t, i + 1, "wrap_err_with") ||
			 fl_tok_is_ident(t, i + 1, "warn"))
			rule_context(st, i);
		else if (!rule_error_method(st, i))
			rule_diag_call(st, i);
		return;
	}
	if (fl_tok_is(t, i, "custom") && i >= 2 && fl_tok_is_punct(t, i - 1, "::") &&
	    fl_tok_pch(t, i + 1) == '(' && (ends_with_error(t, i - 2) || fl_tok_is(t, i - 2, "E"))) {
		rule_custom(st, i);
		return;
	}
	if (k->len == 3 && fl_tok_is_ident(t, i, "Err") && fl_tok_pch(t, i + 1) == '(' &&
	    !fl_tok_is_punct(t, st->m[i + 1] == NONE ? t->n : st->m[i + 1] + 1, "=>")) {
		rule_err(st, i);
		return;
	}
	if (fl_tok_is_punct(t, i + 1, "::") && ends_with_error(t, i) &&
	    (fl_tok_is_ident(t, i + 2, "new") || fl_tok_is_ident(t, i + 2, "other") ||
	     fl_tok_is_ident(t, i + 2, "new_spanned")) &&
	    fl_tok_pch(t, i + 3) == '(') {
		rule_error_new(st, i);
		return;
	}
	if (fl_tok_is_punct(t, i + 1, "::") && rule_variant(st, i))
		return;
	if (k->kind == FL_TK_IDENT && rule_reporter_call(st, i))
		return;
	rule_diag_call(st, i);
}

/* One file's scan: its sites into out (NULL: none), its variants'
 * messages into part (NULL: not kept), the variants it builds looked up in
 * tree or, with log, logged. */
static void rs_walk(const fl_factories *tree, fl_factories *part, fl_buf *log,
		    const fl_src *src, fl_sites *out)
{
	fl_toks tk;
	fl_toks_init(&tk, src);
	rs_lex(&tk);
	const fl_toks *t = &tk;
	rs_st st = {0};
	st.t = t;
	st.out = out;
	st.tree = tree;
	st.part = part;
	st.log = log;
	st.m = fl_tok_match_table(t, FL_MATCH_STRICT);
	st.csc = 64;
	st.cs = fl_xmalloc(st.csc * sizeof *st.cs);
	memset(&st.cs[0], 0, sizeof st.cs[0]);
	st.cs[0].open = NONE;
	st.cs[0].arm_start = st.cs[0].inner_close = st.cs[0].arm_body = NONE;
	st.csn = 1;
	st.if_open = NONE;

	for (size_t i = 0; i < t->n; i++) {
		const fl_tok *k = &t->v[i];
		char c = fl_tok_pch(t, i);
		track_arm(&st, i, c);
		if (c == '{') {
			ctx_push(&st, i);
			continue;
		}
		if (c == '}') {
			ctx_pop(&st, i);
			continue;
		}
		if (k->kind == FL_TK_IDENT)
			track_keyword(&st, i);
		if (c == '#') {
			track_attr(&st, i);
			continue;
		}
		const rs_ctx *top = &st.cs[st.csn - 1];
		if (k->kind == FL_TK_IDENT && k->len == 3 && fl_tok_is(t, i, "use"))
			track_use(&st, i);
		if (top->test || st.file_test)
			continue;
		if (k->kind == FL_TK_IDENT && (st.globs.n || st.imp_name.n))
			rule_bare_variant(&st, i);
		if (k->kind == FL_TK_IDENT) {
			char n1 = fl_tok_pch(t, i + 1);
			if (n1 != '!' && n1 != '(' && !fl_tok_is_punct(t, i + 1, "::"))
				continue;
		} else if (c != '.' || fl_tok_pch(t, i + 2) != '(') {
			continue;
		}
		rule_call(&st, i);
	}
	for (size_t i = 0; i < st.csn; i++)
		ctx_free(&st.cs[i]);
	for (size_t i = 0; i < st.np; i++)
		free(st.pend[i].name);
	fl_strv_free(&st.globs);
	fl_strv_free(&st.imp_name);
	fl_strv_free(&st.imp_full);
	free(st.cs);
	free(st.m);
	fl_toks_free(&tk);
}

static void rs_scan(const void *tree, const fl_src *src, fl_sites *out)
{
	rs_walk(tree, NULL, NULL, src, out);
}

/* The collect pass: the messages of the file's error variants (declared
 * with #[error] or in a Display of an error type). */
static void rs_collect(void *tree, const fl_src *src)
{
	if (!src->text || (!memmem(src->text, src->len, "#[error", 7) &&
			   !memmem(src->text, src->len, "Display", 7) &&
			   !memmem(src->text, src->len, "eprint", 6) &&
			   !memmem(src->text, src->len, "Error {", 7)))
		return;
	rs_walk(NULL, tree, NULL, src, NULL);
}

/* Collected and scanned at once, as if no file declared a variant: the
 * log of the variants the file builds (lang.h: collect_scan). */
static void *rs_collect_scan(void *part, const fl_src *src, fl_sites *out, void *hint)
{
	(void)hint;
	fl_buf *log = fl_xcalloc(1, sizeof *log);
	if (src->text)
		rs_walk(NULL, part, log, src, out);
	return log;
}

/* The early scan stands when the tree knows none of the variants built. */
static bool rs_early_holds(const void *tree, const void *log)
{
	const fl_buf *b = log;
	for (size_t p = 0; p + sizeof(uint32_t) <= b->n;) {
		uint32_t len;
		memcpy(&len, b->s + p, sizeof len);
		p += sizeof len;
		if (fl_factories_find(tree, b->s + p, len, 0))
			return false;
		p += len;
	}
	return true;
}

static void rs_early_free(void *log)
{
	if (log)
		fl_buf_free(log);
	free(log);
}

static const char *const rs_exts[] = {".rs", NULL};

const fl_lang fl_lang_rust = {
	.name = "rust",
	.extensions = rs_exts,
	.tree_new = fl_factories_tree_new,
	.tree_free = fl_factories_tree_free,
	.collect = rs_collect,
	.tree_merge = fl_factories_tree_merge,
	.collect_scan = rs_collect_scan,
	.early_holds = rs_early_holds,
	.early_free = rs_early_free,
	.scan = rs_scan,
};
