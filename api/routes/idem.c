/* idem.c: first answers replayed, preconditions checked. */
#include "idem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "canon.h"
#include "game_answers.h"
#include "params.h"
#include "problem.h"
#include "store_games.h"

/* SHA-256 over method, path and the body's canonical JSON (its bytes when it is not JSON,
 * or with `raw`, as rows from before 0011 hashed it): what makes two requests "the same". */
static int request_hash(const struct api_request *req, int raw, uint8_t out[AUTH_HASH_LEN])
{
    char *canon = NULL;
    size_t cl = 0;
    const char *body = req->body ? req->body : "";
    size_t bl = req->body ? req->body_len : 0;
    if (!raw && canon_json(body, bl, &canon, &cl) == 0) {
        body = canon;
        bl = cl;
    }
    size_t ml = strlen(req->method), pl = strlen(req->path);
    size_t len = ml + 1 + pl + 1 + bl;
    char *buf = malloc(len);
    int rc = -1;
    if (buf) {
        memcpy(buf, req->method, ml);
        buf[ml] = '\n';
        memcpy(buf + ml + 1, req->path, pl);
        buf[ml + 1 + pl] = '\n';
        memcpy(buf + ml + pl + 2, body, bl);
        rc = auth_sha256(buf, len, out);
    }
    free(buf);
    free(canon);
    return rc;
}

/* idem_begin() and idem_begin_anonymous(): `anonymous` says which. */
static int begin(const struct api_request *req, const char *scope, int anonymous, struct idem *out,
                 struct api_response *resp)
{
    memset(out, 0, sizeof *out);
    const char *key = req->idempotency_key;
    if (!key) return 0;
    if (!params_idem_key_ok(key)) {
        problem_reply(resp, 400, "invalid_parameter",
                      "Idempotency-Key must be 1 to 64 printable ASCII characters.");
        return 1;
    }
    if (anonymous && strlen(key) < IDEM_ANON_MIN) {
        /* Anybody may send an anonymous key, and its repeat hands out the first answer's
         * tokens: it must be beyond guessing. */
        problem_reply(resp, 400, "idempotency_key_too_short",
                      "Without a player token the Idempotency-Key of a creation must be 32 to "
                      "64 characters, drawn at random (32 random hex digits: 128 bits, or a "
                      "random UUID): its repeat hands out the tokens again.");
        return 1;
    }
    out->active = 1;
    snprintf(out->scope, sizeof out->scope, "%s", scope);
    out->rec.scope = out->scope;
    /* The caller's token is the salt of a scope of its own: the database holds only its
     * hash, so even a short key does not open the answer from the database alone. */
    const char *salt = anonymous ? NULL : auth_bearer(req->authorization);
    if (request_hash(req, 0, out->rec.request_hash) ||
        seal_lookup(out->scope, key, out->rec.key_hash) ||
        seal_derive(out->scope, key, salt, salt ? strlen(salt) : 0, out->rec.seal_key)) {
        problem_reply(resp, 500, "internal_error", "The request could not be hashed.");
        return 1;
    }
    struct store_idem first = {0};
    enum store_status s = store_idem_get(out->scope, out->rec.key_hash, out->rec.seal_key, &first);
    if (s == STORE_NOT_FOUND) return 0;
    if (s != STORE_OK) {
        problem_store(resp, s);
        return 1;
    }
    int same = auth_hash_equal(first.request_hash, out->rec.request_hash);
    uint8_t raw[AUTH_HASH_LEN];
    if (!same && first.unsealed && request_hash(req, 1, raw) == 0)
        same = auth_hash_equal(first.request_hash, raw); /* stored before 0011: bytes */
    if (!same) {
        problem_reply(resp, 409, "idempotency_key_reused",
                      "This Idempotency-Key was used before with a different request.");
    } else if (first.locked) {
        problem_reply(resp, 409, "idempotency_key_reused",
                      "This Idempotency-Key was used before with another token (the player "
                      "token was replaced since): its answer cannot be given again.");
    } else if (first.status == 204) { /* no content: none again */
        resp->status = 204;
    } else {
        api_reply_copy(resp, first.status, "application/json", first.body, strlen(first.body));
        if (first.location) snprintf(resp->location, sizeof resp->location, "%s", first.location);
        if (first.etag) snprintf(resp->etag, sizeof resp->etag, "%s", first.etag);
    }
    store_idem_free(&first);
    return 1;
}

int idem_begin(const struct api_request *req, const char *scope, struct idem *out,
               struct api_response *resp)
{
    return begin(req, scope, 0, out, resp);
}

int idem_lost_race(const struct api_request *req, const char *scope, struct idem *out,
                   struct api_response *resp)
{
    free(resp->body);
    memset(resp, 0, sizeof *resp);
    return idem_begin(req, scope, out, resp);
}

int idem_begin_seat(const struct api_request *req, const char *game, int seat,
                    char scope[IDEM_SCOPE_MAX], struct idem *out, struct api_response *resp)
{
    snprintf(scope, IDEM_SCOPE_MAX, "%s/%d", game, seat);
    return idem_begin(req, scope, out, resp);
}

int idem_finish(const struct api_request *req, const char *scope, struct idem *idem,
                struct api_response *resp, enum store_status s)
{
    if (s == STORE_DUPLICATE && idem->active) {
        if (idem_lost_race(req, scope, idem, resp)) return 1;
        s = STORE_ERROR;
    }
    if (s == STORE_OK) return 0;
    free(resp->body);
    memset(resp, 0, sizeof *resp);
    problem_store(resp, s);
    return 1;
}

int idem_begin_anonymous(const struct api_request *req, const char *scope, struct idem *out,
                         struct api_response *resp)
{
    return begin(req, scope, 1, out, resp);
}

int idem_replay_if_done(const struct api_request *req, const char *scope, struct api_response *resp)
{
    if (!req->idempotency_key) return 0;
    struct idem again;
    struct api_response first = {0};
    if (idem_begin(req, scope, &again, &first) && first.status < 500) {
        free(resp->body);
        *resp = first;
        return 1;
    }
    free(first.body);
    return 0;
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
    long v = 0;
    enum params_match m = params_if_match(req->if_match, &v);
    if (m == PARAMS_MATCH_NONE || m == PARAMS_MATCH_ANY) return 0;
    if (m == PARAMS_MATCH_BAD) {
        problem_reply(resp, 400, "invalid_parameter",
                      "If-Match must be a version as the ETag gives it, e.g. \"7\".");
        return 1;
    }
    if (m == PARAMS_MATCH_WEAK) {
        /* RFC 9110, 13.1.1: If-Match compares strongly, and a weak tag never matches. */
        problem_reply(resp, 412, "version_mismatch",
                      "If-Match compares entity tags strongly: a weak tag (W/) never matches; "
                      "send the ETag as it came, e.g. \"7\".");
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

int idem_if_none_match(const struct api_request *req, int version, struct api_response *resp)
{
    const char *p = req->if_none_match;
    if (!p) return 0;
    char tag[24];
    int n = snprintf(tag, sizeof tag, "\"%d\"", version);
    int match = 0;
    while (*p && !match) {
        while (*p == ' ' || *p == '\t' || *p == ',') p++;
        if (*p == '*') {
            match = 1;
            break;
        }
        if (strncmp(p, "W/", 2) == 0) p += 2;
        const char *end = p;
        if (*end == '"') {
            end = strchr(end + 1, '"');
            if (!end) break;
            end++;
        }
        while (*end && *end != ',') end++;
        size_t len = (size_t)(end - p);
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t')) len--;
        match = len == (size_t)n && memcmp(p, tag, len) == 0;
        p = end;
    }
    if (!match) return 0;
    free(resp->body);
    resp->body = NULL;
    resp->len = 0;
    resp->content_type = NULL;
    resp->status = 304;
    games_etag(resp, version);
    return 1;
}

int idem_keep(struct idem *idem, const struct api_request *req, const struct api_response *resp,
              int status, const struct store_idem **keep)
{
    if (resp->status != status) return -1;
    idem_remember(idem, req, resp, resp->body ? resp->body : "");
    *keep = &idem->rec;
    return 0;
}
