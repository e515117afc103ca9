/*
 * yacc.c — yacc / bison grammars (.y, .yy) read as C: their prologue
 * (`%{ ... %}`), actions (`{ ... }`) and epilogue are C, their `%%`
 * section marks and `%token`-style declarations are not.  The lexer reads
 * the file as C; this drops the `%` tokens that start a line with what
 * follows them (`%{`, `%}`, `%%`, `%token`, `%union`...), so that the
 * prologue's functions stand at the top level and its braces match.
 * Grammar rules are then plain tokens (names, character literals, `:`
 * `|` `;`), none of which is a call; `$$`, `$1` are identifiers and `@$`
 * a punctuator and an identifier.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"

bool c_is_grammar(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return (n > 2 && strcmp(path + n - 2, ".y") == 0) ||
	       (n > 3 && strcmp(path + n - 3, ".yy") == 0);
}

void c_grammar_tidy(fl_toks *t)
{
	size_t o = 0;
	for (size_t i = 0; i < t->n; i++) {
		fl_tok *k = &t->v[i];
		bool bol = i == 0 || t->v[i - 1].line != k->line;
		if (bol && !(k->flags & TF_DIR) && tk_p1(t, i, '%') && i + 1 < t->n &&
		    t->v[i + 1].off == k->off + 1 &&
		    (tk_p1(t, i + 1, '{') || tk_p1(t, i + 1, '}') || tk_p1(t, i + 1, '%') ||
		     t->v[i + 1].kind == FL_TK_IDENT)) {
			/* %token-style names may hold '-' (%define
			 * parse.error, %error-verbose): up to the blank */
			size_t j = i + 2;
			if (t->v[i + 1].kind == FL_TK_IDENT)
				while (j + 1 < t->n && tk_p1(t, j, '-') &&
				       t->v[j].off == t->v[j - 1].off + t->v[j - 1].len &&
				       t->v[j + 1].off == t->v[j].off + 1 &&
				       t->v[j + 1].kind == FL_TK_IDENT)
					j += 2;
			i = j - 1;
			continue;
		}
		t->v[o++] = *k;
	}
	if (o != t->n) {
		t->n = o;
		/* the bracket list fl_toks_push() kept holds the old places */
		t->br_ok = false;
	}
}
