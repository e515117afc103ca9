/*
 * cli_doc.h — the manual pages (roff) and the bash, zsh and fish completion
 * scripts, made from the commands' help and option tables (cli.h): the
 * text that --help prints, not a copy of it.
 */
#ifndef FL_CLI_DOC_H
#define FL_CLI_DOC_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* The n bytes of s as roff text (malloc'd; NULL when out of memory):
 * backslash as \e, '-' as \-, '`' and '\'' as \(ga and \(aq, a '.' that
 * starts a line behind \&, characters other than ASCII as \[uXXXX]. */
char *cli_roff_escape(const char *s, size_t n);

/* What faultline(1) says beside the list of commands. */
typedef struct cli_top {
	const char *summary;     /* its NAME line */
	const char *synopsis;    /* "faultline [--version] ..." */
	const char *about;       /* paragraphs, as in cli_help */
	const char *store;       /* where the store is */
	const char *exit_status; /* "0 done, 1 failed, ..." */
	const char *exit_command;/* a command's, when its help says none */
} cli_top;

/* A command as its page and the completions need it: name and one-line
 * summary (the command table's), and its help and a copy of its option
 * table (names, values' names and help texts), as --help has them. */
typedef struct cli_doc_cmd {
	const char *name;
	const char *summary;
	const cli_help *help;
	cli_opt *opts;
	size_t nopts;
} cli_doc_cmd;

/* faultline(1). */
void cli_man_top(FILE *f, const cli_top *top, const cli_doc_cmd *cmds, size_t n);

/* faultline-NAME(1): NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXAMPLES, EXIT
 * STATUS (the help's "Exit status..." sentences, else exit_command), SEE ALSO. */
void cli_man_cmd(FILE *f, const cli_top *top, const cli_doc_cmd *c);

/* The completion script for shell ("bash", "zsh" or "fish"): the
 * commands, each command's options, files or folders where an option or
 * an operand is a FILE, PATH, DIR...  -1 for another shell. */
int cli_completion(FILE *f, const char *shell, const cli_doc_cmd *cmds, size_t n);

#endif
