/*
 * filter.c — which files a scan skips, and why: vendored, generated, build
 * output, docs/examples, tests, hidden folders, --exclude globs (by path),
 * and binary, minified, generated or over-1-MB content (by content).
 */
#define _GNU_SOURCE /* memmem */
#include "filter.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "../util.h"

const char *fl_skip_name(int rule)
{
	static const char *const names[FL_SKIP_MAX] = {
		[FL_SKIP_FOLDER] = "vendored/build/docs/example folders",
		[FL_SKIP_TEST] = "tests",
		[FL_SKIP_HIDDEN] = "hidden folders",
		[FL_SKIP_EXCLUDED] = "--exclude",
		[FL_SKIP_GENERATED] = "generated",
		[FL_SKIP_MINIFIED] = "minified",
		[FL_SKIP_BINARY] = "binary",
		[FL_SKIP_LARGE] = "over 1 MB",
		[FL_SKIP_LANGUAGE] = "not a supported language",
		[FL_SKIP_UNREADABLE] = "unreadable",
		[FL_SKIP_NAME] = "name not a filePath",
	};
	return rule >= 0 && rule < FL_SKIP_MAX ? names[rule] : "?";
}

static const char *const skip_dirs[] = {
	"node_modules", "bower_components", "jspm_packages", "vendor",
	"vendors", "_vendor", /* Python's vendored packages (pip, setuptools) */ "third_party", "third-party", "thirdparty", "external",
	"obj", "site-packages",
	"testdata", "test-data", "fixtures", "__fixtures__", "mocks", "__mocks__",
	"docs", "doc", "docs_src", "docs-src", "examples", "example", "_examples", "_example",
	"samples", "sample", "_samples", "demos", "_demos", "_demo",
	"demo", "benchmarks", "benchmark", "bench", "benches", "__pycache__", "Pods",
	"coverage", NULL,
};

/* Build output, unless below a folder named src: there they are packages
 * of the code (Go's src/go/build and src/cmd/dist, pip's
 * src/pip/_internal/operations/build, rustup's src/dist). */
static const char *const output_dirs[] = {
	"dist", "build", "out", "target", "_build", NULL,
};

static const char *const test_dirs[] = {
	"test", "tests", "spec", "specs", "__tests__", "__test__", "testing",
	"androidTest", "t", "e2e", "integration-tests", "unittests",
	/* helpers only tests use (Go's testutil, Rust's test_helpers) */
	"testutil", "testutils", "test_utils", "test-utils", "test_helpers",
	"test-helpers", "testhelpers", NULL,
};

static bool in(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && memcmp(*list, s, n) == 0)
			return true;
	return false;
}

/* Documentation, example and benchmark folders in any case ("Docs",
 * "Samples": .NET and Java trees name folders in PascalCase) and .NET
 * projects of them ("Polly.Benchmarks", "Foo.Samples"). */
static bool docs_dir(const char *s, size_t n)
{
	static const char *const names[] = {
		"docs", "doc", "examples", "example", "samples", "sample", "demos",
		"demo", "benchmarks", "benchmark", NULL,
	};
	for (const char *const *l = names; *l; l++)
		if (strlen(*l) == n && strncasecmp(*l, s, n) == 0)
			return true;
	static const char *const suffixes[] = {".Benchmarks", ".Benchmark", ".Samples",
					       ".Sample", ".Examples", ".Example",
					       ".Demo", ".Demos", ".Docs", NULL};
	for (const char *const *x = suffixes; *x; x++) {
		size_t l = strlen(*x);
		if (n > l && memcmp(s + n - l, *x, l) == 0)
			return true;
	}
	return false;
}

/* a test folder: "tests", "Tests", "__tests__", and .NET-style project
 * folders "Foo.Tests", "Foo.UnitTests", "Foo.IntegrationTests" */
static bool test_dir(const char *s, size_t n)
{
	for (const char *const *l = test_dirs; *l; l++)
		if (strlen(*l) == n && strncasecmp(*l, s, n) == 0)
			return true;
	static const char *const suffixes[] = {".Tests", ".Test", ".UnitTests",
					       ".IntegrationTests", ".Specs", NULL};
	for (const char *const *x = suffixes; *x; x++) {
		size_t l = strlen(*x);
		if (n > l && memcmp(s + n - l, *x, l) == 0)
			return true;
	}
	return false;
}

/* a Gradle / Kotlin Multiplatform source set of tests, directly under
 * src/: jvmTest, commonTest, androidUnitTest, integrationTest,
 * testFixtures (src/main, src/commonMain... are code) */
static bool gradle_test_set(const char *s, size_t n)
{
	if (n == 12 && memcmp(s, "testFixtures", 12) == 0)
		return true;
	return n > 4 && memcmp(s + n - 4, "Test", 4) == 0 && s[n - 5] >= 'a' && s[n - 5] <= 'z';
}

static bool excluded(const char *path, const fl_scan_opts *o)
{
	for (size_t i = 0; i < o->n_excludes; i++) {
		const char *g = o->excludes[i];
		if (fnmatch(g, path, 0) == 0)
			return true;
		const char *base = strrchr(path, '/');
		if (fnmatch(g, base ? base + 1 : path, 0) == 0)
			return true;
		/* a glob naming a folder excludes what is below it */
		size_t gl = strlen(g);
		char *dir = fl_xstrdup(path);
		for (char *p = dir; *p; p++) {
			if (*p != '/')
				continue;
			*p = '\0';
			bool m = fnmatch(g, dir, 0) == 0 ||
				 (gl && g[gl - 1] == '/' && strncmp(g, dir, gl - 1) == 0 &&
				  dir[gl - 1] == '\0');
			*p = '/';
			if (m) {
				free(dir);
				return true;
			}
		}
		free(dir);
	}
	return false;
}

static bool generated_name(const char *base)
{
	static const char *const suffixes[] = {
		".pb.go", ".pb.cc", ".pb.h", "_pb2.py", "_pb2_grpc.py", ".pb.rs",
		".g.cs", ".designer.cs", ".Designer.cs", ".generated.cs",
		"_generated.go", "_generated.rs", ".gen.go", "_gen.go",
		"bindata.go", ".pb.swift", "_grpc.pb.go", ".min.js", ".min.mjs",
		".bundle.js", "-min.js", NULL,
	};
	for (const char *const *s = suffixes; *s; s++)
		if (fl_str_ends(base, *s))
			return true;
	return strstr(base, ".generated.") != NULL;
}

/* folder_rule(): the only test folder on the path is one named `test`
 * below the tree's top: a test folder, or a package like any other for a
 * language whose tests are marked by file name (fl_lang's
 * test_folder_is_package) */
#define RULE_TEST_PACKAGE (FL_SKIP_MAX + 1)
/* A documentation, example or benchmark folder below a src folder
 * (hyperfine's src/benchmark, Go's src/cmd/doc): a module of the code in
 * a language whose source folders are its modules (the language table's
 * docs_folder_is_package), else skipped.  With a test package above or
 * below it: both (RULE_TEST_PACKAGE | RULE_DOCS_PACKAGE). */
#define RULE_DOCS_PACKAGE (FL_SKIP_MAX + 2)
#define RULE_BOTH_PACKAGE (FL_SKIP_MAX + 3)

/* the folders docs_dir() names, and the short benchmark names */
static bool docs_or_bench_dir(const char *s, size_t n)
{
	return docs_dir(s, n) || (n == 5 && memcmp(s, "bench", 5) == 0) ||
	       (n == 7 && memcmp(s, "benches", 7) == 0);
}

/* The rule the folders of path[0..n) (n just past a '/') fall under, or
 * -1: hidden, skipped and test folders (RULE_TEST_PACKAGE above). */
static int folder_rule(const char *path, size_t n, bool include_tests)
{
	const char *p = path, *end = path + n;
	bool under_src = false, in_src = false, test_package = false, docs_package = false;
	while (p < end) {
		const char *sl = memchr(p, '/', (size_t)(end - p));
		if (!sl)
			break;
		size_t l = (size_t)(sl - p);
		if (l && p[0] == '.')
			return FL_SKIP_HIDDEN;
		if (in_src && docs_or_bench_dir(p, l)) {
			docs_package = true;
			under_src = false;
			p = sl + 1;
			continue;
		}
		if (in(p, l, skip_dirs) || docs_dir(p, l) || (!in_src && in(p, l, output_dirs)))
			return FL_SKIP_FOLDER;
		if (!include_tests && p > path && l == 4 && memcmp(p, "test", 4) == 0)
			test_package = true; /* Go's cmd/go/internal/test */
		else if (!include_tests && (test_dir(p, l) || (under_src && gradle_test_set(p, l))))
			return FL_SKIP_TEST;
		/* src/jmh: JMH benchmarks */
		if (under_src && l == 3 && memcmp(p, "jmh", 3) == 0)
			return FL_SKIP_FOLDER;
		under_src = l == 3 && memcmp(p, "src", 3) == 0;
		in_src = in_src || under_src;
		p = sl + 1;
	}
	if (test_package && docs_package)
		return RULE_BOTH_PACKAGE;
	return test_package ? RULE_TEST_PACKAGE : docs_package ? RULE_DOCS_PACKAGE : -1;
}

/* The last folder each thread asked about: the files of a folder come one
 * after another, and the same folder's rule is the same. */
static _Thread_local struct {
	char dir[1024];
	size_t len;
	bool include_tests;
	int rule;
} last_folder = {.len = SIZE_MAX};

int fl_filter_path(const char *path, const fl_lang *lang,
		   const fl_scan_opts *o)
{
	if (o->n_excludes && excluded(path, o))
		return FL_SKIP_EXCLUDED;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t dl = (size_t)(base - path);
	int rule;
	if (last_folder.len == dl && last_folder.include_tests == o->include_tests &&
	    memcmp(last_folder.dir, path, dl) == 0) {
		rule = last_folder.rule;
	} else {
		rule = folder_rule(path, dl, o->include_tests);
		if (dl <= sizeof last_folder.dir) {
			memcpy(last_folder.dir, path, dl);
			last_folder.len = dl;
			last_folder.include_tests = o->include_tests;
			last_folder.rule = rule;
		}
	}
	if (rule == RULE_TEST_PACKAGE || rule == RULE_BOTH_PACKAGE) {
		bool docs = rule == RULE_BOTH_PACKAGE;
		rule = lang && lang->test_folder_is_package ? -1 : FL_SKIP_TEST;
		if (docs && rule < 0)
			rule = RULE_DOCS_PACKAGE;
	}
	if (rule == RULE_DOCS_PACKAGE)
		rule = lang && lang->docs_folder_is_package ? -1 : FL_SKIP_FOLDER;
	if (rule >= 0)
		return rule;
	if (!lang)
		return FL_SKIP_LANGUAGE;
	if (generated_name(base))
		return fl_str_ends(base, "js") ? FL_SKIP_MINIFIED : FL_SKIP_GENERATED;
	if (!o->include_tests && lang->is_test_file && lang->is_test_file(path))
		return FL_SKIP_TEST;
	return -1;
}

static bool has(const char *s, size_t n, const char *needle)
{
	return fl_memmem(s, n, needle, strlen(needle)) != NULL;
}

/* "Code generated" opening a comment line of s[0..n) (blanks, a comment
 * opener, blanks before it): Go's `// Code generated by X. DO NOT EDIT.`,
 * never the words in a string or documentation text (the go command's
 * help.go prints that line; generate.go documents its regular
 * expression). */
static bool code_generated_line(const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	while ((p = fl_memmem(p, (size_t)(end - p), "Code generated", 14)) != NULL) {
		const char *q = p;
		while (q > s && (q[-1] == ' ' || q[-1] == '\t'))
			q--;
		if (q - s >= 2 && (memcmp(q - 2, "//", 2) == 0 || memcmp(q - 2, "/*", 2) == 0 ||
				   memcmp(q - 2, "--", 2) == 0))
			q -= 2;
		else if (q > s && (q[-1] == '#' || q[-1] == '*' || q[-1] == ';'))
			q--;
		else
			q = NULL;
		while (q && q > s && (q[-1] == ' ' || q[-1] == '\t'))
			q--;
		if (q && (q == s || q[-1] == '\n' || q[-1] == '\r'))
			return true;
		p += 14;
	}
	return false;
}

/* Which of the generated-file markers' keys s[0..n) holds: "enerat" or
 * "ENERAT" (every marker but Bison's has one) and "Bison".  One pass for
 * the three (SSE2: their second and first bytes' pairs, 16 places at a
 * time) instead of a memmem() each: every file read pays this. */
enum { MK_GEN = 1, MK_BISON = 2 };
static int marker_keys(const char *s, size_t n)
{
	int found = 0;
	size_t q = 0;
#if defined(__SSE2__)
	const __m128i n_ = _mm_set1_epi8('n'), e_ = _mm_set1_epi8('e'),
		      N_ = _mm_set1_epi8('N'), E_ = _mm_set1_epi8('E'),
		      B_ = _mm_set1_epi8('B'), i_ = _mm_set1_epi8('i');
	for (; q + 17 <= n; q += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + q));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + q + 1));
		__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_and_si128(_mm_cmpeq_epi8(a, n_), _mm_cmpeq_epi8(b, e_)),
				     _mm_and_si128(_mm_cmpeq_epi8(a, N_), _mm_cmpeq_epi8(b, E_))),
			_mm_and_si128(_mm_cmpeq_epi8(a, B_), _mm_cmpeq_epi8(b, i_)));
		for (unsigned bits = (unsigned)_mm_movemask_epi8(m); bits; bits &= bits - 1) {
			size_t at = q + (size_t)__builtin_ctz(bits);
			if (s[at] == 'B') {
				if (at + 5 <= n && memcmp(s + at, "Bison", 5) == 0)
					found |= MK_BISON;
			} else if (at >= 1 && at + 5 <= n &&
				   (memcmp(s + at - 1, "enerat", 6) == 0 ||
				    memcmp(s + at - 1, "ENERAT", 6) == 0)) {
				found |= MK_GEN;
			}
		}
		if (found == (MK_GEN | MK_BISON))
			return found;
	}
	/* the rest (and the keys across it and the last block) below */
	q = q >= 5 ? q - 5 : 0;
#endif
	if (has(s + q, n - q, "enerat") || has(s + q, n - q, "ENERAT"))
		found |= MK_GEN;
	if (has(s + q, n - q, "Bison"))
		found |= MK_BISON;
	return found;
}

/* The bytes of s[0..n) in lines over FL_MINIFIED_LINE characters.  Lines
 * of source are short: a word at a time, bytes only where a word holds a
 * line break (one memchr per line cost more than the rest of the check). */
static size_t long_line_bytes(const char *s, size_t n)
{
	/* A line over 500 bytes spans a whole aligned 250-byte block (any
	 * run of 2w - 1 bytes does, for blocks of w): when every block holds
	 * a line break, there is none, and one memchr per block says so. */
	size_t k = 0;
	while (k + 250 <= n && memchr(s + k, '\n', 250))
		k += 250;
	if (k + 250 > n)
		return 0;
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull,
		       nls = 0x0a0a0a0a0a0a0a0aull;
	size_t total = 0, start = 0, i = 0;
	while (i < n) {
		if (i + 8 <= n) {
			uint64_t w;
			memcpy(&w, s + i, 8);
			uint64_t x = w ^ nls;
			if (!((x - ones) & ~x & highs)) {
				i += 8; /* no line break in these 8 bytes */
				continue;
			}
		}
		size_t e = i + 8 <= n ? i + 8 : n;
		for (; i < e; i++) {
			if (s[i] != '\n')
				continue;
			if (i - start > FL_MINIFIED_LINE)
				total += i - start;
			start = i + 1;
		}
	}
	if (n - start > FL_MINIFIED_LINE)
		total += n - start;
	return total;
}

int fl_filter_content(const char *text, size_t len)
{
	if (len > FL_MAX_FILE)
		return FL_SKIP_LARGE;
	size_t head = len < 8000 ? len : 8000;
	if (memchr(text, '\0', head))
		return FL_SKIP_BINARY;
	size_t gen = len < 2048 ? len : 2048;
	/* every marker below holds "enerat" or "ENERAT": one look for both
	 * before the seven */
	int keys = marker_keys(text, gen);
	bool maybe_gen = keys & MK_GEN;
	if (maybe_gen &&
	    ((has(text, gen, "DO NOT EDIT") && code_generated_line(text, gen)) ||
	     has(text, gen, "@generated") || has(text, gen, "<auto-generated") ||
	     has(text, gen, "Generated by the protocol buffer compiler") ||
	     has(text, gen, "This file is automatically generated") ||
	     has(text, gen, "AUTO-GENERATED FILE") ||
	     has(text, gen, "autogenerated file, do not edit") ||
	     has(text, gen, "A lexical scanner generated by flex")))
		return FL_SKIP_GENERATED;
	/* a parser written by Bison from a .y grammar (the grammar is the
	 * source: the C family scans it, lib/scan/c/yacc.c) */
	if ((keys & MK_BISON) && has(text, gen, "A Bison parser, made by GNU Bison"))
		return FL_SKIP_GENERATED;
	/* minified: most of the bytes sit in lines over 500 characters */
	if (long_line_bytes(text, len) * 2 > len)
		return FL_SKIP_MINIFIED;
	return -1;
}
