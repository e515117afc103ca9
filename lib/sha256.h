/*
 * sha256.h — SHA-256 of a buffer, cheap to call many times (record ids,
 * file digests): OpenSSL's one-shot SHA256() looks the algorithm up on
 * every call (0.8 us, three times the hashing of a short key).
 */
#ifndef FL_SHA256_H
#define FL_SHA256_H

#include <stddef.h>

void fl_sha256(const void *data, size_t n, unsigned char out[32]);
/* Fetch the algorithm now (OpenSSL's first use in a process loads its
 * configuration and provider: ~2 ms), e.g. on a thread with nothing left
 * to do, instead of on the first caller. */
void fl_sha256_prepare(void);

#endif
