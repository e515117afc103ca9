/*
 * locals.c — C messages that reach a reporter through a local variable of
 * its function, or as a choice between literals:
 *
 *   const char *zMsg = view ? "no such view" : "no such table";
 *   report(p, "%s: %s", zMsg, zName);            two messages, one a value
 *   const char *zFmt = "sub-select returns %d columns";
 *   report(p, zFmt, n);                          the format held in zFmt
 *   zErr = mprintf("database %s is in use", z);  built by a formatter,
 *   snprintf(zErr, sizeof zErr, "no such db: %s", z);   or into a buffer,
 *   zErr = syntax_error(z);    by a function of the file returning one,
 *   result_error(ctx, zErr, -1);                 then reported
 *   report(p, done ? "cannot commit" : "cannot start");  a literal choice
 *
 * The values are the variable's assignments in the function before the
 * call (the nearest first) (a formatter is a call whose name holds "printf").  sites.c asks for
 * them only where the call gave no message otherwise.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "c.h"

#define ALT_MAX 8   /* messages of one call at most */
#define VAL_MAX 8   /* values of one variable or choice at most */
#define VAR_SETS 32 /* a variable's uses looked at, back from the call */

/* one value an expression can have: a literal's tokens [b, e), or a
 * formatter's message (msg, owned) */
typedef struct val {
	size_t b, e;
	char *msg;
} val;

typedef struct vals {
	val v[VAL_MAX];
	int n;
	bool open; /* a choice's arm gave no value (`e ? strerror (e) :
		      _("reason unknown")`): the placeholder is a value too */
} vals;

static void vals_free(vals *vs)
{
	for (int i = 0; i < vs->n; i++)
		free(vs->v[i].msg);
	vs->n = 0;
}

static bool all_strings(const fl_toks *t, size_t b, size_t e)
{
	if (b >= e)
		return false;
	for (size_t k = b; k < e; k++)
		if (t->v[k].kind != FL_TK_STRING)
			return false;
	return true;
}

/* the end of the expression starting at b: the first `;` or `,` outside
 * brackets, or an unmatched closing bracket (at most lim) */
static size_t expr_end(const ctx *c, size_t b, size_t lim)
{
	const fl_toks *t = c->t;
	size_t k = b;
	while (k < lim && !tk_p1(t, k, ';') && !tk_p1(t, k, ',') && !is_close(t, k)) {
		if (is_open(t, k) && c->mt[k] != NONE && c->mt[k] > k && c->mt[k] < lim)
			k = c->mt[k];
		k++;
	}
	return k;
}

/* The message of a formatter call NAME(...) at name token f (its `(` at
 * f + 1): its first literal argument is the format.  NULL when f is no
 * formatter or the format has no text. */
static char *formatter_msg(const ctx *c, size_t f)
{
	const fl_toks *t = c->t;
	if (t->v[f].kind != FL_TK_IDENT || !tk_p1(t, f + 1, '(') || c->mt[f + 1] == NONE ||
	    !c_icontains(t->src + t->v[f].off, t->v[f].len, "printf"))
		return NULL;
	size_t st[16], en[16];
	int na = c_split_args(c, f + 1, st, en, 16);
	for (int a = 0; a < na; a++)
		if (c_arg_is_literal(c, st[a], en[a], true))
			return c_fmt_msg(c, st, en, na, a);
	return NULL;
}

/* An SQL statement the program runs, not a message: an upper-case
 * command word first and a clause word after it ("SELECT %s FROM '%q'",
 * "UPDATE \"%w\" SET %s", "PRAGMA %Q.%s") */
static bool sql_text(const char *m)
{
	static const char *const cmd[] = {"SELECT ", "INSERT ", "UPDATE ", "DELETE ",
					  "REPLACE ", "CREATE ", "DROP ", "ALTER ", "WITH ",
					  "PRAGMA ", NULL};
	static const char *const clause[] = {" FROM ", " SET ", " INTO ", " VALUES",
					     " WHERE ", " TABLE ", " INDEX ", " AS ", NULL};
	for (int i = 0; cmd[i]; i++) {
		if (strncmp(m, cmd[i], strlen(cmd[i])) != 0)
			continue;
		if (i == 9)
			return true;
		for (int j = 0; clause[j]; j++)
			if (strstr(m, clause[j]))
				return true;
	}
	return false;
}

static void vals_add_msg(vals *vs, char *m)
{
	if (m && sql_text(m)) {
		free(m);
		return;
	}
	if (!m)
		return;
	for (int i = 0; i < vs->n; i++)
		if (vs->v[i].msg && strcmp(vs->v[i].msg, m) == 0) {
			free(m);
			return;
		}
	if (vs->n == VAL_MAX) {
		free(m);
		return;
	}
	vs->v[vs->n++] = (val){0, 0, m};
}

static size_t simple_fn_value(const ctx *c, size_t name, size_t *ve);

/* The values of expression [b, e): literals, a choice `?:` between
 * values, a formatter's message, or a call of a function of the file that
 * returns one of those (depth: how many such calls deep; lvl: how many
 * choices or calls). */
static void expr_vals(const ctx *c, size_t b, size_t e, vals *vs, int depth, int lvl)
{
	const fl_toks *t = c->t;
	while (b + 1 < e && tk_p1(t, b, '(') && c->mt[b] == e - 1) {
		b++;
		e--;
	}
	if (b >= e || vs->n >= VAL_MAX || depth > 3 || lvl > 32)
		return;
	/* "..." "...", a string constant of the file, _("...") */
	if (all_strings(t, b, e) || (e == b + 1 && c_arg_is_literal(c, b, e, true)) ||
	    (c_arg_is_literal(c, b, e, true) && t->v[b].kind == FL_TK_IDENT &&
	     c->mt[b + 1] == e - 1)) {
		vs->v[vs->n++] = (val){b, e, NULL};
		return;
	}
	/* cond ? x : y, at this level (a `?` in a nested choice pairs with
	 * its own `:`) */
	size_t q = NONE, col = NONE;
	int nest = 0;
	for (size_t k = b; k < e; k++) {
		if (is_open(t, k) && c->mt[k] != NONE && c->mt[k] > k && c->mt[k] < e) {
			k = c->mt[k];
			continue;
		}
		if (tk_p1(t, k, '?')) {
			if (q == NONE)
				q = k;
			else
				nest++;
		} else if (tk_p1(t, k, ':') && q != NONE) {
			if (nest) {
				nest--;
			} else {
				col = k;
				break;
			}
		}
	}
	if (q != NONE && col != NONE) {
		int before = vs->n;
		expr_vals(c, q + 1, col, vs, depth, lvl + 1);
		if (vs->n == before)
			vs->open = true;
		before = vs->n;
		expr_vals(c, col + 1, e, vs, depth, lvl + 1);
		if (vs->n == before)
			vs->open = true;
		return;
	}
	/* NAME(...) spanning the expression */
	if (t->v[b].kind != FL_TK_IDENT || !tk_p1(t, b + 1, '(') || c->mt[b + 1] != e - 1)
		return;
	char *m = formatter_msg(c, b);
	if (m) {
		vals_add_msg(vs, m);
		return;
	}
	size_t ve, vb = simple_fn_value(c, b, &ve);
	if (vb != NONE)
		expr_vals(c, vb, ve, vs, depth + 1, lvl + 1);
}

/* A function of the file named as token name, whose body is one
 * `return EXPR;`: the first token of EXPR (its end in *ve), else NONE. */
/* each look-up reads the whole file: a file gets so many (a function
 * assigning a variable from calls thousands of times stays linear) */
#define FN_SCANS 256
static _Thread_local unsigned fn_scans;

void c_locals_begin(void)
{
	fn_scans = 0;
}

static size_t simple_fn_value(const ctx *c, size_t name, size_t *ve)
{
	const fl_toks *t = c->t;
	if (++fn_scans > FN_SCANS)
		return NONE;
	const char *s = t->src + t->v[name].off;
	size_t n = t->v[name].len;
	for (size_t j = 0; j + 4 < t->n; j++) {
		if (j == name || t->v[j].kind != FL_TK_IDENT || t->v[j].len != n ||
		    memcmp(t->src + t->v[j].off, s, n) != 0 || !tk_p1(t, j + 1, '(') ||
		    (t->v[j].flags & TF_DIR))
			continue;
		size_t cp = c->mt[j + 1];
		if (cp == NONE || cp <= j || !tk_p1(t, cp + 1, '{') || !tk_id(t, cp + 2, "return"))
			continue;
		size_t body_end = c->mt[cp + 1];
		size_t e = expr_end(c, cp + 3, t->n);
		if (body_end == NONE || !tk_p1(t, e, ';') || e + 1 != body_end)
			continue;
		*ve = e;
		return cp + 3;
	}
	return NONE;
}

/* The body of the function around token i: the outermost enclosing `{`
 * that follows a `)` (or a K&R definition's parameter declarations), or
 * NONE. */
static size_t fn_body(const ctx *c, size_t i)
{
	const fl_toks *t = c->t;
	size_t body = NONE;
	for (size_t k = i; k-- > 0;) {
		if (t->v[k].flags & TF_DIR)
			continue;
		if (is_close(t, k) && c->mt[k] != NONE && c->mt[k] < k) {
			k = c->mt[k];
			continue;
		}
		if (tk_p1(t, k, '{') && k > 0 &&
		    (tk_p1(t, k - 1, ')') || (tk_p1(t, k - 1, ';') && c_knr_name(c, k) != NONE)))
			body = k;
	}
	return body;
}

static bool same_name(const fl_toks *t, size_t a, size_t b)
{
	return t->v[a].kind == FL_TK_IDENT && t->v[a].len == t->v[b].len &&
	       memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) == 0;
}

/* A formatter that writes into its first or second argument: a name
 * ending in sprintf or snprintf (sprintf, g_snprintf, asprintf's `&buf`) */
static bool writes_into(const fl_toks *t, size_t f)
{
	const char *s = t->src + t->v[f].off;
	size_t n = t->v[f].len;
	return t->v[f].kind == FL_TK_IDENT &&
	       ((n >= 7 && ieq(s + n - 7, 7, "sprintf")) || (n >= 8 && ieq(s + n - 8, 8, "snprintf")));
}

/* The values the variable named at token v can hold when the call at
 * token call reads it: its assignments (`NAME = ...`, a declaration's
 * initializer) and the formatters writing into it (`snprintf(NAME, ...)`,
 * `asprintf(&NAME, ...)`) in the function before the call. */
static void var_vals(const ctx *c, size_t v, size_t call, vals *vs)
{
	const fl_toks *t = c->t;
	size_t body = fn_body(c, call);
	if (body == NONE)
		return;
	int seen = 0;
	for (size_t k = call; k-- > body + 1 && vs->n < VAL_MAX && seen < VAR_SETS;) {
		if (k == v || !same_name(t, k, v) || (t->v[k].flags & TF_DIR) ||
		    tk_p1(t, k - 1, '.') || tk_p(t, k - 1, "->"))
			continue;
		seen++;
		if (tk_p1(t, k + 1, '=')) {
			size_t e = expr_end(c, k + 2, call);
			if (e < call)
				expr_vals(c, k + 2, e, vs, 0, 0);
			continue;
		}
		/* an argument of a formatter writing into it, before the format */
		size_t a = tk_p1(t, k - 1, '&') ? k - 1 : k;
		if (!tk_p1(t, k + 1, ',') || !(tk_p1(t, a - 1, '(') || tk_p1(t, a - 1, ',')))
			continue;
		size_t op = a - 1;
		while (op > body && !tk_p1(t, op, '(')) {
			if (is_close(t, op) && c->mt[op] != NONE && c->mt[op] < op)
				op = c->mt[op];
			else if (tk_p1(t, op, ';') || tk_p1(t, op, '{') || tk_p1(t, op, '}'))
				break;
			op--;
		}
		if (!tk_p1(t, op, '(') || op == 0 || c->mt[op] == NONE || c->mt[op] < k ||
		    !writes_into(t, op - 1) || !(a == op + 1 || (tk_p1(t, a - 1, ',') &&
								 expr_end(c, op + 1, a) == a - 1)))
			continue;
		vals_add_msg(vs, formatter_msg(c, op - 1));
	}
}

/* The values of argument [b, e) of the call at token call: a variable's
 * (one identifier) or a choice's. */
static void arg_vals(const ctx *c, size_t call, size_t b, size_t e, vals *vs)
{
	const fl_toks *t = c->t;
	if (e == b + 1 && t->v[b].kind == FL_TK_IDENT)
		var_vals(c, b, call, vs);
	else if (!(t->v[b].kind == FL_TK_IDENT && tk_p1(t, b + 1, '(') && c->mt[b + 1] == e - 1))
		expr_vals(c, b, e, vs, 0, 0); /* a choice; not a call given as the
					      argument (an SQL text built for a
					      statement the call runs) */
}

static void alt_put(fl_strv *out, char *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i], m) == 0) {
			free(m);
			return;
		}
	if (out->n < ALT_MAX)
		fl_strv_push(out, m);
	free(m);
}

/* The messages of a format taken from argument fmt's values, each with
 * the %s arguments after it that hold literals (a variable's or a choice's)
 * shown as each of their values. */
static void fmt_with_values(const ctx *c, size_t call, size_t *st, size_t *en, int na,
			    int fmt, fl_strv *out)
{
	/* the first argument after the format with literal values: each of
	 * them in turn (one such argument is enough for the idiom) */
	for (int a = fmt + 1; a < na; a++) {
		if (c_arg_is_literal(c, st[a], en[a], true))
			continue;
		vals av = {0};
		arg_vals(c, call, st[a], en[a], &av);
		bool lit = false;
		size_t sb = st[a], se = en[a];
		for (int i = 0; i < av.n; i++) {
			if (av.v[i].msg)
				continue;
			lit = true;
			st[a] = av.v[i].b;
			en[a] = av.v[i].e;
			alt_put(out, c_fmt_msg(c, st, en, na, fmt));
		}
		st[a] = sb;
		en[a] = se;
		bool open = av.open;
		vals_free(&av);
		if (lit) {
			if (open) /* the other arm's text, whatever it is */
				alt_put(out, c_fmt_msg(c, st, en, na, fmt));
			return;
		}
	}
	alt_put(out, c_fmt_msg(c, st, en, na, fmt));
}

/* The messages of argument a's values (a variable's, a choice's), each a
 * format for the arguments after it; words: a literal value must hold two
 * words at least (a reporter that takes no format: "no such view" is a
 * message, "rb" or "main" is not).  False when a has no values. */
static bool values_as_format(const ctx *c, size_t call, size_t *st, size_t *en, int na,
			     int a, bool words, fl_strv *out)
{
	const fl_toks *t = c->t;
	vals vs = {0};
	arg_vals(c, call, st[a], en[a], &vs);
	if (!vs.n)
		return false;
	size_t sb = st[a], se = en[a];
	for (int i = 0; i < vs.n; i++) {
		if (vs.v[i].msg) {
			alt_put(out, fl_xstrdup(vs.v[i].msg));
			continue;
		}
		bool two = !words;
		for (size_t x = vs.v[i].b; x < vs.v[i].e && !two; x++)
			two = t->v[x].kind == FL_TK_STRING &&
			      memchr(fl_tok_str(t, &t->v[x]), ' ', t->v[x].slen);
		if (!two)
			continue;
		st[a] = vs.v[i].b;
		en[a] = vs.v[i].e;
		fmt_with_values(c, call, st, en, na, a, out);
	}
	st[a] = sb;
	en[a] = se;
	vals_free(&vs);
	return true;
}

int c_alt_msgs(const ctx *c, size_t call, const size_t *st0, const size_t *en0, int na,
	       int fmt, fl_strv *out)
{
	const fl_toks *t = c->t;
	size_t st[32], en[32];
	if (na <= 0 || na > 32)
		return 0;
	memcpy(st, st0, (size_t)na * sizeof *st);
	memcpy(en, en0, (size_t)na * sizeof *en);
	size_t before = out->n;
	/* the format argument is known: a literal's %s arguments' values, or
	 * the values of a variable or a choice given as the format */
	if (fmt >= 0) {
		if (fmt >= na)
			return 0;
		if (c_arg_is_literal(c, st[fmt], en[fmt], true))
			fmt_with_values(c, call, st, en, na, fmt, out);
		else
			values_as_format(c, call, st, en, na, fmt, false, out);
		return (int)(out->n - before);
	}
	/* no literal argument: the first one whose values are messages, each
	 * a format for the arguments after it */
	for (int a = 0; a < na && out->n == before; a++) {
		/* an argument holding a literal is the message, though no
		 * literal starts it (`PACKAGE " read: %s"`): the arguments
		 * after it are its values */
		bool str = false;
		for (size_t x = st[a]; x < en[a] && !str; x++)
			str = t->v[x].kind == FL_TK_STRING;
		char *m = str ? c_fmt_msg(c, st, en, na, a) : NULL;
		if (m) {
			free(m);
			fmt_with_values(c, call, st, en, na, a, out);
			break;
		}
		if (!values_as_format(c, call, st, en, na, a, true, out) && str)
			break; /* a literal that is no message: none after it */
	}
	return (int)(out->n - before);
}
