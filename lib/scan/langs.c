/*
 * langs.c — the language table.  Adding a language = one lang_<name>.c file
 * (or a lib/scan/<name>/ folder) plus one line here and one in meson.build;
 * the scanner core is untouched.
 */
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
