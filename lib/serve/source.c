/*
 * source.c — where the served data comes from and how the cache is kept.
 *
 * A local store is used as it is.  A data set (a folder, or a URL: http://,
 * https:// or file://) is imported into a store in the cache folder
 * ($XDG_CACHE_HOME/faultline/<kind>-<hash of the source>/), re-imported only
 * when its datasetVersion changes.  A URL's small manifest.json is polled at
 * most once per TTL, on a thread of its own with a deadline; only when its
 * datasetVersion is newer (an older one is refused unless allowed) are the
 * files downloaded into a temporary folder, their declared sizes checked
 * against limits first, each file written to disk as it comes and cut when
 * more comes than declared: index.json, repos.json and inventory.json
 * checked against the manifest's sizes and sha256, every other file against
 * the inventory's, before anything is imported.  The cache is switched
 * atomically: the new store is complete under its own name before
 * state.json (written to a temporary file, then renamed) points to it, so a
 * second instance never reads a half file.  With keep_files (serve
 * --data-url) the verified files are kept beside the store
 * (files-VERSION-PID, named in state.json) for the site and /data/; the
 * previous version's store and files are kept, older ones pruned.  A failed
 * refresh keeps the old cache (stale); syncs are serialised by a lock file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include "../cryptolib.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <dirent.h>

#include "publish/publish.h"
#include "scan/lex.h"
#include "dynlib.h"
#include "serve.h"
#include "util.h"

char *fl_cache_dir(const char *override)
{
	if (override && *override)
		return fl_xstrdup(override);
	const char *x = getenv("XDG_CACHE_HOME");
	if (x && *x == '/')
		return fl_xasprintf("%s/faultline", x);
	const char *h = getenv("HOME");
	return fl_xasprintf("%s/.cache/faultline", h && *h ? h : ".");
}

/* ---- state.json ---------------------------------------------------------- */

static int write_atomic(const char *path, const char *data, size_t n, fl_err *err)
{
	char *tmp = fl_xasprintf("%s.tmp-%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fl_seterr(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	size_t off = 0;
	while (off < n) {
		ssize_t w = write(fd, data + off, n - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		off += (size_t)w;
	}
	if (off < n || fsync(fd) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
		fl_seterr(err, "%s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

struct state {
	char version[48];
	char store[128];
	char files[128];        /* the data set's files kept beside it, or "" */
	long long checked_at, synced_at;
};

static bool read_state(const char *cache, struct state *st)
{
	memset(st, 0, sizeof *st);
	char *p = fl_xasprintf("%s/state.json", cache);
	json_t *o = json_load_file(p, 0, NULL);
	free(p);
	if (!o)
		return false;
	const char *v = json_string_value(json_object_get(o, "datasetVersion"));
	const char *s = json_string_value(json_object_get(o, "store"));
	bool ok = v && s && !strchr(s, '/') && strlen(v) < sizeof st->version &&
		  strlen(s) < sizeof st->store;
	if (ok) {
		snprintf(st->version, sizeof st->version, "%s", v);
		snprintf(st->store, sizeof st->store, "%s", s);
		st->checked_at = json_integer_value(json_object_get(o, "checkedAt"));
		st->synced_at = json_integer_value(json_object_get(o, "syncedAt"));
		char *sp = fl_xasprintf("%s/%s", cache, s);
		ok = access(sp, R_OK) == 0;
		free(sp);
		/* the files are an extra: a state without them (or whose
		 * folder is gone) still names a store to serve */
		const char *f = json_string_value(json_object_get(o, "files"));
		if (ok && f && !strchr(f, '/') && fl_str_starts(f, "files-") &&
		    strlen(f) < sizeof st->files) {
			char *fp = fl_xasprintf("%s/%s/manifest.json", cache, f);
			if (access(fp, R_OK) == 0)
				snprintf(st->files, sizeof st->files, "%s", f);
			free(fp);
		}
	}
	json_decref(o);
	return ok;
}

static int write_state(const char *cache, const char *source, const struct state *st,
		       fl_err *err)
{
	json_t *o = json_object();
	json_object_set_new(o, "source", json_string(source));
	json_object_set_new(o, "datasetVersion", json_string(st->version));
	json_object_set_new(o, "store", json_string(st->store));
	if (st->files[0])
		json_object_set_new(o, "files", json_string(st->files));
	json_object_set_new(o, "checkedAt", json_integer(st->checked_at));
	json_object_set_new(o, "syncedAt", json_integer(st->synced_at));
	char *s = srv_dump(o);
	json_decref(o);
	char *p = fl_xasprintf("%s/state.json", cache);
	int rc = write_atomic(p, s, strlen(s), err);
	free(p);
	free(s);
	return rc;
}

/* Remove stores and kept data set files other than those of the states
 * keep1 and keep2 (NULL: none), and leftovers of killed syncs. */
static void prune(const char *cache, const struct state *keep1, const struct state *keep2)
{
	DIR *d = opendir(cache);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		bool store = fl_str_starts(n, "store-");
		bool files = fl_str_starts(n, "files-");
		bool tmp = fl_str_starts(n, "tmp-");
		if (!store && !files && !tmp)
			continue;
		bool kept = false;
		for (int i = 0; i < 2; i++) {
			const struct state *k = i ? keep2 : keep1;
			if (k && store && k->store[0] && fl_str_starts(n, k->store))
				kept = true; /* with its -wal, -shm, .lookup */
			if (k && files && k->files[0] && strcmp(n, k->files) == 0)
				kept = true;
		}
		if (kept)
			continue;
		char *p = fl_xasprintf("%s/%s", cache, n);
		pub_rmtree(p);
		free(p);
	}
	closedir(d);
}

/* Import the verified data set folder dir into a new store of the cache and
 * point state.json at it; with keep, the folder is moved into the cache
 * beside the store (files-VERSION-PID) and named in state.json too. */
static int install(srv_source *s, const char *dir, const char *version,
		   const char *source, bool keep, fl_err *err)
{
	char safe[48];
	size_t k = 0;
	for (const char *p = version; *p && k + 1 < sizeof safe; p++)
		safe[k++] = (char)((*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'Z') ||
				   (*p >= 'a' && *p <= 'z') || *p == '.' || *p == '-' ? *p : '_');
	safe[k] = '\0';
	char *name = fl_xasprintf("store-%s-%ld.db", safe, (long)getpid());
	char *files = keep ? fl_xasprintf("files-%s-%ld", safe, (long)getpid()) : NULL;
	char *fpath = keep ? fl_xasprintf("%s/%s", s->cache, files) : NULL;
	char *tmp = fl_xasprintf("%s/tmp-%ld.db", s->cache, (long)getpid());
	char *final = fl_xasprintf("%s/%s", s->cache, name);
	unlink(tmp);
	fl_store *st;
	int rc = -1;
	if (fl_store_open(tmp, false, &st, err) == 0) {
		fl_import_stats is;
		rc = fl_import(st, dir, &is, err);
		fl_store_close(st);
	}
	char *wal = fl_xasprintf("%s-wal", tmp), *shm = fl_xasprintf("%s-shm", tmp);
	if (rc == 0 && rename(tmp, final) < 0)
		rc = fl_seterr(err, "%s: %s", final, strerror(errno));
	unlink(tmp);
	unlink(wal);
	unlink(shm);
	free(wal);
	free(shm);
	if (rc == 0) {
		/* build the lookup index before anyone is pointed at the store */
		fl_store *ro;
		fl_lookup *lk;
		if (fl_store_open(final, true, &ro, err) == 0) {
			if (fl_lookup_open(ro, &lk, err) == 0)
				fl_lookup_close(lk);
			else
				rc = -1;
			fl_store_close(ro);
		} else {
			rc = -1;
		}
	}
	if (rc == 0) {
		struct state old, nw = {0};
		bool had = read_state(s->cache, &old);
		snprintf(nw.version, sizeof nw.version, "%s", version);
		snprintf(nw.store, sizeof nw.store, "%s", name);
		nw.checked_at = nw.synced_at = (long long)time(NULL);
		if (keep) {
			pub_rmtree(fpath);
			if (rename(dir, fpath) < 0)
				rc = fl_seterr(err, "%s: %s", fpath, strerror(errno));
			else
				snprintf(nw.files, sizeof nw.files, "%s", files);
		}
		if (rc == 0)
			rc = write_state(s->cache, source, &nw, err);
		if (rc == 0)
			prune(s->cache, &nw, had ? &old : NULL);
		else if (keep)
			pub_rmtree(fpath);
	}
	if (rc < 0)
		unlink(final);
	free(files);
	free(fpath);
	free(name);
	free(tmp);
	free(final);
	return rc;
}

static void use_state(srv_source *s, const struct state *st)
{
	free(s->store_path);
	s->store_path = fl_xasprintf("%s/%s", s->cache, st->store);
	free(s->files);
	s->files = st->files[0] ? fl_xasprintf("%s/%s", s->cache, st->files) : NULL;
	snprintf(s->version, sizeof s->version, "%s", st->version);
	s->synced_at = (time_t)st->synced_at;
	s->checked_at = (time_t)st->checked_at;
}

/* Lock the cache folder against other instances; with a deadline
 * (fl_now_mono(), > 0) give up then or when *cancel is set. */
static int lock_cache(const char *cache, double deadline, const int *cancel, fl_err *err)
{
	char *p = fl_xasprintf("%s/lock", cache);
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		fl_seterr(err, "%s: %s", p, strerror(errno));
	free(p);
	if (fd >= 0 && deadline <= 0 && flock(fd, LOCK_EX) < 0) {
		close(fd);
		return fl_seterr(err, "%s: cannot lock the cache", cache);
	}
	while (fd >= 0 && deadline > 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		bool busy = errno == EWOULDBLOCK || errno == EINTR;
		if (!busy || fl_now_mono() >= deadline ||
		    (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED))) {
			close(fd);
			return fl_seterr(err, busy ? "%s: another faultline is syncing into this cache; gave up waiting for it (--sync-timeout)"
					      : "%s: cannot lock the cache", cache);
		}
		usleep(50000);
	}
	return fd;
}

/* ---- a data set folder ---------------------------------------------------- */

static int refresh_dir(srv_source *s, fl_err *err)
{
	/* read as import reads it: a regular file beneath the folder, no
	 * link followed, no FIFO waited for, at most PUB_MANIFEST_MAX */
	size_t len;
	char *mt = pub_dataset_read(s->data_dir, "manifest.json", PUB_MANIFEST_MAX, &len, err);
	if (!mt)
		return -1;
	json_t *m = json_loadb(mt, len, 0, NULL);
	free(mt);
	const char *v = json_string_value(json_object_get(m, "datasetVersion"));
	if (!v || strlen(v) >= sizeof s->version) {
		json_decref(m);
		return fl_seterr(err, "%s: not a published data set (no manifest.json with a datasetVersion)",
				 s->data_dir);
	}
	char version[48];
	snprintf(version, sizeof version, "%s", v);
	json_decref(m);
	int lfd = lock_cache(s->cache, 0, NULL, err);
	if (lfd < 0)
		return -1;
	struct state st;
	int rc = 0;
	if (!read_state(s->cache, &st) || strcmp(st.version, version) != 0) {
		rc = install(s, s->data_dir, version, s->data_dir, false, err);
		if (rc == 0 && !read_state(s->cache, &st))
			rc = fl_seterr(err, "%s: the cache state vanished", s->cache);
	}
	if (rc == 0)
		use_state(s, &st);
	close(lfd);
	return rc;
}

/* ---- a data set URL ------------------------------------------------------ */

/*
 * A server is trusted to be neither small nor fast.  Sizes are refused from
 * what the manifest and the inventory declare, before anything is
 * downloaded; a transfer is cut as soon as it brings more than its file
 * declares, and is written to disk as it comes, hashed on the way; the whole
 * sync has a deadline (--sync-timeout) and runs on its own thread, so the
 * cached copy is served meanwhile.  The limits are in the README (faultline
 * mcp).
 */
#define SYNC_MAX_MANIFEST ((long long)PUB_MANIFEST_MAX) /* manifest.json */
#define SYNC_MAX_INVENTORY (64LL << 20)  /* inventory.json, parsed in memory:
					 * ~500k files, 355 MB of jansson */
#define SYNC_MAX_FILE ((long long)PUB_FILE_MAX)  /* one file, what import takes */
#define SYNC_MAX_TOTAL (8LL << 30)       /* all the files a data set declares */
#define SYNC_MANIFEST_SECONDS 30         /* the manifest alone */
#define SYNC_CONNECT_SECONDS 10
#define SYNC_LOW_SPEED 1024              /* bytes/s for SYNC_LOW_SPEED_SECONDS: */
#define SYNC_LOW_SPEED_SECONDS 20        /* too slow, given up */

/* One sync, run by sync_main() on its own thread with a private copy of the
 * source's url and cache; the result is taken by sync_end(). */
struct srv_sync {
	srv_source src;                  /* url and cache only */
	const fl_curl_api *cu;
	bool allow_rollback;
	bool keep_files;
	int timeout;                     /* seconds, the whole sync */
	double deadline;                 /* fl_now_mono() */
	struct timespec started;         /* CLOCK_MONOTONIC */
	int cancel;                      /* set (atomically): stop now */
	char curl_err[CURL_ERROR_SIZE];
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool done;                       /* under mu */
	int rc;
	fl_err err;
};

/* Where a transfer goes: a file (fd), or memory (b); at most max bytes. */
struct sink {
	int fd;
	fl_buf b;
	long long n, max;
	bool over;
	int werr;
	EVP_MD_CTX *md;                  /* SHA-256 of the bytes, or NULL */
};

static size_t sink_write(char *p, size_t sz, size_t n, void *ud)
{
	struct sink *k = ud;
	size_t len = sz * n;
	if ((unsigned long long)len > (unsigned long long)(k->max - k->n)) {
		k->over = true;
		return 0; /* short: libcurl ends the transfer */
	}
	if (k->fd >= 0) {
		for (size_t off = 0; off < len;) {
			ssize_t w = write(k->fd, p + off, len - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				k->werr = errno;
				return 0;
			}
			off += (size_t)w;
		}
	} else {
		fl_buf_put(&k->b, p, len);
	}
	if (k->md)
		fl_crypto()->EVP_DigestUpdate(k->md, p, len);
	k->n += (long long)len;
	return len;
}

static int sync_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	struct srv_sync *y = ud;
	return __atomic_load_n(&y->cancel, __ATOMIC_RELAXED) ? 1 : 0;
}

/* A file:// URL's local path (percent-decoded; caller frees), or NULL. */
static char *file_url_path(const char *url)
{
	if (!fl_str_starts(url, "file://"))
		return NULL;
	const char *p = url + 7;
	if (fl_str_starts(p, "localhost/"))
		p += 9;
	if (*p != '/')
		return NULL;
	char *out = fl_xmalloc(strlen(p) + 1), *o = out;
	for (; *p; p++) {
		int hi, lo;
		if (*p == '%' && (hi = fl_hexval((unsigned char)p[1])) >= 0 &&
		    (lo = fl_hexval((unsigned char)p[2])) >= 0) {
			*o++ = (char)(hi * 16 + lo);
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

/* GET url into k within what is left of the sync's time (and at most cap
 * seconds when cap > 0); limit says where k->max comes from ("manifest.json
 * (files.index) declares"). */
static int transfer(struct srv_sync *y, CURL *c, const char *url, struct sink *k,
		    int cap, const char *limit, fl_err *err)
{
	const fl_curl_api *cu = y->cu;
	double left = y->deadline - fl_now_mono();
	if (__atomic_load_n(&y->cancel, __ATOMIC_RELAXED))
		return fl_seterr(err, "%s: the sync was stopped", url);
	if (left <= 0.001)
		return fl_seterr(err, "%s: gave up after %d s (--sync-timeout): the sync took too long",
				 url, y->timeout);
	/* libcurl opens a file:// path with a blocking open(): a FIFO there
	 * would hang it past every timeout; and no symlink of a data set is
	 * followed */
	char *fp = file_url_path(url);
	struct stat sb;
	bool odd = fp && lstat(fp, &sb) == 0 && !S_ISREG(sb.st_mode);
	free(fp);
	if (odd)
		return fl_seterr(err, "%s: not a regular file (%s)", url,
				 S_ISLNK(sb.st_mode) ? "a symlink" : S_ISFIFO(sb.st_mode) ? "a FIFO" :
				 S_ISDIR(sb.st_mode) ? "a folder" : "a device or socket");
	long ms = (long)(left * 1000) + 1;
	if (cap > 0 && ms > cap * 1000L)
		ms = cap * 1000L;
	cu->easy_setopt(c, CURLOPT_URL, url);
	cu->easy_setopt(c, CURLOPT_WRITEFUNCTION, sink_write);
	cu->easy_setopt(c, CURLOPT_WRITEDATA, k);
	/* refused at once when the Content-Length is over (0 would mean no
	 * limit: the write function refuses the first byte then) */
	cu->easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)k->max);
	cu->easy_setopt(c, CURLOPT_TIMEOUT_MS, ms);
	cu->easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
			ms < SYNC_CONNECT_SECONDS * 1000L ? ms : SYNC_CONNECT_SECONDS * 1000L);
	y->curl_err[0] = '\0';
	CURLcode cr = cu->easy_perform(c);
	if (cr == CURLE_OK)
		return 0;
	const char *why = y->curl_err[0] ? y->curl_err : cu->easy_strerror(cr);
	if (k->over)
		return fl_seterr(err, "%s: the server sent more than the %lld bytes %s", url, k->max, limit);
	if (cr == CURLE_FILESIZE_EXCEEDED) {
		curl_off_t cl = -1;
		cu->easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl);
		if (cl < 0)
			return fl_seterr(err, "%s: the server announces a Content-Length over the %lld bytes %s",
					 url, k->max, limit);
		return fl_seterr(err, "%s: the server announces %lld bytes (Content-Length), more than the %lld bytes %s",
				 url, (long long)cl, k->max, limit);
	}
	if (k->werr)
		return fl_seterr(err, "%s: cannot write it into the cache: %s", url, strerror(k->werr));
	if (__atomic_load_n(&y->cancel, __ATOMIC_RELAXED))
		return fl_seterr(err, "%s: the sync was stopped", url);
	if (cr == CURLE_OPERATION_TIMEDOUT && fl_now_mono() >= y->deadline - 0.05)
		return fl_seterr(err, "%s: gave up after %d s (--sync-timeout): %s", url, y->timeout, why);
	if (cr == CURLE_OPERATION_TIMEDOUT)
		return fl_seterr(err, "%s: too slow: %s", url, why);
	if (cr == CURLE_HTTP_RETURNED_ERROR) {
		long code = 0;
		cu->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
		return fl_seterr(err, "%s: HTTP status %ld", url, code);
	}
	return fl_seterr(err, "%s: %s", url, why);
}

static bool safe_rel(const char *rel)
{
	if (!*rel || strchr(rel, '\\') || strlen(rel) > 1024)
		return false;
	for (const char *s = rel; *s;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 0 || s[0] == '.')
			return false;
		for (size_t i = 0; i < n; i++) {
			char c = s[i];
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			      (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_'))
				return false;
		}
		s += n;
		if (*s == '/')
			s++;
	}
	return true;
}

static const char *rel_of(const char *path)
{
	if (fl_str_starts(path, "/data/"))
		return path + 6;
	return path[0] == '/' ? path + 1 : path;
}

/* Download rel (a file of `bytes` bytes and sha256 sha, as listing says)
 * into dir/rel, written as it comes and cut when more comes. */
static int fetch_checked(struct srv_sync *y, CURL *c, const char *rel, long long bytes,
			 const char *sha, const char *listing, const char *dir, fl_err *err)
{
	char *url = fl_xasprintf("%s/%s", y->src.url, rel);
	char *fp = fl_xasprintf("%s/%s", dir, rel);
	char *slash = strrchr(fp, '/');
	*slash = '\0';
	int rc = pub_mkdirs(fp, err);
	*slash = '/';
	struct sink k = {.fd = -1, .max = bytes};
	if (rc == 0) {
		k.fd = open(fp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (k.fd < 0 && errno == EEXIST)
			rc = fl_seterr(err, "%s: %s lists it twice", url, listing);
		else if (k.fd < 0)
			rc = fl_seterr(err, "%s: %s", fp, strerror(errno));
	}
	if (rc == 0 && (!(k.md = fl_crypto()->EVP_MD_CTX_new()) || !fl_crypto()->EVP_DigestInit_ex(k.md, fl_crypto()->EVP_sha256(), NULL)))
		rc = fl_seterr(err, "%s: cannot start a SHA-256 digest", url);
	char *limit = fl_xasprintf("%s declares", listing);
	if (rc == 0)
		rc = transfer(y, c, url, &k, 0, limit, err);
	free(limit);
	if (rc == 0) {
		unsigned char md[32];
		unsigned int mdlen = 0;
		char hex[65];
		fl_crypto()->EVP_DigestFinal_ex(k.md, md, &mdlen);
		for (int i = 0; i < 32; i++)
			snprintf(hex + 2 * i, 3, "%02x", md[i]);
		if (k.n != bytes || strcmp(hex, sha) != 0)
			rc = fl_seterr(err, "%s: rejected: %lld bytes with sha256 %s, %s says %lld bytes with sha256 %s",
				       url, k.n, hex, listing, bytes, sha);
	}
	if (k.fd >= 0 && close(k.fd) < 0 && rc == 0)
		rc = fl_seterr(err, "%s: %s", fp, strerror(errno));
	fl_crypto()->EVP_MD_CTX_free(k.md);
	free(fp);
	free(url);
	return rc;
}

/* One {"path","bytes","sha256"} of a listing: the relative path, or NULL
 * with err set. */
static const char *listed_file(const char *base, json_t *v, const char *what,
			       long long *bytes, const char **sha, fl_err *err)
{
	const char *path = json_string_value(json_object_get(v, "path"));
	json_t *bj = json_object_get(v, "bytes");
	*sha = json_string_value(json_object_get(v, "sha256"));
	if (!path || !json_is_integer(bj) || json_integer_value(bj) < 0 || !*sha) {
		fl_seterr(err, "%s/%s: must be {\"path\",\"bytes\",\"sha256\"}", base, what);
		return NULL;
	}
	const char *rel = rel_of(path);
	if (!safe_rel(rel) || strcmp(rel, "manifest.json") == 0) {
		fl_seterr(err, "%s/%s.path: '%s' is not a path inside the data set", base, what, path);
		return NULL;
	}
	*bytes = (long long)json_integer_value(bj);
	return rel;
}

/* Add the size a listing declares for one file (what: "inventory.json:
 * files[3]") to *total; -1 with err when the file is over SYNC_MAX_FILE or
 * the data set over SYNC_MAX_TOTAL. */
static int declare(const char *base, const char *what, long long bytes, long long *total,
		   fl_err *err)
{
	if (bytes > SYNC_MAX_FILE)
		return fl_seterr(err, "%s/%s: declares %lld bytes, more than the %lld (%lld GiB) a data set file may be; refused before downloading it",
				 base, what, bytes, SYNC_MAX_FILE, SYNC_MAX_FILE >> 30);
	if (bytes > SYNC_MAX_TOTAL - *total)
		return fl_seterr(err, "%s/%.*s: the data set declares at least %lld bytes, more than the %lld (%lld GiB) a synced data set may be; refused before downloading it",
				 base, (int)strcspn(what, ":"), what, *total + bytes,
				 SYNC_MAX_TOTAL, SYNC_MAX_TOTAL >> 30);
	*total += bytes;
	return 0;
}

/* Download the data set of manifest m (already fetched) into dir, every
 * file checked: index.json, repos.json and inventory.json against the
 * manifest, every other file against the inventory.  The declared sizes
 * are checked against the limits before each stage downloads anything. */
static int download_all(struct srv_sync *y, CURL *c, json_t *m, const char *mtext,
			size_t mlen, const char *dir, fl_err *err)
{
	const char *base = y->src.url;
	json_t *files = json_object_get(m, "files");
	if (!json_is_object(files))
		return fl_seterr(err, "%s/manifest.json: files: missing or not an object", base);
	static const char *const keys[] = {"index", "repos", "inventory"};
	const char *rels[3], *shas[3];
	long long sizes[3], total = 0;
	for (int i = 0; i < 3; i++) {
		char what[64];
		snprintf(what, sizeof what, "manifest.json: files.%s", keys[i]);
		json_t *v = json_object_get(files, keys[i]);
		if (!v)
			return fl_seterr(err, "%s/manifest.json: files.%s: missing", base, keys[i]);
		if (!(rels[i] = listed_file(base, v, what, &sizes[i], &shas[i], err)))
			return -1;
	}
	if (sizes[2] > SYNC_MAX_INVENTORY)
		return fl_seterr(err, "%s/manifest.json: files.inventory declares %lld bytes, more than the %lld (%lld MiB) an inventory may be; refused before downloading it",
				 base, sizes[2], SYNC_MAX_INVENTORY, SYNC_MAX_INVENTORY >> 20);
	for (int i = 0; i < 3; i++) {
		char what[64];
		snprintf(what, sizeof what, "manifest.json: files.%s", keys[i]);
		if (declare(base, what, sizes[i], &total, err) < 0)
			return -1;
	}
	for (int i = 0; i < 3; i++) {
		char listing[64];
		snprintf(listing, sizeof listing, "manifest.json (files.%s)", keys[i]);
		if (fetch_checked(y, c, rels[i], sizes[i], shas[i], listing, dir, err) < 0)
			return -1;
	}
	char *ip = fl_xasprintf("%s/%s", dir, rels[2]);
	json_error_t je;
	json_t *io = json_load_file(ip, 0, &je);
	free(ip);
	json_t *list = json_object_get(io, "files");
	if (!json_is_array(list)) {
		json_decref(io);
		return fl_seterr(err, "%s/inventory.json: not an inventory (no files list)", base);
	}
	size_t i;
	json_t *v;
	/* every size first: nothing more is downloaded when the sum is over */
	for (int pass = 0; pass < 2; pass++) {
		json_array_foreach(list, i, v) {
			char what[64];
			snprintf(what, sizeof what, "inventory.json: files[%zu]", i);
			long long bytes;
			const char *sha, *rel = listed_file(base, v, what, &bytes, &sha, err);
			if (!rel) {
				json_decref(io);
				return -1;
			}
			if (strcmp(rel, rels[0]) == 0 || strcmp(rel, rels[1]) == 0 ||
			    strcmp(rel, rels[2]) == 0)
				continue; /* fetched and checked against the manifest */
			int rc = pass == 0 ? declare(base, what, bytes, &total, err)
					   : fetch_checked(y, c, rel, bytes, sha, "inventory.json", dir, err);
			if (rc < 0) {
				json_decref(io);
				return -1;
			}
		}
		struct statvfs fs;
		if (pass == 0 && statvfs(dir, &fs) == 0 &&
		    (unsigned long long)fs.f_bavail * fs.f_frsize < (unsigned long long)total) {
			json_decref(io);
			return fl_seterr(err, "%s/inventory.json: the data set declares %lld bytes, and %s has only %llu bytes free; refused before downloading it",
					 base, total, y->src.cache,
					 (unsigned long long)fs.f_bavail * fs.f_frsize);
		}
	}
	json_decref(io);
	char *mp = fl_xasprintf("%s/manifest.json", dir);
	int rc = pub_write_file(mp, mtext, mlen, err);
	free(mp);
	return rc;
}

/* Poll the manifest and, when its datasetVersion is new, download, check
 * and install the data set; runs on the sync's thread. */
static int sync_url(struct srv_sync *y, fl_err *err)
{
	srv_source *s = &y->src;
	if (!(y->cu = fl_curl(err)))
		return -1;
	const fl_curl_api *cu = y->cu;
	CURL *c = cu->easy_init();
	if (!c)
		return fl_seterr(err, "cannot start the HTTP client");
	cu->easy_setopt(c, CURLOPT_FAILONERROR, 1L);
	cu->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	cu->easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	cu->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https,file");
	cu->easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	cu->easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, (long)SYNC_LOW_SPEED);
	cu->easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)SYNC_LOW_SPEED_SECONDS);
	cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	cu->easy_setopt(c, CURLOPT_ERRORBUFFER, y->curl_err);
	cu->easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	cu->easy_setopt(c, CURLOPT_XFERINFOFUNCTION, sync_progress);
	cu->easy_setopt(c, CURLOPT_XFERINFODATA, y);
	cu->easy_setopt(c, CURLOPT_USERAGENT, "faultline/" FL_VERSION);
	char *murl = fl_xasprintf("%s/manifest.json", s->url);
	struct sink mk = {.fd = -1, .max = SYNC_MAX_MANIFEST};
	int rc = transfer(y, c, murl, &mk, SYNC_MANIFEST_SECONDS, "a manifest.json may be", err);
	free(murl);
	if (rc < 0) {
		fl_buf_free(&mk.b);
		cu->easy_cleanup(c);
		return -1;
	}
	fl_buf mb = mk.b;
	json_error_t je;
	json_t *m = json_loadb(mb.s ? mb.s : "", mb.n, 0, &je);
	const char *v = json_string_value(json_object_get(m, "datasetVersion"));
	if (!m || !v || strlen(v) >= sizeof s->version)
		rc = fl_seterr(err, "%s/manifest.json: not a data set manifest (no datasetVersion)", s->url);
	else if (pub_iso_ms(v) < 0)
		rc = fl_seterr(err, "%s/manifest.json: datasetVersion '%s' is not an ISO 8601 UTC time", s->url, v);
	int lfd = rc < 0 ? -1 : lock_cache(s->cache, y->deadline, &y->cancel, err);
	if (lfd < 0) {
		json_decref(m);
		fl_buf_free(&mb);
		cu->easy_cleanup(c);
		return -1;
	}
	struct state st;
	bool had = read_state(s->cache, &st);
	time_t now = time(NULL);
	long long have_ms = had ? pub_iso_ms(st.version) : -1;
	if (had && strcmp(st.version, v) == 0) {
		st.checked_at = st.synced_at = (long long)now;
		rc = write_state(s->cache, s->url, &st, err);
	} else if (have_ms >= 0 && pub_iso_ms(v) < have_ms && !y->allow_rollback) {
		rc = fl_seterr(err, "%s/manifest.json: datasetVersion %s is older than the cached %s: refusing to roll back (--allow-rollback accepts it)",
			       s->url, v, st.version);
	} else {
		char *dir = fl_xasprintf("%s/tmp-%ld-dl", s->cache, (long)getpid());
		pub_rmtree(dir);
		rc = pub_mkdirs(dir, err);
		if (rc == 0)
			rc = download_all(y, c, m, mb.s, mb.n, dir, err);
		if (rc == 0)
			rc = install(s, dir, v, s->url, y->keep_files, err);
		pub_rmtree(dir);
		free(dir);
	}
	close(lfd);
	json_decref(m);
	fl_buf_free(&mb);
	cu->easy_cleanup(c);
	return rc;
}

static void *sync_main(void *arg)
{
	struct srv_sync *y = arg;
	fl_err e;
	e.msg[0] = '\0';
	int rc = sync_url(y, &e);
	fl_lookup_thread_done();
	pthread_mutex_lock(&y->mu);
	y->rc = rc;
	y->err = e;
	y->done = true;
	pthread_cond_broadcast(&y->cv);
	pthread_mutex_unlock(&y->mu);
	return NULL;
}

static int sync_start(srv_source *s, fl_err *err)
{
	struct srv_sync *y = fl_xcalloc(1, sizeof *y);
	y->src.url = fl_xstrdup(s->url);
	y->src.cache = fl_xstrdup(s->cache);
	y->allow_rollback = s->allow_rollback;
	y->keep_files = s->keep_files;
	y->timeout = s->sync_timeout > 0 ? s->sync_timeout : SRV_SYNC_TIMEOUT;
	y->deadline = fl_now_mono() + y->timeout;
	clock_gettime(CLOCK_MONOTONIC, &y->started);
	pthread_mutex_init(&y->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&y->cv, &ca);
	pthread_condattr_destroy(&ca);
	int e = pthread_create(&y->th, NULL, sync_main, y);
	if (e != 0) {
		pthread_cond_destroy(&y->cv);
		pthread_mutex_destroy(&y->mu);
		free(y->src.url);
		free(y->src.cache);
		free(y);
		return fl_seterr(err, "cannot start the sync: %s", strerror(e));
	}
	s->sync = y;
	s->sync_started = time(NULL);
	return 0;
}

/* Wait for s's sync until wait_ms after now, or after its start when
 * from_start (< 0: for ever); true when it ended. */
static bool sync_wait(srv_source *s, int wait_ms, bool from_start)
{
	struct srv_sync *y = s->sync;
	struct timespec ts = y->started;
	if (!from_start)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	long long ns = (long long)ts.tv_nsec + (wait_ms > 0 ? (long long)wait_ms * 1000000LL : 0);
	ts.tv_sec += (time_t)(ns / 1000000000LL);
	ts.tv_nsec = (long)(ns % 1000000000LL);
	pthread_mutex_lock(&y->mu);
	while (!y->done) {
		if (wait_ms < 0)
			pthread_cond_wait(&y->cv, &y->mu);
		else if (pthread_cond_timedwait(&y->cv, &y->mu, &ts) == ETIMEDOUT)
			break;
	}
	bool done = y->done;
	pthread_mutex_unlock(&y->mu);
	return done;
}

/* Join s's sync (stopping it first when stop) and free it; its result. */
static int sync_join(srv_source *s, bool stop, fl_err *err)
{
	struct srv_sync *y = s->sync;
	if (stop)
		__atomic_store_n(&y->cancel, 1, __ATOMIC_RELAXED);
	pthread_join(y->th, NULL);
	int rc = y->rc;
	if (rc < 0)
		*err = y->err;
	pthread_cond_destroy(&y->cv);
	pthread_mutex_destroy(&y->mu);
	free(y->src.url);
	free(y->src.cache);
	free(y);
	s->sync = NULL;
	return rc;
}

/* Take the result of s's sync, which has ended: serve the new copy, or
 * keep serving the cached one as stale; -1 when there is none. */
static int sync_end(srv_source *s, fl_err *err)
{
	fl_err e;
	int rc = sync_join(s, false, &e);
	struct state st;
	bool had = read_state(s->cache, &st);
	if (rc == 0 && had) {
		use_state(s, &st);
		s->stale = false;
		s->last_error[0] = '\0';
		return 0;
	}
	if (rc == 0)
		snprintf(e.msg, sizeof e.msg, "%s: the cache state vanished", s->cache);
	if (had || s->store_path) {
		if (had && !s->store_path)
			use_state(s, &st);
		s->stale = true;
		snprintf(s->last_error, sizeof s->last_error, "%s", e.msg);
		s->checked_at = time(NULL); /* retry after the TTL, not on every call */
		return 0;
	}
	return fl_seterr(err, "cannot fetch the data set and there is no cached copy: %s", e.msg);
}

static int refresh_url(srv_source *s, bool force, int wait_ms, fl_err *err)
{
	if (s->sync && sync_wait(s, 0, false) && sync_end(s, err) < 0)
		return -1; /* a sync that ended since the last call */
	struct state st;
	bool had = read_state(s->cache, &st);
	time_t now = time(NULL);
	if (had && (!s->store_path || strcmp(st.version, s->version) != 0 ||
		    st.checked_at > (long long)s->checked_at))
		use_state(s, &st); /* another instance synced meanwhile */
	if (s->offline) {
		if (!had)
			return fl_seterr(err, "no cached copy of %s in %s and --offline forbids fetching it",
					 s->url, s->cache);
		return 0;
	}
	long long last = st.checked_at > (long long)s->checked_at ? st.checked_at : (long long)s->checked_at;
	if (!s->sync && (force || !had || now - (time_t)last >= s->ttl) && sync_start(s, err) < 0)
		return -1;
	if (!s->sync)
		return 0;
	if (!s->store_path)
		wait_ms = -1; /* nothing to serve meanwhile (the sync has a deadline) */
	/* counted from the sync's start: the call that started it waits up to
	 * wait_ms, the calls after it no longer than what is left of that */
	if (!sync_wait(s, wait_ms, true))
		return 0; /* still running: the cached copy is served */
	return sync_end(s, err);
}

/* ---- the source ------------------------------------------------------------ */

static void hash16(const char *s, char out[17])
{
	char hex[65];
	pub_sha256_hex(s, strlen(s), hex);
	memcpy(out, hex, 16);
	out[16] = '\0';
}

int srv_source_init(srv_source *s, const char *db, const char *data_dir,
		    const char *url, const char *cache_dir, int ttl,
		    bool offline, fl_err *err)
{
	memset(s, 0, sizeof *s);
	s->ttl = ttl > 0 ? ttl : 300;
	s->offline = offline;
	if ((db != NULL) + (data_dir != NULL) + (url != NULL) != 1)
		return fl_seterr(err, "give exactly one data source");
	if (db) {
		s->db = fl_xstrdup(db);
		s->store_path = fl_xstrdup(db);
		/* readers open the store read-only, which does not migrate an
		 * older schema: migrate it once here, as any writer would */
		fl_store *st;
		if (fl_store_open(db, true, &st, err) == 0) {
			fl_store_close(st);
			return 0;
		}
		if (!strstr(err->msg, "migrat") || fl_store_open(db, false, &st, err) < 0)
			return -1;
		fl_store_close(st);
		return 0;
	}
	char *root = fl_cache_dir(cache_dir);
	char h[17];
	if (data_dir) {
		char real[PATH_MAX];
		if (!realpath(data_dir, real)) {
			fl_seterr(err, "%s: %s", data_dir, strerror(errno));
			free(root);
			return -1;
		}
		s->data_dir = fl_xstrdup(real);
		hash16(real, h);
		s->cache = fl_xasprintf("%s/data-%s", root, h);
	} else {
		if (!fl_str_starts(url, "http://") && !fl_str_starts(url, "https://") &&
		    !fl_str_starts(url, "file://")) {
			free(root);
			return fl_seterr(err, "--data-url: '%s' is not an http://, https:// or file:// URL", url);
		}
		s->url = fl_xstrdup(url);
		size_t n = strlen(s->url);
		if (n > 14 && strcmp(s->url + n - 14, "/manifest.json") == 0)
			s->url[n -= 14] = '\0';
		while (n > 8 && s->url[n - 1] == '/')
			s->url[--n] = '\0';
		hash16(s->url, h);
		s->cache = fl_xasprintf("%s/url-%s", root, h);
	}
	free(root);
	return pub_mkdirs(s->cache, err);
}

int srv_source_refresh(srv_source *s, bool force, bool *changed, fl_err *err)
{
	return srv_source_refresh_wait(s, force, -1, changed, err);
}

int srv_source_refresh_wait(srv_source *s, bool force, int wait_ms, bool *changed, fl_err *err)
{
	char *before = s->store_path ? fl_xstrdup(s->store_path) : NULL;
	int rc = 0;
	if (s->data_dir)
		rc = refresh_dir(s, err);
	else if (s->url)
		rc = refresh_url(s, force, wait_ms, err);
	if (changed)
		*changed = rc == 0 && (!before || !s->store_path || strcmp(before, s->store_path) != 0);
	free(before);
	return rc;
}

long long srv_source_age(const srv_source *s)
{
	if (s->db || !s->synced_at)
		return 0;
	long long a = (long long)(time(NULL) - s->synced_at);
	return a < 0 ? 0 : a;
}

void srv_source_free(srv_source *s)
{
	fl_err e;
	if (s->sync) {
		/* a transfer stops at once; an import under way is waited for a
		 * while, then left to the end of the process (the cache is only
		 * switched once a store is complete) */
		__atomic_store_n(&s->sync->cancel, 1, __ATOMIC_RELAXED);
		if (sync_wait(s, 10000, false))
			sync_join(s, true, &e);
		else
			pthread_detach(s->sync->th);
	}
	free(s->db);
	free(s->data_dir);
	free(s->url);
	free(s->cache);
	free(s->store_path);
	free(s->files);
	memset(s, 0, sizeof *s);
}
