/*
 * cli.h — what the subcommands share: the command table entry, option
 * parsing with --help, error printing, opening the store.
 */
#ifndef FL_CLI_H
#define FL_CLI_H

#include <stdbool.h>
#include <stdio.h>

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
	const char *arg;      /* the value's name in the help: "FILE" */
	const char *help;     /* its meaning and default (one paragraph) */
} cli_opt;

/* The entries of an option table (with the option's help beside it). */
#define CLI_VAL(n, var, argname, text) \
	{.name = (n), .takes_value = true, .value = &(var), .arg = (argname), .help = (text)}
#define CLI_FLAG(n, var, text) {.name = (n), .flag = &(var), .help = (text)}
#define CLI_LIST(n, arr, cnt, argname, text) \
	{.name = (n), .takes_value = true, .list = (arr), .list_n = &(cnt), \
	 .list_max = (int)(sizeof(arr) / sizeof((arr)[0])), .arg = (argname), .help = (text)}
/* --db, the same in every subcommand */
#define CLI_DB_HELP "the store, an SQLite file (default: $FAULTLINE_DB, else " \
	"$XDG_DATA_HOME/faultline/faultline.db, ~/.local/share/faultline/faultline.db " \
	"when XDG_DATA_HOME is unset)"

typedef struct cli_example {
	const char *cmd;      /* a command line */
	const char *what;     /* what it does */
} cli_example;

/* A subcommand's help: the one place its text lives (beside its option
 * table in cmd_<name>.c), printed by --help and `faultline help NAME`, and
 * the source of a manual page.  Paragraphs are separated by "\n\n" and
 * wrapped when printed; lines of a paragraph starting with two spaces are
 * printed as they are. */
typedef struct cli_help {
	const char *name;       /* "scan" */
	const char *synopsis;   /* "faultline scan PATH [...]" (lines) */
	const char *about;      /* what it does, its operands, its output */
	cli_example examples[4];/* two to four; an empty one ends fewer */
} cli_help;

/* Parse argv (argv[0] is the subcommand).  Positionals go to pos (at most
 * maxpos, count in *npos).  Returns 0 to go on, -1 when --help was printed
 * (exit 0), or EXIT_USAGE after printing a usage error.  Neither an
 * option's value nor a positional argument may be empty. */
int cli_parse(int argc, char **argv, const cli_opt *opts, const cli_help *help,
	      const char **pos, int maxpos, int *npos);

/* The full help of a subcommand on f. */
void cli_print_help(FILE *f, const cli_help *h, const cli_opt *opts);

/* What --help does instead of printing the help, when set (NULL: print
 * it): fn gets the command's help and option table, the same cli_parse
 * has, for `faultline help --man` and `--completion` (cli_doc.h). */
typedef void (*cli_help_hook)(const cli_help *h, const cli_opt *opts, void *ud);
void cli_set_help_hook(cli_help_hook fn, void *ud);

/* The names of cands (n of them) closest to typed, a typing slip away
 * (an edit distance of 1, or 2 for longer words, or the start of at most 3),
 * as "`a`" or "`a` or `b`" into buf; false when none is close. */
bool cli_suggest(const char *typed, const char *const *cands, size_t n,
		 const char *quote_prefix, char *buf, size_t cap);

/* OWNER/NAME as the store names repositories (one slash, neither part
 * empty, no blank, valid UTF-8, under 256 bytes); else prints a usage
 * error for cmd and returns EXIT_USAGE. */
int cli_check_repo(const char *cmd, const char *repo);

/* A --base-url (site, publish) that is http:// or https://: 0; else
 * prints a usage error for cmd and returns EXIT_USAGE. */
int cli_check_base_url(const char *cmd, const char *url);

/* A --repo that the store does not hold: 1 after saying so (with the
 * closest repository held), 0 when held or repo is NULL. */
int cli_repo_missing(fl_store *st, const char *cmd, const char *repo);

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
int cmd_enrich(int argc, char **argv);
int cmd_queue(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_publish(int argc, char **argv);

#endif
