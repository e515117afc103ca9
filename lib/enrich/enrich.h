/*
 * enrich.h — model enrichment (`faultline enrich`, spec: enrich.md): the
 * providers a prompt is sent to (a command, an OpenAI-compatible
 * endpoint), their configuration, the answers they give and how an answer
 * is checked, and the run that drives them over the store's records.
 *
 *   config.c    providers from a git-config file (libgit2's parser)
 *   provider.c  one call: run a command / POST a chat completion
 *   answer.c    the JSON answer found in a provider's output; per phase,
 *               the fields read from it and the rules they must keep
 *   prompt.c    the text sent for a batch of records and one phase
 *   run.c       the run: records to do, batches, jobs, retries, backoff,
 *               quality gate, provenance written to the store
 */
#ifndef FL_ENRICH_H
#define FL_ENRICH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "faultline.h"

/* ---- phases and fields --------------------------------------------- */

typedef enum fl_phase {
	FL_PHASE_ENRICH, /* documentation, triggerScenarios, commonSituations,
			    solutions, exampleFix */
	FL_PHASE_DEFEND, /* handlingStrategy, validationCode, typeGuard,
			    tryCatchPattern, preventionTips */
	FL_PHASE_VERIFY, /* any field a model may write (a patch) */
	FL_NPHASES
} fl_phase;

const char *fl_phase_name(fl_phase ph);          /* "enrich" ... */

/* The fields an answer of phase ph may set (JSON names, records.md), n of
 * them.  Verify may patch every field of enrich.md's list (also severity,
 * tags, backgroundTag). */
const char *const *fl_phase_fields(fl_phase ph, size_t *n);

/* The JSON schema of an answer of phase ph ({"records":[{"id":..., field:
 * value ...}]}), as sent in an OpenAI response_format; new reference. */
json_t *fl_phase_schema(fl_phase ph);

/* ---- answers -------------------------------------------------------- */

/* The answer object {"records":[...]} found in a provider's output text:
 * the whole text; else inside an envelope — an OpenAI chat completion
 * (choices[0].message.content, itself parsed the same way) or a command's
 * JSON envelope with a string "result" (agent CLIs' --output-format json);
 * else the first '{' from which a whole JSON object parses (after a
 * preamble, or in a ```json fence).  NULL with err naming what was wrong
 * ("no JSON object in the answer", "the answer is truncated JSON"...). */
json_t *fl_answer_extract(const char *text, size_t len, fl_err *err);

/* Checks an extracted answer for phase ph against the batch's ids (nids of
 * them) and records.md's rules for each field (types, enums, tag syntax,
 * non-empty strings, solutions an array of non-empty strings, no key that
 * the model may not write: an answer that sets errorMessage, id's other
 * than the batch's, or any non-writable field is rejected whole).  On
 * success *patches is a new object {id: {field: value}} holding only the
 * phase's fields, for the records the answer covered (a record missing
 * from the answer is simply absent); returns 0.  -1 with err naming the
 * record and field otherwise. */
int fl_answer_check(json_t *answer, fl_phase ph, const char *const *ids,
		    size_t nids, json_t **patches, fl_err *err);

/* ---- providers ------------------------------------------------------ */

typedef enum fl_provider_type { FL_PROV_COMMAND, FL_PROV_OPENAI } fl_provider_type;

typedef struct fl_provider {
	char *name;          /* the config section's subsection, or "command"/"openai" */
	fl_provider_type type;
	char *command;       /* FL_PROV_COMMAND: run by /bin/sh -c */
	char *url;           /* FL_PROV_OPENAI: base URL ending in /v1 (or the
				full .../chat/completions URL) */
	char *model;         /* FL_PROV_OPENAI: required; COMMAND: optional label */
	char *api_key_env;   /* name of the environment variable holding the key */
	int timeout;         /* seconds per call, default 600 */
} fl_provider;

typedef struct fl_enrich_conf {
	fl_provider *providers;
	size_t nproviders;
	char *primary;       /* provider names; NULL: the first provider */
	char *fallback;      /* NULL: none */
	int jobs;            /* 0: unset (default 4) */
	int batch;           /* 0: unset (default 10) */
} fl_enrich_conf;

/* Reads a git-config file.  A missing file is not an error when
 * missing_ok (the default path), giving an empty configuration.  A
 * provider without a type, an unknown type, an openai provider without url
 * or model, a command provider without command, a bad number, or
 * primary/fallback naming no provider: -1 with err naming the file, the
 * section and the key. */
int fl_enrich_conf_load(const char *path, bool missing_ok, fl_enrich_conf *out,
			fl_err *err);
void fl_enrich_conf_free(fl_enrich_conf *c);
/* the provider named name, or NULL */
const fl_provider *fl_enrich_conf_find(const fl_enrich_conf *c, const char *name);

typedef enum fl_call_status {
	FL_CALL_OK,           /* text holds the provider's output */
	FL_CALL_FAILED,       /* non-zero exit, HTTP 4xx/5xx other than below,
				 connection refused ...: errmsg says */
	FL_CALL_RATE_LIMITED, /* HTTP 429 or 503, or rate-limit text from a
				 command ("rate limit", "too many requests",
				 "overloaded", case-insensitive) */
	FL_CALL_TIMEOUT,      /* the timeout passed; the command was killed
				 (its whole process group) / the request aborted */
} fl_call_status;

typedef struct fl_call {
	fl_call_status status;
	char *text;            /* output: stdout, or the HTTP response body */
	size_t len;
	long prompt_tokens;    /* -1 when not reported (usage.prompt_tokens,
				  or usage.input_tokens of a command envelope) */
	long completion_tokens;/* -1 when not reported */
	char *model;           /* the model the provider reports, else NULL */
	int retry_after;       /* seconds from a Retry-After header, else 0 */
	char errmsg[512];      /* for status != OK: what went wrong */
} fl_call;

/* One call: the prompt to p (command: on standard input; openai: the user
 * message of a chat completion with response_format {"type":
 * "json_schema", "json_schema": {"name": "records", "schema": schema}}
 * when schema is not NULL, the key from getenv(p->api_key_env) as
 * "Authorization: Bearer"), waiting at most p->timeout seconds.  Thread-
 * safe: run.c calls it from --jobs threads at once.  Always fills *out
 * (free with fl_call_free). */
void fl_provider_call(const fl_provider *p, const char *prompt,
		      const json_t *schema, fl_call *out);
void fl_call_free(fl_call *c);

/* ---- the run -------------------------------------------------------- */

typedef struct fl_enrich_opts {
	const char *repo;          /* NULL: every repository */
	long limit;                /* at most this many records; 0: no limit */
	int jobs;                  /* concurrent calls, >= 1 */
	int batch;                 /* records per call, >= 1 */
	bool force;                /* redo records already enriched */
	bool dry_run;              /* send nothing: count, print the first prompt */
	const fl_provider *primary;  /* may be NULL only with dry_run */
	const fl_provider *fallback; /* NULL: none */
	int verify_rounds;         /* verify passes at most (2) */
	FILE *progress;            /* a terminal to show progress on, or NULL */
	FILE *out;                 /* dry run: where the first prompt goes */
} fl_enrich_opts;

typedef struct fl_enrich_stats {
	long selected;            /* records with a phase left to do */
	long completed;           /* records whose every phase is now done */
	long updated;             /* records a model changed fields of */
	long fields;              /* fields written */
	long left;                /* records left for a later run */
	long calls;               /* calls made (each attempt) */
	long rejected;            /* answers rejected whole (parse or rules) */
	long failed;              /* calls that failed (exit status, HTTP, timeout) */
	long timeouts;            /* of which timeouts */
	long retried;             /* calls made again after a failure or rejection */
	long rate_limited;        /* calls answered with a rate limit */
	long fallback_calls;      /* calls made to the fallback provider */
	long pending[FL_NPHASES]; /* dry run: records each phase would take */
	long prompt_tokens;       /* -1: no provider reported any */
	long completion_tokens;
	double seconds;
	char last_error[600];     /* the last failure or rejection, or "" */
	bool paused;              /* the quality gate stopped the run */
	char pause_reason[512];
} fl_enrich_stats;

/* Enrich the store's records that are stale or not yet enriched (every
 * selected record with --force): each through the phases enrich, defend
 * and verify, in calls of o->batch records, o->jobs at once; each answer
 * checked and written in its own transaction (a killed run loses only the
 * calls in flight).  0 when the run went through (records may be left for
 * later: see stats), 1 when the quality gate paused it, -1 on an error of
 * the store (err). */
int fl_enrich_run(fl_store *st, const fl_enrich_opts *o, fl_enrich_stats *stats,
		  fl_err *err);

#endif
