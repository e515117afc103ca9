/*
 * run.c — one `faultline enrich` run: the records left to do and their
 * phases (enrich, defend, verify), batches of them sent to the providers
 * by --jobs worker threads, each answer checked and written to the store
 * in its own transaction, failures retried once and then sent to the
 * fallback provider, rate limits answered with backoff and less
 * concurrency, and a quality gate that pauses the run when too many
 * answers fail the rules.
 *
 * The main thread owns the store and the plan; workers only make calls and
 * check answers.  A record moves through the phases in order; the next
 * phase's batches are formed as records come out of the previous one, so
 * the whole pipeline keeps --jobs calls in flight.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "enrich.h"
#include "prompt.h"
#include "../json_internal.h"
#include "../store_enrich.h"
#include "../util.h"

#define ALL_PHASES 7        /* a bit per phase */
#define GATE_WINDOW 20      /* answers the quality gate looks back on */
#define GATE_MIN 6          /* answers before it may pause the run */
#define RATE_TRIES 8        /* rate-limit answers a call may get before it fails */
#define BACKOFF_MAX 60.0    /* seconds */

typedef struct rec {
	char *id, *hash;
	int phases;         /* bits done */
	int rounds;         /* verify rounds done */
	bool busy;          /* in a task */
	bool out;           /* nothing more to do in this run */
	bool changed;       /* a model wrote fields of it */
} rec;

enum outcome { OUT_OK, OUT_REJECTED, OUT_FAILED, OUT_RATE };

typedef struct task {
	fl_phase ph;
	size_t n;
	size_t *idx;         /* records (indexes into run.recs) */
	const char **ids;
	json_t **json;       /* each record as sent */
	char *prompt;
	const fl_provider *prov;
	bool on_fallback;
	int attempt;         /* failures with prov */
	int rate_tries;
	double not_before;
	/* the worker's result */
	enum outcome outcome;
	fl_call call;
	json_t *patches;
	char why[600];
	struct task *next;
} task;

typedef struct run {
	fl_store *st;
	const fl_enrich_opts *o;
	fl_enrich_stats *stats;
	rec *recs;
	size_t nrec, cap;
	size_t *pend[FL_NPHASES];      /* records waiting for each phase */
	size_t npend[FL_NPHASES], cpend[FL_NPHASES];
	long at[FL_NPHASES];           /* records whose next phase it is, busy or not */
	pthread_mutex_t mu;
	pthread_cond_t work_cv, done_cv;
	task *work, *work_tail;        /* for the workers */
	task *done;                    /* back from them */
	task *waiting;                 /* backing off (main thread only) */
	bool stop;
	int outstanding;               /* tasks made and not finished */
	int limit;                     /* concurrency now (<= jobs) */
	int ok_streak;
	unsigned char gate[GATE_WINDOW];
	int ngate, gpos;
	char last_fail[600];
	double t0, last_progress;
} run;

static int next_phase(const rec *r)
{
	for (int p = 0; p < FL_NPHASES; p++)
		if (!(r->phases & 1 << p))
			return p;
	return -1;
}

static void push_pending(run *R, int ph, size_t i)
{
	if (R->npend[ph] == R->cpend[ph]) {
		R->cpend[ph] = R->cpend[ph] ? 2 * R->cpend[ph] : 64;
		R->pend[ph] = fl_xrealloc(R->pend[ph], R->cpend[ph] * sizeof *R->pend[ph]);
	}
	R->pend[ph][R->npend[ph]++] = i;
}

/* ---- selecting the records ------------------------------------------ */

static int select_cb(const fl_enrich_state *s, void *ud)
{
	run *R = ud;
	int phases = R->o->force ? 0 : s->phases;
	int rounds = R->o->force ? 0 : s->verify_rounds;
	if (phases == ALL_PHASES)
		return 0;
	if (R->o->limit > 0 && (long)R->nrec >= R->o->limit)
		return 1;
	if (R->nrec == R->cap) {
		R->cap = R->cap ? 2 * R->cap : 256;
		R->recs = fl_xrealloc(R->recs, R->cap * sizeof *R->recs);
	}
	rec *r = &R->recs[R->nrec];
	memset(r, 0, sizeof *r);
	r->id = fl_xstrdup(s->id);
	r->hash = fl_xstrdup(s->content_hash);
	r->phases = phases;
	r->rounds = rounds;
	int ph = next_phase(r);
	push_pending(R, ph, R->nrec);
	R->at[ph]++;
	R->nrec++;
	return 0;
}

/* ---- tasks ----------------------------------------------------------- */

static void task_free(task *t)
{
	for (size_t i = 0; i < t->n; i++)
		json_decref(t->json[i]);
	free(t->json);
	free(t->idx);
	free(t->ids);
	free(t->prompt);
	fl_call_free(&t->call);
	json_decref(t->patches);
	free(t);
}

/* The record as the model sees it: its JSON with the fields written so
 * far, and its facts. */
static json_t *record_json(run *R, const char *id, fl_err *err)
{
	fl_entry e;
	int rc = fl_store_get_entry(R->st, id, &e, err);
	if (rc <= 0) {
		if (rc == 0)
			fl_seterr(err, "store %s: record %s vanished during the run",
				  fl_store_path(R->st), id);
		return NULL;
	}
	char *js = fl_entry_to_json(&e, false);
	fl_entry_free(&e);
	json_t *o = js ? fl_json_parse(js, strlen(js), err) : NULL;
	free(js);
	return o;
}

static task *make_task(run *R, int ph, fl_err *err)
{
	size_t n = R->npend[ph] < (size_t)R->o->batch ? R->npend[ph] : (size_t)R->o->batch;
	task *t = fl_xcalloc(1, sizeof *t);
	t->ph = (fl_phase)ph;
	t->n = n;
	t->idx = fl_xcalloc(n, sizeof *t->idx);
	t->ids = fl_xcalloc(n, sizeof *t->ids);
	t->json = fl_xcalloc(n, sizeof *t->json);
	t->prov = R->o->primary;
	fl_prompt_facts *facts = fl_xcalloc(n, sizeof *facts);
	char *(*fv)[4] = fl_xcalloc(n, sizeof *fv);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = R->pend[ph][i];
		t->idx[i] = k;
		t->ids[i] = R->recs[k].id;
		R->recs[k].busy = true;
		t->json[i] = record_json(R, R->recs[k].id, err);
		if (!t->json[i] || fl_store_enrich_facts(R->st, R->recs[k].id, fv[i], err) < 0) {
			rc = -1;
			break;
		}
		facts[i] = (fl_prompt_facts){fv[i][0], fv[i][1], fv[i][2], fv[i][3]};
	}
	memmove(R->pend[ph], R->pend[ph] + n, (R->npend[ph] - n) * sizeof *R->pend[ph]);
	R->npend[ph] -= n;
	if (rc == 0)
		t->prompt = fl_prompt_build(t->ph, t->json, facts, n);
	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < 4; j++)
			free(fv[i][j]);
	free(fv);
	free(facts);
	if (rc < 0) {
		task_free(t);
		return NULL;
	}
	return t;
}

/* The phase a new batch is made for: the latest phase with a full batch
 * waiting, or with records waiting that no earlier phase can add to. */
static int pick_phase(const run *R)
{
	for (int ph = FL_NPHASES - 1; ph >= 0; ph--) {
		if (!R->npend[ph])
			continue;
		long upstream = 0;
		for (int q = 0; q < ph; q++)
			upstream += R->at[q];
		if (R->npend[ph] >= (size_t)R->o->batch || upstream == 0)
			return ph;
	}
	return -1;
}

static void give_to_workers(run *R, task *t)
{
	pthread_mutex_lock(&R->mu);
	t->next = NULL;
	if (R->work_tail)
		R->work_tail->next = t;
	else
		R->work = t;
	R->work_tail = t;
	pthread_cond_signal(&R->work_cv);
	pthread_mutex_unlock(&R->mu);
}

static int dispatch(run *R, fl_err *err)
{
	while (!R->stats->paused && R->outstanding < R->limit) {
		int ph = pick_phase(R);
		if (ph < 0)
			break;
		task *t = make_task(R, ph, err);
		if (!t)
			return -1;
		R->outstanding++;
		give_to_workers(R, t);
	}
	return 0;
}

/* ---- the workers ------------------------------------------------------ */

static void work_one(task *t)
{
	fl_call_free(&t->call);
	json_decref(t->patches);
	t->patches = NULL;
	t->why[0] = 0;
	json_t *schema = fl_phase_schema(t->ph);
	fl_provider_call(t->prov, t->prompt, schema, &t->call);
	json_decref(schema);
	if (t->call.status == FL_CALL_RATE_LIMITED) {
		t->outcome = OUT_RATE;
		return;
	}
	if (t->call.status != FL_CALL_OK) {
		t->outcome = OUT_FAILED;
		snprintf(t->why, sizeof t->why, "%s", t->call.errmsg);
		return;
	}
	fl_err e = {0};
	json_t *ans = fl_answer_extract(t->call.text, t->call.len, &e);
	if (!ans || fl_answer_check(ans, t->ph, t->ids, t->n, &t->patches, &e) < 0) {
		t->outcome = OUT_REJECTED;
		snprintf(t->why, sizeof t->why, "%.590s", e.msg);
	} else {
		t->outcome = OUT_OK;
	}
	json_decref(ans);
}

static void *worker(void *arg)
{
	run *R = arg;
	for (;;) {
		pthread_mutex_lock(&R->mu);
		while (!R->work && !R->stop)
			pthread_cond_wait(&R->work_cv, &R->mu);
		if (!R->work) {
			pthread_mutex_unlock(&R->mu);
			return NULL;
		}
		task *t = R->work;
		R->work = t->next;
		if (!R->work)
			R->work_tail = NULL;
		pthread_mutex_unlock(&R->mu);
		work_one(t);
		pthread_mutex_lock(&R->mu);
		t->next = R->done;
		R->done = t;
		pthread_cond_signal(&R->done_cv);
		pthread_mutex_unlock(&R->mu);
	}
}

/* ---- results ---------------------------------------------------------- */

/* The quality gate: the last GATE_WINDOW answers, 1 for one that failed
 * the rules.  More than half of them failing pauses the run. */
static void gate_note(run *R, bool failed, const char *why)
{
	R->gate[R->gpos] = failed;
	R->gpos = (R->gpos + 1) % GATE_WINDOW;
	if (R->ngate < GATE_WINDOW)
		R->ngate++;
	if (failed && why)
		snprintf(R->last_fail, sizeof R->last_fail, "%s", why);
	int bad = 0;
	for (int i = 0; i < R->ngate; i++)
		bad += R->gate[i];
	if (!R->stats->paused && R->ngate >= GATE_MIN && 2 * bad > R->ngate) {
		R->stats->paused = true;
		snprintf(R->stats->pause_reason, sizeof R->stats->pause_reason,
			 "%d of the last %d answers failed the rules (last: %.400s)", bad,
			 R->ngate, R->last_fail);
	}
}

static void leave(run *R, size_t k)
{
	rec *r = &R->recs[k];
	int ph = next_phase(r);
	if (ph >= 0)
		R->at[ph]--;
	r->busy = false;
	r->out = true;
	R->stats->left++;
}

static void advance(run *R, size_t k, int old_ph)
{
	rec *r = &R->recs[k];
	R->at[old_ph]--;
	r->busy = false;
	int ph = next_phase(r);
	if (ph < 0) {
		r->out = true;
		R->stats->completed++;
		return;
	}
	R->at[ph]++;
	push_pending(R, ph, k);
}

/* Write the answer's patches: each record in its transaction's batch;
 * a patch that would make its record invalid is refused (and counts
 * against the quality gate), a record the answer left out is left for a
 * later run. */
static int apply(run *R, task *t, fl_err *err)
{
	const char *model = t->call.model ? t->call.model : t->prov->model;
	bool *ok = fl_xcalloc(t->n, sizeof *ok);
	if (fl_store_begin(R->st, err) < 0) {
		free(ok);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		rec *r = &R->recs[t->idx[i]];
		json_t *patch = json_object_get(t->patches, r->id);
		if (!patch && t->ph == FL_PHASE_VERIFY) {
			/* verify answers with patches: a record it leaves out
			 * was found right */
			json_object_set_new(t->patches, r->id, json_object());
			patch = json_object_get(t->patches, r->id);
		}
		if (!patch)
			continue;
		json_t *merged = json_deep_copy(t->json[i]);
		json_object_update_existing(merged, patch);
		fl_entry e;
		fl_err ve = {0};
		bool valid = fl_entry_from_jobj(merged, &e, true, &ve) == 0;
		json_decref(merged);
		if (!valid) {
			char why[600];
			snprintf(why, sizeof why, "record %s: %.560s", r->id, ve.msg);
			gate_note(R, true, why);
			continue;
		}
		fl_entry_free(&e);
		int bit = 1 << t->ph;
		bool more = false;
		if (t->ph == FL_PHASE_VERIFY) {
			/* a patch asks for another look, up to verify_rounds */
			more = json_object_size(patch) > 0 &&
			       r->rounds + 1 < R->o->verify_rounds;
			if (more)
				bit = 0;
		}
		rc = fl_store_enrich_put(R->st, r->id, r->hash, patch, bit,
					 t->ph == FL_PHASE_VERIFY, t->prov->name, model,
					 fl_phase_name(t->ph), err);
		ok[i] = true;
	}
	if (rc == 0)
		rc = fl_store_commit(R->st, err);
	else
		fl_store_rollback(R->st);
	if (rc < 0) {
		free(ok);
		return -1;
	}
	for (size_t i = 0; i < t->n; i++) {
		size_t k = t->idx[i];
		rec *r = &R->recs[k];
		if (!ok[i]) {
			leave(R, k);
			continue;
		}
		json_t *patch = json_object_get(t->patches, r->id);
		size_t nf = json_object_size(patch);
		R->stats->fields += (long)nf;
		if (nf && !r->changed) {
			r->changed = true;
			R->stats->updated++;
		}
		if (t->ph == FL_PHASE_VERIFY) {
			r->rounds++;
			if (!nf || r->rounds >= R->o->verify_rounds)
				r->phases |= 1 << FL_PHASE_VERIFY;
		} else {
			r->phases |= 1 << t->ph;
		}
		advance(R, k, t->ph);
	}
	free(ok);
	return 0;
}

static void add_tokens(long *sum, long v)
{
	if (v < 0)
		return;
	*sum = *sum < 0 ? v : *sum + v;
}

static void requeue(run *R, task *t, double delay)
{
	t->not_before = fl_now_mono() + delay;
	t->next = R->waiting;
	R->waiting = t;
}

/* The task came back: write it, or try it again, or give its records up
 * for this run.  Returns 1 when the task is finished. */
static int finish(run *R, task *t, fl_err *err)
{
	fl_enrich_stats *S = R->stats;
	S->calls++;
	if (t->on_fallback)
		S->fallback_calls++;
	add_tokens(&S->prompt_tokens, t->call.prompt_tokens);
	add_tokens(&S->completion_tokens, t->call.completion_tokens);
	if (t->outcome == OUT_RATE) {
		S->rate_limited++;
		R->limit = R->limit > 1 ? R->limit / 2 : 1;
		R->ok_streak = 0;
		if (++t->rate_tries <= RATE_TRIES) {
			double d = t->call.retry_after > 0 ? t->call.retry_after
				: fmin(BACKOFF_MAX, pow(2.0, t->rate_tries - 1));
			requeue(R, t, d);
			return 0;
		}
		t->outcome = OUT_FAILED;
		snprintf(t->why, sizeof t->why, "still rate-limited after %d tries", RATE_TRIES);
	}
	if (t->outcome == OUT_OK) {
		gate_note(R, false, NULL);
		if (apply(R, t, err) < 0)
			return -1;
		if (R->limit < R->o->jobs && ++R->ok_streak >= R->limit) {
			R->limit++;
			R->ok_streak = 0;
		}
		return 1;
	}
	if (t->outcome == OUT_REJECTED) {
		S->rejected++;
		gate_note(R, true, t->why);
	} else {
		S->failed++;
		if (t->call.status == FL_CALL_TIMEOUT)
			S->timeouts++;
		snprintf(R->last_fail, sizeof R->last_fail, "%s", t->why);
	}
	if (!R->stats->paused) {
		if (++t->attempt < 2) {
			S->retried++;
			requeue(R, t, 0);
			return 0;
		}
		if (R->o->fallback && !t->on_fallback) {
			t->on_fallback = true;
			t->prov = R->o->fallback;
			t->attempt = 0;
			S->retried++;
			requeue(R, t, 0);
			return 0;
		}
	}
	for (size_t i = 0; i < t->n; i++)
		leave(R, t->idx[i]);
	return 1;
}

/* Tasks whose backoff is over go back to the workers; the time until the
 * next one's is in *wait (or stays). */
static void wake_waiting(run *R, double *wait)
{
	double now = fl_now_mono();
	task **pp = &R->waiting;
	while (*pp) {
		task *t = *pp;
		if (t->not_before <= now && !R->stats->paused) {
			*pp = t->next;
			give_to_workers(R, t);
			continue;
		}
		if (R->stats->paused) {
			/* a paused run sends nothing more */
			*pp = t->next;
			for (size_t i = 0; i < t->n; i++)
				leave(R, t->idx[i]);
			R->outstanding--;
			task_free(t);
			continue;
		}
		if (t->not_before - now < *wait)
			*wait = t->not_before - now;
		pp = &t->next;
	}
}

static void progress(run *R, bool last)
{
	FILE *f = R->o->progress;
	if (!f)
		return;
	double now = fl_now_mono();
	if (!last && now - R->last_progress < 0.25)
		return;
	R->last_progress = now;
	const fl_enrich_stats *S = R->stats;
	double el = now - R->t0;
	fprintf(f, "\r\033[Kenrich: %ld/%ld records done, %ld calls (%ld rejected, %ld failed,"
		" %ld rate-limited), %.1f records/s, %d at once%s",
		S->completed, S->selected, S->calls, S->rejected, S->failed,
		S->rate_limited, el > 0 ? (double)S->completed / el : 0.0, R->limit,
		last ? "\n" : "");
	fflush(f);
}

/* ---- the run ---------------------------------------------------------- */

static void dry_run(run *R)
{
	for (size_t i = 0; i < R->nrec; i++) {
		const rec *r = &R->recs[i];
		for (int p = 0; p < FL_NPHASES; p++)
			if (!(r->phases & 1 << p))
				R->stats->pending[p]++;
	}
	int ph = -1;
	for (int p = 0; p < FL_NPHASES && ph < 0; p++)
		if (R->npend[p])
			ph = p;
	if (ph < 0 || !R->o->out)
		return;
	fl_err err = {0};
	task *t = make_task(R, ph, &err);
	if (t) {
		fputs(t->prompt, R->o->out);
		task_free(t);
	}
}

int fl_enrich_run(fl_store *st, const fl_enrich_opts *o, fl_enrich_stats *stats,
		  fl_err *err)
{
	memset(stats, 0, sizeof *stats);
	stats->prompt_tokens = stats->completion_tokens = -1;
	if (o->jobs < 1 || o->batch < 1 || (!o->primary && !o->dry_run))
		return fl_seterr(err, "enrich: no provider, or jobs or batch below 1");
	run R = {.st = st, .o = o, .stats = stats, .limit = o->jobs};
	R.t0 = fl_now_mono();
	int rc = fl_store_enrich_state(st, o->repo, select_cb, &R, err);
	stats->selected = (long)R.nrec;
	if (rc == 0 && o->dry_run) {
		dry_run(&R);
	} else if (rc == 0 && R.nrec) {
		pthread_mutex_init(&R.mu, NULL);
		pthread_cond_init(&R.work_cv, NULL);
		pthread_cond_init(&R.done_cv, NULL);
		pthread_t *th = fl_xcalloc((size_t)o->jobs, sizeof *th);
		int nth = 0;
		for (; nth < o->jobs; nth++)
			if (pthread_create(&th[nth], NULL, worker, &R) != 0)
				break;
		if (nth == 0)
			rc = fl_seterr(err, "enrich: cannot start a thread: %s", strerror(errno));
		if (rc == 0)
			rc = dispatch(&R, err);
		while (rc == 0 && R.outstanding > 0) {
			double wait = 0.25;
			wake_waiting(&R, &wait);
			pthread_mutex_lock(&R.mu);
			if (!R.done && R.outstanding > 0) {
				struct timespec ts;
				clock_gettime(CLOCK_REALTIME, &ts);
				double w = wait < 0 ? 0 : wait;
				ts.tv_sec += (time_t)w;
				ts.tv_nsec += (long)((w - floor(w)) * 1e9);
				if (ts.tv_nsec >= 1000000000L) {
					ts.tv_sec++;
					ts.tv_nsec -= 1000000000L;
				}
				pthread_cond_timedwait(&R.done_cv, &R.mu, &ts);
			}
			task *done = R.done;
			R.done = NULL;
			pthread_mutex_unlock(&R.mu);
			while (done) {
				task *t = done;
				done = t->next;
				int f = rc == 0 ? finish(&R, t, err) : 1;
				if (f < 0) {
					rc = -1;
					f = 1;
				}
				if (f) {
					R.outstanding--;
					task_free(t);
				}
			}
			if (rc == 0)
				rc = dispatch(&R, err);
			progress(&R, false);
		}
		pthread_mutex_lock(&R.mu);
		R.stop = true;
		pthread_cond_broadcast(&R.work_cv);
		pthread_mutex_unlock(&R.mu);
		for (int i = 0; i < nth; i++)
			pthread_join(th[i], NULL);
		free(th);
		/* a store error stops the run: what it had not finished is left */
		for (task *t = R.work; t;) {
			task *n = t->next;
			task_free(t);
			t = n;
		}
		for (task *t = R.waiting; t;) {
			task *n = t->next;
			task_free(t);
			t = n;
		}
		for (size_t i = 0; i < R.nrec; i++)
			if (!R.recs[i].out && !R.recs[i].busy && next_phase(&R.recs[i]) >= 0)
				stats->left++;
		progress(&R, true);
		pthread_cond_destroy(&R.done_cv);
		pthread_cond_destroy(&R.work_cv);
		pthread_mutex_destroy(&R.mu);
	}
	stats->seconds = fl_now_mono() - R.t0;
	snprintf(stats->last_error, sizeof stats->last_error, "%s", R.last_fail);
	for (size_t i = 0; i < R.nrec; i++) {
		free(R.recs[i].id);
		free(R.recs[i].hash);
	}
	free(R.recs);
	for (int p = 0; p < FL_NPHASES; p++)
		free(R.pend[p]);
	if (rc < 0)
		return -1;
	return stats->paused ? 1 : 0;
}
