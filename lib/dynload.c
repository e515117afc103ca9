/*
 * dynload.c — opening a shared library by one of its names and reading its
 * symbols (see dynload.h).
 */
#define _GNU_SOURCE
#include "dynload.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void *fl_dl_open(const char *const *names, const char **soname, char *why,
		 size_t whylen)
{
	for (size_t i = 0; names[i]; i++) {
		void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (h) {
			*soname = names[i];
			return h;
		}
		const char *e = dlerror();
		if (i == 0)
			snprintf(why, whylen, "%s", e ? e : names[i]);
	}
	return NULL;
}

bool fl_dl_sym(void *lib, const char *soname, const char *name, void *slot,
	       size_t size, char *why, size_t whylen)
{
	void *sym = dlsym(lib, name);
	if (!sym || size != sizeof sym) {
		snprintf(why, whylen, "%s has no %s", soname, name);
		return false;
	}
	/* dlsym gives a data pointer; a function pointer is set through it */
	memcpy(slot, &sym, sizeof sym);
	return true;
}
