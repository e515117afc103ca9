/*
 * test_serve.c — the serving front ends without sockets: the MCP server on
 * in-memory streams (JSON-RPC errors, version negotiation, tools), the data
 * set source (imported into the cache once per datasetVersion; a URL's
 * older datasetVersion refused unless allowed; a followed version's files
 * kept beside its store), the cache
 * folder rules and the Markdown of a record.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "faultline.h"
#include "publish/publish.h"
#include "serve/serve.h"
#include "test_util.h"

static char dir[64];

static char *path(const char *rel)
{
	char *s;
	if (asprintf(&s, "%s/%s", dir, rel) < 0)
		abort();
	return s;
}

static json_t *mj(const fl_match *m)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(m->id));
	json_object_set_new(o, "repo", json_string(m->repo));
	json_object_set_new(o, "slug", json_string(m->slug));
	json_object_set_new(o, "message", json_string(m->message));
	json_object_set_new(o, "score", json_real(m->score));
	json_object_set_new(o, "matchType", json_string(m->match_type));
	json_object_set_new(o, "filePath", json_string(m->file_path));
	json_object_set_new(o, "githubUrl", json_string(m->github_url));
	json_object_set_new(o, "lineNumber", json_integer(m->line));
	return o;
}

static char *make_store(const char *name)
{
	char *db = path(name);
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(db, false, &st, &err), 0);
	assert_int_equal(fl_store_begin(st, &err), 0);
	fl_repo r = {0};
	r.repo = strdup("acme/widgets");
	r.source_files = 2;
	r.default_branch = strdup("main");
	r.analyzed_sha = strdup("0123456789abcdef0123456789abcdef01234567");
	r.analyzed_at = strdup("2026-09-05T13:19:14.260Z");
	r.error_count = 2;
	assert_int_equal(fl_store_put_repo(st, &r, &err), 0);
	fl_repo_free(&r);
	const char *msgs[] = {"invalid widget size: {size}", "timeout of {ms}ms exceeded"};
	for (int i = 0; i < 2; i++) {
		fl_entry e;
		make_entry_for(&e, "acme/widgets", msgs[i], "src/size.rs", 20 + i);
		assert_int_equal(fl_store_put_entry(st, &e, NULL, &err), 0);
		fl_entry_free(&e);
	}
	assert_int_equal(fl_store_commit(st, &err), 0);
	fl_store_close(st);
	return db;
}

/* Run the MCP server over the given input lines; returns the output lines
 * parsed (a JSON array). */
static json_t *mcp_session(const char *db, const char *input)
{
	FILE *in = fmemopen((void *)input, strlen(input), "r");
	char *obuf = NULL;
	size_t olen = 0;
	FILE *out = open_memstream(&obuf, &olen);
	fl_mcp_opts o = {.db = db, .in = in, .out = out, .match_json = mj};
	fl_err err;
	assert_int_equal(fl_mcp_run(&o, &err), 0);
	fclose(in);
	fclose(out);
	json_t *arr = json_array();
	char *save = NULL;
	for (char *l = strtok_r(obuf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		json_t *x = json_loads(l, 0, NULL);
		assert_non_null(x);
		json_array_append_new(arr, x);
	}
	free(obuf);
	return arr;
}

static json_t *by_id(json_t *arr, json_int_t id)
{
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x)
		if (json_integer_value(json_object_get(x, "id")) == id)
			return x;
	return NULL;
}

static void test_mcp_protocol(void **state)
{
	(void)state;
	char *db = make_store("mcp.db");
	const char *input =
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
		"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
		"{oops\n"
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}\n"
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}\n"
		"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"search_error\",\"arguments\":{\"message\":\"thread 'main' panicked at src/size.rs:20:5:\\ninvalid widget size: 12\"}}}\n"
		"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"get_error\",\"arguments\":{\"id\":\"0000000000000000\"}}}\n"
		"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"search_error\",\"arguments\":{}}}\n"
		"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{}}\n"
		"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"list_repos\"}}\n";
	json_t *out = mcp_session(db, input);
	/* a notification is not answered: 9 answers to 10 lines */
	assert_int_equal(json_array_size(out), 9);
	json_t *r = by_id(out, 1);
	assert_string_equal(json_string_value(json_object_get(json_object_get(r, "result"), "protocolVersion")), "2025-03-26");
	json_t *pe = json_array_get(out, 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(pe, "error"), "code")), -32700);
	assert_true(json_is_null(json_object_get(pe, "id")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(by_id(out, 2), "error"), "code")), -32601);
	assert_int_equal(json_array_size(json_object_get(json_object_get(by_id(out, 3), "result"), "tools")), 5);
	json_t *sr = json_object_get(by_id(out, 4), "result");
	assert_true(json_is_false(json_object_get(sr, "isError")));
	json_t *m0 = json_array_get(json_object_get(json_object_get(sr, "structuredContent"), "matches"), 0);
	assert_string_equal(json_string_value(json_object_get(m0, "filePath")), "src/size.rs");
	assert_int_equal(json_integer_value(json_object_get(m0, "lineNumber")), 20);
	assert_true(json_is_true(json_object_get(json_object_get(by_id(out, 5), "result"), "isError")));
	assert_true(json_is_true(json_object_get(json_object_get(by_id(out, 6), "result"), "isError")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(by_id(out, 7), "error"), "code")), -32602);
	json_t *lr = json_object_get(json_object_get(by_id(out, 8), "result"), "structuredContent");
	assert_int_equal(json_array_size(json_object_get(lr, "repos")), 1);
	json_decref(out);
	free(db);
	fl_lookup_thread_done();
}

static void test_source_dir_imported_once_per_version(void **state)
{
	(void)state;
	char *db = make_store("src.db");
	char *data = path("data"), *cache = path("cache");
	fl_store *st;
	fl_err err;
	fl_export_stats es;
	assert_int_equal(fl_store_open(db, true, &st, &err), 0);
	assert_int_equal(fl_export(st, data, &es, &err), 0);

	srv_source s;
	bool changed = false;
	assert_int_equal(srv_source_init(&s, NULL, data, NULL, cache, 0, false, &err), 0);
	assert_int_equal(srv_source_refresh(&s, false, &changed, &err), 0);
	assert_true(changed);
	assert_string_equal(s.version, es.dataset_version);
	char *first = strdup(s.store_path);
	assert_int_equal(srv_source_refresh(&s, false, &changed, &err), 0);
	assert_false(changed);
	assert_string_equal(s.store_path, first);

	/* a new export: a new store, switched to */
	usleep(2000);
	assert_int_equal(fl_export(st, data, &es, &err), 0);
	assert_int_equal(srv_source_refresh(&s, false, &changed, &err), 0);
	assert_true(changed);
	assert_string_equal(s.version, es.dataset_version);
	assert_string_not_equal(s.store_path, first);
	fl_store *c;
	assert_int_equal(fl_store_open(s.store_path, true, &c, &err), 0);
	assert_int_equal(fl_store_count_entries(c, NULL), 2);
	fl_store_close(c);
	srv_source_free(&s);
	fl_store_close(st);
	free(first);
	free(db);
	free(data);
	free(cache);
}

static void test_source_url_without_cache_fails(void **state)
{
	(void)state;
	char *cache = path("cache-none");
	srv_source s;
	fl_err err;
	assert_int_equal(srv_source_init(&s, NULL, NULL, "file:///nonexistent/faultline/data/", cache, 0, false, &err), 0);
	assert_int_equal(srv_source_refresh(&s, false, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "no cached copy"));
	srv_source_free(&s);
	assert_int_equal(srv_source_init(&s, NULL, NULL, "ftp://example.org/data", cache, 0, false, &err), -1);
	srv_source_free(&s);
	free(cache);
}

/* A file:// data set URL: the newest version is synced; an older one served
 * at the same URL afterwards is refused (the cache kept, stale, the error
 * naming both versions) unless allow_rollback. */
static void test_source_url_refuses_rollback(void **state)
{
	(void)state;
	char *db = make_store("rb.db");
	char *pub = path("rb-pub"), *older = path("rb-old"), *cache = path("rb-cache");
	fl_store *st;
	fl_err err;
	fl_export_stats es;
	assert_int_equal(fl_store_open(db, true, &st, &err), 0);
	assert_int_equal(fl_export(st, older, &es, &err), 0);
	char v1[64];
	snprintf(v1, sizeof v1, "%s", es.dataset_version);
	usleep(2000);
	assert_int_equal(fl_export(st, pub, &es, &err), 0);
	char v2[64];
	snprintf(v2, sizeof v2, "%s", es.dataset_version);
	fl_store_close(st);

	char *url;
	assert_true(asprintf(&url, "file://%s", pub) > 0);
	srv_source s;
	bool changed = false;
	assert_int_equal(srv_source_init(&s, NULL, NULL, url, cache, 0, false, &err), 0);
	assert_int_equal(srv_source_refresh(&s, false, &changed, &err), 0);
	assert_string_equal(s.version, v2);
	assert_false(s.stale);

	assert_int_equal(pub_rmtree(pub), 0);
	assert_int_equal(rename(older, pub), 0);
	assert_int_equal(srv_source_refresh(&s, true, &changed, &err), 0);
	assert_false(changed);
	assert_string_equal(s.version, v2);
	assert_true(s.stale);
	assert_non_null(strstr(s.last_error, "older than the cached"));
	assert_non_null(strstr(s.last_error, v1));
	assert_non_null(strstr(s.last_error, v2));

	s.allow_rollback = true;
	assert_int_equal(srv_source_refresh(&s, true, &changed, &err), 0);
	assert_true(changed);
	assert_string_equal(s.version, v1);
	assert_false(s.stale);
	srv_source_free(&s);
	free(url);
	free(db);
	free(pub);
	free(older);
	free(cache);
}

/* The datasetVersion named by the manifest.json of the folder dir */
static char *files_version(const char *d)
{
	char *mp;
	assert_true(asprintf(&mp, "%s/manifest.json", d) > 0);
	json_t *m = json_load_file(mp, 0, NULL);
	free(mp);
	assert_non_null(m);
	char *v = strdup(json_string_value(json_object_get(m, "datasetVersion")));
	json_decref(m);
	return v;
}

/* serve --data-url keeps the verified files of the followed version beside
 * its store (its site and /data/ are rendered from them): named in
 * state.json, so a restart (here --offline) finds them; the previous
 * version's are kept while it may still be served, older ones pruned; a
 * sync without keep_files (mcp) keeps none. */
static void test_source_url_keeps_files(void **state)
{
	(void)state;
	char *db = make_store("kf.db");
	char *pub = path("kf-pub"), *cache = path("kf-cache"), *cache2 = path("kf-cache2");
	fl_store *st;
	fl_err err;
	fl_export_stats es;
	assert_int_equal(fl_store_open(db, true, &st, &err), 0);
	assert_int_equal(fl_export(st, pub, &es, &err), 0);
	char *url;
	assert_true(asprintf(&url, "file://%s", pub) > 0);

	srv_source s;
	bool changed = false;
	assert_int_equal(srv_source_init(&s, NULL, NULL, url, cache, 0, false, &err), 0);
	s.keep_files = true;
	assert_int_equal(srv_source_refresh(&s, false, &changed, &err), 0);
	assert_true(changed);
	assert_non_null(s.files);
	char *v = files_version(s.files);
	assert_string_equal(v, es.dataset_version);
	assert_string_equal(v, s.version);
	free(v);
	char *first = strdup(s.files);

	usleep(2000);
	assert_int_equal(fl_export(st, pub, &es, &err), 0);
	assert_int_equal(srv_source_refresh(&s, true, &changed, &err), 0);
	assert_true(changed);
	assert_string_not_equal(s.files, first);
	v = files_version(s.files);
	assert_string_equal(v, es.dataset_version);
	free(v);
	assert_true(pub_is_dir(first)); /* the previous version's, kept */
	char *second = strdup(s.files);

	usleep(2000);
	assert_int_equal(fl_export(st, pub, &es, &err), 0);
	assert_int_equal(srv_source_refresh(&s, true, &changed, &err), 0);
	assert_true(changed);
	assert_false(pub_is_dir(first));
	assert_true(pub_is_dir(second));
	char *third = strdup(s.files);
	srv_source_free(&s);

	/* a restart over the cache finds the files of the version it serves */
	assert_int_equal(srv_source_init(&s, NULL, NULL, url, cache, 0, true, &err), 0);
	assert_int_equal(srv_source_refresh(&s, false, &changed, &err), 0);
	assert_string_equal(s.version, es.dataset_version);
	assert_non_null(s.files);
	assert_string_equal(s.files, third);
	srv_source_free(&s);

	/* without keep_files: a store only */
	assert_int_equal(srv_source_init(&s, NULL, NULL, url, cache2, 0, false, &err), 0);
	assert_int_equal(srv_source_refresh(&s, false, &changed, &err), 0);
	assert_string_equal(s.version, es.dataset_version);
	assert_null(s.files);
	srv_source_free(&s);

	fl_store_close(st);
	free(first);
	free(second);
	free(third);
	free(url);
	free(db);
	free(pub);
	free(cache);
	free(cache2);
}

static void test_cache_dir(void **state)
{
	(void)state;
	char *c = fl_cache_dir("/x/y");
	assert_string_equal(c, "/x/y");
	free(c);
	setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
	c = fl_cache_dir(NULL);
	assert_string_equal(c, "/tmp/xdg/faultline");
	free(c);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/u", 1);
	c = fl_cache_dir(NULL);
	assert_string_equal(c, "/home/u/.cache/faultline");
	free(c);
}

static void test_markdown(void **state)
{
	(void)state;
	fl_entry e;
	make_entry(&e);
	e.handling_strategy = strdup("validation");
	e.validation_code = strdup("if size <= 0 { return Err(...) }");
	char *md = srv_entry_markdown(&e);
	assert_non_null(strstr(md, "# invalid widget size: {size}"));
	assert_non_null(strstr(md, "1. Pass a valid size."));
	assert_non_null(strstr(md, "## Defensive pattern"));
	assert_non_null(strstr(md, "Permalink: https://github.com/acme/widgets/blob/"));
	free(md);
	fl_entry_free(&e);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/fl-test-serve-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mcp_protocol),
		cmocka_unit_test(test_source_dir_imported_once_per_version),
		cmocka_unit_test(test_source_url_without_cache_fails),
		cmocka_unit_test(test_source_url_refuses_rollback),
		cmocka_unit_test(test_source_url_keeps_files),
		cmocka_unit_test(test_cache_dir),
		cmocka_unit_test(test_markdown),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
