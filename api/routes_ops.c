/* routes_ops.c: /healthz, /readyz, /openapi.yaml, /metrics, and the creation limit. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "metrics.h"
#include "problem.h"
#include "ratelimit.h"
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

/*
 * The creation limit: a token bucket per client address for what creates rows that stay
 * (a game is about 1 KB, at most about 4.5 KB, and nothing expires yet). Its defaults, 30
 * at once and 120 a minute (2 a second) on average, are meant never to meet an honest
 * client: a person starts a game every few minutes, and a lobby or tournament runner
 * that sets up 30 tables at once gets them at once; a game takes at least two requests for
 * each of its 70-odd turns, so one address that kept 2 creations a second busy would have
 * to play some 300 actions a second. A flood from one address is held to 2 games a second
 * (about 170 MB a day at most instead of 16 GB an hour). Behind a reverse proxy every client
 * is the proxy's address: raise it or limit there (README "Limits and security").
 */
static struct ratelimit *creations; /* NULL while off (CREATE_LIMIT_PER_MINUTE=0) */

int routes_creation_limited(const struct api_request *req, struct api_response *resp)
{
    int wait = ratelimit_take_from(creations, req->client_addr);
    if (!wait) return 0;
    problem_reply(resp, 429, "rate_limited",
                  "Too many creations from this address; retry after Retry-After seconds.");
    resp->retry_after = wait;
    return 1;
}

int routes_ops_init(const struct cfg *cfg)
{
    ratelimit_delete(creations);
    creations = NULL;
    if (cfg->create_per_minute > 0) {
        creations =
            ratelimit_new(cfg->create_per_minute / 60.0, cfg->create_burst, cfg->rate_table);
        if (!creations) {
            log_kv(LOG_ERROR, "cannot set up the creation limit", NULL);
            return -1;
        }
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
    ratelimit_delete(creations);
    creations = NULL;
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
