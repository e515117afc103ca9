/*
 * index.c — building, saving and loading the lookup index (see index.h).
 */
#define _GNU_SOURCE
#include "index.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../store_internal.h"
#include "../strmap.h"
#include "../util.h"
#include "hslib.h"
#include "match.h"
#include "tokens.h"

/* Hyperscan, once the index has loaded it (fl_hs: every use below is on
 * an index built or opened) */
#define H (fl_hs(NULL))

#define FACTOR_MAX 64

struct fl_index_builder {
	fl_buf strings;
	fl_strmap strmap;      /* dedup of repeated strings (repos, paths) */
	idx_entry *ent;
	size_t n, cap;
	/* factors */
	fl_strmap factors;     /* factor text -> factor id */
	uint32_t *ent_factor;  /* per entry: factor id or UINT32_MAX */
	size_t nfactors;
	fl_buf fsrc;           /* per entry: the literal its factor is taken
				  from (NUL-terminated), chosen at the end */
	size_t *ent_fsrc;      /* offset into fsrc, SIZE_MAX = none */
	/* tokens */
	fl_strmap tokens;      /* token -> token id (build order) */
	uint32_t *tok_df;
	size_t ntok, tokcap;
	uint32_t *etoks;       /* per entry token ids (build order ids) */
	size_t netoks, etokcap;
	/* codes */
	idx_code *codes;
	size_t ncodes, codecap;
	size_t nparts;         /* IDX_PART entries (added last) */
};

static uint32_t put_str(fl_index_builder *b, const char *s, bool dedup)
{
	if (!s)
		return 0;
	size_t off;
	if (dedup && fl_strmap_get(&b->strmap, s, &off))
		return (uint32_t)off;
	off = b->strings.n;
	fl_buf_put(&b->strings, s, strlen(s) + 1);
	if (dedup)
		fl_strmap_put(&b->strmap, s, off);
	return (uint32_t)off;
}

fl_index_builder *fl_index_builder_new(void)
{
	fl_index_builder *b = fl_xcalloc(1, sizeof *b);
	fl_buf_putc(&b->strings, '\0'); /* offset 0 = "" = none */
	return b;
}

void fl_index_builder_add_item(fl_index_builder *b, const fl_index_item *e)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 1024;
		b->ent = fl_xrealloc(b->ent, b->cap * sizeof *b->ent);
		b->ent_factor = fl_xrealloc(b->ent_factor, b->cap * sizeof *b->ent_factor);
		b->ent_fsrc = fl_xrealloc(b->ent_fsrc, b->cap * sizeof *b->ent_fsrc);
	}
	idx_entry *x = &b->ent[b->n];
	memset(x, 0, sizeof *x);
	x->id = put_str(b, e->id, false);
	x->repo = put_str(b, e->repo, true);
	x->slug = put_str(b, e->slug, false);
	x->code = put_str(b, e->code, true);
	x->msg = put_str(b, e->message, false);
	x->path = put_str(b, e->path, true);
	x->url = put_str(b, e->url, false);
	/* the pattern as matched: without the blank lines and spaces a
	 * message starts with (`abort "\nFile does not exist: #{path}\n\n"`,
	 * the CLI's `\n${symbols.error} ERROR: ...`): a text pasted or
	 * logged starts at its first word, and a line of it holds no '\n' */
	const char *pattern = e->pattern;
	while (*pattern == '\n' || *pattern == '\r' || *pattern == ' ' || *pattern == '\t')
		pattern++;
	if (!*pattern)
		pattern = e->pattern;
	x->pattern = put_str(b, pattern, false);
	x->cls = put_str(b, e->cls, true);
	x->line = e->line;
	x->patlen = (uint32_t)strlen(pattern);
	x->whole = e->part_text ? e->whole : (uint32_t)b->n;
	if (!e->part_text && !(e->sites && *e->sites) && e->func && *e->func &&
	    !strpbrk(e->func, "\t\n") && strlen(e->func) < 200) {
		/* its own line's function alone, as read_sites writes it */
		char own[210];
		snprintf(own, sizeof own, "\t%s", e->func);
		x->sites = put_str(b, own, false);
	} else {
		x->sites = e->part_text ? 0 : put_str(b, e->sites && *e->sites ? e->sites : NULL, false);
	}
	if (e->part_text)
		x->flags |= IDX_PART;
	if (e->severity && strcmp(e->severity, "error") != 0 && strcmp(e->severity, "fatal") != 0 &&
	    strcmp(e->severity, "critical") != 0)
		x->flags |= IDX_WARN;
	if (e->type && (strcmp(e->type, "exception") == 0 || strcmp(e->type, "panic") == 0))
		x->flags |= IDX_RAISED;
	/* (a part's own line's) */
	x->flags |= fl_idx_os_text_len(e->part_text ? e->part_text : e->message) << IDX_OS_SHIFT;
	int kind = fl_idiom_kind(e->idiom);
	if (kind == FL_IDIOM_DEF)
		x->flags |= IDX_DEF;
	else if (kind == FL_IDIOM_CALL)
		x->flags |= IDX_CALL;

	/* pattern program and the literals its factor is chosen from */
	char *buf = fl_xmalloc(x->patlen + 1);
	fl_prog prog;
	x->maxlen = UINT32_MAX;
	b->ent_factor[b->n] = UINT32_MAX;
	b->ent_fsrc[b->n] = SIZE_MAX;
	if (fl_prog_parse(pattern, buf, &prog)) {
		x->flags |= IDX_SIMPLE;
		if (!strchr(pattern, '\n'))
			x->flags |= IDX_LOCAL;
		x->literal = prog.literal;
		x->minlen = prog.literal + prog.lead_gap + prog.trail_gap;
		for (uint16_t i = 0; i + 1 < prog.nseg; i++)
			x->minlen += prog.gap[i];
		/* one segment, no leading gap: a lazy match is bounded */
		if (prog.nseg == 1 && !prog.lead_gap)
			x->maxlen = (uint32_t)prog.seglen[0] + prog.trail_gap;
		/* the factor's candidates: every segment of FL_FACTOR_WINDOW
		 * bytes or more, else the longest one.  A message with
		 * Python's %(value)r, or a line break, takes them from its
		 * loose pattern (fl_pattern_loose_as), whose segments a text the
		 * stored pattern matches holds too: a text it fails on
		 * still finds the entry, for the lenient pass to try. */
		char *loose = fl_pattern_loose_as(pattern, FL_LOOSE_WS_HOLES);
		char *lbuf = loose ? fl_xmalloc(strlen(loose) + 1) : NULL;
		fl_prog lprog;
		if (loose && fl_prog_parse(loose, lbuf, &lprog))
			prog = lprog;
		uint16_t best = 0;
		for (uint16_t i = 1; i < prog.nseg; i++)
			if (prog.seglen[i] > prog.seglen[best])
				best = i;
		size_t start = b->fsrc.n;
		for (uint16_t i = 0; i < prog.nseg; i++) {
			bool cand = prog.seglen[best] >= FL_FACTOR_WINDOW
					    ? prog.seglen[i] >= FL_FACTOR_WINDOW
					    : i == best;
			if (cand && prog.seglen[i] >= 3 &&
			    !memchr(prog.seg[i], '\0', prog.seglen[i])) {
				fl_buf_put(&b->fsrc, prog.seg[i], prog.seglen[i]);
				fl_buf_putc(&b->fsrc, '\0');
			}
		}
		if (b->fsrc.n > start) {
			fl_buf_putc(&b->fsrc, '\0');
			b->ent_fsrc[b->n] = start;
		}
		free(lbuf);
		free(loose);
	} else {
		size_t l;
		if (fl_pattern_factor(pattern, buf, &l)) {
			/* specificity: the literal run, as long as 64 bytes */
			x->literal = (uint32_t)(l > FACTOR_MAX ? FACTOR_MAX : l);
			if (!memchr(buf, '\0', l)) {
				b->ent_fsrc[b->n] = b->fsrc.n;
				fl_buf_put(&b->fsrc, buf, l);
				fl_buf_putc(&b->fsrc, '\0');
				fl_buf_putc(&b->fsrc, '\0');
			}
		}
	}
	free(buf);

	/* tokens of the message (of the line, for a part: its information;
	 * parts are counted in no token's df and are in no posting list) */
	char tbuf[256 * FL_TOKEN_MAX];
	const char *toks[256];
	size_t nt = fl_tokens(e->part_text ? e->part_text : e->message, tbuf, toks, 256);
	x->toks = (uint32_t)b->netoks;
	x->ntoks = (uint32_t)nt;
	if (b->netoks + nt > b->etokcap) {
		b->etokcap = (b->netoks + nt) * 2 + 1024;
		b->etoks = fl_xrealloc(b->etoks, b->etokcap * sizeof *b->etoks);
	}
	for (size_t i = 0; i < nt; i++) {
		size_t tid;
		if (!fl_strmap_get(&b->tokens, toks[i], &tid)) {
			tid = b->ntok++;
			fl_strmap_put(&b->tokens, toks[i], tid);
			if (b->ntok > b->tokcap) {
				b->tokcap = b->tokcap ? b->tokcap * 2 : 4096;
				b->tok_df = fl_xrealloc(b->tok_df, b->tokcap * sizeof *b->tok_df);
			}
			b->tok_df[tid] = 0;
		}
		if (!e->part_text)
			b->tok_df[tid]++;
		b->etoks[b->netoks++] = (uint32_t)tid;
	}

	if (e->code && !e->part_text) {
		if (b->ncodes == b->codecap) {
			b->codecap = b->codecap ? b->codecap * 2 : 256;
			b->codes = fl_xrealloc(b->codes, b->codecap * sizeof *b->codes);
		}
		b->codes[b->ncodes++] = (idx_code){x->code, (uint32_t)b->n};
	}
	b->n++;
	if (e->part_text)
		b->nparts++;
}

static void builder_free(fl_index_builder *b)
{
	fl_buf_free(&b->strings);
	fl_strmap_free(&b->strmap);
	fl_strmap_free(&b->factors);
	fl_buf_free(&b->fsrc);
	free(b->ent_fsrc);
	fl_strmap_free(&b->tokens);
	free(b->ent);
	free(b->ent_factor);
	free(b->tok_df);
	free(b->etoks);
	free(b->codes);
	free(b);
}

/* Each entry's factor: a window of FL_FACTOR_WINDOW bytes of one of its
 * candidate segments (all of the segment when shorter), starting at the
 * segment's start, at a word start or at its end, whichever the fewest
 * entries could also take (counted in a fixed-size sketch of window
 * hashes): few entries share a factor, so an occurrence brings few
 * candidates.  A simple pattern's segment that holds the factor is kept
 * whole (idx_entry.seg) for the check before the pattern is tried. */
static bool word_start(const char *s, size_t o)
{
	return isalnum((unsigned char)s[o]) && (o == 0 || !isalnum((unsigned char)s[o - 1]));
}

static void choose_factors(fl_index_builder *b)
{
	/* about 16 slots per entry (a few windows each), 64k to 16M */
	size_t slots = (size_t)1 << 16;
	while (slots < b->n * 16 && slots < ((size_t)1 << 24))
		slots <<= 1;
	uint32_t mask = (uint32_t)(slots - 1);
	uint16_t *sketch = fl_xcalloc(slots, sizeof *sketch);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t e = 0; e < b->n; e++) {
			if (b->ent_fsrc[e] == SIZE_MAX)
				continue;
			const char *best = NULL, *bseg = NULL;
			size_t blen = 0, bseglen = 0;
			uint32_t least = UINT32_MAX;
			for (const char *seg = b->fsrc.s + b->ent_fsrc[e]; *seg;
			     seg += strlen(seg) + 1) {
				size_t len = strlen(seg);
				size_t w = len > FL_FACTOR_WINDOW ? FL_FACTOR_WINDOW : len;
				for (size_t o = 0; o + w <= len; o++) {
					if (o && !word_start(seg, o) && o + w != len)
						continue;
					uint32_t k = fl_fnv1a(seg + o, w) & mask;
					if (pass == 0) {
						if (sketch[k] < UINT16_MAX)
							sketch[k]++;
					} else if (sketch[k] < least) {
						least = sketch[k];
						best = seg + o;
						blen = w;
						bseg = seg;
						bseglen = len;
					}
				}
			}
			if (pass == 0 || !best)
				continue;
			char factor[FL_FACTOR_WINDOW + 1];
			memcpy(factor, best, blen);
			factor[blen] = '\0';
			size_t fid;
			if (!fl_strmap_get(&b->factors, factor, &fid)) {
				fid = b->nfactors++;
				fl_strmap_put(&b->factors, factor, fid);
			}
			b->ent_factor[e] = (uint32_t)fid;
			if (b->ent[e].flags & IDX_SIMPLE) {
				/* the segment's bytes inside the pattern when they
				 * are there as they are (no escape in them): one
				 * string less, and the check of the segment brings
				 * the pattern's cache line and page for the match
				 * after it */
				const char *pat = b->strings.s + b->ent[e].pattern;
				const char *in = memmem(pat, b->ent[e].patlen, bseg, bseglen);
				b->ent[e].seg = in ? b->ent[e].pattern + (uint32_t)(in - pat)
						   : put_str(b, bseg, false);
				b->ent[e].seglen = (uint32_t)bseglen;
				b->ent[e].segoff = (uint32_t)(best - bseg);
			}
		}
	}
	free(sketch);
	/* not needed any more: room for the literal compile */
	fl_buf_free(&b->fsrc);
	free(b->ent_fsrc);
	b->ent_fsrc = NULL;
}

static const char *g_sort_strings;

static int cmp_code(const void *a, const void *b)
{
	const idx_code *x = a, *y = b;
	int c = strcmp(g_sort_strings + x->str, g_sort_strings + y->str);
	if (c)
		return c;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

struct tok_sort {
	const char *s;
	uint32_t old;
};

static int cmp_tok(const void *a, const void *b)
{
	return strcmp(((const struct tok_sort *)a)->s, ((const struct tok_sort *)b)->s);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The image is written to its file as it is made (never whole in memory
 * beside the builder: at a million records it is 500 MB), to a temporary
 * beside the index renamed over it, or, where that cannot be written (a
 * read-only folder, a full disk), to an anonymous memory file: the index
 * is only a cache. */
struct imgw {
	int fd;
	char *tmp;             /* the temporary's path, NULL for memory */
	char *path;
	fl_buf buf;
	uint64_t off;          /* bytes put so far */
	uint64_t flushed;      /* bytes written to fd */
	int failed;            /* errno of the first failed write */
};

static int imgw_memory(struct imgw *w, fl_err *err);

/* write all of p; 0 or errno */
static int write_all(int fd, const char *p, size_t n)
{
	return fl_write_all(fd, p, n) < 0 ? errno : 0;
}

/* The file cannot take more (a full disk): go on in memory, with what it
 * holds so far. */
static void imgw_to_memory(struct imgw *w, uint64_t written)
{
	int old = w->fd;
	fl_err e;
	if (imgw_memory(w, &e) < 0) {
		w->fd = old;
		w->failed = errno ? errno : EIO;
		return;
	}
	char buf[1 << 16];
	for (uint64_t at = 0; at < written && !w->failed;) {
		size_t n = written - at < sizeof buf ? (size_t)(written - at) : sizeof buf;
		ssize_t r = pread(old, buf, n, (off_t)at);
		if (r <= 0)
			w->failed = r < 0 ? errno : EIO;
		else
			w->failed = write_all(w->fd, buf, (size_t)r), at += (uint64_t)r;
	}
	close(old);
	unlink(w->tmp);
	free(w->tmp);
	w->tmp = NULL;
}

static void imgw_flush(struct imgw *w)
{
	if (!w->failed && w->buf.n) {
		int e = write_all(w->fd, w->buf.s, w->buf.n);
		if (e && w->tmp) {
			imgw_to_memory(w, w->flushed);
			if (!w->failed)
				w->failed = write_all(w->fd, w->buf.s, w->buf.n);
		} else if (e) {
			w->failed = e;
		}
		w->flushed += w->buf.n;
	}
	w->buf.n = 0;
}

static void imgw_raw(struct imgw *w, const void *data, size_t len)
{
	w->off += len;
	const char *p = data;
	while (len && !w->failed) {
		size_t room = (1u << 20) - w->buf.n, n = len < room ? len : room;
		fl_buf_put(&w->buf, p, n);
		p += n;
		len -= n;
		if (w->buf.n == (1u << 20))
			imgw_flush(w);
	}
}

/* append aligned to 8 bytes, returning the offset */
static uint64_t img_put(struct imgw *w, const void *data, size_t len)
{
	static const char zero[8];
	if (w->off % 8)
		imgw_raw(w, zero, 8 - w->off % 8);
	uint64_t off = w->off;
	if (len)
		imgw_raw(w, data, len);
	return off;
}

static int imgw_memory(struct imgw *w, fl_err *err)
{
	w->fd = memfd_create("faultline-index", MFD_CLOEXEC);
	if (w->fd < 0)
		return fl_seterr(err, "cannot make the lookup index: %s", strerror(errno));
	return 0;
}

static int imgw_open(struct imgw *w, const char *path, fl_err *err)
{
	memset(w, 0, sizeof *w);
	if (path) {
		w->path = fl_xstrdup(path);
		w->tmp = fl_xasprintf("%s.tmp.%d", path, (int)getpid());
		w->fd = open(w->tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (w->fd >= 0)
			return 0;
		free(w->tmp);
		w->tmp = NULL;
	}
	return imgw_memory(w, err);
}

static int map_image(fl_index *ix, void *mem, size_t len, fl_err *err);

/* Finish the file (header at its start), put it in place and map it. */
static int imgw_close(struct imgw *w, const idx_header *h, fl_index *out, fl_err *err)
{
	imgw_flush(w);
	if (!w->failed && pwrite(w->fd, h, sizeof *h, 0) != (ssize_t)sizeof *h)
		w->failed = errno ? errno : EIO;
	if (w->tmp && !w->failed && (fsync(w->fd) < 0 || rename(w->tmp, w->path) < 0)) {
		/* not kept for the next process, but whole: mapped still */
		unlink(w->tmp);
		free(w->tmp);
		w->tmp = NULL;
	}
	int rc = 0;
	void *m = MAP_FAILED;
	if (w->failed)
		rc = fl_seterr(err, "cannot make the lookup index: %s", strerror(w->failed));
	else if ((m = mmap(NULL, (size_t)h->total, PROT_READ, MAP_PRIVATE, w->fd, 0)) == MAP_FAILED)
		rc = fl_seterr(err, "cannot map the lookup index: %s", strerror(errno));
	close(w->fd);
	if (rc == 0 && (rc = map_image(out, m, (size_t)h->total, err)) == 0 && w->tmp)
		out->path = fl_xstrdup(w->path);
	if (rc < 0 && w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	fl_buf_free(&w->buf);
	return rc;
}

int fl_index_builder_finish(fl_index_builder *b, int64_t generation,
			    const char *version, const char *store_id,
			    const fl_index_link *link, const char *path, fl_index *out,
			    fl_err *err)
{
	memset(out, 0, sizeof *out);
	/* token strings, sorted */
	struct tok_sort *ts = fl_xcalloc(b->ntok + 1, sizeof *ts);
	for (size_t i = 0; i < b->tokens.cap; i++)
		if (b->tokens.keys[i]) {
			size_t id = b->tokens.vals[i];
			ts[id].s = b->tokens.keys[i];
			ts[id].old = (uint32_t)id;
		}
	qsort(ts, b->ntok, sizeof *ts, cmp_tok);
	uint32_t *remap = fl_xcalloc(b->ntok + 1, sizeof *remap);
	idx_token *tok = fl_xcalloc(b->ntok + 1, sizeof *tok);
	uint64_t npost = 0;
	for (size_t i = 0; i < b->ntok; i++) {
		remap[ts[i].old] = (uint32_t)i;
		tok[i].str = put_str(b, ts[i].s, false);
		tok[i].df = b->tok_df[ts[i].old];
		tok[i].post = (uint32_t)npost;
		tok[i].idf = (float)fl_idf(b->n - b->nparts, tok[i].df);
		npost += tok[i].df;
	}
	uint32_t *post = fl_xcalloc(npost + 1, sizeof *post);
	uint32_t *fill = fl_xcalloc(b->ntok + 1, sizeof *fill);
	for (size_t e = 0; e < b->n; e++) {
		idx_entry *x = &b->ent[e];
		float norm = 0;
		for (uint32_t k = 0; k < x->ntoks; k++) {
			uint32_t t = remap[b->etoks[x->toks + k]];
			b->etoks[x->toks + k] = t;
			if (!(x->flags & IDX_PART))
				post[tok[t].post + fill[t]++] = (uint32_t)e;
			norm += tok[t].idf;
		}
		if (x->ntoks > 1)
			qsort(b->etoks + x->toks, x->ntoks, sizeof(uint32_t), cmp_u32);
		x->norm = norm;
	}
	free(fill);
	free(remap);
	free(ts);

	/* factors: ids -> entries, and the literal database */
	choose_factors(b);
	uint32_t *fidx = fl_xcalloc(b->nfactors + 1, sizeof *fidx);
	uint32_t *fcount = fl_xcalloc(b->nfactors + 1, sizeof *fcount);
	size_t nalways = 0;
	for (size_t e = 0; e < b->n; e++) {
		if (b->ent_factor[e] == UINT32_MAX)
			nalways++;
		else
			fcount[b->ent_factor[e]]++;
	}
	uint32_t acc = 0;
	for (size_t f = 0; f < b->nfactors; f++) {
		fidx[f] = acc;
		acc += fcount[f];
	}
	fidx[b->nfactors] = acc;
	uint32_t *fent = fl_xcalloc(acc + 1, sizeof *fent);
	uint32_t *always = fl_xcalloc(nalways + 1, sizeof *always);
	memset(fcount, 0, (b->nfactors + 1) * sizeof *fcount);
	size_t ai = 0;
	for (size_t e = 0; e < b->n; e++) {
		uint32_t f = b->ent_factor[e];
		if (f == UINT32_MAX)
			always[ai++] = (uint32_t)e;
		else
			fent[fidx[f] + fcount[f]++] = (uint32_t)e;
	}
	free(fcount);
	/* per factor: if every entry is a short pattern with a bounded match,
	 * the longest match any of them can make (lines whose message is much
	 * longer cannot be theirs) */
	uint32_t *fmax = fl_xcalloc(b->nfactors + 1, sizeof *fmax);
	for (size_t f = 0; f < b->nfactors; f++) {
		uint32_t m = 0;
		for (uint32_t k = fidx[f]; k < fidx[f + 1]; k++) {
			const idx_entry *x = &b->ent[fent[k]];
			uint32_t v = x->literal < FL_SHORT_PATTERN ? x->maxlen : UINT32_MAX;
			if (v > m)
				m = v;
		}
		fmax[f] = m;
	}
	/* codes, sorted; the distinct ones join the literal database */
	g_sort_strings = b->strings.s;
	if (b->ncodes > 1)
		qsort(b->codes, b->ncodes, sizeof *b->codes, cmp_code);
	uint32_t *hscodes = fl_xcalloc(b->ncodes + 1, sizeof *hscodes);
	size_t nhscodes = 0;
	for (size_t i = 0; i < b->ncodes; i++)
		if (i == 0 || strcmp(b->strings.s + b->codes[i].str,
				     b->strings.s + b->codes[i - 1].str) != 0)
			hscodes[nhscodes++] = b->codes[i].str;
	size_t nlit = b->nfactors + nhscodes;
	/* per factor: its length (at most FL_FACTOR_WINDOW) */
	uint8_t *flen = fl_xcalloc(b->nfactors + 1, 1);
	for (size_t i = 0; i < b->factors.cap; i++)
		if (b->factors.keys[i])
			flen[b->factors.vals[i]] = (uint8_t)strlen(b->factors.keys[i]);
	/* the literal table: every literal's text among the strings (before
	 * any pointer into them is taken: put_str may move them) */
	uint32_t *lstr = fl_xcalloc(nlit + 1, sizeof *lstr);
	uint32_t *llen = fl_xcalloc(nlit + 1, sizeof *llen);
	for (size_t i = 0; i < b->factors.cap; i++)
		if (b->factors.keys[i]) {
			size_t f = b->factors.vals[i];
			lstr[f] = put_str(b, b->factors.keys[i], false);
			llen[f] = flen[f];
		}
	for (size_t k = 0; k < nhscodes; k++) {
		lstr[b->nfactors + k] = hscodes[k];
		llen[b->nfactors + k] = (uint32_t)strlen(b->strings.s + hscodes[k]);
	}
	fl_littab_parts lt;
	fl_littab_make(b->strings.s, lstr, llen, nlit, &lt);
	free(lstr);
	free(llen);
	fl_litfilter lf;
	{
		fl_littab view = {.sidx = lt.sidx, .slit = lt.slit};
		for (size_t t = 0; t < FL_LIT_TIERS; t++)
			view.tier[t] = (fl_littier){fl_littab_width(t), lt.bits[t], lt.bidx[t],
						    lt.lit[t]};
		fl_litfilter_make_sized(&view, &lf, FL_SHORT_FILTER_BITS);
	}
	/* the flat image, written as it is made */
	struct imgw w;
	int rc = imgw_open(&w, path, err);
	idx_header h;
	memset(&h, 0, sizeof h);
	if (rc == 0) {
		img_put(&w, &h, sizeof h);
		memcpy(h.magic, FL_IDX_MAGIC, 8);
		h.entry_size = sizeof(idx_entry);
		h.token_size = sizeof(idx_token);
		h.generation = generation;
		snprintf(h.version, sizeof h.version, "%s", version ? version : "");
		fl_random_bytes(h.stamp, sizeof h.stamp);
		h.n_entries = b->n;
		h.n_parts = b->nparts;
		h.n_tokens = b->ntok;
		h.n_codes = b->ncodes;
		h.n_factors = b->nfactors;
		h.n_always = nalways;
		h.off_strings = img_put(&w, b->strings.s, b->strings.n);
		h.len_strings = b->strings.n;
		h.off_entries = img_put(&w, b->ent, b->n * sizeof *b->ent);
		h.off_tokens = img_put(&w, tok, b->ntok * sizeof *tok);
		h.off_postings = img_put(&w, post, npost * sizeof *post);
		h.n_postings = npost;
		h.off_entry_toks = img_put(&w, b->etoks, b->netoks * sizeof *b->etoks);
		h.n_entry_toks = b->netoks;
		h.off_codes = img_put(&w, b->codes, b->ncodes * sizeof *b->codes);
		h.off_factor_idx = img_put(&w, fidx, (b->nfactors + 1) * sizeof *fidx);
		h.off_factor_ent = img_put(&w, fent, acc * sizeof *fent);
		h.n_factor_ent = acc;
		h.off_always = img_put(&w, always, nalways * sizeof *always);
		h.off_factor_max = img_put(&w, fmax, b->nfactors * sizeof *fmax);
		h.off_factor_len = img_put(&w, flen, b->nfactors);
		h.off_hscodes = img_put(&w, hscodes, nhscodes * sizeof *hscodes);
		h.n_hscodes = nhscodes;
		for (size_t t = 0; t < FL_LIT_TIERS; t++) {
			h.lit_bits[t] = lt.bits[t];
			h.n_lit[t] = lt.nlit[t];
			h.off_lit_bidx[t] = img_put(&w, lt.bidx[t],
						    (((size_t)1 << lt.bits[t]) + 1) * sizeof(uint32_t));
			h.off_lit[t] = img_put(&w, lt.lit[t], lt.nlit[t] * sizeof(idx_lit));
		}
		h.n_slit = lt.nslit;
		h.off_lit_sidx = img_put(&w, lt.sidx, 257 * sizeof(uint32_t));
		h.off_slit = img_put(&w, lt.slit, lt.nslit * sizeof(idx_lit));
		const struct fl_litset *sets[2] = {&lf.s8, &lf.s4};
		for (size_t k = 0; k < 2; k++)
			if (sets[k]->b) {
				h.lf_bits[k] = sets[k]->bits;
				h.off_lf[k] = img_put(&w, sets[k]->b, ((size_t)1 << sets[k]->bits) / 8);
			}
		snprintf(h.store_id, sizeof h.store_id, "%s", store_id ? store_id : "");
		if (link) {
			h.delta = 1;
			memcpy(h.base_stamp, link->base_stamp, sizeof h.base_stamp);
			h.base_generation = link->base_generation;
			h.n_dead = link->ndead;
			h.off_dead = img_put(&w, link->dead, link->ndead * 2 * sizeof(uint32_t));
		}
		img_put(&w, NULL, 0);
		h.total = w.off;
	}
	fl_littab_parts_free(&lt);
	fl_litfilter_free(&lf);
	free(hscodes);
	free(tok);
	free(post);
	free(fidx);
	free(fent);
	free(fmax);
	free(flen);
	free(always);
	builder_free(b);
	if (rc == 0)
		rc = imgw_close(&w, &h, out, err);
	return rc;
}

/* ---- location order ------------------------------------------------------------- */

struct sort_ctx {
	const fl_index_builder *b;
	const int32_t *cols;
};

static int cmp_location(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *c = arg;
	uint32_t a = *(const uint32_t *)pa, z = *(const uint32_t *)pb;
	const idx_entry *x = &c->b->ent[a], *y = &c->b->ent[z];
	const char *s = c->b->strings.s;
	int r;
	if (x->repo != y->repo && (r = strcmp(s + x->repo, s + y->repo)))
		return r;
	if (x->path != y->path && (r = strcmp(s + x->path, s + y->path)))
		return r;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (c->cols[a] != c->cols[z])
		return c->cols[a] < c->cols[z] ? -1 : 1;
	return strcmp(s + x->id, s + y->id);
}

/* Put the whole records added so far (no parts yet) in location order
 * (repo, path, line, column, id: ties between equal answers fall to the
 * first), as the store's location index would give them.  Returns the
 * new place of each old entry, or NULL when they were in order. */
static uint32_t *builder_sort(fl_index_builder *b, const int32_t *cols)
{
	struct sort_ctx c = {b, cols};
	size_t n = b->n;
	bool sorted = true;
	for (size_t i = 1; i < n && sorted; i++) {
		uint32_t pair[2] = {(uint32_t)i - 1, (uint32_t)i};
		sorted = cmp_location(&pair[0], &pair[1], &c) <= 0;
	}
	if (sorted)
		return NULL;
	uint32_t *order = fl_xmalloc((n + 1) * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, n, sizeof *order, cmp_location, &c);
	uint32_t *inv = fl_xmalloc((n + 1) * sizeof *inv);
	idx_entry *ent = fl_xmalloc((b->cap + 1) * sizeof *ent);
	size_t *fsrc = fl_xmalloc((b->cap + 1) * sizeof *fsrc);
	for (size_t i = 0; i < n; i++) {
		inv[order[i]] = (uint32_t)i;
		ent[i] = b->ent[order[i]];
		ent[i].whole = (uint32_t)i;
		fsrc[i] = b->ent_fsrc[order[i]];
	}
	free(b->ent);
	free(b->ent_fsrc);
	b->ent = ent;
	b->ent_fsrc = fsrc;
	for (size_t k = 0; k < b->ncodes; k++)
		b->codes[k].entry = inv[b->codes[k].entry];
	free(order);
	return inv;
}

/* ---- lines of multi-line messages ----------------------------------------------- */

/* A part: the first line of a multi-line message that says enough
 * alone, with the whole record's fields (fl_index_item's part_text). */
struct part {
	fl_index_item it;
	char *strs[13];
};
struct parts {
	struct part *v;
	size_t n, cap;
};

static void part_free(struct part *p)
{
	for (size_t i = 0; i < sizeof p->strs / sizeof p->strs[0]; i++)
		free(p->strs[i]);
}

/* Line k of text (split on '\n'), leading blanks removed: malloc'd, or
 * NULL when there is no such line. */
static char *nth_line(const char *text, size_t k)
{
	const char *p = text;
	for (size_t i = 0; i < k; i++) {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	const char *e = strchr(p, '\n');
	return fl_xstrndup(p, e ? (size_t)(e - p) : strlen(p));
}

/* The literal characters pattern line pl holds, 0 when it is no simple
 * pattern of its own (a regex, an escape cut by the line's end). */
static size_t line_literal(const char *pl)
{
	size_t n = strlen(pl), bs = 0;
	while (bs < n && pl[n - 1 - bs] == '\\')
		bs++;
	if (bs % 2)
		return 0;
	char *buf = fl_xmalloc(n + 1);
	fl_prog prog;
	size_t lit = fl_prog_parse(pl, buf, &prog) ? prog.literal : 0;
	free(buf);
	return lit;
}

/* Remember it's first line (entry whole) as a part, when its message has
 * several lines with text and the first such says enough alone. */
static void add_part(struct parts *ps, const fl_index_item *it, uint32_t whole)
{
	if (!strchr(it->pattern, '\n') || !strchr(it->message, '\n'))
		return;
	size_t lines = 1;
	for (const char *p = it->pattern; (p = strchr(p, '\n')); p++)
		lines++;
	size_t mlines = 1;
	for (const char *p = it->message; (p = strchr(p, '\n')); p++)
		mlines++;
	if (lines != mlines)
		return; /* lines of the pattern and the message do not pair */
	for (size_t k = 0; k + 1 < lines; k++) {
		char *pl = nth_line(it->pattern, k);
		if (!*pl) {
			free(pl);
			continue; /* a blank line: the next one is the first */
		}
		if (line_literal(pl) < FL_PART_LITERAL) {
			free(pl);
			return;
		}
		if (ps->n == ps->cap) {
			ps->cap = ps->cap ? ps->cap * 2 : 64;
			ps->v = fl_xrealloc(ps->v, ps->cap * sizeof *ps->v);
		}
		struct part *p = &ps->v[ps->n++];
		memset(p, 0, sizeof *p);
		const char *src[] = {it->id, it->repo, it->slug, it->code, it->message,
				     it->path, it->url, it->cls};
		for (size_t i = 0; i < 8; i++)
			p->strs[i] = src[i] ? fl_xstrdup(src[i]) : NULL;
		p->strs[8] = pl;
		p->strs[9] = nth_line(it->message, k);
		p->strs[10] = it->severity ? fl_xstrdup(it->severity) : NULL;
		p->strs[11] = it->idiom ? fl_xstrdup(it->idiom) : NULL;
		p->strs[12] = it->type ? fl_xstrdup(it->type) : NULL;
		p->it = (fl_index_item){p->strs[0], p->strs[1], p->strs[2], p->strs[3],
					p->strs[4], pl, p->strs[5], p->strs[6], p->strs[7],
					it->line, p->strs[10], p->strs[11], p->strs[12], p->strs[9],
					whole, NULL, NULL};
		return;
	}
}

static uint32_t *builder_sort(fl_index_builder *b, const int32_t *cols);

/* The other lines of the records raised at several (of repo's records,
 * NULL: of all): few, read first in one pass (a subquery per record cost
 * 9 s at 1M).  Each record's string (idx_entry's sites): a first line of
 * its own function and guard, "\tFUNCTION\tGUARD", then a line per other
 * site, "PATH:LINE\tFUNCTION\tGUARD" (tabs and newlines inside them made
 * blanks; either may be empty): sites.c reads them. */
#define SITE_CTX(f, g) \
	"replace(replace(coalesce(" f ", ''), char(9), ' '), char(10), ' ') || char(9) ||" \
	" replace(replace(coalesce(" g ", ''), char(9), ' '), char(10), ' ')"
static int read_sites(fl_store *st, const char *repo, fl_strmap *sites, fl_buf *sitebuf,
		      fl_err *err)
{
	sqlite3_stmt *s;
#define SITES_SELECT \
	"SELECT error_id, (SELECT char(9) || " SITE_CTX("function", "guard") \
	"  FROM errors WHERE id = error_id) || char(10) ||" \
	" group_concat(file_path || ':' || line_number || char(9) || " SITE_CTX("function", "guard") \
	", char(10))" \
	" FROM (SELECT error_id, file_path, line_number, function, guard FROM error_sites"
	int rc = sqlite3_prepare_v2(st->db,
				    repo ? SITES_SELECT
					   "  WHERE error_id IN (SELECT id FROM errors WHERE repo = ?1)"
					   "  ORDER BY error_id, file_path, line_number, col)"
					   " GROUP BY error_id"
					 : SITES_SELECT
					   "  ORDER BY error_id, file_path, line_number, col)"
					   " GROUP BY error_id",
				    -1, &s, NULL);
#undef SITES_SELECT
	if (rc == SQLITE_OK) {
		if (repo)
			sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			const char *id = (const char *)sqlite3_column_text(s, 0);
			const char *v = (const char *)sqlite3_column_text(s, 1);
			if (!id || !v)
				continue;
			fl_strmap_put(sites, id, sitebuf->n);
			fl_buf_put(sitebuf, v, strlen(v) + 1);
		}
		sqlite3_finalize(s);
	}
	if (rc != SQLITE_DONE)
		return fl_seterr(err, "store %s: %s", st->path, sqlite3_errmsg(st->db));
	return 0;
}

/* The records (of repo, NULL: all) added to b, each one's column in
 * *cols, its first line's part to parts. */
static int read_records(fl_store *st, const char *repo, fl_index_builder *b,
			struct parts *parts, int32_t **cols, size_t *ncols, fl_err *err)
{
	fl_strmap sites = {0};
	fl_buf sitebuf = {0};
	if (read_sites(st, repo, &sites, &sitebuf, err) < 0) {
		fl_strmap_free(&sites);
		fl_buf_free(&sitebuf);
		return -1;
	}
	/* all: in the table's order, each page read once (in location
	 * order every record was a lookup of its own page: 1.5 GB read
	 * several times over at 1M), then put in location order by
	 * builder_sort; one repository's: through the location index */
	sqlite3_stmt *s;
	int rc;
	if (sqlite3_prepare_v2(st->db,
			       repo ? "SELECT id, repo, slug, error_code, error_message, message_pattern,"
				      " file_path, github_url, error_class, line_number, severity, idiom,"
				      " error_type, col, function"
				      " FROM errors WHERE repo = ?1"
				    : "SELECT id, repo, slug, error_code, error_message, message_pattern,"
				      " file_path, github_url, error_class, line_number, severity, idiom,"
				      " error_type, col, function"
				      " FROM errors",
			       -1, &s, NULL) != SQLITE_OK) {
		fl_strmap_free(&sites);
		fl_buf_free(&sitebuf);
		return fl_seterr(err, "store %s: %s", st->path, sqlite3_errmsg(st->db));
	}
	if (repo)
		sqlite3_bind_text(s, 1, repo, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		fl_index_item it = {
			(const char *)sqlite3_column_text(s, 0),
			(const char *)sqlite3_column_text(s, 1),
			(const char *)sqlite3_column_text(s, 2),
			(const char *)sqlite3_column_text(s, 3),
			(const char *)sqlite3_column_text(s, 4),
			(const char *)sqlite3_column_text(s, 5),
			(const char *)sqlite3_column_text(s, 6),
			(const char *)sqlite3_column_text(s, 7),
			(const char *)sqlite3_column_text(s, 8),
			sqlite3_column_int(s, 9),
			(const char *)sqlite3_column_text(s, 10),
			(const char *)sqlite3_column_text(s, 11),
			(const char *)sqlite3_column_text(s, 12),
			NULL,
			0,
			NULL,
			(const char *)sqlite3_column_text(s, 14),
		};
		size_t so;
		if (it.id && sites.n && fl_strmap_get(&sites, it.id, &so))
			it.sites = sitebuf.s + so;
		if (!it.id || !it.repo || !it.message || !it.pattern || !it.path)
			continue;
		if (!it.slug)
			it.slug = "";
		if (!it.url)
			it.url = "";
		fl_index_builder_add_item(b, &it);
		add_part(parts, &it, (uint32_t)(b->n - 1));
		if (*ncols % 4096 == 0)
			*cols = fl_xrealloc(*cols, (*ncols + 4096) * sizeof **cols);
		(*cols)[(*ncols)++] = sqlite3_column_int(s, 13);
	}
	sqlite3_finalize(s);
	fl_strmap_free(&sites);
	fl_buf_free(&sitebuf);
	if (rc != SQLITE_DONE)
		return fl_seterr(err, "store %s: %s", st->path, sqlite3_errmsg(st->db));
	return 0;
}

int fl_index_build(fl_store *st, const fl_strv *repos, const fl_index_link *link,
		   const char *path, fl_index *out, fl_err *err)
{
	long long gen;
	char changed[32], sid[40];
	if (fl_store_generation(st, &gen, changed, err) < 0 ||
	    fl_store_identity(st, sid, err) < 0)
		return -1;
	fl_index_builder *b = fl_index_builder_new();
	struct parts parts = {0};
	int32_t *cols = NULL;
	size_t ncols = 0;
	int rc = 0;
	if (!repos)
		rc = read_records(st, NULL, b, &parts, &cols, &ncols, err);
	for (size_t i = 0; repos && i < repos->n && rc == 0; i++)
		rc = read_records(st, repos->v[i], b, &parts, &cols, &ncols, err);
	uint32_t *inv = rc == 0 ? builder_sort(b, cols) : NULL;
	free(cols);
	for (size_t i = 0; i < parts.n; i++) {
		if (rc == 0) {
			if (inv)
				parts.v[i].it.whole = inv[parts.v[i].it.whole];
			fl_index_builder_add_item(b, &parts.v[i].it);
		}
		part_free(&parts.v[i]);
	}
	free(parts.v);
	free(inv);
	if (rc < 0) {
		builder_free(b);
		return -1;
	}
	return fl_index_builder_finish(b, gen, changed, sid, link, path, out, err);
}

/* Does [off, off + n * size) lie inside an image of len bytes? */
static bool within(uint64_t off, uint64_t n, uint64_t size, size_t len)
{
	return off <= len && (size == 0 || n <= (len - off) / size);
}

/* Check an image's header and sections and set the section pointers. */
static int map_image(fl_index *ix, void *mem, size_t len, fl_err *err)
{
	memset(ix, 0, sizeof *ix);
	ix->mem = mem;
	ix->len = len;
	const idx_header *h = mem;
	if (len < sizeof *h || memcmp(h->magic, FL_IDX_MAGIC, 8) != 0 ||
	    h->entry_size != sizeof(idx_entry) || h->token_size != sizeof(idx_token) ||
	    h->total != len || !within(h->off_strings, h->len_strings, 1, len) ||
	    h->len_strings == 0 || h->n_parts > h->n_entries ||
	    !within(h->off_entries, h->n_entries, sizeof(idx_entry), len) ||
	    !within(h->off_tokens, h->n_tokens, sizeof(idx_token), len) ||
	    !within(h->off_postings, h->n_postings, sizeof(uint32_t), len) ||
	    !within(h->off_entry_toks, h->n_entry_toks, sizeof(uint32_t), len) ||
	    !within(h->off_codes, h->n_codes, sizeof(idx_code), len) ||
	    h->n_factors >= UINT32_MAX ||
	    !within(h->off_factor_idx, h->n_factors + 1, sizeof(uint32_t), len) ||
	    !within(h->off_factor_ent, h->n_factor_ent, sizeof(uint32_t), len) ||
	    !within(h->off_factor_max, h->n_factors, sizeof(uint32_t), len) ||
	    !within(h->off_factor_len, h->n_factors, 1, len) ||
	    !within(h->off_always, h->n_always, sizeof(uint32_t), len) ||
	    !within(h->off_hscodes, h->n_hscodes, sizeof(uint32_t), len) ||
	    (h->delta && !within(h->off_dead, h->n_dead, 2 * sizeof(uint32_t), len)) ||
	    ((const char *)mem)[h->off_strings + h->len_strings - 1] != '\0') {
		fl_index_free(ix);
		return fl_seterr(err, "the lookup index is damaged or from another build");
	}
	const char *base = mem;
	ix->h = h;
	ix->str = base + h->off_strings;
	ix->ent = (const idx_entry *)(base + h->off_entries);
	ix->tok = (const idx_token *)(base + h->off_tokens);
	ix->post = (const uint32_t *)(base + h->off_postings);
	ix->etoks = (const uint32_t *)(base + h->off_entry_toks);
	ix->codes = (const idx_code *)(base + h->off_codes);
	ix->fidx = (const uint32_t *)(base + h->off_factor_idx);
	ix->fent = (const uint32_t *)(base + h->off_factor_ent);
	ix->fmax = (const uint32_t *)(base + h->off_factor_max);
	ix->flen = (const uint8_t *)(base + h->off_factor_len);
	ix->always = (const uint32_t *)(base + h->off_always);
	ix->hscodes = (const uint32_t *)(base + h->off_hscodes);
	ix->dead = h->delta ? (const uint32_t *)(base + h->off_dead) : NULL;
	bool lt_ok = within(h->off_lit_sidx, 257, sizeof(uint32_t), len) &&
		     within(h->off_slit, h->n_slit, sizeof(idx_lit), len);
	for (size_t t = 0; t < FL_LIT_TIERS && lt_ok; t++) {
		lt_ok = h->lit_bits[t] >= 4 && h->lit_bits[t] <= 31 &&
			within(h->off_lit_bidx[t], ((uint64_t)1 << h->lit_bits[t]) + 1,
			       sizeof(uint32_t), len) &&
			within(h->off_lit[t], h->n_lit[t], sizeof(idx_lit), len);
		if (!lt_ok)
			break;
		ix->lt.tier[t] = (fl_littier){
			fl_littab_width(t), (uint32_t)h->lit_bits[t],
			(const uint32_t *)(base + h->off_lit_bidx[t]),
			(const idx_lit *)(base + h->off_lit[t]),
		};
	}
	if (!lt_ok) {
		fl_index_free(ix);
		return fl_seterr(err, "the lookup index's literal table is damaged");
	}
	ix->lt.sidx = (const uint32_t *)(base + h->off_lit_sidx);
	ix->lt.slit = (const idx_lit *)(base + h->off_slit);
	struct fl_litset *sets[2] = {&ix->lf_short.s8, &ix->lf_short.s4};
	for (size_t k = 0; k < 2; k++) {
		if (!h->lf_bits[k])
			continue;
		if (h->lf_bits[k] < 12 || h->lf_bits[k] > 38 ||
		    !within(h->off_lf[k], ((uint64_t)1 << h->lf_bits[k]) / 64, sizeof(uint64_t),
			    len)) {
			fl_index_free(ix);
			return fl_seterr(err, "the lookup index's literal filter is damaged");
		}
		*sets[k] = (struct fl_litset){(uint64_t *)(base + h->off_lf[k]),
					      (uint32_t)h->lf_bits[k], 0};
	}
	return 0;
}

int fl_index_open(const char *path, fl_index *out, fl_err *err)
{
	memset(out, 0, sizeof *out);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : fl_seterr(err, "cannot read %s: %s", path, strerror(errno));
	struct stat sb;
	if (fstat(fd, &sb) < 0 || (size_t)sb.st_size < sizeof(idx_header)) {
		close(fd);
		return 0;
	}
	void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return fl_seterr(err, "cannot map %s: %s", path, strerror(errno));
	fl_err e2;
	if (map_image(out, m, (size_t)sb.st_size, &e2) < 0)
		return 0; /* damaged or of another build: made again */
	out->path = fl_xstrdup(path);
	return 1;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif

void fl_index_populate(const fl_index *ix)
{
	long pg = sysconf(_SC_PAGESIZE);
	if (!ix->mem || !ix->len || pg <= 0)
		return;
	size_t np = (ix->len + (size_t)pg - 1) / (size_t)pg;
	unsigned char *vec = malloc(np);
	if (!vec)
		return;
	if (mincore(ix->mem, ix->len, vec) == 0) {
		char *base = ix->mem;
		for (size_t i = 0; i < np;) {
			if (!(vec[i] & 1)) {
				i++;
				continue;
			}
			size_t j = i;
			while (j < np && (vec[j] & 1))
				j++;
			/* an older kernel refuses the advice: the pages fault in
			 * as before */
			if (madvise(base + i * (size_t)pg, (j - i) * (size_t)pg,
				    MADV_POPULATE_READ) < 0 && errno == EINVAL)
				break;
			i = j;
		}
	}
	free(vec);
}

/* Is string offset o, of an image's strings, a string? */
static bool str_ok(const fl_index *ix, uint32_t o)
{
	return o < ix->h->len_strings;
}

bool fl_index_check(const fl_index *ix)
{
	const idx_header *h = ix->h;
	uint64_t n = h->n_entries, nt = h->n_tokens, nf = h->n_factors;
	if (n >= UINT32_MAX || nt >= UINT32_MAX)
		return false;
	for (uint64_t e = 0; e < n; e++) {
		const idx_entry *x = &ix->ent[e];
		if (!str_ok(ix, x->id) || !str_ok(ix, x->repo) || !str_ok(ix, x->slug) ||
		    !str_ok(ix, x->code) || !str_ok(ix, x->msg) || !str_ok(ix, x->path) ||
		    !str_ok(ix, x->url) || !str_ok(ix, x->pattern) || !str_ok(ix, x->cls) ||
		    !str_ok(ix, x->seg) || !str_ok(ix, x->sites) ||
		    x->patlen >= h->len_strings - x->pattern ||
		    x->seglen > h->len_strings - x->seg || x->whole >= n ||
		    x->toks > h->n_entry_toks || x->ntoks > h->n_entry_toks - x->toks)
			return false;
		/* a part stands for a whole entry, a whole entry for itself */
		bool part = (x->flags & IDX_PART) != 0;
		if (part ? e < n - h->n_parts || x->whole >= n - h->n_parts : x->whole != e)
			return false;
		/* memchr, not strlen: the pattern must end inside the strings */
		if (ix->str[x->pattern + x->patlen] != '\0')
			return false;
	}
	for (uint64_t i = 0; i < h->n_entry_toks; i++)
		if (ix->etoks[i] >= nt)
			return false;
	for (uint64_t t = 0; t < nt; t++)
		if (!str_ok(ix, ix->tok[t].str) || ix->tok[t].post > h->n_postings ||
		    ix->tok[t].df > h->n_postings - ix->tok[t].post)
			return false;
	for (uint64_t i = 0; i < h->n_postings; i++)
		if (ix->post[i] >= n)
			return false;
	for (uint64_t i = 0; i < h->n_codes; i++)
		if (!str_ok(ix, ix->codes[i].str) || ix->codes[i].entry >= n)
			return false;
	for (uint64_t i = 0; i < h->n_hscodes; i++)
		if (!str_ok(ix, ix->hscodes[i]))
			return false;
	for (uint64_t f = 0; f <= nf; f++)
		if (ix->fidx[f] > h->n_factor_ent || (f && ix->fidx[f] < ix->fidx[f - 1]))
			return false;
	for (uint64_t i = 0; i < h->n_factor_ent; i++)
		if (ix->fent[i] >= n)
			return false;
	for (uint64_t i = 0; i < h->n_always; i++)
		if (ix->always[i] >= n)
			return false;
	for (uint64_t f = 0; f < nf; f++)
		if (ix->fidx[f] < ix->fidx[f + 1] && ix->flen[f] == 0)
			return false;
	/* the literal table: ids and texts, buckets in order */
	uint64_t nlit = nf + h->n_hscodes;
	for (size_t t = 0; t <= FL_LIT_TIERS; t++) {
		const idx_lit *v = t < FL_LIT_TIERS ? ix->lt.tier[t].lit : ix->lt.slit;
		uint64_t nv = t < FL_LIT_TIERS ? h->n_lit[t] : h->n_slit;
		const uint32_t *bidx = t < FL_LIT_TIERS ? ix->lt.tier[t].bidx : ix->lt.sidx;
		uint64_t nb = t < FL_LIT_TIERS ? ((uint64_t)1 << h->lit_bits[t]) : 256;
		for (uint64_t k = 0; k <= nb; k++)
			if (bidx[k] > nv || (k && bidx[k] < bidx[k - 1]))
				return false;
		for (uint64_t i = 0; i < nv; i++)
			if (v[i].id >= nlit || !str_ok(ix, v[i].str) ||
			    v[i].len > h->len_strings - v[i].str)
				return false;
	}
	return true;
}

void fl_index_free(fl_index *ix)
{
	fl_index_hs_free(ix);
	if (ix->mem)
		munmap(ix->mem, ix->len);
	free(ix->path);
	memset(ix, 0, sizeof *ix);
}

const idx_token *fl_index_token(const fl_index *ix, const char *tok)
{
	size_t lo = 0, hi = ix->h->n_tokens;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ix_str(ix, ix->tok[mid].str), tok);
		if (c == 0)
			return &ix->tok[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const idx_code *fl_index_code(const fl_index *ix, const char *code)
{
	size_t lo = 0, hi = ix->h->n_codes;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ix_str(ix, ix->codes[mid].str), code);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ix->h->n_codes && strcmp(ix_str(ix, ix->codes[lo].str), code) == 0)
		return &ix->codes[lo];
	return NULL;
}

/* The texts glibc's strerror gives the errors a program meets most, as a
 * program's own message may quote them (uutils' "cannot stat {}: No such
 * file or directory"); none is inside another (they are counted apart). */
static const char *const os_texts[] = {
	"No such file or directory", "Permission denied", "Is a directory", "Not a directory",
	"File exists", "Directory not empty", "Too many levels of symbolic links",
	"No space left on device", "Read-only file system", "Operation not permitted",
	"Input/output error", "Bad file descriptor", "Broken pipe", "Connection refused",
	"Connection reset by peer", "Resource temporarily unavailable", "Invalid argument",
	"Device or resource busy", "No such device or address",
	"Text file busy", "File name too long", "Too many open files",
	"Invalid cross-device link", "Function not implemented", "Network is unreachable",
	"Connection timed out", "No route to host", "Address already in use",
	"Cannot allocate memory", "Argument list too long", "Exec format error",
	"No such process", "Operation not supported", NULL,
};

uint32_t fl_idx_os_text_len(const char *m)
{
	uint32_t n = 0;
	if (!m)
		return 0;
	for (const char *const *t = os_texts; *t; t++) {
		size_t l = strlen(*t);
		for (const char *p = m; (p = strstr(p, *t)) != NULL; p += l)
			n += (uint32_t)l;
	}
	return n > IDX_OS_MASK ? IDX_OS_MASK : n;
}
