/*
 * json_internal.h — jansson-level access to the record codec, for the
 * modules of libfaultline that build larger JSON documents (store, export,
 * CLI output).  Not part of the public API.
 */
#ifndef FL_JSON_INTERNAL_H
#define FL_JSON_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>

#include "faultline.h"

json_t *fl_entry_to_jobj(const fl_entry *e);
json_t *fl_repo_to_jobj(const fl_repo *r);
/* Strict read; validate=false skips fl_entry_validate (for rows the store
 * wrote itself after validating them). */
int fl_entry_from_jobj(json_t *o, fl_entry *out, bool validate, fl_err *err);
int fl_repo_from_jobj(json_t *o, fl_repo *out, fl_err *err);
json_t *fl_json_parse(const char *json, size_t len, fl_err *err);

#endif
