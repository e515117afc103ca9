/*
 * lang_harness.h — helpers for the per-language unit tests: run one
 * language's scanner over an in-memory file and look the sites up.
 */
#ifndef FL_TEST_LANG_HARNESS_H
#define FL_TEST_LANG_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scan/lang.h"
#include "scan/sites.h"
#include "../lang_kept.h"

/* One file collected into tree, as the core collects it, for a test that
 * scans apart: what the collect pass kept for the file's scan is freed. */
static inline void harness_collect(const fl_lang *L, void *tree, const fl_src *src)
{
	void *kept = fl_lang_collect_one(L, tree, src);
	if (kept)
		L->cache_free(kept);
}

/* Scan len bytes of text (NULs and junk allowed) as file `path` with
 * language L (collect pass included); the sites come back sorted. */
static inline fl_sites *harness_scan_len(const fl_lang *L, const char *path,
					 const char *text, size_t len)
{
	fl_src src = {.path = path, .text = text, .len = len};
	void *tree = L->tree_new ? L->tree_new() : NULL;
	/* as the core does it, with what the collect pass kept for the scan */
	void *cache = fl_lang_collect_one(L, tree, &src);
	fl_sites *s = fl_sites_new();
	L->scan(tree, &src, s);
	fl_sites_sort(s);
	if (cache) {
		/* the scan that reuses it finds the very same sites */
		fl_sites *k = scan_with_kept(L, tree, &src, cache);
		assert_int_equal(k->n, s->n);
		for (size_t i = 0; i < s->n; i++) {
			assert_int_equal(k->v[i].line, s->v[i].line);
			assert_int_equal(k->v[i].col, s->v[i].col);
			if (s->v[i].message)
				assert_string_equal(k->v[i].message, s->v[i].message);
		}
		fl_sites_free(k);
	}
	if (L->tree_free)
		L->tree_free(tree);
	return s;
}

/* A language that scans a file while it is read (collect_scan): the
 * sites of that early scan, which takes the tree for empty, when the
 * whole tree answers none to each lookup it logged (early_holds), are
 * the very sites of the scan (want); with a hint that has seen the
 * whole tree too.  Returns whether the early scan held (-1: no early
 * scan). */
static inline int harness_check_early(const fl_lang *L, const void *tree, const fl_src *src,
				      const fl_sites *want)
{
	if (!L->collect_scan)
		return -1;
	int held = -1;
	for (int with_hint = 0; with_hint < 2; with_hint++) {
		void *hint = with_hint && L->hint_new ? L->hint_new() : NULL;
		if (with_hint && !hint)
			break;
		void *part = L->tree_new();
		fl_sites *e = fl_sites_new();
		void *log = L->collect_scan(part, src, e, hint);
		if (log && L->early_holds(tree, log)) {
			fl_sites_sort(e);
			assert_int_equal(e->n, want->n);
			for (size_t i = 0; i < e->n; i++) {
				assert_int_equal(e->v[i].line, want->v[i].line);
				assert_int_equal(e->v[i].col, want->v[i].col);
				if (want->v[i].message)
					assert_string_equal(e->v[i].message, want->v[i].message);
				else
					assert_null(e->v[i].message);
			}
			if (!with_hint)
				held = 1;
		} else if (!with_hint) {
			held = 0;
		}
		if (log)
			L->early_free(log);
		fl_sites_free(e);
		L->tree_free(part);
		if (hint)
			L->hint_free(hint);
	}
	return held;
}

/* Scan files[which] with the per-tree state of all n files, as the core
 * builds it: each file collected into its own part (when the language
 * merges parts), folded in file order; the sites come back sorted. */
static inline fl_sites *harness_scan_tree(const fl_lang *L, const fl_src *files,
					  size_t n, size_t which)
{
	void *tree = L->tree_new ? L->tree_new() : NULL;
	for (size_t i = 0; i < n && L->collect; i++) {
		if (L->tree_merge) {
			void *part = L->tree_new();
			L->collect(part, &files[i]);
			L->tree_merge(tree, part);
			L->tree_free(part);
		} else {
			L->collect(tree, &files[i]);
		}
	}
	fl_sites *s = fl_sites_new();
	L->scan(tree, &files[which], s);
	fl_sites_sort(s);
	harness_check_early(L, tree, &files[which], s);
	if (L->tree_free)
		L->tree_free(tree);
	return s;
}

/* Scan text as file `path` with language L (collect pass included). */
static inline fl_sites *harness_scan(const fl_lang *L, const char *path,
				     const char *text)
{
	return harness_scan_len(L, path, text, strlen(text));
}

/* Robustness: scan len bytes and drop the sites (the scan must neither
 * crash nor hang; sanitizers check the rest). */
static inline void harness_scan_bytes(const fl_lang *L, const char *path,
				      const char *buf, size_t len)
{
	fl_sites_free(harness_scan_len(L, path, buf, len));
}

/* buf[i] = unit[i % strlen(unit)] for i in [from, to). */
static inline void harness_fill(char *buf, size_t from, size_t to,
				const char *unit)
{
	size_t l = strlen(unit);
	for (size_t i = from; i < to; i++)
		buf[i] = unit[i % l];
}

/* A malloc'd n-byte line repeating unit, NUL-terminated, with 64 spare
 * bytes (caller frees). */
static inline char *harness_repeat(const char *unit, size_t n)
{
	char *big = malloc(n + 64);
	assert_non_null(big);
	harness_fill(big, 0, n, unit);
	big[n] = '\0';
	return big;
}

/* Write prefix, depth brackets cycling through openers, inner, their
 * closers in reverse and suffix into buf (NUL-terminated: room for
 * 2 * depth plus the strings); returns the length. */
static inline size_t harness_nest(char *buf, const char *prefix,
				  const char *openers, size_t depth,
				  const char *inner, const char *suffix)
{
	size_t k = strlen(prefix), ol = strlen(openers);
	memcpy(buf, prefix, k);
	for (size_t i = 0; i < depth; i++)
		buf[k++] = openers[i % ol];
	memcpy(buf + k, inner, strlen(inner));
	k += strlen(inner);
	for (size_t i = depth; i-- > 0;) {
		char o = openers[i % ol];
		buf[k++] = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : o;
	}
	memcpy(buf + k, suffix, strlen(suffix));
	k += strlen(suffix);
	buf[k] = '\0';
	return k;
}

/* Robustness: scan each string of a NULL-terminated list. */
static inline void harness_scan_each(const fl_lang *L, const char *path,
				     const char *const *texts)
{
	for (const char *const *u = texts; *u; u++)
		harness_scan_bytes(L, path, *u, strlen(*u));
}

/* The stress battery of a brace language: a 1 MB line repeating
 * line_unit (at least min_sites sites), 10,000 nested brackets around
 * deep, 10,000 unclosed "if(", and a 1 MB chain of unclosed chain_unit
 * calls; none may crash or hang. */
static inline void harness_stress(const fl_lang *L, const char *path,
				  const char *line_unit, size_t min_sites,
				  const char *deep, const char *chain_unit)
{
	size_t n = 1 << 20;
	char *big = harness_repeat(line_unit, n);
	fl_sites *s = harness_scan(L, path, big);
	assert_true(s->n >= min_sites);
	fl_sites_free(s);
	size_t d = 10000;
	char *nest = malloc(4 * d + strlen(deep) + 64);
	assert_non_null(nest);
	harness_nest(nest, "", "({[(", d, deep, "");
	fl_sites_free(harness_scan(L, path, nest));
	harness_fill(nest, 0, 3 * d, "if(");
	nest[3 * d] = '\0';
	fl_sites_free(harness_scan(L, path, nest));
	free(nest);
	size_t ul = strlen(chain_unit);
	harness_fill(big, 0, n - n % ul, chain_unit);
	fl_sites_free(harness_scan(L, path, big));
	free(big);
}

/* got equals want, both NULL included. */
static inline void harness_expect_str(const char *got, const char *want)
{
	if (!want) {
		if (got)
			fail_msg("expected NULL, got <%s>", got);
		return;
	}
	if (!got)
		fail_msg("expected <%s>, got NULL", want);
	assert_string_equal(got, want);
}

/* The first site whose message equals msg, or NULL. */
static inline const fl_site *harness_find(const fl_sites *s, const char *msg)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].message && strcmp(s->v[i].message, msg) == 0)
			return &s->v[i];
	return NULL;
}

/* The first site at line, or NULL. */
static inline const fl_site *harness_find_line(const fl_sites *s, int line)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].line == line)
			return &s->v[i];
	return NULL;
}

/* The first site at line ln, which must have message msg (EXPECT_SITE
 * finds a message's first site: one text at several lines). */
static inline const fl_site *harness_expect_at(const fl_sites *s, int ln, const char *msg)
{
	const fl_site *x = harness_find_line(s, ln);
	assert_non_null(x);
	harness_expect_str(x->message, msg);
	return x;
}

/* Print all sites (for debugging a failing test). */
static inline void harness_dump(const fl_sites *s)
{
	for (size_t i = 0; i < s->n; i++)
		fprintf(stderr, "  %d:%d [%s/%s] cls=%s code=%s http=%d fn=%s guard=%s idiom=%s msg=<%s>\n",
			s->v[i].line, s->v[i].col, s->v[i].type,
			s->v[i].severity, s->v[i].cls ? s->v[i].cls : "-",
			s->v[i].code ? s->v[i].code : "-", s->v[i].http,
			s->v[i].function ? s->v[i].function : "-",
			s->v[i].guard ? s->v[i].guard : "-",
			s->v[i].idiom ? s->v[i].idiom : "-",
			s->v[i].message ? s->v[i].message : "(null)");
}

/* Assert a site with this message exists at line, of the given type, and
 * return it for further checks. */
static inline const fl_site *harness_expect(const fl_sites *sites,
					    const char *msg, int line,
					    const char *type)
{
	const fl_site *s = harness_find(sites, msg);
	if (!s) {
		harness_dump(sites);
		fail_msg("no site with message <%s>", msg);
		return NULL;
	}
	if (s->line != line || strcmp(s->type, type) != 0) {
		harness_dump(sites);
		fail_msg("site <%s>: line %d type %s, expected line %d type %s",
			 msg, s->line, s->type, line, type);
	}
	return s;
}
#define EXPECT_SITE(sites, msg, ln, typ) harness_expect((sites), (msg), (ln), (typ))

/* Assert that the sites of file `path` are none (dumping them if not),
 * then free them. */
static inline void harness_expect_none(fl_sites *sites, const char *path)
{
	if (sites->n) {
		harness_dump(sites);
		fail_msg("expected no site in %s", path);
	}
	fl_sites_free(sites);
}

#endif
