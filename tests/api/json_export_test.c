/* json_export_test.c: the export of a finished game written and read back (api/json/json_export.c):
 * games of every ruleset played to their end by the engine (the first legal placement, a
 * follower where one fits), each written by json_export_write() and read by
 * json_export_read() into the same setup, draw order and actions; and every refusal of
 * the reader with its code and the index of the action that fails. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_export.h"
#include "json_game.h"
#include "json_in.h"

/* A game played from a create body: the setup, the game as created and as ended, and its
 * actions (large: allocated). */
struct played {
    struct json_new_game in;
    struct cc_game created, g;
    struct cc_events ev;
    struct json_export_action actions[JSON_EXPORT_MAX_ACTIONS];
    int n;
    struct cc_placement buf[CC_MAX_PLACEMENTS];
};

/* Plays `body` to its end (seat 1 resigns after `resign_at` actions if >= 0). */
static struct played *play(const char *body, int resign_at)
{
    struct played *p = calloc(1, sizeof *p);
    cr_assert(p);
    struct json_err err;
    cr_assert_eq(json_in_new_game(body, strlen(body), &p->in, &err), 0, "%s", err.detail);
    p->in.setup.seed = 99;
    cr_assert_eq(cc_game_new(&p->created, &p->in.setup, NULL), CC_OK);
    p->g = p->created;
    while (p->g.phase != CC_PHASE_FINISHED) {
        cr_assert_lt(p->n, JSON_EXPORT_MAX_ACTIONS);
        struct cc_action a = {.seat = p->g.seat, .tile = CC_NO_TILE};
        if (p->n == resign_at) {
            a.kind = CC_ACTION_RESIGN;
            a.seat = 1;
        } else if (p->g.phase == CC_PHASE_DRAW) {
            a.kind = CC_ACTION_DRAW;
        } else {
            size_t k = cc_legal_placements(&p->g, p->buf, CC_MAX_PLACEMENTS, true);
            cr_assert_gt(k, 0);
            const struct cc_placement *pl = &p->buf[p->n % k];
            a.kind = CC_ACTION_PLACE;
            a.x = pl->x;
            a.y = pl->y;
            a.rot = pl->rot;
            if (cc_game_uses_hand(&p->g)) a.tile = pl->tile;
            for (unsigned loc = 0; loc < 16 && p->n % 3 == 0; loc++)
                if (pl->follower & (1u << loc)) {
                    a.follow = CC_FOLLOW_FOLLOWER;
                    a.loc = (uint8_t)loc;
                    break;
                }
        }
        p->ev.n = 0;
        cr_assert_eq(cc_game_apply(&p->g, &a, &p->ev), CC_OK, "action %d", p->n);
        p->actions[p->n].a = a;
        p->n++;
    }
    return p;
}

/* The export of `p` as a parsed document (caller deletes). */
static cJSON *export_of(const struct played *p)
{
    struct json_export_src src = {.id = "0b7f4c1e-2d3a-4f5b-8c6d-7e8f9a0b1c2d",
                                  .in = &p->in,
                                  .created = &p->created,
                                  .finished = &p->g,
                                  .result = json_result(&p->g),
                                  .actions = p->actions,
                                  .nactions = p->n};
    struct json_out w;
    json_out_init(&w);
    json_export_write(&w, &src);
    char *text = json_out_take(&w, NULL);
    json_out_free(&w);
    cr_assert(text);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    cr_assert(doc);
    return doc;
}

static const char *const games[] = {
    "{\"players\":[{\"name\":\"Ann\"},{\"bot\":\"greedy\",\"think_ms\":40}]}",
    "{\"options\":{\"edition\":\"original\",\"river\":true},\"players\":[{\"name\":\"A\"},"
    "{\"name\":\"B\"},{\"name\":\"C\"}],\"hints\":false}",
    "{\"ruleset\":\"hills\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}",
    "{\"ruleset\":\"discovery\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}",
    "{\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"players\":[{\"name\":\"A\"},"
    "{\"name\":\"B\"}]}",
    "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"start\":\"D\",\"deck\":[\"K\",\"D\","
    "\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]}",
};

Test(json_export, written_and_read_back_the_same)
{
    struct json_export *x = malloc(sizeof *x);
    cr_assert(x);
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        struct played *p = play(games[i], i == 1 ? 9 : -1);
        cJSON *doc = export_of(p);
        struct json_err err;
        int index;
        cr_assert_eq(json_export_read(doc, x, &err, &index), 0, "game %zu: %s %s", i, err.code,
                     err.detail);
        cr_assert_eq(index, -1);
        cr_assert_eq(x->in.setup.ruleset, p->in.setup.ruleset);
        cr_assert_eq(x->in.setup.seed, 99);
        cr_assert_eq(x->in.setup.nplayers, p->in.setup.nplayers);
        cr_assert_eq(memcmp(&x->in.setup.options, &p->in.setup.options, sizeof x->in.setup.options),
                     0);
        cr_assert_eq(x->in.setup.start, p->in.setup.start);
        cr_assert_eq(x->in.hints_off, p->in.hints_off);
        cr_assert_eq(x->custom_deck, p->in.setup.deck_len >= 0);
        for (int s = 0; s < p->in.setup.nplayers; s++) {
            cr_assert_str_eq(x->in.names[s], p->in.names[s]);
            cr_assert_str_eq(x->in.bots[s], p->in.bots[s]);
            if (p->in.bots[s][0]) cr_assert_eq(x->in.think_ms[s], p->in.think_ms[s]);
            cr_assert_eq(x->scores[s], p->g.players[s].score);
        }
        cr_assert(x->has_scores);
        cr_assert_eq(x->deck_len, p->created.deck_len);
        cr_assert_eq(memcmp(x->deck, p->created.deck, p->created.deck_len), 0);
        cr_assert_eq(x->nactions, p->n, "game %zu: %d actions read, %d written", i, x->nactions,
                     p->n);
        for (int k = 0; k < p->n; k++) {
            const struct cc_action *a = &p->actions[k].a, *b = &x->actions[k].a;
            cr_assert(a->kind == b->kind && a->seat == b->seat && !x->actions[k].join,
                      "game %zu action %d", i, k);
            if (a->kind == CC_ACTION_PLACE)
                cr_assert(a->x == b->x && a->y == b->y && a->rot == b->rot && a->tile == b->tile &&
                              a->follow == b->follow &&
                              (a->follow == CC_FOLLOW_NONE || a->loc == b->loc),
                          "game %zu placement %d", i, k);
        }
        /* The draw order read back, played again, gives the same game. */
        struct cc_game g;
        cr_assert_eq(cc_game_new(&g, &x->in.setup, NULL), CC_OK);
        for (int k = 0; k < x->nactions; k++)
            cr_assert_eq(cc_game_apply(&g, &x->actions[k].a, NULL), CC_OK);
        uint8_t e1[CC_SNAPSHOT_MAX], e2[CC_SNAPSHOT_MAX];
        size_t n1 = cc_game_encode(&g, e1, sizeof e1), n2 = cc_game_encode(&p->g, e2, sizeof e2);
        cr_assert(n1 > 0 && n1 == n2 && memcmp(e1, e2, n1) == 0, "game %zu replays otherwise", i);
        cJSON_Delete(doc);
        free(p);
    }
    free(x);
}

/* A refusal: `path` of the export set to `value` (JSON), or the member removed (NULL). */
struct refusal {
    const char *member; /* a top-level member, or "actions.<i>.<m>" */
    const char *value;  /* its new JSON value, or NULL to remove it */
    const char *code;
    int index; /* the action named, or -1 */
};

static const struct refusal refusals[] = {
    {"format", "\"pgn\"", "replay_unsupported_format", -1},
    {"format_version", "2", "replay_unsupported_format", -1},
    {"format_version", NULL, "replay_unsupported_format", -1},
    {"comment", "\"x\"", "unknown_field", -1},
    {"ruleset", "\"chess\"", "unknown_ruleset", -1},
    {"ruleset", "7", "invalid_body", -1},
    {"seed", NULL, "invalid_body", -1},
    {"seed", "-1", "invalid_body", -1},
    {"players", "[{\"name\":\"A\"}]", "bad_player_count", -1},
    {"players", "[{\"name\":\"A\"},{\"open\":true}]", "unknown_field", -1},
    {"players", "[{\"name\":\"A\"},{\"player\":\"me\"}]", "unknown_field", -1},
    {"players", "[{\"name\":\"A\"},7]", "invalid_body", -1},
    {"players", "{}", "invalid_body", -1},
    {"options", "{\"rivers\":true}", "unknown_field", -1},
    {"custom_deck", NULL, "invalid_body", -1},
    {"custom_deck", "1", "invalid_body", -1},
    {"deck", "[\"ZZ\"]", "invalid_body", -1},
    {"deck", NULL, "invalid_body", -1},
    {"actions", "{}", "invalid_body", -1},
    {"scores", "[1]", "invalid_body", -1},
    {"scores", "[1, \"a\"]", "invalid_body", -1},
    {"game", "1", "invalid_body", -1},
    {"actions.3.kind", "\"jump\"", "invalid_body", 3},
    {"actions.3.kind", NULL, "invalid_body", 3},
    {"actions.4.seat", "2", "invalid_body", 4},
    {"actions.4.seat", "0.5", "invalid_body", 4},
    {"actions.4.seat", NULL, "invalid_body", 4},
    {"actions.0.x", "1", "unknown_field", 0}, /* a draw has no x */
    {"actions.1.rotation", "45", "bad_rotation", 1},
    {"actions.1.follower", "\"Q\"", "bad_location", 1},
    {"actions.1.extra", "1", "unknown_field", 1},
};

Test(json_export, every_refusal_with_its_code_and_action)
{
    struct played *p = play(games[0], -1);
    cJSON *doc = export_of(p);
    struct json_export *x = malloc(sizeof *x);
    cr_assert(x);
    for (size_t i = 0; i < sizeof refusals / sizeof *refusals; i++) {
        const struct refusal *r = &refusals[i];
        cJSON *bad = cJSON_Duplicate(doc, 1);
        cJSON *at = bad;
        char member[40];
        snprintf(member, sizeof member, "%s", r->member);
        int k;
        char m[20];
        if (sscanf(r->member, "actions.%d.%19s", &k, m) == 2) {
            at = cJSON_GetArrayItem(cJSON_GetObjectItem(bad, "actions"), k);
            snprintf(member, sizeof member, "%s", m);
        }
        cJSON_DeleteItemFromObjectCaseSensitive(at, member);
        if (r->value) cJSON_AddItemToObject(at, member, cJSON_Parse(r->value));
        struct json_err err;
        int index;
        int rc = json_export_read(bad, x, &err, &index);
        cr_assert_eq(rc, -1, "refusal %zu (%s) taken", i, r->member);
        cr_assert_str_eq(err.code, r->code, "refusal %zu (%s): %s, %s", i, r->member, err.code,
                         err.detail);
        cr_assert_eq(index, r->index, "refusal %zu (%s): index %d", i, r->member, index);
        cJSON_Delete(bad);
    }
    cJSON *five = cJSON_CreateNumber(5);
    struct json_err err;
    int index;
    cr_assert_eq(json_export_read(five, x, &err, &index), -1);
    cr_assert_str_eq(err.code, "invalid_body");
    cJSON_Delete(five);
    cJSON_Delete(doc);
    free(x);
    free(p);
}

Test(json_export, a_replay_body_has_more_values_than_a_creation)
{
    /* 1,500 values: too many for a creation's decoders (1,000), fine for a replay. */
    char body[8192];
    size_t o = (size_t)snprintf(body, sizeof body, "{\"replay\":[");
    for (int i = 0; i < 1500; i++)
        o += (size_t)snprintf(body + o, sizeof body - o, "%s1", i ? "," : "");
    snprintf(body + o, sizeof body - o, "]}");
    struct json_err err;
    struct cJSON *root = json_in_parse(body, strlen(body), JSON_EXPORT_MAX_VALUES, &err);
    cr_assert(root, "%s", err.detail);
    cJSON_Delete(root);
    cr_assert_null(json_in_parse(body, strlen(body), 1000, &err));
    cr_assert_str_eq(err.code, "invalid_json");
    cr_assert_null(json_in_parse("{\"replay\":1,\"replay\":2}", 23, JSON_EXPORT_MAX_VALUES, &err));
    cr_assert_str_eq(err.code, "invalid_body");
}
