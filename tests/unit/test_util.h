/*
 * test_util.h — shared helpers of the unit tests: a valid record to mutate.
 */
#ifndef FL_TEST_UTIL_H
#define FL_TEST_UTIL_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "faultline.h"

static inline bool fl_str_ends_test(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

/* A valid record (repo acme/widgets, the spec's first id example). */
static inline void make_entry_for(fl_entry *e, const char *repo,
				  const char *msg, const char *path, int line)
{
	memset(e, 0, sizeof *e);
	char id[17];
	fl_record_id(repo, NULL, msg, path, id);
	e->id = strdup(id);
	e->repo = strdup(repo);
	e->slug = fl_slug_base(msg);
	e->error_message = strdup(msg);
	e->message_pattern = fl_message_pattern(msg);
	e->error_type = strdup("panic");
	e->severity = strdup("critical");
	e->file_path = strdup(path);
	e->line_number = line;
	e->source_code = strdup("fn size() {\n    panic!(\"invalid widget size: {size}\");\n}");
	e->source_code_start = line - 1;
	e->source_code_end = line + 1;
	e->github_url = fl_permalink("github.com", repo,
		"0123456789abcdef0123456789abcdef01234567", path,
		e->source_code_start, e->source_code_end, NULL);
	e->documentation = strdup("`size` panics with this message.");
	e->trigger_scenarios = strdup("A call to `size` that reaches the panic.");
	e->common_situations = strdup("Seen as a panic on stderr.");
	fl_strv_push(&e->solutions, "Pass a valid size.");
	fl_strv_push(&e->tags, "rust");
	fl_strv_push(&e->tags, "panic");
	e->analyzed_sha = strdup("0123456789abcdef0123456789abcdef01234567");
	e->analyzed_at = strdup("2026-09-05T13:19:14.260Z");
	e->content_changed_at = strdup("2026-09-05T13:19:14.260Z");
	e->schema_version = 2;
}

static inline void make_entry(fl_entry *e)
{
	make_entry_for(e, "acme/widgets", "invalid widget size: {size}",
		       "src/size.rs", 20);
}

#endif
