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
#include <string.h>

#include <cmocka.h>

#include "scan/lang.h"
#include "scan/sites.h"

/* Scan text as file `path` with language L (collect pass included). */
static inline fl_sites *harness_scan(const fl_lang *L, const char *path,
				     const char *text)
{
	fl_src src = {.path = path, .text = text, .len = strlen(text)};
	void *tree = L->tree_new ? L->tree_new() : NULL;
	if (L->collect)
		L->collect(tree, &src);
	fl_sites *s = fl_sites_new();
	L->scan(tree, &src, s);
	fl_sites_sort(s);
	if (L->tree_free)
		L->tree_free(tree);
	return s;
}

/* The first site whose message equals msg, or NULL. */
static inline const fl_site *harness_find(const fl_sites *s, const char *msg)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].message && strcmp(s->v[i].message, msg) == 0)
			return &s->v[i];
	return NULL;
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

#endif
