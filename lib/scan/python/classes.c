/*
 * classes.c — Python exception classes with a default message (lib/scan/
 * python/, python.h): a class attribute (`default_detail = ...`,
 * `msg_template = ...`, `description = ...`, a `code` / `status_code`), the
 * message an `__init__` passes to its base class (with the parameters it
 * names, filled at each raise), or the one text `__str__` returns.  The
 * tree's collect pass keeps them for the raises of every file; the message
 * is a site of its own.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "python.h"

/* ---- exception classes with a default message --------------------------------
 * `class NotFound(APIException): default_detail = _('Not found.')` (Django
 * REST framework), `class AnyStrMaxLengthError(PydanticValueError): code =
 * 'any_str.max_length'; msg_template = 'ensure this value has at most
 * {limit_value} characters'` (pydantic v1), `class NotFound(HTTPException):
 * code = 404; description = "The requested URL was not found..."`
 * (werkzeug, and so Flask): the message lives in the class.
 * The attribute is a site of its own, and the tree (collect(): the classes of
 * every file) gives the message to a `raise NotFound()` that has none. */
static const char *const cls_msg_attrs[] = {"msg_template", "_template", "template", "default_detail",
					    "default_message", "message", "msg",
					    "description", NULL};
static const char *const cls_code_attrs[] = {"default_code", "error_code", "code", NULL};

static bool word_in(const fl_toks *t, size_t k, const char *const *list)
{
	for (; *list; list++)
		if (fl_tok_is_ident(t, k, *list))
			return true;
	return false;
}

bool py_excy_name(const char *s, size_t n)
{
	return ends_with(s, n, "Error") || ends_with(s, n, "Exception") ||
	       ends_with(s, n, "Exc") || ends_with(s, n, "Warning");
}

/* `def NAME(self...):` at d, a method of a class body at column bcol: the
 * first token of its body (indented on the next line), or NONE.  With
 * only_self, the method takes no parameter but self. */
static size_t method_body(const fl_toks *t, const size_t *m, size_t d, int bcol,
			  const char *name, bool only_self)
{
	size_t k = d + 1;
	if (!fl_tok_is_ident(t, k, name) || !is_p(t, k + 1, '(') ||
	    !fl_tok_is_ident(t, k + 2, "self") || m[k + 1] == NONE ||
	    (only_self && m[k + 1] != k + 3))
		return NONE;
	/* the header's ':' (after an optional -> None) */
	k = m[k + 1] + 1;
	while (k < t->n && !(t->v[k].flags & FL_TF_NL_BEFORE) && !is_p(t, k, ':'))
		k++;
	if (k + 1 >= t->n || !is_p(t, k, ':') || !(t->v[k + 1].flags & FL_TF_NL_BEFORE) ||
	    t->v[k + 1].col <= bcol)
		return NONE;
	return k + 1;
}

/* The text the local name at token v is assigned once in [body, q)
 * (`message = f"Unexpected character: {c!r}"`, py_local_value), with
 * [*xb, *xe) its expression; NULL for none. */
static char *local_text(const fl_toks *t, const size_t *m, size_t body, size_t q, size_t v,
			size_t *xb, size_t *xe)
{
	if (!py_local_value(t, m, body, q, v, xb, xe))
		return NULL;
	return py_msg(t, *xb, *xe, false);
}

/* `def __init__(self):` at d (at the class body's column bcol) whose body
 * passes one message to the base class -- `super().__init__(message)`,
 * `super(X, self).__init__(...)`, `Base.__init__(self, ...)` -- a literal or
 * a local variable assigned one in that body (httpx's StreamConsumed), by
 * itself, as message= / msg=, or as the one text among other arguments
 * (`super().__init__(line, col, message=message)`, tomlkit): the message,
 * with *at its token and *sup the base's parameter it is given to (its
 * name, or "#N" for the N-th argument after self); NULL otherwise (a
 * parameter passed on is not a message: the raiser gives it). */
static char *init_message(const fl_toks *t, const size_t *m, size_t d, int bcol,
			  size_t *at, size_t *xb, size_t *xe, char **sup, size_t *local)
{
	size_t body = method_body(t, m, d, bcol, "__init__", false), end = body;
	*sup = NULL;
	*local = NONE;
	if (body == NONE)
		return NULL;
	while (end < t->n && end - body < 4000 &&
	       !((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col <= bcol))
		end = fl_tok_is_opener(t, end) && m[end] != NONE && m[end] > end ? m[end] + 1 : end + 1;
	if (end > t->n)
		end = t->n;
	for (size_t q = body; q + 4 < end; q++) {
		size_t open = NONE;
		if (fl_tok_is_ident(t, q, "super") && is_p(t, q + 1, '(') && m[q + 1] != NONE &&
		    is_p(t, m[q + 1] + 1, '.') && fl_tok_is_ident(t, m[q + 1] + 2, "__init__") &&
		    is_p(t, m[q + 1] + 3, '('))
			open = m[q + 1] + 3;
		else if (t->v[q].kind == FL_TK_IDENT && is_p(t, q + 1, '.') &&
			 fl_tok_is_ident(t, q + 2, "__init__") && is_p(t, q + 3, '(') &&
			 fl_tok_is_ident(t, q + 4, "self") && is_p(t, q + 5, ','))
			open = q + 3;
		if (open == NONE || m[open] == NONE || m[open] > end)
			continue;
		size_t b = open + 1, e = m[open];
		if (fl_tok_is_ident(t, b, "self") && is_p(t, b + 1, ','))
			b += 2;
		/* one argument; the one named message= / msg= among others;
		 * else the one local given a text among positional others */
		size_t nargs = 0, textarg = NONE, textend = NONE, textidx = 0;
		int ntext = 0;
		for (size_t r = b; r < e; r = fl_tok_is_opener(t, r) && m[r] != NONE ? m[r] + 1 : r + 1) {
			if (r != b && !is_p(t, r - 1, ','))
				continue;
			size_t ve = r;
			while (ve < e && !is_p(t, ve, ','))
				ve = fl_tok_is_opener(t, ve) && m[ve] != NONE ? m[ve] + 1 : ve + 1;
			nargs++;
			if ((fl_tok_is_ident(t, r, "message") || fl_tok_is_ident(t, r, "msg")) &&
			    is_p(t, r + 1, '=') && r + 2 < ve) {
				char *msg = NULL;
				if (t->v[r + 2].kind == FL_TK_STRING) {
					*xb = r + 2;
					*xe = ve;
					msg = py_msg(t, r + 2, ve, false);
				} else if (ve == r + 3 && t->v[r + 2].kind == FL_TK_IDENT) {
					msg = local_text(t, m, body, q, r + 2, xb, xe);
					*local = r + 2;
				}
				if (msg) {
					*at = q;
					*sup = fl_tok_dup(t, r);
				}
				return msg;
			}
			bool text = t->v[r].kind == FL_TK_STRING;
			if (!text && ve == r + 1 && t->v[r].kind == FL_TK_IDENT) {
				size_t lb, le;
				char *lt = local_text(t, m, body, q, r, &lb, &le);
				text = lt != NULL;
				free(lt);
			}
			if (text) {
				ntext++;
				textarg = r;
				textend = ve;
				textidx = nargs - 1;
			}
		}
		if (nargs > 1 && ntext != 1)
			return NULL;
		*at = q;
		if (nargs > 1) {
			char *msg;
			if (t->v[textarg].kind == FL_TK_STRING) {
				*xb = textarg;
				*xe = textend;
				msg = py_msg(t, textarg, textend, false);
			} else {
				msg = local_text(t, m, body, q, textarg, xb, xe);
				*local = textarg;
			}
			if (msg)
				*sup = fl_xasprintf("#%zu", textidx);
			return msg;
		}
		char *msg;
		if (e == b + 1 && t->v[b].kind == FL_TK_IDENT) {
			msg = local_text(t, m, body, q, b, xb, xe); /* NAME = <literal> earlier, once */
			*local = b;
		} else {
			*xb = b;
			*xe = e;
			msg = py_msg(t, b, e, false);
		}
		if (msg)
			*sup = fl_xstrdup("#0");
		return msg;
	}
	return NULL;
}

/* `def __str__(self):` at d (at the class body's column bcol) whose body
 * returns one message -- `return "missing key %r" % (self.key,)`, an
 * f-string, a literal --: that message (the text the exception shows,
 * whatever it was given), with *at its `return`; NULL otherwise. */
static char *str_message(const fl_toks *t, const size_t *m, size_t d, int bcol,
			 size_t *at)
{
	size_t body = method_body(t, m, d, bcol, "__str__", true);
	if (body == NONE)
		return NULL;
	int rcol = t->v[body].col;
	size_t ret = NONE;
	for (size_t q = body; q < t->n;) {
		if ((t->v[q].flags & FL_TF_NL_BEFORE) && t->v[q].col <= bcol)
			break;
		if ((t->v[q].flags & FL_TF_NL_BEFORE) && fl_tok_is_ident(t, q, "return")) {
			/* one return, at the body's own level: a __str__ with
			 * branches shows more than one text */
			if (ret != NONE || t->v[q].col != rcol)
				return NULL;
			ret = q;
		}
		q = fl_tok_is_opener(t, q) && m[q] != NONE && m[q] > q ? m[q] + 1 : q + 1;
	}
	if (ret == NONE)
		return NULL;
	size_t e = ret + 1;
	while (e < t->n && !(t->v[e].flags & FL_TF_NL_BEFORE))
		e = fl_tok_is_opener(t, e) && m[e] != NONE && m[e] > e ? m[e] + 1 : e + 1;
	if (e > t->n)
		e = t->n;
	*at = ret;
	return py_msg(t, ret + 1, e, false);
}

/* Whether msg has a replacement field of name (n bytes): {name}, {name!r},
 * {name:>10}, {name.attr}, {name[0]}. */
static const char *field_of(const char *msg, const char *name, size_t n)
{
	for (const char *h = strchr(msg, '{'); h; h = strchr(h + 1, '{'))
		if (strncmp(h + 1, name, n) == 0 && strchr("}!:.[", h[1 + n]))
			return h;
	return NULL;
}

/* `def __init__(self, name, *, hint=None):` at d whose message msg names
 * some of its parameters: the parameters (without self), one per line
 * (a * or ** one as an empty line); NULL when msg names none. */
static char *init_params(const fl_toks *t, const size_t *m, size_t d, const char *msg)
{
	size_t st[FL_FAC_PARAMS], en[FL_FAC_PARAMS], close;
	size_t n = py_split_args(t, m, d + 2, st, en, FL_FAC_PARAMS, &close);
	if (n == NONE || n < 2 || !fl_tok_is_ident(t, st[0], "self"))
		return NULL;
	fl_buf b = {0};
	bool named = false;
	for (size_t k = 1; k < n; k++) {
		if (k > 1)
			fl_buf_putc(&b, '\n');
		if (t->v[st[k]].kind != FL_TK_IDENT)
			continue;
		fl_buf_put(&b, t->src + t->v[st[k]].off, t->v[st[k]].len);
		char *nm = fl_tok_dup(t, st[k]);
		named = named || field_of(msg, nm, strlen(nm));
		free(nm);
	}
	fl_buf_cstr(&b);
	if (!named) {
		fl_buf_free(&b);
		return NULL;
	}
	return b.s;
}

/* `def __init__(self, names=(), message=None):` at d whose message is the
 * local v that is also a parameter, assigned a default text in the body
 * (`if message is None: message = f"..."`): "message\n1", the parameter
 * and its position after self (raise.c's default_kept); NULL otherwise. */
static char *init_dflt(const fl_toks *t, const size_t *m, size_t d, size_t v)
{
	size_t st[FL_FAC_PARAMS], en[FL_FAC_PARAMS], close;
	size_t n = py_split_args(t, m, d + 2, st, en, FL_FAC_PARAMS, &close);
	if (v == NONE || n == NONE || n < 2 || !fl_tok_is_ident(t, st[0], "self"))
		return NULL;
	for (size_t k = 1; k < n; k++)
		if (t->v[st[k]].kind == FL_TK_IDENT && py_same_ident(t, st[k], v))
			return fl_xasprintf("%.*s\n%zu", (int)t->v[v].len, t->src + t->v[v].off, k - 1);
	return NULL;
}

/* `def __init__(self, msg, doc, pos):` at d whose message is the expression
 * [b, e), `'%s: line %d (char %d)' % (msg, lineno, pos)` (or `... % part`):
 * or `'{} (line {})'.format(msg, lineno)`: the parameters (without self),
 * one per line, then a line "%" ("%{" for the format() fields) with, for
 * each operand, the 1-based index of the parameter it is (0 for any other
 * expression), comma-separated ("%1,0,3"); NULL when [b, e) is not such a
 * formatting or none of its operands is a parameter. */
static char *pct_params(const fl_toks *t, const size_t *m, size_t d, size_t b, size_t e)
{
	size_t p = b;
	while (p < e && t->v[p].kind == FL_TK_STRING)
		p++;
	size_t ost[FL_FAC_PARAMS], oen[FL_FAC_PARAMS], n = 1, close;
	bool braces = false;
	if (p > b && p + 3 < e && is_p(t, p, '.') && fl_tok_is_ident(t, p + 1, "format") &&
	    is_p(t, p + 2, '(') && m[p + 2] == e - 1) {
		/* '{} (line {} column {})'.format(msg, lineno, colno) */
		n = py_split_args(t, m, p + 2, ost, oen, FL_FAC_PARAMS, &close);
		if (n == NONE || n == 0)
			return NULL;
		braces = true;
	} else if (p == b || p + 1 >= e || !is_p(t, p, '%')) {
		return NULL;
	} else if (is_p(t, p + 1, '(') && m[p + 1] == e - 1) {
		n = py_split_args(t, m, p + 1, ost, oen, FL_FAC_PARAMS, &close);
		if (n == NONE || n == 0)
			return NULL;
	} else {
		ost[0] = p + 1;
		oen[0] = e;
	}
	size_t st[FL_FAC_PARAMS], en[FL_FAC_PARAMS];
	size_t np = py_split_args(t, m, d + 2, st, en, FL_FAC_PARAMS, &close);
	if (np == NONE || np < 2 || !fl_tok_is_ident(t, st[0], "self"))
		return NULL;
	fl_buf out = {0};
	for (size_t k = 1; k < np; k++) {
		if (k > 1)
			fl_buf_putc(&out, '\n');
		if (t->v[st[k]].kind == FL_TK_IDENT)
			fl_buf_put(&out, t->src + t->v[st[k]].off, t->v[st[k]].len);
	}
	fl_buf_puts(&out, braces ? "\n%{" : "\n%");
	bool named = false;
	for (size_t o = 0; o < n; o++) {
		size_t idx = 0;
		if (oen[o] == ost[o] + 1 && t->v[ost[o]].kind == FL_TK_IDENT)
			for (size_t k = 1; k < np && !idx; k++)
				if (t->v[st[k]].kind == FL_TK_IDENT && en[k] == st[k] + 1 &&
				    t->v[st[k]].len == t->v[ost[o]].len &&
				    memcmp(t->src + t->v[st[k]].off, t->src + t->v[ost[o]].off,
					   t->v[st[k]].len) == 0)
					idx = k;
		named = named || idx;
		fl_buf_printf(&out, "%s%zu", o ? "," : "", idx);
	}
	fl_buf_cstr(&out);
	if (!named) {
		fl_buf_free(&out);
		return NULL;
	}
	return out.s;
}

/* The argument a raise gives for the parameter named p (l bytes, the k-th
 * one): by keyword, else by position; NONE when it gives none. */
static size_t arg_for(const walker *w, const callargs *a, const char *p, size_t l, size_t k)
{
	for (size_t q = 0; l && q < a->n; q++)
		if (a->kw[q] != NONE && w->t->v[a->kw[q]].len == l &&
		    memcmp(w->t->src + w->t->v[a->kw[q]].off, p, l) == 0)
			return q;
	return k < a->npos ? a->pos[k] : NONE;
}

/* The text an argument [b, e) of a raise gives a parameter the class's
 * __init__ formats into its message: a literal as it is written (its
 * trailing blank kept: "Found empty keyname. " then " (line ...)"), or
 * the message of literals joined or concatenated with values ("Invalid
 * group name '" + group + "'"); NULL for anything else. */
static char *arg_text(walker *w, size_t b, size_t e)
{
	const fl_toks *t = w->t;
	if (e == b + 1 && t->v[b].kind == FL_TK_STRING) {
		const fl_tok *x = &t->v[b];
		return fl_xstrndup(fl_tok_str(t, x), x->slen);
	}
	if (e == b + 1 && t->v[b].kind == FL_TK_IDENT) {
		/* a local bound to one text (`msg = "Invalid control
		 * character {0!r} at".format(c)`, then `raise E(msg, s, end)`) */
		char *ms[MAXVAR];
		size_t n = py_var_msgs(w, b, b, 0, ms);
		char *r = n == 1 ? ms[0] : NULL;
		for (size_t k = r ? 1 : 0; k < n; k++)
			free(ms[k]);
		return r;
	}
	for (size_t k = b; k < e; k++)
		if (t->v[k].kind == FL_TK_STRING)
			return py_msg(t, b, e, false);
	return NULL;
}

/* msg's printf conversions (or format() fields, `{}`, `{0}`, `{!r}`) filled
 * from a "%i,j,..." line (pct_params) with the literals a raise gives for
 * those parameters: %r in quotes, as repr shows a string.  Caller frees. */
static char *compose_pct(walker *w, const char *msg, const char *params, const char *map,
			 const callargs *a)
{
	fl_buf out = {0};
	const char *s = msg;
	size_t nmap = 0, mapv[FL_FAC_PARAMS];
	bool braces = *map == '{';
	for (const char *c = map + braces; *c && nmap < FL_FAC_PARAMS;) {
		mapv[nmap++] = strtoul(c, NULL, 10);
		const char *comma = strchr(c, ',');
		c = comma ? comma + 1 : c + strlen(c);
	}
	for (size_t next = 0;;) {
		const char *pc = strchr(s, braces ? '{' : '%');
		if (!pc)
			break;
		if (pc[1] == pc[0]) { /* %% or {{ */
			fl_buf_put(&out, s, (size_t)(pc - s) + 2);
			s = pc + 2;
			continue;
		}
		const char *ce = pc + 1;
		size_t op = next;
		char conv = 's';
		if (braces) {
			/* {} or {N}, with an optional !r or :spec */
			if (*ce >= '0' && *ce <= '9')
				op = strtoul(ce, (char **)&ce, 10);
			if (*ce == '!' && ce[1])
				conv = ce[1], ce += 2;
			if (*ce == ':')
				ce = strchr(ce, '}') ? strchr(ce, '}') : ce;
			if (*ce != '}')
				break; /* {name}: not these operands */
			ce++;
		} else {
			if (pc[1] == '(') /* %(name)s: a mapping, not these operands */
				break;
			while (*ce && strchr("#0- +.123456789*hlLqjzt", *ce))
				ce++;
			if (!*ce)
				break;
			if (!strchr("diouxXeEfFgGcrsa", *ce)) { /* a % of the text */
				fl_buf_put(&out, s, (size_t)(pc - s) + 1);
				s = pc + 1;
				continue;
			}
			conv = *ce++;
		}
		next = op + 1;
		size_t idx = op < nmap ? mapv[op] : 0;
		char *v = NULL;
		if (idx) {
			/* the idx-th parameter line */
			const char *p = params;
			for (size_t k = 1; k < idx && p; k++) {
				p = strchr(p, '\n');
				p = p ? p + 1 : NULL;
			}
			if (p && *p != '%') {
				size_t l = strcspn(p, "\n");
				size_t ak = arg_for(w, a, p, l, idx - 1);
				if (ak != NONE)
					v = arg_text(w, a->st[ak], a->en[ak]);
			}
		}
		fl_buf_put(&out, s, (size_t)(pc - s));
		if (v && (conv == 's' || conv == 'r')) {
			fl_buf_printf(&out, conv == 'r' ? "'%s'" : "%s", v);
		} else {
			fl_buf_put(&out, pc, (size_t)(ce - pc));
		}
		free(v);
		s = ce;
	}
	fl_buf_puts(&out, s);
	fl_buf_cstr(&out);
	return out.s;
}

/* msg, a message class cls gives its base's __init__, as the bases show
 * it: `super().__init__(line, col, message=message)` to a base whose
 * __init__ passes on `f"{message} at line {self._line} col {self._col}"`
 * (tomlkit's ParseError) gives "Unexpected character: {c} at line
 * {self._line} col {self._col}".  Up to four bases, each by the tree's
 * "sup:NAME" entry (sites.c).  Takes msg; caller frees the result. */
char *py_class_decorate(walker *w, const char *cls, char *msg)
{
	char cur[200];
	snprintf(cur, sizeof cur, "%s", cls);
	for (int depth = 0; depth < 4 && msg; depth++) {
		char key[220];
		const char *base, *bc, *bm, *bcode;
		int bs;
		snprintf(key, sizeof key, "sup:%s", cur);
		const char *to = py_tree_params(w, key);
		if (!to || !py_tree_find(w, key, &base, &bc, &bs) || !base || strcmp(base, cur) == 0)
			break;
		const char *bp = py_tree_params(w, base);
		if (!bp || strstr(bp, "\n%") || !py_tree_find(w, base, &bm, &bcode, &bs) || !bm)
			break;
		/* the base's parameter: by name, or the N-th line of its list */
		const char *pn = to;
		size_t pl = strlen(to);
		if (to[0] == '#') {
			unsigned long k = strtoul(to + 1, NULL, 10);
			pn = bp;
			for (; k > 0 && pn; k--) {
				pn = strchr(pn, '\n');
				pn = pn ? pn + 1 : NULL;
			}
			if (!pn)
				break;
			pl = strcspn(pn, "\n");
		}
		const char *h = pl ? field_of(bm, pn, pl) : NULL;
		const char *fe = h ? strchr(h, '}') : NULL;
		if (!fe)
			break;
		bool repr = h[1 + pl] == '!' && h[2 + pl] == 'r';
		char *n = fl_xasprintf("%.*s%s%s%s%s", (int)(h - bm), bm, repr ? "'" : "", msg,
				       repr ? "'" : "", fe + 1);
		free(msg);
		msg = n;
		snprintf(cur, sizeof cur, "%s", base);
	}
	return msg;
}

/* The message of class cls (whose __init__ builds it from params, one per
 * line) for a raise with arguments a: each field of a parameter given a
 * literal replaced by its text ({name!r} by the text in quotes), the
 * others kept.  Caller frees. */
char *py_compose_init(walker *w, const char *msg, const char *params, const callargs *a)
{
	const char *map = strstr(params, "\n%");
	if (map)
		return compose_pct(w, msg, params, map + 2, a);
	char *out = fl_xstrdup(msg);
	size_t k = 0;
	for (const char *p = params;; k++) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		size_t ak = arg_for(w, a, p, l, k);
		char *v = l && ak != NONE ? arg_text(w, a->st[ak], a->en[ak]) : NULL;
		const char *h;
		if (v && (h = field_of(out, p, l)) != NULL) {
			const char *e = strchr(h, '}');
			bool repr = h[1 + l] == '!' && h[2 + l] == 'r';
			char *n = fl_xasprintf("%.*s%s%s%s%s", (int)(h - out), out, repr ? "'" : "", v,
					       repr ? "'" : "", e ? e + 1 : "");
			free(out);
			out = n;
		}
		free(v);
		if (!nl)
			break;
		p = nl + 1;
	}
	return out;
}

/* The message attribute of the class statement at i (`class` at the start of
 * a line), or false. */
bool py_class_attrs(const fl_toks *t, const size_t *m, size_t i, pyclass *pc)
{
	memset(pc, 0, sizeof *pc);
	size_t name = i + 1;
	if (name >= t->n || t->v[name].kind != FL_TK_IDENT ||
	    (t->v[name].flags & FL_TF_NL_BEFORE))
		return false;
	pc->name = name;
	pc->excy = py_excy_name(t->src + t->v[name].off, t->v[name].len);
	/* bases, up to the header's ':' */
	size_t k = name + 1;
	if (k < t->n && fl_tok_is_punct(t, k, "(") && m[k] != NONE && m[k] < t->n) {
		for (size_t q = k + 1; q < m[k]; q++)
			if (t->v[q].kind == FL_TK_IDENT &&
			    py_excy_name(t->src + t->v[q].off, t->v[q].len))
				pc->excy = true;
		/* the first base, `pkg.Base` by its last name (not a
		 * keyword argument such as metaclass=) */
		size_t bl = k + 1;
		while (bl + 2 < m[k] && t->v[bl].kind == FL_TK_IDENT && is_p(t, bl + 1, '.') &&
		       t->v[bl + 2].kind == FL_TK_IDENT)
			bl += 2;
		if (bl < m[k] && t->v[bl].kind == FL_TK_IDENT && !is_p(t, bl + 1, '=') &&
		    (is_p(t, bl + 1, ',') || bl + 1 == m[k]))
			pc->base = fl_tok_dup(t, bl);
		k = m[k] + 1;
	}
	if (k + 1 >= t->n || !fl_tok_is_punct(t, k, ":") ||
	    !(t->v[k + 1].flags & FL_TF_NL_BEFORE) || t->v[k + 1].col <= t->v[i].col) {
		py_class_free(pc);
		return false;
	}
	int ccol = t->v[i].col, bcol = t->v[k + 1].col;
	for (k = k + 1; k < t->n && k - i < 20000;) {
		const fl_tok *tk = &t->v[k];
		if ((tk->flags & FL_TF_NL_BEFORE) && tk->col <= ccol)
			break;
		if (!(tk->flags & FL_TF_NL_BEFORE) || tk->col != bcol ||
		    tk->kind != FL_TK_IDENT) {
			k = fl_tok_is_opener(t, k) && m[k] != NONE && m[k] > k ? m[k] + 1 : k + 1;
			continue;
		}
		if (fl_tok_is_ident(t, k, "def") && !pc->msg) {
			size_t at, xb = NONE, xe = NONE, local;
			char *sup = NULL;
			char *im = init_message(t, m, k, bcol, &at, &xb, &xe, &sup, &local);
			if (im)
				pc->dflt = init_dflt(t, m, k, local);
			if (im && pc->base)
				pc->sup = sup;
			else
				free(sup);
			bool str = false;
			if (!im)
				str = (im = str_message(t, m, k, bcol, &at)) != NULL;
			if (im) {
				pc->msg = im;
				pc->attr = at;
				pc->init = !str;
				pc->str = str;
				if (!str)
					pc->params = init_params(t, m, k, im);
				if (!str && !pc->params && xb != NONE)
					pc->params = pct_params(t, m, k, xb, xe);
			}
			k++;
			continue;
		}
		/* NAME [: annotation] = value, to the end of the line */
		size_t attr = k, q = k + 1;
		if (q < t->n && fl_tok_is_punct(t, q, ":"))
			while (q < t->n && !(t->v[q].flags & FL_TF_NL_BEFORE) &&
			       !fl_tok_is_punct(t, q, "="))
				q++;
		k = attr + 1;
		if (q >= t->n || !fl_tok_is_punct(t, q, "=") || (t->v[q].flags & FL_TF_NL_BEFORE))
			continue;
		size_t e = q + 1;
		while (e < t->n && !(e > q + 1 && (t->v[e].flags & FL_TF_NL_BEFORE)))
			e = fl_tok_is_opener(t, e) && m[e] != NONE && m[e] > e ? m[e] + 1 : e + 1;
		if (e > t->n)
			e = t->n;
		k = e;
		if (word_in(t, attr, cls_msg_attrs) && !pc->msg) {
			pc->msg = py_msg(t, q + 1, e, false);
			if (pc->msg)
				pc->attr = attr;
		} else if (word_in(t, attr, cls_code_attrs) && !pc->code && e == q + 2 &&
			   t->v[q + 1].kind == FL_TK_STRING) {
			pc->code = fl_xstrdup(fl_tok_str(t, &t->v[q + 1]));
		} else if (fl_tok_is_ident(t, attr, "code") && e == q + 2 &&
			   t->v[q + 1].kind == FL_TK_NUMBER && !pc->status) {
			/* werkzeug: `code = 404` is the HTTP status */
			pc->status = py_status_of(t, q + 1, e);
		} else if (fl_tok_is_ident(t, attr, "status_code")) {
			pc->status = py_status_of(t, q + 1, e);
		}
	}
	if (pc->msg && *pc->msg)
		return true;
	py_class_free(pc);
	return false;
}

void py_class_free(pyclass *pc)
{
	free(pc->msg);
	free(pc->code);
	free(pc->params);
	free(pc->base);
	free(pc->sup);
	free(pc->dflt);
	pc->msg = pc->code = pc->params = pc->base = pc->sup = pc->dflt = NULL;
}

/* Whether a file can hold such a class: an attribute line, indented,
 * `    msg_template = ...` (a byte scan, before any lexing). */
bool py_has_class_attr(const char *s, size_t n)
{
	if (!fl_memmem(s, n, "class", 5))
		return false;
	/* (`def __init__(` alone: a signature over several lines, as black
	 * writes it, puts `self` on the next) */
	if (fl_memmem(s, n, "def __init__(", 13) && fl_memmem(s, n, ".__init__(", 10))
		return true;
	if (fl_memmem(s, n, "def __str__(", 12))
		return true;
	for (const char *const *a = cls_msg_attrs; *a; a++) {
		size_t l = strlen(*a);
		for (const char *p = s; (p = fl_memmem(p, (size_t)(s + n - p), *a, l)) != NULL; p += l) {
			const char *b = p;
			while (b > s && (b[-1] == ' ' || b[-1] == '\t'))
				b--;
			if (b == p || (b > s && b[-1] != '\n'))
				continue; /* not alone at the start of an indented line */
			const char *e = p + l;
			while (e < s + n && (*e == ' ' || *e == '\t'))
				e++;
			if (e < s + n && (*e == ':' || (*e == '=' && (e + 1 >= s + n || e[1] != '='))))
				return true;
		}
	}
	return false;
}

/* The condition of the `if`/`elif` whose block holds the statement at r
 * (inside a method body at column bcol), as written; NULL for an else's
 * block or a statement at the body's own level. */
static char *if_of(const fl_toks *t, size_t body, size_t r)
{
	int col = t->v[r].col;
	for (size_t q = r; q-- > body;) {
		if (!(t->v[q].flags & FL_TF_NL_BEFORE) || t->v[q].col >= col)
			continue;
		if (!fl_tok_is_ident(t, q, "if") && !fl_tok_is_ident(t, q, "elif"))
			return NULL;
		size_t e = q + 1;
		while (e < r && !(is_p(t, e, ':') && (t->v[e + 1].flags & FL_TF_NL_BEFORE)))
			e++;
		if (e >= r || e == q + 1)
			return NULL;
		size_t b = t->v[q + 1].off, n = t->v[e - 1].off + t->v[e - 1].len - b;
		return fl_xstrndup(t->src + b, n);
	}
	return NULL;
}

/* `def __str__(self):` with a return in each branch (`if self.returncode
 * < 0: return "... died with %r" ... return "... returned non-zero exit
 * status %d."`) of the class statement at i: its body's first token
 * (*body) and the returns at its own level and deeper, ret[] (their
 * tokens) and rend[] (their statements' ends), at most max; the count. */
static size_t str_branches(const fl_toks *t, const size_t *m, size_t i, size_t *body,
			   size_t *ret, size_t *rend, size_t max)
{
	size_t k = i + 2, n = 0;
	if (k - 1 >= t->n)
		return 0;
	if (is_p(t, k, '(') && m[k] != NONE)
		k = m[k] + 1;
	if (k + 1 >= t->n || !is_p(t, k, ':') || !(t->v[k + 1].flags & FL_TF_NL_BEFORE))
		return 0;
	int ccol = t->v[i].col, bcol = t->v[k + 1].col;
	if (bcol <= ccol)
		return 0;
	for (k = k + 1; k < t->n;) {
		if ((t->v[k].flags & FL_TF_NL_BEFORE) && t->v[k].col <= ccol)
			return 0;
		if (!(t->v[k].flags & FL_TF_NL_BEFORE) || t->v[k].col != bcol ||
		    !fl_tok_is_ident(t, k, "def") ||
		    (*body = method_body(t, m, k, bcol, "__str__", true)) == NONE) {
			k = fl_tok_is_opener(t, k) && m[k] != NONE && m[k] > k ? m[k] + 1 : k + 1;
			continue;
		}
		for (size_t q = *body; q < t->n && n < max; q++) {
			if ((t->v[q].flags & FL_TF_NL_BEFORE) && t->v[q].col <= bcol)
				break;
			if (!(t->v[q].flags & FL_TF_NL_BEFORE) || !fl_tok_is_ident(t, q, "return"))
				continue;
			size_t e = q + 1;
			while (e < t->n && !(t->v[e].flags & FL_TF_NL_BEFORE))
				e = fl_tok_is_opener(t, e) && m[e] != NONE && m[e] > e ? m[e] + 1 : e + 1;
			ret[n] = q;
			rend[n++] = e > t->n ? t->n : e;
		}
		return n;
	}
	return 0;
}

#define STR_BRANCHES 8

/* Each text a multi-branch __str__ returns is a site of its own, guarded
 * by the branch's condition.  Called for a class str_message() gave no
 * message. */
static void str_branch_sites(walker *w, size_t i, const char *cls)
{
	const fl_toks *t = w->t;
	size_t body, ret[STR_BRANCHES], rend[STR_BRANCHES];
	size_t n = str_branches(t, w->m, i, &body, ret, rend, STR_BRANCHES);
	for (size_t r = 0; r < n; r++) {
		char *msg = py_msg(t, ret[r] + 1, rend[r], false);
		if (msg && *msg) {
			fl_site s = {0};
			s.line = t->v[ret[r]].line;
			s.col = t->v[ret[r]].col;
			s.message = msg;
			s.cls = cls;
			s.type = FL_T_EXCEPTION;
			s.severity = FL_S_ERROR;
			s.function = cls;
			s.idiom = "class method __str__";
			char *g = if_of(t, body, ret[r]);
			s.guard = g;
			fl_site_add(w->out, &s);
			free(g);
		}
		free(msg);
	}
}

char *py_class_str_texts(const fl_toks *t, const size_t *m, size_t i)
{
	size_t body, ret[STR_BRANCHES], rend[STR_BRANCHES];
	size_t n = str_branches(t, m, i, &body, ret, rend, STR_BRANCHES);
	fl_buf b = {0};
	for (size_t r = 0; r < n; r++) {
		char *msg = py_msg(t, ret[r] + 1, rend[r], false);
		if (msg && *msg && !strchr(msg, PY_TEXT_SEP)) {
			if (b.n)
				fl_buf_putc(&b, PY_TEXT_SEP);
			fl_buf_puts(&b, msg);
		}
		free(msg);
	}
	if (!b.n)
		return NULL;
	fl_buf_cstr(&b);
	return b.s;
}

/* The message attribute of an exception class is a site of its own. */
void py_class_site(walker *w, size_t i)
{
	pyclass pc;
	if (!py_class_attrs(w->t, w->m, i, &pc)) {
		if (pc.name && pc.excy && fl_memmem(w->t->src + w->t->v[i].off,
						    w->t->srclen - w->t->v[i].off,
						    "def __str__(self)", 17)) {
			char *cls = fl_tok_dup(w->t, pc.name);
			str_branch_sites(w, i, cls);
			free(cls);
		}
		return;
	}
	if (pc.excy) {
		const fl_toks *t = w->t;
		char *cls = fl_tok_dup(t, pc.name);
		char *attr = fl_tok_dup(t, pc.attr);
		char *idiom = pc.init ? fl_xstrdup("class constructor __init__")
			      : pc.str ? fl_xstrdup("class method __str__")
				       : fl_xasprintf("class attribute %s", attr);
		free(attr);
		size_t n = t->v[pc.name].len;
		bool valid = ends_with(cls, n, "ValidationError");
		fl_site s = {0};
		s.line = t->v[pc.attr].line;
		s.col = t->v[pc.attr].col;
		s.message = pc.msg;
		s.code = pc.code;
		s.cls = cls;
		s.type = pc.status >= 400 ? FL_T_HTTP : valid ? FL_T_VALIDATION : FL_T_EXCEPTION;
		s.severity = pc.status >= 400 ? fl_http_severity(pc.status)
			     : valid		 ? FL_S_WARNING
						 : FL_S_ERROR;
		s.http = pc.status >= 400 ? pc.status : 0;
		s.function = cls;
		s.idiom = idiom;
		fl_site_add(w->out, &s);
		free(cls);
		free(idiom);
	}
	py_class_free(&pc);
}
