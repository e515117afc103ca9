/*
 * lang.c — the JVM family's entry in the language table (jvm.h): Java,
 * Kotlin and Scala by extension (and the message bundles their code
 * reports by, bundle.c, and the Java of JFlex's and CUP's specs,
 * spec.c), their test files by name, and the scan of one file (lexed, or
 * the collect pass's tokens, then walked).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "jvm.h"

/* .kt, .kts: Kotlin; .scala, .sc: Scala; else Java */
int jvm_dialect_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (dot && (strcmp(dot, ".kt") == 0 || strcmp(dot, ".kts") == 0))
		return D_KOTLIN;
	if (dot && (strcmp(dot, ".scala") == 0 || strcmp(dot, ".sc") == 0))
		return D_SCALA;
	return D_JAVA;
}

/* cp: the context to start from (an early scan's log); the tokens are the
 * collect pass's when it kept them (src->cache) */
void jvm_scan_ctx(ctx *cp, const void *tree, const fl_src *src, fl_sites *out)
{
	if (jvm_props_path(src->path)) {
		/* a bundle: read by the collect pass, no code */
		jvm_lexed_free(src->cache);
		return;
	}
	ctx c = *cp;
	c.ctors = tree;
	c.d = jvm_dialect_of(src->path);
	c.out = out;
	jvm_lexed *x = src->cache;
	/* a lexer's or parser's spec is read as its Java (spec.c) */
	fl_src spec = *src;
	char *own = NULL;
	if (x) {
		/* lexed by the collect pass, from this same text */
		c.t = x->t;
		c.match = x->match;
		own = x->text;
		if (own)
			spec.text = own;
		free(x);
	} else {
		if (jvm_spec_path(src->path))
			spec.text = own = jvm_spec_mask(src->path, src->text, src->len);
		fl_toks_init(&c.t, &spec);
		jvm_lex(&c.t, c.d);
		c.match = fl_tok_match_table(&c.t, FL_MATCH_INNERMOST);
	}
	c.src = &spec;
	jvm_consts consts = {0};
	c.consts = &consts;
	fl_helper_budget_reset(c.t.n);
	jvm_walk(&c);
	free(consts.v);
	fl_factories_free(&c.fac);
	fl_factories_free(&c.raisers);
	fl_strmap_free(&c.own);
	free(c.match);
	fl_scopes_free(&c.sc);
	fl_toks_free(&c.t);
	free(own);
}

static void jvm_scan(const void *tree, const fl_src *src, fl_sites *out)
{
	ctx c;
	memset(&c, 0, sizeof c);
	jvm_scan_ctx(&c, tree, src, out);
}

static bool jvm_is_test_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	static const char *const suf[] = {
		"Test.java", "Tests.java", "IT.java", "TestCase.java",
		"Test.kt", "Tests.kt", "IT.kt",
		"Spec.scala", "Test.scala", "Suite.scala", "Tests.scala",
		NULL};
	for (const char *const *s = suf; *s; s++)
		if (ends_with(base, n, *s))
			return true;
	return false;
}

static const char *const jvm_exts[] = {".java", ".kt", ".kts", ".scala",
				       ".properties",
				       /* lexer and parser specs: their Java (spec.c) */
				       ".flex", ".jflex", ".cup", NULL};

const fl_lang fl_lang_jvm = {
	.name = "jvm",
	.extensions = jvm_exts,
	.printf_ints = true,
	.is_test_file = jvm_is_test_file,
	.data_file = jvm_props_path,
	.tree_new = fl_factories_tree_new,
	.tree_free = fl_factories_tree_free,
	.collect = jvm_collect,
	.tree_merge = fl_factories_tree_merge,
	.collect_keep = jvm_collect_keep,
	.cache_free = jvm_lexed_free,
	.collect_scan = jvm_collect_scan,
	.early_holds = jvm_early_holds,
	.early_free = jvm_early_free,
	.hint_new = jvm_hint_new,
	.hint_free = jvm_hint_free,
	.scan = jvm_scan,
};
