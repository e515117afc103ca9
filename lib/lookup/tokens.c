/*
 * tokens.c — tokenizer shared by the fuzzy lookup tier, the lookup index
 * and the published search shards, so all three agree on what a token is.
 */
#include "tokens.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

/* The quotes at i and k hold their whole line, but for spaces and a final
 * period (a message printed in quotes: `"Encoding {0} not supported on
 * this JVM."`): its words are the text, no quoted value. */
static bool whole_line(const char *s, size_t n, size_t i, size_t k)
{
	for (size_t a = i; a > 0 && s[a - 1] != '\n'; a--)
		if (!is_space((unsigned char)s[a - 1]))
			return false;
	for (size_t b = k + 1; b < n && s[b] != '\n'; b++)
		if (!is_space((unsigned char)s[b]) && s[b] != '.')
			return false;
	return k > i + 1;
}

/* Mark the bytes to blank out: placeholders, quoted strings, paths, hex
 * numbers and numbers; everything else is split on non-letters. */
static void blank(const char *s, size_t n, unsigned char *m)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		/* placeholders: ${...} {...} %(name)s %-5.2lld */
		if (c == '{' || (c == '$' && i + 1 < n && s[i + 1] == '{')) {
			size_t k = i + 1;
			while (k < n && s[k] != '}' && s[k] != '{' && k - i < 80)
				k++;
			if (k < n && s[k] == '}') {
				memset(m + i, 1, k - i + 1);
				i = k;
				continue;
			}
		}
		if (c == '%' && i + 1 < n) {
			size_t k = i + 1;
			if (s[k] == '(') {
				while (k < n && s[k] != ')' && k - i < 40)
					k++;
				k++;
			}
			while (k < n && strchr("-+ #0123456789.*lhzjtqL", s[k]) && k - i < 20)
				k++;
			if (k < n && is_letter((unsigned char)s[k]) && (unsigned char)s[k] < 0x80) {
				memset(m + i, 1, k - i + 1);
				i = k;
				continue;
			}
		}
		/* quoted strings, within one line */
		if (c == '\'' || c == '"' || c == '`') {
			/* an apostrophe inside a word (don't) is not a quote */
			if (c == '\'' && i > 0 && is_letter((unsigned char)s[i - 1]) &&
			    i + 1 < n && is_letter((unsigned char)s[i + 1]))
				continue;
			/* `value' (the quotes of GNU tools, mcs, older gcc) ends
			 * at its apostrophe: else "`{0}' cannot be applied to
			 * `{1}'" would hide the words between two values */
			char close = (char)c;
			size_t k = i + 1;
			while (k < n && s[k] != close && s[k] != '\n') {
				if (c == '`' && s[k] == '\'' &&
				    !(is_letter((unsigned char)s[k - 1]) && k + 1 < n &&
				      is_letter((unsigned char)s[k + 1])))
					close = '\'';
				else
					k++;
			}
			if (k < n && s[k] == close && !whole_line(s, n, i, k)) {
				memset(m + i, 1, k - i + 1);
				i = k;
				continue;
			}
		}
		/* words: a path holds '/' or '\'; a hex number is 0x.. or 8+ hex
		 * digits; a number starts with a digit */
		if (!is_space(c) && (i == 0 || is_space((unsigned char)s[i - 1]) ||
				     !is_letter((unsigned char)s[i - 1]))) {
			size_t k = i;
			int slash = 0, hex = 1, digits = 0;
			while (k < n && !is_space((unsigned char)s[k]) && s[k] != '"' &&
			       s[k] != '\'' && s[k] != ',' && s[k] != ';' && s[k] != ')' &&
			       s[k] != '(') {
				if (s[k] == '/' || s[k] == '\\')
					slash = 1;
				if (!is_hex((unsigned char)s[k]))
					hex = 0;
				else if (s[k] >= '0' && s[k] <= '9')
					digits++;
				k++;
			}
			size_t len = k - i;
			int word_start = i == 0 || is_space((unsigned char)s[i - 1]);
			if ((slash && word_start) ||
			    (hex && len >= 8 && digits > 0) ||
			    (len > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))) {
				memset(m + i, 1, len);
				i = k - 1;
				continue;
			}
		}
		if (c >= '0' && c <= '9')
			m[i] = 1;
	}
}

size_t fl_tokens(const char *text, char *buf, const char **toks, size_t max)
{
	size_t n = strlen(text), count = 0;
	unsigned char small[4096];
	unsigned char *m = n <= sizeof small ? small : NULL;
	if (!m) {
		/* long inputs: tokenise the first 64 KiB only (on the heap: a
		 * thread-local buffer is zeroed at every process start) */
		if (n > 65536)
			n = 65536;
		m = fl_xmalloc(n);
	}
	memset(m, 0, n);
	blank(text, n, m);
	size_t i = 0;
	while (i < n && count < max) {
		while (i < n && (m[i] || !is_letter((unsigned char)text[i])))
			i++;
		size_t start = i;
		while (i < n && !m[i] && is_letter((unsigned char)text[i]))
			i++;
		size_t len = i - start;
		if (len < 2)
			continue;
		if (len >= FL_TOKEN_MAX)
			len = FL_TOKEN_MAX - 1;
		char *slot = buf + count * FL_TOKEN_MAX;
		for (size_t k = 0; k < len; k++) {
			char c = text[start + k];
			slot[k] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
		}
		slot[len] = '\0';
		int dup = 0;
		for (size_t k = 0; k < count; k++)
			if (strcmp(toks[k], slot) == 0) {
				dup = 1;
				break;
			}
		if (!dup)
			toks[count++] = slot;
	}
	if (m != small)
		free(m);
	return count;
}

double fl_idf(size_t n_entries, size_t df)
{
	return log((double)(n_entries + 1) / (double)(df + 1)) + 1.0;
}
