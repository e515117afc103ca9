/*
 * worker.c — one queued repository's run (fl_run_one), what each job of
 * `faultline batch` does in a process of its own so that a hung fetch or
 * scan can be killed whole: learn the commit the repository is at (from
 * the remote's references for a URL, without fetching), skip it when the
 * last scan read that commit, else fetch a URL into a bare clone under the
 * work folder, scan it into the store in one transaction, and remove the
 * clone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus.h"
#include "../publish/publish.h"
#include "../util.h"

static void fail(fl_run_result *r, const char *prefix, const char *msg)
{
	r->state = FL_Q_FAILED;
	size_t n = strlen(prefix), m = strlen(msg);
	if (n > sizeof r->error - 1)
		n = sizeof r->error - 1;
	if (m > sizeof r->error - 1 - n)
		m = sizeof r->error - 1 - n;
	memcpy(r->error, prefix, n);
	memcpy(r->error + n, msg, m);
	r->error[n + m] = '\0';
}

/* The last scan of the row read sha, and its records are still the
 * repository's in the store (no other scan of the same name since). */
static bool already_scanned(fl_store *st, const fl_qrow *q, const char *sha)
{
	if (!q->analyzed_sha || strcmp(q->analyzed_sha, sha) != 0 || !q->scanned_repo)
		return false;
	fl_repo rp;
	fl_err err;
	if (fl_store_get_repo(st, q->scanned_repo, &rp, &err) != 1)
		return false;
	bool same = rp.analyzed_sha && strcmp(rp.analyzed_sha, sha) == 0;
	fl_repo_free(&rp);
	return same;
}

static void phase(const fl_run_opts *o, const char *what)
{
	if (o->on_phase)
		o->on_phase(what);
}

int fl_run_one(const fl_run_opts *o, fl_run_result *r)
{
	memset(r, 0, sizeof *r);
	r->records = -1;
	fl_store *st;
	fl_err err;
	if (fl_store_open(o->db, false, &st, &err) < 0) {
		fail(r, "", err.msg);
		return 0;
	}
	/* other workers' scans write too: wait for them rather than fail */
	fl_store_busy_timeout(st, 600000);
	fl_qrow q;
	if (fl_queue_get(st, o->id, &q, &err) < 0) {
		fail(r, "", err.msg);
		fl_store_close(st);
		return 0;
	}
	bool url = fl_locator_is_url(q.locator);
	phase(o, "resolve");
	char *clone = NULL, *clone_parent = NULL, *name = NULL;
	char sha[41] = "";
	int have = url ? (fl_remote_commit(q.locator, q.rev, sha, &err) < 0 ? -1 : 1)
		       : fl_local_commit(q.locator, q.rev, sha, &err);
	if (have < 0) {
		fail(r, "", err.msg);
		goto out;
	}
	if (have && already_scanned(st, &q, sha)) {
		r->state = FL_Q_SKIPPED;
		memcpy(r->sha, sha, sizeof r->sha);
		snprintf(r->repo, sizeof r->repo, "%s", q.scanned_repo);
		goto out;
	}
	const char *path = q.locator;
	if (url) {
		/* <workdir>/q<id>/<name>.git: a scan without --repo names the
		 * repository after its origin remote (the URL), or after the
		 * folder for a file:// URL */
		name = q.repo ? fl_xstrdup(q.repo) : fl_url_repo_name(q.locator);
		const char *base = strrchr(name, '/') + 1;
		clone_parent = fl_xasprintf("%s/q%lld", o->workdir, q.id);
		clone = fl_xasprintf("%s/%s.git", clone_parent, base);
		pub_rmtree(clone_parent);
		if (pub_mkdirs(clone_parent, &err) < 0) {
			fail(r, "", err.msg);
			goto out;
		}
		phase(o, "fetch");
		if (fl_clone_bare(q.locator, clone, o->budget, o->workdir, &err) < 0) {
			fail(r, "", err.msg);
			goto out;
		}
		path = clone;
	}
	char started[32];
	fl_now_iso(started);
	double t0 = fl_now_mono();
	fl_scan_opts so = {
		.path = path, .repo = q.repo, .rev = q.rev, .threads = o->threads,
	};
	/* scanned first, written after: the store's write lock is held for
	 * the writing only, so the jobs of a batch scan side by side */
	fl_scan_result res;
	phase(o, "scan");
	int src = fl_scan_tree(&so, &res, &err);
	if (src == 0) {
		phase(o, "write");
		src = fl_scan_store(st, &res, &err);
	}
	if (src < 0) {
		fl_scan_result_free(&res); /* what a failed scan leaves */
		fl_scan_log log = {
			.repo = q.repo ? q.repo : "?", .target = q.locator, .rev = q.rev,
			.started_at = started, .outcome = "failed", .message = err.msg,
		};
		fl_err lerr;
		fl_store_log_scan(st, &log, &lerr);
		fail(r, "scan: ", err.msg);
		goto out;
	}
	fl_scan_log log = {
		.repo = res.summary.repo, .target = q.locator, .rev = q.rev,
		.sha = res.summary.sha, .started_at = started,
		.seconds = fl_now_mono() - t0, .files = res.summary.files_scanned,
		.sites = res.summary.sites, .records = res.summary.records,
		.duplicates = res.summary.duplicates, .outcome = "ok",
	};
	fl_err lerr;
	if (fl_store_log_scan(st, &log, &lerr) < 0)
		fprintf(stderr, "faultline: warning: %s\n", lerr.msg);
	r->state = FL_Q_DONE;
	snprintf(r->sha, sizeof r->sha, "%s", res.summary.sha);
	snprintf(r->repo, sizeof r->repo, "%s", res.summary.repo);
	r->records = res.summary.records;
	r->files = res.summary.files_scanned;
	fl_scan_result_free(&res);
out:
	if (clone_parent)
		pub_rmtree(clone_parent);
	free(clone);
	free(clone_parent);
	free(name);
	fl_qrow_free(&q);
	fl_store_close(st);
	return 0;
}
