/* seal.c: sealed idempotent answers with OpenSSL EVP (SHA-256, HKDF-SHA256, AES-256-GCM). */
#include "seal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

static const char lookup_label[] = "tilehall idempotency lookup v1"; /* with its NUL */
static const char derive_label[] = "tilehall idempotency seal v1";   /* with its NUL */

int seal_lookup(const char *scope, const char *key, uint8_t out[SEAL_HASH_LEN])
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    unsigned int n = 0;
    /* Label, scope and key, each with its NUL: no two (scope, key) pairs give one input. */
    int ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1 &&
             EVP_DigestUpdate(md, lookup_label, sizeof lookup_label) == 1 &&
             EVP_DigestUpdate(md, scope, strlen(scope) + 1) == 1 &&
             EVP_DigestUpdate(md, key, strlen(key) + 1) == 1 &&
             EVP_DigestFinal_ex(md, out, &n) == 1 && n == SEAL_HASH_LEN;
    EVP_MD_CTX_free(md);
    return ok ? 0 : -1;
}

int seal_derive(const char *scope, const char *key, const void *salt, size_t salt_len,
                uint8_t out[SEAL_KEY_LEN])
{
    size_t sl = strlen(scope), kl = strlen(key);
    unsigned char info[sizeof derive_label + 128];
    if (sl > sizeof info - sizeof derive_label || kl > INT_MAX || salt_len > INT_MAX) return -1;
    memcpy(info, derive_label, sizeof derive_label);
    memcpy(info + sizeof derive_label, scope, sl);
    /* HKDF without a salt uses HashLen zero bytes (RFC 5869, 2.2): the same as none given. */
    static const unsigned char zeros[32];
    const unsigned char *s = salt_len ? salt : zeros;
    size_t out_len = SEAL_KEY_LEN;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
    int ok = ctx && EVP_PKEY_derive_init(ctx) == 1 &&
             EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256()) == 1 &&
             EVP_PKEY_CTX_set1_hkdf_salt(ctx, s, (int)(salt_len ? salt_len : sizeof zeros)) == 1 &&
             EVP_PKEY_CTX_set1_hkdf_key(ctx, (const unsigned char *)key, (int)kl) == 1 &&
             EVP_PKEY_CTX_add1_hkdf_info(ctx, info, (int)(sizeof derive_label + sl)) == 1 &&
             EVP_PKEY_derive(ctx, out, &out_len) == 1 && out_len == SEAL_KEY_LEN;
    EVP_PKEY_CTX_free(ctx);
    if (!ok) OPENSSL_cleanse(out, SEAL_KEY_LEN);
    return ok ? 0 : -1;
}

/* An AES-256-GCM context set up for `k` and `nonce` with `scope` as associated data
 * (encrypting when `enc`), or NULL. */
static EVP_CIPHER_CTX *gcm_begin(const uint8_t k[SEAL_KEY_LEN], const uint8_t *nonce,
                                 const char *scope, int enc)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0, sl = (int)strlen(scope);
    int ok = c && EVP_CipherInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL, enc) == 1 &&
             EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, SEAL_NONCE_LEN, NULL) == 1 &&
             EVP_CipherInit_ex(c, NULL, NULL, k, nonce, enc) == 1 &&
             EVP_CipherUpdate(c, NULL, &n, (const unsigned char *)scope, sl) == 1;
    if (!ok) {
        EVP_CIPHER_CTX_free(c);
        return NULL;
    }
    return c;
}

int seal_close(const uint8_t k[SEAL_KEY_LEN], const char *scope, const void *plain, size_t len,
               uint8_t **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    if (len > INT_MAX - SEAL_OVERHEAD) return -1;
    uint8_t *blob = malloc(len + SEAL_OVERHEAD);
    if (!blob) return -1;
    blob[0] = SEAL_VERSION;
    uint8_t *nonce = blob + 1, *body = nonce + SEAL_NONCE_LEN, *tag = body + len;
    /* A random 96-bit nonce per answer: each key seals one answer, so nonces never repeat
     * under a key (and a repeat would take 2^48 answers under one key to be likely). */
    EVP_CIPHER_CTX *c =
        RAND_bytes(nonce, SEAL_NONCE_LEN) == 1 ? gcm_begin(k, nonce, scope, 1) : NULL;
    int n = 0, fin = 0;
    int ok = c && EVP_CipherUpdate(c, body, &n, plain, (int)len) == 1 && (size_t)n == len &&
             EVP_CipherFinal_ex(c, body + n, &fin) == 1 && fin == 0 &&
             EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, SEAL_TAG_LEN, tag) == 1;
    EVP_CIPHER_CTX_free(c);
    if (!ok) {
        free(blob);
        return -1;
    }
    *out = blob;
    *out_len = len + SEAL_OVERHEAD;
    return 0;
}

int seal_open(const uint8_t k[SEAL_KEY_LEN], const char *scope, const uint8_t *blob, size_t len,
              char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    if (len < SEAL_OVERHEAD || len > INT_MAX || blob[0] != SEAL_VERSION) return -1;
    const uint8_t *nonce = blob + 1, *body = nonce + SEAL_NONCE_LEN;
    size_t body_len = len - SEAL_OVERHEAD;
    uint8_t tag[SEAL_TAG_LEN];
    memcpy(tag, body + body_len, SEAL_TAG_LEN);
    char *plain = malloc(body_len + 1);
    if (!plain) return -1;
    EVP_CIPHER_CTX *c = gcm_begin(k, nonce, scope, 0);
    int n = 0, fin = 0;
    int ok = c && EVP_CipherUpdate(c, (unsigned char *)plain, &n, body, (int)body_len) == 1 &&
             (size_t)n == body_len &&
             EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, SEAL_TAG_LEN, tag) == 1 &&
             EVP_CipherFinal_ex(c, (unsigned char *)plain + n, &fin) == 1 && fin == 0;
    EVP_CIPHER_CTX_free(c);
    if (!ok) {
        /* Nothing of an unauthenticated plaintext leaves. */
        OPENSSL_cleanse(plain, body_len + 1);
        free(plain);
        return -1;
    }
    plain[body_len] = '\0';
    *out = plain;
    *out_len = body_len;
    return 0;
}
