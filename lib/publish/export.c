/*
 * export.c — `faultline export DIR` (dataset.md): writes the whole data set
 * of a store into a sibling temporary folder (manifest with sha256
 * inventory, index, repos, one file per error, search shards), validating
 * every record, then swaps it in atomically.  Also owns the data-set writer
 * and the recovery of a data set whose export was killed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_internal.h"
#include "publish.h"
#include "store_internal.h"
#include "util.h"

/* ---- writer ---------------------------------------------------------------- */

#define WQ 512

struct pub_wjob {
	char *rel;
	char *data;
	size_t n;
};

static int write_now(pub_writer *w, const char *rel, const char *data, size_t n,
		     fl_err *err);

static void *writer_main(void *arg)
{
	pub_writer *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (w->qlen == 0 && !w->closing)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->qlen == 0 && w->closing)
			break;
		struct pub_wjob j = w->q[w->qhead];
		w->qhead = (w->qhead + 1) % WQ;
		if (w->qlen-- == WQ)
			pthread_cond_broadcast(&w->cv); /* a producer may wait */
		int failed = w->rc;
		pthread_mutex_unlock(&w->mu);
		fl_err err;
		int rc = failed ? 0 : write_now(w, j.rel, j.data, j.n, &err);
		free(j.rel);
		free(j.data);
		pthread_mutex_lock(&w->mu);
		if (rc < 0 && w->rc == 0) {
			w->rc = -1;
			w->werr = err;
		}
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

void pub_writer_start(pub_writer *w)
{
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->q = fl_xcalloc(WQ, sizeof *w->q);
	w->async = pthread_create(&w->th, NULL, writer_main, w) == 0;
	if (!w->async) {
		free(w->q);
		w->q = NULL;
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
	}
}

int pub_writer_finish(pub_writer *w, fl_err *err)
{
	if (!w->async)
		return 0;
	pthread_mutex_lock(&w->mu);
	w->closing = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	w->async = false;
	free(w->q);
	w->q = NULL;
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	if (w->rc < 0) {
		if (err)
			*err = w->werr;
		return -1;
	}
	return 0;
}

int pub_writer_put(pub_writer *w, const char *rel, const char *data, size_t n,
		   fl_err *err)
{
	if (!w->async)
		return write_now(w, rel, data, n, err);
	pthread_mutex_lock(&w->mu);
	while (w->qlen == WQ && w->rc == 0)
		pthread_cond_wait(&w->cv, &w->mu);
	if (w->rc < 0) {
		if (err)
			*err = w->werr;
		pthread_mutex_unlock(&w->mu);
		return -1;
	}
	struct pub_wjob *j = &w->q[(w->qhead + w->qlen) % WQ];
	j->rel = fl_xstrdup(rel);
	j->data = fl_xmalloc(n ? n : 1);
	memcpy(j->data, data, n);
	j->n = n;
	if (w->qlen++ == 0)
		pthread_cond_broadcast(&w->cv); /* the writer may wait */
	pthread_mutex_unlock(&w->mu);
	return 0;
}

static int write_now(pub_writer *w, const char *rel, const char *data, size_t n,
		     fl_err *err)
{
	char *path = fl_xasprintf("%s/%s", w->root, rel);
	const char *slash = strrchr(path, '/');
	size_t dl = (size_t)(slash - path);
	if (dl >= sizeof w->lastdir || strncmp(w->lastdir, path, dl) != 0 ||
	    w->lastdir[dl] != '\0') {
		char *dir = fl_xstrndup(path, dl);
		int rc = pub_mkdirs(dir, err);
		if (rc == 0 && dl < sizeof w->lastdir)
			memcpy(w->lastdir, dir, dl + 1);
		free(dir);
		if (rc < 0) {
			free(path);
			return -1;
		}
	}
	int rc = pub_write_file(path, data, n, err);
	free(path);
	if (rc < 0)
		return -1;
	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 1024;
		w->files = fl_xrealloc(w->files, w->cap * sizeof *w->files);
	}
	pub_file *f = &w->files[w->n++];
	f->rel = fl_xstrdup(rel);
	f->bytes = (long long)n;
	pub_sha256_hex(data, n, f->sha);
	w->bytes += (long long)n;
	return 0;
}

void pub_writer_free(pub_writer *w)
{
	pub_writer_finish(w, NULL);
	for (size_t i = 0; i < w->n; i++)
		free(w->files[i].rel);
	free(w->files);
	free(w->root);
	memset(w, 0, sizeof *w);
}

/* ---- index entries ----------------------------------------------------------- */

static json_t *nstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *pub_index_obj(const fl_entry *e)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(e->id));
	json_object_set_new(o, "repo", json_string(e->repo));
	json_object_set_new(o, "slug", json_string(e->slug));
	json_object_set_new(o, "code", nstr(e->error_code));
	json_object_set_new(o, "msg", json_string(e->error_message));
	json_object_set_new(o, "pattern", json_string(e->message_pattern));
	json_object_set_new(o, "type", json_string(e->error_type));
	json_object_set_new(o, "cls", nstr(e->error_class));
	json_t *tags = json_array();
	for (size_t i = 0; i < e->tags.n; i++)
		json_array_append_new(tags, json_string(e->tags.v[i]));
	json_object_set_new(o, "tags", tags);
	json_object_set_new(o, "sev", json_string(e->severity));
	return o;
}

void pub_ientry_free(pub_ientry *ie)
{
	free(ie->id);
	free(ie->code);
	free(ie->msg);
	free(ie->json);
}

/* ---- export ------------------------------------------------------------------ */

struct exp {
	pub_writer w;
	const char *version;
	fl_repo *repos;          /* from the store, by name */
	size_t nrepos, ri;
	json_t *repos_out;       /* RepoEntry[] written to repos.json */
	char *cur;               /* repository being collected */
	fl_repo cur_repo;
	pub_buf arr;             /* its ErrorEntry[] */
	long long cur_count;
	pub_ientry *ents;
	size_t n, cap;
	fl_err *err;
	int failed;
};

static int collect_repo(const fl_repo *r, void *ud)
{
	struct exp *x = ud;
	if (x->nrepos % 64 == 0)
		x->repos = fl_xrealloc(x->repos, (x->nrepos + 64) * sizeof *x->repos);
	fl_repo *c = &x->repos[x->nrepos++];
	memset(c, 0, sizeof *c);
	c->repo = fl_xstrdup(r->repo);
	c->description = fl_xstrdup(r->description);
	c->language = fl_xstrdup(r->language);
	c->stars = r->stars;
	c->source_files = r->source_files;
	c->default_branch = fl_xstrdup(r->default_branch);
	c->analyzed_sha = fl_xstrdup(r->analyzed_sha);
	c->analyzed_at = fl_xstrdup(r->analyzed_at);
	c->error_count = r->error_count;
	return 0;
}

/* owner/name usable as two path segments */
static bool safe_repo_name(const char *repo)
{
	const char *slash = strchr(repo, '/');
	if (!slash || slash == repo || !slash[1] || strchr(slash + 1, '/'))
		return false;
	if (repo[0] == '.' || slash[1] == '.')
		return false;
	return !strchr(repo, '\\');
}

static int repo_file(struct exp *x, const fl_repo *r, const char *arr,
		     size_t n, long long count)
{
	if (!safe_repo_name(r->repo))
		return fl_seterr(x->err, "repo %s: repo: not usable as owner/name folders", r->repo);
	char *rel = fl_xasprintf("repos/%s.json", r->repo);
	int rc = pub_writer_put(&x->w, rel, arr, n, x->err);
	free(rel);
	if (rc < 0)
		return -1;
	fl_repo copy = *r;
	copy.error_count = count;
	if (fl_repo_validate(&copy, x->err) < 0)
		return -1;
	json_array_append_new(x->repos_out, fl_repo_to_jobj(&copy));
	return 0;
}

/* Close the repository being collected. */
static int finish_repo(struct exp *x)
{
	if (!x->cur)
		return 0;
	pub_buf_puts(&x->arr, "]");
	int rc = repo_file(x, &x->cur_repo, x->arr.p, x->arr.n, x->cur_count);
	pub_buf_free(&x->arr);
	free(x->cur);
	x->cur = NULL;
	fl_repo_free(&x->cur_repo);
	return rc;
}

/* Write the empty repositories sorting before name (all when NULL). */
static int empty_repos_before(struct exp *x, const char *name)
{
	while (x->ri < x->nrepos &&
	       (!name || strcmp(x->repos[x->ri].repo, name) < 0)) {
		if (repo_file(x, &x->repos[x->ri], "[]", 2, 0) < 0)
			return -1;
		x->ri++;
	}
	return 0;
}

static int start_repo(struct exp *x, const fl_entry *e)
{
	if (empty_repos_before(x, e->repo) < 0)
		return -1;
	memset(&x->cur_repo, 0, sizeof x->cur_repo);
	if (x->ri < x->nrepos && strcmp(x->repos[x->ri].repo, e->repo) == 0) {
		x->cur_repo = x->repos[x->ri];
		memset(&x->repos[x->ri], 0, sizeof x->repos[x->ri]);
		x->ri++;
	} else {
		/* records without a repository row: describe it from them */
		x->cur_repo.repo = fl_xstrdup(e->repo);
		x->cur_repo.source_files = -1;
		x->cur_repo.default_branch = fl_xstrdup("main");
		x->cur_repo.analyzed_sha = fl_xstrdup(e->analyzed_sha);
		x->cur_repo.analyzed_at = fl_xstrdup(e->analyzed_at);
	}
	x->cur = fl_xstrdup(e->repo);
	x->cur_count = 0;
	pub_buf_puts(&x->arr, "[");
	return 0;
}

/* One record: e parsed and raw, the store's own compact JSON of it (keys in
 * spec order, written by fl_entry_to_json), which is what the data set
 * files hold. */
static int each_entry(const fl_entry *e, const char *raw, void *ud)
{
	struct exp *x = ud;
	fl_err verr;
	if (fl_entry_validate(e, &verr) < 0) {
		fl_seterr(x->err, "record %s (%s %s:%d) fails validation: %s", e->id,
			  e->repo, e->file_path, e->line_number, verr.msg);
		return x->failed = 1;
	}
	if (!x->cur || strcmp(x->cur, e->repo) != 0) {
		if (finish_repo(x) < 0 || start_repo(x, e) < 0)
			return x->failed = 1;
	}
	const char *s = raw;
	if (x->cur_count++)
		pub_buf_puts(&x->arr, ",");
	pub_buf_puts(&x->arr, s);
	/* {"record":...,"datasetVersion":"..."} as jansson would write it */
	pub_buf doc = {0};
	pub_buf_puts(&doc, "{\"record\":");
	pub_buf_puts(&doc, s);
	pub_buf_printf(&doc, ",\"datasetVersion\":\"%s\"}", x->version);
	char rel[64];
	snprintf(rel, sizeof rel, "errors/%s.json", e->id);
	int rc = pub_writer_put(&x->w, rel, doc.p, doc.n, x->err);
	pub_buf_free(&doc);
	if (rc < 0)
		return x->failed = 1;
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 1024;
		x->ents = fl_xrealloc(x->ents, x->cap * sizeof *x->ents);
	}
	pub_ientry *ie = &x->ents[x->n++];
	ie->id = fl_xstrdup(e->id);
	ie->code = fl_xstrdup(e->error_code);
	ie->msg = fl_xstrdup(e->error_message);
	json_t *io = pub_index_obj(e);
	ie->json = pub_json_dump(io, false);
	json_decref(io);
	return 0;
}

/* The store's records in its order (repo, file, line, column, id), each
 * parsed strictly; raw is the stored JSON. */
static int each_stored(fl_store *st, struct exp *x, fl_err *err)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(st->db, "SELECT record FROM errors"
			       " ORDER BY repo, file_path, line_number, col, id", -1, &q, NULL) != SQLITE_OK)
		return fl_seterr(err, "store %s: listing records: %s", st->path, sqlite3_errmsg(st->db));
	int rc = 0, step;
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		const char *raw = (const char *)sqlite3_column_text(q, 0);
		size_t len = (size_t)sqlite3_column_bytes(q, 0);
		fl_err perr;
		json_t *o = fl_json_parse(raw ? raw : "", len, &perr);
		fl_entry e;
		if (!o || fl_entry_from_jobj(o, &e, false, &perr) < 0) {
			json_decref(o);
			rc = fl_seterr(err, "store %s: a stored record is damaged: %s", st->path, perr.msg);
			break;
		}
		json_decref(o);
		int stop = each_entry(&e, raw, x);
		fl_entry_free(&e);
		if (stop) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = fl_seterr(err, "store %s: listing records: %s", st->path, sqlite3_errmsg(st->db));
	sqlite3_finalize(q);
	return rc;
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const pub_file *)a)->rel, ((const pub_file *)b)->rel);
}

static json_t *file_obj(const pub_file *f)
{
	json_t *o = json_object();
	char *path = fl_xasprintf("/data/%s", f->rel);
	json_object_set_new(o, "path", json_string(path));
	free(path);
	json_object_set_new(o, "bytes", json_integer(f->bytes));
	json_object_set_new(o, "sha256", json_string(f->sha));
	return o;
}

static int write_index_and_manifest(struct exp *x)
{
	pub_buf b = {0};
	pub_buf_printf(&b, "{\"schemaVersion\":2,\"datasetVersion\":\"%s\",\"errors\":[",
		       x->version);
	for (size_t i = 0; i < x->n; i++) {
		if (i)
			pub_buf_puts(&b, ",");
		pub_buf_puts(&b, x->ents[i].json);
	}
	pub_buf_puts(&b, "]}");
	int rc = pub_writer_put(&x->w, "index.json", b.p, b.n, x->err);
	pub_buf_free(&b);
	if (rc < 0)
		return -1;
	char *s = pub_json_dump(x->repos_out, false);
	rc = pub_writer_put(&x->w, "repos.json", s, strlen(s), x->err);
	free(s);
	if (rc < 0 || pub_write_search(&x->w, x->ents, x->n, x->err) < 0 ||
	    pub_writer_finish(&x->w, x->err) < 0)
		return -1;

	qsort(x->w.files, x->w.n, sizeof *x->w.files, cmp_file);
	json_t *m = json_object();
	json_object_set_new(m, "schemaVersion", json_integer(FL_SCHEMA_VERSION));
	json_object_set_new(m, "datasetVersion", json_string(x->version));
	json_t *counts = json_object();
	json_object_set_new(counts, "repos", json_integer((json_int_t)json_array_size(x->repos_out)));
	json_object_set_new(counts, "errors", json_integer((json_int_t)x->n));
	json_object_set_new(m, "counts", counts);
	json_t *files = json_object();
	for (size_t i = 0; i < x->w.n; i++)
		if (strcmp(x->w.files[i].rel, "index.json") == 0)
			json_object_set_new(files, "index", file_obj(&x->w.files[i]));
	for (size_t i = 0; i < x->w.n; i++)
		if (strcmp(x->w.files[i].rel, "repos.json") == 0)
			json_object_set_new(files, "repos", file_obj(&x->w.files[i]));
	for (size_t i = 0; i < x->w.n; i++)
		if (strcmp(x->w.files[i].rel, "index.json") != 0 &&
		    strcmp(x->w.files[i].rel, "repos.json") != 0)
			json_object_set_new(files, x->w.files[i].rel, file_obj(&x->w.files[i]));
	json_object_set_new(m, "files", files);
	s = pub_json_dump(m, false);
	json_decref(m);
	char *path = fl_xasprintf("%s/manifest.json", x->w.root);
	rc = pub_write_file(path, s, strlen(s), x->err);
	free(path);
	free(s);
	return rc;
}

/* ---- the folder swap ------------------------------------------------------- */

/* A test hook: FAULTLINE_TEST_EXPORT_KILL=written|swapped kills the process
 * with SIGKILL at that point (the kill tests). */
static void test_kill(const char *stage)
{
	const char *v = getenv("FAULTLINE_TEST_EXPORT_KILL");
	if (v && strcmp(v, stage) == 0)
		raise(SIGKILL);
}

static void split_dir(const char *dir, char **parent, char **base)
{
	const char *slash = strrchr(dir, '/');
	if (!slash) {
		*parent = fl_xstrdup(".");
		*base = fl_xstrdup(dir);
	} else {
		*parent = slash == dir ? fl_xstrdup("/") : fl_xstrndup(dir, (size_t)(slash - dir));
		*base = fl_xstrdup(slash + 1);
	}
}

int pub_recover(const char *dir, fl_err *err)
{
	char *parent, *base;
	split_dir(dir, &parent, &base);
	DIR *d = opendir(parent);
	if (!d) {
		fl_seterr(err, "%s: %s", parent, strerror(errno));
		free(parent);
		free(base);
		return -1;
	}
	char *tmp_prefix = fl_xasprintf("%s.tmp-", base);
	char *bak_prefix = fl_xasprintf("%s.bak-", base);
	fl_strv stale = {0}, baks = {0};
	struct dirent *de;
	while ((de = readdir(d))) {
		if (fl_str_starts(de->d_name, tmp_prefix))
			fl_strv_push(&stale, de->d_name);
		else if (fl_str_starts(de->d_name, bak_prefix))
			fl_strv_push(&baks, de->d_name);
	}
	closedir(d);
	int rc = 0;
	if (!pub_exists(dir) && baks.n > 0) {
		/* killed between the two renames: the backup is the data set */
		char *from = fl_xasprintf("%s/%s", parent, baks.v[0]);
		if (rename(from, dir) < 0)
			rc = fl_seterr(err, "%s: cannot restore the previous data set from %s: %s",
				       dir, from, strerror(errno));
		free(from);
		free(baks.v[0]);
		baks.v[0] = fl_xstrdup("");
	}
	for (size_t i = 0; i < stale.n; i++) {
		char *p = fl_xasprintf("%s/%s", parent, stale.v[i]);
		pub_rmtree(p);
		free(p);
	}
	for (size_t i = 0; i < baks.n; i++) {
		if (!baks.v[i][0])
			continue;
		char *p = fl_xasprintf("%s/%s", parent, baks.v[i]);
		pub_rmtree(p);
		free(p);
	}
	fl_strv_free(&stale);
	fl_strv_free(&baks);
	free(tmp_prefix);
	free(bak_prefix);
	free(parent);
	free(base);
	return rc;
}

static int swap_in(const char *tmp, const char *dir, fl_err *err)
{
	if (!pub_exists(dir)) {
		test_kill("swapped");
		if (rename(tmp, dir) < 0)
			return fl_seterr(err, "%s: cannot move the new data set in: %s", dir, strerror(errno));
		return 0;
	}
	char *bak = fl_xasprintf("%s.bak-XXXXXX", dir);
	if (!mkdtemp(bak)) {
		fl_seterr(err, "%s: cannot create a backup folder: %s", bak, strerror(errno));
		free(bak);
		return -1;
	}
	if (rename(dir, bak) < 0) {
		fl_seterr(err, "%s: cannot move the previous data set aside: %s", dir, strerror(errno));
		rmdir(bak);
		free(bak);
		return -1;
	}
	test_kill("swapped");
	if (rename(tmp, dir) < 0) {
		fl_seterr(err, "%s: cannot move the new data set in: %s", dir, strerror(errno));
		rename(bak, dir);
		free(bak);
		return -1;
	}
	pub_rmtree(bak);
	free(bak);
	return 0;
}

static char *normalize_dir(const char *dir)
{
	char *d = fl_xstrdup(dir);
	size_t n = strlen(d);
	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	return d;
}

int fl_export(fl_store *st, const char *dir_in, fl_export_stats *stats,
	      fl_err *err)
{
	double t0 = fl_now_mono();
	char *dir = normalize_dir(dir_in);
	char *parent, *base;
	split_dir(dir, &parent, &base);
	free(base);
	int lockfd = -1, rc = -1;
	struct exp x = {0};
	char *tmp = NULL;
	if (pub_mkdirs(parent, err) < 0)
		goto out;
	lockfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lockfd < 0 || flock(lockfd, LOCK_EX) < 0) {
		fl_seterr(err, "%s: cannot lock: %s", parent, strerror(errno));
		goto out;
	}
	if (pub_recover(dir, err) < 0)
		goto out;
	if (pub_exists(dir)) {
		char *mp = fl_xasprintf("%s/manifest.json", dir);
		bool has_manifest = pub_exists(mp);
		free(mp);
		DIR *d = opendir(dir);
		bool empty = true;
		struct dirent *de;
		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				empty = false;
		if (d)
			closedir(d);
		if (!d) {
			fl_seterr(err, "%s: not a folder", dir);
			goto out;
		}
		if (!has_manifest && !empty) {
			fl_seterr(err, "%s: exists and is not a data set (no manifest.json); not replacing it", dir);
			goto out;
		}
	}

	/* the version: now, strictly after the previous export's */
	char now[32], version[32];
	fl_now_iso(now);
	long long ms = pub_iso_ms(now), prev = -1;
	char *mp = fl_xasprintf("%s/manifest.json", dir);
	size_t len;
	char *old = pub_exists(mp) ? fl_read_file(mp, &len, NULL) : NULL;
	free(mp);
	if (old) {
		json_t *m = json_loadb(old, len, 0, NULL);
		json_t *v = m ? json_object_get(m, "datasetVersion") : NULL;
		if (json_is_string(v))
			prev = pub_iso_ms(json_string_value(v));
		json_decref(m);
		free(old);
	}
	if (ms <= prev)
		ms = prev + 1;
	pub_ms_iso(ms, version);
	x.version = version;
	x.err = err;

	tmp = fl_xasprintf("%s.tmp-XXXXXX", dir);
	if (!mkdtemp(tmp)) {
		fl_seterr(err, "%s: cannot create a temporary folder: %s", tmp, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	chmod(tmp, 0755);
	x.w.root = fl_xstrdup(tmp);
	x.repos_out = json_array();
	pub_writer_start(&x.w);
	if (fl_store_each_repo(st, collect_repo, &x, err) < 0)
		goto out;
	if (each_stored(st, &x, err) < 0 || x.failed)
		goto out;
	if (finish_repo(&x) < 0 || empty_repos_before(&x, NULL) < 0)
		goto out;
	if (write_index_and_manifest(&x) < 0)
		goto out;
	/* No fsync of the files: the renames make the swap atomic for any kill
	 * of this process; flushing hundreds of MB would dominate the export. */
	test_kill("written");
	if (swap_in(tmp, dir, err) < 0)
		goto out;
	free(tmp);
	tmp = NULL;
	fsync(lockfd);
	if (stats) {
		memset(stats, 0, sizeof *stats);
		snprintf(stats->dataset_version, sizeof stats->dataset_version, "%s", version);
		stats->repos = (long long)json_array_size(x.repos_out);
		stats->errors = (long long)x.n;
		stats->files = (long long)x.w.n + 1;
		stats->bytes = x.w.bytes;
		stats->seconds = fl_now_mono() - t0;
	}
	rc = 0;
out:
	if (tmp) {
		pub_rmtree(tmp);
		free(tmp);
	}
	for (size_t i = 0; i < x.nrepos; i++)
		fl_repo_free(&x.repos[i]);
	free(x.repos);
	if (x.cur) {
		free(x.cur);
		fl_repo_free(&x.cur_repo);
	}
	pub_buf_free(&x.arr);
	for (size_t i = 0; i < x.n; i++)
		pub_ientry_free(&x.ents[i]);
	free(x.ents);
	json_decref(x.repos_out);
	pub_writer_free(&x.w);
	if (lockfd >= 0)
		close(lockfd);
	free(parent);
	free(dir);
	return rc;
}
