/*
 * dynlib.h — libcurl and libmicrohttpd, loaded with dlopen() when first
 * needed.  Only `faultline serve`, the fetch of a remote data set and
 * enrich's openai provider use them, and linking them into the binary
 * made every `faultline` process map some thirty more shared libraries
 * (Kerberos, LDAP, GnuTLS ...) at start: about 3.5 ms of each command's
 * time, `explain` and `scan` included.  The headers still give the
 * types and constants.
 */
#ifndef FL_SERVE_DYNLIB_H
#define FL_SERVE_DYNLIB_H

#include <curl/curl.h>
#include <microhttpd.h>

#include "faultline.h"

typedef struct fl_curl_api {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
	CURLcode (*easy_perform)(CURL *c);
	CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
	const char *(*easy_strerror)(CURLcode code);
	void (*easy_cleanup)(CURL *c);
	/* request headers (enrich/provider.c) */
	struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
	void (*slist_free_all)(struct curl_slist *l);
} fl_curl_api;

typedef struct fl_mhd_api {
	struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port,
					   MHD_AcceptPolicyCallback apc, void *apc_cls,
					   MHD_AccessHandlerCallback dh, void *dh_cls, ...);
	void (*stop_daemon)(struct MHD_Daemon *d);
	MHD_socket (*quiesce_daemon)(struct MHD_Daemon *d);
	const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *d,
						       enum MHD_DaemonInfoType type, ...);
	const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *c,
							       enum MHD_ConnectionInfoType type, ...);
	const char *(*lookup_connection_value)(struct MHD_Connection *c,
					       enum MHD_ValueKind kind, const char *key);
	int (*get_connection_values)(struct MHD_Connection *c, enum MHD_ValueKind kind,
				     MHD_KeyValueIterator it, void *it_cls);
	struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer,
							     enum MHD_ResponseMemoryMode mode);
	struct MHD_Response *(*create_response_from_fd)(uint64_t size, int fd);
	enum MHD_Result (*add_response_header)(struct MHD_Response *r, const char *header,
					       const char *content);
	enum MHD_Result (*queue_response)(struct MHD_Connection *c, unsigned int status,
					  struct MHD_Response *r);
	void (*destroy_response)(struct MHD_Response *r);
} fl_mhd_api;

/* The library's functions, loaded once (thread-safe); NULL with err set
 * ("libcurl is not installed ...") when it cannot be loaded. */
const fl_curl_api *fl_curl(fl_err *err);
const fl_mhd_api *fl_mhd(fl_err *err);

#endif
