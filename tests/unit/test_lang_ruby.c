/* test_lang_ruby.c — unit tests for the Ruby family (lib/scan/ruby/) */
#include <stdlib.h>

#include "lang_harness.h"

extern const fl_lang fl_lang_ruby;

static fl_sites *scan_rb(const char *text)
{
	return harness_scan(&fl_lang_ruby, "app/models/order.rb", text);
}

static fl_sites *scan_len(const char *text, size_t len)
{
	return harness_scan_len(&fl_lang_ruby, "app/x.rb", text, len);
}

static void test_raise_forms(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"module Shop\n"                                            /* 1 */
		"  class Order < Base\n"                                   /* 2 */
		"    def ship!(addr)\n"                                    /* 3 */
		"      if addr.nil?\n"                                     /* 4 */
		"        raise ArgumentError, \"address required\"\n"      /* 5 */
		"      elsif addr.empty?\n"                                /* 6 */
		"        raise ArgumentError.new(\"empty: #{addr}\")\n"    /* 7 */
		"      end\n"                                              /* 8 */
		"      raise ShipError, \"cannot ship #{id}\" unless ready?\n" /* 9 */
		"      raise \"plain runtime\"\n"                          /* 10 */
		"      raise ActiveRecord::RecordNotFound\n"               /* 11 */
		"      raise\n"                                            /* 12 */
		"      raise e\n"                                          /* 13 */
		"      fail IOError, 'failed op'\n"                        /* 14 */
		"      raise(KeyError, \"paren form\")\n"                  /* 15 */
		"    end\n"                                                /* 16 */
		"    def self.lookup(id)\n"                                /* 17 */
		"      raise NotFound.new\n"                               /* 18 */
		"    end\n"                                                /* 19 */
		"  end\n"                                                  /* 20 */
		"end\n"                                                    /* 21 */
		"def top\n"                                                /* 22 */
		"  raise \"top level method\"\n"                          /* 23 */
		"end\n"                                                    /* 24 */
		"raise \"file level\"\n");                                 /* 25 */
	const fl_site *x = EXPECT_SITE(s, "address required", 5, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ArgumentError");
	harness_expect_str(x->function, "Shop::Order#ship!");
	harness_expect_str(x->guard, "addr.nil?");
	harness_expect_str(x->idiom, "raise");
	assert_int_equal(x->col, 9);
	x = EXPECT_SITE(s, "empty: {addr}", 7, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ArgumentError");
	harness_expect_str(x->guard, "addr.empty?");
	x = EXPECT_SITE(s, "cannot ship {id}", 9, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!ready?");
	harness_expect_str(x->cls, "ShipError");
	x = EXPECT_SITE(s, "plain runtime", 10, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "RuntimeError");
	assert_null(x->guard);
	x = EXPECT_SITE(s, "ActiveRecord::RecordNotFound", 11, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ActiveRecord::RecordNotFound");
	x = EXPECT_SITE(s, "failed op", 14, FL_T_EXCEPTION);
	harness_expect_str(x->idiom, "fail");
	harness_expect_str(x->cls, "IOError");
	x = EXPECT_SITE(s, "paren form", 15, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "KeyError");
	x = EXPECT_SITE(s, "NotFound", 18, FL_T_EXCEPTION);
	harness_expect_str(x->function, "Shop::Order.lookup");
	x = EXPECT_SITE(s, "top level method", 23, FL_T_EXCEPTION);
	harness_expect_str(x->function, "top");
	x = EXPECT_SITE(s, "file level", 25, FL_T_EXCEPTION);
	assert_null(x->function);
	assert_int_equal(s->n, 10);
	fl_sites_free(s);
}

/* `raise X, bad_value(v)`: the text the file's method returns, its def
 * the file's first token */
static void test_helper_call_texts(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"def bad_value(v)\n"                                       /* 1 */
		"  \"bad value #{v}\"\n"                                   /* 2 */
		"end\n"                                                    /* 3 */
		"\n"                                                       /* 4 */
		"def check(v)\n"                                           /* 5 */
		"  raise ArgumentError, bad_value(v) if v.negative?\n"     /* 6 */
		"  raise ArgumentError, missing_helper(v) if v.zero?\n"    /* 7 */
		"  fail undefined_task(v) if v.odd?\n"                     /* 8 */
		"end\n"                                                    /* 9 */
		"\n"                                                       /* 10 */
		"def undefined_task(name)\n"                               /* 11 */
		"  message = \"Don't know how to build task '#{name}' \"\\\n" /* 12 */
		"            \"(see --tasks)\"\n"                          /* 13 */
		"  message + suggestions(name)\n"                          /* 14 */
		"end\n");                                                  /* 15 */
	EXPECT_SITE(s, "bad value {v}", 6, FL_T_EXCEPTION);
	if (harness_find_line(s, 7))
		fail_msg("a helper of no text in the file gave a site");
	/* a local's text and a call's, returned by the helper */
	const fl_site *x = EXPECT_SITE(s, "Don't know how to build task '{name}' (see --tasks){suggestions}", 8,
				       FL_T_EXCEPTION);
	harness_expect_str(x->cls, "RuntimeError"); /* fail of a text */
	fl_sites_free(s);
}

static void test_abort_errors(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"class User\n"                                              /* 1 */
		"  def validate_name\n"                                     /* 2 */
		"    errors.add(:name, \"can't be blank\") if name.blank?\n" /* 3 */
		"    errors.add(:base, :invalid, message: \"is locked\")\n"  /* 4 */
		"    record.errors.add :email, \"is taken\"\n"               /* 5 */
		"    errors.add(:name, :blank)\n"                           /* 6 */
		"  end\n"                                                   /* 7 */
		"end\n"                                                     /* 8 */
		"abort(\"fatal: config missing\")\n"                        /* 9 */
		"abort \"bye #{name}\"\n"                                   /* 10 */
		"abort\n");                                                 /* 11 */
	const fl_site *x = EXPECT_SITE(s, "can't be blank", 3, FL_T_VALIDATION);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->guard, "name.blank?");
	harness_expect_str(x->function, "User#validate_name");
	x = EXPECT_SITE(s, "is locked", 4, FL_T_VALIDATION);
	x = EXPECT_SITE(s, "is taken", 5, FL_T_VALIDATION);
	assert_int_equal(x->col, 5);
	x = EXPECT_SITE(s, "fatal: config missing", 9, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_CRITICAL);
	harness_expect_str(x->idiom, "abort");
	x = EXPECT_SITE(s, "bye {name}", 10, FL_T_CONSOLE);
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
}

static void test_messages(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"def m\n"                                                    /* 1 */
		"  raise 'single \\' quoted \\n kept'\n"                     /* 2 */
		"  raise \"dq \\t tab \\\\ \\u00e9 \\s.\"\n"                 /* 3 */
		"  raise format(\"%s failed 100%%\", x)\n"                   /* 4 */
		"  raise KeyError, %Q{key #{k} {nested}}\n"                  /* 5 */
		"  raise KeyError, %q(paren (nested) ok)\n"                  /* 6 */
		"  raise \"not found: \" + id.to_s\n"                        /* 7 */
		"  raise \"a\" \\\n"                                          /* 8 */
		"    \"b\"\n"                                                /* 9 */
		"  raise ArgumentError, <<~MSG\n"                            /* 10 */
		"    first line #{x}\n"                                      /* 11 */
		"      second line\n"                                        /* 12 */
		"  MSG\n"                                                    /* 13 */
		"  raise \"x: %d%%\" % [n]\n"                                 /* 14 */
		"  raise \"nested #{h[\"}\"]} done\"\n"                      /* 15 */
		"end\n");
	EXPECT_SITE(s, "single ' quoted \\n kept", 2, FL_T_EXCEPTION);
	EXPECT_SITE(s, "dq \t tab \\ \xc3\xa9  .", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "%s failed 100%", 4, FL_T_EXCEPTION);
	EXPECT_SITE(s, "key {k} {nested}", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "paren (nested) ok", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "not found: {id}", 7, FL_T_EXCEPTION);
	EXPECT_SITE(s, "ab", 8, FL_T_EXCEPTION);
	EXPECT_SITE(s, "first line {x}\n  second line", 10, FL_T_EXCEPTION);
	EXPECT_SITE(s, "x: %d%", 14, FL_T_EXCEPTION);
	EXPECT_SITE(s, "nested {h[\"}\"]} done", 15, FL_T_EXCEPTION);
	assert_int_equal(s->n, 10);
	fl_sites_free(s);
}

static void test_traps(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"# raise \"in comment\"\n"
		"=begin\n"
		"raise \"in block comment\"\n"
		"=end\n"
		"def t\n"
		"  s = \"raise 'in string'\"\n"
		"  r = /raise \"in regex\"/i\n"
		"  q = %q(raise \"in percent\")\n"
		"  w = %w[raise fail abort]\n"
		"  c = ?\"\n"
		"  d = $\"\n"
		"  sym = :\"raise 'sym'\"\n"
		"  x = <<~A + <<-B\n"
		"    raise \"in heredoc A\"\n"
		"  A\n"
		"    raise \"in heredoc B\"\n"
		"    B\n"
		"  y = a / b; z = c / d\n"
		"  raise \"real\" # raise \"after\"\n"
		"end\n"
		"__END__\n"
		"raise \"after end\"\n");
	EXPECT_SITE(s, "real", 19, FL_T_EXCEPTION);
	assert_int_equal(s->n, 1);
	fl_sites_free(s);
}

static void test_guards(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"class A\n"                                /* 1 */
		"  class << self\n"                        /* 2 */
		"    def build(x)\n"                       /* 3 */
		"      unless x\n"                         /* 4 */
		"        raise \"no x\"\n"                 /* 5 */
		"      end\n"                              /* 6 */
		"      case x\n"                           /* 7 */
		"      when :a then raise \"arm a\"\n"     /* 8 */
		"      when :b\n"                          /* 9 */
		"        raise \"arm b\"\n"                /* 10 */
		"      end\n"                              /* 11 */
		"      while x do\n"                       /* 12 */
		"        raise \"in loop\"\n"              /* 13 */
		"      end\n"                              /* 14 */
		"      items.each do |i|\n"                /* 15 */
		"        raise \"in block\"\n"             /* 16 */
		"      end\n"                              /* 17 */
		"      y = x if x\n"                       /* 18 */
		"      raise \"after modifier\"\n"         /* 19 */
		"    end\n"                                /* 20 */
		"  end\n"                                  /* 21 */
		"  def inst = raise(\"endless\")\n"        /* 22 */
		"  def after\n"                            /* 23 */
		"    raise \"after\"\n"                    /* 24 */
		"  end\n"                                  /* 25 */
		"end\n");                                  /* 26 */
	const fl_site *x = EXPECT_SITE(s, "no x", 5, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!x");
	harness_expect_str(x->function, "A.build");
	/* a symbol is compared with ==: the arm reads as a comparison */
	x = EXPECT_SITE(s, "arm a", 8, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "x == :a");
	assert_false(x->arm);
	x = EXPECT_SITE(s, "arm b", 10, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "x == :b");
	x = EXPECT_SITE(s, "in loop", 13, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "x");
	x = EXPECT_SITE(s, "in block", 16, FL_T_EXCEPTION);
	assert_null(x->guard);
	x = EXPECT_SITE(s, "after modifier", 19, FL_T_EXCEPTION);
	assert_null(x->guard);
	harness_expect_str(x->function, "A.build");
	EXPECT_SITE(s, "endless", 22, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "after", 24, FL_T_EXCEPTION);
	harness_expect_str(x->function, "A#after");
	fl_sites_free(s);
}

/* real-project finding (rack): fail(status, body) is the project's own
 * HTTP reply, not Kernel#fail */
static void test_fail_status(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"class Files\n"                                               /* 1 */
		"  def get(env)\n"                                            /* 2 */
		"    return fail(405, \"Method Not Allowed\", {'allow' => x}) unless ok\n" /* 3 */
		"    return fail(400, \"Bad Request\") unless valid\n"       /* 4 */
		"    fail(200, \"fine\")\n"                                  /* 5 */
		"    fail 3\n"                                                /* 6 */
		"  end\n"                                                     /* 7 */
		"end\n");
	const fl_site *x = EXPECT_SITE(s, "Method Not Allowed", 3, FL_T_HTTP);
	assert_int_equal(x->http, 405);
	assert_null(x->cls);
	assert_string_equal(x->severity, FL_S_WARNING);
	x = EXPECT_SITE(s, "Bad Request", 4, FL_T_HTTP);
	assert_int_equal(x->http, 400);
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

/* A heredoc with .strip_heredoc / .squish / .strip: the message as the
 * program prints it. */
static void test_heredoc_shapes(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"class S\n"                                                          /* 1 */
		"  def a(action)\n"                                                  /* 2 */
		"    raise NotImplementedError, <<-MESSAGE.strip_heredoc\n"          /* 3 */
		"      No sanitizer for '#{action}'.\n"                              /* 4 */
		"        Define one with permit.\n"                                  /* 5 */
		"    MESSAGE\n"                                                      /* 6 */
		"  end\n"                                                            /* 7 */
		"  def b\n"                                                          /* 8 */
		"    raise ArgumentError, <<~MSG.squish\n"                           /* 9 */
		"      The value is\n"                                               /* 10 */
		"      not   valid here.\n"                                          /* 11 */
		"    MSG\n"                                                          /* 12 */
		"  end\n"                                                            /* 13 */
		"  def c\n"                                                          /* 14 */
		"    raise ArgumentError, \"  padded message  \".strip\n"           /* 15 */
		"  end\n"                                                            /* 16 */
		"end\n");
	EXPECT_SITE(s, "No sanitizer for '{action}'.\n  Define one with permit.", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "The value is not valid here.", 9, FL_T_EXCEPTION);
	EXPECT_SITE(s, "padded message", 15, FL_T_EXCEPTION);
	fl_sites_free(s);
}

/* An exception class with a message of its own (super "..." in
 * initialize, a default parameter passed to super, def message): a record,
 * and a raise of the class without a message gets it. */
static void test_class_default_messages(void **state)
{
	(void)state;
	const char *errors_rb =
		"module Devise\n"                                                   /* 1 */
		"  class MissingWarden < StandardError\n"                           /* 2 */
		"    def initialize\n"                                              /* 3 */
		"      super \"Devise could not find the Warden proxy.\"\n"          /* 4 */
		"    end\n"                                                         /* 5 */
		"  end\n"                                                           /* 6 */
		"  class QuotaError < StandardError\n"                              /* 7 */
		"    def initialize(msg = \"The quota is exceeded\")\n"              /* 8 */
		"      super\n"                                                     /* 9 */
		"    end\n"                                                         /* 10 */
		"  end\n"                                                           /* 11 */
		"  class LockedError < StandardError\n"                             /* 12 */
		"    def message\n"                                                 /* 13 */
		"      \"The account is locked\"\n"                                 /* 14 */
		"    end\n"                                                         /* 15 */
		"  end\n"                                                           /* 16 */
		"  class Widget\n"                                                  /* 17 */
		"    def initialize\n"                                              /* 18 */
		"      super \"not an exception class\"\n"                           /* 19 */
		"    end\n"                                                         /* 20 */
		"  end\n"                                                           /* 21 */
		"  class PathError < StandardError\n"                               /* 22 */
		"    def initialize(path, msg = \"unused default\")\n"               /* 23 */
		"      super(\"Bad path #{path}\")\n"                                /* 24 */
		"    end\n"                                                         /* 25 */
		"  end\n"                                                           /* 26 */
		"end\n";
	fl_sites *s = scan_rb(errors_rb);
	const fl_site *x = EXPECT_SITE(s, "Devise could not find the Warden proxy.", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "MissingWarden");
	harness_expect_str(x->idiom, "class constructor initialize super");
	x = EXPECT_SITE(s, "The quota is exceeded", 8, FL_T_EXCEPTION);
	harness_expect_str(x->idiom, "class constructor initialize");
	x = EXPECT_SITE(s, "The account is locked", 14, FL_T_EXCEPTION);
	harness_expect_str(x->idiom, "class method message");
	EXPECT_SITE(s, "Bad path {path}", 24, FL_T_EXCEPTION);
	assert_null(harness_find(s, "not an exception class"));
	assert_null(harness_find(s, "unused default")); /* not passed on */
	fl_sites_free(s);

	const char *use_rb =
		"class Gate\n"                                                      /* 1 */
		"  def go(env)\n"                                                   /* 2 */
		"    env['warden'] or raise MissingWarden\n"                        /* 3 */
		"    raise Devise::QuotaError if env[:n] > 10\n"                    /* 4 */
		"    raise QuotaError, \"custom text here\"\n"                       /* 5 */
		"    raise LockedError.new\n"                                       /* 6 */
		"    raise UnknownError\n"                                          /* 7 */
		"  end\n"                                                           /* 8 */
		"end\n";
	fl_src files[] = {{"lib/devise/errors.rb", errors_rb, strlen(errors_rb), NULL},
			  {"lib/devise/gate.rb", use_rb, strlen(use_rb), NULL}};
	s = harness_scan_tree(&fl_lang_ruby, files, 2, 1);
	EXPECT_SITE(s, "Devise could not find the Warden proxy.", 3, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "The quota is exceeded", 4, FL_T_EXCEPTION);
	assert_string_equal(x->cls, "Devise::QuotaError");
	EXPECT_SITE(s, "custom text here", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "The account is locked", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "UnknownError", 7, FL_T_EXCEPTION); /* the class name, as before */
	fl_sites_free(s);
}

/* loggers and Kernel#warn: console records with a literal message (a
 * variable or a call has no text of its own) */
static void test_logging(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"class Mgr\n"                                                          /* 1 */
		"  def stop(cleanup)\n"                                                /* 2 */
		"    logger.warn { \"Terminating #{cleanup.size} busy threads\" }\n"   /* 3 */
		"    Rails.logger.error(\"Could not load #{path}\") if path\n"         /* 4 */
		"    @logger.fatal \"Redis is gone\"\n"                                /* 5 */
		"    logger.error(e)\n"                                                /* 6 */
		"    logger.error e.message\n"                                         /* 7 */
		"    warn \"DEPRECATION: use perform_async\"\n"                        /* 8 */
		"    $stderr.puts \"Unable to read #{file}\"\n"                        /* 9 */
		"    STDERR.puts e.backtrace.join(\"\\n\")\n"                         /* 10 */
		"    cli.logger.warn <<~EOM\n"                                         /* 11 */
		"      Your config is old.\n"
		"      Update it.\n"
		"    EOM\n"
		"    warn = 3\n"                                                       /* 15 */
		"    record.warn(\"not a logger\")\n"                                  /* 16 */
		"  end\n"
		"  def warn(x); end\n"
		"end\n");
	const fl_site *x = EXPECT_SITE(s, "Terminating {cleanup.size} busy threads", 3, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_string_equal(x->idiom, "logger.warn");
	x = EXPECT_SITE(s, "Could not load {path}", 4, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_string_equal(x->guard, "path");
	x = EXPECT_SITE(s, "Redis is gone", 5, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_CRITICAL);
	EXPECT_SITE(s, "DEPRECATION: use perform_async", 8, FL_T_CONSOLE);
	EXPECT_SITE(s, "Your config is old.\nUpdate it.", 11, FL_T_CONSOLE);
	/* $stderr.puts prints usage and progress as often as errors */
	assert_null(harness_find(s, "Unable to read {file}"));
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
}

/* A print in a `rescue` clause is the program's report of what it caught
 * (rake's `Failed to remove #{file_name}: #{ex}`), with its modifier's
 * guard; a print elsewhere stays normal output. */
static void test_print_in_rescue(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"module Rake\n"                                                         /* 1 */
		"  def cleanup(file_name)\n"                                            /* 2 */
		"    begin\n"                                                           /* 3 */
		"      rm_r file_name\n"                                                /* 4 */
		"      puts \"Removed #{file_name}\"\n"                                  /* 5 */
		"    rescue StandardError => ex\n"                                      /* 6 */
		"      puts \"Failed to remove #{file_name}: #{ex}\" unless gone?(file_name)\n" /* 7 */
		"    end\n"                                                             /* 8 */
		"  end\n"                                                               /* 9 */
		"  def load(fn)\n"                                                      /* 10 */
		"    read(fn)\n"                                                        /* 11 */
		"  rescue Errno::ENOENT => e\n"                                         /* 12 */
		"    $stderr.puts \"Error while processing '#{fn}': #{e}\"\n"           /* 13 */
		"  end\n"                                                               /* 14 */
		"end\n");
	const fl_site *x = EXPECT_SITE(s, "Failed to remove {file_name}: {ex}", 7, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_ERROR);
	assert_string_equal(x->idiom, "puts in rescue");
	assert_string_equal(x->guard, "!gone?(file_name)");
	x = EXPECT_SITE(s, "Error while processing '{fn}': {e}", 13, FL_T_CONSOLE);
	assert_string_equal(x->idiom, "$stderr.puts in rescue");
	assert_null(harness_find(s, "Removed {file_name}"));
	fl_sites_free(s);
}

/* A local bound by a block (`|ok, status|`) and then assigned at a line
 * every run to the raise passes holds that text; an `if` expression's
 * arms may be locals and their sums (rake's test task); an assignment
 * under a condition the raise is not under leaves a parameter unknown.  A
 * format held by a local or a constant and given to format() or `%`. */
static void test_rebound_locals(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"module Rake\n"                                                         /* 1 */
		"  def define\n"                                                        /* 2 */
		"    ruby args do |ok, status|\n"                                       /* 3 */
		"      if !ok\n"                                                        /* 4 */
		"        status = \"Command failed with status (#{status.exitstatus})\"\n" /* 5 */
		"        details = \": [ruby #{args}]\"\n"                              /* 6 */
		"        message =\n"                                                   /* 7 */
		"          if verbose\n"                                                /* 8 */
		"            status + details\n"                                        /* 9 */
		"          else\n"                                                      /* 10 */
		"            status\n"                                                  /* 11 */
		"          end\n"                                                       /* 12 */
		"        fail message\n"                                                /* 13 */
		"      end\n"                                                           /* 14 */
		"    end\n"                                                             /* 15 */
		"  end\n"                                                               /* 16 */
		"  def deprecate(message, where)\n"                                     /* 17 */
		"    if where\n"                                                        /* 18 */
		"      message = \"#{message} (called at #{where})\"\n"                 /* 19 */
		"    end\n"                                                             /* 20 */
		"    raise DeprecatedError, \"[REMOVED] #{message}\"\n"                  /* 21 */
		"  end\n"                                                               /* 22 */
		"end\n");
	EXPECT_SITE(s, "Command failed with status ({status.exitstatus})", 13, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Command failed with status ({status.exitstatus}): [ruby {args}]", 13,
		    FL_T_EXCEPTION);
	EXPECT_SITE(s, "[REMOVED] {message}", 21, FL_T_EXCEPTION);
	assert_null(harness_find(s, "[REMOVED] {message} (called at {where})"));
	fl_sites_free(s);
	/* a format a local or the file's constant holds, given to format()
	 * or `%` in the raise (rubocop's options): its text, placeholders
	 * and all; a parameter's format is nothing known */
	s = scan_rb(
		"class Options\n"                                                           /* 1 */
		"  E_LIST = 'cannot list %s here'\n"                                        /* 2 */
		"  E_HINT = \"%<message>s\\nDid you mean? %<c>s\"\n"                        /* 3 */
		"  def validate\n"                                                          /* 4 */
		"    message = '--%<flag>s can only be used together with --auto-gen-config.'\n" /* 5 */
		"    %i[exclude_limit offense_counts].each do |option|\n"                   /* 6 */
		"      if @options.key?(option)\n"                                          /* 7 */
		"        raise OptionArgumentError, format(message, flag: option.to_s)\n"   /* 8 */
		"      end\n"                                                               /* 9 */
		"    end\n"                                                                 /* 10 */
		"    raise ArgumentError, E_LIST % name if @list\n"                         /* 11 */
		"  end\n"                                                                   /* 12 */
		"  def other(fmt)\n"                                                        /* 13 */
		"    raise ArgumentError, format(fmt, 1)\n"                                 /* 14 */
		"  end\n"                                                                   /* 15 */
		"  def check(name)\n"                                                       /* 16 */
		"    raise IncorrectCopNameError, message_from(name) unless known?(name)\n" /* 17 */
		"  end\n"                                                                   /* 18 */
		"  def message_from(name)\n"                                                /* 19 */
		"    message = 'Unrecognized cop or department: %<name>s.'\n"               /* 20 */
		"    if similar(name).empty?\n"                                             /* 21 */
		"      format(message, name: name)\n"                                       /* 22 */
		"    else\n"                                                                /* 23 */
		"      format(E_HINT, message: format(message, name: name), c: x)\n"        /* 24 */
		"    end\n"                                                                 /* 25 */
		"  end\n"                                                                   /* 26 */
		"end\n");
	EXPECT_SITE(s, "--%<flag>s can only be used together with --auto-gen-config.", 8,
		    FL_T_EXCEPTION);
	EXPECT_SITE(s, "cannot list %s here", 11, FL_T_EXCEPTION);
	/* a method's arms: a local's format formatted, a constant's whose
	 * named value has a text of its own (it fills its %<name>s) */
	EXPECT_SITE(s, "Unrecognized cop or department: %<name>s.", 17, FL_T_EXCEPTION);
	EXPECT_SITE(s, "Unrecognized cop or department: %<name>s.\nDid you mean? %<c>s", 17,
		    FL_T_EXCEPTION);
	assert_int_equal(s->n, 4);
	fl_sites_free(s);
}

/* Jekyll's logger takes a topic and a message, `Jekyll.logger.warn
 * "Deprecation:", "msg"`, and logs them on one line: the record is both,
 * not the topic alone (jekyll's "Warning:" stood for a dozen messages); a
 * topic with a variable message is no message; a logger's first argument
 * that is no topic stays the message (SemanticLogger's payload). */
static void test_logger_topic(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"module Jekyll\n"                                                       /* 1 */
		"  def check(site)\n"                                                   /* 2 */
		"    Jekyll.logger.warn \"Deprecation:\",\n"                            /* 3 */
		"                       \"#{label} should be changed to #{label}.docs.\"\n"
		"    Jekyll.logger.warn \"\", \"Called by #{caller(0..0)}.\"\n"         /* 5 */
		"    Jekyll.logger.error \"Liquid Exception:\", format_error(e)\n"      /* 6 */
		"    Jekyll.logger.warn \"Build Warning:\", \"Layout '#{l}' requested \" \\\n" /* 7 */
		"                        \"in #{path} does not exist.\"\n"
		"    logger.error(\"Payment failed\", order_id: id)\n"                  /* 9 */
		"    logger.error(\"Liquid Exception:\")\n"                             /* 10 */
		"  end\n"
		"end\n");
	const fl_site *x = EXPECT_SITE(
		s, "Deprecation: {label} should be changed to {label}.docs.", 3, FL_T_CONSOLE);
	assert_string_equal(x->severity, FL_S_WARNING);
	assert_string_equal(x->idiom, "logger.warn");
	EXPECT_SITE(s, "Called by {caller(0..0)}.", 5, FL_T_CONSOLE);
	EXPECT_SITE(s, "Build Warning: Layout '{l}' requested in {path} does not exist.", 7,
		    FL_T_CONSOLE);
	EXPECT_SITE(s, "Payment failed", 9, FL_T_CONSOLE);
	EXPECT_SITE(s, "Liquid Exception:", 10, FL_T_CONSOLE); /* one argument: as written */
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
}

/* A regex literal inside an interpolation (sinatra's `"#{caller.first[
 * /`.*'/]} condition"`): its backtick and quote open no string, and the
 * rest of the file is still scanned (sinatra lost every site after it). */
static void test_interp_regex(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"def condition(name = \"#{caller.first[/`.*'/]} condition\", &block)\n" /* 1 */
		"  x = \"#{a / b} and #{c[/\\d+/]} #{h.key?(:k) ? 1 : 2}\"\n"             /* 2 */
		"  raise ArgumentError, \"no condition #{name}\"\n"                       /* 3 */
		"end\n"
		"warn \"== Someone is already performing on port #{port}!\"\n");        /* 5 */
	EXPECT_SITE(s, "no condition {name}", 3, FL_T_EXCEPTION);
	EXPECT_SITE(s, "== Someone is already performing on port {port}!", 5, FL_T_CONSOLE);
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

static void test_is_test_file(void **state)
{
	(void)state;
	assert_true(fl_lang_ruby.is_test_file("spec/models/user_spec.rb"));
	assert_true(fl_lang_ruby.is_test_file("test/user_test.rb"));
	assert_true(fl_lang_ruby.is_test_file("test_user.rb"));
	assert_false(fl_lang_ruby.is_test_file("app/user.rb"));
	assert_false(fl_lang_ruby.is_test_file("app/spec.rb"));
}

static void test_robust(void **state)
{
	(void)state;
	static const char junk[] = "raise \xff\xfe \"\xc3\x28\"\0raise X, \"\0\"\n"
				   "raise \"after\xff junk\"\n";
	fl_sites *s = scan_len(junk, sizeof junk - 1);
	assert_non_null(harness_find(s, "after\xff junk"));
	fl_sites_free(s);
	const char *cases[] = {
		"raise \"unterminated\n",
		"raise \"#{unterminated",
		"=begin\nraise \"x\"\n",
		"x = <<~EOS\nraise \"never ends\"\n",
		"x = %q(never",
		"x = /never",
		"raise '",
		"?",
		":\"",
		"def",
		"class <<",
		"end end end )))]]]",
		"\"#{\"#{\"#{\"#{\"",
		"<<~",
		"<<~''\n",
		"%",
		"$",
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		s = scan_rb(cases[i]);
		fl_sites_free(s);
	}
	s = scan_rb("x = <<~EOS\nraise \"never ends\"\n");
	assert_int_equal(s->n, 0);
	fl_sites_free(s);
	/* 1 MB single line */
	size_t n = 1 << 20;
	char *big = harness_repeat("raise X, \"a\" + b; errors.add(:x", n);
	s = scan_rb(big);
	assert_true(s->n > 0);
	fl_sites_free(s);
	/* 10,000 nested brackets, and nested interpolation */
	size_t depth = 10000;
	size_t k = harness_nest(big, "raise X, (", "([", depth, "\"x\"", ")");
	s = scan_rb(big);
	fl_sites_free(s);
	big[k - 5000] = '\0';
	s = scan_rb(big);
	fl_sites_free(s);
	harness_fill(big, 0, 3 * depth, "\"#{");
	big[3 * depth] = '\0';
	s = scan_rb(big);
	fl_sites_free(s);
	free(big);
}

/* A report in an else's block is guarded by its if's condition, turned:
 * it runs when that condition does not hold (the last elsif of a chain).
 * The else of an unless runs when its condition HOLDS: not turned.  The
 * else of a case or of a begin/rescue takes none. */
static void test_else_guards(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"def load(n, name)\n"                                               /* 1 */
		"  if n == 2\n"                                                     /* 2 */
		"    use(n)\n"                                                      /* 3 */
		"  else\n"                                                          /* 4 */
		"    raise ArgumentError, 'want two arguments'\n"                   /* 5 */
		"  end\n"                                                           /* 6 */
		"  if n > 3\n"                                                      /* 7 */
		"    use(n)\n"                                                      /* 8 */
		"  elsif name.nil?\n"                                               /* 9 */
		"    use(0) if n < 0\n"                                             /* 10 */
		"  else\n"                                                          /* 11 */
		"    raise ArgumentError, 'bad name'\n"                             /* 12 */
		"  end\n"                                                           /* 13 */
		"  unless name.empty?\n"                                            /* 14 */
		"    use(1)\n"                                                      /* 15 */
		"  else\n"                                                          /* 16 */
		"    raise ArgumentError, 'empty name'\n"                           /* 17 */
		"  end\n"                                                           /* 18 */
		"  case name\n"                                                     /* 19 */
		"  when 'a' then use(2)\n"                                          /* 20 */
		"  else\n"                                                          /* 21 */
		"    raise ArgumentError, 'bad mode'\n"                             /* 22 */
		"  end\n"                                                           /* 23 */
		"  begin\n"                                                         /* 24 */
		"    use(3)\n"                                                      /* 25 */
		"  rescue IOError\n"                                                /* 26 */
		"    use(4)\n"                                                      /* 27 */
		"  else\n"                                                          /* 28 */
		"    raise 'no error'\n"                                            /* 29 */
		"  end\n"                                                           /* 30 */
		"end\n");
	const fl_site *x = EXPECT_SITE(s, "want two arguments", 5, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n != 2");
	x = EXPECT_SITE(s, "bad name", 12, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!name.nil?");
	x = EXPECT_SITE(s, "empty name", 17, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "name.empty?");
	/* a case's else: none of its values */
	x = EXPECT_SITE(s, "bad mode", 22, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "name != 'a'");
	assert_false(x->arm);
	x = EXPECT_SITE(s, "no error", 29, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	fl_sites_free(s);
}

/* A case's arms and else: values compared with == read as comparisons
 * (a `when` of several values too); a class, a range or a regex matches
 * with ===, so its arm keeps the pattern and the else is the arm that
 * matched no other; a nested case's values are not the outer one's. */
static void test_case_guards(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"def pick(dir, v)\n"                                    /* 1 */
		"  case dir\n"                                          /* 2 */
		"  when \"home\", \"cache\" then raise 'home or cache'\n" /* 3 */
		"  when :tmp\n"                                         /* 4 */
		"    case v\n"                                          /* 5 */
		"    when 1 then use(v)\n"                              /* 6 */
		"    else raise 'inner'\n"                              /* 7 */
		"    end\n"                                             /* 8 */
		"  when nil, MAX_DIR\n"                                 /* 9 */
		"    use(dir)\n"                                        /* 10 */
		"  else\n"                                              /* 11 */
		"    raise \"unknown #{dir}\"\n"                        /* 12 */
		"  end\n"                                               /* 13 */
		"  case v\n"                                            /* 14 */
		"  when String then use(v)\n"                           /* 15 */
		"  when 1..3 then raise 'small'\n"                      /* 16 */
		"  else raise 'neither'\n"                              /* 17 */
		"  end\n"                                               /* 18 */
		"  case\n"                                              /* 19 */
		"  when v > 3 then use(v)\n"                            /* 20 */
		"  else raise 'no subject'\n"                           /* 21 */
		"  end\n"                                               /* 22 */
		"end\n");
	const fl_site *x = EXPECT_SITE(s, "home or cache", 3, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "dir == \"home\" || dir == \"cache\"");
	x = EXPECT_SITE(s, "inner", 7, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "v != 1");
	x = EXPECT_SITE(s, "unknown {dir}", 12, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "dir != \"home\" && dir != \"cache\" && dir != :tmp && "
				     "dir != nil && dir != MAX_DIR");
	assert_false(x->arm);
	x = EXPECT_SITE(s, "small", 16, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "1..3");
	assert_true(x->arm);
	x = EXPECT_SITE(s, "neither", 17, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "_");
	assert_true(x->arm);
	x = EXPECT_SITE(s, "no subject", 21, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "_");
	assert_true(x->arm);
	fl_sites_free(s);
}

/* An if (or else) right inside another if's block is guarded by both
 * conditions (fl_guard_nest); not inside a while's. */
static void test_nested_guards(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"class Loader\n"                                             /* 1 */
		"  def load(name, force)\n"                                  /* 2 */
		"    unless force\n"                                         /* 3 */
		"      if File.exist?(name)\n"                               /* 4 */
		"        raise ArgumentError, \"already exists\"\n"          /* 5 */
		"      else\n"                                               /* 6 */
		"        raise ArgumentError, \"no such dir\"\n"             /* 7 */
		"      end\n"                                                /* 8 */
		"      raise ArgumentError, \"empty name\" if name.empty?\n" /* 9 */
		"    end\n"                                                  /* 10 */
		"    while force\n"                                          /* 11 */
		"      raise ArgumentError, \"in while\" if name.nil?\n"     /* 12 */
		"    end\n"                                                  /* 13 */
		"  end\n"                                                    /* 14 */
		"end\n");
	const fl_site *x5 = EXPECT_SITE(s, "already exists", 5, FL_T_EXCEPTION);
	harness_expect_str(x5->guard, "!force and File.exist?(name)");
	const fl_site *x7 = EXPECT_SITE(s, "no such dir", 7, FL_T_EXCEPTION);
	harness_expect_str(x7->guard, "!force and !File.exist?(name)");
	const fl_site *x9 = EXPECT_SITE(s, "empty name", 9, FL_T_EXCEPTION);
	harness_expect_str(x9->guard, "!force and name.empty?");
	const fl_site *x12 = EXPECT_SITE(s, "in while", 12, FL_T_EXCEPTION);
	harness_expect_str(x12->guard, "name.nil?");
	fl_sites_free(s);
}

/* A logger given the message through a method that dresses it, called
 * without parentheses or with them (asciidoctor's `logger.warn
 * message_with_context %(...), source_location: cursor`), and a
 * %-literal right after a method's name; a key (one word) is no text, and
 * `a.size % 2` stays a remainder. */
static void test_dressed_log_messages(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"class Reader\n"                                                                        /* 1 */
		"  def read_block(context, terminator)\n"                                                /* 2 */
		"    if terminator\n"                                                                    /* 3 */
		"      logger.warn message_with_context %(unterminated #{context} block), source_location: cursor\n" /* 4 */
		"    end\n"                                                                              /* 5 */
		"    logger.error message_with_context(%(include file not found: #{path}), source_location: cursor)\n" /* 6 */
		"    logger.warn %(dropped line with missing attribute: #{name})\n"                      /* 7 */
		"    logger.warn translate \"errors.missing\"\n"                                          /* 8 */
		"    half = lines.size % 2\n"                                                            /* 9 */
		"    logger.warn format_note(half)\n"                                                    /* 10 */
		"  end\n"
		"end\n");
	const fl_site *x = EXPECT_SITE(s, "unterminated {context} block", 4, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->guard, "terminator");
	x = EXPECT_SITE(s, "include file not found: {path}", 6, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	EXPECT_SITE(s, "dropped line with missing attribute: {name}", 7, FL_T_CONSOLE);
	assert_null(harness_find_line(s, 8));
	assert_null(harness_find_line(s, 10));
	fl_sites_free(s);
	/* a local holding the message, dressed or not; a character literal
	 * after a predicate (`text.include? ?'`) opens no string */
	s = scan_rb(
		"class Parser\n"                                                              /* 1 */
		"  def parse_manpage(reader, text)\n"                                         /* 2 */
		"    quoted = (text.include? ?') || (text.include? ?\")\n"                     /* 3 */
		"    unless reader.has_more_lines?\n"                                         /* 4 */
		"      error_msg = 'name section expected'\n"                                 /* 5 */
		"    end\n"                                                                   /* 6 */
		"    logger.error message_with_context error_msg, source_location: cursor\n"  /* 7 */
		"    msg = 'plain local message here'\n"                                      /* 8 */
		"    logger.warn msg\n"                                                       /* 9 */
		"    logger.warn result\n"                                                    /* 10 */
		"    Jekyll.logger.abort_with \"Conflict:\", \"#{path} already exists.\"\n"   /* 11 */
		"  end\n"
		"end\n");
	EXPECT_SITE(s, "name section expected", 7, FL_T_CONSOLE);
	EXPECT_SITE(s, "plain local message here", 9, FL_T_CONSOLE);
	assert_null(harness_find_line(s, 10));
	/* Jekyll's logger.abort_with logs the error and exits */
	const fl_site *y = EXPECT_SITE(s, "Conflict: {path} already exists.", 11, FL_T_CONSOLE);
	harness_expect_str(y->severity, FL_S_CRITICAL);
	fl_sites_free(s);
}

/* A lint rule's offenses (RuboCop's cop API): add_offense reports its
 * message: a constant, format(CONST, ...), a local holding a method's
 * format(MSG, ...), the file's `message` method (each constant it returns,
 * and an interpolation of them), else MSG */
static void test_lint_offenses(void **state)
{
	(void)state;
	fl_sites *s = scan_rb(
		"class RedundantReturn < Base\n"                                           /* 1 */
		"  MSG = 'Redundant `return` detected.'\n"                                 /* 2 */
		"  MULTI_MSG = 'To return multiple values, use an array.'\n"               /* 3 */
		"  MSG_MISSING = 'Missing frozen string literal comment.'.freeze\n"        /* 4 */
		"  def on_return(node)\n"                                                  /* 5 */
		"    add_offense(node.loc.keyword, message: message(node)) do |c|\n"       /* 6 */
		"    end\n"                                                                /* 7 */
		"    add_offense(node, message: MSG_MISSING)\n"                            /* 8 */
		"    add_global_offense(format(MULTI_MSG, source: node.source))\n"         /* 9 */
		"  end\n"                                                                  /* 10 */
		"  def message(node)\n"                                                    /* 11 */
		"    if node.children.size > 1\n"                                          /* 12 */
		"      \"#{MSG} #{MULTI_MSG}\"\n"                                          /* 13 */
		"    else\n"                                                               /* 14 */
		"      MSG\n"                                                              /* 15 */
		"    end\n"                                                                /* 16 */
		"  end\n"                                                                  /* 17 */
		"end\n");
	const fl_site *x = EXPECT_SITE(s, "Redundant `return` detected. To return multiple values, use an array.", 6,
				       FL_T_VALIDATION);
	harness_expect_str(x->idiom, "lint offense");
	EXPECT_SITE(s, "Redundant `return` detected.", 6, FL_T_VALIDATION);
	EXPECT_SITE(s, "Missing frozen string literal comment.", 8, FL_T_VALIDATION);
	EXPECT_SITE(s, "To return multiple values, use an array.", 9, FL_T_VALIDATION);
	fl_sites_free(s);
	s = scan_rb(
		"class UselessAssignment < Base\n"                                         /* 1 */
		"  MSG = 'Useless assignment to variable - `%<variable>s`.'\n"             /* 2 */
		"  def check(variable)\n"                                                  /* 3 */
		"    message = message_for(variable)\n"                                    /* 4 */
		"    add_offense(location, message: message)\n"                            /* 5 */
		"  end\n"                                                                  /* 6 */
		"  def message_for(variable)\n"                                            /* 7 */
		"    format(MSG, variable: variable.name) + extra(variable).to_s\n"        /* 8 */
		"  end\n"                                                                  /* 9 */
		"end\n");
	EXPECT_SITE(s, "Useless assignment to variable - `%<variable>s`.", 5, FL_T_VALIDATION);
	fl_sites_free(s);
	/* a raise of a constant the file assigns a text */
	s = scan_rb(
		"module Clusivity\n"                                                      /* 1 */
		"  ERROR_MESSAGE = \"An object with the method #include? is required, \" \\\n" /* 2 */
		"                  \"and must be supplied as the :in option\"\n"           /* 3 */
		"  def check!\n"                                                          /* 4 */
		"    raise ArgumentError, ERROR_MESSAGE unless delimiter\n"               /* 5 */
		"  end\n"                                                                 /* 6 */
		"end\n");
	EXPECT_SITE(s, "An object with the method #include? is required, and must be supplied as the :in option",
		    5, FL_T_EXCEPTION);
	fl_sites_free(s);
	/* a coloured text is its text: Rainbow(x).red, rainbow.wrap(x).yellow */
	s = scan_rb(
		"def run\n"                                                                /* 1 */
		"  warn Rainbow(\"#{DOTFILE} already exists at #{path}\").red\n"         /* 2 */
		"  warn rainbow.wrap(\"#{old} is deprecated; use #{new} instead.\").yellow\n" /* 3 */
		"  message = Rainbow(<<~MESSAGE).red\n"                                    /* 4 */
		"    Error: Both safe and unsafe options are given.\n"                     /* 5 */
		"  MESSAGE\n"                                                              /* 6 */
		"  raise OptionArgumentError, message\n"                                   /* 7 */
		"end\n");
	EXPECT_SITE(s, "{DOTFILE} already exists at {path}", 2, FL_T_CONSOLE);
	EXPECT_SITE(s, "{old} is deprecated; use {new} instead.", 3, FL_T_CONSOLE);
	EXPECT_SITE(s, "Error: Both safe and unsafe options are given.", 7, FL_T_EXCEPTION);
	fl_sites_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_guards),
		cmocka_unit_test(test_lint_offenses),
		cmocka_unit_test(test_dressed_log_messages),
		cmocka_unit_test(test_raise_forms),
		cmocka_unit_test(test_helper_call_texts),
		cmocka_unit_test(test_else_guards),
		cmocka_unit_test(test_case_guards),
		cmocka_unit_test(test_abort_errors),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_guards),
		cmocka_unit_test(test_fail_status),
		cmocka_unit_test(test_heredoc_shapes),
		cmocka_unit_test(test_class_default_messages),
		cmocka_unit_test(test_logging),
		cmocka_unit_test(test_logger_topic),
		cmocka_unit_test(test_interp_regex),
		cmocka_unit_test(test_print_in_rescue),
		cmocka_unit_test(test_rebound_locals),
		cmocka_unit_test(test_is_test_file),
		cmocka_unit_test(test_robust),
	};
	return cmocka_run_group_tests_name("ruby", tests, NULL, NULL);
}
