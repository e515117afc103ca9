/*
 * test_store.c — the SQLite store: creation and migration, refusing newer
 * or foreign files, transactions and rollback, concurrent readers, the
 * record/repository/site/scan rows, and records kept in compressed blocks.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "faultline.h"
#include "store_enrich.h"
#include "test_util.h"
#include "parallel.h"
#include "util.h"
#include "scan/filter.h"
#include "scan/lang.h"
#include "scan/persist.h"
#include "store_internal.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FL_TEST_ASAN 1
#endif
#endif
#ifndef FL_TEST_ASAN
#define FL_TEST_ASAN 0
#endif

static char dir[256];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/fl-store-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *path_of(const char *name)
{
	static char p[320];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

static int user_version(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	int v = -1;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

static void test_create_and_migrate_empty_file(void **state)
{
	(void)state;
	char *p = path_of("empty.db");
	FILE *f = fopen(p, "w");
	fclose(f);
	fl_store *st;
	fl_err err;
	if (fl_store_open(p, false, &st, &err) < 0)
		fail_msg("%s", err.msg);
	fl_store_close(st);
	assert_int_equal(user_version(p), FL_STORE_SCHEMA);
	/* reopening is a no-op */
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	assert_int_equal(fl_store_count_entries(st, NULL), 0);
	fl_store_close(st);
	/* nested folders are created */
	assert_int_equal(fl_store_open(path_of("a/b/c/new.db"), false, &st, &err), 0);
	fl_store_close(st);
}

/* Every table, column, index and meta key of the store at path, as text. */
static char *schema_of(const char *path)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	fl_buf out = {0};
	sqlite3_stmt *s, *q;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT type, name, tbl_name FROM sqlite_master"
					    " ORDER BY type, name", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(s, 0);
		const char *name = (const char *)sqlite3_column_text(s, 1);
		fl_buf_printf(&out, "%s %s on %s\n", type, name, sqlite3_column_text(s, 2));
		/* a table's columns, and its indexes (name, unique, origin,
		 * partial) on the row of its first column; an index's columns */
		char sql[256];
		if (strcmp(type, "table") == 0)
			snprintf(sql, sizeof sql, "SELECT t.*, i.name, i.\"unique\", i.origin, i.partial"
				 " FROM pragma_table_xinfo('%s') t LEFT JOIN pragma_index_list('%s') i"
				 " ON t.cid = 0 ORDER BY t.cid, i.name", name, name);
		else
			snprintf(sql, sizeof sql, "SELECT * FROM pragma_index_xinfo('%s')", name);
		assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
		while (sqlite3_step(q) == SQLITE_ROW) {
			for (int k = 0; k < sqlite3_column_count(q); k++) {
				const unsigned char *v = sqlite3_column_text(q, k);
				fl_buf_printf(&out, " %s", v ? (const char *)v : "NULL");
			}
			fl_buf_putc(&out, '\n');
		}
		sqlite3_finalize(q);
	}
	sqlite3_finalize(s);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT key FROM meta ORDER BY key", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW)
		fl_buf_printf(&out, "meta %s\n", sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(db);
	fl_buf_cstr(&out);
	return out.s;
}

/* A new store is created with one script; an old one is migrated version
 * by version: the two schemas must be the same. */
static void test_fresh_schema_is_migrated_schema(void **state)
{
	(void)state;
	char *fresh = strdup(path_of("fresh-schema.db"));
	char *chain = strdup(path_of("chain-schema.db"));
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(fresh, false, &st, &err), 0);
	fl_store_close(st);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(chain, &db), SQLITE_OK);
	for (int v = 1; v <= FL_STORE_SCHEMA; v++) {
		assert_non_null(fl_store_migration(v));
		assert_int_equal(sqlite3_exec(db, fl_store_migration(v), NULL, NULL, NULL), SQLITE_OK);
	}
	assert_null(fl_store_migration(FL_STORE_SCHEMA + 1));
	assert_null(fl_store_migration(0));
	sqlite3_close(db);
	char *a = schema_of(fresh), *b = schema_of(chain);
	assert_non_null(strstr(a, "table errors"));
	assert_non_null(strstr(a, "github_url"));
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(fresh);
	free(chain);
}

static void *spawned_fn(void *arg)
{
	cpu_set_t cs;
	int *out = arg;
	out[0] = sched_getaffinity(0, sizeof cs, &cs) == 0 ? CPU_COUNT(&cs) : -1;
	out[1] = sched_getcpu();
	return out;
}

/* fl_thread_spawn: the thread runs its function with its argument and,
 * once started, may run on every CPU the process may use. */
static void test_thread_spawn(void **state)
{
	(void)state;
	cpu_set_t all;
	assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
	for (int k = 0; k < 3; k++) {
		int got[2] = {0, -1};
		pthread_t t;
		assert_int_equal(fl_thread_spawn(&t, spawned_fn, got, k), 0);
		void *ret = NULL;
		assert_int_equal(pthread_join(t, &ret), 0);
		assert_ptr_equal(ret, got);
		assert_int_equal(got[0], CPU_COUNT(&all));
		assert_true(got[1] >= 0 && CPU_ISSET(got[1], &all));
	}
}

static void test_refuses_newer_and_foreign(void **state)
{
	(void)state;
	fl_store *st;
	fl_err err;
	char *p = path_of("newer.db");
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	fl_store_close(st);
	sqlite3 *db;
	sqlite3_open(p, &db);
	sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
	sqlite3_close(db);
	assert_int_equal(fl_store_open(p, false, &st, &err), -1);
	assert_non_null(strstr(err.msg, "newer"));

	p = path_of("garbage.db");
	FILE *f = fopen(p, "w");
	fputs("this is not an SQLite database at all, just some text\n", f);
	for (int i = 0; i < 200; i++)
		fputs("more text to pass the header size of SQLite files ...\n", f);
	fclose(f);
	assert_int_equal(fl_store_open(p, false, &st, &err), -1);
	assert_non_null(strstr(err.msg, "not a faultline store"));

	p = path_of("foreign.db");
	sqlite3_open(p, &db);
	sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL);
	sqlite3_close(db);
	assert_int_equal(fl_store_open(p, false, &st, &err), -1);
	assert_non_null(strstr(err.msg, "not a faultline store"));

	/* refused before anything changed it: same bytes, not turned to WAL */
	char *before = NULL, *after = NULL;
	size_t nb = 0, na = 0;
	before = fl_read_file(p, &nb, &err);
	assert_non_null(before);
	assert_int_equal(fl_store_open(p, false, &st, &err), -1);
	assert_int_equal(fl_store_open(p, true, &st, &err), -1);
	after = fl_read_file(p, &na, &err);
	assert_non_null(after);
	assert_int_equal(na, nb);
	assert_memory_equal(after, before, nb);
	free(before);
	free(after);

	/* no table yet, but another program's application_id */
	p = path_of("other-app.db");
	sqlite3_open(p, &db);
	sqlite3_exec(db, "PRAGMA application_id = 1234", NULL, NULL, NULL);
	sqlite3_close(db);
	assert_int_equal(fl_store_open(p, false, &st, &err), -1);
	assert_non_null(strstr(err.msg, "not a faultline store"));

	assert_int_equal(fl_store_open(path_of("missing.db"), true, &st, &err), -1);
	assert_non_null(strstr(err.msg, "no store"));
	assert_int_equal(fl_store_open(dir, false, &st, &err), -1);
	assert_non_null(strstr(err.msg, "folder"));
}

/* A writer that dies in a transaction leaves a hot rollback journal: a
 * store opened for reading rolls it back (through a handle that may write)
 * and reads the store as it was; where it cannot, it says why. */
static void test_hot_journal_rolled_back_for_readers(void **state)
{
	(void)state;
	fl_store *st;
	fl_err err;
	char *p = path_of("hot.db");
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	fl_store_close(st);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* the child fills a transaction past its page cache, then dies
		 * without committing (its locks go with it: the journal is hot) */
		sqlite3 *db;
		if (sqlite3_open(p, &db) != SQLITE_OK ||
		    sqlite3_exec(db, "PRAGMA journal_mode = DELETE; PRAGMA cache_size = 2;"
				 "BEGIN IMMEDIATE;"
				 "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)"
				 " INSERT INTO meta (key, value) SELECT 'k' || i, hex(randomblob(200)) FROM n;",
				 NULL, NULL, NULL) != SQLITE_OK)
			_exit(1);
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	char *journal = fl_xasprintf("%s-journal", p);
	struct stat sb;
	assert_int_equal(stat(journal, &sb), 0);
	assert_true(sb.st_size > 0);

	if (geteuid() != 0) {
		/* the folder not writable: nothing can roll it back */
		assert_int_equal(chmod(dir, 0555), 0);
		assert_int_equal(fl_store_open(p, true, &st, &err), -1);
		assert_int_equal(chmod(dir, 0755), 0);
		assert_non_null(strstr(err.msg, "unfinished transaction (hot journal"));
		assert_non_null(strstr(err.msg, "its folder is not writable"));
	}

	assert_int_equal(fl_store_open(p, true, &st, &err), 0);
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(st->db, "SELECT count(*) FROM meta", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 3); /* generation, changed_at, store_id */
	sqlite3_finalize(s);
	fl_store_close(st);
	assert_int_not_equal(stat(journal, &sb), 0);
	free(journal);
}

static fl_repo make_repo(const char *name)
{
	fl_repo r = {0};
	r.repo = strdup(name);
	r.default_branch = strdup("main");
	r.analyzed_sha = strdup("0123456789abcdef0123456789abcdef01234567");
	r.analyzed_at = strdup("2026-09-05T13:19:14.260Z");
	r.source_files = 3;
	r.error_count = 1;
	return r;
}

/* Model-written fields (store_enrich.c): shown in the record in place of
 * the scanner's while the record's content digest is the one they were
 * written for; stale (not shown, redone) after a rescan changed it;
 * provenance per field. */
static void test_enrichment_overlay(void **state)
{
	(void)state;
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(path_of("enrich.db"), false, &st, &err), 0);
	fl_entry e;
	make_entry(&e);
	fl_repo r = make_repo("acme/widgets");
	fl_facts facts = {"Widget::size", "size > 10", "panic!", "rust", 9, "x1"};
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_repo(st, &r, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e, &facts, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);

	json_t *patch = json_pack("{s:s, s:[s,s], s:s}", "documentation", "Model says so.",
				  "solutions", "one", "two", "handlingStrategy", "retry");
	/* outside a transaction: refused */
	assert_int_equal(fl_store_enrich_put(st, e.id, "x1", patch, 1, false, "local", "m1",
					     "enrich", &err), -1);
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_enrich_put(st, e.id, "x1", patch, 1, false, "local", "m1",
					     "enrich", &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	json_decref(patch);

	fl_entry got;
	assert_int_equal(fl_store_get_entry(st, e.id, &got, &err), 1);
	assert_string_equal(got.documentation, "Model says so.");
	assert_int_equal(got.solutions.n, 2);
	assert_string_equal(got.handling_strategy, "retry");
	assert_string_equal(got.error_message, e.error_message);
	assert_string_equal(got.trigger_scenarios, e.trigger_scenarios);
	assert_int_equal(fl_entry_validate(&got, &err), 0);
	fl_entry_free(&got);
	char *prov;
	bool stale;
	assert_int_equal(fl_store_get_provenance(st, e.id, &prov, &stale, &err), 0);
	assert_non_null(prov);
	assert_false(stale);
	json_t *p = json_loads(prov, 0, NULL);
	free(prov);
	json_t *who = json_object_get(p, "documentation");
	assert_string_equal(json_string_value(json_object_get(who, "provider")), "local");
	assert_string_equal(json_string_value(json_object_get(who, "model")), "m1");
	assert_string_equal(json_string_value(json_object_get(who, "phase")), "enrich");
	assert_null(json_object_get(p, "triggerScenarios"));
	json_decref(p);

	/* a value that would make the record invalid is never shown */
	assert_int_equal(fl_store_begin(st, &err), 0);
	json_t *badp = json_pack("{s:s}", "handlingStrategy", "sometimes");
	assert_int_equal(fl_store_enrich_put(st, e.id, "x1", badp, 2, false, "local", "m1",
					     "defend", &err), 0);
	json_decref(badp);
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_store_get_entry(st, e.id, &got, &err), 1);
	assert_string_equal(got.documentation, e.documentation);
	fl_entry_free(&got);

	/* the record's content changes: the model's text is stale */
	fl_facts f2 = facts;
	f2.content_hash = "x2";
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e, &f2, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_store_get_entry(st, e.id, &got, &err), 1);
	assert_string_equal(got.documentation, e.documentation);
	fl_entry_free(&got);
	assert_int_equal(fl_store_get_provenance(st, e.id, &prov, &stale, &err), 0);
	assert_true(stale);
	free(prov);
	fl_store_close(st);
	fl_entry_free(&e);
	fl_repo_free(&r);
}

static void test_roundtrip_rows(void **state)
{
	(void)state;
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(path_of("rows.db"), false, &st, &err), 0);
	fl_entry e;
	make_entry(&e);
	fl_repo r = make_repo("acme/widgets");
	fl_facts facts = {"Widget::size", "size > 10", "panic!", "rust", 9, NULL};
	/* changes outside a transaction are refused */
	assert_int_equal(fl_store_put_entry(st, &e, &facts, &err), -1);
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_repo(st, &r, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e, &facts, &err), 0);
	assert_int_equal(fl_store_add_site(st, e.id, "src/other.rs", 7, 3, "other", "x > 1", &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);

	fl_entry got;
	assert_int_equal(fl_store_get_entry(st, e.id, &got, &err), 1);
	char *a = fl_entry_to_json(&e, false), *b = fl_entry_to_json(&got, false);
	assert_string_equal(a, b);
	free(a);
	free(b);
	fl_entry_free(&got);
	assert_int_equal(fl_store_get_entry_by_slug(st, "acme/widgets", e.slug, &got, &err), 1);
	assert_string_equal(got.id, e.id);
	fl_entry_free(&got);
	assert_int_equal(fl_store_get_entry(st, "ffffffffffffffff", &got, &err), 0);
	char *fn, *guard, *idiom;
	assert_int_equal(fl_store_get_facts(st, e.id, &fn, &guard, &idiom, &err), 1);
	assert_string_equal(fn, "Widget::size");
	assert_string_equal(guard, "size > 10");
	assert_string_equal(idiom, "panic!");
	free(fn);
	free(guard);
	free(idiom);
	fl_strv sites = {0};
	assert_int_equal(fl_store_get_sites(st, e.id, &sites, &err), 0);
	assert_int_equal(sites.n, 1);
	assert_string_equal(sites.v[0], "src/other.rs:7");
	fl_strv_free(&sites);
	fl_repo rr;
	assert_int_equal(fl_store_get_repo(st, "acme/widgets", &rr, &err), 1);
	assert_int_equal(rr.source_files, 3);
	fl_repo_free(&rr);
	fl_scan_log log = {"acme/widgets", "/tmp/x", NULL, NULL,
			   "2026-09-05T13:19:14.260Z", 0.5, 3, 1, 1, 0, "ok", NULL};
	assert_int_equal(fl_store_log_scan(st, &log, &err), 0);
	fl_store_close(st);
	fl_entry_free(&e);
	fl_repo_free(&r);
}

static void test_rollback_on_failure(void **state)
{
	(void)state;
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(path_of("tx.db"), false, &st, &err), 0);
	fl_entry e1, e2, bad;
	make_entry_for(&e1, "acme/widgets", "first message here", "a.rs", 10);
	make_entry_for(&e2, "acme/widgets", "second message here", "a.rs", 20);
	make_entry_for(&bad, "acme/widgets", "third message here", "a.rs", 30);
	free(bad.severity);
	bad.severity = strdup("apocalyptic");
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e1, NULL, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	/* a failing multi-row change leaves the previous state whole */
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_clear_repo(st, "acme/widgets", &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e2, NULL, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &bad, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "severity"));
	fl_store_rollback(st);
	assert_int_equal(fl_store_count_entries(st, NULL), 1);
	fl_entry got;
	assert_int_equal(fl_store_get_entry(st, e1.id, &got, &err), 1);
	fl_entry_free(&got);
	assert_int_equal(fl_store_get_entry(st, e2.id, &got, &err), 0);
	fl_store_close(st);
	fl_entry_free(&e1);
	fl_entry_free(&e2);
	fl_entry_free(&bad);
}

static long long count_sql(const char *db, const char *sql);

static char *journal_mode(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	char *m = NULL;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, NULL);
	if (sqlite3_step(s) == SQLITE_ROW)
		m = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(db);
	return m;
}

/* A new store's schema is written in the transaction its first
 * fl_store_begin takes over: whatever happens to that transaction, the
 * store is left a valid, empty or filled, faultline store. */
static void test_new_store_first_transaction(void **state)
{
	(void)state;
	fl_store *st;
	fl_err err;
	fl_entry e1;
	make_entry_for(&e1, "acme/widgets", "first message here", "a.rs", 10);
	fl_scan_log log = {.repo = "acme/widgets", .target = "/src", .started_at = "2026-12-01T10:00:00.000Z",
			   .outcome = "failed", .message = "test"};

	/* committed: schema and rows in one commit, then WAL */
	char *p = strdup(path_of("first-commit.db"));
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e1, NULL, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_store_close(st);
	assert_int_equal(user_version(p), FL_STORE_SCHEMA);
	char *m = journal_mode(p);
	assert_string_equal(m, "wal");
	free(m);
	assert_int_equal(fl_store_open(p, true, &st, &err), 0);
	assert_int_equal(fl_store_count_entries(st, NULL), 1);
	fl_store_close(st);
	free(p);

	/* rolled back: the schema is written again on its own, and the same
	 * handle goes on (a failed scan is logged, a later one commits) */
	p = strdup(path_of("first-rollback.db"));
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e1, NULL, &err), 0);
	fl_store_rollback(st);
	assert_int_equal(fl_store_count_entries(st, NULL), 0);
	assert_int_equal(fl_store_log_scan(st, &log, &err), 0);
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e1, NULL, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_store_close(st);
	assert_int_equal(user_version(p), FL_STORE_SCHEMA);
	assert_int_equal(count_sql(p, "SELECT count(*) FROM scans"), 1);
	assert_int_equal(count_sql(p, "SELECT count(*) FROM errors"), 1);
	free(p);

	/* no transaction: the scan log commits by itself, the schema at
	 * close */
	p = strdup(path_of("first-log.db"));
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	assert_int_equal(fl_store_log_scan(st, &log, &err), 0);
	assert_int_equal(count_sql(p, "SELECT count(*) FROM scans"), 1); /* seen by another connection */
	fl_store_close(st);
	free(p);

	/* killed in its first transaction: the next open finds a new store */
	p = strdup(path_of("first-killed.db"));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fl_store *w;
		if (fl_store_open(p, false, &w, &err) < 0 || fl_store_begin(w, &err) < 0)
			_exit(10);
		for (int k = 0; k < 2000; k++) { /* enough to spill pages into the file */
			fl_entry e;
			char msg[64];
			snprintf(msg, sizeof msg, "message number %d here", k);
			make_entry_for(&e, "acme/widgets", msg, "a.rs", k + 1);
			if (fl_store_put_entry(w, &e, NULL, &err) < 0)
				_exit(11);
			fl_entry_free(&e);
		}
		_exit(0); /* no commit, no close */
	}
	int status;
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	assert_int_equal(fl_store_count_entries(st, NULL), 0);
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e1, NULL, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_store_close(st);
	assert_int_equal(user_version(p), FL_STORE_SCHEMA);
	assert_int_equal(count_sql(p, "SELECT count(*) FROM errors"), 1);
	free(p);
	fl_entry_free(&e1);
}

static void test_reader_while_writer(void **state)
{
	(void)state;
	char *p = strdup(path_of("concurrent.db"));
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	fl_entry e1;
	make_entry_for(&e1, "acme/widgets", "first message here", "a.rs", 10);
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e1, NULL, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_store_close(st);

	int to_parent[2], to_child[2];
	assert_int_equal(pipe(to_parent), 0);
	assert_int_equal(pipe(to_child), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* writer: holds a write transaction open while the parent reads */
		fl_store *w;
		fl_entry e2;
		char c;
		if (fl_store_open(p, false, &w, &err) < 0)
			_exit(10);
		make_entry_for(&e2, "acme/widgets", "second message here", "a.rs", 20);
		if (fl_store_begin(w, &err) < 0 || fl_store_put_entry(w, &e2, NULL, &err) < 0)
			_exit(11);
		if (write(to_parent[1], "w", 1) != 1 || read(to_child[0], &c, 1) != 1)
			_exit(12);
		if (fl_store_commit(w, &err) < 0)
			_exit(13);
		fl_store_close(w);
		fl_entry_free(&e2);
		_exit(0);
	}
	char c;
	assert_int_equal(read(to_parent[0], &c, 1), 1);
	fl_store *r;
	assert_int_equal(fl_store_open(p, true, &r, &err), 0);
	/* the reader is not blocked and sees the last committed state */
	assert_int_equal(fl_store_count_entries(r, NULL), 1);
	assert_int_equal(write(to_child[1], "c", 1), 1);
	int status;
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(fl_store_count_entries(r, NULL), 2);
	fl_store_close(r);
	fl_entry_free(&e1);
	free(p);
}


/* ---- scanning straight into the store ------------------------------------- */

static void write_tree(const char *root, int files)
{
	char path[512];
	for (int f = 0; f < files; f++) {
		snprintf(path, sizeof path, "%s/pkg%02d.go", root, f);
		FILE *fp = fopen(path, "w");
		assert_non_null(fp);
		fprintf(fp, "package pkg%02d\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n\n", f);
		for (int k = 0; k < 25; k++)
			fprintf(fp, "func f%d(x int) error {\n\tif x > %d {\n\t\treturn fmt.Errorf(\"pkg%02d: value %%d over limit %d in step %d\", x)\n\t}\n\treturn errors.New(\"pkg%02d: step %d failed\")\n}\n\n",
				k, k, f, k, k, f, k);
		fclose(fp);
	}
	/* the same message in two files: one record, one duplicate site */
	snprintf(path, sizeof path, "%s/dup.c", root);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("#include <stdio.h>\nvoid f(void) { fprintf(stderr, \"cannot open the spool\\n\"); }\n"
	      "void g(void) { fprintf(stderr, \"cannot open the spool\\n\"); }\n", fp);
	fclose(fp);
}

static char *dump_records(const char *db)
{
	sqlite3 *h;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT id, slug, content_hash, file_path, line_number FROM errors ORDER BY id", -1, &s, NULL), SQLITE_OK);
	size_t cap = 1 << 16, n = 0;
	char *out = malloc(cap);
	while (sqlite3_step(s) == SQLITE_ROW) {
		char line[512];
		int l = snprintf(line, sizeof line, "%s %s %s %s %d\n", sqlite3_column_text(s, 0),
				 sqlite3_column_text(s, 1), sqlite3_column_text(s, 2),
				 sqlite3_column_text(s, 3), sqlite3_column_int(s, 4));
		if (n + (size_t)l + 1 > cap)
			out = realloc(out, cap *= 2);
		memcpy(out + n, line, (size_t)l);
		n += (size_t)l;
	}
	out[n] = '\0';
	sqlite3_finalize(s);
	sqlite3_close(h);
	return out;
}

/* A tree of 40 files in dir/TREE and the paths of two stores beside it,
 * for tests that scan the same tree twice. */
static void tree_and_stores(const char *tree, const char *store1, const char *store2,
			    char root[300], char db1[300], char db2[300])
{
	snprintf(root, 300, "%s/%s", dir, tree);
	snprintf(db1, 300, "%s/%s", dir, store1);
	snprintf(db2, 300, "%s/%s", dir, store2);
	assert_int_equal(mkdir(root, 0755), 0);
	write_tree(root, 40);
}

static void test_scan_into_store_same_as_two_steps(void **state)
{
	(void)state;
	char root[300], db1[300], db2[300];
	tree_and_stores("tree", "two-steps.db", "one-pass.db", root, db1, db2);
	fl_scan_opts o = {.path = root, .repo = "acme/tree"};
	fl_err err;
	fl_store *st1, *st2;
	fl_scan_result r1, r2;
	assert_int_equal(fl_store_open(db1, false, &st1, &err), 0);
	assert_int_equal(fl_scan_tree(&o, &r1, &err), 0);
	assert_int_equal(fl_scan_store(st1, &r1, &err), 0);
	assert_int_equal(fl_store_open(db2, false, &st2, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st2, &r2, &err), 0);
	assert_int_equal(r1.n, 40 * 50 + 1);
	assert_int_equal(r2.n, r1.n);
	assert_int_equal(r2.ndups, 1);
	assert_int_equal(r2.summary.added, (long long)r2.n);
	assert_int_equal(r2.summary.files_scanned, r1.summary.files_scanned);
	assert_int_equal(r2.summary.nlangs, r1.summary.nlangs);
	for (size_t i = 0; i < r1.n; i++)
		assert_string_equal(r1.entries[i].id, r2.entries[i].id);
	fl_store_close(st1);
	fl_store_close(st2);
	char *a = dump_records(db1), *b = dump_records(db2);
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* a rescan of the same tree: everything unchanged */
	fl_scan_result r3;
	assert_int_equal(fl_store_open(db2, false, &st2, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st2, &r3, &err), 0);
	assert_int_equal(r3.summary.unchanged, (long long)r3.n);
	assert_int_equal(r3.summary.added + r3.summary.removed + r3.summary.changed, 0);
	fl_store_close(st2);
	fl_scan_result_free(&r1);
	fl_scan_result_free(&r2);
	fl_scan_result_free(&r3);
}

static int count_rows(const char *db, const char *sql)
{
	sqlite3 *h;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	int n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(h);
	return n;
}

/* drop_records (what `faultline scan` uses): the store gets the same
 * records and duplicate sites, the result only the counts */
static void test_scan_into_store_drop_records(void **state)
{
	(void)state;
	char root[300], db1[300], db2[300];
	tree_and_stores("tree-drop", "keep.db", "drop.db", root, db1, db2);
	fl_err err;
	fl_store *st1, *st2;
	fl_scan_result r1, r2;
	fl_scan_opts o = {.path = root, .repo = "acme/tree"};
	assert_int_equal(fl_store_open(db1, false, &st1, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st1, &r1, &err), 0);
	o.drop_records = true;
	o.log_started_at = "2026-12-01T00:00:00.000Z";
	assert_int_equal(fl_store_open(db2, false, &st2, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st2, &r2, &err), 0);
	fl_store_close(st1);
	fl_store_close(st2);
	assert_int_equal(r2.n, 0);
	assert_int_equal(r2.ndups, 0);
	assert_int_equal(r2.summary.records, (long long)r1.n);
	assert_int_equal(r2.repo.error_count, (long long)r1.n);
	assert_int_equal(r2.summary.duplicates, 1);
	assert_int_equal(r2.summary.added, (long long)r1.n);
	char *a = dump_records(db1), *b = dump_records(db2);
	assert_string_equal(a, b);
	free(a);
	free(b);
	const char *sites = "SELECT count(*) FROM error_sites e JOIN errors r ON r.id = e.error_id"
			    " WHERE e.file_path = 'dup.c' AND e.line_number = 3";
	assert_int_equal(count_rows(db1, sites), 1);
	assert_int_equal(count_rows(db2, sites), 1);
	/* the scan is logged in its transaction, with its counts */
	char logged[128];
	snprintf(logged, sizeof logged,
		 "SELECT count(*) FROM scans WHERE outcome = 'ok' AND records = %zu", r1.n);
	assert_int_equal(count_rows(db2, logged), 1);
	assert_int_equal(count_rows(db1, "SELECT count(*) FROM scans"), 0);
	fl_scan_result_free(&r1);
	fl_scan_result_free(&r2);
}

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !FL_TEST_ASAN
/* The VmFlags line of the /proc/self/smaps mapping that holds p
 * (caller frees), or NULL. */
static char *vm_flags_of(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return NULL;
	char line[512];
	bool in = false;
	char *flags = NULL;
	while (!flags && fgets(line, sizeof line, f)) {
		unsigned long a, b;
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)p >= a && (uintptr_t)p < b;
		else if (in && strncmp(line, "VmFlags:", 8) == 0)
			flags = strdup(line);
	}
	fclose(f);
	return flags;
}
#endif

/* fl_scan_tune_heap: a scan after it writes the same records, and (glibc,
 * no ASan, a kernel with transparent huge pages) the heap memory a thread
 * allocates next is advised for huge pages.  In a child: the policy is
 * process-wide. */
static void test_scan_tune_heap(void **state)
{
	(void)state;
	char root[300], db1[300], db2[300];
	tree_and_stores("tree-heap", "untuned.db", "tuned.db", root, db1, db2);
	fl_err err;
	fl_store *st;
	fl_scan_result r;
	fl_scan_opts o = {.path = root, .repo = "acme/tree", .drop_records = true};
	assert_int_equal(fl_store_open(db1, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r, &err), 0);
	fl_store_close(st);
	fl_scan_result_free(&r);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fl_scan_tune_heap();
		int bad = 0;
		if (fl_store_open(db2, false, &st, &err) < 0 ||
		    fl_scan_into_store(&o, st, &r, &err) < 0)
			bad |= 1;
		fl_store_close(st);
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !FL_TEST_ASAN
		FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
		char mode[128] = "";
		if (thp) {
			if (!fgets(mode, sizeof mode, thp))
				mode[0] = '\0';
			fclose(thp);
		}
		if (mode[0] && !strstr(mode, "[never]")) {
			/* a block as large as what is left of the advised
			 * one comes from it */
			char *p = malloc(20 << 20);
			char *flags = p ? vm_flags_of(p + (10 << 20)) : NULL;
			if (!flags || !strstr(flags, " hg"))
				bad |= 2;
			free(flags);
			free(p);
		}
#endif
		_exit(bad);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	char *a = dump_records(db1), *b = dump_records(db2);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void test_scan_into_store_failure_rolls_back(void **state)
{
	(void)state;
	char root[300], db[300];
	snprintf(root, sizeof root, "%s/tree2", dir);
	snprintf(db, sizeof db, "%s/fail.db", dir);
	assert_int_equal(mkdir(root, 0755), 0);
	write_tree(root, 30);
	fl_scan_opts o = {.path = root, .repo = "acme/tree"};
	fl_err err;
	fl_store *st;
	fl_scan_result r;
	assert_int_equal(fl_store_open(db, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r, &err), 0);
	fl_scan_result_free(&r);
	fl_store_close(st);
	char *before = dump_records(db);
	/* the store refuses the 700th insert of the next scan, mid-way */
	sqlite3 *h;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "CREATE TABLE n (k INTEGER); INSERT INTO n VALUES (0);"
				      "CREATE TRIGGER boom BEFORE INSERT ON errors BEGIN"
				      " UPDATE n SET k = k + 1;"
				      " SELECT RAISE(ABORT, 'disk full (test)') WHERE (SELECT k FROM n) >= 700; END;",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	write_tree(root, 31); /* one more file: the scan has something to add */
	assert_int_equal(fl_store_open(db, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r, &err), -1);
	assert_non_null(strstr(err.msg, "disk full (test)"));
	assert_int_equal(r.n, 0); /* the result is emptied */
	fl_store_close(st);
	char *after = dump_records(db);
	assert_string_equal(before, after); /* the previous state, whole */
	free(before);
	free(after);
}

static long long count_sql(const char *db, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	long long v = -1;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(h);
	return v;
}

static void exec_sql(const char *db, const char *sql)
{
	sqlite3 *h;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	char *msg = NULL;
	if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
	sqlite3_close(h);
}

/* every record as JSON without the scan times, in store order */
static int collect_json(const fl_entry *e, void *ud)
{
	fl_buf *b = ud;
	fl_entry c = *e;
	c.analyzed_at = c.content_changed_at = NULL;
	char *j = fl_entry_to_json(&c, false);
	fl_buf_puts(b, j);
	fl_buf_putc(b, '\n');
	free(j);
	return 0;
}

static char *all_json(const char *db)
{
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(db, true, &st, &err), 0);
	fl_buf b = {0};
	if (fl_store_each_entry(st, NULL, collect_json, &b, &err) < 0)
		fail_msg("%s", err.msg);
	fl_store_close(st);
	fl_buf_cstr(&b);
	return b.s;
}

/* A store written before digest version 2 holds FNV-1a digests (16 hex
 * digits): a rescan compares with them, so unchanged records keep their
 * contentChangedAt; a digest that does not match is a change. */
struct v1_ctx {
	sqlite3 *h;
	int n;
};

static int put_v1_digest(const fl_entry *e, void *ud)
{
	struct v1_ctx *c = ud;
	fl_entry z = *e;
	z.analyzed_sha = z.analyzed_at = z.content_changed_at = z.github_url = NULL;
	z.source_code = NULL;
	z.source_code_start = z.source_code_end = 0;
	char *json = fl_entry_to_json(&z, false);
	uint64_t h = 1469598103934665603ull;
	for (const char *p = json; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ull;
	}
	free(json);
	char hex[17];
	/* the first record's digest is wrong: it counts as changed */
	snprintf(hex, sizeof hex, "%016llx", c->n++ == 0 ? 0ull : (unsigned long long)h);
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(c->h, "UPDATE errors SET content_hash = ?1,"
					    " content_changed_at = '2020-01-02T03:04:05.678Z' WHERE id = ?2",
					    -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, hex, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, e->id, -1, SQLITE_TRANSIENT);
	assert_int_equal(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	return 0;
}

static int count_old_times(const fl_entry *e, void *ud)
{
	if (strcmp(e->content_changed_at, "2020-01-02T03:04:05.678Z") == 0)
		(*(int *)ud)++;
	return 0;
}

static void test_version1_digests(void **state)
{
	(void)state;
	char root[300], db[300];
	snprintf(root, sizeof root, "%s/tree-v1", dir);
	snprintf(db, sizeof db, "%s/v1.db", dir);
	assert_int_equal(mkdir(root, 0755), 0);
	write_tree(root, 3);
	fl_scan_opts o = {.path = root, .repo = "acme/tree"};
	fl_err err;
	fl_store *st;
	fl_scan_result r;
	assert_int_equal(fl_store_open(db, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r, &err), 0);
	size_t n = r.n;
	assert_true(n > 10);
	fl_scan_result_free(&r);
	/* version 2 digests: 'x' and 15 hex digits */
	assert_int_equal(count_sql(db, "SELECT count(*) FROM errors WHERE content_hash GLOB 'x[0-9a-f]*'"
				   " AND length(content_hash) = 16"), (long long)n);
	struct v1_ctx c = {NULL, 0};
	assert_int_equal(sqlite3_open(db, &c.h), SQLITE_OK);
	assert_int_equal(fl_store_each_entry(st, "acme/tree", put_v1_digest, &c, &err), 0);
	sqlite3_close(c.h);
	fl_store_close(st);
	assert_int_equal(fl_store_open(db, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r, &err), 0);
	assert_int_equal(r.summary.unchanged, (long long)n - 1);
	assert_int_equal(r.summary.changed, 1);
	assert_int_equal(r.summary.added + r.summary.removed, 0);
	fl_scan_result_free(&r);
	int old = 0;
	assert_int_equal(fl_store_each_entry(st, "acme/tree", count_old_times, &old, &err), 0);
	assert_int_equal(old, (int)n - 1);
	fl_store_close(st);
	/* rewritten as version 2 */
	assert_int_equal(count_sql(db, "SELECT count(*) FROM errors WHERE content_hash GLOB 'x*'"),
			 (long long)n);
}

/* A scan writes each file's records as one compressed block; they read
 * back exactly as the same records written one by one. */
static void test_scan_blocks_read_back(void **state)
{
	(void)state;
	char root[300], db1[300], db2[300];
	snprintf(root, sizeof root, "%s/tree3", dir);
	snprintf(db1, sizeof db1, "%s/inline.db", dir);
	snprintf(db2, sizeof db2, "%s/blocks.db", dir);
	assert_int_equal(mkdir(root, 0755), 0);
	write_tree(root, 12);
	/* dup.c's message in another file: the same slug, so this file's
	 * record has a suffixed slug (given by the worker; without that
	 * guess, re-encoded and its block made again by the main thread) */
	char path[400];
	snprintf(path, sizeof path, "%s/zz.c", root);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("#include <stdio.h>\nvoid h(void) { fprintf(stderr, \"cannot open the spool\\n\"); }\n"
	      "void k(void) { fprintf(stderr, \"cannot read the queue\\n\"); }\n", fp);
	fclose(fp);
	fl_scan_opts o = {.path = root, .repo = "acme/tree"};
	fl_err err;
	fl_store *st;
	fl_scan_result r;
	assert_int_equal(fl_store_open(db1, false, &st, &err), 0);
	assert_int_equal(fl_scan_tree(&o, &r, &err), 0);
	assert_int_equal(fl_scan_store(st, &r, &err), 0);
	fl_store_close(st);
	fl_scan_result_free(&r);
	assert_int_equal(fl_store_open(db2, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r, &err), 0);
	fl_store_close(st);
	/* one block per file with records (12 Go files, dup.c and zz.c) */
	assert_int_equal(count_sql(db2, "SELECT count(*) FROM record_blobs"), 14);
	assert_int_equal(count_sql(db2, "SELECT count(*) FROM errors WHERE file_path = 'zz.c'"
				   " AND slug LIKE 'cannot-open-the-spool-%'"), 1);
	assert_int_equal(count_sql(db2, "SELECT count(*) FROM errors WHERE blob_id IS NULL"), 0);
	assert_int_equal(count_sql(db1, "SELECT count(*) FROM errors WHERE blob_id IS NOT NULL"), 0);
	/* compressed: well under the JSON's size */
	assert_true(count_sql(db2, "SELECT sum(length(data)) * 3 < sum(raw_len) FROM record_blobs") == 1);
	char *a = all_json(db1), *b = all_json(db2);
	assert_int_equal(strlen(a) > 1000, 1);
	assert_string_equal(a, b);
	free(b);
	/* the same when the main thread corrects every suffix */
	char db3[300];
	snprintf(db3, sizeof db3, "%s/blocks-no-guess.db", dir);
	fl_scan_result r3;
	fl_scan_guess_slugs = false;
	assert_int_equal(fl_store_open(db3, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r3, &err), 0);
	fl_store_close(st);
	fl_scan_guess_slugs = true;
	fl_scan_result_free(&r3);
	b = all_json(db3);
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* a single record by id and by slug, from the middle of a block */
	assert_int_equal(fl_store_open(db2, true, &st, &err), 0);
	fl_entry got;
	size_t mid = r.n / 2;
	assert_int_equal(fl_store_get_entry(st, r.entries[mid].id, &got, &err), 1);
	assert_string_equal(got.error_message, r.entries[mid].error_message);
	assert_string_equal(got.source_code, r.entries[mid].source_code);
	fl_entry_free(&got);
	assert_int_equal(fl_store_get_entry_by_slug(st, "acme/tree", r.entries[1].slug, &got, &err), 1);
	assert_string_equal(got.id, r.entries[1].id);
	fl_entry_free(&got);
	fl_store_close(st);
	/* a rescan replaces the blocks: none is left behind */
	assert_int_equal(fl_store_open(db2, false, &st, &err), 0);
	fl_scan_result r2;
	assert_int_equal(fl_scan_into_store(&o, st, &r2, &err), 0);
	assert_int_equal(r2.summary.unchanged, (long long)r2.n);
	fl_store_close(st);
	assert_int_equal(count_sql(db2, "SELECT count(*) FROM record_blobs"), 14);
	/* deleting the records of a block deletes the block with the last */
	assert_int_equal(fl_store_open(db2, false, &st, &err), 0);
	long long before = count_sql(db2, "SELECT count(*) FROM record_blobs");
	assert_int_equal(fl_store_begin(st, &err), 0);
	for (size_t i = 0; i < r2.n; i++)
		if (strcmp(r2.entries[i].file_path, "pkg03.go") == 0)
			assert_int_equal(fl_store_delete_entry(st, r2.entries[i].id, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_store_close(st);
	assert_int_equal(count_sql(db2, "SELECT count(*) FROM record_blobs"), before - 1);
	assert_int_equal(count_sql(db2, "SELECT count(*) FROM errors WHERE file_path = 'pkg03.go'"), 0);
	assert_int_equal(count_sql(db2, "SELECT count(*) FROM errors"), (long long)r2.n - 50);
	fl_scan_result_free(&r);
	fl_scan_result_free(&r2);
}

static void write_file(const char *root, const char *name, const char *text, size_t n)
{
	char path[400];
	snprintf(path, sizeof path, "%s/%s", root, name);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, n, fp), n);
	fclose(fp);
}

/* A block keeps its file's windows once, as segments of the file's lines;
 * each record reads back with exactly the window it would have inline:
 * windows far apart (two segments) and overlapping (one), at the first
 * and the last line (no final newline), CRLF lines, a Latin-1 byte. */
static void test_block_windows(void **state)
{
	(void)state;
	char root[300], db1[300], db2[300], db3[300];
	snprintf(root, sizeof root, "%s/tree-windows", dir);
	snprintf(db1, sizeof db1, "%s/win-inline.db", dir);
	snprintf(db2, sizeof db2, "%s/win-blocks.db", dir);
	snprintf(db3, sizeof db3, "%s/win-blocks-kept.db", dir);
	assert_int_equal(mkdir(root, 0755), 0);
	fl_buf a = {0};
	fl_buf_puts(&a, "#include <stdio.h>\nvoid f(void) { fprintf(stderr, \"first failure\\n\"); }\n");
	for (int i = 3; i <= 100; i++)
		fl_buf_puts(&a, i % 7 ? "int filler;\n" : "/* caf\xe9 au lait */\r\n");
	fl_buf_puts(&a, "void g(void) { fprintf(stderr, \"second failure\\n\"); }\r\n");
	fl_buf_puts(&a, "void h(void) { fprintf(stderr, \"third failure\\n\"); }\n");
	for (int i = 0; i < 30; i++)
		fl_buf_puts(&a, "int more;\n");
	fl_buf_puts(&a, "void k(void) { fprintf(stderr, \"last failure\\n\"); }");
	write_file(root, "a.c", a.s, a.n);
	const char b[] = "void m(void) { fprintf(stderr, \"only failure\\n\"); }";
	write_file(root, "b.c", b, sizeof b - 1);
	fl_scan_opts o = {.path = root, .repo = "acme/win"};
	fl_err err;
	fl_store *st;
	fl_scan_result r;
	assert_int_equal(fl_store_open(db1, false, &st, &err), 0);
	assert_int_equal(fl_scan_tree(&o, &r, &err), 0);
	assert_int_equal(r.n, 5);
	assert_int_equal(fl_scan_store(st, &r, &err), 0);
	fl_store_close(st);
	fl_scan_result_free(&r);
	/* windows only in the blocks (what `faultline scan` does), and also
	 * in the records the scan returns */
	o.drop_records = true;
	assert_int_equal(fl_store_open(db2, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r, &err), 0);
	fl_store_close(st);
	fl_scan_result_free(&r);
	o.drop_records = false;
	assert_int_equal(fl_store_open(db3, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r, &err), 0);
	fl_store_close(st);
	char *inl = all_json(db1), *blk = all_json(db2), *kept = all_json(db3);
	assert_string_equal(inl, blk);
	assert_string_equal(inl, kept);
	/* the windows' text is in it, fixed as it is inline */
	assert_non_null(strstr(inl, "caf\xef\xbf\xbd au lait */\\r\\n"));
	assert_non_null(strstr(inl, "\"sourceCode\":\"void m(void) {"));
	free(inl);
	free(blk);
	free(kept);
	/* a.c's four windows: two segments, not four copies */
	assert_int_equal(count_sql(db2, "SELECT count(*) FROM record_blobs"), 2);
	char q[200];
	/* the file's text once, and the four records' own JSON (their
	 * explanations, some 1.5 KB each: 7.7 KB in all); four copies of
	 * the windows would be over 11 KB */
	snprintf(q, sizeof q, "SELECT max(raw_len) < %zu FROM record_blobs", a.n + 8000);
	assert_int_equal(count_sql(db2, q), 1);
	/* each record also read alone, from the middle of its block */
	assert_int_equal(fl_store_open(db2, true, &st, &err), 0);
	for (size_t i = 0; i < r.n; i++) {
		fl_entry got;
		assert_int_equal(fl_store_get_entry(st, r.entries[i].id, &got, &err), 1);
		assert_string_equal(got.source_code, r.entries[i].source_code);
		assert_int_equal(got.source_code_start, r.entries[i].source_code_start);
		fl_entry_free(&got);
	}
	fl_store_close(st);
	fl_scan_result_free(&r);
	fl_buf_free(&a);
}

/* Blocks of schema 4 (the records' JSON, windows inline) still read; a
 * block whose segments lack a record's window is damaged, not a crash. */
static void test_block_formats(void **state)
{
	(void)state;
	char *p = strdup(path_of("formats.db"));
	fl_store *st;
	fl_err err;
	fl_entry e1, e2;
	make_entry_for(&e1, "acme/fmt", "old block record", "src/old.rs", 10);
	make_entry_for(&e2, "acme/fmt", "window lost", "src/lost.rs", 10);
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	assert_int_equal(fl_store_begin(st, &err), 0);
	char *json = fl_entry_to_json(&e1, false);
	size_t zlen, jlen = strlen(json);
	void *z = fl_block_compress(json, jlen, &zlen);
	long long id;
	assert_int_equal(fl_store_add_block(st, "acme/fmt", z, zlen, jlen, &id, &err), 0);
	assert_int_equal(fl_store_add_entry_in_block(st, &e1, NULL, id, 0, jlen, &err), 0);
	free(z);
	free(json);
	/* a block with no segment, and a slice that wants lines 9-11 */
	fl_buf raw = {0};
	fl_buf_put(&raw, FL_BLOCK_MAGIC, FL_BLOCK_MAGIC_LEN);
	fl_buf_put(&raw, "\0\0\0\0", 4);
	size_t off = raw.n;
	fl_buf_put(&raw, "\0\0\0\0\0\0\0\0\0\0\0\0", FL_BLOCK_SLICE_HDR);
	char *window = e2.source_code;
	e2.source_code = NULL;
	json = fl_entry_to_json(&e2, false);
	e2.source_code = window;
	const char *at = strstr(json, "\"sourceCode\":null");
	assert_non_null(at);
	fl_put_u32(raw.s + off, (uint32_t)(at - json + 13));
	fl_put_u32(raw.s + off + 4, 9);
	fl_put_u32(raw.s + off + 8, 11);
	fl_buf_puts(&raw, json);
	free(json);
	z = fl_block_compress(raw.s, raw.n, &zlen);
	assert_int_equal(fl_store_add_block(st, "acme/fmt", z, zlen, raw.n, &id, &err), 0);
	assert_int_equal(fl_store_add_entry_in_block(st, &e2, NULL, id, off, raw.n - off, &err), 0);
	free(z);
	fl_buf_free(&raw);
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_entry got;
	assert_int_equal(fl_store_get_entry(st, e1.id, &got, &err), 1);
	char *want = fl_entry_to_json(&e1, false), *have = fl_entry_to_json(&got, false);
	assert_string_equal(want, have);
	free(want);
	free(have);
	fl_entry_free(&got);
	assert_int_equal(fl_store_get_entry(st, e2.id, &got, &err), -1);
	assert_non_null(strstr(err.msg, "damaged"));
	assert_non_null(strstr(err.msg, "window"));
	fl_store_close(st);
	fl_entry_free(&e1);
	fl_entry_free(&e2);
	free(p);
}

/* A file's folders decide most skips; each thread remembers the last
 * folder's rule, which must never leak into another folder or into a scan
 * with other options. */
static void test_filter_folder_rules(void **state)
{
	(void)state;
	fl_scan_opts plain = {0}, tests = {.include_tests = true};
	const fl_lang *c = fl_lang_for_path("a.c");
	struct {
		const char *path;
		const fl_scan_opts *o;
		int want;
	} cases[] = {
		{"src/tests/a.c", &plain, FL_SKIP_TEST},
		{"src/tests/b.c", &plain, FL_SKIP_TEST},
		{"src/tests/b.c", &tests, -1},
		{"src/tests/c.c", &plain, FL_SKIP_TEST},
		{"src/a.c", &plain, -1},
		{"src/a_test.c", &plain, FL_SKIP_TEST},
		{"src/a_test.c", &tests, -1},
		{"src/vendor/a.c", &tests, FL_SKIP_FOLDER},
		{"src/vendorx/a.c", &tests, -1},
		{"src/pip/_vendor/pyparsing/util.py", &tests, FL_SKIP_FOLDER},
		{"src/pip/_vendored.py", &tests, -1},
		{"src/.git/a.c", &plain, FL_SKIP_HIDDEN},
		{"src/.git/a.c", &plain, FL_SKIP_HIDDEN},
		{"src/git/a.c", &plain, -1},
		{"a.c", &plain, -1},
		{"src/jmh/a.c", &plain, FL_SKIP_FOLDER},
		{"lib/jmh/a.c", &plain, -1},
		{"src/jvmTest/a.c", &plain, FL_SKIP_TEST},
		{"src/jvmTest/a.c", &tests, -1},
		{"docs/a.c", &tests, FL_SKIP_FOLDER},
		{"docs/a.txt", &tests, FL_SKIP_FOLDER},
		{"doc2/a.txt", &tests, FL_SKIP_LANGUAGE},
		/* a folder named test below the top: Go's packages (its tests
		 * are _test.go files), other languages' tests */
		{"cmd/go/internal/test/test.go", &plain, -1},
		{"cmd/go/internal/test/test_test.go", &plain, FL_SKIP_TEST},
		{"cmd/go/internal/test/testdata/a.go", &plain, FL_SKIP_FOLDER},
		{"cmd/go/internal/test/a.c", &plain, FL_SKIP_TEST},
		{"test/fixedbugs/a.go", &plain, FL_SKIP_TEST},
		{"src/tests/test/a.go", &plain, FL_SKIP_TEST},
		{"pkg/Test/a.go", &plain, FL_SKIP_TEST},
		/* build output, but a package of that name below src/ */
		{"build/a.c", &plain, FL_SKIP_FOLDER},
		{"web/dist/a.c", &plain, FL_SKIP_FOLDER},
		{"target/debug/a.c", &plain, FL_SKIP_FOLDER},
		{"src/go/build/build.go", &plain, -1},
		{"src/cmd/dist/build.go", &plain, -1},
		{"src/pip/_internal/operations/build/a.c", &plain, -1},
		{"src/Proj/obj/a.c", &plain, FL_SKIP_FOLDER},
		{"src/a/vendor/b.c", &plain, FL_SKIP_FOLDER},
		/* a documentation, example or benchmark folder below src/: a
		 * module where folders are modules (Rust, Go), else skipped;
		 * at the top, skipped everywhere */
		{"src/benchmark/executor.rs", &plain, -1},
		{"crates/core/src/bench/mod.rs", &plain, -1},
		{"benches/bench.rs", &plain, FL_SKIP_FOLDER},
		{"examples/demo.rs", &plain, FL_SKIP_FOLDER},
		{"src/cmd/doc/main.go", &plain, -1},
		{"src/go/doc/testdata/a.go", &plain, FL_SKIP_FOLDER},
		{"src/cmd/go/internal/test/doc/a.go", &plain, -1},
		{"src/cmd/go/internal/test/doc/a.c", &plain, FL_SKIP_TEST},
		{"src/benchmark/a.c", &plain, FL_SKIP_FOLDER},
		{"src/examples/a.c", &tests, FL_SKIP_FOLDER},
		{"src/main/java/org/acme/docs/A.java", &plain, FL_SKIP_FOLDER},
		{"src/benchmark/tests/a.rs", &plain, FL_SKIP_TEST},
	};
	/* a C template's double extension is C; another .in file is not */
	assert_ptr_equal(fl_lang_for_path("src/shell.c.in"), c);
	assert_ptr_equal(fl_lang_for_path("include/config.h.in"), c);
	assert_null(fl_lang_for_path("Makefile.in"));
	assert_null(fl_lang_for_path("src/banner.txt.in"));
	assert_null(fl_lang_for_path(".c"));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const fl_lang *l = strstr(cases[i].path, ".txt") ? NULL
				   : fl_str_ends(cases[i].path, ".go") || fl_str_ends(cases[i].path, ".rs") ||
					     fl_str_ends(cases[i].path, ".java")
					 ? fl_lang_for_path(cases[i].path)
					 : c;
		int got = fl_filter_path(cases[i].path, l, cases[i].o);
		if (got != cases[i].want)
			fail_msg("%s (include_tests %d): rule %d, want %d", cases[i].path,
				 cases[i].o->include_tests, got, cases[i].want);
	}
}

/* A name without an extension is a script of the family its `#!` line's
 * interpreter belongs to: through env and its options, with a version
 * after the name; never a shell's, a name's mere start, or a later line. */
static void test_lang_for_script(void **state)
{
	(void)state;
	const fl_lang *js = fl_lang_for_path("a.js"), *py = fl_lang_for_path("a.py"),
		      *rb = fl_lang_for_path("a.rb"), *php = fl_lang_for_path("a.php");
	struct {
		const char *head;
		const fl_lang *want;
	} cases[] = {
		{"#!/usr/bin/env node\n'use strict';\n", js},
		{"#!/usr/bin/node --harmony\n", js},
		{"#! /usr/bin/env -S node --no-warnings\n", js},
		{"#!/usr/bin/env NODE_ENV=production nodejs\n", js},
		{"#!/usr/bin/python3.11 -u\n", py},
		{"#!/usr/bin/env python3\r\n", py},
		{"#!/usr/bin/env ruby\n", rb},
		{"#!/usr/bin/env php\n<?php\n", php},
		{"#!/bin/sh\nexec node \"$0\"\n", NULL},
		{"#!/usr/bin/env nodemon\n", NULL},
		{"#!/usr/bin/env python3x\n", NULL},
		{"#!/usr/bin/env\n", NULL},
		{"#!\n", NULL},
		{"# a comment\n#!/usr/bin/env node\n", NULL},
		{"\x7f" "ELF\x02\x01", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (fl_lang_for_script(cases[i].head, strlen(cases[i].head)) != cases[i].want)
			fail_msg("%s: not its family", cases[i].head);
	/* a head cut in the middle of the name reads what it holds */
	assert_null(fl_lang_for_script("#!/usr/bin/env no", 17));
	assert_ptr_equal(fl_lang_for_script("#!/usr/bin/env node", 19), js);
	assert_true(fl_lang_may_be_script("packages/less/bin/lessc"));
	assert_true(fl_lang_may_be_script("exe/jekyll"));
	assert_false(fl_lang_may_be_script("bin/lessc.cmd"));
	assert_false(fl_lang_may_be_script("src/"));
	assert_ptr_equal(fl_lang_by_name("python"), py);
	assert_null(fl_lang_by_name("cobol"));
}

/* Generated-file markers are looked for in a file's first 2 KB: found at
 * every place there (any alignment, the very start and end), never past
 * it, and never taken from the pieces of their keys that code is full of. */
static void test_filter_generated_markers(void **state)
{
	(void)state;
	static const char *const markers[] = {
		"// @generated", "\n// Code generated by x. DO NOT EDIT.",
		"/* A Bison parser, made by GNU Bison 3.8. */", "AUTO-GENERATED FILE",
	};
	enum { GEN = 2048, LEN = 4096 };
	char *t = malloc(LEN + 1);
	assert_non_null(t);
	/* filler: code-like lines with "ne", "NE", "Bi", "enera", "ENERA" */
	const char *fill = "int one = new_line(NE, Bi, ener, ENERAx, Bisox);\n";
	for (size_t k = 0; k < LEN; k++)
		t[k] = fill[k % strlen(fill)];
	t[LEN] = '\0';
	assert_int_equal(fl_filter_content(t, LEN), -1);
	for (size_t m = 0; m < sizeof markers / sizeof markers[0]; m++) {
		size_t ml = strlen(markers[m]);
		for (size_t at = 0; at + ml <= LEN; at += at < 40 || at > GEN - 40 ? 1 : 37) {
			char *u = malloc(LEN + 1);
			assert_non_null(u);
			memcpy(u, t, LEN + 1);
			memcpy(u + at, markers[m], ml);
			int got = fl_filter_content(u, LEN);
			int want = at + ml <= GEN ? FL_SKIP_GENERATED : -1;
			if (got != want)
				fail_msg("marker %zu at %zu: rule %d, want %d", m, at, got, want);
			/* the file as short as the marker's end */
			got = fl_filter_content(u, at + ml);
			if (got != FL_SKIP_GENERATED && at + ml <= GEN)
				fail_msg("marker %zu at %zu, file of %zu bytes: rule %d", m, at,
					 at + ml, got);
			free(u);
			if (at > GEN)
				break;
		}
	}
	free(t);
}

/* Go's generated-code line is a comment opening its line: the words
 * printed by a program or quoted in its documentation are code. */
static void test_filter_generated_comment_line(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int want;
	} cases[] = {
		{"// Code generated by protoc-gen-go. DO NOT EDIT.\npackage pb\n", FL_SKIP_GENERATED},
		{"package x\n\n  /* Code generated by x. DO NOT EDIT. */\n", FL_SKIP_GENERATED},
		{"# Code generated by tool\n# DO NOT EDIT\nkey: 1\n", FL_SKIP_GENERATED},
		{"// Code generated by go-bindata.\n// sources:\n// a.txt\n// DO NOT EDIT!\n",
		 FL_SKIP_GENERATED},
		{"package help\n\nfunc f(w io.Writer) {\n\tfmt.Fprintln(w, \"// Code generated by "
		 "mkalldocs.sh; DO NOT EDIT.\")\n}\n", -1},
		{"package generate\n\nvar doc = `\ngenerated source should have a line:\n\n\t^// "
		 "Code generated .* DO NOT EDIT\\.$\n`\n", -1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int got = fl_filter_content(cases[i].text, strlen(cases[i].text));
		if (got != cases[i].want)
			fail_msg("case %zu: rule %d, want %d", i, got, cases[i].want);
	}
}

/* A damaged block is an error naming the problem, never a crash. */
static void test_damaged_block(void **state)
{
	(void)state;
	char root[300], db[300];
	snprintf(root, sizeof root, "%s/tree4", dir);
	snprintf(db, sizeof db, "%s/damaged.db", dir);
	assert_int_equal(mkdir(root, 0755), 0);
	write_tree(root, 2);
	fl_scan_opts o = {.path = root, .repo = "acme/tree"};
	fl_err err;
	fl_store *st;
	fl_scan_result r;
	assert_int_equal(fl_store_open(db, false, &st, &err), 0);
	assert_int_equal(fl_scan_into_store(&o, st, &r, &err), 0);
	fl_store_close(st);
	const char *id = r.entries[0].id;
	/* a record is read from as much of its block as it needs: a wrong
	 * block size shows only when the whole block is read (a listing) */
	static const char *const damage[] = {
		"UPDATE record_blobs SET data = x'00ff00ff00ff'",
		"UPDATE record_blobs SET raw_len = -1",
		"UPDATE errors SET blob_off = 100000000",
		"UPDATE errors SET blob_len = -5",
		"DELETE FROM record_blobs",
		"UPDATE record_blobs SET raw_len = raw_len + 7",
		NULL,
	};
	for (int k = 0; damage[k]; k++) {
		char copy[320];
		snprintf(copy, sizeof copy, "%s/damaged%d.db", dir, k);
		char cmd[700];
		snprintf(cmd, sizeof cmd, "cp %s %s", db, copy);
		assert_int_equal(system(cmd), 0);
		exec_sql(copy, damage[k]);
		assert_int_equal(fl_store_open(copy, true, &st, &err), 0);
		fl_entry got;
		if (damage[k + 1]) {
			assert_int_equal(fl_store_get_entry(st, id, &got, &err), -1);
			if (!strstr(err.msg, "damaged"))
				fail_msg("%s: %s", damage[k], err.msg);
		}
		fl_buf b = {0};
		assert_int_equal(fl_store_each_entry(st, NULL, collect_json, &b, &err), -1);
		assert_non_null(strstr(err.msg, "damaged"));
		free(b.s);
		fl_store_close(st);
	}
	fl_scan_result_free(&r);
}

/* A store of schema 3 (records inline, no blocks) migrates: its records
 * read as before and get the errorClass and githubUrl columns. */
static void test_migrate_from_inline_records(void **state)
{
	(void)state;
	char *p = strdup(path_of("v3.db"));
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	fl_entry e;
	make_entry(&e);
	free(e.error_class);
	e.error_class = strdup("WidgetError");
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e, NULL, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_store_close(st);
	/* back to schema 3 as it was */
	exec_sql(p, "DROP TABLE record_blobs; DROP TABLE enrichment; DROP TABLE queue;"
		    "DROP TABLE repo_changes; DELETE FROM meta WHERE key = 'store_id';"
		    "DROP TABLE repo_versions; DROP TABLE version_blobs; DROP TABLE error_versions;"
		    "ALTER TABLE errors DROP COLUMN blob_id; ALTER TABLE errors DROP COLUMN blob_off;"
		    "ALTER TABLE errors DROP COLUMN blob_len; ALTER TABLE errors DROP COLUMN error_class;"
		    "ALTER TABLE errors DROP COLUMN github_url;"
		    "ALTER TABLE error_sites DROP COLUMN function; ALTER TABLE error_sites DROP COLUMN guard;"
		    "PRAGMA user_version = 3;");
	assert_int_equal(user_version(p), 3);
	/* opened for reading: migrated through a handle of its own */
	assert_int_equal(fl_store_open(p, true, &st, &err), 0);
	assert_int_equal(user_version(p), FL_STORE_SCHEMA);
	fl_entry got;
	assert_int_equal(fl_store_get_entry(st, e.id, &got, &err), 1);
	char *a = fl_entry_to_json(&e, false), *b = fl_entry_to_json(&got, false);
	assert_string_equal(a, b);
	free(a);
	free(b);
	fl_entry_free(&got);
	fl_store_close(st);
	assert_int_equal(count_sql(p, "SELECT count(*) FROM errors WHERE error_class = 'WidgetError'"
				   " AND github_url LIKE 'https://github.com/%'"), 1);
	/* schema 5 dropped the index of codes no query used */
	assert_int_equal(count_sql(p, "SELECT count(*) FROM sqlite_master WHERE name = 'errors_by_code'"), 0);
	fl_entry_free(&e);
	free(p);
}

/* Files whose names cannot be a filePath (records.md) are left out, one
 * by one, counted and listed escaped in path order; the others scanned. */
static void test_scan_names_not_file_paths(void **state)
{
	(void)state;
	char root[300];
	snprintf(root, sizeof root, "%s/names", dir);
	assert_int_equal(mkdir(root, 0755), 0);
	static const char src[] = "raise ValueError(\"from this file\")\n";
	write_file(root, "ok.py", src, sizeof src - 1);
	write_file(root, "a\nb.py", src, sizeof src - 1);
	write_file(root, "bad\xff\xc3\xa9.py", src, sizeof src - 1);
	write_file(root, "c\\d\"e.py", src, sizeof src - 1);
	write_file(root, "caf\xc3\xa9.py", src, sizeof src - 1); /* UTF-8: fine */
	fl_scan_opts o = {.path = root, .repo = "acme/names"};
	fl_scan_result r;
	fl_err err;
	assert_int_equal(fl_scan_tree(&o, &r, &err), 0);
	assert_int_equal(r.summary.skipped[FL_SKIP_NAME], 3);
	assert_int_equal(r.summary.files_scanned, 2);
	assert_string_equal(r.summary.bad_names,
			    "\"a\\nb.py\", \"bad\\xff\xc3\xa9.py\", \"c\\\\d\\\"e.py\"");
	assert_int_equal(r.n, 2);
	for (size_t i = 0; i < r.n; i++)
		assert_true(strcmp(r.entries[i].file_path, "ok.py") == 0 ||
			    strcmp(r.entries[i].file_path, "caf\xc3\xa9.py") == 0);
	fl_scan_result_free(&r);
}

/* A file whose blob cannot be read keeps its stored records, and their
 * slugs: a new record with the same message takes a suffixed one, whether
 * the worker foresaw it or the main thread corrected it. */
static void test_scan_keeps_records_of_unreadable_blob(void **state)
{
	(void)state;
	for (int guess = 1; guess >= 0; guess--) {
		char root[300], db[300], cmd[1200];
		snprintf(root, sizeof root, "%s/corrupt%d", dir, guess);
		snprintf(db, sizeof db, "%s/corrupt%d.db", dir, guess);
		assert_int_equal(mkdir(root, 0755), 0);
		static const char a1[] = "raise ValueError(\"a one\")\n";
		static const char b[] = "raise KeyError(\"b kept\")\nraise TypeError(\"b kept too\")\n";
		static const char c[] = "raise KeyError(\"b kept\")\n";
		write_file(root, "a.py", a1, sizeof a1 - 1);
		write_file(root, "b.py", b, sizeof b - 1);
		snprintf(cmd, sizeof cmd,
			 "cd %s && git init -q -b main && git add -A &&"
			 " git -c user.name=t -c user.email=t@example.com commit -q -m one", root);
		assert_int_equal(system(cmd), 0);
		fl_scan_opts o = {.path = root, .repo = "acme/corrupt", .rev = "HEAD",
				  .drop_records = true};
		fl_store *st;
		fl_err err;
		fl_scan_result r;
		assert_int_equal(fl_store_open(db, false, &st, &err), 0);
		assert_int_equal(fl_scan_into_store(&o, st, &r, &err), 0);
		fl_scan_result_free(&r);
		write_file(root, "c.py", c, sizeof c - 1);
		snprintf(cmd, sizeof cmd,
			 "cd %s && git add -A && git -c user.name=t -c user.email=t@example.com"
			 " commit -q -m two && o=.git/objects/$(git rev-parse HEAD:b.py | sed 's|^..|&/|')"
			 " && chmod u+w $o && printf 'x\\001damaged' >$o", root);
		assert_int_equal(system(cmd), 0);
		fl_scan_guess_slugs = guess;
		int rc = fl_scan_into_store(&o, st, &r, &err);
		fl_scan_guess_slugs = true;
		assert_int_equal(rc, 0);
		assert_int_equal(r.summary.kept, 2);
		assert_int_equal(r.summary.unreadable_files, 1);
		assert_non_null(strstr(r.summary.unreadable_first, "b.py (blob "));
		assert_int_equal(r.summary.records, 2);
		assert_int_equal(r.summary.removed, 0);
		fl_scan_result_free(&r);
		sqlite3_stmt *s;
		assert_int_equal(sqlite3_prepare_v2(st->db,
			"SELECT group_concat(file_path || ':' || slug, ' ') FROM"
			" (SELECT file_path, slug FROM errors ORDER BY file_path, slug)",
			-1, &s, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(s), SQLITE_ROW);
		const char *rows = (const char *)sqlite3_column_text(s, 0);
		assert_non_null(rows);
		/* b.py's two records as they were; c.py's with the id suffix */
		assert_non_null(strstr(rows, "a.py:a-one b.py:b-kept b.py:b-kept-too c.py:b-kept-"));
		sqlite3_finalize(s);
		fl_store_close(st);
	}
}

/* Each repository's records remember the generation they last changed at
 * (repo_changes): written by the commit that changed them, also when they
 * were deleted, not by a transaction rolled back. */
static void test_repo_changes_generation(void **state)
{
	(void)state;
	char *p = strdup(path_of("changes.db"));
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	char id1[40], id2[40];
	assert_int_equal(fl_store_identity(st, id1, &err), 0);
	assert_int_equal(strlen(id1), 32);
	fl_entry a, b;
	make_entry_for(&a, "acme/a", "first message of a: {x}", "a.c", 3);
	make_entry_for(&b, "acme/b", "first message of b: {x}", "b.c", 5);
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &a, NULL, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &b, NULL, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0); /* generation 1 */
	long long gen;
	char changed[32];
	assert_int_equal(fl_store_generation(st, &gen, changed, &err), 0);
	fl_strv v = {0};
	assert_int_equal(fl_store_changed_since(st, gen - 1, &v, &err), 0);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.v[0], "acme/a");
	assert_string_equal(v.v[1], "acme/b");
	fl_strv_free(&v);
	assert_int_equal(fl_store_changed_since(st, gen, &v, &err), 0);
	assert_int_equal(v.n, 0);
	/* b's records deleted: b changed, a did not */
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_clear_repo(st, "acme/b", &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_store_changed_since(st, gen, &v, &err), 0);
	assert_int_equal(v.n, 1);
	assert_string_equal(v.v[0], "acme/b");
	fl_strv_free(&v);
	/* one record of a deleted, then a change rolled back */
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_delete_entry(st, a.id, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &b, NULL, &err), 0);
	fl_store_rollback(st);
	assert_int_equal(fl_store_changed_since(st, gen + 1, &v, &err), 0);
	assert_int_equal(v.n, 1);
	assert_string_equal(v.v[0], "acme/a");
	fl_strv_free(&v);
	assert_int_equal(fl_store_identity(st, id2, &err), 0);
	assert_string_equal(id1, id2);
	fl_store_close(st);
	fl_entry_free(&a);
	fl_entry_free(&b);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_and_migrate_empty_file),
		cmocka_unit_test(test_fresh_schema_is_migrated_schema),
		cmocka_unit_test(test_thread_spawn),
		cmocka_unit_test(test_refuses_newer_and_foreign),
		cmocka_unit_test(test_roundtrip_rows),
		cmocka_unit_test(test_enrichment_overlay),
		cmocka_unit_test(test_rollback_on_failure),
		cmocka_unit_test(test_new_store_first_transaction),
		cmocka_unit_test(test_reader_while_writer),
		cmocka_unit_test(test_scan_into_store_same_as_two_steps),
		cmocka_unit_test(test_scan_into_store_drop_records),
		cmocka_unit_test(test_scan_tune_heap),
		cmocka_unit_test(test_scan_into_store_failure_rolls_back),
		cmocka_unit_test(test_version1_digests),
		cmocka_unit_test(test_scan_blocks_read_back),
		cmocka_unit_test(test_damaged_block),
		cmocka_unit_test(test_block_windows),
		cmocka_unit_test(test_filter_folder_rules),
		cmocka_unit_test(test_lang_for_script),
		cmocka_unit_test(test_filter_generated_markers),
		cmocka_unit_test(test_filter_generated_comment_line),
		cmocka_unit_test(test_block_formats),
		cmocka_unit_test(test_migrate_from_inline_records),
		cmocka_unit_test(test_hot_journal_rolled_back_for_readers),
		cmocka_unit_test(test_scan_names_not_file_paths),
		cmocka_unit_test(test_scan_keeps_records_of_unreadable_blob),
		cmocka_unit_test(test_repo_changes_generation),
	};
	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
