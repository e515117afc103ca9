/*
 * store.c — the SQLite store: schema creation and migration by
 * PRAGMA user_version, WAL mode, transactions, and the rows for
 * repositories, error records, the other sites of duplicate records, and
 * the history of scans.
 *
 * A record is kept both as its full JSON (the source of truth for
 * list/show/export) and as indexed columns used for queries.  The JSON is
 * in the `record` column, or, for records written by a scan, in a block of
 * the `record_blobs` table: the records of one source file, compressed
 * together, which a row points into; the block holds the lines of the
 * file's source windows once, and a record read from it gets its window
 * back in its JSON (format: store_internal.h).
 */
#define _GNU_SOURCE /* sync_file_range */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <lz4.h>
#include <pthread.h>
#include <stdio.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "faultline.h"
#include "json_internal.h"
#include "store_internal.h"
#include "util.h"

/* 'FLTN' */
#define FL_APP_ID 0x464c544e

/* The pieces of the schema that the migrations and a new store's script
 * (fresh_schema) share. */
#define SQL_REPOS \
	"CREATE TABLE repos (" \
	" repo TEXT PRIMARY KEY," \
	" record TEXT NOT NULL," \
	" updated_at TEXT NOT NULL);"
/* the errors table of version 1, up to its table constraint */
#define SQL_ERRORS_V1_COLUMNS \
	"CREATE TABLE errors (" \
	" id TEXT PRIMARY KEY," \
	" repo TEXT NOT NULL," \
	" slug TEXT NOT NULL," \
	" error_code TEXT," \
	" error_message TEXT NOT NULL," \
	" message_pattern TEXT NOT NULL," \
	" error_type TEXT NOT NULL," \
	" severity TEXT NOT NULL," \
	" file_path TEXT NOT NULL," \
	" line_number INTEGER," \
	" col INTEGER," \
	" content_changed_at TEXT NOT NULL," \
	" function TEXT," \
	" guard TEXT," \
	" idiom TEXT," \
	" language TEXT," \
	" record TEXT NOT NULL,"
#define SQL_ERRORS_END " UNIQUE (repo, slug));"
#define SQL_ERRORS_BY_LOCATION \
	"CREATE INDEX errors_by_location ON errors (repo, file_path, line_number, col);"
#define SQL_SITES_COLUMNS \
	"CREATE TABLE error_sites (" \
	" error_id TEXT NOT NULL REFERENCES errors (id) ON DELETE CASCADE," \
	" file_path TEXT NOT NULL," \
	" line_number INTEGER NOT NULL," \
	" col INTEGER"
#define SQL_SITES_INDEX_AND_SCANS \
	"CREATE INDEX error_sites_by_error ON error_sites (error_id);" \
	"CREATE TABLE scans (" \
	" id INTEGER PRIMARY KEY," \
	" repo TEXT NOT NULL," \
	" target TEXT NOT NULL," \
	" rev TEXT," \
	" sha TEXT," \
	" started_at TEXT NOT NULL," \
	" seconds REAL NOT NULL," \
	" files INTEGER NOT NULL," \
	" sites INTEGER NOT NULL," \
	" records INTEGER NOT NULL," \
	" duplicates INTEGER NOT NULL," \
	" outcome TEXT NOT NULL," \
	" message TEXT);"
#define SQL_META \
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);" \
	"INSERT INTO meta (key, value) VALUES ('generation', '0');" \
	"INSERT INTO meta (key, value) VALUES ('changed_at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));"
#define SQL_RECORD_BLOBS \
	"CREATE TABLE record_blobs (" \
	" id INTEGER PRIMARY KEY AUTOINCREMENT," \
	" repo TEXT NOT NULL," \
	" raw_len INTEGER NOT NULL," \
	" data BLOB NOT NULL);" \
	"CREATE INDEX record_blobs_by_repo ON record_blobs (repo);"

/* Which repositories' records changed when (version 8): a row per
 * repository, with the store generation its records last changed at (the
 * one fl_store_commit makes: the transaction that changed them writes it,
 * see mark_changed), kept after its records are all gone, so that a
 * derived cache built at an older generation (the lookup index's base,
 * lookup/segment.c) knows which repositories to read again.  And the
 * store's identity, random, made once: a cache of another store at the
 * same path is not taken for this one's. */
#define SQL_REPO_CHANGES \
	"CREATE TABLE repo_changes (" \
	" repo TEXT PRIMARY KEY," \
	" generation INTEGER NOT NULL);" \
	"INSERT OR IGNORE INTO meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));"

/* One row per record a model wrote fields of: fields is a JSON object
 * (field -> value, records.md's types), provenance one (field ->
 * {"provider","model","at","phase"}), phases the phases done (a bit per
 * fl_phase), verify_rounds the verify passes made.  The fields show in the
 * record only while content_hash is the record's (errors.content_hash):
 * after a rescan that changed the record they are stale. */
#define SQL_ENRICHMENT \
	"CREATE TABLE enrichment (" \
	" error_id TEXT PRIMARY KEY," \
	" content_hash TEXT," \
	" fields TEXT NOT NULL," \
	" provenance TEXT NOT NULL," \
	" phases INTEGER NOT NULL DEFAULT 0," \
	" verify_rounds INTEGER NOT NULL DEFAULT 0," \
	" updated_at TEXT NOT NULL);"

/* The corpus queue (faultline queue / batch / status): one row per
 * repository to scan.  owner is "pid:start" of the batch process running
 * the row (start: the process's start time in clock ticks since boot, so
 * that a pid used again is not taken for the dead owner); scanned_repo the
 * owner/name the last scan stored its records under; seconds the last
 * run's duration. */
#define SQL_QUEUE \
	"CREATE TABLE queue (" \
	" id INTEGER PRIMARY KEY," \
	" locator TEXT NOT NULL UNIQUE," \
	" repo TEXT," \
	" rev TEXT," \
	" priority INTEGER NOT NULL DEFAULT 0," \
	" state TEXT NOT NULL DEFAULT 'pending'" \
	"  CHECK (state IN ('pending', 'running', 'done', 'failed', 'skipped'))," \
	" attempts INTEGER NOT NULL DEFAULT 0," \
	" last_error TEXT," \
	" analyzed_sha TEXT," \
	" scanned_repo TEXT," \
	" records INTEGER," \
	" owner TEXT," \
	" added_at TEXT NOT NULL," \
	" started_at TEXT," \
	" finished_at TEXT," \
	" seconds REAL);" \
	"CREATE INDEX queue_by_state ON queue (state, priority, attempts, id);"

/* A project's versions (scan --history): the versions scanned, in version
 * order (seq 0 the oldest), each a tag (or HEAD) and its commit; the ids
 * of the blobs its records are in, numbered; and per record the versions
 * it exists in: the first and last, and its runs (consecutive versions
 * with the same blob and line share one run: see store_versions.c), in
 * one row per record. */
#define SQL_VERSIONS \
	"CREATE TABLE repo_versions (" \
	" repo TEXT NOT NULL," \
	" seq INTEGER NOT NULL," \
	" name TEXT NOT NULL," \
	" sha TEXT NOT NULL," \
	" PRIMARY KEY (repo, seq)) WITHOUT ROWID;" \
	"CREATE TABLE version_blobs (" \
	" repo TEXT NOT NULL," \
	" idx INTEGER NOT NULL," \
	" oid BLOB NOT NULL," \
	" PRIMARY KEY (repo, idx)) WITHOUT ROWID;" \
	"CREATE TABLE error_versions (" \
	" error_id TEXT PRIMARY KEY REFERENCES errors (id) ON DELETE CASCADE," \
	" first_seq INTEGER NOT NULL," \
	" last_seq INTEGER NOT NULL," \
	" runs BLOB NOT NULL) WITHOUT ROWID;"

static const char *const migrations[] = {
	/* version 1 */
	SQL_REPOS
	SQL_ERRORS_V1_COLUMNS
	SQL_ERRORS_END
	SQL_ERRORS_BY_LOCATION
	"CREATE INDEX errors_by_code ON errors (error_code) WHERE error_code IS NOT NULL;"
	SQL_SITES_COLUMNS ");"
	SQL_SITES_INDEX_AND_SCANS,
	/* version 2: a change counter, so derived caches (the lookup index)
	 * know when they are stale */
	SQL_META,
	/* version 3: a digest of each record's content, so a rescan compares
	 * digests instead of re-reading every old record */
	"ALTER TABLE errors ADD COLUMN content_hash TEXT;",
	/* version 4: the records a scan writes are kept in compressed blocks,
	 * one per source file (a store a third of the size, written much
	 * faster); a row points into its block (blob_id, blob_off, blob_len)
	 * and has an empty record column.  errorClass and githubUrl, which the
	 * lookup index used to read from the JSON, get columns. */
	SQL_RECORD_BLOBS
	"ALTER TABLE errors ADD COLUMN blob_id INTEGER;"
	"ALTER TABLE errors ADD COLUMN blob_off INTEGER;"
	"ALTER TABLE errors ADD COLUMN blob_len INTEGER;"
	"ALTER TABLE errors ADD COLUMN error_class TEXT;"
	"ALTER TABLE errors ADD COLUMN github_url TEXT;"
	"UPDATE errors SET error_class = json_extract(record, '$.errorClass'),"
	" github_url = json_extract(record, '$.githubUrl') WHERE json_valid(record);",
	/* version 5: a block may hold its file's source windows once, each
	 * record's slice pointing at its lines (see store_internal.h): a
	 * faultline knowing only version 4 would misread such a block, so it
	 * must refuse the store.  And the index of error codes goes: no query
	 * ever used it (codes are looked up through the lookup index), and
	 * every record with a code paid for it when written. */
	"DROP INDEX IF EXISTS errors_by_code;",
	/* version 6: the fields a model wrote (faultline enrich), kept beside
	 * the record instead of in it, so a rescan that keeps a record's
	 * content keeps them, and one that changes it leaves them stale */
	SQL_ENRICHMENT,
	/* version 7: the queue of repositories a batch scans */
	SQL_QUEUE,
	/* version 8: the generation each repository's records last changed
	 * at, and the store's identity (an incremental lookup index) */
	SQL_REPO_CHANGES,
	/* version 9: the versions each record exists in (scan --history) */
	SQL_VERSIONS,
	/* version 10: a duplicate site's function and guard, as the record
	 * has its own: the lookup picks among a record's lines by them (the
	 * pasted command's words) */
	("ALTER TABLE error_sites ADD COLUMN function TEXT;"
	 "ALTER TABLE error_sites ADD COLUMN guard TEXT;"),
};
/* The schema the migrations above build, as one script: what a new store
 * is created with (replaying the migrations re-reads the schema after
 * every ALTER TABLE: 2.0-3.3 ms at the start of every scan into a new
 * store, against 1.0-2.5 ms).  Columns in the order the migrations add
 * them; the unit test test_fresh_schema_is_migrated_schema holds the two
 * equal. */
static const char fresh_schema[] =
	SQL_REPOS
	SQL_ERRORS_V1_COLUMNS
	" content_hash TEXT,"                           /* version 3 */
	" blob_id INTEGER,"                             /* version 4 */
	" blob_off INTEGER,"
	" blob_len INTEGER,"
	" error_class TEXT,"
	" github_url TEXT,"
	SQL_ERRORS_END
	SQL_ERRORS_BY_LOCATION
	SQL_SITES_COLUMNS
	", function TEXT, guard TEXT);"                 /* version 10 */
	SQL_SITES_INDEX_AND_SCANS
	SQL_META                                        /* version 2 */
	SQL_RECORD_BLOBS                                /* version 4 */
	SQL_ENRICHMENT                                  /* version 6 */
	SQL_QUEUE                                       /* version 7 */
	SQL_REPO_CHANGES                                /* version 8 */
	SQL_VERSIONS;                                   /* version 9 */

#define NMIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

_Static_assert(NMIGRATIONS == FL_STORE_SCHEMA,
	       "FL_STORE_SCHEMA must equal the number of migrations");

const char *fl_store_migration(int version)
{
	return version >= 1 && version <= NMIGRATIONS ? migrations[version - 1] : NULL;
}

static int exec(fl_store *st, const char *sql, fl_err *err)
{
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fl_seterr(err, "store %s: %s", st->path, msg ? msg : "error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int pragma_int(fl_store *st, const char *sql, int *out, fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fl_store_sqlfail(st, err, "reading the schema version");
	return 0;
}

char *fl_store_default_path(void)
{
	const char *env = getenv("FAULTLINE_DB");
	if (env && *env)
		return fl_xstrdup(env);
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg && *xdg)
		return fl_xasprintf("%s/faultline/faultline.db", xdg);
	const char *home = getenv("HOME");
	return fl_xasprintf("%s/.local/share/faultline/faultline.db",
			    home && *home ? home : ".");
}

/* mkdir -p of the parent folder of path */
static int make_parent(const char *path, fl_err *err)
{
	char *dir = fl_xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir) {
		free(dir);
		return 0;
	}
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
				fl_seterr(err, "cannot create %s: %s", dir, strerror(errno));
				free(dir);
				return -1;
			}
			*p = '/';
		}
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fl_seterr(err, "cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	free(dir);
	return 0;
}

/* The folder of path (malloc'd): "." for a bare name. */
static char *parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return fl_xstrdup(".");
	if (slash == path)
		return fl_xstrdup("/");
	return fl_xstrndup(path, (size_t)(slash - path));
}

/* Whether path has a rollback journal with something in it: what a
 * writer killed in a transaction leaves (SQLite rolls it back when a
 * connection that may write the file next reads it). */
static bool has_journal(const char *path)
{
	char *j = fl_xasprintf("%s-journal", path);
	struct stat sb;
	bool yes = stat(j, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
	free(j);
	return yes;
}

/* The error for a store whose unfinished transaction cannot be rolled back
 * here: what stands in the way (sqlmsg: SQLite's own word, when neither the
 * folder nor the file explains it). */
static int hot_journal_error(const fl_store *st, const char *sqlmsg, fl_err *err)
{
	char *dir = parent_dir(st->path);
	const char *why;
	if (access(dir, W_OK) != 0)
		why = "its folder is not writable";
	else if (access(st->path, W_OK) != 0)
		why = "the file is not writable";
	else
		why = NULL;
	if (why)
		fl_seterr(err, "store %s has an unfinished transaction (hot journal %s-journal) and %s:"
			  " it is rolled back by the next faultline command run by a user who may write"
			  " both the file and %s", st->path, st->path, why, dir);
	else
		fl_seterr(err, "store %s has an unfinished transaction (hot journal %s-journal) that"
			  " cannot be rolled back: %s", st->path, st->path, sqlmsg);
	free(dir);
	return -1;
}

/* A store opened for reading that a writer left in the middle of a
 * transaction (kill -9 of a first scan, which fills a new store with a
 * rollback journal): a read-only handle cannot roll the journal back
 * (SQLITE_READONLY_ROLLBACK), so it is done through a read-write handle of
 * our own, when the file and its folder allow; the store is then as it
 * was before that transaction. */
static int roll_back_journal(fl_store *st, fl_err *err)
{
	sqlite3 *rw = NULL;
	int rc = sqlite3_open_v2(st->path, &rw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(rw, 10000);
		/* reading the schema rolls a hot journal back */
		rc = sqlite3_exec(rw, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	}
	int res = rc == SQLITE_OK ? 0
		  : hot_journal_error(st, rw ? sqlite3_errmsg(rw) : "out of memory", err);
	sqlite3_close(rw);
	return res;
}

/* What the file is: a faultline store (*version: its schema version), or
 * an empty database (version 0), which becomes one; anything else is
 * refused.  Only reads: called before anything that changes the file
 * (journal mode, schema), so that another program's database is refused
 * as it was. */
static int identify(fl_store *st, int *version, fl_err *err)
{
	int app = 0, tables = 0;
	for (int attempt = 0;; attempt++) {
		*version = 0;
		if (pragma_int(st, "PRAGMA user_version", version, err) == 0 &&
		    pragma_int(st, "PRAGMA application_id", &app, err) == 0 &&
		    pragma_int(st, "SELECT count(*) FROM sqlite_master", &tables, err) == 0)
			break;
		if (attempt == 0 && st->readonly &&
		    sqlite3_extended_errcode(st->db) == SQLITE_READONLY_ROLLBACK) {
			if (roll_back_journal(st, err) < 0)
				return -1;
			continue;
		}
		int ec = sqlite3_errcode(st->db);
		if (ec == SQLITE_BUSY || ec == SQLITE_LOCKED)
			return fl_seterr(err, "store %s is busy: another process has held it for"
					 " 10 s (%s)", st->path, sqlite3_errmsg(st->db));
		if (has_journal(st->path))
			return hot_journal_error(st, sqlite3_errmsg(st->db), err);
		return fl_seterr(err, "%s is not a faultline store (%s)", st->path,
				 sqlite3_errmsg(st->db));
	}
	if (app != FL_APP_ID && (app != 0 || tables > 0 || *version != 0))
		return fl_seterr(err, "%s is an SQLite database but not a faultline store", st->path);
	if (*version > FL_STORE_SCHEMA)
		return fl_seterr(err, "store %s was written by a newer faultline (schema %d, this build knows %d); upgrade faultline", st->path, *version, FL_STORE_SCHEMA);
	return 0;
}

/* Bring the schema to FL_STORE_SCHEMA.  defer: a new store's schema is
 * written in a transaction left open (st->schema_tx), which the first
 * fl_store_begin() takes over: the first scan of a new store then writes
 * its schema and records in one commit, with one set of syncs, instead of
 * committing (and syncing) an empty store first; fl_store_close() commits
 * it when no transaction came. */
static int migrate(fl_store *st, bool defer, fl_err *err)
{
	int version = 0, tables = 0;
	if (identify(st, &version, err) < 0)
		return -1;
	if (version == FL_STORE_SCHEMA)
		return 0;
	if (st->readonly) {
		/* an older store opened for reading: migrate it through a
		 * read-write handle of our own, when the file allows */
		sqlite3 *rw = NULL;
		if (sqlite3_open_v2(st->path, &rw, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
		    sqlite3_db_readonly(rw, "main") != 0) {
			sqlite3_close(rw);
			if (version == 0)
				return fl_seterr(err, "store %s is empty (no scan has finished into it) and read-only here", st->path);
			return fl_seterr(err, "store %s has schema %d and needs migrating, but is read-only", st->path, version);
		}
		sqlite3_busy_timeout(rw, 10000);
		sqlite3 *ro = st->db;
		st->db = rw;
		st->readonly = false;
		int rc = migrate(st, false, err);
		st->db = ro;
		st->readonly = true;
		sqlite3_close(rw);
		return rc;
	}
	if (exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	/* re-read under the write lock: another process may have migrated */
	if (pragma_int(st, "PRAGMA user_version", &version, err) < 0 ||
	    pragma_int(st, "SELECT count(*) FROM sqlite_master", &tables, err) < 0)
		goto fail;
	if (version == 0 && tables == 0) {
		if (exec(st, fresh_schema, err) < 0)
			goto fail;
	} else {
		for (int v = version; v < FL_STORE_SCHEMA; v++)
			if (exec(st, migrations[v], err) < 0)
				goto fail;
	}
	char sql[96];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d; PRAGMA application_id = %d",
		 FL_STORE_SCHEMA, FL_APP_ID);
	if (exec(st, sql, err) < 0)
		goto fail;
	if (defer && version == 0) {
		st->schema_tx = true;
		return 0;
	}
	if (exec(st, "COMMIT", err) < 0)
		goto fail;
	return 0;
fail:
	exec(st, "ROLLBACK", NULL);
	return -1;
}

/* SQLite's page cache without its initial bulk allocation: by default
 * each connection allocates room for 20 pages at once and writes a header
 * into each, 20 page faults (a 16 KiB page a slot) before the first read,
 * one in fifteen of a one-shot `explain` process's faults.  Pages are then
 * allocated as the cache fills.  Set once, before SQLite initialises. */
static pthread_once_t sqlite_once = PTHREAD_ONCE_INIT;

static void sqlite_setup(void)
{
	sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)NULL, 0, 0);
}

int fl_store_open(const char *path, bool readonly, fl_store **out,
		  fl_err *err)
{
	*out = NULL;
	pthread_once(&sqlite_once, sqlite_setup);
	struct stat sb;
	int sr = stat(path, &sb);
	if (sr == 0 && S_ISDIR(sb.st_mode))
		return fl_seterr(err, "%s is a folder, not a faultline store", path);
	/* a store this call creates */
	bool fresh = !readonly && ((sr != 0 && errno == ENOENT) || (sr == 0 && sb.st_size == 0));
	if (readonly && access(path, F_OK) != 0)
		return fl_seterr(err, "no store at %s (run `faultline scan` first)", path);
	if (!readonly && make_parent(path, err) < 0)
		return -1;
	fl_store *st = fl_xcalloc(1, sizeof *st);
	st->path = fl_xstrdup(path);
	st->readonly = readonly;
	st->wb_fd = -1;
	int flags = readonly ? SQLITE_OPEN_READONLY
			     : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(path, &st->db, flags | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		fl_seterr(err, "cannot open store %s: %s", path,
			  st->db ? sqlite3_errmsg(st->db) : "out of memory");
		fl_store_close(st);
		return -1;
	}
	sqlite3_busy_timeout(st->db, 10000);
	sqlite3_extended_result_codes(st->db, 1);
	/* an existing file is known to be a store before anything may
	 * change it (the journal mode below writes its header) */
	int version;
	if (!fresh && !readonly && identify(st, &version, err) < 0) {
		fl_store_close(st);
		return -1;
	}
	if (!readonly) {
		/* a new store gets 16 KiB pages: a file's block of records is
		 * 2-30 KB compressed and a record written inline 2-4 KB, so
		 * 4 KiB pages would hold one each and waste a third of the
		 * file (no effect on an existing store) */
		exec(st, "PRAGMA page_size = 16384", NULL);
		exec(st, "PRAGMA synchronous = NORMAL", NULL);
		/* A new store is filled first with a rollback journal: its first
		 * transaction (the first scan, tens of MB) goes straight into
		 * the file, instead of into the WAL, then copied into the file
		 * by the checkpoint and the WAL freed.  It turns to WAL after
		 * that transaction (fl_store_commit), so readers never wait on
		 * a writer after it; a reader opening it meanwhile waits for
		 * the commit, as any reader of a rollback journal does. */
		int rc = fresh ? exec(st, "PRAGMA journal_mode = DELETE", err)
			       : exec(st, "PRAGMA journal_mode = WAL", err);
		st->fresh = fresh;
		if (rc < 0) {
			fl_seterr(err, "cannot open store %s: %s", path,
				  sqlite3_errmsg(st->db));
			fl_store_close(st);
			return -1;
		}
		exec(st, "PRAGMA synchronous = NORMAL", NULL);
		/* a scan writes tens of MB in one transaction: let the page
		 * cache hold it instead of spilling to the WAL mid-way.  A new
		 * store's first transaction is the exception: its pages are
		 * new, need no journal, and are written to the file as they
		 * leave a small cache, so that the commit does not write them
		 * all at once (see fl_store_add_block) */
		exec(st, fresh ? "PRAGMA cache_size = -1024" : "PRAGMA cache_size = -65536", NULL);
		/* statement journals and temporary b-trees in memory, not in
		 * /var/tmp files (one write per inserted record otherwise) */
		exec(st, "PRAGMA temp_store = MEMORY", NULL);
	}
	exec(st, "PRAGMA foreign_keys = ON", NULL);
	if (migrate(st, fresh, err) < 0) {
		fl_store_close(st);
		return -1;
	}
	*out = st;
	return 0;
}

const char *fl_store_path(const fl_store *st)
{
	return st->path;
}

/* A new store, its first transaction committed: WAL from now on (when
 * another connection is open and this cannot be done now, the next
 * fl_store_open does it). */
static void wb_stop(fl_store *st);
static void forget_changed(fl_store *st);
static int write_changed(fl_store *st, fl_err *err);

static void wal_after_fill(fl_store *st)
{
	if (!st->fresh)
		return;
	st->fresh = false;
	wb_stop(st);
	exec(st, "PRAGMA cache_size = -65536", NULL);
	exec(st, "PRAGMA journal_mode = WAL", NULL);
}

/* A new store's first transaction: every 256 KB of blocks, unless one is
 * still running, an fdatasync() of what SQLite has written to the file so
 * far, on a thread of its own (it waits on the disk, not on a core), so
 * that the commit's syncs find little left.  sync_file_range(), which only
 * starts the writing, left the commit's first sync at 10 ms on git (ext4
 * makes it wait for the file's new blocks and their metadata); these syncs
 * bring it under 1 ms. */
static void *wb_main(void *arg)
{
	fl_store *st = arg;
	(void)fdatasync(st->wb_fd); /* the commit's own sync reports errors */
	atomic_store(&st->wb_busy, false);
	return NULL;
}

/* The sync in flight, if any, waited for. */
static void wb_join(fl_store *st)
{
	if (st->wb_started) {
		pthread_join(st->wb_thread, NULL);
		st->wb_started = false;
	}
}

/* No more early syncs: the one in flight waited for, the file closed. */
static void wb_stop(fl_store *st)
{
	wb_join(st);
	if (st->wb_fd >= 0)
		close(st->wb_fd);
	st->wb_fd = -1;
}

static void early_writeback(fl_store *st, size_t len)
{
	if (!st->fresh)
		return;
	st->wb_bytes += (long long)len;
	if (st->wb_bytes < (256 << 10) || atomic_load(&st->wb_busy))
		return;
	st->wb_bytes = 0;
	if (st->wb_fd < 0)
		st->wb_fd = open(st->path, O_RDONLY | O_CLOEXEC);
	if (st->wb_fd < 0)
		return;
	wb_join(st);
	atomic_store(&st->wb_busy, true);
	if (pthread_create(&st->wb_thread, NULL, wb_main, st) == 0)
		st->wb_started = true;
	else
		atomic_store(&st->wb_busy, false);
}

/* The prepared statements finalized (they are prepared again on use). */
static void finalize_stmts(fl_store *st)
{
	for (size_t i = 0; i < sizeof st->stmts / sizeof st->stmts[0]; i++) {
		sqlite3_finalize(st->stmts[i]);
		st->stmts[i] = NULL;
	}
}

/* A new store's schema, still in its open transaction (see migrate):
 * committed on its own. */
static int settle_schema(fl_store *st, fl_err *err)
{
	if (!st->schema_tx)
		return 0;
	st->schema_tx = false;
	if (exec(st, "COMMIT", err) < 0) {
		exec(st, "ROLLBACK", NULL);
		return -1;
	}
	return 0;
}

void fl_store_close(fl_store *st)
{
	if (!st)
		return;
	settle_schema(st, NULL);
	finalize_stmts(st);
	if (st->db) {
		wal_after_fill(st); /* a new store nothing was written to */
		sqlite3_close(st->db);
	}
	wb_stop(st);
	free(st->block);
	free(st->rec);
	forget_changed(st);
	free(st->path);
	free(st);
}

int fl_store_begin(fl_store *st, fl_err *err)
{
	if (st->in_tx)
		return fl_seterr(err, "store %s: a transaction is already open", st->path);
	if (st->schema_tx) {
		/* the new store's schema and this transaction commit as one */
		st->schema_tx = false;
		st->adopted = true;
	} else if (exec(st, "BEGIN IMMEDIATE", err) < 0) {
		return -1;
	}
	st->in_tx = true;
	st->block_id = 0; /* a rolled-back block's id may be used again */
	return 0;
}

bool fl_store_read_begin(fl_store *st)
{
	if (st->in_tx || !sqlite3_get_autocommit(st->db))
		return false;
	return sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
}

void fl_store_read_end(fl_store *st, bool begun)
{
	if (begun)
		sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
}

int fl_store_commit(fl_store *st, fl_err *err)
{
	if (write_changed(st, err) < 0 || exec(st, "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation';"
		 "UPDATE meta SET value = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE key = 'changed_at'",
		 err) < 0 ||
	    exec(st, "COMMIT", err) < 0) {
		fl_store_rollback(st);
		return -1;
	}
	st->in_tx = false;
	st->adopted = false;
	forget_changed(st);
	wal_after_fill(st);
	return 0;
}

int fl_store_begin_admin(fl_store *st, fl_err *err)
{
	if (st->in_tx)
		return fl_seterr(err, "store %s: a transaction is already open", st->path);
	if (settle_schema(st, err) < 0 || exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	st->in_tx = true;
	return 0;
}

int fl_store_commit_admin(fl_store *st, fl_err *err)
{
	if (exec(st, "COMMIT", err) < 0) {
		fl_store_rollback(st);
		return -1;
	}
	st->in_tx = false;
	return 0;
}

void fl_store_busy_timeout(fl_store *st, int ms)
{
	sqlite3_busy_timeout(st->db, ms);
}

void fl_store_rollback(fl_store *st)
{
	forget_changed(st);
	if (st->in_tx)
		exec(st, "ROLLBACK", NULL);
	st->in_tx = false;
	st->block_id = 0;
	if (st->adopted) {
		/* the new store's schema went with it: write it again, on its
		 * own (the statements were prepared against the old one) */
		st->adopted = false;
		finalize_stmts(st);
		migrate(st, false, NULL);
	}
}

sqlite3_stmt *fl_store_stmt(fl_store *st, int which, const char *sql,
			    fl_err *err)
{
	if (!st->stmts[which]) {
		if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
				       &st->stmts[which], NULL) != SQLITE_OK) {
			fl_store_sqlfail(st, err, "preparing a statement");
			return NULL;
		}
	}
	sqlite3_reset(st->stmts[which]);
	sqlite3_clear_bindings(st->stmts[which]);
	return st->stmts[which];
}

/* For the statements a scan runs thousands of times: the value is not
 * copied, so it must outlive the step; step_static() then unbinds it. */
static void bind_static(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

static void bind_nint(sqlite3_stmt *s, int i, int v)
{
	if (v > 0)
		sqlite3_bind_int(s, i, v);
	else
		sqlite3_bind_null(s, i);
}

static int need_tx(fl_store *st, fl_err *err)
{
	if (!st->in_tx)
		return fl_seterr(err, "store %s: changes must be made inside a transaction", st->path);
	return 0;
}

/* Remember that the open transaction changed repo's records. */
static void mark_changed(fl_store *st, const char *repo)
{
	if (!repo || (st->last_changed && strcmp(st->last_changed, repo) == 0))
		return;
	free(st->last_changed);
	st->last_changed = fl_xstrdup(repo);
	fl_strmap_put(&st->changed, repo, 1);
}

static void forget_changed(fl_store *st)
{
	fl_strmap_free(&st->changed);
	memset(&st->changed, 0, sizeof st->changed);
	free(st->last_changed);
	st->last_changed = NULL;
}

/* The generation the commit is making, for every repository marked. */
static int write_changed(fl_store *st, fl_err *err)
{
	for (size_t i = 0; i < st->changed.cap; i++) {
		if (!st->changed.keys || !st->changed.keys[i])
			continue;
		sqlite3_stmt *s = fl_store_stmt(st, STMT_MARK_CHANGED,
			"INSERT INTO repo_changes (repo, generation)"
			" SELECT ?1, CAST(value AS INTEGER) + 1 FROM meta WHERE key = 'generation'"
			" ON CONFLICT (repo) DO UPDATE SET generation = excluded.generation", err);
		if (!s)
			return -1;
		fl_store_bind_opt(s, 1, st->changed.keys[i]);
		int rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return fl_store_sqlfail(st, err, "noting the repositories changed");
	}
	return 0;
}

static int step_done(fl_store *st, sqlite3_stmt *s, fl_err *err,
		     const char *what)
{
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return fl_store_sqlfail(st, err, what);
	return 0;
}

static int step_static(fl_store *st, sqlite3_stmt *s, fl_err *err,
		       const char *what)
{
	int rc = step_done(st, s, err, what);
	sqlite3_clear_bindings(s);
	return rc;
}

int fl_store_put_repo(fl_store *st, const fl_repo *r, fl_err *err)
{
	if (need_tx(st, err) < 0 || fl_repo_validate(r, err) < 0)
		return -1;
	sqlite3_stmt *s = fl_store_stmt(st, STMT_PUT_REPO,
		"INSERT INTO repos (repo, record, updated_at) VALUES (?1, ?2, ?3)"
		" ON CONFLICT (repo) DO UPDATE SET record = ?2, updated_at = ?3", err);
	if (!s)
		return -1;
	char *json = fl_repo_to_json(r, false);
	char now[32];
	fl_now_iso(now);
	fl_store_bind_opt(s, 1, r->repo);
	fl_store_bind_opt(s, 2, json);
	fl_store_bind_opt(s, 3, now);
	int rc = step_done(st, s, err, "writing a repository");
	free(json);
	return rc;
}

int fl_store_put_entry(fl_store *st, const fl_entry *e, const fl_facts *f,
		       fl_err *err)
{
	if (need_tx(st, err) < 0 || fl_entry_validate(e, err) < 0)
		return -1;
	char *json = fl_entry_to_json(e, false);
	int rc = fl_store_put_entry_json(st, e, f, json, false, err);
	free(json);
	return rc;
}

#define ENTRY_COLUMNS \
	" INTO errors (id, repo, slug, error_code," \
	" error_message, message_pattern, error_type, severity, file_path," \
	" line_number, col, content_changed_at, function, guard, idiom," \
	" language, record, content_hash, error_class, github_url, blob_id," \
	" blob_off, blob_len) VALUES" \
	" (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15," \
	" ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)"

/* Bind a record's columns (all but where its JSON is) and step. */
static int put_row(fl_store *st, sqlite3_stmt *s, const fl_entry *e,
		   const fl_facts *f, fl_err *err)
{
	bind_static(s, 1, e->id);
	bind_static(s, 2, e->repo);
	bind_static(s, 3, e->slug);
	bind_static(s, 4, e->error_code);
	bind_static(s, 5, e->error_message);
	bind_static(s, 6, e->message_pattern);
	bind_static(s, 7, e->error_type);
	bind_static(s, 8, e->severity);
	bind_static(s, 9, e->file_path);
	bind_nint(s, 10, e->line_number);
	bind_nint(s, 11, f ? f->column : 0);
	bind_static(s, 12, e->content_changed_at);
	bind_static(s, 13, f ? f->function : NULL);
	bind_static(s, 14, f ? f->guard : NULL);
	bind_static(s, 15, f ? f->idiom : NULL);
	bind_static(s, 16, f ? f->language : NULL);
	bind_static(s, 18, f ? f->content_hash : NULL);
	bind_static(s, 19, e->error_class);
	bind_static(s, 20, e->github_url);
	mark_changed(st, e->repo);
	return step_static(st, s, err, "writing a record");
}

int fl_store_put_entry_json(fl_store *st, const fl_entry *e, const fl_facts *f,
			    const char *json, bool add, fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	sqlite3_stmt *s = add
		? fl_store_stmt(st, STMT_ADD_ENTRY, "INSERT" ENTRY_COLUMNS, err)
		: fl_store_stmt(st, STMT_PUT_ENTRY, "INSERT OR REPLACE" ENTRY_COLUMNS, err);
	if (!s)
		return -1;
	bind_static(s, 17, json);
	return put_row(st, s, e, f, err);
}

void *fl_block_compress(const char *raw, size_t raw_len, size_t *len)
{
	/* fl_store_add_block refuses a block over INT_MAX bytes */
	int in = raw_len > (size_t)LZ4_MAX_INPUT_SIZE ? 0 : (int)raw_len;
	int cap = LZ4_compressBound(in);
	char *out = fl_xmalloc(cap > 0 ? (size_t)cap : 1);
	int n = in > 0 ? LZ4_compress_default(raw, out, in, cap) : 0;
	*len = n > 0 ? (size_t)n : 0;
	return out;
}

int fl_store_add_block(fl_store *st, const char *repo, const void *data,
		       size_t len, size_t raw_len, long long *id, fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	if (raw_len == 0 || raw_len > (size_t)LZ4_MAX_INPUT_SIZE || len == 0 || len > INT_MAX)
		return fl_seterr(err, "store %s: a block of %zu bytes of records cannot be written",
				 st->path, raw_len);
	sqlite3_stmt *s = fl_store_stmt(st, STMT_ADD_BLOCK,
		"INSERT INTO record_blobs (repo, raw_len, data) VALUES (?1, ?2, ?3)", err);
	if (!s)
		return -1;
	bind_static(s, 1, repo);
	sqlite3_bind_int64(s, 2, (sqlite3_int64)raw_len);
	sqlite3_bind_blob(s, 3, data, (int)len, SQLITE_STATIC);
	if (step_static(st, s, err, "writing records") < 0)
		return -1;
	*id = sqlite3_last_insert_rowid(st->db);
	early_writeback(st, len);
	return 0;
}

int fl_store_add_entry_in_block(fl_store *st, const fl_entry *e,
				const fl_facts *f, long long id, size_t off,
				size_t len, fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	sqlite3_stmt *s = fl_store_stmt(st, STMT_ADD_BLOCK_ENTRY, "INSERT" ENTRY_COLUMNS, err);
	if (!s)
		return -1;
	sqlite3_bind_text(s, 17, "", 0, SQLITE_STATIC);
	sqlite3_bind_int64(s, 21, id);
	sqlite3_bind_int64(s, 22, (sqlite3_int64)off);
	sqlite3_bind_int64(s, 23, (sqlite3_int64)len);
	return put_row(st, s, e, f, err);
}

int fl_store_put_file_entries(fl_store *st, const fl_entry *e, const fl_facts *f, size_t n,
			      fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	if (!n)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (fl_entry_validate(&e[k], err) < 0)
			return -1;
	fl_buf raw = {0};
	size_t *off = fl_xcalloc(n, sizeof *off), *len = fl_xcalloc(n, sizeof *len);
	fl_buf_put(&raw, FL_BLOCK_MAGIC, FL_BLOCK_MAGIC_LEN);
	fl_buf_put(&raw, "\0\0\0\0", 4); /* no window segments */
	for (size_t k = 0; k < n; k++) {
		char hdr[FL_BLOCK_SLICE_HDR];
		fl_put_u32(hdr, FL_BLOCK_NO_WINDOW);
		fl_put_u32(hdr + 4, 0);
		fl_put_u32(hdr + 8, 0);
		off[k] = raw.n;
		fl_buf_put(&raw, hdr, sizeof hdr);
		char *json = fl_entry_to_json(&e[k], false);
		fl_buf_puts(&raw, json);
		free(json);
		len[k] = raw.n - off[k];
	}
	size_t zlen;
	void *z = fl_block_compress(raw.s, raw.n, &zlen);
	long long id;
	int rc = fl_store_add_block(st, e[0].repo, z, zlen, raw.n, &id, err);
	for (size_t k = 0; k < n && rc == 0; k++)
		rc = fl_store_add_entry_in_block(st, &e[k], f ? &f[k] : NULL, id, off[k], len[k], err);
	free(z);
	free(off);
	free(len);
	fl_buf_free(&raw);
	return rc;
}

static const char *damaged(fl_store *st, fl_err *err, const char *why)
{
	fl_seterr(err, "store %s: a stored record is damaged: %s", st->path, why);
	return NULL;
}

/* Make the first need bytes of block id the cached ones.  A block is
 * decompressed only as far as the record asked for (a record in its middle
 * costs half); asked for more of the same block (a listing, in block
 * order), it is decompressed whole. */
static int load_block(fl_store *st, long long id, size_t need, fl_err *err)
{
	if (id > 0 && st->block_id == id && need <= st->block_have)
		return 0;
	bool again = id > 0 && st->block_id == id;
	st->block_id = 0;
	sqlite3_stmt *s = fl_store_stmt(st, STMT_GET_BLOCK,
		"SELECT raw_len, data FROM record_blobs WHERE id = ?1", err);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	int rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			damaged(st, err, "its block is missing");
		else
			fl_store_sqlfail(st, err, "reading records");
		sqlite3_reset(s);
		return -1;
	}
	long long raw = sqlite3_column_int64(s, 0);
	const char *data = sqlite3_column_blob(s, 1);
	int n = sqlite3_column_bytes(s, 1);
	int ret = 0;
	if (raw <= 0 || raw > LZ4_MAX_INPUT_SIZE || !data || n <= 0) {
		damaged(st, err, "its block has a bad size");
		ret = -1;
	} else if (need > (size_t)raw) {
		damaged(st, err, "it points outside its block");
		ret = -1;
	} else {
		int want = again ? (int)raw : (int)need;
		if ((size_t)raw > st->block_len || !st->block) {
			free(st->block);
			st->block = fl_xmalloc((size_t)raw);
			st->block_len = (size_t)raw;
		}
		int got = LZ4_decompress_safe_partial(data, st->block, n, want, (int)raw);
		/* a whole block must come out at exactly its size */
		if (got < want || (want == raw && got != raw)) {
			damaged(st, err, "its block does not decompress");
			ret = -1;
		} else {
			st->block_have = (size_t)got;
			st->block_id = id;
		}
	}
	sqlite3_reset(s);
	return ret;
}

/* Lines a..b of the segments of the block's first have bytes: *from and
 * *n, the bytes of the window as fl_source_window_idx() makes it.  false
 * when no segment holds them. */
static bool block_window(const char *blk, size_t have, uint32_t a, uint32_t b,
			 size_t *from, size_t *n)
{
	if (have < FL_BLOCK_MAGIC_LEN + 4 || a < 1 || b < a)
		return false;
	uint32_t nseg = fl_get_u32(blk + FL_BLOCK_MAGIC_LEN);
	size_t p = FL_BLOCK_MAGIC_LEN + 4;
	for (uint32_t k = 0; k < nseg; k++) {
		if (have - p < 12)
			return false;
		uint32_t first = fl_get_u32(blk + p), lines = fl_get_u32(blk + p + 4);
		size_t len = fl_get_u32(blk + p + 8);
		p += 12;
		if (have - p < len)
			return false;
		if (first <= a && lines > 0 && b - first < lines) {
			const char *seg = blk + p, *end = seg + len, *q = seg;
			for (uint32_t l = first; l < a && q; l++) {
				q = memchr(q, '\n', (size_t)(end - q));
				q = q ? q + 1 : NULL;
			}
			if (!q)
				return false;
			const char *r = q;
			for (uint32_t l = a; l <= b && r && r < end; l++) {
				r = memchr(r, '\n', (size_t)(end - r));
				r = r ? r + 1 : end;
			}
			if (!r)
				r = end;
			if (r > q && r[-1] == '\n')
				r--;
			*from = (size_t)(q - blk);
			*n = strnlen(q, (size_t)(r - q));
			return true;
		}
		p += len;
	}
	return false;
}

/* A record slice of a block with windows (see store_internal.h), made
 * whole in st->rec. */
static const char *slice_record(fl_store *st, const char *sl, size_t n, size_t *len,
				fl_err *err)
{
	if (n < FL_BLOCK_SLICE_HDR)
		return damaged(st, err, "it points outside its block");
	uint32_t splice = fl_get_u32(sl);
	const char *json = sl + FL_BLOCK_SLICE_HDR;
	size_t jn = n - FL_BLOCK_SLICE_HDR;
	if (splice == FL_BLOCK_NO_WINDOW) {
		*len = jn;
		return json;
	}
	size_t from, wn;
	if ((size_t)splice > jn || jn - splice < 4 || memcmp(json + splice, "null", 4) != 0 ||
	    !block_window(st->block, (size_t)(sl - st->block), fl_get_u32(sl + 4),
			  fl_get_u32(sl + 8), &from, &wn))
		return damaged(st, err, "its source window is missing");
	fl_buf b = {st->rec, 0, st->rec_cap};
	fl_buf_reserve(&b, jn + wn + 64);
	fl_buf_put(&b, json, splice);
	const char *w = st->block + from;
	if (fl_utf8_valid(w, wn)) {
		fl_json_put_str(&b, w, wn);
	} else {
		char *fixed = fl_utf8_fix(w, wn);
		fl_json_put_str(&b, fixed, strlen(fixed));
		free(fixed);
	}
	fl_buf_put(&b, json + splice + 4, jn - splice - 4);
	st->rec = b.s;
	st->rec_cap = b.cap;
	*len = b.n;
	return b.s;
}

static const char *base_record(fl_store *st, sqlite3_stmt *s, int col,
			       size_t *len, fl_err *err);

/* The record json (n bytes) with the model's fields (a JSON object) in
 * place of the scanner's, written as the record encoder writes it (key
 * order, escapes), into st->rec.  Fields that would make the record
 * invalid are not taken (the enrich run checks them before storing; a
 * store edited by hand must not make the record unreadable). */
static const char *overlay(fl_store *st, const char *json, size_t n,
			   const char *fields, size_t *len, fl_err *err)
{
	json_t *o = fl_json_parse(json, n, err);
	if (!o)
		return damaged(st, err, "its JSON does not parse");
	json_t *f = json_loads(fields, 0, NULL);
	fl_entry e;
	char *out = NULL;
	if (json_is_object(f)) {
		json_t *merged = json_deep_copy(o);
		json_object_update_existing(merged, f);
		if (fl_entry_from_jobj(merged, &e, true, NULL) == 0) {
			out = fl_entry_to_json(&e, false);
			fl_entry_free(&e);
		}
		json_decref(merged);
	}
	json_decref(f);
	if (!out) {
		json_decref(o);
		*len = n;
		return json;
	}
	json_decref(o);
	size_t m = strlen(out);
	if (m + 1 > st->rec_cap) {
		st->rec_cap = m + 1;
		st->rec = fl_xrealloc(st->rec, st->rec_cap);
	}
	memcpy(st->rec, out, m + 1);
	free(out);
	*len = m;
	return st->rec;
}

const char *fl_store_row_record(fl_store *st, sqlite3_stmt *s, int col,
				size_t *len, fl_err *err)
{
	const char *json = base_record(st, s, col, len, err);
	if (!json || sqlite3_column_type(s, col + 4) != SQLITE_TEXT)
		return json;
	return overlay(st, json, *len, (const char *)sqlite3_column_text(s, col + 4),
		       len, err);
}

static const char *base_record(fl_store *st, sqlite3_stmt *s, int col,
			       size_t *len, fl_err *err)
{
	if (sqlite3_column_type(s, col + 1) == SQLITE_NULL) {
		const char *json = (const char *)sqlite3_column_text(s, col);
		*len = (size_t)sqlite3_column_bytes(s, col);
		return json ? json : "";
	}
	long long id = sqlite3_column_int64(s, col + 1);
	long long off = sqlite3_column_int64(s, col + 2);
	long long n = sqlite3_column_int64(s, col + 3);
	if (off < 0 || n <= 0 || off > LZ4_MAX_INPUT_SIZE || n > LZ4_MAX_INPUT_SIZE)
		return damaged(st, err, "it points outside its block");
	if (load_block(st, id, (size_t)(off + n), err) < 0)
		return NULL;
	if (st->block_have >= FL_BLOCK_MAGIC_LEN &&
	    memcmp(st->block, FL_BLOCK_MAGIC, FL_BLOCK_MAGIC_LEN) == 0)
		return slice_record(st, st->block + off, (size_t)n, len, err);
	*len = (size_t)n;
	return st->block + off;
}

int fl_store_add_site(fl_store *st, const char *error_id,
		      const char *file_path, int line, int column,
		      const char *function, const char *guard, fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	/* the record's repository (written in this transaction, as a rule:
	 * then this costs a probe of the primary key) */
	sqlite3_stmt *s = fl_store_stmt(st, STMT_SITE_REPO,
		"SELECT repo FROM errors WHERE id = ?1", err);
	if (!s)
		return -1;
	bind_static(s, 1, error_id);
	if (sqlite3_step(s) == SQLITE_ROW)
		mark_changed(st, (const char *)sqlite3_column_text(s, 0));
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	s = fl_store_stmt(st, STMT_ADD_SITE,
		"INSERT INTO error_sites (error_id, file_path, line_number, col, function, guard)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)", err);
	if (!s)
		return -1;
	bind_static(s, 1, error_id);
	bind_static(s, 2, file_path);
	sqlite3_bind_int(s, 3, line);
	bind_nint(s, 4, column);
	bind_static(s, 5, function);
	bind_static(s, 6, guard);
	return step_static(st, s, err, "writing a duplicate site");
}

int fl_store_clear_repo(fl_store *st, const char *repo, fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	mark_changed(st, repo);
	sqlite3_stmt *s = fl_store_stmt(st, STMT_CLEAR_SITES,
		"DELETE FROM error_sites WHERE error_id IN"
		" (SELECT id FROM errors WHERE repo = ?1)", err);
	if (!s)
		return -1;
	fl_store_bind_opt(s, 1, repo);
	if (step_done(st, s, err, "clearing duplicate sites") < 0)
		return -1;
	s = fl_store_stmt(st, STMT_CLEAR_ERRORS, "DELETE FROM errors WHERE repo = ?1", err);
	if (!s)
		return -1;
	fl_store_bind_opt(s, 1, repo);
	if (step_done(st, s, err, "clearing records") < 0)
		return -1;
	s = fl_store_stmt(st, STMT_CLEAR_BLOCKS, "DELETE FROM record_blobs WHERE repo = ?1", err);
	if (!s)
		return -1;
	fl_store_bind_opt(s, 1, repo);
	return step_done(st, s, err, "clearing records");
}

static int clear_repo_except(fl_store *st, const char *repo, const char *keep, bool by_id,
			     fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	mark_changed(st, repo);
	/* rare (a file a scan could not read, a history scan that resumes):
	 * statements not cached */
	static const char *const by_file[] = {
		"DELETE FROM error_sites WHERE error_id IN"
		" (SELECT id FROM errors WHERE repo = ?1 AND file_path NOT IN"
		" (SELECT value FROM json_each(?2)))",
		"DELETE FROM errors WHERE repo = ?1 AND file_path NOT IN"
		" (SELECT value FROM json_each(?2))",
		"DELETE FROM record_blobs WHERE repo = ?1 AND id NOT IN"
		" (SELECT blob_id FROM errors WHERE repo = ?1 AND blob_id IS NOT NULL)",
	};
	static const char *const by_ids[] = {
		"DELETE FROM error_sites WHERE error_id IN"
		" (SELECT id FROM errors WHERE repo = ?1 AND id NOT IN"
		" (SELECT value FROM json_each(?2)))",
		"DELETE FROM errors WHERE repo = ?1 AND id NOT IN"
		" (SELECT value FROM json_each(?2))",
		"DELETE FROM record_blobs WHERE repo = ?1 AND id NOT IN"
		" (SELECT blob_id FROM errors WHERE repo = ?1 AND blob_id IS NOT NULL)",
	};
	const char *const *sql = by_id ? by_ids : by_file;
	for (size_t i = 0; i < 3; i++) {
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(st->db, sql[i], -1, &s, NULL) != SQLITE_OK)
			return fl_store_sqlfail(st, err, "clearing records");
		fl_store_bind_opt(s, 1, repo);
		if (i < 2)
			fl_store_bind_opt(s, 2, keep);
		int rc = sqlite3_step(s);
		sqlite3_finalize(s);
		if (rc != SQLITE_DONE)
			return fl_store_sqlfail(st, err, "clearing records");
	}
	return 0;
}

int fl_store_clear_repo_except(fl_store *st, const char *repo, const char *keep,
			       fl_err *err)
{
	return clear_repo_except(st, repo, keep, false, err);
}

int fl_store_clear_repo_except_ids(fl_store *st, const char *repo, const char *keep,
				   fl_err *err)
{
	return clear_repo_except(st, repo, keep, true, err);
}

int fl_store_delete_entry(fl_store *st, const char *id, fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	sqlite3_stmt *s = fl_store_stmt(st, STMT_DELETE_ENTRY,
		"DELETE FROM errors WHERE id = ?1 RETURNING blob_id, repo", err);
	if (!s)
		return -1;
	fl_store_bind_opt(s, 1, id);
	long long block = 0;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		block = sqlite3_column_int64(s, 0);
		mark_changed(st, (const char *)sqlite3_column_text(s, 1));
		rc = sqlite3_step(s);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return fl_store_sqlfail(st, err, "deleting a record");
	if (block <= 0)
		return 0;
	/* its block goes with the last record in it */
	s = fl_store_stmt(st, STMT_DROP_BLOCK,
		"DELETE FROM record_blobs WHERE id = ?1 AND NOT EXISTS"
		" (SELECT 1 FROM errors WHERE blob_id = ?1)", err);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, block);
	return step_done(st, s, err, "deleting a record");
}

static int row_entry(fl_store *st, sqlite3_stmt *s, int col, fl_entry *out,
		     fl_err *err)
{
	size_t len;
	const char *json = fl_store_row_record(st, s, col, &len, err);
	if (!json)
		return -1;
	json_t *o = fl_json_parse(json, len, err);
	if (!o)
		return fl_seterr(err, "store %s: a stored record is damaged: %s", st->path, err ? err->msg : "");
	int rc = fl_entry_from_jobj(o, out, false, err);
	json_decref(o);
	return rc;
}

int fl_store_each_entry(fl_store *st, const char *repo, fl_entry_cb cb,
			void *ud, fl_err *err)
{
	sqlite3_stmt *s;
	const char *sql = repo
		? "SELECT " FL_RECORD_COLUMNS " FROM errors WHERE repo = ?1 ORDER BY repo, file_path, line_number, col, id"
		: "SELECT " FL_RECORD_COLUMNS " FROM errors ORDER BY repo, file_path, line_number, col, id";
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "listing records");
	if (repo)
		fl_store_bind_opt(s, 1, repo);
	int rc = 0, step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		fl_entry e;
		if (row_entry(st, s, 0, &e, err) < 0) {
			rc = -1;
			break;
		}
		int stop = cb(&e, ud);
		fl_entry_free(&e);
		if (stop)
			break;
	}
	if (rc == 0 && step != SQLITE_ROW && step != SQLITE_DONE)
		rc = fl_store_sqlfail(st, err, "listing records");
	sqlite3_finalize(s);
	return rc;
}

/* One record by a cached statement (prepared once per handle: a lookup
 * then costs the read, not the SQL compilation). */
static int get_one(fl_store *st, int which, const char *sql, const char *a,
		   const char *b, fl_entry *out, fl_err *err)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *s = fl_store_stmt(st, which, sql, err);
	if (!s)
		return -1;
	fl_store_bind_opt(s, 1, a);
	if (b)
		fl_store_bind_opt(s, 2, b);
	int rc = sqlite3_step(s), ret;
	if (rc == SQLITE_ROW)
		ret = row_entry(st, s, 0, out, err) < 0 ? -1 : 1;
	else if (rc == SQLITE_DONE)
		ret = 0;
	else
		ret = fl_store_sqlfail(st, err, "reading a record");
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return ret;
}

int fl_store_get_entry(fl_store *st, const char *id, fl_entry *out,
		       fl_err *err)
{
	return get_one(st, STMT_GET_BY_ID,
		       "SELECT " FL_RECORD_COLUMNS " FROM errors WHERE id = ?1", id, NULL,
		       out, err);
}

int fl_store_get_entry_by_slug(fl_store *st, const char *repo,
			       const char *slug, fl_entry *out, fl_err *err)
{
	return get_one(st, STMT_GET_BY_SLUG,
		       "SELECT " FL_RECORD_COLUMNS " FROM errors WHERE repo = ?1 AND slug = ?2",
		       repo, slug, out, err);
}

int fl_store_get_facts(fl_store *st, const char *id, char **function,
		       char **guard, char **idiom, fl_err *err)
{
	sqlite3_stmt *s;
	*function = *guard = *idiom = NULL;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT function, guard, idiom FROM errors WHERE id = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading facts");
	fl_store_bind_opt(s, 1, id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*function = fl_xstrdup((const char *)sqlite3_column_text(s, 0));
		*guard = fl_xstrdup((const char *)sqlite3_column_text(s, 1));
		*idiom = fl_xstrdup((const char *)sqlite3_column_text(s, 2));
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : fl_store_sqlfail(st, err, "reading facts");
}

static int row_repo(fl_store *st, sqlite3_stmt *s, fl_repo *out, fl_err *err)
{
	const char *json = (const char *)sqlite3_column_text(s, 0);
	int len = sqlite3_column_bytes(s, 0);
	json_t *o = fl_json_parse(json ? json : "", (size_t)len, err);
	if (!o)
		return fl_seterr(err, "store %s: a stored repository is damaged", st->path);
	int rc = fl_repo_from_jobj(o, out, err);
	json_decref(o);
	return rc;
}

int fl_store_get_repo(fl_store *st, const char *repo, fl_repo *out,
		      fl_err *err)
{
	sqlite3_stmt *s;
	memset(out, 0, sizeof *out);
	if (sqlite3_prepare_v2(st->db, "SELECT record FROM repos WHERE repo = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading a repository");
	fl_store_bind_opt(s, 1, repo);
	int rc = sqlite3_step(s), ret;
	if (rc == SQLITE_ROW)
		ret = row_repo(st, s, out, err) < 0 ? -1 : 1;
	else if (rc == SQLITE_DONE)
		ret = 0;
	else
		ret = fl_store_sqlfail(st, err, "reading a repository");
	sqlite3_finalize(s);
	return ret;
}

int fl_store_each_repo(fl_store *st, fl_repo_cb cb, void *ud, fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT record FROM repos ORDER BY repo",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "listing repositories");
	int rc = 0, step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		fl_repo r;
		if (row_repo(st, s, &r, err) < 0) {
			rc = -1;
			break;
		}
		int stop = cb(&r, ud);
		fl_repo_free(&r);
		if (stop)
			break;
	}
	if (rc == 0 && step != SQLITE_ROW && step != SQLITE_DONE)
		rc = fl_store_sqlfail(st, err, "listing repositories");
	sqlite3_finalize(s);
	return rc;
}

int fl_store_get_sites(fl_store *st, const char *id, fl_strv *out,
		       fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       /* other lines: not the record's own, each once
				* (two sites on one line) */
			       "SELECT file_path, line_number FROM error_sites s"
			       " WHERE error_id = ?1 AND NOT EXISTS (SELECT 1 FROM errors e"
			       "  WHERE e.id = s.error_id AND e.file_path = s.file_path"
			       "  AND e.line_number = s.line_number)"
			       " GROUP BY file_path, line_number ORDER BY file_path, line_number",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading duplicate sites");
	fl_store_bind_opt(s, 1, id);
	while (sqlite3_step(s) == SQLITE_ROW) {
		char *v = fl_xasprintf("%s:%d", sqlite3_column_text(s, 0),
				       sqlite3_column_int(s, 1));
		fl_strv_push(out, v);
		free(v);
	}
	sqlite3_finalize(s);
	return 0;
}

int fl_store_log_scan(fl_store *st, const fl_scan_log *l, fl_err *err)
{
	sqlite3_stmt *s;
	/* outside a transaction, the row commits by itself: not with a new
	 * store's schema, left pending */
	if (!st->in_tx && settle_schema(st, err) < 0)
		return -1;
	if (sqlite3_prepare_v2(st->db,
			       "INSERT INTO scans (repo, target, rev, sha, started_at,"
			       " seconds, files, sites, records, duplicates, outcome, message)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "logging a scan");
	fl_store_bind_opt(s, 1, l->repo);
	fl_store_bind_opt(s, 2, l->target);
	fl_store_bind_opt(s, 3, l->rev);
	fl_store_bind_opt(s, 4, l->sha);
	fl_store_bind_opt(s, 5, l->started_at);
	sqlite3_bind_double(s, 6, l->seconds);
	sqlite3_bind_int64(s, 7, l->files);
	sqlite3_bind_int64(s, 8, l->sites);
	sqlite3_bind_int64(s, 9, l->records);
	sqlite3_bind_int64(s, 10, l->duplicates);
	fl_store_bind_opt(s, 11, l->outcome);
	fl_store_bind_opt(s, 12, l->message);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : fl_store_sqlfail(st, err, "logging a scan");
}

int fl_store_generation(fl_store *st, long long *generation,
			char changed_at[32], fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT key, value FROM meta", -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading the change counter");
	*generation = 0;
	changed_at[0] = '\0';
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(s, 0);
		const char *v = (const char *)sqlite3_column_text(s, 1);
		if (!k || !v)
			continue;
		if (strcmp(k, "generation") == 0)
			*generation = atoll(v);
		else if (strcmp(k, "changed_at") == 0)
			snprintf(changed_at, 32, "%s", v);
	}
	sqlite3_finalize(s);
	return 0;
}

int fl_store_identity(fl_store *st, char id[40], fl_err *err)
{
	sqlite3_stmt *s;
	id[0] = '\0';
	if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = 'store_id'", -1, &s,
			       NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading the store's identity");
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		snprintf(id, 40, "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return 0;
}

int fl_store_changed_since(fl_store *st, long long since, fl_strv *out, fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT repo FROM repo_changes WHERE generation > ?1 ORDER BY repo",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading the repositories changed");
	sqlite3_bind_int64(s, 1, since);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (sqlite3_column_text(s, 0))
			fl_strv_push(out, (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : fl_store_sqlfail(st, err, "reading the repositories changed");
}

long long fl_store_count_entries(fl_store *st, const char *repo)
{
	sqlite3_stmt *s;
	const char *sql = repo ? "SELECT count(*) FROM errors WHERE repo = ?1"
			       : "SELECT count(*) FROM errors";
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	if (repo)
		fl_store_bind_opt(s, 1, repo);
	long long n = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
	sqlite3_finalize(s);
	return n;
}

int fl_store_copy(fl_store *st, const char *path, fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "VACUUM INTO ?1", -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "copying the store");
	sqlite3_bind_text(s, 1, path, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : fl_store_sqlfail(st, err, "copying the store");
}
