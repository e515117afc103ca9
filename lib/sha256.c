/*
 * sha256.c — fl_sha256(): the algorithm is fetched once per process and
 * each thread keeps its own digest context.
 */
#include "sha256.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <pthread.h>

static EVP_MD *md_sha256;
static pthread_once_t md_once = PTHREAD_ONCE_INIT;
static pthread_key_t ctx_key;
static int ctx_key_ok;

static void ctx_free(void *p)
{
	EVP_MD_CTX_free(p);
}

static void md_init(void)
{
	md_sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
	ctx_key_ok = pthread_key_create(&ctx_key, ctx_free) == 0;
}

void fl_sha256_prepare(void)
{
	pthread_once(&md_once, md_init);
}

void fl_sha256(const void *data, size_t n, unsigned char out[32])
{
	pthread_once(&md_once, md_init);
	EVP_MD_CTX *c = ctx_key_ok ? pthread_getspecific(ctx_key) : NULL;
	if (!c && md_sha256 && ctx_key_ok) {
		c = EVP_MD_CTX_new();
		if (c && pthread_setspecific(ctx_key, c) != 0) {
			EVP_MD_CTX_free(c);
			c = NULL;
		}
	}
	unsigned int len = 0;
	if (!c || !EVP_DigestInit_ex2(c, md_sha256, NULL) ||
	    !EVP_DigestUpdate(c, data, n) || !EVP_DigestFinal_ex(c, out, &len))
		SHA256(data, n, out); /* no context to be had: the slow way */
}
