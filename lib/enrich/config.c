/*
 * config.c — enrich's providers and settings from a git-config file
 * (enrich.md): [provider "NAME"] sections (type, command, url, model,
 * apiKeyEnv, timeout) and [enrich] (primary, fallback, jobs, batch), read
 * with libgit2's parser (loaded by scan/gitlib.c).  git lowercases section
 * and key names, so `apiKeyEnv` arrives as `apikeyenv`; a provider's name
 * (the subsection) keeps its case.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "enrich.h"
#include "../scan/gitlib.h"
#include "../util.h"

#define DEFAULT_TIMEOUT 600

/* the state of one load: the file's name, the result being filled, and
 * the first error met while iterating */
typedef struct loader {
	const char *path;
	fl_enrich_conf *c;
	fl_err *err;
	int rc;
} loader;

/* A positive decimal number no larger than max. */
static bool parse_int(const char *s, int max, int *out)
{
	if (!s || !*s)
		return false;
	errno = 0;
	char *end;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > max)
		return false;
	*out = (int)v;
	return true;
}

static fl_provider *provider_get(fl_enrich_conf *c, const char *name, size_t n)
{
	for (size_t i = 0; i < c->nproviders; i++)
		if (strlen(c->providers[i].name) == n &&
		    memcmp(c->providers[i].name, name, n) == 0)
			return &c->providers[i];
	c->providers = fl_xrealloc(c->providers, (c->nproviders + 1) * sizeof *c->providers);
	fl_provider *p = &c->providers[c->nproviders++];
	memset(p, 0, sizeof *p);
	p->name = fl_xstrndup(name, n);
	p->type = (fl_provider_type)-1;
	return p;
}

static void set_str(char **slot, const char *v)
{
	free(*slot);
	*slot = fl_xstrdup(v);
}

static int provider_key(loader *l, fl_provider *p, const char *key, const char *v)
{
	if (strcmp(key, "type") == 0) {
		if (strcmp(v, "command") == 0)
			p->type = FL_PROV_COMMAND;
		else if (strcmp(v, "openai") == 0)
			p->type = FL_PROV_OPENAI;
		else
			return fl_seterr(l->err, "%s: [provider \"%s\"] type: unknown type '%s' (command or openai)",
					 l->path, p->name, v);
	} else if (strcmp(key, "command") == 0) {
		set_str(&p->command, v);
	} else if (strcmp(key, "url") == 0) {
		set_str(&p->url, v);
	} else if (strcmp(key, "model") == 0) {
		set_str(&p->model, v);
	} else if (strcmp(key, "apikeyenv") == 0) {
		set_str(&p->api_key_env, v);
	} else if (strcmp(key, "timeout") == 0) {
		if (!parse_int(v, 86400, &p->timeout))
			return fl_seterr(l->err, "%s: [provider \"%s\"] timeout: '%s' is not a number of seconds (1 to 86400)",
					 l->path, p->name, v);
	} else {
		return fl_seterr(l->err, "%s: [provider \"%s\"] %s: unknown key (type, command, url, model, apiKeyEnv, timeout)",
				 l->path, p->name, key);
	}
	return 0;
}

static int enrich_key(loader *l, const char *key, const char *v)
{
	fl_enrich_conf *c = l->c;
	if (strcmp(key, "primary") == 0) {
		set_str(&c->primary, v);
	} else if (strcmp(key, "fallback") == 0) {
		set_str(&c->fallback, v);
	} else if (strcmp(key, "jobs") == 0) {
		if (!parse_int(v, 256, &c->jobs))
			return fl_seterr(l->err, "%s: [enrich] jobs: '%s' is not a number from 1 to 256",
					 l->path, v);
	} else if (strcmp(key, "batch") == 0) {
		if (!parse_int(v, 1000, &c->batch))
			return fl_seterr(l->err, "%s: [enrich] batch: '%s' is not a number from 1 to 1000",
					 l->path, v);
	} else {
		return fl_seterr(l->err, "%s: [enrich] %s: unknown key (primary, fallback, jobs, batch)",
				 l->path, key);
	}
	return 0;
}

/* One "section[.subsection].key = value" of the file; other sections
 * than provider and enrich belong to other commands. */
static int on_entry(const git_config_entry *e, void *ud)
{
	loader *l = ud;
	const char *name = e->name, *v = e->value ? e->value : "";
	const char *dot = strchr(name, '.'), *key = strrchr(name, '.');
	if (!dot)
		return 0;
	size_t slen = (size_t)(dot - name);
	if (slen == 6 && memcmp(name, "enrich", 6) == 0) {
		if (key != dot)
			l->rc = fl_seterr(l->err, "%s: [enrich \"%.*s\"]: the enrich section takes no name",
					  l->path, (int)(key - dot - 1), dot + 1);
		else
			l->rc = enrich_key(l, key + 1, v);
	} else if (slen == 8 && memcmp(name, "provider", 8) == 0) {
		if (key == dot || key == dot + 1)
			l->rc = fl_seterr(l->err, "%s: [provider] %s: a provider section needs a name: [provider \"NAME\"]",
					  l->path, key + 1);
		else
			l->rc = provider_key(l, provider_get(l->c, dot + 1, (size_t)(key - dot - 1)),
					     key + 1, v);
	}
	return l->rc < 0 ? -1 : 0;
}

static int check_provider(const char *path, fl_provider *p, fl_err *err)
{
	const char *miss = NULL;
	if ((int)p->type == -1)
		return fl_seterr(err, "%s: [provider \"%s\"] type: missing (command or openai)",
				 path, p->name);
	if (p->type == FL_PROV_COMMAND && !(p->command && *p->command))
		miss = "command";
	else if (p->type == FL_PROV_OPENAI && !(p->url && *p->url))
		miss = "url";
	else if (p->type == FL_PROV_OPENAI && !(p->model && *p->model))
		miss = "model";
	if (miss)
		return fl_seterr(err, "%s: [provider \"%s\"] %s: missing (a %s provider needs it)",
				 path, p->name, miss, p->type == FL_PROV_COMMAND ? "command" : "openai");
	if (p->type == FL_PROV_OPENAI && !fl_str_starts(p->url, "http://") &&
	    !fl_str_starts(p->url, "https://"))
		return fl_seterr(err, "%s: [provider \"%s\"] url: '%s' is not an http:// or https:// URL",
				 path, p->name, p->url);
	if (p->api_key_env && !*p->api_key_env)
		return fl_seterr(err, "%s: [provider \"%s\"] apiKeyEnv: empty (the name of an environment variable)",
				 path, p->name);
	if (!p->timeout)
		p->timeout = DEFAULT_TIMEOUT;
	return 0;
}

static int check_conf(const char *path, fl_enrich_conf *c, fl_err *err)
{
	for (size_t i = 0; i < c->nproviders; i++)
		if (check_provider(path, &c->providers[i], err) < 0)
			return -1;
	if (c->primary && !fl_enrich_conf_find(c, c->primary))
		return fl_seterr(err, "%s: [enrich] primary: no provider named '%s'", path, c->primary);
	if (c->fallback && !fl_enrich_conf_find(c, c->fallback))
		return fl_seterr(err, "%s: [enrich] fallback: no provider named '%s'", path, c->fallback);
	return 0;
}

static int parse_file(const char *path, fl_enrich_conf *c, fl_err *err)
{
	fl_err gerr;
	const fl_git_api *G = fl_git(&gerr);
	if (!G)
		return fl_seterr(err, "%s: cannot read the configuration: %s", path, gerr.msg);
	G->libgit2_init();
	git_config *cfg = NULL;
	loader l = {path, c, err, 0};
	int rc = G->config_open_ondisk(&cfg, path);
	if (rc == 0)
		rc = G->config_foreach(cfg, on_entry, &l);
	if (rc < 0 && l.rc == 0) {
		const git_error *e = G->error_last();
		fl_seterr(err, "%s: %s", path, e && e->message ? e->message : "cannot be read");
	}
	G->config_free(cfg);
	G->libgit2_shutdown();
	return rc < 0 ? -1 : 0;
}

int fl_enrich_conf_load(const char *path, bool missing_ok, fl_enrich_conf *out,
			fl_err *err)
{
	memset(out, 0, sizeof *out);
	struct stat st;
	if (stat(path, &st) < 0) {
		if (errno == ENOENT && missing_ok)
			return 0;
		return fl_seterr(err, "%s: %s", path, strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		return fl_seterr(err, "%s: not a regular file", path);
	if (parse_file(path, out, err) < 0 || check_conf(path, out, err) < 0) {
		fl_enrich_conf_free(out);
		return -1;
	}
	return 0;
}

void fl_enrich_conf_free(fl_enrich_conf *c)
{
	for (size_t i = 0; i < c->nproviders; i++) {
		fl_provider *p = &c->providers[i];
		free(p->name);
		free(p->command);
		free(p->url);
		free(p->model);
		free(p->api_key_env);
	}
	free(c->providers);
	free(c->primary);
	free(c->fallback);
	memset(c, 0, sizeof *c);
}

const fl_provider *fl_enrich_conf_find(const fl_enrich_conf *c, const char *name)
{
	for (size_t i = 0; i < c->nproviders; i++)
		if (strcmp(c->providers[i].name, name) == 0)
			return &c->providers[i];
	return NULL;
}
