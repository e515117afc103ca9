/*
 * cmd_scan.c — `faultline scan PATH`: scan a source tree into the store and
 * print a summary (files, sites, records, duplicates, per language, time).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "scan",
	.synopsis =
	"faultline scan PATH [--repo OWNER/NAME] [--rev REV | --commit SHA]\n"
	"                      [--db FILE] [--json] [--include-tests] [--exclude GLOB]...\n"
	"                      [--threads N]\n"
	"                      [--history [--tags GLOB] [--since TAG] [--full]]",
	.about =
	"Scan a source tree and store its error records: every place that raises an "
	"error (throw, raise, panic!, errors.New, fmt.Errorf, die(), log_error()...) "
	"becomes a record with its message, a pattern that matches it at run time, "
	"its file and line, a permalink and an explanation.\n\n"
	"PATH is a git work tree (its tracked files), a bare repository or a git "
	"directory (at HEAD, or at --rev), or a plain folder. The repository's "
	"records in the store are replaced in one transaction: a killed scan leaves "
	"the previous records whole.\n\n"
	"Vendored, generated, minified, binary and over-1-MB files, build, docs and "
	"example folders, tests and benchmarks are skipped. Prints a summary: files "
	"(and how many each rule skipped), sites, records, duplicates, what changed "
	"in the store, per language, and the time taken.\n\n"
	"With --history, every version is scanned from the object store: the tags "
	"--tags selects (default: the release tags, such as v1.2.3, pre-releases "
	"left out), in version order, from --since on, then HEAD. Between two "
	"versions only the files whose blob changed are read, and a blob is "
	"scanned once. The store keeps the records of every version, each with "
	"the versions it exists in and its line in each; a record no longer at "
	"HEAD keeps the permalink of the last version that has it. Scanning the "
	"history again goes on from the versions the store holds: after a new "
	"tag, only the versions since the last tag it holds are scanned (the "
	"last one whole), unless --full.",
	.examples = {
		{"faultline scan ~/src/curl",
		 "Scan a work tree; the repository is named after its origin remote "
		 "(curl/curl)."},
		{"faultline scan ~/mirrors/git.git --rev v2.45.0",
		 "Scan a bare repository at a tag, read from its objects without a "
		 "checkout."},
		{"faultline scan ~/mirrors/git.git --history --tags 'v2.*.0'",
		 "Scan every v2.x.0 release and HEAD: the records of all of them, "
		 "each with the versions it exists in and its line in each. Run "
		 "again after a release, it scans only the new tag and HEAD."},
		{"faultline scan . --repo acme/shop --exclude 'scripts/*' --json",
		 "Scan a plain folder under a name of your choosing, leave a folder "
		 "out, and print the summary as JSON."},
	},
};

static void print_text(const fl_scan_summary *s)
{
	printf("scanned %s at %.12s in %.2f s\n", s->repo, s->sha, s->seconds);
	if (strcmp(s->links, "file") == 0)
		printf("  links      file:// links to the files here (%s)\n",
		       s->plain ? "a plain folder: --commit SHA links to that commit" :
		       "no remote: --repo OWNER/NAME links to it");
	else
		printf("  links      %s permalinks at %.12s\n", s->links, s->sha);
	printf("  files      %lld in the tree, %lld scanned (%.1f MB)\n",
	       s->files_seen, s->files_scanned, (double)s->bytes_scanned / 1e6);
	bool any = false;
	for (int i = 0; i < FL_SKIP_MAX; i++) {
		if (!s->skipped[i])
			continue;
		printf(any ? ", %s %lld" : "  skipped    %s %lld", fl_skip_name(i),
		       s->skipped[i]);
		any = true;
	}
	if (any)
		printf("\n");
	if (s->deep_folders || s->unreadable_folders)
		printf("  folders    left out: %lld deeper than 64 levels (%s%lld files in them),"
		       " %lld unreadable\n", s->deep_folders, s->deep_files_more ? "over " : "",
		       s->deep_files, s->unreadable_folders);
	printf("  sites      %lld\n  records    %lld\n  duplicates %lld\n",
	       s->sites, s->records, s->duplicates);
	printf("  store      %lld added, %lld removed, %lld changed, %lld unchanged",
	       s->added, s->removed, s->changed, s->unchanged);
	if (s->kept)
		printf(", %lld kept (their files could not be read)", s->kept);
	printf("\n");
	for (size_t i = 0; i < s->nlangs; i++)
		printf("  %-10s %lld files, %lld sites, %lld records\n",
		       s->langs[i].lang, s->langs[i].files, s->langs[i].sites,
		       s->langs[i].records);
}

/* The summary's "store": what the scan changed in it (kept: records that
 * stay as stored, of files it could not read or of earlier versions). */
static json_t *store_json(long long added, long long removed, long long changed,
			  long long unchanged, long long kept)
{
	json_t *store = json_object();
	json_object_set_new(store, "added", json_integer(added));
	json_object_set_new(store, "removed", json_integer(removed));
	json_object_set_new(store, "changed", json_integer(changed));
	json_object_set_new(store, "unchanged", json_integer(unchanged));
	json_object_set_new(store, "kept", json_integer(kept));
	return store;
}

static void print_json(const fl_scan_summary *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "repo", json_string(s->repo));
	json_object_set_new(o, "analyzedSha", json_string(s->sha));
	json_object_set_new(o, "analyzedAt", json_string(s->analyzed_at));
	json_object_set_new(o, "permalinks", json_string(s->links));
	json_t *files = json_object();
	json_object_set_new(files, "seen", json_integer(s->files_seen));
	json_object_set_new(files, "scanned", json_integer(s->files_scanned));
	json_object_set_new(files, "bytes", json_integer(s->bytes_scanned));
	json_object_set_new(o, "files", files);
	json_t *skipped = json_object();
	for (int i = 0; i < FL_SKIP_MAX; i++)
		json_object_set_new(skipped, fl_skip_name(i), json_integer(s->skipped[i]));
	json_object_set_new(o, "skipped", skipped);
	json_object_set_new(o, "sites", json_integer(s->sites));
	json_object_set_new(o, "records", json_integer(s->records));
	json_object_set_new(o, "duplicates", json_integer(s->duplicates));
	json_object_set_new(o, "store", store_json(s->added, s->removed, s->changed, s->unchanged,
						   s->kept));
	json_object_set_new(o, "invalid", json_integer(s->invalid));
	json_t *folders = json_object();
	json_object_set_new(folders, "deeper than 64 levels", json_integer(s->deep_folders));
	json_object_set_new(folders, "unreadable", json_integer(s->unreadable_folders));
	/* the files in the folders too deep (a lower bound when they go
	 * deeper than 128 levels) */
	json_object_set_new(folders, "files deeper than 64 levels", json_integer(s->deep_files));
	json_object_set_new(o, "skippedFolders", folders);
	json_t *langs = json_array();
	for (size_t i = 0; i < s->nlangs; i++) {
		json_t *l = json_object();
		json_object_set_new(l, "language", json_string(s->langs[i].lang));
		json_object_set_new(l, "files", json_integer(s->langs[i].files));
		json_object_set_new(l, "sites", json_integer(s->langs[i].sites));
		json_object_set_new(l, "records", json_integer(s->langs[i].records));
		json_array_append_new(langs, l);
	}
	json_object_set_new(o, "languages", langs);
	json_object_set_new(o, "seconds", json_real(s->seconds));
	char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	puts(txt);
	free(txt);
	json_decref(o);
}

/* What the scan left out that the user must hear of: names that cannot be
 * a filePath, files it could not read, folders it did not walk. */
static void warn_left_out(const fl_scan_summary *s)
{
	long long names = s->skipped[FL_SKIP_NAME];
	if (names)
		fprintf(stderr, "faultline: warning: %lld file%s left out because %s cannot be a"
			" filePath (not UTF-8, or holding a newline, carriage return or backslash): %s\n",
			names, names == 1 ? "" : "s", names == 1 ? "its name" : "their names",
			s->bad_names);
	if (s->unreadable_files) {
		bool one = s->unreadable_files == 1;
		char kept[96] = "";
		if (s->kept)
			snprintf(kept, sizeof kept, "; %s %lld stored record%s kept",
				 one ? "its" : "their", s->kept, s->kept == 1 ? " was" : "s were");
		fprintf(stderr, "faultline: warning: %lld file%s could not be read%s%s%s%s\n",
			s->unreadable_files, one ? "" : "s", kept,
			one ? ": " : " (the first: ", s->unreadable_first, one ? "" : ")");
	}
	if (s->deep_folders)
		fprintf(stderr, "faultline: warning: %lld folder%s deeper than 64 levels left out"
			" with the %s%lld file%s in %s: %s%s\n", s->deep_folders,
			s->deep_folders == 1 ? "" : "s", s->deep_files_more ? "more than " : "",
			s->deep_files, s->deep_files == 1 ? "" : "s",
			s->deep_folders == 1 ? "it" : "them",
			s->deep_folders == 1 ? "" : "the first: ", s->deep_first);
	if (s->unreadable_folders)
		fprintf(stderr, "faultline: warning: %lld folder%s could not be read and %s left out: %s%s\n",
			s->unreadable_folders, s->unreadable_folders == 1 ? "" : "s",
			s->unreadable_folders == 1 ? "was" : "were",
			s->unreadable_folders == 1 ? "" : "the first: ", s->unreadable_folder_first);
}

static void print_history_text(const fl_history_summary *s)
{
	if (s->up_to_date) {
		printf("%s: the store holds its %zu versions already (the last: %s):"
		       " nothing scanned (--full scans every version again)\n", s->repo,
		       s->nversions, s->resumed_from);
		printf("  records    %lld: %lld in the last version, %lld only in earlier versions\n",
		       s->records, s->records_head, s->records_past);
		return;
	}
	if (*s->resumed_from)
		printf("scanned %s: %zu new version%s of %zu, from %s on (the store held the"
		       " versions up to it), in %.2f s\n", s->repo, s->nsteps,
		       s->nsteps == 1 ? "" : "s", s->nversions, s->resumed_from, s->seconds);
	else
		printf("scanned %s: %zu versions in %.2f s\n", s->repo, s->nsteps, s->seconds);
	for (size_t i = 0; i < s->nsteps; i++) {
		const fl_history_step *v = &s->steps[i];
		printf("  %-20s %.12s  %lld files, %lld changed, %lld blobs scanned, %lld records\n",
		       v->name, v->sha, v->files, v->changed, v->scanned, v->records);
	}
	printf("  blobs      %lld scanned (%.1f MB), %lld files reused their sites\n",
	       s->blobs_scanned, (double)s->bytes_scanned / 1e6, s->files_reused);
	printf("  records    %lld: %lld at %s, %lld only in earlier versions\n",
	       s->records, s->records_head, s->nsteps ? s->steps[s->nsteps - 1].name : "HEAD",
	       s->records_past);
	printf("  duplicates %lld\n", s->duplicates);
	if (*s->resumed_from)
		printf("  store      %lld added, %lld removed, %lld changed, %lld unchanged,"
		       " %lld of earlier versions kept\n", s->added, s->removed, s->changed,
		       s->unchanged, s->kept);
	else
		printf("  store      %lld added, %lld removed, %lld changed, %lld unchanged\n",
		       s->added, s->removed, s->changed, s->unchanged);
	if (strcmp(s->links, "file") == 0)
		printf("  links      file:// links to the files here\n");
	else
		printf("  links      %s permalinks at each record's last version\n", s->links);
}

static void print_history_json(const fl_history_summary *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "repo", json_string(s->repo));
	json_object_set_new(o, "analyzedSha", json_string(s->head_sha));
	json_object_set_new(o, "permalinks", json_string(s->links));
	json_object_set_new(o, "versionCount", json_integer((json_int_t)s->nversions));
	json_object_set_new(o, "resumedFrom",
			    *s->resumed_from ? json_string(s->resumed_from) : json_null());
	json_object_set_new(o, "upToDate", json_boolean(s->up_to_date));
	json_t *vs = json_array();
	for (size_t i = 0; i < s->nsteps; i++) {
		const fl_history_step *v = &s->steps[i];
		json_t *x = json_object();
		json_object_set_new(x, "name", json_string(v->name));
		json_object_set_new(x, "sha", json_string(v->sha));
		json_object_set_new(x, "files", json_integer(v->files));
		json_object_set_new(x, "changed", json_integer(v->changed));
		json_object_set_new(x, "scanned", json_integer(v->scanned));
		json_object_set_new(x, "reused", json_integer(v->reused));
		json_object_set_new(x, "records", json_integer(v->records));
		json_array_append_new(vs, x);
	}
	json_object_set_new(o, "versions", vs);
	json_t *blobs = json_object();
	json_object_set_new(blobs, "scanned", json_integer(s->blobs_scanned));
	json_object_set_new(blobs, "bytes", json_integer(s->bytes_scanned));
	json_object_set_new(blobs, "reused", json_integer(s->files_reused));
	json_object_set_new(o, "blobs", blobs);
	json_object_set_new(o, "records", json_integer(s->records));
	json_object_set_new(o, "recordsAtHead", json_integer(s->records_head));
	json_object_set_new(o, "recordsOnlyInPast", json_integer(s->records_past));
	json_object_set_new(o, "duplicates", json_integer(s->duplicates));
	json_object_set_new(o, "store", store_json(s->added, s->removed, s->changed, s->unchanged,
						   s->kept));
	json_object_set_new(o, "invalid", json_integer(s->invalid));
	json_object_set_new(o, "seconds", json_real(s->seconds));
	char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	puts(txt);
	free(txt);
	json_decref(o);
}

/* scan --history */
static int scan_history(const char *path, const char *db, const char *repo, const char *tags,
			const char *since, bool include_tests, const char **excludes,
			size_t nex, bool full, bool json)
{
	fl_history_opts o = {
		.path = path, .repo = repo, .tags = tags, .since = since,
		.include_tests = include_tests, .excludes = excludes, .n_excludes = nex,
		.progress = isatty(2) && !json, .full = full,
	};
	fl_store *st = cli_open_store(db, false);
	if (!st)
		return 1;
	char started[32];
	fl_now_iso(started);
	o.log_started_at = started;
	fl_history_summary sum;
	fl_err err;
	int rc = fl_scan_history(&o, st, &sum, &err);
	if (rc < 0) {
		fl_scan_log log = {
			.repo = repo ? repo : "?", .target = path, .rev = "--history",
			.started_at = started, .outcome = "failed", .message = err.msg,
		};
		fl_err lerr;
		if (fl_store_log_scan(st, &log, &lerr) < 0)
			fprintf(stderr, "faultline: warning: %s\n", lerr.msg);
		fl_store_close(st);
		return cli_fail(1, "scan: %s", err.msg);
	}
	fl_store_close(st);
	if (sum.invalid)
		fprintf(stderr, "faultline: warning: %lld record%s left out because %s not be valid"
			" records (the first: %s)\n", sum.invalid, sum.invalid == 1 ? "" : "s",
			sum.invalid == 1 ? "it would" : "they would", sum.invalid_first);
	if (json)
		print_history_json(&sum);
	else
		print_history_text(&sum);
	fl_history_summary_free(&sum);
	return 0;
}

int cmd_scan(int argc, char **argv)
{
	const char *db = NULL, *repo = NULL, *rev = NULL, *threads = NULL, *commit = NULL;
	const char *tags = NULL, *since = NULL;
	bool json = false, include_tests = false, history = false, full = false;
	const char *excludes[64];
	int nex = 0;
	const cli_opt opts[] = {
		CLI_VAL("repo", repo, "OWNER/NAME",
			"the repository's name in the store and in its permalinks (default: "
			"the owner/name of the origin remote, else local/<folder name>)"),
		CLI_VAL("rev", rev, "REV",
			"scan this commit, branch or tag, read from the object store without "
			"a checkout (default: the work tree's tracked files; HEAD of a bare "
			"repository)"),
		CLI_VAL("commit", commit, "SHA",
			"a plain folder's commit (40 hex digits): the folder is that "
			"commit's tree, checked out or unpacked from an archive, and its "
			"permalinks point at it (default: file:// links to the folder's "
			"files, and an analyzedSha that digests them)"),
		CLI_VAL("db", db, "FILE", CLI_DB_HELP "; created on first use"),
		CLI_FLAG("json", json, "print the summary as one JSON object (default: text)"),
		CLI_FLAG("include-tests", include_tests,
			 "scan tests and benchmarks too (default: skipped)"),
		CLI_LIST("exclude", excludes, nex, "GLOB",
			 "skip the files whose path in the repository matches GLOB; "
			 "repeatable, up to 64 times (default: none)"),
		CLI_VAL("threads", threads, "N",
			"read and scan files on N threads, 1 to 64 (default: one per core)"),
		CLI_FLAG("history", history,
			 "scan every version: the tags --tags selects, then HEAD, read from "
			 "the object store (default: one version)"),
		CLI_VAL("tags", tags, "GLOB",
			"with --history: the tags to scan, pre-releases included (default: "
			"the release tags, such as v1.2.3)"),
		CLI_VAL("since", since, "TAG",
			"with --history: the first tag to scan (default: the oldest)"),
		CLI_FLAG("full", full,
			 "with --history: scan every version again (default: go on from the "
			 "versions the store holds, when it holds the same repository's, "
			 "scanned with the same options)"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos != 1)
		return cli_fail(EXIT_USAGE, "scan: which tree? usage: %s", HELP.synopsis);
	if (repo && (rc = cli_check_repo("scan", repo)))
		return rc;
	if (commit) {
		size_t n = strlen(commit);
		bool hex = n == 40;
		for (size_t i = 0; i < n && hex; i++)
			hex = (commit[i] >= '0' && commit[i] <= '9') || (commit[i] >= 'a' && commit[i] <= 'f');
		if (!hex)
			return cli_fail(EXIT_USAGE, "scan: --commit takes a commit id of 40 "
					"lowercase hex digits");
	}
	if ((tags || since || full) && !history)
		return cli_fail(EXIT_USAGE, "scan: --%s goes with --history",
				tags ? "tags" : since ? "since" : "full");
	if (history && (rev || commit))
		return cli_fail(EXIT_USAGE, "scan: --history scans the tags and HEAD; --%s is for one version",
				rev ? "rev" : "commit");
	if (history)
		return scan_history(pos[0], db, repo, tags, since, include_tests, excludes,
				    (size_t)nex, full, json);
	int nthreads = 0;
	if (threads) {
		char *end;
		long v = strtol(threads, &end, 10);
		if (*end || v < 1 || v > 64)
			return cli_fail(EXIT_USAGE, "scan: --threads takes a number from 1 to 64");
		nthreads = (int)v;
	}
	fl_scan_opts o = {
		.path = pos[0], .repo = repo, .rev = rev, .commit = commit,
		.include_tests = include_tests, .excludes = excludes,
		.n_excludes = (size_t)nex, .progress = isatty(2) && !json,
		.threads = nthreads,
	};
	fl_scan_tune_heap(); /* the heap kept, and in huge pages */
	fl_scan_prewarm(&o); /* the tree is listed while the store opens */
	fl_store *st = cli_open_store(db, false);
	if (!st) {
		fl_scan_prewarm_join();
		return 1;
	}
	char started[32];
	fl_now_iso(started);
	o.log_started_at = started; /* logged in the scan's transaction */
	o.drop_records = true;      /* the summary is all this prints */
	fl_scan_result res;
	fl_err err;
	rc = fl_scan_into_store(&o, st, &res, &err);
	fl_scan_prewarm_join();
	if (rc < 0) {
		/* a successful scan is logged in the scan's transaction; a
		 * failed one (rolled back) here */
		fl_scan_log log = {
			.repo = repo ? repo : "?", .target = pos[0], .rev = rev,
			.started_at = started, .outcome = "failed",
			.message = err.msg,
		};
		fl_err lerr;
		if (fl_store_log_scan(st, &log, &lerr) < 0)
			fprintf(stderr, "faultline: warning: %s\n", lerr.msg);
	}
	fl_scan_summary sum = res.summary;
	fl_scan_result_free(&res); /* no records in it: the repository row */
	fl_store_close(st);
	if (rc < 0)
		return cli_fail(1, "scan: %s", err.msg);
	warn_left_out(&sum);
	if (sum.invalid)
		fprintf(stderr, "faultline: warning: %lld record%s left out because %s not be valid"
			" records (the first: %s)\n",
			sum.invalid, sum.invalid == 1 ? "" : "s",
			sum.invalid == 1 ? "it would" : "they would", sum.invalid_first);
	if (json)
		print_json(&sum);
	else
		print_text(&sum);
	return 0;
}
