/*
 * match.c — pattern programs (literal segments and gaps) and the PCRE2
 * fallback for patterns of any other form.  See match.h.
 */
#define _GNU_SOURCE
#include "match.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "../util.h"

/* the bytes a regex gives a meaning to */
static const bool meta[256] = {
	['.'] = true, ['*'] = true, ['+'] = true, ['?'] = true, ['^'] = true,
	['$'] = true, ['{'] = true, ['}'] = true, ['('] = true, [')'] = true,
	['|'] = true, ['['] = true, [']'] = true, ['\\'] = true,
};

static bool is_meta(char c)
{
	return meta[(unsigned char)c];
}

/* Start a segment at buf + o after pending_gap placeholders; false when
 * there are too many segments. */
static bool open_segment(fl_prog *p, char *at, int pending_gap)
{
	if (p->nseg == FL_MAX_SEGMENTS)
		return false;
	uint8_t gap = (uint8_t)(pending_gap > 255 ? 255 : pending_gap);
	if (p->nseg == 0)
		p->lead_gap = gap;
	else if (pending_gap == 0)
		return false; /* cannot happen: segments merge */
	else
		p->gap[p->nseg - 1] = gap;
	p->seg[p->nseg++] = at;
	return true;
}

bool fl_prog_parse(const char *pat, char *buf, fl_prog *p)
{
	/* the arrays are read below nseg only: a confirmation parses a
	 * pattern each time, and they are most of the struct */
	p->nseg = 0;
	p->literal = 0;
	p->lead_gap = p->trail_gap = 0;
	size_t o = 0;
	int pending_gap = 0;
	bool in_seg = false;
	for (size_t i = 0; pat[i];) {
		/* a run of plain bytes, copied whole */
		size_t r = i;
		while (pat[r] && !is_meta(pat[r]))
			r++;
		if (r > i) {
			if (!in_seg && !open_segment(p, buf + o, pending_gap))
				return false;
			in_seg = true;
			pending_gap = 0;
			memcpy(buf + o, pat + i, r - i);
			o += r - i;
			p->literal += r - i;
			i = r;
			continue;
		}
		if (pat[i] == '(' && strncmp(pat + i, "(.+?)", 5) == 0) {
			if (in_seg) {
				/* close the segment */
				p->seglen[p->nseg - 1] = (uint16_t)(buf + o - p->seg[p->nseg - 1]);
				buf[o++] = '\0';
				in_seg = false;
			}
			pending_gap++;
			i += 5;
			continue;
		}
		if (pat[i] != '\\')
			return false; /* another regex construct */
		char c = pat[i + 1];
		if (!is_meta(c) && c != '/' && c != '-' && c != '#' && c != ' ' &&
		    c != '"' && c != '\'' && c != ':' && c != '!' && c != '<' &&
		    c != '>' && c != '=' && c != ',' && c != '@' && c != '%' &&
		    c != '&' && c != '~' && c != '`' && c != ';')
			return false; /* \d, \w, \n ... */
		i += 2;
		if (!in_seg && !open_segment(p, buf + o, pending_gap))
			return false;
		in_seg = true;
		pending_gap = 0;
		buf[o++] = c;
		p->literal++;
	}
	if (in_seg) {
		p->seglen[p->nseg - 1] = (uint16_t)(buf + o - p->seg[p->nseg - 1]);
		buf[o++] = '\0';
	}
	p->trail_gap = (uint8_t)(pending_gap > 255 ? 255 : pending_gap);
	return p->nseg > 0;
}

bool fl_pattern_factor(const char *pat, char *buf, size_t *len)
{
	/* longest run of literal bytes, escapes decoded; any regex construct
	 * breaks a run */
	size_t best = 0, cur = 0;
	char run[512];
	for (size_t i = 0;;) {
		char c = pat[i];
		bool lit = false;
		char v = 0;
		if (c == '\\' && pat[i + 1] && is_meta(pat[i + 1])) {
			lit = true;
			v = pat[i + 1];
			i += 2;
		} else if (c == '\\' && pat[i + 1] &&
			   !strchr("dDwWsSbBAzZGnrtfveaxuUpPkgQEhHRXNK0123456789", pat[i + 1])) {
			lit = true;
			v = pat[i + 1];
			i += 2;
		} else if (c && !is_meta(c)) {
			lit = true;
			v = c;
			i++;
		} else if (c == '\\' && pat[i + 1]) {
			i += 2;
		} else if (c) {
			/* a quantifier after a literal makes that literal optional */
			if ((c == '?' || c == '*' || c == '{') && cur > 0)
				cur--;
			i++;
		}
		if (lit && cur < sizeof run) {
			run[cur++] = v;
			continue;
		}
		if (cur > best) {
			best = cur;
			memcpy(buf, run, cur);
		}
		cur = 0;
		if (!c)
			break;
		/* alternation: no factor is required */
		if (c == '|')
			return false;
	}
	*len = best;
	return best >= 3;
}

static bool word_byte(char ch);

/* Where the first segment of p starts for a match whose first segment
 * was found earliest at s0 and whose second starts at s1: the latest
 * occurrence that still leaves the first gap room and follows a byte
 * that is no letter, digit or '_'.  A message printed after a wrapper
 * that holds its first segment too ("Invalid value '10Q' for '--size
 * <size>': '10Q' is not a valid size constraint" against "'{}' is not a
 * valid size constraint") starts at the last one, and its value is
 * "10Q"; a value holding the segment inside a word ("'it's' is not ...")
 * keeps the first. */
static size_t last_first_segment(const fl_prog *p, const char *text, size_t s0, size_t s1)
{
	size_t l = p->seglen[0], best = s0;
	if (s1 < s0 + l + p->gap[0])
		return s0;
	size_t last = s1 - p->gap[0] - l; /* the latest start that fits */
	for (size_t k = s0 + 1; k <= last; k++) {
		const char *at = fl_memmem(text + k, last + l - k, p->seg[0], l);
		if (!at)
			break;
		k = (size_t)(at - text);
		if (!word_byte(text[k - 1]))
			best = k;
	}
	return best;
}

/* Greedy earliest-occurrence match of p inside text[0, len), but for the
 * first segment's start (last_first_segment); offsets are relative to
 * text. */
static bool match_slice(const fl_prog *p, const char *text, size_t len,
			fl_span *caps, size_t *ncaps, fl_span *whole)
{
	size_t n = 0, first_start = 0, prev_end = 0;
	for (uint16_t i = 0; i < p->nseg; i++) {
		size_t from = i == 0 ? p->lead_gap : prev_end + p->gap[i - 1];
		if (from > len)
			return false;
		const char *at = fl_memmem(text + from, len - from, p->seg[i], p->seglen[i]);
		if (!at)
			return false;
		size_t s = (size_t)(at - text);
		if (i == 1 && !p->lead_gap) {
			first_start = last_first_segment(p, text, first_start, s);
			prev_end = first_start + p->seglen[0];
		}
		if (i == 0) {
			first_start = p->lead_gap ? 0 : s;
			if (p->lead_gap)
				caps[n++] = (fl_span){0, s};
		} else {
			caps[n++] = (fl_span){prev_end, s};
		}
		prev_end = s + p->seglen[i];
	}
	size_t end = prev_end;
	if (p->trail_gap) {
		if (len - prev_end < p->trail_gap)
			return false;
		/* lazily one character would do; report the rest of the line,
		 * which is what the placeholder stood for */
		size_t stop = len;
		while (stop > prev_end + p->trail_gap &&
		       (text[stop - 1] == '\r' || text[stop - 1] == ' '))
			stop--;
		caps[n++] = (fl_span){prev_end, stop};
		/* the match itself ends where a lazy (.+?) would */
		end = prev_end + p->trail_gap;
	}
	*ncaps = n;
	whole->start = first_start;
	whole->end = end;
	return true;
}

bool fl_prog_match(const fl_prog *p, const char *text, size_t len,
		   fl_span *caps, size_t *ncaps, fl_span *whole)
{
	bool multiline = false;
	for (uint16_t i = 0; i < p->nseg; i++)
		if (memchr(p->seg[i], '\n', p->seglen[i]))
			multiline = true;
	if (multiline)
		return match_slice(p, text, len, caps, ncaps, whole);
	/* gaps do not cross lines (as `.` in a regex): try the lines that
	 * hold the first segment, leftmost first */
	size_t search = 0;
	while (search < len) {
		const char *at = fl_memmem(text + search, len - search, p->seg[0], p->seglen[0]);
		if (!at)
			return false;
		size_t s = (size_t)(at - text);
		size_t ls = s;
		while (ls > 0 && text[ls - 1] != '\n')
			ls--;
		const char *nl = memchr(text + s, '\n', len - s);
		size_t le = nl ? (size_t)(nl - text) : len;
		if (match_slice(p, text + ls, le - ls, caps, ncaps, whole)) {
			for (size_t k = 0; k < *ncaps; k++) {
				caps[k].start += ls;
				caps[k].end += ls;
			}
			whole->start += ls;
			whole->end += ls;
			return true;
		}
		search = le + 1;
	}
	return false;
}

/* ---- what a conversion prints ---------------------------------------------- */

static bool word_byte(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

bool fl_capture_fits(const char *conv, size_t clen, const char *cap, size_t n, int side)
{
	if (clen < 2 || conv[0] != '%')
		return true;
	char c = conv[clen - 1];
	int base = c == 'd' || c == 'i' || c == 'u' ? 10 : c == 'o' ? 8 : c == 'x' || c == 'X' ? 16 : 0;
	if (!base)
		return true;
	/* "'": C's thousands grouping, or PHP's padding by the character
	 * that follows (%'*10d): either may print other bytes */
	if (memchr(conv, '\'', clen))
		return true;
	bool width = false, group = false, alt = false, left = false;
	size_t i = 1;
	for (; i < clen && strchr("-+ #0,", conv[i]); i++) {
		group = group || conv[i] == ',';
		alt = alt || conv[i] == '#';
		left = left || conv[i] == '-';
		width = width || conv[i] == ' ';
	}
	width = width || (i < clen && ((conv[i] >= '1' && conv[i] <= '9') || conv[i] == '*'));
#define DIGIT(ch) (base == 16 ? isxdigit((unsigned char)(ch)) != 0 : (ch) >= '0' && (ch) < '0' + base)
	if (side < 0) {
		/* the value ends the capture: digits back from its end, then
		 * "0x", a sign, padding; other text may come before */
		size_t e = n;
		if (width && left)
			while (e > 0 && cap[e - 1] == ' ')
				e--;
		size_t k = e;
		while (k > 0 && (DIGIT(cap[k - 1]) || (group && cap[k - 1] == ',' && k < e)))
			k--;
		if (k == e || !DIGIT(cap[k]))
			return false;
		/* the alternate form's prefix (Python's octal one is "0o"),
		 * Ruby's ".." of a negative number in two's complement */
		if (alt && base != 10 && k >= 2 && (cap[k - 1] | 0x20) == (base == 16 ? 'x' : 'o') &&
		    cap[k - 2] == '0')
			k -= 2;
		if (base != 10 && k >= 2 && cap[k - 1] == '.' && cap[k - 2] == '.')
			k -= 2;
		if (k > 0 && (cap[k - 1] == '-' || cap[k - 1] == '+'))
			k--;
		return k == 0 || !word_byte(cap[k - 1]);
	}
	size_t b = 0, e = n;
	if (width)
		while (b < e && cap[b] == ' ')
			b++;
	if (side == 0 && width && left)
		while (e > b && cap[e - 1] == ' ')
			e--;
	if (b < e && (cap[b] == '-' || cap[b] == '+'))
		b++;
	if (base != 10 && e - b > 2 && cap[b] == '.' && cap[b + 1] == '.')
		b += 2;
	if (alt && base != 10 && e - b > 2 && cap[b] == '0' &&
	    (cap[b + 1] | 0x20) == (base == 16 ? 'x' : 'o'))
		b += 2;
	size_t k = b;
	while (k < e && (DIGIT(cap[k]) || (group && cap[k] == ',' && k > b)))
		k++;
#undef DIGIT
	if (k == b)
		return false;
	/* the value starts the capture: other text may follow it */
	return side > 0 ? k == e || !word_byte(cap[k]) : k == e;
}

/* ---- PCRE2 fallback -------------------------------------------------------- */

struct re_cache_ent {
	char *pattern;
	pcre2_code *code;
	pcre2_match_data *md;
};

#define RE_CACHE 256
static __thread struct re_cache_ent re_cache[RE_CACHE];
static __thread pcre2_match_context *re_mctx;

void fl_regex_cache_clear(void)
{
	for (int i = 0; i < RE_CACHE; i++) {
		free(re_cache[i].pattern);
		pcre2_code_free(re_cache[i].code);
		pcre2_match_data_free(re_cache[i].md);
		memset(&re_cache[i], 0, sizeof re_cache[i]);
	}
	pcre2_match_context_free(re_mctx);
	re_mctx = NULL;
}

bool fl_regex_match(const char *pattern, const char *text, size_t len,
		    fl_span *caps, size_t *ncaps, fl_span *whole)
{
	uint32_t h = 2166136261u;
	for (const char *q = pattern; *q; q++)
		h = (h ^ (unsigned char)*q) * 16777619u;
	struct re_cache_ent *e = &re_cache[h % RE_CACHE];
	if (!e->pattern || strcmp(e->pattern, pattern) != 0) {
		free(e->pattern);
		pcre2_code_free(e->code);
		pcre2_match_data_free(e->md);
		memset(e, 0, sizeof *e);
		int errc;
		PCRE2_SIZE erro;
		e->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
					PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &errc, &erro, NULL);
		if (!e->code)
			return false;
		pcre2_jit_compile(e->code, PCRE2_JIT_COMPLETE);
		e->md = pcre2_match_data_create_from_pattern(e->code, NULL);
		e->pattern = fl_xstrdup(pattern);
	}
	if (!re_mctx) {
		re_mctx = pcre2_match_context_create(NULL);
		/* a pathological pattern gives up instead of stalling a query */
		pcre2_set_match_limit(re_mctx, 100000);
		pcre2_set_depth_limit(re_mctx, 1000);
	}
	int rc = pcre2_match(e->code, (PCRE2_SPTR)text, len, 0, 0, e->md, re_mctx);
	if (rc <= 0)
		return false;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(e->md);
	whole->start = ov[0];
	whole->end = ov[1];
	size_t n = 0;
	for (int i = 1; i < rc && n <= FL_MAX_SEGMENTS; i++) {
		if (ov[2 * i] == PCRE2_UNSET)
			continue;
		caps[n++] = (fl_span){ov[2 * i], ov[2 * i + 1]};
	}
	/* a pattern ending with a lazy placeholder: as fl_prog_match, its
	 * capture is the rest of the line (the lenient pass's loose and
	 * empty-allowing patterns) */
	size_t pl = strlen(pattern);
	if (n && pl >= 5 && (strcmp(pattern + pl - 5, "(.+?)") == 0 ||
			     strcmp(pattern + pl - 5, "(.*?)") == 0) &&
	    (pl == 5 || pattern[pl - 6] != '\\') && caps[n - 1].end == ov[1]) {
		const char *nl = memchr(text + caps[n - 1].start, '\n', len - caps[n - 1].start);
		size_t stop = nl ? (size_t)(nl - text) : len;
		while (stop > caps[n - 1].end && (text[stop - 1] == '\r' || text[stop - 1] == ' '))
			stop--;
		caps[n - 1].end = stop;
	}
	*ncaps = n;
	return true;
}

char *fl_pattern_loose(const char *pattern)
{
	return fl_pattern_loose_as(pattern, FL_LOOSE_FORMS);
}

char *fl_pattern_loose_as(const char *pattern, int ws)
{
	if (!strstr(pattern, "%\\(") && !strstr(pattern, "%<") &&
	    (ws == FL_LOOSE_FORMS || !strchr(pattern, '\n')))
		return NULL;
	fl_buf out = {0};
	bool any = false;
	size_t literal = 0;
	for (const char *p = pattern; *p;) {
		/* a message's line breaks and the indentation around them,
		 * printed as a single line ("...sequences:\n\n  {file}" by
		 * Liquid, a log that joins lines): any white space */
		if (ws != FL_LOOSE_FORMS && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) {
			const char *r = p;
			bool nl = false;
			while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r')
				nl |= *r++ == '\n';
			if (nl) {
				if (ws == FL_LOOSE_WS_HOLES)
					fl_buf_puts(&out, "(.+?)");
				else if (*r)
					fl_buf_puts(&out, "\\s+");
				any = true;
			} else { /* blanks alone: as they are, read once */
				fl_buf_put(&out, p, (size_t)(r - p));
				literal += (size_t)(r - p);
			}
			p = r;
			continue;
		}
		/* Python's %(name)s, Ruby's format(..., %<name>s) */
		bool ruby = p[0] == '%' && p[1] == '<';
		if (p[0] == '%' && ((p[1] == '\\' && p[2] == '(') || ruby)) {
			const char *q = p + (ruby ? 2 : 3), *q0 = q;
			while (isalnum((unsigned char)*q) || *q == '_')
				q++;
			if (q > q0 && (ruby ? q[0] == '>' : (q[0] == '\\' && q[1] == ')'))) {
				q += ruby ? 1 : 2;
				const char *c = q;
				for (int k = 0; k < 12 && *c && (strchr("#0- 123456789", *c) ||
								(c[0] == '\\' && (c[1] == '+' || c[1] == '.')));
				     k++)
					c += *c == '\\' ? 2 : 1;
				if (*c && strchr("diouxXeEfFgGcrsa", *c)) {
					fl_buf_puts(&out, "(.+?)");
					any = true;
					p = c + 1;
					continue;
				}
			}
		}
		if (p[0] == '(' && strncmp(p, "(.+?)", 5) == 0) {
			fl_buf_puts(&out, "(.+?)");
			p += 5;
			continue;
		}
		if (p[0] == '\\' && p[1]) {
			fl_buf_put(&out, p, 2);
			p += 2;
		} else {
			fl_buf_putc(&out, *p++);
		}
		literal++;
	}
	fl_buf_cstr(&out);
	if (!any || literal < 6) {
		fl_buf_free(&out);
		return NULL;
	}
	return out.s;
}
