/*
 * publish.h — internals of the publishing front end (lib/publish/):
 * growable buffers, file-system helpers, the data-set writer and reader
 * shared by export, import and site, the search shards, HTML helpers.
 * Not part of the public API (see the "publishing" section of faultline.h).
 */
#ifndef FL_PUBLISH_H
#define FL_PUBLISH_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "faultline.h"

/* ---- buffers (buf.c) ---------------------------------------------------- */

typedef struct pub_buf {
	char *p;
	size_t n, cap;
} pub_buf;

void pub_buf_add(pub_buf *b, const char *s, size_t n);
void pub_buf_puts(pub_buf *b, const char *s);
void pub_buf_printf(pub_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* HTML-escaped text (& < > " '), invalid UTF-8 replaced. */
void pub_buf_html(pub_buf *b, const char *s);
void pub_buf_html_n(pub_buf *b, const char *s, size_t n);
/* A URL path segment, percent-encoded where needed. */
void pub_buf_urlpart(pub_buf *b, const char *s);
void pub_buf_free(pub_buf *b);

/* ---- files (fsutil.c) --------------------------------------------------- */

int pub_mkdirs(const char *path, fl_err *err);          /* mkdir -p */
int pub_write_file(const char *path, const void *data, size_t n, fl_err *err);
int pub_rmtree(const char *path);                        /* rm -rf; 0/-1 */
int pub_copytree(const char *src, const char *dst, fl_err *err);
bool pub_is_dir(const char *path);
bool pub_exists(const char *path);
void pub_sha256_hex(const void *data, size_t n, char out[65]);
/* Compact JSON (key order kept); when escape_html, '<' '>' '&' become
 * \u003c... so the text is safe inside <script>. Caller frees. */
char *pub_json_dump(json_t *o, bool escape_html);
/* Parse "YYYY-MM-DDTHH:MM:SS.mmmZ" into ms since the epoch; -1 if bad. */
long long pub_iso_ms(const char *s);
void pub_ms_iso(long long ms, char out[32]);

/* ---- a data set being written (export.c) -------------------------------- */

typedef struct pub_file {
	char *rel;       /* path relative to the data set root */
	long long bytes;
	char sha[65];
} pub_file;

struct pub_wjob;

typedef struct pub_writer {
	char *root;      /* folder being written */
	pub_file *files;
	size_t n, cap;
	char lastdir[4096];
	long long bytes;
	/* background writing (pub_writer_start): a bounded queue */
	bool async;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct pub_wjob *q;
	size_t qhead, qlen;
	bool closing;
	int rc;
	fl_err werr;
} pub_writer;

/* Write root/rel (creating folders) and add it to the inventory.  After
 * pub_writer_start the write happens on a background thread; a failure is
 * reported by a later put or by pub_writer_finish. */
int pub_writer_put(pub_writer *w, const char *rel, const char *data, size_t n,
		   fl_err *err);
void pub_writer_start(pub_writer *w);
int pub_writer_finish(pub_writer *w, fl_err *err);
void pub_writer_free(pub_writer *w);
/* Clean up after a killed export: restore DIR from its backup when DIR is
 * missing, remove stale DIR.tmp-* and DIR.bak-* siblings. */
int pub_recover(const char *dir, fl_err *err);

/* ---- the compact index entry (index.json, search/meta) ------------------ */

typedef struct pub_ientry {
	char *id;
	char *code;          /* NULL when none */
	char *msg;
	char *json;          /* compact {"id","repo","slug","code","msg",...} */
} pub_ientry;

json_t *pub_index_obj(const fl_entry *e);
void pub_ientry_free(pub_ientry *ie);

/* search/ shards (shards.c): entries in index order. */
int pub_write_search(pub_writer *w, const pub_ientry *ents, size_t n,
		     fl_err *err);

/* ---- a data set read and checked (dataset.c) ---------------------------- */

typedef struct pub_repo_set {
	fl_repo repo;
	fl_entry *entries;   /* in file order */
	size_t n;
} pub_repo_set;

typedef struct pub_dataset {
	char dataset_version[32];
	pub_repo_set *repos; /* in repos.json order */
	size_t nrepos;
	size_t nerrors;
} pub_dataset;

/* Read a published data set and check all of it: manifest inventory (size,
 * sha256), schemaVersion, every record strictly, duplicate ids and slugs,
 * records whose repository is not in repos.json, errors/{id}.json agreeing
 * with repos/{owner}/{name}.json, counts.  err names the file and field. */
int pub_dataset_load(const char *dir, pub_dataset *out, fl_err *err);
/* The same for a data set this process has just exported: no sha256, no
 * re-validation of records, no cross-file comparison. */
int pub_dataset_load_trusted(const char *dir, pub_dataset *out, fl_err *err);
void pub_dataset_free(pub_dataset *d);

/* ---- HTML (html.c) ------------------------------------------------------- */

/* Markdown (CommonMark via cmark-gfm) to HTML, raw HTML shown as text,
 * unsafe link schemes dropped. */
void pub_buf_markdown(pub_buf *b, const char *md);

#endif
