/*
 * facts.c — reads a site's facts once for the explanation writers: what
 * kind of site it is (a raise, a class's default message, a sentinel
 * value, a log line), the function's own name, class and parameters (from
 * the signature in the source window), what a C function returns after
 * the site, the call whose result an error variable holds, and how a
 * caller of the function writes the call in its language.
 */
#include "dsc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *dialect_of(const char *path, const char *lang)
{
	const char *dot = strrchr(path, '.');
	static const char *const map[][2] = {
		{".py", "python"}, {".go", "go"}, {".rs", "rust"}, {".js", "js"},
		{".mjs", "js"}, {".cjs", "js"}, {".jsx", "js"}, {".ts", "ts"},
		{".tsx", "ts"}, {".mts", "ts"}, {".cts", "ts"}, {".java", "java"},
		{".kt", "kotlin"}, {".kts", "kotlin"}, {".scala", "scala"},
		{".sc", "scala"}, {".cs", "csharp"}, {".rb", "ruby"}, {".rake", "ruby"},
		{".gemspec", "ruby"}, {".php", "php"}, {".c", "c"}, {".h", "c"},
		{".cc", "cpp"}, {".cpp", "cpp"}, {".cxx", "cpp"}, {".hpp", "cpp"},
		{".hh", "cpp"}, {".hxx", "cpp"},
	};
	if (dot)
		for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
			if (dsc_eq(dot, map[i][0]))
				return map[i][1];
	if (lang && dsc_eq(lang, "jvm"))
		return "java";
	return lang ? lang : "c";
}

const char *dsc_last(const char *name)
{
	const char *last = name;
	for (const char *p = name; *p; p++)
		if ((*p == ':' || *p == '.' || *p == '\\' || *p == '#' || *p == '/') && p[1] &&
		    p[1] != ':' && p[1] != '.')
			last = p + 1;
	return last;
}

/* a class that says nothing of the failure: catching it catches all */
bool dsc_generic_class(const char *cls)
{
	static const char *const g[] = {
		"Error", "Exception", "RuntimeError", "RuntimeException", "StandardError",
		"Throwable", "BaseException", "error", "anyhow::Error", "Box<dyn Error>",
		"SystemException", "ApplicationException",
	};
	if (!cls)
		return true;
	const char *l = dsc_last(cls);
	for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
		if (dsc_eq(cls, g[i]) || dsc_eq(l, g[i]))
			return true;
	return false;
}

/* ---- the source window ---------------------------------------------------- */

/* line n (1-based, of the file) of the window: its text and length, or NULL */
static const char *wline(const dsc *d, int n, size_t *len)
{
	const char *p = d->e->source_code;
	int at = d->e->source_code_start;
	if (!p || at <= 0 || n < at)
		return NULL;
	if (d->line_at && d->lines_of == p) {
		/* asked for line after line, window line by window line:
		 * the index instead of a walk from the window's start */
		int k = n - at;
		if (k >= d->nlines)
			return NULL;
		size_t b = d->line_at[k];
		*len = k + 1 < d->nlines ? d->line_at[k + 1] - 1 - b : strlen(p + b);
		return p + b;
	}
	for (; at < n; at++) {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	const char *nl = strchr(p, '\n');
	*len = nl ? (size_t)(nl - p) : strlen(p);
	return p;
}

static bool idch(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* the word w at p (not inside a longer identifier) */
static bool word_at(const char *line, const char *p, const char *w, size_t wl)
{
	return strncmp(p, w, wl) == 0 && (p == line || !idch(p[-1])) && !idch(p[wl]);
}

/* in line, `var = callee(` or `var := callee(` (Go's `a, var :=` too):
 * the callee */
static char *assigned_in(const char *line, size_t len, const char *var)
{
	size_t vl = strlen(var);
	char *l = fl_xstrndup(line, len);
	char *res = NULL;
	for (char *p = strstr(l, var); p && !res; p = strstr(p + 1, var)) {
		if (!word_at(l, p, var, vl))
			continue;
		char *q = p + vl;
		/* `a, var :=` and `var, b :=` */
		while (*q == ',' || *q == ' ' || idch(*q))
			q++;
		if (q[0] == ':' && q[1] == '=')
			q += 2;
		else if (q[0] == '=' && q[1] != '=' && (q == l || (q[-1] != '!' && q[-1] != '<' && q[-1] != '>')))
			q += 1;
		else
			continue;
		while (*q == ' ' || *q == '(' || *q == '&')
			q++;
		if (strncmp(q, "await ", 6) == 0)
			q += 6;
		if (strncmp(q, "try ", 4) == 0)
			q += 4;
		char *c = q;
		while (idch(*c) || *c == '.' || (c[0] == ':' && c[1] == ':') || (c[0] == '-' && c[1] == '>')) {
			if (*c == ':' || *c == '-')
				c++;
			c++;
		}
		if (c > q && *c == '(' && !isdigit((unsigned char)*q))
			res = fl_xstrndup(q, (size_t)(c - q));
		else
			break;
	}
	free(l);
	return res;
}

char *dsc_assigned_call(const dsc *d, const char *var)
{
	int site = d->e->line_number;
	for (int n = site; n >= site - 20 && n >= d->e->source_code_start; n--) {
		size_t len;
		const char *line = wline(d, n, &len);
		if (!line)
			break;
		char *c = assigned_in(line, len, var);
		if (c)
			return c;
	}
	return NULL;
}

char *dsc_dict_value(const dsc *d, const char *key)
{
	int site = d->e->line_number;
	size_t kl = strlen(key);
	if (!kl || kl > 60)
		return NULL;
	for (int n = site; n >= site - 20 && n >= d->e->source_code_start; n--) {
		size_t len;
		const char *line = wline(d, n, &len);
		if (!line)
			break;
		for (const char *p = line; p + kl + 3 <= line + len; p++) {
			/* 'key': or "key": */
			if ((*p != '\'' && *p != '"') || memcmp(p + 1, key, kl) != 0 || p[kl + 1] != *p)
				continue;
			const char *q = p + kl + 2;
			while (q < line + len && *q == ' ')
				q++;
			if (q >= line + len || *q != ':')
				continue;
			q++;
			while (q < line + len && *q == ' ')
				q++;
			/* the value, to the entry's end: a comma or the dict's close
			 * outside brackets and quotes */
			const char *e = q;
			int depth = 0;
			char quote = 0;
			for (; e < line + len; e++) {
				if (quote) {
					if (*e == '\\' && e + 1 < line + len)
						e++;
					else if (*e == quote)
						quote = 0;
				} else if (*e == '\'' || *e == '"') {
					quote = *e;
				} else if (*e == '(' || *e == '[' || *e == '{') {
					depth++;
				} else if (*e == ')' || *e == ']' || *e == '}') {
					if (depth-- == 0)
						break;
				} else if (*e == ',' && depth == 0) {
					break;
				}
			}
			while (e > q && e[-1] == ' ')
				e--;
			if (e > q && e - q <= 80)
				return fl_xstrndup(q, (size_t)(e - q));
		}
	}
	return NULL;
}

/* Go's `v, ok := expr` (or `=`) in the window before the site: expr, or NULL */
char *dsc_comma_ok(const dsc *d, const char *var)
{
	int site = d->e->line_number;
	size_t vl = strlen(var);
	for (int n = site; n >= site - 20 && n >= d->e->source_code_start; n--) {
		size_t len;
		const char *line = wline(d, n, &len);
		if (!line)
			break;
		char *l = fl_xstrndup(line, len);
		char *res = NULL;
		for (char *p = strstr(l, var); p && !res; p = strstr(p + 1, var)) {
			if (!word_at(l, p, var, vl) || p == l)
				continue;
			char *c = p - 1;
			while (c > l && *c == ' ')
				c--;
			if (*c != ',')
				continue;
			char *q = p + vl;
			while (*q == ' ')
				q++;
			if (q[0] == ':' && q[1] == '=')
				q += 2;
			else if (q[0] == '=' && q[1] != '=')
				q++;
			else
				continue;
			while (*q == ' ')
				q++;
			char *e = q + strlen(q);
			while (e > q && (isspace((unsigned char)e[-1]) || e[-1] == ';' || e[-1] == '{'))
				e--;
			/* `if v, ok := m[k]; !ok {` */
			char *semi = memchr(q, ';', (size_t)(e - q));
			if (semi)
				e = semi;
			if (e > q)
				res = fl_xstrndup(q, (size_t)(e - q));
		}
		free(l);
		if (res)
			return res;
	}
	return NULL;
}

/* the class a handler around the site catches: the site is in the block of
 * `except OSError as e:`, `} catch (IOException e) {`, `rescue Errno::ENOENT
 * => e`, the nearest line above it indented less than it is */
static void find_caught(dsc *d)
{
	int site = d->e->line_number;
	size_t len;
	const char *line = wline(d, site, &len);
	if (!line)
		return;
	size_t ind = 0;
	while (ind < len && (line[ind] == ' ' || line[ind] == '\t'))
		ind++;
	for (int n = site - 1; n >= d->e->source_code_start && n >= site - 12; n--) {
		size_t l2;
		const char *ln = wline(d, n, &l2);
		if (!ln)
			return;
		size_t i = 0;
		while (i < l2 && (ln[i] == ' ' || ln[i] == '\t'))
			i++;
		if (i == l2 || i >= ind)
			continue; /* blank, or in the same block */
		const char *p = ln + i, *e = ln + l2;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (e - p == 1 && *p == '{') {
			ind = i + 1; /* an opening brace on its own line: the line above */
			continue;
		}
		if (*p == '}')
			p++;
		while (p < e && *p == ' ')
			p++;
		const char *cls = NULL;
		if (e - p > 7 && strncmp(p, "except ", 7) == 0)
			cls = p + 7;
		else if (e - p > 7 && strncmp(p, "rescue ", 7) == 0)
			cls = p + 7;
		else if (e - p > 7 && strncmp(p, "catch (", 7) == 0)
			cls = p + 7;
		else if (e - p > 6 && strncmp(p, "catch(", 6) == 0)
			cls = p + 6;
		/* a handler of any error: Python's bare `except:`, Ruby's bare
		 * `rescue` (StandardError), a JavaScript `catch (err)` */
		const char *any = NULL;
		if (e - p == 7 && strncmp(p, "except:", 7) == 0)
			any = "Exception";
		else if ((e - p == 6 && strncmp(p, "rescue", 6) == 0) ||
			 (e - p > 9 && strncmp(p, "rescue =>", 9) == 0))
			any = "StandardError";
		if (any) {
			d->caught = fl_xstrdup(any);
			return;
		}
		if (!cls)
			return;
		while (cls < e && (*cls == '(' || *cls == ' '))
			cls++;
		const char *c = cls;
		while (c < e && (idch(*c) || *c == '.' || *c == '\\' || (c[0] == ':' && c + 1 < e && c[1] == ':')))
			c += c[0] == ':' ? 2 : 1;
		/* Java's and PHP's multi-catch, `A | B e`: the classes, " | "
		 * between (put_caught says them) */
		if (c > cls && c + 2 < e && c[0] == ' ' && c[1] == '|' && c[2] == ' ') {
			fl_buf u = {0};
			const char *q = cls;
			bool ok = true;
			for (;;) {
				const char *w = q;
				while (w < e && (idch(*w) || *w == '.' || *w == '\\'))
					w++;
				char *one = w > q ? fl_xstrndup(q, (size_t)(w - q)) : NULL;
				if (!one || !isupper((unsigned char)*dsc_last(one))) {
					free(one);
					ok = false;
					break;
				}
				if (u.n)
					fl_buf_puts(&u, " | ");
				fl_buf_puts(&u, one);
				free(one);
				while (w < e && *w == ' ')
					w++;
				if (w < e && *w == '|') {
					q = w + 1;
					while (q < e && *q == ' ')
						q++;
					continue;
				}
				break;
			}
			if (ok && u.n)
				d->caught = dsc_take(&u);
			else
				fl_buf_free(&u);
			return;
		}
		/* one class, named in upper case (a tuple is left out) */
		if (c > cls && (c == e || *c == ' ' || *c == ':' || *c == ')' || *c == '=') &&
		    !(c < e && *c == ' ' && c + 1 < e && c[1] == '|')) {
			char *k = fl_xstrndup(cls, (size_t)(c - cls));
			bool js = dsc_eq(d->dialect, "js") || dsc_eq(d->dialect, "ts");
			if (isupper((unsigned char)*dsc_last(k))) {
				d->caught = k;
			} else {
				free(k);
				/* JavaScript's `catch (err)` is the variable, and
				 * catches any Error */
				if (js && (c == e || *c == ')' || *c == ' '))
					d->caught = fl_xstrdup("Error");
			}
		}
		return;
	}
}

/* ---- the function's parameters -------------------------------------------- */

/* one parameter's name: the last identifier before a default or type for C,
 * Java and C# (an array type's brackets skipped: `final int[] dst`), the
 * first for the others */
static void param_name(dsc *d, const char *p, size_t n)
{
	bool last = dsc_eq(d->dialect, "c") || dsc_eq(d->dialect, "cpp") || dsc_eq(d->dialect, "php") ||
		    dsc_eq(d->dialect, "java") || dsc_eq(d->dialect, "csharp");
	size_t end = n;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '[') {
			/* Java's and C#'s `int[] dst`: brackets a name follows
			 * are the type's; C's `char buf[10]` ends the name */
			const char *c = memchr(p + i, ']', n - i);
			size_t k = c ? (size_t)(c - p) + 1 : n;
			while (k < n && (p[k] == ' ' || p[k] == '[' || p[k] == ']'))
				k++;
			if (c && k < n && idch(p[k])) {
				i = (size_t)(c - p);
				continue;
			}
		}
		if (p[i] == '=' || (p[i] == ':' && !last) || p[i] == '[') {
			end = i;
			break;
		}
	}
	const char *best = NULL;
	size_t bl = 0;
	for (size_t i = 0; i < end;) {
		if (!idch(p[i])) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < end && idch(p[j]))
			j++;
		bool skip = (j - i == 4 && strncmp(p + i, "self", 4) == 0) ||
			    (j - i == 3 && (strncmp(p + i, "mut", 3) == 0 || strncmp(p + i, "ref", 3) == 0 ||
					    strncmp(p + i, "out", 3) == 0 || strncmp(p + i, "cls", 3) == 0)) ||
			    (j - i == 5 && (strncmp(p + i, "const", 5) == 0 || strncmp(p + i, "final", 5) == 0));
		if (!skip && (!best || last)) {
			best = p + i;
			bl = j - i;
		}
		i = j;
	}
	if (best && !isdigit((unsigned char)*best)) {
		char *nm = fl_xstrndup(best, bl);
		fl_strv_push(&d->params, nm);
		free(nm);
	}
}

static void find_params(dsc *d)
{
	if (!d->fshort || !d->e->source_code)
		return;
	size_t fl = strlen(d->fshort);
	int site = d->e->line_number;
	for (int n = site; n >= d->e->source_code_start; n--) {
		size_t len;
		const char *line = wline(d, n, &len);
		if (!line)
			return;
		if (fl && !fl_memmem(line, len, d->fshort, fl))
			continue; /* the name is not on the line */
		char *l = fl_xstrndup(line, len);
		long at = -1;
		for (char *q = strstr(l, d->fshort); q; q = strstr(q + 1, d->fshort))
			if (word_at(l, q, d->fshort, fl)) {
				char *r = q + fl;
				while (*r == ' ')
					r++;
				/* a definition: a keyword before it, or no call
				 * syntax (`=`, `.`, `return`) */
				bool kw = strstr(l, "def ") || strstr(l, "func ") || strstr(l, "fn ") ||
					  strstr(l, "function ") || strstr(l, "fun ");
				bool callish = q > l && (q[-1] == '.' || q[-1] == '>' || strchr(l, '=') || strstr(l, "return"));
				if ((*r == '(' || (*r == '\0' && strstr(l, "def "))) && (kw || !callish))
					at = (long)(r - l);
			}
		/* a static method is called on its class: `static` before
		 * the name, or Python's @staticmethod/@classmethod above it */
		if (at >= 0) {
			char *st = strstr(l, "static ");
			d->stat = st && word_at(l, st, "static", 6) && st < l + at;
			size_t pl;
			const char *prev = n > d->e->source_code_start ? wline(d, n - 1, &pl) : NULL;
			if (prev && dsc_eq(d->dialect, "python")) {
				char *pv = fl_xstrndup(prev, pl);
				d->stat |= strstr(pv, "@staticmethod") || strstr(pv, "@classmethod");
				free(pv);
			}
		}
		free(l);
		if (at < 0)
			continue;
		size_t off = (size_t)at;
		/* the parameter list, over several lines when needed */
		fl_buf b = {0};
		int depth = 0;
		bool started = false, done = false;
		for (int m = n; m < site && !done; m++) {
			size_t ml;
			const char *ln = wline(d, m, &ml);
			if (!ln)
				break;
			for (size_t i = m == n ? off : 0; i < ml && !done; i++) {
				char c = ln[i];
				if (c == '(') {
					if (depth++ == 0) {
						started = true;
						continue;
					}
				} else if (c == ')') {
					if (--depth == 0)
						done = true;
				} else if (c == '[' || c == '{' || c == '<') {
					depth++;
				} else if ((c == ']' || c == '}' || c == '>') && depth > 1) {
					depth--;
				}
				if (started && !done)
					fl_buf_putc(&b, depth == 1 && c == ',' ? '\x01' : c);
			}
			if (started)
				fl_buf_putc(&b, ' ');
		}
		if (done && b.n) {
			const char *s = fl_buf_cstr(&b);
			for (const char *q = s;;) {
				const char *c = strchr(q, '\x01');
				param_name(d, q, c ? (size_t)(c - q) : strlen(q));
				if (!c)
					break;
				q = c + 1;
			}
			/* C's `f(void)` takes none */
			if (d->params.n == 1 && dsc_eq(d->params.v[0], "void"))
				fl_strv_free(&d->params);
		}
		if (done && !d->params.n) {
			/* read, and nothing a caller passes: blanks, C's void,
			 * the receiver (self, cls, &self, &mut self) */
			bool none = true;
			const char *s = b.n ? fl_buf_cstr(&b) : "";
			for (const char *q = s; none;) {
				const char *c = strchr(q, '\x01');
				size_t n = c ? (size_t)(c - q) : strlen(q);
				while (n && (*q == ' ' || *q == '\t' || *q == '&'))
					q++, n--;
				while (n && (q[n - 1] == ' ' || q[n - 1] == '\t'))
					n--;
				if (n >= 4 && strncmp(q, "mut ", 4) == 0)
					q += 4, n -= 4;
				static const char *const recv[] = {"void", "self", "cls", NULL};
				bool ok = n == 0;
				for (size_t r = 0; recv[r] && !ok; r++)
					ok = strlen(recv[r]) == n && strncmp(q, recv[r], n) == 0;
				none = ok;
				if (!c)
					break;
				q = c + 1;
			}
			d->noparams = none;
		}
		fl_buf_free(&b);
		return;
	}
}

/* ---- C: what the function returns after the site ----------------------------- */

/* The bracket depth after line l, from depth (quoted text skipped). */
static int depth_after(const char *l, int depth)
{
	char q = 0;
	for (const char *p = l; *p; p++) {
		if (q) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'') {
			q = *p;
		} else if (*p == '(' || *p == '[') {
			depth++;
		} else if ((*p == ')' || *p == ']') && depth > 0) {
			depth--;
		}
	}
	return depth;
}

/* What the function does right after the report: the return statement
 * that follows it (d->ret), or an exit (d->fatal).  Only the statement
 * right after the report's own: a return further on, after other
 * statements, is not what the report leads to. */
static void find_return(dsc *d)
{
	int site = d->e->line_number, depth = 0;
	for (int n = site; n <= site + 3; n++) {
		size_t len;
		const char *line = wline(d, n, &len);
		if (!line)
			return;
		char *l = fl_xstrndup(line, len);
		char *r = strstr(l, "return");
		const char *first = l + strspn(l, " \t");
		if (n > site && (strncmp(first, "//", 2) == 0 || strncmp(first, "/*", 2) == 0 ||
				 *first == '#' || *first == '*')) {
			free(l); /* a comment */
			continue;
		}
		if (n > site && depth == 0 && !word_at(l, first, "return", 6) && *first != '}' &&
		    *first != '{' && *first && strncmp(first, "exit", 4) != 0 &&
		    strncmp(first, "sys.exit", 8) != 0 && strncmp(first, "os.Exit", 7) != 0 &&
		    strncmp(first, "abort", 5) != 0) {
			free(l); /* another statement first */
			return;
		}
		depth = depth_after(l, depth);
		/* a return statement: first on its line or after `)`, `{`, `;`,
		 * `:` or else (not "return" in a string) */
		if (r && r > first) {
			const char *q = r;
			while (q > l && (q[-1] == ' ' || q[-1] == '\t'))
				q--;
			if (!(q > l && strchr("){;:", q[-1])) && !(q - l >= 4 && word_at(l, q - 4, "else", 4)))
				r = NULL;
		}
		if (r && word_at(l, r, "return", 6)) {
			/* the site inside the return (`return type_error2(a, b,
			 * "...")`): what it returns is the report's own value */
			bool own = n == site && d->s->col > 0 && (size_t)(r - l) <= (size_t)d->s->col - 1;
			r += 6;
			while (*r == ' ')
				r++;
			/* the expression, to its ';' outside brackets (or the
			 * line's end, Python's and Go's) */
			char *end = r;
			int br = 0;
			while (*end && !(br == 0 && *end == ';')) {
				br += *end == '(' || *end == '[' || *end == '{';
				br -= *end == ')' || *end == ']' || *end == '}';
				if (br < 0)
					break;
				end++;
			}
			/* C's family ends it with ';': none on the line, it goes on */
			bool semi = *end == ';' || !(dsc_eq(d->dialect, "c") || dsc_eq(d->dialect, "cpp") ||
						    dsc_eq(d->dialect, "jvm") || dsc_eq(d->dialect, "java") ||
						    dsc_eq(d->dialect, "csharp") || dsc_eq(d->dialect, "php") ||
						    dsc_eq(d->dialect, "js") || dsc_eq(d->dialect, "ts") ||
						    dsc_eq(d->dialect, "rust"));
			while (end > r && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
				end--;
			/* Python's and Go's: a line ending in an operator goes on */
			if (end > r && strchr("?:+-*/,.\\&|=(", end[-1]))
				semi = false;
			/* `return (x);`: x */
			if (end - r > 2 && *r == '(' && end[-1] == ')') {
				int k = 0;
				const char *q = r;
				for (; q < end; q++) {
					k += *q == '(';
					k -= *q == ')';
					if (k == 0)
						break;
				}
				if (q == end - 1) {
					r++;
					end--;
				}
			}
			if (!own && semi && br == 0 && end > r && end - r < 48)
				d->ret = fl_xstrndup(r, (size_t)(end - r));
			free(l);
			return;
		}
		bool stop = (n > site && strchr(l, '}')) || strstr(l, "exit(") || strstr(l, "goto ");
		if (strstr(l, "exit(") || strstr(l, "abort("))
			d->fatal = true;
		free(l);
		if (stop)
			return;
	}
}

/* ---- the caller's view ---------------------------------------------------- */

/* camelCase of a class for a variable holding one: "MavenCli" ->
 * "mavenCli", a leading acronym lowered whole: "ESLint" -> "esLint",
 * "URLParser" -> "urlParser", "URL" -> "url" */
static char *lower_first(const char *s)
{
	char *r = fl_xstrdup(s);
	size_t n = 0;
	while (isupper((unsigned char)r[n]))
		n++;
	/* of a run before a lower-case letter, its last capital starts the
	 * next word */
	if (n > 1 && r[n] && islower((unsigned char)r[n]))
		n--;
	if (!n && r[0])
		n = 1;
	for (size_t i = 0; i < n; i++)
		r[i] = (char)tolower((unsigned char)r[i]);
	return r;
}

/* snake_case of a class: "HTTPSHandler" -> "https_handler" */
static char *snake(const char *s)
{
	fl_buf b = {0};
	for (size_t i = 0; s[i]; i++) {
		char c = s[i];
		if (isupper((unsigned char)c)) {
			if (i && (islower((unsigned char)s[i - 1]) ||
				  (s[i + 1] && islower((unsigned char)s[i + 1]) && isupper((unsigned char)s[i - 1]))))
				fl_buf_putc(&b, '_');
			fl_buf_putc(&b, (char)tolower((unsigned char)c));
		} else if (idch(c)) {
			fl_buf_putc(&b, c);
		}
	}
	return dsc_take(&b);
}

static void put_args(fl_buf *b, const dsc *d)
{
	fl_buf_putc(b, '(');
	if (!d->params.n && !d->noparams)
		fl_buf_puts(b, "...");
	for (size_t i = 0; i < d->params.n; i++) {
		if (i)
			fl_buf_puts(b, ", ");
		fl_buf_puts(b, d->params.v[i]);
	}
	fl_buf_putc(b, ')');
}

char *dsc_call(const dsc *d)
{
	if (!d->fshort || d->defn || d->cdef || d->sentinel || d->defined || dsc_eq(d->s->function, "main"))
		return NULL; /* no call raises it, or the program's own main */
	/* a name that no call can have (a message file's name) */
	for (const char *p = d->s->function; *p; p++)
		if (!idch(*p) && !strchr(".:#<>=?!", *p))
			return NULL;
	fl_buf b = {0};
	const char *dl = d->dialect;
	bool py = dsc_eq(dl, "python"), rb = dsc_eq(dl, "ruby");
	bool php = dsc_eq(dl, "php"), go = dsc_eq(dl, "go");
	bool rs = dsc_eq(dl, "rust");
	const char *owner = d->owner ? dsc_last(d->owner) : NULL;
	if (d->ctor && owner) {
		if (py || rs) {
			fl_buf_puts(&b, owner);
		} else if (rb) {
			fl_buf_puts(&b, d->owner);
			fl_buf_puts(&b, ".new");
		} else {
			fl_buf_puts(&b, "new ");
			fl_buf_puts(&b, owner);
		}
	} else if (owner && d->stat && !rs && !go) {
		/* a static method: on its class */
		fl_buf_puts(&b, owner);
		fl_buf_puts(&b, php ? "::" : ".");
		fl_buf_puts(&b, d->fshort);
	} else if (owner && !rs && !(rb && strchr(d->s->function, '#') == NULL && strchr(d->s->function, '.'))) {
		char *obj = py || rb ? snake(owner) : lower_first(owner);
		if (go && strlen(obj) > 1)
			obj[1] = '\0'; /* Go's receiver: `s.Method` */
		if (php)
			fl_buf_putc(&b, '$');
		fl_buf_puts(&b, obj);
		fl_buf_puts(&b, php ? "->" : ".");
		fl_buf_puts(&b, d->fshort);
		free(obj);
	} else {
		/* Go: an exported function is called with its package's name */
		const char *pkg = dsc_package(d);
		if (go && !owner && pkg && isupper((unsigned char)d->s->function[0])) {
			fl_buf_puts(&b, pkg);
			fl_buf_putc(&b, '.');
		}
		fl_buf_puts(&b, d->s->function);
	}
	put_args(&b, d);
	return dsc_take(&b);
}

/* the package a caller imports the file's names from (Go's package
 * clause), or NULL: unknown, or a program's main */
const char *dsc_package(const dsc *d)
{
	const char *u = d->s->unit;
	return u && *u && !dsc_eq(u, "main") ? u : NULL;
}

/* the package-qualified name a caller in another package writes: Go's
 * exported names only (an unexported one is written bare, inside its
 * package), and a name already qualified as it is */
void dsc_qualified(fl_buf *b, const dsc *d, const char *name)
{
	const char *pk = dsc_package(d);
	const char *n = name;
	while (*n == '*' || *n == '&')
		n++;
	if (pk && !strchr(n, '.') && isupper((unsigned char)*n)) {
		fl_buf_put(b, name, (size_t)(n - name));
		fl_buf_puts(b, pk);
		fl_buf_putc(b, '.');
		fl_buf_puts(b, n);
	} else {
		fl_buf_puts(b, name);
	}
}

const char *dsc_class(const dsc *d)
{
	return d->e->error_class;
}

/* A check that is the raising construct itself, of a parameter the message
 * names first: `Objects.requireNonNull(output, "output cannot be null")`
 * is the guard `output == null` */
/* The first argument of the call of name (n bytes) on the site's line,
 * when it is a name or a member chain (`incidentEdgeMap`, `this.key`,
 * `options.root`); else NULL. */
static char *site_call_arg(const dsc *d, const char *name, size_t n)
{
	size_t len;
	const char *line = wline(d, d->e->line_number, &len);
	if (!line || !n)
		return NULL;
	/* from the site's column: the call the site is, of two on a line */
	size_t col = d->s->col > 1 ? (size_t)d->s->col - 1 : 0;
	if (col < len && fl_memmem(line + col, len - col, name, n)) {
		line += col;
		len -= col;
	}
	for (const char *q = fl_memmem(line, len, name, n); q;
	     q = fl_memmem(q + 1, (size_t)(line + len - q - 1), name, n)) {
		const char *p = q + n;
		if ((q > line && idch(q[-1])) || p >= line + len || *p != '(')
			continue;
		p++;
		while (p < line + len && *p == ' ')
			p++;
		const char *b = p;
		while (p < line + len && (idch(*p) || *p == '.' || *p == '$'))
			p++;
		const char *e = p;
		while (p < line + len && *p == ' ')
			p++;
		if (e > b && idch(*b) && !isdigit((unsigned char)*b) && p < line + len &&
		    (*p == ',' || *p == ')'))
			return fl_xstrndup(b, (size_t)(e - b));
		return NULL;
	}
	return NULL;
}

static void null_check(dsc *d)
{
	if (d->guard)
		return;
	const char *i = d->idiom;
	if (!strstr(i, "requireNonNull") && !strstr(i, "ThrowIfNull") && !strstr(i, "checkNotNull") &&
	    !strstr(i, "notNull"))
		return;
	/* the value checked, the call's first argument: `checkNotNull(map)`
	 * fails when `map == null`, whatever its message */
	static const char *const calls[] = {"requireNonNull", "checkNotNull", "ThrowIfNull", "notNull"};
	for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
		if (!strstr(i, calls[k]))
			continue;
		char *a = site_call_arg(d, calls[k], strlen(calls[k]));
		if (a) {
			d->guard = fl_xasprintf("%s == null", a);
			free(a);
			return;
		}
	}
	if (!d->params.n)
		return;
	const char *m = d->e->error_message;
	size_t n = 0;
	while (idch(m[n]))
		n++;
	for (size_t k = 0; k < d->params.n && n; k++)
		if (strlen(d->params.v[k]) == n && strncmp(d->params.v[k], m, n) == 0) {
			d->guard = fl_xasprintf("%s == null", d->params.v[k]);
			return;
		}
}

/* ---- the whole -------------------------------------------------------------- */

static bool idiom_is(const char *idiom, const char *const *list)
{
	for (; *list; list++)
		if (dsc_eq(idiom, *list))
			return true;
	return false;
}

static void split_function(dsc *d)
{
	const char *f = d->s->function;
	if (!f)
		return;
	const char *sep = NULL;
	size_t sl = 0;
	for (const char *p = f; *p; p++) {
		if (p[0] == ':' && p[1] == ':') {
			sep = p, sl = 2;
			p++;
		} else if (*p == '.' || *p == '#') {
			sep = p, sl = 1;
		}
	}
	if (sep && sep > f && sep[sl]) {
		d->owner = fl_xstrndup(f, (size_t)(sep - f));
		d->fshort = fl_xstrdup(sep + sl);
	} else {
		d->fshort = fl_xstrdup(f);
	}
	/* a constructor: named as its language names one (a PHP command's
	 * initialize() or a JavaScript object's init() is a method like any
	 * other), or as its class */
	static const char *const ctors[][2] = {
		{"python", "__init__"}, {"ruby", "initialize"}, {"js", "constructor"},
		{"ts", "constructor"}, {"php", "__construct"}, {"kotlin", "init"},
	};
	bool named = false;
	for (size_t i = 0; i < sizeof ctors / sizeof ctors[0] && !named; i++)
		named = dsc_eq(d->dialect, ctors[i][0]) && dsc_eq(d->fshort, ctors[i][1]);
	d->ctor = d->owner && (named || dsc_eq(d->fshort, dsc_last(d->owner)));
}

void dsc_init(dsc *d, fl_entry *e, const fl_site *s, const char *lang)
{
	memset(d, 0, sizeof *d);
	d->gw = d->gw_mem;
	d->e = e;
	d->s = s;
	d->lang = lang ? lang : "c";
	d->dialect = dialect_of(e->file_path, lang);
	const char *idiom = s->idiom ? s->idiom : "";
	d->cdef = s->cls && strncmp(idiom, "class ", 6) == 0;
	static const char *const fixed[] = {
		"class constructor __init__", "class method __str__", "class method getMessage", "class constructor initialize super",
		"class method message", "class attribute #[body]", "class annotation @ResponseStatus", NULL,
	};
	d->fixed = d->cdef && idiom_is(idiom, fixed);
	bool sentinel = strncmp(idiom, "sentinel ", 9) == 0;
	if (sentinel)
		idiom += 9;
	d->idiom = idiom;
	d->sentinel = sentinel && s->cls && !s->function && !d->cdef;
	d->defined = !d->sentinel && !d->cdef && !s->function && e->error_code && dsc_eq(idiom, "createError");
	d->unwrapped = s->guard && dsc_eq(idiom, ".expect");
	d->wrapper = s->guard && (dsc_eq(idiom, ".context") || dsc_eq(idiom, ".with_context") ||
				  dsc_eq(idiom, ".wrap_err") || dsc_eq(idiom, ".wrap_err_with"));
	/* "_": a match's catch-all arm, or a switch's default that the
	 * scanner could not spell out (fl_switch_guard) */
	d->catch_all = s->guard && dsc_eq(s->guard, "_");
	d->arm = (s->guard && s->arm) || d->catch_all;
	d->made = dsc_eq(idiom, "return") && s->function && !d->cdef;
	d->stored = dsc_eq(idiom, "stored") && s->function && !d->cdef;
	d->defn = s->cls && !d->cdef && !d->sentinel && !d->defined &&
		  (dsc_eq(idiom, "#[error]") || strncmp(idiom, "impl Display", 12) == 0 ||
		   dsc_eq(idiom, "Error() string"));
	d->logged = dsc_eq(s->type, FL_T_CONSOLE);
	d->fatal = dsc_eq(s->type, FL_T_PANIC) || dsc_eq(s->severity, FL_S_CRITICAL) ||
		   strstr(idiom, "Fatal") || strstr(idiom, "fatal") || strstr(idiom, "die") ||
		   strstr(idiom, "abort") || strstr(idiom, "exit");
	d->placeholders = e->message_pattern && strstr(e->message_pattern, "(.+?)");
	if (s->guard && !d->arm && !d->unwrapped)
		d->guard = fl_xstrdup(s->guard);
	if (e->source_code) {
		const char *src = e->source_code;
		size_t cap = 64;
		d->line_at = fl_xmalloc(cap * sizeof *d->line_at);
		d->line_at[d->nlines++] = 0;
		for (const char *q = strchr(src, '\n'); q; q = strchr(q + 1, '\n')) {
			if ((size_t)d->nlines == cap) {
				cap *= 2;
				d->line_at = fl_xrealloc(d->line_at, cap * sizeof *d->line_at);
			}
			d->line_at[d->nlines++] = (size_t)(q + 1 - src);
		}
		d->lines_of = src;
	}
	split_function(d);
	find_params(d);
	null_check(d);
	if (dsc_eq(d->dialect, "c") || dsc_eq(d->dialect, "cpp"))
		find_return(d);
	if (!d->guard && !d->arm && !d->unwrapped && s->function)
		find_caught(d);
	dsc_guard_parse(d);
	dsc_classify(d);
}

void dsc_free(dsc *d)
{
	free(d->gw_mem[0]);
	free(d->gw_mem[1]);
	free(d->line_at);
	free(d->fshort);
	free(d->owner);
	free(d->guard);
	free(d->ret);
	free(d->doing);
	free(d->caught);
	fl_strv_free(&d->params);
	dsc_guard_free(&d->g);
}

/* ---- the arguments of the raising call's format ------------------------------- */

/* the end of a string literal opening at s[0] (one past its closing
 * quote), or NULL: '...', "...", `...`, and Python's triple quotes */
static const char *lit_end(const char *s)
{
	char q = *s;
	if ((q == '"' || q == '\'') && s[1] == q && s[2] == q) {
		const char *e = strstr(s + 3, q == '"' ? "\"\"\"" : "'''");
		return e ? e + 3 : NULL;
	}
	for (const char *p = s + 1; *p; p++) {
		if (*p == '\\' && q != '`' && p[1])
			p++;
		else if (*p == q)
			return p + 1;
		else if (*p == '\n' && q != '`')
			return NULL;
	}
	return NULL;
}

static const char *skip_ws(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (p[0] == '\\' && p[1] == '\n') /* Python's continuation */
			p += 2;
		else
			return p;
	}
}

/* one expression of a list at p, up to a top-level `,` or the bracket that
 * closes the list: its text (trimmed) and *end at the `,` or the closer, or
 * NULL when the text ends first */
static char *expr_at(const char *p, const char **end)
{
	int depth = 0;
	const char *s = p;
	for (; *p; p++) {
		char c = *p;
		if (c == '"' || c == '\'' || c == '`') {
			const char *e = lit_end(p);
			if (!e)
				return NULL;
			p = e - 1;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (depth-- == 0)
				break;
		} else if ((c == ',' || c == ';') && depth == 0) {
			break;
		}
	}
	if (!*p || *p == ';')
		return NULL;
	*end = p;
	while (s < p && isspace((unsigned char)*s))
		s++;
	const char *t = p;
	while (t > s && isspace((unsigned char)t[-1]))
		t--;
	char *r = fl_xstrndup(s, (size_t)(t - s));
	/* one line of it is enough to name it */
	for (char *q = r; *q; q++)
		if (*q == '\n' || *q == '\t')
			*q = ' ';
	return r;
}

/* a keyword argument (`name=value`, Rust's `name = value`): it fills a
 * named placeholder, not the next positional one */
static bool keyword_arg(const char *a)
{
	const char *p = a;
	while (idch(*p))
		p++;
	if (p == a)
		return false;
	while (*p == ' ')
		p++;
	return p[0] == '=' && p[1] != '=';
}

/* the list of expressions opening after the bracket at p, up to its closer */
static bool expr_list(const char *p, fl_strv *out)
{
	p = skip_ws(p + 1);
	if (*p == ')' || *p == ']')
		return true;
	for (;;) {
		const char *end;
		char *a = expr_at(p, &end);
		if (!a)
			return false;
		if (*a && !keyword_arg(a))
			fl_strv_push(out, a);
		free(a);
		if (*end != ',')
			return true;
		p = skip_ws(end + 1);
		if (*p == ')' || *p == ']')
			return true; /* a trailing comma */
	}
}

/* the literal's first plain characters are the message's first ones */
static bool lit_starts_message(const char *lit, const char *msg)
{
	size_t n = 0;
	const char *s = lit + 1;
	if ((lit[0] == '"' || lit[0] == '\'') && lit[1] == lit[0] && lit[2] == lit[0])
		s = lit + 3;
	while (n < 24 && s[n] && s[n] != lit[0] && s[n] != '\\')
		n++;
	return strncmp(s, msg, n) == 0;
}

/* the comments of a statement's text blanked (to spaces, its lines kept):
 * `f"{}"\n  .format(opt_str,  # noqa\n ...)` names `opt_str`, not
 * `opt_str # noqa`.  hash: `#` comments (Python, Ruby, PHP); slash: `//`
 * and block comments (not Python's, where `//` divides) */
static void blank_comments(char *text, bool hash, bool slash)
{
	for (char *p = text; *p; p++) {
		if (*p == '"' || *p == '\'' || *p == '`') {
			const char *e = lit_end(p);
			if (!e)
				return;
			p += e - p - 1;
		} else if ((hash && *p == '#') || (slash && p[0] == '/' && p[1] == '/')) {
			while (*p && *p != '\n')
				*p++ = ' ';
			if (!*p)
				return;
		} else if (slash && p[0] == '/' && p[1] == '*') {
			char *e = strstr(p + 2, "*/");
			if (!e)
				return;
			for (; p < e + 2; p++)
				if (*p != '\n')
					*p = ' ';
			p--;
		}
	}
}

void dsc_format_args(const dsc *d, fl_strv *out)
{
	int site = d->e->line_number;
	size_t len;
	const char *line = wline(d, site, &len);
	if (!line)
		return;
	/* the raising statement: its line from the construct on, and up to
	 * ten lines after it */
	size_t col = d->s->col > 0 ? (size_t)d->s->col - 1 : 0;
	if (col > len)
		col = 0;
	const char *last = line + len;
	for (int k = 0; k < 10 && *last; k++) {
		const char *nl = strchr(last + 1, '\n');
		last = nl ? nl : last + strlen(last);
	}
	char *text = fl_xstrndup(line + col, (size_t)(last - line - (long)col));
	bool py = dsc_eq(d->dialect, "python"), rb = dsc_eq(d->dialect, "ruby");
	blank_comments(text, py || rb || dsc_eq(d->dialect, "php"), !py && !rb);
	/* the first literal of the statement, and the name of a call it is
	 * the only argument of (a translation wrapper: `_("...")`) */
	const char *p = text, *wrap = NULL;
	size_t wl = 0;
	for (; *p && *p != '"' && *p != '\'' && *p != '`' && *p != ';' && p - text < 240; p++)
		if (*p == '(') {
			const char *w = p;
			while (w > text && (idch(w[-1]) || w[-1] == '.'))
				w--;
			wrap = w;
			wl = (size_t)(p - w);
		}
	const char *end = (*p == '"' || *p == '\'' || *p == '`') ? lit_end(p) : NULL;
	bool wrapped = false;
	if (end && wrap && wrap + wl + 1 == p) {
		static const char *const tr[] = {"_", "N_", "Q_", "__", "_t", "t", "tr", "gettext", "i18n", "T", "L", NULL};
		for (size_t i = 0; tr[i] && !wrapped; i++)
			wrapped = strlen(tr[i]) == wl && strncmp(wrap, tr[i], wl) == 0;
	}
	if (!end || !lit_starts_message(p, d->e->error_message)) {
		free(text);
		return;
	}
	/* adjacent literals, and literals joined by `+` */
	for (;;) {
		const char *q = skip_ws(end);
		if (*q == '+')
			q = skip_ws(q + 1);
		const char *e = (*q == '"' || *q == '\'' || *q == '`') ? lit_end(q) : NULL;
		if (!e)
			break;
		end = e;
	}
	const char *q = skip_ws(end);
	if (wrapped && *q == ')')
		q = skip_ws(q + 1);
	if (*q == ',') {
		/* printf's: the arguments after the format */
		q = skip_ws(q + 1);
		for (;;) {
			const char *e;
			char *a = expr_at(q, &e);
			if (!a)
				break;
			if (*a && !keyword_arg(a))
				fl_strv_push(out, a);
			free(a);
			if (*e != ',')
				break;
			q = skip_ws(e + 1);
		}
	} else if (*q == '%' && q[1] != '=') {
		/* Python's and Ruby's `fmt % (a, b)`, `fmt % [a, b]`, `fmt % a` */
		q = skip_ws(q + 1);
		if (*q == '(' || *q == '[') {
			if (!expr_list(q, out))
				fl_strv_free(out);
		} else {
			const char *e;
			char *a = expr_at(q, &e);
			if (a && *a && !memchr(q, '\n', (size_t)(e - q)))
				fl_strv_push(out, a);
			free(a);
		}
	} else if (strncmp(q, ".format(", 8) == 0) {
		if (!expr_list(q + 7, out))
			fl_strv_free(out);
	}
	free(text);
}
