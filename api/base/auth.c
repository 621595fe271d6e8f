/* auth.c: tokens and hashes with OpenSSL (RAND_bytes, EVP SHA-256, CRYPTO_memcmp). */
#include "auth.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

int auth_token_new(char out[AUTH_TOKEN_LEN + 1])
{
    static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    unsigned char raw[33] = {0};
    if (RAND_bytes(raw, 32) != 1) return -1;
    /* 33 bytes (the last zero) give 44 digits; 32 bytes need the first 43. */
    size_t o = 0;
    for (size_t i = 0; i < 33; i += 3) {
        unsigned v = (unsigned)raw[i] << 16 | (unsigned)raw[i + 1] << 8 | raw[i + 2];
        for (int k = 3; k >= 0; k--) {
            if (o < AUTH_TOKEN_LEN + 1) out[o] = b64url[(v >> (6 * k)) & 63];
            o++;
        }
    }
    out[AUTH_TOKEN_LEN] = '\0';
    OPENSSL_cleanse(raw, sizeof raw);
    return 0;
}

int auth_sha256(const void *data, size_t len, uint8_t out[AUTH_HASH_LEN])
{
    unsigned int n = 0;
    if (EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) != 1 || n != AUTH_HASH_LEN) return -1;
    return 0;
}

int auth_hash_equal(const uint8_t a[AUTH_HASH_LEN], const uint8_t b[AUTH_HASH_LEN])
{
    return CRYPTO_memcmp(a, b, AUTH_HASH_LEN) == 0;
}

const char *auth_bearer(const char *header)
{
    if (!header || strncasecmp(header, "Bearer ", 7) != 0) return NULL;
    const char *t = header + 7;
    while (*t == ' ') t++;
    return *t ? t : NULL;
}

int auth_uuid_new(char out[AUTH_UUID_LEN + 1])
{
    unsigned char b[16];
    if (RAND_bytes(b, sizeof b) != 1) return -1;
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
    snprintf(out, AUTH_UUID_LEN + 1,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
             b[15]);
    return 0;
}

int auth_uuid_valid(const char *s)
{
    if (strlen(s) != AUTH_UUID_LEN) return 0;
    for (int i = 0; i < AUTH_UUID_LEN; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-') return 0;
        } else if (!isxdigit((unsigned char)s[i])) {
            return 0;
        }
    }
    return 1;
}

int auth_random_u64(uint64_t *out)
{
    unsigned char b[8];
    if (RAND_bytes(b, sizeof b) != 1) return -1;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | b[i];
    *out = v;
    return 0;
}
