/*
 * sites.c — the site collector: copies every string a language hands to
 * fl_site_add() so that the language can free its tokens right away.
 */
#include "sites.h"

#include <stdlib.h>
#include <string.h>

#include "../util.h"

fl_sites *fl_sites_new(void)
{
	return fl_xcalloc(1, sizeof(fl_sites));
}

static void site_free(fl_site *s)
{
	free((char *)s->message);
	free((char *)s->code);
	free((char *)s->cls);
	free((char *)s->type);
	free((char *)s->severity);
	free((char *)s->function);
	free((char *)s->guard);
	free((char *)s->idiom);
	free((char *)s->unit);
}

void fl_sites_clear(fl_sites *s)
{
	for (size_t i = 0; i < s->n; i++)
		site_free(&s->v[i]);
	s->n = 0;
}

void fl_sites_free(fl_sites *s)
{
	if (!s)
		return;
	fl_sites_clear(s);
	free(s->v);
	free(s);
}

void fl_site_add(fl_sites *out, const fl_site *site)
{
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 16;
		out->v = fl_xrealloc(out->v, out->cap * sizeof *out->v);
	}
	fl_site *d = &out->v[out->n++];
	d->line = site->line > 0 ? site->line : 1;
	d->col = site->col > 0 ? site->col : 1;
	d->message = fl_xstrdup(site->message);
	d->code = fl_xstrdup(site->code);
	d->cls = fl_xstrdup(site->cls);
	d->type = fl_xstrdup(site->type ? site->type : FL_T_EXCEPTION);
	d->severity = fl_xstrdup(site->severity ? site->severity : FL_S_ERROR);
	d->http = site->http;
	d->function = fl_xstrdup(site->function);
	d->guard = fl_xstrdup(site->guard);
	d->arm = site->guard && site->arm;
	d->idiom = fl_xstrdup(site->idiom);
	d->unit = fl_xstrdup(site->unit);
}

static int cmp_site(const void *a, const void *b)
{
	const fl_site *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return 0;
}

static bool same_text(const fl_site *a, const fl_site *b)
{
	return a->message && b->message && strcmp(a->message, b->message) == 0 &&
	       (a->code ? b->code && strcmp(a->code, b->code) == 0 : !b->code);
}

/* A text both defined and raised in one file (a class's message and a
 * `raise X(...)` that gives it) makes one record, whose line is its first
 * site's: the raise is put before the definition (lookup.md: raise before
 * definition), which stays one of the record's sites. */
static void defs_after_raises(fl_sites *s)
{
	size_t i = 0;
	while (i < s->n) {
		fl_site *d = &s->v[i];
		size_t j = i + 1;
		if (fl_idiom_kind(d->idiom) == FL_IDIOM_DEF)
			while (j < s->n && (fl_idiom_kind(s->v[j].idiom) == FL_IDIOM_DEF ||
					    !same_text(d, &s->v[j])))
				j++;
		if (fl_idiom_kind(d->idiom) != FL_IDIOM_DEF || j >= s->n) {
			i++;
			continue;
		}
		fl_site tmp = *d;
		memmove(&s->v[i], &s->v[i + 1], (j - i) * sizeof tmp);
		s->v[j] = tmp; /* the site now at i is looked at next */
	}
}

void fl_sites_sort(fl_sites *s)
{
	/* insertion sort keeps equal keys in order and sites are nearly
	 * sorted already */
	for (size_t i = 1; i < s->n; i++) {
		fl_site tmp = s->v[i];
		size_t j = i;
		while (j > 0 && cmp_site(&s->v[j - 1], &tmp) > 0) {
			s->v[j] = s->v[j - 1];
			j--;
		}
		s->v[j] = tmp;
	}
	defs_after_raises(s);
}
