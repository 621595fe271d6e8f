/* routes_ops.c: /healthz, /readyz, /openapi.yaml, /metrics, and the creation limit. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/service.h"
#include "log.h"
#include "metrics.h"
#include "problem.h"
#include "routes.h"
#include "store.h"

#define MAX_SPEC_BYTES (4 * 1024 * 1024)

static char *spec;      /* the OpenAPI document, or NULL when it could not be read */
static size_t spec_len; /* its bytes */

/* The database's figures for /metrics, counted at most once per DB_COUNTS_MS: counting
 * games scans the table, and every scraper (and every server) would do it each time. */
#define DB_COUNTS_MS 5000
static pthread_mutex_t counts_lock = PTHREAD_MUTEX_INITIALIZER;
static struct metrics_db counts; /* guarded by counts_lock */
static long long counts_at = -1; /* guarded by counts_lock: api_now_ms() when counted */

int routes_creation_limited(const struct api_request *req, struct api_response *resp)
{
    /* The game service's creation limit (game/limit.c), which a rematch counts against too. */
    struct game_result r = {.retry_after = game_limit_take(req->client_addr, 1)};
    if (!r.retry_after) return 0;
    routes_game_outcome(resp, GAME_RATE_LIMITED, &r);
    return 1;
}

int routes_creation_limited_unkeyed(const struct api_request *req, struct api_response *resp)
{
    return !req->idempotency_key && routes_creation_limited(req, resp);
}

int routes_creation_limited_keyed(const struct api_request *req, struct api_response *resp)
{
    return req->idempotency_key && routes_creation_limited(req, resp);
}

int routes_ops_init(const struct cfg *cfg)
{
    if (game_limit_init(cfg->create_per_minute, cfg->create_burst, cfg->rate_table)) {
        log_kv(LOG_ERROR, "cannot set up the creation limit", NULL);
        return -1;
    }
    FILE *f = fopen(cfg->openapi_file, "rb");
    if (!f) {
        log_kv(LOG_WARN, "cannot read the OpenAPI document; /openapi.yaml answers 404", "file",
               cfg->openapi_file, NULL);
        return 0;
    }
    spec = malloc(MAX_SPEC_BYTES + 1);
    spec_len = spec ? fread(spec, 1, MAX_SPEC_BYTES + 1, f) : 0;
    int bad = !spec || ferror(f) || spec_len > MAX_SPEC_BYTES;
    fclose(f);
    if (bad) {
        free(spec);
        spec = NULL;
        log_kv(LOG_ERROR, "cannot read the OpenAPI document", "file", cfg->openapi_file, NULL);
        routes_ops_free();
        return -1;
    }
    return 0;
}

void routes_ops_free(void)
{
    game_limit_free();
    free(spec);
    spec = NULL;
}

void routes_healthz(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    (void)req;
    static const char ok[] = "{\"status\":\"ok\"}";
    api_reply_copy(resp, 200, "application/json", ok, sizeof ok - 1);
}

/*
 * 200 only when requests will succeed: the ping runs on this thread's connection after
 * the check every statement gets (store_db.c: a connection that is dead, or stale since
 * a connection was lost or the listener came back, is replaced first), so a 200 says
 * that a connection checked so works. Every other thread replaces its own
 * connection the same way before its next statement, and one that was waiting to
 * reconnect tries at once, as a connection was made since.
 */
void routes_readyz(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    if (req->draining) {
        /* SIGTERM came: a load balancer sends this server nothing more. */
        problem_reply(resp, 503, "draining",
                      "This server is shutting down; send requests to another one.");
        resp->retry_after = 1;
        return;
    }
    if (store_ping() != STORE_OK) {
        problem_unavailable(resp);
        return;
    }
    routes_healthz(req, resp, NULL);
}

void routes_openapi(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    (void)req;
    if (!spec) {
        problem_reply(resp, 404, "not_found", "The OpenAPI document is not installed.");
        return;
    }
    api_reply_copy(resp, 200, "application/yaml", spec, spec_len);
}

void routes_metrics(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    (void)req;
    struct metrics_db db = {0};
    long long now = api_now_ms();
    pthread_mutex_lock(&counts_lock);
    if (counts_at < 0 || now - counts_at >= DB_COUNTS_MS) {
        counts.ok = store_counts(&counts.active, &counts.finished, &counts.deliveries) == STORE_OK;
        counts_at = counts.ok ? now : -1; /* without the database: ask again next time */
    }
    db = counts;
    pthread_mutex_unlock(&counts_lock);
    size_t len = 0;
    char *text = metrics_render(&db, &len);
    if (!text) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    api_reply_take(resp, 200, "text/plain; version=0.0.4; charset=utf-8", text);
    resp->len = len;
}
