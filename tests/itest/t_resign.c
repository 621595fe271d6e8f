/* t_resign.c: resignations and rematches (issue 11, item 4) through HTTP, stored in
 * PostgreSQL: resign in 2- and 3-seat games of every ruleset (the seat to move in the draw
 * and the place phase, another seat), its events, skipped turns, ranking, the end with one
 * seat left (result resignation) and result completed for normal ends; every refusal with
 * its code and the stored game unchanged; rematch asked by every seat at once on two
 * servers (one next game), seats rotated, tokens handed out once, bound seats by their
 * player token, refusals. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

/* The rulesets and options played, each with a short custom deck and a seed. */
static const char *const setups[] = {
    "\"ruleset\":\"classic\",\"seed\":3",
    "\"ruleset\":\"classic\",\"options\":{\"river\":true},\"seed\":4",
    "\"ruleset\":\"hills\",\"seed\":5",
    "\"ruleset\":\"discovery\",\"seed\":6",
    "\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"seed\":7",
};
#define NSETUPS (sizeof setups / sizeof setups[0])

static const char *const names3 = "[{\"name\":\"Ann\"},{\"name\":\"Bob\"},{\"name\":\"Cy\"}]";
static const char *const names2 = "[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]";

/* POSTs /v1/games/{id}/<what> with header line `auth` (or none) and `body`. */
static void post(const struct server *srv, const char *id, const char *what, const char *auth,
                 const char *body, struct resp *r)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/%s", id, what);
    const char *h[2] = {auth, NULL};
    http(srv, "POST", path, body, auth ? h : NULL, r);
}

/* Pieces of `seat` on the board of state `j`. */
static int pieces_of(const cJSON *j, int seat)
{
    int n = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, jget(j, "board"))
    {
        const cJSON *pc;
        cJSON_ArrayForEach(pc, jget(t, "pieces")) n += jnum(pc, "seat") == seat;
    }
    return n;
}

/* Events of `type` in the array `evs`. */
static int count_type(const cJSON *evs, const char *type)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, evs) n += strcmp(jstr(e, "type"), type) == 0;
    return n;
}

/* Whether the stored game `id` is as `before` (read with db_game_read), byte for byte. */
static int unchanged(const char *id, const struct db_game *before)
{
    struct db_game now;
    char why[200];
    if (db_game_read(id, &now, why, sizeof why)) return 0;
    int same = db_game_same(before, &now);
    db_game_free(&now);
    return same;
}

/* The winners of finished state `j` as a bit mask. */
static unsigned winners(const cJSON *j)
{
    unsigned m = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, jget(j, "winners")) m |= 1u << w->valueint;
    return m;
}

/*
 * One setup, 3 seats: a few turns, the seat to move resigns in the draw phase (or, with
 * `in_place`, after drawing), its pieces leave, later turns skip it, then another resigns
 * and the last one wins with result resignation.
 */
static void three_seats(struct server *srv, const char *setup, int in_place)
{
    char body[400], why[300];
    snprintf(body, sizeof body, "{%s,\"players\":%s}", setup, names3);
    struct game g;
    NEW_GAME(&g, body);
    for (int k = 0; k < 4; k++)
        CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "%s: %s", setup, why);
    cJSON *j = game_get(srv, &g);
    CHECK(j, "GET");
    int seat = (int)jnum(j, "turn.seat");
    int draw = strcmp(jstr(j, "turn.phase"), "draw") == 0;
    cJSON_Delete(j);
    struct resp r;
    if (in_place && draw) {
        post(srv, g.id, "draw", g.auth[seat], NULL, &r);
        CHECK(r.status == 200, "%s: draw %ld", setup, r.status);
        resp_free(&r);
    }
    j = game_get(srv, &g);
    int had = pieces_of(j, seat), version = (int)jnum(j, "version");
    const char *tile = jstr(j, "turn.tile");
    char drawn[16];
    snprintf(drawn, sizeof drawn, "%s", tile);
    cJSON_Delete(j);
    post(srv, g.id, "resign", g.auth[seat], NULL, &r);
    long st = r.status;
    const cJSON *evs = jget(r.json, "events");
    int resigned = count_type(evs, "seat_resigned"), removed = count_type(evs, "piece_removed");
    int ev_seat = (int)jnum(r.json, "events.0.seat"), new_version = (int)jnum(r.json, "version");
    char back[16];
    snprintf(back, sizeof back, "%s", jstr(r.json, "events.0.returned_tile"));
    resp_free(&r);
    CHECK(st == 200 && resigned == 1 && ev_seat == seat, "%s: resign %ld", setup, st);
    CHECK(removed == had, "%s: %d piece_removed events for %d pieces", setup, removed, had);
    CHECK(new_version == version + 1, "%s: version %d after %d", setup, new_version, version);
    if (drawn[0]) CHECK(strcmp(back, drawn) == 0, "%s: tile %s back, %s drawn", setup, back, drawn);
    j = game_get(srv, &g);
    CHECK(j, "GET");
    int still = strcmp(jstr(j, "status"), "active") == 0;
    int now = (int)jnum(j, "turn.seat"), left = pieces_of(j, seat);
    const cJSON *flag = jget(j, "players");
    flag = cJSON_GetArrayItem(flag, seat);
    int marked = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(flag, "resigned"));
    cJSON_Delete(j);
    CHECK(still && now != seat && left == 0 && marked,
          "%s: after resigning: active %d, seat %d, "
          "%d pieces, resigned %d",
          setup, still, now, left, marked);
    /* Later turns skip it; it can no longer act. */
    for (int k = 0; k < 4; k++) {
        j = game_get(srv, &g);
        now = (int)jnum(j, "turn.seat");
        cJSON_Delete(j);
        CHECK(now != seat, "%s: the resigned seat is to move", setup);
        int rc = play_turn(srv, &g, 1, why, sizeof why);
        CHECK(rc >= 0, "%s: %s", setup, why);
        if (rc == 1) break;
    }
    post(srv, g.id, "draw", g.auth[seat], NULL, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 403 || st == 409, "%s: the resigned seat drew: %ld", setup, st);
    j = game_get(srv, &g);
    int finished = strcmp(jstr(j, "status"), "finished") == 0;
    cJSON_Delete(j);
    if (finished) return; /* (a short deck ran out: nothing more to see here) */
    int other = (seat + 1) % 3, last = (seat + 2) % 3;
    post(srv, g.id, "resign", g.auth[other], NULL, &r);
    st = r.status;
    evs = jget(r.json, "events");
    const cJSON *fin = cJSON_GetArrayItem(evs, cJSON_GetArraySize(evs) - 1);
    int fin_ok = strcmp(jstr(fin, "type"), "game_finished") == 0 &&
                 strcmp(jstr(fin, "result"), "resignation") == 0 && winners(fin) == 1u << last;
    resp_free(&r);
    CHECK(st == 200 && fin_ok, "%s: the last resignation: %ld, game_finished %d", setup, st,
          fin_ok);
    j = game_get(srv, &g);
    int ok =
        strcmp(jstr(j, "status"), "finished") == 0 && strcmp(jstr(j, "result"), "resignation") == 0;
    cJSON_Delete(j);
    CHECK(ok, "%s: the state is not finished by resignation", setup);
    char sql_why[200];
    CHECK(db_replay_check(g.id, sql_why, sizeof sql_why) == 0, "%s: replay: %s", setup, sql_why);
    CHECK(db_scalar_id("SELECT count(*) FROM games WHERE id = $1::uuid AND result = "
                       "'resignation'",
                       g.id) == 1,
          "%s: games.result is not resignation", setup);
    /* Scores: winners lists the last seat in. */
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/scores", g.id);
    http(srv, "GET", path, NULL, NULL, &r);
    unsigned w = winners(r.json);
    resp_free(&r);
    CHECK(w == 1u << last, "%s: scores' winners %#x", setup, w);
}

ITEST(test_resign_three,
      "resign: 3 seats in every ruleset, pieces leave, turns skip, the last one wins")
{
    for (size_t i = 0; i < NSETUPS; i++) {
        three_seats(srv, setups[i], (int)(i % 2));
        if (itest_failure[0]) return;
    }
}

ITEST(test_resign_two, "resign: 2 seats in every ruleset, the other seat wins at once")
{
    char body[400], why[300];
    for (size_t i = 0; i < NSETUPS; i++) {
        snprintf(body, sizeof body, "{%s,\"players\":%s}", setups[i], names2);
        struct game g;
        NEW_GAME(&g, body);
        for (int k = 0; k < 3; k++) CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "%s", why);
        /* The seat not to move resigns: the seat to move wins at once. */
        cJSON *j = game_get(srv, &g);
        int seat = (int)jnum(j, "turn.seat");
        cJSON_Delete(j);
        struct resp r;
        post(srv, g.id, "resign", g.auth[1 - seat], "", &r);
        long st = r.status;
        int fin = count_type(jget(r.json, "events"), "game_finished");
        int scored = count_type(jget(r.json, "events"), "final_scored");
        resp_free(&r);
        CHECK(st == 200 && fin == 1 && scored == 1, "%s: %ld, %d game_finished", setups[i], st,
              fin);
        j = game_get(srv, &g);
        int ok = strcmp(jstr(j, "status"), "finished") == 0 &&
                 strcmp(jstr(j, "result"), "resignation") == 0;
        cJSON_Delete(j);
        CHECK(ok, "%s: the state is not finished by resignation", setups[i]);
        snprintf(body, sizeof body, "/v1/games/%s/scores", g.id);
        http(srv, "GET", body, NULL, NULL, &r);
        unsigned w = winners(r.json);
        resp_free(&r);
        CHECK(w == 1u << seat, "%s: winners %#x, want seat %d", setups[i], w, seat);
    }
}

/* A normal end has result completed, in the state, the event and the row. */
ITEST(test_resign_completed, "resign: a normal end has result completed")
{
    char why[300];
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"start\":\"D\","
                 "\"deck\":[\"K\",\"D\",\"E\"]}");
    int rc = 0;
    for (int k = 0; k < 10 && rc == 0; k++) rc = play_turn(srv, &g, 1, why, sizeof why);
    CHECK(rc == 1, "not finished: %s", why);
    cJSON *j = game_get(srv, &g);
    int ok = strcmp(jstr(j, "result"), "completed") == 0;
    cJSON_Delete(j);
    CHECK(ok, "the state has no result completed");
    cJSON *evs = game_events(srv, g.id);
    const cJSON *fin = cJSON_GetArrayItem(evs, cJSON_GetArraySize(evs) - 1);
    ok = strcmp(jstr(fin, "result"), "completed") == 0;
    cJSON_Delete(evs);
    CHECK(ok, "game_finished has no result completed");
    CHECK(db_scalar_id("SELECT count(*) FROM games WHERE id = $1::uuid AND result = "
                       "'completed'",
                       g.id) == 1,
          "games.result is not completed");
}

/* Every refusal of a resignation with its code; the stored game unchanged by each. */
ITEST(test_resign_refusals, "resign: every refusal with its code, the stored game unchanged")
{
    char why[300];
    struct game g, other;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"}],\"seed\":1}");
    NEW_GAME(&other, "{\"players\":[{\"name\":\"X\"},{\"name\":\"Y\"}],\"seed\":2}");
    CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "%s", why);
    struct resp r;
    post(srv, g.id, "resign", g.auth[2], NULL, &r);
    CHECK(r.status == 200, "resign: %ld", r.status);
    resp_free(&r);
    struct db_game before;
    CHECK(db_game_read(g.id, &before, why, sizeof why) == 0, "%s", why);
    struct {
        const char *auth, *body;
        long status;
        const char *code;
    } cases[] = {
        {NULL, NULL, 401, "missing_token"},
        {"Authorization: Bearer nope", NULL, 401, "unknown_token"},
        {other.auth[0], NULL, 401, "unknown_token"}, /* a seat of another game */
        {g.auth[2], NULL, 409, "already_resigned"},
        {g.auth[0], "{\"seat\":1}", 400, "unknown_field"},
        {g.auth[0], "[]", 400, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        post(srv, g.id, "resign", cases[i].auth, cases[i].body, &r);
        char code[64];
        long st = resp_done(&r, code, sizeof code);
        CHECK(st == cases[i].status && (!cases[i].code || strcmp(code, cases[i].code) == 0),
              "case %zu: %ld %s, want %ld %s", i, st, code, cases[i].status,
              cases[i].code ? cases[i].code : "");
        CHECK(unchanged(g.id, &before), "case %zu changed the stored game", i);
    }
    /* If-Match of an older version: 412, nothing. */
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/resign", g.id);
    const char *h[] = {g.auth[0], "If-Match: \"1\"", NULL};
    http(srv, "POST", path, NULL, h, &r);
    long st = r.status;
    resp_free(&r);
    CHECK(st == 412, "If-Match: %ld", st);
    CHECK(unchanged(g.id, &before), "If-Match changed the stored game");
    /* No such game: 404. */
    post(srv, "00000000-0000-4000-8000-000000000000", "resign", g.auth[0], NULL, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 404, "no such game: %ld", st);
    db_game_free(&before);
    /* Finished: 409 game_not_active for everybody, nothing changes. */
    post(srv, g.id, "resign", g.auth[0], NULL, &r);
    CHECK(r.status == 200, "resign: %ld", r.status);
    resp_free(&r);
    CHECK(db_game_read(g.id, &before, why, sizeof why) == 0, "%s", why);
    for (int s = 0; s < 3; s++) {
        post(srv, g.id, "resign", g.auth[s], NULL, &r);
        st = r.status;
        int code_ok = strcmp(problem_code(&r), "game_not_active") == 0;
        resp_free(&r);
        CHECK(st == 409 && code_ok, "seat %d of a finished game: %ld", s, st);
        CHECK(unchanged(g.id, &before), "a refusal changed the finished game");
    }
    db_game_free(&before);
}

/* Creates a player; its "Authorization: Bearer" line into auth. 0 or -1. */
static int person(const struct server *srv, const char *name, char *auth, size_t cap)
{
    char body[64];
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    struct resp r;
    http(srv, "POST", "/v1/players", body, NULL, &r);
    int ok = r.status == 201;
    if (ok) snprintf(auth, cap, "Authorization: Bearer %s", jstr(r.json, "token"));
    resp_free(&r);
    return ok ? 0 : -1;
}

ITEST(test_rematch,
      "rematch: every seat at once on two servers, one next game, rotated, tokens once")
{
    char why[300], ann[160];
    CHECK(person(srv, "Ann", ann, sizeof ann) == 0, "no player");
    /* Seat 0 bound to Ann (her player token), seats 1 and 2 named, with a custom deck. */
    const char *hc[] = {ann, NULL};
    struct game g;
    CHECK(game_new_as(srv,
                      "{\"ruleset\":\"hills\",\"players\":[{\"player\":\"me\"},{\"name\":\"Bob\"},{"
                      "\"name\":\"Cy\"}],\"start\":\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\",\"V\"]}",
                      hc, &g, why, sizeof why) == 0,
          "%s", why);
    snprintf(g.auth[0], sizeof g.auth[0], "%s", ann); /* the bound seat acts by her token */
    struct resp r;
    /* Not finished: 409 game_not_finished, no game made. */
    post(srv, g.id, "rematch", g.auth[1], NULL, &r);
    long st = r.status;
    int code_ok = strcmp(problem_code(&r), "game_not_finished") == 0;
    resp_free(&r);
    CHECK(st == 409 && code_ok, "rematch of an active game: %ld", st);
    CHECK(db_scalar_id("SELECT count(*) FROM games WHERE rematch_of = $1::uuid", g.id) == 0,
          "a rematch of an active game was stored");
    CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "%s", why);
    post(srv, g.id, "resign", g.auth[1], NULL, &r);
    resp_free(&r);
    post(srv, g.id, "resign", g.auth[2], NULL, &r);
    CHECK(r.status == 200, "resign: %ld", r.status);
    resp_free(&r);
    /* A stranger's token: 401, no game. */
    post(srv, g.id, "rematch", "Authorization: Bearer nope", NULL, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 401, "a stranger's rematch: %ld", st);
    /* Every seat asks at once, twice each, on two servers. */
    struct server two;
    CHECK(hard_server_start(&two, NULL, 0) == 0, "the second server did not start");
    enum { N = 6 };
    static struct hard_racer a[N];
    for (int i = 0; i < N; i++) {
        memset(&a[i], 0, sizeof a[i]);
        a[i].srv = i % 2 ? &two : srv;
        a[i].via = VIA_DIRECT;
        snprintf(a[i].path, sizeof a[i].path, "/v1/games/%s/rematch", g.id);
        a[i].h[0] = g.auth[i % 3];
    }
    hard_together(a, N);
    char next[64] = "", tokens[3][64] = {"", "", ""};
    int created = 0, bad = -1, mismatch = 0, seat_wrong = 0, twice = 0;
    for (int i = 0; i < N; i++) {
        if (a[i].r.status != 200 && a[i].r.status != 201) bad = i;
        created += a[i].r.status == 201;
        const char *id = jstr(a[i].r.json, "id");
        if (!next[0]) snprintf(next, sizeof next, "%s", id);
        mismatch |= strcmp(next, id) != 0;
        int old = i % 3, ns = (old + 2) % 3;
        seat_wrong |= jnum(a[i].r.json, "seat") != ns;
        const char *tok = jstr(a[i].r.json, "token");
        if (tok[0]) {
            twice |= tokens[ns][0] != '\0' || old == 0; /* bound seat 0 gets none */
            snprintf(tokens[ns], sizeof tokens[ns], "%s", tok);
        }
    }
    char first_bad[300] = "";
    if (bad >= 0)
        snprintf(first_bad, sizeof first_bad, "%ld %.200s", a[bad].r.status, a[bad].r.body);
    for (int i = 0; i < N; i++) resp_free(&a[i].r);
    int code = hard_server_stop(&two);
    CHECK(bad < 0, "a rematch answered %s", first_bad);
    CHECK(created == 1 && !mismatch, "%d answers 201, ids differ %d", created, mismatch);
    CHECK(!seat_wrong && !twice, "seats wrong %d, a token twice or to a bound seat %d", seat_wrong,
          twice);
    CHECK(token_shape(tokens[0]) && token_shape(tokens[1]) && !tokens[2][0],
          "tokens of the new seats: '%s' '%s' '%s'", tokens[0], tokens[1], tokens[2]);
    CHECK(db_scalar_id("SELECT count(*) FROM games WHERE rematch_of = $1::uuid", g.id) == 1,
          "not one stored rematch");
    CHECK(code == 0, "the second server exited with %d", code);
    /* The next game: rotated seats, same ruleset and deck, a new game under way. */
    struct game n;
    memset(&n, 0, sizeof n);
    snprintf(n.id, sizeof n.id, "%s", next);
    n.nplayers = 3;
    snprintf(n.auth[0], sizeof n.auth[0], "Authorization: Bearer %s", tokens[0]);
    snprintf(n.auth[1], sizeof n.auth[1], "Authorization: Bearer %s", tokens[1]);
    snprintf(n.auth[2], sizeof n.auth[2], "%s", ann);
    cJSON *j = game_get(srv, &n);
    CHECK(j, "GET the next game");
    int same = strcmp(jstr(j, "ruleset"), "hills") == 0 &&
               strcmp(jstr(j, "status"), "active") == 0 &&
               strcmp(jstr(j, "players.0.name"), "Bob") == 0 &&
               strcmp(jstr(j, "players.1.name"), "Cy") == 0 &&
               strcmp(jstr(j, "players.2.name"), "Ann") == 0 && jnum(j, "deck_remaining") == 5;
    cJSON_Delete(j);
    CHECK(same, "the next game is not the rotated same game");
    /* Each new token and Ann's player token act in it: a whole round of turns. */
    for (int k = 0; k < 3; k++)
        CHECK(play_turn(srv, &n, 1, why, sizeof why) == 0, "next game: %s", why);
    /* Asking again: the same game, no token. */
    post(srv, g.id, "rematch", g.auth[1], NULL, &r);
    st = r.status;
    int again = strcmp(jstr(r.json, "id"), next) == 0 && !jget(r.json, "token");
    resp_free(&r);
    CHECK(st == 200 && again, "asking again: %ld", st);
    /* The old seat tokens do nothing in the next game. */
    post(srv, n.id, "resign", g.auth[1], NULL, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 401, "an old token in the next game: %ld", st);
}

/* A named seat claims its token after a server cached the next game: the token works on
 * that server at once. */
ITEST(test_rematch_cached, "rematch: a token claimed after the next game was cached works at once")
{
    char why[300];
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"seed\":9}");
    CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "%s", why);
    struct resp r;
    post(srv, g.id, "resign", g.auth[0], NULL, &r);
    resp_free(&r);
    post(srv, g.id, "rematch", g.auth[1], NULL, &r);
    CHECK(r.status == 201, "rematch: %ld %.200s", r.status, r.body);
    struct game n;
    memset(&n, 0, sizeof n);
    snprintf(n.id, sizeof n.id, "%s", jstr(r.json, "id"));
    snprintf(n.auth[0], sizeof n.auth[0], "Authorization: Bearer %s", jstr(r.json, "token"));
    resp_free(&r);
    /* The new seat 0 (B) moves first; a GET caches the game with A's seat unclaimed. */
    cJSON *j = game_get(srv, &n);
    int first = strcmp(jstr(j, "players.0.name"), "B") == 0 && jnum(j, "turn.seat") == 0;
    cJSON_Delete(j);
    CHECK(first, "B is not seat 0 to move");
    CHECK(play_turn(srv, &n, 1, why, sizeof why) == 0, "B's turn: %s", why);
    post(srv, g.id, "rematch", g.auth[0], NULL, &r);
    CHECK(r.status == 200 && jnum(r.json, "seat") == 1, "A's rematch: %ld", r.status);
    snprintf(n.auth[1], sizeof n.auth[1], "Authorization: Bearer %s", jstr(r.json, "token"));
    resp_free(&r);
    CHECK(play_turn(srv, &n, 1, why, sizeof why) == 0, "A's turn with the claimed token: %s", why);
}
