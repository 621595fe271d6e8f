/* routes_webhook.c: a seat's callback URL: set (answers its new secret, once), read (the URL
 * and how deliveries stand, never the secret), remove. Each needs the token of one of the
 * game's seats and reaches that seat's webhook only: a seat never replaces, removes or
 * reads another seat's webhook nor the creator's (given at creation, which no seat's token
 * reaches; webhooks carry credentials of their own, a chat's webhook for example). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_answers.h"
#include "idem.h"
#include "json_in.h"
#include "json_out.h"
#include "log.h"
#include "problem.h"
#include "routes.h"
#include "store.h"
#include "webhook.h"
#include "store_webhooks.h"

/* Logs `what` happened to the webhook of seat `seat` of game `game`. */
static void log_seat(const char *what, const char *game, int seat)
{
    char seat_s[12];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    log_kv(LOG_INFO, what, "game", game, "seat", seat_s, NULL);
}

/* Writes into `w` (initialised here) the webhook {"url","secret","standard_secret"}. */
static void secrets_json(struct json_out *w, const char *url, const char *secret,
                         const char *std_secret)
{
    json_out_init(w);
    json_out_begin_object(w);
    json_out_kstring(w, "url", url);
    json_out_kstring(w, "secret", secret);
    json_out_kstring(w, "standard_secret", std_secret);
    json_out_end_object(w);
}

int routes_webhook_url_read(const struct api_request *req, struct api_response *resp, char **url,
                            char format[STORE_HOOK_FORMAT_MAX])
{
    char why[160];
    struct json_err err;
    if (!(*url = malloc(STORE_URL_MAX + 1))) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return -1;
    }
    if (json_in_webhook(req->body, req->body_len, *url, format, &err)) {
        problem_reply(resp, 400, err.code, err.detail);
        return -1;
    }
    if (webhook_url_check(*url, why, sizeof why)) {
        problem_reply(resp, 400, "invalid_webhook_url", why);
        return -1;
    }
    return 0;
}

int routes_webhook_secrets_reply(struct api_response *resp, const char *url, char *secret,
                                 char *std_secret)
{
    if (webhook_secret_new(secret) || webhook_secret_std(secret, std_secret)) {
        problem_reply(resp, 500, "internal_error", "No secret could be drawn.");
        return -1;
    }
    struct json_out w;
    secrets_json(&w, url, secret, std_secret);
    api_reply_out(resp, 200, &w);
    return resp->status == 200 ? 0 : -1;
}

void routes_webhook_set(const struct api_request *req, struct api_response *resp, const char *id)
{
    int seat;
    struct api_game *ag = games_load_seat(req, resp, id, &seat);
    if (!ag) return;
    char *url = NULL, format[STORE_HOOK_FORMAT_MAX];
    struct idem idem;
    char scope[IDEM_SCOPE_MAX];
    snprintf(scope, sizeof scope, "%s/%d", ag->id, seat);
    if (routes_webhook_url_read(req, resp, &url, format)) goto out;
    if (idem_if_match(req, ag->row.version, resp)) goto out;
    if (idem_begin(req, scope, &idem, resp)) goto out;
    /* An idempotent repeat (the seat's own key) gets this answer again, secrets included:
     * sealed under the key and the seat's token (seal.h), never in the clear. */
    char secret[WEBHOOK_SECRET_LEN + 1], std_secret[WEBHOOK_STD_SECRET_LEN + 1];
    if (routes_webhook_secrets_reply(resp, url, secret, std_secret)) goto out;
    if (idem.active) idem_remember(&idem, req, resp, resp->body);
    enum store_status s =
        store_webhook_set(ag->id, seat, url, secret, format, idem.active ? &idem.rec : NULL);
    if (s == STORE_DUPLICATE && idem.active) {
        if (idem_lost_race(req, scope, &idem, resp)) goto out;
        s = STORE_ERROR;
    }
    if (s != STORE_OK) {
        problem_store(resp, s);
        goto out;
    }
    log_seat("webhook set", ag->id, seat);
out:
    free(url);
    games_free(ag);
}

void routes_webhook_state_json(struct json_out *w, const struct store_webhook_state *h, int games,
                               const char *error_game)
{
    json_out_begin_object(w);
    json_out_kstring(w, "url", h->url);
    json_out_kstring(w, "format", h->format[0] ? h->format : "tilehall");
    json_out_kstring(w, "since", h->since);
    if (games >= 0) json_out_kint(w, "games", games);
    json_out_kint(w, "delivered", h->delivered);
    if (games < 0)
        json_out_kint_or_null(w, "delivered_up_to", h->delivered_up_to >= 0, h->delivered_up_to);
    json_out_kint(w, "pending", h->pending);
    json_out_kint(w, "failed", h->gave_up);
    json_out_kint(w, "failed_attempts", h->failed_attempts);
    json_out_key(w, "last_error");
    if (h->has_error) {
        json_out_begin_object(w);
        if (games >= 0) json_out_kstring(w, "game", error_game);
        /* null: a chat message's delivery (its numbers are no event's) */
        json_out_kint_or_null(w, "seq", h->last_error_seq >= 0, h->last_error_seq);
        json_out_kint_or_null(w, "status", h->last_error_status > 0, h->last_error_status);
        json_out_kstring(w, "error", h->last_error);
        json_out_kstring(w, "at", h->last_error_at);
        json_out_end_object(w);
    } else {
        json_out_null(w);
    }
    json_out_end_object(w);
}

void routes_webhook_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    int seat;
    struct api_game *ag = games_load_seat(req, resp, id, &seat);
    if (!ag) return;
    struct store_webhook_state *st = malloc(sizeof *st);
    enum store_status s = st ? store_webhook_get(ag->id, seat, st) : STORE_ERROR;
    if (!problem_store_missing(resp, s,
                               "This seat has no webhook (a seat sees only the one it set).")) {
        struct json_out w;
        json_out_init(&w);
        routes_webhook_state_json(&w, st, -1, NULL);
        api_reply_out(resp, 200, &w);
    }
    free(st);
    games_free(ag);
}

void routes_webhook_delete(const struct api_request *req, struct api_response *resp, const char *id)
{
    int seat;
    struct api_game *ag = games_load_seat(req, resp, id, &seat);
    if (!ag) return;
    int deleted = 0;
    enum store_status s = store_webhook_delete(ag->id, seat, &deleted);
    if (s == STORE_OK && !deleted) s = STORE_NOT_FOUND;
    if (!problem_store_missing(resp, s,
                               "This seat has no webhook (a seat removes only the one it set).")) {
        resp->status = 204;
        log_seat("webhook removed", ag->id, seat);
    }
    games_free(ag);
}

char *routes_webhook_splice(const char *game, size_t len, const char *url, const char *secret,
                            size_t *out_len)
{
    char std_secret[WEBHOOK_STD_SECRET_LEN + 1];
    if (len < 2 || game[len - 1] != '}' || webhook_secret_std(secret, std_secret)) return NULL;
    struct json_out w;
    secrets_json(&w, url, secret, std_secret);
    size_t hlen = 0;
    char *hook = json_out_take(&w, &hlen);
    static const char key[] = ",\"webhook\":";
    char *out = hook ? malloc(len - 1 + sizeof key - 1 + hlen + 2) : NULL;
    if (out) {
        size_t o = 0;
        memcpy(out, game, len - 1);
        o = len - 1;
        memcpy(out + o, key, sizeof key - 1);
        o += sizeof key - 1;
        memcpy(out + o, hook, hlen);
        o += hlen;
        out[o++] = '}';
        out[o] = '\0';
        *out_len = o;
    }
    free(hook);
    return out;
}
