/*
 * test_queue.c — the corpus queue (store_queue.c) and the names batch gives
 * fetched repositories (corpus/fetch.c): states and transitions, claim
 * order, attempts, dead owners taken back, claims by two handles at once,
 * and that queue changes leave the records' change counter alone.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "corpus/corpus.h"
#include "faultline.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/fl-queue-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static fl_store *open_store(const char *name)
{
	char p[128];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	return st;
}

static long long claim_id(fl_store *st, const char *owner)
{
	fl_qrow r;
	fl_err err;
	int c = fl_queue_claim(st, owner, &r, &err);
	assert_true(c >= 0);
	if (c == 0)
		return 0;
	assert_int_equal(r.state, FL_Q_RUNNING);
	assert_string_equal(r.owner, owner);
	long long id = r.id;
	fl_qrow_free(&r);
	return id;
}

static void add(fl_store *st, const char *loc, int prio, bool want_requeued)
{
	bool again;
	fl_err err;
	assert_int_equal(fl_queue_add(st, loc, NULL, NULL, prio, &again, &err), 0);
	assert_int_equal(again, want_requeued);
}

/* Claims go by priority, then age; a failed run goes after the rows that
 * have not failed; two failed runs make a row failed; done keeps the
 * commit; queueing again clears the attempts. */
static void test_states_and_order(void **state)
{
	(void)state;
	fl_store *st = open_store("order.db");
	char me[48];
	fl_queue_owner_self(me);
	add(st, "/src/a", 0, false);
	add(st, "/src/b", 7, false);
	add(st, "/src/c", 0, false);
	fl_err err;
	long long counts[FL_Q_NSTATES];
	assert_int_equal(fl_queue_counts(st, counts, &err), 0);
	assert_int_equal(counts[FL_Q_PENDING], 3);
	long long b = claim_id(st, me);
	long long a = claim_id(st, me);
	fl_qrow r;
	assert_int_equal(fl_queue_get(st, b, &r, &err), 0);
	assert_string_equal(r.locator, "/src/b");
	fl_qrow_free(&r);
	assert_int_equal(fl_queue_get(st, a, &r, &err), 0);
	assert_string_equal(r.locator, "/src/a");
	fl_qrow_free(&r);
	/* a fails once: pending again, after c */
	assert_int_equal(fl_queue_finish(st, a, FL_Q_FAILED, NULL, NULL, -1, "boom", 1.5, 2, &err), 0);
	assert_int_equal(fl_queue_get(st, a, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_PENDING);
	assert_int_equal(r.attempts, 1);
	assert_string_equal(r.last_error, "boom");
	fl_qrow_free(&r);
	long long c = claim_id(st, me);
	assert_int_not_equal(c, a);
	assert_int_equal(claim_id(st, me), a);
	assert_int_equal(claim_id(st, me), 0); /* none pending */
	/* a fails again: failed for good */
	assert_int_equal(fl_queue_finish(st, a, FL_Q_FAILED, NULL, NULL, -1, "boom again", 1, 2, &err), 0);
	assert_int_equal(fl_queue_get(st, a, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_FAILED);
	assert_int_equal(r.attempts, 2);
	assert_string_equal(r.last_error, "boom again");
	fl_qrow_free(&r);
	/* b done, c skipped */
	const char *sha = "0123456789abcdef0123456789abcdef01234567";
	assert_int_equal(fl_queue_finish(st, b, FL_Q_DONE, sha, "acme/b", 12, NULL, 0.2, 2, &err), 0);
	assert_int_equal(fl_queue_finish(st, c, FL_Q_SKIPPED, sha, "acme/c", -1, NULL, 0.01, 2, &err), 0);
	assert_int_equal(fl_queue_get(st, b, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_DONE);
	assert_string_equal(r.analyzed_sha, sha);
	assert_string_equal(r.scanned_repo, "acme/b");
	assert_int_equal(r.records, 12);
	assert_null(r.owner);
	fl_qrow_free(&r);
	/* queued again: pending, attempts cleared, the last commit kept */
	add(st, "/src/a", 0, true);
	add(st, "/src/b", 0, true);
	assert_int_equal(fl_queue_get(st, a, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_PENDING);
	assert_int_equal(r.attempts, 0);
	fl_qrow_free(&r);
	assert_int_equal(fl_queue_get(st, b, &r, &err), 0);
	assert_string_equal(r.analyzed_sha, sha);
	fl_qrow_free(&r);
	assert_int_equal(fl_queue_counts(st, counts, &err), 0);
	assert_int_equal(counts[FL_Q_PENDING], 2);
	assert_int_equal(counts[FL_Q_SKIPPED], 1);
	fl_store_close(st);
}

/* A running row of a process that is gone goes back to pending, not
 * counted as an attempt; one of a live process stays running; a running
 * row queued again keeps running. */
static void test_reclaim(void **state)
{
	(void)state;
	fl_store *st = open_store("reclaim.db");
	char me[48];
	fl_queue_owner_self(me);
	assert_true(fl_queue_owner_alive(me));
	/* our pid with another start time: a pid used again */
	char other[64];
	snprintf(other, sizeof other, "%ld:1", (long)getpid());
	assert_false(fl_queue_owner_alive(other));
	assert_false(fl_queue_owner_alive("2147480000:5"));
	assert_false(fl_queue_owner_alive(NULL));
	add(st, "/src/dead", 0, false);
	add(st, "/src/live", 0, false);
	long long dead = claim_id(st, "2147480000:5");
	long long live = claim_id(st, me);
	add(st, "/src/live", 3, true); /* queued again while running */
	long long n;
	fl_err err;
	assert_int_equal(fl_queue_reclaim(st, &n, &err), 0);
	assert_int_equal(n, 1);
	fl_qrow r;
	assert_int_equal(fl_queue_get(st, dead, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_PENDING);
	assert_int_equal(r.attempts, 0);
	assert_null(r.owner);
	fl_qrow_free(&r);
	assert_int_equal(fl_queue_get(st, live, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_RUNNING);
	assert_int_equal(r.priority, 3);
	fl_qrow_free(&r);
	/* ... and that run's end leaves it pending, for the run it was
	 * queued for (done or failed alike) */
	assert_int_equal(fl_queue_finish(st, live, FL_Q_DONE, "0123456789abcdef0123456789abcdef01234567",
					 "acme/live", 1, NULL, 0.1, 2, &err), 0);
	assert_int_equal(fl_queue_get(st, live, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_PENDING);
	fl_qrow_free(&r);
	assert_int_equal(claim_id(st, me), live);
	add(st, "/src/live", 3, true);
	assert_int_equal(fl_queue_finish(st, live, FL_Q_FAILED, NULL, NULL, -1, "x", 0, 1, &err), 0);
	assert_int_equal(fl_queue_get(st, live, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_PENDING);
	assert_int_equal(r.attempts, 0);
	fl_qrow_free(&r);
	assert_int_equal(claim_id(st, me), live);
	/* stopped by its batch: pending, no attempt */
	assert_int_equal(fl_queue_finish(st, live, FL_Q_PENDING, NULL, NULL, -1, NULL, 0, 2, &err), 0);
	assert_int_equal(fl_queue_get(st, live, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_PENDING);
	assert_int_equal(r.attempts, 0);
	fl_qrow_free(&r);
	fl_store_close(st);
}

/* Queue changes are not record changes: the lookup index stays valid. */
static void test_generation_untouched(void **state)
{
	(void)state;
	fl_store *st = open_store("gen.db");
	fl_err err;
	add(st, "/src/x", 0, false); /* the new store's schema commits */
	long long g0, g1;
	char at[32];
	assert_int_equal(fl_store_generation(st, &g0, at, &err), 0);
	add(st, "/src/y", 0, false);
	char me[48];
	fl_queue_owner_self(me);
	long long id = claim_id(st, me);
	assert_int_equal(fl_queue_finish(st, id, FL_Q_FAILED, NULL, NULL, -1, "x", 0, 2, &err), 0);
	assert_int_equal(fl_store_generation(st, &g1, at, &err), 0);
	assert_int_equal(g0, g1);
	fl_store_close(st);
}

/* A row queued again in the millisecond its run started (or, the clocks
 * being what they are, seemingly before it) is still seen as queued
 * again when that run ends: its added_at is put after its started_at. */
static void test_requeued_same_millisecond(void **state)
{
	(void)state;
	fl_store *st = open_store("ms.db");
	fl_err err;
	add(st, "/src/z", 0, false);
	char me[48];
	fl_queue_owner_self(me);
	long long id = claim_id(st, me);
	/* the run started "later" than any add can be stamped now */
	char p[128];
	snprintf(p, sizeof p, "%s/ms.db", dir);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	assert_int_equal(sqlite3_exec(db, "UPDATE queue SET started_at = '2999-01-01T00:00:00.000Z'",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	add(st, "/src/z", 0, true);
	fl_qrow r;
	assert_int_equal(fl_queue_get(st, id, &r, &err), 0);
	assert_string_equal(r.added_at, "2999-01-01T00:00:00.001Z");
	fl_qrow_free(&r);
	assert_int_equal(fl_queue_finish(st, id, FL_Q_DONE, "0123456789abcdef0123456789abcdef01234567",
					 "acme/z", 1, NULL, 0.1, 2, &err), 0);
	assert_int_equal(fl_queue_get(st, id, &r, &err), 0);
	assert_int_equal(r.state, FL_Q_PENDING);
	fl_qrow_free(&r);
	fl_store_close(st);
}

struct claimer {
	char owner[48];
	long long got[64];
	int n;
};

static void *claim_all(void *arg)
{
	struct claimer *c = arg;
	fl_store *st = open_store("race.db");
	fl_store_busy_timeout(st, 60000);
	for (;;) {
		fl_qrow r;
		fl_err err;
		int rc = fl_queue_claim(st, c->owner, &r, &err);
		if (rc <= 0)
			break;
		c->got[c->n++] = r.id;
		fl_qrow_free(&r);
	}
	fl_store_close(st);
	return NULL;
}

/* Two handles (as two batch processes) claiming at once never take the
 * same row, and between them take every row. */
static void test_claims_disjoint(void **state)
{
	(void)state;
	fl_store *st = open_store("race.db");
	for (int i = 0; i < 40; i++) {
		char loc[32];
		snprintf(loc, sizeof loc, "/src/r%d", i);
		add(st, loc, i % 3, false);
	}
	fl_store_close(st);
	struct claimer a = {.owner = "1:1"}, b = {.owner = "2:2"};
	pthread_t ta, tb;
	pthread_create(&ta, NULL, claim_all, &a);
	pthread_create(&tb, NULL, claim_all, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	assert_int_equal(a.n + b.n, 40);
	bool seen[41] = {0};
	for (int i = 0; i < a.n; i++) {
		assert_false(seen[a.got[i]]);
		seen[a.got[i]] = true;
	}
	for (int i = 0; i < b.n; i++) {
		assert_false(seen[b.got[i]]);
		seen[b.got[i]] = true;
	}
}

static void test_locators_and_names(void **state)
{
	(void)state;
	assert_true(fl_locator_is_url("https://github.com/a/b"));
	assert_true(fl_locator_is_url("git://127.0.0.1:9418/a/b.git"));
	assert_true(fl_locator_is_url("file:///srv/git/b.git"));
	assert_false(fl_locator_is_url("/srv/git/b.git"));
	assert_false(fl_locator_is_url("ftp://example.org/b.git"));
	static const char *const cases[][2] = {
		{"https://github.com/pallets/click", "pallets/click"},
		{"https://github.com/pallets/click.git/", "pallets/click"},
		{"git://127.0.0.1:9418/acme/widget.git", "acme/widget"},
		{"https://gitlab.example.org/group/sub/tool.git", "sub/tool"},
		{"https://example.org/tool.git", "local/tool"},
		{"file:///srv/mirrors/acme/widget.git", "local/widget"},
		{"ssh://git@host:2222/team/app", "team/app"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *n = fl_url_repo_name(cases[i][0]);
		if (strcmp(n, cases[i][1]) != 0)
			fail_msg("%s: %s, not %s", cases[i][0], n, cases[i][1]);
		free(n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states_and_order),
		cmocka_unit_test(test_reclaim),
		cmocka_unit_test(test_generation_untouched),
		cmocka_unit_test(test_requeued_same_millisecond),
		cmocka_unit_test(test_claims_disjoint),
		cmocka_unit_test(test_locators_and_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
