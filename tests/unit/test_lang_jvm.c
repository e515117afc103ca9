/*
 * test_lang_jvm.c — unit tests for the JVM family (Java, Kotlin, Scala).
 */
#include "lang_harness.h"
#include "scan/jvm/jvm.h"
#include "scan/lex.h"

#include <stdlib.h>

extern const fl_lang fl_lang_jvm;

static fl_sites *scan(const char *path, const char *text)
{
	return harness_scan(&fl_lang_jvm, path, text);
}

static void expect_none(const char *path, const char *text)
{
	harness_expect_none(scan(path, text), path);
}

static void test_java_throw(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/com/acme/UserService.java",
		"package com.acme;\n"                                      /* 1 */
		"public class UserService {\n"                             /* 2 */
		"    public User find(String id) throws IOException {\n"   /* 3 */
		"        if (id == null) {\n"                              /* 4 */
		"            throw new IllegalArgumentException(\"id must not be null\");\n"
		"        }\n"                                              /* 6 */
		"        if (id.isEmpty()) throw new IllegalArgumentException(\"empty id: \" + id);\n"
		"        throw new java.io.UncheckedIOException(\"tab\\there\\n\",\n" /* 8 */
		"            cause);\n"                                    /* 9 */
		"    }\n"                                                  /* 10 */
		"    void x() { throw new UnsupportedOperationException(); }\n" /* 11 */
		"    void y(Exception e) { throw e; }\n"                   /* 12 */
		"    void z() { throw new IllegalStateException(String.format(\"bad %s at 100%%\", a)); }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "id must not be null", 5, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalArgumentException");
	assert_string_equal(x->function, "UserService.find");
	assert_string_equal(x->guard, "id == null");
	assert_string_equal(x->idiom, "throw new");
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_int_equal(x->col, 13);
	x = EXPECT_SITE(s, "empty id: {id}", 7, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "id.isEmpty()");
	x = EXPECT_SITE(s, "tab\there", 8, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "UncheckedIOException");
	assert_null(x->guard);
	x = EXPECT_SITE(s, "UnsupportedOperationException", 11, FL_T_EXCEPTION);
	assert_string_equal(x->function, "UserService.x");
	x = EXPECT_SITE(s, "bad %s at 100%", 13, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalStateException");
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
}

/* Exception classes whose constructors build the text the way commons-cli
 * does: this("..." + option.getKey()) beside a (String message) overload
 * that passes its argument on, and this(createMessage(...)) / super(
 * createMessage(...), option) of a static method that appends to a
 * StringBuilder (a loop's and a branch's appends one placeholder each). */
static void test_java_ctor_builders(void **state)
{
	(void)state;
	const char *missing =
		"public class MissingArgumentException extends ParseException {\n"
		"    public MissingArgumentException(final Option option) {\n"
		"        this(\"Missing argument for option: \" + option.getKey());\n"
		"    }\n"
		"    public MissingArgumentException(final String message) {\n"
		"        super(message);\n"
		"    }\n"
		"}\n";
	const char *ambiguous =
		"public class AmbiguousOptionException extends UnrecognizedOptionException {\n"
		"    private static String createMessage(final String option, final Collection<String> m) {\n"
		"        final StringBuilder buf = new StringBuilder(\"Ambiguous option: '\");\n"
		"        buf.append(option);\n"
		"        buf.append(\"'  (could be: \");\n"
		"        final Iterator<String> it = m.iterator();\n"
		"        while (it.hasNext()) {\n"
		"            buf.append(\"'\");\n"
		"            buf.append(it.next());\n"
		"            if (it.hasNext()) buf.append(\", \");\n"
		"        }\n"
		"        buf.append(')');\n"
		"        return buf.toString();\n"
		"    }\n"
		"    public AmbiguousOptionException(final String option, final Collection<String> m) {\n"
		"        super(createMessage(option, m), option);\n"
		"    }\n"
		"}\n";
	const char *parser =
		"class Parser {\n"                                                   /* 1 */
		"    void handle(Option o, String t, List<String> m) throws ParseException {\n" /* 2 */
		"        if (o.isRequired())\n"                                      /* 3 */
		"            throw new MissingArgumentException(o);\n"               /* 4 */
		"        if (m.size() > 1)\n"                                        /* 5 */
		"            throw new AmbiguousOptionException(t, m);\n"            /* 6 */
		"        throw new MissingArgumentException(\"no value for \" + t);\n" /* 7 */
		"    }\n"
		"}\n";
	fl_src files[] = {{"src/MissingArgumentException.java", missing, strlen(missing), NULL},
			  {"src/AmbiguousOptionException.java", ambiguous, strlen(ambiguous), NULL},
			  {"src/Parser.java", parser, strlen(parser), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 3, 2);
	const fl_site *x = EXPECT_SITE(s, "Missing argument for option: {getKey}", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "MissingArgumentException");
	EXPECT_SITE(s, "Ambiguous option: '{}'  (could be: {})", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "no value for {t}", 7, FL_T_EXCEPTION);
	fl_sites_free(s);
	/* a local builder's text thrown as `new String(sb)` (ant's Project)
	 * or String.valueOf(sb) */
	const char *project =
		"class Project {\n"                                                            /* 1 */
		"    void order(String root, String name) {\n"                                /* 2 */
		"        if (target == null) {\n"                                             /* 3 */
		"            final StringBuilder sb = new StringBuilder(\"Target \\\"\");\n"  /* 4 */
		"            sb.append(root);\n"                                              /* 5 */
		"            sb.append(\"\\\" does not exist in the project\");\n"          /* 6 */
		"            throw new BuildException(new String(sb));\n"                     /* 7 */
		"        }\n"                                                                 /* 8 */
		"        StringBuilder b = new StringBuilder(\"No such task: \");\n"         /* 9 */
		"        b.append(name);\n"                                                   /* 10 */
		"        throw new BuildException(String.valueOf(b));\n"                      /* 11 */
		"    }\n"
		"}\n";
	fl_src one[] = {{"src/Project.java", project, strlen(project), NULL}};
	s = harness_scan_tree(&fl_lang_jvm, one, 1, 0);
	EXPECT_SITE(s, "Target \"{}\" does not exist in the project", 7, FL_T_EXCEPTION);
	EXPECT_SITE(s, "No such task: {}", 11, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* `new X(helper(...))` where a method of the file returns the text: a
 * String, so X's constructor that takes one is meant, even when X's only
 * other one-argument constructor makes a message of its own (the JDK's
 * IndexOutOfBoundsException(int index)): a site per text returned. */
static void test_java_returned_text_picks_string_ctor(void **state)
{
	(void)state;
	const char *exc =
		"public class IndexOutOfBoundsException extends RuntimeException {\n"
		"    public IndexOutOfBoundsException(String s) { super(s); }\n"
		"    public IndexOutOfBoundsException(int index) {\n"
		"        super(\"Index out of range: \" + index);\n"
		"    }\n"
		"}\n";
	const char *list =
		"class Shelf {\n"                                                        /* 1 */
		"    private int size;\n"                                                /* 2 */
		"    Object get(int index) {\n"                                          /* 3 */
		"        if (index >= size)\n"                                           /* 4 */
		"            throw new IndexOutOfBoundsException(outOfBoundsMsg(index));\n" /* 5 */
		"        if (index < 0)\n"                                               /* 6 */
		"            throw new IndexOutOfBoundsException(index);\n"              /* 7 */
		"        return null;\n"                                                 /* 8 */
		"    }\n"                                                                /* 9 */
		"    private String outOfBoundsMsg(int index) {\n"                       /* 10 */
		"        return \"Index: \" + index + \", Size: \" + size;\n"            /* 11 */
		"    }\n"
		"}\n";
	fl_src files[] = {{"src/IndexOutOfBoundsException.java", exc, strlen(exc), NULL},
			  {"src/Shelf.java", list, strlen(list), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 2, 1);
	EXPECT_SITE(s, "Index: {index}, Size: {size}", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Index out of range: {index}", 7, FL_T_EXCEPTION);
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

/* commons-lang3's Validate and Spring's Assert: the exception each
 * throws, its message argument, its condition as the guard. */
/* Kotlin: a message the file's one function returns as its expression
 * body (`fun missingMessage(name: String) = "..."`) */
static void test_kotlin_expression_body_text(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/kotlin/Repo.kt",
		"package acme\n"                                                        /* 1 */
		"\n"                                                                    /* 2 */
		"private fun missingMessage(name: String): String =\n"                  /* 3 */
		"    \"Package '$name' is not in the \" + \"repository\"\n"             /* 4 */
		"\n"                                                                    /* 5 */
		"fun find(name: String) {\n"                                            /* 6 */
		"    if (name.isEmpty()) {\n"                                           /* 7 */
		"        throw IllegalArgumentException(missingMessage(name))\n"        /* 8 */
		"    }\n"                                                               /* 9 */
		"}\n");                                                                 /* 10 */
	EXPECT_SITE(s, "Package '${name}' is not in the repository", 8, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* a switch's default over more than four labels (up to eight) is
 * guarded by none of them */
static void test_java_switch_default_many(void **state)
{
	(void)state;
	fl_sites *s = scan("src/Event.java",
		"class Event {\n"                                                   /* 1 */
		"  void setType(int t) {\n"                                         /* 2 */
		"    switch (t) {\n"                                                /* 3 */
		"      case A: break;\n"                                            /* 4 */
		"      case B: break;\n"                                            /* 5 */
		"      case C: break;\n"                                            /* 6 */
		"      case D: break;\n"                                            /* 7 */
		"      case E: break;\n"                                            /* 8 */
		"      default :\n"                                                 /* 9 */
		"        throw new IllegalArgumentException(\"Illegal type: \" + t);\n" /* 10 */
		"    }\n"                                                           /* 11 */
		"  }\n"                                                             /* 12 */
		"}\n");                                                             /* 13 */
	const fl_site *x = EXPECT_SITE(s, "Illegal type: {t}", 10, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "t != A && t != B && t != C && t != D && t != E");
	fl_sites_free(s);
}

static void test_java_validators(void **state)
{
	(void)state;
	fl_sites *s = scan("V.java",
		"class V {\n"                                                          /* 1 */
		"  void m(int n, String name, int lo, int hi) {\n"                     /* 2 */
		"    Validate.isTrue(n < 100, \"The value must be below 100: %d\", n);\n" /* 3 */
		"    Validate.notBlank(name, \"The name must not be blank\");\n"       /* 4 */
		"    Validate.inclusiveBetween(lo, hi, n, \"%d is out of range\");\n"  /* 5 */
		"    Assert.state(open, \"The pool is closed\");\n"                   /* 6 */
		"    Assert.notNull(name, \"Name must not be null\");\n"              /* 7 */
		"    other.isTrue(n > 1, \"not a validator\");\n"                    /* 8 */
		"  }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "The value must be below 100: %d", 3, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalArgumentException");
	assert_string_equal(x->guard, "n >= 100");
	x = EXPECT_SITE(s, "The name must not be blank", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalArgumentException");
	x = EXPECT_SITE(s, "%d is out of range", 5, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalArgumentException");
	x = EXPECT_SITE(s, "The pool is closed", 6, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalStateException");
	assert_string_equal(x->guard, "!open");
	x = EXPECT_SITE(s, "Name must not be null", 7, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "name == null");
	assert_null(harness_find(s, "not a validator"));
	fl_sites_free(s);
}

/* A string constant of the file as the message or the template: `static
 * final String NAME = "..."` (Java), `const val NAME = "..."` (Kotlin),
 * named alone or through its class. */
static void test_string_constants(void **state)
{
	(void)state;
	fl_sites *s = scan("Splitter.java",
		"final class Splitter {\n"                                                  /* 1 */
		"  private static final String INVALID_ENTRY = \"Chunk [%s] is not a valid entry\";\n" /* 2 */
		"  static final String CLOSED = \"the splitter \" + \"is closed\";\n"      /* 3 */
		"  void split(String entry, boolean ok) {\n"                                /* 4 */
		"    checkArgument(ok, INVALID_ENTRY, entry);\n"                            /* 5 */
		"    if (entry == null)\n"                                                  /* 6 */
		"      throw new IllegalStateException(Splitter.CLOSED);\n"                 /* 7 */
		"  }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Chunk [%s] is not a valid entry", 5, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalArgumentException");
	x = EXPECT_SITE(s, "the splitter is closed", 7, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalStateException");
	fl_sites_free(s);
	s = scan("Config.kt",
		"const val MISSING: String = \"no configuration file was found\"\n"      /* 1 */
		"fun load(path: String?) {\n"                                           /* 2 */
		"  if (path == null) throw IllegalStateException(MISSING)\n"            /* 3 */
		"}\n");
	EXPECT_SITE(s, "no configuration file was found", 3, FL_T_EXCEPTION);
	fl_sites_free(s);
	/* format(...) unqualified: a static import of String.format, or the
	 * class's own wrapper of it; Guava's lenientFormat */
	s = scan("Spec.java",
		"final class Spec {\n"                                                        /* 1 */
		"  void parse(String key, String value, int n) {\n"                           /* 2 */
		"    if (n < 0) throw new IllegalArgumentException(\n"                        /* 3 */
		"        format(\"key %s value set to %s, must be integer\", key, value));\n"  /* 4 */
		"    if (n > 9) throw new IndexOutOfBoundsException(lenientFormat(\"%s (%s) must be less than 9\", key, n));\n" /* 5 */
		"  }\n"
		"  private static String format(String f, Object... a) { return String.format(Locale.ROOT, f, a); }\n"
		"}\n");
	EXPECT_SITE(s, "key %s value set to %s, must be integer", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "%s (%s) must be less than 9", 5, FL_T_EXCEPTION);
	fl_sites_free(s);
	/* a method of the file returning the text: a site per return */
	s = scan("Checks.java",
		"final class Checks {\n"                                                       /* 1 */
		"  static int check(int index, int size, String desc) {\n"                     /* 2 */
		"    if (index < 0 || index >= size)\n"                                        /* 3 */
		"      throw new IndexOutOfBoundsException(badIndex(index, size, desc));\n"    /* 4 */
		"    return index;\n"                                                          /* 5 */
		"  }\n"                                                                        /* 6 */
		"  private static String badIndex(int index, int size, String desc) {\n"       /* 7 */
		"    if (index < 0) return lenientFormat(\"%s (%s) must not be negative\", desc, index);\n" /* 8 */
		"    return \"Index: \" + index + \", Size: \" + size;\n"                     /* 9 */
		"  }\n"
		"}\n");
	x = EXPECT_SITE(s, "%s (%s) must not be negative", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IndexOutOfBoundsException");
	EXPECT_SITE(s, "Index: {index}, Size: {size}", 4, FL_T_EXCEPTION);
	fl_sites_free(s);
}

static void test_java_preconditions_logging(void **state)
{
	(void)state;
	fl_sites *s = scan("A.java",
		"class A {\n"                                                  /* 1 */
		"  void m(String id) {\n"                                      /* 2 */
		"    checkArgument(id.length() < 10, \"id too long: %s\", id);\n" /* 3 */
		"    Preconditions.checkState(ready, \"not ready\");\n"         /* 4 */
		"    Preconditions.checkNotNull(repo, \"repo\");\n"             /* 5 */
		"    Objects.requireNonNull(cfg, \"cfg is null\");\n"           /* 6 */
		"    LOG.error(\"failed to load user {} from {}\", id, repo);\n" /* 7 */
		"    log.warn(\"slow query\");\n"                               /* 8 */
		"    logger.severe(\"bad \\\"thing\\\"\\n\");\n"                /* 9 */
		"    logger.warning(\"careful\");\n"                            /* 10 */
		"    log.info(\"not an error\");\n"                             /* 11 */
		"    Optional.empty().orElseThrow(() -> new UserNotFoundException(\"User not found: \" + id));\n"
		"  }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "id too long: %s", 3, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalArgumentException");
	assert_string_equal(x->guard, "id.length() >= 10");
	assert_string_equal(x->function, "A.m");
	x = EXPECT_SITE(s, "not ready", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalStateException");
	x = EXPECT_SITE(s, "repo", 5, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "NullPointerException");
	x = EXPECT_SITE(s, "cfg is null", 6, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "NullPointerException");
	x = EXPECT_SITE(s, "failed to load user {} from {}", 7, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_string_equal(x->idiom, "LOG.error");
	x = EXPECT_SITE(s, "slow query", 8, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "bad \"thing\"", 9, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "careful", 10, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_null(harness_find(s, "not an error"));
	x = EXPECT_SITE(s, "User not found: {id}", 12, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "UserNotFoundException");
	fl_sites_free(s);
}

static void test_java_spring_and_textblock(void **state)
{
	(void)state;
	fl_sites *s = scan("Ctl.java",
		"class Ctl {\n"                                                       /* 1 */
		"  User get(long id) {\n"                                             /* 2 */
		"    throw new ResponseStatusException(HttpStatus.NOT_FOUND, \"user not found\");\n"
		"  }\n"                                                               /* 4 */
		"  void boom() {\n"                                                   /* 5 */
		"    throw new ResponseStatusException(HttpStatus.INTERNAL_SERVER_ERROR, \"boom\");\n"
		"  }\n"                                                               /* 7 */
		"  void tb() {\n"                                                     /* 8 */
		"    throw new IllegalStateException(\"\"\"\n"                        /* 9 */
		"        Multi \\\n"                                                  /* 10 */
		"        line\n"                                                      /* 11 */
		"          indented\\tx\n"                                            /* 12 */
		"        \"\"\");\n"                                                  /* 13 */
		"  }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "user not found", 3, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "boom", 6, FL_T_HTTP);
	assert_int_equal(x->http, 500);
	assert_string_equal(x->severity, FL_S_ERROR);
	EXPECT_SITE(s, "Multi line\n  indented\tx", 9, FL_T_EXCEPTION);
	fl_sites_free(s);
}

static void test_java_traps(void **state)
{
	(void)state;
	expect_none("T.java",
		"class T {\n"
		"  // throw new IllegalStateException(\"line comment\");\n"
		"  /* throw new IllegalStateException(\"block comment\"); */\n"
		"  /** throw new IllegalStateException(\"doc\"); */\n"
		"  String s = \"throw new IllegalStateException(\\\"in string\\\")\";\n"
		"  String tb = \"\"\"\n"
		"     throw new IllegalStateException(\"in text block\");\n"
		"     \"\"\";\n"
		"  char q = '\"'; char r = '\\'';\n"
		"  void f() { throw e; }\n"
		"}\n");
}

static void test_kotlin(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/kotlin/OrderService.kt",
		"package com.acme\n"                                                /* 1 */
		"class OrderService(private val repo: Repo) {\n"                    /* 2 */
		"    fun place(order: Order): Receipt {\n"                          /* 3 */
		"        require(order.items.isNotEmpty()) { \"order ${order.id} has no items\" }\n"
		"        check(repo.isOpen) { \"repository closed for $order\" }\n" /* 5 */
		"        val u = requireNotNull(order.user) { \"order must have a user\" }\n"
		"        if (order.total < 0) {\n"                                  /* 7 */
		"            throw IllegalArgumentException(\"negative total: ${order.total}\")\n"
		"        }\n"                                                       /* 9 */
		"        return when (order.kind) {\n"                              /* 10 */
		"            is Special -> throw UnsupportedOperationException(\"special\")\n"
		"            else -> error(\"unknown kind ${order.kind}\")\n"       /* 12 */
		"        }\n"                                                       /* 13 */
		"    }\n"                                                           /* 14 */
		"    fun quick(x: Int) = require(x > 0) { \"x must be positive\" }\n" /* 15 */
		"    fun raw(): String {\n"                                         /* 16 */
		"        logger.error { \"lambda log $x\" }\n"                      /* 17 */
		"        return repo.find() ?: throw NotFoundException(\"missing \\u0041 ${map[\"k\"]}\")\n"
		"    }\n"                                                           /* 19 */
		"}\n"                                                               /* 20 */
		"fun top(a: String?) {\n"                                           /* 21 */
		"    checkNotNull(a)\n"                                             /* 22 */
		"    check(a.isNotEmpty())\n"                                       /* 23 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "order ${order.id} has no items", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalArgumentException");
	assert_string_equal(x->guard, "!order.items.isNotEmpty()");
	assert_string_equal(x->function, "OrderService.place");
	x = EXPECT_SITE(s, "repository closed for ${order}", 5, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalStateException");
	x = EXPECT_SITE(s, "order must have a user", 6, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "negative total: ${order.total}", 8, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "order.total < 0");
	assert_string_equal(x->idiom, "throw");
	x = EXPECT_SITE(s, "special", 11, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "is Special");
	x = EXPECT_SITE(s, "unknown kind ${order.kind}", 12, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IllegalStateException");
	assert_null(x->guard);
	x = EXPECT_SITE(s, "x must be positive", 15, FL_T_EXCEPTION);
	assert_string_equal(x->function, "OrderService.quick");
	x = EXPECT_SITE(s, "lambda log ${x}", 17, FL_T_CONSOLE);
	x = EXPECT_SITE(s, "missing A ${map[\"k\"]}", 18, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "NotFoundException");
	x = EXPECT_SITE(s, "Required value was null.", 22, FL_T_EXCEPTION);
	assert_string_equal(x->function, "top");
	/* the guards say when the site fires: the condition fails, the
	 * value is null */
	assert_string_equal(x->guard, "a == null");
	x = EXPECT_SITE(s, "Check failed.", 23, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "!a.isNotEmpty()");
	fl_sites_free(s);
}

static void test_kotlin_traps2(void **state)
{
	(void)state;
	expect_none("T.kt",
		"/* outer /* nested error(\"x\") */ still comment error(\"y\") */\n"
		"// throw IllegalStateException(\"line\")\n"
		"/** KDoc: require(x) { \"doc\" } */\n"
		"val s = \"throw IllegalStateException(\\\"no\\\") ${ \"}\" }\"\n"
		"val r = \"\"\"\n  error(\"raw\") \"\"\"\"\n"
		"val c = '\"'\n");
}

static void test_kotlin_trim_and_java_switch(void **state)
{
	(void)state;
	fl_sites *s = scan("T.kt",
		"fun f() {\n"                                   /* 1 */
		"    throw IllegalStateException(\"\"\"\n"      /* 2 */
		"        first\n"                               /* 3 */
		"          second\n"                            /* 4 */
		"    \"\"\".trimIndent())\n"                    /* 5 */
		"    error(\"\"\"\n"                            /* 6 */
		"        |a\n"                                  /* 7 */
		"        |  b\n"                                /* 8 */
		"    \"\"\".trimMargin())\n"                    /* 9 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "first\n  second", 2, FL_T_EXCEPTION);
	assert_string_equal(x->function, "f");
	EXPECT_SITE(s, "a\n  b", 6, FL_T_EXCEPTION);
	fl_sites_free(s);
	s = scan("S.java",
		"class S {\n"                                               /* 1 */
		"  int m(Kind k) {\n"                                       /* 2 */
		"    return switch (k) {\n"                                 /* 3 */
		"      case A -> 1;\n"                                      /* 4 */
		"      case B, C -> throw new IllegalStateException(\"b or c\");\n"
		"      default -> throw new IllegalStateException(\"other\");\n"
		"    };\n"
		"  }\n"
		"}\n");
	x = EXPECT_SITE(s, "b or c", 5, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "k == B || k == C");
	assert_string_equal(x->function, "S.m");
	/* the default: none of the labels */
	x = EXPECT_SITE(s, "other", 6, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "k != A && k != B && k != C");
	fl_sites_free(s);
}

static void test_scala(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/scala/Parser.scala",
		"package acme\n"                                                    /* 1 */
		"/* scala /* nested */ throw new X(\"no\") */\n"                    /* 2 */
		"object Parser {\n"                                                 /* 3 */
		"  def parse(s: String): Int = {\n"                                 /* 4 */
		"    if (s.isEmpty) throw new IllegalArgumentException(s\"empty input: $s, ${s.length}\")\n"
		"    s match {\n"                                                   /* 6 */
		"      case \"x\" => throw new ParseException(f\"bad char $s%s\")\n" /* 7 */
		"      case _ => sys.error(\"unreachable\")\n"                      /* 8 */
		"    }\n"                                                           /* 9 */
		"  }\n"                                                             /* 10 */
		"  def quick(x: Int): Int =\n"                                      /* 11 */
		"    if (x < 0) throw new IllegalStateException(raw\"neg\\n $x $$\")\n"
		"    else x\n"                                                      /* 13 */
		"  val q = \"\"\"throw new X(\"raw\")\"\"\"\n"                      /* 14 */
		"  def dec(c: Cursor) = if (c.bad) Left(DecodingFailure(\"bad record\", c.history))\n"
		"    else Failure(new IllegalStateException(\"closed\"))\n"         /* 16 */
		"  val f = Failure(e)\n"                                              /* 17 */
		"  x match { case DecodingFailure(m, _) => m }\n"                     /* 18 */
		"}\n"
		"case class ConfigError(msg: String) extends Exception(msg)\n");   /* 20 */
	const fl_site *x = EXPECT_SITE(s, "empty input: ${s}, ${s.length}", 5, FL_T_EXCEPTION);
	assert_string_equal(x->function, "Parser.parse");
	assert_string_equal(x->guard, "s.isEmpty");
	x = EXPECT_SITE(s, "bad char ${s}%s", 7, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "\"x\"");
	assert_string_equal(x->cls, "ParseException");
	x = EXPECT_SITE(s, "unreachable", 8, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "RuntimeException");
	x = EXPECT_SITE(s, "neg\\n ${x} $", 12, FL_T_EXCEPTION);
	assert_string_equal(x->function, "Parser.quick");
	/* errors as values: case classes without new; scala.util.Failure
	 * wraps an exception and is not one; patterns and declarations are
	 * not sites */
	x = EXPECT_SITE(s, "bad record", 15, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "DecodingFailure");
	EXPECT_SITE(s, "closed", 16, FL_T_EXCEPTION);
	assert_int_equal(s->n, 6);
	fl_sites_free(s);
}

/* an enum that catalogues errors: each constant with a message is a
 * record, coded by the constant; enums of other things are not */
static void test_error_enums(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/ErrorCode.java",
		"public enum ErrorCode implements Coded {\n"                                  /* 1 */
		"    OK, USER_NOT_FOUND(40401, \"User not found\", HttpStatus.NOT_FOUND),\n"   /* 2 */
		"    INVALID_TOKEN(40101, \"Token is invalid\") {\n"                          /* 3 */
		"        @Override public boolean retry() { return false; }\n"               /* 4 */
		"    },\n"                                                                   /* 5 */
		"    INTERNAL(50000, \"Internal error, \" + \"retry later\");\n"              /* 6 */
		"    ErrorCode(int code, String message) {}\n"                               /* 7 */
		"}\n"                                                                        /* 8 */
		"enum Color { RED(\"red\"), GREEN(\"green\"); Color(String n) {} }\n");      /* 9 */
	const fl_site *x = EXPECT_SITE(s, "User not found", 2, FL_T_HTTP);
	assert_string_equal(x->code, "USER_NOT_FOUND");
	assert_string_equal(x->cls, "ErrorCode");
	assert_int_equal(x->http, 404);
	x = EXPECT_SITE(s, "Token is invalid", 3, FL_T_ERROR_CODE);
	assert_string_equal(x->code, "INVALID_TOKEN");
	EXPECT_SITE(s, "Internal error, retry later", 6, FL_T_ERROR_CODE);
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
	s = scan("src/main/kotlin/ApiError.kt",
		"enum class ApiError(val status: Int, val text: String) {\n"
		"    RATE_LIMITED(429, \"Too many requests\"),\n"
		"    BAD_INPUT(400, \"The body is not valid JSON\");\n"
		"}\n");
	x = EXPECT_SITE(s, "Too many requests", 2, FL_T_ERROR_CODE);
	assert_string_equal(x->code, "RATE_LIMITED");
	EXPECT_SITE(s, "The body is not valid JSON", 3, FL_T_ERROR_CODE);
	fl_sites_free(s);
	/* a one-word string beside the message is the code clients see */
	s = scan("src/main/java/ShopError.java",
		"enum ShopError { CART_EMPTY(\"SHOP-422\", \"The cart is empty\") }\n");
	x = EXPECT_SITE(s, "The cart is empty", 1, FL_T_ERROR_CODE);
	assert_string_equal(x->code, "SHOP-422");
	fl_sites_free(s);
}

/* throw of an exception built by a method of the same file (gson's
 * unexpectedTokenError, syntaxError): the factory's message with the
 * call's literal arguments, and the factory's class */
static void test_java_factories(void **state)
{
	(void)state;
	const char *src =
		"class JsonReader {\n"                                                         /* 1 */
		"  boolean nextBoolean() throws IOException {\n"                               /* 2 */
		"    if (p == PEEKED_TRUE) return true;\n"                                     /* 3 */
		"    throw unexpectedTokenError(\"a boolean\");\n"                              /* 4 */
		"  }\n"                                                                        /* 5 */
		"  void close(JsonReader reader) {\n"                                          /* 6 */
		"    if (open) throw reader.unexpectedTokenError(\"a name\");\n"                /* 7 */
		"    throw syntaxError(\"Unterminated array\");\n"                              /* 8 */
		"  }\n"                                                                        /* 9 */
		"  void other() {\n"                                                           /* 10 */
		"    throw Errors.unexpectedTokenError(\"not ours\");\n"                        /* 11 */
		"    throw parseFailure(e, \"value\");\n"                                       /* 12 */
		"    throw syntaxError(msg);\n"                                                 /* 13 */
		"  }\n"                                                                        /* 14 */
		"  private IllegalStateException unexpectedTokenError(String expected) throws IOException {\n" /* 15 */
		"    return new IllegalStateException(\"Expected \" + expected + \" but was \" + peek() + locationString());\n" /* 16 */
		"  }\n"                                                                        /* 17 */
		"  private MalformedJsonException syntaxError(final String message) throws MalformedJsonException {\n" /* 18 */
		"    throw new MalformedJsonException(message + locationString());\n"          /* 19 */
		"  }\n"                                                                        /* 20 */
		"  private static NumberFormatException parseFailure(Exception e, String v) {\n" /* 21 */
		"    return new NumberFormatException(describe(v, e));\n"                      /* 22 */
		"  }\n"                                                                        /* 23 */
		"}\n";
	fl_sites *s = scan("src/main/java/JsonReader.java", src);
	const fl_site *x = EXPECT_SITE(s, "Expected a boolean but was {peek}{locationString}", 4, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "IllegalStateException");
	harness_expect_str(x->function, "JsonReader.nextBoolean");
	harness_expect_str(x->idiom, "throw");
	x = EXPECT_SITE(s, "Expected a name but was {peek}{locationString}", 7, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "open");
	x = EXPECT_SITE(s, "Unterminated array{locationString}", 8, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "MalformedJsonException");
	/* another class's method: its argument, as before */
	x = EXPECT_SITE(s, "not ours", 11, FL_T_EXCEPTION);
	harness_expect_str(x->cls, NULL);
	/* a factory whose message is built elsewhere: not composed */
	x = EXPECT_SITE(s, "value", 12, FL_T_EXCEPTION);
	harness_expect_str(x->cls, NULL);
	/* a non-literal argument keeps the factory's placeholder */
	EXPECT_SITE(s, "{message}{locationString}", 13, FL_T_EXCEPTION);
	/* the factories' own constructions stay sites */
	EXPECT_SITE(s, "Expected {expected} but was {peek}{locationString}", 16, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* a message held in a local variable (jackson-core, commons-lang) */
static void test_java_local_message(void **state)
{
	(void)state;
	const char *src =
		"class Parser {\n"                                                         /* 1 */
		"  void close(int ch) throws IOException {\n"                              /* 2 */
		"    final String msg = String.format(\"Unexpected close marker '%s'\", ch);\n" /* 3 */
		"    throw _constructReadException(msg, location());\n"                    /* 4 */
		"  }\n"                                                                    /* 5 */
		"  Date parse(String source, String msg) throws ParseException {\n"        /* 6 */
		"    throw new ParseException(msg, 0);\n"                                  /* 7 */
		"  }\n"                                                                    /* 8 */
		"  void twice(boolean a) {\n"                                              /* 9 */
		"    String m = \"one\";\n"                                                /* 10 */
		"    if (a) m = \"two\";\n"                                                /* 11 */
		"    throw new IllegalStateException(m);\n"                                /* 12 */
		"  }\n"                                                                    /* 13 */
		"}\n";
	fl_sites *s = scan("src/main/java/Parser.java", src);
	const fl_site *x = EXPECT_SITE(s, "Unexpected close marker '%s'", 4, FL_T_EXCEPTION);
	harness_expect_str(x->function, "Parser.close");
	/* a parameter or several assignments: unknown, the class stands in */
	EXPECT_SITE(s, "ParseException", 7, FL_T_EXCEPTION);
	EXPECT_SITE(s, "IllegalStateException", 12, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* exception classes whose constructors build the message (the Spring
 * ResourceNotFoundException pattern; Kotlin primary constructors), used
 * from another file of the tree */
static void test_exception_constructors(void **state)
{
	(void)state;
	const char *ex_java =
		"public class ResourceNotFoundException extends RuntimeException {\n" /* 1 */
		"  public ResourceNotFoundException(String resource, Object id) {\n"  /* 2 */
		"    super(String.format(\"%s not found with id %s\", resource, id));\n" /* 3 */
		"  }\n"                                                             /* 4 */
		"  public ResourceNotFoundException() {\n"                          /* 5 */
		"    super(\"Resource not found\");\n"                               /* 6 */
		"  }\n"                                                             /* 7 */
		"}\n"                                                               /* 8 */
		"class ConflictException extends RuntimeException {\n"              /* 9 */
		"  ConflictException(String what, Object id) { super(\"conflict on \" + what); }\n" /* 10 */
		"  ConflictException(String message, Throwable cause) { super(message, cause); }\n" /* 11 */
		"}\n";
	const char *ex_kt =
		"class QuotaExceededException(val user: String, limit: Int = 10) :\n" /* 1 */
		"  IllegalStateException(\"Quota of $limit exceeded for $user\")\n";  /* 2 */
	const char *svc_java =
		"class UserService {\n"                                               /* 1 */
		"  User find(long id) {\n"                                            /* 2 */
		"    if (id < 0) throw new ResourceNotFoundException();\n"            /* 3 */
		"    throw new ResourceNotFoundException(\"User\", id);\n"            /* 4 */
		"  }\n"                                                               /* 5 */
		"  void load(Exception e) {\n"                                        /* 6 */
		"    throw new ConflictException(\"cannot load\", e);\n"               /* 7 */
		"  }\n"                                                               /* 8 */
		"}\n";
	const char *svc_kt =
		"fun charge(user: String) {\n"                                       /* 1 */
		"  throw QuotaExceededException(user)\n"                             /* 2 */
		"}\n";
	fl_src files[] = {
		{"src/main/java/ResourceNotFoundException.java", ex_java, strlen(ex_java), NULL},
		{"src/main/kotlin/Quota.kt", ex_kt, strlen(ex_kt), NULL},
		{"src/main/java/UserService.java", svc_java, strlen(svc_java), NULL},
		{"src/main/kotlin/Billing.kt", svc_kt, strlen(svc_kt), NULL},
	};
	fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 4, 2);
	const fl_site *x = EXPECT_SITE(s, "Resource not found", 3, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ResourceNotFoundException");
	harness_expect_str(x->guard, "id < 0");
	EXPECT_SITE(s, "%s not found with id %s", 4, FL_T_EXCEPTION);
	/* two constructors of that arity: which one is meant is unknown, the
	 * call's own literal is kept */
	EXPECT_SITE(s, "cannot load", 7, FL_T_EXCEPTION);
	fl_sites_free(s);
	s = harness_scan_tree(&fl_lang_jvm, files, 4, 3);
	/* a default parameter may be left out; the placeholder stays */
	x = EXPECT_SITE(s, "Quota of ${limit} exceeded for ${user}", 2, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "QuotaExceededException");
	fl_sites_free(s);
}

/* A constructor that hands its parameter to its base unchanged builds no
 * message: a throw of its class reads the same whether or not the class is
 * in the tree (before, `new BadInputException("")` lost its site when it was). */
static void test_pass_through_constructor(void **state)
{
	(void)state;
	const char *ex_java =
		"public class BadInputException extends RuntimeException {\n"   /* 1 */
		"  public BadInputException(String s) { super(s); }\n"          /* 2 */
		"  public BadInputException() { super(); }\n"                   /* 3 */
		"}\n";
	const char *use_java =
		"class Parser {\n"                                     /* 1 */
		"  int parse(String x) {\n"                            /* 2 */
		"    if (x == null) throw new BadInputException(\"\");\n"        /* 3 */
		"    if (x.isEmpty()) throw new BadInputException(\"empty \" + x);\n" /* 4 */
		"    return 1;\n"                                      /* 5 */
		"  }\n"                                                /* 6 */
		"}\n";
	fl_src both[] = {
		{"src/BadInputException.java", ex_java, strlen(ex_java), NULL},
		{"src/Parser.java", use_java, strlen(use_java), NULL},
	};
	fl_src alone[] = {{"src/Parser.java", use_java, strlen(use_java), NULL}};
	fl_sites *a = harness_scan_tree(&fl_lang_jvm, both, 2, 1);
	fl_sites *b = harness_scan_tree(&fl_lang_jvm, alone, 1, 0);
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->n, 2);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(a->v[i].line, b->v[i].line);
		harness_expect_str(a->v[i].message, b->v[i].message);
		harness_expect_str(a->v[i].cls, "BadInputException");
	}
	EXPECT_SITE(a, "BadInputException", 3, FL_T_EXCEPTION);
	EXPECT_SITE(a, "empty {x}", 4, FL_T_EXCEPTION);
	fl_sites_free(a);
	fl_sites_free(b);
}

/* A file is scanned while it is read, as if the tree held nothing: those
 * sites stand only when the whole tree has none of what the scan looked
 * up.  A constructor of another file that builds the message (declared
 * after the file that throws it, so that the read phase cannot know it),
 * a thrower method, a static factory: each early scan must not stand,
 * or its site would keep the call's own text. */
static void test_java_early_scan_checked(void **state)
{
	(void)state;
	const char *svc =
		"class Svc {\n"                                                /* 1 */
		"  void a(String name) {\n"                                    /* 2 */
		"    throw new NoSuchWidgetException(name);\n"                 /* 3 */
		"  }\n"                                                         /* 4 */
		"  void b(int code) {\n"                                       /* 5 */
		"    failWith(code);\n"                                        /* 6 */
		"  }\n"                                                         /* 7 */
		"  void c() {\n"                                               /* 8 */
		"    throw Errors.gone(\"x\");\n"                              /* 9 */
		"  }\n"                                                         /* 10 */
		"}\n";
	const char *decl =
		"class NoSuchWidgetException extends RuntimeException {\n"
		"  NoSuchWidgetException(String name) { super(\"no widget named \" + name); }\n"
		"}\n"
		"class Helper {\n"
		"  void failWith(int code) {\n"
		"    throw new IllegalStateException(\"widget failed with code \" + code);\n"
		"  }\n"
		"}\n";
	const char *errs =
		"public class Errors {\n"
		"  static GoneException gone(String what) { return new GoneException(\"gone for good: \" + what); }\n"
		"}\n";
	fl_src files[] = {
		{"a/Svc.java", svc, strlen(svc), NULL},
		{"b/Decl.java", decl, strlen(decl), NULL},
		{"b/Errors.java", errs, strlen(errs), NULL},
	};
	void *tree = fl_lang_jvm.tree_new();
	for (size_t i = 0; i < 3; i++)
		harness_collect(&fl_lang_jvm, tree, &files[i]);
	fl_sites *s = fl_sites_new();
	fl_lang_jvm.scan(tree, &files[0], s);
	fl_sites_sort(s);
	EXPECT_SITE(s, "no widget named {name}", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "widget failed with code {code}", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "gone for good: x", 9, FL_T_EXCEPTION);
	/* the early scan, blind to the tree, finds other sites: it must
	 * not stand */
	void *part = fl_lang_jvm.tree_new();
	fl_sites *e = fl_sites_new();
	void *log = fl_lang_jvm.collect_scan(part, &files[0], e, NULL);
	assert_non_null(log);
	assert_null(harness_find(e, "no widget named {name}"));
	assert_false(fl_lang_jvm.early_holds(tree, log));
	/* against the tree of that file alone it stands, with the same sites */
	assert_true(fl_lang_jvm.early_holds(part, log));
	fl_lang_jvm.early_free(log);
	fl_sites_free(e);
	fl_lang_jvm.tree_free(part);
	/* each lookup alone makes it fall: a tree with only one of them */
	for (size_t k = 1; k < 3; k++) {
		void *one = fl_lang_jvm.tree_new();
		harness_collect(&fl_lang_jvm, one, &files[k]);
		part = fl_lang_jvm.tree_new();
		e = fl_sites_new();
		log = fl_lang_jvm.collect_scan(part, &files[0], e, NULL);
		assert_false(fl_lang_jvm.early_holds(one, log));
		fl_lang_jvm.early_free(log);
		fl_sites_free(e);
		fl_lang_jvm.tree_free(part);
		fl_lang_jvm.tree_free(one);
	}
	assert_int_equal(harness_check_early(&fl_lang_jvm, tree, &files[0], s), 0);
	/* the declarations' own file: nothing it looks up is in the tree */
	fl_sites *d = fl_sites_new();
	fl_lang_jvm.scan(tree, &files[1], d);
	fl_sites_sort(d);
	assert_int_equal(harness_check_early(&fl_lang_jvm, tree, &files[1], d), 1);
	fl_sites_free(d);
	/* a hint that has seen the declarations tells the file before its
	 * scan: collected only */
	void *hint = fl_lang_jvm.hint_new();
	part = fl_lang_jvm.tree_new();
	e = fl_sites_new();
	log = fl_lang_jvm.collect_scan(part, &files[1], e, hint);
	fl_lang_jvm.early_free(log);
	fl_sites_free(e);
	fl_lang_jvm.tree_free(part);
	part = fl_lang_jvm.tree_new();
	e = fl_sites_new();
	assert_null(fl_lang_jvm.collect_scan(part, &files[0], e, hint));
	fl_sites_free(e);
	fl_lang_jvm.tree_free(part);
	/* ... not a file that passes another number of arguments (the
	 * tree has no constructor for it): scanned at once, and it stands */
	const char *other = "class O {\n  void f() { throw new NoSuchWidgetException(\"a\", 2); }\n}\n";
	fl_src o = {"a/O.java", other, strlen(other), NULL};
	part = fl_lang_jvm.tree_new();
	e = fl_sites_new();
	log = fl_lang_jvm.collect_scan(part, &o, e, hint);
	assert_non_null(log);
	assert_true(fl_lang_jvm.early_holds(tree, log));
	fl_lang_jvm.early_free(log);
	fl_sites_free(e);
	fl_lang_jvm.tree_free(part);
	fl_lang_jvm.hint_free(hint);
	fl_sites_free(s);
	fl_lang_jvm.tree_free(tree);
}

/* a thrower with varargs takes any number of arguments past its own; an
 * overload whose parameters take them one for one comes first; a choice
 * of texts given a conditional thrower is a site each */
static void test_java_thrower_varargs(void **state)
{
	(void)state;
	const char *prov_java =
		"public abstract class Provider {\n"                                      /* 1 */
		"  public void reportProblem(String message, Object... args) {\n"         /* 2 */
		"    throw new IllegalStateException(String.format(message, args));\n"   /* 3 */
		"  }\n"                                                                   /* 4 */
		"  public void reportProblem(Throwable t, String message, Object... args) {\n" /* 5 */
		"    throw new IllegalArgumentException(String.format(message, args), t);\n" /* 6 */
		"  }\n"                                                                   /* 7 */
		"  public static Object ensureFound(Object obj, String msg, Object... args) {\n" /* 8 */
		"    if (obj == null)\n"                                                  /* 9 */
		"      throw new IllegalStateException(String.format(msg, args));\n"      /* 10 */
		"    else return obj;\n"                                                  /* 11 */
		"  }\n"                                                                   /* 12 */
		"}\n";
	const char *use_java =
		"class Use {\n"                                                           /* 1 */
		"  void run(Provider p, Object o, String a, String b) {\n"               /* 2 */
		"    p.reportProblem(\"The shelf %s holds %s and %s\", a, b, o);\n"      /* 3 */
		"    p.reportProblem(e, \"The shelf read failed: %s\", a);\n"            /* 4 */
		"    Provider.ensureFound(o, a != null ? \"No key %s under %s\" : \"No key %s at the top\", a, b);\n" /* 5 */
		"    p.reportProblem(\"The shelf %s holds %s\", a, b);\n"               /* 6 */
		"  }\n"                                                                   /* 7 */
		"}\n";
	fl_src files[] = {{"src/main/java/Provider.java", prov_java, strlen(prov_java), NULL},
			  {"src/main/java/Use.java", use_java, strlen(use_java), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "The shelf %s holds %s and %s", 3, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "IllegalStateException");
	x = EXPECT_SITE(s, "The shelf read failed: %s", 4, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "IllegalArgumentException");
	x = EXPECT_SITE(s, "No key %s under %s", 5, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "o == null");
	EXPECT_SITE(s, "No key %s at the top", 5, FL_T_EXCEPTION);
	/* three arguments: the (Throwable, String, Object...) overload takes
	 * them one for one, but its message would be `a`; the text given
	 * first fits the other's */
	x = EXPECT_SITE(s, "The shelf %s holds %s", 6, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "IllegalStateException");
	fl_sites_free(s);
}

/* methods whose body is one throw are reporters (jackson's _reportError):
 * each call statement, in any file of the tree, is a site */
static void test_java_thrower_methods(void **state)
{
	(void)state;
	const char *base_java =
		"public abstract class ParserBase {\n"                                    /* 1 */
		"  protected final void _reportError(String msg) throws JsonParseException {\n" /* 2 */
		"    throw _constructReadException(msg);\n"                               /* 3 */
		"  }\n"                                                                   /* 4 */
		"  protected void _reportUnexpectedChar(int ch, String comment) throws IOException {\n" /* 5 */
		"    throw new JsonParseException(\"Unexpected character \" + ch + \": \" + comment);\n" /* 6 */
		"  }\n"                                                                   /* 7 */
		"  public void write(Writer out, Object value) {\n"                       /* 8 */
		"    throw new UnsupportedOperationException(\"read-only\");\n"           /* 9 */
		"  }\n"                                                                   /* 10 */
		"  protected void error(String msg) {\n"                                   /* 11 */
		"    throw new IllegalStateException(msg);\n"                             /* 12 */
		"  }\n"                                                                   /* 13 */
		"}\n";
	const char *parser_java =
		"class Utf8Parser extends ParserBase {\n"                                 /* 1 */
		"  void next(int c) throws IOException {\n"                               /* 2 */
		"    if (c < 0) {\n"                                                      /* 3 */
		"      _reportError(\"Unexpected end-of-input in field name\");\n"        /* 4 */
		"    }\n"                                                                 /* 5 */
		"    if (c == '}') this._reportUnexpectedChar(c, \"expected a value\");\n" /* 6 */
		"    write(out, value);\n"                                                /* 7 */
		"    String s = describe(_reportError(\"not a statement\"));\n"          /* 8 */
		"    ParserBase._reportError(\"a static call of the class\");\n"         /* 9 */
		"    other._reportError(\"an instance of who knows what\");\n"         /* 10 */
		"    log.error(\"the log writes a line of its own\");\n"               /* 11 */
		"    other._reportError(msg);\n"                                          /* 12 */
		"  }\n"                                                                   /* 13 */
		"}\n";
	fl_src files[] = {{"src/main/java/ParserBase.java", base_java, strlen(base_java), NULL},
			  {"src/main/java/Utf8Parser.java", parser_java, strlen(parser_java), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "Unexpected end-of-input in field name", 4, FL_T_EXCEPTION);
	harness_expect_str(x->idiom, "_reportError");
	harness_expect_str(x->function, "Utf8Parser.next");
	harness_expect_str(x->guard, "c < 0");
	harness_expect_str(x->cls, NULL); /* built by another factory */
	x = EXPECT_SITE(s, "Unexpected character {ch}: expected a value", 6, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "JsonParseException");
	/* an override named like anything else, an expression: not sites */
	assert_null(harness_find(s, "read-only"));
	assert_null(harness_find(s, "not a statement"));
	/* through its class (a static thrower): a site; through an instance
	 * of unknown class, named to throw and given a text of the call's
	 * own: a site (Jackson's `ctxt.reportBadDefinition(type, "...")`);
	 * a name anyone may have (`log.error`), or no text: not */
	EXPECT_SITE(s, "a static call of the class", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "an instance of who knows what", 10, FL_T_EXCEPTION);
	x = harness_find(s, "the log writes a line of its own"); /* the log's line */
	assert_non_null(x);
	harness_expect_str(x->cls, NULL);
	harness_expect_str(x->idiom, "log.error");
	assert_int_equal(s->n, 5);
	fl_sites_free(s);

	/* a class with its own _reportError of that arity that only logs */
	const char *logger_java =
		"class Quiet {\n"                                                       /* 1 */
		"  void _reportError(String msg) { log.warn(msg); }\n"                 /* 2 */
		"  void run() {\n"                                                      /* 3 */
		"    _reportError(\"just a note\");\n"                                  /* 4 */
		"  }\n"                                                                 /* 5 */
		"}\n";
	fl_src files2[] = {{"src/main/java/ParserBase.java", base_java, strlen(base_java), NULL},
			   {"src/main/java/Quiet.java", logger_java, strlen(logger_java), NULL}};
	s = harness_scan_tree(&fl_lang_jvm, files2, 2, 1);
	assert_null(harness_find(s, "just a note"));
	fl_sites_free(s);
}

/* A static method of another class that returns a new exception
 * (commons-io's UnsupportedOperationExceptions.method(name)):
 * `throw Class.method(args)` has the message it builds; a non-static one,
 * or a class the tree does not have, keeps the old reading. */
static void test_java_static_factories(void **state)
{
	(void)state;
	const char *ex_java =
		"final class UnsupportedOperationExceptions {\n"                          /* 1 */
		"  static UnsupportedOperationException method(final String method) {\n"  /* 2 */
		"    return new UnsupportedOperationException(method + \" not supported\");\n" /* 3 */
		"  }\n"                                                                   /* 4 */
		"  UnsupportedOperationException instance(String what) {\n"              /* 5 */
		"    return new UnsupportedOperationException(what + \" is an instance method\");\n" /* 6 */
		"  }\n"                                                                   /* 7 */
		"}\n";
	const char *use_java =
		"class SwappedDataInputStream {\n"                                        /* 1 */
		"  public String readUTF() {\n"                                           /* 2 */
		"    throw UnsupportedOperationExceptions.method(\"readUTF\");\n"          /* 3 */
		"  }\n"                                                                   /* 4 */
		"  void a() { throw UnsupportedOperationExceptions.instance(\"x\"); }\n"   /* 5 */
		"  void b() { throw Other.method(\"readLine\"); }\n"                       /* 6 */
		"}\n";
	fl_src files[] = {{"src/main/java/io/UnsupportedOperationExceptions.java", ex_java, strlen(ex_java), NULL},
			  {"src/main/java/io/SwappedDataInputStream.java", use_java, strlen(use_java), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "readUTF not supported", 3, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "UnsupportedOperationException");
	assert_null(harness_find(s, "x is an instance method"));
	EXPECT_SITE(s, "readLine", 6, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* Block comments (found by their close's last byte): what they hide is no
 * site, the lines after them count right, and one left open runs to the
 * end of the file. */
static void test_java_block_comments(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/C.java",
		"class C {\n"                                                          /* 1 */
		"  /*/ still open: throw new IllegalStateException(\"hidden one\"); */\n" /* 2 */
		"  /**\n"                                                              /* 3 */
		"   * Javadoc, a * and a / on their own **\n"                         /* 4 */
		"   * throw new IllegalStateException(\"hidden two\");\n"              /* 5 */
		"   **/\n"                                                             /* 6 */
		"  void f() { throw new IllegalStateException(\"seen\"); }\n"          /* 7 */
		"  /**/ void g() { throw new IllegalStateException(\"after /**/\"); }\n" /* 8 */
		"  /* open to the end: throw new IllegalStateException(\"hidden three\");\n"
		"}\n");
	EXPECT_SITE(s, "seen", 7, FL_T_EXCEPTION);
	EXPECT_SITE(s, "after /**/", 8, FL_T_EXCEPTION);
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

/* The collect pass lexes a Java file only when a byte scan says it may
 * declare a thrower or a static factory: names with '$', a throws clause
 * of qualified and generic names, and comments the byte scan cannot see
 * through (a line comment between the body's '{' and its throw, or after
 * the throws clause) still make one. */
static void test_java_collect_byte_scans(void **state)
{
	(void)state;
	const char *dollar_java =
		"class Dollar {\n"
		"  void helper() { throw new IllegalStateException(\"not a thrower's name\"); }\n"
		"  protected void report$Failure(String msg) throws java.io.IOException, Outer.Inner<X> {\n"
		"    throw new IllegalArgumentException(\"bad: \" + msg);\n"
		"  }\n"
		"}\n";
	const char *comment_java =
		"class Commented {\n"
		"  void helper() { throw new IllegalStateException(\"not a thrower's name\"); }\n"
		"  void raise_it(String m) { // the body's first statement is below\n"
		"    throw new IllegalStateException(\"raised: \" + m);\n"
		"  }\n"
		"  void failWith(String m) throws IOException // see: the docs\n"
		"  { throw new IllegalStateException(\"failed: \" + m); }\n"
		"}\n";
	const char *fac_java =
		"final class Fac {\n"
		"  static Outer$InnerException make(final String w) {\n"
		"    return new pkg.Outer$InnerException(w + \" went wrong\");\n"
		"  }\n"
		"}\n";
	const char *use_java =
		"class Use {\n"                                      /* 1 */
		"  void run() throws Exception {\n"                  /* 2 */
		"    report$Failure(\"disk full\");\n"               /* 3 */
		"    raise_it(\"seven\");\n"                         /* 4 */
		"    failWith(\"eight\");\n"                         /* 5 */
		"    throw Fac.make(\"open\");\n"                    /* 6 */
		"  }\n"                                              /* 7 */
		"}\n";
	fl_src files[] = {{"src/main/java/Commented.java", comment_java, strlen(comment_java), NULL},
			  {"src/main/java/Dollar.java", dollar_java, strlen(dollar_java), NULL},
			  {"src/main/java/Fac.java", fac_java, strlen(fac_java), NULL},
			  {"src/main/java/Use.java", use_java, strlen(use_java), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 4, 3);
	const fl_site *x = EXPECT_SITE(s, "bad: disk full", 3, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "IllegalArgumentException");
	EXPECT_SITE(s, "raised: seven", 4, FL_T_EXCEPTION);
	EXPECT_SITE(s, "failed: eight", 5, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "open went wrong", 6, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "Outer$InnerException");
	fl_sites_free(s);
}

/* Spring's @ResponseStatus with a reason on an exception class: the HTTP
 * status and message of the response whenever the class is thrown. */
static void test_response_status(void **state)
{
	(void)state;
	fl_sites *s = harness_scan(&fl_lang_jvm, "src/main/java/app/NotFoundException.java",
		"package app;\n"                                                          /* 1 */
		"@ResponseStatus(value = HttpStatus.NOT_FOUND, reason = \"The order could not be found\")\n" /* 2 */
		"public class NotFoundException extends RuntimeException {\n"             /* 3 */
		"}\n"                                                                     /* 4 */
		"@ResponseStatus(code = CONFLICT, reason = \"The item already exists\")\n" /* 5 */
		"@SuppressWarnings(\"serial\")\n"                                          /* 6 */
		"final class ConflictException extends RuntimeException {}\n"             /* 7 */
		"@ResponseStatus(HttpStatus.BAD_REQUEST)\n"                               /* 8 */
		"class BadThingException extends RuntimeException {}\n"                   /* 9 */
		"@ResponseStatus(value = HttpStatus.OK, reason = \"not an error status\")\n" /* 10 */
		"class Fine extends RuntimeException {}\n"                                /* 11 */
		"@ResponseStatus(value = HttpStatus.NOT_FOUND, reason = \"on a method\")\n" /* 12 */
		"void handler() {}\n");                                                  /* 13 */
	const fl_site *x = EXPECT_SITE(s, "The order could not be found", 2, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	assert_string_equal(x->cls, "NotFoundException");
	x = EXPECT_SITE(s, "The item already exists", 5, FL_T_HTTP);
	assert_int_equal(x->http, 409);
	assert_string_equal(x->cls, "ConflictException");
	assert_null(harness_find(s, "not an error status"));
	assert_null(harness_find(s, "on a method"));
	fl_sites_free(s);
}

/* Javalin: HTTP errors are classes named after their status, with the
 * status's reason phrase as their default message */
static void test_javalin_responses(void **state)
{
	(void)state;
	fl_sites *s = harness_scan(&fl_lang_jvm, "src/main/kotlin/app/Orders.kt",
		"fun create(ctx: Context) {\n"                                          /* 1 */
		"    if (ctx.contentType() != \"application/json\")\n"                 /* 2 */
		"        throw BadRequestResponse(\"Content-Type is not application/json\")\n" /* 3 */
		"    if (!authorized(ctx)) throw UnauthorizedResponse()\n"              /* 4 */
		"    if (busy) throw HttpResponseException(HttpStatus.TOO_MANY_REQUESTS, \"Slow down\")\n" /* 5 */
		"    if (big) throw HttpResponseException(HttpStatus.CONTENT_TOO_LARGE, HttpStatus.CONTENT_TOO_LARGE.message)\n" /* 6 */
		"    throw MethodNotAllowedResponse(details = mapOf(\"allowed\" to \"GET\"))\n" /* 7 */
		"    throw OkResponse()\n"                                               /* 8 */
		"    throw NotAcceptableResponse(\"Only JSON here\")\n"                 /* 9: as long as HttpResponseException */
		"}\n");                                                                 /* 10 */
	const fl_site *x = EXPECT_SITE(s, "Content-Type is not application/json", 3, FL_T_HTTP);
	assert_int_equal(x->http, 400);
	assert_string_equal(x->cls, "BadRequestResponse");
	x = EXPECT_SITE(s, "Unauthorized", 4, FL_T_HTTP);
	assert_int_equal(x->http, 401);
	x = EXPECT_SITE(s, "Slow down", 5, FL_T_HTTP);
	assert_int_equal(x->http, 429);
	x = EXPECT_SITE(s, "Content Too Large", 6, FL_T_HTTP);
	assert_int_equal(x->http, 413);
	x = EXPECT_SITE(s, "Method Not Allowed", 7, FL_T_HTTP);
	assert_int_equal(x->http, 405);
	/* not an error status: thrown, but no HTTP error */
	x = EXPECT_SITE(s, "OkResponse", 8, FL_T_EXCEPTION);
	assert_int_equal(x->http, 0);
	x = EXPECT_SITE(s, "Only JSON here", 9, FL_T_HTTP);
	assert_int_equal(x->http, 406);
	fl_sites_free(s);
}

/* Kotlin's `x ?: throw`: the site fires when x is null */
static void test_kotlin_elvis_guard(void **state)
{
	(void)state;
	fl_sites *s = harness_scan(&fl_lang_jvm, "src/main/kotlin/app/Users.kt",
		"fun find(id: String): User {\n"                                        /* 1 */
		"    val user = repo.find(id) ?: throw NoSuchElementException(\"no user $id\")\n" /* 2 */
		"    return user.profile?.name ?: throw IllegalStateException(\"user has no name\")\n" /* 3 */
		"}\n"                                                                  /* 4 */
		"fun pick(a: Boolean, v: Any?): Any = if (a) v else null ?: throw IllegalArgumentException(\"nothing picked\")\n" /* 5 */
		"fun cast(v: Any?): Int = v as? Int ?: throw IllegalArgumentException(\"not an int\")\n"); /* 6 */
	const fl_site *x = EXPECT_SITE(s, "no user ${id}", 2, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "repo.find(id) == null");
	x = EXPECT_SITE(s, "user has no name", 3, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "user.profile?.name == null");
	/* not a whole operand: no guess */
	x = EXPECT_SITE(s, "nothing picked", 5, FL_T_EXCEPTION);
	assert_null(x->guard);
	x = EXPECT_SITE(s, "not an int", 6, FL_T_EXCEPTION);
	assert_null(x->guard);
	fl_sites_free(s);
}

static void test_kotlin_factories(void **state)
{
	(void)state;
	const char *src =
		"class Reader {\n"                                                       /* 1 */
		"  fun next(): Int {\n"                                                  /* 2 */
		"    if (done) throw unexpected(\"a number\", 3)\n"                        /* 3 */
		"    throw closedError(\"reader\")\n"                                      /* 4 */
		"  }\n"                                                                  /* 5 */
		"  private fun unexpected(expected: String, at: Int): IllegalStateException =\n" /* 6 */
		"    IllegalStateException(\"Expected $expected at $at\")\n"                /* 7 */
		"  private fun closedError(what: String): IOException {\n"              /* 8 */
		"    return IOException(\"closed: \" + what)\n"                            /* 9 */
		"  }\n"                                                                  /* 10 */
		"}\n";
	fl_sites *s = scan("src/main/kotlin/Reader.kt", src);
	const fl_site *x = EXPECT_SITE(s, "Expected a number at ${at}", 3, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "IllegalStateException");
	harness_expect_str(x->guard, "done");
	x = EXPECT_SITE(s, "closed: reader", 4, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "IOException");
	fl_sites_free(s);
}

static void test_is_test_file(void **state)
{
	(void)state;
	assert_true(fl_lang_jvm.is_test_file("src/test/java/FooTest.java"));
	assert_true(fl_lang_jvm.is_test_file("FooTests.java"));
	assert_true(fl_lang_jvm.is_test_file("FooIT.java"));
	assert_true(fl_lang_jvm.is_test_file("a/FooTest.kt"));
	assert_true(fl_lang_jvm.is_test_file("FooSpec.scala"));
	assert_true(fl_lang_jvm.is_test_file("FooSuite.scala"));
	assert_false(fl_lang_jvm.is_test_file("src/Foo.java"));
	assert_false(fl_lang_jvm.is_test_file("Testing.kt"));
}

static void scan_bytes(const char *path, const char *buf, size_t n)
{
	harness_scan_bytes(&fl_lang_jvm, path, buf, n);
}

static void test_robustness(void **state)
{
	(void)state;
	const char *paths[] = {"a.java", "a.kt", "a.scala"};
	static const char junk[] = "throw new X(\"\xff\xfe\x80 bad utf8\");\n"
				   "throw new Y(\"nul\0here\");\n\"\"\"\xc3";
	for (int p = 0; p < 3; p++) {
		scan_bytes(paths[p], junk, sizeof junk - 1);
		scan_bytes(paths[p], "throw new X(\"unterminated", 25);
		scan_bytes(paths[p], "/* unterminated /* comment", 26);
		scan_bytes(paths[p], "val s = \"\"\"never closed ${ \"x", 30);
		scan_bytes(paths[p], "s\"${", 4);
		scan_bytes(paths[p], "'", 1);
		scan_bytes(paths[p], "\"$", 2);
	}
	/* 1 MB single line */
	size_t n = 1 << 20;
	char *big = harness_repeat("throw new E(\"x\" + a) ", n);
	for (int p = 0; p < 3; p++)
		scan_bytes(paths[p], big, n);
	/* 10,000 nested brackets, balanced and not */
	size_t d = 10000;
	char *nest = malloc(8 * d + 64);
	assert_non_null(nest);
	size_t w = harness_nest(nest, "throw new E(", "({[", d, "\"m\"", ")");
	for (int p = 0; p < 3; p++) {
		scan_bytes(paths[p], nest, w);
		scan_bytes(paths[p], nest, w / 2);
	}
	/* many nested constructors */
	w = 6 * d;
	harness_fill(nest, 0, w, "new E(");
	scan_bytes("a.java", nest, w);
	free(nest);
	free(big);
	/* a choice of 100,000 arms; a file of 20,000 raisers of their
	 * parameter, each called with a constant */
	char *chain = harness_repeat("a ? b : ", 800000);
	static const char open[] = "class C { void f() { throw new E(", close[] = "\"x\"); } }  ";
	memcpy(chain, open, sizeof open - 1);
	memcpy(chain + 800000 - (sizeof close - 1), close, sizeof close - 1);
	scan_bytes("a.java", chain, 800000);
	free(chain);
	char *many = harness_repeat("void r(String m) { throw new E(m); } void u() { r(K); } ", 1200000);
	static const char head[] = "class C { static final String K = \"a text\"; ";
	memcpy(many, head, sizeof head - 1);
	scan_bytes("a.java", many, 1200000);
	free(many);
}

/* fl_guard_not(): the guard of a site that fires when a condition fails */
static void test_guard_not(void **state)
{
	(void)state;
	static const char *const cases[][3] = {
		/* cond, C-like, Python */
		{"x", "!x", "not x"},
		{"repo.isOpen()", "!repo.isOpen()", "not repo.isOpen()"},
		/* one comparison: its operator turned */
		{"a > b", "a <= b", "a <= b"},
		{"rc==SQLITE_OK", "rc!=SQLITE_OK", "rc!=SQLITE_OK"},
		{"x === 'a'", "x !== 'a'", "x !== 'a'"},
		{"(x = f()) == NULL", "(x = f()) != NULL", "(x = f()) != NULL"},
		{"x is None", "!(x is None)", "x is not None"},
		{"k not in d", "!(k not in d)", "k in d"},
		/* not one comparison: negated whole */
		{"a < b && c", "!(a < b && c)", "not (a < b && c)"},
		{"a < b < c", "!(a < b < c)", "not (a < b < c)"},
		{"x = 3", "!(x = 3)", "not (x = 3)"},
		{"a << 2 > b", "!(a << 2 > b)", "not (a << 2 > b)"},
		{"p->n > 0", "!(p->n > 0)", "not (p->n > 0)"},
		{"a > b if c else d", "!(a > b if c else d)", "not (a > b if c else d)"},
		{"foo(a, b > 1)", "!foo(a, b > 1)", "not foo(a, b > 1)"},
		{"!x", "x", "not (!x)"},
		{"!(a && b)", "(a && b)", "not (!(a && b))"},
		{"not x", "!(not x)", "x"},
		{"s == \"a b\"", "s != \"a b\"", "s != \"a b\""},
		{"m[\"k\"]", "!m[\"k\"]", "not m[\"k\"]"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char *c = fl_guard_not(cases[k][0], false);
		char *p = fl_guard_not(cases[k][0], true);
		assert_string_equal(c, cases[k][1]);
		assert_string_equal(p, cases[k][2]);
		free(c);
		free(p);
	}
	assert_null(fl_guard_not(NULL, false));
}

/* Two guards joined (fl_guard_nest): kept apart where the join would read
 * worse than the inner one alone. */
static void test_guard_nest(void **state)
{
	(void)state;
	static const char *const cases[][4] = {
		/* outer, inner, C-like, Python */
		{"rc != 0", "errno == ENOENT", "rc != 0 && errno == ENOENT", "rc != 0 and errno == ENOENT"},
		{"a && b", "c", "a && b && c", "a && b and c"},
		{"not args", "x", "not args && x", "not args and x"},
		/* an "or" outside brackets on either side: the inner one */
		{"a || b", "c", "c", "c"},
		{"a", "b || c", "b || c", "b || c"},
		{"f(a || b)", "c", "f(a || b) && c", "f(a || b) and c"},
		{"s == \"x || y\"", "c", "s == \"x || y\" && c", "s == \"x || y\" and c"},
		/* more than four conditions joined (the describer reads them as written) */
		{"a && b", "c && d && e", "c && d && e", "c && d && e"},
		{"a && b && c", "d && e && f", "d && e && f", "d && e && f"},
		/* a long outer one */
		{"a_very_long_condition_name_that_goes_on(and_on, and_on) && another_one_of_them(x, y, z)",
		 "c", "c", "c"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char *c = fl_guard_nest(fl_xstrdup(cases[k][0]), fl_xstrdup(cases[k][1]), false);
		assert_string_equal(c, cases[k][2]);
		free(c);
		c = fl_guard_nest(fl_xstrdup(cases[k][0]), fl_xstrdup(cases[k][1]), true);
		assert_string_equal(c, cases[k][3]);
		free(c);
	}
	char *c = fl_guard_nest(fl_xstrdup("a or b"), fl_xstrdup("c"), true);
	assert_string_equal(c, "c");
	free(c);
	c = fl_guard_nest(NULL, fl_xstrdup("c"), false);
	assert_string_equal(c, "c");
	free(c);
	assert_null(fl_guard_nest(fl_xstrdup("a"), NULL, false));
	assert_null(fl_guard_nest(fl_xstrdup("a"), fl_xstrdup(""), false));
}

/* A report in an else's block, or after `} else`, is guarded by its if's
 * condition, turned: it runs when that condition does not hold (the last
 * if of an else-if chain).  Kotlin's `else ->` arm of a when is not an
 * if's else: no turned condition. */
static void test_else_guards(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/com/acme/Loader.java",
		"class Loader {\n"                                                    /* 1 */
		"    void load(int n, String name) {\n"                               /* 2 */
		"        if (n == 2) {\n"                                             /* 3 */
		"            use(n);\n"                                               /* 4 */
		"        } else {\n"                                                  /* 5 */
		"            throw new IllegalArgumentException(\"want two arguments\");\n"
		"        }\n"                                                         /* 7 */
		"        if (n > 3) {\n"                                              /* 8 */
		"            use(n);\n"                                               /* 9 */
		"        } else if (name == null) {\n"                                /* 10 */
		"            use(0);\n"                                               /* 11 */
		"        } else {\n"                                                  /* 12 */
		"            throw new IllegalStateException(\"bad name\");\n"        /* 13 */
		"        }\n"                                                         /* 14 */
		"        if (known(name)) { use(1); }\n"                              /* 15 */
		"        else throw new IllegalStateException(\"unknown name\");\n"   /* 16 */
		"    }\n"                                                             /* 17 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "want two arguments", 6, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n != 2");
	x = EXPECT_SITE(s, "bad name", 13, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "name != null");
	x = EXPECT_SITE(s, "unknown name", 16, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!known(name)");
	fl_sites_free(s);

	s = scan("src/main/kotlin/com/acme/Loader.kt",
		"class Loader {\n"                                                    /* 1 */
		"    fun load(n: Int, mode: String): Int {\n"                         /* 2 */
		"        val k = if (n >= 0) {\n"                                     /* 3 */
		"            n\n"                                                     /* 4 */
		"        } else {\n"                                                  /* 5 */
		"            throw IllegalArgumentException(\"negative count\")\n"    /* 6 */
		"        }\n"                                                         /* 7 */
		"        return when (mode) {\n"                                      /* 8 */
		"            \"a\" -> k\n"                                            /* 9 */
		"            else -> throw IllegalStateException(\"bad mode\")\n"     /* 10 */
		"        }\n"                                                         /* 11 */
		"    }\n"                                                             /* 12 */
		"}\n");
	x = EXPECT_SITE(s, "negative count", 6, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n < 0");
	x = EXPECT_SITE(s, "bad mode", 10, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	fl_sites_free(s);

	s = scan("src/main/scala/com/acme/Loader.scala",
		"class Loader {\n"                                                    /* 1 */
		"  def load(n: Int): Unit = {\n"                                      /* 2 */
		"    if (n > 3) {\n"                                                  /* 3 */
		"      use(n)\n"                                                      /* 4 */
		"    } else if (n == 0) {\n"                                          /* 5 */
		"      use(0)\n"                                                      /* 6 */
		"    } else {\n"                                                      /* 7 */
		"      throw new IllegalArgumentException(\"bad count\")\n"           /* 8 */
		"    }\n"                                                             /* 9 */
		"  }\n"                                                               /* 10 */
		"}\n");
	x = EXPECT_SITE(s, "bad count", 8, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n != 0");
	fl_sites_free(s);
}

/* System.err.println/print/printf/format (Java, Kotlin, Scala) and
 * Scala's Console.err.println: what the program prints on its standard
 * error; a warning when the text says so; a value alone is no site */
static void test_stderr_prints(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/com/acme/Main.java",
		"package com.acme;\n"                                                  /* 1 */
		"public class Main {\n"                                                /* 2 */
		"    public static void main(String[] args) {\n"                       /* 3 */
		"        if (args.length == 0) {\n"                                    /* 4 */
		"            System.err.println(\"error: missing file argument\");\n"  /* 5 */
		"        }\n"                                                          /* 6 */
		"        System.err.println(\"cannot open \" + args[0] + \": \" + e.getMessage());\n" /* 7 */
		"        System.err.printf(\"Warning: %s is empty%n\", name);\n"       /* 8 */
		"        System.err.format(\"WARN: 100%% of %d retries%n\", n);\n"     /* 9 */
		"        System.err.print(\"usage: main FILE\\n\");\n"                 /* 10 */
		"        System.err.println(e);\n"                                     /* 11 */
		"        System.err.println(\"\" + e);\n"                              /* 12 */
		"        System.err.printf(\"%s%n\", e);\n"                            /* 13 */
		"        System.out.println(\"error: not on stderr\");\n"              /* 14 */
		"    }\n"                                                              /* 15 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "error: missing file argument", 5, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "System.err.println");
	harness_expect_str(x->guard, "args.length == 0");
	harness_expect_str(x->function, "Main.main");
	x = EXPECT_SITE(s, "cannot open {args}: {getMessage}", 7, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "Warning: %s is empty", 8, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "System.err.printf");
	x = EXPECT_SITE(s, "WARN: 100% of %d retries", 9, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "usage: main FILE", 10, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "System.err.print");
	assert_null(harness_find(s, "{e}"));
	assert_null(harness_find(s, "%s"));
	assert_null(harness_find(s, "error: not on stderr"));
	assert_int_equal(s->n, 5);
	fl_sites_free(s);

	s = scan("src/main/kotlin/Main.kt",
		"fun main(args: Array<String>) {\n"                                    /* 1 */
		"    if (args.isEmpty()) System.err.println(\"error: no input\")\n"    /* 2 */
		"    System.err.println(\"warning: skipping $name\")\n"                /* 3 */
		"    System.err.println(e)\n"                                          /* 4 */
		"    println(\"error: on stdout\")\n"                                  /* 5 */
		"}\n");
	x = EXPECT_SITE(s, "error: no input", 2, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "warning: skipping ${name}", 3, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_null(harness_find(s, "error: on stdout"));
	assert_int_equal(s->n, 2);
	fl_sites_free(s);

	s = scan("src/main/scala/Main.scala",
		"object Main {\n"                                                      /* 1 */
		"  def main(args: Array[String]): Unit = {\n"                          /* 2 */
		"    System.err.println(\"error: no input\")\n"                        /* 3 */
		"    Console.err.println(s\"cannot read $path\")\n"                    /* 4 */
		"    Console.err.println(e)\n"                                         /* 5 */
		"    Console.println(\"error: on stdout\")\n"                          /* 6 */
		"  }\n"                                                                /* 7 */
		"}\n");
	EXPECT_SITE(s, "error: no input", 3, FL_T_CONSOLE);
	x = EXPECT_SITE(s, "cannot read ${path}", 4, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "Console.err.println");
	assert_null(harness_find(s, "error: on stdout"));
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

/* An if (or else) right inside another if's block is guarded by both
 * conditions (fl_guard_nest); not inside a while's. */
static void test_nested_guards(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/A.java",
		"class A {\n"                                                         /* 1 */
		"  void load(String name, boolean force) {\n"                         /* 2 */
		"    if (!force) {\n"                                                 /* 3 */
		"      if (exists(name)) {\n"                                         /* 4 */
		"        throw new IllegalStateException(\"already exists\");\n"      /* 5 */
		"      } else {\n"                                                    /* 6 */
		"        throw new IllegalStateException(\"no such dir\");\n"         /* 7 */
		"      }\n"                                                           /* 8 */
		"    }\n"                                                             /* 9 */
		"    if (force) {\n"                                                  /* 10 */
		"      if (name == null) throw new IllegalArgumentException(\"required\");\n" /* 11 */
		"    }\n"                                                             /* 12 */
		"    while (force) {\n"                                               /* 13 */
		"      if (name.isEmpty()) throw new IllegalArgumentException(\"in while\");\n" /* 14 */
		"    }\n"                                                             /* 15 */
		"  }\n"                                                               /* 16 */
		"}\n");
	const fl_site *x5 = EXPECT_SITE(s, "already exists", 5, FL_T_EXCEPTION);
	harness_expect_str(x5->guard, "!force && exists(name)");
	const fl_site *x7 = EXPECT_SITE(s, "no such dir", 7, FL_T_EXCEPTION);
	harness_expect_str(x7->guard, "!force && !exists(name)");
	const fl_site *x11 = EXPECT_SITE(s, "required", 11, FL_T_EXCEPTION);
	harness_expect_str(x11->guard, "force && name == null");
	const fl_site *x14 = EXPECT_SITE(s, "in while", 14, FL_T_EXCEPTION);
	harness_expect_str(x14->guard, "name.isEmpty()");
	fl_sites_free(s);
}

/* A thrower whose body is one if around the throw of its message
 * parameter (`static void require(boolean ok, String message) { if (!ok)
 * throw new IllegalArgumentException(message); }`): each call with a text
 * is a site of its class, the helper's condition in the call's words its
 * guard; a condition on what a call cannot give (a field) makes none */
static void test_conditional_throwers(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/x/Lister.java",
		"package x;\n"                                                                   /* 1 */
		"public class Lister {\n"                                                        /* 2 */
		"    static void require(boolean ok, String message) {\n"                        /* 3 */
		"        if (!ok) throw new IllegalArgumentException(message);\n"                /* 4 */
		"    }\n"                                                                        /* 5 */
		"    static void checkState(boolean bad, String message) {\n"                    /* 6 */
		"        if (bad) {\n"                                                           /* 7 */
		"            throw new IllegalStateException(message);\n"                        /* 8 */
		"        }\n"                                                                    /* 9 */
		"    }\n"                                                                        /* 10 */
		"    void checkOpen(String message) {\n"                                         /* 11 */
		"        if (closed) throw new IllegalStateException(message);\n"                /* 12 */
		"    }\n"                                                                        /* 13 */
		"    public void list(int n, Options opts) {\n"                                  /* 14 */
		"        require(n > 0, \"no entries were given to the list call\");\n"         /* 15 */
		"        if (opts.strict) checkState(opts.isLocked(), \"the lister is locked now\");\n" /* 16 */
		"        checkOpen(\"the lister was closed before\");\n"                        /* 17 */
		"    }\n"                                                                        /* 18 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "no entries were given to the list call", 15, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "IllegalArgumentException");
	harness_expect_str(p->guard, "n <= 0");
	p = EXPECT_SITE(s, "the lister is locked now", 16, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "IllegalStateException");
	harness_expect_str(p->guard, "opts.strict && opts.isLocked()");
	/* a condition the call cannot state (the object's state): a site of
	 * the text without a guard (a raiser of its parameter) */
	p = EXPECT_SITE(s, "the lister was closed before", 17, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "IllegalStateException");
	assert_null(p->guard);
	fl_sites_free(s);
}

/* A method of any name that throws an exception made of its String
 * parameter (as it is, or String.format's format) raises the text each
 * call of its file gives it: a literal at the call, a constant of the
 * file at the throw (where the library raises its default text), the
 * overload chosen by the types of the caller's parameters it passes on.
 * A constant is read inside a concatenation too. */
static void test_java_raisers_of_a_parameter(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/x/Validate.java",
		"package x;\n"                                                                        /* 1 */
		"public class Validate {\n"                                                           /* 2 */
		"    private static final String EMPTY_ARRAY = \"The validated array is empty\";\n"   /* 3 */
		"    private static final String EMPTY_TEXT = \"The validated text \" + \"is empty\";\n" /* 4 */
		"    static final String BAD = \"bad index: \";\n"                                  /* 5 */
		"    public static <T> T[] notEmpty(final T[] array, final String message, final Object... values) {\n" /* 6 */
		"        if (array.length == 0) {\n"                                                  /* 7 */
		"            throw new IllegalArgumentException(String.format(message, values));\n"   /* 8 */
		"        }\n"                                                                         /* 9 */
		"        return array;\n"                                                             /* 10 */
		"    }\n"                                                                             /* 11 */
		"    public static <T extends CharSequence> T notEmpty(final T chars, final String message, final Object... values) {\n" /* 12 */
		"        if (chars.length() == 0) {\n"                                                /* 13 */
		"            throw new IllegalArgumentException(String.format(message, values));\n"   /* 14 */
		"        }\n"                                                                         /* 15 */
		"        return chars;\n"                                                             /* 16 */
		"    }\n"                                                                             /* 17 */
		"    public static <T> T[] notEmpty(final T[] array) {\n"                             /* 18 */
		"        return notEmpty(array, EMPTY_ARRAY);\n"                                      /* 19 */
		"    }\n"                                                                             /* 20 */
		"    public static <T extends CharSequence> T notEmpty(final T chars) {\n"            /* 21 */
		"        return notEmpty(chars, EMPTY_TEXT);\n"                                       /* 22 */
		"    }\n"                                                                             /* 23 */
		"    public static String named(final String name) {\n"                               /* 24 */
		"        return notEmpty(name, \"The name must not be empty: %s\", name);\n"        /* 25 */
		"    }\n"                                                                             /* 26 */
		"    static void index(int i) {\n"                                                    /* 27 */
		"        if (i < 0) throw new IndexOutOfBoundsException(BAD + i);\n"                 /* 28 */
		"    }\n"                                                                             /* 29 */
		"    static void other(String message) {\n"                                           /* 30 */
		"        notEmpty(message, message);\n"                                               /* 31 */
		"        Other.notEmpty(message, \"another class raises this text\");\n"            /* 32 */
		"    }\n"                                                                             /* 33 */
		"}\n");
	/* the constants at the throw of their overload, with its guard */
	const fl_site *p = EXPECT_SITE(s, "The validated array is empty", 8, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "IllegalArgumentException");
	harness_expect_str(p->guard, "array.length == 0");
	p = EXPECT_SITE(s, "The validated text is empty", 14, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "chars.length() == 0");
	for (size_t k = 0; k < s->n; k++) {
		const fl_site *x = &s->v[k];
		assert_false(x->line == 8 && strcmp(x->message, "The validated text is empty") == 0);
		assert_false(x->line == 14 && strcmp(x->message, "The validated array is empty") == 0);
		/* the delegating calls are no sites of their own */
		assert_false(x->line == 19 || x->line == 22);
	}
	/* a literal: at the call */
	p = EXPECT_SITE(s, "The name must not be empty: %s", 25, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "IllegalArgumentException");
	/* a constant inside a concatenation */
	EXPECT_SITE(s, "bad index: {i}", 28, FL_T_EXCEPTION);
	/* the parameter handed on, another class's method: none */
	assert_null(harness_find(s, "another class raises this text"));
	fl_sites_free(s);
	/* Objects.requireNonNull(object, () -> String.format(message, ...)):
	 * a NullPointerException of the parameter */
	s = scan("src/main/java/x/Val.java",
		"package x;\n"                                                                       /* 1 */
		"public class Val {\n"                                                               /* 2 */
		"    private static final String IS_NULL = \"The validated object is null\";\n"     /* 3 */
		"    public static <T> T notNull(final T object) {\n"                                /* 4 */
		"        return notNull(object, IS_NULL);\n"                                         /* 5 */
		"    }\n"                                                                            /* 6 */
		"    public static <T> T notNull(final T object, final String message, final Object... values) {\n" /* 7 */
		"        return Objects.requireNonNull(object, () -> String.format(message, values));\n" /* 8 */
		"    }\n"                                                                            /* 9 */
		"    public static <T> T present(final T object) {\n"                                /* 10 */
		"        return notNull(object, \"The value of %s must be present\", \"x\");\n"  /* 11 */
		"    }\n"                                                                            /* 12 */
		"}\n");
	p = EXPECT_SITE(s, "The validated object is null", 8, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "NullPointerException");
	p = EXPECT_SITE(s, "The value of %s must be present", 11, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "NullPointerException");
	fl_sites_free(s);
}

/* An exception made of the texts a method of the file returns is a site
 * of each where it is made, thrown or not (the factory returns it); the
 * throw of the factory with a one-word argument (the kind of check, not
 * its message) is none. */
static void test_java_message_methods(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/x/Bounds.java",
		"package x;\n"                                                                         /* 1 */
		"final class Bounds {\n"                                                               /* 2 */
		"    static String message(String kind, int index, int length) {\n"                   /* 3 */
		"        switch (kind) {\n"                                                            /* 4 */
		"            case \"checkIndex\":\n"                                                  /* 5 */
		"                return String.format(\"Index %s out of bounds for length %s\", index, length);\n" /* 6 */
		"            default:\n"                                                               /* 7 */
		"                return String.format(\"Range check failed: %s %s\", kind, index);\n" /* 8 */
		"        }\n"                                                                          /* 9 */
		"    }\n"                                                                              /* 10 */
		"    static RuntimeException outOfBounds(String kind, int index, int length) {\n"      /* 11 */
		"        return new IndexOutOfBoundsException(message(kind, index, length));\n"        /* 12 */
		"    }\n"                                                                              /* 13 */
		"    static int checkIndex(int index, int length) {\n"                                 /* 14 */
		"        if (index < 0 || index >= length)\n"                                          /* 15 */
		"            throw outOfBounds(\"checkIndex\", index, length);\n"                     /* 16 */
		"        return index;\n"                                                              /* 17 */
		"    }\n"                                                                              /* 18 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "Index %s out of bounds for length %s", 12, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "IndexOutOfBoundsException");
	EXPECT_SITE(s, "Range check failed: %s %s", 12, FL_T_EXCEPTION);
	assert_null(harness_find(s, "checkIndex"));
	for (size_t k = 0; k < s->n; k++)
		assert_int_not_equal(s->v[k].line, 16);
	fl_sites_free(s);
}

/* One thrower name declared in two classes (a parser's and a generator's
 * `_reportError(String msg)`): their calls are sites when both build the
 * same text, of no class when their classes differ; texts that differ
 * leave the name to neither. */
static void test_java_thrower_declared_twice(void **state)
{
	(void)state;
	const char *parser =
		"public abstract class ParserMinimalBase {\n"
		"  protected final void _reportError(String msg) throws JsonParseException {\n"
		"    throw _constructError(msg);\n"
		"  }\n"
		"  protected void _failWith(String what) { throw new IllegalStateException(\"parser: \" + what); }\n"
		"}\n";
	const char *gen =
		"public abstract class JsonGenerator {\n"
		"  protected void _reportError(String message) throws JsonGenerationException {\n"
		"    throw new JsonGenerationException(message, this);\n"
		"  }\n"
		"  protected void _failWith(String what) { throw new IllegalStateException(\"generator: \" + what); }\n"
		"}\n";
	const char *user =
		"class Utf8Parser extends ParserMinimalBase {\n"                                  /* 1 */
		"  void next(int c) throws IOException {\n"                                       /* 2 */
		"    if (c == ']')\n"                                                             /* 3 */
		"      _reportError(String.format(\"Unexpected close marker '%s': expected '%c'\", c, '}'));\n" /* 4 */
		"    _failWith(\"no next token\");\n"                                           /* 5 */
		"  }\n"
		"}\n";
	/* either order of the two declarations: the same answer */
	for (int order = 0; order < 2; order++) {
		fl_src files[] = {{"src/main/java/ParserMinimalBase.java", parser, strlen(parser), NULL},
				  {"src/main/java/JsonGenerator.java", gen, strlen(gen), NULL},
				  {"src/main/java/Utf8Parser.java", user, strlen(user), NULL}};
		if (order) {
			fl_src t = files[0];
			files[0] = files[1];
			files[1] = t;
		}
		fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 3, 2);
		const fl_site *x = EXPECT_SITE(s, "Unexpected close marker '%s': expected '%c'", 4, FL_T_EXCEPTION);
		harness_expect_str(x->cls, NULL);
		harness_expect_str(x->guard, "c == ']'");
		assert_null(harness_find(s, "parser: no next token"));
		assert_null(harness_find(s, "generator: no next token"));
		fl_sites_free(s);
	}
}

/* A thrower that formats its message parameter first (`msg =
 * _format(msg, args);`) and throws a static factory's exception made of
 * it after other arguments (`MismatchedInputException.from(p, type,
 * msg)`): its calls with a text are sites, and a call given a local
 * that holds a text in each branch is a site of each. */
static void test_java_thrower_reformats(void **state)
{
	(void)state;
	const char *ctx_java =
		"public class Ctx {\n"                                                          /* 1 */
		"    public <T> T reportInputMismatch(Class<?> targetType,\n"                   /* 2 */
		"            String msg, Object... msgArgs) throws JsonMappingException\n"      /* 3 */
		"    {\n"                                                                       /* 4 */
		"        msg = _format(msg, msgArgs);\n"                                        /* 5 */
		"        throw MismatchedInputException.from(getParser(), targetType, msg);\n"  /* 6 */
		"    }\n"                                                                       /* 7 */
		"    public Object unexpected(Class<?> type, JsonToken t) throws IOException {\n" /* 8 */
		"        String msg;\n"                                                         /* 9 */
		"        if (t == null) {\n"                                                    /* 10 */
		"            msg = String.format(\"Unexpected end-of-input reading a %s\", type);\n" /* 11 */
		"        } else {\n"                                                            /* 12 */
		"            msg = String.format(\"Cannot deserialize a %s from %s\", type, t);\n" /* 13 */
		"        }\n"                                                                   /* 14 */
		"        reportInputMismatch(type, msg);\n"                                     /* 15 */
		"        return null;\n"                                                        /* 16 */
		"    }\n"                                                                       /* 17 */
		"}\n";
	const char *user_java =
		"class NumberDeser {\n"                                                         /* 1 */
		"    Object coerce(Ctx ctxt, Class<?> type) throws IOException {\n"             /* 2 */
		"        if (type == null)\n"                                                   /* 3 */
		"            this.reportInputMismatch(type, \"Cannot coerce %s to a number\", type);\n" /* 4 */
		"        this.reportInputMismatch(type, ctxt == null ? \"No context to read a %s\" : \"No number in a %s\", type);\n" /* 5 */
		"        return null;\n"                                                        /* 6 */
		"    }\n"                                                                       /* 7 */
		"}\n";
	fl_src files[] = {{"src/main/java/Ctx.java", ctx_java, strlen(ctx_java), NULL},
			  {"src/main/java/NumberDeser.java", user_java, strlen(user_java), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 2, 0);
	const fl_site *x = EXPECT_SITE(s, "Unexpected end-of-input reading a %s", 15, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "MismatchedInputException");
	EXPECT_SITE(s, "Cannot deserialize a %s from %s", 15, FL_T_EXCEPTION);
	fl_sites_free(s);
	s = harness_scan_tree(&fl_lang_jvm, files, 2, 1);
	x = EXPECT_SITE(s, "Cannot coerce %s to a number", 4, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "MismatchedInputException");
	harness_expect_str(x->guard, "type == null");
	EXPECT_SITE(s, "No context to read a %s", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "No number in a %s", 5, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* A message chosen between texts, `first ? "a" : "b"` (nested, or an arm
 * that is no text): a site of each text. */
static void test_java_choice_of_texts(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/x/Gz.java",
		"package x;\n"                                                                  /* 1 */
		"final class Gz {\n"                                                            /* 2 */
		"    void read(boolean first, int magic, String why) throws IOException {\n"    /* 3 */
		"        if (magic != 31)\n"                                                    /* 4 */
		"            throw new IOException(first ? \"Input is not in the .gz format\"\n" /* 5 */
		"                : magic == 0 ? \"Garbage after a valid .gz stream\" : why);\n" /* 6 */
		"    }\n"                                                                       /* 7 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "Input is not in the .gz format", 5, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "IOException");
	harness_expect_str(p->guard, "magic != 31");
	EXPECT_SITE(s, "Garbage after a valid .gz stream", 5, FL_T_EXCEPTION);
	assert_null(harness_find(s, "IOException"));
	fl_sites_free(s);
}

/* A checker that returns what it checked (`if (obj == null) throw ...;
 * return obj;`, requireNonNull's form) is a thrower too; the declaration
 * of a method named like Guava's checkState is no call of it. */
static void test_returning_checker_and_declarations(void **state)
{
	(void)state;
	fl_sites *s = scan("src/main/java/x/Checks.java",
		"package x;\n"                                                            /* 1 */
		"public class Checks {\n"                                                 /* 2 */
		"    static <T> T requireThing(T obj, String message) {\n"                /* 3 */
		"        if (obj == null)\n"                                              /* 4 */
		"            throw new NullPointerException(message);\n"                  /* 5 */
		"        return obj;\n"                                                   /* 6 */
		"    }\n"                                                                 /* 7 */
		"    public static void checkState(boolean ok, String message) {\n"      /* 8 */
		"        if (!ok) {\n"                                                    /* 9 */
		"            throw new IllegalStateException(message);\n"                 /* 10 */
		"        }\n"                                                             /* 11 */
		"    }\n"                                                                 /* 12 */
		"    void run(Object owner) {\n"                                          /* 13 */
		"        requireThing(owner, \"the widget needs an owner\");\n"           /* 14 */
		"    }\n"                                                                 /* 15 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "the widget needs an owner", 14, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "NullPointerException");
	harness_expect_str(p->guard, "owner == null");
	/* no site at the declaration of checkState (line 8), one at its throw */
	for (size_t k = 0; k < s->n; k++)
		assert_int_not_equal(s->v[k].line, 8);
	fl_sites_free(s);
}

/* getMessage() overridden in an exception class: each text it returns is a
 * site (a definition of the class's message), guarded by its branch; a
 * getMessage of a class that is no exception and not an @Override is not. */
static void test_get_message_override(void **state)
{
	(void)state;
	fl_sites *s = harness_scan(&fl_lang_jvm, "src/acme/Errors.java",
		"package acme;\n"                                                      /* 1 */
		"public class Errors {\n"                                              /* 2 */
		"    public static class RunFailed extends Exception {\n"              /* 3 */
		"        private final int code;\n"                                    /* 4 */
		"        @Override\n"                                                  /* 5 */
		"        public String getMessage() {\n"                               /* 6 */
		"            if (code < 0) {\n"                                        /* 7 */
		"                return \"Command died with signal \" + (-code);\n"  /* 8 */
		"            }\n"                                                      /* 9 */
		"            return \"Command exited with status \" + code;\n"       /* 10 */
		"        }\n"                                                          /* 11 */
		"    }\n"                                                              /* 12 */
		"    public static class PartMissingException extends RuntimeException {\n" /* 13 */
		"        public String getMessage() { return \"No part named \" + part; }\n" /* 14 */
		"    }\n"                                                              /* 15 */
		"    static class Note {\n"                                            /* 16 */
		"        public String getMessage() { return \"a note for \" + who; }\n" /* 17 */
		"        String describe() { return \"Command exited\"; }\n"         /* 18 */
		"    }\n"                                                              /* 19 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Command died with signal {code}", 8, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "RunFailed");
	harness_expect_str(x->idiom, "class method getMessage");
	harness_expect_str(x->guard, "code < 0");
	x = EXPECT_SITE(s, "Command exited with status {code}", 10, FL_T_EXCEPTION);
	assert_null(x->guard);
	x = EXPECT_SITE(s, "No part named {part}", 14, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "PartMissingException");
	assert_null(harness_find(s, "a note for {who}"));
	assert_int_equal((int)s->n, 3);
	fl_sites_free(s);

	/* one text: the message of each `throw new` of the class, in any file
	 * of the tree, its fields filled like the constructor's parameters */
	const char *errors =
		"package acme;\n"
		"public class PartMissingException extends RuntimeException {\n"
		"    private final String part;\n"
		"    public PartMissingException(String part) { this.part = part; }\n"
		"    @Override\n"
		"    public String getMessage() { return \"No part named \" + part; }\n"
		"}\n";
	const char *shelf =
		"package acme;\n"                                              /* 1 */
		"class Shelf {\n"                                              /* 2 */
		"    Part find(String name) {\n"                               /* 3 */
		"        if (!parts.containsKey(name)) {\n"                    /* 4 */
		"            throw new PartMissingException(name);\n"          /* 5 */
		"        }\n"                                                  /* 6 */
		"        throw new PartMissingException(\"bolt\");\n"        /* 7 */
		"    }\n"                                                      /* 8 */
		"}\n";
	fl_src files[] = {{"src/acme/PartMissingException.java", errors, strlen(errors), NULL},
			  {"src/acme/Shelf.java", shelf, strlen(shelf), NULL}};
	s = harness_scan_tree(&fl_lang_jvm, files, 2, 1);
	x = EXPECT_SITE(s, "No part named {part}", 5, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!parts.containsKey(name)");
	EXPECT_SITE(s, "No part named bolt", 7, FL_T_EXCEPTION);
	fl_sites_free(s);

	/* a getMessage() built on the base's message, through a method of
	 * the class (maven's getBaseMessage()): a throw keeps its own text */
	const char *rt =
		"public class InvalidRTException extends RuntimeException {\n"
		"    public InvalidRTException(String key, String message) { super(message); this.key = key; }\n"
		"    public String getBaseMessage() { return super.getMessage(); }\n"
		"    @Override\n"
		"    public String getMessage() { return \"For {\" + key + \"}: \" + getBaseMessage(); }\n"
		"}\n";
	const char *use =
		"class Use {\n"
		"    void check(String key) {\n"
		"        throw new InvalidRTException(key, \"The key cannot be empty.\");\n" /* 3 */
		"    }\n"
		"}\n";
	fl_src files2[] = {{"src/InvalidRTException.java", rt, strlen(rt), NULL},
			   {"src/Use.java", use, strlen(use), NULL}};
	s = harness_scan_tree(&fl_lang_jvm, files2, 2, 1);
	EXPECT_SITE(s, "The key cannot be empty.", 3, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* Message bundles: a base .properties file's keys (its translations
 * not), and a report call given a key as a literal or the file's
 * constant: the text as MessageFormat prints it ('' one quote, a quoted
 * run without its quotes), the bundle of the file's package before one
 * of a package above it; a key of no bundle, or a call not named for
 * reporting, is no site. */
static void test_java_bundle_keys(void **state)
{
	(void)state;
	const char *bundle =
		"# checks\n"
		"name.invalidPattern=Name ''{0}'' must match pattern ''{1}''.\n"
		"noNewlineAtEOF = File does not end with a newline.\n"
		"needBraces: ''{0}'' construct must use '''{}'''s.\n"
		"long.text=Line is longer than {0,number,integer} \\\n"
		"    characters (found {1,number,integer}).\n"
		"label.ok=OK\n"
		"unicode.text=Caf\\u00e9 is closed.\n";
	const char *german = "name.invalidPattern=Name ''{0}'' passt nicht zu ''{1}''.\n";
	const char *root = "noNewlineAtEOF=The root bundle says this.\n"
			   "root.only=Only the root bundle has it.\n";
	const char *check =
		"package com.acme.checks;\n"                                        /* 1 */
		"public class NameCheck extends AbstractCheck {\n"                  /* 2 */
		"    public static final String MSG_KEY = \"name.invalidPattern\";\n" /* 3 */
		"    private static final String MSG_EOF = \"noNewlineAtEOF\";\n"  /* 4 */
		"    void visit(Ast ast) {\n"                                       /* 5 */
		"        if (!ok) {\n"                                              /* 6 */
		"            log(ast, MSG_KEY, name, format);\n"                    /* 7 */
		"        }\n"                                                       /* 8 */
		"        options.getReporter().log(1, MSG_EOF);\n"                  /* 9 */
		"        log(ast, \"needBraces\", ast.getText());\n"               /* 10 */
		"        reportViolation(\"long.text\", max, len);\n"              /* 11 */
		"        logWarning(\"unicode.text\");\n"                          /* 12 */
		"        log(ast, \"root.only\");\n"                               /* 13 */
		"        log(ast, \"label.ok\");\n"                                /* 14 */
		"        log(ast, \"no.such.key\");\n"                             /* 15 */
		"        setText(\"name.invalidPattern\");\n"                      /* 16 */
		"        reportWarning(ast, \"root.only\");\n"                  /* 17 */
		"    }\n"
		"}\n";
	fl_src files[] = {
		{"src/main/resources/com/acme/checks/messages.properties", bundle, strlen(bundle), NULL},
		{"src/main/resources/com/acme/checks/messages_de.properties", german, strlen(german), NULL},
		{"src/main/resources/com/acme/messages.properties", root, strlen(root), NULL},
		{"src/main/java/com/acme/checks/NameCheck.java", check, strlen(check), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_jvm, files, 4, 3);
	const fl_site *x = EXPECT_SITE(s, "Name '{0}' must match pattern '{1}'.", 7, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_string_equal(x->guard, "!ok");
	assert_string_equal(x->function, "NameCheck.visit");
	x = EXPECT_SITE(s, "File does not end with a newline.", 9, FL_T_CONSOLE);
	assert_string_equal(x->idiom, "options.getReporter().log");
	EXPECT_SITE(s, "'{0}' construct must use '{}'s.", 10, FL_T_CONSOLE);
	EXPECT_SITE(s, "Line is longer than {0,number,integer} characters (found {1,number,integer}).",
		    11, FL_T_CONSOLE);
	x = EXPECT_SITE(s, "Caf\xc3\xa9 is closed.", 12, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	EXPECT_SITE(s, "Only the root bundle has it.", 13, FL_T_CONSOLE);
	/* a warning's name says so anywhere in it */
	x = harness_expect_at(s, 17, "Only the root bundle has it.");
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_int_equal(s->n, 7);
	fl_sites_free(s);
	/* a bundle's file scanned alone: no site */
	expect_none("src/main/resources/com/acme/checks/messages.properties", bundle);
	/* junk in a bundle: no crash */
	static const char junk[] = "a\\\n\\u12\\\\=\\\nkey.x=\xff\xfe two words\\u";
	fl_src bad[] = {{"src/x/messages.properties", junk, sizeof junk - 1, NULL}};
	s = harness_scan_tree(&fl_lang_jvm, bad, 1, 0);
	assert_int_equal(s->n, 0);
	fl_sites_free(s);
}

/* JFlex's and CUP's specs read as Java (spec.c): the code kept at its
 * place, the rest spaces, line breaks kept; then scanned as Java. */
static void test_spec_mask(void **state)
{
	(void)state;
	const char *flex =
		"package com.acme;\n"                                  /* 1 */
		"%%\n"                                                 /* 2 */
		"%class Lex\n"                                         /* 3 */
		"%{\n"                                                 /* 4 */
		"  int depth;\n"                                       /* 5 */
		"%}\n"                                                 /* 6 */
		"%init{\n"                                             /* 7 */
		"  depth = 0;\n"                                       /* 8 */
		"%init}\n"                                             /* 9 */
		"WSP = [ \\t]\n"                                       /* 10 */
		"%%\n"                                                 /* 11 */
		"<YYINITIAL> {\n"                                      /* 12 */
		"  \"{\" {WSP}+ [a-z]{2,3}  { depth++; }\n"            /* 13 */
		"  \\\"   |\n"                                          /* 14 */
		"  \"}\" { if (depth == 0) throw new IllegalStateException(\"Unbalanced turnip brace\"); }\n" /* 15 */
		"}\n"                                                  /* 16 */
		"<<EOF>> { throw new IllegalStateException(\"Open turnip at the end\"); }\n"; /* 17 */
	size_t n = strlen(flex);
	char *m = jvm_spec_mask("src/Lex.flex", flex, n);
	assert_int_equal(strlen(m), n);
	for (size_t k = 0; k < n; k++)
		if (flex[k] == '\n')
			assert_int_equal(m[k], '\n');
	assert_non_null(strstr(m, "package com.acme;"));
	assert_null(strstr(m, "%class"));
	assert_null(strstr(m, "WSP"));
	assert_non_null(strstr(m, "  int depth;"));
	assert_non_null(strstr(m, "     {\n  depth = 0;\n     }"));
	assert_non_null(strstr(m, "{ depth++; }"));
	assert_null(strstr(m, "[a-z]"));
	free(m);
	fl_sites *s = scan("src/Lex.flex", flex);
	EXPECT_SITE(s, "Unbalanced turnip brace", 15, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Open turnip at the end", 17, FL_T_EXCEPTION);
	assert_int_equal(s->n, 2);
	fl_sites_free(s);

	const char *cup =
		"package com.acme;\n"                                          /* 1 */
		"import java.util.*;\n"                                        /* 2 */
		"action code {: int count; :};\n"                              /* 3 */
		"terminal NUMBER;\n"                                           /* 4 */
		"spec ::= NUMBER:n\n"                                          /* 5 */
		"  {: if (n == 0) throw new IllegalArgumentException(\"A zero turnip count\"); :}\n" /* 6 */
		"  ;\n";                                                       /* 7 */
	n = strlen(cup);
	m = jvm_spec_mask("src/Parse.cup", cup, n);
	assert_int_equal(strlen(m), n);
	assert_non_null(strstr(m, "import java.util.*;"));
	assert_non_null(strstr(m, " { int count; } "));
	assert_null(strstr(m, "terminal"));
	assert_null(strstr(m, "::="));
	free(m);
	s = scan("src/Parse.cup", cup);
	EXPECT_SITE(s, "A zero turnip count", 6, FL_T_EXCEPTION);
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_guards),
		cmocka_unit_test(test_guard_not),
		cmocka_unit_test(test_guard_nest),
		cmocka_unit_test(test_java_throw),
		cmocka_unit_test(test_else_guards),
		cmocka_unit_test(test_java_preconditions_logging),
		cmocka_unit_test(test_java_spring_and_textblock),
		cmocka_unit_test(test_java_traps),
		cmocka_unit_test(test_kotlin),
		cmocka_unit_test(test_kotlin_traps2),
		cmocka_unit_test(test_kotlin_trim_and_java_switch),
		cmocka_unit_test(test_scala),
		cmocka_unit_test(test_error_enums),
		cmocka_unit_test(test_java_factories),
		cmocka_unit_test(test_kotlin_factories),
		cmocka_unit_test(test_java_local_message),
		cmocka_unit_test(test_exception_constructors),
		cmocka_unit_test(test_pass_through_constructor),
		cmocka_unit_test(test_conditional_throwers),
		cmocka_unit_test(test_returning_checker_and_declarations),
		cmocka_unit_test(test_java_raisers_of_a_parameter),
		cmocka_unit_test(test_java_message_methods),
		cmocka_unit_test(test_java_choice_of_texts),
		cmocka_unit_test(test_java_thrower_declared_twice),
		cmocka_unit_test(test_java_thrower_reformats),
		cmocka_unit_test(test_java_early_scan_checked),
		cmocka_unit_test(test_java_thrower_methods),
		cmocka_unit_test(test_java_thrower_varargs),
		cmocka_unit_test(test_java_static_factories),
		cmocka_unit_test(test_java_collect_byte_scans),
		cmocka_unit_test(test_java_block_comments),
		cmocka_unit_test(test_response_status),
		cmocka_unit_test(test_javalin_responses),
		cmocka_unit_test(test_kotlin_elvis_guard),
		cmocka_unit_test(test_is_test_file),
		cmocka_unit_test(test_stderr_prints),
		cmocka_unit_test(test_robustness),
		cmocka_unit_test(test_get_message_override),
		cmocka_unit_test(test_java_returned_text_picks_string_ctor),
		cmocka_unit_test(test_java_validators),
		cmocka_unit_test(test_kotlin_expression_body_text),
		cmocka_unit_test(test_java_switch_default_many),
		cmocka_unit_test(test_string_constants),
		cmocka_unit_test(test_java_ctor_builders),
		cmocka_unit_test(test_java_bundle_keys),
		cmocka_unit_test(test_spec_mask),
	};
	return cmocka_run_group_tests_name("jvm", tests, NULL, NULL);
}
