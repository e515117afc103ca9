/*
 * publish_dir.c — `faultline publish DIR` (fl_publish): the data set and
 * the site in one atomic step, for a corpus that a batch keeps writing.
 * The new publication is built beside DIR, in DIR.tmp-XXXXXX, starting
 * from hard links to the previous one's files (export and site replace a
 * file by renaming a new one over it, so the previous publication is never
 * written through a link), then swapped in whole (pub_swap_in).  One
 * publish at a time per folder: the parent folder is locked.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "publish.h"

/* dir may be replaced: absent, an empty folder, or a publication (a site
 * with its data set). */
static int replaceable(const char *dir, fl_err *err)
{
	if (!pub_exists(dir))
		return 0;
	DIR *d = pub_opendir_nofollow(dir);
	if (!d)
		return fl_seterr(err, "%s: not a folder", dir);
	bool empty = true;
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	char *m = fl_xasprintf("%s/data/manifest.json", dir);
	bool published = pub_exists(m);
	free(m);
	if (!empty && !published)
		return fl_seterr(err, "%s: exists and is not a publication (no data/manifest.json);"
				 " not replacing it", dir);
	return 0;
}

int fl_publish(fl_store *st, const char *dir_in, const fl_site_opts *o,
	       fl_publish_stats *stats, fl_err *err)
{
	double t0 = fl_now_mono();
	char *dir = fl_xstrdup(dir_in);
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	const char *slash = strrchr(dir, '/');
	char *parent = !slash ? fl_xstrdup(".") : slash == dir ? fl_xstrdup("/")
			: fl_xstrndup(dir, (size_t)(slash - dir));
	char *tmp = NULL, *data = NULL;
	int lockfd = -1, rc = -1;
	fl_publish_stats ps;
	memset(&ps, 0, sizeof ps);
	if (pub_mkdirs(parent, err) < 0)
		goto out;
	lockfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lockfd < 0 || flock(lockfd, LOCK_EX) < 0) {
		fl_seterr(err, "%s: cannot lock: %s", parent, strerror(errno));
		goto out;
	}
	if (pub_recover(dir, err) < 0 || replaceable(dir, err) < 0)
		goto out;
	tmp = fl_xasprintf("%s.tmp-XXXXXX", dir);
	if (!mkdtemp(tmp)) {
		fl_seterr(err, "%s: cannot create a temporary folder: %s", tmp, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	chmod(tmp, 0755);
	if (pub_exists(dir) && pub_link_tree(dir, tmp, err) < 0)
		goto out;
	data = fl_xasprintf("%s/data", tmp);
	if (fl_export(st, data, &ps.data, err) < 0)
		goto out;
	if (fl_site_build(data, tmp, o, &ps.site, err) < 0)
		goto out;
	if (pub_flush_swap_in(tmp, dir, "publication", err) < 0)
		goto out;
	free(tmp);
	tmp = NULL;
	fsync(lockfd);
	ps.seconds = fl_now_mono() - t0;
	if (stats)
		*stats = ps;
	rc = 0;
out:
	if (tmp) {
		pub_rmtree(tmp);
		free(tmp);
	}
	if (lockfd >= 0)
		close(lockfd);
	free(data);
	free(parent);
	free(dir);
	return rc;
}
