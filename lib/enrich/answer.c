/*
 * answer.c — what a model's answer may hold: the fields of each phase
 * (enrich.md's writable list, typed by records.md), the JSON schema sent
 * to an OpenAI endpoint, the answer object found in a provider's output
 * (plain, after a preamble, fenced, or inside a chat completion or an
 * agent CLI's JSON envelope), and the check that turns it into patches.
 */
#include <stdio.h>
#include <string.h>

#include "enrich.h"
#include "../util.h"

/* a string's and an array's largest size in an answer: a model that
 * writes more is looping, not documenting */
#define MAX_STRING 8000
#define MAX_ITEMS 20
/* envelopes inside envelopes (a chat completion whose content is an
 * agent's envelope ...) */
#define MAX_DEPTH 4

typedef enum ftype {
	FT_TEXT,     /* non-empty string */
	FT_LIST,     /* array of non-empty strings */
	FT_OPTTEXT,  /* string or null */
	FT_SEVERITY, /* enum */
	FT_STRATEGY, /* enum or null */
	FT_TAGS,     /* array of tags */
	FT_BGTAG,    /* tag or null, not a generic word */
} ftype;

typedef struct field {
	const char *name;
	ftype type;
} field;

/* enrich.md's writable fields, in its order */
static const field fields[] = {
	{"documentation", FT_TEXT},     {"triggerScenarios", FT_TEXT},
	{"commonSituations", FT_TEXT},  {"solutions", FT_LIST},
	{"exampleFix", FT_OPTTEXT},     {"severity", FT_SEVERITY},
	{"handlingStrategy", FT_STRATEGY}, {"validationCode", FT_OPTTEXT},
	{"typeGuard", FT_OPTTEXT},      {"tryCatchPattern", FT_OPTTEXT},
	{"preventionTips", FT_LIST},    {"tags", FT_TAGS},
	{"backgroundTag", FT_BGTAG},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static const char *const enrich_fields[] = {
	"documentation", "triggerScenarios", "commonSituations", "solutions",
	"exampleFix"};
static const char *const defend_fields[] = {
	"handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern",
	"preventionTips"};
static const char *const verify_fields[] = {
	"documentation", "triggerScenarios", "commonSituations", "solutions",
	"exampleFix", "severity", "handlingStrategy", "validationCode",
	"typeGuard", "tryCatchPattern", "preventionTips", "tags",
	"backgroundTag"};

static const char *const severities[] = {"critical", "error", "warning", "info", NULL};
static const char *const strategies[] = {"try-catch", "type-guard", "validation",
					 "retry", "fallback", NULL};
static const char *const generic[] = {"error", "errors", "exception", "exceptions",
				      "failure", "failures", "unknown", NULL};

/* records.md's tag rule, ^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$, in the regex
 * dialect that grammar-constrained servers accept (no (?:) */
#define TAG_PATTERN "^[a-z][a-z0-9]*(-[a-z0-9]+)*$"

const char *fl_phase_name(fl_phase ph)
{
	switch (ph) {
	case FL_PHASE_ENRICH: return "enrich";
	case FL_PHASE_DEFEND: return "defend";
	case FL_PHASE_VERIFY: return "verify";
	default: return "?";
	}
}

const char *const *fl_phase_fields(fl_phase ph, size_t *n)
{
	switch (ph) {
	case FL_PHASE_ENRICH:
		*n = sizeof enrich_fields / sizeof enrich_fields[0];
		return enrich_fields;
	case FL_PHASE_DEFEND:
		*n = sizeof defend_fields / sizeof defend_fields[0];
		return defend_fields;
	default:
		*n = sizeof verify_fields / sizeof verify_fields[0];
		return verify_fields;
	}
}

static const field *find_field(const char *name)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (strcmp(fields[i].name, name) == 0)
			return &fields[i];
	return NULL;
}

static bool in_phase(fl_phase ph, const char *name)
{
	size_t n;
	const char *const *f = fl_phase_fields(ph, &n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(f[i], name) == 0)
			return true;
	return false;
}

static bool in_list(const char *s, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(s, list[i]) == 0)
			return true;
	return false;
}

/* ---- schema ---------------------------------------------------------- */

static json_t *enum_of(const char *const *list, bool nullable)
{
	json_t *a = json_array();
	for (size_t i = 0; list[i]; i++)
		json_array_append_new(a, json_string(list[i]));
	if (nullable)
		json_array_append_new(a, json_null());
	return a;
}

static json_t *string_schema(bool nullable, int min_len)
{
	json_t *s = nullable ? json_pack("{s:[ss]}", "type", "string", "null")
			     : json_pack("{s:s}", "type", "string");
	if (min_len)
		json_object_set_new(s, "minLength", json_integer(min_len));
	json_object_set_new(s, "maxLength", json_integer(MAX_STRING));
	return s;
}

static json_t *field_schema(const field *f)
{
	switch (f->type) {
	case FT_TEXT:
		return string_schema(false, 1);
	case FT_OPTTEXT:
		return string_schema(true, 0);
	case FT_LIST:
		return json_pack("{s:s, s:o, s:i}", "type", "array", "items",
				 string_schema(false, 1), "maxItems", MAX_ITEMS);
	case FT_SEVERITY:
		return json_pack("{s:s, s:o}", "type", "string", "enum",
				 enum_of(severities, false));
	case FT_STRATEGY:
		return json_pack("{s:[ss], s:o}", "type", "string", "null", "enum",
				 enum_of(strategies, true));
	case FT_TAGS:
		return json_pack("{s:s, s:{s:s, s:s}, s:i}", "type", "array", "items",
				 "type", "string", "pattern", TAG_PATTERN,
				 "maxItems", MAX_ITEMS);
	case FT_BGTAG:
		return json_pack("{s:[ss], s:s}", "type", "string", "null", "pattern",
				 TAG_PATTERN);
	}
	return json_object();
}

json_t *fl_phase_schema(fl_phase ph)
{
	size_t n;
	const char *const *names = fl_phase_fields(ph, &n);
	json_t *props = json_pack("{s:{s:s, s:s}}", "id", "type", "string",
				  "pattern", "^[0-9a-f]{16}$");
	json_t *req = json_pack("[s]", "id");
	for (size_t i = 0; i < n; i++) {
		json_object_set_new(props, names[i], field_schema(find_field(names[i])));
		/* a verify answer is a patch: only the fields it changes */
		if (ph != FL_PHASE_VERIFY)
			json_array_append_new(req, json_string(names[i]));
	}
	json_t *item = json_pack("{s:s, s:o, s:o, s:b}", "type", "object",
				 "properties", props, "required", req,
				 "additionalProperties", 0);
	return json_pack("{s:s, s:{s:{s:s, s:o}}, s:[s], s:b}", "type", "object",
			 "properties", "records", "type", "array", "items", item,
			 "required", "records", "additionalProperties", 0);
}

/* ---- extraction ------------------------------------------------------ */

static json_t *from_text(const char *text, size_t len, int depth, fl_err *err);

/* The text of a chat completion's message content: a string, or an array
 * of parts ({"type":"text","text":...}) joined. */
static json_t *from_content(json_t *content, bool cut, int depth, fl_err *err)
{
	json_t *r = NULL;
	if (json_is_string(content)) {
		r = from_text(json_string_value(content), json_string_length(content),
			      depth + 1, err);
	} else if (json_is_object(content)) {
		r = json_incref(content);
		if (!json_is_array(json_object_get(r, "records"))) {
			json_decref(r);
			r = NULL;
			fl_seterr(err, "the chat completion's message content has no \"records\" array");
		}
	} else if (json_is_array(content)) {
		fl_buf b = {0};
		size_t i;
		json_t *part;
		json_array_foreach(content, i, part) {
			json_t *t = json_object_get(part, "text");
			if (json_is_string(t))
				fl_buf_put(&b, json_string_value(t), json_string_length(t));
		}
		r = from_text(b.s ? b.s : "", b.n, depth + 1, err);
		fl_buf_free(&b);
	} else {
		fl_seterr(err, "the chat completion has no message content");
	}
	if (!r && cut)
		fl_seterr(err, "the answer is truncated JSON (the model stopped at its token limit: finish_reason \"length\")");
	return r;
}

/* v is the answer, or an envelope around it: the answer (new reference);
 * NULL with *is_env false when v is neither, NULL with err set when v is
 * an envelope whose content is no answer. */
static json_t *unwrap(json_t *v, int depth, bool *is_env, fl_err *err)
{
	*is_env = true;
	json_t *recs = json_object_get(v, "records");
	if (recs) {
		if (json_is_array(recs))
			return json_incref(v);
		fl_seterr(err, "the answer's \"records\" is not an array");
		return NULL;
	}
	json_t *choices = json_object_get(v, "choices");
	if (json_is_array(choices)) {
		json_t *c0 = json_array_get(choices, 0);
		const char *fin = json_string_value(json_object_get(c0, "finish_reason"));
		json_t *msg = json_object_get(c0, "message");
		return from_content(json_object_get(msg, "content"),
				    fin && strcmp(fin, "length") == 0, depth, err);
	}
	json_t *res = json_object_get(v, "result");
	if (json_is_string(res)) {
		if (json_is_true(json_object_get(v, "is_error"))) {
			fl_seterr(err, "the command reported an error: %.300s", json_string_value(res));
			return NULL;
		}
		return from_text(json_string_value(res), json_string_length(res), depth + 1, err);
	}
	*is_env = false;
	return NULL;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The whole text as JSON, else each '{' in turn as the start of an
 * object (text after it allowed: a fence's closing ```, an epilogue). */
static json_t *from_text(const char *text, size_t len, int depth, fl_err *err)
{
	if (depth > MAX_DEPTH) {
		fl_seterr(err, "the answer nests envelopes more than %d deep", MAX_DEPTH);
		return NULL;
	}
	while (len && is_space(text[len - 1]))
		len--;
	json_error_t je;
	bool is_env;
	json_t *v = json_loadb(text, len, 0, &je);
	if (json_is_object(v)) {
		json_t *r = unwrap(v, depth, &is_env, err);
		json_decref(v);
		if (r || is_env)
			return r;
		fl_seterr(err, "the answer has no \"records\" array");
		return NULL;
	}
	json_decref(v);
	bool seen = false;
	for (size_t i = 0; i < len; i++) {
		const char *p = memchr(text + i, '{', len - i);
		if (!p)
			break;
		i = (size_t)(p - text);
		v = json_loadb(p, len - i, JSON_DISABLE_EOF_CHECK, &je);
		if (!v) {
			if (json_error_code(&je) == json_error_premature_end_of_input) {
				fl_seterr(err, "the answer is truncated JSON (%s)", je.text);
				return NULL;
			}
			continue;
		}
		seen = true;
		json_t *r = unwrap(v, depth, &is_env, err);
		json_decref(v);
		if (r || is_env)
			return r;
		if (je.position > 0)
			i += (size_t)je.position - 1; /* past this object */
	}
	fl_seterr(err, seen ? "the answer has no JSON object with a \"records\" array"
			    : "no JSON object in the answer");
	return NULL;
}

json_t *fl_answer_extract(const char *text, size_t len, fl_err *err)
{
	if (!text || !len) {
		fl_seterr(err, "the answer is empty");
		return NULL;
	}
	return from_text(text, len, 0, err);
}

/* ---- check ----------------------------------------------------------- */

/* records.md's tag: ^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$ */
static bool is_tag(const char *s)
{
	if (!(s[0] >= 'a' && s[0] <= 'z'))
		return false;
	for (size_t i = 1; s[i]; i++) {
		bool an = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9');
		if (s[i] == '-') {
			char c = s[i + 1];
			if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
				return false;
		} else if (!an) {
			return false;
		}
	}
	return true;
}

static int check_string(json_t *v, bool nonempty, const char *id, const char *name,
			fl_err *err)
{
	if (!json_is_string(v))
		return fl_seterr(err, "record %s: %s: must be a string", id, name);
	size_t n = json_string_length(v);
	if (nonempty && n == 0)
		return fl_seterr(err, "record %s: %s: must not be empty", id, name);
	if (n > MAX_STRING)
		return fl_seterr(err, "record %s: %s: %zu bytes, over the %d allowed", id,
				 name, n, MAX_STRING);
	return 0;
}

static int check_list(json_t *v, bool tags, const char *id, const char *name,
		      fl_err *err)
{
	if (!json_is_array(v))
		return fl_seterr(err, "record %s: %s: must be an array of strings", id, name);
	if (json_array_size(v) > MAX_ITEMS)
		return fl_seterr(err, "record %s: %s: %zu items, over the %d allowed", id,
				 name, json_array_size(v), MAX_ITEMS);
	size_t i;
	json_t *it;
	json_array_foreach(v, i, it) {
		if (check_string(it, true, id, name, err) < 0)
			return -1;
		if (tags && !is_tag(json_string_value(it)))
			return fl_seterr(err, "record %s: %s: \"%.60s\" is not a kebab-case tag",
					 id, name, json_string_value(it));
	}
	return 0;
}

static int check_enum(json_t *v, const char *const *list, bool nullable,
		      const char *id, const char *name, fl_err *err)
{
	if (nullable && json_is_null(v))
		return 0;
	if (json_is_string(v) && in_list(json_string_value(v), list))
		return 0;
	fl_buf b = {0};
	for (size_t i = 0; list[i]; i++)
		fl_buf_printf(&b, "%s%s", i ? ", " : "", list[i]);
	fl_seterr(err, "record %s: %s: must be %sone of %s", id, name,
		  nullable ? "null or " : "", fl_buf_cstr(&b));
	fl_buf_free(&b);
	return -1;
}

static int check_value(const field *f, json_t *v, const char *id, fl_err *err)
{
	switch (f->type) {
	case FT_TEXT:
		return check_string(v, true, id, f->name, err);
	case FT_OPTTEXT:
		return json_is_null(v) ? 0 : check_string(v, false, id, f->name, err);
	case FT_LIST:
		return check_list(v, false, id, f->name, err);
	case FT_TAGS:
		return check_list(v, true, id, f->name, err);
	case FT_SEVERITY:
		return check_enum(v, severities, false, id, f->name, err);
	case FT_STRATEGY:
		return check_enum(v, strategies, true, id, f->name, err);
	case FT_BGTAG:
		if (json_is_null(v))
			return 0;
		if (!json_is_string(v) || !is_tag(json_string_value(v)) ||
		    in_list(json_string_value(v), generic))
			return fl_seterr(err, "record %s: %s: must be null or one specific kebab-case tag (not a generic word such as \"error\")",
					 id, f->name);
		return 0;
	}
	return 0;
}

static bool in_batch(const char *id, const char *const *ids, size_t nids)
{
	for (size_t i = 0; i < nids; i++)
		if (strcmp(ids[i], id) == 0)
			return true;
	return false;
}

/* One record of the answer into patches. */
static int check_record(json_t *rec, size_t k, fl_phase ph, const char *const *ids,
			size_t nids, json_t *patches, fl_err *err)
{
	if (!json_is_object(rec))
		return fl_seterr(err, "the answer's record %zu is not an object", k + 1);
	json_t *jid = json_object_get(rec, "id");
	if (!json_is_string(jid))
		return fl_seterr(err, "the answer's record %zu has no \"id\" string", k + 1);
	const char *id = json_string_value(jid);
	if (!in_batch(id, ids, nids))
		return fl_seterr(err, "record %.40s: id: not one of the records sent", id);
	if (json_object_get(patches, id))
		return fl_seterr(err, "record %s: id: appears twice in the answer", id);
	json_t *patch = json_object();
	json_object_set_new(patches, id, patch);
	const char *key;
	json_t *v;
	json_object_foreach(rec, key, v) {
		if (strcmp(key, "id") == 0)
			continue;
		const field *f = find_field(key);
		if (!f)
			return fl_seterr(err, "record %s: %.60s: not a field the model may write",
					 id, key);
		if (!in_phase(ph, key))
			continue; /* enrich.md: others are ignored */
		if (check_value(f, v, id, err) < 0)
			return -1;
		json_object_set(patch, key, v);
	}
	return 0;
}

int fl_answer_check(json_t *answer, fl_phase ph, const char *const *ids,
		    size_t nids, json_t **patches, fl_err *err)
{
	*patches = NULL;
	json_t *recs = json_object_get(answer, "records");
	if (!json_is_array(recs))
		return fl_seterr(err, "the answer has no \"records\" array");
	json_t *out = json_object();
	size_t i;
	json_t *rec;
	json_array_foreach(recs, i, rec) {
		if (check_record(rec, i, ph, ids, nids, out, err) < 0) {
			json_decref(out);
			return -1;
		}
	}
	*patches = out;
	return 0;
}
