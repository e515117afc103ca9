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
};

static void usage(FILE *f)
{
	fprintf(f, "usage: faultline [--version] [--help] <command> [<args>]\n\n"
		   "faultline finds every place in source code that raises an error\n"
		   "and answers, for any error text, where it was raised and why.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nRun 'faultline <command> --help' for a command's options.\n");
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
	    strcmp(cmd, "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(cmd, commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "faultline: '%s' is not a faultline command (see 'faultline --help')\n", cmd);
	return EXIT_USAGE;
}
