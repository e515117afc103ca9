/*
 * test_enrich.c — enrich's parts below the run: the answer found in a
 * provider's output (plain, after a preamble, fenced, in a chat completion
 * or a command's envelope, truncated), the check of an answer against a
 * batch and a phase, the configuration file, and provider calls: commands
 * (output, exit status, timeout killing the process group, rate-limit
 * text, a 4 MiB prompt, several calls at once) and an OpenAI endpoint
 * played by a loopback HTTP server on a thread.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "faultline.h"
#include "enrich/enrich.h"

static char dir[64];

#define ID_A "0123456789abcdef"
#define ID_B "fedcba9876543210"
#define ID_C "00000000000000aa"

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char *path(const char *rel)
{
	char *s;
	if (asprintf(&s, "%s/%s", dir, rel) < 0)
		abort();
	return s;
}

/* ---- extract ---------------------------------------------------------- */

static json_t *extract_ok(const char *text)
{
	fl_err err = {{0}};
	json_t *a = fl_answer_extract(text, strlen(text), &err);
	if (!a)
		fprintf(stderr, "extract: %s\n", err.msg);
	assert_non_null(a);
	assert_true(json_is_array(json_object_get(a, "records")));
	return a;
}

static void extract_fails(const char *text, const char *want)
{
	fl_err err = {{0}};
	json_t *a = fl_answer_extract(text, strlen(text), &err);
	assert_null(a);
	if (!strstr(err.msg, want))
		fprintf(stderr, "extract error: %s (want %s)\n", err.msg, want);
	assert_non_null(strstr(err.msg, want));
}

static const char *first_id(json_t *a)
{
	return json_string_value(json_object_get(json_array_get(json_object_get(a, "records"), 0), "id"));
}

static void test_extract(void **state)
{
	(void)state;
	json_t *a = extract_ok("{\"records\": [{\"id\": \"" ID_A "\"}]}\n");
	assert_string_equal(first_id(a), ID_A);
	json_decref(a);

	a = extract_ok("Here is the answer you asked for:\n\n{\"records\": [{\"id\": \"" ID_A "\"}]}\nHope it helps.");
	assert_string_equal(first_id(a), ID_A);
	json_decref(a);

	a = extract_ok("Sure.\n```json\n{\"records\": [{\"id\": \"" ID_B "\"}]}\n```\n");
	assert_string_equal(first_id(a), ID_B);
	json_decref(a);

	/* the first '{' is prose, the second the answer */
	a = extract_ok("Use {braces} with care; { not json either.\n{\"records\": [{\"id\": \"" ID_B "\"}]}");
	assert_string_equal(first_id(a), ID_B);
	json_decref(a);

	/* an object before the answer that is not one */
	a = extract_ok("{\"note\": {\"x\": 1}} then {\"records\": [{\"id\": \"" ID_A "\"}]}");
	assert_string_equal(first_id(a), ID_A);
	json_decref(a);
}

static void test_extract_envelopes(void **state)
{
	(void)state;
	/* a chat completion whose content is fenced JSON */
	json_t *a = extract_ok(
		"{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"m\","
		"\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
		"\"```json\\n{\\\"records\\\": [{\\\"id\\\": \\\"" ID_A "\\\"}]}\\n```\"},"
		"\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}");
	assert_string_equal(first_id(a), ID_A);
	json_decref(a);

	/* content already an object */
	a = extract_ok("{\"choices\":[{\"message\":{\"content\":{\"records\":[{\"id\":\"" ID_B "\"}]}}}]}");
	assert_string_equal(first_id(a), ID_B);
	json_decref(a);

	/* claude -p --output-format json */
	a = extract_ok("{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
		       "\"result\":\"Here it is:\\n{\\\"records\\\":[{\\\"id\\\":\\\"" ID_B "\\\"}]}\","
		       "\"usage\":{\"input_tokens\":10,\"output_tokens\":20}}");
	assert_string_equal(first_id(a), ID_B);
	json_decref(a);

	extract_fails("{\"type\":\"result\",\"is_error\":true,\"result\":\"Credit balance too low\"}",
		      "Credit balance too low");
	extract_fails("{\"choices\":[{\"message\":{\"content\":\"{\\\"records\\\": [{\\\"id\\\": \\\"01\"},"
		      "\"finish_reason\":\"length\"}]}",
		      "token limit");
	extract_fails("{\"choices\":[{\"message\":{\"content\":null}}]}", "no message content");
}

static void test_extract_errors(void **state)
{
	(void)state;
	extract_fails("{\"records\": [{\"id\": \"" ID_A "\", \"documentation\": \"It me",
		      "truncated");
	extract_fails("Here you go: {\"records\": [{\"id\": \"" ID_A "\"}", "truncated");
	extract_fails("I cannot answer that.", "no JSON object");
	extract_fails("", "empty");
	extract_fails("{\"answer\": 1}", "no \"records\" array");
	extract_fails("{\"records\": {}}", "not an array");
	extract_fails("{\"x\": 1} and {\"y\": 2}", "no JSON object with a \"records\" array");
}

/* ---- check ------------------------------------------------------------ */

static const char *const batch[] = {ID_A, ID_B, ID_C};

static json_t *answer(const char *text)
{
	json_error_t je;
	json_t *a = json_loads(text, 0, &je);
	if (!a)
		fprintf(stderr, "test answer: %s\n", je.text);
	assert_non_null(a);
	return a;
}

static json_t *check_ok(fl_phase ph, const char *text)
{
	json_t *a = answer(text), *p = NULL;
	fl_err err = {{0}};
	int rc = fl_answer_check(a, ph, batch, 3, &p, &err);
	if (rc)
		fprintf(stderr, "check: %s\n", err.msg);
	assert_int_equal(rc, 0);
	assert_non_null(p);
	json_decref(a);
	return p;
}

/* rejected whole, the message naming each of want (NULL-ended) */
static void check_fails(fl_phase ph, const char *text, ...)
{
	json_t *a = answer(text), *p = (json_t *)1;
	fl_err err = {{0}};
	assert_int_equal(fl_answer_check(a, ph, batch, 3, &p, &err), -1);
	assert_null(p);
	va_list ap;
	va_start(ap, text);
	for (const char *w; (w = va_arg(ap, const char *));) {
		if (!strstr(err.msg, w))
			fprintf(stderr, "check error: %s (want %s)\n", err.msg, w);
		assert_non_null(strstr(err.msg, w));
	}
	va_end(ap);
	json_decref(a);
}

#define ENRICH_A                                                              \
	"{\"id\": \"" ID_A "\", \"documentation\": \"The size is out of range.\", " \
	"\"triggerScenarios\": \"size(0)\", \"commonSituations\": \"Config typos.\", " \
	"\"solutions\": [\"Pass a size above 0.\", \"Check the config.\"], \"exampleFix\": null}"

static void test_check_good(void **state)
{
	(void)state;
	json_t *p = check_ok(FL_PHASE_ENRICH,
		"{\"records\": [" ENRICH_A ", {\"id\": \"" ID_B "\", \"documentation\": \"B.\", "
		"\"triggerScenarios\": \"b()\", \"commonSituations\": \"Often.\", \"solutions\": [], "
		"\"exampleFix\": \"- a\\n+ b\"}]}");
	assert_int_equal(json_object_size(p), 2);
	json_t *pa = json_object_get(p, ID_A), *pb = json_object_get(p, ID_B);
	assert_string_equal(json_string_value(json_object_get(pa, "documentation")),
			    "The size is out of range.");
	assert_int_equal(json_array_size(json_object_get(pa, "solutions")), 2);
	assert_true(json_is_null(json_object_get(pa, "exampleFix")));
	assert_null(json_object_get(pa, "id"));
	assert_string_equal(json_string_value(json_object_get(pb, "exampleFix")), "- a\n+ b");
	/* ID_C was not answered: absent */
	assert_null(json_object_get(p, ID_C));
	json_decref(p);

	p = check_ok(FL_PHASE_DEFEND,
		"{\"records\": [{\"id\": \"" ID_C "\", \"handlingStrategy\": \"retry\", "
		"\"validationCode\": null, \"typeGuard\": \"if (x) {}\", \"tryCatchPattern\": null, "
		"\"preventionTips\": [\"Back off.\"]}]}");
	json_t *pc = json_object_get(p, ID_C);
	assert_int_equal(json_object_size(pc), 5);
	assert_string_equal(json_string_value(json_object_get(pc, "handlingStrategy")), "retry");
	json_decref(p);

	/* verify: a patch of any writable field */
	p = check_ok(FL_PHASE_VERIFY,
		"{\"records\": [{\"id\": \"" ID_A "\", \"severity\": \"warning\", "
		"\"tags\": [\"rust\", \"io-error\", \"http2\"], \"backgroundTag\": \"network-timeout\", "
		"\"documentation\": \"Better.\"}, {\"id\": \"" ID_B "\", \"backgroundTag\": null}]}");
	assert_int_equal(json_object_size(json_object_get(p, ID_A)), 4);
	assert_true(json_is_null(json_object_get(json_object_get(p, ID_B), "backgroundTag")));
	json_decref(p);
}

static void test_check_other_phase_ignored(void **state)
{
	(void)state;
	/* defend's fields in an enrich answer, even ill-formed ones, are not
	 * read (enrich.md) */
	json_t *p = check_ok(FL_PHASE_ENRICH,
		"{\"records\": [{\"id\": \"" ID_A "\", \"documentation\": \"D.\", "
		"\"handlingStrategy\": \"pray\", \"severity\": \"critical\", \"tags\": [\"Not A Tag\"]}]}");
	json_t *pa = json_object_get(p, ID_A);
	assert_int_equal(json_object_size(pa), 1);
	assert_non_null(json_object_get(pa, "documentation"));
	json_decref(p);

	/* a record with none of the phase's fields: an empty patch */
	p = check_ok(FL_PHASE_DEFEND, "{\"records\": [{\"id\": \"" ID_B "\"}]}");
	assert_int_equal(json_object_size(json_object_get(p, ID_B)), 0);
	json_decref(p);
}

static void test_check_rejects(void **state)
{
	(void)state;
	check_fails(FL_PHASE_ENRICH, "{\"records\": [" ENRICH_A ", {\"id\": \"1111111111111111\", \"documentation\": \"x\"}]}",
		    "1111111111111111", "id", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [" ENRICH_A ", " ENRICH_A "]}", ID_A, "twice", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [{\"id\": \"" ID_B "\", \"errorMessage\": \"new\"}]}",
		    ID_B, "errorMessage", NULL);
	check_fails(FL_PHASE_VERIFY, "{\"records\": [{\"id\": \"" ID_B "\", \"filePath\": \"x.c\"}]}",
		    ID_B, "filePath", NULL);
	check_fails(FL_PHASE_VERIFY, "{\"records\": [{\"id\": \"" ID_A "\", \"severity\": \"fatal\"}]}",
		    ID_A, "severity", "critical", NULL);
	check_fails(FL_PHASE_DEFEND, "{\"records\": [{\"id\": \"" ID_A "\", \"handlingStrategy\": \"pray\"}]}",
		    ID_A, "handlingStrategy", NULL);
	check_fails(FL_PHASE_VERIFY, "{\"records\": [{\"id\": \"" ID_A "\", \"tags\": [\"ok\", \"Bad_Tag\"]}]}",
		    ID_A, "tags", "Bad_Tag", NULL);
	check_fails(FL_PHASE_VERIFY, "{\"records\": [{\"id\": \"" ID_A "\", \"tags\": [\"trailing-\"]}]}",
		    ID_A, "tags", NULL);
	check_fails(FL_PHASE_VERIFY, "{\"records\": [{\"id\": \"" ID_C "\", \"backgroundTag\": \"errors\"}]}",
		    ID_C, "backgroundTag", NULL);
	check_fails(FL_PHASE_VERIFY, "{\"records\": [{\"id\": \"" ID_C "\", \"backgroundTag\": \"Net Error\"}]}",
		    ID_C, "backgroundTag", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [{\"id\": \"" ID_A "\", \"documentation\": \"\"}]}",
		    ID_A, "documentation", "empty", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [{\"id\": \"" ID_A "\", \"documentation\": 3}]}",
		    ID_A, "documentation", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [{\"id\": \"" ID_A "\", \"solutions\": \"one\"}]}",
		    ID_A, "solutions", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [{\"id\": \"" ID_A "\", \"solutions\": [\"a\", 2]}]}",
		    ID_A, "solutions", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [{\"id\": \"" ID_A "\", \"exampleFix\": 1}]}",
		    ID_A, "exampleFix", NULL);
	check_fails(FL_PHASE_DEFEND, "{\"records\": [{\"id\": \"" ID_A "\", \"preventionTips\": [\"\"]}]}",
		    ID_A, "preventionTips", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [{\"documentation\": \"x\"}]}", "id", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [\"" ID_A "\"]}", "not an object", NULL);
	check_fails(FL_PHASE_ENRICH, "{\"answer\": []}", "records", NULL);

	/* the caps: a string over 8000 bytes, an array over 20 items */
	char *big = malloc(8100);
	memset(big, 'x', 8050);
	big[8050] = 0;
	char *text;
	assert_true(asprintf(&text, "{\"records\": [{\"id\": \"" ID_A "\", \"documentation\": \"%s\"}]}", big) > 0);
	check_fails(FL_PHASE_ENRICH, text, ID_A, "documentation", NULL);
	free(text);
	free(big);
	check_fails(FL_PHASE_ENRICH, "{\"records\": [{\"id\": \"" ID_A "\", \"solutions\": "
		    "[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\",\"10\",\"11\",\"12\",\"13\","
		    "\"14\",\"15\",\"16\",\"17\",\"18\",\"19\",\"20\",\"21\"]}]}",
		    ID_A, "solutions", NULL);
}

static void test_phases_and_schema(void **state)
{
	(void)state;
	size_t n;
	assert_string_equal(fl_phase_name(FL_PHASE_ENRICH), "enrich");
	assert_string_equal(fl_phase_name(FL_PHASE_DEFEND), "defend");
	assert_string_equal(fl_phase_name(FL_PHASE_VERIFY), "verify");
	const char *const *f = fl_phase_fields(FL_PHASE_ENRICH, &n);
	assert_int_equal(n, 5);
	assert_string_equal(f[0], "documentation");
	f = fl_phase_fields(FL_PHASE_DEFEND, &n);
	assert_int_equal(n, 5);
	assert_string_equal(f[4], "preventionTips");
	f = fl_phase_fields(FL_PHASE_VERIFY, &n);
	assert_int_equal(n, 13);
	assert_string_equal(f[12], "backgroundTag");

	json_t *s = fl_phase_schema(FL_PHASE_ENRICH);
	assert_non_null(s);
	assert_string_equal(json_string_value(json_array_get(json_object_get(s, "required"), 0)), "records");
	json_t *item = json_object_get(json_object_get(json_object_get(s, "properties"), "records"), "items");
	json_t *props = json_object_get(item, "properties");
	assert_string_equal(json_string_value(json_object_get(json_object_get(props, "id"), "pattern")),
			    "^[0-9a-f]{16}$");
	assert_int_equal(json_array_size(json_object_get(item, "required")), 6);
	assert_string_equal(json_string_value(json_object_get(json_object_get(props, "solutions"), "type")),
			    "array");
	assert_null(json_object_get(props, "severity"));
	json_decref(s);

	s = fl_phase_schema(FL_PHASE_VERIFY);
	item = json_object_get(json_object_get(json_object_get(s, "properties"), "records"), "items");
	props = json_object_get(item, "properties");
	assert_int_equal(json_object_size(props), 14);
	assert_int_equal(json_array_size(json_object_get(item, "required")), 1);
	json_t *sev = json_object_get(json_object_get(props, "severity"), "enum");
	assert_int_equal(json_array_size(sev), 4);
	json_t *hs = json_object_get(json_object_get(props, "handlingStrategy"), "enum");
	assert_true(json_is_null(json_array_get(hs, 5)));
	json_decref(s);
}

/* ---- config ----------------------------------------------------------- */

static char *write_conf(const char *name, const char *text)
{
	char *p = path(name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

static void conf_fails(const char *text, const char *want1, const char *want2)
{
	char *p = write_conf("bad.conf", text);
	fl_enrich_conf c;
	fl_err err = {{0}};
	assert_int_equal(fl_enrich_conf_load(p, true, &c, &err), -1);
	if (!strstr(err.msg, want1) || !strstr(err.msg, want2) || !strstr(err.msg, p))
		fprintf(stderr, "config error: %s (want %s, %s)\n", err.msg, want1, want2);
	assert_non_null(strstr(err.msg, p));
	assert_non_null(strstr(err.msg, want1));
	assert_non_null(strstr(err.msg, want2));
	assert_int_equal(c.nproviders, 0);
	free(p);
}

static void test_config(void **state)
{
	(void)state;
	char *p = write_conf("good.conf",
		"# providers\n"
		"[provider \"local\"]\n"
		"\ttype = openai\n"
		"\turl = http://127.0.0.1:8080/v1\n"
		"\tmodel = qwen2.5-coder-7b\n"
		"\tapiKeyEnv = OPENAI_API_KEY\n"
		"\ttimeout = 120\n"
		"[provider \"Agent\"]\n"
		"\ttype = command\n"
		"\tcommand = claude -p --output-format json\n"
		"[core]\n"
		"\tbare = false\n"
		"[enrich]\n"
		"\tprimary = local\n"
		"\tfallback = Agent\n"
		"\tjobs = 4\n"
		"\tbatch = 10\n");
	fl_enrich_conf c;
	fl_err err = {{0}};
	int rc = fl_enrich_conf_load(p, false, &c, &err);
	if (rc)
		fprintf(stderr, "config: %s\n", err.msg);
	assert_int_equal(rc, 0);
	assert_int_equal(c.nproviders, 2);
	const fl_provider *l = fl_enrich_conf_find(&c, "local");
	assert_non_null(l);
	assert_int_equal(l->type, FL_PROV_OPENAI);
	assert_string_equal(l->url, "http://127.0.0.1:8080/v1");
	assert_string_equal(l->model, "qwen2.5-coder-7b");
	assert_string_equal(l->api_key_env, "OPENAI_API_KEY");
	assert_int_equal(l->timeout, 120);
	const fl_provider *a = fl_enrich_conf_find(&c, "Agent");
	assert_non_null(a);
	assert_ptr_equal(a, &c.providers[1]);
	assert_int_equal(a->type, FL_PROV_COMMAND);
	assert_string_equal(a->command, "claude -p --output-format json");
	assert_null(a->model);
	assert_int_equal(a->timeout, 600);
	assert_null(fl_enrich_conf_find(&c, "agent"));
	assert_string_equal(c.primary, "local");
	assert_string_equal(c.fallback, "Agent");
	assert_int_equal(c.jobs, 4);
	assert_int_equal(c.batch, 10);
	fl_enrich_conf_free(&c);
	free(p);

	/* no [enrich]: unset */
	p = write_conf("one.conf", "[provider \"x\"]\n\ttype = command\n\tcommand = cat\n");
	assert_int_equal(fl_enrich_conf_load(p, false, &c, &err), 0);
	assert_int_equal(c.nproviders, 1);
	assert_null(c.primary);
	assert_null(c.fallback);
	assert_int_equal(c.jobs, 0);
	assert_int_equal(c.batch, 0);
	fl_enrich_conf_free(&c);
	free(p);
}

static void test_config_errors(void **state)
{
	(void)state;
	conf_fails("[provider \"a\"]\n\tcommand = cat\n", "provider \"a\"", "type");
	conf_fails("[provider \"a\"]\n\ttype = grpc\n", "provider \"a\"", "grpc");
	conf_fails("[provider \"a\"]\n\ttype = openai\n\turl = http://x/v1\n", "provider \"a\"", "model");
	conf_fails("[provider \"a\"]\n\ttype = openai\n\tmodel = m\n", "provider \"a\"", "url");
	conf_fails("[provider \"a\"]\n\ttype = command\n", "provider \"a\"", "command");
	conf_fails("[provider \"a\"]\n\ttype = command\n\tcommand = cat\n\ttimeout = soon\n",
		   "provider \"a\"", "timeout");
	conf_fails("[provider \"a\"]\n\ttype = command\n\tcommand = cat\n\tapikey = X\n",
		   "provider \"a\"", "apikey");
	conf_fails("[provider \"a\"]\n\ttype = command\n\tcommand = cat\n[enrich]\n\tprimary = b\n",
		   "[enrich] primary", "'b'");
	conf_fails("[provider \"a\"]\n\ttype = command\n\tcommand = cat\n[enrich]\n\tfallback = z\n",
		   "[enrich] fallback", "'z'");
	conf_fails("[provider \"a\"]\n\ttype = command\n\tcommand = cat\n[enrich]\n\tjobs = 0\n",
		   "[enrich] jobs", "'0'");
	conf_fails("[provider]\n\ttype = command\n", "[provider]", "name");
	conf_fails("[provider \"a\"\n\ttype = command\n", "", "");

	/* missing: empty when allowed, an error otherwise */
	char *p = path("absent.conf");
	fl_enrich_conf c;
	fl_err err = {{0}};
	assert_int_equal(fl_enrich_conf_load(p, true, &c, &err), 0);
	assert_int_equal(c.nproviders, 0);
	assert_null(c.primary);
	fl_enrich_conf_free(&c);
	assert_int_equal(fl_enrich_conf_load(p, false, &c, &err), -1);
	assert_non_null(strstr(err.msg, p));
	free(p);
}

/* ---- command provider ------------------------------------------------- */

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* every child reaped */
static bool no_children(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

static fl_provider command(const char *cmd, int timeout)
{
	return (fl_provider){.name = "t", .type = FL_PROV_COMMAND, .command = (char *)cmd,
			     .timeout = timeout};
}

static void test_command_ok(void **state)
{
	(void)state;
	fl_provider p = command("cat", 10);
	fl_call c;
	fl_provider_call(&p, "{\"records\": []}\n", NULL, &c);
	assert_int_equal(c.status, FL_CALL_OK);
	assert_int_equal(c.len, 16);
	assert_string_equal(c.text, "{\"records\": []}\n");
	assert_int_equal(c.prompt_tokens, -1);
	assert_null(c.model);
	fl_call_free(&c);

	/* an agent CLI's envelope: its usage and model */
	p = command("cat >/dev/null; printf '%s' '{\"type\":\"result\",\"is_error\":false,"
		    "\"result\":\"{}\",\"usage\":{\"input_tokens\":12,\"output_tokens\":34},"
		    "\"modelUsage\":{\"claude-x\":{}}}'", 10);
	fl_provider_call(&p, "prompt", NULL, &c);
	assert_int_equal(c.status, FL_CALL_OK);
	assert_int_equal(c.prompt_tokens, 12);
	assert_int_equal(c.completion_tokens, 34);
	assert_string_equal(c.model, "claude-x");
	fl_call_free(&c);

	p = command("printf '%s' '{\"type\":\"result\",\"is_error\":true,\"result\":\"API Error: 529 Overloaded\"}'", 10);
	fl_provider_call(&p, "prompt", NULL, &c);
	assert_int_equal(c.status, FL_CALL_RATE_LIMITED);
	fl_call_free(&c);
}

static void test_command_failures(void **state)
{
	(void)state;
	fl_provider p = command("echo partial; echo 'model not found' >&2; exit 3", 10);
	fl_call c;
	fl_provider_call(&p, "x", NULL, &c);
	assert_int_equal(c.status, FL_CALL_FAILED);
	assert_non_null(strstr(c.errmsg, "status 3"));
	assert_non_null(strstr(c.errmsg, "model not found"));
	fl_call_free(&c);

	p = command("echo rate limit exceeded >&2; exit 1", 10);
	fl_provider_call(&p, "x", NULL, &c);
	assert_int_equal(c.status, FL_CALL_RATE_LIMITED);
	fl_call_free(&c);

	p = command("echo 'HTTP 429 Too Many Requests'; exit 1", 10);
	fl_provider_call(&p, "x", NULL, &c);
	assert_int_equal(c.status, FL_CALL_RATE_LIMITED);
	fl_call_free(&c);

	/* no stderr: the end of stdout says why */
	p = command("echo '{\"error\": \"bad request\"}'; exit 2", 10);
	fl_provider_call(&p, "x", NULL, &c);
	assert_int_equal(c.status, FL_CALL_FAILED);
	assert_non_null(strstr(c.errmsg, "status 2: {\"error\": \"bad request\"}"));
	fl_call_free(&c);

	p = command("/nonexistent/agent", 10);
	fl_provider_call(&p, "x", NULL, &c);
	assert_int_equal(c.status, FL_CALL_FAILED);
	assert_non_null(strstr(c.errmsg, "status 127"));
	assert_non_null(strstr(c.errmsg, "/nonexistent/agent"));
	fl_call_free(&c);

	p = command("kill -9 $$", 10);
	fl_provider_call(&p, "x", NULL, &c);
	assert_int_equal(c.status, FL_CALL_FAILED);
	assert_non_null(strstr(c.errmsg, "signal 9"));
	fl_call_free(&c);
	assert_true(no_children());
}

static bool process_gone(pid_t pid)
{
	for (int i = 0; i < 100; i++) {
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return true;
		/* dead but not yet reaped by its new parent */
		char sp[64], buf[256] = "";
		snprintf(sp, sizeof sp, "/proc/%d/stat", (int)pid);
		FILE *f = fopen(sp, "r");
		if (f) {
			size_t n = fread(buf, 1, sizeof buf - 1, f);
			buf[n] = 0;
			fclose(f);
			char *r = strrchr(buf, ')');
			if (r && r[1] == ' ' && (r[2] == 'Z' || r[2] == 'X'))
				return true;
		}
		usleep(20000);
	}
	return false;
}

static void test_command_timeout(void **state)
{
	(void)state;
	char *pidf = path("sleep.pid"), *cmd;
	assert_true(asprintf(&cmd, "sleep 30 & echo $! > '%s'; wait", pidf) > 0);
	fl_provider p = command(cmd, 1);
	fl_call c;
	double t0 = now_s();
	fl_provider_call(&p, "x", NULL, &c);
	double took = now_s() - t0;
	assert_int_equal(c.status, FL_CALL_TIMEOUT);
	assert_true(took >= 0.9 && took < 5);
	fl_call_free(&c);
	FILE *f = fopen(pidf, "r");
	assert_non_null(f);
	int pid = 0;
	assert_int_equal(fscanf(f, "%d", &pid), 1);
	fclose(f);
	assert_true(pid > 0);
	assert_true(process_gone((pid_t)pid));
	free(cmd);

	/* a command that ignores SIGTERM is killed after the grace */
	assert_true(asprintf(&cmd, "trap '' TERM; sleep 30 & echo $! > '%s'; wait", pidf) > 0);
	p = command(cmd, 1);
	t0 = now_s();
	fl_provider_call(&p, "x", NULL, &c);
	took = now_s() - t0;
	assert_int_equal(c.status, FL_CALL_TIMEOUT);
	assert_true(took < 6);
	fl_call_free(&c);
	f = fopen(pidf, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &pid), 1);
	fclose(f);
	assert_true(process_gone((pid_t)pid));
	free(cmd);
	free(pidf);
}

static void test_command_linger(void **state)
{
	(void)state;
	/* sh exits; a background process keeps stdout open: the output is
	 * taken after a grace of 2 s and the group killed, not the 30 s */
	char *pidf = path("linger.pid"), *cmd;
	assert_true(asprintf(&cmd, "sleep 30 & echo $! > '%s'; echo answer", pidf) > 0);
	fl_provider p = command(cmd, 20);
	fl_call c;
	double t0 = now_s();
	fl_provider_call(&p, "x", NULL, &c);
	assert_true(now_s() - t0 < 5);
	assert_int_equal(c.status, FL_CALL_OK);
	assert_string_equal(c.text, "answer\n");
	fl_call_free(&c);
	FILE *f = fopen(pidf, "r");
	int pid = 0;
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &pid), 1);
	fclose(f);
	assert_true(process_gone((pid_t)pid));
	free(cmd);
	free(pidf);
}

static char *big_prompt(size_t n)
{
	char *s = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		s[i] = (char)('a' + (i * 7 + i / 4096) % 26);
	s[n] = 0;
	return s;
}

static void test_command_big(void **state)
{
	(void)state;
	size_t n = 4u << 20;
	char *s = big_prompt(n);
	fl_provider p = command("cat", 30);
	fl_call c;
	fl_provider_call(&p, s, NULL, &c);
	assert_int_equal(c.status, FL_CALL_OK);
	assert_int_equal(c.len, n);
	assert_memory_equal(c.text, s, n);
	fl_call_free(&c);

	/* a command that reads none of it: no SIGPIPE, its output kept */
	p = command("echo done", 30);
	fl_provider_call(&p, s, NULL, &c);
	assert_int_equal(c.status, FL_CALL_OK);
	assert_string_equal(c.text, "done\n");
	fl_call_free(&c);
	free(s);
}

struct par {
	pthread_t th;
	char prompt[64];
	fl_call c;
};

static void *par_run(void *ud)
{
	struct par *a = ud;
	fl_provider p = command("cat; sleep 0.5", 30);
	fl_provider_call(&p, a->prompt, NULL, &a->c);
	return NULL;
}

static void test_command_parallel(void **state)
{
	(void)state;
	struct par ps[6];
	int fds = count_fds();
	double t0 = now_s();
	for (int i = 0; i < 6; i++) {
		snprintf(ps[i].prompt, sizeof ps[i].prompt, "call %d\n", i);
		assert_int_equal(pthread_create(&ps[i].th, NULL, par_run, &ps[i]), 0);
	}
	for (int i = 0; i < 6; i++) {
		pthread_join(ps[i].th, NULL);
		assert_int_equal(ps[i].c.status, FL_CALL_OK);
		assert_string_equal(ps[i].c.text, ps[i].prompt);
		fl_call_free(&ps[i].c);
	}
	/* at once, not one after the other */
	assert_true(now_s() - t0 < 2.5); /* one after the other: 3 s */
	/* no pipe left open, no zombie */
	assert_int_equal(count_fds(), fds);
	assert_true(no_children());
}

/* ---- openai provider against a loopback server ------------------------ */

enum srv_mode { SRV_OK, SRV_429, SRV_500, SRV_SILENT };

typedef struct srv {
	int lfd;
	int port;
	enum srv_mode mode;
	pthread_t th;
	char *request;      /* what the client sent */
	size_t rlen;
} srv;

static void send_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Headers and a Content-Length body. */
static void read_request(srv *s, int fd)
{
	size_t cap = 1 << 16, n = 0, want = 0;
	char *b = malloc(cap + 1);
	for (;;) {
		if (n == cap)
			b = realloc(b, (cap *= 2) + 1);
		ssize_t r = recv(fd, b + n, cap - n, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
		b[n] = 0;
		char *end = strstr(b, "\r\n\r\n");
		if (end && !want) {
			char *cl = strcasestr(b, "\r\nContent-Length:");
			want = (size_t)(end + 4 - b) + (cl && cl < end ? strtoul(cl + 17, NULL, 10) : 0);
		}
		if (want && n >= want)
			break;
	}
	b[n] = 0;
	s->request = b;
	s->rlen = n;
}

static void *srv_run(void *ud)
{
	srv *s = ud;
	int fd = accept(s->lfd, NULL, NULL);
	if (fd < 0)
		return NULL;
	read_request(s, fd);
	const char *resp = NULL;
	static const char ok_body[] =
		"{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"served-model\","
		"\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
		"\"content\":\"{\\\"records\\\":[{\\\"id\\\":\\\"" ID_A "\\\"}]}\"},\"finish_reason\":\"stop\"}],"
		"\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":7,\"total_tokens\":18}}";
	char buf[1024];
	switch (s->mode) {
	case SRV_OK:
		snprintf(buf, sizeof buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n%s", strlen(ok_body), ok_body);
		resp = buf;
		break;
	case SRV_429:
		resp = "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 2\r\nContent-Length: 0\r\n"
		       "Connection: close\r\n\r\n";
		break;
	case SRV_500:
		resp = "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\n"
		       "Content-Length: 31\r\nConnection: close\r\n\r\n"
		       "{\"error\":{\"message\":\"boom-42\"}}";
		break;
	case SRV_SILENT: {
		/* hold the connection until the client gives up */
		struct pollfd pf = {fd, POLLIN, 0};
		poll(&pf, 1, 8000);
		break;
	}
	}
	if (resp)
		send_all(fd, resp, strlen(resp));
	close(fd);
	return NULL;
}

static void srv_start(srv *s, enum srv_mode mode)
{
	memset(s, 0, sizeof *s);
	s->mode = mode;
	s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s->lfd >= 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	assert_int_equal(bind(s->lfd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(s->lfd, 4), 0);
	socklen_t al = sizeof a;
	getsockname(s->lfd, (struct sockaddr *)&a, &al);
	s->port = ntohs(a.sin_port);
	assert_int_equal(pthread_create(&s->th, NULL, srv_run, s), 0);
}

/* after the call: the server's thread has answered */
static void srv_join(srv *s)
{
	pthread_join(s->th, NULL);
}

static void srv_free(srv *s)
{
	close(s->lfd);
	free(s->request);
}

static fl_provider openai(int port, const char *suffix, const char *key_env, int timeout,
			  char *url, size_t ulen)
{
	snprintf(url, ulen, "http://127.0.0.1:%d%s", port, suffix);
	return (fl_provider){.name = "local", .type = FL_PROV_OPENAI, .url = url,
			     .model = "m1", .api_key_env = (char *)key_env, .timeout = timeout};
}

static void test_openai_ok(void **state)
{
	(void)state;
	srv s;
	srv_start(&s, SRV_OK);
	char url[128];
	setenv("FL_TEST_ENRICH_KEY", "sk-test-secret", 1);
	fl_provider p = openai(s.port, "/v1/", "FL_TEST_ENRICH_KEY", 10, url, sizeof url);
	json_t *schema = fl_phase_schema(FL_PHASE_ENRICH);
	fl_call c;
	fl_provider_call(&p, "document these\n", schema, &c);
	srv_join(&s);
	if (c.status != FL_CALL_OK)
		fprintf(stderr, "openai: %s\n", c.errmsg);
	assert_int_equal(c.status, FL_CALL_OK);
	assert_int_equal(c.prompt_tokens, 11);
	assert_int_equal(c.completion_tokens, 7);
	assert_string_equal(c.model, "served-model");
	fl_err err = {{0}};
	json_t *a = fl_answer_extract(c.text, c.len, &err);
	assert_non_null(a);
	assert_string_equal(first_id(a), ID_A);
	json_decref(a);
	fl_call_free(&c);

	/* the request */
	assert_non_null(s.request);
	assert_true(strncmp(s.request, "POST /v1/chat/completions HTTP/1.1\r\n", 36) == 0);
	assert_non_null(strcasestr(s.request, "\r\nAuthorization: Bearer sk-test-secret\r\n"));
	assert_non_null(strcasestr(s.request, "\r\nContent-Type: application/json\r\n"));
	char *body = strstr(s.request, "\r\n\r\n") + 4;
	json_t *b = json_loads(body, 0, NULL);
	assert_non_null(b);
	assert_string_equal(json_string_value(json_object_get(b, "model")), "m1");
	assert_int_equal(json_integer_value(json_object_get(b, "temperature")), 0);
	json_t *msgs = json_object_get(b, "messages");
	assert_int_equal(json_array_size(msgs), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 0), "role")), "system");
	assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 1), "content")),
			    "document these\n");
	json_t *rf = json_object_get(b, "response_format");
	assert_string_equal(json_string_value(json_object_get(rf, "type")), "json_schema");
	json_t *js = json_object_get(rf, "json_schema");
	assert_string_equal(json_string_value(json_object_get(js, "name")), "records");
	assert_true(json_equal(json_object_get(js, "schema"), schema));
	json_decref(b);
	json_decref(schema);
	srv_free(&s);

	/* the full URL as given; no key, no schema */
	srv_start(&s, SRV_OK);
	p = openai(s.port, "/api/chat/completions", NULL, 10, url, sizeof url);
	fl_provider_call(&p, "x", NULL, &c);
	srv_join(&s);
	assert_int_equal(c.status, FL_CALL_OK);
	fl_call_free(&c);
	assert_true(strncmp(s.request, "POST /api/chat/completions HTTP/1.1\r\n", 37) == 0);
	assert_null(strcasestr(s.request, "Authorization:"));
	assert_null(strstr(s.request, "response_format"));
	srv_free(&s);
}

static void test_openai_errors(void **state)
{
	(void)state;
	srv s;
	char url[128];
	fl_call c;
	setenv("FL_TEST_ENRICH_KEY", "sk-test-secret", 1);

	srv_start(&s, SRV_429);
	fl_provider p = openai(s.port, "/v1", "FL_TEST_ENRICH_KEY", 10, url, sizeof url);
	fl_provider_call(&p, "x", NULL, &c);
	srv_join(&s);
	assert_int_equal(c.status, FL_CALL_RATE_LIMITED);
	assert_int_equal(c.retry_after, 2);
	assert_non_null(strstr(c.errmsg, "429"));
	fl_call_free(&c);
	srv_free(&s);

	srv_start(&s, SRV_500);
	p = openai(s.port, "/v1", "FL_TEST_ENRICH_KEY", 10, url, sizeof url);
	fl_provider_call(&p, "x", NULL, &c);
	srv_join(&s);
	assert_int_equal(c.status, FL_CALL_FAILED);
	assert_non_null(strstr(c.errmsg, "500"));
	assert_non_null(strstr(c.errmsg, "boom-42"));
	assert_null(strstr(c.errmsg, "sk-test-secret"));
	fl_call_free(&c);
	srv_free(&s);

	srv_start(&s, SRV_SILENT);
	p = openai(s.port, "/v1", "FL_TEST_ENRICH_KEY", 1, url, sizeof url);
	double t0 = now_s();
	fl_provider_call(&p, "x", NULL, &c);
	double took = now_s() - t0;
	srv_join(&s);
	assert_int_equal(c.status, FL_CALL_TIMEOUT);
	assert_true(took >= 0.9 && took < 5);
	fl_call_free(&c);
	srv_free(&s);

	/* a closed port */
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	socklen_t al = sizeof a;
	getsockname(fd, (struct sockaddr *)&a, &al);
	close(fd);
	p = openai(ntohs(a.sin_port), "/v1", "FL_TEST_ENRICH_KEY", 5, url, sizeof url);
	fl_provider_call(&p, "x", NULL, &c);
	assert_int_equal(c.status, FL_CALL_FAILED);
	assert_non_null(strstr(c.errmsg, url));
	assert_null(strstr(c.errmsg, "sk-test-secret"));
	fl_call_free(&c);

	/* the key's variable unset: no request */
	unsetenv("FL_TEST_ENRICH_KEY");
	p = openai(ntohs(a.sin_port), "/v1", "FL_TEST_ENRICH_KEY", 5, url, sizeof url);
	fl_provider_call(&p, "x", NULL, &c);
	assert_int_equal(c.status, FL_CALL_FAILED);
	assert_non_null(strstr(c.errmsg, "FL_TEST_ENRICH_KEY"));
	assert_non_null(strstr(c.errmsg, "not set"));
	assert_null(c.text);
	fl_call_free(&c);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/fl-test-enrich-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extract),
		cmocka_unit_test(test_extract_envelopes),
		cmocka_unit_test(test_extract_errors),
		cmocka_unit_test(test_check_good),
		cmocka_unit_test(test_check_other_phase_ignored),
		cmocka_unit_test(test_check_rejects),
		cmocka_unit_test(test_phases_and_schema),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_command_ok),
		cmocka_unit_test(test_command_failures),
		cmocka_unit_test(test_command_timeout),
		cmocka_unit_test(test_command_linger),
		cmocka_unit_test(test_command_big),
		cmocka_unit_test(test_command_parallel),
		cmocka_unit_test(test_openai_ok),
		cmocka_unit_test(test_openai_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
