/*
 * tree.h — the files of a tree to scan, whatever holds them: a git work
 * tree (tracked files, read from disk), a commit read straight from the
 * object store (bare repository or --rev), or a plain folder.
 */
#ifndef FL_SCAN_TREE_H
#define FL_SCAN_TREE_H

#include <git2.h>
#include <stdbool.h>

#include "faultline.h"
#include "slab.h"

typedef struct fl_tree_file {
	char *path;       /* repo-relative, '/' separators */
	git_oid oid;      /* blob id when read from the object store */
	long long size;   /* -1 when unknown until read */
	bool loose;       /* its blob is a loose object (read by tree.c) */
} fl_tree_file;

typedef struct fl_tree {
	char *root;       /* absolute path of the tree's root folder */
	char *gitdir;     /* repository path, NULL for a plain folder */
	bool from_odb;    /* read blobs from the object store */
	char sha[41];     /* commit; empty for a plain folder until digested */
	char *host;       /* "github.com", ... or NULL */
	char *remote_repo;/* owner/name from the origin remote, or NULL */
	char *branch;     /* current branch or NULL */
	bool libgit2;     /* libgit2 started for it (fl_tree_close stops it) */
	fl_tree_file *files;
	size_t n;
	/* a plain folder's walk: the folders it left out, each with all it
	 * holds — deeper than FL_TREE_MAX_DEPTH levels, or not readable —
	 * and the first of each in path order ("path (reason)" for an
	 * unreadable one), or NULL; the files under the folders too deep
	 * (counted down to FL_TREE_COUNT_DEPTH levels; deep_uncounted: some
	 * are deeper still) */
	long long deep_folders, unreadable_folders, deep_files;
	bool deep_uncounted;
	char *deep_first, *unreadable_first;
} fl_tree;

/* How many folder levels a plain folder's walk takes files from, and down
 * to which level it counts the files it leaves out. */
#define FL_TREE_MAX_DEPTH 64
#define FL_TREE_COUNT_DEPTH 128

/* Open the tree at path (rev: a commit to read from the object store, or
 * NULL).  Files are sorted in byte order of their paths.  On failure t
 * holds nothing; on success fl_tree_close() releases it. */
int fl_tree_open(const char *path, const char *rev, fl_tree *t, fl_err *err);
void fl_tree_close(fl_tree *t);

/* A buffer reused by read after read (fl_tree_reader.buf). */
typedef struct fl_read_buf {
	char *p;
	size_t cap;
} fl_read_buf;

/* Per-thread reader (libgit2 handles are not shared between threads). */
typedef struct fl_tree_reader {
	const fl_tree *tree;
	git_repository *repo;
	/* where a file's content goes: buf, a buffer of the caller's that
	 * each read reuses (the content is then valid until the next read
	 * into it); else the slab; else (both NULL, or no room) malloc */
	fl_read_buf *buf;
	fl_slab *slab;
	/* a work tree's or folder's files are opened in the folder of the
	 * last one read, kept open (files come in path order) */
	int dirfd;
	char *dir;
	size_t dirlen;
} fl_tree_reader;

int fl_tree_reader_open(fl_tree_reader *r, const fl_tree *t, fl_err *err);
void fl_tree_reader_close(fl_tree_reader *r);
/* File i's content when it is at most max bytes (*large set, NULL, when it
 * is over); NULL with err set to why (the blob's id for one from the
 * object store; the path is not in it) when it cannot be read, and *gone
 * set when that is because a work tree's file is no longer there.  A work
 * tree's file is opened once for both (no stat before the read).  The
 * content is NUL-terminated; *borrowed says it is in the reader's buffer
 * or slab (not to be freed), else it is malloc'd. */
char *fl_tree_read_upto(fl_tree_reader *r, size_t i, long long max, size_t *len,
			bool *large, bool *gone, bool *borrowed, fl_err *err);

/* Up to cap of file i's first bytes into out (a script's `#!` line, for a
 * name without an extension), how many; -1 when it cannot be read or is
 * not a regular file, or is an object-store blob over FL_HEAD_BLOB_MAX
 * (a blob is inflated whole to be read). */
#define FL_HEAD_BLOB_MAX (1 << 20)
long fl_tree_read_head(fl_tree_reader *r, size_t i, char *out, size_t cap);

#endif
