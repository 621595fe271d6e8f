/* http_wait.c: requests suspended while they wait (a long poll, a hint, a picture being
 * drawn) and streamed answers (server-sent events): the lists of them, the wakes that run
 * them again, the ticker that runs the ticked ones every POLL_TICK_MS and notices clients
 * that left, and the drain that ends them all -- see http_internal.h. */
#include "http_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "dlist.h"
#include "log.h"
#include "mono.h"

#define POLL_TICK_MS 200 /* how often suspended long polls look again */

static pthread_mutex_t susp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t susp_cond = PTHREAD_COND_INITIALIZER;
static struct http_req *suspended; /* suspended requests, guarded by susp_lock */
static struct http_req *waiting;   /* requests suspended until woken, guarded by susp_lock */
static pthread_t ticker;
static int ticker_running;

/* A streamed answer in flight: MHD's content reader state. */
struct http_stream {
    struct api_stream *s;            /* the handler's stream */
    struct MHD_Connection *conn;     /* its connection */
    char rid[HTTP_RID_MAX + 1];      /* the request's id, for the log lines of its reads */
    int woken;                       /* susp_lock: woken while not suspended: read again */
    int suspended;                   /* susp_lock: 1 while suspended (on the streams list) */
    struct http_stream *prev, *next; /* the streams list (susp_lock) */
};

static struct http_stream *streams; /* suspended streams, guarded by susp_lock */
static atomic_int nstreams;         /* streamed answers not yet freed */

/* Takes `hs` off the streams list (susp_lock held). */
static void stream_unlink(struct http_stream *hs)
{
    DLIST_UNLINK(streams, hs, prev, next);
    hs->suspended = 0;
}

/* api_stream.wake: reads the stream `arg` again (resuming its connection if suspended). */
static void stream_wake(void *arg)
{
    struct http_stream *hs = arg;
    pthread_mutex_lock(&susp_lock);
    hs->woken = 1;
    int resume = hs->suspended;
    if (resume) stream_unlink(hs);
    pthread_mutex_unlock(&susp_lock);
    /* Off the list, only this call resumes it. */
    if (resume) MHD_resume_connection(hs->conn);
}

/* MHD's content reader of a stream: what the stream has, or a suspension until its wake. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct http_stream *hs = cls;
    const char *outer = log_request_id();
    log_set_request_id(hs->rid);
    ssize_t ret;
    for (;;) {
        long n = hs->s->read(hs->s, buf, max, atomic_load(&http_server.stopping));
        if (n != 0) {
            ret = n > 0 ? (ssize_t)n : MHD_CONTENT_READER_END_OF_STREAM;
            break;
        }
        /* Under the lock, so that a wake or http_stop() sees every suspension it must end. */
        pthread_mutex_lock(&susp_lock);
        if (hs->woken) {
            hs->woken = 0;
            pthread_mutex_unlock(&susp_lock);
            continue;
        }
        if (atomic_load(&http_server.stopping)) {
            pthread_mutex_unlock(&susp_lock);
            ret = MHD_CONTENT_READER_END_OF_STREAM;
            break;
        }
        hs->suspended = 1;
        DLIST_PUSH(streams, hs, prev, next);
        MHD_suspend_connection(hs->conn);
        pthread_mutex_unlock(&susp_lock);
        ret = 0; /* MHD calls again once resumed */
        break;
    }
    log_set_request_id(outer);
    return ret;
}

/* MHD's free callback of a stream's answer (its connection is done). */
static void stream_free(void *cls)
{
    struct http_stream *hs = cls;
    pthread_mutex_lock(&susp_lock);
    if (hs->suspended) stream_unlink(hs);
    pthread_mutex_unlock(&susp_lock);
    hs->s->free(hs->s); /* after this no wake comes */
    free(hs);
    atomic_fetch_sub(&nstreams, 1);
}

/* Ends every suspended stream (when stopping): each reads once more and ends. */
static void resume_streams(void)
{
    pthread_mutex_lock(&susp_lock);
    struct http_stream *list = streams;
    streams = NULL;
    for (struct http_stream *hs = list; hs; hs = hs->next) hs->suspended = 0;
    pthread_mutex_unlock(&susp_lock);
    while (list) {
        struct http_stream *hs = list;
        list = hs->next;
        hs->prev = hs->next = NULL;
        MHD_resume_connection(hs->conn);
    }
}

/* Takes `hr` off the waiting list (susp_lock held). */
static void unlink_waiting(struct http_req *hr)
{
    DLIST_UNLINK(waiting, hr, prev_waiting, next_waiting);
    hr->waiting = 0;
}

void http_wake(void *arg)
{
    struct http_req *hr = arg;
    pthread_mutex_lock(&susp_lock);
    atomic_store(&hr->woken, 1);
    int resume = hr->waiting;
    if (resume) unlink_waiting(hr);
    pthread_mutex_unlock(&susp_lock);
    /* Off the list, only this call resumes it (outside the lock, which others wait for). */
    if (resume) MHD_resume_connection(hr->conn);
}

/* Resumes every request on the waiting list (when stopping). */
static void resume_waiting(void)
{
    pthread_mutex_lock(&susp_lock);
    while (waiting) {
        struct http_req *hr = waiting;
        unlink_waiting(hr);
        atomic_store(&hr->woken, 1);
        MHD_resume_connection(hr->conn);
    }
    pthread_mutex_unlock(&susp_lock);
}

/* Resumes each request of `list`, a chain through next_suspended already off every list
 * (so that no wake resumes one twice), with susp_lock not held. */
static void resume_chain(struct http_req *list)
{
    while (list) {
        struct http_req *r = list;
        list = r->next_suspended;
        r->next_suspended = NULL;
        MHD_resume_connection(r->conn);
    }
}

/* Resumes every suspended request (they run again and answer or suspend again). */
static void resume_all(void)
{
    pthread_mutex_lock(&susp_lock);
    struct http_req *list = suspended;
    suspended = NULL;
    pthread_mutex_unlock(&susp_lock);
    resume_chain(list);
}

/* 1 when the client of socket `fd` has closed its side or the connection failed (a byte
 * sent ahead, a pipelined request, is no leaving). */
static int peer_closed(int fd)
{
    char c;
    if (fd < 0) return 0;
    ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Resumes the requests on the waiting list that asked for it (api_async.watch_client) whose
 * client has gone (api_async.gone set): a suspended connection is not watched by
 * libmicrohttpd, so without this a hint would wait, and be thought, for nobody (issue 29,
 * finding 2). */
static void resume_gone(void)
{
    struct http_req *gone = NULL;
    pthread_mutex_lock(&susp_lock);
    for (struct http_req *hr = waiting, *next; hr; hr = next) {
        next = hr->next_waiting;
        if (!hr->async.watch_client || !peer_closed(hr->fd)) continue;
        unlink_waiting(hr);
        atomic_store(&hr->async.gone, 1);
        atomic_store(&hr->woken, 1);
        hr->next_suspended = gone; /* off the list: only this call resumes it */
        gone = hr;
    }
    pthread_mutex_unlock(&susp_lock);
    resume_chain(gone);
}

static void *ticker_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&susp_lock);
    while (!atomic_load(&http_server.stopping)) {
        mono_wait_ms(&susp_cond, &susp_lock, POLL_TICK_MS);
        pthread_mutex_unlock(&susp_lock);
        resume_gone();
        resume_all();
        pthread_mutex_lock(&susp_lock);
    }
    pthread_mutex_unlock(&susp_lock);
    resume_all();
    return NULL;
}

enum http_suspension http_suspend(struct http_req *hr, struct MHD_Connection *conn, int ticked)
{
    enum http_suspension what = HTTP_STOPPING;
    /* Under the lock, so that a wake or the drain sees every suspension it must end. */
    pthread_mutex_lock(&susp_lock);
    if (!ticked && atomic_exchange(&hr->woken, 0)) {
        what = HTTP_RUN_AGAIN; /* woken before it could suspend */
    } else if (!atomic_load(&http_server.stopping)) {
        hr->conn = conn;
        MHD_suspend_connection(conn);
        if (ticked) {
            hr->next_suspended = suspended;
            suspended = hr;
        } else {
            const union MHD_ConnectionInfo *fi =
                MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
            hr->fd = fi ? fi->connect_fd : -1;
            hr->waiting = 1;
            DLIST_PUSH(waiting, hr, prev_waiting, next_waiting);
        }
        what = HTTP_SUSPENDED;
    }
    pthread_mutex_unlock(&susp_lock);
    return what;
}

struct MHD_Response *http_stream_response(struct MHD_Connection *conn, struct api_stream *s,
                                          const char *rid)
{
    struct http_stream *hs = calloc(1, sizeof *hs);
    if (!hs) {
        s->free(s);
        return NULL;
    }
    atomic_fetch_add(&nstreams, 1);
    hs->s = s;
    hs->conn = conn;
    snprintf(hs->rid, sizeof hs->rid, "%s", rid);
    hs->s->wake = stream_wake;
    hs->s->wake_arg = hs;
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, stream_read, hs, stream_free);
    if (!r) stream_free(hs);
    return r;
}

int http_wait_start(void)
{
    if (pthread_create(&ticker, NULL, ticker_main, NULL) != 0) return -1;
    ticker_running = 1;
    return 0;
}

void http_wait_stop(void)
{
    pthread_mutex_lock(&susp_lock);
    atomic_store(&http_server.stopping, 1);
    pthread_cond_broadcast(&susp_cond);
    pthread_mutex_unlock(&susp_lock);
    if (ticker_running) pthread_join(ticker, NULL);
    ticker_running = 0;
    /* Requests that suspended after the ticker's last round, and those waiting: long polls
     * answer now with what they have; streams send what they hold and end. */
    resume_all();
    resume_waiting();
    resume_streams();
}

int http_streams_open(void)
{
    return atomic_load(&nstreams);
}
