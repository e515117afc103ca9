/*
 * dataset.c — reading a published data set (dataset.md) and checking all
 * of it before anything uses it: manifest.json (size and sha256 of
 * index.json, repos.json and inventory.json), inventory.json (size and
 * sha256 of every other file), schemaVersion, every RepoEntry and
 * ErrorEntry strictly, duplicate ids and slugs, records of repositories
 * missing from repos.json, index.json and errors/{id}.json agreeing with
 * repos/{owner}/{name}.json.  Errors name the file and the field.  The
 * repository files are read on every core, through a fast reader of the
 * common record shape (jansson takes anything else, and names problems).
 * Only listed files are read, through fsutil.c: regular files beneath the
 * folder (a link, FIFO, socket or device anywhere in it refuses the data
 * set), sizes checked before reading, at most PUB_FILE_MAX each.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_internal.h"
#include "publish.h"
#include "strmap.h"
#include "util.h"

/* ---- the fast record reader -------------------------------------------------
 * A data set holds 100k+ records twice; jansson builds a tree of ~40
 * allocations per record.  This reader takes the common case (an object with
 * exactly the ErrorEntry keys, each once, values of their types) straight
 * into an fl_entry; anything else returns 0 and the caller reads the text
 * with jansson, whose path names the problem.  The accepted text and the
 * resulting entry are exactly what jansson + fl_entry_from_jobj give. */

/* the keys: the record codec's table (json_internal.h) */
#define fkeys fl_entry_fields
#define NKEYS fl_entry_nfields

static void skip_ws(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r'))
		(*p)++;
}

static int hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return 0;
	}
	return 1;
}

/* A JSON string at *p ('"' first) into a new C string; NULL when it is not
 * one jansson would accept (bad escape, control character, invalid UTF-8,
 * \u0000). */
static char *read_str(const char **p, const char *end, fl_buf *tmp)
{
	const char *s = *p;
	if (s >= end || *s != '"')
		return NULL;
	s++;
	const char *run = s;
	tmp->n = 0;
	bool esc = false;
	while (s < end && *s != '"') {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20)
			return NULL;
		if (c != '\\') {
			s++;
			continue;
		}
		esc = true;
		fl_buf_put(tmp, run, (size_t)(s - run));
		if (s + 1 >= end)
			return NULL;
		char e = s[1];
		s += 2;
		switch (e) {
		case '"': fl_buf_putc(tmp, '"'); break;
		case '\\': fl_buf_putc(tmp, '\\'); break;
		case '/': fl_buf_putc(tmp, '/'); break;
		case 'b': fl_buf_putc(tmp, '\b'); break;
		case 'f': fl_buf_putc(tmp, '\f'); break;
		case 'n': fl_buf_putc(tmp, '\n'); break;
		case 'r': fl_buf_putc(tmp, '\r'); break;
		case 't': fl_buf_putc(tmp, '\t'); break;
		case 'u': {
			unsigned cp, lo;
			if (end - s < 4 || !hex4(s, &cp))
				return NULL;
			s += 4;
			if (cp >= 0xDC00 && cp <= 0xDFFF)
				return NULL;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				if (end - s < 6 || s[0] != '\\' || s[1] != 'u' || !hex4(s + 2, &lo) ||
				    lo < 0xDC00 || lo > 0xDFFF)
					return NULL;
				s += 6;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			}
			if (cp == 0)
				return NULL;
			fl_buf_put_utf8(tmp, cp);
			break;
		}
		default:
			return NULL;
		}
		run = s;
	}
	if (s >= end)
		return NULL;
	char *out;
	if (!esc) {
		if (!fl_utf8_valid(run, (size_t)(s - run)))
			return NULL;
		out = fl_xstrndup(run, (size_t)(s - run));
	} else {
		fl_buf_put(tmp, run, (size_t)(s - run));
		if (!fl_utf8_valid(tmp->s ? tmp->s : "", tmp->n))
			return NULL;
		out = fl_xstrndup(tmp->s ? tmp->s : "", tmp->n);
	}
	*p = s + 1;
	return out;
}

/* An integer without fraction or exponent; 0 when it is anything else. */
static int read_int(const char **p, const char *end, long long *v)
{
	const char *s = *p;
	bool neg = s < end && *s == '-';
	if (neg)
		s++;
	const char *d = s;
	while (s < end && *s >= '0' && *s <= '9')
		s++;
	size_t nd = (size_t)(s - d);
	if (nd == 0 || nd > 18 || (nd > 1 && *d == '0'))
		return 0;
	if (s < end && (*s == '.' || *s == 'e' || *s == 'E'))
		return 0;
	long long x = 0;
	for (const char *q = d; q < s; q++)
		x = x * 10 + (*q - '0');
	*v = neg ? -x : x;
	*p = s;
	return 1;
}

static bool lit(const char **p, const char *end, const char *w, size_t n)
{
	if ((size_t)(end - *p) < n || memcmp(*p, w, n) != 0)
		return false;
	*p += n;
	return true;
}

int pub_entry_read(const char **pp, const char *end, fl_entry *out)
{
	memset(out, 0, sizeof *out);
	const char *p = *pp;
	fl_buf tmp = {0};
	uint64_t seen = 0;
	size_t next = 0;
	skip_ws(&p, end);
	if (p >= end || *p != '{')
		goto fail;
	p++;
	skip_ws(&p, end);
	if (p < end && *p == '}')
		goto fail;
	for (;;) {
		skip_ws(&p, end);
		/* the key: the expected one first, else any */
		if (p >= end || *p != '"')
			goto fail;
		const char *k = p + 1, *q = k;
		while (q < end && *q != '"' && *q != '\\')
			q++;
		if (q >= end || *q != '"')
			goto fail;
		size_t kl = (size_t)(q - k), f = NKEYS;
		if (next < NKEYS && fkeys[next].len == kl && memcmp(fkeys[next].key, k, kl) == 0)
			f = next;
		else
			for (size_t i = 0; i < NKEYS; i++)
				if (fkeys[i].len == kl && memcmp(fkeys[i].key, k, kl) == 0) {
					f = i;
					break;
				}
		if (f == NKEYS || (seen & (1ULL << f)))
			goto fail;
		seen |= 1ULL << f;
		next = f + 1;
		p = q + 1;
		skip_ws(&p, end);
		if (p >= end || *p != ':')
			goto fail;
		p++;
		skip_ws(&p, end);
		char *base = (char *)out + fkeys[f].off;
		long long v;
		switch (fkeys[f].kind) {
		case FL_F_NSTR:
			if (lit(&p, end, "null", 4))
				break;
			/* fall through */
		case FL_F_STR:
			if (!(*(char **)base = read_str(&p, end, &tmp)))
				goto fail;
			break;
		case FL_F_NINT:
			if (lit(&p, end, "null", 4))
				break;
			if (!read_int(&p, end, &v) || v < 1 || v > 2147483647)
				goto fail;
			*(int *)base = (int)v;
			break;
		case FL_F_INT:
			if (!read_int(&p, end, &v))
				goto fail;
			*(int *)base = (int)v;
			break;
		case FL_F_STRV: {
			if (p >= end || *p != '[')
				goto fail;
			p++;
			skip_ws(&p, end);
			if (p < end && *p == ']') {
				p++;
				break;
			}
			for (;;) {
				skip_ws(&p, end);
				char *s = read_str(&p, end, &tmp);
				if (!s)
					goto fail;
				fl_strv *sv = (fl_strv *)base;
				fl_strv_push(sv, s);
				free(s);
				skip_ws(&p, end);
				if (p < end && *p == ',') {
					p++;
					continue;
				}
				if (p < end && *p == ']') {
					p++;
					break;
				}
				goto fail;
			}
			break;
		}
		default: /* no ErrorEntry key has another kind */
			goto fail;
		}
		skip_ws(&p, end);
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == '}') {
			p++;
			break;
		}
		goto fail;
	}
	if (seen != (NKEYS == 64 ? ~0ULL : (1ULL << NKEYS) - 1))
		goto fail;
	fl_buf_free(&tmp);
	*pp = p;
	return 1;
fail:
	fl_buf_free(&tmp);
	fl_entry_free(out);
	memset(out, 0, sizeof *out);
	return 0;
}

/* ---- reading and checking ------------------------------------------------------ */

typedef struct inv_item {
	char *rel;
	long long bytes;
	char sha[65];
	bool used;           /* checked while reading it for the records */
} inv_item;

struct ld {
	const char *dir;
	int rootfd;          /* the data set's folder: every file is opened beneath it */
	bool trusted;
	fl_err *err;
	json_t *manifest;
	const char *version;
	char *index_data, *repos_data, *inv_data;
	size_t index_len, repos_len, inv_len;
	inv_item *inv;       /* inventory.json, in its order */
	size_t ninv;
	fl_strmap inv_ix;    /* rel -> index in inv */
	const fl_strmap *repo_ix; /* repos.json: name -> index */
};

static char *path_of(const struct ld *l, const char *rel)
{
	return fl_xasprintf("%s/%s", l->dir, rel);
}

/* A folder of the data set (rel: "repos", "repos/acme"), no link followed;
 * NULL when it is missing or not a folder. */
static DIR *open_dir(const struct ld *l, const char *rel)
{
	int fd = openat(l->rootfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (fd >= 0 && !d)
		close(fd);
	return d;
}

/* Read rel and check it against its inventory line (unless trusted). */
static char *read_listed(const struct ld *l, const char *rel, size_t *len, fl_err *err)
{
	size_t ix = 0;
	if (!l->trusted && !fl_strmap_get(&l->inv_ix, rel, &ix)) {
		fl_seterr(err, "%s/%s: not listed in inventory.json", l->dir, rel);
		return NULL;
	}
	inv_item *it = l->trusted ? NULL : &l->inv[ix];
	char *data = pub_read_beneath(l->rootfd, l->dir, rel, it ? it->bytes : -1,
				      "inventory.json", PUB_FILE_MAX, len, err);
	if (data && it) {
		it->used = true;
		char hex[65];
		pub_sha256_hex(data, *len, hex);
		if (strcmp(hex, it->sha) != 0) {
			fl_seterr(err, "%s/%s: sha256: is %s, inventory.json says %s", l->dir, rel, hex, it->sha);
			free(data);
			data = NULL;
		}
	}
	return data;
}

/* Parse data of rel; NULL with err naming the file. */
static json_t *parse_json(struct ld *l, const char *rel, const char *data, size_t len)
{
	fl_err e2;
	json_t *o = fl_json_parse(data, len, &e2);
	if (!o)
		fl_seterr(l->err, "%s/%s: %s", l->dir, rel, e2.msg);
	return o;
}

static bool safe_rel(const char *rel)
{
	if (!rel[0] || rel[0] == '/')
		return false;
	for (const char *s = rel; *s;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		s += n;
		if (*s == '/')
			s++;
	}
	return !strchr(rel, '\\');
}

static bool is_hex64(const char *s)
{
	if (strlen(s) != 64)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

/* A /data/... path of a listing as a path relative to the data set. */
static const char *rel_of(const char *path)
{
	if (fl_str_starts(path, "/data/"))
		return path + 6;
	return path[0] == '/' ? path + 1 : path;
}

static const char *const MANIFEST_FILES[3] = {"index", "repos", "inventory"};

static int check_manifest(struct ld *l)
{
	json_t *m = l->manifest;
	const char *mf = "manifest.json";
	if (!json_is_object(m))
		return fl_seterr(l->err, "%s/%s: not a JSON object", l->dir, mf);
	const char *key;
	json_t *v;
	json_object_foreach(m, key, v) {
		if (strcmp(key, "schemaVersion") && strcmp(key, "datasetVersion") &&
		    strcmp(key, "counts") && strcmp(key, "files"))
			return fl_seterr(l->err, "%s/%s: %s: unknown key", l->dir, mf, key);
	}
	v = json_object_get(m, "schemaVersion");
	if (!json_is_integer(v))
		return fl_seterr(l->err, "%s/%s: schemaVersion: missing or not an integer", l->dir, mf);
	if (json_integer_value(v) != FL_SCHEMA_VERSION)
		return fl_seterr(l->err, "%s/%s: schemaVersion: is %lld, only %d is supported",
				 l->dir, mf, (long long)json_integer_value(v), FL_SCHEMA_VERSION);
	v = json_object_get(m, "datasetVersion");
	if (!json_is_string(v) || pub_iso_ms(json_string_value(v)) < 0)
		return fl_seterr(l->err, "%s/%s: datasetVersion: must be an ISO 8601 UTC time", l->dir, mf);
	l->version = json_string_value(v);
	v = json_object_get(m, "counts");
	if (!json_is_object(v) || !json_is_integer(json_object_get(v, "repos")) ||
	    !json_is_integer(json_object_get(v, "errors")) || json_object_size(v) != 2)
		return fl_seterr(l->err, "%s/%s: counts: must be {\"repos\":N,\"errors\":M}", l->dir, mf);
	json_t *files = json_object_get(m, "files");
	if (!json_is_object(files))
		return fl_seterr(l->err, "%s/%s: files: missing or not an object", l->dir, mf);
	json_object_foreach(files, key, v) {
		if (strcmp(key, "index") && strcmp(key, "repos") && strcmp(key, "inventory"))
			return fl_seterr(l->err, "%s/%s: files.%s: unknown file (the manifest lists index, repos and inventory)",
					 l->dir, mf, key);
	}
	for (int i = 0; i < 3; i++) {
		key = MANIFEST_FILES[i];
		v = json_object_get(files, key);
		if (!v)
			return fl_seterr(l->err, "%s/%s: files: must list \"index\", \"repos\" and \"inventory\"", l->dir, mf);
		json_t *path = json_object_get(v, "path");
		json_t *bytes = json_object_get(v, "bytes");
		json_t *sha = json_object_get(v, "sha256");
		if (!json_is_object(v) || json_object_size(v) != 3 || !json_is_string(path) ||
		    !json_is_integer(bytes) || json_integer_value(bytes) < 0 ||
		    !json_is_string(sha) || !is_hex64(json_string_value(sha)))
			return fl_seterr(l->err, "%s/%s: files.%s: must be {\"path\",\"bytes\",\"sha256\"} (sha256: 64 lowercase hex)",
					 l->dir, mf, key);
		char want[32];
		snprintf(want, sizeof want, "%s.json", key);
		if (strcmp(rel_of(json_string_value(path)), want) != 0)
			return fl_seterr(l->err, "%s/%s: files.%s.path: must be /data/%s", l->dir, mf, key, want);
		char *p = path_of(l, want);
		char who[48];
		snprintf(who, sizeof who, "manifest.json (files.%s)", key);
		size_t len;
		char *data = pub_read_beneath(l->rootfd, l->dir, want, (long long)json_integer_value(bytes),
					      who, PUB_FILE_MAX, &len, l->err);
		if (!data) {
			if (errno == ENOENT)
				fl_seterr(l->err, "%s: listed in manifest.json (files.%s) but missing", p, key);
			free(p);
			return -1;
		}
		if (!l->trusted) {
			char hex[65];
			pub_sha256_hex(data, len, hex);
			if (strcmp(hex, json_string_value(sha)) != 0) {
				fl_seterr(l->err, "%s: sha256: is %s, manifest.json (files.%s) says %s",
					  p, hex, key, json_string_value(sha));
				free(data);
				free(p);
				return -1;
			}
		}
		free(p);
		if (i == 0) {
			l->index_data = data;
			l->index_len = len;
		} else if (i == 1) {
			l->repos_data = data;
			l->repos_len = len;
		} else {
			l->inv_data = data;
			l->inv_len = len;
		}
	}
	return 0;
}

static int check_doc_header(struct ld *l, json_t *o, const char *rel)
{
	json_t *sv = json_object_get(o, "schemaVersion");
	if (!json_is_integer(sv) || json_integer_value(sv) != FL_SCHEMA_VERSION)
		return fl_seterr(l->err, "%s/%s: schemaVersion: must be %d", l->dir, rel, FL_SCHEMA_VERSION);
	json_t *dv = json_object_get(o, "datasetVersion");
	if (!json_is_string(dv) || strcmp(json_string_value(dv), l->version) != 0)
		return fl_seterr(l->err, "%s/%s: datasetVersion: does not match manifest.json (%s)",
				 l->dir, rel, l->version);
	return 0;
}

/* inventory.json: {"schemaVersion":2,"datasetVersion":...,"files":[{"path",
 * "bytes","sha256"}...]}, every file of the data set but manifest.json and
 * itself, once each. */
static int check_inventory(struct ld *l)
{
	const char *rel = "inventory.json";
	json_t *o = parse_json(l, rel, l->inv_data, l->inv_len);
	if (!o)
		return -1;
	int rc = -1;
	json_t *files = json_object_get(o, "files");
	if (!json_is_object(o) || json_object_size(o) != 3 || !json_is_array(files)) {
		fl_seterr(l->err, "%s/%s: must be {\"schemaVersion\",\"datasetVersion\",\"files\":[...]}", l->dir, rel);
		goto out;
	}
	if (check_doc_header(l, o, rel) < 0)
		goto out;
	l->ninv = json_array_size(files);
	l->inv = fl_xcalloc(l->ninv ? l->ninv : 1, sizeof *l->inv);
	for (size_t i = 0; i < l->ninv; i++) {
		json_t *v = json_array_get(files, i);
		json_t *path = json_object_get(v, "path");
		json_t *bytes = json_object_get(v, "bytes");
		json_t *sha = json_object_get(v, "sha256");
		if (!json_is_object(v) || json_object_size(v) != 3 || !json_is_string(path) ||
		    !json_is_integer(bytes) || json_integer_value(bytes) < 0 ||
		    !json_is_string(sha) || !is_hex64(json_string_value(sha))) {
			l->ninv = i;
			fl_seterr(l->err, "%s/%s: files[%zu]: must be {\"path\",\"bytes\",\"sha256\"} (sha256: 64 lowercase hex)",
				  l->dir, rel, i);
			goto out;
		}
		const char *r = rel_of(json_string_value(path));
		size_t prev;
		if (!safe_rel(r) || strcmp(r, "manifest.json") == 0 || strcmp(r, rel) == 0) {
			l->ninv = i;
			fl_seterr(l->err, "%s/%s: files[%zu].path: '%s' is not a path inside the data set",
				  l->dir, rel, i, json_string_value(path));
			goto out;
		}
		if (fl_strmap_get(&l->inv_ix, r, &prev)) {
			l->ninv = i;
			fl_seterr(l->err, "%s/%s: files[%zu].path: %s is listed twice", l->dir, rel, i, r);
			goto out;
		}
		l->inv[i].rel = fl_xstrdup(r);
		l->inv[i].bytes = (long long)json_integer_value(bytes);
		memcpy(l->inv[i].sha, json_string_value(sha), 65);
		fl_strmap_put(&l->inv_ix, r, i);
	}
	rc = 0;
out:
	json_decref(o);
	return rc;
}

/* Every listed file not read for the records (search/..., index.json,
 * repos.json): present, of its size and sha256. */
static int check_rest_of_inventory(struct ld *l)
{
	for (size_t i = 0; i < l->ninv; i++) {
		const inv_item *it = &l->inv[i];
		if (it->used)
			continue;
		struct stat sb;
		int fd = pub_open_beneath(l->rootfd, l->dir, it->rel, &sb, l->err);
		if (fd < 0) {
			if (errno == ENOENT)
				fl_seterr(l->err, "%s/%s: listed in inventory.json but missing", l->dir, it->rel);
			return -1;
		}
		/* the size first (a sparse terabyte is not read), then the
		 * hash streamed: these files are not parsed, so never held */
		char hex[65];
		uint64_t n = 0;
		int rc = 0;
		if ((uint64_t)sb.st_size != (uint64_t)it->bytes)
			rc = fl_seterr(l->err, "%s/%s: bytes: is %llu, inventory.json says %lld (truncated or changed)",
				       l->dir, it->rel, (unsigned long long)sb.st_size, it->bytes);
		else if ((uint64_t)sb.st_size > PUB_FILE_MAX)
			rc = fl_seterr(l->err, "%s/%s: %llu bytes, over the limit of %llu bytes of a data set file",
				       l->dir, it->rel, (unsigned long long)sb.st_size,
				       (unsigned long long)PUB_FILE_MAX);
		else if (pub_sha256_fd_hex(fd, (uint64_t)it->bytes, hex, &n) < 0 || n != (uint64_t)it->bytes)
			rc = fl_seterr(l->err, "%s/%s: %s", l->dir, it->rel,
				       n != (uint64_t)it->bytes ? "changed while read" : strerror(errno));
		close(fd);
		if (rc < 0)
			return -1;
		if (strcmp(hex, it->sha) != 0)
			return fl_seterr(l->err, "%s/%s: sha256: is %s, inventory.json says %s",
					 l->dir, it->rel, hex, it->sha);
	}
	return 0;
}

/* Every *.json under repos/ must be a repository of repos.json. */
static int check_repo_files(struct ld *l, fl_strmap *repos)
{
	DIR *d = open_dir(l, "repos");
	if (!d)
		return 0;
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *od = fl_xasprintf("%s/repos/%s", l->dir, de->d_name);
		char *rel = fl_xasprintf("repos/%s", de->d_name);
		DIR *d2 = open_dir(l, rel);
		free(rel);
		struct dirent *de2;
		while (rc == 0 && d2 && (de2 = readdir(d2))) {
			if (de2->d_name[0] == '.' || !fl_str_ends(de2->d_name, ".json"))
				continue;
			char *repo = fl_xasprintf("%s/%.*s", de->d_name,
						  (int)(strlen(de2->d_name) - 5), de2->d_name);
			size_t ix;
			if (!fl_strmap_get(repos, repo, &ix))
				rc = fl_seterr(l->err, "%s/%s.json: records of repository %s, which is not in repos.json",
					       od, repo + strlen(de->d_name) + 1, repo);
			free(repo);
		}
		if (d2)
			closedir(d2);
		free(od);
	}
	closedir(d);
	return rc;
}

static int check_error_files(struct ld *l, fl_strmap *ids)
{
	char *ed = path_of(l, "errors");
	DIR *d = open_dir(l, "errors");
	if (!d) {
		free(ed);
		return 0;
	}
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		size_t n = strlen(de->d_name), ix;
		char id[32] = "";
		if (n == 21 && fl_str_ends(de->d_name, ".json"))
			memcpy(id, de->d_name, 16);
		if (!id[0] || !fl_strmap_get(ids, id, &ix))
			rc = fl_seterr(l->err, "%s/%s: not the record of any repos/{owner}/{name}.json", ed, de->d_name);
	}
	closedir(d);
	free(ed);
	return rc;
}

/* errors/{id}.json holds e: byte for byte what an export writes, else
 * (slow path) the same record as JSON values, naming the field that
 * differs. */
static int check_errors_file(const struct ld *l, const fl_entry *e, fl_err *err)
{
	char rel[64];
	snprintf(rel, sizeof rel, "errors/%s.json", e->id);
	size_t len;
	char *data = read_listed(l, rel, &len, err);
	if (!data)
		return -1;
	char *r = fl_entry_to_json(e, false);
	fl_buf want = {0};
	fl_buf_puts(&want, "{\"record\":");
	fl_buf_puts(&want, r);
	fl_buf_printf(&want, ",\"datasetVersion\":\"%s\"}", l->version);
	bool same = want.n == len && memcmp(want.s, data, len) == 0;
	free(r);
	fl_buf_free(&want);
	if (same) {
		free(data);
		return 0;
	}
	fl_err e2;
	json_t *o = fl_json_parse(data, len, &e2);
	free(data);
	if (!o)
		return fl_seterr(err, "%s/%s: %s", l->dir, rel, e2.msg);
	int rc = 0;
	json_t *rec = json_object_get(o, "record");
	json_t *dv = json_object_get(o, "datasetVersion");
	json_t *mine = fl_entry_to_jobj(e);
	if (!json_is_object(o) || json_object_size(o) != 2 || !rec)
		rc = fl_seterr(err, "%s/%s: must be {\"record\": ErrorEntry, \"datasetVersion\": ...}", l->dir, rel);
	else if (!json_is_string(dv) || strcmp(json_string_value(dv), l->version) != 0)
		rc = fl_seterr(err, "%s/%s: datasetVersion: does not match manifest.json (%s)", l->dir, rel, l->version);
	else if (!json_equal(rec, mine)) {
		const char *key, *bad = "record";
		json_t *v;
		if (json_is_object(rec)) {
			json_object_foreach(mine, key, v)
				if (!json_equal(v, json_object_get(rec, key))) {
					bad = key;
					break;
				}
		}
		rc = fl_seterr(err, "%s/%s: record.%s: differs from the record in repos/%s.json",
			       l->dir, rel, bad, e->repo);
	}
	json_decref(mine);
	json_decref(o);
	return rc;
}

/* ---- the repository files, on every core ------------------------------------- */

typedef struct repo_job {
	struct ld *l;
	pub_dataset *out;
	atomic_size_t next;
	int *bad;            /* per repository */
	fl_err *errs;        /* per repository */
} repo_job;

/* The records of repos/{owner}/{name}.json: the fast reader, else jansson
 * for the whole file (which names a problem). */
static int read_records(struct ld *l, pub_repo_set *rs, const char *rel,
			const char *data, size_t len, fl_err *err)
{
	const char *p = data, *end = data + len;
	size_t cap = 0;
	bool fast = true;
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	if (p < end && *p == '[') {
		p++;
		while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
			p++;
		if (p < end && *p == ']')
			p++;
		else
			for (;;) {
				if (rs->n == cap) {
					cap = cap ? cap * 2 : 256;
					rs->entries = fl_xrealloc(rs->entries, cap * sizeof *rs->entries);
				}
				if (!pub_entry_read(&p, end, &rs->entries[rs->n])) {
					fast = false;
					break;
				}
				rs->n++;
				while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
					p++;
				if (p < end && *p == ',') {
					p++;
					continue;
				}
				if (p < end && *p == ']')
					p++;
				else
					fast = false;
				break;
			}
		while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
			p++;
		fast = fast && p == end;
	} else {
		fast = false;
	}
	if (fast) {
		for (size_t k = 0; k < rs->n && !l->trusted; k++) {
			fl_err e2;
			if (fl_entry_validate(&rs->entries[k], &e2) < 0)
				return fl_seterr(err, "%s/%s: [%zu] %s", l->dir, rel, k, e2.msg);
		}
		return 0;
	}
	for (size_t k = 0; k < rs->n; k++)
		fl_entry_free(&rs->entries[k]);
	rs->n = 0;
	fl_err e2;
	json_t *arr = fl_json_parse(data, len, &e2);
	if (!arr)
		return fl_seterr(err, "%s/%s: %s", l->dir, rel, e2.msg);
	if (!json_is_array(arr)) {
		json_decref(arr);
		return fl_seterr(err, "%s/%s: must be an array of ErrorEntry", l->dir, rel);
	}
	size_t n = json_array_size(arr);
	rs->entries = fl_xrealloc(rs->entries, (n ? n : 1) * sizeof *rs->entries);
	for (size_t k = 0; k < n; k++) {
		if (fl_entry_from_jobj(json_array_get(arr, k), &rs->entries[k], !l->trusted, &e2) < 0) {
			json_decref(arr);
			return fl_seterr(err, "%s/%s: [%zu] %s", l->dir, rel, k, e2.msg);
		}
		rs->n = k + 1;
	}
	json_decref(arr);
	return 0;
}

static int check_repo(struct ld *l, pub_repo_set *rs, fl_err *err)
{
	char *rel = fl_xasprintf("repos/%s.json", rs->repo.repo);
	size_t len;
	char *data = read_listed(l, rel, &len, err);
	int rc = data ? read_records(l, rs, rel, data, len, err) : -1;
	free(data);
	fl_strmap ids = {0}, slugs = {0};
	for (size_t k = 0; rc == 0 && k < rs->n; k++) {
		const fl_entry *e = &rs->entries[k];
		size_t prev;
		if (strcmp(e->repo, rs->repo.repo) != 0)
			rc = fl_seterr(err, "%s/%s: record %s: repo: is %s, which is not this file's repository%s",
				       l->dir, rel, e->id, e->repo,
				       fl_strmap_get(l->repo_ix, e->repo, &prev) ? "" : " (and not in repos.json)");
		else if (fl_strmap_get(&ids, e->id, &prev))
			rc = fl_seterr(err, "%s/%s: record %s: id: duplicate id (also in repos/%s.json)",
				       l->dir, rel, e->id, rs->repo.repo);
		else if (fl_strmap_get(&slugs, e->slug, &prev))
			rc = fl_seterr(err, "%s/%s: record %s: slug: '%s' is used twice in the repository",
				       l->dir, rel, e->id, e->slug);
		fl_strmap_put(&ids, e->id, k);
		fl_strmap_put(&slugs, e->slug, k);
	}
	if (rc == 0 && rs->repo.error_count != (long long)rs->n)
		rc = fl_seterr(err, "%s/repos.json: repo %s: errorCount: is %lld, but %s holds %zu records",
			       l->dir, rs->repo.repo, rs->repo.error_count, rel, rs->n);
	fl_strmap_free(&ids);
	fl_strmap_free(&slugs);
	free(rel);
	return rc;
}

static void *repo_worker(void *arg)
{
	repo_job *j = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&j->next, 1);
		if (i >= j->out->nrepos)
			break;
		j->bad[i] = check_repo(j->l, &j->out->repos[i], &j->errs[i]) < 0;
	}
	return NULL;
}

/* errors/{id}.json of every record: chunks handed out in order; a worker
 * stops taking chunks past the first failure, so the failure reported is
 * always the first in data set order. */
typedef struct err_job {
	struct ld *l;
	const fl_entry **all;
	size_t n;
	atomic_size_t next;
	pthread_mutex_t mu;
	size_t fail_at;      /* first failing record, n when none */
	fl_err err;
} err_job;

#define ERR_CHUNK 64

static void *errors_worker(void *arg)
{
	err_job *j = arg;
	for (;;) {
		size_t from = atomic_fetch_add(&j->next, ERR_CHUNK);
		pthread_mutex_lock(&j->mu);
		bool stop = from >= j->n || from > j->fail_at;
		pthread_mutex_unlock(&j->mu);
		if (stop)
			break;
		for (size_t i = from; i < from + ERR_CHUNK && i < j->n; i++) {
			fl_err e2;
			if (check_errors_file(j->l, j->all[i], &e2) < 0) {
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
	return NULL;
}

static void run_workers(void *(*fn)(void *), void *arg, size_t n)
{
	size_t nt = pub_threads(n);
	pthread_t th[4];
	size_t started = 0;
	for (size_t t = 1; t < nt; t++)
		if (pthread_create(&th[started], NULL, fn, arg) == 0)
			started++;
	fn(arg);
	for (size_t t = 0; t < started; t++)
		pthread_join(th[t], NULL);
}

/* index.json: byte for byte what an export writes, else (slow path) the
 * same entries as JSON values, naming the first that differs. */
static int check_index(struct ld *l, const pub_dataset *out)
{
	fl_buf want = {0};
	fl_buf_printf(&want, "{\"schemaVersion\":%d,\"datasetVersion\":\"%s\",\"errors\":[",
		      FL_SCHEMA_VERSION, l->version);
	size_t k = 0;
	for (size_t i = 0; i < out->nrepos; i++)
		for (size_t j = 0; j < out->repos[i].n; j++, k++) {
			if (k)
				fl_buf_putc(&want, ',');
			pub_index_json(&want, &out->repos[i].entries[j]);
		}
	fl_buf_puts(&want, "]}");
	bool same = want.n == l->index_len && memcmp(want.s, l->index_data, want.n) == 0;
	fl_buf_free(&want);
	if (same)
		return 0;
	json_t *index = parse_json(l, "index.json", l->index_data, l->index_len);
	if (!index)
		return -1;
	int rc = -1;
	if (!json_is_object(index) || check_doc_header(l, index, "index.json") < 0)
		goto out;
	json_t *ie = json_object_get(index, "errors");
	if (!json_is_array(ie) || json_array_size(ie) != out->nerrors) {
		fl_seterr(l->err, "%s/index.json: errors: must list the %zu records", l->dir, out->nerrors);
		goto out;
	}
	k = 0;
	for (size_t i = 0; i < out->nrepos; i++)
		for (size_t j = 0; j < out->repos[i].n; j++, k++) {
			json_t *o = pub_index_obj(&out->repos[i].entries[j]);
			int eq = json_equal(o, json_array_get(ie, k));
			json_decref(o);
			if (!eq) {
				fl_seterr(l->err, "%s/index.json: errors[%zu]: does not match record %s",
					  l->dir, k, out->repos[i].entries[j].id);
				goto out;
			}
		}
	rc = 0;
out:
	json_decref(index);
	return rc;
}

static int load(const char *dir_in, pub_dataset *out, bool trusted, fl_err *err);

int pub_dataset_load(const char *dir, pub_dataset *out, fl_err *err)
{
	return load(dir, out, false, err);
}

int pub_dataset_load_trusted(const char *dir, pub_dataset *out, fl_err *err)
{
	return load(dir, out, true, err);
}

static int load(const char *dir_in, pub_dataset *out, bool trusted, fl_err *err)
{
	memset(out, 0, sizeof *out);
	struct ld l = {0};
	l.trusted = trusted;
	char *dir = fl_xstrdup(dir_in);
	size_t dn = strlen(dir);
	while (dn > 1 && dir[dn - 1] == '/')
		dir[--dn] = '\0';
	l.dir = dir;
	l.rootfd = -1;
	l.err = err;
	int rc = -1;
	json_t *repos = NULL;
	fl_strmap repo_ix = {0}, ids = {0};
	const fl_entry **all = NULL;
	/* the folder named may be a link; nothing in it is followed */
	l.rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l.rootfd < 0) {
		fl_seterr(err, "%s: no such data set folder", dir);
		goto out;
	}
	if (!trusted && pub_check_tree(l.rootfd, dir, "a data set", err) < 0)
		goto out;
	{
		size_t len;
		char *data = pub_read_beneath(l.rootfd, dir, "manifest.json", -1, NULL,
					      PUB_MANIFEST_MAX, &len, err);
		if (!data)
			goto out;
		l.manifest = parse_json(&l, "manifest.json", data, len);
		free(data);
	}
	if (!l.manifest || check_manifest(&l) < 0)
		goto out;
	if (!trusted && check_inventory(&l) < 0)
		goto out;
	snprintf(out->dataset_version, sizeof out->dataset_version, "%s", l.version);

	repos = parse_json(&l, "repos.json", l.repos_data, l.repos_len);
	if (!repos)
		goto out;
	if (!json_is_array(repos)) {
		fl_seterr(err, "%s/repos.json: must be an array of RepoEntry", dir);
		goto out;
	}
	out->nrepos = json_array_size(repos);
	out->repos = fl_xcalloc(out->nrepos ? out->nrepos : 1, sizeof *out->repos);
	for (size_t i = 0; i < out->nrepos; i++) {
		fl_err e2;
		if (fl_repo_from_jobj(json_array_get(repos, i), &out->repos[i].repo, &e2) < 0) {
			out->nrepos = i;
			fl_seterr(err, "%s/repos.json: [%zu] %s", dir, i, e2.msg);
			goto out;
		}
		const char *name = out->repos[i].repo.repo;
		size_t prev;
		if (fl_strmap_get(&repo_ix, name, &prev)) {
			out->nrepos = i + 1;
			fl_seterr(err, "%s/repos.json: [%zu] repo: %s is listed twice", dir, i, name);
			goto out;
		}
		const char *slash = strchr(name, '/');
		if (name[0] == '.' || !slash || slash[1] == '.') {
			out->nrepos = i + 1;
			fl_seterr(err, "%s/repos.json: [%zu] repo: '%s' is not usable as owner/name", dir, i, name);
			goto out;
		}
		fl_strmap_put(&repo_ix, name, i);
	}
	if (check_repo_files(&l, &repo_ix) < 0)
		goto out;
	l.repo_ix = &repo_ix;

	/* the repository files on every core; the first failure in order */
	{
		repo_job j = {.l = &l, .out = out};
		atomic_init(&j.next, 0);
		j.bad = fl_xcalloc(out->nrepos ? out->nrepos : 1, sizeof *j.bad);
		j.errs = fl_xcalloc(out->nrepos ? out->nrepos : 1, sizeof *j.errs);
		run_workers(repo_worker, &j, out->nrepos > 1 ? 64 : 1);
		int bad = 0;
		for (size_t i = 0; i < out->nrepos && !bad; i++)
			if (j.bad[i]) {
				*err = j.errs[i];
				bad = 1;
			}
		free(j.bad);
		free(j.errs);
		if (bad)
			goto out;
	}
	for (size_t i = 0; i < out->nrepos; i++) {
		pub_repo_set *rs = &out->repos[i];
		for (size_t k = 0; k < rs->n; k++) {
			size_t prev;
			const fl_entry *e = &rs->entries[k];
			if (fl_strmap_get(&ids, e->id, &prev)) {
				fl_seterr(err, "%s/repos/%s.json: record %s: id: duplicate id (also in repos/%s.json)",
					  dir, rs->repo.repo, e->id, out->repos[prev].repo.repo);
				goto out;
			}
			fl_strmap_put(&ids, e->id, i);
		}
		out->nerrors += rs->n;
	}
	if (trusted) {
		rc = 0;
		goto out;
	}

	all = fl_xcalloc(out->nerrors ? out->nerrors : 1, sizeof *all);
	{
		size_t k = 0;
		for (size_t i = 0; i < out->nrepos; i++)
			for (size_t j = 0; j < out->repos[i].n; j++)
				all[k++] = &out->repos[i].entries[j];
		err_job j = {.l = &l, .all = all, .n = out->nerrors, .fail_at = out->nerrors};
		atomic_init(&j.next, 0);
		pthread_mutex_init(&j.mu, NULL);
		run_workers(errors_worker, &j, out->nerrors);
		pthread_mutex_destroy(&j.mu);
		if (j.fail_at < out->nerrors) {
			*err = j.err;
			goto out;
		}
	}
	if (check_error_files(&l, &ids) < 0 || check_index(&l, out) < 0)
		goto out;
	json_t *counts = json_object_get(l.manifest, "counts");
	if ((size_t)json_integer_value(json_object_get(counts, "repos")) != out->nrepos ||
	    (size_t)json_integer_value(json_object_get(counts, "errors")) != out->nerrors) {
		fl_seterr(err, "%s/manifest.json: counts: says %lld repos and %lld errors, the data set has %zu and %zu",
			  dir, (long long)json_integer_value(json_object_get(counts, "repos")),
			  (long long)json_integer_value(json_object_get(counts, "errors")),
			  out->nrepos, out->nerrors);
		goto out;
	}
	if (check_rest_of_inventory(&l) < 0)
		goto out;
	out->files = fl_xcalloc(l.ninv + 2, sizeof *out->files);
	out->files[out->nfiles++] = fl_xstrdup("manifest.json");
	out->files[out->nfiles++] = fl_xstrdup("inventory.json");
	for (size_t i = 0; i < l.ninv; i++)
		out->files[out->nfiles++] = fl_xstrdup(l.inv[i].rel);
	rc = 0;
out:
	if (rc < 0)
		pub_dataset_free(out);
	free(all);
	json_decref(l.manifest);
	json_decref(repos);
	free(l.index_data);
	free(l.repos_data);
	free(l.inv_data);
	for (size_t i = 0; i < l.ninv; i++)
		free(l.inv[i].rel);
	free(l.inv);
	fl_strmap_free(&l.inv_ix);
	fl_strmap_free(&repo_ix);
	fl_strmap_free(&ids);
	if (l.rootfd >= 0)
		close(l.rootfd);
	free(dir);
	return rc;
}

char *pub_dataset_read(const char *dir, const char *rel, uint64_t max, size_t *len,
		       fl_err *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fl_seterr(err, "%s: no such data set folder", dir);
		return NULL;
	}
	char *data = pub_read_beneath(fd, dir, rel, -1, NULL, max, len, err);
	close(fd);
	return data;
}

void pub_dataset_free(pub_dataset *d)
{
	for (size_t i = 0; i < d->nrepos; i++) {
		for (size_t k = 0; k < d->repos[i].n; k++)
			fl_entry_free(&d->repos[i].entries[k]);
		free(d->repos[i].entries);
		fl_repo_free(&d->repos[i].repo);
	}
	free(d->repos);
	for (size_t i = 0; i < d->nfiles; i++)
		free(d->files[i]);
	free(d->files);
	memset(d, 0, sizeof *d);
}
