/*
 * guard.c — a guard read as conditions and stated in words, the right way
 * round: `if (get_oid(...))` on a C call is "`get_oid(...)` failed (it
 * could not get the oid)", `if err != nil` after `f, err := os.Open(p)` is
 * "`os.Open` returned an error", `if not args` is "`args` is empty",
 * `isinstance(v, bool)` is "`v` is a `bool`".  "and" and "or" mixed are
 * read with "or" binding looser: "either `a` ... and `b` ..., or `c` ...".
 * A guard of more conditions than DSC_ATOMS is quoted whole.
 */
#include "dsc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool idch(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static char *trim(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return fl_xstrndup(s, n);
}

/* the index of the parenthesis that closes the one at s[0], or 0 */
static size_t closing(const char *s)
{
	int depth = 0;
	char q = 0;
	for (size_t i = 0; s[i]; i++) {
		char c = s[i];
		if (q) {
			if (c == '\\' && s[i + 1])
				i++;
			else if (c == q)
				q = 0;
			continue;
		}
		if (c == '"' || c == '\'' || c == '`')
			q = c;
		else if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
			return i;
	}
	return 0;
}

/* s without the parentheses around all of it (s is replaced) */
static long top_find(const char *s, const char *op, size_t from);

static char *unparen(char *s)
{
	for (;;) {
		size_t n = strlen(s);
		if (n < 2 || s[0] != '(' || closing(s) != n - 1)
			return s;
		char *t = trim(s + 1, n - 2);
		long comma = top_find(t, ",", 0);
		if (comma >= 0) {
			/* a tuple, ("r", "w"): its brackets are its own; not
			 * Ruby's call without brackets, (verify digest, sig) */
			long sp = top_find(t, " ", 0);
			if (sp < 0 || sp > comma) {
				free(t);
				return s;
			}
		}
		free(s);
		s = t;
	}
}

/* the top-level occurrences of op in s (outside strings and brackets); a
 * word operator (" and ") is matched as written.  Returns the offset of the
 * first at or after from, or -1 */
static long top_find(const char *s, const char *op, size_t from)
{
	int depth = 0;
	char q = 0;
	size_t ol = strlen(op);
	/* most operators are not in the text at all: one fast search says
	 * so before the walk over quotes and brackets */
	if (from > strlen(s) || !strstr(s + from, op))
		return -1;
	for (size_t i = 0; s[i]; i++) {
		char c = s[i];
		if (q) {
			if (c == '\\' && s[i + 1])
				i++;
			else if (c == q)
				q = 0;
			continue;
		}
		if (c == '"' || c == '\'' || c == '`') {
			q = c;
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}')
			depth--;
		else if (depth == 0 && c == op[0] && i >= from && strncmp(s + i, op, ol) == 0)
			return (long)i;
	}
	return -1;
}

static bool is_nullish(const char *s)
{
	static const char *const n[] = {"nil", "None", "NULL", "null", "undefined", "nullptr", "0 as *const _", NULL};
	for (size_t i = 0; n[i]; i++)
		if (dsc_eq(s, n[i]))
			return true;
	return false;
}

static bool is_zero(const char *s)
{
	return dsc_eq(s, "0");
}

/* a variable that holds a status or an error: rc, ret, err, status ... */
static bool statusish(const char *s)
{
	static const char *const n[] = {"rc", "ret", "res", "result", "err", "error", "status", "st", "r",
					"retval", "rv", "code", "ec", "e", "result_code", "errcode", "error_code",
					"status_code", "rs", "iRet", "hr", NULL};
	const char *l = s;
	for (const char *p = s; *p; p++)
		if (*p == '.' || *p == '>')
			l = p + 1;
	for (size_t i = 0; n[i]; i++)
		if (dsc_eq(l, n[i]))
			return true;
	size_t n2 = strlen(l);
	return n2 > 3 && (dsc_eq(l + n2 - 3, "Err") || dsc_eq(l + n2 - 3, "err"));
}

/* a constant that stands for success: SQLITE_OK, CURLE_OK, Z_OK, OK */
static bool ok_const(const char *s)
{
	size_t n = strlen(s);
	return (n >= 2 && dsc_eq(s + n - 2, "OK")) || dsc_eq(s, "0") ||
	       (n >= 7 && dsc_eq(s + n - 7, "SUCCESS"));
}

static bool identifier(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!idch(*s) && *s != '.' && *s != '-' && *s != '>' && *s != '@')
			return false;
	return true;
}

/* a name that reads as a yes or no: isX, has_x, ok, found, enabled ... */
static bool boolish(const char *name)
{
	static const char *const pre[] = {"is", "has", "can", "should", "must", "needs", "need", "allow",
					  "use", "no", "was", "did", "does", "will", "may", "want", "ok",
					  "found", "done", "valid", "enable", "disable", "supports", "exists",
					  "contains", "matches", "equals", "starts", "ends", "accept", "Is",
					  "Has", "Can", "Should", "Must", "Valid", "Exists", "Contains", NULL};
	const char *l = name;
	for (const char *p = name; *p; p++)
		if (*p == '.' || *p == '>' || *p == '@' || *p == '$')
			l = p + 1;
	size_t n = strlen(l);
	if (n && l[n - 1] == '?')
		return true;
	for (size_t i = 0; pre[i]; i++) {
		if (l[0] != pre[i][0])
			continue;
		size_t k = strlen(pre[i]);
		if (strncmp(l, pre[i], k) == 0 && (!l[k] || l[k] == '_' || isupper((unsigned char)l[k])))
			return true;
	}
	/* a module's predicate in C: hardware_threads_is_mt,
	 * git_repository_is_bare, list_has_key */
	if (strstr(l, "_is_") || strstr(l, "_has_") || strstr(l, "_can_") || strstr(l, "_should_"))
		return true;
	/* Python's and C's isalnum, isdigit, hasattr, startswith */
	if ((strncmp(l, "is", 2) == 0 && n > 4) || strncmp(l, "has", 3) == 0 || strncmp(l, "startswith", 10) == 0 ||
	    strncmp(l, "endswith", 8) == 0)
		return true;
	return n > 2 && (dsc_eq(l + n - 2, "ok") || dsc_eq(l + n - 2, "Ok") ||
			 dsc_eq(l + n - 2, "ed") || dsc_eq(l + n - 2, "_p"));
}

/* the callee of a call written at the start of s ("a.b(x)" -> "a.b"), when
 * s is one call and nothing else */
static char *callee_of(const char *s)
{
	const char *p = s;
	while (idch(*p) || *p == '.' || *p == ':' || (p[0] == '-' && p[1] == '>') || *p == '>' || *p == '?' || *p == '!')
		p++;
	if (p == s || *p != '(' || closing(p) != strlen(p) - 1)
		return NULL;
	return fl_xstrndup(s, (size_t)(p - s));
}

/* the first argument of a call s, and the second (when out2) */
static char *arg_of(const char *s, int k)
{
	const char *p = strchr(s, '(');
	if (!p)
		return NULL;
	size_t end = closing(p);
	if (!end)
		return NULL;
	char *in = fl_xstrndup(p + 1, end - 1);
	long c = top_find(in, ",", 0);
	char *r = NULL;
	if (k == 0)
		r = trim(in, c < 0 ? strlen(in) : (size_t)c);
	else if (c >= 0) {
		long c2 = top_find(in, ",", (size_t)c + 1);
		r = trim(in + c + 1, c2 < 0 ? strlen(in + c + 1) : (size_t)(c2 - c - 1));
	}
	free(in);
	return r;
}

/* the name measured by a length expression: len(x), x.length, strlen(x),
 * x.size(), count($x), x.Count, x.len() */
static char *measured(const char *s);

bool dsc_measured(const char *s)
{
	char *m = measured(s);
	bool yes = m != NULL;
	free(m);
	return yes;
}

static char *measured(const char *s)
{
	static const char *const fn[] = {"len(", "strlen(", "count(", "sizeof(", "mb_strlen(", NULL};
	for (size_t i = 0; fn[i]; i++)
		if (fl_str_starts(s, fn[i]) && closing(s + strlen(fn[i]) - 1) == strlen(s) - strlen(fn[i])) {
			size_t k = strlen(fn[i]);
			char *m = trim(s + k, strlen(s) - k - 1);
			if (!*m) { /* `count()`: a method of the object itself */
				free(m);
				return NULL;
			}
			return m;
		}
	static const char *const sfx[] = {".length", ".size()", ".size", ".Length", ".Count", ".len()",
					  ".length()", ".count", ".count()", NULL};
	for (size_t i = 0; sfx[i]; i++)
		if (fl_str_ends(s, sfx[i]) && strlen(s) > strlen(sfx[i]))
			return fl_xstrndup(s, strlen(s) - strlen(sfx[i]));
	return NULL;
}

static char *assigned_value(const char *t);

static void set(dsc_atom *a, int kind, char *subject, char *other, const char *op)
{
	/* `(zValue = csv_parameter(...)) != 0`: the value compared */
	char *v = subject ? assigned_value(subject) : NULL;
	if (v) {
		free(subject);
		subject = v;
	}
	a->kind = kind;
	free(a->subject);
	free(a->other);
	a->subject = subject;
	a->other = other;
	free(a->op);
	a->op = op ? fl_xstrdup(op) : NULL;
}

static const char *flip(const char *op)
{
	static const char *const f[][2] = {{"==", "!="}, {"!=", "=="}, {"<", ">="}, {">=", "<"},
					   {">", "<="}, {"<=", ">"}, {"=~", "!~"}, {"!~", "=~"}};
	for (size_t i = 0; i < 8; i++)
		if (dsc_eq(op, f[i][0]))
			return f[i][1];
	return op;
}

/* A value written as a constant: a number, a quoted text, true or false,
 * or a name in capitals (`QUICHE_ERR_TLS_FAIL`, `Foo::MAX_LEN`, `errno.ENOENT`'s last
 * part). */
static bool constantish(const char *s)
{
	size_t n = strlen(s);
	if (!n)
		return false;
	if (isdigit((unsigned char)s[0]) || ((s[0] == '-' || s[0] == '+') && isdigit((unsigned char)s[1])))
		return true;
	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0])
		return true;
	if (dsc_eq(s, "true") || dsc_eq(s, "false")) /* PHP's `false === f()` */
		return true;
	const char *l = s;
	for (const char *p = s; *p; p++)
		if (*p == '.' || *p == ':' || *p == '>')
			l = p + 1;
	bool letter = false;
	for (const char *p = l; *p; p++) {
		if (islower((unsigned char)*p) || !(idch(*p)))
			return false;
		letter = letter || isupper((unsigned char)*p);
	}
	return letter && strlen(l) >= 2;
}

/* A comparison written constant first (`QUICHE_ERR_TLS_FAIL == nread`,
 * C's guard against `=`): the operand that varies first, the operator
 * mirrored, so the guard reads "nread is QUICHE_ERR_TLS_FAIL". */
static void yoda(char **l, char **r, char *op)
{
	if (!constantish(*l) || constantish(*r))
		return;
	char *t = *l;
	*l = *r;
	*r = t;
	static const char *const m[][2] = {{"<", ">"}, {">", "<"}, {"<=", ">="}, {">=", "<="}};
	for (size_t i = 0; i < 4; i++)
		if (dsc_eq(op, m[i][0])) {
			strcpy(op, m[i][1]);
			break;
		}
}

/* a failed call: the callee that set var, or the call itself */
static void failed(dsc *d, dsc_atom *a, const char *var, char *call)
{
	if (!call && var)
		call = dsc_assigned_call(d, var);
	set(a, GA_FAILED, var ? fl_xstrdup(var) : NULL, NULL, NULL);
	a->call = call;
}

static bool comparison(dsc *d, dsc_atom *a, const char *t)
{
	static const char *const ops[] = {" =~ ", " !~ ", "===", "!==", "==", "!=", "<=", ">=", " is not ", " is ",
					  " not in ", " instanceof ", " in ", "<", ">", NULL};
	for (size_t i = 0; ops[i]; i++) {
		long at = -1;
		size_t from = 0;
		while ((at = top_find(t, ops[i], from)) >= 0) {
			const char *p = t + at;
			size_t ol = strlen(ops[i]);
			/* not part of ->, =>, <<, >>, <=, >=, ::<> */
			if ((ops[i][0] == '<' || ops[i][0] == '>') && ol == 1 &&
			    ((p > t && (p[-1] == '-' || p[-1] == '=' || p[-1] == '<' || p[-1] == '>')) ||
			     p[1] == '<' || p[1] == '>' || p[1] == '=')) {
				from = (size_t)at + 1;
				continue;
			}
			break;
		}
		if (at < 0)
			continue;
		size_t ol = strlen(ops[i]);
		char *l = trim(t, (size_t)at), *r = trim(t + at + ol, strlen(t + at + ol));
		l = unparen(l);
		r = unparen(r);
		char op[4];
		const char *o = ops[i];
		snprintf(op, sizeof op, "%s", dsc_eq(o, " =~ ") ? "=~" : dsc_eq(o, " !~ ") ? "!~"
						: dsc_eq(o, "===") ? "==" : dsc_eq(o, "!==") ? "!="
						: dsc_eq(o, " is not ")			 ? "!="
						: dsc_eq(o, " is ")			 ? "=="
												 : o);
		bool negop = a->neg;
		a->neg = false;
		if (dsc_eq(o, " instanceof ")) {
			set(a, GA_TYPE, l, r, NULL);
			a->neg = negop;
			return true;
		}
		if (dsc_eq(o, " in ") || dsc_eq(o, " not in ")) {
			set(a, GA_MEMBER, r, l, NULL);
			a->neg = negop != (o[1] == 'n');
			return true;
		}
		if (negop)
			snprintf(op, sizeof op, "%s", flip(op));
		if (!dsc_eq(o, " =~ ") && !dsc_eq(o, " !~ "))
			yoda(&l, &r, op);
		bool eq = dsc_eq(op, "=="), ne = dsc_eq(op, "!=");
		if ((eq || ne) && (is_nullish(r) || is_nullish(l))) {
			char *subj = is_nullish(r) ? l : r;
			free(is_nullish(r) ? r : l);
			if (ne && statusish(subj) && dsc_eq(d->dialect, "go")) {
				failed(d, a, subj, NULL);
				free(subj);
				return true;
			}
			set(a, GA_NULL, subj, NULL, NULL);
			a->neg = ne;
			return true;
		}
		if (strncmp(l, "typeof ", 7) == 0 && (eq || ne)) {
			char *subj = trim(l + 7, strlen(l + 7));
			free(l);
			size_t rn = strlen(r);
			if (rn >= 2 && (r[0] == '"' || r[0] == '\'')) {
				char *ty = fl_xstrndup(r + 1, rn - 2);
				free(r);
				r = ty;
			}
			set(a, GA_TYPE, subj, r, NULL);
			a->neg = ne;
			return true;
		}
		char *m = measured(l);
		if (m && is_zero(r) && (eq || ne || dsc_eq(op, "<=") || dsc_eq(op, ">"))) {
			free(l);
			free(r);
			set(a, GA_EMPTY, m, NULL, NULL);
			a->neg = ne || dsc_eq(op, ">");
			return true;
		}
		free(m);
		char *call = callee_of(l);
		if (call && strstr(dsc_last(call), "cmp") && is_zero(r) && (eq || ne)) {
			/* dsc_eq(a, b): a is b (strcmp("-", name): name is "-") */
			char *x = arg_of(l, 0), *y = arg_of(l, 1);
			if (x && y)
				yoda(&x, &y, op);
			set(a, GA_CMP, x, y, op);
			free(call);
			free(l);
			free(r);
			if (!a->subject || !a->other)
				set(a, GA_OTHER, fl_xstrdup(t), NULL, NULL);
			return true;
		}
		bool cdialect = dsc_eq(d->dialect, "c") || dsc_eq(d->dialect, "cpp");
		if ((statusish(l) || (call && cdialect)) && ((ne && (ok_const(r) || (call && dsc_eq(r, "1")))) || (dsc_eq(op, "<") && is_zero(r)) ||
							     (eq && dsc_eq(r, "-1")))) {
			failed(d, a, call ? NULL : l, call);
			a->subject = a->subject ? a->subject : fl_xstrdup(l);
			a->other = fl_xstrdup(r);
			a->op = fl_xstrdup(op);
			free(l);
			free(r);
			return true;
		}
		free(call);
		set(a, GA_CMP, l, r, op);
		return true;
	}
	return false;
}

/* a call of a known checker: isinstance, is_a?, empty(), exists ... */
static bool checker(dsc_atom *a, const char *t, const char *callee)
{
	static const char *const types[] = {"isinstance", "is_a?", "kind_of?", "instance_of?", "issubclass", NULL};
	static const char *const php_types[][2] = {
		{"is_string", "string"}, {"is_array", "array"},	 {"is_int", "int"},	  {"is_integer", "int"},
		{"is_numeric", "number"}, {"is_bool", "bool"},	 {"is_float", "float"},	  {"is_object", "object"},
		{"is_callable", "callable"}, {"is_resource", "resource"}, {"is_scalar", "scalar"}, {"is_iterable", "iterable"},
	};
	static const char *const exists[] = {"os.path.exists", "os.path.isfile", "os.path.isdir", "file_exists", "is_file",
					     "is_dir", "File.exist?", "File.exists?", "File.file?", "Dir.exist?",
					     "File.directory?", "fs.existsSync", "Files.exists", "File.Exists",
					     "Directory.Exists", "os.path.lexists", "is_readable", "is_writable", NULL};
	static const char *const empty[] = {"empty", NULL};
	const char *last = dsc_last(callee);
	for (size_t i = 0; types[i]; i++) {
		if (!dsc_eq(last, types[i]))
			continue;
		if (last == callee) {
			/* issubclass(c, T): c is a subclass of T */
			set(a, GA_TYPE, arg_of(t, 0), arg_of(t, 1), dsc_eq(last, "issubclass") ? "sub" : NULL);
		} else {
			set(a, GA_TYPE, fl_xstrndup(callee, (size_t)(last - callee - 1)), arg_of(t, 0), NULL);
		}
		return a->subject && a->other;
	}
	for (size_t i = 0; i < sizeof php_types / sizeof php_types[0]; i++)
		if (dsc_eq(callee, php_types[i][0])) {
			set(a, GA_TYPE, arg_of(t, 0), fl_xstrdup(php_types[i][1]), NULL);
			return a->subject != NULL;
		}
	for (size_t i = 0; exists[i]; i++)
		if (dsc_eq(callee, exists[i])) {
			/* what kind of entry it checks for: isdir's answer is no
			 * for a file that exists */
			const char *l = dsc_last(exists[i]);
			const char *what = strstr(l, "dir") || strstr(l, "irectory?") ? "dir"
					   : strstr(l, "file") && !strstr(l, "exist")  ? "file"
					   : strstr(l, "readable")		      ? "readable"
					   : strstr(l, "writable")		      ? "writable"
										      : NULL;
			set(a, GA_EXISTS, arg_of(t, 0), NULL, what);
			return a->subject != NULL;
		}
	if (dsc_eq(callee, "isset") || dsc_eq(callee, "is_null")) {
		set(a, GA_NULL, arg_of(t, 0), NULL, NULL);
		if (callee[1] == 's')
			a->neg = !a->neg;
		return a->subject != NULL;
	}
	for (size_t i = 0; empty[i]; i++)
		if (dsc_eq(callee, empty[i])) {
			set(a, GA_EMPTY, arg_of(t, 0), NULL, NULL);
			return a->subject != NULL;
		}
	if (dsc_eq(callee, "array_key_exists") || dsc_eq(callee, "property_exists")) {
		set(a, GA_MEMBER, arg_of(t, 1), arg_of(t, 0), NULL);
		return a->subject && a->other;
	}
	/* PHP's in_array($needle, $haystack) */
	if (dsc_eq(callee, "in_array")) {
		set(a, GA_MEMBER, arg_of(t, 1), arg_of(t, 0), NULL);
		return a->subject && a->other;
	}
	/* Go's strings.Contains(s, sub), bytes.Contains, slices.Contains */
	if (dsc_eq(last, "Contains") && (fl_str_starts(callee, "strings.") || fl_str_starts(callee, "bytes.") ||
					      fl_str_starts(callee, "slices."))) {
		set(a, GA_MEMBER, arg_of(t, 0), arg_of(t, 1), NULL);
		return a->subject && a->other;
	}
	static const char *const member[] = {"has", "containsKey", "ContainsKey", "key?", "has_key?", "include?",
					     "contains", "hasOwnProperty", "includes", "Contains", "in_array", NULL};
	for (size_t i = 0; member[i]; i++)
		if (dsc_eq(last, member[i]) && last != callee) {
			set(a, GA_MEMBER, fl_xstrndup(callee, (size_t)(last - callee - 1)), arg_of(t, 0), NULL);
			return a->other != NULL;
		}
	static const char *const emp[] = {"isEmpty", "is_empty", "IsEmpty", "empty?", "blank?", NULL};
	for (size_t i = 0; emp[i]; i++)
		if (dsc_eq(last, emp[i]) && last != callee) {
			set(a, GA_EMPTY, fl_xstrndup(callee, (size_t)(last - callee - 1)), NULL, NULL);
			return true;
		}
	return false;
}

/* Whether a negation at the start of t (its operator `len` bytes long)
 * turns all of t: its operand is one term, or a group in brackets; not
 * `!deferred && p->nFkConstraint>0`, where it turns `deferred` alone. */
static bool negates_all(const char *t, size_t len, bool word)
{
	char *r = trim(t + len, strlen(t + len));
	bool whole = r[0] == '(' && closing(r) == strlen(r) - 1;
	bool binary = top_find(r, "&&", 0) >= 0 || top_find(r, "||", 0) >= 0 ||
		      (word && (top_find(r, " and ", 0) >= 0 || top_find(r, " or ", 0) >= 0));
	free(r);
	return whole || !binary;
}

/* The value of `name = value` / `name := value` (name a variable, a
 * field, `self.x`, `@x`, `$x`), unparenthesised, or NULL when t is not one
 * assignment (`a == b`, `a <= b`, `x =~ /re/`, `a = b = c` aside). */
static char *assigned_value(const char *t)
{
	size_t n = 0;
	while (t[n] == '$' || t[n] == '@')
		n++;
	if (!isalpha((unsigned char)t[n]) && t[n] != '_')
		return NULL;
	while (isalnum((unsigned char)t[n]) || t[n] == '_' || t[n] == '.')
		n++;
	size_t e = n;
	while (t[e] == ' ')
		e++;
	if (t[e] == ':' && t[e + 1] == '=')
		e++;
	if (t[e] != '=' || t[e + 1] == '=' || t[e + 1] == '~' || t[e + 1] == '>')
		return NULL;
	const char *v = t + e + 1;
	while (*v == ' ')
		v++;
	if (!*v || top_find(v, " = ", 0) >= 0)
		return NULL;
	return unparen(fl_xstrdup(v));
}

static void atom(dsc *d, dsc_atom *a, const char *text)
{
	char *t = unparen(fl_xstrdup(text));
	bool neg = false;
	bool wordops = dsc_eq(d->dialect, "python") || dsc_eq(d->dialect, "ruby");
	for (;;) {
		if ((t[0] == '!' && t[1] != '=' && !negates_all(t, 1, wordops)) ||
		    (strncmp(t, "not ", 4) == 0 && !negates_all(t, 4, wordops))) {
			break; /* a group whose first term alone is turned */
		} else if (t[0] == '!' && t[1] != '=') {
			neg = !neg;
			char *u = unparen(trim(t + 1, strlen(t + 1)));
			free(t);
			t = u;
		} else if (strncmp(t, "not ", 4) == 0) {
			neg = !neg;
			char *u = unparen(trim(t + 4, strlen(t + 4)));
			free(t);
			t = u;
		} else {
			break;
		}
	}
	/* a value assigned in the condition (`unless spec = specs.first`,
	 * `if (!(dir = opendir(name)))`, `if (m := re.match(...))`): what
	 * is tested is the value, not the variable that keeps it */
	if (!dsc_eq(d->dialect, "rust") && !dsc_eq(d->dialect, "go")) {
		char *u = assigned_value(t);
		if (u) {
			free(t);
			t = u;
		}
	}
	a->text = fl_xstrdup(t);
	a->neg = neg;
	/* a group of its own (`(a || b)` among `&&`): quoted whole */
	bool word = dsc_eq(d->dialect, "python") || dsc_eq(d->dialect, "ruby");
	if (top_find(t, "||", 0) >= 0 || top_find(t, "&&", 0) >= 0 ||
	    (word && (top_find(t, " or ", 0) >= 0 || top_find(t, " and ", 0) >= 0))) {
		set(a, GA_OTHER, fl_xstrdup(t), NULL, NULL);
		goto out;
	}
	if (comparison(d, a, t))
		goto out;
	a->neg = neg;
	/* Ruby's x.nil? and x.empty? */
	if (fl_str_ends(t, ".nil?")) {
		set(a, GA_NULL, fl_xstrndup(t, strlen(t) - 5), NULL, NULL);
		goto out;
	}
	/* Rust's `if let Err(e) = x` / `let Ok(v) = x` / `let Some(v) = x` /
	 * `let None = x`: as x.is_err() and the others below */
	if (dsc_eq(d->dialect, "rust") && strncmp(t, "let ", 4) == 0) {
		long eq = top_find(t, " = ", 4);
		const char *pat = t + 4;
		if (eq > 4) {
			static const char *const pats[][2] = {
				{"Err(", ".is_err()"}, {"Ok(", ".is_ok()"}, {"Some(", ".is_some()"}, {"None", ".is_none()"}};
			for (size_t k = 0; k < 4; k++) {
				size_t pl = strlen(pats[k][0]);
				bool call = pats[k][0][pl - 1] == '(';
				if (strncmp(pat, pats[k][0], pl) != 0 ||
				    (call ? pat + closing(pat + pl - 1) + pl - 1 != t + eq - 1 : pat + pl != t + eq))
					continue;
				char *u = fl_xasprintf("%s%s", t + eq + 3, pats[k][1]);
				free(t);
				t = u;
				break;
			}
		}
	}
	/* Rust's Option and Result: x.is_none() / x.is_some(), and
	 * x.is_err() / x.is_ok(), a call that failed */
	if (dsc_eq(d->dialect, "rust") && strlen(t) > 10) {
		size_t tl = strlen(t);
		if (fl_str_ends(t, ".is_none()") || fl_str_ends(t, ".is_some()")) {
			set(a, GA_NULL, fl_xstrndup(t, tl - 10), NULL, NULL);
			a->neg = neg != (t[tl - 6] == 's');
			goto out;
		}
		if (fl_str_ends(t, ".is_err()") || fl_str_ends(t, ".is_ok()")) {
			bool ok = t[tl - 4] == 'o';
			failed(d, a, NULL, fl_xstrndup(t, tl - (ok ? 8 : 9)));
			a->neg = neg != ok;
			goto out;
		}
	}
	char *callee = callee_of(t), *why = NULL;
	bool cdialect = dsc_eq(d->dialect, "c") || dsc_eq(d->dialect, "cpp");
	if (callee) {
		const char *last = dsc_last(callee);
		if (checker(a, t, callee)) {
			free(callee);
			goto out;
		}
		if (strncmp(last, "str", 3) == 0 && strstr(last, "cmp")) {
			set(a, GA_CMP, arg_of(t, 0), arg_of(t, 1), neg ? "==" : "!=");
			a->neg = false;
			free(callee);
			goto out;
		}
		if (boolish(last)) {
			set(a, GA_PRED, fl_xstrdup(t), NULL, NULL);
			free(callee);
		} else if (cdialect || (neg && (why = dsc_call_failure(callee)) != NULL)) {
			/* C's `if (f(...))` and `if (!f(...))`, and another
			 * language's `!read(...)`: the call failed */
			free(why);
			failed(d, a, NULL, callee);
			a->subject = fl_xstrdup(t);
			a->neg = false;
		} else {
			set(a, GA_PRED, fl_xstrdup(t), NULL, NULL);
			free(callee);
		}
		goto out;
	}
	if (identifier(t) && dsc_eq(d->dialect, "go") && !strchr(t, '.')) {
		/* Go's comma-ok: `v, ok := x.(T)` is a type check of x, `v, ok
		 * := m[k]` a lookup of k in m */
		char *rhs = dsc_comma_ok(d, t);
		size_t rl = rhs ? strlen(rhs) : 0;
		const char *dot = rhs ? strstr(rhs, ".(") : NULL;
		const char *br = rhs ? strchr(rhs, '[') : NULL;
		if (dot && rhs[rl - 1] == ')' && !strstr(dot, ".(type)")) {
			set(a, GA_TYPE, fl_xstrndup(rhs, (size_t)(dot - rhs)), fl_xstrndup(dot + 2, rl - (size_t)(dot - rhs) - 3), NULL);
			free(rhs);
			goto out;
		}
		if (br && br > rhs && rhs[rl - 1] == ']' && !strchr(rhs, '(') && closing(br) == (size_t)(rhs + rl - 1 - br)) {
			set(a, GA_MEMBER, fl_xstrndup(rhs, (size_t)(br - rhs)), fl_xstrndup(br + 1, rl - (size_t)(br - rhs) - 2), NULL);
			free(rhs);
			goto out;
		}
		free(rhs);
	}
	if (identifier(t)) {
		if (!neg && statusish(t) && !dsc_eq(d->dialect, "python") && !dsc_eq(d->dialect, "ruby")) {
			failed(d, a, t, NULL);
			a->neg = false;
		}
		else if (boolish(t) || dsc_eq(d->dialect, "go") || !neg)
			set(a, GA_FLAG, fl_xstrdup(t), NULL, NULL);
		else if (dsc_eq(d->dialect, "python") || dsc_eq(d->dialect, "php")) {
			set(a, GA_EMPTY, fl_xstrdup(t), NULL, NULL);
			a->neg = false;
		} else if (dsc_eq(d->dialect, "c") || dsc_eq(d->dialect, "cpp")) {
			set(a, GA_NULL, fl_xstrdup(t), NULL, NULL);
			a->neg = false;
		} else {
			/* JavaScript's and Ruby's `!x`: not set (falsy) */
			set(a, GA_FLAG, fl_xstrdup(t), NULL, NULL);
		}
		goto out;
	}
	set(a, GA_OTHER, fl_xstrdup(t), NULL, NULL);
out:
	free(t);
}

/* is every name of the text a parameter of the function (or a constant) */
static bool only_params(const dsc *d, const char *t)
{
	static const char *const kw[] = {"nil", "None", "NULL", "null", "undefined", "true", "false", "True",
					 "False", "len", "typeof", "isinstance", "not", "and", "or", "is", "in",
					 "instanceof", "count", "strlen", "empty", "isset", "is_string", "is_array",
					 "is_int", "is_numeric", "is_bool", "is_a", "kind_of", "nullptr", "int", "str",
					 "float", "bool", "list", "dict", "tuple", "bytes", "string", "number", "object",
					 "function", "array", "sizeof", "type", "issubclass", NULL};
	bool any = false;
	for (const char *p = t; *p;) {
		if (*p == '"' || *p == '\'') {
			char q = *p++;
			while (*p && *p != q)
				p += (*p == '\\' && p[1]) ? 2 : 1;
			if (*p)
				p++;
			continue;
		}
		if (!idch(*p) || isdigit((unsigned char)*p)) {
			p++;
			while (isdigit((unsigned char)*p) || (idch(*p) && isdigit((unsigned char)p[-1])))
				p++;
			continue;
		}
		const char *s = p;
		while (idch(*p))
			p++;
		size_t n = (size_t)(p - s);
		bool after_dot = s > t && (s[-1] == '.' || (s[-1] == '>' && s > t + 1 && s[-2] == '-') || s[-1] == ':');
		if (after_dot || *p == '(' || *p == '?')
			continue;
		char *w = fl_xstrndup(s, n);
		bool ok = false;
		for (size_t i = 0; kw[i] && !ok; i++)
			ok = dsc_eq(w, kw[i]);
		bool upper = true;
		for (size_t i = 0; w[i]; i++)
			upper &= !islower((unsigned char)w[i]);
		/* a type named in a check: isinstance(x, Foo) */
		ok |= upper || isupper((unsigned char)w[0]);
		bool param = false;
		for (size_t i = 0; i < d->params.n && !param; i++)
			param = dsc_eq(d->params.v[i], w) ||
				(w[0] == '$' && dsc_eq(d->params.v[i], w + 1)) ||
				(d->params.v[i][0] == '$' && dsc_eq(d->params.v[i] + 1, w));
		free(w);
		if (param)
			any = true;
		else if (!ok)
			return false;
	}
	return any;
}

/* the top-level parts of t between the operators of seps (up to max), or
 * 0 when there are more */
static size_t split_top(const char *t, const char *const *seps, char **parts, size_t max)
{
	size_t from = 0, n = 0;
	for (;;) {
		long a = top_find(t, seps[0], from), b = seps[1] ? top_find(t, seps[1], from) : -1;
		long at = a < 0 ? b : b < 0 ? a : (a < b ? a : b);
		if (n == max) {
			for (size_t i = 0; i < n; i++)
				free(parts[i]);
			return 0;
		}
		if (at < 0) {
			parts[n++] = trim(t + from, strlen(t + from));
			return n;
		}
		parts[n++] = trim(t + from, (size_t)at - from);
		from = (size_t)at + (at == a ? strlen(seps[0]) : strlen(seps[1]));
	}
}

/* A condition written again is said once: nested checks of one value,
 * `if not key: key = retry(); if not key: raise` (guard `not key and
 * not key`), or `a || a`.  Returns the new count. */
static size_t drop_repeats(char **parts, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = strcmp(parts[j], parts[i]) == 0;
		if (seen)
			free(parts[i]);
		else
			parts[k++] = parts[i];
	}
	return k;
}

/* Conditions that must all hold: one that says none of several holds,
 * `not (a or b)` / `!(a || b)`, is each of them not holding ("`a` is
 * empty and `b` is not set" instead of "`a or b` is false"), and a
 * group of them in parentheses, `(a and b)`, is each of them, while the
 * whole stays within the four conditions dsc_guard_parse reads one by
 * one.  Returns the new count. */
static size_t not_any(char **parts, size_t n, bool word)
{
	const char *ors[] = {"||", word ? " or " : NULL};
	for (size_t i = 0; i < n; i++) {
		const char *p = parts[i];
		size_t skip = p[0] == '!' && p[1] != '=' ? 1 : strncmp(p, "not ", 4) == 0 ? 4 : 0;
		bool paren = !skip && p[0] == '(';
		if (!skip && !paren)
			continue;
		char *in = unparen(trim(p + skip, strlen(p + skip)));
		bool ands = top_find(in, "&&", 0) >= 0 || (word && top_find(in, " and ", 0) >= 0);
		bool any = top_find(in, ors[0], 0) >= 0 || (ors[1] && top_find(in, ors[1], 0) >= 0);
		/* `(a and b)` among conditions that must all hold: each one */
		const char *andsep[] = {"&&", word ? " and " : NULL};
		char *sub[DSC_ATOMS];
		size_t k = paren ? (ands && !any ? split_top(in, andsep, sub, DSC_ATOMS) : 0)
				 : (!ands && any ? split_top(in, ors, sub, DSC_ATOMS) : 0);
		free(in);
		if (k < 2 || n - 1 + k > 4) {
			for (size_t j = 0; j < k; j++)
				free(sub[j]);
			continue;
		}
		/* parts[i] becomes k parts, each turned */
		free(parts[i]);
		memmove(parts + i + k, parts + i + 1, (n - i - 1) * sizeof *parts);
		for (size_t j = 0; j < k; j++) {
			parts[i + j] = paren ? sub[j] : fl_xasprintf(skip == 1 ? "!(%s)" : "not (%s)", sub[j]);
			if (!paren)
				free(sub[j]);
		}
		n += k - 1;
		i += k - 1;
	}
	return n;
}

/* More than four comparisons of one value (a switch's default: `t != A
 * && t != B && ...`, or `t == A || t == B || ...`): one condition, the
 * value one (or none) of them.  The subject and the values ('\x01'
 * between) into *subj and *vals; false when the parts are not that. */
static bool one_of(char **parts, size_t n, bool any, char **subj, char **vals)
{
	const char *ops[2][2] = {{"!==", "!="}, {"===", "=="}};
	fl_buf v = {0};
	*subj = NULL;
	for (size_t i = 0; i < n; i++) {
		long at = -1;
		size_t ol = 0;
		for (size_t o = 0; o < 2 && at < 0; o++) {
			at = top_find(parts[i], ops[any][o], 0);
			ol = strlen(ops[any][o]);
		}
		char *l = at > 0 ? trim(parts[i], (size_t)at) : NULL;
		char *r = at > 0 ? trim(parts[i] + at + ol, strlen(parts[i] + at + ol)) : NULL;
		bool ok = l && r && *l && *r && (!*subj || dsc_eq(*subj, l));
		if (ok && !*subj) {
			*subj = l;
			l = NULL;
		}
		if (ok) {
			if (v.n)
				fl_buf_putc(&v, '\x01');
			fl_buf_puts(&v, r);
		}
		free(l);
		free(r);
		if (!ok) {
			free(*subj);
			*subj = NULL;
			fl_buf_free(&v);
			return false;
		}
	}
	*vals = dsc_take(&v);
	return true;
}

void dsc_guard_parse(dsc *d)
{
	dsc_guard *g = &d->g;
	if (!d->guard || strlen(d->guard) > 1200)
		return;
	const char *t = d->guard;
	bool word = dsc_eq(d->dialect, "python") || dsc_eq(d->dialect, "ruby");
	const char *ors[] = {"||", word ? " or " : NULL}, *ands[] = {"&&", word ? " and " : NULL};
	bool has_or = top_find(t, ors[0], 0) >= 0 || (ors[1] && top_find(t, ors[1], 0) >= 0);
	bool has_and = top_find(t, ands[0], 0) >= 0 || (ands[1] && top_find(t, ands[1], 0) >= 0);
	char *parts[DSC_ONEOF];
	unsigned char grp[DSC_ATOMS];
	size_t n = 0;
	if (has_or && has_and) {
		/* "or" binds looser than "and": the "or" parts, each one
		 * condition or an "and" group of them */
		char *ps[DSC_ATOMS];
		size_t np = split_top(t, ors, ps, DSC_ATOMS);
		if (np < 2)
			return;
		bool over = false;
		for (size_t i = 0; i < np; i++) {
			if (!over) {
				size_t k = split_top(ps[i], ands, parts + n, DSC_ATOMS - n);
				if (!k)
					over = true;
				for (size_t j = 0; j < k; j++)
					grp[n + j] = (unsigned char)i;
				n += k;
			}
			free(ps[i]);
		}
		if (over) {
			for (size_t i = 0; i < n; i++)
				free(parts[i]);
			return;
		}
		g->mixed = true;
		g->any = true;
	} else {
		n = split_top(t, has_or ? ors : ands, parts, DSC_ONEOF);
		n = drop_repeats(parts, n);
		if (!has_or)
			n = not_any(parts, n, word);
		if (n > 4) { /* more than four conditions are read as written */
			char *subj = NULL, *vals = NULL;
			bool same = one_of(parts, n, has_or, &subj, &vals);
			for (size_t i = 0; i < n; i++)
				free(parts[i]);
			n = 0;
			if (same) {
				dsc_atom *a = &g->a[0];
				memset(a, 0, sizeof *a);
				a->kind = GA_ONEOF;
				a->text = fl_xstrdup(t);
				a->subject = subj;
				a->other = vals;
				a->neg = !has_or;
				a->caller = only_params(d, subj);
				g->n = 1;
				g->any = false;
				memset(g->grp, 0, sizeof g->grp);
				d->checkable = a->caller && !(d->s->function && dsc_eq(d->s->function, "main")) &&
					       !d->s->early;
				return;
			}
		}
		if (!n)
			return;
		g->any = has_or;
		memset(grp, 0, sizeof grp);
		if (has_or)
			for (size_t i = 0; i < n; i++)
				grp[i] = (unsigned char)i;
	}
	memcpy(g->grp, grp, sizeof grp);
	/* the program's main is called by no code a caller writes; early
	 * exits say how the line is reached, and taking them is no fix */
	d->checkable = n > 0 && !(d->s->function && dsc_eq(d->s->function, "main")) && !d->s->early;
	for (size_t i = 0; i < n; i++) {
		atom(d, &g->a[i], parts[i]);
		/* a type check is the caller's when the value checked is its
		 * argument, whatever the type is called (`cookielib.CookieJar`,
		 * `basestring`) */
		g->a[i].caller = g->a[i].kind != GA_FAILED && g->a[i].kind != GA_OTHER &&
				 only_params(d, g->a[i].kind == GA_TYPE && g->a[i].subject ? g->a[i].subject : parts[i]);
		d->checkable &= g->a[i].caller;
		free(parts[i]);
	}
	g->n = n;
}

void dsc_guard_free(dsc_guard *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->a[i].text);
		free(g->a[i].subject);
		free(g->a[i].other);
		free(g->a[i].op);
		free(g->a[i].call);
	}
	memset(g, 0, sizeof *g);
}

/* ---- in words -------------------------------------------------------------- */

static const char *null_word(const dsc *d)
{
	const char *l = d->dialect;
	if (dsc_eq(l, "go") || dsc_eq(l, "ruby"))
		return "nil";
	if (dsc_eq(l, "python") || dsc_eq(l, "rust"))
		return "None";
	if (dsc_eq(l, "c") || dsc_eq(l, "cpp"))
		return "NULL";
	return "null";
}

static void code_or_num(fl_buf *b, const char *s)
{
	bool num = *s != 0;
	for (const char *p = s; *p; p++)
		num &= isdigit((unsigned char)*p) || (*p == '-' && p == s) || *p == '.';
	if (num)
		fl_buf_puts(b, s);
	else
		dsc_code(b, s);
}

static void op_words(fl_buf *b, const char *op, const char *r)
{
	bool z = is_zero(r);
	static const char *const w[][3] = {
		{"==", "is", "is zero"},
		{"!=", "is not", "is not zero"},
		{"<", "is less than", "is negative"},
		{"<=", "is at most", "is zero or negative"},
		{">", "is greater than", "is positive"},
		{">=", "is at least", "is zero or more"},
		{"=~", "matches", "matches"},
		{"!~", "does not match", "does not match"},
	};
	for (size_t i = 0; i < 8; i++)
		if (dsc_eq(op, w[i][0])) {
			z &= i < 6;
			fl_buf_puts(b, w[i][z ? 2 : 1]);
			if (!z) {
				fl_buf_putc(b, ' ');
				code_or_num(b, r);
			}
			return;
		}
	fl_buf_printf(b, "%s ", op);
	code_or_num(b, r);
}

static void article(fl_buf *b, const char *t)
{
	const char *l = t;
	while (*l == '\\' || *l == '(' || *l == '[')
		l++;
	fl_buf_puts(b, strchr("aeiouAEIOU", *l) && *l ? "an " : "a ");
}

/* "could not read the ASN1 bit string" of "ReadASN1BitString" */
char *dsc_call_failure(const char *callee)
{
	static const char *const verbs[][2] = {
		{"get", "get"},	      {"read", "read"},	      {"write", "write"},     {"open", "open"},
		{"parse", "parse"},   {"load", "load"},	      {"save", "save"},	      {"create", "create"},
		{"find", "find"},     {"lookup", "look up"},  {"resolve", "resolve"}, {"fetch", "fetch"},
		{"connect", "connect to"}, {"send", "send"},  {"recv", "receive"},    {"receive", "receive"},
		{"bind", "bind"},     {"alloc", "allocate"},  {"allocate", "allocate"}, {"decode", "decode"},
		{"encode", "encode"}, {"compile", "compile"}, {"convert", "convert"}, {"init", "initialize"},
		{"initialize", "initialize"}, {"copy", "copy"}, {"rename", "rename"}, {"delete", "delete"},
		{"remove", "remove"}, {"unlink", "remove"},   {"stat", "stat"},	      {"lock", "lock"},
		{"mkdir", "create the directory"}, {"close", "close"}, {"flush", "flush"}, {"seek", "seek"},
		{"exec", "run"},      {"run", "run"},	      {"start", "start"},     {"load", "load"},
		{"install", "install"}, {"download", "download"},
		{"expand", "expand"}, {"apply", "apply"},     {"insert", "insert"},   {"update", "update"},
		{"add", "add"},	      {"set", "set"},	      {"make", "make"},	      {"new", "make a new"},
		{"unmarshal", "decode"}, {"marshal", "encode"}, {"scan", "scan"},     {"lex", "read"},
		{"fill", "fill"},     {"prepare", "prepare"}, {"step", "step"},	      {"extract", "extract"},
		{"map", "map"},	      {"mmap", "map"},	      {"spawn", "start"},     {"fork", "fork"},
		{"accept", "accept"}, {"listen", "listen on"}, {"dup", "duplicate"},  {"push", "push"},
		{"append", "append"}, {"build", "build"},     {"sync", "sync"},
	};
	dsc_wordv w = {0};
	dsc_words(dsc_last(callee), &w);
	char *res = NULL;
	for (size_t i = 0; i < w.n && !res; i++)
		for (size_t k = 0; k < sizeof verbs / sizeof verbs[0]; k++) {
			if (!dsc_eq(w.v[i], verbs[k][0]))
				continue;
			fl_buf b = {0};
			fl_buf_printf(&b, "could not %s", verbs[k][1]);
			size_t objs = 0;
			for (size_t j = i + 1; j < w.n && objs < 4; j++) {
				static const char *const stop[] = {"with", "from", "by", "for", "to", "in", "at",
								   "into", "of", "on", "or", "and", "ex", "v2", NULL};
				bool s = false;
				for (size_t q = 0; stop[q]; q++)
					s |= dsc_eq(w.v[j], stop[q]);
				if (s)
					break;
				fl_buf_puts(&b, objs++ ? " " : " the ");
				fl_buf_puts(&b, w.v[j]);
			}
			res = dsc_take(&b);
			break;
		}
	dsc_wordv_free(&w);
	return res;
}

/* the name of the last call of a call expression (`read_to_string` of
 * `std::fs::read_to_string(path)`, `get` of `v.as_table().get(k)`), or
 * NULL when s does not end with a call */
static char *last_call_name(const char *s)
{
	size_t n = strlen(s), i = n;
	if (!n || s[n - 1] != ')')
		return NULL;
	int depth = 0;
	while (i > 0) {
		i--;
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			break;
	}
	size_t e = i;
	while (i > 0 && idch(s[i - 1]))
		i--;
	return depth || i == e ? NULL : fl_xstrndup(s + i, e - i);
}

static void failed_words(fl_buf *b, const dsc *d, const dsc_atom *a, bool yes)
{
	if (a->call) {
		dsc_code(b, a->call);
		if (!yes) {
			fl_buf_puts(b, " succeeds");
			return;
		}
		bool go = dsc_eq(d->dialect, "go");
		if (a->subject && statusish(a->subject) && !a->op)
			fl_buf_puts(b, go ? " returned an error" : " failed");
		else
			fl_buf_puts(b, " failed");
		char *name = last_call_name(a->call);
		char *why = dsc_call_failure(name ? name : a->call);
		free(name);
		/* "(it could not read)" says no more than "failed" */
		if (why && !strchr(why + strlen("could not "), ' ')) {
			free(why);
			why = NULL;
		}
		if (why) {
			fl_buf_puts(b, " (it ");
			fl_buf_puts(b, why);
			fl_buf_putc(b, ')');
			free(why);
		}
		return;
	}
	if (dsc_eq(d->dialect, "go") && a->subject && !a->op) {
		fl_buf_puts(b, yes ? "an earlier call returned an error in " : "the earlier call returned no error in ");
		dsc_code(b, a->subject);
		return;
	}
	fl_buf_puts(b, yes ? "an earlier call failed (" : "the earlier call succeeded (not ");
	dsc_code(b, a->text);
	fl_buf_putc(b, ')');
}

/* the atom in words; bare: without its subject, which the atom before it
 * named ("`x` is set and does not exist") */
static void atom_words(fl_buf *b, const dsc *d, const dsc_atom *a, bool when, bool bare)
{
	bool yes = when != a->neg;
	const char *subj = a->subject ? a->subject : a->text;
	size_t at = b->n;
	if (!bare) {
		dsc_code(b, subj);
		fl_buf_putc(b, ' ');
	}
	switch (a->kind) {
	case GA_NULL:
		fl_buf_puts(b, yes ? "is " : "is not ");
		dsc_code(b, null_word(d));
		if (dsc_eq(d->dialect, "c") || dsc_eq(d->dialect, "cpp"))
			fl_buf_puts(b, yes ? " (or zero)" : "");
		break;
	case GA_EMPTY:
		fl_buf_puts(b, yes ? "is empty" : "is not empty");
		break;
	case GA_CMP: {
		op_words(b, yes ? a->op : flip(a->op), a->other);
		break;
	}
	case GA_TYPE:
		fl_buf_puts(b, yes ? "is " : "is not ");
		if (a->op && dsc_eq(a->op, "sub"))
			fl_buf_puts(b, "a subclass of ");
		else
			article(b, a->other);
		dsc_code(b, a->other);
		break;
	case GA_MEMBER:
		fl_buf_puts(b, yes ? "contains " : "does not contain ");
		dsc_code(b, a->other);
		break;
	case GA_ONEOF: {
		/* at most six named, then how many more */
		size_t nv = 1;
		for (const char *p = a->other; p && (p = strchr(p, '\x01')) != NULL; p++)
			nv++;
		size_t shown = nv > 8 ? 6 : nv;
		fl_buf_puts(b, yes ? "is one of " : "is none of ");
		const char *p = a->other;
		for (size_t i = 0; i < shown && p && *p; i++) {
			const char *sep = strchr(p, '\x01');
			char *v = fl_xstrndup(p, sep ? (size_t)(sep - p) : strlen(p));
			if (i)
				fl_buf_puts(b, i + 1 < nv && (i + 1 < shown || shown < nv) ? ", "
					       : (yes ? " or " : " and "));
			dsc_code(b, v);
			free(v);
			p = sep ? sep + 1 : NULL;
		}
		if (shown < nv)
			fl_buf_printf(b, yes ? " or one of %zu other values" : " and %zu other values",
				      nv - shown);
		break;
	}
	case GA_EXISTS:
		if (!a->op)
			fl_buf_puts(b, yes ? "exists" : "does not exist");
		else if (dsc_eq(a->op, "dir"))
			fl_buf_puts(b, yes ? "is a directory" : "is not a directory");
		else if (dsc_eq(a->op, "file"))
			fl_buf_puts(b, yes ? "is a file" : "is not a file");
		else
			fl_buf_printf(b, "is %s%s", yes ? "" : "not ", a->op);
		break;
	case GA_PRED:
		fl_buf_puts(b, fl_str_ends(subj, "?") || !strchr(subj, '(') ? (yes ? "is true" : "is false")
									    : (yes ? "returns true" : "returns false"));
		break;
	case GA_FLAG:
		if (dsc_measured(subj)) /* `!argv.length`: a count */
			fl_buf_puts(b, yes ? "is not zero" : "is zero");
		else if (boolish(subj) || dsc_eq(d->dialect, "go"))
			fl_buf_puts(b, yes ? "is true" : "is false");
		else
			fl_buf_puts(b, yes ? "is set" : "is not set");
		break;
	default:
		fl_buf_puts(b, yes ? "is true" : "is false");
	}
	/* "`v` is zero or negative, or greater than 65535" */
	if (bare && b->n >= at + 3 && strncmp(b->s + at, "is ", 3) == 0) {
		memmove(b->s + at, b->s + at + 3, b->n - at - 3);
		b->n -= 3;
	}
}

void dsc_atom_words(fl_buf *b, const dsc *d, const dsc_atom *a, bool when)
{
	if (a->kind == GA_FAILED)
		failed_words(b, d, a, when != a->neg);
	else if (a->kind == GA_OTHER)
		atom_words(b, d, &(dsc_atom){.text = a->text, .neg = a->neg}, when, false);
	else
		atom_words(b, d, a, when, false);
}

/* atoms i and i-1 are about the same value, stated with it first */
/* an atom said with "is" (`x` is empty, is not 3, is set, is a T) */
static bool is_phrase(int kind)
{
	return kind == GA_NULL || kind == GA_EMPTY || kind == GA_CMP || kind == GA_FLAG || kind == GA_ONEOF ||
	       kind == GA_TYPE;
}

/* a's subject is p's, and a can be said without it after p: of one
 * kind, a said with a verb of its own ("is set and does not exist"), or
 * both with "is" (not "`kwargs` contains `"a"`, and set") */
static bool same_subject(const dsc_atom *a, const dsc_atom *p)
{
	return a->kind != GA_FAILED && a->kind != GA_OTHER && a->kind != GA_PRED && p->kind != GA_FAILED &&
	       p->kind != GA_OTHER && p->kind != GA_PRED && a->subject && p->subject &&
	       (a->kind == p->kind || !is_phrase(a->kind) || is_phrase(p->kind)) &&
	       dsc_eq(a->subject, p->subject);
}

/* atoms [from, to) joined by "and" (any=false) or "or" */
static void join(fl_buf *b, const dsc *d, size_t from, size_t to, bool any, bool when)
{
	const dsc_guard *g = &d->g;
	size_t n = to - from;
	size_t prev = b->n, prev_end = b->n;
	for (size_t i = from; i < to; i++) {
		if (i > from)
			fl_buf_puts(b, i + 1 < to ? ", " : any ? (n > 2 ? ", or " : " or ") : (n > 2 ? ", and " : " and "));
		bool bare = i > from && same_subject(&g->a[i], &g->a[i - 1]);
		size_t at = b->n;
		if (bare)
			atom_words(b, d, &g->a[i], when, true);
		else
			dsc_atom_words(b, d, &g->a[i], when);
		/* "is not `null` and is `false`": a value after a negation
		 * keeps its "is" ("is not `null` and `false`" reads as
		 * neither) */
		if (bare && b->n > at && b->s[at] == '`' &&
		    fl_memmem(b->s + prev, prev_end - prev, "not ", 4)) {
			fl_buf_puts(b, "   ");
			memmove(b->s + at + 3, b->s + at, b->n - at - 3);
			memcpy(b->s + at, "is ", 3);
		}
		prev = at;
		prev_end = b->n;
	}
}

static void guard_words(fl_buf *b, const dsc *d, bool when);

/* the words are the same each time a field asks: made once (d->gw, set
 * by dsc_init, is the cache a const dsc may still fill) */
void dsc_guard_words(fl_buf *b, const dsc *d, bool when)
{
	if (!d->gw[when]) {
		fl_buf w = {0};
		guard_words(&w, d, when);
		d->gw[when] = dsc_take(&w);
	}
	fl_buf_puts(b, d->gw[when]);
}

static void guard_words(fl_buf *b, const dsc *d, bool when)
{
	const dsc_guard *g = &d->g;
	if (!g->n) {
		dsc_code(b, d->guard);
		fl_buf_puts(b, when ? " is true" : " is false");
		return;
	}
	if (!g->mixed) {
		join(b, d, 0, g->n, g->any == when, when);
		return;
	}
	/* `a && b || c`: "either `a` ... and `b` ..., or `c` ..."; its
	 * opposite: "`a` ... or `b` ..., and `c` ..." (each group's
	 * opposite, all of them) */
	if (when)
		fl_buf_puts(b, "either ");
	for (size_t i = 0; i < g->n;) {
		size_t j = i;
		while (j < g->n && g->grp[j] == g->grp[i])
			j++;
		if (i)
			fl_buf_puts(b, when ? ", or " : ", and ");
		if (!when && j - i > 1)
			fl_buf_puts(b, "either ");
		join(b, d, i, j, !when, when);
		i = j;
	}
}
