/*
 * hsdb.c — the lookup index's Hyperscan literal databases (see index.h's
 * fl_index_hs): compiled from the index's literal table on the first scan
 * of a long text, saved beside the index (PATH.hs, named by the index's
 * random stamp) and mapped from there by later processes.  The index is
 * ready without them: building them took two thirds of the index's build
 * at a million records, and a pasted message never needs them.  An index
 * of more literals than one database holds gets the literal table's
 * filter (littab.h) instead, made here in their place.
 */
#define _GNU_SOURCE
#include "index.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util.h"
#include "hslib.h"

#define H (fl_hs(NULL))

#define FL_HSDB_MAGIC "FLHSDB\0\x01"

typedef struct hsdb_header {
	char magic[8];
	uint8_t stamp[16];      /* the index's (idx_header.stamp) */
	uint64_t n_lit;
	uint64_t n_shards;
	uint64_t off[FL_HS_SHARDS], len[FL_HS_SHARDS];
	uint64_t total;
} hsdb_header;

/* Literal databases are compiled in shards, two at a time: Hyperscan's
 * literal compile time grows with the literal count, and two cores halve
 * it.  A literal's shard is chosen by its last two bytes, so each shard
 * holds only some of the literals' endings: a text scanned against every
 * shard wakes each one's confirmation only at the places that end like
 * its literals.  (Dealt round-robin, every shard ended like all of them:
 * text made of stored messages cost each shard as much confirmation work
 * as one database, and 1 MB of it took 9 times one scan at 1M records;
 * by their endings, the 9 shards scan it about 3 times faster, for the
 * same compile time.) */
#define SHARD_LITERALS 120000

/* A literal's ending: its last two bytes. */
static unsigned ending(const char *lit, size_t len)
{
	unsigned h = len ? (unsigned char)lit[len - 1] : 0;
	if (len > 1)
		h |= (unsigned)(unsigned char)lit[len - 2] << 8;
	return h;
}

static int cmp_u64_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x > y ? -1 : x < y;
}

/* Each literal's shard: by its ending, the endings dealt largest first
 * to the shard holding the fewest literals so far (even shards: the two
 * compiled at once take as little memory as round-robin's), unless that
 * leaves a shard empty or one with over twice its share (literals that
 * mostly end alike), then round-robin. */
static void deal_shards(const char **exprs, const size_t *lens, size_t nlit,
			size_t nshards, uint8_t *shard)
{
	uint64_t *per = fl_xcalloc(1u << 16, sizeof *per);
	for (size_t i = 0; i < nlit; i++)
		per[ending(exprs[i], lens[i])] += 1u << 16;
	for (unsigned e = 0; e < 1u << 16; e++)
		per[e] |= e; /* count << 16 | ending */
	qsort(per, 1u << 16, sizeof *per, cmp_u64_desc);
	uint8_t *to = fl_xcalloc(1u << 16, 1);
	size_t count[FL_HS_SHARDS] = {0};
	for (unsigned i = 0; i < 1u << 16 && per[i] >> 16; i++) {
		size_t k = 0;
		for (size_t j = 1; j < nshards; j++)
			if (count[j] < count[k])
				k = j;
		to[per[i] & 0xffff] = (uint8_t)k;
		count[k] += per[i] >> 16;
	}
	for (size_t i = 0; i < nlit; i++)
		shard[i] = to[ending(exprs[i], lens[i])];
	free(per);
	free(to);
	bool even = true;
	for (size_t k = 0; k < nshards; k++)
		even = even && count[k] > 0 && count[k] <= 2 * (nlit / nshards + 1);
	if (!even)
		for (size_t i = 0; i < nlit; i++)
			shard[i] = (uint8_t)(i % nshards);
}

struct shard_job {
	const char **exprs;
	unsigned *flags, *ids;
	size_t *lens;
	uint8_t *shard;        /* per literal: its shard */
	size_t nlit, nshards, next;
	hs_database_t *db[FL_HS_SHARDS];
	char error[256];
	pthread_mutex_t lock;
};

static void *compile_shards(void *arg)
{
	struct shard_job *j = arg;
	for (;;) {
		pthread_mutex_lock(&j->lock);
		size_t k = j->next++;
		pthread_mutex_unlock(&j->lock);
		if (k >= j->nshards)
			break;
		size_t cnt = 0;
		for (size_t i = 0; i < j->nlit; i++)
			cnt += j->shard[i] == k;
		const char **e = fl_xcalloc(cnt, sizeof *e);
		unsigned *f = fl_xcalloc(cnt, sizeof *f), *id = fl_xcalloc(cnt, sizeof *id);
		size_t *l = fl_xcalloc(cnt, sizeof *l);
		size_t c = 0;
		for (size_t i = 0; i < j->nlit; i++) {
			if (j->shard[i] != k)
				continue;
			e[c] = j->exprs[i];
			f[c] = j->flags[i];
			id[c] = j->ids[i];
			l[c] = j->lens[i];
			c++;
		}
		hs_compile_error_t *ce = NULL;
		if (H->compile_lit_multi(e, f, id, l, (unsigned)cnt, HS_MODE_BLOCK, NULL,
					 &j->db[k], &ce) != HS_SUCCESS) {
			j->db[k] = NULL;
			pthread_mutex_lock(&j->lock);
			snprintf(j->error, sizeof j->error, "%s",
				 ce && ce->message ? ce->message : "hyperscan error");
			pthread_mutex_unlock(&j->lock);
			H->free_compile_error(ce);
		}
		free(e);
		free(f);
		free(id);
		free(l);
	}
	return NULL;
}

/* Compile the index's literals (ids: factors, then codes) into shards. */
static bool compile_all(const fl_index *ix, hs_database_t **db, size_t *ndb)
{
	size_t nlit = ix->h->n_factors + ix->h->n_hscodes;
	*ndb = 0;
	if (!nlit)
		return true;
	const char **exprs = fl_xcalloc(nlit, sizeof *exprs);
	size_t *lens = fl_xcalloc(nlit, sizeof *lens);
	unsigned *ids = fl_xcalloc(nlit, sizeof *ids);
	unsigned *flags = fl_xcalloc(nlit, sizeof *flags);
	size_t seen = 0;
	for (size_t t = 0; t <= FL_LIT_TIERS; t++) {
		const idx_lit *v = t < FL_LIT_TIERS ? ix->lt.tier[t].lit : ix->lt.slit;
		size_t n = t < FL_LIT_TIERS ? ix->h->n_lit[t] : ix->h->n_slit;
		for (size_t i = 0; i < n; i++) {
			if (v[i].id >= nlit || exprs[v[i].id])
				continue;
			exprs[v[i].id] = ix->str + v[i].str;
			lens[v[i].id] = v[i].len;
			ids[v[i].id] = v[i].id;
			seen++;
		}
	}
	bool ok = seen == nlit;
	struct shard_job job;
	memset(&job, 0, sizeof job);
	if (ok) {
		job.exprs = exprs;
		job.flags = flags;
		job.ids = ids;
		job.lens = lens;
		job.nlit = nlit;
		job.nshards = (nlit + SHARD_LITERALS - 1) / SHARD_LITERALS;
		if (job.nshards > FL_HS_SHARDS)
			job.nshards = FL_HS_SHARDS;
		job.shard = fl_xcalloc(nlit, 1);
		deal_shards(exprs, lens, nlit, job.nshards, job.shard);
		pthread_mutex_init(&job.lock, NULL);
		pthread_t th[2];
		int nth = 0;
		for (int t = 0; t < 2 && (size_t)t < job.nshards; t++)
			if (pthread_create(&th[nth], NULL, compile_shards, &job) == 0)
				nth++;
		if (nth == 0)
			compile_shards(&job);
		for (int t = 0; t < nth; t++)
			pthread_join(th[t], NULL);
		pthread_mutex_destroy(&job.lock);
		free(job.shard);
		for (size_t k = 0; k < job.nshards; k++)
			ok = ok && job.db[k];
		if (!ok)
			for (size_t k = 0; k < job.nshards; k++)
				if (job.db[k])
					H->free_database(job.db[k]);
	}
	free(exprs);
	free(lens);
	free(ids);
	free(flags);
	if (!ok)
		return false;
	for (size_t k = 0; k < job.nshards; k++)
		db[k] = job.db[k];
	*ndb = job.nshards;
	return true;
}

/* Map PATH.hs when it was made for this index. */
static bool map_file(fl_index *ix, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat sb;
	void *m = MAP_FAILED;
	if (fstat(fd, &sb) == 0 && (size_t)sb.st_size >= sizeof(hsdb_header))
		m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return false;
	const hsdb_header *h = m;
	size_t len = (size_t)sb.st_size;
	bool ok = memcmp(h->magic, FL_HSDB_MAGIC, 8) == 0 &&
		  memcmp(h->stamp, ix->h->stamp, sizeof h->stamp) == 0 &&
		  h->n_lit == ix->h->n_factors + ix->h->n_hscodes && h->total == len &&
		  h->n_shards <= FL_HS_SHARDS;
	for (size_t k = 0; ok && k < h->n_shards; k++) {
		hs_database_t *db = (hs_database_t *)(uintptr_t)((char *)m + h->off[k]);
		char *info = NULL;
		ok = h->off[k] + h->len[k] <= len && H->database_info(db, &info) == HS_SUCCESS;
		free(info);
		ix->hs[k] = db;
	}
	if (!ok) {
		munmap(m, len);
		memset(ix->hs, 0, sizeof ix->hs);
		return false;
	}
	ix->nhs = h->n_shards;
	ix->hsmem = m;
	ix->hslen = len;
	return true;
}

/* Write the databases to PATH.hs, each at the address it has in memory
 * modulo 64, so that a page-aligned mapping is scanned in place; the
 * header, which holds every offset, last. */
static bool save_file(const fl_index *ix, const char *path, hs_database_t **db, size_t n)
{
	hsdb_header h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, FL_HSDB_MAGIC, 8);
	memcpy(h.stamp, ix->h->stamp, sizeof h.stamp);
	h.n_lit = ix->h->n_factors + ix->h->n_hscodes;
	h.n_shards = n;
	char *tmp = fl_xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && fl_write_all(fd, &h, sizeof h) == 0;
	static const char zero[64];
	uint64_t at = sizeof h;
	for (size_t k = 0; ok && k < n; k++) {
		size_t sz = 0;
		H->database_size(db[k], &sz);
		size_t pad = ((uintptr_t)db[k] % 64 + 64 - at % 64) % 64;
		ok = fl_write_all(fd, zero, pad) == 0 && fl_write_all(fd, db[k], sz) == 0;
		h.off[k] = at + pad;
		h.len[k] = sz;
		at += pad + sz;
	}
	h.total = at;
	ok = ok && pwrite(fd, &h, sizeof h, 0) == (ssize_t)sizeof h;
	if (fd >= 0 && (close(fd) < 0 || !ok || rename(tmp, path) < 0)) {
		ok = false;
		unlink(tmp);
	}
	free(tmp);
	return ok;
}

static pthread_mutex_t hs_lock = PTHREAD_MUTEX_INITIALIZER;

static bool make_ready(fl_index *w)
{
	/* Past one database's literals, the literal table behind its filter
	 * scans a log faster than the shards one after another (each a pass
	 * over the text: 9 at a million records), and is made in
	 * milliseconds where they take seconds (minutes at ten million) */
	size_t nlit = w->h->n_factors + w->h->n_hscodes;
	if (nlit > SHARD_LITERALS) {
		fl_litfilter_make(&w->lt, &w->lf);
		w->filtered = true;
		return true;
	}
	if (!fl_hs(NULL))
		return false;
	char *path = w->path ? fl_xasprintf("%s.hs", w->path) : NULL;
	bool ok = path && map_file(w, path);
	if (!ok) {
		hs_database_t *db[FL_HS_SHARDS] = {0};
		size_t n = 0;
		ok = compile_all(w, db, &n);
		/* kept for later processes, then used from the file as they
		 * will; else from memory */
		if (ok && n && path && save_file(w, path, db, n) && map_file(w, path)) {
			for (size_t k = 0; k < n; k++)
				H->free_database(db[k]);
		} else if (ok) {
			memcpy(w->hs, db, sizeof db);
			w->nhs = n;
			w->hs_owned = true;
		}
	}
	free(path);
	ok = ok && w->nhs > 0;
	/* Hyperscan checks each database (a CRC over all of its bytes, 96 MB
	 * at a million records) when scratch is first made for it: once
	 * here, and threads clone this one */
	for (size_t k = 0; ok && k < w->nhs; k++)
		ok = H->alloc_scratch(w->hs[k], &w->hs_proto) == HS_SUCCESS;
	static uint64_t serials;
	if (ok)
		w->hs_serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	return ok;
}

bool fl_index_hs(const fl_index *ix, bool wait)
{
	fl_index *w = (fl_index *)(uintptr_t)ix; /* the databases only */
	int st = __atomic_load_n(&w->hs_state, __ATOMIC_ACQUIRE);
	if (st)
		return st > 0;
	if (wait)
		pthread_mutex_lock(&hs_lock);
	else if (pthread_mutex_trylock(&hs_lock) != 0)
		return false; /* another thread makes them */
	st = __atomic_load_n(&w->hs_state, __ATOMIC_ACQUIRE);
	if (!st) {
		st = make_ready(w) ? 1 : -1;
		__atomic_store_n(&w->hs_state, st, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&hs_lock);
	return st > 0;
}

bool fl_index_hs_scratch(const fl_index *ix, hs_scratch_t **scratch, uint64_t *serial)
{
	if (!fl_index_hs(ix, false) || ix->filtered)
		return false;
	if (*scratch && *serial == ix->hs_serial)
		return true;
	if (*scratch)
		H->free_scratch(*scratch);
	*scratch = NULL;
	*serial = 0;
	if (H->clone_scratch(ix->hs_proto, scratch) != HS_SUCCESS) {
		*scratch = NULL;
		return false;
	}
	*serial = ix->hs_serial;
	return true;
}

void fl_index_hs_free(fl_index *ix)
{
	if (ix->hs_proto)
		H->free_scratch(ix->hs_proto);
	ix->hs_proto = NULL;
	ix->hs_serial = 0;
	for (size_t k = 0; k < ix->nhs && ix->hs_owned; k++)
		H->free_database(ix->hs[k]);
	if (ix->hsmem)
		munmap(ix->hsmem, ix->hslen);
	memset(ix->hs, 0, sizeof ix->hs);
	ix->nhs = 0;
	ix->hsmem = NULL;
	ix->hs_owned = false;
	fl_litfilter_free(&ix->lf);
	ix->filtered = false;
	ix->hs_state = 0;
}
