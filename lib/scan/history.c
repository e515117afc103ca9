/*
 * history.c — the history scan (`scan --history`): every version of a
 * repository (the tags it selects, in version order, then HEAD) read from
 * the object store without a checkout.  Between two versions only the
 * blobs a tree diff names are read; a blob is scanned once (its sites are
 * kept by blob id and language, so one that comes back is not scanned
 * again), and the per-version record sets are merged into one: each
 * record with the runs of versions it exists in (versions.h), its content
 * from the last version that has it.  The whole is written in one
 * transaction (persist.h), with the versions (store_versions.c).
 *
 * Per-tree facts (a language's collect pass, e.g. C's own reporter
 * functions): the first version collects its whole tree, as a scan of it
 * does; each later version adds the facts of the blobs it scans, and a
 * blob keeps the sites its scan found.  The last version (HEAD) is
 * scanned whole, with its own facts only: its records are those a scan of
 * it finds (a reporter function gone since, or one added in a file whose
 * callers did not change, would otherwise make them differ).
 *
 * Resuming: when the store holds a history scan of the repository made
 * with the same options (its key, fl_store_history_get_key) and its
 * versions begin this one's list, the scan goes on from the last of them
 * that is a tag (L): the files of L are listed from its tree and given
 * the records the store says they hold there, with their lines (runs);
 * blobs are known by id from the store's blob numbers ("stubs", scanned
 * only when a later version has one again in a changed file, or a record
 * must be written again from it).  The facts of the versions after L
 * start from L's whole tree.  Records whose versions end before L and
 * did not change stay as stored (fl_sw_begin_keep_ids); those that were
 * in a version dropped since (the HEAD of the last scan) are written
 * again at their new last version, or deleted when none is left.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parallel.h"
#include "../store_internal.h"
#include "../strmap.h"
#include "../util.h"
#include "core.h"
#include "describe.h"
#include "filter.h"
#include "gitlib.h"
#include "lang.h"
#include "persist.h"
#include "sites.h"
#include "tree.h"
#include "versions.h"

#define G fl_git(NULL)
#define NONE UINT32_MAX
#define NLANGS_MAX 16

/* A record's text in one blob: its site, message and pattern; first: the
 * index of the earlier candidate of the same record (another site of it),
 * or NONE. */
struct hcand {
	char *msg, *pat;
	const char *code;       /* points into the blob's sites */
	uint32_t site;
	uint32_t first;
};

/* A blob scanned as one language (or left out by its content). */
struct hblob {
	git_oid oid;
	const fl_lang *lang;
	const char *path;       /* the path it was first met at (for the
				   scanner; valid while it is being scanned) */
	int skip;               /* -1: scanned; else an fl_skip rule */
	fl_sites *sites;
	struct hcand *c;
	size_t nc;
	char *text;             /* between its read and its scan */
	size_t len;
	void *cache;            /* what collect_keep() kept for its scan */
	void *part;             /* its facts, collected, until folded in */
	uint32_t canon;         /* the first blob of the same id and language
				   (itself, or the one a whole scan of the
				   last version scanned again): runs compare
				   these */
	bool stub;              /* known from the store (resuming), not
				   scanned: no sites */
};

/* A file of the current version. */
struct hfile {
	char *path;
	git_oid oid;
	const fl_lang *lang;
	int rule;               /* -1: the scan reads it; else fl_skip */
	uint32_t blob;          /* its hblob, NONE until known */
	uint32_t *recs;         /* per candidate of its blob: the record, or
				   NONE (another site); NULL until known */
	uint32_t *held;         /* resuming, a file unchanged since L (its
				   blob a stub): the records the store says
				   it holds, at lines held_line */
	int *held_line;
	size_t nheld;
};

struct hrec {
	char id[17];
	char *path;
	const fl_lang *lang;
	uint32_t blob, cand;    /* in its last version so far */
	int last;
	fl_vruns runs;
	char *slug;
	bool written;
	int stored_last;        /* resuming, a record of the store: its last
				   version there; else -1 */
	char *stored_slug;      /* ... its slug there */
	char *text;             /* ... what its slug is made of (code, else
				   message) */
	bool keep;              /* stays as stored (not written again) */
};

struct hversion {
	char *name;
	git_oid commit;
	char sha[41];
};

struct hist {
	const fl_history_opts *o;
	git_repository *repo;
	struct hblob *blobs;
	size_t nblobs, capblobs;
	fl_strmap blob_map;     /* "<oid hex>/<language>" -> blob */
	struct hrec *recs;
	size_t nrecs, caprecs;
	fl_strmap rec_map;      /* id -> record */
	struct hfile *files;
	size_t nfiles;
	void *lang_trees[NLANGS_MAX];
	uint32_t *todo;         /* blobs to read and scan in this version */
	size_t ntodo;
	const char *repo_name;
	fl_scan_opts so;        /* the skip rules' options */
	bool whole;             /* the last version: every blob scanned again */
	size_t kept_bytes;      /* of its texts kept for writing */
	int from;               /* resuming: the first version scanned (L + 1);
				   else 0 */
	/* the repository opened once more for each thread that reads blobs
	 * (a libgit2 object is used by one thread at a time) */
	const char *path;
	git_repository *pool[64];
	size_t npool;
	pthread_mutex_t pool_mu;
};

static int giterr(fl_err *err, const char *what)
{
	const git_error *e = G->error_last();
	fl_seterr(err, "%s: %s", what, e && e->message ? e->message : "libgit2 failed");
	G->error_clear();
	return -1;
}

/* A repository for this thread's reads, or NULL (err says why). */
static git_repository *repo_take(struct hist *h, fl_err *err)
{
	git_repository *r = NULL;
	pthread_mutex_lock(&h->pool_mu);
	if (h->npool)
		r = h->pool[--h->npool];
	pthread_mutex_unlock(&h->pool_mu);
	if (!r && G->repository_open_ext(&r, h->path, 0, NULL) < 0) {
		giterr(err, h->path);
		return NULL;
	}
	return r;
}

static void repo_give(struct hist *h, git_repository *r)
{
	pthread_mutex_lock(&h->pool_mu);
	if (h->npool < sizeof h->pool / sizeof h->pool[0]) {
		h->pool[h->npool++] = r;
		r = NULL;
	}
	pthread_mutex_unlock(&h->pool_mu);
	if (r)
		G->repository_free(r);
}

static int lang_index(const fl_lang *l)
{
	for (int i = 0; fl_langs[i] && i < NLANGS_MAX; i++)
		if (fl_langs[i] == l)
			return i;
	return -1;
}

/* ---- versions ------------------------------------------------------------ */

struct tag {
	char *name;
	git_oid oid;
};

struct taglist {
	struct tag *v;
	size_t n, cap;
};

static int tag_cb(const char *name, git_oid *oid, void *payload)
{
	struct taglist *l = payload;
	if (strncmp(name, "refs/tags/", 10) == 0)
		name += 10;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = fl_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n].name = fl_xstrdup(name);
	G->oid_cpy(&l->v[l->n].oid, oid);
	l->n++;
	return 0;
}

static int cmp_tag(const void *a, const void *b)
{
	return fl_version_cmp(((const struct tag *)a)->name, ((const struct tag *)b)->name);
}

/* The commit a tag names (an annotated tag peeled); -1 when it names
 * something else, err saying what. */
static int tag_commit(git_repository *repo, const struct tag *t, git_oid *out, fl_err *err)
{
	git_object *obj = NULL, *target = NULL;
	if (G->object_lookup(&obj, repo, &t->oid, GIT_OBJECT_ANY) < 0)
		return giterr(err, t->name);
	git_object_t type = G->object_type(obj);
	if (type == GIT_OBJECT_TAG) {
		if (G->object_peel(&target, obj, GIT_OBJECT_ANY) < 0) {
			G->object_free(obj);
			return giterr(err, t->name);
		}
		type = G->object_type(target);
	}
	int rc = 0;
	if (type != GIT_OBJECT_COMMIT)
		rc = fl_seterr(err, "tag %s points at a %s, not a commit: leave it out"
			       " (--tags GLOB chooses the tags to scan)", t->name,
			       G->object_type2string(type));
	else
		G->oid_cpy(out, G->object_id(target ? target : obj));
	G->object_free(target);
	G->object_free(obj);
	return rc;
}

/* The versions to scan: the tags o selects, in version order, from
 * --since on, then HEAD (unless it is the last tag's commit). */
static int list_versions(struct hist *h, struct hversion **out, size_t *nout, fl_err *err)
{
	const fl_history_opts *o = h->o;
	struct taglist l = {0};
	*out = NULL;
	*nout = 0;
	if (G->tag_foreach(h->repo, tag_cb, &l) < 0) {
		giterr(err, "listing the tags");
		goto fail;
	}
	bool *keep = fl_xcalloc(l.n ? l.n : 1, sizeof *keep);
	if (o->tags) {
		for (size_t i = 0; i < l.n; i++)
			keep[i] = fnmatch(o->tags, l.v[i].name, 0) == 0;
	} else {
		const char **names = fl_xcalloc(l.n ? l.n : 1, sizeof *names);
		for (size_t i = 0; i < l.n; i++)
			names[i] = l.v[i].name;
		fl_version_pick_releases(names, l.n, keep);
		free(names);
	}
	size_t n = 0;
	for (size_t i = 0; i < l.n; i++) {
		if (keep[i]) {
			l.v[n++] = l.v[i];
		} else {
			free(l.v[i].name);
		}
	}
	free(keep);
	size_t all = l.n;
	l.n = n;
	if (!n) {
		if (o->tags)
			fl_seterr(err, "%s: no tag matches %s (of %zu tag%s): --history scans tagged versions",
				  o->path, o->tags, all, all == 1 ? "" : "s");
		else if (all)
			fl_seterr(err, "%s: none of its %zu tag%s names a release (such as v1.2.3):"
				  " --tags GLOB chooses the tags to scan", o->path, all, all == 1 ? "" : "s");
		else
			fl_seterr(err, "%s: the repository has no tags: --history scans tagged versions",
				  o->path);
		goto fail;
	}
	qsort(l.v, l.n, sizeof *l.v, cmp_tag);
	size_t from = 0;
	if (o->since) {
		for (from = 0; from < l.n && strcmp(l.v[from].name, o->since) != 0; from++)
			;
		if (from == l.n) {
			fl_seterr(err, "--since %s: not one of the %zu tag%s scanned (%s ... %s)",
				  o->since, l.n, l.n == 1 ? "" : "s", l.v[0].name, l.v[l.n - 1].name);
			goto fail;
		}
	}
	struct hversion *v = fl_xcalloc(l.n - from + 1, sizeof *v);
	size_t nv = 0;
	for (size_t i = from; i < l.n; i++) {
		if (tag_commit(h->repo, &l.v[i], &v[nv].commit, err) < 0) {
			for (size_t k = 0; k < nv; k++)
				free(v[k].name);
			free(v);
			goto fail;
		}
		v[nv].name = fl_xstrdup(l.v[i].name);
		G->oid_tostr(v[nv].sha, sizeof v[nv].sha, &v[nv].commit);
		nv++;
	}
	git_object *head = NULL, *hc = NULL;
	if (G->revparse_single(&head, h->repo, "HEAD") == 0 &&
	    G->object_peel(&hc, head, GIT_OBJECT_COMMIT) == 0) {
		const git_oid *id = G->object_id(hc);
		char sha[41];
		G->oid_tostr(sha, sizeof sha, id);
		if (strcmp(sha, v[nv - 1].sha) != 0) {
			v[nv].name = fl_xstrdup("HEAD");
			G->oid_cpy(&v[nv].commit, id);
			memcpy(v[nv].sha, sha, 41);
			nv++;
		}
	}
	G->object_free(hc);
	G->object_free(head);
	G->error_clear(); /* no HEAD (a repository of tags only): the tags */
	*out = v;
	*nout = nv;
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i].name);
	free(l.v);
	return 0;
fail:
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i].name);
	free(l.v);
	return -1;
}

/* ---- the files of a version ----------------------------------------------- */

struct change {
	const char *path;       /* in the diff */
	git_oid oid;
	bool del;
};

static int cmp_change(const void *a, const void *b)
{
	return strcmp(((const struct change *)a)->path, ((const struct change *)b)->path);
}

static void drop_held(struct hfile *f)
{
	free(f->held);
	free(f->held_line);
	f->held = NULL;
	f->held_line = NULL;
	f->nheld = 0;
}

static void drop_file(struct hfile *f)
{
	free(f->path);
	free(f->recs);
	drop_held(f);
}

/* The family of a blob's `#!` line (a script named without an
 * extension), or NULL; blobs over FL_HEAD_BLOB_MAX are not read. */
static const fl_lang *script_lang(struct hist *h, const git_oid *oid)
{
	git_odb *odb = NULL;
	size_t len = 0;
	git_object_t type;
	bool small = G->repository_odb(&odb, h->repo) == 0 &&
		     G->odb_read_header(&len, &type, odb, oid) == 0 && len <= FL_HEAD_BLOB_MAX;
	G->odb_free(odb);
	git_blob *b = NULL;
	const fl_lang *L = NULL;
	if (small && G->blob_lookup(&b, h->repo, oid) == 0) {
		size_t n = (size_t)G->blob_rawsize(b);
		L = fl_lang_for_script(G->blob_rawcontent(b), n < 256 ? n : 256);
		G->blob_free(b);
	}
	G->error_clear();
	return L;
}

static void set_file(struct hist *h, struct hfile *f, const char *path, const git_oid *oid)
{
	f->path = fl_xstrdup(path);
	G->oid_cpy(&f->oid, oid);
	f->lang = fl_lang_for_path(path);
	f->rule = fl_filter_path(path, f->lang, &h->so);
	if (f->rule == FL_SKIP_LANGUAGE && fl_lang_may_be_script(path) &&
	    (f->lang = script_lang(h, oid)) != NULL)
		f->rule = fl_filter_path(path, f->lang, &h->so);
	if (f->rule < 0 && fl_file_path_problem(path))
		f->rule = FL_SKIP_NAME;
	f->blob = NONE;
	f->recs = NULL;
	f->held = NULL;
	f->held_line = NULL;
	f->nheld = 0;
}

/* The files of the version whose tree is tree, from those of the version
 * before (old, NULL for the first): the diff's added, changed and deleted
 * files merged into the list, in path order.  *changed: how many files the
 * scan reads were added or changed. */
static int next_files(struct hist *h, git_tree *old, git_tree *tree, long long *changed,
		      fl_err *err)
{
	git_diff *diff = NULL;
	git_diff_options opts;
	memset(&opts, 0, sizeof opts); /* GIT_DIFF_OPTIONS_INIT, field by field */
	opts.version = GIT_DIFF_OPTIONS_VERSION;
	opts.ignore_submodules = GIT_SUBMODULE_IGNORE_UNSPECIFIED;
	opts.context_lines = 3;
	opts.flags = GIT_DIFF_SKIP_BINARY_CHECK;
	if (G->diff_tree_to_tree(&diff, h->repo, old, tree, &opts) < 0)
		return giterr(err, "comparing two versions' trees");
	size_t nd = G->diff_num_deltas(diff);
	struct change *ch = fl_xcalloc(nd ? nd : 1, sizeof *ch);
	size_t nc = 0;
	for (size_t i = 0; i < nd; i++) {
		const git_diff_delta *d = G->diff_get_delta(diff, i);
		struct change *c = &ch[nc];
		if (d->status == GIT_DELTA_DELETED) {
			c->path = d->old_file.path;
			c->del = true;
		} else {
			c->path = d->new_file.path;
			G->oid_cpy(&c->oid, &d->new_file.id);
			/* a symbolic link or a submodule is no file to scan */
			c->del = d->new_file.mode != GIT_FILEMODE_BLOB &&
				 d->new_file.mode != GIT_FILEMODE_BLOB_EXECUTABLE;
		}
		if (c->path)
			nc++;
	}
	qsort(ch, nc, sizeof *ch, cmp_change);
	struct hfile *nf = fl_xcalloc(h->nfiles + nc + 1, sizeof *nf);
	size_t n = 0, i = 0, j = 0;
	*changed = 0;
	while (i < h->nfiles || j < nc) {
		int c = i == h->nfiles ? 1 : j == nc ? -1 : strcmp(h->files[i].path, ch[j].path);
		if (c < 0) {
			nf[n++] = h->files[i++];
			continue;
		}
		if (c == 0) {
			drop_file(&h->files[i++]);
		}
		/* a path may come twice (deleted as one kind, added as
		 * another): the last one stands */
		if (!ch[j].del) {
			if (n && strcmp(nf[n - 1].path, ch[j].path) == 0)
				drop_file(&nf[--n]);
			set_file(h, &nf[n], ch[j].path, &ch[j].oid);
			if (nf[n].rule < 0)
				(*changed)++;
			n++;
		}
		j++;
	}
	free(h->files);
	h->files = nf;
	h->nfiles = n;
	free(ch);
	G->diff_free(diff);
	return 0;
}

/* ---- blobs ------------------------------------------------------------------ */

/* A new blob of id oid as language lang, filed under key; canon: the blob
 * its runs compare as (NONE: itself). */
static uint32_t new_blob(struct hist *h, const git_oid *oid, const fl_lang *lang,
			 const char *key, size_t canon)
{
	if (h->nblobs == h->capblobs) {
		h->capblobs = h->capblobs ? h->capblobs * 2 : 1024;
		h->blobs = fl_xrealloc(h->blobs, h->capblobs * sizeof *h->blobs);
	}
	struct hblob *bl = &h->blobs[h->nblobs];
	memset(bl, 0, sizeof *bl);
	G->oid_cpy(&bl->oid, oid);
	bl->lang = lang;
	bl->skip = -1;
	bl->canon = canon == NONE ? (uint32_t)h->nblobs : (uint32_t)canon;
	fl_strmap_put(&h->blob_map, key, h->nblobs);
	return (uint32_t)h->nblobs++;
}

/* The blob of file f: one scanned before (same id, same language), or a
 * new one queued for reading and scanning. */
static uint32_t file_blob(struct hist *h, struct hfile *f, bool *fresh)
{
	char key[GIT_OID_HEXSZ + 1 + 32];
	G->oid_tostr(key, GIT_OID_HEXSZ + 1, &f->oid);
	snprintf(key + GIT_OID_HEXSZ, sizeof key - GIT_OID_HEXSZ, "/%s", f->lang->name);
	size_t b, canon = NONE;
	*fresh = false;
	if (h->whole) {
		/* the blob scanned before, if any, for the runs */
		if (fl_strmap_get(&h->blob_map, key, &b))
			canon = b;
		strcat(key, "/whole");
	}
	if (fl_strmap_get(&h->blob_map, key, &b)) {
		struct hblob *bl = &h->blobs[b];
		if (bl->stub) {
			/* known from the store only: scanned now */
			bl->stub = false;
			bl->path = f->path;
			h->todo[h->ntodo++] = (uint32_t)b;
			*fresh = true;
		}
		return (uint32_t)b;
	}
	uint32_t nb = new_blob(h, &f->oid, f->lang, key, canon);
	h->blobs[nb].path = f->path;
	h->todo[h->ntodo++] = nb;
	*fresh = true;
	return nb;
}

/* Blob b's content (NUL-terminated, malloc'd), or NULL: over the size
 * limit (*large), or not readable (err). */
static char *read_blob(git_repository *repo, const git_oid *oid, size_t *len, bool *large,
		       fl_err *err)
{
	git_blob *blob = NULL;
	*large = false;
	if (G->blob_lookup(&blob, repo, oid) < 0) {
		char hex[GIT_OID_HEXSZ + 1];
		G->oid_tostr(hex, sizeof hex, oid);
		giterr(err, hex);
		return NULL;
	}
	git_object_size_t size = G->blob_rawsize(blob);
	if (size > FL_MAX_FILE) {
		*large = true;
		G->blob_free(blob);
		return NULL;
	}
	char *text = fl_xmalloc((size_t)size + 1);
	memcpy(text, G->blob_rawcontent(blob), (size_t)size);
	text[size] = '\0';
	*len = (size_t)size;
	G->blob_free(blob);
	return text;
}

/* Whether a text of len bytes may be kept after its scan (any thread). */
static bool keep_text(struct hist *h, size_t len)
{
	enum { KEEP_MAX = 256 << 20 };
	size_t was = __atomic_fetch_add(&h->kept_bytes, len, __ATOMIC_RELAXED);
	if (was + len <= KEEP_MAX)
		return true;
	__atomic_fetch_sub(&h->kept_bytes, len, __ATOMIC_RELAXED);
	return false;
}

/* On any thread: blob i of the todo list scanned, its candidates made. */
static void scan_blob(void *arg, size_t i)
{
	struct hist *h = arg;
	struct hblob *b = &h->blobs[h->todo[i]];
	if (b->skip >= 0)
		return;
	fl_src src = {b->path, b->text, b->len, b->cache};
	b->cache = NULL; /* scan() takes it */
	b->sites = fl_sites_new();
	int li = lang_index(b->lang);
	b->lang->scan(li >= 0 ? h->lang_trees[li] : NULL, &src, b->sites);
	fl_sites_sort(b->sites);
	/* lines as fl_line_index counts them: a last '\n' ends the last */
	size_t nlines = b->len ? 1 : 0;
	for (const char *p = b->text, *e = b->text + b->len;
	     (p = memchr(p, '\n', (size_t)(e - p))) && p + 1 < e; p++)
		nlines++;
	fl_strmap seen = {0};
	b->c = fl_xcalloc(b->sites->n ? b->sites->n : 1, sizeof *b->c);
	for (size_t k = 0; k < b->sites->n; k++) {
		fl_site *s = &b->sites->v[k];
		if ((size_t)s->line > nlines)
			s->line = nlines ? (int)nlines : 1;
		struct hcand *c = &b->c[b->nc];
		if (!fl_site_record_text(s, &c->msg, &c->pat, &c->code))
			continue;
		c->site = (uint32_t)k;
		c->first = NONE;
		/* the record's id holds the code, else the message: the same
		 * key in one file is the same record */
		size_t first;
		const char *key = c->code ? c->code : c->msg;
		if (fl_strmap_get(&seen, key, &first))
			c->first = (uint32_t)first;
		else
			fl_strmap_put(&seen, key, b->nc);
		b->nc++;
	}
	fl_strmap_free(&seen);
	/* the last version's texts are written next (write_store): kept,
	 * up to a bound */
	if (!h->whole || !keep_text(h, b->len)) {
		free(b->text);
		b->text = NULL;
	}
}

/* On any thread: the facts of blob i of the todo list into a part of its
 * own, for a language that merges parts (see scan_todo). */
static void collect_part(void *arg, size_t i)
{
	struct hist *h = arg;
	struct hblob *b = &h->blobs[h->todo[i]];
	const fl_lang *L = b->lang;
	int li = lang_index(L);
	if (b->skip >= 0 || li < 0 || !h->lang_trees[li] || !L->collect || !L->tree_merge ||
	    !L->tree_new || !L->tree_free)
		return;
	fl_src src = {b->path, b->text, b->len, NULL};
	b->part = L->tree_new();
	if (L->collect_keep)
		b->cache = L->collect_keep(b->part, &src);
	else
		L->collect(b->part, &src);
}

/* On any thread: blob i of the todo list read (one left out by its size
 * or content marked so; one that cannot be read: its error). */
struct rd {
	struct hist *h;
	long long *len;         /* per item: bytes read, or -1: failed */
	fl_err *errs;
};

static void read_item(void *arg, size_t i)
{
	struct rd *rd = arg;
	struct hist *h = rd->h;
	struct hblob *b = &h->blobs[h->todo[i]];
	rd->len[i] = 0;
	git_repository *repo = repo_take(h, &rd->errs[i]);
	if (!repo) {
		rd->len[i] = -1;
		return;
	}
	bool large;
	b->text = read_blob(repo, &b->oid, &b->len, &large, &rd->errs[i]);
	repo_give(h, repo);
	if (large) {
		b->skip = FL_SKIP_LARGE;
		return;
	}
	if (!b->text) {
		rd->len[i] = -1;
		return;
	}
	int rule = fl_filter_content(b->text, b->len);
	if (rule >= 0) {
		b->skip = rule;
		free(b->text);
		b->text = NULL;
		return;
	}
	rd->len[i] = (long long)b->len;
}

/* Read the todo list's blobs, on every core; *bytes counts what is
 * read. */
static int read_todo(struct hist *h, long long *bytes, fl_err *err)
{
	struct rd rd = {.h = h};
	rd.len = fl_xcalloc(h->ntodo ? h->ntodo : 1, sizeof *rd.len);
	rd.errs = fl_xcalloc(h->ntodo ? h->ntodo : 1, sizeof *rd.errs);
	fl_parallel_for(h->ntodo, read_item, &rd);
	int rc = 0;
	for (size_t i = 0; i < h->ntodo; i++) {
		if (rd.len[i] < 0 && rc == 0) {
			*err = rd.errs[i];
			rc = -1;
		}
		if (rd.len[i] > 0)
			*bytes += rd.len[i];
	}
	free(rd.len);
	free(rd.errs);
	return rc;
}

/* The tree's facts from the todo list's blobs (read): each blob's part
 * collected on every core, then folded in path order (as
 * fl_lang_collect_one, one blob after the other, would); a language
 * without parts collects serially. */
static void collect_todo(struct hist *h)
{
	fl_parallel_for(h->ntodo, collect_part, h);
	for (size_t i = 0; i < h->ntodo; i++) {
		struct hblob *b = &h->blobs[h->todo[i]];
		int li = lang_index(b->lang);
		if (b->skip >= 0 || li < 0 || !h->lang_trees[li] || !b->lang->collect)
			continue;
		if (b->part) {
			b->lang->tree_merge(h->lang_trees[li], b->part);
			b->lang->tree_free(b->part);
			b->part = NULL;
			continue;
		}
		fl_src src = {b->path, b->text, b->len, NULL};
		b->cache = fl_lang_collect_one(b->lang, h->lang_trees[li], &src);
	}
}

/* Read, collect and scan this version's new blobs. */
static int scan_todo(struct hist *h, long long *bytes, fl_err *err)
{
	if (read_todo(h, bytes, err) < 0)
		return -1;
	collect_todo(h);
	fl_parallel_for(h->ntodo, scan_blob, h);
	return 0;
}

/* ---- records ------------------------------------------------------------------ */

/* A new record (not yet filed by id: the caller does it). */
static struct hrec *new_rec(struct hist *h, const char *id, const char *path,
			    const fl_lang *lang)
{
	if (h->nrecs == h->caprecs) {
		h->caprecs = h->caprecs ? h->caprecs * 2 : 1024;
		h->recs = fl_xrealloc(h->recs, h->caprecs * sizeof *h->recs);
	}
	struct hrec *rec = &h->recs[h->nrecs];
	memset(rec, 0, sizeof *rec);
	memcpy(rec->id, id, 17);
	rec->path = fl_xstrdup(path);
	rec->lang = lang;
	rec->last = -1;
	rec->stored_last = -1;
	rec->blob = rec->cand = NONE;
	return rec;
}

static uint32_t record_for(struct hist *h, const char *id, const struct hfile *f)
{
	size_t r;
	if (fl_strmap_get(&h->rec_map, id, &r))
		return (uint32_t)r;
	new_rec(h, id, f->path, f->lang);
	fl_strmap_put(&h->rec_map, id, h->nrecs);
	return (uint32_t)h->nrecs++;
}

/* Version seq's records: each file's, from its blob's candidates. */
static long long add_version_records(struct hist *h, int seq)
{
	long long n = 0;
	for (size_t i = 0; i < h->nfiles; i++) {
		struct hfile *f = &h->files[i];
		if (f->rule >= 0 || f->blob == NONE)
			continue;
		struct hblob *b = &h->blobs[f->blob];
		if (b->stub) {
			/* unchanged since L: the records the store has */
			for (size_t k = 0; k < f->nheld; k++) {
				struct hrec *r = &h->recs[f->held[k]];
				fl_vruns_add(&r->runs, seq, b->canon, f->held_line[k]);
				r->last = seq;
				r->blob = f->blob;
				r->cand = NONE;
				n++;
			}
			continue;
		}
		if (b->skip >= 0 || !b->nc)
			continue;
		if (!f->recs) {
			f->recs = fl_xcalloc(b->nc, sizeof *f->recs);
			for (size_t k = 0; k < b->nc; k++) {
				struct hcand *c = &b->c[k];
				if (c->first != NONE) {
					f->recs[k] = NONE;
					continue;
				}
				char id[17];
				fl_record_id(h->repo_name, c->code, c->msg, f->path, id);
				f->recs[k] = record_for(h, id, f);
			}
		}
		for (size_t k = 0; k < b->nc; k++) {
			if (f->recs[k] == NONE)
				continue;
			struct hrec *r = &h->recs[f->recs[k]];
			fl_vruns_add(&r->runs, seq, b->canon, b->sites->v[b->c[k].site].line);
			r->last = seq;
			r->blob = f->blob;
			r->cand = (uint32_t)k;
			n++;
		}
	}
	return n;
}

/* ---- resuming from the store ------------------------------------------------ */

/* What a history scan's records depend on besides its versions: this
 * faultline, and the path rules (tests, excludes, hashed). */
static void history_key(const fl_history_opts *o, char *key, size_t size)
{
	uint64_t x = 14695981039346656037ULL; /* FNV-1a */
	for (size_t i = 0; i < o->n_excludes; i++)
		for (const char *p = o->excludes[i];; p++) {
			x = (x ^ (unsigned char)*p) * 1099511628211ULL;
			if (!*p)
				break;
		}
	snprintf(key, size, "faultline %s; tests %d; excludes %zu %016llx", FL_VERSION,
		 o->include_tests ? 1 : 0, o->n_excludes, (unsigned long long)x);
}

/* The blob of id hex as language lang: one known, or a new stub. */
static uint32_t stub_blob(struct hist *h, const char *hex, const fl_lang *lang)
{
	char key[GIT_OID_HEXSZ + 1 + 32];
	snprintf(key, sizeof key, "%.40s/%s", hex, lang->name);
	size_t b;
	if (fl_strmap_get(&h->blob_map, key, &b))
		return (uint32_t)b;
	git_oid oid;
	G->oid_fromstr(&oid, hex);
	uint32_t nb = new_blob(h, &oid, lang, key, NONE);
	h->blobs[nb].stub = true;
	return nb;
}

struct load {
	struct hist *h;
	int from;               /* versions from here on are scanned again */
	char (*hex)[41];
	size_t nhex;
	bool bad;               /* not a state to resume from */
};

/* A record of the store, its runs cut at from (the versions after L are
 * scanned again). */
static int load_record(const char *id, const char *path, const char *language, const char *slug,
		       const char *text, const fl_version_run *runs, size_t n, void *ud)
{
	struct load *ld = ud;
	struct hist *h = ld->h;
	/* a script's (named without an extension) by the language stored */
	const fl_lang *lang = fl_lang_for_path(path);
	if (!lang && fl_lang_may_be_script(path))
		lang = fl_lang_by_name(language);
	if (!n || !lang || strlen(id) != 16) {
		ld->bad = true; /* not from a history scan (a plain scan's, imported) */
		return 1;
	}
	struct hrec *r = new_rec(h, id, path, lang);
	r->stored_last = runs[n - 1].last;
	r->stored_slug = fl_xstrdup(slug);
	r->text = fl_xstrdup(text);
	for (size_t k = 0; k < n; k++) {
		const fl_version_run *x = &runs[k];
		if (x->blobno < 0 || (size_t)x->blobno >= ld->nhex) {
			ld->bad = true;
			free(r->path);
			free(r->stored_slug);
			free(r->text);
			fl_vruns_free(&r->runs);
			return 1;
		}
		if (x->first >= ld->from)
			break;
		if (r->runs.n == r->runs.cap) {
			r->runs.cap = r->runs.cap ? r->runs.cap * 2 : 4;
			r->runs.v = fl_xrealloc(r->runs.v, r->runs.cap * sizeof *r->runs.v);
		}
		fl_vrun *y = &r->runs.v[r->runs.n++];
		y->first = x->first;
		y->last = x->last < ld->from ? x->last : ld->from - 1;
		y->line = x->line;
		y->blob = stub_blob(h, ld->hex[x->blobno], lang);
	}
	r->last = r->runs.n ? r->runs.v[r->runs.n - 1].last : -1;
	if (r->runs.n)
		r->blob = r->runs.v[r->runs.n - 1].blob;
	fl_strmap_put(&h->rec_map, id, h->nrecs);
	h->nrecs++;
	return 0;
}

static const struct hfile *find_file(const struct hist *h, const char *path)
{
	size_t lo = 0, hi = h->nfiles;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(h->files[mid].path, path);
		if (c == 0)
			return &h->files[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Every file of version L (h->from - 1, whose tree is tree) with its blob
 * (a stub) and the records the store says it holds there.  false: the
 * store's records do not fit the tree. */
static bool held_files(struct hist *h, git_tree *tree, fl_err *err, int *rc)
{
	long long changed;
	*rc = 0;
	if (next_files(h, NULL, tree, &changed, err) < 0) {
		*rc = -1;
		return false;
	}
	for (size_t i = 0; i < h->nfiles; i++) {
		struct hfile *f = &h->files[i];
		if (f->rule >= 0)
			continue;
		char hex[GIT_OID_HEXSZ + 1];
		G->oid_tostr(hex, sizeof hex, &f->oid);
		f->blob = stub_blob(h, hex, f->lang);
	}
	int L = h->from - 1;
	for (size_t i = 0; i < h->nrecs; i++) {
		struct hrec *r = &h->recs[i];
		if (r->last != L)
			continue;
		struct hfile *f = (struct hfile *)find_file(h, r->path);
		const fl_vrun *run = &r->runs.v[r->runs.n - 1];
		if (!f || f->rule >= 0 || f->blob != run->blob)
			return false;
		f->held = fl_xrealloc(f->held, (f->nheld + 1) * sizeof *f->held);
		f->held_line = fl_xrealloc(f->held_line, (f->nheld + 1) * sizeof *f->held_line);
		f->held[f->nheld] = (uint32_t)i;
		f->held_line[f->nheld++] = run->line;
	}
	return true;
}

/* The state of version L from the store, when it holds a history scan of
 * the repository made with key whose versions begin v[0..nv): h->from is
 * then L + 1 (0: scan every version); *same: the store holds exactly
 * these versions (nothing to do).  *tree: L's tree (the diff's start). */
static int resume(struct hist *h, fl_store *st, const struct hversion *v, size_t nv,
		  const char *key, bool *same, git_tree **tree, fl_err *err)
{
	char stored[256];
	*same = false;
	*tree = NULL;
	h->from = 0;
	if (fl_store_history_get_key(st, h->repo_name, stored, sizeof stored, err) < 0)
		return -1;
	if (strcmp(stored, key) != 0)
		return 0;
	fl_version *sv;
	size_t ns, p = 0;
	if (fl_store_get_versions(st, h->repo_name, &sv, &ns, err) < 0)
		return -1;
	while (p < ns && p < nv && strcmp(sv[p].name, v[p].name) == 0 &&
	       strcmp(sv[p].sha, v[p].sha) == 0)
		p++;
	fl_versions_free(sv, ns);
	if (p == ns && p == nv) {
		*same = true;
		p = nv; /* the records are loaded for the summary */
	} else if (p && strcmp(v[p - 1].name, "HEAD") == 0) {
		p--;
	} else if (p == nv) {
		/* fewer versions than stored (a last tag deleted): the last
		 * one is scanned again, whole, as always */
		p--;
	}
	if (!p)
		return 0;
	struct load ld = {.h = h, .from = (int)p};
	if (fl_store_get_version_blobs(st, h->repo_name, &ld.hex, &ld.nhex, err) < 0)
		return -1;
	int rc = fl_store_each_history_record(st, h->repo_name, load_record, &ld, err);
	free(ld.hex);
	if (rc < 0)
		return -1;
	h->from = (int)p;
	if (!ld.bad && !*same) {
		git_object *obj = NULL;
		if (G->object_lookup(&obj, h->repo, &v[p - 1].commit, GIT_OBJECT_COMMIT) < 0 ||
		    G->commit_tree(tree, (git_commit *)obj) < 0) {
			G->object_free(obj);
			return giterr(err, v[p - 1].name);
		}
		G->object_free(obj);
		if (!held_files(h, *tree, err, &rc) && rc == 0)
			ld.bad = true;
		if (rc < 0)
			return -1;
	}
	if (ld.bad) {
		/* not a state to resume from: every version is scanned */
		for (size_t i = 0; i < h->nfiles; i++)
			drop_file(&h->files[i]);
		h->nfiles = 0;
		for (size_t i = 0; i < h->nrecs; i++) {
			free(h->recs[i].path);
			free(h->recs[i].stored_slug);
			free(h->recs[i].text);
			fl_vruns_free(&h->recs[i].runs);
		}
		h->nrecs = 0;
		fl_strmap_free(&h->rec_map);
		memset(&h->rec_map, 0, sizeof h->rec_map);
		G->tree_free(*tree);
		*tree = NULL;
		*same = false;
		h->from = 0;
	}
	return 0;
}

/* The facts of L's whole tree (its files' blobs, read and collected, not
 * scanned): those the versions after L start from. */
static int collect_held(struct hist *h, long long *bytes, fl_err *err)
{
	h->todo = fl_xrealloc(h->todo, (h->nfiles ? h->nfiles : 1) * sizeof *h->todo);
	h->ntodo = 0;
	fl_strmap seen = {0};
	for (size_t i = 0; i < h->nfiles; i++) {
		struct hfile *f = &h->files[i];
		int li = lang_index(f->lang);
		if (f->rule >= 0 || li < 0 || !h->lang_trees[li] || !f->lang->collect)
			continue;
		char k[16];
		snprintf(k, sizeof k, "%u", f->blob);
		if (fl_strmap_get(&seen, k, NULL))
			continue;
		fl_strmap_put(&seen, k, 0);
		h->blobs[f->blob].path = f->path;
		h->todo[h->ntodo++] = f->blob;
	}
	fl_strmap_free(&seen);
	int rc = read_todo(h, bytes, err);
	if (rc == 0)
		collect_todo(h);
	for (size_t i = 0; i < h->ntodo; i++) {
		struct hblob *b = &h->blobs[h->todo[i]];
		free(b->text);
		b->text = NULL;
		if (b->cache && b->lang->cache_free)
			b->lang->cache_free(b->cache);
		b->cache = NULL;
	}
	h->ntodo = 0;
	return rc;
}

/* Whether record r is written (else kept as stored, or gone). */
static bool to_write(const struct hrec *r)
{
	return r->last >= 0 && !r->keep;
}

/* The records to write whose candidate is not known (a file unchanged
 * since L whose record ends after L, one whose last version was dropped,
 * one whose slug changes) given it, scanning the blobs only the store
 * knew; *scanned counts them. */
static int find_cands(struct hist *h, long long *bytes, long long *scanned, fl_err *err)
{
	h->todo = fl_xrealloc(h->todo, (h->nblobs ? h->nblobs : 1) * sizeof *h->todo);
	h->ntodo = 0;
	for (size_t i = 0; i < h->nrecs; i++) {
		struct hrec *r = &h->recs[i];
		if (!to_write(r) || r->cand != NONE)
			continue;
		struct hblob *b = &h->blobs[r->blob];
		if (!b->stub)
			continue;
		b->stub = false;
		b->path = r->path;
		h->todo[h->ntodo++] = r->blob;
	}
	*scanned += (long long)h->ntodo;
	if (h->ntodo && scan_todo(h, bytes, err) < 0)
		return -1;
	for (size_t i = 0; i < h->nrecs; i++) {
		struct hrec *r = &h->recs[i];
		if (!to_write(r) || r->cand != NONE)
			continue;
		const struct hblob *b = &h->blobs[r->blob];
		for (size_t k = 0; k < b->nc && r->cand == NONE; k++) {
			const struct hcand *c = &b->c[k];
			if (c->first != NONE)
				continue;
			char id[17];
			fl_record_id(h->repo_name, c->code, c->msg, r->path, id);
			if (strcmp(id, r->id) == 0)
				r->cand = (uint32_t)k;
		}
		/* not in its blob any more (a faultline that scans it
		 * otherwise): the record stays as the store has it */
		if (r->cand == NONE)
			r->keep = r->stored_last >= 0;
		if (r->cand == NONE && !r->keep)
			r->last = -1;
	}
	return 0;
}

static void assign_slugs(struct hist *h, int last);

/* Before writing: the records kept as stored marked (those whose versions
 * end before L, unchanged, and whose slug stays); every record's slug;
 * each record to write given its candidate. */
static int prepare_records(struct hist *h, int last, long long *bytes, long long *scanned,
			   fl_err *err)
{
	for (size_t i = 0; i < h->nrecs; i++) {
		struct hrec *r = &h->recs[i];
		r->keep = r->stored_last >= 0 && r->stored_last < h->from && r->last >= 0 &&
			  r->last < h->from;
	}
	*scanned = 0;
	if (find_cands(h, bytes, scanned, err) < 0)
		return -1;
	assign_slugs(h, last);
	/* a kept record whose slug changes (another record of the same
	 * slug came or went) is written again */
	bool again = false;
	for (size_t i = 0; i < h->nrecs; i++) {
		struct hrec *r = &h->recs[i];
		if (r->keep && r->slug && r->stored_slug && strcmp(r->slug, r->stored_slug) != 0) {
			r->keep = false;
			again = true;
		}
	}
	return again ? find_cands(h, bytes, scanned, err) : 0;
}

/* ---- writing ------------------------------------------------------------------ */

/* Records in the order their slugs are given: those of the last version in
 * scan order (files by path, sites by line), as a scan of it gives them;
 * then the others, the most recent first (their last version, then path,
 * then line there, then id: the same order whether a record was scanned
 * in this run or kept from the store). */
static const struct hist *sort_h;
static int sort_last;

static int cmp_past(const void *a, const void *b)
{
	const struct hrec *x = &sort_h->recs[*(const uint32_t *)a];
	const struct hrec *y = &sort_h->recs[*(const uint32_t *)b];
	if (x->last != y->last)
		return x->last > y->last ? -1 : 1;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	int lx = x->runs.n ? x->runs.v[x->runs.n - 1].line : 0;
	int ly = y->runs.n ? y->runs.v[y->runs.n - 1].line : 0;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* the groups a block is written for: one file at one blob */
static int cmp_group(const void *a, const void *b)
{
	const struct hrec *x = &sort_h->recs[*(const uint32_t *)a];
	const struct hrec *y = &sort_h->recs[*(const uint32_t *)b];
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	bool xp = x->last != sort_last, yp = y->last != sort_last;
	if (xp != yp)
		return xp ? 1 : -1;
	if (x->blob != y->blob)
		return x->blob < y->blob ? -1 : 1;
	return x->cand < y->cand ? -1 : x->cand > y->cand;
}

struct wctx {
	struct hist *h;
	fl_scan_writer *w;
	const struct hversion *v;
	const char *repo, *host, *root, *now;
	fl_scan_summary sum;    /* the writer's counts */
	fl_history_summary *out;
};

/* The records of one file (recs[0..n), by blob, in site order), written
 * in one block with their windows: those of the last version (one blob)
 * as a scan writes them, those of earlier versions (past) each with its
 * window in its JSON.  Built, checked, encoded and compressed on any
 * thread (group_build), then written in order (group_put). */
struct group {
	const uint32_t *recs;
	size_t n;
	bool past;
	fl_entry *e;
	fl_facts *f;
	bool *ok;
	int *state;
	char (*hash)[17];
	size_t *off, *blen;
	void *z;
	size_t zlen, raw_len, nok;
	long long invalid;      /* records left out as not valid */
	char invalid_first[320];
	int rc;
	fl_err err;
};

struct wbatch {
	struct wctx *wc;
	struct group *g;
};

static void group_build(void *arg, size_t gi)
{
	struct wbatch *wb = arg;
	struct wctx *wc = wb->wc;
	struct group *g = &wb->g[gi];
	struct hist *h = wc->h;
	const uint32_t *recs = g->recs;
	size_t n = g->n;
	struct hblob *b = NULL;
	char *text = NULL;
	size_t len = 0, nlines = 0, *starts = NULL;
	g->e = fl_xcalloc(n, sizeof *g->e);
	g->f = fl_xcalloc(n, sizeof *g->f);
	g->ok = fl_xcalloc(n, sizeof *g->ok);
	g->state = fl_xcalloc(n, sizeof *g->state);
	int *ws = fl_xcalloc(n, sizeof *ws), *we = fl_xcalloc(n, sizeof *we);
	for (size_t k = 0; k < n; k++) {
		struct hrec *r = &h->recs[recs[k]];
		if (b != &h->blobs[r->blob]) {
			/* the records come sorted by blob: each is read once */
			b = &h->blobs[r->blob];
			free(text);
			free(starts);
			bool large = false;
			/* kept since its scan (the last version); two files
			 * of one blob: the other reads it */
			text = __atomic_exchange_n(&b->text, NULL, __ATOMIC_ACQ_REL);
			len = b->len;
			if (!text) {
				git_repository *repo = repo_take(h, &g->err);
				text = repo ? read_blob(repo, &b->oid, &len, &large, &g->err) : NULL;
				if (repo)
					repo_give(h, repo);
			}
			starts = NULL;
			if (!text) {
				g->rc = large ? fl_seterr(&g->err, "%s: grew over the size limit", r->path)
					      : -1;
				break;
			}
			starts = fl_line_index(text, len, &nlines);
		}
		const struct hcand *c = &b->c[r->cand];
		const fl_site *s = &b->sites->v[c->site];
		const char *sha = wc->v[r->last].sha;
		fl_entry *x = &g->e[k];
		x->id = fl_xstrdup(r->id);
		x->repo = fl_xstrdup(wc->repo);
		x->slug = fl_xstrdup(r->slug);
		x->error_code = c->code ? fl_utf8_fix(c->code, strlen(c->code)) : NULL;
		x->error_message = fl_xstrdup(c->msg);
		x->message_pattern = c->pat ? fl_xstrdup(c->pat) : fl_message_pattern(c->msg);
		x->error_type = fl_xstrdup(s->type);
		x->error_class = s->cls && *s->cls ? fl_utf8_fix(s->cls, strlen(s->cls)) : NULL;
		x->http_status = s->http >= 100 && s->http <= 599 ? s->http : 0;
		x->severity = fl_xstrdup(s->severity);
		x->file_path = fl_utf8_fix(r->path, strlen(r->path));
		x->line_number = s->line;
		char *w = fl_source_window_idx(text, len, starts, nlines, s->line, &ws[k], &we[k]);
		if (w && !fl_utf8_valid(w, strlen(w))) {
			char *fixed = fl_utf8_fix(w, strlen(w));
			free(w);
			w = fixed;
		}
		if (!w)
			ws[k] = we[k] = 0;
		x->source_code = w;
		x->source_code_start = ws[k];
		x->source_code_end = we[k];
		x->github_url = fl_permalink(wc->host, wc->repo, sha, x->file_path, ws[k], we[k],
					     wc->host ? NULL : wc->root);
		x->analyzed_sha = fl_xstrdup(sha);
		x->analyzed_at = fl_xstrdup(wc->now);
		x->content_changed_at = fl_xstrdup(wc->now);
		x->schema_version = FL_SCHEMA_VERSION;
		fl_describe(x, s, r->lang->name);
		g->f[k].function = s->function ? fl_utf8_fix(s->function, strlen(s->function)) : NULL;
		g->f[k].guard = s->guard ? fl_utf8_fix(s->guard, strlen(s->guard)) : NULL;
		g->f[k].idiom = fl_xstrdup(s->idiom);
		g->f[k].language = r->lang->name;
		g->f[k].column = s->col;
		fl_err verr;
		if (fl_entry_validate(x, &verr) < 0) {
			/* never store an invalid record; say so */
			if (g->invalid++ == 0)
				snprintf(g->invalid_first, sizeof g->invalid_first, "%.160s:%d: %.140s",
					 r->path, s->line, verr.msg);
			ws[k] = we[k] = 0;
			continue;
		}
		g->ok[k] = true;
		g->nok++;
	}
	if (g->nok && g->rc == 0) {
		fl_buf raw = {0};
		g->off = fl_xcalloc(n, sizeof *g->off);
		g->blen = fl_xcalloc(n, sizeof *g->blen);
		g->hash = fl_xcalloc(n, sizeof *g->hash);
		if (g->past) {
			/* a file's records of earlier versions, from several of
			 * its blobs: each with its window in its JSON (a block's
			 * window lines are of one text), in one block, where
			 * the windows of one message in successive versions
			 * compress to little */
			fl_buf_put(&raw, FL_BLOCK_MAGIC, FL_BLOCK_MAGIC_LEN);
			fl_buf_put(&raw, "\0\0\0\0", 4); /* no window segments */
		} else {
			fl_sw_block_windows(&raw, text, len, starts, ws, we, n);
		}
		for (size_t k = 0; k < n; k++) {
			if (!g->ok[k])
				continue;
			g->off[k] = raw.n;
			if (g->past) {
				char hdr[FL_BLOCK_SLICE_HDR];
				fl_put_u32(hdr, FL_BLOCK_NO_WINDOW);
				fl_put_u32(hdr + 4, 0);
				fl_put_u32(hdr + 8, 0);
				fl_buf_put(&raw, hdr, sizeof hdr);
				char *json = fl_sw_encode(wc->w, &g->e[k], g->hash[k], &g->state[k]);
				fl_buf_puts(&raw, json);
				free(json);
				g->blen[k] = raw.n - g->off[k];
			} else {
				g->blen[k] = fl_sw_encode_slice(wc->w, &g->e[k], &raw, g->hash[k],
								&g->state[k]);
			}
		}
		g->z = fl_sw_compress(raw.s, raw.n, &g->zlen);
		g->raw_len = raw.n;
		fl_buf_free(&raw);
	}
	free(ws);
	free(we);
	free(starts);
	free(text);
}

static void group_free(struct group *g)
{
	for (size_t k = 0; g->e && k < g->n; k++) {
		fl_entry_free(&g->e[k]);
		free((char *)g->f[k].function);
		free((char *)g->f[k].guard);
		free((char *)g->f[k].idiom);
	}
	free(g->e);
	free(g->f);
	free(g->ok);
	free(g->state);
	free(g->hash);
	free(g->off);
	free(g->blen);
	free(g->z);
	memset(g, 0, sizeof *g);
}

/* Group g written (in the writer's transaction), in order. */
static int group_put(struct wctx *wc, struct group *g, fl_err *err)
{
	struct hist *h = wc->h;
	if (g->invalid) {
		if (wc->out->invalid == 0)
			memcpy(wc->out->invalid_first, g->invalid_first, sizeof g->invalid_first);
		wc->out->invalid += g->invalid;
	}
	if (g->rc < 0) {
		*err = g->err;
		return -1;
	}
	if (!g->nok)
		return 0;
	for (size_t k = 0; k < g->n; k++)
		if (g->ok[k])
			fl_sw_count(wc->w, g->state[k], &wc->sum);
	long long id;
	int rc = fl_sw_add_block(wc->w, wc->repo, g->z, g->zlen, g->raw_len, &id, err);
	for (size_t k = 0; k < g->n && rc == 0; k++) {
		if (!g->ok[k])
			continue;
		rc = fl_sw_insert_in_block(wc->w, &g->e[k], &g->f[k], g->hash[k], id, g->off[k],
					   g->blen[k], err);
		struct hrec *r = &h->recs[g->recs[k]];
		r->written = true;
		/* the record's other sites in this file */
		const struct hblob *rb = &h->blobs[r->blob];
		for (size_t m = 0; m < rb->nc && rc == 0; m++) {
			if (rb->c[m].first != r->cand)
				continue;
			const fl_site *s = &rb->sites->v[rb->c[m].site];
			rc = fl_sw_add_site(wc->w, r->id, r->path, s->line, s->col, s->function,
					    s->guard, err);
			wc->out->duplicates++;
		}
	}
	return rc;
}

/* The groups (files) of recs[0..n), built on every core a batch at a
 * time (bounding what is held) and written in order. */
static int write_groups(struct wctx *wc, const uint32_t *order, size_t n, int last,
			fl_err *err)
{
	struct hist *h = wc->h;
	enum { BATCH = 256 };
	struct group *g = fl_xcalloc(BATCH, sizeof *g);
	struct wbatch wb = {.wc = wc, .g = g};
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0;) {
		size_t ng = 0;
		while (i < n && ng < BATCH) {
			const struct hrec *a = &h->recs[order[i]];
			bool past = a->last != last;
			size_t j = i + 1;
			while (j < n && (h->recs[order[j]].last != last) == past &&
			       strcmp(h->recs[order[j]].path, a->path) == 0)
				j++;
			g[ng].recs = order + i;
			g[ng].n = j - i;
			g[ng].past = past;
			ng++;
			i = j;
		}
		fl_parallel_for(ng, group_build, &wb);
		for (size_t k = 0; k < ng; k++) {
			if (rc == 0)
				rc = group_put(wc, &g[k], err);
			group_free(&g[k]);
		}
	}
	free(g);
	return rc;
}

/* Slugs, in the order of `order` (records.md: a slug taken gets the id's
 * suffix). */
static void give_slugs(struct hist *h, const uint32_t *order, size_t n)
{
	fl_strmap taken = {0};
	for (size_t i = 0; i < n; i++) {
		struct hrec *r = &h->recs[order[i]];
		const struct hcand *c = r->cand != NONE ? &h->blobs[r->blob].c[r->cand] : NULL;
		char *slug = fl_slug_base(c ? (c->code ? c->code : c->msg) : r->text);
		if (fl_strmap_get(&taken, slug, NULL)) {
			char *s = fl_slug_suffixed(slug, r->id);
			free(slug);
			slug = s;
		}
		fl_strmap_put(&taken, slug, order[i]);
		free(r->slug);
		r->slug = slug;
	}
	fl_strmap_free(&taken);
}

/* Every record's slug (records.md: in order, a slug taken gets the id's
 * suffix): those of the last version in scan order (files by path, sites
 * by line), then the others (cmp_past), those kept from the store
 * included, so that a resumed scan gives the slugs a scan of every
 * version gives. */
static void assign_slugs(struct hist *h, int last)
{
	uint32_t *order = fl_xcalloc(h->nrecs ? h->nrecs : 1, sizeof *order);
	size_t n = 0;
	for (size_t i = 0; i < h->nfiles; i++) {
		struct hfile *f = &h->files[i];
		if (!f->recs)
			continue;
		for (size_t k = 0; k < h->blobs[f->blob].nc; k++)
			if (f->recs[k] != NONE && h->recs[f->recs[k]].last == last)
				order[n++] = f->recs[k];
	}
	size_t nhead = n;
	for (size_t r = 0; r < h->nrecs; r++)
		if (h->recs[r].last >= 0 && h->recs[r].last != last)
			order[n++] = (uint32_t)r;
	sort_h = h;
	qsort(order + nhead, n - nhead, sizeof *order, cmp_past);
	give_slugs(h, order, n);
	free(order);
}

static int write_store(struct hist *h, fl_store *st, const struct hversion *v, size_t nv,
		       const fl_tree *tree, const char *host, const char *key, double t0,
		       fl_history_summary *out, fl_err *err)
{
	int last = (int)nv - 1;
	/* the records written (their slugs given by prepare_records) */
	uint32_t *order = fl_xcalloc(h->nrecs ? h->nrecs : 1, sizeof *order);
	size_t n = 0;
	for (size_t r = 0; r < h->nrecs; r++)
		if (to_write(&h->recs[r]))
			order[n++] = (uint32_t)r;
	/* resuming: the records of earlier versions that stay as stored */
	const char **kept_ids = fl_xcalloc(h->nrecs ? h->nrecs : 1, sizeof *kept_ids);
	size_t nkept_ids = 0;
	for (size_t r = 0; r < h->nrecs; r++)
		if (h->recs[r].keep)
			kept_ids[nkept_ids++] = h->recs[r].id;

	char now[32];
	fl_now_iso(now);
	struct wctx wc = {.h = h, .v = v, .repo = h->repo_name, .host = host,
			  .root = tree->root, .now = now, .out = out};
	if (fl_sw_begin_keep_ids(st, h->repo_name, kept_ids, nkept_ids, &wc.w, err) < 0) {
		free(kept_ids);
		free(order);
		return -1;
	}
	free(kept_ids);
	sort_h = h;
	sort_last = last;
	qsort(order, n, sizeof *order, cmp_group);
	/* a block per file: its records of the last version (one blob, its
	 * window lines kept once, as a scan writes them), and one of its
	 * records of earlier versions */
	int rc = write_groups(&wc, order, n, last, err);
	/* each record's runs, with the blobs they name numbered in the
	 * order they are met, and the versions */
	size_t nall = n + h->nrecs;
	const char **ids = fl_xcalloc(nall ? nall : 1, sizeof *ids);
	fl_version_run **runs = fl_xcalloc(nall ? nall : 1, sizeof *runs);
	size_t *nruns = fl_xcalloc(nall ? nall : 1, sizeof *nruns);
	uint32_t *blobno = fl_xcalloc(h->nblobs ? h->nblobs : 1, sizeof *blobno);
	for (size_t i = 0; i < h->nblobs; i++)
		blobno[i] = NONE;
	char **hexes = fl_xcalloc(h->nblobs ? h->nblobs : 1, sizeof *hexes);
	size_t nhex = 0, m = 0;
	long long head = 0, past = 0;
	for (size_t i = 0; i < n + h->nrecs && rc == 0; i++) {
		/* those written, then those kept */
		struct hrec *r = &h->recs[i < n ? order[i] : i - n];
		if (i < n ? !r->written : !r->keep)
			continue;
		if (r->last == last)
			head++;
		else
			past++;
		if (r->keep)
			out->kept++;
		ids[m] = r->id;
		runs[m] = fl_xcalloc(r->runs.n, sizeof **runs);
		for (size_t k = 0; k < r->runs.n; k++) {
			fl_version_run *x = &runs[m][k];
			uint32_t b = r->runs.v[k].blob;
			if (blobno[b] == NONE) {
				blobno[b] = (uint32_t)nhex;
				hexes[nhex] = fl_xmalloc(GIT_OID_HEXSZ + 1);
				G->oid_tostr(hexes[nhex++], GIT_OID_HEXSZ + 1, &h->blobs[b].oid);
			}
			x->first = r->runs.v[k].first;
			x->last = r->runs.v[k].last;
			x->line = r->runs.v[k].line;
			x->blobno = (int)blobno[b];
		}
		nruns[m++] = r->runs.n;
	}
	fl_version *vs = fl_xcalloc(nv, sizeof *vs);
	for (size_t i = 0; i < nv; i++) {
		vs[i].name = v[i].name;
		memcpy(vs[i].sha, v[i].sha, 41);
	}
	if (rc == 0)
		rc = fl_store_put_versions(st, h->repo_name, vs, nv, (const char *const *)hexes,
					   nhex, err);
	if (rc == 0)
		rc = fl_store_history_put_key(st, h->repo_name, key, err);
	free(vs);
	for (size_t i = 0; i < nhex; i++)
		free(hexes[i]);
	free(hexes);
	free(blobno);
	if (rc == 0)
		rc = fl_store_put_record_runs(st, ids, (const fl_version_run *const *)runs, nruns,
					      m, err);
	for (size_t i = 0; i < m; i++)
		free(runs[i]);
	free(runs);
	free(ids);
	free(nruns);
	free(order);
	out->records = head + past;
	out->records_head = head;
	out->records_past = past;

	/* the repository: the last version's */
	fl_scan_result res;
	memset(&res, 0, sizeof res);
	fl_repo *rp = &res.repo;
	rp->repo = fl_xstrdup(h->repo_name);
	long long files = 0;
	struct { const char *lang; long long n; } langs[NLANGS_MAX] = {{0}};
	for (size_t i = 0; i < h->nfiles; i++) {
		struct hfile *f = &h->files[i];
		if (f->rule >= 0 || f->blob == NONE || h->blobs[f->blob].skip >= 0)
			continue;
		files++;
		int li = lang_index(f->lang);
		if (li >= 0) {
			langs[li].lang = f->lang->name;
			langs[li].n++;
		}
	}
	long long best = -1;
	for (int li = 0; li < NLANGS_MAX; li++)
		if (langs[li].lang && langs[li].n > best) {
			best = langs[li].n;
			free(rp->language);
			rp->language = fl_xstrdup(langs[li].lang);
		}
	rp->source_files = files;
	rp->default_branch = fl_xstrdup(tree->branch ? tree->branch : "main");
	rp->analyzed_sha = fl_xstrdup(v[last].sha);
	rp->analyzed_at = fl_xstrdup(now);
	rp->error_count = head + past;
	if (rc == 0 && h->o->log_started_at) {
		fl_scan_log log = {
			.repo = h->repo_name, .target = h->o->path, .rev = "--history",
			.sha = v[last].sha, .started_at = h->o->log_started_at,
			.seconds = fl_now_mono() - t0, .files = out->blobs_scanned,
			.sites = 0, .records = head + past, .duplicates = out->duplicates,
			.outcome = "ok",
		};
		rc = fl_store_log_scan(st, &log, err);
	}
	if (rc < 0) {
		fl_sw_abort(wc.w);
		fl_repo_free(rp);
		return -1;
	}
	rc = fl_sw_finish(wc.w, &res, err); /* commits; aborts on failure */
	out->added = wc.sum.added;
	out->changed = wc.sum.changed;
	out->unchanged = wc.sum.unchanged;
	out->removed = res.summary.removed;
	fl_repo_free(rp);
	return rc;
}

/* ---- the scan ------------------------------------------------------------------ */

static void hist_free(struct hist *h)
{
	for (size_t i = 0; i < h->nblobs; i++) {
		struct hblob *b = &h->blobs[i];
		for (size_t k = 0; k < b->nc; k++) {
			free(b->c[k].msg);
			free(b->c[k].pat);
		}
		free(b->c);
		if (b->sites)
			fl_sites_free(b->sites);
		free(b->text);
		if (b->cache && b->lang->cache_free)
			b->lang->cache_free(b->cache);
		if (b->part)
			b->lang->tree_free(b->part);
	}
	free(h->blobs);
	fl_strmap_free(&h->blob_map);
	for (size_t i = 0; i < h->nrecs; i++) {
		free(h->recs[i].path);
		free(h->recs[i].slug);
		free(h->recs[i].stored_slug);
		free(h->recs[i].text);
		fl_vruns_free(&h->recs[i].runs);
	}
	free(h->recs);
	fl_strmap_free(&h->rec_map);
	for (size_t i = 0; i < h->nfiles; i++)
		drop_file(&h->files[i]);
	free(h->files);
	for (int li = 0; li < NLANGS_MAX && fl_langs[li]; li++)
		if (h->lang_trees[li] && fl_langs[li]->tree_free)
			fl_langs[li]->tree_free(h->lang_trees[li]);
	free(h->todo);
	for (size_t i = 0; i < h->npool; i++)
		G->repository_free(h->pool[i]);
	h->npool = 0;
}

void fl_history_summary_free(fl_history_summary *s)
{
	for (size_t i = 0; i < s->nsteps; i++)
		free(s->steps[i].name);
	free(s->steps);
	s->steps = NULL;
	s->nsteps = 0;
}

int fl_scan_history(const fl_history_opts *o, fl_store *st, fl_history_summary *out,
		    fl_err *err)
{
	memset(out, 0, sizeof *out);
	double t0 = fl_now_mono();
	char abs[PATH_MAX];
	if (!realpath(o->path, abs))
		return fl_seterr(err, "cannot scan %s: %s", o->path, strerror(errno));
	fl_err lerr;
	if (!fl_git(&lerr))
		return fl_seterr(err, "cannot scan %s: %s", o->path, lerr.msg);
	G->libgit2_init();
	/* objects are not hashed again as they are read (git does not
	 * either; fsck does): every blob of every version is read, and the
	 * hash was 7 % of a history scan */
	G->libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	struct hist h;
	memset(&h, 0, sizeof h);
	h.o = o;
	h.path = abs;
	pthread_mutex_init(&h.pool_mu, NULL);
	h.so.include_tests = o->include_tests;
	h.so.excludes = o->excludes;
	h.so.n_excludes = o->n_excludes;
	fl_tree tree;
	memset(&tree, 0, sizeof tree);
	struct hversion *v = NULL;
	size_t nv = 0;
	char *repo = NULL;
	git_tree *prev = NULL;
	int rc = -1;
	if (G->repository_open_ext(&h.repo, abs, 0, NULL) < 0) {
		G->error_clear();
		h.repo = NULL;
		fl_seterr(err, "%s is not a git repository: --history reads a repository's tags"
			  " and commits", o->path);
		goto out;
	}
	if (G->repository_is_shallow(h.repo) == 1) {
		fl_seterr(err, "%s is a shallow clone: its history is cut short; fetch all of it"
			  " (git fetch --unshallow) to scan its versions", o->path);
		goto out;
	}
	if (list_versions(&h, &v, &nv, err) < 0)
		goto out;
	/* the repository's name and remote, as a scan of its last version
	 * has them */
	if (fl_tree_open(o->path, v[nv - 1].sha, &tree, err) < 0)
		goto out;
	fl_scan_opts so = {.path = o->path, .repo = o->repo};
	bool local;
	repo = fl_scan_repo_name(&so, &tree, &local);
	if (!fl_scan_valid_repo_name(repo)) {
		fl_seterr(err, "--repo %s: must be OWNER/NAME", repo);
		goto out;
	}
	h.repo_name = repo;
	const char *host = local ? NULL
		: (tree.host && tree.remote_repo && strcmp(tree.remote_repo, repo) == 0 ? tree.host
										       : "github.com");
	snprintf(out->repo, sizeof out->repo, "%s", repo);
	snprintf(out->links, sizeof out->links, "%s",
		 !host ? "file" : strcmp(host, "github.com") == 0 ? "github" : host);
	memcpy(out->head_sha, v[nv - 1].sha, 41);
	for (int li = 0; fl_langs[li] && li < NLANGS_MAX; li++)
		if (fl_langs[li]->tree_new)
			h.lang_trees[li] = fl_langs[li]->tree_new();
	out->nversions = nv;
	char key[256];
	history_key(o, key, sizeof key);
	bool same = false;
	if (!o->full && resume(&h, st, v, nv, key, &same, &prev, err) < 0)
		goto out;
	if (h.from)
		snprintf(out->resumed_from, sizeof out->resumed_from, "%s", v[h.from - 1].name);
	if (same) {
		/* the store holds these versions: nothing to scan or write */
		out->up_to_date = true;
		for (size_t r = 0; r < h.nrecs; r++) {
			if (h.recs[r].last == (int)nv - 1)
				out->records_head++;
			else
				out->records_past++;
		}
		out->records = out->records_head + out->records_past;
		out->unchanged = out->records;
		rc = 0;
		goto out;
	}
	if (h.from && nv - (size_t)h.from > 1 &&
	    collect_held(&h, &out->bytes_scanned, err) < 0)
		goto out;
	out->steps = fl_xcalloc(nv - (size_t)h.from, sizeof *out->steps);
	out->nsteps = nv - (size_t)h.from;
	for (size_t i = (size_t)h.from; i < nv; i++) {
		fl_history_step *step = &out->steps[i - (size_t)h.from];
		step->name = fl_xstrdup(v[i].name);
		memcpy(step->sha, v[i].sha, 41);
		git_commit *commit = NULL;
		git_tree *t = NULL;
		git_object *obj = NULL;
		if (G->object_lookup(&obj, h.repo, &v[i].commit, GIT_OBJECT_COMMIT) < 0) {
			giterr(err, v[i].name);
			goto out;
		}
		commit = (git_commit *)obj;
		int trc = G->commit_tree(&t, commit);
		G->object_free(obj);
		if (trc < 0) {
			giterr(err, v[i].name);
			goto out;
		}
		long long changed;
		int nrc = next_files(&h, prev, t, &changed, err);
		G->tree_free(prev);
		prev = t;
		if (nrc < 0)
			goto out;
		step->changed = changed;
		if (i == nv - 1 && i > 0) {
			/* the last version whole, with its own facts */
			h.whole = true;
			for (int li = 0; fl_langs[li] && li < NLANGS_MAX; li++) {
				if (!h.lang_trees[li])
					continue;
				if (fl_langs[li]->tree_free)
					fl_langs[li]->tree_free(h.lang_trees[li]);
				h.lang_trees[li] = fl_langs[li]->tree_new();
			}
			for (size_t k = 0; k < h.nfiles; k++) {
				h.files[k].blob = NONE;
				free(h.files[k].recs);
				h.files[k].recs = NULL;
				drop_held(&h.files[k]);
			}
		}
		h.todo = fl_xrealloc(h.todo, (h.nfiles ? h.nfiles : 1) * sizeof *h.todo);
		h.ntodo = 0;
		for (size_t k = 0; k < h.nfiles; k++) {
			struct hfile *f = &h.files[k];
			if (f->rule >= 0)
				continue;
			step->files++;
			bool fresh = false;
			if (f->blob == NONE)
				f->blob = file_blob(&h, f, &fresh);
			if (!fresh)
				step->reused++;
		}
		if (scan_todo(&h, &out->bytes_scanned, err) < 0)
			goto out;
		step->scanned = (long long)h.ntodo;
		out->blobs_scanned += step->scanned;
		out->files_reused += step->reused;
		step->records = add_version_records(&h, (int)i);
		if (o->progress)
			fprintf(stderr, "\r%-24.24s %zu/%zu: %lld files changed, %lld blobs scanned,"
				" %lld records   ", v[i].name, i + 1, nv, step->changed,
				step->scanned, step->records);
	}
	if (o->progress)
		fprintf(stderr, "\n");
	long long again = 0;
	if (prepare_records(&h, (int)nv - 1, &out->bytes_scanned, &again, err) < 0)
		goto out;
	out->blobs_scanned += again;
	if (write_store(&h, st, v, nv, &tree, host, key, t0, out, err) < 0)
		goto out;
	rc = 0;
out:
	G->tree_free(prev);
	hist_free(&h);
	pthread_mutex_destroy(&h.pool_mu);
	if (h.repo)
		G->repository_free(h.repo);
	for (size_t i = 0; i < nv; i++)
		free(v[i].name);
	free(v);
	free(repo);
	if (tree.libgit2 || tree.root)
		fl_tree_close(&tree);
	G->libgit2_shutdown();
	out->seconds = fl_now_mono() - t0;
	if (rc < 0)
		fl_history_summary_free(out);
	return rc;
}
