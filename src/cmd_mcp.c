/*
 * cmd_mcp.c — `faultline mcp`: the Model Context Protocol server on stdio
 * for coding agents, over a local store or a published data set URL.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "mcp",
	.synopsis =
	"faultline mcp [--db FILE | --data-url URL] [--cache-dir DIR] [--offline]\n"
	"              [--ttl SECONDS] [--sync-timeout SECONDS] [--allow-rollback]",
	.about =
	"A Model Context Protocol server for coding agents on stdin and stdout "
	"(newline-delimited JSON-RPC 2.0). Its tools: search_error, get_error, "
	"list_repos, explain_log and refresh_dataset. It answers from the store, or "
	"from a published data set (--data-url) synced into a cache: the manifest "
	"is polled, and only a new datasetVersion is downloaded, each file checked "
	"against its size and sha256. A failed sync keeps serving the cache, and "
	"says so.",
	.examples = {
		{"faultline mcp",
		 "Serve the local store to the agent that started this command."},
		{"faultline mcp --data-url https://errors.example.org/data",
		 "Serve a published data set, kept in sync in ~/.cache/faultline."},
		{"{\"command\": \"faultline\", \"args\": [\"mcp\", \"--data-url\", \"https://errors.example.org/data\"]}",
		 "The same as an entry of an agent's MCP configuration."},
	},
};

int cmd_mcp(int argc, char **argv)
{
	const char *db = NULL, *url = NULL, *cache = NULL, *ttl_s = NULL, *sync_s = NULL;
	bool offline = false, rollback = false;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_VAL("data-url", url, "URL",
			"answer from this published data set: the http://, https:// or "
			"file:// URL of the folder holding its manifest.json (default: the "
			"store)"),
		CLI_VAL("cache-dir", cache, "DIR",
			"where the data set is kept (default: $XDG_CACHE_HOME/faultline, "
			"~/.cache/faultline)"),
		CLI_FLAG("offline", offline,
			 "never fetch: answer from the cached data set; needs --data-url "
			 "(default: fetch a new data set when the manifest says so)"),
		CLI_VAL("ttl", ttl_s, "SECONDS",
			"poll the data set's manifest at most this often, 1 to 604800 "
			"(default: 300; needs --data-url)"),
		CLI_VAL("sync-timeout", sync_s, "SECONDS",
			"give a sync up after this long and keep serving the cache, 1 to "
			"86400 (default: 600; needs --data-url)"),
		CLI_FLAG("allow-rollback", rollback,
			 "accept a data set older than the cached one (default: refused; "
			 "needs --data-url)"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 0, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (db && url)
		return cli_fail(EXIT_USAGE, "mcp: --db and --data-url exclude each other\nusage: %s", HELP.synopsis);
	if (url && strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0 &&
	    strncmp(url, "file://", 7) != 0)
		return cli_fail(EXIT_USAGE, "mcp: --data-url '%s' is not an http://, https:// or file:// URL", url);
	if (offline && !url)
		return cli_fail(EXIT_USAGE, "mcp: --offline needs --data-url");
	long ttl = 300;
	if (ttl_s) {
		char *end;
		ttl = strtol(ttl_s, &end, 10);
		if (!*ttl_s || *end || ttl < 1 || ttl > 7 * 86400)
			return cli_fail(EXIT_USAGE, "mcp: --ttl takes a number of seconds from 1 to 604800");
	}
	if ((ttl_s || sync_s || rollback) && !url)
		return cli_fail(EXIT_USAGE, "mcp: --%s needs --data-url",
				ttl_s ? "ttl" : sync_s ? "sync-timeout" : "allow-rollback");
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
