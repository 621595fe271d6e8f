/* params.h: parsing of request parameters and headers: query integers, If-Match and
 * Idempotency-Key. Pure functions of their text (no I/O, no allocation): fuzzed by
 * tests/fuzz/fuzz_params.c. */
#ifndef API_PARAMS_H
#define API_PARAMS_H

#include "nodiscard.h"

#define PARAMS_IDEM_KEY_MAX 64 /* characters of an Idempotency-Key at most */

/*
 * Reads `v`, a query parameter's value, as a decimal integer from 0 to `max` (digits
 * only: no sign, no spaces, at most 18 digits). NULL (parameter absent) reads as 0.
 * Returns 0 with the number in *out, or -1 (then *out is 0) when malformed or too large.
 */
int params_uint(const char *v, long max, long *out) NODISCARD;

/* What an If-Match header asks for. */
enum params_match {
    PARAMS_MATCH_NONE = 0, /* no header: no precondition */
    PARAMS_MATCH_ANY,      /* "*" */
    PARAMS_MATCH_VERSION,  /* a version: "7" or 7 */
    PARAMS_MATCH_WEAK,     /* a weak tag W/"7": If-Match compares strongly, it never matches */
    PARAMS_MATCH_BAD       /* anything else: answered 400 invalid_parameter */
};

/*
 * Parses an If-Match value (NULL when absent): spaces around it, "*", or a version from
 * 0 to INT_MAX as the ETag gives it ("7") or bare (7), or a weak tag of one (W/"7"). On
 * PARAMS_MATCH_VERSION and PARAMS_MATCH_WEAK the version is in *version.
 */
enum params_match params_if_match(const char *h, long *version);

/* 1 when `key` is a valid Idempotency-Key: 1 to 64 printable ASCII characters. */
int params_idem_key_ok(const char *key);

#endif
