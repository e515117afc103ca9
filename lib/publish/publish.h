/*
 * publish.h — internals of the publishing front end (lib/publish/):
 * escaping into fl_buf, file-system helpers, the data-set writer and reader
 * shared by export, import and site, the fast record reader, the search
 * shards, Markdown.  Not part of the public API (see the "publishing"
 * section of faultline.h).
 */
#ifndef FL_PUBLISH_H
#define FL_PUBLISH_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "faultline.h"
#include "util.h"

/* ---- escaping (buf.c) ---------------------------------------------------- */

/* HTML-escaped text (& < > " '), invalid UTF-8 replaced. */
void pub_html(fl_buf *b, const char *s);
void pub_html_n(fl_buf *b, const char *s, size_t n);
/* A URL path segment, percent-encoded where needed. */
void pub_urlpart(fl_buf *b, const char *s);
/* A JSON string (NULL: null) as jansson's compact dump writes it; with
 * html_safe also '/' as \/ and < > & as \u003c \u003e \u0026, so the text
 * is safe inside <script>. */
void pub_json_str(fl_buf *b, const char *s, bool html_safe);

/* ---- files (fsutil.c) --------------------------------------------------- */

int pub_mkdirs(const char *path, fl_err *err);          /* mkdir -p */
int pub_write_file(const char *path, const void *data, size_t n, fl_err *err);
/* Write path (creating its folder) unless it already holds exactly data;
 * *written (may be NULL) says whether it was written. */
int pub_write_if_changed(const char *path, const void *data, size_t n,
			 bool *written, fl_err *err);
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
/* Worker threads worth starting for n items: 1..4, by online cores. */
size_t pub_threads(size_t n);

/* ---- a data set being written (export.c) -------------------------------- */

typedef struct pub_file {
	char *rel;       /* path relative to the data set root */
	long long bytes;
	char sha[65];
} pub_file;

/* The folder being written and the inventory of what was written; puts
 * may come from several threads. */
typedef struct pub_writer {
	char *root;
	pub_file *files;
	size_t n, cap;
	long long bytes;
	pthread_mutex_t mu;
} pub_writer;

void pub_writer_init(pub_writer *w, const char *root);
/* Write root/rel (creating folders) and add it to the inventory. */
int pub_writer_put(pub_writer *w, const char *rel, const char *data, size_t n,
		   fl_err *err);
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
/* The same object written directly, byte for byte what pub_json_dump of
 * pub_index_obj gives. */
void pub_index_json(fl_buf *b, const fl_entry *e);
void pub_ientry_free(pub_ientry *ie);

/* search/ shards (shards.c): entries in index order. */
int pub_write_search(pub_writer *w, const pub_ientry *ents, size_t n,
		     fl_err *err);

/* ---- the fast record reader (dataset.c) ---------------------------------- */

/* Read one ErrorEntry object at *p (JSON whitespace first allowed) without
 * building a jansson tree: 1 with *out filled and *p past the object, or 0
 * when the text is anything but a well-formed object with exactly the
 * entry's keys and values of their types (the caller then takes the strict
 * jansson path, which names the problem).  No validation. */
int pub_entry_read(const char **p, const char *end, fl_entry *out);

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

/* Read a published data set and check all of it: manifest.json (size and
 * sha256 of index.json, repos.json and inventory.json), inventory.json
 * (size and sha256 of every other file), schemaVersion, every record
 * strictly, duplicate ids and slugs, records whose repository is not in
 * repos.json, errors/{id}.json agreeing with repos/{owner}/{name}.json,
 * index.json agreeing with the records, counts.  err names the file and
 * field. */
int pub_dataset_load(const char *dir, pub_dataset *out, fl_err *err);
/* The same for a data set this process has just exported: sizes only, no
 * sha256, no re-validation of records, no cross-file comparison. */
int pub_dataset_load_trusted(const char *dir, pub_dataset *out, fl_err *err);
void pub_dataset_free(pub_dataset *d);

/* ---- HTML (html.c) ------------------------------------------------------- */

/* Markdown (CommonMark via cmark-gfm) to HTML, raw HTML shown as text,
 * unsafe link schemes dropped. */
void pub_markdown(fl_buf *b, const char *md);

/* The same through a cache of short fields' HTML (one per thread). */
#define PUB_MD_SLOTS 1024
typedef struct pub_md_cache {
	char *md[PUB_MD_SLOTS];
	char *html[PUB_MD_SLOTS];
} pub_md_cache;
void pub_markdown_cached(pub_md_cache *c, fl_buf *b, const char *md);
void pub_md_cache_free(pub_md_cache *c);

#endif
