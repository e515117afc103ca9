/*
 * js.h — what the files of the JavaScript / TypeScript family share
 * (lib/scan/js/):
 *
 *   lex.c    the lexer
 *   holes.c  template holes that print a known text (a styled literal,
 *            a choice between literals)
 *   rules.c  the error-site rules, the tree's collect pass (error classes,
 *            factories, reporters, message templates) and the family's
 *            entry in the language table
 */
#ifndef FL_SCAN_JS_H
#define FL_SCAN_JS_H

#include <stdbool.h>
#include <stddef.h>

#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

/* identifier bytes: [A-Za-z_$], bytes >= 0x80, and digits after the first */
static inline bool fl_js_id_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == '$' || c >= 0x80;
}
static inline bool fl_js_id_char(int c)
{
	return fl_js_id_start(c) || (c >= '0' && c <= '9');
}

/* Lex a JS / TS source into t (fl_toks_init done); jsx: JSX elements are
 * recognised (.js, .jsx, .tsx; not .ts). */
void fl_js_lex(fl_toks *t, bool jsx);

/* holes.c */
/* terminal style names (chalk.red, pc.bold...) */
extern const char *const fl_js_styles[];
/* msg with each hole `${style("text")}` replaced by its text; NULL when
 * it has none. */
char *fl_js_hole_unstyle(const char *msg);
/* The first hole `${c ? "x" : "y"}` choosing between two literals: msg
 * with each (malloc'd into *a, *b); false when there is none. */
bool fl_js_hole_choice(const char *msg, char **a, char **b);

#endif
