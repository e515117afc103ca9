/*
 * tags.c — a record's tags: its language (and the file's dialect when it
 * differs: kotlin, ts, cpp), its errorType, whether the line is a
 * definition or a factory call (the lookup ranks by these), the class, the
 * raising construct, and the domain words of its path and function
 * ("http", "cookie", "x509"), so the site can group related records.
 */
#include "dsc.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../lex.h"

static void add(fl_strv *tags, const char *t)
{
	if (!t || !*t)
		return;
	for (size_t i = 0; i < tags->n; i++)
		if (dsc_eq(tags->v[i], t))
			return;
	fl_strv_push(tags, t);
}

/* kebab-case of an identifier: "ValueError" -> "value-error", "fmt.Errorf"
 * -> "fmt-errorf"; NULL when it has no usable characters */
static char *kebab(const char *s)
{
	fl_buf b = {0};
	bool dash = false;
	for (size_t i = 0; s[i]; i++) {
		char c = s[i];
		bool upper = c >= 'A' && c <= 'Z';
		bool lower = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		if (!upper && !lower) {
			dash = b.n > 0;
			continue;
		}
		if (upper && i > 0 && s[i - 1] >= 'a' && s[i - 1] <= 'z')
			dash = true;
		if (dash && b.n)
			fl_buf_putc(&b, '-');
		dash = false;
		if (b.n == 0 && !(c >= 'a' && c <= 'z') && !upper)
			continue; /* tags start with a letter */
		fl_buf_putc(&b, upper ? (char)(c - 'A' + 'a') : c);
	}
	if (!b.n) {
		fl_buf_free(&b);
		return NULL;
	}
	return dsc_take(&b);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* words that name no domain */
static const char *const STOP_WORDS[] = {
	"src", "lib", "libs", "internal", "pkg", "cmd", "main", "util", "utils", "common", "core",
	"index", "init", "get", "set", "new", "the", "and", "for", "with", "from", "this", "that",
	"app", "base", "impl", "helper", "helpers", "misc", "api", "mod", "run", "do", "go", "py",
	"php", "java", "kotlin", "scala", "ruby", "rust", "js", "ts", "cpp", "test", "tests", "func",
	"function", "method", "class", "error", "errors", "exception", "exceptions", "failure",
	"unknown", "org", "com", "net", "apache", "github", "main", "build", "tool", "tools", "vendor",
	"private", "public", "static", "object", "value", "values", "make", "call", "handle", "check",
	"process", "default", "data", "file", "line", "self", "args", "arg", "opts", "options", "string",
	"str", "to", "of", "in", "on", "is", "it", "by", "at", "or", "an", "a", "x", "c", "h", "rb", "kt",
	"cs", "mjs", "cjs", "jsx", "tsx", "cc", "hpp", "cxx", "gemspec",
	/* folders that say how a project is laid out, not what it does */
	"fixtures", "fixture", "testdata", "testing", "testutil", "testutils", "spec", "specs", "mock",
	"mocks", "fake", "fakes", "example", "examples", "sample", "samples", "demo", "dist", "out",
	"target", "source", "sources", "include", "includes", "package", "packages", "module",
	"modules", "node", "apps", "resources", "scripts", "script", "bin", "docs", "doc", "third",
	"party", "thirdparty", "deps", "contrib", "ext", "extern", "external", "generated", "gen",
	"shared", "models", "model", "services", "service", "controllers", "controller", "handlers",
	"views", "components", "providers", "classes", "kernel", "support", "vendored", "site",
	"packages", "crates", "crate", "sdk", "impls", "libraries", "library", "platform",
};
#define NSTOP (sizeof STOP_WORDS / sizeof STOP_WORDS[0])
static const char *stop_sorted[NSTOP];
static pthread_once_t stop_once = PTHREAD_ONCE_INIT;

static void sort_stop_words(void)
{
	memcpy(stop_sorted, STOP_WORDS, sizeof STOP_WORDS);
	qsort(stop_sorted, NSTOP, sizeof *stop_sorted, cmp_str);
}

static bool stop(const char *w)
{
	if (strlen(w) < 3 || isdigit((unsigned char)w[0]))
		return true;
	/* every word of every record's path and function is looked up: a
	 * binary search, not a strcmp per word of the list */
	pthread_once(&stop_once, sort_stop_words);
	return bsearch(&w, stop_sorted, NSTOP, sizeof *stop_sorted, cmp_str) != NULL;
}

static void domain(fl_strv *tags, const char *text, size_t *n, size_t max)
{
	dsc_wordv w = {0};
	dsc_words(text, &w);
	for (size_t i = 0; i < w.n && *n < max; i++) {
		if (stop(w.v[i]))
			continue;
		bool ok = isalpha((unsigned char)w.v[i][0]);
		for (const char *p = w.v[i]; *p; p++)
			ok &= (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9');
		if (!ok)
			continue;
		size_t before = tags->n;
		add(tags, w.v[i]);
		*n += tags->n > before;
	}
	dsc_wordv_free(&w);
}

void dsc_tags(dsc *d)
{
	fl_strv *tags = &d->e->tags;
	const char *t = d->s->type;
	add(tags, d->lang);
	if (!dsc_eq(d->dialect, d->lang) && !dsc_eq(d->lang, "jvm"))
		add(tags, d->dialect);
	else if (dsc_eq(d->lang, "jvm"))
		add(tags, d->dialect);
	add(tags, dsc_eq(t, FL_T_ERROR_CODE) ? "error-code" : t);
	int kind = fl_idiom_kind(d->s->idiom);
	if (kind == FL_IDIOM_DEF)
		add(tags, "definition");
	else if (kind == FL_IDIOM_CALL)
		add(tags, "factory-call");
	if (d->s->cls) {
		char *k = kebab(dsc_last(d->s->cls));
		if (k && strcmp(k, "error") && strcmp(k, "exception"))
			add(tags, k);
		free(k);
	}
	/* the construct's kind (not a Rust variant's path: a variant built,
	 * `E::V`, is its idiom and its class, tagged above) */
	if (*d->idiom && strncmp(d->idiom, "class ", 6) != 0 &&
	    !(d->s->cls && strstr(d->idiom, "::") && dsc_eq(d->idiom, d->s->cls))) {
		char *k = kebab(d->idiom);
		if (k && strlen(k) <= 24)
			add(tags, k);
		free(k);
	}
	/* the domain: words of the folders and file, then of the function */
	size_t n = 0;
	char *path = fl_xstrdup(d->e->file_path);
	char *dot = strrchr(path, '.');
	if (dot && !strchr(dot, '/'))
		*dot = '\0';
	domain(tags, path, &n, 3);
	free(path);
	if (d->s->function)
		domain(tags, d->s->function, &n, 5);
}
