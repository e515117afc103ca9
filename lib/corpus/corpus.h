/*
 * corpus.h — what batch's pieces share inside the library: reading a
 * repository's commit without a scan (fetch.c), the bare clone of a URL
 * under a disk budget (fetch.c), and one queued repository's run
 * (worker.c), which batch.c runs in a process of its own.
 */
#ifndef FL_CORPUS_H
#define FL_CORPUS_H

#include "faultline.h"

/* The commit rev (NULL: HEAD) names in the repository at url, read from
 * the remote's list of references, without fetching anything.  rev may
 * be a branch, a tag (peeled to its commit) or a full commit id. */
int fl_remote_commit(const char *url, const char *rev, char sha[41], fl_err *err);

/* The commit rev (NULL: HEAD) names in a local repository (a work tree,
 * a bare repository or a git directory at path itself): 1 with sha, 0 when
 * path is not a git repository (a plain folder), -1 on error. */
int fl_local_commit(const char *path, const char *rev, char sha[41], fl_err *err);

/* Clone url, bare, into dir (which must not exist).  budget > 0: fail,
 * naming the budget, once the bytes already under budget_root plus the
 * bytes received pass budget. */
int fl_clone_bare(const char *url, const char *dir, long long budget,
		  const char *budget_root, fl_err *err);

/* Bytes the files under path take on disk (0 when it does not exist). */
long long fl_disk_usage(const char *path);

/* The owner/name a URL's repository gets when the queue gives none:
 * host/owner/name(.git) -> owner/name; a file:// URL -> local/<name>.
 * Caller frees. */
char *fl_url_repo_name(const char *url);

/* One queued repository's run, as a batch worker process does it. */
typedef struct fl_run_opts {
	const char *db;             /* the store */
	long long id;               /* the queue row */
	const char *workdir;        /* clones go under it */
	long long budget;           /* bytes for workdir, 0 = none */
	int threads;                /* scan threads, 0 = cores */
	/* told what the run does now: "resolve", "fetch", "scan", "write" */
	void (*on_phase)(const char *phase);
} fl_run_opts;

typedef struct fl_run_result {
	fl_qstate state;            /* FL_Q_DONE, FL_Q_SKIPPED or FL_Q_FAILED */
	char sha[41];
	char repo[256];
	long long records, files;
	char error[1024];
} fl_run_result;

/* Run row o->id: find the commit it is at (skip when the last scan read
 * that commit), fetch it when it is a URL, scan it into the store, remove
 * the clone.  Fills r; 0 unless the run could not even start. */
int fl_run_one(const fl_run_opts *o, fl_run_result *r);

#endif
