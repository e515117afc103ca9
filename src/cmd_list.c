/*
 * cmd_list.c — `faultline list`: one line per stored record (control
 * characters escaped; the repository shown when the store holds more than
 * one), or JSON Lines of full ErrorEntry objects with --json.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "list",
	.synopsis = "faultline list [--db FILE] [--repo OWNER/NAME] [--json]",
	.about =
	"List the stored records, one line per record: its id, its repository (when "
	"more than one is listed), file:line, [type], its error code if it has one, "
	"and its message. Control characters are escaped (a newline as \\n, a tab as "
	"\\t, others as \\xNN), so a record is always one line for grep and wc -l, "
	"as in git log --oneline.\n\n"
	"A --repo that the store does not hold is an error (exit 1).",
	.examples = {
		{"faultline list --repo curl/curl",
		 "The records of one repository."},
		{"faultline list | grep -i timeout",
		 "Every stored record whose line mentions a timeout."},
		{"faultline list --json | jq -r .errorMessage",
		 "The full records as JSON Lines; here only their messages."},
	},
};

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

struct listing {
	bool json;
	bool repos;    /* more than one repository is listed: name each */
};

static int print_entry(const fl_entry *e, void *ud)
{
	const struct listing *l = ud;
	if (l->json) {
		char *s = fl_entry_to_json(e, false);
		puts(s);
		free(s);
		return 0;
	}
	printf("%s  ", e->id);
	if (l->repos) {
		put_text(e->repo);
		fputs("  ", stdout);
	}
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

static int add_repo(const fl_repo *r, void *ud)
{
	fl_strv *v = ud;
	fl_strv_push(v, r->repo);
	return 0;
}

/* how many repositories hold records: the rows of scanned repositories
 * left without records do not count */
static size_t repos_listed(fl_store *st)
{
	fl_strv names = {0};
	fl_err err;
	size_t n = 0;
	if (fl_store_each_repo(st, add_repo, &names, &err) == 0)
		for (size_t i = 0; i < names.n; i++)
			if (fl_store_count_entries(st, names.v[i]) > 0)
				n++;
	fl_strv_free(&names);
	return n;
}

int cmd_list(int argc, char **argv)
{
	const char *db = NULL, *repo = NULL;
	bool json = false;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_VAL("repo", repo, "OWNER/NAME",
			"only this repository's records (default: every repository)"),
		CLI_FLAG("json", json,
			 "print JSON Lines: one full ErrorEntry object (records.md) per "
			 "record (default: one line of text per record)"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 0, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (repo && (rc = cli_check_repo("list", repo)))
		return rc;
	fl_store *st = cli_open_store(db, true);
	if (!st)
		return 1;
	if (cli_repo_missing(st, "list", repo)) {
		fl_store_close(st);
		return 1;
	}
	struct listing l = {json, !repo && !json && repos_listed(st) > 1};
	fl_err err;
	rc = fl_store_each_entry(st, repo, print_entry, &l, &err);
	fl_store_close(st);
	if (rc < 0)
		return cli_fail(1, "%s", err.msg);
	return 0;
}
