/*
 * dynload.h — the shared libraries faultline loads with dlopen() when a
 * command first needs them (libgit2, Hyperscan, libcurl, libmicrohttpd):
 * open one by the first of its names that loads, and read its symbols
 * into a table of typed function pointers.
 */
#ifndef FL_DYNLOAD_H
#define FL_DYNLOAD_H

#include <stdbool.h>
#include <stddef.h>

/* The first of the NULL-terminated names that dlopen() loads (*soname
 * set to it), or NULL with why holding the first name's error. */
void *fl_dl_open(const char *const *names, const char **soname, char *why,
		 size_t whylen);
/* Symbol `name` of lib into the function pointer at slot (size bytes);
 * false, with why naming the missing symbol, when lib has none. */
bool fl_dl_sym(void *lib, const char *soname, const char *name, void *slot,
	       size_t size, char *why, size_t whylen);

#endif
