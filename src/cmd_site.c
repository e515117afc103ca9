/*
 * cmd_site.c — `faultline site OUTDIR`: the static web site, from the store
 * (exported into OUTDIR/data first) or from a data set (--data DIR).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *const USAGE =
	"faultline site [--db FILE | --data DIR] [--base-url URL] OUTDIR";

int cmd_site(int argc, char **argv)
{
	const char *db = NULL, *data = NULL, *base = NULL;
	const cli_opt opts[] = {
		{"db", true, &db, NULL, NULL, NULL, 0},
		{"data", true, &data, NULL, NULL, NULL, 0},
		{"base-url", true, &base, NULL, NULL, NULL, 0},
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, USAGE, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos != 1)
		return cli_fail(EXIT_USAGE, "site: an output folder is needed\nusage: %s", USAGE);
	if (db && data)
		return cli_fail(EXIT_USAGE, "site: --db and --data exclude each other\nusage: %s", USAGE);
	if (base && strncmp(base, "http://", 7) != 0 && strncmp(base, "https://", 8) != 0)
		return cli_fail(EXIT_USAGE, "site: --base-url must start with http:// or https://");
	fl_site_opts o = {base};
	fl_site_stats s;
	fl_err err;
	if (data) {
		rc = fl_site_build(data, pos[0], &o, &s, &err);
	} else {
		fl_store *st = cli_open_store(db, true);
		if (!st)
			return 1;
		rc = fl_site_from_store(st, pos[0], &o, &s, &err);
		fl_store_close(st);
	}
	if (rc < 0)
		return cli_fail(1, "site: %s", err.msg);
	printf("wrote %lld pages (%lld files, %.1f MB) to %s in %.2f s; largest error page %lld bytes\n",
	       s.pages, s.files, (double)s.bytes / 1e6, pos[0], s.seconds,
	       s.largest_error_page);
	return 0;
}
