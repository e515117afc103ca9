/*
 * hslib.h — Hyperscan, loaded with dlopen() when a lookup index is first
 * built or opened.  Linked into the binary, Hyperscan and the C++ runtime
 * it needs cost every `faultline` process about 2 ms of dynamic linking at
 * start, scans and listings included, which never match literals.  The
 * header still gives the types and constants.
 */
#ifndef FL_LOOKUP_HSLIB_H
#define FL_LOOKUP_HSLIB_H

#include <hs.h>

#include "faultline.h"

/* the Hyperscan functions the lookup calls (index.c, lookup.c) */
#define FL_HS_FUNCS(X)                                                        \
	X(alloc_scratch) X(compile_lit_multi) X(database_info)                  \
	X(database_size) X(free_compile_error) X(free_database)                 \
	X(free_scratch) X(clone_scratch) X(scan)

typedef struct fl_hs_api {
#define FL_HS_FIELD(name) __typeof__(hs_##name) *name;
	FL_HS_FUNCS(FL_HS_FIELD)
#undef FL_HS_FIELD
} fl_hs_api;

/* The loaded library (once per process, from any thread), or NULL with
 * err saying why it could not be loaded. */
const fl_hs_api *fl_hs(fl_err *err);

#endif
