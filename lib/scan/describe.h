/*
 * describe.h — explanations of records from the facts found in code.
 */
#ifndef FL_SCAN_DESCRIBE_H
#define FL_SCAN_DESCRIBE_H

#include "faultline.h"
#include "lang.h"

/* Fill documentation, triggerScenarios, commonSituations, solutions,
 * handlingStrategy and tags of e (whose message, pattern, path and line are
 * set) from the site's facts. */
void fl_describe(fl_entry *e, const fl_site *s, const char *lang);

#endif
