/* t_idem.c: preconditions and idempotency under concurrency (issue 17, item 8): If-Match
 * compares strongly, and concurrent repeats of one Idempotency-Key, on two servers, all
 * get the first answer while the action happens once. Sealed answers (issue 11, item 7):
 * a repeated creation gives back its tokens, which the database shows nowhere; anonymous
 * keys 32 characters at least, keys of a player its own, a replaced player token's keys
 * locked. Requests compared by meaning (issue 14, contract item 5): no body and {} are one
 * draw, reordered keys one placement; a refused request binds no key. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

#define REPEATS 40

/* One round: a new game, REPEATS concurrent draws with one key, alternating between the two
 * servers. Returns 0, or -1 with `why` saying what went wrong. */
static int repeat_round(const struct server *srv, const struct server *two, int round, char *why,
                        size_t cap)
{
    struct game g;
    if (game_new(srv, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}", &g, why, cap))
        return -1;
    char path[160], key[64];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g.id);
    snprintf(key, sizeof key, "Idempotency-Key: draw-once-%d", round);
    static struct hard_racer a[REPEATS];
    for (int i = 0; i < REPEATS; i++) {
        a[i] = (struct hard_racer){.srv = i % 2 ? two : srv, .h = {g.auth[0], key, NULL}};
        snprintf(a[i].path, sizeof a[i].path, "%s", path);
    }
    hard_together(a, REPEATS);
    int rc = 0;
    for (int i = 0; i < REPEATS && !rc; i++) {
        if (a[i].r.status != 200 || strcmp(a[i].r.body, a[0].r.body) != 0) {
            snprintf(why, cap, "round %d: repeat %d got %ld %.200s", round, i, a[i].r.status,
                     a[i].r.body);
            rc = -1;
        }
    }
    for (int i = 0; i < REPEATS; i++) resp_free(&a[i].r);
    int version = game_version(srv, &g);
    if (!rc && version != 2) {
        snprintf(why, cap, "round %d: the game is at version %d: the draw did not happen once",
                 round, version);
        rc = -1;
    }
    return rc;
}

/* Before, about one round in six had a repeat answered 412 or 409 (it lost the race to the
 * first request and then found the game moved on); ten rounds make that near certain. */
ITEST(test_idem_concurrent_repeats, "idempotency: 40 concurrent repeats of one key, two servers")
{
    enum { ROUNDS = 10 };
    struct server two;
    CHECK(hard_server_start(&two, NULL, 0) == 0, "the second server did not start");
    char why[400] = "";
    int failed = 0;
    for (int round = 0; round < ROUNDS && !failed; round++)
        failed = repeat_round(srv, &two, round, why, sizeof why) != 0;
    printf("  %d rounds of %d concurrent repeats of one key on two servers: %s\n", ROUNDS, REPEATS,
           failed ? why : "every repeat got the first answer, the draw happened once");
    int code = hard_server_stop(&two);
    CHECK(!failed, "%s", why);
    CHECK(code == 0, "the second server exited with %d", code);
}

ITEST(test_idem_if_match_strong, "If-Match compares strongly: W/ never matches")
{
    struct game g;
    char why[300];
    CHECK(game_new(srv, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}", &g, why,
                   sizeof why) == 0,
          "%s", why);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g.id);
    struct resp r;
    /* The game is at version 1: W/"1" names it, but only weakly. */
    const char *weak[] = {g.auth[0], "If-Match: W/\"1\"", NULL};
    http(srv, "POST", path, NULL, weak, &r);
    char code[64];
    long st = resp_done(&r, code, sizeof code);
    CHECK(st == 412 && strcmp(code, "version_mismatch") == 0, "If-Match W/\"1\": %ld %s", st, code);
    CHECK(game_version(srv, &g) == 1, "the weak If-Match changed the game");
    const char *strong[] = {g.auth[0], "If-Match: \"1\"", NULL};
    http(srv, "POST", path, NULL, strong, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 200, "If-Match \"1\": %ld", st);
}

/* A create request: POST `path` with `body` and header lines `h1`, `h2` (NULL or not). */
static void post2(const struct server *srv, const char *path, const char *body, const char *h1,
                  const char *h2, struct resp *r)
{
    const char *h[3] = {h1, h2, NULL};
    if (!h1) h[0] = h2, h[1] = NULL;
    http(srv, "POST", path, body, h, r);
}

/* 1 when the token `tok` is readable nowhere in the idempotency table (nor in clear in any
 * column of it), -1 when it cannot be asked. */
static long token_in_idempotency(const char *tok)
{
    return db_scalar_id("SELECT count(*) FROM idempotency WHERE strpos(coalesce(body, ''), $1) "
                        "> 0 OR position(convert_to($1, 'UTF8') in sealed) > 0 OR "
                        "strpos(scope, $1) > 0",
                        tok);
}

#define CREATE2 "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}"

ITEST(test_idem_sealed_create, "idempotency: a repeated create gives back its tokens, sealed in "
                               "the database; short anonymous keys refused")
{
    /* 32 characters: the least an anonymous key may have. */
    const char *key = "Idempotency-Key: 0123456789abcdef0123456789abcdef";
    struct resp a, b;
    post2(srv, "/v1/games", CREATE2, key, NULL, &a);
    post2(srv, "/v1/games", "{ \"players\" : [ {\"name\":\"Ann\"}, {\"name\":\"Bob\"} ] }", key,
          NULL, &b);
    char tok0[128], tok1[128];
    snprintf(tok0, sizeof tok0, "%s", jstr(a.json, "players.0.token"));
    snprintf(tok1, sizeof tok1, "%s", jstr(a.json, "players.1.token"));
    int same = a.status == 201 && b.status == 201 && strcmp(a.body, b.body) == 0 &&
               strcmp(a.location, b.location) == 0 && strcmp(a.etag, b.etag) == 0;
    resp_free(&a);
    resp_free(&b);
    CHECK(token_shape(tok0) && token_shape(tok1), "the first answer's tokens: %s %s", tok0, tok1);
    CHECK(same, "the repeat (the body's whitespace aside) is not the first answer byte for byte");
    CHECK(token_in_idempotency(tok0) == 0 && token_in_idempotency(tok1) == 0,
          "a token is readable in the idempotency table");
    CHECK(db_scalar_id("SELECT count(*) FROM idempotency WHERE scope = 'create' AND body IS "
                       "NULL AND sealed IS NOT NULL AND " IDEM_KEY_IS("$1"),
                       key + strlen("Idempotency-Key: ")) == 1,
          "the answer is not stored once, sealed, under the key's hash");
    CHECK(db_scalar_id("SELECT count(*) FROM idempotency WHERE strpos(scope, $1) > 0 OR "
                       "position(convert_to($1, 'UTF8') in sealed) > 0",
                       key + strlen("Idempotency-Key: ")) == 0,
          "the key itself is stored");
    /* The repeat's tokens work: they are the game's. */
    struct game g;
    memset(&g, 0, sizeof g);
    snprintf(g.auth[0], sizeof g.auth[0], "Authorization: Bearer %s", tok0);
    struct resp r;
    post2(srv, "/v1/games", CREATE2, key, NULL, &r);
    snprintf(g.id, sizeof g.id, "%s", jstr(r.json, "id"));
    resp_free(&r);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g.id);
    post2(srv, path, NULL, g.auth[0], NULL, &r);
    long st = r.status;
    resp_free(&r);
    CHECK(st == 200, "seat 0 drew with the token of the repeat: %ld", st);

    /* Too short for an anonymous creation: 400, nothing stored, nothing bound. */
    long games0 = db_scalar("SELECT count(*) FROM games"),
         people0 = db_scalar("SELECT count(*) FROM people"),
         keys0 = db_scalar("SELECT count(*) FROM idempotency");
    const char *shorts[] = {"Idempotency-Key: 0123456789abcdef0123456789abcde", /* 31 */
                            "Idempotency-Key: create-1", "Idempotency-Key: x"};
    for (size_t i = 0; i < sizeof shorts / sizeof shorts[0]; i++) {
        post2(srv, "/v1/games", CREATE2, shorts[i], NULL, &r);
        char code[64];
        st = resp_done(&r, code, sizeof code);
        CHECK(st == 400 && strcmp(code, "idempotency_key_too_short") == 0, "games, %s: %ld %s",
              shorts[i], st, code);
        post2(srv, "/v1/players", "{\"name\":\"Short\"}", shorts[i], NULL, &r);
        st = resp_done(&r, code, sizeof code);
        CHECK(st == 400 && strcmp(code, "idempotency_key_too_short") == 0, "players, %s: %ld %s",
              shorts[i], st, code);
    }
    CHECK(db_scalar("SELECT count(*) FROM games") == games0 &&
              db_scalar("SELECT count(*) FROM people") == people0 &&
              db_scalar("SELECT count(*) FROM idempotency") == keys0,
          "a refused creation stored something");
    /* A token that is no player's on a creation without a "me" seat: 401, not anonymous. */
    post2(srv, "/v1/games", CREATE2,
          "Authorization: Bearer Zm9yZ2VkLXRva2VuLXRoYXQtaXMtbm90LWEtcmVhbC1vbmU", NULL, &r);
    char code[64];
    st = resp_done(&r, code, sizeof code);
    CHECK(st == 401 && strcmp(code, "unknown_token") == 0, "a forged token on a create: %ld %s", st,
          code);
    CHECK(db_scalar("SELECT count(*) FROM games") == games0, "the 401 stored a game");
}

/* Creates a player named `name`: its "Authorization: Bearer" line into `auth`, its id into
 * `id` (64 bytes each at least). Returns the status. */
static long player_make(const struct server *srv, const char *name, char *auth, size_t cap,
                        char *id)
{
    char body[96];
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    struct resp r;
    http(srv, "POST", "/v1/players", body, NULL, &r);
    snprintf(auth, cap, "Authorization: Bearer %s", jstr(r.json, "token"));
    snprintf(id, 64, "%s", jstr(r.json, "id"));
    long st = r.status;
    resp_free(&r);
    return st;
}

ITEST(test_idem_player_keys,
      "idempotency: a player's keys are its own; a replaced player token's keys locked")
{
    char ann[160], bob[160], ann_id[64], bob_id[64];
    CHECK(player_make(srv, "Ann", ann, sizeof ann, ann_id) == 201, "Ann");
    CHECK(player_make(srv, "Bob", bob, sizeof bob, bob_id) == 201, "Bob");
    /* With a player token (no "me" seat) a short key is the player's own. */
    const char *key = "Idempotency-Key: k1";
    struct resp a, b, c;
    post2(srv, "/v1/games", CREATE2, ann, key, &a);
    post2(srv, "/v1/games", CREATE2, ann, key, &b);
    post2(srv, "/v1/games", CREATE2, bob, key, &c);
    int same = a.status == 201 && b.status == 201 && strcmp(a.body, b.body) == 0 &&
               token_shape(jstr(b.json, "players.1.token"));
    int apart = c.status == 201 && strcmp(jstr(c.json, "id"), jstr(a.json, "id")) != 0;
    char tok[128];
    snprintf(tok, sizeof tok, "%s", jstr(a.json, "players.0.token"));
    resp_free(&a);
    resp_free(&b);
    resp_free(&c);
    CHECK(same, "Ann's repeat with a short key is not her first answer with its tokens");
    CHECK(apart, "Bob's create with Ann's key is not a game of his own");
    CHECK(token_in_idempotency(tok) == 0, "a token is readable in the idempotency table");

    /* A "me" seat, a short key; then the player token is replaced: the old answer cannot be
     * opened with the new token, so the repeat is refused (409), and nothing acts twice. */
    static const char me[] = "{\"players\":[{\"player\":\"me\"},{\"name\":\"Cy\"}]}";
    post2(srv, "/v1/games", me, ann, "Idempotency-Key: me-1", &a);
    long st = a.status;
    char first[64];
    snprintf(first, sizeof first, "%s", jstr(a.json, "id"));
    resp_free(&a);
    CHECK(st == 201, "the create with a \"me\" seat: %ld", st);
    const char *ha[] = {ann, NULL};
    http(srv, "POST", "/v1/players/me/token", NULL, ha, &a);
    char fresh[160];
    snprintf(fresh, sizeof fresh, "Authorization: Bearer %s", jstr(a.json, "token"));
    st = a.status;
    resp_free(&a);
    CHECK(st == 200, "the token replacement: %ld", st);
    long games0 = db_scalar("SELECT count(*) FROM games");
    post2(srv, "/v1/games", me, fresh, "Idempotency-Key: me-1", &a);
    st = a.status;
    char code[64];
    snprintf(code, sizeof code, "%s", problem_code(&a));
    resp_free(&a);
    CHECK(st == 409 && strcmp(code, "idempotency_key_reused") == 0,
          "the repeat with the new token: %ld %s", st, code);
    CHECK(db_scalar("SELECT count(*) FROM games") == games0, "the repeat created a game");
    (void)first;
}

/* POST /v1/games/{id}/`what` of `g` as seat `seat` with `body` and header line `key`. */
static void seat_post(const struct server *srv, const struct game *g, int seat, const char *what,
                      const char *body, const char *key, struct resp *r)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/%s", g->id, what);
    post2(srv, path, body, g->auth[seat], key, r);
}

ITEST(test_idem_canonical,
      "idempotency: requests compared as canonical JSON; a refused request binds no key")
{
    struct game g;
    NEW_GAME(&g, CREATE2);
    long keys0 = db_scalar("SELECT count(*) FROM idempotency");
    /* Refused requests bind no key: a placement before the draw (409 wrong_phase), a draw
     * with a bad body (400), then the draw with the same key is a new request. */
    struct resp r, a, b;
    seat_post(srv, &g, 0, "placements", "{\"x\":0,\"y\":-1,\"rotation\":0}", "Idempotency-Key: t1",
              &r);
    long st = r.status;
    resp_free(&r);
    CHECK(st == 409, "a placement before the draw: %ld", st);
    seat_post(srv, &g, 0, "draw", "{\"tile\":1}", "Idempotency-Key: t1", &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 400, "a draw with a body: %ld", st);
    seat_post(srv, &g, 1, "draw", NULL, "Idempotency-Key: t1", &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 403, "seat 1 drew on seat 0's turn: %ld", st);
    CHECK(db_scalar("SELECT count(*) FROM idempotency") == keys0, "a refused request bound a key");
    /* No body, then {} with the same key: one draw, the first answer. */
    seat_post(srv, &g, 0, "draw", NULL, "Idempotency-Key: t1", &a);
    seat_post(srv, &g, 0, "draw", "{}", "Idempotency-Key: t1", &b);
    int same = a.status == 200 && b.status == 200 && strcmp(a.body, b.body) == 0;
    char place[160], reordered[200];
    const cJSON *p0 = cJSON_GetArrayItem(jget(a.json, "placements"), 0);
    snprintf(place, sizeof place, "{\"x\":%d,\"y\":%d,\"rotation\":%d}", (int)jnum(p0, "x"),
             (int)jnum(p0, "y"), (int)jnum(p0, "rotation"));
    snprintf(reordered, sizeof reordered, " {\n \"rotation\" : %d.0, \"y\": %d, \"x\" :%d }",
             (int)jnum(p0, "rotation"), (int)jnum(p0, "y"), (int)jnum(p0, "x"));
    resp_free(&a);
    resp_free(&b);
    CHECK(same, "a draw with {} after one without a body is not its repeat");
    CHECK(game_version(srv, &g) == 2, "the draw happened more than once");
    /* A placement, then the same with its keys reordered, spaced and 90.0 for 90. */
    seat_post(srv, &g, 0, "placements", place, "Idempotency-Key: t2", &a);
    seat_post(srv, &g, 0, "placements", reordered, "Idempotency-Key: t2", &b);
    same = a.status == 201 && b.status == 201 && strcmp(a.body, b.body) == 0;
    resp_free(&a);
    resp_free(&b);
    CHECK(same, "%s after %s is not its repeat", reordered, place);
    CHECK(game_version(srv, &g) == 3, "the placement happened more than once");
    /* Another meaning with the key: 409. */
    seat_post(srv, &g, 0, "placements", "{\"x\":5,\"y\":5,\"rotation\":0}", "Idempotency-Key: t2",
              &r);
    char code[64];
    st = resp_done(&r, code, sizeof code);
    CHECK(st == 409 && strcmp(code, "idempotency_key_reused") == 0, "another placement: %ld %s", st,
          code);
}

/* One of the concurrent creations. */
struct creator {
    const struct server *srv; /* where it goes */
    const char *key;          /* its Idempotency-Key line */
    pthread_barrier_t *go;    /* released together */
    struct resp r;            /* its answer */
};

static void *creator_main(void *p)
{
    struct creator *c = p;
    pthread_barrier_wait(c->go);
    post2(c->srv, "/v1/games", CREATE2, c->key, NULL, &c->r);
    return NULL;
}

ITEST(test_idem_concurrent_creates,
      "idempotency: 16 concurrent creations with one key, two servers")
{
    enum { N = 16 };
    struct server two;
    CHECK(hard_server_start(&two, NULL, 0) == 0, "the second server did not start");
    const char *key = "Idempotency-Key: 7c1d9e2f-concurrent-create-0a4b6c8d2e1f";
    long games0 = db_scalar("SELECT count(*) FROM games");
    struct creator c[N];
    pthread_t t[N];
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, N);
    for (int i = 0; i < N; i++) {
        c[i] = (struct creator){i % 2 ? &two : srv, key, &go, {0}};
        pthread_create(&t[i], NULL, creator_main, &c[i]);
    }
    for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    int same = 1;
    for (int i = 0; i < N; i++)
        same &= c[i].r.status == 201 && c[i].r.body && c[0].r.body &&
                strcmp(c[i].r.body, c[0].r.body) == 0;
    int tokens = token_shape(jstr(c[0].r.json, "players.0.token"));
    for (int i = 0; i < N; i++) resp_free(&c[i].r);
    long made = db_scalar("SELECT count(*) FROM games") - games0;
    int code = hard_server_stop(&two);
    printf("  %d concurrent creations with one key on two servers: %ld game, %s\n", N, made,
           same ? "every answer the first, tokens included" : "answers differ");
    CHECK(same && tokens, "a concurrent creation got another answer");
    CHECK(made == 1, "%ld games created", made);
    CHECK(code == 0, "the second server exited with %d", code);
}

/*
 * The migration to sealed answers (0011) keeps the rows of before: on a database of its
 * own, a server makes a game, then the idempotency table is made again as 0001 had it,
 * with two answers remembered the old way (an anonymous creation whose body was not in
 * canonical form, a seat's draw without a body). The next server migrates it; both
 * repeats get their old answers (without tokens, as before), and nothing acts twice.
 */
ITEST(test_idem_migration,
      "idempotency: the migration to sealed answers keeps the answers of before")
{
    (void)srv;
    char db[512];
    struct server s;
    CHECK(hard_server_own_db(&s, "tilehall_itest_idemmig", NULL, 0, db, sizeof db) == 0,
          "the server on a database of its own did not start");
    struct game g;
    char why[300] = "";
    int made = game_new(&s, CREATE2, &g, why, sizeof why) == 0;
    int code1 = hard_server_stop(&s);
    CHECK(made, "%s", why);
    CHECK(code1 == 0, "the first server exited with %d", code1);
    static const char create_body[] = "{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Bob\"}]}";
    static const char old_shape[] =
        "DROP TABLE idempotency;\n"
        "DELETE FROM schema_migrations WHERE version = 11;\n"
        "CREATE TABLE idempotency (scope text NOT NULL, key text NOT NULL, request_hash bytea NOT "
        "NULL, status integer NOT NULL, location text, etag text, body text NOT NULL, created_at "
        "timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (scope, key));\n"
        "CREATE INDEX idempotency_created_at ON idempotency (created_at);\n"
        "INSERT INTO idempotency (scope, key, request_hash, status, location, etag, body) VALUES "
        "('create', 'old-anonymous-key-0123456789abcdef', sha256(convert_to(E'POST\\n/v1/games\\n' "
        "|| '{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Bob\"}]}', 'UTF8')), 201, "
        "'/v1/games/' || :'game', '\"1\"', '{\"id\":\"' || :'game' || '\",\"old\":true}'),\n"
        "(:'game' || '/0', 'old-draw', sha256(convert_to('POST' || E'\\n' || '/v1/games/' || "
        ":'game' || '/draw' || E'\\n', 'UTF8')), 200, NULL, '\"2\"', '{\"old\":\"draw\"}');\n";
    CHECK(psql_run(db, g.id, old_shape) == 0, "the old shape could not be made (psql)");
    CHECK(hard_server_on_db(&s, db, NULL, 0) == 0, "the server did not start on the old shape");
    struct resp a, b;
    post2(&s, "/v1/games", create_body, "Idempotency-Key: old-anonymous-key-0123456789abcdef", NULL,
          &a);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g.id);
    post2(&s, path, NULL, g.auth[0], "Idempotency-Key: old-draw", &b);
    char want_create[160], want_loc[128];
    snprintf(want_create, sizeof want_create, "{\"id\":\"%s\",\"old\":true}", g.id);
    snprintf(want_loc, sizeof want_loc, "/v1/games/%s", g.id);
    int create_ok =
        a.status == 201 && strcmp(a.body, want_create) == 0 && strcmp(a.location, want_loc) == 0;
    int draw_ok = b.status == 200 && strcmp(b.body, "{\"old\":\"draw\"}") == 0 &&
                  strcmp(b.etag, "\"2\"") == 0;
    char got[2][200];
    snprintf(got[0], sizeof got[0], "%ld %.150s", a.status, a.body);
    snprintf(got[1], sizeof got[1], "%ld %.150s", b.status, b.body);
    resp_free(&a);
    resp_free(&b);
    int version = game_version(&s, &g);
    /* New answers after the migration are sealed as ever. */
    post2(&s, path, NULL, g.auth[0], "Idempotency-Key: new-draw", &a);
    post2(&s, path, NULL, g.auth[0], "Idempotency-Key: new-draw", &b);
    int new_ok = a.status == 200 && b.status == 200 && strcmp(a.body, b.body) == 0;
    resp_free(&a);
    resp_free(&b);
    int code2 = hard_server_stop(&s);
    CHECK(create_ok, "the old creation's repeat: %s", got[0]);
    CHECK(draw_ok, "the old draw's repeat: %s", got[1]);
    CHECK(version == 1, "the old draw's repeat drew (version %d)", version);
    CHECK(new_ok, "a draw after the migration is not repeated");
    CHECK(code2 == 0, "the server on the migrated database exited with %d", code2);
}
