/*
 * normalize.h — turning raw error text (a message, a log line, a panic, a
 * traceback, a cause chain, a JSON log line) into the messages to look up,
 * plus the evidence the wrappers carried (class names, file paths,
 * modules, error codes).
 */
#ifndef FL_LOOKUP_NORMALIZE_H
#define FL_LOOKUP_NORMALIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "faultline.h"

#define FL_FRAME_FUNCS 6
typedef struct fl_query {
	char *clean;        /* the text, ANSI colours removed, each line stripped
			       of timestamps, levels and logger prefixes */
	fl_strv messages;   /* candidate messages, most likely first */
	fl_strv raw;        /* raw.v[i]: messages.v[i]'s line as printed when
			       stripping took a prefix off it, else "" */
	fl_strv classes;    /* exception/error classes seen (as written) */
	fl_strv paths;      /* source paths seen in frames and panics */
	fl_strv modules;    /* modules, packages, crates seen in frames */
	fl_strv codes;      /* error codes named by the wrappers */
	fl_strv sites;      /* "file:line" where a wrapper says the error was
			       raised (symfony/console's "In X.php line N:"),
			       and the lines the frames of a stack name */
	bool error_level[64]; /* messages[i]'s line named an error level
				 ("ERROR", "fatal: "), for the first 64 */
	bool frames_last;   /* the innermost frame is printed last (a Python
			       traceback, "most recent call last"): sites
			       are in print order */
	size_t sites_block; /* how many of sites, from the innermost frame on,
			       are frames of the error printed: Python's last
			       traceback of a chain, a JVM stack's frames
			       before its first "Caused by:" (all: one
			       stack) */
	size_t tb_start;    /* (while normalizing: where the last Python
			       traceback's sites start) */
	size_t cause_start; /* (the sites before the first "Caused by:", +1;
			       0: none) */
	bool informational; /* every line has an informational level (INFO,
			       DEBUG, NOTICE...) */
	char *program;      /* the program a usage text names, NULL if none */
	char *argv0;        /* the program a message line names before it
			       ("ls: cannot access 'x': ..."), NULL if none */
	char *command;      /* the command line pasted with the output
			       ("$ tool sub --flag x"), NULL if none */
	fl_strv funcs;      /* the functions a JavaScript stack's frames name
			       (`at getFormat (/.../rollup.js:...)`: "getFormat"),
			       the last part of each, innermost first, the
			       first FL_FRAME_FUNCS */
	fl_strv names;      /* the text's words that read as a name of a file
			       or folder: 8 bytes or more of letters, digits,
			       '-' and '_' with a '-' or '_' between two of
			       them ("selector-class-pattern", a lint rule's
			       id), or 6 or more in brackets with a capital
			       inside ("[WhitespaceAround]"), the first 16 */
} fl_query;

void fl_normalize(const char *text, size_t len, fl_query *q);
void fl_query_free(fl_query *q);

/* Strip one line's prefixes (timestamps, levels, syslog, "prog: fatal: "...)
 * in place; returns the start of the message within line. */
char *fl_strip_line(char *line);

/* Is the one line [s, s+n) one whose query is informational and names
 * nothing that gives evidence (no confident answer can come of it)?
 * False when unsure. */
bool fl_line_quiet(const char *s, size_t n);

#endif
