/*
 * conns.c — who gets a connection slot of `faultline serve`.
 *
 * libmicrohttpd's own limits refuse the newcomer once the slots are taken,
 * so a few hundred sockets that never finish their request headers
 * (slowloris) or sit idle between requests lock every client out until
 * they time out.  Here every connection is tracked with what it waits for:
 *
 *   NEW   accepted, request headers not complete yet
 *   BODY  headers read, the request body still coming
 *   BUSY  the request is complete: the server is answering it
 *   IDLE  answered, kept alive, waiting for the next request
 *
 * A connection waiting for its client — NEW for NEW_GRACE, BODY or IDLE for
 * WAIT_GRACE — is slow.  One address keeps at most per_ip slow connections
 * (its oldest are closed, on its next connection and by the reaper).  When
 * all max slots are taken, a newcomer takes the slot of the oldest slow
 * connection of the address with the most slow ones, else (a burst of
 * fresh connections filled the server) the oldest NEW one of the address
 * with the most NEW ones; only when every connection is being answered or
 * idles briefly is the newcomer refused.  The reaper also closes a
 * connection whose headers are not complete after header_s or that has
 * been idle for idle_s.  A connection is closed with shutdown():
 * libmicrohttpd sees the end of the stream and frees the slot at once.
 */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "conns.h"
#include "dynlib.h"
#include "util.h"

/* a connection gives its slot up only after waiting this long for its
 * client: NEW ones (a client sends its headers right after connecting),
 * BODY or IDLE ones */
#define NEW_GRACE 0.5
#define WAIT_GRACE 1.0

enum cstate { C_NEW, C_BODY, C_BUSY, C_IDLE };

struct conn {
	struct conn *prev, *next;
	int fd;
	unsigned char ip[16];
	unsigned char iplen;
	enum cstate state;
	bool closing;     /* shut down by us: no longer holds a slot */
	double since;     /* when it entered state */
};

struct srv_conns {
	pthread_mutex_t mu;
	struct conn *head;
	unsigned max, per_ip;
	double header_s, idle_s;
	unsigned long long refused, taken, reaped;
};

srv_conns *srv_conns_new(unsigned max, unsigned per_ip, double header_s, double idle_s)
{
	srv_conns *cs = fl_xcalloc(1, sizeof *cs);
	pthread_mutex_init(&cs->mu, NULL);
	cs->max = max;
	cs->per_ip = per_ip;
	cs->header_s = header_s;
	cs->idle_s = idle_s;
	return cs;
}

void srv_conns_free(srv_conns *cs)
{
	if (!cs)
		return;
	struct conn *c = cs->head;
	while (c) {
		struct conn *n = c->next;
		free(c);
		c = n;
	}
	pthread_mutex_destroy(&cs->mu);
	free(cs);
}

void srv_conns_stats(srv_conns *cs, unsigned long long *refused,
		     unsigned long long *taken, unsigned long long *reaped)
{
	pthread_mutex_lock(&cs->mu);
	*refused = cs->refused;
	*taken = cs->taken;
	*reaped = cs->reaped;
	pthread_mutex_unlock(&cs->mu);
}

/* the address bytes of sa (4 for IPv4, 16 for IPv6), 0 when unknown */
static unsigned char ip_of(const struct sockaddr *sa, unsigned char ip[16])
{
	if (sa && sa->sa_family == AF_INET) {
		memcpy(ip, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return 4;
	}
	if (sa && sa->sa_family == AF_INET6) {
		memcpy(ip, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		return 16;
	}
	return 0;
}

/* close c's connection (mu held): the fd stays valid until libmicrohttpd
 * reports the connection closed, which takes mu */
static void shut(struct conn *c)
{
	shutdown(c->fd, SHUT_RDWR);
	c->closing = true;
}

/* waiting for its client for longer than a client that means it would */
static bool slow(const struct conn *c, double now)
{
	if (c->state == C_NEW)
		return now - c->since >= NEW_GRACE;
	return c->state != C_BUSY && now - c->since >= WAIT_GRACE;
}

/* Connections per address, in a small open-addressed table built for one
 * admission decision. */
struct ipcount {
	const struct conn *c;  /* a connection of that address; NULL = free */
	unsigned slow, fresh;  /* its slow ones, its NEW ones */
};

static bool same_ip(const struct conn *c, const unsigned char *ip, unsigned char iplen)
{
	return iplen && c->iplen == iplen && memcmp(c->ip, ip, iplen) == 0;
}

static struct ipcount *ip_slot(struct ipcount *t, size_t mask, const unsigned char *ip,
			       unsigned char iplen)
{
	uint64_t h = 1469598103934665603ull;
	for (unsigned i = 0; i < iplen; i++)
		h = (h ^ ip[i]) * 1099511628211ull;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask)
		if (!t[i].c || same_ip(t[i].c, ip, iplen))
			return &t[i];
}

static int by_since(const void *a, const void *b)
{
	const struct conn *x = *(struct conn *const *)a, *y = *(struct conn *const *)b;
	return x->since < y->since ? -1 : x->since > y->since;
}

/* Close the oldest slow connections of address ip beyond per_ip (mu held). */
static void trim_ip(srv_conns *cs, const unsigned char *ip, unsigned char iplen, double now)
{
	size_t n = 0, cap = 0;
	struct conn **v = NULL;
	for (struct conn *c = cs->head; c; c = c->next)
		if (!c->closing && same_ip(c, ip, iplen) && slow(c, now)) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = fl_xrealloc(v, cap * sizeof *v);
			}
			v[n++] = c;
		}
	if (n > cs->per_ip) {
		qsort(v, n, sizeof *v, by_since);
		for (size_t i = 0; i < n - cs->per_ip; i++) {
			shut(v[i]);
			cs->taken++;
		}
	}
	free(v);
}

/* Whose slot a newcomer takes when all are taken (mu held): the oldest
 * slow connection of the address with the most slow ones; else, when a
 * burst of fresh connections filled the server, the oldest NEW one of the
 * address with the most NEW ones (the newcomer's own address included: a
 * client that opens hundreds of connections at once loses its own oldest
 * one, not somebody else's).  NULL when every connection is being
 * answered or idles briefly between two requests. */
static struct conn *victim(srv_conns *cs, unsigned total, double now)
{
	size_t cap = 16;
	while (cap < 2 * (size_t)total)
		cap *= 2;
	struct ipcount *t = fl_xcalloc(cap, sizeof *t);
	for (struct conn *c = cs->head; c; c = c->next) {
		if (c->closing || !c->iplen)
			continue;
		struct ipcount *e = ip_slot(t, cap - 1, c->ip, c->iplen);
		e->c = c;
		e->slow += slow(c, now);
		e->fresh += c->state == C_NEW;
	}
	struct conn *v = NULL;
	unsigned v_n = 0;
	for (int pass = 0; pass < 2 && !v; pass++)
		for (struct conn *c = cs->head; c; c = c->next) {
			if (c->closing || !c->iplen || !(pass ? c->state == C_NEW : slow(c, now)))
				continue;
			const struct ipcount *e = ip_slot(t, cap - 1, c->ip, c->iplen);
			unsigned n = pass ? e->fresh : e->slow;
			if (!v || n > v_n || (n == v_n && c->since < v->since)) {
				v = c;
				v_n = n;
			}
		}
	free(t);
	return v;
}

/* The admission decision for a connection from addr: true to take it. */
static bool admit(srv_conns *cs, const struct sockaddr *addr)
{
	unsigned char ip[16];
	unsigned char iplen = ip_of(addr, ip);
	double now = fl_now_mono();
	pthread_mutex_lock(&cs->mu);
	if (iplen)
		trim_ip(cs, ip, iplen, now);
	unsigned total = 0;
	for (struct conn *c = cs->head; c; c = c->next)
		total += !c->closing;
	bool ok = true;
	if (total >= cs->max) {
		struct conn *v = victim(cs, total, now);
		if (v) {
			shut(v);
			cs->taken++;
		} else {
			ok = false;
			cs->refused++;
		}
	}
	pthread_mutex_unlock(&cs->mu);
	return ok;
}

enum MHD_Result srv_conns_accept(void *cls, const struct sockaddr *addr, socklen_t len)
{
	(void)len;
	return admit(cls, addr) ? MHD_YES : MHD_NO;
}

void srv_conns_notify(void *cls, struct MHD_Connection *mc, void **socket_context,
		      enum MHD_ConnectionNotificationCode code)
{
	srv_conns *cs = cls;
	const fl_mhd_api *M = fl_mhd(NULL);
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		struct conn *c = fl_xcalloc(1, sizeof *c);
		const union MHD_ConnectionInfo *fi =
			M->get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *ai =
			M->get_connection_info(mc, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		c->fd = fi ? fi->connect_fd : -1;
		c->iplen = ip_of(ai ? ai->client_addr : NULL, c->ip);
		c->state = C_NEW;
		c->since = fl_now_mono();
		pthread_mutex_lock(&cs->mu);
		c->next = cs->head;
		if (cs->head)
			cs->head->prev = c;
		cs->head = c;
		pthread_mutex_unlock(&cs->mu);
		*socket_context = c;
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		struct conn *c = *socket_context;
		if (!c)
			return;
		pthread_mutex_lock(&cs->mu);
		if (c->prev)
			c->prev->next = c->next;
		else
			cs->head = c->next;
		if (c->next)
			c->next->prev = c->prev;
		pthread_mutex_unlock(&cs->mu);
		free(c);
		*socket_context = NULL;
	}
}

void srv_conns_set(srv_conns *cs, struct MHD_Connection *mc, enum srv_conn_state st)
{
	const union MHD_ConnectionInfo *i =
		fl_mhd(NULL)->get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct conn *c = i ? i->socket_context : NULL;
	if (!c)
		return;
	pthread_mutex_lock(&cs->mu);
	c->state = st == SRV_CONN_BODY ? C_BODY : st == SRV_CONN_BUSY ? C_BUSY : C_IDLE;
	c->since = fl_now_mono();
	pthread_mutex_unlock(&cs->mu);
}

void srv_conns_reap(srv_conns *cs)
{
	double now = fl_now_mono();
	pthread_mutex_lock(&cs->mu);
	for (struct conn *c = cs->head; c; c = c->next) {
		if (c->closing)
			continue;
		if ((c->state == C_NEW && now - c->since > cs->header_s) ||
		    (c->state == C_IDLE && now - c->since > cs->idle_s)) {
			shut(c);
			cs->reaped++;
		}
	}
	/* an address over its share of slow connections (trim_ip closes
	 * them, so each address is trimmed once) */
	for (struct conn *c = cs->head; c; c = c->next)
		if (!c->closing && c->iplen && slow(c, now))
			trim_ip(cs, c->ip, c->iplen, now);
	pthread_mutex_unlock(&cs->mu);
}
