/*
 * cli_follow.h — the options of following a published data set URL,
 * shared by `faultline mcp` and `faultline serve` (--data-url, --offline,
 * --ttl, --sync-timeout, --allow-rollback): their option table entries,
 * their help and their checks.
 */
#ifndef FL_CLI_FOLLOW_H
#define FL_CLI_FOLLOW_H

#include <stdbool.h>

#include "cli.h"

typedef struct cli_follow {
	const char *url, *ttl_s, *sync_s;   /* as given */
	bool offline, rollback;
	int ttl, sync_timeout;              /* checked: seconds, 0 = default */
} cli_follow;

#define CLI_FOLLOW_URL_HELP \
	"answer from this published data set: the http://, https:// or file:// URL " \
	"of the folder holding its manifest.json, synced into the cache folder"

/* The option table entries of f, after --data-url (whose help differs). */
#define CLI_FOLLOW_OPTS(f) \
	CLI_FLAG("offline", (f).offline, \
		 "never fetch: answer from the cached data set; needs --data-url " \
		 "(default: fetch a new data set when the manifest says so)"), \
	CLI_VAL("ttl", (f).ttl_s, "SECONDS", \
		"poll the data set's manifest at most this often, 1 to 604800 " \
		"(default: 300; needs --data-url)"), \
	CLI_VAL("sync-timeout", (f).sync_s, "SECONDS", \
		"give a sync up after this long and keep serving the cache, 1 to " \
		"86400 (default: 600; needs --data-url)"), \
	CLI_FLAG("allow-rollback", (f).rollback, \
		 "accept a data set older than the cached one (default: refused; " \
		 "needs --data-url)")

/* Check f's options (cmd names the subcommand in messages; other names
 * the option --data-url excludes, e.g. "--db", when it was given, else
 * NULL) and fill ttl and sync_timeout.  0, or EXIT_USAGE after printing a
 * usage error. */
int cli_follow_check(const char *cmd, cli_follow *f, const char *other, const char *synopsis);

#endif
