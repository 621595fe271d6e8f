/* routes_admin.c: the operator (issue 28): open reports with their messages and context,
 * hiding a message, suspending and reinstating a player. The operator's bearer token is
 * ADMIN_TOKEN (no operator when it is unset: these paths answer 404); it is compared in
 * constant time (by its SHA-256, auth_hash_equal) and never logged. Every operator action
 * is logged as a JSON line ("operator action") that carries the request's id, as every
 * line of a request does (log_set_request_id). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "idem.h"
#include "json_out.h"
#include "log.h"
#include "problem.h"
#include "routes.h"
#include "store.h"
#include "store_chat.h"

#define REPORTS_PAGE 100     /* open reports an answer lists at most */
#define ADMIN_SCOPE  "admin" /* the scope of the operator's Idempotency-Keys (idem.h) */

static int admin_on;                      /* 1: ADMIN_TOKEN is set */
static uint8_t admin_hash[AUTH_HASH_LEN]; /* its SHA-256 */

void routes_admin_config(const struct cfg *cfg)
{
    admin_on = cfg->admin_token && cfg->admin_token[0] &&
               auth_sha256(cfg->admin_token, strlen(cfg->admin_token), admin_hash) == 0;
    if (cfg->admin_token && !admin_on) log_kv(LOG_ERROR, "ADMIN_TOKEN could not be hashed", NULL);
}

/* Lets the operator in: 0, or 1 after answering 404 (no operator), 401 missing_token or
 * unknown_token (a wrong token; logged without it). */
static int admin_auth(const struct api_request *req, struct api_response *resp)
{
    if (!admin_on) {
        problem_reply(resp, 404, "not_found", "There is nothing at this path.");
        return 1;
    }
    const char *token = auth_bearer(req->authorization);
    if (!token) {
        problem_reply(resp, 401, "missing_token",
                      "This needs the operator's token: Authorization: Bearer <ADMIN_TOKEN>.");
        return 1;
    }
    uint8_t h[AUTH_HASH_LEN];
    /* Both sides hashed, then compared in constant time: neither the length nor the first
     * difference of the token sent shows in the time taken. */
    if (auth_sha256(token, strlen(token), h) || !auth_hash_equal(h, admin_hash)) {
        log_kv(LOG_WARN, "operator token refused", "path", req->path, NULL);
        problem_reply(resp, 401, "unknown_token", "This is not the operator's token.");
        return 1;
    }
    return 0;
}

void routes_admin_reports(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    if (admin_auth(req, resp)) return;
    char *json = NULL;
    enum store_status s = store_chat_reports(REPORTS_PAGE, &json);
    if (api_reply_raw_member(resp, s, "reports", json)) return;
    log_kv(LOG_INFO, "operator action", "action", "list_reports", NULL);
}

/* The operator's keyed requests (Idempotency-Key, in the scope "admin": the operator's
 * token takes part in sealing the answers): the answer made in the write's transaction and
 * kept there for the key's repeats (store_keyed). */
struct admin_ctx {
    const struct api_request *req;
    struct api_response *resp;
    struct idem *idem;
    const char *id; /* the game (hide) or the player (suspend, reinstate) */
    int seq;        /* hide: the message */
    int on;         /* suspend (1) or reinstate (0) */
};

static void hide_answer(struct api_response *resp, const char *id, int seq)
{
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "game", id);
    json_out_kint(&w, "seq", seq);
    json_out_key(&w, "hidden");
    json_out_bool(&w, 1);
    json_out_end_object(&w);
    api_reply_out(resp, 200, &w);
}

static void suspend_answer(struct api_response *resp, const char *id, int on, int games)
{
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "player", id);
    json_out_key(&w, "suspended");
    json_out_bool(&w, on);
    if (on) json_out_kint(&w, "games", games);
    json_out_end_object(&w);
    api_reply_out(resp, 200, &w);
}

/* store_keyed: the answer of a hide (`seq` set) or a suspension, kept with it. */
static int admin_keyed(void *arg, int outcome, const struct store_idem **keep)
{
    struct admin_ctx *x = arg;
    free(x->resp->body);
    memset(x->resp, 0, sizeof *x->resp);
    if (x->seq > 0)
        hide_answer(x->resp, x->id, x->seq);
    else
        suspend_answer(x->resp, x->id, x->on, outcome);
    return idem_keep(x->idem, x->req, x->resp, 200, keep);
}

void routes_admin_hide(const struct api_request *req, struct api_response *resp,
                       const char *seq_arg)
{
    if (admin_auth(req, resp)) return;
    /* The path is /v1/admin/games/{id}/chat/{seq}/hide: the router hands over the seq. */
    char id[AUTH_UUID_LEN + 1];
    int seq;
    if (routes_chat_message(req, resp, 3, seq_arg, id, &seq)) return;
    if (routes_body_not_empty(req, resp)) return;
    struct idem idem;
    if (idem_begin(req, ADMIN_SCOPE, &idem, resp)) return;
    struct admin_ctx x = {req, resp, &idem, id, seq, 0};
    enum store_status s = store_chat_hide(id, seq, idem.active ? admin_keyed : NULL, &x);
    if (s == STORE_NOT_FOUND) { /* refused before any answer was made: the key stays free */
        problem_reply(resp, 404, "not_found", "The game's chat has no message with this seq.");
        return;
    }
    if (idem_finish(req, ADMIN_SCOPE, &idem, resp, s)) return;
    if (!idem.active) hide_answer(resp, id, seq);
    char seq_s[12];
    snprintf(seq_s, sizeof seq_s, "%d", seq);
    log_kv(LOG_INFO, "operator action", "action", "hide_message", "game", id, "seq", seq_s, NULL);
}

/* Suspends (`on`) or reinstates player `id`. */
static void suspend(const struct api_request *req, struct api_response *resp, const char *id,
                    int on)
{
    if (admin_auth(req, resp)) return;
    if (routes_body_not_empty(req, resp)) return;
    if (!id || !auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no player with this id.");
        return;
    }
    struct idem idem;
    if (idem_begin(req, ADMIN_SCOPE, &idem, resp)) return;
    struct admin_ctx x = {req, resp, &idem, id, 0, on};
    int games = 0;
    enum store_status s =
        store_person_suspend(id, on, &games, idem.active ? admin_keyed : NULL, &x);
    if (s == STORE_NOT_FOUND) { /* refused before any answer was made: the key stays free */
        problem_reply(resp, 404, "not_found", "There is no player with this id.");
        return;
    }
    if (idem_finish(req, ADMIN_SCOPE, &idem, resp, s)) return;
    if (!idem.active) suspend_answer(resp, id, on, games);
    char games_s[12];
    snprintf(games_s, sizeof games_s, "%d", games);
    log_kv(LOG_INFO, "operator action", "action", on ? "suspend" : "reinstate", "player", id,
           "games", on ? games_s : NULL, NULL);
}

void routes_admin_suspend(const struct api_request *req, struct api_response *resp, const char *id)
{
    suspend(req, resp, id, 1);
}

void routes_admin_reinstate(const struct api_request *req, struct api_response *resp,
                            const char *id)
{
    suspend(req, resp, id, 0);
}
