/*
 * sha256.c — fl_sha256(): the algorithm is fetched once per process and
 * each thread keeps its own digest context; fl_sha256_fd() streams a file.
 */
#include "sha256.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "cryptolib.h"
#include <openssl/sha.h>
#include <pthread.h>

static EVP_MD *md_sha256;
static pthread_once_t md_once = PTHREAD_ONCE_INIT;
static pthread_key_t ctx_key;
static int ctx_key_ok;

static void ctx_free(void *p)
{
	fl_crypto()->EVP_MD_CTX_free(p);
}

static void md_init(void)
{
	md_sha256 = fl_crypto()->EVP_MD_fetch(NULL, "SHA256", NULL);
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
		c = fl_crypto()->EVP_MD_CTX_new();
		if (c && pthread_setspecific(ctx_key, c) != 0) {
			fl_crypto()->EVP_MD_CTX_free(c);
			c = NULL;
		}
	}
	unsigned int len = 0;
	if (!c || !fl_crypto()->EVP_DigestInit_ex2(c, md_sha256, NULL) ||
	    !fl_crypto()->EVP_DigestUpdate(c, data, n) || !fl_crypto()->EVP_DigestFinal_ex(c, out, &len))
		fl_crypto()->SHA256(data, n, out); /* no context to be had: the slow way */
}

int fl_sha256_fd(int fd, uint64_t max, unsigned char out[32], uint64_t *n)
{
	pthread_once(&md_once, md_init);
	enum { CHUNK = 256 * 1024 };
	*n = 0;
	unsigned char *buf = malloc(CHUNK);
	EVP_MD_CTX *c = fl_crypto()->EVP_MD_CTX_new();
	int rc = -1, e = ENOMEM;
	if (!buf || !c || !fl_crypto()->EVP_DigestInit_ex2(c, md_sha256 ? md_sha256 : fl_crypto()->EVP_sha256(), NULL))
		goto out;
	for (;;) {
		ssize_t r = read(fd, buf, CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			goto out;
		}
		if (r == 0)
			break;
		*n += (uint64_t)r;
		if (*n > max) {
			e = EFBIG;
			goto out;
		}
		if (!fl_crypto()->EVP_DigestUpdate(c, buf, (size_t)r)) {
			e = EIO;
			goto out;
		}
	}
	unsigned int len = 0;
	if (!fl_crypto()->EVP_DigestFinal_ex(c, out, &len)) {
		e = EIO;
		goto out;
	}
	rc = 0;
out:
	fl_crypto()->EVP_MD_CTX_free(c);
	free(buf);
	if (rc < 0)
		errno = e;
	return rc;
}
