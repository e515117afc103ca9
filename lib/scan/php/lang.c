/*
 * lang.c — the PHP family's tree and its entry in the language table
 * (lib/scan/php/, php.h): the collect pass (the classes a file declares
 * and extends, the messages it throws them with, the messages their
 * constructors make; the rule catalogues of XML files, catalog.c), the
 * scan of a file, the tests' files.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "php.h"

static void *tree_new(void)
{
	php_tree *t = fl_xcalloc(1, sizeof *t);
	t->thrown = fl_classdefs_new();
	t->decl = fl_classdefs_new();
	t->ctor = fl_classdefs_new();
	t->rules = fl_classdefs_new();
	return t;
}

static void tree_free(void *tree)
{
	php_tree *t = tree;
	if (!t)
		return;
	fl_classdefs_free(t->thrown);
	fl_classdefs_free(t->decl);
	fl_classdefs_free(t->ctor);
	fl_classdefs_free(t->rules);
	free(t);
}

static void tree_merge(void *tree, void *part)
{
	php_tree *t = tree, *p = part;
	fl_classdefs_merge(t->thrown, p->thrown);
	fl_classdefs_merge(t->decl, p->decl);
	fl_classdefs_merge(t->ctor, p->ctor);
	fl_classdefs_merge(t->rules, p->rules);
}

/* a file's tokens, from the collect pass to its scan */
typedef struct lexed {
	fl_toks t;
	size_t *match;
} lexed;

static void lexed_free(void *p)
{
	lexed *x = p;
	if (!x)
		return;
	free(x->match);
	fl_toks_free(&x->t);
	free(x);
}

/* The message the constructor of the class declared at token k (`class`)
 * gives its parent: `public function __construct(string $type) {
 * parent::__construct(sprintf('Class or interface "%s" does not exist',
 * $type)); }`; NULL when it has none, or gives no text. */
static char *ctor_msg(const ctx *c, size_t k)
{
	size_t ob = k + 2;
	while (ob < c->t.n && ob < k + 64 && !is_p(c, ob, "{") && !is_p(c, ob, ";"))
		ob++;
	if (ob >= c->t.n || !is_p(c, ob, "{") || c->match[ob] >= c->t.n || c->match[ob] <= ob)
		return NULL;
	size_t close = c->match[ob];
	for (size_t q = ob + 1; q + 3 < close; q++) {
		if (!is_id(c, q, "function") || !is_id(c, q + 1, "__construct") || !is_p(c, q + 2, "("))
			continue;
		size_t b = c->match[q + 2] + 1;
		while (b < close && !is_p(c, b, "{") && !is_p(c, b, ";"))
			b++;
		if (b >= close || !is_p(c, b, "{") || c->match[b] > close)
			return NULL;
		for (size_t r = b + 1; r + 3 < c->match[b]; r++) {
			if (!is_id(c, r, "parent") || !is_p(c, r + 1, "::") ||
			    !is_id(c, r + 2, "__construct") || !is_p(c, r + 3, "("))
				continue;
			size_t s[1], e[1];
			if (split_args(c, r + 3, s, e, 1) < 1)
				return NULL;
			char *m = php_arg_msg(c, s[0], e[0]);
			if (m && !php_has_text(m)) {
				free(m);
				m = NULL;
			}
			return m;
		}
		return NULL;
	}
	return NULL;
}

/* The classes the file declares and extends, and the messages it throws
 * them with (collect_thrown); `new C(...)` not thrown here makes C's
 * message unknown (it is thrown elsewhere, with what message is not
 * known).  The file's tokens are returned with keep, else freed. */
static void *collect_file(void *part, const fl_src *src, bool keep)
{
	if (part && src->text && php_catalog_path(src->path)) {
		php_catalog_collect(part, src);
		return NULL;
	}
	if (!part || !src->text || !src->len ||
	    (!fl_memmem(src->text, src->len, "throw", 5) && !fl_memmem(src->text, src->len, "class", 5)))
		return NULL;
	php_tree *pt = part;
	lexed *x = fl_xcalloc(1, sizeof *x);
	ctx c = {0};
	fl_toks_init(&c.t, src);
	php_lex(&c.t);
	c.match = fl_tok_match_table(&c.t, FL_MATCH_SKIP_ONE);
	c.part = pt;
	for (size_t k = 0; k + 1 < c.t.n; k++) {
		bool after_new = k > 0 && is_id(&c, k - 1, "new");
		if (is_id(&c, k, "class") && !after_new && !(k > 0 && is_p(&c, k - 1, "::")) &&
		    is_kind(&c, k + 1, FL_TK_IDENT)) {
			char *n = fl_tok_dup(&c.t, k + 1);
			fl_classdefs_add(pt->decl, n, fl_xstrdup("1"), NULL, 0);
			char *m = ctor_msg(&c, k);
			if (m)
				fl_classdefs_add(pt->ctor, n, m, NULL, 0);
			free(n);
		} else if (is_id(&c, k, "extends") || (is_id(&c, k, "new") &&
							!(k > 0 && is_id(&c, k - 1, "throw")))) {
			size_t after, last = php_qname(&c, k + 1, &after);
			if (last == NONE)
				continue;
			char *n = fl_tok_dup(&c.t, last);
			if (is_id(&c, k, "extends")) {
				char *sub = fl_xjoin(">", "", n);
				fl_classdefs_add(pt->decl, sub, fl_xstrdup("1"), NULL, 0);
				free(sub);
			} else {
				fl_classdefs_add(pt->thrown, n, NULL, NULL, 0);
			}
			free(n);
		}
	}
	php_rules(&c);
	free(c.fr);
	x->t = c.t;
	x->match = c.match;
	if (keep)
		return x;
	lexed_free(x);
	return NULL;
}

static void collect(void *tree, const fl_src *src)
{
	collect_file(tree, src, false);
}

static void *collect_keep(void *part, const fl_src *src)
{
	return collect_file(part, src, true);
}

static void scan(const void *tree, const fl_src *src, fl_sites *out)
{
	lexed *x = src->cache;
	if (php_catalog_path(src->path)) {
		/* a catalogue: read by the collect pass, no code */
		lexed_free(x);
		return;
	}
	ctx c = {0};
	if (x) {
		/* lexed by the collect pass, from this same text */
		c.t = x->t;
		c.match = x->match;
		free(x);
	} else {
		fl_toks_init(&c.t, src);
		php_lex(&c.t);
		c.match = fl_tok_match_table(&c.t, FL_MATCH_SKIP_ONE);
	}
	c.out = out;
	c.tree = tree;
	fl_helper_budget_reset(c.t.n);
	php_rules(&c);
	free(c.match);
	free(c.fr);
	fl_toks_free(&c.t);
}

static bool is_test_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	/* PHP packages keep their tests under Tests/ (Symfony, PSR-4
	 * "Vendor\\Pkg\\Tests\\" namespaces); the core only knows tests/ */
	if (strncmp(path, "Tests/", 6) == 0 || strstr(path, "/Tests/"))
		return true;
	return n > 8 && strcmp(base + n - 8, "Test.php") == 0;
}

static const char *const interpreters[] = {"php", NULL};
static const char *const exts[] = {".php", ".xml", NULL};

const fl_lang fl_lang_php = {.name = "php",
			     .extensions = exts,
			     .interpreters = interpreters,
			     .printf_ints = true,
			     .is_test_file = is_test_file,
			     .data_file = php_catalog_path,
			     .tree_new = tree_new,
			     .tree_free = tree_free,
			     .collect = collect,
			     .tree_merge = tree_merge,
			     .collect_keep = collect_keep,
			     .cache_free = lexed_free,
			     .scan = scan};
