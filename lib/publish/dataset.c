/*
 * dataset.c — reading a published data set (dataset.md) and checking all
 * of it before anything uses it: the manifest's inventory (size and sha256
 * of every listed file), schemaVersion, every RepoEntry and ErrorEntry
 * strictly, duplicate ids and slugs, records of repositories missing from
 * repos.json, index.json and errors/{id}.json agreeing with
 * repos/{owner}/{name}.json.  Errors name the file and the field.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_internal.h"
#include "publish.h"
#include "strmap.h"
#include "util.h"

struct ld {
	const char *dir;
	bool trusted;
	fl_err *err;
	json_t *manifest;
	const char *version;
	fl_strmap listed;     /* rel -> 1 */
};

static char *path_of(const struct ld *l, const char *rel)
{
	return fl_xasprintf("%s/%s", l->dir, rel);
}

/* Read and parse rel; NULL with err naming the file. */
static json_t *load_json(struct ld *l, const char *rel)
{
	char *p = path_of(l, rel);
	size_t len;
	fl_err e2;
	char *data = fl_read_file(p, &len, &e2);
	if (!data) {
		fl_seterr(l->err, "%s: missing or unreadable (%s)", p, e2.msg);
		free(p);
		return NULL;
	}
	json_t *o = fl_json_parse(data, len, &e2);
	free(data);
	if (!o)
		fl_seterr(l->err, "%s: %s", p, e2.msg);
	free(p);
	return o;
}

static bool safe_rel(const char *rel)
{
	if (!rel[0] || rel[0] == '/')
		return false;
	for (const char *s = rel; *s;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		s += n;
		if (*s == '/')
			s++;
	}
	return !strchr(rel, '\\');
}

static bool is_hex64(const char *s)
{
	if (strlen(s) != 64)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

static int check_manifest(struct ld *l)
{
	json_t *m = l->manifest;
	const char *mf = "manifest.json";
	if (!json_is_object(m))
		return fl_seterr(l->err, "%s/%s: not a JSON object", l->dir, mf);
	const char *key;
	json_t *v;
	json_object_foreach(m, key, v) {
		if (strcmp(key, "schemaVersion") && strcmp(key, "datasetVersion") &&
		    strcmp(key, "counts") && strcmp(key, "files"))
			return fl_seterr(l->err, "%s/%s: %s: unknown key", l->dir, mf, key);
	}
	v = json_object_get(m, "schemaVersion");
	if (!json_is_integer(v))
		return fl_seterr(l->err, "%s/%s: schemaVersion: missing or not an integer", l->dir, mf);
	if (json_integer_value(v) != FL_SCHEMA_VERSION)
		return fl_seterr(l->err, "%s/%s: schemaVersion: is %lld, only %d is supported",
				 l->dir, mf, (long long)json_integer_value(v), FL_SCHEMA_VERSION);
	v = json_object_get(m, "datasetVersion");
	if (!json_is_string(v) || pub_iso_ms(json_string_value(v)) < 0)
		return fl_seterr(l->err, "%s/%s: datasetVersion: must be an ISO 8601 UTC time", l->dir, mf);
	l->version = json_string_value(v);
	v = json_object_get(m, "counts");
	if (!json_is_object(v) || !json_is_integer(json_object_get(v, "repos")) ||
	    !json_is_integer(json_object_get(v, "errors")) || json_object_size(v) != 2)
		return fl_seterr(l->err, "%s/%s: counts: must be {\"repos\":N,\"errors\":M}", l->dir, mf);
	json_t *files = json_object_get(m, "files");
	if (!json_is_object(files))
		return fl_seterr(l->err, "%s/%s: files: missing or not an object", l->dir, mf);
	if (!json_object_get(files, "index") || !json_object_get(files, "repos"))
		return fl_seterr(l->err, "%s/%s: files: must list \"index\" and \"repos\"", l->dir, mf);
	json_object_foreach(files, key, v) {
		json_t *path = json_object_get(v, "path");
		json_t *bytes = json_object_get(v, "bytes");
		json_t *sha = json_object_get(v, "sha256");
		if (!json_is_object(v) || json_object_size(v) != 3 || !json_is_string(path) ||
		    !json_is_integer(bytes) || json_integer_value(bytes) < 0 ||
		    !json_is_string(sha) || !is_hex64(json_string_value(sha)))
			return fl_seterr(l->err, "%s/%s: files.%s: must be {\"path\",\"bytes\",\"sha256\"} (sha256: 64 lowercase hex)",
					 l->dir, mf, key);
		const char *rel = json_string_value(path);
		if (fl_str_starts(rel, "/data/"))
			rel += 6;
		else if (rel[0] == '/')
			rel++;
		if (!safe_rel(rel) || strcmp(rel, "manifest.json") == 0)
			return fl_seterr(l->err, "%s/%s: files.%s.path: '%s' is not a path inside the data set",
					 l->dir, mf, key, json_string_value(path));
		if ((strcmp(key, "index") == 0 && strcmp(rel, "index.json")) ||
		    (strcmp(key, "repos") == 0 && strcmp(rel, "repos.json")))
			return fl_seterr(l->err, "%s/%s: files.%s.path: must be /data/%s.json", l->dir, mf, key, key);
		char *p = path_of(l, rel);
		struct stat sb;
		if (stat(p, &sb) < 0 || !S_ISREG(sb.st_mode)) {
			fl_seterr(l->err, "%s: listed in manifest.json (files.%s) but missing", p, key);
			free(p);
			return -1;
		}
		if ((long long)sb.st_size != (long long)json_integer_value(bytes)) {
			fl_seterr(l->err, "%s: bytes: is %lld, manifest.json (files.%s) says %lld (truncated or changed)",
				  p, (long long)sb.st_size, key, (long long)json_integer_value(bytes));
			free(p);
			return -1;
		}
		if (l->trusted) {
			free(p);
			continue;
		}
		size_t len;
		fl_err e2;
		char *data = fl_read_file(p, &len, &e2);
		if (!data) {
			fl_seterr(l->err, "%s: %s", p, e2.msg);
			free(p);
			return -1;
		}
		char hex[65];
		pub_sha256_hex(data, len, hex);
		free(data);
		if (strcmp(hex, json_string_value(sha)) != 0) {
			fl_seterr(l->err, "%s: sha256: is %s, manifest.json (files.%s) says %s",
				  p, hex, key, json_string_value(sha));
			free(p);
			return -1;
		}
		free(p);
		fl_strmap_put(&l->listed, rel, 1);
	}
	return 0;
}

static int check_doc_header(struct ld *l, json_t *o, const char *rel)
{
	json_t *sv = json_object_get(o, "schemaVersion");
	if (!json_is_integer(sv) || json_integer_value(sv) != FL_SCHEMA_VERSION)
		return fl_seterr(l->err, "%s/%s: schemaVersion: must be %d", l->dir, rel, FL_SCHEMA_VERSION);
	json_t *dv = json_object_get(o, "datasetVersion");
	if (!json_is_string(dv) || strcmp(json_string_value(dv), l->version) != 0)
		return fl_seterr(l->err, "%s/%s: datasetVersion: does not match manifest.json (%s)",
				 l->dir, rel, l->version);
	return 0;
}

/* Every *.json under repos/ must be a repository of repos.json. */
static int check_repo_files(struct ld *l, fl_strmap *repos)
{
	char *rd = path_of(l, "repos");
	DIR *d = opendir(rd);
	free(rd);
	if (!d)
		return 0;
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *od = fl_xasprintf("%s/repos/%s", l->dir, de->d_name);
		DIR *d2 = opendir(od);
		struct dirent *de2;
		while (rc == 0 && d2 && (de2 = readdir(d2))) {
			if (de2->d_name[0] == '.' || !fl_str_ends(de2->d_name, ".json"))
				continue;
			char *repo = fl_xasprintf("%s/%.*s", de->d_name,
						  (int)(strlen(de2->d_name) - 5), de2->d_name);
			size_t ix;
			if (!fl_strmap_get(repos, repo, &ix))
				rc = fl_seterr(l->err, "%s/%s.json: records of repository %s, which is not in repos.json",
					       od, repo + strlen(de->d_name) + 1, repo);
			free(repo);
		}
		if (d2)
			closedir(d2);
		free(od);
	}
	closedir(d);
	return rc;
}

static int check_error_files(struct ld *l, fl_strmap *ids)
{
	char *ed = path_of(l, "errors");
	DIR *d = opendir(ed);
	if (!d) {
		free(ed);
		return 0;
	}
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		size_t n = strlen(de->d_name), ix;
		char id[32] = "";
		if (n == 21 && fl_str_ends(de->d_name, ".json"))
			memcpy(id, de->d_name, 16);
		if (!id[0] || !fl_strmap_get(ids, id, &ix))
			rc = fl_seterr(l->err, "%s/%s: not the record of any repos/{owner}/{name}.json", ed, de->d_name);
	}
	closedir(d);
	free(ed);
	return rc;
}

static int check_errors_file(struct ld *l, const char *id, json_t *rec)
{
	char rel[64];
	snprintf(rel, sizeof rel, "errors/%s.json", id);
	/* fast path: the file is byte for byte what an export writes */
	char *p = path_of(l, rel);
	size_t len;
	char *data = fl_read_file(p, &len, NULL);
	free(p);
	if (data) {
		char *r = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
		pub_buf want = {0};
		pub_buf_puts(&want, "{\"record\":");
		pub_buf_puts(&want, r ? r : "");
		pub_buf_printf(&want, ",\"datasetVersion\":\"%s\"}", l->version);
		bool same = want.n == len && memcmp(want.p, data, len) == 0;
		free(r);
		pub_buf_free(&want);
		free(data);
		if (same)
			return 0;
	}
	json_t *o = load_json(l, rel);
	if (!o)
		return -1;
	int rc = 0;
	json_t *r = json_object_get(o, "record");
	json_t *dv = json_object_get(o, "datasetVersion");
	if (!json_is_object(o) || json_object_size(o) != 2 || !r)
		rc = fl_seterr(l->err, "%s/%s: must be {\"record\": ErrorEntry, \"datasetVersion\": ...}", l->dir, rel);
	else if (!json_is_string(dv) || strcmp(json_string_value(dv), l->version) != 0)
		rc = fl_seterr(l->err, "%s/%s: datasetVersion: does not match manifest.json (%s)", l->dir, rel, l->version);
	else if (!json_equal(r, rec)) {
		/* name the field that differs */
		const char *key, *bad = "record";
		json_t *v;
		if (json_is_object(r)) {
			json_object_foreach(rec, key, v)
				if (!json_equal(v, json_object_get(r, key))) {
					bad = key;
					break;
				}
		}
		rc = fl_seterr(l->err, "%s/%s: record.%s: differs from the record in repos/%s.json",
			       l->dir, rel, bad, json_string_value(json_object_get(rec, "repo")));
	}
	json_decref(o);
	return rc;
}

static int load(const char *dir_in, pub_dataset *out, bool trusted, fl_err *err);

int pub_dataset_load(const char *dir, pub_dataset *out, fl_err *err)
{
	return load(dir, out, false, err);
}

int pub_dataset_load_trusted(const char *dir, pub_dataset *out, fl_err *err)
{
	return load(dir, out, true, err);
}

static int load(const char *dir_in, pub_dataset *out, bool trusted, fl_err *err)
{
	memset(out, 0, sizeof *out);
	struct ld l = {0};
	l.trusted = trusted;
	char *dir = fl_xstrdup(dir_in);
	size_t dn = strlen(dir);
	while (dn > 1 && dir[dn - 1] == '/')
		dir[--dn] = '\0';
	l.dir = dir;
	l.err = err;
	int rc = -1;
	json_t *repos = NULL, *index = NULL;
	fl_strmap repo_ix = {0}, ids = {0};
	if (!pub_is_dir(dir)) {
		fl_seterr(err, "%s: no such data set folder", dir);
		goto out;
	}
	l.manifest = load_json(&l, "manifest.json");
	if (!l.manifest || check_manifest(&l) < 0)
		goto out;
	snprintf(out->dataset_version, sizeof out->dataset_version, "%s", l.version);

	repos = load_json(&l, "repos.json");
	if (!repos)
		goto out;
	if (!json_is_array(repos)) {
		fl_seterr(err, "%s/repos.json: must be an array of RepoEntry", dir);
		goto out;
	}
	out->nrepos = json_array_size(repos);
	out->repos = fl_xcalloc(out->nrepos ? out->nrepos : 1, sizeof *out->repos);
	for (size_t i = 0; i < out->nrepos; i++) {
		fl_err e2;
		if (fl_repo_from_jobj(json_array_get(repos, i), &out->repos[i].repo, &e2) < 0) {
			out->nrepos = i;
			fl_seterr(err, "%s/repos.json: [%zu] %s", dir, i, e2.msg);
			goto out;
		}
		const char *name = out->repos[i].repo.repo;
		size_t prev;
		if (fl_strmap_get(&repo_ix, name, &prev)) {
			out->nrepos = i + 1;
			fl_seterr(err, "%s/repos.json: [%zu] repo: %s is listed twice", dir, i, name);
			goto out;
		}
		const char *slash = strchr(name, '/');
		if (name[0] == '.' || !slash || slash[1] == '.') {
			out->nrepos = i + 1;
			fl_seterr(err, "%s/repos.json: [%zu] repo: '%s' is not usable as owner/name", dir, i, name);
			goto out;
		}
		fl_strmap_put(&repo_ix, name, i);
	}
	if (check_repo_files(&l, &repo_ix) < 0)
		goto out;

	for (size_t i = 0; i < out->nrepos; i++) {
		pub_repo_set *rs = &out->repos[i];
		char *rel = fl_xasprintf("repos/%s.json", rs->repo.repo);
		json_t *arr = load_json(&l, rel);
		if (!arr) {
			free(rel);
			goto out;
		}
		if (!json_is_array(arr)) {
			fl_seterr(err, "%s/%s: must be an array of ErrorEntry", dir, rel);
			json_decref(arr);
			free(rel);
			goto out;
		}
		size_t n = json_array_size(arr);
		rs->entries = fl_xcalloc(n ? n : 1, sizeof *rs->entries);
		fl_strmap slugs = {0};
		int bad = 0;
		for (size_t k = 0; k < n && !bad; k++) {
			json_t *ro = json_array_get(arr, k);
			fl_err e2;
			if (fl_entry_from_jobj(ro, &rs->entries[k], !trusted, &e2) < 0) {
				bad = fl_seterr(err, "%s/%s: [%zu] %s", dir, rel, k, e2.msg);
				break;
			}
			rs->n = k + 1;
			const fl_entry *e = &rs->entries[k];
			size_t prev;
			if (strcmp(e->repo, rs->repo.repo) != 0)
				bad = fl_seterr(err, "%s/%s: record %s: repo: is %s, which is not this file's repository%s",
						dir, rel, e->id, e->repo,
						fl_strmap_get(&repo_ix, e->repo, &prev) ? "" : " (and not in repos.json)");
			else if (fl_strmap_get(&ids, e->id, &prev))
				bad = fl_seterr(err, "%s/%s: record %s: id: duplicate id (also in repos/%s.json)",
						dir, rel, e->id, out->repos[prev].repo.repo);
			else if (fl_strmap_get(&slugs, e->slug, &prev))
				bad = fl_seterr(err, "%s/%s: record %s: slug: '%s' is used twice in the repository",
						dir, rel, e->id, e->slug);
			else {
				fl_strmap_put(&ids, e->id, i);
				fl_strmap_put(&slugs, e->slug, k);
				if (!trusted && check_errors_file(&l, e->id, ro) < 0)
					bad = -1;
			}
		}
		fl_strmap_free(&slugs);
		json_decref(arr);
		if (!bad && rs->repo.error_count != (long long)rs->n)
			bad = fl_seterr(err, "%s/repos.json: repo %s: errorCount: is %lld, but %s holds %zu records",
					dir, rs->repo.repo, rs->repo.error_count, rel, rs->n);
		free(rel);
		if (bad)
			goto out;
		out->nerrors += rs->n;
	}
	if (!trusted && check_error_files(&l, &ids) < 0)
		goto out;
	if (trusted) {
		rc = 0;
		goto out;
	}

	/* index.json agrees with the records */
	index = load_json(&l, "index.json");
	if (!index)
		goto out;
	if (!json_is_object(index) || check_doc_header(&l, index, "index.json") < 0)
		goto out;
	json_t *ie = json_object_get(index, "errors");
	if (!json_is_array(ie) || json_array_size(ie) != out->nerrors) {
		fl_seterr(err, "%s/index.json: errors: must list the %zu records", dir, out->nerrors);
		goto out;
	}
	{
		size_t k = 0;
		for (size_t i = 0; i < out->nrepos; i++)
			for (size_t j = 0; j < out->repos[i].n; j++, k++) {
				json_t *want = pub_index_obj(&out->repos[i].entries[j]);
				int same = json_equal(want, json_array_get(ie, k));
				json_decref(want);
				if (!same) {
					fl_seterr(err, "%s/index.json: errors[%zu]: does not match record %s",
						  dir, k, out->repos[i].entries[j].id);
					goto out;
				}
			}
	}
	json_t *counts = json_object_get(l.manifest, "counts");
	if ((size_t)json_integer_value(json_object_get(counts, "repos")) != out->nrepos ||
	    (size_t)json_integer_value(json_object_get(counts, "errors")) != out->nerrors) {
		fl_seterr(err, "%s/manifest.json: counts: says %lld repos and %lld errors, the data set has %zu and %zu",
			  dir, (long long)json_integer_value(json_object_get(counts, "repos")),
			  (long long)json_integer_value(json_object_get(counts, "errors")),
			  out->nrepos, out->nerrors);
		goto out;
	}
	rc = 0;
out:
	if (rc < 0)
		pub_dataset_free(out);
	json_decref(l.manifest);
	json_decref(repos);
	json_decref(index);
	fl_strmap_free(&l.listed);
	fl_strmap_free(&repo_ix);
	fl_strmap_free(&ids);
	free(dir);
	return rc;
}

void pub_dataset_free(pub_dataset *d)
{
	for (size_t i = 0; i < d->nrepos; i++) {
		for (size_t k = 0; k < d->repos[i].n; k++)
			fl_entry_free(&d->repos[i].entries[k]);
		free(d->repos[i].entries);
		fl_repo_free(&d->repos[i].repo);
	}
	free(d->repos);
	memset(d, 0, sizeof *d);
}
