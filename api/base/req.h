/* req.h: a request and its answer as plain data, between the HTTP layer and the handlers. */
#ifndef API_REQ_H
#define API_REQ_H

#include <stdatomic.h>
#include <stddef.h>

struct sockaddr;

#define API_MAX_BODY  (64 * 1024) /* request bodies above this are answered 413 */
#define API_MAX_QUERY 16          /* query parameters kept per request */

struct api_query {
    const char *name;  /* as decoded by the HTTP layer */
    const char *value; /* "" when the parameter has no value */
};

/*
 * What a handler keeps while its request waits to run again: it sets `pending` (and
 * `cancel`, which frees it should the request end first) and answers with resp->suspend
 * = API_SUSPEND_WAKE; whoever finishes the work calls wake(wake_arg), and the HTTP layer
 * runs the handler again (which takes `pending` back). Lives as long as the request.
 */
struct api_async {
    void *pending;                       /* the handler's outstanding work, or NULL */
    void (*cancel)(struct api_async *a); /* ends `pending` when the request ends first */
    void (*wake)(void *arg);             /* set by the HTTP layer: run the request again */
    void *wake_arg;                      /* its argument */
    int by_design;                       /* 1: it waited on purpose (a long poll): the
                                            answer's delay is no slow request */
    int watch_client; /* set by the handler: 1 to have the HTTP layer watch the connection
                         while the request waits to be woken (API_SUSPEND_WAKE) */
    atomic_int gone;  /* with watch_client, set by the HTTP layer: 1 once the client closed
                         the connection while the request waited: the answer reaches nobody */
};

/* A request. The HTTP layer owns every pointer; they live until the answer is sent. */
struct api_request {
    const char *method;                    /* "GET", "POST", "HEAD" ... as sent */
    const char *path;                      /* without the query string */
    const char *body;                      /* the body, NUL-terminated; "" when there is none */
    size_t body_len;                       /* bytes in body */
    const char *content_type;              /* Content-Type or NULL */
    const char *authorization;             /* Authorization or NULL */
    const char *if_match;                  /* If-Match or NULL */
    const char *if_none_match;             /* If-None-Match or NULL */
    const char *idempotency_key;           /* Idempotency-Key or NULL */
    const char *accept;                    /* Accept or NULL */
    const char *last_event_id;             /* Last-Event-ID (server-sent events) or NULL */
    size_t nquery;                         /* entries in query */
    struct api_query query[API_MAX_QUERY]; /* query parameters */
    int query_overflow;                    /* 1 when there were more than API_MAX_QUERY */
    long long started_ms;    /* monotonic ms when the request arrived (stays on reruns) */
    int stopping;            /* 1 when the server is shutting down: do not wait */
    int draining;            /* 1 once SIGTERM came: /readyz answers 503 (main.c) */
    struct api_async *async; /* the request's waiting state, or NULL (no waits offered) */

    const struct sockaddr *client_addr; /* the TCP peer's address (per-address limits), or NULL */
};

#define API_SUSPEND_TICK 1 /* api_response.suspend: run again at the next tick (200 ms) */
#define API_SUSPEND_WAKE 2 /* api_response.suspend: run again when api_async.wake is called */

/*
 * A streamed answer (server-sent events). The HTTP layer sends the answer's status and
 * headers, then calls read() whenever it can send more, until read() says the stream is
 * over, and calls free() once the answer is done (or was never sent). Set as
 * api_response.stream: the HTTP layer owns it from then on.
 */
struct api_stream {
    /*
     * Writes up to `max` bytes into `buf`. Returns how many (> 0); 0 when there is nothing
     * to send now (the HTTP layer waits, holding no thread, until wake() is called); or -1
     * at the end of the stream. `stopping` is 1 once the server shuts down: end now.
     */
    long (*read)(struct api_stream *s, char *buf, size_t max, int stopping);
    void (*free)(struct api_stream *s); /* frees the stream */
    void (*wake)(void *arg);            /* set by the HTTP layer: call read() again soon */
    void *wake_arg;                     /* its argument (wake is thread-safe until free) */
};

/* The Content-Security-Policy of every answer but the web client's page (routes_web.c): a
 * document of the API (an SVG picture, a JSON answer opened in a tab) loads nothing, runs
 * nothing and is framed by no page. */
#define API_CSP_NONE "default-src 'none'; frame-ancestors 'none'"

/* An answer. Handlers fill it; the HTTP layer sends it and frees body. */
struct api_response {
    int status;                /* HTTP status */
    const char *content_type;  /* static string */
    char *body;                /* heap (malloc), owned; NULL for an empty body */
    size_t len;                /* bytes in body */
    char etag[24];             /* ETag value with quotes, or "" */
    char location[96];         /* Location, or "" */
    char allow[32];            /* Allow (for 405 and preflights), or "" */
    int preflight;             /* 1: an answer to OPTIONS: allow is the path's methods, sent
                                  as Access-Control-Allow-Methods too (cors.h) */
    int retry_after;           /* Retry-After seconds, or 0 */
    const char *cache_control; /* Cache-Control (static string), or NULL: "no-store" */
    const char *csp;           /* Content-Security-Policy (static or lives as long as the
                                  server), or NULL: API_CSP_NONE */
    int suspend;               /* nothing to answer yet: API_SUSPEND_TICK or _WAKE, else 0 */
    struct api_stream *stream; /* a streamed body (body stays NULL), owned, or NULL */
    const char *route;         /* the route's pattern (static) as the router found it, for
                                  the metrics, or NULL: found again from the path */
};

/* The value of query parameter `name`, or NULL. */
const char *api_query_get(const struct api_request *req, const char *name);

/* Takes `body` (malloc'd, NUL-terminated) as the answer's JSON body with `status`. */
void api_reply_take(struct api_response *resp, int status, const char *content_type, char *body);

/*
 * Answers `status` with a copy of `len` bytes of `data`. On allocation failure answers
 * 500 with no body.
 */
void api_reply_copy(struct api_response *resp, int status, const char *content_type,
                    const char *data, size_t len);

/* Monotonic milliseconds. */
long long api_now_ms(void);

/* Takes back the work `a` holds pending (NULL when none): afterwards nothing is pending and
 * there is no cancel to call. For a cancel, a rerun that found its work done, and a submit
 * that failed. */
void *api_async_take(struct api_async *a);

#endif
