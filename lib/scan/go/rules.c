/*
 * rules.c — the Go site rules (see go.h)
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "go.h"

/* ---- rules ------------------------------------------------------------------------ */

/* canonical package name of an import path we have rules for, or NULL */
static const char *go_canon_pkg(const char *p)
{
	static const char *const map[][2] = {
		{"errors", "errors"},
		{"github.com/pkg/errors", "errors"},
		{"github.com/cockroachdb/errors", "errors"},
		{"fmt", "fmt"},
		{"log", "log"},
		{"log/slog", "slog"},
		{"golang.org/x/exp/slog", "slog"},
		{"net/http", "http"},
		{"google.golang.org/grpc/status", "status"},
		{"google.golang.org/grpc/codes", "codes"},
	};
	for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
		if (strcmp(p, map[k][0]) == 0)
			return map[k][1];
	return NULL;
}

/* one import spec: [alias] "path" with the path token at k */
static void go_import_spec(go_st *st, size_t k)
{
	const fl_toks *t = st->t;
	if (k == 0 || t->v[k].kind != FL_TK_STRING || t->v[k - 1].kind != FL_TK_IDENT ||
	    fl_tok_is(t, k - 1, "import") || st->nal >= 16)
		return;
	const char *c = go_canon_pkg(fl_tok_str(t, &t->v[k]));
	if (!c || fl_tok_is(t, k - 1, c))
		return;
	st->al[st->nal].tok = k - 1;
	st->al[st->nal].canon = c;
	st->nal++;
}

void go_import(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if (fl_tok_pch(t, i + 1) == '(' && st->m[i + 1] != NONE) {
		size_t end = st->m[i + 1];
		for (size_t k = i + 2; k < end && k < i + 2 + 1024; k++)
			go_import_spec(st, k);
	} else if (i + 2 < t->n) {
		go_import_spec(st, i + 2);
	}
}

void go_pend_add(go_st *st, size_t brace, int kind, char *name, size_t gb,
		     size_t ge)
{
	if (brace == NONE || st->np >= MAX_PEND) {
		free(name);
		return;
	}
	go_pend *p = &st->pend[st->np++];
	p->brace = brace;
	p->kind = kind;
	p->name = name;
	p->gb = gb;
	p->ge = ge;
}

/* body '{' of a func signature after from; the body must start on the
 * line where the signature ends */
size_t go_fn_body(const fl_toks *t, const size_t *m, size_t from)
{
	size_t k = from;
	for (int steps = 0; k < t->n && steps < SCAN_LIMIT; steps++) {
		if (k > from && (t->v[k].flags & FL_TF_NL_BEFORE))
			return NONE;
		char c = fl_tok_pch(t, k);
		if (c == '{')
			return k;
		if ((fl_tok_is_ident(t, k, "interface") || fl_tok_is_ident(t, k, "struct")) &&
		    fl_tok_pch(t, k + 1) == '{') {
			if (m[k + 1] == NONE)
				return NONE;
			k = m[k + 1] + 1;
			continue;
		}
		if (c == '(' || c == '[') {
			if (m[k] == NONE)
				return NONE;
			k = m[k] + 1;
			continue;
		}
		if (c == ';' || c == '}' || c == ')' || c == ']' || c == '=')
			return NONE;
		k++;
	}
	return NONE;
}

static size_t go_find_fn_body(const go_st *st, size_t from)
{
	return go_fn_body(st->t, st->m, from);
}

/* body '{' of an if; *semi gets the last depth-0 ';' (or NONE) */
size_t go_find_if_body(const go_st *st, size_t from, size_t *semi)
{
	const fl_toks *t = st->t;
	size_t k = from;
	*semi = NONE;
	for (int steps = 0; k < t->n && steps < SCAN_LIMIT; steps++) {
		char c = fl_tok_pch(t, k);
		if (c == '{')
			return k;
		if (fl_tok_is_ident(t, k, "func") || fl_tok_is_ident(t, k, "struct") ||
		    fl_tok_is_ident(t, k, "interface"))
			return NONE;
		if (c == '(' || c == '[') {
			if (st->m[k] == NONE)
				return NONE;
			k = st->m[k] + 1;
			continue;
		}
		if (c == ';')
			*semi = k;
		if (c == '}' || c == ')' || c == ']')
			return NONE;
		k++;
	}
	return NONE;
}

void go_ctx_push(go_st *st, size_t k)
{
	if (st->csn == st->csc) {
		st->csc = st->csc ? st->csc * 2 : 64;
		st->cs = fl_xrealloc(st->cs, st->csc * sizeof *st->cs);
	}
	go_ctx *par = &st->cs[st->csn - 1];
	go_ctx c = {0};
	c.open = k;
	c.fn = par->fn;
	size_t w = 0;
	for (size_t i = 0; i < st->np; i++) {
		go_pend *p = &st->pend[i];
		if (p->brace > k) {
			st->pend[w++] = *p;
			continue;
		}
		if (p->brace == k) {
			if (p->kind == P_GUARD) {
				c.has_guard = true;
				c.gb = p->gb;
				c.ge = p->ge;
			} else {
				free(c.own_fn);
				c.own_fn = p->name;
				p->name = NULL;
				c.fn = c.own_fn;
			}
		}
		free(p->name);
	}
	st->np = w;
	/* `} else {`: the block runs when the if's condition (the last of an
	 * else-if chain) does not hold */
	const fl_toks *t = st->t;
	if (!c.has_guard && k >= 2 && fl_tok_is(t, k - 1, "else") &&
	    fl_tok_pch(t, k - 2) == '}' && st->m[k - 2] != NONE &&
	    st->m[k - 2] == st->if_open) {
		c.has_guard = true;
		c.neg = true;
		c.gb = st->if_gb;
		c.ge = st->if_ge;
	}
	st->cs[st->csn++] = c;
}

void go_ctx_pop(go_st *st, size_t k)
{
	size_t o = st->m[k];
	if (o == NONE)
		return;
	st->if_open = NONE;
	while (st->csn > 1 && st->cs[st->csn - 1].open >= o) {
		const go_ctx *c = &st->cs[st->csn - 1];
		if (c->open == o && c->has_guard && !c->neg) {
			st->if_open = o;
			st->if_gb = c->gb;
			st->if_ge = c->ge;
		}
		free(st->cs[--st->csn].own_fn);
	}
}

/* true when the message has a letter outside printf verbs and `{...}`
 * placeholders: "%v" or "%s: %w" alone is not an error message */
static bool go_has_text(const char *m)
{
	for (const char *p = m; *p; p++) {
		if (*p == '%') {
			p++;
			if (*p == '%')
				continue;
			while (*p && strchr("-+ #0123456789.*[]", *p))
				p++;
			if (!*p)
				break;
			continue; /* the verb letter */
		}
		if (*p == '{') {
			const char *q = strchr(p, '}');
			if (q) {
				p = q;
				continue;
			}
		}
		unsigned char ch = (unsigned char)*p;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch >= 0x80)
			return true;
	}
	return false;
}

static void emit(go_st *st, size_t at, const char *msg, const char *code,
		 const char *cls, const char *type, const char *sev, int http,
		 const char *idiom)
{
	if (msg && *msg && !go_has_text(msg))
		msg = NULL;
	if ((!msg || !*msg) && !code)
		return;
	const fl_toks *t = st->t;
	go_ctx *c = &st->cs[st->csn - 1];
	char *guard = c->has_guard ? fl_guard_span(t, c->gb, c->ge, c->neg, false) : NULL;
	bool own = guard != NULL;
	/* an if (or else) right inside another if's block: both hold */
	const go_ctx *o = st->csn >= 2 ? &st->cs[st->csn - 2] : NULL;
	if (guard && o && o->has_guard)
		guard = fl_guard_nest(fl_guard_span(t, o->gb, o->ge, o->neg, false), guard, false);
	/* a statement of a switch's case: the case's labels (with an if of
	 * the case's own around it) */
	bool arm = false;
	char *sw = fl_switch_guard_arm(t, st->m, at, &arm);
	if (sw && arm && own) {
		free(sw); /* an if inside a type's case: its condition says more */
		sw = NULL;
		arm = false;
	}
	/* no if around it: the early exits before it in its block (`if x ==
	 * nil { return nil }`) */
	bool early = false;
	if (!guard) {
		guard = fl_early_guard(t, st->m, at);
		early = guard != NULL;
	}
	if (sw)
		guard = guard ? fl_guard_nest(sw, guard, false) : sw;
	fl_site s = {
		.line = t->v[at].line,
		.col = t->v[at].col,
		.message = msg,
		.code = code,
		.cls = cls,
		.type = type,
		.severity = sev,
		.http = http,
		.function = c->fn,
		.guard = guard,
		.early = early,
		.arm = arm,
		.idiom = idiom,
		.unit = st->pkg,
	};
	fl_site_add(st->out, &s);
	free(guard);
}

/* method name of `func (recv) Name` / `func Name` at func token i */
void go_func(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t j = i + 1;
	char *name = NULL;
	size_t type_tok = NONE;
	if (fl_tok_pch(t, j) == '(') {
		size_t rc = st->m[j];
		if (rc == NONE || rc + 1 >= t->n || t->v[rc + 1].kind != FL_TK_IDENT ||
		    !(fl_tok_pch(t, rc + 2) == '(' || fl_tok_pch(t, rc + 2) == '['))
			return; /* func literal or type */
		size_t type = NONE;
		for (size_t k = j + 1; k < rc;) {
			if (fl_tok_pch(t, k) == '[' && st->m[k] != NONE) {
				k = st->m[k] + 1;
				continue;
			}
			if (t->v[k].kind == FL_TK_IDENT)
				type = k;
			k++;
		}
		size_t mn = rc + 1;
		type_tok = type;
		if (type != NONE)
			name = fl_xasprintf("%.*s.%.*s", (int)t->v[type].len,
					    t->src + t->v[type].off, (int)t->v[mn].len,
					    t->src + t->v[mn].off);
		else
			name = fl_tok_dup(t, mn);
		j = mn + 1;
	} else if (j < t->n && t->v[j].kind == FL_TK_IDENT) {
		name = fl_tok_dup(t, j);
		j++;
	} else {
		return;
	}
	if (fl_tok_pch(t, j) == '[' && st->m[j] != NONE)
		j = st->m[j] + 1;
	if (fl_tok_pch(t, j) != '(' || st->m[j] == NONE) {
		free(name);
		return;
	}
	size_t b = go_find_fn_body(st, st->m[j] + 1);
	/* func (e *T) Error() string { ... }: its returns are the messages of
	 * the error type T */
	if (type_tok != NONE && b != NONE && b < t->n && st->m[b] != NONE &&
	    fl_tok_is(t, j - 1, "Error") && st->m[j] == j + 1 &&
	    fl_tok_is_ident(t, j + 2, "string") && b == j + 3) {
		st->errm_open = b;
		st->errm_close = st->m[b];
		st->errm_type = type_tok;
	}
	go_pend_add(st, b, P_FN, name, 0, 0);
}

/* `return EXPR` at i inside an Error() string method */
void go_error_method_return(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t e = i + 1, lim = 0;
	while (e < st->errm_close && lim++ < MSG_TOK_LIMIT) {
		char c = fl_tok_pch(t, e);
		if (c == ';' || c == '}' || c == ')' || c == ']' || c == ',')
			break;
		if (e > i + 1 && (t->v[e].flags & FL_TF_NL_BEFORE) &&
		    !(t->v[e - 1].kind == FL_TK_PUNCT &&
		      (fl_tok_is(t, e - 1, "+") || fl_tok_pch(t, e - 1) == '.')))
			break;
		if (fl_tok_is_opener(t, e) && st->m[e] != NONE && st->m[e] > e)
			e = st->m[e];
		e++;
	}
	if (e <= i + 1)
		return;
	/* the expression must start with a literal or a formatting call */
	if (t->v[i + 1].kind != FL_TK_STRING && !is_qcall(t, i + 1, "fmt", "Sprintf") &&
	    !is_qcall(t, i + 1, "fmt", "Sprint"))
		return;
	char *msg = go_msg(&st->kc, t, st->m, i + 1, e, false, 0);
	char *cls = fl_tok_dup(t, st->errm_type);
	emit(st, i, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, 0, "Error() string");
	free(cls);
	free(msg);
}

/* sentinel name for a constructor call starting at token s, or NULL */
static char *go_sentinel(const go_st *st, size_t s)
{
	const fl_toks *t = st->t;
	if (s < 2 || fl_tok_pch(t, s - 1) != '=')
		return NULL;
	size_t nm = s - 2;
	if (t->v[nm].kind != FL_TK_IDENT)
		return NULL;
	if (nm >= 1 && t->v[nm - 1].kind == FL_TK_IDENT && !fl_tok_is(t, nm - 1, "var")) {
		nm--; /* var ErrX error = ... */
	}
	bool ok = false;
	if (nm >= 1 && fl_tok_is_ident(t, nm - 1, "var"))
		ok = true;
	else if (st->var_close != NONE && s > st->var_open && s < st->var_close &&
		 ((t->v[nm].flags & FL_TF_NL_BEFORE) || nm == st->var_open + 1 ||
		  fl_tok_pch(t, nm - 1) == ';'))
		ok = true;
	return ok ? fl_tok_dup(t, nm) : NULL;
}

static const char *const logger_methods[] = {
	"Error", "Errorf", "Errorln", "Errorw", "Fatal", "Fatalf", "Fatalln",
	"Fatalw", "Warn", "Warnf", "Warnln", "Warnw", "Warning", "Warningf",
	"Warningln", "Panic", "Panicf", "Panicln", "Panicw", "DPanic", "DPanicf",
	"DPanicw", "Critical", "Criticalf", NULL};

static const char *const go_callees[] = {
	"panic", "New", "Errorf", "Wrap", "Wrapf", "WithMessage", "WithMessagef",
	"Newf", "ErrorContext", "WarnContext", "NewHTTPError", "NewError",
	"JSON", "AbortWithStatusJSON", "IndentedJSON", "PureJSON", "XML", "String",
	"Fprintf", "Fprint", "Fprintln", NULL};

/* The message of a response body written as a map or struct literal:
 * gin.H{"error": "..."}, map[string]string{"message": "..."},
 * fiber.Map{"error": ...}, ErrorResponse{Message: "..."}: the value of its
 * error/message/msg/detail key, when it is literal text. */
static char *go_body_msg(const go_kcs *kc, const fl_toks *t, const size_t *m, size_t b, size_t e)
{
	static const char *const keys[] = {"error", "message", "msg", "detail", "err",
					   "Error", "Message", "Msg", "Detail", NULL};
	size_t open = NONE;
	for (size_t k = b; k < e && k < b + 16; k++)
		if (fl_tok_pch(t, k) == '{') {
			open = k;
			break;
		}
	if (open == NONE || m[open] == NONE || m[open] >= e)
		return NULL;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t n = go_args(t, m, open, sb, se);
	for (size_t a = 0; a < n; a++) {
		size_t kb = sb[a];
		if (se[a] < kb + 3 || fl_tok_pch(t, kb + 1) != ':')
			continue;
		const char *ks;
		size_t kl;
		if (t->v[kb].kind == FL_TK_STRING) {
			ks = fl_tok_str(t, &t->v[kb]);
			kl = t->v[kb].slen;
		} else if (t->v[kb].kind == FL_TK_IDENT) {
			ks = t->src + t->v[kb].off;
			kl = t->v[kb].len;
		} else {
			continue;
		}
		for (size_t q = 0; keys[q]; q++)
			if (strlen(keys[q]) == kl && memcmp(keys[q], ks, kl) == 0)
				return go_msg(kc, t, m, kb + 2, se[a], false, 0);
	}
	return NULL;
}

/* A web handler's error response: c.JSON(http.StatusBadRequest,
 * gin.H{"error": "..."}), c.AbortWithStatusJSON(404, ...), c.String(403,
 * "format", ...) (Gin, Echo, and the like).  Only a status of 400 or more,
 * and a message written here.  True when the call was one. */
static bool go_http_response(go_st *st, size_t i, size_t at, const size_t *sb,
			     const size_t *se, size_t na, const char *idiom)
{
	const fl_toks *t = st->t;
	bool str = fl_tok_is(t, i, "String");
	if (!(str || fl_tok_is(t, i, "JSON") || fl_tok_is(t, i, "AbortWithStatusJSON") ||
	      fl_tok_is(t, i, "IndentedJSON") || fl_tok_is(t, i, "PureJSON") ||
	      fl_tok_is(t, i, "XML")) || na < 2)
		return false;
	int code = go_http_status(t, sb[0], se[0]);
	if (code < 400)
		return false;
	char *msg = str ? go_msg(&st->kc, t, st->m, sb[1], se[1], true, 0)
			: go_body_msg(&st->kc, t, st->m, sb[1], se[1]);
	if (msg)
		emit(st, at, msg, NULL, NULL, FL_T_HTTP, fl_http_severity(code), code, idiom);
	free(msg);
	return true;
}

/* A web framework's HTTP error made with a status and a message: Echo's
 * NewHTTPError(http.StatusForbidden, "..."), Fiber's
 * fiber.NewError(fiber.StatusNotFound, "...").  The first argument must
 * be a status (http.StatusX, pkg.StatusX or a number 100-599).  True
 * when the call was one (and is done with). */
static bool go_http_error_ctor(go_st *st, size_t i, size_t at, const size_t *sb,
			       const size_t *se, size_t na, const char *idiom)
{
	const fl_toks *t = st->t;
	if (!(fl_tok_is(t, i, "NewHTTPError") || fl_tok_is(t, i, "NewError")) || na < 2)
		return false;
	int code = go_http_status(t, sb[0], se[0]);
	if (!code)
		return false;
	char *msg = go_msg(&st->kc, t, st->m, sb[1], se[1], false, 0);
	if (msg) {
		char *cls = go_sentinel(st, at);
		char sid[112];
		snprintf(sid, sizeof sid, "sentinel %s", idiom);
		emit(st, at, msg, NULL, cls, FL_T_HTTP,
		     code >= 500 ? FL_S_ERROR : FL_S_WARNING, code, cls ? sid : idiom);
		free(cls);
	}
	free(msg);
	return true;
}

/* the message of the argument ai of a call with arguments sb/se: a
 * format (f) with the file's string constants written in, else go_msg */
/* The literal a local variable named at token v holds when used there:
 * `msg := "..."` (or `var msg = "..."`) earlier in the same function,
 * and no other assignment to it in between; NONE otherwise.  The go
 * command's `msg := `cannot determine module path...`; return
 * fmt.Errorf(msg, dir, reason)`. */
static size_t go_local_literal(const go_st *st, size_t v)
{
	const fl_toks *t = st->t;
	if (t->v[v].kind != FL_TK_IDENT || v < 3)
		return NONE;
	for (size_t k = v - 1, steps = 0; k > 0 && steps < 4000; k--, steps++) {
		if (fl_tok_is_ident(t, k, "func") && (t->v[k].flags & FL_TF_NL_BEFORE))
			return NONE; /* the function's start */
		if (!go_same_tok(t, k, v) || (k > 0 && fl_tok_pch(t, k - 1) == '.'))
			continue;
		if (k + 1 >= t->n || t->v[k + 1].kind != FL_TK_PUNCT)
			continue;
		const char *op = t->src + t->v[k + 1].off;
		size_t ol = t->v[k + 1].len;
		bool def = ol == 2 && memcmp(op, ":=", 2) == 0;
		bool var = ol == 1 && op[0] == '=' && fl_tok_is_ident(t, k - 1, "var");
		if (ol == 1 && op[0] == '=' && !var)
			return NONE; /* msg = ...: which value reaches the use is unknown */
		if (ol >= 2 && op[ol - 1] == '=' && !def && !strchr("=!<>", op[0]))
			return NONE; /* msg += ... */
		if (!def && !var)
			continue; /* a use */
		/* the nearest assignment decides: one string literal ending
		 * its statement */
		size_t l = k + 2;
		if (l >= t->n || t->v[l].kind != FL_TK_STRING ||
		    !(l + 1 >= t->n || (t->v[l + 1].flags & FL_TF_NL_BEFORE) ||
		      fl_tok_pch(t, l + 1) == ';' || fl_tok_pch(t, l + 1) == '}'))
			return NONE;
		if (!(t->v[k].flags & FL_TF_NL_BEFORE) && fl_tok_pch(t, k - 1) != ';' &&
		    !fl_tok_is_ident(t, k - 1, "var"))
			return NONE; /* a, msg := ... */
		return l;
	}
	return NONE;
}

static char *go_arg_msg(go_st *st, const size_t *sb, const size_t *se, size_t na, size_t ai,
			bool f)
{
	char *r = f ? go_fmt_consts(&st->kc, st->t, sb, se, na, ai) : NULL;
	if (r)
		return r;
	size_t kl, l;
	if (se[ai] == sb[ai] + 1 && !go_kconst(&st->kc, st->t, sb[ai], se[ai], &kl) &&
	    (l = go_local_literal(st, sb[ai])) != NONE)
		return go_msg(&st->kc, st->t, st->m, l, l + 1, f, 0);
	return go_msg(&st->kc, st->t, st->m, sb[ai], se[ai], f, 0);
}

static bool in_list(const fl_toks *t, size_t i, const char *const *l)
{
	for (; *l; l++)
		if (fl_tok_is(t, i, *l))
			return true;
	return false;
}

bool go_ends_f(const fl_toks *t, size_t i)
{
	return t->v[i].len > 1 && t->src[t->v[i].off + t->v[i].len - 1] == 'f';
}

/* fmt.Fprintf(os.Stderr, "...") and Fprint/Fprintln to os.Stderr: what a
 * command-line program tells its user went wrong (usage errors,
 * warnings), as C's fprintf(stderr, ...). */
static bool go_stderr_print(go_st *st, size_t at, size_t i, const size_t *sb,
			    const size_t *se, size_t na, const char *idiom)
{
	const fl_toks *t = st->t;
	bool f = fl_tok_is(t, i, "Fprintf");
	if (!f && !fl_tok_is(t, i, "Fprint") && !fl_tok_is(t, i, "Fprintln"))
		return false;
	if (na < 2 || se[0] != sb[0] + 3 || !fl_tok_is(t, sb[0], "os") ||
	    !fl_tok_is(t, sb[0] + 2, "Stderr"))
		return false;
	char *msg = f ? go_arg_msg(st, sb, se, na, 1, true)
		      : go_print_msg(&st->kc, t, st->m, sb + 1, se + 1, na - 1,
				     fl_tok_is(t, i, "Fprintln"));
	if (msg) {
		/* a warning when the text says so */
		emit(st, at, msg, NULL, NULL, FL_T_CONSOLE, fl_print_severity(msg), 0, idiom);
	}
	free(msg);
	return true;
}

/* The message of a call of the error maker h whose argument is msg
 * (taken): its type's template with msg in h's field, the maker's other
 * fields not known, the rest zero; msg alone when the type has no
 * template and h's field says it holds a message. */
static char *go_maker_msg(go_st *st, const gohelp *h, char *msg, const size_t *sb, const size_t *se,
			  size_t na)
{
	const gotmpl *tp = go_tmpl_find(st->tree, h->tt, h->dir, NULL, 0);
	if (!tp) {
		static const char *const words[] = {"Msg", "msg", "Message", "message", "Text",
						    "text", "Reason", "reason", "Detail", "detail", NULL};
		for (const char *const *w = words; *w; w++)
			if (strcmp(h->tf, *w) == 0)
				return msg;
		free(msg);
		return NULL;
	}
	gtval v[17];
	size_t nv = 0;
	v[nv++] = (gtval){.name = h->tf, .nl = strlen(h->tf), .st = GV_LIT, .text = msg};
	for (const char *p = h->given; p && *p && nv < 17;) {
		const char *c = strchr(++p, ',');
		if (!c || c == p)
			break;
		const char *eq = memchr(p, '=', (size_t)(c - p));
		gtval *x = &v[nv++];
		*x = (gtval){.name = p, .nl = (size_t)((eq ? eq : c) - p), .st = GV_UNKNOWN};
		/* a field another parameter fills: the call's literal */
		size_t a = eq ? (size_t)strtoul(eq + 1, NULL, 10) : NONE;
		bool lit = false;
		for (size_t k = a < na ? sb[a] : 0; a < na && k < se[a] && !lit; k++)
			lit = st->t->v[k].kind == FL_TK_STRING;
		if (lit && (x->text = go_arg_msg(st, sb, se, na, a, false)) != NULL)
			x->st = GV_LIT;
		p = c;
	}
	bool filled;
	char *r = go_tmpl_render(tp, v, nv, &filled);
	for (size_t k = 1; k < nv; k++)
		free(v[k].text);
	free(msg);
	fl_msg_trim(r);
	if (!filled || !strchr(r, ' ')) {
		free(r);
		return NULL;
	}
	return r;
}

bool go_error_literal(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t open = i + 1;
	if (st->m[open] == NONE || t->v[i].len >= 64 ||
	    !go_error_type_name(t->src + t->v[i].off, t->v[i].len))
		return false;
	/* `func f() T {`, `case T{`... : a keyed element first */
	if (t->v[open + 1].kind != FL_TK_IDENT || fl_tok_pch(t, open + 2) != ':' ||
	    (i > 0 && (fl_tok_pch(t, i - 1) == ')' || fl_tok_is_ident(t, i - 1, "func"))))
		return false;
	const char *q = NULL;
	size_t ql = 0;
	if (i >= 2 && fl_tok_pch(t, i - 1) == '.' && t->v[i - 2].kind == FL_TK_IDENT) {
		q = t->src + t->v[i - 2].off;
		ql = t->v[i - 2].len;
	}
	char name[64];
	memcpy(name, t->src + t->v[i].off, t->v[i].len);
	name[t->v[i].len] = '\0';
	const gotmpl *tp = go_tmpl_find(st->tree, name, st->dir, q, ql);
	if (!tp)
		return false;
	gtval v[16];
	size_t nv = go_tmpl_fields(&st->kc, t, st->m, open, v, 16);
	bool filled;
	char *msg = go_tmpl_render(tp, v, nv, &filled);
	go_tmpl_vals_free(v, nv);
	fl_msg_trim(msg);
	char idiom[80];
	snprintf(idiom, sizeof idiom, "%s{...}", name);
	if (filled && strchr(msg, ' '))
		emit(st, q ? i - 2 : i, msg, NULL, name, FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
	free(msg);
	return true;
}

/* A call of one of the tree's format helpers at i (`name(` with the
 * qualifier of go_call): true when it was one (and is done with). */
static bool go_helper_call(go_st *st, size_t i, size_t at, const char *idiom)
{
	const fl_toks *t = st->t;
	const gotree *g = st->tree;
	if (!g || !g->n || t->v[i].len >= 64)
		return false;
	char name[64];
	memcpy(name, t->src + t->v[i].off, t->v[i].len);
	name[t->v[i].len] = '\0';
	bool qual = i >= 2 && fl_tok_pch(t, i - 1) == '.';
	const char *q = NULL;
	size_t ql = 0;
	bool chain = false;
	if (qual && t->v[i - 2].kind == FL_TK_IDENT && !(i >= 3 && fl_tok_pch(t, i - 3) == '.')) {
		q = t->src + t->v[i - 2].off;
		ql = t->v[i - 2].len;
	} else if (qual) {
		chain = true;
	} else if (i > 0 && (fl_tok_is_ident(t, i - 1, "func") ||
			     (fl_tok_pch(t, i - 1) == ')' && st->m[i - 1] != NONE &&
			      st->m[i - 1] > 0 && fl_tok_is_ident(t, st->m[i - 1] - 1, "func")))) {
		return false; /* its definition */
	}
	int sink = GS_NONE;
	const gohelp *h = go_helper(g, name, st->dir, q, ql, q && go_imported(&st->imps, q, ql),
				    chain, &sink, 0);
	if (!h || sink == GS_WEAK)
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = go_args(t, st->m, i + 1, sb, se);
	if (na <= h->fi)
		return true;
	bool lit = false;
	for (size_t k = sb[h->fi]; k < se[h->fi] && !lit; k++)
		lit = t->v[k].kind == FL_TK_STRING;
	if (!lit)
		return true;
	char *msg = go_arg_msg(st, sb, se, na, h->fi, !h->plain);
	if (msg && h->tt) {
		/* a maker of an error value: its type's text with the
		 * argument written in (no template: the argument alone) */
		msg = go_maker_msg(st, h, msg, sb, se, na);
		if (!msg)
			return true;
	}
	if (msg && h->plain && !strchr(msg, ' ')) {
		/* one word (w.error("nil")) is a key or a name, not a text */
		free(msg);
		return true;
	}
	if (msg && (h->pre || h->suf)) { /* the helper's own text around it */
		char *w = fl_xasprintf("%s%s%s", h->pre ? h->pre : "", msg, h->suf ? h->suf : "");
		free(msg);
		fl_msg_trim(w);
		msg = w;
	}
	bool warn = strncasecmp(name, "warn", 4) == 0 || strstr(name, "Warn");
	if (msg && sink == GS_ERR) {
		char *cls = go_sentinel(st, at);
		char sid[112];
		snprintf(sid, sizeof sid, "sentinel %s", idiom);
		emit(st, at, msg, NULL, cls ? cls : h->tt, FL_T_EXCEPTION, FL_S_ERROR, 0, cls ? sid : idiom);
		free(cls);
	} else if (msg) {
		emit(st, at, msg, NULL, NULL, sink == GS_PANIC ? FL_T_PANIC : FL_T_CONSOLE,
		     sink == GS_CONSOLE ? (warn ? FL_S_WARNING : FL_S_ERROR) : FL_S_CRITICAL, 0,
		     idiom);
	}
	free(msg);
	return true;
}

/* a call `name(` at token i (name is an identifier, i+1 is '(') */
void go_call(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	bool qual = i >= 2 && fl_tok_pch(t, i - 1) == '.';
	bool simple = qual && t->v[i - 2].kind == FL_TK_IDENT &&
		      !(i >= 3 && fl_tok_pch(t, i - 3) == '.');
	size_t at = simple ? i - 2 : i;
	if (at == st->consumed)
		return;
	char idiom[96];
	if (simple)
		snprintf(idiom, sizeof idiom, "%.*s.%.*s", (int)t->v[i - 2].len > 40 ? 40 : (int)t->v[i - 2].len,
			 t->src + t->v[i - 2].off, (int)t->v[i].len > 40 ? 40 : (int)t->v[i].len,
			 t->src + t->v[i].off);
	else
		snprintf(idiom, sizeof idiom, "%s%.*s", qual ? "." : "",
			 (int)t->v[i].len > 40 ? 40 : (int)t->v[i].len, t->src + t->v[i].off);
	if (go_helper_call(st, i, at, idiom))
		return;
	if (!in_list(t, i, go_callees) && !in_list(t, i, logger_methods))
		return;
	const char *pkg = NULL;
	char pkgbuf[16];
	for (size_t a = 0; simple && a < st->nal; a++) {
		const fl_tok *x = &t->v[st->al[a].tok];
		if (x->len == t->v[i - 2].len &&
		    memcmp(t->src + x->off, t->src + t->v[i - 2].off, x->len) == 0)
			pkg = st->al[a].canon;
	}
	if (!pkg && simple && t->v[i - 2].len < sizeof pkgbuf) {
		memcpy(pkgbuf, t->src + t->v[i - 2].off, t->v[i - 2].len);
		pkgbuf[t->v[i - 2].len] = '\0';
		pkg = pkgbuf;
	}
	if (!qual) {
		if (i > 0 && fl_tok_is_ident(t, i - 1, "func"))
			return;
		if (!fl_tok_is(t, i, "panic")) {
			/* within the framework itself: NewHTTPError(code, "...") */
			size_t n = fl_tok_is(t, i, "NewHTTPError") ? go_args(t, st->m, i + 1, sb, se) : 0;
			if (n)
				go_http_error_ctor(st, i, i, sb, se, n, idiom);
			return;
		}
		if (go_args(t, st->m, i + 1, sb, se) != 1)
			return;
		char *msg = go_msg(&st->kc, t, st->m, sb[0], se[0], false, 0);
		if (msg && se[0] - sb[0] > 3 && fl_tok_pch(t, sb[0] + 3) == '(')
			st->consumed = sb[0];
		emit(st, i, msg, NULL, NULL, FL_T_PANIC, FL_S_CRITICAL, 0, "panic");
		free(msg);
		return;
	}
	size_t na = go_args(t, st->m, i + 1, sb, se);
	if (!na)
		return;
	if (go_http_error_ctor(st, i, at, sb, se, na, idiom) ||
	    go_http_response(st, i, at, sb, se, na, idiom))
		return;
	if (pkg && (!strcmp(pkg, "errors") || !strcmp(pkg, "fmt"))) {
		bool isfmt = !strcmp(pkg, "fmt");
		size_t ai;
		bool f;
		if (fl_tok_is(t, i, "New") && !isfmt)
			ai = 0, f = false;
		else if (fl_tok_is(t, i, "Errorf"))
			ai = 0, f = true;
		else if (!isfmt && (fl_tok_is(t, i, "Wrap") || fl_tok_is(t, i, "WithMessage")))
			ai = 1, f = false;
		else if (!isfmt && (fl_tok_is(t, i, "Wrapf") || fl_tok_is(t, i, "WithMessagef")))
			ai = 1, f = true;
		else if (isfmt && go_stderr_print(st, at, i, sb, se, na, idiom))
			return;
		else
			return;
		if (na <= ai)
			return;
		char *msg = go_arg_msg(st, sb, se, na, ai, f);
		if (msg) {
			/* var ErrX = errors.New("..."): a sentinel value */
			char *cls = go_sentinel(st, at);
			char sid[112];
			snprintf(sid, sizeof sid, "sentinel %s", idiom);
			emit(st, at, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, 0,
			     cls ? sid : idiom);
			free(cls);
		}
		free(msg);
		return;
	}
	if (pkg && !strcmp(pkg, "log") &&
	    (fl_tok_is(t, i, "Fatal") || fl_tok_is(t, i, "Fatalf") ||
	     fl_tok_is(t, i, "Fatalln") || fl_tok_is(t, i, "Panic") ||
	     fl_tok_is(t, i, "Panicf") || fl_tok_is(t, i, "Panicln"))) {
		bool panic = t->src[t->v[i].off] == 'P';
		char *msg = go_ends_f(t, i) ? go_arg_msg(st, sb, se, na, 0, true)
					 : go_print_msg(&st->kc, t, st->m, sb, se, na,
							t->src[t->v[i].off + t->v[i].len - 1] == 'n');
		emit(st, at, msg, NULL, NULL, panic ? FL_T_PANIC : FL_T_CONSOLE,
		     FL_S_CRITICAL, 0, idiom);
		free(msg);
		return;
	}
	if (pkg && !strcmp(pkg, "http")) {
		if (!fl_tok_is(t, i, "Error") || na < 3)
			return;
		char *msg = go_msg(&st->kc, t, st->m, sb[1], se[1], false, 0);
		int code = go_http_status(t, sb[2], se[2]);
		emit(st, at, msg, NULL, NULL, FL_T_HTTP,
		     code >= 400 && code < 500 ? FL_S_WARNING : FL_S_ERROR, code, idiom);
		free(msg);
		return;
	}
	if (pkg && !strcmp(pkg, "status")) {
		bool f = fl_tok_is(t, i, "Errorf") || fl_tok_is(t, i, "Newf");
		if (!(f || fl_tok_is(t, i, "Error") || fl_tok_is(t, i, "New")) || na < 2)
			return;
		char *code = go_grpc_code(t, sb[0], se[0]);
		char *msg = go_arg_msg(st, sb, se, na, 1, f);
		emit(st, at, msg, code, "status.Error", FL_T_EXCEPTION, FL_S_ERROR, 0, idiom);
		free(code);
		free(msg);
		return;
	}
	if (pkg && !strcmp(pkg, "slog")) {
		size_t ai = 0;
		const char *sev;
		if (fl_tok_is(t, i, "Error"))
			sev = FL_S_ERROR;
		else if (fl_tok_is(t, i, "Warn"))
			sev = FL_S_WARNING;
		else if (fl_tok_is(t, i, "ErrorContext"))
			sev = FL_S_ERROR, ai = 1;
		else if (fl_tok_is(t, i, "WarnContext"))
			sev = FL_S_WARNING, ai = 1;
		else
			return;
		if (na <= ai)
			return;
		size_t b = sb[ai], e = se[ai];
		char *msg = go_msg(&st->kc, t, st->m, b, e, false, 0);
		emit(st, at, msg, NULL, NULL, FL_T_CONSOLE, sev, 0, idiom);
		free(msg);
		return;
	}
	if (pkg && (!strcmp(pkg, "errors") || !strcmp(pkg, "fmt") || !strcmp(pkg, "status") ||
		    !strcmp(pkg, "strings") || !strcmp(pkg, "zap") || !strcmp(pkg, "codes")))
		return;
	/* zap / logrus / klog style loggers: x.Errorf("...") */
	if (!in_list(t, i, logger_methods))
		return;
	/* the message must be literal-based */
	bool lit = false;
	for (size_t k = sb[0]; k < se[0]; k++)
		if (t->v[k].kind == FL_TK_STRING) {
			lit = true;
			break;
		}
	if (!lit)
		return;
	const char *name = t->src + t->v[i].off;
	const char *type = FL_T_CONSOLE, *sev = FL_S_ERROR;
	if (name[0] == 'F')
		sev = FL_S_CRITICAL;
	else if (name[0] == 'W')
		sev = FL_S_WARNING;
	else if (name[0] == 'C')
		sev = FL_S_CRITICAL;
	else if (name[0] == 'P' || name[0] == 'D')
		type = FL_T_PANIC, sev = FL_S_CRITICAL;
	char *msg = go_arg_msg(st, sb, se, na, 0, go_ends_f(t, i));
	emit(st, at, msg, NULL, NULL, type, sev, 0, idiom);
	free(msg);
}
/* a call of a name starting in lower case at i: one of the tree's format
 * helpers (failf("..."), g.errorf("...")); true when it was one */
bool go_lower_call(go_st *st, size_t i)
{
	const fl_toks *t = st->t;
	bool simple = i >= 2 && fl_tok_pch(t, i - 1) == '.' && t->v[i - 2].kind == FL_TK_IDENT &&
		      !(i >= 3 && fl_tok_pch(t, i - 3) == '.');
	size_t at = simple ? i - 2 : i;
	if (at == st->consumed)
		return false;
	char idiom[96];
	int nl = t->v[i].len > 40 ? 40 : (int)t->v[i].len;
	if (simple)
		snprintf(idiom, sizeof idiom, "%.*s.%.*s",
			 t->v[i - 2].len > 40 ? 40 : (int)t->v[i - 2].len,
			 t->src + t->v[i - 2].off, nl, t->src + t->v[i].off);
	else
		snprintf(idiom, sizeof idiom, "%s%.*s", fl_tok_pch(t, i - 1) == '.' ? "." : "", nl,
			 t->src + t->v[i].off);
	return go_helper_call(st, i, at, idiom);
}

