/*
 * cmd_publish.c — `faultline publish DIR`: export the data set into
 * DIR/data and render the site into DIR, in one atomic step (fl_publish),
 * while a batch may be writing the store; meant to be run on a timer.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "publish",
	.synopsis = "faultline publish [--db FILE] [--base-url URL] DIR",
	.about =
	"Publish the store: its data set into DIR/data (dataset.md) and the static "
	"site rendered from it into DIR, in one step. The new publication is "
	"built beside DIR and swapped in atomically: a web server serving DIR "
	"sees the previous publication or the new one, never a mix of the two, "
	"and a publish killed midway leaves the previous one in place. The store "
	"is read in one transaction, so a `faultline batch` may write it "
	"meanwhile. DIR must be absent, empty or an earlier publication.\n\n"
	"faultline has no scheduler of its own: run publish from a systemd timer "
	"or cron (the README has both) while batch runs.",
	.examples = {
		{"faultline publish /srv/faultline",
		 "Publish into /srv/faultline (the site) and /srv/faultline/data (the "
		 "data set that `serve --data` and `mcp --data-url` follow)."},
		{"*/15 * * * * faultline publish --base-url https://errors.example.org /srv/faultline",
		 "A cron line: publish every 15 minutes."},
	},
};

int cmd_publish(int argc, char **argv)
{
	const char *db = NULL, *base = NULL;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
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
		return cli_fail(EXIT_USAGE, "publish: which folder?\nusage: %s", HELP.synopsis);
	if (base && (rc = cli_check_base_url("publish", base)))
		return rc;
	fl_store *st = cli_open_store(db, true);
	if (!st)
		return 1;
	fl_site_opts o = {base, isatty(STDERR_FILENO) == 1};
	fl_publish_stats s;
	fl_err err;
	rc = fl_publish(st, pos[0], &o, &s, &err);
	fl_store_close(st);
	if (rc < 0)
		return cli_fail(1, "publish: %s", err.msg);
	printf("published %s: data set %s (%lld repositories, %lld records), %lld pages,"
	       " in %.2f s\n", pos[0], s.data.dataset_version, s.data.repos, s.data.errors,
	       s.site.pages, s.seconds);
	return 0;
}
