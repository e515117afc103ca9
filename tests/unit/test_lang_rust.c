/* test_lang_rust.c — unit tests for the Rust family (lib/scan/rust/) */
#include <stdlib.h>

#include "lang_harness.h"

extern const fl_lang fl_lang_rust;

static fl_sites *scan(const char *text)
{
	return harness_scan(&fl_lang_rust, "src/lib.rs", text);
}

static void test_panics(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn parse(x: u32) -> u32 {\n"                          /* 1 */
		"    if x > 10 {\n"                                     /* 2 */
		"        panic!(\"too big: {} ({{x}})\", x);\n"         /* 3 */
		"    }\n"                                               /* 4 */
		"    match x {\n"                                       /* 5 */
		"        0 => unreachable!(\"zero is filtered: {x}\"),\n" /* 6 */
		"        1 | 2 => { todo!(\"small {}\", x) }\n"          /* 7 */
		"        _ => unimplemented!(\"other\"),\n"              /* 8 */
		"    }\n"                                               /* 9 */
		"    assert!(x < 5, \"x must be < 5, got {}\", x);\n"   /* 10 */
		"    assert_eq!(x, 3, \"x is {x}\");\n"                 /* 11 */
		"    debug_assert!(x != 0);\n"                          /* 12 */
		"    panic!(msg);\n"                                    /* 13 */
		"    todo!();\n"                                        /* 14 */
		"    x\n}\n");
	assert_int_equal(s->n, 6);
	const fl_site *p = EXPECT_SITE(s, "too big: {} ({x})", 3, FL_T_PANIC);
	assert_string_equal(p->severity, FL_S_CRITICAL);
	assert_int_equal(p->col, 9);
	harness_expect_str(p->function, "parse");
	harness_expect_str(p->guard, "x > 10");
	assert_false(p->arm);
	harness_expect_str(p->idiom, "panic!");
	p = EXPECT_SITE(s, "zero is filtered: {x}", 6, FL_T_PANIC);
	harness_expect_str(p->guard, "0");
	harness_expect_str(p->idiom, "unreachable!");
	p = EXPECT_SITE(s, "small {}", 7, FL_T_PANIC);
	harness_expect_str(p->guard, "1 | 2");
	assert_true(p->arm); /* a match arm's pattern, not a condition */
	p = EXPECT_SITE(s, "other", 8, FL_T_PANIC);
	harness_expect_str(p->guard, "_");
	/* an assertion's guard: when it fires */
	p = EXPECT_SITE(s, "x must be < 5, got {}", 10, FL_T_PANIC);
	harness_expect_str(p->guard, "x >= 5");
	p = EXPECT_SITE(s, "x is {x}", 11, FL_T_PANIC);
	harness_expect_str(p->guard, "x != 3");
	fl_sites_free(s);
}

static void test_expect_and_methods(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"struct Parser { buf: Vec<u8> }\n"                                      /* 1 */
		"impl Parser {\n"                                                       /* 2 */
		"    pub fn parse(&self) -> Result<u32, String> {\n"                    /* 3 */
		"        let f = std::fs::File::open(&self.path).expect(\"open config\");\n" /* 4 */
		"        let v = self.map.get(&k)\n"                                    /* 5 */
		"            .expect(\"key present\");\n"                               /* 6 */
		"        let n: u32 = \"42\".parse::<u32>().expect(\"number\");\n"     /* 7 */
		"        let c = || { None::<u8>.expect(\"in closure\") };\n"          /* 8 */
		"        Err(\"plain error\".into())\n"                                 /* 9 */
		"    }\n"                                                               /* 10 */
		"}\n"                                                                   /* 11 */
		"impl<T: Clone> fmt::Display for Wrapper<T> {\n"                        /* 12 */
		"    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"          /* 13 */
		"        Err(format!(\"bad {} {{}}\", 1))?;\n"                          /* 14 */
		"        return Err(String::from(\"from string\"));\n"                  /* 15 */
		"    }\n"                                                               /* 16 */
		"}\n"                                                                   /* 17 */
		"fn free() { x.unwrap(); Err(e)?; }\n");                                /* 18 */
	const fl_site *p = EXPECT_SITE(s, "open config", 4, FL_T_PANIC);
	harness_expect_str(p->guard, "std::fs::File::open(&self.path)");
	harness_expect_str(p->function, "Parser::parse");
	harness_expect_str(p->idiom, ".expect");
	p = EXPECT_SITE(s, "key present", 6, FL_T_PANIC);
	harness_expect_str(p->guard, "self.map.get(&k)");
	p = EXPECT_SITE(s, "number", 7, FL_T_PANIC);
	harness_expect_str(p->guard, "\"42\".parse::<u32>()");
	p = EXPECT_SITE(s, "in closure", 8, FL_T_PANIC);
	harness_expect_str(p->function, "Parser::parse");
	p = EXPECT_SITE(s, "plain error", 9, FL_T_EXCEPTION);
	harness_expect_str(p->cls, NULL);
	p = EXPECT_SITE(s, "bad {} {}", 14, FL_T_EXCEPTION);
	harness_expect_str(p->function, "Wrapper::fmt");
	EXPECT_SITE(s, "from string", 15, FL_T_EXCEPTION);
	assert_int_equal(s->n, 7);
	fl_sites_free(s);
}

static void test_anyhow_io(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"use anyhow::{bail, ensure};\n"                                         /* 1 */
		"fn load(p: &str) -> anyhow::Result<()> {\n"                            /* 2 */
		"    if p.is_empty() { bail!(\"empty path\"); }\n"                      /* 3 */
		"    ensure!(p.len() < 10, \"path too long: {}\", p);\n"                /* 4 */
		"    let e = anyhow::anyhow!(\"wrapped {p}\");\n"                       /* 5 */
		"    let e2 = eyre!(\"eyre {}\", 1);\n"                                 /* 6 */
		"    let e3 = format_err!(\"fmt err\");\n"                              /* 7 */
		"    let io = io::Error::new(ErrorKind::NotFound, \"no such file\");\n" /* 8 */
		"    let io2 = std::io::Error::other(format!(\"other {}\", p));\n"      /* 9 */
		"    return Err(MyError::new(\"custom\"));\n"                           /* 10 */
		"    bail!(MyError::Bad);\n"                                            /* 11 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "empty path", 3, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "p.is_empty()");
	harness_expect_str(p->idiom, "bail!");
	assert_string_equal(p->severity, FL_S_ERROR);
	EXPECT_SITE(s, "path too long: {}", 4, FL_T_EXCEPTION);
	EXPECT_SITE(s, "wrapped {p}", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "eyre {}", 6, FL_T_EXCEPTION);
	EXPECT_SITE(s, "fmt err", 7, FL_T_EXCEPTION);
	p = EXPECT_SITE(s, "no such file", 8, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "io::Error");
	assert_int_equal(p->col, 14);
	p = EXPECT_SITE(s, "other {}", 9, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "std::io::Error");
	p = EXPECT_SITE(s, "custom", 10, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "MyError");
	assert_int_equal(s->n, 8);
	fl_sites_free(s);
}

static void test_thiserror(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"#[derive(Debug, thiserror::Error)]\n"                  /* 1 */
		"pub enum ConfigError {\n"                              /* 2 */
		"    #[error(\"missing key {0}\")]\n"                   /* 3 */
		"    Missing(String),\n"                                /* 4 */
		"    #[error(\"bad value {value:?} for {key} {{raw}}\")]\n" /* 5 */
		"    BadValue { key: String, value: u32 },\n"           /* 6 */
		"    #[error(transparent)]\n"                           /* 7 */
		"    Io(#[from] std::io::Error),\n"                     /* 8 */
		"}\n"                                                   /* 9 */
		"#[derive(Debug, Error)]\n"                             /* 10 */
		"#[error(\"parse failed at {line}\")]\n"                /* 11 */
		"pub struct ParseError { line: usize }\n");             /* 12 */
	const fl_site *p = EXPECT_SITE(s, "missing key {0}", 3, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ConfigError::Missing");
	p = EXPECT_SITE(s, "bad value {value:?} for {key} {raw}", 5, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ConfigError::BadValue");
	p = EXPECT_SITE(s, "parse failed at {line}", 11, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ParseError");
	assert_int_equal(s->n, 3);
	fl_sites_free(s);
}

/* an error type's hand-written Display: each arm's message, the arm's
 * variant as its class (serde_json's ErrorCode, ripgrep's errors) */
static void test_display_impl(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"impl Display for ErrorCode {\n"                                          /* 1 */
		"    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"            /* 2 */
		"        match self {\n"                                                  /* 3 */
		"            ErrorCode::Message(msg) => f.write_str(msg),\n"              /* 4 */
		"            ErrorCode::EofWhileParsingList => f.write_str(\"EOF while parsing a list\"),\n"
		"            Self::TrailingComma => write!(f, \"trailing comma at {}\", self.pos),\n"
		"            Self::Unknown(name) => {\n"                                  /* 7 */
		"                f.write_str(\"unknown rule `\")?;\n"                     /* 8 */
		"                Debug::fmt(name, f)?;\n"                                 /* 9 */
		"                f.write_str(\"`, expected one of\")\n"                  /* 10 */
		"            }\n"                                                         /* 11 */
		"            Self::Empty => \"the input is empty\",\n"                    /* 12 */
		"            Self::Short => \"a\",\n"                                     /* 13 */
		"        }\n"
		"    }\n"
		"}\n"
		"impl fmt::Display for Error {\n"                                         /* 17 */
		"    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
		"        write!(f, \"{} at line {} column {}\", self.code, self.line, self.col)\n"
		"    }\n"
		"}\n"
		"impl fmt::Display for Color {\n"                                         /* 22 */
		"    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { f.write_str(\"dark red\") }\n"
		"}\n"
		"impl fmt::Display for Warnings {\n"                                      /* 25 */
		"    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"            /* 26 */
		"        match *self {\n"                                                 /* 27 */
		"            Warnings::FastExecutionTime => write!(f, \"Command took less than 5 ms to complete.\"),\n" /* 28 */
		"        }\n"
		"    }\n"
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "EOF while parsing a list", 5, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ErrorCode::EofWhileParsingList");
	harness_expect_str(p->function, "ErrorCode::fmt");
	p = EXPECT_SITE(s, "trailing comma at {}", 6, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ErrorCode::TrailingComma");
	/* writes in a row are one message; the value written between them is
	 * a placeholder */
	p = EXPECT_SITE(s, "unknown rule `{}`, expected one of", 8, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ErrorCode::Unknown");
	p = EXPECT_SITE(s, "the input is empty", 12, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "ErrorCode::Empty");
	/* a warning type's Display: its warnings */
	p = EXPECT_SITE(s, "Command took less than 5 ms to complete.", 28, FL_T_CONSOLE);
	harness_expect_str(p->severity, FL_S_WARNING);
	harness_expect_str(p->cls, "Warnings::FastExecutionTime");
	/* a wrapper of another message, a one-word fragment, and the Display
	 * of a type that is not an error are not records */
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
}

static void test_traps(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"// panic!(\"line comment\");\n"
		"/* panic!(\"block\"); /* nested */ panic!(\"still comment\"); */\n"
		"/// panic!(\"doc comment\")\n"
		"//! bail!(\"inner doc\")\n"
		"/** x.expect(\"doc block\") */\n"
		"fn f() {\n"
		"    let a = \"panic!(\\\"in string\\\")\";\n"
		"    let b = r#\"panic!(\"in raw\") \"# ;\n"
		"    let c = br##\"bail!(\"x\")\"# still\"##;\n"
		"    let d = b\"panic!(\\\"bytes\\\")\";\n"
		"    let e = '\"'; let g = '\\''; let h = b'\"';\n"
		"    let l: &'static str = \"ok\"; 'outer: loop { break 'outer; }\n"
		"    let u = '\\u{1F600}';\n"
		"    panic!(\"after traps\");\n"
		"}\n"
		"#[cfg(test)]\n"
		"mod tests {\n"
		"    #[test]\n"
		"    fn t() { panic!(\"in test mod\"); }\n"
		"}\n"
		"#[test]\n"
		"fn loose() { panic!(\"test fn\"); }\n"
		"#[cfg(not(test))]\n"
		"fn prod() { panic!(\"not test\"); }\n");
	EXPECT_SITE(s, "after traps", 14, FL_T_PANIC);
	EXPECT_SITE(s, "not test", 24, FL_T_PANIC);
	if (s->n != 2)
		harness_dump(s);
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

static void test_messages(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn m() {\n"                                              /* 1 */
		"    panic!(\"tab\\tnl\\nquote\\\" uni \\u{e9} hex \\x41\");\n" /* 2 */
		"    panic!(\"cont \\\n"                                  /* 3 */
		"            inued\");\n"                                 /* 4 */
		"    panic!(r\"raw \\n {{kept}}\");\n"                    /* 5 */
		"    panic!(concat!(\"a\", \"b\", 1));\n"                 /* 6 */
		"    panic!(\n"                                           /* 7 */
		"        \"multi\n"                                       /* 8 */
		"line\");\n"                                              /* 9 */
		"    x.expect(\"no {{fmt}}\");\n"                         /* 10 */
		"    x.expect(&format!(\"fmt {} {{y}}\", 1));\n"          /* 11 */
		"    panic!(\"trailing  \\n\");\n"                        /* 12 */
		"}\n");
	EXPECT_SITE(s, "tab\tnl\nquote\" uni \xc3\xa9 hex A", 2, FL_T_PANIC);
	EXPECT_SITE(s, "cont inued", 3, FL_T_PANIC);
	EXPECT_SITE(s, "raw \\n {kept}", 5, FL_T_PANIC);
	EXPECT_SITE(s, "ab1", 6, FL_T_PANIC);
	EXPECT_SITE(s, "multi\nline", 7, FL_T_PANIC);
	EXPECT_SITE(s, "no {{fmt}}", 10, FL_T_PANIC);
	EXPECT_SITE(s, "fmt {} {y}", 11, FL_T_PANIC);
	EXPECT_SITE(s, "trailing", 12, FL_T_PANIC);
	fl_sites_free(s);
}

static void test_macro_rules_and_closures(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"macro_rules! check {\n"                                  /* 1 */
		"    ($e:expr) => { if !$e { panic!(\"check failed\"); } };\n" /* 2 */
		"}\n"                                                     /* 3 */
		"fn g(v: Option<u8>) -> u8 {\n"                           /* 4 */
		"    v.unwrap_or_else(|| panic!(\"no value\"))\n"         /* 5 */
		"}\n");
	EXPECT_SITE(s, "check failed", 2, FL_T_PANIC);
	const fl_site *p = EXPECT_SITE(s, "no value", 5, FL_T_PANIC);
	harness_expect_str(p->function, "g");
	fl_sites_free(s);
}

static void test_functions_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"trait Store {\n"                                                      /* 1 */
		"    fn get(&self) -> u8 { panic!(\"default get\") }\n"               /* 2 */
		"    fn decl(&self);\n"                                                /* 3 */
		"}\n"                                                                  /* 4 */
		"fn outer() -> impl Fn(u8) {\n"                                        /* 5 */
		"    fn inner() { panic!(\"inner fn\") }\n"                           /* 6 */
		"    let c = |x: u8| { if x > 1 { panic!(\"closure {}\", x) } };\n"   /* 7 */
		"    while let Some(x) = it.next() { panic!(\"loop\") }\n"            /* 8 */
		"    if a { } else if b == 2 { bail!(\"else if\") } else { bail!(\"else\") }\n" /* 9 */
		"    match r { Err(e) => { return Err(format!(\"arm block {}\", e)); } Ok(Foo { a, .. }) => panic!(\"struct pat\") }\n" /* 10 */
		"}\n"                                                                  /* 11 */
		"mod m { pub fn f<T: Into<String>>(t: T) where T: Clone { panic!(\"in mod\") } }\n" /* 12 */
		"impl<'a> Parser<'a> { fn r#try(&self) { panic!(\"raw ident\") } }\n"); /* 13 */
	const fl_site *p = EXPECT_SITE(s, "default get", 2, FL_T_PANIC);
	harness_expect_str(p->function, "Store::get");
	p = EXPECT_SITE(s, "inner fn", 6, FL_T_PANIC);
	harness_expect_str(p->function, "inner");
	p = EXPECT_SITE(s, "closure {}", 7, FL_T_PANIC);
	harness_expect_str(p->function, "outer");
	harness_expect_str(p->guard, "x > 1");
	p = EXPECT_SITE(s, "loop", 8, FL_T_PANIC);
	harness_expect_str(p->guard, "let Some(x) = it.next()");
	p = EXPECT_SITE(s, "else if", 9, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "b == 2");
	p = EXPECT_SITE(s, "else", 9, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "b != 2"); /* the chain's last if, turned */
	p = EXPECT_SITE(s, "arm block {}", 10, FL_T_EXCEPTION);
	/* an Err arm: its scrutinee failed (a None arm: it is None) */
	harness_expect_str(p->guard, "r.is_err()");
	assert_false(p->arm);
	p = EXPECT_SITE(s, "struct pat", 10, FL_T_PANIC);
	harness_expect_str(p->guard, "Ok(Foo { a, .. })");
	p = EXPECT_SITE(s, "in mod", 12, FL_T_PANIC);
	harness_expect_str(p->function, "f");
	p = EXPECT_SITE(s, "raw ident", 13, FL_T_PANIC);
	harness_expect_str(p->function, "Parser::r#try");
	assert_int_equal(s->n, 10);
	fl_sites_free(s);
}

/* real-project findings (cargo, ripgrep): anyhow context, shell warnings,
 * bail!(format!(..)), placeholder-only messages */
static void test_real_context(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn load(p: &Path) -> Result<()> {\n"                                   /* 1 */
		"    let s = fs::read(p).context(\"failed to read report\")?;\n"        /* 2 */
		"    let t = fs::read(p).with_context(|| format!(\"failed to read `{}`\", p.display()))?;\n" /* 3 */
		"    let u = parse(&s).with_context(|| {\n"                             /* 4 */
		"        format!(\"invalid manifest `{p:?}`\")\n"                       /* 5 */
		"    })?;\n"                                                            /* 6 */
		"    gctx.shell().warn(\"the --no-indent flag has been changed\")?;\n"  /* 7 */
		"    anyhow::bail!(format!(\"could not parse `{j}`. 100%\"));\n"        /* 8 */
		"    let e = x.context(msg)?;\n"                                        /* 9 */
		"    let f = x.with_context(|| compute(p))?;\n"                         /* 10 */
		"    let g = tera.context(\"a\", \"b\");\n"                             /* 11 */
		"    Err(anyhow!(\"{}: {}\", a, b))\n"                                   /* 12 */
		"}\n"                                                                    /* 13 */
		"fn f() { Err(format!(\"{err}\")); x.wrap_err(\"io: {}\"); }\n");      /* 14 */
	const fl_site *p = EXPECT_SITE(s, "failed to read report", 2, FL_T_EXCEPTION);
	harness_expect_str(p->idiom, ".context");
	harness_expect_str(p->function, "load");
	/* the context is added when the receiver fails: a Result's Err */
	harness_expect_str(p->guard, "fs::read(p).is_err()");
	p = EXPECT_SITE(s, "failed to read `{}`", 3, FL_T_EXCEPTION);
	harness_expect_str(p->idiom, ".with_context");
	harness_expect_str(p->guard, "fs::read(p).is_err()");
	EXPECT_SITE(s, "invalid manifest `{p:?}`", 4, FL_T_EXCEPTION);
	p = EXPECT_SITE(s, "the --no-indent flag has been changed", 7, FL_T_CONSOLE);
	assert_string_equal(p->severity, FL_S_WARNING);
	/* format! already decoded the braces; bail! does not format again */
	EXPECT_SITE(s, "could not parse `{j}`. 100%", 8, FL_T_EXCEPTION);
	EXPECT_SITE(s, "io: {}", 14, FL_T_EXCEPTION);
	assert_int_equal(s->n, 6);
	fl_sites_free(s);
}

/* an error made when an Option or a Result fails: the receiver's guard,
 * `x.is_none()` for an Option (ok_or, or a receiver ending in an Option
 * method of std) and `x.is_err()` for a Result */
static void test_receiver_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn load(p: &Path, v: &Value) -> Result<String> {\n"                          /* 1 */
		"    let a = v.get(\"name\").context(\"missing field `name`\")?;\n"          /* 2 */
		"    let b = a.as_str().ok_or_else(|| anyhow!(\"`name` must be a string\"))?;\n" /* 3 */
		"    let c = fs::read(p).map_err(|e| anyhow::anyhow!(\"cannot read: {}\", e))?;\n" /* 4 */
		"    let d = s.split_once('=').ok_or(io::Error::new(io::ErrorKind::Other, \"no separator\"))?;\n" /* 5 */
		"    if n > 2 { bail!(\"too many entries\"); }\n"                              /* 6 */
		"    let e = it.next().ok_or_else(move || { format_err!(\"empty list\") })?;\n" /* 7 */
		"    if bad { return Err(err.context(\"while reading the index\")); }\n" /* 8 */
		"    Err(e).with_context(|| \"in the second pass\");\n"                   /* 9 */
		"    builder\n"                                                            /* 10 */
		"        .add(p)\n"                                                        /* 11 */
		"        .map_err(|e| anyhow!(\"bad pattern: {}\", e))?;\n"               /* 12 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "missing field `name`", 2, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "v.get(\"name\").is_none()");
	p = EXPECT_SITE(s, "`name` must be a string", 3, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "a.as_str().is_none()");
	p = EXPECT_SITE(s, "cannot read: {}", 4, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "fs::read(p).is_err()");
	p = EXPECT_SITE(s, "no separator", 5, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "s.split_once('=').is_none()");
	p = EXPECT_SITE(s, "too many entries", 6, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "n > 2");
	p = EXPECT_SITE(s, "empty list", 7, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "it.next().is_none()");
	/* a value that is already an error: its own condition, not a failure */
	p = EXPECT_SITE(s, "while reading the index", 8, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "bad");
	p = EXPECT_SITE(s, "in the second pass", 9, FL_T_EXCEPTION);
	assert_null(p->guard);
	/* a chain broken over lines reads as one */
	p = EXPECT_SITE(s, "bad pattern: {}", 12, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "builder.add(p).is_err()");
	assert_int_equal(s->n, 9);
	fl_sites_free(s);
}

/* the log and tracing crates' error!/warn! (a target or fields before
 * the format string); an error that is only a text, made when an Option
 * or a Result fails (ok_or, ok_or_else, map_err) */
static void test_logs_and_text_errors(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn a(p: &str, v: Vec<u8>) -> Result<(), String> {\n"                      /* 1 */
		"    warn!(\"config file {} is deprecated\", p);\n"                         /* 2 */
		"    log::error!(target: \"net\", \"connection reset by {}\", p);\n"       /* 3 */
		"    tracing::warn!(path = %p, \"lock file is stale\");\n"                 /* 4 */
		"    let n = v.first().copied().ok_or(\"empty input\")?;\n"                /* 5 */
		"    let s = std::str::from_utf8(&v).map_err(|e| format!(\"invalid utf-8: {}\", e))?;\n" /* 6 */
		"    let m = s.parse::<u8>().map_err(|e| e.to_string())?;\n"               /* 7 */
		"    let e = anyhow!(\"index not found\").context(\"while updating\");\n"  /* 8 */
		"    info!(\"all is well\");\n"                                            /* 9 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "config file {} is deprecated", 2, FL_T_CONSOLE);
	harness_expect_str(p->severity, FL_S_WARNING);
	p = EXPECT_SITE(s, "connection reset by {}", 3, FL_T_CONSOLE);
	harness_expect_str(p->severity, FL_S_ERROR);
	EXPECT_SITE(s, "lock file is stale", 4, FL_T_CONSOLE);
	p = EXPECT_SITE(s, "empty input", 5, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "v.first().copied().is_none()");
	p = EXPECT_SITE(s, "invalid utf-8: {}", 6, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "std::str::from_utf8(&v).is_err()");
	EXPECT_SITE(s, "index not found", 8, FL_T_EXCEPTION);
	/* a context added to a macro's error: no failure of its own */
	p = EXPECT_SITE(s, "while updating", 8, FL_T_EXCEPTION);
	assert_null(p->guard);
	assert_int_equal(s->n, 7);
	fl_sites_free(s);
}

/* a match arm with an if of its own: that condition is the guard */
static void test_arm_if(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn handle(cmd: Option<&str>, err: io::Error) -> Result<(), String> {\n" /* 1 */
		"    match (cmd, err) {\n"                                               /* 2 */
		"        (Some(c), e) if e.kind() == io::ErrorKind::NotFound => {\n"      /* 3 */
		"            Err(format!(\"command not found: {}\", c))\n"               /* 4 */
		"        }\n"                                                            /* 5 */
		"        (_, e) => Err(format!(\"problem while executing: {}\", e)),\n"  /* 6 */
		"    }\n"                                                                /* 7 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "command not found: {}", 4, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "e.kind() == io::ErrorKind::NotFound");
	assert_false(p->arm);
	p = EXPECT_SITE(s, "problem while executing: {}", 6, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "(_, e)");
	assert_true(p->arm);
	fl_sites_free(s);
}

/* Err() of a conversion to the error type: From::from, Box::from,
 * Box::new, anyhow::Error::msg around the message */
static void test_err_conversions(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn sep(s: &str) -> Result<(), Box<dyn Error>> {\n"                       /* 1 */
		"    if s.len() > 1 {\n"                                                  /* 2 */
		"        return Err(From::from(format!(\"separator of {} bytes\", s.len())));\n" /* 3 */
		"    }\n"                                                                 /* 4 */
		"    if s.is_empty() { return Err(Box::from(\"empty separator\")); }\n"   /* 5 */
		"    Err(anyhow::Error::msg(format!(\"bad separator {}\", s)))\n"         /* 6 */
		"    let e = ConfigError::new(format!(\"expected a string for `{}`\", k), def);\n" /* 7 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "separator of {} bytes", 3, FL_T_EXCEPTION);
	harness_expect_str(p->guard, "s.len() > 1");
	EXPECT_SITE(s, "empty separator", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "bad separator {}", 6, FL_T_EXCEPTION);
	/* X::new(message, value): the message is the argument that is one */
	EXPECT_SITE(s, "expected a string for `{}`", 7, FL_T_EXCEPTION);
	assert_int_equal(s->n, 4);
	fl_sites_free(s);
}

/* an error of the text a helper of the file returns: the helper's
 * formatted text at the Err / bail! that raises it; not a helper of
 * generics, of two texts, or returning something else */
static void test_err_of_helper_text(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn matcher(p: &str) -> Result<M, Box<dyn Error>> {\n"                /* 1 */
		"    match build(p) {\n"                                              /* 2 */
		"        Ok(m) => Ok(m),\n"                                           /* 3 */
		"        Err(err) => Err(From::from(suggest(err.to_string()))),\n"    /* 4 */
		"    }\n"                                                             /* 5 */
		"}\n"                                                                 /* 6 */
		"fn suggest(msg: String) -> String {\n"                               /* 7 */
		"    if msg.contains(\"literal\") {\n"                                /* 8 */
		"        format!(\"{}\\n\\nConsider the --multiline flag.\", msg)\n"   /* 9 */
		"    } else {\n"                                                      /* 10 */
		"        msg\n"                                                       /* 11 */
		"    }\n"                                                             /* 12 */
		"}\n"                                                                 /* 13 */
		"fn two(msg: String) -> String {\n"                                   /* 14 */
		"    if msg.is_empty() { return format!(\"empty: {}\", msg); }\n"     /* 15 */
		"    format!(\"other: {}\", msg)\n"                                   /* 16 */
		"}\n"                                                                 /* 17 */
		"fn label(msg: String) -> Option<String> { Some(format!(\"label {}\", msg)) }\n" /* 18 */
		"fn run(e: E) -> anyhow::Result<()> {\n"                              /* 19 */
		"    bail!(suggest(e.to_string()));\n"                                /* 20 */
		"    Err(From::from(two(e.to_string())))?;\n"                         /* 21 */
		"    Err(From::from(label(e.to_string())))\n"                         /* 22 */
		"}\n");
	EXPECT_SITE(s, "{}\n\nConsider the --multiline flag.", 4, FL_T_EXCEPTION);
	assert_int_equal(s->n, 2);
	assert_int_equal(s->v[1].line, 20);
	assert_string_equal(s->v[1].message, "{}\n\nConsider the --multiline flag.");
	harness_expect_str(s->v[1].idiom, "bail!");
	fl_sites_free(s);
}

/* real-project findings (serde): serde error-trait constructors and
 * proc-macro diagnostics */
static void test_real_serde(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn de<E: Error>(v: u8) -> Result<(), E> {\n"                                /* 1 */
		"    Err(Error::custom(\"cannot deserialize `!`\"))\n"                        /* 2 */
		"    Err(S::Error::custom(\"lock poison error while serializing\"))\n"        /* 3 */
		"    Error::custom(format_args!(\"duplicate field `{}`\", field))\n"          /* 4 */
		"    E::custom(msg)\n"                                                        /* 5 */
		"    cx.error_spanned_by(item, \"Serde does not support derive for unions\");\n" /* 6 */
		"    cx.error_spanned_by(\n"                                                  /* 7 */
		"        field,\n"                                                            /* 8 */
		"        format!(\"unknown serde field attribute `{}`\", path),\n"            /* 9 */
		"    );\n"                                                                    /* 10 */
		"    cx.error_count(\"not a message\");\n"                                    /* 11 */
		"    syn::Error::new_spanned(x, \"expected a literal\")\n"                    /* 12 */
		"}\n");
	const fl_site *p = EXPECT_SITE(s, "cannot deserialize `!`", 2, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "Error");
	p = EXPECT_SITE(s, "lock poison error while serializing", 3, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "S::Error");
	EXPECT_SITE(s, "duplicate field `{}`", 4, FL_T_EXCEPTION);
	p = EXPECT_SITE(s, "Serde does not support derive for unions", 6, FL_T_EXCEPTION);
	harness_expect_str(p->idiom, ".error_spanned_by");
	EXPECT_SITE(s, "unknown serde field attribute `{}`", 7, FL_T_EXCEPTION);
	assert_null(harness_find(s, "not a message"));
	p = EXPECT_SITE(s, "expected a literal", 12, FL_T_EXCEPTION);
	harness_expect_str(p->cls, "syn::Error");
	assert_int_equal(s->n, 6);
	fl_sites_free(s);
}

/* axum's define_rejection!: `#[status = X]` and `#[body = "..."]` on a
 * struct are an HTTP error with that status and body. */
static void test_status_body_attributes(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"define_rejection! {\n"                                              /* 1 */
		"    #[status = UNPROCESSABLE_ENTITY]\n"                             /* 2 */
		"    #[body = \"Failed to deserialize the JSON body into the target type\"]\n" /* 3 */
		"    #[cfg_attr(docsrs, doc(cfg(feature = \"json\")))]\n"            /* 4 */
		"    /// Rejection type for [`Json`].\n"                             /* 5 */
		"    pub struct JsonDataError(Error);\n"                             /* 6 */
		"}\n"                                                                /* 7 */
		"define_rejection! {\n"                                              /* 8 */
		"    #[body = \"Request method must be `GET`\"]\n"                   /* 9 */
		"    #[status = METHOD_NOT_ALLOWED]\n"                               /* 10 */
		"    pub(crate) struct MethodNotGet;\n"                              /* 11 */
		"}\n"                                                                /* 12 */
		"#[body = \"no status here\"]\n"                                     /* 13 */
		"struct Plain;\n"                                                    /* 14 */
		"#[status = NOT_FOUND]\n"                                            /* 15 */
		"#[body = \"not on a struct\"]\n"                                    /* 16 */
		"fn handler() {}\n");                                               /* 17 */
	const fl_site *x = EXPECT_SITE(s, "Failed to deserialize the JSON body into the target type", 3, FL_T_HTTP);
	assert_int_equal(x->http, 422);
	assert_string_equal(x->cls, "JsonDataError");
	x = EXPECT_SITE(s, "Request method must be `GET`", 9, FL_T_HTTP);
	assert_int_equal(x->http, 405);
	assert_string_equal(x->cls, "MethodNotGet");
	assert_null(harness_find(s, "no status here"));
	assert_null(harness_find(s, "not on a struct"));
	fl_sites_free(s);
}

/* An error variant's message is declared in one file (#[error], an arm of
 * the type's Display) and raised where the variant is built, in another:
 * each construction is a site with that message; a pattern, a comparison
 * or a `use` of the variant is none; a variant two enums of one name
 * declare with different messages is nobody's. */
/* A Display arm whose pattern holds a field as `Some(..)` gives its text
 * only to the values built with that field set: one built with it None
 * prints the other arm's ("{}", no text of its own). */
static void test_variant_arm_fields(void **state)
{
	(void)state;
	fl_sites *s = harness_scan(&fl_lang_rust, "src/lib.rs",
		"impl fmt::Display for Error {\n"                                         /* 1 */
		"    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"            /* 2 */
		"        match *self {\n"                                                 /* 3 */
		"            Error::Glob { glob: None, ref err } => write!(f, \"{}\", err),\n"
		"            Error::Glob { glob: Some(ref glob), ref err } => {\n"         /* 5 */
		"                write!(f, \"error parsing glob '{}': {}\", glob, err)\n" /* 6 */
		"            }\n"                                                         /* 7 */
		"        }\n"                                                             /* 8 */
		"    }\n"                                                                 /* 9 */
		"}\n"                                                                     /* 10 */
		"fn build(s: &str) -> Result<(), Error> {\n"                              /* 11 */
		"    if s.is_empty() {\n"                                                 /* 12 */
		"        return Err(Error::Glob { glob: None, err: \"empty\".into() });\n"  /* 13 */
		"    }\n"                                                                 /* 14 */
		"    Err(Error::Glob { glob: Some(s.into()), err: \"bad\".into() })\n"     /* 15 */
		"}\n");
	const fl_site *x = harness_expect_at(s, 6, "error parsing glob '{}': {}");
	x = harness_expect_at(s, 15, "error parsing glob '{}': {}");
	harness_expect_str(x->cls, "Error::Glob");
	assert_null(harness_find_line(s, 13));
	assert_int_equal(s->n, 2);
	fl_sites_free(s);
}

static void test_variants_built(void **state)
{
	(void)state;
	const char *errors_rs =
		"#[derive(Debug, thiserror::Error)]\n"                         /* 1 */
		"pub enum ConfigError {\n"                                     /* 2 */
		"    #[error(\"missing key {0}\")]\n"                          /* 3 */
		"    Missing(String),\n"                                       /* 4 */
		"    #[error(\"bad value {value} for {key}\")]\n"              /* 5 */
		"    BadValue { key: String, value: u32 },\n"                  /* 6 */
		"    #[error(\"the store is read-only\")]\n"                   /* 7 */
		"    ReadOnly,\n"                                              /* 8 */
		"}\n"                                                          /* 9 */
		"impl fmt::Display for ParseError {\n"                         /* 10 */
		"    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n" /* 11 */
		"        match self {\n"                                       /* 12 */
		"            Self::Eof => f.write_str(\"unexpected end of input\"),\n"
		"            ParseError::Depth(n) => write!(f, \"nested deeper than {}\", n),\n"
		"        }\n"                                                  /* 15 */
		"    }\n"                                                      /* 16 */
		"}\n";
	const char *a_rs =
		"#[derive(thiserror::Error)]\n"
		"enum Error { #[error(\"io failed in a\")] Io }\n";
	const char *b_rs =
		"#[derive(thiserror::Error)]\n"
		"enum Error { #[error(\"io failed in b\")] Io }\n";
	const char *use_rs =
		"use crate::errors::ConfigError::ReadOnly;\n"                  /* 1 */
		"fn get(key: &str) -> Result<u32, ConfigError> {\n"            /* 2 */
		"    if key.is_empty() {\n"                                    /* 3 */
		"        return Err(ConfigError::Missing(key.into()));\n"      /* 4 */
		"    }\n"                                                      /* 5 */
		"    let value = 7;\n"                                         /* 6 */
		"    Err(crate::errors::ConfigError::BadValue { key: key.into(), value })\n"
		"}\n"                                                          /* 8 */
		"fn check(e: ConfigError, p: ParseError) -> bool {\n"          /* 9 */
		"    match e {\n"                                              /* 10 */
		"        ConfigError::Missing(_) => true,\n"                   /* 11 */
		"        ConfigError::BadValue { .. } | ConfigError::ReadOnly => false,\n"
		"    };\n"                                                     /* 13 */
		"    if let ParseError::Depth(_) = p { return true; }\n"       /* 14 */
		"    matches!(p, ParseError::Eof) || p == ParseError::Eof\n"   /* 15 */
		"}\n"                                                          /* 16 */
		"impl ParseError {\n"                                          /* 17 */
		"    fn eof() -> Self { Self::Eof }\n"                         /* 18 */
		"}\n"                                                          /* 19 */
		"fn deep(n: usize) -> Result<(), ParseError> {\n"              /* 20 */
		"    (n < 64).then_some(()).ok_or(ParseError::Depth(n))\n"     /* 21 */
		"}\n"                                                          /* 22 */
		"fn io() -> Error { Error::Io }\n"                             /* 23 */
		"fn ro(w: io::Result<()>) -> Result<(), ConfigError> {\n"      /* 24 */
		"    w.map_err(|_| ConfigError::ReadOnly)\n"                   /* 25 */
		"}\n"                                                          /* 26 */
		"impl Clone for ConfigError {\n"                               /* 27 */
		"    fn clone(&self) -> ConfigError {\n"                       /* 28 */
		"        match *self {\n"                                      /* 29 */
		"            ConfigError::ReadOnly => ConfigError::ReadOnly,\n" /* 30 */
		"            ConfigError::Missing(ref k) => ConfigError::Missing(k.clone()),\n"
		"        }\n"                                                  /* 32 */
		"    }\n"                                                      /* 33 */
		"}\n"                                                          /* 34 */
		"fn keyed(e: ConfigError) -> ConfigError {\n"                  /* 35 */
		"    match e {\n"                                              /* 36 */
		"        ConfigError::Missing(k) => ConfigError::Missing(format!(\"{k}!\")),\n"
		"        other => other,\n"                                    /* 38 */
		"    }\n"                                                      /* 39 */
		"}\n";                                                         /* 40 */
	fl_src files[] = {
		{"src/errors.rs", errors_rs, strlen(errors_rs), NULL},
		{"src/a.rs", a_rs, strlen(a_rs), NULL},
		{"src/b.rs", b_rs, strlen(b_rs), NULL},
		{"src/use.rs", use_rs, strlen(use_rs), NULL},
	};
	fl_sites *s = harness_scan_tree(&fl_lang_rust, files, 4, 3);
	const fl_site *x = EXPECT_SITE(s, "missing key {0}", 4, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ConfigError::Missing");
	harness_expect_str(x->idiom, "ConfigError::Missing");
	harness_expect_str(x->function, "get");
	harness_expect_str(x->guard, "key.is_empty()");
	x = EXPECT_SITE(s, "bad value {value} for {key}", 7, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ConfigError::BadValue");
	/* Self in an impl of the type; a Display arm's message */
	x = EXPECT_SITE(s, "unexpected end of input", 18, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ParseError::Eof");
	/* raised when the Option it is the error of is None */
	x = EXPECT_SITE(s, "nested deeper than {}", 21, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "(n < 64).then_some(()).is_none()");
	/* a closure's (of a value, not a call: no guard of its own) */
	EXPECT_SITE(s, "the store is read-only", 25, FL_T_EXCEPTION);
	/* nothing else: not the patterns, the comparisons, the use, nor
	 * Error::Io, which two enums declare, nor the copies of a variant
	 * (`fn clone`, an arm rebuilding the variant it matched) */
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
	/* the declarations stay, as the message's definition */
	s = harness_scan_tree(&fl_lang_rust, files, 4, 0);
	x = EXPECT_SITE(s, "missing key {0}", 3, FL_T_EXCEPTION);
	harness_expect_str(x->idiom, "#[error]");
	assert_int_equal(s->n, 5);
	fl_sites_free(s);
	/* the file scanned while it was read, blind to the tree: its sites do
	 * not stand once the tree is whole */
	void *tree = fl_lang_rust.tree_new();
	for (size_t i = 0; i < 4; i++)
		harness_collect(&fl_lang_rust, tree, &files[i]);
	void *part = fl_lang_rust.tree_new();
	fl_sites *e = fl_sites_new();
	void *log = fl_lang_rust.collect_scan(part, &files[3], e, NULL);
	assert_non_null(log);
	assert_null(harness_find(e, "missing key {0}"));
	assert_false(fl_lang_rust.early_holds(tree, log));
	assert_true(fl_lang_rust.early_holds(part, log));
	fl_lang_rust.early_free(log);
	fl_sites_free(e);
	fl_lang_rust.tree_free(part);
	fl_lang_rust.tree_free(tree);
	/* variants imported whole or by name, built by their bare names */
	const char *imp_rs =
		"use crate::errors::ConfigError::*;\n"                              /* 1 */
		"use crate::errors::ParseError::{Eof, Depth as TooDeep};\n"         /* 2 */
		"fn a(k: &str) -> Result<(), ConfigError> {\n"                      /* 3 */
		"    if k.is_empty() { return Err(Missing(k.into())); }\n"          /* 4 */
		"    Err(ReadOnly)\n"                                               /* 5 */
		"}\n"                                                               /* 6 */
		"fn b(n: usize) -> Result<(), ParseError> {\n"                      /* 7 */
		"    if n == 0 { Err(Eof) } else { Err(TooDeep(n)) }\n"             /* 8 */
		"}\n"                                                               /* 9 */
		"fn c(e: ConfigError) -> bool { matches!(e, ReadOnly) || e == ReadOnly }\n" /* 10 */
		"fn d(e: &ConfigError) -> bool { match e { Missing(_) => true, _ => false } }\n";
	fl_src files2[] = {files[0], {"src/imp.rs", imp_rs, strlen(imp_rs), NULL}};
	s = harness_scan_tree(&fl_lang_rust, files2, 2, 1);
	x = EXPECT_SITE(s, "missing key {0}", 4, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ConfigError::Missing");
	harness_expect_str(x->guard, "k.is_empty()");
	EXPECT_SITE(s, "the store is read-only", 5, FL_T_EXCEPTION);
	EXPECT_SITE(s, "unexpected end of input", 8, FL_T_EXCEPTION);
	x = EXPECT_SITE(s, "nested deeper than {}", 8, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "ParseError::Depth");
	assert_int_equal(s->n, 4);
	fl_sites_free(s);
}

/* A project's reporter, a function whose whole body prints its parameter
 * in a text of its own, declared in one file: each call giving a message,
 * in any file, is a site with the reporter's text around it. */
static void test_reporter_functions(void **state)
{
	(void)state;
	const char *error_rs =
		"pub fn print_error(msg: impl Into<String>) {\n"                  /* 1 */
		"    eprintln!(\"[tool error]: {}\", msg.into());\n"              /* 2 */
		"}\n"                                                             /* 3 */
		"pub fn print_two(a: &str, b: &str) {\n"                          /* 4 */
		"    eprintln!(\"{}: {}\", a, b);\n"                              /* 5 */
		"}\n"                                                             /* 6 */
		"pub fn internal<S: fmt::Display>(error: S) -> anyhow::Error {\n" /* 7 */
		"    InternalError::new(anyhow::format_err!(\"{}\", error)).into()\n"
		"}\n"                                                             /* 9 */
		"impl Thing { pub fn fail(msg: &str) -> ThingError { ThingError(msg.into()) } }\n";
	const char *cli_rs =
		"use crate::error::print_error;\n"                                /* 1 */
		"fn paths(p: &Path) -> Option<PathBuf> {\n"                        /* 2 */
		"    if !p.is_dir() {\n"                                           /* 3 */
		"        print_error(format!(\"Search path '{}' is not a directory.\", p.display()));\n"
		"        return None;\n"                                           /* 5 */
		"    }\n"                                                          /* 6 */
		"    error::print_error(\"no search path\");\n"                    /* 7 */
		"    print_error(msg);\n"                                          /* 8 */
		"    print_two(\"config\", \"no such key\");\n"                    /* 9 */
		"    return Err(errors::internal(format!(\"no entry for `{}`\", k)));\n" /* 10 */
		"    Thing::fail(\"not a site\");\n"                                  /* 11 */
		"}\n";
	fl_src files[] = {
		{"src/error.rs", error_rs, strlen(error_rs), NULL},
		{"src/cli.rs", cli_rs, strlen(cli_rs), NULL},
	};
	fl_sites *s = harness_scan_tree(&fl_lang_rust, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "[tool error]: Search path '{}' is not a directory.", 4, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->guard, "!p.is_dir()");
	harness_expect_str(x->idiom, "print_error()");
	EXPECT_SITE(s, "[tool error]: no search path", 7, FL_T_CONSOLE);
	/* a free function making an error of its one parameter: its callers
	 * raise it */
	x = EXPECT_SITE(s, "no entry for `{}`", 10, FL_T_EXCEPTION);
	harness_expect_str(x->cls, "anyhow::Error");
	harness_expect_str(x->idiom, "internal()");
	/* a reporter of two parameters: both given a text */
	x = EXPECT_SITE(s, "config: no such key", 9, FL_T_CONSOLE);
	harness_expect_str(x->idiom, "print_two()");
	/* a variable's message is not known, nor is a type's own function a
	 * reporter */
	assert_int_equal(s->n, 4);
	fl_sites_free(s);
}

/* Reporters of parameters: a method that raises its parameter, given the
 * text of a local variable; a reporter whose branches print the message
 * with and without a prefix (the shorter kept), and one that hands its
 * parameter on to it with a prefix of its own; a panicking helper. */
static void test_reporter_parameters(void **state)
{
	(void)state;
	const char *util_rs =
		"pub fn print_warning(styles: bool, message: &str) {\n"             /* 1 */
		"    print_msg(styles, message, \"Warning: \", Color::Yellow);\n"   /* 2 */
		"}\n"                                                              /* 3 */
		"pub fn print_error(styles: bool, message: &str) {\n"               /* 4 */
		"    print_msg(styles, message, \"Error: \", Color::Red);\n"        /* 5 */
		"}\n"                                                              /* 6 */
		"fn print_msg(styles: bool, message: &str, prefix: &'static str, color: Color) {\n"
		"    if styles {\n"                                                 /* 8 */
		"        let style = Style::new().fg(color);\n"                     /* 9 */
		"        eprintln!(\"{}{}\", style.paint(prefix), style.paint(message));\n"
		"    } else {\n"                                                    /* 11 */
		"        eprintln!(\"{}\", message);\n"                             /* 12 */
		"    }\n"                                                           /* 13 */
		"}\n"                                                              /* 14 */
		"pub fn fail_with<T: AsRef<str>>(what: T, code: i32) -> ! {\n"     /* 15 */
		"    panic!(\"fatal: {what} ({})\", code, what = what.as_ref());\n"  /* 16 */
		"}\n"                                                              /* 17 */
		"macro_rules! tool_warning {\n"
		"    ($($arg:tt)*) => ({\n"
		"        eprintln!(\"{}: {}\", Yellow.paint(\"[tool warning]\"), format!($($arg)*));\n"
		"    })\n"
		"}\n"
		"macro_rules! print_error {\n"
		"    ($($arg:tt)*) => {{\n"
		"        let stderr = std::io::stderr();\n"
		"        let mut handle = stderr.lock();\n"
		"        let _ = handle.write_all(std::format!(\"tool: {}\\n\", std::format!($($arg)*)).as_bytes());\n"
		"    }};\n"
		"}\n"
		"macro_rules! trace { ($($arg:tt)*) => { log_to_file(format!($($arg)*)) } }\n";
	const char *main_rs =
		"struct Runner;\n"                                                  /* 1 */
		"impl Runner {\n"                                                   /* 2 */
		"    fn run_step(&self, cmd: &Command<'_>, error_output: &'static str) -> Result<u32> {\n"
		"        self.exec(cmd).map_err(|_| anyhow!(error_output))\n"       /* 4 */
		"    }\n"                                                           /* 5 */
		"    fn prepare(&self, cmd: &Command<'_>) -> Result<u32> {\n"       /* 6 */
		"        let error_output = \"The preparation step failed.\";\n"   /* 7 */
		"        self.run_step(cmd, error_output)\n"                        /* 8 */
		"    }\n"                                                           /* 9 */
		"}\n"                                                              /* 10 */
		"fn main() {\n"                                                     /* 11 */
		"    if cache.is_none() {\n"                                        /* 12 */
		"        print_warning(styles, \"Cache not found.\");\n"            /* 13 */
		"    }\n"                                                           /* 14 */
		"    print_error(styles, &format!(\"Could not delete cache: {}\", e));\n"
		"    print_error(styles, &e.to_string());\n"                       /* 16 */
		"    fail_with(\"no config\", 2);\n"                               /* 17 */
		"    tool_warning!(\"Unknown theme '{}', using default.\", name);\n" /* 18 */
		"    print_error!(\"{}: cannot open: {}.\", path.display(), err);\n" /* 19 */
		"    trace!(\"entering main loop\");\n"                             /* 20 */
		"}\n";
	fl_src files[] = {
		{"src/util.rs", util_rs, strlen(util_rs), NULL},
		{"src/main.rs", main_rs, strlen(main_rs), NULL},
	};
	fl_sites *s = harness_scan_tree(&fl_lang_rust, files, 2, 1);
	const fl_site *x = EXPECT_SITE(s, "The preparation step failed.", 8, FL_T_EXCEPTION);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "run_step()");
	/* a warning by its reporter's name, whatever its text */
	x = EXPECT_SITE(s, "Cache not found.", 13, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "print_warning()");
	harness_expect_str(x->guard, "cache.is_none()");
	x = EXPECT_SITE(s, "Could not delete cache: {}", 15, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	/* a text given only at run time: no site at 16 */
	assert_null(harness_find_line(s, 16));
	x = EXPECT_SITE(s, "fatal: no config ({})", 17, FL_T_PANIC);
	harness_expect_str(x->idiom, "fail_with()");
	/* macros that print their arguments in a text of their own; a
	 * macro that formats them for anything but standard error is none */
	x = EXPECT_SITE(s, "[tool warning]: Unknown theme '{}', using default.", 18, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "tool_warning!");
	x = EXPECT_SITE(s, "tool: {}: cannot open: {}.", 19, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	assert_null(harness_find_line(s, 20));
	fl_sites_free(s);
}

static void test_robustness(void **state)
{
	(void)state;
	/* invalid UTF-8 and embedded NUL */
	static const char junk[] = "fn \xff\xfe(\x80) { panic!(\"a\0b\"); '\xc3 \"\xe2\x82 }";
	harness_scan_bytes(&fl_lang_rust, "x.rs", junk, sizeof junk - 1);
	/* unterminated constructs */
	const char *un[] = {"panic!(\"unterminated", "/* /* */ unterminated",
			    "r##\"raw", "fn f() { panic!(", "'", "b'", "r#", "br#",
			    "#[error(", "x.expect(", "impl<", "fn f<", "match x {",
			    "\"\\", "'\\", "Err(", NULL};
	harness_scan_each(&fl_lang_rust, "src/lib.rs", un);
	/* 1 MB line, deep nesting, long chains of unclosed calls */
	harness_stress(&fl_lang_rust, "src/lib.rs", "panic!(\"x\"); a.b ", 1001,
		       "panic!(\"deep\")", "panic!(");
}

/* A report in an else's block is guarded by its if's condition, turned:
 * it runs when that condition does not hold (the last if of an else-if
 * chain).  An `if let` and a let-else fail when the value does not match
 * the pattern: !matches!(x, P); an if-let chain with && is not turned. */
static void test_else_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn load(n: i32, name: &str) -> anyhow::Result<()> {\n"              /* 1 */
		"    if n == 2 {\n"                                                   /* 2 */
		"        use_it(n);\n"                                                /* 3 */
		"    } else {\n"                                                      /* 4 */
		"        bail!(\"want two arguments\");\n"                            /* 5 */
		"    }\n"                                                             /* 6 */
		"    if n > 3 {\n"                                                    /* 7 */
		"        use_it(n);\n"                                                /* 8 */
		"    } else if name.is_empty() {\n"                                   /* 9 */
		"        use_it(0);\n"                                                /* 10 */
		"    } else {\n"                                                      /* 11 */
		"        return Err(anyhow!(\"bad name\"));\n"                        /* 12 */
		"    }\n"                                                             /* 13 */
		"    let Some(v) = known.get(name) else {\n"                          /* 14 */
		"        bail!(\"unknown name\");\n"                                  /* 15 */
		"    };\n"                                                            /* 16 */
		"    if let Ok(k) = v.parse::<u8>() {\n"                              /* 17 */
		"        use_it(k);\n"                                                /* 18 */
		"    } else {\n"                                                      /* 19 */
		"        bail!(\"not a number\");\n"                                  /* 20 */
		"    }\n"                                                             /* 21 */
		"    if let Some(w) = v.get(1) && w > 2 {\n"                          /* 22 */
		"        use_it(w);\n"                                                /* 23 */
		"    } else {\n"                                                      /* 24 */
		"        bail!(\"too small\");\n"                                     /* 25 */
		"    }\n"                                                             /* 26 */
		"    bail!(\"not loaded\");\n"                                        /* 27 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "want two arguments", 5, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "n != 2");
	x = EXPECT_SITE(s, "bad name", 12, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "!name.is_empty()");
	x = EXPECT_SITE(s, "unknown name", 15, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "known.get(name).is_none()"); /* let-else of Some */
	x = EXPECT_SITE(s, "not a number", 20, FL_T_EXCEPTION);
	harness_expect_str(x->guard, "v.parse::<u8>().is_err()"); /* of Ok */
	x = EXPECT_SITE(s, "too small", 25, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	x = EXPECT_SITE(s, "not loaded", 27, FL_T_EXCEPTION);
	harness_expect_str(x->guard, NULL);
	fl_sites_free(s);
}

/* eprintln!/eprint!: what the program prints on its standard error, a
 * warning when the text says so; a format of placeholders alone is none */
static void test_stderr_prints(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"fn main() {\n"                                                        /* 1 */
		"    if let Err(e) = run() {\n"                                        /* 2 */
		"        eprintln!(\"error: {}\", e);\n"                               /* 3 */
		"        std::process::exit(1);\n"                                     /* 4 */
		"    }\n"                                                              /* 5 */
		"    eprint!(\"warning: {path} is empty\\n\");\n"                      /* 6 */
		"    eprintln!(\"WARN: retrying {} times\", n);\n"                     /* 7 */
		"    eprintln!(\"{}\", e);\n"                                          /* 8 */
		"    eprintln!(\"{}: {:?}\", name, e);\n"                              /* 9 */
		"    println!(\"error: not on stderr {}\", x);\n"                      /* 10 */
		"    eprintln!();\n"                                                   /* 11 */
		"    eprintln!(\"Generating LSIF for project at {root}\");\n"         /* 12 */
		"}\n");
	const fl_site *x = EXPECT_SITE(s, "error: {}", 3, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "eprintln!");
	harness_expect_str(x->function, "main");
	x = EXPECT_SITE(s, "warning: {path} is empty", 6, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	harness_expect_str(x->idiom, "eprint!");
	x = EXPECT_SITE(s, "WARN: retrying {} times", 7, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_null(harness_find(s, "{}"));
	assert_null(harness_find(s, "{}: {:?}"));
	assert_null(harness_find(s, "error: not on stderr {}"));
	/* progress on stderr is information, not an error */
	x = EXPECT_SITE(s, "Generating LSIF for project at {root}", 12, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_INFO);
	assert_int_equal(s->n, 4);
	fl_sites_free(s);
	/* println!/writeln! in an error's branch, or after a tag saying
	 * error or warning (bat): a report; elsewhere output */
	s = scan(
		"fn build(dir: &Path, out: &mut dyn Write) {\n"                             /* 1 */
		"    if let Err(err) = load(dir) {\n"                                      /* 2 */
		"        println!(\"Failed to load the themes from '{}' ({})\", d, err);\n" /* 3 */
		"    }\n"                                                                  /* 4 */
		"    match fs::remove_file(&path) {\n"                                     /* 5 */
		"        Err(err) => {\n"                                                  /* 6 */
		"            println!(\"could not remove the cache file {:?}: {}\", p, err);\n" /* 7 */
		"        }\n"                                                              /* 8 */
		"        Ok(_) => println!(\"okay, all removed\"),\n"                     /* 9 */
		"    }\n"                                                                  /* 10 */
		"    writeln!(out, \"{}: Binary content from {} will not be printed\", Yellow.paint(\"[bat warning]\"), n);\n" /* 11 */
		"    writeln!(out, \"{}: {} lines\", name, n);\n"                          /* 12 */
		"    println!(\"Theme loaded from '{}'\", d);\n"                           /* 13 */
		"}\n");
	x = EXPECT_SITE(s, "Failed to load the themes from '{}' ({})", 3, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_ERROR);
	harness_expect_str(x->idiom, "println!");
	EXPECT_SITE(s, "could not remove the cache file {:?}: {}", 7, FL_T_CONSOLE);
	x = EXPECT_SITE(s, "[bat warning]: Binary content from {} will not be printed", 11, FL_T_CONSOLE);
	harness_expect_str(x->severity, FL_S_WARNING);
	assert_null(harness_find_line(s, 9));
	assert_null(harness_find_line(s, 12));
	assert_null(harness_find_line(s, 13));
	fl_sites_free(s);
}

/* An if (or else) right inside another if's block is guarded by both
 * conditions (fl_guard_nest); not inside a while's. */
static void test_nested_guards(void **state)
{
	(void)state;
	fl_sites *s = scan(
		"pub fn load(name: &str, force: bool) -> Result<(), String> {\n"  /* 1 */
		"    if !force {\n"                                               /* 2 */
		"        if exists(name) {\n"                                     /* 3 */
		"            return Err(format!(\"file {} exists\", name));\n"    /* 4 */
		"        } else {\n"                                              /* 5 */
		"            return Err(\"no such dir\".to_string());\n"          /* 6 */
		"        }\n"                                                     /* 7 */
		"    }\n"                                                         /* 8 */
		"    if let Some(x) = lookup(name) {\n"                           /* 9 */
		"        if x.is_empty() {\n"                                     /* 10 */
		"            return Err(\"empty lookup\".to_string());\n"         /* 11 */
		"        }\n"                                                     /* 12 */
		"    }\n"                                                         /* 13 */
		"    Ok(())\n"                                                    /* 14 */
		"}\n");
	const fl_site *x4 = harness_find(s, "file {} exists");
	assert_non_null(x4);
	assert_int_equal(x4->line, 4);
	harness_expect_str(x4->guard, "!force && exists(name)");
	const fl_site *x6 = harness_find(s, "no such dir");
	assert_non_null(x6);
	assert_int_equal(x6->line, 6);
	harness_expect_str(x6->guard, "!force && !exists(name)");
	const fl_site *x11 = harness_find(s, "empty lookup");
	assert_non_null(x11);
	assert_int_equal(x11->line, 11);
	/* inside an `if let`: its binding holds too ("`lookup(name)` is not
	 * `None`", in words) */
	harness_expect_str(x11->guard, "let Some(x) = lookup(name) && x.is_empty()");
	fl_sites_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_guards),
		cmocka_unit_test(test_panics),
		cmocka_unit_test(test_else_guards),
		cmocka_unit_test(test_expect_and_methods),
		cmocka_unit_test(test_anyhow_io),
		cmocka_unit_test(test_thiserror),
		cmocka_unit_test(test_display_impl),
		cmocka_unit_test(test_variants_built),
		cmocka_unit_test(test_variant_arm_fields),
		cmocka_unit_test(test_reporter_functions),
		cmocka_unit_test(test_reporter_parameters),
		cmocka_unit_test(test_traps),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_macro_rules_and_closures),
		cmocka_unit_test(test_functions_guards),
		cmocka_unit_test(test_real_context),
		cmocka_unit_test(test_receiver_guards),
		cmocka_unit_test(test_err_conversions),
		cmocka_unit_test(test_err_of_helper_text),
		cmocka_unit_test(test_arm_if),
		cmocka_unit_test(test_logs_and_text_errors),
		cmocka_unit_test(test_real_serde),
		cmocka_unit_test(test_status_body_attributes),
		cmocka_unit_test(test_stderr_prints),
		cmocka_unit_test(test_robustness),
	};
	return cmocka_run_group_tests_name("rust", tests, NULL, NULL);
}
