/*
 * msg.c — C / C++ messages: the text an argument, a `+` concatenation, a
 * wrapper (`_()`, `std::string()`), a concatenating call (`StrCat`) or a
 * stream insertion chain prints, runtime parts as placeholders.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

/* ---- messages --------------------------------------------------------------- */

static const char *const wrappers[] = {
	"_", "N_", "Q_", "gettext", "tr", "_T", "TEXT", "_TEXT", "QT_TR_NOOP",
	"string", "string_view", "QString", "QStringLiteral", "QLatin1String",
	"wxString", "to_string", "format", "StrFormat", "u8string", NULL};

/* functions that join their arguments into one string */
static const char *const concatenators[] = {"concat", "StrCat", "str_concat", NULL};

bool c_in_list(const fl_toks *t, size_t i, const char *const *l)
{
	for (; *l; l++)
		if (fl_tok_is(t, i, *l))
			return true;
	return false;
}

/* qualified name a::b::c starting at i; returns index of last ident or
 * NONE */
size_t c_qual_end(const fl_toks *t, size_t i, size_t e)
{
	size_t k = i;
	if (tk_p(t, k, "::"))
		k++;
	if (k >= e || t->v[k].kind != FL_TK_IDENT)
		return NONE;
	while (k + 2 < e && tk_p(t, k + 1, "::") &&
	       t->v[k + 2].kind == FL_TK_IDENT)
		k += 2;
	return k;
}

void c_put_placeholder(const fl_toks *t, size_t b, size_t e, fl_buf *out)
{
	size_t last = NONE, any = NONE;
	int depth = 0;
	for (size_t k = b; k < e; k++) {
		if (is_open(t, k))
			depth++;
		else if (is_close(t, k))
			depth--;
		if (t->v[k].kind == FL_TK_IDENT) {
			any = k;
			if (depth == 0)
				last = k;
		}
	}
	if (last == NONE)
		last = any;
	fl_buf_putc(out, '{');
	if (last != NONE)
		fl_buf_put(out, t->src + t->v[last].off, t->v[last].len);
	fl_buf_putc(out, '}');
}

static bool build_expr(const ctx *c, size_t b, size_t e, fl_buf *out, int lvl);
static const char *const_text(const ctx *c, size_t b, size_t e);

/* one operand; true when it held a literal */
static bool build_operand(const ctx *c, size_t b, size_t e, fl_buf *out,
			  int lvl)
{
	const fl_toks *t = c->t;
	if (b >= e)
		return false;
	/* ( expr ) */
	if (tk_p1(t, b, '(') && c->mt[b] == e - 1)
		return build_expr(c, b + 1, e - 1, out, lvl + 1);
	/* wrapper( literal ), std::string("..."), fmt::format("...", ...) */
	size_t q = c_qual_end(t, b, e);
	if (q != NONE && q + 1 < e && (tk_p1(t, q + 1, '(') || tk_p1(t, q + 1, '{')) &&
	    c->mt[q + 1] == e - 1 && c_in_list(t, q, wrappers)) {
		size_t st[1], en[1];
		if (c_split_args(c, q + 1, st, en, 1) >= 1) {
			fl_buf tmp = {0};
			bool lit = build_expr(c, st[0], en[0], &tmp, lvl + 1);
			if (lit || fl_tok_is(t, q, "to_string") ||
			    fl_tok_is(t, q, "string")) {
				fl_buf_put(out, tmp.s, tmp.n);
				fl_buf_free(&tmp);
				return lit;
			}
			fl_buf_free(&tmp);
		}
	}
	/* concat("type must be boolean, but is ", j.type_name()),
	 * absl::StrCat(...): the arguments joined, each literal as it is and
	 * anything else a placeholder */
	if (q != NONE && q + 1 < e && tk_p1(t, q + 1, '(') && c->mt[q + 1] == e - 1 &&
	    c_in_list(t, q, concatenators)) {
		size_t st[16], en[16];
		int na = c_split_args(c, q + 1, st, en, 16);
		if (na >= 1 && na < 16) {
			bool lit = false;
			for (int a = 0; a < na; a++)
				if (build_expr(c, st[a], en[a], out, lvl + 1))
					lit = true;
			return lit;
		}
	}
	/* x.c_str() / x.str() / x.data() / x.string(): drop the accessor */
	if (e - b >= 5 && tk_p1(t, e - 1, ')') && tk_p1(t, e - 2, '(') &&
	    (tk_id(t, e - 3, "c_str") || tk_id(t, e - 3, "str") ||
	     tk_id(t, e - 3, "data") || tk_id(t, e - 3, "string")) &&
	    (tk_p1(t, e - 4, '.') || tk_p(t, e - 4, "->"))) {
		c_put_placeholder(t, b, e - 4, out);
		return false;
	}
	/* a string constant of the file: static const char msg[] = "..." */
	const char *ct = const_text(c, b, e);
	if (ct) {
		fl_buf_puts(out, ct);
		return true;
	}
	/* run of adjacent literals, macros (PRIu64) between them; the lines
	 * of a directive among them (#ifdef X ... #endif around a literal)
	 * are left out, their literals kept */
	bool any = false, all = true;
	uint8_t dir = t->v[b].flags & TF_DIR;
	for (size_t k = b; k < e; k++) {
		if ((t->v[k].flags & TF_DIR) != dir)
			continue;
		if (t->v[k].kind == FL_TK_STRING)
			any = true;
		else if (tk_p1(t, k, '#') && k + 1 < e &&
			 t->v[k + 1].kind == FL_TK_IDENT)
			continue; /* macro stringification #x */
		else if (t->v[k].kind != FL_TK_IDENT)
			all = false;
	}
	if (any && all) {
		for (size_t k = b; k < e; k++) {
			if (tk_p1(t, k, '#') || (t->v[k].flags & TF_DIR) != dir)
				continue;
			if (t->v[k].kind == FL_TK_STRING) {
				fl_buf_put(out, fl_tok_str(t, &t->v[k]),
					   t->v[k].slen);
			} else {
				fl_msg_put_macro(out, t->src + t->v[k].off,
						 t->v[k].len);
			}
		}
		return true;
	}
	c_put_placeholder(t, b, e, out);
	return false;
}

/* expression: operands joined by '+' (C++ string concatenation) */
static bool build_expr(const ctx *c, size_t b, size_t e, fl_buf *out, int lvl)
{
	const fl_toks *t = c->t;
	if (lvl > 50 || b >= e)
		return false;
	bool any = false;
	size_t s = b;
	for (size_t k = b; k <= e; k++) {
		if (k < e && is_open(t, k) && c->mt[k] != NONE && c->mt[k] > k &&
		    c->mt[k] < e) {
			k = c->mt[k];
			continue;
		}
		if (k == e || tk_p1(t, k, '+')) {
			if (k > s && build_operand(c, s, k, out, lvl))
				any = true;
			s = k + 1;
		}
	}
	return any;
}

/* true when the message has at least two letters outside placeholders */
static bool has_text(const char *m)
{
	int letters = 0;
	for (const char *p = m; *p;) {
		if (*p == '%') {
			p++;
			if (*p == '%') {
				p++;
				continue;
			}
			while (*p && strchr("-+ #0123456789.*'", *p))
				p++;
			while (*p && strchr("hlLqjzt", *p))
				p++;
			if (*p)
				p++;
			continue;
		}
		if (*p == '{') {
			const char *q = strchr(p, '}');
			if (q) {
				p = q + 1;
				continue;
			}
		}
		unsigned char ch = (unsigned char)*p;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    ch >= 0x80)
			letters++;
		p++;
	}
	return letters >= 2;
}

/* Message of argument [b, e), or NULL when it holds no literal text. */
/* A message built in out: its text (out's buffer, trimmed; with fmt, %%
 * undoubled), or NULL, out freed, when it holds no literal (lit false) or
 * too little text. */
static char *msg_done(fl_buf *out, bool lit, bool fmt)
{
	if (!lit) {
		fl_buf_free(out);
		return NULL;
	}
	fl_buf_cstr(out);
	fl_msg_trim(out->s);
	if (fmt)
		fl_msg_undouble(out->s, "%");
	if (!has_text(out->s)) {
		fl_buf_free(out);
		return NULL;
	}
	return out->s;
}

char *c_arg_msg(const ctx *c, size_t b, size_t e, bool fmt)
{
	fl_buf out = {0};
	return msg_done(&out, build_expr(c, b, e, &out, 0), fmt);
}

/* the text of the string constant [b, e) names (one identifier, declared
 * where b stands), or NULL */
static const char *const_text(const ctx *c, size_t b, size_t e)
{
	const fl_toks *t = c->t;
	const cconsts *k = c->consts;
	if (!k || e != b + 1 || t->v[b].kind != FL_TK_IDENT || !k->text.n)
		return NULL;
	char name[128];
	size_t n = t->v[b].len;
	if (n >= sizeof name)
		return NULL;
	memcpy(name, t->src + t->v[b].off, n);
	name[n] = '\0';
	size_t d;
	if (!fl_strmap_get(&k->names, name, &d))
		return NULL;
	for (; d != SIZE_MAX; d = k->prev[d])
		if (b > k->beg[d] && b < k->end[d])
			return k->text.v[d];
	return NULL;
}

static bool is_wrapper(const fl_toks *t, size_t b)
{
	return fl_tok_is(t, b, "_") || fl_tok_is(t, b, "N_") || fl_tok_is(t, b, "Q_") ||
	       fl_tok_is(t, b, "gettext") || fl_tok_is(t, b, "_T") || fl_tok_is(t, b, "TEXT") ||
	       fl_tok_is(t, b, "tr");
}

bool c_arg_is_literal(const ctx *c, size_t b, size_t e, bool consts)
{
	const fl_toks *t = c->t;
	if (b >= e)
		return false;
	if (t->v[b].kind == FL_TK_STRING || (consts && const_text(c, b, e)))
		return true;
	if (e - b >= 4 && t->v[b].kind == FL_TK_IDENT && is_wrapper(t, b) && tk_p1(t, b + 1, '(') &&
	    (t->v[b + 2].kind == FL_TK_STRING ||
	     (consts && c->mt[b + 1] == b + 3 && const_text(c, b + 2, b + 3))))
		return true;
	return false;
}

/* NAME = "..." "..."; at k (the name): the literals' text, or NULL */
static char *decl_text(const fl_toks *t, size_t k, size_t end_dir)
{
	fl_buf b = {0};
	size_t j = k;
	for (; j < t->n && t->v[j].kind == FL_TK_STRING; j++)
		fl_buf_put(&b, fl_tok_str(t, &t->v[j]), t->v[j].slen);
	if (j == k || (end_dir ? j != end_dir : !tk_p1(t, j, ';'))) {
		fl_buf_free(&b);
		return NULL;
	}
	fl_buf_cstr(&b);
	if (!has_text(b.s)) {
		fl_buf_free(&b);
		return NULL;
	}
	return b.s;
}

static void const_put(cconsts *out, const fl_toks *t, size_t name, char *text,
		      size_t beg, size_t end)
{
	char key[128];
	size_t n = t->v[name].len;
	if (!text)
		return;
	if (n >= sizeof key) {
		free(text);
		return;
	}
	memcpy(key, t->src + t->v[name].off, n);
	key[n] = '\0';
	size_t d = out->text.n, prev;
	if (d == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 16;
		out->beg = fl_xrealloc(out->beg, out->cap * sizeof *out->beg);
		out->end = fl_xrealloc(out->end, out->cap * sizeof *out->end);
		out->prev = fl_xrealloc(out->prev, out->cap * sizeof *out->prev);
	}
	out->beg[d] = beg;
	out->end[d] = end;
	out->prev[d] = fl_strmap_get(&out->names, key, &prev) ? prev : SIZE_MAX;
	fl_strmap_put(&out->names, key, d);
	fl_strv_push(&out->text, text);
	free(text);
}

/* the name says it holds usage text: usage, Usage, USAGE in it */
static bool usage_name(const fl_toks *t, size_t k)
{
	const char *s = t->src + t->v[k].off;
	size_t n = t->v[k].len;
	for (size_t i = 0; i + 5 <= n; i++)
		if ((s[i] | 0x20) == 'u' && (s[i + 1] | 0x20) == 's' && (s[i + 2] | 0x20) == 'a' &&
		    (s[i + 3] | 0x20) == 'g' && (s[i + 4] | 0x20) == 'e')
			return true;
	return false;
}

/* NAME[] = { "...", N_("..."), NULL } from its `{` at o: each element with
 * text into out's usage list */
static void usage_array(const fl_toks *t, const size_t *mt, size_t o, cconsts *out)
{
	size_t close = mt[o];
	if (close == NONE || close <= o)
		return;
	for (size_t k = o + 1; k < close;) {
		size_t b = k, s = k;
		if (t->v[k].kind == FL_TK_IDENT && tk_p1(t, k + 1, '(') && mt[k + 1] != NONE) {
			s = k + 2; /* N_("...") */
			k = mt[k + 1] + 1;
		} else {
			while (k < close && !tk_p1(t, k, ','))
				k++;
		}
		fl_buf tb = {0};
		size_t j = s;
		for (; j < t->n && t->v[j].kind == FL_TK_STRING; j++)
			fl_buf_put(&tb, fl_tok_str(t, &t->v[j]), t->v[j].slen);
		if (j > s && has_text(fl_buf_cstr(&tb))) {
			if (out->usage.n == out->usage_cap) {
				out->usage_cap = out->usage_cap ? out->usage_cap * 2 : 8;
				out->usage_tok = fl_xrealloc(out->usage_tok, out->usage_cap * sizeof *out->usage_tok);
			}
			out->usage_tok[out->usage.n] = b;
			fl_strv_push(&out->usage, tb.s);
		}
		fl_buf_free(&tb);
		while (k < close && !tk_p1(t, k, ','))
			k++;
		k++;
	}
}

/* the end of the block that holds token i (its closing brace), or the
 * file's end: back over the tokens before i, a closed bracket pair at a
 * time, to the first `{` still open */
static size_t block_end(const fl_toks *t, const size_t *mt, size_t i)
{
	for (size_t k = i; k-- > 0;) {
		if (t->v[k].flags & TF_DIR)
			continue;
		if (is_close(t, k) && mt[k] != NONE && mt[k] < k) {
			k = mt[k];
			continue;
		}
		if (tk_p1(t, k, '{'))
			return mt[k] != NONE && mt[k] > i ? mt[k] : t->n;
	}
	return t->n;
}

static bool same_tok(const fl_toks *t, size_t a, size_t b)
{
	return t->v[a].len == t->v[b].len && memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) == 0;
}

/* ---- a table of texts separated by NULs -------------------------------------
 * `static const char errors[] = "multiple `!'s\0" "unexpected `,'\0" ...;`
 * and a macro for each text's offset, the one before it plus its size:
 * `#define BAD_BANG (errors)`, `#define BAD_COMMA (BAD_BANG + sizeof
 * (N_("multiple `!'s")))` (GNU sed; glibc's and gnulib's regcomp.c:
 * `#define REG_NOMATCH_IDX (REG_NOERROR_IDX + sizeof REG_NOERROR_MSG)`).
 * Each such macro names the text at its offset: `bad_prog (_(BAD_COMMA))`
 * reports "unexpected `,'". */

typedef struct {
	size_t name;      /* the macro's name token */
	size_t base;      /* the name it adds to: the table or another macro */
	size_t add;       /* the size it adds (a text's, with its NUL) */
	size_t end;       /* the token after its definition */
	size_t off;       /* resolved: the offset into the table */
	int state;        /* 0 not resolved, 1 resolving, 2 resolved, 3 none */
} nulmac;

/* the size `sizeof (N_("text"))`, `sizeof ("text")`, `sizeof "text"` or
 * `sizeof NAME` (a constant of the file, consts) adds at k (its `sizeof`),
 * *after: the token after it; 0 when it is none of those */
static size_t nul_sizeof(const fl_toks *t, const size_t *mt, const cconsts *k0, size_t k, size_t e,
			 size_t *after)
{
	if (!tk_id(t, k, "sizeof") || k + 1 >= e)
		return 0;
	size_t b = k + 1, x = e, close = NONE;
	if (tk_p1(t, b, '(') && mt[b] != NONE && mt[b] < e) {
		close = x = mt[b];
		b++;
		if (t->v[b].kind == FL_TK_IDENT && tk_p1(t, b + 1, '(') && mt[b + 1] != NONE &&
		    mt[b + 1] + 1 == x) {
			x = mt[b + 1]; /* N_("...") */
			b += 2;
		}
	}
	size_t n = 0, j = b;
	for (; j < x && t->v[j].kind == FL_TK_STRING; j++)
		n += t->v[j].slen;
	if (j > b && j == x) {
		*after = close != NONE ? close + 1 : j;
		return n + 1;
	}
	if (j == b && t->v[b].kind == FL_TK_IDENT && b + 1 == x && k0) {
		char key[128];
		size_t l = t->v[b].len, d;
		if (l < sizeof key) {
			memcpy(key, t->src + t->v[b].off, l);
			key[l] = '\0';
			if (fl_strmap_get(&k0->names, key, &d)) {
				*after = close != NONE ? close + 1 : b + 1;
				return strlen(k0->text.v[d]) + 1;
			}
		}
	}
	return 0;
}

static size_t nul_find(const fl_toks *t, const nulmac *v, size_t n, size_t name)
{
	for (size_t i = 0; i < n; i++)
		if (t->v[v[i].name].len == t->v[name].len &&
		    memcmp(t->src + t->v[v[i].name].off, t->src + t->v[name].off, t->v[name].len) == 0)
			return i;
	return NONE;
}

/* the offset macro i into the table tb: its state and offset */
static void nul_resolve(const fl_toks *t, nulmac *v, size_t n, size_t i, size_t tb, int depth)
{
	if (v[i].state >= 2 || depth > 256) {
		if (!v[i].state)
			v[i].state = 3;
		return;
	}
	if (v[i].state == 1) { /* a loop */
		v[i].state = 3;
		return;
	}
	v[i].state = 1;
	if (same_tok(t, v[i].base, tb)) {
		v[i].off = v[i].add;
		v[i].state = 2;
		return;
	}
	size_t b = nul_find(t, v, n, v[i].base);
	if (b == NONE || b == i) {
		v[i].state = 3;
		return;
	}
	nul_resolve(t, v, n, b, tb, depth + 1);
	v[i].state = v[b].state == 2 ? 2 : 3;
	v[i].off = v[b].off + v[i].add;
}

/* the table named at tb whose text is bytes[0, len): its offset macros'
 * texts into out */
static void nul_table(const fl_toks *t, const size_t *mt, cconsts *out, size_t tb, const char *bytes,
		      size_t len)
{
	nulmac *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t k = 0; k + 3 < t->n; k++) {
		if (!(t->v[k].flags & TF_DIRSTART) || !tk_id(t, k + 1, "define") || t->v[k + 2].kind != FL_TK_IDENT)
			continue;
		size_t name = k + 2, e = name + 1;
		while (e < t->n && (t->v[e].flags & TF_DIR) && !(t->v[e].flags & TF_DIRSTART))
			e++;
		/* NAME (BASE [+ sizeof X]) or NAME BASE [+ sizeof X]; not NAME(x) */
		size_t b = name + 1, x = e;
		if (b < e && t->v[b].off == t->v[name].off + t->v[name].len && tk_p1(t, b, '('))
			continue;
		if (b < e && tk_p1(t, b, '(') && mt[b] + 1 == e) {
			x = mt[b];
			b++;
		}
		if (b >= x || t->v[b].kind != FL_TK_IDENT)
			continue;
		size_t add = 0, after = b + 1;
		if (after < x) {
			if (!tk_p1(t, after, '+') || !(add = nul_sizeof(t, mt, out, after + 1, x, &after)) ||
			    after != x)
				continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			v = fl_xrealloc(v, cap * sizeof *v);
		}
		v[n++] = (nulmac){.name = name, .base = b, .add = add, .end = e};
		k = e - 1;
	}
	for (size_t i = 0; i < n; i++) {
		nul_resolve(t, v, n, i, tb, 0);
		if (v[i].state != 2 || v[i].off >= len)
			continue;
		const char *s = bytes + v[i].off;
		size_t l = strnlen(s, len - v[i].off);
		char *text = fl_xstrndup(s, l);
		if (!has_text(text)) {
			free(text);
			continue;
		}
		const_put(out, t, v[i].name, text, v[i].end, t->n);
	}
	free(v);
}

void c_consts_find(const fl_toks *t, const size_t *mt, cconsts *out)
{
	/* from each string literal that starts a value: the constants are
	 * few, the tokens many */
	for (size_t j = 3; j < t->n; j++) {
		if (t->v[j].kind != FL_TK_STRING || t->v[j - 1].kind == FL_TK_STRING)
			continue;
		if (t->v[j].flags & TF_DIR) {
			/* #define NAME "..." (not NAME(x), whose '(' touches it) */
			size_t name = j - 1;
			if (t->v[name].kind != FL_TK_IDENT || !tk_id(t, j - 2, "define") ||
			    !(t->v[j - 3].flags & TF_DIRSTART))
				continue;
			size_t e = j;
			while (e < t->n && (t->v[e].flags & TF_DIR) && !(t->v[e].flags & TF_DIRSTART))
				e++;
			const_put(out, t, name, decl_text(t, j, e), e, t->n);
			continue;
		}
		/* usage text: char *const NAME_usage[] = { "...", ... } */
		if ((tk_p1(t, j - 1, '{') && tk_p1(t, j - 2, '=') && tk_p1(t, j - 3, ']')) ||
		    (j >= 5 && tk_p1(t, j - 1, '(') && t->v[j - 2].kind == FL_TK_IDENT &&
		     tk_p1(t, j - 3, '{') && tk_p1(t, j - 4, '=') && tk_p1(t, j - 5, ']'))) {
			size_t o = tk_p1(t, j - 1, '{') ? j - 1 : j - 3;
			if (o >= 4 && tk_p1(t, o - 3, '[') && t->v[o - 4].kind == FL_TK_IDENT &&
			    usage_name(t, o - 4))
				usage_array(t, mt, o, out);
			continue;
		}
		/* char NAME[] = "..."; / const char *const NAME = "..."; */
		if (!tk_p1(t, j - 1, '='))
			continue;
		size_t name = j - 2;
		bool array = tk_p1(t, name, ']') && name >= 2 && tk_p1(t, name - 1, '[');
		if (array)
			name -= 2;
		if (t->v[name].kind != FL_TK_IDENT || (t->v[name].flags & TF_DIR))
			continue;
		/* an array, or a pointer that cannot change (`*const NAME`):
		 * `const char *msg = "..."` may point elsewhere by the time
		 * it is reported */
		if (!array && !(name >= 2 && tk_id(t, name - 1, "const") && tk_p1(t, name - 2, '*')))
			continue;
		bool chr = false;
		for (size_t k = name, back = 0; k > 0 && back < 5 && !chr; k--, back++)
			chr = tk_id(t, k - 1, "char") || tk_id(t, k - 1, "wchar_t");
		if (!chr)
			continue;
		const_put(out, t, name, decl_text(t, j, 0), name, block_end(t, mt, name));
		/* a table of texts separated by NULs */
		fl_buf raw = {0};
		bool nul = false;
		size_t q = j;
		for (; q < t->n && t->v[q].kind == FL_TK_STRING; q++) {
			const char *x = fl_tok_str(t, &t->v[q]);
			nul = nul || memchr(x, '\0', t->v[q].slen) != NULL;
			fl_buf_put(&raw, x, t->v[q].slen);
		}
		if (array && nul && tk_p1(t, q, ';'))
			nul_table(t, mt, out, name, raw.s, raw.n);
		fl_buf_free(&raw);
	}
}

void c_consts_free(cconsts *k)
{
	fl_strmap_free(&k->names);
	fl_strv_free(&k->text);
	free(k->beg);
	free(k->end);
	free(k->prev);
	fl_strv_free(&k->usage);
	free(k->usage_tok);
}

/* the text of a literal argument, for a conversion letter: a string
 * literal (or a wrapped one) for %s, a decimal number for the integer
 * conversions; NULL when the argument is anything else */
static char *literal_arg(const ctx *c, size_t b, size_t e, char conv)
{
	const fl_toks *t = c->t;
	if (conv == 's') {
		if (!c_arg_is_literal(c, b, e, true))
			return NULL;
		fl_buf out = {0};
		if (!build_expr(c, b, e, &out, 0)) {
			fl_buf_free(&out);
			return NULL;
		}
		fl_buf_cstr(&out);
		return out.s;
	}
	if (strchr("diu", conv) && e == b + 1 && t->v[b].kind == FL_TK_NUMBER &&
	    t->v[b].len < 20) {
		const char *q = t->src + t->v[b].off;
		for (size_t k = 0; k < t->v[b].len; k++)
			if (q[k] < '0' || q[k] > '9')
				return NULL;
		return fl_xstrndup(q, t->v[b].len);
	}
	return NULL;
}

/* c_fmt_msg() and its variants: sub >= 0 puts sub_text (format form: a
 * literal '%' doubled) for argument sub; sargs, when given, gets the
 * arguments of the %s conversions that are not literals (up to max);
 * raw keeps the format form (no msg_done()). */
static char *fmt_msg(const ctx *c, const size_t *st, const size_t *en, int na, int fmt,
		     int sub, const char *sub_text, int *sargs, int *nsargs, int max, bool raw)
{
	fl_buf f = {0};
	if (fmt < 0 || fmt >= na || !build_expr(c, st[fmt], en[fmt], &f, 0)) {
		fl_buf_free(&f);
		return NULL;
	}
	fl_buf_cstr(&f);
	/* each conversion in turn takes the next arguments; one whose
	 * argument is a literal shows that literal (the message the program
	 * prints), the others stay placeholders, %% stays doubled for
	 * msg_done() to undo */
	fl_buf out = {0};
	int next = fmt + 1;
	bool ok = true;
	for (const char *p = f.s; *p;) {
		if (p[0] != '%') {
			fl_buf_putc(&out, *p++);
			continue;
		}
		if (p[1] == '%') {
			fl_buf_put(&out, p, 2);
			p += 2;
			continue;
		}
		int stars = 0;
		size_t l = ok ? fl_printf_conv(p, &stars) : 0;
		char conv = l ? p[l - 1] : 0;
		if (!l) {
			/* not a conversion we can follow (%m, %1$s...): the
			 * arguments after it can no longer be placed */
			ok = false;
			fl_buf_putc(&out, *p++);
			continue;
		}
		next += stars;
		if (!stars && next == sub && conv == 's' && sub_text) {
			fl_buf_puts(&out, sub_text);
			next++;
			p += l;
			continue;
		}
		char *lit = !stars && next < na ? literal_arg(c, st[next], en[next], conv) : NULL;
		if (lit) {
			for (const char *q = lit; *q; q++) {
				if (*q == '%')
					fl_buf_putc(&out, '%');
				fl_buf_putc(&out, *q);
			}
			free(lit);
		} else {
			if (sargs && conv == 's' && !stars && next < na && *nsargs < max)
				sargs[(*nsargs)++] = next;
			fl_buf_put(&out, p, l);
		}
		next++;
		p += l;
	}
	fl_buf_free(&f);
	if (raw) {
		fl_buf_cstr(&out);
		return out.s;
	}
	return msg_done(&out, true, true);
}

char *c_fmt_msg(const ctx *c, const size_t *st, const size_t *en, int na, int fmt)
{
	return fmt_msg(c, st, en, na, fmt, -1, NULL, NULL, NULL, 0, false);
}

char *c_fmt_msg_sub(const ctx *c, const size_t *st, const size_t *en, int na, int fmt,
		    int sub, const char *text, bool raw)
{
	return fmt_msg(c, st, en, na, fmt, sub, text, NULL, NULL, 0, raw);
}

int c_fmt_s_args(const ctx *c, const size_t *st, const size_t *en, int na, int fmt,
		 int *sargs, int max)
{
	int n = 0;
	free(fmt_msg(c, st, en, na, fmt, -1, NULL, sargs, &n, max, true));
	return n;
}

/* The message a stream insertion chain writes, from token p (a `<<`) to
 * the end of the statement (`LOG(ERROR) << "bad size " << n;`): literals
 * as they are, other operands as placeholders, std::endl and blank
 * character literals left out.  NULL when no literal text is written. */
char *c_stream_msg(const ctx *c, size_t p)
{
	const fl_toks *t = c->t;
	fl_buf out = {0};
	bool lit = false;
	for (int ops = 0; ops < 64 && p < t->n && tk_p(t, p, "<<"); ops++) {
		size_t b = p + 1, k = b;
		while (k < t->n && !tk_p(t, k, "<<") && !tk_p1(t, k, ';') &&
		       !tk_p1(t, k, ',') && !is_close(t, k)) {
			if (is_open(t, k) && c->mt[k] != NONE && c->mt[k] > k)
				k = c->mt[k];
			k++;
		}
		if (k == b)
			break;
		p = k;
		if ((k - b == 1 && tk_id(t, b, "endl")) ||
		    (k - b == 3 && tk_id(t, b, "std") && tk_id(t, b + 2, "endl")))
			continue;
		if (k - b == 1 && t->v[b].kind == FL_TK_CHAR) {
			/* ':' stays, '\n' and ' ' do not */
			const char *q = t->src + t->v[b].off;
			if (t->v[b].len == 3 && q[1] != '\\' && q[1] != ' ')
				fl_buf_putc(&out, q[1]);
			continue;
		}
		if (build_expr(c, b, k, &out, 0))
			lit = true;
	}
	return msg_done(&out, lit, false);
}
