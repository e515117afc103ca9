/*
 * gitlib.c — loads libgit2 on first use (see gitlib.h).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gitlib.h"
#include "../util.h"

#ifndef FL_LIBGIT2_SONAME
#define FL_LIBGIT2_SONAME "libgit2.so"
#endif

static fl_git_api api;
static bool loaded;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	/* the version the build was made against first: its ABI is the
	 * one the headers describe */
	static const char *const names[] = {FL_LIBGIT2_SONAME, "libgit2.so", NULL};
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
#define FL_GIT_LOAD(name)                                                       \
	if (ok) {                                                               \
		void *sym = dlsym(lib, "git_" #name);                           \
		if (sym)                                                        \
			memcpy(&api.name, &sym, sizeof sym);                    \
		else {                                                          \
			snprintf(why, sizeof why, "%s has no git_" #name, soname); \
			ok = false;                                             \
		}                                                               \
	}
	FL_GIT_FUNCS(FL_GIT_LOAD)
#undef FL_GIT_LOAD
	loaded = ok;
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
