/*
 * html.c — Markdown fields to HTML with cmark-gfm.  Raw HTML in a field is
 * shown as text (never passed through), unsafe link schemes are dropped by
 * cmark's safe mode.  A small cache keeps the HTML of short fields seen
 * before (generated explanations repeat a lot across records).
 * cmark-gfm is loaded on the first field (cmarklib.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cmarklib.h"
#include "publish.h"
#include "strmap.h"
#include "util.h"

/* GFM tables, strikethrough and autolinks (not tag filtering: raw HTML
 * never reaches the output anyway). */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static cmark_syntax_extension *ext[3];

#define C (fl_cmark())

static void register_extensions(void)
{
	C->core_extensions_ensure_registered();
	ext[0] = C->find_syntax_extension("table");
	ext[1] = C->find_syntax_extension("strikethrough");
	ext[2] = C->find_syntax_extension("autolink");
}

/* Turn raw HTML nodes into text so the renderer escapes them. */
static void html_to_text(cmark_node *root)
{
	cmark_iter *it = C->iter_new(root);
	cmark_event_type ev;
	cmark_node **todo = NULL;
	size_t n = 0, cap = 0;
	while ((ev = C->iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = C->iter_get_node(it);
		cmark_node_type t = C->node_get_type(node);
		if (ev == CMARK_EVENT_ENTER &&
		    (t == CMARK_NODE_HTML_INLINE || t == CMARK_NODE_HTML_BLOCK)) {
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				todo = fl_xrealloc(todo, cap * sizeof *todo);
			}
			todo[n++] = node;
		}
	}
	C->iter_free(it);
	for (size_t i = 0; i < n; i++) {
		cmark_node *node = todo[i];
		const char *lit = C->node_get_literal(node);
		cmark_node *text = C->node_new(CMARK_NODE_TEXT);
		C->node_set_literal(text, lit ? lit : "");
		if (C->node_get_type(node) == CMARK_NODE_HTML_BLOCK) {
			cmark_node *para = C->node_new(CMARK_NODE_PARAGRAPH);
			C->node_append_child(para, text);
			text = para;
		}
		C->node_insert_before(node, text);
		C->node_free(node);
	}
	free(todo);
}

void pub_markdown(fl_buf *b, const char *md)
{
	pub_markdown_cached(NULL, b, md);
}

#define MD_CACHED_MAX 1024   /* longer fields are rendered every time */

void pub_md_cache_free(pub_md_cache *c)
{
	for (size_t i = 0; i < PUB_MD_SLOTS; i++) {
		free(c->md[i]);
		free(c->html[i]);
	}
	memset(c, 0, sizeof *c);
}

void pub_markdown_cached(pub_md_cache *c, fl_buf *b, const char *md)
{
	if (!md || !*md)
		return;
	size_t len = strlen(md);
	size_t slot = 0;
	if (c && len <= MD_CACHED_MAX) {
		slot = fl_fnv1a(md, len) % PUB_MD_SLOTS;
		if (c->md[slot] && strcmp(c->md[slot], md) == 0) {
			fl_buf_puts(b, c->html[slot]);
			return;
		}
	}
	size_t at = b->n;
	const char *orig = md;
	char *fixed = NULL;
	size_t n = strlen(md);
	if (!fl_utf8_valid(md, n)) {
		fixed = fl_utf8_fix(md, n);
		md = fixed;
		n = strlen(md);
	}
	pthread_once(&once, register_extensions);
	cmark_parser *p = C->parser_new(CMARK_OPT_DEFAULT);
	for (int i = 0; i < 3; i++)
		if (ext[i])
			C->parser_attach_syntax_extension(p, ext[i]);
	C->parser_feed(p, md, n);
	cmark_node *doc = C->parser_finish(p);
	html_to_text(doc);
	char *html = C->render_html(doc, CMARK_OPT_DEFAULT, C->parser_get_syntax_extensions(p));
	C->parser_free(p);
	fl_buf_puts(b, html);
	free(html);
	if (c && len <= MD_CACHED_MAX) {
		free(c->md[slot]);
		free(c->html[slot]);
		c->md[slot] = fl_xstrdup(orig);
		c->html[slot] = b->s ? fl_xstrndup(b->s + at, b->n - at) : fl_xstrdup("");
	}
	C->node_free(doc);
	free(fixed);
}
