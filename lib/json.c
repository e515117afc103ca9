/*
 * json.c — ErrorEntry and RepoEntry <-> JSON (jansson), keys in the spec's
 * order, strict reading: unknown keys, missing keys, duplicate keys and
 * wrong types fail naming the field; parsed records are then validated.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultline.h"
#include "json_internal.h"
#include "util.h"

#define E(k, kind, m) {k, sizeof k - 1, kind, offsetof(fl_entry, m)}
const fl_field fl_entry_fields[] = {
	E("id", FL_F_STR, id),
	E("repo", FL_F_STR, repo),
	E("slug", FL_F_STR, slug),
	E("errorCode", FL_F_NSTR, error_code),
	E("errorMessage", FL_F_STR, error_message),
	E("messagePattern", FL_F_STR, message_pattern),
	E("errorType", FL_F_STR, error_type),
	E("errorClass", FL_F_NSTR, error_class),
	E("httpStatus", FL_F_NINT, http_status),
	E("severity", FL_F_STR, severity),
	E("filePath", FL_F_STR, file_path),
	E("lineNumber", FL_F_NINT, line_number),
	E("sourceCode", FL_F_NSTR, source_code),
	E("sourceCodeStart", FL_F_NINT, source_code_start),
	E("sourceCodeEnd", FL_F_NINT, source_code_end),
	E("githubUrl", FL_F_STR, github_url),
	E("documentation", FL_F_STR, documentation),
	E("triggerScenarios", FL_F_STR, trigger_scenarios),
	E("commonSituations", FL_F_STR, common_situations),
	E("solutions", FL_F_STRV, solutions),
	E("exampleFix", FL_F_NSTR, example_fix),
	E("handlingStrategy", FL_F_NSTR, handling_strategy),
	E("validationCode", FL_F_NSTR, validation_code),
	E("typeGuard", FL_F_NSTR, type_guard),
	E("tryCatchPattern", FL_F_NSTR, try_catch_pattern),
	E("preventionTips", FL_F_STRV, prevention_tips),
	E("tags", FL_F_STRV, tags),
	E("backgroundTag", FL_F_NSTR, background_tag),
	E("analyzedSha", FL_F_STR, analyzed_sha),
	E("analyzedAt", FL_F_STR, analyzed_at),
	E("contentChangedAt", FL_F_STR, content_changed_at),
	E("schemaVersion", FL_F_INT, schema_version),
};
const size_t fl_entry_nfields = sizeof fl_entry_fields / sizeof fl_entry_fields[0];
#undef E

#define R(k, kind, m) {k, sizeof k - 1, kind, offsetof(fl_repo, m)}
static const fl_field repo_fields[] = {
	R("repo", FL_F_STR, repo),
	R("description", FL_F_NSTR, description),
	R("language", FL_F_NSTR, language),
	R("stars", FL_F_LL, stars),
	R("sourceFiles", FL_F_NLL, source_files),
	R("defaultBranch", FL_F_STR, default_branch),
	R("analyzedSha", FL_F_STR, analyzed_sha),
	R("analyzedAt", FL_F_STR, analyzed_at),
	R("errorCount", FL_F_LL, error_count),
};
#undef R

#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

/* A string as JSON: invalid UTF-8 would make jansson refuse it, so such
 * bytes are replaced with U+FFFD (fl_utf8_fix). */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s);
	if (!j) {
		char *fixed = fl_utf8_fix(s, strlen(s));
		j = json_string(fixed);
		free(fixed);
	}
	return j;
}

static json_t *to_json(const void *rec, const fl_field *f, size_t nf)
{
	json_t *o = json_object();
	for (size_t i = 0; i < nf; i++) {
		const char *base = (const char *)rec + f[i].off;
		json_t *v = NULL;
		switch (f[i].kind) {
		case FL_F_STR:
		case FL_F_NSTR: {
			const char *s = *(char *const *)base;
			v = s ? jstr(s) : json_null();
			if (f[i].kind == FL_F_STR && !s)
				v = jstr("");
			break;
		}
		case FL_F_NINT: {
			int x = *(const int *)base;
			v = x ? json_integer(x) : json_null();
			break;
		}
		case FL_F_INT:
			v = json_integer(*(const int *)base);
			break;
		case FL_F_LL:
			v = json_integer(*(const long long *)base);
			break;
		case FL_F_NLL: {
			long long x = *(const long long *)base;
			v = x >= 0 ? json_integer(x) : json_null();
			break;
		}
		case FL_F_STRV: {
			const fl_strv *sv = (const fl_strv *)base;
			v = json_array();
			for (size_t k = 0; k < sv->n; k++)
				json_array_append_new(v, jstr(sv->v[k]));
			break;
		}
		}
		json_object_set_new(o, f[i].key, v);
	}
	return o;
}

json_t *fl_entry_to_jobj(const fl_entry *e)
{
	return to_json(e, fl_entry_fields, fl_entry_nfields);
}

json_t *fl_repo_to_jobj(const fl_repo *r)
{
	return to_json(r, repo_fields, NFIELDS(repo_fields));
}

/* ---- compact writer --------------------------------------------------------
 * The compact form is written directly, byte for byte what jansson's
 * JSON_COMPACT | JSON_PRESERVE_ORDER dump gives, without building a tree:
 * records are serialised once per scanned site, and the tree's
 * allocations were most of a scan's store phase. */

/* 0: copied as is; 1: escaped; 2: a non-ASCII byte (the string's UTF-8 is
 * checked once, when the first one is met) */
static const unsigned char jclass[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
#define X16 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
	X16, X16, X16, X16, X16, X16, X16, X16,
#undef X16
};

/* No byte of the 8 at p is escaped or non-ASCII: none is below 0x20, a
 * quote, a backslash or at or above 0x80 (each test is exact for "any
 * byte": a borrow only reaches bytes above one that matched). */
static inline bool plain8(const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t q = w ^ (ones * '"'), bs = w ^ (ones * '\\');
	uint64_t hit = (w - ones * 0x20) | (q - ones) | (bs - ones);
	return ((hit & ~w) | w) & high ? false : true;
}

/* The first byte at or after p that is not plain (a control byte, '"',
 * '\\' or non-ASCII), or a byte shortly before it: sixteen bytes at a
 * time where SSE2 is there (a window of source code has an escape every
 * 30 bytes or so), else eight. */
static inline const unsigned char *skip_plain(const unsigned char *p,
					      const unsigned char *end)
{
#ifdef __SSE2__
	const __m128i lim = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'),
		      bsl = _mm_set1_epi8('\\');
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		/* signed: below 0x20 are the control bytes and those >= 0x80 */
		__m128i hit = _mm_or_si128(_mm_cmplt_epi8(v, lim),
					   _mm_or_si128(_mm_cmpeq_epi8(v, quote),
							_mm_cmpeq_epi8(v, bsl)));
		unsigned m = (unsigned)_mm_movemask_epi8(hit);
		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
	while (end - p >= 8 && plain8(p))
		p += 8;
	return p;
}

/* the body of s[0..n) as a JSON string, without the quotes; invalid UTF-8
 * is replaced with U+FFFD (fl_utf8_fix), as jansson would refuse it */
static void put_jbody(fl_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	/* the UTF-8 is checked once, when the first non-ASCII byte shows */
	bool checked = false;
	/* room for the worst case (every byte \u00XX): written straight into
	 * the buffer, a run of plain bytes at a time */
	fl_buf_reserve(b, n * 6 + 8);
	char *o = b->s + b->n;
	while (p < end) {
		const unsigned char *run = p;
		p = skip_plain(p, end);
		while (p < end && !jclass[*p])
			p++;
		if (p < end && jclass[*p] == 2) {
			if (!checked) {
				if (!fl_utf8_valid((const char *)p, (size_t)(end - p))) {
					memcpy(o, run, (size_t)(p - run));
					b->n = (size_t)(o + (p - run) - b->s);
					char *fixed = fl_utf8_fix((const char *)p, (size_t)(end - p));
					put_jbody(b, fixed, strlen(fixed));
					free(fixed);
					return;
				}
				checked = true;
			}
			while (p < end && jclass[*p] != 1)
				p++;
		}
		memcpy(o, run, (size_t)(p - run));
		o += p - run;
		if (p == end)
			break;
		if (jclass[*p] != 1)
			continue; /* more plain or non-ASCII bytes */
		unsigned char c = *p++;
		*o++ = '\\';
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '\b': *o++ = 'b'; break;
		case '\f': *o++ = 'f'; break;
		case '\n': *o++ = 'n'; break;
		case '\r': *o++ = 'r'; break;
		case '\t': *o++ = 't'; break;
		default:
			*o++ = 'u';
			*o++ = '0';
			*o++ = '0';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
			break;
		}
	}
	b->n = (size_t)(o - b->s);
}

void fl_json_put_str(fl_buf *b, const char *s, size_t n)
{
	fl_buf_putc(b, '"');
	put_jbody(b, s, n);
	fl_buf_putc(b, '"');
}

static void put_jstr(fl_buf *b, const char *s)
{
	fl_buf_putc(b, '"');
	put_jbody(b, s, strlen(s));
	fl_buf_putc(b, '"');
}

/* one field's value */
static void put_value(fl_buf *b, const char *base, fl_field_kind kind)
{
	switch (kind) {
	case FL_F_STR:
	case FL_F_NSTR: {
		const char *s = *(char *const *)base;
		if (!s && kind == FL_F_NSTR) {
			fl_buf_put(b, "null", 4);
			return;
		}
		put_jstr(b, s ? s : "");
		return;
	}
	case FL_F_NINT: {
		int x = *(const int *)base;
		if (!x) {
			fl_buf_put(b, "null", 4);
			return;
		}
		fl_buf_put_int(b, x);
		return;
	}
	case FL_F_INT:
		fl_buf_put_int(b, *(const int *)base);
		return;
	case FL_F_LL:
		fl_buf_put_int(b, *(const long long *)base);
		return;
	case FL_F_NLL: {
		long long x = *(const long long *)base;
		if (x < 0) {
			fl_buf_put(b, "null", 4);
			return;
		}
		fl_buf_put_int(b, x);
		return;
	}
	case FL_F_STRV: {
		const fl_strv *sv = (const fl_strv *)base;
		fl_buf_putc(b, '[');
		for (size_t k = 0; k < sv->n; k++) {
			if (k)
				fl_buf_putc(b, ',');
			put_jstr(b, sv->v[k] ? sv->v[k] : "");
		}
		fl_buf_putc(b, ']');
		return;
	}
	default:
		return;
	}
}

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* ---- the content digest ---------------------------------------------------
 * Version 2: a 64-bit multiply-xorshift hash of the bytes read eight at a
 * time (little-endian), whatever pieces they are given in; finished with
 * the length and MurmurHash3's 64-bit finaliser.  Version 1 (FNV-1a of
 * every byte) is eight times slower; it is kept to compare with digests
 * that stores written before version 2 hold. */
static inline uint64_t le64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline uint64_t dh_round(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 29);
}

void fl_digest_init(fl_digest *d)
{
	d->h = 0x243F6A8885A308D3ull;
	d->w = 0;
	d->k = 0;
	d->n = 0;
}

void fl_digest_put(fl_digest *d, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	d->n += n;
	while (d->k && n) {
		d->w |= (uint64_t)*p++ << (8 * d->k);
		n--;
		if (++d->k == 8) {
			d->h = dh_round(d->h, d->w);
			d->w = 0;
			d->k = 0;
		}
	}
	for (; n >= 8; p += 8, n -= 8)
		d->h = dh_round(d->h, le64(p));
	for (; n; n--)
		d->w |= (uint64_t)*p++ << (8 * d->k++);
}

uint64_t fl_digest_end(const fl_digest *d)
{
	uint64_t h = dh_round(d->h, d->w);
	h ^= d->n;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

uint64_t fl_digest_of(const char *s, size_t n)
{
	fl_digest d;
	fl_digest_init(&d);
	fl_digest_put(&d, s, n);
	return fl_digest_end(&d);
}

/* The JSON text of a field of this kind at its zero value (NULL, 0, an
 * empty list), as put_value() writes it. */
static const char *zero_value(fl_field_kind kind)
{
	switch (kind) {
	case FL_F_STR: return "\"\"";
	case FL_F_NSTR:
	case FL_F_NINT: return "null";
	case FL_F_INT:
	case FL_F_LL:
	case FL_F_NLL: return "0";
	case FL_F_STRV: return "[]";
	}
	return "";
}

/* The compact JSON of rec.  With dg, also its digest (see
 * fl_entry_to_json_digest). */
struct digest {
	uint64_t blank;   /* fields written as their zero value in the digest */
	bool v1;          /* the version 1 digest (FNV-1a) */
	uint64_t h;
	fl_digest d;
	fl_json_span *spans; /* the fields whose value spans are wanted */
	size_t nspans;
};

static void dg_put(struct digest *dg, const char *s, size_t n)
{
	if (dg->v1)
		dg->h = fnv1a(dg->h, s, n);
	else
		fl_digest_put(&dg->d, s, n);
}

/* Append the compact JSON of rec to *bp (span offsets relative to where
 * it starts). */
static void put_json_compact(fl_buf *bp, const void *rec, const fl_field *f, size_t nf,
			     struct digest *dg)
{
	size_t origin = bp->n;
	fl_buf b = *bp;
	fl_buf_reserve(&b, 1024);
	fl_buf_putc(&b, '{');
	/* the digest takes the JSON's bytes as written, but a blank field's
	 * value as its zero value: the bytes up to such a value, then the
	 * zero value, then on from after it (a call per run, not per field) */
	size_t run = b.n - 1;
	if (dg) {
		dg->h = 1469598103934665603ull;
		fl_digest_init(&dg->d);
		for (size_t k = 0; k < dg->nspans; k++)
			dg->spans[k].off = dg->spans[k].len = 0;
	}
	for (size_t i = 0; i < nf; i++) {
		const char *base = (const char *)rec + f[i].off;
		fl_buf_reserve(&b, f[i].len + 4);
		if (i)
			b.s[b.n++] = ',';
		b.s[b.n++] = '"';
		memcpy(b.s + b.n, f[i].key, f[i].len);
		b.n += f[i].len;
		b.s[b.n++] = '"';
		b.s[b.n++] = ':';
		size_t vstart = b.n;
		put_value(&b, base, f[i].kind);
		if (!dg)
			continue;
		for (size_t k = 0; k < dg->nspans; k++)
			if ((int)i == dg->spans[k].field) {
				dg->spans[k].off = vstart - origin;
				dg->spans[k].len = b.n - vstart;
			}
		if (i < 64 && (dg->blank >> i & 1)) {
			dg_put(dg, b.s + run, vstart - run);
			const char *z = zero_value(f[i].kind);
			dg_put(dg, z, strlen(z));
			run = b.n;
		}
	}
	fl_buf_putc(&b, '}');
	if (dg) {
		dg_put(dg, b.s + run, b.n - run);
		if (!dg->v1)
			dg->h = fl_digest_end(&dg->d);
	}
	*bp = b;
}

static char *to_json_compact(const void *rec, const fl_field *f, size_t nf, struct digest *dg)
{
	fl_buf b = {0};
	put_json_compact(&b, rec, f, nf, dg);
	fl_buf_cstr(&b);
	return b.s;
}

char *fl_entry_to_json_digest(const fl_entry *e, uint64_t blank, uint64_t *digest,
			      fl_json_span *spans, size_t nspans)
{
	struct digest dg = {.blank = blank, .spans = spans, .nspans = nspans};
	char *s = to_json_compact(e, fl_entry_fields, fl_entry_nfields, &dg);
	*digest = dg.h;
	return s;
}

void fl_entry_json_digest_append(fl_buf *b, const fl_entry *e, uint64_t blank,
				 uint64_t *digest, fl_json_span *spans, size_t nspans)
{
	struct digest dg = {.blank = blank, .spans = spans, .nspans = nspans};
	put_json_compact(b, e, fl_entry_fields, fl_entry_nfields, &dg);
	*digest = dg.h;
}

uint64_t fl_entry_digest_v1(const fl_entry *e, uint64_t blank)
{
	struct digest dg = {.blank = blank, .v1 = true};
	fl_buf b = {0};
	put_json_compact(&b, e, fl_entry_fields, fl_entry_nfields, &dg);
	fl_buf_free(&b);
	return dg.h;
}

bool fl_json_splice_str_inplace(char *json, size_t off, size_t len, const char *value)
{
	fl_buf v = {0};
	put_jstr(&v, value);
	bool ok = v.n == len;
	if (ok)
		memcpy(json + off, v.s, v.n);
	fl_buf_free(&v);
	return ok;
}

char *fl_json_splice_str(char *json, size_t off, size_t len, const char *value)
{
	fl_buf v = {0};
	put_jstr(&v, value);
	size_t n = strlen(json);
	if (v.n != len) {
		json = fl_xrealloc(json, n - len + v.n + 1);
		memmove(json + off + v.n, json + off + len, n - off - len + 1);
	}
	memcpy(json + off, v.s, v.n);
	fl_buf_free(&v);
	return json;
}

static char *dump(json_t *o, bool pretty)
{
	char *s = json_dumps(o, (pretty ? JSON_INDENT(2) : JSON_COMPACT) |
				       JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

char *fl_entry_to_json(const fl_entry *e, bool pretty)
{
	if (!pretty)
		return to_json_compact(e, fl_entry_fields, fl_entry_nfields, NULL);
	return dump(fl_entry_to_jobj(e), pretty);
}

char *fl_repo_to_json(const fl_repo *r, bool pretty)
{
	if (!pretty)
		return to_json_compact(r, repo_fields, NFIELDS(repo_fields), NULL);
	return dump(fl_repo_to_jobj(r), pretty);
}

static const char *kind_name(fl_field_kind k)
{
	switch (k) {
	case FL_F_STR: return "a string";
	case FL_F_NSTR: return "a string or null";
	case FL_F_NINT:
	case FL_F_NLL: return "an integer or null";
	case FL_F_INT:
	case FL_F_LL: return "an integer";
	case FL_F_STRV: return "an array of strings";
	}
	return "?";
}

static int from_json(json_t *o, void *rec, const fl_field *f, size_t nf,
		     const char *what, fl_err *err)
{
	if (!json_is_object(o))
		return fl_seterr(err, "%s: not a JSON object", what);
	/* unknown keys */
	const char *key;
	json_t *val;
	json_object_foreach(o, key, val) {
		bool known = false;
		for (size_t i = 0; i < nf; i++)
			if (strcmp(key, f[i].key) == 0)
				known = true;
		if (!known)
			return fl_seterr(err, "%s: %s: unknown key", what, key);
	}
	for (size_t i = 0; i < nf; i++) {
		char *base = (char *)rec + f[i].off;
		json_t *v = json_object_get(o, f[i].key);
		if (!v)
			return fl_seterr(err, "%s: %s: missing", what, f[i].key);
		bool ok = true;
		switch (f[i].kind) {
		case FL_F_STR:
			ok = json_is_string(v);
			if (ok)
				*(char **)base = fl_xstrdup(json_string_value(v));
			break;
		case FL_F_NSTR:
			ok = json_is_string(v) || json_is_null(v);
			if (json_is_string(v))
				*(char **)base = fl_xstrdup(json_string_value(v));
			break;
		case FL_F_NINT:
			ok = json_is_integer(v) || json_is_null(v);
			if (json_is_integer(v)) {
				json_int_t x = json_integer_value(v);
				if (x < 1 || x > 2147483647)
					return fl_seterr(err, "%s: %s: must be null or a positive integer", what, f[i].key);
				*(int *)base = (int)x;
			}
			break;
		case FL_F_INT:
			ok = json_is_integer(v);
			if (ok)
				*(int *)base = (int)json_integer_value(v);
			break;
		case FL_F_LL:
			ok = json_is_integer(v);
			if (ok)
				*(long long *)base = json_integer_value(v);
			if (ok && *(long long *)base < 0)
				return fl_seterr(err, "%s: %s: must be >= 0", what, f[i].key);
			break;
		case FL_F_NLL:
			ok = json_is_integer(v) || json_is_null(v);
			*(long long *)base = -1;
			if (json_is_integer(v)) {
				*(long long *)base = json_integer_value(v);
				if (*(long long *)base < 0)
					return fl_seterr(err, "%s: %s: must be null or >= 0", what, f[i].key);
			}
			break;
		case FL_F_STRV: {
			ok = json_is_array(v);
			if (!ok)
				break;
			size_t k;
			json_t *it;
			json_array_foreach(v, k, it) {
				if (!json_is_string(it))
					return fl_seterr(err, "%s: %s[%zu]: must be a string", what, f[i].key, k);
				fl_strv_push((fl_strv *)base, json_string_value(it));
			}
			break;
		}
		}
		if (!ok)
			return fl_seterr(err, "%s: %s: must be %s", what, f[i].key,
					 kind_name(f[i].kind));
	}
	return 0;
}

int fl_entry_from_jobj(json_t *o, fl_entry *out, bool validate, fl_err *err)
{
	memset(out, 0, sizeof *out);
	char what[64] = "record";
	json_t *id = json_is_object(o) ? json_object_get(o, "id") : NULL;
	if (json_is_string(id))
		snprintf(what, sizeof what, "record %.20s", json_string_value(id));
	if (from_json(o, out, fl_entry_fields, fl_entry_nfields, what, err) < 0 ||
	    (validate && fl_entry_validate(out, err) < 0)) {
		fl_entry_free(out);
		return -1;
	}
	return 0;
}

int fl_repo_from_jobj(json_t *o, fl_repo *out, fl_err *err)
{
	memset(out, 0, sizeof *out);
	out->source_files = -1;
	char what[160] = "repo";
	json_t *id = json_is_object(o) ? json_object_get(o, "repo") : NULL;
	if (json_is_string(id))
		snprintf(what, sizeof what, "repo %.140s", json_string_value(id));
	if (from_json(o, out, repo_fields, NFIELDS(repo_fields), what, err) < 0 ||
	    fl_repo_validate(out, err) < 0) {
		fl_repo_free(out);
		return -1;
	}
	return 0;
}

json_t *fl_json_parse(const char *json, size_t len, fl_err *err)
{
	json_error_t je;
	json_t *o = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
	if (!o)
		fl_seterr(err, "invalid JSON at line %d column %d: %s", je.line,
			  je.column, je.text);
	return o;
}

int fl_entry_from_json(const char *json, size_t len, fl_entry *out,
		       fl_err *err)
{
	memset(out, 0, sizeof *out);
	json_t *o = fl_json_parse(json, len, err);
	if (!o)
		return -1;
	int rc = fl_entry_from_jobj(o, out, true, err);
	json_decref(o);
	return rc;
}

int fl_repo_from_json(const char *json, size_t len, fl_repo *out, fl_err *err)
{
	memset(out, 0, sizeof *out);
	json_t *o = fl_json_parse(json, len, err);
	if (!o)
		return -1;
	int rc = fl_repo_from_jobj(o, out, err);
	json_decref(o);
	return rc;
}
