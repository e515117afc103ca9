/*
 * persist.h — the scan's store writer, shared by fl_scan_store() (a whole
 * result at once) and fl_scan_into_store() (records written while the tree
 * is still being scanned).  One transaction from fl_sw_begin() to
 * fl_sw_finish(); fl_sw_abort() rolls it back.
 */
#ifndef FL_SCAN_PERSIST_H
#define FL_SCAN_PERSIST_H
#include <stdbool.h>
#include "faultline.h"

typedef struct fl_scan_writer fl_scan_writer;

/* BEGIN, read the repository's current digests, clear its rows but those
 * of the nkeep files in keep (files the scan could not read: their stored
 * records stay as they are, see fl_sw_kept). */
int fl_sw_begin(fl_store *st, const char *repo, const char *const *keep, size_t nkeep,
		fl_scan_writer **out, fl_err *err);
/* The same, but the records kept are those of the n ids (a history scan
 * that resumes: records of past versions it does not write again). */
int fl_sw_begin_keep_ids(fl_store *st, const char *repo, const char *const *ids, size_t n,
			 fl_scan_writer **out, fl_err *err);
/* The records fl_sw_begin() kept: their number, and their slugs (*slugs,
 * valid until fl_sw_finish/fl_sw_abort), which no record of the scan may
 * take. */
size_t fl_sw_kept(const fl_scan_writer *w, char *const **slugs);
/* The record's JSON and its digest, in one pass.  With w, an unchanged
 * record keeps its stored contentChangedAt (in e and in the JSON) and
 * *state (if not NULL) receives FL_SW_*, as fl_sw_state(). */
char *fl_sw_encode(const fl_scan_writer *w, fl_entry *e, char hash[17], int *state);
/* The same as a record slice of a block (see store_internal.h), appended
 * to b; returns its length.  The window (lines source_code_start to
 * source_code_end) is not in it but in the block's segments, which
 * fl_sw_block_windows() writes at the start of the block first: of the
 * text's n windows (wstart[k] <= 0: none), in line order, given the
 * text's line index (fl_line_index). */
struct fl_buf;
size_t fl_sw_encode_slice(const fl_scan_writer *w, fl_entry *e, struct fl_buf *b,
			  char hash[17], int *state);
void fl_sw_block_windows(struct fl_buf *raw, const char *text, size_t len,
			 const size_t *starts, const int *wstart, const int *wend,
			 size_t n);
/* Whether e is new, changed or unchanged against the stored records:
 * fl_sw_state() only reads w (any thread may call it while no other call
 * changes w) and keeps the stored contentChangedAt of an unchanged record;
 * fl_sw_count() counts the state, once per record, in record order. */
enum { FL_SW_NEW, FL_SW_CHANGED, FL_SW_UNCHANGED };
int fl_sw_state(const fl_scan_writer *w, fl_entry *e, const char *hash);
void fl_sw_count(fl_scan_writer *w, int state, fl_scan_summary *sum);
/* Insert a record whose validation, digest and JSON are done. */
int fl_sw_insert(fl_scan_writer *w, const fl_entry *e, fl_facts *f, const char *hash,
		 const char *json, fl_err *err);
/* The same for the records of one file kept in one compressed block:
 * fl_sw_compress() makes the block (any thread; malloc'd), then
 * fl_sw_add_block() writes it and fl_sw_insert_in_block() each record with
 * its place in it. */
void *fl_sw_compress(const char *raw, size_t raw_len, size_t *zlen);
int fl_sw_add_block(fl_scan_writer *w, const char *repo, const void *z, size_t zlen,
		    size_t raw_len, long long *id, fl_err *err);
int fl_sw_insert_in_block(fl_scan_writer *w, const fl_entry *e, fl_facts *f,
			  const char *hash, long long id, size_t off, size_t len,
			  fl_err *err);
/* Another site of the record with this id (written before), with its
 * function and guard (NULL: none). */
int fl_sw_add_site(fl_scan_writer *w, const char *id, const char *path, int line,
		   int col, const char *function, const char *guard, fl_err *err);
/* Duplicate sites, the repository row, COMMIT; fills sum->removed. */
int fl_sw_finish(fl_scan_writer *w, fl_scan_result *r, fl_err *err);
void fl_sw_abort(fl_scan_writer *w);

/* Workers give records the slug suffix scan order will give them (true;
 * tests set it false, making every suffix a correction by the main
 * thread, which then makes the file's block again). */
extern bool fl_scan_guess_slugs;

#endif
