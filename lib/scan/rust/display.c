/*
 * display.c — an error type's `impl Display` (rust.h): the type an impl is
 * for, whether it is an error's Display, and in its fn fmt the texts each
 * arm gives (a literal arm, write! / writeln!, a run of f.write_str(..)
 * calls), each the message of the arm's variant and noted for the tree.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "rust.h"

/* name of the type of impl/trait header tokens (i = impl/trait, body brace) */
char *rs_impl_type(const rs_st *st, size_t i, size_t brace)
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
 * type by its name (ParseError, ErrorCode, ErrorKind, DecodeErr), or a
 * warning's (hyperfine's Warnings, printed after "Warning: ") */
bool rs_display_of_error(const rs_st *st, size_t i, size_t brace, const char *ty)
{
	const fl_toks *t = st->t;
	if (!ty || !fl_tok_is(t, i, "impl") ||
	    !(strstr(ty, "Error") || strstr(ty, "Warning") || (strlen(ty) > 3 && fl_str_ends(ty, "Err"))))
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
/* The pattern of the arm the current token is in, [*b, *e) (NONE: none):
 * the arm's own, or the one whose block body holds it. */
static void arm_pattern(const rs_st *st, size_t *b, size_t *e)
{
	const rs_ctx *c = &st->cs[st->csn - 1];
	*b = *e = NONE;
	if (c->is_match && c->arm == 1) {
		*b = c->ab;
		*e = c->ae;
	} else if (c->has_guard && !c->neg && st->csn > 1 && st->cs[st->csn - 2].is_match) {
		*b = c->gb;
		*e = c->ge;
	}
}

static char *display_class(const rs_st *st, const char *ty)
{
	const fl_toks *t = st->t;
	size_t b, e;
	arm_pattern(st, &b, &e);
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

/* The fields the arm's pattern holds as `Some(..)` (`E::V { glob:
 * Some(ref glob), ref err }`): "glob", a list with ',' between; NULL when
 * none. */
static char *arm_some_fields(const rs_st *st)
{
	const fl_toks *t = st->t;
	size_t b, e;
	arm_pattern(st, &b, &e);
	if (b == NONE || e == NONE)
		return NULL;
	fl_buf out = {0};
	for (size_t k = b; k + 3 < e && k + 3 < t->n; k++)
		if (t->v[k].kind == FL_TK_IDENT && fl_tok_pch(t, k + 1) == ':' &&
		    !fl_tok_is_punct(t, k + 1, "::") && fl_tok_is_ident(t, k + 2, "Some") &&
		    fl_tok_pch(t, k + 3) == '(') {
			if (out.n)
				fl_buf_putc(&out, ',');
			fl_buf_put(&out, t->src + t->v[k].off, t->v[k].len);
		}
	if (!out.n)
		return NULL;
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
	const char *ty = st->cs[st->csn - 1].display;
	char *cls = display_class(st, ty);
	bool warn = strstr(ty, "Warning") && !strstr(ty, "Error");
	rs_emit(st, at, msg, NULL, cls, warn ? FL_T_CONSOLE : FL_T_EXCEPTION,
		warn ? FL_S_WARNING : FL_S_ERROR, idiom, NONE, NONE);
	char *some = arm_some_fields(st);
	rs_note_variant(st, cls, msg, some);
	free(some);
	free(cls);
}

/* `Self::Eof => "unexpected end of input",`: the string literal at k */
void rs_display_literal_arm(rs_st *st, size_t k)
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
void rs_display_writes(rs_st *st, size_t s, const char *idiom)
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
