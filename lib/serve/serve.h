/*
 * serve.h — internals of the serving front ends (lib/serve/): where the data
 * comes from (a store, a data set folder imported into the cache, or a data
 * set URL synced into the cache), the JSON answers shared by the HTTP API and
 * the MCP server.  Not part of the public API (see the "serving" section of
 * faultline.h).
 */
#ifndef FL_SERVE_H
#define FL_SERVE_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "faultline.h"

/* ---- where the data comes from (source.c) ------------------------------- */

#define SRV_SYNC_TIMEOUT 600    /* seconds a URL sync may take by default */

typedef struct srv_source {
	/* configuration: exactly one of db, data_dir, url */
	char *db;
	char *data_dir;
	char *url;              /* data set root, no trailing '/' */
	char *cache;            /* folder of this source in the cache */
	int ttl;
	bool offline;
	bool allow_rollback;    /* URL: accept an older datasetVersion */
	int sync_timeout;       /* URL: seconds a sync may take; 0 = SRV_SYNC_TIMEOUT */
	bool keep_files;        /* URL: keep the verified files of the data set
				 * in the cache beside its store (files) */
	/* state */
	char *store_path;       /* the store to open */
	char *files;            /* URL with keep_files: the folder of the served
				 * version's files; NULL = not kept (a cache
				 * synced without keep_files) */
	char version[48];       /* datasetVersion of what is served */
	bool stale;             /* the last refresh failed: serving the cache */
	time_t synced_at;       /* when the served copy was last confirmed */
	time_t checked_at;      /* when the manifest was last polled */
	char last_error[1024];
	struct srv_sync *sync;  /* URL: the sync running on its own thread, or NULL */
	time_t sync_started;
} srv_source;

/* Set the source up (cache_dir NULL = default).  Exactly one of db, data_dir,
 * url must be given. */
int srv_source_init(srv_source *s, const char *db, const char *data_dir,
		    const char *url, const char *cache_dir, int ttl,
		    bool offline, fl_err *err);
/* Make store_path current: import the data set folder or sync the URL when
 * needed (the URL's manifest is polled at most once per ttl unless force).
 * *changed tells whether store_path now names another store.  A failed
 * refresh with a cached copy sets stale and returns 0; with no cache, -1. */
int srv_source_refresh(srv_source *s, bool force, bool *changed, fl_err *err);
/* The same, but a URL's sync runs on its own thread and is waited for
 * until wait_ms after it started (< 0: until it ends, as
 * srv_source_refresh; always when no copy is cached): while it runs,
 * s->sync is set, the cached copy is served, and a later call takes its
 * result.  Sizes the manifest and the
 * inventory declare are checked before downloading, and every transfer and
 * the whole sync (sync_timeout) have deadlines; a datasetVersion older than
 * the cached one is refused unless allow_rollback. */
int srv_source_refresh_wait(srv_source *s, bool force, int wait_ms, bool *changed,
			    fl_err *err);
/* Stops a running sync first. */
void srv_source_free(srv_source *s);
/* Age in seconds of the served copy (0 for a local store). */
long long srv_source_age(const srv_source *s);

/* ---- one consistent state of the served data (snap.c) ------------------- */

typedef struct srv_snap_cfg {
	const char *cache_root;
	const char *key;        /* real path of the store, or of the data set folder */
	const char *data_dir;   /* the data set folder (its site is rendered from it) */
	const char *version;    /* datasetVersion to answer; NULL = the lookup's */
	const char *site_dir;   /* a site given as it is (--site) */
	bool render;            /* render the site into the cache */
	bool copy;              /* serve a frozen copy of the store (it changes) */
} srv_snap_cfg;

typedef struct srv_snap {
	atomic_int refs;
	unsigned long seq;      /* 1, 2, ...: which snapshot */
	char *store;            /* the store requests read */
	bool own_store;         /* a copy, removed with the snapshot */
	fl_lookup *lk;
	char version[48];       /* "" = the lookup's */
	char *site;             /* the site root; NULL = none */
	int site_fd;            /* ... open; -1 = none */
	char *replaced;         /* the site folder it replaced, renamed away */
	char *trash;            /* its own site folder once replaced: removed with it */
	long long gen;          /* change counter of the store it was taken from */
	char changed[32];
	bool has_versions;      /* some record has versions (scan --history):
				   searches read them from the store */
} srv_snap;

/* A snapshot of the store src as it is now (one reference, the caller's). */
srv_snap *srv_snap_take(const srv_snap_cfg *cfg, fl_store *src, unsigned long seq, fl_err *err);
srv_snap *srv_snap_ref(srv_snap *sn);
/* Drop a reference; the last one removes the snapshot and its files. */
void srv_snap_put(srv_snap *sn);

/* ---- answers shared by HTTP and MCP (answer.c) -------------------------- */

/* explain --json: {"query","matches":[...],"datasetVersion"}; with st
 * (NULL: none), each match's versions (fl_match_version_json) */
json_t *srv_search_json(fl_lookup *lk, fl_store *st, const char *text, size_t len,
			const char *repo, size_t limit, const char *version,
			fl_match_json_fn mj);
/* grep-log --json objects of a pasted log: {"matches":[...],"lines":N,
 * "datasetVersion"}; NULL with err on failure. */
json_t *srv_explain_log_json(fl_lookup *lk, fl_store *st, const char *log, size_t len,
			     const char *repo, const char *version,
			     fl_match_json_fn mj, fl_err *err);
/* A record as a JSON object (parsed from fl_entry_to_json). */
json_t *srv_entry_json(const fl_entry *e);
json_t *srv_repo_json(const fl_repo *r);
/* RepoEntry[] of the store. */
json_t *srv_repos_json(fl_store *st, fl_err *err);
/* Markdown for an agent: meaning, fixes, defensive pattern, permalink. */
char *srv_entry_markdown(const fl_entry *e);

/* Compact JSON text of o (key order kept); caller frees. */
char *srv_dump(const json_t *o);

#endif
