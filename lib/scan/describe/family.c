/*
 * family.c — the error's family (backgroundTag, a stable kebab tag that
 * groups errors across libraries: invalid-argument, not-found, io-error,
 * timeout ...) and how a caller best handles it (handlingStrategy), read
 * from the message's words, the class, the HTTP status, the guard and the
 * words of the function and of the call that failed.
 */
#include "dsc.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void dsc_words(const char *s, dsc_wordv *out)
{
	/* each word lowercased and ended by a NUL in one block, then
	 * pointed at: one allocation for the text and one for the array */
	size_t len = strlen(s);
	char *st = fl_xmalloc(2 * len + 1);
	size_t at = 0, n = 0, start = 0;
	for (size_t i = 0;; i++) {
		char c = s[i];
		bool alnum = c && isalnum((unsigned char)c);
		bool brk = !alnum;
		if (alnum && i && at > start) {
			char p = s[i - 1];
			if (isupper((unsigned char)c) && (islower((unsigned char)p) || isdigit((unsigned char)p)))
				brk = true;
			if (isupper((unsigned char)c) && isupper((unsigned char)p) && s[i + 1] &&
			    islower((unsigned char)s[i + 1]))
				brk = true;
		}
		if (brk && at > start) {
			st[at++] = '\0';
			start = at;
			n++;
		}
		if (!c)
			break;
		if (alnum)
			st[at++] = (char)tolower((unsigned char)c);
	}
	out->store = st;
	out->n = n;
	out->v = fl_xmalloc((n ? n : 1) * sizeof *out->v);
	for (size_t k = 0, p = 0; k < n; k++) {
		out->v[k] = st + p;
		p += strlen(st + p) + 1;
	}
}

void dsc_wordv_free(dsc_wordv *w)
{
	free(w->v);
	free(w->store);
	memset(w, 0, sizeof *w);
}

/* phrase at the start of a word of s (lowercase) */
static bool has(const char *s, const char *phrase)
{
	size_t n = strlen(phrase);
	for (const char *p = strstr(s, phrase); p; p = strstr(p + 1, phrase))
		if ((p == s || !isalnum((unsigned char)p[-1])) || !isalnum((unsigned char)phrase[0]))
			return true;
	(void)n;
	return false;
}

struct rule {
	const char *family;
	const char *const *msg;   /* phrases of the message */
	const char *const *cls;   /* parts of the class name (lowercase) */
};

#define L(...) ((const char *const[]){__VA_ARGS__, NULL})

static const struct rule rules[] = {
	{"deprecated", L("deprecated", "deprecation", "will be removed", "is obsolete"), L("deprecation")},
	{"timeout", L("timed out", "timeout", "time out", "deadline exceeded", "took too long"), L("timeout")},
	{"out-of-memory", L("out of memory", "cannot allocate", "memory allocation", "failed to allocate",
			    "not enough memory", "allocation failed", "unable to allocate", "unable to realloc",
			    "cannot realloc", "failed to realloc", "realloc failed", "malloc failed", "allocation error"), L("memoryerror", "outofmemory")},
	{"authentication-failed", L("authentication", "not authenticated", "login failed", "bad credentials",
				    "invalid credentials", "wrong credentials", "incorrect credentials", "wrong password", "invalid token", "invalid password"),
	 L("authentication", "unauthenticated", "credential")},
	{"permission-denied", L("permission", "access denied", "not permitted", "forbidden", "unauthorized", "safe mode",
				"requires sudo", "privilege", "read-only", "not authorized",
				"operation not allowed", "disallowed", "disabled for safety", "reserved for internal use", "insecure", "unsafe use", "as root", "super user"),
	 L("permission", "forbidden", "unauthorized", "accessdenied", "security")},
	/* a resolver's conflict is between versions, not an item that exists
	 * already (bundler's VersionConflict, pip's ResolutionImpossible) */
	{"incompatible-version", L("version conflict", "conflicting requirements", "conflicting dependencies",
				   "dependency conflict", "dependencies conflict", "version solving failed",
				   "unable to resolve dependency", "failed to select a version",
				   "could not find compatible versions"),
	 L("versionconflict", "dependencyconflict", "resolutionimpossible", "requirementconflict")},
	{"conflict", L("already exists", "already defined", "already registered", "already installed",
		       "already in use", "duplicate", "conflict", "already declared", "exists already", "multiple definitions", "both canonicalize", "ambiguous", "multiple meta",
		       "duplication", "collision"),
	 L("conflict", "duplicate", "alreadyexists", "exists")},
	{"unsupported", L("not supported", "unsupported", "not implemented", "not yet implemented",
			  "no longer supported", "is not available on", "cannot be used with", "not available in", "unknown format", "unknown compression", "unknown algorithm", "unknown scheme", "unknown protocol", "unsupported format",
			  "is only supported", "only supported in", "only supported on",
			  "doesn't support", "does not support", "don't support", "do not support",
			  "isn't supported", "aren't supported", "not yet supported", "can't support",
			  "cannot support", "no support for", "without support for", "built without"),
	 L("notimplemented", "unsupported")},
	{"rate-limited", L("rate limit", "too many requests", "throttl"), L("ratelimit", "throttl")},
	{"certificate-error", L("certificate", "cert ", "server cert", "client cert", "x509", "signature", "ocsp"), L("certificate", "x509")},
	{"network-error", L("connection", "connect to", "network", "socket", "resolve host", "ssl", "tls",
			    "proxy", "handshake", "host unreachable", "dns", "remote host", "peer"),
	 L("connection", "socket", "ssl", "network", "transport", "proxy")},
	{"locked", L("is locked", "locked by", "lock held", "acquire lock", "acquire the lock", "unable to lock",
		     "could not lock", "failed to lock", "cannot lock", "lock timeout", "database is busy",
		     "resource busy", "deadlock", "in use by another", "database is locked"),
	 L("lockerror", "lockexception", "locked", "deadlock")},
	{"io-error", L("read error", "write error", "i/o", "io error", "cannot read", "can't read",
		       "could not read", "couldn't read", "failed to read", "unable to read", "error reading",
		       "cannot write", "can't write", "could not write", "failed to write", "unable to write",
		       "error writing", "cannot open", "can't open", "could not open", "couldn't open",
		       "failed to open", "unable to open", "error opening", "no space", "disk",
		       "cannot create", "could not create", "failed to create", "cannot stat",
		       "cannot remove", "failed to remove", "cannot rename", "failed to rename", "seek",
		       "could not be written", "could not be read", "cannot be written", "cannot be read",
		       "could not be opened", "cannot be opened", "could not be created", "could not be deleted", "not readable", "not writable", "failed to pipe", "cannot reopen", "changed between reads", "creating the dir", "error copying", "failed to copy", "could not copy"),
	 L("ioerror", "oserror", "ioexception", "filesystem", "io::error", "fileerror", "eoferror")},
	{"usage-error", L("usage:", "unknown option", "unrecognized option", "unknown flag", "requires parameter",
			  "requires an argument", "missing argument", "too many arguments", "too few arguments",
			  "not enough arguments", "missing required argument",
			  "invalid option", "unknown command", "unknown subcommand", "wrong number of arguments",
			  "missing option", "command line", "no command", "in combination with", "options are", "must specify", "no primary command", "more output options", "looks like a flag", "valid modes are", "options:",
			  "accepts no arguments", "takes no arguments", "expects no arguments", "unexpected argument",
			  "extra argument"),
	 L("usage", "commandline", "commanderror", "optionerror", "invalidoption", "optionparser")},
	{"parse-error", L("parse", "parsing", "syntax", "unexpected token", "unexpected character",
			  "unexpected end", "malformed", "invalid json", "invalid xml", "invalid yaml",
			  "unterminated", "unclosed", "bad syntax", "not well-formed", "cannot decode",
			  "failed to decode", "unexpected eof", "eof while", "end of file", "trailing comma", "expected '", "expected \"", "corrupt", "couldn't interpret", "could not interpret", "cannot interpret"),
	 L("parse", "syntax", "json", "yaml", "xml", "decode", "toml")},
	{"type-error", L("must be a ", "must be an ", "must be of type", "wrong type", "type mismatch",
			 "is not a function", "not callable", "expected a ", "expected an ", "must be a string",
			 "invalid type", "unexpected type", "cannot convert", "not a string", "not an object"),
	 L("typeerror", "classcast", "invalidcast", "typemismatch")},
	{"out-of-range", L("out of range", "out of bounds", "too large", "too big", "too long", "too small",
			   "too short", "too many", "too few", "exceeds", "exceeded", "overflow", "underflow",
			   "negative", "must be positive", "must be between", "must be greater", "must be less",
			   "at most", "at least", "maximum", "minimum", "limit"),
	 L("indexerror", "rangeerror", "outofrange", "overflow", "outofbounds", "limit")},
	{"missing-value", L("must not be null", "cannot be null", "can't be null", "must not be nil",
			    "is null", "is nil", "is none", "is required", "are required", "must be set",
			    "must be provided", "must be specified", "not set", "is empty", "cannot be empty",
			    "must not be empty", "no value", "missing value", "has no length", "no value"),
	 L("nullpointer", "nullreference", "argumentnull", "required")},
	{"not-found", L("not found", "no such", "does not exist", "doesn't exist", "cannot find", "can't find",
			"could not find", "couldn't find", "unable to find", "failed to find", "unknown",
			"no matching", "missing", "undefined", "not exist", "no entry", "not available",
			"could not locate", "cannot locate", "not installed", "not defined", "could not be found",
			"found no ", "no files found", "nothing found", "no results", "cannot be found", "can not be found", "no handler", "no go files", "no editor", "does not contain", "no rows", "not present", "no such"),
	 L("notfound", "keyerror", "nosuch", "missing", "lookuperror", "importerror", "undefined")},
	{"invalid-state", L("already closed", "is closed", "not initialized", "not initialised", "not started",
			    "already started", "called twice", "must be called", "before calling",
			    "after calling", "not open", "not ready", "not running", "already running",
			    "in progress", "not allowed while", "reentrant", "recursive", "disposed", "was closed", "while frozen", "is frozen", "circular", "cycle detected", "dependency cycle",
			    "called multiple times", "called more than once", "outside of a"),
	 L("illegalstate", "disposed", "logicexception", "invalidoperation", "stateerror", "invalidstate")},
	{"incompatible-version", L("incompatible", "version mismatch", "requires version", "newer version",
				   "older version", "not compatible"),
	 L("version", "incompatible")},
	{"command-failed", L("exit status", "exited with", "command failed", "subprocess", "returned non-zero",
			     "failed to execute", "could not execute", "error executing",
			     "could not execl", "could not execv", "failed with the following output",
			     "non-zero exit", "exit code", "failed to clone", "could not stash", "error output"),
	 /* "CommandError" (pip, Django) is a command used wrongly (usage);
	  * a class says a command failed only with a word that says so */
	 L("subprocess", "calledprocess", "commandfailed", "commandexecution", "processexecution",
	   "execerror", "execfailed", "processfailed", "exitcode", "exitstatus")},
	{"cancelled", L("canceled", "cancelled", "interrupted", "aborted by", "received signal"), L("cancel", "interrupt")},
	{"config-error", L("config", "configuration", "setting", "environment variable"), L("config")},
	{"internal-error", L("internal error", "unreachable", "should not happen", "should never happen",
			     "can't happen", "cannot happen", "impossible", "bug:", "assertion", "invariant",
			     "unhandled", "not reached", "malfunction", "out of sync"),
	 L("assertion", "internal")},
	{"invalid-argument", L("invalid", "must be", "must not", "cannot be", "can't be", "may not", "expected",
			       "not valid", "not a valid", "bad ", "illegal", "wrong", "unrecognized", "unrecognised",
			       "not allowed", "should be", "needs to be", "is not a", "requires", "prohibited", "cannot use", "cannot call", "cannot refer", "cannot add", "can't handle", "cannot handle", "odd length", "mismatch", "overlapping", "non-constant", "unexpected", "refusing to", "not usable", "unknown", "may only be used", "can't assign", "cannot assign", "cannot encode", "incorrect", "not renderable", "valid "),
	 L("valueerror", "illegalargument", "invalidargument", "argumenterror", "argumentexception",
	   "unexpectedvalue", "domainexception", "validation", "invalid")},
	{NULL, NULL, NULL},
};

/* The rules' message phrases filed by their first two letters (a-z), each
 * with its rule's index: a message is read once, at each start of a word,
 * instead of once for each phrase.  The phrases that do not start with two
 * letters are kept apart, in rule order. */
typedef struct phrase {
	const char *text;
	size_t len;
	int rule;
} phrase;

static struct {
	phrase *v;              /* by pair, then in rule order */
	int at[26 * 26 + 1];    /* the pair's first entry in v */
	phrase *other;          /* the phrases not starting with two letters */
	size_t nother;
} by_pair;
static pthread_once_t by_pair_once = PTHREAD_ONCE_INIT;

static int pair_of(const char *p)
{
	return p[0] >= 'a' && p[0] <= 'z' && p[1] >= 'a' && p[1] <= 'z' ? (p[0] - 'a') * 26 + (p[1] - 'a') : -1;
}

static void file_phrases(void)
{
	size_t n = 0;
	for (size_t i = 0; rules[i].family; i++)
		for (const char *const *m = rules[i].msg; *m; m++)
			n++;
	by_pair.v = fl_xmalloc((n ? n : 1) * sizeof *by_pair.v);
	by_pair.other = fl_xmalloc((n ? n : 1) * sizeof *by_pair.other);
	int count[26 * 26] = {0};
	for (size_t i = 0; rules[i].family; i++)
		for (const char *const *m = rules[i].msg; *m; m++)
			if (pair_of(*m) >= 0)
				count[pair_of(*m)]++;
	by_pair.at[0] = 0;
	for (int k = 0; k < 26 * 26; k++)
		by_pair.at[k + 1] = by_pair.at[k] + count[k];
	int fill[26 * 26];
	memcpy(fill, by_pair.at, sizeof fill);
	for (size_t i = 0; rules[i].family; i++)
		for (const char *const *m = rules[i].msg; *m; m++) {
			phrase ph = {*m, strlen(*m), (int)i};
			int k = pair_of(*m);
			if (k >= 0)
				by_pair.v[fill[k]++] = ph;
			else
				by_pair.other[by_pair.nother++] = ph;
		}
}

/* the first rule (in the table's order) with a phrase at the start of a
 * word of the lowercase message, or -1; a phrase that starts with no
 * letter counts anywhere */
static int first_rule(const char *s)
{
	pthread_once(&by_pair_once, file_phrases);
	int best = INT_MAX;
	for (const char *p = s; p[0] && p[1]; p++) {
		if (p != s && isalnum((unsigned char)p[-1]))
			continue;
		int k = pair_of(p);
		if (k < 0)
			continue;
		for (int j = by_pair.at[k]; j < by_pair.at[k + 1] && by_pair.v[j].rule < best; j++) {
			const phrase *ph = &by_pair.v[j];
			if (ph->len == 2 || (p[2] == ph->text[2] && strncmp(p + 3, ph->text + 3, ph->len - 3) == 0))
				best = ph->rule;
		}
	}
	for (size_t j = 0; j < by_pair.nother && by_pair.other[j].rule < best; j++)
		if (has(s, by_pair.other[j].text))
			best = by_pair.other[j].rule;
	return best == INT_MAX ? -1 : best;
}

/* the family of a callee's or function's verb: "open" -> io-error */
static const char *verb_family(const char *name, const char **verb, bool call)
{
	static const char *const v[][2] = {
		{"open", "io-error"},	  {"read", "io-error"},		{"write", "io-error"},
		{"stat", "io-error"},	  {"mkdir", "io-error"},	{"rename", "io-error"},
		{"unlink", "io-error"},	  {"seek", "io-error"},		{"fopen", "io-error"},
		{"fread", "io-error"},	  {"fwrite", "io-error"},	{"close", "io-error"},
		{"flush", "io-error"},	  {"copy", "io-error"},		{"connect", "network-error"},
		{"socket", "network-error"}, {"send", "network-error"}, {"recv", "network-error"},
		{"http", "network-error"}, {"ssl", "network-error"},	{"tls", "network-error"},
		{"dial", "network-error"}, {"download", "network-error"}, {"fetch", "network-error"},
		{"parse", "parse-error"}, {"lex", "parse-error"},	{"decode", "parse-error"},
		{"unmarshal", "parse-error"}, {"tokenize", "parse-error"}, {"scan", "parse-error"},
		{"lookup", "not-found"},  {"find", "not-found"},	{"resolve", "not-found"},
		{"load", "io-error"},		{"alloc", "out-of-memory"},
		{"malloc", "out-of-memory"}, {"lock", "locked"},	{"validate", "invalid-argument"},
		{"check", "invalid-argument"}, {"verify", "invalid-argument"}, {"exec", "command-failed"},
		{"run", "command-failed"}, {"spawn", "command-failed"},
	};
	dsc_wordv w = {0};
	dsc_words(dsc_last(name), &w);
	const char *f = NULL;
	for (size_t i = 0; i < w.n && !f; i++)
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			if (w.v[i][0] == v[k][0][0] && dsc_eq(w.v[i], v[k][0])) {
				/* a function named get, run or check does
				 * anything: only a failed call of it says */
				if (!call && (dsc_eq(v[k][0], "get") || dsc_eq(v[k][0], "run") ||
					      dsc_eq(v[k][0], "check") || dsc_eq(v[k][0], "load") ||
					      dsc_eq(v[k][0], "find")))
					continue;
				f = v[k][1];
				if (verb)
					*verb = v[k][0];
				break;
			}
	dsc_wordv_free(&w);
	return f;
}

static const char *status_family(int http)
{
	switch (http) {
	case 400: case 422: return "invalid-argument";
	case 401: return "authentication-failed";
	case 403: return "permission-denied";
	case 404: case 410: return "not-found";
	case 405: case 415: case 501: return "unsupported";
	case 408: case 504: return "timeout";
	case 409: case 412: return "conflict";
	case 413: case 414: case 416: return "out-of-range";
	case 429: return "rate-limited";
	case 502: case 503: return "service-unavailable";
	default: return http >= 500 ? "server-error" : NULL;
	}
}

static char *lower(const char *s)
{
	char *r = fl_xstrdup(s ? s : "");
	for (char *p = r; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return r;
}

/* A function that prints a usage text: "usage", "badusage",
 * "print_usage", "showUsage". */
static bool usage_function(const char *fn)
{
	if (!fn)
		return false;
	for (const char *p = dsc_last(fn); *p; p++)
		if ((*p | 0x20) == 'u' && strncasecmp(p, "usage", 5) == 0)
			return true;
	return false;
}

/* Is the word [p, ...) a long command-line option ("--indent",
 * "`--fix`", "--reporter=json")? */
static bool option_word(const char *p)
{
	while (*p == '\'' || *p == '"' || *p == '`' || *p == '(' || *p == '[')
		p++;
	if (p[0] == '-' && p[1] != '-') {
		/* a single-dash flag: go's "-race", ls's "-l" (not "-1") */
		size_t n = 0;
		while (isalpha((unsigned char)p[1 + n]) || (n && (isdigit((unsigned char)p[1 + n]) || p[1 + n] == '-')))
			n++;
		char end = p[1 + n];
		return n >= 1 && islower((unsigned char)p[1]) &&
		       (!end || end == ' ' || strchr(",.:;'\"`)]=", end));
	}
	if (p[0] != '-' || p[1] != '-' || !islower((unsigned char)p[2]))
		return false;
	size_t n = 0;
	while (islower((unsigned char)p[2 + n]) || isdigit((unsigned char)p[2 + n]) || p[2 + n] == '-')
		n++;
	return n >= 2;
}

/* Is the lower-cased message about a command-line option: one among
 * its first three words, after the program's or level's "name:" words
 * ("%s: --indent takes one parameter", "error : can't use --patch-from",
 * "only one --like allowed")?  An option named further on is mostly
 * advice ("..., try --force") or part of a command run ("failed to
 * execute git diff --name-status"). */
static bool names_option(const char *msg)
{
	const char *p = msg;
	for (int words = 0; *p && words < 3;) {
		while (*p == ' ')
			p++;
		const char *w = p;
		while (*p && *p != ' ')
			p++;
		if (p == w)
			break;
		if (p[-1] == ':' && (!words || (words == 1 && p - w == 1))) {
			words = 0; /* "prog:", "%s:", "warning:", "error :" */
			continue;
		}
		if (option_word(w))
			return true;
		words++;
	}
	return false;
}

/* "no test files found", "no gem matching '{dep}' found": the word "no"
 * and, within five words after it, "found" (lowercase message). */
static bool none_found(const char *msg)
{
	for (const char *p = strstr(msg, "no "); p; p = strstr(p + 3, "no ")) {
		if (p != msg && isalnum((unsigned char)p[-1]))
			continue;
		const char *q = p + 3;
		for (int words = 0; *q && words < 5; words++) {
			while (*q == ' ')
				q++;
			if (strncmp(q, "found", 5) == 0 && !isalnum((unsigned char)q[5]))
				return true;
			while (*q && *q != ' ')
				q++;
		}
	}
	return false;
}

/* "missing file argument", "missing operand", "missing required
 * positional argument": an argument of the command or call left out
 * ("missing" and, within three words, argument(s) or operand) */
static bool missing_argument(const char *msg)
{
	for (const char *p = strstr(msg, "missing"); p; p = strstr(p + 7, "missing")) {
		if (p != msg && isalnum((unsigned char)p[-1]))
			continue;
		const char *q = p + 7;
		for (int words = 0; *q && words < 4; words++) {
			while (*q == ' ')
				q++;
			static const char *const words_[] = {"argument", "arguments", "operand", "operands", NULL};
			for (const char *const *w = words_; *w; w++) {
				size_t wl = strlen(*w);
				if (strncmp(q, *w, wl) == 0 && !isalpha((unsigned char)q[wl]))
					return true;
			}
			while (*q && *q != ' ')
				q++;
		}
	}
	return false;
}

/* The message asks the user to report it ("Please report at
 * https://github.com/composer/composer/issues", "this is a bug"): its
 * authors hold it for a bug of their own, whatever its other words say.
 * Not a request on a condition ("report this if you think it is a
 * mistake", "report a bug if this causes problems"). */
static bool asks_report(const char *msg)
{
	static const char *const phrases[] = {
		"please report at", "please report to http", "please report as", "please report an issue",
		"report this", "report it ", "report it.", "report a bug",
		"report the bug", "file a bug", "file an issue", "open an issue", "this is a bug",
		"is probably a bug", "is likely a bug", "bug report", NULL,
	};
	for (const char *const *p = phrases; *p; p++) {
		const char *at = strstr(msg, *p);
		if (!at || (at > msg && isalnum((unsigned char)at[-1])))
			continue;
		const char *after = at + strlen(*p);
		const char *cond = strstr(after, " if ");
		if (!cond || cond - after > 12)
			return true;
	}
	return false;
}

static const char *family_of(dsc *d)
{
	const fl_entry *e = d->e;
	char *msg = lower(e->error_message);
	char *cls = NULL;
	if (e->error_class) {
		/* "Gem::InvalidSpecificationException" -> "invalidspecificationexception" */
		fl_buf b = {0};
		for (const char *p = dsc_last(e->error_class); *p; p++)
			if (isalnum((unsigned char)*p))
				fl_buf_putc(&b, (char)tolower((unsigned char)*p));
		cls = dsc_take(&b);
		if (strstr(e->error_class, "io::Error")) {
			free(cls);
			cls = fl_xstrdup("io::error");
		}
	}
	const char *f = NULL;
	/* a lint rule's report is about the file it checks, whatever its
	 * words say ("Unexpected empty block", "Expected ... to be ...") */
	if (d->s->idiom && dsc_eq(d->s->idiom, "lint rule report")) {
		free(msg);
		free(cls);
		return "lint-problem";
	}
	/* a type check of the parameters says more than the words */
	for (size_t i = 0; i < d->g.n && !f; i++)
		if (d->g.a[i].kind == GA_TYPE && d->g.a[i].caller && !d->g.any)
			f = "type-error";
	/* ... and so does a file that is not there: "could not find the TLS
	 * key file" after `not os.path.exists(p)` is no network error */
	for (size_t i = 0; i < d->g.n && !f; i++)
		if (d->g.a[i].kind == GA_EXISTS && d->g.a[i].neg && !d->g.any)
			f = "not-found";
	bool by_guard = f != NULL;
	bool class_family = false;
	/* the class, when it says more than "error"; a class named first
	 * for a value being wrong (`InvalidKeyError`,
	 * `InvalidVersionSpecificationException`) is that, not the missing
	 * key or the clashing version a later part of its name would say
	 * (an `InvalidCertificate` is still about a certificate) */
	bool wrong_first = cls && (fl_str_starts(cls, "invalid") || fl_str_starts(cls, "illegal"));
	if (!f && cls && !dsc_generic_class(e->error_class))
		for (size_t i = 0; rules[i].family && !f; i++)
			for (const char *const *c = rules[i].cls; *c && !f; c++) {
				const char *at = strstr(cls, *c);
				if (at && wrong_first && at > cls &&
				    (dsc_eq(rules[i].family, "not-found") ||
				     dsc_eq(rules[i].family, "incompatible-version") ||
				     dsc_eq(rules[i].family, "missing-value")))
					continue;
				if (at)
					f = rules[i].family;
			}
	class_family = f && !by_guard;
	/* a handler's class: the failure it turns into this error
	 * (`except OSError` -> io-error) */
	if (!f && d->caught && !dsc_generic_class(d->caught)) {
		fl_buf kb = {0};
		for (const char *p = dsc_last(d->caught); *p; p++)
			if (isalnum((unsigned char)*p))
				fl_buf_putc(&kb, (char)tolower((unsigned char)*p));
		char *k = dsc_take(&kb);
		for (size_t i = 0; rules[i].family && !f; i++)
			for (const char *const *c = rules[i].cls; *c && !f; c++)
				if (strstr(k, *c))
					f = rules[i].family;
		free(k);
	}
	/* the words of the message refine a broad class: a ValueError whose
	 * message says "not found" is a not-found */
	int r = first_rule(msg);
	const char *by_msg = r >= 0 ? rules[r].family : NULL;
	if (!by_msg && none_found(msg))
		by_msg = "not-found";
	if ((!by_msg || dsc_eq(by_msg, "not-found") || dsc_eq(by_msg, "missing-value")) &&
	    missing_argument(msg))
		by_msg = "usage-error";
	/* ... but a call that failed says more than a broad word of a message
	 * that wraps its error ("cannot load config: %w" after os.Open) */
	const char *by_call = NULL;
	for (size_t i = 0; i < d->g.n && !by_call; i++)
		if (d->g.a[i].kind == GA_FAILED && d->g.a[i].call)
			by_call = verb_family(d->g.a[i].call, &d->verb, true);
	bool weak = by_msg && (dsc_eq(by_msg, "invalid-argument") || dsc_eq(by_msg, "config-error") ||
			       dsc_eq(by_msg, "operation-failed"));
	if (!by_guard && by_call && (!by_msg || weak) && !f)
		f = by_call;
	/* an argument's class (ValueError, IllegalArgumentException) says the
	 * value was refused: "invalid timeout" is no timeout, "bad proxy URL"
	 * no network failure */
	bool event = by_msg && (dsc_eq(by_msg, "timeout") || dsc_eq(by_msg, "network-error") ||
				dsc_eq(by_msg, "io-error") || dsc_eq(by_msg, "locked") ||
				dsc_eq(by_msg, "rate-limited") || dsc_eq(by_msg, "cancelled") ||
				dsc_eq(by_msg, "service-unavailable"));
	bool arg_class = f && dsc_eq(f, "invalid-argument") && !by_guard;
	if (!by_guard && !(arg_class && event) &&
	    (!f || (by_msg && (dsc_eq(f, "invalid-argument") || dsc_eq(f, "internal-error") ||
			       dsc_eq(f, "network-error") || dsc_eq(f, "io-error")) &&
		    !weak)))
		f = by_msg ? by_msg : f;
	/* a function that prints the usage text (usage, badusage,
	 * print_usage), or a message that names a command-line option
	 * ("%s: --indent takes a number between -1 and 7"): the command was
	 * used wrongly, which says more than a broad word of the message */
	if (!by_guard && !class_family &&
	    (!f || (dsc_eq(f, "invalid-argument") && f == by_msg)) &&
	    (usage_function(d->s->function) || names_option(msg)))
		f = "usage-error";
	/* a panic on no condition is a path its authors thought unreachable
	 * ("unexpected block" in a switch's default) */
	if (f && dsc_eq(f, "invalid-argument") && !d->guard && !d->arm &&
	    (dsc_eq(d->s->type, FL_T_PANIC) || strncmp(d->idiom, "assert", 6) == 0))
		f = "internal-error";
	if (!f && e->http_status)
		f = status_family(e->http_status);
	if (!f && e->error_code) {
		char *code = lower(e->error_code);
		static const char *const codes[][2] = {
			{"enoent", "not-found"}, {"eacces", "permission-denied"}, {"eperm", "permission-denied"},
			{"etimedout", "timeout"}, {"econnrefused", "network-error"}, {"econnreset", "network-error"},
			{"eexist", "conflict"}, {"enomem", "out-of-memory"}, {"einval", "invalid-argument"},
			{"invalid", "invalid-argument"}, {"not_found", "not-found"}, {"notfound", "not-found"},
			{"timeout", "timeout"}, {"unsupported", "unsupported"}, {"type", "type-error"},
			{"range", "out-of-range"}, {"parse", "parse-error"}, {"syntax", "parse-error"},
		};
		for (size_t i = 0; i < sizeof codes / sizeof codes[0] && !f; i++)
			if (strstr(code, codes[i][0]))
				f = codes[i][1];
		free(code);
	}
	/* the guard: a type check, a check of an argument, a missing value */
	for (size_t i = 0; i < d->g.n && !f; i++) {
		const dsc_atom *a = &d->g.a[i];
		if (a->kind == GA_TYPE)
			f = "type-error";
		else if (a->kind == GA_EXISTS)
			f = "not-found";
		else if (a->kind == GA_MEMBER)
			f = "not-found";
		else if (a->kind == GA_CMP && a->caller)
			f = "invalid-argument";
		else if ((a->kind == GA_NULL || a->kind == GA_EMPTY) && a->caller && !a->neg)
			f = "missing-value"; /* when it is missing, not when it is there */
		else if (a->kind == GA_CMP && a->subject && dsc_measured(a->subject))
			f = "out-of-range"; /* a count: too many or too few */
		else if ((a->kind == GA_FLAG || a->kind == GA_NULL || a->kind == GA_EMPTY) && a->subject &&
			 (fl_str_starts(a->subject, "self.") || fl_str_starts(a->subject, "this.") ||
			  fl_str_starts(a->subject, "$this->") || (a->subject[0] == '@' && a->subject[1] != '@')))
			f = "invalid-state"; /* the object's own state */
		else if (a->kind == GA_FAILED && a->call)
			f = verb_family(a->call, &d->verb, true);
	}
	if (!f && dsc_eq(d->s->type, FL_T_VALIDATION))
		f = "invalid-argument";
	if (!f && d->s->function)
		f = verb_family(d->s->function, &d->verb, false);
	/* a panic or an assertion (not a fatal log: Go's log.Fatalf is how a
	 * program reports what it was asked to do wrongly, then exits) */
	if (!f && (dsc_eq(d->s->type, FL_T_PANIC) || strncmp(d->idiom, "assert", 6) == 0 ||
		   (cls && strstr(cls, "assert"))))
		f = "internal-error";
	if (!f && d->checkable)
		f = "invalid-argument";
	if (!f)
		f = "operation-failed";
	if (asks_report(msg))
		f = "internal-error";
	if (!d->verb && d->s->function)
		verb_family(d->s->function, &d->verb, false);
	free(msg);
	free(cls);
	return f;
}

static bool in(const char *f, const char *const *list)
{
	for (; *list; list++)
		if (dsc_eq(f, *list))
			return true;
	return false;
}

void dsc_classify(dsc *d)
{
	d->family = family_of(d);
	const char *f = d->family;
	bool exc = dsc_eq(d->s->type, FL_T_EXCEPTION) || dsc_eq(d->s->type, FL_T_HTTP);
	bool typed = exc && ((d->e->error_class && !dsc_generic_class(d->e->error_class)) || d->e->error_code);
	if (in(f, L("type-error")))
		d->strategy = "type-guard";
	else if ((in(f, L("invalid-argument", "out-of-range", "missing-value", "usage-error")) &&
		  (d->checkable || !typed || !d->s->function)) ||
		 in(f, L("lint-problem")))
		d->strategy = "validation"; /* a lint problem: the checked file is the input */
	else if (in(f, L("network-error", "timeout", "locked", "rate-limited", "service-unavailable", "server-error")))
		d->strategy = "retry";
	else if (typed)
		d->strategy = "try-catch";
	else if (in(f, L("invalid-argument", "out-of-range", "missing-value", "usage-error", "parse-error",
			 "invalid-state", "internal-error", "incompatible-version", "config-error")))
		d->strategy = exc && !d->logged ? "try-catch" : "validation";
	else
		d->strategy = exc && !d->logged && !in(f, L("not-found", "unsupported", "deprecated", "io-error"))
				      ? "try-catch"
				      : "fallback";
}
