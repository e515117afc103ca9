/*
 * cmd_status.c — `faultline status`: the queue by state, the records in
 * the store, failures with their last error, the rate of the runs and the
 * time left; --json in cli.md's shape.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "status",
	.synopsis = "faultline status [--db FILE] [--json]",
	.about =
	"Where the queue is: repositories pending, running, done, failed and "
	"skipped; the records in the store; each failed repository with its last "
	"error; the repositories running, with the batch process that runs them "
	"(a dead one's are taken back by the next batch); the rate of the last "
	"hour's runs and the time the pending ones should take at that pace.\n\n"
	"--json prints one object: {\"counts\":{\"pending\":N,\"running\":N,\"done\":N,"
	"\"failed\":N,\"skipped\":N}, \"repos\":[{\"repo\",\"locator\",\"state\","
	"\"attempts\",\"lastError\",\"records\",\"analyzedSha\"}], \"records\":N, "
	"\"ratePerHour\":N, \"etaSeconds\":N|null}.",
	.examples = {
		{"faultline status", "The queue at a glance."},
		{"faultline status --json | jq '.repos[] | select(.state == \"failed\")'",
		 "The failed repositories and why."},
	},
};

struct st_state {
	fl_store *st;
	json_t *repos;
	double now;
	long long finished_hour;   /* runs finished in the last hour */
	double secs_sum;           /* their durations */
	long long secs_n;
	int running_rows;
};

static double iso_secs(const char *iso)
{
	if (!iso)
		return 0;
	struct tm tm = {0};
	const char *end = strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return 0;
	return (double)timegm(&tm);
}

static int each(const fl_qrow *r, void *ud)
{
	struct st_state *s = ud;
	json_t *o = json_object();
	const char *name = r->scanned_repo ? r->scanned_repo : r->repo;
	json_object_set_new(o, "repo", name ? json_string(name) : json_null());
	json_object_set_new(o, "locator", json_string(r->locator));
	json_object_set_new(o, "state", json_string(fl_qstate_name(r->state)));
	json_object_set_new(o, "attempts", json_integer(r->attempts));
	json_object_set_new(o, "lastError", r->last_error ? json_string(r->last_error) : json_null());
	long long records = name ? fl_store_count_entries(s->st, name) : -1;
	json_object_set_new(o, "records", records >= 0 && name ? json_integer(records) : json_null());
	json_object_set_new(o, "analyzedSha", r->analyzed_sha ? json_string(r->analyzed_sha) : json_null());
	json_object_set_new(o, "priority", json_integer(r->priority));
	if (r->state == FL_Q_RUNNING) {
		json_object_set_new(o, "owner", json_string(r->owner ? r->owner : ""));
		json_object_set_new(o, "ownerAlive", json_boolean(fl_queue_owner_alive(r->owner)));
		json_object_set_new(o, "startedAt", r->started_at ? json_string(r->started_at) : json_null());
		s->running_rows++;
	}
	if (r->finished_at) {
		json_object_set_new(o, "finishedAt", json_string(r->finished_at));
		if (s->now - iso_secs(r->finished_at) <= 3600)
			s->finished_hour++;
	}
	if (r->seconds >= 0) {
		json_object_set_new(o, "seconds", json_real(r->seconds));
		if (r->state == FL_Q_DONE || r->state == FL_Q_SKIPPED || r->state == FL_Q_FAILED) {
			s->secs_sum += r->seconds;
			s->secs_n++;
		}
	}
	json_array_append_new(s->repos, o);
	return 0;
}

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static void human(double secs, char *buf, size_t cap)
{
	if (secs < 90)
		snprintf(buf, cap, "%.0f s", secs);
	else if (secs < 5400)
		snprintf(buf, cap, "%.0f min", secs / 60);
	else if (secs < 172800)
		snprintf(buf, cap, "%.1f h", secs / 3600);
	else
		snprintf(buf, cap, "%.1f days", secs / 86400);
}

int cmd_status(int argc, char **argv)
{
	const char *db = NULL;
	bool json = false;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_FLAG("json", json, "print one JSON object (default: text)"),
		{0},
	};
	int npos, rc = cli_parse(argc, argv, opts, &HELP, NULL, 0, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	fl_store *st = cli_open_store(db, true);
	if (!st)
		return 1;
	struct st_state s = {.st = st, .repos = json_array(), .now = (double)time(NULL)};
	long long counts[FL_Q_NSTATES];
	fl_err err;
	if (fl_queue_counts(st, counts, &err) < 0 || fl_queue_each(st, each, &s, &err) < 0) {
		json_decref(s.repos);
		fl_store_close(st);
		return cli_fail(1, "status: %s", err.msg);
	}
	long long records = fl_store_count_entries(st, NULL);
	fl_store_close(st);
	/* the pace: runs finished in the last hour; the time left: the
	 * pending ones at the mean duration of the finished ones, as many at
	 * once as are running now (one when none is) */
	double mean = s.secs_n ? s.secs_sum / (double)s.secs_n : -1;
	int parallel = s.running_rows > 0 ? s.running_rows : 1;
	long long left = counts[FL_Q_PENDING] + counts[FL_Q_RUNNING];
	double eta = mean >= 0 ? mean * (double)left / parallel : -1;
	if (json) {
		json_t *o = json_object(), *c = json_object();
		for (int i = 0; i < FL_Q_NSTATES; i++)
			json_object_set_new(c, fl_qstate_name((fl_qstate)i), json_integer(counts[i]));
		json_object_set_new(o, "counts", c);
		json_object_set_new(o, "repos", s.repos);
		json_object_set_new(o, "records", json_integer(records));
		json_object_set_new(o, "ratePerHour", json_integer(s.finished_hour));
		json_object_set_new(o, "etaSeconds", eta >= 0 ? json_real(eta) : json_null());
		char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
		puts(txt);
		free(txt);
		json_decref(o);
		return 0;
	}
	printf("queue      %lld pending, %lld running, %lld done, %lld failed, %lld skipped\n",
	       counts[FL_Q_PENDING], counts[FL_Q_RUNNING], counts[FL_Q_DONE],
	       counts[FL_Q_FAILED], counts[FL_Q_SKIPPED]);
	printf("records    %lld in the store\n", records);
	if (s.finished_hour)
		printf("rate       %lld repositories in the last hour\n", s.finished_hour);
	if (left) {
		char h[32];
		if (eta >= 0) {
			human(eta, h, sizeof h);
			printf("left       about %s (%lld repositories at %.1f s each, %d at once)\n",
			       h, left, mean, parallel);
		} else {
			printf("left       %lld repositories (no run finished yet to time them)\n", left);
		}
	}
	size_t i;
	json_t *r;
	json_array_foreach(s.repos, i, r) {
		const char *state = str(r, "state");
		const char *name = str(r, "repo") ? str(r, "repo") : str(r, "locator");
		if (strcmp(state, "failed") == 0 ||
		    (strcmp(state, "pending") == 0 && str(r, "lastError")))
			printf("%-10s %s (%lld attempt%s): %s\n",
			       strcmp(state, "failed") == 0 ? "failed" : "retry", name,
			       (long long)json_integer_value(json_object_get(r, "attempts")),
			       json_integer_value(json_object_get(r, "attempts")) == 1 ? "" : "s",
			       str(r, "lastError"));
		else if (strcmp(state, "running") == 0)
			printf("running    %s (batch %s%s)\n", name, str(r, "owner"),
			       json_is_true(json_object_get(r, "ownerAlive")) ? "" :
			       ", which is gone: the next batch takes it back");
	}
	json_decref(s.repos);
	return 0;
}
