/*
 * langs.c — the language table.  Adding a language = one lang_<name>.c file
 * (or a lib/scan/<name>/ folder) plus one line here and one in meson.build;
 * the scanner core is untouched.
 */
#include <stdbool.h>
#include <string.h>

#include "lang.h"

extern const fl_lang fl_lang_c, fl_lang_rust, fl_lang_go, fl_lang_js,
	fl_lang_python, fl_lang_jvm, fl_lang_csharp, fl_lang_ruby,
	fl_lang_php;

const fl_lang *const fl_langs[] = {
	&fl_lang_c,      &fl_lang_rust, &fl_lang_go,
	&fl_lang_js,     &fl_lang_python, &fl_lang_jvm,
	&fl_lang_csharp, &fl_lang_ruby, &fl_lang_php,
	NULL,
};

/* A language's extensions are matched as the name's ending, so that one
 * may list a template's double extension (C's `.c.in`, `shell.c.in`
 * being C source that a build step copies or fills) without taking every
 * `.in` file; the name must hold more than the extension. */
const fl_lang *fl_lang_for_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	if (!dot || dot == base)
		return NULL;
	size_t bl = strlen(base);
	for (const fl_lang *const *l = fl_langs; *l; l++)
		for (const char *const *e = (*l)->extensions; e && *e; e++) {
			size_t el = strlen(*e);
			if (el < bl && memcmp(base + bl - el, *e, el) == 0 &&
			    (strchr(*e + 1, '.') || base + bl - el == dot))
				return *l;
		}
	return NULL;
}

bool fl_lang_may_be_script(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	return base[0] && !strchr(base + 1, '.');
}

/* Whether the name head[0..n) is interpreter, or it with a version
 * after it: "python3", "python3.11", "ruby3.1". */
static bool names_interpreter(const char *name, size_t n, const char *interpreter)
{
	size_t il = strlen(interpreter);
	if (n < il || memcmp(name, interpreter, il) != 0)
		return false;
	for (size_t k = il; k < n; k++)
		if (!((name[k] >= '0' && name[k] <= '9') || (name[k] == '.' && k > il)))
			return false;
	return true;
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

const fl_lang *fl_lang_for_script(const char *head, size_t n)
{
	if (n < 3 || head[0] != '#' || head[1] != '!')
		return NULL;
	const char *p = head + 2, *end = head + n;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (nl)
		end = nl;
	bool after_env = false;
	for (;;) {
		while (p < end && blank(*p))
			p++;
		const char *w = p;
		while (p < end && !blank(*p) && *p != '\r')
			p++;
		if (w == p)
			return NULL;
		/* the program's name, without its folders */
		const char *b = w;
		for (const char *q = w; q < p; q++)
			if (*q == '/')
				b = q + 1;
		size_t bl = (size_t)(p - b);
		if (!after_env && bl == 3 && memcmp(b, "env", 3) == 0) {
			after_env = true;
			continue;
		}
		if (after_env && (w[0] == '-' || memchr(w, '=', (size_t)(p - w))))
			continue; /* env's option (-S) or an assignment */
		for (const fl_lang *const *l = fl_langs; *l; l++)
			for (const char *const *i = (*l)->interpreters; i && *i; i++)
				if (names_interpreter(b, bl, *i))
					return *l;
		return NULL;
	}
}

const fl_lang *fl_lang_by_name(const char *name)
{
	for (const fl_lang *const *l = fl_langs; name && *l; l++)
		if (strcmp((*l)->name, name) == 0)
			return *l;
	return NULL;
}
