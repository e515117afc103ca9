/*
 * reporters.c — Python calls that report an error (lib/scan/python/,
 * python.h): Flask's abort(), parser.error() (argparse), Click's
 * ctx.fail() / self.fail(), sys.exit(), warnings.warn(), logging calls;
 * and the tree's own reporters, functions that print a parameter to
 * stderr and exit, found by what they do (collect pass) and made a site
 * at each call with a literal message.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "python.h"

/* ---- project reporters ---------------------------------------------------------
 * `def fail(msg): print(f"error: {msg}", file=sys.stderr); sys.exit(1)`, a
 * method `def die(self, message): sys.stderr.write(message + "\n");
 * sys.exit(2)`: a function that prints one of its parameters as an error
 * and exits.  Found by what it does (collect(): every file), it makes each
 * call of it with a literal message a site, with the printed text
 * (`fail("no input")` -> "error: no input").  The tree keeps "rep:NAME" (a
 * key no class name takes): the printed text with {param} placeholders, the
 * parameters (without self), status 1 for a method, 0 for a function. */
#define REP_MAX_TOKS 400

/* A byte scan: the file can define such a function. */
bool py_has_reporter(const char *s, size_t n)
{
	return fl_memmem(s, n, "stderr", 6) || fl_memmem(s, n, "err=True", 8);
}

/* The value [*vb, *ve) of the call's own keyword argument NAME= (the
 * call whose '(' is open; a nested call's is not its): false when it
 * has none. */
static bool kw_value(const fl_toks *t, const size_t *m, size_t open, const char *name,
		     size_t *vb, size_t *ve)
{
	if (open >= t->n || m[open] == NONE)
		return false;
	size_t st[MAXARGS], en[MAXARGS], close;
	size_t n = py_split_args(t, m, open, st, en, MAXARGS, &close);
	for (size_t k = 0; n != NONE && k < n; k++) {
		size_t q = st[k];
		if (fl_tok_is_ident(t, q, name) && is_p(t, q + 1, '=')) {
			*vb = q + 2;
			*ve = en[k];
			return true;
		}
	}
	return false;
}

/* Whether the call whose '(' is open has the keyword argument NAME=a.b
 * (b NULL: any value; with b: a lone `a.b`, or `a` when b is "") */
static bool has_kw(const fl_toks *t, const size_t *m, size_t open, const char *name,
		   const char *a, const char *b)
{
	size_t vb, ve;
	if (!kw_value(t, m, open, name, &vb, &ve))
		return false;
	if (!b)
		return true;
	return *b ? ve == vb + 3 && fl_tok_is(t, vb, a) && is_p(t, vb + 1, '.') && fl_tok_is(t, vb + 2, b)
		  : ve == vb + 1 && fl_tok_is(t, vb, a);
}

/* print(..., file=sys.stderr) at open, or file= a name or member stderr
 * (a function's `stderr: TextIO` parameter, self.stderr): mypy's
 * `print(f"{prefix}Unrecognized option: ...", file=stderr)` */
static bool to_stderr(const fl_toks *t, const size_t *m, size_t open)
{
	size_t vb, ve;
	if (!kw_value(t, m, open, "file", &vb, &ve))
		return false;
	return (ve == vb + 3 && (fl_tok_is(t, vb, "sys") || fl_tok_is(t, vb, "self")) && is_p(t, vb + 1, '.') &&
		fl_tok_is(t, vb + 2, "stderr")) ||
	       (ve == vb + 1 && fl_tok_is(t, vb, "stderr"));
}

/* `"ERROR: {}".format(msg)`, `"ERROR: %s" % msg`: a literal with one
 * placeholder filled from one of params[0..np), written to b with the
 * placeholder as `{msg}`.  False when [b, e) is no such expression. */
static bool param_formatted(const fl_toks *t, size_t b, size_t e, char *const *params, size_t np,
			    fl_buf *out)
{
	if (t->v[b].kind != FL_TK_STRING || (t->v[b].flags & (FL_TF_INTERP | FL_TF_BYTES)))
		return false;
	size_t p;
	if (e == b + 6 && is_p(t, b + 1, '.') && fl_tok_is_ident(t, b + 2, "format") &&
	    is_p(t, b + 3, '(') && is_p(t, b + 5, ')'))
		p = b + 4;
	else if (e == b + 3 && is_p(t, b + 1, '%'))
		p = b + 2;
	else
		return false;
	if (t->v[p].kind != FL_TK_IDENT)
		return false;
	const char *name = NULL;
	for (size_t k = 0; k < np && !name; k++)
		if (fl_tok_is_ident(t, p, params[k]))
			name = params[k];
	if (!name)
		return false;
	const char *lit = fl_tok_str(t, &t->v[b]);
	const char *ph = is_p(t, b + 1, '%') ? strstr(lit, "%s") : strstr(lit, "{}");
	const char *ph2 = ph ? strstr(lit, "%r") : NULL;
	if (is_p(t, b + 1, '%') && (!ph || (ph2 && ph2 < ph)))
		ph = ph2 ? ph2 : strstr(lit, "%r");
	if (!ph)
		return false;
	/* exactly one placeholder of its kind */
	const char *again = is_p(t, b + 1, '%') ? strchr(ph + 2, '%') : strchr(ph + 2, '{');
	if (again)
		return false;
	fl_buf_put(out, lit, (size_t)(ph - lit));
	fl_buf_printf(out, "{%s}", name);
	fl_buf_puts(out, ph + 2);
	return true;
}

/* The printed text of the print at open (its '('): print's positional
 * arguments joined by spaces, a write's or a logger's first one; NULL when
 * it names none of params[0..np). */
static char *printed_text(const fl_toks *t, const size_t *m, size_t open, bool joined,
			  char *const *params, size_t np)
{
	size_t st[MAXARGS], en[MAXARGS], close;
	size_t n = py_split_args(t, m, open, st, en, MAXARGS, &close);
	if (n == NONE || n == 0)
		return NULL;
	fl_buf b = {0};
	bool lit = false, first = true;
	for (size_t k = 0; k < n && (joined || k == 0); k++) {
		if (t->v[st[k]].kind == FL_TK_IDENT && is_p(t, st[k] + 1, '='))
			continue; /* file=, end=, sep= */
		if (!first)
			fl_buf_putc(&b, ' ');
		first = false;
		if (!param_formatted(t, st[k], en[k], params, np, &b))
			py_join_part(t, st[k], en[k], &b, &lit);
	}
	fl_buf_cstr(&b);
	bool named = false;
	for (size_t k = 0; k < np && !named; k++) {
		size_t l = strlen(params[k]);
		for (const char *h = strchr(b.s, '{'); h && !named; h = strchr(h + 1, '{'))
			named = strncmp(h + 1, params[k], l) == 0 && h[1 + l] == '}';
	}
	if (!named) {
		fl_buf_free(&b);
		return NULL;
	}
	return b.s;
}

static bool reporter_def(const fl_toks *t, const size_t *m, size_t d, char **text,
			 char **params, bool *method, bool *quiet, bool *printer, int depth);

/* The def whose parameters close at close is annotated as never
 * returning: `-> NoReturn`, `-> typing.NoReturn`, `-> Never`, or so in
 * quotes. */
static bool no_return(const fl_toks *t, size_t close)
{
	size_t a = close + 1;
	if (a + 1 >= t->n || !fl_tok_is(t, a, "->"))
		return false;
	a++;
	if (a + 2 < t->n && fl_tok_is_ident(t, a, "typing") && is_p(t, a + 1, '.'))
		a += 2;
	if (t->v[a].kind == FL_TK_STRING) {
		const char *x = fl_tok_str(t, &t->v[a]);
		return strcmp(x, "NoReturn") == 0 || strcmp(x, "Never") == 0;
	}
	return fl_tok_is_ident(t, a, "NoReturn") || fl_tok_is_ident(t, a, "Never");
}

/* In the body [body, end) of a def that never returns, a call given one
 * of its parameters whole (mypy's `def plugin_error(message: str) ->
 * NoReturn: errors.report(line, 0, message); errors.raise_error()`): that
 * parameter, "{message}"; of several, the one named as the message;
 * NULL when none is handed on. */
static char *handed_on(const fl_toks *t, size_t body, size_t end, char *const *pv, size_t np)
{
	int first = -1;
	for (size_t q = body; q + 1 < end; q++) {
		if (t->v[q].kind != FL_TK_IDENT || !(is_p(t, q - 1, '(') || is_p(t, q - 1, ',')) ||
		    !(is_p(t, q + 1, ')') || is_p(t, q + 1, ',')))
			continue;
		for (size_t k = 0; k < np; k++) {
			if (!fl_tok_is(t, q, pv[k]))
				continue;
			static const char *const msgish[] = {"msg", "message", "text", "reason", NULL};
			for (const char *const *w = msgish; *w; w++)
				if (strcmp(pv[k], *w) == 0)
					return fl_xasprintf("{%s}", pv[k]);
			if (first < 0)
				first = (int)k;
		}
	}
	return first >= 0 && np == 1 ? fl_xasprintf("{%s}", pv[first]) : NULL;
}

/* The def of the file, at a line's start, of the function called at token
 * q (a plain name), or NONE */
static size_t file_def(const fl_toks *t, size_t q)
{
	for (size_t d = 0; d + 1 < t->n; d++)
		if (fl_tok_is_ident(t, d, "def") && (d == 0 || (t->v[d].flags & FL_TF_NL_BEFORE)) &&
		    t->v[d + 1].len == t->v[q].len &&
		    memcmp(t->src + t->v[d + 1].off, t->src + t->v[q].off, t->v[q].len) == 0)
			return d;
	return NONE;
}

/* The def at d (`def` at a line's start) when it is a reporter: its
 * printed text and parameters (one per line), *method when it takes self.
 * A reporter prints one of its parameters on stderr (print(file=
 * sys.stderr), sys.stderr.write, click's echo(err=True)), itself or by
 * passing it first to another reporter of the file (black's `err(message)`
 * calls `_err(message)`, which echoes it), and exits; or, *quiet, is a
 * function named for it (`err`, `_error`, `warn`, `fail`...) that leaves
 * the exit to its caller; or, *printer (and *quiet), a function that only
 * prints on stderr (black's `out(message)`), whose calls report where an
 * exit follows them or in an exception handler (reporter_call).  A
 * `note(msg)` called on the way is none of them, nor a method that does
 * not exit (`self.warn(msg)`: the name of every logger's method). */
bool py_reporter_def(const fl_toks *t, const size_t *m, size_t d, char **text,
		     char **params, bool *method, bool *quiet, bool *printer)
{
	return reporter_def(t, m, d, text, params, method, quiet, printer, 0);
}

static bool reporter_def(const fl_toks *t, const size_t *m, size_t d, char **text,
			 char **params, bool *method, bool *quiet, bool *printer, int depth)
{
	*printer = false;
	size_t nm = d + 1;
	if (t->v[nm].kind != FL_TK_IDENT || !is_p(t, nm + 1, '(') || m[nm + 1] == NONE)
		return false;
	size_t st[FL_FAC_PARAMS], en[FL_FAC_PARAMS], close;
	size_t n = py_split_args(t, m, nm + 1, st, en, FL_FAC_PARAMS, &close);
	if (n == NONE || n == 0)
		return false;
	char *pv[FL_FAC_PARAMS];
	size_t np = 0;
	*method = fl_tok_is_ident(t, st[0], "self");
	for (size_t k = *method ? 1 : 0; k < n; k++)
		if (t->v[st[k]].kind == FL_TK_IDENT)
			pv[np++] = fl_tok_dup(t, st[k]);
	/* long, or with a nested def: not a reporter */
	size_t body = 0, end = 0;
	bool ok = np > 0 && py_def_body(t, d, close, REP_MAX_TOKS, false, &body, &end);
	char *txt = NULL;
	/* `-> NoReturn`: it never returns (it raises or exits) */
	bool noret = no_return(t, close);
	bool exits = noret;
	for (size_t q = body; ok && q < end; q++) {
		if (t->v[q].kind != FL_TK_IDENT)
			continue;
		bool member = q > 0 && is_p(t, q - 1, '.');
		if ((fl_tok_is(t, q, "exit") && is_p(t, q + 1, '(') &&
		     (!member || fl_tok_is_ident(t, q - 2, "sys"))) ||
		    (fl_tok_is(t, q, "_exit") && member && fl_tok_is_ident(t, q - 2, "os")) ||
		    (fl_tok_is(t, q, "SystemExit") && fl_tok_is_ident(t, q - 1, "raise"))) {
			exits = true;
			continue;
		}
		if (txt || !is_p(t, q + 1, '(') || m[q + 1] == NONE)
			continue;
		size_t o = q + 1;
		if (fl_tok_is(t, q, "print") && !member && to_stderr(t, m, o))
			txt = printed_text(t, m, o, true, pv, np);
		else if (fl_tok_is(t, q, "write") && member && fl_tok_is_ident(t, q - 2, "stderr"))
			txt = printed_text(t, m, o, false, pv, np);
		else if (fl_tok_is(t, q, "echo") && has_kw(t, m, o, "err", "True", ""))
			txt = printed_text(t, m, o, true, pv, np);
		else if (!member && depth == 0 && t->v[o + 1].kind == FL_TK_IDENT &&
			 (is_p(t, o + 2, ',') || is_p(t, o + 2, ')'))) {
			/* `_err(message, nl=nl)`: a reporter of the file given
			 * a parameter first */
			size_t fd = file_def(t, q);
			char *st = NULL, *sp = NULL;
			bool sm, sq, spr;
			if (fd != NONE && fd != d &&
			    reporter_def(t, m, fd, &st, &sp, &sm, &sq, &spr, depth + 1)) {
				exits = exits || !sq; /* it exits for this one */
				char *first = sp, *nl = strchr(sp, '\n');
				if (nl)
					*nl = '\0';
				for (size_t k = 0; k < np && !txt; k++) {
					if (!fl_tok_is(t, o + 1, pv[k]))
						continue;
					char *hole = fl_xasprintf("{%s}", pv[k]);
					const char *nm[1] = {first};
					const char *val[1] = {hole};
					txt = fl_msg_subst(st, nm, val, 1);
					free(hole);
				}
			}
			free(st);
			free(sp);
		}
	}
	if (ok && !txt && noret)
		txt = handed_on(t, body, end, pv, np);
	*quiet = !exits;
	bool named = !*method && fl_reporting_name(t, nm);
	*printer = !exits && !named && !*method;
	if (ok && txt && (exits || named || *printer)) {
		fl_buf b = {0};
		for (size_t q = 0; q < np; q++) {
			if (q)
				fl_buf_putc(&b, '\n');
			fl_buf_puts(&b, pv[q]);
		}
		*params = fl_xstrdup(fl_buf_cstr(&b));
		fl_buf_free(&b);
		*text = txt;
	} else {
		free(txt);
		ok = false;
	}
	for (size_t q = 0; q < np; q++)
		free(pv[q]);
	return ok && (exits || named || *printer);
}

/* The file imports the name at token i from module mod (`from pkg.mod
 * import a, NAME`, `from .mod import (NAME)`) */
static bool imports(const walker *w, const char *mod, size_t i)
{
	const fl_toks *t = w->t;
	if (!mod || !*mod)
		return false;
	size_t ml = strlen(mod);
	for (size_t q = 0; q + 3 < t->n; q++) {
		if (!fl_tok_is_ident(t, q, "from") || !(q == 0 || (t->v[q].flags & FL_TF_NL_BEFORE)))
			continue;
		/* the module path's last name */
		size_t k = q + 1;
		while (k + 1 < t->n && !fl_tok_is_ident(t, k, "import") && k - q < 16)
			k++;
		if (!fl_tok_is_ident(t, k, "import") || k < q + 2 || t->v[k - 1].len != ml ||
		    memcmp(t->src + t->v[k - 1].off, mod, ml) != 0)
			continue;
		for (size_t r = k + 1; r < t->n && r - k < 64; r++) {
			if (r > k + 1 && (t->v[r].flags & FL_TF_NL_BEFORE) && !is_p(t, r - 1, ',') &&
			    !is_p(t, r - 1, '('))
				break;
			if (t->v[r].len == t->v[i].len &&
			    memcmp(t->src + t->v[r].off, t->src + t->v[i].off, t->v[i].len) == 0 &&
			    !fl_tok_is_ident(t, r - 1, "as"))
				return true;
			if (is_p(t, r, ')'))
				break;
		}
	}
	return false;
}

/* Whether the statement after the call [pb, close] ends the program with
 * a failure: `ctx.exit(1)`, `sys.exit(2)`, `exit(code)`, `raise
 * SystemExit(1)` at the call's column (not an exit of status 0). */
static bool exit_follows(const fl_toks *t, const size_t *m, size_t pb, size_t close)
{
	size_t x = close + 1;
	if (x >= t->n || !(t->v[x].flags & FL_TF_NL_BEFORE) || t->v[x].col != t->v[pb].col)
		return false;
	size_t a = NONE; /* the '(' of the exit's arguments */
	if (fl_tok_is_ident(t, x, "raise") && x + 1 < t->n && fl_tok_is_ident(t, x + 1, "SystemExit"))
		a = x + 2;
	else if (fl_tok_is_ident(t, x, "exit") && is_p(t, x + 1, '('))
		a = x + 1;
	else if (x + 3 < t->n && t->v[x].kind == FL_TK_IDENT && is_p(t, x + 1, '.') &&
		 (fl_tok_is_ident(t, x + 2, "exit") || fl_tok_is_ident(t, x + 2, "_exit")) &&
		 is_p(t, x + 3, '('))
		a = x + 3;
	if (a == NONE)
		return false;
	if (a >= t->n || !is_p(t, a, '(') || m[a] == NONE)
		return a >= t->n || (t->v[a].flags & FL_TF_NL_BEFORE); /* a bare raise SystemExit */
	/* exit(0), exit(): a normal end */
	if (m[a] == a + 1)
		return false;
	return !(m[a] == a + 2 && t->v[a + 1].kind == FL_TK_NUMBER && t->v[a + 1].len == 1 &&
		 t->src[t->v[a + 1].off] == '0');
}

/* The words of letters of a text outside its {...} holes ("HTTP {status}
 * {reason}" has one: a status line, not a sentence). */
static int words_outside_holes(const char *s, size_t n)
{
	int words = 0, depth = 0;
	bool in = false;
	for (size_t k = 0; k < n; k++) {
		char ch = s[k];
		if (ch == '{')
			depth++;
		else if (ch == '}' && depth > 0)
			depth--;
		bool letter = depth == 0 && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
		if (letter && !in)
			words++;
		in = letter;
	}
	return words;
}

/* Whether the keyword argument kw of the call whose '(' is at o holds a
 * name containing word (`level=LogLevel.WARNING`). */
static bool kw_mentions(const fl_toks *t, const size_t *m, size_t o, const char *kw, const char *word)
{
	size_t vb, ve;
	if (!kw_value(t, m, o, kw, &vb, &ve))
		return false;
	for (size_t v = vb; v < ve; v++)
		if (t->v[v].kind == FL_TK_IDENT && fl_memmem(t->src + t->v[v].off, t->v[v].len, word, strlen(word)))
			return true;
	return false;
}

/* Whether the statement after the call [pb, close] ends its function
 * or program with a failure: an exit (exit_follows), `return 1` (a status
 * of 1 to 255), or a status variable set to one (`retv = 1`, `rc = 2`,
 * returned later). */
static bool failure_follows(const fl_toks *t, const size_t *m, size_t pb, size_t close)
{
	if (exit_follows(t, m, pb, close))
		return true;
	size_t x = close + 1;
	if (x + 1 >= t->n || !(t->v[x].flags & FL_TF_NL_BEFORE) || t->v[x].col != t->v[pb].col)
		return false;
	size_t v = NONE;
	if (fl_tok_is_ident(t, x, "return"))
		v = x + 1;
	else if (t->v[x].kind == FL_TK_IDENT && is_p(t, x + 1, '=') && x + 2 < t->n) {
		static const char *const st[] = {"ret", "rc", "status", "exit", "code", NULL};
		bool named = false;
		for (const char *const *q = st; *q && !named; q++)
			named = contains_ci(t->src + t->v[x].off, t->v[x].len, *q);
		if (named)
			v = x + 2;
	}
	if (v == NONE || v >= t->n || t->v[v].kind != FL_TK_NUMBER ||
	    (v + 1 < t->n && !(t->v[v + 1].flags & FL_TF_NL_BEFORE) && !is_p(t, v + 1, ';')))
		return false;
	long n = strtol(t->src + t->v[v].off, NULL, 10);
	return n >= 1 && n <= 255;
}

static bool reporter_site(walker *w, size_t i, size_t pb, const char *key, const char *text,
			  const char *dc, const char *params, int method);

/* A call at i of a reporter of the tree (a method called on an object, a
 * function called plainly or on its module): a site with the printed text,
 * each parameter given a literal replaced by its text.  True when i is one
 * (a site or not). */
static bool reporter_call(walker *w, size_t i, size_t pb)
{
	const fl_toks *t = w->t;
	char key[160];
	if (t->v[i].len > 120 || !w->tree)
		return false;
	snprintf(key, sizeof key, "rep:%.*s", (int)t->v[i].len, t->src + t->v[i].off);
	if (w->log) {
		py_tree_params(w, key); /* none, logged */
		return false;
	}
	if (!w->tree->n)
		return false;
	const char *text, *dc, *params = py_tree_params(w, key);
	int method;
	if (!params || !py_tree_find(w, key, &text, &dc, &method) || !text) {
		/* the tree has none, or several that differ (mypy's many
		 * `fail`): a function called plainly is its file's own def */
		size_t d = i == pb ? py_file_def(w, i) : NONE;
		char *ot, *op;
		bool om, oq, opr;
		if (d == NONE || !py_reporter_def(t, w->m, d, &ot, &op, &om, &oq, &opr))
			return false;
		bool r = !om && reporter_site(w, i, pb, key, ot, NULL, op, opr ? 3 : oq ? 2 : 0);
		free(ot);
		free(op);
		return r;
	}
	if ((method == 1) != (i > pb))
		return false;
	return reporter_site(w, i, pb, key, text, dc, params, method);
}

/* The call at i of a reporter (reporter_call) whose printed text and
 * parameters are text and params, of status method: its site. */
static bool reporter_site(walker *w, size_t i, size_t pb, const char *key, const char *text,
			  const char *dc, const char *params, int method)
{
	const fl_toks *t = w->t;
	/* one that does not exit (status 2): called plainly in its own file or
	 * in one that imports it from its module (dc), not any `warn(...)` of
	 * the tree (`from warnings import warn`) */
	if (method >= 2 && (i != pb || !(py_file_def(w, i) != NONE || imports(w, dc, i))))
		return false;
	callargs a;
	size_t close;
	if (!py_get_args(w, i + 1, &a, &close))
		return true;
	/* a printer (status 3) reports where the program stops right after
	 * it, or in an exception handler of its function; elsewhere it is
	 * the program's output */
	bool stops = method == 3 && exit_follows(t, w->m, pb, close);
	if (method == 3 && !stops &&
	    !(py_innermost(w, B_EXCEPT) != NONE &&
	      (py_innermost(w, B_DEF) == NONE || py_innermost(w, B_EXCEPT) > py_innermost(w, B_DEF))))
		return true;
	char *names[FL_FAC_PARAMS] = {0}, *values[FL_FAC_PARAMS] = {0};
	py_alt alt = {0}; /* a joined list's other binding: a second site */
	size_t np = py_param_list(params, names, FL_FAC_PARAMS);
	bool any = false;
	for (size_t k = 0; k < np; k++) {
		size_t ak = py_kwarg(t, &a, names[k]);
		if (ak == NONE && k < a.npos)
			ak = a.pos[k];
		if (ak != NONE)
			values[k] = py_param_text(w, a.st[ak], a.en[ak], k, &alt);
		if (ak != NONE && !values[k]) {
			/* a local's text formatted (`msg.format(candidates)`) */
			values[k] = py_arg_msg(w, &a, ak, false);
			if (!values[k] && w->var != NONE) {
				char *ms[MAXVAR];
				size_t nv = py_var_msgs(w, i, w->var, w->var_fmt, ms);
				for (size_t v = 0; v < nv; v++) {
					if (v == 0 && nv == 1)
						values[k] = ms[v];
					else
						free(ms[v]);
				}
			}
			w->var = NONE;
			w->var_fmt = 0;
		}
		if (values[k] && strstr(text, names[k]))
			any = true;
	}
	if (any) {
		char *msg = fl_msg_subst(text, (const char *const *)names,
					 (const char *const *)values, np);
		py_alt_plural(w, text, names, values, np, &alt);
		char *idiom = fl_xasprintf("reporter %s", key + 4);
		/* "warning: ..." a warning, "Reformatted ..." information; a
		 * printer's report in a handler the program goes on after, a
		 * warning */
		const char *sev = fl_print_severity(msg);
		if (method == 3 && !stops && strcmp(sev, FL_S_ERROR) == 0)
			sev = FL_S_WARNING;
		py_emit(w, pb, msg, NULL, NULL, FL_T_CONSOLE, sev, 0, idiom);
		free(idiom);
		free(msg);
	}
	free(alt.text);
	for (size_t k = 0; k < np; k++) {
		free(names[k]);
		free(values[k]);
	}
	return true;
}

/* ---- calls that report ----------------------------------------------------- */

/* The innermost class statement around the walker: its name token, or
 * NONE. */
static size_t cur_class(const walker *w)
{
	size_t k = py_innermost(w, B_CLASS);
	return k == NONE ? NONE : w->blk[k].name;
}

/* Whether the class named at token nm (NONE: none) has `needle` in its
 * name or in one of its bases (a lower-case needle: case-insensitive). */
static bool class_mentions(const walker *w, size_t nm, const char *needle)
{
	bool ci = needle[0] >= 'a' && needle[0] <= 'z';
	const fl_toks *t = w->t;
	if (nm == NONE)
		return false;
	size_t e = nm + 1;
	if (is_p(t, nm + 1, '(') && w->m[nm + 1] != NONE)
		e = w->m[nm + 1];
	for (size_t k = nm; k < e; k++)
		if (t->v[k].kind == FL_TK_IDENT &&
		    (ci ? contains_ci(t->src + t->v[k].off, t->v[k].len, needle)
			: fl_memmem(t->src + t->v[k].off, t->v[k].len, needle,
				 strlen(needle)) != NULL))
			return true;
	return false;
}

/* A message that is one lower-case word (`self.fail("invalid")`): the key
 * of a table of messages (Django REST framework's and marshmallow's
 * Field.fail), not the message. */
static bool message_key(const char *m)
{
	if (!m || !*m)
		return false;
	for (const char *p = m; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

/* ---- texts that say they are errors ----------------------------------------
 * `err(f"error: cannot format {src}: {message}")`, `self.out("fatal: no
 * remote")`: a call of some output helper (its name says it writes,
 * reports or fails) whose first argument is a text that starts by saying
 * it is an error or a warning, as a CLI prints one.  The helper is not
 * known to print to stderr or to stop the program (reporters above): the
 * text's own first word says what it is, as C's is_err_stream reads a
 * format. */

static bool says_error(const char *m)
{
	static const char *const lead[] = {"error: ", "fatal: ", "warning: ", NULL};
	for (const char *const *l = lead; *l; l++)
		if (strncasecmp(m, *l, strlen(*l)) == 0)
			return m[strlen(*l)] != '\0' && m[strlen(*l)] != '{';
	return false;
}

/* Whether the call at i (path from pb) is such a call: its name names
 * output, its first argument a string literal (plain or f-string) that
 * says it is an error. */
static bool announcing_call(const walker *w, size_t i, size_t pb)
{
	const fl_toks *t = w->t;
	static const char *const verbs[] = {"err", "fail", "die", "fatal", "warn", "print", "echo",
					    "write", "log", "report", "abort", "exit", "out", "emit",
					    "show", "display", "notify", "complain", "panic", NULL};
	if (pb > 0 && (fl_tok_is_ident(t, pb - 1, "raise") || fl_tok_is_ident(t, pb - 1, "return")))
		return false;
	if (i + 2 >= t->n || t->v[i + 2].kind != FL_TK_STRING ||
	    (t->v[i + 2].flags & FL_TF_BYTES))
		return false;
	const char *nm = t->src + t->v[i].off;
	size_t nl = t->v[i].len;
	if (py_excy_name(nm, nl))
		return false; /* an exception's constructor: raise.c's */
	bool verb = false;
	for (const char *const *v = verbs; *v && !verb; v++)
		verb = contains_ci(nm, nl, *v);
	return verb && says_error(fl_tok_str(t, &t->v[i + 2]));
}

/* The callee and its receiver (the component before it) of the call at
 * ident i whose path starts at pb. */
struct callee {
	const char *nm, *rv;
	size_t nl, rl;
};

static struct callee callee_of(const walker *w, size_t i, size_t pb)
{
	const fl_toks *t = w->t;
	struct callee c = {t->src + t->v[i].off, NULL, t->v[i].len, 0};
	if (i >= pb + 2) {
		c.rv = t->src + t->v[i - 2].off;
		c.rl = t->v[i - 2].len;
	}
	return c;
}

#define NM(s) (ce.nl == sizeof(s) - 1 && memcmp(ce.nm, s, ce.nl) == 0)
#define RV(s) (ce.rl == sizeof(s) - 1 && memcmp(ce.rv, s, ce.rl) == 0)

/* What the call at ident i reports by its callee and receiver: 1
 * flask's abort, 2 an argparse parser's error, 3 sys.exit, 4
 * warnings.warn, 5 a logger's error/warning/log, 6 Click's fail, 7 a
 * print to stderr or in an exception handler; 0 none of these.  *sev and
 * *idiom as the kind says. */
static int call_kind(walker *w, size_t i, size_t pb, const char **sev, const char **idiom)
{
	const fl_toks *t = w->t;
	struct callee ce = callee_of(w, i, pb);
	const char *rv = ce.rv;
	size_t rl = ce.rl;
	int kind = 0;
	*sev = FL_S_ERROR;
	*idiom = NULL;
	if (NM("abort") && (!rv || RV("flask"))) {
		kind = 1;
	} else if (NM("error") && rv && contains_ci(rv, rl, "parser")) {
		kind = 2;
		*idiom = "parser.error";
	} else if (NM("error") && rv && RV("self") &&
		   class_mentions(w, cur_class(w), "parser")) {
		/* a method of an argparse.ArgumentParser subclass */
		kind = 2;
		*idiom = "parser.error";
	} else if (NM("fail") && w->click && rv &&
		   (RV("ctx") || RV("context") ||
		    (RV("self") && !class_mentions(w, cur_class(w), "Test")))) {
		/* Click: Context.fail raises UsageError, ParamType.fail
		 * BadParameter */
		kind = 6;
		*idiom = RV("self") ? "self.fail" : "ctx.fail";
	} else if (NM("exit") && rv && RV("sys")) {
		kind = 3;
		*idiom = "sys.exit";
	} else if (NM("print") && !rv && to_stderr(t, w->m, i + 1)) {
		/* print(..., file=sys.stderr): C's fprintf(stderr, ...) */
		kind = 7;
		*idiom = "print(file=sys.stderr)";
	} else if (NM("print") && !rv && !has_kw(t, w->m, i + 1, "file", NULL, NULL) &&
		   py_innermost(w, B_EXCEPT) != NONE &&
		   (py_innermost(w, B_DEF) == NONE || py_innermost(w, B_EXCEPT) > py_innermost(w, B_DEF))) {
		/* print(...) in an exception handler of its function: the
		 * program's report of the failure it caught */
		kind = 7;
		*idiom = "print in except";
	} else if (NM("write") && rv && RV("stderr") && i >= pb + 4 && fl_tok_is_ident(t, i - 4, "sys")) {
		kind = 7;
		*idiom = "sys.stderr.write";
	} else if ((NM("print") || NM("echo") || NM("secho") ||
		    (contains_ci(ce.nm, ce.nl, "write") && contains_ci(ce.nm, ce.nl, "line")) ||
		    (NM("write") && rv && contains_ci(rv, rl, "out"))) &&
		   !has_kw(t, w->m, i + 1, "file", NULL, NULL) && w->m[i + 1] != NONE &&
		   failure_follows(t, w->m, pb, w->m[i + 1])) {
		/* a print right before a failing exit or status (pre-commit's
		 * `output.write_line(f'No hook with id ...')` then `return
		 * 1`): what the program says went wrong */
		kind = 7;
		*idiom = "print before a failing exit";
	} else if (NM("warn") && (!rv || RV("warnings"))) {
		kind = 4;
		*idiom = "warnings.warn";
	} else if (contains_ci(ce.nm, ce.nl, "log") &&
		   (contains_ci(ce.nm, ce.nl, "error") || contains_ci(ce.nm, ce.nl, "warn")) &&
		   !NM("log") && ce.nl > 3 && i + 2 < t->n && t->v[i + 2].kind == FL_TK_STRING &&
		   words_outside_holes(fl_tok_str(t, &t->v[i + 2]), t->v[i + 2].slen) >= 2) {
		/* a method whose name says it logs an error or a warning,
		 * given a text of words (httpie's `env.log_error(f'Request
		 * timed out ...', level=LogLevel.WARNING)`) */
		kind = 5;
		*sev = contains_ci(ce.nm, ce.nl, "warn") || kw_mentions(t, w->m, i + 1, "level", "WARN")
			       ? FL_S_WARNING
			       : FL_S_ERROR;
	} else if (rv && (contains_ci(rv, rl, "log") || contains_ci(rv, rl, "reporter")) &&
		   (NM("error") || NM("exception") || NM("critical") ||
		    NM("fatal") || NM("warning") || NM("warn") || NM("log"))) {
		kind = 5;
		*sev = (NM("critical") || NM("fatal")) ? FL_S_CRITICAL
		      : (NM("warning") || NM("warn")) ? FL_S_WARNING
						       : FL_S_ERROR;
	}
	return kind;
}

/* The site of the call at ident i of that kind (call_kind; 8: a helper
 * whose text says it is an error), its arguments a. */
static void emit_call(walker *w, size_t i, size_t pb, int kind, const char *sev, const char *idiom,
		      const callargs *a)
{
	const fl_toks *t = w->t;
	struct callee ce = callee_of(w, i, pb);
	char *msg = NULL, *cls = NULL, *path = NULL;
	switch (kind) {
	case 1: { /* abort(status, msg) */
		if (a->npos < 1)
			break;
		int st = py_status_of(t, a->st[a->pos[0]], a->en[a->pos[0]]);
		if (!st)
			break;
		if (a->npos > 1)
			msg = py_arg_msg(w, a, a->pos[1], false);
		if (!msg) {
			static const char *const k[] = {"description", NULL};
			msg = py_kw_msg(w, a, k);
		}
		path = fl_tok_span_text(t, pb, i + 1, 64);
		py_emit(w, pb, msg, NULL, NULL, FL_T_HTTP, fl_http_severity(st), st, path);
		break;
	}
	case 2:
	case 3:
		/* the program stops with the message (argparse exits with
		 * status 2, sys.exit(text) with 1): C's errx() alike */
		if (a->npos < 1)
			break;
		msg = py_arg_msg(w, a, a->pos[0], false);
		py_emit(w, pb, msg, NULL, NULL, FL_T_CONSOLE, FL_S_CRITICAL, 0,
			idiom);
		break;
	case 4: {
		msg = a->npos > 0 ? py_arg_msg(w, a, a->pos[0], false) : NULL;
		if (!msg) {
			static const char *const k[] = {"message", NULL};
			msg = py_kw_msg(w, a, k);
		}
		size_t ck = a->npos > 1 ? a->pos[1] : py_kwarg(t, a, "category");
		if (ck != NONE && a->en[ck] > a->st[ck] &&
		    t->v[a->en[ck] - 1].kind == FL_TK_IDENT)
			cls = fl_tok_dup(t, a->en[ck] - 1);
		py_emit(w, pb, msg, NULL, cls, FL_T_CONSOLE, FL_S_WARNING, 0,
			idiom);
		break;
	}
	case 5: {
		size_t mp = 0;
		if (NM("log")) {
			/* logging.log(logging.ERROR, "...") */
			if (a->npos < 2)
				break;
			size_t lk = a->pos[0];
			if (a->en[lk] <= a->st[lk])
				break;
			size_t lt = a->en[lk] - 1;
			if (fl_tok_is(t, lt, "ERROR"))
				sev = FL_S_ERROR;
			else if (fl_tok_is(t, lt, "CRITICAL") ||
				 fl_tok_is(t, lt, "FATAL"))
				sev = FL_S_CRITICAL;
			else if (fl_tok_is(t, lt, "WARNING") ||
				 fl_tok_is(t, lt, "WARN"))
				sev = FL_S_WARNING;
			else
				break;
			mp = 1;
		}
		if (a->npos <= mp)
			break;
		msg = py_arg_msg(w, a, a->pos[mp], a->npos > mp + 1);
		path = fl_tok_span_text(t, pb, i + 1, 64);
		py_emit(w, pb, msg, NULL, NULL, FL_T_CONSOLE, sev, 0, path);
		break;
	}
	case 7: {
		/* print's positional arguments joined by spaces, a write's
		 * one; a warning when it says so */
		fl_buf b = {0};
		size_t np = NM("print") ? a->npos : (a->npos ? 1 : 0);
		for (size_t k = 0; k < np; k++) {
			char *part = py_arg_msg(w, a, a->pos[k], false);
			if (!part) {
				char *x = fl_tok_span_text(t, a->st[a->pos[k]], a->en[a->pos[k]], 60);
				part = fl_xasprintf("{%s}", x);
				free(x);
			}
			if (k)
				fl_buf_putc(&b, ' ');
			fl_buf_puts(&b, part);
			free(part);
		}
		fl_buf_cstr(&b);
		msg = b.s;
		if (!msg)
			break;
		fl_msg_trim(msg);
		py_emit(w, pb, msg, NULL, NULL, FL_T_CONSOLE, fl_print_severity(msg), 0, idiom);
		break;
	}
	case 8:
		/* the text says what it is: an error, printed by a helper */
		if (a->npos < 1)
			break;
		msg = py_arg_msg(w, a, a->pos[0], false);
		path = fl_tok_span_text(t, pb, i + 1, 64); /* the helper's name */
		if (msg && says_error(msg))
			py_emit(w, pb, msg, NULL, NULL, FL_T_CONSOLE, fl_print_severity(msg), 0,
				path);
		break;
	case 6: {
		if (a->npos < 1)
			break;
		msg = py_arg_msg(w, a, a->pos[0], false);
		if (message_key(msg))
			break;
		size_t c = cur_class(w);
		bool usage = !RV("self") ||
			     (c != NONE && fl_tok_is(t, c, "Context"));
		py_emit(w, pb, msg, NULL, usage ? "UsageError" : "BadParameter",
			FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
		break;
	}
	}
	free(msg);
	free(cls);
	free(path);
}

#undef NM
#undef RV

/* A method named for failing that no rule of the tree knows, given a text
 * of words: a checker's `self.fail("Statement is unreachable", ctx,
 * code=...)`, `self.msg.fail(...)` (mypy's MessageBuilder.fail; not
 * unittest's, which tests hold, nor Click's, kind 6) reports it. */
static bool local_is_param(const walker *w, size_t v);

static bool named_fail(walker *w, size_t i, size_t pb)
{
	const fl_toks *t = w->t;
	if (!(i > pb && fl_tok_is_ident(t, i, "fail") && !w->click && i + 3 < t->n &&
	      !class_mentions(w, cur_class(w), "Test")))
		return false;
	if (t->v[i + 2].kind == FL_TK_STRING)
		return words_outside_holes(fl_tok_str(t, &t->v[i + 2]), t->v[i + 2].slen) >= 2;
	/* a local holding the text (`message = f'Name "{name}" is not
	 * defined'; self.fail(message, ctx)`): its bindings, when there
	 * are (py_emit) */
	return t->v[i + 2].kind == FL_TK_IDENT && is_p(t, i + 3, ',') && !local_is_param(w, i + 2);
}

/* Whether the name at token v is a parameter of the innermost def
 * (`def fail(self, msg, ctx)`: a text handed in, the caller's). */
static bool local_is_param(const walker *w, size_t v)
{
	const fl_toks *t = w->t;
	size_t d = py_innermost(w, B_DEF);
	if (d == NONE || w->blk[d].name == NONE)
		return false;
	size_t o = w->blk[d].name + 1;
	if (!is_p(t, o, '(') || w->m[o] == NONE)
		return false;
	for (size_t q = o + 1; q < w->m[o]; q++)
		if (t->v[q].kind == FL_TK_IDENT && t->v[q].len == t->v[v].len &&
		    memcmp(t->src + t->v[q].off, t->src + t->v[v].off, t->v[v].len) == 0 &&
		    (is_p(t, q - 1, '(') || is_p(t, q - 1, ',') || is_p(t, q - 1, '*')))
			return true;
	return false;
}

/* A call given a message constant of a module named for messages or
 * errors (`self.fail(message_registry.UNREACHABLE, ctx)`,
 * `self.check_subtype(t, s, ctx, message_registry.INCOMPATIBLE_TYPES)`,
 * the constant `NAME: Final = ErrorMessage("text", ...)` or a literal):
 * the call reports that text.  True when it made a site. */
static bool registry_call(walker *w, size_t i, size_t pb)
{
	const fl_toks *t = w->t;
	callargs a;
	size_t close;
	if (!py_get_args(w, i + 1, &a, &close))
		return false;
	for (size_t k = 0; k < a.n; k++) {
		size_t b = a.st[k], e = a.en[k];
		/* the constant, or its text formatted: X.format(...) */
		bool fmt = e >= b + 6 && is_p(t, b + 3, '.') && fl_tok_is_ident(t, b + 4, "format") &&
			   is_p(t, b + 5, '(') && w->m[b + 5] == e - 1;
		if ((e != b + 3 && !fmt) || t->v[b].kind != FL_TK_IDENT ||
		    !(fl_tok_contains_ci(t, b, "message") || fl_tok_contains_ci(t, b, "error")))
			continue;
		char *msg = py_module_const(w, b);
		if (!msg)
			continue;
		char *path = fl_tok_span_text(t, pb, i + 1, 64);
		py_emit(w, pb, msg, NULL, NULL, FL_T_CONSOLE, FL_S_ERROR, 0, path);
		free(path);
		free(msg);
		return true;
	}
	return false;
}

/* a call at ident i with '(' at i+1: path is [pb, i] */
void py_do_call(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	w->var = NONE;
	w->var_fmt = 0;
	free(w->plural);
	w->plural = NULL;
	size_t pb = i;
	while (pb >= 2 && is_p(t, pb - 1, '.') &&
	       t->v[pb - 2].kind == FL_TK_IDENT && i - pb < 16)
		pb -= 2;
	if (pb > 0 && (fl_tok_is_ident(t, pb - 1, "def") ||
		       fl_tok_is_ident(t, pb - 1, "class") ||
		       is_p(t, pb - 1, '.')))
		return;
	if (py_stored_exception(w, i, pb)) {
		py_do_stored(w, i, pb);
		return;
	}
	if (py_msg_table_call(w, i, pb))
		return;
	const char *sev, *idiom;
	int kind = call_kind(w, i, pb, &sev, &idiom);
	if (!kind) {
		if (!reporter_call(w, i, pb) && !py_raiser_call(w, i, pb, false) &&
		    !py_keyed_call(w, i, pb)) {
			if (named_fail(w, i, pb)) {
				kind = 5;
				sev = FL_S_ERROR;
			} else if (registry_call(w, i, pb)) {
				return;
			} else if (announcing_call(w, i, pb)) {
				kind = 8;
			}
		}
		if (!kind)
			return;
	}
	callargs a;
	size_t close;
	if (!py_get_args(w, i + 1, &a, &close) || a.n == 0)
		return;
	emit_call(w, i, pb, kind, sev, idiom, &a);
}
