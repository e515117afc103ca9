/*
 * prompt.h — the text of one call (prompt.c).
 */
#ifndef FL_ENRICH_PROMPT_H
#define FL_ENRICH_PROMPT_H

#include <jansson.h>

#include "enrich.h"

/* The scanner's facts of a record that are not in its JSON (NULL when
 * not known). */
typedef struct fl_prompt_facts {
	const char *language, *function, *guard, *idiom;
} fl_prompt_facts;

/* The prompt for phase ph over n records (each its whole ErrorEntry as
 * JSON, with the model's fields in place) and their facts: a malloc'd
 * string.  Each record is one line starting with {"id":" (the tests'
 * fake providers read the ids from there). */
char *fl_prompt_build(fl_phase ph, json_t *const *records, const fl_prompt_facts *facts,
		      size_t n);

#endif
