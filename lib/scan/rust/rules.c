/*
 * rules.c — the Rust family's error-site rules by idiom (rust.h), tried at
 * an identifier followed by '!', '(' or '::' and at a method call's '.'
 * (rs_rule_call dispatches): panic!-family, assert!-family with a message,
 * anyhow / eyre macros, eprintln! and the log crates' error! / warn!;
 * .context() / .with_context() / .wrap_err(), .expect(), x.ok_or("..."),
 * .map_err(|e| format!(...)), XError::new / io::Error::other, E::custom,
 * Err("..."); compiler-style diagnostics builders (struct_span_err!,
 * .span_err, Diagnostic::new), shell errors and warnings, warnings.push /
 * errors.push; axum's rejections (#[status] #[body]).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rust.h"

static const char *const panic_macros[] = {"panic", "unreachable", "todo",
					   "unimplemented", NULL};
static const char *const assert1[] = {"assert", "debug_assert", NULL};
static const char *const assert2[] = {"assert_eq", "assert_ne", "debug_assert_eq",
				      "debug_assert_ne", NULL};
static const char *const exc0[] = {"bail", "anyhow", "format_err", "eyre", NULL};

int rs_macro_family(const fl_toks *t, size_t i, size_t *ai)
{
	*ai = 0;
	if (rs_in_list(t, i, panic_macros))
		return 0;
	if (rs_in_list(t, i, assert1))
		return *ai = 1, 0;
	if (rs_in_list(t, i, assert2))
		return *ai = 2, 0;
	if (rs_in_list(t, i, exc0))
		return 1;
	if (fl_tok_is(t, i, "ensure"))
		return *ai = 1, 1;
	if (fl_tok_is(t, i, "eprintln") || fl_tok_is(t, i, "eprint"))
		return 2; /* what the program prints on its standard error */
	if (fl_tok_is(t, i, "error") || fl_tok_is(t, i, "warn"))
		return 3; /* the log and tracing crates' error!/warn! */
	return -1;
}

/* Whether the scan is in an error's branch of its function: a match arm
 * `Err(..) =>` (or `Err(..) if c =>`), or the block of `if let Err(..) =
 * x` (three levels at most). */
static bool in_err_branch(const rs_st *st)
{
	const fl_toks *t = st->t;
	for (size_t k = st->csn, up = 0; k-- > 0 && up < 3; up++) {
		const rs_ctx *x = &st->cs[k];
		size_t b = NONE;
		if (x->is_match && x->arm == 1)
			b = x->ab;
		else if (x->has_guard && x->guard_arm)
			b = x->gb;
		else if (x->has_guard && !x->neg && x->gb + 1 < x->ge && fl_tok_is_ident(t, x->gb, "let"))
			b = x->gb + 1;
		if (b != NONE && b + 1 < t->n && fl_tok_is_ident(t, b, "Err") && fl_tok_pch(t, b + 1) == '(')
			return true;
		if (x->fn_tok && (k == 0 || st->cs[k - 1].fn_tok != x->fn_tok))
			break; /* the function's own block */
	}
	return false;
}

/* The one literal of argument [b, e) of a few tokens: "[bat error]",
 * Red.paint("[bat error]"), "x".red(); NULL when it has none or two. */
static char *tag_literal(const rs_st *st, size_t b, size_t e)
{
	const fl_toks *t = st->t;
	if (e <= b || e - b > 8)
		return NULL;
	size_t lit = NONE;
	for (size_t k = b; k < e; k++)
		if (t->v[k].kind == FL_TK_STRING) {
			if (lit != NONE)
				return NULL;
			lit = k;
		}
	return lit == NONE ? NULL : rs_msg(t, st->m, lit, lit + 1, false, 0);
}

/* println!/print!/writeln!/write! at i that reports: in an error's branch
 * (bat's `if let Err(err) = res { println!("Failed to load one or more
 * themes from '{}' (reason: '{}')", ..) }`), or whose text starts with a
 * tag saying error or warning given as its first argument
 * (`writeln!(output, "{}: Error while parsing metadata.yaml file: {}",
 * Red.paint("[bat error]"), error)`).  True when it was one. */
static bool rule_print(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	bool wr = fl_tok_is(t, i, "writeln") || fl_tok_is(t, i, "write");
	if (!wr && !fl_tok_is(t, i, "println") && !fl_tok_is(t, i, "print"))
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, i + 2, sb, se);
	size_t fa = wr ? 1 : 0;
	if (na <= fa || se[fa] != sb[fa] + 1 || t->v[sb[fa]].kind != FL_TK_STRING)
		return false;
	char *msg = rs_msg(t, st->m, sb[fa], se[fa], true, 0);
	if (!msg)
		return false;
	const char *sev = NULL;
	char *tag = strncmp(msg, "{}", 2) == 0 && na > fa + 1 ? tag_literal(st, sb[fa + 1], se[fa + 1]) : NULL;
	if (tag && (fl_memmem(tag, strlen(tag), "error", 5) || fl_memmem(tag, strlen(tag), "Error", 5) ||
		    fl_memmem(tag, strlen(tag), "warning", 7) || fl_memmem(tag, strlen(tag), "Warning", 7))) {
		char *m = fl_xjoin(tag, "", msg + 2);
		sev = fl_memmem(tag, strlen(tag), "arning", 6) ? FL_S_WARNING : FL_S_ERROR;
		free(msg);
		msg = m;
	} else if (in_err_branch(st)) {
		sev = fl_print_severity(msg);
	}
	free(tag);
	if (sev) {
		char idiom[16];
		snprintf(idiom, sizeof idiom, "%.*s!", (int)t->v[i].len, t->src + t->v[i].off);
		rs_emit_guarded(st, i, msg, NULL, FL_T_CONSOLE, sev, idiom, NULL);
	}
	free(msg);
	return sev != NULL;
}

static void rule_macro(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t open = i + 2;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t ai;
	int which = rs_macro_family(t, i, &ai);
	if (which < 0 && st->cs[st->csn - 1].display &&
	    (fl_tok_is(t, i, "write") || fl_tok_is(t, i, "writeln"))) {
		rs_display_writes(st, i, "impl Display write!");
		return;
	}
	if (which < 0) {
		if (!rule_print(st, i))
			rs_rule_macro_reporter(st, i);
		return;
	}
	size_t na = rs_args(t, st->m, open, sb, se);
	if (which == 3) {
		/* the format string: the first literal argument, after a
		 * `target: "..."` or tracing's fields (`path = %p,`) */
		ai = NONE;
		for (size_t k = 0; k < na && ai == NONE; k++)
			if (se[k] - sb[k] == 1 && t->v[sb[k]].kind == FL_TK_STRING)
				ai = k;
		if (ai == NONE)
			return;
	}
	if (na <= ai)
		return;
	/* the format string must be a literal (or format!/concat! of one:
	 * bail!(format!("...")) formats once, in the inner macro) */
	size_t b = sb[ai], e = se[ai];
	bool inner = e - b >= 4 && t->v[b].kind == FL_TK_IDENT && fl_tok_pch(t, b + 1) == '!' &&
		     fl_tok_is(t, b, "format") && fl_tok_is_opener(t, b + 2) &&
		     st->m[b + 2] == e - 1 && t->v[b + 3].kind == FL_TK_STRING;
	char *msg = NULL;
	if (which >= 2 && !(e - b == 1 && t->v[b].kind == FL_TK_STRING))
		return; /* eprintln!'s and error!'s format is a literal */
	if (!(e - b == 1 && t->v[b].kind == FL_TK_STRING) && !inner &&
	    !(fl_tok_is(t, b, "concat") && fl_tok_pch(t, b + 1) == '!')) {
		/* bail!(msg) after let msg = format!("..."): one argument */
		if (na != ai + 1 || !((msg = rs_var_msg(st, b, e)) || (msg = rs_call_text(st, b, e)))) {
			if (st->part) /* bail!(msg) of a parameter msg */
				rs_note_param_reporter(st, i, which, sb, se, na, ai);
			return;
		}
	} else {
		msg = rs_msg(t, st->m, b, e, !inner, 0);
	}
	char idiom[40];
	size_t l = t->v[i].len < 30 ? t->v[i].len : 30;
	memcpy(idiom, t->src + t->v[i].off, l);
	idiom[l] = '!';
	idiom[l + 1] = '\0';
	/* an assertion fires when its condition is false (assert!, ensure!)
	 * or its two values compare unequal (assert_eq!) or equal
	 * (assert_ne!) */
	char *g = NULL;
	if (which != 3 && ai == 1) {
		char *cond = fl_tok_span_text(t, sb[0], se[0], 200);
		g = fl_guard_not(cond, false);
		free(cond);
	} else if (which != 3 && ai == 2) {
		char *a = fl_tok_span_text(t, sb[0], se[0], 100);
		char *b2 = fl_tok_span_text(t, sb[1], se[1], 100);
		bool ne = t->v[i].len >= 2 &&
			  memcmp(t->src + t->v[i].off + t->v[i].len - 2, "ne", 2) == 0;
		g = fl_xasprintf("%s %s %s", a, ne ? "==" : "!=", b2);
		free(a);
		free(b2);
	}
	if (which == 2 && st->part && na == 2)
		rs_note_reporter(st, i, msg, sb[1], se[1]);
	if (st->part)
		rs_note_param_reporter(st, i, which, sb, se, na, ai);
	if (which == 0) {
		rs_emit_guarded(st, i, msg, NULL, FL_T_PANIC, FL_S_CRITICAL, idiom, g);
	} else if (which == 2) {
		/* a warning when the text says so; a format of placeholders
		 * alone (eprintln!("{}", e)) has no text: rs_emit drops it */
		rs_emit_guarded(st, i, msg, NULL, FL_T_CONSOLE, fl_print_severity(msg), idiom, g);
	} else if (which == 3) {
		rs_emit_guarded(st, i, msg, NULL, FL_T_CONSOLE,
				t->src[t->v[i].off] == 'e' ? FL_S_ERROR : FL_S_WARNING, idiom, g);
	} else {
		rs_emit_guarded(st, i, msg, NULL, FL_T_EXCEPTION, FL_S_ERROR, idiom,
				g ? g : rs_closure_recv_guard(st, i));
	}
	free(msg);
}

/* The body of the closure [*b, *e) (`|| x`, `move |e| { x }`): narrowed
 * to x; false when it is no closure. */
static bool closure_body(const rs_st *st, size_t *b, size_t *e)
{
	const fl_toks *t = st->t;
	size_t k = *b;
	if (fl_tok_is_ident(t, k, "move"))
		k++;
	if (fl_tok_is_punct(t, k, "||"))
		k++;
	else if (fl_tok_is_punct(t, k, "|") && k + 2 < *e && fl_tok_is_punct(t, k + 2, "|"))
		k += 3;
	else
		return false;
	*b = k;
	if (k + 2 <= *e && fl_tok_pch(t, k) == '{' && st->m[k] == *e - 1) {
		*b = k + 1;
		(*e)--;
	}
	return true;
}

/* The idiom of the method call at the '.' i: ".context", ".ok_or" */
static void method_idiom(const fl_toks *t, size_t i, char out[24])
{
	size_t l = t->v[i + 1].len < 20 ? t->v[i + 1].len : 20;
	out[0] = '.';
	memcpy(out + 1, t->src + t->v[i + 1].off, l);
	out[l + 1] = '\0';
}

/* anyhow/eyre context: x.context("..."), x.with_context(|| format!("...")),
 * x.wrap_err(...); and warnings printed through a shell/logger object:
 * x.warn("..."), at the '.' i */
static void rule_context(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (rs_args(t, st->m, i + 2, sb, se) != 1)
		return;
	size_t b = sb[0], e = se[0];
	bool closure = fl_tok_is_ident(t, i + 1, "with_context") ||
		       fl_tok_is_ident(t, i + 1, "wrap_err_with");
	if (closure && !closure_body(st, &b, &e))
		return;
	char *msg = rs_lit_expr(t, st->m, b, e) ? rs_msg(t, st->m, b, e, false, 0)
		    : closure			  ? NULL
						  : rs_var_msg(st, b, e);
	if (!msg)
		return;
	char idiom[24];
	method_idiom(t, i, idiom);
	if (fl_tok_is_ident(t, i + 1, "warn")) {
		rs_emit(st, i + 1, msg, NULL, NULL, FL_T_CONSOLE, FL_S_WARNING, idiom, NONE, NONE);
	} else {
		/* the context is added when the receiver fails */
		rs_emit_guarded(st, i + 1, msg, NULL, FL_T_EXCEPTION, FL_S_ERROR, idiom,
				rs_recv_guard(st, rs_receiver(st, i), i, false));
	}
	free(msg);
}

/* ... XError::new(...) / io::Error::other(...) at the Error ident i */
static void rule_error_new(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t start = i;
	for (int s = 0; s < 8 && start >= 2 && fl_tok_is_punct(t, start - 1, "::") &&
			t->v[start - 2].kind == FL_TK_IDENT;
	     s++)
		start -= 2;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, i + 3, sb, se);
	if (!na)
		return;
	char *msg = NULL;
	bool other = fl_tok_is(t, i + 2, "other");
	size_t a = !other && na >= 2 ? 1 : na == 1 ? 0 : NONE;
	/* X::new(format!(..), definition): the message first, the other
	 * argument a value (io::Error::new(kind, msg) has it second) */
	if (a == 1 && !rs_lit_expr(t, st->m, sb[1], se[1]) && rs_lit_expr(t, st->m, sb[0], se[0]))
		a = 0;
	if (a != NONE) {
		msg = rs_msg(t, st->m, sb[a], se[a], false, 0);
		if (!msg) /* io::Error::new(kind, msg) after let msg = "..." */
			msg = rs_var_msg(st, sb[a], se[a]);
	}
	if (msg) {
		char *cls = fl_tok_span_text(t, start, i + 1, 200);
		char *idiom = fl_xasprintf("%s::%.*s", cls, (int)t->v[i + 2].len,
					   t->src + t->v[i + 2].off);
		/* x.ok_or_else(|| io::Error::new(...)): raised when x fails */
		rs_emit_guarded(st, start, msg, cls, FL_T_EXCEPTION, FL_S_ERROR, idiom, rs_closure_recv_guard(st, start));
		free(cls);
		free(idiom);
	}
	free(msg);
}

/* `#[name = value]` at '#' i: the value's token, or NONE */
static size_t attr_value(const rs_st *st, size_t i, const char *name)
{
	const fl_toks *t = st->t;
	if (fl_tok_pch(t, i) != '#' || fl_tok_pch(t, i + 1) != '[' || st->m[i + 1] != i + 5 ||
	    !fl_tok_is_ident(t, i + 2, name) || fl_tok_pch(t, i + 3) != '=')
		return NONE;
	return i + 4;
}

/* the status of `#[status = NAME]` at '#' i (0: an unknown name), or -1
 * when it is another attribute */
static int attr_status(const rs_st *st, size_t i)
{
	size_t v = attr_value(st, i, "status");
	if (v == NONE || st->t->v[v].kind != FL_TK_IDENT)
		return -1;
	return fl_http_status_by_name(st->t->src + st->t->v[v].off, st->t->v[v].len);
}

/* axum's rejections: `#[status = UNPROCESSABLE_ENTITY] #[body = "..."]`
 * on a `struct Name` in a define_rejection! (the response's status and
 * body), at the body attribute '#' i */
void rs_rule_status_body(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t body = attr_value(st, i, "body");
	if (body == NONE || t->v[body].kind != FL_TK_STRING)
		return;
	/* the attributes around it: a status, then the struct they are on */
	int status = 0;
	size_t a = i;
	for (int s = 0; s < 8 && a >= 2 && fl_tok_pch(t, a - 1) == ']'; s++) {
		size_t open = st->m[a - 1];
		if (open == NONE || open == 0 || fl_tok_pch(t, open - 1) != '#')
			break;
		a = open - 1;
		int v = attr_status(st, a);
		if (v >= 0)
			status = v;
	}
	size_t k = st->m[i + 1] + 1;
	for (int s = 0; s < 8 && fl_tok_pch(t, k) == '#' && fl_tok_pch(t, k + 1) == '[' &&
			st->m[k + 1] != NONE;
	     s++) {
		int v = attr_status(st, k);
		if (v >= 0)
			status = v;
		k = st->m[k + 1] + 1;
	}
	if (status < 400 || status > 599)
		return;
	if (fl_tok_is_ident(t, k, "pub"))
		k += fl_tok_pch(t, k + 1) == '(' && st->m[k + 1] != NONE ? st->m[k + 1] - k + 1 : 1;
	if (!fl_tok_is_ident(t, k, "struct") || t->v[k + 1].kind != FL_TK_IDENT)
		return;
	char *msg = fl_xstrdup(fl_tok_str(t, &t->v[body]));
	char *cls = fl_tok_dup(t, k + 1);
	fl_site site = {.line = t->v[body].line, .col = t->v[body].col, .message = msg,
			.cls = cls, .type = FL_T_HTTP, .severity = fl_http_severity(status),
			.http = status, .function = cls, .idiom = "class attribute #[body]"};
	if (st->out)
		fl_site_add(st->out, &site);
	free(cls);
	free(msg);
}

/* ---- diagnostics builders and collected warnings ------------------------------
 * Compiler-style diagnostics: `struct_span_err!(sess, sp, E0599, "no
 * method named `{}`", n)`, `sess.span_err(sp, "...")`,
 * `handler.struct_warn("...")`, `Diagnostic::new(Level::Error, "...")`;
 * and messages pushed to a list of warnings or errors: `warnings.push(msg)`.
 * The severity is the builder's word (warn, fatal, bug: else error). */

static const char *const diag_methods[] = {
	"span_err", "struct_err", "struct_span_err", "span_warn", "struct_warn",
	"struct_span_warn", "span_fatal", "struct_fatal", "struct_span_fatal",
	"span_bug", "span_err_with_code", "struct_span_err_with_code",
	"span_warn_with_code", "struct_span_warn_with_code", "err", "warn_with_code",
	NULL};

static const char *diag_sev(const fl_toks *t, size_t i)
{
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	if (fl_memmem(s, n, "warn", 4))
		return FL_S_WARNING;
	if (fl_memmem(s, n, "fatal", 5) || fl_memmem(s, n, "bug", 3))
		return FL_S_CRITICAL;
	return FL_S_ERROR;
}

/* An error code argument: E0599. */
static bool diag_code(const fl_toks *t, size_t b, size_t e)
{
	if (e != b + 1 || t->v[b].kind != FL_TK_IDENT || t->v[b].len != 5 ||
	    t->src[t->v[b].off] != 'E')
		return false;
	for (int k = 1; k < 5; k++) {
		char d = t->src[t->v[b].off + k];
		if (d < '0' || d > '9')
			return false;
	}
	return true;
}

/* The diagnostic whose arguments open at `open`: its message is the first
 * argument that is a literal (after the session, span and code). */
static void diag_emit(rs_st *st, size_t at, size_t open, const char *sev, const char *idiom)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, open, sb, se);
	char *code = NULL, *msg = NULL;
	for (size_t k = 0; k < na && !msg; k++) {
		if (diag_code(t, sb[k], se[k])) {
			free(code);
			code = fl_tok_dup(t, sb[k]);
		} else if (t->v[sb[k]].kind == FL_TK_STRING && se[k] - sb[k] == 1) {
			msg = rs_msg(t, st->m, sb[k], se[k], true, 0);
		} else if (rs_lit_expr(t, st->m, sb[k], se[k])) {
			msg = rs_msg(t, st->m, sb[k], se[k], false, 0);
		}
	}
	if (msg)
		rs_emit(st, at, msg, code, NULL, FL_T_CONSOLE, sev, idiom, NONE, NONE);
	free(msg);
	free(code);
}

/* struct_span_err!(...) and the like, at the macro's name i */
static bool rule_diag_macro(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	const char *s = t->src + t->v[i].off;
	size_t n = t->v[i].len;
	bool diag = (n > 8 && memcmp(s, "struct_", 7) == 0 &&
		     (fl_memmem(s, n, "_err", 4) || fl_memmem(s, n, "_warn", 5))) ||
		    fl_tok_is(t, i, "span_err") || fl_tok_is(t, i, "span_warn") ||
		    fl_tok_is(t, i, "span_fatal") || fl_tok_is(t, i, "span_bug");
	if (!diag)
		return false;
	char idiom[48];
	snprintf(idiom, sizeof idiom, "%.*s!", (int)(n > 40 ? 40 : n), s);
	diag_emit(st, i, i + 2, diag_sev(t, i), idiom);
	return true;
}

/* x.span_err(sp, "..."), Diagnostic::new(Level::Error, "..."),
 * Diagnostic::spanned(sp, Level::Warning, "..."), warnings.push(msg), at the
 * '.' or the type's identifier i */
static bool rule_diag_call(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if (fl_tok_pch(t, i) == '.' && t->v[i + 1].kind == FL_TK_IDENT &&
	    fl_tok_pch(t, i + 2) == '(') {
		if (rs_in_list(t, i + 1, diag_methods) &&
		    !(fl_tok_is(t, i + 1, "err") && !(i > 0 && (fl_tok_is(t, i - 1, "handler") ||
								 fl_tok_is(t, i - 1, "dcx") ||
								 fl_tok_is(t, i - 1, "sess"))))) {
			char idiom[48];
			snprintf(idiom, sizeof idiom, ".%.*s",
				 (int)(t->v[i + 1].len > 40 ? 40 : t->v[i + 1].len),
				 t->src + t->v[i + 1].off);
			diag_emit(st, i + 1, i + 2, diag_sev(t, i + 1), idiom);
			return true;
		}
		/* shell.error(...), config.shell().error(format!(...)): the
		 * terminal's error line (its warn is rule_context's) */
		if (fl_tok_is(t, i + 1, "error") && i > 0 &&
		    (fl_tok_is(t, i - 1, "shell") ||
		     (fl_tok_pch(t, i - 1) == ')' && i >= 3 && fl_tok_pch(t, i - 2) == '(' &&
		      fl_tok_is(t, i - 3, "shell")))) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			if (rs_args(t, st->m, i + 2, sb, se) != 1)
				return true;
			char *msg = rs_arg_msg(st, sb[0], se[0]);
			rs_emit(st, i + 1, msg, NULL, NULL, FL_T_CONSOLE, FL_S_ERROR, ".error", NONE, NONE);
			free(msg);
			return true;
		}
		/* warnings.push(msg), self.errors.push(format!(...)) */
		if (fl_tok_is(t, i + 1, "push") && i > 0 && t->v[i - 1].kind == FL_TK_IDENT &&
		    (fl_tok_is(t, i - 1, "warnings") || fl_tok_is(t, i - 1, "errors"))) {
			size_t sb[MAX_ARGS], se[MAX_ARGS];
			if (rs_args(t, st->m, i + 2, sb, se) != 1)
				return true;
			char *msg = rs_arg_msg(st, sb[0], se[0]);
			bool warn = fl_tok_is(t, i - 1, "warnings");
			size_t rb = rs_receiver(st, i);
			rs_emit(st, rb < i ? rb : i - 1, msg, NULL, NULL,
				warn ? FL_T_CONSOLE : FL_T_VALIDATION, warn ? FL_S_WARNING : FL_S_ERROR,
			     warn ? "warnings.push" : "errors.push", NONE, NONE);
			free(msg);
			return true;
		}
		return false;
	}
	/* Diagnostic::new(Level::Error, "...") / Diagnostic::spanned(sp, Level::Error, "...") */
	if (t->v[i].kind != FL_TK_IDENT || !fl_tok_is_punct(t, i + 1, "::") ||
	    fl_tok_pch(t, i + 3) != '(' ||
	    !(fl_tok_is(t, i, "Diagnostic") || fl_tok_is(t, i, "Diag")) ||
	    !(fl_tok_is(t, i + 2, "new") || fl_tok_is(t, i + 2, "spanned")))
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, i + 3, sb, se);
	const char *sev = NULL;
	for (size_t k = 0; k < na && !sev; k++)
		for (size_t q = sb[k]; q + 2 < se[k] + 1 && q + 2 < t->n; q++)
			if (fl_tok_is(t, q, "Level") && fl_tok_is_punct(t, q + 1, "::")) {
				sev = fl_tok_is(t, q + 2, "Warning") || fl_tok_is(t, q + 2, "Warn")
					      ? FL_S_WARNING
				      : fl_tok_is(t, q + 2, "Error") || fl_tok_is(t, q + 2, "Fatal") ||
						      fl_tok_is(t, q + 2, "Bug")
					      ? FL_S_ERROR
					      : NULL;
				break;
			}
	if (!sev)
		return true; /* a note or help: no error of its own */
	char idiom[48];
	snprintf(idiom, sizeof idiom, "%.*s::%.*s", (int)t->v[i].len, t->src + t->v[i].off,
		 (int)t->v[i + 2].len, t->src + t->v[i + 2].off);
	diag_emit(st, i, i + 3, sev, idiom);
	return true;
}

/* An error that is only a text, made when an Option or a Result fails:
 * x.ok_or("..."), x.ok_or_else(|| format!("...")), x.map_err(|e|
 * format!("...: {}", e)), at the '.' i; guarded by x's failure */
static void rule_text_error(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (rs_args(t, st->m, i + 2, sb, se) != 1)
		return;
	size_t b = sb[0], e = se[0];
	if (!fl_tok_is_ident(t, i + 1, "ok_or") && !closure_body(st, &b, &e))
		return;
	if (b >= e || !rs_lit_expr(t, st->m, b, e))
		return;
	char *msg = rs_msg(t, st->m, b, e, false, 0);
	if (!msg)
		return;
	char idiom[24];
	method_idiom(t, i, idiom);
	rs_emit_guarded(st, i + 1, msg, NULL, FL_T_EXCEPTION, FL_S_ERROR, idiom,
			rs_recv_guard(st, rs_receiver(st, i), i, !fl_tok_is_ident(t, i + 1, "map_err")));
	free(msg);
}

/* x.expect("...") at the '.' i */
static void rule_expect(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (rs_args(t, st->m, i + 2, sb, se) != 1)
		return;
	char *msg = rs_msg(t, st->m, sb[0], se[0], false, 0);
	if (msg) {
		size_t rb = rs_receiver(st, i);
		rs_emit(st, i + 1, msg, NULL, NULL, FL_T_PANIC, FL_S_CRITICAL, ".expect",
			rb < i ? rb : NONE, i);
	}
	free(msg);
}

/* proc-macro diagnostics: cx.error_spanned_by(x, "..."), at the '.' i */
static bool rule_error_method(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	if (!(t->v[i + 1].kind == FL_TK_IDENT && t->v[i + 1].len > 6 &&
	      memcmp(t->src + t->v[i + 1].off, "error_", 6) == 0 &&
	      !fl_tok_is(t, i + 1, "error_count") && !fl_tok_is(t, i + 1, "error_kind")))
		return false;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t na = rs_args(t, st->m, i + 2, sb, se);
	if (na >= 1 && na <= 3 && rs_lit_expr(t, st->m, sb[na - 1], se[na - 1])) {
		char *msg = rs_msg(t, st->m, sb[na - 1], se[na - 1], false, 0);
		char *idiom = fl_xasprintf(".%.*s", (int)(t->v[i + 1].len > 40 ? 40 : t->v[i + 1].len),
					   t->src + t->v[i + 1].off);
		rs_emit(st, i + 1, msg, NULL, NULL, FL_T_EXCEPTION, FL_S_ERROR, idiom, NONE, NONE);
		free(idiom);
		free(msg);
	}
	return true;
}

/* E::custom("...") of serde-style error traits, at `custom` i */
static void rule_custom(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	size_t b0 = i - 2;
	while (b0 >= 2 && fl_tok_is_punct(t, b0 - 1, "::") && t->v[b0 - 2].kind == FL_TK_IDENT)
		b0 -= 2;
	if (rs_args(t, st->m, i + 1, sb, se) != 1 ||
	    !(rs_lit_expr(t, st->m, sb[0], se[0]) ||
	      (se[0] - sb[0] >= 4 && fl_tok_is(t, sb[0], "format_args") &&
	       fl_tok_pch(t, sb[0] + 1) == '!' && st->m[sb[0] + 2] == se[0] - 1 &&
	       t->v[sb[0] + 3].kind == FL_TK_STRING)))
		return;
	char *msg = rs_msg(t, st->m, sb[0], se[0], false, 0);
	char *cls = fl_tok_span_text(t, b0, i - 1, 200);
	rs_emit(st, b0, msg, NULL, cls, FL_T_EXCEPTION, FL_S_ERROR, "Error::custom", NONE, NONE);
	free(cls);
	free(msg);
}

/* Err("...") / Err(msg) at `Err` i (not a pattern `Err(e) =>`) */
static void rule_err(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	size_t sb[MAX_ARGS], se[MAX_ARGS];
	if (rs_args(t, st->m, i + 1, sb, se) != 1)
		return;
	/* the conversion to the error type: Err(From::from(format!(...))),
	 * Err(Box::from(...)), Err(Box::new(...)), Err(anyhow::Error::msg(...)) */
	size_t b = sb[0], e = se[0];
	for (int n = 0; n < 2; n++) {
		size_t k = b;
		while (k + 2 < e && t->v[k].kind == FL_TK_IDENT && fl_tok_is_punct(t, k + 1, "::"))
			k += 2;
		if (k == b || k + 2 >= e || t->v[k].kind != FL_TK_IDENT || fl_tok_pch(t, k + 1) != '(' ||
		    st->m[k + 1] != e - 1 ||
		    !(fl_tok_is(t, k, "from") || fl_tok_is(t, k, "msg") ||
		      (fl_tok_is(t, k, "new") && fl_tok_is(t, k - 2, "Box"))))
			break;
		b = k + 2;
		e--;
	}
	char *msg = rs_msg(t, st->m, b, e, false, 0);
	if (!msg)
		msg = rs_var_msg(st, b, e);
	if (!msg)
		msg = rs_call_text(st, b, e);
	rs_emit(st, i, msg, NULL, NULL, FL_T_EXCEPTION, FL_S_ERROR, "Err", NONE, NONE);
	free(msg);
}

/* the rules that start at an identifier followed by '!', '(' or '::', or
 * at a '.' two tokens before a '(' */
void rs_rule_call(rs_st *st, size_t i)
{
	const fl_toks *t = st->t;
	const fl_tok *k = &t->v[i];
	char c = fl_tok_pch(t, i);
	const rs_ctx *top = &st->cs[st->csn - 1];
	if (k->len == 11 && fl_tok_is_ident(t, i, "macro_rules") && fl_tok_pch(t, i + 1) == '!') {
		rs_note_macro_reporter(st, i);
		return;
	}
	if (k->kind == FL_TK_IDENT && fl_tok_pch(t, i + 1) == '!' && fl_tok_is_opener(t, i + 2)) {
		if (!rule_diag_macro(st, i))
			rule_macro(st, i);
		return;
	}
	if (c == '.') {
		if (top->display && fl_tok_is_ident(t, i + 1, "write_str") && i > 0 &&
		    t->v[i - 1].kind == FL_TK_IDENT)
			rs_display_writes(st, i - 1, "impl Display write_str");
		else if (fl_tok_is_ident(t, i + 1, "expect"))
			rule_expect(st, i);
		else if (fl_tok_is_ident(t, i + 1, "ok_or") || fl_tok_is_ident(t, i + 1, "ok_or_else") ||
			 fl_tok_is_ident(t, i + 1, "map_err"))
			rule_text_error(st, i);
		else if (fl_tok_is_ident(t, i + 1, "context") ||
			 fl_tok_is_ident(t, i + 1, "with_context") ||
			 fl_tok_is_ident(t, i + 1, "wrap_err") ||
			 fl_tok_is_ident(t, i + 1, "wrap_err_with") ||
			 fl_tok_is_ident(t, i + 1, "warn"))
			rule_context(st, i);
		else if (!rule_error_method(st, i) && !rs_rule_reporter_method(st, i))
			rule_diag_call(st, i);
		return;
	}
	if (fl_tok_is(t, i, "custom") && i >= 2 && fl_tok_is_punct(t, i - 1, "::") &&
	    fl_tok_pch(t, i + 1) == '(' && (rs_ends_with_error(t, i - 2) || fl_tok_is(t, i - 2, "E"))) {
		rule_custom(st, i);
		return;
	}
	if (k->len == 3 && fl_tok_is_ident(t, i, "Err") && fl_tok_pch(t, i + 1) == '(' &&
	    !fl_tok_is_punct(t, st->m[i + 1] == NONE ? t->n : st->m[i + 1] + 1, "=>")) {
		rule_err(st, i);
		return;
	}
	if (fl_tok_is_punct(t, i + 1, "::") && rs_ends_with_error(t, i) &&
	    (fl_tok_is_ident(t, i + 2, "new") || fl_tok_is_ident(t, i + 2, "other") ||
	     fl_tok_is_ident(t, i + 2, "new_spanned")) &&
	    fl_tok_pch(t, i + 3) == '(') {
		rule_error_new(st, i);
		return;
	}
	if (fl_tok_is_punct(t, i + 1, "::") && rs_rule_variant(st, i))
		return;
	if (k->kind == FL_TK_IDENT && rs_rule_reporter_call(st, i))
		return;
	rule_diag_call(st, i);
}
