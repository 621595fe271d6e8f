/* jobs.c: the worker threads that claim due jobs of the registered kinds (game/job_kinds.c)
 * and run in-memory tasks -- see jobs.h. */
#include "jobs.h"

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "metrics.h"
#include "req.h"
#include "store_jobs.h"
#include "store_live.h"
#include "store_games.h"

#define CLAIM_MAX                                                                                  \
    1                       /* jobs one claim takes: one, run at once (a job claimed and           \
                                 left waiting behind another would hold its owner's share) */
#define BACKOFF_MS    250   /* first retry delay of a failed job, doubling */
#define BACKOFF_MAX   60000 /* retry delay at most */
#define MAX_WORKERS   64    /* BOT_WORKERS at most (cfg.c) */
#define ATTEMPTS_WARN 5     /* a job claimed this often is logged as failing */
#define WORKER_NICE                                                                                \
    10 /* the workers' niceness: a computer player thinking on every                               \
          core still leaves the HTTP threads the CPU they ask for */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;    /* guards what follows */
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;      /* the lanes': a kick or the stop */
static pthread_cond_t task_wake = PTHREAD_COND_INITIALIZER; /* the task worker's: a task or
                                                               the stop */
static unsigned long kicks;                                 /* grows with every kick */
static struct jobs_task *tasks, **tasks_tail = &tasks;      /* the queue of tasks */
static int stopping;                                        /* 1 once jobs_stop() began */
static int draining;                                        /* 1 once jobs_drain() began */
static int busy;                                            /* workers claiming or running jobs */
static int running;                                         /* threads started (all kinds) */
static pthread_t threads[2 * MAX_WORKERS + 2];              /* the lanes' workers, the task one */
static pthread_t listener;                                  /* LISTENs STORE_JOBS_CHANNEL */
static int listening;                                       /* 1 when listener runs */
static int poll_ms = 200;                                   /* JOBS_POLL_MS */
static int per_owner = 1;                                   /* JOBS_PER_ADDRESS */
static const enum jobs_lane lane_of_worker[JOBS_NLANES] = {JOBS_LANE_SLOW, JOBS_LANE_FAST,
                                                           JOBS_LANE_ANALYSIS};

/* The value of `v` (one of the ints above), read under the lock. */
static int locked_read(const int *v)
{
    pthread_mutex_lock(&lock);
    int r = *v;
    pthread_mutex_unlock(&lock);
    return r;
}

int jobs_submit(struct jobs_task *t)
{
    pthread_mutex_lock(&lock);
    int ok = running > 0 && !stopping;
    if (ok) {
        t->next = NULL;
        *tasks_tail = t;
        tasks_tail = &t->next;
        pthread_cond_signal(&task_wake); /* its own: a lane's worker would not take it */
    }
    pthread_mutex_unlock(&lock);
    return ok ? 0 : -1;
}

int jobs_running(void)
{
    pthread_mutex_lock(&lock);
    int r = running > 0 && !stopping;
    pthread_mutex_unlock(&lock);
    return r;
}

int jobs_stopping(void)
{
    return locked_read(&stopping);
}

int jobs_draining(void)
{
    pthread_mutex_lock(&lock);
    int r = draining || stopping;
    pthread_mutex_unlock(&lock);
    return r;
}

void jobs_kick(void)
{
    pthread_mutex_lock(&lock);
    kicks++;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
}

/* Runs claimed job `j` and puts its row right: dropped, or due again after a backoff. */
static void run_job(const struct store_job *j)
{
    const struct jobs_kind *k = jobs_kind_of(j->kind);
    metrics_gauge_add(METRICS_JOBS_RUNNING, 1);
    enum jobs_result r = k ? k->run(j) : JOBS_DROP;
    metrics_gauge_add(METRICS_JOBS_RUNNING, -1);
    enum store_status s = STORE_OK;
    if (r == JOBS_DROP) {
        s = store_job_drop(j);
    } else if (r == JOBS_RETRY) {
        long delay = BACKOFF_MS;
        for (int i = 1; i < j->attempts && delay < BACKOFF_MAX; i++) delay *= 2;
        if (delay > BACKOFF_MAX) delay = BACKOFF_MAX;
        if (j->attempts >= ATTEMPTS_WARN) {
            char at[16];
            snprintf(at, sizeof at, "%d", j->attempts);
            log_kv(LOG_WARN, "job keeps failing", "game", j->game, "kind", j->kind, "attempts", at,
                   NULL);
        }
        s = store_job_retry(j, (int)delay);
    }
    /* If this fails the lease runs out and the job is claimed again: nothing is lost. */
    if (s != STORE_OK) log_kv(LOG_WARN, "job not put back", "game", j->game, "kind", j->kind, NULL);
}

/* 1 once jobs_drain() was called. */
static int is_draining(void)
{
    return locked_read(&draining);
}

/* Claims due jobs of the kinds of `lane` and runs them; once draining, the claimed ones not
 * begun go back, due at once for any server. Returns the number claimed (-1: the claim
 * failed). */
static int claim_and_run(enum jobs_lane lane)
{
    const char *names[JOBS_MAX_KINDS];
    int nnames = jobs_kinds_of_lane(lane, names);
    if (!nnames) return 0;
    struct store_job got[CLAIM_MAX];
    int n = 0;
    if (store_job_claim(names, nnames, per_owner, got, CLAIM_MAX, &n) != STORE_OK) return -1;
    for (int i = 0; i < n; i++) {
        if (!is_draining()) {
            run_job(&got[i]);
        } else if (store_job_retry(&got[i], 0) != STORE_OK) {
            log_kv(LOG_WARN, "draining: job not put back (its lease runs out)", "game", got[i].game,
                   "kind", got[i].kind, NULL);
        }
    }
    return n;
}

/* Adds `ms` to now on CLOCK_MONOTONIC into `ts`. */
static void deadline_in(struct timespec *ts, long ms)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

/* Lowers the calling worker's CPU priority (WORKER_NICE). */
static void worker_nice(void)
{
    /* Linux: a thread's niceness is its own (setpriority on its thread id). */
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WORKER_NICE) != 0)
        log_kv(LOG_DEBUG, "job worker keeps the default priority", NULL);
}

/* A worker of one lane (arg: a pointer into lane_of_worker): claims and runs that lane's
 * due jobs, never a task. */
static void *worker_main(void *arg)
{
    enum jobs_lane lane = *(const enum jobs_lane *)arg;
    worker_nice();
    unsigned long seen = (unsigned long)-1; /* claim at once at the start */
    long long next_poll = 0;
    pthread_mutex_lock(&lock);
    for (;;) {
        if (stopping) break;
        if (draining) { /* no more claims, until the stop */
            pthread_cond_wait(&wake, &lock);
            continue;
        }
        long long now = api_now_ms();
        if (seen != kicks || now >= next_poll) {
            seen = kicks;
            busy++;
            pthread_mutex_unlock(&lock);
            int n = claim_and_run(lane);
            pthread_mutex_lock(&lock);
            busy--;
            /* A full claim may have left more due: look again at once. */
            next_poll = n == CLAIM_MAX ? 0 : api_now_ms() + (n < 0 ? 1000 : poll_ms);
            continue;
        }
        struct timespec ts;
        deadline_in(&ts, (long)(next_poll - now));
        pthread_cond_timedwait(&wake, &lock, &ts);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* The task worker: runs the queued tasks (hints) in order, until the stop and the queue
 * is empty. It claims no stored job, so a task delays none. */
static void *task_main(void *arg)
{
    (void)arg;
    worker_nice();
    pthread_mutex_lock(&lock);
    for (;;) {
        if (tasks) {
            struct jobs_task *t = tasks;
            tasks = t->next;
            if (!tasks) tasks_tail = &tasks;
            pthread_mutex_unlock(&lock);
            t->run(t);
            pthread_mutex_lock(&lock);
            continue;
        }
        if (stopping) break;
        pthread_cond_wait(&task_wake, &lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* store_listener_drain() callback: another server's commit (or ours) wrote a job. */
static void on_notify(const char *payload, void *arg)
{
    (void)payload;
    (void)arg;
    jobs_kick();
}

/* The listener thread: wakes the workers when any server's commit wrote a job, so that
 * another server's computer player's turn is claimed at once, not at the next poll. */
static void *listener_main(void *arg)
{
    (void)arg;
    struct store_listener *l = NULL;
    long long retry_at = 0;
    while (!jobs_stopping()) {
        if (!l) {
            if (api_now_ms() < retry_at || !(l = store_listener_new_jobs())) {
                if (!l && api_now_ms() >= retry_at) retry_at = api_now_ms() + 1000;
                struct timespec ts = {0, 100 * 1000000L};
                nanosleep(&ts, NULL);
                continue;
            }
            jobs_kick(); /* what was written while not listening */
        }
        struct pollfd pf = {store_listener_fd(l), POLLIN, 0};
        if (poll(&pf, 1, 250) > 0 && store_listener_drain(l, on_notify, NULL) != 0) {
            store_listener_free(l);
            l = NULL;
        }
    }
    store_listener_free(l);
    return NULL;
}

/* Starts thread `i` of threads[] on `fn`. Returns 0 or -1 (logged). */
static int start_thread(int i, void *(*fn)(void *), void *arg)
{
    if (pthread_create(&threads[i], NULL, fn, arg) != 0) {
        log_kv(LOG_ERROR, "cannot start a job worker", NULL);
        return -1;
    }
    pthread_mutex_lock(&lock);
    running++;
    pthread_mutex_unlock(&lock);
    return 0;
}

int jobs_start(const struct cfg *cfg)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_destroy(&wake);
    pthread_cond_init(&wake, &ca);
    pthread_condattr_destroy(&ca);
    poll_ms = cfg->jobs_poll_ms;
    per_owner = cfg->jobs_per_address > 0 ? cfg->jobs_per_address : 1;
    int n = cfg->bot_workers < MAX_WORKERS ? cfg->bot_workers : MAX_WORKERS;
    if (n <= 0) return 0;
    /* The slow lane's BOT_WORKERS, the fast lane's one, the task worker, then the analysis
     * lane's ANALYSIS_WORKERS (at most one a CPU: cfg.c). */
    int na = cfg->analysis_workers < MAX_WORKERS ? cfg->analysis_workers : MAX_WORKERS;
    for (int i = 0; i < n + 2 + na; i++) {
        void *arg = i < n       ? (void *)&lane_of_worker[JOBS_LANE_SLOW]
                    : i == n    ? (void *)&lane_of_worker[JOBS_LANE_FAST]
                    : i > n + 1 ? (void *)&lane_of_worker[JOBS_LANE_ANALYSIS]
                                : NULL;
        if (start_thread(i, i == n + 1 ? task_main : worker_main, arg)) {
            jobs_stop();
            return -1;
        }
    }
    if (pthread_create(&listener, NULL, listener_main, NULL) != 0) {
        log_kv(LOG_ERROR, "cannot start the job listener", NULL);
        jobs_stop();
        return -1;
    }
    listening = 1;
    return 0;
}

void jobs_drain(void)
{
    pthread_mutex_lock(&lock);
    draining = 1;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
}

int jobs_busy(void)
{
    return locked_read(&busy);
}

void jobs_stop(void)
{
    pthread_mutex_lock(&lock);
    stopping = 1;
    int n = running;
    pthread_cond_broadcast(&wake);
    pthread_cond_broadcast(&task_wake);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n; i++) pthread_join(threads[i], NULL);
    if (listening) pthread_join(listener, NULL);
    listening = 0;
    pthread_mutex_lock(&lock);
    running = 0;
    pthread_mutex_unlock(&lock);
}
