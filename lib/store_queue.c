/*
 * store_queue.c — the store's queue of repositories (table queue, schema
 * version 7): what `faultline queue add` writes, what `batch` claims and
 * finishes, what `status` reads.  Every change is one transaction that
 * leaves the records' change counter alone (fl_store_begin_admin), so a
 * queue change does not make the lookup index stale.  Claiming is one
 * BEGIN IMMEDIATE transaction: two batch processes never take one row.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faultline.h"
#include "store_internal.h"
#include "util.h"

static const char *const state_names[FL_Q_NSTATES] = {
	"pending", "running", "done", "failed", "skipped",
};

const char *fl_qstate_name(fl_qstate s)
{
	return s >= 0 && s < FL_Q_NSTATES ? state_names[s] : "?";
}

static fl_qstate state_of(const char *name)
{
	for (int i = 0; i < FL_Q_NSTATES; i++)
		if (name && strcmp(name, state_names[i]) == 0)
			return (fl_qstate)i;
	return FL_Q_PENDING;
}

static char *col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? fl_xstrdup((const char *)t) : NULL;
}

bool fl_locator_is_url(const char *l)
{
	static const char *const schemes[] = {
		"https://", "http://", "git://", "file://", "ssh://",
	};
	for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
		if (strncmp(l, schemes[i], strlen(schemes[i])) == 0)
			return true;
	return false;
}

void fl_qrow_free(fl_qrow *r)
{
	free(r->locator);
	free(r->repo);
	free(r->rev);
	free(r->last_error);
	free(r->analyzed_sha);
	free(r->scanned_repo);
	free(r->owner);
	free(r->added_at);
	free(r->started_at);
	free(r->finished_at);
	memset(r, 0, sizeof *r);
}

#define ROW_COLUMNS \
	"id, locator, repo, rev, priority, state, attempts, last_error," \
	" analyzed_sha, scanned_repo, records, owner, added_at, started_at," \
	" finished_at, seconds"

static void read_row(sqlite3_stmt *s, fl_qrow *r)
{
	memset(r, 0, sizeof *r);
	r->id = sqlite3_column_int64(s, 0);
	r->locator = col_dup(s, 1);
	r->repo = col_dup(s, 2);
	r->rev = col_dup(s, 3);
	r->priority = sqlite3_column_int(s, 4);
	r->state = state_of((const char *)sqlite3_column_text(s, 5));
	r->attempts = sqlite3_column_int(s, 6);
	r->last_error = col_dup(s, 7);
	r->analyzed_sha = col_dup(s, 8);
	r->scanned_repo = col_dup(s, 9);
	r->records = sqlite3_column_type(s, 10) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 10);
	r->owner = col_dup(s, 11);
	r->added_at = col_dup(s, 12);
	r->started_at = col_dup(s, 13);
	r->finished_at = col_dup(s, 14);
	r->seconds = sqlite3_column_type(s, 15) == SQLITE_NULL ? -1 : sqlite3_column_double(s, 15);
}

/* One statement in its own admin transaction. */
static int run_tx(fl_store *st, sqlite3_stmt *s, const char *what, fl_err *err)
{
	if (fl_store_begin_admin(st, err) < 0) {
		sqlite3_finalize(s);
		return -1;
	}
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		fl_store_sqlfail(st, err, what);
		fl_store_rollback(st);
		return -1;
	}
	return fl_store_commit_admin(st, err);
}

int fl_queue_add(fl_store *st, const char *locator, const char *repo,
		 const char *rev, int priority, bool *requeued, fl_err *err)
{
	if (fl_store_begin_admin(st, err) < 0)
		return -1;
	sqlite3_stmt *s;
	int rc = -1;
	if (sqlite3_prepare_v2(st->db, "SELECT state FROM queue WHERE locator = ?1", -1, &s, NULL) != SQLITE_OK) {
		fl_store_sqlfail(st, err, "reading the queue");
		goto fail;
	}
	sqlite3_bind_text(s, 1, locator, -1, SQLITE_TRANSIENT);
	bool exists = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	char now[32];
	fl_now_iso(now);
	const char *sql = exists ?
		/* a running row keeps running: its batch finishes it, and
		 * sees it queued again by an added_at after its started_at
		 * (fl_queue_finish), so added_at is at least a millisecond
		 * after it even when both fall in the same millisecond */
		"UPDATE queue SET repo = ?2, rev = ?3, priority = ?4,"
		" state = CASE state WHEN 'running' THEN 'running' ELSE 'pending' END,"
		" attempts = 0,"
		" added_at = CASE WHEN state = 'running' AND started_at IS NOT NULL AND ?5 <= started_at"
		"  THEN strftime('%Y-%m-%dT%H:%M:%fZ', julianday(started_at) + 1.0 / 86400000.0)"
		"  ELSE ?5 END"
		" WHERE locator = ?1" :
		"INSERT INTO queue (locator, repo, rev, priority, state, added_at)"
		" VALUES (?1, ?2, ?3, ?4, 'pending', ?5)";
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		fl_store_sqlfail(st, err, "queueing a repository");
		goto fail;
	}
	sqlite3_bind_text(s, 1, locator, -1, SQLITE_TRANSIENT);
	fl_store_bind_opt(s, 2, repo);
	fl_store_bind_opt(s, 3, rev);
	sqlite3_bind_int(s, 4, priority);
	sqlite3_bind_text(s, 5, now, -1, SQLITE_TRANSIENT);
	int step = sqlite3_step(s);
	sqlite3_finalize(s);
	if (step != SQLITE_DONE) {
		fl_store_sqlfail(st, err, "queueing a repository");
		goto fail;
	}
	if (requeued)
		*requeued = exists;
	return fl_store_commit_admin(st, err);
fail:
	fl_store_rollback(st);
	return rc;
}

int fl_queue_each(fl_store *st, fl_qrow_cb cb, void *ud, fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT " ROW_COLUMNS " FROM queue ORDER BY"
			       " CASE state WHEN 'pending' THEN 0 WHEN 'running' THEN 1"
			       " WHEN 'failed' THEN 2 WHEN 'done' THEN 3 ELSE 4 END,"
			       " priority DESC, attempts, id", -1, &s, NULL) != SQLITE_OK) {
		/* a store of an older faultline, opened read-only: no queue */
		if (strstr(sqlite3_errmsg(st->db), "no such table"))
			return 0;
		return fl_store_sqlfail(st, err, "reading the queue");
	}
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		fl_qrow r;
		read_row(s, &r);
		int stop = cb(&r, ud);
		fl_qrow_free(&r);
		if (stop)
			break;
	}
	bool bad = rc != SQLITE_ROW && rc != SQLITE_DONE;
	sqlite3_finalize(s);
	return bad ? fl_store_sqlfail(st, err, "reading the queue") : 0;
}

int fl_queue_get(fl_store *st, long long id, fl_qrow *out, fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT " ROW_COLUMNS " FROM queue WHERE id = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading the queue");
	sqlite3_bind_int64(s, 1, id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		read_row(s, out);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return fl_seterr(err, "store %s: no queued repository has id %lld",
				 fl_store_path(st), id);
	return 0;
}

int fl_queue_counts(fl_store *st, long long counts[FL_Q_NSTATES], fl_err *err)
{
	memset(counts, 0, sizeof(long long) * FL_Q_NSTATES);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT state, count(*) FROM queue GROUP BY state",
			       -1, &s, NULL) != SQLITE_OK) {
		if (strstr(sqlite3_errmsg(st->db), "no such table"))
			return 0;
		return fl_store_sqlfail(st, err, "reading the queue");
	}
	while (sqlite3_step(s) == SQLITE_ROW)
		counts[state_of((const char *)sqlite3_column_text(s, 0))] += sqlite3_column_int64(s, 1);
	sqlite3_finalize(s);
	return 0;
}

/* Field 22 of /proc/PID/stat: the start time, in clock ticks after boot
 * (0 when it cannot be read).  The command name (field 2) may hold spaces
 * and parentheses: fields are counted after its last ')'. */
static unsigned long long start_time(long pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	if (!p)
		return 0;
	p++;
	for (int field = 3; field < 22 && p; field++) {
		p = strchr(p + 1, ' ');
	}
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

void fl_queue_owner_self(char out[48])
{
	long pid = (long)getpid();
	snprintf(out, 48, "%ld:%llu", pid, start_time(pid));
}

bool fl_queue_owner_alive(const char *owner)
{
	if (!owner)
		return false;
	char *end;
	long pid = strtol(owner, &end, 10);
	if (pid <= 0 || *end != ':')
		return false;
	unsigned long long start = strtoull(end + 1, NULL, 10);
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return false;
	/* the pid runs: the same process only if it started when the owner
	 * did (a pid is used again) */
	unsigned long long now = start_time(pid);
	return now == 0 || start == 0 || now == start;
}

int fl_queue_reclaim(fl_store *st, long long *n, fl_err *err)
{
	*n = 0;
	if (fl_store_begin_admin(st, err) < 0)
		return -1;
	sqlite3_stmt *s, *u;
	if (sqlite3_prepare_v2(st->db, "SELECT id, owner FROM queue WHERE state = 'running'",
			       -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "UPDATE queue SET state = 'pending', owner = NULL"
			       " WHERE id = ?1", -1, &u, NULL) != SQLITE_OK) {
		fl_store_sqlfail(st, err, "reading the queue");
		fl_store_rollback(st);
		return -1;
	}
	int rc = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (fl_queue_owner_alive((const char *)sqlite3_column_text(s, 1)))
			continue;
		sqlite3_reset(u);
		sqlite3_bind_int64(u, 1, sqlite3_column_int64(s, 0));
		if (sqlite3_step(u) != SQLITE_DONE) {
			rc = fl_store_sqlfail(st, err, "taking a repository back");
			break;
		}
		(*n)++;
	}
	sqlite3_finalize(s);
	sqlite3_finalize(u);
	if (rc < 0) {
		fl_store_rollback(st);
		return -1;
	}
	return fl_store_commit_admin(st, err);
}

int fl_queue_claim(fl_store *st, const char *owner, fl_qrow *out, fl_err *err)
{
	if (fl_store_begin_admin(st, err) < 0)
		return -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT " ROW_COLUMNS " FROM queue WHERE state = 'pending'"
			       " ORDER BY priority DESC, attempts, id LIMIT 1", -1, &s, NULL) != SQLITE_OK) {
		fl_store_sqlfail(st, err, "reading the queue");
		fl_store_rollback(st);
		return -1;
	}
	int rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(s);
		fl_store_rollback(st);
		if (rc != SQLITE_DONE)
			return fl_store_sqlfail(st, err, "reading the queue");
		return 0;
	}
	read_row(s, out);
	sqlite3_finalize(s);
	char now[32];
	fl_now_iso(now);
	if (sqlite3_prepare_v2(st->db, "UPDATE queue SET state = 'running', owner = ?2,"
			       " started_at = ?3 WHERE id = ?1 AND state = 'pending'",
			       -1, &s, NULL) != SQLITE_OK) {
		fl_store_sqlfail(st, err, "claiming a repository");
		fl_store_rollback(st);
		fl_qrow_free(out);
		return -1;
	}
	sqlite3_bind_int64(s, 1, out->id);
	sqlite3_bind_text(s, 2, owner, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, now, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE || fl_store_commit_admin(st, err) < 0) {
		if (rc != SQLITE_DONE) {
			fl_store_sqlfail(st, err, "claiming a repository");
			fl_store_rollback(st);
		}
		fl_qrow_free(out);
		return -1;
	}
	out->state = FL_Q_RUNNING;
	free(out->owner);
	out->owner = fl_xstrdup(owner);
	free(out->started_at);
	out->started_at = fl_xstrdup(now);
	return 1;
}

int fl_queue_finish(fl_store *st, long long id, fl_qstate state,
		    const char *sha, const char *scanned_repo, long long records,
		    const char *error, double seconds, int max_attempts,
		    fl_err *err)
{
	sqlite3_stmt *s;
	const char *sql;
	switch (state) {
	case FL_Q_DONE:
	case FL_Q_SKIPPED:
		/* queued again while it ran (added_at after started_at):
		 * pending again, for the run it was queued for */
		sql = "UPDATE queue SET state = CASE WHEN added_at > started_at THEN 'pending' ELSE ?2 END,"
		      " analyzed_sha = ?3,"
		      " scanned_repo = coalesce(?4, scanned_repo), records = coalesce(?5, records),"
		      " last_error = NULL, owner = NULL, finished_at = ?6, seconds = ?7,"
		      " attempts = 0 WHERE id = ?1";
		break;
	case FL_Q_FAILED:
		sql = "UPDATE queue SET"
		      " attempts = CASE WHEN added_at > started_at THEN 0 ELSE attempts + 1 END,"
		      " state = CASE WHEN added_at > started_at OR attempts + 1 < ?8"
		      "  THEN 'pending' ELSE 'failed' END,"
		      " last_error = ?9, owner = NULL, finished_at = ?6, seconds = ?7"
		      " WHERE id = ?1";
		break;
	case FL_Q_PENDING:
		sql = "UPDATE queue SET state = 'pending', owner = NULL WHERE id = ?1";
		break;
	default:
		return fl_seterr(err, "queue: a run cannot end as %s", fl_qstate_name(state));
	}
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "finishing a repository's run");
	char now[32];
	fl_now_iso(now);
	sqlite3_bind_int64(s, 1, id);
	if (state == FL_Q_DONE || state == FL_Q_SKIPPED) {
		sqlite3_bind_text(s, 2, fl_qstate_name(state), -1, SQLITE_STATIC);
		fl_store_bind_opt(s, 3, sha);
		fl_store_bind_opt(s, 4, scanned_repo);
		if (records >= 0)
			sqlite3_bind_int64(s, 5, records);
		else
			sqlite3_bind_null(s, 5);
	}
	if (state != FL_Q_PENDING) {
		sqlite3_bind_text(s, 6, now, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(s, 7, seconds);
	}
	if (state == FL_Q_FAILED) {
		sqlite3_bind_int(s, 8, max_attempts);
		fl_store_bind_opt(s, 9, error);
	}
	return run_tx(st, s, "finishing a repository's run", err);
}
