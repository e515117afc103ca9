/*
 * argsrc.c — where the text of a report's %s argument comes from, when it
 * is not a literal at the call: a text-table function of the tree (one
 * whose every return is a string literal, `const char *param2text(int)`
 * switching over codes), a local variable set from one or from literals,
 * or a buffer a formatter filled before the report (`snprintf(buf,
 * sizeof buf, "bad value %d", v); error("%s", buf)`).  Each possible text
 * is a variant of the call's message: the site gets one record per text.
 * Also the collect rule for variadic functions that print their format to
 * an error stream (`void helpf(FILE *errors, const char *fmt, ...)
 * { ... vfprintf(errors, fmt, ap); }`): the tree's reporters, even
 * without a format attribute or a reporting name.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

#define TT_MAX 32 /* texts of a table; more: not followed */

/* ---- function bodies ------------------------------------------------------ */


bool c_quiet_name(const char *s, size_t n)
{
	static const char *const quiet[] = {"trace", "debug", "dbg", "verbose", "info",
					    "note", "print", "msg", "dump", "log", NULL};
	static const char *const loud[] = {"err", "fail", "fatal", "warn", "panic", "die",
					   "usage", NULL};
	for (int q = 0; loud[q]; q++)
		if (c_icontains(s, n, loud[q]))
			return false;
	for (int q = 0; quiet[q]; q++)
		if (c_icontains(s, n, quiet[q]))
			return true;
	return false;
}
static bool is_ctl(const fl_toks *t, size_t i)
{
	return tk_id(t, i, "if") || tk_id(t, i, "while") || tk_id(t, i, "for") ||
	       tk_id(t, i, "switch") || tk_id(t, i, "catch") || tk_id(t, i, "return") ||
	       tk_id(t, i, "sizeof");
}

/* The '(' of the parameter list when the '{' at o opens a function body
 * (`NAME(...) {`, `NAME(...) const {`), else NONE. */
static size_t body_params(const ctx *c, size_t o)
{
	const fl_toks *t = c->t;
	size_t p = o;
	for (int q = 0; q < 3 && p > 0 && t->v[p - 1].kind == FL_TK_IDENT; q++)
		p--; /* const, noexcept, override */
	if (p == 0 || !tk_p1(t, p - 1, ')') || c->mt[p - 1] == NONE || c->mt[p - 1] >= p - 1)
		return NONE;
	size_t op = c->mt[p - 1];
	if (op == 0 || t->v[op - 1].kind != FL_TK_IDENT || is_ctl(t, op - 1) ||
	    c_attr_like(t, op - 1))
		return NONE;
	if (t->v[op].flags & TF_DIR)
		return NONE;
	return op;
}

/* The '{' of the function body holding token i, or NONE. */
static size_t body_of(const ctx *c, size_t i)
{
	const fl_toks *t = c->t;
	size_t k = i;
	for (int steps = 0; k > 0 && steps < 200000; steps++) {
		k--;
		if (is_close(t, k) && c->mt[k] != NONE && c->mt[k] < k) {
			k = c->mt[k];
			continue;
		}
		if (tk_p1(t, k, '{') && !(t->v[k].flags & TF_DIR) && body_params(c, k) != NONE)
			return k;
	}
	return NONE;
}

/* adjacent literals, the lines of a directive among them left out */
static bool all_literal(const fl_toks *t, size_t b, size_t e)
{
	if (b >= e)
		return false;
	for (size_t k = b; k < e; k++)
		if (t->v[k].kind != FL_TK_STRING &&
		    (t->v[k].flags & TF_DIR) == (t->v[b].flags & TF_DIR))
			return false;
	return true;
}

/* The literal [b, e) (adjacent literals, or one wrapped: _("...")) as a
 * new string; NULL when it is anything else. */
static char *literal_text(const ctx *c, size_t b, size_t e)
{
	const fl_toks *t = c->t;
	if (e - b >= 4 && t->v[b].kind == FL_TK_IDENT && tk_p1(t, b + 1, '(') &&
	    c->mt[b + 1] == e - 1 && (tk_id(t, b, "_") || tk_id(t, b, "N_") || tk_id(t, b, "gettext")))
		b += 2, e -= 1;
	if (!all_literal(t, b, e))
		return NULL;
	fl_buf out = {0};
	for (size_t k = b; k < e; k++)
		if (t->v[k].kind == FL_TK_STRING && (t->v[k].flags & TF_DIR) == (t->v[b].flags & TF_DIR))
			fl_buf_put(&out, fl_tok_str(t, &t->v[k]), t->v[k].slen);
	fl_buf_cstr(&out);
	return out.s;
}

/* ---- collect: text tables -------------------------------------------------- */

static int letters(const char *s)
{
	int n = 0;
	for (; *s; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (unsigned char)*s >= 0x80)
			n++;
	return n;
}

/* Add the table NAME (texts moved); a second function of the same name is
 * followed only when it returns the same texts. */
static void tt_add(ctree *tr, const char *name, size_t n, fl_strv *texts, bool bad,
		   bool partial)
{
	char key[128];
	if (n >= sizeof key) {
		fl_strv_free(texts);
		return;
	}
	memcpy(key, name, n);
	key[n] = '\0';
	size_t d;
	if (fl_strmap_get(&tr->th, key, &d)) {
		cttab *o = &tr->tv[d];
		bool same = !bad && o->partial == partial && o->texts.n == texts->n;
		for (size_t k = 0; same && k < texts->n; k++)
			same = strcmp(o->texts.v[k], texts->v[k]) == 0;
		if (!same)
			o->bad = true;
		fl_strv_free(texts);
		return;
	}
	if (tr->tn == tr->tcap) {
		tr->tcap = tr->tcap ? tr->tcap * 2 : 16;
		tr->tv = fl_xrealloc(tr->tv, tr->tcap * sizeof *tr->tv);
	}
	tr->tv[tr->tn] = (cttab){.name = fl_xstrdup(key), .texts = *texts, .bad = bad,
				 .partial = partial};
	*texts = (fl_strv){0};
	fl_strmap_put(&tr->th, key, tr->tn);
	tr->tn++;
}

/* `const char *NAME(...) { ... return "..."; ... }` with the '{' at o:
 * every return a literal (or NULL), at least two texts; or, with three
 * literal texts or more, a few returns of what is computed (xz's
 * message_strm: `case LZMA_MEM_ERROR: return strerror(ENOMEM);` among
 * eight literals), one for three literals at most: such a return is the
 * placeholder's variant (partial) */
static void collect_table(ctree *tr, const ctx *c, size_t o)
{
	const fl_toks *t = c->t;
	size_t op = body_params(c, o), cl = c->mt[o];
	if (op == NONE || cl == NONE || cl <= o)
		return;
	size_t nm = op - 1;
	/* the return type: `char *` right before the name, `const` or
	 * `static` before it */
	if (nm < 2 || !tk_p1(t, nm - 1, '*') ||
	    !(tk_id(t, nm - 2, "char") || (tk_id(t, nm - 2, "const") && tk_id(t, nm - 3, "char"))))
		return;
	fl_strv texts = {0};
	bool partial = false;
	size_t computed = 0, lits = 0;
	for (size_t k = o + 1; k < cl; k++) {
		if (!tk_id(t, k, "return"))
			continue;
		size_t e = k + 1;
		while (e < cl && !tk_p1(t, e, ';')) {
			if (is_open(t, e) && c->mt[e] != NONE && c->mt[e] > e)
				e = c->mt[e];
			e++;
		}
		if (e == k + 2 && (tk_id(t, k + 1, "NULL") || fl_tok_is(t, k + 1, "0") ||
				   tk_id(t, k + 1, "nullptr"))) {
			k = e;
			continue;
		}
		if (e >= cl || texts.n >= TT_MAX) {
			fl_strv_free(&texts);
			return;
		}
		char *s = literal_text(c, k + 1, e);
		if (!s) {
			computed++;
			k = e;
			continue;
		}
		lits++;
		bool dup = false;
		for (size_t x = 0; x < texts.n && !dup; x++)
			dup = strcmp(texts.v[x], s) == 0;
		if (letters(s) < 2)
			partial = true; /* "", "?": the message shows the rest */
		else if (!dup)
			fl_strv_push(&texts, s);
		free(s);
		k = e;
	}
	if (texts.n < 2 || (computed && (lits < 3 || computed * 3 > lits))) {
		fl_strv_free(&texts);
		return;
	}
	tt_add(tr, t->src + t->v[nm].off, t->v[nm].len, &texts, false, partial || computed);
}

/* ---- collect: functions printing their format to an error stream ---------- */

static bool same_span(const fl_toks *t, size_t a, size_t ae, size_t b, size_t be)
{
	if (ae - a != be - b)
		return false;
	for (; a < ae; a++, b++)
		if (t->v[a].len != t->v[b].len ||
		    memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) != 0)
			return false;
	return true;
}

/* a reporter's fixed text (first wins) */
static void rt_put(crtexts *m, const char *name, size_t n, const char *text)
{
	char key[128];
	size_t d;
	if (n >= sizeof key)
		return;
	memcpy(key, name, n);
	key[n] = '\0';
	if (fl_strmap_get(&m->idx, key, &d))
		return;
	fl_strmap_put(&m->idx, key, m->v.n);
	fl_strv_push(&m->v, text);
}

static const char *rt_get(const crtexts *m, const char *name, size_t n)
{
	char key[128];
	size_t d;
	if (!m->v.n || n >= sizeof key)
		return NULL;
	memcpy(key, name, n);
	key[n] = '\0';
	return fl_strmap_get(&m->idx, key, &d) ? m->v.v[d] : NULL;
}

static void rt_merge(crtexts *to, const crtexts *from)
{
	for (size_t j = 0; j < from->idx.cap; j++)
		if (from->idx.keys[j])
			rt_put(to, from->idx.keys[j], strlen(from->idx.keys[j]),
			       from->v.v[from->idx.vals[j]]);
}

static void rt_free(crtexts *m)
{
	fl_strmap_free(&m->idx);
	fl_strv_free(&m->v);
}

const char *c_reporter_tail(const ctree *tr, const char *name, size_t n)
{
	return tr ? rt_get(&tr->tails, name, n) : NULL;
}

void c_reporter_head_put(ctree *tr, const char *name, size_t n, const char *head)
{
	rt_put(&tr->heads, name, n, head);
}

const char *c_reporter_head(const ctree *tr, const char *name, size_t n)
{
	return tr ? rt_get(&tr->heads, name, n) : NULL;
}

const char *c_reporter_end(const ctree *tr, const char *name, size_t n)
{
	return tr ? rt_get(&tr->ends, name, n) : NULL;
}

/* `#define NAME "..."` of the file, NAME at token b: its text */
static char *define_text(const fl_toks *t, size_t b)
{
	for (size_t j = 2; j + 1 < t->n; j++) {
		if (!(t->v[j].flags & TF_DIR) || t->v[j].kind != FL_TK_IDENT ||
		    t->v[j].len != t->v[b].len ||
		    memcmp(t->src + t->v[j].off, t->src + t->v[b].off, t->v[b].len) != 0 ||
		    !tk_id(t, j - 1, "define") || !(t->v[j - 2].flags & TF_DIRSTART))
			continue;
		size_t v = j + 1;
		if (t->v[v].kind != FL_TK_STRING || !(t->v[v].flags & TF_DIR) ||
		    (v + 1 < t->n && (t->v[v + 1].flags & TF_DIR) &&
		     !(t->v[v + 1].flags & TF_DIRSTART)))
			return NULL;
		return fl_xstrndup(fl_tok_str(t, &t->v[v]), t->v[v].slen);
	}
	return NULL;
}

char *c_head_text(const ctx *c, size_t b, size_t e)
{
	const fl_toks *t = c->t;
	char *s = literal_text(c, b, e);
	if (!s && e == b + 1 && t->v[b].kind == FL_TK_IDENT && all_upper(t->src + t->v[b].off, t->v[b].len))
		s = define_text(t, b);
	if (!s)
		return NULL;
	size_t n = strlen(s);
	if (n < 3 || n > 24 || letters(s) < 2 || strpbrk(s, "%\n\t") ||
	    (s[n - 1] != ' ' && s[n - 1] != ':') || s[0] == ' ') {
		free(s);
		return NULL;
	}
	return s;
}

/* The head a forwarder prints to stream [sb, se) right before its
 * vfprintf at k: `fputs("curl: ", errors);` or `fprintf(errors, "x: ");`
 * the statement before (a va_start() between them left out). */
static char *head_before(const ctx *c, size_t k, size_t sb, size_t se)
{
	const fl_toks *t = c->t;
	size_t e = k; /* the end of the statement before: its ';' + 1 */
	for (int round = 0; round < 2; round++) {
		if (e < 5 || !tk_p1(t, e - 1, ';') || !tk_p1(t, e - 2, ')') || c->mt[e - 2] == NONE)
			return NULL;
		size_t o = c->mt[e - 2], x = o - 1;
		if (o < 2 || t->v[x].kind != FL_TK_IDENT ||
		    !(tk_p1(t, x - 1, ';') || tk_p1(t, x - 1, '{') || tk_p1(t, x - 1, '}')))
			return NULL;
		if (tk_id(t, x, "va_start") && round == 0) {
			e = x;
			continue;
		}
		bool pf = tk_id(t, x, "fprintf"), ps = tk_id(t, x, "fputs");
		size_t a[3], z[3];
		if (!(pf || ps) || c_split_args(c, o, a, z, 3) != 2)
			return NULL;
		int si = pf ? 0 : 1;
		if (!same_span(t, a[si], z[si], sb, se))
			return NULL;
		return c_head_text(c, a[1 - si], z[1 - si]);
	}
	return NULL;
}

/* a word of the name (split at '_' and camelCase humps) starts with
 * "err": errors, errfp, err_out, stdErr; or it is stderr */
static bool err_word(const char *s, size_t n)
{
	if (word_is(s, n, "stderr"))
		return true;
	for (size_t i = 0; i + 3 <= n; i++) {
		bool start = i == 0 || s[i - 1] == '_' ||
			     (s[i] >= 'A' && s[i] <= 'Z' && s[i - 1] >= 'a' && s[i - 1] <= 'z');
		if (start && (s[i] | 0x20) == 'e' && (s[i + 1] | 0x20) == 'r' &&
		    (s[i + 2] | 0x20) == 'r')
			return true;
	}
	return false;
}

bool c_err_stream(const fl_toks *t, size_t b, size_t e)
{
	/* NAME, or a member chain ending in it: global->errors */
	if (e <= b || t->v[e - 1].kind != FL_TK_IDENT)
		return false;
	for (size_t k = b; k + 1 < e; k += 2)
		if (t->v[k].kind != FL_TK_IDENT || !(tk_p1(t, k + 1, '.') || tk_p(t, k + 1, "->")))
			return false;
	if ((e - b) % 2 != 1)
		return false;
	return err_word(t->src + t->v[e - 1].off, t->v[e - 1].len);
}

/* The '{' of the variadic function around token k whose last named
 * parameter is the name at token f (`( ..., const char *FMT, ... )`), or
 * NONE. */
static size_t fmt_function(const ctx *c, size_t k, size_t f)
{
	const fl_toks *t = c->t;
	size_t o = body_of(c, k);
	if (o == NONE)
		return NONE;
	size_t op = body_params(c, o), cp = c->mt[op];
	if (cp < op + 4 || !tk_p(t, cp - 1, "...") || !tk_p1(t, cp - 2, ',') ||
	    !same_span(t, cp - 3, cp - 2, f, f + 1))
		return NONE;
	return o;
}

/* vfprintf(STREAM, FMT, ap) at k inside a variadic function whose last
 * named parameter is FMT: that function is a reporter, FMT its format */
static void collect_forwarder(ctree *tr, const ctx *c, size_t k)
{
	const fl_toks *t = c->t;
	size_t st[4], en[4];
	if (c_split_args(c, k + 1, st, en, 4) != 3 || !c_err_stream(t, st[0], en[0]) ||
	    en[1] != st[1] + 1 || t->v[st[1]].kind != FL_TK_IDENT)
		return;
	size_t o = fmt_function(c, k, st[1]);
	if (o == NONE)
		return;
	size_t op = body_params(c, o), cp = c->mt[op];
	int idx = 1;
	for (size_t x = op + 1; x < cp - 3; x++) {
		if (is_open(t, x) && c->mt[x] != NONE && c->mt[x] > x)
			x = c->mt[x];
		else if (tk_p1(t, x, ','))
			idx++;
	}
	size_t nm = op - 1;
	const char *s = t->src + t->v[nm].off;
	size_t n = t->v[nm].len;
	/* tracing and debug printers are not reporters, unless the name
	 * also says error (log_error, errmsg) */
	if (c_quiet_name(s, n))
		return;
	/* exits when its body calls exit() at its own level; a literal it
	 * prints there after the format to the same stream is its trailer
	 * (`fprintf(errors, "try 'x --help' for more information\n")`) */
	bool noret = false;
	char *tail = NULL;
	for (size_t x = o + 1; x < c->mt[o]; x++) {
		if (tk_p1(t, x, '{') && c->mt[x] != NONE && c->mt[x] > x) {
			x = c->mt[x];
			continue;
		}
		if (!tk_p1(t, x + 1, '(') || !(tk_p1(t, x - 1, ';') || tk_p1(t, x - 1, '{') ||
					      tk_p1(t, x - 1, '}')))
			continue;
		if (tk_id(t, x, "exit") || tk_id(t, x, "_exit") || tk_id(t, x, "abort"))
			noret = true;
		size_t a[3], z[3];
		bool pf = tk_id(t, x, "fprintf"), ps = tk_id(t, x, "fputs");
		int si = pf ? 0 : 1; /* the stream's argument */
		if (x > k && !tail && (pf || ps) && c_split_args(c, x + 1, a, z, 3) == 2 &&
		    same_span(t, a[si], z[si], st[0], en[0])) {
			tail = literal_text(c, a[1 - si], z[1 - si]);
			if (tail && pf && strchr(tail, '%')) {
				free(tail);
				tail = NULL;
			}
		}
	}
	c_tree_put(tr, s, n, idx, noret);
	char *head = head_before(c, k, st[0], en[0]);
	if (head)
		c_reporter_head_put(tr, s, n, head);
	free(head);
	if (tail) {
		fl_msg_trim(tail);
		if (letters(tail) >= 2)
			rt_put(&tr->tails, s, n, tail);
		free(tail);
	}
}

/* ---- collect: what a reporter appends to every message ------------------------ */

/* The literal the name at v holds: `const char *stop = _(".  Stop.\n");`
 * declared in the body [o, k) before k; NULL otherwise. */
static char *local_literal(const ctx *c, size_t o, size_t k, size_t v)
{
	const fl_toks *t = c->t;
	for (size_t x = o + 1; x + 2 < k; x++)
		if (same_span(t, x, x + 1, v, v + 1) && tk_p1(t, x + 1, '=') && x > o + 1 &&
		    tk_p1(t, x - 1, '*')) {
			size_t e = x + 2;
			while (e < k && !tk_p1(t, e, ';'))
				e = is_open(t, e) && c->mt[e] != NONE && c->mt[e] > e ? c->mt[e] + 1 : e + 1;
			return e < k ? literal_text(c, x + 2, e) : NULL;
		}
	return NULL;
}

/* vsprintf(BUF, FMT, ap) at k (or vsnprintf(BUF, N, FMT, ap)) in a
 * variadic function whose last named parameter is FMT, then `strcat(BUF,
 * TEXT)` at its own level, TEXT a literal or a local holding one (GNU
 * make's fatal(): `strcat (p, stop)` after `const char *stop = _(".
 * Stop.\n")`): TEXT ends every message the function formats. */
static void collect_end(ctree *tr, const ctx *c, size_t k)
{
	const fl_toks *t = c->t;
	size_t st[5], en[5];
	int na = c_split_args(c, k + 1, st, en, 5);
	int fa = tk_id(t, k, "vsnprintf") ? 2 : 1;
	if (na != fa + 2 || en[fa] != st[fa] + 1 || t->v[st[fa]].kind != FL_TK_IDENT)
		return;
	size_t o = fmt_function(c, k, st[fa]);
	if (o == NONE)
		return;
	size_t op = body_params(c, o), cl = c->mt[o];
	for (size_t x = c->mt[k + 1] + 1; x + 1 < cl; x++) {
		if (tk_p1(t, x, '{') && c->mt[x] != NONE && c->mt[x] > x) {
			x = c->mt[x];
			continue;
		}
		size_t a[3], z[3];
		if (!tk_id(t, x, "strcat") || !tk_p1(t, x + 1, '(') || !tk_p1(t, x - 1, ';') ||
		    c_split_args(c, x + 1, a, z, 3) != 2 || !same_span(t, a[0], z[0], st[0], en[0]))
			continue;
		char *tail = literal_text(c, a[1], z[1]);
		if (!tail && z[1] == a[1] + 1 && t->v[a[1]].kind == FL_TK_IDENT)
			tail = local_literal(c, o, x, a[1]);
		if (tail) {
			fl_msg_trim(tail);
			if (letters(tail) >= 2 && !strchr(tail, '%'))
				rt_put(&tr->ends, t->src + t->v[op - 1].off, t->v[op - 1].len, tail);
			free(tail);
		}
		return;
	}
}

/* ---- collect: functions that print a message parameter -------------------- */

/* The 1-based place of parameter `name` (token v) among the parameters of
 * the list opened at op, when it is a `const char *name` / `char *name`;
 * 0 when it is none of them or the list is variadic. */
static int text_param(const ctx *c, size_t op, size_t v)
{
	const fl_toks *t = c->t;
	size_t cp = c->mt[op];
	int idx = 1, found = 0;
	size_t pb = op + 1; /* the parameter's first token */
	for (size_t x = op + 1; x < cp; x++) {
		if (is_open(t, x) && c->mt[x] != NONE && c->mt[x] > x) {
			x = c->mt[x];
			continue;
		}
		if (tk_p(t, x, "..."))
			return 0;
		if (tk_p1(t, x, ',')) {
			idx++;
			pb = x + 1;
			continue;
		}
		if (t->v[x].kind == FL_TK_IDENT && same_span(t, x, x + 1, v, v + 1) &&
		    (tk_p1(t, x + 1, ',') || x + 1 == cp) && x >= pb + 2 && tk_p1(t, x - 1, '*') &&
		    (tk_id(t, x - 2, "char") ||
		     (x >= pb + 3 && tk_id(t, x - 2, "const") && tk_id(t, x - 3, "char"))))
			found = idx;
	}
	return found;
}

/* The parameter token an argument [b, e) of a reporter's call names: `msg`,
 * or `_(msg)` / `gettext(msg)` (a message id translated where it is
 * printed); NONE when it is neither. */
static size_t param_arg(const ctx *c, size_t b, size_t e)
{
	const fl_toks *t = c->t;
	if (e == b + 1 && t->v[b].kind == FL_TK_IDENT)
		return b;
	if (e == b + 4 && (tk_id(t, b, "_") || tk_id(t, b, "gettext")) && tk_p1(t, b + 1, '(') &&
	    c->mt[b + 1] == e - 1 && t->v[b + 2].kind == FL_TK_IDENT)
		return b + 2;
	return NONE;
}

/* a parameter named for the message it holds: msg, msgid, error_msgid,
 * message, reason, err */
static bool msg_param_name(const char *s, size_t n)
{
	return c_icontains(s, n, "msg") || c_icontains(s, n, "message") ||
	       c_icontains(s, n, "mesg") || c_icontains(s, n, "reason") || c_icontains(s, n, "err") ||
	       (n == 3 && memcmp(s, "why", 3) == 0);
}

/* The '(' of the parameter list of the function whose body holds token
 * k, *o its body's '{'; NONE when there is none. */
static size_t enclosing_params(const ctx *c, size_t k, size_t *o)
{
	*o = body_of(c, k);
	return *o == NONE ? NONE : body_params(c, *o);
}

/* A call at k, `f("%s\n", msg)` of a reporter f (a name that says error,
 * warning or die), or `fprintf(stderr, "error: %s\n", msg)`, whose
 * argument is the enclosing function's parameter `const char *msg`: that
 * function is a reporter of its own, msg its message (`usage_msg_opt(
 * const char *msg, ...) { die_message("%s\n", msg); ... }`, `static void
 * fatal(const char *msg) { fprintf(stderr, "fatal: %s\n", msg); exit(1);
 * }`), the format's text before msg's %s its head.  The message may also
 * sit among other conversions when the parameter is named for it:
 * coreutils' `size_opt (char const *opt, char const *msgid)` dying with
 * `"%s: %s", opt, _(msgid)` reports `%s: MSG` for each call's text, dd's
 * `parse_symbols (..., char const *error_msgid)` with `"%s: %s",
 * _(error_msgid), quotearg (...)` reports `MSG: %s` (the head and what
 * follows, in format form). */
static void collect_msg_forwarder(ctree *tr, const ctx *c, size_t k)
{
	const fl_toks *t = c->t;
	size_t st[8], en[8];
	int na = c_split_args(c, k + 1, st, en, 8);
	const char *cs = t->src + t->v[k].off;
	size_t cn = t->v[k].len;
	bool pf = tk_id(t, k, "fprintf") || tk_id(t, k, "dprintf");
	/* the format's argument: fprintf's second, else a reporter's first
	 * literal (as its calls are read, sites.c) */
	int fi = pf ? 1 : -1;
	for (int a = 0; a < na && a < 8 && fi < 0; a++)
		if (c_arg_is_literal(c, st[a], en[a], false))
			fi = a;
	int csev = pf ? SEV_NONE : c_name_sev(cs, cn, false);
	/* the reporter's format is the parameter itself, named for a
	 * message (gawk's `check_symtab_functab (NODE *dest, const char
	 * *fname, const char *msg) { ... fatal (msg, fname, "SYMTAB"); }`,
	 * called from other files with a literal format) */
	if (!pf && na >= 1 && (csev == SEV_WARN || csev == SEV_ERR || csev == SEV_CRIT) &&
	    en[0] == st[0] + 1 && t->v[st[0]].kind == FL_TK_IDENT &&
	    msg_param_name(t->src + t->v[st[0]].off, t->v[st[0]].len)) {
		size_t o, op = enclosing_params(c, k, &o);
		int idx = op == NONE ? 0 : text_param(c, op, st[0]);
		if (!idx)
			return;
		const char *s = t->src + t->v[op - 1].off;
		size_t n = t->v[op - 1].len;
		if (!c_quiet_name(s, n) && !c_tree_find(tr, s, n))
			c_tree_put(tr, s, n, idx, csev == SEV_CRIT);
		return;
	}
	if (fi < 0 || na < fi + 2 || na > 8)
		return;
	if (pf ? !(c_err_stream(t, st[0], en[0]) || (tk_id(t, k, "dprintf") &&
						      en[0] == st[0] + 1 &&
						      (tk_id(t, st[0], "2") ||
						       tk_id(t, st[0], "STDERR_FILENO"))))
	       : !(csev == SEV_WARN || csev == SEV_ERR || csev == SEV_CRIT))
		return;
	/* the plain shape: the format first (after fprintf's stream), the
	 * parameter the last argument, a bare name */
	bool plain = fi == (pf ? 1 : 0) && na == fi + 2 && en[fi + 1] == st[fi + 1] + 1 &&
		     t->v[st[fi + 1]].kind == FL_TK_IDENT;
	/* the arguments that may be the text parameter: the plain shape's,
	 * else names (or their _()) named for a message */
	size_t cand[8];
	int ca[8], nc = 0;
	for (int a = fi + 1; a < na; a++) {
		size_t v = plain ? st[a] : param_arg(c, st[a], en[a]);
		if (v != NONE && (plain || msg_param_name(t->src + t->v[v].off, t->v[v].len))) {
			cand[nc] = v;
			ca[nc++] = a;
		}
	}
	if (!nc)
		return;
	/* the one that is a text parameter of the function */
	size_t o, op = enclosing_params(c, k, &o);
	if (op == NONE)
		return;
	int pa = -1, idx = 0;
	for (int q = 0; q < nc; q++) {
		int x = text_param(c, op, cand[q]);
		if (!x)
			continue;
		if (pa >= 0)
			return; /* two message parameters: not followed */
		pa = ca[q];
		idx = x;
	}
	if (pa < 0)
		return;
	char *f = c_fmt_msg_sub(c, st, en, na, fi, pa, "\x01", true);
	char *mark = f ? strchr(f, '\x01') : NULL;
	if (!mark || strchr(mark + 1, '\x01')) {
		free(f);
		return;
	}
	*mark = '\0'; /* f: the head */
	char *end = mark + 1;
	size_t el = strlen(end);
	while (el > 0 && (end[el - 1] == '\n' || end[el - 1] == ' '))
		end[--el] = '\0';
	if (plain && (strchr(f, '%') || el)) {
		free(f);
		return;
	}
	size_t nm = op - 1;
	const char *s = t->src + t->v[nm].off;
	size_t n = t->v[nm].len;
	if (c_quiet_name(s, n) || c_tree_find(tr, s, n)) {
		free(f);
		return;
	}
	/* exits when the reporter it calls dies, or its body calls exit()
	 * at its own level */
	bool noret = csev == SEV_CRIT;
	for (size_t x = o + 1; x < c->mt[o] && !noret; x++) {
		if (tk_p1(t, x, '{') && c->mt[x] != NONE && c->mt[x] > x) {
			x = c->mt[x];
			continue;
		}
		if (tk_p1(t, x + 1, '(') && (tk_p1(t, x - 1, ';') || tk_p1(t, x - 1, '{')) &&
		    (tk_id(t, x, "exit") || tk_id(t, x, "_exit") || tk_id(t, x, "abort")))
			noret = true;
	}
	/* a plain printer to stderr (progress, a line of a listing) is no
	 * reporter unless its name says error or it exits */
	int own = c_name_sev(s, n, true);
	if (pf && !noret && !(own == SEV_WARN || own == SEV_ERR || own == SEV_CRIT)) {
		free(f);
		return;
	}
	c_tree_put(tr, s, n, idx, noret);
	/* a head or an end worth adding: words, or a conversion the
	 * program fills (the operand before `: MSG`) */
	if (*f && (letters(f) >= 2 || strchr(f, '%')) && strlen(f) < 64)
		c_reporter_head_put(tr, s, n, f);
	if (el && (letters(end) >= 2 || strchr(end, '%')) && el < 64)
		rt_put(&tr->ends, s, n, end);
	free(f);
}

/* letters of a message outside its printf conversions */
int c_fixed_letters(const char *m)
{
	int n = 0;
	for (const char *p = m; *p;) {
		if (*p == '%' && p[1] != '%') {
			int stars = 0;
			size_t l = fl_printf_conv(p, &stars);
			p += l ? l : 1;
			continue;
		}
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (unsigned char)*p >= 0x80)
			n++;
		p++;
	}
	return n;
}

/* A column header (`  % Total    % Received % Xferd  Average Speed`):
 * three gaps of two spaces or more between words */
bool c_is_columns(const char *m)
{
	while (*m == ' ')
		m++;
	int gaps = 0;
	for (const char *p = m; *p; p++)
		if (p[0] == ' ' && p[1] == ' ') {
			while (p[1] == ' ')
				p++;
			if (p[1] && p[1] != '\n')
				gaps++;
		}
	return gaps >= 3;
}

/* Is NAME [nb, nb + nl) declared `char *NAME` or `char const *NAME` in
 * [s, p)? */
static bool char_ptr_decl(const char *s, const char *p, const char *nb, size_t nl)
{
	char decl[80];
	if (!nl || nl > 60)
		return false;
	memcpy(decl, "char *", 6);
	memcpy(decl + 6, nb, nl);
	if (fl_memmem(s, (size_t)(p - s), decl, 6 + nl))
		return true;
	memcpy(decl, "char const *", 12);
	memcpy(decl + 12, nb, nl);
	return fl_memmem(s, (size_t)(p - s), decl, 12 + nl) != NULL;
}

/* Does the text hold `"...%s\n", NAME)` (or `%s", NAME)`) where NAME is
 * declared `char *NAME` in it, or a format holding %s whose arguments
 * name such a NAME for a message (`"%s: %s", opt, _(msgid))`)
 * (collect_msg_forwarder's calls)?  At most 64 names are looked up. */
static bool forwarder_worth(const char *s, size_t n)
{
	const char *end = s + n;
	int looks = 0;
	for (const char *p = s; (p = fl_memmem(p, (size_t)(end - p), "%s", 2)); p += 2) {
		const char *q = p + 2;
		/* the rest of the literal */
		while (q < end && q - p < 160 && *q != '"' && *q != '\n')
			q += *q == '\\' && q + 1 < end ? 2 : 1;
		if (end - q < 4 || q[0] != '"' || q[1] != ',')
			continue;
		q += 2;
		/* the arguments, up to the call's ')' */
		int depth = 0;
		const char *lim = end - q > 200 ? q + 200 : end;
		for (; q < lim && depth >= 0 && *q != ';'; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
			if (!(cclass((unsigned char)*q) & C_IDENT) ||
			    (cclass((unsigned char)q[-1]) & C_IDENT))
				continue;
			const char *nb = q;
			while (q < lim && (cclass((unsigned char)*q) & C_IDENT))
				q++;
			size_t nl = (size_t)(q - nb);
			const char *a = q;
			while (a < lim && (*a == ' ' || *a == '\t'))
				a++;
			bool msgname = msg_param_name(nb, nl);
			/* the plain shape's last argument, or a message name */
			bool last = a < lim && *a == ')' && depth == 0;
			if ((last || (msgname && a < lim && (*a == ')' || *a == ','))) &&
			    looks++ < 64 && char_ptr_decl(s, p, nb, nl))
				return true;
			q--;
		}
	}
	return false;
}

/* Does the text call something with a message-named parameter first,
 * `(msg, ` or `(msg)`, declared `char *msg` / `char const *msg` before
 * (collect_msg_forwarder's format parameters)?  At most 64 names. */
static bool fmt_param_worth(const char *s, size_t n)
{
	const char *end = s + n;
	int looks = 0;
	for (const char *p = s; p < end && (p = memchr(p, '(', (size_t)(end - p))) != NULL; p++) {
		const char *nb = p + 1;
		const char *q = nb;
		while (q < end && (cclass((unsigned char)*q) & C_IDENT))
			q++;
		size_t nl = (size_t)(q - nb);
		if (!nl || q >= end || (*q != ',' && *q != ')') || !msg_param_name(nb, nl))
			continue;
		if (looks++ >= 64)
			return false;
		if (char_ptr_decl(s, p, nb, nl))
			return true;
	}
	return false;
}

bool c_argsrc_worth(const char *s, size_t n)
{
	return fl_memmem(s, n, "vfprintf", 8) != NULL || fl_memmem(s, n, "return \"", 8) != NULL ||
	       fl_memmem(s, n, "return _(\"", 10) != NULL ||
	       forwarder_worth(s, n) || fmt_param_worth(s, n);
}

void c_argsrc_collect(ctree *tr, const ctx *c)
{
	const fl_toks *t = c->t;
	for (size_t k = 0; k + 1 < t->n; k++) {
		if (tk_p1(t, k, '{') && !(t->v[k].flags & TF_DIR) && c->mt[k] != NONE &&
		    c->mt[k] > k && k > 0 && tk_p1(t, k - 1, ')')) {
			collect_table(tr, c, k);
		} else if (tk_id(t, k, "vfprintf") && tk_p1(t, k + 1, '(') &&
			   c->mt[k + 1] != NONE) {
			collect_forwarder(tr, c, k);
		} else if ((tk_id(t, k, "vsprintf") || tk_id(t, k, "vsnprintf")) && tk_p1(t, k + 1, '(') &&
			   c->mt[k + 1] != NONE) {
			collect_end(tr, c, k);
		} else if (t->v[k].kind == FL_TK_IDENT && tk_p1(t, k + 1, '(') &&
			   c->mt[k + 1] != NONE && k + 6 < t->n &&
			   (t->v[k + 2].kind == FL_TK_STRING || t->v[k + 4].kind == FL_TK_STRING ||
			    t->v[k + 6].kind == FL_TK_STRING)) {
			collect_msg_forwarder(tr, c, k);
		}
	}
}

void c_argsrc_merge(ctree *tr, ctree *p)
{
	rt_merge(&tr->tails, &p->tails);
	rt_merge(&tr->heads, &p->heads);
	rt_merge(&tr->ends, &p->ends);
	for (size_t i = 0; i < p->tn; i++)
		tt_add(tr, p->tv[i].name, strlen(p->tv[i].name), &p->tv[i].texts, p->tv[i].bad,
		       p->tv[i].partial);
}

void c_argsrc_free(ctree *tr)
{
	for (size_t i = 0; i < tr->tn; i++) {
		free(tr->tv[i].name);
		fl_strv_free(&tr->tv[i].texts);
	}
	free(tr->tv);
	fl_strmap_free(&tr->th);
	rt_free(&tr->tails);
	rt_free(&tr->heads);
	rt_free(&tr->ends);
}

/* ---- scan: the variants of an argument -------------------------------------- */

static const cttab *tt_find(const ctree *tr, const fl_toks *t, size_t i)
{
	char key[128];
	if (!tr || !tr->tn || t->v[i].kind != FL_TK_IDENT || t->v[i].len >= sizeof key)
		return NULL;
	memcpy(key, t->src + t->v[i].off, t->v[i].len);
	key[t->v[i].len] = '\0';
	size_t d;
	if (!fl_strmap_get(&tr->th, key, &d) || tr->tv[d].bad)
		return NULL;
	return &tr->tv[d];
}

/* text in format form (a literal '%' doubled), once; a text without
 * words ("", "?", a format "-%s") is left to the placeholder (*generic) */
static void put_variant(fl_strv *out, const char *s, bool fmt_form, bool *generic)
{
	if (fmt_form ? c_fixed_letters(s) < 2 : letters(s) < 2) {
		*generic = true;
		return;
	}
	fl_buf b = {0};
	for (const char *q = s; *q; q++) {
		if (*q == '%' && !fmt_form)
			fl_buf_putc(&b, '%');
		fl_buf_putc(&b, *q);
	}
	fl_buf_cstr(&b);
	for (size_t k = 0; k < out->n; k++)
		if (strcmp(out->v[k], b.s) == 0) {
			fl_buf_free(&b);
			return;
		}
	if (out->n < TT_MAX)
		fl_strv_push(out, b.s);
	fl_buf_free(&b);
}

/* a call of a text table at [b, e): its texts */
static bool table_call(const ctx *c, size_t b, size_t e, fl_strv *out, bool *generic)
{
	const fl_toks *t = c->t;
	if (e < b + 3 || !tk_p1(t, b + 1, '(') || c->mt[b + 1] != e - 1)
		return false;
	const cttab *tt = tt_find(c->tree, t, b);
	if (!tt)
		return false;
	for (size_t k = 0; k < tt->texts.n; k++)
		put_variant(out, tt->texts.v[k], false, generic);
	if (tt->partial)
		*generic = true;
	return true;
}

/* a formatter call NAME(...) with '(' at op: the format it is given (its
 * first literal argument from `from` on) in format form; false when it
 * is no formatter or has no literal format */
static bool formatter_call(const ctx *c, size_t op, int from, fl_strv *out, bool *generic)
{
	const fl_toks *t = c->t;
	if (!c_icontains(t->src + t->v[op - 1].off, t->v[op - 1].len, "printf"))
		return false;
	size_t st[16], en[16];
	int na = c_split_args(c, op, st, en, 16);
	for (int a = from; a < na && a < 16; a++) {
		if (!c_arg_is_literal(c, st[a], en[a], true))
			continue;
		char *m = c_fmt_msg_sub(c, st, en, na, a, -1, NULL, true);
		if (!m)
			return false;
		put_variant(out, m, true, generic);
		free(m);
		return true;
	}
	return false;
}

static bool names_copy(const fl_toks *t, size_t i)
{
	return tk_id(t, i, "strcpy") || tk_id(t, i, "strncpy") || tk_id(t, i, "strlcpy") ||
	       tk_id(t, i, "g_strlcpy") || tk_id(t, i, "strscpy") || tk_id(t, i, "stpcpy");
}

/* What the statement at k (the variable, which is assigned or passed)
 * may put in it: variants added to out, else *generic set. */
static void var_write(const ctx *c, size_t k, size_t lim, fl_strv *out, bool *generic)
{
	const fl_toks *t = c->t;
	if (tk_p1(t, k + 1, '=')) {
		/* V = RHS; (or a declaration's initializer) */
		size_t b = k + 2, e = b;
		while (e < lim && !tk_p1(t, e, ';') && !tk_p1(t, e, ',')) {
			if (is_open(t, e) && c->mt[e] != NONE && c->mt[e] > e)
				e = c->mt[e];
			e++;
		}
		char *s = e > b ? literal_text(c, b, e) : NULL;
		if (s) {
			put_variant(out, s, false, generic);
			free(s);
		} else if (!table_call(c, b, e, out, generic) &&
			   !(e > b + 2 && t->v[b].kind == FL_TK_IDENT && tk_p1(t, b + 1, '(') &&
			     c->mt[b + 1] == e - 1 && formatter_call(c, b + 1, 0, out, generic))) {
			*generic = true;
		}
		return;
	}
	/* F(V, ...) or F(&V, ...): written by a formatter or a copy */
	size_t a = tk_p1(t, k - 1, '&') ? k - 1 : k;
	if (tk_p1(t, a - 1, '(') && a >= 2 && t->v[a - 2].kind == FL_TK_IDENT &&
	    (tk_p1(t, k + 1, ',') || tk_p1(t, k + 1, ')'))) {
		size_t op = a - 1;
		if (tk_id(t, op - 1, "sizeof") || tk_id(t, op - 1, "strlen"))
			return; /* read */
		if (formatter_call(c, op, 1, out, generic))
			return;
		if (names_copy(t, op - 1)) {
			size_t st[3], en[3];
			if (c_split_args(c, op, st, en, 3) >= 2) {
				char *s = literal_text(c, st[1], en[1]);
				if (s) {
					put_variant(out, s, false, generic);
					free(s);
					return;
				}
			}
		}
		*generic = true;
		return;
	}
	/* passed elsewhere (Curl_strerror(e, buf, sizeof buf)) or read */
	if (tk_p1(t, k - 1, ',') || tk_p1(t, k - 1, '('))
		*generic = true;
}

int c_arg_variants(const ctx *c, size_t b, size_t e, fl_strv *out, bool *generic)
{
	const fl_toks *t = c->t;
	*generic = false;
	if (table_call(c, b, e, out, generic))
		return (int)out->n;
	if (e != b + 1 || t->v[b].kind != FL_TK_IDENT)
		return 0;
	size_t o = body_of(c, b);
	if (o == NONE)
		return 0;
	size_t from = b > o + 20000 ? b - 20000 : o + 1;
	const char *name = t->src + t->v[b].off;
	size_t n = t->v[b].len;
	for (size_t k = from; k < b; k++) {
		if (t->v[k].kind != FL_TK_IDENT || t->v[k].len != n ||
		    memcmp(t->src + t->v[k].off, name, n) != 0)
			continue;
		if (tk_p1(t, k - 1, '.') || tk_p(t, k - 1, "->"))
			continue;
		var_write(c, k, b, out, generic);
	}
	if (!out->n)
		*generic = false;
	return (int)out->n;
}
