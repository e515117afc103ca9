/*
 * cmd_serve.c — `faultline serve`: the web site, the data set files and the
 * HTTP API over one store or published data set (a folder, or one followed
 * at a URL), until SIGTERM.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_follow.h"

static const cli_help HELP = {
	.name = "serve",
	.synopsis =
	"faultline serve [--db FILE [--in-place] | --data DIR | --data-url URL]\n"
	"                       [--listen HOST:PORT] [--cache-dir DIR] [--offline]\n"
	"                       [--ttl SECONDS] [--sync-timeout SECONDS]\n"
	"                       [--allow-rollback] [--site DIR | --no-site] [--threads N]\n"
	"                       [--max-connections N] [--timeout SECONDS]\n"
	"                       [--header-timeout SECONDS] [--per-ip N]\n"
	"                       [--access-log FILE] [--no-cache]",
	.about =
	"Serve the web site and the HTTP API over the store or a published data "
	"set, until SIGTERM or SIGINT (which drain the requests in flight). The API:\n"
	"  GET  /api/search?q=TEXT&repo=OWNER/NAME&limit=N  (as explain --json)\n"
	"  POST /api/explain with a log as the body         (as grep-log --json)\n"
	"  GET  /api/errors/{id}, /api/repos, /api/repos/{owner}/{name}, /healthz\n\n"
	"The site is rendered at start-up into the cache folder (again only when the "
	"store changed), and a scan into the store while serving is taken in as a "
	"new snapshot. The bound address is printed on stderr, and one access-log "
	"line per request. The data set is served under /data/, which another "
	"server can follow.\n\n"
	"With --data-url the server follows a published data set as mcp does: the "
	"manifest is polled at most once per --ttl, a new datasetVersion is "
	"downloaded into the cache, every file checked against its size and sha256, "
	"and switched to atomically (requests in flight finish on the previous "
	"version). A failed sync keeps serving the cache: /healthz then says "
	"\"stale\": true with the reason, and API answers carry X-Faultline-Stale: "
	"true. Such servers keep no state of their own: any number of them behind "
	"a load balancer serve the same version, which /healthz and the "
	"X-Faultline-Dataset-Version header of every API answer name.",
	.examples = {
		{"faultline serve",
		 "The store's site and API on http://127.0.0.1:8080."},
		{"faultline serve --data /srv/faultline/data --listen 0.0.0.0:8080 --per-ip 256",
		 "Serve a published data set to a network, behind a reverse proxy."},
		{"faultline serve --data-url http://origin.internal:8080/data --ttl 30 --listen 0.0.0.0:8081",
		 "Follow another server's data set, checking for a new version every 30 s."},
		{"curl -s 'http://127.0.0.1:8080/api/search?q=disk+full' | jq .matches[0]",
		 "Ask the API what explain would answer."},
	},
};

static int number(const char *s, const char *name, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < lo || v > hi)
		return cli_fail(EXIT_USAGE, "serve: --%s takes a number from %ld to %ld", name, lo, hi);
	*out = v;
	return 0;
}

/* HOST:PORT as the server takes it (a host name is resolved when it
 * starts: a name that does not resolve is not a usage error) */
static int check_listen(const char *l)
{
	const char *colon = strrchr(l, ':');
	if (!colon || colon == l || colon - l >= 256 || !colon[1])
		return cli_fail(EXIT_USAGE, "serve: --listen '%s' is not HOST:PORT (e.g. 127.0.0.1:8080)", l);
	char *end;
	long port = strtol(colon + 1, &end, 10);
	if (*end || colon[1] == '-' || colon[1] == '+' || port < 0 || port > 65535)
		return cli_fail(EXIT_USAGE, "serve: --listen '%s': the port must be a number from 0 to 65535", l);
	return 0;
}

int cmd_serve(int argc, char **argv)
{
	const char *db = NULL, *data = NULL, *listen = NULL, *cache = NULL, *site = NULL;
	const char *threads_s = NULL, *maxc_s = NULL, *timeout_s = NULL, *log = NULL;
	const char *htimeout_s = NULL, *per_ip_s = NULL;
	bool no_site = false, no_cache = false, in_place = false;
	cli_follow f = {0};
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_VAL("data", data, "DIR",
			"serve this published data set (imported into a store in the cache "
			"folder, again when its datasetVersion changes) instead of a store "
			"(default: the store)"),
		CLI_VAL("data-url", f.url, "URL", CLI_FOLLOW_URL_HELP ", and follow it: "
			"a new version is verified, then switched to (default: the store)"),
		CLI_FOLLOW_OPTS(f),
		CLI_VAL("listen", listen, "HOST:PORT",
			"the address to listen on; port 0 picks a free one (default: "
			"127.0.0.1:8080)"),
		CLI_VAL("cache-dir", cache, "DIR",
			"where the snapshot of the store, its index, the rendered site and a "
			"followed data set are kept (default: $XDG_CACHE_HOME/faultline, ~/.cache/faultline)"),
		CLI_VAL("site", site, "DIR", "serve this already rendered site (default: "
			"the site rendered into the cache folder)"),
		CLI_FLAG("no-site", no_site,
			 "serve no site: the API, and with --data or --data-url the data "
			 "set's files under /data/ (default: the site too)"),
		CLI_FLAG("in-place", in_place,
			 "with the store: serve it where it is instead of a snapshot copy in "
			 "the cache folder (for a store too large to copy; a writer's commit "
			 "is followed as with a copy, but a request in the moment between "
			 "the two may name a record the commit removed) (default: a copy)"),
		CLI_VAL("threads", threads_s, "N", "worker threads, 1 to 64 (default: 4)"),
		CLI_VAL("max-connections", maxc_s, "N",
			"connections at once, 1 to 100000 (default: 512)"),
		CLI_VAL("timeout", timeout_s, "SECONDS",
			"close a connection idle this long, 1 to 3600 (default: 30)"),
		CLI_VAL("header-timeout", htimeout_s, "SECONDS",
			"close a connection whose request headers are not complete this long "
			"after it connected, 1 to 3600 (default: 10)"),
		CLI_VAL("per-ip", per_ip_s, "N",
			"slow connections kept per client address, 1 to 100000 (default: 32); "
			"raise it behind a reverse proxy, where every client has its address"),
		CLI_VAL("access-log", log, "FILE",
			"append the access log to FILE (default: stderr)"),
		CLI_FLAG("no-cache", no_cache,
			 "do not keep /api/search answers for the next identical request "
			 "(default: kept until the store changes)"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 0, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (db && data)
		return cli_fail(EXIT_USAGE, "serve: --db and --data exclude each other\nusage: %s", HELP.synopsis);
	if ((rc = cli_follow_check("serve", &f, db ? "--db" : data ? "--data" : NULL, HELP.synopsis)))
		return rc;
	if (site && no_site)
		return cli_fail(EXIT_USAGE, "serve: --site and --no-site exclude each other");
	if (in_place && (data || f.url))
		return cli_fail(EXIT_USAGE, "serve: --in-place serves a store (--db), not a data set");
	if (listen && (rc = check_listen(listen)))
		return rc;
	long threads = 0, maxc = 0, timeout = 0, htimeout = 0, per_ip = 0;
	if ((threads_s && number(threads_s, "threads", 1, 64, &threads)) ||
	    (maxc_s && number(maxc_s, "max-connections", 1, 100000, &maxc)) ||
	    (timeout_s && number(timeout_s, "timeout", 1, 3600, &timeout)) ||
	    (htimeout_s && number(htimeout_s, "header-timeout", 1, 3600, &htimeout)) ||
	    (per_ip_s && number(per_ip_s, "per-ip", 1, 100000, &per_ip)))
		return EXIT_USAGE;
	char *dbpath = NULL;
	if (!data && !f.url)
		dbpath = db ? strdup(db) : fl_store_default_path();
	FILE *lf = NULL;
	if (log && !(lf = fopen(log, "a"))) {
		free(dbpath);
		return cli_fail(1, "serve: cannot open %s", log);
	}
	fl_serve_opts o = {
		.db = dbpath, .data_dir = data, .data_url = f.url, .offline = f.offline,
		.ttl = f.ttl, .sync_timeout = f.sync_timeout, .allow_rollback = f.rollback,
		.listen = listen, .cache_dir = cache,
		.site_dir = site, .no_site = no_site, .in_place = in_place,
		.threads = (int)threads,
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
