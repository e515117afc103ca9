/*
 * cryptolib.h — OpenSSL's libcrypto, loaded with dlopen() when a digest is
 * first taken (scans, record ids, downloads).  Linked into the binary, its
 * start-up (relocations and initializers) cost every `faultline` process
 * about 7 ms here, a third of a cold `explain`, which takes no digest.
 * The headers still give the types.
 */
#ifndef FL_CRYPTOLIB_H
#define FL_CRYPTOLIB_H

#include <openssl/evp.h>
#include <openssl/sha.h>

/* the libcrypto functions faultline calls */
#define FL_CRYPTO_FUNCS(X)                                                     \
	X(EVP_MD_CTX_new) X(EVP_MD_CTX_free) X(EVP_DigestInit_ex)              \
	X(EVP_DigestInit_ex2) X(EVP_DigestUpdate) X(EVP_DigestFinal_ex)        \
	X(EVP_sha256) X(EVP_sha1) X(EVP_MD_fetch) X(SHA256)

typedef struct fl_crypto_api {
#define FL_CRYPTO_FIELD(name) __typeof__(name) *name;
	FL_CRYPTO_FUNCS(FL_CRYPTO_FIELD)
#undef FL_CRYPTO_FIELD
} fl_crypto_api;

/* The loaded library (once per process, from any thread).  libcrypto is
 * as necessary as the C library: when it cannot be loaded the process
 * says why and exits (status 1), as the dynamic linker would have. */
const fl_crypto_api *fl_crypto(void);

#endif
