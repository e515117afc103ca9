/*
 * test_record.c — every rule of records.md: identity, slugs, patterns,
 * windows, permalinks, validation, JSON.
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
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "faultline.h"
#include "json_internal.h"
#include "scan/core.h"
#include "scan/describe.h"
#include "test_util.h"
#include "util.h"

/* ---- byte scans ------------------------------------------------------------ */

static const char *naive_memmem(const char *s, size_t n, const char *w, size_t k)
{
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, w, k) == 0)
			return s + i;
	return NULL;
}

/* fl_xzalloc_huge: zeroed memory, of its own mapping from 2 MB on (whole
 * huge pages, aligned), calloc's below; written end to end and freed. */
static void test_zalloc_huge(void **state)
{
	(void)state;
	const size_t sizes[] = {1, 4096, (2u << 20) - 1, 2u << 20, (3u << 20) + 7};
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k], mapped = 99;
		unsigned char *p = fl_xzalloc_huge(n, &mapped);
		assert_non_null(p);
		if (n >= (2u << 20)) {
			assert_true(mapped >= n);
			assert_int_equal(mapped % (2u << 20), 0);
			assert_int_equal((uintptr_t)p % (2u << 20), 0);
		} else {
			assert_int_equal(mapped, 0);
		}
		for (size_t i = 0; i < n; i++)
			if (p[i])
				fail_msg("byte %zu of %zu is not zero", i, n);
		memset(p, 0xab, n);
		assert_int_equal(p[n - 1], 0xab);
		fl_free_huge(p, mapped);
	}
}

/* fl_memmem finds what a plain search finds, first hit first: every
 * length of text and word over a small alphabet (hits everywhere: in the
 * 16-position blocks, across them, in the tail, at the very end), and
 * from hit to hit as the byte scans go. */
static void test_memmem_matches_plain_search(void **state)
{
	(void)state;
	unsigned seed = 12345;
	char text[200], word[40];
	for (int round = 0; round < 4000; round++) {
		size_t n = (size_t)(round % 97) + (round & 1 ? 100 : 0);
		size_t k = (size_t)(round % 23);
		int alpha = 2 + round % 3;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			text[i] = (char)('a' + (seed >> 16) % (unsigned)alpha);
		}
		for (size_t i = 0; i < k; i++) {
			seed = seed * 1103515245u + 12345u;
			word[i] = (char)('a' + (seed >> 16) % (unsigned)alpha);
		}
		if (round % 5 == 0 && k <= n) /* the word at the end */
			memcpy(text + n - k, word, k);
		const char *p = text, *end = text + n;
		for (;;) {
			const char *a = fl_memmem(p, (size_t)(end - p), word, k);
			const char *b = naive_memmem(p, (size_t)(end - p), word, k);
			assert_ptr_equal(a, b);
			if (!a || k == 0)
				break;
			p = a + 1;
		}
	}
	/* words of source text, whose rarest bytes fl_memmem compares
	 * first (the 'w' and 'h' of "throw "), in texts made of the same
	 * bytes: every hit found, first one first */
	static const char bytes[] = " thrownewE\n(x";
	char big[300];
	for (int round = 0; round < 3000; round++) {
		size_t n = 40 + (size_t)(round % 260), k = 1 + (size_t)(round % 9);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			big[i] = bytes[(seed >> 16) % (sizeof bytes - 1)];
		}
		for (size_t i = 0; i < k; i++) {
			seed = seed * 1103515245u + 12345u;
			word[i] = bytes[(seed >> 16) % (sizeof bytes - 1)];
		}
		if (round % 3 == 0) /* the word somewhere */
			memcpy(big + (size_t)round % (n - k + 1), word, k);
		const char *p = big, *end = big + n;
		for (;;) {
			const char *a = fl_memmem(p, (size_t)(end - p), word, k);
			const char *b = naive_memmem(p, (size_t)(end - p), word, k);
			assert_ptr_equal(a, b);
			if (!a)
				break;
			p = a + 1;
		}
	}
	/* bytes over 0x7f, and a word longer than the text */
	const char hi[] = "x\xff\xfe\x80" "abc\xff\xfe\x81";
	assert_ptr_equal(fl_memmem(hi, sizeof hi - 1, "\xff\xfe\x81", 3), hi + 7);
	assert_null(fl_memmem(hi, 3, "x\xff\xfe\x80", 4));
}

/* ---- identity --------------------------------------------------------------- */

static void test_id_spec_examples(void **state)
{
	(void)state;
	char id[17];
	fl_record_id("acme/widgets", NULL, "invalid widget size: {size}",
		     "src/size.rs", id);
	assert_string_equal(id, "c8caaa7717329c9f");
	fl_record_id("acme/widgets", "ERR_WIDGET_LOCKED", "whatever message",
		     "lib/lock.js", id);
	assert_string_equal(id, "c50e436bb2a9a14b");
}

static void test_id_code_wins_over_message(void **state)
{
	(void)state;
	char a[17], b[17];
	fl_record_id("o/r", "E1", "one", "f.c", a);
	fl_record_id("o/r", "E1", "two", "f.c", b);
	assert_string_equal(a, b);
	fl_record_id("o/r", NULL, "one", "f.c", a);
	fl_record_id("o/r", NULL, "one", "g.c", b);
	assert_string_not_equal(a, b);
}

/* ---- slugs ------------------------------------------------------------------ */

static void check_slug(const char *in, const char *want)
{
	char *s = fl_slug_base(in);
	assert_string_equal(s, want);
	free(s);
}

static void test_slug_rules(void **state)
{
	(void)state;
	check_slug("invalid widget size: {size}", "invalid-widget-size-size");
	check_slug("ERR_WIDGET_LOCKED", "err-widget-locked");
	check_slug("  --Hello, World!--  ", "hello-world");
	check_slug("", "error");
	check_slug("!!!", "error");
	check_slug("%s", "s");
	/* 50 characters kept: the 51st is dropped */
	check_slug("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaXYZ",
		   "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaax");
}

static void test_slug_non_ascii(void **state)
{
	(void)state;
	check_slug("Über größe", "ber-gr-e");
	check_slug("日本語のエラー", "error");
	check_slug("fichier «introuvable» é", "fichier-introuvable");
	/* U+0130 lowercases to i + combining dot, the Kelvin sign to k */
	check_slug("\xC4\xB0stanbul", "i-stanbul");
	check_slug("5 \xE2\x84\xAA", "5-k");
	/* an emoji counts as two UTF-16 units: 48 a's + emoji = 50 units, the
	 * b after it is cut */
	check_slug("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xF0\x9F\x98\x80" "b",
		   "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	/* invalid UTF-8 does not crash and is not alphanumeric */
	check_slug("bad \xFF\xFE bytes", "bad-bytes");
}

static void test_slug_collision_suffix(void **state)
{
	(void)state;
	char *s = fl_slug_suffixed("feature-not-enabled-a", "0a6380ffffffffff");
	assert_string_equal(s, "feature-not-enabled-a-0a6380");
	free(s);
}

/* ---- patterns ---------------------------------------------------------------- */

static void check_pattern(const char *msg, const char *want)
{
	char *p = fl_message_pattern(msg);
	if (strcmp(p, want) != 0)
		fail_msg("pattern of <%s>: got <%s>, want <%s>", msg, p, want);
	char why[256];
	if (!fl_pattern_compiles(p, why, sizeof why))
		fail_msg("pattern <%s> does not compile: %s", p, why);
	free(p);
}

static void test_pattern_spec_examples(void **state)
{
	(void)state;
	check_pattern("Unsupported precision for fusion",
		      "Unsupported precision for fusion");
	check_pattern("timeout of {ms}ms exceeded", "timeout of (.+?)ms exceeded");
	check_pattern("Request failed (code 42).", "Request failed \\(code 42\\)\\.");
}

static void test_pattern_placeholders(void **state)
{
	(void)state;
	check_pattern("cannot open ${path} for reading", "cannot open (.+?) for reading");
	check_pattern("bad value %(name)s in config", "bad value (.+?) in config");
	check_pattern("bad value %(count)d items", "bad value (.+?) items");
	check_pattern("cannot open %s: %s", "cannot open (.+?): (.+?)");
	check_pattern("read %zu bytes of %lld total", "read (.+?) bytes of (.+?) total");
	check_pattern("name too long: %.100s here", "name too long: (.+?) here");
	check_pattern("column %-5d is wrong", "column (.+?) is wrong");
	check_pattern("value %v wrapped %w quoted %q", "value (.+?) wrapped (.+?) quoted (.+?)");
	check_pattern("hex %x json %j int %i float %f", "hex (.+?) json (.+?) int (.+?) float (.+?)");
	check_pattern("expected {} got {}", "expected (.+?) got (.+?)");
	check_pattern("index {0} out of range {1}", "index (.+?) out of range (.+?)");
	check_pattern("unknown field {name:?} here", "unknown field (.+?) here");
	/* sqlite's printf (%Q %S %r %T %w %z), C's wide %S, Python's %r */
	check_pattern("no such index: %S here", "no such index: (.+?) here");
	check_pattern("%r ORDER BY term of %Q and %#T", "(.+?) ORDER BY term of (.+?) and (.+?)");
	/* ... but not after a blank flag: a percent before a word */
	check_pattern("disk 100% ready now", "disk 100% ready now");
	/* %% is a literal percent */
	check_pattern("disk 100%% full now", "disk 100%% full now");
	/* ${...} is marked before {...}: one placeholder, not "$" + group */
	check_pattern("value ${a} and {b} end", "value (.+?) and (.+?) end");
	/* nested braces: only the inner group is a placeholder */
	check_pattern("map {{inner}} done", "map \\{(.+?)\\} done");
	/* metacharacters escaped */
	check_pattern("a.b*c+d?e^f$g|h[i]j\\k done",
		      "a\\.b\\*c\\+d\\?e\\^f\\$g\\|h\\[i\\]j\\\\k done");
}

/* Which messages make a record: text of their own outside the
 * placeholders, 3 letters, or two names of one letter in a shape of
 * signs (a check's template: "k (%s) > n (%s)"). */
static void test_record_text(void **state)
{
	(void)state;
	static const struct {
		const char *msg;
		bool kept;
	} cases[] = {
		{"k (%s) > n (%s)", true},
		{"x=%d, y=%d", true},
		{"1 <= N <= 8: N= {N}", true},
		{"bad %s", true},
		{"%s", false},
		{"{err}", false},
		{"%s: %s", false},
		{"%s (in %s): %w", false}, /* a word of two letters */
		{"__lr = %llx", false},
		{"x = %d", false},         /* one name */
		{"k > n", false},          /* too few signs */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fl_site s = {.message = (char *)cases[i].msg};
		char *msg = NULL, *pat = NULL;
		const char *code = NULL;
		bool kept = fl_site_record_text(&s, &msg, &pat, &code);
		if (kept != cases[i].kept)
			fail_msg("<%s>: kept %d, want %d", cases[i].msg, kept, cases[i].kept);
		if (kept)
			assert_string_equal(msg, cases[i].msg);
		free(msg);
		free(pat);
	}
}

static void test_pattern_fallbacks(void **state)
{
	(void)state;
	/* fewer than 6 literal characters: fully escaped message */
	check_pattern("{a}: {b}", "\\{a\\}: \\{b\\}");
	check_pattern("%s: %s", "%s: %s");
	check_pattern("bad {x}", "bad \\{x\\}");     /* 4 literal chars */
	check_pattern("bad  {x}!", "bad  (.+?)!"); /* exactly 6 */
	/* over 500 characters */
	char msg[700];
	memset(msg, 'a', 600);
	memcpy(msg + 300, "{x}", 3);
	msg[600] = '\0';
	char *p = fl_message_pattern(msg);
	assert_null(strstr(p, "(.+?)"));
	assert_non_null(strstr(p, "\\{x\\}"));
	free(p);
	/* the safety checks behind the last two fall-backs */
	assert_true(fl_pattern_unsafe("(a)\\1"));
	assert_true(fl_pattern_unsafe("x(a+)+y"));
	assert_true(fl_pattern_unsafe("x(?:a*b)*y"));
	assert_false(fl_pattern_unsafe("timeout of (.+?)ms exceeded"));
	assert_false(fl_pattern_unsafe("a\\\\1 literal backslash then 1"));
	assert_false(fl_pattern_unsafe("(ab)+ plain"));
}

static void test_pattern_non_ascii_and_compiles(void **state)
{
	(void)state;
	check_pattern("fichier «{name}» introuvable", "fichier «(.+?)» introuvable");
	const char *msgs[] = {
		"(((", ")))", "[unclosed", "a{1,2}b", "\\", "x{", "}{", "%",
		"100% sure", "%(", "${", "${unclosed", "{}{}{}{}{}{}", "*+?",
		"emoji \xF0\x9F\x98\x80 here {x}", "tab\there\nnewline",
	};
	for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++) {
		char *p = fl_message_pattern(msgs[i]);
		char why[256];
		if (!fl_pattern_compiles(p, why, sizeof why))
			fail_msg("<%s> -> <%s> does not compile: %s", msgs[i], p, why);
		free(p);
	}
}

/* ---- windows ------------------------------------------------------------------ */

static char *numbered_lines(int n, bool final_newline)
{
	size_t cap = (size_t)n * 12 + 2;
	char *s = malloc(cap);
	size_t o = 0;
	for (int i = 1; i <= n; i++)
		o += (size_t)snprintf(s + o, cap - o, "%d%s", i,
				      i < n || final_newline ? "\n" : "");
	return s;
}

static void test_window_middle(void **state)
{
	(void)state;
	char *t = numbered_lines(100, true);
	int s, e;
	char *w = fl_source_window(t, strlen(t), 50, &s, &e);
	assert_int_equal(s, 32);
	assert_int_equal(e, 68);
	assert_true(strncmp(w, "32\n33\n", 6) == 0);
	assert_true(fl_str_ends_test(w, "\n68"));
	free(w);
	free(t);
}

static void test_window_file_start_end_short(void **state)
{
	(void)state;
	char *t = numbered_lines(100, false);
	int s, e;
	char *w = fl_source_window(t, strlen(t), 3, &s, &e);
	assert_int_equal(s, 1);
	assert_int_equal(e, 21);
	assert_true(strncmp(w, "1\n2\n", 4) == 0);
	free(w);
	w = fl_source_window(t, strlen(t), 99, &s, &e);
	assert_int_equal(s, 81);
	assert_int_equal(e, 100);
	assert_true(fl_str_ends_test(w, "\n100"));
	free(w);
	assert_null(fl_source_window(t, strlen(t), 101, &s, &e));
	assert_null(fl_source_window(t, strlen(t), 0, &s, &e));
	free(t);
	/* short file with a final newline: no trailing newline, no phantom
	 * empty line */
	const char *small = "a\nb\nc\n";
	w = fl_source_window(small, strlen(small), 2, &s, &e);
	assert_int_equal(s, 1);
	assert_int_equal(e, 3);
	assert_string_equal(w, "a\nb\nc");
	free(w);
	/* one line, no newline */
	w = fl_source_window("only", 4, 1, &s, &e);
	assert_int_equal(s, 1);
	assert_int_equal(e, 1);
	assert_string_equal(w, "only");
	free(w);
	/* byte-exact: CR kept, empty lines kept */
	const char *crlf = "x\r\n\r\ny\r\n";
	w = fl_source_window(crlf, strlen(crlf), 3, &s, &e);
	assert_string_equal(w, "x\r\n\r\ny\r");
	free(w);
}

/* ---- permalinks ----------------------------------------------------------------- */

static void expect_permalink(const char *host, const char *repo, const char *path,
			     int from, int to, const char *root, const char *want)
{
	char *u = fl_permalink(host, repo, "0123456789abcdef0123456789abcdef01234567",
			       path, from, to, root);
	assert_string_equal(u, want);
	free(u);
}

static void test_permalink(void **state)
{
	(void)state;
	expect_permalink("github.com", "acme/widgets", "src/size.rs", 10, 46, NULL,
			 "https://github.com/acme/widgets/blob/0123456789abcdef0123456789abcdef01234567/src/size.rs#L10-L46");
	expect_permalink("github.com", "acme/widgets", "a.c", 7, 7, NULL,
			 "https://github.com/acme/widgets/blob/0123456789abcdef0123456789abcdef01234567/a.c#L7");
	expect_permalink("gitlab.com", "grp/proj", "a b.c", 1, 5, NULL,
			 "https://gitlab.com/grp/proj/-/blob/0123456789abcdef0123456789abcdef01234567/a%20b.c#L1-5");
	expect_permalink(NULL, "local/x", "src/a.c", 2, 9, "/tmp/x", "file:///tmp/x/src/a.c#L2-L9");
	expect_permalink("bitbucket.org", "team/repo", "lib/x.py", 3, 40, NULL,
			 "https://bitbucket.org/team/repo/src/0123456789abcdef0123456789abcdef01234567/lib/x.py#lines-3:40");
	expect_permalink("bitbucket.org", "team/repo", "lib/x.py", 3, 0, NULL,
			 "https://bitbucket.org/team/repo/src/0123456789abcdef0123456789abcdef01234567/lib/x.py#lines-3");
	/* what a path keeps and what it encodes: non-ASCII bytes, '%', '#',
	 * '?' and spaces are encoded, the sub-delimiters are not */
	expect_permalink("github.com", "a/b", "d\xc3\xa9j\xc3\xa0/x%#?y (1)+z_~@!$&'*,;=:.c", 123456789, 0, NULL,
			 "https://github.com/a/b/blob/0123456789abcdef0123456789abcdef01234567/"
			 "d%C3%A9j%C3%A0/x%25%23%3Fy%20(1)+z_~@!$&'*,;=:.c#L123456789");
}

/* ---- explanations --------------------------------------------------------------- */

/* A name written as code in an explanation is fenced by one backtick more
 * than its longest run of them, and padded when it starts or ends with one
 * (CommonMark code spans). */
static void test_describe_code_spans(void **state)
{
	(void)state;
	static const struct {
		const char *fn, *want;
	} cases[] = {
		{"parse", "`parse`"},
		{"a`b", "``a`b``"},
		{"x``y`", "``` x``y` ```"},
		{"`q", "`` `q ``"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		fl_entry e = {0};
		e.error_message = fl_xstrdup("boom");
		e.message_pattern = fl_xstrdup("^boom$");
		e.file_path = fl_xstrdup("src/a.rs");
		e.line_number = 3;
		e.error_type = fl_xstrdup(FL_T_PANIC);
		e.severity = fl_xstrdup(FL_S_CRITICAL);
		fl_site s = {.line = 3, .col = 1, .message = "boom", .type = FL_T_PANIC,
			     .severity = FL_S_CRITICAL, .function = cases[k].fn,
			     .idiom = "panic!"};
		fl_describe(&e, &s, "rust");
		assert_non_null(e.documentation);
		if (!strstr(e.documentation, cases[k].want))
			fail_msg("%s: %s lacks %s", cases[k].fn, e.documentation, cases[k].want);
		fl_entry_free(&e);
	}
}

/* ---- validation ------------------------------------------------------------------- */

static void test_valid_entry_passes(void **state)
{
	(void)state;
	fl_entry e;
	make_entry(&e);
	fl_err err;
	if (fl_entry_validate(&e, &err) < 0)
		fail_msg("%s", err.msg);
	fl_entry_free(&e);
}

/* mutate one field, expect a failure naming it */
#define REJECT(field, mutation)                                               \
	do {                                                                  \
		fl_entry e;                                                   \
		make_entry(&e);                                               \
		mutation;                                                     \
		fl_err err;                                                   \
		assert_int_equal(fl_entry_validate(&e, &err), -1);            \
		if (!strstr(err.msg, field))                                  \
			fail_msg("error <%s> does not name %s", err.msg, field); \
		fl_entry_free(&e);                                            \
	} while (0)

#define SET(f, v) (free(e.f), e.f = v ? strdup(v) : NULL)

static void test_validation_rules(void **state)
{
	(void)state;
	REJECT("id", SET(id, "ABCDEF0123456789"));
	REJECT("id", SET(id, "abc"));
	REJECT("repo", SET(repo, "noslash"));
	REJECT("repo", SET(repo, "a/b/c"));
	REJECT("repo", SET(repo, "a b/c"));
	REJECT("slug", SET(slug, "-bad"));
	REJECT("slug", SET(slug, "Bad"));
	REJECT("errorCode", SET(error_code, ""));
	REJECT("errorMessage", SET(error_message, ""));
	REJECT("messagePattern", SET(message_pattern, ""));
	REJECT("messagePattern", SET(message_pattern, "(unclosed"));
	REJECT("errorType", SET(error_type, "boom"));
	REJECT("errorClass", SET(error_class, ""));
	REJECT("httpStatus", e.http_status = 99);
	REJECT("httpStatus", e.http_status = 600);
	REJECT("severity", SET(severity, "fatal"));
	REJECT("filePath", SET(file_path, "/abs/path.c"));
	REJECT("filePath", SET(file_path, "win\\path.c"));
	REJECT("filePath", SET(file_path, ""));
	REJECT("filePath", SET(file_path, "../etc/passwd"));
	REJECT("filePath", SET(file_path, "src/../../x.c"));
	REJECT("filePath", SET(file_path, "src/.."));
	REJECT("filePath", SET(file_path, ".."));
	REJECT("filePath", SET(file_path, "./src/x.c"));
	REJECT("filePath", SET(file_path, "src/./x.c"));
	REJECT("filePath", SET(file_path, "."));
	REJECT("filePath", SET(file_path, "src//x.c"));
	REJECT("filePath", SET(file_path, "src/x.c/"));
	REJECT("filePath", SET(file_path, "src/a\nb.c"));
	REJECT("filePath", SET(file_path, "src/a\rb.c"));
	REJECT("filePath", SET(file_path, "src/caf\xe9.c")); /* Latin-1, not UTF-8 */
	/* dots inside a name are not segments */
	static const char *const fine[] = {"src/..hidden/a..b.c", ".github/ci.yml", "x/.../y", "a"};
	for (size_t i = 0; i < sizeof fine / sizeof *fine; i++) {
		fl_entry e;
		make_entry(&e);
		SET(file_path, fine[i]);
		fl_err err;
		if (fl_entry_validate(&e, &err) < 0)
			fail_msg("filePath %s: %s", fine[i], err.msg);
		fl_entry_free(&e);
	}
	REJECT("lineNumber", e.line_number = -1);
	REJECT("sourceCodeEnd", (e.source_code_start = 10, e.source_code_end = 9, e.line_number = 10));
	REJECT("sourceCodeEnd", (e.source_code_start = 1, e.source_code_end = 41));
	REJECT("sourceCode", SET(source_code, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25\n26\n27\n28\n29\n30\n31\n32\n33\n34\n35\n36\n37\n38\n39\n40\n41"));
	REJECT("lineNumber", (e.line_number = 1, e.source_code_start = 2, e.source_code_end = 5));
	REJECT("githubUrl", SET(github_url, "not a url"));
	REJECT("documentation", SET(documentation, ""));
	REJECT("triggerScenarios", (free(e.trigger_scenarios), e.trigger_scenarios = NULL));
	REJECT("commonSituations", SET(common_situations, ""));
	REJECT("handlingStrategy", SET(handling_strategy, "pray"));
	REJECT("tags", fl_strv_push(&e.tags, "Not-Kebab"));
	REJECT("tags", fl_strv_push(&e.tags, "trailing-"));
	REJECT("backgroundTag", SET(background_tag, "errors"));
	REJECT("backgroundTag", SET(background_tag, "Bad Tag"));
	REJECT("analyzedSha", SET(analyzed_sha, "abc"));
	REJECT("analyzedAt", SET(analyzed_at, "yesterday"));
	REJECT("contentChangedAt", SET(content_changed_at, "2026-09-05 13:19:14"));
	REJECT("schemaVersion", e.schema_version = 1);
}

/* ---- JSON ---------------------------------------------------------------------------- */

static void test_json_roundtrip_and_order(void **state)
{
	(void)state;
	fl_entry e;
	make_entry(&e);
	char *js = fl_entry_to_json(&e, false);
	/* keys in the spec's order */
	const char *order[] = {"\"id\"", "\"repo\"", "\"slug\"", "\"errorCode\"",
		"\"errorMessage\"", "\"messagePattern\"", "\"errorType\"",
		"\"errorClass\"", "\"httpStatus\"", "\"severity\"", "\"filePath\"",
		"\"lineNumber\"", "\"sourceCode\"", "\"sourceCodeStart\"",
		"\"sourceCodeEnd\"", "\"githubUrl\"", "\"documentation\"",
		"\"triggerScenarios\"", "\"commonSituations\"", "\"solutions\"",
		"\"exampleFix\"", "\"handlingStrategy\"", "\"validationCode\"",
		"\"typeGuard\"", "\"tryCatchPattern\"", "\"preventionTips\"",
		"\"tags\"", "\"backgroundTag\"", "\"analyzedSha\"", "\"analyzedAt\"",
		"\"contentChangedAt\"", "\"schemaVersion\""};
	const char *prev = js;
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		const char *at = strstr(js, order[i]);
		assert_non_null(at);
		assert_true(at >= prev);
		prev = at;
	}
	assert_non_null(strstr(js, "\"errorCode\":null"));
	assert_non_null(strstr(js, "\"httpStatus\":null"));
	fl_entry back;
	fl_err err;
	if (fl_entry_from_json(js, strlen(js), &back, &err) < 0)
		fail_msg("%s", err.msg);
	char *js2 = fl_entry_to_json(&back, false);
	assert_string_equal(js, js2);
	free(js);
	free(js2);
	fl_entry_free(&back);
	fl_entry_free(&e);
}

static void expect_json_error(const char *json, const char *needle)
{
	fl_entry e;
	fl_err err;
	assert_int_equal(fl_entry_from_json(json, strlen(json), &e, &err), -1);
	if (!strstr(err.msg, needle))
		fail_msg("error <%s> does not mention <%s>", err.msg, needle);
}

static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	assert_non_null(at);
	size_t n = strlen(s) - strlen(from) + strlen(to);
	char *out = malloc(n + 1);
	size_t k = (size_t)(at - s);
	memcpy(out, s, k);
	strcpy(out + k, to);
	strcat(out, at + strlen(from));
	return out;
}

static void test_json_strict(void **state)
{
	(void)state;
	fl_entry e;
	make_entry(&e);
	char *js = fl_entry_to_json(&e, false);
	char *bad = replace(js, "\"schemaVersion\":2", "\"schemaVersion\":2,\"extra\":1");
	expect_json_error(bad, "extra");
	free(bad);
	bad = replace(js, "\"lineNumber\":20", "\"lineNumber\":\"20\"");
	expect_json_error(bad, "lineNumber");
	free(bad);
	bad = replace(js, "\"tags\":[\"rust\",\"panic\"]", "\"tags\":[\"rust\",3]");
	expect_json_error(bad, "tags");
	free(bad);
	bad = replace(js, "\"errorClass\":null,", "");
	expect_json_error(bad, "errorClass");
	free(bad);
	bad = replace(js, "\"schemaVersion\":2", "\"schemaVersion\":2,\"id\":\"x\"");
	expect_json_error(bad, "duplicate");
	free(bad);
	expect_json_error("{\"id\": ", "invalid JSON");
	expect_json_error("[1,2]", "not a JSON object");
	free(js);
	fl_entry_free(&e);
}

/* the compact writer gives byte for byte what jansson's compact dump gives */
static void test_json_compact_writer_matches_jansson(void **state)
{
	(void)state;
	fl_entry e;
	make_entry(&e);
	free(e.error_message);
	e.error_message = strdup("quote \" backslash \\ tab\t nl\n cr\r bs\b ff\f ctl\x01\x1f del\x7f slash / é ☃ 😀");
	free(e.documentation);
	e.documentation = strdup("<script>alert('x')</script> & \u2028");
	e.http_status = 404;
	e.error_code = strdup("E0308");
	fl_strv_push(&e.solutions, "first \"fix\"");
	fl_strv_push(&e.solutions, "");
	char *fast = fl_entry_to_json(&e, false);
	json_t *o = fl_entry_to_jobj(&e);
	char *ref2 = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	assert_string_equal(fast, ref2);
	free(ref2);
	free(fast);
	fl_repo r = {.repo = "acme/widgets", .default_branch = "main",
		     .analyzed_sha = e.analyzed_sha, .analyzed_at = e.analyzed_at,
		     .source_files = -1, .description = "a \"repo\"\n"};
	fast = fl_repo_to_json(&r, false);
	o = fl_repo_to_jobj(&r);
	char *ref = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	assert_string_equal(fast, ref);
	free(fast);
	free(ref);
	fl_entry_free(&e);
}

/* The compact writer's JSON of e is what jansson's compact dump gives for
 * ref (e itself, or e with its invalid UTF-8 repaired). */
static void assert_json_as_jansson(const fl_entry *e, const fl_entry *ref)
{
	char *fast = fl_entry_to_json(e, false);
	json_t *o = fl_entry_to_jobj(ref);
	char *want = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	assert_non_null(want);
	assert_string_equal(fast, want);
	free(want);
	free(fast);
}

/* invalid UTF-8 anywhere in a string is repaired as jansson's writer
 * (after fl_utf8_fix) would have it */
static void test_json_compact_writer_invalid_utf8(void **state)
{
	(void)state;
	static const char *const msgs[] = {
		"\xff at the start", "ascii then \xc3 cut", "valid \xc3\xa9 then \xe2\x82 cut \"q\"",
		"trailing \xf0\x9f\x98", "\xed\xa0\x80 surrogate, overlong \xc0\xaf\n",
	};
	for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++) {
		fl_entry e;
		make_entry(&e);
		free(e.source_code);
		e.source_code = strdup(msgs[i]);
		assert_json_as_jansson(&e, &e);
		fl_entry_free(&e);
	}
}

/* strings of bytes that need escaping, non-ASCII and plain ones at every
 * alignment (the writer skips eight plain bytes at a time) are written as
 * jansson writes them (invalid UTF-8 repaired first) */
static void test_json_escape_random(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"a", "b", " ", "\"", "\\", "\x01", "\x1f", "\t", "\n", "\x7f", "/",
		"\xc3\xa9", "\xe2\x98\x83", "\xf0\x9f\x98\x80", "\x80", "\xc3", "~", "!#",
		"abcdefgh", "0123456789abcdef",
	};
	const size_t np = sizeof pieces / sizeof pieces[0];
	unsigned seed = 12345;
	for (int it = 0; it < 3000; it++) {
		char buf[512];
		size_t n = 0;
		int k = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 40;
		for (int i = 0; i < k; i++) {
			const char *piece = pieces[((seed = seed * 1103515245u + 12345u) >> 16) % np];
			size_t l = strlen(piece);
			memcpy(buf + n, piece, l);
			n += l;
		}
		buf[n] = '\0';
		fl_entry e, f;
		make_entry(&e);
		make_entry(&f);
		free(e.error_message);
		e.error_message = strdup(buf);
		free(f.error_message);
		f.error_message = fl_utf8_fix(buf, n);
		assert_json_as_jansson(&e, &f);
		fl_entry_free(&e);
		fl_entry_free(&f);
	}
}

/* fl_utf8_valid (which skips ASCII eight bytes at a time) against a plain
 * decoder, on strings with invalid bytes at every alignment */
static bool utf8_ref(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i], k, cp;
		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xE0) == 0xC0)
			k = 1, cp = c & 0x1F;
		else if ((c & 0xF0) == 0xE0)
			k = 2, cp = c & 0x0F;
		else if ((c & 0xF8) == 0xF0)
			k = 3, cp = c & 0x07;
		else
			return false;
		for (unsigned j = 1; j <= k; j++) {
			if (i + j >= n || (s[i + j] & 0xC0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + j] & 0x3F);
		}
		if ((k == 1 && cp < 0x80) || (k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000) ||
		    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += k + 1;
	}
	return true;
}

static void test_utf8_valid_random(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"a", "bcdefgh", "0123456789abcdef", "\xc3\xa9", "\xe2\x98\x83",
		"\xf0\x9f\x98\x80", "\x80", "\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xff", " ",
	};
	const size_t np = sizeof pieces / sizeof pieces[0];
	unsigned seed = 777;
	int valid = 0;
	for (int it = 0; it < 5000; it++) {
		char buf[1024];
		size_t n = 0;
		int k = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 50;
		for (int i = 0; i < k; i++) {
			unsigned r = (seed = seed * 1103515245u + 12345u) >> 16;
			/* mostly valid pieces, so that long valid runs occur */
			const char *piece = pieces[r % 8 < 6 ? r % 6 : r % np];
			size_t l = strlen(piece);
			memcpy(buf + n, piece, l);
			n += l;
		}
		bool want = utf8_ref((const unsigned char *)buf, n);
		valid += want;
		assert_int_equal(fl_utf8_valid(buf, n), want);
	}
	assert_true(valid > 100 && valid < 4900); /* both outcomes were tried */
}

static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

/* the digest taken while writing equals the digest of the JSON written
 * with the blanked fields at zero; the span locates a field's value */
static void test_json_digest_and_splice(void **state)
{
	(void)state;
	fl_entry e;
	make_entry(&e);
	size_t isha = 0, isrc = 0, istart = 0, icca = 0;
	for (size_t i = 0; i < fl_entry_nfields; i++) {
		if (strcmp(fl_entry_fields[i].key, "analyzedSha") == 0) isha = i;
		if (strcmp(fl_entry_fields[i].key, "sourceCode") == 0) isrc = i;
		if (strcmp(fl_entry_fields[i].key, "sourceCodeStart") == 0) istart = i;
		if (strcmp(fl_entry_fields[i].key, "contentChangedAt") == 0) icca = i;
	}
	uint64_t blank = 1ull << isha | 1ull << isrc | 1ull << istart, h;
	fl_json_span sp[2] = {{(int)icca, 0, 0}, {(int)isrc, 0, 0}};
	char *js = fl_entry_to_json_digest(&e, blank, &h, sp, 2);
	size_t off = sp[0].off, len = sp[0].len;
	/* the second span: the window's value, a JSON string */
	assert_true(sp[1].off > 0 && js[sp[1].off] == '"' &&
		    js[sp[1].off + sp[1].len - 1] == '"');
	assert_memory_equal(js + sp[1].off - 13, "\"sourceCode\":", 13);
	char *plain = fl_entry_to_json(&e, false);
	assert_string_equal(js, plain);
	free(plain);
	fl_entry z = e;
	z.analyzed_sha = NULL;
	z.source_code = NULL;
	z.source_code_start = 0;
	char *zj = fl_entry_to_json(&z, false);
	assert_true(h == fl_digest_of(zj, strlen(zj)));
	/* version 1 (FNV-1a), kept for digests stored before version 2 */
	assert_true(fl_entry_digest_v1(&e, blank) == fnv(zj));
	/* the digest does not depend on how the bytes are split */
	for (size_t cut = 0; cut <= 20; cut++) {
		fl_digest d;
		fl_digest_init(&d);
		size_t zl = strlen(zj), at = 0, step = cut + 1;
		for (; at < zl; at += step)
			fl_digest_put(&d, zj + at, zl - at < step ? zl - at : step);
		assert_true(fl_digest_end(&d) == h);
	}
	assert_true(fl_digest_of("a", 1) != fl_digest_of("b", 1));
	assert_true(fl_digest_of("", 0) != fl_digest_of("\0", 1));
	free(zj);
	/* nothing blanked: the digest of the JSON itself */
	uint64_t h0;
	char *j0 = fl_entry_to_json_digest(&e, 0, &h0, NULL, 0);
	assert_true(h0 == fl_digest_of(j0, strlen(j0)));
	free(j0);
	/* the span is the quoted value; splicing a longer and a shorter one */
	char want[128];
	snprintf(want, sizeof want, "\"%s\"", e.content_changed_at);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(js + off, want, len);
	js = fl_json_splice_str(js, off, len, "2020-01-02T03:04:05.678Z \"x\"");
	free(e.content_changed_at);
	e.content_changed_at = strdup("2020-01-02T03:04:05.678Z \"x\"");
	plain = fl_entry_to_json(&e, false);
	assert_string_equal(js, plain);
	free(plain);
	free(js);
	fl_entry_free(&e);
}

/* fl_pattern_compiles answers as PCRE2 does, also for the patterns it
 * accepts without compiling (literals, escapes and "(.+?)" groups): random
 * patterns from those pieces and from pieces that break them. */
static void test_pattern_check_agrees_with_pcre2(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"a", "Z", "7", " ", ":", "-", "#", "'", "\"", "\n", "\t", "\\.", "\\(", "\\)", "\\[",
		"\\]", "\\{", "\\}", "\\*", "\\+", "\\?", "\\|", "\\^", "\\$", "\\\\",
		"(.+?)", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
		/* pieces that may break a pattern */
		"(", ")", "[", "]", "{", "}", "*", "+", "?", "|", "^", "$", ".", "\\",
		"\\q", "\\d", "\\1", "(.+?", "\xc3", "\xed\xa0\x80", "\xff", "\x80",
		"(?", "{2}", "a{1,2}", "[a-z]",
	};
	size_t np = sizeof pieces / sizeof pieces[0];
	unsigned int seed = 12345;
	char pat[5000];
	int fast_ok = 0, rejected = 0;
	for (int iter = 0; iter < 20000; iter++) {
		size_t len = 0;
		int n = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 12 + 1;
		bool clean = iter % 2 == 0; /* half from the valid pieces only */
		for (int k = 0; k < n; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t lim = clean ? 29 : np;
			const char *pc = pieces[(seed >> 16) % lim];
			size_t l = strlen(pc);
			memcpy(pat + len, pc, l);
			len += l;
		}
		pat[len] = '\0';
		int code;
		PCRE2_SIZE off;
		pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, PCRE2_UTF,
					       &code, &off, NULL);
		char why[200];
		bool ours = fl_pattern_compiles(pat, why, sizeof why);
		if (ours != (re != NULL))
			fail_msg("pattern \"%s\": ours %d, pcre2 %d", pat, ours, re != NULL);
		if (re)
			fast_ok++;
		else
			rejected++;
		pcre2_code_free(re);
	}
	assert_true(fast_ok > 10000 && rejected > 1000);
	/* long literal patterns: up to the fast path's limit and past it */
	for (size_t l = 3990; l <= 4010; l++) {
		memset(pat, 'x', l);
		pat[l] = '\0';
		assert_true(fl_pattern_compiles(pat, NULL, 0));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memmem_matches_plain_search),
		cmocka_unit_test(test_zalloc_huge),
		cmocka_unit_test(test_id_spec_examples),
		cmocka_unit_test(test_record_text),
		cmocka_unit_test(test_id_code_wins_over_message),
		cmocka_unit_test(test_slug_rules),
		cmocka_unit_test(test_slug_non_ascii),
		cmocka_unit_test(test_slug_collision_suffix),
		cmocka_unit_test(test_pattern_spec_examples),
		cmocka_unit_test(test_pattern_placeholders),
		cmocka_unit_test(test_pattern_fallbacks),
		cmocka_unit_test(test_pattern_non_ascii_and_compiles),
		cmocka_unit_test(test_window_middle),
		cmocka_unit_test(test_window_file_start_end_short),
		cmocka_unit_test(test_permalink),
		cmocka_unit_test(test_describe_code_spans),
		cmocka_unit_test(test_valid_entry_passes),
		cmocka_unit_test(test_validation_rules),
		cmocka_unit_test(test_json_roundtrip_and_order),
		cmocka_unit_test(test_json_strict),
		cmocka_unit_test(test_json_compact_writer_matches_jansson),
		cmocka_unit_test(test_json_escape_random),
		cmocka_unit_test(test_utf8_valid_random),
		cmocka_unit_test(test_json_compact_writer_invalid_utf8),
		cmocka_unit_test(test_json_digest_and_splice),
		cmocka_unit_test(test_pattern_check_agrees_with_pcre2),
	};
	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
