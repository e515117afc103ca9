/*
 * persist.c — writing a scan result into the store: one transaction that
 * replaces the repository's records (new ones added, vanished ones removed),
 * keeps contentChangedAt of records whose content did not change, records
 * the other sites of duplicate records, and updates the repository row.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../json_internal.h"
#include "../parallel.h"
#include "persist.h"
#include "../store_internal.h"
#include "../strmap.h"
#include "../util.h"

/* The record's content: everything but the fields that change with every
 * scan (sha, times, permalink) and the source window, which changes with
 * any edit of the lines around the site.  The message, its location and
 * its explanation are the content.  Its digest (fl_digest) is that of the
 * record's compact JSON with those fields at their zero value (NULL, 0),
 * taken while the JSON itself is written.  It is kept as 'x' and 15 hex
 * digits; a digest of 16 hex digits is version 1 (FNV-1a, stores written
 * before version 2), compared by taking the record's version 1 digest. */
static struct {
	pthread_once_t once;
	uint64_t mask;
	int changed_at, source_code;
} volatile_fields = {PTHREAD_ONCE_INIT, 0, -1, -1};

static void volatile_fields_init(void)
{
	static const size_t offs[] = {
		offsetof(fl_entry, analyzed_sha), offsetof(fl_entry, analyzed_at),
		offsetof(fl_entry, content_changed_at), offsetof(fl_entry, github_url),
		offsetof(fl_entry, source_code), offsetof(fl_entry, source_code_start),
		offsetof(fl_entry, source_code_end),
	};
	for (size_t i = 0; i < fl_entry_nfields && i < 64; i++) {
		for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++)
			if (fl_entry_fields[i].off == offs[k])
				volatile_fields.mask |= 1ull << i;
		if (fl_entry_fields[i].off == offsetof(fl_entry, content_changed_at))
			volatile_fields.changed_at = (int)i;
		if (fl_entry_fields[i].off == offsetof(fl_entry, source_code))
			volatile_fields.source_code = (int)i;
	}
}

static uint64_t content_mask(int *changed_at, int *source_code)
{
	pthread_once(&volatile_fields.once, volatile_fields_init);
	*changed_at = volatile_fields.changed_at;
	*source_code = volatile_fields.source_code;
	return volatile_fields.mask;
}

/* a stored version 1 digest: 16 lowercase hex digits */
static bool digest_v1(const char *h)
{
	size_t i = 0;
	for (; h[i]; i++)
		if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f')))
			return false;
	return i == 16;
}

/* The record's JSON appended to b and its digest; with sc, *sc receives
 * where the sourceCode value is in it. */
static void encode_append(const fl_scan_writer *w, fl_entry *e, fl_buf *b, char hash[17],
			  int *state, fl_json_span *sc)
{
	int cca, src;
	uint64_t mask = content_mask(&cca, &src), h;
	size_t start = b->n;
	fl_json_span sp[2] = {{cca, 0, 0}, {src, 0, 0}};
	fl_entry_json_digest_append(b, e, mask, &h, sp, 2);
	static const char hexd[] = "0123456789abcdef";
	hash[0] = 'x'; /* and the top 60 bits in 15 hex digits */
	for (int k = 0; k < 15; k++)
		hash[1 + k] = hexd[(h >> (60 - 4 * k)) & 15];
	hash[16] = '\0';
	int st = w ? fl_sw_state(w, e, hash) : FL_SW_NEW;
	if (st == FL_SW_UNCHANGED && cca >= 0 &&
	    !fl_json_splice_str_inplace(b->s + start, sp[0].off, sp[0].len,
					e->content_changed_at)) {
		/* a stored time of another length: write the record again */
		b->n = start;
		uint64_t unused;
		char *json = fl_entry_to_json_digest(e, 0, &unused, &sp[1], 1);
		fl_buf_puts(b, json);
		free(json);
	}
	if (state)
		*state = st;
	if (sc)
		*sc = sp[1];
}

char *fl_sw_encode(const fl_scan_writer *w, fl_entry *e, char hash[17], int *state)
{
	fl_buf b = {0};
	encode_append(w, e, &b, hash, state, NULL);
	fl_buf_cstr(&b);
	return b.s;
}

size_t fl_sw_encode_slice(const fl_scan_writer *w, fl_entry *e, fl_buf *b, char hash[17],
			  int *state)
{
	size_t start = b->n;
	fl_buf_reserve(b, FL_BLOCK_SLICE_HDR);
	b->n += FL_BLOCK_SLICE_HDR;
	/* the window is in the block's segments: the JSON has null there
	 * (the digest leaves the window out either way) */
	char *window = e->source_code;
	e->source_code = NULL;
	fl_json_span sc;
	encode_append(w, e, b, hash, state, &sc);
	e->source_code = window;
	bool has = e->source_code_start > 0 && e->source_code_end >= e->source_code_start;
	char *h = b->s + start;
	fl_put_u32(h, has ? (uint32_t)sc.off : FL_BLOCK_NO_WINDOW);
	fl_put_u32(h + 4, has ? (uint32_t)e->source_code_start : 0);
	fl_put_u32(h + 8, has ? (uint32_t)e->source_code_end : 0);
	return b->n - start;
}

void fl_sw_block_windows(fl_buf *raw, const char *text, size_t len, const size_t *starts,
			 const int *wstart, const int *wend, size_t n)
{
	fl_buf_put(raw, FL_BLOCK_MAGIC, FL_BLOCK_MAGIC_LEN);
	size_t count_at = raw->n;
	fl_buf_put(raw, "\0\0\0\0", 4);
	uint32_t nseg = 0;
	for (size_t k = 0; k < n;) {
		if (wstart[k] <= 0) {
			k++;
			continue;
		}
		/* windows in line order: merge those that overlap or touch */
		int s = wstart[k], e = wend[k];
		for (k++; k < n; k++) {
			if (wstart[k] <= 0)
				continue;
			if (wstart[k] > e + 1)
				break;
			if (wstart[k] < s) /* not in line order: still covered */
				s = wstart[k];
			if (wend[k] > e)
				e = wend[k];
		}
		size_t from = starts[s - 1], to = starts[e];
		if (to > len)
			to = len;
		char h[12];
		fl_put_u32(h, (uint32_t)s);
		fl_put_u32(h + 4, (uint32_t)(e - s + 1));
		fl_put_u32(h + 8, (uint32_t)(to - from));
		fl_buf_put(raw, h, sizeof h);
		fl_buf_put(raw, text + from, to - from);
		nseg++;
	}
	fl_put_u32(raw->s + count_at, nseg);
}

struct fl_scan_writer {
	fl_store *st;
	fl_strmap map;   /* id -> index in hash/changed_at */
	char **hash;
	char **changed_at;
	size_t n;
	long long seen;  /* records of the old set met again, or kept */
	char **kept_slugs; /* the slugs of the records kept (fl_sw_begin) */
	size_t nkept;
};

static int load_old(fl_scan_writer *w, const char *repo, fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(w->st->db,
			       "SELECT id, content_hash, content_changed_at FROM errors WHERE repo = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_seterr(err, "store %s: %s", w->st->path, sqlite3_errmsg(w->st->db));
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	int rc;
	size_t cap = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 0);
		const char *hash = (const char *)sqlite3_column_text(s, 1);
		const char *at = (const char *)sqlite3_column_text(s, 2);
		if (!id || !at)
			continue;
		if (w->n == cap) {
			cap = cap ? cap * 2 : 256;
			w->hash = fl_xrealloc(w->hash, cap * sizeof *w->hash);
			w->changed_at = fl_xrealloc(w->changed_at, cap * sizeof *w->changed_at);
		}
		/* rows written before digests existed compare as changed */
		w->hash[w->n] = fl_xstrdup(hash ? hash : "");
		w->changed_at[w->n] = fl_xstrdup(at);
		fl_strmap_put(&w->map, id, w->n);
		w->n++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return fl_seterr(err, "store %s: %s", w->st->path, sqlite3_errmsg(w->st->db));
	return 0;
}

static void sw_free(fl_scan_writer *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->hash[i]);
		free(w->changed_at[i]);
	}
	free(w->hash);
	free(w->changed_at);
	for (size_t i = 0; i < w->nkept; i++)
		free(w->kept_slugs[i]);
	free(w->kept_slugs);
	fl_strmap_free(&w->map);
	free(w);
}

/* The slugs of the stored records of the files in keep (a JSON array),
 * which stay: counted as met again (not removed). */
static int load_kept(fl_scan_writer *w, const char *repo, const char *keep, bool by_id,
		     fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(w->st->db,
			       by_id ? "SELECT slug FROM errors WHERE repo = ?1 AND id IN"
				       " (SELECT value FROM json_each(?2))"
				     : "SELECT slug FROM errors WHERE repo = ?1 AND file_path IN"
				       " (SELECT value FROM json_each(?2))",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_seterr(err, "store %s: %s", w->st->path, sqlite3_errmsg(w->st->db));
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, keep, -1, SQLITE_STATIC);
	int rc;
	size_t cap = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *slug = (const char *)sqlite3_column_text(s, 0);
		if (w->nkept == cap) {
			cap = cap ? cap * 2 : 16;
			w->kept_slugs = fl_xrealloc(w->kept_slugs, cap * sizeof *w->kept_slugs);
		}
		w->kept_slugs[w->nkept++] = fl_xstrdup(slug ? slug : "");
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return fl_seterr(err, "store %s: %s", w->st->path, sqlite3_errmsg(w->st->db));
	w->seen += (long long)w->nkept;
	return 0;
}

static int sw_begin(fl_store *st, const char *repo, const char *const *keep, size_t nkeep,
		    bool by_id, fl_scan_writer **out, fl_err *err)
{
	fl_scan_writer *w = fl_xcalloc(1, sizeof *w);
	w->st = st;
	if (fl_store_begin(st, err) < 0) {
		sw_free(w);
		return -1;
	}
	int rc = load_old(w, repo, err);
	if (rc == 0 && nkeep) {
		fl_buf b = {0};
		fl_buf_putc(&b, '[');
		for (size_t i = 0; i < nkeep; i++) {
			if (i)
				fl_buf_putc(&b, ',');
			fl_json_put_str(&b, keep[i], strlen(keep[i]));
		}
		fl_buf_putc(&b, ']');
		fl_buf_cstr(&b);
		rc = load_kept(w, repo, b.s, by_id, err);
		if (rc == 0)
			rc = by_id ? fl_store_clear_repo_except_ids(st, repo, b.s, err)
				   : fl_store_clear_repo_except(st, repo, b.s, err);
		fl_buf_free(&b);
	} else if (rc == 0) {
		rc = fl_store_clear_repo(st, repo, err);
	}
	/* the versions of a history scan: a scan writes its own, or none */
	if (rc == 0)
		rc = fl_store_clear_versions(st, repo, err);
	if (rc < 0) {
		fl_sw_abort(w);
		return -1;
	}
	*out = w;
	return 0;
}

int fl_sw_begin(fl_store *st, const char *repo, const char *const *keep, size_t nkeep,
		fl_scan_writer **out, fl_err *err)
{
	return sw_begin(st, repo, keep, nkeep, false, out, err);
}

int fl_sw_begin_keep_ids(fl_store *st, const char *repo, const char *const *ids, size_t n,
			 fl_scan_writer **out, fl_err *err)
{
	return sw_begin(st, repo, ids, n, true, out, err);
}

size_t fl_sw_kept(const fl_scan_writer *w, char *const **slugs)
{
	*slugs = w->kept_slugs;
	return w->nkept;
}

int fl_sw_state(const fl_scan_writer *w, fl_entry *e, const char *hash)
{
	size_t k;
	if (!fl_strmap_get(&w->map, e->id, &k))
		return FL_SW_NEW;
	if (strcmp(hash, w->hash[k]) != 0) {
		if (!digest_v1(w->hash[k]))
			return FL_SW_CHANGED;
		int cca, src;
		char v1[17];
		snprintf(v1, sizeof v1, "%016llx",
			 (unsigned long long)fl_entry_digest_v1(e, content_mask(&cca, &src)));
		if (strcmp(v1, w->hash[k]) != 0)
			return FL_SW_CHANGED;
	}
	free(e->content_changed_at);
	e->content_changed_at = fl_xstrdup(w->changed_at[k]);
	return FL_SW_UNCHANGED;
}

void fl_sw_count(fl_scan_writer *w, int state, fl_scan_summary *sum)
{
	if (state == FL_SW_NEW) {
		sum->added++;
		return;
	}
	w->seen++;
	if (state == FL_SW_UNCHANGED)
		sum->unchanged++;
	else
		sum->changed++;
}

int fl_sw_insert(fl_scan_writer *w, const fl_entry *e, fl_facts *f, const char *hash,
		 const char *json, fl_err *err)
{
	f->content_hash = hash;
	int rc = fl_store_put_entry_json(w->st, e, f, json, true, err);
	f->content_hash = NULL;
	return rc;
}

void *fl_sw_compress(const char *raw, size_t raw_len, size_t *zlen)
{
	return fl_block_compress(raw, raw_len, zlen);
}

int fl_sw_add_block(fl_scan_writer *w, const char *repo, const void *z, size_t zlen,
		    size_t raw_len, long long *id, fl_err *err)
{
	return fl_store_add_block(w->st, repo, z, zlen, raw_len, id, err);
}

int fl_sw_insert_in_block(fl_scan_writer *w, const fl_entry *e, fl_facts *f,
			  const char *hash, long long id, size_t off, size_t len,
			  fl_err *err)
{
	f->content_hash = hash;
	int rc = fl_store_add_entry_in_block(w->st, e, f, id, off, len, err);
	f->content_hash = NULL;
	return rc;
}

int fl_sw_add_site(fl_scan_writer *w, const char *id, const char *path, int line,
		   int col, const char *function, const char *guard, fl_err *err)
{
	return fl_store_add_site(w->st, id, path, line, col, function, guard, err);
}

int fl_sw_finish(fl_scan_writer *w, fl_scan_result *r, fl_err *err)
{
	for (size_t i = 0; i < r->ndups; i++) {
		struct fl_dup_site *d = &r->dups[i];
		if (fl_store_add_site(w->st, r->entries[d->entry].id, d->path, d->line,
				      d->col, d->function, d->guard, err) < 0) {
			fl_sw_abort(w);
			return -1;
		}
	}
	if (fl_store_put_repo(w->st, &r->repo, err) < 0 || fl_store_commit(w->st, err) < 0) {
		fl_sw_abort(w);
		return -1;
	}
	r->summary.removed = (long long)w->n - w->seen;
	sw_free(w);
	return 0;
}

void fl_sw_abort(fl_scan_writer *w)
{
	if (!w)
		return;
	fl_store_rollback(w->st);
	sw_free(w);
}

/* ---- a whole result at once ------------------------------------------------ */

/* Per-record work done on every core before the (serial) inserts. */
struct prep {
	fl_scan_result *r;
	const fl_scan_writer *w;
	char (*hash)[17];
	char **json;
	int *state;
	pthread_mutex_t mu;
	size_t bad;   /* lowest index of an invalid record, or r->n */
	fl_err verr;  /* its validation error */
};

static void prep_check(void *arg, size_t i)
{
	struct prep *p = arg;
	fl_err verr;
	if (fl_entry_validate(&p->r->entries[i], &verr) < 0) {
		pthread_mutex_lock(&p->mu);
		if (i < p->bad) {
			p->bad = i;
			p->verr = verr;
		}
		pthread_mutex_unlock(&p->mu);
	}
}

/* the record's JSON and digest, compared with the stored record */
static void prep_encode(void *arg, size_t i)
{
	struct prep *p = arg;
	p->json[i] = fl_sw_encode(p->w, &p->r->entries[i], p->hash[i], &p->state[i]);
}

int fl_scan_store(fl_store *st, fl_scan_result *r, fl_err *err)
{
	fl_scan_summary *sum = &r->summary;
	double t0 = fl_now_mono();
	sum->added = sum->removed = sum->changed = sum->unchanged = 0;
	size_t n = r->n ? r->n : 1;
	struct prep p = {.r = r, .hash = fl_xcalloc(n, sizeof *p.hash),
			 .json = fl_xcalloc(n, sizeof *p.json),
			 .state = fl_xcalloc(n, sizeof *p.state),
			 .mu = PTHREAD_MUTEX_INITIALIZER, .bad = r->n};
	fl_scan_writer *w = NULL;
	int rc = -1;
	/* validate every record (in parallel); the first invalid one, in
	 * scan order, fails the scan before the store is touched */
	fl_parallel_for(r->n, prep_check, &p);
	if (p.bad < r->n) {
		*err = p.verr;
		goto out;
	}
	if (fl_sw_begin(st, r->repo.repo, NULL, 0, &w, err) < 0)
		goto out;
	/* JSON and digest on every core (fl_sw_state() only reads w) */
	p.w = w;
	fl_parallel_for(r->n, prep_encode, &p);
	for (size_t i = 0; i < r->n; i++)
		fl_sw_count(w, p.state[i], sum);
	for (size_t i = 0; i < r->n; i++) {
		if (fl_sw_insert(w, &r->entries[i], &r->facts[i], p.hash[i], p.json[i], err) < 0) {
			fl_sw_abort(w);
			goto out;
		}
		free(p.json[i]);
		p.json[i] = NULL;
	}
	if (fl_sw_finish(w, r, err) < 0)
		goto out;
	sum->seconds += fl_now_mono() - t0; /* the summary's time includes the store */
	rc = 0;
out:
	for (size_t i = 0; i < r->n; i++)
		free(p.json[i]);
	free(p.hash);
	free(p.json);
	free(p.state);
	return rc;
}
