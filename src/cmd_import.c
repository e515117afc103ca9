/*
 * cmd_import.c — `faultline import DIR`: load a published data set of
 * schema version 2 into the store, all or nothing.
 */
#include <stdio.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "import",
	.synopsis = "faultline import [--db FILE] DIR",
	.about =
	"Load a published data set of schema version 2 (as export writes it) from "
	"DIR into the store. The whole data set is checked first: the chain of "
	"sizes and sha256 from the manifest down, every record, duplicate ids and "
	"slugs. Only then are the records of its repositories replaced, in one "
	"transaction; a bad data set changes nothing, and the error names the file "
	"and the field.",
	.examples = {
		{"faultline import ./data",
		 "Load a data set copied from a published site's /data/ folder."},
		{"faultline import --db /tmp/copy.db /srv/faultline/data",
		 "Load it into a store of its own."},
	},
};

int cmd_import(int argc, char **argv)
{
	const char *db = NULL;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP "; created on first use"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos != 1)
		return cli_fail(EXIT_USAGE, "import: a data set folder is needed\nusage: %s", HELP.synopsis);
	fl_store *st = cli_open_store(db, false);
	if (!st)
		return 1;
	fl_err err;
	fl_import_stats s;
	rc = fl_import(st, pos[0], &s, &err);
	fl_store_close(st);
	if (rc < 0)
		return cli_fail(1, "import: %s", err.msg);
	printf("imported %lld records of %lld repositories (datasetVersion %s)\n",
	       s.errors, s.repos, s.dataset_version);
	return 0;
}
