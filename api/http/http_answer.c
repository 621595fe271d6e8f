/* http_answer.c: answers as libmicrohttpd sends them: the headers every answer carries
 * (request id, security, CORS, caching, Connection: close while draining), the metrics and
 * the log line of each request, and the raw answers written on a socket directly -- see
 * http_internal.h. */
#include "http_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connguard.h"
#include "log.h"
#include "metrics.h"
#include "mono.h"
#include "problem.h"

/* A header every answer carries. */
struct http_header {
    const char *name;  /* "X-Content-Type-Options" ... */
    const char *value; /* static */
};

/* The browser security headers of every answer (README "Limits and security"): no type
 * sniffing (a body is only ever what its Content-Type says), no Referer sent from a page of
 * this server to anyone, framed by no page (X-Frame-Options for browsers that do not know
 * the CSP's frame-ancestors); plus the answer's Content-Security-Policy (security_headers()). */
static const struct http_header security_fixed[] = {
    {"X-Content-Type-Options", "nosniff"},
    {"Referrer-Policy", "no-referrer"},
    {"X-Frame-Options", "DENY"},
};

/* Adds the security headers to `r`: the fixed ones and `resp`'s CSP (API_CSP_NONE unless
 * the handler set its own, as the web client's page does). */
static void security_headers(struct MHD_Response *r, const struct api_response *resp)
{
    for (size_t i = 0; i < sizeof security_fixed / sizeof security_fixed[0]; i++)
        MHD_add_response_header(r, security_fixed[i].name, security_fixed[i].value);
    MHD_add_response_header(r, "Content-Security-Policy", resp->csp ? resp->csp : API_CSP_NONE);
}

enum MHD_Result http_send(struct MHD_Connection *conn, const char *method, const char *url,
                          struct api_response *resp, long long started_ms)
{
    struct MHD_Response *r;
    struct http_req *hr = http_current;
    if (resp->stream) {
        r = http_stream_response(conn, resp->stream, hr ? hr->rid : "");
        resp->stream = NULL;
        if (!r) return MHD_NO;
    } else if (resp->body) {
        r = MHD_create_response_from_buffer(resp->len, resp->body, MHD_RESPMEM_MUST_FREE);
    } else {
        r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    }
    if (!r) {
        free(resp->body);
        resp->body = NULL;
        return MHD_NO;
    }
    resp->body = NULL; /* MHD frees it now */
    if (hr && hr->rid[0]) MHD_add_response_header(r, "X-Request-Id", hr->rid);
    if (resp->content_type) MHD_add_response_header(r, "Content-Type", resp->content_type);
    if (resp->etag[0]) MHD_add_response_header(r, "ETag", resp->etag);
    if (resp->location[0]) MHD_add_response_header(r, "Location", resp->location);
    if (resp->allow[0]) MHD_add_response_header(r, "Allow", resp->allow);
    if (resp->retry_after > 0) {
        char ra[16];
        snprintf(ra, sizeof ra, "%d", resp->retry_after);
        MHD_add_response_header(r, "Retry-After", ra);
    }
    if (resp->status == 401) MHD_add_response_header(r, "WWW-Authenticate", "Bearer");
    security_headers(r, resp);
    struct cors_header ch[CORS_MAX_HEADERS];
    size_t nch = cors_headers(&http_server.cors, url,
                              MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin"),
                              resp->preflight ? resp->allow : NULL, ch);
    for (size_t i = 0; i < nch; i++) MHD_add_response_header(r, ch[i].name, ch[i].value);
    /* Draining, no connection is kept for a next request: it goes to another server. */
    if ((hr && hr->close_after) || atomic_load(&http_server.draining))
        MHD_add_response_header(r, "Connection", "close");
    if (hr && hr->hc) connguard_answering(hr->hc->guard);
    MHD_add_response_header(r, "Cache-Control",
                            resp->cache_control ? resp->cache_control : "no-store");
    enum MHD_Result ret = MHD_queue_response(conn, (unsigned)resp->status, r);
    MHD_destroy_response(r);
    metrics_request(resp->route ? resp->route : http_server.app.route_template(url), resp->status,
                    hr ? mono_us() - hr->started_us : (api_now_ms() - started_ms) * 1000);
    long long took = api_now_ms() - started_ms;
    int slow = http_server.slow_request_ms > 0 && took >= http_server.slow_request_ms &&
               !(hr && hr->async.by_design);
    enum log_level lvl = resp->status >= 500 || slow ? LOG_WARN : LOG_INFO;
    if (log_enabled(lvl)) {
        char status[8], ms[24];
        snprintf(status, sizeof status, "%d", resp->status);
        snprintf(ms, sizeof ms, "%lld", took);
        log_kv(lvl, slow ? "slow request" : "request", "method", method, "path", url, "status",
               status, "ms", ms, NULL);
    }
    return ret;
}

enum MHD_Result http_send_problem(struct MHD_Connection *conn, const char *method, const char *url,
                                  int status, const char *code, const char *detail,
                                  long long started_ms)
{
    struct api_response resp = {0};
    problem_reply(&resp, status, code, detail);
    return http_send(conn, method, url, &resp, started_ms);
}

/*
 * A whole HTTP/1.1 answer of problem `code` (`status`, `reason`, `detail`) that closes the
 * connection, for writing on a socket directly (the guard's 408, framing_refuse()'s 400):
 * malloc'd (*len bytes), or NULL. It is made once, before any request: it carries the CORS
 * headers of an answer under /v1 to a request without an `Origin` (neither the request's
 * path nor its origin may have arrived): with CORS_ORIGINS `*`, Access-Control-Allow-
 * Origin `*` and the exposed headers, so that a page can read it; with a list of origins
 * only `Vary: Origin` (no origin to echo). It carries the security headers of every answer.
 */
char *http_raw_answer(int status, const char *reason, const char *code, const char *detail,
                      size_t *len)
{
    struct api_response resp = {0};
    problem_reply(&resp, status, code, detail);
    if (!resp.body) return NULL;
    struct cors_header ch[CORS_MAX_HEADERS];
    size_t nch = cors_headers(&http_server.cors, "/v1", NULL, NULL, ch);
    char corsh[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < nch && used < sizeof corsh; i++) {
        int k = snprintf(corsh + used, sizeof corsh - used, "%s: %s\r\n", ch[i].name, ch[i].value);
        if (k < 0 || (size_t)k >= sizeof corsh - used) {
            free(resp.body);
            return NULL;
        }
        used += (size_t)k;
    }
    for (size_t i = 0; i < sizeof security_fixed / sizeof security_fixed[0]; i++) {
        int k = snprintf(corsh + used, sizeof corsh - used, "%s: %s\r\n", security_fixed[i].name,
                         security_fixed[i].value);
        if (k < 0 || (size_t)k >= sizeof corsh - used) {
            free(resp.body);
            return NULL;
        }
        used += (size_t)k;
    }
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\nContent-Security-Policy: " API_CSP_NONE
                     "\r\n%sConnection: close\r\n\r\n",
                     status, reason, resp.content_type, resp.len, corsh);
    char *all = n > 0 && (size_t)n < sizeof head ? malloc((size_t)n + resp.len) : NULL;
    if (all) {
        memcpy(all, head, (size_t)n);
        memcpy(all + n, resp.body, resp.len);
        *len = (size_t)n + resp.len;
    }
    free(resp.body);
    return all;
}
