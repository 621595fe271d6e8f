/* cfg.c: configuration from the environment. */
#include "cfg.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cors.h"
#include "log.h"

/* Reads integer variable `name` in [lo, hi] into *out (default `def` when unset). */
static int env_int(const char *name, int def, int lo, int hi, int *out, char *err, int errlen)
{
    const char *s = getenv(name);
    if (!s || !*s) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        snprintf(err, (size_t)errlen, "%s must be an integer from %d to %d, not \"%s\"", name, lo,
                 hi, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* The value of `name`, or `def` when unset or empty. */
static const char *env_str(const char *name, const char *def)
{
    const char *s = getenv(name);
    return s && *s ? s : def;
}

/* An integer setting with a fixed default: its variable, default, range, and the member of
 * struct cfg it goes to. */
struct int_var {
    const char *name;
    int def, lo, hi;
    size_t at; /* offsetof(struct cfg, ...) */
};

#define AT(member) offsetof(struct cfg, member)

/* Every integer setting with a fixed default, in the order they are read: the first out of
 * its range is the one reported. */
static const struct int_var int_vars[] = {
    {"PORT", 8080, 0, 65535, AT(port)},
    {"THREADS", 4, 1, 256, AT(threads)},
    {"MAX_CONNECTIONS", 1000, 4, 100000, AT(max_connections)},
    {"CONN_TIMEOUT", 30, 5, 3600, AT(conn_timeout)},
    {"GAME_CACHE", 1024, 0, 1000000, AT(game_cache)},
    {"REQUEST_TIMEOUT", 10, 1, 3600, AT(request_timeout)},
    {"SLOW_REQUEST_MS", 1000, 0, 3600000, AT(slow_request_ms)},
    {"MAX_CONNECTIONS_PER_IP", 64, 0, 100000, AT(max_conn_per_ip)},
    {"RATE_LIMIT", 0, 0, 1000000, AT(rate_limit)},
    {"RATE_TABLE", 16384, 8, 10000000, AT(rate_table)},
    {"SSE_HEARTBEAT", 15, 1, 300, AT(sse_heartbeat)},
    {"MAX_STREAMS", 256, 0, 100000, AT(max_streams)},
    {"LIVE_FALLBACK_MS", 10000, 100, 600000, AT(live_fallback_ms)},
    {"WEBHOOK_WORKERS", 1, 0, 8, AT(webhook_workers)},
    {"WEBHOOK_TIMEOUT_MS", 10000, 100, 120000, AT(webhook_timeout_ms)},
    {"WEBHOOK_BACKOFF_MS", 2000, 10, 3600000, AT(webhook_backoff_ms)},
    {"WEBHOOK_BACKOFF_MAX_MS", 600000, 10, 86400000, AT(webhook_backoff_max_ms)},
    {"WEBHOOK_MAX_ATTEMPTS", 8, 1, 100, AT(webhook_max_attempts)},
    {"WEBHOOK_POLL_MS", 1000, 10, 60000, AT(webhook_poll_ms)},
    {"WEBHOOK_ALLOW_PRIVATE", 0, 0, 1, AT(webhook_allow_private)},
    /* The creation limit: on by default (routes_ops.c says why these figures). */
    {"CREATE_LIMIT_PER_MINUTE", 120, 0, 6000000, AT(create_per_minute)},
    {"CREATE_BURST", 30, 1, 10000000, AT(create_burst)},
    /* Webhook transfers at once (docs/clients.md "Webhooks"): in all, per receiver host, and
     * the circuit breaker that skips a host after failures in a row. */
    {"WEBHOOK_IN_FLIGHT", 256, 1, 4096, AT(webhook_in_flight)},
    {"WEBHOOK_PER_HOST", 8, 1, 4096, AT(webhook_per_host)},
    {"WEBHOOK_BREAKER_FAILURES", 5, 1, 1000, AT(webhook_breaker_failures)},
    {"WEBHOOK_BREAKER_MS", 30000, 100, 86400000, AT(webhook_breaker_ms)},
    /* Background jobs (jobs.h): computer players' turns and hints. */
    {"BOT_WORKERS", 1, 0, 64, AT(bot_workers)},
    /* The group commit of requests' moves (api/store/batcher.c). */
    {"COMMIT_THREADS", 1, 0, 8, AT(commit_threads)},
    {"JOBS_POLL_MS", 200, 10, 60000, AT(jobs_poll_ms)},
    {"JOBS_PER_ADDRESS", 1, 1, 64, AT(jobs_per_address)},
    {"HINT_QUEUE", 32, 1, 4096, AT(hint_queue)},
    {"HINT_PER_ADDRESS", 4, 1, 4096, AT(hint_per_address)},
    /* The analysis of finished games (api/jobs/analysis_run.c); ANALYSIS_WORKERS below. */
    {"ANALYSIS_ITERATIONS", 200, 0, 100000, AT(analysis_iterations)},
    {"ANALYSIS_DEALS", 48, 1, 10000, AT(analysis_deals)},
    {"ANALYSIS_LEASE_MS", 120000, 1000, 3600000, AT(analysis_lease_ms)},
    {"BOARD_PNG_WAIT_MS", 10000, 0, 600000, AT(png_wait_ms)},
    /* Fair shares per client address: event streams (routes_live.c). */
    {"MAX_STREAMS_PER_IP", 32, 0, 100000, AT(max_streams_per_ip)},
    /* The leaderboard's answers kept a moment (routes/board_cache.c). */
    {"LEADERBOARD_CACHE_MS", 1000, 0, 60000, AT(leaderboard_cache_ms)},
    /* A live seek's lapse unpolled (store_seeks.h): short only for tests. */
    {"SEEK_LAPSE_SECONDS", 30, 3, 300, AT(seek_lapse_s)},
    /* Retention (api/retention.c). */
    {"RETENTION_DAYS", 0, 0, 36500, AT(retention_days)},
    {"LOBBY_EXPIRY_HOURS", 72, 0, 876000, AT(lobby_expiry_hours)},
    {"RETENTION_BATCH", 500, 1, 10000, AT(retention_batch)},
    {"RETENTION_INTERVAL", 60, 1, 86400, AT(retention_interval)},
};

int cfg_load(struct cfg *c, char *err, int errlen)
{
    for (size_t i = 0; i < sizeof int_vars / sizeof int_vars[0]; i++) {
        const struct int_var *v = &int_vars[i];
        if (env_int(v->name, v->def, v->lo, v->hi, (int *)((char *)c + v->at), err, errlen))
            return -1;
    }
    /* Those whose default is another's (twice the rate) or the machine's (one analysis a
     * CPU, at most), and one given in seconds and kept in ms (the drain at SIGTERM, main.c). */
    if (env_int("RATE_BURST", 2 * c->rate_limit, 0, 10000000, &c->rate_burst, err, errlen))
        return -1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1) cpus = 1;
    if (cpus > 64) cpus = 64;
    if (env_int("ANALYSIS_WORKERS", (int)cpus, 0, (int)cpus, &c->analysis_workers, err, errlen))
        return -1;
    int drain_s = 0;
    if (env_int("DRAIN_TIMEOUT", 20, 0, 3600, &drain_s, err, errlen)) return -1;
    c->drain_timeout_ms = drain_s * 1000;
    /* libpq gives up connecting after PGCONNECT_TIMEOUT seconds (5 unless set), so that a
     * database that does not answer costs a request 503 after a while, not a hang. */
    if (setenv("PGCONNECT_TIMEOUT", env_str("PGCONNECT_TIMEOUT", "5"), 1) != 0) {
        snprintf(err, (size_t)errlen, "cannot set PGCONNECT_TIMEOUT");
        return -1;
    }
    c->database_url = env_str("DATABASE_URL", NULL);
    if (!c->database_url) {
        snprintf(err, (size_t)errlen, "DATABASE_URL is not set (make run sets one up)");
        return -1;
    }
    c->log_level = env_str("LOG_LEVEL", "info");
    if (log_set_level(c->log_level)) {
        snprintf(err, (size_t)errlen, "LOG_LEVEL must be debug, info, warn or error, not \"%s\"",
                 c->log_level);
        return -1;
    }
    c->port_file = env_str("PORT_FILE", NULL);
    c->migrations_dir = env_str("MIGRATIONS_DIR", "migrations");
    c->openapi_file = env_str("OPENAPI_FILE", "openapi.yaml");
    c->cors_origins = env_str("CORS_ORIGINS", "*");
    c->web_dir = env_str("WEB_DIR", "web");
    c->admin_token = env_str("ADMIN_TOKEN", NULL);
    const char *pub = env_str("PUBLIC_URL", "");
    size_t plen = strlen(pub);
    while (plen && pub[plen - 1] == '/') plen--;
    if (plen >= sizeof c->public_url ||
        (plen && strncmp(pub, "http://", 7) != 0 && strncmp(pub, "https://", 8) != 0) ||
        strpbrk(pub, " \"<>\\?#")) {
        snprintf(err, (size_t)errlen,
                 "PUBLIC_URL must be an http:// or https:// URL of at most %d bytes, without "
                 "spaces, quotes, query or fragment, not \"%.200s\"",
                 (int)sizeof c->public_url - 1, pub);
        return -1;
    }
    snprintf(c->public_url, sizeof c->public_url, "%.*s", (int)plen, pub);
    struct cors_config cors;
    if (cors_parse(c->cors_origins, &cors, err, (size_t)errlen)) return -1;
    /* The page's API origins: a list of exact origins as CORS_ORIGINS, never "*" (the page
     * sends its tokens there; routes_web.c puts them in its CSP and its meta). */
    c->web_api_origins = env_str("WEB_API_ORIGINS", "");
    if (*c->web_api_origins &&
        (cors_parse(c->web_api_origins, &cors, err, (size_t)errlen) || cors.any)) {
        snprintf(err, (size_t)errlen,
                 "WEB_API_ORIGINS must be origins like https://api.example:8443 separated by "
                 "commas (scheme, host, optional port; no path, no *), not \"%.200s\"",
                 c->web_api_origins);
        return -1;
    }
    return 0;
}
