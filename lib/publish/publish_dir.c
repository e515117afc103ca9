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

int fl_publish(fl_store *st, const char *dir_in, const fl_site_opts *o,
	       fl_publish_stats *stats, fl_err *err)
{
	double t0 = fl_now_mono();
	char *dir = pub_dir_norm(dir_in);
	char *tmp = NULL, *data = NULL;
	int lockfd = -1, rc = -1;
	fl_publish_stats ps;
	memset(&ps, 0, sizeof ps);
	/* a publication is a site whose data set is in data/ */
	if (pub_swap_begin(dir, "data/manifest.json", "a publication", false, &lockfd, err) < 0)
		goto out;
	if (!(tmp = pub_temp_beside(dir, err)))
		goto out;
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
	free(dir);
	return rc;
}
