/*
 * export_versions.c — the data set's side files of versions (scan
 * --history): versions/{owner}/{name}.json per repository that has them,
 * the repository's versions in order and each record's runs of versions
 * with its line in each (README, "The versions of a record").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "publish.h"
#include "../util.h"

struct vx {
	fl_buf *b;
	size_t n;
};

static int put_runs(const char *id, const fl_version_run *runs, size_t n, void *ud)
{
	struct vx *v = ud;
	fl_buf_puts(v->b, v->n++ ? "," : "");
	pub_json_str(v->b, id, false);
	fl_buf_puts(v->b, ":[");
	for (size_t k = 0; k < n; k++)
		fl_buf_printf(v->b, "%s[%d,%d,%d]", k ? "," : "", runs[k].first, runs[k].last,
			      runs[k].line);
	fl_buf_putc(v->b, ']');
	return 0;
}

int pub_export_versions(fl_store *st, pub_writer *w, const char *dataset_version,
			const fl_repo *repos, size_t nrepos, fl_err *err)
{
	fl_buf b = {0};
	int rc = 0;
	for (size_t i = 0; i < nrepos && rc == 0; i++) {
		fl_version *v;
		size_t nv;
		if ((rc = fl_store_get_versions(st, repos[i].repo, &v, &nv, err)) < 0)
			break;
		if (!nv)
			continue;
		const char *slash = strchr(repos[i].repo, '/');
		if (!slash || repos[i].repo[0] == '.' || slash[1] == '.' || strchr(slash + 1, '/') ||
		    strchr(repos[i].repo, '\\')) {
			fl_versions_free(v, nv);
			rc = fl_seterr(err, "repo %s: repo: not usable as owner/name folders",
				       repos[i].repo);
			break;
		}
		fl_buf_reset(&b);
		fl_buf_printf(&b, "{\"schemaVersion\":%d,\"datasetVersion\":\"%s\",\"repo\":",
			      FL_SCHEMA_VERSION, dataset_version);
		pub_json_str(&b, repos[i].repo, false);
		fl_buf_puts(&b, ",\"versions\":[");
		for (size_t k = 0; k < nv; k++) {
			fl_buf_puts(&b, k ? ",{\"name\":" : "{\"name\":");
			pub_json_str(&b, v[k].name, false);
			fl_buf_printf(&b, ",\"sha\":\"%s\"}", v[k].sha);
		}
		fl_versions_free(v, nv);
		fl_buf_puts(&b, "],\"records\":{");
		struct vx x = {&b, 0};
		if ((rc = fl_store_each_record_runs(st, repos[i].repo, put_runs, &x, err)) < 0)
			break;
		fl_buf_puts(&b, "}}");
		char *rel = fl_xasprintf("versions/%s.json", repos[i].repo);
		rc = pub_writer_put(w, rel, b.s, b.n, err);
		free(rel);
	}
	fl_buf_free(&b);
	return rc;
}
