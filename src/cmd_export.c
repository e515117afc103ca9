/*
 * cmd_export.c — `faultline export DIR`: write the store as a published data
 * set (dataset.md), atomically.
 */
#include <stdio.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "export",
	.synopsis = "faultline export [--db FILE] DIR",
	.about =
	"Write the store as a published data set (dataset.md) into DIR: "
	"manifest.json (the small file a client polls), inventory.json, index.json, "
	"repos.json, a file per repository and per record, and the shards of the "
	"static search. Every record is validated first (a bad one fails the "
	"export, naming it). The data set is written beside DIR and swapped in "
	"atomically: a reader never finds DIR missing or half written, and a killed "
	"export leaves the previous data set whole. A folder that is not a data set "
	"is never replaced.",
	.examples = {
		{"faultline export /srv/faultline/data",
		 "Publish the store where a web server, faultline serve --data or "
		 "faultline mcp --data-url can read it."},
		{"faultline export --db team.db out/data && faultline site --data out/data out/site",
		 "Export another store, then render its web site from the data set."},
	},
};

int cmd_export(int argc, char **argv)
{
	const char *db = NULL;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos != 1)
		return cli_fail(EXIT_USAGE, "export: a target folder is needed\nusage: %s", HELP.synopsis);
	fl_store *st = cli_open_store(db, true);
	if (!st)
		return 1;
	fl_err err;
	fl_export_stats s;
	rc = fl_export(st, pos[0], &s, &err);
	fl_store_close(st);
	if (rc < 0)
		return cli_fail(1, "export: %s", err.msg);
	printf("exported %lld records of %lld repositories to %s (%lld files, %.1f MB) in %.2f s\n"
	       "datasetVersion %s\n", s.errors, s.repos, pos[0], s.files,
	       (double)s.bytes / 1e6, s.seconds, s.dataset_version);
	return 0;
}
