/* metrics.h: the server's counters and histograms, written for GET /metrics (Prometheus text). */
#ifndef API_METRICS_H
#define API_METRICS_H

#include <stddef.h>

#include "nodiscard.h"

/*
 * Counts an answered request of `route` (a route template such as "/v1/games/{id}", a
 * static string: the label set stays bounded) with HTTP `status`, answered `usec`
 * microseconds after it arrived. Thread-safe, lock-free once the route was seen.
 */
void metrics_request(const char *route, int status, long long usec);

/* Counts a failed database operation: `unavailable` 1 for a lost or refused connection,
 * 0 for any other error. Thread-safe. */
void metrics_db_error(int unavailable);

/* The gauges the server keeps up to date itself. */
enum metrics_gauge {
    METRICS_SSE_STREAMS = 0, /* open server-sent event streams */
    METRICS_LONG_POLLS,      /* long polls waiting for an event */
    METRICS_JOBS_RUNNING,    /* stored jobs (a computer player's or a clock's turn) running */
    METRICS_COMMITS_QUEUED,  /* requests' commits waiting for a batch (batcher.c) */
    METRICS_GAUGE_COUNT
};

/* Adds `delta` to gauge `g`. Thread-safe. */
void metrics_gauge_add(enum metrics_gauge g, long delta);

/* The current value of gauge `g`. */
long metrics_gauge(enum metrics_gauge g);

/* How a webhook delivery attempt ended. */
enum metrics_delivery {
    METRICS_DELIVERED = 0, /* answered 2xx */
    METRICS_RETRY,         /* failed, will be tried again */
    METRICS_GAVE_UP,       /* failed for the last time */
    METRICS_DELIVERY_COUNT
};

/* Counts a webhook delivery attempt. Thread-safe. */
void metrics_delivery(enum metrics_delivery d);

/* How a board.png answer was made. */
enum metrics_png {
    METRICS_PNG_RENDERED = 0, /* rendered for this request */
    METRICS_PNG_CACHED,       /* copied from the cache of rendered pictures */
    METRICS_PNG_COUNT
};

/* Counts a board.png answer. Thread-safe. */
void metrics_board_png(enum metrics_png p);

/* Counts a batch of `n` commits made in one statement (batcher.c). Thread-safe. */
void metrics_commit_batch(size_t n);

/* Counts a game read and decoded from the database (games.c: not found in its cache).
 * Thread-safe. */
void metrics_game_load(void);

/* What one run of the retention sweep did (api/retention.c). */
struct metrics_sweep {
    long games;       /* games deleted (finished or aborted past RETENTION_DAYS) */
    long lobbies;     /* waiting games expired (aborted) */
    long idempotency; /* idempotent answers past their 24 hours deleted */
    long long usec;   /* how long the run took */
};

/* Counts one run of the retention sweep. Thread-safe. */
void metrics_sweep(const struct metrics_sweep *s);

/* Database-derived values shown with the counters (read at scrape time). */
struct metrics_db {
    int ok;          /* 1 when the values below were read */
    long active;     /* games being played */
    long finished;   /* games over */
    long deliveries; /* webhook deliveries waiting (not delivered, not given up) */
};

/*
 * Writes every metric in the Prometheus text format (version 0.0.4) with `db` (may be
 * NULL). Returns a malloc'd NUL-terminated text of *len bytes (caller frees), or NULL when
 * memory runs out (or the text would pass its limit of 1 MiB, which it never nears).
 */
char *metrics_render(const struct metrics_db *db, size_t *len) NODISCARD;

#endif
