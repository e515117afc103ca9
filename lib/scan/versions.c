/*
 * versions.c — tag names read as versions, their order, the default
 * release tags, and runs of versions (see versions.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../strmap.h"
#include "../util.h"
#include "versions.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

void fl_version_parse(const char *name, fl_version_name *out)
{
	memset(out, 0, sizeof *out);
	const char *p = name;
	while (*p && !is_digit(*p))
		p++;
	out->prefix_len = (size_t)(p - name);
	if (!*p) {
		out->suffix = p;
		return;
	}
	for (;;) {
		long long v = 0;
		while (is_digit(*p)) {
			if (v < 100000000000000ll)
				v = v * 10 + (*p - '0');
			p++;
		}
		if (out->nnums < FL_VERSION_NUMS)
			out->nums[out->nnums++] = v;
		if (*p == '.' && is_digit(p[1])) {
			p++;
			continue;
		}
		break;
	}
	out->suffix = p;
}

bool fl_version_is_release(const char *name)
{
	fl_version_name v;
	fl_version_parse(name, &v);
	return v.nnums > 0 && !*v.suffix;
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool fl_version_suffix_is_pre(const char *s)
{
	static const char *const words[] = {
		"rc", "alpha", "beta", "pre", "dev", "preview", "snapshot",
		"nightly", "canary", "next", "a", "b", "m", NULL,
	};
	/* each run of letters of the suffix, as a word */
	for (const char *p = s; *p;) {
		if (!is_alpha(*p)) {
			p++;
			continue;
		}
		const char *w = p;
		while (is_alpha(*p))
			p++;
		size_t n = (size_t)(p - w);
		for (int k = 0; words[k]; k++) {
			if (strlen(words[k]) != n || strncasecmp(w, words[k], n) != 0)
				continue;
			/* a one-letter word only before a number: "a1", "b2" */
			if (n == 1 && !is_digit(*p) && !(*p == '.' && is_digit(p[1])))
				continue;
			return true;
		}
	}
	return false;
}

/* strcmp with runs of digits compared as numbers */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (is_digit(*a) && is_digit(*b)) {
			while (*a == '0' && is_digit(a[1]))
				a++;
			while (*b == '0' && is_digit(b[1]))
				b++;
			size_t na = 0, nb = 0;
			while (is_digit(a[na]))
				na++;
			while (is_digit(b[nb]))
				nb++;
			if (na != nb)
				return na < nb ? -1 : 1;
			int c = strncmp(a, b, na);
			if (c)
				return c;
			a += na;
			b += nb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

int fl_version_cmp(const char *a, const char *b)
{
	fl_version_name va, vb;
	fl_version_parse(a, &va);
	fl_version_parse(b, &vb);
	if (!va.nnums || !vb.nnums) {
		if (va.nnums != vb.nnums)
			return va.nnums ? -1 : 1;
		int c = strcmp(a, b);
		return c < 0 ? -1 : c > 0;
	}
	int n = va.nnums > vb.nnums ? va.nnums : vb.nnums;
	for (int i = 0; i < n; i++) {
		long long x = i < va.nnums ? va.nums[i] : 0, y = i < vb.nnums ? vb.nums[i] : 0;
		if (x != y)
			return x < y ? -1 : 1;
	}
	if (va.nnums != vb.nnums)
		return va.nnums < vb.nnums ? -1 : 1;
	/* the same numbers: pre-release < release < another suffix */
	int ra = !*va.suffix ? 1 : fl_version_suffix_is_pre(va.suffix) ? 0 : 2;
	int rb = !*vb.suffix ? 1 : fl_version_suffix_is_pre(vb.suffix) ? 0 : 2;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	int c = natural_cmp(va.suffix, vb.suffix);
	if (c)
		return c;
	c = strcmp(a, b); /* the prefixes */
	return c < 0 ? -1 : c > 0;
}

size_t fl_version_pick_releases(const char *const *names, size_t n, bool *keep)
{
	fl_strmap count = {0};
	size_t *tally = fl_xcalloc(n ? n : 1, sizeof *tally);
	char **prefixes = fl_xcalloc(n ? n : 1, sizeof *prefixes);
	size_t nprefixes = 0;
	for (size_t i = 0; i < n; i++) {
		keep[i] = false;
		if (!fl_version_is_release(names[i]))
			continue;
		fl_version_name v;
		fl_version_parse(names[i], &v);
		char *p = fl_xstrndup(names[i], v.prefix_len);
		size_t k;
		if (!fl_strmap_get(&count, p, &k)) {
			k = nprefixes;
			prefixes[nprefixes++] = p;
			fl_strmap_put(&count, p, k);
		} else {
			free(p);
		}
		tally[k]++;
	}
	size_t best = SIZE_MAX;
	for (size_t k = 0; k < nprefixes; k++) {
		if (best == SIZE_MAX || tally[k] > tally[best] ||
		    (tally[k] == tally[best] &&
		     (strlen(prefixes[k]) < strlen(prefixes[best]) ||
		      (strlen(prefixes[k]) == strlen(prefixes[best]) &&
		       strcmp(prefixes[k], prefixes[best]) < 0))))
			best = k;
	}
	size_t kept = 0;
	if (best != SIZE_MAX) {
		size_t bl = strlen(prefixes[best]);
		for (size_t i = 0; i < n; i++) {
			if (!fl_version_is_release(names[i]))
				continue;
			fl_version_name v;
			fl_version_parse(names[i], &v);
			if (v.prefix_len == bl && strncmp(names[i], prefixes[best], bl) == 0) {
				keep[i] = true;
				kept++;
			}
		}
	}
	for (size_t k = 0; k < nprefixes; k++)
		free(prefixes[k]);
	free(prefixes);
	free(tally);
	fl_strmap_free(&count);
	return kept;
}

void fl_vruns_add(fl_vruns *r, int seq, uint32_t blob, int line)
{
	if (r->n) {
		fl_vrun *last = &r->v[r->n - 1];
		if (last->last == seq - 1 && last->blob == blob && last->line == line) {
			last->last = seq;
			return;
		}
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 2;
		r->v = fl_xrealloc(r->v, r->cap * sizeof *r->v);
	}
	r->v[r->n++] = (fl_vrun){seq, seq, line, blob};
}

void fl_vruns_free(fl_vruns *r)
{
	free(r->v);
	memset(r, 0, sizeof *r);
}
