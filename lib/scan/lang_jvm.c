/* lang_jvm.c — placeholder until the jvm family lands (being written now). */
#include "lang.h"

static const char *const exts[] = {NULL};
static void scan(const void *tree, const fl_src *src, fl_sites *out)
{
	(void)tree; (void)src; (void)out;
}
const fl_lang fl_lang_jvm = {.name = "jvm", .extensions = exts, .scan = scan};
