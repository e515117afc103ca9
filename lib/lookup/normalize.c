/*
 * normalize.c — recognising and stripping what runtimes, shells and
 * loggers put around an error message, keeping what they carry as
 * evidence (see normalize.h).
 */
#define _GNU_SOURCE
#include "normalize.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../util.h"

void fl_query_free(fl_query *q)
{
	free(q->clean);
	free(q->command);
	free(q->program);
	free(q->argv0);
	fl_strv_free(&q->messages);
	fl_strv_free(&q->raw);
	fl_strv_free(&q->classes);
	fl_strv_free(&q->paths);
	fl_strv_free(&q->modules);
	fl_strv_free(&q->codes);
	fl_strv_free(&q->sites);
	fl_strv_free(&q->names);
	fl_strv_free(&q->funcs);
	memset(q, 0, sizeof *q);
}

static void push_unique(fl_strv *v, const char *s, size_t n)
{
	if (n == 0)
		return;
	char *c = fl_xstrndup(s, n);
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->v[i], c) == 0) {
			free(c);
			return;
		}
	if (v->n < 256)
		fl_strv_push(v, c);
	free(c);
}

/* A frame's line: "path:line" to q->sites (the frames of a stack name
 * the line that raised, and the lines that called it: a record at one of
 * them is where the text came from), digits [d, d+dn) its number. */
static void push_site(fl_query *q, const char *path, size_t pl, const char *d, size_t dn)
{
	if (!pl || !dn || dn > 9 || pl > 500)
		return;
	for (size_t k = 0; k < dn; k++)
		if (!isdigit((unsigned char)d[k]))
			return;
	char site[512];
	memcpy(site, path, pl);
	site[pl] = ':';
	memcpy(site + pl + 1, d, dn);
	push_unique(&q->sites, site, pl + 1 + dn);
}

/* ---- ANSI --------------------------------------------------------------- */

static char *strip_ansi(const char *s, size_t n)
{
	char *out = fl_xmalloc(n + 1);
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\x1b') {
			if (i + 1 < n && s[i + 1] == '[') {
				i += 2;
				while (i < n && !((s[i] >= '@' && s[i] <= '~')))
					i++;
				continue;
			}
			if (i + 1 < n && s[i + 1] == ']') { /* OSC ... BEL */
				while (i < n && s[i] != '\a')
					i++;
				continue;
			}
			continue;
		}
		if (s[i] == '\0')
			continue;
		out[o++] = s[i];
	}
	out[o] = '\0';
	return out;
}

/* ---- line prefixes ------------------------------------------------------- */

static bool digits(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* HH:MM:SS[.frac] */
static const char *time_part(const char *s)
{
	if (!(digits(s, 2) && s[2] == ':' && digits(s + 3, 2) && s[5] == ':' && digits(s + 6, 2)))
		return NULL;
	s += 8;
	if (*s == '.' || *s == ',') {
		s++;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return s;
}

static const char *strip_timestamp(const char *s)
{
	const char *p = s;
	bool br = *p == '[';
	if (br)
		p++;
	const char *q = NULL;
	if (digits(p, 4) && p[4] == '-' && digits(p + 5, 2) && p[7] == '-' && digits(p + 8, 2)) {
		q = p + 10;
		if (*q == 'T' || *q == ' ') {
			const char *t = time_part(q + 1);
			if (t)
				q = t;
		}
	} else if (digits(p, 4) && p[4] == '/' && digits(p + 5, 2) && p[7] == '/' && digits(p + 8, 2)) {
		q = p + 10; /* Go log: 2009/11/10 23:00:00 */
		if (*q == ' ') {
			const char *t = time_part(q + 1);
			if (t)
				q = t;
		}
	} else {
		q = time_part(p);
	}
	if (!q)
		return s;
	if (*q == 'Z')
		q++;
	else if ((*q == '+' || *q == '-') && digits(q + 1, 2)) {
		q += 3;
		if (*q == ':')
			q++;
		if (digits(q, 2))
			q += 2;
	}
	if (br) {
		if (*q != ']')
			return s;
		q++;
	}
	while (*q == ' ' || *q == '|' || *q == '\t' || (*q == '-' && q[1] == ' '))
		q++;
	return q;
}

/* a word of a table, with its length */
struct word {
	const char *s;
	size_t n;
};
#define WORD(w) {w, sizeof w - 1}

static const struct word levels[] = {
	WORD("error"), WORD("err"), WORD("fatal"), WORD("critical"), WORD("crit"),
	WORD("warn"), WORD("warning"), WORD("info"), WORD("debug"), WORD("trace"),
	WORD("panic"), WORD("severe"), WORD("notice"), WORD("alert"), WORD("emerg"),
	WORD("emergency"), WORD("fail"), WORD("failed"), WORD("e"), WORD("w"), WORD("f"),
};

/* p[0, n) spells the lower-case ASCII word w in either case (strncasecmp
 * without its locale, for the hot path of a log's lines) */
static inline bool ascii_ieq(const char *p, const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)p[i] | 0x20) != (unsigned char)w[i])
			return false;
	return true;
}

static bool is_level(const char *p, size_t n)
{
	/* quick rejection by first letter: E F W I D T P S N A C */
	switch (p[0] | 0x20) {
	case 'e': case 'f': case 'w': case 'i': case 'd': case 't': case 'p':
	case 's': case 'n': case 'a': case 'c':
		break;
	default:
		return false;
	}
	if (n > 9)
		return false;
	for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
		if (levels[l].n == n && ascii_ieq(p, levels[l].s, n))
			return true;
	return false;
}

static const char *strip_level(const char *s)
{
	const char *p = s;
	bool br = *p == '[' || *p == '<';
	if (br)
		p++;
	size_t n = 0;
	while (n < 12 && isalpha((unsigned char)p[n]))
		n++;
	if (!n || n >= 12 || !is_level(p, n))
		return s;
	/* single letters only as [E] */
	if (n == 1 && !br)
		return s;
	const char *q = p + n;
	if (br) {
		if (*q != ']' && *q != '>')
			return s;
		q++;
	}
	bool colon = *q == ':';
	if (colon)
		q++;
	if (*q != ' ' && *q != '\t')
		return s;
	/* a plain capitalised word ("Error something") is text, not a level:
	 * require brackets, a colon, or all capitals */
	if (!br && !colon) {
		for (size_t i = 0; i < n; i++)
			if (islower((unsigned char)p[i]))
				return s;
	}
	return skip_spaces(q);
}

/* PHP's levels, as its CLI logs them ("PHP Warning:  ", "PHP Fatal error:
 * ") and as it displays them ("Parse error: ", "Deprecated: "). */
static const char *strip_php_level(const char *s)
{
	static const struct word php[] = {WORD("Fatal error:"), WORD("Parse error:"),
		WORD("Warning:"), WORD("Notice:"), WORD("Deprecated:"),
		WORD("Recoverable fatal error:"), WORD("Catchable fatal error:"),
		WORD("Strict Standards:")};
	const char *p = strncmp(s, "PHP ", 4) == 0 ? s + 4 : s;
	if (!strchr("FPWNDRCS", *p))
		return s;
	for (size_t k = 0; k < sizeof php / sizeof php[0]; k++)
		if (strncmp(p, php[k].s, php[k].n) == 0 && (p[php[k].n] == ' ' || p[php[k].n] == '\t'))
			return skip_spaces(p + php[k].n);
	return s;
}

/* syslog: "<13>", "Nov 29 12:00:00 host prog[123]: " */
static const char *strip_syslog(const char *s)
{
	const char *p = s;
	if (*p == '<') {
		const char *q = p + 1;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '>' && q > p + 1)
			p = q + 1;
	}
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec", NULL};
	bool month = false;
	if (p[0] < 'A' || p[0] > 'S' || !p[1] || !p[2] || p[3] != ' ')
		return p; /* no month: they all start with a capital A..S */
	for (const char *const *m = months; *m; m++)
		if (strncmp(p, *m, 3) == 0 && p[3] == ' ')
			month = true;
	if (!month)
		return p;
	const char *q = p + 4;
	if (*q == ' ')
		q++;
	while (isdigit((unsigned char)*q))
		q++;
	if (*q != ' ')
		return p;
	const char *t = time_part(q + 1);
	if (!t || *t != ' ')
		return p;
	q = t + 1;
	/* host */
	const char *h = q;
	while (*h && *h != ' ')
		h++;
	if (*h != ' ')
		return q;
	/* prog[pid]: */
	const char *g = h + 1;
	const char *c = g;
	while (*c && *c != ' ' && *c != ':')
		c++;
	if (*c == ':' && c > g)
		return skip_spaces(c + 1);
	return q;
}

/* "prog: fatal: ", "fatal: ", "error: ", "warning: ", "npm error " */
static const struct word kinds[] = {
	WORD("fatal: "), WORD("error: "), WORD("warning: "), WORD("Error: "), WORD("ERROR: "),
	WORD("FATAL: "), WORD("panic: "), WORD("npm error "), WORD("npm ERR! "),
	WORD("npm warn "), WORD("usage: "),
};

static const char *kind_prefix(const char *s)
{
	switch (*s) {
	case 'f': case 'e': case 'w': case 'E': case 'F': case 'p': case 'n':
	case 'u':
		break;
	default:
		return NULL;
	}
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		size_t l = kinds[k].n;
		if (kinds[k].s[0] == *s && s[1] == kinds[k].s[1] && strncmp(s, kinds[k].s, l) == 0 &&
		    s[l])
			return s + l;
	}
	return NULL;
}

static const char *strip_prog(const char *s)
{
	const char *r = kind_prefix(s);
	if (r)
		return r;
	/* "prog: fatal: ..." — prog is one word */
	const char *p = s;
	while (*p && *p != ' ' && *p != ':' && p - s < 64)
		p++;
	if (*p == ':' && p > s && p[1] == ' ') {
		r = kind_prefix(p + 2);
		if (r)
			return r;
	}
	return s;
}

/* The program a message line names first, as C tools print argv[0]
 * ("ls: cannot access 'x': No such file or directory", "du: ..."): a
 * lower-case word of 2 to 32 letters, digits, '.', '_', '+' or '-' and
 * ": " then the message; not a word that says what the line is
 * ("error: ", "note: ", "hint: ") or labels a part of it.  Its length,
 * or 0. */
static size_t argv0_prefix(const char *s)
{
	static const char *const labels[] = {
		"error", "fatal", "warning", "warn", "note", "hint", "info", "debug", "trace",
		"notice", "panic", "usage", "caused", "cause", "reason", "details", "detail",
		"message", "msg", "help", "tip", "see", "at", "in", "from", "to", "and", "or",
		"critical", "crit", "severe", "alert", "emerg", "err", "failed", "failure",
		"status", "code", "expected", "got", "found", "actual", "value", "line", "file",
		"path", "http", "https", "ftp", NULL,
	};
	if (!(*s >= 'a' && *s <= 'z'))
		return 0;
	size_t n = 0;
	while (n < 33 && ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') ||
			  s[n] == '.' || s[n] == '_' || s[n] == '+' || s[n] == '-'))
		n++;
	if (n < 2 || n > 32 || s[n] != ':' || s[n + 1] != ' ' || !s[n + 2] || s[n + 2] == ' ')
		return 0;
	for (const char *const *l = labels; *l; l++)
		if (strlen(*l) == n && memcmp(*l, s, n) == 0)
			return 0;
	return n;
}

/* Does s start as glog's header does ("E1129 ")? */
static bool glog_lead(const char *s)
{
	return s[0] && strchr("IWEF", s[0]) && digits(s + 1, 4) && s[5] == ' ';
}

/* glog: "E1129 12:00:00.123456  1234 file.cc:123] msg" */
static const char *strip_glog(const char *s, fl_query *q)
{
	if (!glog_lead(s))
		return s;
	const char *t = time_part(s + 6);
	if (!t)
		return s;
	const char *b = strstr(t, "] ");
	if (!b || b - t > 80)
		return s;
	const char *f = b;
	while (f > t && f[-1] != ' ')
		f--;
	const char *colon = memchr(f, ':', (size_t)(b - f));
	if (colon) {
		push_unique(&q->paths, f, (size_t)(colon - f));
		push_site(q, f, (size_t)(colon - f), colon + 1, (size_t)(b - colon - 1));
	}
	return b + 2;
}

/* A system call's error as Go's os.PathError and others print it: "stat
 * /x/y: directory not found", "open /etc/app.yml: permission denied": the
 * message is what follows (the line as printed stays in q->raw). */
static const char *strip_syscall(const char *s)
{
	static const struct word ops[] = {WORD("open "), WORD("stat "), WORD("lstat "),
		WORD("fstat "), WORD("read "), WORD("write "), WORD("mkdir "), WORD("remove "),
		WORD("unlink "), WORD("chdir "), WORD("readlink "), WORD("chmod "), WORD("chown "),
		WORD("truncate "), WORD("readdir ")};
	size_t wl = 0; /* the first word: lower-case letters, then ' ' */
	while (wl < 9 && s[wl] >= 'a' && s[wl] <= 'z')
		wl++;
	if (wl < 4 || s[wl] != ' ')
		return s;
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		size_t l = ops[k].n;
		if (l != wl + 1 || ops[k].s[0] != s[0] || memcmp(s, ops[k].s, l) != 0)
			continue;
		const char *p = s + l, *e = p;
		while (*e && *e != ' ' && *e != '\t')
			e++;
		/* a path: a '/' in it, then ": " and a message */
		if (e - p < 2 || e[-1] != ':' || *e != ' ' || !memchr(p, '/', (size_t)(e - p)) ||
		    !e[1])
			return s;
		return e + 1;
	}
	return s;
}

/* A logger's context tag after the timestamp or level: the thread or
 * worker ("[main]", "[worker-3]", "[http-nio-8080-exec-1]", "[req:4f2a]"),
 * one bracketed word (a bracket holding spaces, "[Errno 2]", is text). */
static const char *strip_tag(const char *s)
{
	if (*s != '[')
		return s;
	size_t n = 1;
	while (n < 64 && s[n] && (isalnum((unsigned char)s[n]) || strchr("_.:/#@-", s[n])))
		n++;
	if (n == 1 || s[n] != ']' || (s[n + 1] != ' ' && s[n + 1] != '\t'))
		return s;
	const char *q = skip_spaces(s + n + 1);
	return *q ? q : s;
}

/* A diagnostic's location, GNU style: "src/a.c:12:5: error: ...",
 * "meson.build:2:0: ERROR: ...", go generate's "gen/gen.go:3: running ..."
 * (the file the program was reading, not a line of its source: no
 * evidence).  When a level follows it, or it names a file: a folder in it,
 * or a name with an extension ("127.0.0.1:80: " and "12:30:05: " are no
 * files). */
static const char *strip_location(const char *s)
{
	const char *p = s, *dot = NULL;
	bool slash = false;
	while (*p && *p != ':' && *p != ' ' && *p != '\t') {
		if (*p == '/')
			slash = true, dot = NULL;
		else if (*p == '.')
			dot = p;
		p++;
	}
	bool ext = false;
	if (dot && p - dot >= 2 && p - dot <= 9)
		for (const char *e = dot + 1; e < p; e++)
			ext |= isalpha((unsigned char)*e);
	/* a linter's compact form: "a.css: line 1, col 17, error - ", and
	 * without a level ("a.js: line 1, col 10, Missing semicolon.",
	 * "stdin: line 1, ...": jshint) */
	if (p > s && (ext || (p - s == 5 && strncmp(s, "stdin", 5) == 0)) &&
	    strncmp(p, ": line ", 7) == 0 && isdigit((unsigned char)p[7])) {
		const char *q = p + 7;
		while (isdigit((unsigned char)*q))
			q++;
		if (strncmp(q, ", col ", 6) == 0 && isdigit((unsigned char)q[6])) {
			q += 6;
			while (isdigit((unsigned char)*q))
				q++;
			if (q[0] == ',' && q[1] == ' ' && q[2] && q[2] != ' ') {
				const char *msg = q + 2, *w = msg;
				while (isalpha((unsigned char)*w))
					w++;
				if (w > msg && strncmp(w, " - ", 3) == 0)
					return w + 3;
				return msg;
			}
		}
	}
	if (p == s || *p != ':' || !isdigit((unsigned char)p[1]))
		return s;
	bool file = (slash && !(p - s >= 1 && strstr(s, "://") && strstr(s, "://") < p)) || ext;
	for (int k = 0; k < 2 && *p == ':' && isdigit((unsigned char)p[1]); k++) {
		p++;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p != ':' || p[1] != ' ')
		return s;
	const char *q = skip_spaces(p + 1);
	return file || strip_level(q) != q ? q : s;
}

/* The place a message ends with, PHP's and less's: "... in
 * /var/www/src/Cart.php on line 12", "... in /src/a.less on line 1,
 * column 12:".  Its length from the " in " (0 when there is none); the
 * path and line in *path, *pl, *ln, *dl. */
#define WHERE_TAIL 40
static size_t where_suffix_at(const char *m, size_t n, const char **path, size_t *pl,
			      const char **ln, size_t *dl)
{
	/* " on line " and what may follow it: digits, ", column " and
	 * digits, ':': the last WHERE_TAIL bytes */
	const char *on = NULL, *from = n > WHERE_TAIL ? m + n - WHERE_TAIL : m;
	for (const char *p = from; (p = fl_memmem(p, (size_t)(m + n - p), " on line ", 9)) != NULL; p++)
		on = p;
	if (!on)
		return 0;
	const char *d = on + 9, *e = d;
	while (isdigit((unsigned char)*e))
		e++;
	if (e == d || e - d > 9)
		return 0;
	const char *r = e;
	if (strncmp(r, ", column ", 9) == 0 && isdigit((unsigned char)r[9])) {
		r += 9;
		while (isdigit((unsigned char)*r))
			r++;
	}
	if (*r == ':' || *r == '.')
		r++;
	if (r != m + n)
		return 0;
	/* " in PATH" before it: a path of no blanks with a folder or an
	 * extension */
	const char *pe = on, *pb = on;
	while (pb > m && pb[-1] != ' ')
		pb--;
	if (pb == pe || pb - m < 5 || memcmp(pb - 4, " in ", 4) != 0 ||
	    (!memchr(pb, '/', (size_t)(pe - pb)) && !memchr(pb, '.', (size_t)(pe - pb))))
		return 0;
	*path = pb;
	*pl = (size_t)(pe - pb);
	*ln = d;
	*dl = (size_t)(e - d);
	return (size_t)(m + n - (pb - 4));
}

/* Cut that place off the message m, in place; the place is evidence (a
 * PHP message names the line that raised it). */
static void where_suffix(fl_query *q, char *m)
{
	size_t n = strlen(m), pl, dl;
	const char *path, *ln;
	size_t cut = where_suffix_at(m, n, &path, &pl, &ln, &dl);
	if (!cut || cut >= n)
		return;
	push_unique(&q->paths, path, pl);
	push_site(q, path, pl, ln, dl);
	m[n - cut] = '\0';
}

char *fl_strip_line(char *line)
{
	const char *p = skip_spaces(line);
	bool prefixed = false; /* a timestamp or level was stripped */
	for (int round = 0; round < 8; round++) {
		const char *q = p;
		q = strip_syslog(q);
		q = strip_timestamp(q);
		q = strip_location(q);
		q = strip_php_level(q);
		q = strip_level(q);
		if (q != p || prefixed) {
			prefixed = true;
			q = strip_tag(q);
		}
		q = strip_prog(q);
		q = strip_syscall(skip_spaces(q));
		q = skip_spaces(q);
		if (q == p)
			break;
		p = q;
	}
	return (char *)p;
}

/* ---- evidence from frames ------------------------------------------------------ */

/* "path:line[:col]" inside s: push path, and the line as a site */
static void push_path_before_colon_digits(fl_query *q, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] != ':' || i + 1 >= n || !isdigit((unsigned char)s[i + 1]))
			continue;
		size_t b = i;
		while (b > 0 && s[b - 1] != ' ' && s[b - 1] != '(' && s[b - 1] != '\t' &&
		       s[b - 1] != '"' && s[b - 1] != '\'')
			b--;
		if (i > b && memchr(s + b, '.', i - b)) {
			push_unique(&q->paths, s + b, i - b);
			size_t d = i + 1;
			while (d < n && isdigit((unsigned char)s[d]))
				d++;
			push_site(q, s + b, i - b, s + i + 1, d - i - 1);
		}
		return;
	}
}

/* A JVM frame's file named with its class's package ("at
 * java.base/java.lang.Integer.parseInt(Integer.java:662)": the path
 * java/lang/Integer.java, line 662), so that of the files sharing a name
 * (a large tree has many Node.java) the frame names one.  name: what
 * precedes '(' after "at "; in: what follows it.  False when the frame
 * is not of that form (Node's "at f (file.js:1:2)", a class in no
 * package, "Native Method"). */
static bool push_jvm_frame(fl_query *q, const char *name, size_t nl, const char *in)
{
	size_t fl = strcspn(in, ":)");
	if (in[fl] != ':' || !isdigit((unsigned char)in[fl + 1]) || !memchr(in, '.', fl) ||
	    memchr(in, '/', fl) || memchr(in, ' ', fl) || memchr(name, ' ', nl))
		return false;
	const char *slash = memrchr(name, '/', nl); /* a module or a loader: java.base/, app// */
	if (slash) {
		nl -= (size_t)(slash + 1 - name);
		name = slash + 1;
	}
	const char *method = memrchr(name, '.', nl);
	const char *cls = method ? memrchr(name, '.', (size_t)(method - name)) : NULL;
	if (!cls || cls == name)
		return false;
	size_t pk = (size_t)(cls - name), dn = 0;
	while (isdigit((unsigned char)in[fl + 1 + dn]))
		dn++;
	if (pk + 1 + fl > 480)
		return false;
	char path[512];
	for (size_t i = 0; i < pk; i++)
		path[i] = name[i] == '.' ? '/' : name[i];
	path[pk] = '/';
	memcpy(path + pk + 1, in, fl);
	push_unique(&q->paths, path, pk + 1 + fl);
	push_site(q, path, pk + 1 + fl, in + fl + 1, dn);
	return true;
}

/* class-like word followed by ": " at the start: Class: message.  Its last
 * component must end like an error class (or, after a module path, in
 * "error" of any case: re.error, socket.gaierror), unless loose: where a
 * class is all that can stand (the line a Python traceback ends with,
 * after `Exception in thread "x"`, a line a Java frame follows), any
 * name is one (pkg.MissingPart, subprocess.TimeoutExpired). */
/* Does the name s[0, n) end like an error class (its last component after
 * '.' or ':'; loose: any name)? */
static bool error_class_name(const char *s, size_t n, bool loose)
{
	const char *last = s;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '.' || s[i] == ':')
			last = s + i + 1;
	size_t ll = (size_t)(s + n - last);
	if (loose && ll && (isalpha((unsigned char)last[0]) || last[0] == '_'))
		return true;
	if (last != s && ll >= 5 && strncasecmp(last + ll - 5, "error", 5) == 0)
		return true;
	static const struct word ends[] = {WORD("Error"), WORD("Exception"), WORD("Panic"),
		WORD("Warning"), WORD("Fault"), WORD("Failure"), WORD("Interrupt"), WORD("Exit")};
	for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
		size_t el = ends[k].n;
		if (ll >= el && memcmp(last + ll - el, ends[k].s, el) == 0)
			return true;
	}
	return false;
}

static size_t class_prefix_at(const char *s, bool loose)
{
	size_t n = 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.' || s[n] == '$' ||
	       s[n] == ':')
		n++;
	while (n > 0 && s[n - 1] == ':')
		n--;
	if (n < 4 || s[n] != ':' || (s[n + 1] != ' ' && s[n + 1] != '\0'))
		return 0;
	return error_class_name(s, n, loose) ? n : 0;
}

static size_t class_prefix(const char *s)
{
	return class_prefix_at(s, false);
}

/* Is s, whole, a qualified name of an error class ("java.io.EOFException":
 * the toString() of a Java exception without a message)? */
static bool bare_error_class(const char *s)
{
	size_t n = 0;
	bool dot = false;
	for (; isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '$' || s[n] == '.'; n++)
		dot |= s[n] == '.';
	if (s[n] || !dot || n < 4 || n >= 256 || s[n - 1] == '.')
		return false;
	return error_class_name(s, n, false);
}

/* Whether the line at s is a Java frame: "\tat pkg.Cls.m(File.java:10)". */
static bool java_frame_next(const char *s)
{
	if (!s || (*s != ' ' && *s != '\t'))
		return false;
	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "at ", 3) != 0)
		return false;
	const char *nl = strchr(s, '\n'), *paren = strchr(s, '(');
	return paren && (!nl || paren < nl);
}

static void add_class(fl_query *q, const char *s, size_t n)
{
	push_unique(&q->classes, s, n);
	/* also the last component (java.lang.IllegalStateException) */
	const char *last = s;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '.' || s[i] == ':')
			last = s + i + 1;
	if (last != s) {
		push_unique(&q->classes, last, (size_t)(s + n - last));
		push_unique(&q->modules, s, (size_t)(last - s - 1));
	}
	/* a nested class as the JVM names it: Outer$Inner */
	const char *inner = memrchr(last, '$', (size_t)(s + n - last));
	if (inner && inner + 1 < s + n)
		push_unique(&q->classes, inner + 1, (size_t)(s + n - inner - 1));
}

/* ---- symfony/console exception blocks ------------------------------------ */

/* symfony/console prints an uncaught exception as a block, every line
 * padded to one width L:
 *
 *     In Factory.php line 320:
 *     <L blanks>
 *       [Vendor\Class (code)]        (verbose runs, or an empty message)
 *       the message, each of its lines cut at the terminal's width (in the
 *       middle of a word), two blanks in front
 *     <L blanks>
 *
 * The header names the file (and line) where the exception was built: a
 * path, as a frame would; the class is a class; the cut lines are joined
 * back into the message's own lines, which replace the block in the text
 * and come first among the messages (the exception that ended the run).
 * A block without its header counts only when its padding is intact. */

struct bline {
	const char *s; /* the line, without its \r\n */
	size_t raw;    /* its length, trailing blanks included */
	size_t len;    /* its length without trailing blanks */
};

static bool blank_line(const struct bline *l)
{
	return l->len == 0;
}

/* "In NAME line N:" (N may be "n/a"): the name's span (and, through
 * *site, "NAME:N" when N is a number), else false */
static bool box_header(const struct bline *l, const char **name, size_t *nl, size_t *site)
{
	const char *p = l->s, *e = l->s + l->len;
	while (p < e && *p == ' ')
		p++;
	if (e - p < 12 || strncmp(p, "In ", 3) != 0)
		return false;
	const char *n = p + 3, *q = n;
	while (q < e && *q != ' ')
		q++;
	if (q == n || e - q < 8 || strncmp(q, " line ", 6) != 0)
		return false;
	const char *d = q + 6;
	if (e - d >= 4 && strncmp(d, "n/a:", 4) == 0)
		d += 3;
	else
		while (d < e && isdigit((unsigned char)*d))
			d++;
	if (d == q + 6 || d + 1 != e || *d != ':')
		return false;
	*name = n;
	*nl = (size_t)(q - n);
	*site = isdigit((unsigned char)q[6]) ? (size_t)(d - n) : 0;
	return true;
}

/* "  [Class]" / "  [Class (code)]": the class's span */
static bool box_class(const struct bline *l, size_t *cb, size_t *cn)
{
	const char *s = l->s;
	if (l->len < 5 || s[2] != '[' || s[l->len - 1] != ']')
		return false;
	size_t i = 3;
	while (i < l->len - 1 && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '\\'))
		i++;
	if (i == 3 || (i != l->len - 1 && s[i] != ' '))
		return false;
	*cb = 3;
	*cn = i - 3;
	return true;
}

/* The block whose first padding line is lines[b] (after its header when
 * hdr): the message appended to msg, lines joined; returns the index of
 * its closing padding line, or 0 when lines[b...] is no block. */
static size_t box_body(const struct bline *lines, size_t n, size_t b, bool hdr, fl_query *q,
		       fl_buf *msg)
{
	if (b >= n || !blank_line(&lines[b]))
		return 0;
	size_t L = lines[b].raw, k = b + 1, full = 0, maxraw = 0;
	bool padded = L >= 6;
	while (k < n && !blank_line(&lines[k]) && lines[k].len > 2 &&
	       strncmp(lines[k].s, "  ", 2) == 0) {
		if (lines[k].raw != L)
			padded = false;
		if (lines[k].raw > maxraw)
			maxraw = lines[k].raw;
		k++;
	}
	if (k == b + 1 || k >= n || !blank_line(&lines[k]))
		return 0;
	if (lines[k].raw != L)
		padded = false;
	if (!hdr && !padded)
		return 0;
	if (!padded) /* a paste that lost the padding: the longest line */
		L = maxraw + 2;
	size_t first = b + 1;
	size_t cb, cn;
	if (box_class(&lines[first], &cb, &cn)) {
		add_class(q, lines[first].s + cb, cn);
		first++;
	}
	for (size_t i = first; i < k; i++)
		if (lines[i].len - 2 == L - 4)
			full++;
	for (size_t i = first; i < k; i++) {
		const char *s = lines[i].s + 2;
		size_t pn = lines[i].len - 2;
		fl_buf_put(msg, s, pn);
		if (i + 1 == k)
			break;
		const char *nx = lines[i + 1].s + 2;
		char last = pn ? s[pn - 1] : ' ';
		bool join = false;
		if (pn == L - 4)
			join = nx[0] != ' ' ? !(strchr(".:!?", last) && isupper((unsigned char)nx[0]))
					    : full >= 2;
		else if (pn + 1 == L - 4 && padded && full >= 2 && nx[0] != ' ')
			join = true, fl_buf_putc(msg, ' ');
		if (!join)
			fl_buf_putc(msg, '\n');
	}
	return k;
}

/* The text t with every console block replaced by its message's lines;
 * the headers' files go to q->paths, the messages to first.  NULL when t
 * holds none. */
static char *unbox(const char *t, fl_query *q, fl_strv *first)
{
	if (!strstr(t, "\n  "))
		return NULL;
	struct bline *lines = NULL;
	size_t n = 0, cap = 0;
	for (const char *p = t;;) {
		const char *e = strchr(p, '\n');
		size_t raw = e ? (size_t)(e - p) : strlen(p);
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			lines = fl_xrealloc(lines, cap * sizeof *lines);
		}
		if (raw && p[raw - 1] == '\r')
			raw--;
		size_t len = raw;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		lines[n++] = (struct bline){p, raw, len};
		if (!e)
			break;
		p = e + 1;
	}
	fl_buf out = {0};
	bool any = false;
	for (size_t i = 0; i < n;) {
		const char *name;
		size_t nl, sl, end = 0;
		fl_buf msg = {0};
		bool hdr = box_header(&lines[i], &name, &nl, &sl);
		if (hdr)
			end = box_body(lines, n, i + 1, true, q, &msg);
		else if (blank_line(&lines[i]))
			end = box_body(lines, n, i, false, q, &msg);
		if (!end) {
			fl_buf_put(&out, lines[i].s, lines[i].raw);
			if (++i < n)
				fl_buf_putc(&out, '\n');
			continue;
		}
		if (hdr) {
			push_unique(&q->paths, name, nl);
			if (sl) { /* "Factory.php line 320" -> "Factory.php:320" */
				fl_buf site = {0};
				fl_buf_put(&site, name, nl);
				fl_buf_putc(&site, ':');
				fl_buf_put(&site, name + nl + 6, sl - nl - 6);
				push_unique(&q->sites, site.s, site.n);
				fl_buf_free(&site);
			}
		}
		push_unique(first, msg.s, msg.n);
		fl_buf_put(&out, msg.s, msg.n);
		fl_buf_free(&msg);
		any = true;
		i = end + 1;
		if (i < n)
			fl_buf_putc(&out, '\n');
	}
	free(lines);
	if (!any) {
		fl_buf_free(&out);
		return NULL;
	}
	fl_buf_cstr(&out);
	return out.s;
}

static void json_line(fl_query *q, const char *line, fl_strv *first)
{
	json_error_t je;
	json_t *o = json_loads(line, 0, &je);
	if (!json_is_object(o)) {
		json_decref(o);
		return;
	}
	static const char *const keys[] = {"msg", "message", "error", "err",
		"error_message", "exception", "@message", "text", NULL};
	for (const char *const *k = keys; *k; k++) {
		json_t *v = json_object_get(o, *k);
		if (json_is_object(v)) {
			json_t *m = json_object_get(v, "message");
			if (!json_is_string(m))
				m = json_object_get(v, "msg");
			json_t *t = json_object_get(v, "type");
			if (json_is_string(t))
				add_class(q, json_string_value(t), strlen(json_string_value(t)));
			v = m;
		}
		if (json_is_string(v))
			push_unique(first, json_string_value(v), strlen(json_string_value(v)));
	}
	json_t *c = json_object_get(o, "code");
	if (json_is_string(c))
		push_unique(&q->codes, json_string_value(c), strlen(json_string_value(c)));
	json_decref(o);
}

/* logfmt: msg="..." err="..." error=word */
static void logfmt(fl_query *q, const char *line, fl_strv *first)
{
	static const char *const keys[] = {"msg=", "message=", "error=", "err=", NULL};
	(void)q;
	for (const char *const *k = keys; *k; k++) {
		const char *p = line;
		size_t kl = strlen(*k);
		while ((p = strstr(p, *k))) {
			if (p != line && p[-1] != ' ') {
				p += kl;
				continue;
			}
			p += kl;
			if (*p == '"') {
				fl_buf b = {0};
				for (p++; *p && *p != '"'; p++) {
					if (*p == '\\' && p[1]) {
						p++;
						fl_buf_putc(&b, *p == 'n' ? '\n' : *p == 't' ? '\t' : *p);
					} else {
						fl_buf_putc(&b, *p);
					}
				}
				push_unique(first, fl_buf_cstr(&b), b.n);
				fl_buf_free(&b);
			} else {
				const char *e = p;
				while (*e && *e != ' ')
					e++;
				push_unique(first, p, (size_t)(e - p));
			}
			break;
		}
	}
}

/* ---- what a line is ------------------------------------------------------------- */

enum { LEVEL_INFO, LEVEL_WARNING, LEVEL_ERROR };

/* The level a line's stripped prefix [line, msg) names: informational
 * lines (INFO, DEBUG, TRACE, NOTICE) and warnings rank after the others
 * when a pasted output holds several lines. */
static int line_level(const char *line, const char *msg)
{
	static const struct {
		struct word w;
		int level;
	} words[] = {
		{WORD("warn"), LEVEL_WARNING}, {WORD("info"), LEVEL_INFO},
		{WORD("debug"), LEVEL_INFO}, {WORD("trace"), LEVEL_INFO},
		{WORD("notice"), LEVEL_INFO}, {WORD("verbose"), LEVEL_INFO},
		{WORD("deprecated"), LEVEL_WARNING},
	};
	size_t n = (size_t)(msg - line);
	for (size_t i = 0; i < n; i++) {
		if (!isalpha((unsigned char)line[i]) || (i && isalpha((unsigned char)line[i - 1])))
			continue;
		/* the whole word: a file or rule named `debugger.rb`,
		 * `Lint/Debugger`, `tracer` is no level; `warning`,
		 * `information` are */
		size_t all = 0;
		while (i + all < n && isalpha((unsigned char)line[i + all]))
			all++;
		for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
			if ((line[i] | 0x20) != words[w].w.s[0])
				continue;
			size_t wl = words[w].w.n;
			if (i + wl > n || !ascii_ieq(line + i, words[w].w.s, wl))
				continue;
			if (all == wl || (all == 7 && ascii_ieq(line + i, "warning", 7)) ||
			    (all == 9 && ascii_ieq(line + i, "debugging", 9)) ||
			    (all >= 11 && ascii_ieq(line + i, "information", 11)))
				return words[w].level;
		}
	}
	return LEVEL_ERROR;
}

/* Does a line's stripped prefix [line, msg) name an error level
 * ("ERROR", "[E]", "fatal: ", "npm ERR! ")? */
static bool names_error(const char *line, const char *msg)
{
	static const char *const words[] = {"error", "err", "fatal", "crit", "panic",
		"severe", "alert", "emerg", "fail", "e", NULL};
	size_t n = (size_t)(msg - line);
	for (size_t i = 0; i < n; i++) {
		if (!isalpha((unsigned char)line[i]) || (i && isalpha((unsigned char)line[i - 1])))
			continue;
		size_t wl = 0;
		while (i + wl < n && isalpha((unsigned char)line[i + wl]))
			wl++;
		for (const char *const *w = words; *w; w++)
			if (strncasecmp(line + i, *w, strlen(*w)) == 0 &&
			    (wl == strlen(*w) || (strlen(*w) > 1 && wl > strlen(*w))))
				return wl > 1 || line[i] == 'E';
	}
	return false;
}

/* A Go stack frame's path line ("\t/src/app/main.go:21 +0x1d"): the
 * line number ends the line or comes before " +0x"; a message that names a
 * position ("\tmain.go:3:8: use of internal package ...") is none. */
static bool go_frame(const char *sp)
{
	const char *g = strstr(sp, ".go:");
	if (!g || !isdigit((unsigned char)g[4]))
		return false;
	const char *e = g + 4;
	while (isdigit((unsigned char)*e))
		e++;
	return !*e || strncmp(e, " +0x", 4) == 0;
}

/* A Ruby frame after "from ": "path.rb:12:in `m'" (or 'm'). */
static bool ruby_frame(const char *s)
{
	const char *c = strstr(s, ".rb:");
	if (!c || !isdigit((unsigned char)c[4]) || memchr(s, ' ', (size_t)(c - s)))
		return false;
	const char *e = c + 4;
	while (isdigit((unsigned char)*e))
		e++;
	return strncmp(e, ":in ", 4) == 0 || !*e;
}

/* Ruby's report of an uncaught `exit`: "path.rb:33:in `exit': exit
 * (SystemExit)" */
static bool ruby_exit_header(const char *s)
{
	size_t n = strlen(s);
	return n > 13 && strcmp(s + n - 13, " (SystemExit)") == 0 && ruby_frame(s) &&
	       strstr(s, ":in ") != NULL;
}

/* A line of a help text's option table ("  -v, --version   show the
 * version", "  --exists-action <action>    Default action when ...",
 * "  -          read from standard input") or
 * the continuation of its description in a column 20 or more spaces in:
 * what a program does, not what went wrong. */
static bool help_line(const char *line, const char *sp)
{
	size_t col = 0;
	for (const char *p = line; p < sp; p++)
		col += *p == '\t' ? 8 - col % 8 : 1;
	if (col >= 20)
		return true;
	/* (a lone "-" too: the option that reads standard input) */
	if (!col || sp[0] != '-' ||
	    !(isalnum((unsigned char)sp[1]) || sp[1] == '-' || (sp[1] == ' ' && sp[2] == ' ')))
		return false;
	/* the option, then a gap of two spaces or more, then the text */
	const char *gap = strstr(sp, "  ");
	if (!gap)
		return false;
	const char *d = skip_spaces(gap);
	return isalpha((unsigned char)*d) || *d == '(' || *d == '[';
}

/* A shell prompt line ("$ tool sub --flag", "❯ tool ..."): the command
 * after it, else NULL. */
static const char *prompt_command(const char *s)
{
	if (s[0] == '$' && s[1] == ' ')
		return skip_spaces(s + 2);
	if (strncmp(s, "\xe2\x9d\xaf ", 4) == 0) /* ❯ */
		return skip_spaces(s + 4);
	return NULL;
}

/* ---- a line that cannot matter --------------------------------------------- */

/* Is the one line [s, s+n) one fl_normalize reads as informational and
 * naming nothing that gives a record evidence (fl_lk_query_may_confide
 * false of its query)?  It follows fl_normalize's reading of a single
 * line, refusing (false) whatever would take another branch there: an
 * indented line, a wrapper's line (frames, panics, "Caused by:", JSON,
 * logfmt, glog, a prompt, a usage text), a "Class: message" line, ANSI
 * colours.  False is always safe; true must imply the query.  Cheap: it
 * is asked of every line of a log before the literal scan (greplog.c),
 * and test_line_quiet checks it against fl_normalize. */
bool fl_line_quiet(const char *s, size_t n)
{
	char buf[1024];
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	if (!n || n >= sizeof buf || s[0] == ' ' || s[0] == '\t' || s[0] == '{' ||
	    memchr(s, '\n', n) || memchr(s, '\x1b', n) || memchr(s, '\0', n))
		return false;
	/* logfmt's keys (and grep-log's "message=") */
	for (const char *e = memchr(s, '=', n); e; e = memchr(e + 1, '=', (size_t)(s + n - e - 1))) {
		size_t at = (size_t)(e - s);
		if ((at >= 3 && (memcmp(e - 3, "msg", 3) == 0 || memcmp(e - 3, "err", 3) == 0)) ||
		    (at >= 5 && memcmp(e - 5, "error", 5) == 0) ||
		    (at >= 7 && memcmp(e - 7, "message", 7) == 0))
			return false;
	}
	/* a place at its end ("in /src/a.php on line 3") is evidence */
	if (fl_memmem(n > WHERE_TAIL ? s + n - WHERE_TAIL : s, n > WHERE_TAIL ? WHERE_TAIL : n,
		      " on line ", 9))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* the lines fl_normalize takes as something else than a message */
	static const struct word marks[] = {WORD("Traceback (most recent call last)"),
		WORD("File \""), WORD("goroutine "), WORD("... "), WORD("note: "),
		WORD("stack backtrace:"), WORD("[stack trace]"), WORD("code: "), WORD("$ "),
		WORD("\xe2\x9d\xaf ")};
	if (strchr("TFg.ns[c$\xe2", buf[0]))
		for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++)
			if (marks[k].n <= n && memcmp(buf, marks[k].s, marks[k].n) == 0)
				return false;
	if ((buf[0] | 0x20) == 'u' && strncasecmp(buf, "usage:", 6) == 0)
		return false;
	/* (fl_normalize strips twice, around glog's header; the second
	 * time changes nothing when there is none) */
	char *m = fl_strip_line(buf);
	/* glog's header names a file (evidence) */
	if (glog_lead(m))
		return false;
	if (!*m || (help_line(buf, buf) ? LEVEL_INFO : line_level(buf, m)) != LEVEL_INFO)
		return false;
	/* panics, chains, and an exception's class */
	static const struct word leads[] = {WORD("thread '"), WORD("Caused by:"),
		WORD("Exception in thread"), WORD("panic: ")};
	for (size_t k = 0; k < sizeof leads / sizeof leads[0]; k++)
		if (m[0] == leads[k].s[0] && strncmp(m, leads[k].s, leads[k].n) == 0)
			return false;
	return !class_prefix(m);
}

/* s[0, n) pushed onto v once (push_unique): its index there. */
static size_t first_index(fl_strv *v, const char *s, size_t n)
{
	push_unique(v, s, n);
	for (size_t i = v->n; i-- > 0;)
		if (strlen(v->v[i]) == n && memcmp(v->v[i], s, n) == 0)
			return i;
	return SIZE_MAX;
}

/* A line of a stack trace, or a marker around one: its files, lines and
 * modules taken as evidence.  True when the line is no message (a frame,
 * a frame's source line, a marker); *in_tb: inside a Python traceback. */
/* A Node frame's function name [s, s+n) ("async Object.loadConfig",
 * "new Foo", "getFormat"): its last part into q->funcs, unless it names
 * no function of a program's own (an anonymous one, a builtin's). */
static void push_frame_func(fl_query *q, const char *s, size_t n)
{
	if (q->funcs.n >= FL_FRAME_FUNCS)
		return;
	for (int k = 0; k < 2; k++)
		if (n > 6 && strncmp(s, "async ", 6) == 0) {
			s += 6;
			n -= 6;
		} else if (n > 4 && strncmp(s, "new ", 4) == 0) {
			s += 4;
			n -= 4;
		}
	const char *dot = memrchr(s, '.', n);
	if (dot) {
		n -= (size_t)(dot + 1 - s);
		s = dot + 1;
	}
	static const char *const skip[] = {"<anonymous>", "forEach", "apply", "call",
		"then", "next", "emit", "_compile", "processTicksAndRejections", NULL};
	if (n < 4 || memchr(s, ' ', n) || memchr(s, '<', n))
		return;
	for (const char *const *w = skip; *w; w++)
		if (strlen(*w) == n && memcmp(*w, s, n) == 0)
			return;
	char *f = fl_xstrndup(s, n);
	fl_strv_push(&q->funcs, f);
	free(f);
}

static bool frame_line(fl_query *q, const char *line, const char *sp, bool *in_tb)
{
	bool indented = sp != line;
	if (strncmp(sp, "Traceback (most recent call last)", 33) == 0) {
		*in_tb = true;
		q->frames_last = true;
		q->tb_start = q->sites.n; /* a chain's next traceback */
		return true;
	}
	if (strncmp(sp, "File \"", 6) == 0) {
		/* File "x.py", line 12, in f */
		const char *e = strchr(sp + 6, '"');
		if (e) {
			push_unique(&q->paths, sp + 6, (size_t)(e - sp - 6));
			if (strncmp(e, "\", line ", 8) == 0) {
				size_t dn = 0;
				while (isdigit((unsigned char)e[8 + dn]))
					dn++;
				push_site(q, sp + 6, (size_t)(e - sp - 6), e + 8, dn);
			}
		}
		const char *in = strstr(sp, ", in ");
		if (in)
			push_unique(&q->modules, in + 5, strlen(in + 5));
		return true;
	}
	if (*in_tb && indented)
		return true; /* source line of a frame */
	if (strncmp(sp, "at ", 3) == 0 && (indented || line[0] == '\t')) {
		/* Java "at pkg.Cls.m(File.java:10)", Node "at f (file.js:1:2)" */
		const char *paren = strchr(sp, '(');
		if (paren && paren > sp + 4 && paren[-1] == ' ')
			push_frame_func(q, sp + 3, (size_t)(paren - 1 - sp - 3));
		if (paren) {
			if (!push_jvm_frame(q, sp + 3, (size_t)(paren - sp - 3), paren + 1))
				push_path_before_colon_digits(q, paren + 1, strlen(paren + 1));
			const char *dot = memrchr(sp + 3, '.', (size_t)(paren - sp - 3));
			if (dot)
				push_unique(&q->modules, sp + 3, (size_t)(dot - sp - 3));
		} else {
			push_path_before_colon_digits(q, sp + 3, strlen(sp + 3));
		}
		return true;
	}
	if (strncmp(sp, "goroutine ", 10) == 0 || strncmp(sp, "... ", 4) == 0 ||
	    strncmp(sp, "note: run with `RUST_BACKTRACE", 30) == 0 ||
	    strncmp(sp, "stack backtrace:", 16) == 0 || strncmp(sp, "[stack trace]", 13) == 0)
		return true;
	if (line[0] == '\t' && go_frame(sp)) { /* Go frame path */
		push_path_before_colon_digits(q, sp, strlen(sp));
		return true;
	}
	if (indented && strncmp(sp, "from ", 5) == 0 && ruby_frame(sp + 5)) {
		/* Ruby "\tfrom /app/lib/x.rb:12:in `m'" */
		push_path_before_colon_digits(q, sp + 5, strlen(sp + 5));
		return true;
	}
	return false;
}

/* q->names from q->clean (normalize.h). */
static void text_names(fl_query *q)
{
	const char *s = q->clean;
	for (const char *p = s; *p && q->names.n < 16;) {
		if (!isalpha((unsigned char)*p) || (p > s && (isalnum((unsigned char)p[-1]) ||
							      p[-1] == '_' || p[-1] == '-' || p[-1] == '/' ||
							      p[-1] == '.'))) {
			p++;
			continue;
		}
		const char *e = p;
		bool joined = false;
		while (isalnum((unsigned char)*e) || *e == '_' || *e == '-') {
			joined = joined || ((*e == '_' || *e == '-') && e > p && isalnum((unsigned char)e[-1]) &&
					    isalnum((unsigned char)e[1]));
			e++;
		}
		size_t n = (size_t)(e - p);
		/* a lint rule's name in brackets, in capitals within
		 * ("[WhitespaceAround]": its class WhitespaceAroundCheck) */
		bool rule = false;
		for (const char *k = p + 1; k < e && p > s && p[-1] == '[' && *e == ']' && n >= 6; k++)
			rule = rule || (isupper((unsigned char)*k) && islower((unsigned char)k[-1]));
		/* a name ends the word: not a path's part, nor a flag's */
		if (((joined && n >= 8) || rule) && n <= 64 && *e != '/' && *e != '.' && *e != '=' &&
		    !(e[0] == ':' && e[1] == ':')) {
			char *w = fl_xstrndup(p, n);
			bool dup = false;
			for (size_t k = 0; k < q->names.n && !dup; k++)
				dup = strcmp(q->names.v[k], w) == 0;
			if (!dup)
				fl_strv_push(&q->names, w);
			free(w);
		}
		p = *e ? e + 1 : e;
	}
}

void fl_normalize(const char *text, size_t len, fl_query *q)
{
	memset(q, 0, sizeof *q);
	char *t = strip_ansi(text, len);
	fl_strv first = {0};   /* messages from recognised wrappers */
	char *u = unbox(t, q, &first);
	if (u) {
		free(t);
		t = u;
	}
	fl_strv rest[3] = {{0}}; /* other stripped lines, by level */
	fl_strv errs = {0};    /* lines that named an error level */
	fl_strv causes = {0};  /* the messages of "Caused by:" chains */
	fl_strv raw_of = {0};  /* pairs: a stripped line, the line as printed */
	fl_buf clean = {0};
	bool in_tb = false, caused = false, rust_next = false, exit_stack = false;
	/* in first: each traceback's message, in the order printed */
	size_t tb_msg[16], ntb = 0;
	char *next = t;
	while (next) {
		/* every line, blank ones too: a multi-line message keeps them */
		char *line = next;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		size_t ll = strlen(line);
		while (ll && (line[ll - 1] == '\r' || line[ll - 1] == ' '))
			line[--ll] = '\0';
		const char *sp = skip_spaces(line);
		bool indented = sp != line;
		if (!*sp) { /* a blank line: kept in the text, no message */
			if (clean.n)
				fl_buf_putc(&clean, '\n');
			continue;
		}
		/* a usage text names the program, and the command of it that
		 * was run: "Usage: zstd [OPTIONS...]", "usage: go mod tidy
		 * [-e]" (up to 3 words in lower case before the options) */
		if (!q->program && strncasecmp(sp, "usage:", 6) == 0) {
			const char *w = skip_spaces(sp + 6), *e = w;
			while (*e && *e != ' ' && *e != '\t' && *e != '[')
				e++;
			for (int k = 0; k < 3 && e > w && (*e == ' ' || *e == '\t'); k++) {
				const char *s2 = skip_spaces(e), *e2 = s2;
				while (islower((unsigned char)*e2) || isdigit((unsigned char)*e2) ||
				       ((*e2 == '-' || *e2 == '_') && e2 > s2))
					e2++;
				if (e2 == s2 || !islower((unsigned char)*s2) || (*e2 && *e2 != ' ' && *e2 != '\t'))
					break;
				e = e2;
			}
			if (e > w && *w != '-' && *w != '<')
				q->program = fl_xstrndup(w, (size_t)(e - w));
		}
		/* the command a user pasted with its output: evidence, not a
		 * message */
		const char *cmd = prompt_command(sp);
		if (cmd) {
			if (*cmd && !q->command)
				q->command = fl_xstrdup(cmd);
			continue;
		}
		/* Ruby's report of an `exit` ("x.rb:33:in `exit': exit
		 * (SystemExit)") and its frames: the way the program chose to
		 * end, through its handlers, not where the error was raised
		 * (their lines are no sites, their files still evidence) */
		if (!indented)
			exit_stack = ruby_exit_header(sp);
		if (exit_stack && indented && strncmp(sp, "from ", 5) == 0 && ruby_frame(sp + 5)) {
			const char *c = strstr(sp + 5, ".rb:");
			push_unique(&q->paths, sp + 5, (size_t)(c + 3 - (sp + 5)));
			continue;
		}
		if (exit_stack)
			continue;
		/* the header of Ruby's report of an uncaught exception, "x.rb:24:in
		 * `setup': msg (Class)", names the line that raised it: its
		 * stack's innermost frame (the line is the message too) */
		if (!indented && ruby_frame(sp)) {
			const char *in = strstr(sp, ":in ");
			if (in)
				push_path_before_colon_digits(q, sp, (size_t)(in - sp));
		}
		if (frame_line(q, line, sp, &in_tb))
			continue;
		size_t a0;
		if (!q->argv0 && !indented && (a0 = argv0_prefix(sp)) != 0)
			q->argv0 = fl_xstrndup(sp, a0);
		if (strstr(sp, "code: '") == sp || strstr(sp, "code: \"") == sp) {
			const char *c = sp + 7;
			const char *e = strchr(c, sp[6]);
			if (e)
				push_unique(&q->codes, c, (size_t)(e - c));
			continue;
		}
		if (*sp == '{') {
			json_line(q, sp, &first);
		}
		if (strstr(sp, "msg=") || strstr(sp, "err=") || strstr(sp, "error="))
			logfmt(q, sp, &first);

		char *m = fl_strip_line(line);
		m = (char *)strip_glog(m, q);
		m = fl_strip_line(m);
		where_suffix(q, m);
		/* JavaScript's "Error: msg" over its stack's frames: the class
		 * of `new Error(...)`, which the level's strip took off */
		if (m == sp + 7 && strncmp(sp, "Error: ", 7) == 0 && java_frame_next(next))
			add_class(q, "Error", 5);
		bool help = help_line(line, sp);
		int level = help ? LEVEL_INFO : line_level(line, m);
		bool named = !help && names_error(line, m);
		/* "prog: message", the program's name before it as C tools
		 * print their diagnostics (error(), warn(), perror()): a line
		 * that says it is an error as a level word would */
		if (!named && !help && !indented && level == LEVEL_ERROR && q->argv0 &&
		    !strchr(q->argv0, '.')) {
			/* (not a file's name: "x.js: line 1, col 14, ...";
			 * nor a level the message still starts with:
			 * "asciidoctor: WARNING: ...") */
			size_t al = strlen(q->argv0);
			if (strncmp(sp, q->argv0, al) == 0 && sp[al] == ':' && sp[al + 1] == ' ') {
				const char *r = sp + al + 2, *lw = strchr(r, ':');
				named = !(lw && lw - r <= 12 && line_level(r, lw) != LEVEL_ERROR);
			}
		}
		if (clean.n)
			fl_buf_putc(&clean, '\n');
		fl_buf_puts(&clean, m);
		if (!*m)
			continue;
		/* Rust panics */
		const char *pa = strstr(m, "panicked at ");
		if (pa && strncmp(m, "thread '", 8) == 0) {
			const char *a = pa + 12;
			if (*a == '\'') {
				/* old form: panicked at 'msg', src/main.rs:10:5 */
				const char *e = strstr(a + 1, "', ");
				if (e) {
					push_unique(&first, a + 1, (size_t)(e - a - 1));
					push_path_before_colon_digits(q, e + 3, strlen(e + 3));
				}
			} else {
				push_path_before_colon_digits(q, a, strlen(a));
				rust_next = true;
			}
			continue;
		}
		if (rust_next) {
			rust_next = false;
			push_unique(&first, m, strlen(m));
			continue;
		}
		/* "Caused by:" chains (Java, cargo/anyhow) */
		if (strncmp(m, "Caused by:", 10) == 0) {
			if (!q->cause_start)
				q->cause_start = q->sites.n + 1;
			const char *r = skip_spaces(m + 10);
			if (*r) {
				/* Caused by: a.B: c.D: message (a wrapper's message
				 * is its cause's toString()): every class is evidence */
				size_t cn;
				while ((cn = class_prefix(r)) != 0) {
					add_class(q, r, cn);
					r = skip_spaces(r + cn + 1);
				}
				push_unique(&causes, r, strlen(r));
			} else {
				caused = true;
			}
			continue;
		}
		if (caused && indented) {
			const char *r = skip_spaces(m);
			while (isdigit((unsigned char)*r)) /* "0: msg" */
				r++;
			if (r != m && *r == ':')
				r = skip_spaces(r + 1);
			else
				r = m;
			push_unique(&causes, r, strlen(r));
			continue;
		}
		caused = false;
		/* Exception in thread "main" java.lang.X: msg */
		bool loose = in_tb || java_frame_next(next);
		if (strncmp(m, "Exception in thread \"", 21) == 0) {
			const char *e = strchr(m + 21, '"');
			if (e) {
				m = (char *)skip_spaces(e + 1);
				loose = true;
			}
		}
		/* Go: panic: msg [recovered] */
		if (strncmp(m, "panic: ", 7) == 0) {
			m += 7;
			char *rec = strstr(m, " [recovered]");
			if (rec)
				*rec = '\0';
		}
		/* Class: message */
		size_t cn = class_prefix_at(m, loose);
		if (cn) {
			const char *r = m;
			size_t outer = cn;
			do { /* nested: Wrapper: java.lang.Cause: message */
				add_class(q, r, cn);
				r = skip_spaces(r + cn + 1);
			} while ((cn = class_prefix(r)) != 0);
			if (bare_error_class(r)) {
				/* Wrapper: java.io.EOFException, a wrapper made of a
				 * cause without a message (Java's Throwable(cause)):
				 * the cause is evidence, and what was thrown is the
				 * wrapper, at its `throw new Wrapper(e)` */
				add_class(q, r, strlen(r));
				size_t ix = first_index(&first, m, outer);
				if (in_tb && ntb < 16)
					tb_msg[ntb++] = ix;
			} else if (*r) {
				size_t ix = first_index(&first, r, strlen(r));
				if (in_tb && ntb < 16)
					tb_msg[ntb++] = ix;
			}
			in_tb = false;
			continue;
		}
		if (in_tb) {
			/* final line of a traceback without a message: the class */
			in_tb = false;
			size_t n = strlen(m);
			bool word = true;
			for (size_t i = 0; i < n; i++)
				if (!isalnum((unsigned char)m[i]) && m[i] != '_' && m[i] != '.')
					word = false;
			if (word) {
				add_class(q, m, n);
				size_t ix = first_index(&first, m, n);
				if (ntb < 16)
					tb_msg[ntb++] = ix;
				continue;
			}
		}
		push_unique(&rest[level], m, strlen(m));
		/* the line as printed, when stripping took a prefix off: a
		 * record may hold the prefix ("jq: error: %s at %s, line %d:") */
		if (m != sp && strlen(sp) <= 4096) {
			fl_strv_push(&raw_of, m);
			fl_strv_push(&raw_of, sp);
		}
		if (named)
			push_unique(&errs, m, strlen(m));
	}
	/* of a chain of Python tracebacks ("During handling of the above
	 * exception, another exception occurred"), the last one's is the
	 * error printed and each one before it led to the next: their
	 * messages from the last to the first, before the other wrappers'
	 * (an IndexError of Python's own that a library turned into its
	 * error is looked up last); unless a later one quotes an earlier
	 * one's text (`raise TomlDecodeError(str(err), ...)`): the text's
	 * own raise is then the earlier one, first as printed */
	bool quoted = false; /* a later exception's text quotes an earlier's */
	for (size_t a = 0; a < ntb && !quoted; a++)
		for (size_t b = a + 1; b < ntb && !quoted; b++)
			quoted = tb_msg[a] < first.n && tb_msg[b] < first.n &&
				 strlen(first.v[tb_msg[a]]) >= 8 &&
				 strstr(first.v[tb_msg[b]], first.v[tb_msg[a]]) != NULL;
	if (q->frames_last && ntb > 1 && !quoted) {
		fl_strv v = {0};
		bool *moved = fl_xcalloc(first.n, sizeof *moved);
		for (size_t k = ntb; k-- > 0;)
			if (tb_msg[k] < first.n && !moved[tb_msg[k]]) {
				moved[tb_msg[k]] = true;
				fl_strv_push(&v, first.v[tb_msg[k]]);
			}
		for (size_t i = 0; i < first.n; i++)
			if (!moved[i])
				fl_strv_push(&v, first.v[i]);
		free(moved);
		fl_strv_free(&first);
		first = v;
	}
	/* wrappers' messages first (panics, exception and traceback lines),
	 * then the other lines: error lines (and lines without a level), the
	 * causes of a chain, warnings, informational lines, each in the order
	 * printed */
	for (size_t i = 0; i < first.n; i++)
		push_unique(&q->messages, first.v[i], strlen(first.v[i]));
	for (int l = LEVEL_ERROR; l >= LEVEL_INFO; l--) {
		for (size_t i = 0; i < rest[l].n; i++)
			push_unique(&q->messages, rest[l].v[i], strlen(rest[l].v[i]));
		/* a chain's causes after the error lines it explains ("error:
		 * failed to X" then "Caused by: Y"), before warnings */
		if (l == LEVEL_ERROR)
			for (size_t i = 0; i < causes.n; i++)
				push_unique(&q->messages, causes.v[i], strlen(causes.v[i]));
	}
	/* each message's line as printed, "" when the same */
	for (size_t i = 0; i < q->messages.n; i++) {
		const char *r = "";
		for (size_t k = 0; k + 1 < raw_of.n && !*r; k += 2)
			if (strcmp(raw_of.v[k], q->messages.v[i]) == 0)
				r = raw_of.v[k + 1];
		fl_strv_push(&q->raw, r);
	}
	fl_strv_free(&raw_of);
	for (size_t i = 0; i < q->messages.n && i < sizeof q->error_level; i++)
		for (size_t k = 0; k < errs.n && !q->error_level[i]; k++)
			q->error_level[i] = strcmp(errs.v[k], q->messages.v[i]) == 0;
	fl_strv_free(&errs);
	/* the frames of the error printed: the last traceback's (Python),
	 * the first stack's (a JVM "Caused by:" chain) */
	q->sites_block = q->frames_last ? q->sites.n - q->tb_start
			 : q->cause_start ? q->cause_start - 1 : q->sites.n;
	/* only informational lines: an error message is no likely part */
	q->informational = !first.n && !rest[LEVEL_ERROR].n && !rest[LEVEL_WARNING].n &&
			   !causes.n && rest[LEVEL_INFO].n;
	for (int l = LEVEL_ERROR; l >= LEVEL_INFO; l--)
		fl_strv_free(&rest[l]);
	fl_strv_free(&causes);
	fl_strv_free(&first);
	/* blank lines at the end are no part of any message */
	while (clean.n && clean.s[clean.n - 1] == '\n')
		clean.n--;
	fl_buf_cstr(&clean);
	q->clean = clean.s;
	text_names(q);
	free(t);
}
