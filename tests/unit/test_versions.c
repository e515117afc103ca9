/*
 * test_versions.c — tag names as versions (order, releases, the default
 * release tags), runs of versions, a record's runs in the store, and
 * what a history scan that resumes reads back.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "faultline.h"
#include "scan/versions.h"
#include "store_internal.h"
#include "test_util.h"

static void test_parse(void **state)
{
	(void)state;
	fl_version_name v;
	fl_version_parse("v2.39.5", &v);
	assert_int_equal(v.prefix_len, 1);
	assert_int_equal(v.nnums, 3);
	assert_int_equal(v.nums[0], 2);
	assert_int_equal(v.nums[1], 39);
	assert_int_equal(v.nums[2], 5);
	assert_string_equal(v.suffix, "");
	fl_version_parse("gitgui-0.10.0", &v);
	assert_int_equal(v.prefix_len, 7);
	assert_int_equal(v.nnums, 3);
	assert_int_equal(v.nums[1], 10);
	fl_version_parse("v2.40.0-rc0", &v);
	assert_string_equal(v.suffix, "-rc0");
	fl_version_parse("junio-gpg-pub", &v);
	assert_int_equal(v.nnums, 0);
	/* a dot not followed by a digit ends the numbers */
	fl_version_parse("1.0.beta2", &v);
	assert_int_equal(v.nnums, 2);
	assert_string_equal(v.suffix, ".beta2");
}

static void test_releases(void **state)
{
	(void)state;
	const char *rel[] = {"v2.39.5", "1.0", "release-3", "serde-1.0.197", "v10"};
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++)
		if (!fl_version_is_release(rel[i]))
			fail_msg("%s should be a release", rel[i]);
	const char *pre[] = {"v2.40.0-rc0", "1.0.0.beta2", "v3.0-dev", "nightly",
			     "v1.0.0-alpha.1", "2.0.0a1", "v1.2.3-pre", "latest"};
	for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
		if (fl_version_is_release(pre[i]))
			fail_msg("%s should not be a release", pre[i]);
	assert_true(fl_version_suffix_is_pre("-rc1"));
	assert_true(fl_version_suffix_is_pre("a1"));
	assert_true(fl_version_suffix_is_pre("-beta"));
	assert_false(fl_version_suffix_is_pre("-windows"));
	assert_false(fl_version_suffix_is_pre(".post1"));
	/* one letter only before a number */
	assert_false(fl_version_suffix_is_pre("-a"));
}

static int cmp_names(const void *a, const void *b)
{
	return fl_version_cmp(*(const char *const *)a, *(const char *const *)b);
}

static void test_order(void **state)
{
	(void)state;
	/* shuffled; sorted must come out as `want` */
	const char *names[] = {
		"v2.10.0", "v2.9.0", "v2.40.0", "v2.40.0-rc1", "v2.40.0-rc0", "nightly",
		"v2.1.0", "v2.40.1", "v2.40.0.windows.1", "v2.2", "v2.2.0.1", "v1.9.5",
		"v2.40.0-rc10", "v2.40.0-rc2", "latest",
	};
	const char *want[] = {
		"v1.9.5", "v2.1.0", "v2.2", "v2.2.0.1", "v2.9.0", "v2.10.0",
		"v2.40.0-rc0", "v2.40.0-rc1", "v2.40.0-rc2", "v2.40.0-rc10", "v2.40.0",
		"v2.40.0.windows.1", "v2.40.1", "latest", "nightly",
	};
	size_t n = sizeof names / sizeof names[0];
	assert_int_equal(n, sizeof want / sizeof want[0]);
	qsort(names, n, sizeof *names, cmp_names);
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], want[i]) != 0)
			fail_msg("position %zu: %s, want %s", i, names[i], want[i]);
	assert_int_equal(fl_version_cmp("v1.0", "v1.0.0"), -1);
	assert_int_equal(fl_version_cmp("v1.0.0", "1.0.0"), 1);
	assert_int_equal(fl_version_cmp("v2.39.5", "v2.39.5"), 0);
}

static void test_pick_releases(void **state)
{
	(void)state;
	/* git's tags: its own v* releases, git-gui's merged in, a key */
	const char *names[] = {"v2.0.0", "v2.1.0", "v2.1.0-rc1", "gitgui-0.10.0", "v2.2.0",
			       "gitgui-0.10.1", "junio-gpg-pub", "v1.0rc1", "v2.3.0"};
	bool keep[9];
	assert_int_equal(fl_version_pick_releases(names, 9, keep), 4);
	bool want[9] = {true, true, false, false, true, false, false, false, true};
	for (int i = 0; i < 9; i++)
		if (keep[i] != want[i])
			fail_msg("%s: %s", names[i], keep[i] ? "kept" : "left out");
	/* a tie: the shorter prefix */
	const char *tie[] = {"release-1.0", "1.1", "release-1.2", "1.3"};
	bool k2[4];
	assert_int_equal(fl_version_pick_releases(tie, 4, k2), 2);
	assert_false(k2[0]);
	assert_true(k2[1]);
	assert_true(k2[3]);
	/* no release at all */
	const char *none[] = {"latest", "v1.0-rc1"};
	assert_int_equal(fl_version_pick_releases(none, 2, k2), 0);
	assert_false(k2[0] || k2[1]);
}

static void test_runs(void **state)
{
	(void)state;
	fl_vruns r = {0};
	fl_vruns_add(&r, 0, 7, 10);
	fl_vruns_add(&r, 1, 7, 10);  /* same blob and line: the run grows */
	fl_vruns_add(&r, 2, 7, 10);
	fl_vruns_add(&r, 3, 8, 10);  /* another blob: a new run */
	fl_vruns_add(&r, 4, 8, 12);  /* another line: a new run */
	fl_vruns_add(&r, 7, 8, 12);  /* a gap: a new run */
	fl_vruns_add(&r, 8, 8, 12);
	assert_int_equal(r.n, 4);
	int want[4][4] = {{0, 2, 10, 7}, {3, 3, 10, 8}, {4, 4, 12, 8}, {7, 8, 12, 8}};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(r.v[i].first, want[i][0]);
		assert_int_equal(r.v[i].last, want[i][1]);
		assert_int_equal(r.v[i].line, want[i][2]);
		assert_int_equal(r.v[i].blob, (uint32_t)want[i][3]);
	}
	fl_vruns_free(&r);
	assert_int_equal(r.n, 0);
}

/* A new store at a unique path made from path (a mkstemp template). */
static fl_store *tmp_store(char *path)
{
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(path, false, &st, &err), 0);
	return st;
}

static void tmp_store_remove(const char *path)
{
	static const char *const sfx[] = {"", "-wal", "-shm"};
	for (size_t i = 0; i < 3; i++) {
		char p[64];
		snprintf(p, sizeof p, "%s%s", path, sfx[i]);
		unlink(p);
	}
}

/* runs written and read back; a plain scan's clear takes them away */
static void test_store_runs(void **state)
{
	(void)state;
	char path[] = "/tmp/fl-test-versions-XXXXXX";
	fl_store *st = tmp_store(path);
	fl_err err;
	fl_entry e;
	make_entry(&e);
	fl_version vs[4] = {{"v1.0.0", "1111111111111111111111111111111111111111"},
			    {"v1.1.0", "2222222222222222222222222222222222222222"},
			    {"v1.2.0", "3333333333333333333333333333333333333333"},
			    {"HEAD", "4444444444444444444444444444444444444444"}};
	const char *blobs[] = {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			       "00112233445566778899aabbccddeeff00112233"};
	fl_version_run runs[3] = {{0, 0, 5, 1, ""}, {2, 2, 300, 0, ""}, {3, 3, 301, -1, ""}};
	const fl_version_run *rp[1] = {runs};
	size_t nr[1] = {3};
	const char *ids[1] = {e.id};
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e, NULL, &err), 0);
	assert_int_equal(fl_store_put_versions(st, e.repo, vs, 4, blobs, 2, &err), 0);
	assert_int_equal(fl_store_put_record_runs(st, ids, rp, nr, 1, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_record_versions v;
	assert_int_equal(fl_store_get_record_versions(st, e.repo, e.id, &v, &err), 1);
	assert_int_equal(v.nversions, 4);
	assert_string_equal(v.versions[3].name, "HEAD");
	assert_string_equal(v.versions[1].sha, vs[1].sha);
	assert_int_equal(v.nruns, 3);
	assert_int_equal(v.runs[0].first, 0);
	assert_int_equal(v.runs[0].last, 0);
	assert_int_equal(v.runs[0].line, 5);
	assert_string_equal(v.runs[0].blob, blobs[1]);
	assert_int_equal(v.runs[1].first, 2);
	assert_int_equal(v.runs[1].last, 2);
	assert_int_equal(v.runs[1].line, 300);
	assert_string_equal(v.runs[1].blob, blobs[0]);
	/* a run whose blob is not known (imported from a data set) */
	assert_int_equal(v.runs[2].first, 3);
	assert_int_equal(v.runs[2].line, 301);
	assert_int_equal(v.runs[2].blobno, -1);
	assert_string_equal(v.runs[2].blob, "");
	int ver;
	/* by tag, by number, HEAD; a version without it; an unknown one */
	assert_int_equal(fl_record_versions_find(&v, "v1.0.0", &ver), 0);
	assert_int_equal(ver, 0);
	assert_int_equal(fl_record_versions_find(&v, "1.2.0", &ver), 1);
	assert_int_equal(ver, 2);
	assert_int_equal(fl_record_versions_find(&v, "HEAD", &ver), 2);
	assert_int_equal(ver, 3);
	assert_int_equal(fl_record_versions_find(&v, "1.1.0", &ver), -1);
	assert_int_equal(ver, 1);
	assert_int_equal(fl_record_versions_find(&v, "9.9", &ver), -1);
	assert_int_equal(ver, -1);
	fl_record_versions_free(&v);
	/* runs out of order are refused */
	fl_version_run bad[2] = {{2, 3, 1, 0, ""}, {1, 1, 1, 0, ""}};
	const fl_version_run *bp[1] = {bad};
	assert_int_equal(fl_store_begin(st, &err), 0);
	size_t nb[1] = {2};
	assert_int_equal(fl_store_put_record_runs(st, ids, bp, nb, 1, &err), -1);
	assert_non_null(strstr(err.msg, "out of order"));
	fl_store_rollback(st);
	/* clearing the repository's records takes their runs */
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_clear_repo(st, e.repo, &err), 0);
	assert_int_equal(fl_store_clear_versions(st, e.repo, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_store_get_record_versions(st, e.repo, e.id, &v, &err), 0);
	fl_store_close(st);
	fl_entry_free(&e);
	tmp_store_remove(path);
}

static int count_rec(const char *id, const char *path, const char *language, const char *slug,
		     const char *text, const fl_version_run *runs, size_t n, void *ud)
{
	char *out = ud;
	(void)text;
	(void)language;
	snprintf(out + strlen(out), 512 - strlen(out), "%s %s %s %zu:%d-%d@%d;", id, path, slug, n,
		 n ? runs[0].first : -1, n ? runs[n - 1].last : -1, n ? runs[0].blobno : -2);
	return 0;
}

/* What a history scan that resumes reads: the key of its options, the
 * blobs by number, each record's file and runs; a scan's clearing of the
 * versions drops the key; records kept by id. */
static void test_store_resume_state(void **state)
{
	(void)state;
	char path[] = "/tmp/fl-test-versions-XXXXXX";
	fl_store *st = tmp_store(path);
	fl_err err;
	fl_entry e, e2;
	make_entry(&e);
	make_entry(&e2);
	free(e2.id);
	e2.id = strdup("00000000000000aa");
	free(e2.slug);
	e2.slug = strdup("another-slug");
	fl_version vs[2] = {{"v1.0.0", "1111111111111111111111111111111111111111"},
			    {"HEAD", "4444444444444444444444444444444444444444"}};
	const char *blobs[] = {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			       "00112233445566778899aabbccddeeff00112233"};
	fl_version_run runs[1] = {{0, 1, 7, 1, ""}};
	const fl_version_run *rp[1] = {runs};
	size_t nr[1] = {1};
	const char *ids[1] = {e.id};
	char key[64];
	assert_int_equal(fl_store_history_get_key(st, e.repo, key, sizeof key, &err), 0);
	assert_string_equal(key, "");
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e, NULL, &err), 0);
	assert_int_equal(fl_store_put_entry(st, &e2, NULL, &err), 0);
	assert_int_equal(fl_store_put_versions(st, e.repo, vs, 2, blobs, 2, &err), 0);
	assert_int_equal(fl_store_put_record_runs(st, ids, rp, nr, 1, &err), 0);
	assert_int_equal(fl_store_history_put_key(st, e.repo, "faultline x; tests 0", &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_store_history_get_key(st, e.repo, key, sizeof key, &err), 0);
	assert_string_equal(key, "faultline x; tests 0");
	char (*hex)[41];
	size_t nhex;
	assert_int_equal(fl_store_get_version_blobs(st, e.repo, &hex, &nhex, &err), 0);
	assert_int_equal(nhex, 2);
	assert_string_equal(hex[0], blobs[0]);
	assert_string_equal(hex[1], blobs[1]);
	free(hex);
	/* each record, by id: one without runs says so */
	char seen[512] = "";
	assert_int_equal(fl_store_each_history_record(st, e.repo, count_rec, seen, &err), 0);
	char want[512];
	snprintf(want, sizeof want, "00000000000000aa %s another-slug 0:-1--1@-2;%s %s %s 1:0-1@1;",
		 e2.file_path, e.id, e.file_path, e.slug);
	assert_string_equal(seen, want);
	/* records kept by id: the other goes, with its runs */
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_clear_repo_except_ids(st, e.repo, "[\"00000000000000aa\"]", &err),
			 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	seen[0] = '\0';
	assert_int_equal(fl_store_each_history_record(st, e.repo, count_rec, seen, &err), 0);
	snprintf(want, sizeof want, "00000000000000aa %s another-slug 0:-1--1@-2;", e2.file_path);
	assert_string_equal(seen, want);
	/* a scan clears the versions: the key goes with them */
	assert_int_equal(fl_store_begin(st, &err), 0);
	assert_int_equal(fl_store_clear_versions(st, e.repo, &err), 0);
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_store_history_get_key(st, e.repo, key, sizeof key, &err), 0);
	assert_string_equal(key, "");
	assert_int_equal(fl_store_get_version_blobs(st, e.repo, &hex, &nhex, &err), 0);
	assert_int_equal(nhex, 0);
	free(hex);
	fl_store_close(st);
	fl_entry_free(&e);
	fl_entry_free(&e2);
	tmp_store_remove(path);
}

/* the versions a pasted text names, as the lookup reads them */
static void test_text_versions(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"git version 2.39.5\nfatal: No rebase in progress?", "2.39.5"},
		{"cargo 1.95.0 (f2d3ce0bd 2026-03-21)\nerror: failed", "1.95.0"},
		{"npm error code E404\nnpm@10.8.2 /usr/lib/node_modules/npm", "10.8.2"},
		{"Python 3.11.7\nValueError: bad", "3.11.7"},
		{"User-Agent: git/2.39.5 (linux)", "2.39.5"},
		{"thread 'main' panicked at /root/.cargo/registry/src/serde-1.0.197/src/de/mod.rs:12:5:", "1.0.197"},
		{"release v2.40.0-rc0 failed", "2.40.0"},
		/* no version: a time, an address, a float in prose, a word */
		{"at 13:12:33.123 the value was 0.5", ""},
		{"connect 10.0.0.1:80 refused", ""},
		{"version2.3x is not a version", ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fl_strv v = {0};
		fl_text_versions(cases[i].text, strlen(cases[i].text), &v);
		const char *got = v.n ? v.v[0] : "";
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("\"%s\": %s, want %s", cases[i].text, got, cases[i].want);
		fl_strv_free(&v);
	}
	/* several, in text order */
	fl_strv v = {0};
	const char *t = "git/2.39.5 talking to git version 2.45.1";
	assert_int_equal(fl_text_versions(t, strlen(t), &v), 2);
	assert_string_equal(v.v[0], "2.39.5");
	assert_string_equal(v.v[1], "2.45.1");
	fl_strv_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_releases),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_pick_releases),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_store_runs),
		cmocka_unit_test(test_store_resume_state),
		cmocka_unit_test(test_text_versions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
