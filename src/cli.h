/*
 * cli.h — what the subcommands share: the command table entry, option
 * parsing with --help, error printing, opening the store.
 */
#ifndef FL_CLI_H
#define FL_CLI_H

#include <stdbool.h>

#include "faultline.h"

#define EXIT_USAGE 2

typedef struct cli_opt {
	const char *name;     /* long name without dashes, e.g. "db" */
	bool takes_value;
	const char **value;   /* for options with a value */
	bool *flag;           /* for boolean flags */
	const char **list;    /* repeatable option: array to append to */
	int *list_n;
	int list_max;
} cli_opt;

/* Parse argv (argv[0] is the subcommand).  Positionals go to pos (at most
 * maxpos, count in *npos).  Returns 0 to go on, -1 when --help was printed
 * (exit 0), or EXIT_USAGE after printing a usage error. */
int cli_parse(int argc, char **argv, const cli_opt *opts, const char *usage,
	      const char **pos, int maxpos, int *npos);

/* "faultline: <message>" on stderr; returns status. */
int cli_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Open the store from --db or the default path.  NULL after printing. */
fl_store *cli_open_store(const char *db, bool readonly);

/* Subcommands (one file each: cmd_<name>.c). */
int cmd_scan(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_grep_log(int argc, char **argv);

/* Read a whole stream (for "-" arguments); NULL after printing. */
#include <stdio.h>
char *cli_read_all(FILE *f, size_t *len, const char *what);
/* A lookup match as the JSON object of cli.md's explain --json. */
#include <jansson.h>
json_t *cli_match_json(const fl_match *m);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_site(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_mcp(int argc, char **argv);

#endif
