/*
 * python.h — what the files of the Python family share (lib/scan/python/):
 *
 *   lex.c    the lexer
 *   msg.c    messages rebuilt from tokens (`%`, `.format()`, f-strings,
 *            gettext), held by a local variable or joined from a list;
 *            a call's arguments
 *   sites.c  the error-site rules, the tree's collect pass and the
 *            family's entry in the language table
 */
#ifndef FL_SCAN_PYTHON_H
#define FL_SCAN_PYTHON_H

#include <stdbool.h>
#include <stddef.h>

#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

#define NONE ((size_t)-1)
#define MSG_MAX_TOKS 512
#define MSG_MAX_DEPTH 32
#define MAXVAR 4   /* messages a variable holds, at most */
#define MAXARGS 16 /* arguments of a call, at most */

static inline bool is_p(const fl_toks *t, size_t i, char c)
{
	return fl_tok_pch(t, i) == c;
}

/* ---- the walk over a file's statements (sites.c) ----------------------------- */

enum { B_DEF = 1, B_CLASS, B_COND, B_CASE, B_OTHER };

typedef struct pyblk {
	int indent;
	int kind;
	size_t name;   /* DEF/CLASS: name token */
	size_t cb, ce; /* COND/CASE: condition tokens */
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
	char *guard; /* the next site's own guard (an assert's failing
			condition), instead of the enclosing block's; owned */
	char *plural; /* the next site's message in its plural form
			 (ngettext), a second record; owned */
	bool click;   /* the file uses Click (or Typer, built on it) */
} walker;

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
/* The messages (at most MAXVAR, owned) variable token var holds at `at`. */
size_t py_var_msgs(walker *w, size_t at, size_t var, char **out);
bool py_get_args(walker *w, size_t open, callargs *a, size_t *close);
/* The argument named name=, or NONE. */
size_t py_kwarg(const fl_toks *t, const callargs *a, const char *name);
/* One list element's text appended to out, or {name} (*lit: a literal). */
void py_join_part(const fl_toks *t, size_t b, size_t e, fl_buf *out, bool *lit);
/* `" - ".join(parts)` [b, e): the parts joined, or NULL. */
char *py_join_msg(walker *w, size_t b, size_t e);
/* The message of argument k (sets w->var, w->plural); caller frees. */
char *py_arg_msg(walker *w, const callargs *a, size_t k, bool pct);
/* The message of the first keyword argument of names that has one. */
char *py_kw_msg(walker *w, const callargs *a, const char *const *names);
/* errorCode from code="..." when it looks like a code (upper case) */
char *py_code_kw(walker *w, const callargs *a);

#endif
