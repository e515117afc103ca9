/*
 * php.h — what the files of the PHP family share (lib/scan/php/):
 *
 *   lex.c    the lexer (<?php ... ?>, strings with interpolation, heredoc
 *            and nowdoc)
 *   msg.c    messages rebuilt from tokens (joins by `.`, sprintf, locals,
 *            caught exceptions' messages, helper functions' texts) and
 *            the alternative messages built in several branches
 *   rules.c  the frames that give a site its function and guard, the
 *            site rules (throw, trigger_error, abort, die / exit, STDERR,
 *            console output) and the emitted sites
 *   catalog.c rule catalogues: the XML files of the tree that give each
 *            rule class its violation's message, and the class's reports
 *   lang.c   the tree's collect pass, the scan of a file and the family's
 *            entry in the language table
 */
#ifndef FL_SCAN_PHP_H
#define FL_SCAN_PHP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

#define NONE ((size_t)-1)

typedef struct frame {
	uint8_t kind; /* 0 block, 1 function, 2 class, 3 control */
	size_t name, cls;
	size_t gb, ge;
	bool neg; /* an else's block: it runs when the guard does not hold */
} frame;

/* The tree (the collect pass): what a caught exception's getMessage()
 * holds.  thrown: by class, the one message `throw new C('...')` gives it
 * in the tree (two, or one not known, make it unknown); decl: "C" for a
 * class the tree declares, ">C" for one a class of the tree extends;
 * ctor: by class, the message its constructor gives its parent
 * (`parent::__construct(sprintf('Class or interface "%s" does not
 * exist', $type))`). */
typedef struct php_tree {
	fl_classdefs *thrown, *decl, *ctor;
	fl_classdefs *rules; /* by class, the message a rule catalogue gives
				a violation of it (catalog.c) */
} php_tree;

typedef struct ctx {
	fl_toks t;
	size_t *match;
	fl_sites *out;
	frame *fr;
	size_t nfr, capfr;
	uint8_t *used;
	const php_tree *tree; /* scan: the collected tree, or NULL */
	php_tree *part;       /* collect: the file's part (nothing emitted) */
} ctx;

static inline bool is_p(const ctx *c, size_t i, const char *s)
{
	return fl_tok_is_punct(&c->t, i, s);
}

static inline bool is_id(const ctx *c, size_t i, const char *s)
{
	return fl_tok_is_ident(&c->t, i, s);
}

static inline bool is_kind(const ctx *c, size_t i, int k)
{
	return fl_tok_is_kind(&c->t, i, k);
}

/* the arguments of the bracket at open (at most max) */
static inline size_t split_args(const ctx *c, size_t open, size_t *s, size_t *e,
				size_t max)
{
	return fl_tok_split_args(&c->t, c->match, open, s, e, max, NULL, 0);
}

/* ---- lex.c ------------------------------------------------------------------ */

/* Lex a PHP source into t (fl_toks_init done). */
void php_lex(fl_toks *t);

/* ---- msg.c ------------------------------------------------------------------ */

/* message of [b, e) with guards against pathological inputs */
char *php_msg_of(const ctx *c, size_t b, size_t e);
/* message of an argument [b, e): literals, sprintf(...), and a local
 * variable assigned one of those before (throw new X($message)) */
char *php_arg_msg(const ctx *c, size_t b, size_t e);
/* The name token of the file's one `function NAME(` of the name at token
 * nm (within the file's budget of helper reads), or NONE: none, or two. */
size_t php_file_function(const ctx *c, size_t nm);
/* At least 3 letters outside {placeholders}: a text of its own. */
bool php_has_text(const char *m);
/* The texts of argument [b, e) when it has two at least: PHP_EOL a line
 * break, trailing blanks off, empty texts left out.  0 otherwise. */
size_t php_arg_alts(const ctx *c, size_t b, size_t e, fl_strv *out);

/* ---- catalog.c -------------------------------------------------------------- */

/* An XML file: a rule catalogue's, read by the collect pass. */
bool php_catalog_path(const char *path);
/* The rules an XML catalogue declares by class, with their messages,
 * into pt->rules. */
void php_catalog_collect(php_tree *pt, const fl_src *src);
/* `$this->addViolation(...)` (a method named for a violation, a report,
 * an error) at the name i in a class the tree's catalogue gives a
 * message: true and *msg (caller frees). */
bool php_rule_catalog(ctx *c, size_t i, char **msg);

/* ---- rules.c ---------------------------------------------------------------- */

/* qualified name (\A\B\C or A\B) starting at k: returns the last ident */
size_t php_qname(const ctx *c, size_t k, size_t *after);
/* The rules over a file's tokens: its sites, or with c->part the collect
 * pass's throws only (nothing emitted). */
void php_rules(ctx *c);

#endif
