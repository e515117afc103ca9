/*
 * provider.c — one call to a provider: run a command with the prompt on
 * its standard input, or POST a chat completion to an OpenAI-compatible
 * endpoint (libcurl, loaded by serve/dynlib.c), within the provider's
 * timeout.  Called from several threads at once: no process-wide state
 * is changed (SIGPIPE is blocked in the calling thread only, for the
 * call), and every pipe is close-on-exec so one call's child does not
 * hold another's pipes open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "enrich.h"
#include "../serve/dynlib.h"
#include "../util.h"

extern char **environ;

#define MAX_OUTPUT (32u << 20) /* stdout / response body */
#define ERR_TAIL 4096          /* stderr kept for the message */
#define KILL_GRACE 2.0         /* seconds between SIGTERM and SIGKILL */

static void call_init(fl_call *c)
{
	memset(c, 0, sizeof *c);
	c->prompt_tokens = c->completion_tokens = -1;
}

void fl_call_free(fl_call *c)
{
	free(c->text);
	free(c->model);
	c->text = c->model = NULL;
	c->len = 0;
}

static void fail(fl_call *c, fl_call_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(fl_call *c, fl_call_status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->errmsg, sizeof c->errmsg, fmt, ap);
	va_end(ap);
	c->status = st;
}

/* ---- SIGPIPE, per thread ----------------------------------------------
 * A write to a pipe whose reader is gone raises SIGPIPE in the writing
 * thread; blocked there, the write fails with EPIPE instead, and the
 * pending signal is taken before the mask is restored. */

typedef struct pipe_guard {
	sigset_t old;
} pipe_guard;

static void guard_on(pipe_guard *g)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &s, &g->old);
}

static void guard_off(pipe_guard *g)
{
	if (sigismember(&g->old, SIGPIPE))
		return;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGPIPE);
	struct timespec zero = {0, 0};
	while (sigtimedwait(&s, NULL, &zero) == SIGPIPE)
		;
	pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

/* ---- rate-limit text and envelopes ------------------------------------ */

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool mem_icase(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	if (!s)
		return false;
	for (size_t i = 0; i + k <= n; i++)
		if (strncasecmp(s + i, needle, k) == 0)
			return true;
	return false;
}

static bool rate_text(const char *s, size_t n)
{
	static const char *const words[] = {"rate limit", "rate_limit", "ratelimit",
					    "too many requests", "overloaded", "429", NULL};
	for (size_t i = 0; words[i]; i++)
		if (mem_icase(s, n, words[i]))
			return true;
	return false;
}

/* A command's JSON envelope ({"type":"result", "result":..., "usage":
 * {"input_tokens", "output_tokens"}, "modelUsage": {MODEL: ...}}): its
 * figures into c; the envelope, or NULL when the output is none. */
static json_t *read_envelope(fl_call *c)
{
	size_t i = 0;
	while (i < c->len && is_ws(c->text[i]))
		i++;
	if (i == c->len || c->text[i] != '{')
		return NULL;
	json_t *v = json_loadb(c->text, c->len, 0, NULL);
	if (!json_is_object(v) || !json_object_get(v, "result")) {
		json_decref(v);
		return NULL;
	}
	json_t *u = json_object_get(v, "usage");
	if (json_is_integer(json_object_get(u, "input_tokens")))
		c->prompt_tokens = (long)json_integer_value(json_object_get(u, "input_tokens"));
	if (json_is_integer(json_object_get(u, "output_tokens")))
		c->completion_tokens = (long)json_integer_value(json_object_get(u, "output_tokens"));
	const char *m = json_string_value(json_object_get(v, "model"));
	json_t *mu = json_object_get(v, "modelUsage");
	if (!m && json_is_object(mu) && json_object_size(mu) > 0)
		m = json_object_iter_key(json_object_iter(mu));
	if (m)
		c->model = fl_xstrdup(m);
	return v;
}

/* ---- command ---------------------------------------------------------- */

typedef struct proc {
	pid_t pid;
	int in, out, err;        /* our ends, -1 once closed */
	const char *prompt;
	size_t plen, poff;
	fl_buf ob;               /* stdout */
	fl_buf eb;               /* stderr, its last ERR_TAIL bytes or more */
	bool exited;
	double exited_at;
	bool over;               /* stdout passed MAX_OUTPUT */
} proc;

typedef enum pump_end { PUMP_DONE, PUMP_DEADLINE, PUMP_OVER, PUMP_LINGER } pump_end;

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int spawn(proc *pr, const char *cmd, char *why, size_t whylen)
{
	int pin[2], pout[2], perr[2];
	if (pipe2(pin, O_CLOEXEC) < 0)
		goto fail0;
	if (pipe2(pout, O_CLOEXEC) < 0)
		goto fail1;
	if (pipe2(perr, O_CLOEXEC) < 0)
		goto fail2;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
	posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
	posix_spawnattr_init(&at);
	sigset_t none, dfl;
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setpgroup(&at, 0); /* its own group: a timeout kills all */
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF);
	char *argv[] = {"sh", "-c", (char *)cmd, NULL};
	int rc = posix_spawn(&pr->pid, "/bin/sh", &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	if (rc != 0) {
		close(pin[1]);
		close(pout[0]);
		close(perr[0]);
		snprintf(why, whylen, "cannot run /bin/sh: %s", strerror(rc));
		return -1;
	}
	pr->in = pin[1];
	pr->out = pout[0];
	pr->err = perr[0];
	fcntl(pr->in, F_SETFL, O_NONBLOCK);
	fcntl(pr->out, F_SETFL, O_NONBLOCK);
	fcntl(pr->err, F_SETFL, O_NONBLOCK);
	return 0;
fail2:
	close(pout[0]);
	close(pout[1]);
fail1:
	close(pin[0]);
	close(pin[1]);
fail0:
	snprintf(why, whylen, "cannot make a pipe: %s", strerror(errno));
	return -1;
}

static void feed(proc *pr)
{
	while (pr->poff < pr->plen) {
		size_t n = pr->plen - pr->poff;
		ssize_t w = write(pr->in, pr->prompt + pr->poff, n > 65536 ? 65536 : n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w < 0)
			break; /* EPIPE: the command does not read its input */
		pr->poff += (size_t)w;
	}
	close_fd(&pr->in);
}

/* Reads what fd has; false at its end. */
static bool drain(proc *pr, int fd, fl_buf *b, bool is_out)
{
	char buf[65536];
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == EAGAIN;
		if (r == 0)
			return false;
		if (is_out && b->n + (size_t)r > MAX_OUTPUT) {
			pr->over = true;
			return false;
		}
		fl_buf_put(b, buf, (size_t)r);
		if (!is_out && b->n > 2 * ERR_TAIL) {
			memmove(b->s, b->s + b->n - ERR_TAIL, ERR_TAIL);
			b->n = ERR_TAIL;
		}
	}
}

/* Has the child exited?  Not reaped: its pid stays its group's until
 * waitpid(), so kill(-pid) cannot reach a stranger. */
static void check_exit(proc *pr)
{
	if (pr->exited)
		return;
	siginfo_t si;
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)pr->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	    si.si_pid == pr->pid) {
		pr->exited = true;
		pr->exited_at = fl_now_mono();
	}
}

/* Feeds the prompt and reads both outputs until the child has exited and
 * closed them, or until the time `until`. */
static pump_end pump(proc *pr, double until)
{
	for (;;) {
		check_exit(pr);
		if (pr->exited && pr->out < 0 && pr->err < 0)
			return PUMP_DONE;
		double now = fl_now_mono();
		if (now >= until)
			return PUMP_DEADLINE;
		/* a background process that keeps the output open */
		if (pr->exited && now - pr->exited_at > KILL_GRACE)
			return PUMP_LINGER;
		struct pollfd fds[3];
		int nf = 0, ii = -1, io = -1, ie = -1;
		if (pr->in >= 0)
			ii = nf, fds[nf++] = (struct pollfd){pr->in, POLLOUT, 0};
		if (pr->out >= 0)
			io = nf, fds[nf++] = (struct pollfd){pr->out, POLLIN, 0};
		if (pr->err >= 0)
			ie = nf, fds[nf++] = (struct pollfd){pr->err, POLLIN, 0};
		double left = until - now;
		/* without open outputs, only the exit is awaited: look often */
		int ms = nf && !pr->exited ? 250 : 10;
		if (left * 1000 < ms)
			ms = (int)(left * 1000) + 1;
		if (poll(fds, (nfds_t)nf, ms) < 0 && errno != EINTR)
			return PUMP_DEADLINE;
		if (ii >= 0 && fds[ii].revents)
			feed(pr);
		if (io >= 0 && fds[io].revents && !drain(pr, pr->out, &pr->ob, true))
			close_fd(&pr->out);
		if (pr->over)
			return PUMP_OVER;
		if (ie >= 0 && fds[ie].revents && !drain(pr, pr->err, &pr->eb, false))
			close_fd(&pr->err);
	}
}

/* The end of an output, on one line, for a message. */
static void tail_of(const char *s, size_t n, char *out, size_t outlen)
{
	while (n && is_ws(s[n - 1]))
		n--;
	size_t k = 0;
	for (size_t i = n > 300 ? n - 300 : 0; i < n && k + 1 < outlen; i++)
		out[k++] = is_ws(s[i]) ? ' ' : s[i];
	out[k] = 0;
}

/* The outcome of a finished command, from its wait status and output;
 * the message quotes its envelope's error, else the end of its stderr,
 * else of its stdout. */
static void command_result(proc *pr, int status, fl_call *out)
{
	size_t ostart = out->len > ERR_TAIL ? out->len - ERR_TAIL : 0;
	bool rate = rate_text(pr->eb.s, pr->eb.n) ||
		    rate_text(out->text + ostart, out->len - ostart);
	json_t *env = read_envelope(out);
	const char *r = json_is_true(json_object_get(env, "is_error"))
				? json_string_value(json_object_get(env, "result")) : NULL;
	char tail[320];
	if (r)
		tail_of(r, strlen(r), tail, sizeof tail);
	else
		tail_of(pr->eb.n ? pr->eb.s : out->text, pr->eb.n ? pr->eb.n : out->len,
			tail, sizeof tail);
	const char *sep = tail[0] ? ": " : "";
	if (WIFSIGNALED(status))
		fail(out, FL_CALL_FAILED, "the command was killed by signal %d%s%s",
		     WTERMSIG(status), sep, tail);
	else if (WEXITSTATUS(status) != 0)
		fail(out, rate ? FL_CALL_RATE_LIMITED : FL_CALL_FAILED,
		     "the command exited with status %d%s%s", WEXITSTATUS(status), sep, tail);
	else if (json_is_true(json_object_get(env, "is_error")))
		/* an agent CLI that reports its failure in its envelope */
		fail(out, r && rate_text(r, strlen(r)) ? FL_CALL_RATE_LIMITED : FL_CALL_FAILED,
		     "the command reported an error%s%s", sep, tail);
	json_decref(env);
}

static void call_command(const fl_provider *p, const char *prompt, fl_call *out)
{
	if (!p->command || !*p->command) {
		fail(out, FL_CALL_FAILED, "provider %s has no command", p->name);
		return;
	}
	proc pr = {.in = -1, .out = -1, .err = -1, .prompt = prompt,
		   .plen = strlen(prompt)};
	char why[256];
	if (spawn(&pr, p->command, why, sizeof why) < 0) {
		fail(out, FL_CALL_FAILED, "%s", why);
		return;
	}
	double t0 = fl_now_mono();
	pump_end end = pump(&pr, t0 + (p->timeout > 0 ? p->timeout : 600));
	if (end == PUMP_DEADLINE || end == PUMP_OVER) {
		kill(-pr.pid, SIGTERM);
		pr.over = false;
		pump(&pr, fl_now_mono() + KILL_GRACE);
	}
	if (end != PUMP_DONE)
		kill(-pr.pid, SIGKILL);
	close_fd(&pr.in);
	close_fd(&pr.out);
	close_fd(&pr.err);
	int status = 0;
	while (waitpid(pr.pid, &status, 0) < 0 && errno == EINTR)
		;
	fl_buf_cstr(&pr.ob);
	out->text = pr.ob.s;
	out->len = pr.ob.n;
	if (end == PUMP_DEADLINE)
		fail(out, FL_CALL_TIMEOUT, "the command did not finish within %d s: killed",
		     p->timeout > 0 ? p->timeout : 600);
	else if (end == PUMP_OVER)
		fail(out, FL_CALL_FAILED, "the command printed more than %u MiB: killed",
		     MAX_OUTPUT >> 20);
	else
		command_result(&pr, status, out);
	fl_buf_free(&pr.eb);
}

/* ---- openai ----------------------------------------------------------- */

#define SYSTEM_TEXT                                                            \
	"You document the error messages of software projects for the people "  \
	"who meet them. Answer with one JSON object only, in the format the "  \
	"user's message states, and nothing else."

typedef struct sink {
	fl_buf b;
	bool over;
} sink;

static size_t sink_write(char *p, size_t sz, size_t n, void *ud)
{
	sink *k = ud;
	size_t len = sz * n;
	if (k->b.n + len > MAX_OUTPUT) {
		k->over = true;
		return 0;
	}
	fl_buf_put(&k->b, p, len);
	return len;
}

static char *chat_url(const char *base)
{
	size_t n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	char *u = fl_xstrndup(base, n);
	if (fl_str_ends(u, "/chat/completions"))
		return u;
	char *full = fl_xjoin(u, "", "/chat/completions");
	free(u);
	return full;
}

static char *chat_body(const fl_provider *p, const char *prompt, const json_t *schema)
{
	json_t *b = json_pack("{s:s, s:[{s:s, s:s}, {s:s, s:s}], s:i}", "model", p->model,
			      "messages", "role", "system", "content", SYSTEM_TEXT,
			      "role", "user", "content", prompt, "temperature", 0);
	if (!b)
		return NULL;
	if (schema)
		json_object_set_new(b, "response_format",
				    json_pack("{s:s, s:{s:s, s:b, s:O}}", "type", "json_schema",
					      "json_schema", "name", "records", "strict", 0,
					      "schema", schema));
	char *s = json_dumps(b, JSON_COMPACT);
	json_decref(b);
	return s;
}

/* A short excerpt of an error response: its error.message when it is an
 * OpenAI error object, else its first bytes on one line. */
static void body_excerpt(const fl_buf *b, char *out, size_t outlen)
{
	json_t *v = json_loadb(b->s ? b->s : "", b->n, 0, NULL);
	json_t *e = json_object_get(v, "error");
	const char *m = json_is_string(e) ? json_string_value(e)
					  : json_string_value(json_object_get(e, "message"));
	const char *s = m ? m : b->s ? b->s : "";
	size_t n = m ? strlen(m) : b->n, k = 0;
	for (size_t i = 0; i < n && k + 1 < outlen && k < 200; i++)
		out[k++] = (s[i] == '\n' || s[i] == '\r' || s[i] == '\t') ? ' ' : s[i];
	out[k] = 0;
	json_decref(v);
}

/* The figures of a chat completion: tokens and model. */
static void read_usage(fl_call *out)
{
	json_t *v = json_loadb(out->text, out->len, 0, NULL);
	json_t *u = json_object_get(v, "usage");
	if (json_is_integer(json_object_get(u, "prompt_tokens")))
		out->prompt_tokens = (long)json_integer_value(json_object_get(u, "prompt_tokens"));
	if (json_is_integer(json_object_get(u, "completion_tokens")))
		out->completion_tokens = (long)json_integer_value(json_object_get(u, "completion_tokens"));
	const char *m = json_string_value(json_object_get(v, "model"));
	if (m)
		out->model = fl_xstrdup(m);
	json_decref(v);
}

static void http_result(CURL *c, const fl_curl_api *cu, const char *url, sink *k,
			fl_call *out)
{
	long code = 0;
	cu->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	fl_buf_cstr(&k->b);
	out->text = k->b.s;
	out->len = k->b.n;
	k->b.s = NULL;
	if (code >= 200 && code < 300) {
		read_usage(out);
		return;
	}
	char ex[256];
	body_excerpt(&(fl_buf){.s = out->text, .n = out->len}, ex, sizeof ex);
	if (code == 429 || code == 503) {
		curl_off_t ra = 0;
		if (cu->easy_getinfo(c, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
			out->retry_after = ra > 86400 ? 86400 : (int)ra;
		fail(out, FL_CALL_RATE_LIMITED, "HTTP %ld from %s%s%s", code, url,
		     ex[0] ? ": " : "", ex);
	} else {
		fail(out, FL_CALL_FAILED, "HTTP %ld from %s%s%s", code, url,
		     ex[0] ? ": " : "", ex);
	}
}

static void call_openai(const fl_provider *p, const char *prompt, const json_t *schema,
			fl_call *out)
{
	const char *key = NULL;
	if (p->api_key_env) {
		key = getenv(p->api_key_env);
		if (!key || !*key) {
			fail(out, FL_CALL_FAILED, "environment variable %s is not set (provider %s's apiKeyEnv)",
			     p->api_key_env, p->name);
			return;
		}
	}
	if (!p->url || !p->model) {
		fail(out, FL_CALL_FAILED, "provider %s needs a url and a model", p->name);
		return;
	}
	fl_err err;
	const fl_curl_api *cu = fl_curl(&err);
	CURL *c = cu ? cu->easy_init() : NULL;
	if (!c) {
		fail(out, FL_CALL_FAILED, "%s", cu ? "cannot start the HTTP client" : err.msg);
		return;
	}
	char *body = chat_body(p, prompt, schema);
	if (!body) {
		cu->easy_cleanup(c);
		fail(out, FL_CALL_FAILED, "the prompt is not valid UTF-8");
		return;
	}
	char *url = chat_url(p->url);
	struct curl_slist *h = cu->slist_append(NULL, "Content-Type: application/json");
	h = cu->slist_append(h, "Expect:"); /* no 100-continue round trip */
	if (key) {
		char *auth = fl_xjoin("Authorization: Bearer ", "", key);
		h = cu->slist_append(h, auth);
		explicit_bzero(auth, strlen(auth));
		free(auth);
	}
	char cerr[CURL_ERROR_SIZE] = "";
	sink k = {0};
	cu->easy_setopt(c, CURLOPT_URL, url);
	cu->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	cu->easy_setopt(c, CURLOPT_POSTFIELDS, body);
	cu->easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
	cu->easy_setopt(c, CURLOPT_HTTPHEADER, h);
	cu->easy_setopt(c, CURLOPT_TIMEOUT, (long)(p->timeout > 0 ? p->timeout : 600));
	cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	cu->easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
	cu->easy_setopt(c, CURLOPT_WRITEFUNCTION, sink_write);
	cu->easy_setopt(c, CURLOPT_WRITEDATA, &k);
	cu->easy_setopt(c, CURLOPT_USERAGENT, "faultline/" FL_VERSION);
	CURLcode rc = cu->easy_perform(c);
	if (rc == CURLE_OK)
		http_result(c, cu, url, &k, out);
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		fail(out, FL_CALL_TIMEOUT, "POST %s: no answer within %d s", url,
		     p->timeout > 0 ? p->timeout : 600);
	else if (k.over)
		fail(out, FL_CALL_FAILED, "POST %s: the response is over %u MiB", url,
		     MAX_OUTPUT >> 20);
	else
		fail(out, FL_CALL_FAILED, "POST %s: %s", url, cerr[0] ? cerr : cu->easy_strerror(rc));
	cu->easy_cleanup(c);
	cu->slist_free_all(h);
	fl_buf_free(&k.b);
	free(url);
	free(body);
}

void fl_provider_call(const fl_provider *p, const char *prompt,
		      const json_t *schema, fl_call *out)
{
	call_init(out);
	pipe_guard g;
	guard_on(&g);
	if (p->type == FL_PROV_COMMAND)
		call_command(p, prompt, out);
	else
		call_openai(p, prompt, schema, out);
	guard_off(&g);
}
