/*
 * sites.c — the other lines that raise an answer's record.  The spec folds
 * a text raised at several lines of one file into one id; the index keeps
 * those lines (idx_entry's sites), each answer lists them, and when a
 * frame of the pasted text names one of them ("main.c:42", "api.py\",
 * line 42", "Foo.java:42)", "In Foo.php line 42:"), or names the function
 * of one (a bundled program's Node stack, `at getFormat (.../rollup.js:
 * 25323:20)`), the answer points there and says why.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lookup_internal.h"
#include "util.h"

/* Does the path the text names ending at p (its file name, a frame's
 * "/usr/lib/python3.11/json/decoder.py" or a JVM frame's bare
 * "Decoder.java") stand for the record's path? */
static bool names_path(const char *text, const char *p, size_t bl, const char *path)
{
	const char *b = p;
	while (b > text && !strchr(" \t\n\"'(", b[-1]))
		b--;
	if (b == p)
		return true; /* the file's name alone */
	char seen[512];
	size_t n = (size_t)(p - b) + bl;
	if (n >= sizeof seen)
		return false;
	memcpy(seen, b, n);
	seen[n] = '\0';
	return fl_lk_path_agreement(path, seen) > 0;
}

/* Where text first names line `line` of file path in a frame (the offset
 * of the mention), or a line up to `slack` after it (a statement over
 * several lines: the runtime names the line of the call in it), or
 * SIZE_MAX.  A frame naming a file of that name elsewhere (another
 * package's decoder.py) is none. */
static size_t frame_at(const char *text, size_t len, const char *path, int line, int slack)
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
		if (d > q && n >= line && n <= line + slack && names_path(text, p, bl, path))
			return (size_t)(p - text);
	}
	return SIZE_MAX;
}

/* ---- the words of a pasted command against each line's context ---- */

#define CMD_WORDS 32

/* The lower-case parts of s at least 3 characters long, cut at every
 * byte that is not a letter or digit and before a capital that follows
 * a lower-case letter ("list_cache_items", "CreateWorkFile"), into
 * w[*n..] (at most max). */
static void parts_of(const char *s, size_t len, char w[][32], size_t *n, size_t max)
{
	size_t i = 0;
	while (i < len && *n < max) {
		while (i < len && !isalnum((unsigned char)s[i]))
			i++;
		size_t b = i;
		while (i < len && isalnum((unsigned char)s[i]) &&
		       !(i > b && isupper((unsigned char)s[i]) && islower((unsigned char)s[i - 1])))
			i++;
		size_t pl = i - b;
		if (pl >= 3 && pl < 32) {
			for (size_t k = 0; k < pl; k++)
				w[*n][k] = (char)tolower((unsigned char)s[b + k]);
			w[*n][pl] = '\0';
			(*n)++;
		}
	}
}

/* The words of a pasted command that may name the code that ran: those
 * after each program's name (subcommands, flags without their dashes and
 * values, the names inside a quoted program text: 'getpath(1)'), not
 * paths or file names, nor the words of a `cd` or `cp` before it. */
static size_t command_words(const char *cmd, char w[][32], size_t max)
{
	size_t n = 0;
	bool prog = true, skip = false;
	const char *p = cmd;
	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *b = p;
		char quote = 0;
		while (*p && (quote || (*p != ' ' && *p != '\t'))) {
			if (quote && *p == quote)
				quote = 0;
			else if (!quote && (*p == '\'' || *p == '"'))
				quote = *p;
			p++;
		}
		size_t wl = (size_t)(p - b);
		if (!wl)
			break;
		if (strchr("|;&", b[0])) { /* the next command */
			prog = true;
			skip = false;
			continue;
		}
		if (skip || b[0] == '>' || b[0] == '<')
			continue;
		if (prog) {
			/* VAR=value and sudo, env...: the program follows */
			if ((memchr(b, '=', wl) && isalpha((unsigned char)b[0])) ||
			    fl_lk_wrapper_prog(b, wl))
				continue;
			prog = false;
			skip = fl_lk_setup_prog(b, wl);
			continue;
		}
		/* a flag's name, a dot-command's, a quoted text's names */
		while (wl && (*b == '-' || *b == '.')) {
			b++;
			wl--;
		}
		const char *eq = memchr(b, '=', wl);
		if (eq && b[0] != '\'' && b[0] != '"')
			wl = (size_t)(eq - b);
		bool quoted = wl && (b[0] == '\'' || b[0] == '"');
		if (!quoted && (memchr(b, '/', wl) || memchr(b, '.', wl)))
			continue; /* a path or a file */
		parts_of(b, wl, w, &n, max);
	}
	return n;
}

/* How many of the command's words name a part of a line's function, or
 * a string its guard compares with ("rules" the function
 * validate_rule_conf, "list" list_cache_items, "read" a guard's
 * strncmp(azArg[0], "read", n)). */
static int context_score(char cw[][32], size_t ncw, const char *ctx, size_t len)
{
	char fw[CMD_WORDS][32];
	size_t nf = 0;
	const char *tab = memchr(ctx, '\t', len);
	size_t fl = tab ? (size_t)(tab - ctx) : len;
	parts_of(ctx, fl, fw, &nf, CMD_WORDS);
	/* the guard's quoted strings, and the parts of its names that no
	 * guard is without (`opts.changed_before` names --changed-before) */
	if (tab)
		for (const char *q = tab + 1, *e = ctx + len; q < e; q++) {
			if (*q == '"' || *q == '\'') {
				const char *c = memchr(q + 1, *q, (size_t)(e - q - 1));
				if (!c)
					break;
				parts_of(q + 1, (size_t)(c - q - 1), fw, &nf, CMD_WORDS);
				q = c;
				continue;
			}
			if (!isalpha((unsigned char)*q) && *q != '_')
				continue;
			const char *c = q;
			while (c < e && (isalnum((unsigned char)*c) || *c == '_'))
				c++;
			static const char *const common[] = {"let", "some", "none", "self", "this", "err", "ref",
							      "null", "nil", "true", "false", "not", "and",
							      "len", "args", "argv", "opts", "options", NULL};
			size_t before = nf;
			parts_of(q, (size_t)(c - q), fw, &nf, CMD_WORDS);
			for (size_t k = before; k < nf;) {
				bool drop = false;
				for (const char *const *w = common; *w && !drop; w++)
					drop = strcmp(fw[k], *w) == 0;
				if (drop)
					memmove(fw[k], fw[--nf], sizeof fw[k]);
				else
					k++;
			}
			q = c - 1;
		}
	int score = 0;
	for (size_t i = 0; i < ncw; i++) {
		bool hit = false;
		for (size_t k = 0; k < nf && !hit; k++) {
			size_t a = strlen(cw[i]), b = strlen(fw[k]);
			size_t m = a < b ? a : b;
			/* equal, or one starts the other ("rule", "rules") */
			hit = a == b ? strcmp(cw[i], fw[k]) == 0
				     : m >= 4 && strncmp(cw[i], fw[k], m) == 0;
		}
		/* a word said twice counts once */
		for (size_t j = 0; j < i && hit; j++)
			hit = strcmp(cw[j], cw[i]) != 0;
		score += hit;
	}
	return score;
}

/* The last part of a line's function, its context up to the tab
 * ("PalletStack.bind": "bind"), in [*b, *b + *n). */
static void ctx_func(const char *ctx, size_t len, const char **b, size_t *n)
{
	const char *tab = memchr(ctx, '\t', len);
	size_t fl = tab ? (size_t)(tab - ctx) : len;
	const char *dot = memrchr(ctx, '.', fl);
	*b = dot ? dot + 1 : ctx;
	*n = fl - (size_t)(*b - ctx);
}

int fl_lk_func_site(const fl_index *ix, const idx_entry *x, const fl_query *q, const char **fn)
{
	if (!q || !q->funcs.n || !x->sites)
		return -1;
	size_t nf = q->funcs.n < FL_FUNC_FRAMES ? q->funcs.n : FL_FUNC_FRAMES;
	int best = -1;
	for (const char *s = ix_str(ix, x->sites); *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		const char *tab = memchr(s, '\t', len);
		if (tab) {
			const char *b;
			size_t n;
			ctx_func(tab + 1, len - (size_t)(tab + 1 - s), &b, &n);
			for (size_t k = 0; k < nf && (best < 0 || (int)k < best); k++)
				if (n && strlen(q->funcs.v[k]) == n && memcmp(q->funcs.v[k], b, n) == 0) {
					best = (int)k;
					*fn = q->funcs.v[k];
				}
		}
		s += len + (e != NULL);
	}
	return best;
}

/* Does a Node frame of text name function [f, f+n) ("at getFormat (",
 * "at Object.getFormat (")?  Its offset, or SIZE_MAX. */
static size_t frame_func_at(const char *text, size_t len, const char *f, size_t n)
{
	if (n < 4)
		return SIZE_MAX;
	const char *end = text + len;
	for (const char *p = text; (p = memmem(p, (size_t)(end - p), f, n)); p += n) {
		if (p == text || (p[-1] != ' ' && p[-1] != '.') || (size_t)(end - p) < n + 2 ||
		    p[n] != ' ' || p[n + 1] != '(')
			continue;
		const char *ls = p;
		while (ls > text && ls[-1] != '\n')
			ls--;
		while (ls < p && (*ls == ' ' || *ls == '\t'))
			ls++;
		if ((size_t)(p - ls) >= 3 && strncmp(ls, "at ", 3) == 0)
			return (size_t)(p - text);
	}
	return SIZE_MAX;
}

size_t fl_lk_site_loc(const char *s, size_t n, const char **ctx)
{
	const char *tab = memchr(s, '\t', n);
	*ctx = tab ? tab + 1 : NULL;
	return tab ? (size_t)(tab - s) : n;
}

/* m answers at line `line`, its other line k: the record's own line
 * joins the others, and the evidence says why ("WHY line N of its
 * file, ..."). */
static void point_at(fl_match *m, size_t k, int line, const char *why)
{
	free(m->sites.v[k]);
	m->sites.v[k] = fl_xasprintf("%s:%d", m->file_path, m->line);
	m->line = line;
	char buf[200];
	snprintf(buf, sizeof buf, "%s line %d of its file, one of the lines that raise it", why,
		 line);
	fl_strv_push(&m->evidence, buf);
}

/* One of a record's other lines: "path:line", and its context (NULL
 * when none). */
struct other_line {
	char *loc;
	const char *ctx;
	size_t ctxl;
};

/* The record's other lines from the index's list s (index.c's read_sites,
 * in the order of path, line and column) into *out: a line equal to the
 * record's own (two sites on one line: a message and the call that
 * raises it) or to the one before is left out, so an answer never lists
 * its own line or one line twice. */
static size_t other_lines(const char *s, const fl_match *m, struct other_line **out)
{
	size_t n = 0, cap = 0;
	struct other_line *o = NULL;
	char *own = fl_xasprintf("%s:%d", m->file_path, m->line);
	size_t ownl = strlen(own), prevl = 0;
	while (*s) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		const char *ctx;
		size_t loc = fl_lk_site_loc(s, len, &ctx);
		bool seen = (loc == ownl && memcmp(s, own, loc) == 0) ||
			    (n && loc == prevl && memcmp(o[n - 1].loc, s, loc) == 0);
		if (!seen) {
			prevl = loc;
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				o = fl_xrealloc(o, cap * sizeof *o);
			}
			o[n++] = (struct other_line){fl_xstrndup(s, loc), ctx,
						      ctx ? len - loc - 1 : 0};
		}
		s += len + (e != NULL);
	}
	free(own);
	*out = o;
	return n;
}

/* Which of m's lines the text points at: the line a frame names, else
 * the one line whose function or guard the pasted command's words name;
 * m answers there (point_at).  o: the other lines with their contexts,
 * as m->sites lists them (empty before fl_lk_sites). */
static void point(fl_match *m, const struct other_line *o, size_t no, const char *text,
		  size_t len, const char *command, const char *own, size_t ownl)
{
	/* of the lines the frames name, the innermost frame's: the first
	 * printed, or the last after Python's "most recent call last" */
	bool last = text && memmem(text, len, "most recent call last", 21) != NULL;
	size_t pl = strlen(m->file_path);
	/* the lines the frames name exactly, else a line a statement of
	 * several lines starts at */
	for (int slack = 0; text && slack <= 3; slack += 3) {
		size_t fbest = frame_at(text, len, m->file_path, m->line, slack), bk = SIZE_MAX;
		int bline = 0;
		for (size_t k = 0; k < no; k++) {
			const char *sv = m->sites.v[k];
			if (strncmp(sv, m->file_path, pl) != 0 || sv[pl] != ':')
				continue;
			int line = atoi(sv + pl + 1);
			size_t at = frame_at(text, len, m->file_path, line, slack);
			if (at == SIZE_MAX)
				continue;
			if (fbest == SIZE_MAX || (last ? at > fbest : at < fbest)) {
				fbest = at;
				bk = k;
				bline = line;
			}
		}
		if (bk != SIZE_MAX) {
			point_at(m, bk, bline, "a frame of the text names");
			return;
		}
		if (fbest != SIZE_MAX)
			return;
	}
	/* the innermost Node frame that names the function of one line
	 * (a bundled program's stack names no source file) */
	if (text && own) {
		const char *b;
		size_t n;
		ctx_func(own, ownl, &b, &n);
		size_t fbest = frame_func_at(text, len, b, n), bk = SIZE_MAX;
		int bline = 0;
		for (size_t k = 0; k < no; k++) {
			const char *sv = m->sites.v[k];
			if (!o[k].ctx || strncmp(sv, m->file_path, pl) != 0 || sv[pl] != ':')
				continue;
			ctx_func(o[k].ctx, o[k].ctxl, &b, &n);
			size_t at = frame_func_at(text, len, b, n);
			if (at != SIZE_MAX && (fbest == SIZE_MAX || at < fbest)) {
				fbest = at;
				bk = k;
				bline = atoi(sv + pl + 1);
			}
		}
		if (bk != SIZE_MAX) {
			point_at(m, bk, bline, "a frame of the text names the function of");
			return;
		}
		if (fbest != SIZE_MAX)
			return;
	}
	/* no frame: the pasted command's words against each line's
	 * function and guard ("pip3 cache info x": get_cache_info) */
	char cw[CMD_WORDS][32];
	size_t ncw = command && own ? command_words(command, cw, CMD_WORDS) : 0;
	if (!ncw)
		return;
	int best = context_score(cw, ncw, own, ownl), nbest = 0;
	size_t at = 0;
	for (size_t k = 0; k < no; k++) {
		int sc = o[k].ctx ? context_score(cw, ncw, o[k].ctx, o[k].ctxl) : 0;
		const char *sv = m->sites.v[k];
		bool same_file = strncmp(sv, m->file_path, pl) == 0 && sv[pl] == ':';
		if (same_file && sc > best) {
			best = sc;
			nbest = 1;
			at = k;
		} else if (same_file && sc == best && nbest) {
			nbest++;
		}
	}
	if (nbest != 1)
		return; /* the record's own line, or no one line better */
	point_at(m, at, atoi(m->sites.v[at] + pl + 1),
		 "the pasted command's words name the function of");
}

void fl_lk_sites(const fl_index *ix, const idx_entry *x, const char *text, size_t len,
		 const char *command, fl_match *m)
{
	if (!x->sites)
		return;
	const char *s = ix_str(ix, x->sites);
	/* its own line's context first (index.c's read_sites) */
	const char *own = NULL;
	size_t ownl = 0;
	if (*s == '\t') {
		const char *e = strchr(s, '\n');
		own = s + 1;
		ownl = e ? (size_t)(e - own) : strlen(own);
		s = e ? e + 1 : own + ownl;
	}
	struct other_line *o;
	size_t no = other_lines(s, m, &o);
	for (size_t k = 0; k < no; k++) {
		fl_strv_push(&m->sites, o[k].loc);
		free(o[k].loc);
	}
	if (no)
		point(m, o, no, text, len, command, own, ownl);
	free(o);
}
