/* connguard.c: deadlines for connections while their requests arrive (see connguard.h). */
#include "connguard.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "dlist.h"
#include "mono.h"
#include "peer.h"

#define SWEEP_MS 100 /* how often the deadlines are looked at: a deadline is kept to this */

struct connguard {
    int fd;                        /* the connection's socket */
    atomic_llong deadline_ms;      /* monotonic ms it must be done by, 0 for none */
    atomic_llong accepted_ms;      /* when it was accepted */
    atomic_int served;             /* 1 once its first answer is done */
    atomic_int arriving;           /* 1 while a request arrives (or may: a new connection) */
    atomic_llong since_ms;         /* when its request began to arrive (accept, request line) */
    uint8_t peer[PEER_KEY_LEN];    /* its client's address key */
    int shed;                      /* lock: 1 once closed under pressure (or timed out) */
    int weight;                    /* lock, during a shed: its address's waiting connections */
    struct connguard *prev, *next; /* the list of entries (lock) */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct connguard *entries; /* every registered connection (lock) */
static int running;               /* 1 while the thread runs (lock) */
static int stopping;              /* 1: the thread is to end (lock) */
static pthread_t thread;
static atomic_int request_ms = 10000;
static atomic_int idle_ms = 30000;
static char *answer_bytes; /* the 408 response sent past a deadline */
static size_t answer_len;
static atomic_ullong timeouts;
static atomic_ullong shed_count; /* closed under pressure */
static atomic_int limit;         /* MAX_CONNECTIONS, 0: no pressure handling */
static int open_count;           /* lock: entries registered and not closed by the guard */

/* Answers 408 (when its request is arriving) and shuts down `g`'s socket (lock held). */
static void cut(struct connguard *g)
{
    atomic_store(&g->deadline_ms, 0);
    /* Nothing else writes to a socket whose request is still arriving, and the entry
     * is unregistered (under this lock) before its socket is closed. An idle
     * keep-alive connection is only closed, as at its idle timeout: a 408 there could
     * cross a request the client is just sending and be taken for its answer. */
    if (atomic_load(&g->arriving))
        (void)!send(g->fd, answer_bytes, answer_len, MSG_NOSIGNAL | MSG_DONTWAIT);
    shutdown(g->fd, SHUT_RDWR);
    if (!g->shed) open_count--;
    g->shed = 1;
}

/* qsort: by address key. */
static int by_peer(const void *a, const void *b)
{
    const struct connguard *x = *(struct connguard *const *)a, *y = *(struct connguard *const *)b;
    return memcmp(x->peer, y->peer, PEER_KEY_LEN);
}

/* qsort: the heaviest address first, then the oldest. */
static int by_shed_order(const void *a, const void *b)
{
    const struct connguard *x = *(struct connguard *const *)a, *y = *(struct connguard *const *)b;
    if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
    long long ax = atomic_load(&x->accepted_ms), ay = atomic_load(&y->accepted_ms);
    return ax < ay ? -1 : ax > ay;
}

/* Past CONNGUARD_SHED_PCT % of the limit: closes connections without a complete request
 * (the heaviest address's first, the oldest first) down to CONNGUARD_PRESSURE_PCT %. Lock
 * held. */
static void shed(void)
{
    long lim = atomic_load(&limit);
    if (lim <= 0 || open_count * 100L < lim * CONNGUARD_SHED_PCT) return;
    long keep = lim * CONNGUARD_PRESSURE_PCT / 100;
    size_t n = 0;
    for (struct connguard *g = entries; g; g = g->next) n += !g->shed;
    struct connguard **c = malloc((n ? n : 1) * sizeof *c);
    if (!c) return;
    size_t k = 0;
    for (struct connguard *g = entries; g && k < n; g = g->next)
        if (!g->shed && atomic_load(&g->deadline_ms) != 0) c[k++] = g; /* waits for a request */
    qsort(c, k, sizeof *c, by_peer);
    for (size_t i = 0; i < k;) {
        size_t j = i;
        while (j < k && !memcmp(c[j]->peer, c[i]->peer, PEER_KEY_LEN)) j++;
        for (size_t m = i; m < j; m++) c[m]->weight = (int)(j - i);
        i = j;
    }
    qsort(c, k, sizeof *c, by_shed_order);
    for (size_t i = 0; i < k && open_count > keep; i++) {
        cut(c[i]);
        atomic_fetch_add(&shed_count, 1);
    }
    free(c);
}

/* Answers and shuts down every connection past its deadline (lock held). */
static void sweep(long long now)
{
    long lim = atomic_load(&limit);
    int pressure = lim > 0 && open_count * 100L >= lim * CONNGUARD_PRESSURE_PCT;
    for (struct connguard *g = entries; g; g = g->next) {
        long long d = atomic_load(&g->deadline_ms);
        if (d == 0 || g->shed) continue;
        /* Under pressure a request gets less time to arrive. */
        if (pressure && atomic_load(&g->arriving) &&
            atomic_load(&g->since_ms) + CONNGUARD_PRESSURE_REQUEST_MS < d)
            d = atomic_load(&g->since_ms) + CONNGUARD_PRESSURE_REQUEST_MS;
        if (now < d) continue;
        cut(g);
        atomic_fetch_add(&timeouts, 1);
    }
    shed();
}

static void *guard_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!stopping) {
        mono_wait_ms(&wake, &lock, SWEEP_MS);
        if (!stopping) sweep(mono_ms());
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int connguard_start(int request_s, int idle_s, const char *answer, size_t len)
{
    char *copy = malloc(len ? len : 1);
    if (!copy) return -1;
    memcpy(copy, answer, len);
    pthread_mutex_lock(&lock);
    answer_bytes = copy;
    answer_len = len;
    stopping = 0;
    atomic_store(&request_ms, request_s * 1000);
    atomic_store(&idle_ms, idle_s * 1000);
    int rc = pthread_create(&thread, NULL, guard_main, NULL);
    running = rc == 0;
    if (!running) {
        answer_bytes = NULL;
        free(copy);
    }
    pthread_mutex_unlock(&lock);
    return running ? 0 : -1;
}

void connguard_stop(void)
{
    pthread_mutex_lock(&lock);
    int was = running;
    stopping = 1;
    running = 0;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    if (was) pthread_join(thread, NULL);
    /* Entries belong to their connections: the HTTP layer closes them all before this. */
    pthread_mutex_lock(&lock);
    free(answer_bytes);
    answer_bytes = NULL;
    answer_len = 0;
    pthread_mutex_unlock(&lock);
}

void connguard_set_limit(int max_connections)
{
    atomic_store(&limit, max_connections);
}

struct connguard *connguard_open(int fd, const struct sockaddr *peer)
{
    struct connguard *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->fd = fd;
    peer_key(peer, g->peer);
    long long now = mono_ms();
    atomic_store(&g->accepted_ms, now);
    atomic_store(&g->since_ms, now);
    atomic_store(&g->arriving, 1);
    atomic_store(&g->deadline_ms, now + atomic_load(&request_ms));
    pthread_mutex_lock(&lock);
    DLIST_PUSH(entries, g, prev, next);
    open_count++;
    shed(); /* at once: the room a newcomer needs should not wait for the next sweep */
    pthread_mutex_unlock(&lock);
    return g;
}

void connguard_close(struct connguard *g)
{
    if (!g) return;
    pthread_mutex_lock(&lock);
    DLIST_UNLINK(entries, g, prev, next);
    if (!g->shed) open_count--;
    pthread_mutex_unlock(&lock);
    free(g);
}

void connguard_request_line(struct connguard *g)
{
    if (!g) return;
    /* The first request's time counts from the accept: its first byte came after it. */
    long long from = atomic_load(&g->served) ? mono_ms() : atomic_load(&g->accepted_ms);
    atomic_store(&g->since_ms, from);
    atomic_store(&g->arriving, 1);
    atomic_store(&g->deadline_ms, from + atomic_load(&request_ms));
}

void connguard_answering(struct connguard *g)
{
    if (!g) return;
    atomic_store(&g->deadline_ms, 0);
    atomic_store(&g->arriving, 0);
}

void connguard_idle(struct connguard *g)
{
    if (!g) return;
    atomic_store(&g->served, 1);
    atomic_store(&g->arriving, 0);
    atomic_store(&g->deadline_ms, mono_ms() + atomic_load(&idle_ms));
}

unsigned long long connguard_shed(void)
{
    return atomic_load(&shed_count);
}

unsigned long long connguard_timeouts(void)
{
    return atomic_load(&timeouts);
}
