/* replay.c: a past version of a game. The state at version N is the setup (POST /v1/games
 * as stored: ruleset, options, seed, start tile, deck) with the stored actions that
 * produced versions 2 .. N applied by the engine in order: the engine is a pure function
 * of them, so the state is exactly the one that was stored at version N. */
#include "replay.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_in.h"
#include "log.h"
#include "params.h"
#include "problem.h"
#include "store.h"
#include "store_games.h"
#include "store_history.h"

int replay_version_param(const struct api_request *req, struct api_response *resp, int *version)
{
    *version = -1;
    size_t seen = 0;
    for (size_t i = 0; i < req->nquery; i++) seen += strcmp(req->query[i].name, "version") == 0;
    const char *v = api_query_get(req, "version");
    if (!v && !seen && !req->query_overflow) return 0;
    long n = 0;
    if (req->query_overflow || seen != 1 || !v || params_uint(v, INT_MAX, &n) || n < 1) {
        problem_reply(resp, 400, "invalid_parameter",
                      "version must be one whole number of 1 or more (and 16 parameters at most).");
        return -1;
    }
    *version = (int)n;
    return 0;
}

void replay_cache_forever(struct api_response *resp)
{
    resp->cache_control = "public, max-age=31536000, immutable";
}

/* Applies the stored action `a` (its JSON body) to `g`. Returns 0 or -1. */
static int apply_stored(struct cc_game *g, cJSON *a, struct cc_events *ev)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(a, "kind");
    const cJSON *seat = cJSON_GetObjectItemCaseSensitive(a, "seat");
    if (!cJSON_IsString(kind) || !cJSON_IsNumber(seat) || seat->valueint < 0 ||
        seat->valueint >= CC_MAX_PLAYERS)
        return -1;
    uint8_t who = (uint8_t)seat->valueint; /* read before the item is deleted below */
    struct cc_action act;
    if (strcmp(kind->valuestring, "draw") == 0) {
        memset(&act, 0, sizeof act);
        act.kind = CC_ACTION_DRAW;
        act.tile = CC_NO_TILE;
    } else if (strcmp(kind->valuestring, "place") == 0) {
        /* The body of a placement as a client sends it: the action without kind and seat. */
        cJSON_DeleteItemFromObjectCaseSensitive(a, "kind");
        cJSON_DeleteItemFromObjectCaseSensitive(a, "seat");
        char *body = cJSON_PrintUnformatted(a);
        struct json_err err;
        int bad =
            !body || json_in_placement(body, strlen(body), (enum cc_ruleset)g->ruleset, &act, &err);
        free(body);
        if (bad) return -1;
    } else if (strcmp(kind->valuestring, "resign") == 0) {
        memset(&act, 0, sizeof act);
        act.kind = CC_ACTION_RESIGN;
        act.tile = CC_NO_TILE;
    } else if (strcmp(kind->valuestring, "join") == 0 || strcmp(kind->valuestring, "abort") == 0) {
        return 0; /* the lobby's (routes_lobby.c): seats and status, not the engine's state */
    } else {
        return -1;
    }
    act.seat = who;
    ev->n = 0;
    return cc_game_apply(g, &act, ev) == CC_OK ? 0 : -1;
}

/* Rebuilds ag->g at `version` from `h`. Returns 0 or -1. */
static int rebuild(struct api_game *ag, const struct store_history *h, int version)
{
    int rc = -1;
    struct json_new_game *in = malloc(sizeof *in);
    struct cc_events *ev = malloc(sizeof *ev);
    cJSON *actions = cJSON_Parse(h->actions);
    struct json_err err;
    /* At most one action a version: a commit of events only (a clock's deadline_near,
     * clocks_run.c) moves the version on without one. */
    if (!in || !ev || !cJSON_IsArray(actions) || cJSON_GetArraySize(actions) > version - 1 ||
        json_in_new_game(h->setup, strlen(h->setup), in, &err) ||
        cc_game_new(&ag->g, &in->setup, ev) != CC_OK)
        goto out;
    /* The lobby's state at `version` (routes_lobby.c): the seats open at creation until
     * their join, `aborted` after an abort. */
    unsigned open = in->open_seats;
    int aborted = 0;
    cJSON *a;
    cJSON_ArrayForEach(a, actions)
    {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(a, "kind");
        const cJSON *seat = cJSON_GetObjectItemCaseSensitive(a, "seat");
        if (cJSON_IsString(kind) && cJSON_IsNumber(seat) && seat->valueint >= 0 &&
            seat->valueint < CC_MAX_PLAYERS) {
            if (strcmp(kind->valuestring, "join") == 0) open &= ~(1u << seat->valueint);
            if (strcmp(kind->valuestring, "abort") == 0) aborted = 1;
        }
        if (apply_stored(&ag->g, a, ev)) goto out;
    }
    rc = ag->g.nplayers == ag->row.nplayers ? 0 : -1;
    if (rc) goto out;
    ag->row.state = aborted ? STORE_ABORTED : open ? STORE_WAITING : STORE_PLAYING;
    for (int s = 0; s < ag->row.nplayers; s++) {
        int was_open = (open >> s) & 1u;
        /* A seat still open then shows its placeholder name, not who took it later. */
        if (was_open && !ag->row.players[s].open)
            snprintf(ag->row.players[s].name, sizeof ag->row.players[s].name, "%s", in->names[s]);
        ag->row.players[s].open = was_open;
    }
out:
    cJSON_Delete(actions);
    free(ev);
    free(in);
    return rc;
}

struct api_game *replay_load(const char *id, int version, struct api_response *resp)
{
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return NULL;
    if (version > ag->row.version) {
        problem_reply(resp, 404, "version_not_found",
                      "The game has not reached this version (yet): see its version.");
        goto fail;
    }
    if (version == ag->row.version) return ag;
    struct store_history h;
    enum store_status s = store_game_history(ag->id, version, &h);
    if (s != STORE_OK) {
        problem_store(resp, s);
        store_history_free(&h);
        goto fail;
    }
    int rc = rebuild(ag, &h, version);
    store_history_free(&h);
    if (rc) {
        log_kv(LOG_ERROR, "stored game does not replay", "game", ag->id, NULL);
        problem_engine(resp, CC_ERR_CORRUPT);
        goto fail;
    }
    ag->row.version = version;
    ag->row.last_seq = -1; /* not known (nor needed by the views) */
    ag->cached = 0;
    return ag;
fail:
    games_free(ag);
    return NULL;
}
