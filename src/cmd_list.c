/*
 * cmd_list.c — `faultline list`: one line per stored record, or JSON Lines
 * of full ErrorEntry objects with --json.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char *const USAGE =
	"faultline list [--db FILE] [--repo OWNER/NAME] [--json]";

static int print_entry(const fl_entry *e, void *ud)
{
	bool json = *(bool *)ud;
	if (json) {
		char *s = fl_entry_to_json(e, false);
		puts(s);
		free(s);
		return 0;
	}
	printf("%s  %s:%d  [%s] %s%s%s\n", e->id, e->file_path, e->line_number,
	       e->error_type, e->error_code ? e->error_code : "",
	       e->error_code ? "  " : "", e->error_message);
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
