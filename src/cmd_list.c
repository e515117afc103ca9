/*
 * cmd_list.c — `faultline list`: one line per stored record (control
 * characters escaped), or JSON Lines of full ErrorEntry objects with --json.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char *const USAGE =
	"faultline list [--db FILE] [--repo OWNER/NAME] [--json]";

/* s on stdout with its control characters escaped (\n, \r, \t, \xNN):
 * one record, one line, whatever its message or path holds (a message may
 * span lines; a data set's record may hold anything), and no terminal
 * escape sequence reaches the terminal. */
static void put_text(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c != 0x7f)
			putchar(c);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\r')
			fputs("\\r", stdout);
		else if (c == '\t')
			fputs("\\t", stdout);
		else
			printf("\\x%02x", c);
	}
}

static int print_entry(const fl_entry *e, void *ud)
{
	bool json = *(bool *)ud;
	if (json) {
		char *s = fl_entry_to_json(e, false);
		puts(s);
		free(s);
		return 0;
	}
	printf("%s  ", e->id);
	put_text(e->file_path);
	printf(":%d  [%s] ", e->line_number, e->error_type);
	if (e->error_code) {
		put_text(e->error_code);
		fputs("  ", stdout);
	}
	put_text(e->error_message);
	putchar('\n');
	return 0;
}

int cmd_list(int argc, char **argv)
{
	const char *db = NULL, *repo = NULL;
	bool json = false;
	const cli_opt opts[] = {
		{"db", true, &db, NULL, NULL, NULL, 0},
		{"repo", true, &repo, NULL, NULL, NULL, 0},
		{"json", false, NULL, &json, NULL, NULL, 0},
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, USAGE, pos, 0, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	fl_store *st = cli_open_store(db, true);
	if (!st)
		return 1;
	fl_err err;
	rc = fl_store_each_entry(st, repo, print_entry, &json, &err);
	fl_store_close(st);
	if (rc < 0)
		return cli_fail(1, "%s", err.msg);
	return 0;
}
