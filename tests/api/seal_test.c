/* seal_test.c: sealed idempotent answers (api/base/seal.c): the lookup hash, HKDF-SHA256
 * against RFC 5869's first test vector's construction, AES-256-GCM round trips, and every
 * way a blob fails to open (another key, scope or salt, a flipped bit, a cut blob). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/kdf.h>

#include "seal.h"

static const char answer[] = "{\"id\":\"g\",\"players\":[{\"name\":\"Ann\",\"token\":\"secret\"}]}";

Test(seal, lookup_names_scope_and_key)
{
    uint8_t a[SEAL_HASH_LEN], b[SEAL_HASH_LEN], c[SEAL_HASH_LEN], d[SEAL_HASH_LEN];
    cr_assert_eq(seal_lookup("create", "k1", a), 0);
    cr_assert_eq(seal_lookup("create", "k1", b), 0);
    cr_assert_eq(seal_lookup("create", "k2", c), 0);
    cr_assert_eq(seal_lookup("players", "k1", d), 0);
    cr_expect_eq(memcmp(a, b, sizeof a), 0, "the same scope and key: the same hash");
    cr_expect_neq(memcmp(a, c, sizeof a), 0, "another key");
    cr_expect_neq(memcmp(a, d, sizeof a), 0, "another scope");
    /* The NULs keep ("ab", "c") and ("a", "bc") apart. */
    cr_assert_eq(seal_lookup("ab", "c", c), 0);
    cr_assert_eq(seal_lookup("a", "bc", d), 0);
    cr_expect_neq(memcmp(c, d, sizeof c), 0, "scope and key run together");
    /* It is SHA-256 of label\0scope\0key\0, as migrations/0009 computes it in SQL. */
    static const char in[] = "tilehall idempotency lookup v1\0create\0k1";
    unsigned char want[32];
    unsigned int n = 0;
    cr_assert_eq(EVP_Digest(in, sizeof in, want, &n, EVP_sha256(), NULL), 1);
    cr_expect_eq(memcmp(a, want, sizeof a), 0, "not SHA-256 of label, scope and key");
}

Test(seal, derive_is_hkdf_sha256)
{
    uint8_t k[SEAL_KEY_LEN], same[SEAL_KEY_LEN], other[SEAL_KEY_LEN];
    cr_assert_eq(seal_derive("g/0", "key", "tok", 3, k), 0);
    cr_assert_eq(seal_derive("g/0", "key", "tok", 3, same), 0);
    cr_expect_eq(memcmp(k, same, sizeof k), 0, "deterministic");
    cr_assert_eq(seal_derive("g/1", "key", "tok", 3, other), 0);
    cr_expect_neq(memcmp(k, other, sizeof k), 0, "the scope is the context");
    cr_assert_eq(seal_derive("g/0", "key", "tol", 3, other), 0);
    cr_expect_neq(memcmp(k, other, sizeof k), 0, "the salt counts");
    cr_assert_eq(seal_derive("g/0", "kez", "tok", 3, other), 0);
    cr_expect_neq(memcmp(k, other, sizeof k), 0, "the key counts");
    /* No salt is HKDF's default salt, HashLen zeros (RFC 5869, 2.2): checked against an
     * independent HKDF with the salt given explicitly. */
    cr_assert_eq(seal_derive("create", "key", NULL, 0, k), 0);
    static const unsigned char zeros[32];
    static const char info[] = "tilehall idempotency seal v1\0create";
    unsigned char want[32];
    size_t wl = sizeof want;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
    cr_assert(c && EVP_PKEY_derive_init(c) == 1 && EVP_PKEY_CTX_set_hkdf_md(c, EVP_sha256()) == 1 &&
              EVP_PKEY_CTX_set1_hkdf_salt(c, zeros, 32) == 1 &&
              EVP_PKEY_CTX_set1_hkdf_key(c, (const unsigned char *)"key", 3) == 1 &&
              EVP_PKEY_CTX_add1_hkdf_info(c, (const unsigned char *)info, sizeof info - 1) == 1 &&
              EVP_PKEY_derive(c, want, &wl) == 1);
    EVP_PKEY_CTX_free(c);
    cr_expect_eq(memcmp(k, want, sizeof k), 0, "not HKDF-SHA256(key, zeros, label\\0scope)");
    /* A scope too long for the info buffer is refused, not cut. */
    char long_scope[200];
    memset(long_scope, 's', sizeof long_scope - 1);
    long_scope[sizeof long_scope - 1] = '\0';
    cr_expect_eq(seal_derive(long_scope, "key", NULL, 0, k), -1);
}

Test(seal, round_trip)
{
    uint8_t k[SEAL_KEY_LEN];
    cr_assert_eq(seal_derive("create", "a-long-random-key-of-32-characters", NULL, 0, k), 0);
    uint8_t *blob = NULL, *again = NULL;
    size_t len = 0, again_len = 0;
    cr_assert_eq(seal_close(k, "create", answer, strlen(answer), &blob, &len), 0);
    cr_assert_eq(len, strlen(answer) + SEAL_OVERHEAD);
    cr_expect_eq(blob[0], SEAL_VERSION);
    int readable = 0;
    for (size_t i = 0; i + 6 <= len; i++) readable |= memcmp(blob + i, "secret", 6) == 0;
    cr_expect(!readable, "the token is readable in the blob");
    /* A fresh nonce each time: two seals of one answer differ. */
    cr_assert_eq(seal_close(k, "create", answer, strlen(answer), &again, &again_len), 0);
    cr_expect_neq(memcmp(blob, again, len), 0, "the nonce repeated");
    char *plain = NULL;
    size_t plain_len = 0;
    cr_assert_eq(seal_open(k, "create", blob, len, &plain, &plain_len), 0);
    cr_expect_str_eq(plain, answer);
    cr_expect_eq(plain_len, strlen(answer));
    free(plain);
    /* An empty answer too. */
    free(again);
    cr_assert_eq(seal_close(k, "create", "", 0, &again, &again_len), 0);
    cr_assert_eq(seal_open(k, "create", again, again_len, &plain, &plain_len), 0);
    cr_expect_str_eq(plain, "");
    free(plain);
    free(again);
    free(blob);
}

Test(seal, refusals)
{
    uint8_t k[SEAL_KEY_LEN], other[SEAL_KEY_LEN];
    cr_assert_eq(seal_derive("g/0", "short", "seat-token", 10, k), 0);
    cr_assert_eq(seal_derive("g/0", "short", "other-token", 11, other), 0);
    uint8_t *blob = NULL;
    size_t len = 0;
    cr_assert_eq(seal_close(k, "g/0", answer, strlen(answer), &blob, &len), 0);
    char *plain = (char *)1;
    size_t pl = 1;
    cr_expect_eq(seal_open(other, "g/0", blob, len, &plain, &pl), -1, "another salt opened it");
    cr_expect_null(plain);
    cr_expect_eq(pl, 0);
    cr_expect_eq(seal_open(k, "g/1", blob, len, &plain, &pl), -1, "another scope opened it");
    for (size_t i = 0; i < len; i++) {
        blob[i] ^= 0x01;
        cr_expect_eq(seal_open(k, "g/0", blob, len, &plain, &pl), -1, "bit 0 of byte %zu", i);
        blob[i] ^= 0x01;
    }
    cr_expect_eq(seal_open(k, "g/0", blob, len - 1, &plain, &pl), -1, "a cut blob");
    cr_expect_eq(seal_open(k, "g/0", blob, SEAL_OVERHEAD - 1, &plain, &pl), -1, "too short");
    cr_expect_eq(seal_open(k, "g/0", blob, len, &plain, &pl), 0, "the blob itself");
    free(plain);
    free(blob);
}
