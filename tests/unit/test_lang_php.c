/* test_lang_php.c — unit tests for the PHP scanner. */
#include <stdlib.h>

#include "lang_harness.h"

extern const fl_lang fl_lang_php;

static fl_sites *scan(const char *path, const char *text)
{
	return harness_scan(&fl_lang_php, path, text);
}

static void test_throw(void **state)
{
	(void)state;
	fl_sites *s = scan("src/UserService.php",
		"<?php\n"                                                    /* 1 */
		"namespace App\\Services;\n"                                 /* 2 */
		"class UserService\n"                                        /* 3 */
		"{\n"                                                        /* 4 */
		"    public function find(int $id): ?User\n"                 /* 5 */
		"    {\n"                                                    /* 6 */
		"        if ($id <= 0) {\n"                                  /* 7 */
		"            throw new \\InvalidArgumentException(\"Invalid id: $id\\n\");\n" /* 8 */
		"        }\n"                                                /* 9 */
		"        throw new UserNotFound('User ' . $id . ' not found');\n" /* 10 */
		"    }\n"                                                    /* 11 */
		"    private function fmt($a)\n"                             /* 12 */
		"    {\n"                                                    /* 13 */
		"        if (!$a) throw new RuntimeException(sprintf('Bad %s (100%%)', $a));\n" /* 14 */
		"        throw new DomainException(message: 'named \\'arg\\' \\n');\n" /* 15 */
		"        throw new LogicException(\"obj {$this->name} arr {$a['k']} \\$x \\q\");\n" /* 16 */
		"    }\n"                                                    /* 17 */
		"}\n"                                                        /* 18 */
		"function helper() {\n"                                      /* 19 */
		"    $cb = function () { throw new Exception('in closure'); };\n" /* 20 */
		"    throw new Exception(<<<EOT\n"                           /* 21 */
		"        Heredoc for {$x}\n"                                 /* 22 */
		"          indented\n"                                       /* 23 */
		"        EOT);\n"                                            /* 24 */
		"    throw new Exception(<<<'NOW'\n"                         /* 25 */
		"      raw $x\\n\n"                                          /* 26 */
		"      NOW);\n"                                              /* 27 */
		"    throw ValidationException::withMessages(['email' => ['The email is invalid.']]);\n" /* 28 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Invalid id: {id}", 8, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "InvalidArgumentException");
	assert_string_equal(x->function, "UserService::find");
	assert_string_equal(x->guard, "$id <= 0");
	assert_string_equal(x->idiom, "throw new");
	x = EXPECT_SITE(s, "User {id} not found", 10, FL_T_EXCEPTION);
	assert_null(x->guard);
	x = EXPECT_SITE(s, "Bad %s (100%)", 14, FL_T_EXCEPTION);
	assert_string_equal(x->guard, "!$a");
	assert_string_equal(x->function, "UserService::fmt");
	EXPECT_SITE(s, "named 'arg' \\n", 15, FL_T_EXCEPTION);
	EXPECT_SITE(s, "obj {this->name} arr {a['k']} $x \\q", 16, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "in closure", 20, FL_T_EXCEPTION);
	assert_string_equal(x->function, "helper");
	EXPECT_SITE(s, "Heredoc for {x}\n  indented", 21, FL_T_EXCEPTION);
	EXPECT_SITE(s, "raw $x\\n", 25, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "The email is invalid.", 28, FL_T_VALIDATION);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_string_equal(x->cls, "ValidationException");
	assert_int_equal(s->n, 9);
	fl_sites_free(s);
}

/* `throw new X($this->missingMessage($name))`: the text the file's one
 * method of that name returns; a helper of two texts gives none, and a
 * helper's value held in a local for a placeholder stays a placeholder */
static void test_helper_texts(void **state)
{
	(void)state;
	fl_sites *s = scan("src/Repo.php",
		"<?php\n"                                                             /* 1 */
		"class Repo\n"                                                        /* 2 */
		"{\n"                                                                 /* 3 */
		"    private function missingMessage(string $name): string\n"         /* 4 */
		"    {\n"                                                             /* 5 */
		"        return sprintf('Package \"%s\" is not in the repository', $name);\n" /* 6 */
		"    }\n"                                                             /* 7 */
		"    public static function lockPath($f) { return $f . '.lock'; }\n"  /* 8 */
		"    private function twoTexts($n)\n"                                 /* 9 */
		"    {\n"                                                             /* 10 */
		"        if ($n) { return 'first text'; }\n"                          /* 11 */
		"        return 'second text';\n"                                     /* 12 */
		"    }\n"                                                             /* 13 */
		"    public function find($name)\n"                                   /* 14 */
		"    {\n"                                                             /* 15 */
		"        if (!isset($this->packages[$name])) {\n"                     /* 16 */
		"            throw new \\RuntimeException($this->missingMessage($name));\n" /* 17 */
		"        }\n"                                                         /* 18 */
		"        $lock = self::lockPath($name);\n"                            /* 19 */
		"        if ($name === '') {\n"                                       /* 20 */
		"            throw new \\LogicException(\"$lock is locked\");\n"      /* 21 */
		"        }\n"                                                         /* 22 */
		"        throw new \\LogicException($this->twoTexts($name));\n"       /* 23 */
		"    }\n"                                                             /* 24 */
		"}\n");                                                               /* 25 */
	EXPECT_SITE(s, "Package \"%s\" is not in the repository", 17, FL_T_EXCEPTION);
	EXPECT_SITE(s, "{lock} is locked", 21, FL_T_EXCEPTION);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].message && (strstr(s->v[i].message, "first text") || strstr(s->v[i].message, "second text")))
			fail_msg("line %d: <%s>", s->v[i].line, s->v[i].message);
	fl_sites_free(s);
}

static void test_other_idioms(void **state)
{
	(void)state;
	fl_sites *s = scan("app/Http/Controllers/PostController.php",
		"<?php\n"                                                    /* 1 */
		"class PostController extends Controller {\n"                /* 2 */
		"  public function show($id) {\n"                            /* 3 */
		"    abort(404, 'Post not found');\n"                        /* 4 */
		"    abort_if(!$user, 403, \"Forbidden for {$user->name}\");\n" /* 5 */
		"    abort(500, 'Server ' . 'exploded');\n"                  /* 6 */
		"    trigger_error('Old API', E_USER_DEPRECATED);\n"         /* 7 */
		"    trigger_error(\"Fatal thing\", E_USER_ERROR);\n"        /* 8 */
		"    user_error('Careful', E_USER_WARNING);\n"               /* 9 */
		"    trigger_error('Just a notice');\n"                      /* 10 */
		"    $db = connect() or die('Could not connect: ' . mysqli_error());\n" /* 11 */
		"    exit(\"Bye\\n\");\n"                                    /* 12 */
		"    error_log('Cache miss for ' . $key);\n"                 /* 13 */
		"    throw $this->createNotFoundException('No post');\n"     /* 14 */
		"    throw new NotFoundHttpException('Missing page');\n"     /* 15 */
		"  }\n"                                                      /* 16 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Post not found", 4, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_string_equal(x->function, "PostController::show");
	x = EXPECT_SITE(s, "Forbidden for {user->name}", 5, FL_T_HTTP);
	assert_int_equal(x->http, 403);
	assert_string_equal(x->guard, "!$user");
	x = EXPECT_SITE(s, "Server exploded", 6, FL_T_HTTP);
	assert_int_equal(x->http, 500);
	assert_string_equal(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "Old API", 7, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "Fatal thing", 8, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "Careful", 9, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "Just a notice", 10, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_INFO);
	x = EXPECT_SITE(s, "Could not connect: {mysqli_error}", 11, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	assert_string_equal(x->idiom, "die");
	x = EXPECT_SITE(s, "Bye", 12, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	x = EXPECT_SITE(s, "Cache miss for {key}", 13, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	x = EXPECT_SITE(s, "No post", 14, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	x = EXPECT_SITE(s, "Missing page", 15, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	assert_string_equal(x->cls, "NotFoundHttpException");
	assert_int_equal(s->n, 12);
	fl_sites_free(s);
}

static void test_traps(void **state)
{
	(void)state;
	fl_sites *s = scan("index.php",
		"<html><p>throw new Exception('inline html');</p>\n"     /* 1 */
		"<?php\n"                                                /* 2 */
		"// throw new Exception('line comment');\n"              /* 3 */
		"# throw new Exception('hash comment');\n"               /* 4 */
		"/** @throws throw new Exception('doc') */\n"            /* 5 */
		"#[Route('/x', name: 'die(\"x\")')]\n"                   /* 6 */
		"$a = 'throw new Exception(\"in string\")';\n"           /* 7 */
		"$b = \"abort(404, 'in dq')\";\n"                        /* 8 */
		"$c = <<<'NOW'\nthrow new Exception('nowdoc');\nNOW;\n" /* 9-11 */
		"$d = <<<EOT\n  die('heredoc');\n  EOT;\n"               /* 12-14 */
		"// comment ends at close tag ?> <p>die('html')</p>\n"  /* 15 */
		"<?= $x ?> it's <?php throw new Exception('real one');\n" /* 16 */
		"throw $e; throw new Exception($msg); abort(404); exit(1); die;\n"); /* 17 */
	EXPECT_SITE(s, "real one", 16, FL_T_EXCEPTION);
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
}

/* laravel: exceptions thrown without arguments are recorded by class */
static void test_bare_throw_new(void **state)
{
	(void)state;
	fl_sites *s = scan("src/Collection.php",
		"<?php\n"                                                   /* 1 */
		"function first($items) {\n"                                /* 2 */
		"    if (! $items) throw new ItemNotFoundException;\n"       /* 3 */
		"    throw new \\Illuminate\\Cache\\LockTimeoutException();\n" /* 4 */
		"    throw new AccessDeniedHttpException;\n"                 /* 5 */
		"    throw new RuntimeException($message);\n"                /* 6 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "ItemNotFoundException", 3, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "ItemNotFoundException");
	assert_string_equal(x->guard, "! $items");
	x = EXPECT_SITE(s, "LockTimeoutException", 4, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "AccessDeniedHttpException", 5, FL_T_HTTP);
	assert_int_equal(x->http, 403);
	/* a message that is not understood stays unknown */
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
}

/* a static factory's lower-case word argument names a parameter (the
 * factory writes the message): not a message; a later argument that is
 * a sentence is */
static void test_factory_word_args(void **state)
{
	(void)state;
	fl_sites *s = scan("src/Grant/AuthCodeGrant.php",
		"<?php\n"                                                                        /* 1 */
		"class AuthCodeGrant {\n"                                                        /* 2 */
		"    public function respond($request) {\n"                                      /* 3 */
		"        if ($code === null) {\n"                                                 /* 4 */
		"            throw OAuthServerException::invalidRequest('code');\n"              /* 5 */
		"        }\n"                                                                     /* 6 */
		"        throw OAuthServerException::invalidRequest('device_code', 'Device code does not exist');\n" /* 7 */
		"        throw InvalidConfig::forKey('Unknown');\n"                               /* 8 */
		"        throw new LogicException('unsupported');\n"                              /* 9 */
		"    }\n"                                                                         /* 10 */
		"}\n");
	assert_null(harness_find(s, "code"));
	EXPECT_SITE(s, "Device code does not exist", 7, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Unknown", 8, FL_T_EXCEPTION);     /* capitalised: kept */
	EXPECT_SITE(s, "unsupported", 9, FL_T_EXCEPTION); /* a constructor's: kept */
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
}

static void test_is_test_file(void **state)
{
	(void)state;
	assert_true(fl_lang_php.is_test_file("tests/Unit/UserTest.php"));
	assert_true(fl_lang_php.is_test_file("FooTest.php"));
	/* Symfony keeps tests (and fixtures) under Tests/ */
	assert_true(fl_lang_php.is_test_file("Tests/Fixtures/Foo3Command.php"));
	assert_true(fl_lang_php.is_test_file("src/Symfony/Console/Tests/Helper/X.php"));
	assert_false(fl_lang_php.is_test_file("src/Testsuite/Runner.php"));
	assert_false(fl_lang_php.is_test_file("src/Test.php"));
	assert_false(fl_lang_php.is_test_file("src/User.php"));
}

static void scan_bytes(const char *buf, size_t len)
{
	harness_scan_bytes(&fl_lang_php, "x.php", buf, len);
}

static void test_robustness(void **state)
{
	(void)state;
	static const char junk[] = "<?php throw new Exception('\xff\xfe\x80')\0 \"\0{$\" <<<";
	scan_bytes(junk, sizeof junk - 1);
	const char *unterminated[] = {
		"<?php throw new Exception('abc", "<?php throw new Exception(\"abc {$x",
		"<?php /* throw", "<?php $x = <<<EOT\nabc $x\n", "<?php $x = <<<'E'\n",
		"<?php throw new Exception(", "<?php throw", "<?", "<?php \"${",
		"<?php \"$a[", "<?php <<<", NULL};
	harness_scan_each(&fl_lang_php, "x.php", unterminated);
	size_t n = 1 << 20;
	char *big = harness_repeat("throw new Exception(\"x {$a} $b\" . 'c'); ", n);
	memcpy(big, "<?php ", 6);
	scan_bytes(big, n);
	harness_fill(big, 6, n, "throw new E((");
	scan_bytes(big, n);
	free(big);
	size_t depth = 10000;
	char *nest = malloc(depth * 2 + 64);
	size_t k = harness_nest(nest, "<?php throw new Exception(", "([{", depth,
				"1", "");
	scan_bytes(nest, k);
	free(nest);
	assert_true(true);
}

/* throw new X($message) after $message = ... in the same function */
static void test_local_message_variable(void **state)
{
	(void)state;
	fl_sites *s = scan("src/Application.php",
		"<?php\n"                                                                /* 1 */
		"class App {\n"                                                          /* 2 */
		"  public function find(string $name) {\n"                               /* 3 */
		"    $message = sprintf('Command \"%s\" is not defined.', $name);\n"      /* 4 */
		"    if ($alternatives) {\n"                                             /* 5 */
		"      $message .= \"\\n\\nDid you mean this?\";\n"                      /* 6 */
		"    }\n"                                                                /* 7 */
		"    throw new CommandNotFoundException($message);\n"                    /* 8 */
		"  }\n"                                                                  /* 9 */
		"  public function param($message) {\n"                                  /* 10 */
		"    throw new RuntimeException($message);\n"                            /* 11 */
		"  }\n"                                                                  /* 12 */
		"  public function two($x) {\n"                                          /* 13 */
		"    $m = 'first reason';\n"                                             /* 14 */
		"    if ($x) { $m = 'second reason'; }\n"                                /* 15 */
		"    throw new LogicException($m);\n"                                    /* 16 */
		"  }\n"                                                                  /* 17 */
		"  public function loop($list) {\n"                                      /* 18 */
		"    foreach ($list as $msg) { }\n"                                      /* 19 */
		"    throw new RuntimeException($msg);\n"                                /* 20 */
		"  }\n"                                                                  /* 21 */
		"  public function other() {\n"                                          /* 22 */
		"    $note = 'Lock file is stale';\n"                                    /* 23 */
		"    trigger_error($note, E_USER_WARNING);\n"                            /* 24 */
		"  }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Command \"%s\" is not defined.", 8, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "CommandNotFoundException");
	EXPECT_SITE(s, "Lock file is stale", 24, FL_T_CONSOLE);
	/* two different messages: a record for each */
	EXPECT_SITE(s, "first reason", 16, FL_T_EXCEPTION);
	EXPECT_SITE(s, "second reason", 16, FL_T_EXCEPTION);
	/* a parameter, a loop variable: unknown */
	for (size_t k = 0; k < s->n; k++)
		assert_true(s->v[k].line == 8 || s->v[k].line == 24 || s->v[k].line == 16 ||
			    (s->v[k].message && !strstr(s->v[k].message, "$")));
	fl_sites_free(s);
}

/* Guzzle, Monolog: `\sprintf(...)` (a native call written fully
 * qualified) and sprintf(...) joined with more text are formats too */
static void test_sprintf_qualified_and_joined(void **state)
{
	(void)state;
	fl_sites *s = scan("src/Handler/StreamHandler.php",
		"<?php\n"                                                                        /* 1 */
		"class StreamHandler {\n"                                                        /* 2 */
		"  public function open($url, $record) {\n"                                      /* 3 */
		"    throw new RequestException(\\sprintf(\"The scheme '%s' is not supported.\", $s), $r);\n" /* 4 */
		"    throw new \\RuntimeException(\\vsprintf('Directory %s (100%%)', [$d]));\n"  /* 5 */
		"    throw new \\UnexpectedValueException(sprintf('File \"%s\" failed: '.$this->error, $url) . Utils::forRecord($record));\n" /* 6 */
		"    throw new \\LogicException('Prefix ' . \\sprintf('%d items', $n) . ' and ' . $tail);\n" /* 7 */
		"    throw new \\LogicException(\\sprintf);\n"                                   /* 8 */
		"    throw new \\LogicException(\\ . sprintf('x %s', $a));\n"                    /* 9 */
		"  }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "The scheme '%s' is not supported.", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "RequestException");
	EXPECT_SITE(s, "Directory %s (100%)", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "File \"%s\" failed: {error}{forRecord}", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Prefix %d items and {tail}", 7, FL_T_EXCEPTION);
	for (size_t k = 0; k < s->n; k++)
		assert_true(s->v[k].line != 8);
	fl_sites_free(s);
}

/* Slim: new HttpNotFoundException($request[, $message]) is a 404 with
 * the class's own message unless one is given */
static void test_slim_http_exceptions(void **state)
{
	(void)state;
	fl_sites *s = scan("src/Action/UserAction.php",
		"<?php\n"                                                                        /* 1 */
		"class UserAction {\n"                                                           /* 2 */
		"  public function __invoke($request, $args) {\n"                                /* 3 */
		"    throw new HttpNotFoundException($request);\n"                               /* 4 */
		"    throw new HttpForbiddenException($request, 'You may not view user ' . $id);\n" /* 5 */
		"    throw new \\Slim\\Exception\\HttpBadRequestException($this->request, $why);\n" /* 6 */
		"    throw new HttpException($request, 'I am a teapot', 418);\n"                 /* 7 */
		"    throw new HttpNotFoundException;\n"                                         /* 8 */
		"  }\n"
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "Not found.", 4, FL_T_HTTP);
	assert_string_equal(x->cls, "HttpNotFoundException");
	assert_int_equal(x->http, 404);
	x = EXPECT_SITE(s, "You may not view user {id}", 5, FL_T_HTTP);
	assert_int_equal(x->http, 403);
	x = EXPECT_SITE(s, "I am a teapot", 7, FL_T_HTTP);
	assert_int_equal(x->http, 418);
	x = EXPECT_SITE(s, "HttpNotFoundException", 8, FL_T_HTTP);
	assert_int_equal(x->http, 404);
	/* a message argument that is not understood: unknown, no record */
	for (size_t k = 0; k < s->n; k++)
		assert_true(s->v[k].line != 6);
	fl_sites_free(s);
}

/* A caught exception's message joined into a rethrown one: the message
 * the tree throws its class with, when that is one text (another file) */
static void test_caught_message(void **state)
{
	(void)state;
	const char *a = "<?php\n"
			"class SchemaError extends \\RuntimeException {}\n"
			"class LockError extends \\RuntimeException {}\n"
			"function check($f) {\n"
			"  throw new SchemaError('\"'.$f.'\" breaks the schema');\n"
			"  throw new LockError('lock one is held');\n"
			"  throw new LockError('lock two is held');\n"
			"}\n";
	const char *b = "<?php\n"                                                   /* 1 */
			"function load($f) {\n"                                       /* 2 */
			"  try { check($f); } catch (SchemaError $e) {\n"             /* 3 */
			"    $m = $e->getMessage() . ':' . PHP_EOL . $errors;\n"      /* 4 */
			"    throw new SchemaError($m);\n"                            /* 5 */
			"  } catch (LockError $e) {\n"                                /* 6 */
			"    throw new RuntimeException($e->getMessage() . ': ' . $x);\n" /* 7 */
			"  }\n"
			"  $w = $f ? 'File is read-only' : 'File is missing';\n"     /* 9 */
			"  throw new RuntimeException($w);\n"                         /* 10 */
			"}\n";
	fl_src files[2] = {{.path = "src/check.php", .text = a, .len = strlen(a)},
			   {.path = "src/load.php", .text = b, .len = strlen(b)}};
	fl_sites *s = harness_scan_tree(&fl_lang_php, files, 2, 1);
	EXPECT_SITE(s, "\"{f}\" breaks the schema:\n{errors}", 5, FL_T_EXCEPTION);
	/* thrown with two texts: which one is unknown */
	for (size_t k = 0; k < s->n; k++)
		assert_true(s->v[k].line != 7 || strstr(s->v[k].message, "{getMessage}"));
	/* a choice: both texts */
	EXPECT_SITE(s, "File is read-only", 10, FL_T_EXCEPTION);
	EXPECT_SITE(s, "File is missing", 10, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* An exception class whose constructor makes its message of what it is
 * given: thrown with that message in another file; an error value made
 * and handed on (not thrown) is a site of its text of words; a method of
 * the file that prints its parameter and exits reports each call's text
 * (PHPUnit). */
static void test_ctor_messages_values_reporters(void **state)
{
	(void)state;
	const char *a = "<?php\n"
			"final class UnknownTypeException extends Exception\n"
			"{\n"
			"    public function __construct(string $type)\n"
			"    {\n"
			"        parent::__construct(\n"
			"            sprintf('Class or interface \"%s\" does not exist', $type)\n"
			"        );\n"
			"    }\n"
			"}\n";
	const char *b = "<?php\n"                                                                  /* 1 */
			"class Command {\n"                                                         /* 2 */
			"  public function run($type, $order) {\n"                                  /* 3 */
			"    if (!class_exists($type)) {\n"                                         /* 4 */
			"      throw new UnknownTypeException($type);\n"                            /* 5 */
			"    }\n"                                                                   /* 6 */
			"    $this->addTest(new WarningTestCase(sprintf('No tests found in class \"%s\".', $n)));\n" /* 7 */
			"    $e = new Exception($order);\n"                                         /* 8 */
			"    $h = new ErrorHandler('config');\n"                                    /* 9 */
			"    $this->exitWithErrorMessage(sprintf('unrecognized --order-by option: %s', $order));\n" /* 10 */
			"    $this->printVersionString('not a report here');\n"                     /* 11 */
			"  }\n"                                                                     /* 12 */
			"  private function exitWithErrorMessage(string $message): void {\n"        /* 13 */
			"    $this->printVersionString();\n"                                        /* 14 */
			"    print $message . PHP_EOL;\n"                                           /* 15 */
			"    exit(TestRunner::FAILURE_EXIT);\n"                                     /* 16 */
			"  }\n"                                                                     /* 17 */
			"  private function printVersionString($v = ''): void {\n"                  /* 18 */
			"    print Version::getVersionString() . PHP_EOL . PHP_EOL;\n"              /* 19 */
			"  }\n"                                                                     /* 20 */
			"}\n";
	fl_src files[2] = {{.path = "src/UnknownTypeException.php", .text = a, .len = strlen(a)},
			   {.path = "src/Command.php", .text = b, .len = strlen(b)}};
	fl_sites *s = harness_scan_tree(&fl_lang_php, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "Class or interface \"%s\" does not exist", 5, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "UnknownTypeException");
	x = EXPECT_SITE(s, "No tests found in class \"%s\".", 7, FL_T_EXCEPTION);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_null(harness_find_line(s, 8));
	assert_null(harness_find_line(s, 9));
	x = EXPECT_SITE(s, "unrecognized --order-by option: %s", 10, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "reporter exitWithErrorMessage");
	assert_null(harness_find_line(s, 11));
	fl_sites_free(s);
	/* a method of the file that throws its first parameter (PHPMD's
	 * nullOrThrow, at any depth of its body): its calls raise their text */
	s = scan("src/Baseline/FileFinder.php",
		 "<?php\n"                                                                    /* 1 */
		 "class FileFinder {\n"                                                       /* 2 */
		 "  public function find($path) {\n"                                          /* 3 */
		 "    if ($path === null) {\n"                                                /* 4 */
		 "      return $this->nullOrThrow('Unable to determine the baseline location.');\n" /* 5 */
		 "    }\n"                                                                    /* 6 */
		 "    $this->note('the baseline file was found');\n"                          /* 7 */
		 "    return $path;\n"                                                        /* 8 */
		 "  }\n"                                                                      /* 9 */
		 "  private function nullOrThrow($message) {\n"                               /* 10 */
		 "    if ($this->notNull === true) {\n"                                       /* 11 */
		 "      throw new RuntimeException($message);\n"                              /* 12 */
		 "    }\n"                                                                    /* 13 */
		 "    return null;\n"                                                         /* 14 */
		 "  }\n"                                                                      /* 15 */
		 "  private function note($text) {\n"                                         /* 16 */
		 "    $this->log[] = $text;\n"                                                /* 17 */
		 "  }\n"                                                                      /* 18 */
		 "}\n");
	x = EXPECT_SITE(s, "Unable to determine the baseline location.", 5, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "RuntimeException");
	harness_expect_str(x->idiom, "thrower nullOrThrow");
	harness_expect_str(x->guard, "$path === null");
	assert_null(harness_find_line(s, 7));
	fl_sites_free(s);
	/* an echo of several arguments right before a failing status is
	 * returned (pdepend's `return self::INPUT_ERROR;`); a success is not */
	s = scan("src/TextUI/Command.php",
		 "<?php\n"                                                             /* 1 */
		 "class Command {\n"                                                   /* 2 */
		 "  public function run($options, $value) {\n"                         /* 3 */
		 "    if (is_bool($value)) {\n"                                        /* 4 */
		 "      echo 'Option ', $option, ' requires a value.', PHP_EOL;\n"     /* 5 */
		 "      return self::INPUT_ERROR;\n"                                   /* 6 */
		 "    }\n"                                                             /* 7 */
		 "    if (count($options) > 0) {\n"                                    /* 8 */
		 "      echo \"Unknown option '\", key($options), \"' given.\", PHP_EOL;\n" /* 9 */
		 "      return 2;\n"                                                   /* 10 */
		 "    }\n"                                                             /* 11 */
		 "    echo 'All the files were parsed.', PHP_EOL;\n"                   /* 12 */
		 "    return self::SUCCESS;\n"                                         /* 13 */
		 "  }\n"                                                               /* 14 */
		 "}\n");
	x = EXPECT_SITE(s, "Option {option} requires a value.", 5, FL_T_CONSOLE);
	harness_expect_str(x->guard, "is_bool($value)");
	EXPECT_SITE(s, "Unknown option '{options}' given.", 9, FL_T_CONSOLE);
	assert_null(harness_find_line(s, 12));
	fl_sites_free(s);
	/* a print right before a failing exit reports; before exit(0), or
	 * going on, it is output */
	s = scan("src/Migrate.php",
		 "<?php\n"                                                              /* 1 */
		 "if (!isset($args['configuration'])) {\n"                               /* 2 */
		 "    print 'No configuration file found to migrate.' . PHP_EOL;\n"     /* 3 */
		 "    exit(TestRunner::EXCEPTION_EXIT);\n"                               /* 4 */
		 "}\n"                                                                   /* 5 */
		 "echo 'All tests were migrated here.' . PHP_EOL;\n"                     /* 6 */
		 "exit(0);\n"                                                            /* 7 */
		 "print 'Reading the configuration now.';\n"                             /* 8 */
		 "print 'Generated the configuration file.';\n"                          /* 9 */
		 "exit(TestRunner::SUCCESS_EXIT);\n");                                   /* 10 */
	x = EXPECT_SITE(s, "No configuration file found to migrate.", 3, FL_T_CONSOLE);
	harness_expect_str(x->guard, "!isset($args['configuration'])");
	assert_null(harness_find_line(s, 6));
	assert_null(harness_find_line(s, 8));
	assert_null(harness_find_line(s, 9));
	fl_sites_free(s);
	/* a writer given a level word and a text; a console write whose
	 * text starts by saying it is a warning */
	s = scan("src/TestRunner.php",
		 "<?php\n"                                                                           /* 1 */
		 "class TestRunner {\n"                                                              /* 2 */
		 "  public function run($c) {\n"                                                     /* 3 */
		 "    $this->writeMessage('Warning', 'Your XML configuration validates against a deprecated schema.');\n" /* 4 */
		 "    $this->writeMessage('Suggestion', 'Migrate your XML configuration now!');\n"   /* 5 */
		 "    $this->write(\"\\n  Warning - The configuration file did not pass validation!\");\n" /* 6 */
		 "    $this->write('Tests are running now, please wait');\n"                         /* 7 */
		 "  }\n"
		 "}\n");
	x = EXPECT_SITE(s, "Your XML configuration validates against a deprecated schema.", 4,
			FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_null(harness_find_line(s, 5));
	x = EXPECT_SITE(s, "Warning - The configuration file did not pass validation!", 6, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_null(harness_find_line(s, 7));
	fl_sites_free(s);
	/* records.md: a message's trailing line breaks are no part of it */
	s = scan("src/Config.php",
		 "<?php\n"
		 "$error = 'ERROR: The file \"'.$path.'\" does not exist.'.PHP_EOL.PHP_EOL;\n"
		 "throw new DeepExitException($error, 3);\n");
	EXPECT_SITE(s, "ERROR: The file \"{path}\" does not exist.", 3, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* A report in an else's block, or after `} else`, is guarded by its if's
 * condition, turned: it runs when that condition does not hold (the last
 * if or elseif of a chain); a report after the whole if/else has none */
static void test_else_guards(void **state)
{
	(void)state;
	fl_sites *s = scan("src/Loader.php",
		"<?php\n"                                                             /* 1 */
		"function load($n, $name) {\n"                                        /* 2 */
		"    if ($n === 2) {\n"                                               /* 3 */
		"        use_it($n);\n"                                               /* 4 */
		"    } else {\n"                                                      /* 5 */
		"        throw new InvalidArgumentException('want two arguments');\n" /* 6 */
		"    }\n"                                                             /* 7 */
		"    if ($n > 3) {\n"                                                 /* 8 */
		"        use_it($n);\n"                                               /* 9 */
		"    } elseif ($name === null) {\n"                                   /* 10 */
		"        use_it(0);\n"                                                /* 11 */
		"    } else {\n"                                                      /* 12 */
		"        throw new RuntimeException('bad name');\n"                   /* 13 */
		"    }\n"                                                             /* 14 */
		"    if ($n > 4) {\n"                                                 /* 15 */
		"        use_it($n);\n"                                               /* 16 */
		"    } else if (isset($seen[$name])) {\n"                             /* 17 */
		"        use_it(1);\n"                                                /* 18 */
		"    } else throw new RuntimeException('unknown name');\n"            /* 19 */
		"    throw new RuntimeException('not loaded');\n"                     /* 20 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "want two arguments", 6, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "$n !== 2");
	x = EXPECT_SITE(s, "bad name", 13, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "$name !== null");
	x = EXPECT_SITE(s, "unknown name", 19, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!isset($seen[$name])");
	x = EXPECT_SITE(s, "not loaded", 20, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	fl_sites_free(s);
}

/* fwrite(STDERR, ...), fputs, fprintf(STDERR, ...), file_put_contents(
 * 'php://stderr', ...) and error_log(...): what the program prints on its
 * standard error; a warning when the text says so; a write of a value
 * alone, or to another stream, is no site */
static void test_stderr_writes(void **state)
{
	(void)state;
	fl_sites *s = scan("bin/tool.php",
		"<?php\n"                                                               /* 1 */
		"function main(array $argv) {\n"                                        /* 2 */
		"    if (count($argv) < 2) {\n"                                         /* 3 */
		"        fwrite(STDERR, \"error: missing file argument\\n\");\n"        /* 4 */
		"        exit(2);\n"                                                    /* 5 */
		"    }\n"                                                               /* 6 */
		"    fprintf(STDERR, \"Warning: %s is 100%% empty\\n\", $argv[1]);\n"   /* 7 */
		"    file_put_contents('php://stderr', \"cannot open $file\\n\");\n"    /* 8 */
		"    \\fputs(\\STDERR, 'WARN: retrying' . PHP_EOL);\n"                  /* 9 */
		"    error_log(\"warning: cache is cold\");\n"                          /* 10 */
		"    fwrite(STDERR, $e->getMessage() . \"\\n\");\n"                     /* 11 */
		"    fwrite($fh, \"error: not on stderr\\n\");\n"                       /* 12 */
		"    file_put_contents('out.log', \"error: not on stderr either\");\n"  /* 13 */
		"    error_log(\"could not connect to {$host}\");\n"                    /* 14 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "error: missing file argument", 4, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "fwrite(STDERR)");
	harness_expect_str(x->guard, "count($argv) < 2");
	harness_expect_str(x->function, "main");
	x = EXPECT_SITE(s, "Warning: %s is 100% empty", 7, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "fprintf(STDERR)");
	x = EXPECT_SITE(s, "cannot open {file}", 8, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "file_put_contents(php://stderr)");
	x = EXPECT_SITE(s, "WARN: retrying", 9, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "warning: cache is cold", 10, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "error_log");
	x = EXPECT_SITE(s, "could not connect to {host}", 14, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	assert_null(harness_find(s, "{getMessage}"));
	assert_null(harness_find(s, "error: not on stderr"));
	assert_null(harness_find(s, "error: not on stderr either"));
	assert_int_equal(s->n, 6);
	fl_sites_free(s);
}

/* An if (or else) right inside another if's block is guarded by both
 * conditions (fl_guard_nest); not inside a while's. */
static void test_nested_guards(void **state)
{
	(void)state;
	fl_sites *s = scan("src/Loader.php",
		"<?php\n"                                                     /* 1 */
		"function load($name, $force) {\n"                            /* 2 */
		"    if (!$force) {\n"                                        /* 3 */
		"        if (file_exists($name)) {\n"                         /* 4 */
		"            throw new RuntimeException('already exists');\n" /* 5 */
		"        } else {\n"                                          /* 6 */
		"            throw new RuntimeException('no such dir');\n"    /* 7 */
		"        }\n"                                                 /* 8 */
		"    }\n"                                                     /* 9 */
		"    while ($force) {\n"                                      /* 10 */
		"        if ($name === '') throw new RuntimeException('in while');\n" /* 11 */
		"    }\n"                                                     /* 12 */
		"}\n");
	const fl_site *x5 = EXPECT_SITE(s, "already exists", 5, FL_T_EXCEPTION);
	harness_expect_str(x5->guard, "!$force && file_exists($name)");
	const fl_site *x7 = EXPECT_SITE(s, "no such dir", 7, FL_T_EXCEPTION);
	harness_expect_str(x7->guard, "!$force && !file_exists($name)");
	const fl_site *x11 = EXPECT_SITE(s, "in while", 11, FL_T_EXCEPTION);
	harness_expect_str(x11->guard, "$name === ''");
	fl_sites_free(s);
}

/* A rule catalogue (an XML file of the tree giving each rule class the
 * message of its violations, PHPMD's rulesets): the class's own report of
 * a violation is a site of that message; a class the catalogue does not
 * name, a report of another object, a call not named for one, a rule
 * without a class, and two classes of one name that differ make none. */
static void test_rule_catalogue(void **state)
{
	(void)state;
	const char *xml =
		"<?xml version=\"1.0\"?>\n"
		"<ruleset name=\"Spacing rules\">\n"
		"  <rule name=\"TrailingSpace\"\n"
		"        message=\"Line {0} ends with &quot;{1}&quot; spaces &amp; tabs.\"\n"
		"        class=\"Acme\\Lint\\Rule\\TrailingSpace\">\n"
		"    <description>Trailing spaces.</description>\n"
		"  </rule>\n"
		"  <rule ref=\"rulesets/other.xml/Other\" />\n"
		"  <rule name=\"Twice\" message=\"Said one way.\" class=\"A\\Twice\"/>\n"
		"  <rule name=\"Twice\" message=\"Said another way.\" class=\"B\\Twice\"/>\n"
		"</ruleset>\n";
	const char *rule =
		"<?php\n"                                                        /* 1 */
		"namespace Acme\\Lint\\Rule;\n"                                  /* 2 */
		"class TrailingSpace extends AbstractRule\n"                     /* 3 */
		"{\n"                                                            /* 4 */
		"    public function apply($node)\n"                             /* 5 */
		"    {\n"                                                        /* 6 */
		"        if ($this->spaces($node) > 0) {\n"                      /* 7 */
		"            $this->addViolation($node, array($line, $n));\n"    /* 8 */
		"        }\n"                                                    /* 9 */
		"        $report->addViolation($node);\n"                        /* 10 */
		"        $this->spaces($node);\n"                                /* 11 */
		"    }\n"                                                        /* 12 */
		"}\n"                                                            /* 13 */
		"class Twice extends AbstractRule\n"                             /* 14 */
		"{\n"                                                            /* 15 */
		"    public function apply($node) { $this->addViolation($node); }\n" /* 16 */
		"}\n"                                                            /* 17 */
		"class Unnamed extends AbstractRule\n"                           /* 18 */
		"{\n"                                                            /* 19 */
		"    public function apply($node) { $this->addViolation($node); }\n" /* 20 */
		"}\n"                                                            /* 21 */
		"class Spaced extends AbstractRule\n"                            /* 22 */
		"{\n"                                                            /* 23 */
		"    public function apply($node) { $this->addViolation($node); }\n" /* 24 */
		"}\n";
	/* attributes written with spaces around their '=' and in single quotes */
	const char *spaced = "<ruleset>\n  <rule name=\"Spaced\" message = 'The {0} {1}() exits.'\n"
			     "        class = \"Acme\\Lint\\Rule\\Spaced\" />\n</ruleset>\n";
	fl_src files[] = {{"src/rulesets/spacing.xml", xml, strlen(xml), NULL},
			  {"src/rulesets/spaced.xml", spaced, strlen(spaced), NULL},
			  {"src/Rule/TrailingSpace.php", rule, strlen(rule), NULL}};
	fl_sites *s = harness_scan_tree(&fl_lang_php, files, 3, 2);
	const fl_site *x = harness_expect_at(s, 8, "Line {0} ends with \"{1}\" spaces & tabs.");
	assert_string_equal(x->type, FL_T_CONSOLE);
	assert_string_equal(x->idiom, "$this->addViolation");
	assert_string_equal(x->function, "TrailingSpace::apply");
	assert_string_equal(x->guard, "$this->spaces($node) > 0");
	harness_expect_at(s, 24, "The {0} {1}() exits.");
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
	/* the catalogue scanned alone: no site; junk: no crash */
	harness_expect_none(scan("src/rulesets/spacing.xml", xml), "src/rulesets/spacing.xml");
	static const char junk[] = "<rule class=\"\\\" message=\"&#xFFFFFFFF; &#; x\0<rule message='a b c' class='\\X'";
	fl_src bad[] = {{"r.xml", junk, sizeof junk - 1, NULL}, {"x.php", rule, strlen(rule), NULL}};
	s = harness_scan_tree(&fl_lang_php, bad, 2, 1);
	assert_int_equal(s->n, 0);
	fl_sites_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_guards),
		cmocka_unit_test(test_ctor_messages_values_reporters),
		cmocka_unit_test(test_throw),
		cmocka_unit_test(test_helper_texts),
		cmocka_unit_test(test_else_guards),
		cmocka_unit_test(test_other_idioms),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_bare_throw_new),
		cmocka_unit_test(test_local_message_variable),
		cmocka_unit_test(test_factory_word_args),
		cmocka_unit_test(test_sprintf_qualified_and_joined),
		cmocka_unit_test(test_slim_http_exceptions),
		cmocka_unit_test(test_is_test_file),
		cmocka_unit_test(test_stderr_writes),
		cmocka_unit_test(test_robustness),
		cmocka_unit_test(test_caught_message),
		cmocka_unit_test(test_rule_catalogue),
	};
	return cmocka_run_group_tests_name("php", tests, NULL, NULL);
}
