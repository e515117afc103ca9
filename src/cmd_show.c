/*
 * cmd_show.c — `faultline show ID | OWNER/NAME/SLUG`: one record, readable
 * (message, location, source window, fixes) or as JSON.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"

static const cli_help HELP = {
	.name = "show",
	.synopsis = "faultline show [--db FILE] [--json] ID | OWNER/NAME/SLUG",
	.about =
	"Show one record: its message and pattern; its type, severity, class, code "
	"and HTTP status; where it is raised (file:line, function, guard) and the "
	"permalink; the source lines around it; what it means, when it is raised, "
	"where people hit it, how to fix it and how to prevent it; the other "
	"lines that raise it; and which of these texts a model wrote (faultline "
	"enrich), with the provider, the model and the day.\n\n"
	"The record is named by its id (as list and explain print it) or by "
	"OWNER/NAME/SLUG. A record the store does not hold is an error (exit 1).",
	.examples = {
		{"faultline show 2edde07464c35f9c",
		 "A record by the id that list or explain printed."},
		{"faultline show acme/shop/reservation-failed-item-not-found",
		 "The same by its repository and slug (the last part of its web page's "
		 "address)."},
		{"faultline show --json 2edde07464c35f9c | jq .solutions",
		 "The whole record as JSON; here only its fixes."},
	},
};

static void print_window(const fl_entry *e)
{
	if (!e->source_code)
		return;
	int ln = e->source_code_start;
	const char *p = e->source_code;
	for (;;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		printf("  %c %5d | %.*s\n", ln == e->line_number ? '>' : ' ', ln,
		       len, p);
		if (!nl)
			break;
		p = nl + 1;
		ln++;
	}
}

static void print_list(const char *title, const fl_strv *v)
{
	if (!v->n)
		return;
	printf("\n%s\n", title);
	for (size_t i = 0; i < v->n; i++)
		printf("  %zu. %s\n", i + 1, v->v[i]);
}

/* Which fields a model wrote: one line per provider, model and day. */
static void print_provenance(fl_store *st, const char *id)
{
	char *prov;
	bool stale;
	fl_err err;
	if (fl_store_get_provenance(st, id, &prov, &stale, &err) < 0 || !prov)
		return;
	json_t *o = json_loads(prov, 0, NULL);
	free(prov);
	if (!json_is_object(o) || !json_object_size(o)) {
		json_decref(o);
		return;
	}
	printf("\nWritten by a model\n");
	if (stale) {
		printf("  (stale: the record changed since; its text above is faultline's "
		       "own until `faultline enrich` runs again)\n");
	}
	json_t *done = json_object();
	const char *k;
	json_t *v;
	json_object_foreach(o, k, v) {
		const char *p = json_string_value(json_object_get(v, "provider"));
		const char *m = json_string_value(json_object_get(v, "model"));
		const char *at = json_string_value(json_object_get(v, "at"));
		char key[512];
		snprintf(key, sizeof key, "%s\x01%s\x01%.10s", p ? p : "", m ? m : "", at ? at : "");
		if (json_object_get(done, key))
			continue;
		json_object_set_new(done, key, json_true());
		printf("  ");
		const char *k2;
		json_t *v2;
		bool first = true;
		json_object_foreach(o, k2, v2) {
			const char *p2 = json_string_value(json_object_get(v2, "provider"));
			const char *m2 = json_string_value(json_object_get(v2, "model"));
			const char *at2 = json_string_value(json_object_get(v2, "at"));
			char key2[512];
			snprintf(key2, sizeof key2, "%s\x01%s\x01%.10s", p2 ? p2 : "", m2 ? m2 : "",
				 at2 ? at2 : "");
			if (strcmp(key, key2) != 0)
				continue;
			printf("%s%s", first ? "" : ", ", k2);
			first = false;
		}
		printf(": %s%s%s%s, %.10s\n", m ? "model " : "", m ? m : "",
		       m ? " via " : "provider ", p ? p : "?", at ? at : "");
	}
	json_decref(done);
	json_decref(o);
}

static void print_entry(fl_store *st, const fl_entry *e)
{
	printf("%s\n", e->error_code ? e->error_code : e->error_message);
	printf("id %s  ·  %s/%s\n\n", e->id, e->repo, e->slug);
	printf("Message   %s\n", e->error_message);
	printf("Pattern   %s\n", e->message_pattern);
	printf("Type      %s, severity %s", e->error_type, e->severity);
	if (e->error_class)
		printf(", class %s", e->error_class);
	if (e->error_code)
		printf(", code %s", e->error_code);
	if (e->http_status)
		printf(", HTTP %d", e->http_status);
	printf("\nWhere     %s:%d\n", e->file_path, e->line_number);
	char *fn, *guard, *idiom;
	fl_err err;
	fl_record_versions v;
	if (fl_store_get_record_versions(st, e->repo, e->id, &v, &err) == 1) {
		/* scan --history: the versions that raise it */
		char *rg = fl_record_versions_ranges(&v);
		printf("Versions  %s%s\n", rg, fl_record_versions_at_head(&v) ? ""
			: " (no longer at the last version scanned)");
		free(rg);
		fl_record_versions_free(&v);
	}
	if (fl_store_get_facts(st, e->id, &fn, &guard, &idiom, &err) == 1) {
		if (fn)
			printf("Function  %s\n", fn);
		if (guard)
			printf("Guard     %s\n", guard);
		free(fn);
		free(guard);
		free(idiom);
	}
	printf("Permalink %s\n\n", e->github_url);
	print_window(e);
	printf("\nWhat it means\n  %s\n", e->documentation);
	printf("\nWhen it is raised\n  %s\n", e->trigger_scenarios);
	printf("\nWhere people hit it\n  %s\n", e->common_situations);
	print_list("How to fix it", &e->solutions);
	if (e->example_fix)
		printf("\nExample fix\n%s\n", e->example_fix);
	print_list("Prevention", &e->prevention_tips);
	fl_strv sites = {0};
	if (fl_store_get_sites(st, e->id, &sites, &err) == 0 && sites.n)
		print_list("Also raised at", &sites);
	fl_strv_free(&sites);
	print_provenance(st, e->id);
}

int cmd_show(int argc, char **argv)
{
	const char *db = NULL;
	bool json = false;
	const cli_opt opts[] = {
		CLI_VAL("db", db, "FILE", CLI_DB_HELP),
		CLI_FLAG("json", json,
			 "print the whole record as one JSON object, an ErrorEntry "
			 "(records.md) (default: text)"),
		{0},
	};
	const char *pos[1];
	int npos, rc = cli_parse(argc, argv, opts, &HELP, pos, 1, &npos);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (npos != 1)
		return cli_fail(EXIT_USAGE, "show: which record? usage: %s", HELP.synopsis);
	fl_store *st = cli_open_store(db, true);
	if (!st)
		return 1;
	fl_entry e;
	fl_err err;
	const char *key = pos[0];
	const char *last = strrchr(key, '/');
	if (last && strchr(key, '/') != last) {
		/* OWNER/NAME/SLUG */
		char *repo = strndup(key, (size_t)(last - key));
		rc = fl_store_get_entry_by_slug(st, repo, last + 1, &e, &err);
		free(repo);
	} else {
		rc = fl_store_get_entry(st, key, &e, &err);
	}
	if (rc <= 0) {
		fl_store_close(st);
		if (rc < 0)
			return cli_fail(1, "%s", err.msg);
		return cli_fail(1, "no record '%s' in the store", key);
	}
	if (json) {
		char *s = fl_entry_to_json(&e, true);
		puts(s);
		free(s);
	} else {
		print_entry(st, &e);
	}
	fl_entry_free(&e);
	fl_store_close(st);
	return 0;
}
