/*
 * lookup.c — looking an error text up (lookup.md): normalisation, then the
 * exact-code, pattern and fuzzy tiers in turn, the first with hits wins;
 * ranking by specificity, then by the evidence the wrappers carried.  The
 * work is linear in the input: lines over FL_LINE_MAX are cut to their
 * head and tail, the text is scanned in blocks of whole lines, each
 * candidate is tried at most once per line, and every loop checks the
 * calling thread's time limit.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../scan/lang.h"
#include "../util.h"
#include "hslib.h"
#include "index.h"
#include "lookup_internal.h"
#include "match.h"
#include "normalize.h"
#include "tokens.h"

/* Hyperscan, once the index has loaded it (fl_hs: every use below is on
 * an index built or opened) */
#define H (fl_hs(NULL))

#define FUZZY_MIN FL_LK_CONFIDENT
/* the most of a line one placeholder counts as covering (confirm) */
#define FL_CAPTURE_COVER 64
/* the idf weight a fuzzy answer must share with the query, in units of
 * the idf of a word of one record (one rare word and one of middling
 * frequency, or four common ones) */
#define FUZZY_INFO_MIN 1.8

const char *fl_lookup_version(const fl_lookup *lk)
{
	return lk->seg[lk->nseg - 1].h->version; /* the delta's: the store's now */
}

size_t fl_lookup_count(const fl_lookup *lk)
{
	return lk->n_records;
}

bool fl_lookup_was_built(const fl_lookup *lk)
{
	return lk->built;
}

bool fl_lookup_prepare_long(const fl_lookup *lk)
{
	bool ok = true;
	for (uint32_t s = 0; s < lk->nseg; s++)
		ok = fl_index_hs(&lk->seg[s], true) && ok;
	return ok;
}

void fl_result_free(fl_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		fl_strv_free(&r->v[i].captures);
		fl_strv_free(&r->v[i].evidence);
		fl_strv_free(&r->v[i].sites);
	}
	free(r->v);
	free(r->query);
	memset(r, 0, sizeof *r);
}

/* ---- per-thread scratch --------------------------------------------------------- */

struct tls {
	const fl_lookup *owner;
	hs_scratch_t *scratch[FL_SEGS]; /* per segment */
	uint64_t hs_serial[FL_SEGS]; /* the databases scratch was made for
					(fl_index_hs_scratch) */
	uint32_t *stamp;      /* per entry (of every segment: fl_lookup's
				 ent_off): query stamp when seen */
	float *acc;           /* fuzzy: idf weight gathered per candidate */
	size_t cap;
	uint32_t now;
	uint32_t *cand;       /* candidates of this query */
	size_t ncand, candcap;
	uint32_t *fdone;      /* per literal (of every segment: lit_off): line
				 stamp when its entries were tried on that
				 line */
	size_t fcap;
	size_t stamp_map, acc_map, fdone_map; /* their mappings' lengths
						 when on huge pages
						 (fl_lk_prepare_bulk), else 0 */
	uint32_t lnow;
	bool written;         /* stamp, acc and fdone written through
				 (fl_lk_prepare_bulk); else the sparse
				 tables below stand for them */
	/* One lookup touches a few hundred entries of a million, each on
	 * its own page of the dense tables: a page fault each (tens of us
	 * on a paravirtualised host) in a process that makes one lookup.
	 * Until the bulk work writes the dense tables through, the stamps,
	 * the fuzzy weights and the line stamps are kept in open-addressed
	 * tables sized by what the lookup touches: a slot is live when its
	 * stamp is the current one (stamps only grow, so a slot of an
	 * earlier query reads as empty). */
	struct sparse {
		struct sp_slot {
			uint32_t key, gen; /* live when gen is the table's current
					      stamp */
			float acc;
		} *v;
		uint32_t bits;
		size_t n; /* live slots */
	} sp, sf;  /* entries (stamp now), literals (line stamp lnow) */
	double deadline;      /* fl_now_mono() time limit, 0 = none */
	unsigned ticks;
	bool expired;
};
static __thread struct tls tls;
static __thread fl_occs pocc; /* occurrences for the pattern tier */
/* Entries whose literal was found in a message but whose pattern did not
 * match it (lenient_pass tries them with empty placeholders): the
 * FAILED_MAX with the longest literal part, those at a line a frame of
 * the text names first (a JDK stack over Long's and Integer's longer
 * "For input string: ..." texts: NumberFormatException's own, its radix
 * suffix empty, is the one the frame names). */
#define FAILED_MAX 16
#define LENIENT_LITERAL 12
static __thread struct {
	uint32_t e[FAILED_MAX], seg[FAILED_MAX], pos[FAILED_MAX];
	uint64_t key[FAILED_MAX]; /* named by a frame, then the literal */
	size_t n;
	bool on;
} failed;

static void failed_add(const fl_lookup *lk, uint32_t s, uint32_t e, uint32_t pos,
		       const fl_query *q)
{
	size_t at = failed.n;
	const idx_entry *x = &lk->seg[s].ent[e];
	bool named = q && q->sites.n && fl_lk_site_named(&lk->seg[s], x, q);
	uint64_t key = (uint64_t)named << 32 | x->literal;
	if (at == FAILED_MAX) { /* replace the least, when less */
		at = 0;
		for (size_t i = 1; i < FAILED_MAX; i++)
			if (failed.key[i] < failed.key[at])
				at = i;
		if (failed.key[at] >= key)
			return;
	} else {
		failed.n++;
	}
	failed.e[at] = e;
	failed.seg[at] = s;
	failed.pos[at] = pos;
	failed.key[at] = key;
}

/* Entry e of segment s in the thread's per-entry tables. */
static inline uint32_t gid(const fl_lookup *lk, uint32_t s, uint32_t e)
{
	return lk->ent_off[s] + e;
}

/* The segment of a per-entry table's slot g, and its entry there. */
static inline uint32_t seg_of(const fl_lookup *lk, uint32_t g, uint32_t *e)
{
	uint32_t s = lk->nseg > 1 && g >= lk->ent_off[1] ? 1 : 0;
	*e = g - lk->ent_off[s];
	return s;
}
static __thread fl_occs wocc; /* a whole text's occurrences (scan_whole) */

/* The pattern tier's bar: the number of answers wanted, and a min-heap of
 * the ranking keys (specificity, then evidence: cmp_hit) of the best hits
 * so far.  Once k hits are held, a candidate whose key is below the least
 * of them cannot be among the answers whatever it matches, so it is not
 * tried: the answer is the same, found sooner (a line packed with known
 * messages brings thousands of candidates). */
/* The k best keys seen: a min-heap, its least (heap[0]) the one to beat
 * once k are held.  The pattern tier's bar and the fuzzy tier's share it. */
struct topk {
	size_t k, n, cap;
	uint64_t *heap;
};

static void topk_reset(struct topk *t, size_t k)
{
	if (k > t->cap) {
		free(t->heap);
		t->cap = k;
		t->heap = fl_xcalloc(k, sizeof *t->heap);
	}
	t->k = k;
	t->n = 0;
}

static void topk_add(struct topk *t, uint64_t key)
{
	if (!t->k)
		return;
	size_t i;
	if (t->n < t->k) {
		i = t->n++;
		t->heap[i] = key;
		while (i > 0 && t->heap[(i - 1) / 2] > t->heap[i]) {
			uint64_t x = t->heap[i];
			t->heap[i] = t->heap[(i - 1) / 2];
			t->heap[(i - 1) / 2] = x;
			i = (i - 1) / 2;
		}
		return;
	}
	if (key <= t->heap[0])
		return;
	t->heap[0] = key;
	for (i = 0;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < t->n && t->heap[l] < t->heap[m])
			m = l;
		if (l + 1 < t->n && t->heap[l + 1] < t->heap[m])
			m = l + 1;
		if (m == i)
			return;
		uint64_t x = t->heap[i];
		t->heap[i] = t->heap[m];
		t->heap[m] = x;
		i = m;
	}
}

static __thread struct topk bar;

static uint64_t hit_key(uint32_t literal, int ev)
{
	return (uint64_t)literal << 32 | (uint32_t)(ev > 0 ? ev : 0);
}

static void bar_reset(size_t k)
{
	topk_reset(&bar, k);
}

static void bar_add(uint64_t key)
{
	topk_add(&bar, key);
}

/* ---- stamps: dense tables for bulk work, sparse ones for single lookups ---- */

#define SP_MIN_BITS 10

static inline uint32_t sp_hash(uint32_t key, uint32_t bits)
{
	return (key * 0x9E3779B1u) >> (32 - bits);
}

static void sp_clear(struct sparse *t)
{
	if (t->v)
		memset(t->v, 0, ((size_t)1 << t->bits) * sizeof *t->v);
	t->n = 0;
}

/* The live slot of key in t (gen the current stamp), else NULL. */
static inline struct sp_slot *sp_find(const struct sparse *t, uint32_t key, uint32_t gen)
{
	if (!t->v)
		return NULL;
	uint32_t mask = (1u << t->bits) - 1;
	for (uint32_t i = sp_hash(key, t->bits);; i = (i + 1) & mask) {
		struct sp_slot *z = &t->v[i];
		if (z->gen != gen)
			return NULL;
		if (z->key == key)
			return z;
	}
}

/* Key's slot in t, not live before, made live with acc 0; t at most half
 * full after. */
static struct sp_slot *sp_add(struct sparse *t, uint32_t key, uint32_t gen)
{
	if (!t->v || 2 * (t->n + 1) > (size_t)1 << t->bits) {
		struct sp_slot *old = t->v;
		size_t on = old ? (size_t)1 << t->bits : 0;
		t->bits = old ? t->bits + 1 : SP_MIN_BITS;
		t->v = fl_xcalloc((size_t)1 << t->bits, sizeof *t->v);
		t->n = 0;
		for (size_t k = 0; k < on; k++)
			if (old[k].gen == gen)
				*sp_add(t, old[k].key, gen) = old[k];
		free(old);
	}
	uint32_t mask = (1u << t->bits) - 1;
	uint32_t i = sp_hash(key, t->bits);
	while (t->v[i].gen == gen)
		i = (i + 1) & mask;
	t->v[i] = (struct sp_slot){key, gen, 0};
	t->n++;
	return &t->v[i];
}

/* The live slot of entry g, made live (acc 0) when it was not. */
static struct sp_slot *sp_put(uint32_t g)
{
	struct sp_slot *z = sp_find(&tls.sp, g, tls.now);
	return z ? z : sp_add(&tls.sp, g, tls.now);
}

/* Entry g (fl_lookup's numbering) seen by this query? */
static inline bool stamped(uint32_t g)
{
	return tls.written ? tls.stamp[g] == tls.now : sp_find(&tls.sp, g, tls.now) != NULL;
}

static inline void set_stamp(uint32_t g)
{
	if (tls.written)
		tls.stamp[g] = tls.now;
	else
		sp_put(g);
}

/* The fuzzy weight gathered by entry g, a candidate (cand_acc). */
static inline float *acc_of(uint32_t g)
{
	return tls.written ? &tls.acc[g] : &sp_find(&tls.sp, g, tls.now)->acc;
}

static void push_cand(uint32_t e);

/* The fuzzy weight of entry g, g stamped and made a candidate with
 * weight 0 first when it was not stamped and adding; NULL when it was
 * not and not adding.  One probe of the sparse table when g is there,
 * two when it is added. */
static inline float *cand_acc(uint32_t g, bool adding)
{
	if (tls.written) {
		if (tls.stamp[g] != tls.now) {
			if (!adding)
				return NULL;
			tls.stamp[g] = tls.now;
			push_cand(g);
			tls.acc[g] = 0;
		}
		return &tls.acc[g];
	}
	struct sp_slot *z = sp_find(&tls.sp, g, tls.now);
	if (!z) {
		if (!adding)
			return NULL;
		z = sp_add(&tls.sp, g, tls.now); /* acc 0 */
		push_cand(g);
	}
	return &z->acc;
}

static inline void prefetch_stamp(uint32_t g)
{
	if (tls.written)
		__builtin_prefetch(&tls.stamp[g]);
	else if (tls.sp.v)
		__builtin_prefetch(&tls.sp.v[sp_hash(g, tls.sp.bits)]);
}

/* Literal id tried on this line already?  It is from now on. */
static inline bool line_done(uint32_t id)
{
	if (tls.written) {
		if (tls.fdone[id] == tls.lnow)
			return true;
		tls.fdone[id] = tls.lnow;
		return false;
	}
	if (sp_find(&tls.sf, id, tls.lnow))
		return true;
	sp_add(&tls.sf, id, tls.lnow);
	return false;
}

static void new_query_stamp(void)
{
	tls.sp.n = 0;
	if (++tls.now == 0) {
		if (tls.written)
			memset(tls.stamp, 0, tls.cap * sizeof *tls.stamp);
		sp_clear(&tls.sp);
		tls.now = 1;
	}
}

void fl_lk_prepare(const fl_lookup *lk)
{
	tls.owner = lk;
	if (tls.written &&
	    (tls.cap < lk->n_entries + 1 || tls.fcap < lk->lit_off[lk->nseg] + 1)) {
		/* the lookup grew: sparse again until written through anew */
		fl_free_huge(tls.stamp, tls.stamp_map);
		fl_free_huge(tls.acc, tls.acc_map);
		fl_free_huge(tls.fdone, tls.fdone_map);
		tls.stamp = NULL;
		tls.acc = NULL;
		tls.fdone = NULL;
		tls.cap = tls.fcap = 0;
		tls.stamp_map = tls.acc_map = tls.fdone_map = 0;
		tls.written = false;
	}
	new_query_stamp();
	tls.ncand = 0;
}

void fl_lk_prepare_bulk(const fl_lookup *lk)
{
	fl_lk_prepare(lk);
	if (tls.written)
		return;
	/* A lookup touches a few pages of the dense tables; bulk work
	 * writes them through, so on huge pages (megabytes at a million
	 * records: a few faults instead of thousands) */
	tls.cap = lk->n_entries + 1;
	tls.fcap = lk->lit_off[lk->nseg] + 1;
	tls.stamp = fl_xzalloc_huge(tls.cap * sizeof *tls.stamp, &tls.stamp_map);
	tls.acc = fl_xzalloc_huge(tls.cap * sizeof *tls.acc, &tls.acc_map);
	tls.fdone = fl_xzalloc_huge(tls.fcap * sizeof *tls.fdone, &tls.fdone_map);
	/* written through once, as zeros (no stamp or line stamp is current:
	 * now and lnow are never 0 when compared; acc is set before use), so
	 * that no first write faults later, in the lookups */
	memset(tls.stamp, 0, tls.cap * sizeof *tls.stamp);
	memset(tls.acc, 0, tls.cap * sizeof *tls.acc);
	memset(tls.fdone, 0, tls.fcap * sizeof *tls.fdone);
	tls.written = true;
}

static void fuzzy_thread_done(void);

void fl_lookup_thread_done(void)
{
	fuzzy_thread_done();
	for (size_t s = 0; s < FL_SEGS; s++)
		if (tls.scratch[s])
			H->free_scratch(tls.scratch[s]);
	fl_free_huge(tls.stamp, tls.stamp_map);
	fl_free_huge(tls.acc, tls.acc_map);
	free(tls.cand);
	fl_free_huge(tls.fdone, tls.fdone_map);
	free(tls.sp.v);
	free(tls.sf.v);
	free(bar.heap);
	memset(&bar, 0, sizeof bar);
	free(pocc.v);
	memset(&pocc, 0, sizeof pocc);
	free(wocc.v);
	memset(&wocc, 0, sizeof wocc);
	fl_regex_cache_clear();
	memset(&tls, 0, sizeof tls);
}

void fl_lk_set_deadline(double at)
{
	tls.deadline = at;
	tls.ticks = 0;
	tls.expired = false;
}

bool fl_lk_expired(void)
{
	if (tls.expired)
		return true;
	if (tls.deadline <= 0)
		return false;
	/* the clock every 32 calls: each call stands for at most one pattern
	 * tried on one line (or one text block scanned) */
	if (tls.ticks++ % 32 == 0 && fl_now_mono() >= tls.deadline)
		tls.expired = true;
	return tls.expired;
}

bool fl_lk_timed_out(void)
{
	return tls.expired;
}

/* a new line for fdone */
static void next_line(void)
{
	tls.sf.n = 0;
	if (++tls.lnow == 0) {
		if (tls.written)
			memset(tls.fdone, 0, tls.fcap * sizeof *tls.fdone);
		sp_clear(&tls.sf);
		tls.lnow = 1;
	}
}

#define ELLIPSIS "\xE2\x80\xA6"

size_t fl_lk_cut_lines(const char *text, size_t len, char **out, size_t *outlen)
{
	*out = NULL;
	*outlen = len;
	fl_buf b = {0};
	size_t ncut = 0, done = 0, ls = 0;
	while (ls < len) {
		const char *nl = memchr(text + ls, '\n', len - ls);
		size_t le = nl ? (size_t)(nl - text) : len;
		if (le - ls > FL_LINE_MAX) {
			/* head and tail at character boundaries (a UTF-8
			 * sequence is at most 4 bytes) */
			size_t h = ls + FL_LINE_KEEP, t = le - FL_LINE_KEEP;
			for (int k = 0; k < 3 && ((unsigned char)text[h] & 0xC0) == 0x80; k++)
				h--;
			for (int k = 0; k < 3 && ((unsigned char)text[t] & 0xC0) == 0x80; k++)
				t++;
			fl_buf_put(&b, text + done, h - done);
			fl_buf_put(&b, ELLIPSIS, 3);
			done = t;
			ncut++;
		}
		ls = le + 1;
	}
	if (!ncut)
		return 0;
	fl_buf_put(&b, text + done, len - done);
	fl_buf_cstr(&b);
	*outlen = b.n;
	*out = b.s;
	return ncut;
}

static void next_stamp(void)
{
	tls.ncand = 0;
	new_query_stamp();
}

/* Entry e, just stamped, made a fuzzy candidate. */
static void push_cand(uint32_t e)
{
	if (tls.ncand == tls.candcap) {
		tls.candcap = tls.candcap ? tls.candcap * 2 : 256;
		tls.cand = fl_xrealloc(tls.cand, tls.candcap * sizeof *tls.cand);
	}
	tls.cand[tls.ncand++] = e;
}

#define OCC_MAX (1u << 22)

/* The occurrences a scan of one segment's literals adds to, its ids
 * made the lookup's (lit_off). */
struct occ_sink {
	fl_occs *ob;
	uint32_t add;
};

static int on_literal(unsigned int id, unsigned long long from,
		      unsigned long long to, unsigned int flags, void *ctx)
{
	(void)from;
	(void)flags;
	struct occ_sink *sk = ctx;
	fl_occs *ob = sk->ob;
	id += sk->add;
	if (ob->n == ob->cap) {
		if (ob->cap >= OCC_MAX)
			return 1; /* stop: the caller falls back to whole-text checks */
		ob->cap = ob->cap ? ob->cap * 2 : 1024;
		ob->v = fl_xrealloc(ob->v, ob->cap * sizeof *ob->v);
	}
	ob->v[ob->n++] = (fl_occ){id, (uint32_t)to};
	return 0;
}

static int cmp_occ(const void *a, const void *b)
{
	const fl_occ *x = a, *y = b;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* ob's occurrences by end (cmp_occ, a total order).  The literal table
 * reports them by start, so that each is at most a literal's length out
 * of place: an insertion sort, with qsort for what moves further (the
 * shards of a Hyperscan scan each report the whole text). */
static void sort_occs(fl_occs *ob)
{
	size_t n = ob->n, moves = 0;
	fl_occ *v = ob->v;
	for (size_t i = 1; i < n; i++) {
		fl_occ x = v[i];
		size_t j = i;
		while (j > 0 && cmp_occ(&v[j - 1], &x) > 0) {
			v[j] = v[j - 1];
			j--;
			moves++;
		}
		v[j] = x;
		if (moves > 8 * n + 64) {
			qsort(v, n, sizeof *v, cmp_occ);
			return;
		}
	}
}

/* Until this thread has Hyperscan scratch, whose first allocation checks
 * every database (a CRC over about 100 MB at a million records, 20 ms:
 * most of a cold `explain`), texts up to FL_LITTAB_COLD bytes are scanned
 * with the literal table (littab.h), at about 60 ns a byte: a cold
 * process looking up a pasted message never loads Hyperscan.  Once the
 * thread has scanned FL_LITTAB_BUDGET bytes so (about the cost of that
 * check: a server, a batch of lookups), it takes Hyperscan, the faster
 * even on 100 bytes. */
#define FL_LITTAB_BUDGET (64u << 10)
static __thread size_t littab_bytes;

bool fl_lk_scan(const fl_lookup *lk, const char *text, size_t len, fl_occs *ob)
{
	bool warm = true;
	for (uint32_t s = 0; s < lk->nseg && warm; s++)
		warm = tls.scratch[s] &&
		       __atomic_load_n(&lk->seg[s].hs_state, __ATOMIC_ACQUIRE) > 0 &&
		       tls.hs_serial[s] == lk->seg[s].hs_serial;
	bool hyperscan = warm || len > FL_LITTAB_COLD || littab_bytes > FL_LITTAB_BUDGET;
	if (!hyperscan)
		littab_bytes += len;
	return fl_lk_scan_by(lk, text, len, ob, hyperscan);
}

bool fl_lk_scan_by(const fl_lookup *lk, const char *text, size_t len, fl_occs *ob,
		   bool hyperscan)
{
	ob->n = 0;
	if (!len)
		return true;
	if (len > 0xffffffffu)
		return false;
	/* each segment's literals, by either engine (the same occurrences) */
	for (uint32_t s = 0; s < lk->nseg; s++) {
		const fl_index *ix = &lk->seg[s];
		struct occ_sink sk = {ob, lk->lit_off[s]};
		/* the filter, once made, serves texts of any length */
		bool ready = __atomic_load_n(&ix->hs_state, __ATOMIC_ACQUIRE) > 0 ||
			     (hyperscan && fl_index_hs(ix, false));
		if (ready && ix->filtered) {
			if (!fl_littab_scan_filtered(&ix->lt, &ix->lf, ix->str, text, len,
						     on_literal, &sk))
				return false;
			continue;
		}
		if (!hyperscan ||
		    !fl_index_hs_scratch(ix, &tls.scratch[s], &tls.hs_serial[s])) {
			/* behind the image's filter when it has one */
			if (ix->lf_short.s8.b || ix->lf_short.s4.b
				    ? !fl_littab_scan_filtered(&ix->lt, &ix->lf_short, ix->str, text,
							       len, on_literal, &sk)
				    : !fl_littab_scan(&ix->lt, ix->str, text, len, on_literal, &sk))
				return false;
			continue;
		}
		for (size_t k = 0; k < ix->nhs; k++) {
			hs_error_t rc = H->scan(ix->hs[k], text, (unsigned)len, 0,
						tls.scratch[s], on_literal, &sk);
			if (rc != HS_SUCCESS)
				return false;
		}
	}
	/* shards and the table report in their own order: by end offset */
	sort_occs(ob);
	return true;
}


/* ---- results ---------------------------------------------------------------------- */

static int cmp_hit_score(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev > y->ev ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void emit(const fl_lookup *lk, struct hit *h, size_t nh, size_t limit,
		 const char *type, const fl_query *q, const char *text, size_t len,
		 fl_result *out)
{
	size_t n = nh < limit ? nh : limit;
	out->v = fl_xcalloc(n ? n : 1, sizeof *out->v);
	out->n = n;
	out->match_type = type;
	for (size_t i = 0; i < n; i++) {
		const fl_index *ix = &lk->seg[h[i].seg];
		uint32_t whole = ix->ent[h[i].entry].whole; /* a part: its record */
		const idx_entry *x = &ix->ent[whole];
		fl_match *m = &out->v[i];
		fl_lk_fill(lk, h[i].seg, whole, m);
		m->score = h[i].score;
		m->match_type = h[i].fuzzy ? "fuzzy" : type;
		for (size_t k = 0; k < h[i].ncaps; k++) {
			char *c = fl_xstrndup(h[i].text + h[i].caps[k].start,
					      h[i].caps[k].end - h[i].caps[k].start);
			fl_strv_push(&m->captures, c);
			free(c);
		}
		fl_lk_why(lk, h, nh, i, q, m);
		fl_lk_sites(ix, x, text, len, q ? q->command : NULL, m);
	}
}

static bool repo_ok(const fl_index *ix, const idx_entry *x, const char *repo)
{
	return !repo || strcmp(ix_str(ix, x->repo), repo) == 0;
}

/* Is entry x of segment s a possible answer: not masked by the delta, of
 * repo (NULL: any)? */
static bool live_ok(const fl_lookup *lk, uint32_t s, const idx_entry *x, const char *repo)
{
	return !fl_lk_dead(lk, s, x) && repo_ok(&lk->seg[s], x, repo);
}

/* ---- tiers -------------------------------------------------------------------------- */

static bool is_code_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* An errno name (ENOENT, EACCES ...): the OS says it for every program
 * ("Error: ENOENT: no such file or directory"), so a record given it as
 * its code (yarn's `new MessageError(text, 'ENOENT')`) is not named by it. */
static bool errno_name(const char *w)
{
	static const char *const names[] = {
		"ENOENT", "EACCES", "EPERM", "EEXIST", "EISDIR", "ENOTDIR", "ENOTEMPTY", "ELOOP",
		"ENOSPC", "EROFS", "EIO", "EBADF", "EPIPE", "ECONNREFUSED", "ECONNRESET", "EAGAIN",
		"EINVAL", "EBUSY", "ENXIO", "ENODEV", "ETXTBSY", "ENAMETOOLONG", "EMFILE", "ENFILE",
		"EXDEV", "ENOSYS", "ENETUNREACH", "ETIMEDOUT", "EHOSTUNREACH", "EADDRINUSE", "ENOMEM",
		"E2BIG", "ENOEXEC", "ESRCH", "ENOTSUP", "EOPNOTSUPP", "ENOTCONN", "EINTR", NULL,
	};
	for (const char *const *n = names; *n; n++)
		if (strcmp(*n, w) == 0)
			return true;
	return false;
}

/* Which message of the query holds code word w as a word (the first),
 * else one past the last: a code hit's line, so that the lines keep
 * their order (fl_lk_sort). */
static uint32_t code_pos(const fl_query *q, const char *w)
{
	size_t wl = strlen(w);
	for (size_t k = 0; k < q->messages.n; k++)
		for (const char *m = q->messages.v[k], *p = m; (p = strstr(p, w)) != NULL; p++)
			if ((p == m || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[wl]))
				return (uint32_t)k;
	return (uint32_t)q->messages.n;
}

static size_t tier_code(const fl_lookup *lk, const char *text, const fl_query *q,
			const char *repo, struct hit **hits, size_t *cap)
{
	size_t nh = 0, ncodes = 0;
	for (uint32_t s = 0; s < lk->nseg; s++)
		ncodes += lk->seg[s].h->n_codes;
	if (!ncodes)
		return 0;
	fl_strv words = {0};
	for (size_t i = 0; i < q->codes.n; i++)
		fl_strv_push(&words, q->codes.v[i]);
	size_t n = strlen(text);
	for (size_t i = 0; i < n && words.n < 512;) {
		if (!is_code_char(text[i]) || (i > 0 && (is_code_char(text[i - 1]) ||
							 isalnum((unsigned char)text[i - 1])))) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && is_code_char(text[j]))
			j++;
		bool boundary = j >= n || !isalnum((unsigned char)text[j]);
		size_t len = j - i;
		bool upper = text[i] >= 'A' && text[i] <= 'Z';
		bool e4 = text[i] == 'E' && len == 5;
		if (boundary && len >= 3 && len < 128 && (upper || e4)) {
			char *w = fl_xstrndup(text + i, len);
			fl_strv_push(&words, w);
			free(w);
		}
		i = j;
	}
	for (size_t w = 0; w < words.n && !fl_lk_expired(); w++) {
		if (errno_name(words.v[w]))
			continue;
		uint32_t pos = UINT32_MAX;
		for (uint32_t s = 0; s < lk->nseg; s++) {
			const fl_index *ix = &lk->seg[s];
			const idx_code *c = fl_index_code(ix, words.v[w]);
			for (; c && c < ix->codes + ix->h->n_codes &&
			       strcmp(ix_str(ix, c->str), words.v[w]) == 0; c++) {
				const idx_entry *x = &ix->ent[c->entry];
				uint32_t g = gid(lk, s, c->entry);
				if (!live_ok(lk, s, x, repo) || stamped(g))
					continue;
				set_stamp(g);
				if (nh == *cap) {
					*cap = *cap ? *cap * 2 : 16;
					*hits = fl_xrealloc(*hits, *cap * sizeof **hits);
				}
				struct hit *h = &(*hits)[nh++];
				memset(h, 0, sizeof *h);
				h->entry = c->entry;
				h->seg = s;
				if (pos == UINT32_MAX)
					pos = code_pos(q, words.v[w]);
				h->pos = pos;
				h->order = fl_lk_order(lk, s, c->entry);
				h->score = 1.0;
				h->literal = fl_idx_rank_literal(x);
				h->ev = fl_lk_evidence(ix, x, q);
			}
		}
	}
	fl_strv_free(&words);
	return nh;
}

/* How many distinct words (4 letters or more) of message m the text t
 * holds, as words, in any case. */
static int shared_words(const char *m, const char *t)
{
	int n = 0;
	char seen[16][32];
	int ns = 0;
	for (const char *p = m; *p;) {
		while (*p && !isalpha((unsigned char)*p))
			p++;
		const char *b = p;
		while (isalpha((unsigned char)*p))
			p++;
		size_t l = (size_t)(p - b);
		if (l < 4 || l >= 32)
			continue;
		bool dup = false;
		for (int k = 0; k < ns && !dup; k++)
			dup = strncasecmp(seen[k], b, l) == 0 && seen[k][l] == '\0';
		if (dup)
			continue;
		if (ns < 16) {
			memcpy(seen[ns], b, l);
			seen[ns++][l] = '\0';
		}
		for (const char *q = t; (q = strcasestr(q, seen[ns - 1])) != NULL; q += l)
			if ((q == t || !isalpha((unsigned char)q[-1])) && !isalpha((unsigned char)q[l])) {
				n++;
				break;
			}
		if (ns == 16)
			break;
	}
	return n;
}

/* Code-tier hits, in fl_lk_sort's order: of the hits of one line, those
 * whose message shares more words with the text first (one code raised at
 * many places with other texts: npm's EUSAGE), the order kept among
 * equals; the lines keep their order (a linter's first diagnostic stays
 * first, whichever record has the longer text). */
static void sort_by_words(const fl_lookup *lk, struct hit *hits, size_t nh, const char *text)
{
	if (nh < 2 || nh > 4096)
		return;
	int *w = fl_xmalloc(nh * sizeof *w);
	for (size_t i = 0; i < nh; i++) {
		const fl_index *ix = &lk->seg[hits[i].seg];
		w[i] = shared_words(ix_str(ix, ix->ent[hits[i].entry].msg), text);
	}
	for (size_t i = 1; i < nh; i++) { /* stable insertion */
		struct hit h = hits[i];
		int hw = w[i];
		size_t j = i;
		while (j > 0 && hits[j - 1].pos == h.pos && w[j - 1] < hw) {
			hits[j] = hits[j - 1];
			w[j] = w[j - 1];
			j--;
		}
		hits[j] = h;
		w[j] = hw;
	}
	free(w);
}

/* The cheap half of confirm: the segment the factor came from is in the
 * text. */
static bool may_match(const fl_index *ix, const idx_entry *x, const char *text,
		      size_t len)
{
	return !x->seglen || memmem(text, len, ix_str(ix, x->seg), x->seglen);
}

/* The same, knowing the factor occurrence ending at end: the segment
 * around it.  (When the entry matches, its segment holds the factor at
 * one of the occurrences, each of which is tried.) */
static bool seg_around(const fl_index *ix, const idx_entry *x, const char *text,
		       size_t len, size_t end)
{
	if (!x->seglen)
		return true;
	size_t flen = x->seglen < FL_FACTOR_WINDOW ? x->seglen : FL_FACTOR_WINDOW;
	if (end < flen + x->segoff)
		return false;
	size_t at = end - flen - x->segoff;
	return at + x->seglen <= len && memcmp(text + at, ix_str(ix, x->seg), x->seglen) == 0;
}

/* Confirm entry x against text[0, len); on a match fill h (offsets
 * relative to text).  seg_seen: the caller found x's segment in text. */
static bool confirm_as(const fl_index *ix, const idx_entry *x, const char *pat,
		       const char *text, size_t len, bool seg_seen, struct hit *h);
static bool confirm(const fl_index *ix, const idx_entry *x, const char *text,
		    size_t len, bool seg_seen, struct hit *h)
{
	return confirm_as(ix, x, NULL, text, len, seg_seen, h);
}

/* Does each capture of h fit the printf conversion it stands for
 * (match.c fl_capture_fits), in a language whose integer conversions print
 * digits only (the language table's printf_ints, by the record's path, as
 * the scan chose its language)?  Aligned text printed by a program
 * that is not this one ("Largest Allocation:     87200 bytes" against
 * "%s: %llu bytes") is no match.  True when the captures cannot be paired
 * with the placeholders. */
static bool captures_fit(const fl_index *ix, const idx_entry *x, const char *pat,
			 const char *text, size_t len, const struct hit *h)
{
	const char *msg = ix_str(ix, x->msg);
	if (!h->ncaps || !strchr(msg, '%'))
		return true;
	const fl_lang *L = fl_lang_for_path(ix_str(ix, x->path));
	if (!L || !L->printf_ints)
		return true;
	size_t st[FL_MAX_SEGMENTS + 1], ln[FL_MAX_SEGMENTS + 1];
	if (fl_message_placeholders(msg, st, ln, FL_MAX_SEGMENTS + 1) != h->ncaps)
		return true;
	/* x's pattern, or the lenient one with (.*?) (lenient_try) */
	size_t pl = strlen(pat);
	bool lead = strncmp(pat, "(.+?)", 5) == 0 || strncmp(pat, "(.*?)", 5) == 0;
	bool trail = pl >= 5 && (strcmp(pat + pl - 5, "(.+?)") == 0 ||
				 strcmp(pat + pl - 5, "(.*?)") == 0) &&
		     (pl == 5 || pat[pl - 6] != '\\');
	for (size_t k = 0; k < h->ncaps; k++) {
		int side = k == 0 && lead ? -1 : k + 1 == h->ncaps && trail ? 1 : 0;
		size_t cb = h->caps[k].start, ce = h->caps[k].end;
		/* a trailing placeholder stands for the rest of its line (a
		 * lazy group at the end of a regex captures the least) */
		if (side > 0)
			while (ce < len && text[ce] != '\n')
				ce++;
		if (!fl_capture_fits(msg + st[k], ln[k], text + cb, ce - cb, side))
			return false;
	}
	return true;
}

/* A point of evidence when a placeholder's name is in the value it
 * captured: `{gemfile} not found` for "/tmp/x/Gemfile.nothere not found",
 * where `{} not found` names nothing.  The name is the placeholder's last
 * run of 4+ letters (`{self.config_path}`: "path"), matched without
 * regard to case, in the last part of a path. */
/* Whether x's message can name what its placeholders capture: `{...}`
 * fields only (no printf conversion, no template `${...}`), the form the
 * site's search reads alike (search.js namedCaptures).  The most
 * named_captures() can give x: the bar's test below must not prune a hit
 * that would tie. */
static int named_bound(const fl_index *ix, const idx_entry *x)
{
	const char *msg = ix_str(ix, x->msg);
	return strchr(msg, '{') && !strchr(msg, '%') && !strchr(msg, '$');
}

/* Whether a placeholder's name word [w, w+n) says it holds some file, no
 * file in particular ({fname}, {source_file}, {path}; not {gemfile}). */
static bool file_word(const char *w, size_t n)
{
	static const char *const words[] = {"file", "fname", "filename", "path", "filepath", "fpath"};
	for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
		if (strlen(words[k]) == n && strncasecmp(w, words[k], n) == 0)
			return true;
	return false;
}

/* Whether a captured value looks like a file's name or path: a '/' in
 * it, or a name and an extension of 1 to 5 letters or digits
 * ("nofile.c"), no blanks. */
static bool file_value(const char *v, size_t n)
{
	if (!n || memchr(v, ' ', n))
		return false;
	if (memchr(v, '/', n))
		return true;
	const char *dot = memrchr(v, '.', n);
	if (!dot || dot == v || (size_t)(v + n - dot - 1) < 1 || (size_t)(v + n - dot - 1) > 5)
		return false;
	for (const char *p = dot + 1; p < v + n; p++)
		if (!isalnum((unsigned char)*p))
			return false;
	return true;
}

static int named_captures(const fl_index *ix, const idx_entry *x, const struct hit *h)
{
	const char *msg = ix_str(ix, x->msg);
	if (!h->ncaps || !h->text || !named_bound(ix, x))
		return 0;
	size_t st[FL_MAX_SEGMENTS + 1], ln[FL_MAX_SEGMENTS + 1];
	if (fl_message_placeholders(msg, st, ln, FL_MAX_SEGMENTS + 1) != h->ncaps)
		return 0;
	for (size_t k = 0; k < h->ncaps; k++) {
		const char *p = msg + st[k], *e = p + ln[k], *nb = NULL, *ne = NULL;
		bool fileish = false;
		for (const char *q = p; q < e;) {
			if (!isalpha((unsigned char)*q)) {
				q++;
				continue;
			}
			const char *r = q;
			while (r < e && isalpha((unsigned char)*r))
				r++;
			if (r - q >= 4)
				nb = q, ne = r;
			fileish = fileish || file_word(q, (size_t)(r - q));
			q = r;
		}
		size_t cl = h->caps[k].end - h->caps[k].start, nl = nb ? (size_t)(ne - nb) : 0;
		const char *c = h->text + h->caps[k].start;
		/* a name that says a file ({fname}, {path}, {source_file})
		 * holding a file's name or path ("nofile.c"), where another
		 * record's {f} says nothing */
		if (fileish && file_value(c, cl))
			return 1;
		/* a path: its last part (the folders a file is in name
		 * anything: a project, a scratch folder) */
		const char *sl = memrchr(c, '/', cl);
		if (sl) {
			cl -= (size_t)(sl + 1 - c);
			c = sl + 1;
		}
		for (size_t i = 0; nl && i + nl <= cl; i++)
			if (strncasecmp(c + i, nb, nl) == 0)
				return 1;
	}
	return 0;
}

/* confirm, with pattern pat instead of x's own when not NULL */
/* Where the message of the line s[0, n) starts (fl_strip_line of its
 * first 511 bytes).  The candidates of one line are confirmed one after
 * another, each asking of the same line: the last line's answer is
 * kept. */
static __thread struct {
	char line[512];
	size_t n, at;
} strip_memo = {.n = SIZE_MAX};

static size_t line_message_at(const char *s, size_t n)
{
	if (n > sizeof strip_memo.line - 1)
		n = sizeof strip_memo.line - 1;
	if (strip_memo.n == n && memcmp(strip_memo.line, s, n) == 0)
		return strip_memo.at;
	char line[sizeof strip_memo.line];
	memcpy(line, s, n);
	line[n] = '\0';
	size_t at = (size_t)(fl_strip_line(line) - line);
	memcpy(strip_memo.line, s, n);
	strip_memo.n = n;
	strip_memo.at = at;
	return at;
}

static bool confirm_as(const fl_index *ix, const idx_entry *x, const char *pat,
		       const char *text, size_t len, bool seg_seen, struct hit *h)
{
	fl_span whole;
	bool ok;
	if (pat) {
		ok = fl_regex_match(pat, text, len, h->caps, &h->ncaps, &whole) &&
		     captures_fit(ix, x, pat, text, len, h);
	} else if (x->flags & IDX_SIMPLE) {
		pat = ix_str(ix, x->pattern);
		/* every match holds the factor's segment: most candidates
		 * that share a literal window end here, without parsing */
		if (!seg_seen && !may_match(ix, x, text, len))
			return false;
		char buf[4096];
		size_t pl = x->patlen;
		char *b = pl < sizeof buf ? buf : fl_xmalloc(pl + 1);
		fl_prog prog;
		ok = fl_prog_parse(pat, b, &prog) &&
		     fl_prog_match(&prog, text, len, h->caps, &h->ncaps, &whole) &&
		     captures_fit(ix, x, pat, text, len, h);
		if (b != buf)
			free(b);
	} else {
		ok = fl_regex_match(ix_str(ix, x->pattern), text, len, h->caps, &h->ncaps,
				    &whole);
	}
	if (!ok)
		return false;
	h->text = text;
	/* coverage: how much of the message on that line (log prefixes
	 * stripped) the match spans */
	size_t ls = whole.start, le = whole.end;
	while (ls > 0 && text[ls - 1] != '\n')
		ls--;
	while (le < len && text[le] != '\n')
		le++;
	size_t msg_start = ls + line_message_at(text + ls, le - ls);
	if (msg_start > whole.start)
		msg_start = whole.start;
	/* a trailing placeholder stands for the rest of its line (its
	 * capture), though a lazy (.+?) ends the match after one character */
	size_t cover_end = whole.end;
	for (size_t k = 0; k < h->ncaps; k++)
		if (h->caps[k].end > cover_end && h->caps[k].end <= le)
			cover_end = h->caps[k].end;
	/* a leading placeholder stands for a value (a name, a number, a
	 * path): what it swallowed past FL_CAPTURE_COVER bytes is other text
	 * before the message ("{name} not found" at the end of a long line),
	 * while one between literals or at the end may hold a whole list or
	 * a nested message ("...: %s" of a cause) */
	size_t covered = cover_end - whole.start;
	for (size_t k = 0; k < h->ncaps; k++) {
		size_t cl = h->caps[k].end - h->caps[k].start;
		if (k > 0 || h->caps[k].start != whole.start)
			continue; /* only a leading placeholder */
		if (cl > FL_CAPTURE_COVER && covered > cl - FL_CAPTURE_COVER)
			covered -= cl - FL_CAPTURE_COVER;
	}
	h->coverage = le > msg_start ? (double)covered / (double)(le - msg_start) : 1.0;
	if (h->coverage > 1.0)
		h->coverage = 1.0;
	h->at = whole.start;
	h->end = whole.end;
	/* a short pattern found inside a longer message is a coincidence
	 * ("path" inside any line that names a path), not an answer */
	if (x->literal < FL_SHORT_PATTERN && h->coverage < FL_SHORT_COVER)
		return false;
	/* so is a message that starts with a word found in the middle of
	 * one ("parse %s: %v" in "optparse (default: 0.2.0)") */
	const char *m0 = ix_str(ix, x->msg);
	if (whole.start > 0 && isalnum((unsigned char)m0[0]) &&
	    isalnum((unsigned char)text[whole.start]) &&
	    isalnum((unsigned char)text[whole.start - 1]))
		return false;
	/* a record raised without a message stands for its class name alone
	 * ("java.lang.IllegalStateException", a traceback's "ValueError"):
	 * the class followed by a message on the same line is another error
	 * of that class */
	const char *cls = ix_str(ix, x->cls);
	if (*cls && strcmp(cls, ix_str(ix, x->msg)) == 0) {
		size_t k = whole.end;
		while (k < le && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == ':'))
			k++;
		if (k < le)
			return false;
	}
	return true;
}

size_t fl_lk_message_len(const char *line, size_t len)
{
	char buf[512];
	size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	size_t prefix = (size_t)(fl_strip_line(buf) - buf);
	return len - prefix;
}

static bool line_local(const idx_entry *x)
{
	return (x->flags & IDX_LOCAL) != 0;
}

/* Is entry x below the bar (see bar)? */
static bool below_bar(const fl_index *ix, const idx_entry *x, const fl_query *q)
{
	if (!bar.k || bar.n < bar.k)
		return false;
	/* the record at the line the text names ranks first on its line
	 * (rank.c cmp_same_line), whatever its literal */
	if (q && q->sites.n && fl_lk_site_named(ix, x, q))
		return false;
	uint32_t least = (uint32_t)(bar.heap[0] >> 32);
	if (x->literal != least)
		return x->literal < least;
	return hit_key(x->literal, (q ? fl_lk_evidence(ix, x, q) : 0) + named_bound(ix, x)) < bar.heap[0];
}

/* The message of the query being tried (struct hit's pos). */
static __thread uint32_t cur_pos;

static struct hit *new_hit(struct hit **hits, size_t *nh, size_t *cap)
{
	if (*nh == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*hits = fl_xrealloc(*hits, *cap * sizeof **hits);
	}
	struct hit *h = &(*hits)[*nh];
	memset(h, 0, sizeof *h);
	h->pos = cur_pos;
	return h;
}

/* Whether two neighbouring placeholders of h (neither the first nor the
 * last, whose ends the regex leaves lazy) each hold an odd number of
 * double quotes: one quoted value cut in two, a match that read the text
 * wrong ("[ruby {a} {b} {c} {d}]" over `[ruby -e "exit 3" -- x]`, where
 * "[{show_command}]" holds it whole). */
static bool split_quote(const struct hit *h)
{
	if (!h->text || h->ncaps < 4)
		return false;
	bool odd_prev = false;
	for (size_t k = 1; k + 1 < h->ncaps; k++) {
		size_t q = 0;
		for (size_t i = h->caps[k].start; i < h->caps[k].end; i++)
			q += h->text[i] == '"';
		bool odd = q & 1;
		if (odd && odd_prev)
			return true;
		odd_prev = odd;
	}
	return false;
}

/* A confirmed hit h of entry e: marked tried, its specificity, evidence
 * and confidence set, and, when confident and spanning its line, counted
 * in the bar (only those can push others out: rank.c's order puts them
 * first, then by literal and evidence). */
static void accept_hit(const fl_lookup *lk, uint32_t s, uint32_t e, const fl_query *q,
		       struct hit *h)
{
	const fl_index *ix = &lk->seg[s];
	const idx_entry *x = &ix->ent[e];
	set_stamp(gid(lk, s, e));
	h->entry = e;
	h->seg = s;
	h->order = fl_lk_order(lk, s, e);
	h->literal = fl_idx_rank_literal(x);
	h->cap_ev = named_captures(ix, x, h);
	h->ev = (q ? fl_lk_evidence(ix, x, q) : 0) + h->cap_ev;
	h->split = split_quote(h);
	fl_lk_judge(lk, q, h);
	/* (not a part of a multi-line message: drop_parts may drop it
	 * for its whole, which spans less of the line; nor one that splits
	 * a quoted text, which ranks after those that do not) */
	if (h->strong && h->covers && !(x->flags & IDX_PART) && !h->split)
		bar_add(hit_key(h->literal, h->ev));
}

/* Can a short bounded pattern of factor f, seen ending at end on the line
 * [ls, le), still cover FL_SHORT_COVER of that line's message?  The
 * message holds the match, which starts at or before the occurrence (the
 * factor is the pattern's only segment), so it is at least as long as the
 * rest of the line from there: a cheap bound before stripping the line. */
static bool short_may_cover(const fl_index *ix, uint32_t f, size_t ls, size_t le,
			    size_t end)
{
	if (ix->fmax[f] == UINT32_MAX)
		return true;
	uint32_t flen = ix->ent[ix->fent[ix->fidx[f]]].literal;
	size_t start = end >= flen ? end - flen : 0;
	if (start < ls)
		start = ls;
	return (double)ix->fmax[f] >= FL_SHORT_COVER * (double)(le - start);
}

bool fl_lk_short_viable(const fl_lookup *lk, uint32_t id, const char *line,
			size_t len, size_t end, size_t *msglen)
{
	uint32_t s, f;
	if (!fl_lk_is_factor(lk, id, &s, &f))
		return true;
	const fl_index *ix = &lk->seg[s];
	if (ix->fmax[f] == UINT32_MAX)
		return true;
	if (!short_may_cover(ix, f, 0, len, end))
		return false;
	if (*msglen == SIZE_MAX)
		*msglen = fl_lk_message_len(line, len);
	return (double)ix->fmax[f] >= FL_SHORT_COVER * (double)*msglen;
}

/* The pattern hits that factor f, last seen on the line [ls, le) of text
 * ending at end, brings: each of its entries not tried yet is tried once
 * on that line (local patterns) or once on the whole text (the others).
 * Another occurrence of f on the same line would bring the same
 * candidates, and the last one gives short_may_cover its loosest bound. */
static void try_factor(const fl_lookup *lk, uint32_t s, uint32_t f, const char *text,
		       size_t len, size_t ls, size_t le, size_t end,
		       size_t *msglen, const char *repo, const fl_query *q,
		       struct hit **hits, size_t *nh, size_t *cap)
{
	const fl_index *ix = &lk->seg[s];
	if (!short_may_cover(ix, f, ls, le, end))
		return; /* every entry of f is short and bounded */
	size_t ml = 0;
	if (ix->fmax[f] != UINT32_MAX) {
		if (*msglen == SIZE_MAX)
			*msglen = fl_lk_message_len(text + ls, le - ls);
		ml = *msglen;
	}
	for (uint32_t k = ix->fidx[f]; k < ix->fidx[f + 1]; k++) {
		if (fl_lk_expired())
			return;
		uint32_t e = ix->fent[k], g = gid(lk, s, e);
		if (stamped(g))
			continue;
		const idx_entry *x = &ix->ent[e];
		if (below_bar(ix, x, q))
			continue;
		bool local = line_local(x);
		/* a pattern longer than the line cannot match it; with its
		 * placeholders empty it may (lenient_pass: "Missing required
		 * option: o" of "Missing required option{}: {}") */
		if (local && x->minlen > le - ls) {
			if (failed.on && x->literal >= LENIENT_LITERAL && x->literal <= le - ls)
				failed_add(lk, s, e, cur_pos, q);
			continue;
		}
		/* a short pattern that cannot span enough of this message */
		if (ml && x->literal < FL_SHORT_PATTERN && x->maxlen != UINT32_MAX &&
		    (double)x->maxlen < FL_SHORT_COVER * (double)ml)
			continue;
		if (!live_ok(lk, s, x, repo)) {
			set_stamp(g);
			continue;
		}
		/* its segment around this occurrence, else anywhere on the line
		 * (where another occurrence of f would have found it) */
		if (local ? !seg_around(ix, x, text, le, end) &&
				    !may_match(ix, x, text + ls, le - ls)
			  : !may_match(ix, x, text, len)) {
			if (!local)
				set_stamp(g); /* not in the whole text */
			continue;
		}
		struct hit *h = new_hit(hits, nh, cap);
		bool ok = local ? confirm(ix, x, text + ls, le - ls, true, h)
				: confirm(ix, x, text, len, true, h);
		if (!local)
			set_stamp(g); /* tried on the whole text */
		/* Python's %(value)r, literal in the stored pattern: its
		 * loose pattern (fl_pattern_loose), a lenient hit */
		bool loose = false;
		if (!ok && failed.on) {
			char *lp = fl_pattern_loose(ix_str(ix, x->pattern));
			if (lp) {
				memset(h, 0, sizeof *h);
				h->pos = cur_pos;
				ok = loose = local ? confirm_as(ix, x, lp, text + ls, le - ls, true, h)
						   : confirm_as(ix, x, lp, text, len, true, h);
				free(lp);
			}
		}
		if (!ok) {
			if (failed.on && x->literal >= LENIENT_LITERAL)
				failed_add(lk, s, e, cur_pos, q);
			continue;
		}
		if (local) {
			for (size_t c = 0; c < h->ncaps; c++) {
				h->caps[c].start += ls;
				h->caps[c].end += ls;
			}
			h->at += ls; /* like the captures: relative to text */
			h->text = text;
		}
		accept_hit(lk, s, e, q, h);
		h->lenient = loose;
		(*nh)++;
	}
}

/* What try_factor reads of the factors occurring on one line, asked of
 * the memory in four rounds (each needs the one before: the factor's
 * entry list, then its first entries and their stamps, then those
 * entries' segment and pattern strings), so that the
 * misses of a line's dozens of factors overlap instead of each waiting
 * for its own: at a million records these tables are far larger than
 * the caches, and the waits were most of a log's error lines. */
#define PREFETCH_ENTRIES 4
static void prefetch_line(const fl_lookup *lk, const fl_occ *occs, size_t n)
{
	if (n < 2)
		return;
	for (size_t r = 0; r < n; r++) {
		uint32_t s, f;
		if (!fl_lk_is_factor(lk, occs[r].id, &s, &f))
			continue;
		if (tls.written)
			__builtin_prefetch(&tls.fdone[occs[r].id]);
		__builtin_prefetch(&lk->seg[s].fidx[f]);
	}
	for (size_t r = 0; r < n; r++) {
		uint32_t s, f;
		if (fl_lk_is_factor(lk, occs[r].id, &s, &f))
			__builtin_prefetch(&lk->seg[s].fent[lk->seg[s].fidx[f]]);
	}
	for (size_t r = 0; r < n; r++) {
		uint32_t s, f;
		if (!fl_lk_is_factor(lk, occs[r].id, &s, &f))
			continue;
		const fl_index *ix = &lk->seg[s];
		uint32_t k = ix->fidx[f], end = ix->fidx[f + 1];
		for (uint32_t c = 0; k < end && c < PREFETCH_ENTRIES; k++, c++) {
			uint32_t e = ix->fent[k];
			__builtin_prefetch(&ix->ent[e]);
			prefetch_stamp(gid(lk, s, e));
		}
	}
	/* and the strings a candidate is confirmed with: the segment every
	 * candidate is compared with, the pattern the few whose segment is
	 * there are matched with */
	for (size_t r = 0; r < n; r++) {
		uint32_t s, f;
		if (!fl_lk_is_factor(lk, occs[r].id, &s, &f))
			continue;
		const fl_index *ix = &lk->seg[s];
		uint32_t k = ix->fidx[f], end = ix->fidx[f + 1];
		for (uint32_t c = 0; k < end && c < PREFETCH_ENTRIES; k++, c++) {
			const idx_entry *x = &ix->ent[ix->fent[k]];
			__builtin_prefetch(ix_str(ix, x->seg));
			__builtin_prefetch(ix_str(ix, x->pattern));
		}
	}
}

/* The candidates of the occurrences (ends in increasing order), line by
 * line: on each line, the entries of each factor seen there, once. */
static void occ_pass(const fl_lookup *lk, const char *text, size_t len,
		     const fl_occ *occs, size_t nocc, const char *repo,
		     const fl_query *q, struct hit **hits, size_t *nh, size_t *cap)
{
	size_t o = 0;
	while (o < nocc && !fl_lk_expired()) {
		size_t end = occs[o].end;
		if (end > len) {
			o++;
			continue;
		}
		/* the line holding offset end, and the occurrences on it */
		const char *nl = end ? memrchr(text, '\n', end) : NULL;
		size_t ls = nl ? (size_t)(nl - text) + 1 : 0;
		nl = memchr(text + end, '\n', len - end);
		size_t le = nl ? (size_t)(nl - text) : len;
		size_t o2 = o + 1;
		while (o2 < nocc && occs[o2].end >= ls && occs[o2].end <= le)
			o2++;
		next_line();
		prefetch_line(lk, occs + o, o2 - o);
		size_t msglen = SIZE_MAX; /* the line's message, when needed */
		for (size_t r = o2; r-- > o;) {
			uint32_t id = occs[r].id, s, f;
			if (!fl_lk_is_factor(lk, id, &s, &f) || line_done(id))
				continue; /* an error code, or f done on this line */
			try_factor(lk, s, f, text, len, ls, le, occs[r].end, &msglen, repo, q,
				   hits, nh, cap);
		}
		o = o2;
	}
}

/* The entries with no factor, and every entry when the literal scan was
 * cut short: tried on the whole text. */
static void always_pass(const fl_lookup *lk, const char *text, size_t len,
			bool complete, const char *repo, const fl_query *q,
			struct hit **hits, size_t *nh, size_t *cap)
{
	for (uint32_t s = 0; s < lk->nseg; s++) {
		const fl_index *ix = &lk->seg[s];
		uint64_t nall = complete ? ix->h->n_always : ix->h->n_entries;
		for (uint64_t a = 0; a < nall && !fl_lk_expired(); a++) {
			uint32_t e = complete ? ix->always[a] : (uint32_t)a;
			if (stamped(gid(lk, s, e)))
				continue;
			const idx_entry *x = &ix->ent[e];
			if (below_bar(ix, x, q) || !live_ok(lk, s, x, repo))
				continue;
			struct hit *h = new_hit(hits, nh, cap);
			if (!confirm(ix, x, text, len, false, h))
				continue;
			accept_hit(lk, s, e, q, h);
			(*nh)++;
		}
	}
}

/* Pattern hits of one text from its literal occurrences (each candidate
 * confirmed on the line it occurs on, or on the whole text for multi-line
 * and regex patterns) and the entries without a factor.  Entries already
 * in hits[0, nh) are skipped.  Returns the new count. */
size_t fl_lk_pattern_occs(const fl_lookup *lk, const char *text, size_t len,
			  const fl_occ *occs, size_t nocc, bool complete,
			  const char *repo, const fl_query *q, size_t want,
			  struct hit **hits, size_t nh, size_t *cap)
{
	bar_reset(want);
	for (size_t j = 0; j < nh; j++)
		if (!(*hits)[j].split)
			bar_add(hit_key((*hits)[j].literal, (*hits)[j].ev));
	next_stamp();
	for (size_t j = 0; j < nh; j++)
		set_stamp(gid(lk, (*hits)[j].seg, (*hits)[j].entry));
	occ_pass(lk, text, len, occs, nocc, repo, q, hits, &nh, cap);
	always_pass(lk, text, len, complete, repo, q, hits, &nh, cap);
	return nh;
}

size_t fl_lk_pattern_text(const fl_lookup *lk, const char *text, size_t len,
			  const char *repo, const fl_query *q, struct hit **hits,
			  size_t nh, size_t *cap)
{
	next_stamp();
	for (size_t j = 0; j < nh; j++)
		set_stamp(gid(lk, (*hits)[j].seg, (*hits)[j].entry));
	bool complete = true;
	for (size_t bs = 0; bs < len && !fl_lk_expired();) {
		size_t be = len - bs > FL_SCAN_BLOCK ? bs + FL_SCAN_BLOCK : len;
		if (be < len) {
			const char *nl = memchr(text + be, '\n', len - be);
			be = nl ? (size_t)(nl - text) + 1 : len;
		}
		if (be > UINT32_MAX) {
			complete = false; /* offsets are 32-bit */
			break;
		}
		/* from a factor's length before the block, keeping the
		 * occurrences that end inside it */
		size_t from = bs > FL_FACTOR_WINDOW ? bs - FL_FACTOR_WINDOW : 0;
		if (!fl_lk_scan(lk, text + from, be - from, &pocc))
			complete = false;
		size_t n = 0;
		for (size_t i = 0; i < pocc.n; i++)
			if (from + pocc.v[i].end > bs)
				pocc.v[n++] = (fl_occ){pocc.v[i].id, (uint32_t)(from + pocc.v[i].end)};
		occ_pass(lk, text, len, pocc.v, n, repo, q, hits, &nh, cap);
		bs = be;
	}
	always_pass(lk, text, len, complete, repo, q, hits, &nh, cap);
	return nh;
}

/* ---- one literal scan per query ----------------------------------------------- */

/* The factor occurrences of all of text[0, len), scanned in blocks as
 * fl_lk_pattern_text does, into ob (ends in increasing order); false when
 * they could not all be had (too many, too long a text, out of time). */
static bool scan_whole(const fl_lookup *lk, const char *text, size_t len, fl_occs *ob)
{
	ob->n = 0;
	if (len > UINT32_MAX)
		return false;
	for (size_t bs = 0; bs < len;) {
		if (fl_lk_expired())
			return false;
		size_t be = len - bs > FL_SCAN_BLOCK ? bs + FL_SCAN_BLOCK : len;
		if (be < len) {
			const char *nl = memchr(text + be, '\n', len - be);
			be = nl ? (size_t)(nl - text) + 1 : len;
		}
		size_t from = bs > FL_FACTOR_WINDOW ? bs - FL_FACTOR_WINDOW : 0;
		if (!fl_lk_scan(lk, text + from, be - from, &pocc))
			return false;
		for (size_t i = 0; i < pocc.n; i++) {
			size_t end = from + pocc.v[i].end;
			uint32_t s, f;
			if (end <= bs || !fl_lk_is_factor(lk, pocc.v[i].id, &s, &f))
				continue;
			if (ob->n == ob->cap) {
				if (ob->cap >= OCC_MAX)
					return false;
				ob->cap = ob->cap ? ob->cap * 2 : 1024;
				ob->v = fl_xrealloc(ob->v, ob->cap * sizeof *ob->v);
			}
			ob->v[ob->n++] = (fl_occ){pocc.v[i].id, (uint32_t)end};
		}
		bs = be;
	}
	return true;
}

/* The occurrences lying inside [off, off + len) of a scanned text (occ:
 * ends in increasing order), relative to off, into ob: exactly what a
 * scan of those bytes alone finds (factors only: the pattern tier's). */
static void slice_occs(const fl_lookup *lk, const fl_occ *occ, size_t nocc, size_t off,
		       size_t len, fl_occs *ob)
{
	ob->n = 0;
	size_t lo = 0, hi = nocc;
	while (lo < hi) { /* the first occurrence ending after off */
		size_t mid = (lo + hi) / 2;
		if (occ[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < nocc && occ[i].end <= off + len; i++) {
		uint32_t s, f;
		if (!fl_lk_is_factor(lk, occ[i].id, &s, &f) || occ[i].end < off + lk->seg[s].flen[f])
			continue; /* an error code, or it starts before off */
		if (ob->n == ob->cap) {
			ob->cap = ob->cap ? ob->cap * 2 : 1024;
			ob->v = fl_xrealloc(ob->v, ob->cap * sizeof *ob->v);
		}
		ob->v[ob->n++] = (fl_occ){occ[i].id, (uint32_t)(occ[i].end - off)};
	}
}

/* A text scanned once; the texts found inside it take their occurrences
 * from it instead of being scanned again.  Looking them up costs at most
 * budget bytes searched in all (then texts are scanned again). */
struct scanned {
	const char *text;
	size_t len;
	const fl_occ *occ;
	size_t nocc;
	size_t cursor;         /* where the last text was found ended */
};

/* Where t[0, len) occurs in sc's text, or SIZE_MAX: from the cursor on
 * first (the messages of a query follow its lines), then from the start. */
static size_t locate(struct scanned *sc, const char *t, size_t len, size_t *budget)
{
	if (t == sc->text && len == sc->len)
		return 0;
	if (!len || len > sc->len)
		return SIZE_MAX;
	size_t c = sc->cursor <= sc->len ? sc->cursor : 0;
	const char *at = NULL;
	if (sc->len - c >= len && *budget >= sc->len - c) {
		*budget -= sc->len - c;
		at = memmem(sc->text + c, sc->len - c, t, len);
	}
	if (!at && c > 0) {
		size_t n = c + len - 1 < sc->len ? c + len - 1 : sc->len;
		if (*budget < n)
			return SIZE_MAX;
		*budget -= n;
		at = memmem(sc->text, n, t, len);
	}
	if (!at)
		return SIZE_MAX;
	sc->cursor = (size_t)(at - sc->text) + len;
	return (size_t)(at - sc->text);
}

/* fl_lk_pattern_text from occurrences known to be complete. */
static size_t pattern_known(const fl_lookup *lk, const char *text, size_t len,
			    const fl_occ *occs, size_t nocc, const char *repo,
			    const fl_query *q, struct hit **hits, size_t nh, size_t *cap)
{
	next_stamp();
	for (size_t j = 0; j < nh; j++)
		set_stamp(gid(lk, (*hits)[j].seg, (*hits)[j].entry));
	occ_pass(lk, text, len, occs, nocc, repo, q, hits, &nh, cap);
	always_pass(lk, text, len, true, repo, q, hits, &nh, cap);
	return nh;
}

/* The pattern hits of text, a message of the query or its cleaned text:
 * from the occurrences of the scanned text it lies in (src[0, nsrc)),
 * else from a scan of its own. */
static size_t pattern_of(const fl_lookup *lk, struct scanned *src, size_t nsrc,
			 size_t *budget, const char *text, size_t len, const char *repo,
			 const fl_query *q, struct hit **hits, size_t nh, size_t *cap)
{
	for (size_t k = 0; k < nsrc; k++) {
		size_t off = locate(&src[k], text, len, budget);
		if (off == SIZE_MAX)
			continue;
		slice_occs(lk, src[k].occ, src[k].nocc, off, len, &pocc);
		return pattern_known(lk, text, len, pocc.v, pocc.n, repo, q, hits, nh, cap);
	}
	return fl_lk_pattern_text(lk, text, len, repo, q, hits, nh, cap);
}

/* The message of q whose text is the line of clean at offset at (a hit
 * of the whole text: a multi-line message starts there), else the count
 * of messages (after every message). */
static uint32_t pos_of_line(const fl_query *q, size_t at)
{
	const char *c = q->clean;
	size_t ls = at, le = at;
	while (ls > 0 && c[ls - 1] != '\n')
		ls--;
	while (c[le] && c[le] != '\n')
		le++;
	for (size_t i = 0; i < q->messages.n; i++)
		if (strlen(q->messages.v[i]) == le - ls &&
		    memcmp(q->messages.v[i], c + ls, le - ls) == 0)
			return (uint32_t)i;
	return (uint32_t)q->messages.n;
}

/* A line's part whose whole record matched too is the same answer told
 * less well: dropped. */
static size_t drop_parts(const fl_lookup *lk, struct hit *hits, size_t nh)
{
	size_t parts = 0;
	for (uint32_t s = 0; s < lk->nseg; s++)
		parts += lk->seg[s].h->n_parts;
	if (!parts)
		return nh;
	next_stamp();
	for (size_t i = 0; i < nh; i++)
		set_stamp(gid(lk, hits[i].seg, hits[i].entry));
	size_t n = 0;
	for (size_t i = 0; i < nh; i++) {
		const idx_entry *x = &lk->seg[hits[i].seg].ent[hits[i].entry];
		if ((x->flags & IDX_PART) && stamped(gid(lk, hits[i].seg, x->whole)))
			continue;
		hits[n++] = hits[i];
	}
	return n;
}

/* A message whose literal words only say that an error happened and
 * where: a program's name before ':', level words, short words ("jq:
 * error (at %s): %s", "%s: fatal: %s", "Error: %s"). */
static bool banner_only(const char *msg)
{
	static const char *const levels[] = {"error", "errors", "fatal", "warning", "warn",
					     "exception", "panic", "err", "failure", "critical",
					     "uncaught", "unhandled", "caught", "line", "file",
					     "column", "col", NULL};
	char buf[32 * FL_TOKEN_MAX];
	const char *toks[32];
	size_t nt = fl_tokens(msg, buf, toks, 32);
	if (nt >= 32)
		return false;
	/* "prog: ...": the program's name */
	size_t first = 0;
	while (msg[first] && (isalnum((unsigned char)msg[first]) || msg[first] == '-' ||
			      msg[first] == '_'))
		first++;
	bool named = first > 0 && msg[first] == ':';
	for (size_t i = 0; i < nt; i++) {
		size_t tl = strlen(toks[i]);
		if (tl <= 2 || (i == 0 && named && tl == first))
			continue;
		bool level = false;
		for (size_t k = 0; levels[k] && !level; k++)
			level = strcmp(toks[i], levels[k]) == 0;
		if (!level)
			return false;
	}
	return true;
}

/* Where the last literal part of h's match lies in its text [*ls, *le)
 * (a leading lazy placeholder may have swallowed text before the message,
 * so its start says little). */
static void last_literal(const struct hit *h, size_t *ls, size_t *le)
{
	size_t end = h->end;
	size_t k = h->ncaps;
	while (k > 0 && h->caps[k - 1].end == end && h->caps[k - 1].start < end) {
		end = h->caps[k - 1].start; /* a trailing placeholder */
		k--;
	}
	*le = end;
	*ls = h->at;
	for (size_t i = 0; i < k; i++)
		if (h->caps[i].end <= end && h->caps[i].end > *ls)
			*ls = h->caps[i].end;
}

/* A hit inside a banner's placeholder on its line, not confident alone,
 * still ranks before the banner with this much information (rank.c's
 * units: 1 is a confident answer's). */
#define WRAPPED_INFO_MIN 0.5
/* the literal characters of its own (fl_idx_rank_literal) that a hit
 * needs to be the cause a banner's placeholder holds */
#define OWN_LITERAL_MIN 6

/* Did A and B match the same text (both the message, or both the line as
 * printed)? */
static bool same_text(const struct hit *A, const struct hit *B)
{
	return B->text == A->text || strcmp(B->text, A->text) == 0;
}

/* Does placeholder k of A, on B's line, hold B's text (B's last literal
 * run inside it; or, one of them matched the line as printed and the
 * other its message, A's placeholder ending with B's line from B's match
 * on)?  mark_wrappers' test of a banner, shared with mark_quoting. */
static bool holds_on_line(const struct hit *A, size_t k, const struct hit *B)
{
	size_t ls, le;
	last_literal(B, &ls, &le);
	size_t cl = A->caps[k].end - A->caps[k].start;
	bool inside;
	if (same_text(A, B)) {
		inside = ls >= A->caps[k].start && le <= A->caps[k].end;
	} else {
		size_t rl = strcspn(B->text + B->at, "\n");
		inside = rl && rl <= cl && memcmp(A->text + A->caps[k].end - rl, B->text + B->at, rl) == 0;
	}
	return inside && le > ls;
}

/* Does msg's last line with text hold a placeholder alone ("{msg}",
 * "${getErrorMessage(error)}", "%s")? */
static bool ends_with_placeholder(const char *msg)
{
	size_t n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ' || msg[n - 1] == '\t'))
		n--;
	size_t s = n;
	while (s && msg[s - 1] != '\n')
		s--;
	while (s < n && (msg[s] == ' ' || msg[s] == '\t'))
		s++;
	const char *l = msg + s;
	size_t ll = n - s;
	if (ll >= 2 && ((l[0] == '{' && l[ll - 1] == '}') ||
			(l[0] == '$' && l[1] == '{' && l[ll - 1] == '}') ||
			(l[0] == '#' && l[1] == '{' && l[ll - 1] == '}'))) {
		for (size_t i = 1; i + 1 < ll; i++)
			if (l[i] == '}' && i + 1 < ll && l[i + 1] != ')' && l[i + 1] != '}')
				return false; /* two placeholders and text between */
		return true;
	}
	return ll == 2 && l[0] == '%' && isalpha((unsigned char)l[1]);
}

/* Does msg point to the program's help ("try 'curl --help' or 'curl
 * --manual' for more information", "Run 'go help %s' for details.")?
 * Such a line follows the error it is printed for. */
static bool help_hint(const char *msg)
{
	static const char *const ends[] = {"for more information", "for more info",
					   "for details", "for more details", "for usage",
					   "for a list", "for help", "for the list", NULL};
	if (!strcasestr(msg, "help") || strchr(msg, '\n'))
		return false;
	for (size_t k = 0; ends[k]; k++)
		if (strcasestr(msg, ends[k]))
			return true;
	return false;
}

/* A hit whose placeholder captured the whole of a message another
 * confident hit matches is a wrapper of that message (a crash banner
 * "Oops! Something went wrong ... {message}", "error (at {where}):
 * {message}"): the message it wraps is the more specific answer. */
/* hit h's entry */
static const idx_entry *ent_of(const fl_lookup *lk, const struct hit *h)
{
	return &lk->seg[h->seg].ent[h->entry];
}

/* the message of hit h's entry */
static const char *msg_of(const fl_lookup *lk, const struct hit *h)
{
	return ix_str(&lk->seg[h->seg], ent_of(lk, h)->msg);
}

static void mark_wrappers(const fl_lookup *lk, const fl_query *q, struct hit *hits,
			  size_t nh)
{
	if (nh < 2 || nh > 256)
		return;
	for (size_t a = 0; a < nh; a++) {
		struct hit *A = &hits[a];
		const fl_index *ix = &lk->seg[A->seg];
		/* a pointer to the help after an earlier line that tells
		 * something: that line is the error (not when only a
		 * definition has its text: the runtime's flag parser says
		 * "flag provided but not defined" as an Error() method of
		 * the program does) */
		if (help_hint(msg_of(lk, A)))
			for (size_t b = 0; b < nh && !A->wraps; b++)
				A->wraps = hits[b].pos < A->pos && !hits[b].def &&
					   (hits[b].strong || hits[b].info >= WRAPPED_INFO_MIN) &&
					   !help_hint(msg_of(lk, &hits[b]));
		/* the first line alone of a multi-line record (its whole did
		 * not match) with a later line matching another record: a
		 * banner before the message ("Oops! Something went wrong!") */
		if (ix->ent[A->entry].flags & IDX_PART) {
			/* whose record ends with a line that is a placeholder
			 * alone ("${getErrorMessage(error)}"): a wrapper of any
			 * message, the first line of another record's too */
			bool any = ends_with_placeholder(ix_str(ix, ix->ent[ix->ent[A->entry].whole].msg));
			/* (not when a frame of the text names A's line and
			 * none the later line's record: A raised what was
			 * printed, and the later line is the cause it quotes,
			 * matched by another tree's record of the runtime's
			 * words -- mocha's "Could not load %s \"%s\":\n\n %O"
			 * around Node's "Cannot find module ...") */
			for (size_t b = 0; b < nh && !A->wraps; b++)
				A->wraps = hits[b].strong && hits[b].pos > A->pos &&
					   !(A->sited && !hits[b].sited) &&
					   (any || !(ent_of(lk, &hits[b])->flags & IDX_PART)) &&
					   (hits[b].seg != A->seg ||
					    ent_of(lk, &hits[b])->whole != ent_of(lk, A)->whole);
		}
		/* whether A's text says nothing of its own (a banner), once */
		bool banner = A->ncaps && !A->wraps && banner_only(msg_of(lk, A));
		for (size_t k = 0; k < A->ncaps && !A->wraps; k++) {
			size_t cl = A->caps[k].end - A->caps[k].start;
			for (size_t b = 0; b < nh && !A->wraps; b++) {
				const struct hit *B = &hits[b];
				if (b == a)
					continue;
				/* a frame of the text names A's line and none
				 * B's: A raised it, whatever another program's
				 * record of the text it quotes (an OS error's
				 * "No such file or directory: %s") */
				if (A->sited && !B->sited)
					continue;
				/* B says nothing of its own: its text is an OS
				 * error's, which any program prints alike
				 * (uucore's "No such file or directory"), not a
				 * cause that A's placeholder carries */
				if (B->literal < OWN_LITERAL_MIN)
					continue;
				if (B->pos == A->pos) {
					/* on the same line: B's match lies inside the
					 * placeholder of a banner ("jq: error (at
					 * %s): %s" around "... has no length"; not
					 * "failed to open %s: %s" around a cause),
					 * or of a line that prints an error value
					 * B made ("parse error: %s" printing "...
					 * at line %d, column %d"; the value's
					 * maker raised it, the print reports it).
					 * A line that raises is no banner: an
					 * error value quoting another's message
					 * raised the text printed; but an
					 * Error() method's text around another
					 * error's ("cannot find module providing
					 * package %s: %v") only formats it.
					 * A banner that says nothing of its own
					 * needs no confident B, only one
					 * informative enough to be no
					 * coincidence; a line that says what
					 * failed ("lsd: Configuration file {}
					 * format error, {}.") wraps only a
					 * confident one */
					if (!B->strong && (B->info < WRAPPED_INFO_MIN || !banner))
						continue;
					/* (one matched the line as printed, the
					 * other its message: A's placeholder ends
					 * with B's line from B's match on, as
					 * "prog: error: %s" around "option -x: "
					 * and B's text) */
					/* A raise that formats B's message is
					 * a banner too when the text's evidence
					 * (a frame, the command's words) points
					 * at B's file more than at A's: another
					 * raise of the same words, outside the
					 * tree, printed it ("go build
					 * -buildvcs=frob": the flag package's
					 * "invalid boolean value %q for -%s: %v",
					 * which a file of the tree copies,
					 * around build.go's message) */
					A->wraps = holds_on_line(A, k, B) &&
						   (!A->raised || A->def ||
						    B->ev - B->cap_ev > A->ev - A->cap_ev) &&
						   (B->raised || banner);
					continue;
				}
				if (!B->strong)
					continue;
				if (B->pos >= q->messages.n || B->pos == A->pos)
					continue;
				const char *m = q->messages.v[B->pos];
				size_t ml = strlen(m);
				A->wraps = ml && ml <= cl &&
					   memmem(A->text + A->caps[k].start, cl, m, ml) != NULL;
			}
		}
	}
}

/* Whether the placeholder [p, p+n) of a message is named for an error,
 * or wraps one: `{exc}`, `{e}`, `{err!s}`, `{str(error)}`,
 * `{te.args[0]}` (an exception's arguments), Go's `%w`. */
static bool error_placeholder(const char *p, size_t n)
{
	static const char *const words[] = {"e", "ex", "exc", "err", "error", "exception",
					    "cause", "args", NULL};
	if (n == 2 && memcmp(p, "%w", 2) == 0)
		return true;
	if (!n || *p != '{')
		return false;
	for (size_t i = 0; i < n;) {
		if (!isalnum((unsigned char)p[i]) && p[i] != '_') {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && (isalnum((unsigned char)p[j]) || p[j] == '_'))
			j++;
		/* a conversion after '!' or a format after ':' is no name */
		if (!(i > 0 && (p[i - 1] == '!' || p[i - 1] == ':')))
			for (const char *const *w = words; *w; w++)
				if (strlen(*w) == j - i && strncasecmp(p + i, *w, j - i) == 0)
					return true;
		i = j;
	}
	return false;
}

/* Whether the last placeholder of A's message is named for an error. */
static bool quotes_as_error(const fl_lookup *lk, const struct hit *A)
{
	const char *msg = ix_str(&lk->seg[A->seg], ent_of(lk, A)->msg);
	size_t st[FL_MAX_SEGMENTS + 1], ln[FL_MAX_SEGMENTS + 1];
	size_t n = fl_message_placeholders(msg, st, ln, FL_MAX_SEGMENTS + 1);
	return n && n == A->ncaps && error_placeholder(msg + st[n - 1], ln[n - 1]);
}

/* A raise whose last placeholder holds, on its line, the whole text of
 * another confident hit quotes that message in its own: Python's `raise
 * ConfigError('invalid config: %s' % e)` around PyYAML's "while parsing a
 * flow node", a Go error wrapping its cause ("loading config: %w").  The
 * text printed is the raise's, and it carries both texts' information:
 * confident though its own words alone are not quite enough, and first on
 * its line (rank.c).  Not a raise of the same class, whose placeholder
 * takes the reason another raise of it passes (PyYAML's ReaderError
 * formats "unacceptable character ...: %s" around each raise's reason). */
static void mark_quoting(const fl_lookup *lk, struct hit *hits, size_t nh)
{
	if (nh < 2 || nh > 256)
		return;
	for (size_t a = 0; a < nh; a++) {
		struct hit *A = &hits[a];
		/* its own words informative enough to be no coincidence:
		 * not a bare "invalid %s: %v" around any message */
		if (!A->raised || A->def || A->wraps || !A->text || !A->ncaps || A->info < WRAPPED_INFO_MIN)
			continue;
		/* the message's last placeholder, ending the match: what the
		 * wrapped message fills ("...: %s"), not a leading value; or
		 * its first, starting the match and ending a line, that advice
		 * on the next lines follows ("{}\n\nConsider enabling
		 * multiline mode ...") */
		size_t k = A->ncaps - 1;
		bool lead = A->caps[k].end < A->end && A->caps[0].start == A->at &&
			    A->text[A->caps[0].end] == '\n';
		if (lead)
			k = 0;
		const fl_span *c = &A->caps[k];
		/* (or the last, ending its line, advice on the next lines
		 * after it: black's "...failed to parse source file AST:
		 * {exc}\nThis could be caused by ...") */
		if ((!lead && c->end < A->end && A->text[c->end] != '\n') || c->start >= c->end)
			continue;
		const char *acls = ix_str(&lk->seg[A->seg], ent_of(lk, A)->cls);
		for (size_t b = 0; b < nh && !A->quotes; b++) {
			const struct hit *B = &hits[b];
			if (b == a || !B->strong || B->pos != A->pos || !B->text)
				continue;
			/* B matched its line alone and A the whole text: the
			 * leading placeholder holds B's line, all of it */
			bool same = same_text(A, B);
			bool eol = !lead && c->end < A->end; /* ends its line */
			if (!same && !eol &&
			    !(lead && B->at == 0 && strcspn(B->text, "\n") == c->end - c->start))
				continue;
			const char *bcls = ix_str(&lk->seg[B->seg], ent_of(lk, B)->cls);
			if (*acls && strcmp(acls, bcls) == 0)
				continue;
			/* B's whole match, from the placeholder's start (a quote
			 * before it aside): the placeholder is B's message, not
			 * a value that runs into it ("invalid %s value %q"
			 * around `"frob" for -buildvcs: value is ...`) */
			size_t cs = c->start;
			if (same && cs < B->at && B->at - cs == 1 && strchr("\"'`", A->text[cs]))
				cs++;
			A->quotes = (!same || B->at == cs) && holds_on_line(A, k, B);
		}
		if (A->quotes) {
			A->strong = true;
			A->quotes_err = quotes_as_error(lk, A);
		}
	}
}

static size_t fuzzy_text(const fl_lookup *lk, const fl_query *q, const char *text,
			 const char *repo, size_t want, struct hit **hits, size_t *cap);
#define FUZZY_MESSAGES 4
/* the fuzzy candidates of each message tried with empty placeholders */
#define LENIENT_TRY 8

/* A placeholder that printed nothing ("Could not find gem '{label}'{extra}
 * in {source}" with extra empty) fails the stored pattern, whose (.+?)
 * needs a character.  When no confident hit spans its line, the fuzzy
 * tier's best candidates of the first messages are tried again with
 * (.*?): a record that matches so is a pattern hit (struct hit's
 * lenient), after the exact ones. */
/* Try entry e on message ti with (.*?) for (.+?); a match is added to
 * hits.  Returns the new count. */
static size_t lenient_try(const fl_lookup *lk, const fl_query *q, uint32_t s, uint32_t e,
			  size_t ti, struct hit **hits, size_t nh, size_t *cap)
{
	const fl_index *ix = &lk->seg[s];
	const idx_entry *x = &ix->ent[e];
	const char *pat = ix_str(ix, x->pattern);
	/* Python's %(value)r and %(n)5d, literal in the stored pattern, and
	 * a multi-line message printed on one line */
	char *loose = fl_pattern_loose_as(pat, FL_LOOSE_WS);
	if (loose)
		pat = loose;
	if (ti >= q->messages.n || !strstr(pat, "(.+?)")) {
		free(loose);
		return nh;
	}
	for (size_t j = 0; j < nh; j++)
		if ((*hits)[j].entry == e && (*hits)[j].seg == s) { /* an answer once, at
								       its first message */
			free(loose);
			return nh;
		}
	char small[1024];
	size_t pl = strlen(pat);
	char *lp = pl < sizeof small ? small : fl_xmalloc(pl + 1);
	memcpy(lp, pat, pl + 1);
	free(loose);
	for (char *p = lp; (p = strstr(p, "(.+?)")); p += 5)
		p[2] = '*';
	struct hit h;
	memset(&h, 0, sizeof h);
	const char *text = q->messages.v[ti];
	bool ok = confirm_as(ix, x, lp, text, strlen(text), false, &h);
	if (lp != small)
		free(lp);
	if (!ok)
		return nh;
	cur_pos = (uint32_t)ti;
	struct hit *nhit = new_hit(hits, &nh, cap);
	*nhit = h;
	nhit->pos = (uint32_t)ti;
	accept_hit(lk, s, e, q, nhit);
	nhit->lenient = true;
	cur_pos = 0;
	return nh + 1;
}

/* A placeholder that printed nothing ("Could not find gem '{label}'{extra}
 * in {source}" with extra empty) fails the stored pattern, whose (.+?)
 * needs a character.  For each of the first messages that no confident
 * hit spans, the entries
 * whose literal was found but whose pattern failed, and the fuzzy tier's
 * best candidates of the first messages, are tried again with (.*?): a
 * record that matches so is a pattern hit (struct hit's lenient), after
 * the exact ones. */
static size_t lenient_pass(const fl_lookup *lk, const fl_query *q, const char *repo,
			   size_t limit, struct hit **hits, size_t nh, size_t *cap)
{
	/* as many as the fuzzy tier asks for after (fuzzy_text's memo) */
	size_t want = limit > LENIENT_TRY ? limit : LENIENT_TRY;
	/* the messages that have a confident answer spanning them */
	bool answered[FUZZY_MESSAGES + FAILED_MAX] = {false};
	size_t na = sizeof answered / sizeof answered[0];
	for (size_t i = 0; i < nh; i++)
		if ((*hits)[i].strong && (*hits)[i].covers && (*hits)[i].pos < na)
			answered[(*hits)[i].pos] = true;
	uint32_t fe[FAILED_MAX], fs[FAILED_MAX], fp[FAILED_MAX];
	size_t nfail = failed.n;
	memcpy(fe, failed.e, sizeof fe);
	memcpy(fs, failed.seg, sizeof fs);
	memcpy(fp, failed.pos, sizeof fp);
	/* ... and those the text names the line of, even beside a
	 * confident answer ("In ConfigCommand.php line 866:" over '"maybe"
	 * is an invalid value', printed by '"%s" is an invalid value' and
	 * a suffix left empty) */
	for (size_t i = 0; i < nfail; i++)
		if (fp[i] < na &&
		    (!answered[fp[i]] || fl_lk_site_named(&lk->seg[fs[i]], &lk->seg[fs[i]].ent[fe[i]], q)))
			nh = lenient_try(lk, q, fs[i], fe[i], fp[i], hits, nh, cap);
	for (size_t ti = 0; ti < q->messages.n && ti < FUZZY_MESSAGES && !fl_lk_expired(); ti++) {
		if (answered[ti])
			continue;
		struct hit *fh = NULL;
		size_t fcap = 0;
		size_t nf = fuzzy_text(lk, q, q->messages.v[ti], repo, want, &fh, &fcap);
		for (size_t i = 0; i < nf && i < LENIENT_TRY; i++)
			nh = lenient_try(lk, q, fh[i].seg, fh[i].entry, ti, hits, nh, cap);
		free(fh);
	}
	return nh;
}

/* A record that knows only its class, its text made elsewhere (`throw
 * new ParseException(e.getMessage())`, `raise ValueError(msg)`: the
 * scan keeps the class as its message), is the answer to a stack that
 * names its class and whose frame names its line: the message printed
 * matches no record of its own.  Its hits stand on the first message's
 * line; the others of the class (a tree's thousands) are no answer. */
static size_t class_at_frames(const fl_lookup *lk, const fl_query *q, const char *repo,
			      size_t limit, struct hit **hits, size_t nh, size_t *cap)
{
	/* a message matched at a line a frame of the error printed names:
	 * answered already (a checker's caller: Guava's checkArgument's
	 * message at Splitter.java, its throw in Preconditions).  A message
	 * matched only at a frame of another error of a chain (a cause's
	 * traceback before the last one: `raise ConnectionError(e)` around
	 * a cause whose own message matched at its raise) leaves the error
	 * printed to a record of its class at a frame of its own stack */
	int best = INT_MAX;
	for (size_t j = 0; j < nh; j++) {
		/* the hit's judge found its frame (fl_lk_judge) */
		int r = (*hits)[j].sited ? (*hits)[j].site_rank : -1;
		if (r >= 0 && r < best)
			best = r;
		/* a record whose text is the message printed, all of it, that
		 * no frame names (a version of the file whose lines moved):
		 * the message has its record; a checker's throw at the
		 * innermost frame (Preconditions.checkArgument) is no answer.
		 * Not the text's definition (a class's template, formatted
		 * when printed: pkg_resources' DistributionNotFound): the
		 * frame names where it was raised */
		if (r < 0 && (*hits)[j].strong && (*hits)[j].covers && !(*hits)[j].def)
			return nh;
	}
	if (best != INT_MAX && (size_t)best < q->sites_block)
		return nh;
	for (size_t i = 0; i < q->classes.n && !fl_lk_expired(); i++) {
		const char *c = q->classes.v[i];
		if (strpbrk(c, ".:$") || !*c)
			continue; /* its last component is in the list too */
		cur_pos = 0;
		bar_reset(limit);
		size_t from = nh, k = from;
		nh = fl_lk_pattern_text(lk, c, strlen(c), repo, q, hits, nh, cap);
		for (size_t j = from; j < nh; j++) {
			const fl_index *ix = &lk->seg[(*hits)[j].seg];
			const idx_entry *x = ent_of(lk, &(*hits)[j]);
			const struct hit *h = &(*hits)[j];
			if (x->cls && strcmp(ix_str(ix, x->msg), c) == 0 &&
			    strcmp(fl_lk_class_last(ix_str(ix, x->cls)), c) == 0 && h->sited &&
			    (best == INT_MAX || (size_t)h->site_rank < q->sites_block))
				(*hits)[k++] = (*hits)[j];
		}
		nh = k;
	}
	return nh;
}

static size_t tier_pattern(const fl_lookup *lk, const fl_query *q,
			   const char *repo, size_t limit, const struct scanned *given,
			   bool lenient, struct hit **hits, size_t *cap)
{
	size_t nh = 0;
	bar_reset(limit);
	failed.n = 0;
	failed.on = lenient;
	/* one literal scan: the text the caller scanned (given), else the
	 * cleaned text; each text tried that lies inside it takes its
	 * occurrences from there instead of being scanned again */
	struct scanned src[2];
	size_t nsrc = 0, clen = strlen(q->clean);
	size_t budget = 4 * (clen + (given ? given->len : 0)) + (64u << 10);
	if (given)
		src[nsrc++] = *given;
	if (clen && (!given || locate(&src[0], q->clean, clen, &budget) == SIZE_MAX) &&
	    scan_whole(lk, q->clean, clen, &wocc))
		src[nsrc++] = (struct scanned){q->clean, clen, wocc.v, wocc.n, 0};
	/* texts to try: every candidate message, then the whole cleaned text
	 * (unless it is one of the messages, tried already: the same hits) */
	bool clean_tried = false;
	for (size_t ti = 0; ti < q->messages.n && !clean_tried; ti++)
		clean_tried = strcmp(q->clean, q->messages.v[ti]) == 0;
	for (size_t ti = 0; ti <= q->messages.n && !fl_lk_expired(); ti++) {
		const char *text = ti < q->messages.n ? q->messages.v[ti] : q->clean;
		if (ti == q->messages.n && clean_tried)
			break;
		size_t len = strlen(text);
		cur_pos = (uint32_t)ti;
		/* a bar per message: the hits of one line do not push out
		 * another line's (rank.c orders the lines first) */
		bar_reset(limit);
		size_t from = nh;
		if (len)
			nh = pattern_of(lk, src, nsrc, &budget, text, len, repo, q, hits, nh,
					cap);
		/* the line as printed, for records that hold its prefix */
		if (ti < q->raw.n && *q->raw.v[ti] && !fl_lk_expired())
			nh = pattern_of(lk, src, nsrc, &budget, q->raw.v[ti],
					strlen(q->raw.v[ti]), repo, q, hits, nh, cap);
		if (ti == q->messages.n)
			for (size_t j = from; j < nh; j++)
				(*hits)[j].pos = pos_of_line(q, (*hits)[j].at);
	}
	cur_pos = 0;
	failed.on = false;
	if (q->sites.n && q->classes.n && !fl_lk_expired())
		nh = class_at_frames(lk, q, repo, limit, hits, nh, cap);
	if (lenient && !q->informational && !fl_lk_expired())
		nh = lenient_pass(lk, q, repo, limit, hits, nh, cap);
	nh = drop_parts(lk, *hits, nh);
	mark_wrappers(lk, q, *hits, nh);
	mark_quoting(lk, *hits, nh);
	return nh ? fl_lk_rank(lk, *hits, nh) : 0;
}

/* The fuzzy tier: the first of the query's messages (in its order) with
 * an answer, of the first FUZZY_MESSAGES; every hit among the want best
 * (0: every hit) is there, as fuzzy_text tells. */
static size_t tier_fuzzy(const fl_lookup *lk, const fl_query *q,
			 const char *repo, size_t want, struct hit **hits, size_t *cap)
{
	if (!q->messages.n)
		return fuzzy_text(lk, q, q->clean, repo, want, hits, cap);
	for (size_t i = 0; i < q->messages.n && i < FUZZY_MESSAGES && !fl_lk_expired(); i++) {
		size_t nh = fuzzy_text(lk, q, q->messages.v[i], repo, want, hits, cap);
		if (nh)
			return nh;
	}
	return 0;
}

/* The fuzzy tier's bar: the want best scores held (a min-heap), as the
 * pattern tier's bar holds its keys. */
static __thread struct topk fbar;

/* A score as a key of the same order: a double's bits, read as an unsigned
 * integer, sort as the double does when it is not negative (scores are in
 * [0, 1]). */
static uint64_t score_key(double v)
{
	uint64_t k;
	memcpy(&k, &v, sizeof k);
	return k;
}

static double key_score(uint64_t k)
{
	double v;
	memcpy(&v, &k, sizeof v);
	return v;
}

static void fbar_reset(size_t k)
{
	topk_reset(&fbar, k);
}

static void fbar_add(double v)
{
	topk_add(&fbar, score_key(v > 0 ? v : 0));
}

/* The score a hit must reach to be among the want best held so far
 * (FUZZY_MIN while fewer are held, and at the least), less FUZZY_SLACK: scores are sums of floats, and a
 * bound that rounds the other way must not drop a tie. */
#define FUZZY_SLACK 1e-4
static double fbar_floor(void)
{
	double v = fbar.k && fbar.n == fbar.k ? key_score(fbar.heap[0]) : FUZZY_MIN;
	return (v > FUZZY_MIN ? v : FUZZY_MIN) - FUZZY_SLACK;
}

/* A query token of the fuzzy tier: its entry in every segment, its idf. */
struct fuzzy_tok {
	const idx_token *t[FL_SEGS];
	double idf;
};

/* The query's tokens (by decreasing idf) and what bounds the work. */
struct fuzzy_q {
	struct fuzzy_tok *qt;
	size_t nt;
	size_t nprefix;  /* tokens whose posting lists may bring candidates */
	double qnorm;
	double suffix;   /* idf of the tokens from nprefix on some record holds */
	double info_min;
	double rem[129]; /* rem[i]: idf of the tokens from i on some record holds */
};

/* Does entry x of segment s hold query token i? */
static bool has_tok(const fl_lookup *lk, const struct fuzzy_q *fq, uint32_t s,
		    const idx_entry *x, size_t i)
{
	const fl_index *ix = &lk->seg[s];
	if (!fq->qt[i].t[s])
		return false;
	const uint32_t *et = ix->etoks + x->toks;
	uint32_t tid = (uint32_t)(fq->qt[i].t[s] - ix->tok);
	size_t lo = 0, hi = x->ntoks;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (et[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->ntoks && et[lo] == tid;
}

/* Score the candidates cand[from, to), whose idf gathered (acc) is that
 * of the tokens before `walked` (their posting lists walked): the tokens
 * from `walked` to nprefix are added to it as the walk would have (in
 * float, in the same order), those after in double, so each score is the
 * one a walk of every list gives.  A candidate whose bound is below the
 * bar of the want best held is not scored: it cannot be among them.
 * Hits are appended to hits[0, nh); returns the new count, or SIZE_MAX
 * when the time ran out. */
static size_t fuzzy_score(const fl_lookup *lk, const fl_query *q, const struct fuzzy_q *fq,
			  size_t walked, size_t from, size_t to, const char *repo,
			  struct hit **hits, size_t nh, size_t *cap)
{
	const struct fuzzy_tok *qt = fq->qt;
	double qnorm = fq->qnorm;
	for (size_t k = from; k < to; k++) {
		if (k % 256 == 255 && fl_lk_expired())
			return SIZE_MAX;
		float a = *acc_of(tls.cand[k]);
		if (a == -INFINITY) /* scored already */
			continue;
		/* the most it can score (its norm holds what it shares: at
		 * least that, and at least lo) against the bar, first without
		 * reading the entry */
		double floor = fbar_floor();
		double most = a + fq->rem[walked];
		if (most < floor * qnorm)
			continue;
		uint32_t e, s = seg_of(lk, tls.cand[k], &e);
		const fl_index *ix = &lk->seg[s];
		const idx_entry *x = &ix->ent[e];
		double lo, hi;
		fl_lk_norm_range(lk, s, e, &lo, &hi);
		if (lo > most && most < floor * (qnorm + lo - most))
			continue;
		for (size_t i = walked; i < fq->nprefix; i++)
			if (has_tok(lk, fq, s, x, i))
				a += (float)qt[i].idf;
		double inter = a;
		double suffix = fq->suffix;
		/* even with every remaining token it cannot reach the threshold
		 * (the bound is largest where the norm is inter + suffix: of
		 * the norms the entry may have, the nearest to that) */
		double cut = inter + suffix < lo ? lo : inter + suffix > hi ? hi : inter + suffix;
		double best = inter + (suffix < cut - inter ? suffix : cut - inter);
		if (best < FUZZY_MIN * (qnorm + cut - best))
			continue;
		if (!live_ok(lk, s, x, repo))
			continue;
		double norm = lo == hi ? lo : fl_lk_norm(lk, s, e);
		/* the remaining tokens, by binary search in the entry's tokens */
		for (size_t i = fq->nprefix; i < fq->nt; i++)
			if (has_tok(lk, fq, s, x, i))
				inter += qt[i].idf;
		double uni = qnorm + norm - inter;
		double score = uni > 0 ? inter / uni : 0;
		if (score < FUZZY_MIN)
			continue;
		/* the words shared must say something: one or two common words
		 * ("Options:", "not found") are no evidence of an error */
		if (inter < fq->info_min)
			continue;
		if (nh == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*hits = fl_xrealloc(*hits, *cap * sizeof **hits);
		}
		struct hit *h = &(*hits)[nh++];
		memset(h, 0, sizeof *h);
		h->entry = e;
		h->seg = s;
		h->order = fl_lk_order(lk, s, e);
		/* fuzzy scores stay below the pattern tier's */
		h->score = score >= 0.9 ? 0.899 : score;
		h->ev = fl_lk_evidence(ix, x, q);
		fbar_add(h->score);
	}
	return nh;
}

/* A posting list at least this long is walked only once the candidates
 * held are scored: their scores may show that no entry first met there
 * can be among the answers wanted. */
#define FUZZY_LONG_LIST 1024
/* how many of them: those that have gathered the most */
#define FUZZY_EARLY 64

/* Before a long list (token i): the candidates held that have gathered
 * the most, scored now (their acc made -INFINITY: scored), so that the
 * bar holds the want best of them. */
static size_t fuzzy_early(const fl_lookup *lk, const fl_query *q, const struct fuzzy_q *fq,
			  size_t i, const char *repo, struct hit **hits, size_t nh, size_t *cap)
{
	size_t n = FUZZY_EARLY < tls.ncand ? FUZZY_EARLY : tls.ncand;
	uint32_t pick[FUZZY_EARLY];
	/* the n with the most gathered (pick[0, m) kept sorted, the least
	 * last: most candidates are below it) */
	size_t m = 0;
	for (size_t k = 0; k < tls.ncand; k++) {
		uint32_t g = tls.cand[k];
		float a = *acc_of(g);
		if (a == -INFINITY || (m == n && a <= *acc_of(pick[m - 1])))
			continue;
		size_t j = m < n ? m++ : m - 1;
		while (j > 0 && *acc_of(pick[j - 1]) < a) {
			pick[j] = pick[j - 1];
			j--;
		}
		pick[j] = g;
	}
	/* scored as a range of cand: put them there, then mark them */
	uint32_t *save = tls.cand;
	size_t saven = tls.ncand;
	tls.cand = pick;
	nh = fuzzy_score(lk, q, fq, i, 0, m, repo, hits, nh, cap);
	tls.cand = save;
	tls.ncand = saven;
	if (nh != SIZE_MAX)
		for (size_t k = 0; k < m; k++)
			*acc_of(pick[k]) = -INFINITY;
	return nh;
}

/* The fuzzy hits of text: every one among the want best (0: every hit),
 * with the same scores, and so in the same order, as when every
 * candidate is scored (a dynamic pruning of the top-k, max-score style).
 * The posting lists are walked by decreasing idf; an entry first met at
 * token i shares at most rem[i] with the query and its norm holds what it
 * shares, so it scores at most rem[i] / qnorm: once that is under the bar
 * (the want-th best score held, FUZZY_MIN at the least) the lists left
 * only add to the candidates held.  Before a long list, the candidates
 * that have gathered the most are scored, to raise the bar.  A candidate
 * whose bound is under the bar is not scored.  What the pruning leaves
 * out scores under the want-th best: the hits after it may be fewer than
 * a walk of every list finds, and only those (fl_lk_why's count of the
 * records raising the same text counts the hits there are: records of
 * one pattern and different words, such as "%s" and "$name", may differ
 * in score, and one under the bar is not counted). */
static size_t fuzzy_run(const fl_lookup *lk, const fl_query *q, const char *text,
			const char *repo, size_t want, struct hit **hits, size_t *cap)
{
	char buf[128 * FL_TOKEN_MAX];
	const char *toks[128];
	size_t nt = fl_tokens(text, buf, toks, 128);
	if (!nt || !lk->n_entries)
		return 0;
	/* each token in every segment, weighed by its idf over the records
	 * (segment.c) */
	struct fuzzy_tok qt[128];
	struct fuzzy_q fq;
	fq.qt = qt;
	fq.nt = nt;
	double qnorm = 0;
	for (size_t i = 0; i < nt; i++) {
		memset(qt[i].t, 0, sizeof qt[i].t);
		for (uint32_t s = 0; s < lk->nseg; s++)
			qt[i].t[s] = fl_index_token(&lk->seg[s], toks[i]);
		qt[i].idf = fl_lk_idf(lk, qt[i].t[0], lk->nseg > 1 ? qt[i].t[1] : NULL);
		qnorm += qt[i].idf;
	}
	fq.qnorm = qnorm;
	/* prefix filter: visiting tokens by decreasing idf, once the weight
	 * left cannot reach the threshold alone, stop adding candidates */
	for (size_t i = 1; i < nt; i++)
		for (size_t j = i; j > 0 && qt[j].idf > qt[j - 1].idf; j--) {
			struct fuzzy_tok tmp = qt[j];
			qt[j] = qt[j - 1];
			qt[j - 1] = tmp;
		}
	/* score = I / (qnorm + enorm - I) >= FUZZY_MIN needs
	 * I >= FUZZY_MIN * qnorm / (1 + FUZZY_MIN) at the least (enorm >= I) */
	double need = FUZZY_MIN * qnorm / (1.0 + FUZZY_MIN);
	double left = qnorm;
	/* an answer must also share info_min of idf with the query (below):
	 * a candidate first met at token i shares at most the idf of the
	 * tokens from i on that some record holds (reach), so once that is
	 * under info_min no new candidate can be an answer, and a query of
	 * common words walks no posting list at all (at 10M records the
	 * lists of "invalid" or "value" are hundreds of thousands long);
	 * the answers are the same */
	fq.info_min = FUZZY_INFO_MIN * fl_lk_info_unit(lk);
	double reach = 0;
	for (size_t i = 0; i < nt; i++)
		if (qt[i].t[0] || (lk->nseg > 1 && qt[i].t[1]))
			reach += qt[i].idf;
	fq.nprefix = 0;
	for (size_t i = 0; i < nt; i++) {
		/* (with room for the float sums of acc) */
		if (left < need || reach < fq.info_min * (1 - 1e-4))
			break;
		left -= qt[i].idf;
		if (qt[i].t[0] || (lk->nseg > 1 && qt[i].t[1]))
			reach -= qt[i].idf;
		fq.nprefix = i + 1;
	}
	/* weight of the tokens not walked: what a candidate can still gain */
	fq.suffix = 0;
	for (size_t i = fq.nprefix; i < nt; i++)
		if (qt[i].t[0] || (lk->nseg > 1 && qt[i].t[1]))
			fq.suffix += qt[i].idf;
	fq.rem[nt] = 0;
	for (size_t i = nt; i-- > 0;)
		fq.rem[i] = fq.rem[i + 1] +
			    (qt[i].t[0] || (lk->nseg > 1 && qt[i].t[1]) ? qt[i].idf : 0);
	next_stamp();
	fbar_reset(want);
	size_t nh = 0, early = 1; /* early: the candidates at the last scoring */
	bool adding = true;
	for (size_t i = 0; i < fq.nprefix; i++) {
		size_t df = 0;
		for (uint32_t s = 0; s < lk->nseg; s++)
			df += qt[i].t[s] ? qt[i].t[s]->df : 0;
		if (want && adding && df >= FUZZY_LONG_LIST && tls.ncand >= 2 * early) {
			nh = fuzzy_early(lk, q, &fq, i, repo, hits, nh, cap);
			if (nh == SIZE_MAX)
				return 0;
			early = tls.ncand;
		}
		/* an entry first met here shares at most rem[i], and its norm
		 * holds that: it scores at most rem[i] / qnorm; from here on
		 * the lists only add to the candidates held */
		if (adding && fq.rem[i] < fbar_floor() * qnorm)
			adding = false;
		float w = (float)qt[i].idf;
		for (uint32_t s = 0; s < lk->nseg; s++) {
			const idx_token *t = qt[i].t[s];
			if (!t)
				continue;
			const uint32_t *p = lk->seg[s].post + t->post;
			for (uint32_t k = 0; k < t->df; k++) {
				if (k % 1024 == 1023 && fl_lk_expired())
					return 0;
				float *a = cand_acc(gid(lk, s, p[k]), adding);
				if (a)
					*a += w;
			}
		}
	}
	nh = fuzzy_score(lk, q, &fq, fq.nprefix, 0, tls.ncand, repo, hits, nh, cap);
	if (nh == SIZE_MAX)
		return 0;
	if (nh > 1)
		qsort(*hits, nh, sizeof **hits, cmp_hit_score);
	return nh;
}

/* The fuzzy hits of the texts one lookup asked for (the lenient pass
 * and the fuzzy tier ask for the same messages): valid while gen is
 * the lookup's (fuzzy_gen), for the same text and repository, when
 * they hold every hit among the want best asked for. */
static __thread struct fuzzy_memo {
	uint64_t gen;
	char *text;
	const char *repo;
	size_t want;       /* 0: every hit */
	struct hit *h;
	size_t nh, cap;
} fmemo[FUZZY_MESSAGES];
static __thread uint64_t fuzzy_gen;

static void fuzzy_thread_done(void)
{
	for (size_t i = 0; i < FUZZY_MESSAGES; i++) {
		free(fmemo[i].text);
		free(fmemo[i].h);
	}
	memset(fmemo, 0, sizeof fmemo);
	free(fbar.heap);
	memset(&fbar, 0, sizeof fbar);
}

static size_t fuzzy_text(const fl_lookup *lk, const fl_query *q, const char *text,
			 const char *repo, size_t want, struct hit **hits, size_t *cap)
{
	struct fuzzy_memo *m = NULL;
	for (size_t i = 0; i < FUZZY_MESSAGES; i++) {
		struct fuzzy_memo *f = &fmemo[i];
		if (f->gen != fuzzy_gen || !f->text) {
			if (!m)
				m = f;
			continue;
		}
		if (f->repo != repo || strcmp(f->text, text) != 0)
			continue;
		/* fewer hits than asked for: no score was under a bar but
		 * FUZZY_MIN, every hit is there */
		if (f->want && f->nh >= f->want && (!want || want > f->want)) {
			m = f; /* asked again for more: replaced */
			break;
		}
		if (f->nh > *cap) {
			*cap = f->nh;
			*hits = fl_xrealloc(*hits, *cap * sizeof **hits);
		}
		if (f->nh)
			memcpy(*hits, f->h, f->nh * sizeof **hits);
		return f->nh;
	}
	size_t nh = fuzzy_run(lk, q, text, repo, want, hits, cap);
	if (!m || fl_lk_expired())
		return nh;
	free(m->text);
	m->text = fl_xstrdup(text);
	m->gen = fuzzy_gen;
	m->repo = repo;
	m->want = want;
	if (nh > m->cap) {
		m->cap = nh;
		m->h = fl_xrealloc(m->h, m->cap * sizeof *m->h);
	}
	if (nh)
		memcpy(m->h, *hits, nh * sizeof *m->h);
	m->nh = nh;
	return nh;
}

/* The fuzzy tier's hits merged into weak pattern hits hits[0, nh), all
 * ordered by score; returns the new count. */
static size_t add_fuzzy(const fl_lookup *lk, const fl_query *q, const char *repo,
			size_t limit, struct hit **hits, size_t nh, size_t *cap)
{
	struct hit *fh = NULL;
	size_t fcap = 0;
	/* a fuzzy hit among the limit best of all has at most limit - 1
	 * fuzzy hits before it besides those of the nh entries (dropped) */
	size_t nf = tier_fuzzy(lk, q, repo, limit + nh, &fh, &fcap);
	size_t kept = 0;
	for (size_t i = 0; i < nf; i++) {
		bool dup = false;
		for (size_t j = 0; j < nh && !dup; j++)
			dup = (*hits)[j].entry == fh[i].entry && (*hits)[j].seg == fh[i].seg;
		/* a pointer to the help ("Try '%s --help' for more
		 * information") follows the error a pattern hit matched:
		 * near the words of that line, it is no answer to it */
		if (dup || (nh && help_hint(msg_of(lk, &fh[i]))))
			continue;
		fh[kept] = fh[i];
		fh[kept++].fuzzy = true;
	}
	if (kept > 1)
		qsort(fh, kept, sizeof *fh, cmp_hit_score);
	/* merged by score; on a tie the pattern hit first, and the pattern
	 * hits in fl_lk_rank's order (their scores do not increase along
	 * it: a line printed first before a help pointer after it) */
	struct hit *m = fl_xmalloc((nh + kept ? nh + kept : 1) * sizeof *m);
	size_t a = 0, b = 0, n = 0;
	while (a < nh || b < kept)
		m[n++] = b >= kept || (a < nh && (*hits)[a].score >= fh[b].score) ? (*hits)[a++]
										     : fh[b++];
	free(fh);
	free(*hits);
	*hits = m;
	*cap = n ? n : 1;
	return n;
}

int fl_lookup_explain(fl_lookup *lk, const char *text, size_t len,
		      const char *repo, size_t limit, fl_result *out)
{
	fl_lk_set_deadline(0);
	return fl_lk_explain(lk, text, len, repo, limit, true, out);
}

int fl_lookup_explain_until(fl_lookup *lk, const char *text, size_t len,
			    const char *repo, size_t limit, double seconds,
			    fl_result *out, fl_err *err)
{
	fl_lk_set_deadline(seconds > 0 ? fl_now_mono() + seconds : 0);
	int rc = fl_lk_explain(lk, text, len, repo, limit, true, out);
	fl_lk_set_deadline(0);
	if (rc < 0)
		return fl_seterr(err, "timed out: the lookup took over %g s", seconds);
	return 0;
}

int fl_lk_explain(fl_lookup *lk, const char *text, size_t len, const char *repo,
		  size_t limit, bool fuzzy, fl_result *out)
{
	return fl_lk_explain_occs(lk, text, len, NULL, 0, repo, limit, fuzzy, out);
}

int fl_lk_explain_occs(fl_lookup *lk, const char *text, size_t len, const fl_occ *occ,
		       size_t nocc, const char *repo, size_t limit, bool fuzzy,
		       fl_result *out)
{
	memset(out, 0, sizeof *out);
	if (limit == 0)
		limit = 10;
	fuzzy_gen++; /* the fuzzy hits memo is of the lookup before */
	/* lines over FL_LINE_MAX: their head and tail */
	char *cut;
	size_t cutlen;
	size_t ncut = fl_lk_cut_lines(text, len, &cut, &cutlen);
	struct scanned given = {text, len, occ, nocc, 0};
	if (cut) {
		text = cut;
		len = cutlen;
		occ = NULL; /* of the text before it was cut */
	}
	fl_query q;
	fl_normalize(text, len, &q);
	out->query = fl_xstrdup(q.messages.n ? q.messages.v[0] : q.clean);
	out->cut_lines = ncut;
	fl_lk_prepare(lk);
	struct hit *hits = NULL;
	size_t cap = 0, nh;
	const char *type = NULL;
	if ((nh = tier_code(lk, q.clean, &q, repo, &hits, &cap)) > 0) {
		fl_lk_sort(hits, nh);
		sort_by_words(lk, hits, nh, q.clean);
		type = "exact-code";
	} else if (fl_lk_expired()) {
		nh = 0;
	} else if ((nh = tier_pattern(lk, &q, repo, limit, occ ? &given : NULL, fuzzy, &hits,
				      &cap)) > 0) {
		type = "pattern";
		/* only hits that carry little information (rank.c): the fuzzy
		 * tier's answers compete with them on score */
		if (!hits[0].strong && fuzzy && !q.informational && !fl_lk_expired())
			nh = add_fuzzy(lk, &q, repo, limit, &hits, nh, &cap);
		if (hits[0].fuzzy)
			type = "fuzzy";
	} else if (fuzzy && !q.informational && !fl_lk_expired() &&
		   (nh = tier_fuzzy(lk, &q, repo, limit, &hits, &cap)) > 0) {
		type = "fuzzy";
	}
	/* a tier cut short by the time limit is no answer */
	bool late = tls.expired;
	if (nh && !late)
		emit(lk, hits, nh, limit, type, &q, text, len, out);
	free(hits);
	fl_query_free(&q);
	free(cut);
	return late ? -1 : 0;
}
