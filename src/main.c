/*
 * main.c — the faultline command: a git-style table of subcommands, each
 * implemented in its own cmd_<name>.c file.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

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

static void usage(FILE *f)
{
	fprintf(f, "usage: faultline [--version] [--help] <command> [<args>]\n\n"
		   "faultline finds every place in source code that raises an error\n"
		   "and answers, for any error text, where it was raised and why.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nThe store is --db FILE, else $FAULTLINE_DB, else\n"
		   "$XDG_DATA_HOME/faultline/faultline.db (~/.local/share/faultline/...).\n"
		   "Exit status: 0 done, 1 failed, 2 wrong usage (explain: 3 no match).\n\n"
		   "Run 'faultline help <command>' or 'faultline <command> --help' for its\n"
		   "options and examples.\n");
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
