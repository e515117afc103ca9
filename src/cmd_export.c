/*
 * cmd_export.c — `faultline export DIR`: write the store as a published data
 * set (dataset.md), atomically.
 */
#include <stdio.h>

#include "cli.h"

static const char *const USAGE = "faultline export [--db FILE] DIR";

int cmd_export(int argc, char **argv)
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
		return cli_fail(EXIT_USAGE, "export: a target folder is needed\nusage: %s", USAGE);
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
