/*
 * segment.c — the lookup index in two segments, LSM-style: opening a
 * lookup (fl_lookup_open) decides between the base as it is, the base
 * with a delta, and a base built again; and the statistics and order of
 * the records as one, across both segments.
 *
 * The base (STORE.lookup) is built from every record at generation G0.
 * When the store has moved on, the repositories whose records changed
 * since (repo_changes, store.c) are read again: when they hold few
 * records (under FL_DELTA_SHARE of the base's and FL_DELTA_MAX), they make
 * a delta (STORE.lookup.delta, the same format, keyed by the store's
 * generation and naming the base's stamp), and the base's entries of those
 * repositories are masked (its tombstones: the base's whole entries are in
 * location order, repository first, so each repository's are one range
 * [lo, hi), found by binary search when the delta is built and kept in
 * it).  Otherwise the base is built again and the delta dropped.  The
 * delta is always built from the base, over every repository changed
 * since G0: a second change extends it.
 *
 * Statistics.  The fuzzy tier's idf(t) = ln((N+1)/(df(t)+1)) + 1 is taken
 * over the records as a full rebuild would count them: N = N_base - masked
 * + N_delta, df(t) = df_base(t) - df_masked(t) + df_delta(t).  The tokens
 * whose df changed are few (those of the masked and the delta's entries):
 * they are listed at open (adj), with their idf; any other base token's
 * idf is that of its base df over the new N.  An entry's norm (the sum of
 * its tokens' idf) is summed again so, in float in the order of its
 * tokens' text, when the entry is a candidate (the delta's are all made
 * at open): two entries with the same words have the same norm whichever
 * segment holds them, and their tie is broken by order as a rebuild
 * breaks it.  That sum reads the entry's tokens; the fuzzy tier's first
 * cut of its candidates does not: it takes the stored norm plus
 * ln((N+1)/(N_base+1)) per token (what the idf of a token whose df did
 * not change gains), give or take the most any changed token's idf moved
 * (fl_lk_norm_range), and sums only for those that pass.  What differs from a rebuild is float rounding (a rebuild
 * sums in the order the words come in the message): some 1e-7 of a
 * score, and a tie between two entries of the same words in different
 * orders that a rebuild's rounding may break the other way.
 *
 * Order.  Ties between equal answers fall to the entry a full rebuild
 * puts first: whole entries in location order (repo, path, line, column,
 * id), then the parts (lines of multi-line messages).  A delta's
 * repositories are not in the base (masked there), so a delta entry's
 * place among the base's is that of its repository, found by binary
 * search (dpos).  What differs: a rebuild puts the parts in the order the
 * store's table gives their records, this puts the base's before the
 * delta's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../store_internal.h"
#include "../util.h"
#include "index.h"
#include "lookup_internal.h"
#include "tokens.h"

/* A delta is built while the repositories changed since the base hold
 * fewer records than this share of the base's, and than FL_DELTA_MAX
 * (its build then takes well under a second); else the base is rebuilt. */
#define FL_DELTA_SHARE 0.10
#define FL_DELTA_MAX 200000

/* A base token whose df changed: its idf over the records. */
struct fl_seg_adj {
	uint32_t tok;
	float idf;
};

static size_t wholes(const fl_index *ix)
{
	return (size_t)(ix->h->n_entries - ix->h->n_parts);
}

/* The first of the base's whole entries whose repository sorts at or
 * after repo (after: past, when true). */
static uint32_t repo_bound(const fl_index *b, const char *repo, bool past)
{
	size_t lo = 0, hi = wholes(b);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ix_str(b, b->ent[mid].repo), repo);
		if (past ? c <= 0 : c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* idf over the records of a token of df df (below FL_IDF_TABLE: from the
 * table attach made, without a log) */
static float idf_of(const fl_lookup *lk, size_t df)
{
	return df < FL_IDF_TABLE ? lk->idf_df[df] : (float)fl_idf(lk->n_records, df);
}

static void stats_free(fl_lookup *lk)
{
	free(lk->idf_df);
	lk->idf_df = NULL;
	free(lk->changed);
	free(lk->adj);
	free(lk->didf);
	free(lk->dnorm);
	free(lk->dpos);
	lk->changed = NULL;
	lk->adj = NULL;
	lk->didf = lk->dnorm = NULL;
	lk->dpos = NULL;
	lk->nadj = 0;
}

static const fl_seg_adj *adj_of(const fl_lookup *lk, uint32_t t);

/* The segments' offsets, and with a delta the records' statistics. */
static void attach(fl_lookup *lk)
{
	const fl_index *b = &lk->seg[0];
	lk->ent_off[0] = 0;
	lk->lit_off[0] = 0;
	lk->lit_off[1] = (uint32_t)(b->h->n_factors + b->h->n_hscodes);
	lk->n_entries = b->h->n_entries;
	lk->n_records = wholes(b);
	lk->n_dead = 0;
	if (lk->nseg < 2)
		return;
	const fl_index *d = &lk->seg[1];
	lk->ent_off[1] = (uint32_t)b->h->n_entries;
	lk->lit_off[2] = lk->lit_off[1] + (uint32_t)(d->h->n_factors + d->h->n_hscodes);
	lk->n_entries += d->h->n_entries;
	size_t wb = wholes(b), wd = wholes(d);
	for (size_t i = 0; i < d->h->n_dead; i++)
		lk->n_dead += d->dead[2 * i + 1] - d->dead[2 * i];
	lk->n_records = wb - lk->n_dead + wd;
	size_t N = lk->n_records;
	lk->shift = log((double)(N + 1) / (double)(wb + 1));
	lk->idf_df = fl_xmalloc(FL_IDF_TABLE * sizeof *lk->idf_df);
	for (size_t df = 0; df < FL_IDF_TABLE; df++)
		lk->idf_df[df] = (float)fl_idf(N, df);
	/* the masked entries' tokens, counted (whole entries: parts are in
	 * no df) */
	size_t nm = 0, cap = 1024;
	uint32_t *mt = fl_xmalloc(cap * sizeof *mt);
	for (size_t i = 0; i < d->h->n_dead; i++)
		for (uint32_t e = d->dead[2 * i]; e < d->dead[2 * i + 1]; e++) {
			const idx_entry *x = &b->ent[e];
			if (nm + x->ntoks > cap) {
				cap = (nm + x->ntoks) * 2;
				mt = fl_xrealloc(mt, cap * sizeof *mt);
			}
			memcpy(mt + nm, b->etoks + x->toks, x->ntoks * sizeof *mt);
			nm += x->ntoks;
		}
	/* the delta's tokens that the base has too, and their delta df */
	uint32_t *dtb = fl_xmalloc((d->h->n_tokens + 1) * sizeof *dtb);
	size_t nd = 0;
	for (size_t t = 0; t < d->h->n_tokens; t++) {
		const idx_token *tb = fl_index_token(b, ix_str(d, d->tok[t].str));
		dtb[t] = tb ? (uint32_t)(tb - b->tok) : UINT32_MAX;
		if (tb)
			nd++;
	}
	/* every base token whose df changed, sorted */
	uint32_t *ids = fl_xmalloc((nm + nd + 1) * sizeof *ids);
	memcpy(ids, mt, nm * sizeof *ids);
	size_t ni = nm;
	for (size_t t = 0; t < d->h->n_tokens; t++)
		if (dtb[t] != UINT32_MAX)
			ids[ni++] = dtb[t];
	qsort(ids, ni, sizeof *ids, cmp_u32);
	qsort(mt, nm, sizeof *mt, cmp_u32);
	lk->adj = fl_xmalloc((ni + 1) * sizeof *lk->adj);
	lk->changed = fl_xcalloc(b->h->n_tokens / 64 + 1, sizeof *lk->changed);
	lk->nadj = 0;
	size_t mi = 0;
	for (size_t i = 0; i < ni; i++) {
		uint32_t t = ids[i];
		if (i && ids[i - 1] == t)
			continue;
		size_t masked = 0;
		while (mi < nm && mt[mi] < t)
			mi++;
		while (mi < nm && mt[mi] == t)
			masked++, mi++;
		const idx_token *td = fl_index_token(d, ix_str(b, b->tok[t].str));
		size_t df = b->tok[t].df - (masked < b->tok[t].df ? masked : b->tok[t].df) +
			    (td ? td->df : 0);
		lk->adj[lk->nadj++] = (fl_seg_adj){t, idf_of(lk, df)};
		double dev = fabs(lk->adj[lk->nadj - 1].idf - (b->tok[t].idf + lk->shift));
		if (dev > lk->dmax)
			lk->dmax = dev;
		lk->changed[t / 64] |= (uint64_t)1 << (t % 64);
	}
	/* the delta's tokens over the records, and its entries' norms */
	lk->didf = fl_xmalloc((d->h->n_tokens + 1) * sizeof *lk->didf);
	for (size_t t = 0; t < d->h->n_tokens; t++) {
		/* a token the base has too is among adj, its df summed there */
		const fl_seg_adj *a = dtb[t] == UINT32_MAX ? NULL : adj_of(lk, dtb[t]);
		lk->didf[t] = a ? a->idf : idf_of(lk, d->tok[t].df);
	}
	lk->dnorm = fl_xmalloc((d->h->n_entries + 1) * sizeof *lk->dnorm);
	for (size_t e = 0; e < d->h->n_entries; e++) {
		const idx_entry *x = &d->ent[e];
		float norm = 0;
		for (uint32_t k = 0; k < x->ntoks; k++)
			norm += lk->didf[d->etoks[x->toks + k]];
		lk->dnorm[e] = norm;
	}
	/* where each delta repository's records sit among the base's */
	lk->dpos = fl_xmalloc((wd + 1) * sizeof *lk->dpos);
	for (size_t e = 0; e < wd; e++)
		lk->dpos[e] = e && d->ent[e].repo == d->ent[e - 1].repo
				      ? lk->dpos[e - 1]
				      : repo_bound(b, ix_str(d, d->ent[e].repo), false);
	free(mt);
	free(dtb);
	free(ids);
}

static const fl_seg_adj *adj_of(const fl_lookup *lk, uint32_t t)
{
	if (!(lk->changed[t / 64] & ((uint64_t)1 << (t % 64))))
		return NULL;
	size_t lo = 0, hi = lk->nadj;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (lk->adj[mid].tok < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < lk->nadj && lk->adj[lo].tok == t ? &lk->adj[lo] : NULL;
}

double fl_lk_idf(const fl_lookup *lk, const idx_token *tb, const idx_token *td)
{
	if (lk->nseg < 2)
		return tb ? tb->idf : fl_idf(lk->n_records, 0);
	if (td && lk->didf)
		return lk->didf[td - lk->seg[1].tok];
	if (tb) {
		const fl_seg_adj *a = adj_of(lk, (uint32_t)(tb - lk->seg[0].tok));
		if (a)
			return a->idf;
		return idf_of(lk, tb->df);
	}
	return idf_of(lk, 0);
}

double fl_lk_norm(const fl_lookup *lk, uint32_t s, uint32_t e)
{
	const fl_index *ix = &lk->seg[s];
	const idx_entry *x = &ix->ent[e];
	if (lk->nseg < 2)
		return x->norm;
	if (s == 1)
		return lk->dnorm[e];
	float norm = 0;
	for (uint32_t k = 0; k < x->ntoks; k++) {
		uint32_t t = ix->etoks[x->toks + k];
		const fl_seg_adj *a = adj_of(lk, t);
		norm += a ? a->idf : idf_of(lk, ix->tok[t].df);
	}
	return norm;
}

void fl_lk_norm_range(const fl_lookup *lk, uint32_t s, uint32_t e, double *lo, double *hi)
{
	const idx_entry *x = &lk->seg[s].ent[e];
	if (lk->nseg < 2 || s == 1) {
		*lo = *hi = lk->nseg < 2 ? x->norm : lk->dnorm[e];
		return;
	}
	/* each token's idf is its stored one plus the shift, give or take
	 * dmax for those whose df changed, and float rounding */
	double approx = x->norm + x->ntoks * lk->shift;
	double m = x->ntoks * lk->dmax + 1e-4 * (fabs(approx) + 1.0);
	*lo = approx - m;
	*hi = approx + m;
}

uint64_t fl_lk_order(const fl_lookup *lk, uint32_t s, uint32_t e)
{
	if (lk->nseg < 2)
		return e;
	const fl_index *ix = &lk->seg[s];
	bool part = (ix->ent[e].flags & IDX_PART) != 0;
	uint64_t key;
	if (s == 0)
		key = (uint64_t)e << 32 | UINT32_MAX;
	else if (part)
		key = (uint64_t)lk->seg[0].h->n_entries << 32 | e;
	else
		key = (uint64_t)lk->dpos[e] << 32 | e;
	return part ? key | (uint64_t)1 << 63 : key;
}

uint32_t fl_lk_public(const fl_lookup *lk, uint32_t s, uint32_t whole)
{
	if (lk->nseg < 2)
		return whole;
	if (s == 1)
		return (uint32_t)(wholes(&lk->seg[0]) - lk->n_dead) + whole;
	const fl_index *d = &lk->seg[1];
	uint32_t before = 0;
	for (size_t i = 0; i < d->h->n_dead && d->dead[2 * i] < whole; i++)
		before += (d->dead[2 * i + 1] < whole ? d->dead[2 * i + 1] : whole) - d->dead[2 * i];
	return whole - before;
}

void fl_lk_fill(const fl_lookup *lk, uint32_t s, uint32_t whole, fl_match *m)
{
	const fl_index *ix = &lk->seg[s];
	const idx_entry *x = &ix->ent[whole];
	m->entry = fl_lk_public(lk, s, whole);
	m->id = ix_str(ix, x->id);
	m->repo = ix_str(ix, x->repo);
	m->slug = ix_str(ix, x->slug);
	m->code = x->code ? ix_str(ix, x->code) : NULL;
	m->message = ix_str(ix, x->msg);
	m->file_path = ix_str(ix, x->path);
	m->github_url = ix_str(ix, x->url);
	m->line = x->line;
}

/* ---- opening ------------------------------------------------------------------ */

/* Is d a delta of the store's state (generation gen, time of change
 * changed, identity sid) over base b, whole and sound? */
static bool delta_fits(const fl_index *d, const fl_index *b, long long gen,
		       const char *changed, const char *sid)
{
	const idx_header *h = d->h;
	if (!h->delta || h->generation != gen ||
	    strncmp(h->version, changed, sizeof h->version) != 0 ||
	    strncmp(h->store_id, sid, sizeof h->store_id) != 0 ||
	    memcmp(h->base_stamp, b->h->stamp, sizeof h->base_stamp) != 0 ||
	    h->base_generation != b->h->generation)
		return false;
	uint32_t prev = 0, wb = (uint32_t)wholes(b);
	for (size_t i = 0; i < h->n_dead; i++) {
		uint32_t lo = d->dead[2 * i], hi = d->dead[2 * i + 1];
		if (lo < prev || lo >= hi || hi > wb)
			return false;
		prev = hi;
	}
	return fl_index_check(d);
}

static void unlink_delta(const char *dpath)
{
	char *hs = fl_xasprintf("%s.hs", dpath);
	unlink(dpath);
	unlink(hs);
	free(hs);
}

/* Build a delta over base b for the repositories changed since it (into
 * *d, saved at dpath): 1 when built, 0 when they hold too many records
 * (or the store cannot tell which changed: rebuild), -1 on error. */
static int build_delta(fl_store *st, const fl_index *b, const char *dpath, fl_index *d,
		       fl_err *err)
{
	fl_strv repos = {0};
	fl_err e2;
	if (fl_store_changed_since(st, b->h->generation, &repos, &e2) < 0)
		return 0;
	long long n = 0;
	size_t base_n = wholes(b);
	for (size_t i = 0; i < repos.n && n >= 0; i++) {
		long long c = fl_store_count_entries(st, repos.v[i]);
		n = c < 0 ? -1 : n + c;
	}
	if (n < 0 || n >= FL_DELTA_MAX || (double)n >= FL_DELTA_SHARE * (double)base_n) {
		fl_strv_free(&repos);
		return 0;
	}
	/* the base's entries of those repositories: one range each (repos
	 * come sorted, as the base's entries are) */
	uint32_t *dead = fl_xmalloc((2 * repos.n + 2) * sizeof *dead);
	size_t ndead = 0;
	for (size_t i = 0; i < repos.n; i++) {
		uint32_t lo = repo_bound(b, repos.v[i], false), hi = repo_bound(b, repos.v[i], true);
		if (lo < hi && (!ndead || dead[2 * ndead - 1] <= lo)) {
			dead[2 * ndead] = lo;
			dead[2 * ndead + 1] = hi;
			ndead++;
		}
	}
	fl_index_link link = {b->h->stamp, b->h->generation, dead, ndead};
	int rc = fl_index_build(st, &repos, &link, dpath, d, err);
	free(dead);
	fl_strv_free(&repos);
	return rc < 0 ? -1 : 1;
}

int fl_lookup_open(fl_store *st, fl_lookup **out, fl_err *err)
{
	*out = NULL;
	long long gen;
	char changed[32], sid[40];
	if (fl_store_generation(st, &gen, changed, err) < 0 ||
	    fl_store_identity(st, sid, err) < 0)
		return -1;
	fl_lookup *lk = fl_xcalloc(1, sizeof *lk);
	char *bpath = fl_xasprintf("%s.lookup", fl_store_path(st));
	char *dpath = fl_xasprintf("%s.lookup.delta", fl_store_path(st));
	lk->nseg = 1;
	int rc = fl_index_open(bpath, &lk->seg[0], err);
	if (rc < 0)
		goto fail;
	const idx_header *h = rc ? lk->seg[0].h : NULL;
	/* the generation alone would match another store made at the same
	 * path (it starts again at 0): its identity and time of change too */
	bool ours = h && !h->delta && strncmp(h->store_id, sid, sizeof h->store_id) == 0;
	bool current = ours && h->generation == gen &&
		       strncmp(h->version, changed, sizeof h->version) == 0;
	if (ours && !current && *sid && h->generation < gen) {
		/* the delta beside it, when it is of this state; else one made */
		fl_index *d = &lk->seg[1];
		int dr = fl_index_open(dpath, d, err);
		if (dr < 0)
			goto fail;
		if (dr && !delta_fits(d, &lk->seg[0], gen, changed, sid)) {
			fl_index_free(d);
			dr = 0;
		}
		if (!dr) {
			if ((dr = build_delta(st, &lk->seg[0], dpath, d, err)) < 0)
				goto fail;
			if (dr && !d->path)
				unlink_delta(dpath); /* not kept: an older one is no use */
			lk->built = dr > 0;
		}
		if (dr) {
			lk->nseg = 2;
			current = true;
		}
	}
	if (!current) {
		/* built again from every record, kept beside the store for
		 * the next process (a read-only folder only costs that) */
		fl_index_free(&lk->seg[0]);
		if (fl_index_build(st, NULL, NULL, bpath, &lk->seg[0], err) < 0)
			goto fail;
		lk->built = true;
		unlink_delta(dpath);
	}
	attach(lk);
	free(bpath);
	free(dpath);
	*out = lk;
	return 0;
fail:
	for (size_t s = 0; s < FL_SEGS; s++)
		fl_index_free(&lk->seg[s]);
	free(lk);
	free(bpath);
	free(dpath);
	return -1;
}

void fl_lookup_close(fl_lookup *lk)
{
	if (!lk)
		return;
	for (size_t s = 0; s < FL_SEGS; s++)
		fl_index_free(&lk->seg[s]);
	stats_free(lk);
	free(lk);
}
