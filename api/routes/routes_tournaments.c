/* routes_tournaments.c: tournaments while they are open (issue 27; api.md, "Tournaments"):
 * POST /v1/tournaments (a player's token; the creator organises, and is an entrant only by
 * joining), POST /v1/tournaments/{id}/join and /leave (a player's token, while it is open),
 * GET /v1/tournaments?status=&limit= and GET /v1/tournaments/{id} (no token). The pairing
 * of rounds (api/game/pairing.h) is not served yet: a tournament stays open. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "json_tournament.h"
#include "log.h"
#include "params.h"
#include "problem.h"
#include "routes.h"
#include "store.h"
#include "store_people.h"
#include "store_tournaments.h"

#define TOURNEY_LIST_DEFAULT 20  /* ?limit= when not given */
#define TOURNEY_LIST_MAX     100 /* ?limit= at most */

/* Answers tournament `id` as the database builds it, with `status`. */
static void reply_tournament(struct api_response *resp, const char *id, int status)
{
    char *json = NULL;
    enum store_status s = store_tournament_json(id, &json);
    if (s == STORE_NOT_FOUND) {
        problem_reply(resp, 404, "not_found", "There is no tournament with this id.");
        return;
    }
    if (s != STORE_OK) {
        problem_store(resp, s);
        return;
    }
    api_reply_take(resp, status, "application/json", json);
}

void routes_tournament_create(const struct api_request *req, struct api_response *resp,
                              const char *arg)
{
    (void)arg;
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    if (routes_creation_limited(req, resp)) return; /* a creation, as a game's or a player's */
    struct json_tournament t;
    struct json_err err;
    if (json_in_tournament(req->body, req->body_len, &t, &err)) {
        if (strcmp(err.code, "internal_error") == 0)
            problem_reply(resp, 500, err.code, err.detail);
        else
            problem_reply(resp, 400, err.code, err.detail);
        json_tournament_free(&t);
        return;
    }
    char id[AUTH_UUID_LEN + 1];
    if (auth_uuid_new(id)) {
        json_tournament_free(&t);
        problem_reply(resp, 500, "internal_error", "No id could be drawn.");
        return;
    }
    struct store_tournament_new row = {.id = id,
                                       .name = t.name,
                                       .organiser = me.id,
                                       .format = t.format,
                                       .ruleset = t.ruleset,
                                       .options_json = t.options_json,
                                       .players_per_game = t.players_per_game,
                                       .rounds = t.rounds,
                                       .clock_json = t.clock_json,
                                       .rated = t.rated,
                                       .max_players = t.max_players,
                                       .starts_at = t.starts_at[0] ? t.starts_at : NULL};
    enum store_status s = store_tournament_create(&row);
    json_tournament_free(&t);
    if (s != STORE_OK) {
        problem_store(resp, s);
        return;
    }
    log_kv(LOG_INFO, "tournament created", "tournament", id, "by", me.id, NULL);
    snprintf(resp->location, sizeof resp->location, "/v1/tournaments/%s", id);
    reply_tournament(resp, id, 201);
}

/* A join (`join` 1) or a leave of tournament `id` by the request's player. */
static void entry(const struct api_request *req, struct api_response *resp, const char *id,
                  int join)
{
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    if (join && routes_creation_limited(req, resp)) return; /* as a game's join */
    struct json_err err;
    if (json_in_empty(req->body, req->body_len, &err)) {
        problem_reply(resp, 400, err.code, err.detail);
        return;
    }
    if (!id || !auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no tournament with this id.");
        return;
    }
    enum store_entry e;
    enum store_status s = store_tournament_entry(id, me.id, join, &e);
    if (s == STORE_NOT_FOUND) {
        problem_reply(resp, 404, "not_found", "There is no tournament with this id.");
        return;
    }
    if (s != STORE_OK) {
        problem_store(resp, s);
        return;
    }
    switch (e) {
    case STORE_ENTRY_NOT_OPEN:
        problem_reply(resp, 409, "tournament_not_open",
                      join ? "The tournament is no longer open: nobody joins now."
                           : "The tournament is no longer open: nobody leaves it this way now.");
        return;
    case STORE_ENTRY_FULL:
        problem_reply(resp, 409, "tournament_full",
                      "The tournament has its max_players entrants already.");
        return;
    case STORE_ENTRY_DONE:
        log_kv(LOG_INFO, join ? "tournament joined" : "tournament left", "tournament", id, "player",
               me.id, NULL);
        /* fall through */
    case STORE_ENTRY_ALREADY:
        break;
    }
    /* A join answers the tournament as it is now (201 when this request made the entry); a
     * leave, that it is gone either way. */
    if (!join) {
        resp->status = 204;
        return;
    }
    reply_tournament(resp, id, e == STORE_ENTRY_DONE ? 201 : 200);
}

void routes_tournament_join(const struct api_request *req, struct api_response *resp,
                            const char *id)
{
    entry(req, resp, id, 1);
}

void routes_tournament_leave(const struct api_request *req, struct api_response *resp,
                             const char *id)
{
    entry(req, resp, id, 0);
}

void routes_tournament_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    if (!id || !auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no tournament with this id.");
        return;
    }
    reply_tournament(resp, id, 200);
}

void routes_tournaments_list(const struct api_request *req, struct api_response *resp,
                             const char *arg)
{
    (void)arg;
    static const char *const statuses[] = {"open", "running", "finished", "cancelled"};
    const char *status = api_query_get(req, "status");
    const char *limit = api_query_get(req, "limit");
    const char *which = NULL;
    for (size_t i = 0; status && i < sizeof statuses / sizeof statuses[0]; i++)
        if (strcmp(status, statuses[i]) == 0) which = statuses[i];
    if (status && !which) {
        problem_reply(resp, 400, "invalid_parameter",
                      "status must be open, running, finished or cancelled.");
        return;
    }
    long l = TOURNEY_LIST_DEFAULT;
    if (limit && (params_uint(limit, TOURNEY_LIST_MAX, &l) || l < 1)) {
        problem_reply(resp, 400, "invalid_parameter", "limit must be a number from 1 to 100.");
        return;
    }
    char *json = NULL;
    enum store_status s = store_tournaments_list(which, (int)l, &json);
    (void)api_reply_raw_member(resp, s, "tournaments", json);
}
