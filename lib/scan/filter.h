/*
 * filter.h — the skip rules of a scan (see filter.c).
 */
#ifndef FL_SCAN_FILTER_H
#define FL_SCAN_FILTER_H

#include <stddef.h>

#include "faultline.h"
#include "lang.h"

#define FL_MAX_FILE (1024 * 1024)
#define FL_MINIFIED_LINE 500

/* A skip rule (enum fl_skip) for a repo-relative path, or -1 to scan it.
 * lang is the language of the path (NULL when none). */
int fl_filter_path(const char *path, const fl_lang *lang,
		   const fl_scan_opts *o);
/* A skip rule for a file's content, or -1 to scan it. */
int fl_filter_content(const char *text, size_t len);

#endif
