/* routes_players.c: players as people, one identity across games (issue 11, step 1):
 * creating one (POST /v1/players), reading one's own (GET /v1/players/me), replacing
 * one's token (POST /v1/players/me/token). A player token is made, shown and kept as a
 * seat token is (auth.h): 256 random bits, shown once, stored only as its SHA-256, and
 * never logged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "idem.h"
#include "json_in.h"
#include "json_out.h"
#include "log.h"
#include "problem.h"
#include "routes.h"
#include "store.h"
#include "store_people.h"

#define PLAYER_PATH  "/v1/players/me" /* the Location of a new player: read with its token */
#define PLAYER_SCOPE "players"        /* Idempotency-Key scope of POST /v1/players */

/* {"id", "name"} of `p`, with "token" unless `token` is NULL: malloc'd (*len bytes), or NULL. */
static char *person_json(const struct store_person *p, const char *token, size_t *len)
{
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "id", p->id);
    json_out_kstring(&w, "name", p->name);
    if (token) json_out_kstring(&w, "token", token);
    json_out_end_object(&w);
    char *text = json_out_take(&w, len);
    json_out_free(&w);
    return text;
}

/* Answers a storage failure of a request on people: 503, else 500. */
static void person_problem(struct api_response *resp, enum store_status s)
{
    resp->location[0] = '\0';
    if (s == STORE_UNAVAILABLE)
        problem_unavailable(resp);
    else
        problem_reply(resp, 500, "internal_error", "The player could not be read or stored.");
}

int routes_player_auth(const struct api_request *req, struct api_response *resp,
                       struct store_person *out)
{
    const char *token = auth_bearer(req->authorization);
    if (!token) {
        problem_reply(resp, 401, "missing_token",
                      "This needs a player token: Authorization: Bearer <token> (POST /v1/players "
                      "hands one out).");
        return 1;
    }
    uint8_t h[AUTH_HASH_LEN];
    if (auth_sha256(token, strlen(token), h)) {
        problem_reply(resp, 500, "internal_error", "The token could not be hashed.");
        return 1;
    }
    /* Found by its hash (a unique index), then compared in constant time: what the
     * lookup's timing could tell is about the hash of a token the caller sent, which says
     * nothing of any stored token (SHA-256 has no known preimages). */
    enum store_status s = store_person_by_token(h, out);
    if (s == STORE_NOT_FOUND || (s == STORE_OK && !auth_hash_equal(h, out->token_hash))) {
        problem_reply(resp, 401, "unknown_token",
                      "The token is no player's (a replaced token stops working at once).");
        return 1;
    }
    if (s != STORE_OK) {
        person_problem(resp, s);
        return 1;
    }
    if (out->suspended) {
        routes_suspended_answer(resp);
        return 1;
    }
    return 0;
}

void routes_suspended_answer(struct api_response *resp)
{
    problem_reply(resp, 403, "player_suspended",
                  "The operator suspended this player: its tokens are refused until it is "
                  "reinstated.");
}

void routes_player_create(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    struct store_person p;
    memset(&p, 0, sizeof p);
    char token[AUTH_TOKEN_LEN + 1] = "";
    char *answer = NULL;
    size_t answer_len = 0;
    struct json_err err;
    struct idem idem;
    if (routes_creation_limited_unkeyed(req, resp)) return;
    if (json_in_player(req->body, req->body_len, p.name, &err)) {
        problem_reply(resp, 400, err.code, err.detail);
        return;
    }
    if (idem_begin_anonymous(req, PLAYER_SCOPE, &idem, resp)) return;
    if (routes_creation_limited_keyed(req, resp)) return;
    if (auth_uuid_new(p.id) || auth_token_new(token) ||
        auth_sha256(token, AUTH_TOKEN_LEN, p.token_hash)) {
        problem_reply(resp, 500, "internal_error", "No id or token could be drawn.");
        goto out;
    }
    /* An idempotent repeat gets this answer again, token included: idem_remember() has it
     * sealed under the key (seal.h), so the database alone shows only the token's hash. */
    answer = person_json(&p, token, &answer_len);
    if (!answer) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    resp->status = 201;
    snprintf(resp->location, sizeof resp->location, "%s", PLAYER_PATH);
    if (idem.active) idem_remember(&idem, req, resp, answer);
    enum store_status s = store_person_create(&p, idem.active ? &idem.rec : NULL);
    if (s == STORE_DUPLICATE && idem.active) {
        /* The same key raced us and won: answer as a repeat would. */
        resp->location[0] = '\0';
        if (idem_begin_anonymous(req, PLAYER_SCOPE, &idem, resp)) goto out;
    }
    if (s != STORE_OK) {
        person_problem(resp, s);
        goto out;
    }
    api_reply_take(resp, 201, "application/json", answer);
    resp->len = answer_len;
    answer = NULL;
    log_kv(LOG_INFO, "player created", "player", p.id, NULL);
out:
    memset(token, 0, sizeof token);
    free(answer);
}

void routes_player_me(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    struct store_person p;
    if (routes_player_auth(req, resp, &p)) return;
    size_t len = 0;
    char *body = person_json(&p, NULL, &len);
    if (!body) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    api_reply_take(resp, 200, "application/json", body);
    resp->len = len;
}

void routes_player_token(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    struct store_person p;
    if (routes_player_auth(req, resp, &p)) return;
    if (routes_body_not_empty(req, resp)) return;
    if (req->idempotency_key) {
        /* A repeat could not give the new token back (only its hash is kept), and a second
         * replacement would end the first one's token: refused rather than ignored. */
        problem_reply(resp, 400, "invalid_parameter",
                      "Idempotency-Key is not accepted here: a repeated answer could not hold the "
                      "new token. Replace the token without one.");
        return;
    }
    char token[AUTH_TOKEN_LEN + 1];
    uint8_t old_hash[AUTH_HASH_LEN], new_hash[AUTH_HASH_LEN];
    memcpy(old_hash, p.token_hash, sizeof old_hash);
    if (auth_token_new(token) || auth_sha256(token, AUTH_TOKEN_LEN, new_hash)) {
        problem_reply(resp, 500, "internal_error", "No token could be drawn.");
        return;
    }
    /* The old token stops working with this commit. Of two replacements racing with the
     * same token, the first to commit wins; the other finds its token replaced. */
    enum store_status s = store_person_token_replace(old_hash, new_hash, &p);
    if (s == STORE_NOT_FOUND) {
        problem_reply(resp, 401, "unknown_token",
                      "The token was replaced meanwhile (by another request with it).");
    } else if (s != STORE_OK) {
        person_problem(resp, s);
    } else {
        size_t len = 0;
        char *body = person_json(&p, token, &len);
        if (!body) {
            /* Stored, but the answer cannot be written: the token is lost; say so. */
            problem_reply(resp, 500, "internal_error",
                          "The token was replaced but the answer could not be written.");
        } else {
            api_reply_take(resp, 200, "application/json", body);
            resp->len = len;
            log_kv(LOG_INFO, "player token replaced", "player", p.id, NULL);
        }
    }
    memset(token, 0, sizeof token);
}
