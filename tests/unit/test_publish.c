/*
 * test_publish.c — publishing: export (layout, inventory, monotonic
 * version, search shards), import (round trip, all-or-nothing, corrupt data
 * sets named by file and field), HTML escaping and Markdown rendering, the
 * fast record reader and JSON writers against jansson, the site written in
 * place (each file by rename), a data set's files opened beneath its folder
 * (no link followed, nothing but regular files), streamed hashes.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "faultline.h"
#include "publish/publish.h"
#include "sha256.h"
#include "test_util.h"
#include "util.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/fl-publish-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return pub_rmtree(dir);
}

static char *p(const char *rel)
{
	return fl_xasprintf("%s/%s", dir, rel);
}

static fl_repo make_repo(const char *name, long long count)
{
	fl_repo r = {0};
	r.repo = strdup(name);
	r.language = strdup("rust");
	r.source_files = 3;
	r.default_branch = strdup("main");
	r.analyzed_sha = strdup("0123456789abcdef0123456789abcdef01234567");
	r.analyzed_at = strdup("2026-09-05T13:19:14.260Z");
	r.error_count = count;
	return r;
}

/* A store with two repositories and three records. */
static fl_store *make_store(const char *name)
{
	char *db = p(name);
	fl_store *st;
	fl_err err;
	assert_int_equal(fl_store_open(db, false, &st, &err), 0);
	free(db);
	assert_int_equal(fl_store_begin(st, &err), 0);
	const char *msgs[] = {"invalid widget size: {size}", "widget <b>locked</b> & gone", "timeout of {ms}ms exceeded"};
	const char *repos[] = {"acme/widgets", "acme/widgets", "zeta/tools"};
	for (int i = 0; i < 3; i++) {
		fl_entry e;
		make_entry_for(&e, repos[i], msgs[i], "src/size.rs", 20 + i);
		assert_int_equal(fl_store_put_entry(st, &e, NULL, &err), 0);
		fl_entry_free(&e);
	}
	fl_repo r = make_repo("acme/widgets", 2);
	assert_int_equal(fl_store_put_repo(st, &r, &err), 0);
	fl_repo_free(&r);
	r = make_repo("zeta/tools", 1);
	assert_int_equal(fl_store_put_repo(st, &r, &err), 0);
	fl_repo_free(&r);
	r = make_repo("empty/repo", 0);
	assert_int_equal(fl_store_put_repo(st, &r, &err), 0);
	fl_repo_free(&r);
	assert_int_equal(fl_store_commit(st, &err), 0);
	return st;
}

static void test_export_layout(void **state)
{
	(void)state;
	fl_store *st = make_store("a.db");
	char *out = p("ds");
	fl_err err;
	fl_export_stats s1, s2;
	assert_int_equal(fl_export(st, out, &s1, &err), 0);
	assert_int_equal(s1.errors, 3);
	assert_int_equal(s1.repos, 3);
	const char *files[] = {"manifest.json", "index.json", "repos.json", "repos/acme/widgets.json",
		"repos/zeta/tools.json", "repos/empty/repo.json", "search/summary.json", "search/codes.json",
		"search/norms.json", "search/meta/0.json", "search/ids/00.json", "search/tokens/ff.json", NULL};
	for (int i = 0; files[i]; i++) {
		char *f = fl_xasprintf("%s/%s", out, files[i]);
		assert_true(pub_exists(f));
		free(f);
	}
	fl_import_stats vs;
	assert_int_equal(fl_dataset_verify(out, &vs, &err), 0);
	assert_int_equal(vs.errors, 3);
	/* a second export right away still gets a later version */
	assert_int_equal(fl_export(st, out, &s2, &err), 0);
	assert_true(strcmp(s2.dataset_version, s1.dataset_version) > 0);
	/* no temporary or backup sibling is left */
	char *tmpglob = fl_xasprintf("ls -d %s/ds.* 2>/dev/null | grep -q .", dir);
	assert_int_not_equal(system(tmpglob), 0);
	free(tmpglob);
	free(out);
	fl_store_close(st);
}

static void test_import_roundtrip(void **state)
{
	(void)state;
	fl_store *st = make_store("b.db");
	char *out = p("ds2");
	fl_err err;
	assert_int_equal(fl_export(st, out, NULL, &err), 0);
	fl_store_close(st);
	char *db = p("c.db");
	fl_store *st2;
	assert_int_equal(fl_store_open(db, false, &st2, &err), 0);
	fl_import_stats is;
	assert_int_equal(fl_import(st2, out, &is, &err), 0);
	assert_int_equal(is.errors, 3);
	assert_int_equal(fl_store_count_entries(st2, NULL), 3);
	fl_repo r;
	assert_int_equal(fl_store_get_repo(st2, "empty/repo", &r, &err), 1);
	fl_repo_free(&r);
	fl_store_close(st2);
	free(db);
	free(out);
}

static void corrupt_and_expect(const char *rel, const char *from, const char *to,
			       const char *want1, const char *want2)
{
	fl_store *st = make_store("d.db");
	char *out = p("ds3");
	fl_err err;
	assert_int_equal(fl_export(st, out, NULL, &err), 0);
	char *f = fl_xasprintf("%s/%s", out, rel);
	size_t len;
	char *data = fl_read_file(f, &len, &err);
	assert_non_null(data);
	char *at = strstr(data, from);
	assert_non_null(at);
	fl_buf b = {0};
	fl_buf_put(&b, data, (size_t)(at - data));
	fl_buf_puts(&b, to);
	fl_buf_puts(&b, at + strlen(from));
	assert_int_equal(pub_write_file(f, fl_buf_cstr(&b), b.n, &err), 0);
	/* the store must not change */
	long long before = fl_store_count_entries(st, NULL);
	assert_int_equal(fl_import(st, out, NULL, &err), -1);
	assert_int_equal(fl_store_count_entries(st, NULL), before);
	if (!strstr(err.msg, want1) || !strstr(err.msg, want2))
		fail_msg("message '%s' lacks '%s' / '%s'", err.msg, want1, want2);
	fl_buf_free(&b);
	free(data);
	free(f);
	pub_rmtree(out);
	free(out);
	fl_store_close(st);
	char *db = p("d.db");
	unlink(db);
	free(db);
}

static void test_import_rejects(void **state)
{
	(void)state;
	corrupt_and_expect("repos.json", "\"rust\"", "\"Rust\"", "sha256", "repos.json");
	corrupt_and_expect("manifest.json", "\"schemaVersion\":2", "\"schemaVersion\":3",
			   "manifest.json", "schemaVersion");
	corrupt_and_expect("search/summary.json", "}", "", "search/summary.json", "bytes");
}

static void test_escaping(void **state)
{
	(void)state;
	fl_buf b = {0};
	pub_html(&b, "<script>alert('x') & \"y\"</script>");
	assert_string_equal(fl_buf_cstr(&b), "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;");
	b.n = 0;
	pub_markdown(&b, "Raised when <script>alert(1)</script> is `a<b`.\n\n<div>block</div>\n\n[x](javascript:alert(1))");
	assert_null(strstr(fl_buf_cstr(&b), "<script"));
	assert_null(strstr(fl_buf_cstr(&b), "<div"));
	assert_null(strstr(fl_buf_cstr(&b), "javascript:"));
	assert_non_null(strstr(fl_buf_cstr(&b), "&lt;script&gt;"));
	assert_non_null(strstr(fl_buf_cstr(&b), "<code>a&lt;b</code>"));
	fl_buf_free(&b);
	json_t *o = json_pack("{s:s}", "x", "</script><!--");
	char *s = pub_json_dump(o, true);
	assert_null(strstr(s, "<"));
	free(s);
	json_decref(o);
}

/* The fast reader gives what jansson + fl_entry_from_jobj give, and
 * declines (0) whatever it does not take exactly. */
static void test_fast_reader(void **state)
{
	(void)state;
	fl_entry e;
	make_entry(&e);
	free(e.documentation);
	e.documentation = strdup("caf\xc3\xa9 \"quoted\" \\ tab\there\nline \xf0\x9f\x98\x80 \x01 </script>");
	char *json = fl_entry_to_json(&e, false);
	fl_entry a, b;
	fl_err err;
	const char *p = json;
	assert_int_equal(pub_entry_read(&p, json + strlen(json), &a), 1);
	assert_ptr_equal(p, json + strlen(json));
	assert_int_equal(fl_entry_from_json(json, strlen(json), &b, &err), 0);
	char *ja = fl_entry_to_json(&a, false), *jb = fl_entry_to_json(&b, false);
	assert_string_equal(ja, json);
	assert_string_equal(jb, json);
	assert_string_equal(a.documentation, e.documentation);
	free(ja);
	free(jb);
	fl_entry_free(&a);
	fl_entry_free(&b);
	/* escapes jansson writes differently (\u00e9, a surrogate pair, \/) */
	fl_buf t = {0};
	const char *at = strstr(json, "caf");
	fl_buf_put(&t, json, (size_t)(at - json));
	fl_buf_puts(&t, "caf\\u00e9 \\ud83d\\ude00 a\\/b");
	fl_buf_puts(&t, strstr(at, "\",\"triggerScenarios\""));
	p = fl_buf_cstr(&t);
	assert_int_equal(pub_entry_read(&p, t.s + t.n, &a), 1);
	assert_string_equal(a.documentation, "caf\xc3\xa9 \xf0\x9f\x98\x80 a/b");
	fl_entry_free(&a);
	fl_buf_free(&t);
	/* declined: unknown key, duplicate key, a fraction, \u0000, a lone
	 * surrogate, a wrong type, a missing key */
	const char *bad[][2] = {
		{"\"schemaVersion\":2}", "\"schemaVersion\":2,\"extra\":1}"},
		{"\"schemaVersion\":2}", "\"schemaVersion\":2,\"id\":\"x\"}"},
		{"\"schemaVersion\":2}", "\"schemaVersion\":2.0}"},
		{"caf", "\\u0000"},
		{"caf", "\\ud83d"},
		{"\"schemaVersion\":2}", "\"schemaVersion\":\"2\"}"},
		{",\"schemaVersion\":2}", "}"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *where = strstr(json, bad[i][0]);
		assert_non_null(where);
		fl_buf_put(&t, json, (size_t)(where - json));
		fl_buf_puts(&t, bad[i][1]);
		fl_buf_puts(&t, where + strlen(bad[i][0]));
		p = fl_buf_cstr(&t);
		if (pub_entry_read(&p, t.s + t.n, &a) != 0)
			fail_msg("case %zu taken: %s", i, t.s);
		t.n = 0;
	}
	fl_buf_free(&t);
	free(json);
	fl_entry_free(&e);
}

/* pub_json_str and pub_index_json write what jansson writes. */
static void test_json_writers(void **state)
{
	(void)state;
	const char *strs[] = {"plain", "q\"b\\s/l", "\x01\x1f\b\f\n\r\t", "caf\xc3\xa9 \xe2\x80\xa8",
		"</script><!-- & >", ""};
	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
		for (int safe = 0; safe < 2; safe++) {
			json_t *o = json_pack("[s]", strs[i]);
			char *want = pub_json_dump(o, safe);
			json_decref(o);
			fl_buf b = {0};
			fl_buf_putc(&b, '[');
			pub_json_str(&b, strs[i], safe);
			fl_buf_putc(&b, ']');
			assert_string_equal(fl_buf_cstr(&b), want);
			fl_buf_free(&b);
			free(want);
		}
	}
	fl_entry e;
	make_entry(&e);
	for (int round = 0; round < 2; round++) {
		json_t *o = pub_index_obj(&e);
		char *want = pub_json_dump(o, false);
		json_decref(o);
		fl_buf b = {0};
		pub_index_json(&b, &e);
		assert_string_equal(fl_buf_cstr(&b), want);
		fl_buf_free(&b);
		free(want);
		if (round == 0) { /* then with a code and a class */
			e.error_code = strdup("E_SIZE");
			e.error_class = strdup("Widget\"Error");
		}
	}
	fl_entry_free(&e);
}

/* A page is rewritten only when its bytes change. */
static void test_write_if_changed(void **state)
{
	(void)state;
	char *f = p("w/sub/page.html");
	fl_err err;
	bool written;
	assert_int_equal(pub_write_if_changed(f, "abc", 3, &written, &err), 0);
	assert_true(written);
	assert_int_equal(pub_write_if_changed(f, "abc", 3, &written, &err), 0);
	assert_false(written);
	assert_int_equal(pub_write_if_changed(f, "abd", 3, &written, &err), 0);
	assert_true(written);
	assert_int_equal(pub_write_if_changed(f, "ab", 2, &written, &err), 0);
	assert_true(written);
	size_t len;
	char *data = fl_read_file(f, &len, &err);
	assert_non_null(data);
	assert_int_equal(len, 2);
	assert_memory_equal(data, "ab", 2);
	free(data);
	free(f);
}

/* A page is replaced by rename: a new inode, no temporary file left; a
 * link at its place is replaced, its target untouched; a FIFO at its place
 * is not waited for. */
static void test_write_replaces_by_rename(void **state)
{
	(void)state;
	char *f = p("page.html"), *target = p("target.txt"), *fifo = p("fifo.html");
	fl_err err;
	struct stat a, b;
	assert_int_equal(pub_write_file(f, "one", 3, &err), 0);
	assert_int_equal(stat(f, &a), 0);
	assert_int_equal(pub_write_if_changed(f, "two", 3, NULL, &err), 0);
	assert_int_equal(stat(f, &b), 0);
	assert_true(a.st_ino != b.st_ino);
	assert_int_equal(b.st_size, 3);
	assert_int_equal(pub_write_file(target, "keep", 4, &err), 0);
	unlink(f);
	assert_int_equal(symlink(target, f), 0);
	bool written = false;
	assert_int_equal(pub_write_if_changed(f, "keep", 4, &written, &err), 0);
	assert_true(written); /* a link is never "the same bytes" */
	assert_int_equal(lstat(f, &b), 0);
	assert_true(S_ISREG(b.st_mode));
	size_t len;
	char *data = fl_read_file(target, &len, &err);
	assert_non_null(data);
	assert_int_equal(len, 4);
	free(data);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_int_equal(pub_write_if_changed(fifo, "x", 1, NULL, &err), 0);
	assert_int_equal(lstat(fifo, &b), 0);
	assert_true(S_ISREG(b.st_mode));
	DIR *d = opendir(dir);
	struct dirent *de;
	while ((de = readdir(d)))
		if (strstr(de->d_name, ".tmp-"))
			fail_msg("temporary file left: %s", de->d_name);
	closedir(d);
	free(f);
	free(target);
	free(fifo);
}

/* pub_open_beneath: regular files beneath the folder only, whatever
 * pub_check_tree would have said (a link put there after the check). */
static void test_open_beneath(void **state)
{
	(void)state;
	fl_err err;
	char *ds = p("ds"), *out = p("outside"), *sub = p("ds/sub"), *f = p("ds/sub/a.json");
	char *secret = p("outside/secret"), *ln = p("ds/link"), *lnf = p("ds/sub/l.json");
	char *fifo = p("ds/sub/fifo.json");
	assert_int_equal(pub_mkdirs(sub, &err), 0);
	assert_int_equal(pub_mkdirs(out, &err), 0);
	assert_int_equal(pub_write_file(f, "[1]", 3, &err), 0);
	assert_int_equal(pub_write_file(secret, "private", 7, &err), 0);
	assert_int_equal(symlink(out, ln), 0);
	assert_int_equal(symlink(secret, lnf), 0);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	int root = open(ds, O_RDONLY | O_DIRECTORY);
	assert_true(root >= 0);
	struct stat sb;
	int fd = pub_open_beneath(root, ds, "sub/a.json", &sb, &err);
	assert_true(fd >= 0);
	assert_int_equal(sb.st_size, 3);
	close(fd);
	static const struct { const char *rel, *says; } bad[] = {
		{"link/secret", "ds/link: a symbolic link, not a folder"},
		{"sub/l.json", "ds/sub/l.json: a symbolic link, not a regular file"},
		{"sub/fifo.json", "ds/sub/fifo.json: a FIFO, not a regular file"},
		{"sub", "ds/sub: a folder, not a regular file"},
		{"sub/none.json", "ds/sub/none.json: missing"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		errno = 0;
		assert_int_equal(pub_open_beneath(root, ds, bad[i].rel, &sb, &err), -1);
		if (!strstr(err.msg, bad[i].says))
			fail_msg("%s: <%s> does not say <%s>", bad[i].rel, err.msg, bad[i].says);
	}
	assert_int_equal(errno, ENOENT);
	/* the size is checked before reading: against what the inventory says, then the cap */
	size_t len;
	assert_null(pub_read_beneath(root, ds, "sub/a.json", 4, "inventory.json", PUB_FILE_MAX, &len, &err));
	assert_non_null(strstr(err.msg, "bytes: is 3, inventory.json says 4"));
	assert_null(pub_read_beneath(root, ds, "sub/a.json", 3, "inventory.json", 2, &len, &err));
	assert_non_null(strstr(err.msg, "3 bytes, over the limit of 2 bytes"));
	char *data = pub_read_beneath(root, ds, "sub/a.json", 3, "inventory.json", 3, &len, &err);
	assert_non_null(data);
	assert_memory_equal(data, "[1]", 3);
	free(data);
	/* the tree check names the first link, FIFO or socket */
	assert_int_equal(pub_check_tree(root, ds, "a data set", &err), -1);
	assert_true(strstr(err.msg, "a symbolic link") || strstr(err.msg, "a FIFO"));
	unlink(ln);
	unlink(lnf);
	unlink(fifo);
	assert_int_equal(pub_check_tree(root, ds, "a data set", &err), 0);
	/* a copy holds the listed files, as regular files */
	char *cp = p("copy");
	char *rels[] = {"sub/a.json"};
	assert_int_equal(pub_copy_listed(root, ds, cp, rels, 1, &err), 0);
	char *cf = p("copy/sub/a.json");
	assert_int_equal(lstat(cf, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	close(root);
	free(cf);
	free(cp);
	free(ds);
	free(out);
	free(sub);
	free(f);
	free(secret);
	free(ln);
	free(lnf);
	free(fifo);
}

/* Across file systems (no hard link: EXDEV) the listed files are copied
 * from the descriptor opened beneath the data set, byte for byte. */
static void test_copy_across_fs(void **state)
{
	(void)state;
	struct stat a, b;
	char src[] = "/dev/shm/fl-copy-XXXXXX";
	if (stat("/dev/shm", &a) < 0 || stat(dir, &b) < 0 || a.st_dev == b.st_dev || !mkdtemp(src))
		skip(); /* no second file system here */
	fl_err err;
	char *f = fl_xasprintf("%s/sub/x.json", src), *sub = fl_xasprintf("%s/sub", src);
	size_t n = 300 * 1024 + 5;
	char *buf = fl_xmalloc(n);
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(i * 7 + 1);
	assert_int_equal(pub_mkdirs(sub, &err), 0);
	assert_int_equal(pub_write_file(f, buf, n, &err), 0);
	int root = open(src, O_RDONLY | O_DIRECTORY);
	char *cp = p("copy"), *cf = p("copy/sub/x.json");
	char *rels[] = {"sub/x.json"};
	int rc = pub_copy_listed(root, src, cp, rels, 1, &err);
	close(root);
	pub_rmtree(src);
	if (rc < 0)
		fail_msg("%s", err.msg);
	size_t len;
	char *data = fl_read_file(cf, &len, &err);
	assert_non_null(data);
	assert_int_equal(len, n);
	assert_memory_equal(data, buf, n);
	free(data);
	free(buf);
	free(cp);
	free(cf);
	free(f);
	free(sub);
}

/* The streamed hash of a file is the hash of its bytes, across chunks. */
static void test_sha256_stream(void **state)
{
	(void)state;
	size_t n = 3 * 256 * 1024 + 17;
	char *buf = fl_xmalloc(n);
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(i * 131 + 7);
	char *f = p("big.bin");
	fl_err err;
	assert_int_equal(pub_write_file(f, buf, n, &err), 0);
	char want[65], got[65];
	pub_sha256_hex(buf, n, want);
	int fd = open(f, O_RDONLY);
	uint64_t len = 0;
	assert_int_equal(pub_sha256_fd_hex(fd, n, got, &len), 0);
	assert_int_equal(len, n);
	assert_string_equal(got, want);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	unsigned char md[32];
	assert_int_equal(fl_sha256_fd(fd, n - 1, md, &len), -1);
	assert_int_equal(errno, EFBIG);
	close(fd);
	free(f);
	free(buf);
}

static void test_iso(void **state)
{
	(void)state;
	long long ms = pub_iso_ms("2026-09-05T13:19:14.260Z");
	assert_true(ms > 0);
	char out[32];
	pub_ms_iso(ms + 1, out);
	assert_string_equal(out, "2026-09-05T13:19:14.261Z");
	assert_int_equal(pub_iso_ms("yesterday"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_export_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_rejects, setup, teardown),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_fast_reader),
		cmocka_unit_test(test_json_writers),
		cmocka_unit_test_setup_teardown(test_write_if_changed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_replaces_by_rename, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_beneath, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sha256_stream, setup, teardown),
		cmocka_unit_test_setup_teardown(test_copy_across_fs, setup, teardown),
		cmocka_unit_test(test_iso),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
