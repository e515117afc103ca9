/*
 * bundle.c — the JVM family's message bundles (jvm.h): a base
 * `.properties` file of the tree (`messages.properties`, not its
 * `messages_de.properties` translations) read into the tree, each key
 * with its text as MessageFormat prints it; and the rule that makes a
 * report call given such a key a site of its text: Checkstyle's
 * `log(ast, MSG_KEY, name)` with `MSG_KEY = "name.invalidPattern"` and
 * `name.invalidPattern=Name ''{0}'' must match pattern ''{1}''.` in the
 * bundle of the check's package.
 *
 * A key is kept in the tree under "bundle:KEY@DIR" for each tail of the
 * bundle's folder (DIR = "naming", "checks/naming", ... up to
 * BUNDLE_DEPTH folders) and under "bundle:KEY": a lookup asks for the
 * key in the package of the file that gives it (the folder a class
 * loader finds the bundle in), then in each package above it, then
 * anywhere, where it must be one bundle's.  Every lookup goes through
 * jvm_tree_find, so an early scan logs it as any other.
 *
 * Also the texts an error enum's constants hold (collected by rules.c's
 * jvm_error_enums_collect): a report call given such a constant is a site
 * of its text, as ANTLR's `errMgr.grammarError(ErrorType.X, ...)`.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jvm.h"

#define BUNDLE "bundle:"
#define BUNDLE_DEPTH 10
#define BUNDLE_KEYS 4096 /* keys read from one file at most */
#define BUNDLE_KEY_MAX 128

/* ---- reading a .properties file ------------------------------------------ */

bool jvm_props_path(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return ends_with(path ? path : "", n, ".properties");
}

/* A translation of a bundle: the name ends in a locale, `_de`, `_pt_BR`,
 * `_zh_TW`, `_sr_Latn_RS` (two or three lower-case letters after the
 * first '_' of the name that is followed by one). */
static bool locale_variant(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	for (const char *u = base; u && u < dot; u = strchr(u + 1, '_')) {
		if (*u != '_')
			continue;
		size_t k = 1;
		while (u + k < dot && u[k] >= 'a' && u[k] <= 'z')
			k++;
		if ((k == 3 || k == 4) && (u + k == dot || u[k] == '_'))
			return true;
	}
	return false;
}

static bool prop_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\f';
}

/* One escape of a properties file at s[*p] (after its backslash), into b:
 * \t \n \r \f, \uXXXX (a surrogate pair joined), any other character as
 * itself.  A backslash before a line end continues the logical line: the
 * next line's leading white space is skipped. */
static void prop_escape(const char *s, size_t n, size_t *p, fl_buf *b)
{
	size_t q = *p;
	if (q >= n) {
		*p = q;
		return;
	}
	char ch = s[q++];
	if (ch == '\r' || ch == '\n') {
		if (ch == '\r' && q < n && s[q] == '\n')
			q++;
		while (q < n && prop_ws(s[q]))
			q++;
	} else if (ch == 'u' && q + 4 <= n) {
		uint32_t cp = 0;
		bool ok = true;
		for (int k = 0; k < 4; k++) {
			int h = fl_hexval((unsigned char)s[q + (size_t)k]);
			ok &= h >= 0;
			cp = cp * 16 + (uint32_t)(h < 0 ? 0 : h);
		}
		if (!ok) {
			fl_buf_putc(b, 'u');
		} else {
			q += 4;
			if (cp >= 0xD800 && cp < 0xDC00 && q + 6 <= n && s[q] == '\\' && s[q + 1] == 'u') {
				uint32_t lo = 0;
				bool ok2 = true;
				for (int k = 0; k < 4; k++) {
					int h = fl_hexval((unsigned char)s[q + 2 + (size_t)k]);
					ok2 &= h >= 0;
					lo = lo * 16 + (uint32_t)(h < 0 ? 0 : h);
				}
				if (ok2 && lo >= 0xDC00 && lo < 0xE000) {
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					q += 6;
				}
			}
			fl_buf_put_utf8(b, cp);
		}
	} else {
		fl_buf_putc(b, ch == 't' ? '\t' : ch == 'n' ? '\n' : ch == 'r' ? '\r' : ch == 'f' ? '\f' : ch);
	}
	*p = q;
}

/* The text MessageFormat prints of a bundle's value v: a `''` is one
 * quote, a quoted run is printed without its quotes, `{0}` and
 * `{0,number}` stay as placeholders.  Only a value with a `{N}` or a
 * `''` is taken for a format (a plain value is printed as it is). */
static char *message_format_text(const char *v)
{
	bool fmt = strstr(v, "''") != NULL;
	for (const char *p = strchr(v, '{'); p && !fmt; p = strchr(p + 1, '{'))
		fmt = p[1] >= '0' && p[1] <= '9';
	if (!fmt)
		return fl_xstrdup(v);
	fl_buf b = {0};
	bool quoted = false;
	for (const char *p = v; *p; p++) {
		if (*p == '\'') {
			if (p[1] == '\'') {
				fl_buf_putc(&b, '\'');
				p++;
			} else {
				quoted = !quoted;
			}
			continue;
		}
		fl_buf_putc(&b, *p);
	}
	(void)quoted;
	fl_buf_cstr(&b);
	return b.s;
}

/* a key another file can name: letters, digits and `._-`, with a `.`,
 * a `_` or an inner capital in it (`name.invalidPattern`,
 * `MISSING_VALUE`, `noNewlineAtEOF`; not a plain word) */
static bool key_like(const char *s, size_t n)
{
	if (n < 3 || n > BUNDLE_KEY_MAX)
		return false;
	bool sep = false;
	for (size_t k = 0; k < n; k++) {
		char ch = s[k];
		if (ch == '.' || ch == '_' || (k > 0 && ch >= 'A' && ch <= 'Z' && s[k - 1] >= 'a' &&
					       s[k - 1] <= 'z'))
			sep = true;
		else if (!(ch == '-' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9')))
			return false;
	}
	return sep && s[0] != '.' && s[n - 1] != '.';
}

/* a value that is a message: two words at least */
static bool message_like(const char *v)
{
	const char *sp = strchr(v, ' ');
	return sp && sp > v && sp[1] && sp[1] != ' ';
}

static void add_key(fl_factories *tree, const char *path, const char *key, size_t kl,
		    const char *msg)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) : 0;
	fl_factory f = {0};
	f.name = fl_xasprintf(BUNDLE "%.*s", (int)kl, key);
	f.msg = fl_xstrdup(msg);
	fl_factories_add(tree, &f);
	/* each tail of the folder: "naming", "checks/naming", ... */
	size_t b = dl;
	for (int depth = 0; depth < BUNDLE_DEPTH && dl; depth++) {
		while (b > 0 && path[b - 1] != '/')
			b--;
		fl_factory g = {0};
		g.name = fl_xasprintf(BUNDLE "%.*s@%.*s", (int)kl, key, (int)(dl - b), path + b);
		g.msg = fl_xstrdup(msg);
		fl_factories_add(tree, &g);
		if (b == 0)
			break;
		b--;
	}
}

void jvm_props_collect(fl_factories *tree, const fl_src *src)
{
	if (!tree || !src->text || !src->path || locale_variant(src->path))
		return;
	const char *s = src->text;
	size_t n = src->len, p = 0;
	if (fl_memmem(s, n < 4096 ? n : 4096, "\0", 1))
		return; /* not text */
	fl_buf key = {0}, val = {0};
	size_t keys = 0;
	while (p < n && keys < BUNDLE_KEYS) {
		while (p < n && (prop_ws(s[p]) || s[p] == '\r' || s[p] == '\n'))
			p++;
		if (p >= n)
			break;
		if (s[p] == '#' || s[p] == '!') {
			while (p < n && s[p] != '\n')
				p++;
			continue;
		}
		key.n = val.n = 0;
		while (p < n && s[p] != '=' && s[p] != ':' && !prop_ws(s[p]) && s[p] != '\r' &&
		       s[p] != '\n') {
			if (s[p] == '\\') {
				p++;
				prop_escape(s, n, &p, &key);
			} else {
				fl_buf_putc(&key, s[p++]);
			}
		}
		while (p < n && prop_ws(s[p]))
			p++;
		if (p < n && (s[p] == '=' || s[p] == ':'))
			p++;
		while (p < n && prop_ws(s[p]))
			p++;
		while (p < n && s[p] != '\r' && s[p] != '\n') {
			if (s[p] == '\\') {
				p++;
				prop_escape(s, n, &p, &val);
			} else {
				fl_buf_putc(&val, s[p++]);
			}
		}
		keys++;
		while (val.n && (val.s[val.n - 1] == ' ' || val.s[val.n - 1] == '\t'))
			val.n--;
		fl_buf_cstr(&key);
		fl_buf_cstr(&val);
		if (!key_like(key.s, key.n) || !message_like(val.s))
			continue;
		/* a file in Latin-1 (the format's old encoding) or UTF-8 */
		char *v = fl_utf8_valid(val.s, val.n) ? fl_xstrdup(val.s) : fl_utf8_fix(val.s, val.n);
		char *m = message_format_text(v);
		add_key(tree, src->path, key.s, key.n, m);
		free(m);
		free(v);
	}
	fl_buf_free(&key);
	fl_buf_free(&val);
}

/* ---- a report call given a key ------------------------------------------ */

/* The package the file declares, as a folder path ("a/b/c"), into out;
 * false when it declares none. */
static bool package_path(const ctx *c, char *out, size_t cap)
{
	size_t lim = c->t.n < 64 ? c->t.n : 64;
	for (size_t i = 0; i + 1 < lim; i++) {
		if (!is(c, i, "package") || !is_id(c, i + 1))
			continue;
		size_t o = 0;
		for (size_t k = i + 1; k < c->t.n; k += 2) {
			if (!is_id(c, k))
				return false;
			size_t l = c->t.v[k].len;
			if (o + l + 2 > cap)
				return false;
			if (o)
				out[o++] = '/';
			memcpy(out + o, tsrc(c, k), l);
			o += l;
			if (!is_p(c, k + 1, "."))
				break;
		}
		out[o] = '\0';
		return o > 0;
	}
	return false;
}

/* The text of bundle key [s, s + n) for this file: its package's bundle,
 * a package's above it, or the tree's one bundle that has the key. */
static const char *bundle_text(ctx *c, const char *s, size_t n)
{
	char pkg[512], name[BUNDLE_KEY_MAX + 600];
	if (package_path(c, pkg, sizeof pkg)) {
		for (size_t pl = strlen(pkg); pl;) {
			int l = snprintf(name, sizeof name, BUNDLE "%.*s@%.*s", (int)n, s, (int)pl, pkg);
			const fl_factory *f = jvm_tree_find(c, name, (size_t)l, 0);
			if (f && f->msg)
				return f->msg;
			while (pl && pkg[pl - 1] != '/')
				pl--;
			if (pl)
				pl--;
		}
	}
	int l = snprintf(name, sizeof name, BUNDLE "%.*s", (int)n, s);
	const fl_factory *f = jvm_tree_find(c, name, (size_t)l, 0);
	return f && f->msg ? f->msg : NULL;
}

/* the key argument [b, e) names: a literal, or the file's constant whose
 * value is one */
static bool key_arg(const ctx *c, size_t b, size_t e, const char **s, size_t *n)
{
	size_t vb, ve;
	if (e == b + 1 && is_id(c, b) && jvm_const_value(c, b, &vb, &ve) && ve == vb + 1) {
		b = vb;
		e = ve;
	}
	if (e != b + 1 || c->t.v[b].kind != FL_TK_STRING)
		return false;
	*s = fl_tok_str(&c->t, &c->t.v[b]);
	*n = c->t.v[b].slen;
	return key_like(*s, *n);
}

/* a method named for reporting a problem: log, warn..., error...,
 * fail..., report..., ...violation..., ...problem..., raise, die */
static bool report_name(const ctx *c, size_t i, const char **sev)
{
	*sev = FL_S_ERROR;
	if (is(c, i, "log") || is(c, i, "raise") || is(c, i, "die"))
		return true;
	/* one pass over the name (asked of every call of a Java file): a
	 * word's first letter, then the word */
	static const char *const words[] = {"warn", "error", "fail", "report", "violation", "problem"};
	const char *s = tsrc(c, i);
	size_t n = c->t.v[i].len;
	for (size_t p = 0; p + 4 <= n; p++) {
		char ch = (char)(s[p] | 0x20);
		if (!strchr("wefrvp", ch))
			continue;
		for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
			size_t l = strlen(words[k]);
			if (words[k][0] == ch && p + l <= n && strncasecmp(s + p, words[k], l) == 0) {
				/* (a warning's name says so anywhere: reportWarning) */
				if (k == 0 || fl_tok_contains_ci(&c->t, i, "warn"))
					*sev = FL_S_WARNING;
				return true;
			}
		}
	}
	return false;
}

/* Where the receiver chain of the call named at i starts:
 * options.getReporter().log( */
static size_t receiver_start(const ctx *c, size_t i)
{
	size_t first = i;
	while (first >= 2 && is_p(c, first - 1, ".")) {
		size_t r = first - 2;
		if (is_p(c, r, ")") && c->match[r] != NOIDX && c->match[r] >= 1 &&
		    is_id(c, c->match[r] - 1))
			first = c->match[r] - 1;
		else if (is_id(c, r))
			first = r;
		else
			break;
	}
	return first;
}

/* The console site of the report call named at i, its statement's
 * receiver chain first, of text. */
static void emit_report(ctx *c, size_t i, bool dot_before, const char *sev, const char *text)
{
	size_t first = dot_before ? receiver_start(c, i) : i;
	char *idiom = fl_tok_span_text(&c->t, first, i + 1, 80);
	site_spec s = {.first = first, .type = FL_T_CONSOLE, .sev = sev, .idiom = idiom, .msg = text};
	jvm_emit(c, &s);
	free(idiom);
}

static bool key_const_at(const ctx *c, size_t i, size_t *name, size_t *key);

bool jvm_rule_bundle_key(ctx *c, size_t i, bool dot_before)
{
	const char *sev;
	if (!c->ctors || c->match[i + 1] == NOIDX || !report_name(c, i, &sev))
		return false;
	size_t kn, kk;
	if (i > 0 && key_const_at(c, i - 1, &kn, &kk)) {
		/* a constant naming a key: the text's definition, its uses
		 * report it (jvm_rule_enum_text) */
		const char *text = bundle_text(c, fl_tok_str(&c->t, &c->t.v[kk]), c->t.v[kk].slen);
		if (text) {
			site_spec sp = {.first = kn, .type = FL_T_CONSOLE, .sev = FL_S_ERROR,
					.idiom = "error enum constant", .msg = text};
			jvm_emit(c, &sp);
		}
		return true;
	}
	size_t st[8], en[8];
	size_t na = args(c, i + 1, st, en, 8, NULL);
	for (size_t k = 0; k < na; k++) {
		const char *ks;
		size_t kl;
		if (!key_arg(c, st[k], en[k], &ks, &kl))
			continue;
		const char *text = bundle_text(c, ks, kl);
		if (!text)
			continue;
		emit_report(c, i, dot_before, sev, text);
		return true;
	}
	return false;
}

/* ---- constants of a class that name a key ------------------------------------
 * JFlex's `public static ErrorMessages NO_DIRECTORY = new
 * ErrorMessages("NO_DIRECTORY");`, its text in the bundle
 * (`NO_DIRECTORY = No directory for -d option`): a report call given the
 * constant (`Out.error(ErrorMessages.NO_DIRECTORY)`) is a site of the
 * text, as an error enum's constant is; the constant itself is none. */

#define ENUMKEY "enumkey:"

/* an identifier's byte, '$' too (lex.h's byte classes) */
static bool id_byte(char ch)
{
	return (fl_lx_class[(unsigned char)ch] & 3) != 0;
}

/* `TYPE NAME = new TYPE("` somewhere in [s, s + n), the same TYPE twice */
bool jvm_may_have_key_consts(const char *s, size_t n)
{
	for (const char *p = s; (p = fl_memmem(p, (size_t)(s + n - p), "= new ", 6)) != NULL; p += 6) {
		const char *a = p + 6, *b = a;
		while (b < s + n && id_byte(*b))
			b++;
		if (b == a || s + n - b < 2 || b[0] != '(' || b[1] != '"')
			continue;
		/* back over spaces, NAME, spaces: TYPE ends there */
		const char *q = p;
		while (q > s && q[-1] == ' ')
			q--;
		while (q > s && id_byte(q[-1]))
			q--;
		while (q > s && q[-1] == ' ')
			q--;
		const char *te = q;
		while (q > s && id_byte(q[-1]))
			q--;
		if (te - q == b - a && memcmp(q, a, (size_t)(b - a)) == 0)
			return true;
	}
	return false;
}

/* Token i is the `new` of `static CLS NAME = new CLS("KEY")`: the name
 * token into *name, the key token into *key. */
static bool key_const_at(const ctx *c, size_t i, size_t *name, size_t *key)
{
	if (i < 4 || !is(c, i, "new") || !is_p(c, i - 1, "=") || !is_id(c, i - 2) || !is_id(c, i - 3) ||
	    !is_id(c, i + 1) || !is_p(c, i + 2, "(") || c->t.v[i + 3].kind != FL_TK_STRING ||
	    !is_p(c, i + 4, ")") || c->t.v[i + 1].len != c->t.v[i - 3].len ||
	    memcmp(tsrc(c, i + 1), tsrc(c, i - 3), c->t.v[i + 1].len) != 0)
		return false;
	bool st = false;
	for (size_t k = i - 4, n = 0; n < 4; k--, n++) {
		if (is(c, k, "static")) {
			st = true;
			break;
		}
		if (!(is(c, k, "public") || is(c, k, "private") || is(c, k, "protected") || is(c, k, "final")) ||
		    k == 0)
			break;
	}
	if (!st)
		return false;
	*name = i - 2;
	*key = i + 3;
	return key_like(fl_tok_str(&c->t, &c->t.v[i + 3]), c->t.v[i + 3].slen);
}

void jvm_key_consts_collect(ctx *c, fl_factories *tree)
{
	for (size_t i = 4; i + 4 < c->t.n; i++) {
		size_t nm, key;
		if (!key_const_at(c, i, &nm, &key))
			continue;
		for (int both = 0; both < 2; both++) {
			fl_factory f = {0};
			f.name = both ? fl_xasprintf(ENUMKEY "%.*s.%.*s", (int)c->t.v[i + 1].len, tsrc(c, i + 1),
						     (int)c->t.v[nm].len, tsrc(c, nm))
				      : fl_xasprintf(ENUMKEY "%.*s", (int)c->t.v[nm].len, tsrc(c, nm));
			f.msg = fl_xstrndup(fl_tok_str(&c->t, &c->t.v[key]), c->t.v[key].slen);
			f.tag = 1;
			fl_factories_add(tree, &f);
		}
	}
}

/* ---- error enums' constants -------------------------------------------------- */

/* The tree's entry under prefix ("enumtext:", "enumkey:") of the constant
 * argument [b, e) names: `ErrorType.NAME` (the tree's class or enum of
 * that name), or a bare NAME in capitals (a static import: the tree's one
 * constant of that name); NULL when none, or it holds no text. */
static const fl_factory *const_arg(ctx *c, size_t b, size_t e, const char *prefix)
{
	char name[300];
	int l;
	if (e == b + 3 && is_id(c, b) && is_p(c, b + 1, ".") && is_id(c, b + 2) &&
	    c->t.v[b].len + c->t.v[b + 2].len < 250)
		l = snprintf(name, sizeof name, "%s%.*s.%.*s", prefix, (int)c->t.v[b].len, tsrc(c, b),
			     (int)c->t.v[b + 2].len, tsrc(c, b + 2));
	else if (e == b + 1 && is_id(c, b) && c->t.v[b].len < 250 &&
		 memchr(tsrc(c, b), '_', c->t.v[b].len) && tsrc(c, b)[0] >= 'A' && tsrc(c, b)[0] <= 'Z')
		l = snprintf(name, sizeof name, "%s%.*s", prefix, (int)c->t.v[b].len, tsrc(c, b));
	else
		return NULL;
	const fl_factory *f = jvm_tree_find(c, name, (size_t)l, 0);
	return f && f->msg ? f : NULL;
}

char *jvm_const_args_text(ctx *c, const size_t *st, const size_t *en, size_t na)
{
	if (!c->ctors)
		return NULL;
	for (size_t k = 0; k < na; k++) {
		const fl_factory *f = const_arg(c, st[k], en[k], "enumtext:");
		if (f)
			return fl_xstrdup(f->msg);
		f = const_arg(c, st[k], en[k], ENUMKEY);
		const char *text = f ? bundle_text(c, f->msg, strlen(f->msg)) : NULL;
		if (text)
			return fl_xstrdup(text);
	}
	return NULL;
}

/* The texts of an error enum's constants an expression [b, e) gives: one
 * constant, or a choice of two (`left ? ErrorType.A : ErrorType.B`);
 * the first one's tag in *tag (2: a warning's).  How many (0: neither). */
static size_t const_texts(ctx *c, size_t b, size_t e, fl_strv *out, int *tag)
{
	const fl_factory *f = const_arg(c, b, e, "enumtext:");
	if (f) {
		fl_strv_push(out, f->msg);
		*tag = f->tag;
		return 1;
	}
	size_t q = NOIDX, colon = NOIDX;
	for (size_t k = b; k < e; k++) {
		if (c->match[k] != NOIDX && c->match[k] > k) {
			k = c->match[k];
			continue;
		}
		if (is_p(c, k, "?") && q == NOIDX)
			q = k;
		else if (is_p(c, k, ":") && q != NOIDX && colon == NOIDX)
			colon = k;
	}
	if (q == NOIDX || colon == NOIDX)
		return 0;
	const fl_factory *x = const_arg(c, q + 1, colon, "enumtext:");
	const fl_factory *y = const_arg(c, colon + 1, e, "enumtext:");
	if (!x || !y)
		return 0;
	fl_strv_push(out, x->msg);
	if (strcmp(x->msg, y->msg) != 0)
		fl_strv_push(out, y->msg);
	*tag = x->tag;
	return out->n;
}

struct enum_alts_ud {
	ctx *c;
	int tag;
};

static size_t enum_alts(const void *ud, size_t b, size_t e, fl_strv *out)
{
	struct enum_alts_ud *u = (struct enum_alts_ud *)ud;
	fl_strv got = {0};
	size_t n = const_texts(u->c, b, e, &got, &u->tag);
	for (size_t k = 0; k < got.n; k++)
		fl_strv_push(out, got.v[k]);
	fl_strv_free(&got);
	return n;
}

/* The texts of the error enum's constants the name v (an argument of the
 * report at `at`) holds in the method being walked: a local given one
 * (`ErrorType etype = ErrorType.LABEL_CONFLICTS_WITH_RULE;`, or a choice
 * of two), or a parameter the file's calls of the method give one
 * (`checkConflicts(r, r.retvals, ErrorType.RETVAL_CONFLICTS_WITH_RULE)`):
 * the report is where each is raised.  How many (0: none). */
static size_t enum_var_texts(ctx *c, size_t v, size_t at, fl_strv *out, int *tag)
{
	scope *sc = top(c);
	if (!sc || !sc->fn_at || !is_id(c, v) || is_upper(tsrc(c, v)[0]) || is(c, v, "this") ||
	    is(c, v, "null") || c->t.v[v].len > 64)
		return 0;
	size_t fn = sc->fn_at;
	const fl_tok *vt = &c->t.v[v];
	/* a local: its type before it, `TYPE v = ...` */
	char type[80] = "";
	for (size_t q = fn + 1; q + 1 < at; q++)
		if (c->t.v[q].len == vt->len && memcmp(tsrc(c, q), tsrc(c, v), vt->len) == 0 &&
		    is_p(c, q + 1, "=") && is_id(c, q - 1) && is_upper(tsrc(c, q - 1)[0]) &&
		    c->t.v[q - 1].len < sizeof type) {
			memcpy(type, tsrc(c, q - 1), c->t.v[q - 1].len);
			type[c->t.v[q - 1].len] = '\0';
			break;
		}
	if (*type) {
		const char *decl[] = {"final", type, NULL};
		struct enum_alts_ud u = {c, 1};
		size_t n = fl_var_msgs(&c->t, c->match, fn, at, v, decl, enum_alts, &u, 8, out);
		*tag = u.tag;
		return n;
	}
	/* a parameter: the method's calls in the file */
	if (c->d != D_JAVA || !is_p(c, fn + 1, "(") || c->match[fn + 1] == NOIDX ||
	    c->raiser_walks++ >= 64)
		return 0;
	size_t pst[FL_FAC_PARAMS], pen[FL_FAC_PARAMS];
	size_t np = args(c, fn + 1, pst, pen, FL_FAC_PARAMS, NULL), k = np;
	for (size_t p = 0; p < np && k == np; p++)
		if (pen[p] > pst[p] + 1 && c->t.v[pen[p] - 1].len == vt->len &&
		    memcmp(tsrc(c, pen[p] - 1), tsrc(c, v), vt->len) == 0)
			k = p;
	if (k == np)
		return 0;
	size_t n0 = out->n;
	for (size_t q = 1; q + 1 < c->t.n && out->n < n0 + 16; q++) {
		if (c->t.v[q].len != c->t.v[fn].len || q == fn || !is_id(c, q) ||
		    memcmp(tsrc(c, q), tsrc(c, fn), c->t.v[fn].len) != 0 || !is_p(c, q + 1, "(") ||
		    c->match[q + 1] == NOIDX || (is_p(c, q - 1, ".") && !(q >= 2 && is(c, q - 2, "this"))) ||
		    (is_id(c, q - 1) && !is(c, q - 1, "return") && !is(c, q - 1, "else")))
			continue; /* not a call of it: another name, a declaration */
		size_t st[16], en[16];
		if (args(c, q + 1, st, en, 16, NULL) != np)
			continue;
		fl_strv got = {0};
		int t = 1;
		if (const_texts(c, st[k], en[k], &got, &t)) {
			if (out->n == n0)
				*tag = t;
			for (size_t g = 0; g < got.n; g++) {
				bool seen = false;
				for (size_t j = n0; j < out->n && !seen; j++)
					seen = strcmp(out->v[j], got.v[g]) == 0;
				if (!seen)
					fl_strv_push(out, got.v[g]);
			}
		}
		fl_strv_free(&got);
	}
	return out->n - n0;
}

bool jvm_rule_enum_text(ctx *c, size_t i, bool dot_before)
{
	const char *sev;
	if (!c->ctors || c->match[i + 1] == NOIDX || !report_name(c, i, &sev))
		return false;
	size_t st[8], en[8];
	size_t na = args(c, i + 1, st, en, 8, NULL);
	for (size_t k = 0; k < na; k++) {
		/* a local or a parameter holding a constant: a site each */
		fl_strv texts = {0};
		int tag = 1;
		if (en[k] == st[k] + 1 && enum_var_texts(c, st[k], i, &texts, &tag)) {
			for (size_t t = 0; t < texts.n; t++)
				emit_report(c, i, dot_before, tag == 2 ? FL_S_WARNING : FL_S_ERROR,
					    texts.v[t]);
			fl_strv_free(&texts);
			return true;
		}
		fl_strv_free(&texts);
		/* an error enum's constant holds its text; a constant naming
		 * a key, the bundle's */
		const fl_factory *f = const_arg(c, st[k], en[k], "enumtext:");
		if (f) {
			emit_report(c, i, dot_before, f->tag == 2 ? FL_S_WARNING : FL_S_ERROR, f->msg);
			return true;
		}
		f = const_arg(c, st[k], en[k], ENUMKEY);
		const char *text = f ? bundle_text(c, f->msg, strlen(f->msg)) : NULL;
		if (text) {
			emit_report(c, i, dot_before, sev, text);
			return true;
		}
	}
	return false;
}
