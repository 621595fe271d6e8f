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

/* The TCP port served on since http_start() (the kernel's pick when cfg->port was 0), or
 * 0 when not serving. */
int http_port(void);

/*
 * Begins the drain (SIGTERM): the listening socket is shut at once (a connect is refused,
 * so clients go to another server), every answer from now closes its connection, /readyz
 * answers 503, long polls answer now with what they have and event streams send what they
 * hold and end. Requests in progress go on. Idempotent; a no-op when not serving.
 */
void http_drain(void);

/* 1 once http_drain() was called. */
int http_draining(void);

/* Requests begun (their request line came) and not yet ended (answered whole or dropped),
 * event streams included. */
int http_in_progress(void);

/* Drains (http_drain) if not yet, gives open streams a moment to end, stops serving and
 * frees the server: connections still open are closed. */
void http_stop(void);

#endif
