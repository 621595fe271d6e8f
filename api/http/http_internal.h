/* http_internal.h: what the files of api/http/ that speak libmicrohttpd share: a request's
 * and a connection's state, the server's settings, and the functions each file offers the
 * others. http.c takes connections and requests and runs the daemon; http_wait.c keeps
 * requests suspended while they wait, and streamed answers; http_answer.c sends answers.
 * Not for use outside api/http/. */
#ifndef API_HTTP_INTERNAL_H
#define API_HTTP_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>

#include <microhttpd.h>

#include "buf.h"
#include "cors.h"
#include "http.h"
#include "req.h"

#define HTTP_RID_MAX 64 /* characters of a request id (X-Request-Id) at most */

struct http_conn;

/* Per-connection request state (MHD's con_cls). */
struct http_req {
    struct buf body;                 /* accumulated body, at most API_MAX_BODY bytes */
    int too_big;                     /* 1 once the body went over API_MAX_BODY */
    long long started_ms;            /* when the request arrived */
    struct MHD_Connection *conn;     /* the connection (while suspended) */
    struct http_req *next_suspended; /* list of suspended requests (ticked), or a chain
                                        being resumed (http_wait.c) */
    struct api_async async;          /* what a handler keeps while the request waits */
    atomic_int woken;                /* 1: its wait is over: run the handler again */
    int waiting;                     /* 1 while on the waiting list (suspended, not ticked) */
    struct http_req *prev_waiting;   /* the waiting list (guarded by susp_lock) */
    struct http_req *next_waiting;
    int fd;                     /* its socket while on the waiting list, else -1 */
    int admitted;               /* 1 once its headers passed refuse_early() */
    long long started_us;       /* when the request arrived, monotonic microseconds */
    int arrived;                /* 1 once it arrived whole (in time) and was handled */
    char rid[HTTP_RID_MAX + 1]; /* its id (X-Request-Id), "" until its headers came */
    int timed_out;              /* 1 once it took longer than REQUEST_TIMEOUT to arrive */
    struct http_conn *hc;       /* its connection's state, or NULL (out of memory) */
    char *target;               /* its request target as sent (malloc'd), NULL if none */
    int target_too_long;        /* 1: the target was longer than URI_MAX (414) */
    char *path;                 /* the path, decoded for routing (in target's allocation) */
    struct api_query query[API_MAX_QUERY]; /* its query parameters (pointing into target) */
    size_t nquery;                         /* entries in query */
    int query_overflow;                    /* 1: it had more than API_MAX_QUERY */
    int close_after;                       /* 1: its answer closes the connection */
};

/* Per-connection state (MHD's socket context), from the accept to the close. */
struct http_conn {
    struct connguard *guard;     /* its deadlines while requests arrive, or NULL */
    struct http_req *req;        /* the request it is on, or NULL between requests */
    struct MHD_Connection *conn; /* MHD's connection */
    int fd;                      /* its socket, or -1 */
};

/* The server's settings and state, shared by its files (set by http_start). */
struct http_server {
    struct http_app app;     /* the handler and route templates */
    struct cors_config cors; /* CORS_ORIGINS: who may read answers in a browser */
    int slow_request_ms;     /* SLOW_REQUEST_MS: slower answers are warnings, 0 never */
    atomic_int stopping;     /* 1 once the drain began: waits end, nothing suspends */
    atomic_int draining;     /* 1 once http_drain() began */
};

extern struct http_server http_server;

/* The request the calling thread works on, or NULL (set by http.c around a handler). */
extern _Thread_local struct http_req *http_current;

/* ---- http_wait.c: requests suspended while they wait, and streamed answers ---------- */

/* api_async.wake: the request `arg` (a struct http_req) runs again now (or, not yet
 * suspended, at once). Thread-safe. */
void http_wake(void *arg);

/* What http_suspend() did. */
enum http_suspension {
    HTTP_SUSPENDED, /* the connection is suspended: return MHD_YES */
    HTTP_RUN_AGAIN, /* woken before it could suspend: run the handler again now */
    HTTP_STOPPING   /* the server stops: run the handler again with req.stopping set */
};

/* Suspends request `hr` on `conn` after its handler asked to (API_SUSPEND_TICK when
 * `ticked`: it runs again at the next tick; else API_SUSPEND_WAKE: when woken). */
enum http_suspension http_suspend(struct http_req *hr, struct MHD_Connection *conn, int ticked);

/* The MHD answer that streams `s` (taken in every case) on `conn` for the request `rid`,
 * or NULL when out of memory. */
struct MHD_Response *http_stream_response(struct MHD_Connection *conn, struct api_stream *s,
                                          const char *rid);

/* Starts the ticker that runs suspended requests again. 0, or -1. */
int http_wait_start(void);

/* The drain: sets http_server.stopping, stops the ticker, and runs every suspended request
 * again (long polls answer with what they have) and every stream (it sends what it holds
 * and ends). */
void http_wait_stop(void);

/* Streamed answers not yet freed. */
int http_streams_open(void);

/* ---- http_answer.c: answers -------------------------------------------------------- */

/* Sends `resp` (taking its body) and logs the request. */
enum MHD_Result http_send(struct MHD_Connection *conn, const char *method, const char *url,
                          struct api_response *resp, long long started_ms);

/* Answers with a problem before or without running a handler. */
enum MHD_Result http_send_problem(struct MHD_Connection *conn, const char *method, const char *url,
                                  int status, const char *code, const char *detail,
                                  long long started_ms);

/* A whole HTTP/1.1 answer of a problem that closes the connection, for writing on a socket
 * directly: see http_answer.c. malloc'd (*len bytes), or NULL. */
char *http_raw_answer(int status, const char *reason, const char *code, const char *detail,
                      size_t *len);

#endif
