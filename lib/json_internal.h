/*
 * json_internal.h — jansson-level access to the record codec, for the
 * modules of libfaultline that build larger JSON documents (store, export,
 * CLI output).  Not part of the public API.
 */
#ifndef FL_JSON_INTERNAL_H
#define FL_JSON_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "faultline.h"
#include "util.h"

/* The ErrorEntry keys in spec order: name, its length, kind and offset in
 * fl_entry (the codec's table, shared with the data set's fast reader). */
typedef enum {
	FL_F_STR, FL_F_NSTR, FL_F_NINT, FL_F_INT, FL_F_STRV, FL_F_LL, FL_F_NLL
} fl_field_kind;
typedef struct fl_field {
	const char *key;
	size_t len;
	fl_field_kind kind;
	size_t off;
} fl_field;
extern const fl_field fl_entry_fields[];
extern const size_t fl_entry_nfields;

/* The content digest (version 2) of bytes given in pieces: the same for
 * the same bytes however they are split. */
typedef struct fl_digest {
	uint64_t h, w;   /* the hash so far; up to 7 bytes not yet mixed in */
	unsigned k;      /* how many bytes w holds */
	uint64_t n;      /* bytes in all */
} fl_digest;
void fl_digest_init(fl_digest *d);
void fl_digest_put(fl_digest *d, const char *s, size_t n);
uint64_t fl_digest_end(const fl_digest *d);
/* the digest of n bytes */
uint64_t fl_digest_of(const char *s, size_t n);

/* Where the value of field `field` (an index of fl_entry_fields, or -1)
 * is in a record's JSON: bytes [off, off+len). */
typedef struct fl_json_span {
	int field;
	size_t off, len;
} fl_json_span;
/* The compact JSON of e (exactly fl_entry_to_json(e, false)) and, in the
 * same pass, the digest (fl_digest_of) of the compact JSON e would have
 * with the fields whose bit is set in `blank` (bit i = fl_entry_fields[i])
 * at their zero value (NULL, 0).  Each of the nspans spans receives where
 * its field's value is in the returned JSON. */
char *fl_entry_to_json_digest(const fl_entry *e, uint64_t blank, uint64_t *digest,
			      fl_json_span *spans, size_t nspans);
/* The same appended to b (span offsets relative to where it starts). */
void fl_entry_json_digest_append(fl_buf *b, const fl_entry *e, uint64_t blank,
				 uint64_t *digest, fl_json_span *spans, size_t nspans);
/* s[0..n) as a JSON string, quotes included, appended to b (invalid UTF-8
 * replaced with U+FFFD) */
void fl_json_put_str(fl_buf *b, const char *s, size_t n);
/* The version 1 digest (64-bit FNV-1a) of the same JSON, which stores
 * written before version 2 hold. */
uint64_t fl_entry_digest_v1(const fl_entry *e, uint64_t blank);
/* Replace bytes [off, off+len) of json by value as a JSON string when that
 * takes exactly len bytes; false (json untouched) otherwise. */
bool fl_json_splice_str_inplace(char *json, size_t off, size_t len, const char *value);
/* json with its bytes [off, off+len) replaced by value as a JSON string
 * (json is reallocated when the length changes) */
char *fl_json_splice_str(char *json, size_t off, size_t len, const char *value);

json_t *fl_entry_to_jobj(const fl_entry *e);
json_t *fl_repo_to_jobj(const fl_repo *r);
/* Strict read; validate=false skips fl_entry_validate (for rows the store
 * wrote itself after validating them). */
int fl_entry_from_jobj(json_t *o, fl_entry *out, bool validate, fl_err *err);
int fl_repo_from_jobj(json_t *o, fl_repo *out, fl_err *err);
json_t *fl_json_parse(const char *json, size_t len, fl_err *err);

#endif
