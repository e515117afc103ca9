/* test_lang_go.c — unit tests for lib/scan/go/ */
#include <stdlib.h>

#include "lang_harness.h"

extern const fl_lang fl_lang_go;

static fl_sites *scan(const char *text)
{
	return harness_scan(&fl_lang_go, "pkg/server/server.go", text);
}

static void test_errors(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package server\n"                                                    /* 1 */
		"var ErrClosed = errors.New(\"server closed\")\n"                      /* 2 */
		"var (\n"                                                             /* 3 */
		"\tErrTimeout = errors.New(\"request timed out\")\n"                  /* 4 */
		"\tErrLimit error = fmt.Errorf(\"limit %d reached\", 5)\n"            /* 5 */
		")\n"                                                                 /* 6 */
		"func (s *Server) Start(addr string) error {\n"                       /* 7 */
		"\tif err := s.listen(addr); err != nil {\n"                          /* 8 */
		"\t\treturn fmt.Errorf(\"listen on %s: 100%% %w\", addr, err)\n"      /* 9 */
		"\t}\n"                                                               /* 10 */
		"\tif addr == \"\" {\n"                                               /* 11 */
		"\t\treturn errors.Wrap(err, \"empty address\")\n"                    /* 12 */
		"\t}\n"                                                               /* 13 */
		"\terr := errors.Wrapf(err, \"start %q\", addr)\n"                    /* 14 */
		"\treturn errors.Errorf(\"code \" + strconv.Itoa(c))\n"               /* 15 */
		"}\n"                                                                 /* 16 */
		"func helper[T any](x T) (interface{}, error) {\n"                    /* 17 */
		"\treturn nil, errors.New(\"helper \" +\n"                            /* 18 */
		"\t\t\"failed\")\n"                                                   /* 19 */
		"}\n"                                                                 /* 20 */
		"func g() { return errors.New(msg) }\n");                             /* 21 */
	const fl_site *p = EXPECT_SITE(s, "server closed", 2, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ErrClosed");
	harness_expect_str(p->function, NULL);
	harness_expect_str(p->idiom, "sentinel errors.New"); /* a value made once */
	assert_int_equal(p->col, 17);
	p = EXPECT_SITE(s, "request timed out", 4, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ErrTimeout");
	p = EXPECT_SITE(s, "limit %d reached", 5, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ErrLimit");
	p = EXPECT_SITE(s, "listen on %s: 100% %w", 9, FL_T_EXCEPTION);
	harness_expect_str(p->function, "Server.Start");
	harness_expect_str(p->guard, "err != nil");
	harness_expect_str(p->cls, NULL);
	harness_expect_str(p->idiom, "fmt.Errorf");
	p = EXPECT_SITE(s, "empty address", 12, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "addr == \"\"");
	p = EXPECT_SITE(s, "start %q", 14, FL_T_EXCEPTION);
	harness_expect_str(p->guard, NULL);
	EXPECT_SITE(s, "code {Itoa}", 15, FL_T_EXCEPTION);
	p = EXPECT_SITE(s, "helper failed", 18, FL_T_EXCEPTION);
	harness_expect_str(p->function, "helper");
	assert_int_equal(s->n, 8);
	fl_sites_free(s);
}

/* errors.New(badValue(v)): the text the file's one function returns; a
 * method's name alone says nothing (which type's runs is not known) */
static void test_helper_texts(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package b\n"                                                         /* 1 */
		"func badValue(v int) string {\n"                                     /* 2 */
		"\treturn fmt.Sprintf(\"bad value %d\", v)\n"                         /* 3 */
		"}\n"                                                                 /* 4 */
		"func (s *S) describe() string { return \"described\" }\n"           /* 5 */
		"func Check(v int) error {\n"                                         /* 6 */
		"\tif v < 0 {\n"                                                      /* 7 */
		"\t\treturn errors.New(badValue(v))\n"                                /* 8 */
		"\t}\n"                                                               /* 9 */
		"\treturn errors.New(describe())\n"                                   /* 10 */
		"}\n");                                                               /* 11 */
	EXPECT_SITE(s, "bad value %d", 8, FL_T_EXCEPTION);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].message && strstr(s->v[i].message, "described"))
			fail_msg("line %d: <%s>", s->v[i].line, s->v[i].message);
	fl_sites_free(s);
}

static void test_panic_log(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package main\n"                                                      /* 1 */
		"func main() {\n"                                                     /* 2 */
		"\tpanic(\"unreachable state\")\n"                                    /* 3 */
		"\tpanic(fmt.Sprintf(\"bad value %v (%d%%)\", v, n))\n"               /* 4 */
		"\tpanic(errors.New(\"wrapped panic\"))\n"                            /* 5 */
		"\tpanic(err)\n"                                                      /* 6 */
		"\tlog.Fatal(\"cannot start\")\n"                                     /* 7 */
		"\tlog.Fatalf(\"cannot bind %s: %v\", addr, err)\n"                   /* 8 */
		"\tlog.Fatalln(\"fatal ln\")\n"                                       /* 9 */
		"\tlog.Panicf(\"panic %d\", 1)\n"                                     /* 10 */
		"\tlog.Printf(\"not a site %d\", 1)\n"                                /* 11 */
		"\tlog.Println(\"not a site\")\n"                                     /* 12 */
		"\tgo func() {\n"                                                     /* 13 */
		"\t\tpanic(\"in goroutine\")\n"                                       /* 14 */
		"\t}()\n"                                                             /* 15 */
		"\tlog.Fatal(err)\n"                                                  /* 16 */
		"\tlog.Fatal(\"open \", path, \": \", err)\n"                           /* 17 */
		"\tlog.Panicln(\"recovered from\", r, 42)\n"                            /* 18 */
		"\tpanic(fmt.Sprintf(\"route %s has groups (100%%). \", tpl) +\n"           /* 19 */
		"\t\t\"Only non-capturing groups are accepted\" + suffix)\n"             /* 20 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "unreachable state", 3, FL_T_PANIC);
	assert_string_equal(p->severity, FL_S_CRITICAL);
	harness_expect_str(p->function, "main");
	harness_expect_str(p->idiom, "panic");
	EXPECT_SITE(s, "bad value %v (%d%)", 4, FL_T_PANIC);
	p = EXPECT_SITE(s, "wrapped panic", 5, FL_T_PANIC);
	p = EXPECT_SITE(s, "cannot start", 7, FL_T_CONSOLE);
	assert_string_equal(p->severity, FL_S_CRITICAL);
	EXPECT_SITE(s, "cannot bind %s: %v", 8, FL_T_CONSOLE);
	EXPECT_SITE(s, "fatal ln", 9, FL_T_CONSOLE);
	p = EXPECT_SITE(s, "panic %d", 10, FL_T_PANIC);
	assert_string_equal(p->severity, FL_S_CRITICAL);
	p = EXPECT_SITE(s, "in goroutine", 14, FL_T_PANIC);
	harness_expect_str(p->function, "main");
	EXPECT_SITE(s, "open {path}: {err}", 17, FL_T_CONSOLE);
	EXPECT_SITE(s, "recovered from {r} 42", 18, FL_T_PANIC);
	/* a formatted piece joined to literals: its format, then the rest */
	EXPECT_SITE(s, "route %s has groups (100%). Only non-capturing groups are accepted{suffix}",
		    19, FL_T_PANIC);
	if (s->n != 11)
		harness_dump(s);
	assert_int_equal(s->n, 11);
	fl_sites_free(s);
}

static void test_http_grpc_loggers(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package api\n"                                                       /* 1 */
		"func (h handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n" /* 2 */
		"\thttp.Error(w, \"bad request body\", http.StatusBadRequest)\n"      /* 3 */
		"\thttp.Error(w, \"boom\", 500)\n"                                    /* 4 */
		"\thttp.Error(w, \"teapot\", http.StatusTeapot)\n"                    /* 5 */
		"\thttp.Error(w, err.Error(), http.StatusInternalServerError)\n"      /* 6 */
		"}\n"                                                                 /* 7 */
		"func (s *svc) Get(ctx context.Context, req *pb.Req) (*pb.Resp, error) {\n" /* 8 */
		"\treturn nil, status.Error(codes.NotFound, \"user not found\")\n"    /* 9 */
		"\treturn nil, status.Errorf(codes.InvalidArgument, \"bad id %q\", id)\n" /* 10 */
		"\treturn nil, status.Error(codes.Internal, err.Error())\n"           /* 11 */
		"\treturn nil, status.Error(codes.Canceled, \"cancelled\")\n"         /* 12 */
		"}\n"                                                                 /* 13 */
		"func logs() {\n"                                                     /* 14 */
		"\tslog.Error(\"db down\", \"err\", err)\n"                           /* 15 */
		"\tslog.Warn(\"slow query\")\n"                                       /* 16 */
		"\tlogger.Errorf(\"retry %d failed\", n)\n"                           /* 17 */
		"\ts.log.Warnw(\"disk low\", \"free\", f)\n"                          /* 18 */
		"\tzap.L().Fatal(\"no config\")\n"                                    /* 19 */
		"\tlogrus.Warningf(\"deprecated %s\", x)\n"                           /* 20 */
		"\tlogger.Error(zap.Error(err))\n"                                    /* 21 */
		"\tslog.Info(\"not a site\")\n"                                       /* 22 */
		"\tfmt.Println(err.Error())\n"                                        /* 23 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "bad request body", 3, FL_T_HTTP);
	assert_int_equal(p->http, 400);
	assert_string_equal(p->severity, FL_S_WARNING);
	harness_expect_str(p->function, "handler.ServeHTTP");
	p = EXPECT_SITE(s, "boom", 4, FL_T_HTTP);
	assert_int_equal(p->http, 500);
	assert_string_equal(p->severity, FL_S_ERROR);
	p = EXPECT_SITE(s, "teapot", 5, FL_T_HTTP);
	assert_int_equal(p->http, 418);
	p = EXPECT_SITE(s, "user not found", 9, FL_T_EXCEPTION);
	harness_expect_str(p->code, "NOT_FOUND");
	harness_expect_str(p->cls, "status.Error");
	harness_expect_str(p->function, "svc.Get");
	p = EXPECT_SITE(s, "bad id %q", 10, FL_T_EXCEPTION);
	harness_expect_str(p->code, "INVALID_ARGUMENT");
	p = EXPECT_SITE(s, "cancelled", 12, FL_T_EXCEPTION);
	harness_expect_str(p->code, "CANCELLED");
	/* code without message */
	bool found = false;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].line == 11) {
			found = true;
			harness_expect_str(s->v[i].code, "INTERNAL");
			harness_expect_str(s->v[i].message, NULL);
		}
	assert_true(found);
	p = EXPECT_SITE(s, "db down", 15, FL_T_CONSOLE);
	assert_string_equal(p->severity, FL_S_ERROR);
	p = EXPECT_SITE(s, "slow query", 16, FL_T_CONSOLE);
	assert_string_equal(p->severity, FL_S_WARNING);
	p = EXPECT_SITE(s, "retry %d failed", 17, FL_T_CONSOLE);
	assert_string_equal(p->severity, FL_S_ERROR);
	p = EXPECT_SITE(s, "disk low", 18, FL_T_CONSOLE);
	assert_string_equal(p->severity, FL_S_WARNING);
	p = EXPECT_SITE(s, "no config", 19, FL_T_CONSOLE);
	assert_string_equal(p->severity, FL_S_CRITICAL);
	p = EXPECT_SITE(s, "deprecated %s", 20, FL_T_CONSOLE);
	assert_string_equal(p->severity, FL_S_WARNING);
	if (s->n != 13)
		harness_dump(s);
	assert_int_equal(s->n, 13);
	fl_sites_free(s);
}

/* web frameworks' HTTP errors made with a status and a message: Echo's
 * NewHTTPError (also inside Echo, unqualified), Fiber's NewError; the first
 * argument must be a status */
static void test_http_error_ctors(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package middleware\n"                                                        /* 1 */
		"var ErrKeyMissing = echo.NewHTTPError(http.StatusUnauthorized, \"missing key\")\n" /* 2 */
		"func (c *Config) check(site string) error {\n"                               /* 3 */
		"\tif site == \"cross-site\" {\n"                                            /* 4 */
		"\t\treturn echo.NewHTTPError(http.StatusForbidden, \"cross-site request blocked\")\n" /* 5 */
		"\t}\n"                                                                       /* 6 */
		"\treturn fiber.NewError(fiber.StatusBadGateway, fmt.Sprintf(\"dial %s failed\", site))\n" /* 7 */
		"}\n"                                                                          /* 8 */
		"func (e *Echo) route() error { return NewHTTPError(404, \"route not found\") }\n" /* 9 */
		"func other() error {\n"                                                       /* 10 */
		"\treturn apperr.NewError(\"not an http error\", 3)\n"                        /* 11 */
		"}\n");                                                                        /* 12 */
	const fl_site *p = EXPECT_SITE(s, "missing key", 2, FL_T_HTTP);
	assert_int_equal(p->http, 401);
	harness_expect_str(p->cls, "ErrKeyMissing");
	harness_expect_str(p->idiom, "sentinel echo.NewHTTPError");
	assert_string_equal(p->severity, FL_S_WARNING);
	p = EXPECT_SITE(s, "cross-site request blocked", 5, FL_T_HTTP);
	assert_int_equal(p->http, 403);
	harness_expect_str(p->cls, NULL);
	harness_expect_str(p->guard, "site == \"cross-site\"");
	harness_expect_str(p->idiom, "echo.NewHTTPError");
	p = EXPECT_SITE(s, "dial %s failed", 7, FL_T_HTTP);
	assert_int_equal(p->http, 502);
	assert_string_equal(p->severity, FL_S_ERROR);
	p = EXPECT_SITE(s, "route not found", 9, FL_T_HTTP);
	assert_int_equal(p->http, 404);
	harness_expect_str(p->function, "Echo.route");
	assert_null(harness_find(s, "not an http error"));
	assert_int_equal(s->n, 4);
	fl_sites_free(s);
}

/* a handler's error response: Gin's c.JSON(status, gin.H{"error": ...}),
 * AbortWithStatusJSON, c.String(status, format); a status under 400 or a
 * body without literal text is not an error record */
static void test_http_responses(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package api\n"                                                              /* 1 */
		"func GetItem(c *gin.Context) {\n"                                            /* 2 */
		"\tif id == \"\" {\n"                                                        /* 3 */
		"\t\tc.JSON(http.StatusBadRequest, gin.H{\"error\": \"id is required\"})\n"   /* 4 */
		"\t}\n"                                                                       /* 5 */
		"\tc.AbortWithStatusJSON(404, map[string]string{\"message\": \"item not found\"})\n" /* 6 */
		"\tc.JSON(http.StatusInternalServerError, ErrorBody{Code: 7, Message: \"store down\"})\n" /* 7 */
		"\tc.String(http.StatusForbidden, \"access denied for %s\", id)\n"          /* 8 */
		"\tc.JSON(http.StatusOK, gin.H{\"message\": \"not an error\"})\n"         /* 9 */
		"\tc.JSON(http.StatusBadRequest, gin.H{\"error\": err.Error()})\n"          /* 10 */
		"\tc.JSON(http.StatusBadRequest, gin.H{\"field\": \"no message key\"})\n"  /* 11 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "id is required", 4, FL_T_HTTP);
	assert_int_equal(p->http, 400);
	harness_expect_str(p->guard, "id == \"\"");
	harness_expect_str(p->idiom, "c.JSON");
	assert_string_equal(p->severity, FL_S_WARNING);
	p = EXPECT_SITE(s, "item not found", 6, FL_T_HTTP);
	assert_int_equal(p->http, 404);
	p = EXPECT_SITE(s, "store down", 7, FL_T_HTTP);
	assert_int_equal(p->http, 500);
	assert_string_equal(p->severity, FL_S_ERROR);
	p = EXPECT_SITE(s, "access denied for %s", 8, FL_T_HTTP);
	assert_int_equal(p->http, 403);
	assert_null(harness_find(s, "not an error"));
	assert_null(harness_find(s, "no message key"));
	assert_int_equal(s->n, 4);
	fl_sites_free(s);
}

static void test_traps_and_strings(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package x\n"                                                         /* 1 */
		"// panic(\"line comment\")\n"                                        /* 2 */
		"/* errors.New(\"block comment\")\n"                                  /* 3 */
		"   fmt.Errorf(\"still\") */\n"                                       /* 4 */
		"// Doc: log.Fatal(\"doc comment\")\n"                                /* 5 */
		"func f() {\n"                                                        /* 6 */
		"\ta := \"panic(\\\"in string\\\")\"\n"                               /* 7 */
		"\tb := `errors.New(\"in raw\")\n"                                    /* 8 */
		"\t   panic(\"raw line 2\")`\n"                                       /* 9 */
		"\tc := '\"'; d := '\\''\n"                                           /* 10 */
		"\treturn errors.New(\"tab\\tquote\\\" nl\\n uni \\u00e9 oct \\101 hex \\x42\")\n" /* 11 */
		"\treturn errors.New(`raw \\n kept`)\n"                               /* 12 */
		"\treturn fmt.Errorf(\"trailing\\n\")\n"                              /* 13 */
		"}\n");
	EXPECT_SITE(s, "tab\tquote\" nl\n uni \xc3\xa9 oct A hex B", 11, FL_T_EXCEPTION);
	EXPECT_SITE(s, "raw \\n kept", 12, FL_T_EXCEPTION);
	EXPECT_SITE(s, "trailing", 13, FL_T_EXCEPTION);
	if (s->n != 3)
		harness_dump(s);
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
}

static void test_import_alias(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package x\n"                                                         /* 1 */
		"import (\n"                                                          /* 2 */
		"\tpkgerrors \"github.com/pkg/errors\"\n"                              /* 3 */
		"\tgrpcstatus \"google.golang.org/grpc/status\"\n"                     /* 4 */
		"\tgcodes \"google.golang.org/grpc/codes\"\n"                          /* 5 */
		"\tstderr \"errors\"\n"                                                /* 6 */
		")\n"                                                                 /* 7 */
		"func (r *Repo[K, V]) Load(k K) error {\n"                            /* 8 */
		"\tif x {\n\t} else if y > 2 {\n"                                     /* 9-10 */
		"\t\treturn pkgerrors.Wrap(err, \"load failed\")\n"                   /* 11 */
		"\t}\n"                                                              /* 12 */
		"\treturn grpcstatus.Error(gcodes.PermissionDenied, \"denied\")\n"     /* 13 */
		"\treturn stderr.New(\"std alias\")\n"                                /* 14 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "load failed", 11, FL_T_EXCEPTION);
	harness_expect_str(p->function, "Repo.Load");
	harness_expect_str(p->guard, "y > 2");
	harness_expect_str(p->idiom, "pkgerrors.Wrap");
	p = EXPECT_SITE(s, "denied", 13, FL_T_EXCEPTION);
	harness_expect_str(p->code, "PERMISSION_DENIED");
	EXPECT_SITE(s, "std alias", 14, FL_T_EXCEPTION);
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
}

/* real-project findings (cobra, bbolt, gin): Error() string methods of
 * custom error types; messages that are only placeholders */
static void test_real_error_methods(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package cobra\n"                                                     /* 1 */
		"type flagCompError struct{ subCommand, flagName string }\n"          /* 2 */
		"func (e *flagCompError) Error() string {\n"                          /* 3 */
		"\treturn \"Subcommand '\" + e.subCommand +\n"                        /* 4 */
		"\t\t\"' does not support flag '\" + e.flagName + \"'\"\n"            /* 5 */
		"}\n"                                                                 /* 6 */
		"func (p panicked) Error() string {\n"                                /* 7 */
		"\tif err, ok := p.reason.(error); ok {\n"                            /* 8 */
		"\t\treturn err.Error()\n"                                            /* 9 */
		"\t}\n"                                                               /* 10 */
		"\treturn fmt.Sprintf(\"panic: %v\", p.reason)\n"                     /* 11 */
		"}\n"                                                                 /* 12 */
		"func (e Wrapped[T]) Error() string { return \"\" }\n"                /* 13 */
		"func (c *Cmd) Name() string { return \"not an error\" }\n"           /* 14 */
		"func Error() string { return \"plain function\" }\n"                 /* 15 */
		"func (c *Cmd) run() error {\n"                                       /* 16 */
		"\tif err != nil { return fmt.Errorf(\"%v\", err) }\n"                /* 17 */
		"\tpanic(fmt.Sprintf(\"%s: %w\", a, b))\n"                            /* 18 */
		"\treturn nil\n"                                                      /* 19 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "Subcommand '{subCommand}' does not support flag '{flagName}'",
				       4, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "flagCompError");
	harness_expect_str(p->function, "flagCompError.Error");
	assert_string_equal(p->severity, FL_S_ERROR);
	p = EXPECT_SITE(s, "panic: %v", 11, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "panicked");
	harness_expect_str(p->guard, NULL);
	assert_null(harness_find(s, "not an error"));
	assert_null(harness_find(s, "plain function"));
	assert_null(harness_find(s, "%v"));
	assert_null(harness_find(s, "%s: %w"));
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

/* a print that only a debug mode makes is a notice, not an error: not
 * when the flag is negated, compared with a false value or one of two,
 * not a name that only holds the letters (`isXdebugActive`) */
static void test_debug_prints(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package main\n"                                                        /* 1 */
		"func run() {\n"                                                        /* 2 */
		"\tif debugHash {\n"                                                    /* 3 */
		"\t\tfmt.Fprintf(os.Stderr, \"HASH[%s]: %x\\n\", name, sum)\n"        /* 4 */
		"\t}\n"                                                                /* 5 */
		"\tif cache.DebugTest && err != nil {\n"                               /* 6 */
		"\t\tfmt.Fprintf(os.Stderr, \"testcache: %s: reading log: %v\\n\", a, err)\n" /* 7 */
		"\t}\n"                                                                /* 8 */
		"\tif !debugHash {\n"                                                   /* 9 */
		"\t\tfmt.Fprintf(os.Stderr, \"cannot hash %s\\n\", name)\n"           /* 10 */
		"\t}\n"                                                                /* 11 */
		"\tif isXdebugActive() {\n"                                            /* 12 */
		"\t\tfmt.Fprintf(os.Stderr, \"slower than normal with %s\\n\", name)\n" /* 13 */
		"\t}\n"                                                                /* 14 */
		"\tif debug || failed {\n"                                             /* 15 */
		"\t\tfmt.Fprintf(os.Stderr, \"run failed: %s\\n\", name)\n"           /* 16 */
		"\t}\n"                                                                /* 17 */
		"\tif debugLevel == 0 {\n"                                             /* 18 */
		"\t\tfmt.Fprintf(os.Stderr, \"quiet failure: %s\\n\", name)\n"        /* 19 */
		"\t}\n"                                                                /* 20 */
		"}\n");
	harness_expect_str(EXPECT_SITE(s, "HASH[%s]: %x", 4, FL_T_CONSOLE)->severity, FL_S_INFO);
	harness_expect_str(EXPECT_SITE(s, "testcache: %s: reading log: %v", 7, FL_T_CONSOLE)->severity,
			   FL_S_INFO);
	harness_expect_str(EXPECT_SITE(s, "cannot hash %s", 10, FL_T_CONSOLE)->severity, FL_S_ERROR);
	harness_expect_str(EXPECT_SITE(s, "slower than normal with %s", 13, FL_T_CONSOLE)->severity,
			   FL_S_ERROR);
	harness_expect_str(EXPECT_SITE(s, "run failed: %s", 16, FL_T_CONSOLE)->severity, FL_S_ERROR);
	harness_expect_str(EXPECT_SITE(s, "quiet failure: %s", 19, FL_T_CONSOLE)->severity, FL_S_ERROR);
	fl_sites_free(s);
}

static void test_is_test_file(void **state)
{
	(void)state;
	assert_true(fl_lang_go.is_test_file("pkg/server_test.go"));
	assert_true(fl_lang_go.is_test_file("a_test.go"));
	assert_false(fl_lang_go.is_test_file("pkg/server.go"));
	assert_false(fl_lang_go.is_test_file("pkg/test.go"));
}

static void test_robustness(void **state)
{
	(void)state;
	static const char junk[] = "func \xff\xfe(\x80) { panic(\"a\0b\"); '\xc3 \"\xe2\x82 }";
	harness_scan_bytes(&fl_lang_go, "x.go", junk, sizeof junk - 1);
	const char *un[] = {"panic(\"unterminated", "/* unterminated", "`raw",
			    "func f() { panic(", "'", "func (", "func (r *T) M(",
			    "if x {", "var (", "errors.New(", "\"\\", "'\\", "http.Error(w,",
			    "status.Error(codes.", NULL};
	harness_scan_each(&fl_lang_go, "pkg/server/server.go", un);
	/* 1 MB line, deep nesting, long chains of unclosed calls */
	harness_stress(&fl_lang_go, "pkg/server/server.go",
		       "panic(\"x\"); a.b ", 1001, "panic(\"deep\")", "panic(");
}

/* chi, urfave/cli: a message kept in a string constant of the file,
 * http.Error(w, errTimedOut, code) and fmt.Errorf("%s%s", errNoArg, name) */
static void test_const_messages(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package cli\n"                                                       /* 1 */
		"const (\n"                                                           /* 2 */
		"\terrTimedOut = \"Timed out while waiting.\"\n"                      /* 3 */
		"\terrNoArg string = \"flag needs an argument: \"\n"                  /* 4 */
		"\tmaxRetries = 3\n"                                                  /* 5 */
		"\terrTwice = \"first text\"\n"                                       /* 6 */
		"\tpct = \"100% done\"\n"                                             /* 7 */
		")\n"                                                                 /* 8 */
		"const errUndef = \"flag provided but not defined: -\"\n"             /* 9 */
		"func f(w http.ResponseWriter, name string) error {\n"               /* 10 */
		"\thttp.Error(w, errTimedOut, http.StatusServiceUnavailable)\n"      /* 11 */
		"\tif name == \"\" {\n"                                               /* 12 */
		"\t\treturn fmt.Errorf(\"%s%s\", errNoArg, name)\n"                   /* 13 */
		"\t}\n"                                                               /* 14 */
		"\treturn errors.New(errUndef + name)\n"                              /* 15 */
		"}\n"                                                                 /* 16 */
		"func g(name string) error {\n"                                       /* 17 */
		"\tconst errTwice = \"second text\"\n"                                /* 18 */
		"\tpanic(errTwice)\n"                                                 /* 19 */
		"\treturn fmt.Errorf(\"%[1]s: %s\", errNoArg, name)\n"                /* 20 */
		"\treturn fmt.Errorf(\"%d%5s %s\", maxRetries, errNoArg, pct)\n"      /* 21 */
		"\treturn errors.New(errUndef)\n"                                     /* 22 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Timed out while waiting.", 11, FL_T_HTTP);
	assert_int_equal(x->http, 503);
	x = EXPECT_SITE(s, "flag needs an argument: %s", 13, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "name == \"\"");
	EXPECT_SITE(s, "flag provided but not defined: -{name}", 15, FL_T_EXCEPTION);
	EXPECT_SITE(s, "flag provided but not defined: -", 22, FL_T_EXCEPTION);
	/* only plain %s / %v take a constant, the %% of its text kept */
	EXPECT_SITE(s, "%d%5s 100% done", 21, FL_T_EXCEPTION);
	/* a name with two texts, explicit argument indexes: left alone */
	assert_null(harness_find(s, "first text"));
	assert_null(harness_find(s, "second text"));
	for (size_t k = 0; k < s->n; k++)
		assert_true(s->v[k].line != 19 && s->v[k].line != 20);
	fl_sites_free(s);
}

/* A report in an else's block is guarded by its if's condition, turned:
 * it runs when that condition does not hold (the last if of an else-if
 * chain); the init statement of `if v, ok := m[k]; ok` is no part of it,
 * and a report after the whole if/else has no guard */
static void test_else_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package cfg\n"                                                       /* 1 */
		"func Load(n int, name string) error {\n"                             /* 2 */
		"\tif n == 2 {\n"                                                     /* 3 */
		"\t\tuse(n)\n"                                                        /* 4 */
		"\t} else {\n"                                                        /* 5 */
		"\t\treturn errors.New(\"want two arguments\")\n"                     /* 6 */
		"\t}\n"                                                               /* 7 */
		"\tif n > 3 {\n"                                                      /* 8 */
		"\t\tuse(n)\n"                                                        /* 9 */
		"\t} else if name == \"\" {\n"                                        /* 10 */
		"\t\tif n < 0 {\n"                                                    /* 11 */
		"\t\t\tuse(0)\n"                                                      /* 12 */
		"\t\t}\n"                                                             /* 13 */
		"\t} else {\n"                                                        /* 14 */
		"\t\treturn fmt.Errorf(\"bad name %s\", name)\n"                      /* 15 */
		"\t}\n"                                                               /* 16 */
		"\tif v, ok := known[name]; ok {\n"                                   /* 17 */
		"\t\tuse(v)\n"                                                        /* 18 */
		"\t} else {\n"                                                        /* 19 */
		"\t\treturn errors.New(\"unknown name\")\n"                           /* 20 */
		"\t}\n"                                                               /* 21 */
		"\treturn errors.New(\"not loaded\")\n"                               /* 22 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "want two arguments", 6, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n != 2");
	x = EXPECT_SITE(s, "bad name %s", 15, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "name != \"\"");
	x = EXPECT_SITE(s, "unknown name", 20, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!ok");
	x = EXPECT_SITE(s, "not loaded", 22, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	fl_sites_free(s);
}

/* An error made after early exits: each `if c { return nil }` before it
 * (a return of nothing to report) says "!c"; `return err` passes an error
 * on and says nothing of the value made later. */
static void test_early_exit_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package config\n"                                  /* 1 */
		"func load(p string) error {\n"                     /* 2 */
		"\tif p == \"\" {\n"                                /* 3 */
		"\t\treturn nil\n"                                  /* 4 */
		"\t}\n"                                             /* 5 */
		"\tf, err := os.Open(p)\n"                          /* 6 */
		"\tif err != nil {\n"                               /* 7 */
		"\t\treturn err\n"                                  /* 8 */
		"\t}\n"                                             /* 9 */
		"\tif len(f.Name()) > 10 { return nil }\n"          /* 10 */
		"\treturn errors.New(\"short name\")\n"             /* 11 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "short name", 11, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "p != \"\" && len(f.Name()) <= 10");
	fl_sites_free(s);
}

/* fmt.Fprintf/Fprint/Fprintln(os.Stderr, ...): what the program prints on
 * its standard error, a warning when the text says so */
static void test_stderr_prints(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package main\n"                                                      /* 1 */
		"func main() {\n"                                                     /* 2 */
		"\tif len(os.Args) < 2 {\n"                                           /* 3 */
		"\t\tfmt.Fprintf(os.Stderr, \"error: missing file argument\\n\")\n"   /* 4 */
		"\t}\n"                                                               /* 5 */
		"\tfmt.Fprintf(os.Stderr, \"warning: %s is empty\\n\", name)\n"       /* 6 */
		"\tfmt.Fprintln(os.Stderr, \"Warning: no config found\")\n"           /* 7 */
		"\tfmt.Fprint(os.Stderr, \"WARN: retrying \", n)\n"                   /* 8 */
		"\tfmt.Println(\"warning: only on stdout\")\n"                       /* 9 */
		"\tfmt.Fprintf(os.Stderr, \"%v\\n\", err)\n"                          /* 10 */
		"\tfmt.Printf(\"not an error %s\\n\", name)\n"                        /* 11 */
		"\tfmt.Fprintln(os.Stderr, \"cannot open\", name)\n"                  /* 12 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "error: missing file argument", 4, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "fmt.Fprintf");
	harness_expect_str(x->guard, "len(os.Args) < 2");
	x = EXPECT_SITE(s, "warning: %s is empty", 6, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "Warning: no config found", 7, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "fmt.Fprintln");
	x = EXPECT_SITE(s, "WARN: retrying {n}", 8, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "fmt.Fprint");
	x = EXPECT_SITE(s, "cannot open {name}", 12, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	assert_null(harness_find(s, "%v"));
	assert_null(harness_find(s, "not an error %s"));
	assert_null(harness_find(s, "warning: only on stdout"));
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
}

/* An if (or else) right inside another if's block is guarded by both
 * conditions (fl_guard_nest); not inside a while's. */
static void test_nested_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package server\n"                                          /* 1 */
		"func load(name string) error {\n"                          /* 2 */
		"\tf, err := os.Open(name)\n"                               /* 3 */
		"\tif err != nil {\n"                                        /* 4 */
		"\t\tif errors.Is(err, fs.ErrNotExist) {\n"                  /* 5 */
		"\t\t\treturn fmt.Errorf(\"config %s not found\", name)\n"  /* 6 */
		"\t\t}\n"                                                    /* 7 */
		"\t\treturn fmt.Errorf(\"cannot open config: %w\", err)\n"   /* 8 */
		"\t}\n"                                                      /* 9 */
		"\tfor _, x := range f.Lines() {\n"                          /* 10 */
		"\t\tif x == \"\" {\n"                                       /* 11 */
		"\t\t\treturn errors.New(\"empty line\")\n"                  /* 12 */
		"\t\t}\n"                                                    /* 13 */
		"\t}\n"                                                      /* 14 */
		"\treturn nil\n"                                             /* 15 */
		"}\n");
	const fl_site *x6 = harness_find(s, "config %s not found");
	assert_non_null(x6);
	assert_int_equal(x6->line, 6);
	harness_expect_str(x6->guard, "err != nil && errors.Is(err, fs.ErrNotExist)");
	const fl_site *x8 = harness_find(s, "cannot open config: %w");
	assert_non_null(x8);
	assert_int_equal(x8->line, 8);
	harness_expect_str(x8->guard, "err != nil");
	const fl_site *x12 = harness_find(s, "empty line");
	assert_non_null(x12);
	assert_int_equal(x12->line, 12);
	harness_expect_str(x12->guard, "x == \"\"");
	fl_sites_free(s);
}

/* A case of a tagless switch is guarded by its condition, its default by
 * none of them; a case of a tagged one by its values; a type switch's case
 * by the arm of its types, its default by the catch-all arm "_" */
static void test_switch_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package pkg\n"                                                      /* 1 */
		"func Check(n int, format string, v interface{}) error {\n"         /* 2 */
		"\tswitch {\n"                                                      /* 3 */
		"\tcase n < 0:\n"                                                   /* 4 */
		"\t\treturn fmt.Errorf(\"negative count %d is not allowed\", n)\n" /* 5 */
		"\t}\n"                                                             /* 6 */
		"\tswitch f := format; f {\n"                                       /* 7 */
		"\tcase \"text\", \"yaml\":\n"                                      /* 8 */
		"\t\treturn fmt.Errorf(\"format %s is not ready yet\", f)\n"      /* 9 */
		"\t}\n"                                                             /* 10 */
		"\tswitch x := v.(type) {\n"                                        /* 11 */
		"\tcase string:\n"                                                  /* 12 */
		"\t\treturn fmt.Errorf(\"a string value %q is refused\", x)\n"    /* 13 */
		"\tdefault:\n"                                                      /* 14 */
		"\t\treturn fmt.Errorf(\"a value of type %T is refused\", x)\n"   /* 15 */
		"\t}\n"                                                             /* 16 */
		"\tswitch {\n"                                                      /* 17 */
		"\tcase n > 9, format == \"\":\n"                                    /* 18 */
		"\t\treturn nil\n"                                                 /* 19 */
		"\tdefault:\n"                                                      /* 20 */
		"\t\treturn fmt.Errorf(\"count %d with format %s\", n, format)\n"  /* 21 */
		"\t}\n"                                                             /* 22 */
		"\treturn nil\n"                                                    /* 23 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "negative count %d is not allowed", 5, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n < 0");
	x = EXPECT_SITE(s, "format %s is not ready yet", 9, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "f == \"text\" || f == \"yaml\"");
	/* a type switch's case: the arm of the types it matches */
	x = EXPECT_SITE(s, "a string value %q is refused", 13, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "string");
	assert_true(x->arm);
	/* a type switch's default: the arm that matched no other type */
	x = EXPECT_SITE(s, "a value of type %T is refused", 15, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "_");
	/* a tagless switch's default: none of its conditions holds */
	x = EXPECT_SITE(s, "count %d with format %s", 21, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n <= 9 && format != \"\"");
	fl_sites_free(s);
}

/* A helper a function defines for itself (`failf := func(format string,
 * a ...any) ... { return ..., fmt.Errorf(format, a...) }`): its calls
 * with a literal format are sites, as a folder's helper's are; a closure
 * that only builds text is none. */
static void test_closure_helpers(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"package cmdflag\n"                                                         /* 1 */
		"func ParseOne(fs *flag.FlagSet, args []string) (*flag.Flag, error) {\n"    /* 2 */
		"\tfailf := func(format string, a ...any) (*flag.Flag, error) {\n"          /* 3 */
		"\t\treturn nil, fmt.Errorf(format, a...)\n"                               /* 4 */
		"\t}\n"                                                                     /* 5 */
		"\tquote := func(format string, a ...any) string {\n"                       /* 6 */
		"\t\treturn fmt.Sprintf(format, a...)\n"                                   /* 7 */
		"\t}\n"                                                                     /* 8 */
		"\tif len(args) == 0 {\n"                                                   /* 9 */
		"\t\treturn failf(\"flag needs an argument: -%s\", name)\n"                /* 10 */
		"\t}\n"                                                                     /* 11 */
		"\tif err := fs.Set(name, value); err != nil {\n"                          /* 12 */
		"\t\treturn failf(\"invalid value %q for flag -%s: %v\", value, name, err)\n" /* 13 */
		"\t}\n"                                                                     /* 14 */
		"\t_ = quote(\"flag %s was given\", name)\n"                                /* 15 */
		"\treturn nil, nil\n"                                                       /* 16 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "flag needs an argument: -%s", 10, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "len(args) == 0");
	EXPECT_SITE(s, "invalid value %q for flag -%s: %v", 13, FL_T_EXCEPTION);
	assert_null(harness_find(s, "flag %s was given"));
	fl_sites_free(s);
}

/* Helpers of a plain message (a string parameter printed, logged, made
 * an error, with text of their own around it: fzf's errorExit(msg)) and a
 * format helper that puts a prefix before its format and prints through a
 * logger (age's errorf): each call with a text is a site with the
 * helper's text around it. */
static void test_plain_helpers(void **state)
{
	(void)state;
	const char *util =
		"package cli\n"
		"var l = log.New(os.Stderr, \"\", 0)\n"
		"func errorExit(msg string) {\n"
		"\tos.Stderr.WriteString(msg + \"\\n\")\n"
		"\tos.Exit(2)\n"
		"}\n"
		"func warn(msg string) {\n"
		"\tfmt.Fprintln(os.Stderr, \"tool: warning:\", msg)\n"
		"}\n"
		"func inputError(what string) error {\n"
		"\treturn fmt.Errorf(\"bad input: %q\", what)\n"
		"}\n"
		"func errorf(format string, v ...interface{}) {\n"
		"\tl.Printf(\"tool: error: \"+format, v...)\n"
		"\texit(1)\n"
		"}\n"
		"func note(msg string) {\n"
		"\tfmt.Println(msg)\n"
		"}\n"
		"func (f *flagSet) Set(name string) error {\n"
		"\treturn errors.New(\"no such flag -\" + name)\n"
		"}\n"
		"func (p *parser) posErr(pos int, format string, a ...interface{}) {\n"
		"\tp.errPass(ParseError{Pos: pos, Text: fmt.Sprintf(format, a...)})\n"
		"}\n"
		"func (p *parser) note(format string, a ...interface{}) {\n"
		"\tp.add(Note{Text: fmt.Sprintf(format, a...)})\n"
		"}\n"
		"func errorWithHint(error string, hints ...string) {\n"
		"\tl.Printf(\"tool: error: %s\", error)\n"
		"\tfor _, hint := range hints {\n"
		"\t\tl.Printf(\"tool: hint: %s\", hint)\n"
		"\t}\n"
		"\texit(1)\n"
		"}\n"
		"func showError(text string, more ...string) {\n"
		"\tw.Printf(\"shown: %s\", text)\n"
		"}\n";
	const char *opts =
		"package cli\n"                                                      /* 1 */
		"func parse(arg string) error {\n"                                   /* 2 */
		"\tif arg == \"\" {\n"                                              /* 3 */
		"\t\terrorExit(\"not a valid integer: \" + arg)\n"                  /* 4 */
		"\t}\n"                                                              /* 5 */
		"\twarn(\"the --sort option is deprecated\")\n"                    /* 6 */
		"\terrorf(\"-p can't be combined with -r\")\n"                     /* 7 */
		"\tnote(\"reading the options file\")\n"                          /* 8 */
		"\treturn inputError(\"the empty string\")\n"                     /* 9 */
		"\tfs.Set(\"verbose mode\")\n"                                      /* 10 */
		"\tp.posErr(3, \"%s must be followed by %s\", left, right)\n"    /* 11 */
		"\tp.note(\"%s was read twice\", name)\n"                          /* 12 */
		"\terrorWithHint(\"-a can't be used with -d\", \"did you mean -e?\")\n" /* 13 */
		"\tshowError(\"not a logger of the file\")\n"                     /* 14 */
		"}\n";
	fl_src files[] = {{"src/util.go", util, strlen(util), NULL}, {"src/options.go", opts, strlen(opts), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_go, files, 2, 1);
	const fl_site *x = harness_expect_at(s, 4, "not a valid integer: {arg}");
	harness_expect_str(x->guard, "arg == \"\"");
	x = EXPECT_SITE(s, "tool: warning: the --sort option is deprecated", 6, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "tool: error: -p can't be combined with -r", 7, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	assert_null(harness_find_line(s, 8)); /* a print that is no error */
	x = EXPECT_SITE(s, "bad input: \"the empty string\"", 9, FL_T_EXCEPTION);
	/* a helper whose name says no error is none */
	assert_null(harness_find_line(s, 10));
	/* a format made the text of an error value's field */
	EXPECT_SITE(s, "%s must be followed by %s", 11, FL_T_EXCEPTION);
	assert_null(harness_find_line(s, 12));
	/* a variadic helper printing its message parameter through the
	 * file's logger (log.New) and then each of the rest */
	EXPECT_SITE(s, "tool: error: -a can't be used with -d", 13, FL_T_CONSOLE);
	assert_null(harness_find_line(s, 14)); /* w is no logger the tree makes */
	fl_sites_free(s);
	/* a conversion to a string error type of the package makes the
	 * error (restic's internal/errors), called from another package */
	const char *fatal =
		"package errors\n"
		"type fatalError string\n"
		"func (e fatalError) Error() string { return string(e) }\n"
		"func Fatal(s string) error {\n"
		"\treturn Wrap(fatalError(s), \"Fatal\")\n"
		"}\n"
		"func Fatalf(s string, data ...interface{}) error {\n"
		"\treturn Wrap(fatalError(fmt.Sprintf(s, data...)), \"Fatal\")\n"
		"}\n";
	const char *cmd =
		"package main\n"                                                          /* 1 */
		"import \"github.com/restic/restic/internal/errors\"\n"                   /* 2 */
		"func run(opts Options) error {\n"                                        /* 3 */
		"\tif opts.Password == \"\" {\n"                                          /* 4 */
		"\t\treturn errors.Fatal(\"an empty password is not a password\")\n"     /* 5 */
		"\t}\n"                                                                   /* 6 */
		"\treturn errors.Fatalf(\"%s does not exist\", opts.PasswordFile)\n"      /* 7 */
		"}\n";
	fl_src two[] = {{"internal/errors/fatal.go", fatal, strlen(fatal), NULL},
			{"cmd/restic/global.go", cmd, strlen(cmd), NULL}};
	s = harness_scan_tree(&fl_lang_go, two, 2, 1);
	x = EXPECT_SITE(s, "an empty password is not a password", 5, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "opts.Password == \"\"");
	EXPECT_SITE(s, "%s does not exist", 7, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* An error type's Error() method that assembles its text from fields
 * (a buffer's writes, conditions on fields, a loop; or a format of
 * fields): rendered where a value is made with literal fields, and where
 * a function making one from a parameter of its own is called with a
 * literal (shfmt's LangError and langErr) */
static void test_error_templates(void **state)
{
	(void)state;
	const char *types =
		"package syntax\n"
		"type LangError struct {\n"
		"\tFilename string\n"
		"\tFeature  string\n"
		"\tLangs    []LangVariant\n"
		"}\n"
		"func (e LangError) Error() string {\n"
		"\tvar buf bytes.Buffer\n"
		"\tif e.Filename != \"\" {\n"
		"\t\tbuf.WriteString(e.Filename + \":\")\n"
		"\t}\n"
		"\tbuf.WriteString(e.Pos.String() + \": \")\n"
		"\tbuf.WriteString(e.Feature)\n"
		"\tif strings.HasSuffix(e.Feature, \"s\") {\n"
		"\t\tbuf.WriteString(\" are a \")\n"
		"\t} else {\n"
		"\t\tbuf.WriteString(\" is a \")\n"
		"\t}\n"
		"\tfor i, lang := range e.Langs {\n"
		"\t\tif i > 0 {\n"
		"\t\t\tbuf.WriteString(\"/\")\n"
		"\t\t}\n"
		"\t\tbuf.WriteString(lang.String())\n"
		"\t}\n"
		"\tbuf.WriteString(\" feature\")\n"
		"\treturn buf.String()\n"
		"}\n"
		"type QuoteError struct {\n"
		"\tByteOffset int\n"
		"\tMessage    string\n"
		"}\n"
		"func (e QuoteError) Error() string {\n"
		"\treturn fmt.Sprintf(\"cannot quote character at byte %d: %s\", e.ByteOffset, e.Message)\n"
		"}\n"
		"type countError struct{ n int }\n"
		"func (e countError) Error() string { return fmt.Sprintf(\"%d items\", e.n) }\n";
	const char *parser =
		"package syntax\n"                                                           /* 1 */
		"const quoteErrNull = \"shell strings cannot contain null bytes\"\n"      /* 2 */
		"func (p *Parser) langErr(pos Pos, feature string, langs ...LangVariant) {\n" /* 3 */
		"\tp.errPass(LangError{\n"                                                  /* 4 */
		"\t\tFilename: p.f.Name,\n"                                                 /* 5 */
		"\t\tFeature:  feature,\n"                                                  /* 6 */
		"\t\tLangs:    langs,\n"                                                    /* 7 */
		"\t})\n"                                                                    /* 8 */
		"}\n"                                                                       /* 9 */
		"func (p *Parser) arrays() {\n"                                             /* 10 */
		"\tif p.lang == LangPOSIX {\n"                                              /* 11 */
		"\t\tp.langErr(p.pos, \"arrays\", LangBash, LangMirBSDKorn)\n"              /* 12 */
		"\t}\n"                                                                     /* 13 */
		"\tp.langErr(p.pos, \"search and replace\", LangBash)\n"                    /* 14 */
		"}\n"                                                                       /* 15 */
		"func quote(s string) (string, error) {\n"                                  /* 16 */
		"\treturn \"\", &QuoteError{ByteOffset: 3, Message: quoteErrNull}\n"        /* 17 */
		"}\n"                                                                       /* 18 */
		"func count(n int) error {\n"                                               /* 19 */
		"\treturn countError{n: n}\n"                                               /* 20 */
		"}\n";
	fl_src two[] = {{"syntax/errors.go", types, strlen(types), NULL},
			{"syntax/parser.go", parser, strlen(parser), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_go, two, 2, 1);
	/* the file name is set where the value is made, not known there; the
	 * verb's form follows the feature's last letter */
	const fl_site *x = EXPECT_SITE(s, "{Filename}:{Pos}: arrays are a {Langs} feature", 12, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "p.lang == LangPOSIX");
	harness_expect_str(x->cls, "LangError");
	EXPECT_SITE(s, "{Filename}:{Pos}: search and replace is a {Langs} feature", 14, FL_T_EXCEPTION);
	/* a constant of the file fills a field of a format */
	x = EXPECT_SITE(s, "cannot quote character at byte %d: shell strings cannot contain null bytes", 17,
			FL_T_EXCEPTION);
	harness_expect_str(x->cls, "QuoteError");
	/* no literal field: no site (the type's own text stays at its method) */
	assert_null(harness_find_line(s, 20));
	fl_sites_free(s);
	/* no Error() method of a template: a maker whose field holds a
	 * message gives the argument alone; one whose field holds a name
	 * gives nothing */
	const char *plain =
		"package cfg\n"                                                             /* 1 */
		"type ConfigError struct{ Key, Msg string }\n"                              /* 2 */
		"func (e *ConfigError) Error() string { return e.Key + \": \" + e.Msg }\n"  /* 3 */
		"func badKey(key string) error { return &NameError{Name: key} }\n"          /* 4 */
		"func cfgErr(key, msg string) error {\n"                                    /* 5 */
		"\treturn &ConfigError{Key: key, Msg: msg}\n"                               /* 6 */
		"}\n"                                                                       /* 7 */
		"func load() error {\n"                                                     /* 8 */
		"\tif err := badKey(\"port\"); err != nil {\n"                              /* 9 */
		"\t\treturn err\n"                                                          /* 10 */
		"\t}\n"                                                                     /* 11 */
		"\treturn cfgErr(\"listen\", \"must be host:port\")\n"                      /* 12 */
		"}\n";
	fl_src one[] = {{"cfg/load.go", plain, strlen(plain), NULL}};
	s = harness_scan_tree(&fl_lang_go, one, 1, 0);
	EXPECT_SITE(s, "listen: must be host:port", 12, FL_T_EXCEPTION);
	assert_null(harness_find_line(s, 9));
	fl_sites_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch_guards),
		cmocka_unit_test(test_closure_helpers),
		cmocka_unit_test(test_plain_helpers),
		cmocka_unit_test(test_nested_guards),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_helper_texts),
		cmocka_unit_test(test_panic_log),
		cmocka_unit_test(test_http_grpc_loggers),
		cmocka_unit_test(test_http_error_ctors),
		cmocka_unit_test(test_http_responses),
		cmocka_unit_test(test_traps_and_strings),
		cmocka_unit_test(test_import_alias),
		cmocka_unit_test(test_real_error_methods),
		cmocka_unit_test(test_const_messages),
		cmocka_unit_test(test_else_guards),
		cmocka_unit_test(test_early_exit_guards),
		cmocka_unit_test(test_stderr_prints),
		cmocka_unit_test(test_debug_prints),
		cmocka_unit_test(test_is_test_file),
		cmocka_unit_test(test_robustness),
		cmocka_unit_test(test_error_templates),
	};
	return cmocka_run_group_tests_name("go", tests, NULL, NULL);
}
