/*
 * cmd_serve.c — `faultline serve`: the web site, the data set files and the
 * HTTP API over one store or published data set, until SIGTERM.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const USAGE =
	"faultline serve [--db FILE | --data DIR] [--listen HOST:PORT] [--cache-dir DIR]\n"
	"                [--site DIR | --no-site] [--threads N] [--max-connections N]\n"
	"                [--timeout SECONDS] [--header-timeout SECONDS] [--per-ip N]\n"
	"                [--access-log FILE] [--no-cache]";

static int number(const char *s, const char *name, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < lo || v > hi)
		return cli_fail(EXIT_USAGE, "serve: --%s takes a number from %ld to %ld", name, lo, hi);
	*out = v;
	return 0;
}

int cmd_serve(int argc, char **argv)
{
	const char *db = NULL, *data = NULL, *listen = NULL, *cache = NULL, *site = NULL;
	const char *threads_s = NULL, *maxc_s = NULL, *timeout_s = NULL, *log = NULL;
	const char *htimeout_s = NULL, *per_ip_s = NULL;
	bool no_site = false, no_cache = false;
	const cli_opt opts[] = {
		{"db", true, &db, NULL, NULL, NULL, 0},
		{"data", true, &data, NULL, NULL, NULL, 0},
		{"listen", true, &listen, NULL, NULL, NULL, 0},
		{"cache-dir", true, &cache, NULL, NULL, NULL, 0},
		{"site", true, &site, NULL, NULL, NULL, 0},
		{"no-site", false, NULL, &no_site, NULL, NULL, 0},
		{"threads", true, &threads_s, NULL, NULL, NULL, 0},
		{"max-connections", true, &maxc_s, NULL, NULL, NULL, 0},
		{"timeout", true, &timeout_s, NULL, NULL, NULL, 0},
		{"header-timeout", true, &htimeout_s, NULL, NULL, NULL, 0},
		{"per-ip", true, &per_ip_s, NULL, NULL, NULL, 0},
		{"access-log", true, &log, NULL, NULL, NULL, 0},
		{"no-cache", false, NULL, &no_cache, NULL, NULL, 0},
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, USAGE, pos, 0, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (db && data)
		return cli_fail(EXIT_USAGE, "serve: --db and --data exclude each other\nusage: %s", USAGE);
	if (site && no_site)
		return cli_fail(EXIT_USAGE, "serve: --site and --no-site exclude each other");
	long threads = 0, maxc = 0, timeout = 0, htimeout = 0, per_ip = 0;
	if ((threads_s && number(threads_s, "threads", 1, 64, &threads)) ||
	    (maxc_s && number(maxc_s, "max-connections", 1, 100000, &maxc)) ||
	    (timeout_s && number(timeout_s, "timeout", 1, 3600, &timeout)) ||
	    (htimeout_s && number(htimeout_s, "header-timeout", 1, 3600, &htimeout)) ||
	    (per_ip_s && number(per_ip_s, "per-ip", 1, 100000, &per_ip)))
		return EXIT_USAGE;
	char *dbpath = NULL;
	if (!data)
		dbpath = db ? strdup(db) : fl_store_default_path();
	FILE *lf = NULL;
	if (log && !(lf = fopen(log, "a"))) {
		free(dbpath);
		return cli_fail(1, "serve: cannot open %s", log);
	}
	fl_serve_opts o = {
		.db = dbpath, .data_dir = data, .listen = listen, .cache_dir = cache,
		.site_dir = site, .no_site = no_site, .threads = (int)threads,
		.max_connections = (unsigned)maxc, .timeout_s = (unsigned)timeout,
		.header_timeout_s = (unsigned)htimeout, .per_ip = (unsigned)per_ip,
		.access_log = lf, .no_cache = no_cache, .match_json = cli_match_json,
	};
	fl_err err;
	rc = fl_serve_run(&o, &err);
	if (lf)
		fclose(lf);
	free(dbpath);
	if (rc < 0)
		return cli_fail(1, "serve: %s", err.msg);
	return 0;
}
