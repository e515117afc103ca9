/*
 * cmd_site.c — `faultline site OUTDIR`: the static web site, from the store
 * (exported into OUTDIR/data first) or from a data set (--data DIR).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "site",
	.synopsis = "faultline site [--db FILE | --data DIR] [--base-url URL] OUTDIR",
	.about =
	"Render the static web site into OUTDIR: a home page, a page per "
	"repository (the table of its records), a page per record (its message, "
	"meaning, source lines with the permalink, fixes, related errors and JSON), "
	"a search page that works without a server, llms.txt, robots.txt and "
	"sitemaps. From the store (exported into OUTDIR/data first) or from a "
	"published data set (--data). Rendering again into the same OUTDIR "
	"rewrites only the pages that changed and removes those of records that "
	"are gone.",
	.examples = {
		{"faultline site public",
		 "Render the store's site into ./public, to be served by any web server."},
		{"faultline site --data /srv/faultline/data --base-url https://errors.example.org public",
		 "Render a published data set's site, with canonical URLs on its own "
		 "address."},
	},
};

int cmd_site(int argc, char **argv)
{
	const char *db = NULL, *data = NULL, *base = NULL;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_VAL("data", data, "DIR",
			"render this published data set (checked, then copied into "
			"OUTDIR/data) instead of a store (default: the store)"),
		CLI_VAL("base-url", base, "URL",
			"the site's public address, http:// or https://, for canonical URLs "
			"and sitemaps (default: none; pages then carry no canonical URL and "
			"no sitemap is written)"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos != 1)
		return cli_fail(EXIT_USAGE, "site: an output folder is needed\nusage: %s", HELP.synopsis);
	if (db && data)
		return cli_fail(EXIT_USAGE, "site: --db and --data exclude each other\nusage: %s", HELP.synopsis);
	if (base && (rc = cli_check_base_url("site", base)))
		return rc;
	/* progress only for a person watching: not in a log or a pipe */
	fl_site_opts o = {base, isatty(STDERR_FILENO) == 1};
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
	printf("rendered %lld pages (%lld files, %.1f MB) to %s in %.2f s, %lld files changed; "
	       "largest error page %lld bytes\n",
	       s.pages, s.files, (double)s.bytes / 1e6, pos[0], s.seconds, s.written,
	       s.largest_error_page);
	return 0;
}
