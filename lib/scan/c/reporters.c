/*
 * reporters.c — the tree's own reporters: what the words of a function's
 * name say of its severity, and the collect pass that finds, over the whole
 * tree, functions with printf format attributes and macros forwarding to
 * them.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

/* ---- reporter names ----------------------------------------------------- */


static inline bool c_lower(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

static inline bool c_upper(char ch)
{
	return ch >= 'A' && ch <= 'Z';
}

/* Severity suggested by the words of a name (split on '_' and at camelCase
 * humps: addReplyErrorFormat = add Reply Error Format); attr=true also
 * accepts the wider word list used for format-attribute functions.
 * SEV_REPORT: a reporting name without a severity word; SEV_LOG: a logging
 * name ("serverLog", "log_msg") that reports only with an error level. */
static int name_sev_uncached(const char *s, size_t n, bool attr)
{
	int best = SEV_NONE;
	bool log = false;
	size_t i = 0, words = 0;
	while (i < n) {
		while (i < n && s[i] == '_')
			i++;
		size_t b = i;
		while (i < n && s[i] != '_' &&
		       !(i > b && c_upper(s[i]) && c_lower(s[i - 1])))
			i++;
		if (i == b)
			break;
		const char *w = s + b;
		size_t l = i - b;
		if (words == 0 &&
		    (ieq(w, l, "is") || ieq(w, l, "has") || ieq(w, l, "get") ||
		     ieq(w, l, "clear") || ieq(w, l, "reset") ||
		     ieq(w, l, "on") || ieq(w, l, "to") || ieq(w, l, "str") ||
		     ieq(w, l, "num") || ieq(w, l, "count") ||
		     ieq(w, l, "should")))
			return SEV_NONE;
		/* checkIgnoreWarning(), warning_ignored(): predicates */
		if (ieq(w, l, "ignore") || ieq(w, l, "ignored"))
			return SEV_NONE;
		if (i == n && words > 0 &&
		    (ieq(w, l, "count") || ieq(w, l, "object") ||
		     ieq(w, l, "dump") ||
		     ieq(w, l, "level") || ieq(w, l, "file") ||
		     ieq(w, l, "fd") || ieq(w, l, "enabled") || ieq(w, l, "code") ||
		     ieq(w, l, "type") || ieq(w, l, "handler") ||
		     ieq(w, l, "callback") || ieq(w, l, "cb") ||
		     ieq(w, l, "fn") || ieq(w, l, "func") || ieq(w, l, "t") ||
		     ieq(w, l, "ptr") || ieq(w, l, "name") ||
		     ieq(w, l, "id") || ieq(w, l, "num") ||
		     ieq(w, l, "len") || ieq(w, l, "size") ||
		     ieq(w, l, "str") || ieq(w, l, "string")))
			return SEV_NONE;
		words++;
		/* a numbered variant: type_error2(), ret_error2() */
		while (l > 1 && w[l - 1] >= '0' && w[l - 1] <= '9')
			l--;
		/* yacc's reporters: yyerror(), yywarning() */
		if (l > 2 && w[0] == 'y' && w[1] == 'y' &&
		    (ieq(w + 2, l - 2, "error") || ieq(w + 2, l - 2, "warning"))) {
			w += 2;
			l -= 2;
		}
		/* a linter's report: lintwarn(), lint_error's one-word form
		 * (gawk's `#define lintwarn (*(set_loc(...), lintfunc))`) */
		if (l > 6 && ieq(w, 4, "lint") &&
		    (ieq(w + 4, l - 4, "warn") || ieq(w + 4, l - 4, "warning") ||
		     ieq(w + 4, l - 4, "error") || ieq(w + 4, l - 4, "err"))) {
			w += 4;
			l -= 4;
		}
		/* a lower-case compound of a setting verb and an error word, for a
		 * function with a printf format attribute: seterr(), set_error's
		 * one-word form, reporterror(), raiseerr() */
		if (attr && l >= 6) {
			static const char *const verbs[] = {"set", "report", "raise", "throw", "record", NULL};
			for (int vi = 0; verbs[vi]; vi++) {
				size_t vl = strlen(verbs[vi]);
				if (l > vl && ieq(w, vl, verbs[vi]) &&
				    (ieq(w + vl, l - vl, "err") || ieq(w + vl, l - vl, "error") ||
				     ieq(w + vl, l - vl, "errf") || ieq(w + vl, l - vl, "errorf"))) {
					w += vl;
					l -= vl;
					break;
				}
			}
		}
		/* printf-style names with a trailing 'f': failf, errorf,
		 * warnf, fatalf, panicf, dief, errf, logf */
		if (l > 3 && w[l - 1] == 'f' &&
		    (ieq(w, l - 1, "die") || ieq(w, l - 1, "fatal") ||
		     ieq(w, l - 1, "panic") || ieq(w, l - 1, "error") ||
		     ieq(w, l - 1, "fail") || ieq(w, l - 1, "warn") ||
		     ieq(w, l - 1, "err") || ieq(w, l - 1, "log")))
			l--;
		int v = SEV_NONE;
		if (ieq(w, l, "die") || ieq(w, l, "fatal") ||
		    ieq(w, l, "panic") || ieq(w, l, "bug") ||
		    ieq(w, l, "croak"))
			v = SEV_CRIT;
		else if (ieq(w, l, "error") || ieq(w, l, "fail"))
			v = SEV_ERR;
		else if (ieq(w, l, "warn") || ieq(w, l, "warning"))
			v = SEV_WARN;
		else if (attr && (ieq(w, l, "abort") || ieq(w, l, "emerg")))
			v = SEV_CRIT;
		else if (attr && (ieq(w, l, "err") || ieq(w, l, "errx") ||
				  ieq(w, l, "failure")))
			v = SEV_ERR;
		else if (attr && (ieq(w, l, "usage") || ieq(w, l, "report") ||
				  ieq(w, l, "complain")))
			v = SEV_REPORT;
		else if (ieq(w, l, "log"))
			log = true;
		if (v == SEV_REPORT) {
			if (best == SEV_NONE)
				best = SEV_REPORT;
		} else if (v != SEV_NONE &&
			   (best == SEV_NONE || best == SEV_REPORT || v > best)) {
			best = v;
		}
	}
	if (best == SEV_NONE && log)
		return SEV_LOG;
	return best;
}

/* c_name_sev() of the names met before, per thread: a tree calls the same
 * few hundred functions thousands of times.  Names up to 31 bytes. */
struct sev_memo {
	char name[31];
	uint8_t len;          /* 0: empty */
	int8_t sev[2];        /* by attr; SCHAR_MIN: not known yet */
};
#define SEV_MEMO_SIZE 2048
/* (on the heap, made on a thread's first question and freed when it
 * ends: a thread-local array of 68 KB is zeroed at every process start,
 * which an `explain` pays and never uses) */
static pthread_key_t sev_memo_key;
static pthread_once_t sev_memo_once = PTHREAD_ONCE_INIT;

static void sev_memo_key_make(void)
{
	if (pthread_key_create(&sev_memo_key, free) != 0)
		abort();
}

static struct sev_memo *sev_memo_get(void)
{
	static _Thread_local struct sev_memo *mine;
	if (!mine) {
		pthread_once(&sev_memo_once, sev_memo_key_make);
		mine = fl_xcalloc(SEV_MEMO_SIZE, sizeof *mine);
		pthread_setspecific(sev_memo_key, mine);
	}
	return mine;
}

int c_name_sev(const char *s, size_t n, bool attr)
{
	if (n == 0 || n > sizeof ((struct sev_memo *)0)->name)
		return name_sev_uncached(s, n, attr);
	struct sev_memo *sev_memo = sev_memo_get();
	/* a cheap hash: a collision only costs a recomputation */
	size_t h = n * 131u + (unsigned char)s[0] * 31u +
		   (unsigned char)s[n - 1] * 7u + (unsigned char)s[n / 2] * 17u +
		   (unsigned char)s[n / 3] * 3u;
	struct sev_memo *m = &sev_memo[h & (SEV_MEMO_SIZE - 1)];
	if (m->len != n || memcmp(m->name, s, n) != 0) {
		memcpy(m->name, s, n);
		m->len = (uint8_t)n;
		m->sev[0] = m->sev[1] = SCHAR_MIN;
	}
	if (m->sev[attr] == SCHAR_MIN)
		m->sev[attr] = (int8_t)name_sev_uncached(s, n, attr);
	return m->sev[attr];
}

const char *c_sev_str(int s)
{
	return s == SEV_CRIT ? FL_S_CRITICAL : s == SEV_WARN ? FL_S_WARNING
							  : FL_S_ERROR;
}

/* ---- tree: reporter functions with printf format attributes ---------------- */


uint64_t c_hash_name(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* c_tree_find() with the name's c_hash_name() given (a call site looks its
 * name up in both tables) */
const rep *c_tree_find_h(const ctree *tr, const char *s, size_t n, uint64_t h)
{
	if (!tr || !tr->cap)
		return NULL;
	size_t i = h & (tr->cap - 1);
	while (tr->v[i].name) {
		if (strncmp(tr->v[i].name, s, n) == 0 && tr->v[i].name[n] == '\0')
			return &tr->v[i];
		i = (i + 1) & (tr->cap - 1);
	}
	return NULL;
}

const rep *c_tree_find(const ctree *tr, const char *s, size_t n)
{
	return c_tree_find_h(tr, s, n, c_hash_name(s, n));
}

void c_tree_put_kind(ctree *tr, const char *s, size_t n, int fmt, bool noret, bool fmtr)
{
	if (c_tree_find(tr, s, n))
		return;
	if ((tr->n + 1) * 2 > tr->cap) {
		size_t cap = tr->cap ? tr->cap * 2 : 64;
		rep *v = fl_xcalloc(cap, sizeof *v);
		for (size_t i = 0; i < tr->cap; i++) {
			if (!tr->v[i].name)
				continue;
			size_t j = c_hash_name(tr->v[i].name,
					     strlen(tr->v[i].name)) & (cap - 1);
			while (v[j].name)
				j = (j + 1) & (cap - 1);
			v[j] = tr->v[i];
		}
		free(tr->v);
		tr->v = v;
		tr->cap = cap;
	}
	size_t j = c_hash_name(s, n) & (tr->cap - 1);
	while (tr->v[j].name)
		j = (j + 1) & (tr->cap - 1);
	tr->v[j].name = fl_xstrndup(s, n);
	tr->v[j].fmt = fmt;
	tr->v[j].noret = noret;
	tr->v[j].fmtr = fmtr;
	tr->n++;
}

bool c_returns_void(const fl_toks *t, size_t nm)
{
	bool v = false;
	for (size_t k = nm; k > 0 && nm - k < 8;) {
		k--;
		if (t->v[k].flags & TF_DIR)
			break;
		if (tk_p1(t, k, '*'))
			return false;
		if (t->v[k].kind != FL_TK_IDENT)
			break;
		if (tk_id(t, k, "void"))
			v = true;
	}
	return v;
}

void c_tree_set_lvl(ctree *tr, const char *s, size_t n)
{
	rep *r = (rep *)c_tree_find(tr, s, n);
	if (r)
		r->lvl = true;
}

void c_tree_set_errval(ctree *tr, const char *s, size_t n)
{
	rep *r = (rep *)c_tree_find(tr, s, n);
	if (r)
		r->errval = true;
}

void c_tree_put(ctree *tr, const char *s, size_t n, int fmt, bool noret)
{
	c_tree_put_kind(tr, s, n, fmt, noret, false);
}

void *c_tree_new(void)
{
	return fl_xcalloc(1, sizeof(ctree));
}

void c_tree_free(void *p)
{
	ctree *tr = p;
	if (!tr)
		return;
	for (size_t i = 0; i < tr->cap; i++)
		free(tr->v[i].name);
	free(tr->v);
	for (size_t i = 0; i < tr->mn; i++) {
		free(tr->mv[i].name);
		free(tr->mv[i].target);
		free(tr->mv[i].text);
	}
	free(tr->mv);
	free(tr->mh);
	c_argsrc_free(tr);
	free(tr);
}

static const cmac *mac_find(const ctree *tr, const char *s, size_t n);
static const cmac *mac_own(const ctree *tr, const char *s, size_t n);
static void mac_add(ctree *tr, const cmac *m);

/* Fold one file's part into the tree: the same first-wins and cap rules as
 * collecting that file into the tree directly (names are moved). */
void c_tree_merge(void *tree, void *part)
{
	ctree *tr = tree, *p = part;
	for (size_t i = 0; i < p->cap; i++) {
		rep *r = &p->v[i];
		if (r->name && !c_tree_find(tr, r->name, strlen(r->name))) {
			c_tree_put_kind(tr, r->name, strlen(r->name), r->fmt, r->noret, r->fmtr);
			if (r->errval)
				c_tree_set_errval(tr, r->name, strlen(r->name));
			if (r->lvl)
				c_tree_set_lvl(tr, r->name, strlen(r->name));
		}
	}
	for (size_t i = 0; i < p->mn; i++) {
		cmac *m = &p->mv[i];
		if (tr->mn >= 4096 || mac_own(tr, m->name, strlen(m->name)))
			continue;
		mac_add(tr, m);
		m->name = m->target = m->text = NULL;
	}
	c_argsrc_merge(tr, p);
}

bool c_icontains(const char *s, size_t n, const char *w)
{
	size_t l = strlen(w);
	for (size_t i = 0; i + l <= n; i++)
		if (ieq(s + i, l, w))
			return true;
	return false;
}

/* identifiers that take parentheses but are not the declared name */
bool c_attr_like(const fl_toks *t, size_t i)
{
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
#define KW(w) {w, sizeof w - 1}
	static const struct {
		const char *w;
		size_t n;
	} kw[] = {
		KW("__attribute__"), KW("__attribute"), KW("__declspec"), KW("alignas"),
		KW("_Alignas"), KW("alignof"), KW("decltype"), KW("noexcept"), KW("throw"),
		KW("sizeof"), KW("typeof"), KW("__typeof__"), KW("__asm__"), KW("asm"), KW("if"),
		KW("while"), KW("for"), KW("switch"), KW("return"), KW("__THROW"), KW("_Pragma"),
		KW("__pragma"), KW("defined")};
#undef KW
	for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
		if (n == kw[k].n && memcmp(s, kw[k].w, n) == 0)
			return true;
	if (all_upper(s, n) &&
	    (c_icontains(s, n, "PRINTF") || c_icontains(s, n, "FORMAT") ||
	     c_icontains(s, n, "ATTR") || c_icontains(s, n, "NORETURN") ||
	     c_icontains(s, n, "GNUC") || c_icontains(s, n, "LIKE") ||
	     c_icontains(s, n, "NONNULL") || c_icontains(s, n, "DEPRECATED")))
		return true;
	if (c_icontains(s, n, "printflike"))
		return true;
	return false;
}

static bool is_num(const fl_toks *t, size_t i, int *v)
{
	if (i >= t->n || t->v[i].kind != FL_TK_NUMBER)
		return false;
	int x = 0;
	for (size_t k = 0; k < t->v[i].len && k < 4; k++) {
		char ch = t->src[t->v[i].off + k];
		if (ch < '0' || ch > '9')
			return false;
		x = x * 10 + (ch - '0');
	}
	*v = x;
	return true;
}

static void collect_hit(ctree *tr, const ctx *c, size_t hit, int fmt)
{
	const fl_toks *t = c->t;
	bool dir = t->v[hit].flags & TF_DIR;
	/* statement bounds around the hit */
	size_t b = hit;
	while (b > 0) {
		size_t p = b - 1;
		if ((bool)(t->v[p].flags & TF_DIR) != dir)
			break;
		/* over brackets, not over a brace: the `}` of the function
		 * before ends the statement */
		if (is_close(t, p) && !tk_p1(t, p, '}') && c->mt[p] != NONE && c->mt[p] < p) {
			b = c->mt[p];
			continue;
		}
		if (tk_p1(t, p, ';') || tk_p1(t, p, '{') || tk_p1(t, p, '}'))
			break;
		if (t->v[b].flags & TF_DIRSTART)
			break;
		b = p;
		if (hit - b > 4000)
			return;
	}
	size_t e = hit;
	while (e < t->n) {
		if ((bool)(t->v[e].flags & TF_DIR) != dir)
			break;
		if (is_open(t, e) && c->mt[e] != NONE && c->mt[e] > e) {
			e = c->mt[e] + 1;
			continue;
		}
		if (tk_p1(t, e, ';') || tk_p1(t, e, '{') || tk_p1(t, e, '}'))
			break;
		e++;
		if (e - hit > 4000)
			return;
	}
	size_t name = NONE;
	bool noret = false;
	for (size_t k = b; k < e; k++) {
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		const char *s = t->src + t->v[k].off;
		size_t n = t->v[k].len;
		if (c_icontains(s, n, "noreturn") || word_is(s, n, "__dead2") ||
		    word_is(s, n, "__dead"))
			noret = true;
	}
	for (size_t k = b; k < e; k++) {
		if (is_open(t, k) && !tk_p1(t, k, '(') && c->mt[k] != NONE &&
		    c->mt[k] > k) {
			k = c->mt[k];
			continue;
		}
		if (tk_p1(t, k, '(')) {
			if (k > b && t->v[k - 1].kind == FL_TK_IDENT &&
			    !c_attr_like(t, k - 1)) {
				name = k - 1;
				break;
			}
			if (c->mt[k] != NONE && c->mt[k] > k)
				k = c->mt[k];
			else
				break;
		}
	}
	if (name == NONE)
		return;
	const char *s = t->src + t->v[name].off;
	size_t n = t->v[name].len;
	/* a printf-like function that reports nothing is a formatter
	 * (jv_string_fmt): its result is a message when a reporter is given it */
	bool fmtr = c_name_sev(s, n, true) == SEV_NONE && !noret;
	c_tree_put_kind(tr, s, n, fmt, noret, fmtr);
	/* one that returns nothing (`void message(enum message_verbosity
	 * v, const char *fmt, ...)`) prints, at the level its caller gives */
	if (fmtr && c_returns_void(t, name))
		c_tree_set_lvl(tr, s, n);
}

/* tr's own macro of the name (not its parent's) */
static const cmac *mac_own_h(const ctree *tr, const char *s, size_t n, uint64_t hn)
{
	if (!tr || !tr->mhcap)
		return NULL;
	for (size_t h = hn & (tr->mhcap - 1); tr->mh[h];
	     h = (h + 1) & (tr->mhcap - 1)) {
		const cmac *m = &tr->mv[tr->mh[h] - 1];
		if (strncmp(m->name, s, n) == 0 && m->name[n] == '\0')
			return m;
	}
	return NULL;
}

const cmac *c_mac_find_h(const ctree *tr, const char *s, size_t n, uint64_t hn)
{
	for (; tr; tr = tr->parent) {
		const cmac *m = mac_own_h(tr, s, n, hn);
		if (m)
			return m;
	}
	return NULL;
}

static const cmac *mac_find(const ctree *tr, const char *s, size_t n)
{
	return c_mac_find_h(tr, s, n, c_hash_name(s, n));
}

/* a name tr defines itself: the first definition is kept */
static const cmac *mac_own(const ctree *tr, const char *s, size_t n)
{
	return mac_own_h(tr, s, n, c_hash_name(s, n));
}

/* Append m (its strings now owned by tr) and index it by name. */
static void mac_add(ctree *tr, const cmac *m)
{
	if (tr->mn == tr->mcap) {
		tr->mcap = tr->mcap ? tr->mcap * 2 : 16;
		tr->mv = fl_xrealloc(tr->mv, tr->mcap * sizeof *tr->mv);
	}
	tr->mv[tr->mn++] = *m;
	if (tr->mn * 2 > tr->mhcap) {
		free(tr->mh);
		tr->mhcap = tr->mhcap ? tr->mhcap * 2 : 64;
		tr->mh = fl_xcalloc(tr->mhcap, sizeof *tr->mh);
		for (size_t i = 0; i < tr->mn; i++) {
			size_t h = c_hash_name(tr->mv[i].name, strlen(tr->mv[i].name)) & (tr->mhcap - 1);
			while (tr->mh[h])
				h = (h + 1) & (tr->mhcap - 1);
			tr->mh[h] = (uint32_t)(i + 1);
		}
		return;
	}
	size_t h = c_hash_name(m->name, strlen(m->name)) & (tr->mhcap - 1);
	while (tr->mh[h])
		h = (h + 1) & (tr->mhcap - 1);
	tr->mh[h] = (uint32_t)tr->mn;
}

/* #define NAME(params) ... target(args) ...: record NAME when target is a
 * reporting name and its arguments forward the macro's parameters */
static bool same_ident(const fl_toks *t, size_t a, size_t b)
{
	return t->v[a].len == t->v[b].len &&
	       memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) == 0;
}

/* A name for tracing or debugging output (UTIL_TRACE_CALL, DEBUGOUTPUT,
 * dbg_print, traceLog): what it prints is no error even on stderr. */
static bool debug_name(const char *s, size_t n)
{
	static const char *const words[] = {"trace", "debug", "dbg", NULL};
	size_t i = 0;
	while (i < n) {
		while (i < n && s[i] == '_')
			i++;
		size_t b = i;
		while (i < n && s[i] != '_' && !(i > b && c_upper(s[i]) && c_lower(s[i - 1])))
			i++;
		for (const char *const *w = words; *w; w++) {
			size_t wl = strlen(*w);
			/* the word, or an all-capitals name that starts with it
			 * (DEBUGOUTPUT, TRACEF) */
			if (i - b >= wl && strncasecmp(s + b, *w, wl) == 0 &&
			    (i - b == wl || (b == 0 && c_upper(s[0]) && c_upper(s[wl]))))
				return true;
		}
	}
	return false;
}

/* The macro's body (after its parameters' `)` at cp) tests one of its
 * named parameters before it reports: `if (c)`, `if ((c))`, `if (!c)`,
 * `if (!(c))`.  Its index (and *neg for the negated tests), else -1. */
static int8_t macro_cond(const fl_toks *t, size_t cp, const size_t *par, int np, bool *neg)
{
	*neg = false;
	for (size_t j = cp + 1; j + 3 < t->n && (t->v[j].flags & TF_DIR) &&
				!(t->v[j].flags & TF_DIRSTART);
	     j++) {
		if (!tk_id(t, j, "if") || !tk_p1(t, j + 1, '('))
			continue;
		size_t a = j + 2;
		bool n = false;
		int parens = 0;
		if (tk_p1(t, a, '!')) {
			n = true;
			a++;
		}
		while (a < t->n && tk_p1(t, a, '(')) {
			parens++;
			a++;
		}
		if (a >= t->n || t->v[a].kind != FL_TK_IDENT)
			return -1;
		size_t e = a + 1;
		for (int q = 0; q < parens; q++, e++)
			if (e >= t->n || !tk_p1(t, e, ')'))
				return -1;
		if (e >= t->n || !tk_p1(t, e, ')'))
			return -1;
		for (int q = 0; q < np; q++)
			if (same_ident(t, a, par[q])) {
				*neg = n;
				return (int8_t)q;
			}
		return -1; /* the first if tests something else */
	}
	return -1;
}

/* `#define NAME(params, ...) body` (name at nm, parameters' `)` at cp) that
 * prints its variable arguments to stderr (unless its name says it traces
 * or debugs): the body names stderr and
 * passes __VA_ARGS__ on (#define DISPLAY(...) fprintf(stderr,
 * __VA_ARGS__)), or passes them to such a macro (#define DISPLAYLEVEL(l,
 * ...) if (g_level >= l) { DISPLAY(__VA_ARGS__); }).  Added to the tree
 * with the target "stderr": true. */
static bool stderr_macro(ctree *tr, const ctx *c, size_t nm, size_t cp,
			 const size_t *par, int np)
{
	const fl_toks *t = c->t;
	bool err = false, out = false, fwd = false, exits = false;
	int level = -1;
	for (size_t j = cp + 1; j < t->n && (t->v[j].flags & TF_DIR) &&
				!(t->v[j].flags & TF_DIRSTART);
	     j++) {
		if (t->v[j].kind != FL_TK_IDENT)
			continue;
		const char *s = t->src + t->v[j].off;
		size_t n = t->v[j].len;
		if (word_is(s, n, "stderr") || word_is(s, n, "STDERR_FILENO")) {
			err = true;
		} else if (word_is(s, n, "stdout") || word_is(s, n, "STDOUT_FILENO")) {
			out = true;
		} else if (word_is(s, n, "__VA_ARGS__")) {
			fwd = true;
		} else if (tk_p1(t, j + 1, '(')) {
			if (word_is(s, n, "exit") || word_is(s, n, "_exit") || word_is(s, n, "abort")) {
				exits = true;
			} else {
				const cmac *o = mac_find(tr, s, n);
				if (o && strcmp(o->target, "stderr") == 0) {
					err = true;
					exits = exits || o->exits;
				}
			}
		} else if ((j > 0 && (tk_p(t, j - 1, ">=") || tk_p1(t, j - 1, '>'))) ||
			   tk_p(t, j + 1, "<=") || tk_p1(t, j + 1, '<')) {
			/* a verbosity the call gives: displayLevel >= l */
			for (int q = 0; q < np; q++)
				if (same_ident(t, j, par[q]))
					level = q;
		}
	}
	if (!err || out || !fwd || mac_own(tr, t->src + t->v[nm].off, t->v[nm].len) ||
	    debug_name(t->src + t->v[nm].off, t->v[nm].len))
		return false;
	cmac m = {.va_pos = -1, .nnamed = (int8_t)np, .level = (int8_t)level, .exits = exits};
	memset(m.amap, -1, sizeof m.amap);
	m.cond = macro_cond(t, cp, par, np, &m.cond_neg);
	m.name = fl_xstrndup(t->src + t->v[nm].off, t->v[nm].len);
	m.target = fl_xstrdup("stderr");
	mac_add(tr, &m);
	return true;
}

static void collect_macro(ctree *tr, const ctx *c, size_t k)
{
	const fl_toks *t = c->t;
	size_t nm = k + 2, op = k + 3;
	if (!tk_id(t, k + 1, "define") || nm >= t->n || op >= t->n ||
	    t->v[nm].kind != FL_TK_IDENT || tr->mn >= 4096)
		return;
	/* #define failf Curl_failf: an alias of a reporting name */
	if (t->v[op].kind == FL_TK_IDENT && (t->v[op].flags & TF_DIR) &&
	    (op + 1 >= t->n || !(t->v[op + 1].flags & TF_DIR) ||
	     (t->v[op + 1].flags & TF_DIRSTART)) &&
	    c_name_sev(t->src + t->v[op].off, t->v[op].len, true) != SEV_NONE &&
	    !mac_own(tr, t->src + t->v[nm].off, t->v[nm].len)) {
		cmac m = {.va_pos = 0, .nnamed = 0, .cond = -1};
		memset(m.amap, -1, sizeof m.amap);
		m.name = fl_xstrndup(t->src + t->v[nm].off, t->v[nm].len);
		m.target = fl_xstrndup(t->src + t->v[op].off, t->v[op].len);
		mac_add(tr, &m);
		return;
	}
	if (!tk_p1(t, op, '(') || t->v[op].off != t->v[nm].off + t->v[nm].len ||
	    c->mt[op] == NONE)
		return;
	size_t cp = c->mt[op];
	/* parameters */
	size_t par[MAC_ARGS];
	int np = 0;
	bool va = false;
	for (size_t j = op + 1; j < cp; j++) {
		if (t->v[j].kind == FL_TK_IDENT && np < MAC_ARGS)
			par[np++] = j;
		else if (tk_p(t, j, "..."))
			va = true;
	}
	/* #define JSON_THROW(exception) throw exception: JSON_THROW(X(...))
	 * is a throw of X(...) (the target "throw" marks it) */
	size_t b = cp + 1, pe = b + 1;
	bool paren = b + 1 < t->n && tk_p1(t, b + 1, '(');
	if (paren)
		pe = b + 2;
	if (np == 1 && !va && pe < t->n && tk_id(t, b, "throw") &&
	    (t->v[b].flags & TF_DIR) && !(t->v[b].flags & TF_DIRSTART) &&
	    t->v[pe].kind == FL_TK_IDENT && (t->v[pe].flags & TF_DIR) &&
	    t->v[pe].len == t->v[par[0]].len &&
	    memcmp(t->src + t->v[pe].off, t->src + t->v[par[0]].off, t->v[pe].len) == 0 &&
	    (!paren || tk_p1(t, pe + 1, ')'))) {
		size_t after = pe + (paren ? 2 : 1);
		if ((after >= t->n || !(t->v[after].flags & TF_DIR) ||
		     (t->v[after].flags & TF_DIRSTART)) &&
		    !mac_own(tr, t->src + t->v[nm].off, t->v[nm].len)) {
			cmac m = {.va_pos = -1, .nnamed = 1, .cond = -1};
			memset(m.amap, -1, sizeof m.amap);
			m.amap[0] = 0;
			m.name = fl_xstrndup(t->src + t->v[nm].off, t->v[nm].len);
			m.target = fl_xstrdup("throw");
			mac_add(tr, &m);
		}
		return;
	}
	if (va && stderr_macro(tr, c, nm, cp, par, np))
		return;
	/* `error Args`: the parameter is the reporter's argument list */
	for (size_t j = cp + 1; np == 1 && !va && j + 1 < t->n && (t->v[j].flags & TF_DIR) &&
				!(t->v[j].flags & TF_DIRSTART);
	     j++) {
		if (t->v[j].kind != FL_TK_IDENT || !same_ident(t, par[0], j + 1) ||
		    !(t->v[j + 1].flags & TF_DIR) || (t->v[j + 1].flags & TF_DIRSTART) ||
		    c_name_sev(t->src + t->v[j].off, t->v[j].len, true) == SEV_NONE)
			continue;
		if (mac_own(tr, t->src + t->v[nm].off, t->v[nm].len))
			return;
		cmac m = {.va_pos = -1, .nnamed = 1, .cond = -1, .arglist = true};
		memset(m.amap, -1, sizeof m.amap);
		m.name = fl_xstrndup(t->src + t->v[nm].off, t->v[nm].len);
		m.target = fl_xstrndup(t->src + t->v[j].off, t->v[j].len);
		mac_add(tr, &m);
		return;
	}
	for (size_t j = cp + 1; j + 1 < t->n && (t->v[j].flags & TF_DIR) &&
				!(t->v[j].flags & TF_DIRSTART);
	     j++) {
		if (t->v[j].kind != FL_TK_IDENT || !tk_p1(t, j + 1, '(') ||
		    c->mt[j + 1] == NONE)
			continue;
		const char *ts = t->src + t->v[j].off;
		size_t tn = t->v[j].len;
		/* __attribute__((__warning__(msg))): a compiler diagnostic */
		if (c_attr_like(t, j) ||
		    (tn > 4 && memcmp(ts, "__", 2) == 0 && memcmp(ts + tn - 2, "__", 2) == 0))
			continue;
		/* a parameter called: the reporter is what a use gives it
		 * (GNU make's `#define OS(_t,_a,_f,_s) _t((_a), strlen (_s),
		 * (_f), (_s))`, used as `OS (fatal, flocp, _("..."), name)`) */
		int disp = -1;
		for (int q = 0; q < np && disp < 0; q++)
			if (same_ident(t, par[q], j))
				disp = q;
		if (disp < 0 && c_name_sev(ts, tn, true) == SEV_NONE)
			continue;
		cmac m = {.va_pos = -1, .nnamed = (int8_t)np, .cond = -1};
		memset(m.amap, -1, sizeof m.amap);
		bool fwd = false;
		size_t st[MAC_ARGS], en[MAC_ARGS];
		int na = c_split_args(c, j + 1, st, en, MAC_ARGS);
		for (int a = 0; a < na; a++) {
			/* `(_f)`: the parameter in parentheses */
			if (en[a] - st[a] == 3 && tk_p1(t, st[a], '(') && tk_p1(t, st[a] + 2, ')')) {
				st[a]++;
				en[a]--;
			}
			if (en[a] - st[a] != 1 || t->v[st[a]].kind != FL_TK_IDENT)
				continue;
			if (va && tk_id(t, st[a], "__VA_ARGS__")) {
				m.va_pos = (int8_t)a;
				fwd = true;
				continue;
			}
			for (int q = 0; q < np; q++)
				if (t->v[par[q]].len == t->v[st[a]].len &&
				    memcmp(t->src + t->v[par[q]].off,
					   t->src + t->v[st[a]].off,
					   t->v[st[a]].len) == 0) {
					m.amap[a] = (int8_t)q;
					fwd = true;
				}
		}
		if (!fwd)
			continue;
		if (mac_own(tr, t->src + t->v[nm].off, t->v[nm].len))
			return;
		for (int a = 0; a < na && !m.text; a++)
			if (m.amap[a] < 0 && !(va && m.va_pos >= 0 && a >= m.va_pos) &&
			    c_arg_is_literal(c, st[a], en[a], false))
				m.text = c_arg_msg(c, st[a], en[a], true);
		m.cond = macro_cond(t, cp, par, np, &m.cond_neg);
		m.name = fl_xstrndup(t->src + t->v[nm].off, t->v[nm].len);
		m.target = disp >= 0 ? fl_xasprintf("#%d", disp) : fl_xstrndup(ts, tn);
		mac_add(tr, &m);
		return;
	}
}

/* Whether c_collect() can find anything in s[0..n), by a byte scan much
 * cheaper than lexing: it may answer yes wrongly, never no wrongly.  A
 * format attribute needs an identifier containing "printf" (any case); a
 * reporting macro needs a `#define NAME` whose rest (the logical line)
 * names a reporting function. */
static bool gap_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* The next token's first byte after p, skipping blanks; NULL when a
 * comment or a line continuation may be there (the caller then assumes a
 * match). */
static const char *gap_fwd(const char *p, const char *end)
{
	while (p < end && gap_ws(*p))
		p++;
	return p < end && (*p == '/' || *p == '\\') ? NULL : p;
}

/* The previous token's last byte before p (> begin), or NULL as gap_fwd. */
static const char *gap_back(const char *p, const char *begin)
{
	while (p > begin && gap_ws(p[-1]))
		p--;
	if (p == begin)
		return begin; /* nothing before: no match, and no comment */
	return p[-1] == '/' || p[-1] == '\\' ? NULL : p - 1;
}

/* A number token at p: its end, or NULL when there is none. */
static const char *pp_number(const char *p, const char *end)
{
	if (p >= end || *p < '0' || *p > '9')
		return NULL;
	while (p < end && ((cclass((unsigned char)*p) & C_IDENT) || *p == '.'))
		p++;
	return p;
}

/* Whether the identifier s[b..e), which contains "printf", can be part of
 * what c_collect() takes for a format attribute: `format(printf, N, M)`
 * (an identifier containing "format" and '(' before it) or `PRINTF(N, M)`
 * (a number list after it). */
static bool printf_attr_like(const char *s, size_t n, size_t b, size_t e)
{
	const char *begin = s, *end = s + n;
	/* NAME(N, M) */
	const char *g = gap_fwd(s + e, end);
	if (!g)
		return true;
	if (g < end && *g == '(') {
		const char *q = gap_fwd(g + 1, end);
		if (!q)
			return true;
		if ((q = pp_number(q, end)) != NULL) {
			if (!(q = gap_fwd(q, end)))
				return true;
			if (q < end && *q == ',') {
				if (!(q = gap_fwd(q + 1, end)))
					return true;
				if ((q = pp_number(q, end)) != NULL) {
					if (!(q = gap_fwd(q, end)) || (q < end && *q == ')'))
						return true;
				}
			}
		}
	}
	/* format(printf, ...: a ',' after it (as c_collect() wants the next
	 * token to be); "printf(" and the like, a call, are not */
	if (g >= end || *g != ',')
		return false;
	const char *p = gap_back(s + b, begin);
	if (!p)
		return true;
	if (p == begin || *p != '(')
		return false;
	p = gap_back(p, begin);
	if (!p)
		return true;
	if (p == begin && !(cclass((unsigned char)*p) & C_IDENT))
		return false;
	const char *ie = p + 1, *ib = ie;
	while (ib > begin && (cclass((unsigned char)ib[-1]) & C_IDENT))
		ib--;
	return c_icontains(ib, (size_t)(ie - ib), "format");
}

/* The first i' >= i where "pr" starts, in any case (n when none):
 * sixteen bytes at a time with SSE2 (a lone 'p' is too common to stop
 * at), else eight for the 'p'. */
static size_t next_p(const char *s, size_t i, size_t n)
{
#ifdef __SSE2__
	const __m128i low = _mm_set1_epi8(0x20), p = _mm_set1_epi8('p'),
		      r = _mm_set1_epi8('r');
	while (i + 17 <= n) {
		__m128i a = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), low);
		__m128i b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + i + 1)), low);
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_and_si128(_mm_cmpeq_epi8(a, p), _mm_cmpeq_epi8(b, r)));
		if (m)
			return i + (size_t)__builtin_ctz(m);
		i += 16;
	}
#endif
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	while (i + 8 <= n) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		uint64_t x = (w | ones * 0x20) ^ (ones * 'p');
		if ((x - ones) & ~x & high)
			break;
		i += 8;
	}
	while (i < n && (s[i] | 0x20) != 'p')
		i++;
	return i;
}

/* A macro's parameter list at p ('(') and a body that starts by calling
 * one of the parameters: `(_t,_a,_f) _t(` (collect_macro's dispatching
 * macros).  True also when a comment or a continuation is in the way. */
static bool dispatch_like(const char *p, const char *end)
{
	const char *nm[MAC_ARGS];
	size_t nl[MAC_ARGS], np = 0;
	for (p++;;) {
		if (!(p = gap_fwd(p, end)))
			return true;
		const char *b = p;
		while (p < end && (cclass((unsigned char)*p) & C_IDENT))
			p++;
		if (p > b && np < MAC_ARGS) {
			nm[np] = b;
			nl[np++] = (size_t)(p - b);
		}
		if (!(p = gap_fwd(p, end)))
			return true;
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == '.') { /* ... */
			while (p < end && *p == '.')
				p++;
			continue;
		}
		break;
	}
	if (p >= end || *p != ')' || !(p = gap_fwd(p + 1, end)))
		return p == NULL;
	const char *b = p;
	while (p < end && (cclass((unsigned char)*p) & C_IDENT))
		p++;
	for (size_t k = 0; k < np; k++)
		if (nl[k] == (size_t)(p - b) && memcmp(nm[k], b, nl[k]) == 0)
			return true;
	return false;
}

static bool collect_worth(const char *s, size_t n)
{
	/* a variadic function's definition (compose.c) */
	if (fl_memmem(s, n, "va_start", 8))
		return true;
	for (size_t i = next_p(s, 0, n); i + 6 <= n; i = next_p(s, i + 1, n)) {
		if (!ieq(s + i, 6, "printf"))
			continue;
		size_t b = i, e = i + 6;
		while (b > 0 && (cclass((unsigned char)s[b - 1]) & C_IDENT))
			b--;
		while (e < n && (cclass((unsigned char)s[e]) & C_IDENT))
			e++;
		if (printf_attr_like(s, n, b, e))
			return true;
		i = e;
	}
	const char *end = s + n;
	for (const char *h = memchr(s, '#', n); h; h = memchr(h + 1, '#', (size_t)(end - h - 1))) {
		/* `# define NAME`: what names a reporter comes after NAME */
		const char *q = gap_fwd(h + 1, end);
		if (!q)
			return true;
		if (end - q < 6 || memcmp(q, "define", 6) != 0 ||
		    (q + 6 < end && (cclass((unsigned char)q[6]) & C_IDENT)))
			continue;
		if (!(q = gap_fwd(q + 6, end)))
			return true;
		while (q < end && (cclass((unsigned char)*q) & C_IDENT))
			q++;
		if (q < end && *q == '(' && dispatch_like(q, end))
			return true;
		while (q < end) {
			unsigned char c = (unsigned char)*q;
			if (c == '\n') {
				if (q[-1] == '\\' || (q[-1] == '\r' && q - 2 > h && q[-2] == '\\')) {
					q++;
					continue; /* continued on the next line */
				}
				break;
			}
			if (c == '/' && q + 1 < end && q[1] == '*') {
				/* a comment the directive continues after */
				const char *e = q + 2;
				while (e + 1 < end && !(e[0] == '*' && e[1] == '/')) {
					if (*e == '\n')
						return true;
					e++;
				}
				if (e + 1 >= end)
					return true;
				q = e + 2;
				continue;
			}
			if (!(cclass(c) & C_IDENT)) {
				q++;
				continue;
			}
			const char *b = q;
			while (q < end && (cclass((unsigned char)*q) & C_IDENT))
				q++;
			/* every suffix after a digit too, wherever a number
			 * token may end */
			if (q - b == 5 && memcmp(b, "throw", 5) == 0)
				return true; /* a throwing macro */
			if (q - b == 6 && memcmp(b, "stderr", 6) == 0)
				return true; /* a macro printing to stderr */
			if (q - b == 13 && memcmp(b, "STDERR_FILENO", 13) == 0)
				return true;
			for (const char *w = b; w < q; w++) {
				if (w > b && !(cclass((unsigned char)w[-1]) & C_DIGIT))
					continue;
				if (c_name_sev(w, (size_t)(q - w), true) != SEV_NONE)
					return true;
			}
		}
		if (q >= end)
			break;
		h = q - 1 > h ? q - 1 : h;
	}
	return false;
}

bool fl_c_collect_prefilter = true;

void c_lexed_free(void *p)
{
	lexed *x = p;
	if (!x)
		return;
	free(x->mt);
	fl_toks_free(&x->t);
	free(x);
}

/* Collect the file into tree; its tokens, when it was worth lexing, are
 * returned (keep) or freed. */
static lexed *collect_file(ctree *tr, const fl_src *src, bool keep)
{
	if (!tr || !src->text || !src->len)
		return NULL;
	if (fl_c_collect_prefilter && !collect_worth(src->text, src->len) &&
	    !c_argsrc_worth(src->text, src->len))
		return NULL;
	lexed *x = fl_xcalloc(1, sizeof *x);
	fl_toks *t = &x->t;
	fl_toks_init(t, src);
	c_lex(t);
	if (c_is_grammar(src->path))
		c_grammar_tidy(t);
	x->mt = c_match(t);
	ctx c = {.t = t, .mt = x->mt};
	for (size_t k = 0; k + 2 < t->n; k++) {
		if (t->v[k].flags & TF_DIRSTART) {
			collect_macro(tr, &c, k);
			continue;
		}
		if (tk_p(t, k, "...")) {
			c_collect_variadic(tr, &c, k);
			continue;
		}
		if (t->v[k].kind != FL_TK_IDENT)
			continue;
		const char *s = t->src + t->v[k].off;
		size_t n = t->v[k].len;
		int fmt = 0;
		/* the token checks first: cheaper than the names */
		if (k >= 2 && tk_p1(t, k - 1, '(') && tk_p1(t, k + 1, ',') &&
		    t->v[k - 2].kind == FL_TK_IDENT &&
		    (word_is(s, n, "printf") || word_is(s, n, "__printf__") ||
		     word_is(s, n, "gnu_printf") ||
		     word_is(s, n, "__gnu_printf__")) &&
		    c_icontains(t->src + t->v[k - 2].off, t->v[k - 2].len, "format") &&
		    is_num(t, k + 2, &fmt)) {
			collect_hit(tr, &c, k, fmt);
		} else if (tk_p1(t, k + 1, '(') && tk_p1(t, k + 3, ',') &&
			   tk_p1(t, k + 5, ')') && c_icontains(s, n, "printf") &&
			   is_num(t, k + 2, &fmt) && is_num(t, k + 4, &(int){0})) {
			collect_hit(tr, &c, k, fmt);
		}
	}
	c_argsrc_collect(tr, &c);
	if (keep)
		return x;
	c_lexed_free(x);
	return NULL;
}

ctree *c_file_macros(const void *tree, const ctx *c)
{
	const fl_toks *t = c->t;
	ctree *local = NULL;
	for (size_t k = 0; k + 3 < t->n; k++) {
		if (!(t->v[k].flags & TF_DIRSTART) || !tk_id(t, k + 1, "define"))
			continue;
		if (!local) {
			local = c_tree_new();
			local->parent = tree;
		}
		collect_macro(local, c, k);
	}
	if (local && !local->mn) {
		c_tree_free(local);
		local = NULL;
	}
	return local;
}

void c_collect(void *tree, const fl_src *src)
{
	collect_file(tree, src, false);
}

/* The tokens take 36 bytes each (about 8 times the file's size) from the
 * collect pass to the scan: the core asks for them only while the files
 * kept are not too large, past which lexing again costs less than the
 * fresh pages. */
void *c_collect_keep(void *tree, const fl_src *src)
{
	return collect_file(tree, src, true);
}
