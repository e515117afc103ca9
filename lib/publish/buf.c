/*
 * buf.c — growable byte buffers for the publishing code, with HTML escaping
 * and URL path encoding of data.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "publish.h"
#include "util.h"

void pub_buf_add(pub_buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (b->n + n + 1 > cap)
			cap *= 2;
		b->p = fl_xrealloc(b->p, cap);
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

void pub_buf_puts(pub_buf *b, const char *s)
{
	pub_buf_add(b, s, strlen(s));
}

void pub_buf_printf(pub_buf *b, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		pub_buf_add(b, small, (size_t)n);
		return;
	}
	char *p = fl_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	pub_buf_add(b, p, (size_t)n);
	free(p);
}

void pub_buf_html_n(pub_buf *b, const char *s, size_t n)
{
	char *fixed = NULL;
	if (!fl_utf8_valid(s, n)) {
		fixed = fl_utf8_fix(s, n);
		s = fixed;
		n = strlen(fixed);
	}
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		const char *rep = NULL;
		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default: break;
		}
		if (rep) {
			pub_buf_add(b, s + run, i - run);
			pub_buf_puts(b, rep);
			run = i + 1;
		}
	}
	pub_buf_add(b, s + run, n - run);
	free(fixed);
}

void pub_buf_html(pub_buf *b, const char *s)
{
	if (s)
		pub_buf_html_n(b, s, strlen(s));
}

void pub_buf_urlpart(pub_buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char c = *p;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
		    c == '~') {
			char ch = (char)c;
			pub_buf_add(b, &ch, 1);
		} else {
			char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
			pub_buf_add(b, esc, 3);
		}
	}
}

void pub_buf_free(pub_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}
