/* batcher.c: the reads' version queries, batched.
 *
 * A read that may answer from the cache of decoded games (games.c) first asks the
 * database for the game's version. One thread asks for the versions of all the games
 * that requests are waiting for in one query, so that many reads share one round trip
 * (each still sees every action committed before it asked). A waiting read is a thread
 * blocked on its condition variable, or a suspended request that the batcher wakes.
 */
#include "batcher.h"
#include "store_games.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum vstate { V_QUEUED, V_ASKED, V_DONE };

/* A read waiting for the stored version of its game: a thread blocked on `cond`, or (with
 * `async`) a suspended request that is woken. Guarded by vlock. */
struct vreq {
    char id[AUTH_UUID_LEN + 1]; /* the game */
    int version;                /* out: its stored version (-1: no such game) */
    enum store_status st;       /* out: how the query went */
    enum vstate state;          /* queued, in a query, or done (the above filled in) */
    int cancelled;              /* async: the request ended before the answer */
    int waking;                 /* async: done, and the batcher is waking the request */
    int consumed;               /* async: taken while waking: the batcher frees it */
    struct api_async *async;    /* the suspended request, or NULL: a thread waits on cond */
    pthread_cond_t cond;        /* signalled when done (without async) */
    struct vreq *next;          /* the queue */
};

static pthread_mutex_t vlock = PTHREAD_MUTEX_INITIALIZER; /* guards the queue and vstop */
static pthread_cond_t vwork = PTHREAD_COND_INITIALIZER;   /* the queue is not empty */
static pthread_cond_t vwoke = PTHREAD_COND_INITIALIZER;   /* a batch's wakes are done */
static struct vreq *vhead, **vtail = &vhead;              /* waiting reads, oldest first */
static int vstop;                                         /* 1: the batcher should end */
static pthread_t vthread;                                 /* the batcher */
static int vrunning;                                      /* 1 while it runs */

/* The batcher's thread: takes up to BATCHER_MAX queued reads, asks for their versions in one
 * query (vlock released meanwhile), hands the answers out and wakes the waiters; ends once
 * vstop is set and the queue is empty. */
static void *batcher_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&vlock);
    for (;;) {
        while (!vhead && !vstop) pthread_cond_wait(&vwork, &vlock);
        if (!vhead) break;
        struct vreq *batch[BATCHER_MAX];
        const char *ids[BATCHER_MAX];
        int versions[BATCHER_MAX];
        size_t n = 0;
        while (vhead && n < BATCHER_MAX) {
            batch[n] = vhead;
            ids[n] = vhead->id;
            vhead->state = V_ASKED;
            n++;
            vhead = vhead->next;
        }
        if (!vhead) vtail = &vhead;
        pthread_mutex_unlock(&vlock);
        enum store_status st = store_game_versions(ids, n, versions);
        pthread_mutex_lock(&vlock);
        size_t nwake = 0;
        for (size_t i = 0; i < n; i++) {
            struct vreq *r = batch[i];
            r->st = st;
            r->version = versions[i];
            r->state = V_DONE;
            if (!r->async) {
                pthread_cond_signal(&r->cond);
            } else if (r->cancelled) {
                free(r);
            } else {
                r->waking = 1; /* the request, and so r->async, lives until this is 0 */
                batch[nwake++] = r;
            }
        }
        /* The wakes outside the lock, which the requests queuing now wait for. */
        pthread_mutex_unlock(&vlock);
        for (size_t i = 0; i < nwake; i++) batch[i]->async->wake(batch[i]->async->wake_arg);
        pthread_mutex_lock(&vlock);
        for (size_t i = 0; i < nwake; i++) {
            batch[i]->waking = 0;
            if (batch[i]->consumed) free(batch[i]);
        }
        pthread_cond_broadcast(&vwoke);
    }
    pthread_mutex_unlock(&vlock);
    return NULL;
}

/* Queues `r` for the batcher (vlock held). */
static void enqueue(struct vreq *r)
{
    int idle = !vhead;
    r->next = NULL;
    *vtail = r;
    vtail = &r->next;
    if (idle) pthread_cond_signal(&vwork);
}

enum store_status batcher_version(const char *id, int *version)
{
    if (!vrunning) {
        enum store_status s = store_game_version(id, version);
        if (s == STORE_NOT_FOUND) {
            *version = -1;
            s = STORE_OK;
        }
        return s;
    }
    struct vreq r = {.version = -1, .st = STORE_ERROR, .state = V_QUEUED};
    snprintf(r.id, sizeof r.id, "%s", id);
    pthread_cond_init(&r.cond, NULL);
    pthread_mutex_lock(&vlock);
    enqueue(&r);
    while (r.state != V_DONE) pthread_cond_wait(&r.cond, &vlock);
    pthread_mutex_unlock(&vlock);
    pthread_cond_destroy(&r.cond);
    *version = r.version;
    return r.st;
}

/* api_async.cancel: the request of a->pending ended (or asks directly) before using it. */
static void vreq_cancel(struct api_async *a)
{
    struct vreq *r = api_async_take(a);
    pthread_mutex_lock(&vlock);
    if (r->state == V_QUEUED) {
        struct vreq **p = &vhead;
        while (*p != r) p = &(*p)->next;
        *p = r->next;
        if (vtail == &r->next) vtail = p;
        free(r);
    } else if (r->state == V_ASKED) {
        r->cancelled = 1; /* the batcher frees it */
    } else {
        /* Done: the request must outlive the batcher's wake of it. */
        while (r->waking) pthread_cond_wait(&vwoke, &vlock);
        free(r);
    }
    pthread_mutex_unlock(&vlock);
}

int batcher_version_async(const char *id, struct api_async *a, int *version)
{
    struct vreq *r = a->pending;
    if (!r) {
        if (!(r = calloc(1, sizeof *r))) return STORE_ERROR;
        snprintf(r->id, sizeof r->id, "%s", id);
        r->async = a;
        r->state = V_QUEUED;
        a->pending = r;
        a->cancel = vreq_cancel;
        pthread_mutex_lock(&vlock);
        enqueue(r);
        pthread_mutex_unlock(&vlock);
        return -1;
    }
    pthread_mutex_lock(&vlock);
    int done = r->state == V_DONE;
    enum store_status st = r->st;
    if (done) {
        *version = r->version;
        api_async_take(a);
        if (r->waking)
            r->consumed = 1; /* the batcher frees it */
        else
            free(r);
    }
    pthread_mutex_unlock(&vlock);
    return done ? (int)st : -1;
}

int batcher_start(void)
{
    vstop = 0;
    if (pthread_create(&vthread, NULL, batcher_main, NULL) != 0) return -1;
    vrunning = 1;
    return 0;
}

void batcher_stop(void)
{
    if (!vrunning) return;
    pthread_mutex_lock(&vlock);
    vstop = 1;
    pthread_cond_signal(&vwork);
    pthread_mutex_unlock(&vlock);
    pthread_join(vthread, NULL);
    vrunning = 0;
}

int batcher_running(void)
{
    return vrunning;
}
