/*
 * conns.h — connection slots of `faultline serve` (conns.c): the accept
 * policy and connection notifier given to libmicrohttpd, the state of each
 * connection as the request handler sees it, and the reaper of slow ones.
 */
#ifndef FL_SERVE_CONNS_H
#define FL_SERVE_CONNS_H

#include <microhttpd.h>
#include <stdbool.h>

typedef struct srv_conns srv_conns;

enum srv_conn_state { SRV_CONN_BODY, SRV_CONN_BUSY, SRV_CONN_IDLE };

/* At most max connections; per_ip slow ones of one address; header_s to
 * send the request headers, idle_s between requests. */
srv_conns *srv_conns_new(unsigned max, unsigned per_ip, double header_s, double idle_s);
void srv_conns_free(srv_conns *cs);
/* MHD accept policy (cls = the srv_conns) */
enum MHD_Result srv_conns_accept(void *cls, const struct sockaddr *addr, socklen_t len);
/* MHD_OPTION_NOTIFY_CONNECTION (cls = the srv_conns) */
void srv_conns_notify(void *cls, struct MHD_Connection *mc, void **socket_context,
		      enum MHD_ConnectionNotificationCode code);
/* The request of mc now waits for its body, is being answered, or is done. */
void srv_conns_set(srv_conns *cs, struct MHD_Connection *mc, enum srv_conn_state st);
/* Close the connections that took too long to send their headers or have
 * been idle too long; call every fraction of a second. */
void srv_conns_reap(srv_conns *cs);
/* Connections refused, closed to make room, closed by the reaper. */
void srv_conns_stats(srv_conns *cs, unsigned long long *refused,
		     unsigned long long *taken, unsigned long long *reaped);

#endif
