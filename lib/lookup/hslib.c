/*
 * hslib.c — loads Hyperscan on first use (see hslib.h).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "hslib.h"
#include "../dynload.h"

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
	const char *soname = names[0];
	void *lib = fl_dl_open(names, &soname, why, sizeof why);
	bool ok = lib != NULL;
#define FL_HS_LOAD(name)                                                        \
	ok = ok && fl_dl_sym(lib, soname, "hs_" #name, &api.name, sizeof api.name,  \
			     why, sizeof why);
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
