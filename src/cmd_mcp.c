/*
 * cmd_mcp.c — `faultline mcp`: the Model Context Protocol server on stdio
 * for coding agents, over a local store or a published data set URL.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_follow.h"

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
	const char *db = NULL, *cache = NULL;
	cli_follow f = {0};
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_VAL("data-url", f.url, "URL", CLI_FOLLOW_URL_HELP " (default: the store)"),
		CLI_VAL("cache-dir", cache, "DIR",
			"where the data set is kept (default: $XDG_CACHE_HOME/faultline, "
			"~/.cache/faultline)"),
		CLI_FOLLOW_OPTS(f),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 0, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if ((rc = cli_follow_check("mcp", &f, db ? "--db" : NULL, HELP.synopsis)))
		return rc;
	char *dbpath = NULL;
	if (!f.url)
		dbpath = db ? strdup(db) : fl_store_default_path();
	fl_mcp_opts o = {
		.db = dbpath, .data_url = f.url, .cache_dir = cache, .offline = f.offline,
		.ttl = f.ttl, .sync_timeout = f.sync_timeout, .allow_rollback = f.rollback,
		.match_json = cli_match_json,
	};
	fl_err err;
	rc = fl_mcp_run(&o, &err);
	free(dbpath);
	if (rc < 0)
		return cli_fail(1, "mcp: %s", err.msg);
	return 0;
}
