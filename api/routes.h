/* routes.h: the handlers of the HTTP API, one per operation. */
#ifndef API_ROUTES_H
#define API_ROUTES_H

#include "cfg.h"
#include "req.h"

/* Each handler answers `req` into `resp`; path parameters come already split out. */

/* GET /healthz: the process is alive. */
void routes_healthz(const struct api_request *req, struct api_response *resp);
/* GET /readyz: the database answers. */
void routes_readyz(const struct api_request *req, struct api_response *resp);
/* GET /openapi.yaml: the spec, as read at start-up. */
void routes_openapi(const struct api_request *req, struct api_response *resp);
/* GET /metrics: request counters in the Prometheus text format. */
void routes_metrics(const struct api_request *req, struct api_response *resp);

/* Reads what the operations routes serve (the spec file). Returns 0 or -1 (logged). */
int routes_ops_init(const struct cfg *cfg) __attribute__((warn_unused_result));
/* Frees what routes_ops_init() read. */
void routes_ops_free(void);
/* Counts an answered request for /metrics. Thread-safe. */
void routes_count(int status);

/* GET /v1/rulesets */
void routes_rulesets(const struct api_request *req, struct api_response *resp);
/* GET /v1/rulesets/{ruleset}/tiles */
void routes_tiles(const struct api_request *req, struct api_response *resp, const char *ruleset);

/* POST /v1/games */
void routes_game_create(const struct api_request *req, struct api_response *resp);
/* GET /v1/games/{id} */
void routes_game_get(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/scores */
void routes_scores(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/events?after=&wait= */
void routes_events(const struct api_request *req, struct api_response *resp, const char *id);

/* POST /v1/games/{id}/draw */
void routes_draw(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/placements */
void routes_placements_get(const struct api_request *req, struct api_response *resp,
                           const char *id);
/* POST /v1/games/{id}/placements */
void routes_placements_post(const struct api_request *req, struct api_response *resp,
                            const char *id);

#endif
