/*
 * describe.c — the explanation of a record (documentation,
 * triggerScenarios, commonSituations, solutions, handling strategy, tags)
 * written only from facts the scanner found in the code: the raising
 * construct, enclosing function, local guard, class, code, status.  No
 * model and nothing invented, so every record validates offline.
 */
#include "describe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "lex.h"

/* text as a Markdown code span: fenced by one backtick more than the
 * longest run of backticks in it, and padded with spaces when it starts
 * or ends with one (CommonMark strips that padding): a guard such as
 * header !== `Bearer ${token}` stays one span */
static void put_code(fl_buf *b, const char *text)
{
	size_t n = strlen(text), run = 0, longest = 0;
	/* the longest run of backticks (most texts have none) */
	for (const char *p = memchr(text, '`', n); p; p = memchr(p, '`', n - (size_t)(p - text))) {
		for (run = 0; *p == '`'; p++)
			run++;
		if (run > longest)
			longest = run;
	}
	bool pad = n && (text[0] == '`' || text[n - 1] == '`');
	for (size_t k = 0; k <= longest; k++)
		fl_buf_putc(b, '`');
	if (pad)
		fl_buf_putc(b, ' ');
	fl_buf_put(b, text, n);
	if (pad)
		fl_buf_putc(b, ' ');
	for (size_t k = 0; k <= longest; k++)
		fl_buf_putc(b, '`');
}

static void who(fl_buf *b, const fl_site *s, const char *path, bool cap)
{
	if (s->function) {
		put_code(b, s->function);
	} else {
		fl_buf_puts(b, cap ? "Top-level code in " : "top-level code in ");
		put_code(b, path);
	}
}

/* the site's class as code, or "an error" */
static void put_class(fl_buf *b, const fl_site *s)
{
	if (s->cls)
		put_code(b, s->cls);
	else
		fl_buf_puts(b, "an error");
}

static void action(fl_buf *b, const fl_site *s)
{
	const char *t = s->type;
	if (strcmp(t, FL_T_PANIC) == 0) {
		fl_buf_puts(b, "panics");
	} else if (strcmp(t, FL_T_CONSOLE) == 0) {
		const char *sev = s->severity;
		fl_buf_puts(b, strcmp(sev, FL_S_CRITICAL) == 0 ? "reports a fatal error"
			       : strcmp(sev, FL_S_WARNING) == 0 ? "prints a warning"
			       : strcmp(sev, FL_S_INFO) == 0	 ? "prints a notice"
								 : "reports an error");
	} else if (strcmp(t, FL_T_HTTP) == 0) {
		if (s->http) {
			char tmp[64];
			snprintf(tmp, sizeof tmp, "responds with HTTP %d", s->http);
			fl_buf_puts(b, tmp);
		} else {
			fl_buf_puts(b, "responds with an HTTP error");
		}
	} else if (strcmp(t, FL_T_VALIDATION) == 0) {
		fl_buf_puts(b, "rejects its input with a validation error");
	} else if (strcmp(t, FL_T_ERROR_CODE) == 0) {
		fl_buf_puts(b, "returns an error code");
	} else {
		fl_buf_puts(b, "raises ");
		put_class(b, s);
	}
}

static bool has_placeholders(const char *msg, const char *pattern)
{
	return msg && pattern && strstr(pattern, "(.+?)") != NULL;
}

/* "path:line" */
static void put_loc(fl_buf *b, const char *path, const char *line)
{
	fl_buf_puts(b, path);
	fl_buf_putc(b, ':');
	fl_buf_puts(b, line);
}

static char *take(fl_buf *b)
{
	fl_buf_cstr(b);
	char *s = b->s;
	memset(b, 0, sizeof *b);
	return s;
}

static void add_tag(fl_strv *tags, const char *t)
{
	for (size_t i = 0; i < tags->n; i++)
		if (strcmp(tags->v[i], t) == 0)
			return;
	fl_strv_push(tags, t);
}

/* kebab-case of an ASCII identifier: "ValueError" -> "value-error",
 * "io::Error" -> "io-error"; NULL when it has no usable characters */
static char *kebab(const char *s)
{
	fl_buf b = {0};
	bool dash = false;
	for (size_t i = 0; s[i]; i++) {
		char c = s[i];
		bool upper = c >= 'A' && c <= 'Z';
		bool lower = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		if (!upper && !lower) {
			dash = b.n > 0;
			continue;
		}
		if (upper && i > 0 && s[i - 1] >= 'a' && s[i - 1] <= 'z')
			dash = true;
		if (dash && b.n)
			fl_buf_putc(&b, '-');
		dash = false;
		if (b.n == 0 && !(c >= 'a' && c <= 'z') && !upper) {
			continue; /* tags start with a letter */
		}
		fl_buf_putc(&b, upper ? (char)(c - 'A' + 'a') : c);
	}
	if (!b.n) {
		fl_buf_free(&b);
		return NULL;
	}
	return take(&b);
}

void fl_describe(fl_entry *e, const fl_site *s, const char *lang)
{
	fl_buf b = {0};
	char line[32];
	snprintf(line, sizeof line, "%d", e->line_number);
	const char *path = e->file_path;

	/* an error class that holds its own default message (idiom "class
	 * ..."): the site is its declaration, it raises wherever it is used */
	bool cdef = s->cls && s->idiom && strncmp(s->idiom, "class ", 6) == 0;
	/* Python's `def __init__(self): super().__init__("...")`, Ruby's
	 * `def initialize; super "..."; end` or `def message; "..."; end`: no
	 * message can be given, the class always has this one */
	bool fixed = cdef && (strcmp(s->idiom, "class constructor __init__") == 0 ||
			      strcmp(s->idiom, "class method __str__") == 0 ||
			      strcmp(s->idiom, "class constructor initialize super") == 0 ||
			      strcmp(s->idiom, "class method message") == 0 ||
			      strcmp(s->idiom, "class attribute #[body]") == 0 ||
			      strcmp(s->idiom, "class annotation @ResponseStatus") == 0);

	/* an error value declared once at the top level, returned wherever it
	 * is used (Go's `var ErrX = errors.New("...")`: idiom "sentinel
	 * errors.New") */
	const char *idiom = s->idiom;
	bool sentinel = idiom && strncmp(idiom, "sentinel ", 9) == 0;
	if (sentinel)
		idiom += 9;
	sentinel = sentinel && s->cls && !s->function && !cdef;
	/* an error catalogue's entry made at the top level:
	 * `FST_ERR_X: createError('FST_ERR_X', 'message', 500)` defines an
	 * error that the code raises elsewhere */
	bool defined = !sentinel && !cdef && !s->function && e->error_code && idiom &&
		       strcmp(idiom, "createError") == 0;
	/* Rust's `.expect("...")`: the guard is the Result or Option
	 * unwrapped, and the site fires when it holds no value */
	bool unwrapped = s->guard && idiom && strcmp(idiom, ".expect") == 0;
	/* a match/case arm: the site runs when the value matches its
	 * pattern; `_` is the arm of every other value */
	bool arm = s->guard && s->arm;
	bool catch_all = arm && strcmp(s->guard, "_") == 0;
	/* an error factory's `return X(...)`: made here, raised by callers */
	bool made = idiom && strcmp(idiom, "return") == 0 && s->function && !cdef;

	/* documentation */
	if (defined) {
		fl_buf_puts(&b, "The error with code `");
		fl_buf_puts(&b, e->error_code);
		fl_buf_putc(&b, '`');
		if (s->cls) {
			fl_buf_puts(&b, " (a `");
			fl_buf_puts(&b, s->cls);
			fl_buf_puts(&b, "`)");
		}
		fl_buf_puts(&b, " is defined here with this message");
		if (s->http) {
			char st[24];
			snprintf(st, sizeof st, " and HTTP status %d", s->http);
			fl_buf_puts(&b, st);
		}
		fl_buf_puts(&b, "; the code raises it wherever it fails this way");
	} else if (sentinel) {
		fl_buf_puts(&b, "`");
		fl_buf_puts(&b, s->cls);
		if (strcmp(s->type, FL_T_HTTP) == 0 && s->http) {
			char st[16];
			snprintf(st, sizeof st, "%d", s->http);
			fl_buf_puts(&b, "` is an HTTP error value (status ");
			fl_buf_puts(&b, st);
			fl_buf_puts(&b, ") with this message: the code returns it wherever it fails this way");
		} else {
			fl_buf_puts(&b, "` is an error value with this message: the code returns it wherever "
					"it fails this way, and callers can compare the error they get with it");
		}
	} else if (made) {
		who(&b, s, path, true);
		fl_buf_puts(&b, " makes ");
		put_class(&b, s);
		if (strcmp(s->type, FL_T_HTTP) == 0 && s->http) {
			char st[24];
			snprintf(st, sizeof st, " (HTTP %d)", s->http);
			fl_buf_puts(&b, st);
		}
		fl_buf_puts(&b, " with this message and returns it for its callers to raise");
	} else if (cdef) {
		fl_buf_puts(&b, "`");
		fl_buf_puts(&b, s->cls);
		fl_buf_puts(&b, fixed ? "` is an error class that always has this message"
				      : "` is an error class whose message is this text unless it is given another");
	} else {
		who(&b, s, path, true);
		fl_buf_putc(&b, ' ');
		action(&b, s);
		fl_buf_puts(&b, " with this message");
	}
	if (catch_all) {
		fl_buf_puts(&b, " when no other arm matches the value");
	} else if (s->guard) {
		fl_buf_puts(&b, arm ? " when the value matches " : " when ");
		put_code(&b, s->guard);
		if (unwrapped)
			fl_buf_puts(&b, " is an `Err` or `None`");
	}
	fl_buf_puts(&b, ".");
	if (e->error_code && !defined) {
		fl_buf_puts(&b, " It carries the error code `");
		fl_buf_puts(&b, e->error_code);
		fl_buf_puts(&b, "`.");
	}
	if (has_placeholders(e->error_message, e->message_pattern))
		fl_buf_puts(&b, " The placeholders in the message are filled in at run time with the values involved.");
	if (fixed) {
		fl_buf_puts(&b, " It is set at ");
	} else if (cdef) {
		/* "class attribute default_detail": its `default_detail`
		 * attribute; "class constructor super()": its constructor's
		 * `super()` */
		const char *kind = s->idiom + 6, *sp = strchr(kind, ' ');
		size_t kl = sp ? (size_t)(sp - kind) : strlen(kind);
		const char *what = sp ? sp + 1 : "";
		fl_buf_puts(&b, " The default is set by its ");
		if (*what && kl == 9 && strncmp(kind, "attribute", 9) == 0) {
			fl_buf_putc(&b, '`');
			fl_buf_puts(&b, what);
			fl_buf_puts(&b, "` attribute at ");
		} else if (*what && kl == 11 && strncmp(kind, "constructor", 11) == 0) {
			fl_buf_puts(&b, "constructor's `");
			fl_buf_puts(&b, what);
			fl_buf_puts(&b, "` at ");
		} else {
			fl_buf_putc(&b, '`');
			fl_buf_puts(&b, kind);
			fl_buf_puts(&b, "` at ");
		}
	} else if (sentinel || defined) {
		fl_buf_puts(&b, " It is made by ");
		put_code(&b, idiom);
		fl_buf_puts(&b, " at ");
	} else if (made) {
		fl_buf_puts(&b, " It is made at ");
	} else if (idiom) {
		/* a log or console line is written, not raised */
		fl_buf_puts(&b, strcmp(s->type, FL_T_CONSOLE) == 0 ? " It is written by " : " It is raised by ");
		put_code(&b, idiom);
		fl_buf_puts(&b, " at ");
	} else {
		fl_buf_puts(&b, strcmp(s->type, FL_T_CONSOLE) == 0 ? " It is written at " : " It is raised at ");
	}
	put_loc(&b, path, line);
	fl_buf_putc(&b, '.');
	e->documentation = take(&b);

	/* triggerScenarios */
	if (defined) {
		fl_buf_puts(&b, "Code that raises the error with code `");
		fl_buf_puts(&b, e->error_code);
		fl_buf_puts(&b, "` (defined at ");
		put_loc(&b, path, line);
		fl_buf_puts(&b, "), wherever it is used.");
		e->trigger_scenarios = take(&b);
	} else if (sentinel) {
		fl_buf_puts(&b, "Code that returns `");
		fl_buf_puts(&b, s->cls);
		fl_buf_puts(&b, "`, wherever the value (declared at ");
		put_loc(&b, path, line);
		fl_buf_puts(&b, ") is used.");
		e->trigger_scenarios = take(&b);
	} else if (cdef) {
		fl_buf_puts(&b, "Code that creates or raises `");
		fl_buf_puts(&b, s->cls);
		fl_buf_puts(&b, fixed ? "`, wherever the class (declared at "
				      : "` without a message of its own, wherever the class (declared at ");
		put_loc(&b, path, line);
		fl_buf_puts(&b, ") is used.");
		e->trigger_scenarios = take(&b);
	} else if (s->function) {
		fl_buf_puts(&b, "A call to ");
		who(&b, s, path, false);
	} else {
		fl_buf_puts(&b, "Loading or running ");
		who(&b, s, path, false);
	}
	if (!cdef && !sentinel && !defined) {
		if (catch_all) {
			fl_buf_puts(&b, " in which no other arm matches the value reaches line ");
		} else if (s->guard) {
			fl_buf_puts(&b, arm ? " in which the value matches " : " in which ");
			put_code(&b, s->guard);
			fl_buf_puts(&b, unwrapped ? " is an `Err` or `None` reaches line "
					: arm	  ? " reaches line "
						  : " holds reaches line ");
		} else {
			fl_buf_puts(&b, " that reaches line ");
		}
		fl_buf_puts(&b, line);
		fl_buf_puts(&b, " of ");
		fl_buf_puts(&b, path);
		fl_buf_puts(&b, s->guard ? "." : "; no local condition guards the site.");
		e->trigger_scenarios = take(&b);
	}

	/* commonSituations */
	const char *t = s->type;
	if (strcmp(t, FL_T_PANIC) == 0) {
		fl_buf_puts(&b, "Seen as a panic or crash report on stderr or in a crash log of a program running this code; the failing thread or process stops.");
	} else if (strcmp(t, FL_T_CONSOLE) == 0) {
		fl_buf_puts(&b, "Seen in the program's log output or on its standard error while it runs.");
	} else if (strcmp(t, FL_T_HTTP) == 0) {
		fl_buf_puts(&b, "Seen by HTTP clients of this service as an error response");
		if (s->http) {
			char st[24];
			snprintf(st, sizeof st, " (status %d)", s->http);
			fl_buf_puts(&b, st);
		}
		fl_buf_puts(&b, ", and in the service's access log.");
	} else if (strcmp(t, FL_T_VALIDATION) == 0) {
		fl_buf_puts(&b, "Seen by the user or caller who submitted input that fails this check, as a validation message.");
	} else {
		fl_buf_puts(&b, "Seen where the error propagates: in a caller's error handling, an uncaught-error report, a stack trace or a log line.");
	}
	e->common_situations = take(&b);

	/* solutions: only what the facts support */
	if (catch_all || s->guard) {
		if (catch_all) {
			fl_buf_puts(&b, "Find out which value reaches the catch-all arm at ");
		} else {
			fl_buf_puts(&b, arm ? "Find out why the value matches " : "Find out why ");
			put_code(&b, s->guard);
			fl_buf_puts(&b, unwrapped ? " is an `Err` or `None` at "
					: arm	  ? " at "
						  : " holds at ");
		}
		put_loc(&b, path, line);
		fl_buf_puts(&b, catch_all ? " and handle it in an arm of its own, or change the input so that it does not occur."
					  : " and change the input or state so that it does not.");
		fl_strv_push(&e->solutions, fl_buf_cstr(&b));
		fl_buf_reset(&b);
	}
	if (has_placeholders(e->error_message, e->message_pattern)) {
		fl_buf_puts(&b, "Compare the values shown in the message with what ");
		if (sentinel) {
			fl_buf_puts(&b, "the code that returns `");
			fl_buf_puts(&b, s->cls);
			fl_buf_puts(&b, "` accepts.");
		} else if (defined) {
			fl_buf_puts(&b, "the code that raises `");
			fl_buf_puts(&b, e->error_code);
			fl_buf_puts(&b, "` accepts.");
		} else {
			who(&b, s, path, false);
			fl_buf_puts(&b, " accepts.");
		}
		fl_strv_push(&e->solutions, fl_buf_cstr(&b));
		fl_buf_reset(&b);
	}
	fl_buf_free(&b);

	if (strcmp(t, FL_T_EXCEPTION) == 0)
		e->handling_strategy = fl_xstrdup("try-catch");
	else if (strcmp(t, FL_T_VALIDATION) == 0)
		e->handling_strategy = fl_xstrdup("validation");

	if (lang)
		add_tag(&e->tags, lang);
	add_tag(&e->tags, strcmp(t, FL_T_ERROR_CODE) == 0 ? "error-code" : t);
	int kind = fl_idiom_kind(s->idiom);
	if (kind == FL_IDIOM_DEF)
		add_tag(&e->tags, "definition");
	else if (kind == FL_IDIOM_CALL)
		add_tag(&e->tags, "factory-call");
	if (s->cls) {
		const char *last = s->cls;
		for (const char *p = s->cls; *p; p++)
			if ((*p == ':' || *p == '.' || *p == '\\') && p[1] &&
			    p[1] != ':' && p[1] != '.')
				last = p + 1;
		char *k = kebab(last);
		if (k && strcmp(k, "error") && strcmp(k, "exception"))
			add_tag(&e->tags, k);
		free(k);
	}
}
