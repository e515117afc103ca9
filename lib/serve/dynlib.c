/*
 * dynlib.c — loads libcurl and libmicrohttpd on first use (see dynlib.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "dynlib.h"
#include "../dynload.h"

/* api.field from symbol `name` of lib (fl_dl_sym), ok false when missing */
#define LOAD(api, lib, field, name)                                             \
	ok = ok && fl_dl_sym(lib, soname, name, &(api).field, sizeof (api).field, \
			     why, sizeof why)

static fl_curl_api curl_api;
static bool curl_ok;
static char curl_why[256];
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void curl_load(void)
{
	static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", NULL};
	const char *soname = names[0];
	char why[256] = "";
	void *lib = fl_dl_open(names, &soname, why, sizeof why);
	bool ok = lib != NULL;
	if (lib) {
		LOAD(curl_api, lib, global_init, "curl_global_init");
		LOAD(curl_api, lib, easy_init, "curl_easy_init");
		LOAD(curl_api, lib, easy_setopt, "curl_easy_setopt");
		LOAD(curl_api, lib, easy_perform, "curl_easy_perform");
		LOAD(curl_api, lib, easy_getinfo, "curl_easy_getinfo");
		LOAD(curl_api, lib, easy_strerror, "curl_easy_strerror");
		LOAD(curl_api, lib, easy_cleanup, "curl_easy_cleanup");
		LOAD(curl_api, lib, slist_append, "curl_slist_append");
		LOAD(curl_api, lib, slist_free_all, "curl_slist_free_all");
	}
	if (ok)
		ok = curl_api.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
	curl_ok = ok;
	snprintf(curl_why, sizeof curl_why, "%s", why);
}

const fl_curl_api *fl_curl(fl_err *err)
{
	pthread_once(&curl_once, curl_load);
	if (!curl_ok) {
		fl_seterr(err, "the HTTP client library libcurl cannot be loaded (%s): install libcurl4",
			  curl_why[0] ? curl_why : "its initialisation failed");
		return NULL;
	}
	return &curl_api;
}

static fl_mhd_api mhd_api;
static bool mhd_ok;
static char mhd_why[256];
static pthread_once_t mhd_once = PTHREAD_ONCE_INIT;

static void mhd_load(void)
{
	static const char *const names[] = {"libmicrohttpd.so.12", "libmicrohttpd.so", NULL};
	const char *soname = names[0];
	char why[256] = "";
	void *lib = fl_dl_open(names, &soname, why, sizeof why);
	bool ok = lib != NULL;
	if (lib) {
		LOAD(mhd_api, lib, start_daemon, "MHD_start_daemon");
		LOAD(mhd_api, lib, stop_daemon, "MHD_stop_daemon");
		LOAD(mhd_api, lib, quiesce_daemon, "MHD_quiesce_daemon");
		LOAD(mhd_api, lib, get_daemon_info, "MHD_get_daemon_info");
		LOAD(mhd_api, lib, get_connection_info, "MHD_get_connection_info");
		LOAD(mhd_api, lib, lookup_connection_value, "MHD_lookup_connection_value");
		LOAD(mhd_api, lib, get_connection_values, "MHD_get_connection_values");
		LOAD(mhd_api, lib, create_response_from_buffer, "MHD_create_response_from_buffer");
		LOAD(mhd_api, lib, create_response_from_fd, "MHD_create_response_from_fd");
		LOAD(mhd_api, lib, add_response_header, "MHD_add_response_header");
		LOAD(mhd_api, lib, queue_response, "MHD_queue_response");
		LOAD(mhd_api, lib, destroy_response, "MHD_destroy_response");
	}
	mhd_ok = ok;
	snprintf(mhd_why, sizeof mhd_why, "%s", why);
}

const fl_mhd_api *fl_mhd(fl_err *err)
{
	pthread_once(&mhd_once, mhd_load);
	if (!mhd_ok) {
		fl_seterr(err, "the HTTP server library libmicrohttpd cannot be loaded (%s): install libmicrohttpd12",
			  mhd_why[0] ? mhd_why : "unknown error");
		return NULL;
	}
	return &mhd_api;
}
