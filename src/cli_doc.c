/*
 * cli_doc.c — the manual pages (roff) and the shell completion scripts,
 * written from the commands' help and option tables (see cli_doc.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli_doc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- roff ------------------------------------------------------------- */

char *cli_roff_escape(const char *s, size_t n)
{
	/* at most 8 bytes for 1 of input: \[uFFFD] for a stray byte */
	char *out = malloc(n * 8 + 1), *o = out;
	if (!out)
		return NULL;
	bool line_start = true;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x80) {
			/* a UTF-8 sequence as \[uXXXX]; a byte that starts none
			 * as U+FFFD */
			int len = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
				: (c & 0xf8) == 0xf0 ? 4 : 1;
			unsigned long cp = len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
			bool ok = len > 1 && i + (size_t)len <= n;
			for (int k = 1; ok && k < len; k++) {
				unsigned char d = (unsigned char)s[i + (size_t)k];
				if ((d & 0xc0) != 0x80)
					ok = false;
				cp = cp << 6 | (d & 0x3f);
			}
			if (!ok || cp < 0x80 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
				cp = 0xfffd;
				len = 1;
			}
			o += sprintf(o, "\\[u%04lX]", cp);
			i += (size_t)len;
			line_start = false;
			continue;
		}
		if (line_start && (c == '.' || c == '\'')) {
			*o++ = '\\';
			*o++ = '&';
		}
		const char *esc = c == '\\' ? "\\e" : c == '-' ? "\\-" : c == '`' ? "\\(ga"
				: c == '\'' ? "\\(aq" : NULL;
		if (esc) {
			size_t el = strlen(esc);
			memcpy(o, esc, el);
			o += el;
		} else {
			*o++ = (char)c;
		}
		line_start = c == '\n';
		i++;
	}
	*o = '\0';
	return out;
}

/* n bytes of s on f as roff text; with breaks, a line may break after a
 * comma that a space does not follow (inside a JSON example) */
static void roff_text(FILE *f, const char *s, size_t n, bool breaks)
{
	char *e = cli_roff_escape(s, n);
	for (const char *c = e; c && *c; c++) {
		fputc(*c, f);
		if (breaks && *c == ',' && c[1] && c[1] != ' ')
			fputs("\\:", f);
	}
	free(e);
}

static void roff(FILE *f, const char *s, size_t n)
{
	roff_text(f, s, n, false);
}

static void roffs(FILE *f, const char *s)
{
	roff(f, s, strlen(s));
}

/* a verbatim line of a help paragraph: it starts with two spaces */
static bool verbatim(const char *line, const char *end)
{
	return end - line >= 2 && line[0] == ' ' && line[1] == ' ';
}

/* The paragraphs of help text (n bytes; "\n\n" between them) as roff: a
 * paragraph each, its runs of text filled, its verbatim lines as they are
 * (two columns in). */
static void paragraphs(FILE *f, const char *text, size_t n)
{
	const char *p = text, *end = text + n;
	while (p < end) {
		while (p < end && (*p == '\n' || (*p == ' ' && !verbatim(p, end))))
			p++;
		if (p >= end)
			break;
		const char *pe = p;
		while (pe < end && !(pe + 1 < end && pe[0] == '\n' && pe[1] == '\n'))
			pe++;
		fputs(".PP\n", f);
		const char *q = p;
		while (q < pe) {
			const char *nl = memchr(q, '\n', (size_t)(pe - q));
			const char *le = nl ? nl : pe;
			if (verbatim(q, le)) {
				fputs(".RS 2\n.nf\n", f);
				while (q < pe) {
					nl = memchr(q, '\n', (size_t)(pe - q));
					le = nl ? nl : pe;
					if (!verbatim(q, le))
						break;
					roff(f, q + 2, (size_t)(le - q - 2));
					fputc('\n', f);
					q = nl ? nl + 1 : pe;
				}
				fputs(".fi\n.RE\n", f);
				continue;
			}
			/* a filled run: up to the next verbatim line, on one
			 * output line */
			const char *r = q;
			while (r < pe) {
				const char *rn = memchr(r, '\n', (size_t)(pe - r));
				if (!rn) {
					r = pe;
					break;
				}
				if (verbatim(rn + 1, pe)) {
					r = rn;
					break;
				}
				r = rn + 1;
			}
			char *run = strndup(q, (size_t)(r - q));
			if (run) {
				for (char *c = run; *c; c++)
					if (*c == '\n')
						*c = ' ';
				size_t rl = strlen(run);
				while (rl && run[rl - 1] == ' ')
					rl--;
				char *start = run;
				while (*start == ' ')
					start++, rl--;
				roff_text(f, start, rl, true);
				fputc('\n', f);
				free(run);
			}
			q = r < pe ? r + 1 : pe;
		}
		p = pe;
	}
}

static void th(FILE *f, const char *page, const char *from)
{
	fprintf(f, ".\\\" %s(1): made by `faultline help --man%s%s` from the text\n"
		   ".\\\" of `faultline%s%s --help`; edit that text, not this file.\n",
		page, *from ? " " : "", from, *from ? " " : "", from);
	fputs(".TH ", f);
	for (const char *c = page; *c; c++)
		if (*c == '-')
			fputs("\\-", f);
		else
			fputc(toupper((unsigned char)*c), f);
	fputs(" 1 \"\" \"faultline " FL_VERSION "\" \"faultline manual\"\n", f);
	/* no hyphenation (option names and paths are not split), ragged
	 * right (long paths leave no line to stretch) */
	fputs(".nh\n.ad l\n", f);
}

static void synopsis(FILE *f, const char *syn)
{
	fputs(".SH SYNOPSIS\n.nf\n", f);
	roffs(f, syn);
	fputs("\n.fi\n", f);
}

void cli_man_top(FILE *f, const cli_top *top, const cli_doc_cmd *cmds, size_t n)
{
	th(f, "faultline", "");
	fputs(".SH NAME\nfaultline \\- ", f);
	roffs(f, top->summary);
	fputc('\n', f);
	synopsis(f, top->synopsis);
	fputs(".SH DESCRIPTION\n", f);
	paragraphs(f, top->about, strlen(top->about));
	fputs(".SH COMMANDS\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs(".TP 10\n\\fB", f);
		roffs(f, cmds[i].name);
		fputs("\\fR\n", f);
		roffs(f, cmds[i].summary);
		fputs(" (\\fBfaultline\\-", f);
		roffs(f, cmds[i].name);
		fputs("\\fR(1))\n", f);
	}
	fputs(".SH FILES\n", f);
	paragraphs(f, top->store, strlen(top->store));
	fputs(".SH EXIT STATUS\n", f);
	paragraphs(f, top->exit_status, strlen(top->exit_status));
	fputs(".SH SEE ALSO\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs(".BR faultline\\-", f);
		roffs(f, cmds[i].name);
		fputs(i + 1 < n ? " (1),\n" : " (1)\n", f);
	}
}

void cli_man_cmd(FILE *f, const cli_top *top, const cli_doc_cmd *c)
{
	const cli_help *h = c->help;
	char page[128];
	snprintf(page, sizeof page, "faultline-%s", c->name);
	th(f, page, c->name);
	fputs(".SH NAME\n", f);
	roffs(f, page);
	fputs(" \\- ", f);
	roffs(f, c->summary);
	fputc('\n', f);
	synopsis(f, h->synopsis);

	/* the sentences of the help from "Exit status" to the end of their
	 * paragraph go under EXIT STATUS */
	const char *about = h->about, *ex = strstr(about, "Exit status");
	size_t alen = strlen(about);
	const char *exend = NULL;
	if (ex) {
		exend = strstr(ex, "\n\n");
		if (!exend)
			exend = about + alen;
	}
	fputs(".SH DESCRIPTION\n", f);
	paragraphs(f, about, ex ? (size_t)(ex - about) : alen);
	if (ex)
		paragraphs(f, exend, (size_t)(about + alen - exend));

	fputs(".SH OPTIONS\n", f);
	for (size_t i = 0; i < c->nopts; i++) {
		const cli_opt *o = &c->opts[i];
		fputs(".TP\n\\fB\\-\\-", f);
		roffs(f, o->name);
		fputs("\\fR", f);
		if (o->arg) {
			fputs(" \\fI", f);
			roffs(f, o->arg);
			fputs("\\fR", f);
		}
		if (o->list)
			fputs("...", f);
		fputc('\n', f);
		char *text = strdup(o->help ? o->help : "");
		if (text) {
			for (char *t = text; *t; t++)
				if (*t == '\n')
					*t = ' ';
			roffs(f, text);
			free(text);
		}
		fputc('\n', f);
	}
	fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nthis help\n", f);

	if (h->examples[0].cmd) {
		fputs(".SH EXAMPLES\n", f);
		size_t nx = sizeof h->examples / sizeof h->examples[0];
		for (size_t i = 0; i < nx && h->examples[i].cmd; i++) {
			fputs(".PP\n.RS 2\n.nf\n\\fB", f);
			roffs(f, h->examples[i].cmd);
			fputs("\\fR\n.fi\n.RE\n.RS 6\n", f);
			roffs(f, h->examples[i].what);
			fputs("\n.RE\n", f);
		}
	}

	fputs(".SH EXIT STATUS\n", f);
	if (ex) {
		const char *e = ex + strlen("Exit status");
		while (*e == ':' || *e == ' ')
			e++;
		paragraphs(f, e, (size_t)(exend - e));
	} else {
		paragraphs(f, top->exit_command, strlen(top->exit_command));
	}
	fputs(".SH SEE ALSO\n.BR faultline (1)\n", f);
}

/* ---- completions ------------------------------------------------------- */

/* what an option's value or an operand named name is */
enum kind { K_NONE, K_FILE, K_DIR };

static enum kind kind_of(const char *name)
{
	if (!name)
		return K_NONE;
	if (strcmp(name, "DIR") == 0 || strcmp(name, "OUTDIR") == 0)
		return K_DIR;
	if (strcmp(name, "FILE") == 0 || strcmp(name, "PATH") == 0 ||
	    strncmp(name, "LOCATOR", 7) == 0)
		return K_FILE;
	return K_NONE;
}

/* What the synopsis says follows the command's name outside brackets:
 * words to type as they are (queue's "add", into words), and operands
 * (TEXT, PATH, DIR...): their kind (files when one is a file), and the
 * first one's name. */
struct operands {
	char words[128];
	enum kind kind;
	bool any;
	char name[32];
};

static const cli_opt *find_opt(const cli_doc_cmd *c, const char *tok)
{
	for (size_t i = 0; i < c->nopts; i++) {
		size_t l = strlen(c->opts[i].name);
		if (strncmp(tok + 2, c->opts[i].name, l) == 0 &&
		    (!tok[2 + l] || tok[2 + l] == ' ' || tok[2 + l] == '\n'))
			return &c->opts[i];
	}
	return NULL;
}

static void operands_of(const cli_doc_cmd *c, struct operands *ops)
{
	memset(ops, 0, sizeof *ops);
	const char *p = c->help->synopsis;
	int depth = 0, skip_value = 0, tokno = 0;
	while (*p) {
		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		const char *t = p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
		size_t tl = (size_t)(p - t);
		int d0 = depth;
		for (const char *q = t; q < p; q++)
			depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
		if (tokno++ < 2 || d0 > 0 || *t == '[')
			continue;
		if (skip_value) {
			skip_value = 0;
			continue;
		}
		if (tl >= 2 && t[0] == '-' && t[1] == '-') {
			const cli_opt *o = find_opt(c, t);
			skip_value = o && o->takes_value;
			continue;
		}
		if ((tl == 1 && (*t == '|' || *t == '-')) || tl >= sizeof ops->name)
			continue;
		char tok[32];
		memcpy(tok, t, tl);
		tok[tl] = '\0';
		if (islower((unsigned char)tok[0])) {
			size_t wl = strlen(ops->words);
			snprintf(ops->words + wl, sizeof ops->words - wl, "%s%s", wl ? " " : "", tok);
			continue;
		}
		char *dots = strstr(tok, "...");
		if (dots)
			*dots = '\0';
		enum kind k = kind_of(tok);
		if (!ops->any)
			snprintf(ops->name, sizeof ops->name, "%s", tok);
		ops->any = true;
		if (k == K_FILE || (k == K_DIR && ops->kind == K_NONE))
			ops->kind = k;
	}
}

/* the start of an option's help, for the shells' lists: up to the first
 * "; ", " (", ": ", ", " or ". ", at most 60 bytes (a word's end) */
static void short_help(const char *help, char *buf, size_t cap)
{
	size_t n = strlen(help);
	const char *stops[] = {"; ", " (", ": ", ", ", ". ", "\n"};
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
		const char *s = strstr(help, stops[i]);
		if (s && (size_t)(s - help) < n)
			n = (size_t)(s - help);
	}
	if (n > 60) {
		n = 60;
		while (n > 20 && help[n] != ' ')
			n--;
	}
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, help, n);
	buf[n] = '\0';
}

/* s inside single quotes, for zsh (bracketed: '[', ']', ':' and '\'
 * behind a backslash) or fish ('\'' and '\' behind one) */
static void put_quoted(FILE *f, const char *s, bool zsh, bool zsh_meta)
{
	for (; *s; s++) {
		if (*s == '\'') {
			fputs(zsh ? "'\\''" : "\\'", f);
			continue;
		}
		if (*s == '\\' || (zsh_meta && (*s == '[' || *s == ']' || *s == ':')))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void bash_list(FILE *f, const cli_doc_cmd *c, const char *var, int which)
{
	fprintf(f, " %s='", var);
	bool first = true;
	for (size_t i = 0; i < c->nopts; i++) {
		const cli_opt *o = &c->opts[i];
		bool take = which == 0 ? true
			  : which == 3 ? o->takes_value
			  : o->takes_value && kind_of(o->arg) == (which == 1 ? K_FILE : K_DIR);
		if (!take)
			continue;
		fprintf(f, "%s--%s", first ? "" : " ", o->name);
		first = false;
	}
	fputs("';", f);
}

static void bash(FILE *f, const cli_doc_cmd *cmds, size_t n)
{
	fputs("# bash completion for faultline: made by `faultline help --completion bash`\n"
	      "# from the commands' option tables (the text of --help).\n"
	      "_faultline()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\t# --opt=VALUE: the = is a word of its own\n"
	      "\tif [[ $cur == = ]]; then\n\t\tcur=\n"
	      "\telif [[ $prev == = ]] && (( COMP_CWORD > 2 )); then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n\tfi\n"
	      "\tlocal commands='", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", cmds[i].name);
	fputs("'\n"
	      "\tif (( COMP_CWORD == 1 )); then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$commands help --help --version\" -- \"$cur\"))\n"
	      "\t\treturn\n\tfi\n"
	      "\tlocal opts files dirs values words operands\n"
	      "\tcase ${COMP_WORDS[1]} in\n"
	      "\thelp)\n"
	      "\t\t(( COMP_CWORD == 2 )) && COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))\n"
	      "\t\treturn ;;\n", f);
	for (size_t i = 0; i < n; i++) {
		const cli_doc_cmd *c = &cmds[i];
		struct operands ops;
		operands_of(c, &ops);
		fprintf(f, "\t%s)", c->name);
		bash_list(f, c, "opts", 0);
		bash_list(f, c, "files", 1);
		bash_list(f, c, "dirs", 2);
		bash_list(f, c, "values", 3);
		fprintf(f, " words='%s'; operands=%s ;;\n", ops.words,
			ops.kind == K_FILE ? "files" : ops.kind == K_DIR ? "dirs" : "none");
	}
	fputs("\t*) return ;;\n\tesac\n"
	      "\tif [[ \" $files \" == *\" $prev \"* ]]; then\n"
	      "\t\tcompopt -o filenames 2>/dev/null\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\telif [[ \" $dirs \" == *\" $prev \"* ]]; then\n"
	      "\t\tcompopt -o filenames 2>/dev/null\n"
	      "\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n"
	      "\telif [[ \" $values \" == *\" $prev \"* ]]; then\n"
	      "\t\tCOMPREPLY=()\n"
	      "\telif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts --help\" -- \"$cur\"))\n"
	      "\telif [[ -n $words ]] && (( COMP_CWORD == 2 )); then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	      "\telif [[ $operands == files ]]; then\n"
	      "\t\tcompopt -o filenames 2>/dev/null\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\telif [[ $operands == dirs ]]; then\n"
	      "\t\tcompopt -o filenames 2>/dev/null\n"
	      "\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n"
	      "\tfi\n}\n"
	      "complete -F _faultline faultline\n", f);
}

static void zsh(FILE *f, const cli_doc_cmd *cmds, size_t n)
{
	fputs("#compdef faultline\n"
	      "# zsh completion for faultline: made by `faultline help --completion zsh`\n"
	      "# from the commands' option tables (the text of --help).\n"
	      "_faultline() {\n"
	      "  local -a commands\n  commands=(\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("    '", f);
		put_quoted(f, cmds[i].name, true, true);
		fputc(':', f);
		put_quoted(f, cmds[i].summary, true, false);
		fputs("'\n", f);
	}
	fputs("  )\n"
	      "  if (( CURRENT == 2 )); then\n"
	      "    if [[ $PREFIX == -* ]]; then\n"
	      "      compadd -- --help --version\n"
	      "    else\n"
	      "      _describe -t commands 'faultline command' commands\n"
	      "    fi\n"
	      "    return\n"
	      "  fi\n"
	      "  local cmd=$words[2]\n"
	      "  shift words\n"
	      "  (( CURRENT-- ))\n"
	      "  case $cmd in\n"
	      "    (help) (( CURRENT == 2 )) && _describe -t commands 'faultline command' commands ;;\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		const cli_doc_cmd *c = &cmds[i];
		struct operands ops;
		operands_of(c, &ops);
		fprintf(f, "    (%s) _arguments -s", c->name);
		for (size_t j = 0; j < c->nopts; j++) {
			const cli_opt *o = &c->opts[j];
			char sh[96];
			short_help(o->help ? o->help : "", sh, sizeof sh);
			fprintf(f, " \\\n        '%s--%s%s[", o->list ? "*" : "", o->name,
				o->takes_value ? "=" : "");
			put_quoted(f, sh, true, true);
			fputc(']', f);
			if (o->takes_value) {
				fputc(':', f);
				put_quoted(f, o->arg ? o->arg : "VALUE", true, true);
				enum kind k = kind_of(o->arg);
				fputs(k == K_FILE ? ":_files" : k == K_DIR ? ":_files -/" : ":", f);
			}
			fputc('\'', f);
		}
		fputs(" \\\n        '(- *)'{-h,--help}'[this help]'", f);
		if (ops.words[0]) {
			fputs(" \\\n        '1:command:(", f);
			put_quoted(f, ops.words, true, false);
			fputs(")'", f);
		}
		if (ops.any) {
			fputs(" \\\n        '*:", f);
			put_quoted(f, ops.name, true, true);
			fputs(ops.kind == K_FILE ? ":_files'" : ops.kind == K_DIR ? ":_files -/'" : ":'",
			      f);
		}
		fputs(" ;;\n", f);
	}
	fputs("  esac\n}\n_faultline \"$@\"\n", f);
}

static void fish(FILE *f, const cli_doc_cmd *cmds, size_t n)
{
	fputs("# fish completion for faultline: made by `faultline help --completion fish`\n"
	      "# from the commands' option tables (the text of --help).\n"
	      "complete -c faultline -f\n"
	      "complete -c faultline -n __fish_use_subcommand -l version -d 'print the version'\n"
	      "complete -c faultline -n __fish_use_subcommand -s h -l help -d 'the commands'\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "complete -c faultline -n __fish_use_subcommand -a %s -d '", cmds[i].name);
		put_quoted(f, cmds[i].summary, false, false);
		fputs("'\n", f);
	}
	fputs("complete -c faultline -n __fish_use_subcommand -a help -d 'a command\\'s help'\n"
	      "complete -c faultline -n '__fish_seen_subcommand_from help' -a '", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", cmds[i].name);
	fputs("'\n", f);
	for (size_t i = 0; i < n; i++) {
		const cli_doc_cmd *c = &cmds[i];
		struct operands ops;
		operands_of(c, &ops);
		char cond[96];
		snprintf(cond, sizeof cond, "complete -c faultline -n '__fish_seen_subcommand_from %s'",
			 c->name);
		for (size_t j = 0; j < c->nopts; j++) {
			const cli_opt *o = &c->opts[j];
			char sh[96];
			short_help(o->help ? o->help : "", sh, sizeof sh);
			enum kind k = o->takes_value ? kind_of(o->arg) : K_NONE;
			fprintf(f, "%s -l %s%s -d '", cond, o->name,
				!o->takes_value ? "" : k == K_FILE ? " -r -F"
				: k == K_DIR ? " -x -a '(__fish_complete_directories)'" : " -x");
			put_quoted(f, sh, false, false);
			fputs("'\n", f);
		}
		fprintf(f, "%s -s h -l help -d 'this help'\n", cond);
		if (ops.words[0])
			fprintf(f, "complete -c faultline -n '__fish_seen_subcommand_from %s; and not "
				   "__fish_seen_subcommand_from %s' -a '%s'\n",
				c->name, ops.words, ops.words);
		if (ops.kind == K_FILE)
			fprintf(f, "%s -F\n", cond);
		else if (ops.kind == K_DIR)
			fprintf(f, "%s -x -a '(__fish_complete_directories)'\n", cond);
	}
}

int cli_completion(FILE *f, const char *shell, const cli_doc_cmd *cmds, size_t n)
{
	if (strcmp(shell, "bash") == 0)
		bash(f, cmds, n);
	else if (strcmp(shell, "zsh") == 0)
		zsh(f, cmds, n);
	else if (strcmp(shell, "fish") == 0)
		fish(f, cmds, n);
	else
		return -1;
	return 0;
}
