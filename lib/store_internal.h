/*
 * store_internal.h — the store's handle, shared with the library modules
 * that run their own queries (scan merge, lookup index, export).
 */
#ifndef FL_STORE_INTERNAL_H
#define FL_STORE_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "faultline.h"
#include "strmap.h"

enum {
	STMT_PUT_REPO,
	STMT_PUT_ENTRY,
	STMT_ADD_ENTRY,
	STMT_ADD_SITE,
	STMT_CLEAR_SITES,
	STMT_CLEAR_ERRORS,
	STMT_DELETE_ENTRY,
	STMT_ADD_BLOCK,
	STMT_ADD_BLOCK_ENTRY,
	STMT_GET_BLOCK,
	STMT_CLEAR_BLOCKS,
	STMT_DROP_BLOCK,
	STMT_GET_BY_ID,
	STMT_GET_BY_SLUG,
	STMT_ENRICH_GET,
	STMT_ENRICH_PUT,
	STMT_ENRICH_FACTS,
	STMT_SITE_REPO,
	STMT_MARK_CHANGED,
	STMT_REC_RUNS,
	STMT_REPO_VERSIONS,
	STMT_VERSION_BLOB,
	STMT_MAX = 32,
};

struct fl_store {
	sqlite3 *db;
	char *path;
	bool readonly;
	bool in_tx;
	bool fresh;       /* created by this handle, still in rollback-journal
			     mode until its first commit (see fl_store_open) */
	bool schema_tx;   /* fresh: its schema is written in a transaction left
			     open for the first fl_store_begin to take over */
	bool adopted;     /* that transaction is the current one */
	int wb_fd;        /* fresh: the file, for early writeback; else -1 */
	long long wb_bytes; /* block bytes added since the last writeback */
	pthread_t wb_thread; /* fresh: the thread of an fdatasync of wb_fd */
	bool wb_started;     /* wb_thread is to be joined */
	atomic_bool wb_busy; /* its fdatasync is running */
	sqlite3_stmt *stmts[STMT_MAX];
	/* the last record block read: its first block_have bytes,
	 * decompressed, in a buffer of block_len (ids are never reused: a
	 * block's content never changes) */
	long long block_id;
	char *block;
	size_t block_len, block_have;
	/* the last record read from a block with windows, made whole */
	char *rec;
	size_t rec_cap;
	/* the repositories whose records the open transaction changed:
	 * fl_store_commit writes their generation (repo_changes) */
	fl_strmap changed;
	char *last_changed;   /* the last one marked (most writes repeat it) */
};

/* The columns fl_store_row_record() reads, in this order, from a query
 * on the table errors (not aliased): the record, where its JSON is, and
 * the fields a model wrote, while they are not stale. */
#define FL_RECORD_COLUMNS "record, blob_id, blob_off, blob_len," \
	" (SELECT fields FROM enrichment WHERE enrichment.error_id = errors.id" \
	" AND enrichment.content_hash IS errors.content_hash)"

/* The JSON of the record in row s whose FL_RECORD_COLUMNS start at column
 * col: the record column, or its slice of a compressed block, with the
 * fields a model wrote in place of the scanner's.  Not
 * NUL-terminated; valid until the next call or step.  NULL (err set) when
 * the stored record is damaged. */
const char *fl_store_row_record(fl_store *st, sqlite3_stmt *s, int col,
				size_t *len, fl_err *err);

/* A cached prepared statement (reset, bindings cleared). */
sqlite3_stmt *fl_store_stmt(fl_store *st, int which, const char *sql,
			    fl_err *err);

/* fl_store_put_entry for a record already validated and encoded (json =
 * fl_entry_to_json(e, false)), so callers can do both on several threads.
 * With add, the record must be new (its repository's records were cleared
 * in this transaction): a plain INSERT, which fails on a conflict instead
 * of replacing a row, and costs a third of an INSERT OR REPLACE (no
 * statement journal, no foreign-key delete actions). */
int fl_store_put_entry_json(fl_store *st, const fl_entry *e, const fl_facts *f,
			    const char *json, bool add, fl_err *err);

/* A block of records: the records of one source file, compressed with
 * fl_block_compress(); *id is its row.  Written since schema 5 (numbers
 * are 32-bit little-endian):
 *   FL_BLOCK_MAGIC, the number of segments, then each segment: its first
 *   line, its number of lines, its length, and that many bytes: lines of
 *   the source file, as they are in it (the union of the records' source
 *   windows, each of them once instead of in every record);
 *   then the records, one slice each: FL_BLOCK_SLICE_HDR bytes (where the
 *   sourceCode value is in the JSON, or FL_BLOCK_NO_WINDOW; the window's
 *   first and last line) and the record's JSON, whose sourceCode value is
 *   `null` there; the reader puts the window's lines in its place.
 * A block written before is the records' JSON one after another. */
#define FL_BLOCK_MAGIC "\0FW1"
#define FL_BLOCK_MAGIC_LEN 4
#define FL_BLOCK_SLICE_HDR 12
#define FL_BLOCK_NO_WINDOW 0xffffffffu

static inline void fl_put_u32(char *p, uint32_t v)
{
	p[0] = (char)(v & 0xff);
	p[1] = (char)(v >> 8 & 0xff);
	p[2] = (char)(v >> 16 & 0xff);
	p[3] = (char)(v >> 24 & 0xff);
}

static inline uint32_t fl_get_u32(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 |
	       (uint32_t)u[3] << 24;
}

int fl_store_add_block(fl_store *st, const char *repo, const void *data,
		       size_t len, size_t raw_len, long long *id, fl_err *err);

/* Add a new record (as with add above) whose JSON is bytes [off, off+len)
 * of block id. */
int fl_store_add_entry_in_block(fl_store *st, const fl_entry *e,
				const fl_facts *f, long long id, size_t off,
				size_t len, fl_err *err);

/* Compress raw_len bytes for fl_store_add_block (LZ4 block format): a
 * malloc'd buffer, its length in *len. */
void *fl_block_compress(const char *raw, size_t raw_len, size_t *len);

/* fl_store_clear_repo(), but the records of the files in keep (a JSON
 * array of repo-relative paths) stay, with their other sites and their
 * blocks: what a scan does for the files it could not read. */
int fl_store_clear_repo_except(fl_store *st, const char *repo, const char *keep,
			       fl_err *err);
/* The same, but the records kept are those whose ids are in keep (a JSON
 * array): what a history scan that resumes does for the records of past
 * versions it does not write again. */
int fl_store_clear_repo_except_ids(fl_store *st, const char *repo, const char *keep,
				   fl_err *err);

/* ---- a history scan's state (scan --history that resumes) ---- */

/* What the last history scan of repo was made with (the options that
 * change its records), or "" (none, or a plain scan or an import since):
 * at most size - 1 bytes. */
int fl_store_history_get_key(fl_store *st, const char *repo, char *key, size_t size,
			     fl_err *err);
/* Within a transaction: set it (fl_store_clear_versions clears it). */
int fl_store_history_put_key(fl_store *st, const char *repo, const char *key, fl_err *err);
/* The ids of the blobs of repo's versions, by number (*hex malloc'd, n). */
int fl_store_get_version_blobs(fl_store *st, const char *repo, char (**hex)[41], size_t *n,
			       fl_err *err);
/* Each record of repo: its id, file, language, slug, the text its slug is
 * made of (its code, else its message), and runs (NULL, 0: it has none). */
typedef int (*fl_hist_rec_cb)(const char *id, const char *path, const char *language,
			      const char *slug, const char *text, const fl_version_run *runs,
			      size_t n, void *ud);
int fl_store_each_history_record(fl_store *st, const char *repo, fl_hist_rec_cb cb, void *ud,
				 fl_err *err);

/* err = "store PATH: what: <SQLite's message>"; returns -1.  For the
 * modules that run their own queries (store_enrich.c, store_queue.c). */
static inline int fl_store_sqlfail(fl_store *st, fl_err *err, const char *what)
{
	return fl_seterr(err, "store %s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

/* Bind a text that may be NULL (copied). */
static inline void fl_store_bind_opt(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* A transaction that changes no record (the queue's rows): the change
 * counter is left alone, so the lookup index and other caches of the
 * records stay valid.  fl_store_rollback() ends it too. */
int fl_store_begin_admin(fl_store *st, fl_err *err);
int fl_store_commit_admin(fl_store *st, fl_err *err);

/* The store's identity (meta's store_id, 32 hex digits; "" for a store
 * older than schema 8 opened read-only). */
int fl_store_identity(fl_store *st, char id[40], fl_err *err);
/* The repositories whose records changed after generation since (their
 * repo_changes generation is greater), into out; -1 when the store cannot
 * tell (no such table: a store older than schema 8). */
int fl_store_changed_since(fl_store *st, long long since, fl_strv *out, fl_err *err);

/* The SQL that brings a store of schema version-1 to version (1 ..
 * FL_STORE_SCHEMA), NULL otherwise.  A new store is created with the
 * schema they build, in one script. */
const char *fl_store_migration(int version);

#endif
