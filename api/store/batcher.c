/* batcher.c: requests to the database that wait together, sent together.
 *
 * Two lanes, each a queue and its threads. The reads' lane: a read that may answer from
 * the cache of decoded games (games.c) first asks for the game's version, and one thread
 * asks for the versions of all the games that requests wait for in one query, so that many
 * reads share one round trip (each still sees every action committed before it asked). The
 * commits' lane (a group commit): the commits of several games in one statement and one
 * transaction (store_game_commit_rows), so that PostgreSQL starts and ends one statement,
 * and the server and the database wake each other once, for all of them. A game is in at
 * most one batch in flight (two batches never wait for each other's rows). A waiting
 * request is a thread blocked on its condition variable, or a suspended request that the
 * lane's thread wakes.
 */
#include "batcher.h"
#include "metrics.h"
#include "store_db.h"
#include "store_games.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANE_THREADS_MAX 8 /* threads of one lane at most */

enum bstate { B_QUEUED, B_TAKEN, B_DONE };

/* A request waiting in a lane: a thread blocked on `cond`, or (with `async`) a suspended
 * request that is woken. Guarded by its lane's lock. */
struct batch_req {
    struct lane *lane;           /* its lane */
    char key[AUTH_UUID_LEN + 1]; /* the game */
    struct store_row *row;       /* a commit's row (store_commit_row), owned; else NULL */
    unsigned epoch;              /* a commit's store_epoch() of its read (0: not checked) */
    long out;                    /* out: the lane's answer (a version: -1 for no such game) */
    enum store_status st;        /* out: how it went */
    enum bstate state;           /* queued, in a batch, or done (the above filled in) */
    int cancelled;               /* async: the request ended before the answer */
    int waking;                  /* async: done, and the lane's thread is waking the request */
    int consumed;                /* async: taken while waking: the lane's thread frees it */
    struct api_async *async;     /* the suspended request, or NULL: a thread waits on cond */
    pthread_cond_t cond;         /* signalled when done (without async) */
    struct batch_req *next;      /* the queue */
};

/* Runs a batch: sets out and st of each of the n requests. */
typedef void (*lane_run)(struct batch_req **batch, size_t n);

/* A lane's thread: the lane and which of its threads. */
struct lane_thread {
    struct lane *lane;
    int index;
};

struct lane {
    size_t max;                     /* requests in one batch at most (<= BATCHER_MAX) */
    int one_per_key;                /* 1: a key is in one batch in flight at most */
    lane_run run;                   /* what a batch does */
    pthread_mutex_t lock;           /* guards the rest */
    pthread_cond_t work;            /* the queue may have requests a thread can take */
    pthread_cond_t woke;            /* a batch's wakes are done */
    struct batch_req *head, **tail; /* waiting requests, oldest first */
    int stop;                       /* 1: the threads should end once the queue is empty */
    int nthreads;                   /* threads running */
    pthread_t threads[LANE_THREADS_MAX];
    struct lane_thread thread_arg[LANE_THREADS_MAX]; /* what each thread is started with */
    struct batch_req *inflight[LANE_THREADS_MAX][BATCHER_MAX]; /* each thread's batch */
    size_t ninflight[LANE_THREADS_MAX];
    int metered; /* 1: counted in /metrics (the commits) */
};

/* 1 when a request of `key` is in a batch in flight on lane `l` (lock held). */
static int key_in_flight(const struct lane *l, const char *key)
{
    for (int t = 0; t < l->nthreads; t++)
        for (size_t i = 0; i < l->ninflight[t]; i++)
            if (strcmp(l->inflight[t][i]->key, key) == 0) return 1;
    return 0;
}

/* Takes up to l->max queued requests into batch (lock held), passing over (with
 * one_per_key) those of a game already in a batch in flight or in this one. */
static size_t take(struct lane *l, struct batch_req **batch)
{
    size_t n = 0;
    struct batch_req **p = &l->head;
    while (*p && n < l->max) {
        struct batch_req *r = *p;
        int skip = 0;
        if (l->one_per_key) {
            skip = key_in_flight(l, r->key);
            for (size_t i = 0; i < n && !skip; i++) skip = strcmp(batch[i]->key, r->key) == 0;
        }
        if (skip) {
            p = &r->next;
            continue;
        }
        *p = r->next;
        r->state = B_TAKEN;
        batch[n++] = r;
    }
    /* Passed the end: p is the next of the last one left (or the head). */
    if (!*p) l->tail = p;
    return n;
}

/* A lane's thread: takes what it can of the queue, runs it (the lock released meanwhile),
 * hands the answers out and wakes the waiters; ends once stop is set and the queue is
 * empty. */
static void *lane_main(void *arg)
{
    const struct lane_thread *me = arg;
    struct lane *l = me->lane;
    db_index_lookups();
    struct batch_req **batch = l->inflight[me->index];
    pthread_mutex_lock(&l->lock);
    for (;;) {
        size_t n = 0;
        while (!(n = take(l, batch)) && !(l->stop && !l->head))
            pthread_cond_wait(&l->work, &l->lock);
        if (!n) break;
        l->ninflight[me->index] = n;
        if (l->metered) {
            metrics_commit_batch(n);
            metrics_gauge_add(METRICS_COMMITS_QUEUED, -(long)n);
        }
        pthread_mutex_unlock(&l->lock);
        l->run(batch, n);
        pthread_mutex_lock(&l->lock);
        l->ninflight[me->index] = 0;
        struct batch_req *wake[BATCHER_MAX];
        size_t nwake = 0;
        for (size_t i = 0; i < n; i++) {
            struct batch_req *r = batch[i];
            r->state = B_DONE;
            if (!r->async) {
                pthread_cond_signal(&r->cond);
            } else if (r->cancelled) {
                free(r->row);
                free(r);
            } else {
                r->waking = 1; /* the request, and so r->async, lives until this is 0 */
                wake[nwake++] = r;
            }
        }
        /* Requests of the games of this batch may be taken now. */
        if (l->one_per_key && l->head) pthread_cond_broadcast(&l->work);
        /* The wakes outside the lock, which the requests queuing now wait for. */
        pthread_mutex_unlock(&l->lock);
        for (size_t i = 0; i < nwake; i++) wake[i]->async->wake(wake[i]->async->wake_arg);
        pthread_mutex_lock(&l->lock);
        for (size_t i = 0; i < nwake; i++) {
            wake[i]->waking = 0;
            if (wake[i]->consumed) {
                free(wake[i]->row);
                free(wake[i]);
            }
        }
        pthread_cond_broadcast(&l->woke);
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

/* The reads' batch: the versions of its games in one query. */
static void run_versions(struct batch_req **batch, size_t n)
{
    const char *ids[BATCHER_MAX] = {0};
    int versions[BATCHER_MAX];
    for (size_t i = 0; i < n; i++) ids[i] = batch[i]->key;
    enum store_status st = store_game_versions(ids, n, versions);
    for (size_t i = 0; i < n; i++) {
        batch[i]->st = st;
        batch[i]->out = versions[i];
    }
}

/* The commits' batch: one statement (store_game_commit_rows). */
static void run_commits(struct batch_req **batch, size_t n)
{
    const struct store_row *rows[BATCHER_MAX] = {0};
    unsigned epochs[BATCHER_MAX] = {0};
    enum store_status st[BATCHER_MAX];
    for (size_t i = 0; i < n; i++) {
        rows[i] = batch[i]->row;
        epochs[i] = batch[i]->epoch;
    }
    store_game_commit_rows(rows, epochs, n, st);
    for (size_t i = 0; i < n; i++) batch[i]->st = st[i];
}

static struct lane versions = {
    .max = BATCHER_MAX,
    .run = run_versions,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .woke = PTHREAD_COND_INITIALIZER,
};
static struct lane commits = {
    .max = BATCHER_COMMITS_MAX,
    .one_per_key = 1,
    .run = run_commits,
    .metered = 1,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .woke = PTHREAD_COND_INITIALIZER,
};

/* Queues `r` on its lane (its lock held). */
static void enqueue(struct batch_req *r)
{
    struct lane *l = r->lane;
    r->next = NULL;
    if (!l->head) l->tail = &l->head;
    *l->tail = r;
    l->tail = &r->next;
    if (l->metered) metrics_gauge_add(METRICS_COMMITS_QUEUED, 1);
    pthread_cond_signal(&l->work);
}

/* Waits, blocked, for request r (on the stack) of a running lane. */
static void wait_blocked(struct batch_req *r)
{
    struct lane *l = r->lane;
    pthread_cond_init(&r->cond, NULL);
    pthread_mutex_lock(&l->lock);
    enqueue(r);
    while (r->state != B_DONE) pthread_cond_wait(&r->cond, &l->lock);
    pthread_mutex_unlock(&l->lock);
    pthread_cond_destroy(&r->cond);
}

enum store_status batcher_version(const char *id, int *version)
{
    if (!versions.nthreads) {
        enum store_status s = store_game_version(id, version);
        if (s == STORE_NOT_FOUND) {
            *version = -1;
            s = STORE_OK;
        }
        return s;
    }
    struct batch_req r = {.lane = &versions, .out = -1, .st = STORE_ERROR, .state = B_QUEUED};
    snprintf(r.key, sizeof r.key, "%s", id);
    wait_blocked(&r);
    *version = (int)r.out;
    return r.st;
}

void batcher_cancel(struct batch_req *r)
{
    struct lane *l = r->lane;
    pthread_mutex_lock(&l->lock);
    if (r->state == B_QUEUED) {
        struct batch_req **p = &l->head;
        while (*p != r) p = &(*p)->next;
        *p = r->next;
        if (l->tail == &r->next) l->tail = p;
        if (l->metered) metrics_gauge_add(METRICS_COMMITS_QUEUED, -1);
        free(r->row);
        free(r);
    } else if (r->state == B_TAKEN) {
        r->cancelled = 1; /* the lane's thread frees it */
    } else {
        /* Done: the request must outlive the lane's wake of it. */
        while (r->waking) pthread_cond_wait(&l->woke, &l->lock);
        free(r->row);
        free(r);
    }
    pthread_mutex_unlock(&l->lock);
}

/* Queues an async request on lane `l` for `a`: r, or NULL (out of memory; `row` freed). */
static struct batch_req *submit(struct lane *l, const char *key, struct store_row *row,
                                unsigned epoch, struct api_async *a)
{
    struct batch_req *r = calloc(1, sizeof *r);
    if (!r) {
        free(row);
        return NULL;
    }
    r->lane = l;
    snprintf(r->key, sizeof r->key, "%s", key);
    r->row = row;
    r->epoch = epoch;
    r->out = -1;
    r->st = STORE_ERROR;
    r->async = a;
    r->state = B_QUEUED;
    pthread_mutex_lock(&l->lock);
    enqueue(r);
    pthread_mutex_unlock(&l->lock);
    return r;
}

int batcher_result(struct batch_req *r, long *out)
{
    struct lane *l = r->lane;
    pthread_mutex_lock(&l->lock);
    int done = r->state == B_DONE;
    enum store_status st = r->st;
    if (done) {
        if (out) *out = r->out;
        if (r->waking) {
            r->consumed = 1; /* the lane's thread frees it */
        } else {
            free(r->row);
            free(r);
        }
    }
    pthread_mutex_unlock(&l->lock);
    return done ? (int)st : -1;
}

/* api_async.cancel of a version question: the request ended (or asks directly) first. */
static void version_cancel(struct api_async *a)
{
    batcher_cancel(api_async_take(a));
}

int batcher_version_async(const char *id, struct api_async *a, int *version)
{
    struct batch_req *r = a->pending;
    if (!r) {
        if (!(r = submit(&versions, id, NULL, 0, a))) return STORE_ERROR;
        a->pending = r;
        a->cancel = version_cancel;
        return -1;
    }
    long v = -1;
    int st = batcher_result(r, &v);
    if (st >= 0) {
        *version = (int)v;
        api_async_take(a);
    }
    return st;
}

struct batch_req *batcher_commit_async(const char *id, struct store_row *row, unsigned epoch,
                                       struct api_async *a)
{
    if (!commits.nthreads) {
        free(row);
        return NULL;
    }
    return submit(&commits, id, row, epoch, a);
}

int batcher_wait(struct batch_req *r, long *out)
{
    struct lane *l = r->lane;
    pthread_mutex_lock(&l->lock);
    while (r->state != B_DONE || r->waking) pthread_cond_wait(&l->woke, &l->lock);
    pthread_mutex_unlock(&l->lock);
    return batcher_result(r, out);
}

/* Starts n threads of lane l. Returns 0 or -1. */
static int lane_start(struct lane *l, int n)
{
    l->stop = 0;
    for (int i = 0; i < n && i < LANE_THREADS_MAX; i++) {
        l->thread_arg[i] = (struct lane_thread){.lane = l, .index = i};
        l->ninflight[i] = 0;
        /* nthreads counts a thread before it may run: it reads nthreads (key_in_flight). */
        pthread_mutex_lock(&l->lock);
        l->nthreads = i + 1;
        pthread_mutex_unlock(&l->lock);
        if (pthread_create(&l->threads[i], NULL, lane_main, &l->thread_arg[i]) != 0) {
            pthread_mutex_lock(&l->lock);
            l->nthreads = i;
            pthread_mutex_unlock(&l->lock);
            return -1;
        }
    }
    return 0;
}

/* Stops lane l's threads once its queue is done. */
static void lane_stop(struct lane *l)
{
    if (!l->nthreads) return;
    pthread_mutex_lock(&l->lock);
    l->stop = 1;
    pthread_cond_broadcast(&l->work);
    pthread_mutex_unlock(&l->lock);
    for (int i = 0; i < l->nthreads; i++) pthread_join(l->threads[i], NULL);
    pthread_mutex_lock(&l->lock);
    l->nthreads = 0;
    pthread_mutex_unlock(&l->lock);
}

int batcher_start(int commit_threads)
{
    if (commit_threads > LANE_THREADS_MAX) commit_threads = LANE_THREADS_MAX;
    if (lane_start(&versions, 1) != 0 || lane_start(&commits, commit_threads) != 0) {
        batcher_stop();
        return -1;
    }
    return 0;
}

void batcher_stop(void)
{
    lane_stop(&commits);
    lane_stop(&versions);
}

int batcher_running(void)
{
    return versions.nthreads > 0;
}

int batcher_commits_running(void)
{
    return commits.nthreads > 0;
}
