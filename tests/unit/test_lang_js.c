/* test_lang_js.c — unit tests for the JavaScript/TypeScript scanner. */
#include <stdlib.h>

#include "lang_harness.h"

extern const fl_lang fl_lang_js;

static fl_sites *scan(const char *path, const char *text)
{
	return harness_scan(&fl_lang_js, path, text);
}

static void test_throw_idioms(void **state)
{
	(void)state;
	fl_sites *s = scan("src/parser.js",
		"class Parser {\n"                                    /* 1 */
		"  parse(input) {\n"                                  /* 2 */
		"    if (!input) {\n"                                 /* 3 */
		"      throw new TypeError('input must be ' +\n"      /* 4 */
		"        'a string, got ' + typeof input);\n"         /* 5 */
		"    }\n"                                             /* 6 */
		"    throw new ParseError(`unexpected ${tok.value} at ${pos}`);\n" /* 7 */
		"  }\n"                                               /* 8 */
		"}\n"                                                 /* 9 */
		"function fail() { throw 'plain ' + \"string\"; }\n"  /* 10 */
		"const load = async (p) => {\n"                       /* 11 */
		"  return Promise.reject(new RangeError(\"out of range\"));\n" /* 12 */
		"};\n"                                                /* 13 */
		"new Promise((resolve, reject) => { reject(new Error('rejected')); });\n" /* 14 */
		"throw new Error(\"a\\tb\\u0041\\x42\\n\");\n"        /* 15 */
		"throw Boom('Capital call');\n");                     /* 16 */
	const fl_site *x = EXPECT_SITE(s, "input must be a string, got {input}", 4,
				       FL_T_EXCEPTION);
	assert_string_equal(x->cls, "TypeError");
	assert_string_equal(x->function, "Parser.parse");
	assert_string_equal(x->guard, "!input");
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_string_equal(x->idiom, "throw new");
	assert_int_equal(x->col, 7);
	x = EXPECT_SITE(s, "unexpected ${tok.value} at ${pos}", 7, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ParseError");
	assert_null(x->guard);
	x = EXPECT_SITE(s, "plain string", 10, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "Error");
	assert_string_equal(x->function, "fail");
	x = EXPECT_SITE(s, "out of range", 12, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "RangeError");
	assert_string_equal(x->function, "load");
	assert_string_equal(x->idiom, "Promise.reject");
	x = EXPECT_SITE(s, "rejected", 14, FL_T_EXCEPTION);
	assert_string_equal(x->idiom, "reject");
	EXPECT_SITE(s, "a\tbAB", 15, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "Capital call", 16, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "Boom");
	assert_int_equal(s->n, 7);
	fl_sites_free(s);
}

/* a message a helper of the file returns: `throw new Error(badValue(v))`
 * has the helper's text (a function, an arrow, a method called on this);
 * a helper of two texts, or one from elsewhere, gives none */
static void test_helper_texts(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/check.js",
		"function badValue(value) {\n"                        /* 1 */
		"  return `bad value ${value}`;\n"                    /* 2 */
		"}\n"                                                 /* 3 */
		"const badArrow = (v) => 'bad arrow ' + v;\n"         /* 4 */
		"function twoTexts(v) {\n"                            /* 5 */
		"  if (v) return 'first text';\n"                     /* 6 */
		"  return 'second text';\n"                           /* 7 */
		"}\n"                                                 /* 8 */
		"class Store {\n"                                     /* 9 */
		"  describeKey(key) {\n"                              /* 10 */
		"    const inner = () => { return 'inner text'; };\n" /* 11 */
		"    return `missing store key ${key}`;\n"            /* 12 */
		"  }\n"                                               /* 13 */
		"  get(key) {\n"                                      /* 14 */
		"    if (!this.has(key)) throw new Error(this.describeKey(key));\n" /* 15 */
		"  }\n"                                               /* 16 */
		"}\n"                                                 /* 17 */
		"function check(v) {\n"                               /* 18 */
		"  if (v < 0) throw new RangeError(badValue(v));\n"   /* 19 */
		"  if (v < 1) throw new TypeError(badArrow(v));\n"    /* 20 */
		"  if (v < 2) throw new SyntaxError(twoTexts(v));\n"  /* 21 */
		"  if (v < 3) throw new URIError(formatIt(v));\n"     /* 22 */
		"}\n");                                               /* 23 */
	EXPECT_SITE(s, "missing store key ${key}", 15, FL_T_EXCEPTION);
	EXPECT_SITE(s, "bad value ${value}", 19, FL_T_EXCEPTION);
	EXPECT_SITE(s, "bad arrow {v}", 20, FL_T_EXCEPTION);
	for (size_t i = 0; i < s->n; i++) {
		const char *m = s->v[i].message ? s->v[i].message : "";
		if (strstr(m, "first text") || strstr(m, "second text") || strstr(m, "inner text"))
			fail_msg("line %d: <%s>", s->v[i].line, m);
	}
	fl_sites_free(s);
}

static void test_codes(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/fs.js",
		"function open(path) {\n"                             /* 1 */
		"  const err = new Error(`cannot open ${path}`);\n"   /* 2 */
		"  err.code = 'ENOENT';\n"                            /* 3 */
		"  throw err;\n"                                      /* 4 */
		"}\n"                                                 /* 5 */
		"function check(name, value) {\n"                     /* 6 */
		"  if (typeof value !== 'string')\n"                  /* 7 */
		"    throw new ERR_INVALID_ARG_TYPE(name, 'string', value);\n" /* 8 */
		"  throw new AppError({ message: 'bad config', code: 'ERR_BAD_CONFIG' });\n" /* 9 */
		"  throw new AppError('E_LOCKED', 'widget is locked');\n" /* 10 */
		"  const e2 = new Error('unused');\n"                 /* 11 */
		"  throw e;\n"                                        /* 12 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "cannot open ${path}", 2, FL_T_EXCEPTION);
	assert_string_equal(x->code, "ENOENT");
	assert_string_equal(x->cls, "Error");
	assert_string_equal(x->function, "open");
	bool found = false;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].code && strcmp(s->v[i].code, "ERR_INVALID_ARG_TYPE") == 0) {
			found = true;
			assert_null(s->v[i].message);
			assert_int_equal(s->v[i].line, 8);
			assert_string_equal(s->v[i].cls, "ERR_INVALID_ARG_TYPE");
			assert_string_equal(s->v[i].guard, "typeof value !== 'string'");
		}
	assert_true(found);
	x = EXPECT_SITE(s, "bad config", 9, FL_T_EXCEPTION);
	assert_string_equal(x->code, "ERR_BAD_CONFIG");
	x = EXPECT_SITE(s, "widget is locked", 10, FL_T_EXCEPTION);
	assert_string_equal(x->code, "E_LOCKED");
	assert_null(harness_find(s, "unused"));
	assert_int_equal(s->n, 4);
	fl_sites_free(s);
}

static void test_http_console(void **state)
{
	(void)state;
	fl_sites *s = scan("src/routes.ts",
		"router.get('/u/:id', async (req: Request, res: Response): Promise<void> => {\n" /* 1 */
		"  if (!req.user) return res.status(401).json({ error: 'Unauthorized' });\n" /* 2 */
		"  res.status(500).send('Internal error: ' + e.message);\n" /* 3 */
		"  res.status(200).json({ message: 'ok' });\n"        /* 4 */
		"  ctx.throw(404, 'Not found');\n"                    /* 5 */
		"  next(createError(422, 'Bad entity'));\n"           /* 6 */
		"  console.error('failed %s', id);\n"                 /* 7 */
		"  console.warn(\"deprecated\");\n"                   /* 8 */
		"  console.log('not an error');\n"                    /* 9 */
		"});\n"                                               /* 10 */
		"@Injectable()\n"                                     /* 11 */
		"export class UsersService {\n"                       /* 12 */
		"  async find(id: string): Promise<User> {\n"         /* 13 */
		"    throw new NotFoundException(`User ${id} not found`);\n" /* 14 */
		"  }\n"                                               /* 15 */
		"  remove = (id: string) => {\n"                      /* 16 */
		"    throw new HttpException('Forbidden thing', HttpStatus.FORBIDDEN);\n" /* 17 */
		"  }\n"                                               /* 18 */
		"}\n"                                                 /* 19 */
		"const x = a < b ? 1 : 2; const y = <T>(v: T) => v;\n"); /* 20 */
	const fl_site *x = EXPECT_SITE(s, "Unauthorized", 2, FL_T_HTTP);
	assert_int_equal(x->http, 401);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_string_equal(x->guard, "!req.user");
	x = EXPECT_SITE(s, "Internal error: {message}", 3, FL_T_HTTP);
	assert_int_equal(x->http, 500);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_null(harness_find(s, "ok"));
	x = EXPECT_SITE(s, "Not found", 5, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	x = EXPECT_SITE(s, "Bad entity", 6, FL_T_HTTP);
	assert_int_equal(x->http, 422);
	x = EXPECT_SITE(s, "failed %s", 7, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "deprecated", 8, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_null(harness_find(s, "not an error"));
	x = EXPECT_SITE(s, "User ${id} not found", 14, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	assert_string_equal(x->cls, "NotFoundException");
	assert_string_equal(x->function, "UsersService.find");
	x = EXPECT_SITE(s, "Forbidden thing", 17, FL_T_HTTP);
	assert_int_equal(x->http, 403);
	assert_string_equal(x->function, "UsersService.remove");
	assert_int_equal(s->n, 8);
	fl_sites_free(s);
}

/* Hono's HTTPException takes the status first and the message in an
 * options object, often from a local variable */
static void test_http_exception_status_first(void **state)
{
	(void)state;
	fl_sites *s = scan("src/middleware/auth.ts",
		"export const auth = () => async (c, next) => {\n"        /* 1 */
		"  if (!c.req.header('Authorization')) {\n"               /* 2 */
		"    const errDescription = 'invalid credentials structure'\n" /* 3 */
		"    throw new HTTPException(401, {\n"                     /* 4 */
		"      message: errDescription,\n"                        /* 5 */
		"      res: unauthorized(c),\n"                            /* 6 */
		"    })\n"                                                 /* 7 */
		"  }\n"                                                    /* 8 */
		"  throw new HTTPException(503, { message: 'Service Unavailable' })\n" /* 9 */
		"}\n");                                                    /* 10 */
	const fl_site *x = EXPECT_SITE(s, "invalid credentials structure", 4, FL_T_HTTP);
	assert_int_equal(x->http, 401);
	assert_string_equal(x->cls, "HTTPException");
	assert_string_equal(x->function, "auth"); /* the curried arrow's name */
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "Service Unavailable", 9, FL_T_HTTP);
	assert_int_equal(x->http, 503);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
	/* arrows named through TS type parameters and object return types */
	s = scan("src/ctx.ts",
		"export const getContext = <E extends Env = Env>(): Context<E> => {\n" /* 1 */
		"  throw new Error('Context is not available')\n"                   /* 2 */
		"}\n"                                                               /* 3 */
		"const buildInit = (\n"                                             /* 4 */
		"  request: Request | undefined\n"                                  /* 5 */
		"): RequestInit & { duplex?: 'half' } => {\n"                       /* 6 */
		"  throw new TypeError('no request')\n"                             /* 7 */
		"}\n");                                                             /* 8 */
	x = EXPECT_SITE(s, "Context is not available", 2, FL_T_EXCEPTION);
	assert_string_equal(x->function, "getContext");
	x = EXPECT_SITE(s, "no request", 7, FL_T_EXCEPTION);
	assert_string_equal(x->function, "buildInit");
	fl_sites_free(s);
}

static void test_traps(void **state)
{
	(void)state;
	fl_sites *s = scan("src/traps.jsx",
		"#!/usr/bin/env node\n"
		"// throw new Error('line comment');\n"
		"/* throw new Error('block comment'); */\n"
		"/**\n * @throws throw new Error('doc comment')\n */\n"
		"const a = \"throw new Error('in string')\";\n"
		"const b = 'console.error(\"x\")';\n"
		"const c = `throw new Error(\"in template\") ${x + `nested ${y}`}`;\n"
		"const re = /throw new Error\\(\"re\"\\)/g, q = /['\"]/;\n"
		"const d = total / count / 2; // throw new Error('after division')\n"
		"const el = (<div title=\"it's\">it's fine {n > 1 && <b>don't</b>}</div>);\n"
		"const el2 = <p>throw new Error(\"jsx text\")</p>;\n"
		"function f() { throw new Error(\"real one\"); }\n");
	EXPECT_SITE(s, "real one", 14, FL_T_EXCEPTION);
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
}

static void test_jsx_expressions(void **state)
{
	(void)state;
	fl_sites *s = scan("src/App.tsx",
		"export function App() {\n"
		"  return (<button onClick={() => { throw new Error(\"clicked\") }}>\n"
		"    it's {list.map(i => <i key={i}>{i}</i>)}\n"
		"  </button>);\n"
		"}\n"
		"const Comp = () => { console.error('render failed'); };\n");
	const fl_site *x = EXPECT_SITE(s, "clicked", 2, FL_T_EXCEPTION);
	assert_string_equal(x->function, "App");
	x = EXPECT_SITE(s, "render failed", 6, FL_T_CONSOLE);
	assert_string_equal(x->function, "Comp");
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

static void test_no_junk(void **state)
{
	(void)state;
	fl_sites *s = scan("a.js",
		"try { x() } catch (err) { throw err; }\n"
		"throw new Error(msg);\n"
		"throw error;\n"
		"res.status(404).end();\n"
		"ctx.throw(400);\n"
		"res.status(301).send('moved');\n");
	/* a throw of a text made elsewhere is its class alone (a stack's
	 * frame names it); nothing else here is a site */
	if (s->n != 1)
		harness_dump(s);
	assert_int_equal(s->n, 1);
	const fl_site *x = EXPECT_SITE(s, "Error", 2, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "Error");
	fl_sites_free(s);
}

/* real-project findings (express, axios) */
static void test_real_projects(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/res.js",
		"function send(cb) {\n"                                          /* 1 */
		"  var err = new Error('EISDIR, read');\n"                        /* 2 */
		"  err.code = 'EISDIR';\n"                                        /* 3 */
		"  cb(err);\n"                                                    /* 4 */
		"  next(new TypeError('view not found'));\n"                      /* 5 */
		"  deprecate('Url must be a string');\n"                          /* 6 */
		"  reject(new AxiosError('Network Error', AxiosError.ERR_NETWORK, config));\n" /* 7 */
		"  throw new AxiosError('Bad a', AxiosError.ERR_BAD_REQUEST);\n"  /* 8 */
		"  throw new AxiosError('Bad b', AxiosError.ERR_BAD_REQUEST);\n"  /* 9 */
		"  abort(new CanceledError('stream aborted', config, req));\n"    /* 10 */
		"  console.error('Error:', e.message);\n"                         /* 11 */
		"  console.warn('%s failed', name, extra);\n"                     /* 12 */
		"  const dummy = new Error();\n"                                  /* 13 */
		"  const d = new Date('2020');\n"                                 /* 14 */
		"  throw new Error('once');\n"                                    /* 15 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "EISDIR, read", 2, FL_T_EXCEPTION);
	assert_string_equal(x->code, "EISDIR");
	x = EXPECT_SITE(s, "view not found", 5, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "TypeError");
	x = EXPECT_SITE(s, "Url must be a string", 6, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "Network Error", 7, FL_T_EXCEPTION);
	assert_string_equal(x->code, "ERR_NETWORK");
	/* one code, two messages: a category, not an identity */
	x = EXPECT_SITE(s, "Bad a", 8, FL_T_EXCEPTION);
	assert_null(x->code);
	x = EXPECT_SITE(s, "Bad b", 9, FL_T_EXCEPTION);
	assert_null(x->code);
	x = EXPECT_SITE(s, "stream aborted", 10, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "CanceledError");
	EXPECT_SITE(s, "Error: {message}", 11, FL_T_CONSOLE);
	EXPECT_SITE(s, "%s failed", 12, FL_T_CONSOLE);
	EXPECT_SITE(s, "once", 15, FL_T_EXCEPTION);
	assert_int_equal(s->n, 10);
	fl_sites_free(s);
}

/* Any object's warn method given a text is a warning (postcss's
 * result.warn(text, { node }), a bundler plugin's this.warn(text)); one
 * given a value, a member's warn (a.b.warn) or one word is not read. */
static void test_warn_methods(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/lintPostcssResult.js",
		"function lint(result, ruleName, opts) {\n"                             /* 1 */
		"  if (opts.deprecated) {\n"                                            /* 2 */
		"    result.warn(`The \"${ruleName}\" rule is deprecated.`, { stylelintType: 'deprecation' });\n" /* 3 */
		"  }\n"                                                                 /* 4 */
		"  this.warn('Circular dependency skipped');\n"                        /* 5 */
		"  result.warn(message, { node });\n"                                  /* 6 */
		"  result.warn('done');\n"                                             /* 7 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "The \"${ruleName}\" rule is deprecated.", 3, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_string_equal(x->idiom, "result.warn");
	harness_expect_str(x->guard, "opts.deprecated");
	x = EXPECT_SITE(s, "Circular dependency skipped", 5, FL_T_CONSOLE);
	assert_string_equal(x->idiom, "this.warn");
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

/* A call of a function (or callback parameter) named for reporting that
 * no rule knows, given a text of words, reports it (stylelint's
 * validate(opts, ruleName, complain) calling complain(`...`)); a method of
 * that name, a declaration, or a word alone is not one. */
static void test_named_reporting_calls(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/utils/validateOptions.js",
		"function validate(opts, ruleName, complain) {\n"                     /* 1 */
		"  if (opts.actual === undefined) {\n"                                /* 2 */
		"    complain(`Expected option value for rule \"${ruleName}\"`);\n"  /* 3 */
		"  }\n"                                                               /* 4 */
		"  warn('the option is deprecated');\n"                              /* 5 */
		"  emitter.error('not a report of ours');\n"                         /* 6 */
		"  fail('x');\n"                                                      /* 7 */
		"}\n"                                                                 /* 8 */
		"function error(message) { return message; }\n");                    /* 9 */
	const fl_site *x = EXPECT_SITE(s, "Expected option value for rule \"${ruleName}\"", 3, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->guard, "opts.actual === undefined");
	x = EXPECT_SITE(s, "the option is deprecated", 5, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

/* A lint rule's table of messages by id and the report calls that pick
 * one: stylelint's ruleMessages table (a text, or an arrow function's
 * template) with report({ message: messages.x }), ESLint's meta.messages
 * ({{ data }} holes) with context.report({ messageId }); a report of an id
 * the table lacks, or of a message passed in, is none. */
static void test_lint_rule_messages(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/rules/block-no-empty/index.js",
		"const ruleName = 'block-no-empty';\n"                                  /* 1 */
		"const messages = ruleMessages(ruleName, {\n"                          /* 2 */
		"\trejected: 'Unexpected empty block',\n"                              /* 3 */
		"\texpected: (a, b) => `Expected \"${a}\" to be \"${b}\"`,\n"          /* 4 */
		"});\n"                                                                 /* 5 */
		"const rule = (primary) => (root, result) => {\n"                      /* 6 */
		"\tif (isEmpty(root)) {\n"                                             /* 7 */
		"\t\treport({ message: messages.rejected, node: root, result, ruleName });\n" /* 8 */
		"\t}\n"                                                                /* 9 */
		"\treport({ message: messages.expected(x, y), node: root, result, ruleName });\n" /* 10 */
		"\treport({ message: messages.nosuch, node: root });\n"               /* 11 */
		"\treport({ message, node: root });\n"                                /* 12 */
		"\tif (named(x)) complain(messages.rejected, x, 0);\n"               /* 13 */
		"\tother(messages.rejected, x);\n"                                   /* 14 */
		"\tfunction complain(message, node, index) {\n"                      /* 15 */
		"\t\treport({ result, ruleName, message, node, index });\n"          /* 16 */
		"\t}\n"                                                              /* 17 */
		"\tfunction other(m, node) { node.note = m; }\n"                      /* 18 */
		"};\n");
	const fl_site *x = EXPECT_SITE(s, "Unexpected empty block", 8, FL_T_VALIDATION);
	harness_expect_str(x->guard, "isEmpty(root)");
	EXPECT_SITE(s, "Expected \"${a}\" to be \"${b}\"", 10, FL_T_VALIDATION);
	/* a local helper that reports its first parameter as the message */
	x = harness_expect_at(s, 13, "Unexpected empty block");
	harness_expect_str(x->guard, "named(x)");
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
	s = scan("lib/rules/no-debugger.js",
		"module.exports = {\n"                                                  /* 1 */
		"  meta: { type: 'problem', messages: { unexpected: \"Unexpected '{{ name }}' statement.\" } },\n" /* 2 */
		"  create(context) {\n"                                                 /* 3 */
		"    return { DebuggerStatement(node) {\n"                              /* 4 */
		"      context.report({ node, messageId: 'unexpected', data: { name: 'debugger' } });\n" /* 5 */
		"    } };\n"                                                            /* 6 */
		"  }\n"                                                                 /* 7 */
		"};\n");
	EXPECT_SITE(s, "Unexpected '{name}' statement.", 5, FL_T_VALIDATION);
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
}

/* hapi: @hapi/hoek's assert (arguments joined by spaces, AssertError) and
 * @hapi/boom's helpers (the helper names the status) */
static void test_hapi_hoek_boom(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/auth.js",
		"const Boom = require('@hapi/boom');\n"                                   /* 1 */
		"const Hoek = require('@hapi/hoek');\n"                                   /* 2 */
		"const Assert = require('@hapi/hoek/assert');\n"                          /* 3 */
		"exports.scheme = function (name, scheme) {\n"                            /* 4 */
		"    Hoek.assert(name, 'Authentication scheme must have a name');\n"      /* 5 */
		"    Hoek.assert(!schemes[name], 'Scheme name already exists:', name);\n"  /* 6 */
		"    Assert(typeof scheme === 'function', `Invalid scheme ${name}`);\n"   /* 7 */
		"    Hoek.assert(ok, 'Plugin', plugin, 'requires', dep, 'version', v, 'but found', this.reg[dep].version);\n" /* 8 */
		"    if (!credentials) {\n"                                              /* 9 */
		"        throw Boom.unauthorized('Missing authentication', scheme);\n"   /* 10 */
		"    }\n"                                                                 /* 11 */
		"    const err = Boom.forbidden('Insufficient scope', { got });\n"        /* 12 */
		"    throw Boom.badImplementation(`Handler ${name} failed`);\n"           /* 13 */
		"    throw Boom.notFound();\n"                                             /* 14 */
		"    Boom.isBoom(err, 'not a helper');\n"                                  /* 15 */
		"    Hoek.assert(err);\n"                                                  /* 16 */
		"};\n");
	const fl_site *p = EXPECT_SITE(s, "Authentication scheme must have a name", 5, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "AssertError");
	harness_expect_str(p->idiom, "Hoek.assert");
	harness_expect_str(p->guard, "!name");
	p = EXPECT_SITE(s, "Scheme name already exists: {name}", 6, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "schemes[name]");
	p = EXPECT_SITE(s, "Invalid scheme ${name}", 7, FL_T_EXCEPTION);
	harness_expect_str(p->idiom, "Assert");
	EXPECT_SITE(s, "Plugin {plugin} requires {dep} version {v} but found {version}", 8,
		    FL_T_EXCEPTION);
	p = EXPECT_SITE(s, "Missing authentication", 10, FL_T_HTTP);
	assert_int_equal(p->http, 401);
	harness_expect_str(p->cls, "Boom");
	harness_expect_str(p->guard, "!credentials");
	harness_expect_str(p->idiom, "Boom.unauthorized");
	p = EXPECT_SITE(s, "Insufficient scope", 12, FL_T_HTTP);
	assert_int_equal(p->http, 403);
	p = EXPECT_SITE(s, "Handler ${name} failed", 13, FL_T_HTTP);
	assert_int_equal(p->http, 500);
	assert_string_equal(p->severity, FL_S_ERROR);
	assert_null(harness_find(s, "not a helper"));
	assert_int_equal(s->n, 7);
	fl_sites_free(s);
	/* Assert() of a file that does not name hoek is someone else's */
	s = scan("lib/other.js", "Assert(x, 'some other assert');\n");
	assert_int_equal(s->n, 0);
	fl_sites_free(s);
}

static void test_is_test_file(void **state)
{
	(void)state;
	assert_true(fl_lang_js.is_test_file("src/a.test.js"));
	assert_true(fl_lang_js.is_test_file("src/a.spec.tsx"));
	assert_true(fl_lang_js.is_test_file("a_test.js"));
	assert_true(fl_lang_js.is_test_file("x/b.test.mjs"));
	assert_false(fl_lang_js.is_test_file("src/test.js"));
	assert_false(fl_lang_js.is_test_file("src/latest.js"));
}

static void scan_bytes(const char *path, const char *buf, size_t len)
{
	harness_scan_bytes(&fl_lang_js, path, buf, len);
}

static void test_robustness(void **state)
{
	(void)state;
	static const char junk[] = "throw new Error('\xff\xfe\x80 bad')\0throw new Error(\"nul\0\")\x01`${`${";
	scan_bytes("a.js", junk, sizeof junk - 1);
	const char *unterminated[] = {
		"throw new Error('abc", "throw new Error(\"abc\n",
		"throw new Error(`abc ${ x", "/* throw new Error('x')",
		"const r = /abc", "<div>text {", "<div attr=\"", "`${'",
		"throw new Error(", "throw", "x = <", "<<<<<<", NULL};
	harness_scan_each(&fl_lang_js, "a.jsx", unterminated);
	harness_scan_each(&fl_lang_js, "a.ts", unterminated);
	size_t n = 1 << 20;
	char *big = harness_repeat("throw new Error('x' + (a) + `t${b}`); ", n);
	scan_bytes("big.js", big, n);
	harness_fill(big, 0, n, "throw new E((");
	scan_bytes("big.js", big, n);
	free(big);
	size_t depth = 10000;
	char *nest = malloc(depth * 2 + 64);
	size_t k = harness_nest(nest, "throw new Error(", "([{", depth, "'x'", ")");
	scan_bytes("nest.js", nest, k);
	for (size_t i = 0; i < depth; i++)
		nest[i] = '`', nest[depth + i] = '{';
	scan_bytes("nest.js", nest, 2 * depth);
	free(nest);
	assert_true(true);
}

/* throw new Error(msg) after const msg = ... in the same function */
static void test_local_message_variable(void **state)
{
	(void)state;
	fl_sites *s = scan("src/config.js",
		"function load(path) {\n"                                                /* 1 */
		"  const msg = `config file ${path} does not exist`;\n"                  /* 2 */
		"  throw new Error(msg);\n"                                              /* 3 */
		"}\n"                                                                    /* 4 */
		"function param(msg) {\n"                                                /* 5 */
		"  throw new TypeError(msg);\n"                                          /* 6 */
		"}\n"                                                                    /* 7 */
		"function noSemicolons(x) {\n"                                           /* 8 */
		"  let reason = 'value out of range: ' + x\n"                            /* 9 */
		"  throw new RangeError(reason)\n"                                       /* 10 */
		"}\n"                                                                    /* 11 */
		"function counted() {\n"                                                 /* 12 */
		"  let n = 'start'\n"                                                    /* 13 */
		"  n += 1\n"                                                             /* 14 */
		"  n = compute()\n"                                                      /* 15 */
		"  throw new Error(n)\n"                                                 /* 16 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "config file ${path} does not exist", 3, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "Error");
	EXPECT_SITE(s, "value out of range: {x}", 10, FL_T_EXCEPTION);
	assert_null(harness_find(s, "start"));
	/* a parameter's text, a call's value: the class alone */
	EXPECT_SITE(s, "TypeError", 6, FL_T_EXCEPTION);
	harness_expect_at(s, 16, "Error");
	assert_int_equal(s->n, 4);
	fl_sites_free(s);
}

/* error classes that hold their message and code (undici): the class is
 * a site, and `new X()` without a message gets them, in any file of the
 * tree */
static void test_error_class_defaults(void **state)
{
	(void)state;
	const char *errors_js =
		"class UndiciError extends Error {\n"                          /* 1 */
		"  constructor (message, options) {\n"                         /* 2 */
		"    super(message, options)\n"                                /* 3 */
		"    this.code = 'UND_ERR'\n"                                  /* 4 */
		"  }\n"                                                        /* 5 */
		"}\n"                                                          /* 6 */
		"class ConnectTimeoutError extends UndiciError {\n"            /* 7 */
		"  constructor (message) {\n"                                  /* 8 */
		"    super(message)\n"                                         /* 9 */
		"    this.name = 'ConnectTimeoutError'\n"                      /* 10 */
		"    this.message = message || 'Connect Timeout Error'\n"      /* 11 */
		"    this.code = 'UND_ERR_CONNECT_TIMEOUT'\n"                  /* 12 */
		"  }\n"                                                        /* 13 */
		"}\n"                                                          /* 14 */
		"export class NotFoundError extends HttpError {\n"            /* 15 */
		"  constructor() { super('Resource not found') }\n"           /* 16 */
		"}\n"                                                          /* 17 */
		"class Banner extends Widget {\n"                              /* 18 */
		"  constructor() { super('Welcome back') }\n"                 /* 19 */
		"}\n";                                                         /* 20 */
	fl_sites *s = scan("lib/core/errors.js", errors_js);
	const fl_site *x = EXPECT_SITE(s, "Connect Timeout Error", 11, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ConnectTimeoutError");
	assert_string_equal(x->code, "UND_ERR_CONNECT_TIMEOUT");
	harness_expect_str(x->idiom, "class constructor this.message");
	x = EXPECT_SITE(s, "Resource not found", 16, FL_T_EXCEPTION);
	harness_expect_str(x->idiom, "class constructor super()");
	assert_null(harness_find(s, "Welcome back")); /* not an error class */
	/* a code without a default message: the code stands for it */
	int und = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].code && strcmp(s->v[i].code, "UND_ERR") == 0)
			und++;
	assert_int_equal(und, 1);
	fl_sites_free(s);

	const char *client_js =
		"function connect (socket, timeout) {\n"                       /* 1 */
		"  if (timeout) throw new ConnectTimeoutError()\n"             /* 2 */
		"  socket.destroy(new ConnectTimeoutError('after ' + timeout + 'ms'))\n" /* 3 */
		"  throw new NotFoundError()\n"                                /* 4 */
		"}\n";
	fl_src files[] = {{"lib/core/errors.js", errors_js, strlen(errors_js), NULL},
			  {"lib/client.js", client_js, strlen(client_js), NULL}};
	s = harness_scan_tree(&fl_lang_js, files, 2, 1);
	x = EXPECT_SITE(s, "Connect Timeout Error", 2, FL_T_EXCEPTION);
	assert_string_equal(x->code, "UND_ERR_CONNECT_TIMEOUT");
	assert_string_equal(x->guard, "timeout");
	EXPECT_SITE(s, "after {timeout}ms", 3, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "Resource not found", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "NotFoundError");
	fl_sites_free(s);
}

/* a class whose message names its constructor's parameters: `new X(args)`
 * anywhere raises that message with the arguments in it (zod) */
/* `Object.assign(new Error('...'), { code: 'E...' })`: the code of the
 * object literal is the error's code */
static void test_assign_code(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/run-script.js",
		"function run (pkg, name) {\n"                                                     /* 1 */
		"  if (!pkg.scripts)\n"                                                            /* 2 */
		"    throw Object.assign(new Error(`Missing script: \"${name}\"`), { code: 'ENOSCRIPT' })\n"
		"  return Promise.reject(Object.assign(new TypeError('not a version'), { code: 'EBADVERSION', path: name }))\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Missing script: \"${name}\"", 3, FL_T_EXCEPTION);
	harness_expect_str(x->code, "ENOSCRIPT");
	x = EXPECT_SITE(s, "not a version", 4, FL_T_EXCEPTION);
	harness_expect_str(x->code, "EBADVERSION");
	harness_expect_str(x->cls, "TypeError");
	fl_sites_free(s);
}

static void test_error_class_params(void **state)
{
	(void)state;
	const char *errors_ts =
		"export class CompileError extends Error {\n"                                   /* 1 */
		"  constructor(public feature: string, islandable = true) {\n"                 /* 2 */
		"    super(`z.compile does not support ${feature}; use the runtime parser`);\n"  /* 3 */
		"  }\n"                                                                         /* 4 */
		"}\n"                                                                           /* 5 */
		"export class EncodeError extends Error {\n"                                    /* 6 */
		"  constructor(name: string) { super(`Unidirectional transform: ${name}`) }\n"  /* 7 */
		"}\n";
	const char *use_ts =
		"function compile(def, fmt) {\n"                                                /* 1 */
		"  if (def.cycle) throw new CompileError(\"a reference cycle\");\n"             /* 2 */
		"  if (fmt) throw new CompileError(`string format ${fmt}`);\n"                  /* 3 */
		"  throw new CompileError(def.type);\n"                                         /* 4 */
		"}\n"                                                                           /* 5 */
		"const e = () => { throw new EncodeError(\"ZodSuccess\") };\n"                  /* 6 */
		"throw new EncodeError();\n";                                                   /* 7 */
	fl_src files[] = {{"src/errors.ts", errors_ts, strlen(errors_ts), NULL},
			  {"src/compile.ts", use_ts, strlen(use_ts), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_js, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "z.compile does not support a reference cycle; use the runtime parser",
				       2, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "CompileError");
	EXPECT_SITE(s, "z.compile does not support string format ${fmt}; use the runtime parser", 3,
		    FL_T_EXCEPTION);
	EXPECT_SITE(s, "z.compile does not support ${def.type}; use the runtime parser", 4, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Unidirectional transform: ZodSuccess", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Unidirectional transform: ${name}", 7, FL_T_EXCEPTION);
	fl_sites_free(s);
	/* the class itself, with its parameter as a placeholder */
	s = scan("src/errors.ts", errors_ts);
	EXPECT_SITE(s, "z.compile does not support ${feature}; use the runtime parser", 3, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* @fastify/error: createError('CODE', 'message %s', status, Base) makes an
 * error class; `new CODE(args)` raises it with that message (the arguments
 * fill its %s) and code.  http-errors' createError(status, message) is
 * still read as before, and a first argument that is not a code is not
 * this form. */
static void test_fastify_error_classes(void **state)
{
	(void)state;
	const char *codes_js =
		"const createError = require('@fastify/error')\n"                  /* 1 */
		"const codes = {\n"                                                 /* 2 */
		"  FST_ERR_NOT_FOUND: createError('FST_ERR_NOT_FOUND', 'Not Found', 404),\n" /* 3 */
		"  FST_ERR_QSP_NOT_FN: createError(\n"                              /* 4 */
		"    'FST_ERR_QSP_NOT_FN',\n"                                       /* 5 */
		"    \"querystringParser option should be a function, instead got '%s'\",\n" /* 6 */
		"    500,\n"                                                        /* 7 */
		"    TypeError\n"                                                   /* 8 */
		"  ),\n"                                                            /* 9 */
		"  FST_ERR_CTP_ALREADY_PRESENT: createError('FST_ERR_CTP_ALREADY_PRESENT', \"Content type parser '%s' already present.\")\n" /* 10 */
		"}\n"                                                               /* 11 */
		"const NotCode = createError('not a code', 'Some words here')\n";   /* 12 */
	fl_sites *s = scan("lib/errors.js", codes_js);
	const fl_site *x = EXPECT_SITE(s, "Not Found", 3, FL_T_EXCEPTION);
	assert_string_equal(x->code, "FST_ERR_NOT_FOUND");
	assert_int_equal(x->http, 404);
	assert_null(x->cls);
	x = EXPECT_SITE(s, "querystringParser option should be a function, instead got '%s'", 4,
			FL_T_EXCEPTION);
	assert_string_equal(x->cls, "TypeError");
	assert_int_equal(x->http, 500);
	x = EXPECT_SITE(s, "Content type parser '%s' already present.", 10, FL_T_EXCEPTION);
	assert_int_equal(x->http, 0);
	assert_null(harness_find(s, "Some words here")); /* not the code-first form */
	fl_sites_free(s);

	const char *use_js =
		"const { FST_ERR_CTP_ALREADY_PRESENT, FST_ERR_NOT_FOUND } = require('./errors')\n" /* 1 */
		"function add (type) {\n"                                            /* 2 */
		"  if (this.has(type)) throw new FST_ERR_CTP_ALREADY_PRESENT(type)\n" /* 3 */
		"  throw new FST_ERR_NOT_FOUND()\n"                                  /* 4 */
		"}\n"                                                                /* 5 */
		"function other () { throw new FST_ERR_UNKNOWN('addThing') }\n";    /* 6 */
	fl_src files[] = {{"lib/errors.js", codes_js, strlen(codes_js), NULL},
			  {"lib/parser.js", use_js, strlen(use_js), NULL}};
	s = harness_scan_tree(&fl_lang_js, files, 2, 1);
	x = EXPECT_SITE(s, "Content type parser '%s' already present.", 3, FL_T_EXCEPTION);
	assert_string_equal(x->code, "FST_ERR_CTP_ALREADY_PRESENT");
	assert_null(harness_find(s, "type"));
	x = EXPECT_SITE(s, "Not Found", 4, FL_T_EXCEPTION);
	assert_int_equal(x->http, 404);
	/* a class the tree does not make keeps the old reading */
	EXPECT_SITE(s, "addThing", 6, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* Node's assert family and koa's ctx.assert raise with the message given;
 * util.format('...%s', x) is its format string. */
static void test_asserts(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/response.js",
		"function set (code, ctx) {\n"                                           /* 1 */
		"  assert(Number.isInteger(code), 'status code must be a number')\n"    /* 2 */
		"  assert.strictEqual(a, b, 'the sizes differ')\n"                      /* 3 */
		"  assert.fail('never reached here')\n"                                 /* 4 */
		"  ctx.assert(ctx.user, 403, 'Only the owner may do this')\n"           /* 5 */
		"  throw new TypeError(util.format('non-error thrown: %j', err))\n"     /* 6 */
		"  assert(code)\n"                                                      /* 7 */
		"  assert.ok(x, helper('not a message'))\n"                             /* 8 */
		"  assert.deepEqual(a, 'expected words here')\n"                        /* 9 */
		"  const assert = (v, m) => v\n"                                        /* 10 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "status code must be a number", 2, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "AssertionError");
	assert_null(x->code);
	/* the guard says when an assertion fires */
	harness_expect_str(x->guard, "!Number.isInteger(code)");
	x = EXPECT_SITE(s, "the sizes differ", 3, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "a !== b");
	x = EXPECT_SITE(s, "never reached here", 4, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	x = EXPECT_SITE(s, "Only the owner may do this", 5, FL_T_HTTP);
	assert_int_equal(x->http, 403);
	harness_expect_str(x->guard, "!ctx.user");
	x = EXPECT_SITE(s, "non-error thrown: %j", 6, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "TypeError");
	assert_null(harness_find(s, "not a message"));
	assert_null(harness_find(s, "expected words here")); /* the expected value */
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
}

/* A report in an else's block, or after `} else`, is guarded by its if's
 * condition, turned: it runs when that condition does not hold (the last
 * if of an else-if chain).  The else of an unbraced if is left alone. */
static void test_else_guards(void **state)
{
	(void)state;
	fl_sites *s = scan("src/loader.ts",
		"export function load(n: number, name?: string): void {\n"          /* 1 */
		"  if (n === 2) {\n"                                                /* 2 */
		"    use(n);\n"                                                     /* 3 */
		"  } else {\n"                                                      /* 4 */
		"    throw new RangeError('want two arguments');\n"                 /* 5 */
		"  }\n"                                                             /* 6 */
		"  if (n > 3) {\n"                                                  /* 7 */
		"    use(n);\n"                                                     /* 8 */
		"  } else if (name == null) {\n"                                    /* 9 */
		"    use(0);\n"                                                     /* 10 */
		"  } else {\n"                                                      /* 11 */
		"    throw new Error(`bad name ${name}`);\n"                        /* 12 */
		"  }\n"                                                             /* 13 */
		"  if (known.has(name)) {\n"                                        /* 14 */
		"    use(1);\n"                                                     /* 15 */
		"  } else throw new Error('unknown name');\n"                       /* 16 */
		"  if (n < 0) use(2);\n"                                            /* 17 */
		"  else throw new Error('not negative');\n"                         /* 18 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "want two arguments", 5, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n !== 2");
	harness_expect_str(x->function, "load");
	x = EXPECT_SITE(s, "bad name ${name}", 12, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "name != null");
	x = EXPECT_SITE(s, "unknown name", 16, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!known.has(name)");
	x = EXPECT_SITE(s, "not negative", 18, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	fl_sites_free(s);
}

/* A report after early exits runs only when none of them was taken: each
 * `if (c) return;` (or a braced body ending in a return of nothing, a
 * `continue`) before it in its block says "!c", the nearest three joined.
 * An if with an else, an exit that returns a value, a condition whose
 * name is assigned again before the report, and a case label before it
 * end that. */
static void test_early_exit_guards(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/rules/color-named/index.js",
		"function rule(primary, context) {\n"                               /* 1 */
		"  return (root, result) => {\n"                                    /* 2 */
		"    if (!validOptions) return;\n"                                  /* 3 */
		"    root.walkDecls((decl) => {\n"                                  /* 4 */
		"      if (!isStandard(decl)) return\n"                             /* 5 */
		"      const value = decl.value;\n"                                 /* 6 */
		"      if (context.fix) {\n"                                        /* 7 */
		"        decl.value = fixed(value);\n"                              /* 8 */
		"        return;\n"                                                 /* 9 */
		"      }\n"                                                         /* 10 */
		"      if (value.length > 100) { use(value); } else { return; }\n"  /* 11 */
		"      if (cache.has(value)) return cache.get(value);\n"            /* 12 */
		"      throw new Error('named color ' + value);\n"                  /* 13 */
		"    });\n"                                                         /* 14 */
		"  };\n"                                                            /* 15 */
		"}\n"                                                               /* 16 */
		"function check(list, mode) {\n"                                    /* 17 */
		"  let item = null;\n"                                              /* 18 */
		"  if (item == null) return;\n"                                     /* 19 */
		"  item = list[0];\n"                                               /* 20 */
		"  for (const x of list) {\n"                                       /* 21 */
		"    if (x.skip) continue;\n"                                       /* 22 */
		"    switch (mode) {\n"                                             /* 23 */
		"      case 'a':\n"                                                 /* 24 */
		"        if (x.a) break;\n"                                         /* 25 */
		"        throw new Error('not a');\n"                               /* 26 */
		"      default:\n"                                                  /* 27 */
		"        throw new Error('unknown mode');\n"                        /* 28 */
		"    }\n"                                                           /* 29 */
		"  }\n"                                                             /* 30 */
		"  throw new Error('empty item');\n"                                /* 31 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "named color {value}", 13, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "isStandard(decl) && !context.fix");
	x = EXPECT_SITE(s, "not a", 26, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "mode == 'a' && !x.a");
	x = EXPECT_SITE(s, "unknown mode", 28, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "mode != 'a'");
	x = EXPECT_SITE(s, "empty item", 31, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	fl_sites_free(s);
}

/* A switch on a member named `type` (no Go type switch): its default is
 * guarded by none of its labels, inside an arrow function too */
static void test_switch_on_type_member(void **state)
{
	(void)state;
	fl_sites *s = scan("lib/directives.js",
		"const lines = directives.flatMap(directive => {\n"                    /* 1 */
		"  switch (directive.type) {\n"                                       /* 2 */
		"    case \"disable\":\n"                                             /* 3 */
		"      return [];\n"                                                  /* 4 */
		"    default:\n"                                                      /* 5 */
		"      throw new TypeError(`Unrecognized directive type '${directive.type}'`);\n" /* 6 */
		"  }\n"                                                               /* 7 */
		"});\n");
	const fl_site *x = EXPECT_SITE(s, "Unrecognized directive type '${directive.type}'", 6,
				       FL_T_EXCEPTION);
	harness_expect_str(x->guard, "directive.type != \"disable\"");
	fl_sites_free(s);
}

/* process.stderr.write(...): what the program prints on its standard
 * error, as console.error; a warning when the text says so; a write of a
 * value alone is no site */
static void test_stderr_writes(void **state)
{
	(void)state;
	fl_sites *s = scan("bin/cli.js",
		"function main(argv) {\n"                                               /* 1 */
		"  if (argv.length < 3) {\n"                                            /* 2 */
		"    process.stderr.write('error: missing file argument\\n');\n"        /* 3 */
		"    process.exit(2);\n"                                                /* 4 */
		"  }\n"                                                                 /* 5 */
		"  process.stderr.write(`Warning: ${file} is empty\\n`);\n"             /* 6 */
		"  process.stderr.write('cannot open ' + file + '\\n');\n"              /* 7 */
		"  process.stderr.write(`${err}\\n`);\n"                                /* 8 */
		"  process.stderr.write(err.stack);\n"                                  /* 9 */
		"  process.stdout.write('error: on stdout\\n');\n"                      /* 10 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "error: missing file argument", 3, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "process.stderr.write");
	harness_expect_str(x->guard, "argv.length < 3");
	harness_expect_str(x->function, "main");
	x = EXPECT_SITE(s, "Warning: ${file} is empty", 6, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "cannot open {file}", 7, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	assert_null(harness_find(s, "${err}"));
	assert_null(harness_find(s, "error: on stdout"));
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
}

/* An if (or else) right inside another if's block is guarded by both
 * conditions (fl_guard_nest); not inside a while's. */
static void test_nested_guards(void **state)
{
	(void)state;
	fl_sites *s = scan("src/a.js",
		"function load(opts, name) {\n"                             /* 1 */
		"  if (!opts.force) {\n"                                    /* 2 */
		"    if (exists(name)) {\n"                                 /* 3 */
		"      throw new Error('already exists');\n"                /* 4 */
		"    } else {\n"                                            /* 5 */
		"      throw new Error('no such dir');\n"                   /* 6 */
		"    }\n"                                                   /* 7 */
		"    if (!name) throw new Error('name is required');\n"     /* 8 */
		"  }\n"                                                     /* 9 */
		"  while (opts.retry) {\n"                                  /* 10 */
		"    if (name === '') throw new Error('in while');\n"       /* 11 */
		"  }\n"                                                     /* 12 */
		"}\n");
	const fl_site *x4 = EXPECT_SITE(s, "already exists", 4, FL_T_EXCEPTION);
	harness_expect_str(x4->guard, "!opts.force && exists(name)");
	const fl_site *x6 = EXPECT_SITE(s, "no such dir", 6, FL_T_EXCEPTION);
	harness_expect_str(x6->guard, "!opts.force && !exists(name)");
	const fl_site *x8 = EXPECT_SITE(s, "name is required", 8, FL_T_EXCEPTION);
	harness_expect_str(x8->guard, "!opts.force && !name");
	const fl_site *x11 = EXPECT_SITE(s, "in while", 11, FL_T_EXCEPTION);
	harness_expect_str(x11->guard, "name === ''");
	fl_sites_free(s);
}

/* A function or method that returns an error made of its parameter,
 * thrown elsewhere with a text: the throw is a site with the factory's
 * message, class and code (npm's `throw this.usageError('...')`).  A
 * factory called on another object, or given a one-word key, is not. */
static void test_param_factories(void **state)
{
	(void)state;
	const char *base =
		"class BaseCommand {\n"
		"  usageError (prefix = '') {\n"
		"    return Object.assign(new Error(`\\n${prefix}${this.usage}`), {\n"
		"      code: 'EUSAGE',\n"
		"    })\n"
		"  }\n"
		"}\n"
		"function invalid (msg) {\n"
		"  return new TypeError(`invalid input: ${msg}`)\n"
		"}\n"
		"module.exports = { BaseCommand, invalid }\n";
	const char *cmd =
		"class Uninstall extends BaseCommand {\n"                            /* 1 */
		"  async exec (args) {\n"                                            /* 2 */
		"    if (!args.length) {\n"                                          /* 3 */
		"      throw this.usageError('Must provide a package name to remove')\n" /* 4 */
		"    }\n"                                                            /* 5 */
		"    if (args.length > 10) throw invalid('too many packages named')\n" /* 6 */
		"    if (args[0] === '-') throw other.usageError('not one of ours at all')\n" /* 7 */
		"    throw invalid('key')\n"                                         /* 8 */
		"  }\n"                                                              /* 9 */
		"}\n";
	fl_src files[] = {{"lib/base-cmd.js", base, strlen(base), NULL},
			  {"lib/commands/uninstall.js", cmd, strlen(cmd), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_js, files, 2, 1);
	const fl_site *p = EXPECT_SITE(s, "\nMust provide a package name to remove${this.usage}", 4,
				       FL_T_EXCEPTION);
	harness_expect_str(p->code, "EUSAGE");
	harness_expect_str(p->cls, "Error");
	harness_expect_str(p->guard, "!args.length");
	p = EXPECT_SITE(s, "invalid input: too many packages named", 6, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "TypeError");
	assert_null(harness_find(s, "not one of ours at all"));
	assert_null(harness_find(s, "invalid input: key"));
	fl_sites_free(s);
}

/* Errors made further from the throw: a plain object with a message
 * thrown or rejected (less's `throw { type: 'Name', message: ... }`); a
 * factory that builds the error in a variable and returns it, called with
 * a text by a function that returns it in turn (json5's invalidChar over
 * syntaxError); a reporter reached through helpers that hand their
 * parameter on (uglify-js's token_error -> croak -> js_error); a hole whose
 * expression holds a comment and braces. */
static void test_indirect_errors(void **state)
{
	(void)state;
	const char *src =
		"function syntaxError (message) {\n"                               /* 1 */
		"    const err = new SyntaxError(message)\n"                        /* 2 */
		"    err.lineNumber = line\n"                                       /* 3 */
		"    return err\n"                                                  /* 4 */
		"}\n"                                                               /* 5 */
		"function invalidChar (c) {\n"                                      /* 6 */
		"    if (c === undefined) {\n"                                      /* 7 */
		"        return syntaxError(`JSON5: invalid end of input at ${line}:${column}`)\n" /* 8 */
		"    }\n"                                                           /* 9 */
		"    return syntaxError(`JSON5: invalid character '${formatChar(c)}' at ${line}`)\n" /* 10 */
		"}\n"                                                               /* 11 */
		"function js_error (message, filename) {\n"                         /* 12 */
		"    throw new JS_Parse_Error(message, filename)\n"                 /* 13 */
		"}\n"                                                               /* 14 */
		"function token_error (token, msg) {\n"                             /* 15 */
		"    croak(msg, token.line)\n"                                      /* 16 */
		"}\n"                                                               /* 17 */
		"function croak (msg, line) {\n"                                    /* 18 */
		"    js_error(msg, 'input')\n"                                      /* 19 */
		"}\n"                                                               /* 20 */
		"function parse (s) {\n"                                            /* 21 */
		"    if (!s) croak('Name expected for the binding')\n"              /* 22 */
		"    if (s === ';') token_error(s, 'Unexpected token in the input')\n" /* 23 */
		"    if (s === '@') throw { type: 'Name', message: `variable ${s} is undefined`, index: 3 }\n" /* 24 */
		"    if (s === '(') throw { type: 'Syntax', index: 3 }\n"             /* 25 */
		"    return new Promise((resolve, reject) => {\n"                   /* 26 */
		"        reject({ type: 'File', message: `'${s}' wasn't found in the paths`, code: 'E_NOT_FOUND' })\n" /* 27 */
		"    })\n"                                                          /* 28 */
		"}\n"                                                               /* 29 */
		"function mixin (sel) {\n"                                          /* 30 */
		"    throw new Error(`${sel.toCSS(/** @type {Ctx} */ ({})).trim()} is undefined here`)\n" /* 31 */
		"}\n";
	fl_src files[] = {{"lib/parse.js", src, strlen(src), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_js, files, 1, 0);
	EXPECT_SITE(s, "JSON5: invalid end of input at ${line}:${column}", 8, FL_T_EXCEPTION);
	const fl_site *p = EXPECT_SITE(s, "JSON5: invalid character '${formatChar(c)}' at ${line}", 10,
				       FL_T_EXCEPTION);
	harness_expect_str(p->cls, "SyntaxError");
	p = EXPECT_SITE(s, "Name expected for the binding", 22, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "JS_Parse_Error");
	p = EXPECT_SITE(s, "Unexpected token in the input", 23, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "JS_Parse_Error");
	EXPECT_SITE(s, "variable ${s} is undefined", 24, FL_T_EXCEPTION);
	p = EXPECT_SITE(s, "'${s}' wasn't found in the paths", 27, FL_T_EXCEPTION);
	harness_expect_str(p->code, "E_NOT_FOUND");
	/* the hole keeps its expression, without the comment and braces
	 * that would end the records' ${...} placeholder early */
	p = EXPECT_SITE(s, "${sel.toCSS( ()).trim()} is undefined here", 31, FL_T_EXCEPTION);
	/* no message, no site of its own */
	for (size_t k = 0; k < s->n; k++)
		assert_int_not_equal(s->v[k].line, 25);
	fl_sites_free(s);
}

/* A helper that throws its message parameter when an if on another
 * parameter says so (`function invariant(cond, msg) { if (!cond) throw new
 * TypeError(msg) }`): each call with a text is a site of that class, the
 * argument (turned) its guard, within the call's own */
static void test_conditional_throwers(void **state)
{
	(void)state;
	const char *src =
		"function invariant(condition, message) {\n"                        /* 1 */
		"  if (!condition) throw new TypeError(message)\n"                  /* 2 */
		"}\n"                                                               /* 3 */
		"function refuse(bad, message) {\n"                                 /* 4 */
		"  if (bad) {\n"                                                    /* 5 */
		"    throw new RangeError(message)\n"                               /* 6 */
		"  }\n"                                                             /* 7 */
		"}\n"                                                               /* 8 */
		"function list(opts) {\n"                                           /* 9 */
		"  invariant(opts.depth < 10, 'the depth option is too large')\n"  /* 10 */
		"  if (opts.strict) refuse(opts.n > 3, 'too many names in strict mode')\n" /* 11 */
		"}\n";
	fl_sites *s = harness_scan_tree(&fl_lang_js, &(fl_src){"lib/list.js", src, strlen(src), NULL}, 1, 0);
	const fl_site *p = EXPECT_SITE(s, "the depth option is too large", 10, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "TypeError");
	harness_expect_str(p->guard, "opts.depth >= 10");
	p = EXPECT_SITE(s, "too many names in strict mode", 11, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "RangeError");
	harness_expect_str(p->guard, "opts.strict && opts.n > 3");
	fl_sites_free(s);
}

/* A local that holds one text per branch is a site of each text, and a
 * const holding the head of the message is read into it. */
static void test_branch_texts(void **state)
{
	(void)state;
	const char *src =
		"function ruleNotFound(config, ruleId, pluginName, ruleName) {\n"            /* 1 */
		"  const header = `Key \"rules\": Key \"${ruleId}\"`;\n"                    /* 2 */
		"  let message = `${header}: Could not find plugin \"${pluginName}\".`;\n"  /* 3 */
		"  if (config.plugins[pluginName]) {\n"                                     /* 4 */
		"    message = pluginName === '@' ?\n"                                      /* 5 */
		"      `${header}: Rule \"${ruleName}\" was removed.` :\n"                 /* 6 */
		"      `${header}: Could not find \"${ruleName}\" in plugin \"${pluginName}\".`;\n" /* 7 */
		"  }\n"                                                                     /* 8 */
		"  const error = new TypeError(message);\n"                                 /* 9 */
		"  throw error;\n"                                                          /* 10 */
		"}\n"                                                                       /* 11 */
		"function load(name, list) {\n"                                             /* 12 */
		"  const known = `[${list.map(x => `'${x}'`).join(', ')}]`;\n"              /* 13 */
		"  throw new Error(`unknown loader ${name}, expected one of ${known}`);\n"  /* 14 */
		"}\n";
	fl_sites *s = harness_scan(&fl_lang_js, "lib/config.js", src);
	const fl_site *p = EXPECT_SITE(s, "Key \"rules\": Key \"${ruleId}\": Could not find plugin \"${pluginName}\".", 9, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "TypeError");
	EXPECT_SITE(s, "Key \"rules\": Key \"${ruleId}\": Rule \"${ruleName}\" was removed.", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Key \"rules\": Key \"${ruleId}\": Could not find \"${ruleName}\" in plugin \"${pluginName}\".", 9, FL_T_EXCEPTION);
	/* a const that holds code in its holes stays a placeholder */
	EXPECT_SITE(s, "unknown loader ${name}, expected one of ${known}", 14, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* Errors thrown through a factory a helper calls: js-yaml's `throwError
 * (state, message) { throw generateError(state, message) }` over a
 * factory that returns `new YAMLException(message, mark)` (the parameter
 * named as the message is the one, not the state also passed on); a
 * factory whose error is a cast `(new Error(text))`, rejected with a text
 * whose hole chooses between an empty text and a template with a hole of
 * its own (stylelint's configurationError); a warning handed on to a
 * callback through the same factory (js-yaml's throwWarning). */
static void test_factory_throwers(void **state)
{
	(void)state;
	const char *util =
		"export default function configurationError(text) {\n"
		"  const err = /** @type {ConfigurationError} */ (new Error(text));\n"
		"  err.code = 78;\n"
		"  return err;\n"
		"}\n";
	const char *loader =
		"function generateError(state, message) {\n"                       /* 1 */
		"  var mark = { name: state.filename, position: state.position };\n" /* 2 */
		"  return new YAMLException(message, mark);\n"                    /* 3 */
		"}\n"                                                             /* 4 */
		"function throwError(state, message) {\n"                         /* 5 */
		"  throw generateError(state, message);\n"                        /* 6 */
		"}\n"                                                             /* 7 */
		"function readFlow(state, ch) {\n"                                /* 8 */
		"  if (ch !== 0x2C) throwError(state, 'missed comma between flow collection entries');\n"
		"}\n"                                                             /* 10 */
		"async function getConfig(searchPath, config) {\n"                /* 11 */
		"  if (!config) {\n"                                              /* 12 */
		"    return Promise.reject(\n"                                    /* 13 */
		"      configurationError(`No configuration provided${searchPath ? ` for ${searchPath}` : ''}`),\n"
		"    );\n"                                                         /* 15 */
		"  }\n"                                                           /* 16 */
		"}\n"                                                             /* 17 */
		"function throwWarning(state, message) {\n"                       /* 18 */
		"  if (state.onWarning) {\n"                                      /* 19 */
		"    state.onWarning.call(null, generateError(state, message));\n" /* 20 */
		"  }\n"                                                           /* 21 */
		"}\n"                                                             /* 22 */
		"function readDirective(state, name) {\n"                         /* 23 */
		"  throwWarning(state, 'unknown document directive \"' + name + '\"');\n" /* 24 */
		"}\n";
	fl_src files[] = {{"lib/utils/configurationError.mjs", util, strlen(util), NULL},
			  {"lib/loader.js", loader, strlen(loader), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_js, files, 2, 1);
	const fl_site *p = EXPECT_SITE(s, "missed comma between flow collection entries", 9, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "YAMLException");
	p = EXPECT_SITE(s, "No configuration provided for ${searchPath}", 13, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "Error");
	EXPECT_SITE(s, "No configuration provided", 13, FL_T_EXCEPTION);
	/* a function named for warnings that hands the factory's error to a
	 * callback: a warning, not a throw */
	p = EXPECT_SITE(s, "unknown document directive \"{name}\"", 24, FL_T_CONSOLE);
	harness_expect_str(p->severity, FL_S_WARNING);
	harness_expect_str(p->cls, "YAMLException");
	fl_sites_free(s);
}

/* A table of messages by name (Babel's parser errors, a compiler's
 * errorMessages): each text a site at its key, a code when the key is
 * written as one; a map of names, or an object whose name says no error,
 * is none. */
static void test_message_tables(void **state)
{
	(void)state;
	const char *src =
		"const StandardErrors = {\n"                                        /* 1 */
		"  MissingSemicolon: \"Missing semicolon.\",\n"                     /* 2 */
		"  DeclarationMissingInitializer: ({\n"                             /* 3 */
		"    kind\n"                                                         /* 4 */
		"  }) => `Missing initializer in ${kind} declaration.`,\n"         /* 5 */
		"  UnexpectedToken: ({ expected }) => `Unexpected token${expected ? `, expected \"${expected}\"` : \"\"}`,\n"
		"  ParseOnly: 'parse',\n"                                           /* 7 */
		"};\n"                                                               /* 8 */
		"export const errorMessages: Record<ErrorCodes, string> = {\n"     /* 9 */
		"  [ErrorCodes.ABRUPT_CLOSING]: 'Illegal comment.',\n"             /* 10 */
		"  E_MISSING_END: 'End tag was not found for the element.',\n"    /* 11 */
		"};\n"                                                               /* 12 */
		"const ERROR_CODES = { NOT_FOUND: 'not_found', GONE: 'gone', BAD: 'bad request' };\n"
		"const labels = { save: 'Save the file', quit: 'Quit the program' };\n";
	fl_sites *s = harness_scan(&fl_lang_js, "src/errors.ts", src);
	const fl_site *p = EXPECT_SITE(s, "Missing semicolon.", 2, FL_T_EXCEPTION);
	harness_expect_str(p->idiom, "error message table");
	EXPECT_SITE(s, "Missing initializer in ${kind} declaration.", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Unexpected token", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Unexpected token, expected \"${expected}\"", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Illegal comment.", 10, FL_T_EXCEPTION);
	p = EXPECT_SITE(s, "End tag was not found for the element.", 11, FL_T_EXCEPTION);
	harness_expect_str(p->code, "E_MISSING_END");
	assert_null(harness_find_line(s, 7));
	assert_null(harness_find_line(s, 13));
	assert_null(harness_find_line(s, 14));
	fl_sites_free(s);
}

/* A table of messages by code in one file (jshint's messages.js: `var
 * warnings = { W033: "Missing semicolon.", ... }`), its codes used in
 * another where a problem is reported: the first argument of a call whose
 * name says so, a method's too, or an object's `code:` handed on.  Each
 * use is a site of the table's text, its code the key; a code used
 * otherwise, or a call whose name says nothing, is none. */
static void test_table_codes(void **state)
{
	(void)state;
	const char *msgs =
		"var errors = {\n"
		"  E001: \"Bad {a}option: '{b}'.\",\n"
		"  E017: \"Unclosed comment.\",\n"
		"  E041: \"Unrecoverable syntax error.\"\n"
		"};\n"
		"var warnings = {\n"
		"  W008: \"A leading decimal point can be confused with a dot: '{a}'.\",\n"
		"  W033: \"Missing semicolon.\",\n"
		"  W117: \"'{a}' is not defined.\"\n"
		"};\n";
	const char *lint =
		"function check(t, name) {\n"                                      /* 1 */
		"  if (!valid(name)) {\n"                                          /* 2 */
		"    error(\"E001\", t, \"\", name);\n"                        /* 3 */
		"  }\n"                                                            /* 4 */
		"  if (!t.semi) warningAt(\"W033\", t.line, t.character);\n"     /* 5 */
		"  linter.warn(\"W008\", { line: t.line, data: [t.value] });\n"  /* 6 */
		"  this.trigger(\"error\", {\n"                                  /* 7 */
		"    code: \"E017\",\n"                                          /* 8 */
		"    line: t.line\n"                                               /* 9 */
		"  });\n"                                                          /* 10 */
		"  var seen = { W117: true };\n"                                   /* 11 */
		"  lookup(\"W117\");\n"                                          /* 12 */
		"}\n";
	fl_src files[] = {{"src/messages.js", msgs, strlen(msgs), NULL},
			  {"src/lint.js", lint, strlen(lint), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_js, files, 2, 1);
	const fl_site *p = EXPECT_SITE(s, "Bad {a}option: '{b}'.", 3, FL_T_VALIDATION);
	harness_expect_str(p->code, "E001");
	harness_expect_str(p->severity, FL_S_ERROR);
	harness_expect_str(p->guard, "!valid(name)");
	p = EXPECT_SITE(s, "Missing semicolon.", 5, FL_T_VALIDATION);
	harness_expect_str(p->idiom, "warningAt");
	harness_expect_str(p->code, "W033");
	harness_expect_str(p->severity, FL_S_WARNING);
	EXPECT_SITE(s, "A leading decimal point can be confused with a dot: '{a}'.", 6, FL_T_VALIDATION);
	p = EXPECT_SITE(s, "Unclosed comment.", 8, FL_T_VALIDATION);
	harness_expect_str(p->code, "E017");
	harness_expect_str(p->idiom, "trigger");
	assert_null(harness_find_line(s, 11));
	assert_null(harness_find_line(s, 12));
	fl_sites_free(s);
	/* a CLI toolkit's error method (the cli package's cli.error) given a
	 * text of words; a value passed on, or a word, is none (any object's
	 * error method is none either: test_named_reporting_calls) */
	s = harness_scan(&fl_lang_js, "src/cli.js",
		"function run(fp, err) {\n"                                  /* 1 */
		"  if (!exists(fp)) {\n"                                     /* 2 */
		"    cli.error(\"Can't open \" + fp);\n"                     /* 3 */
		"    return;\n"                                              /* 4 */
		"  }\n"                                                      /* 5 */
		"  cli.error(err);\n"                                        /* 6 */
		"  ui.error('done');\n"                                      /* 7 */
		"}\n");
	const fl_site *q = EXPECT_SITE(s, "Can't open {fp}", 3, FL_T_CONSOLE);
	harness_expect_str(q->guard, "!exists(fp)");
	harness_expect_str(q->idiom, "cli.error");
	assert_null(harness_find_line(s, 6));
	assert_null(harness_find_line(s, 7));
	fl_sites_free(s);
}

/* Texts pushed onto a list of errors or warnings that the program prints
 * (Babel's CLI); a list of other things, a key, an object are none. */
static void test_pushed_messages(void **state)
{
	(void)state;
	const char *src =
		"function parseArgv(opts, filenames) {\n"                           /* 1 */
		"  const errors = [];\n"                                             /* 2 */
		"  filenames.forEach(function (filename) {\n"                       /* 3 */
		"    if (!fs.existsSync(filename)) errors.push(filename + \" does not exist\");\n"
		"  });\n"                                                            /* 5 */
		"  if (opts.outFile && opts.outDir) {\n"                            /* 6 */
		"    errors.push(\"--out-file and --out-dir cannot be used together\");\n"
		"  }\n"                                                              /* 8 */
		"  this.warnings.push(`option ${name} is deprecated`);\n"          /* 9 */
		"  files.push(\"a file name here\");\n"                            /* 10 */
		"  errors.push(\"ENOENT\");\n"                                       /* 11 */
		"  errors.push({ message: 'an object of its own' });\n"            /* 12 */
		"}\n";
	fl_sites *s = harness_scan(&fl_lang_js, "lib/options.js", src);
	const fl_site *p = EXPECT_SITE(s, "{filename} does not exist", 4, FL_T_CONSOLE);
	harness_expect_str(p->severity, FL_S_ERROR);
	harness_expect_str(p->guard, "!fs.existsSync(filename)");
	EXPECT_SITE(s, "--out-file and --out-dir cannot be used together", 7, FL_T_CONSOLE);
	p = EXPECT_SITE(s, "option ${name} is deprecated", 9, FL_T_CONSOLE);
	harness_expect_str(p->severity, FL_S_WARNING);
	assert_null(harness_find_line(s, 10));
	assert_null(harness_find_line(s, 11));
	assert_null(harness_find_line(s, 12));
	fl_sites_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_guards),
		cmocka_unit_test(test_helper_texts),
		cmocka_unit_test(test_param_factories),
		cmocka_unit_test(test_indirect_errors),
		cmocka_unit_test(test_conditional_throwers),
		cmocka_unit_test(test_branch_texts),
		cmocka_unit_test(test_factory_throwers),
		cmocka_unit_test(test_message_tables),
		cmocka_unit_test(test_table_codes),
		cmocka_unit_test(test_pushed_messages),
		cmocka_unit_test(test_throw_idioms),
		cmocka_unit_test(test_else_guards),
		cmocka_unit_test(test_early_exit_guards),
		cmocka_unit_test(test_switch_on_type_member),
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_http_console),
		cmocka_unit_test(test_http_exception_status_first),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_local_message_variable),
		cmocka_unit_test(test_jsx_expressions),
		cmocka_unit_test(test_no_junk),
		cmocka_unit_test(test_real_projects),
		cmocka_unit_test(test_warn_methods),
		cmocka_unit_test(test_lint_rule_messages),
		cmocka_unit_test(test_named_reporting_calls),
		cmocka_unit_test(test_error_class_defaults),
		cmocka_unit_test(test_error_class_params),
		cmocka_unit_test(test_assign_code),
		cmocka_unit_test(test_fastify_error_classes),
		cmocka_unit_test(test_asserts),
		cmocka_unit_test(test_hapi_hoek_boom),
		cmocka_unit_test(test_is_test_file),
		cmocka_unit_test(test_stderr_writes),
		cmocka_unit_test(test_robustness),
	};
	return cmocka_run_group_tests_name("js", tests, NULL, NULL);
}
