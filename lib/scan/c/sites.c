/*
 * sites.c — the C / C++ error sites: C++ throw (also through a throw
 * macro or a static factory), BSD err.h, perror, fprintf(stderr) /
 * fputs(stderr), syslog, glib, Postgres ereport/elog, CPython PyErr_*,
 * glog/Abseil stream logging, calls of the tree's own reporters, and the
 * tables that give an error code its text (`case X_ERROR: return "...";`).
 * A function-like macro of the file whose body reports (`#define
 * NEXT_UINT32(v) ... errorOut("error: only numeric values ...")`) reports
 * again at each of its uses: those are sites too, with the body's
 * message, their own line and guard (macro_use).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

/* ---- sites ------------------------------------------------------------------- */

typedef struct walk {
	ctx c;
	sstack main, dir;
	/* #if nesting for main scope depth: saved depth, first-branch end */
	size_t *ifs;
	size_t nifs, capifs;
	const char *head; /* the text the reporter being called prints before
			     its format ("Warning: "), or NULL */
	const char *end;  /* the text it appends to what it formats (".
			     Stop."), or NULL */
	size_t macro;     /* the name of the function-like macro whose
			     #define the tokens are in, or NONE */
	struct msite {    /* what the file's macros report */
		size_t name;  /* the macro's name token */
		char *msg, *cls;
		const char *type, *sev;
	} *ms;
	size_t nms;
	size_t emitted;   /* the sites emitted so far */
	/* the argument a reporting macro tests before it reports
	 * (cmac.cond): [cb, ce) and whether it reports when that does not
	 * hold; cb == ce: none */
	size_t cb, ce;
	bool cneg;
	ctree *mac;       /* the file's own macros over the tree's, or NULL */
	size_t tbl_open;  /* the last switch asked whether it is a table of
			     error texts (site_table_return), and the answer */
	bool tbl_ok;
} walk;

static void emit(walk *w, const sstack *sk, size_t start, size_t at,
		 char *msg, const char *code, const char *cls,
		 const char *type, const char *sev, const char *idiom)
{
	const fl_toks *t = w->c.t;
	if ((!msg || !*msg) && !code) {
		free(msg);
		return;
	}
	/* guard: unbraced if/while right before the statement (skipping a
	 * `return`), else the braced block's condition */
	uint32_t gb = 0, ge = 0;
	bool neg = false;
	size_t s0 = start;
	if (tk_id(t, s0 - 1, "return") && s0 > 0)
		s0--;
	/* the scope that holds the guard's if, when it is a block */
	const scope *outer = sk->n > 0 ? &sk->v[sk->n - 1] : NULL;
	if (!c_cond_before(&w->c, s0, &gb, &ge)) {
		gb = ge = 0;
		if (c_else_cond(&w->c, s0, &gb, &ge)) {
			neg = true; /* `} else stmt;` */
		} else if (sk->n > 0) {
			const scope *top = &sk->v[sk->n - 1];
			bool stmt_else = s0 > 0 && tk_id(t, s0 - 1, "else");
			if (!stmt_else && top->kind == SK_BLOCK) {
				gb = top->gb;
				ge = top->ge;
				neg = top->neg;
			}
			outer = sk->n > 1 ? &sk->v[sk->n - 2] : NULL;
		}
	}
	char *guard = fl_guard_span(t, gb, ge, neg, false);
	/* no if around it: the early exits before it in its block (`if (!p)
	 * return;` in a void function) */
	bool early = false;
	if (!guard && !(t->v[at].flags & TF_DIR)) {
		guard = fl_early_guard(t, w->c.mt, s0);
		early = guard != NULL;
	}
	/* a statement of a switch's case: the case's labels (with an if of
	 * the case's own around it) */
	char *sw = (t->v[at].flags & TF_DIR) ? NULL : fl_switch_guard(t, w->c.mt, s0);
	if (sw)
		guard = guard ? fl_guard_nest(sw, guard, false) : sw;
	/* an if (or else) right inside another if's block: both hold */
	if (guard && outer && outer->kind == SK_BLOCK && outer->ge > outer->gb &&
	    (neg || (gb >= 2 && tk_id(t, gb - 2, "if"))) &&
	    (outer->neg || (outer->gb >= 2 && tk_id(t, outer->gb - 2, "if"))))
		guard = fl_guard_nest(fl_guard_span(t, outer->gb, outer->ge, outer->neg, false),
				      guard, false);
	/* a macro that reports on a condition it is given (ERROR_IF(c,
	 * ...), CHECK(c, ...)): that condition holds too */
	if (w->ce > w->cb) {
		char *mg = fl_guard_span(t, w->cb, w->ce, w->cneg, false);
		guard = guard ? fl_guard_nest(guard, mg, false) : mg;
	}
	char *fn = (t->v[at].flags & TF_DIR) ? NULL : c_func_name(t, sk);
	if (w->head && msg && *msg && strncmp(msg, w->head, strlen(w->head)) != 0) {
		char *m = fl_xjoin(w->head, "", msg);
		free(msg);
		msg = m;
	}
	if (w->end && msg && *msg) {
		char *m = fl_xjoin(msg, "", w->end);
		free(msg);
		msg = m;
	}
	fl_site site = {
		.line = t->v[at].line,
		.col = t->v[at].col,
		.message = msg,
		.code = code,
		.cls = cls,
		.type = type,
		.severity = sev,
		.function = fn,
		.guard = guard,
		.early = early,
		.idiom = idiom,
	};
	fl_site_add(w->c.out, &site);
	w->emitted++;
	if (w->macro != NONE && (t->v[at].flags & TF_DIR) && msg && *msg && w->nms < 256) {
		if ((w->nms & (w->nms - 1)) == 0)
			w->ms = fl_xrealloc(w->ms, (w->nms ? w->nms * 2 : 1) * sizeof *w->ms);
		w->ms[w->nms++] = (struct msite){w->macro, fl_xstrdup(msg), cls ? fl_xstrdup(cls) : NULL,
						 type, sev};
	}
	free(msg);
	free(guard);
	free(fn);
}

/* A use of a macro of the file whose body reports, at token i: a site
 * for each of its messages (the type and severity strings are static). */
static bool macro_use(walk *w, const sstack *sk, size_t i)
{
	const fl_toks *t = w->c.t;
	bool any = false;
	for (size_t m = 0; m < w->nms; m++) {
		const fl_tok *n = &t->v[w->ms[m].name];
		if (n->len != t->v[i].len || memcmp(t->src + n->off, t->src + t->v[i].off, n->len) != 0)
			continue;
		char *idiom = fl_xstrndup(t->src + n->off, n->len);
		emit(w, sk, i, i, fl_xstrdup(w->ms[m].msg), NULL, w->ms[m].cls, w->ms[m].type,
		     w->ms[m].sev, idiom);
		free(idiom);
		any = true;
	}
	return any;
}

#define MAXA 16

/* A printf-like report: its message, or, when a %s argument may hold one
 * of several known texts (argsrc.c), one site per text (and the message
 * with the placeholder too when it may hold something else).  cols: leave
 * out column headers (a progress meter's, printed to the error stream).
 * Returns how many sites it made. */
static size_t emit_fmt(walk *w, const sstack *sk, size_t start, size_t at, const size_t *st,
		       const size_t *en, int na, int fmt, const char *type, const char *sev,
		       const char *idiom, bool cols)
{
	const ctx *c = &w->c;
	int sa[8];
	int ns = c_fmt_s_args(c, st, en, na, fmt, sa, 8);
	char *m0 = ns ? c_fmt_msg(c, st, en, na, fmt) : NULL;
	/* many texts are followed only when the message says little else
	 * ("option %s: %s"): its records would multiply otherwise */
	bool many = !m0 || c_fixed_letters(m0) < 12;
	free(m0);
	fl_strv msgs = {0};
	bool gen = true;
	/* the argument followed: of those whose texts are known, the one
	 * known to hold nothing else, then the one of most texts (a text
	 * table's rather than a default value's) */
	fl_strv v = {0};
	int pick = -1;
	for (int x = 0; x < ns; x++) {
		fl_strv xv = {0};
		bool g = false;
		if (c_arg_variants(c, st[sa[x]], en[sa[x]], &xv, &g) > 0 && (many || xv.n <= 4) &&
		    (pick < 0 || (gen && !g) || (gen == g && xv.n > v.n))) {
			fl_strv_free(&v);
			v = xv;
			pick = x;
			gen = g;
			continue;
		}
		fl_strv_free(&xv);
	}
	for (size_t j = 0; pick >= 0 && j < v.n; j++) {
		char *m = c_fmt_msg_sub(c, st, en, na, fmt, sa[pick], v.v[j], false);
		if (m)
			fl_strv_push(&msgs, m);
		free(m);
	}
	fl_strv_free(&v);
	if (gen) {
		char *m = c_fmt_msg(c, st, en, na, fmt);
		if (m)
			fl_strv_push(&msgs, m);
		free(m);
	}
	size_t n = 0;
	for (size_t j = 0; j < msgs.n; j++)
		if (!cols || !c_is_columns(msgs.v[j])) {
			emit(w, sk, start, at, fl_xstrdup(msgs.v[j]), NULL, NULL, type, sev, idiom);
			n++;
		}
	fl_strv_free(&msgs);
	return n;
}

/* The stream [b, e) is an error stream other than stderr (`errors`,
 * `global->errors`) outside the tree's own reporters, whose prefixes and
 * trailers their callers print. */
static bool err_stream_out(walk *w, const sstack *sk, size_t b, size_t e)
{
	if (!c_err_stream(w->c.t, b, e))
		return false;
	char *fn = c_func_name(w->c.t, sk);
	bool rep = fn && c_tree_find(w->c.tree, fn, strlen(fn));
	free(fn);
	return !rep;
}

static int level_sev_syslog(const fl_toks *t, size_t b, size_t e)
{
	for (size_t k = b; k < e; k++) {
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		const char *s = t->src + t->v[k].off;
		size_t n = t->v[k].len;
		if (word_is(s, n, "LOG_EMERG") || word_is(s, n, "LOG_ALERT") ||
		    word_is(s, n, "LOG_CRIT"))
			return SEV_CRIT;
		if (word_is(s, n, "LOG_ERR"))
			return SEV_ERR;
		if (word_is(s, n, "LOG_WARNING") || word_is(s, n, "LOG_WARN"))
			return SEV_WARN;
	}
	return SEV_NONE;
}

static int level_sev_pg(const fl_toks *t, size_t b, size_t e)
{
	for (size_t k = b; k < e; k++) {
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		const char *s = t->src + t->v[k].off;
		size_t n = t->v[k].len;
		if (word_is(s, n, "ERROR"))
			return SEV_ERR;
		if (word_is(s, n, "FATAL") || word_is(s, n, "PANIC"))
			return SEV_CRIT;
		if (word_is(s, n, "WARNING"))
			return SEV_WARN;
	}
	return SEV_NONE;
}

/* generic level argument of a reporter: returns SEV_* or -1 for a
 * non-reporting level (info/debug) */
static int level_sev_generic(const fl_toks *t, size_t b, size_t e)
{
	if (e - b != 1 || t->v[b].kind != FL_TK_IDENT)
		return SEV_NONE;
	const char *s = t->src + t->v[b].off;
	size_t n = t->v[b].len;
	if (!all_upper(s, n))
		return SEV_NONE;
	if (c_icontains(s, n, "CRIT") || c_icontains(s, n, "FATAL") ||
	    c_icontains(s, n, "EMERG") || c_icontains(s, n, "ALERT") ||
	    c_icontains(s, n, "PANIC"))
		return SEV_CRIT;
	if (c_icontains(s, n, "ERR"))
		return SEV_ERR;
	if (c_icontains(s, n, "WARN"))
		return SEV_WARN;
	if (c_icontains(s, n, "INFO") || c_icontains(s, n, "DEBUG") ||
	    c_icontains(s, n, "NOTICE") || c_icontains(s, n, "TRACE") ||
	    c_icontains(s, n, "VERBOSE"))
		return -1;
	return SEV_NONE;
}

/* level_sev_generic() of a level constant alone: one of at most three
 * words, one a level's whole name, or that name after one capital
 * (V_WARNING, LOG_ERR, MSG_FATAL, FERROR_XFER; not
 * ADVICE_MERGE_CONFLICT_ERROR, a kind of advice, or CHERRY_PICKS) */
static int level_sev_strict(const fl_toks *t, size_t b, size_t e)
{
	int sev = level_sev_generic(t, b, e);
	if (sev == SEV_NONE || sev < 0)
		return sev;
	const char *s = t->src + t->v[b].off;
	size_t n = t->v[b].len, words = 0;
	bool level = false;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && s[j] != '_')
			j++;
		if (j > i) {
			words++;
			static const char *const lv[] = {"ERROR", "ERR", "WARN", "WARNING", "FATAL",
							 "CRIT", "CRITICAL", "ALERT", "EMERG", "PANIC",
							 NULL};
			/* (or one capital before it: rsync's FERROR,
			 * FWARNING, a level of its F-numbered log codes) */
			for (const char *const *q = lv; *q; q++)
				level = level || word_is(s + i, j - i, *q) ||
					(j - i > 1 && word_is(s + i + 1, j - i - 1, *q));
		}
		i = j + 1;
	}
	return level && words <= 3 ? sev : SEV_NONE;
}

static bool is_stderr(const fl_toks *t, size_t b, size_t e)
{
	if (e - b == 1 && (tk_id(t, b, "stderr") || tk_id(t, b, "__stderrp")))
		return true;
	if (e - b == 3 && tk_id(t, b, "std") && tk_p(t, b + 1, "::") &&
	    tk_id(t, b + 2, "stderr"))
		return true;
	return false;
}

/* A stream other than stdout that a message goes to as an error: any
 * given a format that says it prints one (fprintf((FILE *)data, "jq:
 * error: Could not open file %s: %s\n", ...), "error: ...", "prog: fatal:
 * ..."); not one a progress meter or a help text is written to. */
static bool is_err_stream(const fl_toks *t, size_t b, size_t e, size_t fb)
{
	for (size_t k = b; k < e; k++)
		if (tk_id(t, k, "stdout") || tk_id(t, k, "stdin"))
			return false;
	if (t->v[fb].kind != FL_TK_STRING)
		return false;
	const char *f = fl_tok_str(t, &t->v[fb]);
	size_t w = 0;
	while (f[w] && f[w] != ' ' && f[w] != ':' && w < 40)
		w++;
	if (f[w] == ':' && f[w + 1] == ' ')
		f += w + 2; /* a program's name first */
	return strncmp(f, "error: ", 7) == 0 || strncmp(f, "fatal: ", 7) == 0 ||
	       strncmp(f, "warning: ", 9) == 0;
}

/* static member functions that build the exception they are called on:
 * `throw type_error::create(302, "...", &j)` throws a type_error */
static const char *const factories[] = {"create", "Create", "make", "Make", "make_error", "New", NULL};

/* A throw at token i of the expression starting at token j: `throw X(...)`,
 * `throw new X(...)`, `throw "..."`, `throw X::create(code, "...")`, or a
 * throwing macro's argument (JSON_THROW(X(...))). */
static void site_throw_expr(walk *w, const sstack *sk, size_t i, size_t j)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	bool nw = false;
	if (tk_id(t, j, "new")) {
		nw = true;
		j++;
	}
	const char *idiom = nw ? "throw new" : "throw";
	if (j >= t->n)
		return;
	if (t->v[j].kind == FL_TK_STRING || c_arg_is_literal(c, j, t->n, false)) {
		size_t e = j;
		while (e < t->n && !tk_p1(t, e, ';') && !tk_p1(t, e, ',') &&
		       !is_close(t, e) && (t->v[e].flags & TF_DIR) ==
						  (t->v[i].flags & TF_DIR)) {
			if (is_open(t, e) && c->mt[e] != NONE && c->mt[e] > e)
				e = c->mt[e];
			e++;
		}
		emit(w, sk, i, i, c_arg_msg(c, j, e, false), NULL, NULL,
		     FL_T_EXCEPTION, FL_S_ERROR, idiom);
		return;
	}
	size_t q = c_qual_end(t, j, t->n);
	if (q == NONE)
		return;
	size_t k = q + 1;
	if (tk_p1(t, k, '<')) {
		int d = 0;
		size_t lim = 0;
		for (; k < t->n && lim < 400; k++, lim++) {
			if (tk_p1(t, k, '<'))
				d++;
			else if (tk_p1(t, k, '>'))
				d--;
			else if (tk_p(t, k, ">>"))
				d -= 2;
			else if (tk_p1(t, k, ';'))
				return;
			if (d <= 0)
				break;
		}
		k++;
	}
	if (!tk_p1(t, k, '(') && !tk_p1(t, k, '{'))
		return;
	/* X::create(...): the class is X */
	bool factory = q >= j + 2 && tk_p(t, q - 1, "::") && c_in_list(t, q, factories);
	fl_buf cb = {0};
	c_put_name(t, j, factory ? q - 1 : q + 1, &cb);
	fl_buf_cstr(&cb);
	size_t st[MAXA], en[MAXA];
	int na = c_split_args(c, k, st, en, MAXA);
	char *msg = NULL, *code = NULL;
	int a = 0;
	if (na == 0) {
		if (!factory)
			msg = fl_xstrdup(cb.s);
	} else {
		for (; a < na && !msg; a++)
			msg = c_arg_msg(c, st[a], en[a], false);
	}
	/* a factory's leading number is the error's id within its class:
	 * type_error::create(302, ...) is type_error.302, as nlohmann/json
	 * prints it ("[json.exception.type_error.302] ...") */
	if (factory && msg && a >= 2 && en[0] - st[0] == 1 &&
	    t->v[st[0]].kind == FL_TK_NUMBER) {
		const char *cls = strrchr(cb.s, ':');
		cls = cls ? cls + 1 : cb.s;
		char *num = fl_tok_dup(t, st[0]);
		code = fl_xjoin(cls, ".", num);
		free(num);
	}
	if (msg)
		emit(w, sk, i, i, msg, code, cb.s, FL_T_EXCEPTION, FL_S_ERROR,
		     idiom);
	free(code);
	fl_buf_free(&cb);
}

static void site_throw(walk *w, const sstack *sk, size_t i)
{
	site_throw_expr(w, sk, i, i + 1);
}

static void site_ereport(walk *w, const sstack *sk, size_t start, size_t i,
			 size_t *st, size_t *en, int na, bool elog)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	if (na < 2)
		return;
	int sev = level_sev_pg(t, st[0], en[0]);
	if (sev == SEV_NONE)
		return;
	const char *type = sev == SEV_WARN ? FL_T_CONSOLE : FL_T_EXCEPTION;
	if (elog) {
		emit(w, sk, start, i, c_fmt_msg(c, st, en, na, 1), NULL, NULL,
		     type, c_sev_str(sev), "elog");
		return;
	}
	char *msg = NULL, *code = NULL;
	size_t close = c->mt[i + 1];
	for (size_t k = st[1]; k < close; k++) {
		if (t->v[k].kind != FL_TK_IDENT || !tk_p1(t, k + 1, '('))
			continue;
		size_t a[MAXA], b[MAXA];
		if (!msg && (tk_id(t, k, "errmsg") ||
			     tk_id(t, k, "errmsg_internal") ||
			     tk_id(t, k, "errmsg_plural"))) {
			int nm = c_split_args(c, k + 1, a, b, MAXA);
			if (nm >= 1)
				msg = c_fmt_msg(c, a, b, nm, 0);
		} else if (!code && tk_id(t, k, "errcode")) {
			if (c_split_args(c, k + 1, a, b, 1) >= 1 && b[0] - a[0] == 1 &&
			    t->v[a[0]].kind == FL_TK_IDENT)
				code = fl_tok_dup(t, a[0]);
		}
	}
	emit(w, sk, start, i, msg, code, NULL, type, c_sev_str(sev), "ereport");
	free(code);
}

/* glog and Abseil logging at token i (name s, n bytes, at most 13):
 * LOG(ERROR) / ABSL_LOG(ERROR) <<
 * "...", PLOG(FATAL) << ..., DLOG(WARNING) << ..., and the CHECK macros,
 * which abort with their message (CHECK(p != nullptr) << "..."); true when
 * i is one of them followed by `<<` (a site or, LOG(INFO), none). */
static bool site_stream_log(walk *w, const sstack *sk, size_t i, const char *s, size_t n)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	size_t close = c->mt[i + 1];
	char nm[16];
	memcpy(nm, s, n);
	nm[n] = '\0';
	if (n > 5 && memcmp(s, "ABSL_", 5) == 0) { /* ABSL_LOG(ERROR) */
		s += 5;
		n -= 5;
	}
	bool log = word_is(s, n, "LOG") || word_is(s, n, "PLOG") || word_is(s, n, "DLOG");
	bool check = !log && (word_is(s, n, "CHECK") || word_is(s, n, "PCHECK") ||
			      word_is(s, n, "CHECK_EQ") || word_is(s, n, "CHECK_NE") ||
			      word_is(s, n, "CHECK_LT") || word_is(s, n, "CHECK_LE") ||
			      word_is(s, n, "CHECK_GT") || word_is(s, n, "CHECK_GE"));
	if (!log && !check)
		return false;
	/* without a stream after it, it is some other LOG(...) or CHECK(...)
	 * (a project's printf-like LOG(level, fmt, ...)): not decided here */
	if (close == NONE || !tk_p(t, close + 1, "<<"))
		return false;
	const char *sev = FL_S_CRITICAL, *type = FL_T_PANIC;
	if (log) {
		if (close != i + 3 || t->v[i + 2].kind != FL_TK_IDENT)
			return true;
		const char *l = t->src + t->v[i + 2].off;
		size_t ln = t->v[i + 2].len;
		type = FL_T_CONSOLE;
		if (word_is(l, ln, "ERROR"))
			sev = FL_S_ERROR;
		else if (word_is(l, ln, "WARNING"))
			sev = FL_S_WARNING;
		else if (!word_is(l, ln, "FATAL") && !word_is(l, ln, "DFATAL") &&
			 !word_is(l, ln, "QFATAL"))
			return true; /* INFO, VERBOSE ... */
	}
	emit(w, sk, i, i, c_stream_msg(c, close + 1), NULL, NULL, type, sev, nm);
	return true;
}

/* One call being looked at: NAME(...) at token i. */
typedef struct call {
	size_t i, start;  /* the name; the first token of a qualified name */
	const char *s;    /* the name's text */
	size_t n;
	size_t st[MAXA], en[MAXA];
	int na;           /* its arguments; -2 until split */
	char nm[64];      /* the name as a C string, for the idiom */
} call;

/* the call's arguments, split the first time they are asked for */
#define ARGS() (k->na == -2 ? (k->na = c_split_args(c, k->i + 1, k->st, k->en, MAXA)) : k->na)
#define NAME(x) word_is(k->s, k->n, x)

/* the name holds "printf" or "puts" (memmem's call cost more than the
 * short names it looks through: it ran for every call) */
static inline bool names_printer(const char *s, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i++)
		if (s[i] == 'p' && ((s[i + 1] == 'u' && s[i + 2] == 't' && s[i + 3] == 's') ||
				    (i + 6 <= n && memcmp(s + i + 1, "rintf", 5) == 0)))
			return true;
	return false;
}

/* A printing call with stderr among its arguments (not fprintf or fputs
 * themselves, which site_library_call reads): its message is its first
 * literal argument, a format when the name says printf.  False when no
 * argument is stderr. */
static bool site_stderr_print(walk *w, const sstack *sk, call *k)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	if (ARGS() < 2)
		return false;
	/* the message: the first literal with a conversion in it, else the
	 * last literal (color_fprintf_ln(stderr, "red", "text")) */
	int err = -1, lit = -1;
	bool conv = false;
	for (int a = 0; a < k->na; a++) {
		if (err < 0 && is_stderr(t, k->st[a], k->en[a])) {
			err = a;
		} else if (!conv && c_arg_is_literal(c, k->st[a], k->en[a], true)) {
			lit = a;
			for (size_t x = k->st[a]; x < k->en[a] && !conv; x++)
				conv = t->v[x].kind == FL_TK_STRING &&
				       memchr(fl_tok_str(t, &t->v[x]), '%', t->v[x].slen);
		}
	}
	if (err < 0)
		return false;
	if (lit >= 0) {
		bool fmt = fl_memmem(k->s, k->n, "printf", 6) != NULL; /* once per site */
		emit(w, sk, k->start, k->i,
		     fmt ? c_fmt_msg(c, k->st, k->en, k->na, lit) : c_arg_msg(c, k->st[lit], k->en[lit], false),
		     NULL, NULL, FL_T_CONSOLE, FL_S_ERROR, k->nm);
	}
	return true;
}

/* Calls of libraries' reporters: glog/Abseil streams, spdlog, BSD err.h,
 * perror, fprintf/fputs to stderr, syslog, glib, Postgres, CPython.
 * False when the call is none of them. */
/* [b, e) names a buffer for an error's text: a name (a member's, an
 * array's) with "err" in it that is not a count or a code (err_buf,
 * errbuf, c->errmsg, error_text; not errcount, errno) */
static bool err_buffer(const fl_toks *t, size_t b, size_t e)
{
	size_t last = NONE;
	for (size_t q = b; q < e; q++)
		if (t->v[q].kind == FL_TK_IDENT)
			last = q;
		else if (tk_p1(t, q, '['))
			break;
	if (last == NONE)
		return false;
	const char *s = t->src + t->v[last].off;
	size_t n = t->v[last].len;
	if (!c_icontains(s, n, "err") || word_is(s, n, "errno") || c_icontains(s, n, "count") ||
	    c_icontains(s, n, "code") || c_icontains(s, n, "num"))
		return false;
	return c_icontains(s, n, "buf") || c_icontains(s, n, "msg") || c_icontains(s, n, "text") ||
	       c_icontains(s, n, "str") || c_icontains(s, n, "message");
}

static bool site_library_call(walk *w, const sstack *sk, call *k)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	size_t i = k->i, start = k->start;
	const char *s = k->s;
	size_t n = k->n;
	/* glog / Abseil: LOG(ERROR) << "..." and CHECK(cond) << "..." */
	if (start == i && n >= 3 && n <= 13 && memchr("LPDCA", s[0], 5) &&
	    site_stream_log(w, sk, i, s, n))
		return true;
	/* spdlog::error("cannot open {}", path) */
	if (start != i && i >= 2 && tk_id(t, i - 2, "spdlog") &&
	    (NAME("error") || NAME("critical") || NAME("warn"))) {
		if (ARGS() >= 1)
			emit(w, sk, start, i, c_arg_msg(c, k->st[0], k->en[0], false), NULL,
			     NULL, FL_T_CONSOLE,
			     NAME("critical") ? FL_S_CRITICAL : NAME("warn") ? FL_S_WARNING : FL_S_ERROR,
			     "spdlog");
		return true;
	}
	/* any other printing function given stderr, a library's or the
	 * project's: fprintf_ln(stderr, _("...")), color_fprintf_ln(stderr,
	 * color, "..."), its message the first literal argument */
	if (n >= 7 && n <= 40 && names_printer(s, n) &&
	    !NAME("fprintf") && !NAME("vfprintf") && !NAME("fwprintf") && !NAME("fputws") &&
	    site_stderr_print(w, sk, k))
		return true;
	/* the library reporters below all start with one of these letters
	 * and are 3-19 bytes long: most calls are none of them */
	if (n < 3 || n > 19 || !memchr("evwpfsgP", s[0], 8))
		return false;
	if (NAME("err") || NAME("errx") || NAME("verr") || NAME("verrx")) {
		if (ARGS() >= 2)
			emit(w, sk, start, i, c_fmt_msg(c, k->st, k->en, k->na, 1), NULL,
			     NULL, FL_T_CONSOLE, FL_S_CRITICAL, k->nm);
		return true;
	}
	if (NAME("warn") || NAME("warnx") || NAME("vwarn") || NAME("vwarnx")) {
		if (ARGS() >= 1)
			emit(w, sk, start, i, c_fmt_msg(c, k->st, k->en, k->na, 0), NULL,
			     NULL, FL_T_CONSOLE, FL_S_WARNING, k->nm);
		return true;
	}
	/* a text written into a buffer named for errors, which a reporter
	 * prints later (rsync's `snprintf(err_buf, sizeof err_buf, "--%s
	 * cannot be used with --%s\n", ...)` then option_error()) */
	if ((NAME("snprintf") || NAME("sprintf")) && ARGS() >= 2) {
		int f = NAME("snprintf") ? 2 : 1;
		if (f < k->na && err_buffer(t, k->st[0], k->en[0]))
			emit_fmt(w, sk, start, i, k->st, k->en, k->na, f, FL_T_CONSOLE, FL_S_ERROR,
				 k->nm, false);
		return true;
	}
	if (NAME("perror")) {
		if (ARGS() >= 1)
			emit(w, sk, start, i, c_arg_msg(c, k->st[0], k->en[0], false), NULL,
			     NULL, FL_T_CONSOLE, FL_S_ERROR, "perror");
		return true;
	}
	if (NAME("fprintf") || NAME("vfprintf") || NAME("fwprintf")) {
		if (ARGS() >= 2 && is_stderr(t, k->st[0], k->en[0]))
			emit_fmt(w, sk, start, i, k->st, k->en, k->na, 1, FL_T_CONSOLE, FL_S_ERROR,
				 "fprintf(stderr)", false);
		else if (ARGS() >= 2 && err_stream_out(w, sk, k->st[0], k->en[0]))
			emit_fmt(w, sk, start, i, k->st, k->en, k->na, 1, FL_T_CONSOLE, FL_S_ERROR,
				 "fprintf(error stream)", true);
		else if (ARGS() >= 2 && is_err_stream(t, k->st[0], k->en[0], k->st[1]))
			emit_fmt(w, sk, start, i, k->st, k->en, k->na, 1, FL_T_CONSOLE, FL_S_ERROR,
				 "fprintf(error text)", false);
		return true;
	}
	if (NAME("fputs") || NAME("fputws")) {
		if (ARGS() >= 2 && is_stderr(t, k->st[1], k->en[1])) {
			emit(w, sk, start, i, c_arg_msg(c, k->st[0], k->en[0], false), NULL,
			     NULL, FL_T_CONSOLE, FL_S_ERROR, "fputs(stderr)");
		} else if (ARGS() >= 2 && err_stream_out(w, sk, k->st[1], k->en[1])) {
			char *m = c_arg_msg(c, k->st[0], k->en[0], false);
			if (m && c_is_columns(m)) {
				free(m);
				m = NULL;
			}
			emit(w, sk, start, i, m, NULL, NULL, FL_T_CONSOLE, FL_S_ERROR,
			     "fputs(error stream)");
		}
		return true;
	}
	if (NAME("syslog") || NAME("vsyslog")) {
		if (ARGS() >= 2) {
			int sev = level_sev_syslog(t, k->st[0], k->en[0]);
			if (sev != SEV_NONE)
				emit(w, sk, start, i, c_fmt_msg(c, k->st, k->en, k->na, 1),
				     NULL, NULL, FL_T_CONSOLE, c_sev_str(sev), "syslog");
		}
		return true;
	}
	if (NAME("g_error") || NAME("g_critical") || NAME("g_warning")) {
		if (ARGS() >= 1)
			emit(w, sk, start, i, c_fmt_msg(c, k->st, k->en, k->na, 0), NULL,
			     NULL, FL_T_CONSOLE,
			     NAME("g_warning") ? FL_S_WARNING : FL_S_CRITICAL,
			     k->nm);
		return true;
	}
	if (NAME("g_set_error") || NAME("g_set_error_literal")) {
		if (ARGS() >= 4)
			emit(w, sk, start, i,
			     NAME("g_set_error") ? c_fmt_msg(c, k->st, k->en, k->na, 3)
						   : c_arg_msg(c, k->st[3], k->en[3], false), NULL,
			     NULL, FL_T_EXCEPTION, FL_S_ERROR,
			     k->nm);
		return true;
	}
	if (NAME("ereport") || NAME("elog")) {
		if (ARGS() >= 2)
			site_ereport(w, sk, start, i, k->st, k->en, k->na, NAME("elog"));
		return true;
	}
	if (NAME("PyErr_SetString") || NAME("PyErr_Format")) {
		if (ARGS() >= 2 && k->en[0] - k->st[0] == 1 &&
		    t->v[k->st[0]].kind == FL_TK_IDENT) {
			const char *cs = t->src + t->v[k->st[0]].off;
			size_t cl = t->v[k->st[0]].len;
			if (cl > 7 && memcmp(cs, "PyExc_", 6) == 0) {
				cs += 6;
				cl -= 6;
			}
			char *cls = fl_xstrndup(cs, cl);
			emit(w, sk, start, i,
			     NAME("PyErr_Format") ? c_fmt_msg(c, k->st, k->en, k->na, 1)
						    : c_arg_msg(c, k->st[1], k->en[1], false), NULL,
			     cls, FL_T_EXCEPTION, FL_S_ERROR,
			     k->nm);
			free(cls);
		}
		return true;
	}
	return false;
}

/* Status returns of LevelDB/RocksDB/Abseil style:
 * Status::Corruption("bad block handle"), absl::InvalidArgumentError("...").
 * False when the call is none. */
static bool site_status_call(walk *w, const sstack *sk, call *k)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	size_t i = k->i, start = k->start;
	const char *s = k->s;
	size_t n = k->n;
	if (start != i && i >= 2 &&
	    ((tk_id(t, i - 2, "Status") && n >= 5 && s[0] >= 'A' && s[0] <= 'Z' &&
	      !NAME("OK") && !NAME("Status") && !NAME("CopyState") &&
	      !NAME("ToString") && !(n > 2 && s[0] == 'I' && s[1] == 's')) ||
	     (tk_id(t, i - 2, "absl") && n > 5 && s[0] >= 'A' && s[0] <= 'Z' &&
	      memcmp(s + n - 5, "Error", 5) == 0))) {
		if (ARGS() <= 0 || k->na > 2)
			return true;
		/* Status(code, msg, msg2) prints "msg: msg2" */
		fl_buf mb = {0};
		bool lit = false;
		for (int a = 0; a < k->na; a++) {
			if (a)
				fl_buf_puts(&mb, ": ");
			char *m = c_arg_msg(c, k->st[a], k->en[a], false);
			if (m) {
				lit = true;
				fl_buf_puts(&mb, m);
				free(m);
			} else {
				c_put_placeholder(t, k->st[a], k->en[a], &mb);
			}
		}
		fl_buf_cstr(&mb);
		bool absl = tk_id(t, i - 2, "absl");
		char *code = fl_xstrndup(s, absl ? n - 5 : n);
		if (lit)
			emit(w, sk, start, i, fl_xstrdup(mb.s), code,
			     absl ? "absl::Status" : "Status", FL_T_ERROR_CODE,
			     FL_S_ERROR, absl ? "absl::Status" : "Status::");
		free(code);
		fl_buf_free(&mb);
		return true;
	}
	return false;
}

/* The call's argument its macro tests before it reports (cmac.cond),
 * for emit's guard; walk_call clears it after the call. */
static void macro_cond_arg(walk *w, call *k, const cmac *m)
{
	if (m->cond < 0 || m->cond >= k->na || m->cond >= MAXA)
		return;
	size_t b = k->st[m->cond], e = k->en[m->cond];
	/* a constant (ERROR_IF(1, ...)): it reports whenever it is reached */
	if (e == b + 1 && (w->c.t->v[b].kind == FL_TK_NUMBER || tk_id(w->c.t, b, "true") ||
			   tk_id(w->c.t, b, "TRUE") || tk_id(w->c.t, b, "false") ||
			   tk_id(w->c.t, b, "FALSE")))
		return;
	if (e > b) {
		w->cb = k->st[m->cond];
		w->ce = k->en[m->cond];
		w->cneg = m->cond_neg;
	}
}

/* A call of a macro that prints to stderr (reporters.c: stderr_macro):
 * its message the format its variable arguments start with; its severity
 * from the verbosity it is given (1 or less: an error, 2: a warning, more:
 * a notice), else critical when the macro exits, else an error. */
static void site_stderr_macro(walk *w, const sstack *sk, call *k, const cmac *m)
{
	const ctx *c = &w->c;
	const fl_toks *t = c->t;
	if (ARGS() <= m->nnamed)
		return;
	const char *sev = m->exits ? FL_S_CRITICAL : FL_S_ERROR;
	macro_cond_arg(w, k, m);
	int v;
	if (m->level >= 0 && m->level < k->na && k->en[m->level] == k->st[m->level] + 1 &&
	    t->v[k->st[m->level]].kind == FL_TK_NUMBER) {
		const char *q = t->src + t->v[k->st[m->level]].off;
		v = q[0] >= '0' && q[0] <= '9' && t->v[k->st[m->level]].len == 1 ? q[0] - '0' : 9;
		sev = v <= 1 ? sev : v == 2 ? FL_S_WARNING : FL_S_INFO;
	}
	emit(w, sk, k->start, k->i, c_fmt_msg(c, k->st, k->en, k->na, m->nnamed), NULL, NULL,
	     FL_T_CONSOLE, sev, k->nm);
}

/* A reporter given no literal: the message an argument builds
 * (set_error(jq, jv_invalid_with_msg(jv_string_fmt("...", ...))),
 * report(jv_string_concat(...)), error(msg) after msg = format(...)). */
static bool site_nested_msg(walk *w, const sstack *sk, call *k, int nsev, bool errval)
{
	const ctx *c = &w->c;
	if (nsev == SEV_LOG || nsev == SEV_NONE)
		return false;
	for (int a = 0; a < k->na && a < MAXA; a++) {
		char *m = c_nested_msg(c, k->st[a], k->en[a]);
		if (m) {
			emit(w, sk, k->start, k->i, m, NULL, NULL,
			     errval ? FL_T_EXCEPTION : FL_T_CONSOLE,
			     c_sev_str(nsev == SEV_REPORT ? SEV_ERR : nsev), k->nm);
			return true;
		}
	}
	return false;
}

/* A call of a helper of the file that composes its message around an
 * argument (compose.c): type_error(v, "has no keys"). */
static bool site_helper_call(walk *w, const sstack *sk, call *k)
{
	const ctx *c = &w->c;
	if (!c->helpers || ARGS() <= 0)
		return false;
	int sev = SEV_ERR, n = 0;
	char *m;
	while ((m = c_helper_msg(c, k->i, k->st, k->en, k->na, n, &sev)) != NULL) {
		emit(w, sk, k->start, k->i, m, NULL, NULL, FL_T_CONSOLE, c_sev_str(sev), k->nm);
		n++;
	}
	return n > 0;
}

/* The messages locals.c finds for a reporter's call that gave none (a
 * format or a message held in a local variable, a choice of literals). */
static void emit_alts(walk *w, const sstack *sk, call *k, int fmt, int sev)
{
	fl_strv v = {0};
	c_alt_msgs(&w->c, k->i, k->st, k->en, k->na, fmt, &v);
	for (size_t j = 0; j < v.n; j++)
		emit(w, sk, k->start, k->i, fl_xstrdup(v.v[j]), NULL, NULL, FL_T_CONSOLE,
		     c_sev_str(sev), k->nm);
	fl_strv_free(&v);
}

/* Calls of the project's own reporters: functions with a printf format
 * attribute, names that say they report, macros forwarding to them. */
static void site_reporter_call(walk *w, const sstack *sk, call *k)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	size_t i = k->i, start = k->start;
	const char *s = k->s;
	size_t n = k->n;
	if (start > 0 && (tk_id(t, start - 1, "throw") || tk_id(t, start - 1, "new")))
		return;
	/* __warning__("...") in __attribute__((...)): a compiler diagnostic */
	if (n > 4 && s[0] == '_' && s[1] == '_' && s[n - 2] == '_' && s[n - 1] == '_')
		return;
	uint64_t hn = c_hash_name(s, n);
	if (start == i) {
		/* a macro that throws its argument */
		const cmac *tm = c_mac_find_h(w->mac ? w->mac : w->c.tree, s, n, hn);
		if (tm && strcmp(tm->target, "throw") == 0) {
			if (i + 2 < c->mt[i + 1])
				site_throw_expr(w, sk, i, i + 2);
			return;
		}
		if (tm && strcmp(tm->target, "stderr") == 0) {
			site_stderr_macro(w, sk, k, tm);
			return;
		}
	}
	/* USAGE_ERROR ((0, 0, _("..."), x)): a call of the macro's reporter
	 * with the inner list, at the macro's name */
	call kk;
	const ctree *mtree = w->mac ? w->mac : w->c.tree;
	const cmac *am = start == i ? c_mac_find_h(mtree, s, n, hn) : NULL;
	/* WARNOPT (WARN_X, (0, 0, _("..."), x)): a macro that hands one
	 * of its parameters to such a macro whole (tar's `#define
	 * WARNOPT(opt,args) ... WARN (args)`): the inner list is that
	 * argument's */
	int la = 0, lna = 1, msev = SEV_NONE;
	if (am && !am->arglist && am->va_pos < 0 && am->amap[0] >= 0 && am->amap[1] < 0) {
		const cmac *in = c_mac_find_h(mtree, am->target, strlen(am->target),
					      c_hash_name(am->target, strlen(am->target)));
		if (in && in->arglist) {
			msev = c_name_sev(am->target, strlen(am->target), true);
			la = am->amap[0];
			lna = am->nnamed;
			am = in;
		}
	}
	if (am && am->arglist) {
		if (ARGS() != lna || la >= MAXA || !tk_p1(t, k->st[la], '(') ||
		    c->mt[k->st[la]] != k->en[la] - 1)
			return;
		/* (the macro's name says how grave: WARN's `error Args`
		 * warns) */
		if (msev == SEV_NONE)
			msev = c_name_sev(s, n, true);
		kk = *k;
		kk.na = c_split_args(c, k->st[la], kk.st, kk.en, MAXA);
		kk.s = am->target;
		kk.n = strlen(am->target);
		k = &kk;
		s = kk.s;
		n = kk.n;
		hn = c_hash_name(s, n);
	}
	const rep *r = c_tree_find_h(w->c.tree, s, n, hn);
	if (r && r->fmtr && !r->lvl)
		return; /* a formatter: a message only when reported (compose.c) */
	if (!r && start != i)
		return; /* std::runtime_error(...) etc. */
	int nsev = c_name_sev(s, n, r != NULL);
	if (msev == SEV_WARN || msev == SEV_CRIT)
		nsev = msev;
	/* a macro forwarding to a reporter: its format argument is the
	 * target's, moved by the arguments the macro adds (__FILE__...) */
	const cmac *mc = r ? NULL : c_mac_find_h(w->mac ? w->mac : w->c.tree, s, n, hn);
	int mfmt = -1;
	/* the reporter the macro calls: its own, or (a dispatching macro,
	 * target "#N") the name its N-th argument gives */
	const char *mts = mc ? mc->target : NULL;
	size_t mtn = mc ? strlen(mc->target) : 0;
	if (mc && mts[0] == '#') {
		int q = atoi(mts + 1);
		if (ARGS() <= q || k->en[q] != k->st[q] + 1 || t->v[k->st[q]].kind != FL_TK_IDENT)
			return;
		mts = t->src + t->v[k->st[q]].off;
		mtn = t->v[k->st[q]].len;
	}
	if (mc) {
		const rep *tr = c_tree_find(w->c.tree, mts, mtn);
		int tsev = c_name_sev(mts, mtn, tr != NULL);
		if (nsev == SEV_NONE || nsev == SEV_REPORT || nsev == SEV_LOG)
			nsev = tsev == SEV_NONE ? nsev : tsev;
		if (tr && tr->fmt >= 1 && tr->fmt <= MAC_ARGS) {
			int f = tr->fmt - 1;
			if (mc->va_pos >= 0 && f >= mc->va_pos)
				mfmt = mc->nnamed + (f - mc->va_pos);
			else
				mfmt = mc->amap[f];
			/* mfmt < 0: the macro supplies the format itself
			 * (BUG("%s: %s", msg, ...)): take the first literal
			 * argument as below */
		}
		if (tr && tr->noret)
			nsev = nsev == SEV_NONE || nsev == SEV_REPORT ? SEV_CRIT : nsev;
		if (ARGS() > 0)
			macro_cond_arg(w, k, mc);
	}
	/* an error value made from a message: jv_invalid_with_msg(...) */
	bool errval = !r && !mc && nsev == SEV_NONE && c_errval_name(s, n);
	if (errval)
		nsev = SEV_ERR;
	if (!r && !mc && (nsev == SEV_NONE || nsev == SEV_REPORT))
		return;
	if (mc && nsev == SEV_NONE)
		return;
	if (ARGS() <= 0)
		return;
	int argi = -1;
	if (mfmt >= 0) {
		if (mfmt >= k->na || mfmt >= MAXA)
			return;
		argi = mfmt;
	} else if (r) {
		if (r->fmt < 1 || r->fmt > k->na || r->fmt > MAXA)
			return;
		argi = r->fmt - 1;
	} else {
		/* a name that says it reports, with no format attribute:
		 * its first string literal (not a constant, which such
		 * names are also given as data: write_or_die(fd, sig, n)) */
		for (int a = 0; a < k->na && a < MAXA; a++)
			if (c_arg_is_literal(c, k->st[a], k->en[a], false)) {
				argi = a;
				break;
			}
		if (argi < 0 && !(mc && mc->text)) {
			/* the message an argument builds (compose.c), else a
			 * message in a local variable (emit_alts, below) */
			if (site_nested_msg(w, sk, k, nsev, errval))
				return;
		}
	}
	/* helpf(stream, NULL): only the trailer the reporter prints after
	 * its format */
	const char *tail = r && argi >= 0 && argi < k->na && k->en[argi] == k->st[argi] + 1 &&
				   (tk_id(t, k->st[argi], "NULL") || tk_id(t, k->st[argi], "nullptr"))
			       ? c_reporter_tail(w->c.tree, s, n)
			       : NULL;
	int sev = nsev;
	if (sev == SEV_NONE || sev == SEV_REPORT || sev == SEV_LOG) {
		int lv = SEV_NONE;
		for (int a = 0; a < argi; a++) {
			int x = r && r->lvl ? level_sev_strict(t, k->st[a], k->en[a])
					    : level_sev_generic(t, k->st[a], k->en[a]);
			if (x != SEV_NONE) {
				lv = x;
				break;
			}
		}
		if (lv < 0)
			return;
		/* a logger reports only at an error or warning level, and so
		 * does a function that prints what it formats */
		if ((sev == SEV_LOG || (r && r->lvl)) && lv == SEV_NONE)
			return;
		sev = lv != SEV_NONE ? lv : (r && r->noret) ? SEV_CRIT : SEV_ERR;
	}
	if (tail) {
		emit(w, sk, start, i, fl_xstrdup(tail), NULL, NULL, FL_T_CONSOLE, c_sev_str(sev),
		     k->nm);
		return;
	}
	/* a use of a macro that gives the reporter a text of its own (not
	 * the macro's own #define) */
	if (argi < 0 && mc && mc->text) {
		if (start >= 1 && tk_id(t, start - 1, "define"))
			return;
		emit(w, sk, start, i, fl_xstrdup(mc->text), NULL, NULL, FL_T_CONSOLE, c_sev_str(sev),
		     k->nm);
		return;
	}
	/* the text the reporter prints before its format */
	w->head = r ? c_reporter_head(w->c.tree, s, n)
		    : mc ? c_reporter_head(w->c.tree, mts, mtn) : NULL;
	w->end = r ? c_reporter_end(w->c.tree, s, n) : mc ? c_reporter_end(w->c.tree, mts, mtn) : NULL;
	if (argi < 0 ||
	    emit_fmt(w, sk, start, i, k->st, k->en, k->na, argi,
		     r && r->errval ? FL_T_EXCEPTION : FL_T_CONSOLE, c_sev_str(sev), k->nm,
		     false) == 0)
		emit_alts(w, sk, k, argi, sev); /* a message in a local variable */
	w->head = NULL;
	w->end = NULL;
}

static void site_call(walk *w, const sstack *sk, size_t i)
{
	const fl_toks *t = w->c.t;
	if (i > 0 && (tk_p1(t, i - 1, '.') || tk_p(t, i - 1, "->")))
		return;
	call k; /* not zeroed: its argument arrays are filled when split */
	k.i = k.start = i;
	k.s = t->src + t->v[i].off;
	k.n = t->v[i].len;
	k.na = -2;
	if (i > 0 && tk_p(t, i - 1, "::")) {
		k.start = i - 1;
		if (k.start > 0 && t->v[k.start - 1].kind == FL_TK_IDENT)
			k.start--;
	}
	size_t l = k.n < sizeof k.nm - 1 ? k.n : sizeof k.nm - 1;
	memcpy(k.nm, k.s, l);
	k.nm[l] = '\0';
	if (site_library_call(w, sk, &k) || site_status_call(w, sk, &k) ||
	    site_helper_call(w, sk, &k))
		return;
	size_t before = w->emitted;
	site_reporter_call(w, sk, &k);
	w->cb = w->ce = 0;
	/* a macro that reports what it is given (CHECK(c, "...")) is a
	 * reporter; one that reports a text of its own, a use of it */
	if (w->emitted == before && w->nms && !(t->v[i].flags & TF_DIR))
		macro_use(w, sk, i);
}
#undef ARGS
#undef NAME

/* ---- error message tables ------------------------------------------------------
 * A function that gives an error code's text: a switch whose cases return
 * literals (xz's message_strm: `case LZMA_FORMAT_ERROR: return _("File
 * format not recognized");`, curl's curl_easy_strerror).  The program
 * prints the text (with a file name, after its own name): each return is
 * a site, of the code its case names. */

/* The label of the `case LABEL:` (or `case PREFIX(LABEL):`) that ends at
 * the ':' at colon: its first token, or NONE. */
static size_t case_label(const fl_toks *t, const size_t *mt, size_t colon)
{
	if (colon < 2 || !tk_p1(t, colon, ':'))
		return NONE;
	if (t->v[colon - 1].kind == FL_TK_IDENT && tk_id(t, colon - 2, "case"))
		return colon - 1;
	if (tk_p1(t, colon - 1, ')') && mt[colon - 1] != NONE && mt[colon - 1] >= 2 &&
	    t->v[mt[colon - 1] - 1].kind == FL_TK_IDENT && tk_id(t, mt[colon - 1] - 2, "case") &&
	    mt[colon - 1] + 2 == colon - 1 && t->v[colon - 2].kind == FL_TK_IDENT)
		return colon - 2;
	return NONE;
}

/* The literal `return "..."` or `return _("...")` at i returns, as
 * [*b, *e) of its argument, and the ';' after it; NONE when it is not one. */
static size_t return_literal(const ctx *c, size_t i, size_t *b, size_t *e)
{
	const fl_toks *t = c->t;
	size_t a = i + 1, end;
	if (a < t->n && t->v[a].kind == FL_TK_STRING) {
		end = a + 1;
		while (end < t->n && t->v[end].kind == FL_TK_STRING)
			end++; /* adjacent literals */
	} else if (a + 3 < t->n && t->v[a].kind == FL_TK_IDENT && tk_p1(t, a + 1, '(') &&
		   c->mt[a + 1] != NONE && t->v[a + 2].kind == FL_TK_STRING &&
		   c_arg_is_literal(c, a, c->mt[a + 1] + 1, false)) {
		end = c->mt[a + 1] + 1;
	} else {
		return NONE;
	}
	if (!tk_p1(t, end, ';'))
		return NONE;
	*b = a;
	*e = end;
	return end;
}

/* An ALL_CAPS name that says error: LZMA_DATA_ERROR, CURLE_BAD_FUNCTION_ARGUMENT,
 * ERR_GENERIC. */
static bool errorish_label(const fl_toks *t, size_t i)
{
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	for (size_t k = 0; k < n; k++)
		if (s[k] >= 'a' && s[k] <= 'z')
			return false;
	const char *e_ = n > 6 ? fl_memmem(s, n, "E_", 2) : NULL; /* CURLE_BAD_... */
	return fl_memmem(s, n, "ERR", 3) || fl_memmem(s, n, "FAIL", 4) || e_ == s + 4 || e_ == s + 3;
}

/* Is the switch body opened at `open` a table of error texts: three
 * cases or more returning literals, two of them or more of error codes? */
static bool message_table(const ctx *c, size_t open)
{
	const fl_toks *t = c->t;
	size_t close = c->mt[open];
	if (close == NONE || close <= open)
		return false;
	size_t rets = 0, errs = 0;
	for (size_t q = open + 1; q < close; q++) {
		if (tk_p1(t, q, '{') && c->mt[q] != NONE && c->mt[q] > q) {
			q = c->mt[q]; /* a nested block */
			continue;
		}
		size_t b, e, lab;
		if (!tk_id(t, q, "return") || return_literal(c, q, &b, &e) == NONE ||
		    (lab = case_label(t, c->mt, q - 1)) == NONE)
			continue;
		rets++;
		errs += errorish_label(t, lab);
	}
	return rets >= 3 && errs >= 2;
}

/* `case CODE: return "text";` at the return i of such a table: a site.
 * True when it is one. */
static bool site_table_return(walk *w, const sstack *sk, size_t i)
{
	const ctx *c = &w->c;
	const fl_toks *t = c->t;
	size_t b, e, lab = i ? case_label(t, c->mt, i - 1) : NONE;
	if (lab == NONE || return_literal(c, i, &b, &e) == NONE)
		return false;
	/* the switch's body: the '{' that holds the case */
	size_t open = NONE;
	for (size_t q = lab; q-- > 0;) {
		if (tk_p1(t, q, '}') && c->mt[q] != NONE && c->mt[q] < q) {
			q = c->mt[q];
			continue;
		}
		if (tk_p1(t, q, '{')) {
			open = q;
			break;
		}
	}
	if (open == NONE || open < 2 || !tk_p1(t, open - 1, ')') || c->mt[open - 1] == NONE ||
	    c->mt[open - 1] == 0 || !tk_id(t, c->mt[open - 1] - 1, "switch"))
		return false;
	if (w->tbl_open != open) {
		w->tbl_open = open;
		w->tbl_ok = message_table(c, open);
	}
	if (!w->tbl_ok)
		return false;
	char *code = errorish_label(t, lab) ? fl_tok_dup(t, lab) : NULL;
	emit(w, sk, i, i, c_arg_msg(c, b, e, false), code, NULL, FL_T_ERROR_CODE, FL_S_ERROR,
	     "error message table");
	free(code);
	return true;
}

static void walk_tokens(walk *w)
{
	const fl_toks *t = w->c.t;
	const ctx *c = &w->c;
	c_sk_push(&w->main)->kind = SK_TOP;
	uint32_t dk = DK_OTHER; /* the kind of the directive dir tokens are in */
	for (size_t i = 0; i < t->n; i++) {
		const fl_tok *k = &t->v[i];
		bool dir = k->flags & TF_DIR;
		if (k->flags & TF_DIRSTART) {
			dk = k->str;
			/* #define NAME( ... : a function-like macro */
			w->macro = NONE;
			if (i + 3 < t->n && tk_id(t, i + 1, "define") && t->v[i + 2].kind == FL_TK_IDENT &&
			    tk_p1(t, i + 3, '(') && t->v[i + 2].off + t->v[i + 2].len == t->v[i + 3].off)
				w->macro = i + 2;
			w->dir.n = 0;
			c_sk_push(&w->dir)->kind = SK_OTHER;
			/* keep the main scope depth consistent across #if
			 * branches */
			if (k->str == DK_IF) {
				if (w->nifs + 2 > w->capifs) {
					w->capifs = w->capifs ? w->capifs * 2 : 32;
					w->ifs = fl_xrealloc(w->ifs, w->capifs * 2 *
								      sizeof *w->ifs);
				}
				w->ifs[2 * w->nifs] = w->main.n;
				w->ifs[2 * w->nifs + 1] = SIZE_MAX;
				w->nifs++;
			} else if (k->str == DK_ELSE && w->nifs) {
				size_t *e = &w->ifs[2 * (w->nifs - 1)];
				if (e[1] == SIZE_MAX)
					e[1] = w->main.n;
				if (e[0] <= w->main.cap && e[0] >= 1)
					w->main.n = e[0];
			} else if (k->str == DK_ENDIF && w->nifs) {
				size_t *e = &w->ifs[2 * (w->nifs - 1)];
				if (e[1] != SIZE_MAX && e[1] <= w->main.cap &&
				    e[1] >= 1)
					w->main.n = e[1];
				w->nifs--;
			}
		}
		sstack *sk = dir ? &w->dir : &w->main;
		if (k->kind == FL_TK_PUNCT && k->len == 1) {
			char ch = t->src[k->off];
			scope *top = &sk->v[sk->n - 1];
			if (ch == '{') {
				uint8_t tk = top->kind;
				uint32_t ss = top->ss;
				scope *sc = c_sk_push(sk);
				if (!dir && (tk == SK_TOP || tk == SK_NS ||
					     tk == SK_EXTERN || tk == SK_CLASS)) {
					c_analyze_brace(c, ss, i, sc);
				} else {
					sc->kind = (tk == SK_OTHER && !dir) ? SK_OTHER
									    : SK_BLOCK;
					if (tk == SK_CLASS || tk == SK_FUNC ||
					    tk == SK_BLOCK || dir)
						sc->kind = SK_BLOCK;
					if (!c_cond_before(c, i, &sc->gb, &sc->ge) &&
					    c_else_cond(c, i, &sc->gb, &sc->ge))
						sc->neg = 1;
				}
				sc->ss = (uint32_t)i + 1;
			} else if (ch == '}') {
				if (sk->n > 1)
					sk->n--;
				sk->v[sk->n - 1].ss = (uint32_t)i + 1;
			} else if (ch == ';') {
				top->ss = (uint32_t)i + 1;
			}
			continue;
		}
		if (k->kind != FL_TK_IDENT)
			continue;
		/* an #if or #elif condition calls nothing
		 * (JSON_HEDLEY_HAS_WARNING("-Wc++98-compat")) */
		if (dir && (dk == DK_IF || dk == DK_ELSE))
			continue;
		if (tk_id(t, i, "throw")) {
			site_throw(w, sk, i);
			continue;
		}
		if (!dir && tk_id(t, i, "return") && site_table_return(w, sk, i))
			continue;
		/* std::cerr << "bad input: " << n */
		if (tk_id(t, i, "cerr") && tk_p(t, i + 1, "<<") &&
		    (i == 0 || !tk_p1(t, i - 1, '.'))) {
			size_t at = i >= 2 && tk_id(t, i - 2, "std") && tk_p(t, i - 1, "::") ? i - 2 : i;
			emit(w, sk, at, at, c_stream_msg(c, i + 1), NULL, NULL, FL_T_CONSOLE,
			     FL_S_ERROR, "std::cerr");
			continue;
		}
		if (tk_p1(t, i + 1, '(') && c->mt[i + 1] != NONE &&
		    (t->v[i + 1].flags & TF_DIR) == (k->flags & TF_DIR))
			site_call(w, sk, i);
	}
}

void c_scan(const void *tree, const fl_src *src, fl_sites *out)
{
	lexed *x = src ? src->cache : NULL;
	if (!src || !src->text) {
		c_lexed_free(x);
		return;
	}
	fl_toks t;
	size_t *mt;
	if (x) {
		/* lexed by the collect pass, from this same text */
		t = x->t;
		mt = x->mt;
		free(x);
	} else {
		fl_toks_init(&t, src);
		c_lex(&t);
		if (c_is_grammar(src->path))
			c_grammar_tidy(&t);
		mt = c_match(&t);
	}
	cconsts consts = {0};
	c_consts_find(&t, mt, &consts);
	walk w;
	memset(&w, 0, sizeof w);
	w.c.t = &t;
	w.c.mt = mt;
	w.c.tree = tree;
	w.c.out = out;
	w.c.src = src;
	w.c.consts = &consts;
	w.c.helpers = c_helpers_find(&w.c);
	w.mac = c_file_macros(tree, &w.c);
	c_locals_begin();
	w.macro = NONE;
	w.tbl_open = NONE;
	walk_tokens(&w);
	/* usage text kept in an array: each line is printed as it is */
	w.main.n = w.main.n ? 1 : 0;
	for (size_t u = 0; u < consts.usage.n && w.main.n; u++) {
		size_t k = consts.usage_tok[u];
		emit(&w, &w.main, k, k, fl_xstrdup(consts.usage.v[u]), NULL, NULL, FL_T_CONSOLE,
		     FL_S_ERROR, "usage text");
	}
	c_consts_free(&consts);
	for (size_t m = 0; m < w.nms; m++) {
		free(w.ms[m].msg);
		free(w.ms[m].cls);
	}
	free(w.ms);
	c_helpers_free((void *)w.c.helpers);
	c_tree_free(w.mac);
	free(w.main.v);
	free(w.dir.v);
	free(w.ifs);
	free(w.c.mt);
	fl_toks_free(&t);
}
