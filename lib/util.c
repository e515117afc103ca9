/*
 * util.c — allocation, strings, string vectors, file reading, UTF-8 validation,
 * clocks.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "util.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h> /* fl_memmem's AVX2 loop, chosen at run time */
#endif
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "faultline.h"

static void oom(void)
{
	fputs("faultline: out of memory\n", stderr);
	abort();
}

void *fl_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *fl_xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p)
		oom();
	return p;
}

#define HUGE_PAGE ((size_t)2 << 20)
void *fl_map_huge(size_t len)
{
	char *m = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	/* aligned to a huge page: the slack around unmapped */
	size_t head = (HUGE_PAGE - (uintptr_t)m % HUGE_PAGE) % HUGE_PAGE;
	if (head)
		munmap(m, head);
	if (HUGE_PAGE - head)
		munmap(m + head + len, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
	(void)madvise(m + head, len, MADV_HUGEPAGE); /* advice only */
#endif
	return m + head;
}

void *fl_xzalloc_huge(size_t n, size_t *mapped)
{
	*mapped = 0;
	if (n >= HUGE_PAGE) {
		size_t len = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
		char *m = fl_map_huge(len);
		if (m) {
			*mapped = len;
			return m;
		}
	}
	return fl_xcalloc(1, n);
}

void fl_free_huge(void *p, size_t mapped)
{
	if (mapped)
		munmap(p, mapped);
	else
		free(p);
}

void *fl_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *fl_xstrdup(const char *s)
{
	if (!s)
		return NULL;
	return fl_xstrndup(s, strlen(s));
}

char *fl_xstrndup(const char *s, size_t n)
{
	char *p = fl_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *fl_xjoin(const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
	char *p = fl_xmalloc(la + ls + lb + 1);
	memcpy(p, a, la);
	memcpy(p + la, sep, ls);
	memcpy(p + la + ls, b, lb + 1);
	return p;
}

char *fl_path_join(const char *dir, const char *name)
{
	return fl_xjoin(dir, "/", name);
}

char *fl_xasprintf(const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	if ((size_t)n < sizeof small)
		return fl_xstrdup(small);
	char *p = fl_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

int fl_seterr(fl_err *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int fl_write_all(int fd, const void *data, size_t n)
{
	const char *p = data;
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

char *fl_read_fd(int fd, size_t size_hint, bool regular, size_t *len)
{
	/* a buffer of the expected size and a byte more, to see the end in
	 * one read; a file that grows meanwhile is read to its new end */
	size_t cap = size_hint + 2, n = 0;
	char *buf = fl_xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = fl_xrealloc(buf, cap);
		}
		size_t want = cap - n - 1;
		ssize_t r = read(fd, buf + n, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		/* a regular file reads short only at its end: no second read
		 * to be told so (one system call per file of a scan); but one
		 * read() gives at most 2 GiB - 4 KiB, so a file is only at its
		 * end once its expected size is in */
		if (regular && (size_t)r < want && n >= size_hint)
			break;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *fl_read_file(const char *path, size_t *len, struct fl_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fl_seterr(err, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat sb;
	bool reg = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 0;
	char *buf = fl_read_fd(fd, reg ? (size_t)sb.st_size : 65534, reg, len);
	if (!buf)
		fl_seterr(err, "cannot read %s: %s", path, strerror(errno));
	close(fd);
	return buf;
}

bool fl_str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool fl_str_ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

/* How common a byte is in source text and logs (higher: more common):
 * fl_memmem compares the needle's two rarest bytes first, so that "throw "
 * is looked for by its 'w' and 'h' rather than by a 't' and a space that
 * every line has. */
static uint8_t byte_commonness(unsigned char c)
{
	static const char *const tiers[] = {
		" ",            /* 9 */
		"e\n",          /* 8 */
		"taoinsr",      /* 7 */
		"lcdu*\t",      /* 6 */
		"hpmf.();,\"=_", /* 5 */
		"gbyw/-:0{}",   /* 4 */
		"vk1E2STCAI><[]'", /* 3 */
	};
	for (size_t t = 0; t < sizeof tiers / sizeof tiers[0]; t++)
		if (c && strchr(tiers[t], c))
			return (uint8_t)(9 - t);
	return c >= 0x80 ? 1 : 2;
}

static uint8_t rank[256];
static pthread_once_t rank_once = PTHREAD_ONCE_INIT;

static void fill_rank(void)
{
	for (int c = 0; c < 256; c++)
		rank[c] = byte_commonness((unsigned char)c);
}

/* the needle's two positions to test first: its rarest byte and the
 * rarest byte at another position (*a < *b) */
static void rare_pair(const char *needle, size_t k, size_t *a, size_t *b)
{
	pthread_once(&rank_once, fill_rank);
	size_t x = 0;
	for (size_t i = 1; i < k; i++)
		if (rank[(unsigned char)needle[i]] < rank[(unsigned char)needle[x]])
			x = i;
	size_t y = x == 0 ? 1 : 0;
	for (size_t i = 0; i < k; i++)
		if (i != x && rank[(unsigned char)needle[i]] < rank[(unsigned char)needle[y]])
			y = i;
	*a = x < y ? x : y;
	*b = x < y ? y : x;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* 32 start positions at a time, AVX2 (chosen at run time) */
__attribute__((target("avx2"))) static size_t memmem_avx2(const char *s, size_t last, const char *needle,
							 size_t k, size_t a, size_t b, size_t *at)
{
	const __m256i va = _mm256_set1_epi8(needle[a]);
	const __m256i vb = _mm256_set1_epi8(needle[b]);
	size_t i = 0;
	for (; i + 31 <= last; i += 32) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + a));
		__m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + b));
		unsigned m = (unsigned)_mm256_movemask_epi8(
			_mm256_and_si256(_mm256_cmpeq_epi8(x, va), _mm256_cmpeq_epi8(y, vb)));
		while (m) {
			unsigned bit = (unsigned)__builtin_ctz(m);
			if (memcmp(s + i + bit, needle, k) == 0) {
				*at = i + bit;
				return i;
			}
			m &= m - 1;
		}
	}
	*at = SIZE_MAX;
	return i;
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
/* Whether the CPU and the OS run AVX2, asked on the first call (not
 * __builtin_cpu_supports: it links libgcc's constructor that asks the CPU
 * dozens of questions at every process start, each a VM exit on a guest). */
static bool have_avx2(void)
{
	static int known; /* 0 not asked, 1 no, 2 yes */
	int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
	if (!k) {
		unsigned a, b, c, d;
		bool yes = false;
		if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
			unsigned lo, hi;
			__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
			yes = (lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2);
		}
		k = yes ? 2 : 1;
		__atomic_store_n(&known, k, __ATOMIC_RELAXED);
	}
	return k == 2;
}
#endif

const char *fl_memmem(const char *s, size_t n, const char *needle, size_t k)
{
	if (k == 0)
		return s;
	if (k > n)
		return NULL;
	if (k == 1)
		return memchr(s, needle[0], n);
	size_t i = 0, last = n - k; /* the last start position */
	size_t a = 0, b = k - 1;
	if (last >= 32) /* worth choosing on a longer text */
		rare_pair(needle, k, &a, &b);
#if defined(__x86_64__) && defined(__GNUC__)
	if (have_avx2()) {
		size_t at;
		i = memmem_avx2(s, last, needle, k, a, b, &at);
		if (at != SIZE_MAX)
			return s + at;
	}
#endif
#if defined(__SSE2__)
	const __m128i va = _mm_set1_epi8(needle[a]);
	const __m128i vb = _mm_set1_epi8(needle[b]);
	/* 16 start positions i..i+15 while their bytes are in s */
	for (; i + 15 <= last; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i + a));
		__m128i y = _mm_loadu_si128((const __m128i *)(const void *)(s + i + b));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(y, vb)));
		while (m) {
			unsigned bit = (unsigned)__builtin_ctz(m);
			if (memcmp(s + i + bit, needle, k) == 0)
				return s + i + bit;
			m &= m - 1;
		}
	}
#endif
	for (; i <= last; i++) {
		const char *p = memchr(s + i + a, needle[a], last - i + 1);
		if (!p)
			return NULL;
		i = (size_t)(p - s) - a;
		if (memcmp(s + i, needle, k) == 0)
			return s + i;
	}
	return NULL;
}

bool fl_utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	while (i < n) {
		/* ASCII eight bytes at a time */
		uint64_t w;
		while (i + 8 <= n && (memcpy(&w, s + i, 8), !(w & 0x8080808080808080ull)))
			i += 8;
		if (i >= n)
			break;
		unsigned char c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t k;
		unsigned int cp;
		if ((c & 0xE0) == 0xC0) {
			k = 1;
			cp = c & 0x1F;
		} else if ((c & 0xF0) == 0xE0) {
			k = 2;
			cp = c & 0x0F;
		} else if ((c & 0xF8) == 0xF0) {
			k = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		for (size_t j = 1; j <= k; j++) {
			if (i + j >= n || (s[i + j] & 0xC0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + j] & 0x3F);
		}
		if ((k == 1 && cp < 0x80) || (k == 2 && cp < 0x800) ||
		    (k == 3 && cp < 0x10000) || cp > 0x10FFFF ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += k + 1;
	}
	return true;
}

char *fl_utf8_fix(const char *str, size_t n)
{
	/* nearly always: nothing to fix */
	if (fl_utf8_valid(str, n) && !memchr(str, '\0', n))
		return fl_xstrndup(str, n);
	const unsigned char *s = (const unsigned char *)str;
	char *out = fl_xmalloc(n * 3 + 1);
	size_t o = 0, i = 0;
	while (i < n) {
		size_t k = 0;
		unsigned char c = s[i];
		if (c >= 0x01 && c < 0x80) {
			out[o++] = (char)c;
			i++;
			continue;
		}
		if ((c & 0xE0) == 0xC0)
			k = 2;
		else if ((c & 0xF0) == 0xE0)
			k = 3;
		else if ((c & 0xF8) == 0xF0)
			k = 4;
		if (k && i + k <= n && fl_utf8_valid(str + i, k)) {
			memcpy(out + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

double fl_now_mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- fl_buf -------------------------------------------------------------- */

static void buf_grow(fl_buf *b, size_t need)
{
	if (b->n + need + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->n + need + 1)
		cap *= 2;
	b->s = fl_xrealloc(b->s, cap);
	b->cap = cap;
}

void fl_buf_reserve(fl_buf *b, size_t n)
{
	buf_grow(b, n);
}

void fl_buf_put(fl_buf *b, const char *s, size_t n)
{
	if (!n)
		return;
	buf_grow(b, n);
	memcpy(b->s + b->n, s, n);
	b->n += n;
}

void fl_buf_put_int(fl_buf *b, long long v)
{
	char d[24];
	size_t k = sizeof d;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do {
		d[--k] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		d[--k] = '-';
	fl_buf_put(b, d + k, sizeof d - k);
}

void fl_buf_puts(fl_buf *b, const char *s)
{
	fl_buf_put(b, s, strlen(s));
}

void fl_buf_put_utf8(fl_buf *b, uint32_t cp)
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		fl_buf_putc(b, (char)cp);
	} else if (cp < 0x800) {
		fl_buf_putc(b, (char)(0xC0 | (cp >> 6)));
		fl_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		fl_buf_putc(b, (char)(0xE0 | (cp >> 12)));
		fl_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		fl_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else {
		fl_buf_putc(b, (char)(0xF0 | (cp >> 18)));
		fl_buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
		fl_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		fl_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	}
}

void fl_buf_printf(fl_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char small[256];
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		fl_buf_put(b, small, (size_t)n);
		return;
	}
	buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

const char *fl_buf_cstr(fl_buf *b)
{
	buf_grow(b, 0);
	b->s[b->n] = '\0';
	return b->s;
}

void fl_buf_reset(fl_buf *b)
{
	b->n = 0;
}

void fl_buf_free(fl_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->n = b->cap = 0;
}

/* ---- string vectors ------------------------------------------------------ */

void fl_strv_push(fl_strv *sv, const char *s)
{
	/* grown by half again when full (the block's own size says when:
	 * vectors are also made elsewhere), not by one: a log of 25k lines
	 * was quadratic, and minutes under AddressSanitizer */
	size_t need = (sv->n + 1) * sizeof *sv->v;
	if (!sv->v || malloc_usable_size(sv->v) < need)
		sv->v = fl_xrealloc(sv->v, need + need / 2 + 4 * sizeof *sv->v);
	sv->v[sv->n++] = fl_xstrdup(s);
}

bool fl_strv_push_new(fl_strv *sv, const char *s)
{
	for (size_t k = 0; k < sv->n; k++)
		if (strcmp(sv->v[k], s) == 0)
			return false;
	fl_strv_push(sv, s);
	return true;
}

void fl_strv_free(fl_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

/* ---- printf conversions ------------------------------------------------ */

size_t fl_printf_conv(const char *s, int *stars)
{
	size_t i = 1;
	int st = 0;
	while (s[i] && strchr("-+ #0'", s[i]))
		i++;
	if (s[i] == '*') {
		st++;
		i++;
	} else {
		while (s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (s[i] == '.') {
		i++;
		if (s[i] == '*') {
			st++;
			i++;
		} else {
			while (s[i] >= '0' && s[i] <= '9')
				i++;
		}
	}
	if ((s[i] == 'h' && s[i + 1] == 'h') || (s[i] == 'l' && s[i + 1] == 'l'))
		i += 2;
	else if (s[i] && strchr("hlLqjzZt", s[i]) &&
		 ((s[i + 1] >= 'a' && s[i + 1] <= 'z') || (s[i + 1] >= 'A' && s[i + 1] <= 'Z')))
		i++;
	/* %Q %S %r (sqlite's printf, C's wide %S, Python's repr) only
	 * without a blank flag: "100% ready" is text */
	if (s[i] && (strchr("diouxXeEfFgGaAcspnvwqTtbjz", s[i]) ||
		     (strchr("QSr", s[i]) && !memchr(s + 1, ' ', i - 1)))) {
		if (stars)
			*stars = st;
		return i + 1;
	}
	return 0;
}

void fl_random_bytes(void *out, size_t n)
{
	unsigned char *p = out;
	size_t got = 0;
	while (got < n) {
		ssize_t r = getrandom(p + got, n - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got < n) { /* no entropy source: time and process, mixed */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
			     ((uint64_t)getpid() << 40);
		for (size_t i = got; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[i] = (unsigned char)x;
		}
	}
}
