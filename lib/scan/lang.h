/*
 * lang.h — the contract between the scanner core and the language files.
 *
 * One language family = one file lib/scan/lang_<name>.c (or, once it has
 * grown past ~2,500 lines, a folder lib/scan/<name>/: lexer, rules, message
 * building) that defines one `const fl_lang fl_lang_<name>` and is listed
 * in langs.c.  A language file
 * owns its lexer (every string and comment form of its language) and its
 * rules (which token sequences raise an error).  It reports error sites
 * through fl_site_add(); the core turns sites into records (ids, slugs,
 * patterns, windows, permalinks, documentation) and stores them.
 *
 * The shared token model and helpers in lex.h let a lexer produce tokens and
 * a rule reconstruct messages from argument tokens without rewriting the
 * common logic.
 */
#ifndef FL_SCAN_LANG_H
#define FL_SCAN_LANG_H

#include <stdbool.h>
#include <stddef.h>

/* One source file handed to a language. */
typedef struct fl_src {
	const char *path;   /* repo-relative, '/' separators */
	const char *text;   /* contents; NOT NUL-terminated in general */
	size_t len;
	void *cache;        /* scan(): what collect_keep() kept of this file
			       (its tokens), or NULL; scan() frees it */
} fl_src;

/* errorType values */
#define FL_T_EXCEPTION "exception"
#define FL_T_ERROR_CODE "error_code"
#define FL_T_CONSOLE "console"
#define FL_T_HTTP "http"
#define FL_T_VALIDATION "validation"
#define FL_T_PANIC "panic"
/* severity values */
#define FL_S_CRITICAL "critical"
#define FL_S_ERROR "error"
#define FL_S_WARNING "warning"
#define FL_S_INFO "info"

/* One place that raises an error.  Strings are copied by fl_site_add(). */
typedef struct fl_site {
	int line, col;            /* 1-based position of the raising construct */
	const char *message;      /* errorMessage per records.md "Messages";
				     NULL or "" = no message: site dropped
				     unless code is set (then code is used) */
	const char *code;         /* errorCode or NULL */
	const char *cls;          /* errorClass or NULL */
	const char *type;         /* FL_T_* */
	const char *severity;     /* FL_S_* */
	int http;                 /* HTTP status or 0 */
	const char *function;     /* enclosing function/method, or NULL */
	const char *guard;        /* local guarding condition source text, or NULL */
	bool arm;                 /* the guard is a match/case arm's pattern
				     (the site runs when the value matches it) */
	bool early;               /* the guard comes from early exits before
				     the site (fl_early_guard): it says when the
				     line is reached, not what makes it fail */
	const char *idiom;        /* the construct, as written: "panic!",
				     "fmt.Errorf", "throw new", "raise" ... */
	const char *unit;         /* the package the file declares (Go's
				     package clause), or NULL: how a caller
				     qualifies the file's names */
} fl_site;

typedef struct fl_sites fl_sites; /* opaque collector owned by the core */

/* Record one site (all strings are copied). */
void fl_site_add(fl_sites *out, const fl_site *site);

typedef struct fl_lang {
	const char *name;                 /* family name for summaries: "rust" */
	const char *const *extensions;    /* NULL-terminated, with dot: ".rs" */
	/* Optional, NULL-terminated: the interpreters whose `#!` line marks
	 * a file whose name has no extension as the family's script (bin/lessc
	 * opening `#!/usr/bin/env node`): "node", "python" ...  A name
	 * matches with a version after it ("python3.11"). */
	const char *const *interpreters;
	/* Optional: true when a repo-relative path is a test file of this
	 * ecosystem by its *file name* (test folders are handled by the core). */
	bool (*is_test_file)(const char *path);
	/* Optional: true when a file of one of the extensions is data the
	 * family reads in its collect pass for the tree (a message bundle, a
	 * rule catalogue), not its source: read and collected, not counted
	 * among the language's files (its scan finds nothing in it). */
	bool (*data_file)(const char *path);
	/* Optional: the ecosystem marks its tests by file name, so a folder
	 * named `test` below the tree's top is a package like any other (Go's
	 * cmd/go/internal/test, the code of `go test`); only a top-level test/
	 * is a test folder.  scan() judges the files of such a folder itself
	 * (a test helper package's files). */
	bool test_folder_is_package;
	/* A documentation, example or benchmark folder below a src folder is
	 * a module of the code, as every folder of a Rust crate's src/ and
	 * of a Go tree is (hyperfine's src/benchmark, Go's src/cmd/doc, the
	 * code of `go doc`); elsewhere such folders are skipped. */
	bool docs_folder_is_package;
	/* The language's printf-style integer conversions (%d %u %x...)
	 * print only digits of their base: a lookup refuses a capture such a
	 * conversion cannot have printed (lookup.c captures_fit).  Not Go,
	 * whose %d prints a slice as "[1 2]", nor JavaScript, whose %d
	 * prints NaN. */
	bool printf_ints;
	/* An error value's text is formatted when the error is printed
	 * (Rust's Display arms and #[error], Go's Error() methods): the
	 * definition is the line that wrote the text a user sees, and a
	 * lookup ranks it before the lines that build the value (rank.c's
	 * late_text). */
	bool late_text;
	/* Optional per-tree state, for rules inferred from the whole tree (for
	 * example C's own reporter functions).  tree_new() is called once per
	 * scan; collect() is called on every file of the language before any
	 * scan() (serially, unless tree_merge is set: see below); scan() may then run on several threads at once and
	 * must treat the tree as read-only. */
	void *(*tree_new)(void);
	void (*tree_free)(void *tree);
	void (*collect)(void *tree, const fl_src *src);
	/* Optional, with collect(): lets collect() run on several threads.
	 * Each file is then collected into its own fresh tree_new() part (on
	 * any thread, as soon as the file is read), and tree_merge() folds the
	 * parts into the scan's tree serially, in file order, so the result is
	 * the same as collecting every file serially into one tree.  It may
	 * move content out of part; the core frees part with tree_free(). */
	void (*tree_merge)(void *tree, void *part);
	/* Optional, with tree_merge: collect() that also returns what its
	 * work on the file can save that file's scan() (its tokens), or
	 * NULL.  The core hands it to scan() in src->cache, or frees it with
	 * cache_free() when the file is not scanned; it asks for it only as
	 * long as the files kept so far are not too large. */
	void *(*collect_keep)(void *part, const fl_src *src);
	void (*cache_free)(void *cache);
	/* Optional, with tree_merge: collect() into part and, on the same
	 * tokens, scan() at once, while the file is read and before the tree
	 * is whole: the scan as if the tree held nothing, its sites into out.
	 * Returns the log of what the scan looked up in the tree (every
	 * lookup answered "none"), or NULL when it cannot tell (out is then
	 * ignored).  Once the tree is whole, early_holds(tree, log) says
	 * whether the tree answers "none" to every lookup of the log: then
	 * scan() would find the very same sites, and the core keeps them
	 * instead of reading and scanning the file again; else it scans it
	 * again.  early_free() frees a log.  hint: NULL, or the scan's
	 * hint_new(), shared by the threads of its read phase (the language
	 * locks it), where collect_scan() may note what the files so far
	 * declare, to tell a file whose scan would likely not stand (it then
	 * returns NULL, at no cost to the records). */
	void *(*collect_scan)(void *part, const fl_src *src, fl_sites *out, void *hint);
	bool (*early_holds)(const void *tree, const void *log);
	void (*early_free)(void *log);
	void *(*hint_new)(void);
	void (*hint_free)(void *hint);
	/* Find the sites of one file.  Must never crash or hang on any input:
	 * binary junk, invalid UTF-8, unterminated strings/comments, huge lines. */
	void (*scan)(const void *tree, const fl_src *src, fl_sites *out);
} fl_lang;

/* One file collected into tree as the core collects it (into its own part
 * when the language merges parts); returns what collect_keep() kept for
 * the file's scan, or NULL.  For tests and fuzz targets that scan one file
 * at a time. */
static inline void *fl_lang_collect_one(const fl_lang *L, void *tree, const fl_src *src)
{
	if (L->collect_keep && L->tree_merge && L->tree_new && L->tree_free) {
		void *part = L->tree_new();
		void *cache = L->collect_keep(part, src);
		L->tree_merge(tree, part);
		L->tree_free(part);
		return cache;
	}
	if (L->collect)
		L->collect(tree, src);
	return NULL;
}

/* The table (langs.c), NULL-terminated. */
extern const fl_lang *const fl_langs[];

/* Language for a path by extension, or NULL. */
const fl_lang *fl_lang_for_path(const char *path);

/* Whether path's name has no extension, so that its language may be told
 * by its first line (a script's `#!`). */
bool fl_lang_may_be_script(const char *path);

/* The family whose interpreter a file's opening `#!` line runs (head: the
 * file's first bytes), or NULL.  `#!/usr/bin/env [-S] [VAR=x] node`
 * names the program after env's options and assignments. */
const fl_lang *fl_lang_for_script(const char *head, size_t n);

/* The family of that name (fl_lang.name, a record's language), or NULL. */
const fl_lang *fl_lang_by_name(const char *name);

#endif
