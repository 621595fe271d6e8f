/* t_players.c: players as people (issue 11, step 1): POST /v1/players, GET /v1/players/me
 * and POST /v1/players/me/token; every refusal with its code and nothing stored; the
 * idempotent repeat with the token (sealed, issue 11 item 7); replacements racing with one token on
 * two servers (exactly one wins); the creation limit counting players with games. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

/* A player created for a test. */
struct player {
    char id[64];     /* its id */
    char name[200];  /* its name as answered */
    char token[128]; /* its token */
    char auth[160];  /* "Authorization: Bearer <token>" */
};

/* Creates a player from `body` on `srv`; 0, or -1 with `why`. */
static int player_new(const struct server *srv, const char *body, struct player *p, char *why,
                      size_t cap)
{
    struct resp r;
    http(srv, "POST", "/v1/players", body, NULL, &r);
    memset(p, 0, sizeof *p);
    int rc = -1;
    if (r.status != 201 || !r.json) {
        snprintf(why, cap, "POST /v1/players %s answered %ld: %.200s", body, r.status, r.body);
        goto out;
    }
    snprintf(p->id, sizeof p->id, "%s", jstr(r.json, "id"));
    snprintf(p->name, sizeof p->name, "%s", jstr(r.json, "name"));
    snprintf(p->token, sizeof p->token, "%s", jstr(r.json, "token"));
    snprintf(p->auth, sizeof p->auth, "Authorization: Bearer %s", p->token);
    rc = 0;
out:
    resp_free(&r);
    return rc;
}

/* GET /v1/players/me with header line `auth` (or none): the status, the problem code or
 * the id into `out` (`cap` bytes). */
static long me(const struct server *srv, const char *auth, char *out, size_t cap)
{
    const char *h[] = {auth, NULL};
    struct resp r;
    http(srv, "GET", "/v1/players/me", NULL, auth ? h : NULL, &r);
    long st = r.status;
    snprintf(out, cap, "%s", st == 200 ? jstr(r.json, "id") : problem_code(&r));
    resp_free(&r);
    return st;
}

static long people_count(void)
{
    return db_scalar("SELECT count(*) FROM people");
}

ITEST(test_players, "players: create, me, token replacement (the old token refused at once)")
{
    char why[300], got[128];
    struct resp r;
    http(srv, "POST", "/v1/players", "{\"name\":\"Ann\"}", NULL, &r);
    long st = r.status;
    char id[64], token[128], loc[128], ctype[64], cache[64];
    snprintf(id, sizeof id, "%s", jstr(r.json, "id"));
    snprintf(token, sizeof token, "%s", jstr(r.json, "token"));
    snprintf(loc, sizeof loc, "%s", r.location);
    snprintf(ctype, sizeof ctype, "%s", r.ctype);
    snprintf(cache, sizeof cache, "%s", r.cache);
    int name_ok = strcmp(jstr(r.json, "name"), "Ann") == 0;
    int members = r.json ? cJSON_GetArraySize(r.json) : 0;
    resp_free(&r);
    CHECK(st == 201, "POST /v1/players: %ld", st);
    CHECK(strlen(id) == 36 && id[14] == '4', "id %s", id);
    CHECK(name_ok && members == 3, "the answer is not {id, name, token}");
    CHECK(token_shape(token), "token %s is not 43 characters of base64url", token);
    CHECK(strcmp(loc, "/v1/players/me") == 0, "Location %s", loc);
    CHECK(strncmp(ctype, "application/json", 16) == 0, "Content-Type %s", ctype);
    CHECK(strcmp(cache, "no-store") == 0, "Cache-Control %s", cache);
    /* Stored once, with the SHA-256 of the token only. */
    const char *v2[] = {id, token};
    CHECK(db_scalar_params("SELECT count(*) FROM people WHERE id = $1::uuid AND name = 'Ann' AND "
                           "token_hash = sha256(convert_to($2, 'UTF8'))",
                           2, v2) == 1,
          "the stored row is not the player with its token's hash");

    char auth[160];
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
    const char *h[] = {auth, NULL};
    http(srv, "GET", "/v1/players/me", NULL, h, &r);
    st = r.status;
    int me_ok = r.json && cJSON_GetArraySize(r.json) == 2 && strcmp(jstr(r.json, "id"), id) == 0 &&
                strcmp(jstr(r.json, "name"), "Ann") == 0;
    resp_free(&r);
    CHECK(st == 200 && me_ok, "GET /v1/players/me: %ld, not {id, name} of the player", st);
    /* The bearer scheme in any case, as for seat tokens. */
    char lower[170];
    snprintf(lower, sizeof lower, "Authorization: bearer %s", token);
    CHECK(me(srv, lower, got, sizeof got) == 200, "lower-case bearer: %s", got);

    /* Names as the seats have them: 40 characters (here 160 bytes of UTF-8), emoji, accents. */
    char forty[220];
    size_t o = (size_t)snprintf(forty, sizeof forty, "{\"name\":\"");
    for (int i = 0; i < 40; i++, o += 4) memcpy(forty + o, "\xf0\x9f\x8e\xb2", 4); /* U+1F3B2 */
    snprintf(forty + o, sizeof forty - o, "\"}");
    struct player big, zoe;
    CHECK(player_new(srv, forty, &big, why, sizeof why) == 0, "%s", why);
    CHECK(strlen(big.name) == 160, "the 40-character name came back as %zu bytes",
          strlen(big.name));
    CHECK(player_new(srv, "{\"name\":\"Zo\\u00eb der Gro\xc3\x9f\x65\"}", &zoe, why, sizeof why) ==
              0,
          "%s", why);
    CHECK(strcmp(zoe.name, "Zo\xc3\xab der Gro\xc3\x9f\x65") == 0, "name %s", zoe.name);

    /* Token replacement: a new token, the old one refused at once, the id kept. */
    http(srv, "POST", "/v1/players/me/token", NULL, h, &r);
    st = r.status;
    char fresh[128];
    snprintf(fresh, sizeof fresh, "%s", jstr(r.json, "token"));
    int same_id = strcmp(jstr(r.json, "id"), id) == 0 && strcmp(jstr(r.json, "name"), "Ann") == 0;
    resp_free(&r);
    CHECK(st == 200 && same_id, "POST /v1/players/me/token: %ld", st);
    CHECK(token_shape(fresh) && strcmp(fresh, token) != 0, "new token %s", fresh);
    CHECK(me(srv, auth, got, sizeof got) == 401 && strcmp(got, "unknown_token") == 0,
          "the old token still answers (%s)", got);
    char auth2[160];
    snprintf(auth2, sizeof auth2, "Authorization: Bearer %s", fresh);
    CHECK(me(srv, auth2, got, sizeof got) == 200 && strcmp(got, id) == 0, "the new token: %s", got);
    const char *v3[] = {id, fresh, token};
    CHECK(db_scalar_params("SELECT count(*) FROM people WHERE id = $1::uuid AND token_hash = "
                           "sha256(convert_to($2, 'UTF8')) AND token_hash <> "
                           "sha256(convert_to($3, 'UTF8')) AND token_replaced = 1",
                           3, v3) == 1,
          "the stored hash is not the new token's");
    /* The body may be {} too; the old token of that replacement is refused as well. */
    const char *h2[] = {auth2, NULL};
    http(srv, "POST", "/v1/players/me/token", "{}", h2, &r);
    st = r.status;
    char third[128];
    snprintf(third, sizeof third, "%s", jstr(r.json, "token"));
    resp_free(&r);
    CHECK(st == 200 && token_shape(third), "replacement with {}: %ld", st);
    CHECK(me(srv, auth2, got, sizeof got) == 401, "the second token still answers");
    http(srv, "POST", "/v1/players/me/token", NULL, h2, &r);
    st = resp_done(&r, got, sizeof got);
    CHECK(st == 401 && strcmp(got, "unknown_token") == 0, "replacing with an old token: %ld %s", st,
          got);

    /* 401: no token, another scheme, a forged token, a seat's token (not a player's). */
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}");
    static const char *const missing[] = {NULL, "Authorization: Basic QW5uOnB3",
                                          "Authorization: "
                                          "Bearer "};
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        const char *hm[] = {missing[i], NULL};
        http(srv, "GET", "/v1/players/me", NULL, missing[i] ? hm : NULL, &r);
        st = r.status;
        snprintf(got, sizeof got, "%s", problem_code(&r));
        int bearer = strncmp(r.www_auth, "Bearer", 6) == 0;
        resp_free(&r);
        CHECK(st == 401 && strcmp(got, "missing_token") == 0 && bearer,
              "GET /v1/players/me with %s: %ld %s", missing[i] ? missing[i] : "nothing", st, got);
        http(srv, "POST", "/v1/players/me/token", NULL, missing[i] ? hm : NULL, &r);
        st = resp_done(&r, got, sizeof got);
        CHECK(st == 401 && strcmp(got, "missing_token") == 0, "token replacement with %s: %ld %s",
              missing[i] ? missing[i] : "nothing", st, got);
    }
    const char *unknown[] = {
        "Authorization: Bearer Zm9yZ2VkLXRva2VuLXRoYXQtaXMtbm90LWEtcmVhbC1vbmU", g.auth[0],
        "Authorization: Bearer x"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        CHECK(me(srv, unknown[i], got, sizeof got) == 401 && strcmp(got, "unknown_token") == 0,
              "GET /v1/players/me with %s: %s", unknown[i], got);
    }
    /* A player's token is no seat's: it acts on no game where no seat is bound to the
     * player (seats bound to a player: t_seatme.c). */
    char draw[160];
    snprintf(draw, sizeof draw, "/v1/games/%s/draw", g.id);
    char auth3[160];
    snprintf(auth3, sizeof auth3, "Authorization: Bearer %s", third);
    const char *h3[] = {auth3, NULL};
    http(srv, "POST", draw, NULL, h3, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 401, "a player token drew a tile for a seat: %ld", st);
}

/* One refused request: its status and code, and whether a player may have been stored. */
struct refusal {
    const char *method;
    const char *path;
    const char *body;   /* NULL: none */
    const char *header; /* an extra header line, or NULL; "AUTH" for the player's token */
    long status;
    const char *code;
};

ITEST(test_players_refusals, "players: every refusal with its code, nothing stored")
{
    char why[300];
    struct player p;
    CHECK(player_new(srv, "{\"name\":\"Ref\"}", &p, why, sizeof why) == 0, "%s", why);
    static const struct refusal cases[] = {
        {"POST", "/v1/players", "", NULL, 400, "invalid_json"},
        {"POST", "/v1/players", "[]", NULL, 400, "invalid_json"},
        {"POST", "/v1/players", "\"Ann\"", NULL, 400, "invalid_json"},
        {"POST", "/v1/players", "{\"name\":\"Ann\"", NULL, 400, "invalid_json"},
        {"POST", "/v1/players", "{\"name\":\"Ann\"} x", NULL, 400, "invalid_json"},
        {"POST", "/v1/players", "{\"name\":\"A\xff\"}", NULL, 400, "invalid_json"},
        {"POST", "/v1/players", "{\"name\":\"A\\u0000\"}", NULL, 400, "invalid_json"},
        {"POST", "/v1/players", "{\"name\":\"\\ud800\"}", NULL, 400, "invalid_json"},
        {"POST", "/v1/players", "{}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":null}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":7}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":[\"Ann\"]}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"\"}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"12345678901234567890123456789012345678901\"}", NULL,
         400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"Ann\\u0007\"}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"A\\u200bnn\"}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"\\u202eAnn\"}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"Ann\\u2066\"}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"\xef\xbb\xbf\x41nn\"}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"Ann\\udb40\\udc41\"}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"Ann\",\"name\":\"Bob\"}", NULL, 400, "invalid_body"},
        {"POST", "/v1/players", "{\"name\":\"Ann\",\"token\":\"x\"}", NULL, 400, "unknown_field"},
        {"POST", "/v1/players", "{\"Name\":\"Ann\"}", NULL, 400, "unknown_field"},
        {"POST", "/v1/players", "{\"name\":\"Ann\"}",
         "Idempotency-Key: 12345678901234567890123456789012345678901234567890123456789012345", 400,
         "invalid_parameter"},
        {"POST", "/v1/players", "{\"name\":\"Ann\"}", "Content-Type: text/plain", 415,
         "unsupported_media_type"},
        {"POST", "/v1/players", "name=Ann", "Content-Type: application/x-www-form-urlencoded", 415,
         "unsupported_media_type"},
        {"GET", "/v1/players", NULL, NULL, 405, "method_not_allowed"},
        {"DELETE", "/v1/players/me", NULL, "AUTH", 405, "method_not_allowed"},
        {"POST", "/v1/players/me", "{}", "AUTH", 405, "method_not_allowed"},
        {"GET", "/v1/players/me/token", NULL, "AUTH", 405, "method_not_allowed"},
        {"GET", "/v1/players/you", NULL, "AUTH", 404, "not_found"},
        {"GET", "/v1/players/me/", NULL, "AUTH", 404, "not_found"},
        /* Token replacement: a body other than nothing or {}, an Idempotency-Key, 415. */
        {"POST", "/v1/players/me/token", "{\"token\":\"x\"}", "AUTH", 400, "unknown_field"},
        {"POST", "/v1/players/me/token", "[]", "AUTH", 400, "invalid_json"},
        {"POST", "/v1/players/me/token", "x", "AUTH", 400, "invalid_json"},
        {"POST", "/v1/players/me/token", NULL, "Idempotency-Key: replace-1", 400,
         "invalid_parameter"},
        {"POST", "/v1/players/me/token", "{}", "Content-Type: text/plain", 415,
         "unsupported_media_type"},
    };
    long before = people_count();
    const char *v1[] = {p.id};
    const char *gen_sql = "SELECT token_replaced FROM people WHERE id = $1::uuid";
    long gen = db_scalar_params(gen_sql, 1, v1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct refusal *c = &cases[i];
        const char *h[3] = {NULL, NULL, NULL};
        int n = 0;
        int needs_auth = strncmp(c->path, "/v1/players/me", 14) == 0;
        if (needs_auth) h[n++] = p.auth;
        if (c->header && strcmp(c->header, "AUTH") != 0) h[n++] = c->header;
        struct resp r;
        http(srv, c->method, c->path, c->body, h, &r);
        long st = r.status;
        char code[64];
        snprintf(code, sizeof code, "%s", problem_code(&r));
        int problem = strcmp(r.ctype, "application/problem+json") == 0;
        resp_free(&r);
        CHECK(st == c->status && strcmp(code, c->code) == 0 && problem,
              "%s %s %s (%s): %ld %s, not %ld %s", c->method, c->path, c->body ? c->body : "",
              c->header ? c->header : "", st, code, c->status, c->code);
        CHECK(people_count() == before, "%s %s %s stored a player", c->method, c->path,
              c->body ? c->body : "");
        CHECK(db_scalar_params(gen_sql, 1, v1) == gen, "%s %s %s replaced the token", c->method,
              c->path, c->body ? c->body : "");
    }
    /* 413 for a body over 64 KiB, nothing stored. */
    size_t big = 70 * 1024;
    char *body = malloc(big + 32);
    CHECK(body, "oom");
    memcpy(body, "{\"name\":\"", 9);
    memset(body + 9, 'a', big - 9);
    memcpy(body + big, "\"}", 3);
    struct resp r;
    http(srv, "POST", "/v1/players", body, NULL, &r);
    free(body);
    char code[64];
    long st = resp_done(&r, code, sizeof code);
    CHECK(st == 413 && strcmp(code, "body_too_large") == 0, "a 70 KiB body: %ld %s", st, code);
    CHECK(people_count() == before, "the 70 KiB body stored a player");
    /* The player's token still works after every refusal. */
    char got[64];
    CHECK(me(srv, p.auth, got, sizeof got) == 200, "the token stopped working: %s", got);
}

ITEST(test_players_idempotency,
      "players: Idempotency-Key repeats with the token, concurrent on two servers")
{
    const char *key = "Idempotency-Key: 6b1f0c9e-players-idem-first-7e2d49a1c0b3";
    const char *h[] = {key, NULL};
    long before = people_count();
    struct resp r;
    http(srv, "POST", "/v1/players", "{\"name\":\"Ida\"}", h, &r);
    long st = r.status;
    char id[64], token[128];
    snprintf(id, sizeof id, "%s", jstr(r.json, "id"));
    snprintf(token, sizeof token, "%s", jstr(r.json, "token"));
    resp_free(&r);
    CHECK(st == 201 && token_shape(token), "the first creation: %ld", st);
    /* The repeat: the first answer again, token included; nobody new. */
    http(srv, "POST", "/v1/players", "{\"name\":\"Ida\"}", h, &r);
    st = r.status;
    int same =
        r.json && strcmp(jstr(r.json, "id"), id) == 0 && strcmp(jstr(r.json, "name"), "Ida") == 0 &&
        strcmp(jstr(r.json, "token"), token) == 0 && strcmp(r.location, "/v1/players/me") == 0;
    resp_free(&r);
    CHECK(st == 201 && same, "the repeat: %ld, not the first answer with its token", st);
    CHECK(people_count() == before + 1, "%ld players stored, not 1", people_count() - before);
    /* The same key with another body: 409, nothing stored. */
    http(srv, "POST", "/v1/players", "{\"name\":\"Other\"}", h, &r);
    char code[64];
    st = resp_done(&r, code, sizeof code);
    CHECK(st == 409 && strcmp(code, "idempotency_key_reused") == 0, "another body: %ld %s", st,
          code);
    CHECK(people_count() == before + 1, "the 409 stored a player");
    /* Keys of players and of games are apart: the same key creates a game. */
    http(srv, "POST", "/v1/games", "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}", h, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 201, "the players' key on POST /v1/games: %ld", st);
    /* The first token works; the answer remembered holds no token. */
    char auth[160], got[64];
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
    CHECK(me(srv, auth, got, sizeof got) == 200 && strcmp(got, id) == 0, "the token: %s", got);
    const char *v1[] = {token};
    CHECK(db_scalar_params("SELECT count(*) FROM idempotency WHERE strpos(body, $1) > 0 OR "
                           "position(convert_to($1, 'UTF8') in sealed) > 0",
                           1, v1) == 0,
          "the token is readable in the remembered answer");

    /* 12 concurrent creations with one new key, on two servers: one player, one answer. */
    struct server two;
    CHECK(hard_server_start(&two, NULL, 0) == 0, "the second server did not start");
    enum { N = 12 };
    struct hard_racer a[N];
    memset(a, 0, sizeof a);
    before = people_count();
    for (int i = 0; i < N; i++) {
        a[i].srv = i % 2 ? &two : srv;
        a[i].via = VIA_DIRECT;
        snprintf(a[i].path, sizeof a[i].path, "/v1/players");
        a[i].body = "{\"name\":\"Twelve\"}";
        a[i].h[0] = "Idempotency-Key: 0d2c4f6a-players-idem-race-5b8e31f7c2d9";
        a[i].h[1] = "Content-Type: application/json";
    }
    hard_together(a, N);
    int with_token = 0, ok = 1;
    char first_id[64] = "", first_token[128] = "";
    for (int i = 0; i < N; i++) {
        if (a[i].r.status != 201 || !a[i].r.json) {
            snprintf(got, sizeof got, "%ld", a[i].r.status);
            ok = 0;
            continue;
        }
        with_token += token_shape(jstr(a[i].r.json, "token"));
        if (!first_id[0]) {
            snprintf(first_id, sizeof first_id, "%s", jstr(a[i].r.json, "id"));
            snprintf(first_token, sizeof first_token, "%s", jstr(a[i].r.json, "token"));
        }
        if (strcmp(jstr(a[i].r.json, "id"), first_id) != 0 ||
            strcmp(jstr(a[i].r.json, "token"), first_token) != 0)
            ok = 0;
    }
    for (int i = 0; i < N; i++) resp_free(&a[i].r);
    long made = people_count() - before;
    int code2 = hard_server_stop(&two);
    printf("  %d concurrent creations with one key on two servers: %ld player stored, %d answer "
           "with the token\n",
           N, made, with_token);
    CHECK(ok, "a concurrent repeat got another answer (%s)", got);
    CHECK(made == 1 && with_token == N, "%ld players stored, %d answers with the token", made,
          with_token);
    CHECK(code2 == 0, "the second server exited with %d", code2);
}

/* Replacements racing with one token, half on each of two servers: exactly one 200, the
 * others 401 unknown_token; only the winner's token works afterwards. */
ITEST(test_players_token_race,
      "players: token replacements racing on two servers, exactly one wins")
{
    enum { ROUNDS = 15, N = 6 };
    struct server two;
    CHECK(hard_server_start(&two, NULL, 0) == 0, "the second server did not start");
    char why[300] = "";
    int wins_total = 0, losses_total = 0;
    for (int round = 0; round < ROUNDS && !why[0]; round++) {
        struct player p;
        if (player_new(srv, "{\"name\":\"Racer\"}", &p, why, sizeof why)) break;
        struct hard_racer a[N];
        memset(a, 0, sizeof a);
        for (int i = 0; i < N; i++) {
            a[i].srv = i % 2 ? &two : srv;
            a[i].via = VIA_DIRECT;
            snprintf(a[i].path, sizeof a[i].path, "/v1/players/me/token");
            a[i].h[0] = p.auth;
        }
        hard_together(a, N);
        int wins = 0, bad = 0;
        char winner[160] = "";
        for (int i = 0; i < N; i++) {
            if (a[i].r.status == 200 && token_shape(jstr(a[i].r.json, "token"))) {
                wins++;
                snprintf(winner, sizeof winner, "Authorization: Bearer %s",
                         jstr(a[i].r.json, "token"));
            } else if (a[i].r.status != 401 || strcmp(problem_code(&a[i].r), "unknown_token")) {
                bad++;
                snprintf(why, sizeof why, "round %d: a replacement answered %ld %.100s", round,
                         a[i].r.status, a[i].r.body);
            }
        }
        for (int i = 0; i < N; i++) resp_free(&a[i].r);
        wins_total += wins;
        losses_total += N - wins - bad;
        if (bad) break;
        if (wins != 1) {
            snprintf(why, sizeof why, "round %d: %d replacements won", round, wins);
            break;
        }
        char got[64];
        if (me(srv, p.auth, got, sizeof got) != 401 || me(&two, winner, got, sizeof got) != 200 ||
            db_scalar_id("SELECT token_replaced FROM people WHERE id = $1::uuid", p.id) != 1)
            snprintf(why, sizeof why,
                     "round %d: after the race the old token works, the "
                     "winner's does not, or the token was replaced twice",
                     round);
    }
    printf("  %d rounds of %d replacements racing with one token on two servers: %d won, %d "
           "answered 401\n",
           ROUNDS, N, wins_total, losses_total);
    int code = hard_server_stop(&two);
    CHECK(!why[0], "%s", why);
    CHECK(wins_total == ROUNDS, "%d wins in %d rounds", wins_total, ROUNDS);
    CHECK(code == 0, "the second server exited with %d", code);
}

/* The creation limit counts players with games: a server of its own with a burst of 4. */
ITEST(test_players_create_limit, "players: the creation limit counts players with games")
{
    HARD_SERVER(z, 1, "CREATE_LIMIT_PER_MINUTE=6", "CREATE_BURST=4");
    char why[300] = "";
    struct game g;
    struct player p[3];
    int made =
        game_new(&z, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}", &g, why, sizeof why) == 0;
    for (int i = 0; i < 3 && made == i + 1; i++)
        made += player_new(&z, "{\"name\":\"Lim\"}", &p[i], why, sizeof why) == 0;
    /* The burst is spent: a player and a game are refused alike, through the spec proxy. */
    struct resp r;
    http(&z, "POST", "/v1/players", "{\"name\":\"Lim\"}", NULL, &r);
    long player_st = r.status, retry = strtol(r.retry_after, NULL, 10);
    char code[64];
    snprintf(code, sizeof code, "%s", problem_code(&r));
    resp_free(&r);
    http(&z, "POST", "/v1/games", "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}", NULL, &r);
    long game_st = r.status;
    resp_free(&r);
    /* Reading oneself and replacing one's token are no creations. */
    char got[64];
    long me_st = made == 4 ? me(&z, p[0].auth, got, sizeof got) : 0;
    const char *h[] = {made == 4 ? p[1].auth : NULL, NULL};
    http(&z, "POST", "/v1/players/me/token", NULL, h, &r);
    long token_st = r.status;
    resp_free(&r);
    int exit_code = hard_server_stop(&z);
    CHECK(made == 4, "%d of a game and 3 players created within the burst: %s", made, why);
    CHECK(player_st == 429 && strcmp(code, "rate_limited") == 0 && retry >= 1,
          "a player past the burst: %ld %s, Retry-After %ld", player_st, code, retry);
    CHECK(game_st == 429, "a game past the burst: %ld", game_st);
    CHECK(me_st == 200 && token_st == 200, "GET me %ld, token replacement %ld under the limit",
          me_st, token_st);
    CHECK(exit_code == 0, "the server exited with %d", exit_code);
}
