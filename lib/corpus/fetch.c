/*
 * fetch.c — a repository's commit without a scan, and a URL's repository
 * fetched: the remote's references listed (git ls-remote) to learn its
 * commit without downloading anything, a bare clone under a disk budget,
 * a local repository's HEAD or rev; all with libgit2 (loaded on first use,
 * see scan/gitlib.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus.h"
#include "../scan/gitlib.h"
#include "../util.h"

static const fl_git_api *G;

static int git_fail(fl_err *err, const char *what, const char *where)
{
	const git_error *e = G->error_last();
	fl_seterr(err, "%s %s: %s", what, where, e && e->message ? e->message : "unknown error");
	G->error_clear();
	return -1;
}

static int load(fl_err *err)
{
	if (!G && !(G = fl_git(err)))
		return -1;
	G->libgit2_init();
	return 0;
}

static bool full_sha(const char *rev)
{
	if (!rev || strlen(rev) != 40)
		return false;
	for (const char *p = rev; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

int fl_remote_commit(const char *url, const char *rev, char sha[41], fl_err *err)
{
	if (full_sha(rev)) {
		memcpy(sha, rev, 41);
		return 0;
	}
	if (load(err) < 0)
		return -1;
	git_remote *remote = NULL;
	int rc = -1;
	if (G->remote_create_detached(&remote, url) < 0) {
		git_fail(err, "cannot read the address", url);
		goto out;
	}
	git_remote_callbacks cb;
	G->remote_init_callbacks(&cb, GIT_REMOTE_CALLBACKS_VERSION);
	if (G->remote_connect(remote, GIT_DIRECTION_FETCH, &cb, NULL, NULL) < 0) {
		git_fail(err, "cannot reach", url);
		goto out;
	}
	const git_remote_head **heads;
	size_t n;
	if (G->remote_ls(&heads, &n, remote) < 0) {
		git_fail(err, "cannot list the references of", url);
		goto out;
	}
	/* rev as a branch, then as a tag (its peeled entry, "^{}", names
	 * the commit of an annotated tag), then as a full reference name */
	char *want[4] = {0};
	if (rev) {
		want[0] = fl_xasprintf("refs/heads/%s", rev);
		want[1] = fl_xasprintf("refs/tags/%s^{}", rev);
		want[2] = fl_xasprintf("refs/tags/%s", rev);
		want[3] = fl_xstrdup(rev);
	} else {
		want[0] = fl_xstrdup("HEAD");
	}
	for (int w = 0; w < 4 && want[w] && rc < 0; w++)
		for (size_t i = 0; i < n; i++)
			if (strcmp(heads[i]->name, want[w]) == 0) {
				G->oid_tostr(sha, 41, &heads[i]->oid);
				rc = 0;
				break;
			}
	for (int w = 0; w < 4; w++)
		free(want[w]);
	if (rc < 0)
		fl_seterr(err, "%s has no %s%s", url, rev ? "branch or tag " : "HEAD",
			  rev ? rev : " (an empty repository?)");
	G->remote_disconnect(remote);
out:
	G->remote_free(remote);
	G->libgit2_shutdown();
	return rc;
}

int fl_local_commit(const char *path, const char *rev, char sha[41], fl_err *err)
{
	if (load(err) < 0)
		return -1;
	git_repository *repo = NULL;
	git_object *obj = NULL, *commit = NULL;
	int rc = G->repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (rc == GIT_ENOTFOUND) {
		G->error_clear();
		G->libgit2_shutdown();
		return 0; /* a plain folder */
	}
	if (rc < 0) {
		git_fail(err, "cannot open the repository", path);
		G->libgit2_shutdown();
		return -1;
	}
	rc = -1;
	if (G->revparse_single(&obj, repo, rev ? rev : "HEAD") < 0) {
		git_fail(err, rev ? rev : "HEAD", "cannot be resolved");
		goto out;
	}
	if (G->object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
		git_fail(err, rev ? rev : "HEAD", "is not a commit");
		goto out;
	}
	G->oid_tostr(sha, 41, G->object_id(commit));
	rc = 1;
out:
	G->object_free(commit);
	G->object_free(obj);
	G->repository_free(repo);
	G->libgit2_shutdown();
	return rc;
}

/* ---- the clone -------------------------------------------------------------- */

static long long du_total;

static int du_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)p, (void)flag, (void)f;
	du_total += (long long)sb->st_blocks * 512;
	return 0;
}

long long fl_disk_usage(const char *path)
{
	du_total = 0;
	nftw(path, du_one, 16, FTW_PHYS);
	return du_total;
}

struct budget {
	long long budget, base;
	size_t checked_at;
	bool over;
	const char *root;
};

/* Called as the pack comes in: the received bytes against what the budget
 * leaves; the folder (other clones of other workers) measured again every
 * 16 MB. */
static int on_progress(const git_indexer_progress *p, void *payload)
{
	struct budget *b = payload;
	if (b->budget <= 0)
		return 0;
	if (p->received_bytes >= b->checked_at + (16u << 20)) {
		b->base = fl_disk_usage(b->root) - (long long)p->received_bytes;
		if (b->base < 0)
			b->base = 0;
		b->checked_at = p->received_bytes;
	}
	if (b->base + (long long)p->received_bytes > b->budget) {
		b->over = true;
		return -1;
	}
	return 0;
}

int fl_clone_bare(const char *url, const char *dir, long long budget,
		  const char *budget_root, fl_err *err)
{
	if (load(err) < 0)
		return -1;
	struct budget b = {
		.budget = budget, .root = budget_root,
		.base = budget > 0 ? fl_disk_usage(budget_root) : 0,
	};
	if (budget > 0 && b.base >= budget) {
		G->libgit2_shutdown();
		return fl_seterr(err, "the work folder %s already holds %.1f MB, over its disk budget of %.1f MB",
				 budget_root, b.base / 1e6, budget / 1e6);
	}
	git_clone_options o;
	G->clone_options_init(&o, GIT_CLONE_OPTIONS_VERSION);
	o.bare = 1;
	o.fetch_opts.callbacks.transfer_progress = on_progress;
	o.fetch_opts.callbacks.payload = &b;
	git_repository *repo = NULL;
	int rc = 0;
	if (G->clone(&repo, url, dir, &o) < 0) {
		if (b.over) {
			G->error_clear();
			fl_seterr(err, "fetching %s: over the disk budget of %.1f MB of the work folder %s",
				  url, budget / 1e6, budget_root);
		} else {
			git_fail(err, "cannot fetch", url);
		}
		rc = -1;
	}
	G->repository_free(repo);
	G->libgit2_shutdown();
	return rc;
}

char *fl_url_repo_name(const char *url)
{
	const char *p = strstr(url, "://");
	bool file = strncmp(url, "file://", 7) == 0;
	p = p ? p + 3 : url;
	size_t l = strlen(p);
	while (l && p[l - 1] == '/')
		l--;
	if (l > 4 && strncmp(p + l - 4, ".git", 4) == 0)
		l -= 4;
	/* the last two components, owner and name */
	const char *e = p + l, *name = e;
	while (name > p && name[-1] != '/')
		name--;
	const char *owner_end = name > p ? name - 1 : p, *owner = owner_end;
	while (owner > p && owner[-1] != '/')
		owner--;
	char *r;
	if (e == name)
		r = fl_xstrdup("local/repository");
	else if (file || owner == owner_end || owner == p) /* p: the host */
		r = fl_xasprintf("local/%.*s", (int)(e - name), name);
	else
		r = fl_xasprintf("%.*s/%.*s", (int)(owner_end - owner), owner, (int)(e - name), name);
	for (char *c = strchr(r, '/') + 1; *c; c++)
		if (*c == ' ' || *c == '/' || *c == '\t' || *c == ':')
			*c = '-';
	return r;
}
