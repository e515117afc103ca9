/*
 * test_describe.c — the explanation writer (lib/scan/describe/): guards
 * stated the right way round, the error family (backgroundTag) and the
 * handling strategy of typical sites, and the defensive code in the
 * caller's language.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "faultline.h"
#include "scan/describe.h"
#include "util.h"

/* one site described: the record's explanation fields */
struct site {
	const char *lang, *path, *window, *function, *guard, *idiom, *cls, *code, *type, *msg, *unit;
	int line, window_start, http, col;
};

static void describe(fl_entry *e, const struct site *c)
{
	memset(e, 0, sizeof *e);
	e->repo = fl_xstrdup("acme/widgets");
	e->error_message = fl_xstrdup(c->msg);
	e->message_pattern = fl_message_pattern(c->msg);
	e->error_code = fl_xstrdup(c->code);
	e->error_class = fl_xstrdup(c->cls);
	e->http_status = c->http;
	e->file_path = fl_xstrdup(c->path);
	e->line_number = c->line;
	if (c->window) {
		e->source_code = fl_xstrdup(c->window);
		e->source_code_start = c->window_start;
	}
	const char *type = c->type ? c->type : FL_T_EXCEPTION;
	e->error_type = fl_xstrdup(type);
	e->severity = fl_xstrdup(FL_S_ERROR);
	fl_site s = {.line = c->line, .col = c->col ? c->col : 1, .message = c->msg, .code = c->code, .cls = c->cls,
		     .type = type, .severity = FL_S_ERROR, .http = c->http, .function = c->function,
		     .guard = c->guard, .idiom = c->idiom, .unit = c->unit};
	fl_describe(e, &s, c->lang);
}

static void has(const char *field, const char *text, const char *want)
{
	if (!text || !strstr(text, want))
		fail_msg("%s: <%s> lacks <%s>", field, text ? text : "(null)", want);
}

static void lacks(const char *field, const char *text, const char *bad)
{
	if (text && strstr(text, bad))
		fail_msg("%s: <%s> has <%s>", field, text, bad);
}

/* C: `if (get_oid_with_context(...))` is the call failing, not holding */
static void test_c_call_guard_is_a_failure(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "c", .path = "builtin/cat-file.c", .function = "cat_one_file",
			 .guard = "get_oid_with_context(the_repository, obj_name, flags, &oid, &obj_context)",
			 .idiom = "die", .type = FL_T_CONSOLE, .msg = "Not a valid object name %s", .line = 153};
	describe(&e, &c);
	has("documentation", e.documentation, "`get_oid_with_context` failed (it could not get the oid)");
	lacks("documentation", e.documentation, "holds");
	lacks("triggerScenarios", e.trigger_scenarios, "holds");
	assert_string_equal(e.background_tag, "invalid-argument");
	fl_entry_free(&e);
	/* the negated call fails too; a predicate is stated as true or false */
	c.guard = "!repo_read_index(r)";
	describe(&e, &c);
	has("documentation", e.documentation, "`repo_read_index` failed (it could not read the index)");
	fl_entry_free(&e);
	c.guard = "!is_valid_name(name)";
	describe(&e, &c);
	has("documentation", e.documentation, "`is_valid_name(name)` returns false");
	fl_entry_free(&e);
	c.guard = "strcmp(mode, \"r\")";
	describe(&e, &c);
	has("documentation", e.documentation, "`mode` is not `\"r\"`");
	fl_entry_free(&e);
}

/* C: a comparison written constant first reads variable first, the
 * operator mirrored (`QUICHE_ERR_TLS_FAIL == nread`, `0 > len`) */
static void test_c_constant_first(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "c", .path = "lib/vquic/quiche.c", .function = "cf_process_ingress",
			 .guard = "QUICHE_ERR_TLS_FAIL == nread", .idiom = "failf", .type = FL_T_CONSOLE,
			 .msg = "SSL certificate problem: %s", .line = 504};
	describe(&e, &c);
	has("documentation", e.documentation, "`nread` is `QUICHE_ERR_TLS_FAIL`");
	fl_entry_free(&e);
	c.guard = "MAX_LEN < len";
	describe(&e, &c);
	has("documentation", e.documentation, "`len` is greater than `MAX_LEN`");
	fl_entry_free(&e);
	c.guard = "0 > len";
	describe(&e, &c);
	has("documentation", e.documentation, "`len` is negative");
	fl_entry_free(&e);
	/* two constants, or a variable first: as written */
	c.guard = "count > MAX_LEN";
	describe(&e, &c);
	has("documentation", e.documentation, "`count` is greater than `MAX_LEN`");
	fl_entry_free(&e);
}

/* C: a status variable set by a call in the window names that call; what
 * the function returns after the site is said, and used by the caller */
static void test_c_status_and_return(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "c", .path = "lib/connect.c", .function = "do_connect",
			 .window = "static CURLcode do_connect(struct Curl_easy *data)\n{\n"
				   "  rc = Curl_open_socket(data, &sock);\n  if(rc) {\n"
				   "    failf(data, \"cannot open socket\");\n    return CURLE_COULDNT_CONNECT;\n  }",
			 .window_start = 10, .guard = "rc", .idiom = "failf", .type = FL_T_CONSOLE,
			 .msg = "cannot open socket", .line = 14};
	describe(&e, &c);
	has("documentation", e.documentation, "when `Curl_open_socket` failed");
	has("documentation", e.documentation, "returns `CURLE_COULDNT_CONNECT`");
	has("tryCatchPattern", e.try_catch_pattern, "do_connect(data) == CURLE_COULDNT_CONNECT");
	assert_string_equal(e.background_tag, "network-error");
	assert_string_equal(e.handling_strategy, "retry");
	fl_entry_free(&e);
	/* a report written over two lines, a comment, then the return */
	c.window = "static CURLcode do_connect(struct Curl_easy *data)\n{\n"
		   "  rc = Curl_open_socket(data, &sock);\n  if(rc) {\n"
		   "    failf(data, \"cannot open socket\",\n          data->host);\n"
		   "    /* the caller retries */\n    return CURLE_COULDNT_CONNECT;\n  }";
	describe(&e, &c);
	has("documentation", e.documentation, "returns `CURLE_COULDNT_CONNECT`");
	fl_entry_free(&e);
	/* another statement comes first: what the report leads to is not
	 * that later return */
	c.window = "static CURLcode do_connect(struct Curl_easy *data)\n{\n"
		   "  rc = Curl_open_socket(data, &sock);\n  if(rc)\n"
		   "    failf(data, \"cannot open socket\");\n  close_all(data);\n"
		   "  return CURLE_OK;\n}";
	describe(&e, &c);
	lacks("documentation", e.documentation, "returns `CURLE_OK`");
	fl_entry_free(&e);
}

/* Go: `err != nil` after `f, err := os.Open(p)` */
static void test_go_err_names_the_call(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "go", .path = "config/load.go", .function = "Load",
			 .window = "func Load(path string) (*Config, error) {\n\tf, err := os.Open(path)\n"
				   "\tif err != nil {\n\t\treturn nil, fmt.Errorf(\"cannot load config: %w\", err)\n\t}",
			 .window_start = 5, .guard = "err != nil", .idiom = "fmt.Errorf",
			 .msg = "cannot load config: %w", .line = 8, .unit = "config"};
	describe(&e, &c);
	has("documentation", e.documentation, "`Load` returns an error when `os.Open` returned an error");
	has("tryCatchPattern", e.try_catch_pattern, "if err := config.Load(path); err != nil");
	assert_string_equal(e.background_tag, "io-error");
	assert_string_equal(e.handling_strategy, "fallback");
	fl_entry_free(&e);
	/* a sentinel is compared with errors.Is */
	struct site sv = {.lang = "go", .path = "go/errors.go", .cls = "ErrNotFound",
			  .idiom = "sentinel errors.New", .msg = "store: item not found", .line = 3, .unit = "store"};
	describe(&e, &sv);
	/* qualified by the package clause's name, not the folder's */
	has("tryCatchPattern", e.try_catch_pattern, "errors.Is(err, store.ErrNotFound)");
	assert_string_equal(e.background_tag, "not-found");
	fl_entry_free(&e);
	/* no package known, an unexported name, a program's main: bare */
	sv.unit = NULL;
	describe(&e, &sv);
	has("tryCatchPattern", e.try_catch_pattern, "errors.Is(err, ErrNotFound)");
	lacks("tryCatchPattern", e.try_catch_pattern, "go.ErrNotFound");
	fl_entry_free(&e);
	sv.unit = "store";
	sv.cls = "errNotFound";
	describe(&e, &sv);
	has("tryCatchPattern", e.try_catch_pattern, "errors.Is(err, errNotFound)");
	fl_entry_free(&e);
	sv.unit = "main";
	sv.cls = "ErrNotFound";
	describe(&e, &sv);
	has("tryCatchPattern", e.try_catch_pattern, "errors.Is(err, ErrNotFound)");
	fl_entry_free(&e);
}

/* Python: checks of the parameters become the caller's checks */
static void test_python_checks(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "python", .path = "urllib3/util/timeout.py", .function = "Timeout._validate_timeout",
			 .window = "    @classmethod\n    def _validate_timeout(cls, value, name):\n"
				   "        if isinstance(value, bool):\n            raise ValueError(\n"
				   "                \"Timeout cannot be a boolean value.\"\n            )",
			 .window_start = 100, .guard = "isinstance(value, bool)", .idiom = "raise", .cls = "ValueError",
			 .msg = "Timeout cannot be a boolean value.", .line = 103};
	describe(&e, &c);
	has("documentation", e.documentation, "when `value` is a `bool`");
	assert_string_equal(e.background_tag, "type-error");
	assert_string_equal(e.handling_strategy, "type-guard");
	has("typeGuard", e.type_guard, "if isinstance(value, bool):");
	assert_null(e.validation_code);
	has("tryCatchPattern", e.try_catch_pattern, "except ValueError as e:");
	has("solutions", e.solutions.v[0], "make sure that `value` is not a `bool`");
	fl_entry_free(&e);
	/* `not args`: empty; a local is no check a caller can make */
	c.guard = "not args";
	c.window = "def update(*args, **kwds):\n    if not args:\n        raise TypeError('x')";
	c.function = "update";
	c.window_start = 101;
	c.cls = "TypeError";
	c.msg = "update() takes at least 1 argument (0 given)";
	describe(&e, &c);
	has("documentation", e.documentation, "when `args` is empty");
	fl_entry_free(&e);
	c.guard = "r is None";
	c.window = "def locate(self, requirement):\n    r = self.find(requirement)\n    if r is None:\n        raise X()";
	c.function = "Locator.locate";
	c.cls = "DistlibException";
	c.msg = "Not a valid requirement: %r";
	describe(&e, &c);
	has("documentation", e.documentation, "when `r` is `None`");
	assert_null(e.validation_code);
	has("tryCatchPattern", e.try_catch_pattern, "locator.locate(requirement)");
	fl_entry_free(&e);
}

/* the family and strategy of typical sites of each language */
static void test_family_and_strategy(void **state)
{
	(void)state;
	static const struct {
		struct site s;
		const char *family, *strategy, *catch;
	} cases[] = {
		{{.lang = "python", .path = "a.py", .function = "connect", .idiom = "raise", .cls = "ConnectionError",
		  .msg = "connection refused by {host}", .line = 3},
		 "network-error", "retry", "except ConnectionError as e:"},
		{{.lang = "python", .path = "a.py", .function = "wait", .idiom = "raise", .cls = "TimeoutError",
		  .msg = "operation timed out after {n}s", .line = 3},
		 "timeout", "retry", "except TimeoutError"},
		{{.lang = "jvm", .path = "src/Port.java", .function = "Port.parse", .idiom = "throw new",
		  .cls = "IllegalArgumentException", .msg = "invalid port: %s", .line = 3},
		 "invalid-argument", "try-catch", "catch (IllegalArgumentException e)"},
		{{.lang = "jvm", .path = "src/Port.kt", .function = "Port.parse", .idiom = "throw",
		  .cls = "IllegalStateException", .msg = "port already closed", .line = 3},
		 "invalid-state", "try-catch", "catch (e: IllegalStateException)"},
		{{.lang = "js", .path = "lib/fs.js", .function = "readConfig", .idiom = "throw new", .cls = "Error",
		  .code = "ERR_CONFIG_MISSING", .msg = "config file does not exist", .line = 3},
		 "not-found", "try-catch", "err.code === 'ERR_CONFIG_MISSING'"},
		{{.lang = "ruby", .path = "lib/a.rb", .function = "Order#transition!", .idiom = "raise",
		  .cls = "ArgumentError", .msg = "unknown state: {state}", .line = 3},
		 "not-found", "try-catch", "rescue ArgumentError => e"},
		{{.lang = "php", .path = "src/A.php", .function = "A::parse", .idiom = "throw new",
		  .cls = "UnexpectedValueException", .msg = "Could not parse version constraint {c}", .line = 3},
		 "parse-error", "try-catch", "catch (\\UnexpectedValueException $e)"},
		{{.lang = "rust", .path = "src/w.rs", .function = "Widget::load", .idiom = "Err",
		  .cls = "WidgetError::NotFound", .msg = "widget {0} not found", .line = 3},
		 "not-found", "try-catch", "Err(WidgetError::NotFound"},
		/* a resolver's conflict is one of versions, not of an item
		 * that exists already */
		{{.lang = "ruby", .path = "lib/resolver/errors.rb", .function = "VersionConflict", .idiom = "raise",
		  .cls = "Resolver::VersionConflict", .msg = "Unable to satisfy the following requirements: {r}",
		  .line = 3},
		 "incompatible-version", "try-catch", "rescue Resolver::VersionConflict"},
		{{.lang = "go", .path = "cmd/x/main.go", .function = "main", .idiom = "log.Fatalf", .type = FL_T_CONSOLE,
		  .msg = "permission denied writing %s", .line = 3},
		 "permission-denied", "fallback", "exited non-zero"},
		{{.lang = "go", .path = "x/y.go", .function = "Must", .idiom = "panic", .type = FL_T_PANIC,
		  .msg = "unreachable", .line = 3},
		 "internal-error", "validation", "recover()"},
		{{.lang = "python", .path = "a.py", .function = "get_item", .idiom = "raise", .cls = "HTTPException",
		  .http = 404, .type = FL_T_HTTP, .msg = "Item {sku} gone", .line = 3},
		 "not-found", "try-catch", "resp.status_code == 404"},
		/* a class named first for a wrong value is that, not the
		 * missing key its later word would say */
		{{.lang = "python", .path = "jwt/algorithms.py", .function = "prepare_key", .idiom = "raise",
		  .cls = "InvalidKeyError", .msg = "Expecting a PEM-formatted key.", .line = 3},
		 "invalid-argument", "try-catch", "except InvalidKeyError"},
		/* "doesn't support" is no parse error of the function's
		 * name (parse_args) */
		{{.lang = "python", .path = "a.py", .function = "parse_args", .idiom = "raise", .cls = "RuntimeError",
		  .msg = "this linker doesn't support soname args", .line = 3},
		 "unsupported", "fallback", "except RuntimeError"},
		/* a lint rule's report is about the file it checks, whatever
		 * its words ("invalid", "not found") say */
		{{.lang = "js", .path = "lib/rules/color-no-invalid-hex/index.js", .function = "check",
		  .idiom = "lint rule report", .type = FL_T_VALIDATION,
		  .msg = "Unexpected invalid hex color \"${hex}\"", .line = 57},
		 "lint-problem", "validation", ""},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		fl_entry e;
		describe(&e, &cases[k].s);
		if (strcmp(e.background_tag, cases[k].family) != 0 || strcmp(e.handling_strategy, cases[k].strategy) != 0)
			fail_msg("%s: %s/%s, want %s/%s", cases[k].s.msg, e.background_tag, e.handling_strategy,
				 cases[k].family, cases[k].strategy);
		has("tryCatchPattern", e.try_catch_pattern, cases[k].catch);
		fl_entry_free(&e);
	}
}

/* every record gets the fields, and its tags are valid kebab tags */
/* An input check's fix says the message shows the value refused only
 * when the message has a value in it. */
static void test_invalid_argument_fix(void **state)
{
	(void)state;
	struct site c = {.lang = "jvm", .path = "src/Port.java", .function = "Port.parse",
			 .idiom = "throw new", .cls = "IllegalArgumentException", .msg = "invalid port: %s",
			 .line = 3};
	fl_entry e;
	describe(&e, &c);
	assert_string_equal(e.background_tag, "invalid-argument");
	bool says = false;
	for (size_t k = 0; k < e.solutions.n; k++)
		says = says || strstr(e.solutions.v[k], "the message says which value was refused");
	assert_true(says);
	fl_entry_free(&e);
	c.msg = "invalid port";
	describe(&e, &c);
	assert_string_equal(e.background_tag, "invalid-argument");
	for (size_t k = 0; k < e.solutions.n; k++)
		assert_null(strstr(e.solutions.v[k], "says which value"));
	bool plain = false;
	for (size_t k = 0; k < e.solutions.n; k++)
		plain = plain || strstr(e.solutions.v[k], "does not show the one refused");
	assert_true(plain);
	fl_entry_free(&e);
}

/* the message's own advice is the first solution: the sentence that
 * tells what to do, quoted on one line; not a rule ("You can only"), a
 * statement ("You may be"), nor cut at "e.g."; a list after its ':' */
static void test_message_advice(void **state)
{
	(void)state;
	static const struct {
		const char *msg, *want; /* want NULL: no advice */
	} cases[] = {
		{"{}\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\nWhen it is on, newlines match.",
		 "Do what the message itself advises: \"Consider enabling multiline mode with the --multiline flag (or -U for short).\""},
		{"Please specify a gem name on the command line (e.g. gem build NAME)",
		 "Do what the message itself advises: \"Please specify a gem name on the command line (e.g. gem build NAME)\""},
		{"Could not find gem '{}'. Run `bundle install` to install missing gems.",
		 "Do what the message itself advises: \"Run `bundle install` to install missing gems.\""},
		{"Rules do not support {}.\n\nTo fix this error, either:\n- remove the rules\n- add a language\n\nMore text.",
		 "Do what the message itself advises: \"To fix this error, either: - remove the rules - add a language\""},
		{"The super POM {} was not found, please verify the integrity of your Maven installation",
		 "Do what the message itself advises: \"Please verify the integrity of your Maven installation\""},
		{"X::ignore is deprecated since 2.2, use setFilter instead.",
		 "Do what the message itself advises: \"Use setFilter instead.\""},
		{"failed to use the cache, then gave up", NULL},
		{"You can only turn file: urls into filenames (not {})", NULL},
		{"You may be getting outdated dependencies.", NULL},
		{"The record of {} is broken. You might be able to recover via 'pip install {}'.",
		 "Do what the message itself advises: \"You might be able to recover via 'pip install {}'.\""},
		{"Use of an undefined constant {}", NULL},
		{"Trying to read a closed stream", NULL},
		{"Done. \t", NULL},
		{"a line\n  \t", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct site c = {.lang = "ruby", .path = "lib/a.rb", .function = "A#run", .idiom = "raise",
				 .cls = "ArgumentError", .msg = cases[i].msg, .line = 3};
		fl_entry e;
		describe(&e, &c);
		assert_true(e.solutions.n >= 1);
		if (cases[i].want) {
			assert_string_equal(e.solutions.v[0], cases[i].want);
		} else {
			for (size_t k = 0; k < e.solutions.n; k++)
				assert_null(strstr(e.solutions.v[k], "advises"));
		}
		fl_entry_free(&e);
	}
}

/* a value assigned in the condition: the value is what is tested, not
 * the variable that keeps it (`unless spec = specs.first`, `(z =
 * parse(x)) != 0`, `$f = $in->get('format')` compared) */
static void test_assignment_in_guard(void **state)
{
	(void)state;
	static const struct {
		const char *lang, *path, *guard, *want, *bad;
	} cases[] = {
		{"ruby", "lib/a.rb", "!(spec = specs.first)", "`specs.first`", "spec ="},
		{"c", "src/a.c", "(zValue = parse_columns(z)) != 0", "`parse_columns(z)` is not zero", "zValue ="},
		{"php", "src/A.php", "($format = $input->getOption('format')) !== 'text'",
		 "`$input->getOption('format')`", "$format ="},
		{"python", "a.py", "(m := PATTERN.match(line)) is None", "`PATTERN.match(line)`", "m :="},
		{"c", "src/b.c", "a == b", "`a`", "(null)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct site c = {.lang = cases[i].lang, .path = cases[i].path, .function = "run",
				 .guard = cases[i].guard, .idiom = "raise", .cls = "Error",
				 .msg = "bad input", .line = 3};
		fl_entry e;
		describe(&e, &c);
		has("documentation", e.documentation, cases[i].want);
		lacks("documentation", e.documentation, cases[i].bad);
		fl_entry_free(&e);
	}
}

static void test_fields_always_filled(void **state)
{
	(void)state;
	static const char *const langs[] = {"c", "go", "python", "js", "jvm", "ruby", "php", "rust", "csharp"};
	static const char *const paths[] = {"a.c", "a.go", "a.py", "a.js", "A.java", "a.rb", "a.php", "a.rs", "A.cs"};
	static const char *const generic[] = {"error", "errors", "exception", "exceptions", "failure", "failures", "unknown"};
	for (size_t k = 0; k < sizeof langs / sizeof langs[0]; k++) {
		fl_entry e;
		struct site c = {.lang = langs[k], .path = paths[k], .idiom = "raise", .msg = "something odd: {x}", .line = 1};
		describe(&e, &c);
		assert_non_null(e.documentation);
		assert_non_null(e.handling_strategy);
		assert_non_null(e.try_catch_pattern);
		assert_non_null(e.background_tag);
		assert_true(e.solutions.n >= 2);
		assert_true(e.tags.n >= 2);
		for (size_t g = 0; g < sizeof generic / sizeof generic[0]; g++)
			assert_string_not_equal(e.background_tag, generic[g]);
		for (size_t t = 0; t < e.tags.n; t++) {
			const char *p = e.tags.v[t];
			assert_true(*p >= 'a' && *p <= 'z');
			for (; *p; p++)
				assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
					    (*p == '-' && p[1] && p[1] != '-'));
		}
		fl_entry_free(&e);
	}
}

/* a before/after fix only when the facts name both sides */
static void test_example_fix(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "php", .path = "src/Installer.php", .function = "Installer::setIgnore",
			 .idiom = "trigger_error", .type = FL_T_CONSOLE, .line = 3,
			 .msg = "Installer::setIgnore is deprecated since 2.2, use setFilter instead."};
	describe(&e, &c);
	assert_string_equal(e.example_fix, "// before\nInstaller::setIgnore\n// after\nsetFilter");
	assert_string_equal(e.background_tag, "deprecated");
	fl_entry_free(&e);
	/* a list of replacements is no single fix */
	c.msg = "\"symlink\" is deprecated, use auto, full or proxy instead.";
	describe(&e, &c);
	assert_null(e.example_fix);
	fl_entry_free(&e);
	/* Rust's .expect: return the error instead */
	struct site r = {.lang = "rust", .path = "src/size.rs", .function = "parse_size", .guard = "s.trim().parse()",
			 .idiom = ".expect", .type = FL_T_PANIC, .line = 3, .msg = "size must be a number"};
	describe(&e, &r);
	has("exampleFix", e.example_fix, "let v = s.trim().parse().context(\"size must be a number\")?;");
	has("documentation", e.documentation, "when `s.trim().parse()` holds no value (an `Err` or `None`)");
	fl_entry_free(&e);
	/* otherwise none */
	struct site n = {.lang = "go", .path = "a/b.go", .function = "F", .idiom = "errors.New", .line = 3,
			 .msg = "bad thing"};
	describe(&e, &n);
	assert_null(e.example_fix);
	fl_entry_free(&e);
}

/* Rust's Option and Result in words: a failed call, a None; anyhow's
 * context as the context of the receiver's error */
static void test_rust_results(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "rust", .path = "src/build.rs", .function = "main", .idiom = "panic!",
			 .type = FL_T_PANIC, .line = 3, .guard = "let Err(err) = File::create(&stamp_path)",
			 .msg = "failed to write {}: {}"};
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "`File::create(&stamp_path)` failed");
	fl_entry_free(&e);
	struct site n = {.lang = "rust", .path = "src/m.rs", .function = "Manifest::name", .idiom = "Err",
			 .type = FL_T_EXCEPTION, .line = 3, .guard = "v.get(\"name\").is_none()",
			 .msg = "missing field `name`"};
	describe(&e, &n);
	has("triggerScenarios", e.trigger_scenarios, "`v.get(\"name\")` is `None`");
	fl_entry_free(&e);
	n.guard = "let Some(v) = v.get(\"name\")";
	describe(&e, &n);
	has("triggerScenarios", e.trigger_scenarios, "`v.get(\"name\")` is not `None`");
	fl_entry_free(&e);
	struct site w = {.lang = "rust", .path = "src/m.rs", .function = "read_manifest", .idiom = ".with_context",
			 .type = FL_T_EXCEPTION, .line = 3, .guard = "toml::from_str(&contents).is_err()",
			 .msg = "failed to parse manifest at `{}`"};
	describe(&e, &w);
	has("documentation", e.documentation,
	    "returns the error of `toml::from_str(&contents)` with this message added as its context");
	has("solutions", e.solutions.v[0], "under `Caused by:`");
	assert_null(strstr(e.trigger_scenarios, "returns true"));
	fl_entry_free(&e);
}

/* any guard, function name, message and window: no crash, fields filled */
static void test_random_facts(void **state)
{
	(void)state;
	static const char alphabet[] = "ab_$x1 ()[]{}!&|=<>'\"`.,:-;?*#%\\\n";
	static const char *const langs[] = {"c", "go", "python", "js", "jvm", "ruby", "php", "rust", "csharp"};
	static const char *const paths[] = {"a.c", "a.go", "a.py", "a.ts", "A.kt", "a.rb", "a.php", "a.rs", "A.cs"};
	unsigned seed = 12345;
	char guard[64], fn[16], msg[40], win[200];
	for (int k = 0; k < 3000; k++) {
		char *bufs[] = {guard, fn, msg, win};
		size_t lens[] = {sizeof guard, sizeof fn, sizeof msg, sizeof win};
		for (int b = 0; b < 4; b++) {
			seed = seed * 1103515245u + 12345u;
			size_t n = (seed >> 16) % lens[b];
			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				bufs[b][i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
			}
			bufs[b][n] = '\0';
		}
		if (!msg[0])
			strcpy(msg, "m");
		size_t l = (size_t)k % 9;
		struct site c = {.lang = langs[l], .path = paths[l], .function = fn[0] ? fn : NULL,
				 .guard = guard[0] ? guard : NULL, .idiom = k % 3 ? "raise" : "sentinel errors.New",
				 .cls = k % 5 ? NULL : "E", .msg = msg, .line = 1 + k % 4, .window = win,
				 .window_start = 1, .type = k % 7 ? NULL : FL_T_CONSOLE};
		fl_entry e;
		describe(&e, &c);
		assert_non_null(e.documentation);
		assert_non_null(e.try_catch_pattern);
		assert_true(e.solutions.n >= 2);
		fl_entry_free(&e);
	}
}


/* positional placeholders are named by the raising call's arguments:
 * printf's after the format, Python's `%` and .format(), Rust's format! */
static void test_placeholder_arguments(void **state)
{
	(void)state;
	fl_entry e;
	struct site g = {.lang = "go", .path = "store/store.go", .function = "Store.Reserve",
			 .window = "func (s *Store) Reserve(id string, qty int) error {\n\tn := s.count(id)\n"
				   "\tif n < qty {\n\t\treturn fmt.Errorf(\"only %d of %s left, %d wanted\", n, id, qty)\n\t}",
			 .window_start = 20, .col = 10, .guard = "n < qty", .idiom = "fmt.Errorf",
			 .msg = "only %d of %s left, %d wanted", .line = 23};
	describe(&e, &g);
	has("documentation", e.documentation,
	    "In the message, the first `%d` is the value of `n` (returned by `s.count`), `%s` is the `id` argument and the second `%d` is the `qty` argument.");
	lacks("documentation", e.documentation, "filled with the values involved");
	fl_entry_free(&e);
	/* a count that is not the arguments' count: nothing is said of them */
	g.msg = "only %d of %s left";
	describe(&e, &g);
	lacks("documentation", e.documentation, "is the `id` argument");
	fl_entry_free(&e);
	/* a literal that is not the message's: not read */
	g.window = "func (s *Store) Reserve(id string, qty int) error {\n\tn := s.count(id)\n"
		   "\tif n < qty {\n\t\treturn fmt.Errorf(\"%s\", msg)\n\t}";
	g.msg = "value %d is out of range";
	describe(&e, &g);
	lacks("documentation", e.documentation, "is the value of `msg`");
	fl_entry_free(&e);
	struct site py = {.lang = "python", .path = "shop/cart.py", .function = "Cart.add",
			  .window = "    def add(self, item, qty):\n        if qty > self.limit:\n"
				    "            raise ValueError(\"%s: %d is over the limit\" % (item.name, len(self.items)))",
			  .window_start = 10, .col = 13, .guard = "qty > self.limit", .idiom = "raise", .cls = "ValueError",
			  .msg = "%s: %d is over the limit", .line = 12};
	describe(&e, &py);
	has("documentation", e.documentation, "`%s` is the value of `item.name` and `%d` is the length of `self.items`");
	fl_entry_free(&e);
	py.window = "    def add(self, item, qty):\n        if qty > self.limit:\n"
		    "            raise ValueError(\"{} is over {}\".format(qty, self.limit))";
	py.msg = "{} is over {}";
	describe(&e, &py);
	has("documentation", e.documentation, "the first `{}` is the `qty` argument and the second `{}` is the value of `self.limit`");
	fl_entry_free(&e);
	struct site rs = {.lang = "rust", .path = "src/shift.rs", .function = "shl",
			  .window = "pub fn shl(fp: &mut Float, shift: i32) {\n    if shift > 64 {\n"
				    "        panic!(\"shift {} of {:?} too wide\", shift, fp);\n    }",
			  .window_start = 1, .col = 9, .guard = "shift > 64", .idiom = "panic!", .type = FL_T_PANIC,
			  .msg = "shift {} of {:?} too wide", .line = 3};
	describe(&e, &rs);
	has("documentation", e.documentation, "`{}` is the `shift` argument and `{:?}` is the `fp` argument");
	fl_entry_free(&e);
	/* named ones: a call's type and length, a template's condition */
	struct site js = {.lang = "js", .path = "lib/load.js", .function = "load", .idiom = "throw new", .cls = "Error",
			  .msg = "cannot load ${verbose ? name : 'the project'}: ${type(x)}", .line = 3};
	describe(&e, &js);
	has("documentation", e.documentation, "is `name` when `verbose` holds, else `'the project'`");
	has("documentation", e.documentation, "`${type(x)}` is the type of `x`");
	fl_entry_free(&e);
	/* Python's %(name)s, of any conversion: the name alone */
	py.window = "            raise ArgumentError(action, msg % args)";
	py.msg = "invalid %(type)s value: %(value)r";
	describe(&e, &py);
	has("documentation", e.documentation, "`%(type)s` is the value of `type` and `%(value)r` is the value of `value`");
	fl_entry_free(&e);
	/* ... or the value its dict gives it in the window */
	py.window = "    def add(self, item, qty):\n"
		    "        args = {'type': type(item).__name__, \"value\": qty}\n"
		    "        raise ArgumentError(item, msg % args)";
	py.window_start = 10;
	py.line = 12;
	describe(&e, &py);
	has("documentation", e.documentation, "`%(type)s` is the type of `item` and `%(value)r` is the `qty` argument");
	fl_entry_free(&e);
}

/* a constructor is named as its own language names one: a PHP command's
 * initialize() or a JavaScript object's init() is called as a method */
static void test_constructor_by_language(void **state)
{
	(void)state;
	static const struct {
		const char *lang, *path, *function, *call, *not;
	} cases[] = {
		{"php", "src/ConfigCommand.php", "ConfigCommand::initialize", "$configCommand->initialize(",
		 "new ConfigCommand"},
		{"php", "src/Pool.php", "Pool::__construct", "new Pool(", "->__construct"},
		{"ruby", "lib/order.rb", "Order#initialize", "Order.new(", "order.initialize"},
		{"python", "shop/cart.py", "Cart.__init__", "Cart(", "__init__("},
		{"python", "shop/cart.py", "Cart.initialize", "cart.initialize(", "Cart("},
		{"js", "lib/widget.js", "Widget.constructor", "new Widget(", "constructor("},
		{"js", "lib/widget.js", "Widget.init", "widget.init(", "new Widget"},
		{"jvm", "src/Port.java", "Port.Port", "new Port(", "port.Port"},
		{"jvm", "src/Map.java", "Map.init", "map.init(", "new Map"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fl_entry e;
		struct site c = {.lang = cases[i].lang, .path = cases[i].path, .function = cases[i].function,
				 .guard = "size < 0", .idiom = "throw new", .cls = "InvalidArgumentException",
				 .msg = "size must not be negative", .line = 12};
		describe(&e, &c);
		has(cases[i].function, e.try_catch_pattern, cases[i].call);
		lacks(cases[i].function, e.try_catch_pattern, cases[i].not);
		fl_entry_free(&e);
	}
}

/* a condition written twice (nested checks of one value, the value
 * fetched again between them) is said once */
static void test_repeated_condition_once(void **state)
{
	(void)state;
	static const struct {
		const char *lang, *path, *guard, *want, *twice;
	} cases[] = {
		{"python", "jwt/keys.py", "not signing_key and not signing_key", "`signing_key` is empty (",
		 "empty and empty"},
		{"c", "src/shm.c", "p->fd < 0 && p->fd < 0", "`p->fd` is negative (", "negative and negative"},
		{"go", "env.go", "err != nil || err != nil", "returned an error in `err` (", "`err` or"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fl_entry e;
		struct site c = {.lang = cases[i].lang, .path = cases[i].path, .function = "load",
				 .guard = cases[i].guard, .idiom = "raise", .cls = "KeyError",
				 .msg = "no key matches", .line = 12};
		describe(&e, &c);
		has(cases[i].guard, e.trigger_scenarios, cases[i].want);
		lacks(cases[i].guard, e.trigger_scenarios, cases[i].twice);
		fl_entry_free(&e);
	}
}

/* an argument written over several lines, or with a comment after it,
 * is named as one line of code; Ruby's `&:name` and a `? :` in a
 * placeholder are no format spec */
static void test_argument_as_written(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "c", .path = "lib/tls.c", .function = "tls_connect",
			 .window = "static int tls_connect(struct conn *conn)\n{\n  if (ssl_err(conn)) {\n"
				   "    failf(conn, \"TLS failed: %s\", tls_strerror(ERR_get_error(), buf,\n"
				   "                                  sizeof(buf)));\n    return -1;\n  }",
			 .window_start = 10, .col = 5, .guard = "ssl_err(conn)", .idiom = "failf", .type = FL_T_CONSOLE,
			 .msg = "TLS failed: %s", .line = 13};
	describe(&e, &c);
	has("documentation", e.documentation, "`tls_strerror(ERR_get_error(), buf, sizeof(buf))`");
	fl_entry_free(&e);
	struct site py = {.lang = "python", .path = "shop/cart.py", .function = "Cart.add",
			  .window = "    def add(self, item, qty):\n        if qty > self.limit:\n"
				    "            raise ValueError(\"{} is over {}\".format(  # noqa: E501\n"
				    "                qty,  # the count asked for\n                self.limit))",
			  .window_start = 10, .col = 13, .guard = "qty > self.limit", .idiom = "raise", .cls = "ValueError",
			  .msg = "{} is over {}", .line = 12};
	describe(&e, &py);
	has("documentation", e.documentation, "the first `{}` is the `qty` argument and the second `{}` is the value of `self.limit`");
	lacks("documentation", e.documentation, "noqa");
	fl_entry_free(&e);
	struct site rb = {.lang = "ruby", .path = "lib/deps.rb", .function = "Deps#check", .idiom = "raise",
			  .cls = "GemNotFound", .line = 30,
			  .msg = "missing {specs.map(&:name).join(\", \")} while {@strict ? \"locking\" : \"resolving\"}"};
	describe(&e, &rb);
	has("documentation", e.documentation, "`specs.map(&:name).join(\", \")`");
	lacks("documentation", e.documentation, "`specs.map(&`");
	has("documentation", e.documentation, "`\"locking\"` when `strict` holds, else `\"resolving\"`");
	fl_entry_free(&e);
}

/* `count() == 0` measures the object itself: no empty name is said */
static void test_measured_without_argument(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "jvm", .path = "src/Stats.java", .function = "Stats.mean",
			 .guard = "count() == 0", .idiom = "checkState", .cls = "IllegalStateException",
			 .msg = "no values", .line = 40};
	describe(&e, &c);
	has("documentation", e.documentation, "when `count()` is zero");
	lacks("documentation", e.documentation, "``");
	fl_entry_free(&e);
	c.guard = "count(values) == 0";
	describe(&e, &c);
	has("documentation", e.documentation, "when `values` is empty");
	fl_entry_free(&e);
}

/* a comparison written with true or false first (PHP's `false ===
 * f()`) reads with the value that varies first */
static void test_boolean_first(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "php", .path = "src/Bump.php", .function = "Bump::write",
			 .guard = "false === $contents", .idiom = "throw new", .cls = "RuntimeException",
			 .msg = "could not read the file", .line = 40};
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "`$contents` is `false`");
	lacks("triggerScenarios", e.trigger_scenarios, "`false` is");
	fl_entry_free(&e);
	/* a value after a negation of the same subject keeps its "is" */
	c.guard = "isset($config['packagist']) && false === $config['packagist']";
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "is not `null` and is `false`");
	fl_entry_free(&e);
	c.guard = "true !== $validator($value)";
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "`$validator($value)` is not `true`");
	fl_entry_free(&e);
	/* C's strcmp with the literal first */
	struct site cc = {.lang = "c", .path = "src/main.c", .function = "main",
			  .guard = "strcmp(\"-\", args.arg_names[i]) == 0", .idiom = "message_error",
			  .type = FL_T_CONSOLE, .msg = "Cannot read data from standard input", .line = 40};
	describe(&e, &cc);
	has("triggerScenarios", e.trigger_scenarios, "`args.arg_names[i]` is `\"-\"`");
	lacks("triggerScenarios", e.trigger_scenarios, "`\"-\"` is");
	fl_entry_free(&e);
}

/* the raising construct: code as code, a scanner's word for it in words */
static void test_construct_named(void **state)
{
	(void)state;
	static const struct {
		const char *lang, *idiom, *type, *want;
	} cases[] = {
		{"c", "error message table", NULL, "It is raised by an error message table at"},
		{"c", "fprintf(error stream)", FL_T_CONSOLE, "It is written by `fprintf` (error stream) at"},
		{"python", "raising helper _fail", NULL, "It is raised by the raising helper `_fail` at"},
		{"python", "print in except", FL_T_CONSOLE, "It is written by a `print` in an `except` block at"},
		{"js", "reporting call", FL_T_CONSOLE, "It is written by a call of a reporting function at"},
		{"jvm", "throw new", NULL, "It is raised by `throw new` at"},
		{"c", "fprintf(stderr)", FL_T_CONSOLE, "It is written by `fprintf(stderr)` at"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fl_entry e;
		struct site c = {.lang = cases[i].lang, .path = "src/a.c", .function = "run", .idiom = cases[i].idiom,
				 .type = cases[i].type, .msg = "bad input", .line = 7};
		describe(&e, &c);
		has(cases[i].idiom, e.documentation, cases[i].want);
		fl_entry_free(&e);
	}
}

/* a fatal log is how a program reports a misuse and exits: no internal
 * error unless it panics or asserts */
static void test_fatal_log_is_no_bug(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "go", .path = "internal/modcmd/graph.go", .function = "runGraph",
			 .idiom = "base.Fatalf", .type = FL_T_CONSOLE, .guard = "len(args) > 0",
			 .msg = "go: 'go mod graph' accepts no arguments", .line = 51};
	describe(&e, &c);
	if (strcmp(e.background_tag, "usage-error") != 0)
		fail_msg("accepts no arguments: %s", e.background_tag);
	fl_entry_free(&e);
	c.msg = "writing output: %v";
	c.guard = NULL;
	c.function = "Help";
	describe(&e, &c);
	if (strcmp(e.background_tag, "internal-error") == 0)
		fail_msg("a fatal log: %s", e.background_tag);
	fl_entry_free(&e);
	c.idiom = "panic";
	c.type = FL_T_PANIC;
	describe(&e, &c);
	if (strcmp(e.background_tag, "internal-error") != 0)
		fail_msg("a panic: %s", e.background_tag);
	fl_entry_free(&e);
}

/* a function that takes nothing is called with nothing: `f()`, not
 * `f(...)` (unknown) nor C's `f(void)`; a class's variable is camelCase
 * with a leading acronym lowered whole */
static void test_call_without_arguments(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "c", .path = "src/shell.c", .function = "out_of_memory",
			 .window = "static void out_of_memory(void)\n{\n  fprintf(stderr, \"out of memory\\n\");\n  exit(1);\n}",
			 .window_start = 10, .col = 3, .idiom = "fprintf(stderr)", .type = FL_T_CONSOLE,
			 .msg = "out of memory", .line = 12};
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "`out_of_memory()`");
	lacks("triggerScenarios", e.trigger_scenarios, "(void)");
	fl_entry_free(&e);
	struct site py = {.lang = "python", .path = "pkg/lock.py", .function = "Lock.acquire",
			  .window = "    def acquire(self):\n        if self.held:\n            raise LockError(\"already held\")",
			  .window_start = 20, .col = 13, .guard = "self.held", .idiom = "raise", .cls = "LockError",
			  .msg = "already held", .line = 22};
	describe(&e, &py);
	has("tryCatchPattern", e.try_catch_pattern, "lock.acquire()");
	fl_entry_free(&e);
	struct site js = {.lang = "js", .path = "lib/eslint.js", .function = "ESLint.lintText",
			  .window = "  lintText(code) {\n    if (!code) {\n      throw new Error(\"no code\");",
			  .window_start = 30, .col = 7, .guard = "!code", .idiom = "throw new", .cls = "Error",
			  .msg = "no code", .line = 32};
	describe(&e, &js);
	has("tryCatchPattern", e.try_catch_pattern, "esLint.lintText(code)");
	fl_entry_free(&e);
	/* an array type's brackets are the type's: `final int[] dst` is dst;
	 * C's `char buf[16]` is buf */
	struct site jv = {.lang = "jvm", .path = "src/Conversion.java", .function = "Conversion.longToIntArray",
			  .window = "    public static int[] longToIntArray(final long src, final int srcPos, final int[] dst,\n"
				    "            final int dstPos, final int nInts) {\n"
				    "        if (nInts > 2) {\n"
				    "            throw new IllegalArgumentException(\"too many ints\");",
			  .window_start = 50, .col = 13, .guard = "nInts > 2", .idiom = "throw new",
			  .cls = "IllegalArgumentException", .msg = "too many ints", .line = 53};
	describe(&e, &jv);
	has("triggerScenarios", e.trigger_scenarios, "Conversion.longToIntArray(src, srcPos, dst, dstPos, nInts)");
	fl_entry_free(&e);
	struct site cb = {.lang = "c", .path = "src/io.c", .function = "put_line",
			  .window = "static int put_line(char buf[16], int n)\n{\n  if (n > 16)\n    fprintf(stderr, \"line too long\\n\");",
			  .window_start = 10, .col = 5, .guard = "n > 16", .idiom = "fprintf(stderr)", .type = FL_T_CONSOLE,
			  .msg = "line too long", .line = 13};
	describe(&e, &cb);
	has("triggerScenarios", e.trigger_scenarios, "put_line(buf, n)");
	fl_entry_free(&e);
}

/* what the function returns right after the report: the whole
 * expression (a call's arguments too), not when the report is the
 * returned call itself */
static void test_returns_after(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "c", .path = "lib/url.c", .function = "parse_url",
			 .window = "static int parse_url(const char *u)\n{\n  if(!u) {\n    failf(data, \"no URL given\");\n"
				   "    return result_of(CURLE_URL_MALFORMAT, 1);\n  }\n  return 0;\n}",
			 .window_start = 10, .col = 5, .guard = "!u", .idiom = "failf", .type = FL_T_CONSOLE,
			 .msg = "no URL given", .line = 13};
	describe(&e, &c);
	has("documentation", e.documentation, "The function then returns `result_of(CURLE_URL_MALFORMAT, 1)`.");
	fl_entry_free(&e);
	struct site t = {.lang = "c", .path = "src/builtin.c", .function = "f_multiply",
			 .window = "static jv f_multiply(jv a, jv b)\n{\n  if (a == b)\n    return a;\n"
				   "  return type_error2(a, b, \"cannot be multiplied\");\n}",
			 .window_start = 10, .col = 10, .idiom = "type_error2", .type = FL_T_CONSOLE,
			 .msg = "%s (%s) and %s (%s) cannot be multiplied", .line = 14};
	describe(&e, &t);
	lacks("documentation", e.documentation, "then returns");
	fl_entry_free(&e);
	/* an error message table: the return is the site itself */
	struct site tb = {.lang = "c", .path = "src/message.c", .function = "message_strm",
			  .window = "const char *message_strm(lzma_ret code)\n{\n  switch (code) {\n  case LZMA_DATA_ERROR:\n"
				    "    return _(\"Compressed data is corrupt\");\n",
			  .window_start = 10, .col = 5, .guard = "code == LZMA_DATA_ERROR", .idiom = "error message table",
			  .type = FL_T_CONSOLE, .msg = "Compressed data is corrupt", .line = 14};
	describe(&e, &tb);
	lacks("documentation", e.documentation, "then returns");
	/* its handling: the caller prints the text it gives */
	has("tryCatchPattern", e.try_catch_pattern, "const char *text = message_strm(code);");
	lacks("tryCatchPattern", e.try_catch_pattern, "writes");
	fl_entry_free(&e);
}

/* a C module's predicate (`hardware_threads_is_mt()`) returns true or
 * false; it does not fail */
static void test_c_module_predicate(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "c", .path = "src/coder.c", .function = "set_threads",
			 .guard = "hardware_memlimit_mtenc_is_default()", .idiom = "message", .type = FL_T_CONSOLE,
			 .msg = "Reduced the number of threads", .line = 40};
	describe(&e, &c);
	lacks("documentation", e.documentation, "failed");
	has("documentation", e.documentation, "`hardware_memlimit_mtenc_is_default()`");
	fl_entry_free(&e);
}

/* more than four comparisons of one value (a switch's default over many
 * labels) read as one: none of them, or one of them */
static void test_one_of_many(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "jvm", .path = "src/Event.java", .function = "Event.setType",
			 .guard = "type != A && type != B && type != C && type != D && type != E",
			 .idiom = "throw new", .cls = "IllegalArgumentException",
			 .msg = "Illegal event type: {type}", .line = 40};
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "`type` is none of `A`, `B`, `C`, `D` and `E`");
	fl_entry_free(&e);
	c.guard = "type == A || type == B || type == C || type == D || type == E";
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "`type` is one of `A`, `B`, `C`, `D` or `E`");
	fl_entry_free(&e);
	/* more than eight: six named, then how many more */
	c.guard = "k != V1 && k != V2 && k != V3 && k != V4 && k != V5 && k != V6 && k != V7 && k != V8 && k != V9 && k != V10";
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "`k` is none of `V1`, `V2`, `V3`, `V4`, `V5`, `V6` and 4 other values");
	fl_entry_free(&e);
	/* two values compared: as written */
	c.guard = "type != A && kind != B && type != C && type != D && type != E";
	describe(&e, &c);
	lacks("triggerScenarios", e.trigger_scenarios, "none of");
	fl_entry_free(&e);
}

/* a null check with no message of its own fails when its first argument
 * is null: `checkNotNull(map)` is the guard `map == null`; of two on a
 * line, the site's */
static void test_null_check_without_message(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "jvm", .path = "src/Graph.java", .function = "Graph.Graph",
			 .window = "  Graph(Map<E, N> edges, Set<N> nodes) {\n"
				   "    this.edges = checkNotNull(edges); this.nodes = checkNotNull(nodes);\n  }",
			 .window_start = 40, .col = 18, .idiom = "checkNotNull", .cls = "NullPointerException",
			 .msg = "NullPointerException", .line = 41};
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "when `edges` is `null`");
	lacks("triggerScenarios", e.trigger_scenarios, "no condition");
	fl_entry_free(&e);
	c.col = 52;
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "when `nodes` is `null`");
	fl_entry_free(&e);
}

/* a handler written with its brace on a line of its own (Allman style)
 * is still the handler the raise is in */
static void test_catch_brace_own_line(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "jvm", .path = "src/Activator.java", .function = "Activator.isActive",
			 .window = "    public boolean isActive( Profile profile )\n    {\n        try\n        {\n"
				   "            return match( profile );\n        }\n"
				   "        catch ( InvalidVersionException e )\n        {\n"
				   "            throw new ActivationException( \"Invalid JDK version\", e );\n        }\n    }",
			 .window_start = 50, .col = 13, .idiom = "throw new", .cls = "ActivationException",
			 .msg = "Invalid JDK version", .line = 58};
	describe(&e, &c);
	has("triggerScenarios", e.trigger_scenarios, "raises `InvalidVersionException`");
	lacks("triggerScenarios", e.trigger_scenarios, "no condition");
	fl_entry_free(&e);
}

/* a handler of any error (JavaScript's `catch (err)`, Python's bare
 * `except:`, Ruby's bare `rescue`): the raise is in it */
static void test_catch_any(void **state)
{
	(void)state;
	static const struct {
		const char *lang, *path, *window;
	} cases[] = {
		{"js", "lib/run.js",
		 "function run(cmd) {\n  try {\n    exec(cmd);\n  } catch (err) {\n    throw new Error(\"cannot run\");\n  }\n}"},
		{"python", "pkg/run.py",
		 "def run(cmd):\n    try:\n        exec_(cmd)\n    except:\n        raise RunError(\"cannot run\")"},
		{"ruby", "lib/run.rb",
		 "def run(cmd)\n  begin\n    exec(cmd)\n  rescue => e\n    raise RunError, \"cannot run\"\n  end\nend"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fl_entry e;
		struct site c = {.lang = cases[i].lang, .path = cases[i].path, .function = "run",
				 .window = cases[i].window, .window_start = 1, .col = 5, .idiom = "raise",
				 .cls = "RunError", .msg = "cannot run", .line = 5};
		describe(&e, &c);
		has(cases[i].lang, e.trigger_scenarios, "block before it fails");
		fl_entry_free(&e);
	}
}

/* a failure of no family says what the facts say and nothing empty */
static void test_no_family_no_filler(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "go", .path = "ready.go", .function = "waitReady", .idiom = "errors.New",
			 .msg = "server gave up", .line = 5};
	describe(&e, &c);
	assert_string_equal(e.background_tag, "operation-failed");
	lacks("documentation", e.documentation, "did not succeed");
	lacks("commonSituations", e.common_situations, "Typically");
	assert_true(e.solutions.n >= 2);
	for (size_t i = 0; i < e.solutions.n; i++)
		lacks("solutions", e.solutions.v[i], "Read the message with the source window");
	fl_entry_free(&e);
}

/* A negation before a group of terms turns its first term alone
 * (`!deferred && n > 0`), a group in brackets all of it. */
static void test_negation_scope(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "c", .path = "src/fk.c", .function = "check_fk", .idiom = "vdbe_error",
			 .type = FL_T_CONSOLE, .msg = "FOREIGN KEY constraint failed", .line = 5,
			 .guard = "(deferred && p->nDeferred>0) || (!deferred && p->nFkConstraint>0)"};
	describe(&e, &c);
	has("documentation", e.documentation, "`!deferred && p->nFkConstraint>0` is true");
	lacks("documentation", e.documentation, "`deferred && p->nFkConstraint>0` is false");
	fl_entry_free(&e);
	c.guard = "!(p->a && p->b)";
	describe(&e, &c);
	has("documentation", e.documentation, "`p->a && p->b` is false");
	fl_entry_free(&e);
	struct site py = {.lang = "python", .path = "a.py", .function = "f", .idiom = "raise",
			  .cls = "ValueError", .msg = "bad shelf", .line = 3, .guard = "not a and b"};
	describe(&e, &py);
	lacks("documentation", e.documentation, "`a and b` is false");
	fl_entry_free(&e);
}

/* tags: no folder that only says how a project is laid out */
static void test_tags_no_layout_folders(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "python", .path = "tests/fixtures/src/lib/internal/pkg/billing/invoice.py",
			 .function = "render", .idiom = "raise", .cls = "ValueError", .msg = "bad invoice", .line = 5};
	describe(&e, &c);
	bool billing = false;
	for (size_t i = 0; i < e.tags.n; i++) {
		static const char *const noise[] = {"tests", "fixtures", "src", "lib", "internal", "pkg"};
		for (size_t k = 0; k < 6; k++)
			if (strcmp(e.tags.v[i], noise[k]) == 0)
				fail_msg("tag <%s>", e.tags.v[i]);
		billing |= strcmp(e.tags.v[i], "billing") == 0;
	}
	assert_true(billing);
	fl_entry_free(&e);
}

/* guards that mix "and" and "or", and conditions on one value */
static void test_mixed_guards(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "go", .path = "args.go", .function = "legacyArgs",
			 .window = "func legacyArgs(cmd *Command, args []string) error {\n\tif !cmd.HasParent() && len(args) > 0 || cmd.strict {",
			 .window_start = 1, .guard = "!cmd.HasParent() && len(args) > 0 || cmd.strict", .idiom = "fmt.Errorf",
			 .msg = "unknown command", .line = 3};
	describe(&e, &c);
	has("documentation", e.documentation,
	    "when either `cmd.HasParent()` returns false and `args` is not empty, or `cmd.strict` is true");
	lacks("documentation", e.documentation, "&&");
	fl_entry_free(&e);
	c.guard = "a == nil || b == nil && c";
	describe(&e, &c);
	has("documentation", e.documentation, "either `a` is `nil`, or `b` is `nil` and `c` is true");
	fl_entry_free(&e);
	/* the state that avoids it: each group's opposite */
	c.window = "func legacyArgs(a, b *T, c bool) error {\n\tif a == nil || b == nil && c {\n\t\treturn fmt.Errorf(\"unknown command\")";
	describe(&e, &c);
	has("solutions", e.solutions.v[0], "`a` is not `nil`, and either `b` is not `nil` or `c` is false");
	fl_entry_free(&e);
	/* one value in two conditions is named once */
	struct site py = {.lang = "python", .path = "adapters.py", .function = "cert_verify", .idiom = "raise", .cls = "OSError",
			  .guard = "conn.key_file and not os.path.exists(conn.key_file)", .msg = "no key file", .line = 9};
	describe(&e, &py);
	has("documentation", e.documentation, "when `conn.key_file` is set and does not exist");
	fl_entry_free(&e);
	/* a condition said with "is" after one said with a verb keeps its
	 * subject */
	py.guard = "not args and \"attribute\" in kwargs and kwargs";
	describe(&e, &py);
	has("documentation", e.documentation, "`kwargs` contains `\"attribute\"`, and `kwargs` is set");
	fl_entry_free(&e);
	struct site cc = {.lang = "c", .path = "main.c", .function = "parse_port", .idiom = "die", .type = FL_T_CONSOLE,
			  .guard = "v <= 0 || v > 65535", .msg = "bad port", .line = 9};
	describe(&e, &cc);
	has("documentation", e.documentation, "when `v` is zero or negative or greater than 65535");
	fl_entry_free(&e);
	/* none of several: each one's opposite, not "`a or b` is false" */
	py.guard = "not (args or options.editables) and not options.find_links";
	py.msg = "You must give at least one requirement";
	describe(&e, &py);
	has("documentation", e.documentation,
	    "`args` is empty, `options.editables` is empty, and `options.find_links` is empty");
	lacks("documentation", e.documentation, "is false");
	fl_entry_free(&e);
	cc.guard = "!(quiet || verbose > 1)";
	describe(&e, &cc);
	has("documentation", e.documentation, "`quiet` is `NULL` (or zero) and `verbose` is at most 1");
	fl_entry_free(&e);
	/* a group in parentheses among conditions that must all hold: each
	 * one; a directory check is no existence check */
	py.guard = "options.target_dir and (os.path.exists(options.target_dir) and not os.path.isdir(options.target_dir))";
	py.msg = "Target path exists but is not a directory";
	describe(&e, &py);
	has("documentation", e.documentation, "`options.target_dir` is set, exists, and not a directory");
	fl_entry_free(&e);
	/* beyond four conditions, as before: the group read as one */
	cc.guard = "a > 1 && b > 1 && !(c || d || e)";
	describe(&e, &cc);
	lacks("documentation", e.documentation, "`e` is not set");
	fl_entry_free(&e);
}

/* a static method is called on its class; the family of an argument
 * check is not an event's; a guard's facts decide the family */
static void test_static_calls_and_families(void **state)
{
	(void)state;
	fl_entry e;
	struct site j = {.lang = "jvm", .path = "src/Dates.java", .function = "Dates.parseInt",
			 .window = "  private static int parseInt(String value, int begin) {\n    if (begin < 0) {\n"
				   "      throw new NumberFormatException(value);",
			 .window_start = 10, .guard = "begin < 0", .idiom = "throw new", .cls = "NumberFormatException",
			 .msg = "bad number", .line = 12};
	describe(&e, &j);
	has("triggerScenarios", e.trigger_scenarios, "Calling `Dates.parseInt(value, begin)`");
	fl_entry_free(&e);
	struct site py = {.lang = "python", .path = "shop/cart.py", .function = "Cart.make",
			  .window = "    @classmethod\n    def make(cls, spec):\n        if not spec:\n            raise ValueError(\"no spec\")",
			  .window_start = 1, .guard = "not spec", .idiom = "raise", .cls = "ValueError", .msg = "no spec", .line = 4};
	describe(&e, &py);
	has("triggerScenarios", e.trigger_scenarios, "Calling `Cart.make(spec)`");
	fl_entry_free(&e);
	/* "Invalid timeout" raised as a ValueError is a refused value */
	struct site t = {.lang = "python", .path = "adapters.py", .function = "send", .idiom = "raise", .cls = "ValueError",
			 .msg = "Invalid timeout {timeout}. Pass a (connect, read) timeout tuple", .line = 9};
	describe(&e, &t);
	assert_string_equal(e.background_tag, "invalid-argument");
	fl_entry_free(&e);
	/* a file that does not exist is not found, whatever the message's words */
	t.guard = "not os.path.exists(conn.key_file)";
	t.cls = "OSError";
	t.msg = "Could not find the TLS key file";
	describe(&e, &t);
	assert_string_equal(e.background_tag, "not-found");
	fl_entry_free(&e);
	/* a value that is there is not missing */
	struct site g = {.lang = "go", .path = "cobra.go", .function = "CheckErr", .window = "func CheckErr(msg interface{}) {\n\tif msg != nil {\n\t\tfmt.Fprintln(os.Stderr, \"Error:\", msg)",
			 .window_start = 1, .guard = "msg != nil", .idiom = "fmt.Fprintln", .type = FL_T_CONSOLE,
			 .msg = "Error: {msg}", .line = 3};
	describe(&e, &g);
	assert_string_not_equal(e.background_tag, "missing-value");
	fl_entry_free(&e);
	/* a count compared: out of range */
	g.guard = "len(args) != n";
	g.msg = "accepts %d arg(s), received %d";
	describe(&e, &g);
	assert_string_equal(e.background_tag, "out-of-range");
	fl_entry_free(&e);
	/* a type check of an argument with a qualified type is the caller's */
	struct site ty = {.lang = "python", .path = "cookies.py", .function = "merge_cookies",
			  .window = "def merge_cookies(cookiejar, cookies):\n    if not isinstance(cookiejar, cookielib.CookieJar):\n        raise ValueError(\"You can only merge into CookieJar\")",
			  .window_start = 1, .guard = "not isinstance(cookiejar, cookielib.CookieJar)", .idiom = "raise",
			  .cls = "ValueError", .msg = "You can only merge into CookieJar", .line = 3};
	describe(&e, &ty);
	assert_string_equal(e.background_tag, "type-error");
	assert_non_null(e.type_guard);
	fl_entry_free(&e);
}

/* Go's comma-ok: a type assertion and a map lookup, not "`ok` is false" */
static void test_go_comma_ok(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "go", .path = "binding/protobuf.go", .function = "protobufBinding.BindBody",
			 .window = "func (protobufBinding) BindBody(body []byte, obj any) error {\n\tmsg, ok := obj.(proto.Message)\n"
				   "\tif !ok {\n\t\treturn errors.New(\"obj is not ProtoMessage\")\n\t}",
			 .window_start = 30, .guard = "!ok", .idiom = "errors.New", .msg = "obj is not ProtoMessage", .line = 33};
	describe(&e, &c);
	has("documentation", e.documentation, "when `obj` is not a `proto.Message`");
	assert_string_equal(e.background_tag, "type-error");
	fl_entry_free(&e);
	c.window = "func (s *Store) Get(id string) error {\n\tif it, ok := s.items[id]; !ok {\n\t\treturn errors.New(\"no item\")\n\t}";
	c.function = "Store.Get";
	c.line = 32;
	c.msg = "no item";
	describe(&e, &c);
	has("documentation", e.documentation, "when `s.items` does not contain `id`");
	assert_string_equal(e.background_tag, "not-found");
	fl_entry_free(&e);
}

/* a raise in a handler says what it handles; the object's own state */
static void test_handler_and_own_state(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "python", .path = "click/editor.py", .function = "Editor.edit_files",
			 .window = "        try:\n            c = subprocess.Popen(cmd)\n        except OSError as e:\n"
				   "            raise ClickException(f\"{editor}: Editing failed: {e}\")",
			 .window_start = 10, .idiom = "raise", .cls = "ClickException",
			 .msg = "{editor}: Editing failed: {e}", .line = 13};
	describe(&e, &c);
	has("documentation", e.documentation, "when the code in the `try` block before it raises `OSError`.");
	has("triggerScenarios", e.trigger_scenarios, "(the handler around click/editor.py:13)");
	assert_string_equal(e.background_tag, "io-error");
	fl_entry_free(&e);
	c.window = "    try {\n      read(f);\n    } catch (IOException | RuntimeException e) {\n      throw new Oops(\"failed\");";
	c.lang = "jvm";
	c.path = "src/A.java";
	c.msg = "failed";
	describe(&e, &c);
	/* a multi-catch: each class it catches */
	has("documentation", e.documentation, "block before it raises `IOException` or `RuntimeException`.");
	fl_entry_free(&e);
	struct site st = {.lang = "python", .path = "click/bar.py", .function = "ProgressBar.__iter__", .guard = "not self.entered",
			  .idiom = "raise", .cls = "RuntimeError", .msg = "You need to use progress bars in a with block.", .line = 5};
	describe(&e, &st);
	assert_string_equal(e.background_tag, "invalid-state");
	fl_entry_free(&e);
}

/* c's record is of family `family` */
static void expect_family(const struct site *c, const char *family)
{
	fl_entry e;
	describe(&e, c);
	assert_string_equal(e.background_tag, family);
	fl_entry_free(&e);
}

/* a class that names a command says how it was used, not that it ran:
 * "CommandError" (pip, Django) is a usage error; a command that failed
 * says so in its class ("CommandFailedError") or its message */
static void test_command_classes(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "python", .path = "cli/cache.py", .function = "CacheCommand.get_cache_dir",
			 .guard = "args", .idiom = "raise", .cls = "CommandError",
			 .msg = "Too many arguments", .line = 86};
	expect_family(&c, "usage-error");
	c.msg = "Please provide a pattern";
	expect_family(&c, "usage-error");
	c.cls = "CommandFailedError";
	c.msg = "{cmd} did not succeed";
	c.guard = NULL;
	expect_family(&c, "command-failed");
	c.cls = "BadCommand"; /* a tool that is not there: the message says */
	c.msg = "Cannot find command {name}";
	expect_family(&c, "not-found");
	c.cls = "RuntimeException"; /* a command line inside the message */
	c.lang = "php";
	c.msg = "Failed to execute git diff --name-status %s  {getErrorOutput}";
	expect_family(&c, "command-failed");
	/* a message about an option, and a usage function's lines */
	struct site o = {.lang = "c", .path = "src/main.c", .function = "main", .idiom = "fprintf",
			 .msg = "%s: --indent takes one parameter", .line = 380};
	expect_family(&o, "usage-error");
	o.msg = "error : can't use --patch-from=# on multiple files";
	expect_family(&o, "usage-error");
	/* what main is given is its command line */
	o.msg = "cannot parse %s as a level";
	describe(&e, &o);
	bool said = false;
	for (size_t i = 0; i < e.solutions.n; i++) {
		said |= strstr(e.solutions.v[i], "the command line and the input the program was given") != NULL;
		assert_null(strstr(e.solutions.v[i], "what `main` accepts"));
	}
	assert_true(said);
	fl_entry_free(&e);
	o.msg = "Incorrect parameters";
	o.function = "badusage";
	expect_family(&o, "usage-error");
	/* an option named as advice, further on, is no usage error */
	o.function = "main";
	o.msg = "cannot open %s for writing; to replace it, run again with --force";
	expect_family(&o, "io-error");
}

/* the words of a message that name its family */
static void test_family_phrases(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{"unable to realloc for %d bytes", "out-of-memory"},
		{"allocation error : can't create dictBuffer", "out-of-memory"},
		{"Found no packages to reinstall, aborting.", "not-found"},
		{"done() called multiple times in %s %s", "invalid-state"},
		{"unloadFile() is only supported in a Node.js environment", "unsupported"},
		{"case-insensitive file name collision: %q and %q", "conflict"},
		{"No OCSP response received", "certificate-error"},
		{"Could not execl(). errno %d: %s", "command-failed"},
		{"Error: No test files found", "not-found"},
		{"No gem matching '{dep}' found", "not-found"},
		{"wrong credentials provided ({fullOutput})", "authentication-failed"},
		{"error: missing file argument", "usage-error"},
		{"go: cannot use -u with -w", "usage-error"},
		{"go list -u can only be used with -m", "usage-error"},
		{"The --fix option and the --fix-dry-run option cannot be used together.", "usage-error"},
		{"value out of range: -1 is too small", "out-of-range"},
		{"missing operand after '%s'", "usage-error"},
		{"missing value for key %s", "missing-value"},
		/* a message that asks for a bug report: a bug, whatever else it says */
		{"JsonManipulator: $childrenClean is not defined. Please report at https://x/issues", "internal-error"},
		{"Unable to save configuration. Please report this as a bug.", "internal-error"},
		{"Error while checking for conflicts. Please file an issue on pip's issue tracker", "internal-error"},
		/* ... not one on a condition, nor a report to someone else */
		{"The file does not exist. Report this if you think it is a mistake.", "not-found"},
		{"Broken links exist in the home. Please report them to the gem's upstream repo.", "operation-failed"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct site c = {.lang = "c", .path = "src/x.c", .function = "work", .idiom = "fprintf",
				 .msg = cases[i][0], .line = 10};
		expect_family(&c, cases[i][1]);
	}
}

/* a template's placeholder that holds a computation (a callback with
 * braces of its own, a nested template) is not read as a value */
static void test_placeholder_computation(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "js", .path = "lib/config.js", .function = "Config.validate",
			 .idiom = "throw new", .cls = "Error", .line = 20,
			 .msg = "Key \"${ruleId}\": ${errors.map(error => { if (error.x) { return `\\tValue ${error.data}`; } return \"\"; }).join(\"\")}"};
	describe(&e, &c);
	has("documentation", e.documentation, "`${ruleId}` is the value of `ruleId`");
	lacks("documentation", e.documentation, "errors.map");
	lacks("documentation", e.documentation, "``");
	fl_entry_free(&e);
}

/* a placeholder that holds an error's text says so: the caught error's
 * message, an error variable, a library's error string; a short name set
 * from a call just before is a value, not an error */
static void test_placeholder_errors(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "jvm", .path = "src/main/java/a/Load.java", .function = "Load.run",
			 .idiom = "throw new", .cls = "BuildException", .line = 20,
			 .msg = "Cannot load the model: {getMessage}"};
	describe(&e, &c);
	has("documentation", e.documentation, "`{getMessage}` is the message of the error it caught");
	fl_entry_free(&e);
	struct site p = {.lang = "python", .path = "pkg/cfg.py", .function = "read_config",
			 .idiom = "raise", .cls = "ConfigError", .line = 9,
			 .msg = "could not read {path!r}: {exc}"};
	describe(&e, &p);
	has("documentation", e.documentation, "`{exc}` is the message of the error `exc`");
	fl_entry_free(&e);
	struct site k = {.lang = "c", .path = "src/io.c", .function = "open_input",
			 .window = "static int open_input(const char *name)\n{\n"
				   "  int fd = open(name, O_RDONLY);\n  if (fd < 0) {\n"
				   "    fprintf(stderr, \"cannot open %s: %s\\n\", name, strerror(errno));\n    return -1;\n  }",
			 .window_start = 10, .guard = "fd < 0", .idiom = "fprintf(stderr)", .type = FL_T_CONSOLE,
			 .msg = "cannot open %s: %s", .line = 14};
	describe(&e, &k);
	has("documentation", e.documentation, "`%s` is the error's text from `strerror(errno)`");
	fl_entry_free(&e);
	struct site g = {.lang = "go", .path = "work/gc.go", .function = "concurrency",
			 .window = "func concurrency() int {\n\tswitch e := os.Getenv(\"GOCC\"); e {\n"
				   "\tdefault:\n\t\tlog.Fatalf(\"GOCC must be 0 or 1, got %q\", e)\n\t}",
			 .window_start = 1, .idiom = "log.Fatalf", .type = FL_T_CONSOLE,
			 .msg = "GOCC must be 0 or 1, got %q", .line = 4};
	describe(&e, &g);
	lacks("documentation", e.documentation, "the message of the error");
	has("documentation", e.documentation, "`%q` is the value of `e`");
	fl_entry_free(&e);
}

/* `!argv.length` says a count is zero, not that a value is not set */
static void test_count_flag(void **state)
{
	(void)state;
	fl_entry e;
	struct site c = {.lang = "js", .path = "bin/cli.js", .function = "main", .guard = "!argv.length",
			 .idiom = "console.error", .type = FL_T_CONSOLE, .msg = "no command given", .line = 3};
	describe(&e, &c);
	has("documentation", e.documentation, "when `argv.length` is zero");
	fl_entry_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c_call_guard_is_a_failure),
		cmocka_unit_test(test_c_constant_first),
		cmocka_unit_test(test_c_status_and_return),
		cmocka_unit_test(test_go_err_names_the_call),
		cmocka_unit_test(test_python_checks),
		cmocka_unit_test(test_family_and_strategy),
		cmocka_unit_test(test_invalid_argument_fix),
		cmocka_unit_test(test_message_advice),
		cmocka_unit_test(test_assignment_in_guard),
		cmocka_unit_test(test_fields_always_filled),
		cmocka_unit_test(test_example_fix),
		cmocka_unit_test(test_rust_results),
		cmocka_unit_test(test_random_facts),
		cmocka_unit_test(test_placeholder_arguments),
		cmocka_unit_test(test_no_family_no_filler),
		cmocka_unit_test(test_negation_scope),
		cmocka_unit_test(test_tags_no_layout_folders),
		cmocka_unit_test(test_mixed_guards),
		cmocka_unit_test(test_static_calls_and_families),
		cmocka_unit_test(test_go_comma_ok),
		cmocka_unit_test(test_handler_and_own_state),
		cmocka_unit_test(test_command_classes),
		cmocka_unit_test(test_family_phrases),
		cmocka_unit_test(test_placeholder_computation),
		cmocka_unit_test(test_placeholder_errors),
		cmocka_unit_test(test_count_flag),
		cmocka_unit_test(test_constructor_by_language),
		cmocka_unit_test(test_repeated_condition_once),
		cmocka_unit_test(test_argument_as_written),
		cmocka_unit_test(test_measured_without_argument),
		cmocka_unit_test(test_boolean_first),
		cmocka_unit_test(test_construct_named),
		cmocka_unit_test(test_fatal_log_is_no_bug),
		cmocka_unit_test(test_call_without_arguments),
		cmocka_unit_test(test_returns_after),
		cmocka_unit_test(test_c_module_predicate),
		cmocka_unit_test(test_one_of_many),
		cmocka_unit_test(test_null_check_without_message),
		cmocka_unit_test(test_catch_brace_own_line),
		cmocka_unit_test(test_catch_any),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
