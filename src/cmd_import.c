/*
 * cmd_import.c — `faultline import DIR`: load a published data set of
 * schema version 2 into the store, all or nothing.
 */
#include <stdio.h>

#include "cli.h"

static const char *const USAGE = "faultline import [--db FILE] DIR";

int cmd_import(int argc, char **argv)
{
	const char *db = NULL;
	const cli_opt opts[] = {
		{"db", true, &db, NULL, NULL, NULL, 0},
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, USAGE, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos != 1)
		return cli_fail(EXIT_USAGE, "import: a data set folder is needed\nusage: %s", USAGE);
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
