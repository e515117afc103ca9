/*
 * store_enrich.h — the store's model-written fields and their provenance
 * (store_enrich.c), for the enrich run, export and show.
 */
#ifndef FL_STORE_ENRICH_H
#define FL_STORE_ENRICH_H

#include <stdbool.h>

#include <jansson.h>

#include "faultline.h"

/* Merge patch (field -> value) into record id's model-written fields,
 * with provenance (provider, model, now, phase) for each field, phases |=
 * phase_bit, and one more verify round when verify_round.  A row written
 * for other content than content_hash (stale) is started afresh.  Inside
 * a transaction. */
int fl_store_enrich_put(fl_store *st, const char *id, const char *content_hash,
			const json_t *patch, int phase_bit, bool verify_round,
			const char *provider, const char *model, const char *phase,
			fl_err *err);

typedef struct fl_enrich_state {
	const char *id;
	const char *content_hash;
	bool stale;          /* written for other content: start again */
	int phases;          /* bits of the phases done (0 when stale) */
	int verify_rounds;
} fl_enrich_state;
typedef int (*fl_enrich_state_cb)(const fl_enrich_state *s, void *ud); /* !0 stops */

/* Every record (of repo, or all when NULL) in the store's order with its
 * enrichment state. */
int fl_store_enrich_state(fl_store *st, const char *repo, fl_enrich_state_cb cb,
			  void *ud, fl_err *err);

/* The scanner's facts of record id kept beside it: language, function,
 * guard, idiom (each malloc'd or NULL).  1, 0 when the store has no such
 * record, -1 on an error. */
int fl_store_enrich_facts(fl_store *st, const char *id, char *facts[4], fl_err *err);

/* An imported record's model-written fields (fields: a JSON object of
 * their values, as in the record) and their provenance as the data set's
 * provenance.json gives it, every phase done.  Inside a transaction. */
int fl_store_enrich_import(fl_store *st, const char *id, const char *fields,
			   const char *provenance, fl_err *err);

typedef int (*fl_provenance_cb)(const char *id, const char *prov_json, void *ud);
/* The provenance (JSON object text) of every record whose model-written
 * fields are current, by id. */
int fl_store_each_provenance(fl_store *st, fl_provenance_cb cb, void *ud,
			     fl_err *err);

#endif
