/* routes_seeks.c: play now (issue 26): POST /v1/seeks, GET /v1/seeks/{id}?wait= (a long
 * poll until the matchmaker's game), DELETE /v1/seeks/{id}, and GET /v1/seeks?ruleset= (the
 * lobby of open correspondence seeks, no token). The pairing is api/jobs/matchmaker.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "auth.h"
#include "idem.h"
#include "json_seek.h"
#include "live.h"
#include "log.h"
#include "matchmaker.h"
#include "problem.h"
#include "query_args.h"
#include "routes.h"
#include "store_seeks.h"

#define SEEK_WAIT_MAX 30  /* ?wait= at most (seconds) */
#define LOBBY_MAX     100 /* seeks the lobby lists at most */
#define SEEK_RECHECK_MS                                                                            \
    5000 /* a waiting long poll reads its seek again at least this often                           \
          * (more often when a third of the lapse is shorter) */

/* The seek `s` as JSON (cJSON, the caller deletes), or NULL out of memory. */
static cJSON *seek_json(const struct store_seek *s)
{
    cJSON *o = cJSON_Parse(s->pool); /* ruleset, players, options, clock, rated */
    if (!o) return NULL;
    cJSON_AddStringToObject(o, "id", s->id);
    cJSON_AddStringToObject(o, "status", s->status);
    cJSON *p = cJSON_AddObjectToObject(o, "player");
    if (p) {
        cJSON_AddStringToObject(p, "id", s->person_id);
        cJSON_AddStringToObject(p, "name", s->person_name);
    }
    if (s->has_range) {
        double r[2] = {s->rating_min, s->rating_max};
        cJSON_AddItemToObject(o, "rating_range", cJSON_CreateDoubleArray(r, 2));
    } else {
        cJSON_AddNullToObject(o, "rating_range");
    }
    if (s->bot_after_s)
        cJSON_AddNumberToObject(o, "bot_after_seconds", s->bot_after_s);
    else
        cJSON_AddNullToObject(o, "bot_after_seconds");
    cJSON_AddStringToObject(o, "created_at", s->created_at);
    cJSON_AddStringToObject(o, "expires_at", s->expires_at);
    if (s->game_id[0]) {
        cJSON_AddStringToObject(o, "game_id", s->game_id);
        cJSON_AddNumberToObject(o, "seat", s->seat);
    }
    return o;
}

/* Answers `o` (deleted) with `status`. */
static void reply_json(struct api_response *resp, int status, cJSON *o)
{
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (!text) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    api_reply_take(resp, status, "application/json", text);
}

/* A seek being created: what its answer is made of (created_reply(), seek_answer()). */
struct create_ctx {
    const struct api_request *req;
    struct api_response *resp;
    struct idem *idem;
};

/* Answers 201 with seek `s` just created into resp (replacing what it held); 0, or -1 out of
 * memory. */
static int created_reply(struct api_response *resp, const struct store_seek *s)
{
    free(resp->body);
    memset(resp, 0, sizeof *resp);
    snprintf(resp->location, sizeof resp->location, "/v1/seeks/%s", s->id);
    reply_json(resp, 201, seek_json(s));
    return resp->status == 201 ? 0 : -1;
}

/* store_seek_answer: the answer of a keyed request, kept with the seek. */
static const struct store_idem *seek_answer(void *arg, const struct store_seek *s)
{
    struct create_ctx *x = arg;
    if (created_reply(x->resp, s)) return NULL;
    idem_remember(x->idem, x->req, x->resp, x->resp->body);
    return &x->idem->rec;
}

void routes_seek_create(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    struct json_seek in;
    struct json_err err;
    if (json_in_seek(req->body, req->body_len, &in, &err)) {
        routes_body_refused(resp, &err);
        return;
    }
    /* A seek becomes a game: it counts against the creation limit as one. */
    if (routes_creation_limited_unkeyed(req, resp)) goto out;
    /* An Idempotency-Key (the player's own): a repeat gets the first answer and seeks
     * nothing more (nor takes a token); the answer is kept in the seek's transaction. */
    char scope[IDEM_SCOPE_MAX];
    snprintf(scope, sizeof scope, "seek/%s", me.id);
    struct idem idem;
    if (idem_begin(req, scope, &idem, resp)) goto out;
    if (routes_creation_limited_keyed(req, resp)) goto out;
    struct store_seek_new n = {.person_id = me.id,
                               .ruleset = in.ruleset,
                               .pool = in.pool,
                               .players = in.players,
                               .live = in.live,
                               .has_range = in.has_range,
                               .rating_min = in.rating_min,
                               .rating_max = in.rating_max,
                               .bot_after_s = in.bot_after_s};
    if (routes_new_id(resp, n.id)) goto out;
    struct create_ctx x = {req, resp, &idem};
    struct store_seek got;
    int full = 0;
    enum store_status s = store_seek_create(&n, idem.active ? seek_answer : NULL, &x, &got, &full);
    if (s == STORE_DUPLICATE && idem.active) {
        /* The same key raced this request and won: answer as a repeat would. */
        if (idem_lost_race(req, scope, &idem, resp)) goto out;
        s = STORE_ERROR;
    }
    if (s != STORE_OK) {
        free(resp->body);
        memset(resp, 0, sizeof *resp);
        problem_store(resp, s);
        goto out;
    }
    if (full) {
        problem_reply(resp, 429, "too_many_seeks",
                      "A player has at most 10 open seeks; cancel one or wait for a game.");
        goto out;
    }
    /* Due at once on whichever server claims it; if this fails the next run pairs it. */
    if (matchmaker_kick()) log_kv(LOG_WARN, "matchmaker not woken", "seek", n.id, NULL);
    /* A keyed request's answer was made in the transaction; out of memory it is a 500. */
    if (!idem.active) (void)created_reply(resp, &got);
    free(got.pool);
out:
    free(in.pool);
}

/* Reads seek `id` for `me` into `out`: 0, or 1 after answering (404, 403, the store). */
static int seek_of(struct api_response *resp, const char *id, const struct store_person *me,
                   int touch, struct store_seek *out)
{
    if (!id || !auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no seek with this id.");
        return 1;
    }
    if (problem_store_missing(resp, store_seek_poll(id, me->id, touch, out),
                              "There is no seek with this id."))
        return 1;
    if (strcmp(out->person_id, me->id) != 0) {
        free(out->pool);
        problem_reply(resp, 403, "not_seek_owner", "Only the seek's owner may do this.");
        return 1;
    }
    return 0;
}

void routes_seek_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    long wait = 0;
    if (query_uint(req, "wait", SEEK_WAIT_MAX, &wait)) {
        problem_reply(resp, 400, "invalid_parameter", "wait must be an integer from 0 to 30.");
        return;
    }
    if (!id || !auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no seek with this id.");
        return;
    }
    /* A long poll waits on the live hub (live.h): the seek's end (matched, cancelled,
     * expired) notifies from any server (migrations/0029). Armed before the read, so that an
     * end committed meanwhile still wakes it; read again at least every SEEK_RECHECK_MS in
     * case a notification was lost (which also keeps a live seek's last poll fresh). */
    int first = !req->async || !req->async->by_design; /* the request's first read */
    long long now = api_now_ms(), deadline = req->started_ms + wait * 1000;
    int waits = wait > 0 && !req->stopping && now < deadline;
    long long every = store_seeks_lapse() * 1000LL / 3;
    if (every > SEEK_RECHECK_MS) every = SEEK_RECHECK_MS;
    long long recheck = now + every < deadline ? now + every : deadline;
    int armed = waits && live_wait_arm_seek(req->async, id, recheck) == 0;
    if (waits && req->async) req->async->by_design = 1;
    if (!armed) live_wait_end(req->async);
    struct store_seek s;
    if (seek_of(resp, id, &me, first, &s)) {
        live_wait_end(req->async);
        return;
    }
    if (strcmp(s.status, "waiting") == 0 && waits) {
        free(s.pool);
        /* Woken by the hub; without it, read again at the HTTP layer's next tick. */
        resp->suspend = armed ? API_SUSPEND_WAKE : API_SUSPEND_TICK;
        return;
    }
    live_wait_end(req->async);
    reply_json(resp, 200, seek_json(&s));
    free(s.pool);
}

void routes_seek_delete(const struct api_request *req, struct api_response *resp, const char *id)
{
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    struct store_seek s;
    if (seek_of(resp, id, &me, 0, &s)) return;
    free(s.pool);
    s.pool = NULL;
    enum store_status st = store_seek_cancel(id, &s);
    if (st == STORE_CONFLICT) {
        char detail[96];
        snprintf(detail, sizeof detail, "The seek is %s already.", s.status);
        free(s.pool);
        problem_reply(resp, 409, "seek_not_waiting", detail);
        return;
    }
    if (st != STORE_OK) {
        problem_store(resp, st);
        return;
    }
    reply_json(resp, 200, seek_json(&s));
    free(s.pool);
}

void routes_seeks_lobby(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    const char *ruleset = api_query_get(req, "ruleset");
    if (ruleset && cc_ruleset_parse(ruleset) < 0) {
        problem_reply(resp, 400, "invalid_parameter", "ruleset must be a ruleset's name.");
        return;
    }
    struct store_seek *seeks = NULL;
    int n = 0;
    enum store_status s = store_seeks_lobby(ruleset, LOBBY_MAX, &seeks, &n);
    if (s != STORE_OK) {
        problem_store(resp, s);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON *arr = o ? cJSON_AddArrayToObject(o, "seeks") : NULL;
    for (int i = 0; arr && i < n; i++) {
        cJSON *one = seek_json(&seeks[i]);
        if (one) cJSON_AddItemToArray(arr, one);
    }
    store_seeks_free(seeks, n);
    reply_json(resp, 200, arr ? o : (cJSON_Delete(o), NULL));
}
