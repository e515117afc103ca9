/*
 * util.h — small internal helpers: allocation that aborts on exhaustion,
 * string duplication and formatting, file reading.
 */
#ifndef FL_UTIL_H
#define FL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *fl_xmalloc(size_t n);
void *fl_xcalloc(size_t n, size_t m);
/* n zeroed bytes; from 2 MB on, a mapping of their own on huge pages where
 * the kernel gives them on request (*mapped: its length, else 0), so that
 * writing them through takes a few faults instead of one each 4 KB (a
 * fault costs microseconds in a virtual machine).  Freed by fl_free_huge
 * with *mapped. */
void *fl_xzalloc_huge(size_t n, size_t *mapped);
/* len bytes (a multiple of 2 MB) of zeroed memory, a mapping of their own
 * aligned on a huge page and advised as huge pages; NULL when none can be
 * mapped.  Unmapped with munmap(p, len). */
void *fl_map_huge(size_t len);
void fl_free_huge(void *p, size_t mapped);
void *fl_xrealloc(void *p, size_t n);
char *fl_xstrdup(const char *s);        /* NULL -> NULL */
/* n random bytes (getrandom; time and pid when it fails) */
void fl_random_bytes(void *out, size_t n);
char *fl_xstrndup(const char *s, size_t n);
char *fl_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* dir + "/" + name (caller frees): fl_xasprintf("%s/%s") without the
 * format parsing, for paths built once per file */
/* a, sep and b in one new string (what "%s%s%s" would print, without
 * printf's cost: names are joined this way for every method of a file) */
char *fl_xjoin(const char *a, const char *sep, const char *b);
char *fl_path_join(const char *dir, const char *name);

/* Read a whole file; returns malloc'd buffer (NUL-terminated, *len without
 * the NUL) or NULL with err set. */
struct fl_err;
char *fl_read_file(const char *path, size_t *len, struct fl_err *err);
/* The rest of open file fd (size_hint: its expected size), NUL-terminated;
 * NULL with errno set when a read fails.  regular: fd is a regular file,
 * whose end a short read shows. */
char *fl_read_fd(int fd, size_t size_hint, bool regular, size_t *len);
/* Write all n bytes of p to fd, again after EINTR: 0, or -1 with errno set
 * (EIO when the file takes no more bytes). */
int fl_write_all(int fd, const void *p, size_t n);

bool fl_str_starts(const char *s, const char *prefix);
bool fl_str_ends(const char *s, const char *suffix);

/* The first occurrence of needle[0,k) in s[0,n), or NULL: memmem(), for
 * the scanner's byte scans of whole files, which look for short words
 * (k <= 32 in practice) and often from hit to hit: 16 positions at a time
 * where the word's first and last bytes both are, with no set-up per call
 * (glibc's memmem builds a shift table on every call). */
const char *fl_memmem(const char *s, size_t n, const char *needle, size_t k);

/* Valid UTF-8 check. */
/* Length of the printf conversion at s (s[0] == '%'): flags, width,
 * precision, length and the conversion letter (C's and Go's verbs: the
 * placeholders records.md's patterns mark), or 0 when there is none;
 * *stars (if not NULL) = the arguments its `*` width and precision take. */
size_t fl_printf_conv(const char *s, int *stars);
bool fl_utf8_valid(const char *s, size_t n);

/* Copy of s[0,n) with every invalid UTF-8 sequence replaced by U+FFFD
 * and NUL bytes by U+FFFD (caller frees). */
char *fl_utf8_fix(const char *s, size_t n);

/* Monotonic seconds. */
double fl_now_mono(void);

/* ---- growable string ---------------------------------------------------- */

typedef struct fl_buf {
	char *s;
	size_t n, cap;
} fl_buf;

void fl_buf_reserve(fl_buf *b, size_t n);       /* room for n more bytes and a NUL */
/* one byte: inline, as callers write text a byte at a time */
static inline void fl_buf_putc(fl_buf *b, char c)
{
	if (b->n + 2 > b->cap)
		fl_buf_reserve(b, 1);
	b->s[b->n++] = c;
}
void fl_buf_put(fl_buf *b, const char *s, size_t n);
void fl_buf_puts(fl_buf *b, const char *s);
void fl_buf_put_utf8(fl_buf *b, uint32_t cp); /* invalid cp -> U+FFFD */
void fl_buf_put_int(fl_buf *b, long long v);  /* decimal, as "%lld" */
void fl_buf_printf(fl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *fl_buf_cstr(fl_buf *b);            /* NUL-terminated view */
void fl_buf_reset(fl_buf *b);
void fl_buf_free(fl_buf *b);

/* What a record's idiom (the store's idiom column) says of its line: the
 * message's definition (a class's constructor, __str__ or attribute, a
 * template, an Error() method, a Rust variant's #[error] or Display arm:
 * FL_IDIOM_DEF, tagged "definition"), a call
 * of an error factory (FL_IDIOM_CALL, tagged "factory-call"), or a raise
 * site.  The lookup ranks a text's raise sites before its definition
 * (lookup/rank.c; the site's search reads the tags). */
enum { FL_IDIOM_RAISE, FL_IDIOM_DEF, FL_IDIOM_CALL };
int fl_idiom_kind(const char *idiom);

#endif
