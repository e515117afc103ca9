/*
 * store_enrich.c — the store's rows of model-written fields (table
 * enrichment, schema version 6): what `faultline enrich` writes after each
 * call, what it reads to know which records and phases are left, and the
 * provenance `show` and the data set report.  The fields themselves reach
 * every reader through fl_store_row_record (store.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "faultline.h"
#include "store_enrich.h"
#include "store_internal.h"
#include "util.h"

static int need_tx(fl_store *st, fl_err *err)
{
	if (!st->in_tx)
		return fl_seterr(err, "store %s: changes must be made inside a transaction",
				 fl_store_path(st));
	return 0;
}

/* One record's row, written whole. */
static int put_row(fl_store *st, const char *id, const char *content_hash,
		   const char *fields, const char *provenance, int phases, int rounds,
		   fl_err *err)
{
	sqlite3_stmt *s = fl_store_stmt(st, STMT_ENRICH_PUT,
		"INSERT OR REPLACE INTO enrichment (error_id, content_hash, fields,"
		" provenance, phases, verify_rounds, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		err);
	if (!s)
		return -1;
	char at[32];
	fl_now_iso(at);
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	fl_store_bind_opt(s, 2, content_hash);
	sqlite3_bind_text(s, 3, fields, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 4, provenance, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 5, phases);
	sqlite3_bind_int(s, 6, rounds);
	sqlite3_bind_text(s, 7, at, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc != SQLITE_DONE)
		return fl_store_sqlfail(st, err, "writing a record's model-written fields");
	return 0;
}

static json_t *load_obj(const unsigned char *text)
{
	json_t *o = text ? json_loads((const char *)text, 0, NULL) : NULL;
	if (!json_is_object(o)) {
		json_decref(o);
		o = json_object();
	}
	return o;
}

int fl_store_enrich_put(fl_store *st, const char *id, const char *content_hash,
			const json_t *patch, int phase_bit, bool verify_round,
			const char *provider, const char *model, const char *phase,
			fl_err *err)
{
	if (need_tx(st, err) < 0)
		return -1;
	sqlite3_stmt *s = fl_store_stmt(st, STMT_ENRICH_GET,
		"SELECT fields, provenance, phases, verify_rounds, content_hash IS ?2"
		" FROM enrichment WHERE error_id = ?1", err);
	if (!s)
		return -1;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	fl_store_bind_opt(s, 2, content_hash);
	json_t *fields, *prov;
	int phases = 0, rounds = 0;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_int(s, 4)) {
		fields = load_obj(sqlite3_column_text(s, 0));
		prov = load_obj(sqlite3_column_text(s, 1));
		phases = sqlite3_column_int(s, 2);
		rounds = sqlite3_column_int(s, 3);
	} else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
		/* never enriched, or stale: what the model wrote for the
		 * record's old content goes */
		fields = json_object();
		prov = json_object();
	} else {
		sqlite3_reset(s);
		return fl_store_sqlfail(st, err, "reading a record's model-written fields");
	}
	sqlite3_reset(s);
	char at[32];
	fl_now_iso(at);
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)patch, k, v) {
		json_object_set(fields, k, v);
		json_t *p = json_pack("{s:s?, s:s?, s:s, s:s}", "provider", provider,
				      "model", model, "at", at, "phase", phase);
		json_object_set_new(prov, k, p);
	}
	phases |= phase_bit;
	if (verify_round)
		rounds++;
	char *ftext = json_dumps(fields, JSON_COMPACT);
	char *ptext = json_dumps(prov, JSON_COMPACT);
	json_decref(fields);
	json_decref(prov);
	rc = put_row(st, id, content_hash, ftext, ptext, phases, rounds, err);
	free(ftext);
	free(ptext);
	return rc;
}

int fl_store_enrich_state(fl_store *st, const char *repo, fl_enrich_state_cb cb,
			  void *ud, fl_err *err)
{
	sqlite3_stmt *s;
	const char *sql =
		"SELECT e.id, e.content_hash, x.error_id IS NOT NULL,"
		" x.content_hash IS e.content_hash, x.phases, x.verify_rounds"
		" FROM errors e LEFT JOIN enrichment x ON x.error_id = e.id"
		" WHERE ?1 IS NULL OR e.repo = ?1"
		" ORDER BY e.repo, e.file_path, e.line_number, e.col, e.id";
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "listing records to enrich");
	if (repo)
		sqlite3_bind_text(s, 1, repo, -1, SQLITE_TRANSIENT);
	int rc = 0, step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		fl_enrich_state es = {
			.id = (const char *)sqlite3_column_text(s, 0),
			.content_hash = (const char *)sqlite3_column_text(s, 1),
		};
		if (sqlite3_column_int(s, 2)) {
			es.stale = !sqlite3_column_int(s, 3);
			if (!es.stale) {
				es.phases = sqlite3_column_int(s, 4);
				es.verify_rounds = sqlite3_column_int(s, 5);
			}
		}
		if (cb(&es, ud))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = fl_store_sqlfail(st, err, "listing records to enrich");
	sqlite3_finalize(s);
	return rc;
}

int fl_store_get_provenance(fl_store *st, const char *id, char **prov,
			    bool *stale, fl_err *err)
{
	*prov = NULL;
	*stale = false;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT x.provenance, x.content_hash IS e.content_hash"
			       " FROM enrichment x JOIN errors e ON e.id = x.error_id"
			       " WHERE x.error_id = ?1", -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "reading a record's provenance");
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*prov = fl_xstrdup((const char *)sqlite3_column_text(s, 0));
		*stale = !sqlite3_column_int(s, 1);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fl_store_sqlfail(st, err, "reading a record's provenance");
	return 0;
}

int fl_store_each_provenance(fl_store *st, fl_provenance_cb cb, void *ud,
			     fl_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT x.error_id, x.provenance FROM enrichment x"
			       " JOIN errors e ON e.id = x.error_id"
			       " WHERE x.content_hash IS e.content_hash ORDER BY x.error_id",
			       -1, &s, NULL) != SQLITE_OK)
		return fl_store_sqlfail(st, err, "listing provenance");
	int rc = 0, step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW)
		if (cb((const char *)sqlite3_column_text(s, 0),
		       (const char *)sqlite3_column_text(s, 1), ud))
			break;
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = fl_store_sqlfail(st, err, "listing provenance");
	sqlite3_finalize(s);
	return rc;
}

int fl_store_enrich_facts(fl_store *st, const char *id, char *facts[4], fl_err *err)
{
	facts[0] = facts[1] = facts[2] = facts[3] = NULL;
	sqlite3_stmt *s = fl_store_stmt(st, STMT_ENRICH_FACTS,
		"SELECT language, function, guard, idiom FROM errors WHERE id = ?1", err);
	if (!s)
		return -1;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		for (int i = 0; i < 4; i++)
			facts[i] = fl_xstrdup((const char *)sqlite3_column_text(s, i));
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fl_store_sqlfail(st, err, "reading a record's facts");
	return rc == SQLITE_ROW ? 1 : 0;
}

int fl_store_enrich_import(fl_store *st, const char *id, const char *fields,
			   const char *provenance, fl_err *err)
{
	/* an imported record has no content digest: its fields stay current
	 * until a scan of the repository gives it one */
	if (need_tx(st, err) < 0)
		return -1;
	return put_row(st, id, NULL, fields, provenance, 7, 0, err);
}
