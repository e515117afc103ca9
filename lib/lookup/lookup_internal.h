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

/* The index in segments (segment.c): the base, built from every record
 * at some generation, and, when few records changed since, a delta built
 * from the repositories that changed, whose records mask the base's of
 * those repositories (its tombstones).  Every tier looks in both; a hit
 * names its segment. */
#define FL_SEGS 2
#define FL_IDF_TABLE 16384
typedef struct fl_seg_adj fl_seg_adj;
struct fl_lookup {
	fl_index seg[FL_SEGS]; /* 0: the base, 1: the delta (nseg == 2) */
	size_t nseg;
	bool built;        /* an index (base or delta) was built on open */
	/* the per-entry tables of a thread (stamps) hold segment s's entry e
	 * at ent_off[s] + e; occurrences name segment s's literal id at
	 * lit_off[s] + id (lit_off[nseg]: all of them) */
	uint32_t ent_off[FL_SEGS];
	uint32_t lit_off[FL_SEGS + 1];
	size_t n_entries;  /* of every segment */
	size_t n_records;  /* whole entries not masked: the records */
	/* with a delta: the statistics of the records as one (the base's
	 * masked entries out, the delta's in) */
	size_t n_dead;     /* the base's whole entries masked */
	float *idf_df;     /* idf over the records of df 0 .. FL_IDF_TABLE-1 */
	double shift;      /* ln((N+1)/(N_base+1)): what the idf of a base
			      token whose df did not change gains */
	double dmax;       /* the most a changed base token's idf moved
			      besides the shift */
	uint64_t *changed; /* per base token, a bit: its df changed */
	fl_seg_adj *adj;   /* those tokens, by base token id */
	size_t nadj;
	float *didf;       /* per delta token: its idf over the records */
	float *dnorm;      /* per delta entry: its norm over the records */
	uint32_t *dpos;    /* per delta whole entry: the base whole entry
			      its repository's records precede (order) */
};

static inline const fl_index *fl_lk_seg(const fl_lookup *lk, uint32_t s)
{
	return &lk->seg[s];
}

/* Is base entry x (segment s) masked by the delta? */
static inline bool fl_lk_dead(const fl_lookup *lk, uint32_t s, const idx_entry *x)
{
	if (s != 0 || lk->nseg < 2)
		return false;
	const fl_index *d = &lk->seg[1];
	size_t lo = 0, hi = d->h->n_dead;
	while (lo < hi) { /* the first range ending after x->whole */
		size_t mid = (lo + hi) / 2;
		if (d->dead[2 * mid + 1] <= x->whole)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->h->n_dead && d->dead[2 * lo] <= x->whole;
}

/* segment.c: the place of segment s's entry e in the order a full
 * rebuild would give the entries (ties between equal answers fall to the
 * first): the location order of whole entries, then the parts. */
uint64_t fl_lk_order(const fl_lookup *lk, uint32_t s, uint32_t e);
/* segment.c: the number fl_match.entry gives whole entry e of segment s
 * (below fl_lookup_count). */
uint32_t fl_lk_public(const fl_lookup *lk, uint32_t s, uint32_t whole);
/* segment.c: the idf of a token over the records, given its entries in
 * the base (tb) and in the delta (td), either NULL when absent. */
double fl_lk_idf(const fl_lookup *lk, const idx_token *tb, const idx_token *td);
/* segment.c: the sum of the idf of entry e's tokens over the records. */
double fl_lk_norm(const fl_lookup *lk, uint32_t s, uint32_t e);
/* segment.c: bounds of fl_lk_norm without reading the entry's tokens
 * (equal: the norm itself). */
void fl_lk_norm_range(const fl_lookup *lk, uint32_t s, uint32_t e, double *lo, double *hi);
/* segment.c: which segment literal id (of an occurrence) belongs to, and
 * its id there. */
static inline uint32_t fl_lk_lit(const fl_lookup *lk, uint32_t id, uint32_t *local)
{
	uint32_t s = lk->nseg > 1 && id >= lk->lit_off[1] ? 1 : 0;
	*local = id - lk->lit_off[s];
	return s;
}
/* Is literal id (of an occurrence) a factor (else an error code)? */
static inline bool fl_lk_is_factor(const fl_lookup *lk, uint32_t id, uint32_t *s, uint32_t *f)
{
	*s = fl_lk_lit(lk, id, f);
	return *f < lk->seg[*s].h->n_factors;
}
/* segment.c: m's record fields from whole entry e of segment s. */
void fl_lk_fill(const fl_lookup *lk, uint32_t s, uint32_t whole, fl_match *m);

/* Below this score an answer is no confident match (lookup.md). */
#define FL_LK_CONFIDENT 0.4
/* The pattern tier's confident answers score at least this (lookup.md);
 * weaker pattern hits (rank.c) score below it. */
#define FL_LK_PATTERN_MIN 0.9

/* A candidate answer. */
struct hit {
	uint32_t entry;    /* in its segment */
	uint32_t seg;      /* fl_lookup's seg */
	uint64_t order;    /* fl_lk_order: ties fall to the lower */
	double score;
	uint32_t literal;
	int ev;
	int cap_ev;        /* of ev, the points of values named like their
			      placeholders (named_captures): a hint, not
			      what the text says of where it comes from */
	double coverage;
	uint32_t pos;      /* which message of the query it matched (0: the
			      most likely, fl_query's order) */
	bool strong;       /* a confident pattern hit (rank.c) */
	bool covers;       /* spans most of its line's message (rank.c) */
	bool wraps;        /* a placeholder of it holds a message another
			      confident hit matches (lookup.c) */
	bool quotes;       /* a raise whose placeholder holds another
			      confident hit's text on its line (lookup.c's
			      mark_quoting) */
	bool quotes_err;   /* and that placeholder is named for an error
			      ({exc}, {te.args[0]}, %w) */
	bool fuzzy;        /* from the fuzzy tier, beside weak pattern hits */
	bool warn;         /* its record is a warning (IDX_WARN) */
	bool raised;       /* its record is raised, not printed (IDX_RAISED) */
	bool def;          /* its record is the text's definition (IDX_DEF) */
	bool late;         /* and the text is formatted when the error is
			      printed (a Rust Display arm, a Go Error()
			      method: the language table's late_text) */
	bool built_near;   /* a late definition with a hit of its text built
			      in its own folder (rank.c's built_near) */
	bool lenient;      /* matched only with empty placeholders allowed */
	bool split;        /* two of its placeholders split a quoted text
			      between them (`'"exit'`, `'3"'` of `ruby -e
			      "exit 3"`): lookup.c's split_quote */
	bool printed_cls;  /* its record's class is the word its line printed
			      before the message ("Error: ", a level to the
			      normalizer; rank.c's class_printed) */
	bool prog;         /* the program that printed the text names its
			      repository or its file (rank.c's
			      program_names) */
	bool sited;        /* the text names its line ("In Foo.php line 866:",
			      a frame): rank.c's fl_lk_site_named */
	uint8_t site_rank; /* when sited: its frame's depth, 0 the innermost
			      (fl_lk_site_rank) */
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
 * occurrences or too long a text).  Texts longer than FL_LITTAB_COLD
 * always take Hyperscan (when its databases are ready: see lookup.c). */
#define FL_LITTAB_COLD (64u << 10)
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
/* The same, for a thread about to run many queries (a log's lines): its
 * per-entry tables written through once, so that the queries do not take
 * a page fault at each first write to a page they read as zeros (which
 * costs every core a TLB flush in a threaded process). */
void fl_lk_prepare_bulk(const fl_lookup *lk);
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
 * bounded patterns that cannot cover FL_SHORT_COVER of the message.
 * *msglen is the line's message length once known (SIZE_MAX before: set
 * here when needed, for the line's next occurrences). */
bool fl_lk_short_viable(const fl_lookup *lk, uint32_t f, const char *line,
			size_t len, size_t end, size_t *msglen);
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
/* rank.c: evidence points of entry x (of index ix) from the query's
 * wrappers and pasted command. */
int fl_lk_evidence(const fl_index *ix, const idx_entry *x, const fl_query *q);
/* rank.c: a program word of a pasted command that runs the next one
 * (sudo, env, time...), or one that prepares rather than being the
 * program that failed (cd, export, cp, mkdir...: its words name files
 * and folders, no code). */
bool fl_lk_wrapper_prog(const char *w, size_t wl);
bool fl_lk_setup_prog(const char *w, size_t wl);
/* How a path a text names agrees with a record's: 2 one is a suffix of
 * the other at a '/' boundary, 1 they end alike in two whole components
 * or more (a file as installed), 0 neither. */
int fl_lk_path_agreement(const char *entry_path, const char *seen);
/* Does a frame or wrapper of q name entry x's line (within 3 lines)? */
bool fl_lk_site_named(const fl_index *ix, const idx_entry *x, const fl_query *q);
/* sites.c: the function of one of entry x's lines (its own or another
 * of its record's, index.c's read_sites) that a frame of the text names
 * (q->funcs, among the innermost FL_FUNC_FRAMES): the frame's depth, the
 * function in *fn; -1 when none. */
#define FL_FUNC_FRAMES 4
int fl_lk_func_site(const fl_index *ix, const idx_entry *x, const fl_query *q, const char **fn);
/* A class's last component, as a text names it ("ParseException" of
 * "org.x.ParseException", "Error" of "io::Error"): a pointer into cls. */
const char *fl_lk_class_last(const char *cls);
/* The depth of the innermost frame of q that names entry x's line (0: the
 * innermost frame of the stack), or -1 when none does. */
int fl_lk_site_rank(const fl_index *ix, const idx_entry *x, const fl_query *q);
/* rank.c: can any hit of the query be confident (fl_lk_judge)?  False
 * for a text logged as informational that names no path, site, class,
 * module, command or program, the only sources of evidence. */
bool fl_lk_query_may_confide(const fl_query *q);
/* rank.c: is confirmed hit h (coverage, ev, seg and entry set) a
 * confident answer? */
void fl_lk_judge(const fl_lookup *lk, const fl_query *q, struct hit *h);
/* rank.c: the unit of information: the idf of a word of one record. */
double fl_lk_info_unit(const fl_lookup *lk);
/* rank.c: order pattern hits (confident first, then by message, then
 * specificity, evidence, coverage), give them scores, drop those below
 * FL_LK_CONFIDENT; returns the count kept. */
size_t fl_lk_rank(const fl_lookup *lk, struct hit *hits, size_t nh);
/* rank.c: the same order, without scores (code-tier hits). */
void fl_lk_sort(struct hit *hits, size_t nh);
/* rank.c: m's evidence lines and how many of hits[0, nh) raise the same
 * text as hits[i]. */
void fl_lk_why(const fl_lookup *lk, const struct hit *hits, size_t nh, size_t i,
	       const fl_query *q, fl_match *m);
/* sites.c: m's other lines that raise x's record, and the line a frame of
 * text [0, len) names made m's (text may be NULL: no frames), else the
 * one line whose function or guard the pasted command's words name
 * best (command may be NULL). */
/* A site line of the index's list "PATH:LINE\tFUNCTION\tGUARD": its
 * location's length, and where its context starts (NULL when it has none:
 * an index of an older format's store). */
size_t fl_lk_site_loc(const char *s, size_t n, const char **ctx);
void fl_lk_sites(const fl_index *ix, const idx_entry *x, const char *text, size_t len,
		 const char *command, fl_match *m);

#endif
