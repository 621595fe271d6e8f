/* t_playertoken.c: acting by player token (issue 11, item 3): everything a seat token can
 * do on a game, the token of the player bound to that seat can do, and nothing more. Two
 * games alike in everything (seed, deck, names) but seat 0: a named seat with its token
 * in one, a seat bound to the player Ann in the other. Each step of a whole game, the
 * seat not to move trying to draw and place at every turn, and a probe of every seat
 * endpoint by both seats (draw, placement, the webhook's POST, GET, DELETE, with and
 * without If-Match and Idempotency-Key) on the first turns, every tenth and the last, are
 * sent to both games, by the seat token and by the player token: each answer's status and
 * code must be the same, and the two games end the same. Then the limits: Ann's token on a game
 * where she has no seat (401 on every endpoint), bound to seat 1 while seat 0 is to move (403), on
 * another game and another seat's webhook; nothing refused changes anything. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "tests.h"

/* The two games of the comparison: [0] seat 0 named, [1] seat 0 bound to the player. */
struct pair {
    struct game g[2]; /* auth[0] of g[1] is the player's token line */
    char player[64];  /* the player's id */
    char why[400];    /* the first difference */
    int steps;        /* requests compared */
};

/* POST /v1/players {"name": `name`}: the auth line into `auth`, the id into `id` (64). */
static long player_new(const struct server *srv, const char *name, char *auth, size_t cap, char *id)
{
    char body[96];
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    struct resp r;
    http(srv, "POST", "/v1/players", body, NULL, &r);
    long st = r.status;
    snprintf(auth, cap, "Authorization: Bearer %s", jstr(r.json, "token"));
    snprintf(id, 64, "%s", jstr(r.json, "id"));
    resp_free(&r);
    return st;
}

/* POST /v1/games `body` with header line `auth` (or none) into `g`. The status. */
static long create(const struct server *srv, const char *body, const char *auth, struct game *g)
{
    const char *h[] = {auth, NULL};
    struct resp r;
    http(srv, "POST", "/v1/games", body, auth ? h : NULL, &r);
    long st = r.status;
    memset(g, 0, sizeof *g);
    if (st == 201) {
        snprintf(g->id, sizeof g->id, "%s", jstr(r.json, "id"));
        g->nplayers = cJSON_GetArraySize(jget(r.json, "players"));
        for (int s = 0; s < g->nplayers && s < 5; s++) {
            const char *tok = jstr(cJSON_GetArrayItem(jget(r.json, "players"), s), "token");
            snprintf(g->token[s], sizeof g->token[s], "%s", tok);
            if (tok[0]) snprintf(g->auth[s], sizeof g->auth[s], "Authorization: Bearer %s", tok);
        }
    }
    resp_free(&r);
    return st;
}

/* `method` /v1/games/{id}/`what` of `g` with header lines `h1`, `h2` (either NULL). */
static void game_send(const struct server *srv, const struct game *g, const char *method,
                      const char *what, const char *body, const char *h1, const char *h2,
                      struct resp *r)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/%s", g->id, what);
    const char *h[3] = {h1, h2, NULL};
    if (!h1) h[0] = h2, h[1] = NULL;
    http(srv, method, path, body, h, r);
}

/*
 * Sends one request to both games of `p` as seat `seat` (seat 0: the seat token in g[0],
 * the player token in g[1]); `extra` is one more header line or NULL ("If-Match: %d" is
 * filled with each game's version). Compares status and code; the first difference goes
 * to p->why. Returns the status of g[0]'s answer; its JSON body into *out when `out`.
 */
static long both(const struct server *srv, struct pair *p, int seat, const char *method,
                 const char *what, const char *body, const char *extra, cJSON **out)
{
    long st[2];
    char code[2][64];
    for (int i = 0; i < 2; i++) {
        char line[64] = "";
        if (extra && strstr(extra, "%d"))
            snprintf(line, sizeof line, extra, game_version(srv, &p->g[i]));
        else if (extra)
            snprintf(line, sizeof line, "%s", extra);
        struct resp r;
        game_send(srv, &p->g[i], method, what, body, p->g[i].auth[seat], extra ? line : NULL, &r);
        st[i] = r.status;
        snprintf(code[i], sizeof code[i], "%s", st[i] >= 400 ? problem_code(&r) : "");
        if (i == 0 && out) {
            *out = r.json;
            r.json = NULL;
        }
        resp_free(&r);
    }
    p->steps++;
    if ((st[0] != st[1] || strcmp(code[0], code[1]) != 0) && !p->why[0])
        snprintf(p->why, sizeof p->why,
                 "%s %s%s%s as seat %d: seat token %ld %s, player token %ld %s", method, what,
                 body ? " " : "", body ? body : "", seat, st[0], code[0], st[1], code[1]);
    return st[0];
}

/* Probes every seat endpoint as seat `seat` on both games (nothing that changes the turn). */
static void probe(const struct server *srv, struct pair *p, int seat, int turn)
{
    char url[96], body[160], key[64];
    snprintf(url, sizeof url, "http://127.0.9.9:9/pt-%d-%d", seat, turn);
    snprintf(body, sizeof body, "{\"url\":\"%s\"}", url);
    snprintf(key, sizeof key, "Idempotency-Key: hook-%d-%d", seat, turn);
    both(srv, p, seat, "GET", "webhook", NULL, NULL, NULL);
    both(srv, p, seat, "POST", "webhook", body, key, NULL);
    both(srv, p, seat, "POST", "webhook", body, key, NULL);              /* its repeat */
    both(srv, p, seat, "POST", "webhook", "{\"url\":\"x\"}", key, NULL); /* 400 */
    both(srv, p, seat, "POST", "webhook", body, "If-Match: \"999\"", NULL);
    both(srv, p, seat, "GET", "webhook", NULL, NULL, NULL);
    if (turn % 2) {
        both(srv, p, seat, "DELETE", "webhook", NULL, NULL, NULL);
        both(srv, p, seat, "DELETE", "webhook", NULL, NULL, NULL); /* 404 now */
    }
    both(srv, p, seat, "POST", "draw", "{\"x\":1}", NULL, NULL);
    both(srv, p, seat, "POST", "placements", "{\"x\":0}", NULL, NULL);
    both(srv, p, seat, "POST", "draw", NULL, "If-Match: \"999\"", NULL);
}

/* Plays both games of `p` to the end, probing at every turn. Returns the turns played. */
static int play_both(const struct server *srv, struct pair *p)
{
    int turn = 0;
    for (; turn < 200 && !p->why[0]; turn++) {
        cJSON *j = game_get(srv, &p->g[0]);
        int seat = (int)jnum(j, "turn.seat"), other = 1 - seat;
        int finished = strcmp(jstr(j, "status"), "finished") == 0;
        int draw = strcmp(jstr(j, "turn.phase"), "draw") == 0;
        cJSON_Delete(j);
        /* Every endpoint on the first turns, at every tenth and at the end. */
        if (turn < 4 || turn % 10 == 0 || finished) {
            probe(srv, p, 0, turn);
            probe(srv, p, 1, turn);
        }
        if (finished) break;
        /* The seat not to move: refused, the same way, whatever it tries. */
        both(srv, p, other, "POST", "draw", NULL, NULL, NULL);
        char body[160];
        if (draw) {
            both(srv, p, seat, "POST", "placements", "{\"x\":0,\"y\":1,\"rotation\":0}", NULL,
                 NULL); /* before the draw */
            char key[64];
            snprintf(key, sizeof key, "Idempotency-Key: draw-%d", turn);
            both(srv, p, seat, "POST", "draw", NULL, "If-Match: \"%d\"", NULL);
            both(srv, p, seat, "POST", "draw", "{}", key, NULL); /* drawn already: 409 */
        }
        char why[200];
        if (first_placement(srv, &p->g[0], turn % 3 == 0, body, sizeof body, why, sizeof why)) {
            snprintf(p->why, sizeof p->why, "turn %d: no placement to make: %s", turn, why);
            break;
        }
        both(srv, p, other, "POST", "placements", body, NULL, NULL);
        char key[64];
        snprintf(key, sizeof key, "Idempotency-Key: place-%d", turn);
        long st = both(srv, p, seat, "POST", "placements", body, key, NULL);
        both(srv, p, seat, "POST", "placements", body, key, NULL); /* its repeat */
        if (st != 201 && !p->why[0])
            snprintf(p->why, sizeof p->why, "turn %d: the placement %s answered %ld", turn, body,
                     st);
    }
    return turn;
}

/* The game's state as GET shows it, without its id: "" on failure (caller frees). */
static char *state_without_id(const struct server *srv, const struct game *g)
{
    cJSON *j = game_get(srv, g);
    if (!j) return strdup("");
    cJSON_DeleteItemFromObjectCaseSensitive(j, "id");
    /* The bound game's seat 0 names its player (and rating, once rated); the named game's
     * does not: the rest must be the same. */
    cJSON *seat;
    cJSON_ArrayForEach(seat, cJSON_GetObjectItemCaseSensitive(j, "players"))
    {
        cJSON_DeleteItemFromObjectCaseSensitive(seat, "player_id");
        cJSON_DeleteItemFromObjectCaseSensitive(seat, "rating");
    }
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return text ? text : strdup("");
}

/* The comparison in the ruleset of `setup` (a create body's tail after "players"). */
static void compare(struct server *srv, const char *setup)
{
    struct pair *p = calloc(1, sizeof *p);
    CHECK(p, "out of memory");
    char ann[160];
    long st = player_new(srv, "Ann", ann, sizeof ann, p->player);
    CHECK(st == 201, "POST /v1/players: %ld", st);
    char named[600], bound[600];
    snprintf(named, sizeof named, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Cy\"}],%s}", setup);
    snprintf(bound, sizeof bound, "{\"players\":[{\"player\":\"me\"},{\"name\":\"Cy\"}],%s}",
             setup);
    st = create(srv, named, NULL, &p->g[0]);
    CHECK(st == 201, "the named game: %ld", st);
    st = create(srv, bound, ann, &p->g[1]);
    CHECK(st == 201 && !p->g[1].token[0][0], "the bound game: %ld", st);
    snprintf(p->g[1].auth[0], sizeof p->g[1].auth[0], "%s", ann);
    int turns = play_both(srv, p);
    char *s0 = state_without_id(srv, &p->g[0]), *s1 = state_without_id(srv, &p->g[1]);
    int same = strcmp(s0, s1) == 0 && strstr(s0, "\"status\":\"finished\"") != NULL;
    free(s0);
    free(s1);
    printf("  %s: %d turns, %d requests each by seat token and by player token, the same "
           "answers%s\n",
           setup, turns, p->steps, p->why[0] ? " NOT" : "");
    char why[400];
    snprintf(why, sizeof why, "%s", p->why);
    const char *v[] = {p->g[1].id, p->player};
    long bound_rows = db_scalar_params("SELECT count(*) FROM players WHERE game_id = $1::uuid AND "
                                       "seat = 0 AND person_id = $2::uuid",
                                       2, v);
    free(p);
    CHECK(!why[0], "%s", why);
    CHECK(same, "the two games did not end the same");
    CHECK(bound_rows == 1, "seat 0 of the bound game is not Ann's");
}

ITEST(test_playertoken_same_as_seat,
      "playertoken: a bound seat's player token answered as its seat token, a whole game")
{
    compare(srv, "\"seed\":11,\"start\":\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\",\"V\",\"B\","
                 "\"A\",\"L\"]");
}

ITEST(test_playertoken_same_as_seat_hand, "playertoken: the same in the hand-of-two variant")
{
    compare(srv,
            "\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"seed\":12,"
            "\"deck\":[\"B\",\"D\",\"F\",\"J\",\"L\",\"H\",\"I\",\"O\",\"Q\",\"R\",\"J\",\"D\","
            "\"F\",\"B\"]");
}

/* One refused request: `method` `what` with `body`; its status and code. */
struct refusal {
    const char *method; /* HTTP method */
    const char *what;   /* after /v1/games/{id}/ */
    const char *body;   /* or NULL */
    long status;        /* expected */
    const char *code;   /* expected */
};

/* Sends each refusal of `list` to `g` with header line `auth`; the game must not change.
 * Returns 0, or -1 with `why`. */
static int refused(const struct server *srv, const struct game *g, const char *auth,
                   const struct refusal *list, size_t n, const char *label, char *why, size_t cap)
{
    int v0 = game_version(srv, g);
    long hooks0 = db_scalar_id("SELECT count(*) FROM webhooks WHERE game_id = $1::uuid", g->id);
    long keys0 = db_scalar("SELECT count(*) FROM idempotency");
    for (size_t i = 0; i < n; i++) {
        struct resp r;
        game_send(srv, g, list[i].method, list[i].what, list[i].body, auth,
                  "Idempotency-Key: refused-1", &r);
        char code[64];
        long st = resp_done(&r, code, sizeof code);
        if (st != list[i].status || strcmp(code, list[i].code) != 0) {
            snprintf(why, cap, "%s: %s %s answered %ld %s, not %ld %s", label, list[i].method,
                     list[i].what, st, code, list[i].status, list[i].code);
            return -1;
        }
    }
    if (game_version(srv, g) != v0 ||
        db_scalar_id("SELECT count(*) FROM webhooks WHERE game_id = $1::uuid", g->id) != hooks0 ||
        db_scalar("SELECT count(*) FROM idempotency") != keys0) {
        snprintf(why, cap, "%s: a refused request changed the game, its webhooks or the keys",
                 label);
        return -1;
    }
    return 0;
}

#define PT_DECK "\"start\":\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]"

ITEST(test_playertoken_limits,
      "playertoken: not on another game, another seat, off its turn; nothing changed")
{
    char ann[160], bob[160], ann_id[64], bob_id[64], why[400];
    CHECK(player_new(srv, "Ann", ann, sizeof ann, ann_id) == 201, "Ann");
    CHECK(player_new(srv, "Bob", bob, sizeof bob, bob_id) == 201, "Bob");
    struct game mine, seat1, none, bobs;
    CHECK(create(srv, "{\"players\":[{\"player\":\"me\"},{\"name\":\"Cy\"}]," PT_DECK "}", ann,
                 &mine) == 201,
          "Ann's game");
    CHECK(create(srv, "{\"players\":[{\"name\":\"Dee\"},{\"player\":\"me\"}]," PT_DECK "}", ann,
                 &seat1) == 201,
          "the game where Ann is seat 1");
    NEW_GAME(&none, "{\"players\":[{\"name\":\"Eve\"},{\"name\":\"Fay\"}]," PT_DECK "}");
    CHECK(create(srv, "{\"players\":[{\"player\":\"me\"},{\"name\":\"Gus\"}]," PT_DECK "}", bob,
                 &bobs) == 201,
          "Bob's game");
    static const char place[] = "{\"x\":0,\"y\":-1,\"rotation\":0}";
    static const char hook[] = "{\"url\":\"http://127.0.9.9:9/limits\"}";
    /* A game where Ann has no seat (named seats, or another player's): 401 everywhere. */
    const struct refusal stranger[] = {
        {"POST", "draw", NULL, 401, "unknown_token"},
        {"POST", "placements", place, 401, "unknown_token"},
        {"POST", "webhook", hook, 401, "unknown_token"},
        {"GET", "webhook", NULL, 401, "unknown_token"},
        {"DELETE", "webhook", NULL, 401, "unknown_token"},
    };
    CHECK(refused(srv, &none, ann, stranger, 5, "a game of named seats", why, sizeof why) == 0,
          "%s", why);
    CHECK(refused(srv, &bobs, ann, stranger, 5, "Bob's game", why, sizeof why) == 0, "%s", why);
    /* Bound to seat 1 while seat 0 is to move: 403 not_your_turn, as seat 1's token. */
    const struct refusal off_turn[] = {
        {"POST", "draw", NULL, 403, "not_your_turn"},
        {"POST", "placements", place, 403, "not_your_turn"},
    };
    CHECK(refused(srv, &seat1, ann, off_turn, 2, "Ann as seat 1 on seat 0's turn", why,
                  sizeof why) == 0,
          "%s", why);
    /* Seat 0 draws: still seat 0's turn (to place): Ann, seat 1, still refused. */
    struct resp r;
    game_send(srv, &seat1, "POST", "draw", NULL, seat1.auth[0], NULL, &r);
    long st = r.status;
    resp_free(&r);
    CHECK(st == 200, "Dee's draw: %ld", st);
    CHECK(refused(srv, &seat1, ann, off_turn, 2, "Ann as seat 1 in seat 0's place phase", why,
                  sizeof why) == 0,
          "%s", why);
    /* Ann's webhook on that game is seat 1's, and Dee's token does not see it. */
    game_send(srv, &seat1, "POST", "webhook", hook, ann, NULL, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 200, "Ann sets seat 1's webhook: %ld", st);
    CHECK(db_seat_webhooks(seat1.id, 1) == 1, "Ann's webhook is not seat 1's");
    game_send(srv, &seat1, "GET", "webhook", NULL, seat1.auth[0], NULL, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 404, "Dee read Ann's webhook: %ld", st);
    /* Ann acts on her own game; a seat token of another game does not (401). */
    game_send(srv, &mine, "POST", "draw", NULL, ann, NULL, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 200, "Ann's draw on her game: %ld", st);
    const struct refusal foreign[] = {
        {"POST", "placements", place, 401, "unknown_token"},
        {"POST", "webhook", hook, 401, "unknown_token"},
        {"GET", "webhook", NULL, 401, "unknown_token"},
    };
    CHECK(refused(srv, &mine, none.auth[0], foreign, 3, "a seat token of another game", why,
                  sizeof why) == 0,
          "%s", why);
    CHECK(refused(srv, &mine, bob, foreign, 3, "Bob's player token on Ann's game", why,
                  sizeof why) == 0,
          "%s", why);
    /* Ann's key on her seat is her seat's: the same key by Cy (seat 1) is Cy's own. */
    const struct refusal cy_early[] = {{"POST", "draw", NULL, 403, "not_your_turn"}};
    CHECK(refused(srv, &mine, mine.auth[1], cy_early, 1, "Cy on Ann's turn", why, sizeof why) == 0,
          "%s", why);
}
