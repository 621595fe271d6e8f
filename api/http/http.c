/* http.c: the HTTP server's connections and requests with libmicrohttpd: a connection's
 * and a request's state from the accept or the request line to the end, the checks before
 * a handler runs (target, framing, rate, header size, time to arrive), the body, the call
 * of the handler, and the daemon's start, drain and stop. Suspended requests and streams
 * are http_wait.c's; answers are http_answer.c's (http_internal.h). */
#include "http_internal.h"

#include <fcntl.h>
#include <linux/filter.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "buf.h"
#include "connguard.h"
#include "cors.h"
#include "log.h"
#include "metrics.h"
#include "mono.h"
#include "problem.h"
#include "ratelimit.h"
#include "req.h"
#include "uri.h"

#define STREAMS_END_MS 2000 /* at stop: how long open streams get to end cleanly */
/* At the drain: how long handshakes already under way get to complete once new ones are
 * refused (a client's round trip), before the waiting connections are taken and the
 * listening socket is shut. */
#define DRAIN_HANDSHAKE_MS 200

#define MAX_HEADERS      100         /* header fields of one request at most (else 431) */
#define MAX_HEADER_BYTES (16 * 1024) /* bytes of their names and values at most (else 431) */

struct http_server http_server = {.slow_request_ms = 1000};
_Thread_local struct http_req *http_current;

static int request_timeout_s = 30; /* REQUEST_TIMEOUT: seconds for a request to arrive */
static int conn_timeout_s = 90;    /* CONN_TIMEOUT: idle seconds of a connection */

static struct MHD_Daemon *daemon_handle;
static int bound_port;         /* the port served on (http_port()), 0 when not serving */
static atomic_int in_progress; /* requests begun and not yet ended */
static MHD_socket quiesced_fd = MHD_INVALID_SOCKET; /* the listening socket, once quiesced */
/* The connection whose request line this thread saw last while its headers still arrive
 * (each connection stays on one MHD thread), or NULL: see framing_refuse(). */
static _Thread_local struct http_conn *headers_arriving;
static char *framing_answer;      /* the 400 invalid_framing sent by framing_refuse() */
static size_t framing_answer_len; /* its bytes */
static atomic_ullong rid_next;    /* numbers the request ids this server makes */
static unsigned rid_prefix;       /* random per process: ids differ across servers */

/* Sets hr->rid from a sane X-Request-Id (1 to 64 of A-Z a-z 0-9 - _ . :), else a new id. */
static void request_id(struct MHD_Connection *conn, struct http_req *hr)
{
    const char *in = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id");
    size_t n =
        in ? strspn(in, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:") : 0;
    if (in && n > 0 && n <= HTTP_RID_MAX && in[n] == '\0')
        memcpy(hr->rid, in, n + 1);
    else
        snprintf(hr->rid, sizeof hr->rid, "%08x%012llx", rid_prefix,
                 (unsigned long long)atomic_fetch_add(&rid_next, 1) & 0xffffffffffffULL);
}

/* A new request's state; its clock starts now. NULL when out of memory. */
static struct http_req *req_new(void)
{
    struct http_req *hr = calloc(1, sizeof *hr);
    if (hr) {
        hr->fd = -1; /* its socket is looked up when it waits */
        buf_init(&hr->body, API_MAX_BODY);
        hr->started_ms = api_now_ms();
        hr->started_us = mono_us();
        atomic_fetch_add(&in_progress, 1);
    }
    return hr;
}

/* Ends a request's state: its pending work cancelled, its memory freed. */
static void req_end(struct http_req *hr)
{
    if (hr->async.pending && hr->async.cancel) hr->async.cancel(&hr->async);
    buf_free(&hr->body);
    free(hr->target);
    free(hr);
    atomic_fetch_sub(&in_progress, 1);
}

/* The state of the connection `conn`, or NULL. */
static struct http_conn *conn_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

/*
 * MHD's URI log callback: a request line has arrived. Starts the request's clock before
 * its headers (REQUEST_TIMEOUT bounds a client that sends them slowly too), keeps the
 * target as sent (the path is routed in that form: uri.h), and keeps libmicrohttpd from
 * parsing the query itself: 0.9.75 stores every parameter in the connection's fixed
 * memory pool and, when a long query overflows it, neither answers nor closes. The
 * target is still the one libmicrohttpd reads the request line into (it says so: the
 * callback comes "before we modify URI *or* args", and it cuts the query with strchr),
 * so a NUL after the '?' leaves it an empty query; the query is split from the copy.
 */
static void *on_request_line(void *cls, const char *uri, struct MHD_Connection *conn)
{
    (void)cls;
    struct http_req *hr = req_new();
    size_t len = strlen(uri);
    if (hr && len > URI_MAX) {
        hr->target_too_long = 1;
    } else if (hr && (hr->target = malloc(2 * (len + 1)))) {
        memcpy(hr->target, uri, len + 1);
        hr->path = hr->target + len + 1;
    }
    char *q = strchr(uri, '?');
    if (q) q[1] = '\0';
    if (!hr) return NULL;
    struct http_conn *hc = conn_of(conn);
    if (hc) {
        if (hc->req) req_end(hc->req); /* a request MHD dropped without completing it */
        hc->req = hr;
        hr->hc = hc;
        connguard_request_line(hc->guard);
        headers_arriving = hc;
    }
    return hr;
}

/* MHD's connection callback: its state from the accept to the close. */
static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    (void)cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        struct http_conn *hc = calloc(1, sizeof *hc);
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (hc) {
            hc->conn = conn;
            hc->fd = ci ? ci->connect_fd : -1;
        }
        const union MHD_ConnectionInfo *peer =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (hc && ci) hc->guard = connguard_open(ci->connect_fd, peer ? peer->client_addr : NULL);
        *socket_context = hc;
        return;
    }
    struct http_conn *hc = *socket_context;
    if (!hc) return;
    if (headers_arriving == hc) headers_arriving = NULL;
    if (hc->req) req_end(hc->req); /* MHD gave up on it before completing it */
    connguard_close(hc->guard);
    free(hc);
    *socket_context = NULL;
}

/*
 * Checks the framing of a request whose headers are complete (RFC 9112, section 6): a
 * Transfer-Encoding other than chunked, one together with Content-Length (a request
 * smuggled past a proxy that reads the other), or Content-Length fields that disagree.
 * Returns NULL when it is sound, else the problem's detail.
 */
struct framing {
    int te;            /* Transfer-Encoding fields */
    int te_other;      /* one of them is not "chunked" */
    int cl;            /* Content-Length fields */
    const char *first; /* the first one's value */
    int cl_differ;     /* one differs from the first */
};

static enum MHD_Result count_framing(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value)
{
    (void)kind;
    struct framing *f = cls;
    if (!value) value = "";
    if (strcasecmp(key, "Transfer-Encoding") == 0) {
        f->te++;
        if (strcasecmp(value, "chunked") != 0) f->te_other = 1;
    } else if (strcasecmp(key, "Content-Length") == 0) {
        if (f->cl++ == 0)
            f->first = value;
        else if (strcmp(value, f->first) != 0)
            f->cl_differ = 1;
    }
    return MHD_YES;
}

static const char *bad_framing(struct MHD_Connection *conn)
{
    struct framing f = {0, 0, 0, NULL, 0};
    MHD_get_connection_values(conn, MHD_HEADER_KIND, count_framing, &f);
    if (f.te && f.cl) return "The request has both Transfer-Encoding and Content-Length.";
    if (f.te_other || f.te > 1) return "The only Transfer-Encoding accepted is chunked.";
    if (f.cl_differ) return "The request has Content-Length fields that disagree.";
    return NULL;
}

/*
 * Decodes the request target kept by on_request_line() into hr->path and hr->query.
 * Returns 0, or answers into *ret and returns 1.
 */
static int take_target(struct MHD_Connection *conn, const char *method, const char *url,
                       struct http_req *hr, enum MHD_Result *ret)
{
    if (hr->target_too_long) {
        hr->close_after = 1;
        *ret = http_send_problem(conn, method, url, 414, "uri_too_long",
                                 "The request target is longer than 8 KiB.", hr->started_ms);
        return 1;
    }
    if (!hr->target) {
        *ret = http_send_problem(conn, method, url, 500, "internal_error", "Out of memory.",
                                 hr->started_ms);
        return 1;
    }
    char *q = strchr(hr->target, '?');
    size_t plen = q ? (size_t)(q - hr->target) : strlen(hr->target);
    if (uri_path_decode(hr->target, plen, hr->path, plen + 1) != URI_OK) {
        snprintf(hr->path, plen + 1, "%.*s", (int)plen, hr->target);
        *ret =
            http_send_problem(conn, method, hr->path, 400, "invalid_path",
                              "The path has an escaped NUL (%00) or slash (%2F).", hr->started_ms);
        return 1;
    }
    enum uri_status qs =
        q ? uri_query_split(q + 1, hr->query, API_MAX_QUERY, &hr->nquery, &hr->query_overflow)
          : URI_OK;
    if (qs == URI_TOO_MANY) {
        hr->close_after = 1;
        *ret = http_send_problem(conn, method, hr->path, 414, "uri_too_long",
                                 "The query has more than 64 parameters.", hr->started_ms);
        return 1;
    }
    if (qs != URI_OK) {
        *ret = http_send_problem(conn, method, hr->path, 400, "invalid_parameter",
                                 "A query parameter has an escaped NUL (%00).", hr->started_ms);
        return 1;
    }
    return 0;
}

/* Header fields and their bytes, counted by MHD_get_connection_values. */
struct header_count {
    size_t n;     /* fields */
    size_t bytes; /* bytes of names and values */
};

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value)
{
    (void)kind;
    struct header_count *c = cls;
    c->n++;
    c->bytes += strlen(key) + (value ? strlen(value) : 0);
    return MHD_YES;
}

/* 1 when the request has been arriving for longer than REQUEST_TIMEOUT. */
static int too_slow(const struct http_req *hr)
{
    return api_now_ms() - hr->started_ms > (long long)request_timeout_s * 1000;
}

/*
 * The checks of a request whose headers are complete, before anything else: its
 * client's rate (429, for paths under /v1; a preflight, OPTIONS, costs no token: it runs
 * no handler, and a browser that could not make one could not read the 429 of the request
 * after it either), the size of its headers (431), the time it
 * took to arrive (408). Returns 1 after answering into *ret, else 0.
 */
static int refuse_early(struct MHD_Connection *conn, const char *method, const char *url,
                        struct http_req *hr, enum MHD_Result *ret)
{
    if (take_target(conn, method, url, hr, ret)) return 1;
    url = hr->path;
    const char *framing = bad_framing(conn);
    if (framing) {
        hr->close_after = 1;
        *ret =
            http_send_problem(conn, method, url, 400, "invalid_framing", framing, hr->started_ms);
        return 1;
    }
    if ((strncmp(url, "/v1/", 4) == 0 || strcmp(url, "/v1") == 0) &&
        strcmp(method, "OPTIONS") != 0) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        int wait = ratelimit_take(ci ? ci->client_addr : NULL);
        if (wait > 0) {
            struct api_response resp = {0};
            problem_reply(&resp, 429, "rate_limited",
                          "Too many requests from this address; retry after Retry-After seconds.");
            resp.retry_after = wait;
            *ret = http_send(conn, method, url, &resp, hr->started_ms);
            return 1;
        }
    }
    struct header_count hc = {0, 0};
    MHD_get_connection_values(conn, MHD_HEADER_KIND, count_header, &hc);
    if (hc.n > MAX_HEADERS || hc.bytes > MAX_HEADER_BYTES) {
        *ret = http_send_problem(conn, method, url, 431, "headers_too_large",
                                 "The request has more than 100 header fields or 16 KiB of them.",
                                 hr->started_ms);
        return 1;
    }
    if (too_slow(hr)) {
        hr->timed_out = 1;
        *ret = http_send_problem(conn, method, url, 408, "request_timeout",
                                 "The request took too long to arrive.", hr->started_ms);
        return 1;
    }
    /* While its body arrives, a connection may idle only as long as the request may take. */
    if (request_timeout_s < conn_timeout_s)
        MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
                                  (unsigned int)request_timeout_s);
    return 0;
}

static enum MHD_Result handle_request(void *cls, struct MHD_Connection *conn, const char *url,
                                      const char *method, const char *version,
                                      const char *upload_data, size_t *upload_data_size,
                                      void **con_cls)
{
    (void)cls;
    (void)version;
    struct http_req *hr = *con_cls;
    if (!hr || !hr->admitted) {
        if (!hr && !(hr = req_new())) return MHD_NO;
        if (hr->hc && headers_arriving == hr->hc) headers_arriving = NULL; /* they arrived */
        hr->admitted = 1;
        hr->async.wake = http_wake;
        hr->async.wake_arg = hr;
        *con_cls = hr;
        enum MHD_Result early;
        if (refuse_early(conn, method, url, hr, &early)) return early;
        url = hr->path;
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
        if (cl && strtoull(cl, NULL, 10) > API_MAX_BODY) {
            hr->too_big = 1;
            return http_send_problem(conn, method, url, 413, "body_too_large",
                                     "The body is larger than 64 KiB.", hr->started_ms);
        }
        return MHD_YES;
    }
    if (hr->path) url = hr->path; /* as routed (take_target()) */
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (too_slow(hr)) {
            /* MHD (0.9.75) cannot queue an answer while the body still arrives: the guard
             * answers 408 on the socket at its deadline (at most its sweep later), so the
             * rest is dropped; without a guard (out of memory) the connection is closed. */
            if (!hr->timed_out)
                log_kv(LOG_INFO, "request too slow", "method", method, "path", url, NULL);
            hr->timed_out = 1;
            return hr->hc && hr->hc->guard ? MHD_YES : MHD_NO;
        }
        if (hr->too_big) return MHD_YES;
        enum buf_status st = buf_add(&hr->body, upload_data, n);
        if (st == BUF_TOO_BIG) hr->too_big = 1;
        return st == BUF_OK || st == BUF_TOO_BIG ? MHD_YES : MHD_NO;
    }
    if (hr->too_big)
        return http_send_problem(conn, method, url, 413, "body_too_large",
                                 "The body is larger than 64 KiB.", hr->started_ms);
    if (!hr->arrived && (hr->timed_out || too_slow(hr)))
        return http_send_problem(conn, method, url, 408, "request_timeout",
                                 "The request took too long to arrive.", hr->started_ms);
    hr->arrived = 1; /* it came in time: a long poll that runs again later is not late */
    if (hr->hc) connguard_answering(hr->hc->guard); /* nor is it for the guard */
    if (request_timeout_s < conn_timeout_s)
        MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
                                  (unsigned int)conn_timeout_s);

    struct api_request req = {0};
    req.method = method; /* HEAD too: openapi.yaml has no HEAD, so it is answered 405 */
    req.path = url;
    req.body = buf_ptr(&hr->body);
    req.body_len = buf_len(&hr->body);
    req.content_type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type");
    req.authorization = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
    req.if_match = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "If-Match");
    req.if_none_match = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "If-None-Match");
    req.idempotency_key = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Idempotency-Key");
    req.accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Accept");
    req.last_event_id = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Last-Event-ID");
    req.nquery = hr->nquery;
    memcpy(req.query, hr->query, hr->nquery * sizeof hr->query[0]);
    req.query_overflow = hr->query_overflow;
    req.started_ms = hr->started_ms;
    req.stopping = atomic_load(&http_server.stopping);
    req.draining = atomic_load(&http_server.draining);
    const union MHD_ConnectionInfo *peer =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    req.client_addr = peer ? peer->client_addr : NULL;

    req.async = &hr->async;
    atomic_store(&hr->woken, 0); /* a wake that resumed this run is used up */

    struct api_response resp = {0};
    http_server.app.handle(&req, &resp);
    while (resp.suspend) {
        int ticked = resp.suspend == API_SUSPEND_TICK;
        free(resp.body);
        memset(&resp, 0, sizeof resp);
        enum http_suspension what = http_suspend(hr, conn, ticked);
        if (what == HTTP_SUSPENDED) return MHD_YES;
        if (what == HTTP_STOPPING) req.stopping = 1;
        http_server.app.handle(&req, &resp);
    }
    return http_send(conn, method, url, &resp, hr->started_ms);
}

/*
 * MHD's access handler: handle_request() with the request as the thread's current one
 * (its id in every log line written meanwhile, and on its answer).
 */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    struct http_req *hr = *con_cls;
    if (!hr) {
        if (!(hr = req_new())) return MHD_NO;
        *con_cls = hr;
    }
    if (!hr->rid[0]) request_id(conn, hr);
    http_current = hr;
    log_set_request_id(hr->rid);
    enum MHD_Result ret =
        handle_request(cls, conn, url, method, version, upload_data, upload_data_size, con_cls);
    log_set_request_id(NULL);
    http_current = NULL;
    return ret;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)conn;
    (void)toe;
    struct http_req *hr = *con_cls;
    if (!hr) return;
    if (hr->hc && headers_arriving == hr->hc) headers_arriving = NULL;
    if (hr->hc) {
        hr->hc->req = NULL;
        connguard_idle(hr->hc->guard);
    }
    req_end(hr);
    *con_cls = NULL;
}

/* 1 when Content-Length value `v` is malformed: not 1 to 20 digits alone (a sign, a list,
 * spaces, anything else), or above 2^64-1. */
static int content_length_bad(const char *v)
{
    size_t n = v ? strspn(v, "0123456789") : 0;
    if (n == 0 || v[n] != '\0') return 1;
    while (n > 1 && *v == '0') v++, n--; /* leading zeros are still the same number */
    return n > 20 || (n == 20 && strcmp(v, "18446744073709551615") > 0);
}

static enum MHD_Result find_bad_length(void *cls, enum MHD_ValueKind kind, const char *key,
                                       const char *value)
{
    (void)kind;
    int *bad = cls;
    if (strcasecmp(key, "Content-Length") == 0 && content_length_bad(value)) *bad = 1;
    return MHD_YES;
}

/*
 * libmicrohttpd 0.9.75 reads Content-Length itself once the headers are in, before any
 * callback of ours: a malformed one (a sign, a list such as "39,39", spaces, a value above
 * 2^64-1) it answers with an HTML 400 or 413 of its own, whose header block it writes twice.
 * It logs the fault first, on the connection's thread: then the connection whose headers
 * this thread is reading (headers_arriving) is answered here, when its Content-Length is
 * indeed malformed, with the one `400 invalid_framing` problem, and its socket is shut
 * down, as the connection guard does at a deadline: the answer libmicrohttpd then queues
 * cannot be sent, and it closes the connection. Otherwise nothing is done here.
 */
static void framing_refuse(void)
{
    struct http_conn *hc = headers_arriving;
    if (!hc || hc->fd < 0 || !framing_answer) return;
    int bad = 0;
    MHD_get_connection_values(hc->conn, MHD_HEADER_KIND, find_bad_length, &bad);
    if (!bad) return;
    headers_arriving = NULL;
    connguard_answering(hc->guard); /* answered: no 408 crosses it */
    (void)!send(hc->fd, framing_answer, framing_answer_len, MSG_NOSIGNAL | MSG_DONTWAIT);
    shutdown(hc->fd, SHUT_RDWR);
    metrics_request("other", 400, hc->req ? mono_us() - hc->req->started_us : 0);
    log_kv(LOG_INFO, "request", "status", "400", "code", "invalid_framing", "detail",
           "malformed Content-Length", NULL);
}

/* Routes MHD's own error messages into the JSON log; answers a malformed Content-Length
 * (framing_refuse). */
static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && msg[n - 1] == '\n') msg[--n] = '\0';
    log_kv(LOG_WARN, "http", "error", msg, NULL);
    if (strstr(msg, "Content-Length")) framing_refuse();
}

/* Starts the connection guard, with the 408 answer it sends to requests past their time
 * (raw_answer), and makes framing_refuse()'s 400. */
static int guard_start(void)
{
    size_t len = 0;
    char *all = http_raw_answer(408, "Request Timeout", "request_timeout",
                                "The request took too long to arrive.", &len);
    int rc = all ? connguard_start(request_timeout_s, conn_timeout_s, all, len) : -1;
    free(all);
    free(framing_answer);
    framing_answer =
        http_raw_answer(400, "Bad Request", "invalid_framing",
                        "The request's Content-Length is not a number of bytes (digits only, at "
                        "most 2^64-1, one value).",
                        &framing_answer_len);
    if (rc || !framing_answer) {
        if (rc == 0) connguard_stop();
        log_kv(LOG_ERROR, "cannot start the connection guard", NULL);
        return -1;
    }
    return 0;
}

int http_start(const struct cfg *cfg, const struct http_app *with)
{
    http_server.app = *with;
    atomic_store(&http_server.stopping, 0);
    atomic_store(&http_server.draining, 0);
    quiesced_fd = MHD_INVALID_SOCKET;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    rid_prefix = (unsigned)(ts.tv_nsec ^ ts.tv_sec * 2654435761u ^ (unsigned)getpid() << 16);
    request_timeout_s = cfg->request_timeout;
    http_server.slow_request_ms = cfg->slow_request_ms;
    conn_timeout_s = cfg->conn_timeout;
    char err[256];
    if (cors_parse(cfg->cors_origins, &http_server.cors, err, sizeof err)) {
        log_kv(LOG_ERROR, err, NULL);
        return -1;
    }
    if (ratelimit_init(cfg->rate_limit, cfg->rate_burst, cfg->rate_table)) {
        log_kv(LOG_ERROR, "cannot set up the rate limiter", NULL);
        return -1;
    }
    connguard_set_limit(cfg->max_connections); /* pressure: connguard.h */
    if (guard_start()) return -1;
    /* poll(), not epoll: the drain quiesces the daemon (http_stop_listening()), and libmicrohttpd's
     * MHD_quiesce_daemon() with epoll and a thread pool races the pool's threads to take the
     * listening socket out of their epoll sets; the loser's epoll_ctl() fails with ENOENT
     * and libmicrohttpd aborts the process (MHD_PANIC "Failed to remove listen FD from
     * epoll set", an open defect of 0.9.75 and later): a server that began to drain
     * exited with SIGABRT, cutting the requests it served. With poll() the quiesce only
     * flags the threads. The price: each thread polls its open connections at every turn
     * of its loop (suspended ones, long polls and streams, are not polled), a few
     * microseconds per hundred connections. */
    daemon_handle = MHD_start_daemon(
        MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME |
            MHD_USE_ITC, /* MHD_quiesce_daemon() needs it with threads */
        (uint16_t)cfg->port, NULL, NULL, on_request, NULL, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log,
        NULL, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)cfg->threads, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)cfg->max_connections, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->conn_timeout,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_NOTIFY_CONNECTION,
        on_connection, NULL, MHD_OPTION_URI_LOG_CALLBACK, on_request_line, NULL,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)cfg->max_conn_per_ip, MHD_OPTION_END);
    if (!daemon_handle) {
        connguard_stop();
        char port[8];
        snprintf(port, sizeof port, "%d", cfg->port);
        log_kv(LOG_ERROR, "cannot listen", "port", port, NULL);
        return -1;
    }
    if (http_wait_start()) {
        MHD_stop_daemon(daemon_handle);
        daemon_handle = NULL;
        connguard_stop();
        return -1;
    }
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon_handle, MHD_DAEMON_INFO_BIND_PORT);
    char port[8], threads[8];
    bound_port = info ? (int)info->port : cfg->port;
    snprintf(port, sizeof port, "%d", bound_port);
    snprintf(threads, sizeof threads, "%d", cfg->threads);
    log_kv(LOG_INFO, "listening", "port", port, "threads", threads, NULL);
    return 0;
}

int http_port(void)
{
    return bound_port;
}

/* Accepts every connection waiting in the backlog of listening socket `fd` (MHD no longer
 * accepts from it) and hands each to the daemon to be served; one it refuses is closed. */
static void take_backlog(MHD_socket fd)
{
    int taken = 0;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0) return; /* never wait here */
    for (;;) {
        struct sockaddr_storage addr;
        socklen_t len = sizeof addr;
        int c = accept(fd, (struct sockaddr *)&addr, &len); /* MHD makes it non-blocking */
        if (c < 0) break;                                   /* EAGAIN: none left */
        /* On MHD_NO the daemon has closed the socket itself (microhttpd.h). */
        if (MHD_add_connection(daemon_handle, c, (const struct sockaddr *)&addr, len) == MHD_YES)
            taken++;
    }
    if (taken) {
        char n[16];
        snprintf(n, sizeof n, "%d", taken);
        log_kv(LOG_INFO, "draining: connections waiting to be accepted taken", "count", n, NULL);
    }
}

/* Makes listening socket `fd` drop every TCP segment that opens a handshake (SYN without
 * ACK): no new connection completes on it, while the handshakes under way do (their last
 * ACK passes) and land in its backlog. A TCP socket's filter sees the segment from its TCP
 * header on; the flags are its byte 13. Returns whether the filter is on. */
static bool refuse_new_handshakes(MHD_socket fd)
{
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x12),       /* SYN | ACK */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x02, 0, 1), /* SYN alone: */
        BPF_STMT(BPF_RET | BPF_K, 0),                    /* dropped */
        BPF_STMT(BPF_RET | BPF_K, 0xFFFFFFFFu),          /* anything else: kept whole */
    };
    struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
    return fd != MHD_INVALID_SOCKET &&
           setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog) == 0;
}

/* When the drain began refusing new handshakes (mono_ms()), 0 if it could not; whether
 * http_stop_listening() ran. Both only touched by the thread that drains and stops. */
static long long handshakes_refused_at;
static bool stopped_listening;

void http_drain(void)
{
    if (!daemon_handle || atomic_exchange(&http_server.draining, 1)) return;
    /* The listening socket is shut by http_stop_listening(). Shutting it resets the
     * connections that the kernel completed and nobody accepted yet, so first no new
     * handshake may start (a SYN dropped: its client sends it again about 1 s later and is
     * refused then), and the ones under way get a round trip to complete. */
    const union MHD_DaemonInfo *listening =
        MHD_get_daemon_info(daemon_handle, MHD_DAEMON_INFO_LISTEN_FD);
    if (listening && refuse_new_handshakes(listening->listen_fd))
        handshakes_refused_at = mono_ms();
    else
        log_kv(LOG_WARN, "draining: new handshakes could not be refused before the shut", NULL);
    http_wait_stop();
}

void http_stop_listening(void)
{
    if (!daemon_handle || stopped_listening) return;
    stopped_listening = true;
    http_drain();
    if (handshakes_refused_at) {
        long long left = handshakes_refused_at + DRAIN_HANDSHAKE_MS - mono_ms();
        if (left > 0) usleep((useconds_t)left * 1000);
    }
    /* The listening socket out of MHD's hands, its backlog taken and served, then shut:
     * from then on a connect is refused, so clients go to another server. It is closed
     * after MHD_stop_daemon (microhttpd.h). */
    quiesced_fd = MHD_quiesce_daemon(daemon_handle);
    if (quiesced_fd != MHD_INVALID_SOCKET) take_backlog(quiesced_fd);
    if (quiesced_fd == MHD_INVALID_SOCKET || shutdown(quiesced_fd, SHUT_RDWR) != 0)
        log_kv(LOG_WARN, "draining: the listening socket could not be shut", NULL);
}

int http_draining(void)
{
    return atomic_load(&http_server.draining);
}

int http_in_progress(void)
{
    return atomic_load(&in_progress);
}

void http_stop(void)
{
    if (!daemon_handle) return;
    http_stop_listening();
    /* Streams end with their last chunk (clients see a clean end) before connections close. */
    for (int waited = 0; http_streams_open() > 0 && waited < STREAMS_END_MS; waited += 10)
        usleep(10000);
    MHD_stop_daemon(daemon_handle);
    daemon_handle = NULL;
    bound_port = 0;
    if (quiesced_fd != MHD_INVALID_SOCKET) close(quiesced_fd);
    quiesced_fd = MHD_INVALID_SOCKET;
    handshakes_refused_at = 0;
    stopped_listening = false;
    connguard_stop(); /* after the daemon: every connection has unregistered itself */
    free(framing_answer);
    framing_answer = NULL;
    ratelimit_free();
}
