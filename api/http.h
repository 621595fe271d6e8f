/* http.h: the HTTP server (libmicrohttpd): connections, bodies, limits, long-poll waits. */
#ifndef API_HTTP_H
#define API_HTTP_H

#include "cfg.h"
#include "nodiscard.h"

/*
 * Starts serving on cfg->port with cfg->threads worker threads; every complete request
 * goes to api_handle() (router.h). Returns 0, or -1 after logging why.
 */
int http_start(const struct cfg *cfg) NODISCARD;

/* Ends the waits of long polls, stops serving and frees the server. */
void http_stop(void);

#endif
