/*
 * test_cli_doc.c — the manual pages and completions of src/cli_doc.c: roff
 * escaping, and the pages and scripts made from a made-up command's help.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_doc.h"

static void esc_is(const char *in, const char *want)
{
	char *got = cli_roff_escape(in, strlen(in));
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_escape(void **state)
{
	(void)state;
	esc_is("plain words", "plain words");
	esc_is("--db FILE", "\\-\\-db FILE");
	esc_is("a\\b", "a\\eb");
	/* a '.' or '\'' that starts a line would be a request */
	esc_is(".SH evil", "\\&.SH evil");
	esc_is("x\n.TH y", "x\n\\&.TH y");
	esc_is("'br", "\\&\\(aqbr");
	esc_is("a.b 'c' `d`", "a.b \\(aqc\\(aq \\(gad\\(ga");
	/* not ASCII: named by code point, so no input encoding is assumed */
	esc_is("caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80", "caf\\[u00E9] \\[u2014] \\[u1F600]");
	/* a stray byte, an overlong form, a cut sequence: U+FFFD */
	esc_is("a\xff" "b", "a\\[uFFFD]b");
	esc_is("\xc0\xaf", "\\[uFFFD]\\[uFFFD]");
	esc_is("end\xe2\x80", "end\\[uFFFD]\\[uFFFD]");
	esc_is("", "");
	/* the worst growth: stray bytes, 8 output bytes each */
	char *got = cli_roff_escape("\xff\xff\xff\xff", 4);
	assert_string_equal(got, "\\[uFFFD]\\[uFFFD]\\[uFFFD]\\[uFFFD]");
	free(got);
	/* n bytes only */
	got = cli_roff_escape("ab-cd", 2);
	assert_string_equal(got, "ab");
	free(got);
}

static const char *val_a, *val_b, *list_v[4];
static bool flag_v;
static int list_n;

static const cli_help HELP = {
	.name = "frob",
	.synopsis = "faultline frob [--db FILE] [--out DIR] [--json]\n"
		    "               [--tag T]... ITEM | -",
	.about = ".starts with a dot and a back\\slash.\n\n"
		 "A list:\n"
		 "  - one item\n"
		 "    its continuation\n"
		 "then text again.\n\n"
		 "Exit status: 0 done, 4 when frobbed.\n\n"
		 "A last paragraph.",
	.examples = {
		{"faultline frob --json x", "Frob x, as JSON."},
		{"faultline frob 'y'", "Frob y."},
	},
};

static cli_opt OPTS[] = {
	CLI_VAL("db", val_a, "FILE", "the store (default: none)"),
	CLI_VAL("out", val_b, "DIR", "where to write; made when missing (default: here)"),
	CLI_FLAG("json", flag_v, "print JSON (default: text)"),
	CLI_LIST("tag", list_v, list_n, "T", "a tag, repeatable (default: none)"),
};

static const cli_top TOP = {
	.summary = "the top",
	.synopsis = "faultline <command>",
	.about = "About.",
	.store = "The store.",
	.exit_status = "0 done, 1 failed, 2 wrong usage (explain: 3 no match).",
	.exit_command = "0 done, 1 failed, 2 wrong usage.",
};

/* not inlined: gcc 12 then takes the page for a pointer to the local
 * `buf` (-Wdangling-pointer), though open_memstream's buffer is the heap's */
__attribute__((noinline)) static char *render(void (*fn)(FILE *, const cli_doc_cmd *),
					      const cli_doc_cmd *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, c);
	fclose(f);
	return buf;
}

static void man_cmd(FILE *f, const cli_doc_cmd *c)
{
	cli_man_cmd(f, &TOP, c);
}

static const cli_doc_cmd CMD = {
	.name = "frob", .summary = "frob things", .help = &HELP,
	.opts = OPTS, .nopts = sizeof OPTS / sizeof OPTS[0],
};

/* the text between the line "from" and the next ".SH" */
static char *section(const char *page, const char *from)
{
	const char *s = strstr(page, from);
	assert_non_null(s);
	s += strlen(from);
	const char *e = strstr(s, ".SH ");
	return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

static void test_man_page(void **state)
{
	(void)state;
	char *page = render(man_cmd, &CMD);
	assert_non_null(strstr(page, ".TH FAULTLINE\\-FROB 1 \"\" \"faultline " FL_VERSION "\""));
	assert_non_null(strstr(page, ".SH NAME\nfaultline\\-frob \\- frob things\n"));
	assert_non_null(strstr(page, ".SH SYNOPSIS\n.nf\nfaultline frob [\\-\\-db FILE] [\\-\\-out DIR]"
				     " [\\-\\-json]\n               [\\-\\-tag T]... ITEM | \\-\n.fi\n"));
	char *desc = section(page, ".SH DESCRIPTION\n");
	/* a paragraph that starts with a dot is text, not a request */
	assert_non_null(strstr(desc, ".PP\n\\&.starts with a dot and a back\\eslash.\n"));
	/* verbatim lines kept as they are, in no-fill, two columns in */
	assert_non_null(strstr(desc, "A list:\n.RS 2\n.nf\n\\- one item\n  its continuation\n"
				     ".fi\n.RE\nthen text again.\n"));
	/* the exit status is under EXIT STATUS, not in the description */
	assert_null(strstr(desc, "Exit status"));
	assert_non_null(strstr(desc, ".PP\nA last paragraph.\n"));
	free(desc);
	char *opts = section(page, ".SH OPTIONS\n");
	assert_non_null(strstr(opts, ".TP\n\\fB\\-\\-db\\fR \\fIFILE\\fR\nthe store (default: none)\n"));
	assert_non_null(strstr(opts, ".TP\n\\fB\\-\\-json\\fR\nprint JSON (default: text)\n"));
	assert_non_null(strstr(opts, ".TP\n\\fB\\-\\-tag\\fR \\fIT\\fR...\n"));
	assert_non_null(strstr(opts, "\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nthis help\n"));
	free(opts);
	char *ex = section(page, ".SH EXAMPLES\n");
	assert_non_null(strstr(ex, "\\fBfaultline frob \\-\\-json x\\fR\n"));
	assert_non_null(strstr(ex, "\\fBfaultline frob \\(aqy\\(aq\\fR\n"));
	free(ex);
	char *st = section(page, ".SH EXIT STATUS\n");
	assert_string_equal(st, ".PP\n0 done, 4 when frobbed.\n");
	free(st);
	assert_non_null(strstr(page, ".SH SEE ALSO\n.BR faultline (1)\n"));
	/* no line of the page starts with a stray dot or quote */
	for (const char *l = page; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (*l == '.' || *l == '\'')
			assert_true(strncmp(l, ".\\\"", 3) == 0 || (l[1] >= 'A' && l[1] <= 'Z') ||
				    strncmp(l, ".nh", 3) == 0 || strncmp(l, ".ad", 3) == 0 ||
				    strncmp(l, ".nf", 3) == 0 || strncmp(l, ".fi", 3) == 0);
	}
	free(page);

	/* a help without exit status: the commands' common one */
	cli_help h2 = HELP;
	h2.about = "Plain.";
	cli_doc_cmd c2 = CMD;
	c2.help = &h2;
	page = render(man_cmd, &c2);
	st = section(page, ".SH EXIT STATUS\n");
	assert_string_equal(st, ".PP\n0 done, 1 failed, 2 wrong usage.\n");
	free(st);
	free(page);
}

static void bash_script(FILE *f, const cli_doc_cmd *c)
{
	assert_int_equal(cli_completion(f, "bash", c, 1), 0);
}

static void zsh_script(FILE *f, const cli_doc_cmd *c)
{
	assert_int_equal(cli_completion(f, "zsh", c, 1), 0);
}

static void fish_script(FILE *f, const cli_doc_cmd *c)
{
	assert_int_equal(cli_completion(f, "fish", c, 1), 0);
}

static void test_completions(void **state)
{
	(void)state;
	char *s = render(bash_script, &CMD);
	/* options; a FILE's are files, a DIR's folders; ITEM is no file */
	assert_non_null(strstr(s, "\tfrob) opts='--db --out --json --tag'; files='--db'; dirs='--out';"
				  " values='--db --out --tag'; words=''; operands=none ;;\n"));
	free(s);
	s = render(zsh_script, &CMD);
	assert_non_null(strstr(s, "'frob:frob things'"));
	assert_non_null(strstr(s, "'--db=[the store]:FILE:_files'"));
	assert_non_null(strstr(s, "'--out=[where to write]:DIR:_files -/'"));
	assert_non_null(strstr(s, "'--json[print JSON]'"));
	assert_non_null(strstr(s, "'*--tag=[a tag]:T:'"));
	assert_non_null(strstr(s, "'*:ITEM:'"));
	free(s);
	s = render(fish_script, &CMD);
	assert_non_null(strstr(s, "-n '__fish_seen_subcommand_from frob' -l db -r -F -d 'the store'\n"));
	assert_non_null(strstr(s, "-l out -x -a '(__fish_complete_directories)' -d 'where to write'\n"));
	free(s);

	/* words of the synopsis (queue's "add"), quotes in a summary */
	cli_help h2 = HELP;
	h2.synopsis = "faultline frob add [--db FILE] PATH... | --out DIR";
	cli_doc_cmd c2 = CMD;
	c2.help = &h2;
	c2.summary = "frob the world's things: all";
	s = render(bash_script, &c2);
	assert_non_null(strstr(s, "words='add'; operands=files ;;\n"));
	free(s);
	s = render(zsh_script, &c2);
	assert_non_null(strstr(s, "'frob:frob the world'\\''s things: all'"));
	assert_non_null(strstr(s, "'1:command:(add)'"));
	assert_non_null(strstr(s, "'*:PATH:_files'"));
	free(s);
	s = render(fish_script, &c2);
	assert_non_null(strstr(s, "-a frob -d 'frob the world\\'s things: all'\n"));
	free(s);

	FILE *f = fopen("/dev/null", "w");
	assert_int_equal(cli_completion(f, "csh", &CMD, 1), -1);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_man_page),
		cmocka_unit_test(test_completions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
