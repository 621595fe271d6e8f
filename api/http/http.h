/* http.h: the HTTP server (libmicrohttpd): connections, bodies, limits, long-poll waits. */
#ifndef API_HTTP_H
#define API_HTTP_H

#include "cfg.h"
#include "nodiscard.h"

struct api_request;
struct api_response;

/* What the server answers with, given by main.c so that the HTTP layer knows nothing of the
 * routes above it: the handler of every complete request (the route table's dispatch,
 * api_handle in routes/router.h) and the route template of a path (the metrics' label). */
struct http_app {
    void (*handle)(const struct api_request *req, struct api_response *resp);
    const char *(*route_template)(const char *path);
};

/*
 * Starts serving on cfg->port with cfg->threads worker threads; every complete request
 * goes to app->handle. Returns 0, or -1 after logging why.
 */
int http_start(const struct cfg *cfg, const struct http_app *app) NODISCARD;

/* The TCP port served on since http_start() (the kernel's pick when cfg->port was 0), or
 * 0 when not serving. */
int http_port(void);

/*
 * Begins the drain (SIGTERM): the listening socket takes no new handshake (a SYN is
 * dropped), every answer from now closes its connection, /readyz answers 503, long polls
 * answer now with what they have and event streams send what they hold and end. Requests
 * in progress go on. Idempotent; a no-op when not serving.
 */
void http_drain(void);

/*
 * Drains (http_drain) if not yet, then, DRAIN_HANDSHAKE_MS (200) after the drain began
 * (handshakes under way complete meanwhile), serves the connections waiting to be
 * accepted and shuts the listening socket: from then on a connect is refused, so clients
 * go to another server. Idempotent; a no-op when not serving.
 */
void http_stop_listening(void);

/* 1 once http_drain() was called. */
int http_draining(void);

/* Requests begun (their request line came) and not yet ended (answered whole or dropped),
 * event streams included. */
int http_in_progress(void);

/* Stops listening (http_stop_listening) if not yet, gives open streams a moment to end,
 * stops serving and frees the server: connections still open are closed. */
void http_stop(void);

#endif
