/*
 * variants.c — what the tree keeps of a Rust file for the others, and its
 * uses (rust.h): the messages of error enums' variants (thiserror's
 * #[error("...")], an arm of an error's Display) and every construction of
 * a variant, by its path (`E::V`, `Self::V(..)`) or by a name a `use`
 * imports, as a site with that message.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rust.h"

/* ---- error variants declared ------------------------------------------------- */

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

/* The message of variant cls ("Enum::Variant", or a longer path whose
 * last two names are kept) into the file's part of the tree. */
void rs_note_variant(rs_st *st, const char *cls, const char *msg, const char *some)
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
	fl_factory f = {.name = fl_xstrdup(b), .msg = fl_xstrdup(msg), .cls = fl_xstrdup(cls),
			.cond = some && *some ? fl_xstrdup(some) : NULL};
	fl_factories_add(st->part, &f);
}

/* #[error("...")] at '#' i */
void rs_rule_thiserror(rs_st *st, size_t i)
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
	rs_emit(st, i, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, "#[error]", NONE, NONE);
	rs_note_variant(st, cls, msg, NULL);
	free(msg);
	free(cls);
}

/* ---- error variants built ---------------------------------------------------- */

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

/* Whether the struct variant built at [b, e) (`E::V { glob: None, err }`)
 * sets to None one of the fields named in some (a list, ',' between):
 * those a Display arm's pattern holds as `Some(..)` to give its text
 * (`E::V { glob: Some(ref glob), .. } => write!(f, "error parsing glob
 * '{}': {}", ..)`), which is then not this value's. */
static bool sets_none(const rs_st *st, size_t b, size_t e, const char *some)
{
	const fl_toks *t = st->t;
	for (size_t k = b; k + 2 < e && k + 2 < t->n; k++) {
		if (t->v[k].kind != FL_TK_IDENT || fl_tok_pch(t, k + 1) != ':' ||
		    fl_tok_is_punct(t, k + 1, "::") || !fl_tok_is_ident(t, k + 2, "None"))
			continue;
		for (const char *p = some; *p;) {
			const char *q = strchr(p, ',');
			size_t l = q ? (size_t)(q - p) : strlen(p);
			if (l == t->v[k].len && memcmp(p, t->src + t->v[k].off, l) == 0)
				return true;
			p += l + (q ? 1 : 0);
		}
	}
	return false;
}

/* `Enum::Variant`, `Enum::Variant(..)`, `Enum::Variant { .. }` or
 * `Self::Variant...` built at the identifier i (`Enum`): a site with the
 * message the tree holds for that variant.  Scanning as if the tree were
 * empty (collect_scan), the name is logged instead. */
bool rs_rule_variant(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if (!rs_upper_ident(t, i) || !rs_upper_ident(t, i + 2) || fl_tok_is_punct(t, i + 3, "::") ||
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
		rs_log_lookup(st, name, n, 0, UINT32_MAX);
		return false;
	}
	const fl_factory *f = fl_factories_find(st->tree, name, n, 0);
	if (!f || variant_pattern(st, b, e) || variant_copied(st, v, vl) ||
	    (f->cond && sets_none(st, b, e, f->cond)))
		return false;
	/* the idiom: the variant built, as `Enum::Variant`; in
	 * x.ok_or_else(|| E::V) or x.map_err(|_| E::V), raised when x fails */
	rs_emit_guarded(st, b, f->msg, f->cls, FL_T_EXCEPTION, FL_S_ERROR, name, rs_closure_recv_guard(st, b));
	return true;
}

/* `use ...;` at token i: the enums whose variants it imports whole
 * (`E::*`) and the variants it imports by name (`E::V`, `E::{V, W as X}`,
 * E a type's name: it starts with a capital). */
void rs_track_use(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t owner = NONE; /* the enum of a `E::{...}` group */
	size_t k = i + 1;
	for (; k < t->n && k < i + SCAN_LIMIT && fl_tok_pch(t, k) != ';'; k++) {
		if (fl_tok_is_punct(t, k, "::") && k > i + 1 && rs_upper_ident(t, k - 1)) {
			if (fl_tok_pch(t, k + 1) == '*') {
				char *g = fl_tok_dup(t, k - 1);
				fl_strv_push(&st->globs, g);
				free(g);
			} else if (fl_tok_pch(t, k + 1) == '{') {
				owner = k - 1;
			} else if (rs_upper_ident(t, k + 1) && !fl_tok_is_punct(t, k + 2, "::") && owner == NONE) {
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
		if (owner != NONE && rs_upper_ident(t, k) && !fl_tok_is_punct(t, k - 1, "::") &&
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
void rs_rule_bare_variant(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if ((!st->tree && !st->log) || !rs_upper_ident(t, i) || fl_tok_is_punct(t, i + 1, "::") ||
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
