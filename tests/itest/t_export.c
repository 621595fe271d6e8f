/* t_export.c: export and replay (issue 16, item 4). Whole games of every ruleset and option
 * (classic in both editions and with the River, hills, discovery with the pile and with
 * the hand of two; computer players and people, a resignation, a custom deck) are played,
 * exported and replayed: the new game's state, scores, events, past versions and export
 * equal the original's but for the game's id. Refusals: the export of an unfinished game,
 * an illegal or malformed action at index k (the problem names k), truncated and garbage
 * JSON, a wrong format, unknown members, a deck not the seed's, too few actions, other
 * scores; a refused replay stores nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

/* get_json() of the path `fmt` with `id` in its %s. */
static cJSON *get_jsonf(const struct server *srv, const char *fmt, const char *id)
{
    char path[200];
    snprintf(path, sizeof path, fmt, id);
    return get_json(srv, path);
}

int game_wait_finished(const struct server *srv, const char *id, long limit_ms)
{
    long long end = hard_now_ms() + limit_ms;
    while (hard_now_ms() < end) {
        cJSON *j = get_jsonf(srv, "/v1/games/%s", id);
        int done = j && strcmp(jstr(j, "status"), "finished") == 0;
        cJSON_Delete(j);
        if (done) return 1;
        usleep(20000);
    }
    return 0;
}

/* POSTs {"replay": <export>} (the export's text `x`): the answer into `r`. */
static void post_replay(const struct server *srv, const cJSON *x, struct resp *r)
{
    cJSON *body = cJSON_CreateObject();
    cJSON_AddItemToObject(body, "replay", cJSON_Duplicate(x, 1));
    char *text = cJSON_PrintUnformatted(body);
    cJSON_Delete(body);
    http(srv, "POST", "/v1/games", text, NULL, r);
    free(text);
}

/* 1 when `a` and `b` are equal JSON once member `drop` of each is removed. */
static int same_but(const cJSON *a, const cJSON *b, const char *drop)
{
    cJSON *x = cJSON_Duplicate(a, 1), *y = cJSON_Duplicate(b, 1);
    if (drop) {
        cJSON_DeleteItemFromObjectCaseSensitive(x, drop);
        cJSON_DeleteItemFromObjectCaseSensitive(y, drop);
    }
    /* A replay's seed is the export's, chosen by whoever replays: seed_chosen is true there,
     * whatever the original's (issue 29, item 7). */
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(y, "seed_chosen"))) {
        cJSON_DeleteItemFromObjectCaseSensitive(x, "seed_chosen");
        cJSON_DeleteItemFromObjectCaseSensitive(y, "seed_chosen");
    }
    /* A bound seat is exported by its name alone and replayed as a named seat: its player's
     * id and rating are the original's only. */
    cJSON *seat;
    cJSON_ArrayForEach(seat, cJSON_GetObjectItemCaseSensitive(x, "players"))
    {
        cJSON_DeleteItemFromObjectCaseSensitive(seat, "player_id");
        cJSON_DeleteItemFromObjectCaseSensitive(seat, "rating");
    }
    int same = x && y && cJSON_Compare(x, y, 1);
    cJSON_Delete(x);
    cJSON_Delete(y);
    return same;
}

int export_replay_same(const struct server *srv, const char *id, struct export_tally *t, char *why,
                       size_t cap)
{
    int rc = -1;
    struct resp r = {0};
    cJSON *x = NULL, *x2 = NULL, *s1 = NULL, *s2 = NULL, *e1 = NULL, *e2 = NULL;
    cJSON *sc1 = NULL, *sc2 = NULL, *v1 = NULL, *v2 = NULL;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/export", id);
    http(srv, "GET", path, NULL, NULL, &r);
    if (r.status != 200 || !r.json || !strstr(r.ctype, "application/json")) {
        snprintf(why, cap, "export: %ld %.200s", r.status, r.body);
        goto out;
    }
    x = r.json;
    r.json = NULL;
    if (r.len > t->bytes_max) t->bytes_max = r.len;
    resp_free(&r);
    if (strcmp(jstr(x, "format"), "tilehall-export") != 0 || jnum(x, "format_version") != 1 ||
        strcmp(jstr(x, "game"), id) != 0 || !cJSON_IsArray(jget(x, "deck"))) {
        snprintf(why, cap, "export of %s: format, version, game or deck wrong", id);
        goto out;
    }
    char *text = cJSON_PrintUnformatted(x);
    int leaks = text && (strstr(text, "token") || strstr(text, "person"));
    free(text);
    if (leaks) {
        snprintf(why, cap, "the export of %s names a token or a person", id);
        goto out;
    }
    const cJSON *a;
    cJSON_ArrayForEach(a, jget(x, "actions"))
    {
        t->actions++;
        const char *k = jstr(a, "kind");
        t->resigns += strcmp(k, "resign") == 0;
        t->joins += strcmp(k, "join") == 0;
        t->followers += jget(a, "follower") != NULL;
        t->stables += jget(a, "stable") != NULL;
        t->hikes += jget(a, "hike") != NULL;
        t->withdrawals += jget(a, "withdraw") != NULL;
        t->figures += jget(a, "figure") != NULL;
        t->hand_tiles += jget(a, "tile") != NULL;
    }
    t->games++;
    long long t0 = hard_now_ms();
    post_replay(srv, x, &r);
    if (hard_now_ms() - t0 > t->replay_ms_max) t->replay_ms_max = hard_now_ms() - t0;
    if (r.status != 201 || strcmp(jstr(r.json, "status"), "finished") != 0) {
        snprintf(why, cap, "replay of %s: %ld %.300s", id, r.status, r.body);
        goto out;
    }
    char nid[64];
    snprintf(nid, sizeof nid, "%s", jstr(r.json, "id"));
    char want_loc[128];
    snprintf(want_loc, sizeof want_loc, "/v1/games/%s", nid);
    const cJSON *p;
    int tokens_ok = 1;
    cJSON_ArrayForEach(p, jget(r.json, "players"))
    {
        int bot = jget(p, "bot") != NULL;
        tokens_ok &= bot ? jget(p, "token") == NULL : token_shape(jstr(p, "token"));
    }
    if (strcmp(r.location, want_loc) != 0 || !tokens_ok || strcmp(nid, id) == 0) {
        snprintf(why, cap, "replay of %s: Location %s, or tokens not one per named seat", id,
                 r.location);
        goto out;
    }
    resp_free(&r);
    s1 = get_jsonf(srv, "/v1/games/%s", id);
    s2 = get_jsonf(srv, "/v1/games/%s", nid);
    if (!s1 || !s2 || !same_but(s1, s2, "id")) {
        snprintf(why, cap, "the state of replay %s differs from %s", nid, id);
        goto out;
    }
    sc1 = get_jsonf(srv, "/v1/games/%s/scores", id);
    sc2 = get_jsonf(srv, "/v1/games/%s/scores", nid);
    if (!sc1 || !sc2 || !cJSON_Compare(sc1, sc2, 1)) {
        snprintf(why, cap, "the scores of replay %s differ from %s", nid, id);
        goto out;
    }
    e1 = game_events(srv, id);
    e2 = game_events(srv, nid);
    if (!e1 || !e2 || cJSON_GetArraySize(e1) < 3 || !cJSON_Compare(e1, e2, 1)) {
        int n1 = e1 ? cJSON_GetArraySize(e1) : -1, n2 = e2 ? cJSON_GetArraySize(e2) : -1;
        int k = 0;
        while (k < n1 && k < n2 &&
               cJSON_Compare(cJSON_GetArrayItem(e1, k), cJSON_GetArrayItem(e2, k), 1))
            k++;
        snprintf(why, cap, "the events of replay %s differ from %s (%d and %d, first at %d)", nid,
                 id, n1, n2, k);
        goto out;
    }
    /* A past version of the replay is the original's (the actions are stored too). */
    int mid = (int)jnum(s1, "version") / 2;
    char vfmt[64];
    snprintf(vfmt, sizeof vfmt, "/v1/games/%%s?version=%d", mid);
    v1 = get_jsonf(srv, vfmt, id);
    v2 = get_jsonf(srv, vfmt, nid);
    if (!v1 || !v2 || !same_but(v1, v2, "id")) {
        snprintf(why, cap, "version %d of replay %s differs from %s", mid, nid, id);
        goto out;
    }
    x2 = get_jsonf(srv, "/v1/games/%s/export", nid);
    if (!x2 || !same_but(x, x2, "game")) {
        snprintf(why, cap, "the export of replay %s differs from that of %s", nid, id);
        goto out;
    }
    if (db_replay_check(nid, why, cap)) goto out;
    rc = 0;
out:
    resp_free(&r);
    cJSON_Delete(x);
    cJSON_Delete(x2);
    cJSON_Delete(s1);
    cJSON_Delete(s2);
    cJSON_Delete(e1);
    cJSON_Delete(e2);
    cJSON_Delete(sc1);
    cJSON_Delete(sc2);
    cJSON_Delete(v1);
    cJSON_Delete(v2);
    return rc;
}

/* Games of computer players only, one per ruleset and option. */
static const char *const bot_games[] = {
    "{\"players\":[{\"bot\":\"greedy\",\"think_ms\":10},{\"bot\":\"random\",\"think_ms\":10}],"
    "\"seed\":21}",
    "{\"options\":{\"edition\":\"original\"},\"players\":[{\"bot\":\"greedy\",\"think_ms\":10},"
    "{\"bot\":\"random\",\"think_ms\":10},{\"bot\":\"greedy\",\"think_ms\":10}],\"seed\":22}",
    "{\"options\":{\"river\":true},\"players\":[{\"bot\":\"random\",\"think_ms\":10},{\"bot\":"
    "\"greedy\",\"think_ms\":10}],\"seed\":23,\"hints\":false}",
    "{\"ruleset\":\"hills\",\"players\":[{\"bot\":\"greedy\",\"think_ms\":10},{\"bot\":"
    "\"random\",\"think_ms\":10},{\"bot\":\"greedy\",\"think_ms\":10}],\"seed\":24}",
    "{\"ruleset\":\"discovery\",\"players\":[{\"bot\":\"greedy\",\"think_ms\":10},{\"bot\":"
    "\"random\",\"think_ms\":10}],\"seed\":25}",
    "{\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"players\":[{\"bot\":\"greedy\","
    "\"think_ms\":10},{\"bot\":\"greedy\",\"think_ms\":10}],\"seed\":26}",
};

ITEST(test_export_replay_rulesets, "export: bot games of every ruleset and option exported, "
                                   "replayed equal (state, scores, events, past versions, export)")
{
    enum { N = sizeof bot_games / sizeof *bot_games };
    struct game g[N];
    for (size_t i = 0; i < N; i++) {
        char why[300];
        CHECK(game_new(srv, bot_games[i], &g[i], why, sizeof why) == 0, "game %zu: %s", i, why);
    }
    struct export_tally t = {0};
    long long t0 = hard_now_ms();
    for (size_t i = 0; i < N; i++) {
        CHECK(game_wait_finished(srv, g[i].id, 120000), "bot game %zu did not finish", i);
        char why[400];
        CHECK(export_replay_same(srv, g[i].id, &t, why, sizeof why) == 0, "game %zu: %s", i, why);
    }
    CHECK(t.followers > 0 && t.stables > 0 && t.hand_tiles > 0,
          "the games played no follower, stable or hand tile");
    printf("  export: %d bot games (%d actions: %d followers, %d stables, %d hikes, %d "
           "withdrawals) played, exported and replayed equal in %lld ms; exports up to %zu "
           "bytes, a replay answered in %lld ms at most\n",
           t.games, t.actions, t.followers, t.stables, t.hikes, t.withdrawals, hard_now_ms() - t0,
           t.bytes_max, t.replay_ms_max);
}

ITEST(test_export_replay_people,
      "export: people's games with resignations and a custom deck exported, replayed equal")
{
    /* Three people; the third resigns after a few turns; the other two play to the end. */
    static const char *const bodies[] = {
        "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"},{\"name\":\"Cy <&>\"}],\"seed\":31}",
        "{\"ruleset\":\"hills\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"},{\"name\":"
        "\"Cy\"}],\"seed\":32}",
        "{\"ruleset\":\"discovery\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"},{\"name\":"
        "\"Cy\"}],\"seed\":33}",
    };
    struct export_tally t = {0};
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        struct game g;
        NEW_GAME(&g, bodies[i]);
        char why[400];
        int st = 0;
        for (int turn = 0; st == 0 && turn < 400; turn++) {
            if (turn == 5) {
                struct resp r;
                game_post(srv, &g, 2, "resign", NULL, &r);
                long code = r.status;
                resp_free(&r);
                CHECK(code == 200, "game %zu: resign answered %ld", i, code);
            }
            st = play_turn(srv, &g, turn % 2 == 0, why, sizeof why);
        }
        CHECK(st == 1, "game %zu: %s", i, st < 0 ? why : "did not finish");
        CHECK(export_replay_same(srv, g.id, &t, why, sizeof why) == 0, "game %zu: %s", i, why);
    }
    CHECK(t.resigns == 3, "%d resignations exported, not 3", t.resigns);
    /* The end by resignation: two of three resign. */
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"},{\"name\":\"Cy\"}],"
                 "\"start\":\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]}");
    char why[400];
    CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "%s", why);
    for (int s = 1; s <= 2; s++) {
        struct resp r;
        game_post(srv, &g, s, "resign", NULL, &r);
        long code = r.status;
        resp_free(&r);
        CHECK(code == 200, "resign of seat %d answered %ld", s, code);
    }
    CHECK(export_replay_same(srv, g.id, &t, why, sizeof why) == 0, "custom deck: %s", why);
    cJSON *j = get_jsonf(srv, "/v1/games/%s/export", g.id);
    int custom = j && cJSON_IsTrue(jget(j, "custom_deck")) &&
                 strcmp(jstr(j, "result"), "resignation") == 0 &&
                 cJSON_GetArraySize(jget(j, "deck")) == 8 && strcmp(jstr(j, "start"), "D") == 0;
    cJSON_Delete(j);
    CHECK(custom, "the export of a custom deck game: custom_deck, deck, start or result wrong");
}

/* Answers of refused replays: status, code, and action_index (-1: none expected). */
static int refused(const struct server *srv, const char *label, const cJSON *x, const char *raw,
                   long status, const char *code, int index, char *why, size_t cap)
{
    struct resp r;
    if (x)
        post_replay(srv, x, &r);
    else
        http(srv, "POST", "/v1/games", raw, NULL, &r);
    int ok = r.status == status && strcmp(problem_code(&r), code) == 0 &&
             strstr(r.ctype, "application/problem+json") != NULL;
    if (ok && index >= 0)
        ok = jnum(r.json, "action_index") == index && jstr(r.json, "reason")[0] != '\0';
    if (ok && index < 0) ok = jget(r.json, "action_index") == NULL;
    if (!ok)
        snprintf(why, cap, "%s: %ld %.300s (want %ld %s, action_index %d)", label, r.status, r.body,
                 status, code, index);
    resp_free(&r);
    return ok ? 0 : -1;
}

/* The index of the `nth` (0 ..) action of kind `kind` in export `x`, or -1. */
static int nth_action(const cJSON *x, const char *kind, int nth)
{
    int i = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, jget(x, "actions"))
    {
        if (strcmp(jstr(a, "kind"), kind) == 0 && nth-- == 0) return i;
        i++;
    }
    return -1;
}

/* A copy of `x` with member `key` set to `v` (taken) in the object at `path` ("" for x). */
static cJSON *with(const cJSON *x, const char *path, const char *key, cJSON *v)
{
    cJSON *c = cJSON_Duplicate(x, 1);
    cJSON *at = path[0] ? (cJSON *)jget(c, path) : c;
    if (cJSON_GetObjectItemCaseSensitive(at, key))
        cJSON_ReplaceItemInObjectCaseSensitive(at, key, v);
    else
        cJSON_AddItemToObject(at, key, v);
    return c;
}

/* Malformed actions: a member of an action set to a value (JSON), each refused as
 * replay_invalid at that action's index. */
static const struct {
    const char *label, *key, *value;
} malformed[] = {
    {"kind jump", "kind", "\"jump\""},
    {"unknown member of an action", "extra", "true"},
    {"seat 7", "seat", "7"},
};

/* Exports changed in one member (at `path`, "" for the top; its value as JSON), and the code
 * each is refused with: other scores than the actions give, none of the results, a seed of
 * another deck, the format (another version, another format, an unknown member, a wrong
 * type). */
static const struct {
    const char *label, *path, *key, *value, *code;
} members[] = {
    {"scores", "", "scores", "[1,2]", "replay_mismatch"},
    {"result won", "", "result", "\"won\"", "invalid_body"},
    {"seed", "", "seed", "\"42\"", "replay_deck_mismatch"},
    {"format_version 2", "", "format_version", "2", "replay_unsupported_format"},
    {"format pgn", "", "format", "\"pgn\"", "replay_unsupported_format"},
    {"unknown member", "", "comment", "\"hi\"", "unknown_field"},
    {"actions a string", "", "actions", "\"all of them\"", "invalid_body"},
    {"ruleset chess", "", "ruleset", "\"chess\"", "unknown_ruleset"},
    {"a seat's token", "players.0", "token", "\"x\"", "unknown_field"},
};

ITEST(test_export_refusals, "export: refusals (unfinished, illegal or malformed action at k, "
                            "format, deck, JSON); nothing stored")
{
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"bot\":\"greedy\",\"think_ms\":10},{\"bot\":\"random\","
                 "\"think_ms\":10}],\"seed\":41}");
    /* An unfinished game has no export; nor a game that does not exist. */
    struct game live;
    NEW_GAME(&live, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}");
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/export", live.id);
    struct resp r;
    http(srv, "GET", path, NULL, NULL, &r);
    int not_finished = r.status == 409 && strcmp(problem_code(&r), "game_not_finished") == 0;
    resp_free(&r);
    CHECK(not_finished, "the export of an active game: not 409 game_not_finished");
    expect_not_found(srv, "/v1/games/00000000-0000-4000-8000-000000000000/export");
    if (itest_failure[0]) return;
    expect_not_found(srv, "/v1/games/nope/export");
    if (itest_failure[0]) return;

    CHECK(game_wait_finished(srv, g.id, 120000), "the bot game did not finish");
    cJSON *x = get_jsonf(srv, "/v1/games/%s/export", g.id);
    CHECK(x, "no export");
    long games = db_scalar("SELECT count(*) FROM games");
    long actions = db_scalar("SELECT count(*) FROM actions");
    long events = db_scalar("SELECT count(*) FROM events");
    char why[400];
    int n = cJSON_GetArraySize(jget(x, "actions"));
    int failed = 0;
    /* An illegal placement at index k: k is named, with the engine's reason. */
    int k = nth_action(x, "place", 7);
    char at[32];
    snprintf(at, sizeof at, "actions.%d", k);
    cJSON *bad = with(x, at, "x", cJSON_CreateNumber(40));
    failed |=
        refused(srv, "illegal placement", bad, NULL, 400, "replay_invalid", k, why, sizeof why);
    cJSON_Delete(bad);
    /* A draw by the wrong seat at index d. */
    int d = nth_action(x, "draw", 3);
    snprintf(at, sizeof at, "actions.%d", d);
    int seat = (int)jnum(jget(x, at), "seat");
    bad = with(x, at, "seat", cJSON_CreateNumber(1 - seat));
    if (!failed)
        failed |= refused(srv, "wrong seat", bad, NULL, 400, "replay_invalid", d, why, sizeof why);
    cJSON_Delete(bad);
    /* A malformed action at index j: its kind, an unknown member, a seat of no one. */
    int j = nth_action(x, "place", 2);
    snprintf(at, sizeof at, "actions.%d", j);
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0] && !failed; i++) {
        bad = with(x, at, malformed[i].key, cJSON_Parse(malformed[i].value));
        failed |=
            refused(srv, malformed[i].label, bad, NULL, 400, "replay_invalid", j, why, sizeof why);
        cJSON_Delete(bad);
    }
    /* One action too many (after the end), and too few (not finished). */
    bad = cJSON_Duplicate(x, 1);
    cJSON_AddItemToArray((cJSON *)jget(bad, "actions"),
                         cJSON_Parse("{\"kind\":\"draw\",\"seat\":0}"));
    if (!failed)
        failed |=
            refused(srv, "after the end", bad, NULL, 400, "replay_invalid", n, why, sizeof why);
    cJSON_Delete(bad);
    bad = cJSON_Duplicate(x, 1);
    cJSON_DeleteItemFromArray((cJSON *)jget(bad, "actions"), n - 1);
    if (!failed)
        failed |= refused(srv, "too few", bad, NULL, 400, "replay_incomplete", -1, why, sizeof why);
    cJSON_Delete(bad);
    /* Another result than the actions give (issue 29, item 14); none of the results is in
     * members. */
    const char *other = strcmp(jstr(x, "result"), "completed") == 0 ? "resignation" : "completed";
    bad = with(x, "", "result", cJSON_CreateString(other));
    if (!failed)
        failed |= refused(srv, "result", bad, NULL, 400, "replay_mismatch", -1, why, sizeof why);
    cJSON_Delete(bad);
    /* A deck that is not the seed's draw order (two tiles swapped). */
    bad = cJSON_Duplicate(x, 1);
    cJSON *deck = (cJSON *)jget(bad, "deck");
    cJSON *first = cJSON_DetachItemFromArray(deck, 0);
    cJSON_AddItemToArray(deck, first);
    if (!failed)
        failed |= refused(srv, "deck", bad, NULL, 400, "replay_deck_mismatch", -1, why, sizeof why);
    cJSON_Delete(bad);
    /* One member changed (members). */
    for (size_t i = 0; i < sizeof members / sizeof members[0] && !failed; i++) {
        bad = with(x, members[i].path, members[i].key, cJSON_Parse(members[i].value));
        failed |=
            refused(srv, members[i].label, bad, NULL, 400, members[i].code, -1, why, sizeof why);
        cJSON_Delete(bad);
    }
    /* Not an export, truncated, garbage, another member beside "replay". */
    if (!failed)
        failed |= refused(srv, "replay 5", NULL, "{\"replay\":5}", 400, "invalid_body", -1, why,
                          sizeof why);
    char *text = cJSON_PrintUnformatted(x);
    size_t len = strlen(text);
    char *body = malloc(len + 32);
    snprintf(body, len + 32, "{\"replay\":%s}", text);
    free(text);
    char keep = body[len / 2];
    body[len / 2] = '\0';
    if (!failed)
        failed |= refused(srv, "truncated", NULL, body, 400, "invalid_json", -1, why, sizeof why);
    body[len / 2] = keep;
    body[strlen(body) - 1] = ',';
    snprintf(body + strlen(body), 32, "\"seed\":1}");
    if (!failed)
        failed |= refused(srv, "a member beside replay", NULL, body, 400, "unknown_field", -1, why,
                          sizeof why);
    free(body);
    if (!failed)
        failed |= refused(srv, "garbage", NULL, "{\"replay\": {\"format\" tilehall}", 400,
                          "invalid_json", -1, why, sizeof why);
    if (!failed)
        failed |= refused(srv, "garbage bytes", NULL, "\x01\x02replay", 400, "invalid_json", -1,
                          why, sizeof why);
    /* Nothing of any refused replay was stored. */
    long games2 = db_scalar("SELECT count(*) FROM games");
    long actions2 = db_scalar("SELECT count(*) FROM actions");
    long events2 = db_scalar("SELECT count(*) FROM events");
    /* The export as it is still replays (the refusals above were the changes). */
    struct export_tally t = {0};
    int again = failed ? 0 : export_replay_same(srv, g.id, &t, why, sizeof why);
    cJSON_Delete(x);
    CHECK(!failed, "%s", why);
    CHECK(games2 == games && actions2 == actions && events2 == events,
          "refused replays stored something: games %ld -> %ld, actions %ld -> %ld, events %ld -> "
          "%ld",
          games, games2, actions, actions2, events, events2);
    CHECK(again == 0, "%s", why);
}

ITEST(test_export_replay_lobby_clock_idem,
      "export: a game through an invite and a clocked game replayed; Idempotency-Key of a replay")
{
    /* A game through an invite (the open seat's default placeholder): the same state,
     * scores, versions and events (seat_joined, game_started) in the replay. */
    struct resp r;
    http(srv, "POST", "/v1/games",
         "{\"players\":[{\"name\":\"Ann\"},{\"open\":true}],\"start\":\"D\",\"deck\":[\"K\",\"D\","
         "\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]}",
         NULL, &r);
    CHECK(r.status == 201, "lobby game: %ld %s", r.status, r.body);
    struct game g = {0};
    snprintf(g.id, sizeof g.id, "%s", jstr(r.json, "id"));
    snprintf(g.auth[0], sizeof g.auth[0], "Authorization: Bearer %s",
             jstr(r.json, "players.0.token"));
    char join[256];
    snprintf(join, sizeof join, "%s", jstr(r.json, "players.1.invite_url"));
    resp_free(&r);
    http(srv, "POST", join, "{\"name\":\"Bob\"}", NULL, &r);
    CHECK(r.status == 200 || r.status == 201, "join: %ld %s", r.status, r.body);
    snprintf(g.auth[1], sizeof g.auth[1], "Authorization: Bearer %s", jstr(r.json, "token"));
    resp_free(&r);
    g.nplayers = 2;
    char why[400];
    int st = 0;
    for (int i = 0; st == 0 && i < 40; i++) st = play_turn(srv, &g, 1, why, sizeof why);
    CHECK(st == 1, "lobby game: %s", st < 0 ? why : "did not finish");
    cJSON *x = get_jsonf(srv, "/v1/games/%s/export", g.id);
    CHECK(x, "no export of the lobby game");
    int joins = nth_action(x, "join", 0) >= 0;
    post_replay(srv, x, &r);
    cJSON_Delete(x);
    char nid[64], path[160];
    snprintf(nid, sizeof nid, "%s", jstr(r.json, "id"));
    long code = r.status;
    resp_free(&r);
    CHECK(code == 201 && joins, "lobby replay: %ld (a join exported: %d)", code, joins);
    cJSON *s1 = get_jsonf(srv, "/v1/games/%s", g.id), *s2 = get_jsonf(srv, "/v1/games/%s", nid);
    cJSON *c1 = get_jsonf(srv, "/v1/games/%s/scores", g.id);
    cJSON *c2 = get_jsonf(srv, "/v1/games/%s/scores", nid);
    cJSON *e1 = game_events(srv, g.id), *e2 = game_events(srv, nid);
    cJSON *v1 = get_jsonf(srv, "/v1/games/%s?version=2", g.id);
    cJSON *v2 = get_jsonf(srv, "/v1/games/%s?version=2", nid);
    int same_state = s1 && s2 && same_but(s1, s2, "id") && c1 && c2 && cJSON_Compare(c1, c2, 1) &&
                     v1 && v2 && same_but(v1, v2, "id");
    int started = 0;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, e2) started += strcmp(jstr(ev, "type"), "game_started") == 0;
    int same_events = e1 && e2 && cJSON_Compare(e1, e2, 1) && started == 1;
    cJSON_Delete(s1);
    cJSON_Delete(s2);
    cJSON_Delete(c1);
    cJSON_Delete(c2);
    cJSON_Delete(e1);
    cJSON_Delete(e2);
    cJSON_Delete(v1);
    cJSON_Delete(v2);
    CHECK(same_state, "the lobby game's replay: another state, scores or version 2");
    CHECK(same_events, "the lobby game's replay: other events (game_started %d)", started);

    /* A clocked game played in time has no clock events: its replay (without a clock) has
     * the same events and scores. */
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"clock\":{"
                 "\"turn_seconds\":86400},\"start\":\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\"]}");
    st = 0;
    for (int i = 0; st == 0 && i < 40; i++) st = play_turn(srv, &g, 1, why, sizeof why);
    CHECK(st == 1, "clocked game: %s", st < 0 ? why : "did not finish");
    x = get_jsonf(srv, "/v1/games/%s/export", g.id);
    CHECK(x, "no export of the clocked game");
    post_replay(srv, x, &r);
    snprintf(nid, sizeof nid, "%s", jstr(r.json, "id"));
    int no_clock = r.status == 201 && jget(r.json, "clock") == NULL;
    resp_free(&r);
    e1 = game_events(srv, g.id);
    e2 = game_events(srv, nid);
    c1 = get_jsonf(srv, "/v1/games/%s/scores", g.id);
    c2 = get_jsonf(srv, "/v1/games/%s/scores", nid);
    int same = e1 && e2 && cJSON_Compare(e1, e2, 1) && c1 && c2 && cJSON_Compare(c1, c2, 1);
    cJSON_Delete(e1);
    cJSON_Delete(e2);
    cJSON_Delete(c1);
    cJSON_Delete(c2);
    CHECK(no_clock && same, "the clocked game's replay: a clock, or other events or scores");

    /* A seat bound to a player: exported by its name alone (never the player's id or
     * token), replayed as a named seat with a token of its own. */
    http(srv, "POST", "/v1/players", "{\"name\":\"Dee\"}", NULL, &r);
    CHECK(r.status == 201, "player: %ld %s", r.status, r.body);
    char person[64], auth[160];
    snprintf(person, sizeof person, "%s", jstr(r.json, "id"));
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", jstr(r.json, "token"));
    resp_free(&r);
    const char *ph[2] = {auth, NULL};
    http(srv, "POST", "/v1/games",
         "{\"players\":[{\"player\":\"me\"},{\"name\":\"Bob\"}],\"start\":\"D\","
         "\"deck\":[\"K\",\"D\"]}",
         ph, &r);
    CHECK(r.status == 201, "bound game: %ld %s", r.status, r.body);
    struct game bg = {.nplayers = 2};
    snprintf(bg.id, sizeof bg.id, "%s", jstr(r.json, "id"));
    snprintf(bg.auth[0], sizeof bg.auth[0], "%s", auth);
    snprintf(bg.auth[1], sizeof bg.auth[1], "Authorization: Bearer %s",
             jstr(r.json, "players.1.token"));
    resp_free(&r);
    st = 0;
    for (int i = 0; st == 0 && i < 10; i++) st = play_turn(srv, &bg, 1, why, sizeof why);
    CHECK(st == 1, "bound game: %s", st < 0 ? why : "did not finish");
    snprintf(path, sizeof path, "/v1/games/%s/export", bg.id);
    http(srv, "GET", path, NULL, NULL, &r);
    int named = r.status == 200 && strcmp(jstr(r.json, "players.0.name"), "Dee") == 0 &&
                !strstr(r.body, person) && !strstr(r.body, "token");
    resp_free(&r);
    CHECK(named, "the bound seat's export: not its name alone");
    struct export_tally bt = {0};
    CHECK(export_replay_same(srv, bg.id, &bt, why, sizeof why) == 0, "bound game: %s", why);

    /* An Idempotency-Key: the repeat gets the first answer (the same game, its tokens), one
     * game is made; a short anonymous key is refused. */
    cJSON *body = cJSON_CreateObject();
    cJSON_AddItemToObject(body, "replay", x);
    char *text = cJSON_PrintUnformatted(body);
    cJSON_Delete(body);
    long games = db_scalar("SELECT count(*) FROM games");
    const char *key[2] = {"Idempotency-Key: 3b9f0c2a6d1e4f5a8b7c9d0e1f2a3b4c", NULL};
    struct resp a, b;
    http(srv, "POST", "/v1/games", text, key, &a);
    http(srv, "POST", "/v1/games", text, key, &b);
    const char *short_key[2] = {"Idempotency-Key: short", NULL};
    struct resp c;
    http(srv, "POST", "/v1/games", text, short_key, &c);
    free(text);
    int repeat = a.status == 201 && b.status == 201 && strcmp(a.body, b.body) == 0;
    int too_short = c.status == 400 && strcmp(problem_code(&c), "idempotency_key_too_short") == 0;
    resp_free(&a);
    resp_free(&b);
    resp_free(&c);
    long games2 = db_scalar("SELECT count(*) FROM games");
    CHECK(repeat && too_short && games2 == games + 1,
          "a replay's Idempotency-Key: repeat %d, short key refused %d, %ld games made", repeat,
          too_short, games2 - games);
}
