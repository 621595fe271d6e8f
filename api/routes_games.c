/* routes_games.c: creating a game and the public reads (game, scores, events). */
#include <errno.h>
#include <limits.h>
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

#define EVENTS_PAGE 1000 /* events per answer at most */
#define MAX_WAIT    60   /* seconds a long poll may wait */

/* Heap state of a create request (the engine structs are large). */
struct create {
    struct json_new_game in;                         /* the decoded body */
    struct cc_game g;                                /* the new game */
    struct cc_events ev;                             /* its setup events */
    struct store_player players[CC_MAX_PLAYERS];     /* names and token hashes */
    char tokens[CC_MAX_PLAYERS][AUTH_TOKEN_LEN + 1]; /* the secrets, answered once */
    uint8_t snapshot[CC_SNAPSHOT_MAX];               /* the encoded state */
};

/* The game_created event (seq 1): ruleset, options, players. */
static cJSON *created_event(const struct cc_game *g, const struct json_new_game *in)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "seq", 1);
    cJSON_AddStringToObject(o, "type", "game_created");
    cJSON_AddStringToObject(o, "ruleset", cc_ruleset_name((enum cc_ruleset)g->ruleset));
    cJSON_AddItemToObject(o, "options", json_options(g));
    cJSON *ps = cJSON_AddArrayToObject(o, "players");
    for (unsigned s = 0; s < g->nplayers; s++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddItemToArray(ps, p);
        cJSON_AddNumberToObject(p, "seat", s);
        cJSON_AddStringToObject(p, "name", in->names[s]);
    }
    return o;
}

void routes_game_create(const struct api_request *req, struct api_response *resp)
{
    struct create *c = calloc(1, sizeof *c);
    cJSON *events = NULL, *answer = NULL, *options = NULL, *deck = NULL;
    char *events_txt = NULL, *options_txt = NULL, *deck_txt = NULL, *stored_txt = NULL;
    char *answer_txt = NULL;
    struct idem idem;
    if (!c) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    struct json_err err;
    if (json_in_new_game(req->body, req->body_len, &c->in, &err)) {
        problem_reply(resp, 400, err.code, err.detail);
        goto out;
    }
    if (idem_begin(req, "create", &idem, resp)) goto out;
    if (!c->in.seed_given && auth_random_u64(&c->in.setup.seed)) {
        problem_reply(resp, 500, "internal_error", "No random seed could be drawn.");
        goto out;
    }
    enum cc_status st = cc_game_new(&c->g, &c->in.setup, &c->ev);
    if (st != CC_OK) {
        problem_engine(resp, st);
        goto out;
    }
    char id[AUTH_UUID_LEN + 1];
    if (auth_uuid_new(id)) {
        problem_reply(resp, 500, "internal_error", "No game id could be drawn.");
        goto out;
    }
    for (unsigned s = 0; s < c->g.nplayers; s++) {
        snprintf(c->players[s].name, sizeof c->players[s].name, "%s", c->in.names[s]);
        if (auth_token_new(c->tokens[s]) ||
            auth_sha256(c->tokens[s], AUTH_TOKEN_LEN, c->players[s].token_hash)) {
            problem_reply(resp, 500, "internal_error", "No token could be drawn.");
            goto out;
        }
    }
    size_t snap_len = cc_game_encode(&c->g, c->snapshot, sizeof c->snapshot);
    if (!snap_len) {
        problem_engine(resp, CC_ERR_CORRUPT);
        goto out;
    }

    events = cJSON_CreateArray();
    cJSON_AddItemToArray(events, created_event(&c->g, &c->in));
    int nev = 1 + json_events(&c->g, &c->ev, 0, 2, events);

    const char *names[CC_MAX_PLAYERS];
    for (int s = 0; s < CC_MAX_PLAYERS; s++) names[s] = c->in.names[s];
    struct json_game_meta meta = {id, 1, names};
    answer = json_game(&c->g, &meta);
    options = json_options(&c->g);
    if (c->in.setup.deck_len >= 0) {
        deck = cJSON_CreateArray();
        for (int i = 0; i < c->in.setup.deck_len; i++)
            cJSON_AddItemToArray(deck,
                                 cJSON_CreateString(json_tile_id(&c->g, c->in.setup.deck[i])));
    }
    /* What an idempotent repeat gets: the answer without the tokens, which are stored
     * nowhere but as hashes. */
    stored_txt = answer ? cJSON_PrintUnformatted(answer) : NULL;
    cJSON *players = cJSON_GetObjectItemCaseSensitive(answer, "players");
    unsigned s = 0;
    for (cJSON *p = players ? players->child : NULL; p; p = p->next, s++)
        cJSON_AddStringToObject(p, "token", c->tokens[s]);
    answer_txt = answer ? cJSON_PrintUnformatted(answer) : NULL;
    events_txt = cJSON_PrintUnformatted(events);
    options_txt = cJSON_PrintUnformatted(options);
    deck_txt = deck ? cJSON_PrintUnformatted(deck) : NULL;
    if (!stored_txt || !answer_txt || !events_txt || !options_txt || (deck && !deck_txt)) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }

    resp->status = 201;
    snprintf(resp->location, sizeof resp->location, "/v1/games/%s", id);
    games_etag(resp, 1);
    if (idem.active) idem_remember(&idem, req, resp, stored_txt);
    struct store_new_game ng = {
        .id = id,
        .ruleset = cc_ruleset_name((enum cc_ruleset)c->g.ruleset),
        .options_json = options_txt,
        .seed = c->g.seed,
        .start = c->in.start[0] ? c->in.start : NULL,
        .deck_json = deck_txt,
        .status = json_status(&c->g),
        .last_seq = nev,
        .snapshot = c->snapshot,
        .snapshot_len = snap_len,
        .nplayers = c->g.nplayers,
        .players = c->players,
        .events_json = events_txt,
        .idem = idem.active ? &idem.rec : NULL,
    };
    enum store_status ss = store_game_create(&ng);
    if (ss == STORE_DUPLICATE && idem.active) {
        /* The same key raced us and won: answer as a repeat would. */
        resp->location[0] = resp->etag[0] = '\0';
        if (idem_begin(req, "create", &idem, resp)) goto out;
    }
    if (ss != STORE_OK) {
        resp->location[0] = resp->etag[0] = '\0';
        games_store_failed(resp, ss);
        goto out;
    }
    api_reply_take(resp, 201, "application/json", answer_txt);
    answer_txt = NULL;
    log_kv(LOG_INFO, "game created", "game", id, "ruleset", ng.ruleset, NULL);
out:
    cJSON_Delete(events);
    cJSON_Delete(answer);
    cJSON_Delete(options);
    cJSON_Delete(deck);
    free(events_txt);
    free(options_txt);
    free(deck_txt);
    free(stored_txt);
    free(answer_txt);
    free(c);
}

void routes_game_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    struct api_game *ag = games_load(id, resp);
    if (!ag) return;
    struct json_game_meta meta = {ag->id, ag->row.version, ag->names};
    api_reply_json(resp, 200, json_game(&ag->g, &meta));
    games_etag(resp, ag->row.version);
    games_free(ag);
}

void routes_scores(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    struct api_game *ag = games_load(id, resp);
    if (!ag) return;
    api_reply_json(resp, 200, json_scores(&ag->g, ag->names));
    games_etag(resp, ag->row.version);
    games_free(ag);
}

/* Reads query parameter `name` as an integer in [0, max] (default 0). Returns 0 or -1. */
static int query_int(const struct api_request *req, const char *name, long max, long *out)
{
    const char *v = api_query_get(req, name);
    *out = 0;
    if (!v) return 0;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < 0 || x > max || v[0] == '+' || v[0] == ' ') return -1;
    *out = x;
    return 0;
}

void routes_events(const struct api_request *req, struct api_response *resp, const char *id)
{
    long after, wait;
    if (query_int(req, "after", INT_MAX, &after)) {
        problem_reply(resp, 400, "invalid_parameter", "after must be an integer of 0 or more.");
        return;
    }
    if (query_int(req, "wait", MAX_WAIT, &wait)) {
        problem_reply(resp, 400, "invalid_parameter", "wait must be an integer from 0 to 60.");
        return;
    }
    if (!auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no game with this id.");
        return;
    }
    char *list = NULL;
    int count = 0;
    enum store_status s = store_events(id, (int)after, EVENTS_PAGE, &list, &count);
    if (s == STORE_NOT_FOUND) {
        problem_reply(resp, 404, "not_found", "There is no game with this id.");
        return;
    }
    if (s != STORE_OK) {
        games_store_failed(resp, s);
        return;
    }
    if (count == 0 && wait > 0 && !req->stopping && api_now_ms() < req->started_ms + wait * 1000) {
        free(list);
        resp->suspend = 1; /* the HTTP layer runs the request again shortly */
        return;
    }
    static const char head[] = "{\"events\":";
    size_t len = strlen(list);
    char *body = malloc(sizeof head + len + 1);
    if (body) {
        memcpy(body, head, sizeof head - 1);
        memcpy(body + sizeof head - 1, list, len);
        body[sizeof head - 1 + len] = '}';
        body[sizeof head + len] = '\0';
    }
    free(list);
    if (!body)
        problem_reply(resp, 500, "internal_error", "Out of memory.");
    else
        api_reply_take(resp, 200, "application/json", body);
}
