/* idem.c: first answers replayed, preconditions checked. */
#include "idem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "games.h"
#include "problem.h"

#define KEY_MAX 64

/* SHA-256 over method, path and body: what makes two requests "the same". */
static int request_hash(const struct api_request *req, uint8_t out[AUTH_HASH_LEN])
{
    size_t ml = strlen(req->method), pl = strlen(req->path);
    size_t len = ml + 1 + pl + 1 + req->body_len;
    char *buf = malloc(len);
    if (!buf) return -1;
    memcpy(buf, req->method, ml);
    buf[ml] = '\n';
    memcpy(buf + ml + 1, req->path, pl);
    buf[ml + 1 + pl] = '\n';
    memcpy(buf + ml + pl + 2, req->body, req->body_len);
    int rc = auth_sha256(buf, len, out);
    free(buf);
    return rc;
}

int idem_begin(const struct api_request *req, const char *scope, struct idem *out,
               struct api_response *resp)
{
    memset(out, 0, sizeof *out);
    const char *key = req->idempotency_key;
    if (!key) return 0;
    size_t len = strlen(key);
    int ok = len >= 1 && len <= KEY_MAX;
    for (size_t i = 0; ok && i < len; i++) ok = key[i] >= 0x20 && key[i] < 0x7F;
    if (!ok) {
        problem_reply(resp, 400, "invalid_parameter",
                      "Idempotency-Key must be 1 to 64 printable ASCII characters.");
        return 1;
    }
    out->active = 1;
    snprintf(out->scope, sizeof out->scope, "%s", scope);
    out->rec.scope = out->scope;
    out->rec.key = key;
    if (request_hash(req, out->rec.request_hash)) {
        problem_reply(resp, 500, "internal_error", "The request could not be hashed.");
        return 1;
    }
    struct store_idem first = {0};
    enum store_status s = store_idem_get(out->scope, key, &first);
    if (s == STORE_NOT_FOUND) return 0;
    if (s != STORE_OK) {
        games_store_failed(resp, s);
        return 1;
    }
    if (!auth_hash_equal(first.request_hash, out->rec.request_hash)) {
        problem_reply(resp, 409, "idempotency_key_reused",
                      "This Idempotency-Key was used before with a different request.");
    } else {
        api_reply_copy(resp, first.status, "application/json", first.body, strlen(first.body));
        if (first.location) snprintf(resp->location, sizeof resp->location, "%s", first.location);
        if (first.etag) snprintf(resp->etag, sizeof resp->etag, "%s", first.etag);
    }
    store_idem_free(&first);
    return 1;
}

void idem_remember(struct idem *out, const struct api_request *req, const struct api_response *resp,
                   const char *body)
{
    (void)req;
    out->rec.status = resp->status;
    out->rec.location = resp->location[0] ? resp->location : NULL;
    out->rec.etag = resp->etag[0] ? resp->etag : NULL;
    out->rec.body = body;
}

int idem_if_match(const struct api_request *req, int version, struct api_response *resp)
{
    const char *m = req->if_match;
    if (!m) return 0;
    while (*m == ' ') m++;
    if (strcmp(m, "*") == 0) return 0;
    if (strncmp(m, "W/", 2) == 0) m += 2;
    const char *digits = m + (*m == '"');
    char *end;
    errno = 0;
    long v = strtol(digits, &end, 10);
    int quoted = *m == '"';
    if (end == digits || *digits == '-' || *digits == '+' || errno ||
        (quoted ? (end[0] != '"' || end[1] != '\0') : end[0] != '\0')) {
        problem_reply(resp, 400, "invalid_parameter",
                      "If-Match must be a version as the ETag gives it, e.g. \"7\".");
        return 1;
    }
    if (v != version) {
        char detail[128];
        snprintf(detail, sizeof detail,
                 "The game is at version %d, not %ld; reload it and try again.", version, v);
        problem_reply(resp, 412, "version_mismatch", detail);
        return 1;
    }
    return 0;
}
