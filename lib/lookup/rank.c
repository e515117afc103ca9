/*
 * rank.c — ordering the pattern tier's hits and saying why (lookup.md,
 * issue #19): the evidence a pasted text carries for a record (frame
 * paths, class and module names, the words of a pasted command line,
 * other lines of the same output matching records of the same file), how
 * much information a hit's literal text carries, and the order: confident
 * hits first, a message before a wrapper that holds it in a placeholder
 * (lookup.c's mark_wrappers), then the line of the output they matched (error lines in
 * the order printed before warnings and informational lines), then
 * on one line a raise that quotes another hit's message in its own
 * (lookup.c's mark_quoting), how much of its line it spans, specificity,
 * evidence, the class its line printed and coverage.  A
 * hit whose literal part says little ("%s failed", "expected {}, found
 * {}") is not a confident answer: it ranks after every confident one and
 * scores below the pattern tier's 0.9, or not at all.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../scan/lang.h"
#include "../util.h"
#include "index.h"
#include "lookup_internal.h"
#include "tokens.h"

/* A hit is confident when its literal part carries at least this much
 * information (the idf-weighted tokens of the record's message, in units
 * of the idf of a word found in one record only: two rare words, or three
 * or four common ones), or when a frame of the text names its file.
 * Among the hits on one line, those that span at least RANK_COVER_MIN of
 * its message rank first (a message found inside a longer one is less
 * likely what was printed). */
#define RANK_INFO_MIN 1.5
/* the same, for a line whose logger named an error level ("ERROR",
 * "fatal: "): one word found in one record only */
#define RANK_INFO_NAMED 0.8
#define RANK_COVER_MIN 0.5
/* literal characters of its own (fl_idx_rank_literal) a confident hit
 * holds */
#define RANK_OWN_LITERAL_MIN 6

double fl_lk_info_unit(const fl_lookup *lk)
{
	return fl_idf(lk->n_records, 1);
}

/* ---- evidence ---------------------------------------------------------------- */

static bool path_agrees(const char *entry_path, const char *seen)
{
	size_t a = strlen(entry_path), b = strlen(seen);
	if (!a || !b)
		return false;
	/* one is a suffix of the other at a '/' boundary */
	if (b >= a)
		return strcmp(seen + b - a, entry_path) == 0 &&
		       (b == a || seen[b - a - 1] == '/' || seen[b - a - 1] == '\\');
	return strcmp(entry_path + a - b, seen) == 0 && entry_path[a - b - 1] == '/';
}

/* How a path a text names (a frame's: where the file is installed, or
 * the tree on another machine) agrees with a record's (lookup_internal.h):
 * 2 by path_agrees; 1 when they end alike in two whole components or
 * more, the folders above differing ("/usr/lib/python3.11/json/decoder.py"
 * and CPython's "Lib/json/decoder.py", ".../dist-packages/pip/_internal/
 * x.py" and "src/pip/_internal/x.py"); 0 neither. */
int fl_lk_path_agreement(const char *entry_path, const char *seen)
{
	if (path_agrees(entry_path, seen))
		return 2;
	size_t a = strlen(entry_path), b = strlen(seen), i = 0;
	int whole = 0; /* separators inside the common end: whole components */
	while (i < a && i < b) {
		char x = entry_path[a - 1 - i], y = seen[b - 1 - i];
		bool sep = (x == '/' || x == '\\') && (y == '/' || y == '\\');
		if (x != y && !sep)
			break;
		whole += sep;
		i++;
	}
	return whole >= 2 ? 1 : 0;
}

/* How a word of a command line relates to a path component (a folder, or
 * a file name without its extension, or a part of one cut at '_' or '-'):
 * 2 equal, 1 one starts the other (4+ characters: "config" and
 * "configuration", "zstd" and "zstdcli") or the component is the word
 * after a prefix of up to 3 letters (meson's subcommand files: "dist" and
 * mdist.py, "test" and mtest.py), 0 none. */
static int word_vs_component(const char *w, size_t wl, const char *c, size_t cl)
{
	if (wl == cl && strncasecmp(w, c, wl) == 0)
		return 2;
	size_t m = wl < cl ? wl : cl;
	if (m >= 4 && strncasecmp(w, c, m) == 0)
		return 1;
	if (wl >= 4 && cl > wl && cl - wl <= 3 && strncasecmp(w, c + cl - wl, wl) == 0)
		return 1;
	return 0;
}

static int word_vs_path(const char *w, size_t wl, const char *path, bool file_only)
{
	int best = 0;
	const char *p = path;
	while (*p) {
		const char *e = strchr(p, '/');
		size_t cl = e ? (size_t)(e - p) : strlen(p);
		if (e && file_only) {
			p = e + 1;
			continue;
		}
		if (!e) { /* the file: its name without the extension */
			const char *dot = memrchr(p, '.', cl);
			if (dot && dot > p)
				cl = (size_t)(dot - p);
		}
		int r = word_vs_component(w, wl, p, cl);
		/* and its parts (install_command, flat-config-array): a word
		 * naming a part says less */
		for (size_t s = 0, i = 0; i <= cl && r < 1; i++)
			if (i == cl || p[i] == '_' || p[i] == '-') {
				if (i > s && i - s < cl && word_vs_component(w, wl, p + s, i - s))
					r = 1;
				s = i + 1;
			}
		if (r > best)
			best = r;
		if (!e)
			break;
		p = e + 1;
	}
	return best;
}

/* A word that can name a path component: three or more letters, digits,
 * '-' and '_' (not a path, a file name with its extension, a value). */
static bool plain_word(const char *w, size_t wl)
{
	if (wl < 3)
		return false;
	for (size_t i = 0; i < wl; i++)
		if (!isalnum((unsigned char)w[i]) && w[i] != '-' && w[i] != '_')
			return false;
	return true;
}

static bool word_in(const char *const *names, const char *w, size_t wl)
{
	for (size_t i = 0; names[i]; i++)
		if (strlen(names[i]) == wl && memcmp(names[i], w, wl) == 0)
			return true;
	return false;
}

/* A program that runs the next word as the program ("sudo make"). */
bool fl_lk_wrapper_prog(const char *w, size_t wl)
{
	static const char *const names[] = {"sudo", "env", "time", "nice", "exec", "command",
					    "nohup", "xargs", "doas", NULL};
	return word_in(names, w, wl);
}

/* A shell builtin or file command that prepares a command rather than
 * being one ("cd mod && go build", "cp go.work.txt go.work && ..."). */
bool fl_lk_setup_prog(const char *w, size_t wl)
{
	static const char *const names[] = {"cd", "pushd", "popd", "export", "set", "source",
					    "unset", "mkdir", "echo", "cp", "mv", "rm", "ln",
					    "touch", "printf", NULL};
	return word_in(names, w, wl);
}

/* The words of a pasted command, one at a time: every command of a
 * chained line ("cd mod && go work sync", "cat x | jq .", "x; y"), after
 * its VAR=value words and wrappers ("sudo tool"); setup builtins ("cd",
 * "export") and their words, and redirections with their files, are
 * none.  *prog: the word is its command's program. */
typedef struct cmd_walk {
	const char *p;
	bool prog, next_cmd;
} cmd_walk;

static void cmd_walk_init(cmd_walk *c, const char *command)
{
	*c = (cmd_walk){command, true, false};
}

static bool cmd_word(cmd_walk *c, const char **word, size_t *len, bool *prog)
{
	const char *p = c->p;
	for (;;) {
		if (c->next_cmd) { /* the word before ended with ';' */
			c->prog = true;
			c->next_cmd = false;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		const char *s = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		size_t n = (size_t)(p - s);
		if (!n)
			break;
		if (*s == '>' || *s == '<' || (s[0] == '2' && s[1] == '>')) {
			/* a redirection: its file is no evidence */
			if (n == 1 || (n == 2 && s[1] == '>') || (n == 2 && s[0] == '2')) {
				while (*p == ' ' || *p == '\t')
					p++;
				while (*p && *p != ' ' && *p != '\t')
					p++;
			}
			continue;
		}
		if (*s == '|' || *s == ';' || *s == '&') {
			/* another command of the line: its program and words
			 * count alike */
			c->prog = true;
			continue;
		}
		/* a separator glued to the word before it ("cd x;") */
		if (s[n - 1] == ';') {
			n--;
			c->next_cmd = true;
		}
		if (c->prog && memchr(s, '=', n) && (isalpha((unsigned char)*s) || *s == '_'))
			continue; /* VAR=value before the program */
		if (c->prog && fl_lk_wrapper_prog(s, n))
			continue; /* sudo, env, time...: the program follows */
		if (c->prog && fl_lk_setup_prog(s, n)) {
			/* cd, export...: no evidence until the next command */
			while (*p && *p != ';' && *p != '&' && *p != '|')
				p++;
			continue;
		}
		*prog = c->prog;
		c->prog = false;
		*word = s;
		*len = n;
		c->p = p;
		return true;
	}
	c->p = p;
	return false;
}

/* The words of a pasted command that name a part of the entry's path:
 * the program's name (unless skip_prog) and its subcommands and flags
 * (values, paths and file names are no evidence).  Returns the points; *word gets the best
 * word (NUL-terminated copy into buf of size bufsz) when wanted. */
static int command_evidence(const char *command, bool skip_prog, const char *path,
			    char *buf, size_t bufsz)
{
	int best = 0, words = 0;
	cmd_walk c;
	cmd_walk_init(&c, command);
	const char *s;
	size_t n;
	bool was_prog;
	while (cmd_word(&c, &s, &n, &was_prog)) {
		if (was_prog && skip_prog)
			continue;
		/* the program names its command-line file at most
		 * ("zstd": programs/zstdcli.c), a flag the file defining it */
		int cap = was_prog || *s == '-' ? 1 : 2;
		const char *w = s;
		size_t wl = n;
		if (was_prog) { /* the program: its base name */
			const char *sl = memrchr(w, '/', wl);
			if (sl) {
				wl -= (size_t)(sl + 1 - w);
				w = sl + 1;
			}
		} else {
			while (wl && *w == '-') {
				w++;
				wl--;
			}
			const char *eq = memchr(w, '=', wl);
			if (eq)
				wl = (size_t)(eq - w);
		}
		/* a URL: its scheme names the protocol's file ("http://...":
		 * http.c) */
		const char *colon = was_prog ? NULL : memchr(w, ':', wl);
		if (colon && (size_t)(colon - w) + 3 <= wl && colon[1] == '/' && colon[2] == '/')
			wl = (size_t)(colon - w);
		if (!plain_word(w, wl))
			continue; /* a path, a file, a value */
		int r = word_vs_path(w, wl, path, was_prog);
		if (*s == '-' && r < 2)
			r = 0; /* a flag names a file or folder whole, or nothing */
		if (r > cap)
			r = cap;
		if (r > 0)
			words++;
		if (r > best) {
			best = r;
			if (buf && bufsz) {
				size_t cl = wl < bufsz - 1 ? wl : bufsz - 1;
				memcpy(buf, w, cl);
				buf[cl] = '\0';
			}
		}
	}
	/* another word naming a part of it too ("work" and "sync" of
	 * internal/workcmd/sync.go) says more than the best word alone */
	return best + (words > 1 ? 1 : 0);
}

/* [s, s+n) one capitalized word: "Check", "Sniff", "Rule" */
static bool kind_word(const char *s, size_t n)
{
	if (n < 2 || !isupper((unsigned char)s[0]))
		return false;
	for (size_t k = 1; k < n; k++)
		if (!islower((unsigned char)s[k]))
			return false;
	return true;
}

/* Whether the file's name, without its extension, is the program word
 * [w, w+wl) (src/ls.c for `ls`, src/du.c for `du`): one tree of many
 * programs (coreutils) raises one text in several of them.  Not a
 * program that names the repository, its owner or name (eslint's
 * lib/eslint/eslint.js, npm/cli's lib/npm.js): it names every file of
 * it alike. */
static bool program_file(const char *w, size_t wl, const char *path, const char *prog_repo)
{
	if (prog_repo) {
		const char *sl = strchr(prog_repo, '/');
		size_t ol = sl ? (size_t)(sl - prog_repo) : strlen(prog_repo);
		const char *nm = sl ? sl + 1 : prog_repo;
		if ((ol == wl && strncasecmp(prog_repo, w, wl) == 0) ||
		    (strlen(nm) == wl && strncasecmp(nm, w, wl) == 0))
			return false;
	}
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *dot = strrchr(b, '.');
	size_t bl = dot && dot > b ? (size_t)(dot - b) : strlen(b);
	return wl >= 2 && bl == wl && memcmp(b, w, wl) == 0;
}

/* The program that printed the text, named by its line ("ls: ...") or
 * by the command pasted with it (each command's first word after its
 * VAR=value words and wrappers; setup builtins name none), when test
 * holds for it (the word, path, repo): the name into buf. */
static bool program_named(const fl_query *q, bool (*test)(const char *, size_t, const char *, const char *),
			  const char *path, const char *repo, char *buf, size_t bufsz)
{
	const char *w = q->argv0;
	if (w && test(w, strlen(w), path, repo)) {
		snprintf(buf, bufsz, "%s", w);
		return true;
	}
	if (!q->command)
		return false;
	cmd_walk c;
	cmd_walk_init(&c, q->command);
	const char *s;
	size_t n;
	bool prog;
	while (cmd_word(&c, &s, &n, &prog)) {
		if (!prog)
			continue;
		const char *sl = memrchr(s, '/', n);
		if (sl) {
			n -= (size_t)(sl + 1 - s);
			s = sl + 1;
		}
		if (test(s, n, path, repo)) {
			snprintf(buf, bufsz, "%.*s", (int)n, s);
			return true;
		}
	}
	return false;
}

/* the program's name is path's file's (program_file) */
static bool program_names_file(const fl_query *q, const char *path, const char *repo, char *buf,
			       size_t bufsz)
{
	return program_named(q, program_file, path, repo, buf, bufsz);
}

/* Whether the program word [w, w+wl) is repository repo's name or
 * owner, with a version's digits after it or not ("pip3" of pypa/pip,
 * "sqlite3" of sqlite/sqlite, "black" of psf/black). */
static bool program_repo(const char *w, size_t wl, const char *path, const char *repo)
{
	(void)path;
	if (!repo || wl < 2)
		return false;
	size_t dl = wl;
	while (dl > 2 && isdigit((unsigned char)w[dl - 1]))
		dl--;
	const char *sl = strchr(repo, '/');
	size_t ol = sl ? (size_t)(sl - repo) : strlen(repo);
	const char *nm = sl ? sl + 1 : repo;
	size_t nl = strlen(nm);
	for (size_t l = wl;; l = dl) {
		if ((ol == l && strncasecmp(repo, w, l) == 0) || (nl == l && strncasecmp(nm, w, l) == 0))
			return true;
		if (l == dl)
			return false;
	}
}

/* The program that printed the text (its line's "ls: ", a pasted
 * command's program) names the record's repository: of two records
 * matching one line, the program's own. */
static bool program_names_repo(const fl_query *q, const char *repo, char *buf, size_t bufsz)
{
	return program_named(q, program_repo, NULL, repo, buf, bufsz);
}

static bool program_names(const fl_query *q, const char *path, const char *repo)
{
	char pw[64];
	return q && ((path && program_names_file(q, path, repo, pw, sizeof pw)) ||
		     program_names_repo(q, repo, pw, sizeof pw));
}

/* Whether site s ("file:line", its colon at colon) names x's line or
 * one of the other lines that raise x (the index's list, "path:line\t
 * context" a line, all of x's file: `raise ConnectionError(e)` in five
 * handlers of one function is one record), or a line up to 3 after or
 * before one of them. */
static bool site_names_entry(const fl_index *ix, const idx_entry *x, const char *path,
			     const char *s, const char *colon)
{
	char file[512];
	size_t n = (size_t)(colon - s);
	if (n >= sizeof file)
		return false;
	memcpy(file, s, n);
	file[n] = '\0';
	long at = strtol(colon + 1, NULL, 10);
	if (!fl_lk_path_agreement(path, file))
		return false;
	if (labs(at - (long)x->line) <= 3)
		return true;
	const char *o = x->sites ? ix_str(ix, x->sites) : NULL;
	for (; o && *o;) {
		const char *nl = strchr(o, '\n'), *end = nl ? nl : o + strlen(o), *ctx;
		const char *loc_end = o + fl_lk_site_loc(o, (size_t)(end - o), &ctx), *c = loc_end;
		while (c > o && c[-1] != ':')
			c--;
		size_t pl = c > o ? (size_t)(c - 1 - o) : 0;
		if (c > o && c < loc_end && pl == strlen(path) && memcmp(o, path, pl) == 0 &&
		    labs(at - strtol(c, NULL, 10)) <= 3)
			return true;
		o = nl ? nl + 1 : end;
	}
	return false;
}

/* A wrapper that names the line the error was raised at, or a frame of a
 * stack (q->sites, "file:line"): a point for an entry of that file within
 * 3 lines of one of its lines, among the entries of the file its path
 * already points to; *which: the frame's depth from the innermost. */
static int site_evidence_at(const fl_index *ix, const idx_entry *x, const char *path,
			    const fl_query *q, fl_strv *why, size_t *which)
{
	for (size_t k = 0; k < q->sites.n; k++) {
		/* the innermost frame first */
		size_t i = q->frames_last ? q->sites.n - 1 - k : k;
		const char *s = q->sites.v[i], *colon = strrchr(s, ':');
		if (!colon || !site_names_entry(ix, x, path, s, colon))
			continue;
		if (why) {
			char w[600];
			snprintf(w, sizeof w, "a frame or header of the text names its line (%s)", s);
			fl_strv_push(why, w);
		}
		if (which)
			*which = k;
		return 1;
	}
	return 0;
}

static int site_evidence(const fl_index *ix, const idx_entry *x, const char *path,
			 const fl_query *q, fl_strv *why)
{
	return site_evidence_at(ix, x, path, q, why, NULL);
}

int fl_lk_site_rank(const fl_index *ix, const idx_entry *x, const fl_query *q)
{
	size_t k = 0;
	if (!q || !q->sites.n || !site_evidence_at(ix, x, ix_str(ix, x->path), q, NULL, &k))
		return -1;
	return k > 200 ? 200 : (int)k;
}

const char *fl_lk_class_last(const char *cls)
{
	const char *last = cls;
	for (const char *p = cls; *p; p++)
		if ((*p == ':' || *p == '.') && p[1] && p[1] != ':')
			last = p + 1;
	return last;
}

/* Evidence points of entry x from q; with why, also a line per kind of
 * evidence found. */
static int evidence_why(const fl_index *ix, const idx_entry *x, const fl_query *q,
			fl_strv *why)
{
	int score = 0;
	const char *path = ix_str(ix, x->path);
	char line[512];
	/* the path that agrees best: 4 points for its file, 3 for a file
	 * that ends alike in two components or more (as installed), 2 for
	 * a file of its name */
	int best = 0;
	size_t bi = 0;
	for (size_t i = 0; i < q->paths.n && best < 4; i++) {
		int ag = fl_lk_path_agreement(path, q->paths.v[i]), pts = ag == 2 ? 4 : ag == 1 ? 3 : 0;
		if (!pts) {
			const char *b1 = strrchr(path, '/'), *b2 = strrchr(q->paths.v[i], '/');
			b1 = b1 ? b1 + 1 : path;
			b2 = b2 ? b2 + 1 : q->paths.v[i];
			pts = strcmp(b1, b2) == 0 ? 2 : 0;
		}
		if (pts > best) {
			best = pts;
			bi = i;
		}
	}
	score += best;
	if (best && why) {
		const char *b2 = strrchr(q->paths.v[bi], '/');
		if (best > 2)
			snprintf(line, sizeof line, "a frame of the text names its file (%s)", q->paths.v[bi]);
		else
			snprintf(line, sizeof line, "a frame of the text names a file %s",
				 b2 ? b2 + 1 : q->paths.v[bi]);
		fl_strv_push(why, line);
	}
	score += site_evidence(ix, x, path, q, why);
	/* a function of the record's lines that a Node frame names (a
	 * bundle's stack names its own file, not the sources') */
	const char *fn = NULL;
	if (!best && fl_lk_func_site(ix, x, q, &fn) >= 0) {
		score += 2;
		if (why) {
			snprintf(line, sizeof line, "a frame of the text names its function %s", fn);
			fl_strv_push(why, line);
		}
	}
	if (x->cls) {
		const char *cls = ix_str(ix, x->cls);
		const char *last = fl_lk_class_last(cls);
		for (size_t i = 0; i < q->classes.n; i++)
			if (strcmp(q->classes.v[i], cls) == 0 || strcmp(q->classes.v[i], last) == 0) {
				score += 3;
				if (why) {
					snprintf(line, sizeof line, "the text names its class %s",
						 q->classes.v[i]);
					fl_strv_push(why, line);
				}
				break;
			}
	}
	for (size_t i = 0; i < q->modules.n; i++) {
		/* a module/package/crate named in the frames appears in the path */
		const char *m = q->modules.v[i];
		const char *last = strrchr(m, '.');
		last = last ? last + 1 : m;
		if (strlen(last) >= 3 && strstr(path, last)) {
			score += 1;
			if (why) {
				snprintf(line, sizeof line, "a frame names the module %s", m);
				fl_strv_push(why, line);
			}
			break;
		}
	}
	/* the words of a pasted command after the program's name (which
	 * names every file of its own repository alike), or the program a
	 * usage text names (its command-line file: "zstd", zstdcli.c) and
	 * the command of it ("go mod tidy": modcmd/tidy.go) */
	for (int k = 0; k < 2; k++) {
		const char *cmd = k == 0 ? q->command : q->program;
		if (!cmd)
			continue;
		char w[128];
		int c = command_evidence(cmd, k == 0, path, why ? w : NULL, sizeof w);
		score += c;
		if (c && why) {
			snprintf(line, sizeof line, "%s `%s` names %s",
				 k == 0 ? "the command's word" : "the usage text's word", w,
				 c == 2 ? "its file or folder" : "a part of its path");
			fl_strv_push(why, line);
		}
	}
	/* a name the text says is a folder or file of its path (a lint
	 * rule's id, "(selector-class-pattern)", its folder
	 * lib/rules/selector-class-pattern/), or the file of its class, the
	 * name and one capitalized word more ("[WhitespaceAround]":
	 * WhitespaceAroundCheck.java) */
	for (size_t i = 0; path && i < q->names.n; i++) {
		const char *w = q->names.v[i];
		size_t wl = strlen(w);
		bool hit = false;
		for (const char *c = path; *c && !hit;) {
			const char *ce = strchr(c, '/');
			size_t cl = ce ? (size_t)(ce - c) : strlen(c);
			bool file = !ce;
			if (file) { /* the file: its name without the extension */
				const char *dot = memrchr(c, '.', cl);
				if (dot && dot > c)
					cl = (size_t)(dot - c);
			}
			hit = cl >= wl && memcmp(c, w, wl) == 0 &&
			      (cl == wl || (file && kind_word(c + wl, cl - wl)));
			c = ce ? ce + 1 : c + strlen(c);
		}
		if (hit) {
			score += 1;
			if (why) {
				snprintf(line, sizeof line, "the text's name `%s` is a part of its path", w);
				fl_strv_push(why, line);
			}
			break;
		}
	}
	char pw[64];
	if (path && program_names_file(q, path, ix_str(ix, x->repo), pw, sizeof pw)) {
		score += 1;
		if (why) {
			snprintf(line, sizeof line, "the program's name `%s` is its file's name", pw);
			fl_strv_push(why, line);
		}
	} else if (why && program_names_repo(q, ix_str(ix, x->repo), pw, sizeof pw)) {
		/* no point: it ranks the program's records before another
		 * tree's of the same line (cmp_same_line), not its files */
		snprintf(line, sizeof line, "the program `%s` is its repository's", pw);
		fl_strv_push(why, line);
	}
	return score;
}

bool fl_lk_site_named(const fl_index *ix, const idx_entry *x, const fl_query *q)
{
	return q && q->sites.n && site_evidence(ix, x, ix_str(ix, x->path), q, NULL) > 0;
}

int fl_lk_evidence(const fl_index *ix, const idx_entry *x, const fl_query *q)
{
	return evidence_why(ix, x, q, NULL);
}

bool fl_lk_query_may_confide(const fl_query *q)
{
	/* fl_lk_judge: an informational query's hits are confident only
	 * with evidence, and evidence comes from what evidence_why reads
	 * of q */
	return !q->informational || q->paths.n || q->sites.n || q->classes.n ||
	       q->modules.n || q->command || q->program;
}

/* ---- confidence ------------------------------------------------------------------ */

/* Does the match at `at` of text open inside parentheses that follow
 * other text of its line ("rich==13.4.2 (Unable to locate actual module
 * version, ...)")?  An aside of the line, not its error. */
static bool parenthetical(const char *text, size_t at)
{
	size_t i = at;
	while (i > 0 && text[i - 1] == ' ')
		i--;
	if (i == 0 || text[i - 1] != '(')
		return false;
	i--;
	int before = 0;
	while (i > 0 && text[i - 1] != '\n' && before < 3)
		if (text[--i] != ' ' && text[i] != '\t')
			before++;
	return before >= 3;
}

/* Does the line of message pos, as printed, name class cls (its last
 * component) just before the message: "Error: Pending test forbidden"
 * (JavaScript's Error, which the normalizer took for a level), "TypeError:
 * x"?  A tie of one text raised with several classes is then decided:
 * not evidence of its own: so common a word says little else. */
static bool class_printed(const fl_query *q, uint32_t pos, const char *cls)
{
	if (!q || pos >= q->raw.n || pos >= q->messages.n || !*q->raw.v[pos])
		return false;
	const char *raw = q->raw.v[pos], *msg = q->messages.v[pos];
	size_t rl = strlen(raw), ml = strlen(msg);
	if (rl <= ml + 2 || strcmp(raw + rl - ml, msg) != 0)
		return false;
	size_t pe = rl - ml; /* the prefix: raw[0, pe) */
	while (pe > 0 && raw[pe - 1] == ' ')
		pe--;
	if (pe == 0 || raw[pe - 1] != ':')
		return false;
	pe--;
	const char *last = fl_lk_class_last(cls);
	size_t cl = strlen(last);
	return cl && pe >= cl && memcmp(raw + pe - cl, last, cl) == 0 &&
	       (pe == cl || !(isalnum((unsigned char)raw[pe - cl - 1]) || raw[pe - cl - 1] == '_'));
}

void fl_lk_judge(const fl_lookup *lk, const fl_query *q, struct hit *h)
{
	const idx_entry *x = &lk->seg[h->seg].ent[h->entry];
	/* 1: enough */
	h->info = fl_lk_norm(lk, h->seg, h->entry) / (RANK_INFO_MIN * fl_lk_info_unit(lk));
	/* a line that says it is an error needs less of its text to tell */
	bool named = q && h->pos < sizeof q->error_level && q->error_level[h->pos];
	double need = named ? RANK_INFO_NAMED / RANK_INFO_MIN : 1.0;
	/* (a text whose literal is an OS error's and little more, "{}: {}:
	 * No such file or directory", tells nothing of who printed it) */
	h->strong = (h->info >= need && h->literal >= RANK_OWN_LITERAL_MIN) || h->ev >= 4;
	h->covers = h->coverage >= RANK_COVER_MIN;
	h->warn = (x->flags & IDX_WARN) != 0;
	h->raised = (x->flags & IDX_RAISED) != 0;
	h->def = (x->flags & IDX_DEF) != 0;
	if (h->def) {
		const fl_lang *L = fl_lang_for_path(ix_str(&lk->seg[h->seg], x->path));
		h->late = L && L->late_text;
	}
	h->printed_cls = x->cls && class_printed(q, h->pos, ix_str(&lk->seg[h->seg], x->cls));
	h->prog = program_names(q, ix_str(&lk->seg[h->seg], x->path), ix_str(&lk->seg[h->seg], x->repo));
	int sr = fl_lk_site_rank(&lk->seg[h->seg], x, q);
	h->sited = sr >= 0;
	h->site_rank = sr >= 0 ? (uint8_t)sr : 0;
	/* a line logged as informational, or an aside in parentheses,
	 * matches an error's text by coincidence more often than not: no
	 * confident answer without evidence */
	if (q && (q->informational || (h->text && parenthetical(h->text, h->at))) && h->ev < 4) {
		h->strong = false;
		h->info = 0; /* no answer at all (fl_lk_rank) */
	}
}

/* ---- order -------------------------------------------------------------------------- */

/* Of two hits on one line of the text, the better. */
static int cmp_same_line(const struct hit *x, const struct hit *y)
{
	/* the record at the line the text says raised it ("In Foo.php
	 * line 866:"), even matched with a placeholder left empty, or
	 * spanning less of the line than another record's text (a
	 * message whose list of details was cut short) */
	if (x->sited != y->sited)
		return x->sited ? -1 : 1;
	/* both named by frames: the innermost frame's (where the error was
	 * built, not the call that led there) */
	if (x->sited && x->site_rank != y->site_rank)
		return x->site_rank < y->site_rank ? -1 : 1;
	/* the program that printed it names the repository or the file
	 * ("tail: cannot open ..." of src/tail.c, not another tree's
	 * "cannot open '%s' for reading"; `sqlite3 ...`'s "incomplete
	 * input", not a parser's of another tree) */
	if (x->prog != y->prog)
		return x->prog ? -1 : 1;
	/* a raise quoting another's message: the text printed is its own */
	if (x->quotes != y->quotes)
		return x->quotes ? -1 : 1;
	/* of two quoting it, the one whose placeholder is named for the
	 * error it holds (`{te.args[0]}`, not `{faulty_line}`) */
	if (x->quotes_err != y->quotes_err)
		return x->quotes_err ? -1 : 1;
	if (x->covers != y->covers)
		return x->covers ? -1 : 1;
	if (x->lenient != y->lenient) /* an exact match first */
		return x->lenient ? 1 : -1;
	/* the line that raises a text before the text's definition (a
	 * class's constructor, a factory's body); but a text formatted when
	 * the error is printed (a Rust Display arm, a Go Error() method) is
	 * written by its definition, which comes first: the lines that
	 * build the value follow it */
	if (x->def != y->def) {
		bool late = x->def ? x->late : y->late;
		/* (a late definition first only before a text of as many
		 * literal bytes, the lines that build it: a raise that says
		 * more is another text, ranked on what it says below --
		 * restic's Error() "%v does not exist" against phpcs's
		 * "Referenced sniff \"{ref}\" does not exist") */
		if (!late || x->literal == y->literal)
			return (x->def != late) ? 1 : -1;
	}
	/* of two definitions written when printed, the one whose value a
	 * hit builds in its own folder (ripgrep's ignore::Error::Glob, built
	 * in crates/ignore/src/gitignore.rs, not globset's own Error) */
	if (x->def && x->built_near != y->built_near)
		return x->built_near ? -1 : 1;
	/* a match that cuts a quoted value in two read the text wrong */
	if (x->split != y->split)
		return x->split ? 1 : -1;
	if (x->literal != y->literal)
		return x->literal > y->literal ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev > y->ev ? -1 : 1;
	if (x->printed_cls != y->printed_cls)
		return x->printed_cls ? -1 : 1;
	if (x->coverage != y->coverage)
		return x->coverage > y->coverage ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Of two lines of the text, by their best hits: the earlier first,
 * unless one says more of the failure. */
static int cmp_lines(const struct hit *x, const struct hit *y)
{
	/* a line whose record a frame of the text names before one whose
	 * record none does: a traceback's cause may be the runtime's text
	 * ("[Errno 2] No such file or directory: '...'") that another
	 * program's record copies */
	if (x->sited != y->sited)
		return x->sited ? -1 : 1;
	/* an error's record before a warning's ("Invalid gemspec ..."
	 * warned, then "ERROR: Error loading gemspec") */
	if (x->warn != y->warn)
		return x->warn ? 1 : -1;
	/* a line raised or printed before another line's text whose only
	 * record is a definition (an Error() method, a class's message),
	 * which the runtime may well have printed alike */
	if (x->def != y->def)
		return x->def ? 1 : -1;
	/* a raised error's before a line the program logged or printed on
	 * its way ("Could not find a version ..." logged, then "No
	 * matching distribution found for foo" raised) */
	if (x->raised != y->raised) {
		/* but a raised text that names nothing (a constant: "No valid
		 * search paths given.") sums up the line just before it that
		 * the same reporter printed (the same prefix, "[fd error]: ")
		 * naming what failed ("Search path 'nodir' is not a
		 * directory."): that line is where it went wrong */
		const struct hit *r = x->raised ? x : y, *o = x->raised ? y : x;
		if (r->ncaps == 0 && o->ncaps > 0 && o->pos + 1 == r->pos && r->at > 0 &&
		    r->text && o->text && strncmp(o->text, r->text, r->at) == 0)
			return x == o ? -1 : 1;
		return x->raised ? -1 : 1;
	}
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The order of the answers, a total one: the message before its wrapper
 * (even a message not confident alone inside a banner that says nothing:
 * lookup.c's mark_wrappers), confident hits first, then the lines of the
 * text in the order of their best hits (cmp_lines), and on one line the
 * better hit first (cmp_same_line).  line_rank holds each hit's line's
 * place (set by fl_lk_sort). */
static int cmp_hit(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->wraps != y->wraps)
		return x->wraps ? 1 : -1;
	if (x->strong != y->strong)
		return x->strong ? -1 : 1;
	if (x->line_rank != y->line_rank)
		return x->line_rank < y->line_rank ? -1 : 1;
	return cmp_same_line(x, y);
}

static int cmp_within(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->wraps != y->wraps)
		return x->wraps ? 1 : -1;
	if (x->strong != y->strong)
		return x->strong ? -1 : 1;
	return cmp_same_line(x, y);
}

static int cmp_best(const void *a, const void *b)
{
	const struct hit *const *x = a, *const *y = b;
	if ((*x)->wraps != (*y)->wraps)
		return (*x)->wraps ? 1 : -1;
	if ((*x)->strong != (*y)->strong)
		return (*x)->strong ? -1 : 1;
	return cmp_lines(*x, *y);
}

/* Each hit's line_rank: the lines ordered by their best hits. */
static void rank_lines(struct hit *hits, size_t nh)
{
	qsort(hits, nh, sizeof *hits, cmp_within);
	struct hit **best = fl_xmalloc((nh ? nh : 1) * sizeof *best);
	size_t nb = 0;
	for (size_t i = 0; i < nh; i++)
		if (i == 0 || hits[i].pos != hits[i - 1].pos)
			best[nb++] = &hits[i];
	qsort(best, nb, sizeof *best, cmp_best);
	/* the best hit's place, given to every hit of its line (which
	 * follow it: cmp_within) */
	for (size_t r = 0; r < nb; r++) {
		size_t first = (size_t)(best[r] - hits);
		for (size_t i = first; i < nh && hits[i].pos == hits[first].pos; i++)
			hits[i].line_rank = (uint32_t)r;
	}
	free(best);
}

void fl_lk_sort(struct hit *hits, size_t nh)
{
	rank_lines(hits, nh);
	qsort(hits, nh, sizeof *hits, cmp_hit);
}

/* Other lines of the same output that match records of a hit's file
 * confidently are evidence for it (a usage text printed after an error
 * names the file that printed both); a line that matches one only by a
 * few words ("jq: 1 compile error" against the compiler's "jq: %d
 * compile %s" after a parser's message) says nothing of who printed the
 * error. */
/* hit h's entry's field f (a string) */
#define HIT_STR(lk, h, f) \
	ix_str(&(lk)->seg[(h)->seg], (lk)->seg[(h)->seg].ent[(h)->entry].f)

static void nearby(const fl_lookup *lk, struct hit *hits, size_t nh)
{
	if (nh < 2 || nh > 256) /* a paste, not a dense log */
		return;
	for (size_t i = 0; i < nh; i++) {
		const char *pi = HIT_STR(lk, &hits[i], path);
		int n = 0;
		for (size_t j = 0; j < nh && n < 2; j++) {
			if (hits[j].pos == hits[i].pos || !hits[j].strong ||
			    strcmp(HIT_STR(lk, &hits[j], path), pi) != 0)
				continue;
			bool seen = false; /* one point per other line */
			for (size_t k = 0; k < j && !seen; k++)
				seen = hits[k].pos == hits[j].pos && hits[k].strong &&
				       strcmp(HIT_STR(lk, &hits[k], path), pi) == 0;
			if (!seen)
				n++;
		}
		hits[i].near = n;
	}
	for (size_t i = 0; i < nh; i++)
		hits[i].ev += hits[i].near;
}

/* A value a placeholder printed that names the hit's file or folder
 * whole: a program with a file per command prints the command's name
 * ("You must give at least one requirement to uninstall", raised alike in
 * cli/req_command.py and commands/uninstall.py).  Two points, as a word
 * of a pasted command naming the file; the word itself in *named. */
#define CAPTURE_WORD_MAX 40

static bool capture_names_file(const struct hit *h, const char *path, char *named, size_t cap)
{
	for (size_t k = 0; h->text && k < h->ncaps; k++) {
		const char *w = h->text + h->caps[k].start;
		size_t wl = h->caps[k].end - h->caps[k].start;
		if (wl >= 2 && (w[0] == '"' || w[0] == '\'') && w[wl - 1] == w[0]) {
			w++;
			wl -= 2;
		}
		if (wl <= CAPTURE_WORD_MAX && plain_word(w, wl) && word_vs_path(w, wl, path, false) == 2) {
			size_t c = wl < cap - 1 ? wl : cap - 1;
			memcpy(named, w, c);
			named[c] = '\0';
			return true;
		}
	}
	return false;
}

static void captures_name_files(const fl_lookup *lk, struct hit *hits, size_t nh)
{
	char w[CAPTURE_WORD_MAX + 1];
	for (size_t i = 0; i < nh; i++)
		if (capture_names_file(&hits[i], HIT_STR(lk, &hits[i], path), w, sizeof w))
			hits[i].ev += 2;
}

/* A factory's body beside a call of it raising the same text: the call
 * is the raise site, the body its definition. */
static void factory_bodies(const fl_lookup *lk, struct hit *hits, size_t nh)
{
	if (nh < 2 || nh > 256)
		return;
	for (size_t i = 0; i < nh; i++) {
		if (!(lk->seg[hits[i].seg].ent[hits[i].entry].flags & IDX_CALL))
			continue;
		const char *pat = HIT_STR(lk, &hits[i], pattern);
		for (size_t j = 0; j < nh; j++)
			if (!(lk->seg[hits[j].seg].ent[hits[j].entry].flags & IDX_CALL) &&
			    strcmp(HIT_STR(lk, &hits[j], pattern), pat) == 0)
				hits[j].def = true;
	}
}

/* Each late definition's built_near: another hit on its line with the
 * same pattern, no definition, in the definition's folder. */
static void built_near(const fl_lookup *lk, struct hit *hits, size_t nh)
{
	if (nh < 2 || nh > 256)
		return;
	for (size_t i = 0; i < nh; i++) {
		struct hit *d = &hits[i];
		if (!d->def || !d->late)
			continue;
		const char *dp = HIT_STR(lk, d, path), *ds = strrchr(dp, '/');
		size_t dl = ds ? (size_t)(ds - dp) : 0;
		for (size_t j = 0; j < nh && !d->built_near; j++) {
			const struct hit *b = &hits[j];
			if (b->def || b->pos != d->pos ||
			    strcmp(HIT_STR(lk, b, pattern), HIT_STR(lk, d, pattern)) != 0)
				continue;
			const char *bp = HIT_STR(lk, b, path), *bs = strrchr(bp, '/');
			size_t bl = bs ? (size_t)(bs - bp) : 0;
			d->built_near = bl == dl && strncmp(bp, dp, dl) == 0;
		}
	}
}

size_t fl_lk_rank(const fl_lookup *lk, struct hit *hits, size_t nh)
{
	captures_name_files(lk, hits, nh);
	nearby(lk, hits, nh);
	factory_bodies(lk, hits, nh);
	built_near(lk, hits, nh);
	rank_lines(hits, nh);
	qsort(hits, nh, sizeof *hits, cmp_hit);
	size_t n = 0;
	for (size_t i = 0; i < nh; i++) {
		struct hit *h = &hits[i];
		if (h->strong) {
			/* scores in [0.9, 1): specificity first, then evidence and
			 * coverage */
			double spec = h->literal >= 200 ? 1.0 : (double)h->literal / 200.0;
			double ev = h->ev > 10 ? 1.0 : h->ev / 10.0;
			h->score = 0.9 + 0.06 * spec + 0.02 * h->coverage + 0.019 * ev;
			if (h->score > 0.999)
				h->score = 0.999;
		} else {
			/* below the pattern tier's: as confident as the
			 * information it carries and the part of its line it
			 * spans */
			double cov = h->coverage >= RANK_COVER_MIN ? 1.0 : h->coverage / RANK_COVER_MIN;
			if (h->info >= 1.0) /* informative, inside a longer line */
				h->score = FL_LK_CONFIDENT + (0.899 - FL_LK_CONFIDENT) * cov;
			else
				h->score = 0.899 * h->info * cov;
			if (h->score < FL_LK_CONFIDENT)
				continue; /* no answer */
		}
		/* keep the order of the ranking */
		if (n > 0 && h->score > hits[n - 1].score)
			h->score = hits[n - 1].score;
		hits[n++] = *h;
	}
	return n;
}

/* ---- why ------------------------------------------------------------------------------ */

void fl_lk_why(const fl_lookup *lk, const struct hit *hits, size_t nh, size_t i,
	       const fl_query *q, fl_match *m)
{
	const fl_index *ix = &lk->seg[hits[i].seg];
	const idx_entry *x = &ix->ent[hits[i].entry];
	if (q)
		evidence_why(ix, x, q, &m->evidence);
	char named[CAPTURE_WORD_MAX + 1];
	if (capture_names_file(&hits[i], ix_str(ix, x->path), named, sizeof named)) {
		char line[128];
		snprintf(line, sizeof line, "a value in the text, %s, names its file or folder", named);
		fl_strv_push(&m->evidence, line);
	}
	if (hits[i].quotes_err) {
		fl_strv_push(&m->evidence, "a placeholder named for an error holds another record's message");
	}
	if (hits[i].near) {
		char line[128];
		snprintf(line, sizeof line, "%d other line%s of the text match%s records of its file",
			 hits[i].near, hits[i].near > 1 ? "s" : "", hits[i].near > 1 ? "" : "es");
		fl_strv_push(&m->evidence, line);
	}
	/* the records that raise the same text */
	size_t same = 0;
	for (size_t j = 0; j < nh; j++)
		if (strcmp(HIT_STR(lk, &hits[j], pattern), ix_str(ix, x->pattern)) == 0)
			same++;
	m->same_text = same;
}
