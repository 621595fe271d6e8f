/* ratelimit.c: token buckets in a set-associative table, one lock per set of 8. */
#include "ratelimit.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define WAYS 8 /* addresses per set: a new address evicts the stalest of its set */

/* One address and its bucket. */
struct bucket {
    uint8_t addr[16];  /* IPv6, or IPv4 mapped into ::ffff:0:0/96 */
    int used;          /* 0: a free slot */
    double tokens;     /* requests it may make now */
    long long last_ms; /* when tokens was brought up to date */
};

/* WAYS buckets under one lock. */
struct set {
    pthread_mutex_t lock;     /* guards ways[] */
    struct bucket ways[WAYS]; /* the addresses of this set */
};

struct ratelimit {
    struct set *sets; /* the table */
    size_t nsets;     /* sets in the table */
    double rate;      /* tokens added per second */
    double burst;     /* tokens a bucket holds at most */
};

static struct ratelimit *all_requests; /* ratelimit_init(), or NULL while off */

struct ratelimit *ratelimit_new(double per_second, int burst_size, int slots)
{
    if (!(per_second > 0)) return NULL;
    struct ratelimit *rl = calloc(1, sizeof *rl);
    if (!rl) return NULL;
    size_t n = ((size_t)(slots > 0 ? slots : 1) + WAYS - 1) / WAYS;
    rl->sets = calloc(n, sizeof *rl->sets);
    if (!rl->sets) {
        free(rl);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) pthread_mutex_init(&rl->sets[i].lock, NULL);
    rl->nsets = n;
    rl->rate = per_second;
    rl->burst = burst_size >= 1 ? burst_size : 1;
    return rl;
}

void ratelimit_delete(struct ratelimit *rl)
{
    if (!rl) return;
    for (size_t i = 0; i < rl->nsets; i++) pthread_mutex_destroy(&rl->sets[i].lock);
    free(rl->sets);
    free(rl);
}

int ratelimit_init(int per_second, int burst_size, int slots)
{
    ratelimit_free();
    if (per_second <= 0) return 0;
    all_requests = ratelimit_new(per_second, burst_size, slots);
    return all_requests ? 0 : -1;
}

void ratelimit_free(void)
{
    ratelimit_delete(all_requests);
    all_requests = NULL;
}

/* The 16-byte key of `addr`; 0, or -1 for a family without one. */
static int key_of(const struct sockaddr *addr, uint8_t key[16])
{
    if (addr->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)(const void *)addr;
        memset(key, 0, 10);
        key[10] = key[11] = 0xFF;
        memcpy(key + 12, &a->sin_addr, 4);
        return 0;
    }
    if (addr->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)(const void *)addr;
        memcpy(key, &a->sin6_addr, 16);
        return 0;
    }
    return -1;
}

/* Monotonic milliseconds. */
static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* FNV-1a of the key. */
static uint64_t hash(const uint8_t key[16])
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < 16; i++) h = (h ^ key[i]) * 1099511628211ULL;
    return h;
}

static int take(struct ratelimit *rl, const struct sockaddr *addr, int n, int consume);

int ratelimit_take_from(struct ratelimit *rl, const struct sockaddr *addr)
{
    return take(rl, addr, 1, 1);
}

int ratelimit_take_n(struct ratelimit *rl, const struct sockaddr *addr, int n)
{
    return take(rl, addr, n, 1);
}

int ratelimit_peek(struct ratelimit *rl, const struct sockaddr *addr)
{
    return take(rl, addr, 1, 0);
}

/* Takes `n` tokens of `rl` for `addr` when `consume`, else only looks: see ratelimit.h. */
static int take(struct ratelimit *rl, const struct sockaddr *addr, int n, int consume)
{
    uint8_t key[16];
    if (!rl || !addr || key_of(addr, key)) return 0;
    struct set *s = &rl->sets[hash(key) % rl->nsets];
    long long now = now_ms();
    int wait = 0;
    pthread_mutex_lock(&s->lock);
    struct bucket *b = NULL, *stalest = &s->ways[0];
    for (int i = 0; i < WAYS && !b; i++) {
        struct bucket *w = &s->ways[i];
        if (w->used && memcmp(w->addr, key, 16) == 0)
            b = w;
        else if (!w->used ? stalest->used : (stalest->used && w->last_ms < stalest->last_ms))
            stalest = w;
    }
    if (!b) {
        b = stalest;
        memcpy(b->addr, key, 16);
        b->used = 1;
        b->tokens = rl->burst;
        b->last_ms = now;
    }
    if (now > b->last_ms) {
        b->tokens += (double)(now - b->last_ms) / 1000.0 * rl->rate;
        if (b->tokens > rl->burst) b->tokens = rl->burst;
        b->last_ms = now;
    }
    double need = n < 1 ? 1.0 : n > rl->burst ? rl->burst : (double)n;
    if (b->tokens >= need) {
        if (consume) b->tokens -= need;
    } else {
        double secs = (need - b->tokens) / rl->rate; /* until enough whole tokens */
        wait = secs >= 3600 ? 3600 : (int)secs + ((double)(int)secs < secs);
        if (wait < 1) wait = 1;
    }
    pthread_mutex_unlock(&s->lock);
    return wait;
}

int ratelimit_take(const struct sockaddr *addr)
{
    return ratelimit_take_from(all_requests, addr);
}
