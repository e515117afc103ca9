/*
 * ruby.h — what the files of the Ruby family share (lib/scan/ruby/):
 *
 *   lex.c        the lexer
 *   msg.c        messages rebuilt from tokens; span and constant-path helpers
 *   reporters.c  the tree's collect pass: exception classes with a default
 *                message, the tree's own reporters
 *   sites.c      the error-site rules and the family's entry in the
 *                language table
 */
#ifndef FL_SCAN_RUBY_H
#define FL_SCAN_RUBY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../strmap.h"
#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

#define NONE ((size_t)-1)

static inline bool is_p(const fl_toks *t, size_t i, char c)
{
	return fl_tok_pch(t, i) == c;
}

/* keyword token: an identifier not used as method name, label or symbol */
static inline bool is_kw(const fl_toks *t, size_t i, const char *s)
{
	if (!fl_tok_is(t, i, s) || t->v[i].kind != FL_TK_IDENT)
		return false;
	if (i > 0 && t->v[i - 1].kind == FL_TK_PUNCT &&
	    (fl_tok_is(t, i - 1, ".") || fl_tok_is(t, i - 1, "&.") ||
	     fl_tok_is(t, i - 1, "::")))
		return false;
	if (i > 0 && fl_tok_is(t, i - 1, "def"))
		return false;
	/* label `if:` */
	if (i + 1 < t->n && is_p(t, i + 1, ':') &&
	    t->v[i + 1].off == t->v[i].off + t->v[i].len)
		return false;
	return true;
}

/* ---- lex.c ------------------------------------------------------------------ */

/* Lex a Ruby source into t (fl_toks_init done). */
void fl_rb_lex(fl_toks *t);

/* ---- msg.c ------------------------------------------------------------------ */

/* The message of the expression [b, e), or NULL (owned). */
char *fl_rb_msg(const fl_toks *t, size_t b, size_t e);
/* A colouring call around the text, [b, e) all of `Rainbow(x).red`,
 * `rainbow.wrap(x).yellow.bright`, `Paint[x, :red]`: the argument's span
 * in [*ib, *ie) (fl_rb_msg reads the text inside) */
bool fl_rb_styled(const fl_toks *t, size_t b, size_t e, size_t *ib, size_t *ie);
void fl_rb_put_span(fl_buf *b, const fl_toks *t, size_t s, size_t e);
/* constant path Foo::Bar over all of [b, e) */
bool fl_rb_const_path(const fl_toks *t, size_t b, size_t e);
/* whether tokens a and b have the same text */
bool fl_rb_same_tok(const fl_toks *t, size_t a, size_t b);
/* The end of the statement starting at k (the next token on a new line). */
size_t fl_rb_line_end(const fl_toks *t, const size_t *m, size_t k);

/* ---- reporters.c ------------------------------------------------------------ */

/* An exception class with a default message (reporters.c says which). */
typedef struct rbclass {
	size_t name;     /* token of the class name (last of a Foo::Bar path) */
	size_t at;       /* token where the message is set */
	char *msg;       /* owned */
	const char *idiom; /* how it is set: "class method message", ... */
} rbclass;

/* The tree's own reporters (reporters.c). */
enum { RH_NONE, RH_RAISE, RH_ABORT, RH_WARN, RH_EXIT, RH_FWD };

typedef struct rbrep {
	char *name;     /* the method */
	char *target;   /* RH_FWD: the method p goes on to */
	char *cls;      /* RH_RAISE: the class raised, or NULL */
	char *file;     /* the file defining it */
	uint8_t how;    /* RH_* */
	uint8_t named;  /* severity its name says: 0 none, 1 error, 2 warning */
	size_t next;    /* the next definition of the same name, or NONE */
} rbrep;

typedef struct rbtree {
	fl_classdefs *cls;  /* exception classes with a default message */
	fl_strmap idx;      /* name -> its last definition in v */
	rbrep *v;
	size_t n, cap;
} rbtree;

/* The class statement at i: its default message, or false. */
bool fl_rb_class_default_at(const fl_toks *t, const size_t *m, size_t i, rbclass *rc);
/* Whether a file can hold such a class (a byte scan, before lexing). */
bool fl_rb_has_class_default(const char *s, size_t n);
/* A reporter's severity: FL_S_* of what it does, or NULL when name is no
 * reporter; "exit" for one that exits.  *cls gets the class it raises. */
const char *fl_rb_rep_sev(const rbtree *r, const char *name, const char *path,
			  const char **cls, int depth);
void *fl_rb_tree_new(void);
void fl_rb_tree_free(void *tree);
void fl_rb_tree_merge(void *tree, void *part);
void fl_rb_collect(void *tree, const fl_src *src);

#endif
