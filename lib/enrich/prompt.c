/*
 * prompt.c — the text a provider receives for one call: what faultline
 * asks (the phase, its fields and their rules), the answer format
 * (enrich.md), and the batch's records, one compact JSON object per line
 * with their facts, their source window and the text they have now.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enrich.h"
#include "prompt.h"
#include "../json_internal.h"
#include "../util.h"

/* What each field a model may write must hold (records.md), as told. */
static const struct {
	const char *name, *what;
} FIELD_HELP[] = {
	{"documentation", "string, non-empty: what the error means and why the code raises it, "
	 "in the words of the code (the function, what it was doing, the condition that led "
	 "here stated the right way round, what the placeholders stand for)"},
	{"triggerScenarios", "string, non-empty: the concrete calls, inputs or states that "
	 "produce it"},
	{"commonSituations", "string, non-empty: the real-world situations in which people "
	 "meet it"},
	{"solutions", "array of non-empty strings, most likely fix first, at least two"},
	{"exampleFix", "string or null: a short before/after code example in the record's "
	 "language"},
	{"severity", "one of \"critical\", \"error\", \"warning\", \"info\""},
	{"handlingStrategy", "one of \"try-catch\", \"type-guard\", \"validation\", \"retry\", "
	 "\"fallback\", or null"},
	{"validationCode", "string or null: a check a caller can make before the call, in the "
	 "record's language, with the names from the code; null when there is none"},
	{"typeGuard", "string or null: a type or shape check a caller can make first; null when "
	 "there is none"},
	{"tryCatchPattern", "string or null: how a caller handles this error in its language, "
	 "naming the real class, code or variant"},
	{"preventionTips", "array of non-empty strings"},
	{"tags", "array of kebab-case tags (^[a-z][a-z0-9]*(-[a-z0-9]+)*$)"},
	{"backgroundTag", "one kebab-case tag naming the error's family across libraries "
	 "(such as invalid-argument, not-found, io-error, unsupported), never a generic word "
	 "(error, exception, failure, unknown), or null"},
};

static const char *field_help(const char *name)
{
	for (size_t i = 0; i < sizeof FIELD_HELP / sizeof FIELD_HELP[0]; i++)
		if (strcmp(FIELD_HELP[i].name, name) == 0)
			return FIELD_HELP[i].what;
	return "";
}

static const char *const TASK[FL_NPHASES] = {
	"Explain each error below to a developer who has just seen its message: what it "
	"means, what produces it, where people meet it, and how to fix it. Improve on the "
	"draft text the record has now; keep what is right in it.",
	"Tell a developer who calls this code how to defend against each error below: "
	"the strategy, a check to make first, how to catch or test for it in the record's "
	"language, and how to prevent it.",
	"Check each record below against its source window: is every field true of the "
	"code shown, and useful? Answer with patches: for a record that has a wrong, "
	"misleading or empty field, only the corrected fields; leave out every record "
	"that is right (an empty list means all are right).",
};

/* The keys of a record's facts, in the order they are shown. */
static const char *const FACT_KEYS[] = {
	"repo", "errorMessage", "errorType", "errorClass", "errorCode", "httpStatus",
	"filePath", "lineNumber",
};

char *fl_prompt_build(fl_phase ph, json_t *const *records, const fl_prompt_facts *facts,
		      size_t n)
{
	fl_buf b = {0};
	fl_buf_printf(&b,
		"You write the part of error records that people read, for faultline, a "
		"knowledge base of the errors programs raise. Each record is one place in a "
		"program's source code that raises an error: its message, where it is, the "
		"code around it (sourceCode, starting at line sourceCodeStart; the raising "
		"line is lineNumber) and the text the record has now.\n\n"
		"Phase: %s\n\n%s\n\nFields to write for each record:\n",
		fl_phase_name(ph), TASK[ph]);
	size_t nf;
	const char *const *fields = fl_phase_fields(ph, &nf);
	for (size_t i = 0; i < nf; i++)
		fl_buf_printf(&b, "- %s: %s\n", fields[i], field_help(fields[i]));
	fl_buf_printf(&b,
		"\nRules: say only what the code shown supports; use the real names of "
		"functions, classes, codes and values from the code; plain sentences, no "
		"Markdown headings; never write any other field (the message, pattern, "
		"location and ids are fixed). A record you cannot answer for may be left out.\n\n"
		"Answer with one JSON object and nothing else:\n"
		"{\"records\": [{\"id\": \"<the record's 16 hex id>\"");
	for (size_t i = 0; i < nf && i < 2; i++)
		fl_buf_printf(&b, ", \"%s\": ...", fields[i]);
	fl_buf_printf(&b, "%s}]}\n\nRecords (one JSON object per line):\n",
		      nf > 2 ? ", ..." : "");
	for (size_t i = 0; i < n; i++) {
		json_t *r = records[i], *o = json_object();
		json_object_set(o, "id", json_object_get(r, "id"));
		for (size_t k = 0; k < sizeof FACT_KEYS / sizeof FACT_KEYS[0]; k++) {
			json_t *v = json_object_get(r, FACT_KEYS[k]);
			if (v && !json_is_null(v))
				json_object_set(o, FACT_KEYS[k], v);
		}
		const fl_prompt_facts *f = &facts[i];
		if (f->language)
			json_object_set_new(o, "language", json_string(f->language));
		if (f->function)
			json_object_set_new(o, "function", json_string(f->function));
		if (f->guard)
			json_object_set_new(o, "guard", json_string(f->guard));
		if (f->idiom)
			json_object_set_new(o, "idiom", json_string(f->idiom));
		json_t *now = json_object();
		size_t nall;
		const char *const *all = fl_phase_fields(FL_PHASE_VERIFY, &nall);
		for (size_t k = 0; k < nall; k++) {
			json_t *v = json_object_get(r, all[k]);
			if (v)
				json_object_set(now, all[k], v);
		}
		json_object_set_new(o, "current", now);
		json_t *sc = json_object_get(r, "sourceCodeStart");
		if (sc && !json_is_null(sc)) {
			json_object_set(o, "sourceCodeStart", sc);
			json_object_set(o, "sourceCode", json_object_get(r, "sourceCode"));
		}
		char *line = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
		json_decref(o);
		if (line) {
			fl_buf_put(&b, line, strlen(line));
			fl_buf_put(&b, "\n", 1);
			free(line);
		}
	}
	fl_buf_cstr(&b);
	return b.s;
}
