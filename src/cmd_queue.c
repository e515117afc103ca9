/*
 * cmd_queue.c — `faultline queue add LOCATOR... | --from FILE`: put
 * repositories on the store's queue for `faultline batch`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "queue",
	.synopsis =
	"faultline queue add [--db FILE] [--priority N] [--repo OWNER/NAME] [--rev REV]\n"
	"                    LOCATOR... | --from FILE",
	.about =
	"Put repositories on the store's queue; `faultline batch` scans them and "
	"`faultline status` shows where they are.\n\n"
	"A LOCATOR is a local work tree, a bare repository or mirror, or a plain "
	"folder (kept as an absolute path: it must exist now), or a clone URL "
	"(https://, http://, git://, ssh://, file://), which batch fetches into "
	"a work folder and removes after the scan. What can be checked now is: a "
	"path that does not exist is refused (exit 1); a URL that cannot be "
	"reached fails in batch.\n\n"
	"A locator already queued is queued again: pending, its attempts "
	"cleared, with the new priority, --repo and --rev (batch still skips it "
	"in milliseconds when its commit is the one it last scanned).",
	.examples = {
		{"faultline queue add ~/src/curl ~/mirrors/git.git",
		 "Queue a work tree and a bare mirror, named after their origin remotes."},
		{"faultline queue add --priority 10 https://github.com/pallets/click",
		 "Queue a clone URL ahead of the rest."},
		{"faultline queue add --from repos.txt",
		 "Queue one locator a line (blank lines and lines starting with # "
		 "are left out)."},
	},
};

/* A locator as it is queued: an absolute path for a local one. */
static char *normalize(const char *loc, int *rc)
{
	*rc = 0;
	if (fl_locator_is_url(loc)) {
		if (strncmp(loc, "file://", 7) == 0) {
			struct stat sb;
			if (stat(loc + 7, &sb) < 0) {
				*rc = cli_fail(1, "queue: %s: %s", loc, strerror(errno));
				return NULL;
			}
		}
		return strdup(loc);
	}
	if (strstr(loc, "://"))
		return *rc = cli_fail(EXIT_USAGE, "queue: %s: not a URL faultline can fetch "
				     "(https://, http://, git://, ssh://, file://)", loc), NULL;
	char abs[PATH_MAX];
	if (!realpath(loc, abs)) {
		*rc = cli_fail(1, "queue: %s: %s", loc, strerror(errno));
		return NULL;
	}
	struct stat sb;
	if (stat(abs, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		*rc = cli_fail(1, "queue: %s: not a folder", loc);
		return NULL;
	}
	return strdup(abs);
}

static int add(fl_store *st, const char *loc, const char *repo, const char *rev,
	       int priority, long long *added, long long *again)
{
	int rc;
	char *norm = normalize(loc, &rc);
	if (!norm)
		return rc;
	bool requeued;
	fl_err err;
	if (fl_queue_add(st, norm, repo, rev, priority, &requeued, &err) < 0) {
		free(norm);
		return cli_fail(1, "queue: %s", err.msg);
	}
	free(norm);
	(*(requeued ? again : added))++;
	return 0;
}

int cmd_queue(int argc, char **argv)
{
	const char *db = NULL, *repo = NULL, *rev = NULL, *prio = NULL, *from = NULL;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP "; created on first use"),
		CLI_VAL("priority", prio, "N",
			"batch takes higher priorities first, -1000000 to 1000000 "
			"(default: 0)"),
		CLI_VAL("repo", repo, "OWNER/NAME",
			"the repository's name in the store, for one LOCATOR (default: "
			"the origin remote's owner/name; for a URL, its last two path "
			"components; local/<folder name> otherwise)"),
		CLI_VAL("rev", rev, "REV",
			"scan this branch, tag or commit; for a URL a branch, a tag or a "
			"full commit id, which its list of references must show "
			"(default: HEAD; a work tree's tracked files)"),
		CLI_VAL("from", from, "FILE",
			"read locators from FILE, one a line (- for standard input)"),
		{0},
	};
	const char *pos[4096];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 4096, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos < 1 || strcmp(pos[0], "add") != 0)
		return cli_fail(EXIT_USAGE, "queue: %s\nusage: %s",
				npos < 1 ? "which action? (add)" : "unknown action; the action is add",
				HELP.synopsis);
	if (npos == 1 && !from)
		return cli_fail(EXIT_USAGE, "queue add: what to queue? usage: %s", HELP.synopsis);
	if (repo && (rc = cli_check_repo("queue", repo)))
		return rc;
	if (repo && (from || npos > 2))
		return cli_fail(EXIT_USAGE, "queue add: --repo names one repository: give one LOCATOR");
	long priority = 0;
	if (prio) {
		char *end;
		priority = strtol(prio, &end, 10);
		if (*end || priority < -1000000 || priority > 1000000)
			return cli_fail(EXIT_USAGE, "queue add: --priority takes a whole number "
					"from -1000000 to 1000000");
	}
	FILE *in = NULL;
	if (from) {
		in = strcmp(from, "-") == 0 ? stdin : fopen(from, "re");
		if (!in)
			return cli_fail(1, "queue add: %s: %s", from, strerror(errno));
	}
	fl_store *st = cli_open_store(db, false);
	if (!st) {
		if (in && in != stdin)
			fclose(in);
		return 1;
	}
	long long added = 0, again = 0;
	int bad = 0;
	for (int i = 1; i < npos; i++) {
		int r = add(st, pos[i], repo, rev, (int)priority, &added, &again);
		if (r > bad)
			bad = r;
	}
	if (in) {
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		long lineno = 0;
		while ((n = getline(&line, &cap, in)) > 0) {
			lineno++;
			while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' ||
					 line[n - 1] == ' ' || line[n - 1] == '\t'))
				line[--n] = '\0';
			char *l = line;
			while (*l == ' ' || *l == '\t')
				l++;
			if (!*l || *l == '#')
				continue;
			int r = add(st, l, NULL, rev, (int)priority, &added, &again);
			if (r) {
				fprintf(stderr, "faultline: queue: (%s, line %ld)\n", from, lineno);
				if (r > bad)
					bad = r;
			}
		}
		free(line);
		if (ferror(in) && !bad)
			bad = cli_fail(1, "queue add: %s: cannot read", from);
		if (in != stdin)
			fclose(in);
	}
	long long counts[FL_Q_NSTATES];
	fl_err err;
	if (fl_queue_counts(st, counts, &err) == 0)
		printf("queued %lld new, %lld again; the queue holds %lld pending, %lld running,"
		       " %lld done, %lld failed, %lld skipped\n", added, again,
		       counts[FL_Q_PENDING], counts[FL_Q_RUNNING], counts[FL_Q_DONE],
		       counts[FL_Q_FAILED], counts[FL_Q_SKIPPED]);
	fl_store_close(st);
	return bad;
}
