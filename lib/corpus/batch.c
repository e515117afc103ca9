/*
 * batch.c — `faultline batch`: the supervisor of a corpus run.  It takes
 * the queue's running rows of dead batch processes back, then claims
 * pending rows in priority order, --jobs at a time, and runs each in a
 * worker process of its own (the command the caller gives, with the row's
 * id appended; it runs fl_run_one and prints JSON lines: {"phase":...} as
 * it goes, then its result).  A worker that outlives the per-repository
 * timeout is killed with its whole process group; a failed run is tried
 * once more, after the other pending rows of its priority, then marked
 * failed; the run goes on.  The rows' ends are written by this process
 * only; a worker writes the scan.  Killed (kill -9), a batch loses the
 * rows in flight: its workers die with it (PR_SET_PDEATHSIG, set by the
 * worker) and the next batch takes the rows back.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"
#include "corpus.h"
#include "../publish/publish.h"
#include "../util.h"

extern char **environ;

typedef struct job {
	fl_qrow row;
	pid_t pid;
	int out;                   /* the worker's stdout and stderr */
	fl_buf buf;                /* what it printed */
	double started, deadline;
	char phase[16];
	bool timed_out, exited;
	int status;
} job;

static int spawn(const fl_batch_opts *o, job *j, fl_err *err)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return fl_seterr(err, "cannot make a pipe: %s", strerror(errno));
	size_t n = 0;
	while (o->worker_argv[n])
		n++;
	char **argv = fl_xcalloc(n + 2, sizeof *argv);
	for (size_t i = 0; i < n; i++)
		argv[i] = (char *)o->worker_argv[i];
	char id[32];
	snprintf(id, sizeof id, "%lld", j->row.id);
	argv[n] = id;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	posix_spawnattr_init(&at);
	/* a group of its own: a timeout kills the worker and all it started */
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	int rc = posix_spawn(&j->pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	free(argv);
	close(p[1]);
	if (rc != 0) {
		close(p[0]);
		return fl_seterr(err, "cannot start a worker (%s): %s", o->worker_argv[0], strerror(rc));
	}
	j->out = p[0];
	fcntl(j->out, F_SETFL, O_NONBLOCK);
	j->started = fl_now_mono();
	j->deadline = o->timeout > 0 ? j->started + o->timeout : 0;
	snprintf(j->phase, sizeof j->phase, "start");
	return 0;
}

/* What a worker printed so far: the last {"phase":...} line it wrote. */
static void read_out(job *j)
{
	char tmp[4096];
	ssize_t r;
	while ((r = read(j->out, tmp, sizeof tmp)) > 0) {
		size_t from = j->buf.n;
		fl_buf_put(&j->buf, tmp, (size_t)r);
		fl_buf_putc(&j->buf, '\0'); /* a string, for strstr */
		j->buf.n--;
		/* phases: scan the complete lines just added */
		const char *s = j->buf.s, *p = s + (from > 0 ? from - 1 : 0);
		while ((p = strstr(p, "{\"phase\":\""))) {
			p += 10;
			const char *q = strchr(p, '"');
			if (!q)
				break;
			snprintf(j->phase, sizeof j->phase, "%.*s", (int)(q - p), p);
		}
	}
	if (r == 0) {
		close(j->out);
		j->out = -1;
	}
}

/* The worker's result: its last line with an "outcome". */
static void result_of(job *j, const fl_batch_opts *o, fl_qstate *state, char **error,
		      char **sha, char **repo, long long *records)
{
	*state = FL_Q_FAILED;
	*error = *sha = *repo = NULL;
	*records = -1;
	fl_buf_putc(&j->buf, '\0');
	json_t *res = NULL;
	char *save = NULL, *last_text = NULL;
	for (char *line = strtok_r(j->buf.s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *v = line[0] == '{' ? json_loads(line, 0, NULL) : NULL;
		if (v && json_object_get(v, "outcome")) {
			json_decref(res);
			res = v;
		} else {
			json_decref(v);
			if (!v && line[0])
				last_text = line;
		}
	}
	const char *outcome = res ? json_string_value(json_object_get(res, "outcome")) : NULL;
	if (j->timed_out) {
		*error = fl_xasprintf("timed out after %g s while %s", o->timeout,
				      strcmp(j->phase, "fetch") == 0 ? "fetching" :
				      strcmp(j->phase, "scan") == 0 ? "scanning" :
				      strcmp(j->phase, "write") == 0 ? "writing the records" :
				      strcmp(j->phase, "resolve") == 0 ? "reading its commit" :
				      "starting");
	} else if (outcome && WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0 &&
		   (strcmp(outcome, "done") == 0 || strcmp(outcome, "skipped") == 0)) {
		*state = strcmp(outcome, "done") == 0 ? FL_Q_DONE : FL_Q_SKIPPED;
		const char *s = json_string_value(json_object_get(res, "analyzedSha"));
		const char *r = json_string_value(json_object_get(res, "repo"));
		*sha = s ? fl_xstrdup(s) : NULL;
		*repo = r ? fl_xstrdup(r) : NULL;
		json_t *n = json_object_get(res, "records");
		*records = json_is_integer(n) ? json_integer_value(n) : -1;
	} else if (outcome && json_is_string(json_object_get(res, "error"))) {
		*error = fl_xstrdup(json_string_value(json_object_get(res, "error")));
	} else if (WIFSIGNALED(j->status)) {
		*error = fl_xasprintf("the worker died of signal %d (%s)%s%s", WTERMSIG(j->status),
				      strsignal(WTERMSIG(j->status)), last_text ? ": " : "",
				      last_text ? last_text : "");
	} else {
		*error = fl_xasprintf("the worker exited with status %d%s%s",
				      WIFEXITED(j->status) ? WEXITSTATUS(j->status) : -1,
				      last_text ? ": " : "", last_text ? last_text : "");
	}
	json_decref(res);
}

static void progress(const fl_batch_opts *o, const fl_batch_stats *s, job *jobs, int njobs)
{
	if (!o->progress)
		return;
	char line[512];
	int n = snprintf(line, sizeof line, "batch: %lld done, %lld skipped, %lld failed",
			 s->done, s->skipped, s->failed);
	double now = fl_now_mono();
	for (int i = 0; i < njobs && n < (int)sizeof line - 64; i++)
		if (jobs[i].pid > 0)
			n += snprintf(line + n, sizeof line - (size_t)n, "; %s %s %.0fs",
				      jobs[i].row.repo ? jobs[i].row.repo : jobs[i].row.locator,
				      jobs[i].phase, now - jobs[i].started);
	fprintf(stderr, "\r\033[K%.*s", 160, line);
	fflush(stderr);
}

/* Clones of runs that are not running any more (a killed batch's). */
static void clean_workdir(fl_store *st, const char *workdir)
{
	DIR *d = opendir(workdir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		if (de->d_name[0] != 'q')
			continue;
		long long id = strtoll(de->d_name + 1, &end, 10);
		if (*end || id <= 0)
			continue;
		fl_qrow r;
		fl_err err;
		bool live = false;
		if (fl_queue_get(st, id, &r, &err) == 0) {
			live = r.state == FL_Q_RUNNING && fl_queue_owner_alive(r.owner);
			fl_qrow_free(&r);
		}
		if (!live)
			pub_rmtree_at(dirfd(d), de->d_name);
	}
	closedir(d);
}

static void end_job(fl_store *st, const fl_batch_opts *o, job *j, fl_batch_stats *s)
{
	fl_qstate state;
	char *error, *sha, *repo;
	long long records;
	result_of(j, o, &state, &error, &sha, &repo, &records);
	double secs = fl_now_mono() - j->started;
	fl_err err;
	if (fl_queue_finish(st, j->row.id, state, sha, repo, records, error, secs,
			    o->max_attempts, &err) < 0)
		fprintf(stderr, "%sfaultline: batch: %s\n", o->progress ? "\r\033[K" : "", err.msg);
	if (state == FL_Q_DONE) {
		s->done++;
		s->records += records > 0 ? records : 0;
	} else if (state == FL_Q_SKIPPED) {
		s->skipped++;
	} else {
		bool last = j->row.attempts + 1 >= o->max_attempts;
		if (last)
			s->failed++;
		else
			s->retried++;
		if (o->on_failure)
			o->on_failure(j->row.repo ? j->row.repo : j->row.locator, error, last);
	}
	free(error);
	free(sha);
	free(repo);
	fl_buf_free(&j->buf);
	fl_qrow_free(&j->row);
	memset(j, 0, sizeof *j);
	j->out = -1;
}

static void kill_job(job *j)
{
	if (j->pid > 0)
		kill(-j->pid, SIGKILL);
}

int fl_batch(fl_store *st, const fl_batch_opts *o, fl_batch_stats *s, fl_err *err)
{
	memset(s, 0, sizeof *s);
	double t0 = fl_now_mono();
	/* the supervisor waits for the workers' writes rather than fail */
	fl_store_busy_timeout(st, 600000);
	if (fl_queue_reclaim(st, &s->reclaimed, err) < 0)
		return -1;
	if (pub_mkdirs(o->workdir, err) < 0)
		return -1;
	clean_workdir(st, o->workdir);
	char owner[48];
	fl_queue_owner_self(owner);
	int njobs = o->jobs > 0 ? o->jobs : 1;
	job *jobs = fl_xcalloc((size_t)njobs, sizeof *jobs);
	for (int i = 0; i < njobs; i++)
		jobs[i].out = -1;
	int running = 0, rc = 0;
	bool empty = false;
	long long claimed = 0;
	for (;;) {
		/* fill the free slots */
		while (!empty && running < njobs && !*o->stop &&
		       (o->limit <= 0 || claimed < o->limit)) {
			int slot = 0;
			while (jobs[slot].pid > 0)
				slot++;
			job *j = &jobs[slot];
			int c = fl_queue_claim(st, owner, &j->row, err);
			if (c < 0) {
				rc = -1;
				break;
			}
			if (c == 0) {
				empty = true;
				break;
			}
			claimed++;
			if (spawn(o, j, err) < 0) {
				fl_err e2;
				fl_queue_finish(st, j->row.id, FL_Q_PENDING, NULL, NULL, -1, NULL, 0, 0, &e2);
				fl_qrow_free(&j->row);
				rc = -1;
				break;
			}
			running++;
		}
		if (rc < 0 || *o->stop || running == 0)
			break;
		/* wait for output, an exit or a deadline */
		struct pollfd pf[64];
		int np = 0, map[64];
		double now = fl_now_mono(), wait = 0.5;
		for (int i = 0; i < njobs && np < 64; i++) {
			if (jobs[i].pid <= 0)
				continue;
			if (jobs[i].deadline > 0 && jobs[i].deadline - now < wait)
				wait = jobs[i].deadline - now;
			if (jobs[i].out >= 0) {
				pf[np].fd = jobs[i].out;
				pf[np].events = POLLIN;
				map[np++] = i;
			}
		}
		if (wait < 0)
			wait = 0;
		/* a worker that closed its output is reaped on the next turn */
		int pr = poll(pf, (nfds_t)np, np ? (int)(wait * 1000) + 1 : 50);
		if (pr < 0 && errno != EINTR) {
			rc = fl_seterr(err, "poll: %s", strerror(errno));
			break;
		}
		for (int k = 0; k < np && pr > 0; k++)
			if (pf[k].revents)
				read_out(&jobs[map[k]]);
		now = fl_now_mono();
		for (int i = 0; i < njobs; i++) {
			job *j = &jobs[i];
			if (j->pid <= 0)
				continue;
			if (!j->timed_out && j->deadline > 0 && now >= j->deadline) {
				j->timed_out = true;
				kill_job(j);
			}
			int status;
			pid_t w = waitpid(j->pid, &status, WNOHANG);
			if (w != j->pid)
				continue;
			j->status = status;
			if (j->out >= 0) {
				read_out(j); /* the rest of what it printed */
				if (j->out >= 0)
					close(j->out);
				j->out = -1;
			}
			/* the worker's group may hold more (a helper it started) */
			kill(-j->pid, SIGKILL);
			end_job(st, o, j, s);
			running--;
		}
		progress(o, s, jobs, njobs);
	}
	/* stopped (a signal, or an error of the store): the rows in flight go
	 * back to pending, not counted as attempts */
	for (int i = 0; i < njobs; i++) {
		job *j = &jobs[i];
		if (j->pid <= 0)
			continue;
		kill_job(j);
		waitpid(j->pid, NULL, 0);
		if (j->out >= 0)
			close(j->out);
		fl_err e2;
		fl_queue_finish(st, j->row.id, FL_Q_PENDING, NULL, NULL, -1, NULL, 0, 0, &e2);
		s->stopped++;
		fl_buf_free(&j->buf);
		fl_qrow_free(&j->row);
	}
	if (o->progress)
		fprintf(stderr, "\r\033[K");
	free(jobs);
	s->seconds = fl_now_mono() - t0;
	return rc;
}
