/*
 * keyed.c — messages a class keeps by key (lib/scan/python/, python.h):
 * `default_error_messages = {"invalid": "Not a valid integer."}`
 * (marshmallow's fields, Django's and DRF's fields and forms), raised by
 * key: `raise self.make_error("invalid")`, `raise
 * ValidationError(self.error_messages["invalid"], code="invalid")`.  The
 * raise's texts are those of the key in the dict of its class, or of the
 * nearest base of the file that has the key, and in the dicts of the
 * file's subclasses that give the key a text of their own (the raise in
 * Number runs for an Integer too).  And tables of messages by code and
 * symbol that a report names by its symbol (pylint's checkers' `msgs`,
 * `self.add_message("unused-import", ...)`), collected for the tree.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "python.h"

#define KEYED_MAX_CLASSES 512

typedef struct kclass {
	size_t name;    /* token of the class name */
	size_t base;    /* token of the first base's (last) name, or NONE */
	size_t db, de;  /* the inside of its messages dict, or NONE */
} kclass;

/* Whether the name at token k is a dict of messages: default_error_messages,
 * error_messages, default_messages, messages. */
static bool messages_name(const fl_toks *t, size_t k)
{
	const fl_tok *x = &t->v[k];
	return x->kind == FL_TK_IDENT && x->len >= 8 && x->len <= 40 &&
	       ends_with(t->src + x->off, x->len, "messages");
}

/* The classes of the file, with their first base and messages dict; how
 * many (at most max). */
static size_t file_classes(const fl_toks *t, const size_t *m, kclass *v, size_t max)
{
	size_t n = 0;
	for (size_t k = 0; k + 2 < t->n && n < max; k++) {
		if ((k > 0 && !(t->v[k].flags & FL_TF_NL_BEFORE)) || !fl_tok_is_ident(t, k, "class") ||
		    t->v[k + 1].kind != FL_TK_IDENT)
			continue;
		kclass c = {k + 1, NONE, NONE, NONE};
		size_t h = k + 2;
		if (is_p(t, h, '(') && m[h] != NONE) {
			size_t b = h + 1;
			while (b + 2 < m[h] && t->v[b].kind == FL_TK_IDENT && is_p(t, b + 1, '.'))
				b += 2;
			if (b < m[h] && t->v[b].kind == FL_TK_IDENT && !is_p(t, b + 1, '='))
				c.base = b;
			h = m[h] + 1;
		}
		if (h + 1 >= t->n || !is_p(t, h, ':') || !(t->v[h + 1].flags & FL_TF_NL_BEFORE))
			continue;
		int ccol = t->v[k].col, bcol = t->v[h + 1].col;
		if (bcol <= ccol)
			continue;
		/* `NAME = {` or `NAME: T = {` at the body's column */
		for (size_t q = h + 1; q < t->n; q = fl_tok_is_opener(t, q) && m[q] != NONE && m[q] > q ? m[q] + 1 : q + 1) {
			if ((t->v[q].flags & FL_TF_NL_BEFORE) && t->v[q].col <= ccol)
				break;
			if (!(t->v[q].flags & FL_TF_NL_BEFORE) || t->v[q].col != bcol || !messages_name(t, q))
				continue;
			size_t eq = q + 1;
			if (is_p(t, eq, ':'))
				while (eq < t->n && !is_p(t, eq, '=') && !(t->v[eq].flags & FL_TF_NL_BEFORE))
					eq++;
			if (is_p(t, eq, '=') && is_p(t, eq + 1, '{') && m[eq + 1] != NONE) {
				c.db = eq + 2;
				c.de = m[eq + 1];
				break;
			}
		}
		v[n++] = c;
	}
	return n;
}

/* The text class c's dict gives key (a string token's text), appended to
 * out unless there already; whether the dict has the key. */
static bool dict_text(const fl_toks *t, const size_t *m, const kclass *c, const char *key,
		      fl_strv *out)
{
	if (c->db == NONE)
		return false;
	size_t kl = strlen(key);
	for (size_t q = c->db; q < c->de;) {
		/* an entry: STRING ':' value, to the next ',' of the dict */
		size_t ve = q;
		while (ve < c->de && !is_p(t, ve, ','))
			ve = fl_tok_is_opener(t, ve) && m[ve] != NONE && m[ve] > ve ? m[ve] + 1 : ve + 1;
		if (q + 2 < ve && t->v[q].kind == FL_TK_STRING && is_p(t, q + 1, ':') &&
		    t->v[q].slen == kl && memcmp(fl_tok_str(t, &t->v[q]), key, kl) == 0) {
			char *msg = py_range_ok(t, q + 2, ve) ? py_msg(t, q + 2, ve, false) : NULL;
			if (msg && fl_msg_plain_letters(msg) >= 4 && out->n < 8)
				fl_strv_push_new(out, msg);
			free(msg);
			return true;
		}
		q = ve + 1;
	}
	return false;
}

/* The class of v[0..n) named like token nm, or NONE. */
static size_t class_named(const fl_toks *t, const kclass *v, size_t n, size_t nm)
{
	for (size_t k = 0; k < n; k++)
		if (py_same_ident(t, v[k].name, nm))
			return k;
	return NONE;
}

/* Whether class d derives from class a (through the file's classes). */
static bool derives(const fl_toks *t, const kclass *v, size_t n, size_t d, size_t a)
{
	for (int depth = 0; depth < 16 && d != NONE; depth++) {
		if (v[d].base == NONE)
			return false;
		d = class_named(t, v, n, v[d].base);
		if (d == a)
			return true;
	}
	return false;
}

/* The key of [b, e): a string of one word (`"invalid"`, `"max_length"`),
 * or `self.error_messages["invalid"]`, perhaps formatted after (`%`,
 * `.format(...)`); its token, or NONE. */
static size_t key_of(const walker *w, size_t b, size_t e, bool bare)
{
	const fl_toks *t = w->t;
	size_t k = NONE;
	if (bare && e == b + 1 && t->v[b].kind == FL_TK_STRING)
		k = b;
	else if (e >= b + 6 && fl_tok_is_ident(t, b, "self") && is_p(t, b + 1, '.') &&
		 messages_name(t, b + 2) && is_p(t, b + 3, '[') && w->m[b + 3] == b + 5 &&
		 t->v[b + 4].kind == FL_TK_STRING &&
		 (e == b + 6 || is_p(t, b + 6, '%') || is_p(t, b + 6, '.')))
		k = b + 4;
	if (k == NONE || t->v[k].slen == 0 || t->v[k].slen > 40)
		return NONE;
	const char *s = fl_tok_str(t, &t->v[k]);
	for (size_t q = 0; q < t->v[k].slen; q++)
		if (!((s[q] >= 'a' && s[q] <= 'z') || (s[q] >= '0' && s[q] <= '9') || s[q] == '_'))
			return NONE;
	return k;
}

/* Whether the file may hold a dict of messages: a name that ends in
 * `messages` assigned at the start of a line (asked once a file). */
static bool has_messages(walker *w)
{
	const fl_toks *t = w->t;
	if (!w->keyed) {
		w->keyed = 1;
		for (size_t k = 0; k + 1 < t->n && w->keyed == 1; k++)
			if ((t->v[k].flags & FL_TF_NL_BEFORE) && messages_name(t, k) &&
			    (is_p(t, k + 1, '=') || is_p(t, k + 1, ':')))
				w->keyed = 2;
	}
	return w->keyed == 2;
}

size_t py_keyed_texts(walker *w, size_t b, size_t e, bool bare, fl_strv *out)
{
	const fl_toks *t = w->t;
	if (!has_messages(w))
		return 0;
	size_t kt = key_of(w, b, e, bare);
	size_t inner = py_innermost(w, B_CLASS);
	if (kt == NONE || inner == NONE || w->blk[inner].name == NONE)
		return 0;
	kclass *v = fl_xmalloc(KEYED_MAX_CLASSES * sizeof *v);
	size_t n = file_classes(t, w->m, v, KEYED_MAX_CLASSES);
	size_t me = class_named(t, v, n, w->blk[inner].name), n0 = out->n;
	char *key = fl_xstrndup(fl_tok_str(t, &t->v[kt]), t->v[kt].slen);
	/* the class's own text, else its nearest base's that has the key */
	size_t c = me;
	for (int depth = 0; depth < 16 && c != NONE; depth++) {
		if (dict_text(t, w->m, &v[c], key, out))
			break;
		c = v[c].base == NONE ? NONE : class_named(t, v, n, v[c].base);
	}
	/* and the texts its subclasses give the key */
	for (size_t k = 0; me != NONE && k < n; k++)
		if (k != me && derives(t, v, n, k, me))
			dict_text(t, w->m, &v[k], key, out);
	free(key);
	free(v);
	return out->n - n0;
}

bool py_keyed_call(walker *w, size_t i, size_t pb)
{
	const fl_toks *t = w->t;
	/* self.NAME("key", ...) */
	if (i != pb + 2 || !fl_tok_is_ident(t, pb, "self") || !is_p(t, i + 1, '(') ||
	    w->m[i + 1] == NONE || t->v[i + 2].kind != FL_TK_STRING ||
	    !(is_p(t, i + 3, ',') || is_p(t, i + 3, ')')))
		return false;
	if (!has_messages(w))
		return false;
	/* a method of the file that raises */
	size_t d = py_file_def(w, i), body, end;
	if (d == NONE || !py_def_body(t, d, w->m[d + 2], 2000, false, &body, &end))
		return false;
	bool raises = false;
	for (size_t q = body; q < end && !raises; q++)
		raises = fl_tok_is_ident(t, q, "raise");
	fl_strv texts = {0};
	if (!raises || !py_keyed_texts(w, i + 2, i + 3, true, &texts))
		return false;
	char *idiom = fl_xasprintf("raising helper %.*s", (int)t->v[i].len, t->src + t->v[i].off);
	for (size_t k = 0; k < texts.n; k++)
		py_emit1(w, pb, texts.v[k], NULL, NULL, FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
	free(idiom);
	fl_strv_free(&texts);
	return true;
}

/* ---- messages by symbol -------------------------------------------------------
 * A table of messages whose entries are tuples keyed by a code, the text
 * first and the symbol a report names second (pylint's checkers and their
 * plugins: `msgs = {"C0114": ("Missing module docstring",
 * "missing-module-docstring", "Used when ...")}`), collected for the tree as
 * "msgsym:SYMBOL" (the code kept); `self.add_message("unused-import",
 * args=msg, node=stmt)` reports the symbol's text. */

bool py_has_msg_table(const char *s, size_t n)
{
	return fl_memmem(s, n, "msgs", 4) || fl_memmem(s, n, "MSGS", 4);
}

/* a code a table keys a message by: one capital and four digits (C0114) */
static bool msg_code(const char *s, size_t n)
{
	if (n != 5 || s[0] < 'A' || s[0] > 'Z')
		return false;
	for (size_t k = 1; k < 5; k++)
		if (s[k] < '0' || s[k] > '9')
			return false;
	return true;
}

/* a symbol: lower-case words joined by '-' (missing-module-docstring) */
static bool msg_symbol(const char *s, size_t n)
{
	if (n < 3 || n > 64 || !memchr(s, '-', n))
		return false;
	for (size_t k = 0; k < n; k++)
		if (!((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= '0' && s[k] <= '9') || s[k] == '-'))
			return false;
	return s[0] != '-' && s[n - 1] != '-';
}

void py_msg_table_collect(fl_classdefs *tr, const fl_toks *t, const size_t *m)
{
	for (size_t k = 0; k + 4 < t->n && tr->n < 65536; k++) {
		if (t->v[k].kind != FL_TK_STRING || !is_p(t, k + 1, ':') || !is_p(t, k + 2, '(') ||
		    m[k + 2] == NONE || !msg_code(fl_tok_str(t, &t->v[k]), t->v[k].slen))
			continue;
		size_t close = m[k + 2], b = k + 3, e = b;
		/* the tuple's first element, to its ',' */
		while (e < close && !is_p(t, e, ','))
			e = fl_tok_is_opener(t, e) && m[e] != NONE && m[e] > e ? m[e] + 1 : e + 1;
		size_t sy = e + 1;
		if (e >= close || sy >= close || t->v[sy].kind != FL_TK_STRING ||
		    !msg_symbol(fl_tok_str(t, &t->v[sy]), t->v[sy].slen) ||
		    !(is_p(t, sy + 1, ',') || sy + 1 == close))
			continue;
		char *text = py_range_ok(t, b, e) ? py_msg(t, b, e, false) : NULL;
		if (!text || fl_msg_plain_letters(text) < 3) {
			free(text);
			continue;
		}
		char *key = fl_xasprintf("msgsym:%.*s", (int)t->v[sy].slen, fl_tok_str(t, &t->v[sy]));
		fl_classdefs_add(tr, key, text, fl_xstrndup(fl_tok_str(t, &t->v[k]), t->v[k].slen), 0);
		free(key);
		k = close;
	}
}

static bool msg_table_site(walker *w, size_t pb, const char *s, size_t n);

bool py_msg_table_call(walker *w, size_t i, size_t pb)
{
	const fl_toks *t = w->t;
	/* X.add_message("symbol", ...) */
	if (i == pb || !fl_tok_is_ident(t, i, "add_message") || !is_p(t, i + 1, '(') ||
	    w->m[i + 1] == NONE || !(is_p(t, i + 3, ',') || is_p(t, i + 3, ')')))
		return false;
	if (t->v[i + 2].kind == FL_TK_IDENT) {
		/* a local given one symbol in each branch (`message =
		 * "missing-module-docstring"` / ... then
		 * `self.add_message(message, node=node)`): a site each */
		char *ms[MAXVAR];
		size_t nv = py_var_msgs(w, i + 2, i + 2, 0, ms);
		bool any = false;
		for (size_t v = 0; v < nv; v++) {
			any = msg_table_site(w, pb, ms[v], strlen(ms[v])) || any;
			free(ms[v]);
		}
		return any;
	}
	if (t->v[i + 2].kind != FL_TK_STRING)
		return false;
	return msg_table_site(w, pb, fl_tok_str(t, &t->v[i + 2]), t->v[i + 2].slen);
}

/* The site at pb of the message table's entry for symbol s (n bytes):
 * false when the tree has none. */
static bool msg_table_site(walker *w, size_t pb, const char *s, size_t n)
{
	if (!msg_symbol(s, n))
		return false;
	char key[80];
	snprintf(key, sizeof key, "msgsym:%.*s", (int)n, s);
	const char *msg, *code;
	int status;
	if (!py_tree_find(w, key, &msg, &code, &status) || !msg)
		return false;
	/* the code's category: Fatal, Error; the others (Warning,
	 * Convention, Refactor, Info) are reported, not failed on */
	const char *sev = code && code[0] == 'F' ? FL_S_CRITICAL
			  : code && code[0] == 'E' ? FL_S_ERROR
						   : FL_S_WARNING;
	py_emit1(w, pb, msg, code, NULL, FL_T_CONSOLE, sev, 0, "add_message");
	return true;
}
