/* routes_ops.c: /healthz, /readyz, /openapi.yaml, /metrics. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "problem.h"
#include "routes.h"
#include "store.h"

#define MAX_SPEC_BYTES (4 * 1024 * 1024)

static char *spec;      /* the OpenAPI document, or NULL when it could not be read */
static size_t spec_len; /* its bytes */
static const int counted[] = {200, 201, 304, 400, 401, 403, 404, 405,
                              409, 412, 413, 415, 429, 500, 503};
#define NCOUNTED (sizeof counted / sizeof counted[0])
static atomic_ulong requests[NCOUNTED + 1]; /* by counted[] index; the last: other */

int routes_ops_init(const struct cfg *cfg)
{
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
        return -1;
    }
    return 0;
}

void routes_ops_free(void)
{
    free(spec);
    spec = NULL;
}

void routes_count(int status)
{
    size_t i = 0;
    while (i < NCOUNTED && counted[i] != status) i++;
    atomic_fetch_add(&requests[i], 1);
}

void routes_healthz(const struct api_request *req, struct api_response *resp)
{
    (void)req;
    static const char ok[] = "{\"status\":\"ok\"}";
    api_reply_copy(resp, 200, "application/json", ok, sizeof ok - 1);
}

void routes_readyz(const struct api_request *req, struct api_response *resp)
{
    (void)req;
    if (store_ping() != STORE_OK) {
        problem_unavailable(resp);
        return;
    }
    routes_healthz(req, resp);
}

void routes_openapi(const struct api_request *req, struct api_response *resp)
{
    (void)req;
    if (!spec) {
        problem_reply(resp, 404, "not_found", "The OpenAPI document is not installed.");
        return;
    }
    api_reply_copy(resp, 200, "application/yaml", spec, spec_len);
}

void routes_metrics(const struct api_request *req, struct api_response *resp)
{
    (void)req;
    char buf[2048];
    size_t o = 0;
    o += (size_t)snprintf(buf + o, sizeof buf - o,
                          "# HELP tilehall_http_requests_total HTTP requests answered, by status.\n"
                          "# TYPE tilehall_http_requests_total counter\n");
    for (size_t i = 0; i <= NCOUNTED && o < sizeof buf; i++) {
        char code[8];
        if (i < NCOUNTED)
            snprintf(code, sizeof code, "%d", counted[i]);
        else
            snprintf(code, sizeof code, "other");
        o += (size_t)snprintf(buf + o, sizeof buf - o,
                              "tilehall_http_requests_total{status=\"%s\"} %lu\n", code,
                              atomic_load(&requests[i]));
    }
    if (o >= sizeof buf) o = sizeof buf - 1;
    api_reply_copy(resp, 200, "text/plain; version=0.0.4", buf, o);
}
