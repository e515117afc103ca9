/*
 * snap.c — one consistent state of what `faultline serve` serves: a frozen
 * copy of the store (VACUUM INTO, in the cache folder), the lookup over
 * it, and the site rendered from it.  A request holds one snapshot from its
 * first byte to its last (reference counted), so a search never names a
 * record its /api/errors/ID then misses; the server takes a new snapshot
 * when the store's change counter moves (or the data set folder's
 * datasetVersion) and swaps it in whole; the old one goes, files included,
 * with its last request.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "publish/publish.h"
#include "serve.h"
#include "util.h"

/* the folder of the rendered site of key (the store's or the data set's
 * real path) in the cache */
static char *site_dir_of(const char *cache_root, const char *key)
{
	char hex[65];
	pub_sha256_hex(key, strlen(key), hex);
	hex[16] = '\0';
	return fl_xasprintf("%s/site-%s", cache_root, hex);
}

/* Render the site of st (or of the data set folder) into the cache unless
 * the copy there is current; the folder it replaces is renamed away
 * (sn->replaced: requests of the previous snapshot still read it). */
static int render_site(const srv_snap_cfg *cfg, fl_store *st, srv_snap *sn, fl_err *err)
{
	char stamp[160];
	if (cfg->data_dir) {
		snprintf(stamp, sizeof stamp, "data %s", cfg->version);
	} else {
		snprintf(stamp, sizeof stamp, "store %lld %s", sn->gen, sn->changed);
	}
	char *dir = site_dir_of(cfg->cache_root, cfg->key);
	char *sp = fl_xasprintf("%s.stamp", dir);
	size_t n = 0;
	fl_err e2;
	char *old = fl_read_file(sp, &n, &e2);
	int rc = 0;
	if (!old || strcmp(old, stamp) != 0 || !pub_is_dir(dir)) {
		fprintf(stderr, "faultline: rendering the site into %s\n", dir);
		char *tmp = fl_xasprintf("%s.tmp-%ld", dir, (long)getpid());
		pub_rmtree(tmp);
		fl_site_stats ss;
		fl_site_opts so = {NULL, isatty(STDERR_FILENO) == 1};
		rc = cfg->data_dir ? fl_site_build(cfg->data_dir, tmp, &so, &ss, err)
				   : fl_site_from_store(st, tmp, &so, &ss, err);
		if (rc == 0) {
			unlink(sp);
			if (pub_is_dir(dir)) {
				char *away = fl_xasprintf("%s.old-%ld-%lu", dir, (long)getpid(), sn->seq);
				pub_rmtree(away);
				if (rename(dir, away) == 0)
					sn->replaced = away;
				else
					free(away);
				pub_rmtree(dir);
			}
			if (rename(tmp, dir) < 0)
				rc = fl_seterr(err, "%s: %s", dir, strerror(errno));
			else
				rc = pub_write_file(sp, stamp, strlen(stamp), err);
		}
		pub_rmtree(tmp);
		free(tmp);
	}
	free(old);
	free(sp);
	if (rc == 0) {
		sn->site = dir;
		dir = NULL;
	}
	free(dir);
	return rc;
}

/* Remove what killed servers left in the cache for this key: store copies
 * and replaced site folders named after a process that is gone. */
static void prune_dead(const srv_snap_cfg *cfg)
{
	char *site = site_dir_of(cfg->cache_root, cfg->key);
	const char *sbase = strrchr(site, '/') + 1;
	char *sold = fl_xasprintf("%s.old-", sbase);
	char *copy = fl_xasprintf("%s-", sbase);
	DIR *d = opendir(cfg->cache_root);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		const char *p = NULL;
		if (fl_str_starts(de->d_name, sold))
			p = de->d_name + strlen(sold);
		else if (fl_str_starts(de->d_name, "snap-") && strstr(de->d_name, copy))
			p = strstr(de->d_name, copy) + strlen(copy);
		if (!p)
			continue;
		long pid = strtol(p, NULL, 10);
		if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char *path = fl_xasprintf("%s/%s", cfg->cache_root, de->d_name);
		pub_rmtree(path);
		free(path);
	}
	if (d)
		closedir(d);
	free(copy);
	free(sold);
	free(site);
}

static void unlink_store(const char *path)
{
	static const char *const sfx[] = {"", ".lookup", ".lookup.hs", ".lookup.delta",
					  ".lookup.delta.hs", "-wal", "-shm", "-journal"};
	for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
		char *p = fl_xasprintf("%s%s", path, sfx[i]);
		unlink(p);
		free(p);
	}
}

static void snap_free(srv_snap *sn)
{
	fl_lookup_close(sn->lk);
	if (sn->site_fd >= 0)
		close(sn->site_fd);
	if (sn->own_store)
		unlink_store(sn->store);
	if (sn->trash)
		pub_rmtree(sn->trash);
	free(sn->trash);
	if (sn->replaced)
		pub_rmtree(sn->replaced);
	free(sn->replaced);
	free(sn->store);
	free(sn->site);
	free(sn);
}

srv_snap *srv_snap_take(const srv_snap_cfg *cfg, fl_store *src, unsigned long seq, fl_err *err)
{
	srv_snap *sn = fl_xcalloc(1, sizeof *sn);
	atomic_init(&sn->refs, 1);
	sn->seq = seq;
	sn->site_fd = -1;
	snprintf(sn->version, sizeof sn->version, "%s", cfg->version ? cfg->version : "");
	if (seq == 1)
		prune_dead(cfg);
	fl_store *st = NULL;
	int rc = fl_store_generation(src, &sn->gen, sn->changed, err);
	if (rc == 0 && cfg->copy) {
		/* a frozen copy: the store goes on changing under a rescan */
		char hex[65];
		pub_sha256_hex(cfg->key, strlen(cfg->key), hex);
		hex[16] = '\0';
		sn->store = fl_xasprintf("%s/snap-site-%s-%ld-%lu.db", cfg->cache_root, hex,
					 (long)getpid(), seq);
		sn->own_store = true;
		unlink_store(sn->store);
		rc = fl_store_copy(src, sn->store, err);
		/* the copy's change counter is the one just read, unless a
		 * transaction committed in between: read it from the copy */
		if (rc == 0)
			rc = fl_store_open(sn->store, true, &st, err);
		if (rc == 0)
			rc = fl_store_generation(st, &sn->gen, sn->changed, err);
		if (rc == 0) {
			/* the store's lookup index (its base, and the delta of
			 * the repositories changed since, each with the literal
			 * databases made for it), when it is of this state,
			 * saves building one */
			static const char *const idx[] = {".lookup", ".lookup.hs", ".lookup.delta",
							  ".lookup.delta.hs"};
			for (size_t i = 0; i < sizeof idx / sizeof idx[0]; i++) {
				char *from = fl_xasprintf("%s%s", cfg->key, idx[i]);
				char *to = fl_xasprintf("%s%s", sn->store, idx[i]);
				if (link(from, to) < 0) {
					/* none, or another file system: built below */
				}
				free(from);
				free(to);
			}
		}
	} else if (rc == 0) {
		sn->store = fl_xstrdup(fl_store_path(src));
		st = src;
	}
	if (rc == 0)
		rc = fl_lookup_open(st, &sn->lk, err);
	if (rc == 0) {
		int hv = fl_store_has_versions(st, err);
		sn->has_versions = hv > 0;
		if (hv < 0)
			rc = -1;
	}
	if (rc == 0 && cfg->site_dir) {
		sn->site = fl_xstrdup(cfg->site_dir);
	} else if (rc == 0 && cfg->render) {
		rc = render_site(cfg, st, sn, err);
	}
	if (rc == 0 && sn->site &&
	    (sn->site_fd = open(sn->site, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		rc = fl_seterr(err, "%s: %s", sn->site, strerror(errno));
	if (st && st != src)
		fl_store_close(st);
	if (rc < 0) {
		snap_free(sn);
		return NULL;
	}
	return sn;
}

srv_snap *srv_snap_ref(srv_snap *sn)
{
	atomic_fetch_add(&sn->refs, 1);
	return sn;
}

void srv_snap_put(srv_snap *sn)
{
	if (sn && atomic_fetch_sub(&sn->refs, 1) == 1)
		snap_free(sn);
}
