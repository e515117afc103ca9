/*
 * sites.c — the Ruby rules (lib/scan/ruby/, ruby.h) and the family's entry
 * in the language table: raise / fail / abort / errors.add / loggers /
 * warn, calls of the tree's own reporters (reporters.c), prints followed
 * by a failing exit, and messages held in local variables.  Blocks are
 * tracked with a keyword stack (class/module/def/if/.../end) to know
 * `Class#method` and the guarding `if`/`unless` condition.
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruby.h"

static const char *const interpreters[] = {"ruby", "jruby", NULL};
static const char *const exts[] = {".rb", ".rake", NULL};

#define SCAN_CAP 2048
#define MAXVAR 4 /* messages one local variable may hold */

/* ---- blocks ----------------------------------------------------------------- */

enum { B_CLASS = 1, B_MODULE, B_SCLASS, B_DEF, B_COND, B_CASE, B_OTHER };

typedef struct rbblk {
	int kind;
	size_t nb, ne;  /* CLASS/MODULE: name tokens; DEF: name tokens */
	bool singleton; /* DEF: def self.x */
	size_t cb, ce;  /* COND/CASE: guard tokens */
	bool neg;       /* unless / until: the guard is negated (and an if's
			   else: the block runs when the if's condition does
			   not hold) */
	bool in_else;   /* COND, CASE: past its else */
	size_t kw;      /* keyword token */
	size_t sb, se;  /* CASE: its subject's tokens (none: sb == se) */
	size_t w0;      /* CASE: its first `when` pattern in walker.pat */
} rbblk;

typedef struct walker {
	const fl_toks *t;
	const size_t *m;
	const fl_classdefs *tree; /* exception classes with a default message */
	const struct rbtree *rep; /* the tree's own reporters */
	const char *path;         /* the file */
	rbblk *blk;
	size_t nblk, capblk;
	fl_sites *out;
	fl_buf fn;
	size_t skip_do;
	size_t (*pat)[2]; /* the `when` patterns of the open cases, in order */
	size_t npat, cappat;
} walker;

static void blk_push(walker *w, rbblk b)
{
	if (w->nblk == w->capblk) {
		w->capblk = w->capblk ? w->capblk * 2 : 32;
		w->blk = fl_xrealloc(w->blk, w->capblk * sizeof *w->blk);
	}
	w->blk[w->nblk++] = b;
}

static const char *cur_function(walker *w)
{
	size_t last = NONE;
	for (size_t k = 0; k < w->nblk; k++)
		if (w->blk[k].kind == B_DEF)
			last = k;
	if (last == NONE)
		return NULL;
	const fl_toks *t = w->t;
	fl_buf_reset(&w->fn);
	bool sclass = false;
	for (size_t k = 0; k < last; k++) {
		const rbblk *b = &w->blk[k];
		if (b->kind == B_SCLASS)
			sclass = true;
		if ((b->kind != B_CLASS && b->kind != B_MODULE) || b->ne <= b->nb)
			continue;
		if (w->fn.n)
			fl_buf_puts(&w->fn, "::");
		fl_rb_put_span(&w->fn, t, b->nb, b->ne);
	}
	const rbblk *d = &w->blk[last];
	if (w->fn.n)
		fl_buf_putc(&w->fn, (d->singleton || sclass) ? '.' : '#');
	fl_rb_put_span(&w->fn, t, d->nb, d->ne);
	return w->fn.n ? fl_buf_cstr(&w->fn) : NULL;
}

/* The condition under which block b runs. */
static char *blk_guard(const walker *w, const rbblk *b)
{
	char *g = fl_tok_span_text(w->t, b->cb, b->ce, 200);
	if (b->neg) {
		/* unless x / until x / an if's else: the block runs when x
		 * is false */
		char *r = fl_guard_not(g, false);
		free(g);
		return r;
	}
	return g;
}

/* Block b is an if's or an unless's (or their else's), with a condition. */
static bool blk_is_if(const walker *w, const rbblk *b)
{
	return b->kind == B_COND && b->ce > b->cb &&
	       (is_kw(w->t, b->kw, "if") || is_kw(w->t, b->kw, "unless"));
}

/* g, the guard of an if (or unless, or else) whose statement sits in
 * block o: with o's condition too when o is another if's block
 * (fl_guard_nest; Ruby's "and" reads as Python's). */
static char *nest_in(const walker *w, const rbblk *o, char *g)
{
	if (!g || !*g || !o || !blk_is_if(w, o))
		return g;
	return fl_guard_nest(blk_guard(w, o), g, true);
}

/* A `case` value Ruby compares with ==: a string, a symbol, a number,
 * nil/true/false or an all-capitals constant (a class, a range or a
 * regex matches with ===, and reads "is a" or "matches", not "is") */
static bool case_value(const fl_toks *t, size_t b, size_t e)
{
	if (e != b + 1)
		return false;
	const fl_tok *k = &t->v[b];
	const char *s = t->src + k->off;
	switch (k->kind) {
	case FL_TK_STRING:
		return true;
	case FL_TK_NUMBER: /* not a range the lexer read as one number */
		return !memmem(s, k->len, "..", 2);
	case FL_TK_OTHER:
		return s[0] == ':';
	case FL_TK_IDENT:
		if (is_kw(t, b, "nil") || is_kw(t, b, "true") || is_kw(t, b, "false"))
			return true;
		if (k->len < 2 || !(s[0] >= 'A' && s[0] <= 'Z'))
			return false;
		for (size_t i = 0; i < k->len; i++)
			if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
				return false;
		return true;
	default:
		return false;
	}
}

#define CASE_MAX 16 /* values an else's guard spells out */

/* The patterns [p0, p1) of walker.pat compared with case b's subject:
 * `x == A || x == B` (neg: the else, `x != A && x != B`), every value
 * one by one, when b has a subject and every value is one Ruby compares
 * with == (case_value); else NULL (the arm's pattern is quoted as it is,
 * or, for the else, the arm that matched no other) */
static char *case_guard(const walker *w, const rbblk *b, size_t p0, size_t p1, bool neg)
{
	const fl_toks *t = w->t;
	if (b->se <= b->sb || p0 >= p1)
		return NULL;
	char *subj = fl_operand_text(t, w->m, b->sb, b->se, false);
	fl_buf g = {0};
	size_t n = 0;
	bool ok = true;
	for (size_t p = p0; p < p1 && ok; p++) {
		size_t v = w->pat[p][0], e = w->pat[p][1];
		for (size_t q = v; q <= e && ok; q++) {
			if (q < e && fl_tok_is_opener(t, q) && w->m[q] != NONE && w->m[q] < e) {
				q = w->m[q];
				continue;
			}
			if (q < e && !is_p(t, q, ','))
				continue;
			if (!case_value(t, v, q) || ++n > CASE_MAX) {
				ok = false;
				break;
			}
			char *c = fl_tok_span_text(t, v, q, 120);
			fl_buf_printf(&g, "%s%s %s %s", !g.n ? "" : neg ? " && " : " || ", subj,
				      neg ? "!=" : "==", c);
			free(c);
			v = q + 1;
		}
	}
	free(subj);
	if (!ok || !g.n) {
		fl_buf_free(&g);
		return NULL;
	}
	fl_buf_cstr(&g);
	return g.s;
}

/* The condition of the innermost block (NULL: none); *arm: it is a
 * `case ... when` arm's pattern ("_": the case's else, no other arm
 * matched) */
static char *cur_guard(walker *w, bool *arm)
{
	*arm = false;
	if (!w->nblk)
		return NULL;
	const rbblk *b = &w->blk[w->nblk - 1];
	if (b->kind == B_CASE && b->in_else) {
		char *g = case_guard(w, b, b->w0, w->npat, true);
		*arm = !g;
		return g ? g : fl_xstrdup("_");
	}
	if (b->kind == B_CASE && b->ce > b->cb && w->npat > b->w0) {
		char *g = case_guard(w, b, w->npat - 1, w->npat, false);
		if (g)
			return g;
	}
	if ((b->kind != B_COND && b->kind != B_CASE) || b->ce <= b->cb)
		return NULL;
	*arm = b->kind == B_CASE;
	char *g = blk_guard(w, b);
	if (blk_is_if(w, b) && w->nblk >= 2)
		g = nest_in(w, &w->blk[w->nblk - 2], g);
	return g;
}
static bool cont_token(const fl_toks *t, size_t i)
{
	/* a token ending a line that continues the statement */
	if (t->v[i].kind != FL_TK_PUNCT)
		return is_kw(t, i, "and") || is_kw(t, i, "or") ||
		       is_kw(t, i, "not");
	if (fl_tok_is_closer(t, i))
		return false;
	return true;
}

static bool stmt_stop_kw(const fl_toks *t, size_t k)
{
	return is_kw(t, k, "if") || is_kw(t, k, "unless") ||
	       is_kw(t, k, "while") || is_kw(t, k, "until") ||
	       is_kw(t, k, "rescue") || is_kw(t, k, "and") ||
	       is_kw(t, k, "or") || is_kw(t, k, "end") || is_kw(t, k, "then") ||
	       is_kw(t, k, "do") || is_kw(t, k, "raise") || is_kw(t, k, "fail");
}

/* end of the expression/statement starting at j (exclusive): stops at a
 * newline not continued, ';', an unbalanced closer, or (when kws) a
 * modifier keyword.  Returns NONE on unbalanced brackets. */
static size_t stmt_end(walker *w, size_t j, bool kws)
{
	const fl_toks *t = w->t;
	size_t k = j;
	while (k < t->n) {
		if (k - j > SCAN_CAP)
			return NONE;
		if (k > j && (t->v[k].flags & FL_TF_NL_BEFORE) &&
		    !cont_token(t, k - 1) && !fl_tok_is(t, k, ".") &&
		    !fl_tok_is(t, k, "&."))
			break;
		if (k > j && (is_kw(t, k, "abort") || is_kw(t, k, "def") ||
			      is_kw(t, k, "class") || is_kw(t, k, "module") ||
			      (fl_tok_is(t, k, "errors") && fl_tok_is(t, k + 1, "."))))
			break;
		if (is_p(t, k, ';') || fl_tok_is_closer(t, k))
			break;
		if (kws ? stmt_stop_kw(t, k)
			: (is_kw(t, k, "end") || is_kw(t, k, "then") ||
			   (k > j && (is_kw(t, k, "raise") || is_kw(t, k, "fail")))))
			break;
		if (fl_tok_is_opener(t, k)) {
			if (w->m[k] == NONE)
				return NONE;
			k = w->m[k] + 1;
			continue;
		}
		k++;
	}
	return k;
}

/* ---- sites --------------------------------------------------------------------- */

static void emit(walker *w, size_t at, const char *msg, const char *cls,
		 const char *type, const char *sev, const char *guard,
		 const char *idiom)
{
	if (!msg || !*msg)
		return;
	fl_site s = {0};
	s.line = w->t->v[at].line;
	s.col = w->t->v[at].col;
	s.message = msg;
	s.cls = cls;
	s.type = type;
	s.severity = sev;
	s.function = cur_function(w);
	bool arm;
	char *g = guard ? NULL : cur_guard(w, &arm);
	s.guard = guard ? guard : g;
	s.arm = !guard && arm;
	s.idiom = idiom;
	fl_site_add(w->out, &s);
	free(g);
}
#define MAXARGS 12

/* modifier guard text for a statement whose args end at a */
static char *modifier_guard(walker *w, size_t a)
{
	const fl_toks *t = w->t;
	if (a >= t->n || !(is_kw(t, a, "if") || is_kw(t, a, "unless")))
		return NULL;
	size_t e = stmt_end(w, a + 1, false);
	if (e == NONE || e <= a + 1)
		return NULL;
	/* `raise ... if x` fires when x holds; `... unless x` when it does not */
	char *g = fl_tok_span_text(t, a + 1, e, 200);
	if (!is_kw(t, a, "if")) {
		char *r = fl_guard_not(g, false);
		free(g);
		g = r;
	}
	return nest_in(w, w->nblk ? &w->blk[w->nblk - 1] : NULL, g);
}

/* arguments of a call at callee i: paren form or command form */
static bool call_args(walker *w, size_t i, size_t *st, size_t *en, size_t *n,
		      size_t *after)
{
	const fl_toks *t = w->t;
	size_t j = i + 1;
	if (j >= t->n) {
		*n = 0;
		*after = j;
		return true;
	}
	if (is_p(t, j, '(') && t->v[j].off == t->v[i].off + t->v[i].len) {
		if (w->m[j] == NONE)
			return false;
		size_t c = w->m[j];
		*n = fl_tok_split(w->t, w->m, j + 1, c, st, en, MAXARGS);
		*after = c + 1;
		return true;
	}
	if (t->v[j].flags & FL_TF_NL_BEFORE) {
		*n = 0;
		*after = j;
		return true;
	}
	size_t e = stmt_end(w, j, true);
	if (e == NONE)
		return false;
	*n = fl_tok_split(w->t, w->m, j, e, st, en, MAXARGS);
	*after = e;
	return true;
}

/* The message of raising class cls without one: the tree's default for
 * the class (by its last name), else the class's name. */
static char *class_default(const walker *w, const char *cls)
{
	const char *last = strrchr(cls, ':');
	last = last ? last + 1 : cls;
	const char *dm, *dc;
	int ds;
	if (w->tree && fl_classdefs_find(w->tree, last, &dm, &dc, &ds) && dm)
		return fl_xstrdup(dm);
	return fl_xstrdup(cls);
}

/* The class's default is a site of its own. */
static void class_site(walker *w, size_t i)
{
	rbclass rc;
	if (!fl_rb_class_default_at(w->t, w->m, i, &rc))
		return;
	char *cls = fl_tok_dup(w->t, rc.name);
	fl_site s = {0};
	s.line = w->t->v[rc.at].line;
	s.col = w->t->v[rc.at].col;
	s.message = rc.msg;
	s.cls = cls;
	s.type = FL_T_EXCEPTION;
	s.severity = FL_S_ERROR;
	s.function = cls;
	s.idiom = rc.idiom;
	fl_site_add(w->out, &s);
	free(cls);
	free(rc.msg);
}

static size_t arg_msgs(walker *w, size_t at, size_t b, size_t e, char **out);

/* The tree's message of class cls (by its last name) that its constructor
 * makes whatever its arguments (`def initialize(name); super "Unknown
 * command #{name}"`), or NULL. */
static char *known_default(const walker *w, const char *cls)
{
	const char *last = strrchr(cls, ':');
	last = last ? last + 1 : cls;
	const char *dm, *dc;
	int ds;
	if (w->tree && fl_classdefs_find(w->tree, last, &dm, &dc, &ds) && dm &&
	    fl_classdefs_params(w->tree, last))
		return fl_xstrdup(dm);
	return NULL;
}

static void do_raise(walker *w, size_t i, const char *idiom)
{
	const fl_toks *t = w->t;
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n == 0)
		return;
	char *cls = NULL, *msg = NULL;
	size_t a0b = st[0], a0e = en[0];
	size_t mb = NONE, me = NONE;
	bool ctor = false; /* mb is X.new's argument, not the message itself */
	bool bare = false; /* `raise x`: x alone, a text or an error */
	if (a0e == a0b + 1 && t->v[a0b].kind == FL_TK_NUMBER) {
		/* fail(405, "Method Not Allowed"): not Kernel#fail (a status
		 * is no exception) but the project's own HTTP error reply */
		int st0 = 0;
		for (uint32_t q = 0; q < t->v[a0b].len && q < 4; q++) {
			char d = t->src[t->v[a0b].off + q];
			st0 = d >= '0' && d <= '9' ? st0 * 10 + (d - '0') : -1000;
		}
		if (t->v[a0b].len != 3)
			st0 = 0;
		if (st0 < 400 || st0 > 599 || n < 2)
			return;
		msg = fl_rb_msg(t, st[1], en[1]);
		if (msg) {
			fl_site s = {0};
			s.line = t->v[i].line;
			s.col = t->v[i].col;
			s.message = msg;
			s.type = FL_T_HTTP;
			s.severity = st0 >= 500 ? FL_S_ERROR : FL_S_WARNING;
			s.http = st0;
			s.function = cur_function(w);
			bool arm;
			char *g = cur_guard(w, &arm);
			s.guard = g;
			s.arm = arm;
			s.idiom = idiom;
			fl_site_add(w->out, &s);
			free(g);
		}
		free(msg);
		return;
	}
	if (fl_rb_const_path(t, a0b, a0e)) {
		fl_buf b = {0};
		fl_rb_put_span(&b, t, a0b, a0e);
		cls = fl_xstrdup(fl_buf_cstr(&b));
		fl_buf_free(&b);
		if (n >= 2) {
			mb = st[1];
			me = en[1];
		} else {
			msg = class_default(w, cls);
		}
	} else {
		/* X.new(...) / X.new */
		size_t k = a0b;
		if (fl_tok_is(t, k, "::"))
			k++;
		while (k + 1 < a0e && t->v[k].kind == FL_TK_IDENT &&
		       fl_tok_is(t, k + 1, "::"))
			k += 2;
		if (k + 2 < a0e && fl_tok_is(t, k + 1, ".") &&
		    fl_tok_is(t, k + 2, "new") && fl_rb_const_path(t, a0b, k + 1)) {
			fl_buf b = {0};
			fl_rb_put_span(&b, t, a0b, k + 1);
			cls = fl_xstrdup(fl_buf_cstr(&b));
			fl_buf_free(&b);
			size_t p = k + 3;
			if (p == a0e) {
				msg = n >= 2 ? NULL : class_default(w, cls);
				if (n >= 2) {
					mb = st[1];
					me = en[1];
				}
			} else if (!is_p(t, p, '(') && !is_p(t, p, '.') &&
				   !(t->v[p].flags & FL_TF_NL_BEFORE)) {
				/* X.new "msg", arg: the command form */
				mb = p;
				me = a0e;
				ctor = true;
			} else if (is_p(t, p, '(') && w->m[p] != NONE &&
				   w->m[p] + 1 == a0e) {
				size_t s2[MAXARGS], e2[MAXARGS];
				size_t n2 = fl_tok_split(w->t, w->m, p + 1, w->m[p], s2, e2,
							MAXARGS);
				if (n2 == 0) {
					msg = class_default(w, cls);
				} else {
					mb = s2[0];
					me = e2[0];
					ctor = true;
				}
			}
		} else if (n >= 2) {
			mb = st[1];
			me = en[1];
		} else {
			mb = a0b;
			me = a0e;
			bare = true;
			/* raise "msg" */
			bool lit = false;
			for (size_t q = a0b; q < a0e; q++)
				if (t->v[q].kind == FL_TK_STRING)
					lit = true;
			if (lit)
				cls = fl_xstrdup("RuntimeError");
		}
	}
	char *msgs[MAXVAR];
	size_t nm = 0;
	if (msg) {
		msgs[nm++] = msg;
	} else if (mb != NONE) {
		/* a literal, a local variable's messages, or (an argument
		 * the class's constructor makes its message of) the class's
		 * own message */
		nm = arg_msgs(w, i, mb, me, msgs);
		if (!nm && ctor && cls && (msgs[0] = known_default(w, cls)))
			nm = 1;
		/* `fail message` of a text a local or a helper holds: a
		 * RuntimeError, as of a literal */
		if (nm && bare && !cls)
			cls = fl_xstrdup("RuntimeError");
	}
	char *g = nm ? modifier_guard(w, after) : NULL;
	for (size_t q = 0; q < nm; q++) {
		emit(w, i, msgs[q], cls, FL_T_EXCEPTION, FL_S_ERROR, g, idiom);
		free(msgs[q]);
	}
	free(g);
	free(cls);
}

static void do_abort(walker *w, size_t i)
{
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n == 0)
		return;
	char *msg = fl_rb_msg(w->t, st[0], en[0]);
	if (msg) {
		char *g = modifier_guard(w, after);
		emit(w, i, msg, NULL, FL_T_CONSOLE, FL_S_CRITICAL, g, "abort");
		free(g);
	}
	free(msg);
}

/* errors.add(:field, "msg") / errors.add(:base, :invalid, message: "m") */
static void do_errors_add(walker *w, size_t recv, size_t i)
{
	const fl_toks *t = w->t;
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n < 2)
		return;
	char *msg = NULL;
	for (size_t k = 1; k < n && !msg; k++) {
		size_t b = st[k];
		if (en[k] > b + 2 && t->v[b].kind == FL_TK_IDENT &&
		    fl_tok_is(t, b, "message") && is_p(t, b + 1, ':')) {
			msg = fl_rb_msg(t, b + 2, en[k]);
		} else if (k == 1) {
			msg = fl_rb_msg(t, b, en[k]);
		}
	}
	if (msg) {
		char *g = modifier_guard(w, after);
		emit(w, recv, msg, NULL, FL_T_VALIDATION, FL_S_WARNING, g,
		     "errors.add");
		free(g);
	}
	free(msg);
}

/* A logger: logger, @logger, Rails.logger, LOGGER, log, @log (the token
 * before ".error"). */
static bool logger_recv(const fl_toks *t, size_t k)
{
	if (t->v[k].kind != FL_TK_IDENT)
		return false;
	const char *s = t->src + t->v[k].off;
	size_t n = t->v[k].len;
	while (n && *s == '@') {
		s++;
		n--;
	}
	static const char *const names[] = {"logger", "LOGGER", "log", "LOG", NULL};
	for (const char *const *x = names; *x; x++)
		if (strlen(*x) == n && memcmp(s, *x, n) == 0)
			return true;
	return false;
}

/* A logger topic: "Error:", "Build Warning:", "" -- blank, or one line
 * ending in ':' (the text after it follows as the next argument). */
static bool topic_label(const char *m)
{
	size_t n = strlen(m);
	while (n && (m[n - 1] == ' ' || m[n - 1] == '\t'))
		n--;
	if (n == 0)
		return true;
	return m[n - 1] == ':' && n <= 40 && !memchr(m, '\n', n);
}

static size_t var_msgs(walker *w, size_t at, size_t var, char **out);

/* logger.error("msg"), logger.warn { "msg" }, warn "msg": the message is
 * the first argument, or the block's value.  ($stderr.puts is not one:
 * scripts print their usage and progress with it.) */
static void do_log(walker *w, size_t at, size_t i, const char *sev, const char *idiom)
{
	const fl_toks *t = w->t;
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n == 0)
		return;
	size_t b = st[0], e = en[0];
	if (is_p(t, b, '{') && w->m[b] != NONE && w->m[b] + 1 == e) {
		/* the block form: its only expression */
		b++;
		e--;
	}
	size_t ib, ie;
	/* a method that dresses the message given to it, called without
	 * or with parentheses: `logger.warn message_with_context
	 * %(unterminated #{name} block), source_location: cursor`
	 * (asciidoctor): the message is its first argument's text */
	bool dressed = false;
	if (b + 1 < e && t->v[b].kind == FL_TK_IDENT && t->src[t->v[b].off] >= 'a' &&
	    t->src[t->v[b].off] <= 'z' && !(b > 0 && is_p(t, b - 1, '.'))) {
		size_t q = b + 1, close = NONE;
		if (is_p(t, q, '(') && w->m[q] != NONE && w->m[q] < e) {
			close = w->m[q];
			q++;
		}
		size_t r = q;
		while (r < e && t->v[r].kind == FL_TK_STRING)
			r++;
		/* or a local holding it (`message_with_context error_msg`) */
		if (r == q && q < e && t->v[q].kind == FL_TK_IDENT && t->src[t->v[q].off] >= 'a' &&
		    t->src[t->v[q].off] <= 'z')
			r = q + 1;
		if (r > q && (close == NONE ? r == e : (r == close || is_p(t, r, ',')))) {
			b = q;
			e = r;
			dressed = true;
		}
	}
	/* a local variable: each text it holds there (`error_msg = 'name
	 * section expected'` in one branch, another in the next) */
	if (e == b + 1 && t->v[b].kind == FL_TK_IDENT && t->src[t->v[b].off] >= 'a' &&
	    t->src[t->v[b].off] <= 'z') {
		char *v[MAXVAR];
		size_t nv = var_msgs(w, b, b, v);
		char *g = nv ? modifier_guard(w, after) : NULL;
		for (size_t k = 0; k < nv; k++) {
			if (strchr(v[k], ' '))
				emit(w, at, v[k], NULL, FL_T_CONSOLE, sev, g, idiom);
			free(v[k]);
		}
		free(g);
		return;
	}
	if (b >= e || (t->v[b].kind != FL_TK_STRING && !is_p(t, b, '(') &&
		       !fl_rb_styled(t, b, e, &ib, &ie)))
		return; /* a variable or a call: no text of its own */
	char *msg = fl_rb_msg(t, b, e);
	if (dressed && msg && !strchr(msg, ' ')) {
		free(msg); /* a key (`t("errors.missing")`), not a text */
		return;
	}
	if (at != i && n >= 2 && (!msg || topic_label(msg))) {
		/* Jekyll's logger: `Jekyll.logger.warn "Deprecation:",
		 * "message"` logs the topic and the message on one line; a
		 * topic alone (the message a variable) is no message */
		char *m2 = t->v[st[1]].kind == FL_TK_STRING || is_p(t, st[1], '(')
				   ? fl_rb_msg(t, st[1], en[1])
				   : NULL;
		char *joined = NULL;
		if (m2 && *m2)
			joined = msg && *msg ? fl_xasprintf("%s %s", msg, m2) : fl_xstrdup(m2);
		free(m2);
		free(msg);
		msg = joined;
	}
	if (msg) {
		char *g = modifier_guard(w, after);
		emit(w, at, msg, NULL, FL_T_CONSOLE, sev, g, idiom);
		free(g);
	}
	free(msg);
}

/* ---- messages held in a local variable ---------------------------------------
 * `msg = "..."; msg << "..."; raise X, msg`: the messages a local variable
 * holds where it is used, from the statements of the enclosing method
 * before the use.  `var = "..."` (also `String.new "..."`) sets it; `var =
 * case/if ... end` sets one per arm (each a message of its own); `var <<
 * "..."` and `var += "..."` at the level of the assignment append, and one
 * that is conditional (deeper, or with a modifier if/unless) ends what is
 * known (the message goes on at run time).  A parameter, a block or rescue
 * binding, or an assignment that is no message make it unknown. */

static size_t var_msgs_in(walker *w, size_t d, size_t at, size_t var, char **out,
			  int depth);

/* `a + b + "..."` [b, e) of the method at d: the texts joined, each local
 * the one message it holds there (rake's `status + details`, `status =
 * "Command failed with status (#{...})"`); NULL when a part is neither
 * a literal nor such a local. */
static char *sum_msg(walker *w, size_t d, size_t b, size_t e, int depth)
{
	const fl_toks *t = w->t;
	if (d == NONE || depth > 2)
		return NULL;
	fl_buf out = {0};
	bool ok = true;
	for (size_t k = b; k < e && ok;) {
		size_t pe = k;
		while (pe < e && !is_p(t, pe, '+'))
			pe = fl_tok_is_opener(t, pe) && w->m[pe] != NONE && w->m[pe] < e ? w->m[pe] + 1
											 : pe + 1;
		char *m = NULL;
		if (t->v[k].kind == FL_TK_STRING) {
			m = fl_rb_msg(t, k, pe);
		} else if (pe == k + 1 && t->v[k].kind == FL_TK_IDENT) {
			char *v[MAXVAR];
			size_t n = var_msgs_in(w, d, k, k, v, depth + 1);
			if (n == 1)
				m = v[0];
			else
				for (size_t q = 0; q < n; q++)
					free(v[q]);
		}
		if (m)
			fl_buf_puts(&out, m);
		ok = m != NULL && (pe == e || pe + 1 < e);
		free(m);
		k = pe + 1;
	}
	if (!ok || !out.n) {
		fl_buf_free(&out);
		return NULL;
	}
	fl_buf_cstr(&out);
	return out.s;
}

static bool const_name(const fl_toks *t, size_t k);
static char *const_text(walker *w, size_t k);

/* `format(message, flag: x)` / `sprintf(msg, x)` / `msg % x` [b, e) of a
 * format a local variable of the method at d or the file's constant holds
 * (rubocop's `message = '--%<flag>s can only be used together with ...'`):
 * its texts, their placeholders the format's own.  Returns the count. */
static size_t fmt_var_msgs(walker *w, size_t d, size_t b, size_t e, char **out, int depth)
{
	const fl_toks *t = w->t;
	size_t v = NONE;
	if (e > b + 3 && (fl_tok_is(t, b, "format") || fl_tok_is(t, b, "sprintf")) &&
	    is_p(t, b + 1, '(') && w->m[b + 1] == e - 1 && t->v[b + 2].kind == FL_TK_IDENT &&
	    (is_p(t, b + 3, ',') || b + 3 == e - 1))
		v = b + 2;
	else if (e > b + 2 && t->v[b].kind == FL_TK_IDENT && is_p(t, b + 1, '%') &&
		 t->v[b + 1].len == 1)
		v = b;
	if (v == NONE)
		return 0;
	size_t n = var_msgs_in(w, d, b, v, out, depth);
	if (!n && const_name(t, v) && (out[0] = const_text(w, v)) != NULL)
		n = 1;
	/* named values given a text of their own fill their %<name>s:
	 * `format(message_with_candidate, message: format(message, name:
	 * name), candidate: ...)` gives "Unrecognized cop or department:
	 * %<name>s.\nDid you mean? %<candidate>s" */
	size_t st[8], en[8];
	size_t na = v == b + 2 && depth < 3 ? fl_tok_split(t, w->m, b + 2, e - 1, st, en, 8) : 0;
	for (size_t a = 1; a < na && a < 8 && n; a++) {
		if (en[a] < st[a] + 3 || t->v[st[a]].kind != FL_TK_IDENT || !is_p(t, st[a] + 1, ':'))
			continue;
		char *val = NULL;
		if (t->v[st[a] + 2].kind == FL_TK_STRING) {
			val = fl_rb_msg(t, st[a] + 2, en[a]);
		} else {
			char *vv[MAXVAR];
			size_t nv = fmt_var_msgs(w, d, st[a] + 2, en[a], vv, depth + 1);
			for (size_t q = 0; q < nv; q++) {
				if (nv == 1)
					val = vv[q];
				else
					free(vv[q]);
			}
		}
		if (!val)
			continue;
		char *hole = fl_xasprintf("%%<%.*s>s", (int)t->v[st[a]].len, t->src + t->v[st[a]].off);
		for (size_t q = 0; q < n; q++) {
			char *h = strstr(out[q], hole);
			if (!h)
				continue;
			char *r = fl_xasprintf("%.*s%s%s", (int)(h - out[q]), out[q], val, h + strlen(hole));
			free(out[q]);
			out[q] = r;
		}
		free(hole);
		free(val);
	}
	return n;
}

/* m added to out[0..n) unless it is there already (m taken over); the
 * new count */
static size_t put_distinct(char **out, size_t n, char *m)
{
	for (size_t q = 0; q < n; q++)
		if (strcmp(out[q], m) == 0) {
			free(m);
			return n;
		}
	if (n >= MAXVAR) {
		free(m);
		return n;
	}
	out[n] = m;
	return n + 1;
}

/* The statements of a `case`/`if` expression starting at b, down to the
 * first line at column col or less, that give a text (a literal, a local
 * holding one, or their sum; of the method at d): its arms' values. */
static size_t arm_msgs(walker *w, size_t b, int col, size_t at, char **out, size_t n,
		       size_t d, int depth)
{
	const fl_toks *t = w->t;
	for (size_t k = b + 1; k < at && n < MAXVAR; k++) {
		if ((t->v[k].flags & FL_TF_NL_BEFORE) && t->v[k].col <= col)
			break;
		if (!(t->v[k].flags & FL_TF_NL_BEFORE))
			continue;
		bool lit = t->v[k].kind == FL_TK_STRING;
		/* an arm formatting a local's format */
		if (!lit && t->v[k].kind == FL_TK_IDENT && k + 1 < t->n &&
		    (is_p(t, k + 1, '(') || is_p(t, k + 1, '%'))) {
			size_t e = stmt_end(w, k, true);
			char *fv[MAXVAR];
			size_t nf = e == NONE || e > at ? 0 : fmt_var_msgs(w, d, k, e, fv, depth + 1);
			for (size_t q = 0; q < nf; q++)
				n = put_distinct(out, n, fv[q]);
			if (nf) {
				k = e - 1;
				continue;
			}
		}
		/* a local, or a sum of locals (`status + details`): not a
		 * keyword, a call or an assignment */
		if (!lit && (t->v[k].kind != FL_TK_IDENT || is_kw(t, k, "if") || is_kw(t, k, "else") ||
			     is_kw(t, k, "elsif") || is_kw(t, k, "when") || is_kw(t, k, "end") ||
			     is_kw(t, k, "unless") || is_kw(t, k, "case") || is_kw(t, k, "then") ||
			     (k + 1 < t->n &&
			      !((t->v[k + 1].flags & FL_TF_NL_BEFORE) || is_p(t, k + 1, '+')))))
			continue;
		size_t e = stmt_end(w, k, true);
		if (e == NONE || e > at)
			break;
		/* a constant of the file alone (`MSG_HTTP_PROTOCOL`) */
		char *m = lit ? fl_rb_msg(t, k, e)
		      : e == k + 1 && const_name(t, k) ? const_text(w, k)
						       : sum_msg(w, d, k, e, depth);
		if (!m) {
			k = e - 1;
			continue;
		}
		n = put_distinct(out, n, m);
		k = e - 1;
	}
	return n;
}

/* The message of an assigned or appended expression [b, e): String.new
 * "..." and String.new("...") are their literal. */
#define ARR_SEP '\x1e' /* between the elements of an array's messages */

/* [ "a", "b" ]: the elements' messages joined by ARR_SEP (what a
 * `#{x.join}` placeholder joins), or NULL when an element is no message. */
static char *array_msg(walker *w, size_t b, size_t e)
{
	const fl_toks *t = w->t;
	if (!is_p(t, b, '[') || w->m[b] != e - 1)
		return NULL;
	size_t st[16], en[16];
	size_t n = fl_tok_split(t, w->m, b + 1, e - 1, st, en, 16);
	if (n == 0 || n == 16)
		return NULL;
	fl_buf out = {0};
	for (size_t k = 0; k < n; k++) {
		char *m = t->v[st[k]].kind == FL_TK_STRING ? fl_rb_msg(t, st[k], en[k]) : NULL;
		if (!m || strchr(m, ARR_SEP)) {
			free(m);
			fl_buf_free(&out);
			return NULL;
		}
		if (k)
			fl_buf_putc(&out, ARR_SEP);
		fl_buf_puts(&out, m);
		free(m);
	}
	fl_buf_cstr(&out);
	return out.s;
}

/* msg (taken over) with each placeholder of a local variable of the
 * method at d that holds one message (`gem = "'#{name}' (#{version})"`
 * then "Could not find a valid gem #{gem}") replaced by that message;
 * `#{x.join}` / `#{x.join("\n")}` join an array's messages. */
static char *expand_locals(walker *w, size_t d, size_t at, char *msg, int depth)
{
	const fl_toks *t = w->t;
	if (!msg || depth > 2 || d == NONE || !strchr(msg, '{'))
		return msg;
	fl_buf out = {0};
	bool changed = false;
	for (const char *p = msg; *p;) {
		const char *q = p + 1;
		while (*p == '{' && ((*q >= 'a' && *q <= 'z') || *q == '_' ||
				     (q > p + 1 && *q >= '0' && *q <= '9')))
			q++;
		size_t nl = (size_t)(q - p - 1);
		const char *sep = NULL;
		size_t sepl = 0;
		const char *close = NULL;
		if (*p == '{' && nl && nl < 64) {
			if (*q == '}') {
				close = q;
			} else if (strncmp(q, ".join}", 6) == 0) {
				sep = "";
				close = q + 5;
			} else if (strncmp(q, ".join(\"", 7) == 0 || strncmp(q, ".join('", 7) == 0) {
				const char *se = strchr(q + 7, q[6]);
				if (se && se[1] == ')' && se[2] == '}') {
					sep = q + 7;
					sepl = (size_t)(se - sep);
					close = se + 2;
				}
			}
		}
		size_t k = NONE;
		for (size_t j = d + 1; close && j < at && j < t->n; j++)
			if (t->v[j].kind == FL_TK_IDENT && t->v[j].len == nl &&
			    memcmp(t->src + t->v[j].off, p + 1, nl) == 0 &&
			    (t->v[j].flags & FL_TF_NL_BEFORE) && is_p(t, j + 1, '=') &&
			    t->v[j + 1].len == 1) {
				k = j;
				break;
			}
		char *vals[MAXVAR];
		size_t n = k != NONE ? var_msgs_in(w, d, at, k, vals, depth + 1) : 0;
		if (n == 1 && (sep || !strchr(vals[0], ARR_SEP))) {
			for (const char *v = vals[0]; *v; v++) {
				if (*v != ARR_SEP)
					fl_buf_putc(&out, *v);
				else if (sepl == 2 && sep[0] == '\\' && sep[1] == 'n')
					fl_buf_putc(&out, '\n');
				else
					fl_buf_put(&out, sep, sepl);
			}
			changed = true;
			p = close + 1;
		} else {
			fl_buf_putc(&out, *p++);
		}
		for (size_t q2 = 0; q2 < n; q2++)
			free(vals[q2]);
	}
	if (!changed) {
		fl_buf_free(&out);
		return msg;
	}
	free(msg);
	fl_buf_cstr(&out);
	return out.s;
}

static char *assigned_msg(walker *w, size_t b, size_t e)
{
	const fl_toks *t = w->t;
	char *arr = array_msg(w, b, e);
	if (arr)
		return arr;
	if (e > b + 3 && fl_tok_is(t, b, "String") && is_p(t, b + 1, '.') &&
	    fl_tok_is(t, b + 2, "new")) {
		b += 3;
		if (is_p(t, b, '(') && w->m[b] == e - 1) {
			b++;
			e--;
		}
	}
	return e > b ? fl_rb_msg(t, b, e) : NULL;
}

static size_t method_msgs(walker *w, size_t name, char **out, int depth);

/* var_msgs() in the method whose `def` is token d. */
static size_t var_msgs_in(walker *w, size_t d, size_t at, size_t var, char **out,
			  int depth)
{
	const fl_toks *t = w->t;
	if (d == NONE || at <= d || at - d > 20000)
		return 0;
	const fl_tok *v = &t->v[var];
	char c0 = t->src[v->off];
	if (!((c0 >= 'a' && c0 <= 'z') || c0 == '_'))
		return 0;
	size_t n = 0;
	/* unknown: bound to what the program gives (a parameter, a block's
	 * |x|, a rescue's => x) until a statement assigns it anew (rake's
	 * `ruby args do |ok, status|` then `status = "Command failed..."`) */
	bool bad = false, open = true, unknown = false;
	int acol = -1;
	/* the def's header: its name and parameters (which may span lines) */
	size_t hdr = d + 2;
	if (hdr + 1 < t->n && is_p(t, hdr, '.'))
		hdr += 2;
	if (hdr < t->n && is_p(t, hdr, '(') && w->m[hdr] != NONE)
		hdr = w->m[hdr] + 1;
	else
		hdr = fl_rb_line_end(t, w->m, d);
	for (size_t k = d + 1; k < at && !bad; k++) {
		if (!fl_rb_same_tok(t, k, var) || t->v[k].kind != FL_TK_IDENT)
			continue;
		if (k < hdr) {
			unknown = true; /* a parameter */
			continue;
		}
		bool stmt = (t->v[k].flags & FL_TF_NL_BEFORE) || is_p(t, k - 1, ';');
		if (!stmt) {
			/* a parameter, |x| or => x binding, or x = inside an expression */
			bool rescued = false;
			if (fl_tok_is(t, k - 1, "=>"))
				for (size_t q = k - 1; q > d && t->v[q].line == t->v[k].line; q--)
					rescued = rescued || is_kw(t, q, "rescue");
			/* |msg| or |a, msg|: a block's parameter (not |x| msg << ...) */
			if ((is_p(t, k - 1, '|') && (is_p(t, k + 1, '|') || is_p(t, k + 1, ','))) ||
			    (is_p(t, k - 1, ',') && is_p(t, k + 1, '|')) ||
			    rescued || (is_p(t, k + 1, '=') && t->v[k + 1].len == 1) ||
			    t->v[k].line == t->v[d].line) {
				for (size_t q = 0; q < n; q++)
					free(out[q]);
				n = 0;
				unknown = true;
			}
			continue;
		}
		if (is_p(t, k + 1, '=') && t->v[k + 1].len == 1) {
			/* a new value; of a variable bound to what the program
			 * gives, only when every run to the use passes it (no
			 * line between starts left of it) */
			if (unknown) {
				for (size_t q = k + 1; q <= at && q < t->n && unknown; q++)
					if ((t->v[q].flags & FL_TF_NL_BEFORE) && t->v[q].col < t->v[k].col)
						break;
					else if (q == at)
						unknown = false;
				if (unknown)
					continue;
			}
			for (size_t q = 0; q < n; q++)
				free(out[q]);
			n = 0;
			open = true;
			acol = t->v[k].col;
			size_t b = k + 2;
			if (is_kw(t, b, "case") || is_kw(t, b, "if") || is_kw(t, b, "unless")) {
				n = arm_msgs(w, b, acol, at, out, 0, d, depth);
				if (!n)
					bad = true;
				open = false;
				continue;
			}
			size_t e = stmt_end(w, b, true);
			if (e == NONE || e > at) {
				bad = true;
				break;
			}
			bool modifier = e < t->n && !(t->v[e].flags & FL_TF_NL_BEFORE) &&
					(is_kw(t, e, "if") || is_kw(t, e, "unless"));
			char *m = modifier ? NULL /* var = "..." if x: maybe unset */
					   : assigned_msg(w, b, e);
			if (m) {
				out[n++] = m;
			} else if (t->v[b].kind == FL_TK_IDENT &&
				   (e == b + 1 || (is_p(t, b + 1, '(') && w->m[b + 1] == e - 1))) {
				/* var = helper(...): what the file's method returns */
				n = method_msgs(w, b, out, depth + 1);
				open = n > 0;
				bad = n == 0;
			} else {
				bad = true;
			}
			k = e - 1;
		} else if (fl_tok_is(t, k + 1, "<<") || fl_tok_is(t, k + 1, "+=")) {
			size_t b = k + 2, e = stmt_end(w, b, true);
			if (e == NONE || e > at || !n) {
				bad = !n;
				open = false;
				continue;
			}
			bool modifier = e < t->n && !(t->v[e].flags & FL_TF_NL_BEFORE) &&
					(is_kw(t, e, "if") || is_kw(t, e, "unless"));
			char *m = open && t->v[k].col == acol && !modifier
				  ? assigned_msg(w, b, e)
				  : NULL;
			if (!m) {
				open = false;
			} else {
				for (size_t q = 0; q < n; q++) {
					char *j = fl_xasprintf("%s%s", out[q], m);
					free(out[q]);
					out[q] = j;
				}
			}
			free(m);
			k = e - 1;
		} else if (t->v[k + 1].kind == FL_TK_PUNCT && t->v[k + 1].len >= 2 &&
			   t->src[t->v[k + 1].off + t->v[k + 1].len - 1] == '=' &&
			   !fl_tok_is(t, k + 1, "==") && !fl_tok_is(t, k + 1, "!=")) {
			bad = true; /* ||=, -=: not a message any more */
		}
	}
	if (bad || unknown) {
		for (size_t q = 0; q < n; q++)
			free(out[q]);
		n = 0;
	}
	for (size_t q = 0; q < n; q++)
		out[q] = expand_locals(w, d, at, out[q], depth);
	return n;
}

/* The `def` token of the innermost method around the walker, or NONE. */
static size_t cur_def(const walker *w)
{
	for (size_t k = w->nblk; k-- > 0;)
		if (w->blk[k].kind == B_DEF)
			return w->blk[k].kw;
	return NONE;
}

static size_t var_msgs(walker *w, size_t at, size_t var, char **out)
{
	return var_msgs_in(w, cur_def(w), at, var, out, 0);
}

/* `message + more` [v, e) ending the method at d: each text the local
 * `message` holds there, then the text of `more` (its placeholder, named
 * by its last name outside brackets, when it holds no string:
 * `message + suggestions(name)` gives "...{suggestions}").  Returns the
 * count. */
static size_t var_plus_msgs(walker *w, size_t d, size_t v, size_t e, char **out, int depth)
{
	const fl_toks *t = w->t;
	size_t n = var_msgs_in(w, d, v, v, out, depth);
	if (!n)
		return 0;
	char *more = fl_rb_msg(t, v + 2, e);
	if (!more) {
		size_t name = NONE;
		for (size_t k = v + 2; k < e; k++) {
			if (fl_tok_is_opener(t, k) && w->m[k] != NONE && w->m[k] < e) {
				k = w->m[k];
				continue;
			}
			if (t->v[k].kind == FL_TK_IDENT)
				name = k;
		}
		if (name == NONE)
			name = v + 2;
		fl_buf ph = {0};
		fl_buf_putc(&ph, '{');
		fl_rb_put_span(&ph, t, name, name + 1);
		fl_buf_putc(&ph, '}');
		fl_buf_cstr(&ph);
		more = ph.s;
	}
	for (size_t q = 0; q < n; q++) {
		char *m = fl_xasprintf("%s%s", out[q], more);
		free(out[q]);
		out[q] = m;
	}
	free(more);
	return n;
}

/* The messages a method of the file returns (`def error_message; if x;
 * "..."; else; "..."; end; end`, `def not_found(name); message =
 * String.new("..."); ...; message; end`): its last statement's text, its
 * arms' texts, or the messages of the local variable it is.  The method
 * is the file's one `def` of name (token); two give nothing. */
static size_t method_msgs(walker *w, size_t name, char **out, int depth)
{
	const fl_toks *t = w->t;
	if (depth > 2 || !fl_helper_budget_take(t->n))
		return 0;
	size_t d = NONE;
	for (size_t k = 0; k + 1 < t->n; k++)
		if (is_kw(t, k, "def") && fl_rb_same_tok(t, k + 1, name) && !is_p(t, k + 2, '.')) {
			if (d != NONE)
				return 0;
			d = k;
		}
	if (d == NONE)
		return 0;
	size_t body = d + 2;
	if (is_p(t, body, '(') && t->v[body].off == t->v[d + 1].off + t->v[d + 1].len) {
		if (w->m[body] == NONE)
			return 0;
		body = w->m[body] + 1;
	} else if (body < t->n && !(t->v[body].flags & FL_TF_NL_BEFORE)) {
		body = fl_rb_line_end(t, w->m, d + 1);
	}
	if (body >= t->n || !(t->v[body].flags & FL_TF_NL_BEFORE) ||
	    t->v[body].col <= t->v[d].col)
		return 0;
	int bcol = t->v[body].col;
	size_t end = body, last = body;
	while (end < t->n && end - body < 20000 &&
	       !((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col <= t->v[d].col)) {
		if ((t->v[end].flags & FL_TF_NL_BEFORE) && t->v[end].col == bcol &&
		    !is_kw(t, end, "end") && !is_kw(t, end, "else") &&
		    !is_kw(t, end, "elsif") && !is_kw(t, end, "when") &&
		    !is_kw(t, end, "rescue") && !is_kw(t, end, "ensure"))
			last = end;
		end++;
	}
	if (is_kw(t, last, "return"))
		last++;
	if (last >= end)
		return 0;
	if (is_kw(t, last, "if") || is_kw(t, last, "case") || is_kw(t, last, "unless"))
		return arm_msgs(w, last, bcol - 1, end, out, 0, d, depth);
	size_t e = stmt_end(w, last, true);
	if (e == NONE || e > end)
		return 0;
	if (t->v[last].kind == FL_TK_STRING) {
		char *m = expand_locals(w, d, last, fl_rb_msg(t, last, e), depth);
		out[0] = m;
		return m ? 1 : 0;
	}
	if (e == last + 1 && t->v[last].kind == FL_TK_IDENT)
		return var_msgs_in(w, d, last, last, out, depth);
	if (e > last + 2 && t->v[last].kind == FL_TK_IDENT && is_p(t, last + 1, '+'))
		return var_plus_msgs(w, d, last, e, out, depth);
	return fmt_var_msgs(w, d, last, e, out, depth);
}

/* The messages of argument [b, e): its text, or the messages of the local
 * variable it is, of the file's method it calls, or of the file's constant
 * it names.  Returns the count (out[0] the text). */
static size_t arg_msgs(walker *w, size_t at, size_t b, size_t e, char **out)
{
	char *m = b < e ? fl_rb_msg(w->t, b, e) : NULL;
	size_t n = 0;
	if (m) {
		out[n++] = expand_locals(w, cur_def(w), at, m, 0);
	} else if (e == b + 1 && w->t->v[b].kind == FL_TK_IDENT) {
		n = var_msgs(w, at, b, out);
		if (!n)
			n = method_msgs(w, b, out, 1);
		/* `raise OptionArgumentError, E_STDIN_NO_PATH`: the file's
		 * constant */
		if (!n && const_name(w->t, b) && (out[0] = const_text(w, b)) != NULL)
			n = 1;
	} else if (e > b + 2 && w->t->v[b].kind == FL_TK_IDENT && is_p(w->t, b + 1, '(') &&
		   w->m[b + 1] == e - 1 &&
		   w->t->v[b + 1].off == w->t->v[b].off + w->t->v[b].len) {
		/* `raise X, bad_value(v)`: the text the file's method returns */
		n = method_msgs(w, b, out, 1);
	}
	/* `format(message, flag: x)` of a local's or a constant's format */
	if (!n && !m)
		n = fmt_var_msgs(w, cur_def(w), b, e, out, 0);
	/* an array itself is no message (only its join is) */
	size_t k2 = 0;
	for (size_t q = 0; q < n; q++) {
		if (strchr(out[q], ARR_SEP))
			free(out[q]);
		else
			out[k2++] = out[q];
	}
	return k2;
}

/* A call of one of the tree's reporters at i (rbtree): `alert_error "..."`,
 * `Bundler.ui.warn "..."`, `error "..." if x`, `warning(message)`. */
static bool do_report(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	if (!w->rep || t->v[i].kind != FL_TK_IDENT)
		return false;
	char c0 = t->src[t->v[i].off];
	if (!((c0 >= 'a' && c0 <= 'z') || c0 == '_') || is_p(t, i + 1, ':') ||
	    is_p(t, i + 1, '.') || fl_tok_is(t, i + 1, "&.") ||
	    (is_p(t, i + 1, '=') && t->v[i + 1].len == 1))
		return false;
	size_t r = i;
	if (i > 0 && (is_p(t, i - 1, '.') || fl_tok_is(t, i - 1, "&."))) {
		r = i - 1;
		while (r >= 1 && t->v[r - 1].kind == FL_TK_IDENT && i - r < 12) {
			r--;
			if (r >= 1 && (is_p(t, r - 1, '.') || fl_tok_is(t, r - 1, "::")))
				r--;
			else
				break;
		}
		if (is_p(t, r, '.'))
			return false;
	} else if (i > 0 && !(t->v[i].flags & FL_TF_NL_BEFORE) && !is_p(t, i - 1, ';') &&
		   !is_p(t, i - 1, '{') && !is_p(t, i - 1, '|') &&
		   !is_kw(t, i - 1, "then") && !is_kw(t, i - 1, "else") &&
		   !is_kw(t, i - 1, "do") && !is_kw(t, i - 1, "begin") &&
		   !is_kw(t, i - 1, "and") && !is_kw(t, i - 1, "or")) {
		return false;
	}
	if (i > 0 && is_kw(t, i - 1, "def"))
		return false;
	/* a bare call is self's method: the file's own definition first;
	 * one on a receiver (Bundler.ui.error) any of the tree's */
	char *name = fl_tok_dup(t, i);
	const char *cls = NULL;
	const char *sev = fl_rb_rep_sev(w->rep, name, r == i ? w->path : NULL, &cls, 0);
	free(name);
	if (!sev || strcmp(sev, "exit") == 0)
		return false;
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n == 0)
		return true;
	size_t b = st[0], e = en[0];
	if (!(t->v[b].kind == FL_TK_STRING || is_p(t, b, '(') ||
	      (e == b + 1 && t->v[b].kind == FL_TK_IDENT)))
		return true;
	char *msgs[MAXVAR];
	size_t nm = arg_msgs(w, i, b, e, msgs);
	char *g = nm ? modifier_guard(w, after) : NULL;
	char *idiom = fl_tok_span_text(t, r, i + 1, 48);
	for (size_t q = 0; q < nm; q++) {
		emit(w, r, msgs[q], cls, cls ? FL_T_EXCEPTION : FL_T_CONSOLE, sev, g, idiom);
		free(msgs[q]);
	}
	free(idiom);
	free(g);
	return true;
}

/* Whether the statements after `after` (the end of a print's arguments)
 * end the program with a failure: `exit 1`, `exit false`, `exit!`,
 * `abort`, or a call of the tree's exiting methods with a status other
 * than 0 (`terminate_interaction 1`), with only other prints between. */
static bool exits_after(walker *w, size_t after)
{
	const fl_toks *t = w->t;
	size_t k = after;
	for (int stmts = 0; stmts < 4 && k < t->n; stmts++) {
		if (is_kw(t, k, "if") || is_kw(t, k, "unless")) {
			size_t e = stmt_end(w, k + 1, false);
			if (e == NONE)
				return false;
			k = e;
		}
		if (is_p(t, k, ';'))
			k++;
		if (k >= t->n || (k > after && !(t->v[k].flags & FL_TF_NL_BEFORE) &&
				  !is_p(t, k - 1, ';')))
			return false;
		if (t->v[k].kind != FL_TK_IDENT)
			return false;
		if (is_kw(t, k, "abort") || fl_tok_is(t, k, "exit!"))
			return true;
		bool ex = is_kw(t, k, "exit");
		if (!ex && w->rep) {
			char *name = fl_tok_dup(t, k);
			const char *cls = NULL;
			const char *s = fl_rb_rep_sev(w->rep, name, w->path, &cls, 0);
			ex = s && strcmp(s, "exit") == 0;
			free(name);
		}
		bool print = fl_tok_is(t, k, "say") || fl_tok_is(t, k, "puts");
		size_t st[MAXARGS], en[MAXARGS], n, a2;
		if (!call_args(w, k, st, en, &n, &a2))
			return false;
		if (ex) /* no status: exit's and the exiting methods' default, 0 */
			return n > 0 && !(en[0] == st[0] + 1 &&
					  (fl_tok_is(t, st[0], "0") || fl_tok_is(t, st[0], "true")));
		if (!print)
			return false;
		k = a2;
	}
	return false;
}

/* ---- a lookup that prints why it failed ------------------------------------
 * RubyGems' `def spec_for(name); spec = find(name); return spec if spec; say
 * "Unable to find gem '#{name}'"; end`, its callers `spec = spec_for name;
 * return false unless spec` and `terminate_interaction 1 unless found`: a
 * method that returns what it found and else prints a message and returns
 * nil is an error printed as normal output when, in the same file, its
 * value is tested for failure (`return false unless v`, `exit 1 unless v`
 * after `v = method ...`). */

/* Whether the statements after the print (from `after`, the print at
 * column col) only print more or give nil / false up to the method's end. */
static bool nil_after(const walker *w, size_t after, int col)
{
	const fl_toks *t = w->t;
	for (size_t k = after; k < t->n && k - after < 400;) {
		if (!(t->v[k].flags & FL_TF_NL_BEFORE) || t->v[k].col < col)
			return (t->v[k].flags & FL_TF_NL_BEFORE) && is_kw(t, k, "end");
		size_t e = k + 1;
		while (e < t->n && !((t->v[e].flags & FL_TF_NL_BEFORE) && t->v[e].col <= col))
			e++;
		if (is_kw(t, k, "if") || is_kw(t, k, "unless")) {
			/* a block of prints (each line prints, maybe in an
			 * iteration: `dirs.each {|d| say d }`) up to its `end` */
			bool prints = true;
			for (size_t q = k + 1; q < e; q++) {
				if (t->v[q].flags & FL_TF_NL_BEFORE) {
					if (!prints)
						return false;
					prints = false;
				}
				prints = prints || fl_tok_is(t, q, "say") || fl_tok_is(t, q, "puts");
			}
			if (e >= t->n || !is_kw(t, e, "end"))
				return false;
			e++;
		} else if (is_kw(t, k, "return") || is_kw(t, k, "nil") || is_kw(t, k, "false")) {
			if (is_kw(t, k, "return") && e > k + 1 && !(e == k + 2 &&
			    (is_kw(t, k + 1, "nil") || is_kw(t, k + 1, "false"))))
				return false;
		} else {
			return false;
		}
		k = e;
	}
	return false;
}

/* Whether the file tests the value of method name (token nm) for failure:
 * `v = name ...` then `return [false|nil] unless v` or `exit N unless v`,
 * `terminate_interaction N unless v`. */
static bool failure_tested(const walker *w, size_t nm)
{
	const fl_toks *t = w->t;
	for (size_t k = 0; k + 3 < t->n; k++) {
		if (!(t->v[k].flags & FL_TF_NL_BEFORE) || t->v[k].kind != FL_TK_IDENT ||
		    !is_p(t, k + 1, '=') || !fl_rb_same_tok(t, k + 2, nm) || is_p(t, k + 3, '.'))
			continue;
		for (size_t q = k + 3; q + 1 < t->n && q - k < 60; q++)
			if (is_kw(t, q, "unless") && fl_rb_same_tok(t, q + 1, k) &&
			    (q + 2 >= t->n || (t->v[q + 2].flags & FL_TF_NL_BEFORE))) {
				size_t b = q;
				while (b > 0 && !(t->v[b].flags & FL_TF_NL_BEFORE))
					b--;
				if (is_kw(t, b, "return") || is_kw(t, b, "exit") ||
				    fl_tok_is(t, b, "terminate_interaction"))
					return true;
			}
	}
	return false;
}

/* The print at i (a statement of the method's own body) fails a lookup:
 * the method returned what it found before (`return v if v`), gives nil
 * after, and its value is tested for failure. */
static bool lookup_fails(const walker *w, size_t i, size_t after)
{
	const fl_toks *t = w->t;
	if (!w->nblk || w->blk[w->nblk - 1].kind != B_DEF || !(t->v[i].flags & FL_TF_NL_BEFORE))
		return false;
	const rbblk *d = &w->blk[w->nblk - 1];
	if (d->ne != d->nb + 1)
		return false;
	bool found = false;
	for (size_t k = d->kw; k + 3 < i && !found; k++)
		found = (t->v[k].flags & FL_TF_NL_BEFORE) && is_kw(t, k, "return") &&
			t->v[k + 1].kind == FL_TK_IDENT && is_kw(t, k + 2, "if") &&
			fl_rb_same_tok(t, k + 1, k + 3) && (t->v[k + 4].flags & FL_TF_NL_BEFORE);
	return found && nil_after(w, after, t->v[i].col) && failure_tested(w, d->nb);
}

/* Whether the statement starting at i is one of a `rescue` clause's: the
 * nearest line above it that starts left of it is the `rescue` (rake's
 * `rescue StandardError => ex` / `puts "Failed to remove #{file_name}:
 * #{ex}"`): the program's report of the failure it caught, as Python's
 * print in an `except`. */
static bool in_rescue(const walker *w, size_t i)
{
	const fl_toks *t = w->t;
	if (!(t->v[i].flags & FL_TF_NL_BEFORE))
		return false;
	int col = t->v[i].col;
	for (size_t k = i; k-- > 0 && i - k < 4000;)
		if ((t->v[k].flags & FL_TF_NL_BEFORE) && t->v[k].col < col)
			return is_kw(t, k, "rescue");
	return false;
}

/* `say "..."` / `puts "..."` that the program exits with a failure right
 * after: an error printed as normal output (RubyGems' `say "No gems found
 * matching ..."; terminate_interaction 1`), or one of a `rescue` clause.
 * A print neither followed by such an exit nor rescuing is normal
 * output. */
static void do_print_exit(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	if (i > 0 && (is_kw(t, i - 1, "def") || is_p(t, i - 1, ':')))
		return;
	size_t r = i;
	if (i > 0 && is_p(t, i - 1, '.')) {
		/* $stderr.puts, STDERR.puts, ui.say */
		if (i < 2 || t->v[i - 2].kind != FL_TK_IDENT)
			return;
		r = i - 2;
	}
	size_t st[MAXARGS], en[MAXARGS], n, after;
	if (!call_args(w, i, st, en, &n, &after) || n != 1 ||
	    t->v[st[0]].kind != FL_TK_STRING)
		return;
	bool rescuing = false;
	if (!exits_after(w, after) && !lookup_fails(w, i, after) && !(rescuing = in_rescue(w, r)))
		return;
	char *msg = fl_rb_msg(t, st[0], en[0]);
	if (msg) {
		char *g = modifier_guard(w, after);
		char *idiom = fl_tok_span_text(t, r, i + 1, 48);
		if (rescuing) {
			char *x = fl_xasprintf("%s in rescue", idiom);
			free(idiom);
			idiom = x;
		}
		emit(w, r, msg, NULL, FL_T_CONSOLE, FL_S_ERROR, g, idiom);
		free(idiom);
		free(g);
	}
	free(msg);
}

/* ---- block tracking ----------------------------------------------------------- */

/* does the keyword at i start a statement (block form, not modifier)? */
static bool stmt_position(const fl_toks *t, size_t i)
{
	if (i == 0 || (t->v[i].flags & FL_TF_NL_BEFORE))
		return true;
	const fl_tok *p = &t->v[i - 1];
	if (p->kind == FL_TK_PUNCT)
		return !fl_tok_is_closer(t, i - 1);
	if (p->kind == FL_TK_IDENT) {
		static const char *const k[] = {"then", "else", "do", "begin",
						"and",  "or",   "not", "in",
						"when", "elsif", "unless", "if",
						NULL};
		for (const char *const *q = k; *q; q++)
			if (fl_tok_is(t, i - 1, *q))
				return true;
	}
	return false;
}

/* condition of if/unless/while/until/when at i: [i+1, end) */
static size_t cond_end(walker *w, size_t i, bool loop)
{
	const fl_toks *t = w->t;
	size_t k = i + 1;
	while (k < t->n) {
		if (k - i > SCAN_CAP)
			break;
		if (k > i + 1 && (t->v[k].flags & FL_TF_NL_BEFORE) &&
		    !cont_token(t, k - 1))
			break;
		if (is_kw(t, k, "if") || is_kw(t, k, "unless") ||
		    is_kw(t, k, "while") || is_kw(t, k, "until") ||
		    is_kw(t, k, "raise") || is_kw(t, k, "fail") ||
		    is_kw(t, k, "abort") || is_kw(t, k, "def") ||
		    is_kw(t, k, "class") || is_kw(t, k, "end") ||
		    is_kw(t, k, "when") || is_kw(t, k, "elsif"))
			break;
		if (is_p(t, k, ';') || is_kw(t, k, "then") || fl_tok_is_closer(t, k))
			break;
		if (loop && is_kw(t, k, "do")) {
			w->skip_do = k;
			break;
		}
		if (fl_tok_is_opener(t, k)) {
			if (w->m[k] == NONE)
				break;
			k = w->m[k] + 1;
			continue;
		}
		k++;
	}
	return k;
}

static void track(walker *w, size_t i)
{
	const fl_toks *t = w->t;
	if (t->v[i].kind != FL_TK_IDENT)
		return;
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	char c0 = s[0];
	if (!(c0 >= 'a' && c0 <= 'z'))
		return;
	rbblk b = {0};
	b.kw = i;
	if (is_kw(t, i, "end")) {
		if (w->nblk && w->blk[--w->nblk].kind == B_CASE)
			w->npat = w->blk[w->nblk].w0;
	} else if (is_kw(t, i, "class") || is_kw(t, i, "module")) {
		if (fl_tok_is(t, i + 1, "<<")) {
			b.kind = B_SCLASS;
		} else {
			b.kind = n == 5 ? B_CLASS : B_MODULE;
			size_t k = i + 1;
			b.nb = k;
			while (k < t->n && k - i < 32 &&
			       (t->v[k].kind == FL_TK_IDENT ||
				fl_tok_is(t, k, "::")) &&
			       !(k > i + 1 && (t->v[k].flags & FL_TF_NL_BEFORE)))
				k++;
			b.ne = k;
			if (b.ne == b.nb)
				return; /* `Foo.class` style or junk */
		}
		blk_push(w, b);
	} else if (is_kw(t, i, "def")) {
		size_t k = i + 1;
		if (k >= t->n)
			return;
		b.kind = B_DEF;
		if (k + 2 < t->n && fl_tok_is(t, k + 1, ".") &&
		    t->v[k].kind == FL_TK_IDENT) {
			b.singleton = true;
			k += 2;
		}
		b.nb = k;
		b.ne = k + 1;
		/* operator names: [] []= and the like */
		if (is_p(t, k, '[') && is_p(t, k + 1, ']')) {
			b.ne = k + 2;
			if (is_p(t, k + 2, '=') &&
			    t->v[k + 2].off == t->v[k + 1].off + 1)
				b.ne = k + 3;
		}
		/* setter name=  */
		if (k + 1 < t->n && is_p(t, k + 1, '=') &&
		    t->v[k + 1].off == t->v[k].off + t->v[k].len &&
		    is_p(t, k + 2, '('))
			b.ne = k + 2;
		size_t q = b.ne;
		if (is_p(t, q, '(') && w->m[q] != NONE)
			q = w->m[q] + 1;
		if (q < t->n && is_p(t, q, '=') &&
		    !(t->v[q].flags & FL_TF_NL_BEFORE))
			return; /* endless def */
		blk_push(w, b);
	} else if ((is_kw(t, i, "if") || is_kw(t, i, "unless") ||
		    is_kw(t, i, "while") || is_kw(t, i, "until")) &&
		   stmt_position(t, i)) {
		bool loop = s[0] == 'w' || (s[0] == 'u' && s[2] == 't');
		b.kind = B_COND;
		b.cb = i + 1;
		b.ce = cond_end(w, i, loop);
		b.neg = s[0] == 'u';
		blk_push(w, b);
	} else if (is_kw(t, i, "elsif")) {
		if (w->nblk && w->blk[w->nblk - 1].kind == B_COND) {
			rbblk *p = &w->blk[w->nblk - 1];
			p->cb = i + 1;
			p->ce = cond_end(w, i, false);
			p->neg = false;
		}
	} else if (is_kw(t, i, "else")) {
		rbblk *p = w->nblk ? &w->blk[w->nblk - 1] : NULL;
		if (p && p->kind == B_COND && !p->in_else &&
		    (is_kw(t, p->kw, "if") || is_kw(t, p->kw, "unless"))) {
			/* the else of an if (of its last elsif) runs when that
			 * condition does not hold, an unless's when it holds */
			p->neg = !p->neg;
			p->in_else = true;
		} else if (p && p->kind == B_CASE) {
			p->in_else = true;
		} else if (p && p->kind == B_COND) {
			p->ce = p->cb;
		}
	} else if (is_kw(t, i, "when") ||
		   (is_kw(t, i, "in") && (t->v[i].flags & FL_TF_NL_BEFORE))) {
		if (w->nblk && w->blk[w->nblk - 1].kind == B_CASE) {
			rbblk *p = &w->blk[w->nblk - 1];
			p->cb = i + 1;
			p->ce = cond_end(w, i, false);
			if (w->npat == w->cappat) {
				w->cappat = w->cappat ? 2 * w->cappat : 16;
				w->pat = fl_xrealloc(w->pat, w->cappat * sizeof *w->pat);
			}
			w->pat[w->npat][0] = p->cb;
			w->pat[w->npat++][1] = p->ce;
		}
	} else if (is_kw(t, i, "case")) {
		b.kind = B_CASE;
		b.w0 = w->npat;
		if (i + 1 < t->n && !(t->v[i + 1].flags & FL_TF_NL_BEFORE)) {
			b.sb = i + 1;
			b.se = cond_end(w, i, false);
		}
		blk_push(w, b);
	} else if (is_kw(t, i, "begin") || is_kw(t, i, "for")) {
		if (s[0] == 'f')
			cond_end(w, i, true);
		b.kind = B_OTHER;
		blk_push(w, b);
	} else if (is_kw(t, i, "do")) {
		if (w->skip_do == i)
			return;
		b.kind = B_OTHER;
		blk_push(w, b);
	}
}

/* ---- lint offenses ---------------------------------------------------------- */

/* A constant's token k: an upper-case name (MSG, MSG_MISSING) */
static bool const_name(const fl_toks *t, size_t k)
{
	return t->v[k].kind == FL_TK_IDENT && t->src[t->v[k].off] >= 'A' &&
	       t->src[t->v[k].off] <= 'Z';
}

/* The text the file assigns to the constant named [name, name+n) at a
 * statement's start, `MSG = 'Use snake_case for method names.'` (a
 * `.freeze` after it, literals joined by `\`), or NULL. */
static char *const_text_of(walker *w, const char *name, size_t n)
{
	const fl_toks *t = w->t;
	if (!fl_helper_budget_take(t->n))
		return NULL; /* a file of thousands of lookups: linear still */
	for (size_t q = 0; q + 2 < t->n; q++) {
		if (!(q == 0 || (t->v[q].flags & FL_TF_NL_BEFORE)) || t->v[q].len != n ||
		    memcmp(t->src + t->v[q].off, name, n) != 0 || !fl_tok_is(t, q + 1, "="))
			continue;
		size_t e = fl_rb_line_end(t, w->m, q + 2);
		if (e > q + 4 && is_p(t, e - 2, '.') && fl_tok_is(t, e - 1, "freeze"))
			e -= 2;
		return e > q + 2 ? fl_rb_msg(t, q + 2, e) : NULL;
	}
	return NULL;
}

/* The same of the constant token k names */
static char *const_text(walker *w, size_t k)
{
	return const_text_of(w, w->t->src + w->t->v[k].off, w->t->v[k].len);
}

/* msg with each {NAME} placeholder of a constant the file assigns a text
 * replaced by that text (caller frees) */
static char *subst_consts(walker *w, const char *msg)
{
	fl_buf b = {0};
	for (const char *p = msg; *p;) {
		const char *c = p[0] == '{' && p[1] >= 'A' && p[1] <= 'Z' ? strchr(p, '}') : NULL;
		char *text = c ? const_text_of(w, p + 1, (size_t)(c - p - 1)) : NULL;
		if (text) {
			fl_buf_puts(&b, text);
			free(text);
			p = c + 1;
		} else {
			fl_buf_putc(&b, *p++);
		}
	}
	fl_buf_cstr(&b);
	return b.s ? b.s : fl_xstrdup("");
}

/* The texts of an offense's message expression [b, e): a constant,
 * format(CONST, ...) or CONST % ..., a literal, a local or a method of
 * the file (arg_msgs).  Returns how many were stored in out. */
static size_t offense_msgs(walker *w, size_t at, size_t b, size_t e, char **out)
{
	const fl_toks *t = w->t;
	if ((fl_tok_is(t, b, "format") || fl_tok_is(t, b, "sprintf")) && is_p(t, b + 1, '(') &&
	    w->m[b + 1] == e - 1)
		b += 2;
	if (b < e && const_name(t, b) &&
	    (b + 1 == e || is_p(t, b + 1, ',') || is_p(t, b + 1, ')') || fl_tok_is(t, b + 1, "%"))) {
		char *m = const_text(w, b);
		if (m)
			out[0] = m;
		return m ? 1 : 0;
	}
	size_t n = arg_msgs(w, at, b, e, out), k = 0;
	/* "#{MSG} #{MULTI_RETURN_MSG}": the constants' texts */
	for (size_t q = 0; q < n; q++) {
		char *m = subst_consts(w, out[q]);
		free(out[q]);
		bool word = false;
		for (const char *c = m; *c && !word; c++) {
			const char *r = *c == '{' ? strchr(c, '}') : NULL;
			if (r)
				c = r; /* a placeholder */
			else
				word = (*c | 32) >= 'a' && (*c | 32) <= 'z';
		}
		if (word)
			out[k++] = m;
		else
			free(m); /* nothing of its own: `message` of `message(node)` */
	}
	return k;
}

/* The texts of the message constants (MSG, MSG_MISSING, EXPLICIT_MSG:
 * names holding MSG) that tokens [b, e) name, each once, at most MAXVAR;
 * with all, those of the whole file.  Returns how many. */
static size_t msg_consts(walker *w, size_t b, size_t e, char **out)
{
	const fl_toks *t = w->t;
	size_t k = 0;
	if (!fl_helper_budget_take(e - b))
		return 0;
	for (size_t q = b; q < e && k < MAXVAR; q++) {
		if (!const_name(t, q) || !memmem(t->src + t->v[q].off, t->v[q].len, "MSG", 3) ||
		    fl_tok_is(t, q + 1, "="))
			continue;
		char *m = const_text(w, q);
		for (size_t r = 0; m && r < k; r++)
			if (strcmp(out[r], m) == 0) {
				free(m);
				m = NULL;
			}
		if (m)
			out[k++] = m;
	}
	return k;
}

/* Tokens [*b, *e) of the body of the file's method named like token k
 * (up to the next def), or false */
static bool def_body(walker *w, size_t k, size_t *b, size_t *e)
{
	const fl_toks *t = w->t;
	if (!fl_helper_budget_take(t->n))
		return false;
	for (size_t q = 0; q + 1 < t->n; q++) {
		if (!is_kw(t, q, "def") || !fl_rb_same_tok(t, q + 1, k))
			continue;
		size_t r = q + 2;
		while (r < t->n && !is_kw(t, r, "def") && r - q < 400)
			r++;
		*b = q + 2;
		*e = r;
		return true;
	}
	return false;
}

/* A lint rule's offense (RuboCop's cop API): `add_offense(node, message:
 * X)` reports text X, a constant, format(CONST, ...), a local or a method
 * of the file; without a message the file's `message` method's, else the
 * class's MSG; `add_global_offense(X)` takes X first.  A message the
 * file's code gives only through a method or a block's parameter is one
 * of the constants that method names, or else of the file's. */
static void do_offense(walker *w, size_t i, bool global)
{
	const fl_toks *t = w->t;
	size_t st[MAXARGS], en[MAXARGS], n = 0, after;
	if (!call_args(w, i, st, en, &n, &after))
		return;
	size_t mb = NONE, me = NONE;
	for (size_t a = 0; a < n; a++)
		if (en[a] > st[a] + 1 && fl_tok_is(t, st[a], "message") && is_p(t, st[a] + 1, ':') &&
		    t->v[st[a] + 1].off == t->v[st[a]].off + t->v[st[a]].len) {
			mb = st[a] + 2;
			me = en[a];
		}
	if (mb == NONE && global && n > 0 && !(en[0] > st[0] + 1 && is_p(t, st[0] + 1, ':'))) {
		mb = st[0];
		me = en[0];
	}
	char *msgs[MAXVAR + 1];
	size_t k = mb == NONE ? 0 : offense_msgs(w, i, mb, me, msgs), db, de;
	/* the method that makes it: `message(node)`, or the file's
	 * `message` when no message is given */
	size_t callee = mb == NONE ? NONE : mb;
	if (!k && mb == NONE && fl_helper_budget_take(t->n)) {
		for (size_t q = 0; q + 1 < t->n && callee == NONE; q++)
			if (is_kw(t, q, "def") && fl_tok_is(t, q + 1, "message"))
				callee = q + 1;
	}
	if (callee != NONE && t->v[callee].kind == FL_TK_IDENT && !const_name(t, callee) &&
	    def_body(w, callee, &db, &de)) {
		/* and each constant it returns alone (`else MSG`) */
		char *more[MAXVAR + 1];
		size_t n2 = msg_consts(w, db, de, more);
		for (size_t q = 0; q < n2; q++) {
			bool dup = k >= MAXVAR;
			for (size_t r = 0; r < k && !dup; r++)
				dup = strcmp(msgs[r], more[q]) == 0;
			if (dup)
				free(more[q]);
			else
				msgs[k++] = more[q];
		}
	}
	if (!k && mb == NONE && (msgs[0] = const_text_of(w, "MSG", 3)) != NULL)
		k = 1;
	if (!k)
		k = msg_consts(w, 0, t->n, msgs);
	for (size_t q = 0; q < k; q++) {
		emit(w, i, msgs[q], NULL, FL_T_VALIDATION, FL_S_WARNING, NULL, "lint offense");
		free(msgs[q]);
	}
}

static void scan(const void *tree, const fl_src *src, fl_sites *out)
{
	fl_toks t;
	fl_toks_init(&t, src);
	fl_rb_lex(&t);
	walker w = {0};
	w.t = &t;
	w.m = fl_tok_match_table(&t, FL_MATCH_RECOVER);
	w.out = out;
	w.skip_do = NONE;
	w.tree = tree ? ((const rbtree *)tree)->cls : NULL;
	w.rep = tree;
	w.path = src->path;
	bool classes = src->text && fl_rb_has_class_default(src->text, src->len);
	fl_helper_budget_reset(t.n);
	for (size_t i = 0; i < t.n; i++) {
		if (t.v[i].kind != FL_TK_IDENT)
			continue;
		if (classes && is_kw(&t, i, "class"))
			class_site(&w, i);
		if (is_kw(&t, i, "raise")) {
			do_raise(&w, i, "raise");
		} else if (is_kw(&t, i, "fail")) {
			do_raise(&w, i, "fail");
		} else if (fl_tok_is(&t, i, "abort") &&
			   (i == 0 || !(fl_tok_is(&t, i - 1, ".") ||
					fl_tok_is(&t, i - 1, "def") ||
					fl_tok_is(&t, i - 1, "&."))) &&
			   !(is_p(&t, i + 1, ':'))) {
			do_abort(&w, i);
		} else if (i >= 2 && fl_tok_is(&t, i - 1, ".") && logger_recv(&t, i - 2) &&
			   (fl_tok_is(&t, i, "error") || fl_tok_is(&t, i, "fatal") ||
			    fl_tok_is(&t, i, "warn") || fl_tok_is(&t, i, "abort_with"))) {
			size_t r = i - 2;
			while (r >= 2 && fl_tok_is(&t, r - 1, ".") &&
			       t.v[r - 2].kind == FL_TK_IDENT && i - r < 8)
				r -= 2;
			/* Jekyll's logger.abort_with logs an error and exits */
			const char *sev = fl_tok_is(&t, i, "warn") ? FL_S_WARNING
					  : fl_tok_is(&t, i, "fatal") || fl_tok_is(&t, i, "abort_with") ? FL_S_CRITICAL
													 : FL_S_ERROR;
			char idiom[32];
			snprintf(idiom, sizeof idiom, "logger.%.*s", (int)t.v[i].len, t.src + t.v[i].off);
			do_log(&w, r, i, sev, idiom);
		} else if (fl_tok_is(&t, i, "warn") &&
			   (i == 0 || !(fl_tok_is(&t, i - 1, ".") || fl_tok_is(&t, i - 1, "def") ||
					fl_tok_is(&t, i - 1, "&."))) &&
			   !is_p(&t, i + 1, ':') && !is_p(&t, i + 1, '=')) {
			do_log(&w, i, i, FL_S_WARNING, "warn");
		} else if (fl_tok_is(&t, i, "errors") && fl_tok_is(&t, i + 1, ".") &&
			   fl_tok_is(&t, i + 2, "add")) {
			size_t r = i;
			while (r >= 2 && fl_tok_is(&t, r - 1, ".") &&
			       t.v[r - 2].kind == FL_TK_IDENT && i - r < 8)
				r -= 2;
			do_errors_add(&w, r, i + 2);
		} else if (fl_tok_is(&t, i, "say") || fl_tok_is(&t, i, "puts")) {
			do_print_exit(&w, i);
		} else if ((fl_tok_is(&t, i, "add_offense") || fl_tok_is(&t, i, "add_global_offense")) &&
			   !(i > 0 && fl_tok_is(&t, i - 1, "def"))) {
			do_offense(&w, i, t.v[i].len == 18);
		} else {
			do_report(&w, i);
		}
		track(&w, i);
	}
	free(w.blk);
	free(w.pat);
	fl_buf_free(&w.fn);
	free((void *)w.m);
	fl_toks_free(&t);
}

static bool is_test_file(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n < 3 || strcmp(b + n - 3, ".rb") != 0)
		return false;
	if (strncmp(b, "test_", 5) == 0)
		return true;
	return (n > 8 && strcmp(b + n - 8, "_spec.rb") == 0) ||
	       (n > 8 && strcmp(b + n - 8, "_test.rb") == 0);
}

const fl_lang fl_lang_ruby = {.name = "ruby",
			      .extensions = exts,
			      .interpreters = interpreters,
			      .printf_ints = true,
			      .is_test_file = is_test_file,
			      .tree_new = fl_rb_tree_new,
			      .tree_free = fl_rb_tree_free,
			      .collect = fl_rb_collect,
			      .tree_merge = fl_rb_tree_merge,
			      .scan = scan};
