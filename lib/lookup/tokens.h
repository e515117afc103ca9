/*
 * tokens.h — the tokens of a message or query for the fuzzy tier and the
 * static search index (lookup.md): lowercase text with placeholders, paths,
 * hex numbers, numbers and quoted strings removed, split on non-letters.
 */
#ifndef FL_LOOKUP_TOKENS_H
#define FL_LOOKUP_TOKENS_H

#include <stddef.h>

#include "faultline.h"

#define FL_TOKEN_MAX 64     /* longer tokens are cut */

/* Distinct tokens of text, in order of first appearance (at most max;
 * returns the count).  Each token is NUL-terminated in its own slot of
 * buf (max * FL_TOKEN_MAX bytes); toks[i] points into buf. */
size_t fl_tokens(const char *text, char *buf, const char **toks, size_t max);

/* idf(t) = ln((N+1)/(df+1)) + 1 */
double fl_idf(size_t n_entries, size_t df);

#endif
