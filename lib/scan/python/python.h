/*
 * python.h — what the files of the Python family share (lib/scan/python/):
 *
 *   lex.c        the lexer
 *   msg.c        messages rebuilt from tokens (`%`, `.format()`, f-strings,
 *                gettext), held by a local variable or joined from a list;
 *                a call's arguments
 *   classes.c    exception classes with a default message (an attribute,
 *                `__init__`, `__str__`) and their sites
 *   reporters.c  calls that report (abort, parser.error, sys.exit,
 *                warnings, logging, Click's fail) and the tree's own
 *                reporters (print to stderr and exit)
 *   factories.c  functions whose returns give an error, and the raises of
 *                their value
 *   raisers.c    the tree's raising helpers and error factories that take
 *                their message as a parameter, a site at each call
 *   keyed.c      messages a class keeps in a dict by key
 *                (`default_error_messages`), raised by their key
 *   raise.c      raise / assert sites, `return X(...)` in an error
 *                factory, HTTP exception classes
 *   sites.c      the walk over a file's statements (blocks, the enclosing
 *                function and guard), emitting sites, the tree's collect
 *                pass and the family's entry in the language table
 */
#ifndef FL_SCAN_PYTHON_H
#define FL_SCAN_PYTHON_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

#define NONE ((size_t)-1)
#define MSG_MAX_TOKS 512
#define MSG_MAX_DEPTH 32
#define MAXVAR 8   /* messages a variable holds, at most */
#define MAXARGS 16 /* arguments of a call, at most */

static inline bool is_p(const fl_toks *t, size_t i, char c)
{
	return fl_tok_pch(t, i) == c;
}

/* Whether tokens a and b are the same identifier. */
static inline bool py_same_ident(const fl_toks *t, size_t a, size_t b)
{
	return t->v[a].kind == FL_TK_IDENT && t->v[a].len == t->v[b].len &&
	       memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[b].len) == 0;
}

static inline bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t l = strlen(suf);
	return n >= l && memcmp(s + n - l, suf, l) == 0;
}

static inline bool contains_ci(const char *s, size_t n, const char *needle)
{
	size_t l = strlen(needle);
	for (size_t i = 0; i + l <= n; i++) {
		size_t k = 0;
		while (k < l && (s[i + k] | 0x20) == needle[k])
			k++;
		if (k == l)
			return true;
	}
	return false;
}

/* ---- the walk over a file's statements (sites.c) ----------------------------- */

enum { B_DEF = 1, B_CLASS, B_COND, B_CASE, B_OTHER, B_EXCEPT };

typedef struct pyblk {
	int indent;
	int kind;
	size_t name;   /* DEF/CLASS: name token */
	size_t cb, ce; /* COND/CASE: condition tokens */
	bool is_if;    /* COND: an if or elif (not a while) */
	bool neg;      /* COND: an else's block, that runs when cb..ce (its
			  if's condition) does not hold */
} pyblk;

typedef struct walker {
	const fl_toks *t;
	const size_t *m;
	const fl_classdefs *tree; /* exception classes with a default message */
	pyblk *blk;
	size_t nblk, capblk;
	fl_sites *out;
	fl_buf fn;
	size_t var; /* message argument that is one variable name, or NONE */
	int var_fmt;  /* how var is formatted there: 0 as it is, '%' by
			 `var % args`, '{' by `var.format(...)` */
	char *guard; /* the next site's own guard (an assert's failing
			condition), instead of the enclosing block's; owned */
	char *plural; /* the next site's second message, a second record:
			 ngettext's plural form, a conditional
			 expression's other branch; owned */
	bool click;   /* the file uses Click (or Typer, built on it) */
	size_t *exc;  /* the name tokens of the file's classes with a base
			 named like an exception (raise.c), once found */
	size_t nexc;
	bool exc_found;
	fl_buf *log;  /* an early scan (collect_scan): the tree is taken for
			 empty, each name looked up logged here */
	size_t *defs; /* the tokens of the file's `def NAME(` at line starts,
			 by name (py_file_def), once found */
	size_t ndefs;
	bool defs_found;
	int keyed;    /* the file has a dict of messages (keyed.c): 0 not
			 asked yet, 1 no, 2 yes */
} walker;

/* The tree's entry of name (fl_classdefs_find, fl_classdefs_params):
 * every use of the tree by a scan goes through these.  An early scan
 * (w->log) takes the tree for empty (none) and logs the name. */
bool py_tree_find(const walker *w, const char *name, const char **msg, const char **code,
		  int *status);
const char *py_tree_params(const walker *w, const char *name);

typedef struct callargs {
	size_t n;            /* all args */
	size_t st[MAXARGS], en[MAXARGS];
	size_t kw[MAXARGS];  /* keyword name token or NONE */
	size_t npos;         /* positional count */
	size_t pos[MAXARGS]; /* index into st/en of positional args */
} callargs;

/* ---- lex.c ------------------------------------------------------------------ */

/* Lex a Python source into t (fl_toks_init done). */
void py_lex(fl_toks *t);

/* ---- msg.c ------------------------------------------------------------------ */

/* Split args of the bracket at open; returns count, or NONE when
 * unbalanced. */
size_t py_split_args(const fl_toks *t, const size_t *m, size_t open,
		     size_t *st, size_t *en, size_t max, size_t *close);
/* fl_msg_from_expr with size and nesting limits. */
bool py_range_ok(const fl_toks *t, size_t b, size_t e);
/* Message of the expression [b, e) (`%`, `.format(...)`, f-strings);
 * pct_all: decode %% everywhere.  Caller frees. */
char *py_msg(const fl_toks *t, size_t b, size_t e, bool pct_all);
/* The file's module constants (`PREFIX = 'No module named '`), read as
 * their literals by py_msg() until py_consts_end(): one file at a time on
 * a thread, set by the scan and the collect pass of that file. */
void py_consts_begin(const fl_toks *t);
void py_consts_end(void);
/* Each constant of the file being read (py_consts_begin) bound to
 * literals whose text is a message, with that text. */
void py_consts_each(const fl_toks *t, void (*each)(void *ud, const char *name, const char *text),
		    void *ud);
/* The text of another module's constant, `errors.DOCUMENT_MISSING` at
 * token b (module, '.', a name in capitals), that the tree collected
 * ("const:MODULE.NAME"); NULL when none.  Caller frees. */
char *py_module_const(walker *w, size_t b);
/* The messages (at most MAXVAR, owned) variable token var holds at `at`;
 * fmt: how var is formatted where it is used (walker.var_fmt), whose
 * escapes (`%%`, `{{`) are decoded in its texts. */
size_t py_var_msgs(walker *w, size_t at, size_t var, int fmt, char **out);
bool py_get_args(walker *w, size_t open, callargs *a, size_t *close);
/* The argument named name=, or NONE. */
size_t py_kwarg(const fl_toks *t, const callargs *a, const char *name);
/* One list element's text appended to out, or {name} (*lit: a literal). */
void py_join_part(const fl_toks *t, size_t b, size_t e, fl_buf *out, bool *lit);
/* `" - ".join(parts)` [b, e): the parts joined, or NULL; *alt (alt not
 * NULL): the text of the list's other binding (bound in two branches),
 * or NULL. */
char *py_join_msg(walker *w, size_t b, size_t e, char **alt);
/* A helper call's argument for its parameter k: the text [b, e) gives
 * (a joined list's, else py_msg's).  A joined list bound in two branches
 * keeps its other text in *alt (the first such argument only), for
 * py_alt_plural.  NULL for no text. */
typedef struct py_alt {
	char *text; /* owned */
	size_t k;
} py_alt;
char *py_param_text(walker *w, size_t b, size_t e, size_t k, py_alt *alt);
/* The helper's text with alt's argument in place of the one given, as
 * the call's second site (w->plural, unless one is set); frees nothing. */
void py_alt_plural(walker *w, const char *text, char *const *names, char **values, size_t np,
		   const py_alt *alt);
/* The message of argument k (sets w->var, w->plural); caller frees. */
char *py_arg_msg(walker *w, const callargs *a, size_t k, bool pct);
/* The message of the first keyword argument of names that has one. */
char *py_kw_msg(walker *w, const callargs *a, const char *const *names);
/* The body of the def at d whose parameters close at `close`: [*body,
 * *end), the block on the lines after its ':'.  False when there is none,
 * when it is longer than max tokens, or when it holds a class, a yield or
 * (unless defs) a def (not a plain helper). */
bool py_def_body(const fl_toks *t, size_t d, size_t close, size_t max, bool defs,
		 size_t *body, size_t *end);
/* The token of the file's one `def NAME(` at the start of a line, NAME
 * the identifier at token nm (a method or a function), its parameters
 * matched; NONE when there is none or more than one. */
size_t py_file_def(walker *w, size_t nm);
/* The local name at token v assigned once in [body, r), at the start of
 * a line (`message = "..."`): its value's tokens [*b, *e), to the end of
 * that line; false for none or more than one assignment. */
bool py_local_value(const fl_toks *t, const size_t *m, size_t body, size_t r, size_t v,
		    size_t *b, size_t *e);
/* The token after the nested def that starts at q (at the start of its
 * line) and its block, within [q, end); q when q is no def. */
size_t py_skip_def(const fl_toks *t, size_t q, size_t end);
/* The names of a tree entry's parameter list (one a line) into names (at
 * most max, each owned); their count. */
size_t py_param_list(const char *params, char **names, size_t max);
/* errorCode from code="..." when it looks like a code (upper case) */
char *py_code_kw(walker *w, const callargs *a);

/* ---- keyed.c ---------------------------------------------------------------- */

/* The texts of the message key [b, e) gives in the dicts of messages of
 * the raise's class, its bases and subclasses in the file (`"invalid"`,
 * when bare; `self.error_messages["invalid"]`), appended to out; how
 * many. */
size_t py_keyed_texts(walker *w, size_t b, size_t e, bool bare, fl_strv *out);
/* `self.fail("invalid")` at i (its receiver at pb), a method of the file
 * that raises, given a key of the class's messages (Django REST
 * framework): a site per text; false when it is no such call. */
bool py_keyed_call(walker *w, size_t i, size_t pb);
/* A file that may hold a table of messages by code and symbol (a byte
 * scan: `msgs`, `MSGS`). */
bool py_has_msg_table(const char *s, size_t n);
/* Its entries `"C0114": ("text", "symbol", ...)` into the tree, as
 * "msgsym:SYMBOL" (the code kept). */
void py_msg_table_collect(fl_classdefs *tr, const fl_toks *t, const size_t *m);
/* `self.add_message("symbol", ...)` at i (its receiver at pb) naming a
 * symbol of the tree's tables: a console site of its text and code. */
bool py_msg_table_call(walker *w, size_t i, size_t pb);

/* ---- classes.c -------------------------------------------------------------- */

typedef struct pyclass {
	size_t name;       /* token of the class name */
	size_t attr;       /* token of the message attribute */
	char *msg, *code;  /* owned */
	int status;        /* status_code = 404 / status.HTTP_404_NOT_FOUND */
	bool excy;         /* named or derived like an exception */
	bool init;         /* the message is passed on by __init__ */
	bool str;          /* the message is what __str__ returns */
	char *params;      /* owned: __init__'s parameters (without self), one
			      per line, when the message names one ({name!r}) */
	char *base;        /* owned: the first base class's (last) name */
	char *sup;         /* owned: the base's __init__ parameter the message
			      is given to (a name, or "#N" the N-th argument) */
	char *dflt;        /* owned: the __init__ parameter whose value, when a
			      raise gives one, is the message in place of the
			      default the body sets (`if message is None:
			      message = f"..."`): its name, a newline, its
			      0-based position after self; NULL when none */
} pyclass;

/* A name like an exception's (...Error, ...Exception, ...Exc, ...Warning). */
bool py_excy_name(const char *s, size_t n);
/* The message attribute of the class statement at i, or false. */
bool py_class_attrs(const fl_toks *t, const size_t *m, size_t i, pyclass *pc);
void py_class_free(pyclass *pc);
/* Whether a file can hold such a class (a byte scan, before lexing). */
bool py_has_class_attr(const char *s, size_t n);
/* The message of a class whose __init__ builds it from params (one per
 * line), for a raise with arguments a.  Caller frees. */
char *py_compose_init(walker *w, const char *msg, const char *params, const callargs *a);
/* msg as the bases of class cls show it, when cls gives it to a base's
 * __init__ that adds to it (classes.c).  Takes msg. */
char *py_class_decorate(walker *w, const char *cls, char *msg);
/* The message attribute of an exception class at i: a site of its own. */
void py_class_site(walker *w, size_t i);
/* The texts a multi-branch `__str__` of the exception class statement at i
 * returns, PY_TEXT_SEP between them (the tree's "strs:NAME": a raise of
 * the class that gives no text of its own shows one of them); NULL when
 * none.  Caller frees. */
#define PY_TEXT_SEP '\x1e'
char *py_class_str_texts(const fl_toks *t, const size_t *m, size_t i);

/* ---- reporters.c ------------------------------------------------------------ */

/* Whether a file can define a reporter (a byte scan, before lexing). */
bool py_has_reporter(const char *s, size_t n);
/* The def at d when it is a reporter: its printed text and parameters (one
 * per line), *method when it takes self, *quiet when it does not exit,
 * *printer when it only prints on stderr. */
bool py_reporter_def(const fl_toks *t, const size_t *m, size_t d, char **text,
		     char **params, bool *method, bool *quiet, bool *printer);
/* A call at ident i with '(' at i+1. */
void py_do_call(walker *w, size_t i);

/* ---- factories.c ------------------------------------------------------------ */

/* Whether a file can define an error factory (a byte scan, before lexing). */
bool py_has_factory(const char *s, size_t n);
/* `def NAME(...):` at d: "fac:NAME" in the tree when a return of its body
 * gives an error. */
void py_fac_collect(fl_classdefs *tr, const fl_toks *t, const size_t *m, size_t d);
/* `err = ValueError("...")` then `raise err`: the class construction
 * local variable v holds at `at` (its last assignment in the enclosing
 * def, a whole statement), [*b, *e); false otherwise. */
bool py_var_ctor(const walker *w, size_t at, size_t v, size_t *b, size_t *e);
/* A raise at i of a factory's value [j, e): a site per message it gives;
 * true when it made any. */
bool py_fac_raise(walker *w, size_t i, size_t j, size_t e);

/* ---- raise.c ---------------------------------------------------------------- */

/* status from a NUMBER token or an ident like HTTP_404_NOT_FOUND */
int py_status_of(const fl_toks *t, size_t b, size_t e);
/* `raise X(...)` at i */
void py_do_raise(walker *w, size_t i);
/* `return X(...)` at i, a site in an error factory */
void py_do_return(walker *w, size_t i);
/* `assert test, message` at i */
void py_do_assert(walker *w, size_t i);
/* An exception made at the call i (path from pb) and stored, to be raised
 * from where it is kept: `errors[v] = InvalidInput(f"...")`, `self.exc =
 * ConfigError("...")`, `fut.set_exception(TimeoutError("..."))`. */
bool py_stored_exception(walker *w, size_t i, size_t pb);
/* Its site, as a raise's (no site without a text of its own). */
void py_do_stored(walker *w, size_t i, size_t pb);

/* ---- raisers.c -------------------------------------------------------------- */

/* Whether a file can define a raising helper (a byte scan, before lexing). */
bool py_has_raiser(const char *s, size_t n);
/* The file's defs kept in tr ("rai:NAME", "raic:NAME") that raise, or
 * return, an error whose message is one of their parameters. */
void py_raisers_collect(fl_classdefs *tr, const fl_toks *t, const size_t *m);
/* A call at i (path from pb) of a raising helper of the tree (raised: the
 * call's value is raised, an error factory's): a site with the message
 * its arguments give and the helper's condition as its guard.  True when
 * it made one. */
bool py_raiser_call(walker *w, size_t i, size_t pb, bool raised);

/* ---- sites.c ---------------------------------------------------------------- */

/* The guard of the enclosing block (and of an if around it), or NULL;
 * caller frees. */
char *py_cur_guard(walker *w);

/* index of the innermost open block of this kind, or NONE */
size_t py_innermost(const walker *w, int kind);
/* A site at token at (several: the plural form, a variable's messages). */
void py_emit(walker *w, size_t at, const char *msg, const char *code,
	     const char *cls, const char *type, const char *sev, int http,
	     const char *idiom);
/* One site at token at, as it is (no plural, no variable). */
void py_emit1(walker *w, size_t at, const char *msg, const char *code,
	      const char *cls, const char *type, const char *sev, int http,
	      const char *idiom);

#endif
