/* router.h: maps a request's method and path to its handler (404, 405, 415 on the way). */
#ifndef API_ROUTER_H
#define API_ROUTER_H

#include "req.h"

/*
 * Answers `req` into `resp` (which starts zeroed): runs the handler of the path and
 * method, or answers 404 not_found / 405 method_not_allowed (with Allow) / 415 for a
 * body that is not JSON. Never fails: every outcome is an answer.
 */
void api_handle(const struct api_request *req, struct api_response *resp);

/*
 * The route template of `path` ("/v1/games/{id}/events" ...), a static string, or
 * "other" for a path that no route has: a bounded label for metrics.
 */
const char *api_route_template(const char *path);

#endif
