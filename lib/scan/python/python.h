/*
 * python.h — what the files of the Python family share (lib/scan/python/):
 *
 *   lex.c    the lexer
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

/* ---- lex.c ------------------------------------------------------------------ */

/* Lex a Python source into t (fl_toks_init done). */
void py_lex(fl_toks *t);

#endif
