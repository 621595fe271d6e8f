/* problem.h: RFC 9457 problem details with a stable `code`, and engine statuses as HTTP. */
#ifndef API_PROBLEM_H
#define API_PROBLEM_H

#include "req.h"
#include "status.h"

/*
 * Answers `status` with a problem+json body {"type","title","status","detail","code"}.
 * `code` is the stable snake_case word clients branch on; `detail` a sentence (may be
 * NULL: the title is used). Replaces any body `resp` had.
 */
void problem_reply(struct api_response *resp, int status, const char *code, const char *detail);

/* The HTTP status an engine status maps to (400 setup, 403 turn, 409 illegal, 500 corrupt). */
int problem_http_status(enum cc_status s);

/* Answers the engine status `s` (not CC_OK) as a problem, code cc_status_name(s). */
void problem_engine(struct api_response *resp, enum cc_status s);

/* Answers 503 database_unavailable with Retry-After. */
void problem_unavailable(struct api_response *resp);

#endif
