/*
 * cli_follow.c — the checks of the options of following a published data
 * set URL, shared by `faultline mcp` and `faultline serve` (cli_follow.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli_follow.h"

static int seconds(const char *cmd, const char *name, const char *s, long hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < 1 || v > hi)
		return cli_fail(EXIT_USAGE, "%s: --%s takes a number of seconds from 1 to %ld",
				cmd, name, hi);
	*out = (int)v;
	return 0;
}

int cli_follow_check(const char *cmd, cli_follow *f, const char *other, const char *synopsis)
{
	f->ttl = f->sync_timeout = 0;
	if (f->url && other)
		return cli_fail(EXIT_USAGE, "%s: %s and --data-url exclude each other\nusage: %s",
				cmd, other, synopsis);
	if (f->url && strncmp(f->url, "http://", 7) != 0 && strncmp(f->url, "https://", 8) != 0 &&
	    strncmp(f->url, "file://", 7) != 0)
		return cli_fail(EXIT_USAGE, "%s: --data-url '%s' is not an http://, https:// or file:// URL",
				cmd, f->url);
	if (!f->url && (f->offline || f->ttl_s || f->sync_s || f->rollback))
		return cli_fail(EXIT_USAGE, "%s: --%s needs --data-url", cmd,
				f->offline ? "offline" : f->ttl_s ? "ttl" :
				f->sync_s ? "sync-timeout" : "allow-rollback");
	if (f->ttl_s && seconds(cmd, "ttl", f->ttl_s, 7 * 86400, &f->ttl))
		return EXIT_USAGE;
	if (f->sync_s && seconds(cmd, "sync-timeout", f->sync_s, 86400, &f->sync_timeout))
		return EXIT_USAGE;
	return 0;
}
