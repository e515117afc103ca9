/*
 * littab.h — the literal table: every literal of the lookup index (each
 * factor and each error code) filed by its first four bytes in a hash
 * table of the flat image, so that the occurrences of all of them in a
 * short text are found with one probe per byte and no Hyperscan database
 * touched.  A Hyperscan database checks its whole bytecode (a CRC over
 * about 100 MB at a million records) the first time a process allocates
 * scratch for it, which is most of a cold `explain`; pasted messages are
 * short, so they are scanned here, and long texts (logs) by Hyperscan.
 * Both report the same (literal, end) pairs.
 */
#ifndef FL_LOOKUP_LITTAB_H
#define FL_LOOKUP_LITTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util.h"

/* A literal in the table: its first bytes kept beside its id, so that
 * most probes are decided without reading the strings. */
#define FL_LIT_HEAD 12
typedef struct idx_lit {
	uint32_t id;      /* the literal's id (the Hyperscan id) */
	uint32_t str;     /* its text: offset into the index's strings */
	uint32_t len;
	char head[FL_LIT_HEAD]; /* its first bytes, zero-padded */
} idx_lit;

/* Literals are filed by the hash of their first w bytes, w the largest
 * of 12, 8 and 4 they are long enough for (nearly all factors are 12
 * bytes long: their 12 bytes find them; keyed on fewer, the thousands
 * that begin alike, "could not ", would be tried at every such place);
 * those of 1 to 3 bytes by their first byte. */
#define FL_LIT_TIERS 3
typedef struct fl_littier {
	uint32_t width, bits;     /* key bytes; 2^bits buckets */
	const uint32_t *bidx;     /* 2^bits + 1 offsets into lit */
	const idx_lit *lit;
} fl_littier;

/* The table as laid out in the image. */
typedef struct fl_littab {
	fl_littier tier[FL_LIT_TIERS]; /* widths 12, 8, 4 */
	const uint32_t *sidx;     /* 257 offsets into slit, by first byte */
	const idx_lit *slit;      /* literals of 1 to 3 bytes */
} fl_littab;

/* What fl_littab_make builds for the image (arrays freed by
 * fl_littab_parts_free). */
typedef struct fl_littab_parts {
	uint32_t bits[FL_LIT_TIERS];
	uint32_t *bidx[FL_LIT_TIERS];
	idx_lit *lit[FL_LIT_TIERS];
	size_t nlit[FL_LIT_TIERS];
	uint32_t *sidx;
	idx_lit *slit;
	size_t nslit;
} fl_littab_parts;

/* Literal i has text strings + str[i] of len[i] bytes (id i). */
void fl_littab_make(const char *strings, const uint32_t *str, const uint32_t *len,
		    size_t n, fl_littab_parts *out);
void fl_littab_parts_free(fl_littab_parts *p);
static inline uint32_t fl_littab_width(size_t tier)
{
	return tier == 0 ? 12 : tier == 1 ? 8 : 4;
}

/* Every occurrence of every literal in text[0, len), reported as
 * Hyperscan would (on(id, 0, end, 0, ctx)), in text order of their
 * starts; a nonzero return of on stops the scan (returns false). */
typedef int (*fl_lit_on)(unsigned id, unsigned long long from,
			 unsigned long long to, unsigned flags, void *ctx);
bool fl_littab_scan(const fl_littab *t, const char *strings, const char *text,
		    size_t len, fl_lit_on on, void *ctx);

/* A filter in front of the table for long texts: a bit set (two bits a
 * key, both in one 64-bit word: a blocked Bloom filter) of the first 8 bytes of every literal of 8 bytes or more, and one
 * of the first 4 bytes of those of 4 to 7.  A place of the text whose
 * bytes are in neither set is passed over without a probe of the table,
 * whose buckets (megabytes at a million records) miss the caches at
 * nearly every byte. */
struct fl_litset {
	uint64_t *b;              /* NULL: no literal of the kind */
	uint32_t bits;            /* 2^bits bits */
	size_t map;               /* fl_xzalloc_huge's */
};
typedef struct fl_litfilter {
	struct fl_litset s8, s4;  /* keyed on 8 bytes, on 4 */
} fl_litfilter;
void fl_litfilter_make(const fl_littab *t, fl_litfilter *f);
/* ... with per_key bits a key (fl_litfilter_make: 32).  The index image
 * keeps one of 8 bits a key for short texts (index.c): a pasted message's
 * probes then read the table only where a literal may start, instead of
 * a bucket of a megabytes-long table at every byte (a page fault each in
 * a process that makes one lookup). */
void fl_litfilter_make_sized(const fl_littab *t, fl_litfilter *f, unsigned per_key);
#define FL_SHORT_FILTER_BITS 8
void fl_litfilter_free(fl_litfilter *f);
/* fl_littab_scan's occurrences, in the same order, through the filter. */
bool fl_littab_scan_filtered(const fl_littab *t, const fl_litfilter *f,
			     const char *strings, const char *text, size_t len,
			     fl_lit_on on, void *ctx);

#endif
