/*
 * shards.c — the search/ folder of a data set (dataset.md): summary, codes,
 * id shards, token shards with idf weights, entry norms and metadata chunks,
 * so a browser can search without a server.  Tokens and idf come from the
 * shared tokenizer (lib/lookup/tokens.h), as the lookup engine uses them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lookup/tokens.h"
#include "publish.h"
#include "strmap.h"
#include "util.h"

#define SHARDS 256
#define META_CHUNK 2000
#define WEIGHT_SCALE 100
#define MAX_TOKENS 256

typedef struct postings {
	char *tok;
	size_t *ix;
	size_t n, cap;
} postings;

static void post_add(postings *p, size_t i)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4;
		p->ix = fl_xrealloc(p->ix, p->cap * sizeof *p->ix);
	}
	p->ix[p->n++] = i;
}

static int put(pub_writer *w, const char *rel, fl_buf *b, fl_err *err)
{
	int rc = pub_writer_put(w, rel, b->s ? b->s : "", b->n, err);
	fl_buf_free(b);
	return rc;
}

static void json_str(fl_buf *b, const char *s)
{
	json_t *j = json_string(s);
	if (!j) {
		char *f = fl_utf8_fix(s, strlen(s));
		j = json_string(f);
		free(f);
	}
	char *d = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT);
	fl_buf_puts(b, d);
	free(d);
	json_decref(j);
}

int pub_write_search(pub_writer *w, const pub_ientry *ents, size_t n,
		     fl_err *err)
{
	int rc = -1;
	fl_strmap tokmap = {0}, codemap = {0};
	postings *toks = NULL, *codes = NULL;
	size_t ntoks = 0, captoks = 0, ncodes = 0, capcodes = 0;
	size_t **etoks = fl_xcalloc(n ? n : 1, sizeof *etoks); /* token ids per entry */
	size_t *netoks = fl_xcalloc(n ? n : 1, sizeof *netoks);
	char *buf = fl_xmalloc((size_t)MAX_TOKENS * FL_TOKEN_MAX);
	const char *tv[MAX_TOKENS];
	fl_buf b = {0};
	fl_buf *shard = fl_xcalloc(SHARDS, sizeof *shard);

	for (size_t i = 0; i < n; i++) {
		size_t k = fl_tokens(ents[i].msg, buf, tv, MAX_TOKENS);
		etoks[i] = fl_xmalloc((k ? k : 1) * sizeof **etoks);
		for (size_t j = 0; j < k; j++) {
			if (!fl_utf8_valid(tv[j], strlen(tv[j])))
				continue;
			size_t id;
			if (!fl_strmap_get(&tokmap, tv[j], &id)) {
				if (ntoks == captoks) {
					captoks = captoks ? captoks * 2 : 1024;
					toks = fl_xrealloc(toks, captoks * sizeof *toks);
				}
				id = ntoks++;
				memset(&toks[id], 0, sizeof toks[id]);
				toks[id].tok = fl_xstrdup(tv[j]);
				fl_strmap_put(&tokmap, tv[j], id);
			}
			post_add(&toks[id], i);
			etoks[i][netoks[i]++] = id;
		}
		if (ents[i].code) {
			size_t id;
			if (!fl_strmap_get(&codemap, ents[i].code, &id)) {
				if (ncodes == capcodes) {
					capcodes = capcodes ? capcodes * 2 : 64;
					codes = fl_xrealloc(codes, capcodes * sizeof *codes);
				}
				id = ncodes++;
				memset(&codes[id], 0, sizeof codes[id]);
				codes[id].tok = fl_xstrdup(ents[i].code);
				fl_strmap_put(&codemap, ents[i].code, id);
			}
			post_add(&codes[id], i);
		}
	}

	fl_buf_printf(&b, "{\"entryCount\":%zu,\"tokenShards\":%d,\"metaChunk\":%d,\"weightScale\":%d}",
		       n, SHARDS, META_CHUNK, WEIGHT_SCALE);
	if (put(w, "search/summary.json", &b, err) < 0)
		goto out;

	fl_buf_puts(&b, "{");
	for (size_t c = 0; c < ncodes; c++) {
		if (c)
			fl_buf_puts(&b, ",");
		json_str(&b, codes[c].tok);
		fl_buf_puts(&b, ":[");
		for (size_t k = 0; k < codes[c].n; k++)
			fl_buf_printf(&b, k ? ",%zu" : "%zu", codes[c].ix[k]);
		fl_buf_puts(&b, "]");
	}
	fl_buf_puts(&b, "}");
	if (put(w, "search/codes.json", &b, err) < 0)
		goto out;

	/* ids/hh.json */
	for (size_t i = 0; i < n; i++) {
		unsigned h = (unsigned)strtoul((char[3]){ents[i].id[0], ents[i].id[1], 0}, NULL, 16) & 255;
		fl_buf_puts(&shard[h], shard[h].n ? "," : "{");
		fl_buf_printf(&shard[h], "\"%s\":%zu", ents[i].id, i);
	}
	for (int h = 0; h < SHARDS; h++) {
		char rel[32];
		snprintf(rel, sizeof rel, "search/ids/%02x.json", h);
		fl_buf_puts(&shard[h], shard[h].n ? "}" : "{}");
		if (put(w, rel, &shard[h], err) < 0)
			goto out;
	}

	/* tokens/hh.json and norms */
	int *weight = fl_xmalloc((ntoks ? ntoks : 1) * sizeof *weight);
	double *idf = fl_xmalloc((ntoks ? ntoks : 1) * sizeof *idf);
	for (size_t t = 0; t < ntoks; t++) {
		idf[t] = fl_idf(n, toks[t].n);
		weight[t] = (int)lround(idf[t] * WEIGHT_SCALE);
		const char *s = toks[t].tok;
		unsigned h = fl_fnv1a(s, strlen(s)) % SHARDS;
		fl_buf_puts(&shard[h], shard[h].n ? "," : "{");
		json_str(&shard[h], s);
		fl_buf_printf(&shard[h], ":[%d,[", weight[t]);
		for (size_t k = 0; k < toks[t].n; k++)
			fl_buf_printf(&shard[h], k ? ",%zu" : "%zu", toks[t].ix[k]);
		fl_buf_puts(&shard[h], "]]");
	}
	for (int h = 0; h < SHARDS; h++) {
		char rel[32];
		snprintf(rel, sizeof rel, "search/tokens/%02x.json", h);
		fl_buf_puts(&shard[h], shard[h].n ? "}" : "{}");
		if (put(w, rel, &shard[h], err) < 0) {
			free(weight);
			free(idf);
			goto out;
		}
	}
	fl_buf_puts(&b, "[");
	for (size_t i = 0; i < n; i++) {
		double norm = 0;
		for (size_t j = 0; j < netoks[i]; j++)
			norm += idf[etoks[i][j]];
		fl_buf_printf(&b, i ? ",%ld" : "%ld", lround(norm * WEIGHT_SCALE));
	}
	fl_buf_puts(&b, "]");
	free(weight);
	free(idf);
	if (put(w, "search/norms.json", &b, err) < 0)
		goto out;

	for (size_t k = 0; k * META_CHUNK < n || (k == 0 && n == 0); k++) {
		fl_buf_puts(&b, "[");
		for (size_t i = k * META_CHUNK; i < n && i < (k + 1) * META_CHUNK; i++) {
			if (i > k * META_CHUNK)
				fl_buf_puts(&b, ",");
			fl_buf_puts(&b, ents[i].json);
		}
		fl_buf_puts(&b, "]");
		char rel[48];
		snprintf(rel, sizeof rel, "search/meta/%zu.json", k);
		if (put(w, rel, &b, err) < 0)
			goto out;
	}
	rc = 0;
out:
	for (size_t t = 0; t < ntoks; t++) {
		free(toks[t].tok);
		free(toks[t].ix);
	}
	for (size_t c = 0; c < ncodes; c++) {
		free(codes[c].tok);
		free(codes[c].ix);
	}
	free(toks);
	free(codes);
	for (size_t i = 0; i < n; i++)
		free(etoks[i]);
	free(etoks);
	free(netoks);
	free(buf);
	for (int h = 0; h < SHARDS; h++)
		fl_buf_free(&shard[h]);
	free(shard);
	fl_buf_free(&b);
	fl_strmap_free(&tokmap);
	fl_strmap_free(&codemap);
	return rc;
}
