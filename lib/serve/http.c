/*
 * http.c — `faultline serve`: the HTTP server (libmicrohttpd, internal
 * poll thread pool; who gets a connection slot is conns.c's).  It owns the routing, the static site and data set
 * files (content types, ETag, Cache-Control, only regular files under the
 * site, no symlink followed), the refusal of ambiguous request framing,
 * the JSON API (/api/search, /api/explain, /api/errors/{id}, /api/repos,
 * /api/repos/{owner}/{name}, /healthz), the limits (query length, body size,
 * idle time, connections, concurrent log explanations), JSON error bodies,
 * one access-log line per request, and the drain on SIGTERM.  What it
 * serves is a snapshot (snap.c) of a store, a data set folder or a data set
 * URL it follows (source.c: the sync on its own thread, the new version
 * swapped in once verified, the stale flag in /healthz and
 * X-Faultline-Stale).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "publish/publish.h"
#include "conns.h"
#include "dynlib.h"
#include "serve.h"
#include "util.h"

/* libmicrohttpd, loaded by fl_serve_run() (dynlib.h) */
static const fl_mhd_api *M;

#define MAX_QUERY 4096            /* bytes of q */
#define MAX_BODY (1u << 20)       /* POST /api/explain */
#define MAX_LIMIT 100
#define HEAVY_BODY (64u * 1024)

/* Answers of /api/search by (q, repo, limit): the data do not change while
 * serving, so an answer never goes stale.  Direct-mapped, striped locks. */
#define CACHE_SLOTS 8192
#define CACHE_STRIPES 64
#define CACHE_MAX_BODY (64 * 1024)

struct cslot {
	uint64_t h;
	char *key, *body;
	size_t klen, blen;
};

struct server {
	const fl_serve_opts *o;
	struct cslot *cache;
	pthread_mutex_t stripes[CACHE_STRIPES];
	srv_source src;
	srv_snap_cfg scfg;
	char site_real[PATH_MAX]; /* --site DIR, or the --data --no-site mirror */
	fl_store *watch;          /* the --db store, watched for changes */
	unsigned long seq;        /* of the last snapshot taken */
	bool follow_failed;       /* the last new snapshot failed (said once) */
	pthread_mutex_t snap_mu;
	srv_snap *snap;           /* the current snapshot (snap_mu) */
	/* --data-url: how fresh the served copy is (snap_mu; set by follow()) */
	bool stale;               /* the last refresh failed: serving the cache */
	bool refreshing;          /* a sync is running */
	time_t synced_at;         /* when the served copy was last confirmed */
	char refresh_error[1024]; /* why the last refresh failed */
	const char *prefix;       /* URL prefix of the root ("/data": a bare data set) */
	int logfd;
	srv_conns *conns;
	atomic_int inflight, heavy;
	atomic_llong served;
	atomic_bool draining;
	pthread_key_t key;
	unsigned threads;
};

struct req {
	srv_snap *snap;       /* what this request answers from */
	double t0;
	const char *method;
	char *path;
	unsigned status;
	size_t bytes;
	fl_buf body;
	bool too_big, heavy;
	bool body_wait;       /* the connection was marked as waiting for the body */
	char *extra_version;  /* X-Faultline-Dataset-Version of the answer */
	bool stale;           /* --data-url: the server was stale when it came */
	bool extra_truncated; /* X-Faultline-Truncated: true */
};

struct tls {
	fl_store *st;         /* on the store of snapshot seq */
	unsigned long seq;
};

static void tls_free(void *p)
{
	struct tls *t = p;
	if (t->st)
		fl_store_close(t->st);
	free(t);
	fl_lookup_thread_done();
}

static struct tls *tls_get(struct server *s)
{
	struct tls *t = pthread_getspecific(s->key);
	if (!t) {
		t = fl_xcalloc(1, sizeof *t);
		pthread_setspecific(s->key, t);
	}
	return t;
}

/* The calling thread is about to answer from snapshot sn: its store
 * handle and lookup scratch are for sn (a lookup freed with an older
 * snapshot may have had the address of sn's). */
static struct tls *tls_follow(struct server *s, const srv_snap *sn)
{
	struct tls *t = tls_get(s);
	if (t->seq != sn->seq) {
		if (t->st)
			fl_store_close(t->st);
		t->st = NULL;
		fl_lookup_thread_done();
		t->seq = sn->seq;
	}
	return t;
}

/* the calling thread's read-only handle on the store of sn */
static fl_store *tls_store(struct server *s, const srv_snap *sn, fl_err *err)
{
	struct tls *t = tls_follow(s, sn);
	if (!t->st && fl_store_open(sn->store, true, &t->st, err) < 0)
		t->st = NULL;
	return t->st;
}

static const char *snap_version(const srv_snap *sn)
{
	return sn->version[0] ? sn->version : fl_lookup_version(sn->lk);
}

/* ---- responses ------------------------------------------------------------- */

static enum MHD_Result send_buf(struct MHD_Connection *c, struct req *r,
				unsigned status, const char *ctype, char *body,
				size_t n, const char *cache)
{
	struct MHD_Response *resp =
		M->create_response_from_buffer(n, body, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(body);
		return MHD_NO;
	}
	M->add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	M->add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, cache);
	M->add_response_header(resp, "X-Content-Type-Options", "nosniff");
	if (status == 405) {
		const char *allow = r->path && strcmp(r->path, "/api/explain") == 0 ? "POST" : "GET, HEAD";
		M->add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
	}
	if (status == 503)
		M->add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	/* every API answer says which state of the data it is from */
	if (r->extra_version)
		M->add_response_header(resp, "X-Faultline-Dataset-Version", r->extra_version);
	else if (r->snap && r->path && (strcmp(r->path, "/healthz") == 0 || fl_str_starts(r->path, "/api/")))
		M->add_response_header(resp, "X-Faultline-Dataset-Version", snap_version(r->snap));
	if (r->extra_truncated)
		M->add_response_header(resp, "X-Faultline-Truncated", "true");
	/* a follower (--data-url) that cannot reach its source says so */
	if (r->stale && r->path && (strcmp(r->path, "/healthz") == 0 || fl_str_starts(r->path, "/api/")))
		M->add_response_header(resp, "X-Faultline-Stale", "true");
	r->status = status;
	r->bytes = n;
	enum MHD_Result rc = M->queue_response(c, status, resp);
	M->destroy_response(resp);
	return rc;
}

static enum MHD_Result send_json(struct MHD_Connection *c, struct req *r,
				 unsigned status, json_t *o, const char *cache)
{
	char *d = srv_dump(o);
	json_decref(o);
	/* a newline at the end, as the command line prints it */
	char *s = fl_xasprintf("%s\n", d);
	free(d);
	size_t n = strlen(s);
	return send_buf(c, r, status, "application/json; charset=utf-8", s, n, cache);
}

static enum MHD_Result send_error(struct MHD_Connection *c, struct req *r,
				  unsigned status, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static enum MHD_Result send_error(struct MHD_Connection *c, struct req *r,
				  unsigned status, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	json_t *e = json_object();
	json_object_set_new(e, "status", json_integer(status));
	json_t *m = json_string(msg);
	json_object_set_new(e, "message", m ? m : json_string("bad request"));
	json_t *o = json_object();
	json_object_set_new(o, "error", e);
	return send_json(c, r, status, o, "no-store");
}

/* ---- static files ------------------------------------------------------------ */

static const char *content_type(const char *path)
{
	static const struct { const char *ext, *type; } t[] = {
		{".html", "text/html; charset=utf-8"},
		{".css", "text/css; charset=utf-8"},
		{".js", "text/javascript; charset=utf-8"},
		{".json", "application/json; charset=utf-8"},
		{".xml", "application/xml; charset=utf-8"},
		{".txt", "text/plain; charset=utf-8"},
		{".svg", "image/svg+xml"},
		{".png", "image/png"},
		{".ico", "image/x-icon"},
		{".webmanifest", "application/manifest+json"},
		{".woff2", "font/woff2"},
		{".map", "application/json; charset=utf-8"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (fl_str_ends(path, t[i].ext))
			return t[i].type;
	return "application/octet-stream";
}

/* URL path safe to map under the site: segments without a leading '.',
 * no backslash, no control characters. */
static bool safe_url_path(const char *u)
{
	if (u[0] != '/' || strlen(u) > 1024)
		return false;
	for (const char *p = u; *p; p++) {
		unsigned char ch = (unsigned char)*p;
		if (ch < 0x20 || ch == 0x7f || ch == '\\')
			return false;
		if (ch == '/' && p[1] == '.')
			return false;
	}
	return true;
}

/* Open url (checked by safe_url_path) under the folder root without
 * following a symbolic link anywhere on the way (O_NOFOLLOW on every
 * segment) and without blocking: only a regular file or a folder is
 * opened (a FIFO, socket or device is not, so it cannot hang a worker).
 * Returns the descriptor with *sb filled, or -1 when there is no such file
 * to serve. */
static int open_under(int root, const char *url, struct stat *sb)
{
	int dir = root, fd = -1;
	const char *p = url;
	while (*p == '/')
		p++;
	if (!*p) {
		fd = openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		goto check;
	}
	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char seg[NAME_MAX + 1];
		if (n > NAME_MAX)
			goto fail;
		memcpy(seg, p, n);
		seg[n] = '\0';
		p += n;
		while (*p == '/')
			p++;
		struct stat st;
		if (fstatat(dir, seg, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) || (*p && !S_ISDIR(st.st_mode)))
			goto fail;
		fd = openat(dir, seg, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
				      (*p ? O_DIRECTORY : 0));
		if (dir != root)
			close(dir);
		dir = root;
		if (fd < 0 || !*p)
			break;
		dir = fd;
		fd = -1;
	}
check:
	/* what was opened is checked again: the name may have been replaced */
	if (fd >= 0 && fstat(fd, sb) == 0 && (S_ISREG(sb->st_mode) || S_ISDIR(sb->st_mode)))
		return fd;
	if (fd >= 0)
		close(fd);
	return -1;
fail:
	if (dir != root)
		close(dir);
	return -1;
}

/* Send the regular file fd (closed here) of url. */
static enum MHD_Result send_file(struct MHD_Connection *c, struct req *r, int fd,
				 const struct stat *sb, unsigned status, const char *url)
{
	char etag[80];
	snprintf(etag, sizeof etag, "\"%llx-%llx\"", (unsigned long long)sb->st_size,
		 (unsigned long long)sb->st_mtim.tv_sec * 1000000000ull + (unsigned long long)sb->st_mtim.tv_nsec);
	const char *cache = "public, max-age=300";
	if (fl_str_starts(url, "/assets/"))
		cache = "public, max-age=86400";
	else if (strcmp(url, "/data/manifest.json") == 0)
		cache = "no-cache";
	const char *inm = M->lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
	struct MHD_Response *resp;
	if (status == 200 && inm && (strcmp(inm, etag) == 0 || strcmp(inm, "*") == 0)) {
		close(fd);
		resp = M->create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
		status = 304;
		r->bytes = 0;
	} else {
		resp = M->create_response_from_fd((uint64_t)sb->st_size, fd);
		r->bytes = (size_t)sb->st_size;
		if (!resp)
			close(fd);
	}
	if (!resp)
		return MHD_NO;
	M->add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type(url));
	M->add_response_header(resp, MHD_HTTP_HEADER_ETAG, etag);
	M->add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, cache);
	M->add_response_header(resp, "X-Content-Type-Options", "nosniff");
	r->status = status;
	enum MHD_Result rc = M->queue_response(c, status, resp);
	M->destroy_response(resp);
	return rc;
}

static enum MHD_Result serve_static(struct server *s, struct MHD_Connection *c,
				    struct req *r, const char *url)
{
	int root = r->snap->site_fd;
	if (root < 0)
		return send_error(c, r, 404, "not found (this server has no site; see /api/)");
	if (!safe_url_path(url))
		return send_error(c, r, 404, "not found");
	const char *orig = url;
	if (s->prefix) {
		size_t pl = strlen(s->prefix);
		if (strncmp(url, s->prefix, pl) != 0 || (url[pl] != '/' && url[pl] != '\0'))
			return send_error(c, r, 404, "not found (no site here; the data set is under %s/)", s->prefix);
		url += pl;
		if (!*url)
			url = "/";
	}
	struct stat sb;
	int fd = open_under(root, url, &sb);
	const char *name = orig;
	char *idx = NULL;
	if (fd >= 0 && S_ISDIR(sb.st_mode)) {
		close(fd);
		size_t n = strlen(orig);
		if (orig[n - 1] != '/') {
			struct MHD_Response *resp = M->create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
			char *loc = fl_xasprintf("%s/", orig);
			M->add_response_header(resp, MHD_HTTP_HEADER_LOCATION, loc);
			free(loc);
			r->status = 301;
			enum MHD_Result rc = M->queue_response(c, 301, resp);
			M->destroy_response(resp);
			return rc;
		}
		idx = fl_xasprintf("%sindex.html", url);
		fd = open_under(root, idx, &sb);
		name = idx;
		if (fd >= 0 && !S_ISREG(sb.st_mode)) {
			close(fd);
			fd = -1;
		}
	}
	enum MHD_Result rc;
	if (fd >= 0) {
		rc = send_file(c, r, fd, &sb, 200, name);
	} else if (!s->prefix && !fl_str_starts(orig, "/data/") &&
		   (fd = open_under(root, "/404.html", &sb)) >= 0) {
		if (S_ISREG(sb.st_mode)) {
			rc = send_file(c, r, fd, &sb, 404, "/404.html");
		} else {
			close(fd);
			rc = send_error(c, r, 404, "not found");
		}
	} else {
		rc = send_error(c, r, 404, "not found");
	}
	free(idx);
	return rc;
}

/* ---- API ------------------------------------------------------------------------ */

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* a copy of the cached answer, or NULL */
static char *cache_get(struct server *s, const char *key, size_t klen, uint64_t h, size_t *blen)
{
	if (!s->cache)
		return NULL;
	struct cslot *c = &s->cache[h % CACHE_SLOTS];
	pthread_mutex_t *mu = &s->stripes[(h % CACHE_SLOTS) % CACHE_STRIPES];
	char *out = NULL;
	pthread_mutex_lock(mu);
	if (c->key && c->h == h && c->klen == klen && memcmp(c->key, key, klen) == 0) {
		out = fl_xmalloc(c->blen + 1);
		memcpy(out, c->body, c->blen + 1);
		*blen = c->blen;
	}
	pthread_mutex_unlock(mu);
	return out;
}

static void cache_put(struct server *s, const char *key, size_t klen, uint64_t h,
		      const char *body, size_t blen)
{
	if (!s->cache || blen > CACHE_MAX_BODY)
		return;
	struct cslot *c = &s->cache[h % CACHE_SLOTS];
	pthread_mutex_t *mu = &s->stripes[(h % CACHE_SLOTS) % CACHE_STRIPES];
	char *k = fl_xmalloc(klen), *b = fl_xmalloc(blen + 1);
	memcpy(k, key, klen);
	memcpy(b, body, blen + 1);
	pthread_mutex_lock(mu);
	char *ok = c->key, *ob = c->body;
	c->h = h;
	c->key = k;
	c->klen = klen;
	c->body = b;
	c->blen = blen;
	pthread_mutex_unlock(mu);
	free(ok);
	free(ob);
}

static const char *arg(struct MHD_Connection *c, const char *k)
{
	return M->lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, k);
}

static bool valid_repo(const char *r)
{
	const char *sl = strchr(r, '/');
	return sl && sl != r && sl[1] && !strchr(sl + 1, '/') && strlen(r) < 256 &&
	       fl_utf8_valid(r, strlen(r));
}

static enum MHD_Result api_search(struct server *s, struct MHD_Connection *c, struct req *r)
{
	const char *q = arg(c, "q"), *repo = arg(c, "repo"), *lim = arg(c, "limit");
	if (!q || !*q)
		return send_error(c, r, 400, "q: the error text to look up is required");
	size_t qn = strlen(q);
	if (qn > MAX_QUERY)
		return send_error(c, r, 400, "q: %zu bytes, at most %d are accepted (POST a log to /api/explain)",
				  qn, MAX_QUERY);
	if (repo && *repo && !valid_repo(repo))
		return send_error(c, r, 400, "repo: must be OWNER/NAME");
	size_t limit = 10;
	if (lim) {
		char *end;
		long v = strtol(lim, &end, 10);
		if (!*lim || *end || v < 1 || v > MAX_LIMIT)
			return send_error(c, r, 400, "limit: a number from 1 to %d", MAX_LIMIT);
		limit = (size_t)v;
	}
	char lb[24];
	snprintf(lb, sizeof lb, "%zu", limit);
	/* the snapshot is part of the key: an answer of an older one is never given */
	char *key = fl_xasprintf("%lu%c%s%c%s%c%s", r->snap->seq, 1, q, 1, repo ? repo : "", 1, lb);
	size_t klen = strlen(key), blen;
	uint64_t h = fnv1a(key, klen);
	char *body = cache_get(s, key, klen, h, &blen);
	if (!body) {
		tls_follow(s, r->snap);
		/* the records' versions are read from the snapshot's store,
		 * with the thread's handle on it (none: answered without) */
		fl_err verr;
		fl_store *vst = r->snap->has_versions ? tls_store(s, r->snap, &verr) : NULL;
		json_t *o = srv_search_json(r->snap->lk, vst, q, qn, repo && *repo ? repo : NULL,
					    limit, r->snap->version[0] ? r->snap->version : NULL,
					    s->o->match_json);
		char *d = srv_dump(o);
		json_decref(o);
		body = fl_xasprintf("%s\n", d);
		free(d);
		blen = strlen(body);
		cache_put(s, key, klen, h, body, blen);
	}
	free(key);
	return send_buf(c, r, 200, "application/json; charset=utf-8", body, blen,
			"public, max-age=60");
}

static enum MHD_Result api_explain(struct server *s, struct MHD_Connection *c, struct req *r)
{
	const char *repo = arg(c, "repo");
	if (repo && *repo && !valid_repo(repo))
		return send_error(c, r, 400, "repo: must be OWNER/NAME");
	const char *text = r->body.s ? r->body.s : "";
	size_t n = r->body.n;
	json_t *jbody = NULL;
	const char *ct = M->lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
	if (ct && fl_str_starts(ct, "application/json")) {
		jbody = json_loadb(text, n, 0, NULL);
		json_t *lg = json_object_get(jbody, "log");
		if (!json_is_string(lg)) {
			json_decref(jbody);
			return send_error(c, r, 400, "body: a JSON body must be {\"log\": \"...\"}");
		}
		text = json_string_value(lg);
		n = json_string_length(lg);
		const char *jr = json_string_value(json_object_get(jbody, "repo"));
		if (jr && *jr) {
			if (!valid_repo(jr)) {
				json_decref(jbody);
				return send_error(c, r, 400, "repo: must be OWNER/NAME");
			}
			repo = jr;
		}
	}
	tls_follow(s, r->snap);
	fl_err err;
	/* the records' versions, as for /api/search */
	fl_store *vst = r->snap->has_versions ? tls_store(s, r->snap, &err) : NULL;
	json_t *o = srv_explain_log_json(r->snap->lk, vst, text, n, repo && *repo ? repo : NULL,
					 r->snap->version[0] ? r->snap->version : NULL,
					 s->o->match_json, &err);
	json_decref(jbody);
	if (!o)
		return send_error(c, r, 400, "%s", err.msg);
	/* The body is what `grep-log --json` prints: JSON Lines, one object
	 * per matched error.  A client that asks for application/json (and
	 * not JSON Lines) gets them wrapped as {"matches":[...],"lines",
	 * "datasetVersion"}.  Either way the headers carry the version and
	 * whether the time limit cut the answer short. */
	const char *acc = M->lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	if (acc && strstr(acc, "application/json") && !strstr(acc, "ndjson") &&
	    !strstr(acc, "jsonl"))
		return send_json(c, r, 200, o, "no-store");
	fl_buf b = {0};
	json_t *arr = json_object_get(o, "matches");
	size_t i;
	json_t *m;
	json_array_foreach(arr, i, m) {
		char *line = srv_dump(m);
		fl_buf_puts(&b, line);
		fl_buf_putc(&b, '\n');
		free(line);
	}
	bool truncated = json_is_true(json_object_get(o, "truncated"));
	char *version = fl_xstrdup(json_string_value(json_object_get(o, "datasetVersion")));
	json_decref(o);
	r->extra_version = version;
	r->extra_truncated = truncated;
	size_t blen = b.n;
	char *body = b.s ? b.s : fl_xstrdup("");
	return send_buf(c, r, 200, "application/x-ndjson; charset=utf-8", body, blen, "no-store");
}

static bool is_id(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return false;
	return n == 16;
}

static enum MHD_Result api_error(struct server *s, struct MHD_Connection *c, struct req *r,
				 const char *id)
{
	if (!is_id(id))
		return send_error(c, r, 404, "no error record '%.64s' (an id is 16 lowercase hex characters)", id);
	fl_err err;
	fl_store *st = tls_store(s, r->snap, &err);
	if (!st)
		return send_error(c, r, 503, "the store is not available: %s", err.msg);
	fl_entry e;
	int rc = fl_store_get_entry(st, id, &e, &err);
	if (rc < 0)
		return send_error(c, r, 503, "%s", err.msg);
	if (rc == 0)
		return send_error(c, r, 404, "no error record %s", id);
	json_t *o = json_object();
	json_object_set_new(o, "record", srv_entry_json(&e));
	json_object_set_new(o, "datasetVersion", json_string(snap_version(r->snap)));
	fl_entry_free(&e);
	return send_json(c, r, 200, o, "public, max-age=60");
}

static int add_entry(const fl_entry *e, void *ud)
{
	json_array_append_new(ud, srv_entry_json(e));
	return 0;
}

static enum MHD_Result api_repos(struct server *s, struct MHD_Connection *c, struct req *r,
				 const char *rest)
{
	fl_err err;
	fl_store *st = tls_store(s, r->snap, &err);
	if (!st)
		return send_error(c, r, 503, "the store is not available: %s", err.msg);
	if (!rest) {
		json_t *a = srv_repos_json(st, &err);
		if (!a)
			return send_error(c, r, 503, "%s", err.msg);
		return send_json(c, r, 200, a, "public, max-age=60");
	}
	if (!valid_repo(rest))
		return send_error(c, r, 404, "no repository '%.256s' (OWNER/NAME)", rest);
	fl_repo rp;
	int rc = fl_store_get_repo(st, rest, &rp, &err);
	if (rc < 0)
		return send_error(c, r, 503, "%s", err.msg);
	if (rc == 0)
		return send_error(c, r, 404, "no repository %s", rest);
	json_t *o = json_object();
	json_object_set_new(o, "repo", srv_repo_json(&rp));
	fl_repo_free(&rp);
	json_t *a = json_array();
	if (fl_store_each_entry(st, rest, add_entry, a, &err) < 0) {
		json_decref(a);
		json_decref(o);
		return send_error(c, r, 503, "%s", err.msg);
	}
	json_object_set_new(o, "errors", a);
	return send_json(c, r, 200, o, "public, max-age=60");
}

static enum MHD_Result healthz(struct server *s, struct MHD_Connection *c, struct req *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "status", json_string(atomic_load(&s->draining) ? "draining" : "ok"));
	json_object_set_new(o, "records", json_integer((json_int_t)fl_lookup_count(r->snap->lk)));
	json_object_set_new(o, "datasetVersion", json_string(snap_version(r->snap)));
	if (s->src.url) {
		/* a follower: what it follows and how fresh its copy is (the
		 * version above is the one this request was answered from) */
		pthread_mutex_lock(&s->snap_mu);
		bool stale = s->stale, refreshing = s->refreshing;
		time_t synced = s->synced_at;
		char why[sizeof s->refresh_error];
		memcpy(why, s->refresh_error, sizeof why);
		pthread_mutex_unlock(&s->snap_mu);
		long long age = synced ? (long long)(time(NULL) - synced) : 0;
		json_object_set_new(o, "source", json_string(s->src.url));
		json_object_set_new(o, "stale", json_boolean(stale));
		json_object_set_new(o, "refreshing", json_boolean(refreshing));
		json_object_set_new(o, "ageSeconds", json_integer(age < 0 ? 0 : age));
		if (stale)
			json_object_set_new(o, "refreshError", json_string(why));
	}
	return send_json(c, r, 200, o, "no-store");
}

static bool is_get(const char *m)
{
	return strcmp(m, MHD_HTTP_METHOD_GET) == 0 || strcmp(m, MHD_HTTP_METHOD_HEAD) == 0;
}

static enum MHD_Result route(struct server *s, struct MHD_Connection *c, struct req *r,
			     const char *url, const char *method)
{
	bool get = is_get(method);
	if (strcmp(url, "/healthz") == 0)
		return get ? healthz(s, c, r) : send_error(c, r, 405, "%s: use GET", url);
	if (strcmp(url, "/api") == 0 || fl_str_starts(url, "/api/")) {
		if (strcmp(url, "/api/explain") == 0) {
			if (strcmp(method, MHD_HTTP_METHOD_POST) != 0)
				return send_error(c, r, 405, "%s: POST the log as the request body", url);
			return api_explain(s, c, r);
		}
		bool known = strcmp(url, "/api/search") == 0 || strcmp(url, "/api/repos") == 0 ||
			     fl_str_starts(url, "/api/errors/") || fl_str_starts(url, "/api/repos/");
		if (!known)
			return send_error(c, r, 404, "no such API endpoint: %.200s", url);
		if (!get)
			return send_error(c, r, 405, "%s: use GET", url);
		if (strcmp(url, "/api/search") == 0)
			return api_search(s, c, r);
		if (strcmp(url, "/api/repos") == 0)
			return api_repos(s, c, r, NULL);
		if (fl_str_starts(url, "/api/repos/"))
			return api_repos(s, c, r, url + 11);
		return api_error(s, c, r, url + 12);
	}
	if (!get)
		return send_error(c, r, 405, "%s: the site is read-only; use GET", url);
	return serve_static(s, c, r, url);
}

/* Framing headers of a request: a body whose length two headers could tell
 * apart (two different Content-Length, Content-Length with
 * Transfer-Encoding, a Transfer-Encoding other than chunked) is how a
 * request is smuggled past a proxy; such a request is refused with 400. */
struct framing {
	int cl, te;
	const char *cl_first;
	const char *why;
};

static bool all_digits(const char *v)
{
	if (!*v)
		return false;
	for (; *v; v++)
		if (*v < '0' || *v > '9')
			return false;
	return true;
}

static enum MHD_Result framing_header(void *cls, enum MHD_ValueKind kind, const char *key,
				      const char *value)
{
	(void)kind;
	struct framing *f = cls;
	if (!key)
		return MHD_YES;
	if (!value)
		value = "";
	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
		if (!all_digits(value))
			f->why = "Content-Length: not a number";
		else if (f->cl && strcmp(f->cl_first, value) != 0)
			f->why = "two different Content-Length headers";
		if (!f->cl++)
			f->cl_first = value;
	} else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
		if (f->te++)
			f->why = "more than one Transfer-Encoding header";
		else if (strcasecmp(value, "chunked") != 0)
			f->why = "Transfer-Encoding: only chunked is accepted";
	}
	return MHD_YES;
}

/* NULL when the request's length is unambiguous, else why not */
static const char *bad_framing(struct MHD_Connection *c)
{
	struct framing f = {0, 0, NULL, NULL};
	M->get_connection_values(c, MHD_HEADER_KIND, framing_header, &f);
	if (!f.why && f.cl && f.te)
		f.why = "Content-Length together with Transfer-Encoding";
	return f.why;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
			       const char *method, const char *version,
			       const char *upload, size_t *upload_size, void **con_cls)
{
	(void)version;
	struct server *s = cls;
	struct req *r = *con_cls;
	if (!r) {
		r = fl_xcalloc(1, sizeof *r);
		pthread_mutex_lock(&s->snap_mu);
		r->snap = srv_snap_ref(s->snap);
		r->stale = s->stale;
		pthread_mutex_unlock(&s->snap_mu);
		r->t0 = fl_now_mono();
		r->method = method;
		r->path = fl_xstrdup(url);
		*con_cls = r;
		atomic_fetch_add(&s->inflight, 1);
		srv_conns_set(s->conns, c, SRV_CONN_BUSY);
		if (atomic_load(&s->draining))
			return send_error(c, r, 503, "the server is shutting down");
		const char *why = bad_framing(c);
		if (why)
			return send_error(c, r, 400, "ambiguous request length: %s", why);
		if (strcmp(method, MHD_HTTP_METHOD_POST) == 0 && strcmp(url, "/api/explain") == 0) {
			const char *cl = M->lookup_connection_value(c, MHD_HEADER_KIND,
								     MHD_HTTP_HEADER_CONTENT_LENGTH);
			unsigned long long len = cl ? strtoull(cl, NULL, 10) : MAX_BODY;
			if (len > MAX_BODY)
				return send_error(c, r, 413, "the log is over %u bytes", MAX_BODY);
			/* at most half the workers explain big logs (over 64 KB or of
			 * unknown length): searches go on meanwhile */
			if (len > HEAVY_BODY) {
				int heavy_max = s->threads > 1 ? (int)s->threads / 2 : 1;
				if (atomic_fetch_add(&s->heavy, 1) >= heavy_max) {
					atomic_fetch_sub(&s->heavy, 1);
					return send_error(c, r, 503, "busy explaining other big logs; retry");
				}
				r->heavy = true;
			}
			srv_conns_set(s->conns, c, SRV_CONN_BODY);
			r->body_wait = true;
			return MHD_YES; /* wait for the body */
		}
		/* answer on the next call: a response queued before the request
		 * is complete makes libmicrohttpd close the connection */
		return MHD_YES;
	}
	if (*upload_size) {
		/* the body is coming: the client is not slow */
		if (r->body_wait)
			srv_conns_set(s->conns, c, SRV_CONN_BODY);
		if (!r->too_big) {
			if (r->body.n + *upload_size > MAX_BODY)
				r->too_big = true;
			else
				fl_buf_put(&r->body, upload, *upload_size);
		}
		*upload_size = 0;
		return MHD_YES;
	}
	if (r->status)
		return MHD_YES;
	if (r->body_wait) {
		r->body_wait = false;
		srv_conns_set(s->conns, c, SRV_CONN_BUSY);
	}
	if (r->too_big)
		return send_error(c, r, 413, "the log is over %u bytes", MAX_BODY);
	if (r->body.s)
		fl_buf_cstr(&r->body);
	return route(s, c, r, url, method);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct server *s = cls;
	struct req *r = *con_cls;
	if (!r)
		return;
	double ms = (fl_now_mono() - r->t0) * 1000.0;
	char ip[INET6_ADDRSTRLEN] = "-";
	const union MHD_ConnectionInfo *ci =
		M->get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci && ci->client_addr) {
		const struct sockaddr *sa = ci->client_addr;
		if (sa->sa_family == AF_INET)
			inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, ip, sizeof ip);
		else if (sa->sa_family == AF_INET6)
			inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, ip, sizeof ip);
	}
	char ts[32];
	fl_now_iso(ts);
	char line[1400];
	int n = snprintf(line, sizeof line, "%s %s %s %.1000s %u %zu %.2fms%s\n", ts, ip,
			 r->method, r->path, r->status ? r->status : 0, r->bytes, ms,
			 toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? "" : " aborted");
	if (n > (int)sizeof line - 1)
		n = (int)sizeof line - 1;
	if (write(s->logfd, line, (size_t)n) < 0) {
		/* nothing to do: logging must not fail a request */
	}
	srv_conns_set(s->conns, c, SRV_CONN_IDLE);
	if (r->heavy)
		atomic_fetch_sub(&s->heavy, 1);
	atomic_fetch_sub(&s->inflight, 1);
	atomic_fetch_add(&s->served, 1);
	srv_snap_put(r->snap);
	free(r->path);
	free(r->extra_version);
	fl_buf_free(&r->body);
	free(r);
	*con_cls = NULL;
}

/* ---- start-up -------------------------------------------------------------------- */

static int parse_listen(const char *l, struct sockaddr_storage *ss, socklen_t *sl, fl_err *err)
{
	char host[256];
	const char *colon = strrchr(l, ':');
	if (!colon || colon == l || (size_t)(colon - l) >= sizeof host || !colon[1])
		return fl_seterr(err, "--listen: '%s' is not HOST:PORT", l);
	memcpy(host, l, (size_t)(colon - l));
	host[colon - l] = '\0';
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	char *end;
	long port = strtol(colon + 1, &end, 10);
	if (*end || port < 0 || port > 65535)
		return fl_seterr(err, "--listen: '%s': the port must be 0-65535", l);
	struct addrinfo hints = {0}, *res;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	int g = getaddrinfo(host, colon + 1, &hints, &res);
	if (g != 0)
		return fl_seterr(err, "--listen: %s: %s", host, gai_strerror(g));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*sl = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* The folder of the data set's files: --data's, or the verified copy of
 * --data-url's version in the cache (NULL when that cache was synced
 * without them: the site is then rendered from the store). */
static const char *data_files(const struct server *s)
{
	return s->src.data_dir ? s->src.data_dir : s->src.files;
}

/* --data-url: the snapshot configuration of the version now in the cache */
static void follow_cfg(struct server *s)
{
	s->scfg.version = s->src.version;
	s->scfg.data_dir = s->src.files;
	if (s->prefix)
		s->scfg.site_dir = s->src.files ? s->site_real : NULL;
}

/* --data-url: how fresh the served copy is, for /healthz and the
 * X-Faultline-Stale header; says on stderr when it goes stale or fresh */
static void publish_freshness(struct server *s)
{
	pthread_mutex_lock(&s->snap_mu);
	bool was = s->stale;
	s->stale = s->src.stale;
	s->refreshing = s->src.sync != NULL;
	s->synced_at = s->src.synced_at;
	snprintf(s->refresh_error, sizeof s->refresh_error, "%s", s->src.stale ? s->src.last_error : "");
	pthread_mutex_unlock(&s->snap_mu);
	if (s->src.stale && !was)
		fprintf(stderr, "faultline: cannot refresh %s (%s): serving the cached data set %s (stale)\n",
			s->src.url, s->src.last_error, s->src.version);
	else if (!s->src.stale && was)
		fprintf(stderr, "faultline: %s reached again\n", s->src.url);
}

/* serve --data --no-site: the data set's listed files, copied into its
 * cache folder (again when its version changed), are the site */
static int mirror_data(struct server *s, fl_err *err)
{
	if (!data_files(s))
		return 0; /* --data-url over a cache without the files: no /data/ */
	char stamp[80];
	snprintf(stamp, sizeof stamp, "data %s", s->src.version);
	char *dir = fl_xasprintf("%s/files", s->src.cache);
	int rc = pub_dataset_mirror(data_files(s), dir, stamp, err);
	if (rc == 0 && !realpath(dir, s->site_real))
		rc = fl_seterr(err, "%s: %s", dir, strerror(errno));
	free(dir);
	return rc;
}

/* Take a new snapshot when the store's change counter moved (or the data
 * set folder's datasetVersion), and swap it in; the old one goes with its
 * last request.  A failure keeps the one served (said once). */
static void follow(struct server *s)
{
	fl_err err;
	fl_store *src = s->watch;
	if (s->src.data_dir || s->src.url) {
		bool changed = false;
		/* a URL's sync runs on its own thread: never waited for here */
		int rc = s->src.url ? srv_source_refresh_wait(&s->src, false, 0, &changed, &err)
				    : srv_source_refresh(&s->src, false, &changed, &err);
		if (s->src.url)
			publish_freshness(s);
		if (rc < 0)
			goto fail;
		if (!changed)
			goto out;
		if (s->prefix && mirror_data(s, &err) < 0)
			goto fail;
		if (fl_store_open(s->src.store_path, true, &src, &err) < 0)
			goto fail;
		s->scfg.version = s->src.version;
		if (s->src.url)
			follow_cfg(s);
	} else {
		long long gen;
		char changed[32];
		if (fl_store_generation(src, &gen, changed, &err) < 0)
			goto fail;
		if (gen == s->snap->gen && strcmp(changed, s->snap->changed) == 0)
			goto out;
	}
	srv_snap *sn = srv_snap_take(&s->scfg, src, ++s->seq, &err);
	if (src != s->watch)
		fl_store_close(src);
	if (!sn)
		goto fail;
	pthread_mutex_lock(&s->snap_mu);
	srv_snap *old = s->snap;
	s->snap = sn;
	pthread_mutex_unlock(&s->snap_mu);
	/* the old site folder, renamed away, goes with the old snapshot */
	old->trash = sn->replaced;
	sn->replaced = NULL;
	srv_snap_put(old);
	s->follow_failed = false;
	if (s->src.url)
		fprintf(stderr, "faultline: now serving data set %s (%zu records)\n", sn->version,
			fl_lookup_count(sn->lk));
	return;
fail:
	if (!s->follow_failed)
		fprintf(stderr, "faultline: the data changed but cannot be taken in (%s): serving the previous state\n",
			err.msg);
	s->follow_failed = true;
	return;
out:
	return;
}

static void server_free(struct server *s)
{
	srv_snap_put(s->snap);
	s->snap = NULL;
	if (s->watch)
		fl_store_close(s->watch);
	s->watch = NULL;
	pthread_mutex_destroy(&s->snap_mu);
	free((char *)s->scfg.cache_root);
	srv_source_free(&s->src);
}

int fl_serve_run(const fl_serve_opts *o, fl_err *err)
{
	if (!(M = fl_mhd(err)))
		return -1;
	struct server s;
	memset(&s, 0, sizeof s);
	s.o = o;
	pthread_mutex_init(&s.snap_mu, NULL);
	/* four workers by default, even on two cores: libmicrohttpd's poll
	 * loop takes one new connection per round, and with wrk -c500 on the
	 * server a fresh client waited up to 1.6 s behind the queue with two
	 * workers, 0.25 s with four */
	s.threads = o->threads > 0 ? (unsigned)o->threads : 4;
	s.logfd = fileno(o->access_log ? o->access_log : stderr);
	struct sockaddr_storage addr;
	socklen_t alen;
	if (parse_listen(o->listen ? o->listen : "127.0.0.1:8080", &addr, &alen, err) < 0)
		return -1;
	const char *db = o->data_dir || o->data_url ? NULL : o->db;
	int src_rc = srv_source_init(&s.src, db, o->data_dir, o->data_url, o->cache_dir, o->ttl,
				     o->offline, err);
	if (src_rc == 0 && o->data_url) {
		s.src.allow_rollback = o->allow_rollback;
		s.src.sync_timeout = o->sync_timeout;
		s.src.keep_files = true; /* the site and /data/ are the followed files */
		/* a cached copy is served while a due sync runs; with none,
		 * the first sync is waited for (it has a deadline) */
		src_rc = srv_source_refresh_wait(&s.src, false, 0, NULL, err);
	} else if (src_rc == 0) {
		src_rc = srv_source_refresh(&s.src, false, NULL, err);
	}
	if (src_rc < 0) {
		srv_source_free(&s.src);
		return -1;
	}
	bool dataset = s.src.data_dir || s.src.url; /* not a store of our own */
	char *cache_root = fl_cache_dir(o->cache_dir);
	char real[PATH_MAX];
	int rc = pub_mkdirs(cache_root, err);
	if (rc == 0 && o->site_dir && !o->no_site && !realpath(o->site_dir, s.site_real))
		rc = fl_seterr(err, "%s: %s", o->site_dir, strerror(errno));
	if (rc == 0 && !dataset && !realpath(s.src.store_path, real))
		rc = fl_seterr(err, "%s: %s", s.src.store_path, strerror(errno));
	s.scfg = (srv_snap_cfg){
		.cache_root = cache_root,
		/* a URL's versions share its cache folder's site */
		.key = s.src.data_dir ? s.src.data_dir : s.src.url ? s.src.cache : real,
		.data_dir = data_files(&s),
		.version = dataset ? s.src.version : NULL,
		.site_dir = o->no_site ? (data_files(&s) ? s.site_real : NULL)
				       : (o->site_dir ? s.site_real : NULL),
		.render = !o->no_site && !o->site_dir,
		/* a URL's store in the cache is never written: each version
		 * is a new one; --in-place serves the store itself */
		.copy = !dataset && !o->in_place,
	};
	if (s.src.url)
		publish_freshness(&s);
	if (rc == 0 && o->no_site && dataset) {
		/* no site, but the data set is served under /data/: a copy in
		 * its cache folder of its listed files, and only those */
		s.prefix = "/data";
		rc = mirror_data(&s, err);
	}
	fl_store *st = NULL;
	if (rc == 0)
		rc = fl_store_open(s.src.store_path, true, &st, err);
	if (rc == 0 && !(s.snap = srv_snap_take(&s.scfg, st, ++s.seq, err)))
		rc = -1;
	if (st && dataset)
		fl_store_close(st);
	else
		s.watch = st; /* the store, watched for changes */
	if (rc < 0) {
		if (s.watch)
			fl_store_close(s.watch);
		free(cache_root);
		srv_source_free(&s.src);
		return -1;
	}
	pthread_key_create(&s.key, tls_free);
	if (!o->no_cache) {
		s.cache = fl_xcalloc(CACHE_SLOTS, sizeof *s.cache);
		for (int i = 0; i < CACHE_STRIPES; i++)
			pthread_mutex_init(&s.stripes[i], NULL);
	}

	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigset_t oldset;
	pthread_sigmask(SIG_BLOCK, &set, &oldset);
	signal(SIGPIPE, SIG_IGN);

	/* poll(), not epoll: libmicrohttpd 0.9.75's epoll loop missed the end
	 * of connections whose client had gone (two bursts of wrk -c500 left
	 * all 512 slots held by closed sockets for the 30 s timeout) */
	unsigned flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC |
			 (addr.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0);
	unsigned maxc = o->max_connections ? o->max_connections : 512u;
	unsigned timeout = o->timeout_s ? o->timeout_s : 30u;
	unsigned hdr = o->header_timeout_s ? o->header_timeout_s : 10u;
	s.conns = srv_conns_new(maxc, o->per_ip ? o->per_ip : 32u, hdr < timeout ? hdr : timeout,
				timeout);
	/* libmicrohttpd's own limit is a backstop above ours: conns.c admits
	 * a newcomer by closing a slow connection, whose slot is freed by its
	 * worker's next round, and a burst can close hundreds at once */
	struct MHD_Daemon *d = M->start_daemon(
		flags, 0, srv_conns_accept, s.conns, handler, &s,
		MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
		MHD_OPTION_THREAD_POOL_SIZE, s.threads,
		MHD_OPTION_CONNECTION_LIMIT, 2u * maxc + 64u,
		MHD_OPTION_CONNECTION_TIMEOUT, timeout,
		MHD_OPTION_NOTIFY_CONNECTION, srv_conns_notify, s.conns,
		MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
		MHD_OPTION_NOTIFY_COMPLETED, completed, &s,
		MHD_OPTION_END);
	if (!d) {
		pthread_sigmask(SIG_SETMASK, &oldset, NULL);
		server_free(&s);
		srv_conns_free(s.conns);
		pthread_key_delete(s.key);
		return fl_seterr(err, "cannot listen on %s: %s", o->listen ? o->listen : "127.0.0.1:8080",
				 strerror(errno));
	}
	const union MHD_DaemonInfo *di = M->get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	char host[INET6_ADDRSTRLEN] = "?";
	if (addr.ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)&addr)->sin_addr, host, sizeof host);
	else
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&addr)->sin6_addr, host, sizeof host);
	fprintf(stderr, "faultline: %zu records, %s %s\n", fl_lookup_count(s.snap->lk),
		s.prefix ? "data set" : "site", s.snap->site ? s.snap->site : "(none)");
	if (s.src.url)
		fprintf(stderr, "faultline: following %s: data set %s%s\n", s.src.url, s.src.version,
			s.src.stale ? " (stale: the cached copy)" : s.src.offline ? " (offline: the cached copy)" : "");
	fprintf(stderr, addr.ss_family == AF_INET6 ? "faultline: listening on http://[%s]:%u\n"
						   : "faultline: listening on http://%s:%u\n",
		host, di ? (unsigned)di->port : 0u);
	fflush(stderr);

	int sig = 0;
	for (unsigned n = 0;; n++) {
		struct timespec tick = {0, 250 * 1000 * 1000};
		sig = sigtimedwait(&set, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT)
			break;
		srv_conns_reap(s.conns);
		if (n % 2)
			follow(&s);
	}
	fprintf(stderr, "faultline: signal %d: draining\n", sig);
	atomic_store(&s.draining, true);
	MHD_socket ls = M->quiesce_daemon(d);
	if (ls != MHD_INVALID_SOCKET)
		close(ls);
	double t0 = fl_now_mono();
	while (atomic_load(&s.inflight) > 0 && fl_now_mono() - t0 < 10.0) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	M->stop_daemon(d);
	pthread_sigmask(SIG_SETMASK, &oldset, NULL);
	unsigned long long refused, taken, reaped;
	srv_conns_stats(s.conns, &refused, &taken, &reaped);
	fprintf(stderr, "faultline: stopped after %lld requests (connections: %llu refused, "
		"%llu closed to make room, %llu closed for slowness)\n",
		(long long)atomic_load(&s.served), refused, taken, reaped);
	srv_conns_free(s.conns);
	struct tls *t = pthread_getspecific(s.key);
	if (t) {
		pthread_setspecific(s.key, NULL);
		tls_free(t);
	}
	pthread_key_delete(s.key);
	server_free(&s);
	if (s.cache) {
		for (size_t i = 0; i < CACHE_SLOTS; i++) {
			free(s.cache[i].key);
			free(s.cache[i].body);
		}
		free(s.cache);
		for (int i = 0; i < CACHE_STRIPES; i++)
			pthread_mutex_destroy(&s.stripes[i]);
	}
	return 0;
}
