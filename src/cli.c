/*
 * cli.c — option parsing, error printing and store opening shared by the
 * subcommands.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_check_base_url(const char *cmd, const char *url)
{
	if (strncmp(url, "http://", 7) == 0 || strncmp(url, "https://", 8) == 0)
		return 0;
	return cli_fail(EXIT_USAGE, "%s: --base-url must start with http:// or https://", cmd);
}

int cli_fail(int status, const char *fmt, ...)
{
	va_list ap;
	fputs("faultline: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/* ---- help ------------------------------------------------------------ */

#define HELP_WIDTH 79

/* text (n bytes) on f, words wrapped at HELP_WIDTH, every line indented
 * by indent columns (the first by first columns already printed). */
static void wrap(FILE *f, const char *text, size_t n, int indent, int col)
{
	const char *p = text, *e = text + n;
	bool first = true;
	while (p < e) {
		while (p < e && *p == ' ')
			p++;
		const char *w = p;
		while (p < e && *p != ' ')
			p++;
		int wl = (int)(p - w);
		if (!wl)
			break;
		if (!first && col + 1 + wl > HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(w, 1, (size_t)wl, f);
		col += wl;
		first = false;
	}
	fputc('\n', f);
}

/* paragraphs ("\n\n" between them); a line starting with two spaces is
 * printed as it is (a command, a table row) */
static void paragraphs(FILE *f, const char *text, int indent)
{
	const char *p = text;
	while (*p) {
		const char *end = strstr(p, "\n\n");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *q = p, *e = p + n;
		while (q < e) {
			const char *nl = memchr(q, '\n', (size_t)(e - q));
			const char *le = nl ? nl : e;
			if (q[0] == ' ' && q + 1 < le && q[1] == ' ') {
				fprintf(f, "%*s%.*s\n", indent, "", (int)(le - q), q);
				q = nl ? nl + 1 : e;
				continue;
			}
			/* a wrapped run up to the next verbatim line */
			const char *r = q;
			while (r < e) {
				const char *rn = memchr(r, '\n', (size_t)(e - r));
				if (!rn) {
					r = e;
					break;
				}
				if (rn[1] == ' ' && rn + 2 < e && rn[2] == ' ') {
					r = rn;
					break;
				}
				r = rn + 1;
			}
			char *run = strndup(q, (size_t)(r - q));
			for (char *c = run; *c; c++)
				if (*c == '\n')
					*c = ' ';
			fprintf(f, "%*s", indent, "");
			wrap(f, run, strlen(run), indent, indent);
			free(run);
			q = r < e ? r + 1 : e;
		}
		if (!end)
			break;
		p = end + 2;
		fputc('\n', f);
	}
}

void cli_print_help(FILE *f, const cli_help *h, const cli_opt *opts)
{
	fprintf(f, "usage: %s\n\n", h->synopsis);
	paragraphs(f, h->about, 0);
	fprintf(f, "\noptions:\n");
	for (const cli_opt *o = opts; o && o->name; o++) {
		char head[96];
		int hl = snprintf(head, sizeof head, "  --%s%s%s%s", o->name,
				  o->arg ? " " : "", o->arg ? o->arg : "",
				  o->list ? "..." : "");
		fputs(head, f);
		if (hl <= 24) {
			fprintf(f, "%*s", 26 - hl, "");
			wrap(f, o->help, strlen(o->help), 26, 26);
		} else {
			fprintf(f, "\n%*s", 26, "");
			wrap(f, o->help, strlen(o->help), 26, 26);
		}
	}
	fprintf(f, "  -h, --help              this help\n");
	if (h->examples[0].cmd) {
		fprintf(f, "\nexamples:\n");
		const cli_example *end = h->examples + sizeof h->examples / sizeof h->examples[0];
		for (const cli_example *x = h->examples; x < end && x->cmd; x++) {
			fprintf(f, "  %s\n      ", x->cmd);
			wrap(f, x->what, strlen(x->what), 6, 6);
		}
	}
}

static cli_help_hook help_hook;
static void *help_hook_ud;

void cli_set_help_hook(cli_help_hook fn, void *ud)
{
	help_hook = fn;
	help_hook_ud = ud;
}

/* ---- suggestions ------------------------------------------------------- */

/* optimal string alignment distance (a transposition counts one) */
static size_t edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 64 || m > 64)
		return 99;
	size_t d[65][65];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			size_t c = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + c < v)
				v = d[i - 1][j - 1] + c;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
}

bool cli_suggest(const char *typed, const char *const *cands, size_t n,
		 const char *quote_prefix, char *buf, size_t cap)
{
	size_t tl = strlen(typed), best = 99;
	size_t max = tl <= 4 ? 1 : 2;
	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(typed, cands[i]);
		if (d < best)
			best = d;
	}
	bool by_prefix = false;
	if (best > max || best >= tl) {
		/* else the start of one to three candidates ("gre" for
		 * grep-log) */
		size_t hits = 0;
		for (size_t i = 0; i < n; i++)
			if (tl >= 2 && strncmp(cands[i], typed, tl) == 0)
				hits++;
		if (hits < 1 || hits > 3)
			return false;
		by_prefix = true;
	}
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		bool take = by_prefix ? strncmp(cands[i], typed, tl) == 0
				      : edit_distance(typed, cands[i]) == best;
		if (!take)
			continue;
		int w = snprintf(buf + used, cap - used, "%s`%s%s`", used ? " or " : "",
				 quote_prefix, cands[i]);
		if (w < 0 || (size_t)w >= cap - used)
			break;
		used += (size_t)w;
	}
	return used > 0;
}

static bool utf8_ok(const unsigned char *s)
{
	while (*s) {
		int n = *s < 0x80 ? 0 : (*s & 0xe0) == 0xc0 ? 1 : (*s & 0xf0) == 0xe0 ? 2
			: (*s & 0xf8) == 0xf0 ? 3 : -1;
		if (n < 0 || (n == 1 && *s < 0xc2))
			return false;
		s++;
		for (int i = 0; i < n; i++, s++)
			if ((*s & 0xc0) != 0x80)
				return false;
	}
	return true;
}

int cli_check_repo(const char *cmd, const char *repo)
{
	const char *sl = strchr(repo, '/');
	bool ok = sl && sl != repo && sl[1] && !strchr(sl + 1, '/') &&
		  strlen(repo) < 256 && utf8_ok((const unsigned char *)repo);
	for (const char *p = repo; ok && *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			ok = false;
	if (ok)
		return 0;
	return cli_fail(EXIT_USAGE, "%s: --repo '%s' is not OWNER/NAME (e.g. curl/curl)",
			cmd, repo);
}

struct held {
	char **names;
	size_t n;
};

static int add_held(const fl_repo *r, void *ud)
{
	struct held *h = ud;
	char **nv = realloc(h->names, (h->n + 1) * sizeof *nv);
	if (!nv)
		return 1;
	h->names = nv;
	h->names[h->n++] = strdup(r->repo);
	return 0;
}

int cli_repo_missing(fl_store *st, const char *cmd, const char *repo)
{
	if (!repo)
		return 0;
	fl_repo r;
	fl_err err;
	int rc = fl_store_get_repo(st, repo, &r, &err);
	if (rc < 0)
		return cli_fail(1, "%s: %s", cmd, err.msg);
	if (rc == 1) {
		fl_repo_free(&r);
		return 0;
	}
	struct held h = {0};
	fl_store_each_repo(st, add_held, &h, &err);
	char near[512];
	bool close = h.n && cli_suggest(repo, (const char *const *)h.names, h.n, "", near,
					sizeof near);
	char held[640] = "";
	if (!h.n)
		snprintf(held, sizeof held, "the store is empty: scan or import it first");
	else if (h.n > 5)
		snprintf(held, sizeof held, "the store holds %zu repositories", h.n);
	else
		for (size_t i = 0, used = 0; i < h.n && used < sizeof held; i++)
			used += (size_t)snprintf(held + used, sizeof held - used, "%s%s",
						 i ? ", " : "the store holds ", h.names[i]);
	if (close)
		cli_fail(1, "%s: repository '%s' is not in the store; did you mean %s?", cmd,
			 repo, near);
	else
		cli_fail(1, "%s: repository '%s' is not in the store (%s)", cmd, repo, held);
	for (size_t i = 0; i < h.n; i++)
		free(h.names[i]);
	free(h.names);
	return 1;
}

/* ---- parsing ----------------------------------------------------------- */

static int unknown_option(const char *cmd, const char *name, size_t nl, const cli_opt *opts,
			  const cli_help *help)
{
	const char *names[64];
	size_t n = 0;
	for (const cli_opt *p = opts; p && p->name && n < 63; p++)
		names[n++] = p->name;
	names[n++] = "help";
	char typed[128], near[256];
	snprintf(typed, sizeof typed, "%.*s", (int)nl, name);
	if (cli_suggest(typed, names, n, "--", near, sizeof near))
		return cli_fail(EXIT_USAGE, "%s: unknown option '--%s'; did you mean %s?\nusage: %s",
				cmd, typed, near, help->synopsis);
	return cli_fail(EXIT_USAGE, "%s: unknown option '--%s'\nusage: %s", cmd, typed,
			help->synopsis);
}

int cli_parse(int argc, char **argv, const cli_opt *opts, const cli_help *help,
	      const char **pos, int maxpos, int *npos)
{
	*npos = 0;
	bool only_pos = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_pos || a[0] != '-' || strcmp(a, "-") == 0) {
			if (*npos >= maxpos)
				return cli_fail(EXIT_USAGE, "%s: unexpected argument '%s'\nusage: %s",
						argv[0], a, help->synopsis);
			if (!*a)
				return cli_fail(EXIT_USAGE, "%s: an argument is empty\nusage: %s",
						argv[0], help->synopsis);
			pos[(*npos)++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = true;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			if (help_hook)
				help_hook(help, opts, help_hook_ud);
			else
				cli_print_help(stdout, help, opts);
			return -1;
		}
		if (a[1] != '-')
			return cli_fail(EXIT_USAGE, "%s: unknown option '%s'\nusage: %s",
					argv[0], a, help->synopsis);
		const char *name = a + 2;
		const char *eq = strchr(name, '=');
		size_t nl = eq ? (size_t)(eq - name) : strlen(name);
		const cli_opt *o = NULL;
		for (const cli_opt *p = opts; p && p->name; p++)
			if (strlen(p->name) == nl && strncmp(p->name, name, nl) == 0)
				o = p;
		if (!o)
			return unknown_option(argv[0], name, nl, opts, help);
		if (!o->takes_value) {
			if (eq)
				return cli_fail(EXIT_USAGE, "%s: option '--%s' takes no value",
						argv[0], o->name);
			*o->flag = true;
			continue;
		}
		const char *v = eq ? eq + 1 : NULL;
		if (!v) {
			if (i + 1 >= argc)
				return cli_fail(EXIT_USAGE, "%s: option '--%s' needs a value",
						argv[0], o->name);
			v = argv[++i];
		}
		if (!*v)
			return cli_fail(EXIT_USAGE, "%s: option '--%s' needs a value, not an empty one",
					argv[0], o->name);
		if (o->list) {
			if (*o->list_n >= o->list_max)
				return cli_fail(EXIT_USAGE, "%s: too many '--%s' options (at most %d)",
						argv[0], o->name, o->list_max);
			o->list[(*o->list_n)++] = v;
		} else {
			*o->value = v;
		}
	}
	return 0;
}

fl_store *cli_open_store(const char *db, bool readonly)
{
	char *path = db ? strdup(db) : fl_store_default_path();
	fl_store *st = NULL;
	fl_err err;
	if (fl_store_open(path, readonly, &st, &err) < 0) {
		cli_fail(1, "%s", err.msg);
		st = NULL;
	}
	free(path);
	return st;
}
