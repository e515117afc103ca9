/*
 * go.h — what the files of the Go family share (lib/scan/go/):
 *
 *   lex.c      the lexer (// and non-nested block comments, interpreted
 *              and raw strings, runes)
 *   msg.c      messages rebuilt from tokens (literals, joins by `+`, format
 *              calls with the file's string constants written in, helper
 *              functions' texts, log.Print-style operands), the tables
 *              (HTTP statuses, gRPC codes), a file's imports and its
 *              string constants
 *   helpers.c  the tree's format helpers and forwarders (gotree): the
 *              collect pass's finds, and the helper a call names
 *              (go_helper, go_help_sink)
 *   rules.c    the error-site rules (errors.New, fmt.Errorf, pkg/errors,
 *              panic, log.Fatal and log.Panic variants, http.Error, gRPC
 *              status.Error*, slog and zap/logrus-style loggers, sentinel
 *              error variables, Error() methods, the tree's helpers), the
 *              blocks that give a site its function and guard, the
 *              emitted sites
 *   tmpl.c     error types' templates: an Error() method that assembles
 *              its text from the value's fields, read into a template and
 *              rendered where a value is made with literal fields or a
 *              function making one is called with a literal
 *   lang.c     the collect pass over a file, the scan of a file (the walk
 *              over its tokens), test files and folders, and the family's
 *              entry in the language table
 */
#ifndef FL_SCAN_GO_H
#define FL_SCAN_GO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../strmap.h"
#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

#define NONE ((size_t)-1)
#define SCAN_LIMIT 256
#define MSG_TOK_LIMIT 512
#define MAX_ARGS 8

/* ---- token helpers ------------------------------------------------------------ */

/* the arguments of the bracket at open (at most MAX_ARGS) */
static inline size_t go_args(const fl_toks *t, const size_t *m, size_t open,
		      size_t *sb, size_t *se)
{
	return fl_tok_split_args(t, m, open, sb, se, MAX_ARGS, NULL, 0);
}

static inline bool is_qcall(const fl_toks *t, size_t b, const char *pkg, const char *fn)
{
	return fl_tok_is_ident(t, b, pkg) && fl_tok_pch(t, b + 1) == '.' &&
	       fl_tok_is_ident(t, b + 2, fn) && fl_tok_pch(t, b + 3) == '(';
}

/* string constants of the file: const name = "text" */
typedef struct {
	size_t *name, *lit; /* token indices */
	size_t n, cap;
	fl_strmap idx;      /* name -> index (a file may declare thousands) */
} go_kcs;

/* the local names of a file's imports: "base" for "cmd/go/internal/base",
 * or its alias */
#define MAX_IMPS 96
typedef struct {
	const char *s[MAX_IMPS];
	size_t l[MAX_IMPS];
	size_t n;
} go_imps;

/* ---- rules ------------------------------------------------------------------------ */

enum { P_GUARD, P_FN };

typedef struct {
	size_t brace;
	int kind;
	char *name;
	size_t gb, ge;
} go_pend;

typedef struct {
	size_t open;
	const char *fn;
	char *own_fn;
	bool has_guard;
	bool neg; /* an else's block: it runs when the guard does not hold */
	size_t gb, ge;
} go_ctx;

#define MAX_PEND 64

typedef struct {
	const fl_toks *t;
	size_t *m;
	go_ctx *cs;
	size_t csn, csc;
	go_pend pend[MAX_PEND];
	size_t np;
	/* the if block closed last: its '{' and condition, for an else after it */
	size_t if_open, if_gb, if_ge;
	fl_sites *out;
	size_t var_open, var_close; /* current var ( ... ) block */
	size_t consumed;            /* first token of a call already reported */
	struct {
		size_t tok;         /* alias identifier token */
		const char *canon;  /* errors, fmt, log, slog, http, status */
	} al[16];
	size_t nal;
	/* body of the current `func (e *T) Error() string` method */
	size_t errm_open, errm_close, errm_type;
	go_kcs kc;
	const void *tree;           /* the tree's gotree (format helpers) */
	const char *dir;            /* folder of the file */
	go_imps imps;               /* its imports' names (with a tree) */
	char *pkg;                  /* its package clause's name, or NULL */
} go_st;

/* ---- the tree's format helpers -------------------------------------------------
 * A function of the tree that takes a format and its arguments and hands
 * them on to a formatter that raises or reports: `func failf(format string,
 * args ...any) { fmt.Fprintf(os.Stderr, format, args...); os.Exit(2) }`,
 * `func notExistErrorf(format string, args ...any) error { return
 * notExistError{fmt.Errorf(format, args...)} }`, `func (g *G) errorf(...)
 * { ...fmt.Sprintf(format, args...); panic(stop) }`, `func
 * ImportErrorf(path, format string, args ...any)`.  collect() finds them
 * in every file; a call of one with a literal format is a site, as a call
 * of fmt.Errorf is.  A helper may hand its format on to another helper
 * (base.Fatalf -> Errorf -> log.Printf). */

/* GS_WEAK: a print to standard error by a helper whose name says no error
 * and that neither exits nor panics (a logging helper), unless a helper
 * that does hands its format on to it */
enum { GS_NONE, GS_ERR, GS_FATAL, GS_PANIC, GS_CONSOLE, GS_FWD, GS_WEAK };

typedef struct {
	char *name;       /* the function or method */
	char *dir;        /* folder of the file defining it ("" at the top) */
	char *fq, *fn;    /* GS_FWD: the callee's qualifier (or NULL) and name */
	bool method;      /* a method (called as x.name) */
	bool fq_pkg;      /* GS_FWD: fq is an imported package */
	bool fq_chain;    /* GS_FWD: called on a chain a.b.fn */
	bool errish;      /* its name says error, or it exits or panics */
	bool plain;       /* its parameter fi is a message, not a format
			     (`func errorExit(msg string)`) */
	char *pre, *suf;  /* the text it puts around it ("age: error: "+format),
			     or NULL */
	char *tt, *tf;    /* a maker of an error value: the type whose
			     template renders the message, the field its
			     parameter fi fills */
	char *given;      /* its other fields given (",A,B,"; "B=2": the one
			     its parameter 2 fills), or NULL */
	uint8_t sink;     /* GS_*: what it does with the format */
	uint8_t fi, ffi;  /* index of the format parameter; GS_FWD: of the
			     format in the callee's call */
	size_t next;      /* the next definition of the same name, or NONE */
} gohelp;

/* ---- error types' templates (tmpl.c) ----------------------------------------- */

enum { GT_LIT, GT_FIELD, GT_PH, GT_IF };
/* what an if's condition asks of a field: set (not "", nil or 0), unset,
 * ends or starts with arg, equals arg or not; unknown: not read */
enum { GC_UNKNOWN, GC_SET, GC_UNSET, GC_SUFFIX, GC_PREFIX, GC_EQ, GC_NE };

typedef struct {
	uint8_t kind;     /* GT_* */
	uint8_t cond;     /* GT_IF: GC_* */
	bool quote;       /* GT_FIELD: %q, quoted when filled */
	char *s;          /* GT_LIT, GT_PH: the text; GT_FIELD, GT_IF: the field */
	char *arg;        /* GT_FIELD: the placeholder when not known; GT_IF:
			     the text compared with */
	uint32_t nthen, nelse; /* GT_IF: the nodes of each branch, after it */
} gtnode;

typedef struct {
	char *type, *dir; /* the error type and the folder of its package */
	gtnode *v;
	size_t n, cap;
	size_t fence;     /* while read: a literal is not joined to a node
			     before this one (a branch's start, an if's end) */
	size_t next;      /* the next type of the same name, or NONE */
} gotmpl;

/* a field's value where a value is made: absent (its zero value), a
 * literal text, or anything else */
enum { GV_ZERO, GV_LIT, GV_UNKNOWN };
typedef struct {
	const char *name;
	size_t nl;
	int st;           /* GV_* */
	char *text;       /* GV_LIT */
	size_t tok;       /* the value's first token */
} gtval;

typedef struct {
	fl_strmap idx;    /* name -> its last definition in v */
	gohelp *v;
	size_t n, cap;
	fl_strmap tidx;   /* error type -> its last template in tv */
	gotmpl *tv;
	size_t tn, tcap;
} gotree;

/* ---- lex.c --------------------------------------------------------------------- */

/* Lex a Go source into t (fl_toks_init done): // and non-nested block
 * comments, interpreted and raw strings, runes. */
void go_lex(fl_toks *t);

/* ---- msg.c --------------------------------------------------------------------- */

/* the text of [b, e) when it is one name of a string constant of the
 * file (a name with two different texts is none) */
const char *go_kconst(const go_kcs *kc, const fl_toks *t, size_t b, size_t e, size_t *len);

/* A format call's message with the string constants among its arguments
 * written in: fmt.Errorf("%s%s", errFlagNeedsArg, name) with const
 * errFlagNeedsArg = "flag needs an argument: " gives
 * "flag needs an argument: %s".  Only plain %s / %v verbs take a constant;
 * NULL when the format at sb[fi] is no literal, uses explicit argument
 * indexes or '*', or no argument is a constant. */
char *go_fmt_consts(const go_kcs *kc, const fl_toks *t, const size_t *sb, const size_t *se,
		    size_t na, size_t fi);

/* message of the argument expression [b, e) */
char *go_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t b, size_t e,
	     bool fmt, int depth);

/* log.Print-style message: operands joined (with spaces for the ln
 * variants, else between two non-string operands); NULL without any
 * literal */
char *go_print_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, const size_t *sb,
		   const size_t *se, size_t na, bool ln);

/* HTTP status of the argument [b, e): http.StatusX or a number */
int go_http_status(const fl_toks *t, size_t b, size_t e);

/* codes.NotFound -> NOT_FOUND (codes.Canceled -> CANCELLED) */
char *go_grpc_code(const fl_toks *t, size_t b, size_t e);

/* tokens a and b spell the same */
bool go_same_tok(const fl_toks *t, size_t a, size_t b);

/* the local names of a file's imports into im */
void go_imps_of(const fl_toks *t, const size_t *m, go_imps *im);
/* whether s[0..n) is one of them */
bool go_imported(const go_imps *im, const char *s, size_t n);

/* the file's string constants, top-level and local */
void go_collect_consts(go_kcs *kc, const fl_toks *t, const size_t *m);

/* ---- helpers.c ----------------------------------------------------------------- */

/* the tree (fl_lang's tree_new, tree_free, tree_merge) */
void *go_tree_new(void);
void go_tree_free(void *tree);
void go_tree_merge(void *tree, void *part);

/* the helper defined at func token i, if it is one (added to g) */
void go_collect_func(gotree *g, const fl_toks *t, const size_t *m, size_t i, const char *dir,
		     const go_imps *im);

/* The helper named at token nm whose parameter list opens at j, if it is
 * one (added to g). */
void go_collect_helper(gotree *g, const fl_toks *t, const size_t *m, size_t nm, size_t j,
		       bool method, const char *dir, const go_imps *im);

/* A byte scan: `func NAME(... string)` or `func (r T) NAME(...)` with NAME
 * a name that says error (go_errish_name) and a string among the
 * parameters: the file may declare a plain helper (go_plain_helper). */
bool go_may_plain_helper(const char *s, size_t n);

/* The helper a call names: `name(` in folder dir (q NULL), `q.name(` of
 * an imported package q (pkg: a function of a folder named q) or of a
 * value (a method), a method called on a chain (chain).  The first
 * definition with a sink; *sink gets it. */
const gohelp *go_helper(const gotree *g, const char *name, const char *dir, const char *q,
			size_t ql, bool pkg, bool chain, int *sink, int depth);

/* whether folder dir's last name is s[0..n) */
bool go_dir_is(const char *dir, const char *s, size_t n);

/* a type named as an error's: ParseError, syntaxErr */
bool go_error_type_name(const char *s, size_t n);

/* ---- tmpl.c -------------------------------------------------------------------- */

/* `func (r T) Error() string {` at func token i: its template, if it
 * builds its text from fields (added to g) */
void go_tmpl_collect(gotree *g, const fl_toks *t, const size_t *m, size_t i, const char *dir);
void go_tmpl_add(gotree *g, gotmpl *tp);
void go_tmpl_free(gotmpl *tp);
/* the template of type `type` of folder dir, or of package q */
const gotmpl *go_tmpl_find(const gotree *g, const char *type, const char *dir, const char *q,
			   size_t ql);
/* the text with the fields' values v written in; *filled: a field got a
 * literal text */
char *go_tmpl_render(const gotmpl *tp, const gtval *v, size_t nv, bool *filled);
/* the keyed fields of the composite literal opened at open (at most max) */
size_t go_tmpl_fields(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t open, gtval *v,
		      size_t max);
void go_tmpl_vals_free(gtval *v, size_t n);

/* ---- rules.c ------------------------------------------------------------------- */

/* body '{' of a func signature after from; the body must start on the
 * line where the signature ends */
size_t go_fn_body(const fl_toks *t, const size_t *m, size_t from);

/* body '{' of an if; *semi gets the last depth-0 ';' (or NONE) */
size_t go_find_if_body(const go_st *st, size_t from, size_t *semi);

/* an import declaration at i: the aliases of the packages with rules */
void go_import(go_st *st, size_t i);

/* a block to come whose '{' is brace: a guard (P_GUARD) or a function
 * (P_FN, name) */
void go_pend_add(go_st *st, size_t brace, int kind, char *name, size_t gb, size_t ge);

/* the walk enters the block at '{' k, and leaves it at '}' k */
void go_ctx_push(go_st *st, size_t k);
void go_ctx_pop(go_st *st, size_t k);

/* method name of `func (recv) Name` / `func Name` at func token i */
void go_func(go_st *st, size_t i);

/* `return EXPR` at i inside an Error() string method */
void go_error_method_return(go_st *st, size_t i);

/* the name at i ends in f (a format: Errorf, Fatalf) */
bool go_ends_f(const fl_toks *t, size_t i);

/* a call `name(` at token i (name is an identifier, i+1 is '(') */
void go_call(go_st *st, size_t i);

/* a call of a name starting in lower case at i: one of the tree's format
 * helpers (failf("..."), g.errorf("...")); true when it was one */
bool go_lower_call(go_st *st, size_t i);

/* a composite literal of an error type of the tree whose template its
 * literal fields fill, at its type's name i: a site; true when it was */
bool go_error_literal(go_st *st, size_t i);

#endif
