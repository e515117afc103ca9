/*
 * index.h — the lookup index: every record's match data in one flat file
 * (strings, entries, error codes, literal factors with a Hyperscan
 * literal database, and an inverted token index with idf), built once per
 * store change, cached beside the store, replaced atomically, and mapped
 * into memory in milliseconds.
 */
#ifndef FL_LOOKUP_INDEX_H
#define FL_LOOKUP_INDEX_H

#include <hs.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "faultline.h"
#include "littab.h"

/* 9: literal factors are windows of at most FL_FACTOR_WINDOW bytes, and
 * entries keep the segment their factor came from (idx_entry.seg);
 * 10: parts (IDX_PART); 11: each factor's length (off_factor_len);
 * 15: the literal table (littab.h); 16: the literal databases in a file
 * of their own (hsdb.c); 17: a record's sites with each one's function
 * and guard, its own first (index.c's read_sites); 18: a message quoted
 * whole has words (tokens.c's whole_line: the norms changed); 19: a
 * record of one line keeps its function as its sites ("\tFUNC") */
#define FL_HS_SHARDS 16    /* literal databases compiled in parallel */
#define FL_IDX_MAGIC "FLIDX\0\0\x18"
/* patterns with fewer literal characters must span most of the message
 * (FL_SHORT_COVER of it) to count: "path" inside any line is no answer */
#define FL_SHORT_PATTERN 12
#define FL_SHORT_COVER 0.6
/* The literal factor of a pattern is a window of at most FL_FACTOR_WINDOW
 * bytes of one of its literal segments, the one fewest other patterns
 * share (index.c): Hyperscan scans ~100k literals capped at 12 bytes about
 * half again as fast as the same literals at full length (up to 64), and
 * the whole segment is compared around an occurrence before the pattern
 * is tried, so what the window leaves out costs little. */
#define FL_FACTOR_WINDOW 12

typedef struct idx_entry {
	uint32_t id, repo, slug, code, msg, path, url, pattern, cls; /* strings */
	int32_t line;
	uint32_t literal;      /* literal characters of the pattern */
	uint32_t toks, ntoks;  /* token indexes, into entry_toks */
	float norm;            /* sum of idf over the entry's tokens */
	uint32_t flags;        /* IDX_SIMPLE: pattern is literal + (.+?);
				  IDX_LOCAL: simple, and no newline in it (a
				  match lies within one line) */
	uint32_t maxlen;       /* longest possible match, UINT32_MAX = unbounded */
	uint32_t minlen;       /* shortest text the pattern can match */
	uint32_t seg;          /* string: the literal segment the factor was
				  taken from, unescaped (IDX_SIMPLE entries;
				  every match holds it) */
	uint32_t seglen;
	uint32_t segoff;       /* where the factor starts in seg */
	uint32_t patlen;       /* strlen of the pattern */
	uint32_t whole;        /* IDX_PART: the entry of the whole record;
				  else its own index */
	uint32_t sites;        /* string: the other lines that raise the
				  record ("path:line" each, '\n' between),
				  0 for none */
} idx_entry;
#define IDX_SIMPLE 1u
#define IDX_LOCAL 2u
/* A line of a multi-line message, matched alone (a program that printed
 * only the first line, a user who pasted one): stands for entry `whole`,
 * after every whole entry, not in the token postings. */
#define IDX_PART 4u
/* A record of severity warning, info or notice (below an error's). */
#define IDX_WARN 8u
/* A message's definition rather than its raise site: a class's
 * constructor or __str__, a template, an Error() method (fl_idiom_kind). */
#define IDX_DEF 16u
/* A call of an error factory: the factory's body, a record of the same
 * text, is then its definition (rank.c). */
#define IDX_CALL 32u
/* A record raised (an exception or a panic), not printed or logged. */
#define IDX_RAISED 64u
/* Bits 16-23 of flags: how many of the message's literal characters are
 * an operating system's error text ("No such file or directory",
 * "Permission denied"), which any program that prints one says alike: a
 * hit ranks on the others (fl_idx_rank_literal). */
#define IDX_OS_SHIFT 16
#define IDX_OS_MASK 0xffu
/* The characters of the OS error texts in message m (at most 255). */
uint32_t fl_idx_os_text_len(const char *m);
/* Entry x's literal characters as a hit ranks on them: its pattern's,
 * without the OS error texts of its message. */
static inline uint32_t fl_idx_rank_literal(const idx_entry *x)
{
	uint32_t os = (x->flags >> IDX_OS_SHIFT) & IDX_OS_MASK;
	return x->literal > os ? x->literal - os : 0;
}
/* the literal characters a part must hold */
#define FL_PART_LITERAL 12

typedef struct idx_token {
	uint32_t str;          /* token text */
	uint32_t df;
	uint32_t post;         /* offset into postings */
	float idf;
} idx_token;

typedef struct idx_code {
	uint32_t str;
	uint32_t entry;
} idx_code;

typedef struct idx_header {
	char magic[8];
	uint32_t entry_size, token_size;
	int64_t generation;            /* store generation it was built from */
	char version[32];              /* datasetVersion: time of last change */
	uint8_t stamp[16];             /* random, this build's: the literal
					  databases beside it name it */
	uint64_t n_entries, n_tokens, n_codes, n_factors, n_always;
	uint64_t off_strings, len_strings;
	uint64_t off_entries;
	uint64_t off_tokens, off_postings, n_postings;
	uint64_t off_entry_toks, n_entry_toks;
	uint64_t off_codes;
	uint64_t off_factor_idx, off_factor_ent, n_factor_ent;
	uint64_t off_factor_max;   /* per factor: max maxlen of its short entries */
	uint64_t off_factor_len;   /* per factor: its length in bytes (uint8_t) */
	uint64_t off_always;
	/* distinct error codes, also in the literal database with ids
	 * n_factors + k (for finding codes in logs) */
	uint64_t off_hscodes, n_hscodes;
	uint64_t n_parts;              /* IDX_PART entries, the last ones */
	/* the literal table (littab.h): every factor and code */
	uint64_t lit_bits[FL_LIT_TIERS], n_lit[FL_LIT_TIERS], n_slit;
	uint64_t off_lit_bidx[FL_LIT_TIERS], off_lit[FL_LIT_TIERS];
	uint64_t off_lit_sidx, off_slit;
	/* the literal table's filter for short texts (8 bits a key, s8 and
	 * s4 of littab.h's fl_litfilter): 2^bits bits at off, bits 0 when
	 * no literal of the kind */
	uint64_t lf_bits[2], off_lf[2];
	char store_id[40];             /* the store's identity (meta) */
	/* a delta segment (segment.c): the base it goes with (its stamp
	 * and generation), and the base's whole entries it masks, n_dead
	 * pairs [lo, hi) in increasing order (uint32_t each) */
	uint64_t delta;                /* 1: a delta, 0: a base */
	uint8_t base_stamp[16];
	int64_t base_generation;
	uint64_t off_dead, n_dead;
	uint64_t total;
} idx_header;

typedef struct fl_index {
	void *mem;             /* the flat image, mapped */
	size_t len;
	char *path;            /* its file, NULL when it could not be kept */
	const idx_header *h;
	const char *str;
	const idx_entry *ent;
	const idx_token *tok;
	const uint32_t *post;
	const uint32_t *etoks;
	const idx_code *codes;
	const uint32_t *fidx;  /* n_factors + 1 offsets into fent */
	const uint32_t *fent;
	const uint32_t *fmax;  /* per factor: longest match any of its entries
				  can make when all are short (UINT32_MAX: any) */
	const uint8_t *flen;   /* per factor: its length (where an occurrence
				  starts: end - flen) */
	const uint32_t *always;
	const uint32_t *hscodes; /* string offsets of the distinct codes */
	const uint32_t *dead;  /* a delta's: h->n_dead pairs [lo, hi) */
	fl_littab lt;          /* every factor and code, for short texts */
	/* the same literals in Hyperscan databases (hsdb.c), made or mapped
	 * on first need by fl_index_hs */
	hs_database_t *hs[FL_HS_SHARDS];
	size_t nhs;
	void *hsmem;           /* the mapped databases' file, or NULL when
				  they are allocated (hs_owned) */
	size_t hslen;
	bool hs_owned;
	int hs_state;          /* 0: not made or checked yet, 1: ready,
				  -1: unusable (the literal table serves) */
	hs_scratch_t *hs_proto; /* scratch for every database, checked once:
				   threads clone it (fl_index_hs_scratch) */
	uint64_t hs_serial;    /* these databases' number in the process
				  (0: none), which a thread's scratch names */
	fl_litfilter lf;       /* instead of the databases when they would be
				  more than one (fl_index_hs): the literal
				  table behind its filter */
	bool filtered;
	fl_litfilter lf_short; /* the image's filter of 8 bits a key (mapped,
				  never freed): short texts' scans */
} fl_index;

/* The literal databases, ready to scan: mapped from the file beside the
 * index (PATH.hs) when it was made for this index, else compiled from the
 * literal table (seconds) and saved there; or, for more literals than one
 * database holds, the literal table's filter instead (filtered).  Once per
 * index; a thread that finds another making them waits when told to, else
 * gets false at once (the literal table serves it meanwhile); false on
 * any failure, a database that fails Hyperscan's own check among them
 * (the literal table serves from then on).  A lookup that needs no long scan never loads Hyperscan (a
 * cold `explain`). */
bool fl_index_hs(const fl_index *ix, bool wait);
/* Scratch for the calling thread to scan ix's ready databases with, made
 * for them if *serial does not name them (the old one freed): a clone of
 * the checked one, so no thread checks the databases again; false when
 * none could be made. */
bool fl_index_hs_scratch(const fl_index *ix, hs_scratch_t **scratch, uint64_t *serial);
void fl_index_hs_free(fl_index *ix);

/* What a delta segment records of its base (segment.c). */
typedef struct fl_index_link {
	const uint8_t *base_stamp;     /* the base's idx_header.stamp */
	int64_t base_generation;
	const uint32_t *dead;          /* ndead pairs [lo, hi) of the base's
					  whole entries it masks, in order */
	size_t ndead;
} fl_index_link;

/* Build from the store's records (those of repos alone, NULL: every
 * one; link: a delta segment's, NULL for a base), written to path (kept
 * for the next process: fl_index_open) and mapped; NULL or an
 * unwritable path: in memory. */
int fl_index_build(fl_store *st, const fl_strv *repos, const fl_index_link *link,
		   const char *path, fl_index *out, fl_err *err);
/* Build from records handed one by one. */
typedef struct fl_index_builder fl_index_builder;
fl_index_builder *fl_index_builder_new(void);
/* The fields the index keeps, without a whole record. */
typedef struct fl_index_item {
	const char *id, *repo, *slug, *code, *message, *pattern, *path, *url, *cls;
	int line;
	const char *severity, *idiom, *type; /* may be NULL */
	const char *part_text; /* a line of message: the item is that line's
				  IDX_PART entry (pattern: the line's), NULL
				  for a whole record */
	uint32_t whole;        /* with part_text: the whole record's entry */
	const char *sites;     /* the other lines that raise it, '\n' between,
				  or NULL */
	const char *func;      /* the function its line is in, or NULL: kept as
				  its sites ("\tFUNC") when it has no other
				  line (sites.c's fl_lk_func_site) */
} fl_index_item;
void fl_index_builder_add_item(fl_index_builder *b, const fl_index_item *it);
int fl_index_builder_finish(fl_index_builder *b, int64_t generation,
			    const char *version, const char *store_id,
			    const fl_index_link *link, const char *path, fl_index *out,
			    fl_err *err);

/* Map the index file at path, whatever store state it was made from (the
 * caller compares its header with the store: segment.c); returns 1 when
 * mapped, 0 when missing, of another build's format or not whole, -1 on
 * error. */
int fl_index_open(const char *path, fl_index *out, fl_err *err);
/* Does every offset ix holds point inside it (strings, entries, tokens,
 * postings, codes, factors, the literal table)?  O(its size): for a
 * small segment read from a file that may be damaged (a delta). */
bool fl_index_check(const fl_index *ix);
/* Map in advance the pages of the image already in the page cache (the
 * runs mincore reports resident, MADV_POPULATE_READ): a long log's
 * lookups read pages all over a large index, and each first read of a
 * page was a fault (microseconds on a paravirtualised guest, half a
 * first pass at a million records).  Pages on disk are left to be read
 * when needed: a short log must not read a 5 GB index.  Best effort. */
void fl_index_populate(const fl_index *ix);
void fl_index_free(fl_index *ix);

static inline const char *ix_str(const fl_index *ix, uint32_t off)
{
	return ix->str + off;
}

/* Binary searches. */
const idx_token *fl_index_token(const fl_index *ix, const char *tok);
/* First code slot equal to code (slots with the same code follow), or
 * NULL. */
const idx_code *fl_index_code(const fl_index *ix, const char *code);

#endif
