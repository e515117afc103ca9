/*
 * lang.c — the Rust family's entry in the language table (rust.h): the walk
 * over one file's tokens (the context kept, the rules tried at each
 * token), the scan, the collect pass that keeps the file's variants'
 * messages, and the early scan with its log of the variants a file builds.
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rust.h"

/* One file's scan: its sites into out (NULL: none), its variants'
 * messages into part (NULL: not kept), the variants it builds looked up in
 * tree or, with log, logged. */
static void rs_walk(const fl_factories *tree, fl_factories *part, fl_buf *log,
		    const fl_src *src, fl_sites *out)
{
	fl_toks tk;
	fl_toks_init(&tk, src);
	rs_lex(&tk);
	const fl_toks *t = &tk;
	rs_st st = {0};
	st.t = t;
	st.out = out;
	st.tree = tree;
	st.part = part;
	st.log = log;
	st.m = fl_tok_match_table(t, FL_MATCH_STRICT);
	st.csc = 64;
	st.cs = fl_xmalloc(st.csc * sizeof *st.cs);
	memset(&st.cs[0], 0, sizeof st.cs[0]);
	st.cs[0].open = NONE;
	st.cs[0].arm_start = st.cs[0].inner_close = st.cs[0].arm_body = NONE;
	st.csn = 1;
	st.if_open = NONE;

	for (size_t i = 0; i < t->n; i++) {
		const fl_tok *k = &t->v[i];
		char c = fl_tok_pch(t, i);
		rs_track_arm(&st, i, c);
		if (c == '{') {
			rs_ctx_push(&st, i);
			continue;
		}
		if (c == '}') {
			rs_ctx_pop(&st, i);
			continue;
		}
		if (k->kind == FL_TK_IDENT)
			rs_track_keyword(&st, i);
		if (c == '#') {
			rs_track_attr(&st, i);
			continue;
		}
		const rs_ctx *top = &st.cs[st.csn - 1];
		if (k->kind == FL_TK_IDENT && k->len == 3 && fl_tok_is(t, i, "use"))
			rs_track_use(&st, i);
		if (top->test || st.file_test)
			continue;
		if (k->kind == FL_TK_IDENT && (st.globs.n || st.imp_name.n))
			rs_rule_bare_variant(&st, i);
		if (k->kind == FL_TK_IDENT) {
			char n1 = fl_tok_pch(t, i + 1);
			if (n1 != '!' && n1 != '(' && !fl_tok_is_punct(t, i + 1, "::"))
				continue;
		} else if (c != '.' || fl_tok_pch(t, i + 2) != '(') {
			continue;
		}
		rs_rule_call(&st, i);
	}
	rs_reporters_forward(&st);
	for (size_t i = 0; i < st.csn; i++)
		rs_ctx_free(&st.cs[i]);
	for (size_t i = 0; i < st.np; i++)
		free(st.pend[i].name);
	fl_strv_free(&st.globs);
	fl_strv_free(&st.imp_name);
	fl_strv_free(&st.imp_full);
	free(st.cs);
	free(st.m);
	fl_toks_free(&tk);
}

static void rs_scan(const void *tree, const fl_src *src, fl_sites *out)
{
	rs_walk(tree, NULL, NULL, src, out);
}

/* The collect pass: the messages of the file's error variants (declared
 * with #[error] or in a Display of an error type). */
static void rs_collect(void *tree, const fl_src *src)
{
	if (!src->text || (!memmem(src->text, src->len, "#[error", 7) &&
			   !memmem(src->text, src->len, "Display", 7) &&
			   !memmem(src->text, src->len, "eprint", 6) &&
			   !memmem(src->text, src->len, "anyhow!", 7) &&
			   !memmem(src->text, src->len, "bail!", 5) &&
			   !memmem(src->text, src->len, "panic!", 6) &&
			   !memmem(src->text, src->len, "error!", 6) &&
			   !memmem(src->text, src->len, "warn!", 5) &&
			   !memmem(src->text, src->len, "macro_rules!", 12) &&
			   !memmem(src->text, src->len, "Error {", 7)))
		return;
	rs_walk(NULL, tree, NULL, src, NULL);
}

/* Collected and scanned at once, as if no file declared a variant: the
 * log of the variants the file builds (lang.h: collect_scan). */
static void *rs_collect_scan(void *part, const fl_src *src, fl_sites *out, void *hint)
{
	(void)hint;
	fl_buf *log = fl_xcalloc(1, sizeof *log);
	if (src->text)
		rs_walk(NULL, part, log, src, out);
	return log;
}

void rs_log_lookup(rs_st *st, const char *name, size_t n, size_t nargs, uint32_t mask)
{
	uint32_t h[3] = {(uint32_t)n, (uint32_t)nargs, mask};
	fl_buf_put(st->log, (const char *)h, sizeof h);
	fl_buf_put(st->log, name, n);
}

/* Whether the reporter f, called with the arguments mask may give a text
 * to, can make a site: one of them is a parameter its message names (a
 * reporter of one parameter: the first). */
static bool gives_message(const fl_factory *f, uint32_t mask)
{
	if (mask == UINT32_MAX)
		return true;
	if (!f->tag)
		return mask & 1;
	for (size_t k = 0; k < f->np && k < 32; k++) {
		if (!(mask >> k & 1))
			continue;
		size_t l = strlen(f->param[k]);
		for (const char *p = f->msg; (p = strchr(p, '{')) != NULL; p++)
			if (strncmp(p + 1, f->param[k], l) == 0 && p[1 + l] == '}')
				return true;
	}
	return false;
}

/* The early scan stands when the tree knows none of the variants built
 * and none of the reporters called with a text for their message. */
static bool rs_early_holds(const void *tree, const void *log)
{
	const fl_buf *b = log;
	for (size_t p = 0; p + 3 * sizeof(uint32_t) <= b->n;) {
		uint32_t h[3];
		memcpy(h, b->s + p, sizeof h);
		p += sizeof h;
		const fl_factory *f = fl_factories_find(tree, b->s + p, h[0], h[1]);
		if (f && gives_message(f, h[2]))
			return false;
		p += h[0];
	}
	return true;
}

static void rs_early_free(void *log)
{
	if (log)
		fl_buf_free(log);
	free(log);
}

static const char *const rs_exts[] = {".rs", NULL};

const fl_lang fl_lang_rust = {
	.name = "rust",
	.docs_folder_is_package = true,
	.late_text = true,
	.extensions = rs_exts,
	.tree_new = fl_factories_tree_new,
	.tree_free = fl_factories_tree_free,
	.collect = rs_collect,
	.tree_merge = fl_factories_tree_merge,
	.collect_scan = rs_collect_scan,
	.early_holds = rs_early_holds,
	.early_free = rs_early_free,
	.scan = rs_scan,
};
