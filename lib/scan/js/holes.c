/*
 * holes.c — the holes of a template literal in a JS / TS message
 * (`${...}`, kept as the source wrote them) that print a known text: a
 * terminal style around a literal (`${pc.red("ERROR:")}` prints ERROR:),
 * and a choice between two literals (`${many ? " of strings" : ""}`),
 * each arm a message of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "js.h"

const char *const fl_js_styles[] = {
	"red", "green", "yellow", "blue", "magenta", "cyan", "white", "gray",
	"grey", "black", "bold", "dim", "italic", "underline", "inverse",
	"redBright", "yellowBright", "bgRed", "bgYellow", NULL};

static bool is_style(const char *s, size_t n)
{
	for (const char *const *q = fl_js_styles; *q; q++)
		if (strlen(*q) == n && memcmp(*q, s, n) == 0)
			return true;
	return false;
}

static bool id_char(char c)
{
	return fl_js_id_char((unsigned char)c);
}

static size_t hole_close(const char *s, size_t i, size_t n);

/* The end of the quoted literal starting at s[i] (its closing quote + 1),
 * or 0; a template literal's holes are passed over (an arm ` for ${path}`
 * keeps its hole, a placeholder of the message). */
static size_t quote_end(const char *s, size_t i, size_t e)
{
	char q = s[i];
	for (size_t k = i + 1; k < e; k++) {
		if (s[k] == '\\') {
			k++;
			continue;
		}
		if (q == '`' && s[k] == '$' && k + 1 < e && s[k + 1] == '{') {
			size_t c = hole_close(s, k, e);
			if (!c)
				return 0;
			k = c;
			continue;
		}
		if (s[k] == q)
			return k + 1;
		if (s[k] == '\n' && q != '`')
			return 0;
	}
	return 0;
}

/* The index of the '}' closing the hole whose "${" is at s[i], or 0. */
static size_t hole_close(const char *s, size_t i, size_t n)
{
	int depth = 0;
	for (size_t k = i + 2; k < n; k++) {
		char c = s[k];
		if (c == '\'' || c == '"' || c == '`') {
			size_t q = quote_end(s, k, n);
			if (!q)
				return 0;
			k = q - 1;
		} else if (c == '{' || c == '(' || c == '[') {
			depth++;
		} else if (c == ')' || c == ']') {
			if (--depth < 0)
				return 0;
		} else if (c == '}') {
			if (depth == 0)
				return k;
			depth--;
		}
	}
	return 0;
}

static void trim(const char *s, size_t *b, size_t *e)
{
	while (*b < *e && (s[*b] == ' ' || s[*b] == '\t'))
		(*b)++;
	while (*e > *b && (s[*e - 1] == ' ' || s[*e - 1] == '\t'))
		(*e)--;
}

/* [b, e) is one quoted literal: its text (simple escapes decoded) into
 * out. */
static bool literal(const char *s, size_t b, size_t e, fl_buf *out)
{
	trim(s, &b, &e);
	if (e - b < 2 || (s[b] != '\'' && s[b] != '"' && s[b] != '`') || quote_end(s, b, e) != e)
		return false;
	for (size_t k = b + 1; k + 1 < e; k++) {
		char c = s[k];
		if (c == '\\' && k + 2 < e) {
			c = s[++k];
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c != '\\' && c != '\'' && c != '"' && c != '`')
				return false;
		}
		fl_buf_putc(out, c);
	}
	return true;
}

/* [b, e) is a literal, or a terminal style around one (chalk.red("x"),
 * pc.bold(pc.red('x')), chalk.red.bold("x")): its text into out */
static bool styled_literal(const char *s, size_t b, size_t e, fl_buf *out, int depth)
{
	trim(s, &b, &e);
	if (literal(s, b, e, out))
		return true;
	if (depth > 4 || e - b < 4 || s[e - 1] != ')')
		return false;
	/* NAME(.NAME)*( ... ): the last name a style */
	size_t k = b, last = b, lastn = 0;
	while (k < e && fl_js_id_start((unsigned char)s[k])) {
		last = k;
		while (k < e && id_char(s[k]))
			k++;
		lastn = k - last;
		if (k < e && s[k] == '.')
			k++;
		else
			break;
	}
	if (k >= e || s[k] != '(' || lastn == 0 || !is_style(s + last, lastn))
		return false;
	return styled_literal(s, k + 1, e - 1, out, depth + 1);
}

/* longer messages are left as they are (each hole is read to its end) */
#define HOLES_MAX 8192

char *fl_js_hole_unstyle(const char *msg)
{
	size_t n = strlen(msg);
	if (n > HOLES_MAX || !strstr(msg, "${"))
		return NULL;
	fl_buf out = {0};
	bool changed = false;
	for (size_t i = 0; msg[i];) {
		size_t c;
		if (msg[i] == '$' && msg[i + 1] == '{' && (c = hole_close(msg, i, n)) != 0) {
			size_t at = out.n;
			if (styled_literal(msg, i + 2, c, &out, 0) && out.n > at) {
				changed = true;
			} else {
				out.n = at;
				fl_buf_put(&out, msg + i, c + 1 - i);
			}
			i = c + 1;
			continue;
		}
		fl_buf_putc(&out, msg[i++]);
	}
	if (!changed) {
		fl_buf_free(&out);
		return NULL;
	}
	fl_buf_cstr(&out);
	return out.s;
}

/* The top-level '?' and ':' of the expression [b, e), or false. */
static bool cond_parts(const char *s, size_t b, size_t e, size_t *q, size_t *colon)
{
	int depth = 0, nest = 0;
	*q = 0;
	for (size_t k = b; k < e; k++) {
		char c = s[k];
		if (c == '\'' || c == '"' || c == '`') {
			size_t x = quote_end(s, k, e);
			if (!x)
				return false;
			k = x - 1;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			depth--;
		} else if (depth == 0 && c == '?') {
			/* ?. and ?? are no conditional */
			if (k + 1 < e && (s[k + 1] == '.' || s[k + 1] == '?')) {
				k++;
				continue;
			}
			if (*q)
				nest++;
			else
				*q = k;
		} else if (depth == 0 && c == ':' && *q) {
			if (nest-- == 0) {
				*colon = k;
				return *q > b;
			}
		}
	}
	return false;
}

bool fl_js_hole_choice(const char *msg, char **a, char **b)
{
	size_t n = strlen(msg);
	if (n > HOLES_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		size_t c, q, colon;
		if (msg[i] != '$' || msg[i + 1] != '{' || (c = hole_close(msg, i, n)) == 0)
			continue;
		if (!cond_parts(msg, i + 2, c, &q, &colon)) {
			i = c;
			continue;
		}
		fl_buf x = {0}, y = {0};
		fl_buf_put(&x, msg, i);
		fl_buf_put(&y, msg, i);
		if (!styled_literal(msg, q + 1, colon, &x, 0) ||
		    !styled_literal(msg, colon + 1, c, &y, 0)) {
			fl_buf_free(&x);
			fl_buf_free(&y);
			i = c;
			continue;
		}
		fl_buf_puts(&x, msg + c + 1);
		fl_buf_puts(&y, msg + c + 1);
		fl_buf_cstr(&x);
		fl_buf_cstr(&y);
		*a = x.s;
		*b = y.s;
		return true;
	}
	return false;
}

char *fl_js_hole_flatten(const char *msg)
{
	size_t n = strlen(msg);
	if (n > HOLES_MAX || !strstr(msg, "${"))
		return NULL;
	fl_buf out = {0};
	bool changed = false;
	for (size_t i = 0; i < n;) {
		size_t c;
		if (msg[i] == '$' && msg[i + 1] == '{' && (c = hole_close(msg, i, n)) != 0) {
			fl_buf_puts(&out, "${");
			for (size_t k = i + 2; k < c; k++) {
				if (msg[k] == '{' || msg[k] == '}') {
					changed = true;
					continue;
				}
				fl_buf_putc(&out, msg[k]);
			}
			fl_buf_putc(&out, '}');
			i = c + 1;
			continue;
		}
		fl_buf_putc(&out, msg[i++]);
	}
	if (!changed) {
		fl_buf_free(&out);
		return NULL;
	}
	fl_buf_cstr(&out);
	return out.s;
}
