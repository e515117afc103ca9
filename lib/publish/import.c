/*
 * import.c — `faultline import DIR`: load a published data set (ours or any
 * other of schema version 2) into the store.  The whole data set is checked
 * first (dataset.c); only then, in one transaction, the records of each of
 * its repositories are replaced.  Any failure leaves the store unchanged.
 * Also the copy of a checked data set that a site or a server serves: its
 * listed files only, swapped in atomically.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "publish.h"
#include "store_enrich.h"
#include "strmap.h"

int pub_dataset_copy(const char *src, const char *dst, pub_dataset *out, char **old,
		     fl_err *err)
{
	if (old)
		*old = NULL;
	pub_dataset d;
	if (pub_dataset_load(src, &d, err) < 0)
		return -1;
	int rootfd = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *tmp = fl_xasprintf("%s.tmp-copy", dst), *prev = fl_xasprintf("%s.old", dst);
	pub_rmtree(tmp);
	pub_rmtree(prev);
	int rc = -1;
	if (rootfd < 0)
		fl_seterr(err, "%s: %s", src, strerror(errno));
	else if (pub_copy_listed(rootfd, src, tmp, d.files, d.nfiles, err) == 0)
		rc = 0;
	if (rootfd >= 0)
		close(rootfd);
	if (rc == 0) {
		/* one atomic step when dst exists: readers of dst see the old
		 * copy or the new one, never no folder */
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dst, RENAME_EXCHANGE) == 0) {
			if (rename(tmp, prev) < 0)
				pub_rmtree(tmp);
		} else if (rename(tmp, dst) < 0) {
			/* no exchange on this file system: two renames */
			if (rename(dst, prev) < 0 && errno != ENOENT)
				pub_rmtree(dst);
			if (rename(tmp, dst) < 0)
				rc = fl_seterr(err, "%s: %s", dst, strerror(errno));
		}
	}
	pub_rmtree(tmp);
	if (rc == 0 && old && pub_exists(prev)) {
		*old = prev;
		prev = NULL;
	} else if (prev) {
		pub_rmtree(prev);
	}
	free(prev);
	free(tmp);
	if (rc == 0 && out)
		*out = d;
	else
		pub_dataset_free(&d);
	return rc;
}

int pub_dataset_mirror(const char *src, const char *dst, const char *stamp, fl_err *err)
{
	char *sp = fl_xasprintf("%s.stamp", dst);
	size_t n = 0;
	char *old = fl_read_file(sp, &n, NULL);
	int rc = 0;
	if (!old || strcmp(old, stamp) != 0 || !pub_is_dir(dst)) {
		unlink(sp);
		rc = pub_dataset_copy(src, dst, NULL, NULL, err);
		if (rc == 0)
			rc = pub_write_file(sp, stamp, strlen(stamp), err);
	}
	free(old);
	free(sp);
	return rc;
}

int fl_dataset_verify(const char *dir, fl_import_stats *stats, fl_err *err)
{
	pub_dataset d;
	if (pub_dataset_load(dir, &d, err) < 0)
		return -1;
	if (stats) {
		memset(stats, 0, sizeof *stats);
		snprintf(stats->dataset_version, sizeof stats->dataset_version, "%s", d.dataset_version);
		stats->repos = (long long)d.nrepos;
		stats->errors = (long long)d.nerrors;
	}
	pub_dataset_free(&d);
	return 0;
}

/* provenance.json, when the data set has one (checked with the rest by
 * pub_dataset_load: the inventory lists it): which fields of which
 * records a model wrote; kept in the store as enrich keeps them. */
static int import_provenance(fl_store *st, const char *dir, const pub_dataset *d,
			     fl_err *err)
{
	bool listed = false;
	for (size_t i = 0; i < d->nfiles && !listed; i++)
		listed = strcmp(d->files[i], "provenance.json") == 0;
	if (!listed)
		return 0;
	char *p = fl_xasprintf("%s/provenance.json", dir);
	json_error_t je;
	json_t *root = json_load_file(p, 0, &je);
	json_t *recs = json_object_get(root, "records");
	int rc = 0;
	if (!json_is_object(recs)) {
		rc = fl_seterr(err, "%s: records: missing or not an object", p);
		goto out;
	}
	for (size_t i = 0; i < d->nrepos && rc == 0; i++) {
		const pub_repo_set *rs = &d->repos[i];
		for (size_t k = 0; k < rs->n && rc == 0; k++) {
			const fl_entry *e = &rs->entries[k];
			json_t *prov = json_object_get(recs, e->id);
			if (!json_is_object(prov))
				continue;
			char *js = fl_entry_to_json(e, false);
			json_t *rec = json_loads(js, 0, NULL), *fields = json_object();
			free(js);
			const char *key;
			json_t *v;
			json_object_foreach(prov, key, v) {
				json_t *val = json_object_get(rec, key);
				if (val)
					json_object_set(fields, key, val);
			}
			char *ft = json_dumps(fields, JSON_COMPACT);
			char *pt = json_dumps(prov, JSON_COMPACT);
			rc = fl_store_enrich_import(st, e->id, ft, pt, err);
			free(ft);
			free(pt);
			json_decref(fields);
			json_decref(rec);
		}
	}
out:
	json_decref(root);
	free(p);
	return rc;
}

static bool sha_hex(const char *s)
{
	size_t i = 0;
	for (; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == 40;
}

/* versions/{owner}/{name}.json of repository rs, when the data set has
 * one (checked with the rest by pub_dataset_load: the inventory lists
 * it): its versions and its records' runs, as scan --history keeps them
 * (without blob ids).  A file of another shape fails the import, naming
 * the file and the field. */
static int import_versions(fl_store *st, const char *dir, const pub_dataset *d,
			   const pub_repo_set *rs, fl_err *err)
{
	char *rel = fl_xasprintf("versions/%s.json", rs->repo.repo);
	bool listed = false;
	for (size_t i = 0; i < d->nfiles && !listed; i++)
		listed = strcmp(d->files[i], rel) == 0;
	if (!listed) {
		free(rel);
		return 0;
	}
	char *p = fl_xasprintf("%s/%s", dir, rel);
	free(rel);
	json_error_t je;
	json_t *root = json_load_file(p, JSON_REJECT_DUPLICATES, &je);
	json_t *vs = json_object_get(root, "versions"), *recs = json_object_get(root, "records");
	json_t *repo = json_object_get(root, "repo");
	fl_version *v = NULL;
	size_t nv = json_array_size(vs);
	const char **ids = NULL;
	fl_version_run **runs = NULL;
	size_t *nruns = NULL, n = 0;
	int rc = 0;
	if (!root) {
		rc = fl_seterr(err, "%s: not JSON: %s (line %d)", p, je.text, je.line);
		goto out;
	}
	if (!json_is_string(repo) || strcmp(json_string_value(repo), rs->repo.repo) != 0) {
		rc = fl_seterr(err, "%s: repo: must be \"%s\"", p, rs->repo.repo);
		goto out;
	}
	if (!json_is_array(vs) || !nv || !json_is_object(recs)) {
		rc = fl_seterr(err, "%s: %s: missing or of the wrong type", p,
			       !json_is_array(vs) || !nv ? "versions" : "records");
		goto out;
	}
	v = fl_xcalloc(nv, sizeof *v);
	for (size_t i = 0; i < nv; i++) {
		json_t *x = json_array_get(vs, i);
		const char *name = json_string_value(json_object_get(x, "name"));
		const char *sha = json_string_value(json_object_get(x, "sha"));
		if (!name || !*name || !sha || !sha_hex(sha)) {
			rc = fl_seterr(err, "%s: versions[%zu]: needs a name and a sha of 40 lowercase hex digits",
				       p, i);
			goto out;
		}
		v[i].name = (char *)name;
		memcpy(v[i].sha, sha, 41);
	}
	size_t nr = json_object_size(recs);
	ids = fl_xcalloc(nr ? nr : 1, sizeof *ids);
	runs = fl_xcalloc(nr ? nr : 1, sizeof *runs);
	nruns = fl_xcalloc(nr ? nr : 1, sizeof *nruns);
	fl_strmap known = {0};
	for (size_t k = 0; k < rs->n; k++)
		fl_strmap_put(&known, rs->entries[k].id, k);
	const char *id;
	json_t *arr;
	json_object_foreach(recs, id, arr) {
		if (!fl_strmap_get(&known, id, NULL)) {
			rc = fl_seterr(err, "%s: records.%s: not a record of %s", p, id, rs->repo.repo);
			break;
		}
		size_t na = json_array_size(arr);
		if (!json_is_array(arr) || !na) {
			rc = fl_seterr(err, "%s: records.%s: must be a non-empty array of runs", p, id);
			break;
		}
		runs[n] = fl_xcalloc(na, sizeof **runs);
		ids[n] = id;
		nruns[n] = na;
		long long end = 0;
		for (size_t k = 0; k < na && rc == 0; k++) {
			json_t *r = json_array_get(arr, k);
			json_t *a = json_array_get(r, 0), *b = json_array_get(r, 1), *c = json_array_get(r, 2);
			long long f = json_integer_value(a), l = json_integer_value(b), line = json_integer_value(c);
			if (json_array_size(r) != 3 || !json_is_integer(a) || !json_is_integer(b) ||
			    !json_is_integer(c) || f < end || l < f || l >= (long long)nv || line < 1 ||
			    line > INT_MAX) {
				rc = fl_seterr(err, "%s: records.%s[%zu]: must be [first, last, line]: "
					       "versions in order, 0 <= first <= last < %zu, line >= 1",
					       p, id, k, nv);
				break;
			}
			runs[n][k] = (fl_version_run){(int)f, (int)l, (int)line, -1, ""};
			end = l + 1;
		}
		n++;
		if (rc)
			break;
	}
	fl_strmap_free(&known);
	if (rc == 0)
		rc = fl_store_put_versions(st, rs->repo.repo, v, nv, NULL, 0, err);
	if (rc == 0)
		rc = fl_store_put_record_runs(st, ids, (const fl_version_run *const *)runs, nruns, n, err);
out:
	for (size_t i = 0; i < n; i++)
		free(runs[i]);
	free(runs);
	free(nruns);
	free(ids);
	free(v);
	json_decref(root);
	free(p);
	return rc;
}

int fl_import(fl_store *st, const char *dir, fl_import_stats *stats,
	      fl_err *err)
{
	pub_dataset d;
	if (pub_dataset_load(dir, &d, err) < 0)
		return -1;
	if (fl_store_begin(st, err) < 0) {
		pub_dataset_free(&d);
		return -1;
	}
	for (size_t i = 0; i < d.nrepos; i++) {
		pub_repo_set *rs = &d.repos[i];
		if (fl_store_clear_repo(st, rs->repo.repo, err) < 0 ||
		    fl_store_clear_versions(st, rs->repo.repo, err) < 0)
			goto fail;
		fl_facts *facts = fl_xcalloc(rs->n ? rs->n : 1, sizeof *facts);
		for (size_t k = 0; k < rs->n; k++) {
			/* Records on one line keep the data set's order: the store
			 * orders them by column, which a data set does not carry. */
			const fl_entry *e = &rs->entries[k];
			int col = 0;
			for (size_t j = k; j > 0; j--) {
				const fl_entry *p = &rs->entries[j - 1];
				if (p->line_number != e->line_number ||
				    strcmp(p->file_path, e->file_path) != 0)
					break;
				col++;
			}
			bool tie = col > 0 || (k + 1 < rs->n &&
				rs->entries[k + 1].line_number == e->line_number &&
				strcmp(rs->entries[k + 1].file_path, e->file_path) == 0);
			facts[k].column = tie ? col + 1 : 0;
		}
		/* the records of a file (consecutive in the data set, in scan
		 * order) in one block, as a scan stores them */
		int prc = 0;
		for (size_t k = 0; k < rs->n && prc == 0;) {
			size_t j = k + 1;
			while (j < rs->n && strcmp(rs->entries[j].file_path, rs->entries[k].file_path) == 0)
				j++;
			prc = fl_store_put_file_entries(st, &rs->entries[k], &facts[k], j - k, err);
			if (prc < 0) {
				/* which record: the first that is not valid, else the file's */
				fl_err verr;
				const fl_entry *bad = &rs->entries[k];
				for (size_t x = k; x < j; x++)
					if (fl_entry_validate(&rs->entries[x], &verr) < 0) {
						bad = &rs->entries[x];
						break;
					}
				char msg[sizeof err->msg];
				snprintf(msg, sizeof msg, "%s", err->msg);
				fl_seterr(err, "%s/repos/%s.json: record %s: %s", dir, rs->repo.repo, bad->id,
					  msg);
			}
			k = j;
		}
		free(facts);
		if (prc < 0)
			goto fail;
		if (fl_store_put_repo(st, &rs->repo, err) < 0 ||
		    import_versions(st, dir, &d, rs, err) < 0)
			goto fail;
	}
	if (import_provenance(st, dir, &d, err) < 0)
		goto fail;
	if (fl_store_commit(st, err) < 0)
		goto fail_nort;
	if (stats) {
		memset(stats, 0, sizeof *stats);
		snprintf(stats->dataset_version, sizeof stats->dataset_version, "%s", d.dataset_version);
		stats->repos = (long long)d.nrepos;
		stats->errors = (long long)d.nerrors;
	}
	pub_dataset_free(&d);
	return 0;
fail:
	fl_store_rollback(st);
fail_nort:
	pub_dataset_free(&d);
	return -1;
}
