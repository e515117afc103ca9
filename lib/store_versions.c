/*
 * store_versions.c — the store's rows of a project's history (scan
 * --history): the repository's versions (repo_versions), the ids of the
 * blobs its records are in (version_blobs, numbered), and per record the
 * runs of versions it exists in (error_versions), packed in one blob per
 * record: per run, four unsigned LEB128 numbers: its first version minus
 * the end of the run before (the last version + 1; 0 for the first run),
 * its length minus 1, its line and its blob's number + 1 (0: not known, a
 * record imported from a data set).  A record of 19 runs
 * takes about 100 bytes.  And what a history scan that resumes reads
 * back: the key of the options it was made with (meta 'history/REPO'),
 * the blobs by number, each record's file and runs.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_internal.h"
#include "util.h"


static int need_tx(fl_store *st, fl_err *err)
{
	if (!st->in_tx)
		return fl_seterr(err, "store %s: changes must be made inside a transaction", st->path);
	return 0;
}

int fl_store_clear_versions(fl_store *st, const char *repo, fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	static const char *const sql[] = {
		"DELETE FROM repo_versions WHERE repo = ?1",
		"DELETE FROM version_blobs WHERE repo = ?1",
		"DELETE FROM meta WHERE key = 'history/' || ?1",
	};
	for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++) {
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(st->db, sql[i], -1, &s, NULL) != SQLITE_OK)
			return fl_store_sqlfail(st, err, "clearing versions");
		sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
		int rc = sqlite3_step(s);
		sqlite3_finalize(s);
		if (rc != SQLITE_DONE)
			return fl_store_sqlfail(st, err, "clearing versions");
	}
	return 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int put_blobs(fl_store *st, const char *repo, const char *const *blobs, size_t n,
		     fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "INSERT INTO version_blobs (repo, idx, oid) VALUES (?1, ?2, ?3)",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "writing versions");
	for (size_t i = 0; i < n; i++) {
		unsigned char oid[20];
		for (int b = 0; b < 20; b++) {
			int hi = hexval(blobs[i][2 * b]), lo = hi < 0 ? -1 : hexval(blobs[i][2 * b + 1]);
			if (hi < 0 || lo < 0) {
				sqlite3_finalize(s);
				return fl_seterr(err, "blob id %s: not 40 hex digits", blobs[i]);
			}
			oid[b] = (unsigned char)(hi << 4 | lo);
		}
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 2, (long long)i);
		sqlite3_bind_blob(s, 3, oid, 20, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE) {
			fl_store_sqlfail(st, err, "writing versions");
			sqlite3_finalize(s);
			return -1;
		}
	}
	sqlite3_finalize(s);
	return 0;
}

int fl_store_put_versions(fl_store *st, const char *repo, const fl_version *v, size_t n,
			  const char *const *blobs, size_t nblobs, fl_err *err)
{
	if (fl_store_clear_versions(st, repo, err) < 0)
		return -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "INSERT INTO repo_versions (repo, seq, name, sha) VALUES (?1, ?2, ?3, ?4)",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "writing versions");
	for (size_t i = 0; i < n; i++) {
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 2, (long long)i);
		sqlite3_bind_text(s, 3, v[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, v[i].sha, -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE) {
			fl_store_sqlfail(st, err, "writing versions");
			sqlite3_finalize(s);
			return -1;
		}
	}
	sqlite3_finalize(s);
	return put_blobs(st, repo, blobs, nblobs, err);
}

static void put_uleb(fl_buf *b, unsigned long long v)
{
	do {
		unsigned char c = v & 0x7f;
		v >>= 7;
		fl_buf_putc(b, (char)(v ? c | 0x80 : c));
	} while (v);
}

/* false at the end of p..end or on a number that does not end */
static bool get_uleb(const unsigned char **p, const unsigned char *end, unsigned long long *v)
{
	*v = 0;
	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		unsigned char c = *(*p)++;
		*v |= (unsigned long long)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
	}
	return false;
}

int fl_store_put_record_runs(fl_store *st, const char *const *ids,
			     const fl_version_run *const *runs, const size_t *nruns,
			     size_t n, fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "INSERT OR REPLACE INTO error_versions (error_id, first_seq, last_seq, runs)"
			       " VALUES (?1, ?2, ?3, ?4)", -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "writing a record's versions");
	fl_buf b = {0};
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (!nruns[i])
			continue;
		fl_buf_reset(&b);
		int end = 0;
		for (size_t k = 0; k < nruns[i]; k++) {
			const fl_version_run *r = &runs[i][k];
			if (r->first < end || r->last < r->first || r->line < 0 || r->blobno < -1) {
				rc = fl_seterr(err, "record %s: its runs of versions are out of order",
					       ids[i]);
				break;
			}
			put_uleb(&b, (unsigned long long)(r->first - end));
			put_uleb(&b, (unsigned long long)(r->last - r->first));
			put_uleb(&b, (unsigned long long)r->line);
			put_uleb(&b, (unsigned long long)(r->blobno + 1));
			end = r->last + 1;
		}
		if (rc)
			break;
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, ids[i], -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 2, runs[i][0].first);
		sqlite3_bind_int(s, 3, runs[i][nruns[i] - 1].last);
		sqlite3_bind_blob(s, 4, b.s, (int)b.n, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = fl_store_sqlfail(st, err, "writing a record's versions");
	}
	fl_buf_free(&b);
	sqlite3_finalize(s);
	return rc;
}

/* A record's packed runs; false when they are damaged. */
static bool decode_runs(const void *blob, size_t len, fl_version_run **runs, size_t *n)
{
	const unsigned char *p = blob, *end = p + len;
	size_t cap = 0;
	unsigned long long next = 0;
	*runs = NULL;
	*n = 0;
	while (p && p < end) {
		unsigned long long f, l, line, b;
		if (!get_uleb(&p, end, &f) || !get_uleb(&p, end, &l) || !get_uleb(&p, end, &line) ||
		    !get_uleb(&p, end, &b) || f > INT_MAX || l > INT_MAX || line > INT_MAX ||
		    b > INT_MAX || next + f + l > INT_MAX)
			return false;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			*runs = fl_xrealloc(*runs, cap * sizeof **runs);
		}
		fl_version_run *r = &(*runs)[(*n)++];
		memset(r, 0, sizeof *r);
		r->first = (int)(next + f);
		r->last = (int)(next + f + l);
		r->line = (int)line;
		r->blobno = (int)b - 1;
		next = (unsigned long long)r->last + 1;
	}
	return *n > 0;
}

int fl_store_get_record_versions(fl_store *st, const char *repo, const char *id,
				 fl_record_versions *out, fl_err *err)
{
	memset(out, 0, sizeof *out);
	/* statements kept prepared: a lookup reads the versions of each
	 * of its answers */
	sqlite3_stmt *s = fl_store_stmt(st, STMT_REC_RUNS,
					"SELECT runs FROM error_versions WHERE error_id = ?1", err);
	if (!s)
		return -1;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	bool damaged = false;
	if (rc == SQLITE_ROW)
		damaged = !decode_runs(sqlite3_column_blob(s, 0), (size_t)sqlite3_column_bytes(s, 0),
				       &out->runs, &out->nruns);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return fl_store_sqlfail(st, err, "reading a record's versions");
	if (damaged || !out->nruns) {
		fl_record_versions_free(out);
		return fl_seterr(err, "store %s: record %s: its versions are damaged", st->path, id);
	}
	s = fl_store_stmt(st, STMT_REPO_VERSIONS,
			  "SELECT name, sha FROM repo_versions WHERE repo = ?1 ORDER BY seq", err);
	if (!s) {
		fl_record_versions_free(out);
		return -1;
	}
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	size_t cap = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (out->nversions == cap) {
			cap = cap ? cap * 2 : 64;
			out->versions = fl_xrealloc(out->versions, cap * sizeof *out->versions);
		}
		fl_version *v = &out->versions[out->nversions++];
		const char *name = (const char *)sqlite3_column_text(s, 0);
		const char *sha = (const char *)sqlite3_column_text(s, 1);
		v->name = fl_xstrdup(name ? name : "");
		snprintf(v->sha, sizeof v->sha, "%s", sha ? sha : "");
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		fl_record_versions_free(out);
		return fl_store_sqlfail(st, err, "reading versions");
	}
	s = fl_store_stmt(st, STMT_VERSION_BLOB,
			  "SELECT oid FROM version_blobs WHERE repo = ?1 AND idx = ?2", err);
	if (!s) {
		fl_record_versions_free(out);
		return -1;
	}
	for (size_t k = 0; k < out->nruns; k++) {
		fl_version_run *r = &out->runs[k];
		if (r->blobno < 0)
			continue; /* not known: blob "" */
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 2, r->blobno);
		if (sqlite3_step(s) != SQLITE_ROW || sqlite3_column_bytes(s, 0) != 20) {
			damaged = true;
			break;
		}
		const unsigned char *oid = sqlite3_column_blob(s, 0);
		static const char hx[] = "0123456789abcdef";
		for (int b = 0; b < 20; b++) {
			r->blob[2 * b] = hx[oid[b] >> 4];
			r->blob[2 * b + 1] = hx[oid[b] & 15];
		}
		r->blob[40] = '\0';
	}
	sqlite3_reset(s);
	if (damaged) {
		fl_record_versions_free(out);
		return fl_seterr(err, "store %s: record %s: a blob of its versions is missing",
				 st->path, id);
	}
	/* runs that name a version the repository no longer lists: damaged */
	for (size_t k = 0; k < out->nruns; k++)
		if (out->runs[k].first < 0 || out->runs[k].last < out->runs[k].first ||
		    (size_t)out->runs[k].last >= out->nversions) {
			fl_record_versions_free(out);
			return fl_seterr(err, "store %s: record %s: its versions do not match its repository's",
					 st->path, id);
		}
	return 1;
}

void fl_record_versions_free(fl_record_versions *v)
{
	for (size_t i = 0; i < v->nversions; i++)
		free(v->versions[i].name);
	free(v->versions);
	free(v->runs);
	memset(v, 0, sizeof *v);
}

/* name is the version's name, or its number: "2.39.5" for "v2.39.5" */
static bool names_version(const char *tag, const char *name)
{
	if (strcmp(tag, name) == 0)
		return true;
	size_t tl = strlen(tag), nl = strlen(name);
	if (nl == 0 || tl <= nl || strcmp(tag + tl - nl, name) != 0)
		return false;
	/* what comes before the number holds no digit, and is no part of
	 * a number: "v" or "release-" */
	for (size_t i = 0; i < tl - nl; i++)
		if (tag[i] >= '0' && tag[i] <= '9')
			return false;
	return name[0] >= '0' && name[0] <= '9';
}

int fl_record_versions_find(const fl_record_versions *v, const char *name, int *version)
{
	*version = -1;
	for (size_t i = 0; i < v->nversions; i++) {
		if (!names_version(v->versions[i].name, name))
			continue;
		*version = (int)i;
		for (size_t k = 0; k < v->nruns; k++)
			if (v->runs[k].first <= (int)i && (int)i <= v->runs[k].last)
				return (int)k;
		return -1;
	}
	return -1;
}

int fl_store_get_versions(fl_store *st, const char *repo, fl_version **v, size_t *n,
			  fl_err *err)
{
	*v = NULL;
	*n = 0;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT name, sha FROM repo_versions WHERE repo = ?1 ORDER BY seq",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading versions");
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			*v = fl_xrealloc(*v, cap * sizeof **v);
		}
		fl_version *x = &(*v)[(*n)++];
		const char *name = (const char *)sqlite3_column_text(s, 0);
		const char *sha = (const char *)sqlite3_column_text(s, 1);
		x->name = fl_xstrdup(name ? name : "");
		snprintf(x->sha, sizeof x->sha, "%s", sha ? sha : "");
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		fl_versions_free(*v, *n);
		*v = NULL;
		*n = 0;
		return fl_store_sqlfail(st, err, "reading versions");
	}
	return 0;
}

void fl_versions_free(fl_version *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

int fl_store_each_record_runs(fl_store *st, const char *repo, fl_runs_cb cb, void *ud,
			      fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT v.error_id, v.runs FROM error_versions v JOIN errors e"
			       " ON e.id = v.error_id WHERE e.repo = ?1 ORDER BY v.error_id",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading versions");
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	int rc, out = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 0);
		fl_version_run *runs;
		size_t n;
		if (!decode_runs(sqlite3_column_blob(s, 1), (size_t)sqlite3_column_bytes(s, 1), &runs,
				 &n)) {
			free(runs);
			out = fl_seterr(err, "store %s: record %s: its versions are damaged", st->path,
					id ? id : "?");
			break;
		}
		int stop = cb(id ? id : "", runs, n, ud);
		free(runs);
		if (stop)
			break;
	}
	if (out == 0 && rc != SQLITE_ROW && rc != SQLITE_DONE)
		out = fl_store_sqlfail(st, err, "reading versions");
	sqlite3_finalize(s);
	return out;
}

int fl_store_has_versions(fl_store *st, fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM error_versions LIMIT 1", -1, &s, NULL) !=
	    SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading versions");
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fl_store_sqlfail(st, err, "reading versions");
	return rc == SQLITE_ROW;
}

int fl_store_history_get_key(fl_store *st, const char *repo, char *key, size_t size,
			     fl_err *err)
{
	sqlite3_stmt *s;
	key[0] = '\0';
	if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = 'history/' || ?1", -1,
			       &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading versions");
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_text(s, 0))
		snprintf(key, size, "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fl_store_sqlfail(st, err, "reading versions");
	return 0;
}

int fl_store_history_put_key(fl_store *st, const char *repo, const char *key, fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "INSERT OR REPLACE INTO meta (key, value) VALUES ('history/' || ?1, ?2)",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "writing versions");
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, key, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : fl_store_sqlfail(st, err, "writing versions");
}

int fl_store_get_version_blobs(fl_store *st, const char *repo, char (**hex)[41], size_t *n,
			       fl_err *err)
{
	*hex = NULL;
	*n = 0;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT idx, oid FROM version_blobs WHERE repo = ?1 ORDER BY idx",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading versions");
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	static const char hx[] = "0123456789abcdef";
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (sqlite3_column_int64(s, 0) != (long long)*n || sqlite3_column_bytes(s, 1) != 20) {
			sqlite3_finalize(s);
			free(*hex);
			*hex = NULL;
			*n = 0;
			return fl_seterr(err, "store %s: %s: the blobs of its versions are damaged",
					 st->path, repo);
		}
		if (*n == cap) {
			cap = cap ? cap * 2 : 1024;
			*hex = fl_xrealloc(*hex, cap * sizeof **hex);
		}
		const unsigned char *oid = sqlite3_column_blob(s, 1);
		for (int b = 0; b < 20; b++) {
			(*hex)[*n][2 * b] = hx[oid[b] >> 4];
			(*hex)[*n][2 * b + 1] = hx[oid[b] & 15];
		}
		(*hex)[*n][40] = '\0';
		(*n)++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		free(*hex);
		*hex = NULL;
		*n = 0;
		return fl_store_sqlfail(st, err, "reading versions");
	}
	return 0;
}

int fl_store_each_history_record(fl_store *st, const char *repo, fl_hist_rec_cb cb, void *ud,
				 fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT e.id, e.file_path, e.slug, coalesce(e.error_code, e.error_message),"
			       " v.runs, e.language FROM errors e LEFT JOIN error_versions v"
			       " ON v.error_id = e.id WHERE e.repo = ?1 ORDER BY e.id",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading versions");
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	int rc, out = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 0);
		const char *path = (const char *)sqlite3_column_text(s, 1);
		const char *slug = (const char *)sqlite3_column_text(s, 2);
		const char *text = (const char *)sqlite3_column_text(s, 3);
		fl_version_run *runs = NULL;
		size_t n = 0;
		if (sqlite3_column_type(s, 4) != SQLITE_NULL &&
		    !decode_runs(sqlite3_column_blob(s, 4), (size_t)sqlite3_column_bytes(s, 4), &runs,
				 &n)) {
			free(runs);
			out = fl_seterr(err, "store %s: record %s: its versions are damaged", st->path,
					id ? id : "?");
			break;
		}
		const char *language = (const char *)sqlite3_column_text(s, 5);
		int stop = cb(id ? id : "", path ? path : "", language ? language : "",
			      slug ? slug : "", text ? text : "", runs, n, ud);
		free(runs);
		if (stop)
			break;
	}
	if (out == 0 && rc != SQLITE_ROW && rc != SQLITE_DONE)
		out = fl_store_sqlfail(st, err, "reading versions");
	sqlite3_finalize(s);
	return out;
}

/* "v1.0.0 - v1.1.0, v1.3.0 - HEAD": the record's versions, runs that
 * touch merged */
char *fl_record_versions_ranges(const fl_record_versions *v)
{
	size_t cap = 256, n = 0;
	char *s = fl_xmalloc(cap);
	s[0] = '\0';
	for (size_t k = 0; k < v->nruns;) {
		int first = v->runs[k].first, last = v->runs[k].last;
		for (k++; k < v->nruns && v->runs[k].first == last + 1; k++)
			last = v->runs[k].last;
		const char *a = v->versions[first].name, *b = v->versions[last].name;
		size_t need = strlen(a) + strlen(b) + 8;
		if (n + need >= cap) {
			cap = (n + need) * 2;
			s = fl_xrealloc(s, cap);
		}
		n += (size_t)(first == last ? snprintf(s + n, cap - n, "%s%s", n ? ", " : "", a)
			      : snprintf(s + n, cap - n, "%s%s - %s", n ? ", " : "", a, b));
	}
	return s;
}

bool fl_record_versions_at_head(const fl_record_versions *v)
{
	return v->nruns && v->runs[v->nruns - 1].last == (int)v->nversions - 1;
}
