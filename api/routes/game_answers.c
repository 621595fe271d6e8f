/* game_answers.c: stored games as answers to requests: loaded or refused with the right
 * problem, the seat a request speaks for, the cached GET answer -- see game_answers.h. The
 * game layer (game/games.c) loads and caches; this file speaks HTTP about it. */
#include "game_answers.h"

#include <stdio.h>
#include <string.h>

#include "batcher.h"
#include "problem.h"
#include "store_games.h"

struct api_game *games_load(const char *id, enum games_from from, struct api_response *resp)
{
    return games_load_at(id, from, -1, resp);
}

struct api_game *games_load_at(const char *id, enum games_from from, int version,
                               struct api_response *resp)
{
    enum games_fail why;
    struct api_game *ag = games_fetch(id, from, version, &why);
    if (!ag) games_fail_answer(resp, why);
    return ag;
}

struct api_game *games_load_seat(const struct api_request *req, struct api_response *resp,
                                 const char *id, int *seat)
{
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (ag && (*seat = games_seat(req, ag, resp)) < 0) {
        games_free(ag);
        ag = NULL;
    }
    return ag;
}

void games_fail_answer(struct api_response *resp, enum games_fail why)
{
    switch (why) {
    case GAMES_OK:
        break;
    case GAMES_NOT_FOUND:
        problem_reply(resp, 404, "not_found", "There is no game with this id.");
        break;
    case GAMES_UNAVAILABLE:
        problem_store(resp, STORE_UNAVAILABLE);
        break;
    case GAMES_CORRUPT:
        problem_engine(resp, CC_ERR_CORRUPT);
        break;
    case GAMES_NO_MEMORY:
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        break;
    case GAMES_ERROR:
        problem_store(resp, STORE_ERROR);
        break;
    }
}

int games_current_version(const char *id, const struct api_request *req, struct api_response *resp,
                          int *version)
{
    *version = -1;
    if (!games_cache_on() || !auth_uuid_valid(id)) return 0;
    enum store_status vs;
    struct api_async *a = req->async;
    if (a && a->pending && req->stopping) a->cancel(a); /* ask directly instead */
    if (a && batcher_running() && !req->stopping) {
        int st = batcher_version_async(id, a, version);
        if (st < 0) {
            resp->suspend = API_SUSPEND_WAKE;
            return 1;
        }
        vs = (enum store_status)st;
    } else {
        vs = batcher_version(id, version);
    }
    if (vs == STORE_OK && *version < 0) vs = STORE_NOT_FOUND;
    if (vs != STORE_OK) {
        *version = -1;
        problem_store(resp, vs);
        return 1;
    }
    return 0;
}

/* games_cached_body()'s use: the body as a 200 answer. */
static void answer_body(void *arg, const char *body, size_t len)
{
    api_reply_copy(arg, 200, "application/json", body, len);
}

int games_answer_cached(const char *id, int version, struct api_response *resp)
{
    if (!games_cached_body(id, version, answer_body, resp) || resp->status != 200) return 0;
    games_etag(resp, version);
    return 1;
}

int games_seat(const struct api_request *req, struct api_game *ag, struct api_response *resp)
{
    const char *token = auth_bearer(req->authorization);
    if (!token) {
        problem_reply(resp, 401, "missing_token",
                      "This needs a player's token: Authorization: Bearer <token>.");
        return -1;
    }
    int seat, suspended;
    enum store_status st = games_seat_of(ag, token, &seat, &suspended);
    if (st != STORE_OK) {
        problem_store(resp, st);
        return -1;
    }
    if (suspended) {
        problem_reply(resp, 403, "player_suspended",
                      "The operator suspended this player: its tokens are refused until it is "
                      "reinstated.");
        return -1;
    }
    if (seat < 0)
        problem_reply(resp, 401, "unknown_token", "The token is not one of this game's players'.");
    return seat;
}

void games_etag(struct api_response *resp, int version)
{
    snprintf(resp->etag, sizeof resp->etag, "\"%d\"", version);
}

int games_not_active(const struct api_game *ag, struct api_response *resp)
{
    if (ag->row.state == STORE_PLAYING) return 0;
    games_not_active_answer(resp, ag->row.state);
    return 1;
}

void games_not_active_answer(struct api_response *resp, enum store_game_state state)
{
    if (state == STORE_WAITING)
        problem_reply(resp, 409, "game_not_active",
                      "The game is waiting for its open seats to be taken (POST "
                      "/v1/games/{id}/join): it can be read, not played yet.");
    else if (state == STORE_ABORTED)
        problem_reply(resp, 409, "game_not_active",
                      "The game was aborted: nothing more can be played.");
    else
        problem_reply(resp, 409, "game_not_active", "Only a game under way can be resigned.");
}
