/* test_lang_python.c — unit tests for the Python family (lib/scan/python/) */
#include <stdlib.h>

#include "lang_harness.h"

extern const fl_lang fl_lang_python;

static fl_sites *scan_py(const char *text)
{
	return harness_scan(&fl_lang_python, "pkg/mod.py", text);
}

static fl_sites *scan_len(const char *text, size_t len)
{
	return harness_scan_len(&fl_lang_python, "pkg/mod.py", text, len);
}

static void test_raise_forms(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"class Parser:\n"                                    /* 1 */
		"    def parse(self, data):\n"                       /* 2 */
		"        if not data:\n"                             /* 3 */
		"            raise ValueError(\"empty input\")\n"    /* 4 */
		"        elif len(data) > 10:\n"                     /* 5 */
		"            raise errors.TooLong(\"too long\") from None\n" /* 6 */
		"        raise KeyError\n"                           /* 7 */
		"        raise\n"                                    /* 8 */
		"        raise err\n"                                /* 9 */
		"        raise TypeError()\n"                        /* 10 */
		"def top(x):\n"                                      /* 11 */
		"    while x:\n"                                     /* 12 */
		"        raise RuntimeError('code ' + response.status)\n" /* 13 */
		"raise SystemExit(\"at top\")\n");                   /* 14 */
	const fl_site *x = EXPECT_SITE(s, "empty input", 4, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ValueError");
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->function, "Parser.parse");
	harness_expect_str(x->guard, "not data");
	harness_expect_str(x->idiom, "raise");
	assert_int_equal(x->col, 13);
	x = EXPECT_SITE(s, "too long", 6, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "TooLong");
	harness_expect_str(x->guard, "len(data) > 10");
	x = EXPECT_SITE(s, "KeyError", 7, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "KeyError");
	assert_null(x->guard);
	x = EXPECT_SITE(s, "TypeError", 10, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "code {status}", 13, FL_T_EXCEPTION);
	harness_expect_str(x->function, "top");
	harness_expect_str(x->guard, "x");
	x = EXPECT_SITE(s, "at top", 14, FL_T_EXCEPTION);
	assert_null(x->function);
	assert_int_equal(s->n, 6);
	fl_sites_free(s);
}

static void test_messages(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def f(x, name):\n"                                        /* 1 */
		"    raise ValueError(\"tab\\there \\u00e9 \\x41 \\d\")\n"  /* 2 */
		"    raise ValueError(\"line one \"\n"                     /* 3 */
		"                     'line two')\n"                       /* 4 */
		"    raise ValueError(\"bad %s: 100%%\" % x)\n"            /* 5 */
		"    raise ValueError(\"got {} and {{literal}} {name}\".format(x, name=name))\n" /* 6 */
		"    raise ValueError(f\"bad {x!r:>10} in {{braces}} {name['k']}\")\n" /* 7 */
		"    raise ValueError(_(\"translated message\"))\n"        /* 8 */
		"    raise ValueError(r\"raw \\n path\")\n"                /* 9 */
		"    raise ValueError(\"\"\"triple\n"                      /* 10 */
		"quoted\"\"\")\n"                                          /* 11 */
		"    raise ValueError(\"keep 100%% here\")\n"              /* 12 */
		"    raise ValueError(\"pre \" + str(x) + \" post\")\n"    /* 13 */
		"    raise ValueError(\"a\" \\\n"                           /* 14 */
		"        \"b\")\n");                                       /* 15 */
	EXPECT_SITE(s, "tab\there \xc3\xa9 A \\d", 2, FL_T_EXCEPTION);
	EXPECT_SITE(s, "line one line two", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "bad %s: 100%", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "got {} and {literal} {name}", 6, FL_T_EXCEPTION);
	const fl_site *x = EXPECT_SITE(
		s, "bad {x!r:>10} in {braces} {name['k']}", 7, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ValueError");
	EXPECT_SITE(s, "translated message", 8, FL_T_EXCEPTION);
	EXPECT_SITE(s, "raw \\n path", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "triple\nquoted", 10, FL_T_EXCEPTION);
	EXPECT_SITE(s, "keep 100%% here", 12, FL_T_EXCEPTION);
	EXPECT_SITE(s, "pre {x} post", 13, FL_T_EXCEPTION);
	EXPECT_SITE(s, "ab", 14, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* a helper that returns the message, its def the file's very first
 * token (no newline before it) */
static void test_helper_def_first_in_file(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def _fmt_value(value):\n"                         /* 1 */
		"    return f\"bad value {value!r}\"\n"             /* 2 */
		"\n"                                               /* 3 */
		"\n"                                               /* 4 */
		"def check(v):\n"                                  /* 5 */
		"    if v < 0:\n"                                  /* 6 */
		"        raise ValueError(_fmt_value(v))\n");      /* 7 */
	EXPECT_SITE(s, "bad value {value!r}", 7, FL_T_EXCEPTION);
	fl_sites_free(s);
}

static void test_http_validation(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"@app.get('/items/{id}')\n"                                     /* 1 */
		"async def read(id):\n"                                         /* 2 */
		"    raise HTTPException(status_code=404, detail=\"Item not found\")\n" /* 3 */
		"    raise HTTPException(status_code=status.HTTP_503_SERVICE_UNAVAILABLE, detail=\"down\")\n" /* 4 */
		"    abort(404)\n"                                              /* 5 */
		"    abort(403, \"forbidden here\")\n"                          /* 6 */
		"    flask.abort(500, description=\"boom\")\n"                  /* 7 */
		"    raise NotFound(\"no such user\")\n"                        /* 8 */
		"    raise serializers.ValidationError(_(\"Invalid value\"), code=\"invalid\")\n" /* 9 */
		"    raise ValidationError(\"bad\", code=\"E_BAD_VALUE\")\n");  /* 10 */
	const fl_site *x = EXPECT_SITE(s, "Item not found", 3, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->cls, "HTTPException");
	harness_expect_str(x->function, "read");
	x = EXPECT_SITE(s, "down", 4, FL_T_HTTP);
	assert_int_equal(x->http, 503);
	harness_expect_str(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "forbidden here", 6, FL_T_HTTP);
	assert_int_equal(x->http, 403);
	harness_expect_str(x->idiom, "abort");
	x = EXPECT_SITE(s, "boom", 7, FL_T_HTTP);
	assert_int_equal(x->http, 500);
	harness_expect_str(x->idiom, "flask.abort");
	x = EXPECT_SITE(s, "no such user", 8, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	x = EXPECT_SITE(s, "Invalid value", 9, FL_T_VALIDATION);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->cls, "ValidationError");
	assert_null(x->code);
	x = EXPECT_SITE(s, "bad", 10, FL_T_VALIDATION);
	harness_expect_str(x->code, "E_BAD_VALUE");
	for (size_t i = 0; i < s->n; i++)
		assert_int_not_equal(s->v[i].line, 5);
	fl_sites_free(s);
}

/* print(..., file=sys.stderr) and sys.stderr.write(...): what the program
 * prints on its standard error, as C's fprintf(stderr, ...) */
static void test_stderr_prints(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"import sys\n"                                                         /* 1 */
		"def main(path):\n"                                                    /* 2 */
		"    if not path:\n"                                                   /* 3 */
		"        print(\"error: no input file\", file=sys.stderr)\n"           /* 4 */
		"        return 2\n"                                                   /* 5 */
		"    sys.stderr.write(\"warning: %s looks like a backup\\n\" % path)\n" /* 6 */
		"    print(\"cannot open\", path, file=sys.stderr)\n"                  /* 7 */
		"    print(\"not an error\")\n"                                        /* 8 */
		"    out.write(\"not stderr\")\n");                                    /* 9 */
	const fl_site *x = EXPECT_SITE(s, "error: no input file", 4, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "print(file=sys.stderr)");
	harness_expect_str(x->guard, "not path");
	x = EXPECT_SITE(s, "warning: %s looks like a backup", 6, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "sys.stderr.write");
	EXPECT_SITE(s, "cannot open {path}", 7, FL_T_CONSOLE);
	assert_null(harness_find(s, "not an error"));
	assert_null(harness_find(s, "not stderr"));
	fl_sites_free(s);
}

static void test_console(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"import logging, sys, warnings\n"                          /* 1 */
		"class Svc:\n"                                             /* 2 */
		"    def run(self, x):\n"                                  /* 3 */
		"        parser.error(\"missing --foo\")\n"                /* 4 */
		"        sys.exit(\"fatal: cannot continue\")\n"           /* 5 */
		"        sys.exit(1)\n"                                    /* 6 */
		"        warnings.warn(\"old api\", DeprecationWarning)\n" /* 7 */
		"        logging.error(\"failed %s: 100%%\", x)\n"         /* 8 */
		"        logger.exception(\"oops\")\n"                     /* 9 */
		"        self.logger.critical(\"disk full\")\n"            /* 10 */
		"        log.warning(\"low space %d%%\")\n"                /* 11 */
		"        logging.log(logging.ERROR, \"via log\")\n"        /* 12 */
		"        cb = lambda: logger.error(\"in lambda\")\n"       /* 13 */
		"        logger.info(\"not an error\")\n"                  /* 14 */
		"        self.reporter.warning(\"Inline text without end-string.\", line=3)\n"); /* 15 */
	const fl_site *x = EXPECT_SITE(s, "missing --foo", 4, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "parser.error");
	harness_expect_str(x->function, "Svc.run");
	harness_expect_str(x->severity, FL_S_CRITICAL); /* the program stops */
	x = EXPECT_SITE(s, "fatal: cannot continue", 5, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "sys.exit");
	harness_expect_str(x->severity, FL_S_CRITICAL);
	x = EXPECT_SITE(s, "old api", 7, FL_T_CONSOLE);
	harness_expect_str(x->cls, "DeprecationWarning");
	harness_expect_str(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "failed %s: 100%", 8, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "logging.error");
	x = EXPECT_SITE(s, "oops", 9, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "disk full", 10, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_CRITICAL);
	harness_expect_str(x->idiom, "self.logger.critical");
	x = EXPECT_SITE(s, "low space %d%%", 11, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "via log", 12, FL_T_CONSOLE);
	x = EXPECT_SITE(s, "in lambda", 13, FL_T_CONSOLE);
	assert_int_equal(x->col, 22);
	assert_null(harness_find(s, "not an error"));
	/* a reporter's levels as a logger's (docutils' self.reporter) */
	x = EXPECT_SITE(s, "Inline text without end-string.", 15, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_int_equal(s->n, 10);
	fl_sites_free(s);
}

static void test_traps(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"# raise ValueError(\"in comment\")\n"
		"def f():\n"
		"    \"\"\"Docstring: raise ValueError(\"in docstring\")\n"
		"    logger.error('x')\n"
		"    \"\"\"\n"
		"    s = \"raise KeyError('in string')\"\n"
		"    t = f'{x} raise ValueError(\"in f-string\")'\n"
		"    u = '''raise ValueError(\"in triple\")'''\n"
		"    v = rb\"abort(404, 'in bytes')\"\n"
		"    return s  # logger.error(\"trailing comment\")\n"
		"raise ValueError(\"real\")\n");
	EXPECT_SITE(s, "real", 11, FL_T_EXCEPTION);
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
}

static void test_nesting_guard(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"class A:\n"                                   /* 1 */
		"    class B:\n"                               /* 2 */
		"        def m(self):\n"                       /* 3 */
		"            def inner():\n"                   /* 4 */
		"                raise ValueError(\"deep\")\n" /* 5 */
		"            for x in y:\n"                    /* 6 */
		"                raise ValueError(\"loop\")\n" /* 7 */
		"            if a: raise ValueError(\"inline\")\n" /* 8 */
		"            match cmd:\n"                     /* 9 */
		"                case Point(x=0):\n"           /* 10 */
		"                    raise ValueError(\"arm\")\n" /* 11 */
		"    def n(self):\n"                           /* 12 */
		"        raise ValueError(\"n\")\n");          /* 13 */
	const fl_site *x = EXPECT_SITE(s, "deep", 5, FL_T_EXCEPTION);
	harness_expect_str(x->function, "A.B.m.inner");
	x = EXPECT_SITE(s, "loop", 7, FL_T_EXCEPTION);
	assert_null(x->guard);
	harness_expect_str(x->function, "A.B.m");
	x = EXPECT_SITE(s, "inline", 8, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "a");
	x = EXPECT_SITE(s, "arm", 11, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "Point(x=0)");
	x = EXPECT_SITE(s, "n", 13, FL_T_EXCEPTION);
	harness_expect_str(x->function, "A.n");
	fl_sites_free(s);
}

/* real-project findings (requests): a message held in a local variable */
static void test_var_message(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"class Response:\n"                                          /* 1 */
		"    def raise_for_status(self):\n"                          /* 2 */
		"        http_error_msg = \"\"\n"                          /* 3 */
		"        if 400 <= self.status_code < 500:\n"                /* 4 */
		"            http_error_msg = (\n"                           /* 5 */
		"                f\"{self.status_code} Client Error: {reason}\"\n" /* 6 */
		"            )\n"                                            /* 7 */
		"        elif 500 <= self.status_code < 600:\n"              /* 8 */
		"            http_error_msg = f\"{self.status_code} Server Error\"\n" /* 9 */
		"        if http_error_msg:\n"                               /* 10 */
		"            raise HTTPError(http_error_msg, response=self)\n" /* 11 */
		"def check(v):\n"                                            /* 12 */
		"    warning = f\"Old version ({v}) may cause slowdown.\"\n" /* 13 */
		"    warnings.warn(warning, DepWarning)\n"                   /* 14 */
		"def other(v):\n"                                            /* 15 */
		"    msg = compute(v)\n"                                     /* 16 */
		"    msg2 = \"base\"\n"                                    /* 17 */
		"    msg2 += str(v)\n"                                       /* 18 */
		"    raise ValueError(msg2)\n"                               /* 19 */
		"    try:\n"                                                 /* 20 */
		"        pass\n"                                             /* 21 */
		"    except OSError as warning:\n"                           /* 22 */
		"        raise RuntimeError(warning)\n"                      /* 23 */
		"    raise ValueError(msg)\n");                              /* 24 */
	const fl_site *x = EXPECT_SITE(s, "{self.status_code} Client Error: {reason}",
				       11, FL_T_HTTP);
	harness_expect_str(x->cls, "HTTPError");
	harness_expect_str(x->function, "Response.raise_for_status");
	EXPECT_SITE(s, "{self.status_code} Server Error", 11, FL_T_HTTP);
	x = EXPECT_SITE(s, "Old version ({v}) may cause slowdown.", 14,
			FL_T_CONSOLE);
	harness_expect_str(x->cls, "DepWarning");
	/* `msg2 += str(v)`: the value appended */
	EXPECT_SITE(s, "base{v}", 19, FL_T_EXCEPTION);
	/* a text made elsewhere (an error caught, a call's value): the
	 * class alone */
	harness_expect_at(s, 23, "RuntimeError");
	harness_expect_at(s, 24, "ValueError");
	assert_int_equal(s->n, 6);
	fl_sites_free(s);
}

/* An exception class whose __init__'s signature is written over several
 * lines, as black writes it (`def __init__(\n    self,`): the message it
 * passes to its base is the class's, as with `def __init__(self, ...)` */
static void test_class_init_black_signature(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"class NoneFoundError(Exception):\n"                                    /* 1 */
		"    def __init__(\n"                                                   /* 2 */
		"        self,\n"                                                       /* 3 */
		"        names=(),\n"                                                   /* 4 */
		"    ) -> None:\n"                                                      /* 5 */
		"        super().__init__(f\"none of the names were found: {names}\")\n" /* 6 */
		"def select(names):\n"                                                  /* 7 */
		"    raise NoneFoundError(names)\n");                                    /* 8 */
	const fl_site *x = EXPECT_SITE(s, "none of the names were found: {names}", 8, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "NoneFoundError");
	fl_sites_free(s);
}

/* exception classes that hold their message (Django REST framework,
 * pydantic v1): the attribute is a site, and a raise without a message of
 * its own gets it, in the same file or, through the collect pass, in
 * another */
static void test_class_default_messages(void **state)
{
	(void)state;
	const char *errors_py =
		"class APIException(Exception):\n"                             /* 1 */
		"    status_code = 500\n"                                      /* 2 */
		"    default_detail = _('A server error occurred.')\n"         /* 3 */
		"    default_code = 'error'\n"                                 /* 4 */
		"\n"
		"class NotFound(APIException):\n"                              /* 6 */
		"    status_code = status.HTTP_404_NOT_FOUND\n"                /* 7 */
		"    default_detail = _('Not found.')\n"                       /* 8 */
		"    default_code = 'not_found'\n"                             /* 9 */
		"\n"
		"class AnyStrMaxLengthError(PydanticValueError):\n"            /* 11 */
		"    code = 'any_str.max_length'\n"                            /* 12 */
		"    msg_template: str = 'ensure this value has at most {limit_value} characters'\n" /* 13 */
		"\n"
		"    def __init__(self, *, limit_value):\n"                   /* 15 */
		"        message = 'not an attribute of the class'\n"          /* 16 */
		"\n"
		"class Banner:\n"                                             /* 18 */
		"    message = 'Welcome back'\n"                               /* 19 */
		"\n"
		"def find(pk):\n"                                              /* 21 */
		"    if pk is None:\n"                                         /* 22 */
		"        raise NotFound()\n"                                   /* 23 */
		"    raise NotFound('No widget %s' % pk)\n"                    /* 24 */
		"\n"
		"class Gone(HTTPException):\n"                                 /* 26 */
		"    code = 410\n"                                             /* 27 */
		"    description = 'The page is gone.'\n"                      /* 28 */
		"\n"
		"class DistributionNotFound(ResolutionError):\n"              /* 30 */
		"    _template = (\n"                                         /* 31 */
		"        \"The '{self.req}' distribution was not found \"\n"  /* 32 */
		"        \"and is required by {self.requirers_str}\"\n"       /* 33 */
		"    )\n"                                                     /* 34 */
		"    def report(self):\n"                                     /* 35 */
		"        return self._template.format(**locals())\n";         /* 36 */
	fl_sites *s = harness_scan(&fl_lang_python, "rest/exceptions.py", errors_py);
	/* the raise of line 23 comes first: the record's line (raise before
	 * definition), the class attribute one of its sites */
	EXPECT_SITE(s, "Not found.", 23, FL_T_HTTP);
	const fl_site *x = NULL;
	for (size_t i = 0; i < s->n && !x; i++)
		if (s->v[i].line == 8 && s->v[i].message && strcmp(s->v[i].message, "Not found.") == 0)
			x = &s->v[i];
	assert_non_null(x);
	assert_string_equal(x->cls, "NotFound");
	assert_string_equal(x->code, "not_found");
	assert_int_equal(x->http, 404);
	harness_expect_str(x->idiom, "class attribute default_detail");
	x = EXPECT_SITE(s, "A server error occurred.", 3, FL_T_HTTP);
	assert_int_equal(x->http, 500);
	x = EXPECT_SITE(s, "ensure this value has at most {limit_value} characters", 13, FL_T_EXCEPTION);
	assert_string_equal(x->code, "any_str.max_length");
	assert_null(harness_find(s, "not an attribute of the class"));
	assert_null(harness_find(s, "Welcome back")); /* not an exception */
	/* the raise without a message: the class's (a duplicate site of the
	 * attribute's record, same file); with one: its own */
	int at23 = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].line == 23 && s->v[i].message && strcmp(s->v[i].message, "Not found.") == 0)
			at23++;
	assert_int_equal(at23, 1);
	EXPECT_SITE(s, "No widget %s", 24, FL_T_HTTP);
	/* werkzeug: `code = 404` is the status, `description` the text */
	x = EXPECT_SITE(s, "The page is gone.", 28, FL_T_HTTP);
	assert_int_equal(x->http, 410);
	assert_string_equal(x->cls, "Gone");
	/* a class's template that a method formats (pkg_resources) */
	x = EXPECT_SITE(s, "The '{self.req}' distribution was not found and is required by {self.requirers_str}",
			31, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "DistributionNotFound");
	fl_sites_free(s);

	/* another file: the tree built by collect() over both */
	const char *views_py =
		"from rest import exceptions\n"                                /* 1 */
		"def check(v, max_length):\n"                                  /* 2 */
		"    if len(v) > max_length:\n"                                /* 3 */
		"        raise errors.AnyStrMaxLengthError(limit_value=max_length)\n" /* 4 */
		"    raise exceptions.NotFound\n";                             /* 5 */
	fl_src files[] = {{"rest/exceptions.py", errors_py, strlen(errors_py), NULL},
			  {"app/views.py", views_py, strlen(views_py), NULL}};
	s = harness_scan_tree(&fl_lang_python, files, 2, 1);
	x = EXPECT_SITE(s, "ensure this value has at most {limit_value} characters", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "AnyStrMaxLengthError");
	assert_string_equal(x->code, "any_str.max_length");
	assert_string_equal(x->guard, "len(v) > max_length");
	x = EXPECT_SITE(s, "Not found.", 5, FL_T_HTTP);
	assert_string_equal(x->code, "not_found");
	fl_sites_free(s);
}

/* A class whose __init__ passes a message of its own to the base class
 * (httpx's StreamConsumed): that message is the class's, and a raise of the
 * class without one gets it.  A parameter passed on is not a message. */
static void test_init_default_messages(void **state)
{
	(void)state;
	const char *errors_py =
		"class StreamConsumed(StreamError):\n"                          /* 1 */
		"    def __init__(self) -> None:\n"                             /* 2 */
		"        message = (\n"                                         /* 3 */
		"            \"Attempted to read or stream some content, but the content has \"\n" /* 4 */
		"            \"already been streamed.\"\n"                      /* 5 */
		"        )\n"                                                   /* 6 */
		"        super().__init__(message)\n"                           /* 7 */
		"\n"
		"class InvalidURL(Exception):\n"                                /* 9 */
		"    def __init__(self, url):\n"                                /* 10 */
		"        Exception.__init__(self, f'Invalid URL: {url}')\n"     /* 11 */
		"\n"
		"class Wrapped(Exception):\n"                                   /* 13 */
		"    def __init__(self, message, request=None):\n"              /* 14 */
		"        super().__init__(message)\n"                           /* 15 */
		"\n"
		"class Banner(Widget):\n"                                       /* 17 */
		"    def __init__(self):\n"                                     /* 18 */
		"        super().__init__('Welcome back')\n"                    /* 19 */
		"\n"
		"class TemplatesNotFound(TemplateNotFound):\n"                  /* 21 */
		"    def __init__(\n"                                           /* 22 */
		"        self,\n"                                               /* 23 */
		"        names=(),\n"                                           /* 24 */
		"        message=None,\n"                                       /* 25 */
		"    ) -> None:\n"                                              /* 26 */
		"        if message is None:\n"                                 /* 27 */
		"            parts_str = ', '.join(map(str, names))\n"          /* 28 */
		"            message = f'none of the templates given were found: {parts_str}'\n" /* 29 */
		"        super().__init__(names[-1] if names else None, message)\n"; /* 30 */
	fl_sites *s = harness_scan(&fl_lang_python, "pkg/_exceptions.py", errors_py);
	const fl_site *x = EXPECT_SITE(s, "Attempted to read or stream some content, but the content has already been streamed.",
				       7, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "StreamConsumed");
	harness_expect_str(x->idiom, "class constructor __init__");
	x = EXPECT_SITE(s, "Invalid URL: {url}", 11, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "InvalidURL");
	/* not Wrapped's parameter, not Banner; TemplatesNotFound is named
	 * like no exception, and its raises say its text */
	assert_int_equal((int)s->n, 2);
	fl_sites_free(s);

	const char *models_py =
		"def read(stream):\n"                                            /* 1 */
		"    if stream.consumed:\n"                                      /* 2 */
		"        raise StreamConsumed()\n"                               /* 3 */
		"    raise Wrapped('The stream broke')\n"                        /* 4 */
		"def select(names):\n"                                           /* 5 */
		"    if not names:\n"                                            /* 6 */
		"        raise TemplatesNotFound(message='Tried an empty list.')\n" /* 7 */
		"    raise TemplatesNotFound(names)\n"                           /* 8 */
		"def pick(names, why):\n"                                        /* 9 */
		"    raise TemplatesNotFound(names, why)\n";                     /* 10 */
	fl_src files[] = {{"pkg/_exceptions.py", errors_py, strlen(errors_py), NULL},
			  {"pkg/_models.py", models_py, strlen(models_py), NULL}};
	s = harness_scan_tree(&fl_lang_python, files, 2, 1);
	x = EXPECT_SITE(s, "Attempted to read or stream some content, but the content has already been streamed.",
			3, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "stream.consumed");
	EXPECT_SITE(s, "The stream broke", 4, FL_T_EXCEPTION);
	/* the default the __init__ sets when the raise gives no message;
	 * a raise giving one by name or position has its own */
	EXPECT_SITE(s, "Tried an empty list.", 7, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "none of the templates given were found: {parts_str}", 8, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "TemplatesNotFound");
	for (size_t k = 0; k < s->n; k++)
		assert_false(s->v[k].line == 10 && s->v[k].message &&
			     strstr(s->v[k].message, "none of the templates"));
	fl_sites_free(s);
}

/* An __init__ that %-formats its parameters into the message it passes on
 * (`'%s: line %d column %d (char %d)' % (msg, lineno, colno, pos)`, through
 * a local): a raise of the class fills the parameters it gives as literals
 * and keeps the rest.  A __str__ with a return in each branch: each text a
 * site, guarded by its branch.  A raise in the class's own file is the
 * record's first site, before the definition. */
/* A class whose one __str__ returns a text shows that text whatever a
 * raise gives it: a literal argument is a field of it, not the message
 * (pyjwt's MissingRequiredClaimError("aud")); a __str__ that returns
 * an attribute alone leaves a raise its own text. */
static void test_str_over_args(void **state)
{
	(void)state;
	const char *exc_py =
		"class MissingClaim(Exception):\n"                                       /* 1 */
		"    def __init__(self, claim):\n"                                       /* 2 */
		"        self.claim = claim\n"                                           /* 3 */
		"    def __str__(self):\n"                                               /* 4 */
		"        return f'Token is missing the \"{self.claim}\" claim'\n"        /* 5 */
		"class Plain(Exception):\n"                                              /* 6 */
		"    def __str__(self):\n"                                               /* 7 */
		"        return self.message\n"                                          /* 8 */
		"class Expired(Exception):\n"                                            /* 9 */
		"    def __str__(self):\n"                                               /* 10 */
		"        return (\"Token '%s' expired after %s seconds\" %\n"          /* 11 */
		"                (self.token, self.ttl))\n";                             /* 12 */
	const char *api_py =
		"def validate(payload, required):\n"                                     /* 1 */
		"    for claim in required:\n"                                           /* 2 */
		"        if payload.get(claim) is None:\n"                               /* 3 */
		"            raise MissingClaim(claim)\n"                                /* 4 */
		"    if 'aud' not in payload:\n"                                         /* 5 */
		"        raise MissingClaim('aud')\n"                                    /* 6 */
		"    raise Plain('the payload is not valid')\n"                          /* 7 */
		"def check(token, ttl):\n"                                               /* 8 */
		"    raise Expired(token, ttl)\n";                                       /* 9 */
	fl_src files[] = {{"jwt/exceptions.py", exc_py, strlen(exc_py), NULL},
			  {"jwt/api.py", api_py, strlen(api_py), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_python, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "Token is missing the \"{self.claim}\" claim", 4, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "MissingClaim");
	x = harness_find_line(s, 6);
	assert_non_null(x);
	harness_expect_str(x->message, "Token is missing the \"{self.claim}\" claim");
	EXPECT_SITE(s, "the payload is not valid", 7, FL_T_EXCEPTION);
	/* a text returned in parentheses, as a long one is written */
	x = EXPECT_SITE(s, "Token '%s' expired after %s seconds", 9, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "Expired");
	assert_null(harness_find(s, "aud"));
	fl_sites_free(s);
}

static void test_init_pct_and_str_branches(void **state)
{
	(void)state;
	const char *errors_py =
		"class DecodeFailure(ValueError):\n"                                     /* 1 */
		"    def __init__(self, msg, doc, pos):\n"                               /* 2 */
		"        lineno = doc.count('\\n', 0, pos) + 1\n"                       /* 3 */
		"        colno = pos - doc.rfind('\\n', 0, pos)\n"                      /* 4 */
		"        errmsg = '%s: line %d column %d (char %d)' % (msg, lineno, colno, pos)\n" /* 5 */
		"        ValueError.__init__(self, errmsg)\n"                             /* 6 */
		"\n"                                                                     /* 7 */
		"class NoSection(Exception):\n"                                          /* 8 */
		"    def __init__(self, section):\n"                                     /* 9 */
		"        Exception.__init__(self, 'No section: %r' % (section,))\n"      /* 10 */
		"\n"                                                                     /* 11 */
		"class RunFailed(Exception):\n"                                          /* 12 */
		"    def __str__(self):\n"                                               /* 13 */
		"        if self.returncode < 0:\n"                                      /* 14 */
		"            return \"Command '%s' died with %r.\" % (self.cmd, -self.returncode)\n" /* 15 */
		"        else:\n"                                                        /* 16 */
		"            return \"Command '%s' returned non-zero exit status %d.\" % (self.cmd, self.returncode)\n" /* 17 */
		"\n"                                                                     /* 18 */
		"def get(sections, name):\n"                                             /* 19 */
		"    if name not in sections:\n"                                         /* 20 */
		"        raise NoSection(name)\n";                                       /* 21 */
	const char *use_py =
		"def decode(doc, idx):\n"                                                /* 1 */
		"    if idx >= len(doc):\n"                                              /* 2 */
		"        raise DecodeFailure('Expecting value', doc, idx)\n"             /* 3 */
		"    raise NoSection(section='main')\n"                                  /* 4 */
		"def run(cmd, code):\n"                                                  /* 5 */
		"    raise RunFailed(code, cmd)\n"                                       /* 6 */
		"def keys(doc, i, group):\n"                                             /* 7 */
		"    if i < 0: raise DecodeFailure('Key name found without value.' ' Reached end of line.', doc, i)\n" /* 8 */
		"    if i > 9: raise DecodeFailure(\"Invalid group name '\" + group + \"'\", doc, i)\n" /* 9 */
		"    raise DecodeFailure('Found empty keyname. ', doc, i)\n";             /* 10 */
	fl_src files[] = {{"pkg/errors.py", errors_py, strlen(errors_py), NULL},
			  {"pkg/use.py", use_py, strlen(use_py), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_python, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "Expecting value: line %d column %d (char %d)", 3, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "idx >= len(doc)");
	harness_expect_str(x->cls, "DecodeFailure");
	EXPECT_SITE(s, "No section: 'main'", 4, FL_T_EXCEPTION);
	/* literals joined or concatenated with a value fill the parameter
	 * too, and a literal's trailing blank is kept (two spaces printed) */
	EXPECT_SITE(s, "Key name found without value. Reached end of line.: line %d column %d (char %d)", 8, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Invalid group name '{group}': line %d column %d (char %d)", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Found empty keyname. : line %d column %d (char %d)", 10, FL_T_EXCEPTION);
	/* a raise that gives no text of a class whose __str__ has one per
	 * branch: a site per text */
	x = EXPECT_SITE(s, "Command '%s' died with %r.", 6, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "RunFailed");
	EXPECT_SITE(s, "Command '%s' returned non-zero exit status %d.", 6, FL_T_EXCEPTION);
	assert_int_equal((int)s->n, 7);
	fl_sites_free(s);

	s = harness_scan_tree(&fl_lang_python, files, 2, 0);
	x = EXPECT_SITE(s, "Command '%s' died with %r.", 15, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "self.returncode < 0");
	harness_expect_str(x->idiom, "class method __str__");
	x = EXPECT_SITE(s, "Command '%s' returned non-zero exit status %d.", 17, FL_T_EXCEPTION);
	assert_null(x->guard);
	/* the raise first, the __init__ that defines the text after it */
	size_t raise = s->n, def = s->n;
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].message && strcmp(s->v[k].message, "No section: %r") == 0) {
			if (s->v[k].line == 21)
				raise = k;
			else if (s->v[k].line == 10)
				def = k;
		}
	assert_true(raise < s->n && def < s->n);
	assert_true(raise < def);
	harness_expect_str(s->v[raise].guard, "name not in sections");
	fl_sites_free(s);
}

/* Module constants in capitals bound once to literals read as their text
 * in a message: in an f-string field, a concatenation, a format() or %
 * template, a constant made of another; a name bound twice, a lowercase
 * name or a constant bound to a call is not read. */
static void test_module_constants(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"_PREFIX = 'No module named '\n"                                /* 1 */
		"_SUFFIX = ' (check the path)'\n"                               /* 2 */
		"_ERR = _PREFIX + '{!r}'\n"                                     /* 3 */
		"TWICE = 'first'\n"                                             /* 4 */
		"TWICE = 'second'\n"                                            /* 5 */
		"lower = 'lower text'\n"                                        /* 6 */
		"CALLED = make('called text')\n"                                /* 7 */
		"def find(name):\n"                                             /* 8 */
		"    raise ModuleNotFoundError(f'{_PREFIX}{name!r}', name=name)\n" /* 9 */
		"def path(p):\n"                                                /* 10 */
		"    raise ValueError(_PREFIX + p + _SUFFIX)\n"                 /* 11 */
		"def load(name):\n"                                             /* 12 */
		"    raise ImportError(_ERR.format(name))\n"                    /* 13 */
		"def other(x):\n"                                               /* 14 */
		"    raise KeyError(TWICE + ' of ' + x)\n"                      /* 15 */
		"    raise KeyError(lower + ' is ' + x)\n"                      /* 16 */
		"    raise KeyError(CALLED + ' is ' + x)\n");                   /* 17 */
	EXPECT_SITE(s, "No module named {name!r}", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "No module named {p} (check the path)", 11, FL_T_EXCEPTION);
	EXPECT_SITE(s, "No module named {!r}", 13, FL_T_EXCEPTION);
	/* bound again at the top level: the last binding, what a
	 * function of the module sees */
	EXPECT_SITE(s, "second of {x}", 15, FL_T_EXCEPTION);
	EXPECT_SITE(s, "{lower} is {x}", 16, FL_T_EXCEPTION);
	EXPECT_SITE(s, "{CALLED} is {x}", 17, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* Another module's constants: `raise DocumentError(errors.DOCUMENT_MISSING)`
 * with `DOCUMENT_MISSING = "document is missing"` in errors.py (a
 * package's __init__.py is its folder's module), as they are, formatted
 * or with %; a one-word constant is no message. */
static void test_other_module_constants(void **state)
{
	(void)state;
	const char *errors_py =
		"DOCUMENT_MISSING = ErrorDefinition(0x01, None)\n"
		"DOCUMENT_MISSING = \"document is missing\"\n"
		"DOCUMENT_FORMAT = \"'{0}' is not a document, must be a dict\"\n"
		"UNKNOWN_RULE = 'no definition for the rule %s'\n"
		"KEY = 'key'\n";
	const char *init_py =
		"SCHEMA_MISSING = 'validation schema missing'\n";
	const char *validator_py =
		"from . import errors\n"                                               /* 1 */
		"import schema\n"                                                      /* 2 */
		"def validate(document, rule):\n"                                      /* 3 */
		"    if document is None:\n"                                           /* 4 */
		"        raise DocumentError(errors.DOCUMENT_MISSING)\n"               /* 5 */
		"    if not isinstance(document, dict):\n"                             /* 6 */
		"        raise DocumentError(errors.DOCUMENT_FORMAT.format(document))\n" /* 7 */
		"    if rule is None:\n"                                               /* 8 */
		"        raise SchemaError(schema.SCHEMA_MISSING)\n"                   /* 9 */
		"    raise RuleError(errors.UNKNOWN_RULE % rule)\n"                    /* 10 */
		"    raise KeyError(errors.KEY)\n";                                    /* 11 */
	fl_src files[] = {{"cerb/errors.py", errors_py, strlen(errors_py), NULL},
			  {"cerb/schema/__init__.py", init_py, strlen(init_py), NULL},
			  {"cerb/validator.py", validator_py, strlen(validator_py), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_python, files, 3, 2);
	const fl_site *x = EXPECT_SITE(s, "document is missing", 5, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "DocumentError");
	EXPECT_SITE(s, "'{0}' is not a document, must be a dict", 7, FL_T_EXCEPTION);
	EXPECT_SITE(s, "validation schema missing", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "no definition for the rule %s", 10, FL_T_EXCEPTION);
	assert_null(harness_find(s, "key"));
	fl_sites_free(s);
}

/* A template in a local, formatted where it is raised (`msg % args`,
 * `msg.format(...)`), a table of texts (`msg = errors.get(kind)`), a text
 * given after the object the error is about (`ArgumentError(action,
 * msg)`), and a local set in a branch that raises before the use. */
/* A local built up with `+=`: each piece appended (a literal's text,
 * os.linesep a line break); a `+=` in a branch deeper than the raise
 * gives the text both without and with it. */
static void test_local_appends(void **state)
{
	(void)state;
	fl_sites *s = harness_scan(&fl_lang_python, "toml/decoder.py",
		"from os import linesep\n"                                                   /* 1 */
		"def load(f, op):\n"                                                         /* 2 */
		"    if not f:\n"                                                            /* 3 */
		"        error_msg = 'Load expects a list to contain filenames only.'\n"     /* 4 */
		"        error_msg += linesep\n"                                             /* 5 */
		"        error_msg += ('The list needs to contain the path of at least one '\n" /* 6 */
		"                      'existing file.')\n"                                  /* 7 */
		"        raise FileNotFoundError(error_msg)\n"                               /* 8 */
		"    msg = 'cannot load'\n"                                                  /* 9 */
		"    if f:\n"                                                                /* 10 */
		"        msg += ' the given file'\n"                                         /* 11 */
		"    raise ValueError(msg)\n");                                              /* 12 */
	EXPECT_SITE(s, "Load expects a list to contain filenames only.\nThe list needs to contain the path of at least one existing file.", 8, FL_T_EXCEPTION);
	EXPECT_SITE(s, "cannot load", 12, FL_T_EXCEPTION);
	EXPECT_SITE(s, "cannot load the given file", 12, FL_T_EXCEPTION);
	fl_sites_free(s);
}

static void test_local_templates(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def get_value(action, arg_string):\n"                               /* 1 */
		"    try:\n"                                                          /* 2 */
		"        return action.type(arg_string)\n"                            /* 3 */
		"    except ArgumentTypeError as err:\n"                              /* 4 */
		"        msg = str(err)\n"                                            /* 5 */
		"        raise ArgumentError(action, msg)\n"                          /* 6 */
		"    except (TypeError, ValueError):\n"                               /* 7 */
		"        args = {'type': action.type, 'value': arg_string}\n"         /* 8 */
		"        msg = _('invalid %(type)s value: %(value)r')\n"              /* 9 */
		"        raise ArgumentError(action, msg % args)\n"                   /* 10 */
		"def fmt(x):\n"                                                       /* 11 */
		"    template = 'bad {name} here, 100%% {{sure}}'\n"                  /* 12 */
		"    raise ValueError(template.format(name=x, n='lit'))\n"            /* 13 */
		"def pct(x):\n"                                                       /* 14 */
		"    template = 'bad %s here, 100%% sure'\n"                          /* 15 */
		"    raise ValueError(template % x)\n"                                /* 16 */
		"def nargs(action, match):\n"                                         /* 17 */
		"    if match is None:\n"                                             /* 18 */
		"        nargs_errors = {\n"                                          /* 19 */
		"            None: _('expected one argument'),\n"                     /* 20 */
		"            '?': _('expected at most one argument'),\n"              /* 21 */
		"        }\n"                                                         /* 22 */
		"        msg = nargs_errors.get(action.nargs)\n"                      /* 23 */
		"        if msg is None:\n"                                           /* 24 */
		"            msg = _('expected %s argument') % action.nargs\n"        /* 25 */
		"        raise ArgumentError(action, msg)\n"                          /* 26 */
		"def later(node, n):\n"                                               /* 27 */
		"    raise ParseError(node, 'unexpected token %s' % n)\n"             /* 28 */
		"    raise ParseError(node, n)\n"                                     /* 29 */
		"def table(kind):\n"                                                  /* 30 */
		"    texts = {1: 'one text', 2: compute()}\n"                         /* 31 */
		"    raise ValueError(texts[kind])\n"                                 /* 32 */
		"def check(req, dist):\n"                                           /* 33 */
		"    raise Inconsistent(req, 'name', dist.name)\n");                  /* 34 */
	EXPECT_SITE(s, "invalid %(type)s value: %(value)r", 10, FL_T_EXCEPTION);
	/* a text made elsewhere (str(err)): the class alone */
	EXPECT_SITE(s, "ArgumentError", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "bad {name} here, 100%% {sure}", 13, FL_T_EXCEPTION);
	EXPECT_SITE(s, "bad %s here, 100% sure", 16, FL_T_EXCEPTION);
	EXPECT_SITE(s, "expected one argument", 26, FL_T_EXCEPTION);
	EXPECT_SITE(s, "expected at most one argument", 26, FL_T_EXCEPTION);
	EXPECT_SITE(s, "expected %s argument", 26, FL_T_EXCEPTION);
	EXPECT_SITE(s, "unexpected token %s", 28, FL_T_EXCEPTION);
	/* no text of their own (a value that is no text, one word that is a
	 * field's name): the class alone */
	harness_expect_at(s, 29, "ParseError");
	harness_expect_at(s, 32, "ValueError");
	harness_expect_at(s, 34, "Inconsistent");
	fl_sites_free(s);
}

/* An exception made into a local, then raised: the raise is the site
 * (the traceback's line), with the construction's class and text; a
 * message that is a conditional expression. */
static void test_raise_local_exception(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def missing(cls, value):\n"                                         /* 1 */
		"    ve_exc = ValueError('%r is not a valid %s' % (value, cls))\n"    /* 2 */
		"    if value is None:\n"                                             /* 3 */
		"        raise ve_exc\n"                                              /* 4 */
		"def other(x):\n"                                                     /* 5 */
		"    err = None\n"                                                    /* 6 */
		"    if x:\n"                                                         /* 7 */
		"        err = errors.KeyError('bad key %s' % x)\n"                   /* 8 */
		"    if err is not None:\n"                                           /* 9 */
		"        raise err\n"                                                 /* 10 */
		"def made(x):\n"                                                      /* 11 */
		"    err = make(x)\n"                                                 /* 12 */
		"    raise err\n"                                                     /* 13 */
		"def readable(msg=None):\n"                                           /* 14 */
		"    raise Unsupported('File is not readable.' if msg is None else msg)\n" /* 15 */
		"def size(x):\n"                                                      /* 16 */
		"    raise ValueError('too big' if x > 10 else 'too small')\n");      /* 17 */
	const fl_site *x = EXPECT_SITE(s, "%r is not a valid %s", 4, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ValueError");
	harness_expect_str(x->guard, "value is None");
	x = EXPECT_SITE(s, "bad key %s", 10, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "KeyError");
	assert_null(harness_find_line(s, 2));
	assert_null(harness_find_line(s, 13));
	/* a conditional expression: the branches that are texts */
	EXPECT_SITE(s, "File is not readable.", 15, FL_T_EXCEPTION);
	EXPECT_SITE(s, "too big", 17, FL_T_EXCEPTION);
	EXPECT_SITE(s, "too small", 17, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* A message reshaped by the call around it, as Python prints it:
 * textwrap.dedent (the shared margin), inspect.cleandoc (the first line's
 * own blanks, the blank lines at both ends too), str.strip. */
static void test_reshaped_texts(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def a(name):\n"                                                 /* 1 */
		"    raise InvalidArguments(textwrap.dedent('''\\\n"              /* 2 */
		"        An external library was used in link_with,\n"           /* 3 */
		"          which is reserved. {}\n"                              /* 4 */
		"        '''.format(name)))\n"                                   /* 5 */
		"def b(name):\n"                                                 /* 6 */
		"    raise ValueError(cleandoc(f'''\n"                           /* 7 */
		"        Target {name} is bad.\n"                                /* 8 */
		"            See the docs.\n"                                    /* 9 */
		"        '''))\n"                                                /* 10 */
		"def c():\n"                                                     /* 11 */
		"    raise ValueError('  padded text here  '.strip())\n"         /* 12 */
		"def d(name):\n"                                                 /* 13 */
		"    raise ValueError(textwrap.dedent(\"\"\"\\\n"                /* 14 */
		"        Target {} is bad.\n"                                    /* 15 */
		"          see {{docs}}\n"                                       /* 16 */
		"        \"\"\").format(name))\n");                               /* 17 */
	EXPECT_SITE(s, "An external library was used in link_with,\n  which is reserved. {}", 2,
		    FL_T_EXCEPTION);
	EXPECT_SITE(s, "Target {name} is bad.\n    See the docs.", 7, FL_T_EXCEPTION);
	EXPECT_SITE(s, "padded text here", 12, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Target {} is bad.\n  see {docs}", 14, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* A print in an exception handler of its function is the program's report
 * of the failure it caught; a print elsewhere, or with a file= of its own,
 * is not one of these. */
static void test_print_in_except(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def run(infodir):\n"                                               /* 1 */
		"    try:\n"                                                        /* 2 */
		"        raw = load(infodir)\n"                                     /* 3 */
		"    except FileNotFoundError:\n"                                   /* 4 */
		"        if not os.path.isdir(infodir):\n"                          /* 5 */
		"            print('Current directory is not a build directory.')\n" /* 6 */
		"        return 1\n"                                                /* 7 */
		"    print('Loaded the build directory.')\n"                        /* 8 */
		"    try:\n"                                                        /* 9 */
		"        pass\n"                                                    /* 10 */
		"    except OSError:\n"                                             /* 11 */
		"        def later():\n"                                            /* 12 */
		"            print('not in the handler of its function')\n"         /* 13 */
		"        print('report', file=out)\n");                             /* 14 */
	const fl_site *x = EXPECT_SITE(s, "Current directory is not a build directory.", 6, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "print in except");
	harness_expect_str(x->guard, "not os.path.isdir(infodir)");
	assert_null(harness_find(s, "Loaded the build directory."));
	assert_null(harness_find(s, "not in the handler of its function"));
	assert_null(harness_find(s, "report"));
	fl_sites_free(s);
}

/* A call of some output helper whose text says it is an error or a
 * warning is a site of that text; a text that says nothing of the kind,
 * one that is all placeholder, a callee that names no output, or an
 * exception's constructor (a raise's) is none. */
static void test_texts_that_say_error(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def failed(self, src, message):\n"                       /* 1 */
		"    err(f\"error: cannot format {src}: {message}\")\n"    /* 2 */
		"    self.out('warning: the cache is stale')\n"            /* 3 */
		"    err(f\"error: {message}\")\n"                         /* 4 */
		"    err(f\"cannot format {src}\")\n"                      /* 5 */
		"    if line.startswith('error: bad input'):\n"            /* 6 */
		"        return parse_error('error: bad input')\n"         /* 7 */
		"    raise UsageError('fatal: no remote named origin')\n"  /* 8 */
		"    total = count('error: lines')\n");                    /* 9 */
	const fl_site *x = harness_expect_at(s, 2, "error: cannot format {src}: {message}");
	harness_expect_str(x->idiom, "err");
	harness_expect_str(x->severity, FL_S_ERROR);
	x = harness_expect_at(s, 3, "warning: the cache is stale");
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "self.out");
	assert_null(harness_find_line(s, 4));
	assert_null(harness_find_line(s, 5));
	assert_null(harness_find_line(s, 6));
	assert_null(harness_find_line(s, 7));
	x = harness_expect_at(s, 8, "fatal: no remote named origin");
	harness_expect_str(x->idiom, "raise");
	assert_null(harness_find_line(s, 9));
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
}

/* A reporter that prints its parameter through a literal's one
 * placeholder (`"ERROR: {}".format(msg)`, `"ERROR: %s" % msg`) to stderr
 * and exits, even only when asked to: each call with a literal is a site
 * of the printed text.  A format with two placeholders is none. */
static void test_reporters_formatting_their_parameter(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"import sys\n"                                                         /* 1 */
		"def feedback(msg, sysexit=False):\n"                                  /* 2 */
		"    print(\"ERROR: {}\".format(msg), file=sys.stderr)\n"              /* 3 */
		"    if sysexit:\n"                                                    /* 4 */
		"        raise SystemExit(1)\n"                                        /* 5 */
		"def warn_user(msg):\n"                                                /* 6 */
		"    print(\"ERROR: %s\" % msg, file=sys.stderr)\n"                    /* 7 */
		"    sys.exit(2)\n"                                                    /* 8 */
		"def two(msg, code):\n"                                                /* 9 */
		"    print(\"E{}: {}\".format(code, msg), file=sys.stderr)\n"          /* 10 */
		"    sys.exit(2)\n"                                                    /* 11 */
		"def run(args):\n"                                                     /* 12 */
		"    if args.devenv:\n"                                                /* 13 */
		"        feedback(\"--devenv requires only a single -e\", sysexit=True)\n" /* 14 */
		"    warn_user(\"no configuration was given\")\n"                      /* 15 */
		"    two(\"the shelf is locked\", 7)\n"                                /* 16 */
		"    msg = \"shelf file (either {}) not found\"\n"                      /* 17 */
		"    feedback(msg.format(\", \".join(args.names)), sysexit=True)\n");   /* 18 */
	const fl_site *x = harness_expect_at(s, 14, "ERROR: --devenv requires only a single -e");
	harness_expect_str(x->idiom, "reporter feedback");
	harness_expect_str(x->guard, "args.devenv");
	harness_expect_at(s, 15, "ERROR: no configuration was given");
	assert_null(harness_find_line(s, 16));
	/* a local's text, formatted where it is given */
	harness_expect_at(s, 18, "ERROR: shelf file (either {}) not found");
	fl_sites_free(s);
}

/* An exception made with its text and stored, to be raised from where it
 * is kept, is a site where it is made: into a subscript or an attribute,
 * or given to set_exception; a class of the file whose base is named like
 * an exception counts.  Not a local (the raise of it is the site), nor
 * one without a text of its own, nor a class that is no exception. */
static void test_stored_exceptions(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"class InvalidInput(ValueError):\n"                                   /* 1 */
		"    pass\n"                                                          /* 2 */
		"def parse(src, grammars):\n"                                         /* 3 */
		"    errors = {}\n"                                                   /* 4 */
		"    for g in grammars:\n"                                            /* 5 */
		"        try:\n"                                                      /* 6 */
		"            return g.parse(src)\n"                                   /* 7 */
		"        except TokenError as te:\n"                                  /* 8 */
		"            errors[g] = InvalidInput(f\"Cannot parse: {te.args[0]}\")\n" /* 9 */
		"    raise errors[grammars[-1]]\n"                                    /* 10 */
		"def wait(self, fut):\n"                                              /* 11 */
		"    self.failure = ConnectionError('the peer closed the stream')\n"  /* 12 */
		"    fut.set_exception(TimeoutError('no answer within the deadline'))\n" /* 13 */
		"    self.last = Record('a record with a text')\n"                    /* 14 */
		"    self.empty = KeyError()\n"                                       /* 15 */
		"    errors['x'] = ValueError(key)\n");                               /* 16 */
	const fl_site *x = harness_expect_at(s, 9, "Cannot parse: {te.args[0]}");
	harness_expect_str(x->cls, "InvalidInput");
	harness_expect_str(x->function, "parse");
	harness_expect_str(x->idiom, "stored");
	x = harness_expect_at(s, 12, "the peer closed the stream");
	harness_expect_str(x->cls, "ConnectionError");
	harness_expect_at(s, 13, "no answer within the deadline");
	assert_null(harness_find_line(s, 10));
	assert_null(harness_find_line(s, 14));
	assert_null(harness_find_line(s, 15));
	assert_null(harness_find_line(s, 16));
	fl_sites_free(s);
}

/* A file is scanned while it is read, as if the tree held nothing: those
 * sites stand only when the whole tree has none of the names the scan
 * looked up.  A raise of a class another file declares with a default
 * message, a call of the tree's reporter: the early scan must not stand,
 * or its site would miss the message the tree gives. */
static void test_early_scan_checked(void **state)
{
	(void)state;
	const char *errors_py =
		"class StreamConsumed(StreamError):\n"
		"    def __init__(self) -> None:\n"
		"        super().__init__('The stream was read already.')\n"
		"def fail(msg):\n"
		"    print('error: ' + msg, file=sys.stderr)\n"
		"    sys.exit(2)\n";
	const char *models_py =
		"def read(stream):\n"                                            /* 1 */
		"    if stream.consumed:\n"                                      /* 2 */
		"        raise StreamConsumed()\n"                               /* 3 */
		"def main(args):\n"                                             /* 4 */
		"    if not args:\n"                                             /* 5 */
		"        fail('no input')\n";                                    /* 6 */
	fl_src files[] = {{"pkg/_exceptions.py", errors_py, strlen(errors_py), NULL},
			  {"pkg/_models.py", models_py, strlen(models_py), NULL}};
	const fl_lang *L = &fl_lang_python;
	void *tree = L->tree_new();
	for (size_t i = 0; i < 2; i++)
		harness_collect(L, tree, &files[i]);
	fl_sites *s = fl_sites_new();
	L->scan(tree, &files[1], s);
	fl_sites_sort(s);
	EXPECT_SITE(s, "The stream was read already.", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "error: no input", 6, FL_T_CONSOLE);
	void *part = L->tree_new();
	fl_sites *e = fl_sites_new();
	void *log = L->collect_scan(part, &files[1], e, NULL);
	assert_non_null(log);
	assert_null(harness_find(e, "The stream was read already."));
	assert_null(harness_find(e, "error: no input"));
	assert_false(L->early_holds(tree, log));
	assert_true(L->early_holds(part, log));
	L->early_free(log);
	fl_sites_free(e);
	L->tree_free(part);
	assert_int_equal(harness_check_early(L, tree, &files[1], s), 0);
	fl_sites *d = fl_sites_new();
	L->scan(tree, &files[0], d);
	fl_sites_sort(d);
	assert_int_equal(harness_check_early(L, tree, &files[0], d), 1);
	fl_sites_free(d);
	fl_sites_free(s);
	L->tree_free(tree);
}

/* `assert test, message` raises AssertionError with the message. */
static void test_assert_statements(void **state)
{
	(void)state;
	fl_sites *s = harness_scan(&fl_lang_python, "pkg/models.py",
		"def f(x, msg):\n"                                                   /* 1 */
		"    assert x > 0, 'x must be positive'\n"                           /* 2 */
		"    assert isinstance(x, int), f'expected an int, got {type(x)}'\n" /* 3 */
		"    assert x, msg\n"                                                /* 4 */
		"    assert (x, 'a tuple is always true')\n"                         /* 5 */
		"    if x: assert x < 10, 'x is at most 9'\n"                        /* 6 */
		"    check(assert_that, 'not an assert statement')\n");             /* 7 */
	const fl_site *x = EXPECT_SITE(s, "x must be positive", 2, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "AssertionError");
	harness_expect_str(x->idiom, "assert");
	harness_expect_str(x->function, "f");
	/* an assert fires when its condition is false */
	harness_expect_str(x->guard, "x <= 0");
	x = EXPECT_SITE(s, "expected an int, got {type(x)}", 3, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "not isinstance(x, int)");
	x = EXPECT_SITE(s, "x is at most 9", 6, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "x >= 10");
	assert_null(harness_find(s, "a tuple is always true"));
	assert_null(harness_find(s, "not an assert statement"));
	fl_sites_free(s);
}

/* an error factory returns an exception for its callers to raise
 * (FastAPI's `raise self.make_not_authenticated_error()`): its name or
 * its return annotation says so, and the class is an exception */
static void test_error_factories(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"class HTTPBase:\n"                                                   /* 1 */
		"    def make_not_authenticated_error(self):\n"                       /* 2 */
		"        return HTTPException(\n"                                     /* 3 */
		"            status_code=HTTP_401_UNAUTHORIZED,\n"                    /* 4 */
		"            detail=\"Not authenticated\",\n"                         /* 5 */
		"        )\n"                                                         /* 6 */
		"    def check(self, key):\n"                                         /* 7 */
		"        if not key:\n"                                               /* 8 */
		"            raise self.make_not_authenticated_error()\n"             /* 9 */
		"def bad_token(token) -> errors.TokenError:\n"                        /* 10 */
		"    if token.expired:\n"                                             /* 11 */
		"        return errors.TokenError(\"token expired\")\n"               /* 12 */
		"    return errors.TokenError(f\"bad token {token.id}\")\n"          /* 13 */
		"def render(x) -> Response:\n"                                        /* 14 */
		"    return SecurityError(\"not a factory\")\n"                       /* 15 */
		"def error_page(code):\n"                                             /* 16 */
		"    return Response(\"not an exception\", status=code)\n"            /* 17 */
		"    return make_error(\"a call, not a class\")\n");                  /* 18 */
	const fl_site *p = EXPECT_SITE(s, "Not authenticated", 3, FL_T_HTTP);
	assert_int_equal(p->http, 401);
	harness_expect_str(p->cls, "HTTPException");
	harness_expect_str(p->function, "HTTPBase.make_not_authenticated_error");
	harness_expect_str(p->idiom, "return");
	p = EXPECT_SITE(s, "token expired", 12, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "TokenError");
	harness_expect_str(p->guard, "token.expired");
	EXPECT_SITE(s, "bad token {token.id}", 13, FL_T_EXCEPTION);
	assert_null(harness_find(s, "not a factory"));
	assert_null(harness_find(s, "not an exception"));
	assert_null(harness_find(s, "a call, not a class"));
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
}

/* A helper that raises its message parameter, on a condition of its
 * parameters or not, and a factory that returns an error made of it: each
 * call that gives a text is a site, the helper's condition in the call's
 * words its guard.  A method is one only when the call is on self; a
 * one-word argument is a key, not a text; a helper nested in the factory
 * is not one of its returns. */
static void test_raising_helpers(void **state)
{
	(void)state;
	const char *helpers_py =
		"def _require(ok, message):\n"
		"    \"\"\"Raise ConfigError unless ok.\"\"\"\n"
		"    if not ok:\n"
		"        raise ConfigError(message)\n"
		"def suffixed_err(src, pos, msg):\n"
		"    def coord(src, pos):\n"
		"        if pos >= len(src):\n"
		"            return \"end of document\"\n"
		"        return f\"line {src.count(pos)}\"\n"
		"    return DecodeError(f\"{msg} (at {coord(src, pos)})\")\n"
		"def _check_range(value, name, top=10):\n"
		"    if value > top: raise ValueError(f\"{name} is out of range\")\n"
		"def _tangled(x, msg):\n"
		"    for y in x:\n"
		"        raise ValueError(msg)\n"
		"class Mapping:\n"
		"    def pop(self, key):\n"
		"        raise KeyError(key)\n"
		"def _bad(msg):\n"
		"    raise ValueError(\"bad config: \" + msg)\n"
		"def _missing(what, where=None):\n"
		"    raise KeyError(\"no %s in %s\" % (what, where))\n"
		"def _unknown(name, kind):\n"
		"    raise LookupError(\"{} {k!r} is not known\".format(name, k=kind))\n";
	const char *main_py =
		"class Loader:\n"                                                    /* 1 */
		"    def _fail(self, message):\n"                                    /* 2 */
		"        raise LoaderError(message)\n"                               /* 3 */
		"    def load(self, path, mode, kwargs):\n"                          /* 4 */
		"        if not path:\n"                                             /* 5 */
		"            self._fail(\"a path must be given to load\")\n"        /* 6 */
		"        _require(mode in (\"r\", \"w\"), \"mode must be r or w\")\n" /* 7 */
		"        depth = kwargs.pop(\"the depth of it\")\n"                 /* 8 */
		"        _check_range(depth, \"the depth option\", top=20)\n"       /* 9 */
		"        _tangled(path, \"never a site of its own\")\n"             /* 10 */
		"        _require(path, \"key\")\n"                                  /* 11 */
		"def parse(src, pos):\n"                                             /* 12 */
		"    raise suffixed_err(src, pos, \"Unclosed array\")\n"             /* 13 */
		"def config(text):\n"                                               /* 14 */
		"    _bad(\"an empty section name\")\n"                              /* 15 */
		"    _missing(\"the colour key\", \"the theme file\")\n"             /* 16 */
		"    _missing(\"the size key\")\n"                                   /* 17 */
		"    _unknown(\"the option\", \"tabsize\")\n";                       /* 18 */
	fl_src files[] = {{"pkg/_helpers.py", helpers_py, strlen(helpers_py), NULL},
			  {"pkg/loader.py", main_py, strlen(main_py), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_python, files, 2, 1);
	const fl_site *p = EXPECT_SITE(s, "a path must be given to load", 6, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "LoaderError");
	harness_expect_str(p->guard, "not path");
	harness_expect_str(p->function, "Loader.load");
	p = EXPECT_SITE(s, "mode must be r or w", 7, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ConfigError");
	harness_expect_str(p->guard, "not (mode in (\"r\", \"w\"))");
	/* a parameter given by its default: no condition in the call's words */
	p = EXPECT_SITE(s, "the depth option is out of range", 9, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ValueError");
	harness_expect_str(p->guard, "depth > 20");
	p = EXPECT_SITE(s, "Unclosed array (at {coord(src, pos)})", 13, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "DecodeError");
	/* a literal joined to or formatted with the parameters */
	p = EXPECT_SITE(s, "bad config: an empty section name", 15, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ValueError");
	EXPECT_SITE(s, "no the colour key in the theme file", 16, FL_T_EXCEPTION);
	EXPECT_SITE(s, "no the size key in {where}", 17, FL_T_EXCEPTION);
	EXPECT_SITE(s, "the option 'tabsize' is not known", 18, FL_T_EXCEPTION);
	assert_null(harness_find(s, "the depth of it"));
	assert_null(harness_find(s, "never a site of its own"));
	assert_null(harness_find(s, "key"));
	fl_sites_free(s);
}

/* gettext's plural forms give two records, singular and plural (click's
 * `raise BadParameter(ngettext("Takes {nargs} values but 1 was given.",
 * "Takes {nargs} values but {len} were given.", len(value)).format(...))`
 * was missing); the context forms give their message argument. */
static void test_plural_gettext(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def convert(value, n):\n"                                       /* 1 */
		"    if len(value) != n:\n"                                      /* 2 */
		"        raise BadParameter(\n"                                  /* 3 */
		"            ngettext(\n"
		"                \"Takes {nargs} values but 1 was given.\",\n"
		"                \"Takes {nargs} values but {len} were given.\",\n"
		"                len(value),\n"
		"            ).format(nargs=n, len=len(value)),\n"
		"            ctx=ctx,\n"
		"        )\n"
		"    raise ValueError(pgettext(\"menu\", \"No such menu entry\"))\n" /* 11 */
		"    raise ValueError(ungettext_lazy(\"one file missing\",\n"   /* 12 */
		"                     \"%(n)d files missing\", n) % {\"n\": n})\n"
		"    logger.error(npgettext(\"ctx\", \"%d row lost\", \"%d rows lost\", n), n)\n" /* 14 */
		"    raise ValueError(ngettext(\"unbalanced\", \"x\"\n");       /* 15 */
	const fl_site *x = EXPECT_SITE(s, "Takes {nargs} values but 1 was given.", 3,
				       FL_T_EXCEPTION);
	harness_expect_str(x->cls, "BadParameter");
	harness_expect_str(x->guard, "len(value) != n");
	x = EXPECT_SITE(s, "Takes {nargs} values but {len} were given.", 3, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "BadParameter");
	EXPECT_SITE(s, "No such menu entry", 11, FL_T_EXCEPTION);
	EXPECT_SITE(s, "one file missing", 12, FL_T_EXCEPTION);
	EXPECT_SITE(s, "%(n)d files missing", 12, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "%d row lost", 14, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	EXPECT_SITE(s, "%d rows lost", 14, FL_T_CONSOLE);
	assert_int_equal(s->n, 7);
	fl_sites_free(s);
}

/* A raising method called on an object named for what it is
 * (`parser.fail(...)` in another class: Jinja's extensions), not a
 * built-in type's method of that name; a list joined into the message is
 * read up to its first part added on a condition, and a list bound in two
 * branches gives a site of each. */
static void test_raiser_on_object_and_joins(void **state)
{
	(void)state;
	const char *parser_py =
		"class Parser:\n"                                                    /* 1 */
		"    def fail(self, msg, lineno=None):\n"                            /* 2 */
		"        raise TemplateSyntaxError(msg, lineno)\n"                   /* 3 */
		"    def pop(self, msg):\n"                                          /* 4 */
		"        raise TemplateSyntaxError(msg)\n"                           /* 5 */
		"    def _fail_eof(self, name, stack, lineno):\n"                    /* 6 */
		"        if name is None:\n"                                         /* 7 */
		"            message = [\"Unexpected end of template.\"]\n"         /* 8 */
		"        else:\n"                                                    /* 9 */
		"            message = [f\"Encountered unknown tag {name!r}.\"]\n"  /* 10 */
		"        if stack:\n"                                                /* 11 */
		"            message.append(f\"Jinja was looking for {stack}.\")\n" /* 12 */
		"        self.fail(\" \".join(message), lineno)\n";                   /* 13 */
	const char *ext_py =
		"def parse(parser, variables, token, kwargs):\n"                     /* 1 */
		"    if token.value in variables:\n"                                 /* 2 */
		"        parser.fail(f\"translatable variable {token.value!r} defined twice.\", 1)\n"
		"    depth = kwargs.pop(\"the depth of it\")\n"                      /* 4 */
		"    self.parser.fail(\"control structures are not allowed here\")\n"; /* 5 */
	fl_src files[] = {{"pkg/parser.py", parser_py, strlen(parser_py), NULL},
			  {"pkg/ext.py", ext_py, strlen(ext_py), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_python, files, 2, 0);
	EXPECT_SITE(s, "Encountered unknown tag {name!r}.", 13, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Unexpected end of template.", 13, FL_T_EXCEPTION);
	fl_sites_free(s);
	s = harness_scan_tree(&fl_lang_python, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "translatable variable {token.value!r} defined twice.", 3,
				       FL_T_EXCEPTION);
	harness_expect_str(x->guard, "token.value in variables");
	EXPECT_SITE(s, "control structures are not allowed here", 5, FL_T_EXCEPTION);
	if (harness_find_line(s, 4))
		fail_msg("a dict's pop named like a raising helper gave a site");
	fl_sites_free(s);
}

/* Click: `ctx.fail(msg)` raises UsageError, a ParamType's
 * `self.fail(msg, param, ctx)` BadParameter (click's own types.py and
 * every custom type were missing); only in a file that uses Click, not in
 * a test class (unittest's self.fail), and not with a one-word message key
 * (Django REST framework's `self.fail("invalid")`). */
static void test_click_fail(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"import click\n"                                                 /* 1 */
		"class CommaList(click.ParamType):\n"                            /* 2 */
		"    def convert(self, value, param, ctx):\n"                    /* 3 */
		"        if not value:\n"                                        /* 4 */
		"            self.fail(_(\"{value!r} is not a list\").format(value=value), param, ctx)\n"
		"        self.fail(\"invalid\")\n"                                /* 6 */
		"def cli(ctx, args):\n"                                          /* 7 */
		"    if args:\n"                                                 /* 8 */
		"        ctx.fail(ngettext(\"Got unexpected extra argument ({args})\",\n"
		"                          \"Got unexpected extra arguments ({args})\",\n"
		"                          len(args)).format(args=args))\n"
		"    ctx.fail(_(\"Missing command.\"))\n"                         /* 12 */
		"class Context:\n"                                               /* 13 */
		"    def check(self):\n"
		"        self.fail(\"No such context\")\n"                        /* 15 */
		"class CliTest(unittest.TestCase):\n"                            /* 16 */
		"    def test_x(self):\n"
		"        self.fail(\"did not raise\")\n");                        /* 18 */
	const fl_site *x = EXPECT_SITE(s, "{value!r} is not a list", 5, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "BadParameter");
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->function, "CommaList.convert");
	harness_expect_str(x->guard, "not value");
	harness_expect_str(x->idiom, "self.fail");
	x = EXPECT_SITE(s, "Got unexpected extra argument ({args})", 9, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "UsageError");
	harness_expect_str(x->idiom, "ctx.fail");
	EXPECT_SITE(s, "Got unexpected extra arguments ({args})", 9, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "Missing command.", 12, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "UsageError");
	x = EXPECT_SITE(s, "No such context", 15, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "UsageError");
	assert_int_equal(s->n, 5);
	fl_sites_free(s);

	/* no Click in the file: ctx.fail and self.fail are someone else's,
	 * reports of their texts (a checker's MessageBuilder.fail), no
	 * UsageError; a text of one word is none */
	s = scan_py("def f(ctx):\n"
		    "    ctx.fail(\"Missing command.\")\n"
		    "    self.fail(\"Something is wrong\")\n"
		    "    self.fail(\"ok\")\n");
	assert_int_equal(s->n, 2);
	x = EXPECT_SITE(s, "Missing command.", 2, FL_T_CONSOLE);
	assert_null(x->cls);
	EXPECT_SITE(s, "Something is wrong", 3, FL_T_CONSOLE);
	fl_sites_free(s);
}

/* `self.error(msg)` in an argparse.ArgumentParser subclass is
 * parser.error (httpie's HTTPieArgumentParser: 12 sites were missing); in
 * another class it is no site. */
static void test_parser_subclass_error(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"class HTTPieArgumentParser(argparse.ArgumentParser):\n"        /* 1 */
		"    def _validate(self):\n"                                     /* 2 */
		"        if self.args.compress and self.args.chunked:\n"         /* 3 */
		"            self.error('cannot combine --compress and --chunked')\n"
		"class Job:\n"                                                   /* 5 */
		"    def run(self):\n"
		"        self.error('job state is broken')\n");                  /* 7 */
	const fl_site *x =
		EXPECT_SITE(s, "cannot combine --compress and --chunked", 4, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "parser.error");
	harness_expect_str(x->function, "HTTPieArgumentParser._validate");
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
}

static void test_is_test_file(void **state)
{
	(void)state;
	assert_true(fl_lang_python.is_test_file("a/test_foo.py"));
	assert_true(fl_lang_python.is_test_file("a/foo_test.py"));
	assert_true(fl_lang_python.is_test_file("conftest.py"));
	assert_false(fl_lang_python.is_test_file("a/foo.py"));
	assert_false(fl_lang_python.is_test_file("a/testing.py"));
}

static void test_robust(void **state)
{
	(void)state;
	/* invalid UTF-8 and NUL bytes */
	static const char junk[] = "raise \xff\xfe(\"\xc3\x28\")\0raise X(\"\0\")\n"
				   "raise ValueError(\"after\xff junk\")\n";
	fl_sites *s = scan_len(junk, sizeof junk - 1);
	assert_non_null(harness_find(s, "after\xff junk"));
	fl_sites_free(s);
	/* unterminated string / triple string / f-string field */
	s = scan_py("raise ValueError(\"unterminated\n");
	fl_sites_free(s);
	s = scan_py("x = '''never closed\nraise ValueError('x')\n");
	assert_int_equal(s->n, 0);
	fl_sites_free(s);
	s = scan_py("raise ValueError(f\"{x[\"\n");
	fl_sites_free(s);
	s = scan_py("raise ValueError(f'''{x\n");
	fl_sites_free(s);
	s = scan_py("# comment at EOF without newline");
	assert_int_equal(s->n, 0);
	fl_sites_free(s);
	s = scan_py("raise ValueError(\"x\" \\");
	fl_sites_free(s);
	/* 1 MB single line */
	size_t n = 1 << 20;
	char *big = harness_repeat("raise X(\"a\" + b); logger.error(", n);
	s = scan_py(big);
	assert_true(s->n > 0);
	fl_sites_free(s);
	/* 10,000 nested brackets, closed and unclosed */
	size_t depth = 10000;
	size_t k = harness_nest(big, "raise ValueError(", "([", depth, "\"x\"", ")");
	s = scan_py(big);
	fl_sites_free(s);
	big[k - 5000] = '\0';
	s = scan_py(big);
	fl_sites_free(s);
	free(big);
}

/* A report in an else's block is guarded by its if's condition, turned:
 * it runs when that condition does not hold (the last elif of a chain).
 * The else of a for, a while or a try runs on no such condition: none. */
static void test_else_guards(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def load(n, name):\n"                                              /* 1 */
		"    if n == 2:\n"                                                  /* 2 */
		"        use(n)\n"                                                  /* 3 */
		"    else:\n"                                                       /* 4 */
		"        raise ValueError('want two arguments')\n"                  /* 5 */
		"    if n > 3:\n"                                                   /* 6 */
		"        use(n)\n"                                                  /* 7 */
		"    elif name is None:\n"                                          /* 8 */
		"        if n < 0:\n"                                               /* 9 */
		"            use(0)\n"                                              /* 10 */
		"    else:\n"                                                       /* 11 */
		"        raise ValueError('bad name')\n"                            /* 12 */
		"    if name in known: use(1)\n"                                    /* 13 */
		"    else: raise KeyError('unknown name')\n"                        /* 14 */
		"    for x in name:\n"                                              /* 15 */
		"        if x == '-':\n"                                            /* 16 */
		"            break\n"                                               /* 17 */
		"    else:\n"                                                       /* 18 */
		"        raise ValueError('no dash')\n"                             /* 19 */
		"    while n > 0:\n"                                                /* 20 */
		"        n -= 1\n"                                                  /* 21 */
		"    else:\n"                                                       /* 22 */
		"        raise ValueError('loop ended')\n"                          /* 23 */
		"    try:\n"                                                        /* 24 */
		"        use(2)\n"                                                  /* 25 */
		"    except OSError:\n"                                             /* 26 */
		"        pass\n"                                                    /* 27 */
		"    else:\n"                                                       /* 28 */
		"        raise RuntimeError('no error')\n"                          /* 29 */
		"    if not name:\n"                                                /* 30 */
		"        use(3)\n"                                                  /* 31 */
		"    else:\n"                                                       /* 32 */
		"        raise RuntimeError('named')\n");                           /* 33 */
	const fl_site *x = EXPECT_SITE(s, "want two arguments", 5, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n != 2");
	x = EXPECT_SITE(s, "bad name", 12, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "name is not None");
	x = EXPECT_SITE(s, "unknown name", 14, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "name not in known");
	x = EXPECT_SITE(s, "no dash", 19, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	x = EXPECT_SITE(s, "loop ended", 23, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	x = EXPECT_SITE(s, "no error", 29, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	x = EXPECT_SITE(s, "named", 33, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "name");
	fl_sites_free(s);
}

/* An if (or else) right inside another if's block: both conditions are
 * the guard; not an outer while's or a loop between them, and not an
 * outer "or" (a group the description would quote whole). */
static void test_nested_guards(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def get(args, opts, a, b, c, n, paths):\n"                     /* 1 */
		"    if not args:\n"                                           /* 2 */
		"        if opts.links:\n"                                     /* 3 */
		"            raise CommandError('maybe you meant links')\n"    /* 4 */
		"        else:\n"                                              /* 5 */
		"            raise CommandError('give a requirement')\n"       /* 6 */
		"    if a or b:\n"                                             /* 7 */
		"        if c:\n"                                              /* 8 */
		"            raise ValueError('grouped')\n"                    /* 9 */
		"    while n > 0:\n"                                           /* 10 */
		"        if n == 3:\n"                                         /* 11 */
		"            raise ValueError('three')\n"                      /* 12 */
		"    if opts.user:\n"                                          /* 13 */
		"        for p in paths:\n"                                    /* 14 */
		"            if p:\n"                                          /* 15 */
		"                raise ValueError('in loop')\n"                /* 16 */
		"        raise ValueError('user set')\n");                     /* 17 */
	const fl_site *x = EXPECT_SITE(s, "maybe you meant links", 4, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "not args and opts.links");
	x = EXPECT_SITE(s, "give a requirement", 6, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "not args and not opts.links");
	x = EXPECT_SITE(s, "grouped", 9, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "c");
	x = EXPECT_SITE(s, "three", 12, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n == 3");
	x = EXPECT_SITE(s, "in loop", 16, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "p");
	x = EXPECT_SITE(s, "user set", 17, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "opts.user");
	fl_sites_free(s);
}

/* A function named for errors that prints its parameter on stderr is a
 * reporter though it does not exit (its caller does, or goes on), and so
 * is one that passes its parameter first to such a function of the file
 * (black's err() -> _err() -> click's echo(err=True)); a note() that
 * prints and goes on is not. */
static void test_reporters_without_exit(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def _err(message=None, nl=True, **styles):\n"                     /* 1 */
		"    if message is not None:\n"                                    /* 2 */
		"        message = style(message, **styles)\n"                     /* 3 */
		"    echo(message, nl=nl, err=True)\n"                             /* 4 */
		"def err(message=None, nl=True, **styles):\n"                      /* 5 */
		"    _err(message, nl=nl, **styles)\n"                             /* 6 */
		"def note(msg):\n"                                                 /* 7 */
		"    print(msg, file=sys.stderr)\n"                                /* 8 */
		"def main(pyi, ipynb):\n"                                          /* 9 */
		"    if pyi and ipynb:\n"                                          /* 10 */
		"        err(\"Cannot pass both `pyi` and `ipynb` flags!\")\n"      /* 11 */
		"        ctx.exit(1)\n"                                            /* 12 */
		"    note(\"running the formatter now\")\n");                      /* 13 */
	const fl_site *x = EXPECT_SITE(s, "Cannot pass both `pyi` and `ipynb` flags!", 11, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "reporter err");
	harness_expect_str(x->guard, "pyi and ipynb");
	assert_null(harness_find(s, "running the formatter now"));
	fl_sites_free(s);
	/* in another file: where it is imported from its module, not a
	 * function of that name from another module; nor a method */
	const char *output_py =
		"def err(message=None):\n"
		"    echo(message, err=True)\n"
		"def fail_with(message):\n"
		"    print(f'failed: {message}', file=sys.stderr)\n"
		"class Log:\n"
		"    def error(self, message):\n"
		"        print(message, file=sys.stderr)\n";
	const char *main_py =
		"from black.output import err, out\n"                     /* 1 */
		"from tools.helpers import fail_with\n"                   /* 2 */
		"def main(x):\n"                                          /* 3 */
		"    err('invalid path: nothing there')\n"                 /* 4 */
		"    fail_with('deprecated since 3.0, use y')\n"          /* 5 */
		"    log.error('no such thing here')\n";                  /* 6 */
	fl_src files[] = {{"black/output.py", output_py, strlen(output_py), NULL},
			  {"black/main.py", main_py, strlen(main_py), NULL}};
	const fl_lang *L = &fl_lang_python;
	void *tree = L->tree_new();
	for (size_t i = 0; i < 2; i++)
		harness_collect(L, tree, &files[i]);
	s = fl_sites_new();
	L->scan(tree, &files[1], s);
	fl_sites_sort(s);
	EXPECT_SITE(s, "invalid path: nothing there", 4, FL_T_CONSOLE);
	assert_null(harness_find(s, "failed: deprecated since 3.0, use y"));
	const fl_site *y = harness_find(s, "no such thing here");
	assert_true(y == NULL || strcmp(y->idiom, "reporter error") != 0);
	L->tree_free(tree);
	fl_sites_free(s);
	/* a function not named for errors that hands its parameter to an
	 * exiting reporter of its file exits with it: a reporter */
	s = scan_py(
		"def bail(msg):\n"                                          /* 1 */
		"    print(f'tool: {msg}', file=sys.stderr)\n"              /* 2 */
		"    sys.exit(2)\n"                                         /* 3 */
		"def stop(text):\n"                                         /* 4 */
		"    bail(text)\n"                                          /* 5 */
		"def main(x):\n"                                            /* 6 */
		"    stop('no input files given here')\n");                 /* 7 */
	x = EXPECT_SITE(s, "tool: no input files given here", 7, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "reporter stop");
	fl_sites_free(s);
	/* a function that only prints on stderr (black's `out`): its call
	 * reports where a failing exit follows it or in an exception
	 * handler (a warning there); elsewhere, or before a normal exit, it
	 * is output */
	s = scan_py(
		"def out(message=None, nl=True):\n"                               /* 1 */
		"    echo(message, nl=nl, err=True)\n"                            /* 2 */
		"def main(ctx, src, code):\n"                                     /* 3 */
		"    if not src and code is None:\n"                              /* 4 */
		"        out(\"One of 'SRC' or 'code' is required.\")\n"         /* 5 */
		"        ctx.exit(1)\n"                                           /* 6 */
		"    out('formatting the files now')\n"                           /* 7 */
		"    try:\n"                                                      /* 8 */
		"        import IPython\n"                                        /* 9 */
		"    except ModuleNotFoundError:\n"                               /* 10 */
		"        out('Jupyter dependencies are not installed.')\n"        /* 11 */
		"        return False\n"                                          /* 12 */
		"    out('All done, nothing left')\n"                             /* 13 */
		"    sys.exit(0)\n");                                             /* 14 */
	x = EXPECT_SITE(s, "One of 'SRC' or 'code' is required.", 5, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "reporter out");
	x = EXPECT_SITE(s, "Jupyter dependencies are not installed.", 11, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_null(harness_find(s, "formatting the files now"));
	assert_null(harness_find(s, "All done, nothing left"));
	fl_sites_free(s);
	/* click's FileError(filename=..., hint=...) shows its hint */
	s = scan_py(
		"def read_config(ctx, value):\n"                                              /* 1 */
		"    try:\n"                                                                  /* 2 */
		"        return parse(value)\n"                                               /* 3 */
		"    except (OSError, ValueError) as e:\n"                                    /* 4 */
		"        raise click.FileError(filename=value, hint=f\"Error reading configuration file: {e}\")\n"); /* 5 */
	EXPECT_SITE(s, "Error reading configuration file: {e}", 5, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* A print right before a failing exit or status is what the program says
 * went wrong (pre-commit's `output.write_line(...)` then `return 1`,
 * `print(...)` then `raise SystemExit(retv)`, a status variable set to
 * one); a print before `return 0`, or before anything else, is output. */
static void test_print_before_failure(void **state)
{
	(void)state;
	fl_sites *s = scan_py(
		"def run(args, hooks):\n"                                                     /* 1 */
		"    if args.hook and not hooks:\n"                                           /* 2 */
		"        output.write_line(\n"                                                /* 3 */
		"            f'No hook with id `{args.hook}` in stage `{args.stage}`',\n"     /* 4 */
		"        )\n"                                                                 /* 5 */
		"        return 1\n"                                                          /* 6 */
		"    if not args.config:\n"                                                   /* 7 */
		"        print(f'`{args.config}` config file not found. Skipping.')\n"        /* 8 */
		"        raise SystemExit(args.retv)\n"                                       /* 9 */
		"    retv = 0\n"                                                              /* 10 */
		"    for hook in hooks:\n"                                                    /* 11 */
		"        if not hook.files:\n"                                                /* 12 */
		"            print(f'{hook.id} does not apply to this repository')\n"         /* 13 */
		"            retv = 1\n"                                                      /* 14 */
		"    print('all hooks checked')\n"                                            /* 15 */
		"    return 0\n"                                                              /* 16 */
		"\n"
		"def report(items):\n"                                                        /* 18 */
		"    print('items found in the store')\n"                                     /* 19 */
		"    return len(items)\n");                                                   /* 20 */
	const fl_site *x = EXPECT_SITE(s, "No hook with id `{args.hook}` in stage `{args.stage}`", 3,
				       FL_T_CONSOLE);
	harness_expect_str(x->guard, "args.hook and not hooks");
	EXPECT_SITE(s, "`{args.config}` config file not found. Skipping.", 8, FL_T_CONSOLE);
	EXPECT_SITE(s, "{hook.id} does not apply to this repository", 13, FL_T_CONSOLE);
	assert_null(harness_find_line(s, 15));
	assert_null(harness_find_line(s, 19));
	fl_sites_free(s);
	/* a method whose name says it logs an error or a warning, given a
	 * text of two words or more (httpie's env.log_error) */
	s = scan_py(
		"def run(env, args):\n"                                                        /* 1 */
		"    try:\n"                                                                    /* 2 */
		"        send(args)\n"                                                          /* 3 */
		"    except Timeout:\n"                                                         /* 4 */
		"        env.log_error(f'Request timed out ({args.timeout}s).')\n"              /* 5 */
		"    if args.check_status:\n"                                                   /* 6 */
		"        env.log_error(f'Status {status} was not expected', level=LogLevel.WARNING)\n" /* 7 */
		"    self._log_error('error', *args)\n"                                         /* 8 */
		"    env.log_error(f'HTTP {status} {reason}')\n"                                /* 9 */
		"    env.log_error(f'Upload of {name} failed', extra=fmt(level=LogLevel.WARNING))\n"); /* 10 */
	x = EXPECT_SITE(s, "Request timed out ({args.timeout}s).", 5, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "Status {status} was not expected", 7, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_null(harness_find_line(s, 8));
	/* a status line, one word outside its holes, is no sentence: it
	 * would match any line of a protocol's trace */
	assert_null(harness_find_line(s, 9));
	/* a nested call's `level=` is not the call's */
	x = EXPECT_SITE(s, "Upload of {name} failed", 10, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	fl_sites_free(s);
}

/* A table of messages by code and symbol (pylint's checkers: `MSGS =
 * {"W0611": ("Unused %s", "unused-import", "Used when ...")}`), in this
 * file or another, and a report naming a symbol (`self.add_message(
 * "unused-import", args=msg, node=stmt)`): a console site of the text,
 * its code kept, its severity by the code's category; a symbol of no
 * table, or a table entry that is no such tuple, is none. */
static void test_message_table_by_symbol(void **state)
{
	(void)state;
	const char *table =
		"MSGS = {\n"
		"    \"W0611\": (\n"
		"        \"Unused %s\",\n"
		"        \"unused-import\",\n"
		"        \"Used when an imported module or variable is not used.\",\n"
		"    ),\n"
		"    \"E0602\": (\"Undefined variable %r\", \"undefined-variable\", \"Used when ...\"),\n"
		"    \"F0010\": (\"error while code parsing: %s\", \"parse-error\", \"Used when ...\"),\n"
		"    \"C0301\": (\"Line too long (%s/%s)\" , \"line-too-long\", \"Used when ...\",\n"
		"                {\"old_names\": [(\"C0111\", \"missing-docstring\")]}),\n"
		"    \"W9999\": \"not a tuple\",\n"
		"}\n";
	const char *checker =
		"class VariablesChecker(BaseChecker):\n"                                /* 1 */
		"    msgs = MSGS\n"                                                     /* 2 */
		"    def leave_module(self, node):\n"                                   /* 3 */
		"        for stmt in node.imports:\n"                                   /* 4 */
		"            if not used(stmt):\n"                                      /* 5 */
		"                self.add_message(\"unused-import\", args=name, node=stmt)\n" /* 6 */
		"        self.add_message(\"undefined-variable\", args=name, node=node)\n" /* 7 */
		"        self.linter.add_message(\"parse-error\", args=str(e))\n"       /* 8 */
		"        self.add_message(\"line-too-long\", line=i, args=(n, limit))\n" /* 9 */
		"        self.add_message(\"no-such-symbol\", node=node)\n"             /* 10 */
		"        self.add_message(\"missing-docstring\", node=node)\n";         /* 11 */
	fl_src files[] = {{"pylint/checkers/msgs.py", table, strlen(table), NULL},
			  {"pylint/checkers/variables.py", checker, strlen(checker), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_python, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "Unused %s", 6, FL_T_CONSOLE);
	harness_expect_str(x->code, "W0611");
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->guard, "not used(stmt)");
	x = EXPECT_SITE(s, "Undefined variable %r", 7, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "error while code parsing: %s", 8, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_CRITICAL);
	EXPECT_SITE(s, "Line too long (%s/%s)", 9, FL_T_CONSOLE);
	assert_null(harness_find_line(s, 10));
	assert_null(harness_find_line(s, 11));
	fl_sites_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raise_forms),
		cmocka_unit_test(test_message_table_by_symbol),
		cmocka_unit_test(test_reporters_without_exit),
		cmocka_unit_test(test_print_before_failure),
		cmocka_unit_test(test_else_guards),
		cmocka_unit_test(test_nested_guards),
		cmocka_unit_test(test_raising_helpers),
		cmocka_unit_test(test_raiser_on_object_and_joins),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_helper_def_first_in_file),
		cmocka_unit_test(test_http_validation),
		cmocka_unit_test(test_console),
		cmocka_unit_test(test_stderr_prints),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_nesting_guard),
		cmocka_unit_test(test_var_message),
		cmocka_unit_test(test_class_init_black_signature),
		cmocka_unit_test(test_class_default_messages),
		cmocka_unit_test(test_init_default_messages),
		cmocka_unit_test(test_init_pct_and_str_branches),
		cmocka_unit_test(test_str_over_args),
		cmocka_unit_test(test_module_constants),
		cmocka_unit_test(test_other_module_constants),
		cmocka_unit_test(test_print_in_except),
		cmocka_unit_test(test_texts_that_say_error),
		cmocka_unit_test(test_stored_exceptions),
		cmocka_unit_test(test_reporters_formatting_their_parameter),
		cmocka_unit_test(test_local_templates),
		cmocka_unit_test(test_local_appends),
		cmocka_unit_test(test_raise_local_exception),
		cmocka_unit_test(test_reshaped_texts),
		cmocka_unit_test(test_early_scan_checked),
		cmocka_unit_test(test_assert_statements),
		cmocka_unit_test(test_error_factories),
		cmocka_unit_test(test_plural_gettext),
		cmocka_unit_test(test_click_fail),
		cmocka_unit_test(test_parser_subclass_error),
		cmocka_unit_test(test_is_test_file),
		cmocka_unit_test(test_robust),
	};
	return cmocka_run_group_tests_name("python", tests, NULL, NULL);
}
