/*
 * test_lookup.c — the lookup: every tier, ranking, evidence, repo filter,
 * captures, the wrappers of each runtime and logger, bad and huge input,
 * a pathological regex, the cached index, the time limit, lines cut to
 * their head and tail, literal windows across scan blocks, and grep-log: grouping,
 * short patterns inside noise lines, and chunks processed in parallel
 * keeping log order and units across chunk boundaries.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise, MAP_ANONYMOUS */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "faultline.h"
#include "lookup/lookup_internal.h"
#include "lookup/match.h"
#include "lookup/tokens.h"
#include "test_util.h"
#include "util.h"

static char dir[64];
static char dbpath[128];
static fl_store *st;
static fl_lookup *lk;

static void put(const char *repo, const char *msg, const char *path, int line,
		const char *code, const char *cls, const char *pattern)
{
	fl_entry e;
	make_entry_for(&e, repo, msg, path, line);
	if (code) {
		char id[17];
		fl_record_id(repo, code, msg, path, id);
		free(e.id);
		e.id = strdup(id);
		e.error_code = strdup(code);
		free(e.slug);
		e.slug = fl_slug_base(code);
	}
	if (cls)
		e.error_class = strdup(cls);
	if (pattern) {
		free(e.message_pattern);
		e.message_pattern = strdup(pattern);
	}
	/* slugs must be unique per repo */
	char *slug = fl_slug_suffixed(e.slug, e.id);
	free(e.slug);
	e.slug = slug;
	fl_err err;
	if (fl_store_put_entry(st, &e, NULL, &err) < 0)
		fail_msg("%s", err.msg);
	fl_entry_free(&e);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/fl-lookup-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(dbpath, sizeof dbpath, "%s/t.db", dir);
	fl_err err;
	if (fl_store_open(dbpath, false, &st, &err) < 0 || fl_store_begin(st, &err) < 0)
		return -1;
	put("acme/app", "path must not be empty", "src/load.py", 3, NULL, "ValueError", NULL);
	put("acme/app", "config file {path} does not exist", "src/load.py", 5, NULL, "FileNotFoundError", NULL);
	put("acme/app", "{name} not found", "src/generic.py", 9, NULL, NULL, NULL);
	put("acme/app", "user {name} not found in directory", "src/users.py", 12, NULL, NULL, NULL);
	put("acme/app", "connection refused", "src/net/a.go", 20, NULL, NULL, NULL);
	put("acme/app", "connection refused", "src/net/b.go", 30, NULL, NULL, NULL);
	put("acme/app", "invalid widget size: {size}", "src/size.rs", 40, NULL, NULL, NULL);
	put("acme/app", "called `Option::unwrap()` on a `None` value in parser", "src/parse.rs", 50, NULL, NULL, NULL);
	put("acme/web", "The \"path\" argument must be of type string", "lib/fs.js", 60, "ERR_INVALID_ARG_TYPE", "TypeError", NULL);
	put("acme/web", "unsupported protocol scheme %q", "client.go", 70, NULL, NULL, NULL);
	put("acme/web", "Cannot read configuration: %s", "src/Config.java", 80, NULL, "IllegalStateException", NULL);
	put("acme/web", "database pool exhausted after waiting for connections", "db/pool.php", 90, NULL, NULL, NULL);
	put("acme/web", "failed to compile template", "src/tpl.rs", 95, NULL, NULL, NULL);
	put("acme/web", "could not parse manifest", "src/cargo.rs", 97, NULL, NULL, NULL);
	put("acme/web", "pathological entry", "src/re.c", 99, NULL, NULL, "(x+x+)+y");
	put("other/lib", "path must not be empty", "pkg/x.py", 7, NULL, NULL, NULL);
	/* raised without a message: the record stands for its class alone */
	put("acme/web", "IllegalArgumentException", "src/Args.java", 85, NULL, "IllegalArgumentException", NULL);
	put("acme/web", "Expected {expected} but was {peek}", "src/Reader.java", 88, NULL, "IllegalArgumentException", NULL);
	/* short and bounded: only a line that is mostly this message */
	put("acme/app", "opening {what}", "src/open.c", 11, NULL, NULL, NULL);
	/* printf's integer conversions (captures_fit) */
	put("acme/app", "%s: %llu bytes written", "src/io.c", 120, NULL, NULL, NULL);
	put("acme/app", "%s: %d items dropped", "src/q.go", 130, NULL, NULL, NULL);
	put("acme/app", "child exited with status %d", "src/run.c", 140, NULL, NULL, NULL);
	put("acme/app", "%d warnings treated as errors", "src/cc.c", 150, NULL, NULL, NULL);
	/* one text at two lines of a file, the second with a suffix that
	 * may print nothing (test_named_line_first) */
	put("acme/web", "\"%s\" is an invalid value", "src/Command/ConfigCommand.php", 607, NULL,
	    "RuntimeException", NULL);
	put("acme/web", "\"%s\" is an invalid value{validation}", "src/Command/ConfigCommand.php", 866,
	    NULL, "RuntimeException", NULL);
	/* one message, alone in one file and followed by its list of
	 * details in two others (test_answer_stable) */
	put("acme/pkg", "\"{source}\" does not match the expected JSON schema", "src/Json/JsonFile.php", 254,
	    NULL, "JsonValidationException", NULL);
	put("acme/pkg", "\"{source}\" does not match the expected JSON schema:\n - {errors}", "src/Factory.php",
	    319, NULL, "JsonValidationException", NULL);
	put("acme/pkg", "\"{source}\" does not match the expected JSON schema:\n - {errors}",
	    "src/Command/InitCommand.php", 164, NULL, "JsonValidationException", NULL);
	/* an error line and the pointer to the help printed after it, both
	 * saying little (test_weak_lines_in_order) */
	put("acme/cli", "%s: Unknown %s", "src/main.c", 516, NULL, NULL, NULL);
	put("acme/cli", "%s --help", "src/main.c", 98, NULL, NULL, NULL);
	/* a short error line, and another program's pointer to its help whose
	 * words are all the words of the help line printed after the error
	 * (test_help_after_error) */
	put("acme/gnu", "bad file", "src/cp.c", 582, NULL, NULL, NULL);
	put("acme/gnu", "Try `%s --help' for more information.", "src/xz/message.c", 935, NULL, NULL, NULL);
	/* another program's copy of an OS error's text, and a message that
	 * quotes that text from its cause (test_os_text_inside) */
	put("acme/lint", "No such file or directory: {file}", "lib/lint/runner.rb", 435, NULL,
	    "RuboCop::Error", NULL);
	put("acme/pip", "Could not open requirements file: {exc}", "src/pip/req_file.py", 543, NULL,
	    "InstallationError", NULL);
	put("acme/jwt", "Fail to fetch data from the url, err: \"{e}\"", "jwt/jwks_client.py", 47, NULL,
	    "PyJWKClientError", NULL);
	/* Python's %(value)r, literal in the stored pattern (test_loose_pattern) */
	put("acme/cli", "invalid %(type)s value: %(value)r", "lib/args.py", 210, NULL,
	    "ArgumentError", NULL);
	/* a multi-line message that a template engine prints on one line
	 * (test_loose_pattern) */
	put("acme/site", "Invalid syntax for the shelf tag:\n\n  {markup}\n\nValid syntax:\n  {example}",
	    "lib/site/tags/shelf.rb", 55, NULL, "ArgumentError", NULL);
	/* a placeholder that may print nothing on a line shorter than the
	 * pattern's minimum (test_loose_pattern) */
	put("acme/cli", "Missing required option{}: {}", "src/Parser.java", 243, NULL,
	    "MissingOptionException", NULL);
	/* a text whose suffix may print nothing, among more texts that
	 * begin alike and fail on the same line than the lenient pass
	 * keeps (test_frame_named_lenient) */
	put("acme/jdk", "Bad gizmo input: \"{s}\"{radix}", "src/com/acme/GizmoFormatException.java", 64, NULL,
	    "GizmoFormatException", NULL);
	for (int i = 0; i < 20; i++) {
		char m[96], f[64];
		snprintf(m, sizeof m, "Bad gizmo input: \"{s}\" r%02dx {r}", i);
		snprintf(f, sizeof f, "src/Gizmo%02d.java", i);
		put("acme/jdk", m, f, 10 + i, NULL, "GizmoFormatException", NULL);
	}
	/* a message that starts with a word (test_mid_word) */
	put("acme/vcs", "parse %s: %v", "vcs/vcs.go", 1233, NULL, NULL, NULL);
	/* one text raised in a shared file and in a command's own file,
	 * which the printed value names (test_value_names_file) */
	put("acme/pip", "You must give at least one requirement to {name} (see \"pip help {name}\")",
	    "src/cli/req_command.py", 458, NULL, "CommandError", NULL);
	put("acme/pip", "You must give at least one requirement to {self.name} (see \"pip help {self.name}\")",
	    "src/commands/uninstall.py", 92, NULL, "CommandError", NULL);
	/* a raise quoting another library's message (test_quoting_raise) */
	put("acme/lint", "invalid config: %s", "lint/config.py", 79, NULL, "ConfigError", NULL);
	put("acme/yaml", "while parsing a %s node", "yaml/parser.py", 369, NULL, "ParserError", NULL);
	/* a class-only raise whose text comes from elsewhere, in Python
	 * (test_nested_classes_and_class_only) */
	put("acme/app", "ValueError", "src/conv.py", 14, NULL, "ValueError", NULL);
	/* one text raised with two classes (test_printed_class) */
	put("acme/js", "Pending test forbidden", "lib/common.js", 150, NULL, "TypeError", NULL);
	put("acme/js", "Pending test forbidden", "lib/runner.js", 809, NULL, "Error", NULL);
	/* a program's text around an OS error's, against records whose
	 * literal is that OS text and little more (test_os_text_alone) */
	put("acme/fileio", "zq: can't stat %s : %s -- ignored", "programs/fileio.c", 550, NULL, NULL, NULL);
	put("acme/uu", "{}: {}: No such file or directory", "uu/hashsum.rs", 577, NULL, NULL,
	    "(.+?): (.+?): No such file or directory");
	put("acme/uu", "No such file or directory", "uucore/error.rs", 405, NULL, NULL, NULL);
	/* a record whose code is an errno name (test_errno_code) */
	put("acme/pkgm", "Couldn't find a manifest file in {dir}", "src/config.js", 690, "ENOENT", "MessageError",
	    NULL);
	/* two diagnostics of a linter by code, the second of the longer text
	 * (test_code_lines_in_order) */
	put("acme/lintr", "Bad nesting. Found %s levels", "lintr/nest.py", 717, "W0311", NULL, NULL);
	put("acme/lintr", "Using a conditional statement with a constant value here", "lintr/cond.py", 353,
	    "W0125", NULL, NULL);
	/* a message that starts with a blank line (test_leading_blank_line) */
	put("acme/rb", "\nFile does not exist: {path}", "lib/loader.rb", 19, NULL, NULL, NULL);
	fl_err e2;
	if (fl_store_commit(st, &e2) < 0)
		return -1;
	if (fl_lookup_open(st, &lk, &e2) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fl_lookup_close(lk);
	fl_lookup_thread_done();
	fl_store_close(st);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static fl_result ask(const char *text, const char *repo)
{
	fl_result r;
	fl_lookup_explain(lk, text, strlen(text), repo, 10, &r);
	return r;
}

/* The first match is at path:line, of the given tier. */
static void expect_top(const char *text, const char *path, int line,
		       const char *type)
{
	fl_result r = ask(text, NULL);
	if (!r.n)
		fail_msg("no match for <%s>", text);
	if (strcmp(r.v[0].file_path, path) != 0 || r.v[0].line != line ||
	    strcmp(r.v[0].match_type, type) != 0)
		fail_msg("<%s>: got %s:%d [%s], want %s:%d [%s]", text, r.v[0].file_path,
			 r.v[0].line, r.v[0].match_type, path, line, type);
	fl_result_free(&r);
}

static void test_exact_code(void **state)
{
	(void)state;
	fl_result r = ask("TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string. Received undefined", NULL);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].match_type, "exact-code");
	assert_true(r.v[0].score == 1.0);
	assert_string_equal(r.v[0].code, "ERR_INVALID_ARG_TYPE");
	fl_result_free(&r);
}

static void test_pattern_and_captures(void **state)
{
	(void)state;
	fl_result r = ask("config file /etc/app.toml does not exist", NULL);
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].match_type, "pattern");
	assert_true(r.v[0].score >= 0.9 && r.v[0].score < 1.0);
	assert_int_equal(r.v[0].captures.n, 1);
	assert_string_equal(r.v[0].captures.v[0], "/etc/app.toml");
	fl_result_free(&r);
	r = ask("unsupported protocol scheme \"ftp\"", NULL);
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].captures.v[0], "\"ftp\"");
	fl_result_free(&r);
}

/* A message that starts with a blank line (`abort "\nFile does not
 * exist: #{path}\n\n"`) answers the line as pasted or logged, which
 * holds no '\n' before its first word */
static void test_leading_blank_line(void **state)
{
	(void)state;
	expect_top("File does not exist: /tmp/w/test/test_missing.rb", "lib/loader.rb", 19, "pattern");
	expect_top("\nFile does not exist: /tmp/w/test/test_missing.rb\n\nrake aborted!\n", "lib/loader.rb",
		   19, "pattern");
}

/* The first segment's start: the last one that follows a byte outside a
 * word, so a wrapper before the message that holds the segment too
 * leaves the value alone ("Invalid value '10Q' for '--size': '10Q' is
 * not ..."), and a value holding it inside a word keeps it ("'it's'"). */
static void test_first_segment_start(void **state)
{
	(void)state;
	const char *pat = "'(.+?)' is not a valid size constraint";
	char buf[128];
	fl_prog p;
	assert_true(fl_prog_parse(pat, buf, &p));
	fl_span caps[FL_MAX_SEGMENTS + 1], whole;
	size_t nc = 0;
	const char *t1 = "error: Invalid value '10Q' for '--size <size>': '10Q' is not a valid size constraint";
	assert_true(fl_prog_match(&p, t1, strlen(t1), caps, &nc, &whole));
	assert_int_equal(nc, 1);
	assert_int_equal(caps[0].end - caps[0].start, 3);
	assert_memory_equal(t1 + caps[0].start, "10Q", 3);
	assert_int_equal(whole.start, caps[0].start - 1);
	const char *t2 = "'it's' is not a valid size constraint";
	assert_true(fl_prog_match(&p, t2, strlen(t2), caps, &nc, &whole));
	assert_int_equal(caps[0].start, 1);
	assert_int_equal(caps[0].end, 5);
	assert_int_equal(whole.start, 0);
}

/* Is a pattern hit of path among r's answers? */
static bool pattern_at(const fl_result *r, const char *path)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].file_path, path) == 0 && strcmp(r->v[i].match_type, "pattern") == 0)
			return true;
	return false;
}

/* Python's %(name) forms with a conversion records.md does not mark
 * (%(value)r) or flags and a width: the lenient pass tries them as
 * placeholders. */
static void test_loose_pattern(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"invalid (.+?) value: %\\(value\\)r", "invalid (.+?) value: (.+?)"},
		{"%\\(n\\)-5\\.2f items in %\\(where\\)r", "(.+?) items in (.+?)"},
		{"count %\\(n\\)05d of them", "count (.+?) of them"},
		{"no placeholder here", NULL},
		{"%\\(x\\)r", NULL},         /* nothing literal left */
		{"100%\\(ok\\)! done", NULL}, /* no conversion */
		/* Ruby's format(MSG, source: x) */
		{"Remove debugger entry point `%<source>s`\\.", "Remove debugger entry point `(.+?)`\\."},
		{"%<a>s and %<b>-5d left", "(.+?) and (.+?) left"},
		{"a %<b>! d e f g", NULL},   /* no conversion */
		/* a multi-line message printed on one line (Liquid's) */
		{"Invalid syntax:\n\n  (.+?)\n\nValid syntax: x", "Invalid syntax:\\s+(.+?)\\s+Valid syntax: x"},
		{"File is missing\n", "File is missing"},
		{"a  b c d e f g", NULL},    /* spaces alone: as they are */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *got = fl_pattern_loose_as(cases[i].in, FL_LOOSE_WS);
		/* (the forms alone: the same but for the line breaks) */
		char *forms = fl_pattern_loose(cases[i].in);
		if (!strchr(cases[i].in, '\n') ? (!forms) != (!got) || (forms && strcmp(forms, got) != 0)
						: forms != NULL)
			fail_msg("<%s>: the forms alone give <%s>", cases[i].in, forms ? forms : "NULL");
		free(forms);
		if (!cases[i].out ? got != NULL : !got || strcmp(got, cases[i].out) != 0)
			fail_msg("<%s>: got <%s>, want <%s>", cases[i].in, got ? got : "NULL",
				 cases[i].out ? cases[i].out : "NULL");
		free(got);
	}
	/* the index's factors: a line break a hole between segments */
	char *holes = fl_pattern_loose_as("Invalid syntax:\n\n  (.+?)\n\nValid syntax: x", FL_LOOSE_WS_HOLES);
	assert_string_equal(holes, "Invalid syntax:(.+?)(.+?)(.+?)Valid syntax: x");
	free(holes);
	expect_top("prog: error: argument --count: invalid int value: 'abc'", "lib/args.py", 210,
		   "pattern");
	expect_top("invalid float value: '1,5'", "lib/args.py", 210, "pattern");
	expect_top("  Liquid Exception: Invalid syntax for the shelf tag: a=b Valid syntax: {% shelf x %} in index.md",
		   "lib/site/tags/shelf.rb", 55, "pattern");
	/* as printed, its lines: the stored pattern */
	expect_top("Invalid syntax for the shelf tag:\n\n  a=b\n\nValid syntax:\n  {% shelf x %}\n",
		   "lib/site/tags/shelf.rb", 55, "pattern");
	expect_top("Missing required option: o", "src/Parser.java", 243, "pattern");
	/* a regex ending with a lazy placeholder captures the rest of its
	 * line, as a simple pattern does */
	fl_span caps[4], whole;
	size_t nc = 0;
	const char *t = "value: 'A-3'  \nnext line";
	assert_true(fl_regex_match("value: (.*?)", t, strlen(t), caps, &nc, &whole));
	assert_int_equal(nc, 1);
	assert_int_equal(caps[0].start, 7);
	assert_int_equal(caps[0].end, 12);
}

/* A level is a whole word of the prefix: a linted file or a rule named
 * like one (`debugger.rb`, `Lint/Debugger`) leaves the line an error's;
 * DEBUG and [debugging] make it informational (no answer) */
static void test_level_words(void **state)
{
	(void)state;
	expect_top("debugger.rb:3:1: W: Lint/Debugger: config file /etc/app.toml does not exist",
		   "src/load.py", 5, "pattern");
	fl_result r = ask("2026-11-29T10:00:00.000Z DEBUG config file /etc/app.toml does not exist", NULL);
	assert_int_equal(r.n, 0);
	fl_result_free(&r);
	r = ask("2026-11-29T10:00:00.000Z [debugging] config file /etc/app.toml does not exist", NULL);
	assert_int_equal(r.n, 0);
	fl_result_free(&r);
}

/* A message quoting an OS error's text from its cause is the answer, not
 * another program's record of that text: neither a value named like a
 * placeholder ({file} holding 'nofile.txt') nor an earlier line of the
 * text outweighs a frame naming the raise */
static void test_os_text_inside(void **state)
{
	(void)state;
	expect_top("ERROR: Could not open requirements file: [Errno 2] No such file or directory: 'nofile.txt'",
		   "src/pip/req_file.py", 543, "pattern");
	expect_top("Traceback (most recent call last):\n"
		   "  File \"/usr/lib/python3/dist-packages/jwt/jwks_client.py\", line 43, in fetch_data\n"
		   "    with urllib.request.urlopen(self.uri) as response:\n"
		   "FileNotFoundError: [Errno 2] No such file or directory: '/nonexistent.json'\n"
		   "\n"
		   "During handling of the above exception, another exception occurred:\n"
		   "\n"
		   "Traceback (most recent call last):\n"
		   "  File \"/usr/lib/python3/dist-packages/jwt/jwks_client.py\", line 47, in fetch_data\n"
		   "    raise PyJWKClientError(f'Fail to fetch data from the url, err: \"{e}\"')\n"
		   "jwt.exceptions.PyJWKClientError: Fail to fetch data from the url, err: \"<urlopen error [Errno 2] "
		   "No such file or directory: '/nonexistent.json'>\"\n",
		   "jwt/jwks_client.py", 47, "pattern");
}

/* The help pointer after an error line is no answer to that error, in the
 * fuzzy tier as in the pattern tier */
static void test_help_after_error(void **state)
{
	(void)state;
	fl_result r = ask("cp: bad file\nTry 'cp --help' for more information.\n", "acme/gnu");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/cp.c");
	for (size_t i = 0; i < r.n; i++)
		assert_string_not_equal(r.v[i].file_path, "src/xz/message.c");
	fl_result_free(&r);
}

/* GNU's and mcs's quotes, `value': each value ends at its apostrophe,
 * so the words between two values stay words of the text */
static void test_tex_quotes(void **state)
{
	(void)state;
	char buf[128 * FL_TOKEN_MAX];
	const char *toks[128];
	size_t nt = fl_tokens("Operator `+' cannot be applied to operands of type `bool' and `int'", buf,
			      toks, 128);
	bool cannot = false, operands = false, bool_ = false;
	for (size_t i = 0; i < nt; i++) {
		cannot |= strcmp(toks[i], "cannot") == 0;
		operands |= strcmp(toks[i], "operands") == 0;
		bool_ |= strcmp(toks[i], "bool") == 0;
	}
	assert_true(cannot && operands);
	assert_false(bool_); /* a value, not a word of the message */
	/* a backquoted value of Markdown's kind still ends at its backquote,
	 * an apostrophe inside it (`don't`) left alone */
	nt = fl_tokens("run `don't stop` now", buf, toks, 128);
	for (size_t i = 0; i < nt; i++)
		assert_string_not_equal(toks[i], "stop");
}

/* A message that starts with a word is no answer found inside a longer
 * word: "parse %s: %v" in "optparse (default: 0.2.0)". */
static void test_mid_word(void **state)
{
	(void)state;
	fl_result r = ask("optparse (default: 0.2.0)", NULL);
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(r.v[i].file_path, "vcs/vcs.go") == 0)
			fail_msg("matched inside a word: %s:%d", r.v[i].file_path, r.v[i].line);
	fl_result_free(&r);
	expect_top("parse go.mod: unexpected newline", "vcs/vcs.go", 1233, "pattern");
}

/* What a printf integer conversion can have printed: digits, a sign,
 * padding only with a width; a leading or trailing placeholder's value
 * apart from the text around it. */
static void test_capture_fits(void **state)
{
	(void)state;
	static const struct {
		const char *conv, *cap;
		int side;
		bool fits;
	} cases[] = {
		{"%d", "-7", 0, true},          {"%d", " 42", 0, false},
		{"%5d", "   42", 0, true},      {"%-5d", "42   ", 0, true},
		{"%llu", "18446744073709551615", 0, true}, {"%llu", "", 0, false},
		{"%zu", "12 KB", 0, false},     {"%d", "1,234", 0, false},
		{"%'d", "1,234", 0, true},      {"%x", "1f", 0, true},
		{"%,d", "1,234", 0, true},      {"%'*10d", "******1234", 0, true},
		{"%#x", "0x1f", 0, true},       {"%o", "0789", 0, false},
		{"%#o", "0o17", 0, true},       {"%x", "..f01", 0, true},
		{"%#X", "0X1F", 0, true},       {"%d", "..1", 0, false},
		{"%s", "  anything  ", 0, true}, {"%.2f", "abc", 0, true},
		{"%d", "139 (core dumped)", 1, true}, {"%d", "139x", 1, false},
		{"%d", "ERROR 3", -1, true},    {"%d", "ERROR3", -1, false},
		{"%d", "ERROR ", -1, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		if (fl_capture_fits(cases[i].conv, strlen(cases[i].conv), cases[i].cap,
				    strlen(cases[i].cap), cases[i].side) != cases[i].fits)
			fail_msg("%s <%s> side %d: want %d", cases[i].conv, cases[i].cap,
				 cases[i].side, cases[i].fits);
	/* in a lookup: C's %llu prints no blanks (aligned text another
	 * program printed is no pattern match; the fuzzy tier may still
	 * find it alike), Go's %d may print anything */
	expect_top("out.bin: 4096 bytes written", "src/io.c", 120, "pattern");
	fl_result r = ask("Pager Heap Usage:             13632 bytes written", NULL);
	assert_false(pattern_at(&r, "src/io.c"));
	fl_result_free(&r);
	expect_top("Queue Size:       12 items dropped", "src/q.go", 130, "pattern");
	expect_top("child exited with status 139 (core dumped)", "src/run.c", 140, "pattern");
	r = ask("child exited with status unknown", NULL);
	assert_false(pattern_at(&r, "src/run.c"));
	fl_result_free(&r);
	expect_top("2026-11-29T10:00:00Z ERROR 3 warnings treated as errors", "src/cc.c", 150,
		   "pattern");
	r = ask("several warnings treated as errors", NULL);
	assert_false(pattern_at(&r, "src/cc.c"));
	fl_result_free(&r);
}

static void test_specific_pattern_first(void **state)
{
	(void)state;
	fl_result r = ask("user alice not found in directory", NULL);
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/users.py");
	assert_string_equal(r.v[1].file_path, "src/generic.py");
	assert_true(r.v[0].score >= r.v[1].score);
	fl_result_free(&r);
}

static void test_evidence_breaks_ties(void **state)
{
	(void)state;
	const char *go = "panic: connection refused\n\ngoroutine 1 [running]:\nmain.dial()\n\t/home/u/src/net/b.go:30 +0x1d\nexit status 2";
	fl_result r = ask(go, NULL);
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/net/b.go");
	fl_result_free(&r);
	const char *go2 = "panic: connection refused\n\ngoroutine 1 [running]:\nmain.dial()\n\t/home/u/src/net/a.go:20 +0x1d";
	r = ask(go2, NULL);
	assert_string_equal(r.v[0].file_path, "src/net/a.go");
	fl_result_free(&r);
}

/* The text names the line that raised it (Symfony Console's "In
 * ConfigCommand.php line 866:"): that line's record first, though it
 * matches only with its trailing placeholder empty and another record
 * of the file matches exactly. */
static void test_named_line_first(void **state)
{
	(void)state;
	const char *t = "\nIn ConfigCommand.php line 866:\n\n  \"maybe\" is an invalid value  \n\n"
			"config [-g|--global] [--] [<setting-key> [<setting-value>...]]\n";
	expect_top(t, "src/Command/ConfigCommand.php", 866, "pattern");
	/* without the line named, the exact match */
	expect_top("\"maybe\" is an invalid value", "src/Command/ConfigCommand.php", 607, "pattern");
	const char *t2 = "\nIn ConfigCommand.php line 607:\n\n  \"maybe\" is an invalid value  \n";
	expect_top(t2, "src/Command/ConfigCommand.php", 607, "pattern");
}

/* A frame names the line of a record whose text matches only with its
 * last placeholder empty: it is tried so even when more records whose
 * literal is longer failed on the line (the lenient pass keeps a few,
 * those a frame names first). */
static void test_frame_named_lenient(void **state)
{
	(void)state;
	expect_top("Exception in thread \"main\" com.acme.GizmoFormatException: Bad gizmo input: \"abc\"\n"
		   "\tat com.acme.GizmoFormatException.forInput(GizmoFormatException.java:67)\n"
		   "\tat com.acme.Gizmo.parse(Gizmo.java:12)\n",
		   "src/com/acme/GizmoFormatException.java", 64, "pattern");
}

/* The first answer does not depend on how many are asked for, and the
 * record at the line the text names comes first even when another
 * record's shorter text spans more of the line (the list of details
 * after the message was cut short). */
static void test_answer_stable(void **state)
{
	(void)state;
	/* symfony/console's block: every line padded to one width */
	static const char *const body[] = {
		"", "  \"./composer.json\" does not match the expected JSON schema:",
		"   - repositories[0].type : Does not have a value in the enumeration [\"compos",
		"  er\"]", "   - repositories[0] : Failed to match at least one schema", "",
	};
	char t[1024] = "\nIn Factory.php line 320:\n";
	for (size_t k = 0; k < sizeof body / sizeof body[0]; k++)
		snprintf(t + strlen(t), sizeof t - strlen(t), "%-79s\n", body[k]);
	for (size_t limit = 1; limit <= 10; limit += 9) {
		fl_result r;
		fl_lookup_explain(lk, t, strlen(t), NULL, limit, &r);
		assert_true(r.n >= 1);
		assert_string_equal(r.v[0].file_path, "src/Factory.php");
		assert_int_equal(r.v[0].line, 319);
		fl_result_free(&r);
	}
	/* without the line named: the same first answer at any limit */
	const char *u = "\"./composer.json\" does not match the expected JSON schema:\n"
			" - repositories[0].type : Does not have a value in the enumeration\n";
	fl_result a, b;
	fl_lookup_explain(lk, u, strlen(u), NULL, 1, &a);
	fl_lookup_explain(lk, u, strlen(u), NULL, 10, &b);
	assert_true(a.n == 1 && b.n >= 1);
	assert_string_equal(a.v[0].file_path, b.v[0].file_path);
	assert_int_equal(a.v[0].line, b.v[0].line);
	fl_result_free(&a);
	fl_result_free(&b);
}

/* Answers that say little keep the order of the lines they match when
 * the fuzzy tier's join them: the error printed first, not the pointer
 * to the help after it (which sorts first in the index). */
/* An OS error's text is no program's own words: a record made of it
 * and placeholders neither outranks the program whose text surrounds it
 * nor makes that text a banner around its "cause"; alone, it still
 * answers, not confidently. */
static void test_os_text_alone(void **state)
{
	(void)state;
	expect_top("zq: can't stat nofile : No such file or directory -- ignored", "programs/fileio.c", 550,
		   "pattern");
	fl_result r = ask("frob: nofile: No such file or directory", "acme/uu");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "uu/hashsum.rs");
	assert_true(r.v[0].score < 0.9);
	fl_result_free(&r);
}

/* An errno name is no record's code to be named by: the OS prints it for
 * every program; the record's own text still finds it. */
static void test_errno_code(void **state)
{
	(void)state;
	fl_result r = ask("Error: ENOENT: no such file or directory, open 'nofile.json'", NULL);
	for (size_t i = 0; i < r.n; i++)
		assert_string_not_equal(r.v[i].file_path, "src/config.js");
	fl_result_free(&r);
	expect_top("error Couldn't find a manifest file in \"/tmp/x\"", "src/config.js", 690, "pattern");
}

/* Code hits keep the order of the lines that name the codes: the first
 * diagnostic first, though the second's record shares more words with
 * the text; each text alone finds its own. */
static void test_code_lines_in_order(void **state)
{
	(void)state;
	fl_result r = ask("mod.py:3:0: W0311: Bad nesting. Found 3 levels (bad-nesting)\n"
			  "mod.py:2:3: W0125: Using a conditional statement with a constant value here (c)\n",
			  NULL);
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].match_type, "exact-code");
	assert_string_equal(r.v[0].file_path, "lintr/nest.py");
	assert_string_equal(r.v[1].file_path, "lintr/cond.py");
	fl_result_free(&r);
	r = ask("mod.py:2:3: W0125: Using a conditional statement with a constant value here (c)\n"
		"mod.py:3:0: W0311: Bad nesting. Found 3 levels (bad-nesting)\n",
		NULL);
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "lintr/cond.py");
	fl_result_free(&r);
}

static void test_weak_lines_in_order(void **state)
{
	(void)state;
	/* (not "jq: ...": a line under the program's name says it is an
	 * error, normalize.c) */
	fl_result r = ask("jq 1.6: Unknown --bogus\njq --help\n", "acme/cli");
	assert_true(r.n >= 2);
	assert_int_equal(r.v[0].line, 516);
	assert_true(r.v[0].score < 0.9); /* weak: the order is the lines' */
	fl_result_free(&r);
}

static void test_repo_filter(void **state)
{
	(void)state;
	fl_result r = ask("path must not be empty", "other/lib");
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].repo, "other/lib");
	fl_result_free(&r);
	r = ask("path must not be empty", "acme/app");
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].repo, "acme/app");
	fl_result_free(&r);
	r = ask("path must not be empty", "nobody/none");
	assert_int_equal(r.n, 0);
	fl_result_free(&r);
}

static void test_fuzzy_and_no_match(void **state)
{
	(void)state;
	/* not the exact text, but the same words */
	fl_result r = ask("database connection pool exhausted while waiting", NULL);
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].match_type, "fuzzy");
	assert_string_equal(r.v[0].file_path, "db/pool.php");
	assert_true(r.v[0].score >= 0.4 && r.v[0].score < 0.9);
	fl_result_free(&r);
	r = ask("the quick brown fox jumps over the lazy dog", NULL);
	assert_int_equal(r.n, 0);
	fl_result_free(&r);
	r = ask("", NULL);
	assert_int_equal(r.n, 0);
	fl_result_free(&r);
	r = ask("\xff\xfe\xfd invalid \x80 utf8 path must not be empty \xc3", NULL);
	assert_true(r.n >= 1);
	fl_result_free(&r);
}

static void test_wrappers(void **state)
{
	(void)state;
	/* Rust, old and new panic forms */
	expect_top("thread 'main' panicked at 'invalid widget size: 12', src/size.rs:40:9\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
		   "src/size.rs", 40, "pattern");
	expect_top("thread 'main' panicked at src/parse.rs:50:14:\ncalled `Option::unwrap()` on a `None` value in parser\nnote: run with `RUST_BACKTRACE=1`",
		   "src/parse.rs", 50, "pattern");
	/* Python traceback */
	expect_top("Traceback (most recent call last):\n  File \"/srv/app/src/load.py\", line 3, in load\n    raise ValueError(\"path must not be empty\")\nValueError: path must not be empty",
		   "src/load.py", 3, "pattern");
	/* Java with a cause chain */
	expect_top("Exception in thread \"main\" java.lang.RuntimeException: boot failed\n\tat com.acme.Main.main(Main.java:10)\nCaused by: java.lang.IllegalStateException: Cannot read configuration: missing key\n\tat com.acme.Config.load(Config.java:80)\n\t... 1 more",
		   "src/Config.java", 80, "pattern");
	/* Node with frames and a code */
	expect_top("node:internal/fs/utils:345\n    throw err;\n    ^\n\nTypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string. Received undefined\n    at Object.openSync (node:fs:590:10)\n    at readFileSync (lib/fs.js:60:3) {\n  code: 'ERR_INVALID_ARG_TYPE'\n}",
		   "lib/fs.js", 60, "exact-code");
	/* git style, npm, cargo with a cause chain */
	expect_top("git: fatal: user bob not found in directory", "src/users.py", 12, "pattern");
	expect_top("npm error could not parse manifest", "src/cargo.rs", 97, "pattern");
	expect_top("error: failed to build\n\nCaused by:\n  failed to compile template", "src/tpl.rs", 95, "pattern");
	/* syslog and journald lines */
	expect_top("<27>Nov 29 12:00:01 web01 app[4242]: database pool exhausted after waiting for connections",
		   "db/pool.php", 90, "pattern");
	expect_top("Nov 29 12:00:01 web01 app[4242]: config file /x does not exist", "src/load.py", 5, "pattern");
	/* JSON and logfmt lines */
	expect_top("{\"level\":\"error\",\"ts\":1732881600,\"msg\":\"invalid widget size: 7\"}", "src/size.rs", 40, "pattern");
	expect_top("time=2026-11-29T10:00:00Z level=error msg=\"unsupported protocol scheme \\\"gopher\\\"\"", "client.go", 70, "pattern");
	/* timestamps, levels, ANSI colours */
	expect_top("2026-11-29T10:00:00.123Z [ERROR] \x1b[31mpath must not be empty\x1b[0m", "src/load.py", 3, "pattern");
	expect_top("[2026-11-29 10:00:00] ERROR: invalid widget size: 3", "src/size.rs", 40, "pattern");
}

/* A value the text printed that names a record's file is evidence for
 * that record: the command's own file before the shared one raising the
 * same text, and the evidence says why. */
static void test_value_names_file(void **state)
{
	(void)state;
	fl_result r = ask("ERROR: You must give at least one requirement to uninstall (see \"pip help uninstall\")", NULL);
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/commands/uninstall.py");
	bool said = false;
	for (size_t i = 0; i < r.v[0].evidence.n; i++)
		said |= strstr(r.v[0].evidence.v[i], "uninstall, names its file") != NULL;
	assert_true(said);
	fl_result_free(&r);
	/* a value naming neither file is evidence for none */
	r = ask("ERROR: You must give at least one requirement to download (see \"pip help download\")", NULL);
	assert_true(r.n >= 2);
	for (size_t k = 0; k < r.n; k++)
		for (size_t i = 0; i < r.v[k].evidence.n; i++)
			assert_null(strstr(r.v[k].evidence.v[i], "names its file"));
	fl_result_free(&r);
}

/* A raise whose placeholder holds another record's whole message quotes
 * it: the printed text is the raise's ('invalid config: %s' % e around
 * the YAML parser's error), first though the parser's text is the more
 * specific one; the parser's message alone is still the parser's.  (The
 * information a quoting raise needs of its own words, which keeps a bare
 * "invalid %s: %v" out, is measured on a real store: bench/realerrors.) */
static void test_quoting_raise(void **state)
{
	(void)state;
	fl_result r = ask("invalid config: while parsing a flow node\nexpected the node content, but found '<stream end>'\n", NULL);
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "lint/config.py");
	assert_true(r.v[0].score >= 0.9);
	fl_result_free(&r);
	expect_top("while parsing a flow node", "yaml/parser.py", 369, "pattern");
	/* unless the text's evidence points at the quoted message's file
	 * (the command's word names it), not at the raise's: a raise of the
	 * same words outside the tree printed it */
	expect_top("$ lint parser x.yml\ninvalid config: while parsing a flow node\n", "yaml/parser.py", 369,
		   "pattern");
}

/* Java wrappers whose message is their cause's toString(), and records
 * raised without a message (their class name alone) */
static void test_nested_classes_and_class_only(void **state)
{
	(void)state;
	const char *wrapped =
		"Exception in thread \"main\" com.acme.WrapperException: java.lang.IllegalArgumentException: Expected BEGIN_OBJECT but was STRING\n"
		"\tat com.acme.Reader.begin(Reader.java:88)\n"
		"Caused by: java.lang.IllegalArgumentException: Expected BEGIN_OBJECT but was STRING\n"
		"\t... 3 more";
	expect_top(wrapped, "src/Reader.java", 88, "pattern");
	fl_result r = ask(wrapped, NULL);
	for (size_t i = 0; i < r.n; i++)
		assert_string_not_equal(r.v[i].file_path, "src/Args.java");
	fl_result_free(&r);
	expect_top("Exception in thread \"main\" java.lang.IllegalArgumentException\n\tat com.acme.Args.check(Args.java:85)",
		   "src/Args.java", 85, "pattern");
	expect_top("IllegalArgumentException", "src/Args.java", 85, "pattern");
	/* the message printed is another's (a cause's, a value's) that no
	 * record holds: the class and the frame that names the class-only
	 * record's line tell it */
	const char *other = "Exception in thread \"main\" java.lang.IllegalArgumentException: For input string: \"abc\"\n"
			    "\tat Args.check(Args.java:85)\n\tat Main.main(Main.java:9)";
	expect_top(other, "src/Args.java", 85, "pattern");
	r = ask(other, NULL);
	assert_true(r.v[0].evidence.n >= 2);
	fl_result_free(&r);
	expect_top("Traceback (most recent call last):\n  File \"/srv/app/src/conv.py\", line 14, in to_int\n"
		   "ValueError: invalid literal for int() with base 10: 'x'",
		   "src/conv.py", 14, "pattern");
	/* no frame names its line (another line of the file, another
	 * class): the class alone answers nothing */
	static const char *const none[] = {
		"Exception in thread \"main\" java.lang.IllegalArgumentException: For input string: \"abc\"\n"
		"\tat Args.check(Args.java:40)",
		"Exception in thread \"main\" java.lang.IllegalStateException: For input string: \"abc\"\n"
		"\tat Args.check(Args.java:85)",
		"java.lang.IllegalArgumentException: For input string: \"abc\"",
	};
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
		r = ask(none[i], NULL);
		for (size_t k = 0; k < r.n; k++)
			if (strcmp(r.v[k].file_path, "src/Args.java") == 0)
				fail_msg("<%s> answered by src/Args.java:%d", none[i], r.v[k].line);
		fl_result_free(&r);
	}
}

/* One text raised with two classes, a tie: the class the line printed
 * before the message decides, even the one a level looks like
 * ("Error: ", JavaScript's). */
static void test_printed_class(void **state)
{
	(void)state;
	expect_top("     Error: Pending test forbidden\n      at process.processImmediate (node:internal/timers:483:21)",
		   "lib/runner.js", 809, "pattern");
	expect_top("TypeError: Pending test forbidden", "lib/common.js", 150, "pattern");
	expect_top("  1) pending:\n     Error: Pending test forbidden", "lib/runner.js", 809, "pattern");
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_pathological_and_huge(void **state)
{
	(void)state;
	/* (x+x+)+y against many x's and no y: catastrophic for backtracking */
	char q[200];
	memset(q, 'x', 60);
	strcpy(q + 60, "!");
	double t0 = now();
	fl_result r = ask(q, NULL);
	double dt = now() - t0;
	fl_result_free(&r);
	if (dt > 0.5)
		fail_msg("pathological query took %.3f s", dt);
	/* 100 MB input: answers, and finds the error inside */
	size_t n = 100u << 20;
	char *big = malloc(n + 64);
	for (size_t i = 0; i < n; i++)
		big[i] = (i % 80 == 79) ? '\n' : "abcdefghij klmnop"[i % 17];
	strcpy(big + n - 40, "\ninvalid widget size: 99\n");
	t0 = now();
	fl_lookup_explain(lk, big, strlen(big), NULL, 5, &r);
	dt = now() - t0;
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/size.rs");
	fl_result_free(&r);
	free(big);
	if (dt > 20)
		fail_msg("100 MB query took %.1f s", dt);
}

static void test_index_cache(void **state)
{
	(void)state;
	fl_lookup *a;
	fl_err err;
	/* the index written by setup is loaded, not rebuilt */
	assert_int_equal(fl_lookup_open(st, &a, &err), 0);
	assert_false(fl_lookup_was_built(a));
	assert_int_equal(fl_lookup_count(a), 74);
	fl_lookup_close(a);
	/* a change of the store makes it stale */
	assert_int_equal(fl_store_begin(st, &err), 0);
	put("acme/app", "a brand new message here", "src/new.py", 1, NULL, NULL, NULL);
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_lookup_open(st, &a, &err), 0);
	assert_true(fl_lookup_was_built(a));
	assert_int_equal(fl_lookup_count(a), 75);
	fl_result r;
	fl_lookup_explain(a, "a brand new message here", 24, NULL, 3, &r);
	assert_int_equal(r.n, 1);
	fl_result_free(&r);
	fl_lookup_close(a);
	/* a damaged cache file is rebuilt, not trusted */
	char path[160];
	snprintf(path, sizeof path, "%s.lookup", dbpath);
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, 200, SEEK_SET);
	fputs("garbage garbage garbage", f);
	fclose(f);
	truncate(path, 1000);
	assert_int_equal(fl_lookup_open(st, &a, &err), 0);
	assert_true(fl_lookup_was_built(a));
	fl_lookup_close(a);
}

/* The resident size (smaps "Rss:", in KB) of this process's mapping that
 * starts at addr; -1 when there is none. */
static long mapping_rss_kb(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	bool in = false;
	long rss = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = lo == (unsigned long)(uintptr_t)addr;
			continue;
		}
		if (in && sscanf(line, "Rss: %ld kB", &rss) == 1)
			break;
	}
	fclose(f);
	return rss;
}

/* fl_index_populate maps the pages of an image that are in the page
 * cache, and only those: a 4 MB file just written is mapped whole (its
 * resident size grows to the file's), the same file evicted from the
 * cache is left to be read when needed (nothing read, nothing mapped). */
static void test_index_populate(void **state)
{
	(void)state;
	/* a kernel before 5.14 refuses the advice: nothing to test */
	void *probe = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(probe != MAP_FAILED);
	bool can = madvise(probe, 4096, 22 /* MADV_POPULATE_READ */) == 0;
	munmap(probe, 4096);
	if (!can)
		skip();
	char path[160];
	snprintf(path, sizeof path, "%s/populate.img", dir);
	const size_t len = 4u << 20;
	char *data = fl_xmalloc(len);
	for (size_t i = 0; i < len; i++)
		data[i] = (char)(i * 7);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fflush(f), 0);
	assert_int_equal(fsync(fileno(f)), 0);
	fclose(f);
	free(data);
	for (int evicted = 0; evicted < 2; evicted++) {
		int fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		if (evicted)
			assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
		fl_index ix;
		memset(&ix, 0, sizeof ix);
		ix.len = len;
		ix.mem = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		assert_true(ix.mem != MAP_FAILED);
		assert_int_equal(mapping_rss_kb(ix.mem), 0);
		fl_index_populate(&ix);
		long after = mapping_rss_kb(ix.mem);
		unsigned char vec[1024];
		assert_int_equal(mincore(ix.mem, len, vec), 0);
		size_t resident = 0;
		for (size_t k = 0; k < len / 4096; k++)
			resident += vec[k] & 1;
		if (evicted) {
			/* (a page or two may have come back since) */
			assert_true(after <= 16);
			assert_true(resident <= 4);
		} else {
			assert_int_equal(after, (long)(len / 1024));
		}
		munmap(ix.mem, len);
	}
	unlink(path);
}

/* ---- grep-log ----------------------------------------------------------------- */

/* One block of a mixed log: noise, single-line errors, a traceback, a Go
 * panic, a cargo cause chain and a Rust panic.  Matches: 2, 4-7, 8, 9-14,
 * 16-19, 20, 21-23. */
static const char *const block[] = {
	"2026-11-29T10:00:00.001Z INFO request served 200 path=/api/v1/items/1",
	"2026-11-29T10:00:00.002Z ERROR invalid widget size: 12",
	"2026-11-29T10:00:00.003Z DEBUG opening connection to db1 id=42",
	"Traceback (most recent call last):",
	"  File \"/srv/app/src/load.py\", line 3, in load",
	"    raise ValueError(\"path must not be empty\")",
	"ValueError: path must not be empty",
	"2026-11-29T10:00:00.004Z ERROR opening x",
	"panic: unsupported protocol scheme \"gopher\"",
	"",
	"goroutine 1 [running]:",
	"main.main()",
	"\t/src/client.go:70 +0x1d",
	"exit status 2",
	"2026-11-29T10:00:00.005Z INFO job finished",
	"error: failed to build",
	"",
	"Caused by:",
	"  failed to compile template",
	"2026-11-29T10:00:00.006Z WARN connection refused",
	"thread 'main' panicked at src/parse.rs:50:14:",
	"called `Option::unwrap()` on a `None` value in parser",
	"note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
};
#define BLOCK_LINES (sizeof block / sizeof *block)
#define BLOCK_MATCHES 7

static char *make_log(size_t blocks, size_t *len)
{
	fl_buf b = {0};
	for (size_t k = 0; k < blocks; k++)
		for (size_t i = 0; i < BLOCK_LINES; i++) {
			fl_buf_puts(&b, block[i]);
			fl_buf_putc(&b, '\n');
		}
	*len = b.n;
	return (char *)fl_buf_cstr(&b);
}

struct seen {
	fl_strv v;         /* "line-end path:line type captures" per match */
	size_t last_line;
	bool ordered;
	size_t stop_after; /* stop after this many (0: never) */
};

static int on_logmatch(const fl_logmatch *lm, void *ud)
{
	struct seen *s = ud;
	if (lm->line <= s->last_line)
		s->ordered = false;
	s->last_line = lm->line;
	fl_buf b = {0};
	char head[256];
	snprintf(head, sizeof head, "%zu-%zu %s:%d %s", lm->line, lm->end_line,
		 lm->m->file_path, lm->m->line, lm->m->match_type);
	fl_buf_puts(&b, head);
	for (size_t i = 0; i < lm->m->captures.n; i++) {
		fl_buf_puts(&b, " [");
		fl_buf_puts(&b, lm->m->captures.v[i]);
		fl_buf_putc(&b, ']');
	}
	fl_strv_push(&s->v, fl_buf_cstr(&b));
	fl_buf_free(&b);
	return s->stop_after && s->v.n >= s->stop_after;
}

static void grep(const char *log, size_t len, size_t chunk, int threads,
		 struct seen *s, fl_grep_stats *gs)
{
	memset(s, 0, sizeof *s);
	s->ordered = true;
	FILE *in = fmemopen((void *)log, len, "r");
	assert_non_null(in);
	fl_err err;
	assert_int_equal(fl_lk_grep_log(lk, in, NULL, on_logmatch, s, gs, chunk, threads, 0, &err), 0);
	fclose(in);
}

static void test_grep_log_units(void **state)
{
	(void)state;
	size_t len;
	char *log = make_log(1, &len);
	struct seen s;
	fl_grep_stats gs;
	grep(log, len, 1u << 20, 0, &s, &gs);
	assert_int_equal(gs.lines, BLOCK_LINES);
	assert_int_equal(gs.bytes, (long long)len);
	assert_int_equal(s.v.n, BLOCK_MATCHES);
	assert_string_equal(s.v.v[0], "2-2 src/size.rs:40 pattern [12]");
	assert_string_equal(s.v.v[1], "4-7 src/load.py:3 pattern");
	/* short pattern: the line whose message it is, not the noise line
	 * that holds it among other words */
	assert_string_equal(s.v.v[2], "8-8 src/open.c:11 pattern [x]");
	assert_string_equal(s.v.v[3], "9-14 client.go:70 pattern [\"gopher\"]");
	assert_string_equal(s.v.v[4], "16-19 src/tpl.rs:95 pattern");
	assert_true(strncmp(s.v.v[5], "20-20 src/net/", 14) == 0);
	assert_string_equal(s.v.v[6], "21-23 src/parse.rs:50 pattern");
	fl_strv_free(&s.v);
	free(log);
}

static void test_grep_log_parallel_chunks(void **state)
{
	(void)state;
	size_t len;
	char *log = make_log(60, &len);
	struct seen ref;
	fl_grep_stats rs;
	grep(log, len, 1u << 20, 0, &ref, &rs);
	assert_int_equal(ref.v.n, 60 * BLOCK_MATCHES);
	assert_true(ref.ordered);
	/* small chunks (each unit still fits one), alone and on threads:
	 * the same matches, same line ranges, in log order */
	const size_t chunks[] = {256, 300, 511, 1024, 4093};
	for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
		for (int t = 0; t <= 3; t++) {
			struct seen s;
			fl_grep_stats gs;
			grep(log, len, chunks[c], t, &s, &gs);
			if (s.v.n != ref.v.n)
				fail_msg("chunk %zu, %d threads: %zu matches, want %zu", chunks[c],
					 t, s.v.n, ref.v.n);
			for (size_t i = 0; i < s.v.n; i++)
				if (strcmp(s.v.v[i], ref.v.v[i]) != 0)
					fail_msg("chunk %zu, %d threads, match %zu: <%s>, want <%s>",
						 chunks[c], t, i, s.v.v[i], ref.v.v[i]);
			assert_true(s.ordered);
			assert_int_equal(gs.lines, rs.lines);
			assert_int_equal(gs.bytes, rs.bytes);
			fl_strv_free(&s.v);
		}
	/* a callback that stops: nothing more is reported */
	struct seen s;
	memset(&s, 0, sizeof s);
	s.ordered = true;
	s.stop_after = 5;
	FILE *in = fmemopen(log, len, "r");
	fl_err err;
	assert_int_equal(fl_lk_grep_log(lk, in, NULL, on_logmatch, &s, NULL, 300, 2, 0, &err), 0);
	fclose(in);
	assert_int_equal(s.v.n, 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(s.v.v[i], ref.v.v[i]);
	fl_strv_free(&s.v);
	fl_strv_free(&ref.v);
	free(log);
}

/* Informational lines that name nothing are neither scanned nor looked
 * up (fl_line_quiet): the error lines among them are found on their own
 * lines, with their captures, whatever the chunks and threads; an
 * informational line's message or error code is no answer, a warning's
 * is. */
static void test_grep_log_quiet_lines(void **state)
{
	(void)state;
	fl_buf b = {0};
	char line[256];
	size_t want = 0;
	for (int i = 1; i <= 3000; i++) {
		if (i % 7 == 0) {
			snprintf(line, sizeof line,
				 "2026-11-29T10:00:%02d.000Z ERROR invalid widget size: %d\n", i % 60, i);
			want++;
		} else if (i % 11 == 0) {
			/* an error's message and an error code, logged as information */
			snprintf(line, sizeof line, "2026-11-29T10:00:%02d.000Z INFO %s\n", i % 60,
				 i % 2 ? "invalid widget size: 3 (retrying)" :
					 "retry after ERR_INVALID_ARG_TYPE");
		} else {
			snprintf(line, sizeof line,
				 "2026-11-29T10:00:%02d.000Z DEBUG cache hit for key %d path=/api/v1/items/%d\n",
				 i % 60, i, i % 97);
		}
		fl_buf_puts(&b, line);
	}
	/* a warning is no informational line */
	fl_buf_puts(&b, "2026-11-29T10:01:00.000Z WARN invalid widget size: 77\n");
	want++;
	struct seen ref;
	grep(b.s, b.n, 1u << 20, 0, &ref, NULL);
	assert_int_equal(ref.v.n, want);
	for (size_t k = 0; k + 1 < want; k++) {
		char exp[128];
		int ln = (int)(k + 1) * 7;
		snprintf(exp, sizeof exp, "%d-%d src/size.rs:40 pattern [%d]", ln, ln, ln);
		assert_string_equal(ref.v.v[k], exp);
	}
	assert_string_equal(ref.v.v[want - 1], "3001-3001 src/size.rs:40 pattern [77]");
	const size_t chunks[] = {512, 4096, 65536};
	for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
		for (int t = 0; t <= 2; t += 2) {
			struct seen s;
			grep(b.s, b.n, chunks[c], t, &s, NULL);
			assert_int_equal(s.v.n, ref.v.n);
			for (size_t i = 0; i < s.v.n; i++)
				assert_string_equal(s.v.v[i], ref.v.v[i]);
			fl_strv_free(&s.v);
		}
	fl_strv_free(&ref.v);
	fl_buf_free(&b);
}

static void test_grep_log_unit_across_chunks(void **state)
{
	(void)state;
	/* noise up to just before a 4096-byte chunk boundary, then a
	 * traceback that straddles it; noise of several shapes (the chunk
	 * is cut before a line that starts a unit whatever precedes it) */
	static const char *const noise[] = {
		"2026-11-29T10:00:00.001Z INFO health check ok\n",
		"[2026-11-29 10:00:00] INFO health check ok\n",
		"connection pool: 3 idle, 5 busy (ok)\n",
		"error: nothing here, just a word\n",
	};
	for (size_t k = 0; k < sizeof noise / sizeof *noise; k++) {
		fl_buf b = {0};
		size_t lines = 0;
		while (b.n < 4096 - 60) {
			fl_buf_puts(&b, noise[k]);
			lines++;
		}
		size_t tb = b.n;
		fl_buf_puts(&b, "Traceback (most recent call last):\n"
				"  File \"/srv/app/src/load.py\", line 3, in load\n"
				"    raise ValueError(\"path must not be empty\")\n"
				"ValueError: path must not be empty\n");
		fl_buf_puts(&b, noise[k]);
		assert_true(tb < 4096 && b.n > 4096 + 40);
		size_t len = b.n;
		char *log = (char *)fl_buf_cstr(&b);
		for (int t = 0; t <= 2; t++) {
			struct seen s;
			fl_grep_stats gs;
			grep(log, len, 4096, t, &s, &gs);
			char want[64];
			snprintf(want, sizeof want, "%zu-%zu src/load.py:3 pattern", lines + 1, lines + 4);
			if (s.v.n != 1 || strcmp(s.v.v[0], want) != 0)
				fail_msg("noise %zu, %d threads: %zu matches, first <%s>, want <%s>", k,
					 t, s.v.n, s.v.n ? s.v.v[0] : "", want);
			assert_int_equal(gs.lines, (long long)lines + 5);
			fl_strv_free(&s.v);
		}
		free(log);
	}
}

/* Is s valid UTF-8? */
static bool utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2
			: (*p & 0xF8) == 0xF0 ? 3 : -1;
		if (n < 0)
			return false;
		p++;
		for (int i = 0; i < n; i++, p++)
			if ((*p & 0xC0) != 0x80)
				return false;
	}
	return true;
}

static void test_time_limit(void **state)
{
	(void)state;
	/* 1 MB of lines that match: work enough for any clock */
	fl_buf b = {0};
	while (b.n < (1u << 20))
		fl_buf_puts(&b, "2026-11-29 ERROR invalid widget size: 12\n");
	const char *text = fl_buf_cstr(&b);
	fl_result r;
	fl_err err;
	/* a limit that has passed: an error, and no part of an answer */
	assert_int_equal(fl_lookup_explain_until(lk, text, b.n, NULL, 10, 1e-9, &r, &err), -1);
	assert_non_null(strstr(err.msg, "timed out"));
	assert_int_equal(r.n, 0);
	fl_result_free(&r);
	/* within the limit: the whole answer */
	assert_int_equal(fl_lookup_explain_until(lk, text, b.n, NULL, 10, 60, &r, &err), 0);
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/size.rs");
	fl_result_free(&r);
	/* the plain call after a timed-out one has no limit */
	assert_int_equal(fl_lookup_explain_until(lk, text, b.n, NULL, 10, 1e-9, &r, &err), -1);
	fl_result_free(&r);
	r = ask("invalid widget size: 12", NULL);
	assert_int_equal(r.n, 1);
	fl_result_free(&r);
	/* a log: stopped at the first line, alone and on threads; with time
	 * enough, every line */
	for (int t = 0; t <= 2; t++) {
		struct seen s = {0};
		s.ordered = true;
		fl_grep_stats gs;
		FILE *in = fmemopen((void *)text, b.n, "r");
		assert_int_equal(fl_lk_grep_log(lk, in, NULL, on_logmatch, &s, &gs, 65536, t, 1e-9, &err), 1);
		fclose(in);
		assert_int_equal(s.v.n, 0);
		assert_int_equal(gs.lines, 0);
		fl_strv_free(&s.v);
		memset(&s, 0, sizeof s);
		s.ordered = true;
		in = fmemopen((void *)text, b.n, "r");
		assert_int_equal(fl_lk_grep_log(lk, in, NULL, on_logmatch, &s, &gs, 65536, t, 60, &err), 0);
		fclose(in);
		assert_int_equal(gs.lines, (long long)(b.n + 40) / 41);
		assert_int_equal(s.v.n, (size_t)gs.lines - (b.n % 41 != 0));
		assert_true(s.ordered);
		fl_strv_free(&s.v);
	}
	fl_buf_free(&b);
}

static void test_long_lines(void **state)
{
	(void)state;
	/* the message at the head, then at the tail, of a 200 KB line of
	 * two-byte characters (the cuts fall inside characters) */
	fl_buf filler = {0};
	while (filler.n < 200000)
		fl_buf_puts(&filler, "\xC3\xA9t\xC3\xA9 ");
	fl_buf head = {0}, tail = {0};
	fl_buf_puts(&head, "invalid widget size: 12 ");
	fl_buf_put(&head, filler.s, filler.n);
	fl_buf_put(&tail, filler.s, filler.n);
	fl_buf_puts(&tail, " user bob not found in directory");
	fl_result r;
	fl_lookup_explain(lk, fl_buf_cstr(&head), head.n, NULL, 10, &r);
	assert_int_equal(r.cut_lines, 1);
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/size.rs");
	assert_true(utf8_ok(r.query));
	/* the placeholder ran to the end of the line: what is left of it */
	const char *cap = r.v[0].captures.v[0];
	assert_true(strncmp(cap, "12 ", 3) == 0);
	assert_non_null(strstr(cap, "\xE2\x80\xA6"));
	assert_true(strlen(cap) <= 2 * FL_LINE_KEEP + 3);
	assert_true(utf8_ok(cap));
	fl_result_free(&r);
	fl_lookup_explain(lk, fl_buf_cstr(&tail), tail.n, NULL, 10, &r);
	assert_int_equal(r.cut_lines, 1);
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/users.py");
	assert_string_equal(r.v[0].captures.v[0], "bob");
	fl_result_free(&r);
	/* a line at the limit is looked at whole */
	r = ask("invalid widget size: 12", NULL);
	assert_int_equal(r.cut_lines, 0);
	fl_result_free(&r);
	/* grep-log: the same, alone and on threads, with the line shorter
	 * and longer than a chunk (then read on to its end, still one line),
	 * and lines after it */
	fl_buf_puts(&tail, "\nconnection refused\n");
	const size_t chunks[] = {1u << 20, 65536, 20000};
	for (size_t c = 0; c < 3; c++)
		for (int t = 0; t <= 2; t += 2) {
			struct seen s;
			fl_grep_stats gs;
			grep(fl_buf_cstr(&tail), tail.n, chunks[c], t, &s, &gs);
			if (s.v.n != 2 || strcmp(s.v.v[0], "1-1 src/users.py:12 pattern [bob]") != 0 ||
			    strncmp(s.v.v[1], "2-2 src/net/", 12) != 0)
				fail_msg("chunk %zu: %zu matches, first <%s>", chunks[c], s.v.n,
					 s.v.n ? s.v.v[0] : "");
			assert_int_equal(gs.lines, 2);
			assert_int_equal(gs.cut_lines, 1);
			assert_int_equal(gs.bytes, (long long)tail.n);
			fl_strv_free(&s.v);
		}
	fl_buf_free(&filler);
	fl_buf_free(&head);
	fl_buf_free(&tail);
}

/* A store of a test's own, in place of the shared one until own_end:
 * own_begin opens it in a transaction for put(), own_commit opens its
 * lookup. */
static struct {
	fl_store *st;
	fl_lookup *lk;
	char dir[64];
} own;

static void own_begin(void)
{
	own.st = st;
	own.lk = lk;
	strcpy(own.dir, "/tmp/fl-lookup-own-XXXXXX");
	assert_non_null(mkdtemp(own.dir));
	char p[128];
	snprintf(p, sizeof p, "%s/t.db", own.dir);
	fl_err err;
	assert_int_equal(fl_store_open(p, false, &st, &err), 0);
	assert_int_equal(fl_store_begin(st, &err), 0);
}

static void own_commit(void)
{
	fl_err err;
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_lookup_open(st, &lk, &err), 0);
}

static void own_end(void)
{
	fl_lookup_close(lk);
	fl_store_close(st);
	st = own.st;
	lk = own.lk;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", own.dir);
	assert_int_equal(system(cmd), 0);
}

static void test_factor_across_scan_blocks(void **state)
{
	(void)state;
	/* a store of its own: a multi-line message whose literal window
	 * holds the newline */
	own_begin();
	put("acme/app", "first line\nsecond part here", "src/multi.py", 21, NULL, NULL, NULL);
	own_commit();
	/* the newline just after a block's nominal end, so the block ends
	 * inside the window; and a few other places */
	for (size_t at = FL_SCAN_BLOCK - 12; at <= FL_SCAN_BLOCK + 4; at++) {
		fl_buf b = {0};
		while (b.n < at) {
			size_t n = at - b.n < 100 ? at - b.n : 100;
			for (size_t i = 0; i + 1 < n; i++)
				fl_buf_putc(&b, 'z');
			fl_buf_putc(&b, '\n');
		}
		fl_buf_puts(&b, "first line\nsecond part here\nzzz\n");
		fl_result r;
		fl_lookup_explain(lk, fl_buf_cstr(&b), b.n, NULL, 10, &r);
		if (r.n != 1 || strcmp(r.v[0].file_path, "src/multi.py") != 0 ||
		    strcmp(r.v[0].match_type, "pattern") != 0)
			fail_msg("message at %zu: %zu matches", at, r.n);
		fl_result_free(&r);
		fl_buf_free(&b);
	}
	own_end();
}

/* fl_littab_scan's callback: each occurrence appended to an fl_occs */
static int lit_record(unsigned id, unsigned long long from, unsigned long long to,
		      unsigned flags, void *ctx)
{
	(void)from;
	(void)flags;
	fl_occs *o = ctx;
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->v = fl_xrealloc(o->v, o->cap * sizeof *o->v);
	}
	o->v[o->n++] = (fl_occ){id, (uint32_t)to};
	return 0;
}

/* A lookup of one process keeps its stamps in tables sized by what it
 * touches (sparse); bulk work in tables of an entry each (dense): the
 * same answers either way, to texts a pattern answers and to one that
 * shares its words with thousands of records and that no record answers
 * (test_fuzzy_pruning_exact compares the fuzzy tier's answers in both). */
static void test_sparse_stamps_equal_dense(void **state)
{
	(void)state;
	own_begin();
	static const char *w[] = {"upstream", "socket", "closed", "while", "reading",
		"header", "worker", "pool", "drained", "shard", "replica", "lagging"};
	for (int i = 0; i < 3000; i++) {
		char m[200], path[32];
		snprintf(m, sizeof m, "%s %s %s %s of node n%d", w[i % 12], w[(i / 12) % 12],
			 w[(i / 144) % 12], w[(i * 7) % 12], i);
		snprintf(path, sizeof path, "src/f%d.c", i);
		put("acme/wide", m, path, 1 + i, NULL, NULL, NULL);
	}
	own_commit();
	const char *texts[] = {
		"header socket upstream lagging of node n17",
		"ERROR lagging shard drained header of node n2999 (retrying)",
		"lagging shard drained header of node",
	};
	for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
		fl_result a, b;
		fl_lookup_thread_done(); /* a fresh thread's state: sparse */
		assert_int_equal(fl_lookup_explain(lk, texts[t], strlen(texts[t]), NULL, 50, &a), 0);
		fl_lk_prepare_bulk(lk); /* the dense tables, written through */
		assert_int_equal(fl_lookup_explain(lk, texts[t], strlen(texts[t]), NULL, 50, &b), 0);
		fl_lookup_thread_done();
		assert_int_equal(a.n, b.n);
		for (size_t k = 0; k < a.n; k++) {
			assert_int_equal(a.v[k].entry, b.v[k].entry);
			assert_true(a.v[k].score == b.v[k].score);
			assert_string_equal(a.v[k].match_type, b.v[k].match_type);
		}
		fl_result_free(&a);
		fl_result_free(&b);
	}
	own_end();
}

/* The literal table (short texts), Hyperscan (long ones) and the table
 * behind its filter (long ones, past one Hyperscan database) report the
 * same occurrences: a store of 400 messages made of words, with codes of
 * one to fourteen bytes, scanned with all three over the messages, texts
 * made of their pieces, and random bytes. */
static void test_literal_table_equals_hyperscan(void **state)
{
	(void)state;
	own_begin();
	static const char *words[] = {"could", "not", "open", "file", "Invalid",
		"argument", "the", "lock", "of", "index", "remote", "refused",
		"timeout", "überschritten", "\t", "x", "a:", "path", "déjà", "ERR"};
	size_t nw = sizeof words / sizeof *words;
	unsigned seed = 7;
	char msgs[400][160];
	for (int i = 0; i < 400; i++) {
		char m[160] = "";
		int n = 2 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 6;
		for (int k = 0; k < n; k++) {
			seed = seed * 1103515245u + 12345u;
			if (k)
				strcat(m, (seed >> 20) % 3 ? " " : "");
			strcat(m, words[(seed >> 16) % nw]);
		}
		snprintf(msgs[i], sizeof msgs[i], "%s %d", m, i);
		char path[32], code[16];
		snprintf(path, sizeof path, "src/f%d.c", i);
		/* codes of 1 to 14 bytes, some sharing first bytes */
		snprintf(code, sizeof code, "%.*s", 1 + i % 14, &"E0123456789ABC"[i % 3]);
		put("acme/many", msgs[i], path, 1 + i, i % 4 ? NULL : code, NULL, NULL);
	}
	own_commit();
	fl_lk_prepare(lk);
	fl_occs a = {0}, b = {0};
	size_t total = 0, filtered_total = 0;
	const fl_index *ix = &lk->seg[0];
	fl_litfilter filter;
	fl_litfilter_make(&ix->lt, &filter);
	/* every kind of literal is in the filter: of 8 bytes and more, of 4
	 * to 7 (codes), and the codes of 1 to 3 bytes go around it */
	assert_non_null(filter.s8.b);
	assert_non_null(filter.s4.b);
	assert_true(ix->lt.sidx[256] > 0);
	/* and the image keeps its own, smaller, for short texts (the table's
	 * engine of fl_lk_scan_by without Hyperscan) */
	assert_non_null(ix->lf_short.s8.b);
	assert_non_null(ix->lf_short.s4.b);
	assert_true(ix->lf_short.s8.bits < filter.s8.bits);
	fl_occs lit_seen = {0};
	for (int t = 0; t < 600; t++) {
		fl_buf text = {0};
		if (t < 400) {
			fl_buf_puts(&text, msgs[t]);
		} else if (t < 500) {
			for (int k = 0; k < 30; k++) {
				seed = seed * 1103515245u + 12345u;
				const char *m = msgs[(seed >> 16) % 400];
				size_t ml = strlen(m), from = (seed >> 8) % ml;
				fl_buf_put(&text, m + from, ml - from);
				fl_buf_puts(&text, (seed >> 4) % 2 ? "\n" : " E012");
			}
		} else {
			for (int k = 0; k < 3000; k++) {
				seed = seed * 1103515245u + 12345u;
				fl_buf_putc(&text, (char)("E0123 \nabcxotlp"[(seed >> 16) % 16]));
			}
		}
		assert_true(fl_lk_scan_by(lk, text.s, text.n, &a, false));
		assert_true(fl_lk_scan_by(lk, text.s, text.n, &b, true));
		if (a.n != b.n)
			fail_msg("text %d: %zu occurrences by the table, %zu by Hyperscan", t,
				 a.n, b.n);
		for (size_t i = 0; i < a.n; i++)
			if (a.v[i].id != b.v[i].id || a.v[i].end != b.v[i].end)
				fail_msg("text %d, occurrence %zu: %u@%u against %u@%u", t, i,
					 a.v[i].id, a.v[i].end, b.v[i].id, b.v[i].end);
		/* the table behind its filter (larger indexes' engine for long
		 * texts): the same occurrences in the same order, to the
		 * text's last bytes */
		lit_seen.n = 0;
		assert_true(fl_littab_scan(&ix->lt, ix->str, text.s, text.n, lit_record, &lit_seen));
		fl_occs plain = lit_seen;
		lit_seen = (fl_occs){0};
		assert_true(fl_littab_scan_filtered(&ix->lt, &filter, ix->str, text.s, text.n,
						    lit_record, &lit_seen));
		assert_int_equal(plain.n, lit_seen.n);
		for (size_t i = 0; i < plain.n; i++)
			if (plain.v[i].id != lit_seen.v[i].id || plain.v[i].end != lit_seen.v[i].end)
				fail_msg("text %d, occurrence %zu: %u@%u by the table, %u@%u filtered",
					 t, i, plain.v[i].id, plain.v[i].end, lit_seen.v[i].id,
					 lit_seen.v[i].end);
		lit_seen.n = 0;
		assert_true(fl_littab_scan_filtered(&ix->lt, &ix->lf_short, ix->str, text.s,
						    text.n, lit_record, &lit_seen));
		assert_int_equal(plain.n, lit_seen.n);
		for (size_t i = 0; i < plain.n; i++)
			if (plain.v[i].id != lit_seen.v[i].id || plain.v[i].end != lit_seen.v[i].end)
				fail_msg("text %d, occurrence %zu: %u@%u by the table, %u@%u behind "
					 "the image's filter", t, i, plain.v[i].id, plain.v[i].end,
					 lit_seen.v[i].id, lit_seen.v[i].end);
		filtered_total += lit_seen.n;
		free(plain.v);
		total += a.n;
		fl_buf_free(&text);
	}
	/* the messages at least find themselves */
	assert_true(total >= 400);
	assert_true(filtered_total >= 400);
	free(a.v);
	free(b.v);
	free(lit_seen.v);
	fl_litfilter_free(&filter);
	own_end();
}

/* The messages of a query are looked for inside its cleaned text, scanned
 * once, and take their literal occurrences from there: the same answers,
 * captures taken from the message, wherever it lies in the text (across
 * scan blocks) and when it is not in the text as written (an escaped JSON
 * message). */
static void test_messages_inside_the_text(void **state)
{
	(void)state;
	for (size_t at = FL_SCAN_BLOCK - 40; at <= 3 * FL_SCAN_BLOCK; at += FL_SCAN_BLOCK / 3) {
		fl_buf b = {0};
		while (b.n < at)
			fl_buf_puts(&b, "zzzz zzzz zzzz zzzz zzzz\n");
		fl_buf_puts(&b, "java.lang.IllegalStateException: Cannot read configuration: /etc/app.toml\n"
				"\tat com.acme.Config.load(Config.java:80)\n");
		fl_result r;
		fl_lookup_explain(lk, fl_buf_cstr(&b), b.n, NULL, 10, &r);
		if (!r.n || strcmp(r.v[0].file_path, "src/Config.java") != 0 ||
		    r.v[0].captures.n != 1 || strcmp(r.v[0].captures.v[0], "/etc/app.toml") != 0)
			fail_msg("message after %zu bytes: %zu matches", at, r.n);
		fl_result_free(&r);
		fl_buf_free(&b);
	}
	fl_result r = ask("{\"level\":\"error\",\"msg\":\"config file /etc/a\\\"b does not exist\"}", NULL);
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/load.py");
	assert_int_equal(r.v[0].captures.n, 1);
	assert_string_equal(r.v[0].captures.v[0], "/etc/a\"b");
	fl_result_free(&r);
}

/* The fuzzy tier's pruning of its top-k (lookup.c's fuzzy_text): on a
 * store of 4,000 messages of words of Zipf frequencies (the commonest in
 * most of them, posting lists past FUZZY_LONG_LIST) and of copies (ties),
 * the k best answers to 1,000 mangled messages and bags of words are those
 * of a lookup asking for every answer (which no bar prunes), in the same
 * order with the same scores and counts of records raising the same
 * text; and those are the answers a plain scorer finds (every record's
 * shared idf over the union of the words' idf). */
static double fuzzy_ref(const fl_index *ix, const idx_entry *x, const idx_token **qt,
			const double *idf, size_t nt, double qnorm, double *inter)
{
	*inter = 0;
	for (size_t i = 0; i < nt; i++)
		for (uint32_t k = 0; qt[i] && k < x->ntoks; k++)
			if (ix->etoks[x->toks + k] == (uint32_t)(qt[i] - ix->tok))
				*inter += idf[i];
	double uni = qnorm + x->norm - *inter;
	return uni > 0 ? *inter / uni : 0;
}

static size_t zipf(double u, const double *cum, size_t nw)
{
	size_t j = 0;
	while (j + 1 < nw && cum[j] < u)
		j++;
	return j;
}

static void test_fuzzy_pruning_exact(void **state)
{
	(void)state;
	own_begin();
	static const char *words[] = {"error", "cannot", "file", "invalid", "value",
		"the", "for", "open", "read", "write", "remote", "index", "lock", "path",
		"option", "missing", "argument", "refused", "timeout", "object", "branch",
		"commit", "merge", "config", "section", "key", "socket", "stream", "buffer",
		"overflow", "parse", "token", "expected", "unknown", "command", "module",
		"package", "version", "conflict", "directory", "permission", "denied",
		"resolve", "host", "network", "digest", "signature", "header", "archive",
		"format", "schema", "column", "table", "cursor", "thread", "deadlock",
		"quota", "vendor", "plugin", "widget"};
	size_t nw = sizeof words / sizeof *words;
	/* Zipf: word j with weight 1 / (j + 1) */
	double cum[64], tot = 0;
	for (size_t j = 0; j < nw; j++)
		cum[j] = (tot += 1.0 / (double)(j + 1));
	unsigned long long rs = 0x9E3779B97F4A7C15ull;
#define RND() (rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17, rs)
#define ZIPF() zipf((double)(RND() % 1000000) / 1e6 * tot, cum, nw)
	enum { NREC = 4000 };
	static char msgs[NREC][200];
	for (int i = 0; i < NREC; i++) {
		if (i > 50 && RND() % 3 == 0) { /* a copy: a tie */
			strcpy(msgs[i], msgs[RND() % (unsigned)i]);
		} else {
			size_t n = 3 + RND() % 7, o = 0;
			for (size_t k = 0; k < n; k++)
				o += (size_t)snprintf(msgs[i] + o, sizeof msgs[i] - o, "%s%s",
						      k ? " " : "", words[ZIPF()]);
			if (RND() % 4 == 0)
				snprintf(msgs[i] + o, sizeof msgs[i] - o, " {name}");
		}
		char path[64];
		snprintf(path, sizeof path, "src/f%d.c", i);
		put(i % 5 ? "acme/app" : "acme/lib", msgs[i], path, i + 1, NULL, NULL, NULL);
	}
	own_commit();
	const fl_index *ix = &lk->seg[0];
	size_t checked = 0, pruned = 0;
	for (int qi = 0; qi < 1000; qi++) {
		char text[400];
		size_t o = 0;
		if (qi % 4 == 3) { /* a bag of words */
			size_t n = 2 + RND() % 10;
			for (size_t k = 0; k < n; k++)
				o += (size_t)snprintf(text + o, sizeof text - o, "%s%s", k ? " " : "",
						      words[ZIPF()]);
		} else { /* a message, a word of it replaced and one added */
			char m[200];
			strcpy(m, msgs[RND() % NREC]);
			char *w[32];
			size_t n = 0;
			for (char *t = strtok(m, " "); t && n < 30; t = strtok(NULL, " "))
				w[n++] = t;
			size_t rep = RND() % n, add = RND() % (n + 1);
			for (size_t k = 0; k <= n; k++) {
				if (k == add)
					o += (size_t)snprintf(text + o, sizeof text - o, "%s%s",
							      o ? " " : "", words[ZIPF()]);
				if (k < n)
					o += (size_t)snprintf(text + o, sizeof text - o, "%s%s",
							      o ? " " : "",
							      k == rep && qi % 4 != 2 ? words[RND() % nw] : w[k]);
			}
		}
		fl_result all;
		fl_lookup_explain(lk, text, strlen(text), NULL, NREC, &all);
		/* every other query's pruned lookups with the dense stamps of
		 * bulk work, the unpruned one with the sparse ones of a single
		 * lookup */
		if (qi % 2)
			fl_lk_prepare_bulk(lk);
		static const size_t ks[] = {1, 3, 10};
		for (size_t ki = 0; ki < 3; ki++) {
			fl_result r;
			fl_lookup_explain(lk, text, strlen(text), NULL, ks[ki], &r);
			size_t want = all.n < ks[ki] ? all.n : ks[ki];
			if (r.n != want)
				fail_msg("\"%s\", k %zu: %zu answers, %zu of every answer", text, ks[ki],
					 r.n, want);
			for (size_t i = 0; i < r.n; i++)
				if (strcmp(r.v[i].id, all.v[i].id) != 0 || r.v[i].score != all.v[i].score ||
				    r.v[i].same_text != all.v[i].same_text ||
				    strcmp(r.v[i].match_type, all.v[i].match_type) != 0)
					fail_msg("\"%s\", k %zu, answer %zu: %s %.9f (%zu) against %s %.9f (%zu)",
						 text, ks[ki], i, r.v[i].id, r.v[i].score, r.v[i].same_text,
						 all.v[i].id, all.v[i].score, all.v[i].same_text);
			if (all.n > ks[ki])
				pruned++;
			fl_result_free(&r);
		}
		fl_lookup_thread_done();
		/* with no pattern hit (the fuzzy tier alone), every answer of the
		 * plain scorer is there with its score */
		fl_result pat;
		fl_lk_explain(lk, text, strlen(text), NULL, NREC, false, &pat);
		size_t npat = pat.n;
		fl_result_free(&pat);
		if (all.n && !npat) {
			char buf[128 * FL_TOKEN_MAX];
			const char *toks[128];
			size_t nt = fl_tokens(all.query, buf, toks, 128);
			const idx_token *qt[128];
			double idf[128], qnorm = 0;
			for (size_t i = 0; i < nt; i++) {
				qt[i] = fl_index_token(ix, toks[i]);
				idf[i] = fl_lk_idf(lk, qt[i], NULL);
				qnorm += idf[i];
			}
			double info_min = 1.8 * fl_lk_info_unit(lk);
			for (size_t e = 0; e < ix->h->n_entries; e++) {
				double inter, sc = fuzzy_ref(ix, &ix->ent[e], qt, idf, nt, qnorm, &inter);
				if (sc < FL_LK_CONFIDENT + 1e-4 || inter < info_min * (1 + 1e-4))
					continue;
				if (sc >= 0.9)
					sc = 0.899;
				size_t i = 0;
				while (i < all.n && all.v[i].entry != e)
					i++;
				if (i == all.n || fabs(all.v[i].score - sc) > 1e-4)
					fail_msg("\"%s\": %s (%.9f) %s", text, ix_str(ix, ix->ent[e].msg), sc,
						 i == all.n ? "not found" : "with another score");
				checked++;
			}
		}
		fl_result_free(&all);
	}
#undef RND
#undef ZIPF
	/* answers of the fuzzy tier, and more of them than asked for */
	print_message("fuzzy pruning: %zu answers of the plain scorer, %zu lookups with more answers than asked for\n", checked, pruned);
	assert_true(checked > 500);
	assert_true(pruned > 200);
	own_end();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_code),
		cmocka_unit_test(test_pattern_and_captures),
		cmocka_unit_test(test_leading_blank_line),
		cmocka_unit_test(test_first_segment_start),
		cmocka_unit_test(test_capture_fits),
		cmocka_unit_test(test_loose_pattern),
		cmocka_unit_test(test_mid_word),
		cmocka_unit_test(test_tex_quotes),
		cmocka_unit_test(test_help_after_error),
		cmocka_unit_test(test_level_words),
		cmocka_unit_test(test_os_text_inside),
		cmocka_unit_test(test_specific_pattern_first),
		cmocka_unit_test(test_evidence_breaks_ties),
		cmocka_unit_test(test_named_line_first),
		cmocka_unit_test(test_frame_named_lenient),
		cmocka_unit_test(test_answer_stable),
		cmocka_unit_test(test_os_text_alone),
		cmocka_unit_test(test_errno_code),
		cmocka_unit_test(test_code_lines_in_order),
		cmocka_unit_test(test_weak_lines_in_order),
		cmocka_unit_test(test_repo_filter),
		cmocka_unit_test(test_fuzzy_and_no_match),
		cmocka_unit_test(test_wrappers),
		cmocka_unit_test(test_quoting_raise),
		cmocka_unit_test(test_value_names_file),
		cmocka_unit_test(test_nested_classes_and_class_only),
		cmocka_unit_test(test_printed_class),
		cmocka_unit_test(test_pathological_and_huge),
		cmocka_unit_test(test_grep_log_units),
		cmocka_unit_test(test_grep_log_parallel_chunks),
		cmocka_unit_test(test_grep_log_unit_across_chunks),
		cmocka_unit_test(test_grep_log_quiet_lines),
		cmocka_unit_test(test_index_cache),
		cmocka_unit_test(test_index_populate),
		cmocka_unit_test(test_time_limit),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_factor_across_scan_blocks),
		cmocka_unit_test(test_messages_inside_the_text),
		cmocka_unit_test(test_literal_table_equals_hyperscan),
		cmocka_unit_test(test_sparse_stamps_equal_dense),
		cmocka_unit_test(test_fuzzy_pruning_exact),
	};
	return cmocka_run_group_tests_name("lookup", tests, setup, teardown);
}
