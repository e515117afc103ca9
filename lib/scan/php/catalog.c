/*
 * catalog.c — the PHP family's rule catalogues (php.h): an XML file of the
 * tree that declares rules by class, each with the message a violation
 * of it prints (PHPMD's rulesets: `<rule name="BooleanArgumentFlag"
 * message="The method {0} has a boolean flag argument {1}, ..."
 * class="PHPMD\Rule\CleanCode\BooleanArgumentFlag">`), read by the
 * collect pass; and the rule that makes the class's own report of a
 * violation (`$this->addViolation($node, array(...))`) a site of that
 * message.  The catalogue is kept by the class's last name (the tree's
 * classes are named so elsewhere too): two rules of one name that differ
 * make it unknown.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "php.h"

#define CATALOG_RULES 4096 /* rules read from one file at most */

bool php_catalog_path(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return n > 4 && strcmp(path + n - 4, ".xml") == 0;
}

static bool xml_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* The value of attribute name (`name="..."`, `name = '...'`) in the tag
 * [s, e), its XML entities decoded, or NULL. */
static char *attr(const char *s, const char *e, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = s; p + nl + 2 < e; p++) {
		if (memcmp(p, name, nl) != 0 || !xml_space(p[-1]))
			continue;
		const char *a = p + nl;
		while (a < e && xml_space(*a))
			a++;
		if (a >= e || *a != '=')
			continue;
		a++;
		while (a < e && xml_space(*a))
			a++;
		if (a >= e || (*a != '"' && *a != '\''))
			continue;
		char q = *a;
		const char *v = a + 1, *ve = memchr(v, q, (size_t)(e - v));
		if (!ve)
			return NULL;
		fl_buf b = {0};
		for (const char *r = v; r < ve; r++) {
			static const struct {
				const char *ent, ch;
			} ents[] = {{"&quot;", '"'}, {"&apos;", '\''}, {"&lt;", '<'}, {"&gt;", '>'},
				    {"&amp;", '&'}};
			bool done = false;
			for (size_t k = 0; k < sizeof ents / sizeof *ents && *r == '&' && !done; k++) {
				size_t el = strlen(ents[k].ent);
				if ((size_t)(ve - r) >= el && memcmp(r, ents[k].ent, el) == 0) {
					fl_buf_putc(&b, ents[k].ch);
					r += el - 1;
					done = true;
				}
			}
			if (!done && *r == '&' && r + 3 < ve && r[1] == '#') {
				/* &#10; &#x27; */
				char *end;
				unsigned long cp = r[2] == 'x' ? strtoul(r + 3, &end, 16) : strtoul(r + 2, &end, 10);
				if (end < ve && *end == ';' && cp > 0 && cp < 0x110000) {
					fl_buf_put_utf8(&b, (uint32_t)cp);
					r = end;
					done = true;
				}
			}
			if (!done)
				fl_buf_putc(&b, *r == '\n' || *r == '\r' || *r == '\t' ? ' ' : *r);
		}
		fl_buf_cstr(&b);
		return b.s;
	}
	return NULL;
}

void php_catalog_collect(php_tree *pt, const fl_src *src)
{
	const char *s = src->text, *end = s + src->len;
	if (!pt || !s || !fl_memmem(s, src->len, "<rule", 5) || !fl_memmem(s, src->len, "message", 7))
		return;
	size_t rules = 0;
	for (const char *p = s; rules < CATALOG_RULES &&
				(p = fl_memmem(p, (size_t)(end - p), "<rule", 5)) != NULL;
	     p += 5) {
		if (p + 5 >= end || (p[5] != ' ' && p[5] != '\n' && p[5] != '\t' && p[5] != '\r'))
			continue; /* <ruleset> */
		const char *te = memchr(p, '>', (size_t)(end - p));
		if (!te)
			break;
		rules++;
		char *cls = attr(p + 5, te, "class"), *msg = attr(p + 5, te, "message");
		/* the class's last name: PHPMD\Rule\X, or a Java rule's a.b.X */
		const char *last = cls ? strrchr(cls, '\\') : NULL;
		last = last ? last + 1 : cls;
		if (last && strrchr(last, '.'))
			last = strrchr(last, '.') + 1;
		if (last && *last && msg && php_has_text(msg) && fl_utf8_valid(msg, strlen(msg)))
			fl_classdefs_add(pt->rules, last, msg, NULL, 0);
		else
			free(msg);
		free(cls);
	}
}

/* a method named for reporting a violation or a problem: addViolation,
 * reportViolation, addError, report... */
static bool violation_name(const ctx *c, size_t i)
{
	const fl_toks *t = &c->t;
	return fl_tok_contains_ci(t, i, "violation") || fl_tok_contains_ci(t, i, "report") ||
	       fl_tok_contains_ci(t, i, "error") || fl_tok_contains_ci(t, i, "warning");
}

bool php_rule_catalog(ctx *c, size_t i, char **msg)
{
	*msg = NULL;
	if (!c->tree || !c->tree->rules || !c->tree->rules->n || i < 2 ||
	    !is_id(c, i - 2, "$this") || !is_p(c, i + 1, "(") || !c->nfr)
		return false;
	size_t cls = c->fr[c->nfr - 1].cls;
	if (cls == NONE || !violation_name(c, i))
		return false;
	char *name = fl_tok_dup(&c->t, cls);
	const char *m = NULL, *code;
	int status;
	bool ok = fl_classdefs_find(c->tree->rules, name, &m, &code, &status) && m;
	free(name);
	if (ok)
		*msg = fl_xstrdup(m);
	return ok;
}
