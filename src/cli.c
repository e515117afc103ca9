/*
 * cli.c — option parsing, error printing and store opening shared by the
 * subcommands.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_fail(int status, const char *fmt, ...)
{
	va_list ap;
	fputs("faultline: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

int cli_parse(int argc, char **argv, const cli_opt *opts, const char *usage,
	      const char **pos, int maxpos, int *npos)
{
	*npos = 0;
	bool only_pos = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_pos || a[0] != '-' || strcmp(a, "-") == 0) {
			if (*npos >= maxpos)
				return cli_fail(EXIT_USAGE, "%s: unexpected argument '%s'\nusage: %s",
						argv[0], a, usage);
			pos[(*npos)++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = true;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			printf("usage: %s\n", usage);
			return -1;
		}
		if (a[1] != '-')
			return cli_fail(EXIT_USAGE, "%s: unknown option '%s'\nusage: %s",
					argv[0], a, usage);
		const char *name = a + 2;
		const char *eq = strchr(name, '=');
		size_t nl = eq ? (size_t)(eq - name) : strlen(name);
		const cli_opt *o = NULL;
		for (const cli_opt *p = opts; p && p->name; p++)
			if (strlen(p->name) == nl && strncmp(p->name, name, nl) == 0)
				o = p;
		if (!o)
			return cli_fail(EXIT_USAGE, "%s: unknown option '--%.*s'\nusage: %s",
					argv[0], (int)nl, name, usage);
		if (!o->takes_value) {
			if (eq)
				return cli_fail(EXIT_USAGE, "%s: option '--%s' takes no value",
						argv[0], o->name);
			*o->flag = true;
			continue;
		}
		const char *v = eq ? eq + 1 : NULL;
		if (!v) {
			if (i + 1 >= argc)
				return cli_fail(EXIT_USAGE, "%s: option '--%s' needs a value",
						argv[0], o->name);
			v = argv[++i];
		}
		if (o->list) {
			if (*o->list_n >= o->list_max)
				return cli_fail(EXIT_USAGE, "%s: too many '--%s' options",
						argv[0], o->name);
			o->list[(*o->list_n)++] = v;
		} else {
			*o->value = v;
		}
	}
	return 0;
}

fl_store *cli_open_store(const char *db, bool readonly)
{
	char *path = db ? strdup(db) : fl_store_default_path();
	fl_store *st = NULL;
	fl_err err;
	if (fl_store_open(path, readonly, &st, &err) < 0) {
		cli_fail(1, "%s", err.msg);
		st = NULL;
	}
	free(path);
	return st;
}
