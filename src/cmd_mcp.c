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
	"faultline mcp [--db FILE | --data-url URL] [--cache-dir DIR] [--offline] [--ttl SECONDS]";

int cmd_mcp(int argc, char **argv)
{
	const char *db = NULL, *url = NULL, *cache = NULL, *ttl_s = NULL;
	bool offline = false;
	const cli_opt opts[] = {
		{"db", true, &db, NULL, NULL, NULL, 0},
		{"data-url", true, &url, NULL, NULL, NULL, 0},
		{"cache-dir", true, &cache, NULL, NULL, NULL, 0},
		{"offline", false, NULL, &offline, NULL, NULL, 0},
		{"ttl", true, &ttl_s, NULL, NULL, NULL, 0},
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
	char *dbpath = NULL;
	if (!url)
		dbpath = db ? strdup(db) : fl_store_default_path();
	fl_mcp_opts o = {
		.db = dbpath, .data_url = url, .cache_dir = cache, .offline = offline,
		.ttl = (int)ttl, .match_json = cli_match_json,
	};
	fl_err err;
	rc = fl_mcp_run(&o, &err);
	free(dbpath);
	if (rc < 0)
		return cli_fail(1, "mcp: %s", err.msg);
	return 0;
}
