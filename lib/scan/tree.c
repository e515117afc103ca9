/*
 * tree.c — listing and reading the files of a scan target with libgit2
 * (work tree index, or a commit's tree from the object store) or a plain
 * folder walk.  See tree.h.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "tree.h"
#include "gitlib.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include "../cryptolib.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../parallel.h"
#include "../strmap.h"
#include "../util.h"

/* libgit2, once fl_tree_open has loaded it (every use below comes after) */
#define G (fl_git(NULL))

static int giterr(fl_err *err, const char *what)
{
	const git_error *e = G->error_last();
	return fl_seterr(err, "%s: %s", what, e && e->message ? e->message : "libgit2 error");
}

static void add_file(fl_tree *t, size_t *cap, const char *path,
		     const git_oid *oid, long long size)
{
	if (t->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		t->files = fl_xrealloc(t->files, *cap * sizeof *t->files);
	}
	fl_tree_file *f = &t->files[t->n++];
	memset(f, 0, sizeof *f);
	f->path = fl_xstrdup(path);
	if (oid)
		G->oid_cpy(&f->oid, oid);
	f->size = size;
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const fl_tree_file *)a)->path, ((const fl_tree_file *)b)->path);
}

/* ---- plain folder ----------------------------------------------------------- */

/* The folders still to list, shared by the walkers (a folder's entries are
 * listed by one walker; the order does not matter, the files are sorted
 * afterwards).  Listing a folder is mostly the kernel's work (~2 us an
 * entry on the benchmark host: git's 4.8 k files took 9-11 ms on one
 * core), which two walkers share (6.5-8 ms). */
struct wdir {
	char *abs, *rel;
	int depth;
};

struct walkq {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct wdir *v;
	size_t n, cap;
	size_t busy;    /* folders queued or being listed */
};

/* what one walker found */
struct wlist {
	fl_tree_file *files;
	size_t n, cap;
	/* the folders it left out, and the first of each in path order */
	long long deep, deep_files, unreadable;
	bool deep_uncounted;
	char *deep_first, *unreadable_first;
	int unreadable_errno;
};

/* *first = rel when rel comes first in path order (rel taken), else rel freed */
static void keep_first(char **first, char *rel)
{
	if (!*first || strcmp(rel, *first) < 0) {
		free(*first);
		*first = rel;
	} else {
		free(rel);
	}
}

static void wlist_add(struct wlist *l, char *rel, long long size)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->files = fl_xrealloc(l->files, l->cap * sizeof *l->files);
	}
	fl_tree_file *f = &l->files[l->n++];
	memset(f, 0, sizeof *f);
	f->path = rel;
	f->size = size;
}

static void walkq_push(struct walkq *q, char *abs, char *rel, int depth)
{
	pthread_mutex_lock(&q->mu);
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 64;
		q->v = fl_xrealloc(q->v, q->cap * sizeof *q->v);
	}
	q->v[q->n++] = (struct wdir){abs, rel, depth};
	q->busy++;
	pthread_cond_signal(&q->cv);
	pthread_mutex_unlock(&q->mu);
}

/* List one folder: its files into l, its folders into q.  -1 when it is
 * the root and cannot be read. */
static int list_dir(struct walkq *q, struct wlist *l, const struct wdir *w, fl_err *err)
{
	DIR *d = opendir(w->abs);
	if (!d) {
		if (w->depth == 0)
			return fl_seterr(err, "cannot read folder %s: %s", w->abs, strerror(errno));
		if (errno != ENOENT) { /* not one removed meanwhile */
			int e = errno;
			l->unreadable++;
			if (!l->unreadable_first || strcmp(w->rel, l->unreadable_first) < 0)
				l->unreadable_errno = e;
			keep_first(&l->unreadable_first, fl_xstrdup(w->rel));
		}
		return 0;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0 || strcmp(n, ".git") == 0)
			continue;
		/* the entry's type from the folder itself where the file
		 * system gives it (a stat per file doubled the walk); a
		 * file's size is learnt when it is read */
		bool dir = de->d_type == DT_DIR, reg = de->d_type == DT_REG;
		long long size = -1;
		if (de->d_type == DT_UNKNOWN) {
			char *a = fl_path_join(w->abs, n);
			struct stat sb;
			if (lstat(a, &sb) == 0) {
				dir = S_ISDIR(sb.st_mode);
				reg = S_ISREG(sb.st_mode);
				size = (long long)sb.st_size;
			}
			free(a);
		}
		if (!dir && !reg)
			continue; /* symbolic links, devices, sockets */
		char *r = *w->rel ? fl_path_join(w->rel, n) : fl_xstrdup(n);
		if (!dir && w->depth <= FL_TREE_MAX_DEPTH) {
			wlist_add(l, r, size);
			continue;
		}
		if (!dir) { /* under a folder too deep: counted, left out */
			l->deep_files++;
			free(r);
			continue;
		}
		if (w->depth + 1 == FL_TREE_MAX_DEPTH + 1) {
			l->deep++;
			keep_first(&l->deep_first, fl_xstrdup(r));
		}
		if (w->depth + 1 <= FL_TREE_COUNT_DEPTH) {
			walkq_push(q, fl_path_join(w->abs, n), r, w->depth + 1);
		} else {
			l->deep_uncounted = true;
			free(r);
		}
	}
	closedir(d);
	return 0;
}

/* A walker: lists queued folders until none is queued or being listed. */
static void walk_run(struct walkq *q, struct wlist *l)
{
	for (;;) {
		pthread_mutex_lock(&q->mu);
		while (q->n == 0 && q->busy > 0)
			pthread_cond_wait(&q->cv, &q->mu);
		if (q->n == 0) {
			pthread_mutex_unlock(&q->mu);
			return;
		}
		struct wdir w = q->v[--q->n];
		pthread_mutex_unlock(&q->mu);
		list_dir(q, l, &w, NULL); /* only the root's failure counts */
		free(w.abs);
		free(w.rel);
		pthread_mutex_lock(&q->mu);
		if (--q->busy == 0)
			pthread_cond_broadcast(&q->cv);
		pthread_mutex_unlock(&q->mu);
	}
}

struct walker {
	struct walkq *q;
	struct wlist l;
};

static void *walker_main(void *arg)
{
	struct walker *wk = arg;
	walk_run(wk->q, &wk->l);
	return NULL;
}

#define WALKERS 2

/* The files under abs, in no particular order, into t. */
static int walk(fl_tree *t, const char *abs, fl_err *err)
{
	struct walkq q = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	struct walker wk[WALKERS];
	memset(wk, 0, sizeof wk);
	/* the root on this thread: its failure is the walk's */
	struct wdir root = {(char *)abs, "", 0};
	if (list_dir(&q, &wk[0].l, &root, err) < 0) {
		free(q.v);
		return -1;
	}
	pthread_t tids[WALKERS];
	bool started[WALKERS] = {false};
	for (int i = 1; i < WALKERS; i++) {
		wk[i].q = &q;
		started[i] = fl_thread_spawn(&tids[i], walker_main, &wk[i], i - 1) == 0;
	}
	walk_run(&q, &wk[0].l);
	size_t n = 0;
	for (int i = 0; i < WALKERS; i++) {
		if (started[i])
			pthread_join(tids[i], NULL);
		n += wk[i].l.n;
	}
	free(q.v);
	pthread_mutex_destroy(&q.mu);
	pthread_cond_destroy(&q.cv);
	t->files = fl_xmalloc((n ? n : 1) * sizeof *t->files);
	char *unreadable = NULL;
	int unreadable_errno = 0;
	for (int i = 0; i < WALKERS; i++) {
		struct wlist *l = &wk[i].l;
		if (l->n)
			memcpy(t->files + t->n, l->files, l->n * sizeof *t->files);
		t->n += l->n;
		free(l->files);
		t->deep_folders += l->deep;
		t->deep_files += l->deep_files;
		t->deep_uncounted |= l->deep_uncounted;
		if (l->deep_first)
			keep_first(&t->deep_first, l->deep_first);
		t->unreadable_folders += l->unreadable;
		if (l->unreadable_first) {
			if (!unreadable || strcmp(l->unreadable_first, unreadable) < 0)
				unreadable_errno = l->unreadable_errno;
			keep_first(&unreadable, l->unreadable_first);
		}
	}
	if (unreadable) {
		t->unreadable_first = fl_xasprintf("%s (%s)", unreadable, strerror(unreadable_errno));
		free(unreadable);
	}
	return 0;
}

/* ---- remote ------------------------------------------------------------------- */

/* https://github.com/owner/name(.git), git@github.com:owner/name.git,
 * ssh://git@host/owner/name */
static void parse_remote(const char *url, char **host, char **repo)
{
	*host = *repo = NULL;
	const char *p = url, *h;
	if ((h = strstr(p, "://"))) {
		p = h + 3;
		const char *at = strchr(p, '@');
		const char *sl = strchr(p, '/');
		if (at && (!sl || at < sl))
			p = at + 1;
		sl = strchr(p, '/');
		if (!sl)
			return;
		const char *colon = memchr(p, ':', (size_t)(sl - p));
		if ((colon ? colon : sl) == p)
			return; /* no host: a file:// URL, a folder of this machine */
		*host = fl_xstrndup(p, (size_t)((colon ? colon : sl) - p));
		p = sl + 1;
	} else if ((h = strchr(p, ':')) && strchr(p, '@') && strchr(p, '@') < h) {
		const char *at = strchr(p, '@');
		*host = fl_xstrndup(at + 1, (size_t)(h - at - 1));
		p = h + 1;
	} else {
		return;
	}
	size_t l = strlen(p);
	while (l && p[l - 1] == '/')
		l--;
	if (l > 4 && strncmp(p + l - 4, ".git", 4) == 0)
		l -= 4;
	char *r = fl_xstrndup(p, l);
	/* owner/name: the last two components (GitLab groups keep only the
	 * last two, which is what permalinks of github-like hosts need) */
	char *last = strrchr(r, '/');
	if (!last || last == r || !last[1]) {
		free(r);
		free(*host);
		*host = NULL;
		return;
	}
	if (strcmp(*host, "gitlab.com") == 0 || strstr(*host, "gitlab")) {
		*repo = r; /* GitLab: full group path */
		return;
	}
	char *prev = last - 1;
	while (prev > r && *(prev - 1) != '/')
		prev--;
	*repo = fl_xstrdup(prev);
	free(r);
}

/* remote.origin.url straight from the config (git_remote_lookup of
 * libgit2 1.5 leaks its regex match data) */
static void read_remote(git_repository *repo, fl_tree *t)
{
	git_config *cfg = NULL;
	if (G->repository_config_snapshot(&cfg, repo) == 0) {
		const char *url = NULL;
		if (G->config_get_string(&url, cfg, "remote.origin.url") == 0 && url)
			parse_remote(url, &t->host, &t->remote_repo);
		G->config_free(cfg);
	}
	G->error_clear();
}

/* ---- loose objects --------------------------------------------------------------- */

/* libgit2 1.5 loops forever on some damaged loose objects (a zlib stream
 * cut short: libgit2#7342) and writes past its buffer on others (a header
 * that says fewer bytes than the object holds: #7177).  A scan from the
 * object store (--rev, a bare repository) reads the loose blobs itself:
 * inflated within bounds, the header checked against the content, the
 * SHA-1 verified.  Which blobs are loose is learnt once, by listing the
 * object folders (objects/ and each of its 2-hex folders that exists: one
 * listing when everything is packed), not by a look-up per file. */
static bool hex_name(const char *n, size_t len)
{
	size_t i = 0;
	for (; n[i]; i++)
		if (!((n[i] >= '0' && n[i] <= '9') || (n[i] >= 'a' && n[i] <= 'f')))
			return false;
	return i == len;
}

static void mark_loose(fl_tree *t)
{
	if (!t->n || !fl_zlib())
		return;
	char *objs = fl_path_join(t->gitdir, "objects");
	DIR *d = opendir(objs);
	if (!d) {
		free(objs);
		return;
	}
	fl_strmap loose = {0};
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!hex_name(de->d_name, 2))
			continue;
		char *sub = fl_path_join(objs, de->d_name);
		DIR *sd = opendir(sub);
		struct dirent *e;
		char hex[GIT_OID_HEXSZ + 1];
		memcpy(hex, de->d_name, 2);
		while (sd && (e = readdir(sd))) {
			if (!hex_name(e->d_name, GIT_OID_HEXSZ - 2))
				continue;
			memcpy(hex + 2, e->d_name, GIT_OID_HEXSZ - 1);
			fl_strmap_put(&loose, hex, 1);
		}
		if (sd)
			closedir(sd);
		free(sub);
	}
	closedir(d);
	free(objs);
	for (size_t i = 0; i < t->n && loose.n; i++) {
		char hex[GIT_OID_HEXSZ + 1];
		G->oid_tostr(hex, sizeof hex, &t->files[i].oid);
		t->files[i].loose = fl_strmap_get(&loose, hex, NULL);
	}
	fl_strmap_free(&loose);
}

/* Loose blob i, at most max bytes (*large, NULL, when it is over); NULL
 * with err set when it is damaged; *packed (NULL returned) when it is no
 * longer loose (packed since), for libgit2 to read. */
static char *loose_read(const fl_tree *t, size_t i, long long max, size_t *len,
			bool *large, bool *packed, fl_err *err)
{
	const fl_tree_file *f = &t->files[i];
	const fl_z_api *Z = fl_zlib();
	char hex[GIT_OID_HEXSZ + 1], rel[GIT_OID_HEXSZ + 16];
	G->oid_tostr(hex, sizeof hex, &f->oid);
	snprintf(rel, sizeof rel, "objects/%.2s/%s", hex, hex + 2);
	char *p = fl_path_join(t->gitdir, rel);
	int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	free(p);
	*packed = fd < 0 && errno == ENOENT;
	if (*packed)
		return NULL;
	char *z = NULL, *buf = NULL;
	const char *why = NULL;
	size_t zlen = 0;
	struct stat sb;
	/* a stream longer than this holds more than max bytes, or is not
	 * a blob's: only its head is read, for the header */
	long long zcap = max + max / 128 + 4096;
	bool whole = false;
	if (fd < 0 || fstat(fd, &sb) < 0) {
		fl_seterr(err, "blob %s: cannot open its loose object: %s", hex, strerror(errno));
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		why = "not a regular file";
		goto damaged;
	}
	whole = (long long)sb.st_size <= zcap;
	if (whole) {
		z = fl_read_fd(fd, (size_t)sb.st_size, true, &zlen);
	} else {
		z = fl_xmalloc(4096);
		ssize_t n = pread(fd, z, 4096, 0);
		zlen = n > 0 ? (size_t)n : 0;
	}
	if (!z) {
		fl_seterr(err, "blob %s: cannot read its loose object: %s", hex, strerror(errno));
		goto out;
	}
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (Z->inflateInit_(&zs, ZLIB_VERSION, (int)sizeof zs) != Z_OK) {
		fl_seterr(err, "blob %s: zlib could not start", hex);
		goto out;
	}
	unsigned char hdr[64];
	zs.next_in = (unsigned char *)z;
	zs.avail_in = (uInt)zlen;
	zs.next_out = hdr;
	zs.avail_out = sizeof hdr;
	int zr = Z->inflate(&zs, Z_SYNC_FLUSH);
	size_t got = sizeof hdr - zs.avail_out;
	const unsigned char *nul = memchr(hdr, '\0', got);
	unsigned long long size = 0;
	if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
		why = zs.msg ? zs.msg : "not zlib data";
	} else if (!nul || got < 7 || memcmp(hdr, "blob ", 5) != 0) {
		why = "no blob header";
	} else {
		const unsigned char *d = hdr + 5;
		if (d == nul || (d[0] == '0' && d + 1 != nul) || nul - d > 12)
			why = "a bad size in its header";
		for (; !why && d < nul; d++) {
			if (*d < '0' || *d > '9')
				why = "a bad size in its header";
			size = size * 10 + (unsigned)(*d - '0');
		}
	}
	if (!why && size > (unsigned long long)max) {
		*large = true;
		Z->inflateEnd(&zs);
		goto out;
	}
	if (!why && !whole)
		why = "a stream far longer than its content";
	size_t hl = nul ? (size_t)(nul - hdr) + 1 : 0, have = got - hl;
	if (!why && have > size)
		why = "more content than its header says";
	if (!why) {
		buf = fl_xmalloc((size_t)size + 1);
		memcpy(buf, nul + 1, have);
		/* one byte more than the header says: content over it shows */
		zs.next_out = (unsigned char *)buf + have;
		zs.avail_out = (uInt)(size - have + 1);
		while (zr == Z_OK) {
			uInt in = zs.avail_in, out = zs.avail_out;
			zr = Z->inflate(&zs, Z_FINISH);
			if (zr == Z_OK && zs.avail_in == in && zs.avail_out == out)
				break; /* no progress: cut short */
		}
		size_t total = (size_t)((char *)zs.next_out - buf);
		if (zr != Z_STREAM_END && zr != Z_OK && zr != Z_BUF_ERROR)
			why = zs.msg ? zs.msg : "not zlib data";
		else if (total > size)
			why = "more content than its header says";
		else if (zr != Z_STREAM_END)
			why = "its zlib stream is cut short";
		else if (total < size)
			why = "less content than its header says";
	}
	Z->inflateEnd(&zs);
	if (!why) {
		unsigned char md[EVP_MAX_MD_SIZE];
		unsigned int mdlen = 0;
		EVP_MD_CTX *ctx = fl_crypto()->EVP_MD_CTX_new();
		bool ok = ctx && fl_crypto()->EVP_DigestInit_ex(ctx, fl_crypto()->EVP_sha1(), NULL) &&
			  fl_crypto()->EVP_DigestUpdate(ctx, hdr, hl) && fl_crypto()->EVP_DigestUpdate(ctx, buf, (size_t)size) &&
			  fl_crypto()->EVP_DigestFinal_ex(ctx, md, &mdlen);
		fl_crypto()->EVP_MD_CTX_free(ctx);
		if (!ok || mdlen != GIT_OID_RAWSZ || memcmp(md, f->oid.id, GIT_OID_RAWSZ) != 0)
			why = "its content does not hash to its id";
	}
	if (!why) {
		buf[size] = '\0';
		*len = (size_t)size;
		close(fd);
		free(z);
		return buf;
	}
damaged:
	fl_seterr(err, "blob %s: damaged loose object (%s)", hex, why);
out:
	if (fd >= 0)
		close(fd);
	free(z);
	free(buf);
	return NULL;
}

/* ---- git ------------------------------------------------------------------------- */

struct walk_ctx {
	fl_tree *t;
	size_t *cap;
	const char *prefix; /* subtree prefix with trailing '/', or "" */
};

static int tree_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk_ctx *w = payload;
	git_filemode_t mode = G->tree_entry_filemode(e);
	if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE)
		return 0;
	char *p = fl_xasprintf("%s%s%s", w->prefix, root, G->tree_entry_name(e));
	add_file(w->t, w->cap, p, G->tree_entry_id(e), -1);
	free(p);
	return 0;
}

static int open_git(fl_tree *t, git_repository *repo, const char *abs,
		    const char *rev, fl_err *err)
{
	size_t cap = 0;
	t->gitdir = fl_xstrdup(G->repository_path(repo));
	const char *wd = G->repository_workdir(repo);
	bool bare = G->repository_is_bare(repo);
	/* PATH is the git directory itself (e.g. repo/.git, or a mirror
	 * without core.bare): read HEAD from the object store, as for a bare
	 * repository, not the parent folder's (absent) index */
	size_t gl = strlen(t->gitdir);
	if (!bare && strncmp(abs, t->gitdir, gl - (gl && t->gitdir[gl - 1] == '/')) == 0 &&
	    abs[gl - (gl && t->gitdir[gl - 1] == '/')] == '\0') {
		bare = true;
		wd = NULL;
	}
	read_remote(repo, t);
	git_reference *head = NULL;
	if (G->repository_head(&head, repo) == 0) {
		if (G->reference_is_branch(head))
			t->branch = fl_xstrdup(G->reference_shorthand(head));
		G->reference_free(head);
	}
	G->error_clear();

	/* subfolder of the work tree being scanned, as a repo-relative prefix */
	char *prefix = fl_xstrdup("");
	if (wd) {
		size_t wl = strlen(wd);
		char *root = fl_xstrndup(wd, wl && wd[wl - 1] == '/' ? wl - 1 : wl);
		if (fl_str_starts(abs, root) && abs[strlen(root)] == '/') {
			free(prefix);
			prefix = fl_xasprintf("%s/", abs + strlen(root) + 1);
		}
		t->root = root;
	} else {
		t->root = fl_xstrdup(abs);
	}

	if (bare || rev) {
		t->from_odb = true;
		git_object *obj = NULL, *commit = NULL;
		git_tree *tree = NULL;
		if (G->revparse_single(&obj, repo, rev ? rev : "HEAD") < 0) {
			free(prefix);
			return giterr(err, rev ? rev : "HEAD");
		}
		int rc = G->object_peel(&commit, obj, GIT_OBJECT_COMMIT);
		G->object_free(obj);
		if (rc < 0) {
			free(prefix);
			return giterr(err, rev ? rev : "HEAD");
		}
		G->oid_tostr(t->sha, sizeof t->sha, G->object_id(commit));
		if (G->commit_tree(&tree, (git_commit *)commit) < 0) {
			G->object_free(commit);
			free(prefix);
			return giterr(err, "reading the commit's tree");
		}
		G->object_free(commit);
		git_tree *sub = tree;
		if (*prefix) {
			git_tree_entry *te = NULL;
			char *dir = fl_xstrndup(prefix, strlen(prefix) - 1);
			rc = G->tree_entry_bypath(&te, tree, dir);
			free(dir);
			if (rc < 0 || G->tree_entry_type(te) != GIT_OBJECT_TREE ||
			    G->tree_lookup(&sub, repo, G->tree_entry_id(te)) < 0) {
				G->tree_entry_free(te);
				G->tree_free(tree);
				fl_seterr(err, "%s: not a folder at %s", prefix, t->sha);
				free(prefix);
				return -1;
			}
			G->tree_entry_free(te);
		}
		struct walk_ctx w = {t, &cap, prefix};
		rc = G->tree_walk(sub, GIT_TREEWALK_PRE, tree_cb, &w);
		if (sub != tree)
			G->tree_free(sub);
		G->tree_free(tree);
		free(prefix);
		if (rc < 0)
			return giterr(err, "walking the tree");
		mark_loose(t);
	} else {
		git_index *idx = NULL;
		if (G->repository_index(&idx, repo) < 0) {
			free(prefix);
			return giterr(err, "reading the index");
		}
		size_t n = G->index_entrycount(idx);
		size_t pl = strlen(prefix);
		for (size_t i = 0; i < n; i++) {
			const git_index_entry *e = G->index_get_byindex(idx, i);
			if (G->index_entry_stage(e) != 0)
				continue;
			if (e->mode != GIT_FILEMODE_BLOB &&
			    e->mode != GIT_FILEMODE_BLOB_EXECUTABLE)
				continue;
			if (pl && strncmp(e->path, prefix, pl) != 0)
				continue;
			add_file(t, &cap, e->path, NULL, -1);
		}
		G->index_free(idx);
		free(prefix);
		git_oid oid;
		if (G->reference_name_to_id(&oid, repo, "HEAD") == 0)
			G->oid_tostr(t->sha, sizeof t->sha, &oid);
		G->error_clear();
	}
	return 0;
}

/* Whether the folder at abs (absolute, resolved), or one above it, may be
 * (in) a git repository: it or an ancestor has a `.git` entry, or has a
 * repository's own layout (HEAD and objects/: a bare repository or a .git
 * folder).  When none has, the folder is walked without starting libgit2,
 * whose start reads the system's TLS certificates (6-9 ms); when one has,
 * libgit2 decides, as before. */
static bool maybe_git(const char *abs)
{
	char p[PATH_MAX];
	size_t n = strlen(abs);
	if (n + sizeof "/objects" >= sizeof p)
		return true;
	memcpy(p, abs, n + 1);
	for (;;) {
		struct stat sb;
		strcpy(p + n, "/.git");
		if (lstat(p, &sb) == 0)
			return true;
		strcpy(p + n, "/HEAD");
		if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
			strcpy(p + n, "/objects");
			if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
				return true;
		}
		while (n > 0 && p[n - 1] != '/')
			n--;
		if (n == 0)
			return false;
		n--; /* the parent: "/a/b" -> "/a", "/a" -> "" (the root) */
	}
}

int fl_tree_open(const char *path, const char *rev, fl_tree *t, fl_err *err)
{
	memset(t, 0, sizeof *t);
	char abs[PATH_MAX];
	if (!realpath(path, abs))
		return fl_seterr(err, "cannot scan %s: %s", path, strerror(errno));
	struct stat sb;
	if (stat(abs, &sb) < 0 || !S_ISDIR(sb.st_mode))
		return fl_seterr(err, "cannot scan %s: not a folder", path);
	git_repository *repo = NULL;
	int rc;
	if (rev || maybe_git(abs)) {
		fl_err lerr;
		if (!fl_git(&lerr))
			return fl_seterr(err, "cannot scan %s: %s", path, lerr.msg);
		G->libgit2_init(); /* released by fl_tree_close() */
		t->libgit2 = true;
	}
	if (t->libgit2 && G->repository_open_ext(&repo, abs, 0, NULL) == 0) {
		rc = open_git(t, repo, abs, rev, err);
		G->repository_free(repo);
	} else {
		if (t->libgit2)
			G->error_clear();
		if (rev) {
			fl_tree_close(t);
			return fl_seterr(err, "--rev %s: %s is not a git repository", rev, path);
		}
		t->root = fl_xstrdup(abs);
		rc = walk(t, abs, err);
	}
	if (rc < 0) {
		fl_tree_close(t);
		return -1;
	}
	if (t->n > 1)
		qsort(t->files, t->n, sizeof *t->files, cmp_file);
	return 0;
}

void fl_tree_close(fl_tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->files[i].path);
	free(t->files);
	free(t->root);
	free(t->gitdir);
	free(t->host);
	free(t->remote_repo);
	free(t->branch);
	free(t->deep_first);
	free(t->unreadable_first);
	if (t->libgit2)
		G->libgit2_shutdown();
	memset(t, 0, sizeof *t);
}

int fl_tree_reader_open(fl_tree_reader *r, const fl_tree *t, fl_err *err)
{
	r->tree = t;
	r->repo = NULL;
	r->buf = NULL;
	r->slab = NULL;
	r->dirfd = -1;
	r->dir = NULL;
	r->dirlen = 0;
	if (t->from_odb && G->repository_open_bare(&r->repo, t->gitdir) < 0)
		return giterr(err, t->gitdir);
	return 0;
}

void fl_tree_reader_close(fl_tree_reader *r)
{
	if (r->dirfd >= 0)
		close(r->dirfd);
	r->dirfd = -1;
	free(r->dir);
	r->dir = NULL;
	if (r->repo)
		G->repository_free(r->repo);
	r->repo = NULL;
}

/* Size of object-store file i without reading it (-1 when unknown). */
static long long odb_size(fl_tree_reader *r, size_t i)
{
	const fl_tree_file *f = &r->tree->files[i];
	if (f->size >= 0)
		return f->size;
	git_odb *odb = NULL;
	size_t len;
	git_object_t type;
	long long size = -1;
	if (G->repository_odb(&odb, r->repo) == 0 &&
	    G->odb_read_header(&len, &type, odb, &f->oid) == 0)
		size = (long long)len;
	G->odb_free(odb);
	G->error_clear();
	return size;
}

/* Object-store file i, NUL-terminated: in the reader's slab (*borrowed),
 * else malloc'd. */
static char *odb_read(fl_tree_reader *r, size_t i, size_t *len, bool *borrowed, fl_err *err)
{
	const fl_tree_file *f = &r->tree->files[i];
	git_blob *b = NULL;
	if (G->blob_lookup(&b, r->repo, &f->oid) < 0) {
		char id[GIT_OID_HEXSZ + 1];
		G->oid_tostr(id, sizeof id, &f->oid);
		char *what = fl_xasprintf("blob %s", id);
		giterr(err, what);
		free(what);
		return NULL;
	}
	size_t n = (size_t)G->blob_rawsize(b);
	char *buf = fl_slab_alloc(r->slab, n + 1);
	*borrowed = buf != NULL;
	if (!buf)
		buf = fl_xmalloc(n + 1);
	memcpy(buf, G->blob_rawcontent(b), n);
	buf[n] = '\0';
	G->blob_free(b);
	*len = n;
	return buf;
}

/* Open a work tree's or folder's file (path relative to its root): in
 * the folder the reader keeps open when it is the file's (a lookup of
 * the file's name instead of every folder on its path), else by its
 * whole path, as when that folder cannot be opened. */
static int open_file(fl_tree_reader *r, const char *path, int flags)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) : 0;
	if (!r->dir || r->dirlen != dlen || memcmp(r->dir, path, dlen) != 0) {
		if (r->dirfd >= 0)
			close(r->dirfd);
		free(r->dir);
		r->dir = fl_xstrndup(path, dlen);
		r->dirlen = dlen;
		char *d = dlen ? fl_path_join(r->tree->root, r->dir) : fl_xstrdup(r->tree->root);
#ifdef O_PATH
		r->dirfd = open(d, O_PATH | O_DIRECTORY | O_CLOEXEC);
#else
		r->dirfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#endif
		free(d);
	}
	if (r->dirfd >= 0)
		return openat(r->dirfd, slash ? slash + 1 : path, flags);
	char *p = fl_path_join(r->tree->root, path);
	int fd = open(p, flags);
	int e = errno;
	free(p);
	errno = e;
	return fd;
}

/* A regular file of size bytes read into buf (cap >= size + 2 bytes):
 * false when it fails (*failed) or when the file has grown meanwhile (it
 * is then to be read again from its start, into the heap: fl_read_fd). */
static bool read_into(char *buf, size_t cap, int fd, size_t size, size_t *len, bool *failed)
{
	size_t n = 0;
	*failed = false;
	for (;;) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*failed = true;
			return false;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n + 1 >= cap) { /* grown */
			*failed = lseek(fd, 0, SEEK_SET) != 0;
			return false;
		}
		if (n >= size) /* short only at its end (fl_read_fd) */
			break;
	}
	buf[n] = '\0';
	*len = n;
	return true;
}

/* Where the reader puts size bytes and the 2 more read_into() needs:
 * its buffer, grown as needed, else its slab; NULL: malloc. */
static char *reader_room(fl_tree_reader *r, size_t size)
{
	size_t need = size + 2;
	if (r->buf) {
		if (r->buf->cap < need) {
			/* doubled: a few new blocks over a scan, not one per
			 * larger file */
			size_t cap = (need + 0xffff) & ~(size_t)0xffff;
			if (cap < 2 * r->buf->cap)
				cap = 2 * r->buf->cap;
			free(r->buf->p);
			r->buf->p = fl_xmalloc(cap);
			r->buf->cap = cap;
		}
		return r->buf->p;
	}
	return fl_slab_alloc(r->slab, need);
}

char *fl_tree_read_upto(fl_tree_reader *r, size_t i, long long max, size_t *len,
			bool *large, bool *gone, bool *borrowed, fl_err *err)
{
	*large = *gone = *borrowed = false;
	if (r->tree->from_odb && r->tree->files[i].loose) {
		bool packed;
		char *buf = loose_read(r->tree, i, max, len, large, &packed, err);
		if (!packed)
			return buf;
	}
	if (r->tree->from_odb) {
		if (odb_size(r, i) > max) {
			*large = true;
			return NULL;
		}
		return odb_read(r, i, len, borrowed, err);
	}
	/* O_NONBLOCK: a FIFO put where a listed file was must not hang the
	 * scan in open() (it is then refused below) */
	int fd = open_file(r, r->tree->files[i].path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat sb;
	char *buf = NULL;
	if (fd < 0 || fstat(fd, &sb) < 0) {
		*gone = fd < 0 && (errno == ENOENT || errno == ENOTDIR);
		fl_seterr(err, "cannot open it: %s", strerror(errno));
	} else if (!S_ISREG(sb.st_mode)) {
		fl_seterr(err, "not a regular file");
	} else if ((long long)sb.st_size > max) {
		*large = true;
	} else {
		bool failed = false;
		size_t size = (size_t)sb.st_size;
		char *room = reader_room(r, size);
		if (room && read_into(room, size + 2, fd, size, len, &failed)) {
			buf = room;
			*borrowed = true;
		}
		if (!buf && (failed || !(buf = fl_read_fd(fd, size, true, len))))
			fl_seterr(err, "cannot read it: %s", strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	return buf;
}

long fl_tree_read_head(fl_tree_reader *r, size_t i, char *out, size_t cap)
{
	const fl_tree_file *f = &r->tree->files[i];
	if (r->tree->from_odb) {
		long long size = odb_size(r, i);
		git_blob *b = NULL;
		if (size < 0 || size > FL_HEAD_BLOB_MAX || G->blob_lookup(&b, r->repo, &f->oid) < 0) {
			G->error_clear();
			return -1;
		}
		size_t n = (size_t)G->blob_rawsize(b);
		if (n > cap)
			n = cap;
		memcpy(out, G->blob_rawcontent(b), n);
		G->blob_free(b);
		return (long)n;
	}
	int fd = open_file(r, f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat sb;
	long got = -1;
	if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
		size_t n = 0;
		while (n < cap) {
			ssize_t k = read(fd, out + n, cap - n);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				break;
			n += (size_t)k;
		}
		got = (long)n;
	}
	if (fd >= 0)
		close(fd);
	return got;
}
