/* canon.h: a request body's meaning as bytes (issue 14, "Exact contract" item 5): what
 * makes two requests with one Idempotency-Key "the same" is their canonical JSON, not
 * their bytes. */
#ifndef API_CANON_H
#define API_CANON_H

#include <stddef.h>

#include "nodiscard.h"

/*
 * The canonical form of JSON text `body` (`len` bytes): keys of every object sorted by
 * their bytes (UTF-8 after unescaping), no whitespace, each number printed from its parsed
 * value (1, 1.0 and 1e0 are one number), each string with one escaping (cJSON's: \" \\ and
 * controls escaped, the rest as UTF-8). An absent body (nothing but whitespace) is `{}`,
 * which the endpoints that take no body accept as equivalent. A malloc'd text into *out
 * (its length into *out_len). Returns 0; or -1 (nothing allocated) when `body` is not JSON
 * or memory ran out.
 */
int canon_json(const char *body, size_t len, char **out, size_t *out_len) NODISCARD;

#endif
