/*
 * describe.c — fl_describe(): the explanation of a record, written only
 * from facts the scanner found in the code (the raising construct, the
 * enclosing function and its parameters, the local guard, class, code,
 * status, the source window).  No model and nothing invented, so every
 * record validates offline.  Each field has its own writer: prose.c (the
 * text a person reads), defend.c (the code a caller writes), family.c (the
 * backgroundTag and handlingStrategy), tags.c; facts.c and guard.c read the
 * facts they share.
 */
#include "../describe.h"

#include <stdlib.h>
#include <string.h>

#include "dsc.h"

/* text as a Markdown code span: fenced by one backtick more than the
 * longest run of backticks in it, and padded with spaces when it starts
 * or ends with one (CommonMark strips that padding): a guard such as
 * header !== `Bearer ${token}` stays one span */
static bool ws(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* text with each run of white space outside its quotes made one space,
 * and none at its ends: an argument written over several lines,
 * `f(a,\n<40 spaces>b)`, reads as `f(a, b)`; NULL when there is no such
 * run */
static char *one_space(const char *text)
{
	size_t n = strlen(text);
	bool any = n && (ws(text[0]) || ws(text[n - 1]));
	char q = 0;
	for (const char *p = text; *p && !any; p++) {
		if (q) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'' || *p == '`') {
			q = *p;
		} else if (*p == '\n' || *p == '\t' || *p == '\r' || (*p == ' ' && p[1] == ' ')) {
			any = true;
		}
	}
	if (!any)
		return NULL;
	fl_buf o = {0};
	q = 0;
	while (ws(*text))
		text++;
	for (const char *p = text; *p; p++) {
		if (q) {
			fl_buf_putc(&o, *p);
			if (*p == '\\' && p[1])
				fl_buf_putc(&o, *++p);
			else if (*p == q)
				q = 0;
			continue;
		}
		if (ws(*p)) {
			while (ws(p[1]))
				p++;
			if (p[1])
				fl_buf_putc(&o, ' ');
			continue;
		}
		if (*p == '"' || *p == '\'' || *p == '`')
			q = *p;
		fl_buf_putc(&o, *p);
	}
	if (!o.n) { /* white space only: as it is */
		fl_buf_free(&o);
		return NULL;
	}
	return dsc_take(&o);
}

void dsc_code(fl_buf *b, const char *text)
{
	char *own = one_space(text);
	if (own)
		text = own;
	size_t n = strlen(text), run = 0, longest = 0;
	for (const char *p = memchr(text, '`', n); p; p = memchr(p, '`', n - (size_t)(p - text))) {
		for (run = 0; *p == '`'; p++)
			run++;
		if (run > longest)
			longest = run;
	}
	bool pad = n && (text[0] == '`' || text[n - 1] == '`');
	for (size_t k = 0; k <= longest; k++)
		fl_buf_putc(b, '`');
	if (pad)
		fl_buf_putc(b, ' ');
	fl_buf_put(b, text, n);
	if (pad)
		fl_buf_putc(b, ' ');
	for (size_t k = 0; k <= longest; k++)
		fl_buf_putc(b, '`');
	free(own);
}

char *dsc_take(fl_buf *b)
{
	fl_buf_cstr(b);
	char *s = b->s;
	memset(b, 0, sizeof *b);
	return s;
}

void fl_describe(fl_entry *e, const fl_site *s, const char *lang)
{
	dsc d;
	dsc_init(&d, e, s, lang);
	dsc_documentation(&d);
	dsc_triggers(&d);
	dsc_situations(&d);
	dsc_solutions(&d);
	dsc_prevention(&d);
	e->handling_strategy = fl_xstrdup(d.strategy);
	e->background_tag = fl_xstrdup(d.family);
	dsc_try_catch(&d);
	dsc_validation(&d);
	dsc_example_fix(&d);
	dsc_tags(&d);
	dsc_free(&d);
}
