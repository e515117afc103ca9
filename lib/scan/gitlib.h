/*
 * gitlib.h — libgit2, loaded with dlopen() when a scan first meets a git
 * repository.  Linked into the binary, libgit2 and what it needs (mbedTLS,
 * libssh2, Kerberos ...) cost every `faultline` process about 4 ms of
 * dynamic linking at start, lookups and plain-folder scans included; a
 * scan of a repository now loads it on the thread that lists the tree
 * while the store opens (fl_scan_prewarm).  The header still gives the
 * types and constants.  zlib comes with it, found the same way.
 */
#ifndef FL_SCAN_GITLIB_H
#define FL_SCAN_GITLIB_H

#include <git2.h>

#include "faultline.h"

/* the libgit2 functions the scanner calls (tree.c, history.c), the config parser
 * enrich's providers are read with (enrich/config.c), and the clone and
 * remote listing of batch (corpus/fetch.c) */
#define FL_GIT_FUNCS(X)                                                       \
	X(clone) X(clone_options_init) X(remote_connect)                        \
	X(remote_create_detached) X(remote_disconnect) X(remote_free)           \
	X(remote_init_callbacks) X(remote_ls)                                   \
	X(blob_free) X(blob_lookup) X(blob_rawcontent) X(blob_rawsize)          \
	X(commit_tree) X(config_foreach) X(config_free) X(config_get_string)    \
	X(config_open_ondisk) X(error_clear) X(error_last) X(index_entry_stage) \
	X(index_entrycount) X(index_free)                                       \
	X(index_get_byindex) X(libgit2_init) X(libgit2_shutdown)                \
	X(object_free) X(object_id) X(object_peel) X(odb_free)                  \
	X(odb_read_header) X(oid_cpy) X(oid_tostr) X(reference_free)            \
	X(reference_is_branch) X(reference_name_to_id) X(reference_shorthand)   \
	X(repository_config_snapshot) X(repository_free) X(repository_head)    \
	X(repository_index) X(repository_is_bare) X(repository_odb)             \
	X(repository_open_bare) X(repository_open_ext) X(repository_path)       \
	X(repository_workdir) X(revparse_single) X(tree_entry_bypath)          \
	X(tree_entry_filemode) X(tree_entry_free) X(tree_entry_id)              \
	X(tree_entry_name) X(tree_entry_type) X(tree_free) X(tree_lookup)       \
	X(tree_walk)                                                            \
	/* the history scan (history.c) */                                      \
	X(diff_tree_to_tree) X(diff_num_deltas) X(diff_get_delta) X(diff_free)  \
	X(tag_foreach) X(object_lookup) X(object_type) X(object_type2string)   \
	X(repository_is_shallow) X(commit_time) X(oid_fromstr) X(libgit2_opts)

typedef struct fl_git_api {
#define FL_GIT_FIELD(name) __typeof__(git_##name) *name;
	FL_GIT_FUNCS(FL_GIT_FIELD)
#undef FL_GIT_FIELD
} fl_git_api;

/* The loaded library (once per process, from any thread), or NULL with
 * err saying why it could not be loaded. */
const fl_git_api *fl_git(fl_err *err);

/* zlib, which libgit2 has loaded with it: the scanner inflates loose
 * objects itself (tree.c says why). */
#include <zlib.h>
#define FL_Z_FUNCS(X) X(inflateInit_) X(inflate) X(inflateEnd)

typedef struct fl_z_api {
#define FL_Z_FIELD(name) __typeof__(name) *name;
	FL_Z_FUNCS(FL_Z_FIELD)
#undef FL_Z_FIELD
} fl_z_api;

/* After fl_git() loaded libgit2: zlib, or NULL when it could not be
 * loaded (loose objects are then read by libgit2). */
const fl_z_api *fl_zlib(void);

#endif
