/*
 * test_store.c — the SQLite store: creation and migration, refusing newer
 * or foreign files, transactions and rollback, concurrent readers, and the
 * record/repository/site/scan rows.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "faultline.h"
#include "test_util.h"

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

	assert_int_equal(fl_store_open(path_of("missing.db"), true, &st, &err), -1);
	assert_non_null(strstr(err.msg, "no store"));
	assert_int_equal(fl_store_open(dir, false, &st, &err), -1);
	assert_non_null(strstr(err.msg, "folder"));
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
	assert_int_equal(fl_store_add_site(st, e.id, "src/other.rs", 7, 3, &err), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_and_migrate_empty_file),
		cmocka_unit_test(test_refuses_newer_and_foreign),
		cmocka_unit_test(test_roundtrip_rows),
		cmocka_unit_test(test_rollback_on_failure),
		cmocka_unit_test(test_reader_while_writer),
	};
	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
