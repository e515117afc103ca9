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

const fl_lang *fl_lang_for_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	if (!dot || dot == base)
		return NULL;
	for (const fl_lang *const *l = fl_langs; *l; l++)
		for (const char *const *e = (*l)->extensions; e && *e; e++)
			if (strcmp(dot, *e) == 0)
				return *l;
	return NULL;
}
