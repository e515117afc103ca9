/*
 * gitlib.c — loads libgit2, and zlib with it, on first use (see gitlib.h).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "gitlib.h"
#include "../dynload.h"
#include "../util.h"

#ifndef FL_LIBGIT2_SONAME
#define FL_LIBGIT2_SONAME "libgit2.so"
#endif

static fl_git_api api;
static bool loaded;
static fl_z_api zapi;
static bool zloaded;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	/* the version the build was made against first: its ABI is the
	 * one the headers describe */
	static const char *const names[] = {FL_LIBGIT2_SONAME, "libgit2.so", NULL};
	const char *soname = names[0];
	void *lib = fl_dl_open(names, &soname, why, sizeof why);
	bool ok = lib != NULL;
#define FL_GIT_LOAD(name)                                                       \
	ok = ok && fl_dl_sym(lib, soname, "git_" #name, &api.name, sizeof api.name, \
			     why, sizeof why);
	FL_GIT_FUNCS(FL_GIT_LOAD)
#undef FL_GIT_LOAD
	loaded = ok;
	if (!ok)
		return;
	/* libgit2's own zlib: already mapped, so this costs a lookup */
	static const char *const znames[] = {"libz.so.1", "libz.so", NULL};
	const char *zso = znames[0];
	char zwhy[256];
	void *z = fl_dl_open(znames, &zso, zwhy, sizeof zwhy);
	bool zok = z != NULL;
#define FL_Z_LOAD(name) \
	zok = zok && fl_dl_sym(z, zso, #name, &zapi.name, sizeof zapi.name, zwhy, sizeof zwhy);
	FL_Z_FUNCS(FL_Z_LOAD)
#undef FL_Z_LOAD
	zloaded = zok;
}

const fl_z_api *fl_zlib(void)
{
	pthread_once(&once, load);
	return zloaded ? &zapi : NULL;
}

const fl_git_api *fl_git(fl_err *err)
{
	pthread_once(&once, load);
	if (!loaded) {
		if (err)
			fl_seterr(err, "libgit2 could not be loaded (%s): install the libgit2 package to scan git repositories",
				  why[0] ? why : FL_LIBGIT2_SONAME);
		return NULL;
	}
	return &api;
}
