/*
 * cmarklib.c — loads cmark-gfm and its extensions on first use (see
 * cmarklib.h).
 */
#include "cmarklib.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "dynload.h"

#ifndef FL_LIBCMARK_SONAME
#define FL_LIBCMARK_SONAME "libcmark-gfm.so"
#endif
#ifndef FL_LIBCMARK_EXT_SONAME
#define FL_LIBCMARK_EXT_SONAME "libcmark-gfm-extensions.so"
#endif

static fl_cmark_api api;
static bool loaded;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	/* the version the build was made against first */
	static const char *const names[] = {FL_LIBCMARK_SONAME, "libcmark-gfm.so", NULL};
	static const char *const ext_names[] = {FL_LIBCMARK_EXT_SONAME,
						"libcmark-gfm-extensions.so", NULL};
	const char *soname = names[0], *ext_soname = ext_names[0];
	void *lib = fl_dl_open(names, &soname, why, sizeof why);
	bool ok = lib != NULL;
#define FL_CMARK_LOAD(name)                                                     \
	ok = ok && fl_dl_sym(lib, soname, "cmark_" #name, &api.name, sizeof api.name, \
			     why, sizeof why);
	FL_CMARK_FUNCS(FL_CMARK_LOAD)
#undef FL_CMARK_LOAD
	void *ext = ok ? fl_dl_open(ext_names, &ext_soname, why, sizeof why) : NULL;
	ok = ok && ext &&
	     fl_dl_sym(ext, ext_soname, "cmark_gfm_core_extensions_ensure_registered",
		       &api.core_extensions_ensure_registered,
		       sizeof api.core_extensions_ensure_registered, why, sizeof why);
	loaded = ok;
}

const fl_cmark_api *fl_cmark(void)
{
	pthread_once(&once, load);
	if (!loaded) {
		fprintf(stderr, "faultline: cmark-gfm could not be loaded (%s): install the libcmark-gfm0.29.0.gfm.6 and libcmark-gfm-extensions0.29.0.gfm.6 packages to render Markdown\n",
			why[0] ? why : FL_LIBCMARK_SONAME);
		exit(1);
	}
	return &api;
}
