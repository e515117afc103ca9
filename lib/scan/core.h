/*
 * core.h — what the scanner core (scan.c) shares with the history scan
 * (history.c): the text of a site's record and the repository's name.
 */
#ifndef FL_SCAN_CORE_H
#define FL_SCAN_CORE_H

#include <stdbool.h>

#include "faultline.h"
#include "lang.h"
#include "tree.h"

/* The text of the record site s makes: its errorMessage (*msg), its
 * messagePattern (*pat, or NULL: derive it from *msg) and its errorCode
 * (*code, NULL when none; points into s).  false when the site makes no
 * record (a message without text of its own, and no code); else *msg and
 * *pat are malloc'd. */
bool fl_site_record_text(const fl_site *s, char **msg, char **pat, const char **code);

/* owner/name for a tree: --repo, else the origin remote, else
 * local/<folder name> (*local set); malloc'd. */
char *fl_scan_repo_name(const fl_scan_opts *o, const fl_tree *t, bool *local);
/* OWNER/NAME: one '/', both sides non-empty, no white space. */
bool fl_scan_valid_repo_name(const char *r);

#endif
