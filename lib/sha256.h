/*
 * sha256.h — SHA-256 of a buffer, cheap to call many times (record ids,
 * file digests), and of a file of any size, streamed: OpenSSL's one-shot SHA256() looks the algorithm up on
 * every call (0.8 us, three times the hashing of a short key).
 */
#ifndef FL_SHA256_H
#define FL_SHA256_H

#include <stddef.h>
#include <stdint.h>

void fl_sha256(const void *data, size_t n, unsigned char out[32]);
/* The SHA-256 of the rest of open file fd, read in 256 KiB chunks (memory
 * does not grow with the file): 0 with *n the bytes hashed; -1 with errno
 * set when a read fails, or EFBIG when the file holds more than max bytes
 * (then *n is max + 1 or more and out is not set). */
int fl_sha256_fd(int fd, uint64_t max, unsigned char out[32], uint64_t *n);
/* Fetch the algorithm now (OpenSSL's first use in a process loads its
 * configuration and provider: ~2 ms), e.g. on a thread with nothing left
 * to do, instead of on the first caller. */
void fl_sha256_prepare(void);

#endif
