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

#endif
