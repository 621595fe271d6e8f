/* http.c: the only file that speaks libmicrohttpd. */
#include "http.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#include "log.h"
#include "problem.h"
#include "req.h"
#include "router.h"

#define POLL_TICK_MS 200 /* how often suspended long polls look again */

/* Per-connection request state (MHD's con_cls). */
struct http_req {
    char *body;                      /* accumulated body (NUL-terminated), or NULL */
    size_t len;                      /* bytes in body */
    size_t cap;                      /* capacity of body */
    int too_big;                     /* 1 once the body went over API_MAX_BODY */
    long long started_ms;            /* when the request arrived */
    struct MHD_Connection *conn;     /* the connection (while suspended) */
    struct http_req *next_suspended; /* list of suspended requests */
};

static struct MHD_Daemon *daemon_handle;
static pthread_t ticker;
static int ticker_running;
static atomic_int stopping;
static pthread_mutex_t susp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t susp_cond = PTHREAD_COND_INITIALIZER;
static struct http_req *suspended; /* suspended requests, guarded by susp_lock */

/* Resumes every suspended request (they run again and answer or suspend again). */
static void resume_all(void)
{
    pthread_mutex_lock(&susp_lock);
    struct http_req *list = suspended;
    suspended = NULL;
    pthread_mutex_unlock(&susp_lock);
    while (list) {
        struct http_req *r = list;
        list = r->next_suspended;
        r->next_suspended = NULL;
        MHD_resume_connection(r->conn);
    }
}

static void *ticker_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&susp_lock);
    while (!atomic_load(&stopping)) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += POLL_TICK_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&susp_cond, &susp_lock, &ts);
        pthread_mutex_unlock(&susp_lock);
        resume_all();
        pthread_mutex_lock(&susp_lock);
    }
    pthread_mutex_unlock(&susp_lock);
    resume_all();
    return NULL;
}

/* Collects query parameters into the request. */
static enum MHD_Result add_query(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    (void)kind;
    struct api_request *req = cls;
    if (req->nquery == API_MAX_QUERY) {
        req->query_overflow = 1;
        return MHD_NO;
    }
    req->query[req->nquery].name = key;
    req->query[req->nquery].value = value ? value : "";
    req->nquery++;
    return MHD_YES;
}

/* Sends `resp` (taking its body) and logs the request. */
static enum MHD_Result send_response(struct MHD_Connection *conn, const char *method,
                                     const char *url, struct api_response *resp,
                                     long long started_ms)
{
    struct MHD_Response *r;
    if (resp->body)
        r = MHD_create_response_from_buffer(resp->len, resp->body, MHD_RESPMEM_MUST_FREE);
    else
        r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!r) {
        free(resp->body);
        resp->body = NULL;
        return MHD_NO;
    }
    resp->body = NULL; /* MHD frees it now */
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
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(conn, (unsigned)resp->status, r);
    MHD_destroy_response(r);
    enum log_level lvl = resp->status >= 500 ? LOG_WARN : LOG_INFO;
    if (log_enabled(lvl)) {
        char status[8], ms[24];
        snprintf(status, sizeof status, "%d", resp->status);
        snprintf(ms, sizeof ms, "%lld", api_now_ms() - started_ms);
        log_kv(lvl, "request", "method", method, "path", url, "status", status, "ms", ms, NULL);
    }
    return ret;
}

/* Answers with a problem before or without running a handler. */
static enum MHD_Result send_problem(struct MHD_Connection *conn, const char *method,
                                    const char *url, int status, const char *code,
                                    const char *detail, long long started_ms)
{
    struct api_response resp = {0};
    problem_reply(&resp, status, code, detail);
    return send_response(conn, method, url, &resp, started_ms);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    (void)cls;
    (void)version;
    struct http_req *hr = *con_cls;
    if (!hr) {
        hr = calloc(1, sizeof *hr);
        if (!hr) return MHD_NO;
        hr->started_ms = api_now_ms();
        *con_cls = hr;
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
        if (cl && strtoull(cl, NULL, 10) > API_MAX_BODY) {
            hr->too_big = 1;
            return send_problem(conn, method, url, 413, "body_too_large",
                                "The body is larger than 64 KiB.", hr->started_ms);
        }
        return MHD_YES;
    }
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (hr->too_big || hr->len + n > API_MAX_BODY) {
            hr->too_big = 1;
            return MHD_YES;
        }
        if (hr->len + n + 1 > hr->cap) {
            size_t cap = hr->cap ? hr->cap : 1024;
            while (cap < hr->len + n + 1) cap *= 2;
            char *nb = realloc(hr->body, cap);
            if (!nb) return MHD_NO;
            hr->body = nb;
            hr->cap = cap;
        }
        memcpy(hr->body + hr->len, upload_data, n);
        hr->len += n;
        hr->body[hr->len] = '\0';
        return MHD_YES;
    }
    if (hr->too_big)
        return send_problem(conn, method, url, 413, "body_too_large",
                            "The body is larger than 64 KiB.", hr->started_ms);

    struct api_request req = {0};
    req.method = strcmp(method, "HEAD") == 0 ? "GET" : method;
    req.path = url;
    req.body = hr->body ? hr->body : "";
    req.body_len = hr->len;
    req.content_type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type");
    req.authorization = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
    req.if_match = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "If-Match");
    req.idempotency_key = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Idempotency-Key");
    req.accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Accept");
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, add_query, &req);
    req.started_ms = hr->started_ms;
    req.stopping = atomic_load(&stopping);

    struct api_response resp = {0};
    api_handle(&req, &resp);
    if (resp.suspend) {
        free(resp.body);
        resp.body = NULL;
        /* Under the lock, so that http_stop() sees every suspension it must end. */
        pthread_mutex_lock(&susp_lock);
        if (!atomic_load(&stopping)) {
            hr->conn = conn;
            MHD_suspend_connection(conn);
            hr->next_suspended = suspended;
            suspended = hr;
            pthread_mutex_unlock(&susp_lock);
            return MHD_YES;
        }
        pthread_mutex_unlock(&susp_lock);
        memset(&resp, 0, sizeof resp);
        req.stopping = 1;
        api_handle(&req, &resp);
    }
    return send_response(conn, method, url, &resp, hr->started_ms);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)conn;
    (void)toe;
    struct http_req *hr = *con_cls;
    if (!hr) return;
    free(hr->body);
    free(hr);
    *con_cls = NULL;
}

/* Routes MHD's own error messages into the JSON log. */
static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && msg[n - 1] == '\n') msg[--n] = '\0';
    log_kv(LOG_WARN, "http", "error", msg, NULL);
}

int http_start(const struct cfg *cfg)
{
    atomic_store(&stopping, 0);
    daemon_handle = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME,
        (uint16_t)cfg->port, NULL, NULL, on_request, NULL, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log,
        NULL, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)cfg->threads, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)cfg->max_connections, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->conn_timeout,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_END);
    if (!daemon_handle) {
        char port[8];
        snprintf(port, sizeof port, "%d", cfg->port);
        log_kv(LOG_ERROR, "cannot listen", "port", port, NULL);
        return -1;
    }
    if (pthread_create(&ticker, NULL, ticker_main, NULL) != 0) {
        MHD_stop_daemon(daemon_handle);
        daemon_handle = NULL;
        return -1;
    }
    ticker_running = 1;
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon_handle, MHD_DAEMON_INFO_BIND_PORT);
    char port[8], threads[8];
    snprintf(port, sizeof port, "%u", info ? (unsigned)info->port : (unsigned)cfg->port);
    snprintf(threads, sizeof threads, "%d", cfg->threads);
    log_kv(LOG_INFO, "listening", "port", port, "threads", threads, NULL);
    return 0;
}

void http_stop(void)
{
    if (!daemon_handle) return;
    pthread_mutex_lock(&susp_lock);
    atomic_store(&stopping, 1);
    pthread_cond_broadcast(&susp_cond);
    pthread_mutex_unlock(&susp_lock);
    if (ticker_running) pthread_join(ticker, NULL);
    ticker_running = 0;
    /* Requests that suspended after the ticker's last round. */
    resume_all();
    MHD_stop_daemon(daemon_handle);
    daemon_handle = NULL;
}
