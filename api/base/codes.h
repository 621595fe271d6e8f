/* codes.h: the one list of the problem codes the service answers with (api/codes.c): the
 * engine's status names (core/status.c) and the service's own codes. openapi.yaml's
 * ErrorCode is exactly this list (scripts/spec-check.js checks it, and that every code
 * literal in api/ is in it); the tests check codes against it through api_code_known(). */
#ifndef API_CODES_H
#define API_CODES_H

#include <stddef.h>

/* 1 when `code` is a code the service may answer with: one of the service's own codes or
 * an engine status name other than "ok"; else 0 (NULL included). */
int api_code_known(const char *code);

/* The number of the service's own codes (engine status names not counted). */
size_t api_service_code_count(void);

/* The service's own code number `i` (0 to api_service_code_count() - 1), or NULL past it. */
const char *api_service_code(size_t i);

#endif
