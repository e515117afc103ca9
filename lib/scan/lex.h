/*
 * lex.h — the shared token model and the helpers language files build on.
 *
 * A language's lexer turns fl_src into an fl_toks list: identifiers,
 * strings (with their decoded text), numbers, punctuation.  Comments and
 * whitespace produce no tokens.  Rules then walk the tokens.
 *
 * Owns: fl_buf (growable string), fl_toks (token list + decoded string
 * arena), the lexer primitives every language shares (cursor, identifiers,
 * numbers, punctuation, escapes, comments), bracket matching, argument
 * splitting, message reconstruction from an argument expression
 * (records.md "Messages"), and the rule helpers several languages share
 * (scope stack, HTTP status names).  A language file keeps only what is
 * its own.
 */
#ifndef FL_SCAN_LEX_H
#define FL_SCAN_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../util.h"
#include "faultline.h"
#include "lang.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
	/* with br_ok (set by fl_toks_init): the index of every one-byte
	 * bracket token, in order, as fl_toks_push() saw them, so that
	 * fl_tok_match_table() visits those only */
	uint32_t *br;
	size_t brn, brcap;
	bool br_ok;
} fl_toks;

void fl_toks_init(fl_toks *t, const fl_src *src);
/* A file's budget of token reads for finding the function a call names
 * (the helpers whose returned text is a raise's message: one pass over
 * the file's tokens each): set by a language's scan of a file before its
 * rules run, spent by the lookups, so that a file of thousands of such
 * calls stays linear.  fl_helper_budget_take() says whether a pass of n
 * tokens is still allowed, and spends it. */
void fl_helper_budget_reset(size_t ntoks);
bool fl_helper_budget_take(size_t ntoks);
/* One more of a helper's returned texts, m (taken over; NULL: not a text),
 * *text holding the first: true while every one is the same text; false,
 * both freed and *text NULL, when m is none or another (the helper
 * returns no one text). */
bool fl_same_text(char **text, char *m);
void fl_toks_free(fl_toks *t);

/* Append a token spanning src[off, off+len) starting at line/col (inline:
 * every lexer calls it for every token). */
void fl_toks_grow(fl_toks *t);
void fl_toks_br_grow(fl_toks *t);
/* Byte classes: 1 identifier byte ([A-Za-z0-9_] and >= 0x80), 2 '$',
 * 4 blank other than a newline (space, \t, \r, \f, \v), 8 bracket,
 * 16 FL_LX_OP_TAIL (a multi-byte operator's second byte), 32 newline. */
extern const uint8_t fl_lx_class[256];
static inline fl_tok *fl_toks_push(fl_toks *t, int kind, size_t off, size_t len,
				   int line, int col)
{
	if (t->n == t->cap)
		fl_toks_grow(t);
	if (kind == FL_TK_PUNCT && len == 1 && (fl_lx_class[(unsigned char)t->src[off]] & 8)) {
		if (t->brn == t->brcap)
			fl_toks_br_grow(t);
		t->br[t->brn++] = (uint32_t)t->n;
	}
	fl_tok *k = &t->v[t->n++];
	*k = (fl_tok){.kind = (uint8_t)kind, .off = (uint32_t)off, .len = (uint32_t)len,
		      .line = line, .col = col,
		      .flags = t->nl ? FL_TF_NL_BEFORE : 0};
	t->nl = false;
	return k;
}
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
/* Advance t->pos to p (clamped to the end), counting the newlines crossed
 * (t->nl is left alone). */
void fl_lx_adv_to(fl_toks *t, size_t p);
static inline int fl_lx_col(const fl_toks *t)
{
	return (int)(t->pos - t->line_start) + 1;
}
/* The end of the run of spaces and tabs at p.  With SSE2, 16 bytes at a
 * time: a run (one space between tokens, or a line's indentation) ends
 * without the branch per byte whose exit the processor mispredicts. */
static inline size_t fl_lx_blank_end(const char *s, size_t p, size_t n)
{
#if defined(__SSE2__)
	const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
	while (p + 16 <= n) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tab)));
		unsigned k = (unsigned)__builtin_ctz(~m); /* <= 16 */
		p += k;
		if (k < 16)
			return p;
	}
#endif
	while (p < n && (s[p] == ' ' || s[p] == '\t'))
		p++;
	return p;
}
/* The end of the identifier bytes at p: [A-Za-z0-9_], bytes >= 0x80, and
 * '$' when dollar (fl_lx_class & 1, or & 3).  SSE2 as above: identifiers
 * are 1-30 bytes, their ends a mispredicted branch each byte by byte. */
static inline size_t fl_lx_ident_end(const char *s, size_t p, size_t n, bool dollar)
{
#if defined(__SSE2__)
	const __m128i zero = _mm_setzero_si128();
	while (p + 16 <= n) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
		/* letters: c | 0x20 in a..z (bytes >= 0x80 are negative) */
		__m128i lo = _mm_or_si128(v, _mm_set1_epi8(0x20));
		__m128i ok = _mm_and_si128(_mm_cmpgt_epi8(lo, _mm_set1_epi8('a' - 1)),
					   _mm_cmplt_epi8(lo, _mm_set1_epi8('z' + 1)));
		ok = _mm_or_si128(ok, _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
						    _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1))));
		ok = _mm_or_si128(ok, _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
		ok = _mm_or_si128(ok, _mm_cmplt_epi8(v, zero));
		if (dollar)
			ok = _mm_or_si128(ok, _mm_cmpeq_epi8(v, _mm_set1_epi8('$')));
		unsigned m = (unsigned)_mm_movemask_epi8(ok);
		unsigned k = (unsigned)__builtin_ctz(~m); /* <= 16 */
		p += k;
		if (k < 16)
			return p;
	}
#endif
	uint8_t want = dollar ? 3 : 1;
	while (p < n && (fl_lx_class[(unsigned char)s[p]] & want))
		p++;
	return p;
}
/* Skip whitespace; sets t->nl when a newline was crossed. */
static inline void fl_lx_skip_ws(fl_toks *t)
{
	const char *s = t->src;
	size_t p = t->pos, n = t->srclen;
	while (p < n) {
		unsigned char c = (unsigned char)s[p];
		if (!(fl_lx_class[c] & 36)) /* a token: one test */
			break;
		if (c == '\n') {
			t->nl = true;
			t->line++;
			t->line_start = ++p;
		} else if (c == ' ' || c == '\t') {
			p = fl_lx_blank_end(s, p + 1, n);
		} else {
			p++;
		}
	}
	t->pos = p;
}
/* Lex an identifier [A-Za-z_$0-9 and bytes >= 0x80] starting at t->pos. */
static inline void fl_lx_ident(fl_toks *t, bool dollar_ok)
{
	size_t start = t->pos, p;
	int col = fl_lx_col(t);
	p = fl_lx_ident_end(t->src, start, t->srclen, dollar_ok);
	if (p == start)
		p++;
	t->pos = p;
	fl_toks_push(t, FL_TK_IDENT, start, p - start, t->line, col);
}
/* Lex a number (digits, letters, '.', '_', exponent signs). */
void fl_lx_number(fl_toks *t);
/* Lex punctuation: the longest of ops (NULL-terminated list of multi-char
 * operators) or a single byte.  Brackets are always one byte.  Fast path:
 * when the next byte is not one of FL_LX_OP_TAIL the token is one byte
 * without looking at ops, so every operator's second byte must be in it. */
#define FL_LX_OP_TAIL "!#$%&*+-./:<=>?@\\^|~"
void fl_lx_punct_ops(fl_toks *t, const char *const *ops);
static inline void fl_lx_punct(fl_toks *t, const char *const *ops)
{
	size_t start = t->pos;
	if (ops && start + 1 < t->srclen &&
	    (fl_lx_class[(unsigned char)t->src[start + 1]] & 16) &&
	    !(fl_lx_class[(unsigned char)t->src[start]] & 8)) {
		fl_lx_punct_ops(t, ops);
		return;
	}
	int col = fl_lx_col(t);
	t->pos++;
	fl_toks_push(t, FL_TK_PUNCT, start, 1, t->line, col);
}
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
/* Value of a hex digit, or -1 (inline: every lexer decodes escapes with
 * it, and the JDK's character tables, long runs of unicode escapes such
 * as \u0041, call it millions of times). */
static inline int fl_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
/* Length of the UTF-8 sequence a lead byte starts (1 for stray bytes). */
static inline size_t fl_utf8_len(unsigned char c)
{
	return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

/* ---- token queries --------------------------------------------------------- */

/* raw text equality (inline: with a literal the length folds away) */
static inline bool fl_tok_is(const fl_toks *t, size_t i, const char *s)
{
	if (i >= t->n)
		return false;
	size_t l = strlen(s);
	return t->v[i].len == l && memcmp(t->src + t->v[i].off, s, l) == 0;
}
static inline bool fl_tok_is_kind(const fl_toks *t, size_t i, int kind)
{
	return i < t->n && t->v[i].kind == kind;
}
static inline bool fl_tok_is_ident(const fl_toks *t, size_t i, const char *s)
{
	return fl_tok_is_kind(t, i, FL_TK_IDENT) && fl_tok_is(t, i, s);
}
static inline bool fl_tok_is_punct(const fl_toks *t, size_t i, const char *s)
{
	return fl_tok_is_kind(t, i, FL_TK_PUNCT) && fl_tok_is(t, i, s);
}
/* token i's raw text contains needle (lower-case ASCII) in any case */
bool fl_tok_contains_ci(const fl_toks *t, size_t i, const char *needle);
/* Copy of a token's raw text (caller frees). */
char *fl_tok_dup(const fl_toks *t, size_t i);
/* The single-byte punctuation character of token i, or 0. */
static inline char fl_tok_pch(const fl_toks *t, size_t i)
{
	if (i >= t->n || t->v[i].kind != FL_TK_PUNCT || t->v[i].len != 1)
		return 0;
	return t->src[t->v[i].off];
}
static inline bool fl_tok_is_opener(const fl_toks *t, size_t i)
{
	char c = fl_tok_pch(t, i);
	return c == '(' || c == '[' || c == '{';
}
static inline bool fl_tok_is_closer(const fl_toks *t, size_t i)
{
	char c = fl_tok_pch(t, i);
	return c == ')' || c == ']' || c == '}';
}
/* Index of the bracket closing the one at i ("(", "[", "{"), or t->n. */
size_t fl_tok_match(const fl_toks *t, size_t i);
/* A bracket-match table for the whole token list (caller frees): m[i] is
 * the index of the bracket matching bracket i, or FL_NOMATCH.  Users of a
 * table treat any value >= t->n as "no match".
 *   FL_MATCH_STRICT: a closer matches only the opener on top of the stack
 *     (a stray closer is ignored); both ends are recorded.
 *   FL_MATCH_RECOVER: a closer may skip up to 16 unclosed openers of other
 *     kinds to find its own; only openers record their closer.
 *   FL_MATCH_INNERMOST: any closer closes the innermost opener, whatever
 *     its kind (depth counting); both ends are recorded.
 *   FL_MATCH_SKIP_ONE: a closer matches the opener on top of the stack or,
 *     past one unclosed opener of another kind (dropped), the one below;
 *     else it is ignored; both ends are recorded. */
#define FL_NOMATCH ((size_t)-1)
enum { FL_MATCH_STRICT, FL_MATCH_RECOVER, FL_MATCH_INNERMOST,
       FL_MATCH_SKIP_ONE };
size_t *fl_tok_match_table(const fl_toks *t, int mode);
/* Split tokens [b, e) at the commas outside the brackets of match table m:
 * argument k spans [st[k], en[k]).  An empty last argument ("()" or a
 * trailing comma) is not counted.  At most max are stored; returns the
 * number stored. */
size_t fl_tok_split(const fl_toks *t, const size_t *m, size_t b, size_t e,
		    size_t *st, size_t *en, size_t max);
/* fl_tok_split of the list inside the bracket opened at `open`.  *close
 * (may be NULL) gets the closing bracket's index, or FL_NOMATCH when it is
 * unclosed (then 0 is returned).  Tokens whose flags differ from the
 * opener's in mask (C's directive lines) are passed over; 0 for none. */
size_t fl_tok_split_args(const fl_toks *t, const size_t *m, size_t open,
			 size_t *st, size_t *en, size_t max, size_t *close,
			 uint8_t mask);
/* Nesting of tokens [b, e): *maxd gets the deepest bracket depth reached;
 * returns true when the brackets are balanced (the depth never goes below
 * zero and ends at zero). */
bool fl_tok_nesting(const fl_toks *t, size_t b, size_t e, int *maxd);
/* Split the arguments of a bracketed list opened at `open` at depth-0
 * commas (fl_tok_split): arg k spans tokens [starts[k], ends[k]).  Returns
 * the number stored, at most max (0 for "()").  *close gets the index of
 * the closing bracket (t->n when unbalanced). */
size_t fl_tok_args(const fl_toks *t, size_t open, size_t *starts, size_t *ends,
		   size_t max, size_t *close);
/* Source text of tokens [b, e) with runs of whitespace folded to one space,
 * cut to max bytes (with "..." appended when cut).  Caller frees. */
char *fl_tok_span_text(const fl_toks *t, size_t b, size_t e, size_t max);
/* The guard of a site that fires when cond does NOT hold (assert,
 * require, checkArgument): "!x" for a simple operand (a name, a call, a
 * member chain), "!(a > b)" otherwise; a simple "!x" becomes "x".  With
 * python: "not x", "not (a > b)", and "not x" becomes "x".  Caller
 * frees; NULL for NULL. */
char *fl_guard_not(const char *cond, bool python);
/* The guard tokens [gb, ge) give (at most 200 bytes of their text), or
 * NULL when empty; with neg, its failing condition (fl_guard_not): an
 * else's block runs when its if's condition does not hold.  Caller
 * frees. */
char *fl_guard_span(const fl_toks *t, size_t gb, size_t ge, bool neg, bool python);
/* The guard of a site whose if (or else) sits directly in another if's
 * block: both conditions hold there, "outer && inner" (python: "and").
 * The outer one is left out when either is empty, when it is long (over
 * 80 bytes), when either holds an || ("or") outside brackets, or when
 * the two hold more conditions than a reader takes in (over 4 joined).
 * Takes both (either may be NULL); returns the guard, caller frees. */
char *fl_guard_nest(char *outer, char *inner, bool python);
/* The guard of a statement at token at that stands directly in a case of a
 * switch (C, C++, Java, C#, JS, PHP, Go; `match` is a table of both
 * ends): "x == 'a' || x == 'b'" for its labels `case 'a': case 'b':`
 * (Go's `case "a", "b":`, Java's `case A, B ->`), "x != 'a' && x != 'b'"
 * for its default (the switch's other labels, at most SW_MAX), a tagless
 * switch's case its condition (Go's `switch { case n < 0: }`) and its
 * default that none holds; "_" (a match's catch-all arm: the value
 * matched no other) for the default of a switch of more labels or of a Go
 * type switch.  NULL when at is in no case, in a type switch's case, or
 * its own labels are too many.  Caller frees. */
char *fl_switch_guard(const fl_toks *t, const size_t *match, size_t at);
/* The same, and a Go type switch's case: its types ("*PathError,
 * *LinkError"), *arm set (the pattern the value's type matches). */
char *fl_switch_guard_arm(const fl_toks *t, const size_t *match, size_t at, bool *arm);
/* Identifier r names a report: err, error, stderr, warn, fatal, fail,
 * die, panic, abort, throw, raise, in any case, within a longer name too
 * (`_err`, `print_error`, `die_usage`). */
bool fl_reporting_name(const fl_toks *t, size_t r);
/* The guard early exits give a statement at token at that no if or case
 * guards: in its block, each earlier `if (c) return;` (`continue`,
 * `break`, a return of null/false/0/nil..., or a braced body ending so;
 * Go's `if c { return nil }`) with no else means at runs only when c does
 * not hold: "!c", the nearest three joined (fl_guard_nest).  A case label
 * starts afresh.  NULL when there are none, or at is inside brackets.
 * Caller frees. */
char *fl_early_guard(const fl_toks *t, const size_t *match, size_t at);
/* The severity of a text a program prints on its standard error
 * (print(file=sys.stderr), eprintln!, System.err.println...): a warning
 * when it starts with "warning"/"warn:", information when it starts with
 * a word of progress ("Generating LSIF for project at {root}", "Done"),
 * else an error. */
const char *fl_print_severity(const char *msg);

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
	/* the text of an operand that is no literal, or NULL (a named
	 * constant's value: Java's `static final String BAD = "bad: "`);
	 * caller frees.  NULL: none. */
	char *(*operand_text)(const void *ud, size_t b, size_t e);
	const void *ud;
} fl_msg_opts;

/* fl_msg_from_expr guarded against pathological input: NULL when [b, e)
 * is empty or longer than max_toks tokens, nests brackets deeper than
 * max_depth, or (with balanced) has unbalanced brackets. */
char *fl_msg_guarded(const fl_toks *t, size_t b, size_t e,
		     const fl_msg_opts *o, size_t max_toks, int max_depth,
		     bool balanced);

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

/* Letters of message m outside its placeholders: `{...}` groups and
 * printf conversions (`%s`, `%-5d`, Python's `%(name)s`). */
int fl_msg_plain_letters(const char *m);

/* The text of an operand [b, e) in a condition: as it is when it is one
 * token, a member chain (`a.b.c`; with arrows also `a->b`, `A::b`) or a
 * call ending one (m: the match table); else in brackets, "(a + b)".
 * Malloc'd. */
char *fl_operand_text(const fl_toks *t, const size_t *m, size_t b, size_t e, bool arrows);

/* The message a local variable holds where it is used (token at), for
 * `throw new X($message)` after `$message = sprintf('...', $x);`.  Scans
 * the statements of [from, at) (from: the enclosing function's name, or 0
 * for top-level code) for the variable `var`: `var = expr` as a statement (after
 * `;`, `{`, `}`, or one of the decl keywords such as const/let/var), whose
 * expression msg() turns into a message.  `var .= ...` / `var += ...` keep
 * what the variable held (the message goes on at run time).  Returns the
 * message when there is exactly one, else NULL: no assignment, several
 * different ones, one that is not a message, or any other binding (a
 * parameter before the first `{` after from, `as var`, `&var`, a
 * destructuring).  Bracket groups that do not hold `at` are not entered
 * unless they are blocks ({...}).  Caller frees. */
char *fl_var_msg(const fl_toks *t, const size_t *match, size_t from, size_t at,
		 size_t var, const char *const *decl,
		 char *(*msg)(const void *ud, size_t b, size_t e), const void *ud);
/* The messages a local variable can hold where it is used, one per
 * alternative: as fl_var_msg, but the assignments left in several
 * branches give a message each (`if (x) { $m = 'a'; } else { $m = 'b'; }`),
 * and msgs() appends every message an assignment's expression can have
 * (a choice `c ? 'a' : 'b'`), returning how many (0: not a message).  An
 * assignment in a block that is left by a `throw` or `return` before the
 * use does not reach it.  Appends at most max distinct messages to out
 * and returns how many; 0 (nothing appended) when one assignment is not a
 * message, there are more than max, or the variable has another binding. */
size_t fl_var_msgs(const fl_toks *t, const size_t *match, size_t from, size_t at, size_t var,
		   const char *const *decl,
		   size_t (*msgs)(const void *ud, size_t b, size_t e, fl_strv *out),
		   const void *ud, size_t max, fl_strv *out);
/* msg with every placeholder {names[k]} (or template hole ${names[k]})
 * replaced by values[k] (a NULL
 * value keeps the placeholder): a factory's message composed with the
 * literal arguments of a call.  Caller frees. */
/* A helper's condition [cb, ce) on its parameters, each written {param}
 * (fl_msg_subst puts a call's arguments in): NULL when it names anything
 * else a call cannot give (a bare name that is no parameter, no word of
 * words and no callee), holds a brace, is longer than 40 tokens or names
 * no parameter.  Caller frees. */
char *fl_cond_template(const fl_toks *t, size_t cb, size_t ce, char *const *params, size_t np,
		       const char *const *words);
char *fl_msg_subst(const char *msg, const char *const *names,
		   const char *const *values, size_t n);
/* ---- exception factories ---------------------------------------------------
 * `throw unexpectedTokenError("a boolean")` throws what a method of the same
 * file builds: `return new IllegalStateException("Expected " + expected +
 * ...)`.  A language file finds such methods (its declaration syntax) and
 * keeps them here; a throw of a call to one gets the factory's message
 * with each parameter replaced by the call's literal argument
 * (fl_msg_subst) and the factory's class. */
#define FL_FAC_PARAMS 8
typedef struct fl_factory {
	char *name;
	size_t nlen;                 /* strlen(name), set by fl_factories_add */
	size_t np, nreq;             /* parameters, those without a default */
	char *param[FL_FAC_PARAMS];  /* parameter names */
	char *msg;                   /* message with {param} placeholders;
					NULL: built elsewhere, unknown */
	char *cls;                   /* the exception class */
	char *cond;                  /* a thrower's condition on its
					parameters, {param} placeholders
					(`if (!ok) throw ...`: "!{ok}"), or
					NULL: it always throws */
	int tag;                     /* the language's own mark of what
					the factory does with its message
					(0: none) */
	bool varargs;                /* its last parameter takes any number
					of arguments (Java's `Object...
					args`): a call may give more than np */
} fl_factory;
typedef struct fl_factories {
	fl_factory *v;
	size_t n;
	bool found;                  /* the file was searched */
	/* by name: a hash table of nb buckets (a power of two), each the
	 * index + 1 of its first factory, next[i] the index + 1 of the one
	 * after v[i] (0 ends): a tree's thousands of exception constructors
	 * are looked up at every `new X(` */
	uint32_t *head, *next;
	size_t nb;
} fl_factories;
/* Add f (its strings now owned by fs). */
void fl_factories_add(fl_factories *fs, const fl_factory *f);
/* The factory `name` that takes nargs arguments (nreq <= nargs <= np)
 * and whose message is known; NULL
 * when there is none or several overloads could be meant. */
const fl_factory *fl_factories_find(const fl_factories *fs, const char *name,
				    size_t len, size_t nargs);
/* The same; with own, an overload that makes no message (a constructor
 * that passes its argument on) is no rival: for a call that gives no text
 * of its own, the one overload that makes one (commons-cli's
 * `MissingArgumentException(Option)` beside its `(String message)`). */
const fl_factory *fl_factories_find_own(const fl_factories *fs, const char *name,
					size_t len, size_t nargs, bool own);
/* The same, of the overloads a call's arguments fit (fits(f, ud)), when
 * some do and some do not (`reportProblem("text %s", a, b)` is not
 * `reportProblem(Throwable t, String message, Object... args)`). */
const fl_factory *fl_factories_find_fit(const fl_factories *fs, const char *name, size_t len,
					size_t nargs, bool own,
					bool (*fits)(const fl_factory *f, const void *ud), const void *ud);
void fl_factories_free(fl_factories *fs);
/* Free one factory's strings (one not added to a set) and zero it. */
void fl_factory_clear(fl_factory *f);
/* The one exception a method body builds: `return X(...)` or `throw
 * X(...)` as ctor() recognises a construction at a token (returning its
 * argument list's '(' and the class token in *cls, or FL_NOMATCH).  body
 * is the '{' of a block, or the first token of an expression body
 * (expr_body).  FL_NOMATCH when there is none, or more than one. */
size_t fl_fac_body_ctor(const fl_toks *t, const size_t *match, size_t body,
			bool expr_body,
			size_t (*ctor)(const void *ud, size_t at, size_t *cls),
			const void *ud, size_t *cls);
/* fl_factories as the per-tree state of a collect pass (lang.h: tree_new,
 * tree_free, tree_merge): the constructors of the tree's exception classes */
void *fl_factories_tree_new(void);
void fl_factories_tree_free(void *tree);
void fl_factories_tree_merge(void *tree, void *part);
/* The message a call with arguments [st[k], en[k]) gets from factory f:
 * f's message, each parameter replaced by what argmsg() reads from the
 * argument (a literal; NULL keeps the placeholder).  Caller frees. */
char *fl_factory_compose(const fl_factory *f, const size_t *st, const size_t *en,
			 size_t na, char *(*argmsg)(const void *ud, size_t b, size_t e),
			 const void *ud);

/* ---- exception classes with a default message ----------------------------
 * Python's `default_detail = '...'`, JS's `this.message = message || '...'`:
 * by class name, the message, code and HTTP status a class gives when it is
 * raised without a message of its own.  Two classes of one name that differ
 * make the name unknown.  Also a collect pass's per-tree state. */
typedef struct fl_classdefs {
	struct fl_strmap *idx;
	char **msg, **code;   /* both NULL: unknown (classes of that name differ) */
	int *status;
	char **params;        /* the constructor's parameters the message names
				 ("${feature}"), one per line; NULL: none */
	size_t n, cap;
} fl_classdefs;
void *fl_classdefs_new(void);
void fl_classdefs_free(void *defs);
void fl_classdefs_merge(void *defs, void *part);
/* Add a class (msg and code are taken over; either may be NULL). */
void fl_classdefs_add(fl_classdefs *d, const char *name, char *msg, char *code,
		      int status);
/* The same for a class whose message names parameters of its constructor
 * (`constructor(feature) { super(`no ${feature}`) }`): params holds their
 * names, one per line, in order (taken over). */
void fl_classdefs_add_params(fl_classdefs *d, const char *name, char *msg, char *code,
			     int status, char *params);
/* The constructor parameters class name's message names, one per line, or
 * NULL. */
const char *fl_classdefs_params(const fl_classdefs *d, const char *name);
/* The defaults of class name: false when unknown. */
bool fl_classdefs_find(const fl_classdefs *d, const char *name, const char **msg,
		       const char **code, int *status);

/* A byte scan before any lexing: whether s[0..n) can declare an exception
 * class, a `class` or `extends` keyword followed by a name ending in
 * Error, Exception, Throwable or Fault (it may say yes wrongly, never no). */
bool fl_may_declare_error_class(const char *s, size_t n);
/* The message of a factory's argument that has no literal but passes
 * parameters on, [b, e) split at the concatenation ops: `message +
 * location()` -> "{message}{location}"; NULL when no operand is a lone
 * parameter (the message is then built elsewhere). */
char *fl_msg_params(const fl_toks *t, const size_t *match, size_t b, size_t e,
		    const char *const *ops, char *const *params, size_t np);

/* The message of the first argument [st[k], en[k]) that is one local
 * variable (a lower-case name, not this/null) holding a message by
 * fl_var_msg() in the function whose name is token fn; NULL when none. */
char *fl_var_arg_msg(const fl_toks *t, const size_t *match, size_t fn,
		     const size_t *st, const size_t *en, size_t na,
		     const char *const *decl,
		     char *(*msg)(const void *ud, size_t b, size_t e), const void *ud);
/* Squeeze the text b->s[from..b->n) of an interpolation hole: every run of
 * white space that holds a line break becomes one space, so a placeholder
 * like ${x.get(\n    1)} stays on one line: ${x.get( 1)}. */
void fl_buf_squeeze_hole(fl_buf *b, size_t from);

/* Format escapes by doubling, decoded in place: every pair of the same
 * character of chars becomes one ("%" for printf's %%, "{}" for {{ }}). */
void fl_msg_undouble(char *s, const char *chars);

/* ---- rule helpers --------------------------------------------------------- */

/* A stack of nested scopes for a rule walker: each scope inherits the
 * enclosing function and class names, kept once in a name buffer. */
typedef struct fl_scope {
	uint8_t kind;     /* the language's own scope kinds */
	uint8_t neg;      /* the scope runs when its guard does NOT hold (an
			     else's block: the guard is its if's condition) */
	uint32_t gb, ge;  /* guard tokens of an if-scope */
	int32_t fn, cls;  /* offsets in names, -1 none (inherited) */
	int32_t gtext;    /* cached guard text in names, -1 not yet */
	uint32_t fn_at;   /* token of the enclosing function's name, 0 none
			     (inherited; for fl_var_msg) */
} fl_scope;

typedef struct fl_scopes {
	fl_scope *v;
	size_t n, cap;
	fl_buf names;
} fl_scopes;

/* Push a scope of kind that inherits fn/cls from the top; returns it. */
fl_scope *fl_scopes_push(fl_scopes *s, int kind);
static inline fl_scope *fl_scopes_top(fl_scopes *s)
{
	return s->n ? &s->v[s->n - 1] : NULL;
}
/* The name at offset off, or NULL for -1. */
static inline const char *fl_scopes_name(const fl_scopes *s, int32_t off)
{
	return off < 0 ? NULL : s->names.s + off;
}
/* Store "cls.name" (or "name" when cls is NULL; cls may be a stored name)
 * with the name cut to 256 bytes and cls to 120; returns its offset. */
int32_t fl_scopes_add_name(fl_scopes *s, const char *cls, const char *name,
			   size_t n);
void fl_scopes_free(fl_scopes *s);
/* Scope s is an if's block (kind if_kind, its guard after `if (`) or its
 * else's; not a while's. */
bool fl_scope_is_if(const fl_toks *t, const fl_scope *s, int if_kind);
/* g, the guard of an if (or else) whose statement sits in scope o: with
 * o's condition too when o is another if's block (fl_guard_nest).  Takes
 * g; returns the guard, caller frees. */
char *fl_scope_guard_nest(const fl_toks *t, const fl_scope *o, int if_kind, char *g);

/* HTTP status of a reason phrase in any case or naming style, underscores
 * ignored: "NotFound", "NOT_FOUND", "not_found" -> 404; 0 when unknown. */
int fl_http_status_by_name(const char *s, size_t n);
/* The standard reason phrase of an HTTP status ("Not Found"), or NULL. */
const char *fl_http_reason(int status);
/* Severity of an HTTP status: 4xx is a warning, anything else an error. */
const char *fl_http_severity(int status);

#endif
