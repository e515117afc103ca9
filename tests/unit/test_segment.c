/*
 * test_segment.c — the lookup index in segments (lib/lookup/segment.c):
 * after a rescan of one repository a delta answers every tier (code,
 * pattern, fuzzy, parts of multi-line messages, grep-log) exactly as a
 * full rebuild does, ties included; a deleted repository's records are
 * never answered; a second change extends the delta; a large change
 * rebuilds the base; a delta of another base, or a damaged one, is not
 * used.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "faultline.h"
#include "lookup/lookup_internal.h"
#include "test_util.h"
#include "util.h"

#define NREPOS 40
#define NREC 10

static char dir[64];
static char dbpath[128];
static fl_store *st;

static void put(const char *repo, const char *msg, const char *path, int line,
		const char *code)
{
	fl_entry e;
	make_entry_for(&e, repo, msg, path, line);
	if (code) {
		char id[17];
		fl_record_id(repo, code, msg, path, id);
		free(e.id);
		e.id = strdup(id);
		e.error_code = strdup(code);
	}
	char *slug = fl_slug_suffixed(e.slug, e.id);
	free(e.slug);
	e.slug = slug;
	fl_err err;
	if (fl_store_put_entry(st, &e, NULL, &err) < 0)
		fail_msg("%s", err.msg);
	fl_entry_free(&e);
}

static const char *const nouns[] = {"cache", "socket", "manifest", "token", "schema",
				    "bucket", "lease", "cursor", "journal", "archive",
				    "tenant", "ledger", "shard", "quota"};
static const char *const verbs[] = {"flush", "decode", "verify", "rotate", "mount",
				    "replay", "compact", "seal"};

/* Record j of repository i, as its fixture has it (version v: 0 before
 * the rescan, 1 after: record 6 gone, record 7 changed, record 10 new). */
static bool record(int i, int j, int v, char *msg, size_t n, char *code, char *path)
{
	code[0] = '\0';
	snprintf(path, 64, "src/m%d.c", j);
	if (v && j == 6)
		return false;
	if (!v && j == 10)
		return false;
	switch (j) {
	case 0:
		snprintf(msg, n, "repository r%02d cannot open {path}: permission denied", i);
		break;
	case 1: /* in every repository: a tie the location order breaks */
		snprintf(msg, n, "connection refused by upstream proxy");
		break;
	case 2:
		snprintf(msg, n, "bad request to the r%02d endpoint", i);
		snprintf(code, 32, "E_R%02d_FAIL", i);
		break;
	case 3: /* a code in every repository */
		snprintf(msg, n, "shared failure of kind {kind}");
		snprintf(code, 32, "ERR_SHARED_KIND");
		break;
	case 4: /* several lines: the first is a part of its own */
		snprintf(msg, n, "could not load the %s plugin module {name}\nreason: {reason}",
			 nouns[i % 14]);
		break;
	case 7:
		if (v) {
			snprintf(msg, n, "refusing to %s the %s: the %s holds a stale lease",
				 verbs[(i + 3) % 8], nouns[(i + 5) % 14], nouns[(i + 9) % 14]);
			break;
		}
		/* fall through */
	default:
		snprintf(msg, n, "failed to %s %s %s while the %s was %sing", verbs[(i + j) % 8],
			 nouns[(i * 3 + j) % 14], nouns[(i + 2 * j) % 14], nouns[(i + j + 7) % 14],
			 verbs[(i * j) % 8]);
		break;
	case 10:
		snprintf(msg, n, "quota exceeded for tenant {tenant} in region {region}");
		break;
	}
	return true;
}

static void put_repo(int i, int v)
{
	char repo[32], msg[256], code[32], path[64];
	snprintf(repo, sizeof repo, "org/r%02d", i);
	for (int j = 0; j <= 10; j++)
		if (record(i, j, v, msg, sizeof msg, code, path))
			put(repo, msg, path, 10 + j, *code ? code : NULL);
}

/* Rescan repository i at version v: its records replaced. */
static void rescan(int i, int v)
{
	char repo[32];
	snprintf(repo, sizeof repo, "org/r%02d", i);
	fl_err err;
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_clear_repo(st, repo, &err), 0);
	put_repo(i, v);
	assert_int_equal(fl_store_commit(st, &err), 0);
}

static fl_lookup *open_lookup(void)
{
	fl_lookup *lk;
	fl_err err;
	if (fl_lookup_open(st, &lk, &err) < 0)
		fail_msg("%s", err.msg);
	return lk;
}

/* A lookup over a copy of the store: no index beside it, so built from
 * every record (what a full rebuild answers). */
static fl_lookup *rebuilt(fl_store **copy)
{
	char p[160];
	snprintf(p, sizeof p, "%s/copy.db", dir);
	unlink(p);
	char *lp = fl_xasprintf("%s.lookup", p);
	unlink(lp);
	free(lp);
	fl_err err;
	assert_int_equal(fl_store_copy(st, p, &err), 0);
	assert_int_equal(fl_store_open(p, true, copy, &err), 0);
	fl_lookup *lk;
	assert_int_equal(fl_lookup_open(*copy, &lk, &err), 0);
	assert_int_equal(lk->nseg, 1);
	return lk;
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/fl-segment-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(dbpath, sizeof dbpath, "%s/t.db", dir);
	fl_err err;
	if (fl_store_open(dbpath, false, &st, &err) < 0 || fl_store_begin(st, &err) < 0)
		return -1;
	for (int i = 0; i < NREPOS; i++)
		put_repo(i, 0);
	if (fl_store_commit(st, &err) < 0)
		return -1;
	/* the base */
	fl_lookup *lk;
	if (fl_lookup_open(st, &lk, &err) < 0 || lk->nseg != 1)
		return -1;
	fl_lookup_close(lk);
	/* the store as the base was built from (test_delta_of_another_base) */
	char g0[160];
	snprintf(g0, sizeof g0, "%s/g0.db", dir);
	if (fl_store_copy(st, g0, &err) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fl_lookup_thread_done();
	fl_store_close(st);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* a's answers are b's, in b's order; answers whose scores are within
 * 1e-6 of each other may come in either order, or either be cut by the
 * limit, unless strict (float rounding: segment.c sums a record's idf in
 * the order of its words' text, a rebuild in the order of the message). */
static void same_result(const char *q, const char *repo, const fl_result *a,
			const fl_result *b, bool strict)
{
	if (a->n != b->n)
		fail_msg("<%s> [%s]: %zu answers, a rebuild gives %zu", q, repo ? repo : "",
			 a->n, b->n);
	if ((a->match_type == NULL) != (b->match_type == NULL) ||
	    (a->match_type && strcmp(a->match_type, b->match_type) != 0))
		fail_msg("<%s>: tier %s, a rebuild's %s", q, a->match_type ? a->match_type : "-",
			 b->match_type ? b->match_type : "-");
	for (size_t i = 0; i < a->n; i++) {
		const fl_match *x = &a->v[i], *y = &b->v[i];
		if (strcmp(x->id, y->id) != 0 && !strict) {
			/* the same answer among those tied with it */
			for (size_t j = 0; j < b->n; j++)
				if (strcmp(b->v[j].id, x->id) == 0 && fabs(b->v[j].score - y->score) < 1e-6)
					y = &b->v[j];
			/* or tied with the last one, where the limit cut the
			 * answers: either could be left out */
			if (strcmp(x->id, y->id) != 0 && fabs(x->score - y->score) < 1e-6 &&
			    fabs(x->score - b->v[b->n - 1].score) < 1e-6)
				continue;
		}
		if (strcmp(x->id, y->id) != 0 || strcmp(x->match_type, y->match_type) != 0 ||
		    fabs(x->score - y->score) > 1e-6 || x->captures.n != y->captures.n ||
		    x->same_text != y->same_text)
			fail_msg("<%s> answer %zu: %s %s:%d %s %.9f, a rebuild: %s %s:%d %s %.9f", q,
				 i, x->repo, x->file_path, x->line, x->match_type, x->score, y->repo,
				 y->file_path, y->line, y->match_type, y->score);
		for (size_t k = 0; k < x->captures.n; k++)
			assert_string_equal(x->captures.v[k], y->captures.v[k]);
	}
}

static int on_log(const fl_logmatch *lm, void *ud)
{
	fl_buf_printf(ud, "%zu %s %s %.6f\n", lm->line, lm->m->id, lm->m->match_type,
		      lm->m->score);
	return 0;
}

static void grep_log(fl_lookup *lk, const char *log, fl_buf *g)
{
	memset(g, 0, sizeof *g);
	FILE *f = fmemopen((void *)log, strlen(log), "r");
	assert_non_null(f);
	fl_grep_stats stats;
	fl_err err;
	assert_int_equal(fl_grep_log(lk, f, NULL, on_log, g, &stats, &err), 0);
	fclose(f);
}

/* Every query answered by lk exactly as by a full rebuild of the store:
 * the records of every repository, each as its message (placeholders
 * filled), with a word dropped (fuzzy), by code, and a log of them. */
static void answers_as_rebuild(fl_lookup *lk)
{
	fl_store *copy;
	fl_lookup *full = rebuilt(&copy);
	assert_int_equal(fl_lookup_count(lk), fl_lookup_count(full));
	assert_string_equal(fl_lookup_version(lk), fl_lookup_version(full));
	fl_buf log = {0};
	size_t nq = 0;
	for (int i = 0; i < NREPOS; i++)
		for (int j = 0; j <= 10; j++)
			for (int v = 0; v < 2; v++) {
				char msg[256], code[32], path[64], q[512];
				if (!record(i, j, v, msg, sizeof msg, code, path))
					continue;
				/* placeholders filled */
				fl_buf b = {0};
				for (const char *p = msg; *p;) {
					const char *e = *p == '{' ? strchr(p, '}') : NULL;
					if (e) {
						fl_buf_printf(&b, "v%d", (int)(e - p));
						p = e + 1;
					} else {
						fl_buf_putc(&b, *p++);
					}
				}
				fl_buf_cstr(&b);
				const char *qs[4];
				size_t n = 0;
				qs[n++] = b.s;
				/* a word dropped: the fuzzy tier */
				const char *sp = strchr(b.s, ' ');
				snprintf(q, sizeof q, "%s", sp ? sp + 1 : b.s);
				qs[n++] = q;
				if (*code)
					qs[n++] = code;
				char line[600];
				snprintf(line, sizeof line, "2024-01-01 ERROR worker: %s", b.s);
				qs[n++] = line;
				fl_buf_printf(&log, "%s\n", line);
				fl_buf_printf(&log, "noise line %d %d\n", i, j);
				for (size_t k = 0; k < n; k++) {
					const char *repos[2] = {NULL, "org/r00"};
					for (int r = 0; r < 2; r++) {
						fl_result x, y;
						fl_lookup_explain(lk, qs[k], strlen(qs[k]), repos[r], 10, &x);
						fl_lookup_explain(full, qs[k], strlen(qs[k]), repos[r], 10,
								  &y);
						same_result(qs[k], repos[r], &x, &y, false);
						fl_result_free(&x);
						fl_result_free(&y);
						nq++;
					}
				}
				fl_buf_free(&b);
			}
	assert_true(nq > 500);
	/* ties between records of the same text in several repositories
	 * fall as in a rebuild: to the first by location */
	const char *ties[] = {"connection refused by upstream proxy", "ERR_SHARED_KIND",
			      "shared failure of kind disk", "E_R00_FAIL"};
	for (size_t k = 0; k < sizeof ties / sizeof ties[0]; k++) {
		fl_result x, y;
		fl_lookup_explain(lk, ties[k], strlen(ties[k]), NULL, 50, &x);
		fl_lookup_explain(full, ties[k], strlen(ties[k]), NULL, 50, &y);
		same_result(ties[k], NULL, &x, &y, true);
		for (size_t i = 0; i < x.n; i++)
			assert_true(x.v[i].entry < fl_lookup_count(lk));
		fl_result_free(&x);
		fl_result_free(&y);
	}
	fl_buf_cstr(&log);
	fl_buf ga, gb;
	grep_log(lk, log.s, &ga);
	grep_log(full, log.s, &gb);
	assert_true(ga.n > 0);
	fl_buf_cstr(&ga);
	fl_buf_cstr(&gb);
	assert_string_equal(ga.s, gb.s);
	fl_buf_free(&ga);
	fl_buf_free(&gb);
	fl_buf_free(&log);
	fl_lookup_close(full);
	fl_store_close(copy);
}

static struct stat base_stat(void)
{
	char *p = fl_xasprintf("%s.lookup", dbpath);
	struct stat sb;
	assert_int_equal(stat(p, &sb), 0);
	free(p);
	return sb;
}

static bool delta_exists(void)
{
	char *p = fl_xasprintf("%s.lookup.delta", dbpath);
	bool ok = access(p, F_OK) == 0;
	free(p);
	return ok;
}

/* Rescanning org/r00 (a record removed, one added, one changed): a delta,
 * the base untouched, the answers a rebuild gives; opened again, the
 * delta is loaded, not built. */
static void test_delta_after_rescan(void **state)
{
	(void)state;
	struct stat before = base_stat();
	rescan(0, 1);
	fl_lookup *lk = open_lookup();
	assert_int_equal(lk->nseg, 2);
	assert_true(fl_lookup_was_built(lk));
	assert_true(delta_exists());
	assert_int_equal(lk->seg[1].h->n_dead, 1);
	struct stat after = base_stat();
	assert_true(before.st_ino == after.st_ino && before.st_mtime == after.st_mtime);
	/* the new message found, the removed one not, the changed one anew */
	char msg[256], code[32], path[64];
	fl_result r;
	const char *quota = "quota exceeded for tenant acme in region eu";
	fl_lookup_explain(lk, quota, strlen(quota), "org/r00", 5, &r);
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].repo, "org/r00");
	assert_string_equal(r.v[0].file_path, "src/m10.c");
	fl_result_free(&r);
	record(0, 6, 0, msg, sizeof msg, code, path);
	fl_lookup_explain(lk, msg, strlen(msg), "org/r00", 5, &r);
	for (size_t i = 0; i < r.n; i++)
		assert_string_not_equal(r.v[i].file_path, "src/m6.c");
	fl_result_free(&r);
	answers_as_rebuild(lk);
	fl_lookup_close(lk);
	lk = open_lookup();
	assert_int_equal(lk->nseg, 2);
	assert_false(fl_lookup_was_built(lk));
	fl_lookup_close(lk);
}

/* A second repository rescanned: the delta covers both. */
static void test_delta_extended(void **state)
{
	(void)state;
	struct stat before = base_stat();
	rescan(7, 1);
	fl_lookup *lk = open_lookup();
	assert_int_equal(lk->nseg, 2);
	assert_true(fl_lookup_was_built(lk));
	assert_int_equal(lk->seg[1].h->n_dead, 2); /* org/r00 and org/r07 */
	struct stat after = base_stat();
	assert_true(before.st_ino == after.st_ino && before.st_mtime == after.st_mtime);
	answers_as_rebuild(lk);
	fl_lookup_close(lk);
}

/* A repository's records deleted: never answered. */
static void test_deleted_repository(void **state)
{
	(void)state;
	fl_err err;
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_clear_repo(st, "org/r05", &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_lookup *lk = open_lookup();
	assert_int_equal(lk->nseg, 2);
	assert_int_equal(fl_lookup_count(lk), (NREPOS - 1) * NREC);
	char msg[256], code[32], path[64];
	for (int j = 0; j < NREC; j++) {
		if (!record(5, j, 0, msg, sizeof msg, code, path))
			continue;
		const char *qs[2] = {msg, code};
		for (int k = 0; k < 2; k++) {
			if (!*qs[k])
				continue;
			fl_result r;
			fl_lookup_explain(lk, qs[k], strlen(qs[k]), NULL, 20, &r);
			for (size_t i = 0; i < r.n; i++)
				assert_string_not_equal(r.v[i].repo, "org/r05");
			fl_result_free(&r);
			fl_lookup_explain(lk, qs[k], strlen(qs[k]), "org/r05", 20, &r);
			assert_int_equal(r.n, 0);
			fl_result_free(&r);
		}
	}
	/* the code of r05 alone: no answer at all */
	fl_result r;
	fl_lookup_explain(lk, "E_R05_FAIL", 10, NULL, 5, &r);
	assert_int_equal(r.n, 0);
	fl_result_free(&r);
	answers_as_rebuild(lk);
	fl_lookup_close(lk);
}

/* A delta whose base was replaced (another build of the base, of the same
 * store state: g0.db, the store copied when the base was built) is not
 * used: a new one is made over the base there is. */
static void test_delta_of_another_base(void **state)
{
	(void)state;
	char *bp = fl_xasprintf("%s.lookup", dbpath);
	fl_lookup *lk = open_lookup();
	assert_int_equal(lk->nseg, 2);
	assert_false(fl_lookup_was_built(lk));
	fl_lookup_close(lk);
	/* the other base: built from the copy, put in the base's place */
	char g0[160];
	snprintf(g0, sizeof g0, "%s/g0.db", dir);
	fl_store *cs;
	fl_err err;
	assert_int_equal(fl_store_open(g0, true, &cs, &err), 0);
	assert_int_equal(fl_lookup_open(cs, &lk, &err), 0);
	assert_true(fl_lookup_was_built(lk));
	uint8_t stamp[16];
	memcpy(stamp, lk->seg[0].h->stamp, 16);
	fl_lookup_close(lk);
	fl_store_close(cs);
	char *from = fl_xasprintf("%s.lookup", g0);
	assert_int_equal(rename(from, bp), 0);
	free(from);
	lk = open_lookup();
	assert_int_equal(lk->nseg, 2);
	assert_true(fl_lookup_was_built(lk)); /* not the old delta */
	assert_memory_equal(lk->seg[0].h->stamp, stamp, 16);
	assert_memory_equal(lk->seg[1].h->base_stamp, stamp, 16);
	answers_as_rebuild(lk);
	fl_lookup_close(lk);
	free(bp);
}

/* A damaged delta (bytes overwritten, or cut short) is built again. */
static void test_damaged_delta(void **state)
{
	(void)state;
	rescan(3, 1);
	fl_lookup *lk = open_lookup();
	assert_int_equal(lk->nseg, 2);
	size_t off = (size_t)lk->seg[1].h->off_entries;
	fl_lookup_close(lk);
	char *dp = fl_xasprintf("%s.lookup.delta", dbpath);
	FILE *f = fopen(dp, "r+b");
	assert_non_null(f);
	fseek(f, (long)off, SEEK_SET);
	for (int i = 0; i < 256; i++)
		fputc(0xff, f);
	fclose(f);
	lk = open_lookup();
	assert_int_equal(lk->nseg, 2);
	assert_true(fl_lookup_was_built(lk));
	answers_as_rebuild(lk);
	fl_lookup_close(lk);
	struct stat sb;
	assert_int_equal(stat(dp, &sb), 0);
	assert_int_equal(truncate(dp, sb.st_size / 2), 0);
	lk = open_lookup();
	assert_int_equal(lk->nseg, 2);
	assert_true(fl_lookup_was_built(lk));
	fl_lookup_close(lk);
	free(dp);
}

/* Changes over FL_DELTA_SHARE of the records: the base is built again
 * and the delta dropped. */
static void test_large_change_rebuilds(void **state)
{
	(void)state;
	struct stat before = base_stat();
	fl_err err;
	assert_int_equal(fl_store_begin(st, &err), 0);
	for (int i = 8; i < NREPOS; i++) {
		char repo[32];
		snprintf(repo, sizeof repo, "org/r%02d", i);
		assert_int_equal(fl_store_clear_repo(st, repo, &err), 0);
		put_repo(i, 1);
	}
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_lookup *lk = open_lookup();
	assert_int_equal(lk->nseg, 1);
	assert_true(fl_lookup_was_built(lk));
	assert_false(delta_exists());
	struct stat after = base_stat();
	assert_true(before.st_ino != after.st_ino || before.st_mtime != after.st_mtime ||
		    before.st_size != after.st_size);
	answers_as_rebuild(lk);
	fl_lookup_close(lk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_after_rescan),
		cmocka_unit_test(test_delta_extended),
		cmocka_unit_test(test_deleted_repository),
		cmocka_unit_test(test_delta_of_another_base),
		cmocka_unit_test(test_damaged_delta),
		cmocka_unit_test(test_large_change_rebuilds),
	};
	if (getenv("FILTER"))
		cmocka_set_test_filter(getenv("FILTER"));
	return cmocka_run_group_tests_name("segment", tests, setup, teardown);
}
