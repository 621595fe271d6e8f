/* routes_turn.c: the actions of a turn (draw, place) and the legal placements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "auth.h"
#include "games.h"
#include "idem.h"
#include "json_game.h"
#include "json_in.h"
#include "log.h"
#include "problem.h"
#include "routes.h"
#include "store.h"

/* Heap state of an action request (the engine structs are large). */
struct turn {
    struct cc_events ev;                               /* the events the action caused */
    struct cc_placement placements[CC_MAX_PLACEMENTS]; /* scratch for the draw answer */
    uint8_t snapshot[CC_SNAPSHOT_MAX];                 /* the new state, encoded */
};

/*
 * The seat whose token the request carries. Returns the seat, or -1 after answering
 * 401 missing_token / unknown_token (with WWW-Authenticate).
 */
static int authenticate(const struct api_request *req, const struct api_game *ag,
                        struct api_response *resp)
{
    const char *token = auth_bearer(req->authorization);
    if (!token) {
        problem_reply(resp, 401, "missing_token",
                      "This action needs the player's token: Authorization: Bearer <token>.");
        return -1;
    }
    uint8_t h[AUTH_HASH_LEN];
    int seat = -1;
    if (auth_sha256(token, strlen(token), h) == 0) {
        /* Compare with every seat, in constant time each, without stopping early. */
        for (int s = 0; s < ag->row.nplayers; s++)
            if (auth_hash_equal(h, ag->row.players[s].token_hash)) seat = s;
    }
    if (seat < 0)
        problem_reply(resp, 401, "unknown_token", "The token is not one of this game's players'.");
    return seat;
}

/*
 * Runs an action for `id`: decode, authenticate, replay or precondition, apply, store,
 * answer. `place` selects placement (body decoded for the game's ruleset) over draw.
 */
static void act(const struct api_request *req, struct api_response *resp, const char *id, int place)
{
    struct turn *t = NULL;
    cJSON *events = NULL, *answer = NULL, *action = NULL;
    char *events_txt = NULL, *action_txt = NULL;
    struct api_game *ag = games_load(id, resp);
    if (!ag) return;
    int seat = authenticate(req, ag, resp);
    if (seat < 0) goto out;
    struct cc_action a;
    struct json_err err;
    if (place) {
        if (json_in_placement(req->body, req->body_len, (enum cc_ruleset)ag->g.ruleset, &a, &err)) {
            problem_reply(resp, 400, err.code, err.detail);
            goto out;
        }
    } else {
        if (json_in_empty(req->body, req->body_len, &err)) {
            problem_reply(resp, 400, err.code, err.detail);
            goto out;
        }
        memset(&a, 0, sizeof a);
        a.kind = CC_ACTION_DRAW;
        a.tile = CC_NO_TILE;
    }
    a.seat = (uint8_t)seat;
    char scope[IDEM_SCOPE_MAX];
    snprintf(scope, sizeof scope, "%s/%d", ag->id, seat);
    struct idem idem;
    if (idem_begin(req, scope, &idem, resp)) goto out;
    if (idem_if_match(req, ag->row.version, resp)) goto out;

    t = malloc(sizeof *t);
    if (!t) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    t->ev.n = 0;
    enum cc_status st = cc_game_apply(&ag->g, &a, &t->ev);
    if (st != CC_OK) {
        problem_engine(resp, st);
        goto out;
    }
    size_t snap_len = cc_game_encode(&ag->g, t->snapshot, sizeof t->snapshot);
    if (!snap_len) {
        problem_engine(resp, CC_ERR_CORRUPT);
        goto out;
    }
    int version = ag->row.version + 1;
    events = cJSON_CreateArray();
    int nev = json_events(&ag->g, &t->ev, 0, ag->row.last_seq + 1, events);
    events_txt = cJSON_PrintUnformatted(events);
    action = json_action(&ag->g, &a);
    action_txt = action ? cJSON_PrintUnformatted(action) : NULL;

    int status;
    if (place) {
        status = 201;
        answer = cJSON_CreateObject();
        cJSON_AddNumberToObject(answer, "version", version);
        cJSON_AddItemReferenceToObject(answer, "events", events);
    } else {
        status = 200;
        struct json_game_meta meta = {ag->id, version, ag->names};
        answer = cJSON_CreateObject();
        cJSON_AddItemToObject(answer, "game", json_game(&ag->g, &meta));
        cJSON *pl = json_placements(&ag->g, t->placements, CC_MAX_PLACEMENTS);
        cJSON *tile = cJSON_DetachItemFromObjectCaseSensitive(pl, "tile");
        cJSON *list = cJSON_DetachItemFromObjectCaseSensitive(pl, "placements");
        cJSON_Delete(pl);
        cJSON_AddItemToObject(answer, "tile", tile ? tile : cJSON_CreateNull());
        cJSON_AddItemToObject(answer, "placements", list ? list : cJSON_CreateArray());
        cJSON_AddItemReferenceToObject(answer, "events", events);
    }
    char *answer_txt = answer ? cJSON_PrintUnformatted(answer) : NULL;
    if (!events_txt || !action_txt || !answer_txt) {
        free(answer_txt);
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    api_reply_take(resp, status, "application/json", answer_txt);
    games_etag(resp, version);
    if (idem.active) idem_remember(&idem, req, resp, resp->body);
    struct store_commit c = {
        .id = ag->id,
        .version = ag->row.version,
        .status = json_status(&ag->g),
        .last_seq = ag->row.last_seq + nev,
        .snapshot = t->snapshot,
        .snapshot_len = snap_len,
        .seat = seat,
        .kind = place ? "place" : "draw",
        .action_json = action_txt,
        .events_json = events_txt,
        .idem = idem.active ? &idem.rec : NULL,
    };
    enum store_status ss = store_game_commit(&c);
    if (ss == STORE_OK) goto out;
    resp->etag[0] = '\0';
    if (ss == STORE_DUPLICATE && idem.active) {
        /* The same key raced us and won: answer as a repeat would. */
        if (idem_begin(req, scope, &idem, resp)) goto out;
        ss = STORE_CONFLICT;
    }
    if (ss == STORE_CONFLICT)
        problem_reply(resp, 412, "version_mismatch",
                      "The game moved on while this action was applied; reload it and retry.");
    else
        games_store_failed(resp, ss);
out:
    cJSON_Delete(events);
    cJSON_Delete(answer);
    cJSON_Delete(action);
    free(events_txt);
    free(action_txt);
    free(t);
    games_free(ag);
}

void routes_draw(const struct api_request *req, struct api_response *resp, const char *id)
{
    act(req, resp, id, 0);
}

void routes_placements_post(const struct api_request *req, struct api_response *resp,
                            const char *id)
{
    act(req, resp, id, 1);
}

void routes_placements_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    struct api_game *ag = games_load(id, resp);
    if (!ag) return;
    int hand = ag->g.ruleset == CC_RULESET_DISCOVERY && ag->g.options.draw == CC_DRAW_HAND;
    if (ag->g.phase == CC_PHASE_FINISHED) {
        problem_engine(resp, CC_ERR_GAME_FINISHED);
    } else if (ag->g.phase != CC_PHASE_PLACE && !hand) {
        problem_engine(resp, CC_ERR_WRONG_PHASE);
    } else {
        struct cc_placement *buf = malloc(CC_MAX_PLACEMENTS * sizeof *buf);
        if (!buf)
            problem_reply(resp, 500, "internal_error", "Out of memory.");
        else
            api_reply_json(resp, 200, json_placements(&ag->g, buf, CC_MAX_PLACEMENTS));
        free(buf);
        games_etag(resp, ag->row.version);
    }
    games_free(ag);
}
