/*
 * match.h — confirming a messagePattern against a text and reporting what
 * its placeholders captured.
 *
 * Patterns derived by records.md are literal text with `(.+?)` gaps; those
 * are compiled to a "program" of literal segments and matched with memmem,
 * without backtracking (earliest occurrence of each segment is optimal for
 * such patterns).  Any other regex (from an imported data set) goes to
 * PCRE2 with JIT and match limits.
 */
#ifndef FL_LOOKUP_MATCH_H
#define FL_LOOKUP_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "faultline.h"

#define FL_MAX_SEGMENTS 64

/* A simple pattern: [gap] seg (gap seg)* [gap]; gaps need >= min chars. */
typedef struct fl_prog {
	uint16_t nseg;
	uint16_t literal;                 /* literal bytes in all segments */
	uint8_t lead_gap, trail_gap;      /* minimum lengths, 0 = none */
	uint8_t gap[FL_MAX_SEGMENTS];     /* gap[i]: min chars between seg i and i+1 */
	const char *seg[FL_MAX_SEGMENTS];
	uint16_t seglen[FL_MAX_SEGMENTS];
} fl_prog;

/* Parse pattern into prog, unescaping into buf (>= strlen(pattern)+1
 * bytes).  Returns false when the pattern is not of the simple form. */
bool fl_prog_parse(const char *pattern, char *buf, fl_prog *prog);

/* Longest literal run of any pattern (for prefiltering): offset and length
 * into buf (unescaped).  Returns false when none of 3+ bytes exists. */
bool fl_pattern_factor(const char *pattern, char *buf, size_t *len);

/* A capture: [start, end) of the text. */
typedef struct fl_span {
	size_t start, end;
} fl_span;

/* Match prog against text: true on a match; fills the captures (one per
 * gap, in order; at most FL_MAX_SEGMENTS+1) and the whole match span.  A
 * trailing gap captures to the end of the line. */
bool fl_prog_match(const fl_prog *p, const char *text, size_t len,
		   fl_span *caps, size_t *ncaps, fl_span *whole);

/* Could the printf conversion conv (conv[0] == '%', clen bytes: "%llu",
 * "%5d", "%#x") have printed cap[0, n)?  For the integer ones (d i u o x
 * X): a sign, digits of the base (with '#' "0x", or Python's "0o"; Ruby's
 * ".." of a negative in hex or octal), padding blanks only when a width
 * asks for them, grouping commas only with Java's ',' flag (and anything
 * with "'": C's grouping, PHP's padding character).  side: 0 the whole capture; -1 its end (a leading gap captures
 * from the start of the line), +1 its start (a trailing gap captures to
 * the end of the line), the value then apart from the text around it.
 * True for every other conversion. */
bool fl_capture_fits(const char *conv, size_t clen, const char *cap, size_t n, int side);

/* PCRE2 fallback: match pattern against text (compiled and cached per
 * thread).  Same outputs as fl_prog_match.  Returns false on no match,
 * on a pattern that does not compile, or when the match limit is hit. */
bool fl_regex_match(const char *pattern, const char *text, size_t len,
		    fl_span *caps, size_t *ncaps, fl_span *whole);
void fl_regex_cache_clear(void);

/* The pattern a lenient lookup tries for pattern (records.md's, derived
 * from a message): Python's %(name) forms that it leaves literal, those
 * with flags, a width or a conversion other than s d i f g e (`%(value)r`,
 * `%(count)5d`: `%\(value\)r` in the pattern), and Ruby's format names
 * (`%<source>s`, which records.md does not list), as (.+?) too.  NULL when
 * it has none, or when fewer than 6 literal characters would be left.
 * Caller frees.  (search.js's loosePattern does the same.) */
char *fl_pattern_loose(const char *pattern);
/* The same (FL_LOOSE_FORMS), or with a line break of the message and
 * the white space around it as `\s+` too (FL_LOOSE_WS: the text printed
 * on one line, for the lenient pass), or as a (.+?) (FL_LOOSE_WS_HOLES:
 * the segments such a text holds, for the index's factors). */
enum { FL_LOOSE_FORMS, FL_LOOSE_WS, FL_LOOSE_WS_HOLES };
char *fl_pattern_loose_as(const char *pattern, int ws);

#endif
