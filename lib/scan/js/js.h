/*
 * js.h — what the files of the JavaScript / TypeScript family share
 * (lib/scan/js/): the scan's context and its frames, token helpers, and
 * the functions one file of the family calls in another.
 *
 *   lex.c        the lexer
 *   holes.c      template holes that print a known text (a styled literal,
 *                a choice between literals)
 *   msg.c        messages built from argument tokens: literals, templates
 *                and concatenations, terminal styles around them
 *                (chalk.red(x)), both arms of `c ? 'a' : 'b'`,
 *                `[...].join('\n')`, util.format / sprintf, object
 *                literals (`{ message, code }`), messages held in a local
 *                (one text per branch; a const read into a template's
 *                holes); error codes, HTTP statuses, @fastify/error's
 *                createError('CODE', 'message', status)
 *   walk.c       the frames of the walk (the enclosing function and class,
 *                an if's or an else's block), a site's guard (its if, its
 *                switch's case), the emitting of a site, codes that are
 *                categories dropped; a statement's end, a construction
 *   classes.c    error classes with a default message (this.message =
 *                message || '...', super('...'), a message naming the
 *                constructor's parameters) and their sites, message
 *                templates of a messages/ folder (ESLint's
 *                `messageTemplate`), and the report of an error's
 *                construction (js_report_ctor: new X(...), createError,
 *                NestJS / Hono HTTP exceptions, Object.assign's code)
 *   factories.c  a project's error factories (createXError(...) called
 *                anywhere; the message they build, from the tree), its
 *                reporters (this.error(message) of a method that writes
 *                its parameter as an error and exits, found by what it
 *                does), and its factories of a message passed in (npm's
 *                `throw this.usageError('...')`)
 *   rules.c      the error-site rules by idiom: throw new X(..) / throw
 *                X(..) / throw "..", `const e = new X(..); e.code = '..';
 *                throw e`, an error handed on, Promise.reject / reject,
 *                res.status(N).send / .json, Node's assert, koa's ctx.throw
 *                and ctx.assert, console.error / console.warn,
 *                process.stderr.write, a project's logger, Hoek's assert,
 *                Boom, depd's deprecate; and js_rules, the walk over a
 *                file's tokens that keeps the frames and dispatches to them
 *   lang.c       the tree's collect pass, the scan of one file, and the
 *                family's entry in the language table
 */
#ifndef FL_SCAN_JS_H
#define FL_SCAN_JS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "../../util.h"
#include "../lang.h"
#include "../lex.h"

#define NONE ((size_t)-1)

/* identifier bytes: [A-Za-z_$], bytes >= 0x80, and digits after the first */
static inline bool fl_js_id_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == '$' || c >= 0x80;
}
static inline bool fl_js_id_char(int c)
{
	return fl_js_id_start(c) || (c >= '0' && c <= '9');
}

/* ---- the scan's state -------------------------------------------------------- */

/* a block of the walk (walk.c's js_push_frame) */
typedef struct frame {
	uint8_t kind; /* 0 block, 1 function, 2 class, 3 control */
	size_t name, cls;      /* function name / class token, or NONE */
	size_t gb, ge;         /* guard span, gb == NONE when none */
	bool neg;              /* an else's block: it runs when the guard
				  does not hold */
} frame;

/* one file's scan (and the collect pass's reading of a file) */
typedef struct ctx {
	fl_toks t;
	size_t *match;
	fl_sites *out;
	size_t out_base;  /* sites of this file start here in out */
	/* sites whose code came from a constructor argument (X.ERR_Y): index
	 * in out; such a code shared by different messages is a category and
	 * is dropped so the messages stay separate records */
	size_t *argc_v;
	size_t argc_n, argc_cap;
	bool arg_code;
	frame *fr;
	size_t nfr, capfr;
	uint8_t *used;
	const fl_classdefs *tree; /* error classes with a default message */
	bool hoek;                /* the file names @hapi/hoek (its Assert()) */
	char *guard;              /* the next site's own guard (an assertion's
				     failing condition); owned by its rule */
	const char *tpl;          /* the next error's message template name
				     (`err.messageTemplate = "name"`), or NULL */
	char **alt;               /* the other arm of a message `c ? 'a' : 'b'`
				     (js_msg_of), a second site at the next
				     js_emit(); owned by the rule walk */
	int choices;              /* template choices being expanded (js_emit) */
	struct lintab *lint;      /* the file's lint rule messages (lint.c),
				     read at its first report call */
} ctx;

/* an error class with a default message (classes.c) */
typedef struct jsclass {
	size_t name;       /* token of the class name */
	size_t at;         /* token where the message (or code) is set */
	char *msg, *code;  /* owned */
	char *params;      /* owned: the constructor's parameters, one per
			      line, when the message names one ("${feature}") */
	size_t tpl;        /* the string of `this.messageTemplate = "name"`,
			      or NONE */
} jsclass;

/* ---- token helpers ------------------------------------------------------------ */

static inline bool is_p(const ctx *c, size_t i, const char *s)
{
	return fl_tok_is_punct(&c->t, i, s);
}

static inline bool is_id(const ctx *c, size_t i, const char *s)
{
	return fl_tok_is_ident(&c->t, i, s);
}

static inline bool is_kind(const ctx *c, size_t i, int k)
{
	return fl_tok_is_kind(&c->t, i, k);
}

/* token i's text holds one of the words w (NULL-terminated) */
static inline bool js_name_has(const ctx *c, size_t i, const char *const *w)
{
	const char *s = c->t.src + c->t.v[i].off;
	size_t n = c->t.v[i].len;
	for (; *w; w++)
		if (fl_memmem(s, n, *w, strlen(*w)))
			return true;
	return false;
}

/* token i's text holds one of the lower-case words w (NULL-terminated),
 * in any case: one pass a word, no search set up (every name of a kind
 * is asked) */
static inline bool js_name_has_ci(const ctx *c, size_t i, const char *const *w)
{
	const char *s = c->t.src + c->t.v[i].off;
	size_t n = c->t.v[i].len;
	for (; *w; w++) {
		size_t l = strlen(*w);
		for (size_t k = 0; k + l <= n; k++)
			if ((s[k] | 0x20) == (*w)[0] && strncasecmp(s + k, *w, l) == 0)
				return true;
	}
	return false;
}

/* the arguments of the bracket at open (at most max) */
/* classes.c: the message of class (or factory key) cls, which names
 * parameters, with the call's arguments [s[k], e[k]) put in; NULL when it
 * names none.  Caller frees. */
char *js_compose_args(const ctx *c, const char *cls, const size_t *s, const size_t *e,
		      size_t na);
static inline size_t split_args(const ctx *c, size_t open, size_t *s, size_t *e,
				size_t max)
{
	return fl_tok_split_args(&c->t, c->match, open, s, e, max, NULL, 0);
}

/* an identifier ending in Error or Exception */
static inline bool errorish(const fl_toks *t, size_t k)
{
	const char *n = t->src + t->v[k].off;
	size_t l = t->v[k].len;
	return t->v[k].kind == FL_TK_IDENT &&
	       ((l >= 5 && memcmp(n + l - 5, "Error", 5) == 0) ||
		(l >= 9 && memcmp(n + l - 9, "Exception", 9) == 0));
}

/* ---- functions of one file called by another --------------------------------- */

/* lex.c */
/* Lex a JS / TS source into t (fl_toks_init done); jsx: JSX elements are
 * recognised (.js, .jsx, .tsx; not .ts). */
void fl_js_lex(fl_toks *t, bool jsx);

/* holes.c */
/* terminal style names (chalk.red, pc.bold...) */
extern const char *const fl_js_styles[];
/* msg with each hole `${style("text")}` replaced by its text; NULL when
 * it has none. */
char *fl_js_hole_unstyle(const char *msg);
/* The first hole `${c ? "x" : "y"}` choosing between two literals: msg
 * with each (malloc'd into *a, *b); false when there is none. */
bool fl_js_hole_choice(const char *msg, char **a, char **b);
/* msg with the braces inside its holes dropped (`${ v ? `${f(v)} ` : '' }`
 * kept whole, a choice not made a site of each arm): the records'
 * placeholder `${...}` ends at its first '}' (records.md), so a hole
 * stays one placeholder; NULL when none had any. */
char *fl_js_hole_flatten(const char *msg);

/* msg.c */
/* the keywords that declare a local: const, let, var */
extern const char *const js_decl[];
/* The message of [b, e), or NULL (with guards against pathological
 * inputs); caller frees. */
char *js_msg_of(const ctx *c, size_t b, size_t e);
/* The message of the object literal at open (its message / error / msg /
 * detail key); its code key into *code when code is not NULL and *code is
 * NULL. */
char *js_obj_message(const ctx *c, size_t open, char **code);
/* s looks like an error code: FST_ERR_X, ERR_BAD_REQUEST */
bool js_looks_code(const char *s);
/* an error code constant: ERR_X, ECONNRESET, ETIMEDOUT */
bool js_looks_code_name(const char *s, size_t n);
/* errorCode written as the argument [b, e) after a message: 'ERR_X' or
 * Klass.ERR_X, else NULL */
char *js_arg_code(const ctx *c, size_t b, size_t e);
/* The HTTP status of a NestJS exception (NotFoundException) or of
 * HttpStatus.X's name, else 0. */
int js_http_by_name(const char *n);
/* HTTP status of the expression [b, e): a number or HttpStatus.X */
int js_status_of(const ctx *c, size_t b, size_t e);
/* @fastify/error: createError('FST_ERR_X', 'message %s', status, Base)
 * at the '(' open: its message, code, status (0: none) and base class
 * (NULL: none), malloc'd; false when it is not that form. */
bool js_code_first_create(const ctx *c, size_t open, char **msg, char **code,
			  int *http, char **base);
/* msg with each hole `${name}` that names a local holding one text
 * replaced by that text; NULL when there is none. */
char *js_inline_locals(const ctx *c, size_t at, const char *msg);
/* The message of an assignment's expression [b, e) (fl_var_msg's reader;
 * ud is the ctx): not an object literal's. */
char *js_var_expr_msg(const void *ud, size_t b, size_t e);
/* message of a constructor argument: literals, templates, and a local
 * variable assigned one of those before (const msg = `...`; new Error(msg)) */
char *js_ctor_arg_msg(const ctx *c, size_t b, size_t e);
/* The texts a local variable passed as argument [b, e) holds when its
 * assignments differ by branch: appended to out (at most 4); how many. */
size_t js_ctor_arg_texts(const ctx *c, size_t b, size_t e, fl_strv *out);

/* rules.c: message tables */
#define JS_TABLE_MAX 2048 /* entries of a table at most */
/* The entries of a message table declared at i (`const NAME = {` with a
 * name that says errors or warnings, most values sentences): their key
 * tokens, value starts and ends into keys, vb, ve (JS_TABLE_MAX each);
 * *warn: its name says warnings.  How many; 0 when it is none. */
size_t js_msg_table(const ctx *c, size_t i, size_t *keys, size_t *vb, size_t *ve, bool *warn);
/* The same for a table of the program's texts by name (`const messages =
 * { noPackageJson: "Couldn't find a package.json file in $0", ... }`,
 * a name with "message" in it): yarn's reporter.lang() reads it. */
size_t js_text_table(const ctx *c, size_t i, size_t *keys, size_t *vb, size_t *ve);
/* msg.c: `reporter.lang('noPackageJson', dir)` [b, e), a translating call
 * given a name of the tree's tables of texts: the text, its $0, $1 ... the
 * arguments after the name; NULL when [b, e) is no such call. */
char *js_i18n_msg(const ctx *c, size_t b, size_t e);
/* a key written as a code: E_CONFIG, ERR_NO_FILE, E042 */
bool js_code_key(const char *s, size_t n);

/* lint.c */
/* A report call at i whose arguments open at open (`report({ message:
 * messages.rejected, ... })`, `context.report({ messageId: "x", ... })`)
 * that picks a text of the file's lint rule messages: its site.  True
 * when it is one. */
bool js_lint_report(ctx *c, size_t i, size_t open);
/* A call at i of a function of the file that reports its first argument
 * as a lint message (`complain(messages.rejected(v), node)`, its body
 * `report({ result, ruleName, message, node })`), given an entry of the
 * file's lint rule messages: its site.  True when it is one. */
bool js_lint_helper_call(ctx *c, size_t i);
void js_lint_free(ctx *c);

/* walk.c */
/* Token i is a keyword (if, return, new...) or no identifier: no
 * function's name. */
bool js_is_ctl_kw(const ctx *c, size_t i);
/* The block whose '{' is token i: its frame pushed (a function's, a
 * class's, an if's or an else's, else a plain block). */
void js_push_frame(ctx *c, size_t i);
/* The guard of a site at token at: the if around it, else its switch's
 * case; caller frees. */
char *js_guard_at(const ctx *c, size_t at, bool *early);
/* Add a site at token at (a second one for c->alt, one per choice of a
 * template's hole); none without a message or a code. */
void js_emit(ctx *c, size_t at, const char *msg, const char *code,
	     const char *cls, const char *type, const char *sev, int http,
	     const char *idiom);
/* drop argument codes shared by sites with different messages */
void js_drop_category_codes(ctx *c);
/* end of the expression statement starting at b */
size_t js_stmt_end(const ctx *c, size_t b);
/* a construct `new X(args)` or `X(args)` at i (i at `new` or at X);
 * fills cls token range; returns the '(' index or NONE. */
size_t js_ctor_at(const ctx *c, size_t i, size_t *cls);

/* classes.c */
/* Whether msg has a hole ${name} for a name of params (one per line). */
bool js_names_param(const char *msg, const char *params);
/* The class declared at token i (`class`), its default message and code,
 * or false. */
bool js_class_defaults(const ctx *c, size_t i, jsclass *jc);
/* NAME of a path .../messages/NAME.js, or false. */
bool js_tpl_file(const char *path, const char **name, size_t *len);
/* The texts of the templates file of a messages folder into the tree. */
void js_tpl_collect(fl_classdefs *tr, const ctx *c, const char *name, size_t len);
/* Each text of a messages file is a site: what the CLI prints. */
void js_tpl_sites(ctx *c, const char *name, size_t len);
/* A byte scan before lexing: a file that can declare an error class with
 * a default message, or make one with createError(). */
bool js_has_error_class(const char *s, size_t n);
/* The error constructed at clsi ('(' at open) as a site at token at:
 * its message, code, class and HTTP status. */
/* a class named for a warning (classes.c) */
bool js_warning_class(const char *cls);
void js_report_ctor(ctx *c, size_t at, size_t clsi, size_t open,
		    const char *idiom, const char *extra_code);
/* The error classes of the file are sites of their own. */
void js_class_sites(ctx *c);

/* msg.c: the value [*vb, *ve) of property key directly in the object
 * literal whose '{' is open */
bool js_obj_prop(const ctx *c, size_t open, const char *key, size_t *vb, size_t *ve);

/* factories.c */
/* `throw createUnsupportedError('...', ...)` at throw i (NAME at name, '('
 * at open): a project's error factory thrown with its message. */
void js_rule_throw_factory(ctx *c, size_t i, size_t name, size_t open);
/* A byte scan: `function NAME` with NAME a factory's name. */
bool js_has_factory_decl(const char *s, size_t n);
/* The message the factory declared at `function` token i builds, or NULL;
 * *name gets its name token. */
char *js_factory_msg(const ctx *c, size_t i, size_t *name);
/* A call at i of a project's error factory that is not thrown here: a
 * site with its argument's message, else the one the factory builds. */
bool js_rule_factory_call(ctx *c, size_t i);
/* A byte scan: the file can declare a factory of error objects (a
 * function that returns `{ code, message: ... }`). */
bool js_has_log_factory(const char *s, size_t n);
/* In collect: the factory of error objects declared at `function` token
 * i, into the tree ("ofac:NAME": its message, its code). */
void js_log_factory_collect(fl_classdefs *tr, const ctx *c, size_t i);
/* A call at i of a factory of error objects of the tree (rollup's
 * `this.error(errorMissingExport(name, id, exporter))`): a site of its
 * message, a warning when a warning's call is given it. */
bool js_rule_log_factory_call(ctx *c, size_t i);
/* A byte scan: the file can declare a reporter. */
bool js_has_reporter(const char *s, size_t n);
/* In collect: the reporter declared at i, into the tree ("rep:NAME"). */
void js_reporter_collect(fl_classdefs *tr, const ctx *c, size_t i);
/* In collect, after it: the function declared at i that hands a parameter
 * on to a reporter function as its message, a reporter too. */
bool js_reporter_forward(fl_classdefs *tr, const ctx *c, size_t i);
/* A byte scan: the file may declare a factory of a message passed in. */
bool js_has_pfactory(const char *s, size_t n);
/* In collect: the factory of a message passed in declared at i, into the
 * tree ("pfac:NAME"). */
void js_pfac_collect(fl_classdefs *tr, const ctx *c, size_t i);
/* `throw NAME(...)` / `throw this.NAME(...)` (self) of such a factory,
 * given a text, or `return NAME(...)` (verb "throw" or "return"): its
 * site.  True when it made one. */
bool js_pfac_call(ctx *c, size_t i, size_t name, size_t open, bool self, const char *verb);
/* A call at i ('(' at i + 1) of a reporter of the tree: `this.NAME(...)`
 * of a method (self), `NAME(...)` of a function.  True when it is one. */
bool js_rule_reporter_call(ctx *c, size_t i, bool self);

/* rules.c */
/* The walk over the file's tokens: the frames kept, the rules run at each
 * identifier. */
void js_rules(ctx *c);

#endif
