/* auth.h: secret tokens, their SHA-256 hashes, and other values from the cryptographic RNG. */
#ifndef API_AUTH_H
#define API_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "nodiscard.h"

#define AUTH_TOKEN_LEN 43 /* base64url of 32 random bytes, no padding */
#define AUTH_HASH_LEN  32 /* SHA-256 */
#define AUTH_UUID_LEN  36 /* 8-4-4-4-12 hex digits */

/* Writes a new token (AUTH_TOKEN_LEN chars + NUL) from RAND_bytes. Returns 0 or -1. */
int auth_token_new(char out[AUTH_TOKEN_LEN + 1]) NODISCARD;

/* SHA-256 of `len` bytes of `data` into `out`. Returns 0 or -1. */
int auth_sha256(const void *data, size_t len, uint8_t out[AUTH_HASH_LEN]) NODISCARD;

/* Constant-time comparison of two hashes: 1 when equal. */
int auth_hash_equal(const uint8_t a[AUTH_HASH_LEN], const uint8_t b[AUTH_HASH_LEN]) NODISCARD;

/*
 * The token of an "Authorization: Bearer <token>" header value (scheme case-insensitive),
 * pointing into `header`; NULL when the header is NULL or not a bearer token.
 */
const char *auth_bearer(const char *header) NODISCARD;

/* A random version 4 UUID, lower-case (AUTH_UUID_LEN chars + NUL). Returns 0 or -1. */
int auth_uuid_new(char out[AUTH_UUID_LEN + 1]) NODISCARD;

/* 1 when `s` is a UUID in the canonical lower- or upper-case hex form. */
int auth_uuid_valid(const char *s) NODISCARD;

/* A random 64-bit number. Returns 0 or -1. */
int auth_random_u64(uint64_t *out) NODISCARD;

#endif
