/*
 * mcp.c — `faultline mcp`: a Model Context Protocol server on stdio
 * (newline-delimited JSON-RPC 2.0; stdout carries only protocol messages,
 * logs go to stderr).  It owns protocol version negotiation, the JSON-RPC
 * error codes, and the tools search_error, get_error, list_repos,
 * explain_log and refresh_dataset (text content plus structuredContent that
 * follows each tool's output schema).  Data come from a local store or a
 * data set URL synced into the cache (source.c), refreshed at most once per
 * TTL.  A sync runs on a thread of its own: a tool call waits for it until
 * CALL_WAIT_MS after its start (refresh_dataset REFRESH_WAIT_MS), then
 * answers from the cached copy, so a slow server never holds the protocol
 * up and calls during a long sync do not wait at all.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"
#include "util.h"

#define MAX_LINE (8u << 20)
#define MAX_LOG (1u << 20)
#define CALL_WAIT_MS 1000       /* a tool call, for a sync: since its start */
#define REFRESH_WAIT_MS 10000   /* refresh_dataset, for a sync: since its start */

static const char *const VERSIONS[] = {"2025-06-18", "2025-03-26", "2024-11-05"};

struct mcp {
	const fl_mcp_opts *o;
	FILE *out;
	srv_source src;
	fl_store *st;
	fl_lookup *lk;
	bool ready;
	bool gone;              /* the client closed our stdout */
};

/* ---- data ------------------------------------------------------------------ */

static void close_data(struct mcp *m)
{
	if (m->lk)
		fl_lookup_close(m->lk);
	if (m->st)
		fl_store_close(m->st);
	m->lk = NULL;
	m->st = NULL;
}

static int open_data(struct mcp *m, fl_err *err)
{
	close_data(m);
	if (fl_store_open(m->src.store_path, true, &m->st, err) < 0) {
		m->st = NULL;
		return -1;
	}
	if (fl_lookup_open(m->st, &m->lk, err) < 0) {
		fl_store_close(m->st);
		m->st = NULL;
		m->lk = NULL;
		return -1;
	}
	return 0;
}

/* Refresh when due (or forced), waiting for a sync at most wait_ms; reopen
 * when the store changed. */
static int ensure_data(struct mcp *m, bool force, int wait_ms, bool *changed, fl_err *err)
{
	bool ch = false;
	if (srv_source_refresh_wait(&m->src, force, wait_ms, &ch, err) < 0)
		return -1;
	if (changed)
		*changed = ch;
	if (ch || !m->lk)
		return open_data(m, err);
	return 0;
}

static const char *version_of(struct mcp *m)
{
	return m->src.db ? fl_lookup_version(m->lk) : m->src.version;
}

static void add_freshness(struct mcp *m, json_t *o)
{
	json_object_set_new(o, "stale", json_boolean(m->src.stale));
	json_object_set_new(o, "refreshing", json_boolean(m->src.sync != NULL));
	json_object_set_new(o, "ageSeconds", json_integer(srv_source_age(&m->src)));
	if (m->src.stale)
		json_object_set_new(o, "refreshError", json_string(m->src.last_error));
}

/* ---- output ----------------------------------------------------------------- */

static void send_msg(struct mcp *m, json_t *o)
{
	char *s = srv_dump(o);
	json_decref(o);
	fputs(s, m->out);
	fputc('\n', m->out);
	if (fflush(m->out) != 0)
		m->gone = true;
	free(s);
}

static json_t *result_msg(json_t *id, json_t *result)
{
	json_t *o = json_object();
	json_object_set_new(o, "jsonrpc", json_string("2.0"));
	json_object_set(o, "id", id ? id : json_null());
	json_object_set_new(o, "result", result);
	return o;
}

static json_t *error_msg(json_t *id, int code, const char *msg)
{
	json_t *e = json_object();
	json_object_set_new(e, "code", json_integer(code));
	json_object_set_new(e, "message", json_string(msg));
	json_t *o = json_object();
	json_object_set_new(o, "jsonrpc", json_string("2.0"));
	json_object_set(o, "id", id ? id : json_null());
	json_object_set_new(o, "error", e);
	return o;
}

static json_t *tool_text(const char *text, json_t *structured, bool is_error)
{
	json_t *c = json_object();
	json_object_set_new(c, "type", json_string("text"));
	json_t *t = json_string(text);
	json_object_set_new(c, "text", t ? t : json_string("(text not valid UTF-8)"));
	json_t *content = json_array();
	json_array_append_new(content, c);
	json_t *r = json_object();
	json_object_set_new(r, "content", content);
	if (structured)
		json_object_set_new(r, "structuredContent", structured);
	json_object_set_new(r, "isError", json_boolean(is_error));
	return r;
}

static json_t *tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_t *tool_error(const char *fmt, ...)
{
	char msg[1400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return tool_text(msg, NULL, true);
}

/* ---- tool definitions ---------------------------------------------------------- */

static json_t *J(const char *text)
{
	json_error_t e;
	json_t *o = json_loads(text, 0, &e);
	if (!o) {
		fprintf(stderr, "faultline: mcp: bad built-in schema at %d: %s\n", e.position, e.text);
		abort();
	}
	return o;
}

#define FRESH "\"datasetVersion\":{\"type\":\"string\"},\"stale\":{\"type\":\"boolean\"},\"refreshing\":{\"type\":\"boolean\"},\"ageSeconds\":{\"type\":\"integer\"},\"refreshError\":{\"type\":\"string\"}"
#define MATCH "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},\"repo\":{\"type\":\"string\"},\"slug\":{\"type\":\"string\"},\"code\":{\"type\":[\"string\",\"null\"]},\"message\":{\"type\":\"string\"},\"score\":{\"type\":\"number\"},\"matchType\":{\"type\":\"string\"},\"filePath\":{\"type\":\"string\"},\"lineNumber\":{\"type\":[\"integer\",\"null\"]},\"githubUrl\":{\"type\":\"string\"},\"captures\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"evidence\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"sameText\":{\"type\":\"integer\"},\"versions\":{\"type\":\"object\"}},\"required\":[\"id\",\"repo\",\"slug\",\"message\",\"score\",\"matchType\",\"filePath\",\"githubUrl\"]}"
#define LOGMATCH "{\"type\":\"object\",\"properties\":{\"line\":{\"type\":\"integer\"},\"endLine\":{\"type\":\"integer\"},\"text\":{\"type\":\"string\"},\"id\":{\"type\":\"string\"},\"repo\":{\"type\":\"string\"},\"slug\":{\"type\":\"string\"},\"filePath\":{\"type\":\"string\"},\"lineNumber\":{\"type\":[\"integer\",\"null\"]},\"matchType\":{\"type\":\"string\"},\"score\":{\"type\":\"number\"},\"captures\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},\"required\":[\"line\",\"endLine\",\"text\",\"id\",\"repo\",\"slug\",\"filePath\",\"matchType\",\"score\"]}"

static json_t *tools_list(void)
{
	json_t *a = json_array();
	json_array_append_new(a, J(
		"{\"name\":\"search_error\",\"title\":\"Find where an error message comes from\","
		"\"description\":\"Call this first whenever you see an error message, exception, panic, stack trace or failing log line and want to know which library or program raised it and why. Paste the raw text as it was printed (prefixes, timestamps and stack frames are fine). Returns ranked matches: record id, repository, source file and line, permalink, match tier (exact-code, pattern, fuzzy), score in [0,1] and the values the message's placeholders captured. No matches means no confident match. Then call get_error with the best id for the meaning and the fix.\","
		"\"inputSchema\":{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\",\"description\":\"The error text or a few log lines around it (at most 1 MB).\"},\"repo\":{\"type\":\"string\",\"description\":\"Only this repository, as OWNER/NAME.\"},\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100,\"description\":\"Most matches to return (default 5).\"}},\"required\":[\"message\"]},"
		"\"outputSchema\":{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"},\"matches\":{\"type\":\"array\",\"items\":" MATCH "}," FRESH "},\"required\":[\"query\",\"matches\",\"datasetVersion\"]},"
		"\"annotations\":{\"readOnlyHint\":true,\"openWorldHint\":false}}"));
	json_array_append_new(a, J(
		"{\"name\":\"get_error\",\"title\":\"Explain one error record\","
		"\"description\":\"Call this with an id returned by search_error (or a repository and slug) to get what the error means, what triggers it, the fixes (most likely first), a defensive coding pattern (validation, type guard, try/catch), the source window and a permalink to the line that raises it. Use it before proposing a fix for an error you found with search_error.\","
		"\"inputSchema\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\",\"description\":\"16 hex character record id.\"},\"repo\":{\"type\":\"string\",\"description\":\"OWNER/NAME (with slug).\"},\"slug\":{\"type\":\"string\",\"description\":\"The record's slug within repo.\"}}},"
		"\"outputSchema\":{\"type\":\"object\",\"properties\":{\"record\":{\"type\":\"object\"},\"markdown\":{\"type\":\"string\"}," FRESH "},\"required\":[\"record\",\"markdown\",\"datasetVersion\"]},"
		"\"annotations\":{\"readOnlyHint\":true,\"openWorldHint\":false}}"));
	json_array_append_new(a, J(
		"{\"name\":\"list_repos\",\"title\":\"List the indexed repositories\","
		"\"description\":\"Call this to see which libraries and programs are indexed (repository, language, commit analysed, number of error records) — for example to choose a repo filter for search_error or to check whether a dependency is covered at all.\","
		"\"inputSchema\":{\"type\":\"object\",\"properties\":{}},"
		"\"outputSchema\":{\"type\":\"object\",\"properties\":{\"repos\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"repo\":{\"type\":\"string\"},\"errorCount\":{\"type\":\"integer\"}},\"required\":[\"repo\",\"errorCount\"]}}," FRESH "},\"required\":[\"repos\",\"datasetVersion\"]},"
		"\"annotations\":{\"readOnlyHint\":true,\"openWorldHint\":false}}"));
	json_array_append_new(a, J(
		"{\"name\":\"explain_log\",\"title\":\"Annotate a log\","
		"\"description\":\"Call this with a whole pasted log, CI output or console transcript (up to 1 MB) when you do not know which line is the real failure: every line or multi-line error (tracebacks, panics) that matches a known error is reported with its log line numbers and the record that raised it. Use search_error instead for one message.\","
		"\"inputSchema\":{\"type\":\"object\",\"properties\":{\"log\":{\"type\":\"string\",\"description\":\"The log text.\"},\"repo\":{\"type\":\"string\",\"description\":\"Only this repository, as OWNER/NAME.\"}},\"required\":[\"log\"]},"
		"\"outputSchema\":{\"type\":\"object\",\"properties\":{\"matches\":{\"type\":\"array\",\"items\":" LOGMATCH "},\"lines\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}," FRESH "},\"required\":[\"matches\",\"lines\",\"datasetVersion\"]},"
		"\"annotations\":{\"readOnlyHint\":true,\"openWorldHint\":false}}"));
	json_array_append_new(a, J(
		"{\"name\":\"refresh_dataset\",\"title\":\"Refresh the error data set\","
		"\"description\":\"Call this only when the answers look out of date or a result says stale: true. It checks the published data set for a new version now (normally it is checked at most once per TTL), downloads and verifies it, and reports the version in use, whether it changed, and whether the server is serving an older cached copy. A download that takes longer than a few seconds goes on in the background (refreshing: true) while the cached copy answers; call it again later for the outcome.\","
		"\"inputSchema\":{\"type\":\"object\",\"properties\":{}},"
		"\"outputSchema\":{\"type\":\"object\",\"properties\":{\"changed\":{\"type\":\"boolean\"},\"records\":{\"type\":\"integer\"},\"source\":{\"type\":\"string\"}," FRESH "},\"required\":[\"changed\",\"records\",\"source\",\"datasetVersion\",\"stale\"]},"
		"\"annotations\":{\"readOnlyHint\":false,\"openWorldHint\":true}}"));
	json_t *r = json_object();
	json_object_set_new(r, "tools", a);
	return r;
}

/* ---- tools ------------------------------------------------------------------------ */

static bool valid_repo(const char *r)
{
	const char *sl = strchr(r, '/');
	return sl && sl != r && sl[1] && !strchr(sl + 1, '/');
}

static json_t *t_search(struct mcp *m, json_t *args)
{
	json_t *mv = json_object_get(args, "message");
	if (!json_is_string(mv) || !json_string_length(mv))
		return tool_error("search_error: 'message' (the error text) is required");
	if (json_string_length(mv) > MAX_LOG)
		return tool_error("search_error: 'message' is over 1 MB; use explain_log for long logs");
	const char *repo = json_string_value(json_object_get(args, "repo"));
	if (repo && *repo && !valid_repo(repo))
		return tool_error("search_error: 'repo' must be OWNER/NAME");
	json_t *lv = json_object_get(args, "limit");
	size_t limit = 5;
	if (lv) {
		if (!json_is_integer(lv) || json_integer_value(lv) < 1 || json_integer_value(lv) > 100)
			return tool_error("search_error: 'limit' must be an integer from 1 to 100");
		limit = (size_t)json_integer_value(lv);
	}
	json_t *o = srv_search_json(m->lk, m->st, json_string_value(mv), json_string_length(mv),
				    repo && *repo ? repo : NULL, limit, version_of(m), m->o->match_json);
	add_freshness(m, o);
	fl_buf b = {0};
	json_t *ms = json_object_get(o, "matches");
	if (json_array_size(ms) == 0) {
		fl_buf_puts(&b, "No confident match for this error text in the data set");
	} else {
		size_t i;
		json_t *x;
		json_array_foreach(ms, i, x) {
			char *l = fl_xasprintf("%zu. [%s %.3f] %s — %s/%s %s:%lld\n   id %s  %s\n", i + 1,
					       json_string_value(json_object_get(x, "matchType")),
					       json_real_value(json_object_get(x, "score")),
					       json_string_value(json_object_get(x, "message")),
					       json_string_value(json_object_get(x, "repo")),
					       json_string_value(json_object_get(x, "slug")),
					       json_string_value(json_object_get(x, "filePath")),
					       (long long)json_integer_value(json_object_get(x, "lineNumber")),
					       json_string_value(json_object_get(x, "id")),
					       json_string_value(json_object_get(x, "githubUrl")));
			fl_buf_puts(&b, l);
			free(l);
		}
		fl_buf_puts(&b, "Call get_error with an id for the meaning and the fixes.");
	}
	if (m->src.stale)
		fl_buf_puts(&b, "\n(stale: the data set could not be refreshed; serving the cached copy)");
	fl_buf_cstr(&b);
	json_t *r = tool_text(b.s, o, false);
	fl_buf_free(&b);
	return r;
}

static json_t *t_get(struct mcp *m, json_t *args)
{
	const char *id = json_string_value(json_object_get(args, "id"));
	const char *repo = json_string_value(json_object_get(args, "repo"));
	const char *slug = json_string_value(json_object_get(args, "slug"));
	fl_entry e;
	fl_err err;
	int rc;
	if (id && *id)
		rc = fl_store_get_entry(m->st, id, &e, &err);
	else if (repo && slug)
		rc = fl_store_get_entry_by_slug(m->st, repo, slug, &e, &err);
	else
		return tool_error("get_error: give 'id', or 'repo' and 'slug'");
	if (rc < 0)
		return tool_error("get_error: %s", err.msg);
	if (rc == 0)
		return id && *id ? tool_error("get_error: no error record with id '%.100s' (ids come from search_error)", id)
				 : tool_error("get_error: no error record %.200s/%.200s", repo, slug);
	char *md = srv_entry_markdown(&e);
	json_t *o = json_object();
	json_object_set_new(o, "record", srv_entry_json(&e));
	json_object_set_new(o, "markdown", json_string(md));
	json_object_set_new(o, "datasetVersion", json_string(version_of(m)));
	add_freshness(m, o);
	fl_entry_free(&e);
	json_t *r = tool_text(md, o, false);
	free(md);
	return r;
}

static json_t *t_repos(struct mcp *m)
{
	fl_err err;
	json_t *a = srv_repos_json(m->st, &err);
	if (!a)
		return tool_error("list_repos: %s", err.msg);
	fl_buf b = {0};
	size_t i;
	json_t *x;
	json_array_foreach(a, i, x) {
		const char *lang = json_string_value(json_object_get(x, "language"));
		char *l = fl_xasprintf("%s  %lld errors%s%s  at %.12s\n",
				       json_string_value(json_object_get(x, "repo")),
				       (long long)json_integer_value(json_object_get(x, "errorCount")),
				       lang ? "  " : "", lang ? lang : "",
				       json_string_value(json_object_get(x, "analyzedSha")));
		fl_buf_puts(&b, l);
		free(l);
	}
	if (!json_array_size(a))
		fl_buf_puts(&b, "No repositories are indexed.");
	fl_buf_cstr(&b);
	json_t *o = json_object();
	json_object_set_new(o, "repos", a);
	json_object_set_new(o, "datasetVersion", json_string(version_of(m)));
	add_freshness(m, o);
	json_t *r = tool_text(b.s, o, false);
	fl_buf_free(&b);
	return r;
}

static json_t *t_log(struct mcp *m, json_t *args)
{
	json_t *lv = json_object_get(args, "log");
	if (!json_is_string(lv))
		return tool_error("explain_log: 'log' (the log text) is required");
	if (json_string_length(lv) > MAX_LOG)
		return tool_error("explain_log: the log is over 1 MB; pass the part around the failure");
	const char *repo = json_string_value(json_object_get(args, "repo"));
	if (repo && *repo && !valid_repo(repo))
		return tool_error("explain_log: 'repo' must be OWNER/NAME");
	fl_err err;
	json_t *o = srv_explain_log_json(m->lk, m->st, json_string_value(lv), json_string_length(lv),
					 repo && *repo ? repo : NULL, version_of(m), m->o->match_json, &err);
	if (!o)
		return tool_error("explain_log: %s", err.msg);
	add_freshness(m, o);
	fl_buf b = {0};
	size_t i;
	json_t *x;
	json_t *ms = json_object_get(o, "matches");
	json_array_foreach(ms, i, x) {
		const char *t = json_string_value(json_object_get(x, "text"));
		const char *nl = strchr(t, '\n');
		char *l = fl_xasprintf("line %lld-%lld: %.*s\n   -> %s %s:%lld [%s] id %s\n",
				       (long long)json_integer_value(json_object_get(x, "line")),
				       (long long)json_integer_value(json_object_get(x, "endLine")),
				       nl ? (int)(nl - t) : (int)strlen(t), t,
				       json_string_value(json_object_get(x, "repo")),
				       json_string_value(json_object_get(x, "filePath")),
				       (long long)json_integer_value(json_object_get(x, "lineNumber")),
				       json_string_value(json_object_get(x, "matchType")),
				       json_string_value(json_object_get(x, "id")));
		fl_buf_puts(&b, l);
		free(l);
	}
	char *tail = fl_xasprintf("%zu known errors in %lld lines.", json_array_size(ms),
				  (long long)json_integer_value(json_object_get(o, "lines")));
	fl_buf_puts(&b, tail);
	free(tail);
	fl_buf_cstr(&b);
	json_t *r = tool_text(b.s, o, false);
	fl_buf_free(&b);
	return r;
}

static json_t *t_refresh(struct mcp *m)
{
	bool changed = false;
	fl_err err;
	if (ensure_data(m, true, REFRESH_WAIT_MS, &changed, &err) < 0)
		return tool_error("refresh_dataset: %s", err.msg);
	json_t *o = json_object();
	json_object_set_new(o, "changed", json_boolean(changed));
	json_object_set_new(o, "records", json_integer((json_int_t)fl_lookup_count(m->lk)));
	json_object_set_new(o, "source", json_string(m->src.url ? m->src.url : m->src.store_path));
	json_object_set_new(o, "datasetVersion", json_string(version_of(m)));
	add_freshness(m, o);
	char *t;
	if (m->src.db)
		t = fl_xasprintf("Local store %s: %zu records (nothing to download).", m->src.store_path,
				 fl_lookup_count(m->lk));
	else if (m->src.sync)
		t = fl_xasprintf("The refresh is still running (started %lld s ago; it gives up after %d s); serving the cached data set %s, %lld s old, meanwhile. Call refresh_dataset again later for the outcome.",
				 (long long)(time(NULL) - m->src.sync_started),
				 m->src.sync_timeout > 0 ? m->src.sync_timeout : SRV_SYNC_TIMEOUT, m->src.version,
				 srv_source_age(&m->src));
	else if (m->src.stale)
		t = fl_xasprintf("Refresh failed (%s); serving the cached data set %s, %lld s old.",
				 m->src.last_error, m->src.version, srv_source_age(&m->src));
	else
		t = fl_xasprintf("Data set %s (%s): %zu records.", m->src.version,
				 changed ? "updated" : "unchanged", fl_lookup_count(m->lk));
	json_t *r = tool_text(t, o, false);
	free(t);
	return r;
}

static json_t *tools_call(struct mcp *m, json_t *params, int *code, const char **why)
{
	const char *name = json_string_value(json_object_get(params, "name"));
	json_t *args = json_object_get(params, "arguments");
	if (!name) {
		*code = -32602;
		*why = "tools/call: params.name (a string) is required";
		return NULL;
	}
	if (args && !json_is_object(args)) {
		*code = -32602;
		*why = "tools/call: params.arguments must be an object";
		return NULL;
	}
	bool known = !strcmp(name, "search_error") || !strcmp(name, "get_error") ||
		     !strcmp(name, "list_repos") || !strcmp(name, "explain_log") ||
		     !strcmp(name, "refresh_dataset");
	if (!known) {
		*code = -32602;
		*why = "tools/call: unknown tool";
		return NULL;
	}
	json_t *empty = NULL;
	if (!args)
		args = empty = json_object();
	json_t *r;
	fl_err err;
	if (strcmp(name, "refresh_dataset") == 0) {
		r = t_refresh(m);
	} else if (ensure_data(m, false, CALL_WAIT_MS, NULL, &err) < 0 && !m->lk) {
		r = tool_error("%s: no data: %s", name, err.msg);
	} else if (strcmp(name, "search_error") == 0) {
		r = t_search(m, args);
	} else if (strcmp(name, "get_error") == 0) {
		r = t_get(m, args);
	} else if (strcmp(name, "list_repos") == 0) {
		r = t_repos(m);
	} else {
		r = t_log(m, args);
	}
	json_decref(empty);
	return r;
}

/* ---- dispatch ---------------------------------------------------------------------- */

static json_t *initialize(struct mcp *m, json_t *params)
{
	const char *want = json_string_value(json_object_get(params, "protocolVersion"));
	const char *v = VERSIONS[0];
	for (size_t i = 0; want && i < sizeof VERSIONS / sizeof VERSIONS[0]; i++)
		if (strcmp(want, VERSIONS[i]) == 0)
			v = VERSIONS[i];
	m->ready = true;
	json_t *r = json_object();
	json_object_set_new(r, "protocolVersion", json_string(v));
	json_t *caps = json_object();
	json_t *tools = json_object();
	json_object_set_new(tools, "listChanged", json_false());
	json_object_set_new(caps, "tools", tools);
	json_object_set_new(r, "capabilities", caps);
	json_t *info = json_object();
	json_object_set_new(info, "name", json_string("faultline"));
	json_object_set_new(info, "title", json_string("faultline error knowledge base"));
	json_object_set_new(info, "version", json_string(FL_VERSION));
	json_object_set_new(r, "serverInfo", info);
	json_object_set_new(r, "instructions", json_string(
		"faultline knows where error messages are raised in the source code of indexed libraries and programs. "
		"When you meet an error text, call search_error with it, then get_error with the best id for its meaning and fixes; "
		"call explain_log for a whole log."));
	return r;
}

/* One request or notification; returns the response or NULL (notification). */
static json_t *handle(struct mcp *m, json_t *msg)
{
	if (!json_is_object(msg))
		return error_msg(NULL, -32600, "Invalid Request: a JSON-RPC message is an object");
	json_t *id = json_object_get(msg, "id");
	if (id && !json_is_string(id) && !json_is_integer(id) && !json_is_null(id))
		return error_msg(NULL, -32600, "Invalid Request: id must be a string or an integer");
	const char *jv = json_string_value(json_object_get(msg, "jsonrpc"));
	json_t *mv = json_object_get(msg, "method");
	if (!jv || strcmp(jv, "2.0") != 0 || !json_is_string(mv)) {
		if (!mv && (json_object_get(msg, "result") || json_object_get(msg, "error")))
			return NULL; /* a response to us: we send no requests; ignore */
		return error_msg(id, -32600, "Invalid Request: needs \"jsonrpc\":\"2.0\" and a string method");
	}
	const char *method = json_string_value(mv);
	json_t *params = json_object_get(msg, "params");
	if (params && !json_is_object(params) && !json_is_array(params))
		return id ? error_msg(id, -32602, "Invalid params: params must be an object") : NULL;
	bool note = id == NULL;
	if (note)
		return NULL; /* notifications/initialized, notifications/cancelled, ... */
	if (strcmp(method, "initialize") == 0) {
		if (!json_is_object(params) || !json_is_string(json_object_get(params, "protocolVersion")))
			return error_msg(id, -32602, "Invalid params: initialize needs params.protocolVersion");
		return result_msg(id, initialize(m, params));
	}
	if (strcmp(method, "ping") == 0)
		return result_msg(id, json_object());
	if (strcmp(method, "tools/list") == 0)
		return result_msg(id, tools_list());
	if (strcmp(method, "tools/call") == 0) {
		if (!json_is_object(params))
			return error_msg(id, -32602, "Invalid params: tools/call needs params {name, arguments}");
		int code = 0;
		const char *why = NULL;
		json_t *r = tools_call(m, params, &code, &why);
		if (!r) {
			char buf[256];
			snprintf(buf, sizeof buf, "%s%s%.100s", why,
				 code == -32602 && json_string_value(json_object_get(params, "name")) ? ": " : "",
				 json_string_value(json_object_get(params, "name")) ?
				 json_string_value(json_object_get(params, "name")) : "");
			return error_msg(id, code, buf);
		}
		return result_msg(id, r);
	}
	if (strcmp(method, "resources/list") == 0 || strcmp(method, "prompts/list") == 0 ||
	    strcmp(method, "logging/setLevel") == 0 || strcmp(method, "completion/complete") == 0 ||
	    strcmp(method, "resources/templates/list") == 0)
		return error_msg(id, -32601, "Method not found: this server offers tools only");
	char buf[200];
	snprintf(buf, sizeof buf, "Method not found: %.150s", method);
	return error_msg(id, -32601, buf);
}

int fl_mcp_run(const fl_mcp_opts *o, fl_err *err)
{
	struct mcp m;
	memset(&m, 0, sizeof m);
	m.o = o;
	m.out = o->out ? o->out : stdout;
	FILE *in = o->in ? o->in : stdin;
	if (srv_source_init(&m.src, o->data_url ? NULL : o->db, NULL, o->data_url, o->cache_dir,
			    o->ttl, o->offline, err) < 0) {
		srv_source_free(&m.src);
		return -1;
	}
	m.src.allow_rollback = o->allow_rollback;
	m.src.sync_timeout = o->sync_timeout;
	/* the data are needed before the first call: a source that cannot
	 * be opened at all is a start-up error (a cached copy is served while
	 * a due sync runs) */
	if (ensure_data(&m, false, 0, NULL, err) < 0) {
		srv_source_free(&m.src);
		return -1;
	}
	fprintf(stderr, "faultline: mcp: %zu records, data set %s%s\n", fl_lookup_count(m.lk),
		version_of(&m), m.src.stale ? " (stale)" : "");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	signal(SIGPIPE, SIG_IGN); /* a vanished client ends the loop instead */
	while (!m.gone && (n = getline(&line, &cap, in)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		if ((size_t)n > MAX_LINE) {
			send_msg(&m, error_msg(NULL, -32600, "Invalid Request: message over 8 MB"));
			continue;
		}
		json_error_t je;
		json_t *msg = json_loadb(line, (size_t)n, JSON_REJECT_DUPLICATES, &je);
		if (!msg) {
			char buf[300];
			snprintf(buf, sizeof buf, "Parse error: %s", je.text);
			send_msg(&m, error_msg(NULL, -32700, buf));
			continue;
		}
		if (json_is_array(msg)) {
			json_t *out = json_array();
			size_t i;
			json_t *x;
			json_array_foreach(msg, i, x) {
				json_t *r = handle(&m, x);
				if (r)
					json_array_append_new(out, r);
			}
			if (json_array_size(msg) == 0)
				json_array_append_new(out, error_msg(NULL, -32600, "Invalid Request: empty batch"));
			if (json_array_size(out))
				send_msg(&m, out);
			else
				json_decref(out);
		} else {
			json_t *r = handle(&m, msg);
			if (r)
				send_msg(&m, r);
		}
		json_decref(msg);
	}
	free(line);
	close_data(&m);
	fl_lookup_thread_done();
	srv_source_free(&m.src);
	return 0;
}
