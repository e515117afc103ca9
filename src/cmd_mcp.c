/*
 * cmd_mcp.c — `faultline mcp`: the Model Context Protocol server on stdio
 * for coding agents, over a local store or a published data set URL.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const USAGE =
	"faultline mcp [--db FILE | --data-url URL] [--cache-dir DIR] [--offline] [--ttl SECONDS]\n"
	"              [--sync-timeout SECONDS] [--allow-rollback]\n"
	"  --ttl SECONDS           poll the data set's manifest at most this often (300)\n"
	"  --sync-timeout SECONDS  give a sync up after this long, keep serving the cache (600)\n"
	"  --allow-rollback        accept a data set older than the cached one (refused by default)";

int cmd_mcp(int argc, char **argv)
{
	const char *db = NULL, *url = NULL, *cache = NULL, *ttl_s = NULL, *sync_s = NULL;
	bool offline = false, rollback = false;
	const cli_opt opts[] = {
		{"db", true, &db, NULL, NULL, NULL, 0},
		{"data-url", true, &url, NULL, NULL, NULL, 0},
		{"cache-dir", true, &cache, NULL, NULL, NULL, 0},
		{"offline", false, NULL, &offline, NULL, NULL, 0},
		{"ttl", true, &ttl_s, NULL, NULL, NULL, 0},
		{"sync-timeout", true, &sync_s, NULL, NULL, NULL, 0},
		{"allow-rollback", false, NULL, &rollback, NULL, NULL, 0},
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, USAGE, pos, 0, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (db && url)
		return cli_fail(EXIT_USAGE, "mcp: --db and --data-url exclude each other\nusage: %s", USAGE);
	if (offline && !url)
		return cli_fail(EXIT_USAGE, "mcp: --offline needs --data-url");
	long ttl = 300;
	if (ttl_s) {
		char *end;
		ttl = strtol(ttl_s, &end, 10);
		if (!*ttl_s || *end || ttl < 1 || ttl > 7 * 86400)
			return cli_fail(EXIT_USAGE, "mcp: --ttl takes a number of seconds from 1 to 604800");
	}
	if ((sync_s || rollback) && !url)
		return cli_fail(EXIT_USAGE, "mcp: --%s needs --data-url", sync_s ? "sync-timeout" : "allow-rollback");
	long sync_timeout = 0;
	if (sync_s) {
		char *end;
		sync_timeout = strtol(sync_s, &end, 10);
		if (!*sync_s || *end || sync_timeout < 1 || sync_timeout > 86400)
			return cli_fail(EXIT_USAGE, "mcp: --sync-timeout takes a number of seconds from 1 to 86400");
	}
	char *dbpath = NULL;
	if (!url)
		dbpath = db ? strdup(db) : fl_store_default_path();
	fl_mcp_opts o = {
		.db = dbpath, .data_url = url, .cache_dir = cache, .offline = offline,
		.ttl = (int)ttl, .sync_timeout = (int)sync_timeout, .allow_rollback = rollback,
		.match_json = cli_match_json,
	};
	fl_err err;
	rc = fl_mcp_run(&o, &err);
	free(dbpath);
	if (rc < 0)
		return cli_fail(1, "mcp: %s", err.msg);
	return 0;
}
