/* t_api.c: operations, rulesets, creating games, malformed requests. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "tests.h"

static const char *const no_headers[] = {NULL};

int game_new(const struct server *srv, const char *body, struct game *g, char *why, size_t cap)
{
    return game_new_as(srv, body, no_headers, g, why, cap);
}

int game_new_as(const struct server *srv, const char *body, const char *const *headers,
                struct game *g, char *why, size_t cap)
{
    struct resp r;
    http(srv, "POST", "/v1/games", body, headers, &r);
    memset(g, 0, sizeof *g);
    int rc = -1;
    if (r.status != 201) {
        snprintf(why, cap, "create answered %ld: %.200s", r.status, r.body);
        goto out;
    }
    snprintf(g->id, sizeof g->id, "%s", jstr(r.json, "id"));
    const cJSON *players = jget(r.json, "players");
    g->nplayers = cJSON_GetArraySize(players);
    for (int s = 0; s < g->nplayers && s < 6; s++) {
        snprintf(g->token[s], sizeof g->token[s], "%s",
                 jstr(cJSON_GetArrayItem(players, s), "token"));
        snprintf(g->auth[s], sizeof g->auth[s], "Authorization: Bearer %s", g->token[s]);
    }
    rc = 0;
out:
    resp_free(&r);
    return rc;
}

int person_new(const struct server *srv, const char *name, struct person *p, char *why, size_t cap)
{
    char body[128];
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    struct resp r;
    http(srv, "POST", "/v1/players", body, NULL, &r);
    int rc = -1;
    if (r.status == 201 && token_shape(jstr(r.json, "token"))) {
        snprintf(p->id, sizeof p->id, "%s", jstr(r.json, "id"));
        snprintf(p->auth, sizeof p->auth, "Authorization: Bearer %s", jstr(r.json, "token"));
        rc = 0;
    } else {
        snprintf(why, cap, "POST /v1/players answered %ld: %.200s", r.status, r.body);
    }
    resp_free(&r);
    return rc;
}

cJSON *get_json_as(const struct server *srv, const char *path, const char *const *headers,
                   long *status)
{
    struct resp r;
    http(srv, "GET", path, NULL, headers, &r);
    if (status) *status = r.status;
    cJSON *j = r.status == 200 ? r.json : NULL;
    if (j) r.json = NULL;
    resp_free(&r);
    return j;
}

cJSON *get_json(const struct server *srv, const char *path)
{
    return get_json_as(srv, path, NULL, NULL);
}

long metric_count(const struct server *srv, const char *name)
{
    struct resp r;
    http(srv, "GET", "/metrics", NULL, NULL, &r);
    long v = -1;
    const char *at = r.status == 200 && r.body ? strstr(r.body, name) : NULL;
    if (at) v = strtol(at + strlen(name), NULL, 10);
    resp_free(&r);
    return v;
}

cJSON *game_get(const struct server *srv, const struct game *g)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    return get_json(srv, path);
}

void expect_not_found(const struct server *srv, const char *path)
{
    struct resp r;
    http(srv, "GET", path, NULL, NULL, &r);
    long st = r.status;
    int other_code = strcmp(problem_code(&r), "not_found") != 0;
    resp_free(&r);
    CHECK(st == 404 && !other_code, "GET %s: %ld (want 404 not_found)", path, st);
}

void expect_create_refusals(const struct server *srv, const char *frame,
                            const struct create_refusal *cases, size_t n)
{
    long games0 = db_scalar("SELECT count(*) FROM games");
    for (size_t i = 0; i < n; i++) {
        char body[600], code[64];
        snprintf(body, sizeof body, frame ? frame : "%s", cases[i].body);
        struct resp r;
        http(srv, "POST", "/v1/games", body, NULL, &r);
        char got[200];
        snprintf(got, sizeof got, "%.180s", r.body ? r.body : "");
        long status = resp_done(&r, code, sizeof code);
        CHECK(status == 400 && strcmp(code, cases[i].code) == 0, "%s: %ld %s (wanted 400 %s)",
              cases[i].body, status, got, cases[i].code);
    }
    CHECK(db_scalar("SELECT count(*) FROM games") == games0, "a refused create stored a game");
}

int game_version(const struct server *srv, const struct game *g)
{
    cJSON *j = game_get(srv, g);
    int v = j ? (int)jnum(j, "version") : -1;
    cJSON_Delete(j);
    return v;
}

long long wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long rfc3339_ms(const char *s)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    int ms = 0;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
               &tm.tm_min, &tm.tm_sec, &ms) != 7)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (long long)timegm(&tm) * 1000 + ms;
}

ITEST(test_ops, "ops endpoints")
{
    struct resp r;
    http(srv, "GET", "/healthz", NULL, NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "status"), "ok") == 0, "healthz: %ld %s", r.status,
          r.body);
    resp_free(&r);
    http(srv, "GET", "/readyz", NULL, NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "status"), "ok") == 0, "readyz: %ld", r.status);
    resp_free(&r);
    http(srv, "GET", "/openapi.yaml", NULL, NULL, &r);
    CHECK(r.status == 200 && strncmp(r.body, "openapi:", 8) == 0 && strstr(r.ctype, "yaml"),
          "openapi.yaml: %ld %.40s (%s)", r.status, r.body, r.ctype);
    resp_free(&r);
    http(srv, "GET", "/metrics", NULL, NULL, &r);
    CHECK(r.status == 200 &&
              strstr(r.body, "tilehall_http_requests_total{route=\"/healthz\",status=\"200\"}"),
          "metrics: %ld %.80s", r.status, r.body);
    resp_free(&r);
}

ITEST(test_not_found_and_methods, "404 and 405")
{
    static const char *const paths[] = {
        "/nope", "/v1", "/v1/nope", "/v1/games/x/y/z", "/healthz/", "/v1/rulesets/classic/tiles/A"};
    struct resp r;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        http(srv, "GET", paths[i], NULL, NULL, &r);
        CHECK(r.status == 404 && strcmp(problem_code(&r), "not_found") == 0 &&
                  strcmp(r.ctype, "application/problem+json") == 0 &&
                  jnum(r.json, "status") == 404 && strlen(jstr(r.json, "detail")) > 0 &&
                  strstr(jstr(r.json, "type"), "not_found"),
              "GET %s: %ld %s", paths[i], r.status, r.body);
        resp_free(&r);
    }
    http(srv, "DELETE", "/v1/games", NULL, NULL, &r);
    CHECK(r.status == 405 && strcmp(problem_code(&r), "method_not_allowed") == 0 &&
              strcmp(r.allow, "POST") == 0,
          "DELETE /v1/games: %ld %s allow=%s", r.status, r.body, r.allow);
    resp_free(&r);
    http(srv, "PUT", "/v1/games/00000000-0000-4000-8000-000000000000/placements", "{}", NULL, &r);
    CHECK(r.status == 405 && strstr(r.allow, "GET") && strstr(r.allow, "POST"), "PUT: %ld %s",
          r.status, r.allow);
    resp_free(&r);
    http(srv, "POST", "/healthz", NULL, NULL, &r);
    CHECK(r.status == 405 && strcmp(r.allow, "GET") == 0, "POST /healthz: %ld", r.status);
    resp_free(&r);
    /* HEAD is no method of openapi.yaml: 405 where GET is, 404 where nothing is. */
    http(srv, "HEAD", "/healthz", NULL, NULL, &r);
    CHECK(r.status == 405 && strcmp(r.allow, "GET") == 0 && r.len == 0, "HEAD /healthz: %ld",
          r.status);
    resp_free(&r);
    http(srv, "HEAD", "/v1/games", NULL, NULL, &r);
    CHECK(r.status == 405 && strcmp(r.allow, "POST") == 0, "HEAD /v1/games: %ld", r.status);
    resp_free(&r);
    http(srv, "HEAD", "/v1/nope", NULL, NULL, &r);
    CHECK(r.status == 404 && r.len == 0, "HEAD /v1/nope: %ld", r.status);
    resp_free(&r);
    static const char *const games[] = {
        "/v1/games/00000000-0000-4000-8000-000000000000", "/v1/games/not-a-uuid",
        "/v1/games/00000000-0000-4000-8000-000000000000/scores",
        "/v1/games/00000000-0000-4000-8000-000000000000/events", "/v1/games/zzz/placements"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        http(srv, "GET", games[i], NULL, NULL, &r);
        CHECK(r.status == 404 && strcmp(problem_code(&r), "not_found") == 0, "GET %s: %ld %s",
              games[i], r.status, r.body);
        resp_free(&r);
    }
    const char *auth[] = {"Authorization: Bearer x", NULL};
    http(srv, "POST", "/v1/games/00000000-0000-4000-8000-000000000000/draw", NULL, auth, &r);
    CHECK(r.status == 404 && strcmp(problem_code(&r), "not_found") == 0, "draw unknown: %ld",
          r.status);
    resp_free(&r);
}

ITEST(test_rulesets, "rulesets and tiles")
{
    struct resp r;
    http(srv, "GET", "/v1/rulesets", NULL, NULL, &r);
    CHECK(r.status == 200, "rulesets: %ld", r.status);
    const cJSON *list = jget(r.json, "rulesets");
    CHECK(cJSON_GetArraySize(list) >= 1, "no rulesets");
    CHECK(strcmp(jstr(list, "0.name"), "classic") == 0 && jnum(list, "0.players.min") == 2 &&
              jnum(list, "0.players.max") == 5 &&
              jnum(list, "0.players.max_with_expansions") == 6 && jnum(list, "0.followers") == 7 &&
              jnum(list, "0.tiles.deck") == 72 && strcmp(jstr(list, "0.tiles.start"), "D") == 0,
          "classic: %.300s", r.body);
    resp_free(&r);
    http(srv, "GET", "/v1/rulesets/classic/tiles", NULL, NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "ruleset"), "classic") == 0, "tiles: %ld",
          r.status);
    const cJSON *tiles = jget(r.json, "tiles");
    int total = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, tiles)
    {
        total += (int)jnum(t, "count");
        CHECK(strlen(jstr(t, "edges.N")) && cJSON_GetArraySize(jget(t, "features")) > 0,
              "tile %s incomplete", jstr(t, "id"));
    }
    /* 72 land tiles, 12 of the River, 18 of Inns & Cathedrals, 24 of Traders & Builders. */
    CHECK(total == (int)jnum(r.json, "total") && total == 126, "total %d vs %g", total,
          jnum(r.json, "total"));
    /* openapi.yaml's example of this answer shows tiles A and D as they come, and its start. */
    static const char *const example[] = {
        "{\"id\":\"A\",\"count\":2,\"edges\":{\"N\":\"field\",\"E\":\"field\",\"S\":\"road\","
        "\"W\":\"field\"},\"features\":[{\"kind\":\"road\",\"locations\":[\"S\"],\"end\":"
        "\"monastery\"},{\"kind\":\"field\",\"locations\":[\"NW\",\"N\",\"NE\",\"EN\",\"E\","
        "\"ES\",\"SE\",\"SW\",\"WS\",\"W\",\"WN\"]},{\"kind\":\"monastery\",\"locations\":"
        "[\"C\"]}]}",
        "{\"id\":\"D\",\"count\":4,\"start\":true,\"edges\":{\"N\":\"city\",\"E\":\"road\","
        "\"S\":\"field\",\"W\":\"road\"},\"features\":[{\"kind\":\"city\",\"locations\":[\"NW\","
        "\"N\",\"NE\"]},{\"kind\":\"road\",\"locations\":[\"E\",\"W\"]},{\"kind\":\"field\","
        "\"locations\":[\"EN\",\"WN\"],\"cities\":[0]},{\"kind\":\"field\",\"locations\":[\"ES\","
        "\"SE\",\"S\",\"SW\",\"WS\"]}]}"};
    int shown = 0;
    cJSON_ArrayForEach(t, tiles)
    {
        for (size_t i = 0; i < sizeof example / sizeof example[0]; i++) {
            char head[16];
            snprintf(head, sizeof head, "{\"id\":\"%s\",", jstr(t, "id"));
            if (strncmp(example[i], head, strlen(head)) != 0) continue;
            char *got = cJSON_PrintUnformatted(t);
            CHECK(got && strcmp(got, example[i]) == 0, "tile %s: %s", jstr(t, "id"), got);
            free(got);
            shown++;
        }
    }
    CHECK(shown == 2 && strcmp(jstr(r.json, "start"), "D") == 0, "example: %d tiles, start %s",
          shown, jstr(r.json, "start"));
    resp_free(&r);
    http(srv, "GET", "/v1/rulesets/chess/tiles", NULL, NULL, &r);
    CHECK(r.status == 404 && strcmp(problem_code(&r), "not_found") == 0, "chess: %ld", r.status);
    resp_free(&r);
}

ITEST(test_create, "create a game")
{
    struct resp r;
    http(srv, "POST", "/v1/games",
         "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"},"
         "{\"name\":\"Ö Çay\"}],\"options\":{\"edition\":\"original\",\"river\":true},"
         "\"seed\":\"18446744073709551615\"}",
         NULL, &r);
    CHECK(r.status == 201, "create: %ld %s", r.status, r.body);
    char loc[128];
    snprintf(loc, sizeof loc, "/v1/games/%s", jstr(r.json, "id"));
    CHECK(strcmp(r.location, loc) == 0, "Location %s", r.location);
    CHECK(strcmp(r.etag, "\"1\"") == 0 && jnum(r.json, "version") == 1, "ETag %s", r.etag);
    CHECK(strcmp(jstr(r.json, "status"), "active") == 0 && jnum(r.json, "turn.seat") == 0 &&
              strcmp(jstr(r.json, "turn.phase"), "draw") == 0,
          "turn: %s", r.body);
    CHECK(strcmp(jstr(r.json, "options.edition"), "original") == 0 &&
              cJSON_IsTrue(jget(r.json, "options.river")),
          "options: %s", r.body);
    CHECK(strcmp(jstr(r.json, "board.0.tile"), "RA") == 0, "river start: %s",
          jstr(r.json, "board.0.tile"));
    CHECK(!jget(r.json, "seed") && !jget(r.json, "deck"), "seed or deck shown while running");
    const char *t0 = jstr(r.json, "players.0.token"), *t1 = jstr(r.json, "players.1.token");
    CHECK(strlen(t0) >= 40 && strlen(t1) >= 40 && strcmp(t0, t1) != 0, "tokens %s %s", t0, t1);
    CHECK(strcmp(jstr(r.json, "players.2.name"), "Ö Çay") == 0, "utf-8 name");
    struct game g = {0};
    snprintf(g.id, sizeof g.id, "%s", jstr(r.json, "id"));
    resp_free(&r);
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    http(srv, "GET", path, NULL, NULL, &r);
    CHECK(r.status == 200 && strcmp(r.etag, "\"1\"") == 0, "get: %ld %s", r.status, r.etag);
    CHECK(!strstr(r.body, "token") && !jget(r.json, "seed") && !jget(r.json, "deck"),
          "GET shows secrets: %s", r.body);
    CHECK(jnum(r.json, "deck_remaining") > 60, "deck_remaining %g", jnum(r.json, "deck_remaining"));
    resp_free(&r);
    /* The id in upper case is the same game, answered with the id as GameId spells it. */
    char upper[128];
    snprintf(upper, sizeof upper, "/v1/games/%s", g.id);
    for (char *c = upper + strlen("/v1/games/"); *c; c++) *c = (char)toupper((unsigned char)*c);
    http(srv, "GET", upper, NULL, NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "id"), g.id) == 0, "upper-case id: %ld %s",
          r.status, jstr(r.json, "id"));
    resp_free(&r);
    /* openapi.yaml has no HEAD: the server answers it 405 (a problem without its body). */
    http(srv, "HEAD", path, NULL, NULL, &r);
    CHECK(r.status == 405 && strcmp(r.allow, "GET") == 0 && r.len == 0 &&
              strcmp(r.ctype, "application/problem+json") == 0,
          "HEAD: %ld allow %s ctype %s", r.status, r.allow, r.ctype);
    resp_free(&r);
    /* Defaults: no ruleset given is classic; no seed draws one. */
    http(srv, "POST", "/v1/games", "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}", NULL, &r);
    CHECK(r.status == 201 && strcmp(jstr(r.json, "ruleset"), "classic") == 0 &&
              strcmp(jstr(r.json, "options.edition"), "standard") == 0,
          "defaults: %ld %s", r.status, r.body);
    resp_free(&r);
}

/* Expects POST /v1/games with `body` to be refused with `status` and `code`. */
#define EXPECT_CREATE(b_, st, code_)                                                               \
    do {                                                                                           \
        struct resp r_;                                                                            \
        http(srv, "POST", "/v1/games", b_, NULL, &r_);                                             \
        int ok_ = r_.status == (st) && strcmp(problem_code(&r_), code_) == 0 &&                    \
                  strcmp(r_.ctype, "application/problem+json") == 0;                               \
        char got_[256];                                                                            \
        snprintf(got_, sizeof got_, "%ld %.200s", r_.status, r_.body);                             \
        resp_free(&r_);                                                                            \
        CHECK(ok_, "%.200s -> %s", b_, got_);                                                      \
    } while (0)

#define TWO "\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]"

ITEST(test_create_errors, "create: every setup error")
{
    EXPECT_CREATE("{", 400, "invalid_json");
    EXPECT_CREATE("[]", 400, "invalid_json");
    EXPECT_CREATE("{} x", 400, "invalid_json");
    EXPECT_CREATE("", 400, "invalid_json");
    EXPECT_CREATE("{" TWO ",\"colour\":1}", 400, "unknown_field");
    EXPECT_CREATE("{" TWO ",\"ruleset\":\"classic\",\"ruleset\":\"hills\"}", 400, "invalid_body");
    EXPECT_CREATE("{\"players\":[{\"name\":\"A\",\"age\":3},{\"name\":\"B\"}]}", 400,
                  "unknown_field");
    EXPECT_CREATE("{\"players\":[{\"name\":\"A\"}]}", 400, "bad_player_count");
    EXPECT_CREATE("{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"},{\"name\":"
                  "\"D\"},{\"name\":\"E\"},{\"name\":\"F\"}]}",
                  400, "bad_player_count");
    EXPECT_CREATE("{\"players\":{}}", 400, "invalid_body");
    EXPECT_CREATE("{}", 400, "invalid_body");
    EXPECT_CREATE("{\"players\":[{\"name\":\"\"},{\"name\":\"B\"}]}", 400, "invalid_body");
    EXPECT_CREATE("{\"players\":[{\"name\":\"12345678901234567890123456789012345678901\"},{"
                  "\"name\":\"B\"}]}",
                  400, "invalid_body");
    EXPECT_CREATE("{\"players\":[{\"name\":7},{\"name\":\"B\"}]}", 400, "invalid_body");
    EXPECT_CREATE("{" TWO ",\"ruleset\":\"chess\"}", 400, "unknown_ruleset");
    EXPECT_CREATE("{" TWO ",\"ruleset\":5}", 400, "invalid_body");
    EXPECT_CREATE("{" TWO ",\"options\":{\"edition\":\"third\"}}", 400, "bad_option");
    EXPECT_CREATE("{" TWO ",\"options\":{\"river\":\"yes\"}}", 400, "bad_option");
    EXPECT_CREATE("{" TWO ",\"options\":{\"rivers\":true}}", 400, "unknown_field");
    EXPECT_CREATE("{" TWO ",\"options\":[]}", 400, "invalid_body");
    EXPECT_CREATE("{" TWO ",\"seed\":-1}", 400, "invalid_body");
    EXPECT_CREATE("{" TWO ",\"seed\":1.5}", 400, "invalid_body");
    EXPECT_CREATE("{" TWO ",\"seed\":\"18446744073709551616\"}", 400, "invalid_body");
    EXPECT_CREATE("{" TWO ",\"start\":\"ZZ\"}", 400, "unknown_tile");
    EXPECT_CREATE("{" TWO ",\"deck\":[\"A\",\"Q9\"]}", 400, "unknown_tile");
    EXPECT_CREATE("{" TWO ",\"deck\":[\"A\",3]}", 400, "invalid_body");
    EXPECT_CREATE("{" TWO ",\"deck\":\"A\"}", 400, "invalid_body");
    /* A river tile is in the catalogue, but only games with the River take it. */
    EXPECT_CREATE("{" TWO ",\"deck\":[\"RB\"]}", 400, "river_tile_without_river");
    EXPECT_CREATE("{" TWO ",\"start\":\"RB\"}", 400, "river_tile_without_river");
    EXPECT_CREATE("{\"ruleset\":\"hills\"," TWO ",\"deck\":[\"RB\"]}", 400, "unknown_tile");
    char big[2200];
    size_t o = (size_t)snprintf(big, sizeof big, "{" TWO ",\"deck\":[");
    for (int i = 0; i < 201; i++)
        o += (size_t)snprintf(big + o, sizeof big - o, "%s\"A\"", i ? "," : "");
    snprintf(big + o, sizeof big - o, "]}");
    EXPECT_CREATE(big, 400, "deck_too_long");
}

ITEST(test_body_limits, "413 and 415")
{
    size_t n = 70 * 1024;
    char *body = malloc(n + 64);
    CHECK(body, "oom");
    size_t o =
        (size_t)snprintf(body, n + 64, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"x\":\"");
    memset(body + o, 'a', n - o);
    snprintf(body + n, 64, "\"}");
    struct resp r;
    http(srv, "POST", "/v1/games", body, NULL, &r);
    free(body);
    CHECK(r.status == 413 && strcmp(problem_code(&r), "body_too_large") == 0, "413: %ld %.100s",
          r.status, r.body);
    resp_free(&r);
    const char *text[] = {"Content-Type: text/plain", NULL};
    http(srv, "POST", "/v1/games", "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}", text, &r);
    CHECK(r.status == 415 && strcmp(problem_code(&r), "unsupported_media_type") == 0, "415: %ld %s",
          r.status, r.body);
    resp_free(&r);
    const char *charset[] = {"Content-Type: application/json; charset=utf-8", NULL};
    http(srv, "POST", "/v1/games", "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}", charset,
         &r);
    CHECK(r.status == 201, "charset: %ld %s", r.status, r.body);
    resp_free(&r);
}
