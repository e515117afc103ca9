/*
 * persist.c — writing a scan result into the store: one transaction that
 * replaces the repository's records (new ones added, vanished ones removed),
 * keeps contentChangedAt of records whose content did not change, records
 * the other sites of duplicate records, and updates the repository row.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../json_internal.h"
#include "../parallel.h"
#include "../store_internal.h"
#include "../strmap.h"
#include "../util.h"

/* The record's content: everything but the fields that change with every
 * scan (sha, times, permalink) and the source window, which changes with
 * any edit of the lines around the site.  The message, its location and
 * its explanation are the content. */
static char *content_key(const fl_entry *e)
{
	fl_entry c = *e;
	c.analyzed_sha = NULL;
	c.analyzed_at = NULL;
	c.content_changed_at = NULL;
	c.github_url = NULL;
	c.source_code = NULL;
	c.source_code_start = 0;
	c.source_code_end = 0;
	return fl_entry_to_json(&c, false);
}

/* 64-bit FNV-1a of the content, as 16 hex digits */
static void content_hash(const fl_entry *e, char out[17])
{
	char *key = content_key(e);
	uint64_t h = 1469598103934665603ull;
	for (const char *p = key; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ull;
	}
	free(key);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

struct old {
	char **hash;
	char **changed_at;
	size_t n;
};

static int load_old(fl_store *st, const char *repo, fl_strmap *map,
		    struct old *old, fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT id, content_hash, content_changed_at FROM errors WHERE repo = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_seterr(err, "store %s: %s", st->path, sqlite3_errmsg(st->db));
	sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 0);
		const char *hash = (const char *)sqlite3_column_text(s, 1);
		const char *at = (const char *)sqlite3_column_text(s, 2);
		if (!id || !at)
			continue;
		old->hash = fl_xrealloc(old->hash, (old->n + 1) * sizeof *old->hash);
		old->changed_at = fl_xrealloc(old->changed_at, (old->n + 1) * sizeof *old->changed_at);
		/* rows written before digests existed compare as changed */
		old->hash[old->n] = fl_xstrdup(hash ? hash : "");
		old->changed_at[old->n] = fl_xstrdup(at);
		fl_strmap_put(map, id, old->n);
		old->n++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return fl_seterr(err, "store %s: %s", st->path, sqlite3_errmsg(st->db));
	return 0;
}

static void free_old(struct old *old, fl_strmap *map)
{
	for (size_t i = 0; i < old->n; i++) {
		free(old->hash[i]);
		free(old->changed_at[i]);
	}
	free(old->hash);
	free(old->changed_at);
	fl_strmap_free(map);
}

/* Per-record work done on every core before the (serial) inserts. */
struct prep {
	fl_scan_result *r;
	char (*hash)[17];
	char **json;
	pthread_mutex_t mu;
	size_t bad;   /* lowest index of an invalid record, or r->n */
	fl_err verr;  /* its validation error */
};

static void prep_check(void *arg, size_t i)
{
	struct prep *p = arg;
	const fl_entry *e = &p->r->entries[i];
	fl_err verr;
	if (fl_entry_validate(e, &verr) < 0) {
		pthread_mutex_lock(&p->mu);
		if (i < p->bad) {
			p->bad = i;
			p->verr = verr;
		}
		pthread_mutex_unlock(&p->mu);
		return;
	}
	content_hash(e, p->hash[i]);
}

static void prep_json(void *arg, size_t i)
{
	struct prep *p = arg;
	p->json[i] = fl_entry_to_json(&p->r->entries[i], false);
}

int fl_scan_store(fl_store *st, fl_scan_result *r, fl_err *err)
{
	fl_strmap map = {0};
	struct old old = {0};
	fl_scan_summary *sum = &r->summary;
	double t0 = fl_now_mono();
	sum->added = sum->removed = sum->changed = sum->unchanged = 0;
	/* validate and digest every record (in parallel); the first invalid
	 * one, in scan order, fails the scan before the store is touched */
	struct prep p = {.r = r, .hash = fl_xcalloc(r->n ? r->n : 1, sizeof *p.hash),
			 .json = fl_xcalloc(r->n ? r->n : 1, sizeof *p.json),
			 .mu = PTHREAD_MUTEX_INITIALIZER, .bad = r->n};
	fl_parallel_for(r->n, prep_check, &p);
	if (p.bad < r->n) {
		*err = p.verr;
		goto out;
	}
	if (fl_store_begin(st, err) < 0)
		goto out;
	if (load_old(st, r->repo.repo, &map, &old, err) < 0 ||
	    fl_store_clear_repo(st, r->repo.repo, err) < 0)
		goto fail;
	for (size_t i = 0; i < r->n; i++) {
		fl_entry *e = &r->entries[i];
		size_t k;
		if (fl_strmap_get(&map, e->id, &k)) {
			if (strcmp(p.hash[i], old.hash[k]) == 0) {
				free(e->content_changed_at);
				e->content_changed_at = fl_xstrdup(old.changed_at[k]);
				sum->unchanged++;
			} else {
				sum->changed++;
			}
		} else {
			sum->added++;
		}
	}
	/* the records' JSON (which holds contentChangedAt) on every core */
	fl_parallel_for(r->n, prep_json, &p);
	for (size_t i = 0; i < r->n; i++) {
		r->facts[i].content_hash = p.hash[i];
		int rc = fl_store_put_entry_json(st, &r->entries[i], &r->facts[i], p.json[i], err);
		r->facts[i].content_hash = NULL;
		free(p.json[i]);
		p.json[i] = NULL;
		if (rc < 0)
			goto fail;
	}
	sum->removed = (long long)old.n - sum->unchanged - sum->changed;
	for (size_t i = 0; i < r->ndups; i++) {
		struct fl_dup_site *d = &r->dups[i];
		if (fl_store_add_site(st, r->entries[d->entry].id, d->path, d->line,
				      d->col, err) < 0)
			goto fail;
	}
	if (fl_store_put_repo(st, &r->repo, err) < 0 || fl_store_commit(st, err) < 0)
		goto fail;
	free_old(&old, &map);
	sum->seconds += fl_now_mono() - t0; /* the summary's time includes the store */
	free(p.hash);
	free(p.json);
	return 0;
fail:
	fl_store_rollback(st);
out:
	free_old(&old, &map);
	for (size_t i = 0; i < r->n; i++)
		free(p.json[i]);
	free(p.hash);
	free(p.json);
	return -1;
}
