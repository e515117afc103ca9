/*
 * describe.h — explanations of records from the facts found in code.
 */
#ifndef FL_SCAN_DESCRIBE_H
#define FL_SCAN_DESCRIBE_H

#include "faultline.h"
#include "lang.h"

/* Fill the explanation of e (documentation, triggerScenarios,
 * commonSituations, solutions, exampleFix, handlingStrategy,
 * validationCode, typeGuard, tryCatchPattern, preventionTips, tags,
 * backgroundTag) from the site's facts; e's message, pattern, class, code,
 * path and line are set, and its source window when the scan has it. */
void fl_describe(fl_entry *e, const fl_site *s, const char *lang);

#endif
