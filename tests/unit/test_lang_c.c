/* test_lang_c.c — unit tests for the C / C++ family (lib/scan/c/). */
#include "lang_harness.h"
#include "util.h"

#include <stdlib.h>

extern const fl_lang fl_lang_c;

static fl_sites *scan(const char *path, const char *text)
{
	return harness_scan(&fl_lang_c, path, text);
}

static void test_cpp_throw(void **state)
{
	(void)state;
	const char *src =
		"#include <stdexcept>\n"                                  /* 1 */
		"namespace app {\n"                                       /* 2 */
		"class Parser {\n"                                        /* 3 */
		" public:\n"                                              /* 4 */
		"  void parse(const std::string &s) {\n"                  /* 5 */
		"    if (s.empty()) {\n"                                  /* 6 */
		"      throw std::invalid_argument(\"empty input\");\n"   /* 7 */
		"    }\n"                                                 /* 8 */
		"    auto f = [&](int x) { throw MyError(\"bad \" + s); };\n" /* 9 */
		"  }\n"                                                   /* 10 */
		"};\n"                                                    /* 11 */
		"void Parser::run(int n) {\n"                             /* 12 */
		"  if (n < 0) throw std::runtime_error(\"negative: \" + std::to_string(n));\n" /* 13 */
		"  throw ns::Oops{\"curly \\\"init\\\"\"};\n"             /* 14 */
		"  throw std::bad_alloc();\n"                             /* 15 */
		"  throw;\n"                                              /* 16 */
		"  throw err;\n"                                          /* 17 */
		"  throw std::runtime_error(msg);\n"                      /* 18 */
		"}\n"                                                     /* 19 */
		"}\n";
	fl_sites *s = scan("src/parser.cpp", src);
	const fl_site *x = EXPECT_SITE(s, "empty input", 7, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "std::invalid_argument");
	harness_expect_str(x->function, "Parser::parse");
	harness_expect_str(x->guard, "s.empty()");
	harness_expect_str(x->idiom, "throw");
	assert_string_equal(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "bad {s}", 9, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "MyError");
	harness_expect_str(x->function, "Parser::parse");
	harness_expect_str(x->guard, NULL);
	x = EXPECT_SITE(s, "negative: {n}", 13, FL_T_EXCEPTION);
	harness_expect_str(x->function, "Parser::run");
	harness_expect_str(x->guard, "n < 0");
	harness_expect_str(x->cls, "std::runtime_error");
	x = EXPECT_SITE(s, "curly \"init\"", 14, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ns::Oops");
	x = EXPECT_SITE(s, "std::bad_alloc", 15, FL_T_EXCEPTION);
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
}

/* A report in an else's block, or after `} else`, is guarded by its if's
 * condition, turned: it runs when that condition does not hold (the last
 * if of an else-if chain) */
static void test_c_else_guards(void **state)
{
	(void)state;
	const char *src =
		"int meta(int c, const char *cmd, int nArg)\n"                 /* 1 */
		"{\n"                                                          /* 2 */
		"\tif (c == 'n' && strcmp(cmd, \"nullvalue\") == 0) {\n"       /* 3 */
		"\t\tif (nArg == 2) {\n"                                       /* 4 */
		"\t\t\tset(cmd);\n"                                            /* 5 */
		"\t\t} else {\n"                                               /* 6 */
		"\t\t\tfprintf(stderr, \"Usage: .nullvalue STRING\\n\");\n"    /* 7 */
		"\t\t}\n"                                                      /* 8 */
		"\t} else if (c == 'o') {\n"                                   /* 9 */
		"\t\tif (nArg > 3) {\n"                                        /* 10 */
		"\t\t\tone();\n"                                               /* 11 */
		"\t\t} else if (nArg == 0) {\n"                                /* 12 */
		"\t\t\ttwo();\n"                                               /* 13 */
		"\t\t} else\n"                                                 /* 14 */
		"\t\t\tfprintf(stderr, \"bad output count %d\\n\", nArg);\n"   /* 15 */
		"\t} else {\n"                                                 /* 16 */
		"\t\tif (ok(c)) {\n"                                           /* 17 */
		"\t\t\treturn 0;\n"                                            /* 18 */
		"\t\t}\n"                                                      /* 19 */
		"\t\tfprintf(stderr, \"unknown command: %s\\n\", cmd);\n"      /* 20 */
		"\t}\n"                                                        /* 21 */
		"\treturn 1;\n"                                                /* 22 */
		"}\n";
	fl_sites *s = scan("src/shell.c", src);
	const fl_site *x = EXPECT_SITE(s, "Usage: .nullvalue STRING", 7, FL_T_CONSOLE);
	/* ... and inside another if's block, by that if's condition too (the
	 * command a shell's dispatch compared) */
	harness_expect_str(x->guard, "c == 'n' && strcmp(cmd, \"nullvalue\") == 0 && nArg != 2");
	x = EXPECT_SITE(s, "bad output count %d", 15, FL_T_CONSOLE);
	harness_expect_str(x->guard, "c == 'o' && nArg != 0");
	/* an else block of a chain: the last condition, turned */
	x = EXPECT_SITE(s, "unknown command: %s", 20, FL_T_CONSOLE);
	harness_expect_str(x->guard, "c != 'o'");
	fl_sites_free(s);
}

/* A print after early exits is reached only when none is taken: each `if
 * (c) return;` of a void function before it says "!c".  An exit that
 * returns a value (`return 0;`, `return false;`: often a failure) or a
 * body that reports an error first is no way round the print. */
static void test_c_early_exits(void **state)
{
	(void)state;
	fl_sites *s = scan("src/cache.c",
		"void flush(struct cache *c, int force)\n"                  /* 1 */
		"{\n"                                                      /* 2 */
		"\tif (c == NULL)\n"                                       /* 3 */
		"\t\treturn;\n"                                            /* 4 */
		"\tif (c->dirty == 0 && !force) {\n"                       /* 5 */
		"\t\tc->skipped++;\n"                                      /* 6 */
		"\t\treturn;\n"                                            /* 7 */
		"\t}\n"                                                    /* 8 */
		"\tif (c->fd < 0) {\n"                                     /* 9 */
		"\t\tfprintf(stderr, \"error: no file\\n\");\n"            /* 10 */
		"\t\treturn;\n"                                            /* 11 */
		"\t}\n"                                                    /* 12 */
		"\tfprintf(stderr, \"error: cache %s not flushed\\n\", c->name);\n" /* 13 */
		"}\n"                                                      /* 14 */
		"int load(struct cache *c)\n"                              /* 15 */
		"{\n"                                                      /* 16 */
		"\tif (c->size == 0)\n"                                    /* 17 */
		"\t\treturn 0;\n"                                          /* 18 */
		"\tfprintf(stderr, \"error: cache too big\\n\");\n"        /* 19 */
		"\treturn -1;\n"                                           /* 20 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "error: cache %s not flushed", 13, FL_T_CONSOLE);
	harness_expect_str(x->guard, "c != NULL && !(c->dirty == 0 && !force)");
	assert_true(x->early);
	x = EXPECT_SITE(s, "error: cache too big", 19, FL_T_CONSOLE);
	harness_expect_str(x->guard, NULL);
	fl_sites_free(s);
}

/* An else after an unbraced if's statement (`if (c) a(); else ...`) is
 * guarded by that if's condition, turned, as after a brace */
static void test_c_unbraced_else(void **state)
{
	(void)state;
	const char *src =
		"int count(int n, const char *name)\n"                              /* 1 */
		"{\n"                                                               /* 2 */
		"\tif (n == 1) use(name, f(n)); else fprintf(stderr, \"wrong count %d\\n\", n);\n" /* 3 */
		"\tif (n > 2)\n"                                                    /* 4 */
		"\t\tuse(name, 2);\n"                                              /* 5 */
		"\telse {\n"                                                        /* 6 */
		"\t\tfprintf(stderr, \"too few for %s\\n\", name);\n"           /* 7 */
		"\t}\n"                                                             /* 8 */
		"\treturn 0;\n"                                                     /* 9 */
		"}\n";
	fl_sites *s = scan("src/count.c", src);
	const fl_site *x = EXPECT_SITE(s, "wrong count %d", 3, FL_T_CONSOLE);
	harness_expect_str(x->guard, "n != 1");
	x = EXPECT_SITE(s, "too few for %s", 7, FL_T_CONSOLE);
	harness_expect_str(x->guard, "n <= 2");
	fl_sites_free(s);
}

/* A macro of the file whose body reports a text of its own reports it
 * again at each use, with the use's line and guard; a macro that reports
 * what it is given stays a reporter */
static void test_c_macro_uses(void **state)
{
	(void)state;
	const char *src =
		"#define NEXT_UINT(v) { \\\n"                                          /* 1 */
		"    v = readU32(&arg); \\\n"                                          /* 2 */
		"    if (*arg != 0) { \\\n"                                            /* 3 */
		"        errorOut(\"error: only numeric values are allowed\"); \\\n"   /* 4 */
		"    } \\\n"                                                           /* 5 */
		"}\n"                                                                  /* 6 */
		"#define CHECK(cond, ...) do { if (!(cond)) { \\\n"                    /* 7 */
		"    fprintf(stderr, \"CHECK(%s) failed: \", #cond); \\\n"             /* 8 */
		"    fprintf(stderr, \"\" __VA_ARGS__); exit(1); } } while (0)\n"      /* 9 */
		"int parse(const char *arg)\n"                                          /* 10 */
		"{\n"                                                                  /* 11 */
		"\tif (longCommand(&arg, \"--memory\")) { NEXT_UINT(mem); return 0; }\n" /* 12 */
		"\tif (longCommand(&arg, \"--maxdict\")) { NEXT_UINT(maxd); return 0; }\n" /* 13 */
		"\tCHECK(arg != NULL, \"Allocation failed\");\n"                        /* 14 */
		"\treturn 1;\n"                                                        /* 15 */
		"}\n";
	fl_sites *s = scan("programs/cli.c", src);
	size_t uses = 0;
	for (size_t k = 0; k < s->n; k++) {
		const fl_site *x = &s->v[k];
		if (!x->message || strcmp(x->message, "error: only numeric values are allowed") != 0)
			continue;
		if (x->line == 12) {
			harness_expect_str(x->guard, "longCommand(&arg, \"--memory\")");
			harness_expect_str(x->idiom, "NEXT_UINT");
			uses++;
		} else if (x->line == 13) {
			harness_expect_str(x->guard, "longCommand(&arg, \"--maxdict\")");
			uses++;
		}
	}
	assert_int_equal(uses, 2);
	/* the body's own site stays */
	EXPECT_SITE(s, "error: only numeric values are allowed", 4, FL_T_CONSOLE);
	/* CHECK reports the text it is given, when its condition fails */
	const fl_site *x = EXPECT_SITE(s, "Allocation failed", 14, FL_T_CONSOLE);
	harness_expect_str(x->guard, "arg == NULL");
	fl_sites_free(s);
}

/* A statement of a switch's case is guarded by the case's labels, a
 * default by none of the switch's labels (up to sixteen; past that "_", the
 * arm that matched no other), a braced case body
 * alike, an if of the case's own within them */
static void test_c_switch_guards(void **state)
{
	(void)state;
	const char *src =
		"int opt(int c, int bad, int k)\n"                                  /* 1 */
		"{\n"                                                               /* 2 */
		"\tswitch (c) {\n"                                                  /* 3 */
		"\tcase 'a':\n"                                                     /* 4 */
		"\tcase 'b': {\n"                                                   /* 5 */
		"\t\tfprintf(stderr, \"option a or b is not supported\\n\");\n"  /* 6 */
		"\t\treturn 1;\n"                                                  /* 7 */
		"\t}\n"                                                             /* 8 */
		"\tcase 'q':\n"                                                     /* 9 */
		"\t\tif (bad)\n"                                                   /* 10 */
		"\t\t\tfprintf(stderr, \"quiet mode is refused here\\n\");\n"  /* 11 */
		"\t\tswitch (k) { case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9:"
		" case 10: case 11: case 12: case 13: case 14: case 15: case 16: case 17:\n"  /* 12 */
		"\t\t\tfprintf(stderr, \"too many labels to spell out\\n\");"
		" default: fprintf(stderr, \"none of seventeen labels\\n\"); }\n" /* 13 */
		"\t\treturn 2;\n"                                                  /* 14 */
		"\tdefault:\n"                                                      /* 15 */
		"\t\tfprintf(stderr, \"unknown option %c\\n\", c);\n"            /* 16 */
		"\t}\n"                                                             /* 17 */
		"\treturn 0;\n"                                                     /* 18 */
		"}\n";
	fl_sites *s = scan("src/opt.c", src);
	const fl_site *x = EXPECT_SITE(s, "option a or b is not supported", 6, FL_T_CONSOLE);
	harness_expect_str(x->guard, "c == 'a' || c == 'b'");
	x = EXPECT_SITE(s, "quiet mode is refused here", 11, FL_T_CONSOLE);
	harness_expect_str(x->guard, "c == 'q' && bad");
	x = EXPECT_SITE(s, "too many labels to spell out", 13, FL_T_CONSOLE);
	assert_null(x->guard);
	/* the default of more labels than that: the arm that matched none */
	x = EXPECT_SITE(s, "none of seventeen labels", 13, FL_T_CONSOLE);
	harness_expect_str(x->guard, "_");
	x = EXPECT_SITE(s, "unknown option %c", 16, FL_T_CONSOLE);
	harness_expect_str(x->guard, "c != 'a' && c != 'b' && c != 'q'");
	fl_sites_free(s);
}

/* A macro defined in several files of a tree (zstd defines DISPLAYLEVEL
 * in a dozen, one of them through another macro) is read as the file that
 * uses it defines it: its verbosity argument gives the severity */
static void test_c_file_macros_first(void **state)
{
	(void)state;
	static const char *const a =
		"#define LOCALDISPLAYLEVEL(lvl, l, ...) if (lvl >= l) { fprintf(stderr, __VA_ARGS__); }\n"
		"#define DISPLAYLEVEL(l, ...) LOCALDISPLAYLEVEL(g_displayLevel, l, __VA_ARGS__)\n";
	static const char *const b =
		"#define DISPLAY(...) fprintf(stderr, __VA_ARGS__)\n"                     /* 1 */
		"#define DISPLAYLEVEL(l, ...) { if (g_displayLevel>=l) { DISPLAY(__VA_ARGS__); } }\n" /* 2 */
		"int parse(const char *s)\n"                                              /* 3 */
		"{\n"                                                                     /* 4 */
		"\tif (!s) { DISPLAYLEVEL(4, \"invalid compression parameter \\n\"); return 0; }\n" /* 5 */
		"\tif (*s == '-') { DISPLAYLEVEL(2, \"ignoring a dash in the parameter \\n\"); }\n" /* 6 */
		"\tDISPLAYLEVEL(1, \"unknown parameter %s \\n\", s);\n"                   /* 7 */
		"\treturn 1;\n"                                                          /* 8 */
		"}\n";
	fl_src files[2] = {{"lib/cover.c", a, strlen(a), NULL}, {"programs/cli.c", b, strlen(b), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_c, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "invalid compression parameter", 5, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_INFO);
	x = EXPECT_SITE(s, "ignoring a dash in the parameter", 6, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "unknown parameter %s", 7, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	fl_sites_free(s);
}

/* A printer that returns nothing and prints what it formats at the level
 * its caller gives (xz's `void message(enum message_verbosity v, const char
 * *fmt, ...)`, gated by v in vmessage()): a call at an error or warning
 * level is a site of that severity, one at a verbose level none; a void
 * formatter given no level (strbuf_addf-like), a kind that only ends in a
 * level's word or holds one inside another word (CHERRY) is none. */
static void test_c_level_printer(void **state)
{
	(void)state;
	const char *a =
		"static int verbosity = 2;\n"
		"static void vmessage(enum message_verbosity v, const char *fmt, va_list ap)\n"
		"{\n"
		"\tif (v <= verbosity) {\n"
		"\t\tfprintf(stderr, \"%s: \", progname);\n"
		"\t\tvfprintf(stderr, fmt, ap);\n"
		"\t}\n"
		"}\n"
		"extern void\n"
		"message(enum message_verbosity v, const char *fmt, ...)\n"
		"{\n"
		"\tva_list ap;\n"
		"\tva_start(ap, fmt);\n"
		"\tvmessage(v, fmt, ap);\n"
		"\tva_end(ap);\n"
		"}\n"
		"void buf_addf(struct buf *b, const char *fmt, ...)\n"
		"{\n"
		"\tva_list ap;\n"
		"\tva_start(ap, fmt);\n"
		"\tbuf_vaddf(b, fmt, ap);\n"
		"\tva_end(ap);\n"
		"}\n";
	const char *b =
		"static void setup(int raw, int t)\n"                                    /* 1 */
		"{\n"                                                                    /* 2 */
		"\tif (raw)\n"                                                          /* 3 */
		"\t\tmessage(V_WARNING, _(\"Using a preset in raw mode is discouraged.\"));\n" /* 4 */
		"\tmessage(V_ERROR, _(\"Memory usage limit is too low for the filters.\"));\n" /* 5 */
		"\tmessage(V_VERBOSE, _(\"Using up to %d threads.\"), t);\n"             /* 6 */
		"\tbuf_addf(&sb, \"could not open the output file\");\n"                /* 7 */
		"\tmessage(ADVICE_MERGE_CONFLICT_ERROR, \"resolve the merge conflict first\");\n" /* 8 */
		"\tmessage(SKIPPED_CHERRY_PICKS, \"use --keep to include skipped commits\");\n" /* 9 */
		"}\n";
	fl_src files[2] = {{"src/message.c", a, strlen(a), NULL}, {"src/coder.c", b, strlen(b), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_c, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "Using a preset in raw mode is discouraged.", 4, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	harness_expect_str(x->guard, "raw");
	x = EXPECT_SITE(s, "Memory usage limit is too low for the filters.", 5, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	for (int line = 6; line <= 9; line++)
		if (harness_find_line(s, line))
			fail_msg("line %d is no report", line);
	fl_sites_free(s);
}

/* A reporting macro that tests one of its parameters before it reports
 * (zstd's ERROR_IF(c, n, ...), RETURN_ERROR_IF(cond, err, ...)) reports
 * at a call when that argument holds: the argument is the call's guard,
 * with the if around the call too */
static void test_c_macro_conditions(void **state)
{
	(void)state;
	const char *src =
		"#define DISPLAY(...) fprintf(stderr, __VA_ARGS__)\n"          /* 1 */
		"#define ERROR_IF(c,n,...) {             \\\n"              /* 2 */
		"    if (c) {                           \\\n"               /* 3 */
		"        DISPLAY(__VA_ARGS__);          \\\n"               /* 4 */
		"        return n;                      \\\n"               /* 5 */
		"    }                                  \\\n"               /* 6 */
		"}\n"                                                          /* 7 */
		"#define RETURN_ERROR_IF(cond, err, ...) \\\n"              /* 8 */
		"  if (cond) { \\\n"                                         /* 9 */
		"    report_error(err, __VA_ARGS__); \\\n"                   /* 10 */
		"    return err; \\\n"                                       /* 11 */
		"  }\n"                                                        /* 12 */
		"#define LOG_IF_VERBOSE(l, ...) if (g_level >= l) { report_error(0, __VA_ARGS__); }\n" /* 13 */
		"void report_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));\n" /* 14 */
		"int list(unsigned n, const char **names, int flags)\n"        /* 15 */
		"{\n"                                                          /* 16 */
		"\tfor (unsigned u = 0; u < n; u++) {\n"                       /* 17 */
		"\t\tERROR_IF(!strcmp(names[u], \"-\"), 1, \"zstd: --list does not support reading from standard input\");\n" /* 18 */
		"\t}\n"                                                        /* 19 */
		"\tif (flags & 2)\n"                                           /* 20 */
		"\t\tRETURN_ERROR_IF(n > 100, 7, \"too many files: %u\", n);\n" /* 21 */
		"\tLOG_IF_VERBOSE(1, \"listing %u files now\", n);\n"          /* 22 */
		"\treturn 0;\n"                                                /* 23 */
		"}\n";
	fl_sites *s = scan("programs/fileio.c", src);
	const fl_site *x = EXPECT_SITE(s, "zstd: --list does not support reading from standard input", 18,
				       FL_T_CONSOLE);
	harness_expect_str(x->guard, "!strcmp(names[u], \"-\")");
	x = EXPECT_SITE(s, "too many files: %u", 21, FL_T_CONSOLE);
	harness_expect_str(x->guard, "flags & 2 && n > 100");
	/* a verbosity compared is no condition of the error */
	x = EXPECT_SITE(s, "listing %u files now", 22, FL_T_CONSOLE);
	assert_null(x->guard);
	fl_sites_free(s);
}

static void test_c_stdlib_idioms(void **state)
{
	(void)state;
	const char *src =
		"#include <err.h>\n"                                         /* 1 */
		"int main(int argc, char **argv)\n"                          /* 2 */
		"{\n"                                                        /* 3 */
		"\tif (argc < 2)\n"                                          /* 4 */
		"\t\terrx(2, \"usage: %s file\", argv[0]);\n"                 /* 5 */
		"\tint fd = open(argv[1], O_RDONLY);\n"                      /* 6 */
		"\tif (fd < 0) err(1, \"cannot open %s\", argv[1]);\n"         /* 7 */
		"\twarnx(\"value %d is 100%% \"\n"                            /* 8 */
		"\t      \"too big\\n\", v);\n"                               /* 9 */
		"\twarn(\"read\");\n"                                         /* 10 */
		"\tperror(\"open failed\");\n"                                /* 11 */
		"\tfprintf(stderr, \"error: size %\" PRIu64 \" too big\\n\", sz);\n" /* 12 */
		"\tfprintf(stdout, \"not an error\\n\");\n"                    /* 13 */
		"\tfputs(\"out of memory\\n\", stderr);\n"                     /* 14 */
		"\tsyslog(LOG_ERR | LOG_DAEMON, \"daemon failed: %m\");\n"     /* 15 */
		"\tsyslog(LOG_INFO, \"started ok\");\n"                        /* 16 */
		"\tsyslog(LOG_WARNING, \"low disk\");\n"                       /* 17 */
		"\tsyslog(LOG_CRIT, \"disk on fire\");\n"                      /* 18 */
		"\tfprintf(stderr, \"%s\\n\", msg);\n"                         /* 19 */
		"\tfprintf(stderr, _(\"translated %s\"), x);\n"                /* 20 */
		"\tfprintf(stderr, \"took %\" CURL_FORMAT_TIMEDIFF_T \" ms: %s\\n\", t, m);\n" /* 21 */
		"\tfprintf(stderr, \"at 100%%\" SUFFIX_TEXT \" now\\n\");\n" /* 22 */
		"}\n";
	fl_sites *s = scan("src/main.c", src);
	const fl_site *x = EXPECT_SITE(s, "usage: %s file", 5, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	harness_expect_str(x->function, "main");
	harness_expect_str(x->guard, "argc < 2");
	harness_expect_str(x->idiom, "errx");
	x = EXPECT_SITE(s, "cannot open %s", 7, FL_T_CONSOLE);
	harness_expect_str(x->guard, "fd < 0");
	x = EXPECT_SITE(s, "value %d is 100% too big", 8, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "read", 10, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "open failed", 11, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	EXPECT_SITE(s, "error: size {PRIu64} too big", 12, FL_T_CONSOLE);
	/* any macro completing a '%' is the conversion, not after "%%" */
	EXPECT_SITE(s, "took {CURL_FORMAT_TIMEDIFF_T} ms: %s", 21, FL_T_CONSOLE);
	EXPECT_SITE(s, "at 100%{SUFFIX_TEXT} now", 22, FL_T_CONSOLE);
	assert_null(harness_find(s, "not an error"));
	EXPECT_SITE(s, "out of memory", 14, FL_T_CONSOLE);
	x = EXPECT_SITE(s, "daemon failed: %m", 15, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_null(harness_find(s, "started ok"));
	x = EXPECT_SITE(s, "low disk", 17, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "disk on fire", 18, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	EXPECT_SITE(s, "translated %s", 20, FL_T_CONSOLE);
	assert_int_equal(s->n, 13);
	fl_sites_free(s);
}

static void test_glib_pg_python(void **state)
{
	(void)state;
	const char *src =
		"static gboolean load(GError **error) {\n"                      /* 1 */
		"  g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,\n"          /* 2 */
		"              \"cannot load %s\", name);\n"                     /* 3 */
		"  g_warning(\"deprecated option\");\n"                          /* 4 */
		"  g_critical(\"invariant broken\");\n"                          /* 5 */
		"  g_error(\"fatal glib\");\n"                                   /* 6 */
		"  ereport(ERROR,\n"                                             /* 7 */
		"          (errcode(ERRCODE_INVALID_PARAMETER_VALUE),\n"         /* 8 */
		"           errmsg(\"invalid value \\\"%s\\\"\", v)));\n"        /* 9 */
		"  elog(FATAL, \"could not attach\");\n"                         /* 10 */
		"  elog(DEBUG1, \"debugging\");\n"                               /* 11 */
		"  elog(WARNING, \"odd state\");\n"                              /* 12 */
		"  ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY)));\n"          /* 13 */
		"  PyErr_SetString(PyExc_ValueError, \"bad value\");\n"          /* 14 */
		"  PyErr_Format(PyExc_TypeError, \"expected %.100s, got 50%%\", n);\n" /* 15 */
		"}\n";
	fl_sites *s = scan("ext/mod.c", src);
	const fl_site *x = EXPECT_SITE(s, "cannot load %s", 2, FL_T_EXCEPTION);
	harness_expect_str(x->function, "load");
	x = EXPECT_SITE(s, "deprecated option", 4, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "invariant broken", 5, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	x = EXPECT_SITE(s, "fatal glib", 6, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	x = EXPECT_SITE(s, "invalid value \"%s\"", 7, FL_T_EXCEPTION);
	harness_expect_str(x->code, "ERRCODE_INVALID_PARAMETER_VALUE");
	assert_string_equal(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "could not attach", 10, FL_T_EXCEPTION);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	assert_null(harness_find(s, "debugging"));
	x = EXPECT_SITE(s, "odd state", 12, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	/* code only */
	bool found = false;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].line == 13) {
			found = true;
			harness_expect_str(s->v[i].code, "ERRCODE_OUT_OF_MEMORY");
		}
	assert_true(found);
	x = EXPECT_SITE(s, "bad value", 14, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ValueError");
	x = EXPECT_SITE(s, "expected %.100s, got 50%", 15, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "TypeError");
	assert_int_equal(s->n, 10);
	fl_sites_free(s);
}

static void test_reporters(void **state)
{
	(void)state;
	const char *src =
		"static void die(const char *fmt, ...)\n"                        /* 1 */
		"    __attribute__((format(printf, 1, 2), noreturn));\n"         /* 2 */
		"void usage_error(int code, const char *fmt, ...)\n"             /* 3 */
		"    __attribute__((__format__(__printf__, 2, 3)));\n"           /* 4 */
		"void strbuf_addf(struct strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);\n" /* 5 */
		"G_GNUC_PRINTF(2, 3) void emit_report(int lvl, const char *fmt, ...);\n" /* 6 */
		"int run(void) {\n"                                               /* 7 */
		"  die(\"cannot continue: %s\", why);\n"                          /* 8 */
		"  usage_error(64, \"bad flag %c\", c);\n"                        /* 9 */
		"  strbuf_addf(&sb, \"not an error %d\", 1);\n"                   /* 10 */
		"  error(_(\"could not read '%s'\"), path);\n"                    /* 11 */
		"  BUG(\"unreachable state\");\n"                                 /* 12 */
		"  log_error(\"plain log\");\n"                                   /* 13 */
		"  diet(\"not a reporter\");\n"                                   /* 14 */
		"  errorCount(\"nope nope\");\n"                                  /* 15 */
		"  warning(\"careful now\");\n"                                   /* 16 */
		"  emit_report(LOG_WARN, \"disk %d%% full\", p);\n"               /* 17 */
		"  error(msg);\n"                                                 /* 18 */
		"  return die_errno(\"unable to write\");\n"                      /* 19 */
		"}\n";
	fl_sites *s = scan("tool.c", src);
	const fl_site *x = EXPECT_SITE(s, "cannot continue: %s", 8, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	harness_expect_str(x->idiom, "die");
	harness_expect_str(x->function, "run");
	x = EXPECT_SITE(s, "bad flag %c", 9, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_null(harness_find(s, "not an error %d"));
	x = EXPECT_SITE(s, "could not read '%s'", 11, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "unreachable state", 12, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	EXPECT_SITE(s, "plain log", 13, FL_T_CONSOLE);
	assert_null(harness_find(s, "not a reporter"));
	assert_null(harness_find(s, "nope nope"));
	x = EXPECT_SITE(s, "careful now", 16, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "disk %d% full", 17, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	EXPECT_SITE(s, "unable to write", 19, FL_T_CONSOLE);
	assert_int_equal(s->n, 8);
	fl_sites_free(s);
}

/* real-project findings (redis): camelCase reporter names, logging
 * functions that report only at an error/warning level, and macros that
 * forward to a reporter with extra leading arguments */
static void test_real_reporters(void **state)
{
	(void)state;
	const char *src =
		"void _serverLog(int level, const char *fmt, ...)\n"              /* 1 */
		"    __attribute__((format(printf, 2, 3)));\n"                     /* 2 */
		"void _serverPanic(const char *file, int line, const char *msg, ...)\n" /* 3 */
		"    __attribute__ ((format (printf, 3, 4)));\n"                   /* 4 */
		"#define serverLog(level, ...) do {\\\n"                           /* 5 */
		"        if (((level)&0xff) < server.verbosity) break;\\\n"        /* 6 */
		"        _serverLog(level, __VA_ARGS__);\\\n"                      /* 7 */
		"    } while(0)\n"                                                 /* 8 */
		"#define serverPanic(...) _serverPanic(__FILE__,__LINE__,__VA_ARGS__),redis_unreachable()\n" /* 9 */
		"void addReplyErrorFormat(client *c, const char *fmt, ...)\n"      /* 10 */
		"    __attribute__((format(printf, 2, 3)));\n"                     /* 11 */
		"void cmd(client *c) {\n"                                          /* 12 */
		"    serverLog(LL_WARNING, \"Can't open the AOF file %s\", fn);\n" /* 13 */
		"    serverLog(LL_NOTICE, \"Ready to accept connections\");\n"     /* 14 */
		"    serverPanic(\"Unknown btype %d\", t);\n"                      /* 15 */
		"    addReplyErrorFormat(c, \"Command '%s' not found\", n);\n"     /* 16 */
		"    addReplyError(c, \"timeout is out of range\");\n"             /* 17 */
		"    if (!checkIgnoreWarning(\"ARM64-COW-BUG\")) return;\n"        /* 18 */
		"    serverLogHexDump(LL_WARNING, \"dump of function\", p, l);\n"  /* 19 */
		"    logMessage(\"started the server\");\n"                        /* 20 */
		"    log_msg(LOG_ERR, \"disk is full\");\n"                        /* 21 */
		"    isErrorReply(\"-ERR not an error\");\n"                       /* 22 */
		"}\n"
		"#define CHECK_BUG(err, msg) do { int e = (err); if (e) serverPanic(\"%s: %s\", msg, strerror(e)); } while(0)\n" /* 24 */
		"void f(void) { CHECK_BUG(pthread_sigmask(0, &a, &b), \"blocking all signals\"); }\n"; /* 25 */
	fl_sites *s = scan("server.c", src);
	const fl_site *x = EXPECT_SITE(s, "Can't open the AOF file %s", 13, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "serverLog");
	harness_expect_str(x->function, "cmd");
	assert_null(harness_find(s, "Ready to accept connections"));
	x = EXPECT_SITE(s, "Unknown btype %d", 15, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	x = EXPECT_SITE(s, "Command '%s' not found", 16, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	EXPECT_SITE(s, "timeout is out of range", 17, FL_T_CONSOLE);
	assert_null(harness_find(s, "ARM64-COW-BUG"));
	assert_null(harness_find(s, "dump of function"));
	assert_null(harness_find(s, "started the server"));
	x = EXPECT_SITE(s, "disk is full", 21, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_null(harness_find(s, "-ERR not an error"));
	/* a macro that supplies the format itself: its literal argument */
	x = EXPECT_SITE(s, "blocking all signals", 25, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	assert_int_equal(s->n, 6);
	fl_sites_free(s);
}

/* a one-word compound reporter with a printf format attribute (faultline's
 * own fl_seterr); a formatting function that is not a reporter stays out */
static void test_compound_reporter(void **state)
{
	(void)state;
	const char *src =
		"int fl_seterr(fl_err *err, const char *fmt, ...)\n"                /* 1 */
		"    __attribute__((format(printf, 2, 3)));\n"                     /* 2 */
		"int setcolorf(struct term *t, const char *fmt, ...)\n"             /* 3 */
		"    __attribute__((format(printf, 2, 3)));\n"                     /* 4 */
		"int open_store(const char *path, fl_err *err) {\n"                /* 5 */
		"    if (busy(path))\n"                                            /* 6 */
		"        return fl_seterr(err, \"store %s: busy\", path);\n"       /* 7 */
		"    setcolorf(t, \"opening %s\", path);\n"                        /* 8 */
		"    return 0;\n"
		"}\n";
	fl_sites *s = scan("store.c", src);
	const fl_site *x = EXPECT_SITE(s, "store %s: busy", 7, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "fl_seterr");
	harness_expect_str(x->function, "open_store");
	assert_null(harness_find(s, "opening %s"));
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
}

/* the reporters and macros of the collect pass are found however their
 * declarations are spaced and commented (collect skips files by a byte
 * scan first, which must never skip one that declares a reporter) */
static void test_collect_odd_spacing(void **state)
{
	(void)state;
	const char *src =
		"int fl_seterr(fl_err *err, const char *fmt, ...)\n"                /* 1 */
		"    __attribute__((format(/* checked */ printf, 2, 3)));\n"       /* 2 */
		"int setnotef(const char *fmt, ...) __attribute__((format(\n"      /* 3 */
		"    printf, 1, 2)));\n"                                           /* 4 */
		"#  define   oops_at(...) \\\n"                                   /* 5 */
		"    fl_seterr(NULL, __VA_ARGS__)\n"                               /* 6 */
		"#define shout(f, ...) /* forwards\n"                              /* 7 */
		"   to the reporter */ fl_seterr(NULL, f, __VA_ARGS__)\n"          /* 8 */
		"void run(void) {\n"                                               /* 9 */
		"    fl_seterr(err, \"one %d\", 1);\n"                             /* 10: a literal argument shows in the text */
		"    oops_at(\"two %s\", x);\n"                                    /* 11 */
		"    shout(\"three %s\", y);\n"                                    /* 12 */
		"    setnotef(\"not a reporter %d\", 4);\n"                        /* 13 */
		"}\n";
	fl_sites *s = scan("odd.c", src);
	EXPECT_SITE(s, "one 1", 10, FL_T_CONSOLE);
	EXPECT_SITE(s, "two %s", 11, FL_T_CONSOLE);
	EXPECT_SITE(s, "three %s", 12, FL_T_CONSOLE);
	assert_null(harness_find(s, "not a reporter %d"));
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
}

/* real-project findings (curl, leveldb): printf-style names with a
 * trailing 'f', object-like aliases of reporters, compiler-diagnostic
 * macros, LevelDB/Abseil status returns */
/* A file scanned twice with the same tree finds the same sites (the
 * collect pass shares nothing with a file's scan). */
static void test_scanned_twice(void **state)
{
	(void)state;
	const char *src =
		"void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));\n"
		"void run(int x) {\n"
		"    if (x) die(\"bad value %d\", x);\n"
		"}\n";
	fl_src f = {"usage.c", src, strlen(src), NULL};
	void *tree = fl_lang_c.tree_new();
	void *part = fl_lang_c.tree_new();
	fl_lang_c.collect(part, &f);
	fl_lang_c.tree_merge(tree, part);
	fl_lang_c.tree_free(part);
	for (int round = 0; round < 2; round++) {
		fl_sites *s = fl_sites_new();
		fl_lang_c.scan(tree, &f, s);
		fl_sites_sort(s);
		const fl_site *x = EXPECT_SITE(s, "bad value %d", 3, FL_T_CONSOLE);
		harness_expect_str(x->guard, "x");
		assert_int_equal(s->n, 1);
		fl_sites_free(s);
	}
	fl_lang_c.tree_free(tree);
}

extern bool fl_c_collect_prefilter;

/* The byte scan that spares the collect pass most files never skips one
 * it would find a reporter or a reporting macro in: the same sites with
 * it and without it, on declarations and calls in every spacing. */
static void test_collect_prefilter(void **state)
{
	(void)state;
	static const char *const srcs[] = {
		"int a_seterr(int e, const char *f, ...) __attribute__((format (printf, 2, 3)));\n"
		"void run(void) { a_seterr(1, \"cannot open a %d\", 1); }\n",
		"/* TRANSLATORS: keep it */ printf(_(\"not a declaration\"));\n"
		"void run(void) { b_seterr(1, \"cannot open b %d\", 1); }\n",
		"int c_seterr(int e, const char *f, ...) __attribute__((format(printf /* x */, 2, 3)));\n"
		"void run(void) { c_seterr(1, \"cannot open c %d\", 1); }\n",
		"int d_seterr(int e, const char *f, ...) __attribute__((format(printf\\\n, 2, 3)));\n"
		"void run(void) { d_seterr(1, \"cannot open d %d\", 1); }\n",
		"int e_seterr(int e, const char *f, ...) PRINTF_LIKE(2, 3);\n"
		"void run(void) { e_seterr(1, \"cannot open e %d\", 1); }\n",
		"#define shout_at(...) fail_with(__FILE__, __VA_ARGS__)\n"
		"void run(void) { shout_at(\"cannot open f %d\", 1); }\n",
		"#define complain fail_with\n"
		"void run(void) { complain(\"cannot open g %d\", 1); }\n",
		"#define COUNT 3 /* error */\n"
		"void run(void) { h_seterr(1, \"cannot open h %d\", 1); printf(\"%d\", 2); }\n",
		"#define shout(f, ...) /* forwards\n   */ fail_with(NULL, f, __VA_ARGS__)\n"
		"void run(void) { shout(\"cannot open i %s\", y); }\n",
		/* a macro calling the reporter a use gives it */
		"#define OS(_t, _a, _f, _s) _t((_a), 0, (_f), (_s))\n"
		"void run(void) { OS(fatal, x, \"cannot open k %s\", y); }\n",
		/* a text table and a reporter found by what they do */
		"const char *t2s(int c) { switch (c) { case 1: return \"is bad\";\n"
		"  default: return \"is odd\"; } }\n"
		"void helpj(FILE *errs, const char *f, ...) { va_list ap; vfprintf(errs, f, ap); }\n"
		"void run(void) { helpj(errs, \"option j %s\", t2s(1)); }\n",
	};
	/* the byte scan has work to do: these are found through collect */
	size_t found = 0;
	for (size_t k = 0; k < sizeof srcs / sizeof srcs[0]; k++) {
		char *got[2];
		for (int on = 0; on < 2; on++) {
			fl_c_collect_prefilter = on;
			fl_sites *s = harness_scan(&fl_lang_c, "x.c", srcs[k]);
			fl_buf b = {0};
			for (size_t i = 0; i < s->n; i++)
				fl_buf_printf(&b, "%d %s|", s->v[i].line,
					      s->v[i].message ? s->v[i].message : "");
			fl_buf_cstr(&b);
			got[on] = b.s;
			fl_sites_free(s);
		}
		fl_c_collect_prefilter = true;
		assert_string_equal(got[0], got[1]);
		found += strlen(got[1]) > 0;
		free(got[0]);
		free(got[1]);
	}
	assert_true(found >= 6);
}

static void test_real_curl_leveldb(void **state)
{
	(void)state;
	const char *src =
		"void Curl_failf(struct Curl_easy *data,\n"                        /* 1 */
		"                const char *fmt, ...) CURL_PRINTF(2, 3);\n"       /* 2 */
		"#define failf Curl_failf\n"                                       /* 3 */
		"void errorf(const char *fmt, ...) CURL_PRINTF(1, 2);\n"          /* 4 */
		"void infof(const char *fmt, ...) CURL_PRINTF(1, 2);\n"           /* 5 */
		"#define CURLWARNING(id, message) \\\n"                            /* 6 */
		"  static void __attribute__((__warning__(message))) id(void)\n"  /* 7 */
		"CURLWARNING(Wsetopt_err_long, \"curl_easy_setopt expects a long argument\")\n" /* 8 */
		"Status Open(const std::string& dbname_) {\n"                      /* 9 */
		"  failf(data, \"Send failure: %s\", why);\n"                      /* 10 */
		"  errorf(\"too large --rate unit\");\n"                           /* 11 */
		"  infof(\"Connected to %s\", host);\n"                            /* 12 */
		"  if (bad) return Status::Corruption(\"bad block handle\");\n"   /* 13 */
		"  if (gone) return Status::InvalidArgument(dbname_, \"does not exist\");\n" /* 14 */
		"  if (x) return absl::InvalidArgumentError(\"negative size\");\n" /* 15 */
		"  return Status::OK();\n"                                         /* 16 */
		"}\n";
	fl_sites *s = scan("lib/sendf.c", src);
	const fl_site *x = EXPECT_SITE(s, "Send failure: %s", 10, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "failf");
	EXPECT_SITE(s, "too large --rate unit", 11, FL_T_CONSOLE);
	assert_null(harness_find(s, "Connected to %s"));
	assert_null(harness_find(s, "curl_easy_setopt expects a long argument"));
	x = EXPECT_SITE(s, "bad block handle", 13, FL_T_ERROR_CODE);
	harness_expect_str(x->code, "Corruption");
	harness_expect_str(x->cls, "Status");
	harness_expect_str(x->guard, "bad");
	x = EXPECT_SITE(s, "{dbname_}: does not exist", 14, FL_T_ERROR_CODE);
	harness_expect_str(x->code, "InvalidArgument");
	x = EXPECT_SITE(s, "negative size", 15, FL_T_ERROR_CODE);
	harness_expect_str(x->code, "InvalidArgument");
	harness_expect_str(x->cls, "absl::Status");
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
}

/* A report's %s argument followed to its texts across the tree: a text
 * table of another file (two tables of one name that disagree are not
 * followed), a reporter of another file that prints its format to an
 * error stream (not a tracer that does the same), a buffer a formatter
 * filled. */
static void test_arg_texts(void **state)
{
	(void)state;
	static const char *const a =
		"const char *p2t(int r) { switch (r) { case 1: return \"is unknown\";\n"
		"  case 2: return \"\"; default: return \"is ambiguous\"; } }\n"
		"const char *dup(int r) { if (r) return \"one\"; return \"two\"; }\n"
		"void helpx(FILE *errs, const char *fmt, ...) { va_list ap;\n"
		"  vfprintf(errs, fmt, ap); fputs(\"try --help for more\\n\", errs); }\n"
		"void trace_x(const char *fmt, ...) { va_list ap; vfprintf(stderr, fmt, ap); }\n";
	static const char *const b =
		"static const char *dup(int r) { if (r) return \"uno\"; return \"dos\"; }\n";
	static const char *const c =
		"int run(FILE *errs, int r, int v) {\n"                      /* 1 */
		"  const char *why = p2t(r);\n"                              /* 2 */
		"  char buf[32];\n"                                          /* 3 */
		"  helpx(errs, \"option %s: %s\", o, why);\n"               /* 4 */
		"  helpx(errs, \"pick %s\", dup(r));\n"                     /* 5 */
		"  msnprintf(buf, sizeof(buf), \"value %d too large\", v);\n" /* 6 */
		"  helpx(errs, \"%s\", buf);\n"                             /* 7 */
		"  trace_x(\"tracing value %d\", v);\n"                     /* 8 */
		"  helpx(errs, NULL);\n"                                     /* 9 */
		"  return 0; }\n";
	fl_src files[3] = {{"a.c", a, strlen(a), NULL}, {"b.c", b, strlen(b), NULL},
			   {"c.c", c, strlen(c), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_c, files, 3, 2);
	EXPECT_SITE(s, "option %s: is unknown", 4, FL_T_CONSOLE);
	EXPECT_SITE(s, "option %s: is ambiguous", 4, FL_T_CONSOLE);
	EXPECT_SITE(s, "option %s: %s", 4, FL_T_CONSOLE); /* p2t's "" */
	EXPECT_SITE(s, "pick %s", 5, FL_T_CONSOLE);
	EXPECT_SITE(s, "value %d too large", 7, FL_T_CONSOLE);
	EXPECT_SITE(s, "try --help for more", 9, FL_T_CONSOLE);
	assert_null(harness_find(s, "pick one"));
	assert_null(harness_find(s, "tracing value %d"));
	assert_int_equal(s->n, 6);
	fl_sites_free(s);
}

static void test_traps(void **state)
{
	(void)state;
	const char *src =
		"// throw std::runtime_error(\"line comment\");\n"
		"/* perror(\"block comment\");\n"
		"   die(\"still comment\"); */\n"
		"/** @brief calls fatal(\"doc comment\") */\n"
		"const char *s = \"perror(\\\"in string\\\")\";\n"
		"const char *r = R\"xx(throw std::logic_error(\"raw\"); )\" )xx\";\n"
		"char q = '\"'; int big = 1'000'000;\n"
		"// continued line comment \\\n"
		"perror(\"spliced comment\");\n"
		"#if 0\n"
		"perror(\"disabled code\");\n"
		"#endif\n"
		"#error don't perror(\"x\") here\n"
		"void f(void) { perror(\"real one\"); }\n";
	fl_sites *s = scan("trap.cc", src);
	if (s->n != 1)
		harness_dump(s);
	assert_int_equal(s->n, 1);
	const fl_site *x = EXPECT_SITE(s, "real one", 14, FL_T_CONSOLE);
	harness_expect_str(x->function, "f");
	fl_sites_free(s);
}

static void test_messages_and_macros(void **state)
{
	(void)state;
	const char *src =
		"#define CHECK(x) do { if (!(x)) die(\"check failed: \" #x); } while (0)\n" /* 1 */
		"#define OOPS() \\\n"                                              /* 2 */
		"    fatal(\"macro body \\\n"                                      /* 3 */
		"spliced\")\n"                                                     /* 4 */
		"#ifdef WIN32\n"                                                   /* 5 */
		"void g(void) {\n"                                                 /* 6 */
		"#else\n"                                                          /* 7 */
		"void g(int unused) {\n"                                           /* 8 */
		"#endif\n"                                                         /* 9 */
		"  fprintf(stderr, \"multi \"\n"                                   /* 10 */
		"                  \"line\\t\"\n"                                   /* 11 */
		"                  L\"wide\" u8\"\\u00e9\\x41\\101\");\n"            /* 12 */
		"  throw std::runtime_error(u8R\"(raw \\n kept)\");\n"             /* 13 */
		"}\n"                                                              /* 14 */
		"template <typename T> T Box<T>::get() const {\n"                  /* 15 */
		"  throw std::out_of_range(\"empty box\");\n"                      /* 16 */
		"}\n"
		"struct Pt { int x; } pts[] = {{1}, {2}};\n"
		"Widget::~Widget() { fputs(\"dtor failed\", stderr); }\n";         /* 19 */
	fl_sites *s = scan("m.cpp", src);
	const fl_site *x = EXPECT_SITE(s, "check failed: {x}", 1, FL_T_CONSOLE);
	harness_expect_str(x->guard, "!(x)");
	harness_expect_str(x->function, NULL);
	EXPECT_SITE(s, "macro body spliced", 3, FL_T_CONSOLE);
	x = EXPECT_SITE(s, "multi line\twide\xc3\xa9" "AA", 10, FL_T_CONSOLE);
	harness_expect_str(x->function, "g");
	x = EXPECT_SITE(s, "raw \\n kept", 13, FL_T_EXCEPTION);
	harness_expect_str(x->function, "g");
	x = EXPECT_SITE(s, "empty box", 16, FL_T_EXCEPTION);
	harness_expect_str(x->function, "Box::get");
	x = EXPECT_SITE(s, "dtor failed", 19, FL_T_CONSOLE);
	harness_expect_str(x->function, "Widget::~Widget");
	fl_sites_free(s);
}

/* A macro that prints its arguments to stderr is a reporter, unless its
 * name says it traces or debugs (zstd's UTIL_TRACE_CALL, DEBUGOUTPUT). */
static void test_trace_macros(void **state)
{
	(void)state;
	const char *src =
		"#define DISPLAY(...) fprintf(stderr, __VA_ARGS__)\n"                       /* 1 */
		"#define UTIL_TRACE_CALL(...) { if (g_trace) { DISPLAY(__VA_ARGS__); } }\n" /* 2 */
		"#define DEBUGOUTPUT(...) { if (DEBUG) DISPLAY(__VA_ARGS__); }\n"          /* 3 */
		"#define dbgPrint(...) fprintf(stderr, __VA_ARGS__)\n"                      /* 4 */
		"int stat_file(const char *f) {\n"                                          /* 5 */
		"  UTIL_TRACE_CALL(\"UTIL_stat(%s)\", f);\n"                                /* 6 */
		"  DEBUGOUTPUT(\"error: %s\", f);\n"                                        /* 7 */
		"  dbgPrint(\"stat of %s\", f);\n"                                          /* 8 */
		"  if (!f) { DISPLAY(\"cannot stat %s\", f); return 1; }\n"                 /* 9 */
		"  return 0;\n"
		"}\n";
	fl_sites *s = scan("util.c", src);
	EXPECT_SITE(s, "cannot stat %s", 9, FL_T_CONSOLE);
	assert_null(harness_find(s, "UTIL_stat(%s)"));
	assert_null(harness_find(s, "error: %s"));
	assert_null(harness_find(s, "stat of %s"));
	fl_sites_free(s);
}

static void test_is_test_file(void **state)
{
	(void)state;
	assert_true(fl_lang_c.is_test_file("src/foo_test.c"));
	assert_true(fl_lang_c.is_test_file("src/foo_test.cc"));
	assert_true(fl_lang_c.is_test_file("a/b/bar_unittest.cc"));
	assert_true(fl_lang_c.is_test_file("test_parse.c"));
	assert_true(fl_lang_c.is_test_file("x/parse_tests.c"));
	assert_false(fl_lang_c.is_test_file("src/contest.c"));
	assert_false(fl_lang_c.is_test_file("src/test.c"));
	assert_false(fl_lang_c.is_test_file("src/attest_x.c"));
}

static void scan_raw(const char *path, const char *text, size_t len)
{
	harness_scan_bytes(&fl_lang_c, path, text, len);
}

static void test_robustness(void **state)
{
	(void)state;
	/* invalid UTF-8 and NUL bytes */
	static const char junk[] = "perror(\"a\xff\xfe\x00 b\");\x00\x01\x80 throw X(\"\xc3\x28\");";
	scan_raw("j.c", junk, sizeof junk - 1);
	scan_raw("u1.c", "perror(\"unterminated", 20);
	scan_raw("u2.c", "/* unterminated comment perror(\"x\")", 36);
	scan_raw("u3.cpp", "auto s = R\"d(never closed", 25);
	scan_raw("u4.c", "#if 0\nperror(\"x\");\n", 19);
	scan_raw("u5.c", "'", 1);
	scan_raw("u6.c", "\\", 1);
	scan_raw("u7.c", "#define X \\", 11);
	/* 1 MB single line */
	size_t big = 1 << 20;
	char *b = harness_repeat("perror(\"x y\"); a+b ", big);
	scan_raw("big.c", b, big);
	/* 10,000 nested brackets, unclosed and closed */
	size_t depth = 10000;
	char *d = malloc(depth * 2 + 64);
	size_t p = 0;
	for (size_t i = 0; i < depth; i++)
		d[p++] = i % 3 == 0 ? '(' : i % 3 == 1 ? '{' : '[';
	memcpy(d + p, "die(\"deep\");", 12);
	p += 12;
	scan_raw("deep.c", d, p);
	for (size_t i = 0; i < depth; i++)
		d[p++] = '}';
	scan_raw("deep2.c", d, p);
	free(d);
	free(b);
	assert_true(1);
}

/* messages composed before they are reported (compose.c): an error value
 * made from a formatter's text, a helper composing around its caller's
 * literal, a variadic reporter known by its definition; and a yacc
 * grammar read as C (yacc.c) */
static void test_composed_messages(void **state)
{
	(void)state;
	const char *src =
		"value str_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));\n" /* 1 */
		"static value type_error(value bad, const char *msg) {\n"                       /* 2 */
		"  return value_invalid_with_msg(str_fmt(\"%s (%s) %s\", kind(bad), dump(bad), msg));\n" /* 3 */
		"}\n"                                                                           /* 4 */
		"void locate(struct loc *l, int at, const char *fmt, ...) {\n"                  /* 5 */
		"  va_list ap;\n"                                                               /* 6 */
		"  va_start(ap, fmt);\n"                                                        /* 7 */
		"  value m = str_vfmt(fmt, ap);\n"                                              /* 8 */
		"  report_error(l, m);\n"                                                       /* 9 */
		"}\n"                                                                           /* 10 */
		"value f(value t, value k, struct loc *l) {\n"                                  /* 11 */
		"  if (!t) return value_invalid_with_msg(str_fmt(\"Cannot index %s with %s\", a, b));\n" /* 12 */
		"  if (!k) return type_error(t, \"has no keys\");\n"                            /* 13 */
		"  locate(l, 1, \"%s is not defined\", name);\n"                                /* 14 */
		"  value p = str_fmt(\"%s/%s\", dir, name);\n"                                  /* 15 */
		"  value_object_set(t, str_fmt(\"key %s here\", name), k);\n"                   /* 16 */
		"  return value_invalid_with_msg(value_string(name));\n"                        /* 17 */
		"}\n";
	/* the collect pass sees the definitions: a tree of one file */
	fl_src files[] = {{.path = "src/f.c", .text = src, .len = strlen(src)}};
	fl_sites *s = harness_scan_tree(&fl_lang_c, files, 1, 0);
	const fl_site *x = EXPECT_SITE(s, "Cannot index %s with %s", 12, FL_T_EXCEPTION);
	assert_string_equal(x->severity, FL_S_ERROR);
	EXPECT_SITE(s, "%s (%s) has no keys", 13, FL_T_CONSOLE);
	EXPECT_SITE(s, "%s is not defined", 14, FL_T_CONSOLE);
	assert_null(harness_find(s, "key %s here"));
	assert_int_equal(s->n, 3);
	fl_sites_free(s);

	const char *y =
		"%{\n"                                                        /* 1 */
		"#define FAIL(loc, msg) yyerror(&loc, answer, msg)\n"          /* 2 */
		"%}\n"                                                        /* 3 */
		"%token <str> IDENT \"identifier\"\n"                          /* 4 */
		"%error-verbose\n"                                            /* 5 */
		"%%\n"                                                        /* 6 */
		"Exp: Exp '/' Exp { if (!$3) FAIL(@$, \"Division by zero?\"); }\n" /* 7 */
		"| IDENT %prec '*' { $$ = gen_const(value_string(\"hello\")); }\n" /* 8 */
		";\n"                                                         /* 9 */
		"%%\n"                                                        /* 10 */
		"int g(void) { fprintf(stderr, \"calc: too deep\\n\"); return 1; }\n"; /* 11 */
	fl_src yf[] = {{.path = "src/parse.y", .text = y, .len = strlen(y)}};
	s = harness_scan_tree(&fl_lang_c, yf, 1, 0);
	EXPECT_SITE(s, "Division by zero?", 7, FL_T_CONSOLE);
	x = EXPECT_SITE(s, "calc: too deep", 11, FL_T_CONSOLE);
	harness_expect_str(x->function, "g");
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
	/* grammar debris: unbalanced %{, lone %, % at the end */
	static const char *const odd[] = {"%{\n%{\n%%\n%", "%", "%%\n%%\n%%", "%{ f(\"x\"", "%token\n%-\n%{%}%%"};
	for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++)
		fl_sites_free(harness_scan(&fl_lang_c, "src/odd.y", odd[k]));
}

/* locals.c: messages held in local variables, choices of literals; a
 * context passed to a formatter is not its output, a variable is read in
 * its own function only, and 10,000 nested choices stay cheap */
static void test_local_messages(void **state)
{
	(void)state;
	const char *src =
		"void set_error(Ctx *c, const char *m, int n);\n"                  /* 1 */
		"char *ctx_printf(Ctx *c, const char *f, ...);\n"                  /* 2 */
		"void f(Ctx *c, const char *z, int k) {\n"                         /* 3 */
		"  char zErr[64];\n"                                               /* 4 */
		"  Stmt *s = ctx_printf(c, \"PRAGMA %s\", z);\n"                    /* 5 */
		"  if (k) sqlite3_snprintf(sizeof(zErr), zErr, \"bad value %d here\", k);\n" /* 6 */
		"  else snprintf(zErr, 64, k > 1 ? \"too many rows\" : \"too few rows\");\n" /* 7 */
		"  set_error(c, zErr, -1);\n"                                      /* 8 */
		"}\n"                                                              /* 9 */
		"void g(Ctx *c, const char *zErr) {\n"                             /* 10 */
		"  set_error(c, zErr, -1);\n"                                      /* 11 */
		"  set_error(c, k ? \"short\" : x, -1);\n"                         /* 12 */
		"}\n";
	fl_sites *s = scan("src/f.c", src);
	EXPECT_SITE(s, "bad value %d here", 8, FL_T_CONSOLE);
	/* the snprintf's format is a choice: not followed (a formatter's
	 * literal format only) */
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
	/* c ? "a" : c ? "a" : ... 10,000 deep, and a chain of names */
	size_t depth = 10000;
	fl_buf b = {0};
	fl_buf_puts(&b, "void set_error(Ctx *c, const char *m, int n);\nvoid h(Ctx *c, int k) {\n  const char *m = ");
	for (size_t i = 0; i < depth; i++)
		fl_buf_puts(&b, i % 2 ? "k ? \"no such thing\" : " : "k ? x : ");
	fl_buf_puts(&b, "\"last one\";\n  set_error(c, m, -1);\n}\n");
	fl_buf_cstr(&b);
	s = scan("src/deep.c", b.s);
	assert_true(s->n <= 8);
	fl_sites_free(s);
	fl_buf_free(&b);
	/* a choice of formats, a choice of values whose other arm is no
	 * literal (`e ? strerror (e) : _("reason unknown")`): the
	 * placeholder is a value too (gawk's awkgram.y); a
	 * linter's reporter by its compound name (lintwarn) */
	s = scan("src/g.c",
		 "#define lintwarn (*(set_loc(__FILE__, __LINE__),lintfunc))\n"           /* 1 */
		 "void f(const char *src, int e) {\n"                                     /* 2 */
		 "  fatal(e > 1 ? _(\"cannot open source file `%s' for reading: %s\") : _(\"cannot open library `%s' for reading: %s\"),\n" /* 3 */
		 "        src, e ? strerror(e) : _(\"reason unknown\"));\n"               /* 4 */
		 "  lintwarn(_(\"substr: start index %g is invalid, using 1\"), 1.0);\n"  /* 5 */
		 "}\n");
	EXPECT_SITE(s, "cannot open source file `%s' for reading: reason unknown", 3, FL_T_CONSOLE);
	EXPECT_SITE(s, "cannot open source file `%s' for reading: %s", 3, FL_T_CONSOLE);
	EXPECT_SITE(s, "cannot open library `%s' for reading: %s", 3, FL_T_CONSOLE);
	const fl_site *x = EXPECT_SITE(s, "substr: start index %g is invalid, using 1", 5, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	fl_sites_free(s);
}

/* A function that prints its `const char *` parameter through "%s" to a
 * reporter or to stderr (and exits, or says error by name) is a reporter
 * of its own, defined in one file and called in another: each call's
 * literal is a message, with the format's text before %s as its head.  A
 * plain printer to stderr is none.  A parameter named for a message may
 * sit among other conversions. */
static void test_message_forwarders(void **state)
{
	(void)state;
	static const char *const a =
		"void NORETURN usage_msg_opt(const char *msg, const char * const *usagestr,\n"
		"\t\t\t    const struct option *options)\n"
		"{\n"
		"\tdie_message(\"%s\\n\", msg);\n"
		"\tusage_with_options(usagestr, options);\n"
		"}\n"
		"static void fatal(const char *msg)\n"
		"{\n"
		"\tfprintf(stderr, \"fatal: %s\\n\", msg);\n"
		"\texit(1);\n"
		"}\n"
		"void say(const char *msg)\n"
		"{\n"
		"\tfprintf(stderr, \"%s\\n\", msg);\n"
		"}\n"
		"int check(int fd)\n"
		"{\n"
		"\tif (fd < 0)\n"
		"\t\tfatal(\"cannot open the pack index\");\n"
		"\treturn 0;\n"
		"}\n";
	static const char *const b =
		"int cmd_tag(int argc, const char **argv)\n"                              /* 1 */
		"{\n"                                                                     /* 2 */
		"\tif (argc > 2)\n"                                                       /* 3 */
		"\t\tusage_msg_opt(_(\"too many arguments\"), tag_usage, options);\n"    /* 4 */
		"\tsay(\"counting objects\");\n"                                          /* 5 */
		"\treturn 0;\n"                                                           /* 6 */
		"}\n";
	fl_src files[2] = {{"parse-options.c", a, strlen(a), NULL}, {"builtin/tag.c", b, strlen(b), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_c, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "too many arguments", 4, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	harness_expect_str(x->guard, "argc > 2");
	assert_null(harness_find(s, "counting objects"));
	fl_sites_free(s);
	s = harness_scan_tree(&fl_lang_c, files, 2, 0);
	EXPECT_SITE(s, "fatal: cannot open the pack index", 19, FL_T_CONSOLE);
	fl_sites_free(s);
	/* the message among other conversions, when the parameter is named
	 * for it (coreutils' size_opt, dd's parse_symbols): what the format
	 * prints around it, in format form; a path parameter is no message */
	static const char *const c =
		"static size_t\n"                                                       /* 1 */
		"size_opt (char const *opt, char const *msgid)\n"                        /* 2 */
		"{\n"                                                                    /* 3 */
		"  if (xstrtoimax (opt, NULL, 10, &size, \"\") != 0)\n"                  /* 4 */
		"    die (EXIT_FAILURE, 0, \"%s: %s\", opt, _(msgid));\n"                 /* 5 */
		"  return size;\n"                                                       /* 6 */
		"}\n"                                                                    /* 7 */
		"static int\n"                                                          /* 8 */
		"parse_symbols (char const *str, int table, char const *error_msgid)\n"  /* 9 */
		"{\n"                                                                    /* 10 */
		"  if (!table)\n"                                                        /* 11 */
		"    {\n"                                                                /* 12 */
		"      error (0, 0, \"%s: %s\", _(error_msgid), quote (str));\n"         /* 13 */
		"      usage (EXIT_FAILURE);\n"                                          /* 14 */
		"    }\n"                                                                /* 15 */
		"  return 0;\n"                                                          /* 16 */
		"}\n"                                                                    /* 17 */
		"static void open_it (const char *path)\n"                              /* 18 */
		"{\n"                                                                    /* 19 */
		"  if (!fopen (path, \"r\"))\n"                                          /* 20 */
		"    die (EXIT_FAILURE, errno, \"cannot open %s\", path);\n"             /* 21 */
		"}\n"                                                                    /* 22 */
		"int main (int argc, char **argv)\n"                                    /* 23 */
		"{\n"                                                                    /* 24 */
		"  size_opt (argv[1], N_(\"invalid number of fields to skip\"));\n"      /* 25 */
		"  parse_symbols (argv[2], 0, N_(\"invalid input flag\"));\n"            /* 26 */
		"  open_it (\"/etc/motd\");\n"                                           /* 27 */
		"  return 0;\n"                                                          /* 28 */
		"}\n";                                                                   /* 29 */
	fl_src one[1] = {{"src/uniq.c", c, strlen(c), NULL}};
	s = harness_scan_tree(&fl_lang_c, one, 1, 0);
	x = EXPECT_SITE(s, "%s: invalid number of fields to skip", 25, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	x = EXPECT_SITE(s, "invalid input flag: %s", 26, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	EXPECT_SITE(s, "cannot open %s", 21, FL_T_CONSOLE);
	assert_null(harness_find(s, "cannot open /etc/motd"));
	fl_sites_free(s);
	/* a function whose message parameter is its reporter's format,
	 * called from another file (gawk's check_symtab_functab) */
	static const char *const d =
		"void\n"
		"check_symtab_functab(NODE *dest, const char *fname, const char *msg)\n"
		"{\n"
		"\tif (dest == symbol_table)\n"
		"\t\tfatal(msg, fname, \"SYMTAB\");\n"
		"}\n";
	static const char *const e =
		"void do_split(NODE *arr)\n"                                          /* 1 */
		"{\n"                                                                 /* 2 */
		"\tcheck_symtab_functab(arr, \"split\",\n"                            /* 3 */
		"\t\t_(\"%s: cannot use %s as second argument\"));\n"                  /* 4 */
		"}\n";
	fl_src de[2] = {{"builtin.c", d, strlen(d), NULL}, {"field.c", e, strlen(e), NULL}};
	s = harness_scan_tree(&fl_lang_c, de, 2, 1);
	x = EXPECT_SITE(s, "%s: cannot use %s as second argument", 3, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	fl_sites_free(s);
}

/* A function of the file whose char pointer parameter is a reporter's
 * format (`error (0, errno, message, quoteaf (file))`): each call gives
 * that parameter the message, reported as it is, at the reporter's
 * severity.  A parameter printed through a
 * literal format is helper_format's; a parameter that is no format is
 * nothing; a call with a variable message gives nothing. */
/* A function that gives an error code's text (a switch of `case CODE:
 * return "text";`): each return is a site of that code; a switch mapping
 * other names to words is none. */
static void test_message_tables(void **state)
{
	(void)state;
	fl_sites *s = scan("src/message.c",
		"const char *\n"                                                 /* 1 */
		"message_strm(lzma_ret code)\n"                                  /* 2 */
		"{\n"                                                            /* 3 */
		"\tswitch (code) {\n"                                           /* 4 */
		"\tcase LZMA_MEM_ERROR:\n"                                      /* 5 */
		"\t\treturn strerror(ENOMEM);\n"                               /* 6 */
		"\tcase LZMA_FORMAT_ERROR:\n"                                   /* 7 */
		"\t\treturn _(\"File format not recognized\");\n"            /* 8 */
		"\tcase LZMA_DATA_ERROR:\n"                                     /* 9 */
		"\t\treturn _(\"Compressed data is corrupt\");\n"            /* 10 */
		"\tcase LZMA_NO_CHECK:\n"                                       /* 11 */
		"\t\treturn \"No integrity check; not verifying file integrity\";\n" /* 12 */
		"\tcase PREFIX(ERR_corruption):\n"                              /* 13 */
		"\t\treturn \"Data corruption detected\";\n"                 /* 14 */
		"\t}\n"                                                         /* 15 */
		"\treturn \"Internal error (bug)\";\n"                        /* 16 */
		"}\n"                                                            /* 17 */
		"const char *tok_name(int t)\n"                                  /* 18 */
		"{\n"                                                            /* 19 */
		"\tswitch (t) {\n"                                              /* 20 */
		"\tcase TOK_PLUS: return \"plus sign\";\n"                    /* 21 */
		"\tcase TOK_MINUS: return \"minus sign\";\n"                  /* 22 */
		"\tcase TOK_STAR: return \"star sign\";\n"                    /* 23 */
		"\t}\n"                                                         /* 24 */
		"\treturn \"?\";\n"                                           /* 25 */
		"}\n"                                                            /* 26 */
		"void message_error(const char *fmt, ...) PRINTF_LIKE(1, 2);\n" /* 27 */
		"void code(lzma_ret ret) {\n"                                    /* 28 */
		"\tif (ret != LZMA_OK)\n"                                       /* 29 */
		"\t\tmessage_error(\"%s: %s\", name, message_strm(ret));\n"  /* 30 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "File format not recognized", 8, FL_T_ERROR_CODE);
	harness_expect_str(p->code, "LZMA_FORMAT_ERROR");
	harness_expect_str(p->guard, "code == LZMA_FORMAT_ERROR");
	p = EXPECT_SITE(s, "Compressed data is corrupt", 10, FL_T_ERROR_CODE);
	harness_expect_str(p->code, "LZMA_DATA_ERROR");
	/* a case whose name says no error: the text, no code */
	p = EXPECT_SITE(s, "No integrity check; not verifying file integrity", 12, FL_T_ERROR_CODE);
	assert_null(p->code);
	EXPECT_SITE(s, "Data corruption detected", 14, FL_T_ERROR_CODE);
	assert_null(harness_find(s, "plus sign"));
	/* the table's texts are what its caller prints: one return of a
	 * computed text (strerror) among them leaves it a table */
	EXPECT_SITE(s, "%s: File format not recognized", 30, FL_T_CONSOLE);
	EXPECT_SITE(s, "%s: Compressed data is corrupt", 30, FL_T_CONSOLE);
	EXPECT_SITE(s, "%s: Internal error (bug)", 30, FL_T_CONSOLE);
	fl_sites_free(s);
}

/* A table of texts separated by NULs and a macro for each text's offset,
 * the one before it plus that text's size (GNU sed's errors[], glibc's
 * regcomp.c): a report of such a macro reports its text.  A reporter
 * whose parameter says why it fails is a message forwarder too. */
static void test_nul_separated_tables(void **state)
{
	(void)state;
	fl_sites *s = scan("sed/compile.c",
		"#define N_(s) s\n"                                                   /* 1 */
		"static const char errors[] =\n"                                      /* 2 */
		"  \"multiple `!'s\\0\"\n"                                            /* 3 */
		"  \"unexpected `,'\\0\"\n"                                           /* 4 */
		"  \"unknown option to `s'\";\n"                                      /* 5 */
		"#define BAD_BANG (errors)\n"                                         /* 6 */
		"#define BAD_COMMA (BAD_BANG + sizeof (N_(\"multiple `!'s\")))\n"    /* 7 */
		"#define UNKNOWN_S_OPT (BAD_COMMA \\\n"                               /* 8 */
		"  + sizeof (N_(\"unexpected `,'\")))\n"                             /* 9 */
		"#define PAST_END (UNKNOWN_S_OPT + sizeof (N_(\"unknown option to `s'\")))\n" /* 10 */
		"void bad_prog (const char *why)\n"                                   /* 11 */
		"{\n"                                                                 /* 12 */
		"  fprintf (stderr, \"%s: -e expression #%lu: %s\\n\", prog, n, why);\n" /* 13 */
		"  exit (4);\n"                                                       /* 14 */
		"}\n"                                                                 /* 15 */
		"void compile (int c)\n"                                              /* 16 */
		"{\n"                                                                 /* 17 */
		"  if (c == '!')\n"                                                   /* 18 */
		"    bad_prog (_(BAD_BANG));\n"                                       /* 19 */
		"  if (c == ',')\n"                                                   /* 20 */
		"    bad_prog (_(BAD_COMMA));\n"                                      /* 21 */
		"  if (c == 's')\n"                                                   /* 22 */
		"    bad_prog (_(UNKNOWN_S_OPT));\n"                                  /* 23 */
		"  if (c == 0)\n"                                                     /* 24 */
		"    bad_prog (_(PAST_END));\n"                                       /* 25 */
		"}\n");
	EXPECT_SITE(s, "%s: -e expression #%lu: multiple `!'s", 19, FL_T_CONSOLE);
	EXPECT_SITE(s, "%s: -e expression #%lu: unexpected `,'", 21, FL_T_CONSOLE);
	const fl_site *x = EXPECT_SITE(s, "%s: -e expression #%lu: unknown option to `s'", 23, FL_T_CONSOLE);
	harness_expect_str(x->guard, "c == 's'");
	/* an offset past the table's end names nothing */
	assert_null(harness_find_line(s, 25));
	fl_sites_free(s);
	/* the reporter defined in another file of the tree */
	const char *def =
		"void bad_prog (const char *why)\n"
		"{\n"
		"  fprintf (stderr, \"%s: -e expression #%lu: %s\\n\", prog, n, why);\n"
		"  exit (4);\n"
		"}\n";
	const char *use =
		"static const char errors[] =\n"                                     /* 1 */
		"  \"no previous regular expression\\0\"\n"                          /* 2 */
		"  \"cannot specify modifiers on empty regexp\";\n"                  /* 3 */
		"#define NO_REGEX (errors)\n"                                        /* 4 */
		"#define BAD_MODIF (NO_REGEX + sizeof(N_(\"no previous regular expression\")))\n" /* 5 */
		"void compile_rx (int flags)\n"                                      /* 6 */
		"{\n"                                                                /* 7 */
		"  if (flags > 0)\n"                                                 /* 8 */
		"    bad_prog (_(BAD_MODIF));\n"                                     /* 9 */
		"}\n";
	fl_src two[] = {{"sed/compile.c", def, strlen(def), NULL}, {"sed/regexp.c", use, strlen(use), NULL}};
	s = harness_scan_tree(&fl_lang_c, two, 2, 1);
	EXPECT_SITE(s, "%s: -e expression #%lu: cannot specify modifiers on empty regexp", 9, FL_T_CONSOLE);
	fl_sites_free(s);
}

/* A macro whose one parameter is its reporter's whole argument list
 * (paxlib's `#define USAGE_ERROR(Args) do { error Args; usage (2); }
 * while (0)`, GNU tar and cpio): a use's inner list is the reporter's
 * arguments, the site at the macro. */
static void test_arglist_macros(void **state)
{
	(void)state;
	fl_sites *s = scan("src/tar.c",
		"#define _(s) gettext(s)\n"                                        /* 1 */
		"#define ERROR(Args) \\\n"                                          /* 2 */
		"  do { error Args; exit_status = 2; } while (0)\n"                /* 3 */
		"#define USAGE_ERROR(Args) \\\n"                                    /* 4 */
		"  do { error Args; usage (2); } while (0)\n"                      /* 5 */
		"#define SAVE(Args) do { keep Args; } while (0)\n"                 /* 6 */
		"void f (int blocking, const char *arg)\n"                          /* 7 */
		"{\n"                                                               /* 8 */
		"  if (blocking < 0)\n"                                             /* 9 */
		"    USAGE_ERROR ((0, 0, _(\"Invalid blocking factor\")));\n"       /* 10 */
		"  if (!arg)\n"                                                     /* 11 */
		"    ERROR ((0, errno, _(\"%s: Cannot open archive\"), arg));\n"   /* 12 */
		"  SAVE ((0, 0, \"not a report at all\"));\n"                       /* 13 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Invalid blocking factor", 10, FL_T_CONSOLE);
	harness_expect_str(x->guard, "blocking < 0");
	EXPECT_SITE(s, "%s: Cannot open archive", 12, FL_T_CONSOLE);
	assert_null(harness_find_line(s, 13));
	fl_sites_free(s);
}

/* A macro that calls the reporter it is given (GNU make's `#define
 * OS(_t,_a,_f,_s) _t((_a), strlen (_s), (_f), (_s))`): a use names the
 * reporter, whose format is the macro's argument the body passes as
 * the reporter's format; a use naming no reporter is nothing. */
static void test_dispatching_macros(void **state)
{
	(void)state;
	fl_sites *s = scan("src/read.c",
		"void error (const floc *flocp, size_t length, const char *fmt, ...)\n" /* 1 */
		"     __attribute__ ((__format__ (__printf__, 3, 4)));\n"        /* 2 */
		"void fatal (const floc *flocp, size_t length, const char *fmt, ...)\n" /* 3 */
		"     __attribute__ ((noreturn, __format__ (__printf__, 3, 4)));\n" /* 4 */
		"#define O(_t,_a,_f)           _t((_a), 0, (_f))\n"             /* 5 */
		"#define OS(_t,_a,_f,_s)       _t((_a), strlen (_s), (_f), (_s))\n" /* 6 */
		"void eval (const floc *flocp, const char *name) {\n"           /* 7 */
		"  if (!name)\n"                                                 /* 8 */
		"    O (fatal, flocp, _(\"missing separator\"));\n"             /* 9 */
		"  OS (error, flocp, _(\"target '%s' doesn't match the target pattern\"), name);\n" /* 10 */
		"  O (free_it, flocp, \"not a report\");\n"                     /* 11 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "missing separator", 9, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	harness_expect_str(x->guard, "!name");
	x = EXPECT_SITE(s, "target '%s' doesn't match the target pattern", 10, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_null(harness_find(s, "not a report"));
	fl_sites_free(s);

	/* the macro in a header of its own, which the collect pass's byte
	 * filter must not skip */
	const char *h = "#define OSS(_t,_a,_f,_s1,_s2) _t((_a), 0, (_f), (_s1), (_s2))\n";
	const char *c = "void die_on (int x) {\n"
			"  OSS (fatal, NILF, \"%s: %s\" \" is no rule\", a, b);\n"
			"}\n";
	fl_src files[] = {{"src/makeint.h", h, strlen(h), NULL}, {"src/rule.c", c, strlen(c), NULL}};
	s = harness_scan_tree(&fl_lang_c, files, 2, 1);
	EXPECT_SITE(s, "%s: %s is no rule", 2, FL_T_CONSOLE);
	fl_sites_free(s);

	/* a reporter that formats into a buffer and appends a text of its
	 * own (make's fatal(): `strcat (p, stop)`): every message it
	 * reports ends with it; error()'s newline is no text */
	const char *out =
		"void fatal (const floc *flocp, size_t len, const char *fmt, ...)\n"
		"{\n"
		"  va_list args;\n"
		"  const char *stop = _(\".  Stop.\\n\");\n"
		"  char *p = get_buffer (len);\n"
		"  va_start (args, fmt);\n"
		"  vsprintf (p, fmt, args);\n"
		"  va_end (args);\n"
		"  strcat (p, stop);\n"
		"  outputs (1, p);\n"
		"  die (2);\n"
		"}\n"
		"void error (const floc *flocp, size_t len, const char *fmt, ...)\n"
		"{\n"
		"  va_list args;\n"
		"  char *p = get_buffer (len);\n"
		"  va_start (args, fmt);\n"
		"  vsprintf (p, fmt, args);\n"
		"  va_end (args);\n"
		"  strcat (p, \"\\n\");\n"
		"  outputs (1, p);\n"
		"}\n";
	const char *decl = "void fatal (const floc *flocp, size_t len, const char *fmt, ...)\n"
			   "  __attribute__ ((noreturn, __format__ (__printf__, 3, 4)));\n"
			   "void error (const floc *flocp, size_t len, const char *fmt, ...)\n"
			   "  __attribute__ ((__format__ (__printf__, 3, 4)));\n"
			   "#define O(_t,_a,_f) _t((_a), 0, (_f))\n";
	const char *use = "void main_ (void) {\n"
			  "  O (fatal, NILF, _(\"No targets\"));\n"
			  "  O (error, NILF, _(\"No rule here\"));\n"
			  "}\n";
	fl_src tree[] = {{"src/makeint.h", decl, strlen(decl), NULL},
			 {"src/output.c", out, strlen(out), NULL},
			 {"src/main.c", use, strlen(use), NULL}};
	s = harness_scan_tree(&fl_lang_c, tree, 3, 2);
	EXPECT_SITE(s, "No targets.  Stop.", 2, FL_T_CONSOLE);
	EXPECT_SITE(s, "No rule here", 3, FL_T_CONSOLE);
	fl_sites_free(s);

	/* a macro of a header that gives the reporter a text of its own
	 * (make's warn_undefined): each use in another file is a site of
	 * that text, its #define no use */
	const char *vh = "#define warn_undefined(n,l) do{\\\n"
			 "  if (warn_flag) \\\n"
			 "    error (reading_file, (l), _(\"warning: undefined variable '%.*s'\"), \\\n"
			 "           (int)(l), (n)); \\\n"
			 "  }while(0)\n";
	const char *ex = "void expand (const char *name, size_t len) {\n"
			 "  if (!v)\n"
			 "    warn_undefined (name, len);\n"
			 "}\n";
	fl_src tree2[] = {{"src/makeint.h", decl, strlen(decl), NULL},
			  {"src/variable.h", vh, strlen(vh), NULL},
			  {"src/expand.c", ex, strlen(ex), NULL}};
	s = harness_scan_tree(&fl_lang_c, tree2, 3, 2);
	x = EXPECT_SITE(s, "warning: undefined variable '%.*s'", 3, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->guard, "!v");
	fl_sites_free(s);
	s = harness_scan_tree(&fl_lang_c, tree2, 3, 1);
	for (size_t k = 0; k < s->n; k++)
		assert_int_not_equal(s->v[k].line, 1); /* the #define line */
	fl_sites_free(s);
}

static void test_format_parameter_helpers(void **state)
{
	(void)state;
	fl_sites *s = scan("src/lsx.c",
		"static void\n"                                                  /* 1 */
		"file_failure (bool serious, char const *message, char const *file)\n" /* 2 */
		"{\n"                                                            /* 3 */
		"  error (0, errno, message, quoteaf (file));\n"                 /* 4 */
		"  set_exit_status (serious);\n"                                 /* 5 */
		"}\n"                                                            /* 6 */
		"static void note_path (char const *path)\n"                     /* 7 */
		"{\n"                                                            /* 8 */
		"  error (0, 0, \"%s\", path);\n"                                /* 9 */
		"}\n"                                                            /* 10 */
		"static void shout (const char *fmt, ...)\n"                     /* 11 */
		"{\n"                                                            /* 12 */
		"  va_list ap;\n"                                                /* 13 */
		"  va_start (ap, fmt);\n"                                        /* 14 */
		"  vfprintf (stderr, fmt, ap);\n"                                /* 15 */
		"  va_end (ap);\n"                                               /* 16 */
		"}\n"                                                            /* 17 */
		"int gobble (char const *name, bool cmdline, char const *why)\n"  /* 18 */
		"{\n"                                                            /* 19 */
		"  if (stat (name) != 0)\n"                                      /* 20 */
		"    file_failure (cmdline, _(\"cannot access %s\"), name);\n"   /* 21 */
		"  note_path (\"the listing of the shelf\");\n"                  /* 22 */
		"  shout (\"cannot list shelf %s\", name);\n"                    /* 23 */
		"  file_failure (cmdline, why, name);\n"                         /* 24 */
		"  return 1;\n"                                                  /* 25 */
		"}\n");                                                          /* 26 */
	const fl_site *x = harness_expect_at(s, 21, "cannot access %s");
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->guard, "stat (name) != 0");
	/* a variadic printer to stderr: the variadic reporters' (compose.c) */
	harness_expect_at(s, 23, "cannot list shelf %s");
	assert_null(harness_find_line(s, 22));
	assert_null(harness_find_line(s, 24));
	fl_sites_free(s);
}

/* A printf-like function of the tree that takes a log code first (rsync's
 * `void rprintf(enum logcode, const char *, ...)` with a format
 * attribute): a call with an error or warning code is a site, the code a
 * level's name after one capital too (FERROR, FWARNING); an informational
 * code is none.  A text written into a buffer named for errors
 * (`snprintf(err_buf, ...)`, printed later by the reporter given the
 * buffer) is a site; into another buffer, or a count, none. */
static void test_log_codes_and_error_buffers(void **state)
{
	(void)state;
	fl_sites *s = scan("src/options.c",
		"enum logcode { FERROR_XFER=1, FINFO=2, FERROR=3, FWARNING=4 };\n"  /* 1 */
		" void rprintf(enum logcode , const char *, ...)\n"                  /* 2 */
		"     __attribute__((format (printf, 2, 3)))\n"                      /* 3 */
		";\n"                                                                /* 4 */
		"static char err_buf[200];\n"                                        /* 5 */
		"int parse(int bs, int whole, const char *dir, char *buf)\n"         /* 6 */
		"{\n"                                                                /* 7 */
		"  if (bs < 0)\n"                                                    /* 8 */
		"    rprintf(FERROR, \"invalid block size: %d\\n\", bs);\n"         /* 9 */
		"  rprintf(FWARNING, \"skipping non-regular file %s\\n\", dir);\n"  /* 10 */
		"  rprintf(FINFO, \"sending incremental file list\\n\");\n"         /* 11 */
		"  if (whole) {\n"                                                   /* 12 */
		"    snprintf(err_buf, sizeof err_buf,\n"                            /* 13 */
		"             \"--append cannot be used with --whole-file\\n\");\n"  /* 14 */
		"    return 0;\n"                                                    /* 15 */
		"  }\n"                                                              /* 16 */
		"  snprintf(buf, 20, \"block size is %d\", bs);\n"                  /* 17 */
		"  sprintf(errcount, \"%d errors so far\", bs);\n"                  /* 18 */
		"  return 1;\n"                                                      /* 19 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "invalid block size: %d", 9, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "skipping non-regular file %s", 10, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_null(harness_find_line(s, 11));
	x = EXPECT_SITE(s, "--append cannot be used with --whole-file", 13, FL_T_CONSOLE);
	harness_expect_str(x->guard, "whole");
	assert_null(harness_find_line(s, 17));
	assert_null(harness_find_line(s, 18));
	fl_sites_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpp_throw),
		cmocka_unit_test(test_c_stdlib_idioms),
		cmocka_unit_test(test_c_else_guards),
		cmocka_unit_test(test_c_unbraced_else),
		cmocka_unit_test(test_c_early_exits),
		cmocka_unit_test(test_c_macro_uses),
		cmocka_unit_test(test_c_level_printer),
		cmocka_unit_test(test_c_macro_conditions),
		cmocka_unit_test(test_c_file_macros_first),
		cmocka_unit_test(test_c_switch_guards),
		cmocka_unit_test(test_glib_pg_python),
		cmocka_unit_test(test_reporters),
		cmocka_unit_test(test_real_reporters),
		cmocka_unit_test(test_compound_reporter),
		cmocka_unit_test(test_collect_odd_spacing),
		cmocka_unit_test(test_scanned_twice),
		cmocka_unit_test(test_collect_prefilter),
		cmocka_unit_test(test_real_curl_leveldb),
		cmocka_unit_test(test_arg_texts),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_messages_and_macros),
		cmocka_unit_test(test_trace_macros),
		cmocka_unit_test(test_is_test_file),
		cmocka_unit_test(test_robustness),
		cmocka_unit_test(test_composed_messages),
		cmocka_unit_test(test_local_messages),
		cmocka_unit_test(test_message_forwarders),
		cmocka_unit_test(test_format_parameter_helpers),
		cmocka_unit_test(test_message_tables),
		cmocka_unit_test(test_nul_separated_tables),
		cmocka_unit_test(test_arglist_macros),
		cmocka_unit_test(test_dispatching_macros),
		cmocka_unit_test(test_log_codes_and_error_buffers),
	};
	return cmocka_run_group_tests_name("c", tests, NULL, NULL);
}
