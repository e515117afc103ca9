/*
 * publish.h — internals of the publishing front end (lib/publish/):
 * escaping into fl_buf, file-system helpers, the data-set writer and reader
 * shared by export, import and site, the fast record reader, the search
 * shards, Markdown.  Not part of the public API (see the "publishing"
 * section of faultline.h).
 */
#ifndef FL_PUBLISH_H
#define FL_PUBLISH_H

#include <dirent.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

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
/* Write path whole, atomically: a hidden temporary name in the same
 * folder, then rename() over path (a symbolic link there is replaced). */
int pub_write_file(const char *path, const void *data, size_t n, fl_err *err);
/* Write path (creating its folder) unless it already holds exactly data;
 * *written (may be NULL) says whether it was written. */
int pub_write_if_changed(const char *path, const void *data, size_t n,
			 bool *written, fl_err *err);
int pub_rmtree(const char *path);                        /* rm -rf; 0/-1 */
int pub_rmtree_at(int dirfd, const char *name);          /* the same beneath dirfd */
/* dst (an existing folder) gets src's folders and regular files, each file
 * a hard link to src's (a copy where it cannot be linked): the files are
 * shared until one side writes a new file in its place (pub_write_file
 * renames, so neither side's files change under the other). */
int pub_link_tree(const char *src, const char *dst, fl_err *err);
/* dir without its trailing slashes (caller frees). */
char *pub_dir_norm(const char *dir);
/* The start of a folder swap (export, publish): dir's parent created and
 * locked against another swap beside it (*lockfd, -1 when not opened),
 * what a killed swap left there cleaned up (pub_recover), and dir checked
 * to be absent, an empty folder or one holding marker ("%s: exists and is
 * not <what> (no <marker>)" otherwise); follow: dir may be a symbolic link
 * to a folder. */
int pub_swap_begin(const char *dir, const char *marker, const char *what,
		   bool follow, int *lockfd, fl_err *err);
/* A new folder beside dir for its next content: dir.tmp-XXXXXX, 0755. */
char *pub_temp_beside(const char *dir, fl_err *err);
/* Put the folder tmp in dir's place, atomically where the file system can
 * (RENAME_EXCHANGE), and remove the previous dir (export.c). */
int pub_swap_in(const char *tmp, const char *dir, fl_err *err);
/* The same after one flush of tmp's file system (syncfs), so that after a
 * crash dir holds whole files; what names tmp in an error ("data set"). */
int pub_flush_swap_in(const char *tmp, const char *dir, const char *what, fl_err *err);
/* opendir, but NULL when the last component is a symbolic link */
DIR *pub_opendir_nofollow(const char *path);
bool pub_is_dir(const char *path);
bool pub_exists(const char *path);
void pub_sha256_hex(const void *data, size_t n, char out[65]);
/* The same of the rest of open file fd, streamed (fl_sha256_fd: -1 with
 * errno EFBIG past max bytes); *n the bytes hashed. */
int pub_sha256_fd_hex(int fd, uint64_t max, char out[65], uint64_t *n);
/* Compact JSON (key order kept); when escape_html, '<' '>' '&' become
 * \u003c... so the text is safe inside <script>. Caller frees. */
char *pub_json_dump(json_t *o, bool escape_html);
/* Parse "YYYY-MM-DDTHH:MM:SS.mmmZ" into ms since the epoch; -1 if bad. */
long long pub_iso_ms(const char *s);
void pub_ms_iso(long long ms, char out[32]);
/* Worker threads worth starting for n items: 1..4, by online cores. */
size_t pub_threads(size_t n);

/* ---- a data set's files (fsutil.c) ---------------------------------------
 * Only files its inventory lists are read or copied, only as regular files
 * beneath its folder: no symbolic link is followed (in any component), no
 * FIFO, socket or device opened for reading; sizes are checked (fstat)
 * before a byte is read. */

/* The most one data set file may hold (the README says so): its records
 * are read whole, and a sparse terabyte must not be. */
#define PUB_FILE_MAX ((uint64_t)1 << 30)
/* manifest.json: a few hundred bytes whatever the size of the data set */
#define PUB_MANIFEST_MAX ((uint64_t)1 << 20)
/* folder levels of a data set (its own are 3: search/tokens/hh.json) */
#define PUB_TREE_DEPTH 32

/* "a symbolic link", "a FIFO", "a socket", "a device", "a folder", ... */
const char *pub_kind(unsigned mode);
/* Open root/rel for reading, rel a checked relative path (no empty, '.'
 * or '..' segment) under the folder rootfd: openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS, else one O_NOFOLLOW component at a time; a FIFO is
 * never waited for (O_NONBLOCK).  The descriptor with its fstat in *sb, or
 * -1 with errno (ENOENT: missing) and err naming the path and what it is. */
int pub_open_beneath(int rootfd, const char *root, const char *rel, struct stat *sb,
		     fl_err *err);
/* root/rel whole (NUL-terminated) after pub_open_beneath: refused unless
 * its size is want (when want >= 0; who says so: "inventory.json") and at
 * most max bytes, both checked before reading. */
char *pub_read_beneath(int rootfd, const char *root, const char *rel, long long want,
		       const char *who, uint64_t max, size_t *len, fl_err *err);
/* Everything under the folder rootfd is a regular file or a folder, at most
 * PUB_TREE_DEPTH deep; else err names the first entry that is not (what:
 * "a data set", "a site folder"). */
int pub_check_tree(int rootfd, const char *root, const char *what, fl_err *err);
/* Copy the files rels[0..n) of the data set root (folder rootfd) into dst
 * (created), each opened by pub_open_beneath and hard-linked when it can
 * be (checked to be the inode opened), else copied from that descriptor. */
int pub_copy_listed(int rootfd, const char *root, const char *dst, char *const *rels,
		    size_t n, fl_err *err);

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
/* versions/{owner}/{name}.json of each of the repositories that has
 * versions (export_versions.c). */
int pub_export_versions(fl_store *st, pub_writer *w, const char *dataset_version,
			const fl_repo *repos, size_t nrepos, fl_err *err);
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
	char **files;        /* every file of the data set: manifest.json,
			      * inventory.json and what the inventory lists
			      * (pub_dataset_load only) */
	size_t nfiles;
} pub_dataset;

/* Read a published data set and check all of it: manifest.json (size and
 * sha256 of index.json, repos.json and inventory.json), inventory.json
 * (size and sha256 of every other file), schemaVersion, every record
 * strictly, duplicate ids and slugs, records whose repository is not in
 * repos.json, errors/{id}.json agreeing with repos/{owner}/{name}.json,
 * index.json agreeing with the records, counts.  err names the file and
 * field. */
int pub_dataset_load(const char *dir, pub_dataset *out, fl_err *err);
/* Load and check the data set src (pub_dataset_load), then put a copy of
 * its files, and only those, at dst: into a sibling dst.tmp-copy, then
 * swapped in with one atomic rename (renameat2 RENAME_EXCHANGE when dst
 * exists), so a reader of dst never finds it missing.  out (may be NULL)
 * gets the loaded data set; with old, the replaced copy is left for the
 * caller to remove (*old: its path, or NULL), else removed. */
int pub_dataset_copy(const char *src, const char *dst, pub_dataset *out, char **old,
		     fl_err *err);
/* pub_dataset_copy of src at dst unless dst.stamp already says stamp (the
 * data set's version): what `serve --data --no-site` serves. */
int pub_dataset_mirror(const char *src, const char *dst, const char *stamp, fl_err *err);
/* The same for a data set this process has just exported: sizes only, no
 * sha256, no re-validation of records, no cross-file comparison. */
int pub_dataset_load_trusted(const char *dir, pub_dataset *out, fl_err *err);
void pub_dataset_free(pub_dataset *d);
/* One file of the data set dir, unchecked (e.g. manifest.json for its
 * datasetVersion), read as pub_dataset_load reads: pub_read_beneath. */
char *pub_dataset_read(const char *dir, const char *rel, uint64_t max, size_t *len,
		       fl_err *err);

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
