/*
 * rust.h — what the files of the Rust family share (lib/scan/rust/): the
 * scan's state and its context stack, token helpers, and the functions one
 * file of the family calls in another.
 *
 *   lex.c       the lexer: nested block comments, raw / byte / C strings,
 *               char literals vs lifetimes, string continuation, raw
 *               identifiers
 *   msg.c       messages built from argument tokens: literals, format! /
 *               format_args! / concat!, String::from, concatenations, and
 *               messages held in a local variable (`let msg =
 *               format!(...); bail!(msg)`)
 *   context.c   the context stack: what each block is (fn, impl, enum,
 *               match and its arms, if / while / else / let-else, a test),
 *               announced by the keywords and attributes before its '{'
 *   guard.c     a site's guard (its block's, its match arm's, an
 *               assertion's failing condition, a receiver's failure:
 *               x.is_none() / x.is_err()) and the emitting of a site
 *   rules.c     the error-site rules by idiom (panic!-family, assert!-family
 *               with a message, .expect(), anyhow / eyre macros and
 *               context, io::Error::new / other, Err("..."), compiler-style
 *               diagnostics builders, shell warnings and errors,
 *               warnings.push / errors.push, axum's rejections), and
 *               rs_rule_call, which dispatches to them
 *   variants.c  what the tree keeps of a file for the others: error enums'
 *               variants (thiserror's #[error(...)], an error's Display),
 *               raised wherever they are built; a project's reporters and
 *               error factories, raised where they are called
 *   display.c   an error type's `impl Display`: the texts its fmt writes,
 *               each the message of its arm's variant
 *   lang.c      the walk over a file's tokens, the scan, the collect pass
 *               and early scan, and the family's entry in the language
 *               table
 *
 * The scan is one function per idiom: rs_track_arm / rs_track_keyword /
 * rs_track_attr keep the context, rs_rule_call dispatches to the rules.
 * An error enum's variant says its message where it is declared (its
 * #[error("...")], its arm of the type's Display) and is raised where it
 * is built (`return Err(RustupError::ToolchainNotInstalled { name })`):
 * the tree's collect pass keeps each variant's message (an fl_factories
 * keyed "Enum::Variant"), and every construction of it, in any file,
 * becomes a site with that message (rs_rule_variant).
 */
#ifndef FL_SCAN_RUST_H
#define FL_SCAN_RUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

#define NONE ((size_t)-1)
#define SCAN_LIMIT 256   /* max tokens a forward/backward look-around visits */
#define MAX_ARGS 8

/* ---- the scan's state -------------------------------------------------------- */

/* a block announced before its '{' (its kind one of context.c's P_*) */
typedef struct {
	size_t brace;
	int kind;
	char *name;
	size_t gb, ge;
} rs_pend;

/* a block's context: a level of rs_st's stack */
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

/* one file's scan */
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
	struct {
		size_t call, fn, na;
	} *fwd;               /* calls that hand a parameter of the enclosing
				 fn (token fn) on: reporters that forward
				 (rs_reporters_forward), collecting only */
	size_t nfwd, cfwd;
	char *guard;          /* the next site's own guard (an assertion's
				 failing condition, a receiver's failure):
				 set by rs_emit_guarded for that one site */
} rs_st;

/* ---- token helpers ------------------------------------------------------------ */

/* the arguments of the bracket at open (at most MAX_ARGS) */
static inline size_t rs_args(const fl_toks *t, const size_t *m, size_t open,
			     size_t *sb, size_t *se)
{
	return fl_tok_split_args(t, m, open, sb, se, MAX_ARGS, NULL, 0);
}

/* token i is one of the names of l (NULL-terminated) */
static inline bool rs_in_list(const fl_toks *t, size_t i, const char *const *l)
{
	for (; *l; l++)
		if (fl_tok_is(t, i, *l))
			return true;
	return false;
}

/* an identifier ending in Error (ParseError, io::Error's Error) */
static inline bool rs_ends_with_error(const fl_toks *t, size_t i)
{
	const fl_tok *k = &t->v[i];
	return k->kind == FL_TK_IDENT && k->len >= 5 &&
	       memcmp(t->src + k->off + k->len - 5, "Error", 5) == 0;
}

/* an identifier that starts with a capital: a type's or a variant's name */
static inline bool rs_upper_ident(const fl_toks *t, size_t i)
{
	return i < t->n && t->v[i].kind == FL_TK_IDENT && t->src[t->v[i].off] >= 'A' &&
	       t->src[t->v[i].off] <= 'Z';
}

/* ---- functions of one file called by another --------------------------------- */

/* lex.c */
/* Lex the source of t (fl_toks_init done). */
void rs_lex(fl_toks *t);

/* msg.c */
/* The message of the argument expression [b, e) (fmt: a format string's,
 * its doubled braces undoubled), or NULL; caller frees. */
char *rs_msg(const fl_toks *t, const size_t *m, size_t b, size_t e, bool fmt, int depth);
/* true when the message has a letter outside `{...}` placeholders */
bool rs_has_text(const char *m);
/* [b, e) is a message literal: "..." (optionally .into()/.to_string()...)
 * or format!("...", ...) spanning it whole */
bool rs_lit_expr(const fl_toks *t, const size_t *m, size_t b, size_t e);
/* The message the lone local variable [b, e) holds, or NULL. */
char *rs_var_msg(const rs_st *st, size_t b, size_t e);
/* The message of argument [b, e): a literal (rs_lit_expr) or a local
 * variable holding one. */
char *rs_arg_msg(const rs_st *st, size_t b, size_t e);
/* The text the call [b, e) of a helper of the file returns (`fn
 * suggest(msg: String) -> String { .. format!("{}\n\nConsider ...", msg) ..
 * }`), or NULL. */
char *rs_call_text(const rs_st *st, size_t b, size_t e);

/* lang.c */
/* The early scan looked name[0..n) up in the tree, for a call of nargs
 * arguments of which those in mask (bit k: argument k) may give a text:
 * into its log.  UINT32_MAX: any lookup that finds it counts. */
void rs_log_lookup(rs_st *st, const char *name, size_t n, size_t nargs, uint32_t mask);

/* context.c */
/* The block whose '{' is token k: its context pushed, from its parent's
 * and what was announced for it. */
void rs_ctx_push(rs_st *st, size_t k);
/* The '}' at token k: the contexts of its block (and of those left open
 * inside it) popped. */
void rs_ctx_pop(rs_st *st, size_t k);
void rs_ctx_free(rs_ctx *c);
/* match arm bookkeeping at token i (c: its punctuation) */
void rs_track_arm(rs_st *st, size_t i, char c);
/* fn / impl / trait / enum / if / while / match at the identifier i: what
 * the context of their body will be */
void rs_track_keyword(rs_st *st, size_t i);
/* `#![...]` / `#[...]` at '#' i: test attributes, #[error(...)], #[body] */
void rs_track_attr(rs_st *st, size_t i);

/* guard.c */
/* Add a site at token at, guarded by [gb, ge) (NONE: its context's guard);
 * none when it has no code and no message with text of its own, or when
 * only collecting. */
void rs_emit(rs_st *st, size_t at, const char *msg, const char *code, const char *cls,
	     const char *type, const char *sev, const char *idiom, size_t gb, size_t ge);
/* rs_emit() with the site's own guard g (owned; NULL: its context's) */
void rs_emit_guarded(rs_st *st, size_t at, const char *msg, const char *cls, const char *type,
		     const char *sev, const char *idiom, char *g);
/* receiver expression ending before token end (exclusive); returns start */
size_t rs_receiver(const rs_st *st, size_t end);
/* the guard of an error made from the receiver [rb, dot): its failure,
 * `x.is_none()` (option) or `x.is_err()`; NULL when it has none */
char *rs_recv_guard(const rs_st *st, size_t rb, size_t dot, bool option);
/* anyhow!/format_err!/eyre! at i as the error of a failed Option or
 * Result (x.ok_or_else(|| ...), x.ok_or(...), x.map_err(|e| ...)): the
 * receiver's guard, or NULL */
char *rs_closure_recv_guard(const rs_st *st, size_t i);

/* rules.c */
/* axum's rejections: `#[status = ...] #[body = "..."]` on a struct, at the
 * body attribute '#' i */
void rs_rule_status_body(rs_st *st, size_t i);
/* the rules that start at an identifier followed by '!', '(' or '::', or
 * at a '.' two tokens before a '(' */
void rs_rule_call(rs_st *st, size_t i);
/* The family of the macro named at token i: 0 panic!-family and
 * assertions, 1 anyhow! / bail! / ensure!, 2 eprintln!, 3 error! / warn!,
 * -1 none; *ai the argument its format is (an assertion's after its
 * condition). */
int rs_macro_family(const fl_toks *t, size_t i, size_t *ai);

/* reporters.c */
/* A project's reporter: the eprintln! at i, the whole body of a function,
 * prints its parameter [ab, ae) in the text msg; kept in the tree as
 * "rep:NAME". */
void rs_note_reporter(rs_st *st, size_t i, const char *msg, size_t ab, size_t ae);
/* A free function that makes an error of its one parameter (its name at
 * token name, its body's '{' at body): kept in the tree as "rep:NAME". */
void rs_note_error_factory(rs_st *st, size_t name, size_t body);
/* The macro at i (rule_macro's which: 0 panic!, 1 anyhow!-family, 2
 * eprintln!, 3 error!/warn!), its arguments [sb, se) and format at ai:
 * when it prints or raises a parameter of the enclosing fn, that fn is a
 * reporter of parameters ("rep:NAME" / "rem:NAME"), collecting only. */
void rs_note_param_reporter(rs_st *st, size_t i, int which, const size_t *sb, const size_t *se, size_t na,
			    size_t ai);
/* After a file's walk: the fns that hand a parameter on to a reporter of
 * the file, reporters too (rounds until none is added). */
void rs_reporters_forward(rs_st *st);
/* A call NAME(...) at the identifier i, or a method call .NAME(...) at the
 * '.' dot, of a reporter the tree knows: its site (scanning as if the tree
 * were empty, the name logged). */
bool rs_rule_reporter_call(rs_st *st, size_t i);
bool rs_rule_reporter_method(rs_st *st, size_t dot);
/* `macro_rules! NAME { ... }` at i: a macro that passes its arguments on
 * to one that prints, raises or formats them is kept as "mac:NAME",
 * collecting only. */
void rs_note_macro_reporter(rs_st *st, size_t i);
/* A call NAME!("...", ...) at i of a macro the tree keeps: its site
 * (scanning as if the tree were empty, the name logged). */
bool rs_rule_macro_reporter(rs_st *st, size_t i);

/* variants.c */
/* The message of variant cls ("Enum::Variant") into the file's part of
 * the tree; some: the fields an arm's pattern holds as `Some(..)` for it
 * (a list, ',' between; NULL: none), kept in the factory's cond. */
void rs_note_variant(rs_st *st, const char *cls, const char *msg, const char *some);
/* #[error("...")] at '#' i */
void rs_rule_thiserror(rs_st *st, size_t i);
/* `Enum::Variant...` or `Self::Variant...` built at the identifier i
 * (`Enum`): its site when the tree knows its message. */
bool rs_rule_variant(rs_st *st, size_t i);
/* `use ...;` at token i: the enums and the variants it imports. */
void rs_track_use(rs_st *st, size_t i);
/* A variant the file imported, built by its bare name at token i. */
void rs_rule_bare_variant(rs_st *st, size_t i);

/* display.c */
/* name of the type of impl/trait header tokens (i = impl/trait, body brace) */
char *rs_impl_type(const rs_st *st, size_t i, size_t brace);
/* `impl fmt::Display for T` (impl at i, body at brace), T an error type by
 * its name */
bool rs_display_of_error(const rs_st *st, size_t i, size_t brace, const char *ty);
/* `Self::Eof => "unexpected end of input",`: the string literal at k */
void rs_display_literal_arm(rs_st *st, size_t k);
/* The writes to the formatter from the one at token s (write!,
 * f.write_str(...)) to the last of the statements that follow it: one
 * message. */
void rs_display_writes(rs_st *st, size_t s, const char *idiom);

#endif
