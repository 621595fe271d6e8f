/* t_seatme.c: seats bound to a player (issue 11, steps 2 and 3): a game created with
 * {"player": "me"} and a named seat, the "me" seat played to the end with the player token
 * and the other with its seat token; the player token refused on another seat (403) and
 * on another game (401), a replaced player token refused at once; every refusal of the
 * create request with its code and nothing stored; Idempotency-Key scoped per player. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "tests.h"

/* A short game: the start tile and eight tiles. */
#define SEATME_DECK "\"start\":\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]"

/* Declares `ann` and `bob` (struct person), two new players Ann and Bob, for the test whose
 * server is `srv`, or fails the test. */
#define ANN_AND_BOB(ann, bob, why)                                                                 \
    struct person ann, bob;                                                                        \
    do {                                                                                           \
        CHECK(person_new(srv, "Ann", &ann, why, sizeof why) == 0, "%s", why);                      \
        CHECK(person_new(srv, "Bob", &bob, why, sizeof why) == 0, "%s", why);                      \
    } while (0)

/*
 * POST /v1/games `body` with header lines `h1`, `h2` (either may be NULL) into `g` (the
 * seat tokens it answered; seats without one keep an empty auth). The status; `code` gets
 * the problem code of a refusal (`cap` bytes).
 */
static long create(const struct server *srv, const char *body, const char *h1, const char *h2,
                   struct game *g, char *code, size_t cap)
{
    const char *h[3] = {h1, h2, NULL};
    if (!h1) h[0] = h2, h[1] = NULL;
    struct resp r;
    http(srv, "POST", "/v1/games", body, h, &r);
    memset(g, 0, sizeof *g);
    long st = r.status;
    snprintf(code, cap, "%s", st == 201 ? "" : problem_code(&r));
    if (st == 201) {
        snprintf(g->id, sizeof g->id, "%s", jstr(r.json, "id"));
        const cJSON *players = jget(r.json, "players");
        g->nplayers = cJSON_GetArraySize(players);
        for (int s = 0; s < g->nplayers && s < 5; s++) {
            const char *tok = jstr(cJSON_GetArrayItem(players, s), "token");
            snprintf(g->token[s], sizeof g->token[s], "%s", tok);
            if (tok[0]) snprintf(g->auth[s], sizeof g->auth[s], "Authorization: Bearer %s", tok);
        }
    }
    resp_free(&r);
    return st;
}

/* POSTs /v1/games/{id}/draw with header line `auth`: the status, the code into `code`. */
static long draw(const struct server *srv, const struct game *g, const char *auth, char *code,
                 size_t cap)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g->id);
    const char *h[] = {auth, NULL};
    struct resp r;
    http(srv, "POST", path, NULL, h, &r);
    return resp_done(&r, code, cap); /* only a problem has a code */
}

ITEST(test_seatme_play,
      "seatme: a \"me\" seat played by the player token to the end; not another seat or game")
{
    char why[300], code[64];
    ANN_AND_BOB(ann, bob, why);
    struct game g;
    long st = create(srv, "{\"players\":[{\"player\":\"me\"},{\"name\":\"Cy\"}]," SEATME_DECK "}",
                     ann.auth, NULL, &g, code, sizeof code);
    CHECK(st == 201, "create with a \"me\" seat: %ld %s", st, code);
    CHECK(g.nplayers == 2 && g.token[0][0] == '\0' && token_shape(g.token[1]),
          "the answer's tokens: seat 0 \"%s\", seat 1 \"%s\"", g.token[0], g.token[1]);
    cJSON *j = game_get(srv, &g);
    int names_ok = j && strcmp(jstr(j, "players.0.name"), "Ann") == 0 &&
                   strcmp(jstr(j, "players.1.name"), "Cy") == 0;
    cJSON_Delete(j);
    CHECK(names_ok, "the \"me\" seat is not named after its player");
    cJSON *ev = game_events(srv, g.id);
    int created_ok = ev && strcmp(jstr(ev, "0.type"), "game_created") == 0 &&
                     strcmp(jstr(ev, "0.players.0.name"), "Ann") == 0;
    cJSON_Delete(ev);
    CHECK(created_ok, "game_created does not name seat 0 Ann");
    const char *v[] = {g.id, ann.id};
    CHECK(db_scalar_params("SELECT count(*) FROM players WHERE game_id = $1::uuid AND "
                           "((seat = 0 AND person_id = $2::uuid) OR (seat = 1 AND person_id IS "
                           "NULL))",
                           2, v) == 2,
          "the seats as stored are not seat 0 bound to Ann, seat 1 to nobody");

    /* Another seat: on Cy's turn Ann's token is 403 not_your_turn, as Ann's seat token
     * would be; another player's token and a token of nobody are 401 unknown_token. */
    snprintf(g.auth[0], sizeof g.auth[0], "%s", ann.auth);
    CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "Ann's turn by her player token: %s", why);
    int version = game_version(srv, &g);
    CHECK(draw(srv, &g, ann.auth, code, sizeof code) == 403 && strcmp(code, "not_your_turn") == 0,
          "Ann drew on Cy's turn: %s", code);
    CHECK(draw(srv, &g, bob.auth, code, sizeof code) == 401 && strcmp(code, "unknown_token") == 0,
          "Bob (no seat here) drew: %s", code);
    CHECK(game_version(srv, &g) == version, "a refused draw changed the game");

    /* The seat's webhook is the player token's too: set and read with it. */
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/webhook", g.id);
    const char *ha[] = {ann.auth, NULL};
    struct resp r;
    http(srv, "POST", path, "{\"url\":\"http://127.0.9.9:9/seatme\"}", ha, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 200 || st == 201, "POST webhook with the player token: %ld", st);
    http(srv, "GET", path, NULL, ha, &r);
    st = r.status;
    int url_ok = strcmp(jstr(r.json, "url"), "http://127.0.9.9:9/seatme") == 0;
    resp_free(&r);
    CHECK(st == 200 && url_ok, "GET webhook with the player token: %ld", st);
    const char *hc[] = {g.auth[1], NULL};
    http(srv, "GET", path, NULL, hc, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 404, "Cy's seat token read Ann's webhook: %ld", st);
    CHECK(db_seat_webhooks(g.id, 0) == 1, "the webhook is not stored once, as seat 0's");
    http(srv, "DELETE", path, NULL, ha, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 204, "DELETE webhook with the player token: %ld", st);

    /* To the end: Ann by her player token, Cy by the seat token. */
    int turns = 1, done = 0;
    while (!done && turns < 40) {
        done = play_turn(srv, &g, 1, why, sizeof why);
        CHECK(done >= 0, "turn %d: %s", turns + 1, why);
        turns++;
    }
    j = game_get(srv, &g);
    int finished = j && strcmp(jstr(j, "status"), "finished") == 0;
    cJSON_Delete(j);
    CHECK(finished, "the game did not finish in %d turns", turns);
    CHECK(db_replay_check(g.id, why, sizeof why) == 0, "%s", why);
    CHECK(db_scalar_id("SELECT count(DISTINCT seat) FROM actions WHERE game_id = $1::uuid", g.id) ==
              2,
          "not both seats acted");

    /* A replaced player token stops acting at once; the new one acts for the seat. */
    struct game g2;
    st = create(srv, "{\"players\":[{\"name\":\"Dee\"},{\"player\":\"me\"}]," SEATME_DECK "}",
                bob.auth, NULL, &g2, code, sizeof code);
    CHECK(st == 201 && g2.token[1][0] == '\0', "create with \"me\" at seat 1: %ld %s", st, code);
    CHECK(draw(srv, &g2, bob.auth, code, sizeof code) == 403 && strcmp(code, "not_your_turn") == 0,
          "Bob drew on seat 0's turn: %s", code);
    CHECK(draw(srv, &g2, ann.auth, code, sizeof code) == 401 && strcmp(code, "unknown_token") == 0,
          "Ann drew on a game she has no seat in: %s", code);
    CHECK(draw(srv, &g, g2.auth[0], code, sizeof code) == 401, "a seat token of g2 acted on g");
    CHECK(play_turn(srv, &g2, 0, why, sizeof why) == 0, "Dee's turn: %s", why);
    const char *hb[] = {bob.auth, NULL};
    http(srv, "POST", "/v1/players/me/token", NULL, hb, &r);
    st = r.status;
    char fresh[160];
    snprintf(fresh, sizeof fresh, "Authorization: Bearer %s", jstr(r.json, "token"));
    resp_free(&r);
    CHECK(st == 200, "token replacement: %ld", st);
    CHECK(draw(srv, &g2, bob.auth, code, sizeof code) == 401 && strcmp(code, "unknown_token") == 0,
          "the replaced token drew: %s", code);
    CHECK(draw(srv, &g2, fresh, code, sizeof code) == 200, "the new token could not draw: %s",
          code);
}

/* One create request refused: its status and code. */
struct refused_create {
    const char *body; /* the request body */
    int auth;         /* 0 none, 1 Ann's player token, 2 a forged one, 3 a seat's token */
    long status;      /* the answer's status */
    const char *code; /* and code */
};

ITEST(test_seatme_refusals,
      "seatme: every refusal of a create with seats, its code, nothing stored")
{
    char why[300], code[64];
    ANN_AND_BOB(ann, bob, why);
    struct game named;
    NEW_GAME(&named, "{\"players\":[{\"name\":\"Eve\"},{\"name\":\"Fay\"}]," SEATME_DECK "}");
    char other[300];
    snprintf(other, sizeof other, "{\"players\":[{\"player\":\"%s\"},{\"name\":\"Cy\"}]}", bob.id);
    const struct refused_create cases[] = {
        {"{\"players\":[{\"player\":\"me\"},{\"name\":\"Cy\"}]}", 0, 401, "missing_token"},
        {"{\"players\":[{\"player\":\"me\"},{\"name\":\"Cy\"}]}", 2, 401, "unknown_token"},
        {"{\"players\":[{\"player\":\"me\"},{\"name\":\"Cy\"}]}", 3, 401, "unknown_token"},
        {other, 1, 400, "invalid_body"},
        {"{\"players\":[{\"player\":\"you\"},{\"name\":\"Cy\"}]}", 1, 400, "invalid_body"},
        {"{\"players\":[{\"player\":\"me\",\"name\":\"Al\"},{\"name\":\"Cy\"}]}", 1, 400,
         "invalid_body"},
        {"{\"players\":[{\"player\":\"me\"},{\"player\":\"me\"}]}", 1, 400, "invalid_body"},
        /* Computer players exist now (t_bots.c): their refusals have codes of their own. */
        {"{\"players\":[{\"player\":\"me\"},{\"bot\":\"random\",\"think_ms\":5}]}", 1, 400,
         "invalid_think_ms"},
        {"{\"players\":[{\"name\":\"Al\"},{\"bot\":\"smart\"}]}", 0, 400, "unknown_bot_level"},
        {"{\"players\":[{\"player\":\"me\",\"open\":true},{\"name\":\"Cy\"}]}", 1, 400,
         "invalid_body"},
    };
    char seat_auth[200];
    snprintf(seat_auth, sizeof seat_auth, "%s", named.auth[0]);
    const char *auths[] = {NULL, ann.auth,
                           "Authorization: Bearer Zm9yZ2VkLXRva2VuLXRoYXQtaXMtbm90LWEtcmVhbC1vbmU",
                           seat_auth};
    long games0 = db_scalar("SELECT count(*) FROM games");
    long seats0 = db_scalar("SELECT count(*) FROM players");
    long keys0 = db_scalar("SELECT count(*) FROM idempotency");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct refused_create *c = &cases[i];
        char key[128];
        snprintf(key, sizeof key, "Idempotency-Key: seatme-refused-%zu-%s", i, ann.id);
        struct game g;
        long st = create(srv, c->body, auths[c->auth], key, &g, code, sizeof code);
        CHECK(st == c->status && strcmp(code, c->code) == 0, "%s (token %d): %ld %s, not %ld %s",
              c->body, c->auth, st, code, c->status, c->code);
    }
    CHECK(db_scalar("SELECT count(*) FROM games") == games0 &&
              db_scalar("SELECT count(*) FROM players") == seats0 &&
              db_scalar("SELECT count(*) FROM idempotency") == keys0,
          "a refused create stored something");

    /* A player token acts on no game where no seat is bound to it: 401, nothing changed. */
    CHECK(draw(srv, &named, ann.auth, code, sizeof code) == 401 &&
              strcmp(code, "unknown_token") == 0,
          "a player token drew on a game of named seats: %s", code);
    CHECK(game_version(srv, &named) == 1, "the refused draw changed the game");
}

ITEST(test_seatme_idempotency, "seatme: Idempotency-Key of a create scoped to the player")
{
    char why[300], code[64];
    ANN_AND_BOB(ann, bob, why);
    char key[96];
    snprintf(key, sizeof key, "Idempotency-Key: seatme-%s", ann.id);
    static const char body[] = "{\"players\":[{\"player\":\"me\"},{\"name\":\"Cy\"}]}";
    struct game a, a2, b, anon;
    long st = create(srv, body, ann.auth, key, &a, code, sizeof code);
    CHECK(st == 201, "Ann's create: %ld %s", st, code);
    /* The same key and body from another player: a game of its own, bound to Bob. */
    st = create(srv, body, bob.auth, key, &b, code, sizeof code);
    CHECK(st == 201 && strcmp(a.id, b.id) != 0, "Bob's create with Ann's key: %ld %s", st, code);
    CHECK(token_shape(b.token[1]), "Bob's create was answered as a repeat (no tokens)");
    const char *vb[] = {b.id, bob.id};
    CHECK(db_scalar_params("SELECT count(*) FROM players WHERE game_id = $1::uuid AND seat = 0 "
                           "AND person_id = $2::uuid",
                           2, vb) == 1,
          "Bob's game is not bound to Bob");
    /* Ann's repeat: her first game again, with seat 1's token as the first answer had it. */
    st = create(srv, body, ann.auth, key, &a2, code, sizeof code);
    CHECK(st == 201 && strcmp(a.id, a2.id) == 0 && strcmp(a2.token[1], a.token[1]) == 0 &&
              a2.token[0][0] == '\0',
          "Ann's repeat: %ld, game %s (first %s)", st, a2.id, a.id);
    /* The same key with another body, by Ann: 409; anonymous with the key: its own scope. */
    st = create(srv, "{\"players\":[{\"player\":\"me\"},{\"name\":\"Di\"}]}", ann.auth, key, &a2,
                code, sizeof code);
    CHECK(st == 409 && strcmp(code, "idempotency_key_reused") == 0, "another body: %ld %s", st,
          code);
    st = create(srv, "{\"players\":[{\"name\":\"Al\"},{\"name\":\"Cy\"}]}", NULL, key, &anon, code,
                sizeof code);
    CHECK(st == 201 && strcmp(anon.id, a.id) != 0 && strcmp(anon.id, b.id) != 0 &&
              token_shape(anon.token[0]),
          "an anonymous create with the key: %ld %s", st, code);
    CHECK(db_scalar_id("SELECT count(*) FROM idempotency WHERE " IDEM_KEY_IS("$1"),
                       key + strlen("Idempotency-Key: ")) == 3,
          "the key is not stored once per caller");
}
