/*
 * sites.c — the site collector: copies every string a language hands to
 * fl_site_add() so that the language can free its tokens right away, and
 * gives a print that runs only in a debug mode the severity of a notice.
 */
#define _GNU_SOURCE /* strcasestr */
#include "sites.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../strmap.h"
#include "../util.h"
#include "lang.h"
#include "lex.h"

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

/* Does guard g hold only in a debug mode: one of its terms, all of which
 * must hold (no "||", no " or "), a name that says debug (`debugHash`,
 * `cache.DebugTest`, `g.fDebug & DEBUG_FULLTRACE`,
 * `logger.isDebugEnabled()`), not negated nor compared with a false
 * value? */
static bool debug_only(const char *g)
{
	if (strstr(g, "||") || strstr(g, " or "))
		return false;
	for (const char *p = g; (p = strcasestr(p, "debug")) != NULL; p += 5) {
		/* a word of the name: `debugHash`, `fDebug`, `is_debug`, not
		 * the `debug` of `isXdebugActive` */
		if (p > g && isalpha((unsigned char)p[-1]) &&
		    !(islower((unsigned char)p[-1]) && isupper((unsigned char)p[0])))
			continue;
		/* the start of the name holding it */
		const char *b = p;
		while (b > g && (isalnum((unsigned char)b[-1]) || b[-1] == '_' || b[-1] == '.'))
			b--;
		while (b > g && (b[-1] == ' ' || b[-1] == '('))
			b--;
		if (b > g && b[-1] == '!')
			continue;
		if (b - g >= 4 && strncmp(b - 4, "not ", 4) == 0)
			continue;
		/* nor compared with a false value: `debug == 0`, `debug is
		 * False`, `debugMode != true` */
		const char *e = p + 5;
		while (isalnum((unsigned char)*e) || *e == '_' || *e == '.' || *e == '(' || *e == ')')
			e++;
		while (*e == ' ')
			e++;
		static const char *const falsy[] = {"== 0", "== false", "== False", "== nil", "== None",
						    "== null", "=== false", "is False", "is None",
						    "is not True", "!= true", "!== true", NULL};
		bool off = false;
		for (const char *const *f = falsy; *f && !off; f++)
			off = strncmp(e, *f, strlen(*f)) == 0;
		if (off)
			continue;
		return true;
	}
	return false;
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
	/* records.md: trailing newlines and spaces removed (PHP's `'...' .
	 * PHP_EOL . PHP_EOL`, make's usage lines ending in "\n") */
	char *m = fl_xstrdup(site->message);
	if (m)
		fl_msg_trim(m);
	d->message = m;
	d->code = fl_xstrdup(site->code);
	d->cls = fl_xstrdup(site->cls);
	d->type = fl_xstrdup(site->type ? site->type : FL_T_EXCEPTION);
	d->severity = fl_xstrdup(site->severity ? site->severity : FL_S_ERROR);
	/* a print only a debug mode makes (`if debugHash { fmt.Fprintf(os.Stderr,
	 * "HASH[%s]\n", ...) }`): a diagnostic trace, not an error */
	if (site->type && strcmp(site->type, FL_T_CONSOLE) == 0 && site->guard && !site->arm &&
	    strcmp(d->severity, FL_S_CRITICAL) != 0 && debug_only(site->guard) &&
	    !(site->message && (strstr(site->message, "WARNING") || strstr(site->message, "ERROR")))) {
		free((char *)d->severity);
		d->severity = fl_xstrdup(FL_S_INFO);
	}
	d->http = site->http;
	d->function = fl_xstrdup(site->function);
	d->guard = fl_xstrdup(site->guard);
	d->arm = site->guard && site->arm;
	d->early = site->guard && site->early;
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

/* The key of a site's text for defs_after_raises: its code and message. */
static char *text_key(const fl_site *x)
{
	return fl_xasprintf("%s\x1f%s", x->code ? x->code : "", x->message);
}

/* A text both defined and raised in one file (a class's message and a
 * `raise X(...)` that gives it) makes one record, whose line is its first
 * site's: a definition is put after the last raise of its text (lookup.md:
 * raise before definition), and stays one of the record's sites.  Linear:
 * the raises' texts in a map, the moved definitions chained to the raise
 * they follow. */
static void defs_after_raises(fl_sites *s)
{
	size_t n = s->n, ndef = 0;
	if (n < 2)
		return;
	bool *def = fl_xcalloc(n, sizeof *def);
	for (size_t i = 0; i < n; i++)
		ndef += def[i] = s->v[i].message && fl_idiom_kind(s->v[i].idiom) == FL_IDIOM_DEF;
	if (!ndef || ndef == n) {
		free(def);
		return;
	}
	fl_strmap last = {0}; /* text -> the index of its last raise */
	for (size_t i = 0; i < n; i++)
		if (!def[i] && s->v[i].message) {
			char *k = text_key(&s->v[i]);
			fl_strmap_put(&last, k, i);
			free(k);
		}
	size_t *head = fl_xmalloc(n * sizeof *head), *next = fl_xmalloc(n * sizeof *next);
	for (size_t i = 0; i < n; i++)
		head[i] = next[i] = SIZE_MAX;
	bool moved = false;
	for (size_t i = n; i-- > 0;) {
		size_t j;
		char *k = def[i] ? text_key(&s->v[i]) : NULL;
		if (k && fl_strmap_get(&last, k, &j) && j > i) {
			next[i] = head[j]; /* chained in the order of the file */
			head[j] = i;
			moved = true;
		} else {
			def[i] = false; /* stays where it is */
		}
		free(k);
	}
	if (moved) {
		fl_site *v = fl_xmalloc(n * sizeof *v);
		size_t o = 0;
		for (size_t i = 0; i < n; i++) {
			if (def[i])
				continue; /* placed after its raise */
			v[o++] = s->v[i];
			for (size_t d = head[i]; d != SIZE_MAX; d = next[d])
				v[o++] = s->v[d];
		}
		memcpy(s->v, v, n * sizeof *v);
		free(v);
	}
	fl_strmap_free(&last);
	free(head);
	free(next);
	free(def);
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
