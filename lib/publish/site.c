/*
 * site.c — `faultline site OUTDIR`: the static web site of a data set.
 * Plain HTML pages (home, one per repository, one per error, search), a
 * stylesheet and a small search script (assets.c), llms.txt, robots.txt,
 * a sitemap index with one sitemap per repository, canonical URLs and
 * JSON-LD.  Every piece of data is HTML-escaped; Markdown fields go through
 * cmark-gfm (html.c).  Pages are rendered from a checked data set, which is
 * copied (or exported) under OUTDIR/data for the search page and the JSON
 * twins of the error pages.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_internal.h"
#include "publish.h"
#include "strmap.h"
#include "util.h"

extern const char pub_style_css[];
extern const char pub_search_js[];
extern const char pub_filter_js[];

#define FIELD_MAX 6000    /* bytes of one text field shown on a page */
#define LINE_MAX_SHOWN 240
#define RELATED_MAX 6
#define SITEMAP_MAX 50000
#define REPO_PAGE_ROWS 200 /* rows of a repository page, at most */
/* bytes of the rows of a repository page: with its head, pager and foot
 * (under 8 KB) a page stays under 50 KB */
#define REPO_PAGE_ROW_BYTES (42 * 1024)
#define DATA_STAMP ".data-stamp" /* fl_site_from_store */

typedef struct site {
	const char *out;
	const char *base;        /* no trailing slash; "" without --base-url */
	bool absolute;           /* a base URL was given: canonical URLs, sitemaps */
	const pub_dataset *d;
	const fl_entry **all;    /* every entry */
	size_t *repo_of;         /* repo index of each entry */
	size_t **page_from;      /* per repo: first row of each page, then n */
	size_t *npages;          /* per repo: its pages */
	size_t n;
	fl_err *err;
	long long pages, files, bytes, largest;
	long long written;       /* files whose bytes changed */
	bool progress;           /* a progress line on stderr */
	double shown_at;         /* when it was last updated */
	bool shown;              /* and whether it was */
	size_t error_pages_done;
	fl_strmap outputs;       /* rel paths written, but the error pages */
	json_t *prov_root;       /* data/provenance.json, or NULL */
	json_t *prov;            /* its records: id -> field -> who wrote it */
	json_t **vers;           /* per repo: data/versions/{owner}/{name}.json
				    (scan --history), or NULL */
	pthread_mutex_t lock;
} site;

/* ---- small helpers ------------------------------------------------------------ */

/* Pages are written in place, and only when their bytes change: a site
 * rendered again is mostly unchanged, and deleting then recreating 100k+
 * files costs far more than comparing them.  Files of an earlier rendering
 * that this one did not write are removed at the end (prune_stale). */
static int write_out(site *s, const char *rel, const fl_buf *b, bool page)
{
	char *path = fl_xasprintf("%s/%s", s->out, rel);
	bool w = false;
	int rc = pub_write_if_changed(path, b->s ? b->s : "", b->n, &w, s->err);
	free(path);
	pthread_mutex_lock(&s->lock);
	fl_strmap_put(&s->outputs, rel, 1);
	s->files++;
	s->written += w;
	s->bytes += (long long)b->n;
	if (page)
		s->pages++;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* The progress line (with s->lock held): pages so far of the error pages,
 * four times a second at most, on a terminal only (fl_site_opts). */
static void progress(site *s, bool last)
{
	if (!s->progress)
		return;
	double now = fl_now_mono();
	if (last ? !s->shown : now - s->shown_at < 0.25)
		return;
	s->shown_at = now;
	s->shown = true;
	if (last)
		fputs("\r\033[K", stderr);
	else
		fprintf(stderr, "\rfaultline: site: %zu of %zu error pages", s->error_pages_done, s->n);
	fflush(stderr);
}

/* Text cut to max bytes at a UTF-8 boundary, "…" appended when cut. */
static void cut_html(fl_buf *b, const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max) {
		pub_html_n(b, s, n);
		return;
	}
	while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
		max--;
	pub_html_n(b, s, max);
	fl_buf_puts(b, "…");
}

static void markdown_field(pub_md_cache *mc, fl_buf *b, const char *md)
{
	if (!md)
		return;
	size_t n = strlen(md);
	if (n <= FIELD_MAX) {
		pub_markdown_cached(mc, b, md);
		return;
	}
	size_t max = FIELD_MAX;
	while (max > 0 && ((unsigned char)md[max] & 0xC0) == 0x80)
		max--;
	char *c = fl_xasprintf("%.*s…", (int)max, md);
	pub_markdown(b, c);
	free(c);
}

static void error_href(fl_buf *b, const fl_entry *e)
{
	fl_buf_printf(b, "/errors/%s/", e->id);
}

static void repo_href(fl_buf *b, const char *repo)
{
	const char *slash = strchr(repo, '/');
	char *owner = fl_xstrndup(repo, (size_t)(slash - repo));
	fl_buf_puts(b, "/repos/");
	pub_urlpart(b, owner);
	fl_buf_puts(b, "/");
	pub_urlpart(b, slash + 1);
	fl_buf_puts(b, "/");
	free(owner);
}

static const char *title_of(const fl_entry *e)
{
	return e->error_code ? e->error_code : e->error_message;
}

static void head(site *s, fl_buf *b, const char *title, const char *desc,
		 const char *canon_path, const char *extra)
{
	fl_buf_puts(b, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	cut_html(b, title, 150);
	fl_buf_puts(b, "</title>\n");
	if (desc) {
		fl_buf_puts(b, "<meta name=\"description\" content=\"");
		cut_html(b, desc, 300);
		fl_buf_puts(b, "\">\n");
	}
	/* no canonical URL rather than one on a made-up address */
	if (s->absolute) {
		fl_buf_puts(b, "<link rel=\"canonical\" href=\"");
		pub_html(b, s->base);
		pub_html(b, canon_path);
		fl_buf_puts(b, "\">\n");
	}
	fl_buf_puts(b, "<link rel=\"stylesheet\" href=\"/assets/style.css\">\n");
	if (extra)
		fl_buf_puts(b, extra);
	fl_buf_puts(b, "</head>\n<body>\n<header class=\"top\"><div class=\"wrap\">"
		     "<a class=\"brand\" href=\"/\">faultline</a>"
		     "<nav><a href=\"/\">Repositories</a><a href=\"/search/\">Search</a>"
		     "<a href=\"/data/manifest.json\">Data</a></nav></div></header>\n"
		     "<main class=\"wrap\">\n");
}

static void foot(fl_buf *b, const char *extra)
{
	fl_buf_puts(b, "</main>\n<footer class=\"site\"><div class=\"wrap\">");
	if (extra)
		fl_buf_puts(b, extra);
	fl_buf_puts(b, "<p>Generated by <a href=\"/\">faultline</a> from the published data set "
		     "(<a href=\"/data/manifest.json\">manifest</a>). "
		     "Records come from static analysis of the source code.</p>"
		     "</div></footer>\n</body>\n</html>\n");
}

/* ---- the error page ------------------------------------------------------------ */

static void source_window(fl_buf *b, const fl_entry *e)
{
	fl_buf_puts(b, "<div class=\"source\"><div class=\"source-head\"><span class=\"path\">");
	pub_html(b, e->file_path);
	if (e->line_number)
		fl_buf_printf(b, ":%d", e->line_number);
	fl_buf_puts(b, "</span><a href=\"");
	pub_html(b, e->github_url);
	fl_buf_puts(b, "\" rel=\"nofollow\">permalink</a></div>\n");
	if (!e->source_code) {
		fl_buf_puts(b, "<p class=\"muted\">The source window is not part of this record.</p></div>\n");
		return;
	}
	fl_buf_puts(b, "<pre class=\"code\"><code>");
	const char *p = e->source_code;
	int line = e->source_code_start ? e->source_code_start : 1;
	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		bool hl = line == e->line_number;
		fl_buf_printf(b, "<span class=\"ln%s\" data-n=\"%d\"></span>", hl ? " hl" : "", line);
		if (hl)
			fl_buf_puts(b, "<mark>");
		if (len > LINE_MAX_SHOWN) {
			char *c = fl_xstrndup(p, len);
			cut_html(b, c, LINE_MAX_SHOWN);
			free(c);
		} else {
			pub_html_n(b, p, len);
		}
		if (hl)
			fl_buf_puts(b, "</mark>");
		fl_buf_puts(b, "\n");
		if (!nl)
			break;
		p = nl + 1;
		line++;
	}
	fl_buf_puts(b, "</code></pre></div>\n");
}

static void related_item(fl_buf *b, const fl_entry *o, bool same_file)
{
	fl_buf_puts(b, "<li><a href=\"");
	error_href(b, o);
	fl_buf_puts(b, "\">");
	if (o->error_code) {
		fl_buf_puts(b, "<code>");
		pub_html(b, o->error_code);
		fl_buf_puts(b, "</code> ");
	}
	cut_html(b, o->error_message, 140);
	fl_buf_puts(b, "</a> <span class=\"muted\">");
	if (same_file)
		fl_buf_printf(b, "line %d", o->line_number);
	else
		pub_html(b, o->file_path);
	fl_buf_puts(b, "</span></li>\n");
}

static void related(site *s, fl_buf *b, size_t ri, size_t k)
{
	const pub_repo_set *rs = &s->d->repos[ri];
	const fl_entry *e = &rs->entries[k];
	/* same file: a contiguous run of the repository's records */
	size_t lo = k, hi = k + 1;
	while (lo > 0 && strcmp(rs->entries[lo - 1].file_path, e->file_path) == 0)
		lo--;
	while (hi < rs->n && strcmp(rs->entries[hi].file_path, e->file_path) == 0)
		hi++;
	fl_buf_puts(b, "<section id=\"related\"><h2>Related errors</h2>\n");
	size_t shown = 0;
	if (hi - lo > 1) {
		fl_buf_puts(b, "<h3>In the same file</h3><ul class=\"related\">\n");
		/* nearest first, alternating around k */
		for (size_t d = 1; shown < RELATED_MAX && (k >= lo + d || k + d < hi); d++) {
			if (k >= lo + d && shown < RELATED_MAX) {
				related_item(b, &rs->entries[k - d], true);
				shown++;
			}
			if (k + d < hi && shown < RELATED_MAX) {
				related_item(b, &rs->entries[k + d], true);
				shown++;
			}
		}
		fl_buf_puts(b, "</ul>\n");
	}
	/* of the same kind, in other files: the same error code, the same
	 * error class, the same background (what the failure is about), each
	 * nearest first; never by a tag alone (a language or error type tag
	 * is shared by most records) */
	static const char *const KIND[] = {"Same error code", "Same error class", "Same background"};
	size_t picked[RELATED_MAX], np = 0;
	for (int c = 0; c < 3 && np < RELATED_MAX; c++) {
		const char *key = c == 0 ? e->error_code : c == 1 ? e->error_class : e->background_tag;
		if (!key)
			continue;
		size_t start = np;
		for (size_t d = 1; np < RELATED_MAX && (k >= d || k + d < rs->n) && d < 400; d++) {
			for (int side = 0; side < 2 && np < RELATED_MAX; side++) {
				if (side == 0 ? k < d : k + d >= rs->n)
					continue;
				size_t j = side == 0 ? k - d : k + d;
				if (j >= lo && j < hi)
					continue;
				const fl_entry *o = &rs->entries[j];
				const char *ok = c == 0 ? o->error_code : c == 1 ? o->error_class : o->background_tag;
				if (!ok || strcmp(ok, key) != 0)
					continue;
				bool dup = false;
				for (size_t q = 0; q < np; q++)
					dup |= picked[q] == j;
				if (!dup)
					picked[np++] = j;
			}
		}
		if (np == start)
			continue;
		fl_buf_printf(b, "<h3>%s <code>", KIND[c]);
		pub_html(b, key);
		fl_buf_puts(b, "</code></h3><ul class=\"related\">\n");
		for (size_t q = start; q < np; q++)
			related_item(b, &rs->entries[picked[q]], false);
		fl_buf_puts(b, "</ul>\n");
	}
	if (!shown && !np)
		fl_buf_puts(b, "<p class=\"muted\">No related errors in this repository.</p>\n");
	fl_buf_puts(b, "</section>\n");
}

static char *plain_cut(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max)
		return fl_xstrdup(s);
	while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
		max--;
	return fl_xasprintf("%.*s…", (int)max, s);
}

/* JSON-LD (TechArticle + FAQPage), written directly with every string
 * escaped for a <script> element. */
static void ld_key(fl_buf *b, const char *key, const char *v)
{
	fl_buf_printf(b, "\"%s\":", key);
	pub_json_str(b, v, true);
}

static void json_ld(site *s, fl_buf *b, const fl_entry *e, const fl_repo *r)
{
	char *url = fl_xasprintf("%s/errors/%s/", s->base, e->id);
	char *msg = plain_cut(e->error_message, 200);
	char *doc = plain_cut(e->documentation, 2000);
	char *headline = plain_cut(title_of(e), 100);
	fl_buf_puts(b, "{\"@context\":\"https:\\/\\/schema.org\",\"@graph\":[{\"@type\":\"TechArticle\",");
	ld_key(b, "@id", url);
	fl_buf_putc(b, ',');
	ld_key(b, "headline", headline);
	fl_buf_putc(b, ',');
	ld_key(b, "description", doc);
	fl_buf_putc(b, ',');
	ld_key(b, "url", url);
	fl_buf_putc(b, ',');
	ld_key(b, "datePublished", e->analyzed_at);
	fl_buf_putc(b, ',');
	ld_key(b, "dateModified", e->content_changed_at);
	fl_buf_putc(b, ',');
	ld_key(b, "isBasedOn", e->github_url);
	fl_buf_puts(b, ",\"about\":{\"@type\":\"SoftwareSourceCode\",");
	ld_key(b, "name", e->repo);
	fl_buf_putc(b, ',');
	ld_key(b, "codeRepository", e->github_url);
	if (r && r->language) {
		fl_buf_putc(b, ',');
		ld_key(b, "programmingLanguage", r->language);
	}
	fl_buf_puts(b, "},\"keywords\":[");
	for (size_t i = 0; i < e->tags.n; i++) {
		if (i)
			fl_buf_putc(b, ',');
		pub_json_str(b, e->tags.v[i], true);
	}
	fl_buf_puts(b, "],\"publisher\":{\"@type\":\"Organization\",\"name\":\"faultline\"}},"
		    "{\"@type\":\"FAQPage\",");
	ld_key(b, "url", url);
	fl_buf_puts(b, ",\"mainEntity\":[");
	fl_buf fix = {0};
	for (size_t i = 0; i < e->solutions.n && i < 5; i++) {
		if (i)
			fl_buf_putc(&fix, '\n');
		fl_buf_printf(&fix, "%zu. %s", i + 1, e->solutions.v[i]);
	}
	struct { char *q; const char *a; } qa[3];
	qa[0].q = fl_xasprintf("What does \"%s\" mean?", msg);
	qa[0].a = doc;
	qa[1].q = fl_xasprintf("What triggers \"%s\"?", msg);
	qa[1].a = e->trigger_scenarios;
	qa[2].q = fl_xasprintf("How do I fix \"%s\"?", msg);
	qa[2].a = fix.n ? fl_buf_cstr(&fix) : NULL;
	bool first = true;
	for (int i = 0; i < 3; i++) {
		if (qa[i].a && *qa[i].a) {
			if (!first)
				fl_buf_putc(b, ',');
			first = false;
			fl_buf_puts(b, "{\"@type\":\"Question\",");
			ld_key(b, "name", qa[i].q);
			fl_buf_puts(b, ",\"acceptedAnswer\":{\"@type\":\"Answer\",");
			char *at = plain_cut(qa[i].a, 2000);
			ld_key(b, "text", at);
			free(at);
			fl_buf_puts(b, "}}");
		}
		free(qa[i].q);
	}
	fl_buf_puts(b, "]}]}");
	fl_buf_free(&fix);
	free(headline);
	free(url);
	free(msg);
	free(doc);
}

static void badge(fl_buf *b, const char *cls, const char *label, const char *v)
{
	fl_buf_printf(b, "<span class=\"badge %s\" title=\"%s\">", cls, label);
	pub_html(b, v);
	fl_buf_puts(b, "</span>");
}

static void code_details(fl_buf *b, const char *summary, const char *code)
{
	if (!code)
		return;
	fl_buf_printf(b, "<details><summary>%s</summary><pre class=\"code\"><code>", summary);
	cut_html(b, code, FIELD_MAX);
	fl_buf_puts(b, "</code></pre></details>\n");
}

/* Under a section's heading: which of its fields a language model wrote
 * (provenance.json), as "model M via provider P, day". */
static void model_note(fl_buf *b, const json_t *p, const char *const *fields)
{
	const json_t *who = NULL;
	for (size_t i = 0; fields[i] && !who; i++)
		who = json_object_get(p, fields[i]);
	if (!who)
		return;
	const char *m = json_string_value(json_object_get(who, "model"));
	const char *pv = json_string_value(json_object_get(who, "provider"));
	const char *at = json_string_value(json_object_get(who, "at"));
	fl_buf_puts(b, "<p class=\"by-model\">Written by a language model");
	if (m || pv) {
		fl_buf_puts(b, " (");
		if (m) {
			pub_html(b, m);
			fl_buf_puts(b, pv ? " via " : "");
		}
		if (pv)
			pub_html(b, pv);
		fl_buf_puts(b, ")");
	}
	if (at) {
		fl_buf_printf(b, " on <time datetime=\"");
		pub_html(b, at);
		fl_buf_printf(b, "\">%.10s</time>", at);
	}
	fl_buf_puts(b, ", not by faultline's reading of the code.</p>\n");
}

/* The record's permalink moved to the commit sha and line (the stored one
 * names analyzedSha), or NULL for a link that names no commit. */
static char *link_at(const fl_entry *e, const char *sha, long long line)
{
	const char *p = strstr(e->github_url, e->analyzed_sha);
	if (!p || strncmp(e->github_url, "file:", 5) == 0)
		return NULL;
	size_t al = strlen(e->analyzed_sha);
	const char *hash = strchr(p + al, '#');
	size_t tail = hash ? (size_t)(hash - (p + al)) : strlen(p + al);
	return fl_xasprintf("%.*s%s%.*s#L%lld", (int)(p - e->github_url), e->github_url, sha,
			    (int)tail, p + al, line);
}

static void version_link(fl_buf *b, const fl_entry *e, json_t *vs, long long i, long long line)
{
	json_t *v = json_array_get(vs, (size_t)i);
	const char *name = json_string_value(json_object_get(v, "name"));
	const char *sha = json_string_value(json_object_get(v, "sha"));
	char *url = sha && line > 0 ? link_at(e, sha, line) : NULL;
	if (url) {
		fl_buf_puts(b, "<a href=\"");
		pub_html(b, url);
		fl_buf_puts(b, "\">");
	}
	pub_html(b, name ? name : "?");
	if (url)
		fl_buf_puts(b, "</a>");
	free(url);
}

/* "Raised in v2.30.0 - v2.39.5" and each version's line, linked, from the
 * repository's versions side file (scan --history). */
static void versions_section(site *s, fl_buf *b, size_t ri, const fl_entry *e)
{
	json_t *root = s->vers ? s->vers[ri] : NULL;
	json_t *vs = json_object_get(root, "versions");
	json_t *runs = json_object_get(json_object_get(root, "records"), e->id);
	size_t nv = json_array_size(vs), nr = json_array_size(runs);
	if (!nv || !nr)
		return;
	long long first[64], last[64], line[64];
	size_t n = 0;
	for (size_t k = 0; k < nr && n < 64; k++) {
		json_t *r = json_array_get(runs, k);
		long long f = json_integer_value(json_array_get(r, 0));
		long long l = json_integer_value(json_array_get(r, 1));
		long long ln = json_integer_value(json_array_get(r, 2));
		if (f < 0 || l < f || (size_t)l >= nv)
			return; /* not of this data set's shape: nothing shown */
		first[n] = f;
		last[n] = l;
		line[n++] = ln;
	}
	fl_buf_puts(b, "<p class=\"versions\">Raised in ");
	for (size_t k = 0; k < n;) {
		long long f = first[k], l = last[k], fl = line[k];
		size_t j = k;
		for (k++; k < n && first[k] == last[k - 1] + 1; k++)
			l = last[k];
		if (j)
			fl_buf_puts(b, ", ");
		version_link(b, e, vs, f, fl);
		if (l != f) {
			fl_buf_puts(b, " - ");
			version_link(b, e, vs, l, line[k - 1]);
		}
	}
	if ((size_t)last[n - 1] != nv - 1) {
		fl_buf_puts(b, " <span class=\"muted\">(gone since ");
		version_link(b, e, vs, last[n - 1] + 1, 0);
		fl_buf_puts(b, ")</span>");
	}
	fl_buf_puts(b, "</p>\n<details class=\"versions\"><summary>The line in each version</summary><ul>\n");
	for (size_t k = 0; k < n; k++)
		for (long long i = first[k]; i <= last[k]; i++) {
			fl_buf_puts(b, "<li>");
			version_link(b, e, vs, i, line[k]);
			fl_buf_printf(b, ": line %lld</li>\n", line[k]);
		}
	fl_buf_puts(b, "</ul></details>\n");
}

static int error_page(site *s, size_t ri, size_t k, fl_buf *b, pub_md_cache *mc)
{
	const pub_repo_set *rs = &s->d->repos[ri];
	const fl_entry *e = &rs->entries[k];
	const json_t *prov = s->prov ? json_object_get(s->prov, e->id) : NULL;
	static const char *const F_MEANING[] = {"documentation", NULL};
	static const char *const F_FIX[] = {"solutions", "exampleFix", NULL};
	static const char *const F_DEFEND[] = {"handlingStrategy", "validationCode", "typeGuard",
		"tryCatchPattern", "preventionTips", NULL};
	static const char *const F_TRIGGERS[] = {"triggerScenarios", "commonSituations", NULL};
	b->n = 0;
	char canon[64];
	snprintf(canon, sizeof canon, "/errors/%s/", e->id);
	char *title = fl_xasprintf("%s — %s", title_of(e), e->repo);
	fl_buf extra = {0};
	fl_buf_printf(&extra, "<link rel=\"alternate\" type=\"application/json\" href=\"/data/errors/%s.json\">\n"
		       "<script type=\"application/ld+json\">", e->id);
	json_ld(s, &extra, e, &rs->repo);
	fl_buf_puts(&extra, "</script>\n");
	char *desc = plain_cut(e->documentation, 280);
	head(s, b, title, desc, canon, fl_buf_cstr(&extra));
	free(desc);
	fl_buf_free(&extra);
	free(title);

	fl_buf_puts(b, "<article class=\"error\">\n<p class=\"crumbs\"><a href=\"/\">Home</a> / <a href=\"");
	repo_href(b, e->repo);
	fl_buf_puts(b, "\">");
	pub_html(b, e->repo);
	fl_buf_puts(b, "</a> / ");
	pub_html(b, e->slug);
	/* the message once: the heading when the record has no code, else
	 * the box under the code */
	if (e->error_code) {
		fl_buf_puts(b, "</p>\n<h1>");
		cut_html(b, e->error_code, 160);
		fl_buf_puts(b, "</h1>\n<p class=\"badges\">");
	} else {
		fl_buf_puts(b, "</p>\n<h1 class=\"message\" id=\"message\">");
		cut_html(b, e->error_message, 600);
		fl_buf_puts(b, "</h1>\n<p class=\"badges\">");
	}
	fl_buf_printf(b, "<span class=\"badge sev-%s\" title=\"severity\">", e->severity);
	pub_html(b, e->severity);
	fl_buf_puts(b, "</span>");
	badge(b, "type", "error type", e->error_type);
	if (e->error_class)
		badge(b, "cls", "error class", e->error_class);
	if (e->http_status) {
		char hs[16];
		snprintf(hs, sizeof hs, "HTTP %d", e->http_status);
		badge(b, "http", "HTTP status", hs);
	}
	fl_buf_puts(b, "</p>\n");
	if (e->error_code) {
		fl_buf_puts(b, "<pre class=\"message\" id=\"message\"><code>");
		cut_html(b, e->error_message, FIELD_MAX);
		fl_buf_puts(b, "</code></pre>\n");
	}
	if (e->error_code || strcmp(e->message_pattern, e->error_message) != 0) {
		fl_buf_puts(b, "<p class=\"pattern\"><span class=\"muted\">Matches</span> <code>");
		cut_html(b, e->message_pattern, 600);
		fl_buf_puts(b, "</code></p>\n");
	}

	fl_buf_puts(b, "<section id=\"meaning\"><h2>What it means</h2>\n");
	model_note(b, prov, F_MEANING);
	markdown_field(mc, b, e->documentation);
	fl_buf_puts(b, "</section>\n<section id=\"source\"><h2>Where it is raised</h2>\n");
	source_window(b, e);
	versions_section(s, b, ri, e);
	fl_buf_puts(b, "</section>\n<section id=\"solutions\"><h2>How to fix it</h2>\n");
	model_note(b, prov, F_FIX);
	if (e->solutions.n) {
		fl_buf_puts(b, "<ol class=\"solutions\">\n");
		for (size_t i = 0; i < e->solutions.n && i < 20; i++) {
			fl_buf_puts(b, "<li>");
			markdown_field(mc, b, e->solutions.v[i]);
			fl_buf_puts(b, "</li>\n");
		}
		fl_buf_puts(b, "</ol>\n");
	} else {
		fl_buf_puts(b, "<p class=\"muted\">No fix is recorded for this error.</p>\n");
	}
	if (e->example_fix) {
		fl_buf_puts(b, "<h3>Example</h3>\n<pre class=\"code\"><code>");
		cut_html(b, e->example_fix, FIELD_MAX);
		fl_buf_puts(b, "</code></pre>\n");
	}
	fl_buf_puts(b, "</section>\n");
	/* shown only when the record holds one: no empty box */
	bool any = e->handling_strategy || e->validation_code || e->type_guard ||
		   e->try_catch_pattern || e->prevention_tips.n;
	if (any) {
		fl_buf_puts(b, "<section id=\"defensive\"><h2>Defensive patterns</h2>\n");
		model_note(b, prov, F_DEFEND);
		if (e->handling_strategy) {
			static const char *const how[][2] = {
				{"try-catch", "Catch the error where the call is made, then handle it or report it with context."},
				{"type-guard", "Check the type of the value before the call, so the error cannot be raised."},
				{"validation", "Validate the input before the call, so the error cannot be raised."},
				{"retry", "The failure can be transient: retry the operation with a bounded backoff."},
				{"fallback", "Fall back to a default value or another path when it is raised."},
			};
			fl_buf_puts(b, "<details open><summary>Recommended handling: ");
			pub_html(b, e->handling_strategy);
			fl_buf_puts(b, "</summary><p>");
			for (size_t i = 0; i < sizeof how / sizeof how[0]; i++)
				if (strcmp(how[i][0], e->handling_strategy) == 0)
					fl_buf_puts(b, how[i][1]);
			fl_buf_puts(b, "</p></details>\n");
		}
		code_details(b, "Validate the input first", e->validation_code);
		code_details(b, "Type guard", e->type_guard);
		code_details(b, "Catch and handle it", e->try_catch_pattern);
		if (e->prevention_tips.n) {
			fl_buf_puts(b, "<details open><summary>Prevention tips</summary><ul>\n");
			for (size_t i = 0; i < e->prevention_tips.n && i < 20; i++) {
				fl_buf_puts(b, "<li>");
				markdown_field(mc, b, e->prevention_tips.v[i]);
				fl_buf_puts(b, "</li>\n");
			}
			fl_buf_puts(b, "</ul></details>\n");
		}
		fl_buf_puts(b, "</section>\n");
	}
	fl_buf_puts(b, "<section id=\"triggers\"><h2>What triggers it</h2>\n");
	model_note(b, prov, F_TRIGGERS);
	markdown_field(mc, b, e->trigger_scenarios);
	if (e->common_situations && *e->common_situations) {
		fl_buf_puts(b, "<h3>Common situations</h3>\n");
		markdown_field(mc, b, e->common_situations);
	}
	fl_buf_puts(b, "</section>\n");
	related(s, b, ri, k);
	if (e->tags.n) {
		fl_buf_puts(b, "<p class=\"tags\">");
		for (size_t i = 0; i < e->tags.n && i < 20; i++)
			badge(b, "tag", "tag", e->tags.v[i]);
		fl_buf_puts(b, "</p>\n");
	}
	fl_buf_puts(b, "</article>\n");

	fl_buf f = {0};
	char date[11];
	snprintf(date, sizeof date, "%.10s", e->analyzed_at);
	fl_buf_puts(&f, "<p class=\"provenance\"><a href=\"");
	repo_href(&f, e->repo);
	fl_buf_puts(&f, "\">");
	pub_html(&f, e->repo);
	fl_buf_printf(&f, "</a>@<code>%.12s</code> · analyzed <time datetime=\"", e->analyzed_sha);
	pub_html(&f, e->analyzed_at);
	fl_buf_puts(&f, "\">");
	pub_html(&f, date);
	if (prov)
		fl_buf_puts(&f, "</time> · text from <strong>static analysis</strong> of the source, "
			     "parts written by a <strong>language model</strong> (marked) · <a href=\"");
	else
		fl_buf_puts(&f, "</time> · text from <strong>static analysis</strong> of the source "
			     "(no language model) · <a href=\"");
	fl_buf_printf(&f, "/data/errors/%s.json\" type=\"application/json\">JSON record</a></p>", e->id);
	foot(b, fl_buf_cstr(&f));
	fl_buf_free(&f);
	return 0;
}

/* ---- threads for the error pages ----------------------------------------------- */

typedef struct job {
	site *s;
	size_t from, to, step;
	int rc;
} job;

static void *error_pages(void *arg)
{
	job *j = arg;
	site *s = j->s;
	fl_buf b = {0};
	fl_err err;
	pub_md_cache *mc = fl_xcalloc(1, sizeof *mc);
	for (size_t i = j->from; i < j->to && j->rc == 0; i += j->step) {
		const fl_entry *e = s->all[i];
		size_t ri = s->repo_of[i];
		size_t k = (size_t)(e - s->d->repos[ri].entries);
		error_page(s, ri, k, &b, mc);
		char *file = fl_xasprintf("%s/errors/%s/index.html", s->out, e->id);
		bool w = false;
		if (pub_write_if_changed(file, b.s ? b.s : "", b.n, &w, &err) < 0)
			j->rc = -1;
		free(file);
		pthread_mutex_lock(&s->lock);
		if (j->rc < 0)
			*s->err = err;
		s->files++;
		s->written += w;
		s->pages++;
		s->error_pages_done++;
		progress(s, false);
		s->bytes += (long long)b.n;
		if ((long long)b.n > s->largest)
			s->largest = (long long)b.n;
		pthread_mutex_unlock(&s->lock);
	}
	pub_md_cache_free(mc);
	free(mc);
	fl_buf_free(&b);
	return NULL;
}

/* ---- other pages ------------------------------------------------------------------ */

static void num(fl_buf *b, long long v)
{
	char tmp[32], out[48];
	int n = snprintf(tmp, sizeof tmp, "%lld", v), o = 0;
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0 && tmp[0] != '-')
			out[o++] = ',';
		out[o++] = tmp[i];
	}
	out[o] = '\0';
	fl_buf_puts(b, out);
}

/* ---- repository pages: the table of records, paginated by bytes -------------
 * Page 1 is /repos/{owner}/{name}/, page N /repos/{owner}/{name}/page/N/.
 * A page holds at most REPO_PAGE_ROWS rows and REPO_PAGE_ROW_BYTES bytes of
 * rows (long messages and paths make fewer rows). */

static size_t repo_pages(const site *s, size_t ri)
{
	return s->npages[ri];
}

/* One row of the table; the Code column only when the page has a code. */
static void repo_row(fl_buf *b, const fl_entry *e, bool code_col)
{
	fl_buf_puts(b, "<tr>");
	if (code_col) {
		fl_buf_puts(b, "<td>");
		if (e->error_code) {
			fl_buf_puts(b, "<code>");
			pub_html(b, e->error_code);
			fl_buf_puts(b, "</code>");
		}
		fl_buf_puts(b, "</td>");
	}
	fl_buf_puts(b, "<td><a href=\"");
	error_href(b, e);
	fl_buf_puts(b, "\">");
	cut_html(b, e->error_message, 160);
	fl_buf_puts(b, "</a><div class=\"loc\">");
	pub_html(b, e->file_path);
	if (e->line_number)
		fl_buf_printf(b, ":%d", e->line_number);
	fl_buf_puts(b, "</div></td><td>");
	pub_html(b, e->error_type);
	fl_buf_printf(b, "</td><td><span class=\"badge sev-%s\">", e->severity);
	pub_html(b, e->severity);
	fl_buf_puts(b, "</span></td></tr>\n");
}

static void paginate(site *s)
{
	fl_buf row = {0};
	for (size_t ri = 0; ri < s->d->nrepos; ri++) {
		const pub_repo_set *rs = &s->d->repos[ri];
		size_t cap = 8, np = 0, bytes = 0, rows = 0;
		size_t *from = fl_xcalloc(cap, sizeof *from);
		from[np++] = 0;
		for (size_t k = 0; k < rs->n; k++) {
			row.n = 0;
			repo_row(&row, &rs->entries[k], true);
			if (rows && (rows == REPO_PAGE_ROWS || bytes + row.n > REPO_PAGE_ROW_BYTES)) {
				if (np + 1 >= cap)
					from = fl_xrealloc(from, (cap *= 2) * sizeof *from);
				from[np++] = k;
				bytes = rows = 0;
			}
			bytes += row.n;
			rows++;
		}
		s->npages[ri] = rs->n ? np : 1;
		if (np + 1 >= cap)
			from = fl_xrealloc(from, (cap + 1) * sizeof *from);
		from[np] = rs->n;
		s->page_from[ri] = from;
	}
	fl_buf_free(&row);
}

static void repo_page_href(fl_buf *b, const char *repo, size_t page)
{
	repo_href(b, repo);
	if (page > 1)
		fl_buf_printf(b, "page/%zu/", page);
}

/* Previous / first, a window around this page, last / next. */
static void pager(fl_buf *b, const char *repo, size_t page, size_t pages)
{
	if (pages < 2)
		return;
	fl_buf_puts(b, "<nav class=\"pager\" aria-label=\"Pages\">");
	if (page > 1) {
		fl_buf_puts(b, "<a rel=\"prev\" href=\"");
		repo_page_href(b, repo, page - 1);
		fl_buf_puts(b, "\">← Previous</a>");
	} else {
		fl_buf_puts(b, "<span class=\"off\">← Previous</span>");
	}
	bool gap = false;
	for (size_t p = 1; p <= pages; p++) {
		if (p != 1 && p != pages && (p + 2 < page || p > page + 2)) {
			gap = true;
			continue;
		}
		if (gap)
			fl_buf_puts(b, "<span class=\"gap\">…</span>");
		gap = false;
		if (p == page) {
			fl_buf_printf(b, "<span aria-current=\"page\">%zu</span>", p);
		} else {
			fl_buf_puts(b, "<a href=\"");
			repo_page_href(b, repo, p);
			fl_buf_printf(b, "\">%zu</a>", p);
		}
	}
	if (page < pages) {
		fl_buf_puts(b, "<a rel=\"next\" href=\"");
		repo_page_href(b, repo, page + 1);
		fl_buf_puts(b, "\">Next →</a>");
	} else {
		fl_buf_puts(b, "<span class=\"off\">Next →</span>");
	}
	fl_buf_puts(b, "</nav>\n");
}

static int repo_page(site *s, size_t ri, size_t page)
{
	const pub_repo_set *rs = &s->d->repos[ri];
	const fl_repo *r = &rs->repo;
	size_t pages = repo_pages(s, ri);
	size_t from = s->page_from[ri][page - 1];
	size_t to = s->page_from[ri][page];
	fl_buf b = {0}, canon = {0};
	repo_page_href(&canon, r->repo, page);
	char *title = page > 1 ? fl_xasprintf("%s errors, page %zu of %zu — faultline", r->repo, page, pages)
			       : fl_xasprintf("%s errors — faultline", r->repo);
	char *desc = fl_xasprintf("Every error %s can raise: %lld records with message, source line, cause and fix.",
				  r->repo, r->error_count);
	head(s, &b, title, desc, fl_buf_cstr(&canon), NULL);
	free(title);
	free(desc);
	fl_buf_puts(&b, "<p class=\"crumbs\"><a href=\"/\">Home</a> / ");
	if (page > 1) {
		fl_buf_puts(&b, "<a href=\"");
		repo_href(&b, r->repo);
		fl_buf_puts(&b, "\">");
		pub_html(&b, r->repo);
		fl_buf_printf(&b, "</a> / page %zu", page);
	} else {
		pub_html(&b, r->repo);
	}
	fl_buf_puts(&b, "</p>\n<h1>");
	pub_html(&b, r->repo);
	fl_buf_puts(&b, "</h1>\n");
	if (r->description) {
		fl_buf_puts(&b, "<p class=\"lead\">");
		pub_html(&b, r->description);
		fl_buf_puts(&b, "</p>\n");
	}
	fl_buf_puts(&b, "<dl class=\"facts\"><div><dt>Errors</dt><dd>");
	num(&b, (long long)rs->n);
	fl_buf_puts(&b, "</dd></div>");
	if (r->language) {
		fl_buf_puts(&b, "<div><dt>Language</dt><dd>");
		pub_html(&b, r->language);
		fl_buf_puts(&b, "</dd></div>");
	}
	if (r->source_files >= 0) {
		fl_buf_puts(&b, "<div><dt>Source files</dt><dd>");
		num(&b, r->source_files);
		fl_buf_puts(&b, "</dd></div>");
	}
	fl_buf_printf(&b, "<div><dt>Commit</dt><dd><code>%.12s</code></dd></div>"
		       "<div><dt>Analyzed</dt><dd>%.10s</dd></div></dl>\n", r->analyzed_sha, r->analyzed_at);
	fl_buf_puts(&b, "<form class=\"search-inline\" action=\"/search/\" method=\"get\">"
		     "<input type=\"hidden\" name=\"repo\" value=\"");
	pub_html(&b, r->repo);
	fl_buf_puts(&b, "\"><input type=\"search\" name=\"q\" placeholder=\"Paste an error message from this repository\" "
		     "aria-label=\"Error message\"><button type=\"submit\">Search</button></form>\n");
	if (!rs->n) {
		fl_buf_puts(&b, "<p class=\"muted\">No error records for this repository.</p>\n");
	} else {
		if (pages > 1) {
			fl_buf_puts(&b, "<p class=\"range\">Errors ");
			num(&b, (long long)from + 1);
			fl_buf_puts(&b, "–");
			num(&b, (long long)to);
			fl_buf_puts(&b, " of ");
			num(&b, (long long)rs->n);
			fl_buf_printf(&b, " · page %zu of %zu</p>\n", page, pages);
		}
		pager(&b, r->repo, page, pages);
		/* no column that is empty on every row of the page */
		bool code_col = false;
		for (size_t k = from; k < to && !code_col; k++)
			code_col = rs->entries[k].error_code != NULL;
		fl_buf_puts(&b, "<form class=\"filter\" role=\"search\" hidden onsubmit=\"return false\">"
			     "<input type=\"search\" id=\"filter\" hidden placeholder=\"Filter the rows of this page "
			     "by message, file or type\" aria-label=\"Filter rows\" autocomplete=\"off\">"
			     "<span id=\"filter-count\" class=\"muted\" aria-live=\"polite\"></span></form>\n");
		fl_buf_printf(&b, "<table class=\"errors\">\n<thead><tr>%s<th>Message</th>"
			     "<th>Type</th><th>Severity</th></tr></thead>\n<tbody>\n",
			     code_col ? "<th>Code</th>" : "");
		for (size_t k = from; k < to; k++)
			repo_row(&b, &rs->entries[k], code_col);
		fl_buf_puts(&b, "</tbody>\n</table>\n");
		pager(&b, r->repo, page, pages);
		fl_buf_puts(&b, "<script src=\"/assets/filter.js\" defer></script>\n");
	}
	foot(&b, NULL);
	fl_buf rel = {0};
	fl_buf_printf(&rel, "repos/%s/", r->repo);
	if (page > 1)
		fl_buf_printf(&rel, "page/%zu/", page);
	fl_buf_puts(&rel, "index.html");
	int rc = write_out(s, fl_buf_cstr(&rel), &b, true);
	fl_buf_free(&rel);
	fl_buf_free(&b);
	fl_buf_free(&canon);
	return rc;
}

static const char *const USAGE_HTML =
	"<section id=\"use\"><h2>How to use it</h2>\n"
	"<div class=\"cards\">\n"
	"<div class=\"card\"><h3>In the browser</h3><p>Paste an error message into the "
	"<a href=\"/search/\">search page</a>. It matches error codes, message patterns "
	"(with the values filled in) and similar wording.</p></div>\n"
	"<div class=\"card\"><h3>Command line</h3><pre class=\"code\"><code>faultline scan PATH\n"
	"faultline explain \"connection reset by peer\"\n"
	"faultline grep-log app.log\n"
	"faultline show ID</code></pre></div>\n"
	"<div class=\"card\"><h3>HTTP API</h3><p>Run <code>faultline serve</code>, then:</p>"
	"<pre class=\"code\"><code>GET /api/search?q=TEXT&amp;repo=OWNER/NAME&amp;limit=10</code></pre>"
	"<p>returns <code>{\"query\",\"matches\":[{\"id\",\"repo\",\"slug\",\"code\",\"message\",\"score\",\"matchType\",...}],\"datasetVersion\"}</code>.</p></div>\n"
	"<div class=\"card\"><h3>MCP</h3><p>For coding assistants: <code>faultline mcp</code> speaks the Model Context "
	"Protocol over stdio, or with <code>--data-url</code> against this site's data set.</p></div>\n"
	"<div class=\"card\"><h3>Data set</h3><p>Every record is plain JSON: "
	"<a href=\"/data/manifest.json\">manifest.json</a> (version, counts, and the sha256 of the index, "
	"the repository list and <a href=\"/data/inventory.json\">inventory.json</a>, which holds the sha256 of every other file), "
	"<a href=\"/data/index.json\">index.json</a>, <a href=\"/data/repos.json\">repos.json</a>, "
	"and <code>/data/errors/{id}.json</code>. See also <a href=\"/llms.txt\">llms.txt</a>.</p></div>\n"
	"</div></section>\n";

static int home_page(site *s)
{
	fl_buf b = {0};
	head(s, &b, "faultline — where every error message comes from",
	     "Paste an error message and find the source line that raised it, what it means and how to fix it.",
	     "/", NULL);
	fl_buf_puts(&b, "<section class=\"hero\"><h1>Where does this error come from?</h1>\n"
		     "<p class=\"lead\">faultline reads the source code of libraries and programs, finds every place "
		     "that raises an error, and records the exact message, the line that raises it, what it means "
		     "and how to fix it. Paste an error text to find its source.</p>\n"
		     "<form class=\"search-inline big\" action=\"/search/\" method=\"get\">"
		     "<input type=\"search\" name=\"q\" placeholder=\"Paste an error message…\" aria-label=\"Error message\">"
		     "<button type=\"submit\">Search</button></form>\n");
	fl_buf_puts(&b, "<p class=\"stats\"><strong>");
	num(&b, (long long)s->d->nerrors);
	fl_buf_printf(&b, "</strong> error%s in <strong>", s->d->nerrors == 1 ? "" : "s");
	num(&b, (long long)s->d->nrepos);
	fl_buf_printf(&b, "</strong> repositor%s · data set version <code>", s->d->nrepos == 1 ? "y" : "ies");
	pub_html(&b, s->d->dataset_version);
	fl_buf_puts(&b, "</code></p></section>\n<section id=\"repos\"><h2>Repositories</h2>\n");
	if (!s->d->nrepos) {
		fl_buf_puts(&b, "<p class=\"muted\">The data set holds no repository yet.</p>\n");
	} else {
		fl_buf_puts(&b, "<table class=\"repos\">\n<thead><tr><th>Repository</th><th>Language</th>"
			     "<th class=\"num\">Errors</th><th>Analyzed</th></tr></thead>\n<tbody>\n");
		for (size_t i = 0; i < s->d->nrepos; i++) {
			const fl_repo *r = &s->d->repos[i].repo;
			fl_buf_puts(&b, "<tr><td><a href=\"");
			repo_href(&b, r->repo);
			fl_buf_puts(&b, "\">");
			pub_html(&b, r->repo);
			fl_buf_puts(&b, "</a>");
			if (r->description) {
				fl_buf_puts(&b, "<div class=\"loc\">");
				cut_html(&b, r->description, 140);
				fl_buf_puts(&b, "</div>");
			}
			fl_buf_puts(&b, "</td><td>");
			pub_html(&b, r->language ? r->language : "");
			fl_buf_puts(&b, "</td><td class=\"num\">");
			num(&b, (long long)s->d->repos[i].n);
			fl_buf_printf(&b, "</td><td>%.10s</td></tr>\n", r->analyzed_at);
		}
		fl_buf_puts(&b, "</tbody>\n</table>\n");
	}
	fl_buf_puts(&b, "</section>\n");
	fl_buf_puts(&b, USAGE_HTML);
	foot(&b, NULL);
	int rc = write_out(s, "index.html", &b, true);
	fl_buf_free(&b);
	return rc;
}

static int search_page(site *s)
{
	fl_buf b = {0};
	head(s, &b, "Search errors — faultline",
	     "Paste an error message, a log line or a stack trace and find the source line that raised it.",
	     "/search/", NULL);
	fl_buf_puts(&b, "<h1>Search</h1>\n<p class=\"lead\">Paste an error message, a log line or a stack trace.</p>\n"
		     "<form id=\"search-form\" class=\"search-form\" action=\"/search/\" method=\"get\">\n"
		     "<textarea id=\"q\" name=\"q\" rows=\"3\" placeholder=\"e.g. timeout of 500ms exceeded\" "
		     "aria-label=\"Error text\"></textarea>\n<div class=\"row\"><select id=\"repo\" name=\"repo\" "
		     "aria-label=\"Repository\"><option value=\"\">All repositories</option>");
	for (size_t i = 0; i < s->d->nrepos; i++) {
		fl_buf_puts(&b, "<option value=\"");
		pub_html(&b, s->d->repos[i].repo.repo);
		fl_buf_puts(&b, "\">");
		pub_html(&b, s->d->repos[i].repo.repo);
		fl_buf_puts(&b, "</option>");
	}
	fl_buf_puts(&b, "</select><button type=\"submit\">Search</button></div>\n</form>\n"
		     "<p id=\"status\" class=\"muted\" aria-live=\"polite\"></p>\n"
		     "<ol id=\"results\" class=\"results\"></ol>\n"
		     "<noscript><p>The search runs in your browser with JavaScript; without it, browse the "
		     "<a href=\"/\">repositories</a>.</p></noscript>\n"
		     "<script src=\"/assets/search.js\" defer></script>\n");
	foot(&b, NULL);
	int rc = write_out(s, "search/index.html", &b, true);
	fl_buf_free(&b);
	return rc;
}

static int not_found_page(site *s)
{
	fl_buf b = {0};
	head(s, &b, "Not found — faultline", NULL, "/404.html", NULL);
	fl_buf_puts(&b, "<h1>Not found</h1>\n<p>There is no page here. Try the <a href=\"/search/\">search</a> "
		     "or the <a href=\"/\">list of repositories</a>.</p>\n");
	foot(&b, NULL);
	int rc = write_out(s, "404.html", &b, false);
	fl_buf_free(&b);
	return rc;
}

static void url_el(fl_buf *b, const char *base, const char *path, const char *lastmod)
{
	fl_buf_puts(b, "<url><loc>");
	pub_html(b, base);
	pub_html(b, path);
	fl_buf_puts(b, "</loc>");
	if (lastmod)
		fl_buf_printf(b, "<lastmod>%.10s</lastmod>", lastmod);
	fl_buf_puts(b, "</url>\n");
}

static int sitemaps(site *s)
{
	static const char *const HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
	fl_buf idx = {0}, b = {0};
	fl_buf_puts(&idx, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
	fl_buf_puts(&b, HEAD);
	url_el(&b, s->base, "/", NULL);
	url_el(&b, s->base, "/search/", NULL);
	fl_buf_puts(&b, "</urlset>\n");
	int rc = write_out(s, "sitemaps/site.xml", &b, false);
	fl_buf_printf(&idx, "<sitemap><loc>%s/sitemaps/site.xml</loc></sitemap>\n", s->base);
	for (size_t i = 0; rc == 0 && i < s->d->nrepos; i++) {
		const pub_repo_set *rs = &s->d->repos[i];
		size_t part = 0, k = 0;
		do {
			b.n = 0;
			fl_buf_puts(&b, HEAD);
			size_t in = 0;
			for (size_t pg = 1; part == 0 && pg <= repo_pages(s, i); pg++) {
				fl_buf path = {0};
				repo_page_href(&path, rs->repo.repo, pg);
				url_el(&b, s->base, fl_buf_cstr(&path), rs->repo.analyzed_at);
				fl_buf_free(&path);
				in++;
			}
			for (; k < rs->n && in < SITEMAP_MAX; k++, in++) {
				char p[64];
				snprintf(p, sizeof p, "/errors/%s/", rs->entries[k].id);
				url_el(&b, s->base, p, rs->entries[k].content_changed_at);
			}
			fl_buf_puts(&b, "</urlset>\n");
			fl_buf rel = {0};
			fl_buf_puts(&rel, "sitemaps/repos/");
			fl_buf_puts(&rel, rs->repo.repo);
			if (part)
				fl_buf_printf(&rel, "-%zu", part + 1);
			fl_buf_puts(&rel, ".xml");
			const char *relp = fl_buf_cstr(&rel);
			rc = write_out(s, relp, &b, false);
			fl_buf_puts(&idx, "<sitemap><loc>");
			pub_html(&idx, s->base);
			fl_buf_puts(&idx, "/");
			const char *slash = strchr(relp + 15, '/');
			fl_buf_put(&idx, relp, 15);
			char *owner = fl_xstrndup(relp + 15, (size_t)(slash - relp - 15));
			pub_urlpart(&idx, owner);
			free(owner);
			fl_buf_puts(&idx, "/");
			pub_urlpart(&idx, slash + 1);
			fl_buf_puts(&idx, "</loc></sitemap>\n");
			fl_buf_free(&rel);
			part++;
		} while (rc == 0 && k < rs->n);
	}
	fl_buf_puts(&idx, "</sitemapindex>\n");
	if (rc == 0)
		rc = write_out(s, "sitemap.xml", &idx, false);
	fl_buf_free(&idx);
	fl_buf_free(&b);
	return rc;
}

static int text_files(site *s)
{
	fl_buf b = {0};
	fl_buf_puts(&b, "User-agent: *\nAllow: /\n");
	if (s->absolute)
		fl_buf_printf(&b, "\nSitemap: %s/sitemap.xml\n", s->base);
	int rc = write_out(s, "robots.txt", &b, false);
	b.n = 0;
	fl_buf_puts(&b, "# faultline\n\n> An error knowledge base built by static analysis of source code: "
		     "for every place a library or program raises an error, the exact message, a regex that "
		     "matches it at run time, the source line and a permalink, what it means, what triggers it "
		     "and how to fix it.\n\n");
	fl_buf_printf(&b, "Data set version %s: %zu errors in %zu repositories. Records are plain JSON "
		       "(schema version 2); every page has a JSON twin.\n\n## Data\n\n",
		       s->d->dataset_version, s->d->nerrors, s->d->nrepos);
	fl_buf_printf(&b, "- [Manifest](%s/data/manifest.json): version, counts, size and sha256 of the index, "
		       "the repository list and the inventory (poll this small file)\n"
		       "- [Inventory](%s/data/inventory.json): size and sha256 of every other file\n"
		       "- [Index](%s/data/index.json): one compact entry per error (id, repo, slug, code, message, pattern)\n"
		       "- [Repositories](%s/data/repos.json): RepoEntry list\n"
		       "- Error records: %s/data/errors/{id}.json; per repository: %s/data/repos/{owner}/{name}.json\n"
		       "- [Search](%s/search/): paste an error text; `GET /api/search?q=` when served by `faultline serve`\n\n"
		       "## Repositories\n\n", s->base, s->base, s->base, s->base, s->base, s->base, s->base);
	for (size_t i = 0; i < s->d->nrepos; i++) {
		const fl_repo *r = &s->d->repos[i].repo;
		fl_buf path = {0};
		repo_href(&path, r->repo);
		fl_buf_printf(&b, "- [%s](%s%s): %zu errors%s%s%s\n", r->repo, s->base, fl_buf_cstr(&path),
			       s->d->repos[i].n, r->language ? " (" : "", r->language ? r->language : "",
			       r->language ? ")" : "");
		fl_buf_free(&path);
	}
	if (rc == 0)
		rc = write_out(s, "llms.txt", &b, false);
	fl_buf_free(&b);
	return rc;
}

static int assets(site *s)
{
	fl_buf b = {0};
	fl_buf_puts(&b, pub_style_css);
	int rc = write_out(s, "assets/style.css", &b, false);
	b.n = 0;
	fl_buf_puts(&b, pub_search_js);
	if (rc == 0)
		rc = write_out(s, "assets/search.js", &b, false);
	b.n = 0;
	fl_buf_puts(&b, pub_filter_js);
	if (rc == 0)
		rc = write_out(s, "assets/filter.js", &b, false);
	fl_buf_free(&b);
	return rc;
}

/* ---- what an earlier rendering left --------------------------------------------
 * errors/{id}/ of records no longer in the data set, and every file of the
 * other generated folders that this rendering did not write. */

static void prune_tree(site *s, const char *rel)
{
	char *p = fl_xasprintf("%s/%s", s->out, rel);
	DIR *d = pub_opendir_nofollow(p);
	if (!d) {
		free(p);
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		char *child = fl_xasprintf("%s/%s", rel, de->d_name);
		char *cp = fl_xasprintf("%s/%s", s->out, child);
		size_t one;
		if (pub_is_dir(cp)) {
			prune_tree(s, child);
			rmdir(cp); /* only when now empty */
		} else if (!fl_strmap_get(&s->outputs, child, &one)) {
			unlink(cp);
		}
		free(cp);
		free(child);
	}
	closedir(d);
	free(p);
}

static void prune_stale(site *s)
{
	fl_strmap ids = {0};
	for (size_t i = 0; i < s->n; i++)
		fl_strmap_put(&ids, s->all[i]->id, i);
	char *ed = fl_xasprintf("%s/errors", s->out);
	DIR *d = pub_opendir_nofollow(ed);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		size_t ix;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
		    fl_strmap_get(&ids, de->d_name, &ix))
			continue;
		pub_rmtree_at(dirfd(d), de->d_name);
	}
	if (d)
		closedir(d);
	free(ed);
	fl_strmap_free(&ids);
	static const char *const trees[] = {"repos", "search", "sitemaps", "assets", NULL};
	for (int i = 0; trees[i]; i++)
		prune_tree(s, trees[i]);
}

/* ---- driver --------------------------------------------------------------------------- */

static int render(pub_dataset *dp, const char *out, const fl_site_opts *o,
		  fl_site_stats *stats, fl_err *err, double t0)
{
	pub_dataset d = *dp;
	site s = {0};
	s.out = out;
	s.d = &d;
	s.err = err;
	s.progress = o && o->progress;
	s.shown_at = fl_now_mono();
	pthread_mutex_init(&s.lock, NULL);
	/* without a base URL, links are paths: no canonical URL, and no
	 * sitemap (its URLs must be absolute) */
	s.absolute = o && o->base_url && *o->base_url;
	char *base = fl_xstrdup(s.absolute ? o->base_url : "");
	size_t bl = strlen(base);
	while (bl > 0 && base[bl - 1] == '/')
		base[--bl] = '\0';
	s.base = base;
	{
		/* listed in the inventory, so checked with the rest of the data */
		char *pp = fl_xasprintf("%s/data/provenance.json", out);
		s.prov_root = json_load_file(pp, 0, NULL);
		free(pp);
		s.prov = json_object_get(s.prov_root, "records");
		if (!json_is_object(s.prov))
			s.prov = NULL;
	}
	/* the versions of the repositories scanned with --history (side
	 * files listed in the inventory, so checked with the rest) */
	s.vers = fl_xcalloc(d.nrepos ? d.nrepos : 1, sizeof *s.vers);
	for (size_t i = 0; i < d.nrepos; i++) {
		char *vp = fl_xasprintf("%s/data/versions/%s.json", out, d.repos[i].repo.repo);
		s.vers[i] = json_load_file(vp, 0, NULL);
		free(vp);
	}
	s.n = d.nerrors;
	s.all = fl_xcalloc(s.n ? s.n : 1, sizeof *s.all);
	s.repo_of = fl_xcalloc(s.n ? s.n : 1, sizeof *s.repo_of);
	size_t k = 0;
	for (size_t i = 0; i < d.nrepos; i++)
		for (size_t j = 0; j < d.repos[i].n; j++, k++) {
			s.all[k] = &d.repos[i].entries[j];
			s.repo_of[k] = i;
		}
	s.page_from = fl_xcalloc(d.nrepos ? d.nrepos : 1, sizeof *s.page_from);
	s.npages = fl_xcalloc(d.nrepos ? d.nrepos : 1, sizeof *s.npages);
	paginate(&s);
	int rc = pub_mkdirs(out, err);
	char *ed = fl_xasprintf("%s/errors", out);
	if (rc == 0)
		rc = pub_mkdirs(ed, err);
	free(ed);
	if (rc == 0)
		rc = assets(&s);
	if (rc == 0) {
		long nth = sysconf(_SC_NPROCESSORS_ONLN);
		size_t nt = nth < 1 ? 1 : nth > 8 ? 8 : (size_t)nth;
		if (s.n < 256)
			nt = 1;
		pthread_t th[8];
		job jobs[8];
		for (size_t t = 0; t < nt; t++) {
			jobs[t] = (job){&s, t, s.n, nt, 0};
			if (nt == 1 || pthread_create(&th[t], NULL, error_pages, &jobs[t]) != 0) {
				error_pages(&jobs[t]);
				th[t] = 0;
			}
		}
		for (size_t t = 0; t < nt; t++) {
			if (nt > 1 && th[t])
				pthread_join(th[t], NULL);
			if (jobs[t].rc < 0)
				rc = -1;
		}
	}
	for (size_t i = 0; rc == 0 && i < d.nrepos; i++)
		for (size_t pg = 1; rc == 0 && pg <= repo_pages(&s, i); pg++)
			rc = repo_page(&s, i, pg);
	if (rc == 0)
		rc = home_page(&s);
	if (rc == 0)
		rc = search_page(&s);
	if (rc == 0)
		rc = not_found_page(&s);
	progress(&s, true);
	if (rc == 0 && s.absolute) {
		rc = sitemaps(&s);
	} else if (rc == 0) {
		char *p = fl_xasprintf("%s/sitemap.xml", out);
		unlink(p); /* of an earlier rendering with a base URL */
		free(p);
	}
	if (rc == 0)
		rc = text_files(&s);
	if (rc == 0)
		prune_stale(&s);
	if (rc == 0 && stats) {
		memset(stats, 0, sizeof *stats);
		stats->pages = s.pages;
		stats->files = s.files;
		stats->written = s.written;
		stats->bytes = s.bytes;
		stats->largest_error_page = s.largest;
		stats->seconds = fl_now_mono() - t0;
	}
	for (size_t i = 0; i < d.nrepos; i++)
		free(s.page_from[i]);
	free(s.page_from);
	free(s.npages);
	free(s.all);
	free(s.repo_of);
	free(base);
	json_decref(s.prov_root);
	for (size_t i = 0; i < d.nrepos; i++)
		json_decref(s.vers[i]);
	free(s.vers);
	fl_strmap_free(&s.outputs);
	pthread_mutex_destroy(&s.lock);
	return rc;
}

/* The site folder holds only regular files and folders: pages are written,
 * and stale ones removed, beneath it, and a link there (errors -> ~/x)
 * would have them written or removed elsewhere; a FIFO would be waited
 * for. */
static int check_out(const char *out, fl_err *err)
{
	int fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fl_seterr(err, "%s: %s", out, strerror(errno));
	int rc = pub_check_tree(fd, out, "a site folder", err);
	close(fd);
	return rc;
}

/* The copy of the data set that a new one replaced is removed on a thread
 * of its own while the pages are rendered: freeing 100k files is mostly
 * waiting for the disk. */
static void *remove_tree(void *arg)
{
	pub_rmtree(arg);
	return NULL;
}

int fl_site_build(const char *data_dir, const char *out_in, const fl_site_opts *o,
	    fl_site_stats *stats, fl_err *err)
{
	double t0 = fl_now_mono();
	char *out = pub_dir_norm(out_in);
	char *data = fl_xasprintf("%s/data", out), *old = NULL;
	pthread_t rm_th;
	bool remover = false;
	int rc = -1;
	pub_dataset d;
	if (pub_mkdirs(out, err) < 0 || check_out(out, err) < 0)
		goto done;
	{
		/* data/ is about to be another data set than the store's export */
		char *sp = fl_xasprintf("%s/" DATA_STAMP, out);
		unlink(sp);
		free(sp);
	}
	char a[PATH_MAX], b[PATH_MAX];
	bool same = realpath(data_dir, a) && realpath(data, b) && strcmp(a, b) == 0;
	/* checked before copying: a bad data set must not replace a good
	 * copy; only its listed files are copied */
	if (same ? pub_dataset_load(data_dir, &d, err) < 0
		 : pub_dataset_copy(data_dir, data, &d, &old, err) < 0)
		goto done;
	if (old)
		remover = pthread_create(&rm_th, NULL, remove_tree, old) == 0;
	if (old && !remover)
		pub_rmtree(old);
	rc = render(&d, out, o, stats, err, t0);
	pub_dataset_free(&d);
done:
	if (remover)
		pthread_join(rm_th, NULL);
	if (rc == 0 && stats)
		stats->seconds = fl_now_mono() - t0;
	free(old);
	free(data);
	free(out);
	return rc;
}

/* OUTDIR/.data-stamp: which state of which store OUTDIR/data was exported
 * from ("store GENERATION CHANGED_AT faultline VERSION"), and the sha256
 * of the manifest it wrote.  A store unchanged since (its change counter
 * and time, fl_store_generation) is not exported again: an export writes
 * every file anew under a new datasetVersion, so a second rendering of an
 * unchanged store would rewrite the whole data set and the pages that show
 * the version, and remove the previous copy file by file. */
static char *manifest_sha(const char *data)
{
	char *mp = fl_xasprintf("%s/manifest.json", data);
	size_t n = 0;
	fl_err e;
	char *m = pub_exists(mp) ? fl_read_file(mp, &n, &e) : NULL;
	free(mp);
	if (!m)
		return NULL;
	char *hex = fl_xcalloc(1, 65);
	pub_sha256_hex(m, n, hex);
	free(m);
	return hex;
}

/* 0: data is still the export of this state of the store, and loaded
 * (checked: the stamp says where it came from, not that it is whole) */
static int reuse_export(const char *out, const char *data, const char *state, pub_dataset *d)
{
	char *sp = fl_xasprintf("%s/" DATA_STAMP, out);
	size_t n = 0;
	fl_err e;
	char *old = pub_exists(sp) ? fl_read_file(sp, &n, &e) : NULL;
	free(sp);
	char *sha = old ? manifest_sha(data) : NULL;
	char *want = sha ? fl_xasprintf("%s\n%s\n", state, sha) : NULL;
	int rc = want && strcmp(old, want) == 0 ? pub_dataset_load(data, d, &e) : -1;
	free(want);
	free(sha);
	free(old);
	return rc;
}

int fl_site_from_store(fl_store *st, const char *out_in, const fl_site_opts *o,
		       fl_site_stats *stats, fl_err *err)
{
	double t0 = fl_now_mono();
	char *out = pub_dir_norm(out_in);
	char *data = fl_xasprintf("%s/data", out);
	char *sp = fl_xasprintf("%s/" DATA_STAMP, out);
	int rc = -1;
	pub_dataset d;
	long long gen = 0;
	char changed[32];
	if (pub_mkdirs(out, err) < 0 || check_out(out, err) < 0 ||
	    fl_store_generation(st, &gen, changed, err) < 0)
		goto done;
	char *state = fl_xasprintf("store %lld %s faultline %s", gen, changed, FL_VERSION);
	bool loaded = reuse_export(out, data, state, &d) == 0;
	if (!loaded) {
		unlink(sp);
		if (o && o->progress)
			fprintf(stderr, "faultline: site: exporting the data set into %s\n", data);
		/* the counter read before the export: a write meanwhile makes
		 * the next rendering export again */
		if (fl_export(st, data, NULL, err) == 0 &&
		    pub_dataset_load_trusted(data, &d, err) == 0) {
			loaded = true;
			char *sha = manifest_sha(data);
			char *stamp = fl_xasprintf("%s\n%s\n", state, sha ? sha : "");
			fl_err e;
			if (sha)
				pub_write_file(sp, stamp, strlen(stamp), &e);
			free(stamp);
			free(sha);
		}
	}
	free(state);
	if (loaded) {
		rc = render(&d, out, o, stats, err, t0);
		pub_dataset_free(&d);
	}
done:
	free(sp);
	free(data);
	free(out);
	return rc;
}
