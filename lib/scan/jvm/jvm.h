/*
 * jvm.h — what the files of the JVM family share (lib/scan/jvm/): Java,
 * Kotlin and Scala, the dialect chosen by the file's extension.  The
 * scan's context and its token helpers, the site a rule emits, and the
 * functions one file of the family calls in another.
 *
 *   lex.c      the lexer: escapes, strings, Java text blocks, Kotlin and
 *              Scala templates and interpolators, char literals, backtick
 *              identifiers
 *   msg.c      messages built from argument tokens: String.format,
 *              "...".formatted(), trimIndent / trimMargin, lambdas,
 *              messages held by a local variable, a call's message
 *   walk.c     the walk over a file's tokens: scopes and their names
 *              (classes, methods, expression-bodied functions),
 *              declarations, guards, emitting a site
 *   rules.c    the error-site rules: throw [new] X(...), exception
 *              constructors outside throw, calls of the tree's throwers,
 *              Kotlin's error/require/check/TODO, Scala's require and
 *              sys.error, Guava Preconditions, Objects.requireNonNull,
 *              logging (SLF4J, log4j, JUL, Android), HTTP errors (Spring's
 *              ResponseStatusException and @ResponseStatus, Javalin),
 *              enums that are catalogues of errors
 *   collect.c  the tree's collect pass: exception factories of a file and
 *              of the tree (exception classes whose constructors build the
 *              message, thrower methods, static factories), the byte scans
 *              that spare a file its lexing, the early scan and its hint
 *   bundle.c   message bundles: the base .properties files of the tree
 *              read by the collect pass, and report calls given a key
 *   lang.c     the scan of one file and the family's entry in the
 *              language table
 */
#ifndef FL_SCAN_JVM_H
#define FL_SCAN_JVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../strmap.h"
#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

enum { D_JAVA, D_KOTLIN, D_SCALA };

#define NOIDX FL_NOMATCH
#define THROWER "throws:" /* tree key prefix of thrower methods */

enum { SC_OTHER, SC_CLASS, SC_FUNC, SC_IF, SC_SWITCH };

typedef fl_scope scope;

typedef struct ctx {
	fl_toks t;
	int d;
	const fl_src *src;
	fl_sites *out;
	size_t *match; /* fl_tok_match_table, FL_MATCH_INNERMOST */
	fl_scopes sc; /* scopes and their names */
	int paren;
	int line_col; /* column of the first token of the current line */
	/* pending declaration */
	int pend_kind; /* 0, SC_CLASS, SC_FUNC */
	uint32_t pend_name;
	int pend_paren;
	int pend_col;
	/* expression-bodied function */
	bool xf_on;
	int32_t xf_fn;
	size_t xf_depth;
	int xf_col;
	fl_factories fac; /* the file's exception factories, found on first use */
	fl_factories raisers; /* the file's raisers of a message parameter
				 (collect.c), found on first use */
	unsigned raiser_walks; /* jvm_raiser_consts's walks of the file */
	const fl_factories *ctors; /* constructors of the tree's exception
				      classes (collect()), or NULL */
	fl_buf *log;      /* an early scan (collect_scan): the tree is taken
			     for empty, and each lookup is logged here */
	fl_strmap own;    /* reporter-named methods declared in this file:
			     1 a thrower, 0 not (built on first use) */
	bool own_built;
	struct jvm_consts *consts; /* the file's string constants (msg.c),
				      found on first use; NULL: none looked
				      for (no scan of a file) */
} ctx;

/* The file's string constants, `static final String NAME = "...";`
 * (Java), `const val NAME = "..."` (Kotlin): each name's token and its
 * value's tokens [b, e). */
typedef struct jvm_consts {
	struct jvm_const {
		size_t name, b, e;
	} *v;
	size_t n, cap;
	bool built;
} jvm_consts;

/* ---- token helpers -------------------------------------------------------- */

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

static inline const char *tsrc(const ctx *c, size_t i)
{
	return c->t.src + c->t.v[i].off;
}

/* Whether [b, e) names something alone: NAME, or Outer.NAME (a constant
 * of the file, a local). */
static inline bool jvm_name_ref(const ctx *c, size_t b, size_t e)
{
	return (e == b + 1 || (e == b + 3 && is_id(c, b) && is_p(c, b + 1, "."))) &&
	       is_id(c, e - 1);
}

/* Arguments of the bracket opened at `open` (at most max). */
static inline size_t args(const ctx *c, size_t open, size_t *st, size_t *en,
			  size_t max, size_t *close)
{
	return fl_tok_split_args(&c->t, c->match, open, st, en, max, close, 0);
}

static inline char *dup_tok(const ctx *c, size_t i)
{
	return fl_tok_dup(&c->t, i);
}

static inline bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t l = strlen(suf);
	return n >= l && memcmp(s + n - l, suf, l) == 0;
}

static inline bool is_upper(char ch)
{
	return ch >= 'A' && ch <= 'Z';
}

/* the innermost scope, or NULL */
static inline scope *top(ctx *c)
{
	return fl_scopes_top(&c->sc);
}

/* ---- a site ----------------------------------------------------------------- */

typedef struct site_spec {
	size_t first;
	const char *msg, *cls, *type, *sev, *idiom, *code;
	int http;
	char *guard; /* owned; NULL = compute */
	bool guard_set;
} site_spec;

/* ---- functions of one file called by another ---------------------------- */

/* lex.c */
/* Lex the source of t (fl_toks_init done) in dialect d (D_*). */
void jvm_lex(fl_toks *t, int d);

/* msg.c */
/* the operators of a concatenation: "+" */
extern const char *const jvm_plus_ops[];
/* A java.lang printf format's text, in place: %% and %n decoded (the
 * conversions kept as written). */
void jvm_decode_printf(char *m);
/* The texts the local variable at token v can hold where it is used, at
 * token at (its assignments that reach it, one per branch: fl_var_msgs),
 * appended to out (at most 8); how many (0: none, or one is no text). */
size_t jvm_local_texts(ctx *c, size_t v, size_t at, fl_strv *out);
/* The texts of a choice `cond ? A : B` [b, e), appended to out; how many. */
size_t jvm_choice_texts(const ctx *c, size_t b, size_t e, fl_strv *out);
/* The first argument (from `from`) that yields a message, its index in
 * *which (when not NULL); NULL when none does. */
char *jvm_first_msg(const ctx *c, const size_t *st, const size_t *en, size_t na,
		    size_t from, size_t *which);
/* The message of argument [b, e) (fl_var_arg_msg's and
 * fl_factory_compose's reader; ud is the ctx). */
char *jvm_var_arg_msg(const void *ud, size_t b, size_t e);
/* The text the StringBuilder (or StringBuffer) named by token var holds at
 * `to`: its last `var = new StringBuilder(...)` in [from, to) and each
 * `var.append(x)` after it, literals as they are and other values as
 * placeholders (an append in a loop or a branch, or several in a row, one
 * placeholder); NULL when there is no such declaration or no literal. */
char *jvm_builder_text(const ctx *c, size_t from, size_t to, size_t var);
/* The message held by a local variable passed as an argument:
 * `String msg = String.format("...", x); throw new X(msg);` */
char *jvm_local_msg(ctx *c, const size_t *st, const size_t *en, size_t na);
/* A call at callee with (args) and/or a trailing lambda { ... }: its
 * arguments, the message of the first from from_arg, or the lambda's;
 * *after the last token of the call. */
char *jvm_call_msg(ctx *c, size_t callee, size_t from_arg, size_t *st, size_t *en,
		   size_t *na, size_t *after);

/* The value of the file's string constant named by token i: [*b, *e). */
bool jvm_const_value(const ctx *c, size_t i, size_t *b, size_t *e);

/* bundle.c */
/* A .properties file: a message bundle's, read by the collect pass. */
bool jvm_props_path(const char *path);
/* The keys of a base bundle (no locale in its name) and their texts as
 * MessageFormat prints them, into the tree (bundle.c says under which
 * names). */
void jvm_props_collect(fl_factories *tree, const fl_src *src);
/* A call named for reporting (log, error..., warn..., report...) given a
 * key of the tree's bundles, as a literal or the file's constant, at
 * the name i: a site of the key's text.  True when it is one. */
bool jvm_rule_bundle_key(ctx *c, size_t i, bool dot_before);
/* A call named for reporting given a constant of an error enum of the
 * tree (ANTLR's `errMgr.grammarError(ErrorType.REPEATED_PREQUEL, ...)`,
 * the enum holding `REPEATED_PREQUEL(54, "repeated grammar prequel spec
 * ...", ErrorSeverity.ERROR)`) at the name i: a site of the constant's
 * text.  True when it is one. */
bool jvm_rule_enum_text(ctx *c, size_t i, bool dot_before);
/* The text of the first argument [st[k], en[k]) that is an error enum's
 * constant or a constant naming a bundle's key (`new ScannerException(
 * file, ErrorMessages.EOF_IN_COMMENT)`), or NULL.  Caller frees. */
char *jvm_const_args_text(ctx *c, const size_t *st, const size_t *en, size_t na);
/* A byte scan: the file can declare constants of a class that name a
 * bundle key (`static ErrorMessages NO_DIRECTORY = new
 * ErrorMessages("NO_DIRECTORY")`). */
bool jvm_may_have_key_consts(const char *s, size_t n);
/* In collect: those constants into the tree, "enumkey:CLS.NAME" and
 * "enumkey:NAME" with the key, for the report calls given them. */
void jvm_key_consts_collect(ctx *c, fl_factories *tree);

/* walk.c */
/* Add the site s describes (its guard computed when not set). */
void jvm_emit(ctx *c, site_spec *s);
/* The guard of a site whose statement starts at token first (the if or
 * else it is in, with an if around that), or NULL; caller frees. */
char *jvm_guard_for(ctx *c, size_t first, bool *early);
/* Walk the file's tokens: scopes, declarations, and the rules at each
 * identifier. */
void jvm_walk(ctx *c);

/* rules.c */
/* The rules on the identifier at i: sites emitted. */
void jvm_rules_at(ctx *c, size_t i);
/* An enum named for errors whose constants hold messages, its name at
 * token name. */
void jvm_error_enum(ctx *c, size_t name);
/* The texts of the file's error enums' constants, into the tree (for
 * jvm_rule_enum_text): "enumtext:ENUM.CONST" and "enumtext:CONST", tag 2
 * for a warning's. */
void jvm_error_enums_collect(ctx *c, fl_factories *tree);
/* Spring's @ResponseStatus(code = ..., reason = "...") at the '@' i. */
void jvm_rule_response_status(ctx *c, size_t i);

/* collect.c */
/* A name like an exception's (...Exception, ...Error, ...Throwable,
 * ...Fault). */
bool jvm_excy_name(const char *nm, size_t nl);
/* [b, e) a call of a method of the file (`createMessage(option)`,
 * `badElementIndex(index, size, desc)`): the texts its returns give (a
 * StringBuilder's `return buf.toString()`, a text expression), appended
 * to out (at most 8); how many. */
size_t jvm_returned_texts(const ctx *c, size_t b, size_t e, fl_strv *out);
/* The constructor call at b (Qualified.Name [<...>] (): the '(' or NOIDX;
 * *cls_i its simple name token. */
size_t jvm_ctor_at(const ctx *c, size_t b, size_t *cls_i);
/* Find the file's own exception factories (c->fac). */
void jvm_fac_find(ctx *c);
/* Find the file's raisers of a message parameter (c->raisers). */
void jvm_raisers_find(ctx *c);
/* The file's first raiser of the name at token i (c->raisers, found
 * before), or NULL. */
const fl_factory *jvm_raiser_named(const ctx *c, size_t i);
/* When the argument [b, e) of a `throw new X(...)` in the method named at
 * token fn is one of its String parameters (as it is or String.format's
 * format), the texts the file's calls of the method give it as string
 * constants (`return notEmpty(chars, DEFAULT_NOT_EMPTY_MESSAGE)`), each
 * once, appended to out (at most 64; *fmt: the texts are formats); how
 * many.  A text so given is raised at that throw. */
size_t jvm_raiser_consts(ctx *c, size_t fn, size_t b, size_t e, fl_strv *out, bool *fmt);
/* The tree's factory of that name for na arguments: every use of the tree
 * by a scan goes through here (an early scan's are logged). */
const fl_factory *jvm_tree_find(ctx *c, const char *name, size_t len, size_t na);
/* The same, with fl_factories_find_own's own: the call gives no text. */
const fl_factory *jvm_tree_find_own(ctx *c, const char *name, size_t len, size_t na, bool own);
/* The same, of the overloads whose message parameter the call gives a
 * text, when some are and some are not (fl_factories_find_fit): text has
 * bit k set when argument k holds a literal. */
const fl_factory *jvm_tree_find_fit(ctx *c, const char *name, size_t len, size_t na,
				    uint32_t text);
/* The index of the parameter that is a factory's whole message ("{msg}"),
 * or f->np. */
size_t jvm_message_param(const fl_factory *f);
/* Whether this file declares a method of the name at token i and arity na
 * that is not a thrower. */
bool jvm_own_non_thrower(ctx *c, size_t i, size_t na);

/* A file's tokens and bracket table, lexed by the collect pass and kept
 * for its scan (collect_keep): a Java file that may declare an exception
 * class, a thrower or a factory is lexed once, not twice. */
typedef struct jvm_lexed {
	fl_toks t;
	size_t *match;
	char *text;     /* the text the tokens point into when it is not the
			   file's own (a spec's Java, jvm_spec_mask), else NULL */
} jvm_lexed;

/* the language table's collect pass and early scan (lang.h) */
void jvm_lexed_free(void *p);
void jvm_collect(void *tree, const fl_src *src);
void *jvm_collect_keep(void *part, const fl_src *src);
void *jvm_collect_scan(void *part, const fl_src *src, fl_sites *out, void *hint);
bool jvm_early_holds(const void *tree, const void *log);
void jvm_early_free(void *log);
void *jvm_hint_new(void);
void jvm_hint_free(void *p);

/* spec.c */
/* Is path a JFlex (.flex, .jflex) or CUP (.cup) spec? */
bool jvm_spec_path(const char *path);
/* The spec's text as Java: its code where it is, all else spaces (line
 * breaks kept).  Caller frees. */
char *jvm_spec_mask(const char *path, const char *text, size_t len);

/* lang.c */
/* The dialect (D_*) of a file by its extension. */
int jvm_dialect_of(const char *path);
/* Scan one file with the context cp starts from (an early scan's log). */
void jvm_scan_ctx(ctx *cp, const void *tree, const fl_src *src, fl_sites *out);

#endif
