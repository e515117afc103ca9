/*
 * raisers.c — the tree's own raising helpers (lib/scan/python/, python.h):
 * functions that raise an error whose message is one of their parameters
 * (`def _fail(self, message): raise ValueError(message)`, `def check(ok,
 * msg): if not ok: raise ConfigError(msg)`), and factories that return
 * one (`def suffixed_err(src, pos, msg): return DecodeError(f"{msg} (at
 * {pos})")`).  The helper's own raise names no text; each call that gives
 * one is the site: `self._fail("no input")` raises ValueError("no
 * input"), `raise suffixed_err(src, pos, "Unclosed array")` a
 * DecodeError("Unclosed array (at {pos})").  When the helper raises only
 * on a condition of its parameters, that condition, with the call's
 * arguments in place of the parameters, is the call's guard.
 *
 * The collect pass keeps, for each such def of the tree:
 *   "rai:NAME"  the message with {param} placeholders, the class, the
 *               status (bit 0: a method; bit 1: a factory, whose value is
 *               raised) and the parameters (one per line, without self);
 *   "raic:NAME" the condition with {param} placeholders ("" for none).
 * Two defs of one name that disagree leave no message (fl_classdefs).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "python.h"

#define RAI_MAX_TOKS 400

/* A byte scan: `raise Name(ident` or `return Name(ident` whose first
 * argument is a plain name (`message`, `msg % args`), an f-string or a
 * literal joined to or formatted with more, or `raise name` alone: the
 * file can define a raising helper.  It may answer yes wrongly, never no wrongly for the
 * helpers collect() keeps. */
bool py_has_raiser(const char *s, size_t n)
{
	static const char *const kw[] = {"raise ", "return "};
	for (size_t w = 0; w < 2; w++) {
		size_t kl = strlen(kw[w]);
		for (const char *p = s; (p = fl_memmem(p, (size_t)(s + n - p), kw[w], kl)) != NULL;) {
			const char *q = p + kl, *end = s + n;
			p = q;
			const char *c0 = q;
			while (q < end && (*q == '_' || *q == '.' || (*q >= 'a' && *q <= 'z') ||
					   (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9')))
				q++;
			/* `raise error` of a local made before (local_call) */
			if (w == 0 && q > c0 && *c0 >= 'a' && *c0 <= 'z' && !memchr(c0, '.', (size_t)(q - c0))) {
				const char *e = q;
				while (e < end && (*e == ' ' || *e == '\r'))
					e++;
				if (e >= end || *e == '\n')
					return true;
			}
			if (q == c0 || q >= end || *q != '(')
				continue;
			q++;
			while (q < end && (*q == ' ' || *q == '\n'))
				q++;
			/* an f-string: f"{name} is out of range" */
			if (q + 1 < end && (*q == 'f' || *q == 'F') && (q[1] == '"' || q[1] == '\''))
				return true;
			/* a literal joined to or formatted with more: "bad
			 * value: " + name, "no %s" % name, "{}".format(name) */
			if (q < end && (*q == '"' || *q == '\'')) {
				char quote = *q++;
				while (q < end && *q != quote && *q != '\n')
					q += *q == '\\' ? 2 : 1;
				q++;
				while (q < end && *q == ' ')
					q++;
				if (q < end && (*q == '+' || *q == '%' || (*q == '.' && end - q > 7 &&
									   memcmp(q, ".format(", 8) == 0)))
					return true;
				continue;
			}
			if (q >= end || !((*q >= 'a' && *q <= 'z') || *q == '_'))
				continue;
			while (q < end && (*q == '_' || (*q >= 'a' && *q <= 'z') ||
					   (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9')))
				q++;
			while (q < end && *q == ' ')
				q++;
			if (q < end && (*q == ')' || *q == ',' || *q == '%' || *q == '+'))
				return true;
		}
	}
	return false;
}

static int param_of(const fl_toks *t, size_t k, char *const *pv, size_t np)
{
	if (t->v[k].kind != FL_TK_IDENT)
		return -1;
	for (size_t q = 0; q < np; q++)
		if (strlen(pv[q]) == t->v[k].len && memcmp(pv[q], t->src + t->v[k].off, t->v[k].len) == 0)
			return (int)q;
	return -1;
}

/* The parameter the operand [b, e) is, alone: its index, or -1 */
static int operand_param(const fl_toks *t, size_t b, size_t e, char *const *pv, size_t np)
{
	return e == b + 1 ? param_of(t, b, pv, np) : -1;
}

/* A helper's message formatted from a literal with its parameters: `"no
 * %s in %s" % (key, where)`, `"no {} in {}".format(key, where)`: the
 * literal at token lit with each conversion of a parameter written
 * {param} (the others kept), or NULL when none is a parameter. */
static char *named_format(const fl_toks *t, const size_t *m, size_t lit, size_t e, char *const *pv,
			  size_t np)
{
	size_t ab[FL_FAC_PARAMS], ae[FL_FAC_PARAMS], na = 0, close;
	bool pct = is_p(t, lit + 1, '%');
	if (pct) {
		/* % name, or % (a, b) */
		if (lit + 2 < e && is_p(t, lit + 2, '(') && m[lit + 2] == e - 1) {
			na = py_split_args(t, m, lit + 2, ab, ae, FL_FAC_PARAMS, &close);
		} else if (lit + 3 == e) {
			ab[0] = lit + 2;
			ae[0] = e;
			na = 1;
		}
	} else if (is_p(t, lit + 1, '.') && fl_tok_is_ident(t, lit + 2, "format") && is_p(t, lit + 3, '(') &&
		   m[lit + 3] == e - 1) {
		na = py_split_args(t, m, lit + 3, ab, ae, FL_FAC_PARAMS, &close);
	}
	if (na == 0 || na == NONE)
		return NULL;
	const char *s = fl_tok_str(t, &t->v[lit]);
	size_t n = t->v[lit].slen, next = 0;
	fl_buf out = {0};
	bool any = false;
	for (size_t p = 0; p < n;) {
		char open = pct ? '%' : '{';
		if (s[p] != open) {
			if (!pct && s[p] == '}' && p + 1 < n && s[p + 1] == '}')
				p++; /* "}}" is one brace */
			fl_buf_putc(&out, s[p++]);
			continue;
		}
		if (p + 1 < n && s[p + 1] == open) { /* "%%", "{{" */
			fl_buf_putc(&out, open);
			p += 2;
			continue;
		}
		size_t q = p + 1;
		int ref = -1;
		bool repr = false; /* %r, !r: a text given shows in quotes */
		if (pct) {
			/* %[flags][width][.prec]type; %(name)s is not ours */
			while (q < n && strchr("#0- +.0123456789", s[q]))
				q++;
			if (q >= n || !((s[q] >= 'a' && s[q] <= 'z') || (s[q] >= 'A' && s[q] <= 'Z'))) {
				fl_buf_free(&out);
				return NULL;
			}
			repr = s[q] == 'r';
			q++;
			if (next < na)
				ref = operand_param(t, ab[next], ae[next], pv, np);
			next++;
		} else {
			const char *c = memchr(s + q, '}', n - q);
			if (!c) {
				fl_buf_free(&out);
				return NULL;
			}
			size_t fe = (size_t)(c - s), an = q;
			while (an < fe && s[an] != ':' && s[an] != '!')
				an++;
			repr = an + 1 < fe && s[an] == '!' && s[an + 1] == 'r';
			if (an == q) {
				if (next < na)
					ref = operand_param(t, ab[next], ae[next], pv, np);
				next++;
			} else if (s[q] >= '0' && s[q] <= '9') {
				size_t idx = (size_t)atoi(s + q);
				if (idx < na)
					ref = operand_param(t, ab[idx], ae[idx], pv, np);
			} else {
				/* name=param among the arguments */
				for (size_t k = 0; k < na && ref < 0; k++)
					if (ae[k] == ab[k] + 3 && is_p(t, ab[k] + 1, '=') &&
					    t->v[ab[k]].len == an - q &&
					    memcmp(t->src + t->v[ab[k]].off, s + q, an - q) == 0)
						ref = operand_param(t, ab[k] + 2, ae[k], pv, np);
			}
			q = fe + 1;
		}
		if (ref >= 0) {
			fl_buf_printf(&out, repr ? "'{%s}'" : "{%s}", pv[ref]);
			any = true;
		} else {
			fl_buf_put(&out, s + p, q - p);
		}
		p = q;
	}
	fl_buf_cstr(&out);
	if (!any) {
		fl_buf_free(&out);
		return NULL;
	}
	return out.s;
}

/* Words a condition may hold besides the parameters (a bare name of any
 * other kind is a local of the helper, unknown at the call). */
static const char *const cond_words[] = {"not", "and", "or", "in", "is", "None", "True", "False", NULL};

/* The condition of the if whose block holds the raise at r, directly in
 * the body whose first statement is at token body: [*cb, *ce).  False
 * when the raise sits deeper, or under an elif or else. */
static bool raise_cond(const fl_toks *t, size_t body, size_t r, size_t *cb, size_t *ce)
{
	*cb = *ce = 0;
	size_t ls = r;
	while (ls > body && !(t->v[ls].flags & FL_TF_NL_BEFORE))
		ls--;
	if (ls == r) {
		/* the raise starts its line: in the body, or in an if's block */
		if (t->v[r].col == t->v[body].col)
			return true;
		size_t q = r;
		while (q > body) {
			q--;
			if ((t->v[q].flags & FL_TF_NL_BEFORE) && t->v[q].col < t->v[r].col)
				break;
		}
		if (t->v[q].col != t->v[body].col || !fl_tok_is_ident(t, q, "if") || !is_p(t, r - 1, ':'))
			return false;
		*cb = q + 1;
		*ce = r - 1;
		return true;
	}
	/* `if not ok: raise X(msg)` on one line */
	if (t->v[ls].col != t->v[body].col || !fl_tok_is_ident(t, ls, "if") || !is_p(t, r - 1, ':'))
		return false;
	*cb = ls + 1;
	*ce = r - 1;
	return true;
}

static void raiser_def(fl_classdefs *tr, const fl_toks *t, const size_t *m, size_t d);

/* `raise error` at r whose name (token v, alone on the line's rest) is a
 * local assigned once before it in the body (py_local_value), the value
 * of a call (`error = ErrorClass(message, cur_index, line)`, configobj):
 * the token before the callee ('='), or NONE. */
static size_t local_call(const fl_toks *t, const size_t *m, size_t body, size_t r, size_t v)
{
	size_t b, e;
	if (t->v[v].kind != FL_TK_IDENT || (v + 1 < t->n && !(t->v[v + 1].flags & FL_TF_NL_BEFORE)) ||
	    !(t->src[t->v[v].off] >= 'a' && t->src[t->v[v].off] <= 'z') ||
	    !py_local_value(t, m, body, r, v, &b, &e))
		return NONE;
	size_t j = b;
	while (j + 2 < e && t->v[j].kind == FL_TK_IDENT && is_p(t, j + 1, '.'))
		j += 2;
	if (t->v[j].kind != FL_TK_IDENT || !is_p(t, j + 1, '(') || m[j + 1] == NONE)
		return NONE;
	return b - 1;
}

/* The token test of py_has_raiser's bytes: `raise`/`return` at r, then
 * Name( or a.b.Name( and a plain name first. */
static bool candidate(const fl_toks *t, size_t r)
{
	size_t j = r + 1;
	/* `raise error`, a local made before (local_call) */
	if (fl_tok_is_ident(t, r, "raise") && j < t->n && t->v[j].kind == FL_TK_IDENT &&
	    t->src[t->v[j].off] >= 'a' && t->src[t->v[j].off] <= 'z' &&
	    (j + 1 >= t->n || (t->v[j + 1].flags & FL_TF_NL_BEFORE)))
		return true;
	while (j + 2 < t->n && t->v[j].kind == FL_TK_IDENT && is_p(t, j + 1, '.'))
		j += 2;
	if (j + 3 >= t->n || t->v[j].kind != FL_TK_IDENT || !is_p(t, j + 1, '(') ||
	    !(t->src[t->v[j].off] >= 'A' && t->src[t->v[j].off] <= 'Z'))
		return false;
	size_t a = j + 2;
	const char *s = t->src + t->v[a].off;
	if (t->v[a].kind == FL_TK_STRING)
		return ((s[0] | 0x20) == 'f' && memchr(s, '{', t->v[a].len)) || is_p(t, a + 1, '+') ||
		       is_p(t, a + 1, '%') || (is_p(t, a + 1, '.') && fl_tok_is_ident(t, a + 2, "format"));
	return t->v[a].kind == FL_TK_IDENT && ((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_') &&
	       (is_p(t, a + 1, ')') || is_p(t, a + 1, ',') || is_p(t, a + 1, '%') || is_p(t, a + 1, '+'));
}

void py_raisers_collect(fl_classdefs *tr, const fl_toks *t, const size_t *m)
{
	size_t done = NONE;
	for (size_t r = 0; r < t->n && tr->n < 65536; r++) {
		if (!(fl_tok_is_ident(t, r, "raise") || fl_tok_is_ident(t, r, "return")) || !candidate(t, r))
			continue;
		/* the def around it: back over the lines that open its blocks */
		size_t q = r;
		while (q > 0 && !(t->v[q].flags & FL_TF_NL_BEFORE))
			q--;
		int col = t->v[q].col;
		while (q > 0 && col > 1) {
			q--;
			if (!(t->v[q].flags & FL_TF_NL_BEFORE) || t->v[q].col >= col)
				continue;
			if (fl_tok_is_ident(t, q, "def"))
				break;
			col = t->v[q].col;
		}
		if (!fl_tok_is_ident(t, q, "def") || q == done)
			continue;
		done = q;
		raiser_def(tr, t, m, q);
	}
}

static void raiser_def(fl_classdefs *tr, const fl_toks *t, const size_t *m, size_t d)
{
	size_t nm = d + 1;
	if (nm + 1 >= t->n || t->v[nm].kind != FL_TK_IDENT || !is_p(t, nm + 1, '(') ||
	    m[nm + 1] == NONE || t->v[nm].len > 120)
		return;
	size_t st[FL_FAC_PARAMS], en[FL_FAC_PARAMS], close;
	size_t n = py_split_args(t, m, nm + 1, st, en, FL_FAC_PARAMS, &close);
	if (n == NONE || n == 0)
		return;
	bool method = fl_tok_is_ident(t, st[0], "self") || fl_tok_is_ident(t, st[0], "cls");
	char *pv[FL_FAC_PARAMS];
	size_t np = 0;
	for (size_t k = method ? 1 : 0; k < n; k++) {
		/* name, name: type, name=default; not *args and what follows */
		if (t->v[st[k]].kind != FL_TK_IDENT ||
		    !(en[k] == st[k] + 1 || is_p(t, st[k] + 1, ':') || is_p(t, st[k] + 1, '=')))
			break;
		pv[np++] = fl_tok_dup(t, st[k]);
	}
	size_t body = 0, end = 0;
	/* (a nested helper is skipped: tomllib's suffixed_err formats the
	 * position with its own coord_repr) */
	bool ok = np > 0 && py_def_body(t, d, close, RAI_MAX_TOKS, true, &body, &end);
	/* its one raise of an exception class, or its one return of one */
	size_t at = NONE, pre = NONE; /* the raise; the token before its call */
	int nraise = 0, nret = 0;
	for (size_t q = body; ok && q < end; q++) {
		size_t after = py_skip_def(t, q, end);
		if (after != q) {
			q = after - 1;
			continue;
		}
		if (fl_tok_is_ident(t, q, "raise"))
			nraise++;
		else if (!fl_tok_is_ident(t, q, "return"))
			continue;
		size_t j = q + 1, last = j;
		while (j < end && t->v[j].kind == FL_TK_IDENT && is_p(t, j + 1, '.') &&
		       j + 2 < end && t->v[j + 2].kind == FL_TK_IDENT)
			j += 2;
		last = j;
		bool call = j < end && t->v[j].kind == FL_TK_IDENT && is_p(t, j + 1, '(') &&
			    t->src[t->v[last].off] >= 'A' && t->src[t->v[last].off] <= 'Z';
		if (fl_tok_is_ident(t, q, "return")) {
			if (call)
				nret++;
			else
				continue;
		} else if (!call) {
			/* raise error, of `error = ErrorClass(message, ...)`
			 * made before; else raise e, raise from: not a
			 * message of ours */
			size_t eq = local_call(t, m, body, q, q + 1);
			if (eq == NONE) {
				ok = false;
			} else {
				at = q;
				pre = eq;
				continue;
			}
		}
		at = q;
		pre = q;
	}
	bool factory = nret == 1 && nraise == 0;
	if (!ok || !((nraise == 1 && nret == 0) || factory) || at == NONE)
		goto out;
	size_t j = pre + 1;
	while (is_p(t, j + 1, '.'))
		j += 2;
	/* the class: a name, or the parameter that gives it ({ErrorClass}) */
	int cp = param_of(t, j, pv, np);
	if (pre != at && cp < 0 && !(t->src[t->v[j].off] >= 'A' && t->src[t->v[j].off] <= 'Z'))
		goto out;
	size_t cst[2], cen[2], cclose;
	size_t na = py_split_args(t, m, j + 1, cst, cen, 2, &cclose);
	if (na == NONE || na == 0 || (t->v[cst[0]].kind == FL_TK_IDENT && is_p(t, cst[0] + 1, '=')))
		goto out;
	/* the message a local holds: `message = '{0} at line
	 * {1}.'.format(text, cur_index)` */
	size_t lb = 0, le = 0;
	if (cen[0] == cst[0] + 1 && param_of(t, cst[0], pv, np) < 0 &&
	    py_local_value(t, m, body, pre, cst[0], &lb, &le)) {
		cst[0] = lb;
		cen[0] = le;
	}
	char *text = NULL;
	int pq = cen[0] == cst[0] + 1 ? param_of(t, cst[0], pv, np) : -1;
	if (pq >= 0) {
		text = fl_xasprintf("{%s}", pv[pq]);
	} else if (py_range_ok(t, cst[0], cen[0])) {
		text = py_msg(t, cst[0], cen[0], false);
		bool named = false;
		for (size_t q = 0; text && q < np && !named; q++) {
			char ph[140];
			snprintf(ph, sizeof ph, "{%s}", pv[q]);
			named = strstr(text, ph) != NULL;
		}
		if (!named) {
			free(text);
			text = t->v[cst[0]].kind == FL_TK_STRING
				       ? named_format(t, m, cst[0], cen[0], pv, np)
				       : NULL;
		}
	}
	if (!text)
		goto out;
	size_t cb, ce;
	char *cond = NULL;
	if (!factory) {
		if (!raise_cond(t, body, at, &cb, &ce)) {
			free(text);
			goto out;
		}
		if (ce > cb && !(cond = fl_cond_template(t, cb, ce, pv, np, cond_words))) {
			/* on a condition the call cannot state: no guard of its
			 * own, the call's still holds */
			cond = NULL;
		}
	}
	fl_buf pb = {0};
	for (size_t q = 0; q < np; q++) {
		if (q)
			fl_buf_putc(&pb, '\n');
		fl_buf_puts(&pb, pv[q]);
	}
	char *key = fl_xasprintf("rai:%.*s", (int)t->v[nm].len, t->src + t->v[nm].off);
	fl_classdefs_add_params(tr, key, text,
				cp >= 0 ? fl_xasprintf("{%s}", pv[cp]) : fl_tok_dup(t, j),
				(method ? 1 : 0) | (factory ? 2 : 0), fl_xstrdup(fl_buf_cstr(&pb)));
	free(key);
	key = fl_xasprintf("raic:%.*s", (int)t->v[nm].len, t->src + t->v[nm].off);
	fl_classdefs_add(tr, key, cond ? cond : fl_xstrdup(""), NULL, 0);
	free(key);
	fl_buf_free(&pb);
out:
	for (size_t q = 0; q < np; q++)
		free(pv[q]);
}

/* Whether tokens [b, e) hold a string literal with a space in it */
static bool gives_text(const fl_toks *t, size_t b, size_t e)
{
	for (size_t k = b; k < e && k < t->n; k++)
		if (t->v[k].kind == FL_TK_STRING && memchr(t->src + t->v[k].off, ' ', t->v[k].len))
			return true;
	return false;
}

/* [pb, i) is `name.` or `a.b.` (names only, no call or subscript) */
static bool plain_receiver(const fl_toks *t, size_t pb, size_t i)
{
	if (i < pb + 2 || i - pb > 8)
		return false;
	for (size_t k = pb; k < i; k++)
		if ((k - pb) % 2 == 0 ? t->v[k].kind != FL_TK_IDENT : !is_p(t, k, '.'))
			return false;
	return true;
}

/* The method at i is one of Python's built-in types' (a dict's, a list's,
 * a str's, a set's, a file's): on an object, not the tree's helper. */
static bool builtin_method(const fl_toks *t, size_t i)
{
	static const char *const names[] = {
		"get", "pop", "popitem", "setdefault", "update", "keys", "values", "items",
		"append", "extend", "insert", "remove", "index", "count", "sort", "add",
		"discard", "join", "split", "rsplit", "replace", "format", "startswith",
		"endswith", "strip", "find", "encode", "decode", "write", "writelines",
		"read", "readline", "send", "put", "clear", "copy", NULL,
	};
	for (const char *const *n = names; *n; n++)
		if (fl_tok_is(t, i, *n))
			return true;
	return false;
}

bool py_raiser_call(walker *w, size_t i, size_t pb, bool raised)
{
	const fl_toks *t = w->t;
	char key[160];
	if (t->v[i].len > 120 || !w->tree || !is_p(t, i + 1, '('))
		return false;
	snprintf(key, sizeof key, "rai:%.*s", (int)t->v[i].len, t->src + t->v[i].off);
	if (w->log) {
		/* only a call that gives a text can be a site: the name of
		 * any other (`open(path)`, `d.pop("key")`) is not logged,
		 * and a helper of that name elsewhere in the tree does not
		 * make the file scanned again */
		if (w->m[i + 1] != NONE && gives_text(t, i + 2, w->m[i + 1]))
			py_tree_params(w, key); /* none, logged */
		return false;
	}
	if (!w->tree->n)
		return false;
	const char *text, *cls, *params = py_tree_params(w, key);
	int st;
	if (!params || !py_tree_find(w, key, &text, &cls, &st) || !text || !cls ||
	    ((st & 1) == 1) != (i > pb) || ((st & 2) != 0) != raised)
		return false;
	/* a method of the class the call is in (`self._fail(...)`), or of
	 * an object named for what it is (`parser.fail(...)`,
	 * `self.parser.fail(...)`); a method of a built-in type named alike
	 * (`kwargs.pop("key")`) is another's */
	if (i > pb && !(i == pb + 2 && (fl_tok_is_ident(t, pb, "self") || fl_tok_is_ident(t, pb, "cls"))) &&
	    (!plain_receiver(t, pb, i) || builtin_method(t, i)))
		return false;
	callargs a;
	size_t close;
	if (!py_get_args(w, i + 1, &a, &close))
		return false;
	char *names[FL_FAC_PARAMS] = {0}, *values[FL_FAC_PARAMS] = {0}, *texts[FL_FAC_PARAMS] = {0};
	py_alt alt = {0}; /* a joined list's other binding: a second site */
	size_t np = py_param_list(params, names, FL_FAC_PARAMS);
	bool any = false;
	char *given = NULL; /* the class the call gives a {param} class */
	for (size_t k = 0; k < np; k++) {
		size_t ak = py_kwarg(t, &a, names[k]);
		if (ak == NONE && k < a.npos)
			ak = a.pos[k];
		if (ak == NONE)
			continue;
		if (cls[0] == '{' && strlen(cls) == strlen(names[k]) + 2 &&
		    strncmp(cls + 1, names[k], strlen(names[k])) == 0) {
			size_t c = a.st[ak];
			while (c + 2 < a.en[ak] && t->v[c].kind == FL_TK_IDENT && is_p(t, c + 1, '.'))
				c += 2;
			if (c + 1 == a.en[ak] && t->v[c].kind == FL_TK_IDENT &&
			    t->src[t->v[c].off] >= 'A' && t->src[t->v[c].off] <= 'Z')
				given = fl_tok_dup(t, c);
		}
		texts[k] = fl_operand_text(t, w->m, a.st[ak], a.en[ak], false);
		char ph[140];
		snprintf(ph, sizeof ph, "{%s}", names[k]);
		if (!strstr(text, ph))
			continue;
		values[k] = py_param_text(w, a.st[ak], a.en[ak], k, &alt);
		/* a text, not a key (`_check("name")`): words */
		if (values[k] && strchr(values[k], ' '))
			any = true;
	}
	bool site = false;
	if (any) {
		char *msg = fl_msg_subst(text, (const char *const *)names,
					 (const char *const *)values, np);
		py_alt_plural(w, text, names, values, np, &alt);
		/* the helper's condition, in the call's words, within the
		 * call's own guard */
		char ckey[170];
		snprintf(ckey, sizeof ckey, "raic:%s", key + 4);
		const char *cond = NULL, *dc;
		int ds;
		char *g = NULL;
		if (py_tree_find(w, ckey, &cond, &dc, &ds) && cond && *cond) {
			bool all = true;
			for (size_t k = 0; k < np && all; k++) {
				char ph[140];
				snprintf(ph, sizeof ph, "{%s}", names[k]);
				all = !strstr(cond, ph) || texts[k];
			}
			if (all)
				g = fl_msg_subst(cond, (const char *const *)names,
						 (const char *const *)texts, np);
		}
		if (g) {
			free(w->guard);
			w->guard = fl_guard_nest(py_cur_guard(w), g, true);
		}
		char *idiom = fl_xasprintf("%s %s", raised ? "error factory" : "raising helper", key + 4);
		py_emit(w, pb, msg, NULL, cls[0] == '{' ? given : cls, FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
		free(idiom);
		free(msg);
		free(w->guard);
		w->guard = NULL;
		site = true;
	}
	free(alt.text);
	for (size_t k = 0; k < np; k++) {
		free(names[k]);
		free(values[k]);
		free(texts[k]);
	}
	free(given);
	return site;
}
