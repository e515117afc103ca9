/*
 * buf.c — escaping data into fl_buf for the publishing code: HTML text and
 * attributes, URL path segments, and JSON strings written the way jansson's
 * compact dump writes them (optionally safe inside an HTML <script>).
 */
#include <stdlib.h>
#include <string.h>

#include "publish.h"
#include "util.h"

void pub_html_n(fl_buf *b, const char *s, size_t n)
{
	char *fixed = NULL;
	if (!fl_utf8_valid(s, n)) {
		fixed = fl_utf8_fix(s, n);
		s = fixed;
		n = strlen(fixed);
	}
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		const char *rep;
		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default: continue;
		}
		fl_buf_put(b, s + run, i - run);
		fl_buf_puts(b, rep);
		run = i + 1;
	}
	fl_buf_put(b, s + run, n - run);
	free(fixed);
}

void pub_html(fl_buf *b, const char *s)
{
	if (s)
		pub_html_n(b, s, strlen(s));
}

void pub_urlpart(fl_buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char c = *p;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
		    c == '~') {
			fl_buf_putc(b, (char)c);
		} else {
			char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
			fl_buf_put(b, esc, 3);
		}
	}
}

void pub_json_str(fl_buf *b, const char *s, bool html_safe)
{
	static const char hex[] = "0123456789ABCDEF";
	if (!s) {
		fl_buf_puts(b, "null");
		return;
	}
	char *fixed = NULL;
	size_t n = strlen(s);
	if (!fl_utf8_valid(s, n)) {
		fixed = fl_utf8_fix(s, n);
		s = fixed;
	}
	fl_buf_putc(b, '"');
	const char *run = s;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char c = *p;
		const char *rep = NULL;
		char u[7];
		switch (c) {
		case '"': rep = "\\\""; break;
		case '\\': rep = "\\\\"; break;
		case '\b': rep = "\\b"; break;
		case '\f': rep = "\\f"; break;
		case '\n': rep = "\\n"; break;
		case '\r': rep = "\\r"; break;
		case '\t': rep = "\\t"; break;
		case '/': rep = html_safe ? "\\/" : NULL; break;
		case '<': rep = html_safe ? "\\u003c" : NULL; break;
		case '>': rep = html_safe ? "\\u003e" : NULL; break;
		case '&': rep = html_safe ? "\\u0026" : NULL; break;
		default:
			if (c < 0x20) {
				memcpy(u, "\\u00", 4);
				u[4] = hex[c >> 4];
				u[5] = hex[c & 15];
				u[6] = '\0';
				rep = u;
			}
		}
		if (!rep)
			continue;
		fl_buf_put(b, run, (size_t)((const char *)p - run));
		fl_buf_puts(b, rep);
		run = (const char *)p + 1;
	}
	fl_buf_puts(b, run);
	fl_buf_putc(b, '"');
	free(fixed);
}
