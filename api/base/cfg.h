/* cfg.h: the server's configuration, read from the environment. */
#ifndef API_CFG_H
#define API_CFG_H

#include "nodiscard.h"

struct cfg {
    int port;                   /* PORT: TCP port to serve on, 0 one the kernel picks (8080) */
    const char *port_file;      /* PORT_FILE: the port served on is written there, or NULL */
    int threads;                /* THREADS: HTTP worker threads = DB connections (default 4) */
    int max_connections;        /* MAX_CONNECTIONS: open HTTP connections (default 1000) */
    int conn_timeout;           /* CONN_TIMEOUT: idle seconds before a close (default 30) */
    int game_cache;             /* GAME_CACHE: games cached per server, 0 none (default 1024) */
    int request_timeout;        /* REQUEST_TIMEOUT: seconds to receive one request (default 10) */
    int slow_request_ms;        /* SLOW_REQUEST_MS: answers slower are logged as warnings (1000) */
    int max_conn_per_ip;        /* MAX_CONNECTIONS_PER_IP: per client address, 0 any (default 64) */
    int rate_limit;             /* RATE_LIMIT: requests a second per address, 0 off (default 0) */
    int rate_burst;             /* RATE_BURST: requests at once per address (default 2 x limit) */
    int rate_table;             /* RATE_TABLE: addresses the rate limiter keeps (default 16384) */
    const char *database_url;   /* DATABASE_URL: libpq connection string (required) */
    const char *log_level;      /* LOG_LEVEL: debug, info, warn, error (default info) */
    const char *migrations_dir; /* MIGRATIONS_DIR: the numbered SQL files (default migrations) */
    const char *openapi_file;   /* OPENAPI_FILE: served at /openapi.yaml (default openapi.yaml) */
    const char *cors_origins;   /* CORS_ORIGINS: "*" or exact origins, comma-separated (*) */
    const char *web_dir;        /* WEB_DIR: the web client's files, served at / (default web) */
    const char *
        web_api_origins; /* WEB_API_ORIGINS: other API origins the web page may use,
                            comma-separated; "" only its own (docs/operations.md "Configuration") */
    /* Live updates and webhooks (docs/clients.md "Event streams", "Webhooks"). */
    int sse_heartbeat;          /* SSE_HEARTBEAT: seconds between heartbeats of a stream (15) */
    int max_streams;            /* MAX_STREAMS: open event streams at most, then 503 (256) */
    int live_fallback_ms;       /* LIVE_FALLBACK_MS: waits look again this often (10000) */
    int webhook_workers;        /* WEBHOOK_WORKERS: delivery threads, 0 none (1) */
    int webhook_timeout_ms;     /* WEBHOOK_TIMEOUT_MS: one delivery attempt at most (10000) */
    int webhook_backoff_ms;     /* WEBHOOK_BACKOFF_MS: first retry delay, doubling (2000) */
    int webhook_backoff_max_ms; /* WEBHOOK_BACKOFF_MAX_MS: retry delay at most (600000) */
    int webhook_max_attempts;   /* WEBHOOK_MAX_ATTEMPTS: attempts per event (8) */
    int webhook_poll_ms;       /* WEBHOOK_POLL_MS: workers look for due retries this often (1000) */
    int webhook_allow_private; /* WEBHOOK_ALLOW_PRIVATE: 1 lets webhooks reach private and
                                  loopback addresses (0) */
    /* The creation limit per client address (README "Limits and security"). */
    int create_per_minute; /* CREATE_LIMIT_PER_MINUTE: creations a minute, 0 off (120) */
    int create_burst;      /* CREATE_BURST: creations at once (30) */
    /* Webhook transfers at once (docs/clients.md "Webhooks"), per delivery thread. */
    int webhook_in_flight;        /* WEBHOOK_IN_FLIGHT: transfers in flight at most (256) */
    int webhook_per_host;         /* WEBHOOK_PER_HOST: of them to one receiver host (8) */
    int webhook_breaker_failures; /* WEBHOOK_BREAKER_FAILURES: failures in a row that open
                                     a host's circuit breaker (5) */
    int webhook_breaker_ms;       /* WEBHOOK_BREAKER_MS: the host is skipped this long, doubling
                                     while it keeps failing (30000) */
    /* Background jobs and computer players (docs/clients.md "Computer players and hints"). */
    int commit_threads;   /* COMMIT_THREADS: threads that commit requests' moves in batches, 0
                             each alone (1) */
    int bot_workers;      /* BOT_WORKERS: job worker threads (bots, hints), 0 none (1) */
    int jobs_poll_ms;     /* JOBS_POLL_MS: workers look for due jobs this often (200) */
    int jobs_per_address; /* JOBS_PER_ADDRESS: running jobs of one lane whose games one
                             address created, at most, across the servers (1) */
    int hint_queue;       /* HINT_QUEUE: hints queued or being thought at most (32) */
    int hint_per_address; /* HINT_PER_ADDRESS: of them asked from one address (4) */
    /* The analysis of finished games (docs/clients.md "Analysis of a game"). */
    int analysis_workers;    /* ANALYSIS_WORKERS: threads running analyses, at most one per
                                CPU (the CPUs online) */
    int analysis_iterations; /* ANALYSIS_ITERATIONS: the hard search of each position (200) */
    int analysis_deals;      /* ANALYSIS_DEALS: deals each candidate move is valued over (48) */
    int analysis_lease_ms;   /* ANALYSIS_LEASE_MS: a claimed analysis is another server's to
                                take after this (120000) */
    /* Rolling restarts (docs/operations.md "Rolling restarts"). */
    int drain_timeout_ms; /* DRAIN_TIMEOUT (seconds): after SIGTERM, how long requests, streams
                             and jobs in progress get to finish before the exit (20 s) */
    /* board.png (README "Limits and security"). */
    int png_wait_ms; /* BOARD_PNG_WAIT_MS: a picture waits for a render slot at most (10000) */
    /* Fair shares per client address (docs/operations.md "Limits"). */
    int max_streams_per_ip; /* MAX_STREAMS_PER_IP: event streams of one address, 0 any (32) */
    /* Retention (docs/operations.md "Retention"), run by the job workers (api/retention.c). */
    int retention_days;     /* RETENTION_DAYS: ended games are deleted after, 0 never (0) */
    int lobby_expiry_hours; /* LOBBY_EXPIRY_HOURS: waiting games are aborted after, 0 never (72) */
    int retention_batch;    /* RETENTION_BATCH: games a batch deletes at most (500) */
    int retention_interval; /* RETENTION_INTERVAL: seconds between sweeps with nothing left (60) */
    /* Ratings (docs/operations.md "Configuration"; api/routes/board_cache.h). */
    int leaderboard_cache_ms; /* LEADERBOARD_CACHE_MS: a leaderboard page is answered from
                                 memory this long after it was read, 0 never (1000) */
    int seek_lapse_s;         /* SEEK_LAPSE_SECONDS: a live seek lapses this long unpolled (30) */
    /* The operator (docs/operations.md "The operator"; api/routes_admin.c). */
    const char *admin_token; /* ADMIN_TOKEN: the operator's bearer token, NULL: no operator */
    /* Where the server is reached from outside, for links in chat apps' messages
     * (api/jobs/webhook_apps.c): scheme and authority, maybe a path, no trailing '/'. */
    char public_url[512]; /* PUBLIC_URL: "https://tiles.example", "" for none */
};

/*
 * Fills `c` from the environment (pointers point into the environment, which must
 * outlive `c`). Returns 0, or -1 after writing what is wrong to `err` (size `errlen`).
 */
int cfg_load(struct cfg *c, char *err, int errlen) NODISCARD;

#endif
