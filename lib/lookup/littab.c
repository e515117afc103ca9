/*
 * littab.c — the literal table (see littab.h): built in one pass over the
 * literals, scanned with a hash probe per tier and byte of text.
 */
#include "littab.h"

#include <stdlib.h>
#include <string.h>

static inline uint64_t load(const char *s, size_t n)
{
	uint64_t v = 0;
	memcpy(&v, s, n);
	return v;
}

/* The bucket of the first w bytes of s (w = 12, 8 or 4). */
static inline uint32_t bucket(const char *s, uint32_t w, uint32_t bits)
{
	uint64_t x;
	if (w == 12)
		x = load(s, 8) ^ (load(s + 8, 4) * 0xC2B2AE3D27D4EB4Full);
	else
		x = load(s, w);
	x ^= x >> 29;
	return (uint32_t)((x * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static size_t tier_of(uint32_t len)
{
	return len >= 12 ? 0 : len >= 8 ? 1 : len >= 4 ? 2 : FL_LIT_TIERS;
}

static idx_lit make_lit(const char *strings, uint32_t id, uint32_t str, uint32_t len)
{
	idx_lit x = {id, str, len, {0}};
	memcpy(x.head, strings + str, len < FL_LIT_HEAD ? len : FL_LIT_HEAD);
	return x;
}

void fl_littab_make(const char *strings, const uint32_t *str, const uint32_t *len,
		    size_t n, fl_littab_parts *out)
{
	memset(out, 0, sizeof *out);
	size_t count[FL_LIT_TIERS] = {0};
	for (size_t i = 0; i < n; i++)
		if (tier_of(len[i]) < FL_LIT_TIERS)
			count[tier_of(len[i])]++;
	uint32_t *fill[FL_LIT_TIERS];
	for (size_t t = 0; t < FL_LIT_TIERS; t++) {
		/* about two buckets a literal: most probes find an empty one */
		uint32_t b = 4;
		while (b < 31 && ((size_t)1 << b) < 2 * count[t])
			b++;
		out->bits[t] = b;
		out->bidx[t] = fl_xcalloc(((size_t)1 << b) + 1, sizeof(uint32_t));
		out->lit[t] = fl_xcalloc(count[t] + 1, sizeof(idx_lit));
		out->nlit[t] = count[t];
		fill[t] = fl_xcalloc((size_t)1 << b, sizeof(uint32_t));
	}
	out->sidx = fl_xcalloc(257, sizeof *out->sidx);
	for (size_t i = 0; i < n; i++) {
		size_t t = tier_of(len[i]);
		if (t < FL_LIT_TIERS)
			out->bidx[t][bucket(strings + str[i], fl_littab_width(t), out->bits[t])]++;
		else if (len[i] > 0)
			out->sidx[(unsigned char)strings[str[i]]]++, out->nslit++;
	}
	/* counts -> starts, then filled in literal order */
	for (size_t t = 0; t < FL_LIT_TIERS; t++) {
		uint32_t acc = 0;
		size_t nb = (size_t)1 << out->bits[t];
		for (size_t k = 0; k <= nb; k++) {
			uint32_t c = k < nb ? out->bidx[t][k] : 0;
			out->bidx[t][k] = acc;
			acc += c;
		}
	}
	uint32_t acc = 0, sfill[256] = {0};
	for (size_t k = 0; k <= 256; k++) {
		uint32_t c = k < 256 ? out->sidx[k] : 0;
		out->sidx[k] = acc;
		acc += c;
	}
	out->slit = fl_xcalloc(out->nslit + 1, sizeof *out->slit);
	for (size_t i = 0; i < n; i++) {
		size_t t = tier_of(len[i]);
		idx_lit x = make_lit(strings, (uint32_t)i, str[i], len[i]);
		if (t < FL_LIT_TIERS) {
			uint32_t k = bucket(strings + str[i], fl_littab_width(t), out->bits[t]);
			out->lit[t][out->bidx[t][k] + fill[t][k]++] = x;
		} else if (len[i] > 0) {
			unsigned k = (unsigned char)strings[str[i]];
			out->slit[out->sidx[k] + sfill[k]++] = x;
		}
	}
	for (size_t t = 0; t < FL_LIT_TIERS; t++)
		free(fill[t]);
}

void fl_littab_parts_free(fl_littab_parts *p)
{
	for (size_t t = 0; t < FL_LIT_TIERS; t++) {
		free(p->bidx[t]);
		free(p->lit[t]);
	}
	free(p->sidx);
	free(p->slit);
	memset(p, 0, sizeof *p);
}

/* x occurs at text + i (rest bytes left)? */
static inline bool lit_at(const idx_lit *x, const char *strings, const char *text,
			  size_t rest)
{
	if (x->len > rest)
		return false;
	size_t h = x->len < FL_LIT_HEAD ? x->len : FL_LIT_HEAD;
	return memcmp(text, x->head, h) == 0 &&
	       (x->len <= FL_LIT_HEAD ||
		memcmp(text + FL_LIT_HEAD, strings + x->str + FL_LIT_HEAD,
		       x->len - FL_LIT_HEAD) == 0);
}

/* The literals of tier r that occur at text + i (rest bytes left),
 * reported; false when on stopped the scan. */
static inline bool probe_at(const fl_littier *r, uint32_t b, const char *strings,
			    const char *text, size_t i, size_t rest, fl_lit_on on, void *ctx)
{
	for (uint32_t j = r->bidx[b]; j < r->bidx[b + 1]; j++) {
		const idx_lit *x = &r->lit[j];
		if (lit_at(x, strings, text + i, rest) && on(x->id, 0, i + x->len, 0, ctx))
			return false;
	}
	return true;
}

/* ... its bucket computed here */
static inline bool probe(const fl_littier *r, const char *strings, const char *text,
			 size_t i, size_t rest, fl_lit_on on, void *ctx)
{
	if (rest < r->width)
		return true;
	return probe_at(r, bucket(text + i, r->width, r->bits), strings, text, i, rest, on, ctx);
}

/* The same for the literals of 1 to 3 bytes, filed by their first byte. */
static inline bool probe_short(const fl_littab *t, const char *strings, const char *text,
			       size_t i, size_t rest, fl_lit_on on, void *ctx)
{
	unsigned c = (unsigned char)text[i];
	for (uint32_t j = t->sidx[c]; j < t->sidx[c + 1]; j++) {
		const idx_lit *x = &t->slit[j];
		if (lit_at(x, strings, text + i, rest) && on(x->id, 0, i + x->len, 0, ctx))
			return false;
	}
	return true;
}

bool fl_littab_scan(const fl_littab *t, const char *strings, const char *text,
		    size_t len, fl_lit_on on, void *ctx)
{
	if (!t->sidx)
		return true;
	for (size_t i = 0; i < len; i++) {
		size_t rest = len - i;
		for (size_t k = 0; k < FL_LIT_TIERS; k++) {
			const fl_littier *r = &t->tier[k];
			if (r->bidx[(size_t)1 << r->bits] > 0 &&
			    !probe(r, strings, text, i, rest, on, ctx))
				return false;
		}
		if (!probe_short(t, strings, text, i, rest, on, ctx))
			return false;
	}
	return true;
}

/* ---- the filter ------------------------------------------------------------------- */

/* A blocked Bloom filter: a key's two bits are in one 64-bit word, so a
 * test reads one cache line.  The word comes from one multiplicative hash
 * of the key, the two bits from a second. */
#define FMUL1 0x9E3779B97F4A7C15ull
#define FMUL2 0xC2B2AE3D27D4EB4Full

static inline uint32_t fword(const struct fl_litset *z, uint64_t v)
{
	return (uint32_t)((v * FMUL1) >> (64 - (z->bits - 6)));
}

static inline uint64_t fmask(uint64_t v)
{
	uint64_t h = v * FMUL2;
	return (1ull << (h >> 58)) | (1ull << ((h >> 52) & 63));
}

static inline void fput(struct fl_litset *z, uint64_t v)
{
	z->b[fword(z, v)] |= fmask(v);
}

/* A set for n keys: 2^bits >= per_key bits a key (two bits a key; at 32,
 * well under 1 % of other keys pass; at 8, about 5 %), at least 2^12; none
 * for no key. */
static void set_make(struct fl_litset *z, size_t n, unsigned per_key)
{
	memset(z, 0, sizeof *z);
	if (!n)
		return;
	z->bits = 12;
	while (z->bits < 38 && ((size_t)1 << z->bits) < per_key * n)
		z->bits++;
	z->b = fl_xzalloc_huge(((size_t)1 << z->bits) / 8, &z->map);
}

void fl_litfilter_make_sized(const fl_littab *t, fl_litfilter *f, unsigned per_key)
{
	memset(f, 0, sizeof *f);
	if (!t->sidx)
		return;
	size_t n8 = 0, n4 = 0;
	for (size_t k = 0; k < FL_LIT_TIERS; k++) {
		const fl_littier *r = &t->tier[k];
		size_t n = r->bidx[(size_t)1 << r->bits];
		if (r->width >= 8)
			n8 += n;
		else
			n4 += n;
	}
	set_make(&f->s8, n8, per_key);
	set_make(&f->s4, n4, per_key);
	for (size_t k = 0; k < FL_LIT_TIERS; k++) {
		const fl_littier *r = &t->tier[k];
		size_t n = r->bidx[(size_t)1 << r->bits];
		for (size_t j = 0; j < n; j++) {
			const idx_lit *x = &r->lit[j];
			if (r->width >= 8)
				fput(&f->s8, load(x->head, 8));
			else
				fput(&f->s4, load(x->head, 4));
		}
	}
}

void fl_litfilter_make(const fl_littab *t, fl_litfilter *f)
{
	fl_litfilter_make_sized(t, f, 32);
}

void fl_litfilter_free(fl_litfilter *f)
{
	fl_free_huge(f->s8.b, f->s8.map);
	fl_free_huge(f->s4.b, f->s4.map);
	memset(f, 0, sizeof *f);
}

/* The text is taken FBATCH places at a time through three rounds, each
 * asking the memory for what the next reads: the filter words of every
 * place; then which places pass, and their buckets; then the buckets'
 * first entries; then the probes in text order.  The rounds are
 * staggered (batch k + 3's words, k + 2's buckets and k + 1's entries are
 * asked for while batch k is probed), so that
 * each miss has a batch's work to arrive in: at a million records the
 * filter and the buckets are tens of megabytes, and a place's misses
 * waited one after another. */
#define FBATCH 32
struct fbatch {
	size_t b0, nb;
	uint32_t w8[FBATCH], w4[FBATCH];
	uint64_t m8[FBATCH], m4[FBATCH];
	uint64_t pass8, pass4;
	uint64_t shortb;          /* places whose byte starts a literal of 1 to 3
				     bytes */
	uint32_t bk[FL_LIT_TIERS][FBATCH]; /* a passing place's bucket in each tier
					      its set covers (UINT32_MAX: too
					      few bytes left) */
};

static inline void round_words(struct fbatch *b, const struct fl_litset *s8,
			       const struct fl_litset *s4, const char *text, size_t len)
{
	for (size_t j = 0; j < b->nb; j++) {
		size_t rest = len - b->b0 - j;
		const char *p = text + b->b0 + j;
		b->m8[j] = b->m4[j] = 0;
		if (s8 && rest >= 8) {
			uint64_t v = load(p, 8);
			b->w8[j] = fword(s8, v);
			b->m8[j] = fmask(v);
			__builtin_prefetch(&s8->b[b->w8[j]]);
		}
		if (s4 && rest >= 4) {
			uint64_t v = load(p, 4);
			b->w4[j] = fword(s4, v);
			b->m4[j] = fmask(v);
			__builtin_prefetch(&s4->b[b->w4[j]]);
		}
	}
}

/* Place j of b passed the set of the tiers of width >= 8 (wide) or < 8:
 * its bucket in each, asked for. */
static inline void pass_buckets(struct fbatch *b, const fl_littab *t, size_t j, const char *p,
				size_t rest, bool wide)
{
	for (size_t k = 0; k < FL_LIT_TIERS; k++) {
		const fl_littier *r = &t->tier[k];
		if ((r->width >= 8) != wide)
			continue;
		b->bk[k][j] = rest >= r->width ? bucket(p, r->width, r->bits) : UINT32_MAX;
		if (b->bk[k][j] != UINT32_MAX)
			__builtin_prefetch(&r->bidx[b->bk[k][j]]);
	}
}

static inline void round_pass(struct fbatch *b, const fl_littab *t, const struct fl_litset *s8,
			      const struct fl_litset *s4, const char *text, size_t len)
{
	b->pass8 = b->pass4 = 0;
	for (size_t j = 0; j < b->nb; j++) {
		const char *p = text + b->b0 + j;
		size_t rest = len - b->b0 - j;
		if (b->m8[j] && (s8->b[b->w8[j]] & b->m8[j]) == b->m8[j]) {
			b->pass8 |= 1ull << j;
			pass_buckets(b, t, j, p, rest, true);
		}
		if (b->m4[j] && (s4->b[b->w4[j]] & b->m4[j]) == b->m4[j]) {
			b->pass4 |= 1ull << j;
			pass_buckets(b, t, j, p, rest, false);
		}
	}
}

/* Whether place j of b probes tier k: it passed that tier's set and has
 * the bytes for its key. */
static inline bool probes(const struct fbatch *b, const fl_littab *t, size_t k, size_t j)
{
	uint64_t pass = t->tier[k].width >= 8 ? b->pass8 : b->pass4;
	return (pass >> j & 1) && b->bk[k][j] != UINT32_MAX;
}

static inline void round_lits(const struct fbatch *b, const fl_littab *t)
{
	for (uint64_t m = b->pass8 | b->pass4; m; m &= m - 1) {
		size_t j = (size_t)__builtin_ctzll(m);
		for (size_t k = 0; k < FL_LIT_TIERS; k++) {
			if (!probes(b, t, k, j))
				continue;
			const fl_littier *r = &t->tier[k];
			uint32_t c = b->bk[k][j];
			if (r->bidx[c] < r->bidx[c + 1])
				__builtin_prefetch(&r->lit[r->bidx[c]]);
		}
	}
}

bool fl_littab_scan_filtered(const fl_littab *t, const fl_litfilter *f,
			     const char *strings, const char *text, size_t len,
			     fl_lit_on on, void *ctx)
{
	if (!t->sidx)
		return true;
	const bool shorts = t->sidx[256] > 0;
	const struct fl_litset *s8 = f->s8.b ? &f->s8 : NULL, *s4 = f->s4.b ? &f->s4 : NULL;
	struct fbatch ring[4];
	size_t nbatch = (len + FBATCH - 1) / FBATCH;
	for (size_t k = 0; k < nbatch + 3; k++) {
		/* words of batch k, passes of k - 1, entries of k - 2, probes
		 * of k - 3 */
		if (k < nbatch) {
			struct fbatch *b = &ring[k % 4];
			b->b0 = k * FBATCH;
			b->nb = len - b->b0 < FBATCH ? len - b->b0 : FBATCH;
			round_words(b, s8, s4, text, len);
		}
		if (k >= 1 && k - 1 < nbatch)
			round_pass(&ring[(k - 1) % 4], t, s8, s4, text, len);
		if (k >= 2 && k - 2 < nbatch)
			round_lits(&ring[(k - 2) % 4], t);
		if (k < 3)
			continue;
		struct fbatch *b = &ring[(k - 3) % 4];
		/* the places that probe: those that passed a set, and those
		 * whose byte starts a short literal (the others would find
		 * nothing), in text order */
		uint64_t todo = b->pass8 | b->pass4;
		b->shortb = 0;
		if (shorts) {
			for (size_t j = 0; j < b->nb; j++) {
				unsigned c = (unsigned char)text[b->b0 + j];
				if (t->sidx[c] < t->sidx[c + 1])
					b->shortb |= 1ull << j;
			}
			todo |= b->shortb;
		}
		for (; todo; todo &= todo - 1) {
			size_t j = (size_t)__builtin_ctzll(todo);
			size_t i = b->b0 + j, rest = len - i;
			/* the tiers widest first (12, 8, 4), as fl_littab_scan */
			for (size_t r = 0; r < FL_LIT_TIERS; r++)
				if (probes(b, t, r, j) &&
				    !probe_at(&t->tier[r], b->bk[r][j], strings, text, i, rest, on, ctx))
					return false;
			if ((b->shortb >> j & 1) && !probe_short(t, strings, text, i, rest, on, ctx))
				return false;
		}
	}
	return true;
}
