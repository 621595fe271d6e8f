/* t_play.c: turns, errors that change nothing, whole games, races, restarts, outages. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hard.h"
#include "tests.h"

/* POSTs to /v1/games/{id}/<what> as `seat` with extra header `extra` (or NULL). */
static void act(const struct server *srv, const struct game *g, const char *what, int seat,
                const char *body, const char *extra, struct resp *r)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/%s", g->id, what);
    const char *h[3] = {seat >= 0 ? g->auth[seat] : NULL, NULL, NULL};
    if (seat < 0) h[0] = extra, extra = NULL;
    h[1] = extra;
    http(srv, "POST", path, body, h, r);
}

/* GETs /v1/games/{id}/<what>. */
static void read_game(const struct server *srv, const struct game *g, const char *what,
                      struct resp *r)
{
    char path[192];
    snprintf(path, sizeof path, "/v1/games/%s%s%s", g->id, what[0] ? "/" : "", what);
    http(srv, "GET", path, NULL, NULL, r);
}

#define SMALL_GAME                                                                                 \
    "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"start\":\"D\",\"deck\":[\"K\","        \
    "\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]}"

ITEST(test_auth, "tokens: 401 and 403")
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    struct resp r;
    act(srv, &g, "draw", -1, NULL, NULL, &r);
    CHECK(r.status == 401 && strcmp(problem_code(&r), "missing_token") == 0 &&
              strncmp(r.www_auth, "Bearer", 6) == 0,
          "no token: %ld %s (%s)", r.status, r.body, r.www_auth);
    resp_free(&r);
    act(srv, &g, "draw", -1, NULL, "Authorization: Bearer not-a-token-of-this-game", &r);
    CHECK(r.status == 401 && strcmp(problem_code(&r), "unknown_token") == 0, "bad token: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", -1, NULL, "Authorization: Basic QWxhZGRpbjpvcGVu", &r);
    CHECK(r.status == 401 && strcmp(problem_code(&r), "missing_token") == 0, "basic: %ld",
          r.status);
    resp_free(&r);
    /* Another game's token is unknown here. */
    struct game other;
    NEW_GAME(&other, SMALL_GAME);
    char h[200];
    snprintf(h, sizeof h, "Authorization: Bearer %s", other.token[0]);
    act(srv, &g, "draw", -1, NULL, h, &r);
    CHECK(r.status == 401 && strcmp(problem_code(&r), "unknown_token") == 0, "other game: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", 1, NULL, NULL, &r);
    CHECK(r.status == 403 && strcmp(problem_code(&r), "not_your_turn") == 0, "seat 1: %ld %s",
          r.status, r.body);
    resp_free(&r);
    act(srv, &g, "placements", 1, "{\"x\":0,\"y\":1,\"rotation\":0}", NULL, &r);
    CHECK(r.status == 403 && strcmp(problem_code(&r), "not_your_turn") == 0, "seat 1 place: %ld",
          r.status);
    resp_free(&r);
    CHECK(game_version(srv, &g) == 1, "a refused request changed the version");
    /* Reads are public. */
    read_game(srv, &g, "scores", &r);
    CHECK(r.status == 200 && strcmp(r.etag, "\"1\"") == 0 &&
              cJSON_GetArraySize(jget(r.json, "projected")) == 2 && !jget(r.json, "winners"),
          "scores: %ld %s", r.status, r.body);
    resp_free(&r);
}

/* Expects a POST placement with `body` by seat 0 to be refused with `status`/`code`. */
#define EXPECT_PLACE(b_, st, code_)                                                                \
    do {                                                                                           \
        struct resp r_;                                                                            \
        act(srv, &g, "placements", 0, b_, NULL, &r_);                                              \
        int ok_ = r_.status == (st) && strcmp(problem_code(&r_), code_) == 0;                      \
        char got_[300];                                                                            \
        snprintf(got_, sizeof got_, "%ld %.200s", r_.status, r_.body);                             \
        resp_free(&r_);                                                                            \
        CHECK(ok_, "%.200s -> %s", b_, got_);                                                      \
        CHECK(game_version(srv, &g) == version, "%s changed the version", b_);                     \
    } while (0)

/* EXPECT_PLACE of the body printed from `fmt` and what follows it. */
#define EXPECT_PLACEF(st, code_, fmt, ...)                                                         \
    do {                                                                                           \
        snprintf(body, sizeof body, fmt, __VA_ARGS__);                                             \
        EXPECT_PLACE(body, st, code_);                                                             \
    } while (0)

ITEST(test_turn_errors, "turn errors change nothing")
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    int version = 1;
    struct resp r;
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":0}", 409, "wrong_phase");
    read_game(srv, &g, "placements", &r);
    CHECK(r.status == 409 && strcmp(problem_code(&r), "wrong_phase") == 0, "placements: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", 0, "{\"tile\":\"K\"}", NULL, &r);
    CHECK(r.status == 400 && strcmp(problem_code(&r), "unknown_field") == 0, "draw body: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", 0, "{}", NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "tile"), "K") == 0 &&
              strcmp(r.etag, "\"2\"") == 0 && jnum(r.json, "game.version") == 2 &&
              cJSON_GetArraySize(jget(r.json, "placements")) > 0 &&
              strcmp(jstr(r.json, "events.0.type"), "tile_drawn") == 0,
          "draw: %ld %.300s", r.status, r.body);
    resp_free(&r);
    version = 2;
    act(srv, &g, "draw", 0, NULL, NULL, &r);
    CHECK(r.status == 409 && strcmp(problem_code(&r), "wrong_phase") == 0, "draw twice: %ld",
          r.status);
    resp_free(&r);
    /* Which (x, y, rotation) next to the start tile are legal for K? */
    read_game(srv, &g, "placements", &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "tile"), "K") == 0, "placements: %ld", r.status);
    int legal[4][4] = {{0}};
    static const int sq[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    const cJSON *p;
    cJSON_ArrayForEach(p, jget(r.json, "placements"))
    {
        for (int s = 0; s < 4; s++)
            if (jnum(p, "x") == sq[s][0] && jnum(p, "y") == sq[s][1])
                legal[s][(int)jnum(p, "rotation") / 90] = 1;
    }
    char legal_body[96] = "", bad_edges[96] = "";
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 4; k++) {
            char *dst = legal[s][k] ? legal_body : bad_edges;
            if (!dst[0])
                snprintf(dst, 96, "{\"x\":%d,\"y\":%d,\"rotation\":%d", sq[s][0], sq[s][1], k * 90);
        }
    resp_free(&r);
    CHECK(legal_body[0] && bad_edges[0], "K should fit some ways and not others");
    char body[160];
    EXPECT_PLACEF(409, "edges_do_not_match", "%s}", bad_edges);
    EXPECT_PLACE("{\"x\":0,\"y\":0,\"rotation\":0}", 409, "position_taken");
    EXPECT_PLACE("{\"x\":5,\"y\":5,\"rotation\":0}", 409, "not_adjacent");
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":45}", 400, "bad_rotation");
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":\"90\"}", 400, "bad_rotation");
    EXPECT_PLACE("{\"x\":0,\"y\":-1}", 400, "invalid_body");
    EXPECT_PLACE("{\"x\":0.5,\"y\":-1,\"rotation\":0}", 400, "invalid_body");
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":0,\"meeple\":\"N\"}", 400, "unknown_field");
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":0,\"x\":1}", 400, "invalid_body");
    EXPECT_PLACE("not json", 400, "invalid_json");
    /* The legal placement with a follow-up that is wrong (in itself, or in this ruleset). */
    EXPECT_PLACEF(400, "bad_location", "%s,\"follower\":\"Q\"}", legal_body);
    EXPECT_PLACEF(409, "no_feature_there", "%s,\"follower\":\"C\"}", legal_body);
    EXPECT_PLACEF(400, "invalid_body", "%s,\"follower\":\"N\",\"stable\":\"S\"}", legal_body);
    EXPECT_PLACEF(400, "followup_not_in_ruleset", "%s,\"stable\":\"N\"}", legal_body);
    EXPECT_PLACEF(400, "followup_not_in_ruleset", "%s,\"hike\":{\"x\":0,\"y\":0,\"toward\":\"E\"}}",
                  legal_body);
    EXPECT_PLACEF(400, "bad_location", "%s,\"hike\":{\"x\":0,\"y\":0,\"toward\":\"NE\"}}",
                  legal_body);
    EXPECT_PLACEF(400, "followup_not_in_ruleset",
                  "%s,\"withdraw\":{\"x\":0,\"y\":0,\"location\":\"N\"}}", legal_body);
    EXPECT_PLACEF(400, "unknown_tile", "%s,\"tile\":\"QQ\"}", legal_body);
    snprintf(body, sizeof body, "%s}", legal_body);
    act(srv, &g, "placements", 0, body, NULL, &r);
    CHECK(r.status == 201 && jnum(r.json, "version") == 3 && strcmp(r.etag, "\"3\"") == 0 &&
              strcmp(jstr(r.json, "events.0.type"), "tile_placed") == 0,
          "legal place: %ld %s", r.status, r.body);
    resp_free(&r);
}

ITEST(test_if_match, "If-Match")
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    struct resp r;
    act(srv, &g, "draw", 0, NULL, "If-Match: \"7\"", &r);
    CHECK(r.status == 412 && strcmp(problem_code(&r), "version_mismatch") == 0, "stale: %ld %s",
          r.status, r.body);
    resp_free(&r);
    act(srv, &g, "draw", 0, NULL, "If-Match: seven", &r);
    CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0, "bad: %ld",
          r.status);
    resp_free(&r);
    CHECK(game_version(srv, &g) == 1, "refused If-Match changed the game");
    act(srv, &g, "draw", 0, NULL, "If-Match: \"1\"", &r);
    CHECK(r.status == 200 && strcmp(r.etag, "\"2\"") == 0, "fresh: %ld %s", r.status, r.body);
    resp_free(&r);
}

/* GETs the game with `If-None-Match: <inm>` and expects `status`. */
static int get_inm(const struct server *srv, const struct game *g, const char *inm, long status,
                   char *why, size_t cap)
{
    char path[128], h[160];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    snprintf(h, sizeof h, "If-None-Match: %s", inm);
    const char *hs[] = {h, NULL};
    struct resp r;
    http(srv, "GET", path, NULL, hs, &r);
    int ok = r.status == status && strcmp(r.cache, "no-cache") == 0 && r.etag[0] &&
             (status != 304 || r.len == 0);
    if (!ok)
        snprintf(why, cap, "If-None-Match %s: %ld (want %ld), %zu bytes, ETag %s, Cache-Control %s",
                 inm, r.status, status, r.len, r.etag, r.cache);
    resp_free(&r);
    return ok ? 0 : -1;
}

ITEST(test_if_none_match, "If-None-Match: 304 while the game stays at that version")
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    char why[300];
    static const char *const same[] = {"\"1\"", "W/\"1\"", "\"0\", \"1\"", "*"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        CHECK(get_inm(srv, &g, same[i], 304, why, sizeof why) == 0, "%s", why);
    CHECK(get_inm(srv, &g, "\"2\"", 200, why, sizeof why) == 0, "%s", why);
    CHECK(get_inm(srv, &g, "garbage", 200, why, sizeof why) == 0, "%s", why);
    struct resp r;
    act(srv, &g, "draw", 0, NULL, NULL, &r);
    CHECK(r.status == 200, "draw: %ld", r.status);
    resp_free(&r);
    /* The game moved on: the old version gets the game, the new one a 304. */
    CHECK(get_inm(srv, &g, "\"1\"", 200, why, sizeof why) == 0, "%s", why);
    CHECK(get_inm(srv, &g, "\"2\"", 304, why, sizeof why) == 0, "%s", why);
    /* Other answers are not to be stored at all. */
    read_game(srv, &g, "scores", &r);
    CHECK(r.status == 200 && strcmp(r.cache, "no-store") == 0, "scores: %ld %s", r.status, r.cache);
    resp_free(&r);
}

ITEST(test_idempotency, "Idempotency-Key")
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    struct resp a, b;
    act(srv, &g, "draw", 0, NULL, "Idempotency-Key: draw-1", &a);
    CHECK(a.status == 200, "first: %ld", a.status);
    act(srv, &g, "draw", 0, NULL, "Idempotency-Key: draw-1", &b);
    int same = b.status == 200 && strcmp(a.body, b.body) == 0 && strcmp(a.etag, b.etag) == 0;
    resp_free(&a);
    resp_free(&b);
    CHECK(same, "a repeat did not get the first answer");
    CHECK(game_version(srv, &g) == 2, "a repeat changed the game");
    act(srv, &g, "placements", 0, "{\"x\":0,\"y\":-1,\"rotation\":180}", "Idempotency-Key: draw-1",
        &a);
    CHECK(a.status == 409 && strcmp(problem_code(&a), "idempotency_key_reused") == 0,
          "reused: %ld %s", a.status, a.body);
    resp_free(&a);
    char longkey[100] = "Idempotency-Key: ";
    memset(longkey + strlen(longkey), 'k', 65);
    act(srv, &g, "draw", 0, NULL, longkey, &a);
    CHECK(a.status == 400 && strcmp(problem_code(&a), "invalid_parameter") == 0, "long key: %ld",
          a.status);
    resp_free(&a);
    /* Creating: the repeat is the first answer again, byte for byte, tokens included. */
    const char *h[] = {"Idempotency-Key: create-xyz-1", NULL};
    char key[128];
    snprintf(key, sizeof key, "Idempotency-Key: create-%s", g.id);
    h[0] = key;
    http(srv, "POST", "/v1/games", SMALL_GAME, h, &a);
    http(srv, "POST", "/v1/games", SMALL_GAME, h, &b);
    CHECK(a.status == 201 && b.status == 201, "create: %ld %ld", a.status, b.status);
    CHECK(strcmp(jstr(a.json, "id"), jstr(b.json, "id")) == 0 &&
              strcmp(a.location, b.location) == 0,
          "repeat created another game");
    CHECK(strlen(jstr(a.json, "players.0.token")) > 0 && strcmp(a.body, b.body) == 0,
          "tokens: first %s, repeat %s", jstr(a.json, "players.0.token"),
          jstr(b.json, "players.0.token"));
    resp_free(&a);
    resp_free(&b);
    http(srv, "POST", "/v1/games", "{\"players\":[{\"name\":\"X\"},{\"name\":\"Y\"}]}", h, &a);
    CHECK(a.status == 409 && strcmp(problem_code(&a), "idempotency_key_reused") == 0,
          "create reused: %ld", a.status);
    resp_free(&a);
}

ITEST(test_events, "events")
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    char why[300];
    for (int i = 0; i < 2; i++) CHECK(play_turn(srv, &g, 1, why, sizeof why) >= 0, "%s", why);
    struct resp r;
    read_game(srv, &g, "events", &r);
    CHECK(r.status == 200, "events: %ld", r.status);
    const cJSON *evs = jget(r.json, "events");
    int n = cJSON_GetArraySize(evs);
    CHECK(n >= 5 && strcmp(jstr(evs, "0.type"), "game_created") == 0 && jnum(evs, "0.seq") == 1 &&
              strcmp(jstr(evs, "0.players.1.name"), "Bob") == 0,
          "first events: %.300s", r.body);
    for (int i = 0; i < n; i++)
        CHECK(jnum(cJSON_GetArrayItem(evs, i), "seq") == i + 1, "seq gap at %d", i);
    CHECK(!strstr(r.body, "token") && !strstr(r.body, "seed"), "events leak secrets");
    resp_free(&r);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=%d", g.id, n - 2);
    http(srv, "GET", path, NULL, NULL, &r);
    CHECK(r.status == 200 && cJSON_GetArraySize(jget(r.json, "events")) == 2 &&
              jnum(r.json, "events.0.seq") == n - 1,
          "after: %.200s", r.body);
    resp_free(&r);
    static const char *const bad[] = {"after=-1", "after=x", "wait=61",
                                      "wait=-2",  "after=",  "wait=1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(path, sizeof path, "/v1/games/%s/events?%s", g.id, bad[i]);
        http(srv, "GET", path, NULL, NULL, &r);
        CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0, "%s: %ld",
              bad[i], r.status);
        resp_free(&r);
    }
    /* wait with nothing new: answers an empty list after about that long. */
    snprintf(path, sizeof path, "/v1/games/%s/events?after=%d&wait=1", g.id, n);
    long long t0 = hard_now_ms();
    http(srv, "GET", path, NULL, NULL, &r);
    long long ms = hard_now_ms() - t0;
    CHECK(r.status == 200 && cJSON_GetArraySize(jget(r.json, "events")) == 0 && ms >= 900 &&
              ms < 3000,
          "empty wait: %ld in %lld ms", r.status, ms);
    resp_free(&r);
}

struct poll_arg {
    const struct server *srv;
    char path[256];
    struct resp r;
    long long ms;
};

static void *poll_thread(void *p)
{
    struct poll_arg *a = p;
    long long t0 = hard_now_ms();
    http(a->srv, "GET", a->path, NULL, NULL, &a->r);
    a->ms = hard_now_ms() - t0;
    return NULL;
}

ITEST(test_long_poll, "events long poll")
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    struct poll_arg a[3];
    pthread_t t[3];
    for (int i = 0; i < 3; i++) {
        a[i].srv = srv;
        snprintf(a[i].path, sizeof a[i].path, "/v1/games/%s/events?after=1&wait=20", g.id);
        pthread_create(&t[i], NULL, poll_thread, &a[i]);
    }
    usleep(500000);
    /* The server still answers other requests while the polls wait. */
    struct resp r;
    http(srv, "GET", "/healthz", NULL, NULL, &r);
    long health = r.status;
    resp_free(&r);
    act(srv, &g, "draw", 0, NULL, NULL, &r);
    long drew = r.status;
    resp_free(&r);
    int ok = 1;
    char why[300] = "";
    for (int i = 0; i < 3; i++) {
        pthread_join(t[i], NULL);
        if (a[i].r.status != 200 || strcmp(jstr(a[i].r.json, "events.0.type"), "tile_drawn") != 0 ||
            a[i].ms < 400 || a[i].ms > 5000) {
            ok = 0;
            snprintf(why, sizeof why, "poll %d: %ld in %lld ms: %.200s", i, a[i].r.status, a[i].ms,
                     a[i].r.body);
        }
        resp_free(&a[i].r);
    }
    CHECK(health == 200 && drew == 200, "health %ld draw %ld", health, drew);
    CHECK(ok, "%s", why);
}

ITEST(test_whole_game, "a whole game via /placements")
{
    struct game g;
    NEW_GAME(&g, "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"},"
                 "{\"name\":\"Cy\"}],\"seed\":20240607}");
    char why[300];
    int turns = 0, rc = 0;
    while ((rc = play_turn(srv, &g, turns % 2 == 0, why, sizeof why)) == 0 && turns < 300) turns++;
    CHECK(rc == 1, "turn %d: %s", turns, why);
    CHECK(turns > 60, "only %d turns", turns);
    cJSON *j = game_get(srv, &g);
    CHECK(j, "get");
    int ok = strcmp(jstr(j, "status"), "finished") == 0 && strlen(jstr(j, "seed")) > 0 &&
             strcmp(jstr(j, "seed"), "20240607") == 0 &&
             cJSON_GetArraySize(jget(j, "deck")) == 71 &&
             strcmp(jstr(j, "turn.phase"), "finished") == 0 && cJSON_IsNull(jget(j, "turn.seat"));
    char *text = cJSON_PrintUnformatted(j);
    snprintf(why, sizeof why, "%.280s",
             text ? text + (strlen(text) > 280 ? strlen(text) - 280 : 0) : "");
    free(text);
    cJSON_Delete(j);
    CHECK(ok, "finished game: ...%s", why);
    struct resp r;
    read_game(srv, &g, "scores", &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "status"), "finished") == 0 &&
              cJSON_GetArraySize(jget(r.json, "winners")) >= 1,
          "scores: %.300s", r.body);
    const cJSON *p;
    int best = -1;
    cJSON_ArrayForEach(p, jget(r.json, "players"))
    {
        int sum = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, jget(p, "breakdown")) sum += c->valueint;
        CHECK(sum == (int)jnum(p, "score"), "breakdown of seat %g sums to %d, not %g",
              jnum(p, "seat"), sum, jnum(p, "score"));
        if (sum > best) best = sum;
    }
    const cJSON *w;
    cJSON_ArrayForEach(w, jget(r.json, "winners"))
    {
        const cJSON *wp = cJSON_GetArrayItem(jget(r.json, "players"), w->valueint);
        CHECK(jnum(wp, "score") == best, "winner %d has %g, best is %d", w->valueint,
              jnum(wp, "score"), best);
    }
    resp_free(&r);
    read_game(srv, &g, "events", &r);
    const cJSON *evs = jget(r.json, "events");
    int n = cJSON_GetArraySize(evs);
    for (int i = 0; i < n; i++)
        CHECK(jnum(cJSON_GetArrayItem(evs, i), "seq") == i + 1, "seq gap at %d", i);
    CHECK(strcmp(jstr(cJSON_GetArrayItem(evs, n - 1), "type"), "game_finished") == 0 &&
              strcmp(jstr(cJSON_GetArrayItem(evs, n - 2), "type"), "final_scored") == 0,
          "last events");
    resp_free(&r);
    read_game(srv, &g, "placements", &r);
    CHECK(r.status == 409 && strcmp(problem_code(&r), "game_finished") == 0, "placements: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", 0, NULL, NULL, &r);
    CHECK((r.status == 409 && strcmp(problem_code(&r), "game_finished") == 0) ||
              (r.status == 403 && strcmp(problem_code(&r), "not_your_turn") == 0),
          "draw after the end: %ld %s", r.status, r.body);
    resp_free(&r);
}
