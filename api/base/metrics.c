/* metrics.c: counters by route and status, a latency histogram, gauges, in Prometheus text.
 *
 * Every label set is bounded: routes are the router's templates (a fixed list, interned
 * here the first time each is seen), statuses a fixed list plus "other". The hot path is
 * a few relaxed atomic additions.
 */
#include "metrics.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define MAX_ROUTES 32 /* route templates at most; more are counted as "other" */

static const int statuses[] = {200, 201, 204, 304, 400, 401, 403, 404,
                               405, 409, 412, 413, 415, 429, 500, 503};
#define NSTATUS (sizeof statuses / sizeof statuses[0])

/* Upper bounds of the latency buckets, in microseconds (the last bucket is +Inf). */
static const long long bounds_us[] = {1000,    2500,    5000,     10000,    25000,
                                      50000,   100000,  250000,   500000,   1000000,
                                      2500000, 5000000, 10000000, 30000000, 60000000};
#define NBOUNDS (sizeof bounds_us / sizeof bounds_us[0])

/* One route's numbers. */
struct route_stats {
    _Atomic(const char *) name;        /* the template, or NULL while the slot is free */
    atomic_ulong count[NSTATUS + 1];   /* answers by statuses[] index; the last: other */
    atomic_ulong buckets[NBOUNDS + 1]; /* latencies by bucket (not cumulative); last: +Inf */
    atomic_ullong sum_us;              /* sum of latencies */
};

static struct route_stats routes[MAX_ROUTES + 1]; /* the last: "other" */
static atomic_int nroutes;                        /* slots in use */
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_ulong db_errors[2]; /* [0] query errors, [1] connection */
static atomic_long gauges[METRICS_GAUGE_COUNT];
static atomic_ulong deliveries[METRICS_DELIVERY_COUNT];
static atomic_ulong pngs[METRICS_PNG_COUNT];
static atomic_ulong commit_batches, commits_batched; /* metrics_commit_batch */
static atomic_ulong game_loads;                      /* metrics_game_load */
/* The retention sweep's runs on this server (metrics_sweep). */
static atomic_ulong sweep_games, sweep_lobbies, sweep_idem, sweep_runs, sweep_batches;
static atomic_ullong sweep_usec, sweep_last_usec;

/* The slot of `route`, interning it if new. */
static struct route_stats *route_slot(const char *route)
{
    if (!route) route = "other";
    int n = atomic_load(&nroutes);
    for (int i = 0; i < n; i++) {
        const char *name = atomic_load(&routes[i].name);
        if (name == route || strcmp(name, route) == 0) return &routes[i];
    }
    struct route_stats *slot = &routes[MAX_ROUTES];
    pthread_mutex_lock(&intern_lock);
    n = atomic_load(&nroutes);
    int i = 0;
    for (; i < n; i++)
        if (strcmp(atomic_load(&routes[i].name), route) == 0) break;
    if (i < n) {
        slot = &routes[i];
    } else if (n < MAX_ROUTES) {
        atomic_store(&routes[n].name, route);
        atomic_store(&nroutes, n + 1);
        slot = &routes[n];
    }
    pthread_mutex_unlock(&intern_lock);
    return slot;
}

void metrics_request(const char *route, int status, long long usec)
{
    struct route_stats *r = route_slot(route);
    size_t i = 0;
    while (i < NSTATUS && statuses[i] != status) i++;
    atomic_fetch_add_explicit(&r->count[i], 1, memory_order_relaxed);
    if (usec < 0) usec = 0;
    size_t b = 0;
    while (b < NBOUNDS && usec > bounds_us[b]) b++;
    atomic_fetch_add_explicit(&r->buckets[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&r->sum_us, (unsigned long long)usec, memory_order_relaxed);
}

void metrics_db_error(int unavailable)
{
    atomic_fetch_add_explicit(&db_errors[unavailable ? 1 : 0], 1, memory_order_relaxed);
}

void metrics_gauge_add(enum metrics_gauge g, long delta)
{
    atomic_fetch_add_explicit(&gauges[g], delta, memory_order_relaxed);
}

long metrics_gauge(enum metrics_gauge g)
{
    return atomic_load(&gauges[g]);
}

void metrics_delivery(enum metrics_delivery d)
{
    atomic_fetch_add_explicit(&deliveries[d], 1, memory_order_relaxed);
}

void metrics_board_png(enum metrics_png p)
{
    atomic_fetch_add_explicit(&pngs[p], 1, memory_order_relaxed);
}

void metrics_commit_batch(size_t n)
{
    atomic_fetch_add_explicit(&commit_batches, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&commits_batched, (unsigned long)n, memory_order_relaxed);
}

void metrics_game_load(void)
{
    atomic_fetch_add_explicit(&game_loads, 1, memory_order_relaxed);
}

void metrics_sweep(const struct metrics_sweep *s)
{
    atomic_fetch_add_explicit(&sweep_games, (unsigned long)s->games, memory_order_relaxed);
    atomic_fetch_add_explicit(&sweep_lobbies, (unsigned long)s->lobbies, memory_order_relaxed);
    atomic_fetch_add_explicit(&sweep_idem, (unsigned long)s->idempotency, memory_order_relaxed);
    atomic_fetch_add_explicit(&sweep_runs, 1, memory_order_relaxed);
    if (s->games || s->lobbies || s->idempotency)
        atomic_fetch_add_explicit(&sweep_batches, 1, memory_order_relaxed);
    unsigned long long us = s->usec > 0 ? (unsigned long long)s->usec : 0;
    atomic_fetch_add_explicit(&sweep_usec, us, memory_order_relaxed);
    atomic_store(&sweep_last_usec, us);
}

/*
 * The largest text metrics_render() writes. The label sets are bounded: at most
 * MAX_ROUTES + 1 routes, each with NSTATUS + 1 counters and NBOUNDS + 3 histogram lines
 * of under 150 bytes: under 200 KiB in all. Past it (never), as when memory runs out,
 * metrics_render() returns NULL.
 */
#define METRICS_TEXT_MAX (1u << 20)

/* Writes the bound of bucket `b` as Prometheus writes "le" values. */
static void put_le(struct buf *t, size_t b)
{
    if (b == NBOUNDS)
        buf_putf(t, "+Inf");
    else
        buf_putf(t, "%g", (double)bounds_us[b] / 1e6);
}

char *metrics_render(const struct metrics_db *db, size_t *len)
{
    struct buf t;
    buf_init(&t, METRICS_TEXT_MAX);
    int n = atomic_load(&nroutes);
    buf_putf(&t,
             "# HELP tilehall_http_requests_total HTTP requests answered, by route and status.\n"
             "# TYPE tilehall_http_requests_total counter\n");
    for (int r = 0; r <= MAX_ROUTES; r++) {
        if (r == n) r = MAX_ROUTES;
        const char *name = r == MAX_ROUTES ? "other" : atomic_load(&routes[r].name);
        for (size_t i = 0; i <= NSTATUS; i++) {
            unsigned long c = atomic_load(&routes[r].count[i]);
            if (!c) continue;
            if (i < NSTATUS)
                buf_putf(&t, "tilehall_http_requests_total{route=\"%s\",status=\"%d\"} %lu\n", name,
                         statuses[i], c);
            else
                buf_putf(&t, "tilehall_http_requests_total{route=\"%s\",status=\"other\"} %lu\n",
                         name, c);
        }
    }
    buf_putf(&t,
             "# HELP tilehall_http_request_duration_seconds Time from a request's arrival to its "
             "answer, by route.\n"
             "# TYPE tilehall_http_request_duration_seconds histogram\n");
    for (int r = 0; r <= MAX_ROUTES; r++) {
        if (r == n) r = MAX_ROUTES;
        const char *name = r == MAX_ROUTES ? "other" : atomic_load(&routes[r].name);
        unsigned long counts[NBOUNDS + 1], total = 0;
        for (size_t b = 0; b <= NBOUNDS; b++)
            total += counts[b] = atomic_load(&routes[r].buckets[b]);
        if (!total) continue;
        unsigned long cum = 0;
        for (size_t b = 0; b <= NBOUNDS; b++) {
            cum += counts[b];
            buf_putf(&t, "tilehall_http_request_duration_seconds_bucket{route=\"%s\",le=\"", name);
            put_le(&t, b);
            buf_putf(&t, "\"} %lu\n", cum);
        }
        buf_putf(&t, "tilehall_http_request_duration_seconds_sum{route=\"%s\"} %.6f\n", name,
                 (double)atomic_load(&routes[r].sum_us) / 1e6);
        buf_putf(&t, "tilehall_http_request_duration_seconds_count{route=\"%s\"} %lu\n", name, cum);
    }
    buf_putf(
        &t,
        "# HELP tilehall_db_errors_total Failed database operations: lost or refused connections "
        "(connection) and other errors (query).\n"
        "# TYPE tilehall_db_errors_total counter\n"
        "tilehall_db_errors_total{kind=\"connection\"} %lu\n"
        "tilehall_db_errors_total{kind=\"query\"} %lu\n",
        atomic_load(&db_errors[1]), atomic_load(&db_errors[0]));
    if (db && db->ok) {
        buf_putf(
            &t,
            "# HELP tilehall_games Games in the database, by status.\n"
            "# TYPE tilehall_games gauge\n"
            "tilehall_games{status=\"active\"} %ld\n"
            "tilehall_games{status=\"finished\"} %ld\n"
            "# HELP tilehall_webhook_deliveries_pending Webhook deliveries waiting (all servers).\n"
            "# TYPE tilehall_webhook_deliveries_pending gauge\n"
            "tilehall_webhook_deliveries_pending %ld\n",
            db->active, db->finished, db->deliveries);
    }
    buf_putf(&t,
             "# HELP tilehall_sse_streams Open server-sent event streams on this server.\n"
             "# TYPE tilehall_sse_streams gauge\n"
             "tilehall_sse_streams %ld\n"
             "# HELP tilehall_long_polls Long polls of this server waiting for an event.\n"
             "# TYPE tilehall_long_polls gauge\n"
             "tilehall_long_polls %ld\n",
             metrics_gauge(METRICS_SSE_STREAMS), metrics_gauge(METRICS_LONG_POLLS));
    buf_putf(&t,
             "# HELP tilehall_jobs_running Background jobs (computer players' and clocks' turns) "
             "this server's workers run now.\n"
             "# TYPE tilehall_jobs_running gauge\n"
             "tilehall_jobs_running %ld\n",
             metrics_gauge(METRICS_JOBS_RUNNING));
    buf_putf(&t,
             "# HELP tilehall_commits_queued Moves of requests waiting on this server for the "
             "next batch of commits.\n"
             "# TYPE tilehall_commits_queued gauge\n"
             "tilehall_commits_queued %ld\n"
             "# HELP tilehall_commit_batches_total Statements of this server that committed a "
             "batch of requests' moves.\n"
             "# TYPE tilehall_commit_batches_total counter\n"
             "tilehall_commit_batches_total %lu\n"
             "# HELP tilehall_commits_batched_total Requests' moves sent in those batches.\n"
             "# TYPE tilehall_commits_batched_total counter\n"
             "tilehall_commits_batched_total %lu\n"
             "# HELP tilehall_game_loads_total Games this server read from the database and "
             "decoded (its cache of games did not hold them).\n"
             "# TYPE tilehall_game_loads_total counter\n"
             "tilehall_game_loads_total %lu\n",
             metrics_gauge(METRICS_COMMITS_QUEUED), atomic_load(&commit_batches),
             atomic_load(&commits_batched), atomic_load(&game_loads));
    buf_putf(&t,
             "# HELP tilehall_webhook_attempts_total Webhook delivery attempts of this server, by "
             "result.\n"
             "# TYPE tilehall_webhook_attempts_total counter\n"
             "tilehall_webhook_attempts_total{result=\"delivered\"} %lu\n"
             "tilehall_webhook_attempts_total{result=\"retry\"} %lu\n"
             "tilehall_webhook_attempts_total{result=\"gave_up\"} %lu\n",
             atomic_load(&deliveries[METRICS_DELIVERED]), atomic_load(&deliveries[METRICS_RETRY]),
             atomic_load(&deliveries[METRICS_GAVE_UP]));
    buf_putf(&t,
             "# HELP tilehall_board_png_total board.png answers, by how the picture was made.\n"
             "# TYPE tilehall_board_png_total counter\n"
             "tilehall_board_png_total{source=\"rendered\"} %lu\n"
             "tilehall_board_png_total{source=\"cache\"} %lu\n",
             atomic_load(&pngs[METRICS_PNG_RENDERED]), atomic_load(&pngs[METRICS_PNG_CACHED]));
    buf_putf(
        &t,
        "# HELP tilehall_retention_games_deleted_total Games that ended more than RETENTION_DAYS "
        "ago deleted by this server, with all their rows.\n"
        "# TYPE tilehall_retention_games_deleted_total counter\n"
        "tilehall_retention_games_deleted_total %lu\n"
        "# HELP tilehall_retention_lobbies_expired_total Waiting games older than "
        "LOBBY_EXPIRY_HOURS aborted by this server.\n"
        "# TYPE tilehall_retention_lobbies_expired_total counter\n"
        "tilehall_retention_lobbies_expired_total %lu\n"
        "# HELP tilehall_retention_idempotency_purged_total Idempotent answers past their 24 "
        "hours deleted by this server.\n"
        "# TYPE tilehall_retention_idempotency_purged_total counter\n"
        "tilehall_retention_idempotency_purged_total %lu\n"
        "# HELP tilehall_retention_runs_total Runs of the retention sweep on this server.\n"
        "# TYPE tilehall_retention_runs_total counter\n"
        "tilehall_retention_runs_total %lu\n"
        "# HELP tilehall_retention_batches_total Runs of the sweep that deleted or expired "
        "something.\n"
        "# TYPE tilehall_retention_batches_total counter\n"
        "tilehall_retention_batches_total %lu\n"
        "# HELP tilehall_retention_run_seconds_total Time spent in the sweep's runs.\n"
        "# TYPE tilehall_retention_run_seconds_total counter\n"
        "tilehall_retention_run_seconds_total %.6f\n"
        "# HELP tilehall_retention_last_run_seconds How long the sweep's last run on this server "
        "took.\n"
        "# TYPE tilehall_retention_last_run_seconds gauge\n"
        "tilehall_retention_last_run_seconds %.6f\n",
        atomic_load(&sweep_games), atomic_load(&sweep_lobbies), atomic_load(&sweep_idem),
        atomic_load(&sweep_runs), atomic_load(&sweep_batches),
        (double)atomic_load(&sweep_usec) / 1e6, (double)atomic_load(&sweep_last_usec) / 1e6);
    return buf_take(&t, len); /* NULL after a failure */
}
