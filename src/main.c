/*
 * main.c — the faultline command: a git-style table of subcommands, each
 * implemented in its own cmd_<name>.c file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_doc.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"scan", cmd_scan, "scan a source tree and store its error records"},
	{"list", cmd_list, "list the stored records"},
	{"show", cmd_show, "show one record"},
	{"explain", cmd_explain, "look an error text up: where it was raised, what it means"},
	{"grep-log", cmd_grep_log, "annotate every known error in a log"},
	{"export", cmd_export, "write the store as a published data set"},
	{"import", cmd_import, "load a published data set into the store"},
	{"site", cmd_site, "render the static web site"},
	{"serve", cmd_serve, "serve the web site and the HTTP API"},
	{"mcp", cmd_mcp, "Model Context Protocol server on stdio for coding agents"},
	{"enrich", cmd_enrich, "have a language model write the records' explanations"},
	{"queue", cmd_queue, "queue repositories for batch"},
	{"batch", cmd_batch, "scan the queued repositories, unattended and resumable"},
	{"status", cmd_status, "the queue: pending, running, done, failed; rate, time left"},
	{"publish", cmd_publish, "export the data set and render the site, atomically"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The text of `faultline --help` beside the commands, which faultline(1)
 * says too. */
static const cli_top TOP = {
	.summary = "find where error texts are raised in source code, and why",
	.synopsis = "faultline [--version] [--help] <command> [<args>]",
	.about = "faultline finds every place in source code that raises an error\n"
		 "and answers, for any error text, where it was raised and why.",
	.store = "The store is --db FILE, else $FAULTLINE_DB, else\n"
		 "$XDG_DATA_HOME/faultline/faultline.db (~/.local/share/faultline/...).",
	.exit_status = "0 done, 1 failed, 2 wrong usage (explain: 3 no match).",
	.exit_command = "0 done, 1 failed, 2 wrong usage.",
};

static void usage(FILE *f)
{
	fprintf(f, "usage: %s\n\n%s\n\ncommands:\n", TOP.synopsis, TOP.about);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n%s\n"
		   "Exit status: %s\n\n"
		   "Run 'faultline help <command>' or 'faultline <command> --help' for its\n"
		   "options and examples.\n", TOP.store, TOP.exit_status);
}

/* --help's hook for the docs: the command's help and a copy of its
 * option table into the cli_doc_cmd */
static void take_help(const cli_help *h, const cli_opt *opts, void *ud)
{
	cli_doc_cmd *d = ud;
	size_t n = 0;
	while (opts && opts[n].name)
		n++;
	d->help = h;
	d->opts = n ? malloc(n * sizeof *d->opts) : NULL;
	d->nopts = d->opts ? n : 0;
	if (d->opts)
		memcpy(d->opts, opts, n * sizeof *d->opts);
}

/* Every command's help and options, asked of its --help. */
static int doc_commands(cli_doc_cmd *docs)
{
	for (size_t i = 0; i < NCOMMANDS; i++) {
		docs[i] = (cli_doc_cmd){.name = commands[i].name, .summary = commands[i].summary};
		char *hargv[] = {(char *)commands[i].name, "--help", NULL};
		cli_set_help_hook(take_help, &docs[i]);
		commands[i].fn(2, hargv);
		cli_set_help_hook(NULL, NULL);
		if (!docs[i].help)
			return cli_fail(1, "help: %s --help gave no help", commands[i].name);
	}
	return 0;
}

/* `faultline help --man [CMD]` and `faultline help --completion SHELL`:
 * the manual pages and completion scripts the build installs. */
static int docs(int argc, char **argv)
{
	static const char doc_usage[] =
		"usage: faultline help --man [<command>] | --completion bash|zsh|fish";
	bool man = strcmp(argv[2], "--man") == 0;
	if ((man && argc > 4) || (!man && argc != 4))
		return cli_fail(EXIT_USAGE, "help: %s\n%s",
				man ? "one command at a time" : "which shell?", doc_usage);
	cli_doc_cmd d[NCOMMANDS] = {{0}};
	int rc = doc_commands(d);
	if (rc == 0 && man && argc == 3) {
		cli_man_top(stdout, &TOP, d, NCOMMANDS);
	} else if (rc == 0 && man) {
		size_t i = 0;
		while (i < NCOMMANDS && strcmp(argv[3], commands[i].name) != 0)
			i++;
		if (i < NCOMMANDS)
			cli_man_cmd(stdout, &TOP, &d[i]);
		else
			rc = cli_fail(EXIT_USAGE, "help: '%s' is not a command\n%s", argv[3], doc_usage);
	} else if (rc == 0 && cli_completion(stdout, argv[3], d, NCOMMANDS) < 0) {
		rc = cli_fail(EXIT_USAGE, "help: no completion for '%s' (bash, zsh or fish)\n%s",
			      argv[3], doc_usage);
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		free(d[i].opts);
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
		rc = cli_fail(1, "help: cannot write the output");
	return rc;
}

/* A name that is no command: say so, with the closest commands. */
static int not_a_command(const char *cmd)
{
	const char *names[NCOMMANDS];
	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	char near[256];
	if (cli_suggest(cmd, names, NCOMMANDS, "", near, sizeof near))
		fprintf(stderr, "faultline: '%s' is not a command; did you mean %s?\n", cmd, near);
	else
		fprintf(stderr, "faultline: '%s' is not a command (see 'faultline --help')\n", cmd);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("faultline %s\n", FL_VERSION);
		return 0;
	}
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
	    (strcmp(cmd, "help") == 0 && (argc == 2 || strcmp(argv[2], "help") == 0 ||
					  strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0))) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "help") == 0 &&
	    (strcmp(argv[2], "--man") == 0 || strcmp(argv[2], "--completion") == 0))
		return docs(argc, argv);
	if (strcmp(cmd, "help") == 0) {
		/* help CMD: the command's own --help */
		if (argc > 3) {
			fprintf(stderr, "faultline: help: one command at a time\n"
					"usage: faultline help [<command>]\n");
			return EXIT_USAGE;
		}
		for (size_t i = 0; i < NCOMMANDS; i++)
			if (strcmp(argv[2], commands[i].name) == 0) {
				char *hargv[] = {argv[2], "--help", NULL};
				return commands[i].fn(2, hargv);
			}
		return not_a_command(argv[2]);
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(cmd, commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	return not_a_command(cmd);
}
