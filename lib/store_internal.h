/*
 * store_internal.h — the store's handle, shared with the library modules
 * that run their own queries (scan merge, lookup index, export).
 */
#ifndef FL_STORE_INTERNAL_H
#define FL_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdbool.h>

#include "faultline.h"

enum {
	STMT_PUT_REPO,
	STMT_PUT_ENTRY,
	STMT_ADD_ENTRY,
	STMT_ADD_SITE,
	STMT_CLEAR_SITES,
	STMT_CLEAR_ERRORS,
	STMT_DELETE_ENTRY,
	STMT_MAX = 32,
};

struct fl_store {
	sqlite3 *db;
	char *path;
	bool readonly;
	bool in_tx;
	sqlite3_stmt *stmts[STMT_MAX];
};

/* A cached prepared statement (reset, bindings cleared). */
sqlite3_stmt *fl_store_stmt(fl_store *st, int which, const char *sql,
			    fl_err *err);

/* fl_store_put_entry for a record already validated and encoded (json =
 * fl_entry_to_json(e, false)), so callers can do both on several threads.
 * With add, the record must be new (its repository's records were cleared
 * in this transaction): a plain INSERT, which fails on a conflict instead
 * of replacing a row, and costs a third of an INSERT OR REPLACE (no
 * statement journal, no foreign-key delete actions). */
int fl_store_put_entry_json(fl_store *st, const fl_entry *e, const fl_facts *f,
			    const char *json, bool add, fl_err *err);

#endif
