/*
 * source.c — where the served data comes from and how the cache is kept.
 *
 * A local store is used as it is.  A data set (a folder, or a URL: http://,
 * https:// or file://) is imported into a store in the cache folder
 * ($XDG_CACHE_HOME/faultline/<kind>-<hash of the source>/), re-imported only
 * when its datasetVersion changes.  A URL's small manifest.json is polled at
 * most once per TTL; only when its datasetVersion changed are the files
 * downloaded into a temporary folder: index.json, repos.json and
 * inventory.json checked against the manifest's sizes and sha256, every
 * other file against the inventory's, before anything is imported.  The cache is switched atomically: the new store is complete
 * under its own name before state.json (written to a temporary file, then
 * renamed) points to it, so a second instance never reads a half file.  A
 * failed refresh keeps the old cache (stale); syncs are serialised by a lock
 * file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "publish/publish.h"
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

/* Remove stores other than keep1/keep2 and leftovers of killed syncs. */
static void prune(const char *cache, const char *keep1, const char *keep2)
{
	DIR *d = opendir(cache);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		bool store = fl_str_starts(n, "store-");
		bool tmp = fl_str_starts(n, "tmp-");
		if (!store && !tmp)
			continue;
		if (store && ((keep1 && fl_str_starts(n, keep1)) || (keep2 && *keep2 && fl_str_starts(n, keep2))))
			continue;
		char *p = fl_xasprintf("%s/%s", cache, n);
		pub_rmtree(p);
		free(p);
	}
	closedir(d);
}

/* Import the verified data set folder dir into a new store of the cache and
 * point state.json at it. */
static int install(srv_source *s, const char *dir, const char *version,
		   const char *source, fl_err *err)
{
	char safe[48];
	size_t k = 0;
	for (const char *p = version; *p && k + 1 < sizeof safe; p++)
		safe[k++] = (char)((*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'Z') ||
				   (*p >= 'a' && *p <= 'z') || *p == '.' || *p == '-' ? *p : '_');
	safe[k] = '\0';
	char *name = fl_xasprintf("store-%s-%ld.db", safe, (long)getpid());
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
		rc = write_state(s->cache, source, &nw, err);
		if (rc == 0)
			prune(s->cache, name, had ? old.store : NULL);
	}
	if (rc < 0)
		unlink(final);
	free(name);
	free(tmp);
	free(final);
	return rc;
}

static void use_state(srv_source *s, const struct state *st)
{
	free(s->store_path);
	s->store_path = fl_xasprintf("%s/%s", s->cache, st->store);
	snprintf(s->version, sizeof s->version, "%s", st->version);
	s->synced_at = (time_t)st->synced_at;
	s->checked_at = (time_t)st->checked_at;
}

static int lock_cache(const char *cache, fl_err *err)
{
	char *p = fl_xasprintf("%s/lock", cache);
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		fl_seterr(err, "%s: %s", p, strerror(errno));
	free(p);
	if (fd >= 0 && flock(fd, LOCK_EX) < 0) {
		close(fd);
		return fl_seterr(err, "%s: cannot lock the cache", cache);
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
	int lfd = lock_cache(s->cache, err);
	if (lfd < 0)
		return -1;
	struct state st;
	int rc = 0;
	if (!read_state(s->cache, &st) || strcmp(st.version, version) != 0) {
		rc = install(s, s->data_dir, version, s->data_dir, err);
		if (rc == 0 && !read_state(s->cache, &st))
			rc = fl_seterr(err, "%s: the cache state vanished", s->cache);
	}
	if (rc == 0)
		use_state(s, &st);
	close(lfd);
	return rc;
}

/* ---- a data set URL ------------------------------------------------------ */

struct dl {
	fl_buf b;
	size_t max;
	bool over;
};

/* libcurl, loaded by the first sync_url() (dynlib.h) */
static const fl_curl_api *CU;

static size_t dl_write(char *p, size_t sz, size_t n, void *ud)
{
	struct dl *d = ud;
	size_t len = sz * n;
	if (d->b.n + len > d->max) {
		d->over = true;
		return 0;
	}
	fl_buf_put(&d->b, p, len);
	return len;
}

static int fetch(CURL *c, const char *url, size_t max, fl_buf *out, fl_err *err)
{
	struct dl d = {{0}, max, false};
	CU->easy_setopt(c, CURLOPT_URL, url);
	CU->easy_setopt(c, CURLOPT_WRITEFUNCTION, dl_write);
	CU->easy_setopt(c, CURLOPT_WRITEDATA, &d);
	CURLcode cr = CU->easy_perform(c);
	if (cr != CURLE_OK) {
		fl_buf_free(&d.b);
		if (d.over)
			return fl_seterr(err, "%s: larger than %zu bytes", url, max);
		long code = 0;
		CU->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
		if (cr == CURLE_HTTP_RETURNED_ERROR)
			return fl_seterr(err, "%s: HTTP status %ld", url, code);
		return fl_seterr(err, "%s: %s", url, CU->easy_strerror(cr));
	}
	fl_buf_cstr(&d.b);
	*out = d.b;
	return 0;
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

/* Download rel (a file of size bytes and sha256 sha, as listing says) into
 * dir/rel; the body is kept in *keep when keep is not NULL. */
static int fetch_checked(CURL *c, srv_source *s, const char *rel, long long bytes,
			 const char *sha, const char *listing, const char *dir,
			 fl_buf *keep, fl_err *err)
{
	char *url = fl_xasprintf("%s/%s", s->url, rel);
	fl_buf b;
	if (fetch(c, url, (size_t)bytes, &b, err) < 0) {
		free(url);
		return -1;
	}
	char hex[65];
	pub_sha256_hex(b.s, b.n, hex);
	if ((long long)b.n != bytes || strcmp(hex, sha) != 0) {
		fl_seterr(err, "%s: rejected: %zu bytes with sha256 %s, %s says %lld bytes with sha256 %s",
			  url, b.n, hex, listing, bytes, sha);
		fl_buf_free(&b);
		free(url);
		return -1;
	}
	free(url);
	char *fp = fl_xasprintf("%s/%s", dir, rel);
	char *slash = strrchr(fp, '/');
	*slash = '\0';
	int rc = pub_mkdirs(fp, err);
	*slash = '/';
	if (rc == 0)
		rc = pub_write_file(fp, b.s, b.n, err);
	free(fp);
	if (rc == 0 && keep)
		*keep = b;
	else
		fl_buf_free(&b);
	return rc;
}

/* One {"path","bytes","sha256"} of a listing: the relative path, or NULL
 * with err set. */
static const char *listed_file(srv_source *s, json_t *v, const char *what,
			       long long *bytes, const char **sha, fl_err *err)
{
	const char *path = json_string_value(json_object_get(v, "path"));
	json_t *bj = json_object_get(v, "bytes");
	*sha = json_string_value(json_object_get(v, "sha256"));
	if (!path || !json_is_integer(bj) || json_integer_value(bj) < 0 || !*sha) {
		fl_seterr(err, "%s/%s: must be {\"path\",\"bytes\",\"sha256\"}", s->url, what);
		return NULL;
	}
	const char *rel = rel_of(path);
	if (!safe_rel(rel) || strcmp(rel, "manifest.json") == 0) {
		fl_seterr(err, "%s/%s.path: '%s' is not a path inside the data set", s->url, what, path);
		return NULL;
	}
	*bytes = (long long)json_integer_value(bj);
	return rel;
}

/* Download the data set of manifest m (already fetched) into dir, every
 * file checked: index.json, repos.json and inventory.json against the
 * manifest, every other file against the inventory. */
static int download_all(CURL *c, srv_source *s, json_t *m, const char *mtext,
			size_t mlen, const char *dir, fl_err *err)
{
	json_t *files = json_object_get(m, "files");
	if (!json_is_object(files))
		return fl_seterr(err, "%s/manifest.json: files: missing or not an object", s->url);
	static const char *const keys[] = {"index", "repos", "inventory"};
	fl_buf inv = {0};
	for (int i = 0; i < 3; i++) {
		char what[64], listing[64];
		snprintf(what, sizeof what, "manifest.json: files.%s", keys[i]);
		snprintf(listing, sizeof listing, "manifest.json (files.%s)", keys[i]);
		json_t *v = json_object_get(files, keys[i]);
		if (!v) {
			fl_buf_free(&inv);
			return fl_seterr(err, "%s/manifest.json: files.%s: missing", s->url, keys[i]);
		}
		long long bytes;
		const char *sha, *rel = listed_file(s, v, what, &bytes, &sha, err);
		if (!rel || fetch_checked(c, s, rel, bytes, sha, listing, dir, i == 2 ? &inv : NULL, err) < 0) {
			fl_buf_free(&inv);
			return -1;
		}
	}
	json_error_t je;
	json_t *io = json_loadb(inv.s ? inv.s : "", inv.n, 0, &je);
	fl_buf_free(&inv);
	json_t *list = json_object_get(io, "files");
	if (!json_is_array(list)) {
		json_decref(io);
		return fl_seterr(err, "%s/inventory.json: not an inventory (no files list)", s->url);
	}
	size_t i;
	json_t *v;
	json_array_foreach(list, i, v) {
		char what[64];
		snprintf(what, sizeof what, "inventory.json: files[%zu]", i);
		long long bytes;
		const char *sha, *rel = listed_file(s, v, what, &bytes, &sha, err);
		if (!rel) {
			json_decref(io);
			return -1;
		}
		if (strcmp(rel, "index.json") == 0 || strcmp(rel, "repos.json") == 0 ||
		    strcmp(rel, "inventory.json") == 0)
			continue; /* fetched and checked against the manifest */
		if (fetch_checked(c, s, rel, bytes, sha, "inventory.json", dir, NULL, err) < 0) {
			json_decref(io);
			return -1;
		}
	}
	json_decref(io);
	char *mp = fl_xasprintf("%s/manifest.json", dir);
	int rc = pub_write_file(mp, mtext, mlen, err);
	free(mp);
	return rc;
}

static int sync_url(srv_source *s, fl_err *err)
{
	if (!(CU = fl_curl(err)))
		return -1;
	CURL *c = CU->easy_init();
	if (!c)
		return fl_seterr(err, "cannot start the HTTP client");
	CU->easy_setopt(c, CURLOPT_FAILONERROR, 1L);
	CU->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	CU->easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	CU->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https,file");
	CU->easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	CU->easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	CU->easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	CU->easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 30L);
	CU->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	CU->easy_setopt(c, CURLOPT_USERAGENT, "faultline/" FL_VERSION);
	char *murl = fl_xasprintf("%s/manifest.json", s->url);
	fl_buf mb;
	int rc = fetch(c, murl, 1u << 20, &mb, err);
	free(murl);
	if (rc < 0) {
		CU->easy_cleanup(c);
		return -1;
	}
	json_error_t je;
	json_t *m = json_loadb(mb.s, mb.n, 0, &je);
	const char *v = json_string_value(json_object_get(m, "datasetVersion"));
	if (!m || !v || strlen(v) >= sizeof s->version) {
		json_decref(m);
		fl_buf_free(&mb);
		CU->easy_cleanup(c);
		return fl_seterr(err, "%s/manifest.json: not a data set manifest (no datasetVersion)", s->url);
	}
	int lfd = lock_cache(s->cache, err);
	if (lfd < 0) {
		json_decref(m);
		fl_buf_free(&mb);
		CU->easy_cleanup(c);
		return -1;
	}
	struct state st;
	bool had = read_state(s->cache, &st);
	time_t now = time(NULL);
	if (had && strcmp(st.version, v) == 0) {
		st.checked_at = st.synced_at = (long long)now;
		rc = write_state(s->cache, s->url, &st, err);
	} else {
		char *dir = fl_xasprintf("%s/tmp-%ld-dl", s->cache, (long)getpid());
		pub_rmtree(dir);
		rc = pub_mkdirs(dir, err);
		if (rc == 0)
			rc = download_all(c, s, m, mb.s, mb.n, dir, err);
		if (rc == 0)
			rc = install(s, dir, v, s->url, err);
		pub_rmtree(dir);
		free(dir);
	}
	if (rc == 0 && !read_state(s->cache, &st))
		rc = fl_seterr(err, "%s: the cache state vanished", s->cache);
	if (rc == 0)
		use_state(s, &st);
	close(lfd);
	json_decref(m);
	fl_buf_free(&mb);
	CU->easy_cleanup(c);
	return rc;
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
	char *before = s->store_path ? fl_xstrdup(s->store_path) : NULL;
	int rc = 0;
	if (s->data_dir) {
		rc = refresh_dir(s, err);
	} else if (s->url) {
		struct state st;
		bool had = read_state(s->cache, &st);
		time_t now = time(NULL);
		if (had && (!s->store_path || strcmp(st.version, s->version) != 0 ||
			    st.checked_at > (long long)s->checked_at))
			use_state(s, &st); /* another instance synced meanwhile */
		if (s->offline) {
			if (!had) {
				rc = fl_seterr(err, "no cached copy of %s in %s and --offline forbids fetching it",
					       s->url, s->cache);
			}
		} else if (force || !had ||
			   now - (time_t)(st.checked_at > (long long)s->checked_at ?
					  st.checked_at : (long long)s->checked_at) >= s->ttl) {
			fl_err e2;
			if (sync_url(s, &e2) == 0) {
				s->stale = false;
				s->last_error[0] = '\0';
			} else if (had) {
				s->stale = true;
				snprintf(s->last_error, sizeof s->last_error, "%s", e2.msg);
				s->checked_at = now; /* retry after the TTL, not on every call */
			} else {
				rc = fl_seterr(err, "cannot fetch the data set and there is no cached copy: %s", e2.msg);
			}
		}
	}
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
	free(s->db);
	free(s->data_dir);
	free(s->url);
	free(s->cache);
	free(s->store_path);
	memset(s, 0, sizeof *s);
}
