/*
 * lex.c — shared lexer primitives, token queries, bracket matching,
 * argument splitting, message reconstruction and rule helpers used by
 * every language file (see lex.h).
 */
#define _GNU_SOURCE /* memmem */
#include "lex.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../strmap.h"
#include "../util.h"

/* ---- fl_toks ------------------------------------------------------------- */

/* Token lists are a scan's largest allocations (a few tokens per source
 * line, 28 bytes each): each thread keeps the buffers of the list it freed
 * last for the next file, instead of asking the system for fresh zeroed
 * pages every time.  Freed when the thread ends. */
struct toks_spare {
	fl_tok *v;
	size_t cap;
	fl_buf arena;
};

static pthread_key_t spare_key;
static bool spare_ok;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

static void spare_free(void *p)
{
	struct toks_spare *sp = p;
	free(sp->v);
	fl_buf_free(&sp->arena);
	free(sp);
}

static void spare_key_make(void)
{
	spare_ok = pthread_key_create(&spare_key, spare_free) == 0;
}

static struct toks_spare *spare_get(bool make)
{
	pthread_once(&spare_once, spare_key_make);
	if (!spare_ok)
		return NULL;
	struct toks_spare *sp = pthread_getspecific(spare_key);
	if (!sp && make) {
		sp = calloc(1, sizeof *sp);
		if (sp && pthread_setspecific(spare_key, sp) != 0) {
			free(sp);
			sp = NULL;
		}
	}
	return sp;
}

static _Thread_local size_t helper_left;

void fl_helper_budget_reset(size_t ntoks)
{
	helper_left = (size_t)4000000 + 16 * ntoks;
}

bool fl_helper_budget_take(size_t ntoks)
{
	if (helper_left < ntoks)
		return false;
	helper_left -= ntoks;
	return true;
}

bool fl_same_text(char **text, char *m)
{
	if (!m || (*text && strcmp(*text, m) != 0)) {
		free(m);
		free(*text);
		*text = NULL;
		return false;
	}
	if (*text)
		free(m);
	else
		*text = m;
	return true;
}

void fl_toks_init(fl_toks *t, const fl_src *src)
{
	memset(t, 0, sizeof *t);
	t->src = src->text;
	t->srclen = src->len;
	t->line = 1;
	t->br_ok = true;
	t->nl = true; /* the file's first token starts a line */
	fl_helper_budget_reset(0); /* a collect pass's lookups: the base */
	struct toks_spare *sp = spare_get(false);
	if (sp) {
		t->v = sp->v;
		t->cap = sp->cap;
		t->arena = sp->arena;
		t->arena.n = 0;
		sp->v = NULL;
		sp->cap = 0;
		memset(&sp->arena, 0, sizeof sp->arena);
	}
	/* room for the tokens a source of this size usually has (one per
	 * 5-6 bytes of C; fewer elsewhere): the array is not copied again
	 * and again while it grows */
	size_t want = src->len / 6 + 256;
	if (t->cap < want && want <= (64u << 20) / sizeof *t->v) {
		free(t->v);
		t->v = fl_xmalloc(want * sizeof *t->v);
		t->cap = want;
	}
	if (t->br_ok) {
		t->brcap = src->len / 24 + 64;
		t->br = fl_xmalloc(t->brcap * sizeof *t->br);
	}
}

void fl_toks_free(fl_toks *t)
{
	free(t->match);
	free(t->br);
	/* keep the larger buffers; a huge one (over 64 MB) goes back */
	struct toks_spare *sp = t->cap * sizeof *t->v <= (64u << 20) ? spare_get(true) : NULL;
	if (sp && t->cap > sp->cap) {
		free(sp->v);
		sp->v = t->v;
		sp->cap = t->cap;
	} else {
		free(t->v);
	}
	if (sp && t->arena.cap > sp->arena.cap && t->arena.cap <= (64u << 20)) {
		fl_buf_free(&sp->arena);
		sp->arena = t->arena;
	} else {
		fl_buf_free(&t->arena);
	}
	memset(t, 0, sizeof *t);
}

void fl_toks_br_grow(fl_toks *t)
{
	t->brcap = t->brcap ? t->brcap * 2 : 256;
	t->br = fl_xrealloc(t->br, t->brcap * sizeof *t->br);
}

void fl_toks_grow(fl_toks *t)
{
	t->cap = t->cap ? t->cap * 2 : 256;
	t->v = fl_xrealloc(t->v, t->cap * sizeof *t->v);
}

void fl_toks_str_begin(fl_toks *t, fl_tok *tok)
{
	tok->str = (uint32_t)t->arena.n;
	tok->slen = 0;
}

void fl_toks_str_end(fl_toks *t, fl_tok *tok)
{
	tok->slen = (uint32_t)(t->arena.n - tok->str);
	fl_buf_putc(&t->arena, '\0');
}

const char *fl_tok_str(const fl_toks *t, const fl_tok *tok)
{
	if (tok->kind != FL_TK_STRING || !t->arena.s)
		return "";
	return t->arena.s + tok->str;
}

/* ---- cursor helpers ------------------------------------------------------ */

void fl_lx_adv(fl_toks *t)
{
	if (t->pos >= t->srclen)
		return;
	if (t->src[t->pos] == '\n') {
		t->line++;
		t->line_start = t->pos + 1;
	}
	t->pos++;
}

void fl_lx_adv_to(fl_toks *t, size_t p)
{
	if (p > t->srclen)
		p = t->srclen;
	while (t->pos < p) {
		const char *nl = memchr(t->src + t->pos, '\n', p - t->pos);
		if (!nl)
			break;
		t->line++;
		t->pos = (size_t)(nl - t->src) + 1;
		t->line_start = t->pos;
	}
	t->pos = p;
}

/* 1: [A-Za-z0-9_] and bytes >= 0x80; 2: '$'; 4: space \t \r \f \v;
 * 8: ( ) [ ] { }; 16: FL_LX_OP_TAIL, a multi-byte operator's second byte;
 * 32: \n */
const uint8_t fl_lx_class[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 32, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	4, 16, 0, 16, 18, 16, 16, 0, 8, 8, 16, 16, 0, 16, 16, 16, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 16, 0, 16, 16, 16, 16,
	16, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 8, 16, 8, 16, 1,
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 8, 16, 8, 16, 0,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

static bool is_ident_byte(unsigned char c, bool dollar_ok)
{
	return fl_lx_class[c] & (dollar_ok ? 3 : 1);
}

void fl_lx_number(fl_toks *t)
{
	size_t start = t->pos;
	int col = fl_lx_col(t);
	while (t->pos < t->srclen) {
		unsigned char c = (unsigned char)t->src[t->pos];
		if (is_ident_byte(c, false) || c == '.') {
			t->pos++;
		} else if ((c == '+' || c == '-') && t->pos > start &&
			   (t->src[t->pos - 1] == 'e' ||
			    t->src[t->pos - 1] == 'E') &&
			   !(t->pos - start >= 2 && t->src[start] == '0' &&
			     (t->src[start + 1] == 'x' ||
			      t->src[start + 1] == 'X'))) {
			t->pos++;
		} else {
			break;
		}
	}
	if (t->pos == start)
		t->pos++;
	fl_toks_push(t, FL_TK_NUMBER, start, t->pos - start, t->line, col);
}

/* An operator list prepared for fl_lx_punct_ops(): its operators of two
 * bytes or more, grouped by first byte, so that a lookup looks at the few
 * sharing the byte instead of the whole list (230 instructions a call on
 * Rust before).  Prepared once per list for the process; the lists are
 * the languages' static arrays. */
#define OPS_MAX 64
#define OPS_LISTS 16
struct ops_op {
	char b1;           /* second byte */
	uint8_t len;
	const char *op;
};
struct ops_index {
	const char *const *ops;
	uint8_t lo[256], hi[256]; /* by first byte: [lo, hi) of op */
	struct ops_op op[OPS_MAX];
};
static struct ops_index ops_idx[OPS_LISTS];
static _Atomic int ops_nidx;
static pthread_mutex_t ops_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct ops_index *ops_prepared(const char *const *ops)
{
	int n = atomic_load_explicit(&ops_nidx, memory_order_acquire);
	for (int i = 0; i < n; i++)
		if (ops_idx[i].ops == ops)
			return &ops_idx[i];
	const struct ops_index *r = NULL;
	pthread_mutex_lock(&ops_lock);
	n = atomic_load_explicit(&ops_nidx, memory_order_relaxed);
	for (int i = 0; i < n && !r; i++)
		if (ops_idx[i].ops == ops)
			r = &ops_idx[i];
	size_t count = 0;
	while (!r && ops[count])
		count++;
	if (!r && n < OPS_LISTS && count <= OPS_MAX) {
		struct ops_index *x = &ops_idx[n];
		memset(x, 0, sizeof *x);
		x->ops = ops;
		size_t k = 0;
		for (int c = 1; c < 256; c++) {
			x->lo[c] = (uint8_t)k;
			for (const char *const *o = ops; *o; o++) {
				size_t l = strlen(*o);
				if ((unsigned char)(*o)[0] == c && l >= 2 && l <= 255)
					x->op[k++] = (struct ops_op){(*o)[1], (uint8_t)l, *o};
			}
			x->hi[c] = (uint8_t)k;
		}
		atomic_store_explicit(&ops_nidx, n + 1, memory_order_release);
		r = x;
	}
	pthread_mutex_unlock(&ops_lock);
	return r; /* NULL: too many lists, or too long a one */
}

/* The longest of ops at t->pos (fl_lx_punct() when the next byte may
 * continue an operator): every op is two bytes or more. */
void fl_lx_punct_ops(fl_toks *t, const char *const *ops)
{
	size_t start = t->pos;
	int col = fl_lx_col(t);
	size_t best = 1;
	char c = t->src[start], c1 = t->src[start + 1];
	const struct ops_index *x = ops_prepared(ops);
	if (x) {
		unsigned char u = (unsigned char)c;
		for (unsigned k = x->lo[u]; k < x->hi[u]; k++) {
			const struct ops_op *o = &x->op[k];
			size_t l = o->len;
			if (o->b1 == c1 && l > best && start + l <= t->srclen &&
			    (l == 2 || memcmp(t->src + start + 2, o->op + 2, l - 2) == 0))
				best = l;
		}
	} else {
		for (const char *const *op = ops; *op; op++) {
			const char *o = *op;
			if (o[0] != c || o[1] != c1)
				continue;
			size_t l = o[2] ? strlen(o) : 2;
			if (l > best && start + l <= t->srclen &&
			    memcmp(t->src + start, o, l) == 0)
				best = l;
		}
	}
	t->pos += best;
	fl_toks_push(t, FL_TK_PUNCT, start, best, t->line, col);
}

/* read up to max hex digits; returns count read */
static int read_hex(fl_toks *t, int max, uint32_t *out)
{
	uint32_t v = 0;
	int k = 0;
	while (k < max) {
		int h = fl_hexval(fl_lx_peek(t, 0));
		if (h < 0)
			break;
		v = v * 16 + (uint32_t)h;
		t->pos++;
		k++;
	}
	*out = v;
	return k;
}

void fl_lx_escape(fl_toks *t, fl_buf *b)
{
	t->pos++; /* backslash */
	int c = fl_lx_peek(t, 0);
	if (c < 0)
		return;
	uint32_t v;
	switch (c) {
	case 'n': fl_buf_putc(b, '\n'); t->pos++; return;
	case 't': fl_buf_putc(b, '\t'); t->pos++; return;
	case 'r': fl_buf_putc(b, '\r'); t->pos++; return;
	case 'a': fl_buf_putc(b, '\a'); t->pos++; return;
	case 'b': fl_buf_putc(b, '\b'); t->pos++; return;
	case 'f': fl_buf_putc(b, '\f'); t->pos++; return;
	case 'v': fl_buf_putc(b, '\v'); t->pos++; return;
	case 'e': fl_buf_putc(b, '\x1b'); t->pos++; return;
	case 'x':
		t->pos++;
		if (read_hex(t, 2, &v) == 0)
			fl_buf_putc(b, 'x');
		else
			fl_buf_put_utf8(b, v);
		return;
	case 'u':
		t->pos++;
		if (fl_lx_peek(t, 0) == '{') {
			size_t save = t->pos;
			t->pos++;
			if (read_hex(t, 6, &v) > 0 && fl_lx_peek(t, 0) == '}') {
				t->pos++;
				fl_buf_put_utf8(b, v);
			} else {
				t->pos = save;
				fl_buf_putc(b, 'u');
			}
			return;
		}
		if (read_hex(t, 4, &v) == 4) {
			/* surrogate pair \uD83D\uDE00 */
			if (v >= 0xD800 && v <= 0xDBFF && fl_lx_peek(t, 0) == '\\' &&
			    fl_lx_peek(t, 1) == 'u') {
				size_t save = t->pos;
				uint32_t lo;
				t->pos += 2;
				if (read_hex(t, 4, &lo) == 4 && lo >= 0xDC00 &&
				    lo <= 0xDFFF) {
					v = 0x10000 + ((v - 0xD800) << 10) +
					    (lo - 0xDC00);
				} else {
					t->pos = save;
				}
			}
			fl_buf_put_utf8(b, v);
		} else {
			fl_buf_putc(b, 'u');
		}
		return;
	case 'U':
		t->pos++;
		if (read_hex(t, 8, &v) == 8)
			fl_buf_put_utf8(b, v);
		else
			fl_buf_putc(b, 'U');
		return;
	case '\r':
		if (fl_lx_peek(t, 1) == '\n') {
			/* CRLF line continuation inside a string */
			fl_lx_adv(t);
			fl_lx_adv(t);
			return;
		}
		fl_buf_putc(b, '\r');
		fl_lx_adv(t);
		return;
	case '\n':
		/* line continuation inside a string */
		fl_lx_adv(t);
		return;
	default:
		if (c >= '0' && c <= '7') {
			v = 0;
			for (int k = 0; k < 3; k++) {
				int d = fl_lx_peek(t, 0);
				if (d < '0' || d > '7')
					break;
				v = v * 8 + (uint32_t)(d - '0');
				t->pos++;
			}
			if (v < 0x80)
				fl_buf_putc(b, (char)v);
			else
				fl_buf_put_utf8(b, v);
			return;
		}
		fl_buf_putc(b, (char)c);
		fl_lx_adv(t);
		return;
	}
}

void fl_lx_block_comment(fl_toks *t, const char *open, const char *close,
			 bool nest)
{
	size_t ol = strlen(open), cl = strlen(close);
	const char *s = t->src;
	size_t n = t->srclen, p = t->pos;
	int depth = 0;
	bool plain = !nest && cl && p + ol <= n && memcmp(s + p, open, ol) == 0;
	if (plain) {
		/* not nested: the first close after the open ends it, found by
		 * its last byte (a Javadoc block has a '*' on every line and a
		 * '/' only at its end) */
		p += ol;
		size_t from = p + cl - 1;
		for (;;) {
			const char *c = from < n ? memchr(s + from, close[cl - 1], n - from) : NULL;
			if (!c) {
				p = n;
				break;
			}
			size_t q = (size_t)(c - s) + 1 - cl;
			if (memcmp(s + q, close, cl) == 0) {
				p = q + cl;
				break;
			}
			from = (size_t)(c - s) + 1;
		}
	}
	while (!plain && p < n) {
		if (p + ol <= n && memcmp(s + p, open, ol) == 0 &&
		    (depth == 0 || nest)) {
			depth++;
			p += ol;
			continue;
		}
		if (p + cl <= n && memcmp(s + p, close, cl) == 0) {
			p += cl;
			if (--depth <= 0)
				break;
			continue;
		}
		/* on to the next byte that can start the close (or an open
		 * that counts): memchr over a license header or a Javadoc
		 * block instead of a comparison at every byte */
		const char *c = memchr(s + p + 1, close[0], n - p - 1);
		size_t q = c ? (size_t)(c - s) : n;
		if ((nest || depth == 0) && open[0] != close[0] && q > p + 1) {
			const char *o = memchr(s + p + 1, open[0], q - p - 1);
			if (o)
				q = (size_t)(o - s);
		}
		p = q;
	}
	int line = t->line;
	fl_lx_adv_to(t, p);
	if (t->line != line)
		t->nl = true;
}

void fl_lx_line_comment(fl_toks *t)
{
	const char *nl = memchr(t->src + t->pos, '\n', t->srclen - t->pos);
	t->pos = nl ? (size_t)(nl - t->src) : t->srclen;
}

/* ---- token queries ------------------------------------------------------- */

bool fl_tok_contains_ci(const fl_toks *t, size_t i, const char *needle)
{
	if (i >= t->n)
		return false;
	size_t l = strlen(needle), n = t->v[i].len;
	const char *s = t->src + t->v[i].off;
	/* needle is lower case: its first byte, in either case, first */
	char c0 = needle[0], u0 = c0 >= 'a' && c0 <= 'z' ? (char)(c0 - 'a' + 'A') : c0;
	for (size_t a = 0; a + l <= n; a++) {
		if (s[a] != c0 && s[a] != u0)
			continue;
		size_t k = 1;
		for (; k < l; k++) {
			char ch = s[a + k];
			if (ch >= 'A' && ch <= 'Z')
				ch = (char)(ch - 'A' + 'a');
			if (ch != needle[k])
				break;
		}
		if (k == l)
			return true;
	}
	return false;
}

char *fl_tok_dup(const fl_toks *t, size_t i)
{
	if (i >= t->n)
		return fl_xstrdup("");
	return fl_xstrndup(t->src + t->v[i].off, t->v[i].len);
}

static char closer_of(char c)
{
	return c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : 0;
}

size_t *fl_tok_match_table(const fl_toks *t, int mode)
{
	size_t *m = fl_xmalloc((t->n + 1) * sizeof *m);
	memset(m, 0xff, (t->n + 1) * sizeof *m); /* FL_NOMATCH */
	/* the brackets: those fl_toks_push() saw (checked again: a token may
	 * have been changed since), or every token */
	bool br = t->br_ok && t->n <= UINT32_MAX;
	size_t nb = br ? t->brn : t->n;
	size_t *st = fl_xmalloc((nb + 1) * sizeof *st);
	size_t sp = 0;
	for (size_t b = 0; b < nb; b++) {
		size_t i = br ? t->br[b] : b;
		if (i >= t->n)
			continue;
		const fl_tok *k = &t->v[i];
		if (k->kind != FL_TK_PUNCT || k->len != 1)
			continue;
		char c = t->src[k->off];
		if (c == '(' || c == '[' || c == '{') {
			st[sp++] = i;
			continue;
		}
		if (c != ')' && c != ']' && c != '}')
			continue;
		char o = c == ')' ? '(' : c == ']' ? '[' : '{';
		size_t a = FL_NOMATCH;
		switch (mode) {
		case FL_MATCH_STRICT:
			if (sp && t->src[t->v[st[sp - 1]].off] == o)
				a = st[--sp];
			break;
		case FL_MATCH_INNERMOST:
			if (sp)
				a = st[--sp];
			break;
		case FL_MATCH_SKIP_ONE:
			if (sp && t->src[t->v[st[sp - 1]].off] == o) {
				a = st[--sp];
			} else if (sp >= 2 && t->src[t->v[st[sp - 2]].off] == o) {
				sp -= 2;
				a = st[sp];
			}
			break;
		default: { /* FL_MATCH_RECOVER: only the opener records */
			size_t k2 = sp;
			while (k2 > 0 && sp - k2 < 16 &&
			       t->src[t->v[st[k2 - 1]].off] != o)
				k2--;
			if (k2 > 0 && t->src[t->v[st[k2 - 1]].off] == o) {
				m[st[k2 - 1]] = i;
				sp = k2 - 1;
			}
			continue;
		}
		}
		if (a != FL_NOMATCH) {
			m[a] = i;
			m[i] = a;
		}
	}
	free(st);
	return m;
}

size_t fl_tok_match(const fl_toks *t, size_t i)
{
	if (i >= t->n || t->v[i].kind != FL_TK_PUNCT || t->v[i].len != 1)
		return t->n;
	char open = t->src[t->v[i].off];
	if (!closer_of(open))
		return t->n;
	fl_toks *mt = (fl_toks *)t; /* the table is a cache */
	if (!mt->match || mt->match_n != t->n) {
		free(mt->match);
		/* any closer closes the innermost opener, as the depth
		 * counting of the rules does */
		mt->match = fl_tok_match_table(t, FL_MATCH_INNERMOST);
		mt->match_n = t->n;
	}
	size_t m = t->match[i];
	return m < t->n && m > i ? m : t->n;
}

/* fl_tok_split over [b, e); tokens whose flags & mask differ from want are
 * passed over.  Returns every argument counted (may exceed max). */
static size_t split_core(const fl_toks *t, const size_t *m, size_t b,
			 size_t e, size_t *st, size_t *en, size_t max,
			 uint8_t mask, uint8_t want)
{
	size_t cnt = 0, s = b;
	for (size_t k = b; k <= e; k++) {
		if (k < e) {
			const fl_tok *tk = &t->v[k];
			if ((tk->flags & mask) != want)
				continue;
			if (m[k] < t->n && m[k] > k && m[k] < e) {
				k = m[k]; /* a nested bracket: jump past it */
				continue;
			}
			if (tk->kind != FL_TK_PUNCT || tk->len != 1 ||
			    t->src[tk->off] != ',')
				continue;
		} else if (s == k) {
			break; /* empty last argument: "()" or "f(a,)" */
		}
		if (cnt < max) {
			st[cnt] = s;
			en[cnt] = k;
		}
		cnt++;
		s = k + 1;
	}
	return cnt;
}

size_t fl_tok_split(const fl_toks *t, const size_t *m, size_t b, size_t e,
		    size_t *st, size_t *en, size_t max)
{
	if (e > t->n)
		e = t->n;
	if (b > e)
		return 0;
	size_t cnt = split_core(t, m, b, e, st, en, max, 0, 0);
	return cnt < max ? cnt : max;
}

size_t fl_tok_split_args(const fl_toks *t, const size_t *m, size_t open,
			 size_t *st, size_t *en, size_t max, size_t *close,
			 uint8_t mask)
{
	size_t c = open < t->n ? m[open] : FL_NOMATCH;
	if (c >= t->n || c <= open) {
		if (close)
			*close = FL_NOMATCH;
		return 0;
	}
	if (close)
		*close = c;
	size_t cnt = split_core(t, m, open + 1, c, st, en, max, mask,
				(uint8_t)(t->v[open].flags & mask));
	return cnt < max ? cnt : max;
}

bool fl_tok_nesting(const fl_toks *t, size_t b, size_t e, int *maxd)
{
	int d = 0, top = 0;
	bool ok = true;
	for (size_t k = b; k < e && k < t->n; k++) {
		const fl_tok *tk = &t->v[k];
		if (tk->kind != FL_TK_PUNCT || tk->len != 1)
			continue;
		char c = t->src[tk->off];
		if (c == '(' || c == '[' || c == '{') {
			if (++d > top)
				top = d;
		} else if (c == ')' || c == ']' || c == '}') {
			if (--d < 0)
				ok = false;
		}
	}
	*maxd = top;
	return ok && d == 0;
}

size_t fl_tok_args(const fl_toks *t, size_t open, size_t *starts, size_t *ends,
		   size_t max, size_t *close)
{
	size_t c = fl_tok_match(t, open);
	if (close)
		*close = c;
	if (c >= t->n)
		return 0;
	return fl_tok_split(t, t->match, open + 1, c, starts, ends, max);
}

/* cond has no operator or space outside brackets and quotes: a name, a
 * call, a member chain, a literal */
static bool simple_operand(const char *s)
{
	int depth = 0;
	char q = 0;
	const char *start = s;
	for (; *s; s++) {
		char c = *s;
		/* a Ruby method name's last character: ready?, save! */
		if ((c == '?' || c == '!') && s > start && !q &&
		    ((s[-1] >= 'a' && s[-1] <= 'z') || (s[-1] >= 'A' && s[-1] <= 'Z') ||
		     (s[-1] >= '0' && s[-1] <= '9') || s[-1] == '_') &&
		    !((s[1] >= 'a' && s[1] <= 'z') || (s[1] >= 'A' && s[1] <= 'Z') ||
		      (s[1] >= '0' && s[1] <= '9') || s[1] == '_' || s[1] == '=' ||
		      s[1] == ' '))
			continue;
		if (q) {
			if (c == '\\' && s[1])
				s++;
			else if (c == q)
				q = 0;
			continue;
		}
		if (c == '"' || c == '\'')
			q = c;
		else if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (!depth && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				     (c >= '0' && c <= '9') || c == '_' || c == '.' ||
				     c == '$' || c == ':' || (unsigned char)c >= 0x80))
			return false;
	}
	return depth == 0 && !q;
}

/* cond as one comparison with its operator turned ("rc==SQLITE_OK" ->
 * "rc!=SQLITE_OK", "n < 0" -> "n >= 0", Python's "x is None" -> "x is not
 * None"), or NULL when cond is not exactly one comparison at its top level
 * (an && or ||, a chain a < b < c, a ternary). */
/* A condition read at its top level, one character at a time: quoted
 * strings and brackets are stepped over. */
typedef struct toplevel {
	int depth;
	char q;
} toplevel;

/* Whether *sp is at the top level, outside quotes and brackets (an
 * operator may start there); *sp may move past an escaped character. */
static bool top_char(toplevel *tl, const char **sp)
{
	const char *s = *sp;
	char c = *s;
	if (tl->q) {
		if (c == '\\' && s[1])
			*sp = s + 1;
		else if (c == tl->q)
			tl->q = 0;
		return false;
	}
	if (c == '"' || c == '\'' || c == '`') {
		tl->q = c;
		return false;
	}
	if (c == '(' || c == '[' || c == '{') {
		tl->depth++;
		return false;
	}
	if ((c == ')' || c == ']' || c == '}') && tl->depth > 0) {
		tl->depth--;
		return false;
	}
	return tl->depth == 0;
}

static char *turned_comparison(const char *cond, bool python)
{
	static const char *const ops[][2] = {
		{"!==", "==="}, {"===", "!=="}, {"==", "!="}, {"!=", "=="}, {"<=", ">"},
		{">=", "<"},    {"<", ">="},    {">", "<="},
	};
	static const char *const words[][2] = {
		{" is not ", " is "}, {" is ", " is not "}, {" not in ", " in "}, {" in ", " not in "},
	};
	toplevel tl = {0, 0};
	const char *at = NULL, *to = NULL;
	size_t len = 0;
	for (const char *s = cond; *s; s++) {
		if (!top_char(&tl, &s))
			continue;
		char c = *s;
		if ((c == '&' && s[1] == '&') || (c == '|' && s[1] == '|') || c == '?' || c == ',' ||
		    (c == '<' && s[1] == '<') || (c == '>' && s[1] == '>') || (c == '-' && s[1] == '>') ||
		    (c == '=' && s[1] == '>') || (c == '<' && s[1] == '=' && s[2] == '>'))
			return NULL;
		if (c == ' ' && (strncmp(s, " and ", 5) == 0 || strncmp(s, " or ", 4) == 0 ||
				 strncmp(s, " if ", 4) == 0))
			return NULL; /* Python's, Ruby's */
		const char *const(*tab)[2] = NULL;
		size_t n = 0;
		if (python && c == ' ') {
			tab = words;
			n = sizeof words / sizeof words[0];
		} else if (c == '=' || c == '!' || c == '<' || c == '>') {
			tab = ops;
			n = sizeof ops / sizeof ops[0];
		}
		for (size_t k = 0; k < n; k++) {
			size_t l = strlen(tab[k][0]);
			if (strncmp(s, tab[k][0], l) != 0)
				continue;
			if (at) /* a second comparison */
				return NULL;
			at = s;
			to = tab[k][1];
			len = l;
			s += l - 1;
			break;
		}
		if (!at && c == '=' && s > cond && s[-1] != '=' && s[1] != '=')
			return NULL; /* an assignment */
	}
	if (!at || tl.q || tl.depth || at == cond || !at[len])
		return NULL;
	return fl_xasprintf("%.*s%s%s", (int)(at - cond), cond, to, at + len);
}

char *fl_guard_not(const char *cond, bool python)
{
	if (!cond)
		return NULL;
	while (*cond == ' ')
		cond++;
	char *turned = turned_comparison(cond, python);
	if (turned)
		return turned;
	const char *neg = python ? "not " : "!";
	size_t nl = strlen(neg);
	if (strncmp(cond, neg, nl) == 0 && cond[nl] && simple_operand(cond + nl))
		return fl_xstrdup(cond + nl);
	if (*cond && simple_operand(cond))
		return fl_xasprintf("%s%s", neg, cond);
	return fl_xasprintf(python ? "not (%s)" : "!(%s)", cond);
}

const char *fl_print_severity(const char *msg)
{
	if (!msg)
		return FL_S_ERROR;
	while (*msg == ' ' || *msg == '\t' || *msg == '\n')
		msg++;
	if (strncasecmp(msg, "warning", 7) == 0 || strncasecmp(msg, "warn:", 5) == 0)
		return FL_S_WARNING;
	static const char *const progress[] = {
		"generating", "measuring", "loading", "loaded", "done", "finished", "starting",
		"started", "running", "building", "built", "compiling", "downloading", "downloaded",
		"installing", "installed", "writing", "wrote", "reading", "processing", "creating",
		"created", "updating", "updated", "checking", "skipping", "waiting", "listening",
		"connecting", "connected", "analyzing", "analysing", "scanning", "indexing",
		"saving", "saved", "fetching", "resolving", "preparing", "cleaning", "removing",
		"copying", "extracting", "progress", "elapsed", "total", NULL,
	};
	size_t n = 0;
	while (isalpha((unsigned char)msg[n]))
		n++;
	for (const char *const *p = progress; *p && n; p++)
		if (strlen(*p) == n && strncasecmp(msg, *p, n) == 0)
			return FL_S_INFO;
	return FL_S_ERROR;
}

char *fl_guard_span(const fl_toks *t, size_t gb, size_t ge, bool neg, bool python)
{
	if (gb >= ge)
		return NULL;
	char *g = fl_tok_span_text(t, gb, ge, 200);
	if (g && neg) {
		char *n = fl_guard_not(g, python);
		free(g);
		g = n;
	}
	return g;
}

/* How many conditions "a && b || c" joins (1 + its top-level && and ||,
 * with python also " and " and " or "), and whether an || (or) is among
 * them.  Brackets and quotes are skipped. */
static int guard_terms(const char *g, bool python, bool *any_or)
{
	int n = 1;
	toplevel tl = {0, 0};
	*any_or = false;
	for (const char *p = g; *p; p++) {
		if (!top_char(&tl, &p))
			continue;
		char c = *p;
		if ((c == '&' && p[1] == '&') || (c == '|' && p[1] == '|')) {
			n++;
			*any_or |= c == '|';
			p++;
		} else if (python && c == ' ' &&
			   (strncmp(p, " and ", 5) == 0 || strncmp(p, " or ", 4) == 0)) {
			n++;
			*any_or |= p[1] == 'o';
			p += p[1] == 'o' ? 2 : 3;
		}
	}
	return n;
}

/* ---- switch cases ---------------------------------------------------------- */

#define SW_MAX 16 /* labels a guard spells out */

typedef struct sw_labels {
	size_t b[SW_MAX], e[SW_MAX]; /* values [b, e) */
	size_t n;
	bool dflt, over;
} sw_labels;

static void sw_add(sw_labels *l, size_t b, size_t e)
{
	if (l->n == SW_MAX) {
		l->over = true;
		return;
	}
	l->b[l->n] = b;
	l->e[l->n++] = e;
}

/* The label at token k (`case` or `default`): its values added to l (the
 * comma-separated ones one by one); the token after its ':' or '->', or
 * FL_NOMATCH when it is not one. */
static size_t sw_label(const fl_toks *t, const size_t *m, size_t k, size_t end, sw_labels *l)
{
	if (fl_tok_is_ident(t, k, "default")) {
		if (!fl_tok_is_punct(t, k + 1, ":") && !fl_tok_is_punct(t, k + 1, "->"))
			return FL_NOMATCH;
		l->dflt = true;
		return k + 2;
	}
	size_t v = k + 1, q = v;
	int tern = 0;
	for (; q < end && q - k < 64; q++) {
		if (fl_tok_is_opener(t, q)) {
			if (m[q] == FL_NOMATCH || m[q] <= q || m[q] >= end)
				return FL_NOMATCH;
			q = m[q];
			continue;
		}
		if (fl_tok_is_punct(t, q, "?"))
			tern++;
		else if (fl_tok_is_punct(t, q, ":") && tern > 0)
			tern--;
		else if (fl_tok_is_punct(t, q, ":") || fl_tok_is_punct(t, q, "->") ||
			 (fl_tok_is_punct(t, q, ";") && q > v))
			break;
		else if (fl_tok_is_punct(t, q, ",")) {
			if (q > v)
				sw_add(l, v, q);
			v = q + 1;
		} else if (fl_tok_is_punct(t, q, "{") || fl_tok_is_punct(t, q, "}")) {
			return FL_NOMATCH;
		}
	}
	if (q >= end || q - k >= 64 || q == v)
		return FL_NOMATCH;
	sw_add(l, v, q);
	return q + 1;
}

char *fl_operand_text(const fl_toks *t, const size_t *m, size_t b, size_t e, bool arrows)
{
	char *s = fl_tok_span_text(t, b, e, 100);
	size_t k = b;
	if (e > b + 1 && t->v[b].kind == FL_TK_IDENT) {
		k++;
		while (k + 1 < e &&
		       (fl_tok_is_punct(t, k, ".") ||
			(arrows && (fl_tok_is_punct(t, k, "->") || fl_tok_is_punct(t, k, "::")))) &&
		       t->v[k + 1].kind == FL_TK_IDENT)
			k += 2;
		if (k < e && fl_tok_is_punct(t, k, "(") && m[k] == e - 1)
			k = e; /* a call ending the span */
	}
	if (e == b + 1 || k == e)
		return s;
	char *r = fl_xasprintf("(%s)", s);
	free(s);
	return r;
}

/* fl_operand_text of [b, e) (C's `->` and `::` joining a member chain)
 * onto out (for `x == v`) */
static void sw_operand(const fl_toks *t, const size_t *m, size_t b, size_t e, fl_buf *out)
{
	char *s = fl_operand_text(t, m, b, e, true);
	fl_buf_puts(out, s);
	free(s);
}

/* The `{` of the block around token at, back over balanced groups (at
 * most steps tokens and groups), or FL_NOMATCH: inside brackets (no
 * statement), unbalanced, or too far. */
static size_t block_open(const fl_toks *t, const size_t *m, size_t at, size_t steps)
{
	size_t k = at;
	for (size_t n = 0; k > 0 && n < steps; n++) {
		k--;
		if (fl_tok_is_closer(t, k)) {
			if (m[k] == FL_NOMATCH || m[k] >= k)
				return FL_NOMATCH;
			k = m[k];
			continue;
		}
		if (fl_tok_is_punct(t, k, "{"))
			return m[k] == FL_NOMATCH || m[k] <= at ? FL_NOMATCH : k;
		if (fl_tok_is_opener(t, k))
			return FL_NOMATCH; /* inside brackets, not a statement */
	}
	return FL_NOMATCH;
}

char *fl_switch_guard(const fl_toks *t, const size_t *m, size_t at)
{
	bool arm;
	char *g = fl_switch_guard_arm(t, m, at, &arm);
	if (arm && strcmp(g, "_") != 0) {
		free(g);
		return NULL;
	}
	return g;
}

char *fl_switch_guard_arm(const fl_toks *t, const size_t *m, size_t at, bool *arm)
{
	*arm = false;
	if (!t || !m || at == 0 || at >= t->n)
		return NULL;
	/* the block around at, back over balanced groups; a case's own
	 * block (`case 'a': {`, Java's `case A -> {`) stands for its
	 * statements in the switch's */
	size_t open = FL_NOMATCH, k = at;
	for (int blocks = 0; blocks < 2; blocks++) {
		open = block_open(t, m, k, 20000);
		if (open == FL_NOMATCH)
			return NULL;
		if (!(open > 0 && (fl_tok_is_punct(t, open - 1, ":") || fl_tok_is_punct(t, open - 1, "->"))))
			break;
		at = open;
		k = open;
	}
	size_t close = m[open];
	/* its switch: `switch (x) {`, Go's `switch x {` or `switch {` */
	size_t sw = open, eb, ee;
	for (size_t n = 0; sw > 0 && n < 48; n++) {
		sw--;
		if (fl_tok_is_closer(t, sw) && m[sw] != FL_NOMATCH && m[sw] < sw) {
			sw = m[sw];
			continue;
		}
		/* (not at a ';': Go's `switch f := x; f {`) */
		if (fl_tok_is_ident(t, sw, "switch") || fl_tok_is_punct(t, sw, "{") ||
		    fl_tok_is_punct(t, sw, "}"))
			break;
	}
	if (!fl_tok_is_ident(t, sw, "switch"))
		return NULL;
	eb = sw + 1;
	ee = open;
	if (fl_tok_is_punct(t, eb, "(") && m[eb] == ee - 1) {
		eb++;
		ee--;
	}
	bool typesw = false;
	for (size_t q = eb; q < ee; q++) {
		if (fl_tok_is_punct(t, q, ";"))
			eb = q + 1; /* Go: switch init; x { */
		/* Go's type switch: `x.(type)` (not a member named type) */
		if (fl_tok_is_ident(t, q, "type") && q > eb + 1 && fl_tok_is_punct(t, q - 1, "(") &&
		    fl_tok_is_punct(t, q - 2, ".") && q + 1 < ee && fl_tok_is_punct(t, q + 1, ")"))
			typesw = true;
	}
	/* the labels: those of at's case, and all of them */
	sw_labels mine = {0}, all = {0}, cur = {0};
	bool after_label = false;
	for (size_t q = open + 1; q < close && q < at;) {
		if (fl_tok_is_ident(t, q, "case") || fl_tok_is_ident(t, q, "default")) {
			if (!after_label)
				memset(&cur, 0, sizeof cur);
			size_t nx = sw_label(t, m, q, close, &cur);
			if (nx == FL_NOMATCH)
				return NULL;
			after_label = true;
			mine = cur;
			q = nx;
			continue;
		}
		after_label = false;
		if (fl_tok_is_opener(t, q) && m[q] != FL_NOMATCH && m[q] > q && m[q] < close)
			q = m[q] + 1;
		else
			q++;
	}
	if (!mine.n && !mine.dflt)
		return NULL;
	if (mine.over)
		return NULL;
	/* a type switch's case matches a type (the arm's pattern: its
	 * types), and its default every other: that arm, "_", as a match's
	 * catch-all */
	if (typesw) {
		if (mine.dflt && !mine.n)
			return fl_xstrdup("_");
		if (mine.dflt)
			return NULL;
		fl_buf b = {0};
		for (size_t v = 0; v < mine.n; v++) {
			char *c = fl_tok_span_text(t, mine.b[v], mine.e[v], 120);
			fl_buf_printf(&b, "%s%s", v ? ", " : "", c);
			free(c);
		}
		*arm = true;
		return fl_buf_cstr(&b) ? b.s : NULL;
	}
	fl_buf b = {0};
	bool tagless = ee <= eb;
	if (!mine.dflt) {
		for (size_t v = 0; v < mine.n; v++) {
			if (v)
				fl_buf_puts(&b, " || ");
			if (tagless) {
				char *c = fl_tok_span_text(t, mine.b[v], mine.e[v], 120);
				fl_buf_puts(&b, c);
				free(c);
				continue;
			}
			sw_operand(t, m, eb, ee, &b);
			fl_buf_puts(&b, " == ");
			sw_operand(t, m, mine.b[v], mine.e[v], &b);
		}
	} else {
		/* the default: none of the switch's labels (more than
		 * SW_MAX: the arm that matched no other, "_") */
		for (size_t q = open + 1; q < close;) {
			if (fl_tok_is_ident(t, q, "case")) {
				size_t nx = sw_label(t, m, q, close, &all);
				if (nx == FL_NOMATCH)
					return NULL;
				if (all.over)
					return fl_xstrdup("_");
				q = nx;
				continue;
			}
			if (fl_tok_is_opener(t, q) && m[q] != FL_NOMATCH && m[q] > q && m[q] < close)
				q = m[q] + 1;
			else
				q++;
		}
		for (size_t v = 0; v < all.n; v++) {
			if (v)
				fl_buf_puts(&b, " && ");
			if (tagless) {
				/* Go's `switch { case c: }`: no c holds */
				char *c = fl_tok_span_text(t, all.b[v], all.e[v], 120);
				char *n = fl_guard_not(c, false);
				fl_buf_puts(&b, n);
				free(n);
				free(c);
				continue;
			}
			sw_operand(t, m, eb, ee, &b);
			fl_buf_puts(&b, " != ");
			sw_operand(t, m, all.b[v], all.e[v], &b);
		}
	}
	if (!b.n) {
		fl_buf_free(&b);
		return NULL;
	}
	fl_buf_cstr(&b);
	return b.s;
}

static bool same_tok(const fl_toks *t, size_t a, size_t b)
{
	return t->v[a].kind == t->v[b].kind && t->v[a].len == t->v[b].len &&
	       memcmp(t->src + t->v[a].off, t->src + t->v[b].off, t->v[a].len) == 0;
}

/* ---- early exits --------------------------------------------------------- */

#define EARLY_MAX 3     /* early exits a guard names, the nearest */
#define EARLY_SPAN 4096 /* tokens of a block read before a site, at most */

/* Token k is `return`, `continue` or `break` */
static bool exit_kw(const fl_toks *t, size_t k)
{
	return fl_tok_is_ident(t, k, "return") || fl_tok_is_ident(t, k, "continue") ||
	       fl_tok_is_ident(t, k, "break");
}

/* The token after the statement that starts with exit keyword k (`return`,
 * `continue`, `break`) when it leaves with nothing to report: no value, or
 * only "nothing" (null, undefined, nil, None; Go's `return nil, nil`), not
 * C's `return 0` or `return false`, which often say it failed.  end bounds
 * it (the body's closing brace, or the block's); FL_NOMATCH when it is no
 * such exit. */
static size_t quiet_exit(const fl_toks *t, size_t k, size_t end)
{
	static const char *const nothing[] = {"null", "undefined", "nil", "None", NULL};
	if (!exit_kw(t, k))
		return FL_NOMATCH;
	bool ret = fl_tok_is_ident(t, k, "return"), want = true;
	size_t q = k + 1;
	for (; q < end; q++) {
		if (fl_tok_is_punct(t, q, ";"))
			return q + 1;
		if (fl_tok_is_punct(t, q, "}") || (t->v[q].flags & FL_TF_NL_BEFORE))
			return q; /* a statement ended by its line or its block */
		if (!want && fl_tok_is_punct(t, q, ",") && ret) {
			want = true;
			continue;
		}
		if (!want || !ret)
			return FL_NOMATCH; /* `break label`, a second value */
		bool lit = false;
		for (const char *const *w = nothing; !lit && *w; w++)
			lit = fl_tok_is_ident(t, q, *w);
		if (!lit)
			return FL_NOMATCH;
		want = false;
	}
	return q;
}

bool fl_reporting_name(const fl_toks *t, size_t r)
{
	static const char *const words[] = {"err", "warn", "fatal", "fail", "die",
					    "panic", "abort", "throw", "raise", NULL};
	for (const char *const *w = words; *w; w++)
		if (fl_tok_contains_ci(t, r, *w))
			return true;
	return false;
}

/* Tokens [a, a+n) and [b, b+n) are the same words */
static bool same_tokens(const fl_toks *t, size_t a, size_t b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!same_tok(t, a + i, b + i))
			return false;
	return true;
}

/* A name of condition [gb, ge) is assigned between it and at (`x = f();`,
 * `x += 1`, `x++`): what the condition said of it may no longer hold. */
static bool reassigned(const fl_toks *t, size_t gb, size_t ge, size_t at)
{
	for (size_t q = ge; q < at; q++) {
		if (!fl_tok_is_kind(t, q, FL_TK_IDENT) || q + 1 >= at)
			continue;
		const fl_tok *nx = &t->v[q + 1];
		if (nx->kind != FL_TK_PUNCT)
			continue;
		const char *o = t->src + nx->off;
		bool assign = (nx->len == 1 && o[0] == '=') || (nx->len == 2 && o[1] == '=' &&
				strchr("+-*/|&%", o[0])) || (nx->len == 2 && (memcmp(o, "++", 2) == 0 ||
				memcmp(o, "--", 2) == 0)) || (nx->len == 2 && memcmp(o, ":=", 2) == 0);
		if (!assign)
			continue;
		for (size_t r = gb; r < ge; r++)
			if (same_tok(t, r, q))
				return true;
	}
	return false;
}

char *fl_early_guard(const fl_toks *t, const size_t *m, size_t at)
{
	if (!t || !m || at == 0 || at >= t->n)
		return NULL;
	size_t open = block_open(t, m, at, EARLY_SPAN);
	if (open == FL_NOMATCH)
		return NULL;
	/* deep in a block of thousands of statements: none read (each site
	 * would read them all again) */
	if (at - open > EARLY_SPAN)
		return NULL;
	/* the block's statements before at's: each `if (c) exit` (or `if c
	 * { ...; exit }`) with no else leaves the block when c holds, so at
	 * runs only where it does not.  A case label starts afresh. */
	size_t cb[EARLY_MAX], ce[EARLY_MAX], n = 0;
	for (size_t q = open + 1; q < at;) {
		if (fl_tok_is_ident(t, q, "case") || fl_tok_is_ident(t, q, "default")) {
			n = 0;
			q++;
			continue;
		}
		/* an if statement (not an else's, not C's `#if`) */
		if (fl_tok_is_ident(t, q, "if") && !fl_tok_is_ident(t, q - 1, "else") &&
		    !fl_tok_is_punct(t, q - 1, "#")) {
			/* its condition: `(c)`, or Go's `c {` (after an init's ';') */
			size_t gb = q + 1, ge, body;
			if (fl_tok_is_punct(t, gb, "(") && m[gb] != FL_NOMATCH && m[gb] > gb &&
			    m[gb] < at && !fl_tok_is_punct(t, m[gb] + 1, ".")) {
				ge = m[gb];
				gb++;
				body = ge + 1;
			} else {
				size_t r = gb;
				while (r < at && !fl_tok_is_punct(t, r, "{")) {
					if (fl_tok_is_punct(t, r, ";"))
						gb = r + 1;
					if (fl_tok_is_opener(t, r) && m[r] != FL_NOMATCH && m[r] > r)
						r = m[r];
					r++;
				}
				ge = body = r;
			}
			size_t after = FL_NOMATCH, bend = body;
			if (fl_tok_is_punct(t, body, "{") && m[body] != FL_NOMATCH && m[body] > body &&
			    m[body] < at) {
				/* its last statement exits, and nothing before
				 * reports an error: `{ console.error(...);
				 * return; }` is another failure, not a way
				 * round this one */
				bend = m[body];
				size_t last = FL_NOMATCH;
				bool reports = false;
				for (size_t r = body + 1; r < bend && !reports; r++)
					reports = fl_tok_is_kind(t, r, FL_TK_IDENT) && fl_reporting_name(t, r);
				for (size_t r = body + 1; r < bend && !reports; r++) {
					if (fl_tok_is_opener(t, r) && m[r] != FL_NOMATCH && m[r] > r &&
					    m[r] < bend) {
						r = m[r];
						continue;
					}
					if (exit_kw(t, r) &&
					    (fl_tok_is_punct(t, r - 1, ";") || fl_tok_is_punct(t, r - 1, "{") ||
					     fl_tok_is_punct(t, r - 1, "}") || (t->v[r].flags & FL_TF_NL_BEFORE)))
						last = r;
				}
				if (last != FL_NOMATCH && quiet_exit(t, last, bend) == bend)
					after = bend + 1;
			} else if (body < at) {
				after = quiet_exit(t, body, at);
			}
			if (after != FL_NOMATCH && after <= at && ge > gb &&
			    !fl_tok_is_ident(t, after, "else")) {
				if (n == EARLY_MAX) {
					memmove(cb, cb + 1, sizeof cb[0] * (EARLY_MAX - 1));
					memmove(ce, ce + 1, sizeof ce[0] * (EARLY_MAX - 1));
					n--;
				}
				cb[n] = gb;
				ce[n++] = ge;
				q = after;
				continue;
			}
		}
		if (fl_tok_is_opener(t, q) && m[q] != FL_NOMATCH && m[q] > q && m[q] < at)
			q = m[q] + 1;
		else
			q++;
	}
	char *g = NULL;
	for (size_t i = 0; i < n; i++) {
		if (reassigned(t, cb[i], ce[i], at))
			continue;
		bool twice = false;
		for (size_t j = i + 1; j < n && !twice; j++)
			twice = ce[j] - cb[j] == ce[i] - cb[i] && same_tokens(t, cb[i], cb[j], ce[i] - cb[i]);
		if (twice)
			continue; /* the nearer one says it */
		char *c = fl_tok_span_text(t, cb[i], ce[i], 200);
		/* `! ISDB (x)`: the operand after its '!' */
		if (c[0] == '!' && c[1] == ' ')
			memmove(c + 1, c + 2, strlen(c + 2) + 1);
		char *neg = fl_guard_not(c, false);
		free(c);
		g = g ? fl_guard_nest(g, neg, false) : neg;
	}
	return g;
}

char *fl_guard_nest(char *outer, char *inner, bool python)
{
	/* a catch-all arm ("_") around a condition: the condition says more */
	if (!outer || !*outer || !inner || !*inner || strlen(outer) > 80 || strcmp(outer, "_") == 0) {
		free(outer);
		if (inner && !*inner) {
			free(inner);
			return NULL;
		}
		return inner;
	}
	/* "(a || b) && c" reads worse than "c" alone: a group among
	 * conditions is quoted whole, and so are more than four
	 * (describe/guard.c) */
	bool oo, io;
	if (guard_terms(outer, python, &oo) + guard_terms(inner, python, &io) > 4 || oo || io) {
		free(outer);
		return inner;
	}
	char *g = fl_xasprintf("%s%s%s", outer, python ? " and " : " && ", inner);
	free(outer);
	free(inner);
	return g;
}

bool fl_scope_is_if(const fl_toks *t, const fl_scope *s, int if_kind)
{
	return s && s->kind == if_kind && s->ge > s->gb &&
	       (s->neg || (s->gb >= 2 && fl_tok_is(t, s->gb - 2, "if")));
}

char *fl_scope_guard_nest(const fl_toks *t, const fl_scope *o, int if_kind, char *g)
{
	if (!g || !*g || !fl_scope_is_if(t, o, if_kind))
		return g;
	return fl_guard_nest(fl_guard_span(t, o->gb, o->ge, o->neg, false), g, false);
}

char *fl_tok_span_text(const fl_toks *t, size_t b, size_t e, size_t max)
{
	if (b >= e || b >= t->n)
		return fl_xstrdup("");
	if (e > t->n)
		e = t->n;
	fl_buf out = {0};
	bool space = false, cut = false;
	/* the tokens' own bytes; what lies between two tokens (blanks, a
	 * comment, a line continuation) is one space */
	for (size_t k = b; k < e && !cut; k++) {
		size_t from = t->v[k].off, to = from + t->v[k].len;
		if (k > b && from > t->v[k - 1].off + t->v[k - 1].len)
			space = true;
		for (size_t p = from; p < to && p < t->srclen; p++) {
			char c = t->src[p];
			if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
				space = true;
				continue;
			}
			if (out.n >= max) {
				fl_buf_puts(&out, "...");
				cut = true;
				break;
			}
			if (space && out.n)
				fl_buf_putc(&out, ' ');
			space = false;
			fl_buf_putc(&out, c);
		}
	}
	fl_buf_cstr(&out);
	return out.s;
}

/* ---- messages ------------------------------------------------------------ */

static bool is_in(const fl_toks *t, size_t i, const char *const *list)
{
	if (!list)
		return false;
	for (; *list; list++)
		if (fl_tok_is(t, i, *list))
			return true;
	return false;
}

void fl_msg_put_macro(fl_buf *out, const char *name, size_t len)
{
	/* "%" PRIu64, "%" CURL_FORMAT_CURL_OFF_T, "%" G_GINT64_FORMAT: a
	 * macro right after an unpaired '%' completes the conversion (a
	 * literal '%' is written "%%"), so the placeholder replaces the "%"
	 * and its flags */
	{
		size_t p = out->n;
		while (p > 0 && strchr("-+ #0123456789.*'", out->s[p - 1]))
			p--;
		if (p > 0 && out->s[p - 1] == '%' && !(p > 1 && out->s[p - 2] == '%'))
			out->n = p - 1;
	}
	fl_buf_putc(out, '{');
	fl_buf_put(out, name, len);
	fl_buf_putc(out, '}');
}

void fl_msg_undouble(char *s, const char *chars)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		*w++ = *r;
		if (r[1] == r[0] && strchr(chars, r[0]))
			r++;
	}
	*w = '\0';
}

/* Does the statement at k run whenever the use at `at` does: is the block
 * holding k (its innermost `{` after from) still open at `at`? */
static bool dominates(const fl_toks *t, const size_t *match, size_t from, size_t k,
		      size_t at)
{
	int depth = 0;
	for (size_t p = k; p-- > from;) {
		if (fl_tok_is_punct(t, p, "}")) {
			depth++;
		} else if (fl_tok_is_punct(t, p, "{")) {
			if (depth == 0)
				return match[p] != FL_NOMATCH && match[p] > at;
			depth--;
		}
	}
	return true;
}

/* Is the statement at k in a block closed before `at` that it leaves by
 * a `throw` or `return` at its own level after k (the assignment never
 * reaches the use)? */
static bool left_before(const fl_toks *t, const size_t *match, size_t from, size_t k,
			size_t at)
{
	int depth = 0;
	size_t ob = FL_NOMATCH;
	for (size_t p = k; p-- > from;) {
		if (fl_tok_is_punct(t, p, "}")) {
			depth++;
		} else if (fl_tok_is_punct(t, p, "{")) {
			if (depth == 0) {
				ob = p;
				break;
			}
			depth--;
		}
	}
	if (ob == FL_NOMATCH || match[ob] == FL_NOMATCH || match[ob] > at)
		return false;
	for (size_t p = k + 1; p < match[ob]; p++) {
		if (fl_tok_is_opener(t, p) && match[p] != FL_NOMATCH && match[p] < match[ob]) {
			p = match[p];
			continue;
		}
		if ((fl_tok_is_ident(t, p, "throw") || fl_tok_is_ident(t, p, "return")) &&
		    (fl_tok_is_punct(t, p - 1, ";") || fl_tok_is_punct(t, p - 1, "}")))
			return true;
	}
	return false;
}

/* fl_var_msg and fl_var_msgs: the values of var's assignments that reach
 * `at` in *vals (distinct, at most max); false when one is no message or
 * var has another binding.  leave: an assignment in a block left before
 * `at` (left_before) does not count. */
static bool var_vals(const fl_toks *t, const size_t *match, size_t from, size_t at,
		     size_t var, const char *const *decl,
		     size_t (*msgs)(const void *ud, size_t b, size_t e, fl_strv *out),
		     const void *ud, bool leave, size_t max, fl_strv *vals)
{
	if (at > t->n || var >= t->n || from >= at || at - from > 20000)
		return false;
	/* top-level code has no parameter list */
	bool bad = false, body = from == 0, param = false;
	for (size_t k = from; k < at && !param; k++) {
		if (fl_tok_is_punct(t, k, "{"))
			body = true;
		/* (...) and [...] before at: expressions, not statements */
		if ((fl_tok_is_punct(t, k, "(") || fl_tok_is_punct(t, k, "[")) &&
		    match[k] != FL_NOMATCH && match[k] < at && body) {
			/* a use inside: fine; a binding like list($v) or
			 * foreach (... as $v) is caught below by `as` */
			size_t e = match[k];
			for (size_t q = k + 1; q < e; q++)
				if (same_tok(t, q, var) && q > 0 &&
				    (fl_tok_is_ident(t, q - 1, "as") ||
				     fl_tok_is_punct(t, q - 1, "&") ||
				     (q + 1 < t->n && fl_tok_is_punct(t, q + 1, "=") &&
				      !fl_tok_is_punct(t, q - 1, ".") &&
				      !fl_tok_is_punct(t, q - 1, "->"))))
					bad = true;
			k = e;
			continue;
		}
		if (!same_tok(t, k, var))
			continue;
		if (!body) {
			param = bad = true; /* a parameter of the function */
			break;
		}
		size_t p = k; /* the statement's start, before const/let/var */
		while (p > from + 1 && is_in(t, p - 1, decl))
			p--;
		bool stmt = p == 0 || fl_tok_is_punct(t, p - 1, ";") ||
			    fl_tok_is_punct(t, p - 1, "{") || fl_tok_is_punct(t, p - 1, "}") ||
			    /* a new line after a complete operand (no semicolons) */
			    ((t->v[p].flags & FL_TF_NL_BEFORE) &&
			     (t->v[p - 1].kind != FL_TK_PUNCT || fl_tok_is_punct(t, p - 1, ")") ||
			      fl_tok_is_punct(t, p - 1, "]")));
		if (k > 0 && (fl_tok_is_ident(t, k - 1, "as") || fl_tok_is_punct(t, k - 1, "&")))
			bad = true;
		if (k + 1 >= at)
			continue;
		if (!stmt) {
			/* assigned inside an expression (a = v = f()) */
			if (fl_tok_is_punct(t, k + 1, "=") && !fl_tok_is_punct(t, k - 1, ".") &&
			    !fl_tok_is_punct(t, k - 1, "->"))
				bad = true;
			continue;
		}
		if (fl_tok_is_punct(t, k + 1, ".=") || fl_tok_is_punct(t, k + 1, "+="))
			continue; /* appended to: the message goes on */
		if (!fl_tok_is_punct(t, k + 1, "=")) {
			/* ++, -=, ... : not a message any more */
			if (t->v[k + 1].kind == FL_TK_PUNCT && t->v[k + 1].len >= 2 &&
			    t->src[t->v[k + 1].off + t->v[k + 1].len - 1] == '=' &&
			    !fl_tok_is_punct(t, k + 1, "==") && !fl_tok_is_punct(t, k + 1, "===") &&
			    !fl_tok_is_punct(t, k + 1, "!=") && !fl_tok_is_punct(t, k + 1, "!=="))
				bad = true;
			if (fl_tok_is_punct(t, k + 1, "++") || fl_tok_is_punct(t, k + 1, "--"))
				bad = true;
			continue;
		}
		/* the expression: up to `;` (or a line break after a complete
		 * operand) outside brackets */
		size_t b = k + 2, e = b;
		while (e < at) {
			if (fl_tok_is_punct(t, e, ";") || fl_tok_is_punct(t, e, "}"))
				break;
			if (e > b && (t->v[e].flags & FL_TF_NL_BEFORE) &&
			    t->v[e - 1].kind != FL_TK_PUNCT && t->v[e].kind != FL_TK_PUNCT)
				break;
			if (fl_tok_is_opener(t, e)) {
				if (match[e] == FL_NOMATCH || match[e] >= at)
					break;
				e = match[e] + 1;
				continue;
			}
			e++;
		}
		/* an assignment in the use's own block (or one holding it)
		 * replaces whatever the variable held before: `$m = 'a'; if (x)
		 * { $m = 'b'; } $m = 'c'; throw new X($m);` throws 'c' */
		bool braceless = p > 0 && (fl_tok_is_punct(t, p - 1, ")") ||
					   fl_tok_is_ident(t, p - 1, "else"));
		if ((vals->n || bad) && !braceless && dominates(t, match, from, k, at)) {
			fl_strv_free(vals);
			bad = false;
		}
		if (leave && left_before(t, match, from, k, at)) {
			k = e - 1;
			continue;
		}
		fl_strv got = {0};
		if (e <= b || !msgs(ud, b, e, &got))
			bad = true;
		for (size_t g = 0; g < got.n; g++) {
			bool dup = false;
			for (size_t q = 0; q < vals->n && !dup; q++)
				dup = strcmp(vals->v[q], got.v[g]) == 0;
			if (dup)
				continue;
			if (vals->n >= max)
				bad = true; /* too many to tell */
			else
				fl_strv_push(vals, got.v[g]);
		}
		fl_strv_free(&got);
		k = e - 1;
	}
	if (bad)
		fl_strv_free(vals);
	return !bad && vals->n;
}

struct one_msg {
	char *(*msg)(const void *ud, size_t b, size_t e);
	const void *ud;
};

static size_t one_msg_vals(const void *ud, size_t b, size_t e, fl_strv *out)
{
	const struct one_msg *o = ud;
	char *m = o->msg(o->ud, b, e);
	if (!m)
		return 0;
	fl_strv_push(out, m);
	free(m);
	return 1;
}

char *fl_var_msg(const fl_toks *t, const size_t *match, size_t from, size_t at,
		 size_t var, const char *const *decl,
		 char *(*msg)(const void *ud, size_t b, size_t e), const void *ud)
{
	struct one_msg o = {msg, ud};
	fl_strv vals = {0};
	char *r = NULL;
	/* several messages: which one is unknown */
	if (var_vals(t, match, from, at, var, decl, one_msg_vals, &o, false, 2, &vals) &&
	    vals.n == 1)
		r = fl_xstrdup(vals.v[0]);
	fl_strv_free(&vals);
	return r;
}

size_t fl_var_msgs(const fl_toks *t, const size_t *match, size_t from, size_t at, size_t var,
		   const char *const *decl,
		   size_t (*msgs)(const void *ud, size_t b, size_t e, fl_strv *out),
		   const void *ud, size_t max, fl_strv *out)
{
	fl_strv vals = {0};
	size_t n = 0;
	if (var_vals(t, match, from, at, var, decl, msgs, ud, true, max, &vals))
		for (; n < vals.n; n++)
			fl_strv_push(out, vals.v[n]);
	fl_strv_free(&vals);
	return n;
}

char *fl_var_arg_msg(const fl_toks *t, const size_t *match, size_t fn,
		     const size_t *st, const size_t *en, size_t na,
		     const char *const *decl,
		     char *(*msg)(const void *ud, size_t b, size_t e), const void *ud)
{
	if (!fn)
		return NULL;
	for (size_t k = 0; k < na; k++) {
		size_t a = st[k];
		if (en[k] - a != 1 || t->v[a].kind != FL_TK_IDENT ||
		    fl_tok_is(t, a, "this") || fl_tok_is(t, a, "null") ||
		    (t->src[t->v[a].off] >= 'A' && t->src[t->v[a].off] <= 'Z'))
			continue;
		char *m = fl_var_msg(t, match, fn, a, a, decl, msg, ud);
		if (m && *m)
			return m;
		free(m);
	}
	return NULL;
}

char *fl_cond_template(const fl_toks *t, size_t cb, size_t ce, char *const *params, size_t np,
		       const char *const *words)
{
	if (ce <= cb || ce - cb > 40)
		return NULL;
	fl_buf b = {0};
	bool any = false;
	for (size_t k = cb; k < ce; k++) {
		if (k > cb && t->v[k].off > t->v[k - 1].off + t->v[k - 1].len)
			fl_buf_putc(&b, ' ');
		bool member = k > 0 && fl_tok_is_punct(t, k - 1, ".");
		size_t q = np;
		if (!member && t->v[k].kind == FL_TK_IDENT)
			for (q = 0; q < np; q++)
				if (strlen(params[q]) == t->v[k].len &&
				    memcmp(params[q], t->src + t->v[k].off, t->v[k].len) == 0)
					break;
		if (q < np) {
			fl_buf_printf(&b, "{%s}", params[q]);
			any = true;
			continue;
		}
		bool word = false;
		for (size_t w = 0; words && words[w] && !word; w++)
			word = fl_tok_is_ident(t, k, words[w]);
		if ((t->v[k].kind == FL_TK_IDENT && !member && !word && !fl_tok_is_punct(t, k + 1, "(")) ||
		    fl_tok_is_punct(t, k, "{") || fl_tok_is_punct(t, k, "}")) {
			fl_buf_free(&b);
			return NULL;
		}
		fl_buf_put(&b, t->src + t->v[k].off, t->v[k].len);
	}
	if (!any) {
		fl_buf_free(&b);
		return NULL;
	}
	fl_buf_cstr(&b);
	return b.s;
}

char *fl_msg_subst(const char *msg, const char *const *names,
		   const char *const *values, size_t n)
{
	fl_buf out = {0};
	for (const char *p = msg; *p;) {
		if (*p == '{') {
			const char *e = strchr(p + 1, '}');
			size_t k = n;
			if (e)
				for (k = 0; k < n; k++)
					if (values[k] && strlen(names[k]) == (size_t)(e - p - 1) &&
					    memcmp(names[k], p + 1, (size_t)(e - p - 1)) == 0)
						break;
			if (k < n) {
				/* a template hole ${name} goes whole */
				if (out.n && out.s[out.n - 1] == '$')
					out.n--;
				fl_buf_puts(&out, values[k]);
				p = e + 1;
				continue;
			}
		}
		fl_buf_putc(&out, *p++);
	}
	fl_buf_cstr(&out);
	return out.s;
}

static uint32_t fac_hash(const char *name, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	return h;
}

static void fac_link(fl_factories *fs, size_t i)
{
	uint32_t b = fac_hash(fs->v[i].name, fs->v[i].nlen) & (uint32_t)(fs->nb - 1);
	fs->next[i] = fs->head[b];
	fs->head[b] = (uint32_t)i + 1;
}

void fl_factories_add(fl_factories *fs, const fl_factory *f)
{
	if ((fs->n & (fs->n - 1)) == 0) { /* 0, 1, 2, 4 ...: the next doubling */
		size_t cap = fs->n ? fs->n * 2 : 1;
		fs->v = fl_xrealloc(fs->v, cap * sizeof *fs->v);
		fs->next = fl_xrealloc(fs->next, cap * sizeof *fs->next);
	}
	size_t i = fs->n++;
	fs->v[i] = *f;
	fs->v[i].nlen = strlen(f->name);
	if (fs->n * 2 > fs->nb) {
		/* a new table, four buckets a factory */
		free(fs->head);
		fs->nb = 16;
		while (fs->nb < fs->n * 4)
			fs->nb *= 2;
		fs->head = fl_xcalloc(fs->nb, sizeof *fs->head);
		for (size_t k = 0; k < fs->n; k++)
			fac_link(fs, k);
	} else {
		fac_link(fs, i);
	}
}

const fl_factory *fl_factories_find(const fl_factories *fs, const char *name,
				    size_t len, size_t nargs)
{
	return fl_factories_find_own(fs, name, len, nargs, false);
}

/* A factory's text with its parameters by position ("\x01" and the
 * index), so that two written on other names compare; NULL stays NULL. */
static char *fac_positional(const fl_factory *f, const char *text)
{
	if (!text)
		return NULL;
	char pos[FL_FAC_PARAMS][3];
	const char *vals[FL_FAC_PARAMS];
	for (size_t k = 0; k < f->np && k < FL_FAC_PARAMS; k++) {
		pos[k][0] = '\x01';
		pos[k][1] = (char)('0' + k);
		pos[k][2] = '\0';
		vals[k] = pos[k];
	}
	return fl_msg_subst(text, (const char *const *)f->param, vals, f->np);
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether factories a and b of one name build the same text on the same
 * arguments (their parameters perhaps named otherwise): the same arities,
 * mark, message and condition by position. */
static bool fac_alike(const fl_factory *a, const fl_factory *b)
{
	if (a->np != b->np || a->nreq != b->nreq || a->tag != b->tag || !a->msg != !b->msg ||
	    !a->cond != !b->cond || a->varargs != b->varargs)
		return false;
	char *ma = fac_positional(a, a->msg), *mb = fac_positional(b, b->msg);
	char *ca = fac_positional(a, a->cond), *cb = fac_positional(b, b->cond);
	bool same = same_text(ma, mb) && same_text(ca, cb) &&
		    (a->msg ? ma != NULL : true) && (a->cond ? ca != NULL : true);
	free(ma);
	free(mb);
	free(ca);
	free(cb);
	return same;
}

const fl_factory *fl_factories_find_own(const fl_factories *fs, const char *name,
					size_t len, size_t nargs, bool own)
{
	return fl_factories_find_fit(fs, name, len, nargs, own, NULL, NULL);
}

const fl_factory *fl_factories_find_fit(const fl_factories *fs, const char *name, size_t len,
					size_t nargs, bool own,
					bool (*fits)(const fl_factory *f, const void *ud), const void *ud)
{
	if (!fs->n)
		return NULL;
	const fl_factory *hit = NULL, *hits[8];
	size_t nh = 0;
	uint32_t b = fac_hash(name, len) & (uint32_t)(fs->nb - 1);
	for (uint32_t k = fs->head[b]; k; k = fs->next[k - 1]) {
		const fl_factory *f = &fs->v[k - 1];
		if (f->nlen != len || nargs < f->nreq || (nargs > f->np && !f->varargs) ||
		    memcmp(f->name, name, len) != 0 || (own && !f->msg))
			continue;
		if (nh == 8)
			return NULL;
		hits[nh++] = f;
	}
	if (!nh)
		return NULL;
	/* those the call's arguments fit, when some do
	 * (`reportMappingProblem(e, "... failed: %s", msg)` is the
	 * (Throwable t, String message, Object... args) one) */
	size_t nfit = 0;
	for (size_t k = 0; fits && nh > 1 && k < nh; k++)
		nfit += fits(hits[k], ud);
	if (nfit && nfit < nh) {
		size_t w = 0;
		for (size_t k = 0; k < nh; k++)
			if (fits(hits[k], ud))
				hits[w++] = hits[k];
		nh = w;
	}
	/* then a declaration whose parameters take the arguments one for
	 * one before one that takes them into its varargs */
	size_t exact = 0;
	for (size_t k = 0; k < nh; k++)
		exact += nargs <= hits[k]->np;
	if (exact && exact < nh) {
		size_t w = 0;
		for (size_t k = 0; k < nh; k++)
			if (nargs <= hits[k]->np)
				hits[w++] = hits[k];
		nh = w;
	}
	hit = hits[0];
	if (nh > 1) {
		/* one name declared more than once (two base classes'
		 * `_reportError(String msg)`): a hit only when all build the
		 * same text, and of one class, or of none where one's is not
		 * known (whatever the order the tree was filled in) */
		bool one_cls = true;
		const fl_factory *nocls = hits[0]->cls ? NULL : hits[0];
		for (size_t k = 1; k < nh; k++) {
			if (!fac_alike(hits[0], hits[k]))
				return NULL;
			one_cls &= same_text(hits[0]->cls, hits[k]->cls);
			if (!hits[k]->cls && !nocls)
				nocls = hits[k];
		}
		hit = one_cls ? hits[0] : nocls;
	}
	return hit && hit->msg ? hit : NULL;
}

void fl_factory_clear(fl_factory *f)
{
	for (size_t k = 0; k < f->np; k++)
		free(f->param[k]);
	free(f->name);
	free(f->msg);
	free(f->cls);
	free(f->cond);
	memset(f, 0, sizeof *f);
}

void fl_factories_free(fl_factories *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		fl_factory_clear(&fs->v[i]);
	free(fs->v);
	free(fs->head);
	free(fs->next);
	memset(fs, 0, sizeof *fs);
}

size_t fl_fac_body_ctor(const fl_toks *t, const size_t *match, size_t body,
			bool expr_body,
			size_t (*ctor)(const void *ud, size_t at, size_t *cls),
			const void *ud, size_t *cls)
{
	if (expr_body)
		return ctor(ud, body, cls);
	size_t end = match[body], open = FL_NOMATCH, found = 0;
	if (end == FL_NOMATCH || end <= body || end > t->n)
		return FL_NOMATCH;
	for (size_t j = body + 1; j < end && found < 2; j++) {
		if (!fl_tok_is_ident(t, j, "return") && !fl_tok_is_ident(t, j, "throw"))
			continue;
		size_t k;
		size_t o = ctor(ud, j + 1, &k);
		if (o != FL_NOMATCH) {
			*cls = k;
			open = o;
			found++;
		}
	}
	return found == 1 ? open : FL_NOMATCH;
}

void *fl_factories_tree_new(void)
{
	return fl_xcalloc(1, sizeof(fl_factories));
}

void fl_factories_tree_free(void *tree)
{
	if (!tree)
		return;
	fl_factories_free(tree);
	free(tree);
}

void fl_factories_tree_merge(void *tree, void *part)
{
	fl_factories *fs = tree, *p = part;
	for (size_t i = 0; i < p->n; i++)
		fl_factories_add(fs, &p->v[i]);
	free(p->v);
	free(p->head);
	free(p->next);
	p->v = NULL;
	p->head = p->next = NULL;
	p->n = p->nb = 0;
}

char *fl_factory_compose(const fl_factory *f, const size_t *st, const size_t *en,
			 size_t na, char *(*argmsg)(const void *ud, size_t b, size_t e),
			 const void *ud)
{
	char *vals[FL_FAC_PARAMS] = {0};
	for (size_t k = 0; k < na && k < FL_FAC_PARAMS; k++)
		vals[k] = argmsg(ud, st[k], en[k]);
	char *m = fl_msg_subst(f->msg, (const char *const *)f->param,
			       (const char *const *)vals, f->np);
	for (size_t k = 0; k < na && k < FL_FAC_PARAMS; k++)
		free(vals[k]);
	return m;
}

void *fl_classdefs_new(void)
{
	fl_classdefs *d = fl_xcalloc(1, sizeof *d);
	d->idx = fl_xcalloc(1, sizeof *d->idx);
	return d;
}

void fl_classdefs_free(void *defs)
{
	fl_classdefs *d = defs;
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->msg[i]);
		free(d->code[i]);
		free(d->params[i]);
	}
	free(d->msg);
	free(d->code);
	free(d->status);
	free(d->params);
	fl_strmap_free(d->idx);
	free(d->idx);
	free(d);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

void fl_classdefs_add_params(fl_classdefs *d, const char *name, char *msg, char *code,
			     int status, char *params)
{
	size_t k;
	if (fl_strmap_get(d->idx, name, &k)) {
		if (!same_str(d->msg[k], msg) || !same_str(d->code[k], code)) {
			free(d->msg[k]);
			free(d->code[k]);
			d->msg[k] = d->code[k] = NULL;
			d->status[k] = 0;
		}
		if (!same_str(d->params[k], params)) {
			free(d->params[k]);
			d->params[k] = NULL;
		}
		free(msg);
		free(code);
		free(params);
		return;
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 64;
		d->msg = fl_xrealloc(d->msg, d->cap * sizeof *d->msg);
		d->code = fl_xrealloc(d->code, d->cap * sizeof *d->code);
		d->status = fl_xrealloc(d->status, d->cap * sizeof *d->status);
		d->params = fl_xrealloc(d->params, d->cap * sizeof *d->params);
	}
	d->msg[d->n] = msg;
	d->code[d->n] = code;
	d->status[d->n] = status;
	d->params[d->n] = params;
	fl_strmap_put(d->idx, name, d->n++);
}

void fl_classdefs_add(fl_classdefs *d, const char *name, char *msg, char *code,
		      int status)
{
	fl_classdefs_add_params(d, name, msg, code, status, NULL);
}

void fl_classdefs_merge(void *defs, void *part)
{
	fl_classdefs *d = defs, *p = part;
	for (size_t c = 0; c < p->idx->cap; c++) {
		if (!p->idx->keys[c])
			continue;
		size_t k = p->idx->vals[c];
		fl_classdefs_add_params(d, p->idx->keys[c], p->msg[k], p->code[k], p->status[k],
					p->params[k]);
		p->msg[k] = p->code[k] = p->params[k] = NULL;
	}
}

const char *fl_classdefs_params(const fl_classdefs *d, const char *name)
{
	size_t k;
	if (!d || !name || !fl_strmap_get(d->idx, name, &k) || !d->msg[k])
		return NULL;
	return d->params[k];
}

bool fl_classdefs_find(const fl_classdefs *d, const char *name, const char **msg,
		       const char **code, int *status)
{
	size_t k;
	if (!d || !name || !fl_strmap_get(d->idx, name, &k) || (!d->msg[k] && !d->code[k]))
		return false;
	*msg = d->msg[k];
	*code = d->code[k];
	*status = d->status[k];
	return true;
}

static bool error_suffix(const char *s, size_t n)
{
	static const char *const suf[] = {"Error", "Exception", "Throwable", "Fault", NULL};
	for (const char *const *x = suf; *x; x++) {
		size_t l = strlen(*x);
		if (n >= l && memcmp(s + n - l, *x, l) == 0)
			return true;
	}
	return false;
}

static bool ident_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c >= 0x80;
}

bool fl_may_declare_error_class(const char *s, size_t n)
{
	static const char *const kw[] = {"class", "extends", NULL};
	for (const char *const *k = kw; *k; k++) {
		size_t l = strlen(*k);
		/* memmem from hit to hit: "class" starts with a letter as
		 * common as c */
		for (const char *q = s; (q = fl_memmem(q, n - (size_t)(q - s), *k, l)); q++) {
			size_t i = (size_t)(q - s);
			if (i > 0 && ident_byte((unsigned char)s[i - 1]))
				continue;
			size_t p = i + l;
			if (p >= n || ident_byte((unsigned char)s[p]))
				continue;
			/* the name after it; anything unusual between: maybe */
			while (p < n && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r'))
				p++;
			if (p < n && s[p] == '/')
				return true; /* a comment in between */
			size_t b = p;
			while (p < n && ident_byte((unsigned char)s[p]))
				p++;
			/* a qualified base: take its last part */
			while (p + 1 < n && s[p] == '.' && ident_byte((unsigned char)s[p + 1])) {
				b = ++p;
				while (p < n && ident_byte((unsigned char)s[p]))
					p++;
			}
			if (error_suffix(s + b, p - b))
				return true;
		}
	}
	return false;
}

char *fl_msg_params(const fl_toks *t, const size_t *match, size_t b, size_t e,
		    const char *const *ops, char *const *params, size_t np)
{
	fl_buf out = {0};
	bool param = false;
	size_t start = b;
	for (size_t k = b; k <= e && e <= t->n; k++) {
		if (k < e && !(t->v[k].kind == FL_TK_PUNCT && is_in(t, k, ops))) {
			if (match[k] != FL_NOMATCH && match[k] > k && match[k] < e)
				k = match[k];
			continue;
		}
		/* operand [start, k): {its last identifier outside brackets} */
		size_t last = FL_NOMATCH;
		for (size_t q = start; q < k; q++) {
			if (t->v[q].kind == FL_TK_IDENT)
				last = q;
			if (match[q] != FL_NOMATCH && match[q] > q && match[q] < k)
				q = match[q];
		}
		bool lone = k - start == 1;
		start = k + 1;
		if (last == FL_NOMATCH)
			continue; /* a number: nothing to show */
		for (size_t p = 0; p < np && lone; p++)
			if (t->v[last].len == strlen(params[p]) &&
			    memcmp(t->src + t->v[last].off, params[p], t->v[last].len) == 0)
				param = true;
		fl_buf_putc(&out, '{');
		fl_buf_put(&out, t->src + t->v[last].off, t->v[last].len);
		fl_buf_putc(&out, '}');
	}
	if (!param) {
		fl_buf_free(&out);
		return NULL;
	}
	fl_buf_cstr(&out);
	return out.s;
}

void fl_buf_squeeze_hole(fl_buf *b, size_t from)
{
	size_t w = from;
	for (size_t r = from; r < b->n;) {
		char c = b->s[r];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			size_t e = r;
			bool nl = false;
			while (e < b->n && (b->s[e] == ' ' || b->s[e] == '\t' ||
					    b->s[e] == '\r' || b->s[e] == '\n'))
				nl |= b->s[e++] == '\n';
			if (nl) {
				b->s[w++] = ' ';
			} else {
				memmove(b->s + w, b->s + r, e - r);
				w += e - r;
			}
			r = e;
			continue;
		}
		b->s[w++] = c;
		r++;
	}
	b->n = w;
}

int fl_msg_plain_letters(const char *m)
{
	int n = 0, depth = 0;
	for (const char *p = m; *p; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}' && depth)
			depth--;
		else if (!depth && *p == '%' && p[1]) {
			p++;
			if (*p == '(') /* %(name)s */
				while (p[1] && *p != ')')
					p++;
			while (p[1] && strchr("-+ #0123456789.*lhzjtqL)", *p))
				p++;
		} else if (!depth && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				      (unsigned char)*p >= 0x80))
			n++;
	}
	return n;
}

void fl_msg_trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* An operand [b, e): a literal (possibly wrapped in a translation call), or
 * an expression that becomes {name}.  Returns true if it was a literal. */
static char *msg_expr(const fl_toks *t, size_t b, size_t e,
		      const fl_msg_opts *o);

static bool msg_operand(const fl_toks *t, size_t b, size_t e,
			const fl_msg_opts *o, fl_buf *out)
{
	if (b >= e)
		return false;
	/* parenthesised operand: look inside */
	if (fl_tok_is_punct(t, b, "(") && fl_tok_match(t, b) == e - 1) {
		char *inner = msg_expr(t, b + 1, e - 1, o);
		if (inner) {
			fl_buf_puts(out, inner);
			free(inner);
			return true;
		}
	}
	/* wrapper( literal ) */
	if (e - b >= 3 && t->v[b].kind == FL_TK_IDENT && is_in(t, b, o->wrappers) &&
	    fl_tok_is_punct(t, b + 1, "(") && fl_tok_match(t, b + 1) == e - 1) {
		size_t s[2], en[2], close;
		size_t na = fl_tok_args(t, b + 1, s, en, 2, &close);
		if (na >= 1) {
			char *inner = msg_expr(t, s[0], en[0], o);
			if (inner) {
				fl_buf_puts(out, inner);
				free(inner);
				return true;
			}
		}
	}
	/* run of adjacent literals (with macros between them, for C) */
	bool all_lit = true, any_lit = false;
	for (size_t k = b; k < e; k++) {
		if (t->v[k].kind == FL_TK_STRING) {
			any_lit = true;
			continue;
		}
		if (o->macro_between_literals && t->v[k].kind == FL_TK_IDENT)
			continue;
		all_lit = false;
		break;
	}
	if (any_lit && all_lit && (o->adjacent_join || e - b == 1)) {
		for (size_t k = b; k < e; k++) {
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
	if (o->operand_text) {
		char *x = o->operand_text(o->ud, b, e);
		if (x) {
			fl_buf_puts(out, x);
			free(x);
			return true;
		}
	}
	/* expression: {last identifier at depth 0, else any} */
	size_t last = (size_t)-1, last_any = (size_t)-1;
	int depth = 0;
	for (size_t k = b; k < e; k++) {
		const fl_tok *tk = &t->v[k];
		if (tk->kind == FL_TK_PUNCT && tk->len == 1) {
			char c = t->src[tk->off];
			if (c == '(' || c == '[' || c == '{')
				depth++;
			else if (c == ')' || c == ']' || c == '}')
				depth--;
		}
		if (tk->kind == FL_TK_IDENT) {
			last_any = k;
			if (depth == 0)
				last = k;
		}
	}
	if (last == (size_t)-1)
		last = last_any;
	fl_buf_putc(out, '{');
	if (last != (size_t)-1) {
		const fl_tok *tk = &t->v[last];
		const char *s = t->src + tk->off;
		size_t l = tk->len;
		/* PHP/Perl/shell variables: drop the sigil */
		while (l > 1 && (*s == '$' || *s == '@')) {
			s++;
			l--;
		}
		fl_buf_put(out, s, l);
	}
	fl_buf_putc(out, '}');
	return false;
}

static __thread int msg_depth;

/* the message of [b, e), untrimmed (operands keep their spaces) */
static char *msg_expr_body(const fl_toks *t, size_t b, size_t e,
			   const fl_msg_opts *o);

static char *msg_expr(const fl_toks *t, size_t b, size_t e,
		      const fl_msg_opts *o)
{
	/* deeply nested parentheses: give up rather than recurse on */
	if (msg_depth >= 48)
		return NULL;
	msg_depth++;
	char *r = msg_expr_body(t, b, e, o);
	msg_depth--;
	return r;
}

static char *msg_expr_body(const fl_toks *t, size_t b, size_t e,
			   const fl_msg_opts *o)
{
	static const fl_msg_opts none = {0};
	if (!o)
		o = &none;
	if (e > t->n)
		e = t->n;
	if (b >= e)
		return NULL;
	fl_buf out = {0};
	bool any = false;
	size_t start = b;
	int depth = 0;
	for (size_t k = b; k <= e; k++) {
		bool split = (k == e);
		if (!split) {
			const fl_tok *tk = &t->v[k];
			if (tk->kind == FL_TK_PUNCT && tk->len == 1) {
				char c = t->src[tk->off];
				if (c == '(' || c == '[' || c == '{')
					depth++;
				else if (c == ')' || c == ']' || c == '}')
					depth--;
			}
			if (depth == 0 && tk->kind == FL_TK_PUNCT &&
			    is_in(t, k, o->concat_ops))
				split = true;
		}
		if (split) {
			if (k > start && msg_operand(t, start, k, o, &out))
				any = true;
			start = k + 1;
		}
	}
	if (!any) {
		fl_buf_free(&out);
		return NULL;
	}
	fl_buf_cstr(&out);
	return out.s;
}

char *fl_msg_from_expr(const fl_toks *t, size_t b, size_t e,
		       const fl_msg_opts *o)
{
	char *s = msg_expr(t, b, e, o);
	if (s)
		fl_msg_trim(s);
	return s;
}

char *fl_msg_guarded(const fl_toks *t, size_t b, size_t e,
		     const fl_msg_opts *o, size_t max_toks, int max_depth,
		     bool balanced)
{
	if (b >= e || e > t->n || e - b > max_toks)
		return NULL;
	int maxd;
	bool ok = fl_tok_nesting(t, b, e, &maxd);
	if ((balanced && !ok) || maxd > max_depth)
		return NULL;
	return fl_msg_from_expr(t, b, e, o);
}

/* ---- rule helpers -------------------------------------------------------- */

fl_scope *fl_scopes_push(fl_scopes *s, int kind)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = fl_xrealloc(s->v, s->cap * sizeof *s->v);
	}
	fl_scope *p = fl_scopes_top(s);
	fl_scope *n = &s->v[s->n++];
	memset(n, 0, sizeof *n);
	n->kind = (uint8_t)kind;
	n->fn = p ? p->fn : -1;
	n->cls = p ? p->cls : -1;
	n->gtext = -1;
	n->fn_at = p ? p->fn_at : 0;
	return n;
}

int32_t fl_scopes_add_name(fl_scopes *s, const char *cls, const char *name,
			   size_t n)
{
	int32_t off = (int32_t)s->names.n;
	if (cls) {
		/* cls may point into names: copy before the buffer grows */
		char tmp[128];
		size_t l = strlen(cls);
		if (l > 120)
			l = 120;
		memcpy(tmp, cls, l);
		fl_buf_put(&s->names, tmp, l);
		fl_buf_putc(&s->names, '.');
	}
	fl_buf_put(&s->names, name, n > 256 ? 256 : n);
	fl_buf_putc(&s->names, '\0');
	return off;
}

void fl_scopes_free(fl_scopes *s)
{
	free(s->v);
	fl_buf_free(&s->names);
	memset(s, 0, sizeof *s);
}

int fl_http_status_by_name(const char *s, size_t n)
{
	static const struct {
		const char *k;
		int v;
	} tab[] = {
		{"badrequest", 400}, {"unauthorized", 401},
		{"paymentrequired", 402}, {"forbidden", 403},
		{"notfound", 404}, {"methodnotallowed", 405},
		{"notacceptable", 406}, {"requesttimeout", 408},
		{"proxyauthenticationrequired", 407},
		{"conflict", 409}, {"gone", 410}, {"lengthrequired", 411},
		{"preconditionfailed", 412}, {"payloadtoolarge", 413},
		{"requestentitytoolarge", 413}, {"contenttoolarge", 413},
		{"uritoolong", 414}, {"unsupportedmediatype", 415},
		{"rangenotsatisfiable", 416}, {"expectationfailed", 417},
		{"iamateapot", 418}, {"unprocessableentity", 422},
		{"unprocessablecontent", 422}, {"locked", 423},
		{"faileddependency", 424}, {"preconditionrequired", 428},
		{"toomanyrequests", 429},
		{"unavailableforlegalreasons", 451},
		{"internalservererror", 500}, {"notimplemented", 501},
		{"badgateway", 502}, {"serviceunavailable", 503},
		{"gatewaytimeout", 504}, {"insufficientstorage", 507},
		{NULL, 0},
	};
	char buf[64];
	size_t w = 0;
	for (size_t k = 0; k < n && w < sizeof buf - 1; k++) {
		char ch = s[k];
		if (ch == '_')
			continue;
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		buf[w++] = ch;
	}
	buf[w] = '\0';
	for (int k = 0; tab[k].k; k++)
		if (strcmp(tab[k].k, buf) == 0)
			return tab[k].v;
	return 0;
}

const char *fl_http_reason(int status)
{
	static const struct {
		int v;
		const char *r;
	} tab[] = {
		{400, "Bad Request"}, {401, "Unauthorized"}, {402, "Payment Required"},
		{403, "Forbidden"}, {404, "Not Found"}, {405, "Method Not Allowed"},
		{406, "Not Acceptable"}, {407, "Proxy Authentication Required"},
		{408, "Request Timeout"}, {409, "Conflict"}, {410, "Gone"},
		{411, "Length Required"}, {412, "Precondition Failed"},
		{413, "Content Too Large"}, {414, "URI Too Long"},
		{415, "Unsupported Media Type"}, {416, "Range Not Satisfiable"},
		{417, "Expectation Failed"}, {418, "I'm a teapot"},
		{421, "Misdirected Request"}, {422, "Unprocessable Content"},
		{423, "Locked"}, {424, "Failed Dependency"}, {425, "Too Early"},
		{426, "Upgrade Required"}, {428, "Precondition Required"},
		{429, "Too Many Requests"}, {431, "Request Header Fields Too Large"},
		{451, "Unavailable For Legal Reasons"}, {500, "Internal Server Error"},
		{501, "Not Implemented"}, {502, "Bad Gateway"},
		{503, "Service Unavailable"}, {504, "Gateway Timeout"},
		{505, "HTTP Version Not Supported"}, {507, "Insufficient Storage"},
		{508, "Loop Detected"}, {511, "Network Authentication Required"},
	};
	for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++)
		if (tab[k].v == status)
			return tab[k].r;
	return NULL;
}

const char *fl_http_severity(int status)
{
	return status >= 400 && status < 500 ? FL_S_WARNING : FL_S_ERROR;
}
