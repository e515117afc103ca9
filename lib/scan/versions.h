/*
 * versions.h — the versions of a project's history (scan --history): what
 * a tag name says about its version (numbers, pre-release or release), the
 * order of versions, which tags are the project's releases, and the runs of
 * consecutive versions in which a record has the same blob and line.
 */
#ifndef FL_SCAN_VERSIONS_H
#define FL_SCAN_VERSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FL_VERSION_NUMS 8

/* A tag name read as PREFIX NUMBERS SUFFIX: "v2.39.5" is "v", 2.39.5, "";
 * "gitgui-0.10.0" is "gitgui-", 0.10.0, ""; "v2.40.0-rc0" is "v", 2.40.0,
 * "-rc0".  A name without a digit has no numbers (nnums 0). */
typedef struct fl_version_name {
	size_t prefix_len;          /* bytes before the first number */
	long long nums[FL_VERSION_NUMS];
	int nnums;
	const char *suffix;         /* what follows the numbers (points into
				       the name) */
} fl_version_name;

void fl_version_parse(const char *name, fl_version_name *out);
/* A release: numbers and nothing after them ("v2.39.5", "1.0"; not
 * "v2.40.0-rc0", "1.0.0.beta2", "v3.0-dev", "nightly"). */
bool fl_version_is_release(const char *name);
/* A suffix that names a pre-release (rc, alpha, beta, pre, dev, preview,
 * snapshot, nightly, a1, b2...): such a version comes before the release
 * of the same numbers; any other suffix after it. */
bool fl_version_suffix_is_pre(const char *suffix);
/* Version order (qsort-style): by the numbers (a missing number is 0,
 * then fewer numbers first), a pre-release before the release, other
 * suffixes after it, suffixes in natural order (digit runs as numbers),
 * then the prefix; names without numbers after all others, by name. */
int fl_version_cmp(const char *a, const char *b);

/* Which of n tag names are the project's releases by default: releases
 * (fl_version_is_release) whose prefix is the most common among the
 * releases' prefixes (a repository's own "v1.2.3" tags, not the
 * "gitgui-0.10.0" tags of a project merged into it); ties go to the
 * shorter prefix, then the smaller.  keep[i] is set for each; returns
 * how many. */
size_t fl_version_pick_releases(const char *const *names, size_t n, bool *keep);

/* One run: versions first..last (indexes in version order, consecutive)
 * in which a record is at the same line of the same blob. */
typedef struct fl_vrun {
	int first, last;
	int line;
	uint32_t blob;              /* the caller's blob number */
} fl_vrun;

typedef struct fl_vruns {
	fl_vrun *v;
	size_t n, cap;
} fl_vruns;

/* The record exists in version seq (seqs come in increasing order) at
 * line of blob: the last run grows when it ends at seq-1 with the same
 * blob and line; else a new run starts (a gap, or another blob). */
void fl_vruns_add(fl_vruns *r, int seq, uint32_t blob, int line);
void fl_vruns_free(fl_vruns *r);

#endif
