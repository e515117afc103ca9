/*
 * sites.c — the Python family's walk over a file (lib/scan/python/,
 * python.h): blocks tracked by indentation to know the enclosing
 * `Class.method` and the guarding `if`/`elif`/`while`/`case`, the sites it
 * emits, each statement handed to its rule (raise.c, reporters.c,
 * classes.c), the tree's collect pass (classes.c, reporters.c,
 * factories.c) and the family's entry in the language table.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "python.h"

static const char *const interpreters[] = {"python", "pypy", NULL};
static const char *const exts[] = {".py", NULL};

/* ---- blocks ----------------------------------------------------------------- */

static void blk_push(walker *w, pyblk b)
{
	if (w->nblk == w->capblk) {
		w->capblk = w->capblk ? w->capblk * 2 : 32;
		w->blk = fl_xrealloc(w->blk, w->capblk * sizeof *w->blk);
	}
	w->blk[w->nblk++] = b;
}

/* index of the innermost open block of this kind, or NONE */
size_t py_innermost(const walker *w, int kind)
{
	for (size_t k = w->nblk; k-- > 0;)
		if (w->blk[k].kind == kind)
			return k;
	return NONE;
}

/* function name: chain of class/def names up to the innermost def */
static const char *cur_function(walker *w)
{
	size_t last = py_innermost(w, B_DEF);
	if (last == NONE)
		return NULL;
	fl_buf_reset(&w->fn);
	for (size_t k = 0; k <= last; k++) {
		const pyblk *b = &w->blk[k];
		if (b->kind != B_DEF && b->kind != B_CLASS)
			continue;
		if (b->name == NONE)
			continue;
		if (w->fn.n)
			fl_buf_putc(&w->fn, '.');
		fl_buf_put(&w->fn, w->t->src + w->t->v[b->name].off,
			   w->t->v[b->name].len);
	}
	return w->fn.n ? fl_buf_cstr(&w->fn) : NULL;
}

static char *cur_guard(walker *w)
{
	if (!w->nblk)
		return NULL;
	const pyblk *b = &w->blk[w->nblk - 1];
	if ((b->kind != B_COND && b->kind != B_CASE) || b->ce <= b->cb)
		return NULL;
	char *g = fl_guard_span(w->t, b->cb, b->ce, b->neg, true);
	/* an if (or else) right inside another if's block: both hold */
	const pyblk *o = w->nblk >= 2 ? &w->blk[w->nblk - 2] : NULL;
	if (g && o && o->kind == B_COND && (o->is_if || o->neg) && o->ce > o->cb &&
	    b->kind == B_COND && (b->is_if || b->neg))
		g = fl_guard_nest(fl_guard_span(w->t, o->cb, o->ce, o->neg, true), g, true);
	return g;
}

char *py_cur_guard(walker *w)
{
	return cur_guard(w);
}

/* ---- sites --------------------------------------------------------------------- */

void py_emit(walker *w, size_t at, const char *msg, const char *code,
	     const char *cls, const char *type, const char *sev, int http,
	     const char *idiom)
{
	size_t var = w->var;
	int fmt = w->var_fmt;
	w->var = NONE;
	w->var_fmt = 0;
	char *plural = w->plural;
	w->plural = NULL;
	if (plural && msg && *msg && strcmp(plural, msg) != 0)
		py_emit1(w, at, plural, code, cls, type, sev, http, idiom);
	free(plural);
	if ((!msg || !*msg) && var != NONE) {
		char *ms[MAXVAR];
		size_t n = py_var_msgs(w, at, var, fmt, ms);
		for (size_t q = 0; q < n; q++) {
			py_emit1(w, at, ms[q], code, cls, type, sev, http, idiom);
			free(ms[q]);
		}
		if (n)
			return;
	}
	py_emit1(w, at, msg, code, cls, type, sev, http, idiom);
}

void py_emit1(walker *w, size_t at, const char *msg, const char *code,
	      const char *cls, const char *type, const char *sev, int http,
	      const char *idiom)
{
	if ((!msg || !*msg) && !code)
		return;
	fl_site s = {0};
	s.line = w->t->v[at].line;
	s.col = w->t->v[at].col;
	s.message = msg;
	s.code = code;
	s.cls = cls;
	s.type = type;
	s.severity = sev;
	s.http = http;
	s.function = cur_function(w);
	char *g = w->guard ? NULL : cur_guard(w);
	s.guard = w->guard ? w->guard : g;
	s.idiom = idiom;
	fl_site_add(w->out, &s);
	free(g);
}

/* ---- the tree's collect pass ------------------------------------------------- */

/* What the file's tokens declare for the tree, into tr: the byte scans
 * (py_wants) said which kinds it may hold. */
typedef struct py_wants {
	bool classes, reporters, factories, raisers, consts, msgtable;
} py_wants;

/* A byte scan: whether a line of the file starts `NAME = "` or `NAME =
 * '`, NAME in capitals (a module's constant text). */
static bool py_has_const_text(const char *s, size_t n)
{
	/* line starts only, found by memchr */
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - s) : n, j = i;
		if (s[i] >= 'A' && s[i] <= 'Z') {
			while (j < e && ((s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= '0' && s[j] <= '9') ||
					 s[j] == '_'))
				j++;
			while (j < e && s[j] == ' ')
				j++;
			if (j < e && s[j] == ':') /* NAME: Final = ErrorMessage("...") */
				while (j < e && s[j] != '=')
					j++;
			if (j + 1 < e && s[j] == '=' && s[j + 1] != '=') {
				j++;
				while (j < e && s[j] == ' ')
					j++;
				if (j < e && (s[j] == '"' || s[j] == '\'' || s[j] == '(' ||
					      (s[j] >= 'A' && s[j] <= 'Z' && memchr(s + j, '(', e - j))))
					return true;
			}
		}
		i = e + 1;
	}
	return false;
}

/* The module a file is: its name without .py, a package's __init__.py
 * its folder's name; false when none. */
static bool module_of(const char *path, char *out, size_t cap)
{
	if (!path)
		return false;
	const char *b = strrchr(path, '/');
	const char *base = b ? b + 1 : path;
	size_t n = strlen(base);
	if (n < 4 || strcmp(base + n - 3, ".py") != 0)
		return false;
	if (strcmp(base, "__init__.py") == 0) {
		if (!b || b == path)
			return false;
		const char *d = b;
		while (d > path && d[-1] != '/')
			d--;
		n = (size_t)(b - d);
		base = d;
	} else {
		n -= 3;
	}
	if (!n || n + 1 > cap)
		return false;
	memcpy(out, base, n);
	out[n] = '\0';
	return true;
}

struct const_ud {
	fl_classdefs *tr;
	const char *module;
};

static void add_const(void *ud, const char *name, const char *text)
{
	struct const_ud *u = ud;
	char *key = fl_xasprintf("const:%s.%s", u->module, name);
	fl_classdefs_add_params(u->tr, key, fl_xstrdup(text), NULL, 0, NULL);
	free(key);
}

static bool py_wants_any(const fl_classdefs *tr, const fl_src *src, py_wants *k)
{
	memset(k, 0, sizeof *k);
	if (!tr || !src->text || !src->len)
		return false;
	k->classes = py_has_class_attr(src->text, src->len);
	k->reporters = py_has_reporter(src->text, src->len);
	k->factories = py_has_factory(src->text, src->len);
	k->raisers = py_has_raiser(src->text, src->len);
	k->consts = py_has_const_text(src->text, src->len);
	k->msgtable = py_has_msg_table(src->text, src->len);
	return k->classes || k->reporters || k->factories || k->raisers || k->consts || k->msgtable;
}

static void py_collect_toks(fl_classdefs *tr, const fl_toks *tp, const size_t *m,
			    const py_wants *k, const char *path)
{
	const fl_toks t = *tp;
	bool classes = k->classes, reporters = k->reporters, factories = k->factories,
	     raisers = k->raisers;
	py_consts_begin(&t);
	char module[128];
	if (k->consts && module_of(path, module, sizeof module)) {
		/* its texts, for `raise X(errors.DOCUMENT_MISSING)` in
		 * another module */
		struct const_ud u = {tr, module};
		py_consts_each(&t, add_const, &u);
	}
	if (raisers)
		py_raisers_collect(tr, &t, m);
	if (k->msgtable)
		py_msg_table_collect(tr, &t, m);
	for (size_t i = 0; i < t.n && tr->n < 65536 && (classes || reporters || factories); i++) {
		if (factories && fl_tok_is_ident(&t, i, "def") &&
		    (i == 0 || (t.v[i].flags & FL_TF_NL_BEFORE)))
			py_fac_collect(tr, &t, m, i);
		if (reporters && fl_tok_is_ident(&t, i, "def") &&
		    (i == 0 || (t.v[i].flags & FL_TF_NL_BEFORE))) {
			char *text, *params;
			bool method, quiet, printer;
			if (py_reporter_def(&t, m, i, &text, &params, &method, &quiet, &printer)) {
				char *key = fl_xasprintf("rep:%.*s", (int)t.v[i + 1].len,
							 t.src + t.v[i + 1].off);
				/* one that does not exit: status 2, a printer 3,
				 * its module kept (reporters.c asks for its
				 * import) */
				char mod[128];
				bool own = quiet && module_of(path, mod, sizeof mod);
				fl_classdefs_add_params(tr, key, text, own ? fl_xstrdup(mod) : NULL,
							printer ? 3 : quiet ? 2 : method, params);
				free(key);
			}
			continue;
		}
		if (!classes || !fl_tok_is_ident(&t, i, "class") ||
		    (i > 0 && !(t.v[i].flags & FL_TF_NL_BEFORE)))
			continue;
		pyclass pc;
		if (!py_class_attrs(&t, m, i, &pc)) {
			char *texts = pc.name && pc.excy ? py_class_str_texts(&t, m, i) : NULL;
			if (texts) {
				char *key = fl_xasprintf("strs:%.*s", (int)t.v[pc.name].len,
							 t.src + t.v[pc.name].off);
				fl_classdefs_add_params(tr, key, texts, NULL, 0, NULL);
				free(key);
			}
			continue;
		}
		char *name = fl_tok_dup(&t, pc.name);
		if (pc.str && pc.msg && fl_msg_plain_letters(pc.msg) >= 3) {
			/* what __str__ returns is what a raise of the class
			 * shows, whatever its arguments (raise.c) */
			char *key = fl_xasprintf("strs:%s", name);
			fl_classdefs_add_params(tr, key, fl_xstrdup(pc.msg), NULL, 0, NULL);
			free(key);
		}
		fl_classdefs_add_params(tr, name, pc.msg, pc.code, pc.status, pc.params);
		if (pc.dflt) {
			/* the parameter that overrides the default message */
			char *key = fl_xasprintf("dflt:%s", name);
			fl_classdefs_add_params(tr, key, fl_xstrdup(name), NULL, 0, pc.dflt);
			free(key);
		}
		if (pc.base && pc.sup) {
			/* the message goes to the base's __init__, which may
			 * add to it (py_class_message) */
			char *key = fl_xasprintf("sup:%s", name);
			fl_classdefs_add_params(tr, key, pc.base, NULL, 0, pc.sup);
			free(key);
		} else {
			free(pc.base);
			free(pc.sup);
		}
		free(name);
	}
	py_consts_end();
}

static void py_collect(void *tree, const fl_src *src)
{
	py_wants k;
	if (!py_wants_any(tree, src, &k))
		return;
	fl_toks t;
	fl_toks_init(&t, src);
	py_lex(&t);
	size_t *m = fl_tok_match_table(&t, FL_MATCH_RECOVER);
	py_collect_toks(tree, &t, m, &k, src->path);
	free(m);
	fl_toks_free(&t);
}

bool py_tree_find(const walker *w, const char *name, const char **msg, const char **code,
		  int *status)
{
	if (!w->log)
		return fl_classdefs_find(w->tree, name, msg, code, status);
	fl_buf_put(w->log, name, strlen(name) + 1);
	return false;
}

const char *py_tree_params(const walker *w, const char *name)
{
	if (!w->log)
		return fl_classdefs_params(w->tree, name);
	fl_buf_put(w->log, name, strlen(name) + 1);
	return NULL;
}

/* ---- statements and the scan of one file ---------------------------------- */

/* compound statement header at i: returns the index of its ':' or NONE */
static size_t header_colon(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	for (size_t k = i + 1; k < t->n; k++) {
		if (t->v[k].flags & FL_TF_NL_BEFORE)
			return NONE;
		if (is_p(t, k, ':'))
			return k;
		if (is_p(t, k, ';'))
			return NONE;
		if (fl_tok_is_opener(t, k)) {
			if (w->m[k] == NONE)
				return NONE;
			k = w->m[k];
		}
	}
	return NONE;
}

static void statement_start(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	int indent = t->v[i].col;
	/* the block closed last at this indent: an else's if */
	const pyblk *closed = NULL;
	while (w->nblk && w->blk[w->nblk - 1].indent >= indent)
		closed = &w->blk[--w->nblk];
	if (closed && closed->indent != indent)
		closed = NULL;
	if (t->v[i].kind != FL_TK_IDENT)
		return;
	size_t k = i;
	if (fl_tok_is_ident(t, k, "async") && k + 1 < t->n)
		k++;
	pyblk b = {.indent = indent, .name = NONE, .cb = 0, .ce = 0};
	const char *s = t->src + t->v[k].off;
	size_t n = t->v[k].len;
#define KW(x) (n == sizeof(x) - 1 && memcmp(s, x, n) == 0)
	if (KW("def") || KW("class")) {
		size_t c = header_colon(w, k);
		if (c == NONE)
			return;
		b.kind = KW("def") ? B_DEF : B_CLASS;
		if (k + 1 < t->n && t->v[k + 1].kind == FL_TK_IDENT)
			b.name = k + 1;
	} else if (KW("if") || KW("elif") || KW("while") || KW("case")) {
		size_t c = header_colon(w, k);
		if (c == NONE)
			return;
		b.kind = KW("case") ? B_CASE : B_COND;
		b.cb = k + 1;
		b.ce = c;
		b.is_if = KW("if") || KW("elif");
	} else if (KW("else") && closed && closed->kind == B_COND && closed->is_if &&
		   !closed->neg && header_colon(w, k) == k + 1) {
		/* the else of an if (or of the last elif): it runs when that
		 * condition does not hold; a while's, for's or try's else
		 * is none */
		b.kind = B_COND;
		b.cb = closed->cb;
		b.ce = closed->ce;
		b.neg = true;
	} else if (KW("else") || KW("for") || KW("try") || KW("except") ||
		   KW("finally") || KW("with") || KW("match")) {
		if (header_colon(w, k) == NONE)
			return;
		b.kind = KW("except") ? B_EXCEPT : B_OTHER;
	} else {
		return;
	}
#undef KW
	blk_push(w, b);
}

/* The scan of the file on its tokens t and bracket table m (both freed). */
static void scan_toks(const void *tree, const fl_src *src, fl_sites *out, fl_toks *tp,
		      size_t *m, fl_buf *log)
{
	fl_toks t = *tp;
	py_consts_begin(&t);
	walker w = {0};
	w.var = NONE;
	w.var_fmt = 0;
	w.t = &t;
	w.tree = tree;
	w.m = m;
	w.out = out;
	w.log = log;
	bool classes = src->text && py_has_class_attr(src->text, src->len);
	w.click = src->text && (fl_memmem(src->text, src->len, "click", 5) ||
				fl_memmem(src->text, src->len, "typer", 5));
	int depth = 0;
	for (size_t i = 0; i < t.n; i++) {
		const fl_tok *k = &t.v[i];
		if (depth == 0 && (i == 0 || (k->flags & FL_TF_NL_BEFORE))) {
			statement_start(&w, i);
			if (classes && fl_tok_is(&t, i, "class"))
				py_class_site(&w, i);
		}
		if (k->kind == FL_TK_PUNCT) {
			if (fl_tok_is_opener(&t, i))
				depth++;
			else if (fl_tok_is_closer(&t, i) &&
				 depth > 0)
				depth--;
			continue;
		}
		if (k->kind != FL_TK_IDENT)
			continue;
		if (fl_tok_is(&t, i, "raise")) {
			py_do_raise(&w, i);
		} else if (fl_tok_is(&t, i, "return")) {
			py_do_return(&w, i);
		} else if (fl_tok_is(&t, i, "assert")) {
			py_do_assert(&w, i);
		} else if (is_p(&t, i + 1, '(')) {
			py_do_call(&w, i);
		}
	}
	py_consts_end();
	free(w.plural);
	free(w.exc);
	free(w.defs);
	free(w.blk);
	fl_buf_free(&w.fn);
	free((void *)w.m);
	fl_toks_free(&t);
}

static void scan(const void *tree, const fl_src *src, fl_sites *out)
{
	fl_toks t;
	fl_toks_init(&t, src);
	py_lex(&t);
	size_t *m = fl_tok_match_table(&t, FL_MATCH_RECOVER);
	scan_toks(tree, src, out, &t, m, NULL);
}

/* The file collected into part and scanned on the same tokens, as if the
 * tree were empty (lang.h: collect_scan): the log of the names the scan
 * looked up (an fl_buf of NUL-terminated names). */
static void *py_collect_scan(void *part, const fl_src *src, fl_sites *out, void *hint)
{
	static const fl_classdefs none; /* the tree taken for empty */
	(void)hint;
	fl_toks t;
	fl_toks_init(&t, src);
	py_lex(&t);
	size_t *m = fl_tok_match_table(&t, FL_MATCH_RECOVER);
	py_wants k;
	if (py_wants_any(part, src, &k))
		py_collect_toks(part, &t, m, &k, src->path);
	fl_buf *log = fl_xcalloc(1, sizeof *log);
	scan_toks(&none, src, out, &t, m, log);
	return log;
}

static bool py_early_holds(const void *tree, const void *log)
{
	const fl_buf *b = log;
	for (size_t p = 0; p < b->n; p += strlen(b->s + p) + 1) {
		const char *msg, *code;
		int status;
		if (fl_classdefs_find(tree, b->s + p, &msg, &code, &status) ||
		    fl_classdefs_params(tree, b->s + p))
			return false;
	}
	return true;
}

static void py_early_free(void *log)
{
	if (log)
		fl_buf_free(log);
	free(log);
}

static bool is_test_file(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n < 3 || strcmp(b + n - 3, ".py") != 0)
		return false;
	if (strcmp(b, "conftest.py") == 0)
		return true;
	if (strncmp(b, "test_", 5) == 0)
		return true;
	return n > 8 && strcmp(b + n - 8, "_test.py") == 0;
}

const fl_lang fl_lang_python = {.name = "python",
				.extensions = exts,
				.interpreters = interpreters,
				.printf_ints = true,
				.is_test_file = is_test_file,
				.tree_new = fl_classdefs_new,
				.tree_free = fl_classdefs_free,
				.collect = py_collect,
				.tree_merge = fl_classdefs_merge,
				.collect_scan = py_collect_scan,
				.early_holds = py_early_holds,
				.early_free = py_early_free,
				.scan = scan};
