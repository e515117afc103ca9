/*
 * test_lang_csharp.c — unit tests for the C# language file.
 */
#include "lang_harness.h"

#include <stdlib.h>

extern const fl_lang fl_lang_csharp;

static fl_sites *scan(const char *text)
{
	return harness_scan(&fl_lang_csharp, "src/Acme/UserService.cs", text);
}

static void expect_none(const char *text)
{
	harness_expect_none(scan(text), "src/Acme/UserService.cs");
}

static void test_throw(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"namespace Acme {\n"                                                  /* 1 */
		"public class UserService {\n"                                        /* 2 */
		"    public UserService(ILogger logger) : base(logger) {\n"           /* 3 */
		"        _logger = logger ?? throw new ArgumentNullException(nameof(logger));\n"
		"    }\n"                                                             /* 5 */
		"    public User Get(int id) {\n"                                     /* 6 */
		"        if (id == 0) {\n"                                            /* 7 */
		"            throw new ArgumentException($\"Invalid id {id:D4} ({{literal}})\", nameof(id));\n"
		"        }\n"                                                         /* 9 */
		"        if (id > 10) throw new InvalidOperationException(string.Format(\"Too big: {0} {{ok}}\", id));\n"
		"        throw new System.IO.IOException(\"line one\\n\" +\n"        /* 11 */
		"            \"line \\\"two\\\"\\t\" + id);\n"                       /* 12 */
		"    }\n"                                                             /* 13 */
		"    public string Name => throw new NotImplementedException(@\"Name \"\"is\"\" \\n missing\");\n"
		"    void Rethrow(Exception e) { throw; }\n"                          /* 15 */
		"    void Rethrow2(Exception e) { throw e; }\n"                       /* 16 */
		"    Task Fail() => Task.FromException(new TimeoutException(\"timed out\"));\n"
		"}\n"
		"}\n");
	/* the runtime's own message, with the parameter name it appends */
	const fl_site *x = EXPECT_SITE(s, "Value cannot be null. (Parameter 'logger')", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ArgumentNullException");
	assert_string_equal(x->function, "UserService.UserService");
	assert_null(x->guard);
	x = EXPECT_SITE(s, "Invalid id {id:D4} ({literal}) (Parameter 'id')", 8, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ArgumentException");
	assert_string_equal(x->guard, "id == 0");
	assert_string_equal(x->function, "UserService.Get");
	assert_string_equal(x->idiom, "throw new");
	assert_int_equal(x->col, 13);
	x = EXPECT_SITE(s, "Too big: {0} {ok}", 10, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "id > 10");
	x = EXPECT_SITE(s, "line one\nline \"two\"\t{id}", 11, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "IOException");
	x = EXPECT_SITE(s, "Name \"is\" \\n missing", 14, FL_T_EXCEPTION);
	assert_string_equal(x->function, "UserService.Name");
	x = EXPECT_SITE(s, "timed out", 17, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "TimeoutException");
	assert_string_equal(x->function, "UserService.Fail");
	assert_int_equal(s->n, 6);
	fl_sites_free(s);
}

/* .NET's ArgumentException family: parameter name vs message arguments */
/* `throw new X(MissingMessage(name))`: the text the file's one method of
 * that name returns (a block body or an expression body); overloads give
 * none */
static void test_helper_texts(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"namespace Acme {\n"                                                  /* 1 */
		"public class Repo {\n"                                               /* 2 */
		"    private static string MissingMessage(string name)\n"             /* 3 */
		"    {\n"                                                             /* 4 */
		"        return $\"Package '{name}' is not in the repository\";\n"     /* 5 */
		"    }\n"                                                             /* 6 */
		"    private string Locked(string name) => $\"{name} is locked\";\n"  /* 7 */
		"    public void Find(string name) {\n"                               /* 8 */
		"        if (name == null)\n"                                         /* 9 */
		"            throw new InvalidOperationException(MissingMessage(name));\n" /* 10 */
		"        if (name.Length == 0)\n"                                     /* 11 */
		"            throw new InvalidOperationException(this.Locked(name));\n" /* 12 */
		"    }\n"                                                             /* 13 */
		"}\n"                                                                 /* 14 */
		"}\n");                                                               /* 15 */
	EXPECT_SITE(s, "Package '{name}' is not in the repository", 10, FL_T_EXCEPTION);
	EXPECT_SITE(s, "{name} is locked", 12, FL_T_EXCEPTION);
	fl_sites_free(s);
}

static void test_argument_exceptions(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class Args {\n"                                                                  /* 1 */
		"  void M(string key, int index, object value, string paramName, Exception ex) {\n" /* 2 */
		"    if (key == null) throw new ArgumentNullException(\"key\");\n"                /* 3 */
		"    if (index < 0) throw new ArgumentOutOfRangeException(nameof(index));\n"       /* 4 */
		"    if (index > 9) throw new ArgumentOutOfRangeException(nameof(index), index, \"Index past the end.\");\n"
		"    if (index > 8) throw new ArgumentOutOfRangeException(\"index\", \"Index too large.\");\n"
		"    if (value == null) throw new ArgumentNullException(paramName);\n"             /* 7 */
		"    if (ex != null) throw new ArgumentNullException(\"Wrapped failure.\", ex);\n" /* 8 */
		"    if (key.Length == 0) throw new ArgumentException(\"Key is empty.\", nameof(this.key));\n"
		"    if (key.Length > 9) throw new ArgumentException(\"Key is long.\");\n"         /* 10 */
		"    if (index == 5) throw new ArgumentOutOfRangeException(nameof(index), index, null);\n"
		"    ArgumentNullException.ThrowIfNull(value.Inner);\n"                            /* 12 */
		"  }\n"
		"}\n");
	EXPECT_SITE(s, "Value cannot be null. (Parameter 'key')", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Specified argument was out of the range of valid values. (Parameter 'index')", 4, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Index past the end. (Parameter 'index')\nActual value was {index}.", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Index too large. (Parameter 'index')", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Value cannot be null. (Parameter '{paramName}')", 7, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Wrapped failure.", 8, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Key is empty. (Parameter 'key')", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Key is long.", 10, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Specified argument was out of the range of valid values. (Parameter 'index')\nActual value was {index}.", 11, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Value cannot be null. (Parameter 'value.Inner')", 12, FL_T_EXCEPTION);
	assert_int_equal(s->n, 10);
	fl_sites_free(s);
}

static void test_throw_helpers_switch(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class Svc {\n"                                                       /* 1 */
		"  int M(int id, string name) {\n"                                    /* 2 */
		"    ArgumentNullException.ThrowIfNull(name);\n"                      /* 3 */
		"    ArgumentException.ThrowIfNullOrEmpty(name);\n"                   /* 4 */
		"    ArgumentOutOfRangeException.ThrowIfNegative(id);\n"              /* 5 */
		"    return id switch {\n"                                            /* 6 */
		"      1 => throw new NotSupportedException(\"one\"),\n"              /* 7 */
		"      > 100 when name.Length > 3 => throw new OverflowException(\"big\"),\n"
		"      _ => throw new InvalidOperationException(\"other\"),\n"        /* 9 */
		"    };\n"                                                            /* 10 */
		"  }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Value cannot be null. (Parameter 'name')", 3, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ArgumentNullException");
	assert_string_equal(x->function, "Svc.M");
	x = EXPECT_SITE(s, "The value cannot be an empty string. (Parameter 'name')", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ArgumentException");
	x = EXPECT_SITE(s, "id ('{id}') must be a non-negative value. (Parameter 'id')\nActual value was {id}.",
			5, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ArgumentOutOfRangeException");
	x = EXPECT_SITE(s, "one", 7, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "1");
	x = EXPECT_SITE(s, "big", 8, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "> 100 when name.Length > 3");
	x = EXPECT_SITE(s, "other", 9, FL_T_EXCEPTION);
	assert_null(x->guard);
	fl_sites_free(s);
}

/* .NET 8's throw helpers and ObjectDisposedException, with the messages
 * the framework prints */
static void test_throw_if_and_disposed(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class Pool : IDisposable {\n"                                                   /* 1 */
		"  void Rent(int size, int max, string key, object v, string argumentName) {\n"
		"    ArgumentOutOfRangeException.ThrowIfGreaterThan(size, 24);\n"                /* 3 */
		"    ArgumentOutOfRangeException.ThrowIfLessThan(size, max);\n"                  /* 4 */
		"    ArgumentOutOfRangeException.ThrowIfNegativeOrZero(size, nameof(max));\n"    /* 5 */
		"    ArgumentException.ThrowIfNullOrWhiteSpace(key);\n"                          /* 6 */
		"    ArgumentNullException.ThrowIfNull(v, argumentName);\n"                      /* 7 */
		"    ObjectDisposedException.ThrowIf(_disposed, this);\n"                        /* 8 */
		"    if (_gone) throw new ObjectDisposedException(nameof(Pool<T>));\n"           /* 9 */
		"    if (_gone) throw new ObjectDisposedException(\"Pool\", \"The pool is closed.\");\n"
		"    if (_gone) throw new ObjectDisposedException(GetType().FullName);\n"        /* 11 */
		"    if (_gone) throw new ObjectDisposedException(\"Lost the pool.\", inner);\n" /* 12 */
		"  }\n"
		"}\n");
	const fl_site *g = EXPECT_SITE(s, "size ('{size}') must be less than or equal to '24'."
				       " (Parameter 'size')\nActual value was {size}.", 3, FL_T_EXCEPTION);
	assert_string_equal(g->guard, "size > 24"); /* the helper's own condition */
	EXPECT_SITE(s, "size ('{size}') must be greater than or equal to '{max}'. (Parameter 'size')\n"
		       "Actual value was {size}.", 4, FL_T_EXCEPTION);
	EXPECT_SITE(s, "max ('{size}') must be a non-negative and non-zero value. (Parameter 'max')\n"
		       "Actual value was {size}.", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "The value cannot be an empty string or composed entirely of whitespace."
		       " (Parameter 'key')", 6, FL_T_EXCEPTION);
	g = EXPECT_SITE(s, "Value cannot be null. (Parameter '{argumentName}')", 7, FL_T_EXCEPTION);
	assert_string_equal(g->guard, "v is null");
	const fl_site *x = EXPECT_SITE(s, "Cannot access a disposed object.\nObject name: '{this}'.", 8,
				       FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ObjectDisposedException");
	assert_string_equal(x->guard, "_disposed");
	EXPECT_SITE(s, "Cannot access a disposed object.\nObject name: 'Pool'.", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "The pool is closed.\nObject name: 'Pool'.", 10, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Cannot access a disposed object.\nObject name: '{GetType().FullName}'.", 11,
		    FL_T_EXCEPTION);
	EXPECT_SITE(s, "Lost the pool.", 12, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* Newtonsoft.Json's forms: "...{0}...".FormatWith(culture, x), static
 * factories of an exception type (XException.Create), and throws of
 * factory methods of the same file, composed with the call's arguments */
static void test_factories_and_format_with(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class JsonTextReader {\n"                                                      /* 1 */
		"  void Read() {\n"                                                              /* 2 */
		"    if (done) throw JsonReaderException.Create(this, \"Additional text: {0}.\".FormatWith(CultureInfo.InvariantCulture, c));\n" /* 3 */
		"    throw CreateUnexpectedCharacterException(c);\n"                             /* 4 */
		"  }\n"                                                                          /* 5 */
		"  void Number() {\n"                                                            /* 6 */
		"    throw ThrowReaderError(\"JSON integer {0} is too large.\".FormatWith(CultureInfo.InvariantCulture, n));\n" /* 7 */
		"    throw _owner.CreateEnd();\n"                                                 /* 8 */
		"    throw Other.CreateEnd();\n"                                                  /* 9 */
		"  }\n"                                                                          /* 10 */
		"  private JsonReaderException CreateUnexpectedCharacterException(char c)\n"    /* 11 */
		"  {\n"                                                                          /* 12 */
		"    return JsonReaderException.Create(this, \"Unexpected character: {0}.\".FormatWith(CultureInfo.InvariantCulture, c));\n" /* 13 */
		"  }\n"                                                                          /* 14 */
		"  private JsonReaderException ThrowReaderError(string message, Exception? ex = null)\n" /* 15 */
		"  {\n"                                                                          /* 16 */
		"    SetToken(JsonToken.Undefined, null, false);\n"                              /* 17 */
		"    return JsonReaderException.Create(this, message, ex);\n"                   /* 18 */
		"  }\n"                                                                          /* 19 */
		"  internal JsonReaderException CreateEnd() => new JsonReaderException(\"Unexpected end.\");\n" /* 20 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Additional text: {0}.", 3, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "JsonReaderException");
	assert_string_equal(x->guard, "done");
	x = EXPECT_SITE(s, "Unexpected character: {0}.", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "JsonReaderException");
	assert_string_equal(x->function, "JsonTextReader.Read");
	/* a parameter with a default value may be left out */
	x = EXPECT_SITE(s, "JSON integer {0} is too large.", 7, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "JsonReaderException");
	x = EXPECT_SITE(s, "Unexpected end.", 8, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "JsonReaderException");
	/* another type's CreateEnd: not this file's factory */
	for (size_t i = 0; i < s->n; i++)
		assert_false(s->v[i].line == 9 && s->v[i].message);
	fl_sites_free(s);
	/* a message held in a local variable */
	s = scan(
		"class Writer {\n"                                                     /* 1 */
		"  void Check(object value) {\n"                                      /* 2 */
		"    string message = \"Self referencing loop detected for {0}.\".FormatWith(CultureInfo.InvariantCulture, value);\n" /* 3 */
		"    throw JsonSerializationException.Create(null, message, null);\n" /* 4 */
		"  }\n"                                                                /* 5 */
		"}\n");
	x = EXPECT_SITE(s, "Self referencing loop detected for {0}.", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "JsonSerializationException");
	assert_string_equal(x->function, "Writer.Check");
	fl_sites_free(s);
	/* a helper named for the exception it makes */
	s = scan(
		"class Writer {\n"                                                     /* 1 */
		"  void Write(JsonToken token) {\n"                                   /* 2 */
		"    throw MiscellaneousUtils.CreateArgumentOutOfRangeException(nameof(token), token, \"Unexpected token type.\");\n" /* 3 */
		"  }\n"                                                                /* 4 */
		"}\n");
	x = EXPECT_SITE(s, "Unexpected token type.", 3, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ArgumentOutOfRangeException");
	fl_sites_free(s);
}

/* exception classes whose constructors build the message, used from
 * another file of the tree */
static void test_exception_constructors(void **state)
{
	(void)state;
	const char *ex =
		"public class ItemNotFoundException : Exception\n"                  /* 1 */
		"{\n"                                                               /* 2 */
		"    public ItemNotFoundException(string sku) : base($\"No item with SKU {sku}\") { }\n" /* 3 */
		"    public ItemNotFoundException() : base(\"No such item\") { }\n"  /* 4 */
		"    public ItemNotFoundException(string message, Exception inner) : base(message, inner) { }\n" /* 5 */
		"}\n";
	const char *svc =
		"class Catalog {\n"                                                 /* 1 */
		"  Item Get(string sku) {\n"                                        /* 2 */
		"    if (sku == null) throw new ItemNotFoundException();\n"         /* 3 */
		"    throw new ItemNotFoundException(\"A-1\");\n"                   /* 4 */
		"  }\n"                                                             /* 5 */
		"  void Load(Exception e) {\n"                                      /* 6 */
		"    throw new ItemNotFoundException(\"cannot load\", e);\n"         /* 7 */
		"  }\n"                                                             /* 8 */
		"}\n";
	fl_src files[] = {{"src/Errors.cs", ex, strlen(ex), NULL},
			  {"src/Catalog.cs", svc, strlen(svc), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_csharp, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "No such item", 3, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ItemNotFoundException");
	assert_string_equal(x->guard, "sku == null");
	EXPECT_SITE(s, "No item with SKU A-1", 4, FL_T_EXCEPTION);
	/* a message passed on: the call's own */
	EXPECT_SITE(s, "cannot load", 7, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* a partial class spread over two files calls a factory declared in the
 * other one (Newtonsoft's JsonTextReader.cs / JsonTextReader.Async.cs) */
static void test_partial_class_factories(void **state)
{
	(void)state;
	const char *sync_cs =
		"public partial class TextReader : JsonReader {\n"                  /* 1 */
		"    private JsonReaderException CreateUnexpectedCharacterException(char c)\n" /* 2 */
		"    {\n"                                                            /* 3 */
		"        return JsonReaderException.Create(this, \"Unexpected character: {0}.\".FormatWith(CultureInfo.InvariantCulture, c));\n" /* 4 */
		"    }\n"                                                            /* 5 */
		"}\n";
	const char *async_cs =
		"public partial class TextReader {\n"                               /* 1 */
		"    private async Task ParseAsync(char c) {\n"                      /* 2 */
		"        if (c == '<') throw CreateUnexpectedCharacterException(c);\n" /* 3 */
		"    }\n"                                                            /* 4 */
		"}\n"                                                                /* 5 */
		"class Other {\n"                                                    /* 6 */
		"    void M(char c) { throw CreateUnexpectedCharacterException(c); }\n" /* 7 */
		"}\n";
	fl_src files[] = {{"src/TextReader.cs", sync_cs, strlen(sync_cs), NULL},
			  {"src/TextReader.Async.cs", async_cs, strlen(async_cs), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_csharp, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "Unexpected character: {0}.", 3, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "JsonReaderException");
	assert_string_equal(x->function, "TextReader.ParseAsync");
	/* another class: not that factory */
	for (size_t i = 0; i < s->n; i++)
		assert_false(s->v[i].line == 7 && s->v[i].message);
	fl_sites_free(s);
}

static void test_logging(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class Svc {\n"                                                       /* 1 */
		"  void M(int id) {\n"                                                /* 2 */
		"    _logger.LogError(ex, \"Failed to load user {UserId}\", id);\n"   /* 3 */
		"    _logger.LogWarning(\"Slow query for {UserId} {{raw}}\", id);\n"  /* 4 */
		"    logger.LogCritical(new EventId(1, \"Db\"), \"Database down\");\n" /* 5 */
		"    _logger.Log(LogLevel.Error, \"Via level {Id}\", id);\n"           /* 6 */
		"    _logger.LogInformation(\"not an error\");\n"                     /* 7 */
		"    Log.Error(ex, \"Serilog {Id}\", id);\n"                          /* 8 */
		"    Console.Error.WriteLine(\"fatal: bad input\");\n"                /* 9 */
		"  }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Failed to load user {UserId}", 3, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_string_equal(x->idiom, "_logger.LogError");
	x = EXPECT_SITE(s, "Slow query for {UserId} {raw}", 4, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "Database down", 5, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	x = EXPECT_SITE(s, "Via level {Id}", 6, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_null(harness_find(s, "not an error"));
	EXPECT_SITE(s, "Serilog {Id}", 8, FL_T_CONSOLE);
	EXPECT_SITE(s, "fatal: bad input", 9, FL_T_CONSOLE);
	fl_sites_free(s);
}

static void test_aspnet(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"public class UsersController : ControllerBase {\n"                    /* 1 */
		"  [HttpGet(\"{id}\")]\n"                                              /* 2 */
		"  public IActionResult Get(int id) {\n"                               /* 3 */
		"    if (id < 0) return BadRequest(\"id must be positive\");\n"        /* 4 */
		"    if (id == 0) return NotFound($\"User {id} not found\");\n"        /* 5 */
		"    if (id == 1) return StatusCode(503, \"Service unavailable\");\n"  /* 6 */
		"    if (id == 2) return Problem(detail: \"Something broke\", statusCode: StatusCodes.Status502BadGateway);\n"
		"    if (id == 3) return Conflict(new { message = \"Already exists\" });\n"
		"    if (id == 4) return Unauthorized(\"login first\");\n"             /* 9 */
		"    if (id == 5) return StatusCode(StatusCodes.Status500InternalServerError, \"internal\");\n"
		"    if (id == 6) return Problem(\"plain problem\");\n"               /* 11 */
		"    return NotFound();\n"                                             /* 12 */
		"  }\n"
		"  public IActionResult NotFound(string x) { return null; }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "id must be positive", 4, FL_T_HTTP);
	assert_int_equal(x->http, 400);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_string_equal(x->guard, "id < 0");
	assert_string_equal(x->function, "UsersController.Get");
	x = EXPECT_SITE(s, "User {id} not found", 5, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	x = EXPECT_SITE(s, "Service unavailable", 6, FL_T_HTTP);
	assert_int_equal(x->http, 503);
	assert_string_equal(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "Something broke", 7, FL_T_HTTP);
	assert_int_equal(x->http, 502);
	x = EXPECT_SITE(s, "Already exists", 8, FL_T_HTTP);
	assert_int_equal(x->http, 409);
	x = EXPECT_SITE(s, "login first", 9, FL_T_HTTP);
	assert_int_equal(x->http, 401);
	x = EXPECT_SITE(s, "internal", 10, FL_T_HTTP);
	assert_int_equal(x->http, 500);
	x = EXPECT_SITE(s, "plain problem", 11, FL_T_HTTP);
	assert_int_equal(x->http, 500);
	assert_int_equal(s->n, 8);
	fl_sites_free(s);
}

static void test_strings(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class R {\n"                                                         /* 1 */
		"  void M() {\n"                                                      /* 2 */
		"    throw new FormatException($$\"\"\"\n"                            /* 3 */
		"        Bad {{value}} in {literal}\n"                                /* 4 */
		"          indented \"q\"\n"                                          /* 5 */
		"        \"\"\");\n"                                                  /* 6 */
		"  }\n"                                                               /* 7 */
		"  void N() { throw new Exception(\"\"\"single \"raw\" line\"\"\"); }\n"
		"  void O() { throw new Exception($\"nested {(ok ? \"a}\" : $\"{b}\")} done\"); }\n"
		"  void P() { throw new Exception(\"\\x41\\u0042\\U00000043 \\\\ end\"); }\n"
		"  void Q() { throw new InvalidOperationException($\"The {nameof(this.Options.Level)} of {nameof( source )} is {level}\"); }\n"
		"  void R() { throw new InvalidOperationException($\"Not a name: {nameof(x) + 1}\"); }\n"
		"  void S() { throw new InvalidOperationException($\"A {nameof(PolicyWrap<TResult>)} or {nameof(Map<List<int>>)} needs {nameof(a < b)}\"); }\n"
		"}\n");
	EXPECT_SITE(s, "Bad {value} in {literal}\n  indented \"q\"", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "single \"raw\" line", 8, FL_T_EXCEPTION);
	EXPECT_SITE(s, "nested {(ok ? \"a}\" : $\"{b}\")} done", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "ABC \\ end", 10, FL_T_EXCEPTION);
	/* {nameof(x.Name)} is the text Name at run time */
	EXPECT_SITE(s, "The Level of source is {level}", 11, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Not a name: {nameof(x) + 1}", 12, FL_T_EXCEPTION);
	/* without type arguments: nameof(PolicyWrap<TResult>) is "PolicyWrap" */
	EXPECT_SITE(s, "A PolicyWrap or Map needs {nameof(a < b)}", 13, FL_T_EXCEPTION);
	fl_sites_free(s);
}

static void test_case_and_generics(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class G<T> where T : class {\n"                                     /* 1 */
		"  public T Run<U>(int k) where U : struct {\n"                      /* 2 */
		"    switch (k) {\n"                                                 /* 3 */
		"      case 1:\n"                                                    /* 4 */
		"        throw new InvalidOperationException(@$\"case {k} \"\"one\"\"\");\n"
		"      default:\n"                                                   /* 6 */
		"        throw new KeyNotFoundException(\"default\");\n"             /* 7 */
		"    }\n"                                                            /* 8 */
		"  }\n"                                                              /* 9 */
		"  public static G<T> Create() { throw new NotImplementedException(\"create\"); }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "case {k} \"one\"", 5, FL_T_EXCEPTION);
	/* a case's statement: the switch's value and the case's label */
	assert_string_equal(x->guard, "k == 1");
	assert_string_equal(x->function, "G.Run");
	/* the default: none of the labels */
	x = EXPECT_SITE(s, "default", 7, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "k != 1");
	x = EXPECT_SITE(s, "create", 10, FL_T_EXCEPTION);
	assert_string_equal(x->function, "G.Create");
	fl_sites_free(s);
}

static void test_traps(void **state)
{
	(void)state;
	expect_none(
		"#if DEBUG\n"
		"#error throw new Exception(\"preprocessor\")\n"
		"#endif\n"
		"// throw new Exception(\"line comment\");\n"
		"/* throw new Exception(\"block\"); */\n"
		"/// <summary>throw new Exception(\"doc\")</summary>\n"
		"class T {\n"
		"  string a = \"throw new Exception(\\\"in string\\\")\";\n"
		"  string b = @\"throw new Exception(\"\"verbatim\"\")\";\n"
		"  string c = $\"{x} throw new Exception(\\\"interp\\\")\";\n"
		"  string d = \"\"\"\n    throw new Exception(\"raw\");\n    \"\"\";\n"
		"  char q = '\"';\n"
		"  void R(Exception e) { throw; throw e; }\n"
		"  IActionResult X() { return NotFound(); }\n"
		"}\n");
}

/* FluentValidation: a rule's WithMessage("...") is a validation message */
static void test_fluent_validation(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"public class CreateItemValidator : AbstractValidator<CreateItem> {\n"   /* 1 */
		"    public CreateItemValidator() {\n"                                   /* 2 */
		"        RuleFor(v => v.Title)\n"                                        /* 3 */
		"            .NotEmpty()\n"                                              /* 4 */
		"            .MustAsync(BeUnique)\n"                                     /* 5 */
		"                .WithMessage(\"'{PropertyName}' must be unique.\");\n" /* 6 */
		"        RuleFor(v => v.Qty).GreaterThan(0).WithMessage(msg);\n"         /* 7 */
		"    }\n"                                                                /* 8 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "'{PropertyName}' must be unique.", 6, FL_T_VALIDATION);
	assert_string_equal(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, ".WithMessage");
	harness_expect_str(x->function, "CreateItemValidator.CreateItemValidator");
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
}

static void test_is_test_file(void **state)
{
	(void)state;
	assert_true(fl_lang_csharp.is_test_file("tests/UserServiceTests.cs"));
	assert_true(fl_lang_csharp.is_test_file("UserServiceTest.cs"));
	assert_false(fl_lang_csharp.is_test_file("src/UserService.cs"));
	assert_false(fl_lang_csharp.is_test_file("src/Testing.cs"));
}

static void scan_bytes(const char *buf, size_t n)
{
	harness_scan_bytes(&fl_lang_csharp, "a.cs", buf, n);
}

static void test_robustness(void **state)
{
	(void)state;
	static const char junk[] = "throw new X(\"\xff\xfe\x80 bad utf8\");\n"
				   "throw new Y(\"nul\0here\");\n$\"\xc3{";
	scan_bytes(junk, sizeof junk - 1);
	scan_bytes("throw new X(\"unterminated", 25);
	scan_bytes("/* unterminated comment", 23);
	scan_bytes("var s = $$\"\"\"\n never {{closed", 29);
	scan_bytes("$\"{", 3);
	scan_bytes("@\"", 2);
	scan_bytes("'", 1);
	scan_bytes("#", 1);
	scan_bytes("\"\"\"\n", 4);
	/* 1 MB single line */
	size_t n = 1 << 20;
	char *big = harness_repeat("throw new E($\"x{a}\" + a); ", n);
	scan_bytes(big, n);
	free(big);
	/* 10,000 nested brackets */
	size_t d = 10000;
	char *nest = malloc(8 * d + 64);
	assert_non_null(nest);
	size_t w = harness_nest(nest, "throw new E(", "({[", d, "\"m\"", ")");
	scan_bytes(nest, w);
	scan_bytes(nest, w / 2);
	w = 3 * d;
	harness_fill(nest, 0, w, "$\"{");
	scan_bytes(nest, w);
	w = 6 * d;
	harness_fill(nest, 0, w, "new E(");
	scan_bytes(nest, w);
	free(nest);
}

/* A report in an else's block, or after `} else`, is guarded by its if's
 * condition, turned: it runs when that condition does not hold (the last
 * if of an else-if chain).  The else of an unbraced if, and the catch of
 * a try, take no turned condition. */
static void test_else_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class Loader {\n"                                                    /* 1 */
		"    void Load(int n, string name) {\n"                               /* 2 */
		"        if (n == 2) {\n"                                             /* 3 */
		"            Use(n);\n"                                               /* 4 */
		"        } else {\n"                                                  /* 5 */
		"            throw new ArgumentException(\"want two arguments\");\n"  /* 6 */
		"        }\n"                                                         /* 7 */
		"        if (n > 3) {\n"                                              /* 8 */
		"            Use(n);\n"                                               /* 9 */
		"        } else if (name == null) {\n"                                /* 10 */
		"            Use(0);\n"                                               /* 11 */
		"        } else {\n"                                                  /* 12 */
		"            throw new InvalidOperationException(\"bad name\");\n"    /* 13 */
		"        }\n"                                                         /* 14 */
		"        if (Known(name)) { Use(1); }\n"                              /* 15 */
		"        else throw new InvalidOperationException(\"unknown name\");\n" /* 16 */
		"        if (n < 0) Use(2);\n"                                        /* 17 */
		"        else throw new InvalidOperationException(\"not negative\");\n" /* 18 */
		"        try { Use(3); } catch (IOException e) {\n"                   /* 19 */
		"            throw new InvalidOperationException(\"read failed\");\n" /* 20 */
		"        }\n"                                                         /* 21 */
		"    }\n"                                                             /* 22 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "want two arguments", 6, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n != 2");
	x = EXPECT_SITE(s, "bad name", 13, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "name != null");
	x = EXPECT_SITE(s, "unknown name", 16, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!Known(name)");
	x = EXPECT_SITE(s, "not negative", 18, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	x = EXPECT_SITE(s, "read failed", 20, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	fl_sites_free(s);
}

/* An if (or else) right inside another if's block is guarded by both
 * conditions (fl_guard_nest); not inside a while's. */
static void test_nested_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class A {\n"                                                         /* 1 */
		"  void Load(string name, bool force) {\n"                            /* 2 */
		"    if (!force) {\n"                                                 /* 3 */
		"      if (Exists(name)) {\n"                                         /* 4 */
		"        throw new InvalidOperationException(\"already exists\");\n"  /* 5 */
		"      } else {\n"                                                    /* 6 */
		"        throw new InvalidOperationException(\"no such dir\");\n"     /* 7 */
		"      }\n"                                                           /* 8 */
		"    }\n"                                                             /* 9 */
		"    while (force) {\n"                                               /* 10 */
		"      if (name == null) throw new ArgumentException(\"in while\");\n" /* 11 */
		"    }\n"                                                             /* 12 */
		"  }\n"                                                               /* 13 */
		"}\n");
	const fl_site *x5 = EXPECT_SITE(s, "already exists", 5, FL_T_EXCEPTION);
	harness_expect_str(x5->guard, "!force && Exists(name)");
	const fl_site *x7 = EXPECT_SITE(s, "no such dir", 7, FL_T_EXCEPTION);
	harness_expect_str(x7->guard, "!force && !Exists(name)");
	const fl_site *x11 = EXPECT_SITE(s, "in while", 11, FL_T_EXCEPTION);
	harness_expect_str(x11->guard, "name == null");
	fl_sites_free(s);
}

/* A compiler's reporter: Report.Error (103, loc, "...", args) and
 * report.Warning (162, 2, loc, "...") are sites of their first literal,
 * a warning for Warning; the number is no code (one number is given to
 * several texts, and a code would fold them into one record) */
static void test_report_calls(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"class SimpleName {\n"                                                      /* 1 */
		"  void Error_NotFound (ResolveContext rc) {\n"                             /* 2 */
		"    rc.Report.Error (103, loc, \"The name `{0}' does not exist in the current context\", Name);\n" /* 3 */
		"    if (ns == null)\n"                                                     /* 4 */
		"      report.Error (246, loc,\n"                                           /* 5 */
		"        \"The type or namespace name `{0}' could not be found\", Name);\n" /* 6 */
		"    else\n"                                                                /* 7 */
		"      report.Error (246, loc, \"The type `{0}' is in `{1}'\", Name, ns);\n" /* 8 */
		"    fc.Report.Warning (162, 2, loc, \"Unreachable code detected\");\n"     /* 9 */
		"    Report.Error (2008, \"No files to compile were specified\");\n"        /* 10 */
		"  }\n"                                                                     /* 11 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "The name `{0}' does not exist in the current context", 3,
				       FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->code, NULL);
	x = EXPECT_SITE(s, "The type or namespace name `{0}' could not be found", 5, FL_T_CONSOLE);
	harness_expect_str(x->guard, "ns == null");
	EXPECT_SITE(s, "The type `{0}' is in `{1}'", 8, FL_T_CONSOLE);
	x = EXPECT_SITE(s, "Unreachable code detected", 9, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	EXPECT_SITE(s, "No files to compile were specified", 10, FL_T_CONSOLE);
	fl_sites_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_guards),
		cmocka_unit_test(test_throw),
		cmocka_unit_test(test_report_calls),
		cmocka_unit_test(test_helper_texts),
		cmocka_unit_test(test_else_guards),
		cmocka_unit_test(test_throw_helpers_switch),
		cmocka_unit_test(test_throw_if_and_disposed),
		cmocka_unit_test(test_argument_exceptions),
		cmocka_unit_test(test_logging),
		cmocka_unit_test(test_aspnet),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_case_and_generics),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_fluent_validation),
		cmocka_unit_test(test_is_test_file),
		cmocka_unit_test(test_factories_and_format_with),
		cmocka_unit_test(test_exception_constructors),
		cmocka_unit_test(test_partial_class_factories),
		cmocka_unit_test(test_robustness),
	};
	return cmocka_run_group_tests_name("csharp", tests, NULL, NULL);
}
