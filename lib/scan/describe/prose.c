/*
 * prose.c — the fields a person reads as text: documentation (what the
 * failure means, in the code's words: the function, what it was doing, the
 * condition that led to the site and what the message's placeholders stand
 * for), triggerScenarios, commonSituations, solutions and preventionTips.
 */
#include "dsc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* what each family means, where people meet it, its first fix, a tip */
static const struct {
	const char *family, *means, *seen, *fix, *tip;
} fam[] = {
	{"invalid-argument", "It is an input check: a value given to the code is not one it accepts.",
	 "a value the code does not accept: a wrong option value, a malformed name, an argument out of place",
	 "Pass a value the code accepts; the message says which value was refused.",
	 "Validate values where they enter the program (arguments, options, files) before they reach this code."},
	{"not-found", "Something the code looked up (a name, key, file or record) is not there.",
	 "a name that is misspelt, not created yet or removed since, or a path relative to the wrong directory",
	 "Check that what the message names exists where the code looks for it (spelling, case, current directory, configuration).",
	 "Check that the thing exists, or handle its absence, before relying on it."},
	{"io-error", "A file-system operation (open, read, write) failed.",
	 "a missing or unreadable file, a folder without write permission, a full disk",
	 "Check that the file exists and that the user running the program can read or write it.",
	 "Handle I/O failures where the file is opened, and report the path and the system's reason."},
	{"network-error", "A network operation (a connection, a TLS handshake, a transfer) failed.",
	 "an unreachable host, a proxy or firewall in the way, a certificate that does not verify",
	 "Check connectivity to the host, the proxy settings and the certificates, then try again.",
	 "Retry transient network failures with a bounded backoff and report which host failed."},
	{"timeout", "An operation took longer than the time it was allowed.",
	 "a slow or unresponsive server or disk, or a time limit set too low",
	 "Find out why the operation is slow, or raise the time limit if the work is legitimately long.",
	 "Set explicit time limits and retry with backoff when the delay is transient."},
	{"permission-denied", "The operation is not allowed for the current user or in the current mode.",
	 "running without the rights the operation needs, a read-only file, a policy that forbids the action",
	 "Run with the rights the operation needs, or change the permission or policy that forbids it.",
	 "Check permissions before the operation and say which right is missing when it fails."},
	{"authentication-failed", "The credentials given were not accepted.",
	 "an expired token, a wrong password, a credential that was never set",
	 "Check the credentials (token, password, key) and how they reach the program.",
	 "Check that credentials are present and unexpired before the first call."},
	{"conflict", "What the code was asked to create or register already exists.",
	 "running the same step twice, or two definitions of one name",
	 "Remove or rename the existing item, or update it instead of creating it again.",
	 "Check whether the item exists before creating it, or use an operation that updates in place."},
	{"unsupported", "The code does not support what it was asked to do, in this form or on this platform.",
	 "an option, format or platform the code does not handle, or a combination of options it refuses",
	 "Use a supported alternative: another option, format or version.",
	 "Check the supported options or capabilities before taking this path."},
	{"certificate-error", "A certificate or signature did not verify: it is expired, untrusted, malformed or for another name.",
	 "an expired or self-signed certificate, a missing CA bundle, a clock set wrong, a signature made with another key",
	 "Check the certificate the message names (its dates, issuer and name) and the trusted CA store.",
	 "Keep CA bundles and certificates current, and check expiry dates before they lapse."},
	{"cancelled", "The operation was cancelled or interrupted before it finished.",
	 "a user pressing Ctrl-C, a context or request cancelled by its caller, a shutdown in progress",
	 "Find out what cancelled the operation (a deadline, a signal, a caller giving up) and run it again if it should finish.",
	 "Treat cancellation as its own outcome: clean up and stop without reporting it as a failure."},
	{"rate-limited", "The service refuses further requests for now.",
	 "many requests in a short time, a shared quota used up",
	 "Wait before sending more requests; honour the retry delay the service gives.",
	 "Throttle requests and back off exponentially on rate-limit errors."},
	{"locked", "A resource is locked or busy: another process or thread holds it.",
	 "two processes using one file or database at once, a stale lock left by a crashed run",
	 "Wait for the other user of the resource to finish, or remove a stale lock left by a crashed process.",
	 "Retry after a short wait, and release locks on every path out of the code that takes them."},
	{"usage-error", "The command or call was used the wrong way: an option or argument is missing, unknown or extra.",
	 "a mistyped option, an option given without its value, too many or too few arguments",
	 "Check the command's usage (its help text) and pass the options and arguments it expects.",
	 "Build command lines from the documented options, and check the usage text after an upgrade."},
	{"parse-error", "The input could not be parsed: it is not in the form the code expects.",
	 "a hand-edited file with a syntax mistake, a truncated download, input written for another format or version",
	 "Fix the input where the message points, or regenerate it with a tool that writes the expected format.",
	 "Validate input files against their format before use, and report the position of the first error."},
	{"type-error", "A value has another type than the code expects.",
	 "a value of another type (a string for a number, null for an object), often read from configuration or JSON",
	 "Pass a value of the expected type, converting it first when it comes from text.",
	 "Check the type of values that come from outside (configuration, JSON, arguments) before use."},
	{"out-of-range", "A value is outside the range the code accepts: too large, too small, too many or too few.",
	 "a number or size beyond the limits the code allows, an index past the end",
	 "Keep the value within the limits the code checks.",
	 "Check bounds where values enter the program."},
	{"missing-value", "A value the code needs is missing: empty, null or not set.",
	 "a required option, field or argument left out, or a lookup that found nothing",
	 "Provide the missing value (the required option, field or argument).",
	 "Check that required values are present before the call."},
	{"invalid-state", "The operation was attempted when the object or program is not in a state that allows it.",
	 "calling methods in the wrong order, using an object after it was closed, doing a step twice",
	 "Call the operation only in the state the code expects (after setup, before close).",
	 "Keep each object's life cycle explicit: create, use, close, in that order."},
	{"incompatible-version", "Two parts that must agree on a version do not.",
	 "an upgrade of one component without the other, files written by another version",
	 "Install matching versions of the components the message names.",
	 "Pin compatible versions and check them at startup."},
	{"command-failed", "An external command or subprocess failed.",
	 "a tool missing from PATH, a command that exits with a non-zero status",
	 "Run the command the message names by hand to see its own error.",
	 "Check that external tools are installed, and capture their standard error."},
	{"config-error", "The configuration is invalid or incomplete.",
	 "a misspelt or missing setting, a value of the wrong form, an environment variable not set",
	 "Correct the setting the message names in the configuration file or environment.",
	 "Validate the configuration at startup, before any work is done."},
	{"internal-error", "An internal consistency check failed: the code reached a state its authors treat as impossible.",
	 "a bug in this code or in the way it is called, or unusual input that breaks one of its assumptions",
	 "Report it to the project with the input that triggers it: it usually points to a bug.",
	 "Keep to the documented use, and keep the input that triggered it as a test case."},
	{"deprecated", "The code warns that a feature in use is deprecated and will be removed.",
	 "code or configuration written for an older version",
	 "Move to the replacement the message names.",
	 "Read deprecation warnings on every upgrade and move off deprecated features before they are removed."},
	{"out-of-memory", "Memory could not be allocated.",
	 "very large input, or a memory limit on the process",
	 "Reduce the size of the input or raise the memory limit.",
	 "Bound the size of what is loaded into memory at once."},
	{"service-unavailable", "The server is unavailable or could not handle the request.",
	 "an overloaded, restarting or failing service", "Try again later; if it persists, check the server's logs.",
	 "Retry server errors with backoff, and give up after a few attempts."},
	{"server-error", "The server failed while handling the request.",
	 "a bug or a failing dependency on the server side", "Check the server's logs for the cause.",
	 "Retry server errors with backoff, and give up after a few attempts."},
	{"lint-problem", "A lint rule found this problem in the file it checks: the file has what the message says, at the line and column printed before it.",
	 "a file that breaks a rule the project's lint configuration turns on: the construct the message names, at the place the report points to",
	 "Change the checked file where the report points, as the message says; if the construct is intended, configure the rule (its id follows the message) or turn it off for that line.",
	 "Run the linter before committing (in an editor or a pre-commit hook), and use its fix option where the rule can fix the file itself."},
	/* no family: nothing to say beyond the site's own facts */
	{"operation-failed", NULL, NULL, NULL,
	 "Check the result of this operation and handle its failure close to the call."},
};

static int fam_index(const char *f)
{
	for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++)
		if (dsc_eq(fam[i].family, f))
			return (int)i;
	return (int)(sizeof fam / sizeof fam[0]) - 1;
}

static void who(fl_buf *b, const dsc *d, bool cap)
{
	if (d->s->function) {
		dsc_code(b, d->s->function);
	} else {
		fl_buf_puts(b, cap ? "Top-level code in " : "top-level code in ");
		dsc_code(b, d->e->file_path);
	}
}

static void put_class(fl_buf *b, const dsc *d)
{
	if (d->s->cls)
		dsc_code(b, d->s->cls);
	else
		fl_buf_puts(b, "an error");
}

static void action(fl_buf *b, const dsc *d)
{
	const char *t = d->s->type;
	if (dsc_eq(t, FL_T_PANIC)) {
		fl_buf_puts(b, "panics");
	} else if (dsc_eq(t, FL_T_CONSOLE)) {
		const char *sev = d->s->severity;
		fl_buf_puts(b, dsc_eq(sev, FL_S_CRITICAL) ? "reports a fatal error"
			       : dsc_eq(sev, FL_S_WARNING) ? "prints a warning"
			       : dsc_eq(sev, FL_S_INFO)	 ? "prints a notice"
								 : "reports an error");
	} else if (dsc_eq(t, FL_T_HTTP)) {
		if (d->s->http)
			fl_buf_printf(b, "responds with HTTP %d", d->s->http);
		else
			fl_buf_puts(b, "responds with an HTTP error");
	} else if (dsc_eq(t, FL_T_VALIDATION)) {
		fl_buf_puts(b, "rejects its input with a validation error");
	} else if (dsc_eq(t, FL_T_ERROR_CODE)) {
		fl_buf_puts(b, "returns an error code");
	} else if (dsc_eq(d->dialect, "go")) {
		fl_buf_puts(b, "returns ");
		put_class(b, d);
	} else {
		fl_buf_puts(b, "raises ");
		put_class(b, d);
	}
}

static void put_loc(fl_buf *b, const dsc *d)
{
	fl_buf_printf(b, "%s:%d", d->e->file_path, d->e->line_number);
}

/* the condition the site runs on, in words: " when ..." */
/* the class(es) a handler catches: `IOException`, or Java's multi-catch
 * "`IOException` or `XmlPullParserException`" */
static void put_caught(fl_buf *b, const char *caught)
{
	for (const char *p = caught; p;) {
		const char *bar = strstr(p, " | ");
		char *one = fl_xstrndup(p, bar ? (size_t)(bar - p) : strlen(p));
		if (p != caught)
			fl_buf_puts(b, bar ? ", " : " or ");
		dsc_code(b, one);
		free(one);
		p = bar ? bar + 3 : NULL;
	}
}

static void when(fl_buf *b, const dsc *d)
{
	if (d->catch_all) {
		fl_buf_puts(b, " when the value matches no other arm");
	} else if (d->arm) {
		fl_buf_puts(b, " when the value matches ");
		dsc_code(b, d->s->guard);
	} else if (d->unwrapped) {
		fl_buf_puts(b, " when ");
		dsc_code(b, d->s->guard);
		fl_buf_puts(b, " holds no value (an `Err` or `None`)");
	} else if (d->guard) {
		fl_buf_puts(b, " when ");
		dsc_guard_words(b, d, true);
	} else if (d->caught) {
		fl_buf_puts(b, dsc_eq(d->dialect, "ruby") ? " when the code in the `begin` block before it "
							       : " when the code in the `try` block before it ");
		if (dsc_generic_class(d->caught)) {
			fl_buf_puts(b, "fails"); /* `except Exception`: anything */
		} else {
			fl_buf_puts(b, "raises ");
			put_caught(b, d->caught);
		}
	}
}

static bool is_param(const dsc *d, const char *name)
{
	for (size_t i = 0; i < d->params.n; i++)
		if (dsc_eq(d->params.v[i], name) || (name[0] == '$' && dsc_eq(d->params.v[i], name + 1)))
			return true;
	return false;
}

/* the call at the start of e that takes all the rest ("len(x)" -> "len"
 * and "x"), or NULL */
static char *call_of(const char *e, const char **arg, size_t *al)
{
	const char *p = e;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$')
		p++;
	size_t n = strlen(e);
	if (p == e || *p != '(' || n < 2 || e[n - 1] != ')')
		return NULL;
	int depth = 0;
	for (const char *q = p; *q; q++) {
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		if (depth == 0 && q[1])
			return NULL; /* "f(a) + g(b)" */
	}
	*arg = p + 1;
	*al = (size_t)(e + n - 1 - p - 1);
	return fl_xstrndup(e, (size_t)(p - e));
}

static bool simple_name(const char *e)
{
	if (!*e || isdigit((unsigned char)*e))
		return false;
	for (; *e; e++)
		if (!isalnum((unsigned char)*e) && *e != '_' && *e != '.' && *e != '$' && *e != '@')
			return false;
	return true;
}

/* [s, s+n) is one identifier */
static bool simple_name_n(const char *s, size_t n)
{
	if (!n || isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* A name code holds an error by: err, e, ex, exc, error, exception,
 * cause (the conventions of every language here). */
static bool error_name(const char *s, size_t n)
{
	static const char *const names[] = {"err", "e", "ex", "exc", "error", "exception",
					    "cause", "$e", "$ex", "$exception", NULL};
	for (const char *const *p = names; *p; p++)
		if (strlen(*p) == n && memcmp(*p, s, n) == 0)
			return true;
	return false;
}

/* The text of an error the code got: `err`, `e.getMessage()` (a Java
 * placeholder of it is `{getMessage}`), `e.message`, `err.Error()`,
 * `str(e)`, `e.to_string()`.  *holder: the error's name (NULL: the one
 * it caught). */
static bool error_message_expr(const char *e, char **holder)
{
	*holder = NULL;
	size_t n = strlen(e);
	if (dsc_eq(e, "getMessage") || dsc_eq(e, "getLocalizedMessage"))
		return true;
	if (error_name(e, n)) {
		*holder = fl_xstrdup(e);
		return true;
	}
	static const char *const wraps[] = {"str(", "String(", "repr(", NULL};
	for (const char *const *w = wraps; *w; w++) {
		size_t wl = strlen(*w);
		if (n > wl + 1 && !strncmp(e, *w, wl) && e[n - 1] == ')' && error_name(e + wl, n - wl - 1)) {
			*holder = fl_xstrndup(e + wl, n - wl - 1);
			return true;
		}
	}
	/* a Python exception's first argument, whatever its name
	 * (`except TokenError as te`: `te.args[0]`) */
	if (n > 8 && fl_str_ends(e, ".args[0]") && simple_name_n(e, n - 8)) {
		*holder = fl_xstrndup(e, n - 8);
		return true;
	}
	static const char *const tails[] = {".getMessage()", ".getMessage", ".getLocalizedMessage()",
					    ".message", ".Message", ".Error()", ".to_string()",
					    ".toString()", "->getMessage()", NULL};
	for (const char *const *t = tails; *t; t++) {
		size_t tl = strlen(*t);
		if (n > tl && fl_str_ends(e, *t) && error_name(e, n - tl)) {
			*holder = fl_xstrndup(e, n - tl);
			return true;
		}
	}
	return false;
}

/* A function that gives an error's text: strerror, sqlite3_errmsg,
 * ldap_err2string, Curl_strerror, gai_strerror, zError... */
static bool error_text_fn(const char *f)
{
	static const char *const parts[] = {"strerror", "errmsg", "err2string", "error_string",
					    "errstr", "strerr", "ErrorString", "zError", NULL};
	for (const char *const *p = parts; *p; p++)
		if (strstr(f, *p))
			return true;
	return false;
}

/* A short error name (`e`, `ex`) the function sets from a call just
 * before: a value of its own (`switch e := os.Getenv(...)`), no error. */
static bool assigned_value(const dsc *d, const char *holder)
{
	if (!holder || dsc_eq(holder, "err") || dsc_eq(holder, "error"))
		return false;
	char *from = dsc_assigned_call(d, holder);
	bool set = from != NULL;
	free(from);
	return set;
}

/* what one expression of a placeholder stands for, in words */
static void expr_words(fl_buf *b, const dsc *d, const char *e, const char *conv)
{
	const char *arg = NULL;
	size_t al = 0;
	char *fn = call_of(e, &arg, &al);
	const char *lf = fn ? dsc_last(fn) : NULL;
	char *inner = fn ? fl_xstrndup(arg, al) : NULL;
	char *holder = NULL;
	size_t n = strlen(e);
	static const char *const lens[] = {".length", ".size()", ".len()", ".Length", ".Count", ".length()", NULL};
	const char *len_sfx = NULL;
	for (size_t i = 0; lens[i] && !len_sfx; i++)
		if (n > strlen(lens[i]) && fl_str_ends(e, lens[i]))
			len_sfx = lens[i];
	const char *qm = strstr(e, " ? "), *colon = qm ? strstr(qm + 3, " : ") : NULL;
	if (qm && colon && !fn && !strchr(e, '(') && !strstr(colon + 3, " ? ")) {
		/* `c ? a : b`: a when c holds, else b */
		char *c = fl_xstrndup(e, (size_t)(qm - e)), *x = fl_xstrndup(qm + 3, (size_t)(colon - qm - 3));
		dsc_code(b, x);
		fl_buf_puts(b, " when ");
		dsc_code(b, c);
		fl_buf_puts(b, " holds, else ");
		dsc_code(b, colon + 3);
		free(c);
		free(x);
	} else if (conv && dsc_eq(conv, "%T") && simple_name(e)) {
		fl_buf_puts(b, "the type of ");
		dsc_code(b, e);
	} else if (conv && dsc_eq(conv, "%w")) {
		fl_buf_puts(b, "the wrapped error ");
		dsc_code(b, e);
	} else if (is_param(d, e)) {
		fl_buf_puts(b, "the ");
		dsc_code(b, e[0] == '$' ? e + 1 : e);
		fl_buf_puts(b, " argument");
	} else if (error_message_expr(e, &holder) && !assigned_value(d, holder)) {
		fl_buf_puts(b, "the message of ");
		if (holder) {
			fl_buf_puts(b, "the error ");
			dsc_code(b, holder);
		} else if (d->caught && !strstr(d->caught, " | ")) {
			fl_buf_puts(b, "the ");
			dsc_code(b, dsc_last(d->caught));
			fl_buf_puts(b, " it caught");
		} else {
			fl_buf_puts(b, "the error it caught");
		}
	} else if (lf && error_text_fn(lf)) {
		fl_buf_puts(b, "the error's text from ");
		dsc_code(b, e);
	} else if (fn && inner && simple_name(inner) && (dsc_eq(fn, "len") || dsc_eq(fn, "strlen") || dsc_eq(fn, "count"))) {
		fl_buf_puts(b, "the length of ");
		dsc_code(b, inner);
	} else if (fn && inner && simple_name(inner) && (dsc_eq(fn, "type") || dsc_eq(lf, "TypeOf") || dsc_eq(fn, "get_class") || dsc_eq(fn, "gettype"))) {
		fl_buf_puts(b, "the type of ");
		dsc_code(b, inner);
	} else if ((fl_str_ends(e, ").__name__") && fl_str_starts(e, "type(")) || fl_str_ends(e, ".__class__.__name__")) {
		/* Python's type(x).__name__, x.__class__.__name__ */
		char *x = fl_str_starts(e, "type(") ? fl_xstrndup(e + 5, n - 5 - 10) : fl_xstrndup(e, n - 19);
		fl_buf_puts(b, "the type of ");
		dsc_code(b, x);
		free(x);
	} else if (len_sfx) {
		char *x = fl_xstrndup(e, n - strlen(len_sfx));
		fl_buf_puts(b, simple_name(x) ? "the length of " : "");
		dsc_code(b, simple_name(x) ? x : e);
		free(x);
	} else if (fn) {
		fl_buf_puts(b, "what ");
		dsc_code(b, e);
		fl_buf_puts(b, " returns");
	} else if (simple_name(e)) {
		fl_buf_puts(b, "the value of ");
		dsc_code(b, e);
		/* a local variable set from a call just before */
		char *from = strchr(e, '.') ? NULL : dsc_assigned_call(d, e);
		if (from) {
			fl_buf_puts(b, " (returned by ");
			dsc_code(b, from);
			fl_buf_puts(b, ")");
			free(from);
		}
	} else {
		dsc_code(b, e);
	}
	free(fn);
	free(inner);
	free(holder);
}

/* one placeholder of the message: its text and the expression it shows */
struct ph {
	char *text, *expr;
};

static const char *const ordinal[] = {"first", "second", "third", "fourth", "fifth", "sixth"};

/* the longest placeholder expression the prose names */
#define PH_EXPR_MAX 80

/* The '}' that closes a template's `${` whose expression starts at s:
 * braces nested in it (an object, a callback's body) and quoted or
 * back-quoted text skipped; NULL when it is not closed. */
static const char *close_brace(const char *s)
{
	int depth = 0;
	for (const char *q = s; *q; q++) {
		if (*q == '"' || *q == '\'' || *q == '`') {
			char quote = *q;
			for (q++; *q && *q != quote; q++)
				if (*q == '\\' && q[1])
					q++;
			if (!*q)
				return NULL;
		} else if (*q == '{') {
			depth++;
		} else if (*q == '}') {
			if (!depth--)
				return q;
		}
	}
	return NULL;
}

/* what the message's placeholders stand for: a named one by its name
 * (`{user}`, `%(user)s`, `${user.id}`), a positional one (`%s`, `{}`,
 * `{0}`) by the argument of the raising call that fills it */
static void placeholders(fl_buf *b, const dsc *d)
{
	const char *m = d->e->error_message;
	struct ph v[6];
	size_t n = 0, pos = 0, unnamed = 0;
	bool odd = false; /* a width from the arguments, an indexed %[1]s */
	fl_strv args = {0};
	bool read = false;
	for (const char *p = m; *p; p++) {
		const char *s = NULL, *end = NULL;
		if ((p[0] == '$' || p[0] == '#') && p[1] == '{') {
			s = p + 2;
			end = close_brace(s);
		} else if (p[0] == '%' && p[1] == '(') {
			s = p + 2;
			end = strchr(s, ')');
			if (end && end[1])
				end++; /* the conversion after the name */
		} else if (p[0] == '%' && p[1] == '%') {
			p++;
			continue;
		} else if (p[0] == '{' && (p == m || p[-1] != '$')) {
			s = p + 1;
			end = strchr(s, '}');
		} else if (p[0] == '%' && p[1]) {
			int stars = 0;
			size_t cl = fl_printf_conv(p, &stars);
			if (!cl)
				continue;
			if (stars || p[1] == '[')
				odd = true;
			/* a positional one: the next argument */
			if (!read) {
				dsc_format_args(d, &args);
				read = true;
			}
			if (!odd && pos < args.n && n < 6) {
				v[n].text = fl_xstrndup(p, cl);
				v[n].expr = fl_xstrdup(args.v[pos]);
				n++;
			} else {
				unnamed++;
			}
			pos++;
			p += cl - 1;
			continue;
		}
		if (!s || !end)
			continue;
		/* words in braces are text, not an expression: "{retry later}" */
		bool words = false;
		for (const char *q = s; q < end && !words; q++)
			words = *q == ' ' && !memchr(s, '(', (size_t)(end - s)) && !memchr(s, '?', (size_t)(end - s)) &&
				!memchr(s, '+', (size_t)(end - s)) && !memchr(s, '[', (size_t)(end - s));
		if (words)
			continue;
		/* the expression, up to a format spec (a template's `${...}`
		 * and Ruby's `#{...}` have none: `${a ? b : c}` is one
		 * expression, and so is a `? :` anywhere) */
		const char *ne = s;
		bool nospec = p[0] == '$' || dsc_eq(d->dialect, "ruby"), tern = false;
		/* an index and its format: MessageFormat's {1,number,integer},
		 * C#'s {0,-8} */
		const char *dg = s;
		while (dg < end && isdigit((unsigned char)*dg))
			dg++;
		bool idx_fmt = p[0] == '{' && dg > s && dg < end && *dg == ',';
		if (idx_fmt)
			ne = dg;
		while (!idx_fmt && ne < end && !(p[0] == '%' && *ne == ')') && /* %(name)s: the name */
		       (nospec || (*ne != ':' && *ne != '!' && *ne != '|') || (*ne == ':' && tern) ||
				    /* Ruby's h[:key] and A::B are no spec */
				    (*ne == ':' && ne > s && (ne[-1] == '[' || ne[-1] == ':' || ne[1] == ':')))) {
			tern |= *ne == '?' && ne > s && ne[-1] == ' ' && ne[1] == ' ';
			ne++;
		}
		const char *ns = s;
		while (ns < ne && (*ns == '@' || *ns == ' '))
			ns++;
		bool named = false, index = ns < ne;
		for (const char *q = ns; q < ne; q++) {
			named |= isalpha((unsigned char)*q) || *q == '_';
			index &= isdigit((unsigned char)*q) != 0;
		}
		if (!named) {
			/* `{}` the next argument, `{0}` the first */
			if (!read) {
				dsc_format_args(d, &args);
				read = true;
			}
			size_t k = index ? (size_t)atoi(ns) : pos;
			if (p[0] == '{' && (index || ns == ne) && k < args.n && n < 6) {
				v[n].text = fl_xstrndup(p, (size_t)(end - p + 1));
				v[n].expr = fl_xstrdup(args.v[k]);
				n++;
			} else {
				unnamed++;
			}
			if (!index)
				pos++;
			p = end;
			continue;
		}
		/* a computation written into the message (a callback, a
		 * template of its own) is no value a reader can name */
		if ((size_t)(ne - ns) > PH_EXPR_MAX || memchr(ns, '\n', (size_t)(ne - ns)) ||
		    fl_memmem(ns, (size_t)(ne - ns), "=>", 2)) {
			unnamed++;
			p = end;
			continue;
		}
		/* a name written twice is said once */
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = (strlen(v[k].text) == (size_t)(end - p + 1) && strncmp(v[k].text, p, (size_t)(end - p + 1)) == 0) ||
			       (strlen(v[k].expr) == (size_t)(ne - ns) && strncmp(v[k].expr, ns, (size_t)(ne - ns)) == 0);
		if (n < 6 && !seen) {
			v[n].text = fl_xstrndup(p, (size_t)(end - p + 1));
			v[n].expr = fl_xstrndup(ns, (size_t)(ne - ns));
			/* %(type)s of a dict the window writes: its value there */
			char *dv = p[0] == '%' ? dsc_dict_value(d, v[n].expr) : NULL;
			if (dv) {
				free(v[n].expr);
				v[n].expr = dv;
			}
			n++;
		}
		p = end;
	}
	/* a positional count that is not the arguments' count: the
	 * statement was not read right, so none is said */
	if (read && !odd && pos != args.n && args.n) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			bool positional = v[i].text[0] == '%' ? v[i].text[1] != '(' : v[i].text[1] == '}' || isdigit((unsigned char)v[i].text[1]) || v[i].text[1] == ':' || v[i].text[1] == '!';
			if (positional) {
				free(v[i].text);
				free(v[i].expr);
				unnamed++;
			} else {
				v[k++] = v[i];
			}
		}
		n = k;
	}
	fl_strv_free(&args);
	if (n) {
		fl_buf_puts(b, " In the message, ");
		for (size_t i = 0; i < n; i++) {
			if (i)
				fl_buf_puts(b, i + 1 < n ? ", " : " and ");
			/* a placeholder written more than once: which one */
			size_t same = 0, nth = 0;
			for (size_t k = 0; k < n; k++)
				if (dsc_eq(v[k].text, v[i].text)) {
					same++;
					if (k < i)
						nth++;
				}
			if (same > 1 && nth < 6) {
				fl_buf_puts(b, "the ");
				fl_buf_puts(b, ordinal[nth]);
				fl_buf_putc(b, ' ');
			}
			dsc_code(b, v[i].text);
			fl_buf_puts(b, " is ");
			const char *conv = v[i].text[0] == '%' && v[i].text[1] != '(' ? v[i].text : NULL;
			char cv[3] = {'%', conv ? conv[strlen(conv) - 1] : 0, 0};
			expr_words(b, d, v[i].expr, conv ? cv : NULL);
		}
		fl_buf_putc(b, '.');
	}
	for (size_t i = 0; i < n; i++) {
		free(v[i].text);
		free(v[i].expr);
	}
	if (unnamed && !n) {
		fl_buf_puts(b, unnamed > 1 ? " The placeholders in the message are filled with the values involved"
					   : " The placeholder in the message is filled with the value involved");
		fl_buf_puts(b, d->s->function ? " when the site runs." : ".");
	}
}

static void definition(fl_buf *b, const dsc *d)
{
	const fl_site *s = d->s;
	if (d->defined) {
		fl_buf_puts(b, "The error with code ");
		dsc_code(b, d->e->error_code);
		if (s->cls) {
			fl_buf_puts(b, " (a ");
			dsc_code(b, s->cls);
			fl_buf_putc(b, ')');
		}
		fl_buf_puts(b, " is defined here with this message");
		if (s->http)
			fl_buf_printf(b, " and HTTP status %d", s->http);
		fl_buf_puts(b, "; the code raises it wherever it fails this way.");
	} else if (d->sentinel) {
		dsc_code(b, s->cls);
		if (dsc_eq(s->type, FL_T_HTTP) && s->http)
			fl_buf_printf(b, " is an HTTP error value (status %d) with this message: the code returns it wherever it fails this way.", s->http);
		else
			fl_buf_puts(b, " is an error value with this message: the code returns it wherever it fails this way, and callers can compare the error they get with it.");
	} else if (strncmp(d->idiom, "class method ", 13) == 0) {
		/* __str__, message(): the text shows whatever it was raised with */
		dsc_code(b, s->cls);
		fl_buf_puts(b, " is an error class that shows this message");
		if (d->guard)
			when(b, d);
		fl_buf_puts(b, ", whatever it was raised with.");
	} else {
		dsc_code(b, s->cls);
		fl_buf_puts(b, d->fixed ? " is an error class that always has this message."
					: " is an error class whose message is this text unless it is given another.");
	}
}

/* The construct that raises, as the documentation names it: code as
 * code (`throw new`, `log.Fatalf`), a scanner's word for it in words:
 * "an error message table", "`fprintf` (error stream)", "the raising
 * helper `_fail`", "the reporter `out`" (the idiom itself is the
 * record's fact, unchanged). */
static void put_construct(fl_buf *b, const char *idiom)
{
	static const char *const words[][2] = {
		{"error message table", "an error message table"},
		{"message template", "a message template"},
		{"print in except", "a `print` in an `except` block"},
		{"error factory call", "an error factory call"},
		{"lint rule report", "the lint rule's report"},
		{"reporting call", "a call of a reporting function"},
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (dsc_eq(idiom, words[i][0])) {
			fl_buf_puts(b, words[i][1]);
			return;
		}
	static const char *const helpers[] = {"raising helper ", "error factory ", "reporter "};
	for (size_t i = 0; i < sizeof helpers / sizeof helpers[0]; i++)
		if (fl_str_starts(idiom, helpers[i]) && idiom[strlen(helpers[i])]) {
			fl_buf_puts(b, "the ");
			fl_buf_puts(b, helpers[i]);
			dsc_code(b, idiom + strlen(helpers[i]));
			return;
		}
	/* fprintf(error stream): the call, then what it writes to */
	const char *par = strchr(idiom, '('), *sp = strchr(idiom, ' ');
	size_t n = strlen(idiom);
	if (par && par > idiom && sp && sp > par && idiom[n - 1] == ')') {
		char *name = fl_xstrndup(idiom, (size_t)(par - idiom));
		dsc_code(b, name);
		free(name);
		fl_buf_puts(b, " (");
		fl_buf_put(b, par + 1, (size_t)(idiom + n - 1 - (par + 1)));
		fl_buf_putc(b, ')');
		return;
	}
	dsc_code(b, idiom);
}

void dsc_documentation(dsc *d)
{
	fl_buf b = {0};
	const fl_site *s = d->s;
	if (d->defined || d->sentinel || d->cdef) {
		definition(&b, d);
	} else if (d->defn) {
		dsc_code(&b, s->cls);
		fl_buf_puts(&b, " has this message");
		if (d->guard)
			when(&b, d);
		fl_buf_puts(&b, ": the code returns or raises it wherever it fails this way.");
	} else if (d->made) {
		who(&b, d, true);
		fl_buf_puts(&b, " makes ");
		put_class(&b, d);
		if (dsc_eq(s->type, FL_T_HTTP) && s->http)
			fl_buf_printf(&b, " (HTTP %d)", s->http);
		fl_buf_puts(&b, " with this message and returns it for its callers to raise");
		when(&b, d);
		fl_buf_putc(&b, '.');
	} else if (d->stored) {
		/* `errors[v] = InvalidInput(...)`, raised later from there */
		who(&b, d, true);
		fl_buf_puts(&b, " makes ");
		put_class(&b, d);
		fl_buf_puts(&b, " with this message");
		when(&b, d);
		fl_buf_puts(&b, ", and keeps it to raise it later (or to hand it on).");
	} else if (d->wrapper && d->g.n == 1 && d->g.a[0].kind == GA_FAILED && d->g.a[0].call && !d->g.a[0].neg) {
		/* anyhow's context: the receiver's error, this message added */
		who(&b, d, true);
		fl_buf_puts(&b, " returns the error of ");
		dsc_code(&b, d->g.a[0].call);
		fl_buf_puts(&b, " with this message added as its context when that call fails; the error it wraps, "
				"printed after it, says why.");
	} else {
		who(&b, d, true);
		fl_buf_putc(&b, ' ');
		action(&b, d);
		when(&b, d);
		fl_buf_putc(&b, '.');
	}
	const char *means = fam[fam_index(d->family)].means;
	if (means) {
		fl_buf_putc(&b, ' ');
		fl_buf_puts(&b, means);
	}
	if (d->ret) {
		fl_buf_puts(&b, " The function then returns ");
		dsc_code(&b, d->ret);
		fl_buf_putc(&b, '.');
	} else if (d->fatal && dsc_eq(s->type, FL_T_CONSOLE)) {
		fl_buf_puts(&b, " The program stops after reporting it.");
	}
	if (d->e->error_code && !d->defined) {
		fl_buf_puts(&b, " It carries the error code ");
		dsc_code(&b, d->e->error_code);
		fl_buf_putc(&b, '.');
	}
	placeholders(&b, d);
	if (d->cdef) {
		const char *kind = s->idiom + 6, *sp = strchr(kind, ' ');
		size_t kl = sp ? (size_t)(sp - kind) : strlen(kind);
		const char *what = sp ? sp + 1 : "";
		fl_buf_puts(&b, d->fixed ? " It is set by its " : " The default is set by its ");
		if (*what && kl == 9 && strncmp(kind, "attribute", 9) == 0) {
			dsc_code(&b, what);
			fl_buf_puts(&b, " attribute at ");
		} else if (*what && kl == 11 && strncmp(kind, "constructor", 11) == 0) {
			fl_buf_puts(&b, "constructor's ");
			dsc_code(&b, what);
			fl_buf_puts(&b, " at ");
		} else if (*what && kl == 6 && strncmp(kind, "method", 6) == 0) {
			b.n -= strlen(d->fixed ? "set by its " : "is set by its ");
			fl_buf_puts(&b, d->fixed ? "returned by its " : "is returned by its ");
			dsc_code(&b, what);
			fl_buf_puts(&b, " method at ");
		} else {
			char *k = fl_xstrndup(kind, kl);
			dsc_code(&b, k);
			free(k);
			fl_buf_puts(&b, " at ");
		}
	} else if (d->sentinel || d->defined) {
		fl_buf_puts(&b, " It is made by ");
		dsc_code(&b, d->idiom);
		fl_buf_puts(&b, " at ");
	} else if (d->made || d->stored) {
		fl_buf_puts(&b, " It is made at ");
	} else if (d->defn) {
		fl_buf_puts(&b, " The message is made by ");
		dsc_code(&b, d->idiom);
		fl_buf_puts(&b, " at ");
	} else if (*d->idiom) {
		fl_buf_puts(&b, d->logged ? " It is written by " : " It is raised by ");
		put_construct(&b, d->idiom);
		fl_buf_puts(&b, " at ");
	} else {
		fl_buf_puts(&b, d->logged ? " It is written at " : " It is raised at ");
	}
	put_loc(&b, d);
	fl_buf_putc(&b, '.');
	d->e->documentation = dsc_take(&b);
}

void dsc_triggers(dsc *d)
{
	fl_buf b = {0};
	const fl_site *s = d->s;
	if (d->defined || d->sentinel || d->cdef || d->defn) {
		fl_buf_puts(&b, d->defined ? "Code that raises the error with code " : d->sentinel ? "Code that returns "
							: d->defn ? "Code that returns or raises "
								  : "Code that creates or raises ");
		dsc_code(&b, d->defined ? d->e->error_code : s->cls);
		if (d->cdef && !d->fixed)
			fl_buf_puts(&b, " without a message of its own");
		fl_buf_puts(&b, d->defn ? ", wherever it is used (its message is made at " : ", wherever it is used (it is declared at ");
		put_loc(&b, d);
		fl_buf_puts(&b, ").");
		d->e->trigger_scenarios = dsc_take(&b);
		return;
	}
	char *call = dsc_call(d);
	if (!s->function) {
		fl_buf_puts(&b, "Loading or running ");
		dsc_code(&b, d->e->file_path);
	} else if (dsc_eq(s->function, "main")) {
		fl_buf_puts(&b, d->guard ? "While the program runs," : "Running the program");
	} else if (d->checkable || !d->guard) {
		fl_buf_puts(&b, "Calling ");
		dsc_code(&b, call ? call : s->function);
	} else {
		fl_buf_puts(&b, "While ");
		dsc_code(&b, s->function);
		fl_buf_puts(&b, " runs,");
	}
	if (d->guard || d->arm || d->unwrapped) {
		if (d->guard && !d->checkable && s->function) {
			fl_buf_putc(&b, ' ');
			dsc_guard_words(&b, d, true);
		} else {
			when(&b, d);
		}
		fl_buf_puts(&b, " (the check before ");
		put_loc(&b, d);
		fl_buf_puts(&b, ").");
	} else if (d->caught) {
		when(&b, d);
		fl_buf_puts(&b, " (the handler around ");
		put_loc(&b, d);
		fl_buf_puts(&b, ").");
	} else {
		fl_buf_puts(&b, ", whenever it reaches ");
		put_loc(&b, d);
		fl_buf_puts(&b, ": no condition in the function guards that line.");
	}
	free(call);
	d->e->trigger_scenarios = dsc_take(&b);
}

void dsc_situations(dsc *d)
{
	fl_buf b = {0};
	const char *t = d->s->type;
	if (dsc_eq(d->family, "operation-failed") && d->guard && d->g.n) {
		/* no family says more than the condition itself */
		fl_buf_puts(&b, "It happens when ");
		dsc_guard_words(&b, d, true);
		fl_buf_puts(&b, d->s->function ? " while " : ".");
		if (d->s->function) {
			dsc_code(&b, d->s->function);
			fl_buf_puts(&b, " runs.");
		}
		fl_buf_putc(&b, ' ');
	} else if (fam[fam_index(d->family)].seen) {
		fl_buf_puts(&b, "Typically ");
		fl_buf_puts(&b, fam[fam_index(d->family)].seen);
		fl_buf_puts(&b, ". ");
	}
	if (dsc_eq(t, FL_T_PANIC)) {
		fl_buf_puts(&b, "It shows as a panic on standard error or in a crash log, and the failing thread or process stops.");
	} else if (dsc_eq(t, FL_T_CONSOLE)) {
		fl_buf_puts(&b, d->fatal ? "It shows on the program's standard error or log just before the program exits."
					 : "It shows in the program's log or on its standard error while it runs.");
	} else if (dsc_eq(t, FL_T_HTTP)) {
		fl_buf_puts(&b, "HTTP clients of the service receive it as an error response");
		if (d->s->http)
			fl_buf_printf(&b, " with status %d", d->s->http);
		fl_buf_puts(&b, ", and it appears in the service's access log.");
	} else if (dsc_eq(t, FL_T_VALIDATION)) {
		fl_buf_puts(&b, "The user or caller who submitted the input sees it as a validation message.");
	} else {
		fl_buf_puts(&b, "It reaches the caller's error handling, or an uncaught-error report with a stack trace.");
	}
	d->e->common_situations = dsc_take(&b);
}

static void push(fl_strv *v, fl_buf *b)
{
	fl_strv_push(v, fl_buf_cstr(b));
	fl_buf_reset(b);
}

/* The message's own advice: the first of its sentences that tells the
 * reader what to do ("Consider enabling multiline mode with the
 * --multiline flag", "Please install GraphViz.", "Run `bundle install`
 * first", "Did you mean {}?"): its author's fix, the likeliest one.  A
 * sentence starts the message, a line, or follows ". ", "! ", "? " or
 * "; " (or, in lower case, a comma: clause_leads); it ends at a line's
 * end or such a stop (not "e.g."), and one
 * ending in ':' takes the lines after it up to a blank line.  Into b,
 * quoted, on one line; false when there is none. */
static const char *const advice_leads[] = {
	"Consider ", "Try ", "Try: ", "Did you mean", "Please ", "Please, ", "Perhaps ", "Maybe ",
	"You may ", "You might ", "You can ", "You should ", "You need to ", "You must ",
	"Make sure ", "Ensure ", "To fix", "To resolve", "Hint: ", "hint: ", "help: ",
	"Run `", "Run '", "Run \"", "Use `", "Use '", "Use \"", "Use --", "Use -",
	"See `", "See '", "See \"", "Re-run ", "Rerun ", "Install ", NULL};
/* the same after a comma or a semicolon, in lower case ("..., please
 * verify the integrity of your Maven installation", "..., use
 * setPlatformRequirementFilter instead.") */
static const char *const clause_leads[] = {
	"please ", "use ", "run ", "try ", "see ", "consider ", "did you mean", "perhaps you",
	"maybe you", "make sure ", "check that ", NULL};
#define ADVICE_MAX 300

static bool advice_at(const char *p)
{
	for (const char *const *l = advice_leads; *l; l++) {
		size_t n = strlen(*l);
		if (strncmp(p, *l, n) != 0)
			continue;
		/* "You can only ...", "You must not ...": a rule, not advice;
		 * "You may be ...": a statement */
		if (p[0] == 'Y' && (strncmp(p + n, "only ", 5) == 0 || strncmp(p + n, "not ", 4) == 0 ||
				    (strncmp(p + n, "be ", 3) == 0 && strncmp(p + n + 3, "able ", 5) != 0) ||
				    strncmp(p + n, "have ", 5) == 0))
			return false;
		return true;
	}
	return false;
}

static bool clause_at(const char *p)
{
	for (const char *const *l = clause_leads; *l; l++)
		if (strncmp(p, *l, strlen(*l)) == 0)
			return true;
	return false;
}

static bool message_advice(const char *msg, fl_buf *b)
{
	const char *start = NULL;
	bool clause = false;
	for (const char *p = msg; *p && !start; p++) {
		bool after = p - msg >= 2 && p[-1] == ' ';
		if (after && (p[-2] == ',' || p[-2] == ';') && clause_at(p)) {
			start = p;
			clause = true;
			break;
		}
		bool at = p == msg || p[-1] == '\n' || (after && strchr(".!?;", p[-2]));
		if (!at)
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (advice_at(p))
			start = p;
	}
	if (!start)
		return false;
	const char *e = start;
	for (; *e && *e != '\n'; e++) {
		if (!strchr(".!?", *e) || (e[1] && e[1] != ' ' && e[1] != '\n'))
			continue;
		/* not an abbreviation's stop: "e.g.", "i.e." */
		if (*e == '.' && e - start >= 3 && e[-2] == '.' && isalpha((unsigned char)e[-1]))
			continue;
		e++;
		break;
	}
	/* "To fix this error, either:" and the list after it */
	if (e > start && e[-1] == ':' && *e == '\n') {
		const char *blank = strstr(e, "\n\n");
		e = blank ? blank : e + strlen(e);
	}
	size_t n = (size_t)(e - start);
	bool cut = n > ADVICE_MAX;
	if (cut) {
		n = ADVICE_MAX;
		while (n > ADVICE_MAX / 2 && start[n] != ' ')
			n--;
	}
	fl_buf_puts(b, "Do what the message itself advises: \"");
	bool space = false;
	for (size_t i = 0; i < n; i++) {
		char c = start[i];
		if (c == '\n' || c == '\t' || c == ' ') {
			space = true;
			continue;
		}
		if (space && i)
			fl_buf_putc(b, ' ');
		space = false;
		/* a clause quoted as a sentence of its own */
		fl_buf_putc(b, i == 0 && clause ? (char)toupper((unsigned char)c) : c);
	}
	fl_buf_puts(b, cut ? " ...\"" : "\"");
	return true;
}

void dsc_solutions(dsc *d)
{
	fl_buf b = {0};
	fl_strv *out = &d->e->solutions;
	if (d->s->message && message_advice(d->s->message, &b))
		push(out, &b);
	const dsc_atom *failed = NULL;
	for (size_t i = 0; i < d->g.n && !failed; i++)
		if (d->g.a[i].kind == GA_FAILED && d->g.a[i].call)
			failed = &d->g.a[i];
	if (failed && d->g.n == 1 && d->wrapper) {
		fl_buf_puts(&b, "Find out why ");
		dsc_code(&b, failed->call);
		fl_buf_puts(&b, " failed: its own error is printed after this message (anyhow and eyre print it under "
				"`Caused by:`), and the fix is to the cause it names.");
		push(out, &b);
	} else if (failed && d->g.n == 1) {
		fl_buf_puts(&b, "Find out why ");
		dsc_code(&b, failed->call);
		fl_buf_puts(&b, " failed");
		fl_buf_puts(&b, d->placeholders ? ": the message carries the details it reported, and the fix is to the cause it names."
						: " before this line: its own error or return value tells the cause.");
		push(out, &b);
	} else if (d->guard && d->checkable && d->s->function) {
		char *call = dsc_call(d);
		fl_buf_puts(&b, "Before calling ");
		dsc_code(&b, call ? call : d->s->function);
		free(call);
		fl_buf_puts(&b, ", make sure that ");
		dsc_guard_words(&b, d, false);
		fl_buf_putc(&b, '.');
		push(out, &b);
	} else if (d->guard) {
		fl_buf_puts(&b, "Find out why ");
		dsc_guard_words(&b, d, true);
		fl_buf_puts(&b, " at ");
		put_loc(&b, d);
		fl_buf_puts(&b, ", and change the input or state that leads there.");
		push(out, &b);
	} else if (d->catch_all) {
		fl_buf_puts(&b, "Find out which value reaches the catch-all arm at ");
		put_loc(&b, d);
		fl_buf_puts(&b, ", and handle it in an arm of its own or keep it out of the input.");
		push(out, &b);
	} else if (d->unwrapped) {
		fl_buf_puts(&b, "Make sure ");
		dsc_code(&b, d->s->guard);
		fl_buf_puts(&b, " holds a value there, or handle the `Err`/`None` case instead of calling `.expect`.");
		push(out, &b);
	}
	if (fam[fam_index(d->family)].fix) {
		/* a message with no value in it does not say which one */
		if (!d->placeholders && dsc_eq(d->family, "invalid-argument"))
			fl_buf_puts(&b, "Pass a value the code accepts; the message does not show the one "
					"refused, so compare the input with what the code checks there.");
		else
			fl_buf_puts(&b, fam[fam_index(d->family)].fix);
		push(out, &b);
	}
	if (d->placeholders) {
		fl_buf_puts(&b, "Compare the values the message shows with ");
		if (d->sentinel || d->defined || d->cdef || d->defn || !d->s->function) {
			fl_buf_puts(&b, "what the code expects at ");
			put_loc(&b, d);
		} else if (dsc_eq(dsc_last(d->s->function), "main")) {
			/* what a program's main is given: its command line */
			fl_buf_puts(&b, "the command line and the input the program was given");
		} else {
			fl_buf_puts(&b, "what ");
			dsc_code(&b, d->s->function);
			fl_buf_puts(&b, " accepts");
		}
		fl_buf_putc(&b, '.');
		push(out, &b);
	}
	if (out->n < 2) {
		fl_buf_puts(&b, "Read the source window around ");
		put_loc(&b, d);
		fl_buf_puts(&b, ": it shows what the code was doing when it ");
		fl_buf_puts(&b, d->logged ? "wrote the message." : "raised the error.");
		push(out, &b);
	}
	if (out->n < 2) {
		/* the error says no more than its message: make the next
		 * report say which input it was */
		fl_buf_puts(&b, "Where the error is handled, add the input the code was working on (a name, a path, an argument) to what is reported, so that the next occurrence shows the cause.");
		push(out, &b);
	}
	fl_buf_free(&b);
}

void dsc_prevention(dsc *d)
{
	fl_buf b = {0};
	fl_strv *out = &d->e->prevention_tips;
	if (d->guard && d->checkable && d->s->function) {
		fl_buf_puts(&b, "Check that ");
		dsc_guard_words(&b, d, false);
		char *call = dsc_call(d);
		fl_buf_puts(&b, " before calling ");
		dsc_code(&b, call ? call : d->s->function);
		free(call);
		fl_buf_putc(&b, '.');
		push(out, &b);
	}
	fl_buf_puts(&b, fam[fam_index(d->family)].tip);
	push(out, &b);
	const char *st = d->strategy;
	if (dsc_eq(st, "try-catch") && d->e->error_class && !dsc_generic_class(d->e->error_class)) {
		fl_buf_puts(&b, "Catch ");
		dsc_code(&b, d->e->error_class);
		fl_buf_puts(&b, " where you can act on it, not a broad base class.");
		push(out, &b);
	} else if (dsc_eq(st, "retry")) {
		fl_buf_puts(&b, "Retry a bounded number of times with growing delays, then report the failure.");
		push(out, &b);
	} else if (dsc_eq(st, "fallback") && !d->logged) {
		fl_buf_puts(&b, "Decide in advance what to do without the result (a default, a cached value, a clear message).");
		push(out, &b);
	}
	if (d->e->error_code && dsc_eq(st, "try-catch")) {
		fl_buf_puts(&b, "Match on the code ");
		dsc_code(&b, d->e->error_code);
		fl_buf_puts(&b, ", not on the message text, which can change.");
		push(out, &b);
	}
	fl_buf_free(&b);
}
