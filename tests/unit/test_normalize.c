/*
 * test_normalize.c — reading what wraps a pasted error (normalize.c):
 * symfony/console's exception blocks (the `In X.php line N:` header as a
 * path, the class line, the message cut at the terminal's width joined
 * back, with or without the padding a paste may lose, a block without
 * header when its padding is intact), and look-alikes left as they are;
 * the header's file and line ranking the answers; a logger's context
 * tag after the log prefix.
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
#include <dirent.h>
#include <jansson.h>

#include "faultline.h"
#include "lookup/lookup_internal.h"
#include "lookup/normalize.h"
#include "test_util.h"
#include "util.h"

static bool has(const fl_strv *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->v[i], s) == 0)
			return true;
	return false;
}

static void norm(const char *text, fl_query *q)
{
	fl_normalize(text, strlen(text), q);
}

/* composer show's output: the message cut in the middle of a word */
static void test_box_wrapped(void **state)
{
	(void)state;
	fl_query q;
	norm("\nIn ShowCommand.php line 300:\n"
	     "                                                                               \n"
	     "  Package \"acme/nothere\" not found, try using --available (-a) to show all av  \n"
	     "  ailable packages.                                                            \n"
	     "                                                                               \n"
	     "\nshow [--all] [--locked] [--] [<package> [<version>]]\n",
	     &q);
	assert_true(q.messages.n >= 1);
	assert_string_equal(q.messages.v[0], "Package \"acme/nothere\" not found, try using "
					     "--available (-a) to show all available packages.");
	assert_true(has(&q.paths, "ShowCommand.php"));
	assert_true(has(&q.sites, "ShowCommand.php:300"));
	assert_null(strstr(q.clean, "In ShowCommand.php"));
	assert_non_null(strstr(q.clean, "all available packages."));
	fl_query_free(&q);
}

/* a message of several lines, some cut, some beginning with a blank */
static void test_box_lines(void **state)
{
	(void)state;
	fl_query q;
	norm("In Factory.php line 320:\n"
	     "                                                                               \n"
	     "  \"./composer.json\" does not match the expected JSON schema:                   \n"
	     "   - repositories[0].type : Does not have a value in the enumeration [\"compos  \n"
	     "  er\"]                                                                         \n"
	     "   - repositories[0].package : The property package is required                \n"
	     "                                                                               \n",
	     &q);
	assert_string_equal(q.messages.v[0],
			    "\"./composer.json\" does not match the expected JSON schema:\n"
			    " - repositories[0].type : Does not have a value in the enumeration "
			    "[\"composer\"]\n"
			    " - repositories[0].package : The property package is required");
	assert_true(has(&q.paths, "Factory.php"));
	fl_query_free(&q);
}

/* a verbose run names the class (and code) above the message */
static void test_box_class(void **state)
{
	(void)state;
	fl_query q;
	norm("In RootPackageLoader.php line 123:\n"
	     "                                           \n"
	     "  [UnexpectedValueException]               \n"
	     "  Unknown stability \"nightly\" in config    \n"
	     "                                           \n",
	     &q);
	assert_string_equal(q.messages.v[0], "Unknown stability \"nightly\" in config");
	assert_true(has(&q.classes, "UnexpectedValueException"));
	assert_true(has(&q.paths, "RootPackageLoader.php"));
	fl_query_free(&q);
}

/* a paste that lost the trailing blanks: the header vouches for the block */
static void test_box_trimmed(void **state)
{
	(void)state;
	fl_query q;
	norm("In CreateProjectCommand.php line 424:\n"
	     "\n"
	     "  Could not find package acme/nothere with stability stable in a versi\n"
	     "  on installable using your PHP version.\n"
	     "\n",
	     &q);
	assert_string_equal(q.messages.v[0], "Could not find package acme/nothere with stability "
					     "stable in a version installable using your PHP "
					     "version.");
	assert_true(has(&q.paths, "CreateProjectCommand.php"));
	fl_query_free(&q);
}

/* no header (symfony's own exceptions): only with the padding intact */
static void test_box_headerless(void **state)
{
	(void)state;
	fl_query q;
	norm("\n"
	     "                                   \n"
	     "  Command \"instal\" is not defined.  \n"
	     "                                   \n",
	     &q);
	assert_string_equal(q.messages.v[0], "Command \"instal\" is not defined.");
	assert_int_equal(q.paths.n, 0);
	fl_query_free(&q);
}

/* look-alikes: an indented paragraph between blank lines, a header
 * without a block, "In" starting a sentence */
static void test_box_traps(void **state)
{
	(void)state;
	fl_query q;
	norm("Options:\n"
	     "\n"
	     "  --verbose  print more\n"
	     "  --quiet    print less\n"
	     "\n",
	     &q);
	assert_true(has(&q.messages, "--verbose  print more"));
	assert_true(has(&q.messages, "--quiet    print less"));
	fl_query_free(&q);
	norm("In main.c line 12:\nsegmentation fault\n", &q);
	assert_int_equal(q.paths.n, 0);
	assert_true(has(&q.messages, "segmentation fault"));
	fl_query_free(&q);
	norm("In the config file line 3: unknown key\n", &q);
	assert_int_equal(q.paths.n, 0);
	fl_query_free(&q);
}

/* the header's file and line ranked: of two places raising the same
 * text, the file the header names; of two in that file, its line */
static void test_box_ranks(void **state)
{
	(void)state;
	char dir[64] = "/tmp/fl-norm-XXXXXX", db[128];
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/t.db", dir);
	fl_err err;
	fl_store *st;
	assert_int_equal(fl_store_open(db, false, &st, &err), 0);
	assert_int_equal(fl_store_begin(st, &err), 0);
	/* one file holds a text once: its other sites are the record's */
	static const struct {
		const char *msg, *path;
		int line;
	} at[] = {{"{dir} does not exist and could not be created.", "src/Json/JsonFile.php", 147},
		  {"{dir} does not exist and could not be created.", "src/Util/Filesystem.php", 288},
		  {"{path} does not exist and could not be created.", "src/Util/Filesystem.php", 254}};
	for (size_t i = 0; i < 3; i++) {
		fl_entry e;
		make_entry_for(&e, "acme/tool", at[i].msg, at[i].path, at[i].line);
		char *slug = fl_slug_suffixed(e.slug, e.id);
		free(e.slug);
		e.slug = slug;
		assert_int_equal(fl_store_put_entry(st, &e, NULL, &err), 0);
		fl_entry_free(&e);
	}
	fl_lookup *lk;
	assert_int_equal(fl_store_commit(st, &err), 0);
	assert_int_equal(fl_lookup_open(st, &lk, &err), 0);
	/* either line of the file, as the header says */
	for (int k = 0; k < 2; k++) {
		int want = k ? 288 : 254;
		char text[512];
		snprintf(text, sizeof text,
			 "Writing ./composer.json\n\n"
			 "In Filesystem.php line %d:\n"
			 "                                                     \n"
			 "  src/../.. does not exist and could not be created.  \n"
			 "                                                     \n",
			 want + 1);
		fl_result r;
		fl_lookup_explain(lk, text, strlen(text), NULL, 3, &r);
		assert_true(r.n >= 1);
		assert_string_equal(r.v[0].file_path, "src/Util/Filesystem.php");
		assert_int_equal(r.v[0].line, want);
		bool line_ev = false;
		for (size_t i = 0; i < r.v[0].evidence.n; i++)
			line_ev |= strstr(r.v[0].evidence.v[i], "names its line (Filesystem.php:") != NULL;
		assert_true(line_ev);
		fl_result_free(&r);
	}
	fl_lookup_close(lk);
	fl_lookup_thread_done();
	fl_store_close(st);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* a system call's error with its path ("stat /x: directory not found",
 * Go's os.PathError): the message follows it, the line as printed kept */
static void test_syscall_prefix(void **state)
{
	(void)state;
	fl_query q;
	norm("stat /tmp/wd/mod/nothere: directory not found\n", &q);
	assert_true(q.messages.n >= 1);
	assert_string_equal(q.messages.v[0], "directory not found");
	assert_true(has(&q.raw, "stat /tmp/wd/mod/nothere: directory not found"));
	fl_query_free(&q);
	/* no path in it: a message of its own */
	norm("open failed: permission denied\n", &q);
	assert_true(q.messages.n >= 1);
	assert_string_equal(q.messages.v[0], "open failed: permission denied");
	fl_query_free(&q);
	norm("read config/app.yml:\n", &q);
	assert_true(q.messages.n >= 1);
	assert_string_equal(q.messages.v[0], "read config/app.yml:");
	fl_query_free(&q);
}

/* a logger's context tag after the timestamp or level (the thread, a
 * worker, a request id) is no part of the message; a bracket holding
 * text, or one that opens a line with no log prefix, is */
static void test_context_tag(void **state)
{
	(void)state;
	static const struct {
		const char *line, *msg;
	} cases[] = {
		{"2026-11-29T10:00:00.123Z ERROR [worker-3] connection refused\n", "connection refused"},
		{"ERROR [http-nio-8080-exec-1] cannot parse header\n", "cannot parse header"},
		{"2026-11-29 10:00:00 [main] ERROR request failed\n", "request failed"},
		{"[ERROR] [req:4f2a] upstream timed out\n", "upstream timed out"},
		/* text, not a tag */
		{"ERROR [Errno 2] No such file or directory\n", "[Errno 2] No such file or directory"},
		{"[worker-3] connection refused\n", "[worker-3] connection refused"},
		{"ERROR [worker-3]\n", "[worker-3]"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		fl_query q;
		norm(cases[i].line, &q);
		assert_true(q.messages.n >= 1);
		assert_string_equal(q.messages.v[0], cases[i].msg);
		fl_query_free(&q);
	}
}

/* fl_line_quiet(line) must imply that no confident answer can come of the
 * query fl_normalize makes of the line (rank.c fl_lk_query_may_confide,
 * the rule of fl_lk_judge) */
static void check_quiet(const char *line, size_t n, size_t *quiet)
{
	if (!fl_line_quiet(line, n))
		return;
	(*quiet)++;
	fl_query q;
	fl_normalize(line, n, &q);
	if (fl_lk_query_may_confide(&q))
		fail_msg("quiet, but a confident answer may come of <%.*s>", (int)n, line);
	fl_query_free(&q);
}

/* Every line of a text, through check_quiet. */
static void check_lines(const char *t, size_t *lines, size_t *quiet)
{
	while (*t) {
		const char *e = strchr(t, '\n');
		size_t n = e ? (size_t)(e - t) : strlen(t);
		check_quiet(t, n, quiet);
		(*lines)++;
		t += n + (e ? 1 : 0);
	}
}

/* Which single lines can have no confident answer (fl_line_quiet, asked
 * of every line of a log before its scan): informational ones naming
 * nothing; never one fl_normalize reads as more, checked on the lines of
 * this table and on every line of the real outputs of
 * bench/realerrors (its noise and its cases). */
static void test_line_quiet(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		bool quiet;
	} cases[] = {
		{"2026-11-29T10:29:58.509Z INFO job finished 98956 id=c72b path=/api/v1/items/667", true},
		{"2026-11-29 10:00:00,123 DEBUG cache hit for key 5\r", true},
		{"[INFO] [main] server started on port 8080", true},
		{"Nov 29 12:00:00 host app[123]: INFO reloading configuration", true},
		{"I1129 12:00:00.123456  1234 server.cc:123] serving", false},
		{"2026-11-29T10:29:58.509Z ERROR connection refused", false},
		{"2026-11-29T10:29:58.509Z WARN slow query took 12 ms", false},
		{"connection refused", false},
		{"INFO java.lang.IllegalStateException: boom", false},
		{"INFO Caused by: java.io.IOException: closed", false},
		{"INFO thread 'main' panicked at src/main.rs:2:5:", false},
		{"INFO request failed msg=\"timeout\"", false},
		{"INFO request failed error=timeout", false},
		{"{\"level\":\"info\",\"msg\":\"started\"}", false},
		{"    at com.acme.App.main(App.java:10)", false},
		{"\tmain.go:21 +0x1d", false},
		{"File \"/app/x.py\", line 3, in <module>", false},
		{"Traceback (most recent call last):", false},
		{"$ make test", false},
		{"usage: tool [-v] FILE", false},
		{"INFO \x1b[32mready\x1b[0m", false},
		{"", false},
	};
	size_t quiet = 0, lines = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t before = quiet;
		check_quiet(cases[i].line, strlen(cases[i].line), &quiet);
		if ((quiet > before) != cases[i].quiet)
			fail_msg("<%s>: quiet %d, want %d", cases[i].line, quiet > before,
				 cases[i].quiet);
	}
	/* a NUL inside is refused (fl_normalize drops it) */
	assert_false(fl_line_quiet("INFO a\0b", 8));
	/* the real outputs of the benchmark's programs */
	const char *root = FL_SOURCE_ROOT;
	size_t before = quiet;
	const char *dirs[] = {"noise", "cases"};
	for (size_t d = 0; d < 2; d++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/bench/realerrors/%s", root, dirs[d]);
		DIR *dh = opendir(path);
		assert_non_null(dh);
		struct dirent *de;
		while ((de = readdir(dh)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			char file[8192];
			snprintf(file, sizeof file, "%s/%s", path, de->d_name);
			size_t len;
			fl_err err;
			char *text = fl_read_file(file, &len, &err);
			assert_non_null(text);
			if (d == 0) {
				check_lines(text, &lines, &quiet);
			} else { /* one case a line, its "output" */
				for (char *l = text; *l;) {
					char *e = strchr(l, '\n');
					if (e)
						*e = '\0';
					json_t *o = json_loads(l, 0, NULL);
					json_t *out = json_object_get(o, "output");
					if (json_is_string(out))
						check_lines(json_string_value(out), &lines, &quiet);
					json_decref(o);
					l = e ? e + 1 : l + strlen(l);
				}
			}
			free(text);
		}
		closedir(dh);
	}
	/* thousands of lines, some of them quiet (nginx's, redis's notices) */
	print_message("%zu lines of real output, %zu of them quiet\n", lines, quiet - before);
	assert_true(lines > 3000);
	assert_true(quiet > before);
}

/* The class before a message: named like an error anywhere; any name where
 * only a class can stand (the line a Python traceback ends with, after
 * `Exception in thread "x"`, a line a Java frame follows); a module's
 * lowercase `error` class.  Elsewhere a `Word: ` stays in the message. */
static void test_class_prefixes(void **state)
{
	(void)state;
	fl_query q;
	norm("Traceback (most recent call last):\n"
	     "  File \"/srv/app/pkg/parts.py\", line 40, in part\n"
	     "    raise MissingPart(name)\n"
	     "pkg.parts.MissingPart: No part: 'foo'\n", &q);
	assert_true(q.messages.n >= 1);
	assert_string_equal(q.messages.v[0], "No part: 'foo'");
	assert_true(has(&q.classes, "MissingPart"));
	assert_true(has(&q.modules, "pkg.parts"));
	fl_query_free(&q);

	norm("Traceback (most recent call last):\n"
	     "  File \"x.py\", line 1, in <module>\n"
	     "Timeout: read took 30 s\n", &q);
	assert_string_equal(q.messages.v[0], "read took 30 s");
	assert_true(has(&q.classes, "Timeout"));
	fl_query_free(&q);

	norm("Exception in thread \"main\" com.acme.Oops: the disk is full\n"
	     "\tat com.acme.Main.main(Main.java:5)\n", &q);
	assert_string_equal(q.messages.v[0], "the disk is full");
	assert_true(has(&q.classes, "Oops"));
	fl_query_free(&q);

	norm("com.acme.Oops: the disk is full\n"
	     "    at com.acme.Main.main(Main.java:5)\n", &q);
	assert_string_equal(q.messages.v[0], "the disk is full");
	fl_query_free(&q);

	/* a wrapper made of a cause without a message (Java's
	 * Throwable(cause): its message is the cause's class): the
	 * wrapper's class is the text looked for, the cause's evidence */
	norm("org.acme.io.SerializationException: java.io.EOFException\n"
	     "\tat org.acme.io.Codec.decode(Codec.java:218)\n", &q);
	assert_string_equal(q.messages.v[0], "org.acme.io.SerializationException");
	assert_true(has(&q.classes, "SerializationException"));
	assert_true(has(&q.classes, "EOFException"));
	fl_query_free(&q);
	norm("Exception in thread \"main\" com.acme.Oops: com.acme.InnerException: java.io.EOFException", &q);
	assert_string_equal(q.messages.v[0], "com.acme.Oops");
	assert_true(has(&q.classes, "InnerException"));
	fl_query_free(&q);
	/* a message that is one word, or a class with text after it, stays */
	norm("com.acme.Oops: EOFException\n\tat com.acme.Main.main(Main.java:5)\n", &q);
	assert_string_equal(q.messages.v[0], "EOFException");
	fl_query_free(&q);
	norm("com.acme.Oops: java.io.EOFException: stream ended\n\tat com.acme.Main.main(Main.java:5)\n", &q);
	assert_string_equal(q.messages.v[0], "stream ended");
	fl_query_free(&q);

	/* the place a message ends with (PHP's "in FILE on line N", less's
	 * with a column): cut off, kept as evidence */
	norm("PHP Warning:  Undefined variable $cart in /var/www/src/Cart.php on line 12", &q);
	assert_string_equal(q.messages.v[0], "Undefined variable $cart");
	assert_true(has(&q.sites, "/var/www/src/Cart.php:12"));
	fl_query_free(&q);
	norm("NameError: variable @nope is undefined in /srv/app/a.less on line 1, column 12:", &q);
	assert_string_equal(q.messages.v[0], "variable @nope is undefined");
	assert_true(has(&q.paths, "/srv/app/a.less"));
	fl_query_free(&q);
	/* words, not a place: kept */
	norm("error: stop in the hall on line 3 of the plan", &q);
	assert_string_equal(q.messages.v[0], "stop in the hall on line 3 of the plan");
	fl_query_free(&q);
	norm("error: in main.c on line 5", &q);
	assert_string_equal(q.messages.v[0], "in main.c on line 5");
	fl_query_free(&q);

	norm("re.error: missing ), unterminated subpattern at position 0", &q);
	assert_string_equal(q.messages.v[0], "missing ), unterminated subpattern at position 0");
	assert_true(has(&q.classes, "error"));
	fl_query_free(&q);

	/* no traceback, no frame: a Word: or a Go function stays */
	norm("Timeout: read took 30 s", &q);
	assert_false(has(&q.classes, "Timeout"));
	assert_string_equal(q.messages.v[0], "Timeout: read took 30 s");
	fl_query_free(&q);
	norm("strconv.Atoi: parsing \"x\": invalid syntax", &q);
	assert_int_equal((int)q.classes.n, 0);
	fl_query_free(&q);

	/* JavaScript's Error over its frames is a class; "Error: " alone
	 * is a level */
	norm("Error: no shelf B-9\n    at shelfOf (/srv/app/lib/shelves.js:8:11)\n", &q);
	assert_string_equal(q.messages.v[0], "no shelf B-9");
	assert_true(has(&q.classes, "Error"));
	fl_query_free(&q);
	norm("Error: in prepare, no such column: x\n", &q);
	assert_string_equal(q.messages.v[0], "in prepare, no such column: x");
	assert_int_equal((int)q.classes.n, 0);
	fl_query_free(&q);
}

/* A GNU-style location (compilers, meson, linters, go generate) is the
 * file the program read: stripped, with the level after it; a host and
 * port or a URL is no file's location. */
static void test_location_prefix(void **state)
{
	(void)state;
	fl_query q;
	norm("meson.build:2:0: ERROR: Unknown function \"foo\".", &q);
	assert_string_equal(q.messages.v[0], "Unknown function \"foo\".");
	assert_int_equal((int)q.paths.n, 0);
	fl_query_free(&q);
	norm("src/a.c:12:5: error: expected ';' before '}' token", &q);
	assert_string_equal(q.messages.v[0], "expected ';' before '}' token");
	fl_query_free(&q);
	norm("config.yml:3: warning: key repeated", &q);
	assert_string_equal(q.messages.v[0], "key repeated");
	fl_query_free(&q);
	norm("gen/gen.go:3: running \"false\": exit status 1", &q);
	assert_string_equal(q.messages.v[0], "running \"false\": exit status 1");
	fl_query_free(&q);
	/* no file: a host and port, a time, a word */
	norm("127.0.0.1:6379: connection refused", &q);
	assert_string_equal(q.messages.v[0], "127.0.0.1:6379: connection refused");
	fl_query_free(&q);
	norm("localhost:80: connection refused", &q);
	assert_string_equal(q.messages.v[0], "localhost:80: connection refused");
	fl_query_free(&q);
	norm("http://example.com/x:80: bad gateway", &q);
	assert_string_equal(q.messages.v[0], "http://example.com/x:80: bad gateway");
	fl_query_free(&q);
	/* a linter's compact form (stylelint's and ESLint's -f compact); the
	 * rule's id after the message is a name of the text, the path's
	 * parts and the flag's value are not */
	norm("/w/a.css: line 1, col 17, error - Unexpected duplicate \"color\" "
	     "(declaration-block-no-duplicate-properties)\n"
	     "$ stylelint --config=my-config.json lib/rule-tester/x.css\n", &q);
	assert_string_equal(q.messages.v[0],
			    "Unexpected duplicate \"color\" (declaration-block-no-duplicate-properties)");
	assert_int_equal((int)q.names.n, 1);
	assert_string_equal(q.names.v[0], "declaration-block-no-duplicate-properties");
	fl_query_free(&q);
	/* a rule's name in brackets, in capitals within (Checkstyle's
	 * "[WhitespaceAround]"); a bracketed word of one capital is none */
	norm("[ERROR] /w/A.java:3:9: '=' is not followed by whitespace. [WhitespaceAround]\n"
	     "[Main] [INFO] [MainThread] done\n", &q);
	assert_int_equal((int)q.names.n, 2);
	assert_string_equal(q.names.v[0], "WhitespaceAround");
	assert_string_equal(q.names.v[1], "MainThread");
	fl_query_free(&q);
	norm("notes: line 1, col 17, error - x", &q); /* no file */
	assert_string_equal(q.messages.v[0], "notes: line 1, col 17, error - x");
	fl_query_free(&q);
	/* without a level (jshint's default reporter), and of standard input */
	norm("undef.js: line 2, col 1, 'foo' is not defined.\n", &q);
	assert_string_equal(q.messages.v[0], "'foo' is not defined.");
	fl_query_free(&q);
	norm("stdin: line 1, col 10, Missing semicolon.\n", &q);
	assert_string_equal(q.messages.v[0], "Missing semicolon.");
	fl_query_free(&q);
}

/* The frames of a stack name lines: each is a site (file:line) of the
 * query, as the runtimes print them; a message that names a position is
 * none. */
/* The program a message line names first ("ls: ..."), as C tools print
 * argv[0]: not a word that says what the line is, an indented line's, a
 * word too long or with capitals, nor one after which nothing follows. */
static void test_argv0(void **state)
{
	(void)state;
	fl_query q;
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"ls: cannot access 'x': No such file or directory\n", "ls"},
		{"$ du /x\ndu: cannot access '/x': No such file or directory\n", "du"},
		{"sqlite3: Error: no such table: t\n", "sqlite3"},
		{"git-upload-pack: not found\n", "git-upload-pack"},
		{"error: cannot access 'x'\n", NULL},
		{"note: see the manual\n", NULL},
		{"  ls: indented\n", NULL},
		{"Ls: capital\n", NULL},
		{"ls:no space\n", NULL},
		{"x: y\n", NULL},
		{"Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nValueError: bad\n", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		norm(cases[i].text, &q);
		if (cases[i].want)
			{
			if (!q.argv0 || strcmp(q.argv0, cases[i].want) != 0)
				fail_msg("<%s>: argv0 %s, want %s", cases[i].text,
					 q.argv0 ? q.argv0 : "none", cases[i].want);
		}
		else if (q.argv0)
			fail_msg("<%s>: argv0 %s, want none", cases[i].text, q.argv0);
		fl_query_free(&q);
	}
}

static void test_frame_sites(void **state)
{
	(void)state;
	fl_query q;
	/* the functions a Node stack's frames name, innermost first: a
	 * bundle's frames name its own file, not the sources */
	norm("[!] RollupError: Invalid value for option \"output.file\"\n"
	     "    at error (/usr/share/nodejs/rollup/dist/shared/rollup.js:293:30)\n"
	     "    at getPreserveModules (/usr/share/nodejs/rollup/dist/shared/rollup.js:25323:20)\n"
	     "    at async Object.loadConfigFile (/usr/share/nodejs/rollup/dist/shared/loadConfigFile.js:396:29)\n"
	     "    at new Graph (/srv/a.js:1:2)\n"
	     "    at Object.<anonymous> (/srv/app/index.js:3:1)\n"
	     "    at /usr/share/nodejs/rollup/dist/shared/rollup.js:961:9\n"
	     "    at async Promise.all (index 0)\n", &q);
	assert_int_equal(q.funcs.n, 4);
	assert_string_equal(q.funcs.v[0], "error");
	assert_string_equal(q.funcs.v[1], "getPreserveModules");
	assert_string_equal(q.funcs.v[2], "loadConfigFile");
	assert_string_equal(q.funcs.v[3], "Graph");
	fl_query_free(&q);
	/* a JVM frame names its file and line, not a function of this kind */
	norm("java.lang.IllegalStateException: bad\n"
	     "\tat org.acme.Turnip.stack(Turnip.java:12)\n", &q);
	assert_int_equal(q.funcs.n, 0);
	fl_query_free(&q);
	norm("Traceback (most recent call last):\n"
	     "  File \"/usr/lib/python3/dist-packages/toml/decoder.py\", line 511, in loads\n"
	     "    raise TomlDecodeError(str(err), original, pos)\n"
	     "toml.decoder.TomlDecodeError: Found invalid character in key name: 'x'\n", &q);
	assert_true(has(&q.sites, "/usr/lib/python3/dist-packages/toml/decoder.py:511"));
	assert_true(has(&q.paths, "/usr/lib/python3/dist-packages/toml/decoder.py"));
	fl_query_free(&q);
	norm("Exception in thread \"main\" java.lang.IllegalArgumentException: bad\n"
	     "\tat com.google.common.base.Preconditions.checkArgument(Preconditions.java:145)\n"
	     "\tat Driver.main(Driver.java:12)\n", &q);
	/* a JVM frame's file in its class's package: one of the files
	 * sharing its name; a class in no package, its file alone */
	assert_true(has(&q.sites, "com/google/common/base/Preconditions.java:145"));
	assert_true(has(&q.paths, "com/google/common/base/Preconditions.java"));
	assert_true(has(&q.sites, "Driver.java:12"));
	fl_query_free(&q);
	norm("Exception in thread \"main\" java.lang.NumberFormatException: For input string: \"x\"\n"
	     "\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)\n"
	     "\tat app//org.acme.Outer$Inner.<init>(Outer.kt:9)\n"
	     "\tat java.base/java.lang.Thread.run(Unknown Source)\n", &q);
	assert_true(has(&q.sites, "java/lang/NumberFormatException.java:67"));
	assert_true(has(&q.sites, "org/acme/Outer.kt:9"));
	assert_int_equal(q.sites.n, 2);
	/* no program's name on a JVM stack */
	assert_null(q.argv0);
	/* the frames of the error printed: one stack's all; a Python
	 * chain's last traceback's; a JVM stack's before "Caused by:" */
	assert_int_equal(q.sites_block, 2);
	fl_query_free(&q);
	/* Ruby: an uncaught exception's header names its line, the
	 * innermost frame; the report of an `exit` (SystemExit) before it,
	 * through the program's handlers, names none (its files still
	 * evidence, its header no message) */
	norm("/g/lib/app/command.rb:33:in `exit': exit (SystemExit)\n"
	     "\tfrom /g/lib/app/command.rb:33:in `rescue in process_site'\n"
	     "\tfrom /g/lib/app/renderer.rb:105:in `block in convert'\n"
	     "/g/lib/app/markdown.rb:24:in `setup': Invalid processor given: Textile (App::FatalError)\n"
	     "\tfrom /g/lib/app/markdown.rb:84:in `convert'\n", &q);
	assert_int_equal(q.sites.n, 2);
	assert_string_equal(q.sites.v[0], "/g/lib/app/markdown.rb:24");
	assert_string_equal(q.sites.v[1], "/g/lib/app/markdown.rb:84");
	assert_true(has(&q.paths, "/g/lib/app/renderer.rb"));
	for (size_t i = 0; i < q.messages.n; i++)
		assert_null(strstr(q.messages.v[i], "SystemExit"));
	fl_query_free(&q);
	norm("Traceback (most recent call last):\n  File \"/a/conn.py\", line 7, in open\n"
	     "OSError: refused\n\nDuring handling of the above exception, another exception occurred:\n\n"
	     "Traceback (most recent call last):\n  File \"/a/main.py\", line 3, in <module>\n"
	     "  File \"/a/adapter.py\", line 13, in send\nadapter.LinkError: refused\n", &q);
	assert_true(q.frames_last);
	assert_int_equal(q.sites.n, 3);
	assert_int_equal(q.sites_block, 2);
	assert_string_equal(q.sites.v[q.sites.n - 1], "/a/adapter.py:13");
	fl_query_free(&q);
	/* a chain's messages from the last traceback's to the first's: the
	 * error printed first, Python's own IndexError last */
	norm("Traceback (most recent call last):\n  File \"/a/sm.py\", line 299, in next_line\n"
	     "IndexError: list index out of range\n\nDuring handling of the above exception, another exception occurred:\n\n"
	     "Traceback (most recent call last):\n  File \"/a/sm.py\", line 302, in next_line\n    raise EOFError\nEOFError\n\n"
	     "During handling of the above exception, another exception occurred:\n\n"
	     "Traceback (most recent call last):\n  File \"/a/utils.py\", line 196, in system_message\n"
	     "docutils.utils.SystemMessage: <string>:1: (WARNING/2) Inline text without end-string.\n", &q);
	assert_true(q.messages.n >= 3);
	assert_string_equal(q.messages.v[0], "<string>:1: (WARNING/2) Inline text without end-string.");
	assert_string_equal(q.messages.v[1], "EOFError");
	assert_string_equal(q.messages.v[2], "list index out of range");
	fl_query_free(&q);
	/* unless the later quotes the earlier's text: the text's own raise
	 * first, as printed */
	norm("Traceback (most recent call last):\n  File \"/a/decoder.py\", line 677, in load_line\n"
	     "ValueError: Found invalid character in key name: 'x'\n\n"
	     "During handling of the above exception, another exception occurred:\n\n"
	     "Traceback (most recent call last):\n  File \"/a/decoder.py\", line 514, in loads\n"
	     "toml.decoder.TomlDecodeError: Found invalid character in key name: 'x' (line 1 column 2 char 1)\n", &q);
	assert_string_equal(q.messages.v[0], "Found invalid character in key name: 'x'");
	fl_query_free(&q);
	norm("Exception in thread \"main\" java.lang.IllegalStateException: could not load\n"
	     "\tat com.acme.Loader.load(Loader.java:57)\n\tat com.acme.Main.main(Main.java:12)\n"
	     "Caused by: java.io.IOException: refused\n\tat com.acme.Net.open(Net.java:9)\n\t... 2 more\n", &q);
	assert_int_equal(q.sites.n, 3);
	assert_int_equal(q.sites_block, 2);
	fl_query_free(&q);
	norm("TypeError: Key \"rules\": bad\n"
	     "    at throwRuleNotFoundError (/app/lib/config/config.js:100:16)\n"
	     "    at /app/lib/eslint/eslint.js:627:27\n", &q);
	assert_true(has(&q.sites, "/app/lib/config/config.js:100"));
	assert_true(has(&q.sites, "/app/lib/eslint/eslint.js:627"));
	fl_query_free(&q);
	norm("panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/app/main.go:21 +0x1d\n", &q);
	assert_true(has(&q.sites, "/src/app/main.go:21"));
	fl_query_free(&q);
	norm("/app/lib/x.rb:3:in `f': boom (RuntimeError)\n\tfrom /app/lib/y.rb:12:in `g'\n", &q);
	assert_true(has(&q.sites, "/app/lib/y.rb:12"));
	assert_int_equal(q.messages.n > 0, 1);
	fl_query_free(&q);
	norm("thread 'main' panicked at src/main.rs:10:5:\nindex out of bounds\n", &q);
	assert_true(has(&q.sites, "src/main.rs:10"));
	fl_query_free(&q);
	/* a compiler's diagnostic names the file it read, not a frame */
	norm("main.go:3:8: use of internal package not allowed\n", &q);
	assert_int_equal(q.sites.n, 0);
	fl_query_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_box_wrapped),   cmocka_unit_test(test_box_lines),
		cmocka_unit_test(test_box_class),     cmocka_unit_test(test_box_trimmed),
		cmocka_unit_test(test_box_headerless), cmocka_unit_test(test_box_traps),
		cmocka_unit_test(test_box_ranks),
		cmocka_unit_test(test_syscall_prefix),
		cmocka_unit_test(test_context_tag),
		cmocka_unit_test(test_line_quiet),
		cmocka_unit_test(test_class_prefixes),
		cmocka_unit_test(test_location_prefix),
		cmocka_unit_test(test_argv0),
		cmocka_unit_test(test_frame_sites),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
