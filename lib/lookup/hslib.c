/*
 * hslib.c — loads Hyperscan on first use (see hslib.h).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hslib.h"

#ifndef FL_LIBHS_SONAME
#define FL_LIBHS_SONAME "libhs.so"
#endif

static fl_hs_api api;
static bool loaded;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	/* the version the build was made against first */
	static const char *const names[] = {FL_LIBHS_SONAME, "libhs.so", NULL};
	void *lib = NULL;
	const char *soname = names[0];
	for (size_t i = 0; names[i] && !lib; i++) {
		lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (lib) {
			soname = names[i];
		} else if (i == 0) {
			const char *e = dlerror();
			snprintf(why, sizeof why, "%s", e ? e : names[i]);
		}
	}
	if (!lib)
		return;
	bool ok = true;
#define FL_HS_LOAD(name)                                                        \
	if (ok) {                                                               \
		void *sym = dlsym(lib, "hs_" #name);                            \
		if (sym)                                                        \
			memcpy(&api.name, &sym, sizeof sym);                    \
		else {                                                          \
			snprintf(why, sizeof why, "%s has no hs_" #name, soname); \
			ok = false;                                             \
		}                                                               \
	}
	FL_HS_FUNCS(FL_HS_LOAD)
#undef FL_HS_LOAD
	loaded = ok;
}

const fl_hs_api *fl_hs(fl_err *err)
{
	pthread_once(&once, load);
	if (!loaded) {
		if (err)
			fl_seterr(err, "Hyperscan could not be loaded (%s): install the libhyperscan5 package for lookups",
				  why[0] ? why : FL_LIBHS_SONAME);
		return NULL;
	}
	return &api;
}
