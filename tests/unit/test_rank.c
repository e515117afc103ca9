/*
 * test_rank.c — the order of answers for whole pasted outputs (issue
 * #19): the first error line before a footer of hints with longer text,
 * informational lines after error lines, the words of a pasted command
 * and the program a usage text names breaking a tie (and saying so),
 * a chain's headline before its cause, words of a later line for the
 * fuzzy tier,
 * frame paths over a bare literal, patterns that carry little
 * information kept below confident answers, one-word lines and
 * informational log lines without a confident answer, and a message
 * with blank lines matched whole or by its first line alone; a banner's
 * placeholder holding another record's message on the same line, an
 * error's record before a warning's, a raised error before a line logged
 * on its way, a raise site before the text's
 * definition (a class's constructor, a factory's body), placeholders that
 * printed nothing, the commands of a chained command line, and the lines
 * of a help text's option table.
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
#include "test_util.h"
#include "util.h"

static char dir[64];
static char dbpath[128];
static fl_store *st;
static fl_lookup *lk;

/* A record of msg at path:line; severity and idiom as given (NULL: the
 * test entry's, and no idiom). */
static void put_as(const char *repo, const char *msg, const char *path, int line,
		   const char *severity, const char *idiom)
{
	fl_entry e;
	make_entry_for(&e, repo, msg, path, line);
	char *slug = fl_slug_suffixed(e.slug, e.id);
	free(e.slug);
	e.slug = slug;
	if (severity) {
		free(e.severity);
		e.severity = strdup(severity);
	}
	if (idiom && (strncmp(idiom, "logger.", 7) == 0 || strncmp(idiom, "fprintf", 7) == 0)) {
		/* logged or printed, not raised */
		free(e.error_type);
		e.error_type = strdup("console");
	}
	fl_facts f = {.idiom = idiom};
	fl_err err;
	if (fl_store_put_entry(st, &e, idiom ? &f : NULL, &err) < 0)
		fail_msg("%s", err.msg);
	fl_entry_free(&e);
}

static void put(const char *repo, const char *msg, const char *path, int line)
{
	put_as(repo, msg, path, line, NULL, NULL);
}

/* Words that many records share, so that a pattern made of them alone
 * carries little information (as in any real store). */
static const char *const common[] = {"failed", "not", "found", "could", "read",
	"expected", "file", "the", "invalid", "value"};

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/fl-rank-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(dbpath, sizeof dbpath, "%s/t.db", dir);
	fl_err err;
	if (fl_store_open(dbpath, false, &st, &err) < 0 || fl_store_begin(st, &err) < 0)
		return -1;
	/* a store of 300 records: each common word in about one in ten */
	for (int i = 0; i < 300; i++) {
		char msg[128], path[64];
		snprintf(msg, sizeof msg, "%s unit%d %s gadget%d", common[i % 10], i,
			 common[(i + 3) % 10], i * 7);
		snprintf(path, sizeof path, "src/filler/f%d.c", i);
		put("acme/tool", msg, path, 10 + i);
	}
	/* a reporter's footer, printed after every error, longer than it */
	put("acme/tool", "To see the full stack trace of the errors, re-run the tool with the -e switch.",
	    "cli/Main.java", 990);
	put("acme/tool", "For more information about the errors and possible solutions, please read the following articles:",
	    "cli/Main.java", 1002);
	put("acme/tool", "Could not find the selected project in the reactor: {selector}",
	    "core/GraphBuilder.java", 172);
	put("acme/tool", "Scanning for projects in {dir}", "core/Scanner.java", 40);
	/* the same text at three places */
	put("acme/tool", "Need an action ({actions}) to perform.", "commands/cache.py", 67);
	put("acme/tool", "Need an action ({actions}) to perform.", "commands/configuration.py", 108);
	put("acme/tool", "Need an action ({actions}) to perform.", "commands/index.py", 61);
	/* a shell runner's report, and a test task's whose literal words
	 * a shown command may hold by chance */
	put("acme/tool", "Command failed with status ({status}): [{show_command}]",
	    "lib/rake/file_utils.rb", 67);
	put("acme/tool", "Command failed with status ({status}): [ruby {opts} {code} {files} {options}]",
	    "lib/rake/testtask.rb", 130);
	/* one text in the folders of several lint rules */
	put("acme/tool", "Expected \"{selector}\" to match pattern \"{pattern}\"",
	    "lib/rules/custom-media-pattern/index.js", 50);
	put("acme/tool", "Expected \"{selector}\" to match pattern \"{pattern}\"",
	    "lib/rules/selector-class-pattern/index.js", 100);
	/* meson's subcommands: m + the command's name */
	put("acme/tool", "Directory {} does not seem to be a Meson build directory.", "tool/mdevenv.py", 147);
	put("acme/tool", "Directory {} does not seem to be a Meson build directory.", "tool/mdist.py", 303);
	put("acme/tool", "Directory {} does not seem to be a Meson build directory.", "tool/mtest.py", 1623);
	/* a placeholder that names what it holds, and one that names nothing */
	put("acme/tool", "{} was not found here", "modules/python.py", 818);
	put("acme/tool", "{gemfile} was not found here", "lib/definition.rb", 36);
	/* a name that says some file, and one that says nothing */
	put("acme/tool", "File {f} does not exist.", "mesonbuild/build.py", 1446);
	put("acme/tool", "File {fname} does not exist.", "mesonbuild/utils/universal.py", 388);
	put("acme/tool", "Incorrect parameters", "lib/dict/cover.c", 1151);
	put("acme/tool", "Incorrect parameters", "programs/zstdcli.c", 320);
	/* little information */
	put("acme/tool", "{what} failed", "src/generic.c", 5);
	put("acme/tool", "expected {want}, found {got}", "src/types.rs", 6);
	put("acme/tool", "Options:", "src/usage.c", 7);
	/* found by its words on a later line of an output */
	put("acme/tool", "the widget registry bucket overflowed during rehashing", "src/registry.c", 40);
	/* one text in two files, one of which also says little of another
	 * line ("build failed") */
	put("acme/tool", "cannot use the widget as an object key", "src/parse.y", 942);
	put("acme/tool", "cannot use the widget as an object key", "src/zexec.c", 494);
	put("acme/tool", "{what} failed", "src/zexec.c", 1174);
	/* a context and its cause */
	put("acme/tool", "failed to parse manifest at {path}", "src/manifest.rs", 30);
	put("acme/tool", "unknown field {field} in the package table", "src/toml/de.rs", 31);
	/* a message with a blank line in it */
	put("acme/tool", "cannot load the plugin registry\n\nhint: run `tool plugins --reset`",
	    "src/plugins.c", 8);
	/* a program's banner around any message, and a message it wraps */
	put_as("acme/tool", "tool: error (at {where}): {msg}", "src/main.c", 218, NULL,
	       "fprintf(stderr)");
	put("acme/tool", "{value} ({kind}) has no length", "src/builtin.c", 445);
	/* a warning printed before the error that stops the program */
	put_as("acme/tool", "Invalid gemspec in [{file}]: {e}", "lib/specification.rb", 1152,
	       "warning", "warn");
	put_as("acme/tool", "Error loading gemspec. Aborting.", "lib/commands/build.rb", 106,
	       "error", "alert_error");
	/* a class that holds its message, and the line that raises it */
	put_as("acme/tool", "This environment is externally managed", "src/exceptions.py", 694,
	       "error", "class constructor __init__");
	put_as("acme/tool", "This environment is externally managed", "src/utils/misc.py", 597,
	       "error", "raise");
	/* a factory's body, and a call of it */
	put_as("acme/tool", "done() called multiple times in {title} {file}", "lib/errors.js", 316,
	       "error", "new");
	put_as("acme/tool", "done() called multiple times in {title} {file}", "lib/runnable.js", 290,
	       "error", "error factory call");
	/* a message with placeholders that may print nothing */
	put("acme/tool", "Could not find gem '{label}'{extra} in {source}{cache}.", "lib/resolver.rb", 271);
	/* the same text in three subcommands' files */
	put("acme/tool", "no workspace file found (run 'tool work init' first)", "work/edit.go", 137);
	put("acme/tool", "no workspace file found (run 'tool work init' first)", "work/sync.go", 51);
	put("acme/tool", "no workspace file found (run 'tool work init' first)", "work/use.go", 57);
	/* a line logged on the way, then the error raised */
	put_as("acme/tool", "Could not find a version that satisfies the requirement {req} (from versions: {versions})",
	       "src/factory.py", 614, "critical", "logger.critical");
	put_as("acme/tool", "No matching distribution found for {req}", "src/resolver.py", 101,
	       "error", "raise");
	/* a record that holds the prefix a lookup strips from a line */
	put("acme/tool", "tool: error: {msg} at {where}, line {n}:", "src/parser.y", 143);
	put("acme/tool", "use of internal package {path} not allowed", "load/pkg.go", 1514);
	/* an option's help text that happens to read like a record */
	put("acme/tool", "{name} {kind} already exists", "src/build.c", 1290);
	/* a line printing an error value another line made */
	put_as("acme/tool", "{prog}: Bad JSON in --{opt} {name} {file}: {msg}", "src/main.c", 469,
	       NULL, "fprintf(stderr)");
	put("acme/tool", "Could not open {file}: {reason}", "src/jv_file.c", 16);
	/* an error, then the pointer to the help */
	put_as("acme/tool", "option {opt}: is unknown", "src/tool_getparam.c", 2567, NULL,
	       "fprintf(stderr)");
	put_as("acme/tool", "tool: try 'tool --help' or 'tool --manual' for more information",
	       "src/tool_operate.c", 2693, NULL, "fprintf(stderr)");
	/* one text in three protocols' files */
	put("acme/tool", "Maximum file size exceeded", "lib/ftp.c", 2182);
	put("acme/tool", "Maximum file size exceeded", "lib/http.c", 3323);
	put("acme/tool", "Maximum file size exceeded", "lib/mqtt.c", 641);
	/* an Error() method's text, and the usage the program printed after
	 * the runtime's flag parser said the same */
	put_as("acme/tool", "flag provided but not defined: -{name}", "cmdflag/flag.go", 34, "error",
	       "Error() string");
	put_as("acme/tool", "Run 'tool help {cmd}' for details.", "base/base.go", 96, "error",
	       "fprintf(stderr)");
	/* an Error() method formatting the error it holds */
	put_as("acme/tool", "cannot find module providing package {path}: {err}", "modload/import.go", 59,
	       "error", "Error() string");
	put("acme/tool", "module lookup disabled by GOPROXY=off", "modfetch/repo.go", 267);
	/* a program that prints the message of an exception another file
	 * raises, after a line of its own */
	put_as("acme/tool", "Schema validation error, aborting", "src/Init.php", 162, "error",
	       "writeError");
	put_as("acme/tool", "{source} breaks the manifest schema:\n - {errors}", "src/Init.php", 164,
	       "error", "logger.error");
	put("acme/tool", "{source} breaks the manifest schema:\n - {errors}", "src/Factory.php", 319);
	/* two raises of one text around a tokenizer's message: one's
	 * placeholder named for the error it holds, the other's for a line */
	put("acme/fmt", "EOF in multi-line statement", "pgen2/tokenize.py", 549);
	put("acme/fmt", "Cannot parse: {lineno}:{column}: {faulty_line}", "fmt/parsing.py", 104);
	put("acme/fmt", "Cannot parse: {lineno}:{column}: {te.args[0]}", "fmt/parsing.py", 111);
	/* a text whose placeholder ends its line, advice after it, another
	 * tree's short wrapper of the same line, and the quoted cause's
	 * record of a third tree */
	put("acme/fmt", "cannot use --safe with this shelf; failed to parse source shelf AST: {exc}\n"
			"This could be caused by running the formatter with an older runtime.",
	    "fmt/__init__.py", 1348);
	put("acme/agebox", "failed to parse %q: %v", "cmd/agebox/parse.go", 287);
	put("acme/finder2", "cannot unstack %s", "find/pred.c", 260);
	/* a text printed in double quotes, whole */
	put("acme/crates", "\"Crate {name} is not stacked on this trellis.\"", "src/Opt.java", 99);
	/* one text raised in the files of two programs of one tree */
	put("acme/utils", "cannot list entry %s", "src/lsx.c", 3457);
	put("acme/utils", "cannot list entry %s", "src/dux.c", 593);
	/* a program named as its repository (eslint's lib/eslint/eslint.js) */
	put("acme/shelver", "cannot open the shelf index", "lib/config/loader.c", 80);
	put("acme/shelver", "cannot open the shelf index", "lib/shelver/shelver.c", 1340);
	/* a Rust error's Display arm, the line that builds its value in its
	 * folder, another crate's arm of the same text */
	put_as("acme/finder", "error parsing shelf glob '{}': {}", "crates/shelves/src/lib.rs", 348,
	       "error", "impl Display");
	put_as("acme/finder", "error parsing shelf glob '{}': {}", "crates/shelves/src/walk.rs", 504,
	       "error", "Err");
	put_as("acme/finder", "error parsing shelf glob '{}': {}", "crates/globs/src/lib.rs", 225,
	       "error", "impl Display");
	/* a Go Error() method of few words, and another program's raise of
	 * the same line that says more */
	put_as("acme/backup", "%v does not exist", "internal/backend/rest.go", 180, "error",
	       "Error() string");
	put_as("acme/sniffer", "Referenced sniff \"{ref}\" does not exist", "src/Ruleset.php", 830,
	       "error", "throw");
	/* a Python class's message and the raise of it */
	put_as("acme/pyshelf", "the shelf ledger is sealed", "shelf/errors.py", 12, "error", "class message");
	put_as("acme/pyshelf", "the shelf ledger is sealed", "shelf/ledger.py", 88, "error", "raise");
	/* one text in two programs' trees, and a text that one program
	 * prints with quotes of its own where another tree's says more */
	put("acme/quill", "the statement is incomplete", "src/parse.y", 44);
	put("acme/fmt", "the statement is incomplete", "pgen2/driver.py", 188);
	put("acme/utils", "cannot read %s for input", "src/tailx.c", 1997);
	put("acme/quill", "cannot read '%s' for input", "ext/misc/csv.c", 137);
	/* one lint text logged by two rules' classes */
	put("acme/lint", "'{0}' is not trailed by a gap.", "checks/spacing/ParenGapCheck.java", 98);
	put("acme/lint", "'{0}' is not trailed by a gap.", "checks/spacing/GapAroundCheck.java", 706);
	/* a record that an aside in parentheses happens to hold */
	put("acme/tool", "Unable to locate {what}", "distlib/resources.py", 99);
	/* a plugin loader's message around the runtime's cause, and
	 * another tree's record of the cause's first words */
	put("acme/runner", "Could not load %s \"%s\":\n\n %O", "lib/cli/run-helpers.js", 277);
	put("acme/typer", "Cannot find {name}", "typer/lookup.py", 59);
	/* a tool's "--%s=%s is invalid", and the summary it prints after
	 * every error */
	put("acme/syncer", "--%s=%s is invalid", "options.c", 1254);
	put("acme/syncer", "syncer error: %s (code %d) at %s(%d) [%s=%s]", "log.c", 959);
	if (fl_store_commit(st, &err) < 0 || fl_lookup_open(st, &lk, &err) < 0)
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

static fl_result ask(const char *text)
{
	fl_result r;
	fl_lookup_explain(lk, text, strlen(text), NULL, 10, &r);
	return r;
}

static bool has_evidence(const fl_match *m, const char *part)
{
	for (size_t i = 0; i < m->evidence.n; i++)
		if (strstr(m->evidence.v[i], part))
			return true;
	return false;
}

static void test_first_error_line_before_footer(void **state)
{
	(void)state;
	fl_result r = ask("[INFO] Scanning for projects in /tmp/x\n"
			  "[ERROR] Could not find the selected project in the reactor: nothere -> [Help 1]\n"
			  "[ERROR] \n"
			  "[ERROR] To see the full stack trace of the errors, re-run the tool with the -e switch.\n"
			  "[ERROR] \n"
			  "[ERROR] For more information about the errors and possible solutions, please read the following articles:\n");
	assert_true(r.n >= 3);
	assert_string_equal(r.v[0].file_path, "core/GraphBuilder.java");
	assert_int_equal(r.v[0].line, 172);
	assert_true(r.v[0].score >= 0.9);
	/* the informational line comes after every error line */
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(r.v[i].file_path, "core/Scanner.java") == 0)
			assert_true(i >= 3);
	fl_result_free(&r);
}

static void test_command_breaks_tie(void **state)
{
	(void)state;
	const char *out = "ERROR: Need an action (debug, edit, get, list, set, unset) to perform.\n";
	fl_result r = ask(out);
	assert_int_equal(r.n, 3);
	/* no evidence: a tie, said so */
	assert_int_equal(r.v[0].same_text, 3);
	assert_int_equal(r.v[0].evidence.n, 0);
	fl_result_free(&r);
	char with[256];
	snprintf(with, sizeof with, "$ pip3 config nosuch\n%s", out);
	r = ask(with);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.v[0].file_path, "commands/configuration.py");
	assert_int_equal(r.v[0].same_text, 3);
	assert_true(has_evidence(&r.v[0], "`config`"));
	/* the command line is not looked up as a message */
	assert_null(strstr(r.query, "pip3"));
	fl_result_free(&r);
	snprintf(with, sizeof with, "$ pip3 index versions\n%s", out);
	r = ask(with);
	assert_string_equal(r.v[0].file_path, "commands/index.py");
	fl_result_free(&r);
}

/* A match whose placeholders cut a quoted value in two ranks after one
 * that holds it whole, though that one's literal text is shorter. */
static void test_split_quote_ranks_after(void **state)
{
	(void)state;
	fl_result r = ask("rake aborted!\nCommand failed with status (3): "
			  "[ruby -e \"exit 3\" -- some rather long argum...]\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "lib/rake/file_utils.rb");
	assert_string_equal(r.v[1].file_path, "lib/rake/testtask.rb");
	fl_result_free(&r);
	/* no quote cut: the longer literal text first, as before */
	r = ask("Command failed with status (3): [ruby -w lib/a.rb test/b.rb --verbose]\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "lib/rake/testtask.rb");
	fl_result_free(&r);
}

/* A name the text holds (a lint rule's id after its message) that is a
 * folder of one record's path breaks the tie of one text in several. */
static void test_text_name_breaks_tie(void **state)
{
	(void)state;
	fl_result r = ask("a.css:1:2: Expected \".Foo\" to match pattern \"^[a-z]+$\" "
			  "(selector-class-pattern) [error]\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "lib/rules/selector-class-pattern/index.js");
	assert_true(has_evidence(&r.v[0], "`selector-class-pattern`"));
	fl_result_free(&r);
	/* a path's part or a flag's value is no such name */
	r = ask("a.css:1:2: Expected \".Foo\" to match pattern \"x\" at lib/selector-class-pattern/y\n");
	assert_true(r.n >= 2);
	assert_int_equal(r.v[0].evidence.n, 0);
	fl_result_free(&r);
}

static void test_subcommand_file_and_named_value(void **state)
{
	(void)state;
	fl_result r = ask("$ meson dist -C nob\nERROR: Directory 'nob' does not seem to be a Meson build directory.\n");
	assert_true(r.n >= 3);
	assert_string_equal(r.v[0].file_path, "tool/mdist.py");
	assert_true(has_evidence(&r.v[0], "`dist`"));
	fl_result_free(&r);
	r = ask("/home/u/app/Gemfile.nothere was not found here\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "lib/definition.rb");
	fl_result_free(&r);
	/* a value that names neither: no evidence, a tie (a path, but
	 * {gemfile} is a file in particular) */
	r = ask("/home/u/app/python3.99 was not found here\n");
	assert_true(r.n >= 2);
	assert_true(r.v[0].score == r.v[1].score);
	fl_result_free(&r);
	/* a file's name held by a placeholder that says some file, over
	 * one that says nothing; a value that is no file, a tie */
	r = ask("meson.build:2:0: ERROR: File nofile.c does not exist.\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "mesonbuild/utils/universal.py");
	fl_result_free(&r);
	r = ask("meson.build:2:0: ERROR: File nofile does not exist.\n");
	assert_true(r.n >= 2);
	assert_true(r.v[0].score == r.v[1].score);
	fl_result_free(&r);
}

static void test_chain_headline_first(void **state)
{
	(void)state;
	/* the error line printed first, then the cause it explains */
	fl_result r = ask("error: failed to parse manifest at `/x/Cargo.toml`\n\n"
			  "Caused by:\n  unknown field `foo` in the package table\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/manifest.rs");
	assert_string_equal(r.v[1].file_path, "src/toml/de.rs");
	fl_result_free(&r);
}

static void test_fuzzy_later_line(void **state)
{
	(void)state;
	fl_result r = ask("Oops! Something went wrong! :(\n\n"
			  "registry bucket overflowed while rehashing widget\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].match_type, "fuzzy");
	assert_string_equal(r.v[0].file_path, "src/registry.c");
	fl_result_free(&r);
}

static void test_usage_names_program(void **state)
{
	(void)state;
	fl_result r = ask("Incorrect parameters\n"
			  "Compress or decompress the INPUT file(s).\n\n"
			  "Usage: zstd [OPTIONS...] [INPUT... | -] [-o OUTPUT]\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "programs/zstdcli.c");
	assert_true(has_evidence(&r.v[0], "`zstd`"));
	fl_result_free(&r);
	/* and the command of it that was run, up to the options: one text
	 * of three commands' files */
	static const char *const cmds[][2] = {
		{"index versions", "commands/index.py"},
		{"configuration list", "commands/configuration.py"},
		{"cache dir", "commands/cache.py"},
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char t[256];
		snprintf(t, sizeof t, "ERROR: Need an action (list, purge) to perform.\nUsage:   pip %s [options]\n",
			 cmds[i][0]);
		r = ask(t);
		assert_true(r.n >= 3);
		assert_string_equal(r.v[0].file_path, cmds[i][1]);
		fl_result_free(&r);
	}
}

static void test_little_information(void **state)
{
	(void)state;
	/* a log line that merely contains "failed" */
	fl_result r = ask("ERROR user login failed for bob");
	for (size_t i = 0; i < r.n; i++)
		assert_true(r.v[i].score < 0.9);
	fl_result_free(&r);
	/* a compiler's message is not the library's "expected {}, found {}" */
	r = ask("expected i32, found &str");
	for (size_t i = 0; i < r.n; i++)
		assert_true(r.v[i].score < 0.9);
	fl_result_free(&r);
	/* one word of a help text */
	r = ask("Options:");
	for (size_t i = 0; i < r.n; i++)
		assert_true(r.v[i].score < 0.9);
	fl_result_free(&r);
	/* an exact record still answers with confidence */
	r = ask("Incorrect parameters");
	assert_true(r.n >= 1);
	assert_true(r.v[0].score >= 0.9);
	fl_result_free(&r);
}

/* Another line of the output that a record of a file matches by a few
 * words only is no evidence for that file: "build failed" is any
 * program's "{what} failed" */
static void test_weak_line_is_no_evidence(void **state)
{
	(void)state;
	fl_result r = ask("cannot use the widget as an object key\nbuild failed");
	assert_true(r.n >= 2);
	for (size_t i = 0; i < r.n; i++)
		assert_false(has_evidence(&r.v[i], "other line"));
	assert_string_equal(r.v[0].file_path, "src/parse.y");
	fl_result_free(&r);
}

static void test_informational_line(void **state)
{
	(void)state;
	/* a notice that happens to hold a record's words */
	fl_result r = ask("2026/12/02 05:56:25 [notice] 6150#6150: thumbnail failed for cached worker");
	assert_int_equal(r.n, 0);
	fl_result_free(&r);
	r = ask("INFO Incorrect parameters");
	assert_int_equal(r.n, 0);
	fl_result_free(&r);
	/* the same line as an error is answered */
	r = ask("ERROR Incorrect parameters");
	assert_true(r.n >= 1);
	fl_result_free(&r);
}

static void test_multi_line_message(void **state)
{
	(void)state;
	fl_result r = ask("error: cannot load the plugin registry\n\nhint: run `tool plugins --reset`\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/plugins.c");
	assert_true(r.v[0].score >= 0.9);
	/* once: its first line matched too, the same record */
	for (size_t i = 1; i < r.n; i++)
		assert_string_not_equal(r.v[i].id, r.v[0].id);
	char id[17];
	snprintf(id, sizeof id, "%s", r.v[0].id);
	fl_result_free(&r);
	/* only the first line printed or pasted: the same record */
	r = ask("error: cannot load the plugin registry\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].id, id);
	assert_string_equal(r.v[0].file_path, "src/plugins.c");
	assert_int_equal(r.v[0].line, 8);
	assert_true(r.v[0].score >= 0.9);
	fl_result_free(&r);
	/* the parts are no records of their own */
	assert_int_equal(fl_lookup_count(lk), 390);
}

static void test_banner_on_the_same_line(void **state)
{
	(void)state;
	/* the banner's placeholder holds the message another record raises */
	fl_result r = ask("tool: error (at <stdin>:0): boolean (true) has no length\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/builtin.c");
	assert_string_equal(r.v[1].file_path, "src/main.c");
	fl_result_free(&r);
	/* alone, the banner is the answer */
	r = ask("tool: error (at <stdin>:0): something else entirely\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/main.c");
	fl_result_free(&r);
}

static void test_error_before_warning(void **state)
{
	(void)state;
	fl_result r = ask("Invalid gemspec in [raises.gemspec]: boom\n"
			  "ERROR:  Error loading gemspec. Aborting.\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "lib/commands/build.rb");
	assert_string_equal(r.v[1].file_path, "lib/specification.rb");
	fl_result_free(&r);
}

static void test_raised_before_logged(void **state)
{
	(void)state;
	fl_result r = ask("ERROR: Could not find a version that satisfies the requirement foo (from versions: none)\n"
			  "ERROR: No matching distribution found for foo\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/resolver.py");
	assert_string_equal(r.v[1].file_path, "src/factory.py");
	fl_result_free(&r);
}

static void test_prefix_kept_by_the_record(void **state)
{
	(void)state;
	fl_result r = ask("tool: error: syntax error, unexpected INVALID_CHARACTER at <top-level>, line 1:\n"
			  ".foo | bar\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/parser.y");
	assert_true(r.v[0].score >= 0.9);
	fl_result_free(&r);
	/* a tab-indented message that names a position is no Go frame */
	r = ask("package example.com/in\n"
		"\tmain.go:3:8: use of internal package example.com/in/x/internal/y not allowed\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "load/pkg.go");
	fl_result_free(&r);
}

static void test_raise_site_before_definition(void **state)
{
	(void)state;
	fl_result r = ask("error: This environment is externally managed\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/utils/misc.py");
	fl_result_free(&r);
	r = ask("Error: done() called multiple times in test <twice> of file /tmp/t.js\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "lib/runnable.js");
	assert_string_equal(r.v[1].file_path, "lib/errors.js");
	fl_result_free(&r);
}

static void test_empty_placeholder(void **state)
{
	(void)state;
	/* {extra} printed nothing: the stored pattern needs a character */
	fl_result r = ask("Could not find gem 'nothere-gem-xyz' in locally installed gems.\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "lib/resolver.rb");
	assert_string_equal(r.v[0].match_type, "pattern");
	assert_true(r.v[0].score >= 0.9);
	fl_result_free(&r);
}

static void test_command_after_cd(void **state)
{
	(void)state;
	const char *out = "no workspace file found (run 'tool work init' first)\n";
	const char *cmds[][2] = {{"cd mod && tool work sync", "work/sync.go"},
				 {"cd mod; tool work use ./a", "work/use.go"},
				 {"GOFLAGS=-x tool work edit -fmt", "work/edit.go"},
				 {"cat x | sudo tool work sync", "work/sync.go"}};
	for (size_t i = 0; i < 4; i++) {
		char with[256];
		snprintf(with, sizeof with, "$ %s\n%s", cmds[i][0], out);
		fl_result r = ask(with);
		assert_int_equal(r.n, 3);
		assert_string_equal(r.v[0].file_path, cmds[i][1]);
		fl_result_free(&r);
	}
}

static void test_help_lines_are_no_errors(void **state)
{
	(void)state;
	/* an option table's line, and its description's continuation */
	fl_result r = ask("  --exists-action <action>    Default action when a path already exists:\n");
	assert_true(r.n == 0 || r.v[0].score < 0.4);
	fl_result_free(&r);
	r = ask("                              current working directory and gadget7 unit2\n");
	assert_true(r.n == 0 || r.v[0].score < 0.4);
	fl_result_free(&r);
	/* a lone "-" option (standard input) */
	r = ask("  -           widget config already exists\n");
	assert_true(r.n == 0 || r.v[0].score < 0.4);
	fl_result_free(&r);
	/* the same text as an error line is answered */
	r = ask("error: widget config already exists\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/build.c");
	fl_result_free(&r);
}

static void test_print_of_an_error_value(void **state)
{
	(void)state;
	/* the print quotes the message of the error value that was made */
	fl_result r = ask("tool: Bad JSON in --slurpfile x nofile: Could not open nofile: No such file or directory\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/jv_file.c");
	assert_string_equal(r.v[1].file_path, "src/main.c");
	fl_result_free(&r);
}

/* Two raises quote another's message in one text: the one whose
 * placeholder is named for an error ({te.args[0]}, {exc}, %w) first,
 * whatever the order of the records. */
static void test_quoting_placeholder_named_for_error(void **state)
{
	(void)state;
	fl_result r = ask("Cannot parse: 2:0: EOF in multi-line statement\n");
	assert_true(r.n >= 3);
	assert_string_equal(r.v[0].file_path, "fmt/parsing.py");
	assert_int_equal(r.v[0].line, 111);
	assert_true(has_evidence(&r.v[0], "a placeholder named for an error"));
	assert_int_equal(r.v[1].line, 104);
	fl_result_free(&r);
	/* the placeholder alone tells nothing without another record's
	 * message in it: the two tie, the first record first */
	r = ask("Cannot parse: 2:0: x = (1,\n");
	assert_true(r.n >= 2);
	assert_int_equal(r.v[0].line, 104);
	assert_false(has_evidence(&r.v[0], "a placeholder named for an error"));
	fl_result_free(&r);
}

/* The program that printed a text, named by its line ("dux: ...", as C
 * tools print argv[0]) or by the command pasted with it, is the name of
 * the file that raised it in a tree of many programs. */
static void test_program_names_its_file(void **state)
{
	(void)state;
	fl_result r = ask("dux: cannot list entry 'nosuch': No such file or directory\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/dux.c");
	assert_true(has_evidence(&r.v[0], "the program's name `dux` is its file's name"));
	fl_result_free(&r);
	r = ask("$ cd /tmp && sudo lsx -l nosuch\nlsx: cannot list entry 'nosuch': No such file or directory\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/lsx.c");
	fl_result_free(&r);
	r = ask("$ LC_ALL=C lsx nosuch\ncannot list entry 'nosuch': No such file or directory\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/lsx.c");
	fl_result_free(&r);
	/* a word that labels the line names no program: a tie */
	r = ask("error: cannot list entry 'nosuch': No such file or directory\n");
	assert_true(r.n >= 2);
	assert_false(has_evidence(&r.v[0], "the program's name"));
	assert_int_equal(r.v[0].evidence.n, 0);
	fl_result_free(&r);
	/* the program names the repository, every file of it alike */
	r = ask("$ shelver a.txt\nshelver: cannot open the shelf index\n");
	assert_true(r.n >= 2);
	assert_false(has_evidence(&r.v[0], "the program's name"));
	assert_false(has_evidence(&r.v[1], "the program's name"));
	fl_result_free(&r);
	r = ask("note: cannot list entry 'dux'\n");
	assert_true(r.n >= 2);
	assert_false(has_evidence(&r.v[0], "the program's name"));
	fl_result_free(&r);
}

/* A lint rule's name in brackets after the text ("[GapAround]") names
 * the file of its class, the name and one word more: of one text logged
 * by several rules, that rule's. */
static void test_rule_name_names_its_class_file(void **state)
{
	(void)state;
	fl_result r = ask("[ERROR] /w/A.java:3:9: '=' is not trailed by a gap. [GapAround]\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "checks/spacing/GapAroundCheck.java");
	assert_true(has_evidence(&r.v[0], "the text's name `GapAround` is a part of its path"));
	fl_result_free(&r);
	r = ask("[ERROR] /w/A.java:3:9: '=' is not trailed by a gap. [ParenGap]\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "checks/spacing/ParenGapCheck.java");
	fl_result_free(&r);
	/* no rule named, a word of one capital, or a name no class is
	 * named for (a file's name begins with it but goes on inside a
	 * word): no evidence */
	static const char *const none[] = {"[ERROR] /w/A.java:3:9: '=' is not trailed by a gap.\n",
					   "[ERROR] /w/A.java:3:9: '=' is not trailed by a gap. [Spacing]\n",
					   "[ERROR] /w/A.java:3:9: '=' is not trailed by a gap. [ParenGa]\n"};
	for (size_t k = 0; k < 3; k++) {
		r = ask(none[k]);
		assert_true(r.n >= 2);
		assert_false(has_evidence(&r.v[0], "the text's name"));
		assert_false(has_evidence(&r.v[1], "the text's name"));
		fl_result_free(&r);
	}
}

/* The program that printed a text names its repository (its name or
 * owner, a version's digits after it or not) or its file: of two records
 * matching the line, the program's own, though another says more. */
static void test_program_names_its_repository(void **state)
{
	(void)state;
	fl_result r = ask("$ quill3 :memory: 'select ('\nError: in prepare, the statement is incomplete\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/parse.y");
	fl_result_free(&r);
	r = ask("$ fmt src/\nthe statement is incomplete\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "pgen2/driver.py");
	fl_result_free(&r);
	/* without a program: the text that says more */
	r = ask("cannot read 'nofile' for input: No such file or directory\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "ext/misc/csv.c");
	fl_result_free(&r);
	r = ask("tailx: cannot read 'nofile' for input: No such file or directory\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/tailx.c");
	fl_result_free(&r);
}

/* A text formatted when the error is printed (a Rust Display arm, a Go
 * Error() method) is written by its definition, which ranks before the
 * line that builds the value; of two such definitions, the one whose
 * value a hit builds in its own folder; not before another text that
 * says more.  Elsewhere a class's message ranks after the raise. */
static void test_late_text_definitions(void **state)
{
	(void)state;
	fl_result r = ask("error parsing shelf glob '[': unclosed character class\n");
	assert_true(r.n >= 3);
	assert_string_equal(r.v[0].file_path, "crates/shelves/src/lib.rs");
	assert_string_equal(r.v[1].file_path, "crates/globs/src/lib.rs");
	assert_string_equal(r.v[2].file_path, "crates/shelves/src/walk.rs");
	fl_result_free(&r);
	r = ask("ShelfError: the shelf ledger is sealed\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "shelf/ledger.py");
	fl_result_free(&r);
	/* a definition that says less than a raise of the line is no
	 * value of it: the raise first */
	r = ask("ERROR: Referenced sniff \"Generic.Nope.Missing\" does not exist\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/Ruleset.php");
	assert_string_equal(r.v[1].file_path, "internal/backend/rest.go");
	fl_result_free(&r);
}

static void test_help_pointer_after_the_error(void **state)
{
	(void)state;
	fl_result r = ask("tool: option --bogus: is unknown\n"
			  "tool: try 'tool --help' or 'tool --manual' for more information\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "src/tool_getparam.c");
	assert_string_equal(r.v[1].file_path, "src/tool_operate.c");
	fl_result_free(&r);
	/* alone, the pointer is the answer */
	r = ask("tool: try 'tool --help' or 'tool --manual' for more information\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/tool_operate.c");
	fl_result_free(&r);
}

static void test_url_scheme_names_the_protocol(void **state)
{
	(void)state;
	fl_result r = ask("$ tool -sS --max-filesize 10 -o /dev/null http://127.0.0.1:8080/big.bin\n"
			  "tool: (63) Maximum file size exceeded\n");
	assert_true(r.n >= 3);
	assert_string_equal(r.v[0].file_path, "lib/http.c");
	fl_result_free(&r);
	r = ask("$ tool mqtt://broker.example/topic\ntool: (63) Maximum file size exceeded\n");
	assert_true(r.n >= 3);
	assert_string_equal(r.v[0].file_path, "lib/mqtt.c");
	fl_result_free(&r);
}

static void test_aside_in_parentheses(void **state)
{
	(void)state;
	fl_result r = ask("  rich==13.4.2 (Unable to locate actual module version, using vendor.txt specified version)\n");
	for (size_t i = 0; i < r.n; i++)
		assert_true(r.v[i].score < 0.4);
	fl_result_free(&r);
	/* the same text as the line's own message is answered */
	r = ask("Unable to locate the distribution metadata\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "distlib/resources.py");
	fl_result_free(&r);
}

static void test_definition_after_a_later_raise(void **state)
{
	(void)state;
	fl_result r = ask("flag provided but not defined: -frob\n"
			  "usage: tool build [-o output] [build flags]\n"
			  "Run 'tool help build' for details.\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "base/base.go");
	assert_string_equal(r.v[1].file_path, "cmdflag/flag.go");
	fl_result_free(&r);
	/* alone, the definition is the answer */
	r = ask("flag provided but not defined: -frob\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "cmdflag/flag.go");
	fl_result_free(&r);
}

static void test_error_method_around_a_cause(void **state)
{
	(void)state;
	fl_result r = ask("main.go:3:8: cannot find module providing package example.com/x: "
			  "module lookup disabled by GOPROXY=off\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "modfetch/repo.go");
	assert_string_equal(r.v[1].file_path, "modload/import.go");
	fl_result_free(&r);
}

static void test_frame_names_the_banner(void **state)
{
	(void)state;
	/* the first line of a multi-line record with a later line matching
	 * another record is a banner, and the later line the answer; but
	 * not when a frame names the banner's line and none the other's:
	 * the later line is the cause it quotes, the runtime's words
	 * another tree happens to hold */
	const char *text = "\nERROR: TypeError: Could not load reporter \"nope\":\n\n"
			   " Error: Cannot find module '/work/nope'\n"
			   "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n"
			   "    at Module._load (node:internal/modules/cjs/loader:1038:27)\n"
			   "    at createUnknownError (/usr/lib/node_modules/runner/lib/cli/run-helpers.js:277:5)\n"
			   "    at /usr/lib/node_modules/runner/lib/cli/run.js:364:9\n";
	fl_result r = ask(text);
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "lib/cli/run-helpers.js");
	assert_string_equal(r.v[1].file_path, "typer/lookup.py");
	fl_result_free(&r);
	/* without the frames, the later line's record comes first */
	r = ask("ERROR: TypeError: Could not load reporter \"nope\":\n\n Error: Cannot find module '/work/nope'\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "typer/lookup.py");
	fl_result_free(&r);
}

static void test_program_prefix_names_an_error(void **state)
{
	(void)state;
	/* "prog: message" says it is an error as "error: " would: its
	 * record needs as little of the text to tell, and comes before
	 * the summary line after it */
	fl_result r = ask("syncer: --max-size=abc is invalid\n"
			  "syncer error: syntax or usage error (code 1) at main.c(1886) [client=3.5.0]\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "options.c");
	assert_string_equal(r.v[1].file_path, "log.c");
	fl_result_free(&r);
	/* not after a level word: a warning's line is no error's */
	r = ask("syncer: warning: --max-size=abc is invalid\n"
		"syncer error: syntax or usage error (code 1) at main.c(1886) [client=3.5.0]\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "log.c");
	fl_result_free(&r);
}

static void test_quoting_placeholder_ends_its_line(void **state)
{
	(void)state;
	/* both records hold the cause's text ("cannot unstack ...") in a
	 * placeholder: the one that says more of the printed text first */
	fl_result r = ask("Error: cannot format d.py: cannot use --safe with this shelf; failed to parse "
			  "source shelf AST: cannot unstack function call (<unknown>, line 1)\n"
			  "This could be caused by running the formatter with an older runtime.\n");
	assert_true(r.n >= 2);
	assert_string_equal(r.v[0].file_path, "fmt/__init__.py");
	fl_result_free(&r);
}

static void test_text_quoted_whole(void **state)
{
	(void)state;
	/* its words are its text, not a quoted value's: a confident answer */
	fl_result r = ask("Error: \"Crate north-7 is not stacked on this trellis.\"\n");
	assert_true(r.n >= 1);
	assert_string_equal(r.v[0].file_path, "src/Opt.java");
	assert_true(r.v[0].score >= 0.9);
	fl_result_free(&r);
}

static void test_order_is_total(void **state)
{
	(void)state;
	/* Init:164 beats Factory:319 on its line by evidence, Factory:319
	 * would beat Init:162 as raised, Init:162 beats Init:164 as the
	 * earlier line: the lines are ordered by their best hits */
	const char *text = "Writing ./manifest.json\nSchema validation error, aborting\n"
			   "\"./manifest.json\" breaks the manifest schema:\n - name : a string is required\n";
	fl_result r = ask(text);
	assert_true(r.n >= 3);
	assert_string_equal(r.v[0].file_path, "src/Init.php");
	assert_int_equal(r.v[0].line, 162);
	assert_string_equal(r.v[1].file_path, "src/Init.php");
	fl_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_error_line_before_footer),
		cmocka_unit_test(test_command_breaks_tie),
		cmocka_unit_test(test_text_name_breaks_tie),
		cmocka_unit_test(test_split_quote_ranks_after),
		cmocka_unit_test(test_chain_headline_first),
		cmocka_unit_test(test_fuzzy_later_line),
		cmocka_unit_test(test_usage_names_program),
		cmocka_unit_test(test_little_information),
		cmocka_unit_test(test_informational_line),
		cmocka_unit_test(test_multi_line_message),
		cmocka_unit_test(test_banner_on_the_same_line),
		cmocka_unit_test(test_error_before_warning),
		cmocka_unit_test(test_raise_site_before_definition),
		cmocka_unit_test(test_raised_before_logged),
		cmocka_unit_test(test_prefix_kept_by_the_record),
		cmocka_unit_test(test_empty_placeholder),
		cmocka_unit_test(test_command_after_cd),
		cmocka_unit_test(test_help_lines_are_no_errors),
		cmocka_unit_test(test_print_of_an_error_value),
		cmocka_unit_test(test_quoting_placeholder_named_for_error),
		cmocka_unit_test(test_program_names_its_file),
		cmocka_unit_test(test_rule_name_names_its_class_file),
		cmocka_unit_test(test_program_names_its_repository),
		cmocka_unit_test(test_late_text_definitions),
		cmocka_unit_test(test_help_pointer_after_the_error),
		cmocka_unit_test(test_url_scheme_names_the_protocol),
		cmocka_unit_test(test_aside_in_parentheses),
		cmocka_unit_test(test_definition_after_a_later_raise),
		cmocka_unit_test(test_error_method_around_a_cause),
		cmocka_unit_test(test_order_is_total),
		cmocka_unit_test(test_frame_names_the_banner),
		cmocka_unit_test(test_program_prefix_names_an_error),
		cmocka_unit_test(test_quoting_placeholder_ends_its_line),
		cmocka_unit_test(test_text_quoted_whole),
		cmocka_unit_test(test_weak_line_is_no_evidence),
		cmocka_unit_test(test_subcommand_file_and_named_value),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
