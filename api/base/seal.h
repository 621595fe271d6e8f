/* seal.h: the first answers of idempotent requests, sealed under their Idempotency-Key
 * (issue 11, item 7). A replayed request may hand out tokens again, so what the database
 * keeps of an answer must reveal nothing without the key: the row is found by a hash of
 * scope and key (seal_lookup), and its body is encrypted with AES-256-GCM under a key
 * derived from the Idempotency-Key by HKDF-SHA256 (seal_derive: the scope is the context,
 * the caller's own token, when there is one, the salt), the scope bound in as associated
 * data. OpenSSL EVP throughout. */
#ifndef API_SEAL_H
#define API_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "nodiscard.h"

#define SEAL_KEY_LEN   32                                  /* AES-256 */
#define SEAL_HASH_LEN  32                                  /* SHA-256 */
#define SEAL_NONCE_LEN 12                                  /* GCM's 96-bit nonce */
#define SEAL_TAG_LEN   16                                  /* GCM's tag */
#define SEAL_OVERHEAD  (1 + SEAL_NONCE_LEN + SEAL_TAG_LEN) /* version byte, nonce, tag */
#define SEAL_VERSION   1                                   /* the first byte of a sealed blob */

/*
 * The lookup hash of Idempotency-Key `key` in `scope`: SHA-256 over a label, the scope and
 * the key, so the stored row names neither the key nor the key of another scope. Returns 0,
 * or -1 when hashing failed.
 */
int seal_lookup(const char *scope, const char *key, uint8_t out[SEAL_HASH_LEN]) NODISCARD;

/*
 * The sealing key of `key` in `scope`: HKDF-SHA256 with the key as input keying material,
 * `salt` (`salt_len` bytes; the caller's bearer token, or none: NULL, 0) as salt and a
 * label with the scope as info. Returns 0, or -1 when OpenSSL failed.
 */
int seal_derive(const char *scope, const char *key, const void *salt, size_t salt_len,
                uint8_t out[SEAL_KEY_LEN]) NODISCARD;

/*
 * Seals `len` bytes of `plain` under `k` with `scope` as associated data: a malloc'd blob
 * of len + SEAL_OVERHEAD bytes (version, random nonce, ciphertext, tag) into *out and
 * *out_len. Returns 0, or -1 (nothing allocated) when OpenSSL or malloc failed.
 */
int seal_close(const uint8_t k[SEAL_KEY_LEN], const char *scope, const void *plain, size_t len,
               uint8_t **out, size_t *out_len) NODISCARD;

/*
 * Opens a blob of seal_close() under `k` and `scope`: a malloc'd NUL-terminated text into
 * *out (its length without the NUL into *out_len). Returns 0; or -1 (nothing allocated)
 * when the blob is malformed, its tag does not check (another key or scope, or altered),
 * or memory ran out.
 */
int seal_open(const uint8_t k[SEAL_KEY_LEN], const char *scope, const uint8_t *blob, size_t len,
              char **out, size_t *out_len) NODISCARD;

#endif
