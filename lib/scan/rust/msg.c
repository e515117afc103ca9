/*
 * msg.c — the Rust family's messages built from argument tokens (rust.h):
 * a literal, format! / format_args! / concat! of literals, String::from /
 * Box::from and a trailing .into() / .to_string(), a concatenation; whether
 * a message has text of its own; the message a local variable holds
 * (`let msg = format!("..."); bail!(msg)`).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "rust.h"

#define MSG_TOK_LIMIT 512 /* longer message expressions are not rebuilt */

static const char *const rs_concat[] = {"+", NULL};

/* message of an argument expression [b, e) */
char *rs_msg(const fl_toks *t, const size_t *m, size_t b, size_t e,
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

/* true when the message has a letter outside `{...}`
 * placeholders: "{}: {}" or "{err}" alone is not an error message */
bool rs_has_text(const char *m)
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

/* [b, e) is a message literal: "..." (optionally .into()/.to_string()...)
 * or format!("...", ...) spanning it whole */
bool rs_lit_expr(const fl_toks *t, const size_t *m, size_t b, size_t e)
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

/* ---- messages held in a local variable ---------------------------------------
 * `let mut msg = format!("..."); ...; bail!(msg)`, `warnings.push(msg)`:
 * the one message a local variable of the enclosing fn is given
 * (lib/scan/lex.c's fl_var_msg), when that value is a literal, a format! of
 * one or String::from of one.  `msg.push_str(...)`, `write!(msg, ...)` and
 * `msg += ...` append: the message goes on at run time. */

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
char *rs_var_msg(const rs_st *st, size_t b, size_t e)
{
	const fl_toks *t = st->t;
	size_t fn = st->cs[st->csn - 1].fn_tok;
	if (!fn || e != b + 1 || t->v[b].kind != FL_TK_IDENT)
		return NULL;
	return fl_var_arg_msg(t, st->m, fn, &b, &e, 1, rs_decl, var_expr_msg, st);
}

/* The message of argument [b, e): a literal (rs_lit_expr) or a local
 * variable holding one. */
char *rs_arg_msg(const rs_st *st, size_t b, size_t e)
{
	if (rs_lit_expr(st->t, st->m, b, e))
		return rs_msg(st->t, st->m, b, e, false, 0);
	return rs_var_msg(st, b, e);
}

/* ---- the text a helper of the file returns ----------------------------------
 * `Err(From::from(suggest_multiline(err.to_string())))` where the file has
 * `fn suggest_multiline(msg: String) -> String { if .. { format!("{}\n\n
 * Consider enabling multiline mode ...", msg) } else { msg } }`: the error
 * holds the text the helper formats.  Only a free fn of the same file that
 * returns a String, whose returned values hold one such text (a format!
 * at the tail of a block or after `return`; other branches may hand on a
 * value unchanged). */

/* the '{' of the body of the fn named like token nt, declared in the file
 * to return a String; NONE when there is none or several */
static size_t text_fn_body(const rs_st *st, size_t nt)
{
	const fl_toks *t = st->t;
	size_t found = NONE;
	for (size_t k = 0; k + 2 < t->n; k++) {
		if (t->v[k].kind != FL_TK_IDENT || t->v[k].len != 2 || !fl_tok_is(t, k, "fn") ||
		    t->v[k + 1].len != t->v[nt].len ||
		    memcmp(t->src + t->v[k + 1].off, t->src + t->v[nt].off, t->v[nt].len) != 0)
			continue;
		size_t o = k + 2;
		if (fl_tok_pch(t, o) != '(' || st->m[o] == NONE)
			return NONE; /* generics: not a plain helper */
		size_t c = st->m[o];
		if (!fl_tok_is_punct(t, c + 1, "->") || !fl_tok_is(t, c + 2, "String") ||
		    fl_tok_pch(t, c + 3) != '{' || st->m[c + 3] == NONE || found != NONE)
			return NONE;
		found = c + 3;
	}
	return found;
}

char *rs_call_text(const rs_st *st, size_t b, size_t e)
{
	const fl_toks *t = st->t;
	if (e - b < 3 || t->v[b].kind != FL_TK_IDENT || fl_tok_pch(t, b + 1) != '(' ||
	    st->m[b + 1] != e - 1 || (b > 0 && (fl_tok_pch(t, b - 1) == '.' || fl_tok_is_punct(t, b - 1, "::"))))
		return NULL;
	size_t body = text_fn_body(st, b);
	if (body == NONE)
		return NULL;
	char *text = NULL;
	for (size_t k = body + 1; k + 3 < st->m[body]; k++) {
		if (!fl_tok_is(t, k, "format") || fl_tok_pch(t, k + 1) != '!' || !fl_tok_is_opener(t, k + 2) ||
		    st->m[k + 2] == NONE || t->v[k + 3].kind != FL_TK_STRING)
			continue;
		size_t end = st->m[k + 2] + 1;
		char before = fl_tok_pch(t, k - 1);
		bool tail = fl_tok_pch(t, end) == '}' &&
			    (before == '{' || before == '}' || before == ';' || fl_tok_is_punct(t, k - 1, "=>"));
		bool ret = fl_tok_is(t, k - 1, "return") && fl_tok_pch(t, end) == ';';
		if (!tail && !ret)
			continue;
		char *s = rs_msg(t, st->m, k, end, false, 0);
		if (!s || !rs_has_text(s) || (text && strcmp(s, text) != 0)) {
			free(s);
			free(text);
			return NULL;
		}
		free(text);
		text = s;
		k = end - 1;
	}
	return text;
}
