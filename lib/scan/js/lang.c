/*
 * lang.c — the JavaScript / TypeScript family's entry in the language
 * table (lib/scan/js/, js.h): the tree's collect pass (error classes,
 * createError classes, factories, reporters, message templates, from
 * every file), the scan of one file, and which files are tests.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "js.h"
#include "../sites.h"

static bool jsx_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	return !(dot && (strcmp(dot, ".ts") == 0 || strcmp(dot, ".mts") == 0 ||
			 strcmp(dot, ".cts") == 0));
}

/* A byte scan: the file may declare a table of messages by code (`var
 * warnings = {`, `const ERRORS = {`, `errorMessages = {`). */
static bool js_may_have_msg_table(const char *s, size_t n)
{
	static const char *const pats[] = {"rrors = {", "RRORS = {", "arnings = {", "ARNINGS = {",
					   "essages = {", "ESSAGES = {", NULL};
	for (const char *const *p = pats; *p; p++)
		if (fl_memmem(s, n, *p, strlen(*p)))
			return true;
	return false;
}

/* a key that is a code another file reports by: E001, W033, TS2304,
 * E_CONFIG */
static bool table_code(const char *s, size_t n)
{
	size_t a = 0;
	while (a < n && a < 4 && s[a] >= 'A' && s[a] <= 'Z')
		a++;
	size_t d = a;
	while (d < n && s[d] >= '0' && s[d] <= '9')
		d++;
	return (a >= 1 && a <= 3 && d == n && d - a >= 2 && d - a <= 5) || js_code_key(s, n);
}

/* the texts of a file's message tables by code, into the tree as
 * "msgkey:CODE" (status: 1 for a table of warnings), and of its tables of
 * texts by name as "msgname:NAME" */
static void js_table_collect(fl_classdefs *tr, const ctx *c)
{
	const fl_toks *t = &c->t;
	size_t *keys = NULL, *vb = NULL, *ve = NULL;
	for (size_t i = 0; i + 3 < t->n; i++) {
		if (!(is_id(c, i, "const") || is_id(c, i, "var") || is_id(c, i, "let")) ||
		    !(is_p(c, i + 2, "=") || is_p(c, i + 2, ":")))
			continue;
		if (!keys) {
			keys = fl_xmalloc(3 * JS_TABLE_MAX * sizeof *keys);
			vb = keys + JS_TABLE_MAX;
			ve = vb + JS_TABLE_MAX;
		}
		bool warn;
		size_t nk = js_msg_table(c, i, keys, vb, ve, &warn);
		for (size_t q = 0; q < nk && tr->n < 65536; q++) {
			size_t k = keys[q];
			const char *ks = is_kind(c, k, FL_TK_STRING) ? fl_tok_str(t, &t->v[k]) : t->src + t->v[k].off;
			size_t kl = is_kind(c, k, FL_TK_STRING) ? t->v[k].slen : t->v[k].len;
			if (!is_kind(c, k, FL_TK_IDENT) && !is_kind(c, k, FL_TK_STRING))
				continue;
			if (kl > 40 || !table_code(ks, kl))
				continue;
			char *msg = js_msg_of(c, vb[q], ve[q]);
			if (!msg || !strchr(msg, ' ')) {
				free(msg);
				continue;
			}
			char *key = fl_xasprintf("msgkey:%.*s", (int)kl, ks);
			fl_classdefs_add(tr, key, msg, fl_xstrndup(ks, kl), warn ? 1 : 0);
			free(key);
		}
		/* a table of texts by name: "msgname:KEY" (js_i18n_msg) */
		nk = js_text_table(c, i, keys, vb, ve);
		for (size_t q = 0; q < nk && tr->n < 65536; q++) {
			size_t k = keys[q];
			if (!is_kind(c, k, FL_TK_IDENT) || t->v[k].len > 64)
				continue;
			char *msg = js_msg_of(c, vb[q], ve[q]);
			if (!msg || !strchr(msg, ' ')) {
				free(msg);
				continue;
			}
			char *key = fl_xasprintf("msgname:%.*s", (int)t->v[k].len, t->src + t->v[k].off);
			fl_classdefs_add(tr, key, msg, NULL, 0);
			free(key);
		}
	}
	free(keys);
}

static void js_collect(void *tree, const fl_src *src)
{
	fl_classdefs *tr = tree;
	const char *tn;
	size_t tl;
	bool tf = js_tpl_file(src->path, &tn, &tl);
	bool tables = src->text && js_may_have_msg_table(src->text, src->len);
	if (!tr || !src->text ||
	    (!tf && !tables && !js_has_error_class(src->text, src->len) &&
	     !js_has_factory_decl(src->text, src->len) && !js_has_reporter(src->text, src->len) &&
	     !js_has_pfactory(src->text, src->len) && !js_has_log_factory(src->text, src->len)))
		return;
	bool lfac = js_has_log_factory(src->text, src->len);
	ctx c = {0};
	fl_toks_init(&c.t, src);
	fl_js_lex(&c.t, jsx_of(src->path));
	c.match = fl_tok_match_table(&c.t, FL_MATCH_SKIP_ONE);
	if (tf)
		js_tpl_collect(tr, &c, tn, tl);
	if (tables)
		js_table_collect(tr, &c);
	for (size_t i = 0; i + 2 < c.t.n && tr->n < 65536; i++) {
		/* NAME: createError('CODE', 'message', ...) or NAME = ... */
		if (i >= 2 && is_id(&c, i, "createError") && is_p(&c, i + 1, "(") &&
		    is_kind(&c, i - 2, FL_TK_IDENT) &&
		    (is_p(&c, i - 1, ":") || is_p(&c, i - 1, "="))) {
			char *msg, *code;
			int http;
			if (js_code_first_create(&c, i + 1, &msg, &code, &http, NULL)) {
				char *name = fl_tok_dup(&c.t, i - 2);
				fl_classdefs_add(tr, name, msg, code, http);
				free(name);
			}
			continue;
		}
		if (is_id(&c, i, "function") || (is_kind(&c, i, FL_TK_IDENT) && is_p(&c, i + 1, "("))) {
			js_reporter_collect(tr, &c, i);
			js_pfac_collect(tr, &c, i);
		}
		if (lfac && is_id(&c, i, "function"))
			js_log_factory_collect(tr, &c, i);
		size_t fn;
		char *fm = is_id(&c, i, "function") ? js_factory_msg(&c, i, &fn) : NULL;
		if (fm) {
			char *key = fl_xasprintf("fac:%.*s", (int)c.t.v[fn].len, c.t.src + c.t.v[fn].off);
			fl_classdefs_add(tr, key, fm, NULL, 0);
			free(key);
			continue;
		}
		jsclass jc;
		if (!is_id(&c, i, "class") || !js_class_defaults(&c, i, &jc))
			continue;
		char *name = fl_tok_dup(&c.t, jc.name);
		if (jc.tpl != NONE) {
			char *key = fl_xasprintf("tplof:%s", name);
			fl_classdefs_add(tr, key, fl_xstrdup(fl_tok_str(&c.t, &c.t.v[jc.tpl])),
					 NULL, 0);
			free(key);
		}
		fl_classdefs_add_params(tr, name, jc.msg, jc.code, 0, jc.params);
		free(name);
	}
	/* the functions that hand a parameter on to a reporter, then those
	 * that hand one on to them */
	for (int round = 0; round < 2; round++) {
		bool more = false;
		for (size_t i = 0; i + 2 < c.t.n && tr->n < 65536; i++)
			if (is_id(&c, i, "function"))
				more |= js_reporter_forward(tr, &c, i);
		if (!more)
			break;
	}
	free(c.match);
	fl_toks_free(&c.t);
}

static void scan(const void *tree, const fl_src *src, fl_sites *out)
{
	ctx c = {0};
	c.tree = tree;
	fl_toks_init(&c.t, src);
	const char *dot = src->path ? strrchr(src->path, '.') : NULL;
	bool jsx = true;
	if (dot && (strcmp(dot, ".ts") == 0 || strcmp(dot, ".mts") == 0 ||
		    strcmp(dot, ".cts") == 0))
		jsx = false;
	fl_js_lex(&c.t, jsx);
	c.out = out;
	c.match = fl_tok_match_table(&c.t, FL_MATCH_SKIP_ONE);
	c.used = fl_xcalloc(c.t.n + 1, 1);
	c.out_base = out->n;
	fl_helper_budget_reset(c.t.n);
	if (src->text && js_has_error_class(src->text, src->len))
		js_class_sites(&c);
	const char *tn;
	size_t tl;
	if (js_tpl_file(src->path, &tn, &tl))
		js_tpl_sites(&c, tn, tl);
	c.hoek = src->text && fl_memmem(src->text, src->len, "hoek", 4) != NULL;
	char *alt = NULL;
	c.alt = &alt;
	js_rules(&c);
	js_lint_free(&c);
	free(alt);
	js_drop_category_codes(&c);
	free(c.argc_v);
	free(c.used);
	free(c.match);
	free(c.fr);
	fl_toks_free(&c.t);
}

static bool is_test_file(const char *path)
{
	static const char *const exts[] = {".js",  ".jsx", ".ts", ".tsx",
					   ".mjs", ".cjs", ".mts", ".cts",
					   NULL};
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	if (!dot)
		return false;
	bool ok = false;
	for (const char *const *e = exts; *e; e++)
		if (strcmp(dot, *e) == 0)
			ok = true;
	if (!ok)
		return false;
	size_t stem = (size_t)(dot - base);
	static const char *const sfx[] = {".test", ".spec", "_test", NULL};
	for (const char *const *s = sfx; *s; s++) {
		size_t l = strlen(*s);
		if (stem > l && memcmp(dot - l, *s, l) == 0)
			return true;
	}
	return false;
}

static const char *const interpreters[] = {"node", "nodejs", NULL};
static const char *const exts[] = {".js",  ".jsx", ".mjs", ".cjs", ".ts",
				   ".tsx", ".mts", ".cts", NULL};

const fl_lang fl_lang_js = {.name = "js",
			    .extensions = exts,
			    .interpreters = interpreters,
			    .is_test_file = is_test_file,
			    .tree_new = fl_classdefs_new,
			    .tree_free = fl_classdefs_free,
			    .collect = js_collect,
			    .tree_merge = fl_classdefs_merge,
			    .scan = scan};
