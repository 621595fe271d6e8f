/* live.c: the hub of waits for events: a LISTEN connection on a thread of its own, watches
 * by game, deadlines, a slow fallback recheck.
 *
 * Watches live in hash buckets by game id under one lock. The hub's thread polls the
 * listening connection's socket and a pipe (written to when a watch with an earlier
 * deadline arrives, and at stop), at most until the next deadline or recheck. Firing a
 * watch takes it out of its bucket and marks it `firing`; the fire() calls run outside
 * the lock, and live_watch_remove() waits until they are over, so an owner may free its
 * watch as soon as remove returns.
 *
 * Commits notify only while their game is watched (migrations/0004): before a watch is
 * added, the game's lease in the database is made to run past the watch's deadline
 * (store_game_watch), unless this server already holds one that does. A watch is added
 * before its owner reads the events, so that a commit either sees the lease (and
 * notifies) or comes before the read. Every owner re-adds its watch at its deadline at the
 * latest, which renews the lease while anybody waits; once nobody does, it runs out.
 */
#include "live.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "metrics.h"
#include "store.h"
#include "store_games.h"
#include "store_live.h"

#define NBUCKETS     256   /* hash buckets of watches */
#define MAX_SLEEP_MS 1000  /* the hub looks at its clock at least this often */
#define RECONNECT_MS 1000  /* between attempts to connect the listener */
#define LEASE_MS     60000 /* a lease runs this long past the deadline of the watch taking it */
#define LEASE_MARGIN 5000  /* a lease must outlast a watch's deadline by this much */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fired_cond = PTHREAD_COND_INITIALIZER; /* a batch of fires is over */
static struct live_watch *buckets[NBUCKETS];                 /* guarded by lock */
static long long sleep_until; /* guarded by lock: when the hub wakes up next (0: awake) */
static int stop_flag;         /* guarded by lock */
static atomic_int running;    /* 1 while the thread runs */
static pthread_t thread;
static int wake_pipe[2] = {-1, -1}; /* the hub polls [0]; [1] wakes it */
static int fallback_ms = 10000;
static void (*event_hook)(void);

/* A lease this server holds on a game's notifications (kept in the buckets of watches). */
struct lease {
    char game[AUTH_UUID_LEN + 1];
    long long until_ms; /* api_now_ms() time before which the database's lease runs */
    struct lease *next;
};
static struct lease *leases[NBUCKETS]; /* guarded by lock */
static long long next_sweep_ms;        /* guarded by lock: when leases are freed next */

/* FNV-1a of the lower-cased id. */
static unsigned bucket_of(const char *game)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)game; *p; p++)
        h = (h ^ (uint32_t)tolower(*p)) * 16777619u;
    return h % NBUCKETS;
}

/* Wakes the hub's poll. */
static void poke(void)
{
    if (wake_pipe[1] < 0) return;
    char c = 1;
    ssize_t n = write(wake_pipe[1], &c, 1);
    (void)n; /* a full pipe wakes it too */
}

/* Takes `w` out of its bucket (lock held). */
static void unlink_watch(struct live_watch *w)
{
    if (w->prev)
        w->prev->next = w->next;
    else
        buckets[w->bucket] = w->next;
    if (w->next) w->next->prev = w->prev;
    w->prev = w->next = NULL;
    w->linked = 0;
}

/* The lease of `game` in bucket `b`, or NULL (lock held). */
static struct lease *lease_find(const char *game, unsigned b)
{
    for (struct lease *l = leases[b]; l; l = l->next)
        if (strcmp(l->game, game) == 0) return l;
    return NULL;
}

/* Frees the leases that ran out (lock held): the games nobody here watched for a while. */
static void sweep_leases(long long now)
{
    for (unsigned b = 0; b < NBUCKETS; b++) {
        struct lease **p = &leases[b];
        while (*p) {
            struct lease *l = *p;
            if (l->until_ms <= now) {
                *p = l->next;
                free(l);
            } else {
                p = &l->next;
            }
        }
    }
}

/*
 * Makes sure that the game of `w` notifies its commits until after the watch's deadline:
 * takes or renews the lease in the database unless this server holds one long enough.
 * Without the database, the watch relies on its deadline and the fallback recheck.
 */
static void lease_for(const struct live_watch *w, unsigned b)
{
    long long now = api_now_ms();
    long long need = (w->deadline_ms > 0 ? w->deadline_ms : now + LEASE_MS) + LEASE_MARGIN;
    pthread_mutex_lock(&lock);
    struct lease *l = lease_find(w->game, b);
    int held = l && l->until_ms >= need;
    if (now >= next_sweep_ms) {
        sweep_leases(now);
        next_sweep_ms = now + LEASE_MS;
    }
    pthread_mutex_unlock(&lock);
    if (held) return;
    long long span = need - now + LEASE_MS;
    if (span > 24LL * 3600 * 1000) span = 24LL * 3600 * 1000;
    int exists = 0;
    if (store_game_watch(w->game, (int)span, &exists) != STORE_OK) {
        log_kv(LOG_DEBUG, "no lease on the game's notifications", "game", w->game, NULL);
        return;
    }
    if (!exists) return; /* no such game: nothing to remember (ids are the client's) */
    pthread_mutex_lock(&lock);
    if (!(l = lease_find(w->game, b)) && (l = calloc(1, sizeof *l))) {
        snprintf(l->game, sizeof l->game, "%s", w->game);
        l->next = leases[b];
        leases[b] = l;
    }
    if (l && l->until_ms < now + span) l->until_ms = now + span;
    pthread_mutex_unlock(&lock);
}

void live_watch_add(struct live_watch *w)
{
    for (char *p = w->game; *p; p++) *p = (char)tolower((unsigned char)*p);
    /* Chat messages (few, and rate-limited), seeks' ends and tournaments' events (one a
     * round) notify whether anybody watches: no lease. */
    if (w->kind == LIVE_KIND_EVENTS) lease_for(w, bucket_of(w->game));
    pthread_mutex_lock(&lock);
    w->bucket = bucket_of(w->game);
    w->prev = NULL;
    w->next = buckets[w->bucket];
    if (w->next) w->next->prev = w;
    buckets[w->bucket] = w;
    w->linked = 1;
    int early = w->deadline_ms > 0 && sleep_until > 0 && w->deadline_ms < sleep_until;
    pthread_mutex_unlock(&lock);
    if (early) poke();
}

void live_watch_remove(struct live_watch *w)
{
    pthread_mutex_lock(&lock);
    if (w->linked) unlink_watch(w);
    while (w->firing) pthread_cond_wait(&fired_cond, &lock);
    pthread_mutex_unlock(&lock);
}

void live_set_event_hook(void (*fn)(void))
{
    event_hook = fn;
}

int live_running(void)
{
    return atomic_load(&running);
}

/* Moves `w` (linked) onto the list `*fired` with `reasons` (lock held). */
static void take(struct live_watch *w, int reasons, struct live_watch **fired)
{
    unlink_watch(w);
    w->firing = reasons; /* nonzero */
    w->fired_next = *fired;
    *fired = w;
}

/* Calls the fire() of every watch on `fired` (lock not held), then ends their firing. */
static void fire_all(struct live_watch *fired)
{
    if (!fired) return;
    for (struct live_watch *w = fired; w; w = w->fired_next) w->fire(w, w->firing);
    pthread_mutex_lock(&lock);
    while (fired) {
        struct live_watch *next = fired->fired_next;
        fired->firing = 0; /* from here on its owner may free it */
        fired = next;
    }
    pthread_cond_broadcast(&fired_cond);
    pthread_mutex_unlock(&lock);
}

/* Fires every watch with `reasons`. */
static void fire_every(int reasons)
{
    struct live_watch *fired = NULL;
    pthread_mutex_lock(&lock);
    for (unsigned b = 0; b < NBUCKETS; b++)
        while (buckets[b]) take(buckets[b], reasons, &fired);
    pthread_mutex_unlock(&lock);
    fire_all(fired);
}

/* A notification "<game id>:<seq>" (or of a chat message, a seek's end, a tournament's
 * event): fires the watches of that id and kind that it passes. */
static void on_notify(const char *payload, void *arg)
{
    (void)arg;
    const char *colon = strchr(payload, ':');
    if (!colon || colon - payload != AUTH_UUID_LEN) return;
    char game[AUTH_UUID_LEN + 1];
    for (int i = 0; i < AUTH_UUID_LEN; i++) game[i] = (char)tolower((unsigned char)payload[i]);
    game[AUTH_UUID_LEN] = '\0';
    /* "<game>:chat:<seq>" for a chat message (0026), "<seek>:seek:1" for a seek's end
     * (0029), "<tournament>:tourney:<seq>" for a tournament's event (0037), else
     * "<game>:<seq>" for events. (0034's "<tournament>:tournament:<seq>" reads as seq 0 of
     * no game's: it fires no watch, only the event hook below.) */
    enum live_kind kind = LIVE_KIND_EVENTS;
    const char *rest = colon + 1;
    if (strncmp(rest, "chat:", 5) == 0) {
        kind = LIVE_KIND_CHAT;
        rest += 5;
    } else if (strncmp(rest, "seek:", 5) == 0) {
        kind = LIVE_KIND_SEEK;
        rest += 5;
    } else if (strncmp(rest, "tourney:", 8) == 0) {
        kind = LIVE_KIND_TOURNEY;
        rest += 8;
    }
    long seq = strtol(rest, NULL, 10);
    struct live_watch *fired = NULL;
    pthread_mutex_lock(&lock);
    struct live_watch *w = buckets[bucket_of(game)];
    while (w) {
        struct live_watch *next = w->next;
        if (seq > w->after && w->kind == kind && strcmp(w->game, game) == 0)
            take(w, LIVE_EVENT, &fired);
        w = next;
    }
    pthread_mutex_unlock(&lock);
    fire_all(fired);
    if (event_hook) event_hook();
}

/* Fires the watches whose deadline passed; returns the next deadline (0: none). */
static long long fire_deadlines(long long now)
{
    struct live_watch *fired = NULL;
    long long next = 0;
    pthread_mutex_lock(&lock);
    for (unsigned b = 0; b < NBUCKETS; b++) {
        struct live_watch *w = buckets[b];
        while (w) {
            struct live_watch *n = w->next;
            if (w->deadline_ms > 0 && w->deadline_ms <= now)
                take(w, LIVE_DEADLINE, &fired);
            else if (w->deadline_ms > 0 && (next == 0 || w->deadline_ms < next))
                next = w->deadline_ms;
            w = n;
        }
    }
    pthread_mutex_unlock(&lock);
    fire_all(fired);
    return next;
}

/* The listening connection `*l` was lost: closes it. Every thread's connection is
 * suspect now (the database may have restarted): each is replaced before its next use. */
static void listener_lost(struct store_listener **l)
{
    store_listener_free(*l);
    *l = NULL;
    store_conns_stale();
}

static void *hub_main(void *arg)
{
    (void)arg;
    struct store_listener *l = NULL;
    long long next_connect = 0, next_recheck = api_now_ms() + fallback_ms;
    int had_listener = 0; /* a listener was connected before: a new one means a comeback */
    for (;;) {
        long long now = api_now_ms();
        if (!l && now >= next_connect) {
            l = store_listener_new();
            next_connect = now + RECONNECT_MS;
            /* The database is back: connections made while it was on its way back (or
             * by then not yet seen dead) are replaced, and threads waiting to
             * reconnect may try at once. */
            if (l && had_listener) store_conns_stale();
            if (l) had_listener = 1;
            if (l) {
                log_kv(LOG_INFO, "listening for events", "channel", STORE_EVENTS_CHANNEL, NULL);
                /* Events committed while there was no listener: everyone looks again. */
                fire_every(LIVE_RECHECK);
                if (event_hook) event_hook();
            }
        }
        if (now >= next_recheck) {
            next_recheck = now + fallback_ms;
            if (l && store_listener_ping(l)) listener_lost(&l);
            fire_every(LIVE_RECHECK);
        }
        long long next = fire_deadlines(now);
        long long until = next_recheck;
        if (next > 0 && next < until) until = next;
        if (!l && next_connect < until) until = next_connect;
        if (until > now + MAX_SLEEP_MS) until = now + MAX_SLEEP_MS;
        pthread_mutex_lock(&lock);
        int stop = stop_flag;
        sleep_until = until;
        pthread_mutex_unlock(&lock);
        if (stop) break;
        struct pollfd fds[2] = {{wake_pipe[0], POLLIN, 0},
                                {l ? store_listener_fd(l) : -1, POLLIN, 0}};
        int timeout = until > now ? (int)(until - now) : 0;
        int rc = poll(fds, l ? 2 : 1, timeout);
        pthread_mutex_lock(&lock);
        sleep_until = 0;
        pthread_mutex_unlock(&lock);
        if (rc < 0 && errno != EINTR) {
            log_kv(LOG_ERROR, "live hub: poll failed", NULL);
            usleep(100000);
            continue;
        }
        if (rc > 0 && (fds[0].revents & POLLIN)) {
            char buf[64];
            while (read(wake_pipe[0], buf, sizeof buf) > 0) {
            }
        }
        if (l && rc > 0 && (fds[1].revents & (POLLIN | POLLERR | POLLHUP))) {
            if (store_listener_drain(l, on_notify, NULL)) {
                listener_lost(&l);
                next_connect = api_now_ms(); /* at once; then once a second */
            }
        }
    }
    store_listener_free(l);
    return NULL;
}

int live_start(const struct cfg *cfg)
{
    fallback_ms = cfg->live_fallback_ms;
    if (pipe(wake_pipe) != 0) {
        log_kv(LOG_ERROR, "live hub: no pipe", NULL);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        int fl = fcntl(wake_pipe[i], F_GETFL);
        fcntl(wake_pipe[i], F_SETFL, fl | O_NONBLOCK);
        fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
    }
    stop_flag = 0;
    if (pthread_create(&thread, NULL, hub_main, NULL) != 0) {
        log_kv(LOG_ERROR, "live hub: no thread", NULL);
        close(wake_pipe[0]);
        close(wake_pipe[1]);
        wake_pipe[0] = wake_pipe[1] = -1;
        return -1;
    }
    atomic_store(&running, 1);
    return 0;
}

void live_stop(void)
{
    if (!atomic_load(&running)) return;
    pthread_mutex_lock(&lock);
    stop_flag = 1;
    pthread_mutex_unlock(&lock);
    poke();
    pthread_join(thread, NULL);
    atomic_store(&running, 0);
    fire_every(LIVE_STOP);
    pthread_mutex_lock(&lock);
    sweep_leases(LLONG_MAX);
    pthread_mutex_unlock(&lock);
    close(wake_pipe[0]);
    close(wake_pipe[1]);
    wake_pipe[0] = wake_pipe[1] = -1;
}

/* A long poll's wait (api_async.pending). */
struct live_wait {
    struct live_watch watch; /* first */
    struct api_async *a;     /* the request */
};

/* live_watch.fire of a long poll: runs the request again. */
static void wait_fire(struct live_watch *w, int reasons)
{
    (void)reasons;
    struct live_wait *lw = (struct live_wait *)w;
    lw->a->wake(lw->a->wake_arg);
}

/* api_async.cancel of a long poll (also its end). */
static void wait_cancel(struct api_async *a)
{
    struct live_wait *lw = api_async_take(a);
    if (!lw) return;
    live_watch_remove(&lw->watch);
    free(lw);
    metrics_gauge_add(METRICS_LONG_POLLS, -1);
}

/* live_wait_arm() and its kin of the other kinds: a wait of `kind`. */
static int wait_arm(struct api_async *a, const char *game, int after, long long deadline_ms,
                    enum live_kind kind)
{
    if (!a || !a->wake || !atomic_load(&running)) return -1;
    struct live_wait *lw = a->pending;
    if (lw && a->cancel != wait_cancel) return -1;
    if (lw) {
        live_watch_remove(&lw->watch);
    } else {
        if (!(lw = calloc(1, sizeof *lw))) return -1;
        lw->a = a;
        lw->watch.fire = wait_fire;
        a->pending = lw;
        a->cancel = wait_cancel;
        metrics_gauge_add(METRICS_LONG_POLLS, 1);
    }
    snprintf(lw->watch.game, sizeof lw->watch.game, "%s", game);
    lw->watch.after = after;
    lw->watch.kind = kind;
    lw->watch.deadline_ms = deadline_ms;
    live_watch_add(&lw->watch);
    return 0;
}

int live_wait_arm(struct api_async *a, const char *game, int after, long long deadline_ms)
{
    return wait_arm(a, game, after, deadline_ms, LIVE_KIND_EVENTS);
}

int live_wait_arm_chat(struct api_async *a, const char *game, int after, long long deadline_ms)
{
    return wait_arm(a, game, after, deadline_ms, LIVE_KIND_CHAT);
}

int live_wait_arm_seek(struct api_async *a, const char *seek, long long deadline_ms)
{
    return wait_arm(a, seek, 0, deadline_ms, LIVE_KIND_SEEK);
}

int live_wait_arm_tourney(struct api_async *a, const char *tournament, int after,
                          long long deadline_ms)
{
    return wait_arm(a, tournament, after, deadline_ms, LIVE_KIND_TOURNEY);
}

void live_wait_end(struct api_async *a)
{
    if (a && a->pending && a->cancel == wait_cancel) wait_cancel(a);
}
