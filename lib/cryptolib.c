/*
 * cryptolib.c — loads libcrypto on first use (see cryptolib.h).
 */
#include "cryptolib.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "dynload.h"

#ifndef FL_LIBCRYPTO_SONAME
#define FL_LIBCRYPTO_SONAME "libcrypto.so"
#endif

static fl_crypto_api api;
static bool loaded;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	static const char *const names[] = {FL_LIBCRYPTO_SONAME, "libcrypto.so", NULL};
	const char *soname = names[0];
	void *lib = fl_dl_open(names, &soname, why, sizeof why);
	bool ok = lib != NULL;
#define FL_CRYPTO_LOAD(name)                                                    \
	ok = ok && fl_dl_sym(lib, soname, #name, &api.name, sizeof api.name, why, \
			     sizeof why);
	FL_CRYPTO_FUNCS(FL_CRYPTO_LOAD)
#undef FL_CRYPTO_LOAD
	loaded = ok;
}

const fl_crypto_api *fl_crypto(void)
{
	pthread_once(&once, load);
	if (!loaded) {
		fprintf(stderr, "faultline: OpenSSL's libcrypto could not be loaded (%s): install the libssl3 package\n",
			why[0] ? why : FL_LIBCRYPTO_SONAME);
		exit(1);
	}
	return &api;
}
