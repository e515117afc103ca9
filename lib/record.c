/*
 * record.c — the identity and derived fields of an error record
 * (records.md): id, slug, message pattern, source window, permalink, and
 * freeing of the record types.
 */
#define _POSIX_C_SOURCE 200809L
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>

#include "faultline.h"
#include "scan/lex.h"
#include "sha256.h"
#include "util.h"

void fl_entry_free(fl_entry *e)
{
	if (!e)
		return;
	char **strs[] = {
		&e->id, &e->repo, &e->slug, &e->error_code, &e->error_message,
		&e->message_pattern, &e->error_type, &e->error_class,
		&e->severity, &e->file_path, &e->source_code, &e->github_url,
		&e->documentation, &e->trigger_scenarios,
		&e->common_situations, &e->example_fix, &e->handling_strategy,
		&e->validation_code, &e->type_guard, &e->try_catch_pattern,
		&e->background_tag, &e->analyzed_sha, &e->analyzed_at,
		&e->content_changed_at,
	};
	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
		free(*strs[i]);
	fl_strv_free(&e->solutions);
	fl_strv_free(&e->prevention_tips);
	fl_strv_free(&e->tags);
	memset(e, 0, sizeof *e);
}

void fl_repo_free(fl_repo *r)
{
	if (!r)
		return;
	free(r->repo);
	free(r->description);
	free(r->language);
	free(r->default_branch);
	free(r->analyzed_sha);
	free(r->analyzed_at);
	memset(r, 0, sizeof *r);
}

void fl_now_iso(char out[32])
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	struct tm tm;
	time_t t = tv.tv_sec;
	gmtime_r(&t, &tm);
	size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + n, 32 - n, ".%03dZ", (int)(tv.tv_usec / 1000) % 1000);
}

/* ---- identity -------------------------------------------------------------- */

void fl_record_id(const char *repo, const char *code, const char *message,
		  const char *file_path, char out[17])
{
	const char *key = code ? code : (message ? message : "");
	unsigned char md[SHA256_DIGEST_LENGTH];
	size_t lr = strlen(repo), lk = strlen(key), lp = strlen(file_path);
	char *buf = fl_xmalloc(lr + lk + lp + 2);
	memcpy(buf, repo, lr);
	buf[lr] = '\x01';
	memcpy(buf + lr + 1, key, lk);
	buf[lr + 1 + lk] = '\x01';
	memcpy(buf + lr + 2 + lk, file_path, lp);
	fl_sha256(buf, lr + lk + lp + 2, md);
	free(buf);
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 8; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[16] = '\0';
}

/* decode one UTF-8 sequence; returns its length (1 for invalid bytes, with
 * *cp = 0xFFFD) */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t k;
	uint32_t v;
	if ((c & 0xE0) == 0xC0) {
		k = 1;
		v = c & 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		k = 2;
		v = c & 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		k = 3;
		v = c & 0x07;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	if (k >= n) {
		*cp = 0xFFFD;
		return 1;
	}
	for (size_t j = 1; j <= k; j++) {
		if ((s[j] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
		v = (v << 6) | (s[j] & 0x3F);
	}
	*cp = v;
	return k + 1;
}

char *fl_slug_base(const char *src)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t n = strlen((const char *)s);
	fl_buf out = {0};
	size_t units = 0;
	bool dash = false;
	for (size_t i = 0; i < n && units < 50;) {
		uint32_t cp;
		size_t l = utf8_next(s + i, n - i, &cp);
		i += l;
		size_t u = cp >= 0x10000 ? 2 : 1;
		/* a supplementary character cut in half by the 50-unit limit
		 * leaves a lone surrogate, which is not [a-z0-9]: same as
		 * dropping it at the end */
		units += u;
		const char *lower = NULL;
		char one[2] = {0, 0};
		if (cp < 0x80) {
			char c = (char)cp;
			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			one[0] = c;
			lower = one;
		} else if (cp == 0x130) {
			lower = "i\x01"; /* İ lowercases to i + U+0307 */
		} else if (cp == 0x212A) {
			lower = "k"; /* Kelvin sign */
		}
		if (!lower) {
			dash = true;
			continue;
		}
		for (const char *p = lower; *p; p++) {
			char c = *p;
			if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
				if (dash && out.n)
					fl_buf_putc(&out, '-');
				dash = false;
				fl_buf_putc(&out, c);
			} else {
				dash = true;
			}
		}
	}
	if (!out.n) {
		fl_buf_free(&out);
		return fl_xstrdup("error");
	}
	fl_buf_cstr(&out);
	return out.s;
}

char *fl_slug_suffixed(const char *base, const char *id)
{
	return fl_xasprintf("%s-%.6s", base, id);
}

/* ---- patterns ------------------------------------------------------------- */

static bool is_meta(char c)
{
	/* . * + ? ^ $ { } ( ) | [ ] and backslash */
	static const uint8_t meta[256] = {
		['.'] = 1, ['*'] = 1, ['+'] = 1, ['?'] = 1, ['^'] = 1, ['$'] = 1,
		['{'] = 1, ['}'] = 1, ['('] = 1, [')'] = 1, ['|'] = 1, ['['] = 1,
		[']'] = 1, ['\\'] = 1,
	};
	return meta[(unsigned char)c];
}

char *fl_regex_escape(const char *s)
{
	fl_buf out = {0};
	for (; *s; s++) {
		if (is_meta(*s))
			fl_buf_putc(&out, '\\');
		fl_buf_putc(&out, *s);
	}
	fl_buf_cstr(&out);
	return out.s;
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}
static bool is_word(char c)
{
	return is_alpha(c) || is_digit(c) || c == '_';
}

/* Mark placeholder spans of msg in mask (1 = start of a placeholder,
 * 2 = inside one).  The four forms are marked in the spec's order, each in
 * the text the previous ones left. */
static void mark_placeholders(const char *m, size_t n, unsigned char *mask)
{
	/* 1. ${...} */
	for (size_t i = 0; i + 1 < n; i++) {
		if (m[i] == '$' && m[i + 1] == '{' && !mask[i]) {
			const char *close = memchr(m + i + 2, '}', n - i - 2);
			if (!close)
				continue;
			size_t e = (size_t)(close - m) + 1;
			bool free_ = true;
			for (size_t k = i; k < e; k++)
				if (mask[k])
					free_ = false;
			if (!free_)
				continue;
			mask[i] = 1;
			for (size_t k = i + 1; k < e; k++)
				mask[k] = 2;
			i = e - 1;
		}
	}
	/* 2. %(name)s and 3. printf conversions; %% is a literal */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			if (m[i] != '%' || mask[i])
				continue;
			if (m[i + 1] == '%') {
				i++;
				continue;
			}
			size_t len = 0;
			if (pass == 0) {
				if (m[i + 1] == '(') {
					size_t k = i + 2;
					while (k < n && is_word(m[k]))
						k++;
					if (k > i + 2 && m[k] == ')' &&
					    m[k + 1] && strchr("sdifge", m[k + 1]))
						len = k + 2 - i;
				}
			} else {
				len = fl_printf_conv(m + i, NULL);
			}
			if (!len)
				continue;
			bool free_ = true;
			for (size_t k = i; k < i + len; k++)
				if (mask[k])
					free_ = false;
			if (!free_)
				continue;
			mask[i] = 1;
			for (size_t k = i + 1; k < i + len; k++)
				mask[k] = 2;
			i += len - 1;
		}
	}
	/* 4. {...} without nested braces */
	for (size_t i = 0; i < n; i++) {
		if (m[i] != '{' || mask[i])
			continue;
		size_t k = i + 1;
		while (k < n && m[k] != '{' && m[k] != '}' && !mask[k])
			k++;
		if (k < n && m[k] == '}' && !mask[k]) {
			mask[i] = 1;
			for (size_t j = i + 1; j <= k; j++)
				mask[j] = 2;
			i = k;
		}
	}
}

size_t fl_message_placeholders(const char *msg, size_t *start, size_t *len, size_t max)
{
	size_t n = strlen(msg), k = 0;
	/* asked of the matches a lookup confirms: most messages are short */
	unsigned char small[512];
	unsigned char *mask = n < sizeof small ? small : fl_xmalloc(n + 1);
	memset(mask, 0, n + 1);
	mark_placeholders(msg, n, mask);
	for (size_t i = 0; i < n; i++) {
		if (mask[i] != 1)
			continue;
		size_t e = i + 1;
		while (e < n && mask[e] == 2)
			e++;
		if (k < max) {
			start[k] = i;
			len[k] = e - i;
		}
		k++;
	}
	if (mask != small)
		free(mask);
	return k;
}

/* a backreference: \1..\9 or \g / \k forms, outside an escaped backslash */
static bool has_backref(const char *p)
{
	for (size_t i = 0; p[i]; i++) {
		if (p[i] == '\\') {
			char c = p[i + 1];
			if ((c >= '1' && c <= '9') || c == 'g' || c == 'k')
				return true;
			if (c)
				i++;
		}
	}
	return false;
}

/* a group that is quantified and itself contains a quantifier */
static bool has_nested_quantifier(const char *p)
{
	size_t n = strlen(p);
	/* stack of "group contains a quantifier" flags */
	bool stack[64];
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (c == '\\') {
			i++;
			continue;
		}
		if (c == '[') { /* skip a class */
			i++;
			if (p[i] == '^')
				i++;
			if (p[i] == ']')
				i++;
			while (i < n && p[i] != ']') {
				if (p[i] == '\\')
					i++;
				i++;
			}
			continue;
		}
		if (c == '(') {
			if (depth < 64)
				stack[depth] = false;
			depth++;
			continue;
		}
		bool quant = c == '*' || c == '+' || c == '?' ||
			     (c == '{' && i + 1 < n && is_digit(p[i + 1]));
		if (c == ')') {
			depth--;
			if (depth < 0)
				return false;
			bool inner = depth < 64 ? stack[depth] : false;
			char q = p[i + 1];
			bool quantified = q == '*' || q == '+' || q == '?' ||
					  (q == '{' && is_digit(p[i + 2]));
			if (inner && quantified)
				return true;
			if (inner && depth > 0 && depth <= 64)
				stack[depth - 1] = true;
			continue;
		}
		if (quant && depth > 0 && depth <= 64) {
			/* a lazy/possessive marker after a quantifier is part of it */
			stack[depth - 1] = true;
		}
	}
	return false;
}

bool fl_pattern_unsafe(const char *pattern)
{
	return has_backref(pattern) || has_nested_quantifier(pattern);
}

char *fl_message_pattern(const char *msg)
{
	size_t n = strlen(msg);
	unsigned char *mask = fl_xcalloc(n + 1, 1);
	mark_placeholders(msg, n, mask);
	fl_buf out = {0};
	size_t literal = 0;
	for (size_t i = 0; i < n; i++) {
		if (mask[i] == 1) {
			fl_buf_puts(&out, "(.+?)");
			continue;
		}
		if (mask[i] == 2)
			continue;
		if (((unsigned char)msg[i] & 0xC0) != 0x80)
			literal++; /* count characters, not bytes */
		if (is_meta(msg[i]))
			fl_buf_putc(&out, '\\');
		fl_buf_putc(&out, msg[i]);
	}
	free(mask);
	fl_buf_cstr(&out);
	size_t plen = 0;
	for (const char *p = out.s; *p; p++)
		if (((unsigned char)*p & 0xC0) != 0x80)
			plen++;
	if (literal < 6 || plen > 500 || fl_pattern_unsafe(out.s)) {
		fl_buf_free(&out);
		return fl_regex_escape(msg);
	}
	return out.s;
}

/* ---- source window and permalink --------------------------------------------- */

size_t *fl_line_index(const char *text, size_t len, size_t *nlines)
{
	size_t cap = 64, n = 0;
	size_t *starts = fl_xmalloc(cap * sizeof *starts);
	size_t off = 0;
	while (off < len) {
		if (n + 1 >= cap) {
			cap *= 2;
			starts = fl_xrealloc(starts, cap * sizeof *starts);
		}
		starts[n++] = off;
		const char *nl = memchr(text + off, '\n', len - off);
		if (!nl)
			break;
		off = (size_t)(nl - text) + 1;
	}
	/* sentinel: where line n+1 would start */
	starts[n] = len;
	*nlines = n;
	return starts;
}

bool fl_window_lines(size_t nlines, int line, int *start, int *end)
{
	if (line < 1 || (size_t)line > nlines)
		return false;
	int s = line - FL_WINDOW_RADIUS < 1 ? 1 : line - FL_WINDOW_RADIUS;
	int e = line + FL_WINDOW_RADIUS > (int)nlines ? (int)nlines
						       : line + FL_WINDOW_RADIUS;
	if (e - s + 1 > FL_WINDOW_MAX)
		e = s + FL_WINDOW_MAX - 1;
	*start = s;
	*end = e;
	return true;
}

char *fl_source_window_idx(const char *text, size_t len, const size_t *starts,
			   size_t nlines, int line, int *start, int *end)
{
	int s, e;
	if (!fl_window_lines(nlines, line, &s, &e))
		return NULL;
	size_t from = starts[s - 1];
	size_t to = starts[e]; /* start of the line after the window */
	if (to > from && to <= len && text[to - 1] == '\n')
		to--;
	*start = s;
	*end = e;
	return fl_xstrndup(text + from, to - from);
}

char *fl_source_window(const char *text, size_t len, int line, int *start,
		       int *end)
{
	/* lines are split on '\n'; a final newline ends the last line rather
	 * than starting an empty one */
	size_t nlines;
	size_t *starts = fl_line_index(text, len, &nlines);
	char *w = fl_source_window_idx(text, len, starts, nlines, line, start, end);
	free(starts);
	return w;
}

/* bytes a URL path keeps as they are: letters, digits and
 * -._~/!$&'()*+,;=:@ (a table: a permalink is made for every record) */
#define UP_(c)                                                                 \
	(((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') ||          \
	 ((c) >= '0' && (c) <= '9') || (c) == '_' || (c) == '-' ||             \
	 (c) == '.' || (c) == '~' || (c) == '/' || (c) == '!' || (c) == '$' || \
	 (c) == '&' || (c) == '\'' || (c) == '(' || (c) == ')' || (c) == '*' || \
	 (c) == '+' || (c) == ',' || (c) == ';' || (c) == '=' || (c) == ':' || \
	 (c) == '@')
#define UP4_(b) UP_(b), UP_((b) + 1), UP_((b) + 2), UP_((b) + 3)
#define UP16_(b) UP4_(b), UP4_((b) + 4), UP4_((b) + 8), UP4_((b) + 12)
#define UP64_(b) UP16_(b), UP16_((b) + 16), UP16_((b) + 32), UP16_((b) + 48)
static const bool url_plain[256] = {UP64_(0), UP64_(64), UP64_(128), UP64_(192)};
#undef UP_
#undef UP4_
#undef UP16_
#undef UP64_

static void url_path_encode(fl_buf *b, const char *p)
{
	static const char hex[] = "0123456789ABCDEF";
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (url_plain[c]) {
			fl_buf_putc(b, (char)c);
		} else {
			fl_buf_putc(b, '%');
			fl_buf_putc(b, hex[c >> 4]);
			fl_buf_putc(b, hex[c & 15]);
		}
	}
}

char *fl_permalink(const char *host, const char *repo, const char *sha,
		   const char *file_path, int start, int end,
		   const char *local_root)
{
	fl_buf b = {0};
	const char *style = "github";
	if (!host) {
		fl_buf_puts(&b, "file://");
		if (local_root) {
			url_path_encode(&b, local_root);
			if (!fl_str_ends(local_root, "/"))
				fl_buf_putc(&b, '/');
		}
		url_path_encode(&b, file_path);
		style = "file";
	} else if (strcmp(host, "gitlab.com") == 0 ||
		   strstr(host, "gitlab") != NULL) {
		fl_buf_puts(&b, "https://");
		fl_buf_puts(&b, host);
		fl_buf_putc(&b, '/');
		url_path_encode(&b, repo);
		fl_buf_puts(&b, "/-/blob/");
		fl_buf_puts(&b, sha);
		fl_buf_putc(&b, '/');
		url_path_encode(&b, file_path);
		style = "gitlab";
	} else if (strcmp(host, "bitbucket.org") == 0) {
		fl_buf_puts(&b, "https://bitbucket.org/");
		url_path_encode(&b, repo);
		fl_buf_puts(&b, "/src/");
		fl_buf_puts(&b, sha);
		fl_buf_putc(&b, '/');
		url_path_encode(&b, file_path);
		style = "bitbucket";
	} else {
		fl_buf_puts(&b, "https://");
		fl_buf_puts(&b, host);
		fl_buf_putc(&b, '/');
		url_path_encode(&b, repo);
		fl_buf_puts(&b, "/blob/");
		fl_buf_puts(&b, sha);
		fl_buf_putc(&b, '/');
		url_path_encode(&b, file_path);
	}
	if (start > 0) {
		bool bb = strcmp(style, "bitbucket") == 0;
		fl_buf_puts(&b, bb ? "#lines-" : "#L");
		fl_buf_put_int(&b, start);
		if (end > 0 && end != start) {
			fl_buf_puts(&b, bb ? ":" : strcmp(style, "gitlab") == 0 ? "-" : "-L");
			fl_buf_put_int(&b, end);
		}
	}
	fl_buf_cstr(&b);
	return b.s;
}

int fl_idiom_kind(const char *idiom)
{
	if (!idiom)
		return FL_IDIOM_RAISE;
	/* a text's definition: a class's message, Go's Error() method, a
	 * Rust error variant's #[error(...)] or arm of its Display, the text
	 * a C table gives an error code (another line prints it), an error
	 * enum's constant (the calls that name it report it) */
	if (strncmp(idiom, "class ", 6) == 0 || strcmp(idiom, "message template") == 0 ||
	    strcmp(idiom, "Error() string") == 0 || strcmp(idiom, "#[error]") == 0 ||
	    strncmp(idiom, "impl Display", 12) == 0 || strcmp(idiom, "error message table") == 0 ||
	    strcmp(idiom, "error enum constant") == 0)
		return FL_IDIOM_DEF;
	if (strcmp(idiom, "error factory call") == 0)
		return FL_IDIOM_CALL;
	return FL_IDIOM_RAISE;
}
