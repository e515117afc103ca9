/*
 * c.h — what the files of the C / C++ family share (lib/scan/c/): the
 * token flags and byte classes of its lexer, the token helpers its rules
 * use, the per-tree reporter tables, the scope stack, and the functions
 * one file of the family calls in another.
 *
 *   lex.c        the lexer, bracket matches, argument lists
 *   msg.c        messages built from argument tokens
 *   reporters.c  reporter names and the tree's collect pass
 *   scopes.c     scopes, function names, guards
 *   locals.c     messages held in local variables, literal choices
 *   sites.c      the error-site rules and the scan of one file
 *   compose.c    messages composed before they are reported
 *   yacc.c       yacc / bison grammars read as C
 *   lang.c       the family's entry in the language table
 *   argsrc.c     the texts a %s argument may hold (text tables, buffers
 *                filled by a formatter), reporters printing to an error
 *                stream
 */
#ifndef FL_SCAN_C_H
#define FL_SCAN_C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "faultline.h"
#include "../../strmap.h"
#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

/* own token flags (lex.h uses 0x01..0x08) */
#define TF_DIR 0x40      /* token belongs to a preprocessor directive line */
#define TF_DIRSTART 0x80 /* the '#' starting a directive; tok->str = kind */

enum { DK_OTHER = 0, DK_IF, DK_ELSE, DK_ENDIF };

#define MAX_TOKS 6000000u
#define NONE UINT32_MAX

/* ---- character classes ----------------------------------------------------- */

#define C_IDENT 1
#define C_DIGIT 2
#define C_PLAIN 4 /* not special inside a string literal */

/* the classes of each byte, as a table built by the compiler (the tests
 * it replaces were a quarter of the lexer's time) */
#define CC_(c)                                                                 \
	(((((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') ||        \
	   (c) == '_' || (c) == '$' || (c) >= 0x80)                            \
		  ? C_IDENT                                                    \
	  : ((c) >= '0' && (c) <= '9') ? (C_DIGIT | C_IDENT)                   \
				       : 0) |                                  \
	 (((c) != '"' && (c) != '\\' && (c) != '\n') ? C_PLAIN : 0))
#define CC4_(b) CC_(b), CC_((b) + 1), CC_((b) + 2), CC_((b) + 3)
#define CC16_(b) CC4_(b), CC4_((b) + 4), CC4_((b) + 8), CC4_((b) + 12)
#define CC64_(b) CC16_(b), CC16_((b) + 16), CC16_((b) + 32), CC16_((b) + 48)
static const uint8_t cclass_tab[256] = {CC64_(0), CC64_(64), CC64_(128), CC64_(192)};
#undef CC_
#undef CC4_
#undef CC16_
#undef CC64_

static inline unsigned cclass(unsigned char c)
{
	return cclass_tab[c];
}

/* always inlined: w is a literal at nearly every call, whose length the
 * compiler then knows (it was strlen's most frequent caller) */
static inline __attribute__((always_inline)) bool word_is(const char *s, size_t n, const char *w)
{
	size_t l = strlen(w);
	return n == l && memcmp(s, w, l) == 0;
}

/* ---- token helpers -------------------------------------------------------- */

/* A file's string constants: `#define NAME "..."`, `static const char
 * NAME[] = "..."`, `const char *NAME = "..."` (msg.c). */
typedef struct cconsts {
	fl_strmap names; /* name -> its last declaration's index */
	fl_strv text;    /* by declaration: the decoded literal text */
	size_t *beg, *end; /* the tokens where the name means it: the file,
			      or the rest of the block declaring it */
	size_t *prev;    /* the name's earlier declaration, or SIZE_MAX */
	size_t cap;
	/* the elements of string arrays named for usage text
	 * (`static const char *const add_usage[] = { N_("..."), NULL }`) */
	fl_strv usage;   /* each element's text */
	size_t *usage_tok; /* its first token */
	size_t usage_cap;
} cconsts;

typedef struct ctx {
	const fl_toks *t;
	size_t *mt; /* bracket matches (both directions), NONE if none */
	const void *tree;
	fl_sites *out;
	const fl_src *src;
	const cconsts *consts; /* the file's string constants, or NULL */
	const void *helpers;   /* the file's composing helpers (compose.c), or NULL */
} ctx;

static inline bool tk_p1(const fl_toks *t, size_t i, char c)
{
	return i < t->n && t->v[i].kind == FL_TK_PUNCT && t->v[i].len == 1 &&
	       t->src[t->v[i].off] == c;
}

static inline bool tk_p(const fl_toks *t, size_t i, const char *s)
{
	return fl_tok_is_punct(t, i, s);
}

static inline bool tk_id(const fl_toks *t, size_t i, const char *s)
{
	return fl_tok_is_ident(t, i, s);
}

static inline bool is_open(const fl_toks *t, size_t i)
{
	return tk_p1(t, i, '(') || tk_p1(t, i, '[') || tk_p1(t, i, '{');
}

static inline bool is_close(const fl_toks *t, size_t i)
{
	return tk_p1(t, i, ')') || tk_p1(t, i, ']') || tk_p1(t, i, '}');
}

enum { SEV_NONE = 0, SEV_WARN, SEV_ERR, SEV_CRIT, SEV_REPORT, SEV_LOG };

/* always inlined so that strlen() of the literal w folds to a constant */
static inline __attribute__((always_inline)) bool ieq(const char *a, size_t n, const char *w)
{
	size_t l = strlen(w);
	if (n != l)
		return false;
	for (size_t i = 0; i < n; i++) {
		char x = a[i], y = w[i];
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return false;
	}
	return true;
}

typedef struct rep {
	char *name;
	int fmt;      /* 1-based index of the format argument */
	bool noret;
	bool fmtr;    /* a formatter: returns the text it formats and
			 reports nothing (compose.c) */
	bool errval;  /* makes an error value of the text it formats
			 (make_error(p, fmt, ...) returning
			 jv_invalid_with_msg(...)): its calls raise */
	bool lvl;     /* a formatter that returns nothing (void message(enum
			 verbosity v, const char *fmt, ...)): a call whose
			 level argument says error or warning reports */
} rep;

/* a function-like macro forwarding to a reporter:
 * #define serverPanic(...) _serverPanic(__FILE__, __LINE__, __VA_ARGS__) */
#define MAC_ARGS 16
typedef struct cmac {
	char *name, *target;
	int8_t amap[MAC_ARGS]; /* target arg k -> macro arg (named), -1 none */
	int8_t va_pos;         /* target arg position of __VA_ARGS__, -1 none */
	int8_t nnamed;         /* named macro parameters */
	/* target "stderr" (a macro that prints its arguments to stderr):
	 * the named parameter compared with a verbosity (-1 none), and
	 * whether the macro exits */
	int8_t level;
	bool exits;
	/* the named parameter the body tests before it reports, `if (c)`
	 * or `if (!(c))` (-1 none): a call reports when that argument holds
	 * (cond_neg: when it does not), its guard (sites.c) */
	int8_t cond;
	bool cond_neg;
	/* the text the macro itself gives the reporter (its body's first
	 * literal argument: make's `#define warn_undefined(n,l) ... error
	 * (reading_file, (l), _("warning: undefined variable '%.*s'"), ...)`),
	 * the message of a use that gives none; NULL when none */
	char *text;
	/* its one parameter is the reporter's whole argument list: paxlib's
	 * `#define USAGE_ERROR(Args) do { error Args; usage (2); } while
	 * (0)`, used as `USAGE_ERROR ((0, 0, _("..."), x))` */
	bool arglist;
} cmac;

/* a text table: a function whose every return is a literal (argsrc.c) */
typedef struct cttab {
	char *name;
	fl_strv texts;
	bool bad; /* two functions of the name that disagree */
	bool partial; /* some texts left out (no words: "", "?") */
} cttab;

/* a fixed text per reporter name, the first given kept (argsrc.c) */
typedef struct crtexts {
	fl_strmap idx;    /* name -> index in v */
	fl_strv v;
} crtexts;

typedef struct ctree {
	rep *v;
	size_t cap, n;
	cmac *mv;
	size_t mn, mcap;
	uint32_t *mh;     /* hash of mv by name: index + 1, 0 = empty */
	size_t mhcap;
	cttab *tv;        /* text tables (argsrc.c) */
	size_t tn, tcap;
	fl_strmap th;     /* their names -> index */
	crtexts tails;    /* reporters' trailers (argsrc.c) */
	crtexts heads;    /* reporters' heads (argsrc.c) */
	crtexts ends;     /* what reporters add after every message they
			     format (argsrc.c) */
	/* a file's own macros (c_file_macros): the tree's macros are looked
	 * up in parent when the file does not define the name itself */
	const struct ctree *parent;
} ctree;

static inline bool all_upper(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] >= 'a' && s[i] <= 'z')
			return false;
	return true;
}

/* Tests turn the byte scan off to check that it never skips a file the
 * collect pass would find something in (reporters.c). */
extern bool fl_c_collect_prefilter;

/* A file's tokens and bracket matches, lexed by its collect pass and
 * kept for its scan. */
typedef struct lexed {
	fl_toks t;
	size_t *mt;
} lexed;

enum { SK_TOP = 0, SK_NS, SK_EXTERN, SK_CLASS, SK_FUNC, SK_BLOCK, SK_OTHER };

typedef struct scope {
	uint8_t kind;
	uint8_t neg;     /* the block runs when the guard does not hold (an
			    else's block: the guard is its if's condition) */
	uint32_t ss;     /* statement start (non-function scopes) */
	uint32_t nb, ne; /* name tokens */
	uint32_t gb, ge; /* guard condition tokens (gb == ge: none) */
} scope;

typedef struct sstack {
	scope *v;
	size_t n, cap;
} sstack;

/* ---- functions of one file called by another ---------------------------- */

/* lex.c */
void c_lex(fl_toks *t);
size_t *c_match(const fl_toks *t);
int c_split_args(const ctx *c, size_t open, size_t *st, size_t *en, int max);

/* msg.c */
bool c_in_list(const fl_toks *t, size_t i, const char *const *l);
size_t c_qual_end(const fl_toks *t, size_t i, size_t e);
void c_put_placeholder(const fl_toks *t, size_t b, size_t e, fl_buf *out);
char *c_arg_msg(const ctx *c, size_t b, size_t e, bool fmt);
/* The argument is a string literal, or a wrapped one (`_("...")`); with
 * consts, also a string constant of the file (or a wrapped one). */
bool c_arg_is_literal(const ctx *c, size_t b, size_t e, bool consts);
/* Find the file's string constants (before its sites are looked for). */
void c_consts_find(const fl_toks *t, const size_t *mt, cconsts *out);
void c_consts_free(cconsts *k);
char *c_stream_msg(const ctx *c, size_t p);
/* The message of a printf-like call whose format is argument fmt of the
 * na arguments [st[k], en[k]): conversions whose argument is a string
 * literal (or a number for %d) show it, as the program prints it
 * (`die(_("'%s' and '%s' cannot be used together"), "--all", "--none")`),
 * the others stay placeholders; NULL when the format holds no literal text. */
char *c_fmt_msg(const ctx *c, const size_t *st, const size_t *en, int na, int fmt);
/* c_fmt_msg() with argument sub's %s shown as text (format form: '%'
 * doubled); raw: the message in format form, untrimmed */
char *c_fmt_msg_sub(const ctx *c, const size_t *st, const size_t *en, int na, int fmt,
		    int sub, const char *text, bool raw);
/* the arguments of the format's %s conversions that are not literals */
int c_fmt_s_args(const ctx *c, const size_t *st, const size_t *en, int na, int fmt,
		 int *sargs, int max);

/* locals.c */
/* The messages of a reporter's call at token call whose arguments gave
 * none: with fmt >= 0 (a literal format), its %s arguments held in local
 * variables or chosen between literals shown as each value; with fmt < 0,
 * the first argument whose values are messages (a local variable assigned
 * literals or a formatter's result, a choice between literals), each a
 * format for the arguments after it.  Adds at most 8 to out; returns how
 * many. */
int c_alt_msgs(const ctx *c, size_t call, const size_t *st, const size_t *en, int na,
	       int fmt, fl_strv *out);
/* Called before each file's walk (a file's budget of look-ups). */
void c_locals_begin(void);

/* reporters.c */
int c_name_sev(const char *s, size_t n, bool attr);
const char *c_sev_str(int s);
uint64_t c_hash_name(const char *s, size_t n);
const rep *c_tree_find_h(const ctree *tr, const char *s, size_t n, uint64_t h);
const rep *c_tree_find(const ctree *tr, const char *s, size_t n);
const cmac *c_mac_find_h(const ctree *tr, const char *s, size_t n, uint64_t hn);
/* The macros the file being scanned defines itself, over the tree's (a
 * name defined in several files of a tree, DISPLAYLEVEL or CHECK, is
 * read as this file defines it), or NULL when it defines none.  Free
 * with c_tree_free. */
ctree *c_file_macros(const void *tree, const ctx *c);
bool c_icontains(const char *s, size_t n, const char *w);
bool c_attr_like(const fl_toks *t, size_t i);
void *c_tree_new(void);
void c_tree_free(void *p);
void c_tree_merge(void *tree, void *part);
void c_collect(void *tree, const fl_src *src);
void *c_collect_keep(void *tree, const fl_src *src);
void c_lexed_free(void *p);

void c_tree_put(ctree *tr, const char *s, size_t n, int fmt, bool noret);

/* argsrc.c */
bool c_argsrc_worth(const char *s, size_t n);
/* [b, e) names an error stream: stderr, errors, global->errors, errfp */
bool c_err_stream(const fl_toks *t, size_t b, size_t e);
bool c_is_columns(const char *m);
/* the fixed text a reporter prints after its format (argsrc.c), or NULL */
const char *c_reporter_tail(const ctree *tr, const char *name, size_t n);
/* the fixed text a reporter prints before its format ("Warning: "), or
 * NULL */
const char *c_reporter_head(const ctree *tr, const char *name, size_t n);
void c_reporter_head_put(ctree *tr, const char *name, size_t n, const char *head);
/* the fixed text a reporter appends to every message it formats (GNU
 * make's fatal(): ".  Stop."), or NULL */
const char *c_reporter_end(const ctree *tr, const char *name, size_t n);
/* The text of [b, e) when it is a reporter's head: literals, or a string
 * `#define` of the file, short, ending in ':' or a blank ("curl: "); NULL
 * otherwise. */
char *c_head_text(const ctx *c, size_t b, size_t e);
void c_argsrc_collect(ctree *tr, const ctx *c);
void c_argsrc_merge(ctree *tr, ctree *part);
void c_argsrc_free(ctree *tr);
/* The texts argument [b, e) of a report may hold (format form), when it
 * is a text table's call, or a variable set from one, from literals or by
 * a formatter; *generic: it may also hold something else.  0: none known. */
int c_arg_variants(const ctx *c, size_t b, size_t e, fl_strv *out, bool *generic);
/* letters of a message outside its printf conversions */
int c_fixed_letters(const char *m);
/* the same, a formatter (fmtr) or not (compose.c) */
void c_tree_put_kind(ctree *tr, const char *s, size_t n, int fmt, bool noret, bool fmtr);
/* the reporter s of the tree returns nothing (rep.lvl) */
void c_tree_set_lvl(ctree *tr, const char *s, size_t n);
/* The function whose name is token nm is declared to return void (not a
 * pointer): `static void`, `extern void` just before its name */
bool c_returns_void(const fl_toks *t, size_t nm);
/* mark a reporter of the tree as making error values (rep's errval) */
void c_tree_set_errval(ctree *tr, const char *s, size_t n);

/* compose.c */
/* A name that says it makes an error value from a message
 * (jv_invalid_with_msg): words "invalid" and "msg" / "message". */
bool c_errval_name(const char *s, size_t n);
/* collect pass: a variadic function definition whose `...` is at k
 * (`NAME(..., const char *fmt, ...) {`): a reporter when the text it
 * formats reaches a reporter, else a formatter. */
void c_collect_variadic(ctree *tr, const ctx *c, size_t k);
/* The message of an argument that builds one: a literal, a formatter's,
 * a string constructor's or a concatenation's result, an error value made
 * from one, a local variable assigned one, a call of a function of the
 * file returning one; NULL when none. */
char *c_nested_msg(const ctx *c, size_t b, size_t e);
/* The file's helpers that compose a message around a parameter the call
 * sites fill (`type_error(jv bad, const char *msg)`). */
void *c_helpers_find(const ctx *c);
void c_helpers_free(void *h);
/* The k-th message (from 0) of a call of one of them at token i (its
 * arguments split): one, or one per format of a helper whose formats
 * share no text; NULL past the last, or when the call is not one or its
 * argument builds no message.  *sev gets the helper's SEV_*. */
char *c_helper_msg(const ctx *c, size_t i, const size_t *st, const size_t *en, int na,
		   int k, int *sev);

/* yacc.c */
/* A yacc / bison grammar (.y, .yy): drop its `%{`, `%}`, `%%` and
 * `%keyword` tokens so that its C parts read as C. */
bool c_is_grammar(const char *path);
void c_grammar_tidy(fl_toks *t);

/* scopes.c */
scope *c_sk_push(sstack *s);
bool c_cond_before(const ctx *c, size_t i, uint32_t *gb, uint32_t *ge);
bool c_else_cond(const ctx *c, size_t i, uint32_t *gb, uint32_t *ge);
void c_analyze_brace(const ctx *c, size_t ss, size_t i, scope *sc);
void c_put_name(const fl_toks *t, size_t b, size_t e, fl_buf *out);
char *c_func_name(const fl_toks *t, const sstack *s);
/* a K&R definition's name before the `{` at i (`name (a) char *a; {`),
 * else NONE */
size_t c_knr_name(const ctx *c, size_t i);

/* sites.c */
void c_scan(const void *tree, const fl_src *src, fl_sites *out);

/* A function name that says it only traces, logs or prints ("debugf",
 * "print_msg"), unless it also says error ("log_error", "errmsg"): no
 * reporter (argsrc.c). */
bool c_quiet_name(const char *s, size_t n);

#endif
