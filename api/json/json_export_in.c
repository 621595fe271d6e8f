/* json_export_in.c: an export read back for a replay (json_export.h). The setup members
 * (ruleset, options, seed, start, hints, players) are those of a create body: reading them
 * is json_in_new_game() on a body made of them, so a replay's setup is checked exactly as a
 * creation's, with the same codes; a placement is json_in_placement()'s. Only the json_in
 * decoders and the engine's catalogues are used (tests/fuzz/fuzz_export.c links just these). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_export.h"
#include "tiles.h"

/* The setup members of `doc` as a create body, decoded into out->in. Returns 0 or -1. */
static int read_setup(const cJSON *doc, struct json_export *out, struct json_err *err)
{
    static const char *const setup[] = {"ruleset", "options", "seed", "start",
                                        "hints",   "players", "chat"};
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(doc, "players");
    if (!cJSON_IsArray(players))
        return json_fail(err, "invalid_body", "replay.players must be an array of seats.");
    static const char *const seat_members[] = {"name", "bot", "think_ms", NULL};
    int i = 0;
    for (const cJSON *p = players->child; p; p = p->next, i++) {
        char where[40];
        snprintf(where, sizeof where, "replay.players[%d].", i);
        if (!cJSON_IsObject(p))
            return json_fail(err, "invalid_body", "replay.players[%d] must be an object.", i);
        if (json_check_fields(p, seat_members, where, err)) return -1;
    }
    if (!cJSON_GetObjectItemCaseSensitive(doc, "seed"))
        return json_fail(err, "invalid_body", "The field \"replay.seed\" is required.");
    const cJSON *custom = cJSON_GetObjectItemCaseSensitive(doc, "custom_deck");
    if (!cJSON_IsBool(custom))
        return json_fail(err, "invalid_body", "replay.custom_deck must be true or false.");
    out->custom_deck = cJSON_IsTrue(custom);
    cJSON *body = cJSON_CreateObject();
    int rc = -1;
    if (!body) return json_fail(err, "internal_error", "Out of memory.");
    for (size_t k = 0; k < sizeof setup / sizeof *setup; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, setup[k]);
        if (!v || (cJSON_IsNull(v) && strcmp(setup[k], "start") == 0)) continue;
        cJSON *copy = cJSON_Duplicate(v, 1);
        if (!copy || !cJSON_AddItemToObject(body, setup[k], copy)) {
            cJSON_Delete(copy);
            json_fail(err, "internal_error", "Out of memory.");
            goto out;
        }
    }
    if (out->custom_deck) {
        /* The deck given at creation is the draw order itself (the engine draws it as given). */
        cJSON *deck = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(doc, "deck"), 1);
        if (!deck || !cJSON_AddItemToObject(body, "deck", deck)) {
            cJSON_Delete(deck);
            json_fail(err, "invalid_body", "replay.deck must be an array of tile ids.");
            goto out;
        }
    }
    char *text = cJSON_PrintUnformatted(body);
    if (!text) {
        json_fail(err, "internal_error", "Out of memory.");
        goto out;
    }
    struct json_err e;
    rc = json_in_new_game(text, strlen(text), &out->in, &e);
    free(text);
    if (rc) {
        /* The create body's own words, said of the export's members. */
        json_fail(err, e.code, "replay: %s", e.detail);
        goto out;
    }
    if (out->in.me_seat >= 0 || out->in.open_seats || out->in.webhook_url[0] ||
        out->in.clock.kind) {
        rc = json_fail(err, "invalid_body", "replay.players: seats are named or computer players.");
        goto out;
    }
out:
    cJSON_Delete(body);
    return rc;
}

/* The draw order "deck" of `doc` into out->deck. Returns 0 or -1. */
static int read_deck(const cJSON *doc, struct json_export *out, struct json_err *err)
{
    const cJSON *deck = cJSON_GetObjectItemCaseSensitive(doc, "deck");
    if (!cJSON_IsArray(deck))
        return json_fail(err, "invalid_body", "replay.deck must be an array of tile ids.");
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)out->in.setup.ruleset);
    int n = 0;
    for (const cJSON *d = deck->child; d; d = d->next, n++) {
        if (n >= CC_MAX_DECK)
            return json_fail(err, "replay_deck_mismatch", "replay.deck holds more than %d tiles.",
                             CC_MAX_DECK);
        int t = cJSON_IsString(d) && ts ? cc_tileset_find(ts, d->valuestring) : -1;
        if (t < 0)
            return json_fail(err, "invalid_body",
                             "replay.deck[%d] must be a tile id of the ruleset.", n);
        out->deck[n] = (uint8_t)t;
    }
    out->deck_len = n;
    return 0;
}

/* Action `a` (actions[i]) into `out`. Returns 0 or -1. */
static int read_action(const cJSON *a, int i, enum cc_ruleset ruleset, int nplayers,
                       struct json_export_action *out, struct json_err *err)
{
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(a))
        return json_fail(err, "invalid_body", "replay.actions[%d]: not an object.", i);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(a, "kind");
    const cJSON *seat = cJSON_GetObjectItemCaseSensitive(a, "seat");
    if (!cJSON_IsString(kind))
        return json_fail(
            err, "invalid_body",
            "replay.actions[%d].kind must be \"draw\", \"place\", \"resign\" or \"join\".", i);
    if (!cJSON_IsNumber(seat) || seat->valuedouble != floor(seat->valuedouble) ||
        seat->valuedouble < 0 || seat->valuedouble >= nplayers)
        return json_fail(err, "invalid_body", "replay.actions[%d].seat must be a seat of the game.",
                         i);
    out->a.seat = (uint8_t)seat->valuedouble;
    out->a.tile = CC_NO_TILE;
    char where[40];
    snprintf(where, sizeof where, "replay.actions[%d].", i);
    static const char *const bare[] = {"kind", "seat", NULL};
    const char *k = kind->valuestring;
    if (strcmp(k, "draw") == 0 || strcmp(k, "resign") == 0 || strcmp(k, "join") == 0) {
        if (json_check_fields(a, bare, where, err)) return -1;
        out->a.kind = k[0] == 'd' ? CC_ACTION_DRAW : CC_ACTION_RESIGN;
        out->join = k[0] == 'j';
        return 0;
    }
    if (strcmp(k, "place") != 0)
        return json_fail(
            err, "invalid_body",
            "replay.actions[%d].kind must be \"draw\", \"place\", \"resign\" or \"join\".", i);
    /* The placement as a client posts it: the action without kind and seat. */
    cJSON *body = cJSON_Duplicate(a, 1);
    if (!body) return json_fail(err, "internal_error", "Out of memory.");
    cJSON_DeleteItemFromObjectCaseSensitive(body, "kind");
    cJSON_DeleteItemFromObjectCaseSensitive(body, "seat");
    char *text = cJSON_PrintUnformatted(body);
    cJSON_Delete(body);
    if (!text) return json_fail(err, "internal_error", "Out of memory.");
    struct json_err e;
    int rc = json_in_placement(text, strlen(text), ruleset, &out->a, &e);
    free(text);
    if (rc) return json_fail(err, e.code, "replay.actions[%d]: %s", i, e.detail);
    out->a.seat = (uint8_t)seat->valuedouble;
    return 0;
}

int json_export_read(const cJSON *doc, struct json_export *out, struct json_err *err,
                     int *action_index)
{
    memset(out, 0, sizeof *out);
    *action_index = -1;
    if (!cJSON_IsObject(doc))
        return json_fail(err, "invalid_body",
                         "\"replay\" must be an object: an export (GET /v1/games/{id}/export).");
    static const char *const members[] = {
        "format", "format_version", "game", "ruleset", "options", "seed", "start", "hints",
        "players", "custom_deck", "deck", "actions", "result", "scores",
        /* The chat (0026): its setting is the create body's; its messages are the record
         * only (a replay plays the game's actions, not its talk). */
        "chat", "chat_messages", NULL};
    if (json_check_fields(doc, members, "replay.", err)) return -1;
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(doc, "format");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "format_version");
    if (!cJSON_IsString(format) || strcmp(format->valuestring, JSON_EXPORT_FORMAT) != 0 ||
        !cJSON_IsNumber(version) || version->valuedouble != JSON_EXPORT_VERSION)
        return json_fail(err, "replay_unsupported_format",
                         "replay: this server reads exports of format \"" JSON_EXPORT_FORMAT
                         "\", format_version %d.",
                         JSON_EXPORT_VERSION);
    const cJSON *game = cJSON_GetObjectItemCaseSensitive(doc, "game");
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(doc, "result");
    if ((game && !cJSON_IsString(game)) ||
        (result && !cJSON_IsString(result) && !cJSON_IsNull(result)))
        return json_fail(err, "invalid_body", "replay.game and replay.result are strings.");
    if (cJSON_IsString(result)) {
        /* An export states one of these (GameResult); the replay checks it (replay_mismatch). */
        static const char *const results[] = {"completed", "resignation", "timeout"};
        for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
            if (strcmp(result->valuestring, results[i]) == 0)
                snprintf(out->result, sizeof out->result, "%s", results[i]);
        if (!out->result[0])
            return json_fail(
                err, "invalid_body",
                "replay.result must be \"completed\", \"resignation\" or \"timeout\".");
    }
    if (read_setup(doc, out, err) || read_deck(doc, out, err)) return -1;
    const cJSON *scores = cJSON_GetObjectItemCaseSensitive(doc, "scores");
    if (scores) {
        int n = cJSON_IsArray(scores) ? cJSON_GetArraySize(scores) : -1;
        if (n != out->in.setup.nplayers)
            return json_fail(err, "invalid_body", "replay.scores must hold a number by seat.");
        int s = 0;
        for (const cJSON *v = scores->child; v; v = v->next, s++) {
            if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
                fabs(v->valuedouble) > 100000)
                return json_fail(err, "invalid_body", "replay.scores[%d] must be an integer.", s);
            out->scores[s] = (int)v->valuedouble;
        }
        out->has_scores = 1;
    }
    const cJSON *actions = cJSON_GetObjectItemCaseSensitive(doc, "actions");
    if (!cJSON_IsArray(actions))
        return json_fail(err, "invalid_body", "replay.actions must be an array of actions.");
    return json_export_read_actions(actions, (enum cc_ruleset)out->in.setup.ruleset,
                                    out->in.setup.nplayers, out->actions, JSON_EXPORT_MAX_ACTIONS,
                                    &out->nactions, err, action_index);
}

int json_export_read_actions(const cJSON *actions, enum cc_ruleset ruleset, int nplayers,
                             struct json_export_action *out, int max, int *n, struct json_err *err,
                             int *index)
{
    *n = 0;
    *index = -1;
    int i = 0;
    for (const cJSON *a = actions->child; a; a = a->next, i++) {
        if (i >= max) {
            *index = i;
            return json_fail(err, "invalid_body", "replay.actions holds more than %d actions.",
                             max);
        }
        if (read_action(a, i, ruleset, nplayers, &out[i], err)) {
            *index = i;
            return -1;
        }
    }
    *n = i;
    return 0;
}
