/*
 * lookup_internal.h — the lookup handle, shared by the lookup modules.
 */
#ifndef FL_LOOKUP_INTERNAL_H
#define FL_LOOKUP_INTERNAL_H

#include <stdio.h>

#include "faultline.h"
#include "index.h"
#include "match.h"
#include "normalize.h"

struct fl_lookup {
	fl_index ix;
	bool built;        /* the index was (re)built on open */
};

/* Below this score an answer is no confident match (lookup.md). */
#define FL_LK_CONFIDENT 0.4
/* The pattern tier's confident answers score at least this (lookup.md);
 * weaker pattern hits (rank.c) score below it. */
#define FL_LK_PATTERN_MIN 0.9

/* A candidate answer. */
struct hit {
	uint32_t entry;
	double score;
	uint32_t literal;
	int ev;
	double coverage;
	uint32_t pos;      /* which message of the query it matched (0: the
			      most likely, fl_query's order) */
	bool strong;       /* a confident pattern hit (rank.c) */
	bool covers;       /* spans most of its line's message (rank.c) */
	bool wraps;        /* a placeholder of it holds a message another
			      confident hit matches (lookup.c) */
	bool fuzzy;        /* from the fuzzy tier, beside weak pattern hits */
	bool warn;         /* its record is a warning (IDX_WARN) */
	bool raised;       /* its record is raised, not printed (IDX_RAISED) */
	bool def;          /* its record is the text's definition (IDX_DEF) */
	bool lenient;      /* matched only with empty placeholders allowed */
	int near;          /* other lines of the text matching its file */
	uint32_t line_rank; /* its line's place among the text's lines
			       (rank.c's rank_lines) */
	double info;       /* information its literal part carries, 1 =
			      enough for a confident answer */
	size_t at, end;    /* where the match starts and ends in its text */
	fl_span caps[FL_MAX_SEGMENTS + 1];
	size_t ncaps;
	const char *text;  /* the text the captures refer to */
};

/* Literal occurrences (factor id, or n_factors + code index; end offset). */
typedef struct fl_occ {
	uint32_t id;
	uint32_t end;
} fl_occ;
typedef struct fl_occs {
	fl_occ *v;
	size_t n, cap;
} fl_occs;
/* Scan text for every factor and code; false when cut short (too many
 * occurrences or too long a text). */
bool fl_lk_scan(const fl_lookup *lk, const char *text, size_t len, fl_occs *ob);
/* The same with the engine chosen: Hyperscan's databases, or the literal
 * table (littab.h); both give the same occurrences. */
bool fl_lk_scan_by(const fl_lookup *lk, const char *text, size_t len, fl_occs *ob,
		   bool hyperscan);

/* The calling thread's time limit: lookups stop at fl_now_mono() >= at
 * (0: never). */
void fl_lk_set_deadline(double at);
/* Has the calling thread's time run out?  Checked in every loop of the
 * lookup (the clock is read every few calls); once true, stays true until
 * the next fl_lk_set_deadline, and whatever was cut short is no answer. */
bool fl_lk_expired(void);
/* Did a check find the time run out (no clock read)? */
bool fl_lk_timed_out(void);
/* Lines of text[0, len) longer than FL_LINE_MAX, replaced by their head
 * and tail (faultline.h): returns how many there are; when any, *out is a
 * new copy (caller frees) of *outlen bytes, else NULL. */
size_t fl_lk_cut_lines(const char *text, size_t len, char **out, size_t *outlen);

/* Texts are scanned for literals in blocks of whole lines of about this
 * size (each block from a factor's length before it): the occurrences of
 * one block always fit in the buffer, whatever the text. */
#define FL_SCAN_BLOCK (16u << 10)

/* Prepare the calling thread's scratch for a query on lk. */
void fl_lk_prepare(const fl_lookup *lk);
/* Pattern-tier hits of one text appended to hits[0, nh); returns the new
 * count (q may be NULL: no evidence). */
size_t fl_lk_pattern_text(const fl_lookup *lk, const char *text, size_t len,
			  const char *repo, const fl_query *q, struct hit **hits,
			  size_t nh, size_t *cap);
/* The same from occurrences found beforehand (ends relative to text, in
 * increasing order; complete: the scan was not cut short), when only the
 * want best hits matter (0: every hit): a candidate that ranks below the
 * want best found so far is not tried. */
size_t fl_lk_pattern_occs(const fl_lookup *lk, const char *text, size_t len,
			  const fl_occ *occs, size_t nocc, bool complete,
			  const char *repo, const fl_query *q, size_t want,
			  struct hit **hits, size_t nh, size_t *cap);
/* Can the entries of factor f, seen ending at end in the one line
 * [line, line+len), be an answer there?  False when they are all short
 * bounded patterns that cannot cover FL_SHORT_COVER of the message. */
bool fl_lk_short_viable(const fl_lookup *lk, uint32_t f, const char *line,
			size_t len, size_t end);
/* fl_lookup_explain, with the fuzzy tier optional, within the calling
 * thread's time limit (-1: it ran out; out holds no match). */
int fl_lk_explain(fl_lookup *lk, const char *text, size_t len, const char *repo,
		  size_t limit, bool fuzzy, fl_result *out);
/* The same, given every literal occurrence of text (ends relative to
 * text, in increasing order; NULL: none known, the lookup scans): the
 * texts it tries that lie inside text are not scanned again. */
int fl_lk_explain_occs(fl_lookup *lk, const char *text, size_t len, const fl_occ *occ,
		       size_t nocc, const char *repo, size_t limit, bool fuzzy,
		       fl_result *out);
/* Length of the message on a line once log prefixes are stripped. */
size_t fl_lk_message_len(const char *line, size_t len);
/* fl_grep_log_until with the chunk size (bytes) and the number of worker
 * threads (0: the calling thread alone; -1: one per core) chosen. */
int fl_lk_grep_log(fl_lookup *lk, FILE *in, const char *repo, fl_logmatch_cb cb,
		   void *ud, fl_grep_stats *stats, size_t chunk, int threads,
		   double seconds, fl_err *err);
/* rank.c: evidence points of entry x from the query's wrappers and
 * pasted command. */
int fl_lk_evidence(const fl_index *ix, const idx_entry *x, const fl_query *q);
/* rank.c: is confirmed hit h (coverage and ev set) a confident answer? */
void fl_lk_judge(const fl_index *ix, const idx_entry *x, const fl_query *q,
		 struct hit *h);
/* rank.c: the unit of information: the idf of a word of one record. */
double fl_lk_info_unit(const fl_index *ix);
/* rank.c: order pattern hits (confident first, then by message, then
 * specificity, evidence, coverage), give them scores, drop those below
 * FL_LK_CONFIDENT; returns the count kept. */
size_t fl_lk_rank(const fl_index *ix, struct hit *hits, size_t nh);
/* rank.c: the same order, without scores (code-tier hits). */
void fl_lk_sort(struct hit *hits, size_t nh);
/* rank.c: m's evidence lines and how many of hits[0, nh) raise the same
 * text as hits[i]. */
void fl_lk_why(const fl_index *ix, const struct hit *hits, size_t nh, size_t i,
	       const fl_query *q, fl_match *m);
/* sites.c: m's other lines that raise x's record, and the line a frame of
 * text [0, len) names made m's (text may be NULL: no frames). */
void fl_lk_sites(const fl_index *ix, const idx_entry *x, const char *text, size_t len,
		 fl_match *m);

#endif
