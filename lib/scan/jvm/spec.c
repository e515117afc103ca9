/*
 * spec.c — the specs of Java's lexer and parser generators read as Java:
 * JFlex (.flex, .jflex) and CUP (.cup).  Their Java code stays where it
 * is — a JFlex spec's user code section, its `%{ %}` members, its
 * `%init{ %init}`-style blocks and its rules' actions; a CUP spec's
 * package and import lines and its `{: :}` blocks — and everything else
 * (options, macros, regular expressions, grammar rules) is turned to
 * spaces, line breaks kept.  The Java lexer and walker then read the code
 * at its own lines and columns: a rule's `{ throw new ScannerException(
 * file, ErrorMessages.EOF_IN_COMMENT); }` is a site of the spec, as the
 * generated scanner's would be (yacc.c does the same for C's grammars).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "jvm.h"

static bool ends_with_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);
	return n > e && strcmp(path + n - e, ext) == 0;
}

bool jvm_spec_path(const char *path)
{
	return path && (ends_with_ext(path, ".flex") || ends_with_ext(path, ".jflex") ||
			ends_with_ext(path, ".cup"));
}

/* the end of the quoted Java literal that starts at s[i] (after its closing
 * quote), a line break ending it */
static size_t quoted_end(const char *s, size_t i, size_t n)
{
	char q = s[i];
	for (size_t k = i + 1; k < n; k++) {
		if (s[k] == '\\') {
			k++;
			continue;
		}
		if (s[k] == q || s[k] == '\n')
			return k + 1;
	}
	return n;
}

/* the end of the comment that starts at s[i] ("//" or a block), or i
 * when none starts there */
static size_t comment_end(const char *s, size_t i, size_t n)
{
	if (i + 1 >= n || s[i] != '/')
		return i;
	if (s[i + 1] == '/') {
		const char *e = memchr(s + i, '\n', n - i);
		return e ? (size_t)(e - s) : n;
	}
	if (s[i + 1] == '*') {
		const char *e = memmem(s + i + 2, n - i - 2, "*/", 2);
		return e ? (size_t)(e - s) + 2 : n;
	}
	return i;
}

/* the '}' that closes the Java block opened at s[open], strings,
 * characters and comments passed over; n when it is not closed */
static size_t block_end(const char *s, size_t open, size_t n)
{
	int depth = 0;
	for (size_t k = open; k < n;) {
		char c = s[k];
		size_t ce = comment_end(s, k, n);
		if (ce != k) {
			k = ce;
			continue;
		}
		if (c == '"' || c == '\'') {
			k = quoted_end(s, k, n);
			continue;
		}
		if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0)
			return k;
		k++;
	}
	return n;
}

static void keep(char *out, const char *s, size_t b, size_t e)
{
	memcpy(out + b, s + b, e - b);
}

/* the start of the line after the one holding s[i] */
static size_t next_line(const char *s, size_t i, size_t n)
{
	const char *e = memchr(s + i, '\n', n - i);
	return e ? (size_t)(e - s) + 1 : n;
}

/* Is the line at s[b] the section mark "%%" (spaces after it aside)? */
static bool section_mark(const char *s, size_t b, size_t n)
{
	if (b + 2 > n || s[b] != '%' || s[b + 1] != '%')
		return false;
	for (size_t k = b + 2; k < n && s[k] != '\n'; k++)
		if (s[k] != ' ' && s[k] != '\t' && s[k] != '\r')
			return false;
	return true;
}

/* A JFlex spec's options section [b, e): its code blocks.  `%{ ... %}`
 * holds the scanner class's members (kept as they are); `%init{ ...
 * %init}`, `%eofval{ ... %eofval}` and their kind hold statements (kept
 * as a block, the marks' braces). */
static void flex_options(char *out, const char *s, size_t b, size_t e)
{
	for (size_t l = b; l < e; l = next_line(s, l, e)) {
		size_t p = l;
		while (p < e && (s[p] == ' ' || s[p] == '\t'))
			p++;
		if (p + 1 >= e || s[p] != '%')
			continue;
		size_t w = p + 1;
		while (w < e && isalpha((unsigned char)s[w]))
			w++;
		if (w >= e || s[w] != '{')
			continue;
		/* the closing mark: a line starting with '%', the same word
		 * and '}' */
		size_t wl = w - (p + 1), close = e, cl = 0;
		for (size_t m = next_line(s, w, e); m < e; m = next_line(s, m, e)) {
			size_t q = m;
			while (q < e && (s[q] == ' ' || s[q] == '\t'))
				q++;
			if (q + wl + 1 < e && s[q] == '%' && memcmp(s + q + 1, s + p + 1, wl) == 0 &&
			    s[q + 1 + wl] == '}') {
				close = q;
				cl = m;
				break;
			}
		}
		if (close == e)
			return; /* not closed: the rest is no code */
		keep(out, s, w + 1, close);
		if (wl) {
			out[w] = '{';
			out[close + 1 + wl] = '}';
		}
		l = cl;
	}
}

/* Does s[i] open a macro's use `{Name}` or a repetition `{2}`, `{1,3}`
 * (not an action)?  Its end (after '}') in *end. */
static bool regex_brace(const char *s, size_t i, size_t n, size_t *end)
{
	size_t k = i + 1;
	if (k < n && (isalpha((unsigned char)s[k]) || s[k] == '_')) {
		while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_'))
			k++;
	} else if (k < n && isdigit((unsigned char)s[k])) {
		while (k < n && (isdigit((unsigned char)s[k]) || s[k] == ','))
			k++;
	} else {
		return false;
	}
	if (k >= n || s[k] != '}')
		return false;
	*end = k + 1;
	return true;
}

/* The end of the character class opened at s[i] ('[', nested classes
 * and escapes passed over). */
static size_t class_end(const char *s, size_t i, size_t n)
{
	int depth = 0;
	for (size_t k = i; k < n; k++) {
		if (s[k] == '\\') {
			k++;
			continue;
		}
		if (s[k] == '"') {
			k = quoted_end(s, k, n) - 1;
			continue;
		}
		if (s[k] == '\n')
			return k;
		if (s[k] == '[')
			depth++;
		else if (s[k] == ']' && --depth == 0)
			return k + 1;
	}
	return n;
}

/* A JFlex spec's rules [b, n): each rule's action, a Java block, kept.  A
 * rule is `<STATES>` (or a group `<STATES> { rules }`) then a regular
 * expression then its action `{ ... }` or `|` (the next rule's). */
static void flex_rules(char *out, const char *s, size_t b, size_t n)
{
	int groups = 0;
	size_t i = b;
	while (i < n) {
		char c = s[i];
		size_t ce = comment_end(s, i, n);
		if (ce != i) {
			i = ce;
			continue;
		}
		if (isspace((unsigned char)c)) {
			i++;
			continue;
		}
		if (c == '}' && groups > 0) {
			groups--;
			i++;
			continue;
		}
		if (c == '<' && !(i + 6 < n && memcmp(s + i, "<<EOF>>", 7) == 0)) {
			/* a state list; a group when a brace follows */
			const char *gt = memchr(s + i, '>', n - i);
			i = gt ? (size_t)(gt - s) + 1 : n;
			size_t k = i;
			while (k < n && isspace((unsigned char)s[k]))
				k++;
			if (k < n && s[k] == '{') {
				size_t end;
				if (!regex_brace(s, k, n, &end)) {
					groups++;
					i = k + 1;
				}
			}
			continue;
		}
		/* the expression, to its action */
		bool done = false;
		while (i < n && !done) {
			c = s[i];
			size_t end;
			if (c == '"') {
				i = quoted_end(s, i, n);
			} else if (c == '[') {
				i = class_end(s, i, n);
			} else if (c == '\\') {
				i += 2;
			} else if (c == '{' && regex_brace(s, i, n, &end)) {
				i = end;
			} else if (c == '{') {
				size_t close = block_end(s, i, n);
				if (close < n) {
					keep(out, s, i, close + 1);
					i = close + 1;
				} else {
					i = n;
				}
				done = true;
			} else if (c == '|' && i > b && isspace((unsigned char)s[i - 1]) &&
				   (i + 1 >= n || isspace((unsigned char)s[i + 1]))) {
				i++; /* the next rule's action is this one's */
				done = true;
			} else if (c == '/' && comment_end(s, i, n) != i) {
				i = comment_end(s, i, n);
			} else {
				i++;
			}
		}
	}
}

static void mask_flex(char *out, const char *s, size_t n)
{
	size_t m1 = n, m2 = n;
	for (size_t l = 0; l < n; l = next_line(s, l, n))
		if (section_mark(s, l, n)) {
			if (m1 == n) {
				m1 = l;
			} else {
				m2 = l;
				break;
			}
		}
	keep(out, s, 0, m1);
	if (m1 == n)
		return;
	size_t o = next_line(s, m1, n);
	flex_options(out, s, o, m2);
	if (m2 < n)
		flex_rules(out, s, next_line(s, m2, n), n);
}

/* A CUP spec: its package and import lines, and its `{: ... :}` blocks as
 * Java blocks (`action code {: ... :}` members, a rule's action
 * statements). */
static void mask_cup(char *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t ce = comment_end(s, i, n);
		if (ce != i) {
			i = ce;
			continue;
		}
		bool bol = i == 0 || s[i - 1] == '\n';
		if (bol) {
			size_t p = i;
			while (p < n && (s[p] == ' ' || s[p] == '\t'))
				p++;
			if ((n - p > 8 && memcmp(s + p, "package ", 8) == 0) ||
			    (n - p > 7 && memcmp(s + p, "import ", 7) == 0)) {
				const char *semi = memchr(s + p, ';', n - p);
				size_t e = semi ? (size_t)(semi - s) + 1 : n;
				keep(out, s, p, e);
				i = e;
				continue;
			}
		}
		if (s[i] == '{' && i + 1 < n && s[i + 1] == ':') {
			const char *close = memmem(s + i + 2, n - i - 2, ":}", 2);
			size_t c = close ? (size_t)(close - s) : n;
			keep(out, s, i + 2, c);
			out[i + 1] = '{';
			if (c < n)
				out[c] = '}';
			i = c < n ? c + 2 : n;
			continue;
		}
		i++;
	}
}

char *jvm_spec_mask(const char *path, const char *text, size_t len)
{
	char *out = fl_xmalloc(len + 1);
	for (size_t k = 0; k < len; k++)
		out[k] = text[k] == '\n' || text[k] == '\r' ? text[k] : ' ';
	out[len] = '\0';
	if (ends_with_ext(path, ".cup"))
		mask_cup(out, text, len);
	else
		mask_flex(out, text, len);
	return out;
}
