/* connguard.c: deadlines for connections while their requests arrive (see connguard.h). */
#include "connguard.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "mono.h"

#define SWEEP_MS 100 /* how often the deadlines are looked at: a deadline is kept to this */

struct connguard {
    int fd;                        /* the connection's socket */
    atomic_llong deadline_ms;      /* monotonic ms it must be done by, 0 for none */
    atomic_llong accepted_ms;      /* when it was accepted */
    atomic_int served;             /* 1 once its first answer is done */
    atomic_int arriving;           /* 1 while a request arrives (or may: a new connection) */
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

/* Answers and shuts down every connection past its deadline (lock held). */
static void sweep(long long now)
{
    for (struct connguard *g = entries; g; g = g->next) {
        long long d = atomic_load(&g->deadline_ms);
        if (d == 0 || now < d) continue;
        atomic_store(&g->deadline_ms, 0);
        /* Nothing else writes to a socket whose request is still arriving, and the entry
         * is unregistered (under this lock) before its socket is closed. An idle
         * keep-alive connection is only closed, as at its idle timeout: a 408 there could
         * cross a request the client is just sending and be taken for its answer. */
        if (atomic_load(&g->arriving))
            (void)!send(g->fd, answer_bytes, answer_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        shutdown(g->fd, SHUT_RDWR);
        atomic_fetch_add(&timeouts, 1);
    }
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

struct connguard *connguard_open(int fd)
{
    struct connguard *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->fd = fd;
    long long now = mono_ms();
    atomic_store(&g->accepted_ms, now);
    atomic_store(&g->arriving, 1);
    atomic_store(&g->deadline_ms, now + atomic_load(&request_ms));
    pthread_mutex_lock(&lock);
    g->next = entries;
    if (entries) entries->prev = g;
    entries = g;
    pthread_mutex_unlock(&lock);
    return g;
}

void connguard_close(struct connguard *g)
{
    if (!g) return;
    pthread_mutex_lock(&lock);
    if (g->prev)
        g->prev->next = g->next;
    else if (entries == g)
        entries = g->next;
    if (g->next) g->next->prev = g->prev;
    pthread_mutex_unlock(&lock);
    free(g);
}

void connguard_request_line(struct connguard *g)
{
    if (!g) return;
    /* The first request's time counts from the accept: its first byte came after it. */
    long long from = atomic_load(&g->served) ? mono_ms() : atomic_load(&g->accepted_ms);
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

unsigned long long connguard_timeouts(void)
{
    return atomic_load(&timeouts);
}
