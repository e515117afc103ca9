/*
 * lang.c — the Go family's entry (see go.h)
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "go.h"

static bool go_is_test_file(const char *path)
{
	size_t n = strlen(path);
	return n >= 8 && strcmp(path + n - 8, "_test.go") == 0;
}

/* ---- the collect pass ------------------------------------------------------------ */

static void go_collect(void *tree, const fl_src *src)
{
	gotree *g = tree;
	/* a helper's arguments: `args ...any` or `...interface{}` (gofmt's
	 * spelling) */
	if (!g || !src->text || src->len < 16 || (src->path && go_is_test_file(src->path)))
		return;
	const char *x = src->text;
	size_t xn = src->len;
	bool tmpl = fl_memmem(x, xn, ") Error() string {", 18) != NULL;
	if (!tmpl && !go_may_plain_helper(x, xn) && !fl_memmem(x, xn, "...any", 6) &&
	    !fl_memmem(x, xn, "...interface{}", 14))
		return;
	fl_toks t;
	fl_toks_init(&t, src);
	go_lex(&t);
	size_t *m = fl_tok_match_table(&t, FL_MATCH_STRICT);
	const char *sl = src->path ? strrchr(src->path, '/') : NULL;
	char *dir = sl ? fl_xstrndup(src->path, (size_t)(sl - src->path)) : fl_xstrdup("");
	go_imps im;
	go_imps_of(&t, m, &im);
	for (size_t i = 0; i + 3 < t.n; i++) {
		if (!fl_tok_is_ident(&t, i, "func"))
			continue;
		if (i == 0 || (t.v[i].flags & FL_TF_NL_BEFORE)) {
			go_collect_func(g, &t, m, i, dir, &im);
			if (tmpl)
				go_tmpl_collect(g, &t, m, i, dir);
		}
		/* a helper of a function's own: `failf := func(format string,
		 * a ...any) error { return fmt.Errorf(format, a...) }`, called
		 * as any helper of its folder */
		else if (i >= 2 && fl_tok_is(&t, i - 1, ":=") && t.v[i - 2].kind == FL_TK_IDENT &&
			 (t.v[i - 2].flags & FL_TF_NL_BEFORE) && fl_tok_pch(&t, i + 1) == '(' &&
			 m[i + 1] != NONE)
			go_collect_helper(g, &t, m, i - 2, i + 1, false, dir, &im);
	}
	free(dir);
	free(m);
	fl_toks_free(&t);
}

/* a path with a folder named `test` below the tree's top (filter.c lets
 * such a folder in for Go: a package like any other) */
static bool go_in_test_package(const char *path)
{
	return strstr(path, "/test/") != NULL;
}

/* a file of such a folder that only tests use: a program (package main)
 * or a helper package importing "testing" or a test framework */
static bool go_test_only(const fl_toks *t, const size_t *m)
{
	static const char *const tpk[] = {"testing", "github.com/stretchr/testify",
		"github.com/onsi/ginkgo", "github.com/onsi/gomega", "gotest.tools", NULL};
	for (size_t i = 0; i + 1 < t->n; i++) {
		if (t->v[i].kind != FL_TK_IDENT)
			continue;
		if (fl_tok_is(t, i, "package"))
			if (fl_tok_is_ident(t, i + 1, "main"))
				return true;
		if (fl_tok_is(t, i, "func"))
			break; /* the imports come first */
		if (!fl_tok_is(t, i, "import"))
			continue;
		size_t e = fl_tok_pch(t, i + 1) == '(' && m[i + 1] != NONE ? m[i + 1] : i + 3;
		for (size_t k = i + 1; k < e && k < t->n; k++) {
			if (t->v[k].kind != FL_TK_STRING)
				continue;
			const char *s = fl_tok_str(t, &t->v[k]);
			size_t n = t->v[k].slen;
			for (const char *const *p = tpk; *p; p++) {
				size_t l = strlen(*p);
				if (n >= l && memcmp(s, *p, l) == 0 && (n == l || s[l] == '/'))
					return true;
			}
		}
	}
	return false;
}
static void go_scan(const void *tree, const fl_src *src, fl_sites *out)
{
	fl_toks tk;
	fl_toks_init(&tk, src);
	go_lex(&tk);
	const fl_toks *t = &tk;
	go_st st = {0};
	st.t = t;
	st.out = out;
	st.tree = tree;
	const char *sl = src->path ? strrchr(src->path, '/') : NULL;
	char *dir = sl ? fl_xstrndup(src->path, (size_t)(sl - src->path)) : fl_xstrdup("");
	st.dir = dir;
	st.m = fl_tok_match_table(t, FL_MATCH_STRICT);
	if (tree && ((const gotree *)tree)->n)
		go_imps_of(t, st.m, &st.imps);
	if (go_in_test_package(src->path) && go_test_only(t, st.m)) {
		free(st.m);
		free(dir);
		fl_toks_free(&tk);
		return;
	}
	st.csc = 64;
	st.cs = fl_xmalloc(st.csc * sizeof *st.cs);
	memset(&st.cs[0], 0, sizeof st.cs[0]);
	st.cs[0].open = NONE;
	st.csn = 1;
	st.var_open = st.var_close = st.consumed = NONE;
	st.if_open = NONE;
	st.errm_open = st.errm_close = st.errm_type = NONE;
	go_collect_consts(&st.kc, t, st.m);
	fl_helper_budget_reset(t->n);
	/* the package clause comes first */
	if (t->n > 1 && fl_tok_is(t, 0, "package") && t->v[1].kind == FL_TK_IDENT)
		st.pkg = fl_tok_dup(t, 1);

	for (size_t i = 0; i < t->n; i++) {
		char c = fl_tok_pch(t, i);
		if (c == '{') {
			go_ctx_push(&st, i);
			continue;
		}
		if (c == '}') {
			go_ctx_pop(&st, i);
			continue;
		}
		if (t->v[i].kind != FL_TK_IDENT)
			continue;
		if (fl_tok_pch(t, i + 1) == '(' && (t->src[t->v[i].off] == 'p' ||
					     (t->src[t->v[i].off] >= 'A' && t->src[t->v[i].off] <= 'Z'))) {
			go_call(&st, i);
			continue;
		}
		/* a value of an error type made with literal fields:
		 * LangError{Feature: "arrays", ...} */
		if (fl_tok_pch(t, i + 1) == '{' && tree && ((const gotree *)tree)->tn &&
		    go_error_literal(&st, i))
			continue;
		/* a call of one of the tree's format helpers: failf("...") */
		if (fl_tok_pch(t, i + 1) == '(' && tree && ((const gotree *)tree)->n &&
		    go_lower_call(&st, i))
			continue;
		if (st.errm_open != NONE && i > st.errm_open && i < st.errm_close &&
		    fl_tok_is(t, i, "return")) {
			go_error_method_return(&st, i);
			continue;
		}
		if (t->v[i].len == 6 && fl_tok_is(t, i, "import")) {
			go_import(&st, i);
			continue;
		}
		if (t->v[i].len > 4 || !memchr("fiv", t->src[t->v[i].off], 3))
			continue;
		if (fl_tok_is(t, i, "func")) {
			go_func(&st, i);
			continue;
		}
		if (fl_tok_is(t, i, "if")) {
			size_t semi;
			size_t b = go_find_if_body(&st, i + 1, &semi);
			size_t gb = semi != NONE ? semi + 1 : i + 1;
			if (b != NONE && gb < b)
				go_pend_add(&st, b, P_GUARD, NULL, gb, b);
			continue;
		}
		if (fl_tok_is(t, i, "var") && fl_tok_pch(t, i + 1) == '(' && st.m[i + 1] != NONE) {
			st.var_open = i + 1;
			st.var_close = st.m[i + 1];
			continue;
		}
	}
	for (size_t i = 0; i < st.csn; i++)
		free(st.cs[i].own_fn);
	for (size_t i = 0; i < st.np; i++)
		free(st.pend[i].name);
	free(st.cs);
	free(st.kc.name);
	free(st.kc.lit);
	fl_strmap_free(&st.kc.idx);
	free(st.m);
	free(st.pkg);
	free(dir);
	fl_toks_free(&tk);
}

static const char *const go_exts[] = {".go", NULL};

const fl_lang fl_lang_go = {
	.name = "go",
	.extensions = go_exts,
	.is_test_file = go_is_test_file,
	.test_folder_is_package = true,
	.docs_folder_is_package = true,
	.late_text = true,
	.tree_new = go_tree_new,
	.tree_free = go_tree_free,
	.collect = go_collect,
	.tree_merge = go_tree_merge,
	.scan = go_scan,
};
