/*
 * scan.c — the scanner core: lists a tree's files, applies the skip rules,
 * reads and scans files on every core, then turns the sites into records in
 * deterministic scan order (files by path bytes, sites by line and column):
 * ids, duplicates, slugs, patterns, windows, permalinks, explanations.
 * Knows nothing about any particular language (see lang.h).
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "../heap.h"
#include "../parallel.h"
#include "../sha256.h"
#include "../store_internal.h"
#include "../strmap.h"
#include "../util.h"
#include "core.h"
#include "describe.h"
#include "filter.h"
#include "lang.h"
#include "lex.h"
#include "persist.h"
#include "sites.h"
#include "tree.h"

#define NLANGS_MAX 16
#define FL_MAX_THREADS 64

struct job {
	int skip;               /* -1: scanned; else an fl_skip rule */
	char *why;              /* FL_SKIP_UNREADABLE of a file that is there:
				   why it could not be read */
	const fl_lang *lang;
	char *text;             /* content between the read and scan phases */
	size_t len;
	bool borrowed;          /* text is not malloc'd: it is in ctx.slabs,
				   or in its thread's read buffer until its
				   next read */
	bool reread;            /* its text was let go after the read phase:
				   the scan phase reads it again */
	fl_sites *sites;
	char **windows;         /* per site, unless only the store needs them */
	int *wstart, *wend;     /* per site: its window's lines (0: none) */
	char hash[33];          /* content digest (plain folders, files read):
				   XXH3-128 */
	void *part;             /* this file's collect() part (tree_merge) */
	void *cache;            /* what collect_keep() kept for its scan */
	void *early;            /* its sites were found while it was read
				   (collect_scan): the log of the scan's
				   lookups, checked once the tree is whole */
	bool done;              /* scanned (phase 1), under ctx.lock */
	int owner;              /* the thread that scanned it (scan_tid) */
	long trash_next;        /* the next job queued for release, or -1 */
	struct pre *pre;        /* its records, built by the worker */
	size_t npre, nsites;
	/* with a writer: its block (see store_internal.h), the windows'
	 * segments (seg_len bytes) then its records (those with inblock set),
	 * and the same compressed for the store */
	fl_buf raw;
	size_t seg_len;
	size_t nblock;
	void *block;
	size_t block_len;
};

/* A record built by a worker thread; the main thread then admits it in
 * scan order (duplicate ids, slug collisions) and writes it. */
struct pre {
	fl_entry e;
	fl_facts f;
	int line, col;
	char hash[17];          /* with a writer: content digest */
	char *json;             /* with a writer: the record's slice when it was
				   encoded again by the main thread (a slug
				   suffix), jlen bytes; else NULL, and it is in
				   the block */
	size_t jlen;
	bool inblock;           /* its JSON is bytes [boff, boff+blen) of the
				   job's raw/block */
	size_t boff, blen;
	int state;              /* with a writer: FL_SW_* */
	char *verr;             /* with a writer: why it is invalid, or NULL */
	bool dup;               /* another site of an earlier record of the same
				   file: only e.id, line and col are set */
	char *slug_base;        /* the slug before the suffix the worker gave
				   it, or NULL (e.slug is the base) */
};

struct ctx {
	const fl_tree *tree;
	const fl_scan_opts *o;
	struct job *jobs;
	size_t n;
	int phase;              /* 0 read, 1 scan */
	atomic_size_t next;
	atomic_llong files_done, bytes_done, sites_done;
	void *lang_trees[NLANGS_MAX];
	void *hints[NLANGS_MAX]; /* read phase: the languages' hint_new() */
	pthread_mutex_t lock;
	pthread_cond_t done_cv; /* a job of phase 1 is done */
	atomic_bool stop;       /* the consumer failed: workers stop */
	bool storing;           /* records are written while scanning */
	bool blocks;            /* records go into a store's blocks: the
				   windows' lines are kept once per file */
	bool keep_windows;      /* each record gets its window's text (for the
				   records the scan returns) */
	const char *repo, *host, *sha, *now; /* what records are built with */
	fl_scan_writer *w;      /* the store writer, or NULL */
	long long stored;       /* records written so far (main thread) */
	/* with a writer: each slug workers met, with the lowest job index
	 * they met it in, so that a worker gives a record the slug suffix
	 * scan order will give it (see predict_slug) */
	pthread_mutex_t slug_lock;
	fl_strmap slug_first;
	size_t rel_off;         /* the scan root's offset in tree paths */
	/* per thread (scan_tid): the first of the written jobs it is to
	 * release, linked by trash_next; -1 when none (under lock) */
	long trash[FL_MAX_THREADS + 1];
	atomic_int ntids;       /* workers of phase 1 started so far */
	atomic_llong kept;      /* bytes of the files whose collect pass kept
				   something for their scan */
	atomic_bool sha_ready;  /* fl_sha256_prepare() called */
	fl_slabs slabs;         /* where the texts kept between the phases are */
	bool reread;            /* files read from disk are read again for
				   their scan instead of kept (see read_one) */
	bool failed;
	fl_err err;
};

static int lang_index(const fl_lang *l)
{
	for (int i = 0; fl_langs[i]; i++)
		if (fl_langs[i] == l)
			return i;
	return -1;
}

static void hex(const unsigned char *md, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	out[2 * n] = '\0';
}

static void lex_job(struct ctx *c, size_t i);
static void site_windows(struct ctx *c, struct job *j);
static void release_queued(struct ctx *c, int tid);

/* The thread a phase 1 job is scanned on: 0 the one that called the scan,
 * 1.. the workers (job.owner). */
static _Thread_local int scan_tid;

/* A file left out for its name, added to the summary's list: quoted, with
 * C escapes for what is not printable UTF-8 (a newline, a byte that is not
 * UTF-8, a backslash, a quote). */
static void note_bad_name(fl_scan_summary *sum, const char *path)
{
	size_t cap = sizeof sum->bad_names, at = strlen(sum->bad_names);
	if (at >= 3 && strcmp(sum->bad_names + at - 3, "...") == 0)
		return;
	fl_buf b = {0};
	if (at)
		fl_buf_puts(&b, ", ");
	fl_buf_putc(&b, '"');
	for (size_t i = 0; path[i];) {
		unsigned char ch = (unsigned char)path[i];
		size_t k = ch < 0x80 ? 1 : (ch & 0xE0) == 0xC0 ? 2 : (ch & 0xF0) == 0xE0 ? 3
			 : (ch & 0xF8) == 0xF0 ? 4 : 0;
		if (ch == '\n' || ch == '\r' || ch == '\t' || ch == '"' || ch == '\\') {
			fl_buf_putc(&b, '\\');
			fl_buf_putc(&b, ch == '\n' ? 'n' : ch == '\r' ? 'r' : ch == '\t' ? 't' : (char)ch);
			i++;
		} else if (ch >= 0x80 && k && strnlen(path + i, k) == k && fl_utf8_valid(path + i, k)) {
			fl_buf_put(&b, path + i, k);
			i += k;
		} else if (ch < 0x20 || ch >= 0x7f) {
			char x[5];
			snprintf(x, sizeof x, "\\x%02x", ch);
			fl_buf_puts(&b, x);
			i++;
		} else {
			fl_buf_putc(&b, (char)ch);
			i++;
		}
	}
	fl_buf_putc(&b, '"');
	if (at + b.n + 6 < cap) {
		memcpy(sum->bad_names + at, b.s, b.n);
		sum->bad_names[at + b.n] = '\0';
	} else if (at + 6 < cap) {
		memcpy(sum->bad_names + at, at ? ", ..." : "...", at ? 6 : 4);
	}
	fl_buf_free(&b);
}

/* Phase 0: job i's language and the skip rule its path falls under, if
 * any (skip rules see paths relative to what the user asked to scan); a
 * file named without an extension gets the language of its `#!` line; a
 * file that would be scanned but whose path cannot be a filePath
 * (records.md, fl_file_path_problem) is left out (FL_SKIP_NAME): a name
 * that is not UTF-8 would be stored repaired (U+FFFD), no longer the
 * file's; a newline would let a listing print a line of the name's making. */
static void classify_job(struct ctx *c, fl_tree_reader *r, size_t i)
{
	const char *p = c->tree->files[i].path;
	const char *rel = strlen(p) > c->rel_off ? p + c->rel_off : p;
	c->jobs[i].lang = fl_lang_for_path(p);
	c->jobs[i].skip = fl_filter_path(rel, c->jobs[i].lang, c->o);
	if (c->jobs[i].skip == FL_SKIP_LANGUAGE && fl_lang_may_be_script(p)) {
		/* a script named without an extension (bin/lessc): its `#!`
		 * line's interpreter tells */
		char head[256];
		long n = fl_tree_read_head(r, i, head, sizeof head);
		const fl_lang *L = n > 0 ? fl_lang_for_script(head, (size_t)n) : NULL;
		if (L) {
			c->jobs[i].lang = L;
			c->jobs[i].skip = fl_filter_path(rel, L, c->o);
		}
	}
	if (c->jobs[i].skip < 0 && fl_file_path_problem(p))
		c->jobs[i].skip = FL_SKIP_NAME;
}

/* Whether a file of len bytes may keep what its collect pass learnt (its
 * tokens: about 8 bytes a byte) until its scan: while the files kept stay
 * under FL_KEEP_MAX bytes (git: 2.4 MB in 66 files).  The kept tokens take
 * new pages, which in a new process cost about what lexing again would
 * (git: the same wall time either way); a warm heap gains. */
#define FL_KEEP_MAX (8ll << 20)

static bool keep_budget(struct ctx *c, long long len)
{
	if (atomic_fetch_add(&c->kept, len) + len <= FL_KEEP_MAX)
		return true;
	atomic_fetch_sub(&c->kept, len);
	return false;
}

/* Job i's text is no longer needed. */
static void free_text(struct job *j)
{
	if (!j->borrowed)
		free(j->text);
	j->text = NULL;
	j->borrowed = false;
}

/* The thread's buffer for the files it reads from disk, reused file
 * after file: the texts of a tree are not all held at once. */
static _Thread_local fl_read_buf read_buf;
/* ... and its reader of the scan phase (reread_job) */
static _Thread_local fl_tree_reader reread_r;
static _Thread_local bool reread_open;

static void free_read_buf(void)
{
	free(read_buf.p);
	read_buf.p = NULL;
	read_buf.cap = 0;
	if (reread_open)
		fl_tree_reader_close(&reread_r);
	reread_open = false;
}

static void read_one(struct ctx *c, fl_tree_reader *r, size_t i)
{
	struct job *j = &c->jobs[i];
	fl_err err;
	bool large, gone;
	const fl_lang *L = j->lang;
	/* With a collect pass, a file's scan waits for the whole tree's
	 * facts: holding every text meanwhile (a large tree's hundreds of MB
	 * of new memory, each page a fault and zeroed: most of the cost of
	 * reading) costs more than reading a file again from the page cache
	 * into a buffer that stays warm.  Not when the collect pass is serial
	 * (it needs the texts between the phases), nor for the object
	 * store's blobs (inflated again). */
	bool again = c->reread && !(L->collect && !L->tree_merge);
	r->buf = again ? &read_buf : NULL;
	j->text = fl_tree_read_upto(r, i, FL_MAX_FILE, &j->len, &large, &gone, &j->borrowed, &err);
	if (large) {
		j->skip = FL_SKIP_LARGE;
		return;
	}
	if (!j->text) {
		j->skip = FL_SKIP_UNREADABLE;
		if (!gone)
			j->why = fl_xstrdup(err.msg);
		return;
	}
	if (!c->tree->gitdir) {
		/* a plain folder's analyzedSha digests its files' digests
		 * (folder_digest): XXH3 (16 MB: ~2 ms of CPU instead of SHA-256's
		 * 12 ms), as nothing here needs a digest an adversary cannot
		 * collide */
		XXH128_canonical_t d;
		XXH128_canonicalFromHash(&d, XXH3_128bits(j->text, j->len));
		hex(d.digest, sizeof d.digest, j->hash);
	}
	int rule = fl_filter_content(j->text, j->len);
	if (rule >= 0) {
		j->skip = rule;
		free_text(j);
		return;
	}
	bool let_go = again && j->borrowed;
	if (L->collect_scan && L->tree_merge && L->tree_new && L->early_holds &&
	    L->early_free) {
		/* collected, and scanned as if the tree were empty: its sites
		 * stand when nothing the scan looked up is in the whole tree
		 * (check_early), and the file is then not read again */
		fl_src src = {c->tree->files[i].path, j->text, j->len, NULL};
		j->part = L->tree_new();
		j->sites = fl_sites_new();
		int li = lang_index(L);
		j->early = L->collect_scan(j->part, &src, j->sites,
					   li >= 0 && li < NLANGS_MAX ? c->hints[li] : NULL);
		if (j->early) {
			site_windows(c, j);
		} else {
			fl_sites_free(j->sites);
			j->sites = NULL;
		}
	} else if (L->collect && L->tree_merge && L->tree_new) {
		fl_src src = {c->tree->files[i].path, j->text, j->len, NULL};
		j->part = L->tree_new();
		/* what the collect pass keeps points into its text */
		if (L->collect_keep && !let_go && keep_budget(c, (long long)j->len))
			j->cache = L->collect_keep(j->part, &src);
		else
			L->collect(j->part, &src);
	} else if (!L->tree_new) {
		/* a language without per-tree facts: its sites can be found
		 * now, while the text is in the cache, instead of after the
		 * whole tree is read */
		lex_job(c, i);
		return;
	}
	if (let_go) {
		j->reread = true;
		j->text = NULL;
		j->borrowed = false;
	}
}

/* Phase 1: job i's text read again (see read_one).  A file changed since
 * its first read is scanned as it is now (as a file changed during the
 * read phase is scanned as it was when read); one that can no longer be
 * read, or is now too large, has no sites. */
static void reread_job(struct ctx *c, size_t i)
{
	static char empty[1];
	struct job *j = &c->jobs[i];
	fl_err err;
	bool large, gone;
	/* a tree read again is not read from the object store: the reader
	 * opens nothing that can fail */
	if (!reread_open && fl_tree_reader_open(&reread_r, c->tree, &err) == 0) {
		reread_r.buf = &read_buf;
		reread_open = true;
	}
	j->reread = false;
	j->text = reread_open ? fl_tree_read_upto(&reread_r, i, FL_MAX_FILE, &j->len, &large,
						  &gone, &j->borrowed, &err)
			      : NULL;
	if (!j->text) {
		j->text = empty;
		j->len = 0;
		j->borrowed = true;
	}
}

static void prepare_job(struct ctx *c, size_t i);

/* A job's sites and the source windows not moved into records. */
static void free_sites(struct job *j)
{
	if (j->windows)
		for (size_t k = 0; k < j->sites->n; k++)
			free(j->windows[k]);
	free(j->windows);
	free(j->wstart);
	free(j->wend);
	j->windows = NULL;
	j->wstart = j->wend = NULL;
	fl_sites_free(j->sites);
	j->sites = NULL;
}

/* Find job i's sites and their source windows; the text is then freed. */
static void lex_job(struct ctx *c, size_t i)
{
	struct job *j = &c->jobs[i];
	fl_src src = {c->tree->files[i].path, j->text, j->len, j->cache};
	j->cache = NULL; /* scan() takes it */
	j->sites = fl_sites_new();
	int li = lang_index(j->lang);
	j->lang->scan(li >= 0 ? c->lang_trees[li] : NULL, &src, j->sites);
	site_windows(c, j);
	free_text(j);
}

/* Job j's sites found: sorted, with their source windows (from its text). */
static void site_windows(struct ctx *c, struct job *j)
{
	fl_sites_sort(j->sites);
	size_t n = j->sites->n;
	if (n) {
		size_t nlines;
		size_t *starts = fl_line_index(j->text, j->len, &nlines);
		if (c->keep_windows)
			j->windows = fl_xcalloc(n, sizeof *j->windows);
		j->wstart = fl_xcalloc(n, sizeof *j->wstart);
		j->wend = fl_xcalloc(n, sizeof *j->wend);
		for (size_t k = 0; k < n; k++) {
			fl_site *s = &j->sites->v[k];
			if ((size_t)s->line > nlines)
				s->line = nlines ? (int)nlines : 1;
			if (!c->keep_windows) {
				if (!fl_window_lines(nlines, s->line, &j->wstart[k], &j->wend[k]))
					j->wstart[k] = j->wend[k] = 0;
				continue;
			}
			char *w = fl_source_window_idx(j->text, j->len, starts,
						       nlines, s->line,
						       &j->wstart[k], &j->wend[k]);
			if (w && !fl_utf8_valid(w, strlen(w))) {
				char *fixed = fl_utf8_fix(w, strlen(w));
				free(w);
				w = fixed;
			}
			if (!w)
				j->wstart[k] = j->wend[k] = 0;
			j->windows[k] = w;
		}
		if (c->blocks) {
			fl_sw_block_windows(&j->raw, j->text, j->len, starts,
					    j->wstart, j->wend, n);
			j->seg_len = j->raw.n;
		}
		free(starts);
	}
	atomic_fetch_add(&c->sites_done, (long long)n);
	atomic_fetch_add(&c->bytes_done, (long long)j->len);
}

/* Phase 1: whether the sites job i's scan found while it was read stand,
 * the whole tree answering none to every lookup that scan made (lang.h:
 * collect_scan); else they are dropped, to scan it again. */
static void check_early(struct ctx *c, size_t i)
{
	struct job *j = &c->jobs[i];
	int li = lang_index(j->lang);
	bool holds = li >= 0 && j->lang->early_holds(c->lang_trees[li], j->early);
	j->lang->early_free(j->early);
	j->early = NULL;
	if (holds) {
		j->reread = false;
		free_text(j);
		return;
	}
	atomic_fetch_sub(&c->sites_done, (long long)j->sites->n);
	atomic_fetch_sub(&c->bytes_done, (long long)j->len);
	free_sites(j);
	fl_buf_free(&j->raw);
	j->seg_len = 0;
}

/* Phase 1: job i's sites (unless found while reading), then its records. */
static void scan_one(struct ctx *c, size_t i)
{
	struct job *j = &c->jobs[i];
	if (j->early)
		check_early(c, i);
	if (j->reread)
		reread_job(c, i);
	if (j->text)
		lex_job(c, i);
	if (j->sites)
		prepare_job(c, i);
}

/* Phase 1: scan job i and say it is done. */
static void scan_job(struct ctx *c, size_t i)
{
	c->jobs[i].owner = scan_tid;
	scan_one(c, i);
	pthread_mutex_lock(&c->lock);
	c->jobs[i].done = true;
	pthread_cond_broadcast(&c->done_cv);
	pthread_mutex_unlock(&c->lock);
	atomic_fetch_add(&c->files_done, 1);
}

static void *worker(void *arg)
{
	struct ctx *c = arg;
	fl_heap_thread_huge(); /* when the process asked for it */
	fl_tree_reader r;
	fl_slab slab = {&c->slabs, NULL, 0};
	fl_err err;
	if (c->phase == 0 && fl_tree_reader_open(&r, c->tree, &err) < 0) {
		pthread_mutex_lock(&c->lock);
		if (!c->failed) {
			c->failed = true;
			c->err = err;
		}
		pthread_mutex_unlock(&c->lock);
		return NULL;
	}
	/* the first reader readies SHA-256 (OpenSSL's first use: ~1.7 ms),
	 * which the folder's digest needs as soon as the last file is read:
	 * here its cost is shared by the cores of a busy phase, instead of
	 * holding up the end of the phase (measured: 1.5 ms later) */
	if (c->phase == 0 && !atomic_exchange(&c->sha_ready, true))
		fl_sha256_prepare();
	if (c->phase == 0)
		r.slab = &slab;
	if (c->phase == 1) {
		scan_tid = atomic_fetch_add(&c->ntids, 1) + 1;
		if (scan_tid > FL_MAX_THREADS)
			scan_tid = -1; /* its jobs are released by the main thread */
	}
	for (;;) {
		/* the jobs written meanwhile that this thread made */
		if (c->storing && scan_tid > 0)
			release_queued(c, scan_tid);
		size_t i = atomic_fetch_add(&c->next, 1);
		if (i >= c->n || atomic_load(&c->stop))
			break;
		if (c->phase == 0)
			classify_job(c, &r, i);
		if (c->jobs[i].skip >= 0)
			continue;
		if (c->phase == 0)
			read_one(c, &r, i);
		else
			scan_job(c, i);
	}
	if (c->phase == 0)
		fl_tree_reader_close(&r);
	free_read_buf();
	if (c->storing && scan_tid > 0)
		release_queued(c, scan_tid);
	return NULL;
}

static void progress(struct ctx *c, double t0, bool final)
{
	double dt = fl_now_mono() - t0;
	long long files = atomic_load(&c->files_done);
	long long bytes = atomic_load(&c->bytes_done);
	long long sites = atomic_load(&c->sites_done);
	if (c->storing)
		fprintf(stderr, "\rscanning: %lld files, %.1f MB, %.1f MB/s, %lld sites, %lld records stored   %s",
			files, (double)bytes / 1e6, dt > 0 ? (double)bytes / 1e6 / dt : 0.0,
			sites, c->stored, final ? "\n" : "");
	else
		fprintf(stderr, "\rscanning: %lld files, %.1f MB, %.1f MB/s, %lld sites   %s",
			files, (double)bytes / 1e6, dt > 0 ? (double)bytes / 1e6 / dt : 0.0,
			sites, final ? "\n" : "");
	fflush(stderr);
}

struct phase {
	pthread_t tids[FL_MAX_THREADS];
	int started;
};

static void start_workers(struct ctx *c, int phase, int threads, struct phase *ph)
{
	c->phase = phase;
	atomic_store(&c->next, 0);
	ph->started = 0;
	for (int i = 0; i < threads && i < FL_MAX_THREADS; i++)
		if (fl_thread_spawn(&ph->tids[ph->started], worker, c, i) == 0)
			ph->started++;
}

static void start_phase(struct ctx *c, int phase, int threads, struct phase *ph)
{
	start_workers(c, phase, threads, ph);
	if (ph->started == 0)
		worker(c); /* no threads to be had: do it here */
}

static void join_phase(struct phase *ph)
{
	for (int i = 0; i < ph->started; i++)
		pthread_join(ph->tids[i], NULL);
}

static void run_phase(struct ctx *c, int phase, int threads, double t0)
{
	struct phase ph;
	start_phase(c, phase, threads, &ph);
	if (c->o->progress && phase == 1 && ph.started) {
		while (atomic_load(&c->next) < c->n) {
			struct timespec ts = {0, 100 * 1000 * 1000};
			nanosleep(&ts, NULL);
			progress(c, t0, false);
		}
	}
	join_phase(&ph);
	if (c->o->progress && phase == 1)
		progress(c, t0, true);
}

/* Wait until worker threads have scanned job i (phase 1). */
static void wait_job(struct ctx *c, size_t i, double t0, double *last)
{
	pthread_mutex_lock(&c->lock);
	while (!c->jobs[i].done) {
		if (c->o->progress) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 100 * 1000 * 1000;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&c->done_cv, &c->lock, &ts);
			double now = fl_now_mono();
			if (now - *last >= 0.1) {
				*last = now;
				pthread_mutex_unlock(&c->lock);
				progress(c, t0, false);
				pthread_mutex_lock(&c->lock);
			}
		} else {
			pthread_cond_wait(&c->done_cv, &c->lock);
		}
	}
	pthread_mutex_unlock(&c->lock);
}

/* Main thread, phase 1: until job i is scanned, scan the next jobs itself
 * (so that the workers and it keep exactly the cores busy, without a
 * thread more that would only wait and preempt them), then wait for the
 * worker that has job i. */
static void help_until_done(struct ctx *c, size_t i, double t0, double *last)
{
	for (;;) {
		pthread_mutex_lock(&c->lock);
		bool done = c->jobs[i].done;
		pthread_mutex_unlock(&c->lock);
		if (done)
			return;
		size_t k = atomic_fetch_add(&c->next, 1);
		if (k >= c->n || atomic_load(&c->stop))
			break;
		if (c->jobs[k].skip < 0)
			scan_job(c, k);
	}
	wait_job(c, i, t0, last);
}

/* owner/name for a tree: --repo, else the origin remote, else
 * local/<folder name> */
char *fl_scan_repo_name(const fl_scan_opts *o, const fl_tree *t, bool *local)
{
	*local = false;
	if (o->repo)
		return fl_xstrdup(o->repo);
	if (t->remote_repo)
		return fl_xstrdup(t->remote_repo);
	*local = true;
	const char *base = strrchr(t->root, '/');
	base = base && base[1] ? base + 1 : "root";
	size_t n = strlen(base);
	/* a git directory is named after its project: w/.git -> w,
	 * project.git -> project */
	if (strcmp(base, ".git") == 0 && base - t->root >= 2) {
		const char *e = base - 1, *b = e;
		while (b > t->root && b[-1] != '/')
			b--;
		base = b;
		n = (size_t)(e - b);
	} else if (n > 4 && strcmp(base + n - 4, ".git") == 0) {
		n -= 4;
	}
	char *r = fl_xasprintf("local/%.*s", (int)n, base);
	for (char *p = r + 6; *p; p++)
		if (*p == ' ' || *p == '/' || *p == '\t')
			*p = '-';
	return r;
}

bool fl_scan_valid_repo_name(const char *r)
{
	const char *sl = strchr(r, '/');
	if (!sl || sl == r || !sl[1] || strchr(sl + 1, '/'))
		return false;
	for (; *r; r++)
		if (*r == ' ' || *r == '\t' || *r == '\n')
			return false;
	return true;
}

static void count_lang(fl_scan_summary *s, const char *lang, long long files,
		       long long sites, long long records)
{
	size_t i;
	for (i = 0; i < s->nlangs; i++)
		if (strcmp(s->langs[i].lang, lang) == 0)
			break;
	if (i == s->nlangs) {
		if (s->nlangs == 16)
			return;
		s->nlangs++;
		s->langs[i].lang = lang;
	}
	s->langs[i].files += files;
	s->langs[i].sites += sites;
	s->langs[i].records += records;
}

/* A message needs some text of its own: "{}", "{err}" or "%s" alone says
 * nothing and would match anything.  At least 3 letters outside the
 * placeholders, or 2 in a shape of signs of its own: a check's template
 * written in its variables' names, "k (%s) > n (%s)", "x=%d, y=%d" (a
 * frame that names its line tells it from another). */
static bool message_has_text(const char *m, const char *pat)
{
	int letters = 0, signs = 0, words = 0;
	bool in_word = false;
	/* count letters of the pattern outside (.+?) groups, the words they
	 * make, and the other characters but blanks (an escaped one among
	 * them) */
	for (const char *p = pat; *p; p++) {
		bool letter = false;
		if (strncmp(p, "(.+?)", 5) == 0) {
			p += 4;
		} else if (*p == '\\' && p[1]) {
			p++;
			signs += *p != ' ';
		} else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			   (unsigned char)*p >= 0x80) {
			letters++;
			words += !in_word;
			letter = true;
		} else if (*p != ' ' && *p != '\t') {
			signs++;
		}
		in_word = letter;
	}
	/* two names of one letter each, not a word ("in", "lr") */
	int need = letters == 2 && words == 2 && signs >= 3 ? 2 : 3;
	/* a fall-back pattern escapes the placeholders: count them out too */
	if (letters >= need)
		letters = fl_msg_plain_letters(m);
	return letters >= need;
}

bool fl_site_record_text(const fl_site *s, char **msg, char **pat, const char **code)
{
	*code = s->code && *s->code ? s->code : NULL;
	*msg = *pat = NULL;
	/* a line that starts with a carriage return is a status line
	 * redrawn in place (progress), not an error message */
	if (s->message && *s->message && s->message[0] != '\r')
		*pat = fl_message_pattern(s->message);
	if (*pat && message_has_text(s->message, *pat)) {
		*msg = fl_utf8_fix(s->message, strlen(s->message));
		if (strcmp(*msg, s->message) != 0) {
			free(*pat); /* of the text before the fix */
			*pat = NULL;
		}
		return true;
	}
	free(*pat);
	*pat = NULL;
	if (!*code)
		return false;
	*msg = fl_utf8_fix(*code, strlen(*code));
	return true;
}

static void free_pre(struct pre *p)
{
	fl_entry_free(&p->e);
	free((char *)p->f.function);
	free((char *)p->f.guard);
	free((char *)p->f.idiom);
	free(p->json);
	free(p->verr);
	free(p->slug_base);
}

/* With a writer, on a worker: the record's slug as scan order will make
 * it, so that its JSON is right the first time.  A slug an earlier record
 * has gets the id suffix (admit_job decides, in file order); a worker
 * sees the files scanned so far, nearly all of the earlier ones, and
 * admit_job corrects the rare wrong guess (an earlier file still being
 * scanned, an earlier record left out). */
bool fl_scan_guess_slugs = true;

static void predict_slug(struct ctx *c, size_t job, struct pre *p)
{
	size_t first;
	if (!fl_scan_guess_slugs)
		return;
	pthread_mutex_lock(&c->slug_lock);
	bool earlier = fl_strmap_get(&c->slug_first, p->e.slug, &first) && first <= job;
	if (!earlier)
		fl_strmap_put(&c->slug_first, p->e.slug, job);
	pthread_mutex_unlock(&c->slug_lock);
	if (earlier) {
		p->slug_base = p->e.slug;
		p->e.slug = fl_slug_suffixed(p->slug_base, p->e.id);
	}
}

/* With a writer: validate, digest, compare with the stored record, encode. */
static void encode_pre(const fl_scan_writer *w, struct pre *p)
{
	fl_err err;
	free(p->json);
	free(p->verr);
	p->json = p->verr = NULL;
	if (fl_entry_validate(&p->e, &err) < 0) {
		p->verr = fl_xstrdup(err.msg);
		return;
	}
	fl_buf b = {0};
	p->jlen = fl_sw_encode_slice(w, &p->e, &b, p->hash, &p->state);
	p->json = b.s;
}

/* With a writer: validate, digest, compare with the stored record, and
 * write the record's JSON at the end of the job's block. */
static void encode_in_block(const fl_scan_writer *w, struct job *j, struct pre *p)
{
	fl_err err;
	if (fl_entry_validate(&p->e, &err) < 0) {
		p->verr = fl_xstrdup(err.msg);
		return;
	}
	p->boff = j->raw.n;
	p->blen = fl_sw_encode_slice(w, &p->e, &j->raw, p->hash, &p->state);
	p->inblock = true;
	j->nblock++;
}

/* With a writer: the job's block, compressed here, on the worker's core,
 * so that the main thread only writes it. */
static void build_block(struct job *j)
{
	if (!j->nblock)
		return;
	j->block = fl_sw_compress(j->raw.s, j->raw.n, &j->block_len);
}

static void free_block(struct job *j)
{
	fl_buf_free(&j->raw);
	free(j->block);
	j->block = NULL;
	j->block_len = j->nblock = 0;
}

/* Main thread, with a writer: write the admitted records of job j (kept,
 * in record order, at res indexes idx) with their block.  When all of the
 * worker's block was admitted as it was encoded, that block is written;
 * otherwise (a duplicate across files, a slug suffix the worker did not
 * foresee, an invalid record: rare) a block of the admitted records is
 * made here. */
static int write_records(struct ctx *c, struct job *j, struct pre **kept, size_t n,
			 bool whole, fl_err *err)
{
	if (!n)
		return 0;
	const void *z = j->block;
	size_t zlen = j->block_len, rawlen = j->raw.n;
	void *own = NULL;
	if (!whole) {
		fl_buf b = {0};
		fl_buf_put(&b, j->raw.s, j->seg_len); /* the windows */
		for (size_t k = 0; k < n; k++) {
			struct pre *p = kept[k];
			const char *json = p->json ? p->json : j->raw.s + p->boff;
			size_t len = p->json ? p->jlen : p->blen;
			p->boff = b.n;
			p->blen = len;
			fl_buf_put(&b, json, len);
		}
		own = fl_sw_compress(b.s, b.n, &zlen);
		rawlen = b.n;
		free(b.s);
		z = own;
	}
	long long id;
	int rc = fl_sw_add_block(c->w, c->repo, z, zlen, rawlen, &id, err);
	for (size_t k = 0; k < n && rc == 0; k++)
		rc = fl_sw_insert_in_block(c->w, &kept[k]->e, &kept[k]->f,
					   kept[k]->hash, id, kept[k]->boff, kept[k]->blen, err);
	free(own);
	return rc;
}

/* The window of lines ws..we from a file's block of window lines (raw,
 * see fl_sw_block_windows), for the explanation writer when the scan keeps
 * no window text in its records; NULL when no segment holds it. */
static char *window_from_block(const fl_buf *raw, int ws, int we)
{
	if (ws <= 0 || we < ws || raw->n < FL_BLOCK_MAGIC_LEN + 4)
		return NULL;
	const char *p = raw->s + FL_BLOCK_MAGIC_LEN, *end = raw->s + raw->n;
	uint32_t nseg = fl_get_u32(p);
	p += 4;
	for (uint32_t i = 0; i < nseg && end - p >= 12; i++) {
		uint32_t s = fl_get_u32(p), nl = fl_get_u32(p + 4), bytes = fl_get_u32(p + 8);
		p += 12;
		if ((size_t)(end - p) < bytes)
			return NULL;
		if ((uint32_t)ws >= s && (uint32_t)we < s + nl) {
			const char *t = p, *te = p + bytes;
			for (uint32_t k = s; k < (uint32_t)ws && t < te; k++) {
				const char *nlp = memchr(t, '\n', (size_t)(te - t));
				t = nlp ? nlp + 1 : te;
			}
			const char *u = t;
			for (int k = ws; k <= we && u < te; k++) {
				const char *nlp = memchr(u, '\n', (size_t)(te - u));
				u = nlp ? (k < we ? nlp + 1 : nlp) : te;
			}
			return fl_xstrndup(t, (size_t)(u - t));
		}
		p += bytes;
	}
	return NULL;
}

/* Worker side: turn job i's sites into records (all but what depends on
 * the records before them: duplicate ids and slug suffixes). */
static void prepare_job(struct ctx *c, size_t i)
{
	struct job *j = &c->jobs[i];
	if (!j->sites)
		return;
	const char *repo = c->repo, *host = c->host, *sha = c->sha, *now = c->now;
	const char *path = c->tree->files[i].path;
	j->nsites = j->sites->n;
	j->pre = fl_xcalloc(j->nsites ? j->nsites : 1, sizeof *j->pre);
	fl_strmap seen = {0};
	for (size_t k = 0; k < j->sites->n; k++) {
		fl_site *s = &j->sites->v[k];
		const char *code;
		char *msg, *pat;
		if (!fl_site_record_text(s, &msg, &pat, &code))
			continue;
		struct pre *p = &j->pre[j->npre++];
		fl_entry *e = &p->e;
		fl_facts *f = &p->f;
		p->line = s->line;
		p->col = s->col;
		char id[17];
		fl_record_id(repo, code, msg, path, id);
		e->id = fl_xstrdup(id);
		/* the id holds the path: every duplicate site is in the same
		 * file, and needs no record of its own */
		if (fl_strmap_get(&seen, id, NULL))
			p->dup = true;
		else
			fl_strmap_put(&seen, e->id, j->npre - 1);
		if (p->dup) {
			/* its own function and guard: the lookup tells a
			 * record's lines apart by them */
			f->function = s->function ? fl_utf8_fix(s->function, strlen(s->function)) : NULL;
			f->guard = s->guard ? fl_utf8_fix(s->guard, strlen(s->guard)) : NULL;
			free(msg);
			free(pat);
			if (j->windows && j->windows[k]) {
				free(j->windows[k]);
				j->windows[k] = NULL;
			}
			continue;
		}
		e->repo = fl_xstrdup(repo);
		e->slug = fl_slug_base(code ? code : msg);
		if (c->w)
			predict_slug(c, i, p);
		e->error_code = code ? fl_utf8_fix(code, strlen(code)) : NULL;
		e->error_message = msg;
		e->message_pattern = pat ? pat : fl_message_pattern(msg);
		e->error_type = fl_xstrdup(s->type);
		e->error_class = s->cls && *s->cls ? fl_utf8_fix(s->cls, strlen(s->cls)) : NULL;
		e->http_status = s->http >= 100 && s->http <= 599 ? s->http : 0;
		e->severity = fl_xstrdup(s->severity);
		e->file_path = fl_utf8_fix(path, strlen(path));
		e->line_number = s->line;
		if (j->wstart && j->wstart[k] > 0) {
			e->source_code_start = j->wstart[k];
			e->source_code_end = j->wend[k];
		}
		if (j->windows && j->windows[k]) {
			e->source_code = j->windows[k];
			j->windows[k] = NULL;
		}
		e->github_url = fl_permalink(host, repo, sha, e->file_path,
					     e->source_code_start,
					     e->source_code_end,
					     host ? NULL : c->tree->root);
		e->analyzed_sha = fl_xstrdup(sha);
		e->analyzed_at = fl_xstrdup(now);
		e->content_changed_at = fl_xstrdup(now);
		e->schema_version = FL_SCHEMA_VERSION;
		if (!e->source_code && c->blocks && j->raw.n) {
			/* the explanation reads the window; the record keeps
			 * it in its block only */
			e->source_code = window_from_block(&j->raw, e->source_code_start, e->source_code_end);
			fl_describe(e, s, j->lang->name);
			free(e->source_code);
			e->source_code = NULL;
		} else {
			fl_describe(e, s, j->lang->name);
		}
		f->function = s->function ? fl_utf8_fix(s->function, strlen(s->function)) : NULL;
		f->guard = s->guard ? fl_utf8_fix(s->guard, strlen(s->guard)) : NULL;
		f->idiom = fl_xstrdup(s->idiom);
		f->language = j->lang->name;
		f->column = s->col;
		if (c->w)
			encode_in_block(c->w, j, p);
	}
	fl_strmap_free(&seen);
	/* the sites and windows are in the records now */
	free_sites(j);
	if (c->w)
		build_block(j);
}

/* The maps that make ids and slugs unique across the tree. */
struct builder {
	fl_strmap ids, slugs;
	size_t cap;
	long long admitted;     /* records admitted (with drop_records, res
				   holds only those of the current file) */
};

/* Record k of r and its facts, freed. */
static void free_result_entry(fl_scan_result *r, size_t k)
{
	fl_entry_free(&r->entries[k]);
	free((char *)r->facts[k].function);
	free((char *)r->facts[k].guard);
	free((char *)r->facts[k].idiom);
}

/* Free what is left of a written job: its records (in pre) and its block.
 * On the thread that made them, whose heap they are in: freed by another
 * thread, every free() waits for that heap's lock, which its owner,
 * allocating, holds (the main thread's waits for a lock were half there). */
static void release_job(struct job *j)
{
	for (size_t k = 0; k < j->npre; k++)
		free_pre(&j->pre[k]);
	free(j->pre);
	j->pre = NULL;
	j->npre = 0;
	free_block(j);
}

/* Main thread: job i is written; release it now, or queue it for the
 * worker that scanned it. */
static void release_or_queue(struct ctx *c, size_t i)
{
	struct job *j = &c->jobs[i];
	if (j->owner <= 0 || j->owner > FL_MAX_THREADS) {
		release_job(j);
		return;
	}
	pthread_mutex_lock(&c->lock);
	j->trash_next = c->trash[j->owner];
	c->trash[j->owner] = (long)i;
	pthread_mutex_unlock(&c->lock);
}

/* Release the jobs queued for thread tid. */
static void release_queued(struct ctx *c, int tid)
{
	pthread_mutex_lock(&c->lock);
	long i = c->trash[tid];
	c->trash[tid] = -1;
	pthread_mutex_unlock(&c->lock);
	while (i >= 0) {
		struct job *j = &c->jobs[i];
		i = j->trash_next;
		release_job(j);
	}
}

/* Main thread: admit job i's records in scan order (a repeated id is a
 * duplicate site of the first record; a repeated slug gets the id suffix)
 * and, with a writer, write them.  -1 (err set) when one cannot be. */
static int admit_job(struct ctx *c, struct builder *b, fl_scan_result *res, size_t i,
		     fl_err *err)
{
	struct job *j = &c->jobs[i];
	fl_scan_summary *sum = &res->summary;
	const char *path = c->tree->files[i].path;
	sum->sites += (long long)j->nsites;
	if (j->nsites || !j->lang->data_file || !j->lang->data_file(path))
		count_lang(sum, j->lang->name, 0, (long long)j->nsites, 0);
	int rc = 0;
	/* drop: the records are written, not returned; they stay in the
	 * job's pre until released (release_or_queue) */
	bool drop = c->w && c->o->drop_records;
	struct pre **pend = NULL; /* drop: other sites, written after the records */
	size_t npend = 0;
	size_t k = 0, nkept = 0, whole = 0;
	struct pre **kept = c->w ? fl_xcalloc(j->npre ? j->npre : 1, sizeof *kept) : NULL;
	if (drop)
		pend = fl_xcalloc(j->npre ? j->npre : 1, sizeof *pend);
	for (; k < j->npre && rc == 0; k++) {
		struct pre *p = &j->pre[k];
		size_t prev;
		if (fl_strmap_get(&b->ids, p->e.id, &prev)) {
			if (drop) {
				pend[npend++] = p;
			} else {
				res->dups = fl_xrealloc(res->dups, (res->ndups + 1) * sizeof *res->dups);
				res->dups[res->ndups++] = (struct fl_dup_site){
					prev, fl_xstrdup(path), p->line, p->col,
					(char *)p->f.function, (char *)p->f.guard};
				p->f.function = p->f.guard = NULL; /* moved */
				free_pre(p);
			}
			sum->duplicates++;
			continue;
		}
		if (p->dup) {
			/* its record was left out (invalid): so is this site */
			if (!drop)
				free_pre(p);
			continue;
		}
		const char *base = p->slug_base ? p->slug_base : p->e.slug;
		bool taken = fl_strmap_get(&b->slugs, base, NULL);
		if (taken != (p->slug_base != NULL)) {
			/* not the slug the worker guessed */
			char *slug = taken ? fl_slug_suffixed(base, p->e.id) : fl_xstrdup(base);
			free(p->e.slug);
			p->e.slug = slug;
			if (c->w)
				encode_pre(c->w, p); /* the slug is part of the content */
		}
		free(p->slug_base);
		p->slug_base = NULL;
		if (c->w && p->verr) {
			/* never store an invalid record; one scanner bug must not
			 * cost the user the whole scan: leave it out and say so */
			if (sum->invalid++ == 0)
				snprintf(sum->invalid_first, sizeof sum->invalid_first,
					 "%s:%d: %s", path, p->line, p->verr);
			if (!drop)
				free_pre(p);
			continue;
		}
		fl_strmap_put(&b->ids, p->e.id, res->n);
		fl_strmap_put(&b->slugs, p->e.slug, res->n);
		b->admitted++;
		count_lang(sum, j->lang->name, 0, 0, 1);
		if (!drop) {
			/* the record moves into the result */
			if (res->n == b->cap) {
				b->cap = b->cap ? b->cap * 2 : 256;
				res->entries = fl_xrealloc(res->entries, b->cap * sizeof *res->entries);
				res->facts = fl_xrealloc(res->facts, b->cap * sizeof *res->facts);
			}
			res->entries[res->n] = p->e;
			res->facts[res->n] = p->f;
			res->n++;
		}
		if (c->w) {
			fl_sw_count(c->w, p->state, sum);
			if (p->inblock && !p->json)
				whole++;
			kept[nkept++] = p;
		}
	}
	if (c->w && rc == 0)
		rc = write_records(c, j, kept, nkept,
				   whole == j->nblock && whole == nkept, err);
	for (size_t m = 0; m < npend && rc == 0; m++)
		rc = fl_sw_add_site(c->w, pend[m]->e.id, path, pend[m]->line,
				    pend[m]->col, pend[m]->f.function, pend[m]->f.guard, err);
	free(pend);
	if (drop) {
		free(kept);
		release_or_queue(c, i);
		return rc;
	}
	/* the records moved into res: what is left of their pre */
	for (size_t m = 0; m < nkept; m++) {
		free(kept[m]->json);
		free(kept[m]->verr);
	}
	free(kept);
	free_block(j);
	for (; k < j->npre; k++)
		free_pre(&j->pre[k]);
	free(j->pre);
	j->pre = NULL;
	j->npre = 0;
	return rc;
}

/* A plain folder's analyzedSha: SHA-256 (first 40 hex digits) over every
 * file of the tree in path order: its path, and the digest of its content
 * when the scan read it.  What the scan did not read (files its rules skip
 * by path, files over the size limit, unreadable ones) counts by its path
 * only: the digest says what was analyzed, and a stat() per such file (git:
 * 4 k of them) cost more than the rest of reading the tree. */
static void folder_digest(struct ctx *c, char out[41])
{
	fl_buf all = {0};
	for (size_t i = 0; i < c->n; i++) {
		const char *p = c->tree->files[i].path;
		fl_buf_put(&all, p, strlen(p) + 1);
		if (c->jobs[i].hash[0])
			fl_buf_put(&all, c->jobs[i].hash, 32);
		fl_buf_putc(&all, '\n');
	}
	unsigned char md[32];
	fl_sha256(all.s ? all.s : "", all.n, md);
	fl_buf_free(&all);
	hex(md, 20, out);
}

static void free_jobs(struct ctx *c)
{
	for (int li = 0; fl_langs[li] && li < NLANGS_MAX; li++)
		if (c->lang_trees[li] && fl_langs[li]->tree_free)
			fl_langs[li]->tree_free(c->lang_trees[li]);
	for (size_t i = 0; i < c->n; i++) {
		struct job *j = &c->jobs[i];
		free_sites(j);
		free_text(j);
		free(j->why);
		if (j->part && j->lang->tree_free)
			j->lang->tree_free(j->part);
		if (j->cache && j->lang->cache_free)
			j->lang->cache_free(j->cache);
		if (j->early)
			j->lang->early_free(j->early);
		release_job(j);  /* records and block not released yet */
	}
	free(c->jobs);
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->slug_lock);
	fl_slabs_free(&c->slabs);
	fl_strmap_free(&c->slug_first);
	pthread_cond_destroy(&c->done_cv);
}

static void *free_jobs_main(void *arg)
{
	free_jobs(arg);
	return NULL;
}

/* A tree opened ahead on a thread of its own (fl_scan_prewarm): listing
 * it (a folder walk, or libgit2's start and the index) overlaps what the
 * caller does meanwhile, such as opening the store. */
static struct {
	pthread_t thread;
	bool started;
	char *path, *rev;
	fl_tree tree;
	int rc;
	fl_err err;
} prewarmed;

static void *prewarm_main(void *arg)
{
	(void)arg;
	prewarmed.rc = fl_tree_open(prewarmed.path, prewarmed.rev, &prewarmed.tree,
				    &prewarmed.err);
	return NULL;
}

void fl_scan_prewarm(const fl_scan_opts *o)
{
	if (prewarmed.started || !o->path)
		return;
	prewarmed.path = fl_xstrdup(o->path);
	prewarmed.rev = o->rev ? fl_xstrdup(o->rev) : NULL;
	prewarmed.started = fl_thread_spawn(&prewarmed.thread, prewarm_main, NULL, 0) == 0;
	if (!prewarmed.started) {
		free(prewarmed.path);
		free(prewarmed.rev);
	}
}

/* after the prewarm thread is joined: its names freed, nothing started */
static void prewarm_clear(void)
{
	free(prewarmed.path);
	free(prewarmed.rev);
	memset(&prewarmed, 0, sizeof prewarmed);
}

/* the prewarmed tree, when it is the one o asks for: *rc is what
 * fl_tree_open returned, and the tree is the caller's */
static bool take_prewarmed(const fl_scan_opts *o, fl_tree *t, int *rc, fl_err *err)
{
	if (!prewarmed.started || strcmp(prewarmed.path, o->path) != 0 ||
	    (prewarmed.rev == NULL) != (o->rev == NULL) ||
	    (o->rev && strcmp(prewarmed.rev, o->rev) != 0))
		return false;
	pthread_join(prewarmed.thread, NULL);
	*t = prewarmed.tree;
	*rc = prewarmed.rc;
	if (*rc < 0)
		*err = prewarmed.err;
	prewarm_clear();
	return true;
}

void fl_scan_prewarm_join(void)
{
	if (!prewarmed.started)
		return;
	pthread_join(prewarmed.thread, NULL);
	if (prewarmed.rc == 0)
		fl_tree_close(&prewarmed.tree);
	prewarm_clear();
}

/* Scan a tree; with st, write its records into st while scanning. */
static int scan_tree(const fl_scan_opts *o, fl_store *st, fl_scan_result *res, fl_err *err)
{
	memset(res, 0, sizeof *res);
	double t0 = fl_now_mono();
	fl_tree tree;
	int trc;
	if (!take_prewarmed(o, &tree, &trc, err))
		trc = fl_tree_open(o->path, o->rev, &tree, err);
	if (trc < 0)
		return -1;
	bool local;
	char *repo = fl_scan_repo_name(o, &tree, &local);
	if (!fl_scan_valid_repo_name(repo)) {
		fl_seterr(err, "--repo %s: must be OWNER/NAME", repo);
		free(repo);
		fl_tree_close(&tree);
		return -1;
	}
	/* a plain folder has no commit of its own: its permalinks name one
	 * only when the user gives it (--commit) */
	bool plain = tree.gitdir == NULL;
	if (!plain && o->commit) {
		fl_seterr(err, "%s: --commit is for a plain folder; a git repository's commit "
			  "is its own (--rev reads another)", o->path);
		free(repo);
		fl_tree_close(&tree);
		return -1;
	}
	const char *host = local || (plain && !o->commit) ? NULL
		: (tree.host && tree.remote_repo && strcmp(tree.remote_repo, repo) == 0 ? tree.host : "github.com");

	/* the scan root relative to the tree root: skip rules see paths
	 * relative to what the user asked to scan */
	char abs[PATH_MAX];
	size_t rel_off = 0;
	if (realpath(o->path, abs) && fl_str_starts(abs, tree.root) &&
	    abs[strlen(tree.root)] == '/')
		rel_off = strlen(abs) - strlen(tree.root);

	struct ctx c;
	memset(&c, 0, sizeof c);
	bool jobs_freed = false;
	c.tree = &tree;
	c.o = o;
	c.blocks = st != NULL;
	for (int t = 0; t <= FL_MAX_THREADS; t++)
		c.trash[t] = -1;
	scan_tid = 0; /* this thread's jobs are released as they are written */
	c.keep_windows = !(st && o->drop_records);
	c.n = tree.n;
	c.jobs = fl_xcalloc(tree.n ? tree.n : 1, sizeof *c.jobs);
	pthread_mutex_init(&c.lock, NULL);
	pthread_mutex_init(&c.slug_lock, NULL);
	pthread_cond_init(&c.done_cv, NULL);
	fl_slabs_init(&c.slabs);
	c.reread = !tree.from_odb;
	fl_scan_summary *sum = &res->summary;
	sum->files_seen = (long long)tree.n;
	c.rel_off = rel_off;
	int threads = o->threads > 0 ? o->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (threads < 1)
		threads = 1;
	for (int li = 0; fl_langs[li] && li < NLANGS_MAX; li++)
		if (fl_langs[li]->hint_new && fl_langs[li]->hint_free)
			c.hints[li] = fl_langs[li]->hint_new();
	run_phase(&c, 0, threads, t0);
	for (int li = 0; fl_langs[li] && li < NLANGS_MAX; li++)
		if (c.hints[li]) {
			fl_langs[li]->hint_free(c.hints[li]);
			c.hints[li] = NULL;
		}
	if (c.failed) {
		*err = c.err;
		goto fail;
	}
	/* per-tree collect pass, serial */
	for (int li = 0; fl_langs[li] && li < NLANGS_MAX; li++) {
		const fl_lang *L = fl_langs[li];
		if (!L->tree_new)
			continue;
		c.lang_trees[li] = L->tree_new();
		if (!L->collect)
			continue;
		for (size_t i = 0; i < c.n; i++) {
			if (c.jobs[i].lang != L || c.jobs[i].skip >= 0)
				continue;
			if (L->tree_merge) {
				/* collected while reading; fold in file order */
				if (c.jobs[i].part) {
					L->tree_merge(c.lang_trees[li], c.jobs[i].part);
					if (L->tree_free)
						L->tree_free(c.jobs[i].part);
					c.jobs[i].part = NULL;
				}
				continue;
			}
			fl_src src = {tree.files[i].path, c.jobs[i].text, c.jobs[i].len, NULL};
			L->collect(c.lang_trees[li], &src);
		}
	}
	/* what was left out and said so: names that cannot be a filePath,
	 * files not read (their stored records stay), folders not walked */
	const char **keep = NULL;
	size_t nkeep = 0;
	for (size_t i = 0; i < c.n; i++) {
		struct job *j = &c.jobs[i];
		if (j->skip >= 0) {
			sum->skipped[j->skip]++;
			if (j->skip == FL_SKIP_NAME)
				note_bad_name(sum, tree.files[i].path);
			if (j->why) {
				if (sum->unreadable_files++ == 0)
					snprintf(sum->unreadable_first, sizeof sum->unreadable_first,
						 "%s (%s)", tree.files[i].path, j->why);
				keep = fl_xrealloc(keep, (nkeep + 1) * sizeof *keep);
				keep[nkeep++] = tree.files[i].path;
			}
			continue;
		}
		sum->files_scanned++;
		sum->bytes_scanned += (long long)j->len;
		if (!j->lang->data_file || !j->lang->data_file(tree.files[i].path))
			count_lang(sum, j->lang->name, 1, 0, 0);
	}
	sum->deep_folders = tree.deep_folders;
	sum->deep_files = tree.deep_files;
	sum->deep_files_more = tree.deep_uncounted;
	sum->unreadable_folders = tree.unreadable_folders;
	snprintf(sum->deep_first, sizeof sum->deep_first, "%s",
		 tree.deep_first ? tree.deep_first : "");
	snprintf(sum->unreadable_folder_first, sizeof sum->unreadable_folder_first, "%s",
		 tree.unreadable_first ? tree.unreadable_first : "");
	char sha[41];
	if (tree.sha[0])
		memcpy(sha, tree.sha, 41);
	else if (plain && o->commit && strlen(o->commit) == 40)
		memcpy(sha, o->commit, 41);
	else
		folder_digest(&c, sha);
	sum->plain = plain;
	snprintf(sum->links, sizeof sum->links, "%s",
		 !host ? "file" : strcmp(host, "github.com") == 0 ? "github" : host);
	char now[32];
	fl_now_iso(now);
	struct builder b = {0};
	c.repo = repo;
	c.host = host;
	c.sha = sha;
	c.now = now;
	int brc = st ? fl_sw_begin(st, repo, keep, nkeep, &c.w, err) : 0;
	free(keep);
	if (brc < 0)
		goto fail;
	if (c.w) {
		/* the records kept keep their slugs: the scan's take others */
		char *const *kept;
		size_t nk = fl_sw_kept(c.w, &kept);
		for (size_t k = 0; k < nk; k++) {
			fl_strmap_put(&b.slugs, kept[k], SIZE_MAX);
			fl_strmap_put(&c.slug_first, kept[k], 0);
		}
		sum->kept = (long long)nk;
	}
	if (!c.w) {
		run_phase(&c, 1, threads, t0);
		for (size_t i = 0; i < c.n; i++)
			if (c.jobs[i].skip < 0)
				admit_job(&c, &b, res, i, err);
	} else {
		/* the records of each file are written as soon as it is scanned,
		 * in file order, while the workers scan the next files (and
		 * build, check and encode their records) */
		struct phase ph;
		double last = fl_now_mono();
		c.storing = true;
		start_workers(&c, 1, threads - 1, &ph);
		bool failed = false;
		for (size_t i = 0; i < c.n && !failed; i++) {
			if (c.jobs[i].skip >= 0)
				continue;
			help_until_done(&c, i, t0, &last);
			if (admit_job(&c, &b, res, i, err) < 0)
				failed = true;
			c.stored = b.admitted;
			if (c.o->progress && fl_now_mono() - last >= 0.1) {
				last = fl_now_mono();
				progress(&c, t0, false);
			}
		}
		if (failed)
			atomic_store(&c.stop, true);
		join_phase(&ph);
		/* what the workers had no job left to release at */
		for (int t = 1; t <= FL_MAX_THREADS; t++)
			release_queued(&c, t);
		if (c.o->progress)
			progress(&c, t0, true);
		if (failed) {
			fl_sw_abort(c.w);
			c.w = NULL;
			fl_strmap_free(&b.ids);
			fl_strmap_free(&b.slugs);
			goto fail;
		}
	}
	fl_strmap_free(&b.ids);
	fl_strmap_free(&b.slugs);
	sum->records = b.admitted;

	/* the repository entry */
	fl_repo *r = &res->repo;
	r->repo = fl_xstrdup(repo);
	long long best = -1;
	for (size_t i = 0; i < sum->nlangs; i++)
		if (sum->langs[i].files > best) {
			best = sum->langs[i].files;
			free(r->language);
			r->language = fl_xstrdup(sum->langs[i].lang);
		}
	r->stars = 0;
	r->source_files = sum->files_scanned;
	r->default_branch = fl_xstrdup(tree.branch ? tree.branch : "main");
	r->analyzed_sha = fl_xstrdup(sha);
	r->analyzed_at = fl_xstrdup(now);
	r->error_count = b.admitted + sum->kept;
	snprintf(sum->repo, sizeof sum->repo, "%s", repo);
	memcpy(sum->sha, sha, 41);
	memcpy(sum->analyzed_at, now, 32);
	if (c.w) {
		fl_scan_writer *w = c.w;
		c.w = NULL;
		/* the log of a successful scan is part of its transaction: one
		 * commit (and its syncs) instead of two */
		if (o->log_started_at) {
			fl_scan_log log = {
				.repo = repo, .target = o->path, .rev = o->rev,
				.sha = sha, .started_at = o->log_started_at,
				.seconds = fl_now_mono() - t0,
				.files = sum->files_scanned, .sites = sum->sites,
				.records = sum->records,
				.duplicates = sum->duplicates, .outcome = "ok",
			};
			if (fl_store_log_scan(st, &log, err) < 0) {
				fl_sw_abort(w);
				goto fail;
			}
		}
		/* the jobs' memory goes back on another core while the commit
		 * waits for the disk (3 ms on git) */
		pthread_t freer;
		bool freeing = pthread_create(&freer, NULL, free_jobs_main, &c) == 0;
		int frc = fl_sw_finish(w, res, err); /* aborts on failure */
		if (freeing) {
			pthread_join(freer, NULL);
			jobs_freed = true;
		}
		if (frc < 0)
			goto fail;
	}

	if (!jobs_freed)
		free_jobs(&c);
	free_read_buf();
	free(repo);
	fl_tree_close(&tree);
	sum->seconds = fl_now_mono() - t0;
	return 0;
fail:
	if (!jobs_freed)
		free_jobs(&c);
	free_read_buf();
	free(repo);
	fl_tree_close(&tree);
	fl_scan_result_free(res);
	memset(res, 0, sizeof *res);
	return -1;
}

int fl_scan_tree(const fl_scan_opts *o, fl_scan_result *res, fl_err *err)
{
	return scan_tree(o, NULL, res, err);
}

int fl_scan_into_store(const fl_scan_opts *o, fl_store *st, fl_scan_result *res, fl_err *err)
{
	return scan_tree(o, st, res, err);
}

void fl_scan_result_free(fl_scan_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free_result_entry(r, i);
	free(r->entries);
	free(r->facts);
	for (size_t i = 0; i < r->ndups; i++) {
		free(r->dups[i].path);
		free(r->dups[i].function);
		free(r->dups[i].guard);
	}
	free(r->dups);
	fl_repo_free(&r->repo);
	memset(r, 0, sizeof *r);
}
