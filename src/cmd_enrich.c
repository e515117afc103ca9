/*
 * cmd_enrich.c — `faultline enrich`: have a model write the reader's part
 * of the stored records (enrich.md).  The providers come from the flags
 * (--command, --openai-url) or the configuration file; the run itself is
 * lib/enrich/run.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "enrich/enrich.h"

static const cli_help HELP = {
	.name = "enrich",
	.synopsis =
	"faultline enrich [--db FILE] [--repo OWNER/NAME] [--limit N] [--jobs N]\n"
	"                 [--batch N] [--force] [--dry-run] [--json]\n"
	"                 [--provider NAME] [--fallback NAME] [--config FILE]\n"
	"                 [--command \"CMD ARG...\"]\n"
	"                 [--openai-url URL --model NAME [--api-key-env VAR]]\n"
	"                 [--timeout SECONDS]",
	.about =
	"Have a language model write the part of each record that people read: "
	"documentation, trigger scenarios, common situations, solutions and an "
	"example fix (phase enrich); handling strategy, validation code, type guard, "
	"try/catch pattern and prevention tips (phase defend); then a check of the "
	"whole record against its source lines, which may correct any of them, at "
	"most twice (phase verify). The model never changes a record's message, "
	"pattern, location or ids. Records go to the model in batches (--batch, 10) "
	"with their facts and source window, --jobs calls at once (4).\n\n"
	"A provider is a command run with the prompt on its standard input and the "
	"answer on its standard output (--command, e.g. `ollama run MODEL` or an "
	"agent CLI in print mode), or an OpenAI-compatible /v1/chat/completions "
	"endpoint (--openai-url and --model; the key is read from the environment "
	"variable --api-key-env names, never stored). Without these flags the "
	"providers come from the configuration file (--config, else "
	"$XDG_CONFIG_HOME/faultline/config), in git-config syntax:\n\n"
	"  [provider \"local\"]\n"
	"  \ttype = openai\n"
	"  \turl = http://127.0.0.1:8080/v1\n"
	"  \tmodel = qwen2.5-coder-7b\n"
	"  \tapiKeyEnv = OPENAI_API_KEY\n"
	"  \ttimeout = 600\n"
	"  [provider \"agent\"]\n"
	"  \ttype = command\n"
	"  \tcommand = claude -p --output-format json\n"
	"  [enrich]\n"
	"  \tprimary = local\n"
	"  \tfallback = agent\n"
	"  \tjobs = 4\n"
	"  \tbatch = 10\n\n"
	"Every answer is checked against the record format's rules; a bad answer is "
	"rejected whole. A call that fails, times out or is rejected is made once "
	"more, then sent to the fallback provider; then its records are left for a "
	"later run, never given made-up text. Rate limits (HTTP 429 or 503, or "
	"rate-limit text from a command) are answered with exponential backoff and "
	"fewer calls at once, raised again as calls succeed. When more than half of "
	"the recent answers fail the rules, the run pauses (exit 1).\n\n"
	"Each answer is written to the store as it comes: a killed run loses only "
	"the calls in flight, and the next run goes on where it stopped. A record is "
	"enriched again only when its content changed since (a rescan), or with "
	"--force. The store keeps which provider and model wrote which fields, and "
	"when; `faultline show` says so.\n\n"
	"Prints a summary: records enriched and left, calls, rejections, retries, "
	"rate limits, time and the tokens providers reported (--json: one JSON "
	"object). --dry-run sends nothing and prints the first prompt.",
	.examples = {
		{"faultline enrich --openai-url http://127.0.0.1:8080/v1 --model qwen2.5-coder-7b",
		 "Enrich every record with a local llama.cpp or vLLM server."},
		{"faultline enrich --repo acme/shop --command 'ollama run llama3.1' --jobs 2",
		 "One repository's records, through a local Ollama model."},
		{"faultline enrich --dry-run --limit 10",
		 "Show what would be sent, without sending it."},
	},
};

/* A whole number from lo to hi, or -1. */
static long number(const char *s, long lo, long hi)
{
	if (!s)
		return -1;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	return v;
}

static char *default_config(void)
{
	const char *x = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char buf[4096];
	if (x && *x)
		snprintf(buf, sizeof buf, "%s/faultline/config", x);
	else if (home && *home)
		snprintf(buf, sizeof buf, "%s/.config/faultline/config", home);
	else
		return NULL;
	return strdup(buf);
}

static void print_summary(const fl_enrich_stats *S, bool json)
{
	double rate = S->seconds > 0 ? (double)S->completed / S->seconds : 0;
	if (json) {
		json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			"selected", (json_int_t)S->selected, "completed", (json_int_t)S->completed,
			"updated", (json_int_t)S->updated, "fields", (json_int_t)S->fields,
			"left", (json_int_t)S->left, "calls", (json_int_t)S->calls,
			"rejected", (json_int_t)S->rejected, "failed", (json_int_t)S->failed,
			"timeouts", (json_int_t)S->timeouts, "retried", (json_int_t)S->retried,
			"rateLimited", (json_int_t)S->rate_limited,
			"fallbackCalls", (json_int_t)S->fallback_calls);
		json_object_set_new(o, "promptTokens", S->prompt_tokens >= 0
				    ? json_integer(S->prompt_tokens) : json_null());
		json_object_set_new(o, "completionTokens", S->completion_tokens >= 0
				    ? json_integer(S->completion_tokens) : json_null());
		json_object_set_new(o, "seconds", json_real(S->seconds));
		json_object_set_new(o, "recordsPerSecond", json_real(rate));
		json_object_set_new(o, "paused", json_boolean(S->paused));
		json_object_set_new(o, "pauseReason", S->paused
				    ? json_string(S->pause_reason) : json_null());
		char *s = json_dumps(o, JSON_COMPACT);
		puts(s);
		free(s);
		json_decref(o);
		return;
	}
	printf("enriched %ld of %ld records in %.1f s (%.1f records/s); "
	       "a model changed %ld of them, %ld fields\n",
	       S->completed, S->selected, S->seconds, rate, S->updated, S->fields);
	printf("calls: %ld (%ld rejected, %ld failed, %ld of them timed out, %ld made again, "
	       "%ld rate-limited, %ld to the fallback)\n",
	       S->calls, S->rejected, S->failed, S->timeouts, S->retried,
	       S->rate_limited, S->fallback_calls);
	if (S->prompt_tokens >= 0 || S->completion_tokens >= 0)
		printf("tokens: %ld in, %ld out\n", S->prompt_tokens < 0 ? 0 : S->prompt_tokens,
		       S->completion_tokens < 0 ? 0 : S->completion_tokens);
	if (S->left)
		printf("left for a later run: %ld records\n", S->left);
}

/* p, or a copy of it in *copy with the timeout t when t is set */
static const fl_provider *with_timeout(const fl_provider *p, fl_provider *copy, long t)
{
	if (!p || !t)
		return p;
	*copy = *p;
	copy->timeout = (int)t;
	return copy;
}

typedef struct args {
	const char *db, *repo, *limit, *jobs, *batch, *provider, *fallback, *config;
	const char *command, *openai_url, *model, *api_key_env, *timeout;
	bool force, dry_run, json;
} args;

/* The providers of the run, from the flags and the configuration. */
static int providers(const args *a, fl_enrich_conf *conf, fl_provider *oneoff,
		     const fl_provider **primary, const fl_provider **fallback)
{
	fl_err err;
	char *path = a->config ? strdup(a->config) : default_config();
	if (path && fl_enrich_conf_load(path, a->config == NULL, conf, &err) < 0) {
		free(path);
		return cli_fail(1, "enrich: %s", err.msg);
	}
	free(path);
	*primary = *fallback = NULL;
	if (a->command) {
		oneoff->name = "command";
		oneoff->type = FL_PROV_COMMAND;
		oneoff->command = (char *)a->command;
		oneoff->model = (char *)a->model;
		*primary = oneoff;
	} else if (a->openai_url) {
		oneoff->name = "openai";
		oneoff->type = FL_PROV_OPENAI;
		oneoff->url = (char *)a->openai_url;
		oneoff->model = (char *)a->model;
		oneoff->api_key_env = (char *)a->api_key_env;
		*primary = oneoff;
	} else {
		const char *name = a->provider ? a->provider : conf->primary;
		if (name) {
			*primary = fl_enrich_conf_find(conf, name);
			if (!*primary)
				return cli_fail(1, "enrich: no provider '%s' in the configuration", name);
		} else if (conf->nproviders) {
			*primary = &conf->providers[0];
		} else if (!a->dry_run) {
			return cli_fail(1, "enrich: no provider: give --command or --openai-url "
					"and --model, or configure one in $XDG_CONFIG_HOME/faultline/config "
					"(see faultline enrich --help)");
		}
	}
	const char *fb = a->fallback ? a->fallback : (a->command || a->openai_url) ? NULL
		: conf->fallback;
	if (fb) {
		*fallback = fl_enrich_conf_find(conf, fb);
		if (!*fallback)
			return cli_fail(1, "enrich: no provider '%s' in the configuration", fb);
		if (*fallback == *primary)
			*fallback = NULL;
	}
	return 0;
}

int cmd_enrich(int argc, char **argv)
{
	args a = {0};
	const cli_opt opts[] = {
		CLI_VAL("db", a.db, "FILE", CLI_DB_HELP),
		CLI_VAL("repo", a.repo, "OWNER/NAME", "only this repository's records (default: every "
			"repository)"),
		CLI_VAL("limit", a.limit, "N", "at most N records (default: all that need it)"),
		CLI_VAL("jobs", a.jobs, "N", "calls at once, 1 to 64 (default: the "
			"configuration's enrich.jobs, else 4)"),
		CLI_VAL("batch", a.batch, "N", "records per call, 1 to 100 (default: the "
			"configuration's enrich.batch, else 10)"),
		CLI_FLAG("force", a.force, "enrich again records already enriched (default: "
			 "only records never enriched or changed since)"),
		CLI_FLAG("dry-run", a.dry_run, "send nothing: say what would be done and print "
			 "the first prompt (default: send)"),
		CLI_FLAG("json", a.json, "print the summary as one JSON object (default: text)"),
		CLI_VAL("provider", a.provider, "NAME", "the configured provider to use "
			"(default: enrich.primary, else the first one)"),
		CLI_VAL("fallback", a.fallback, "NAME", "the configured provider to try when the "
			"first fails twice (default: enrich.fallback)"),
		CLI_VAL("config", a.config, "FILE", "the configuration file (default: "
			"$XDG_CONFIG_HOME/faultline/config, ~/.config/faultline/config)"),
		CLI_VAL("command", a.command, "\"CMD ARG...\"", "a provider that is a command, run "
			"by /bin/sh with the prompt on standard input (default: the "
			"configured providers)"),
		CLI_VAL("openai-url", a.openai_url, "URL", "a provider that is an OpenAI-compatible "
			"endpoint, such as http://127.0.0.1:8080/v1 (default: the configured "
			"providers)"),
		CLI_VAL("model", a.model, "NAME", "the model to ask; --openai-url needs it (default: "
			"none; with --command, a label kept in the provenance)"),
		CLI_VAL("api-key-env", a.api_key_env, "VAR", "the environment variable that holds "
			"the endpoint's key (needs --openai-url; default: no key sent)"),
		CLI_VAL("timeout", a.timeout, "SECONDS", "the longest a call may take, 1 to 86400 "
			"(default: the provider's timeout, else 600); a command still running "
			"then is killed"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos)
		return cli_fail(EXIT_USAGE, "enrich: unexpected argument '%s'; usage: %s", pos[0],
				HELP.synopsis);
	if (a.repo && (rc = cli_check_repo("enrich", a.repo)) != 0)
		return rc;
	long limit = a.limit ? number(a.limit, 1, 1000000000L) : 0;
	long jobs = a.jobs ? number(a.jobs, 1, 64) : 0;
	long batch = a.batch ? number(a.batch, 1, 100) : 0;
	long timeout = a.timeout ? number(a.timeout, 1, 86400) : 0;
	if (limit < 0)
		return cli_fail(EXIT_USAGE, "enrich: --limit takes a number of records, at least 1");
	if (jobs < 0)
		return cli_fail(EXIT_USAGE, "enrich: --jobs takes a number from 1 to 64");
	if (batch < 0)
		return cli_fail(EXIT_USAGE, "enrich: --batch takes a number from 1 to 100");
	if (timeout < 0)
		return cli_fail(EXIT_USAGE, "enrich: --timeout takes a number of seconds from 1 to 86400");
	if (a.command && a.openai_url)
		return cli_fail(EXIT_USAGE, "enrich: give --command or --openai-url, not both");
	if (a.openai_url && !a.model)
		return cli_fail(EXIT_USAGE, "enrich: --openai-url needs --model NAME");
	if (a.api_key_env && !a.openai_url)
		return cli_fail(EXIT_USAGE, "enrich: --api-key-env goes with --openai-url");
	if ((a.command || a.openai_url) && a.provider)
		return cli_fail(EXIT_USAGE, "enrich: --provider names a configured provider; "
				"not with --command or --openai-url");

	fl_enrich_conf conf = {0};
	fl_provider oneoff = {.timeout = 600};
	const fl_provider *primary = NULL, *fallback = NULL;
	if ((rc = providers(&a, &conf, &oneoff, &primary, &fallback)) != 0) {
		fl_enrich_conf_free(&conf);
		return rc;
	}
	/* --timeout holds for every provider of the run */
	fl_provider p1, p2;
	primary = with_timeout(primary, &p1, timeout);
	fallback = with_timeout(fallback, &p2, timeout);
	fl_store *st = cli_open_store(a.db, false);
	if (!st) {
		fl_enrich_conf_free(&conf);
		return 1;
	}
	if (cli_repo_missing(st, "enrich", a.repo)) {
		fl_store_close(st);
		fl_enrich_conf_free(&conf);
		return 1;
	}
	fl_enrich_opts o = {
		.repo = a.repo,
		.limit = limit,
		.jobs = (int)(jobs ? jobs : conf.jobs ? conf.jobs : 4),
		.batch = (int)(batch ? batch : conf.batch ? conf.batch : 10),
		.force = a.force,
		.dry_run = a.dry_run,
		.primary = primary,
		.fallback = fallback,
		.verify_rounds = 2,
		.progress = !a.json && !a.dry_run && isatty(2) ? stderr : NULL,
		.out = stdout,
	};
	fl_enrich_stats S;
	fl_err err = {0};
	if (a.dry_run) {
		/* what would be sent: the counts, then the first prompt */
		fl_enrich_opts counts = o;
		counts.out = NULL;
		rc = fl_enrich_run(st, &counts, &S, &err);
		if (rc == 0) {
			printf("would enrich %ld records: %ld need phase enrich, %ld defend, "
			       "%ld verify%s\n", S.selected, S.pending[FL_PHASE_ENRICH],
			       S.pending[FL_PHASE_DEFEND], S.pending[FL_PHASE_VERIFY],
			       S.selected ? "; the first prompt:\n" : "");
			fflush(stdout);
			rc = fl_enrich_run(st, &o, &S, &err);
		}
	} else {
		rc = fl_enrich_run(st, &o, &S, &err);
	}
	fl_store_close(st);
	fl_enrich_conf_free(&conf);
	if (rc < 0)
		return cli_fail(1, "enrich: %s", err.msg);
	if (!a.dry_run)
		print_summary(&S, a.json);
	if (rc == 1)
		return cli_fail(1, "enrich: paused: %s; what was done is kept: check the "
				"provider, then run again", S.pause_reason);
	if (!a.dry_run && S.selected && !S.completed && !S.updated)
		return cli_fail(1, "enrich: no record could be enriched (%s)",
				S.last_error[0] ? S.last_error : "see the summary");
	return 0;
}
