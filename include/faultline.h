/*
 * faultline.h — public API of libfaultline.
 *
 * libfaultline turns source trees into error records (schema version 2, see
 * shared/spec/records.md), keeps them in an SQLite store, and looks error
 * texts up.  The `faultline` command-line tool is a thin layer over this API.
 *
 * Conventions: functions that can fail return 0 on success and -1 on failure,
 * filling an fl_err with a message that names the problem.  Strings returned
 * to the caller are malloc'd and owned by the caller unless said otherwise.
 */
#ifndef FAULTLINE_H
#define FAULTLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FL_VERSION "0.1.0"
#define FL_SCHEMA_VERSION 2
#define FL_WINDOW_RADIUS 18
#define FL_WINDOW_MAX 40

/* ---- errors ------------------------------------------------------------ */

typedef struct fl_err {
	char msg[1024];
} fl_err;

/* printf into err (when err is not NULL); always returns -1. */
int fl_seterr(fl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- string vectors ---------------------------------------------------- */

typedef struct fl_strv {
	char **v;
	size_t n;
} fl_strv;

void fl_strv_push(fl_strv *sv, const char *s); /* copies s */
bool fl_strv_push_new(fl_strv *sv, const char *s); /* unless there: whether added */
void fl_strv_free(fl_strv *sv);

/* ---- records (records.md) ---------------------------------------------- */

/* An ErrorEntry.  NULL pointers / zero ints stand for JSON null where the
 * field is nullable.  Enum fields hold their spec string. */
typedef struct fl_entry {
	char *id;
	char *repo;
	char *slug;
	char *error_code;         /* nullable */
	char *error_message;
	char *message_pattern;
	char *error_type;         /* exception|error_code|console|http|validation|panic */
	char *error_class;        /* nullable */
	int http_status;          /* 0 = null */
	char *severity;           /* critical|error|warning|info */
	char *file_path;
	int line_number;          /* 0 = null */
	char *source_code;        /* nullable */
	int source_code_start;    /* 0 = null */
	int source_code_end;      /* 0 = null */
	char *github_url;
	char *documentation;
	char *trigger_scenarios;
	char *common_situations;
	fl_strv solutions;
	char *example_fix;        /* nullable */
	char *handling_strategy;  /* nullable; try-catch|type-guard|validation|retry|fallback */
	char *validation_code;    /* nullable */
	char *type_guard;         /* nullable */
	char *try_catch_pattern;  /* nullable */
	fl_strv prevention_tips;
	fl_strv tags;
	char *background_tag;     /* nullable */
	char *analyzed_sha;
	char *analyzed_at;
	char *content_changed_at;
	int schema_version;
} fl_entry;

/* A RepoEntry. */
typedef struct fl_repo {
	char *repo;
	char *description;        /* nullable */
	char *language;           /* nullable */
	long long stars;
	long long source_files;   /* -1 = null */
	char *default_branch;
	char *analyzed_sha;
	char *analyzed_at;
	long long error_count;
} fl_repo;

void fl_entry_free(fl_entry *e);   /* frees members, zeroes *e */
void fl_repo_free(fl_repo *r);

/* id: first 16 hex chars of SHA-256(repo \x01 (code|message) \x01 path).
 * out must hold 17 bytes. */
void fl_record_id(const char *repo, const char *code, const char *message,
		  const char *file_path, char out[17]);

/* Slug base from code-or-message (first 50 UTF-16 units, lowercase, runs of
 * [^a-z0-9] -> '-', trimmed, "error" when empty).  Caller frees. */
char *fl_slug_base(const char *code_or_message);
/* base + "-" + first 6 chars of id.  Caller frees. */
char *fl_slug_suffixed(const char *base, const char *id);

/* messagePattern derived from errorMessage (Patterns).  Caller frees. */
char *fl_message_pattern(const char *message);
/* The placeholders records.md's patterns mark in message, in the order of
 * their text (the pattern's groups): the count, and the first max of them
 * as start[i], len[i] bytes. */
size_t fl_message_placeholders(const char *message, size_t *start, size_t *len,
			       size_t max);
/* True when a pattern has a backreference or a quantified group that itself
 * contains a quantifier (a derivation falls back to the escaped message). */
bool fl_pattern_unsafe(const char *pattern);
/* The fully escaped message (the fall-back pattern).  Caller frees. */
char *fl_regex_escape(const char *s);

/* Source window around 1-based line L of text (split on '\n' only).
 * Sets *start and *end and returns the window text (caller frees), or NULL when
 * L is outside the text. */
char *fl_source_window(const char *text, size_t len, int line, int *start,
		       int *end);

/* The same with a precomputed line index (fl_line_index: start offset of
 * each line plus a sentinel; caller frees), for many windows of one file. */
size_t *fl_line_index(const char *text, size_t len, size_t *nlines);
char *fl_source_window_idx(const char *text, size_t len, const size_t *starts,
			   size_t nlines, int line, int *start, int *end);
/* Only the window's first and last line, for a text of nlines lines; false
 * when L is outside it. */
bool fl_window_lines(size_t nlines, int line, int *start, int *end);

/* Permalink.  host is "github.com", "gitlab.com", "bitbucket.org", another
 * host name, or NULL for a tree with no known host (then a file:// URL to
 * local_root/path is produced).  start/end 0 = no line anchor. */
char *fl_permalink(const char *host, const char *repo, const char *sha,
		   const char *file_path, int start, int end,
		   const char *local_root);

/* True when pattern compiles with PCRE2 (UTF mode); else why is filled. */
bool fl_pattern_compiles(const char *pattern, char *why, size_t whylen);

/* records.md's filePath rule (UTF-8, '/' separators, no leading '/', no
 * empty, '.' or '..' segment, no CR, LF or backslash): NULL when path can
 * be a record's filePath, else what is wrong with it. */
const char *fl_file_path_problem(const char *path);

/* Strict validation of a record; err names the offending field. */
int fl_entry_validate(const fl_entry *e, fl_err *err);
int fl_repo_validate(const fl_repo *r, fl_err *err);

/* JSON (keys in spec order).  Returned strings are compact JSON; caller
 * frees.  Parsing is strict: unknown keys, missing keys, wrong types fail
 * naming the field, and the result is validated. */
char *fl_entry_to_json(const fl_entry *e, bool pretty);
int fl_entry_from_json(const char *json, size_t len, fl_entry *out,
		       fl_err *err);
char *fl_repo_to_json(const fl_repo *r, bool pretty);
int fl_repo_from_json(const char *json, size_t len, fl_repo *out, fl_err *err);

/* Current time as ISO 8601 UTC with milliseconds, into out[32]. */
void fl_now_iso(char out[32]);

/* ---- store ------------------------------------------------------------- */

typedef struct fl_store fl_store;

#define FL_STORE_SCHEMA 10 /* PRAGMA user_version written by this build */

/* --db FILE, else $FAULTLINE_DB, else $XDG_DATA_HOME/faultline/faultline.db
 * (~/.local/share/faultline/faultline.db).  Caller frees. */
char *fl_store_default_path(void);

/* Open (creating and migrating when needed).  readonly opens an existing
 * store without creating or migrating it. */
int fl_store_open(const char *path, bool readonly, fl_store **out,
		  fl_err *err);
void fl_store_close(fl_store *st);
/* How long a statement waits for another process's write transaction
 * before failing "busy" (default 10 s). */
void fl_store_busy_timeout(fl_store *st, int ms);

int fl_store_begin(fl_store *st, fl_err *err);
int fl_store_commit(fl_store *st, fl_err *err);
void fl_store_rollback(fl_store *st);
/* A read of several queries in one snapshot, and without the locking
 * each query alone would take (nothing when a transaction is open):
 * fl_store_read_begin() returns whether one was begun, to give to
 * fl_store_read_end(). */
bool fl_store_read_begin(fl_store *st);
void fl_store_read_end(fl_store *st, bool begun);

/* Extra facts about a record, found in code; kept in the store only. */
typedef struct fl_facts {
	const char *function;     /* enclosing function or method */
	const char *guard;        /* local guarding condition */
	const char *idiom;        /* the raising construct, e.g. "panic!" */
	const char *language;
	int column;
	const char *content_hash; /* digest of the record's content (the scan
				     compares it to keep contentChangedAt) */
} fl_facts;

/* Within a transaction. */
int fl_store_put_repo(fl_store *st, const fl_repo *r, fl_err *err);
int fl_store_put_entry(fl_store *st, const fl_entry *e, const fl_facts *f,
		       fl_err *err);
/* The n new records e[0..n) of one file of one repository (f: their facts,
 * or NULL), each validated, written in one compressed block as a scan
 * writes a file's records (the records' rows then hold no JSON). */
int fl_store_put_file_entries(fl_store *st, const fl_entry *e, const fl_facts *f, size_t n,
			      fl_err *err);
/* Another line raising record error_id's text (a duplicate site), with
 * its enclosing function and guarding condition (either may be NULL). */
int fl_store_add_site(fl_store *st, const char *error_id,
		      const char *file_path, int line, int column,
		      const char *function, const char *guard, fl_err *err);
/* Remove a repository's records and duplicate sites (not the repo row). */
int fl_store_clear_repo(fl_store *st, const char *repo, fl_err *err);
int fl_store_delete_entry(fl_store *st, const char *id, fl_err *err);

/* Queries.  Callback returns non-zero to stop. */
typedef int (*fl_entry_cb)(const fl_entry *e, void *ud);
int fl_store_each_entry(fl_store *st, const char *repo, fl_entry_cb cb,
			void *ud, fl_err *err);
/* 1 found, 0 not found, -1 error. */
int fl_store_get_entry(fl_store *st, const char *id, fl_entry *out,
		       fl_err *err);
int fl_store_get_entry_by_slug(fl_store *st, const char *repo,
			       const char *slug, fl_entry *out, fl_err *err);
int fl_store_get_facts(fl_store *st, const char *id, char **function,
		       char **guard, char **idiom, fl_err *err);
/* Which provider and model wrote which fields of record id, and when: a
 * JSON object text (field -> {"provider","model","at","phase"}) in *prov,
 * NULL when no model wrote any; *stale when the record's content changed
 * since (its model-written fields are then not shown).  0, or -1. */
int fl_store_get_provenance(fl_store *st, const char *id, char **prov,
			    bool *stale, fl_err *err);
int fl_store_get_repo(fl_store *st, const char *repo, fl_repo *out,
		      fl_err *err);
typedef int (*fl_repo_cb)(const fl_repo *r, void *ud);
int fl_store_each_repo(fl_store *st, fl_repo_cb cb, void *ud, fl_err *err);
/* Other sites of a duplicate record: "path:line" strings. */
int fl_store_get_sites(fl_store *st, const char *id, fl_strv *out,
		       fl_err *err);

/* Scan history. */
typedef struct fl_scan_log {
	const char *repo;
	const char *target;       /* path scanned */
	const char *rev;          /* nullable */
	const char *sha;          /* nullable */
	const char *started_at;
	double seconds;
	long long files, sites, records, duplicates;
	const char *outcome;      /* "ok" | "failed" */
	const char *message;      /* nullable */
} fl_scan_log;
int fl_store_log_scan(fl_store *st, const fl_scan_log *s, fl_err *err);
long long fl_store_count_entries(fl_store *st, const char *repo);
/* The store's change counter (bumped by every committed transaction) and
 * the time of the last change (ISO 8601 UTC). */
int fl_store_generation(fl_store *st, long long *generation,
			char changed_at[32], fl_err *err);
/* Copy the store as it is now (one consistent state) into a new file at
 * path (SQLite VACUUM INTO); works on a read-only handle. */
int fl_store_copy(fl_store *st, const char *path, fl_err *err);
/* Path of the store's file. */
const char *fl_store_path(const fl_store *st);


/* ---- versions (scan --history) ------------------------------------------- */

/* One version of a repository's history: a tag (or "HEAD") and its
 * commit. */
typedef struct fl_version {
	char *name;
	char sha[41];
} fl_version;

/* Versions first..last (indexes into the repository's versions, in
 * version order) in which a record is at the same line of the same blob. */
typedef struct fl_version_run {
	int first, last;
	int line;
	int blobno;                 /* the blob's number among the repository's
				       (fl_store_put_versions); -1: not known
				       (versions imported from a data set) */
	char blob[41];              /* its id (filled when read; "" when not
				       known) */
} fl_version_run;

/* A record's versions: the repository's versions in order, and the runs
 * of the record (in version order; a gap between two runs is versions
 * without the record). */
typedef struct fl_record_versions {
	fl_version *versions;
	size_t nversions;
	fl_version_run *runs;
	size_t nruns;
} fl_record_versions;

/* Within a transaction: the repository's versions and the ids of the
 * blobs its records' runs are in (40 hex digits each, numbered from 0),
 * replacing those it had; the runs of n records (ids[i] with nruns[i]
 * runs runs[i], their blobs by number).  A scan (fl_sw_begin) clears a
 * repository's versions; a record's runs go with the record. */
int fl_store_put_versions(fl_store *st, const char *repo, const fl_version *v,
			  size_t n, const char *const *blobs, size_t nblobs,
			  fl_err *err);
int fl_store_put_record_runs(fl_store *st, const char *const *ids,
			     const fl_version_run *const *runs,
			     const size_t *nruns, size_t n, fl_err *err);
int fl_store_clear_versions(fl_store *st, const char *repo, fl_err *err);
/* Record id's versions (repo: its repository): 1 found, 0 when the
 * record has none (not scanned with --history), -1 on error. */
int fl_store_get_record_versions(fl_store *st, const char *repo, const char *id,
				 fl_record_versions *out, fl_err *err);
void fl_record_versions_free(fl_record_versions *v);
/* "v1.0.0 - v1.1.0, v1.3.0 - HEAD": the versions of v, runs that touch
 * merged (malloc'd). */
char *fl_record_versions_ranges(const fl_record_versions *v);
/* Whether the record exists in the last version scanned (HEAD). */
bool fl_record_versions_at_head(const fl_record_versions *v);
/* 1 when some record of the store has versions, 0 when none, -1. */
int fl_store_has_versions(fl_store *st, fl_err *err);
/* A repository's versions, in order (*v malloc'd, n of them; none: 0). */
int fl_store_get_versions(fl_store *st, const char *repo, fl_version **v, size_t *n,
			  fl_err *err);
void fl_versions_free(fl_version *v, size_t n);
/* Each record of repo that has versions, by id, with its runs (blob ids
 * not filled); cb returns non-zero to stop. */
typedef int (*fl_runs_cb)(const char *id, const fl_version_run *runs, size_t n, void *ud);
int fl_store_each_record_runs(fl_store *st, const char *repo, fl_runs_cb cb, void *ud,
			      fl_err *err);
/* The version named name (a tag, "HEAD", or the number a tag names:
 * "2.39.5" for "v2.39.5"): its index in *version (-1: no version has that
 * name); returns the index of the record's run that holds it, or -1 when
 * the record does not exist in it. */
int fl_record_versions_find(const fl_record_versions *v, const char *name, int *version);

/* ---- scanning ------------------------------------------------------------ */

/* Why a file was not scanned. */
enum fl_skip {
	FL_SKIP_FOLDER,     /* vendored/build/docs/examples... folders */
	FL_SKIP_TEST,       /* test folders and test files */
	FL_SKIP_HIDDEN,     /* hidden folders (.git, .venv, ...) */
	FL_SKIP_EXCLUDED,   /* --exclude GLOB */
	FL_SKIP_GENERATED,  /* generated code */
	FL_SKIP_MINIFIED,   /* minified (lines over 500 characters) */
	FL_SKIP_BINARY,     /* binary content */
	FL_SKIP_LARGE,      /* over 1 MB */
	FL_SKIP_LANGUAGE,   /* no supported language */
	FL_SKIP_UNREADABLE, /* could not be read */
	FL_SKIP_NAME,       /* a name that cannot be a filePath (records.md):
			       not UTF-8, a CR, LF or backslash in it */
	FL_SKIP_MAX
};
const char *fl_skip_name(int rule);

typedef struct fl_scan_opts {
	const char *path;           /* tree to scan */
	const char *repo;           /* owner/name; NULL = from origin remote */
	const char *rev;            /* commit to read from the object store */
	/* a plain folder's commit, as the user gives it (40 lowercase hex):
	 * its analyzedSha and the commit of its permalinks; without it a
	 * plain folder's permalinks are file:// links (no link may name a
	 * commit that is not the tree's) */
	const char *commit;
	bool include_tests;
	const char *const *excludes;/* globs matched against repo-relative paths */
	size_t n_excludes;
	bool progress;              /* progress lines on stderr */
	int threads;                /* 0 = number of cores */
	/* with a store (fl_scan_into_store): a successful scan is logged
	 * (fl_store_log_scan) in the scan's own transaction, with this start
	 * time (ISO 8601) and o->path as target; NULL: not logged (a failed
	 * scan is the caller's to log) */
	const char *log_started_at;
	/* with a store: each record is freed once it is written, and the
	 * result holds the summary and the repository only (what a command
	 * that prints the summary needs; a scan's records then take the
	 * memory of one file's, not of the tree's) */
	bool drop_records;
} fl_scan_opts;

typedef struct fl_scan_lang_count {
	const char *lang;
	long long files, sites, records;
} fl_scan_lang_count;

typedef struct fl_scan_summary {
	char repo[256];
	char sha[41];
	char analyzed_at[32];
	/* the permalinks' form: "github", "gitlab", "bitbucket", another
	 * host's, or "file" (a tree with no known host or commit) */
	char links[64];
	bool plain;                 /* a plain folder (not a git tree) */
	long long files_seen;       /* files in the tree */
	long long files_scanned;
	long long bytes_scanned;
	long long skipped[FL_SKIP_MAX];
	long long sites, records, duplicates;
	long long added, removed, changed, unchanged; /* against the store */
	/* records that failed validation and were left out (a scanner bug:
	 * the scan goes on and says so), and the first one's reason */
	long long invalid;
	char invalid_first[320];
	/* the files left out for their names (FL_SKIP_NAME), in path order,
	 * escaped and quoted, ", " between them; "..." ends a list that does
	 * not fit */
	char bad_names[640];
	/* files that could not be read (but are there), the first as "path
	 * (why)"; and the stored records of those files, kept as they were */
	long long unreadable_files;
	char unreadable_first[320];
	long long kept;
	/* a plain folder's walk: folders left out with all they hold (deeper
	 * than 64 levels; not readable), the first of each ("path", "path
	 * (why)"); the files in the folders too deep (counted down to 128
	 * levels: deep_files_more, there are more below) */
	long long deep_folders, unreadable_folders, deep_files;
	bool deep_files_more;
	char deep_first[320], unreadable_folder_first[320];
	fl_scan_lang_count langs[16];
	size_t nlangs;
	double seconds;
} fl_scan_summary;

/* A scanned tree: records in scan order, with their facts. */
typedef struct fl_scan_result {
	fl_entry *entries;
	fl_facts *facts;            /* strings owned by the result */
	size_t n;
	/* duplicate sites: entry index, path, line, column, enclosing
	 * function and guard (NULL when none) */
	struct fl_dup_site { size_t entry; char *path; int line, col; char *function, *guard; } *dups;
	size_t ndups;
	fl_repo repo;
	fl_scan_summary summary;
} fl_scan_result;

/* Scan a tree into records without touching a store. */
int fl_scan_tree(const fl_scan_opts *o, fl_scan_result *out, fl_err *err);
/* Start, on a thread of its own, what a scan of o's tree does first: list
 * its files (a folder walk, or libgit2's start, which reads the system's
 * TLS certificates, and the repository's index), so that it overlaps what
 * the caller does meanwhile (opening the store).  A scan of the same path
 * and rev then takes that listing.  Optional; for a process about to scan,
 * from one thread.  fl_scan_prewarm_join() waits for it and releases what
 * the scan did not take. */
void fl_scan_prewarm(const fl_scan_opts *o);
void fl_scan_prewarm_join(void);
/* For a process whose main job is one scan (the CLI): set the C library's
 * heap for it, process-wide, from the main thread before the scan.  The
 * buffers a scan allocates and frees file after file stay in the heap,
 * and its new memory comes in transparent huge pages where the kernel
 * allows them (far fewer page faults).  Peak RSS grows by at most a few
 * MB.  A no-op outside glibc. */
void fl_scan_tune_heap(void);
void fl_scan_result_free(fl_scan_result *r);
/* Replace the repository's records in the store with the result, in one
 * transaction: new ones added, vanished ones removed, unchanged ones keep
 * contentChangedAt.  Fills the added/removed/changed/unchanged counts. */
int fl_scan_store(fl_store *st, fl_scan_result *r, fl_err *err);
/* fl_scan_tree() and fl_scan_store() in one pass: each file's records are
 * written (in file order, in one transaction) while the workers scan the
 * next files, so the store's writing overlaps the scanning.  The same
 * records, counts and store content as the two calls. */
int fl_scan_into_store(const fl_scan_opts *o, fl_store *st, fl_scan_result *out, fl_err *err);

/* ---- history (scan --history) -------------------------------------------- */

typedef struct fl_history_opts {
	const char *path;           /* a git repository (work tree, bare, git dir) */
	const char *repo;           /* owner/name; NULL = from origin remote */
	const char *tags;           /* glob of the tags to scan; NULL: the
				       release tags (fl_version_pick_releases) */
	const char *since;          /* the first tag to scan, or NULL */
	bool include_tests;
	const char *const *excludes;
	size_t n_excludes;
	bool progress;              /* a line per version on stderr */
	const char *log_started_at; /* as fl_scan_opts */
	bool full;                  /* scan every version again, even when the
				       store holds a history scan of the
				       repository made with the same options
				       (which the scan otherwise resumes: see
				       fl_scan_history) */
} fl_history_opts;

/* One version of a history scan. */
typedef struct fl_history_step {
	char *name;                 /* tag, or "HEAD" */
	char sha[41];
	long long files;            /* files its path rules let the scan read */
	long long changed;          /* of them, added or changed since the
				       version before (all of the first's) */
	long long scanned;          /* blobs read and scanned for it */
	long long reused;           /* files whose sites an earlier scan of
				       their blob gave (unchanged, or back) */
	long long records;          /* records in the version */
} fl_history_step;

typedef struct fl_history_summary {
	char repo[256];
	char head_sha[41];
	char links[64];             /* as fl_scan_summary */
	fl_history_step *steps;     /* the versions scanned (after the one
				       resumed from) */
	size_t nsteps;
	size_t nversions;           /* the versions of the history, all */
	char resumed_from[256];     /* the last version the store held and the
				       scan went on from ("": none) */
	bool up_to_date;            /* the store held every version: nothing
				       scanned or written */
	long long kept;             /* records of earlier versions kept as
				       stored (resumed) */
	long long blobs_scanned, files_reused, bytes_scanned;
	long long records;          /* stored: every version's */
	long long records_head;     /* of them, in the last version (HEAD) */
	long long records_past;     /* only in earlier versions */
	long long duplicates;       /* other sites (at each record's last version) */
	long long added, removed, changed, unchanged; /* against the store */
	long long invalid;
	char invalid_first[320];
	double seconds;
} fl_history_summary;

/* Scan every version of a repository (its tags that o selects, in version
 * order, then HEAD) from the object store, each version's changed blobs
 * only, and replace the repository's records in st, in one transaction,
 * with the records of all versions and the versions each exists in.
 * When st holds a history scan of the repository made with the same
 * options whose versions begin the list (a new tag since, a HEAD that
 * moved), the scan resumes from the last of them that is a tag: its
 * files' records come from the store, only the later versions are
 * scanned (the last one whole, as always), and the records of earlier
 * versions stay as stored. */
int fl_scan_history(const fl_history_opts *o, fl_store *st, fl_history_summary *out,
		    fl_err *err);
void fl_history_summary_free(fl_history_summary *s);

/* ---- publishing (dataset.md) --------------------------------------------- */

typedef struct fl_export_stats {
	char dataset_version[32];
	long long repos, errors;
	long long files, bytes;     /* files written (with manifest.json) */
	double seconds;
} fl_export_stats;

/* Export the whole store as a data set into dir: written into a sibling
 * temporary folder, every record validated (a failing one fails the export,
 * naming it), then swapped in atomically.  A previous export killed midway
 * is cleaned up (or restored) first.  datasetVersion strictly increases. */
int fl_export(fl_store *st, const char *dir, fl_export_stats *stats,
	      fl_err *err);

typedef struct fl_import_stats {
	char dataset_version[32];
	long long repos, errors;
} fl_import_stats;

/* Check a published data set of schema version 2 completely (inventory
 * sizes and sha256, every record strictly, duplicates, consistency between
 * its files); err names the file and the field. */
int fl_dataset_verify(const char *dir, fl_import_stats *stats, fl_err *err);

/* Verify, then replace the records of every repository of the data set in
 * one store transaction.  On any failure the store is unchanged. */
int fl_import(fl_store *st, const char *dir, fl_import_stats *stats,
	      fl_err *err);

typedef struct fl_site_opts {
	const char *base_url;       /* canonical URLs, sitemaps; NULL: none */
	bool progress;              /* a progress line on stderr (a terminal) */
} fl_site_opts;

typedef struct fl_site_stats {
	long long pages, files, bytes;
	long long written;            /* files of them whose bytes changed */
	long long largest_error_page; /* bytes */
	double seconds;
} fl_site_stats;

/* Render the static web site of the data set in data_dir into out_dir
 * (which gets a copy of the data set under out_dir/data). */
/* (named fl_site_build: fl_site is the scanner's site type) */
int fl_site_build(const char *data_dir, const char *out_dir, const fl_site_opts *o,
	    fl_site_stats *stats, fl_err *err);
/* Export the store into out_dir/data, then render the site from it. */
int fl_site_from_store(fl_store *st, const char *out_dir,
		       const fl_site_opts *o, fl_site_stats *stats,
		       fl_err *err);

/* Publish the store into dir in one step: its data set in dir/data and
 * the site rendered from it around it, built in a sibling folder (files
 * of the previous publication shared by hard links, so unchanged pages
 * cost nothing) and swapped in atomically: a reader of dir (a web server)
 * sees the previous publication or the new one, never a mix, and a
 * publish killed midway leaves the previous one.  The store is read in one
 * transaction: a batch may write meanwhile.  dir must be absent, empty or
 * a previous publication. */
typedef struct fl_publish_stats {
	fl_export_stats data;
	fl_site_stats site;
	double seconds;
} fl_publish_stats;
int fl_publish(fl_store *st, const char *dir, const fl_site_opts *o,
	       fl_publish_stats *stats, fl_err *err);

/* ---- the corpus: queue, batch, status (cli.md) ---------------------------- */

typedef enum fl_qstate {
	FL_Q_PENDING, FL_Q_RUNNING, FL_Q_DONE, FL_Q_FAILED, FL_Q_SKIPPED, FL_Q_NSTATES
} fl_qstate;
const char *fl_qstate_name(fl_qstate s);

/* A queued repository. */
typedef struct fl_qrow {
	long long id;
	char *locator;            /* absolute path or clone URL */
	char *repo;               /* owner/name given (--repo), nullable */
	char *rev;                /* nullable: HEAD */
	int priority;             /* higher first */
	fl_qstate state;
	int attempts;             /* failed runs since it was queued */
	char *last_error;         /* nullable */
	char *analyzed_sha;       /* the commit the last scan read, nullable */
	char *scanned_repo;       /* owner/name its records are under, nullable */
	long long records;        /* the last scan's records, -1 none yet */
	char *owner;              /* "pid:start" of the batch running it */
	char *added_at, *started_at, *finished_at; /* nullable but added_at */
	double seconds;           /* the last run's, -1 none */
} fl_qrow;
void fl_qrow_free(fl_qrow *r);

/* What a locator is: a clone URL (https://, http://, git://, file://,
 * ssh://), else a local path. */
bool fl_locator_is_url(const char *locator);
/* Queue a repository: a new row, or (same locator) the row again as
 * pending with its attempts cleared and the new priority/repo/rev (a
 * running row keeps running, and is pending again when that run ends).
 * *requeued says which. */
int fl_queue_add(fl_store *st, const char *locator, const char *repo,
		 const char *rev, int priority, bool *requeued, fl_err *err);
/* Every row: pending by priority first, then running, failed, done,
 * skipped.  cb's non-zero return stops. */
typedef int (*fl_qrow_cb)(const fl_qrow *r, void *ud);
int fl_queue_each(fl_store *st, fl_qrow_cb cb, void *ud, fl_err *err);
int fl_queue_get(fl_store *st, long long id, fl_qrow *out, fl_err *err);
int fl_queue_counts(fl_store *st, long long counts[FL_Q_NSTATES], fl_err *err);
/* This process's owner tag ("pid:start"), and whether an owner tag names
 * a process that is still running. */
void fl_queue_owner_self(char out[48]);
bool fl_queue_owner_alive(const char *owner);
/* Running rows whose batch process is gone go back to pending (their run
 * did not count as an attempt).  *n: how many. */
int fl_queue_reclaim(fl_store *st, long long *n, fl_err *err);
/* Take the next pending row (highest priority, fewest attempts, oldest)
 * as running for owner, in one transaction: two batch processes never
 * take the same row.  1 with *out filled, 0 when none is pending. */
int fl_queue_claim(fl_store *st, const char *owner, fl_qrow *out, fl_err *err);
/* The end of a run of row id.  state: FL_Q_DONE / FL_Q_SKIPPED (sha,
 * scanned_repo, records set), FL_Q_FAILED (error: an attempt failed; the
 * row is pending again until max_attempts failed runs, then failed), or
 * FL_Q_PENDING (the run was stopped, not counted). */
int fl_queue_finish(fl_store *st, long long id, fl_qstate state,
		    const char *sha, const char *scanned_repo, long long records,
		    const char *error, double seconds, int max_attempts,
		    fl_err *err);

/* ---- lookup (lookup.md) --------------------------------------------------- */

typedef struct fl_lookup fl_lookup;

/* The lookup over a store: its index is cached beside the store
 * (<db>.lookup), rebuilt when the store changed, replaced atomically. */
int fl_lookup_open(fl_store *st, fl_lookup **out, fl_err *err);
void fl_lookup_close(fl_lookup *lk);
const char *fl_lookup_version(const fl_lookup *lk); /* datasetVersion */
size_t fl_lookup_count(const fl_lookup *lk);
bool fl_lookup_was_built(const fl_lookup *lk);
/* Make what long texts (logs) are scanned with ready now: for an index of
 * up to one Hyperscan database of literals, the database, mapped from
 * beside the lookup index or compiled (seconds) and saved there; for a
 * larger one (a few hundred thousand records and more), the literal
 * table's filter (milliseconds).  A lookup does it on its first long
 * text; a server or a benchmark may do it up front.  false when the
 * databases cannot be had (no Hyperscan): the literal table, slower on
 * long texts, serves then. */
bool fl_lookup_prepare_long(const fl_lookup *lk);
/* Free the calling thread's scratch memory (threads that did lookups). */
void fl_lookup_thread_done(void);

typedef struct fl_match {
	uint32_t entry;
	const char *id, *repo, *slug, *code, *message, *file_path, *github_url;
	int line;
	double score;
	const char *match_type;   /* "exact-code", "pattern", "fuzzy" */
	fl_strv captures;         /* what each placeholder captured */
	fl_strv evidence;         /* why it ranks where it does: a line per
				     piece of evidence the text carried */
	size_t same_text;         /* answers found raising the same text
				     (itself included): > 1 is a tie the
				     evidence had to break */
	fl_strv sites;            /* the other lines that raise the record
				     ("path:line"): a text raised at several
				     lines of one file is one record; line is
				     the one a frame of the text names */
} fl_match;

/* The versions of a match (records scanned with --history): which version
 * the answer is for and the record's line and permalink in it. */
typedef struct fl_match_version {
	bool known;               /* the record has versions */
	fl_record_versions v;     /* its versions and runs (when known) */
	int at;                   /* the version the answer is for: --at, or
				     one the text names; -1: none */
	int run;                  /* the record's run holding `at`, -1: the
				     record does not exist in it */
	bool at_head;             /* exists in the last version scanned */
	int line;                 /* its line in `at` (0: none) */
	char *url;                /* its permalink in `at`, or NULL */
	char *why;                /* the evidence: "the text names version
				     2.39.5", or NULL */
} fl_match_version;


/* A line longer than FL_LINE_MAX bytes is looked up on its first and last
 * FL_LINE_KEEP bytes (cut at character boundaries, joined by "\u2026"), so
 * that the work per line, and so a lookup's cost, stays linear in its
 * input whatever the input; answers count the lines so cut. */
#define FL_LINE_MAX 8192
#define FL_LINE_KEEP 4096

typedef struct fl_result {
	fl_match *v;              /* strings point into the lookup */
	size_t n;
	const char *match_type;   /* tier that answered, NULL for none */
	char *query;              /* the message looked up after normalising */
	size_t cut_lines;         /* lines matched on their head and tail only */
} fl_result;

/* Look text up (all tiers; repo NULL = every repository). */
int fl_lookup_explain(fl_lookup *lk, const char *text, size_t len,
		      const char *repo, size_t limit, fl_result *out);
/* The same within seconds (0: no limit): when the time runs out the lookup
 * stops and returns -1 with err "timed out ..." and no match (never a part
 * of the answer). */
int fl_lookup_explain_until(fl_lookup *lk, const char *text, size_t len,
			    const char *repo, size_t limit, double seconds,
			    fl_result *out, fl_err *err);
void fl_result_free(fl_result *r);

/* The version numbers a text names, in text order, at most 32, appended
 * to out: N.N[.N...] right after "version ", "@", "/", "-" or "v", or
 * N.N.N[...] after another word and a space ("cargo 1.95.0", "Python
 * 3.11.7"); not followed by more of a word.  Returns out->n. */
size_t fl_text_versions(const char *text, size_t len, fl_strv *out);
/* After a lookup of text (its raw input): each match's versions (*out, n
 * of them, in the new order of r), and the matches ranked by version
 * within each tier (matchType): with at (a version name, --at) or a
 * version the text names (`git version 2.39.5`, `npm@10.8.2`, `Python
 * 3.11.7`, a User-Agent's `git/2.39.5`, a path's `serde-1.0.197/`) the
 * records that exist in it first, then those without versions, then
 * those not in it; without one, those that exist at HEAD (or have no
 * versions) before those only in earlier versions.  *at_found: some
 * record has a version so named (false: at names none of them). */
int fl_result_versions(fl_store *st, fl_result *r, const char *at, const char *text,
		       size_t len, fl_match_version **out, bool *at_found, fl_err *err);
void fl_match_versions_free(fl_match_version *mv, size_t n);
/* Into a match's JSON answer (explain --json, the API, MCP): "versions"
 * ({"first","last","atHead", "at","existsAt" when answering for a
 * version, "runs":[{"first","last","lineNumber","blob"}]}), the line and
 * permalink of the version answered for, and the version the text named
 * as evidence.  Nothing for a record without versions. */
struct json_t;
void fl_match_version_json(struct json_t *match, const fl_match_version *x);

/* grep-log: stream a log, group multi-line errors, report each unit that
 * matches a known error (exact code or pattern). */
typedef struct fl_logmatch {
	size_t line, end_line;    /* 1-based lines of the log the error spans */
	const char *text;         /* those lines */
	size_t text_len;
	const fl_match *m;        /* the best match */
	size_t cut_lines;         /* its lines matched on head and tail only */
} fl_logmatch;
typedef int (*fl_logmatch_cb)(const fl_logmatch *lm, void *ud); /* !0 stops */
typedef struct fl_grep_stats {
	long long bytes, lines, units;
	long long cut_lines;      /* lines looked at on head and tail only */
} fl_grep_stats;
int fl_grep_log(fl_lookup *lk, FILE *in, const char *repo, fl_logmatch_cb cb,
		void *ud, fl_grep_stats *stats, fl_err *err);
/* The same within seconds (0: no limit).  Returns 1 when the time ran out:
 * the matches reported are every match of the stats->lines first lines,
 * and nothing after them was reported. */
int fl_grep_log_until(fl_lookup *lk, FILE *in, const char *repo,
		      fl_logmatch_cb cb, void *ud, double seconds,
		      fl_grep_stats *stats, fl_err *err);

/* A lookup match as a JSON object (jansson json_t *): the front end passes
 * the explain --json shape so that every front end answers alike. */
struct json_t;
typedef struct json_t *(*fl_match_json_fn)(const fl_match *m);

/* One matched error of a log as grep-log --json and /api/explain print it
 * (cli.md): line, endLine, text, the match's keys (from mj), cutLines;
 * with v (its record's versions, scan --history), versions: first, last,
 * atHead. */
struct json_t *fl_logmatch_json(const fl_logmatch *lm, fl_match_json_fn mj,
				const fl_record_versions *v);

/* ---- serving (lib/serve/) ------------------------------------------------- */

/* The cache folder: override, else $XDG_CACHE_HOME/faultline, else
 * ~/.cache/faultline.  Caller frees. */
char *fl_cache_dir(const char *override);

typedef struct fl_serve_opts {
	const char *db;             /* store to serve (NULL with data_dir) */
	const char *data_dir;       /* published data set to serve instead */
	const char *data_url;       /* or one followed at a URL: http(s):// or
	                               file:// (synced into the cache as
	                               fl_mcp_opts.data_url, switched to when a
	                               new version is verified) */
	bool offline;               /* data_url: never fetch; use the cache */
	int ttl;                    /* data_url: seconds between manifest polls; 0 = 300 */
	int sync_timeout;           /* data_url: seconds a sync may take; 0 = 600 */
	bool allow_rollback;        /* data_url: accept an older datasetVersion */
	const char *listen;         /* HOST:PORT; NULL = 127.0.0.1:8080; port 0 = any */
	const char *cache_dir;      /* NULL = fl_cache_dir(NULL) */
	const char *site_dir;       /* an already rendered site; NULL = render one */
	bool no_site;               /* API only */
	bool in_place;              /* db: serve the store where it is, not a
				       snapshot copy of it (see cmd_serve) */
	int threads;                /* worker threads; 0 = 4 */
	unsigned max_connections;   /* 0 = 512 */
	unsigned timeout_s;         /* idle connection timeout; 0 = 30 */
	unsigned header_timeout_s;  /* to send the request headers; 0 = 10 */
	unsigned per_ip;            /* slow connections one address keeps
	                               (lib/serve/conns.c); 0 = 32 */
	FILE *access_log;           /* NULL = stderr */
	bool no_cache;              /* do not keep /api/search answers */
	fl_match_json_fn match_json;
} fl_serve_opts;

/* Run the HTTP server until SIGTERM or SIGINT (then drain and return 0).
 * Prints "faultline: listening on http://HOST:PORT" on stderr once ready. */
int fl_serve_run(const fl_serve_opts *o, fl_err *err);

typedef struct fl_mcp_opts {
	const char *db;             /* local store */
	const char *data_url;       /* or a published data set: http(s):// or file:// */
	const char *cache_dir;      /* NULL = fl_cache_dir(NULL) */
	bool offline;               /* never fetch; use the cache */
	int ttl;                    /* seconds between manifest polls; 0 = 300 */
	int sync_timeout;           /* seconds a sync may take; 0 = 600 */
	bool allow_rollback;        /* accept an older datasetVersion */
	FILE *in, *out;             /* NULL = stdin / stdout */
	fl_match_json_fn match_json;
} fl_mcp_opts;

/* Serve the Model Context Protocol (newline-delimited JSON-RPC 2.0) until
 * end of input.  Returns 0, or -1 when the data cannot be opened at all. */
int fl_mcp_run(const fl_mcp_opts *o, fl_err *err);

#ifdef __cplusplus
}
#endif
#endif
