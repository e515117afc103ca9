/*
 * validate.c — strict validation of ErrorEntry and RepoEntry records
 * (records.md "Validation is strict").  Every failure names the field.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <string.h>

#include "faultline.h"
#include "util.h"

static bool is_hex_lower(const char *s, size_t n)
{
	if (!s || strlen(s) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static bool is_alnum_lower(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$ */
static bool is_slug(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (!n || !is_alnum_lower(s[0]) || !is_alnum_lower(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum_lower(s[i]) && s[i] != '-')
			return false;
	return true;
}

/* ^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$ */
static bool is_tag(const char *s)
{
	if (!s || !(s[0] >= 'a' && s[0] <= 'z'))
		return false;
	for (size_t i = 1; s[i]; i++) {
		if (s[i] == '-') {
			if (!is_alnum_lower(s[i + 1]))
				return false;
		} else if (!is_alnum_lower(s[i])) {
			return false;
		}
	}
	return true;
}

static bool is_repo(const char *s)
{
	if (!s || !*s)
		return false;
	const char *slash = strchr(s, '/');
	if (!slash || slash == s || !slash[1] || strchr(slash + 1, '/'))
		return false;
	for (const char *p = s; *p; p++)
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			return false;
	return true;
}

/* ISO 8601 UTC: YYYY-MM-DDTHH:MM:SS[.fff]Z */
static bool is_iso_utc(const char *s)
{
	if (!s)
		return false;
	const char *f = "dddd-dd-ddTdd:dd:dd";
	size_t i = 0;
	for (; f[i]; i++) {
		if (f[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != f[i])
			return false;
	}
	if (s[i] == '.') {
		i++;
		size_t k = 0;
		while (s[i] >= '0' && s[i] <= '9') {
			i++;
			k++;
		}
		if (k == 0 || k > 9)
			return false;
	}
	return s[i] == 'Z' && s[i + 1] == '\0';
}

static bool in_list(const char *s, const char *const *list)
{
	if (!s)
		return false;
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

static size_t count_lines(const char *s)
{
	size_t n = 1;
	for (const char *p = s; (p = strchr(p, '\n')) != NULL; p++)
		n++;
	return n;
}

static bool nonempty(const char *s)
{
	return s && *s;
}

/* records.md: a repo-relative path with '/' separators; no leading '/', no
 * empty, '.' or '..' segment, no NUL (a C string has none), CR or LF; and
 * UTF-8 (a name that is not would be stored repaired, no longer the
 * file's).  The scanner leaves out files whose names break it. */
const char *fl_file_path_problem(const char *path)
{
	if (!nonempty(path))
		return "must be a non-empty repo-relative path";
	if (!fl_utf8_valid(path, strlen(path)))
		return "must be UTF-8";
	if (path[0] == '/')
		return "must be a repo-relative path (no leading '/')";
	if (strchr(path, '\\'))
		return "must be a repo-relative path with '/' separators (no '\\')";
	if (strpbrk(path, "\r\n"))
		return "must not hold a CR or LF";
	for (const char *s = path;;) {
		size_t n = strcspn(s, "/");
		if (n == 0)
			return "must not hold an empty segment ('//' or a trailing '/')";
		if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return "must not hold a '.' or '..' segment";
		if (!s[n])
			return NULL;
		s += n + 1;
	}
}

/* True when pattern certainly compiles: valid UTF-8 of at most 4,000 bytes
 * made only of literal characters, escaped metacharacters (\\. \\( ...)
 * and "(.+?)" groups, as fl_message_pattern() and fl_regex_escape() write
 * them.  PCRE2 accepts every such pattern, so the (costly) compile is only
 * needed for other ones; false means "compile to know". */
static bool plainly_valid(const char *p)
{
	static const char meta[] = ".*+?^${}()|[]\\";
	size_t i = 0;
	for (; p[i]; i++) {
		unsigned char ch = (unsigned char)p[i];
		if (i >= 4000)
			return false;
		if (ch >= 0x80 || !memchr(meta, ch, sizeof meta - 1))
			continue;
		if (ch == '\\' && p[i + 1] && memchr(meta, p[i + 1], sizeof meta - 1)) {
			i++;
			continue;
		}
		if (ch == '(' && strncmp(p + i, "(.+?)", 5) == 0) {
			i += 4;
			continue;
		}
		return false;
	}
	return fl_utf8_valid(p, i);
}

bool fl_pattern_compiles(const char *pattern, char *why, size_t whylen)
{
	if (plainly_valid(pattern))
		return true;
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
				       PCRE2_UTF, &code, &off, NULL);
	if (!re) {
		PCRE2_UCHAR buf[256];
		pcre2_get_error_message(code, buf, sizeof buf);
		if (why)
			snprintf(why, whylen, "%s at offset %zu", (char *)buf,
				 (size_t)off);
		return false;
	}
	pcre2_code_free(re);
	return true;
}

int fl_entry_validate(const fl_entry *e, fl_err *err)
{
	static const char *const types[] = {"exception", "error_code", "console",
					    "http", "validation", "panic", NULL};
	static const char *const sevs[] = {"critical", "error", "warning", "info",
					   NULL};
	static const char *const strategies[] = {
		"try-catch", "type-guard", "validation", "retry", "fallback", NULL};
	static const char *const generic[] = {"error", "errors", "exception",
					      "exceptions", "failure",
					      "failures", "unknown", NULL};
	const char *who = e->id ? e->id : "?";

	if (!is_hex_lower(e->id, 16))
		return fl_seterr(err, "record %s: id: must be 16 lowercase hex characters", who);
	if (!is_repo(e->repo))
		return fl_seterr(err, "record %s: repo: must be owner/name with exactly one '/' and no spaces", who);
	if (!is_slug(e->slug))
		return fl_seterr(err, "record %s: slug: must match ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$", who);
	if (e->error_code && !*e->error_code)
		return fl_seterr(err, "record %s: errorCode: must be null or a non-empty string", who);
	if (!nonempty(e->error_message))
		return fl_seterr(err, "record %s: errorMessage: must be a non-empty string", who);
	if (!nonempty(e->message_pattern))
		return fl_seterr(err, "record %s: messagePattern: must be a non-empty string", who);
	char why[300];
	if (!fl_pattern_compiles(e->message_pattern, why, sizeof why))
		return fl_seterr(err, "record %s: messagePattern: does not compile: %s", who, why);
	if (!in_list(e->error_type, types))
		return fl_seterr(err, "record %s: errorType: must be one of exception, error_code, console, http, validation, panic", who);
	if (e->error_class && !*e->error_class)
		return fl_seterr(err, "record %s: errorClass: must be null or a non-empty string", who);
	if (e->http_status && (e->http_status < 100 || e->http_status > 599))
		return fl_seterr(err, "record %s: httpStatus: must be null or an integer from 100 to 599", who);
	if (!in_list(e->severity, sevs))
		return fl_seterr(err, "record %s: severity: must be one of critical, error, warning, info", who);
	const char *bad_path = fl_file_path_problem(e->file_path);
	if (bad_path)
		return fl_seterr(err, "record %s: filePath: %s", who, bad_path);
	if (e->line_number < 0)
		return fl_seterr(err, "record %s: lineNumber: must be null or >= 1", who);
	if (e->source_code) {
		if (count_lines(e->source_code) > FL_WINDOW_MAX)
			return fl_seterr(err, "record %s: sourceCode: window over %d lines", who, FL_WINDOW_MAX);
	}
	if (e->source_code_start < 0 || e->source_code_end < 0)
		return fl_seterr(err, "record %s: sourceCodeStart: must be null or >= 1", who);
	if (e->source_code_start && e->source_code_end) {
		if (e->source_code_end < e->source_code_start)
			return fl_seterr(err, "record %s: sourceCodeEnd: must be >= sourceCodeStart", who);
		if (e->source_code_end - e->source_code_start + 1 > FL_WINDOW_MAX)
			return fl_seterr(err, "record %s: sourceCodeEnd: window over %d lines", who, FL_WINDOW_MAX);
	}
	if (e->line_number && e->source_code_start &&
	    e->line_number < e->source_code_start)
		return fl_seterr(err, "record %s: lineNumber: must be >= sourceCodeStart", who);
	if (e->line_number && e->source_code_end &&
	    e->line_number > e->source_code_end)
		return fl_seterr(err, "record %s: lineNumber: must be <= sourceCodeEnd", who);
	if (!e->github_url ||
	    !(fl_str_starts(e->github_url, "https://") ||
	      fl_str_starts(e->github_url, "http://") ||
	      fl_str_starts(e->github_url, "file://")))
		return fl_seterr(err, "record %s: githubUrl: must be an http(s) or file URL", who);
	if (!nonempty(e->documentation))
		return fl_seterr(err, "record %s: documentation: must be a non-empty string", who);
	if (!nonempty(e->trigger_scenarios))
		return fl_seterr(err, "record %s: triggerScenarios: must be a non-empty string", who);
	if (!nonempty(e->common_situations))
		return fl_seterr(err, "record %s: commonSituations: must be a non-empty string", who);
	for (size_t i = 0; i < e->solutions.n; i++)
		if (!e->solutions.v[i])
			return fl_seterr(err, "record %s: solutions: items must be strings", who);
	if (e->handling_strategy && !in_list(e->handling_strategy, strategies))
		return fl_seterr(err, "record %s: handlingStrategy: must be null or one of try-catch, type-guard, validation, retry, fallback", who);
	for (size_t i = 0; i < e->prevention_tips.n; i++)
		if (!e->prevention_tips.v[i])
			return fl_seterr(err, "record %s: preventionTips: items must be strings", who);
	for (size_t i = 0; i < e->tags.n; i++)
		if (!is_tag(e->tags.v[i]))
			return fl_seterr(err, "record %s: tags: \"%s\" is not a kebab-case tag", who, e->tags.v[i] ? e->tags.v[i] : "");
	if (e->background_tag &&
	    (!is_tag(e->background_tag) || in_list(e->background_tag, generic)))
		return fl_seterr(err, "record %s: backgroundTag: must be null or a specific kebab-case tag", who);
	if (!is_hex_lower(e->analyzed_sha, 40))
		return fl_seterr(err, "record %s: analyzedSha: must be 40 lowercase hex characters", who);
	if (!is_iso_utc(e->analyzed_at))
		return fl_seterr(err, "record %s: analyzedAt: must be an ISO 8601 UTC time", who);
	if (!is_iso_utc(e->content_changed_at))
		return fl_seterr(err, "record %s: contentChangedAt: must be an ISO 8601 UTC time", who);
	if (e->schema_version != FL_SCHEMA_VERSION)
		return fl_seterr(err, "record %s: schemaVersion: must be 2", who);
	return 0;
}

int fl_repo_validate(const fl_repo *r, fl_err *err)
{
	const char *who = r->repo ? r->repo : "?";
	if (!is_repo(r->repo))
		return fl_seterr(err, "repo %s: repo: must be owner/name with exactly one '/' and no spaces", who);
	if (r->stars < 0)
		return fl_seterr(err, "repo %s: stars: must be >= 0", who);
	if (r->source_files < -1)
		return fl_seterr(err, "repo %s: sourceFiles: must be null or >= 0", who);
	if (!nonempty(r->default_branch))
		return fl_seterr(err, "repo %s: defaultBranch: must be a non-empty string", who);
	if (!is_hex_lower(r->analyzed_sha, 40))
		return fl_seterr(err, "repo %s: analyzedSha: must be 40 lowercase hex characters", who);
	if (!is_iso_utc(r->analyzed_at))
		return fl_seterr(err, "repo %s: analyzedAt: must be an ISO 8601 UTC time", who);
	if (r->error_count < 0)
		return fl_seterr(err, "repo %s: errorCount: must be >= 0", who);
	return 0;
}
