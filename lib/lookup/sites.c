/*
 * sites.c — the other lines that raise an answer's record.  The spec folds
 * a text raised at several lines of one file into one id; the index keeps
 * those lines (idx_entry's sites), each answer lists them, and when a
 * frame of the pasted text names one of them ("main.c:42", "api.py\",
 * line 42", "Foo.java:42)", "In Foo.php line 42:"), the answer points
 * there and says why.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lookup_internal.h"
#include "util.h"

/* Does text name line `line` of file path in a frame? */
static bool frame_names(const char *text, size_t len, const char *path, int line)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t bl = strlen(base);
	if (!bl)
		return false;
	const char *end = text + len;
	for (const char *p = text; (p = memmem(p, (size_t)(end - p), base, bl)); p += bl) {
		if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue; /* inside a longer name */
		const char *q = p + bl;
		if (q < end && *q == ':')
			q++;
		else if ((size_t)(end - q) > 8 && strncmp(q, "\", line ", 8) == 0)
			q += 8;
		else if ((size_t)(end - q) > 6 && strncmp(q, " line ", 6) == 0)
			q += 6; /* Symfony's "In Foo.php line 42:" */
		else
			continue;
		int n = 0;
		const char *d = q;
		while (d < end && isdigit((unsigned char)*d) && n < 100000000)
			n = n * 10 + (*d++ - '0');
		if (d > q && n == line)
			return true;
	}
	return false;
}

void fl_lk_sites(const fl_index *ix, const idx_entry *x, const char *text, size_t len,
		 fl_match *m)
{
	if (!x->sites)
		return;
	const char *s = ix_str(ix, x->sites);
	while (*s) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char *v = fl_xstrndup(s, n);
		fl_strv_push(&m->sites, v);
		free(v);
		s += n + (e != NULL);
	}
	if (!text || !m->sites.n || frame_names(text, len, m->file_path, m->line))
		return;
	size_t pl = strlen(m->file_path);
	for (size_t k = 0; k < m->sites.n; k++) {
		const char *sv = m->sites.v[k];
		if (strncmp(sv, m->file_path, pl) != 0 || sv[pl] != ':')
			continue;
		int line = atoi(sv + pl + 1);
		if (!frame_names(text, len, m->file_path, line))
			continue;
		/* the record's own line joins the others */
		free(m->sites.v[k]);
		m->sites.v[k] = fl_xasprintf("%s:%d", m->file_path, m->line);
		m->line = line;
		char buf[128];
		snprintf(buf, sizeof buf,
			 "a frame of the text names line %d of its file, one of the lines that raise it",
			 line);
		fl_strv_push(&m->evidence, buf);
		return;
	}
}
