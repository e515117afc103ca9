/*
 * lex.h — the shared token model and the helpers language files build on.
 *
 * A language's lexer turns fl_src into an fl_toks list: identifiers,
 * strings (with their decoded text), numbers, punctuation.  Comments and
 * whitespace produce no tokens.  Rules then walk the tokens.
 *
 * Owns: fl_buf (growable string), fl_toks (token list + decoded string
 * arena), bracket matching, argument splitting, and message reconstruction
 * from an argument expression (records.md "Messages").
 */
#ifndef FL_SCAN_LEX_H
#define FL_SCAN_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util.h"
#include "lang.h"

/* ---- tokens --------------------------------------------------------------- */

enum {
	FL_TK_IDENT = 1,  /* identifiers and keywords */
	FL_TK_STRING,     /* any string literal; decoded text via fl_tok_str() */
	FL_TK_NUMBER,
	FL_TK_CHAR,       /* character literal ('a' in C/Rust/Java...) */
	FL_TK_PUNCT,      /* operators and brackets; multi-char operators are
			     one token ("::", "->", "=>", "!=", ...), brackets
			     are always single-char tokens */
	FL_TK_OTHER,      /* anything else (stray bytes, regex literals...) */
};

/* token flags */
#define FL_TF_INTERP 0x01  /* string had interpolations (f"", `${}`, "#{}") */
#define FL_TF_RAW 0x02     /* raw / verbatim string */
#define FL_TF_BYTES 0x04   /* byte string (b"" in Rust/Python) */
#define FL_TF_NL_BEFORE 0x08 /* a newline separates this token from the previous */

typedef struct fl_tok {
	uint8_t kind;
	uint8_t flags;
	uint32_t off, len;   /* raw span in the source */
	int line, col;       /* 1-based */
	uint32_t str;        /* STRING: offset of decoded text in the arena */
	uint32_t slen;       /* STRING: length of decoded text */
} fl_tok;

typedef struct fl_toks {
	fl_tok *v;
	size_t n, cap;
	fl_buf arena;        /* decoded string texts, each NUL-terminated */
	const char *src;
	size_t srclen;
	/* lexer position helpers */
	size_t pos;
	int line;
	size_t line_start;
	bool nl;             /* a newline was seen since the last token */
	/* bracket match table, built on first use by fl_tok_match */
	size_t *match;
	size_t match_n;
} fl_toks;

void fl_toks_init(fl_toks *t, const fl_src *src);
void fl_toks_free(fl_toks *t);

/* Append a token spanning src[off, off+len) starting at line/col. */
fl_tok *fl_toks_push(fl_toks *t, int kind, size_t off, size_t len, int line,
		     int col);
/* Decoded string text of a STRING token: start before decoding, then put
 * bytes into t->arena with fl_buf_*, then end to attach it to tok. */
void fl_toks_str_begin(fl_toks *t, fl_tok *tok);
void fl_toks_str_end(fl_toks *t, fl_tok *tok);
const char *fl_tok_str(const fl_toks *t, const fl_tok *tok);

/* Lexer cursor helpers over t->src (t->pos, t->line, t->line_start). */
static inline int fl_lx_peek(const fl_toks *t, size_t ahead)
{
	size_t p = t->pos + ahead;
	return p < t->srclen ? (unsigned char)t->src[p] : -1;
}
/* advance one byte, tracking lines */
void fl_lx_adv(fl_toks *t);
static inline int fl_lx_col(const fl_toks *t)
{
	return (int)(t->pos - t->line_start) + 1;
}
/* Skip whitespace; sets t->nl when a newline was crossed. */
void fl_lx_skip_ws(fl_toks *t);
/* Lex an identifier [A-Za-z_$0-9 and bytes >= 0x80] starting at t->pos. */
void fl_lx_ident(fl_toks *t, bool dollar_ok);
/* Lex a number (digits, letters, '.', '_', exponent signs). */
void fl_lx_number(fl_toks *t);
/* Lex punctuation: the longest of ops (NULL-terminated list of multi-char
 * operators) or a single byte. */
void fl_lx_punct(fl_toks *t, const char *const *ops);
/* Decode one backslash escape at t->pos (pointing at the backslash) into
 * b: \n \t \r \0 \\ \' \" \a \b \f \v \e, \xHH, \uHHHH, \u{H..}, \UHHHHHHHH,
 * octal \NNN.  Unknown escapes keep the character after the backslash. */
void fl_lx_escape(fl_toks *t, fl_buf *b);
/* Skip a block comment from t->pos (pointing at open) to after close;
 * nested when nest is true.  Unterminated: stops at end of input. */
void fl_lx_block_comment(fl_toks *t, const char *open, const char *close,
			 bool nest);
/* Skip to end of line (not consuming the newline). */
void fl_lx_line_comment(fl_toks *t);

/* ---- token queries --------------------------------------------------------- */

/* raw text equality */
bool fl_tok_is(const fl_toks *t, size_t i, const char *s);
bool fl_tok_is_ident(const fl_toks *t, size_t i, const char *s);
bool fl_tok_is_punct(const fl_toks *t, size_t i, const char *s);
/* Copy of a token's raw text (caller frees). */
char *fl_tok_dup(const fl_toks *t, size_t i);
/* Index of the bracket closing the one at i ("(", "[", "{"), or t->n. */
size_t fl_tok_match(const fl_toks *t, size_t i);
/* A bracket-match table for the whole token list (caller frees): m[i] is
 * the index of the bracket matching bracket i, or (size_t)-1.
 *   FL_MATCH_STRICT: a closer matches only the opener on top of the stack
 *     (a stray closer is ignored); both ends are recorded.
 *   FL_MATCH_RECOVER: a closer may skip up to 16 unclosed openers of other
 *     kinds to find its own; only openers record their closer. */
enum { FL_MATCH_STRICT, FL_MATCH_RECOVER };
size_t *fl_tok_match_table(const fl_toks *t, int mode);
/* Split the arguments of a bracketed list opened at `open` at depth-0
 * commas: arg k spans tokens [starts[k], ends[k]).  Returns the number of
 * arguments (0 for "()"), at most max are stored.  *close gets the index of
 * the closing bracket (t->n when unbalanced). */
size_t fl_tok_args(const fl_toks *t, size_t open, size_t *starts, size_t *ends,
		   size_t max, size_t *close);
/* Source text of tokens [b, e) with runs of whitespace folded to one space,
 * cut to max bytes (with "..." appended when cut).  Caller frees. */
char *fl_tok_span_text(const fl_toks *t, size_t b, size_t e, size_t max);

/* ---- messages --------------------------------------------------------------- */

typedef struct fl_msg_opts {
	/* binary concatenation operators, e.g. {"+", NULL} or {".", NULL} */
	const char *const *concat_ops;
	/* adjacent string literals are joined (C, C++, Python) */
	bool adjacent_join;
	/* translation wrappers unwrapped around a literal: {"_", "N_", NULL} */
	const char *const *wrappers;
	/* in C, an identifier between adjacent literals (PRIu64 etc.) becomes a
	 * placeholder {NAME} */
	bool macro_between_literals;
} fl_msg_opts;

/* Reconstruct the message of the expression tokens [b, e):
 * string literals give their decoded text, concatenated / adjacent literals
 * are joined, any other operand becomes "{name}" with name its last
 * identifier (records.md).  Returns NULL when the expression holds no string
 * literal at all.  Caller frees. */
char *fl_msg_from_expr(const fl_toks *t, size_t b, size_t e,
		       const fl_msg_opts *o);

/* Append the placeholder of a macro between adjacent literals: {NAME}; a
 * printf length macro ("%" PRIu64) replaces the "%" and flags before it. */
void fl_msg_put_macro(fl_buf *out, const char *name, size_t len);

/* Trailing newlines and spaces removed in place (records.md). */
void fl_msg_trim(char *s);

#endif
