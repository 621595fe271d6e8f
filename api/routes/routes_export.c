/* routes_export.c: a finished game as a file (GET /v1/games/{id}/export) and a game created
 * again from one (POST /v1/games {"replay": <export>}): the setup and every action, played by
 * the engine, the events written as the original's commits wrote them, stored in one
 * transaction (a refused replay stores nothing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "auth.h"
#include "bots.h"
#include "game/service.h"
#include "game_answers.h"
#include "idem.h"
#include "json_export.h"
#include "json_game.h"
#include "json_in.h"
#include "log.h"
#include "problem.h"
#include "query_args.h"
#include "replay.h"
#include "routes.h"
#include "store.h"
#include "store_games.h"
#include "store_people.h"
#include "store_history.h"

#define CREATE_SCOPE "create" /* as routes_games.c: a replay is a creation */

void routes_game_export(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    if (query_game_id(resp, id)) return;
    struct store_export x;
    struct json_new_game *in = malloc(sizeof *in);
    struct cc_game *created = malloc(sizeof *created);
    struct json_export_action *actions = malloc(JSON_EXPORT_MAX_ACTIONS * sizeof *actions);
    cJSON *stored = NULL;
    struct api_game *ag = NULL;
    memset(&x, 0, sizeof x);
    enum store_status s = in && created ? store_game_export(id, &x) : STORE_ERROR;
    if (s != STORE_OK) {
        problem_store(resp, s); /* 404 for no such game */
        goto out;
    }
    if (strcmp(x.status, "finished") != 0) {
        problem_reply(resp, 409, "game_not_finished",
                      "Only a finished game has an export: this one is not finished.");
        goto out;
    }
    struct json_err err = {.code = "", .detail = "the engine refuses the setup"};
    if (json_in_new_game(x.setup, strlen(x.setup), in, &err) ||
        cc_game_new(created, &in->setup, NULL) != CC_OK) {
        log_kv(LOG_ERROR, "stored setup does not decode", "game", id, "why", err.detail, NULL);
        problem_engine(resp, CC_ERR_CORRUPT);
        goto out;
    }
    /* The stored actions, each decoded and written again as the action log writes it. */
    stored = cJSON_Parse(x.actions);
    int n, index;
    if (!actions || !cJSON_IsArray(stored) ||
        json_export_read_actions(stored, (enum cc_ruleset)created->ruleset, created->nplayers,
                                 actions, JSON_EXPORT_MAX_ACTIONS, &n, &err, &index)) {
        log_kv(LOG_ERROR, "stored actions do not decode", "game", id, NULL);
        problem_engine(resp, CC_ERR_CORRUPT);
        goto out;
    }
    ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) goto out;
    struct json_export_src src = {.id = id,
                                  .in = in,
                                  .created = created,
                                  .finished = &ag->g,
                                  .result = x.result[0] ? x.result : json_result(&ag->g),
                                  .actions = actions,
                                  .nactions = n,
                                  .chat_json = x.chat};
    struct json_out w;
    json_out_init(&w);
    json_export_write(&w, &src);
    api_reply_out(resp, 200, &w);
    if (resp->status == 200) {
        games_etag(resp, ag->row.version);
        replay_cache_forever(resp); /* a finished game never changes */
    }
out:
    store_export_free(&x);
    cJSON_Delete(stored);
    free(actions);
    games_free(ag);
    free(created);
    free(in);
}

/* 1 when the text `s` (`len` bytes) holds `word` somewhere. */
static int holds(const char *s, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++)
        if (s[i] == word[0] && memcmp(s + i, word, n) == 0) return 1;
    return 0;
}

int routes_is_replay(const char *body, size_t len)
{
    /* A creation's body is never parsed here (json_in.c bounds what cJSON spends on one):
     * only a body that holds the word at all, which a replay's must. */
    if (len == 0 || memchr(body, '\0', len) || !holds(body, len, "\"replay\"")) return 0;
    cJSON *root = cJSON_ParseWithLength(body, len);
    int yes = cJSON_IsObject(root) && cJSON_GetObjectItemCaseSensitive(root, "replay") != NULL;
    cJSON_Delete(root);
    return yes;
}

/* Heap state of a replay (the engine structs are large). */
struct replay {
    struct json_export x;                            /* the export, decoded */
    struct cc_game g;                                /* the game, played */
    struct cc_events ev;                             /* the events of one action */
    struct store_player players[CC_MAX_PLAYERS];     /* names and token hashes */
    char tokens[CC_MAX_PLAYERS][AUTH_TOKEN_LEN + 1]; /* the secrets, answered once */
    struct game_new n;                               /* the game as the service creates it */
};

/*
 * Answers 400 replay_invalid for action `index` refused with `reason` (a body code or the
 * engine's status name) and `detail`: the problem with "action_index" and "reason".
 */
static void refuse_action(struct api_response *resp, int index, const char *reason,
                          const char *detail)
{
    char d[400];
    snprintf(d, sizeof d, "replay.actions[%d] fails (%s): %s", index, reason, detail);
    problem_reply(resp, 400, "replay_invalid", d);
    cJSON *o = resp->body ? cJSON_Parse(resp->body) : NULL;
    char *body = NULL;
    if (o && cJSON_AddNumberToObject(o, "action_index", index) &&
        cJSON_AddStringToObject(o, "reason", reason))
        body = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (body) api_reply_take(resp, 400, "application/problem+json", body);
}

/*
 * Plays r->x's actions on r->g (created), writing the creation's events into `created`
 * (a JSON array) and each action as a replay row into `rows` (store_new_game.replay_json).
 * Returns the events written (the last seq), or -1 after answering 400 (replay_invalid,
 * replay_incomplete, replay_mismatch).
 */
static int play(struct replay *r, const char *const *names, struct json_out *created,
                struct json_out *rows, int *version, struct api_response *resp)
{
    /* A seat taken by a join was created open, named by its default placeholder (its
     * custom one, if it had one, is not kept: the seat's name replaced it). */
    char placeholder[CC_MAX_PLAYERS][16];
    const char *at_creation[CC_MAX_PLAYERS];
    int last_join = -1;
    for (int s = 0; s < CC_MAX_PLAYERS; s++) at_creation[s] = names[s];
    for (int i = 0; i < r->x.nactions; i++) {
        const struct json_export_action *xa = &r->x.actions[i];
        if (!xa->join) continue;
        snprintf(placeholder[xa->a.seat], sizeof placeholder[0], "Seat %d", xa->a.seat + 1);
        at_creation[xa->a.seat] = placeholder[xa->a.seat];
        last_join = i;
    }
    json_out_begin_array(created);
    json_created_event(created, &r->g, at_creation);
    int seq = 1 + json_events(created, &r->g, &r->ev, 0, 2);
    json_out_end_array(created);
    json_out_begin_array(rows);
    *version = 1;
    for (int i = 0; i < r->x.nactions; i++) {
        const struct json_export_action *xa = &r->x.actions[i];
        if (xa->join) {
            /* The lobby's (routes_lobby.c): a version of its own with seat_joined, and the
             * last one game_started; the engine's state has every seat from the start. */
            ++*version;
            json_out_begin_object(rows);
            json_out_kint(rows, "version", *version);
            json_out_kint(rows, "seat", xa->a.seat);
            json_out_kstring(rows, "kind", "join");
            json_out_key(rows, "body");
            json_out_begin_object(rows);
            json_out_kstring(rows, "kind", "join");
            json_out_kint(rows, "seat", xa->a.seat);
            json_out_end_object(rows);
            json_out_key(rows, "events");
            json_out_begin_array(rows);
            json_out_begin_object(rows);
            json_out_kint(rows, "seq", ++seq);
            json_out_kstring(rows, "type", "seat_joined");
            json_out_kint(rows, "seat", xa->a.seat);
            json_out_kstring(rows, "name", names[xa->a.seat]);
            json_out_end_object(rows);
            if (i == last_join) {
                json_out_begin_object(rows);
                json_out_kint(rows, "seq", ++seq);
                json_out_kstring(rows, "type", "game_started");
                json_seats(rows, "players", &r->g, names, NULL, NULL);
                json_out_end_object(rows);
            }
            json_out_end_array(rows);
            json_out_end_object(rows);
            continue;
        }
        if (last_join > i) {
            refuse_action(resp, i, "game_not_active", "a seat is still open (a join follows).");
            return -1;
        }
        r->ev.n = 0;
        enum cc_status st = cc_game_apply(&r->g, &xa->a, &r->ev);
        if (st != CC_OK) {
            refuse_action(resp, i, cc_status_name(st), "the engine refuses it here.");
            return -1;
        }
        ++*version;
        json_out_begin_object(rows);
        json_out_kint(rows, "version", *version);
        json_out_kint(rows, "seat", xa->a.seat);
        json_out_kstring(rows, "kind",
                         xa->a.kind == CC_ACTION_DRAW     ? "draw"
                         : xa->a.kind == CC_ACTION_RESIGN ? "resign"
                                                          : "place");
        json_out_key(rows, "body");
        json_action(rows, &r->g, &xa->a);
        json_out_key(rows, "events");
        json_out_begin_array(rows);
        seq += json_events(rows, &r->g, &r->ev, 0, seq + 1);
        json_out_end_array(rows);
        json_out_end_object(rows);
    }
    json_out_end_array(rows);
    if (r->g.phase != CC_PHASE_FINISHED) {
        char d[160];
        snprintf(d, sizeof d, "replay: the game is not finished after its %d actions.",
                 r->x.nactions);
        problem_reply(resp, 400, "replay_incomplete", d);
        return -1;
    }
    for (unsigned s = 0; r->x.has_scores && s < r->g.nplayers; s++)
        if (r->g.players[s].score != r->x.scores[s]) {
            char d[160];
            snprintf(d, sizeof d, "replay: seat %u scores %d here, the export says %d.", s,
                     r->g.players[s].score, r->x.scores[s]);
            problem_reply(resp, 400, "replay_mismatch", d);
            return -1;
        }
    /* The stated result is the replay's: a timeout's resignation is a resignation in the
     * action log, so "timeout" stands for one. */
    const char *got = json_result(&r->g);
    if (r->x.result[0] && !(got && strcmp(r->x.result, got) == 0) &&
        !(got && strcmp(r->x.result, "timeout") == 0 && strcmp(got, "resignation") == 0)) {
        char d[160];
        snprintf(d, sizeof d, "replay: the game ends by %s here, the export says %s.",
                 got ? got : "nothing", r->x.result);
        problem_reply(resp, 400, "replay_mismatch", d);
        return -1;
    }
    return seq;
}

void routes_game_replay(const struct api_request *req, struct api_response *resp)
{
    struct replay *r = calloc(1, sizeof *r);
    struct json_out ev, rows, w;
    json_out_init(&ev);
    json_out_init(&rows);
    json_out_init(&w);
    char *created_txt = NULL, *rows_txt = NULL, *answer_txt = NULL;
    cJSON *root = NULL;
    if (!r) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    /* A replay counts against the creation limit by what it stores (game/limit.c), known
     * once played: refused at once only when not even one creation is left. */
    struct game_result limited = {.retry_after = game_limit_peek(req->client_addr)};
    if (limited.retry_after) {
        routes_game_outcome(resp, GAME_RATE_LIMITED, &limited);
        goto out;
    }
    struct json_err err;
    root = json_in_parse(req->body, req->body_len, JSON_EXPORT_MAX_VALUES, &err);
    if (!root) {
        problem_reply(resp, 400, err.code, err.detail);
        goto out;
    }
    for (const cJSON *c = root->child; c; c = c->next)
        if (strcmp(c->string, "replay") != 0) {
            char d[120];
            snprintf(d, sizeof d, "Unknown field \"%.60s\": a replay's body is {\"replay\": ...}.",
                     c->string);
            problem_reply(resp, 400, "unknown_field", d);
            goto out;
        }
    int index;
    if (json_export_read(cJSON_GetObjectItemCaseSensitive(root, "replay"), &r->x, &err, &index)) {
        if (index >= 0)
            refuse_action(resp, index, err.code, err.detail);
        else
            problem_reply(resp, 400, err.code, err.detail);
        goto out;
    }
    cJSON_Delete(root);
    root = NULL;
    /* The Idempotency-Key as a creation's (routes_games.c). */
    struct store_person me;
    char scope[IDEM_SCOPE_MAX] = CREATE_SCOPE;
    struct idem idem;
    int by_player = req->authorization != NULL;
    if (by_player) {
        if (routes_player_auth(req, resp, &me)) goto out;
        snprintf(scope, sizeof scope, "%s/%s", CREATE_SCOPE, me.id);
    }
    if (by_player ? idem_begin(req, scope, &idem, resp)
                  : idem_begin_anonymous(req, scope, &idem, resp))
        goto out;
    enum cc_status st = cc_game_new(&r->g, &r->x.in.setup, &r->ev);
    if (st != CC_OK) {
        problem_engine(resp, st);
        goto out;
    }
    if (r->g.deck_len != r->x.deck_len || memcmp(r->g.deck, r->x.deck, r->g.deck_len) != 0) {
        problem_reply(resp, 400, "replay_deck_mismatch",
                      "replay.deck is not the draw order of this seed and setup (nor the "
                      "custom deck it says).");
        goto out;
    }
    const char *names[CC_MAX_PLAYERS];
    for (int s = 0; s < CC_MAX_PLAYERS; s++) names[s] = r->x.in.names[s];
    int version;
    int last_seq = play(r, names, &ev, &rows, &version, resp);
    if (last_seq < 0) goto out;
    created_txt = json_out_take(&ev, NULL);
    rows_txt = json_out_take(&rows, NULL);

    const char *tokens[CC_MAX_PLAYERS];
    for (unsigned s = 0; s < r->g.nplayers; s++) {
        snprintf(r->players[s].name, sizeof r->players[s].name, "%s", r->x.in.names[s]);
        if (auth_token_new(r->tokens[s]) ||
            auth_sha256(r->tokens[s], AUTH_TOKEN_LEN, r->players[s].token_hash)) {
            problem_reply(resp, 500, "internal_error", "No token could be drawn.");
            goto out;
        }
        tokens[s] = r->tokens[s];
    }
    bots_seats_new(&r->x.in, r->g.nplayers, r->players, r->tokens, tokens);
    struct game_new *n = &r->n;
    n->setup = &r->x.in.setup;
    n->g = &r->g;
    n->players = r->players;
    n->start = r->x.in.start[0] ? r->x.in.start : NULL;
    n->hints_off = r->x.in.hints_off;
    n->chat_public = r->x.in.chat_public;
    n->seed_chosen = 1; /* the export's (0022) */
    n->events_json = created_txt;
    n->last_seq = last_seq;
    n->version = version;
    n->replay_json = rows_txt;
    n->creator = req->client_addr;
    n->weight =
        created_txt && rows_txt ? game_limit_weight(strlen(created_txt) + strlen(rows_txt)) : 1;
    enum game_outcome rc = game_create_begin(n);
    if (rc != GAME_COMMITTED) {
        routes_game_outcome(resp, rc, &(struct game_result){.retry_after = n->retry_after});
        goto out;
    }
    struct json_game_meta meta = {.id = n->id,
                                  .version = version,
                                  .names = names,
                                  .seats = r->players,
                                  .hints_off = r->x.in.hints_off,
                                  .chat_public = r->x.in.chat_public,
                                  .seed_chosen = 1, /* the export's */
                                  .tokens = tokens};
    json_game(&w, &r->g, &meta);
    size_t answer_len = 0;
    answer_txt = json_out_take(&w, &answer_len);
    if (!answer_txt || !created_txt || !rows_txt) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    if (!routes_game_store_new(req, scope, by_player, &idem, n, version, &answer_txt, answer_len,
                               resp))
        goto out;
    log_kv(LOG_INFO, "game replayed", "game", n->id, "ruleset",
           cc_ruleset_name((enum cc_ruleset)r->g.ruleset), NULL);
out:
    cJSON_Delete(root);
    json_out_free(&ev);
    json_out_free(&rows);
    json_out_free(&w);
    free(created_txt);
    free(rows_txt);
    free(answer_txt);
    game_new_free(&r->n);
    free(r);
}
