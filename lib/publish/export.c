/*
 * export.c — `faultline export DIR` (dataset.md): writes the whole data set
 * of a store into a sibling temporary folder (manifest, inventory with the
 * size and sha256 of every file, index, repos, one file per error, search
 * shards), validating every record on every core, then swaps it in
 * atomically.  Also owns the data-set writer and the recovery of a data set
 * whose export was killed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_internal.h"
#include "publish.h"
#include "store_enrich.h"
#include "store_internal.h"
#include "util.h"

/* ---- writer ---------------------------------------------------------------- */

void pub_writer_init(pub_writer *w, const char *root)
{
	memset(w, 0, sizeof *w);
	w->root = fl_xstrdup(root);
	pthread_mutex_init(&w->mu, NULL);
}

/* root/rel written in place (creating its folder): the temporary folder
 * of an export is read by no one until it is swapped in whole, so its files
 * need no rename of their own (pub_write_file). */
static int write_new(const char *root, const char *rel, const char *data, size_t n,
		     fl_err *err)
{
	if ((uint64_t)n > PUB_FILE_MAX)
		return fl_seterr(err, "%s/%s: %zu bytes, over the limit of %llu bytes of a data set file",
				 root, rel, n, (unsigned long long)PUB_FILE_MAX);
	char *path = fl_xasprintf("%s/%s", root, rel);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ENOENT) {
		char *slash = strrchr(path, '/');
		*slash = '\0';
		int rc = pub_mkdirs(path, err);
		*slash = '/';
		if (rc < 0) {
			free(path);
			return -1;
		}
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	}
	if (fd < 0 || fl_write_all(fd, data, n) < 0 || close(fd) < 0) {
		fl_seterr(err, "%s: cannot write: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

int pub_writer_put(pub_writer *w, const char *rel, const char *data, size_t n,
		   fl_err *err)
{
	if (write_new(w->root, rel, data, n, err) < 0)
		return -1;
	char sha[65];
	pub_sha256_hex(data, n, sha);
	pthread_mutex_lock(&w->mu);
	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 1024;
		w->files = fl_xrealloc(w->files, w->cap * sizeof *w->files);
	}
	pub_file *f = &w->files[w->n++];
	f->rel = fl_xstrdup(rel);
	f->bytes = (long long)n;
	memcpy(f->sha, sha, sizeof sha);
	w->bytes += (long long)n;
	pthread_mutex_unlock(&w->mu);
	return 0;
}

void pub_writer_free(pub_writer *w)
{
	if (!w->root)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->files[i].rel);
	free(w->files);
	free(w->root);
	pthread_mutex_destroy(&w->mu);
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

void pub_index_json(fl_buf *b, const fl_entry *e)
{
	fl_buf_puts(b, "{\"id\":");
	pub_json_str(b, e->id, false);
	fl_buf_puts(b, ",\"repo\":");
	pub_json_str(b, e->repo, false);
	fl_buf_puts(b, ",\"slug\":");
	pub_json_str(b, e->slug, false);
	fl_buf_puts(b, ",\"code\":");
	pub_json_str(b, e->error_code, false);
	fl_buf_puts(b, ",\"msg\":");
	pub_json_str(b, e->error_message, false);
	fl_buf_puts(b, ",\"pattern\":");
	pub_json_str(b, e->message_pattern, false);
	fl_buf_puts(b, ",\"type\":");
	pub_json_str(b, e->error_type, false);
	fl_buf_puts(b, ",\"cls\":");
	pub_json_str(b, e->error_class, false);
	fl_buf_puts(b, ",\"tags\":[");
	for (size_t i = 0; i < e->tags.n; i++) {
		if (i)
			fl_buf_putc(b, ',');
		pub_json_str(b, e->tags.v[i], false);
	}
	fl_buf_puts(b, "],\"sev\":");
	pub_json_str(b, e->severity, false);
	fl_buf_putc(b, '}');
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
	const char *store_path;
	fl_repo *repos;          /* from the store, by name */
	size_t nrepos, ri;
	fl_buf repos_out;        /* RepoEntry[] written to repos.json */
	size_t nrepos_out;
	char *cur;               /* repository being collected */
	fl_repo cur_repo;
	fl_buf arr;              /* its ErrorEntry[] */
	long long cur_count;
	pub_ientry *ents;
	size_t n, cap;
	fl_buf prov;             /* provenance.json's "records" members */
	size_t nprov;
	fl_err *err;
};

/* One record's provenance into provenance.json (a side file: which
 * provider and model wrote which fields of which record, and when). */
static int collect_provenance(const char *id, const char *prov, void *ud)
{
	struct exp *x = ud;
	fl_buf_puts(&x->prov, x->nprov++ ? "," : "");
	pub_json_str(&x->prov, id, false);
	fl_buf_putc(&x->prov, ':');
	fl_buf_puts(&x->prov, prov);
	return 0;
}

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
	char *s = fl_repo_to_json(&copy, false);
	fl_buf_putc(&x->repos_out, x->nrepos_out++ ? ',' : '[');
	fl_buf_puts(&x->repos_out, s);
	free(s);
	return 0;
}

/* Close the repository being collected. */
static int finish_repo(struct exp *x)
{
	if (!x->cur)
		return 0;
	fl_buf_putc(&x->arr, ']');
	int rc = repo_file(x, &x->cur_repo, x->arr.s, x->arr.n, x->cur_count);
	fl_buf_free(&x->arr);
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
	fl_buf_putc(&x->arr, '[');
	return 0;
}

/* ---- records, a chunk at a time on every core ------------------------------
 * The main thread reads a chunk of stored records (the store's own compact
 * JSON, which is what the data set files hold); workers parse, validate,
 * write errors/{id}.json and the index entry of each; the main thread then
 * appends them to their repository file in order.  The first failure in
 * store order is the one reported. */

#define CHUNK 4096
#define CHUNK_STEP 32

typedef struct row {
	char *raw;
	size_t n;
	fl_entry e;
} row;

typedef struct chunk_job {
	struct exp *x;
	row *rows;
	size_t n;
	pub_ientry *ents;    /* of rows[0] */
	atomic_size_t next;
	pthread_mutex_t mu;
	size_t fail_at;      /* first failing row, n when none */
	fl_err err;
	pthread_t th[4];
	size_t nth;
} chunk_job;

static int one_record(struct exp *x, row *r, pub_ientry *ie, fl_buf *doc, fl_err *err)
{
	const char *p = r->raw;
	if (!pub_entry_read(&p, r->raw + r->n, &r->e) || p != r->raw + r->n) {
		fl_entry_free(&r->e);
		fl_err perr;
		json_t *o = fl_json_parse(r->raw, r->n, &perr);
		if (!o || fl_entry_from_jobj(o, &r->e, false, &perr) < 0) {
			json_decref(o);
			memset(&r->e, 0, sizeof r->e);
			return fl_seterr(err, "store %s: a stored record is damaged: %s", x->store_path, perr.msg);
		}
		json_decref(o);
	}
	const fl_entry *e = &r->e;
	fl_err verr;
	if (fl_entry_validate(e, &verr) < 0)
		return fl_seterr(err, "record %s (%s %s:%d) fails validation: %s", e->id,
				 e->repo, e->file_path, e->line_number, verr.msg);
	/* {"record":...,"datasetVersion":"..."} as jansson would write it */
	doc->n = 0;
	fl_buf_puts(doc, "{\"record\":");
	fl_buf_put(doc, r->raw, r->n);
	fl_buf_printf(doc, ",\"datasetVersion\":\"%s\"}", x->version);
	char rel[64];
	snprintf(rel, sizeof rel, "errors/%s.json", e->id);
	if (pub_writer_put(&x->w, rel, doc->s, doc->n, err) < 0)
		return -1;
	ie->id = fl_xstrdup(e->id);
	ie->code = fl_xstrdup(e->error_code);
	ie->msg = fl_xstrdup(e->error_message);
	doc->n = 0;
	pub_index_json(doc, e);
	ie->json = fl_xstrndup(doc->s, doc->n);
	return 0;
}

static void *chunk_worker(void *arg)
{
	chunk_job *j = arg;
	fl_buf doc = {0};
	for (;;) {
		size_t from = atomic_fetch_add(&j->next, CHUNK_STEP);
		pthread_mutex_lock(&j->mu);
		bool stop = from >= j->n || from > j->fail_at;
		pthread_mutex_unlock(&j->mu);
		if (stop)
			break;
		for (size_t i = from; i < from + CHUNK_STEP && i < j->n; i++) {
			fl_err e2;
			if (one_record(j->x, &j->rows[i], &j->ents[i], &doc, &e2) < 0) {
				pthread_mutex_lock(&j->mu);
				if (i < j->fail_at) {
					j->fail_at = i;
					j->err = e2;
				}
				pthread_mutex_unlock(&j->mu);
				break;
			}
		}
	}
	fl_buf_free(&doc);
	return NULL;
}

/* Start the workers on rows[0..n) (the main thread meanwhile reads the
 * next chunk), then finish_chunk joins them and appends in order. */
static void start_chunk(struct exp *x, chunk_job *j, row *rows, size_t n)
{
	if (x->n + n > x->cap) {
		size_t cap = x->cap ? x->cap : 1024;
		while (cap < x->n + n)
			cap *= 2;
		x->ents = fl_xrealloc(x->ents, cap * sizeof *x->ents);
		memset(x->ents + x->cap, 0, (cap - x->cap) * sizeof *x->ents);
		x->cap = cap;
	}
	memset(j, 0, sizeof *j);
	j->x = x;
	j->rows = rows;
	j->n = n;
	j->ents = x->ents + x->n;
	j->fail_at = n;
	atomic_init(&j->next, 0);
	pthread_mutex_init(&j->mu, NULL);
	x->n += n;
	j->nth = 0;
	for (size_t t = 0; t < pub_threads(n); t++)
		if (pthread_create(&j->th[j->nth], NULL, chunk_worker, j) == 0)
			j->nth++;
}

static int finish_chunk(struct exp *x, chunk_job *j)
{
	if (j->nth == 0)
		chunk_worker(j); /* no thread could start: do it here */
	for (size_t t = 0; t < j->nth; t++)
		pthread_join(j->th[t], NULL);
	pthread_mutex_destroy(&j->mu);
	if (j->fail_at < j->n) {
		*x->err = j->err;
		return -1;
	}
	for (size_t i = 0; i < j->n; i++) {
		const row *r = &j->rows[i];
		if (!x->cur || strcmp(x->cur, r->e.repo) != 0) {
			if (finish_repo(x) < 0 || start_repo(x, &r->e) < 0)
				return -1;
		}
		if (x->cur_count++)
			fl_buf_putc(&x->arr, ',');
		fl_buf_put(&x->arr, r->raw, r->n);
	}
	return 0;
}

static void free_rows(row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].raw);
		fl_entry_free(&rows[i].e);
	}
}

/* The store's records in its order (repo, file, line, column, id). */
static int each_stored(fl_store *st, struct exp *x, fl_err *err)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(st->db, "SELECT " FL_RECORD_COLUMNS " FROM errors"
			       " ORDER BY repo, file_path, line_number, col, id", -1, &q, NULL) != SQLITE_OK)
		return fl_seterr(err, "store %s: listing records: %s", st->path, sqlite3_errmsg(st->db));
	row *buf[2] = {fl_xcalloc(CHUNK, sizeof **buf), fl_xcalloc(CHUNK, sizeof **buf)};
	size_t nbuf[2] = {0, 0};
	chunk_job job;
	bool running = false;
	int rc = 0, step = SQLITE_ROW, cur = 0;
	while (rc == 0) {
		/* read the next chunk while the workers process the previous one */
		row *rows = buf[cur];
		size_t n = 0;
		bool bad = false;
		while (step == SQLITE_ROW && n < CHUNK && (step = sqlite3_step(q)) == SQLITE_ROW) {
			size_t len;
			const char *raw = fl_store_row_record(st, q, 0, &len, err);
			if (!raw) {
				bad = true;
				break;
			}
			rows[n].raw = fl_xstrndup(raw, len);
			rows[n].n = len;
			memset(&rows[n].e, 0, sizeof rows[n].e);
			n++;
		}
		nbuf[cur] = n;
		if (bad)
			rc = -1;
		else if (step != SQLITE_ROW && step != SQLITE_DONE)
			rc = fl_seterr(err, "store %s: listing records: %s", st->path, sqlite3_errmsg(st->db));
		if (running) {
			int frc = finish_chunk(x, &job);
			free_rows(buf[!cur], nbuf[!cur]);
			nbuf[!cur] = 0;
			running = false;
			if (rc == 0)
				rc = frc;
		}
		if (rc < 0 || n == 0)
			break;
		start_chunk(x, &job, rows, n);
		running = true;
		cur = !cur;
	}
	if (running) {
		finish_chunk(x, &job);
		free_rows(buf[!cur], nbuf[!cur]);
	}
	free_rows(buf[cur], nbuf[cur]);
	free(buf[0]);
	free(buf[1]);
	sqlite3_finalize(q);
	return rc;
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const pub_file *)a)->rel, ((const pub_file *)b)->rel);
}

static void file_obj(fl_buf *b, const char *rel, long long bytes, const char *sha)
{
	char *path = fl_xasprintf("/data/%s", rel);
	fl_buf_puts(b, "{\"path\":");
	pub_json_str(b, path, false);
	fl_buf_printf(b, ",\"bytes\":%lld,\"sha256\":\"%s\"}", bytes, sha);
	free(path);
}

static const pub_file *find_file(const pub_writer *w, const char *rel)
{
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->files[i].rel, rel) == 0)
			return &w->files[i];
	return NULL;
}

/* index.json, repos.json, search/, then inventory.json (every file so far,
 * sorted) and manifest.json (counts, index, repos, inventory). */
static int write_index_and_manifest(struct exp *x)
{
	fl_buf b = {0};
	fl_buf_printf(&b, "{\"schemaVersion\":%d,\"datasetVersion\":\"%s\",\"errors\":[",
		      FL_SCHEMA_VERSION, x->version);
	for (size_t i = 0; i < x->n; i++) {
		if (i)
			fl_buf_putc(&b, ',');
		fl_buf_puts(&b, x->ents[i].json);
	}
	fl_buf_puts(&b, "]}");
	int rc = pub_writer_put(&x->w, "index.json", b.s, b.n, x->err);
	if (rc < 0)
		goto out;
	if (!x->nrepos_out)
		fl_buf_putc(&x->repos_out, '[');
	fl_buf_putc(&x->repos_out, ']');
	rc = pub_writer_put(&x->w, "repos.json", x->repos_out.s, x->repos_out.n, x->err);
	if (rc < 0 || (rc = pub_write_search(&x->w, x->ents, x->n, x->err)) < 0)
		goto out;
	if (x->nprov) {
		b.n = 0;
		fl_buf_printf(&b, "{\"schemaVersion\":%d,\"datasetVersion\":\"%s\",\"records\":{",
			      FL_SCHEMA_VERSION, x->version);
		fl_buf_put(&b, x->prov.s, x->prov.n);
		fl_buf_puts(&b, "}}");
		if ((rc = pub_writer_put(&x->w, "provenance.json", b.s, b.n, x->err)) < 0)
			goto out;
	}

	qsort(x->w.files, x->w.n, sizeof *x->w.files, cmp_file);
	b.n = 0;
	fl_buf_printf(&b, "{\"schemaVersion\":%d,\"datasetVersion\":\"%s\",\"files\":[",
		      FL_SCHEMA_VERSION, x->version);
	for (size_t i = 0; i < x->w.n; i++) {
		if (i)
			fl_buf_putc(&b, ',');
		file_obj(&b, x->w.files[i].rel, x->w.files[i].bytes, x->w.files[i].sha);
	}
	fl_buf_puts(&b, "]}");
	pub_file inv = {.rel = (char *)"inventory.json", .bytes = (long long)b.n};
	pub_sha256_hex(b.s, b.n, inv.sha);
	rc = write_new(x->w.root, "inventory.json", b.s, b.n, x->err);
	if (rc < 0)
		goto out;
	x->w.bytes += (long long)b.n;

	b.n = 0;
	fl_buf_printf(&b, "{\"schemaVersion\":%d,\"datasetVersion\":\"%s\","
		      "\"counts\":{\"repos\":%zu,\"errors\":%zu},\"files\":{\"index\":",
		      FL_SCHEMA_VERSION, x->version, x->nrepos_out, x->n);
	const pub_file *f = find_file(&x->w, "index.json");
	file_obj(&b, f->rel, f->bytes, f->sha);
	fl_buf_puts(&b, ",\"repos\":");
	f = find_file(&x->w, "repos.json");
	file_obj(&b, f->rel, f->bytes, f->sha);
	fl_buf_puts(&b, ",\"inventory\":");
	file_obj(&b, inv.rel, inv.bytes, inv.sha);
	fl_buf_puts(&b, "}}");
	rc = write_new(x->w.root, "manifest.json", b.s, b.n, x->err);
	x->w.bytes += (long long)b.n;
out:
	fl_buf_free(&b);
	return rc;
}

/* ---- the folder swap ------------------------------------------------------- */

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

int pub_swap_in(const char *tmp, const char *dir, fl_err *err)
{
	if (!pub_exists(dir)) {
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
	/* One atomic exchange where the file system has it: a reader of DIR
	 * (a site being served) finds the previous data set or the new one,
	 * never none; the previous one, now under the temporary name, is
	 * moved to the backup folder and removed (a kill meanwhile leaves
	 * it beside DIR, and the next export removes it). */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) == 0) {
		bool moved = rename(tmp, bak) == 0;
		pub_rmtree(moved ? bak : tmp);
		if (!moved)
			rmdir(bak);
		free(bak);
		return 0;
	}
	if (rename(dir, bak) < 0) {
		fl_seterr(err, "%s: cannot move the previous data set aside: %s", dir, strerror(errno));
		rmdir(bak);
		free(bak);
		return -1;
	}
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

int pub_flush_swap_in(const char *tmp, const char *dir, const char *what, fl_err *err)
{
	/* One flush of the file system before the swap (not one fsync per
	 * file): after a crash the renamed folder holds whole files. */
	int tfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0 || syncfs(tfd) < 0) {
		fl_seterr(err, "%s: cannot flush the new %s to disk: %s", tmp, what, strerror(errno));
		if (tfd >= 0)
			close(tfd);
		return -1;
	}
	close(tfd);
	return pub_swap_in(tmp, dir, err);
}

char *pub_dir_norm(const char *dir)
{
	char *d = fl_xstrdup(dir);
	size_t n = strlen(d);
	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	return d;
}

int pub_swap_begin(const char *dir, const char *marker, const char *what,
		   bool follow, int *lockfd, fl_err *err)
{
	char *parent, *base;
	split_dir(dir, &parent, &base);
	free(base);
	int rc = -1;
	*lockfd = -1;
	if (pub_mkdirs(parent, err) < 0)
		goto out;
	*lockfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*lockfd < 0 || flock(*lockfd, LOCK_EX) < 0) {
		fl_seterr(err, "%s: cannot lock: %s", parent, strerror(errno));
		goto out;
	}
	if (pub_recover(dir, err) < 0)
		goto out;
	if (pub_exists(dir)) {
		char *mp = fl_xasprintf("%s/%s", dir, marker);
		bool marked = pub_exists(mp);
		free(mp);
		DIR *d = follow ? opendir(dir) : pub_opendir_nofollow(dir);
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
		if (!marked && !empty) {
			fl_seterr(err, "%s: exists and is not %s (no %s); not replacing it",
				  dir, what, marker);
			goto out;
		}
	}
	rc = 0;
out:
	free(parent);
	return rc;
}

char *pub_temp_beside(const char *dir, fl_err *err)
{
	char *tmp = fl_xasprintf("%s.tmp-XXXXXX", dir);
	if (!mkdtemp(tmp)) {
		fl_seterr(err, "%s: cannot create a temporary folder: %s", tmp, strerror(errno));
		free(tmp);
		return NULL;
	}
	chmod(tmp, 0755);
	return tmp;
}

int fl_export(fl_store *st, const char *dir_in, fl_export_stats *stats,
	      fl_err *err)
{
	double t0 = fl_now_mono();
	char *dir = pub_dir_norm(dir_in);
	int lockfd = -1, rc = -1;
	struct exp x = {0};
	char *tmp = NULL;
	bool snap = false;
	if (pub_swap_begin(dir, "manifest.json", "a data set", true, &lockfd, err) < 0)
		goto out;

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

	if (!(tmp = pub_temp_beside(dir, err)))
		goto out;
	pub_writer_init(&x.w, tmp);
	x.store_path = st->path;
	/* one read transaction over the three reads: the repositories, their
	 * records and the provenance of one state of the store, while a batch
	 * may be writing (WAL: the writer does not wait for this reader) */
	snap = !st->in_tx && !st->schema_tx && sqlite3_get_autocommit(st->db) &&
	       sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	if (fl_store_each_repo(st, collect_repo, &x, err) < 0)
		goto out;
	/* the versions of the repositories scanned with --history (before
	 * each_stored moves the repositories out of x.repos) */
	if (pub_export_versions(st, &x.w, version, x.repos, x.nrepos, err) < 0)
		goto out;
	if (each_stored(st, &x, err) < 0)
		goto out;
	if (fl_store_each_provenance(st, collect_provenance, &x, err) < 0)
		goto out;
	if (snap) {
		sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
		snap = false;
	}
	if (finish_repo(&x) < 0 || empty_repos_before(&x, NULL) < 0)
		goto out;
	if (write_index_and_manifest(&x) < 0)
		goto out;
	if (pub_flush_swap_in(tmp, dir, "data set", err) < 0)
		goto out;
	free(tmp);
	tmp = NULL;
	fsync(lockfd);
	if (stats) {
		memset(stats, 0, sizeof *stats);
		snprintf(stats->dataset_version, sizeof stats->dataset_version, "%s", version);
		stats->repos = (long long)x.nrepos_out;
		stats->errors = (long long)x.n;
		stats->files = (long long)x.w.n + 2;
		stats->bytes = x.w.bytes;
		stats->seconds = fl_now_mono() - t0;
	}
	rc = 0;
out:
	if (snap)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
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
	fl_buf_free(&x.arr);
	fl_buf_free(&x.repos_out);
	fl_buf_free(&x.prov);
	for (size_t i = 0; i < x.n; i++)
		pub_ientry_free(&x.ents[i]);
	free(x.ents);
	pub_writer_free(&x.w);
	if (lockfd >= 0)
		close(lockfd);
	free(dir);
	return rc;
}
