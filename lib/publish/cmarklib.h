/*
 * cmarklib.h — cmark-gfm and its extensions, loaded with dlopen() when a
 * Markdown field is first rendered (the site).  Linked into the binary,
 * the two libraries were loaded and relocated at the start of every
 * `faultline` process, a cold `explain` among them, which renders none.
 * The headers still give the types and constants.
 */
#ifndef FL_PUBLISH_CMARKLIB_H
#define FL_PUBLISH_CMARKLIB_H

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

/* the cmark-gfm functions faultline calls (cmark_ prefix) */
#define FL_CMARK_FUNCS(X)                                                      \
	X(parser_new) X(parser_attach_syntax_extension) X(parser_feed)          \
	X(parser_finish) X(parser_get_syntax_extensions) X(parser_free)         \
	X(render_html) X(find_syntax_extension) X(iter_new) X(iter_next)        \
	X(iter_get_node) X(iter_free) X(node_get_type) X(node_get_literal)      \
	X(node_set_literal) X(node_new) X(node_append_child)                    \
	X(node_insert_before) X(node_free)

typedef struct fl_cmark_api {
#define FL_CMARK_FIELD(name) __typeof__(cmark_##name) *name;
	FL_CMARK_FUNCS(FL_CMARK_FIELD)
#undef FL_CMARK_FIELD
	/* from the extensions library */
	__typeof__(cmark_gfm_core_extensions_ensure_registered) *core_extensions_ensure_registered;
} fl_cmark_api;

/* The loaded libraries (once per process, from any thread).  A site
 * cannot be rendered without them: when they cannot be loaded the process
 * says why and exits (status 1), as the dynamic linker would have. */
const fl_cmark_api *fl_cmark(void);

#endif
