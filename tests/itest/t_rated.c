/* t_rated.c: rated games (issue 25): "rated": true at creation with the contract's set-up
 * rules (every refusal: 400 unrated_setup naming what is missing, nothing stored), a join by
 * name refused, hints refused (403 hints_disabled); the update committed with the game's end
 * (resignation, completion by computer players rated per level and think class), shown in
 * game_finished, the player's own list of games, the public list of finished games (paged by
 * signed cursors), the profile and history; a rematch rated again; two servers ending games
 * of the same players at once (each game rated once, every rating's history a chain); a
 * server killed with -9 while rated games end (each ended game rated once, none twice). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

/* A clock for rated games (a day a turn: nothing times out during a test). */
#define RATED_CLOCK "\"clock\":{\"turn_seconds\":86400}"

/* POST `path` with `body` and header line `auth` (may be NULL): the status, the problem code
 * (or "") into code[64], the answer's JSON (caller deletes) into *json unless NULL. */
static long post_as(const struct server *srv, const char *path, const char *body, const char *auth,
                    char code[64], cJSON **json)
{
    const char *h[2] = {auth, NULL};
    struct resp r;
    http(srv, "POST", path, body, auth ? h : NULL, &r);
    long st = r.status;
    snprintf(code, 64, "%s", r.json && st >= 400 ? jstr(r.json, "code") : "");
    if (json) {
        *json = r.json;
        r.json = NULL;
    }
    resp_free(&r);
    return st;
}

/* The games stored now. */
static long games_count(void)
{
    return db_scalar("SELECT count(*) FROM games");
}

/*
 * A rated 2-seat game of `a` (seat 0, {"player": "me"}) and `b` (the open seat 1, joined with
 * its player token), made on `srv` into id[64]. 0, or -1 with why.
 */
static int rated_pair(const struct server *srv, const struct person *a, const struct person *b,
                      char id[64], char *why, size_t cap)
{
    char code[64], path[160], body[160];
    cJSON *j = NULL;
    long st = post_as(
        srv, "/v1/games",
        "{\"rated\":true,\"players\":[{\"player\":\"me\"},{\"open\":true}]," RATED_CLOCK "}",
        a->auth, code, &j);
    if (st != 201) {
        snprintf(why, cap, "create: %ld %s", st, code);
        cJSON_Delete(j);
        return -1;
    }
    snprintf(id, 64, "%s", jstr(j, "id"));
    snprintf(body, sizeof body, "{\"invite\":\"%s\"}", jstr(j, "players.1.invite"));
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    st = post_as(srv, path, body, b->auth, code, NULL);
    if (st != 200) {
        snprintf(why, cap, "join: %ld %s", st, code);
        return -1;
    }
    return 0;
}

/* POST /v1/games/{id}/resign as `auth`: the status. */
static long resign(const struct server *srv, const char *id, const char *auth)
{
    char path[160], code[64];
    snprintf(path, sizeof path, "/v1/games/%s/resign", id);
    return post_as(srv, path, NULL, auth, code, NULL);
}

/* The rating_history rows of game `id`. */
static long history_rows(const char *id)
{
    const char *v[1] = {id};
    return db_scalar_params("SELECT count(*) FROM rating_history WHERE game_id = $1::uuid", 1, v);
}

/* 1 when every history of subjects in pool `pool` is a chain: each point's rating before is
 * the rating after of the point before it (no update lost, none applied on a stale row). */
static long broken_chains(void)
{
    return db_scalar(
        "SELECT count(*) FROM (SELECT rating_before, lag(rating_after) OVER (PARTITION "
        "BY subject, pool ORDER BY rated_at, game_id) AS prev FROM rating_history) x "
        "WHERE prev IS NOT NULL AND prev <> rating_before");
}

ITEST(test_rated_refusals, "rated: every set-up refused with unrated_setup, nothing stored")
{
    struct person a;
    char why[300], code[64];
    CHECK(person_new(srv, "Ann", &a, why, sizeof why) == 0, "%s", why);
    static const struct {
        const char *body; /* the create body's members after "rated": true */
        const char *says; /* what the detail must name */
    } cases[] = {
        {"\"players\":[{\"player\":\"me\"},{\"name\":\"Bob\"}]," RATED_CLOCK, "players[1]"},
        {"\"players\":[{\"player\":\"me\"},{\"open\":true}],\"seed\":7," RATED_CLOCK, "\"seed\""},
        {"\"players\":[{\"player\":\"me\"},{\"open\":true}],\"deck\":[\"K\",\"D\"]," RATED_CLOCK,
         "\"deck\""},
        {"\"players\":[{\"player\":\"me\"},{\"open\":true}],\"start\":\"D\"," RATED_CLOCK,
         "\"start\""},
        {"\"players\":[{\"player\":\"me\"},{\"open\":true}],\"hints\":true," RATED_CLOCK, "hints"},
        {"\"players\":[{\"player\":\"me\"},{\"open\":true}]", "clock"},
        {"\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"seed\":1", "clock"},
        /* Two computer players of one level and think class are one rating: 50 and 80 ms
         * are both "fast". */
        {"\"players\":[{\"player\":\"me\"},{\"bot\":\"greedy\",\"think_ms\":50},{\"bot\":"
         "\"greedy\",\"think_ms\":80}]," RATED_CLOCK,
         "players[1] and players[2] are both the greedy computer player of think class fast"},
        {"\"players\":[{\"bot\":\"random\"},{\"player\":\"me\"},{\"bot\":\"random\"}]," RATED_CLOCK,
         "players[0] and players[2]"},
    };
    long before = games_count();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[400];
        snprintf(body, sizeof body, "{\"rated\":true,%s}", cases[i].body);
        cJSON *j = NULL;
        long st = post_as(srv, "/v1/games", body, a.auth, code, &j);
        const char *detail = j ? jstr(j, "detail") : "";
        int ok = st == 400 && strcmp(code, "unrated_setup") == 0 && strstr(detail, cases[i].says);
        char seen[300];
        snprintf(seen, sizeof seen, "%s", detail);
        cJSON_Delete(j);
        CHECK(ok, "case %zu: %ld %s \"%s\" (should name %s)", i, st, code, seen, cases[i].says);
    }
    /* The last case names each of the three missing things. */
    cJSON *j = NULL;
    post_as(srv, "/v1/games",
            "{\"rated\":true,\"players\":[{\"name\":\"A\"},{\"bot\":\"random\"}],\"seed\":1}", NULL,
            code, &j);
    const char *d = j ? jstr(j, "detail") : "";
    int all = strstr(d, "players[0]") && strstr(d, "\"seed\"") && strstr(d, "clock");
    cJSON_Delete(j);
    CHECK(all, "one detail names every missing thing");
    CHECK(post_as(srv, "/v1/games", "{\"rated\":1,\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}",
                  NULL, code, NULL) == 400 &&
              strcmp(code, "invalid_body") == 0,
          "rated not a boolean: %s", code);
    CHECK(games_count() == before, "a refused creation stored a game");

    /* Accepted: a seat of a player, a computer player, "hints": false; shown rated. */
    j = NULL;
    long st = post_as(srv, "/v1/games",
                      "{\"rated\":true,\"hints\":false,\"players\":[{\"player\":\"me\"},{\"open\":"
                      "true}]," RATED_CLOCK "}",
                      a.auth, code, &j);
    CHECK(st == 201 && cJSON_IsTrue(jget(j, "rated")) && cJSON_IsFalse(jget(j, "hints")) &&
              cJSON_IsFalse(jget(j, "seed_chosen")),
          "rated creation: %ld %s", st, code);
    char id[64], path[160], body[160];
    snprintf(id, sizeof id, "%s", jstr(j, "id"));
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"Bob\"}",
             jstr(j, "players.1.invite"));
    cJSON_Delete(j);
    /* An open seat of a rated game is taken with a player token, never a name. */
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    st = post_as(srv, path, body, NULL, code, NULL);
    CHECK(st == 400 && strcmp(code, "unrated_setup") == 0, "join by name: %ld %s", st, code);
    const char *v[1] = {id};
    CHECK(db_scalar_params("SELECT count(*) FROM players WHERE game_id = $1::uuid AND "
                           "invite_hash IS NOT NULL",
                           1, v) == 1,
          "the refused join took the seat");
    /* One level in two think classes is two ratings: accepted. */
    j = NULL;
    st = post_as(srv, "/v1/games",
                 "{\"rated\":true,\"players\":[{\"player\":\"me\"},{\"bot\":\"greedy\",\"think_"
                 "ms\":50},{\"bot\":\"greedy\",\"think_ms\":500}]," RATED_CLOCK "}",
                 a.auth, code, &j);
    CHECK(st == 201 && cJSON_IsTrue(jget(j, "rated")), "greedy fast and normal: %ld %s", st, code);
    cJSON_Delete(j);
    /* Two computer players of one level and class at an unrated table are fine. */
    j = NULL;
    st = post_as(srv, "/v1/games",
                 "{\"players\":[{\"name\":\"A\"},{\"bot\":\"random\"},{\"bot\":\"random\"}]}", NULL,
                 code, &j);
    CHECK(st == 201, "unrated twin computer players: %ld %s", st, code);
    cJSON_Delete(j);
    /* An unrated game is unrated. */
    j = NULL;
    st = post_as(srv, "/v1/games", "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}", NULL, code,
                 &j);
    CHECK(st == 201 && cJSON_IsFalse(jget(j, "rated")), "unrated by default");
    cJSON_Delete(j);
}

ITEST(test_rated_resign,
      "rated: a resignation rates both seats once; event, lists, profile, history, rematch")
{
    struct person a, b;
    char why[300], id[64], path[400], code[64];
    CHECK(person_new(srv, "Ann", &a, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Bob", &b, why, sizeof why) == 0, "%s", why);
    CHECK(rated_pair(srv, &a, &b, id, why, sizeof why) == 0, "%s", why);
    snprintf(path, sizeof path, "/v1/games/%s", id);
    cJSON *j = get_json(srv, path);
    CHECK(j && cJSON_IsTrue(jget(j, "rated")) && strcmp(jstr(j, "status"), "active") == 0,
          "the state shows rated");
    /* Each seat's player; new players have no rating in the pool yet (none shown). */
    int seats_ok = j && strcmp(jstr(j, "players.0.player_id"), a.id) == 0 &&
                   strcmp(jstr(j, "players.1.player_id"), b.id) == 0 &&
                   !jget(j, "players.0.rating") && !jget(j, "players.1.rating");
    char *state = j ? cJSON_PrintUnformatted(jget(j, "players")) : NULL;
    cJSON_Delete(j);
    CHECK(seats_ok, "the seats' players and ratings: %.400s", state ? state : "");
    cJSON_free(state);
    /* No hints in a rated game. */
    snprintf(path, sizeof path, "/v1/games/%s/hint", id);
    const char *h[2] = {a.auth, NULL};
    struct resp r;
    http(srv, "GET", path, NULL, h, &r);
    CHECK(r.status == 403 && strcmp(problem_code(&r), "hints_disabled") == 0, "hint: %ld",
          r.status);
    resp_free(&r);
    CHECK(history_rows(id) == 0, "rated before its end");

    /* Ann resigns (with an Idempotency-Key): the answer's game_finished has the ratings,
     * and a repeat of the key gets the same answer, byte for byte. */
    snprintf(path, sizeof path, "/v1/games/%s/resign", id);
    const char *hk[3] = {a.auth, "Idempotency-Key: rated-resign-1", NULL};
    struct resp r1, r2;
    http(srv, "POST", path, NULL, hk, &r1);
    http(srv, "POST", path, NULL, hk, &r2);
    int same = r1.status == 200 && r2.status == 200 && r1.body && r2.body &&
               strcmp(r1.body, r2.body) == 0 && strstr(r1.body, "\"ratings\":[{\"seat\":0");
    char first[200];
    snprintf(first, sizeof first, "%.199s", r1.body ? r1.body : "");
    resp_free(&r1);
    resp_free(&r2);
    CHECK(same, "the resignation's answer and its repeat: %s", first);
    CHECK(history_rows(id) == 2, "two rows of history");
    /* A second resignation changes nothing. */
    CHECK(resign(srv, id, b.auth) == 409, "resign after the end");
    CHECK(history_rows(id) == 2, "still two rows");

    /* game_finished carries each seat's rating before and after. */
    cJSON *ev = game_events(srv, id);
    CHECK(ev, "events");
    const cJSON *fin = NULL, *e;
    cJSON_ArrayForEach(e, ev) if (strcmp(jstr(e, "type"), "game_finished") == 0) fin = e;
    int ok =
        fin && jnum(fin, "ratings.0.seat") == 0 &&
        strcmp(jstr(fin, "ratings.0.player_id"), a.id) == 0 && jnum(fin, "ratings.0.place") == 2 &&
        jnum(fin, "ratings.1.place") == 1 && jnum(fin, "ratings.0.before.rating") == 1500 &&
        jnum(fin, "ratings.0.before.deviation") == 350 &&
        jnum(fin, "ratings.0.after.rating") < 1500 && jnum(fin, "ratings.1.after.rating") > 1500 &&
        jnum(fin, "ratings.1.after.deviation") < 350 && cJSON_IsNull(jget(fin, "ratings.1.bot"));
    char *text = fin ? cJSON_PrintUnformatted(fin) : NULL;
    int after0 = (int)jnum(fin, "ratings.0.after.rating"),
        after1 = (int)jnum(fin, "ratings.1.after.rating");
    cJSON_Delete(ev);
    CHECK(ok, "game_finished: %.400s", text ? text : "(none)");
    cJSON_free(text);

    /* The profile and the history. */
    snprintf(path, sizeof path, "/v1/players/%s", b.id);
    j = get_json(srv, path);
    CHECK(j && jnum(j, "ratings.classic.rating") == after1 && jnum(j, "ratings.classic.won") == 1 &&
              jnum(j, "ratings.classic.games") == 1,
          "Bob's profile");
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/v1/players/%s/ratings/classic", a.id);
    j = get_json(srv, path);
    CHECK(j && cJSON_GetArraySize(jget(j, "history")) == 1 &&
              strcmp(jstr(j, "history.0.game_id"), id) == 0 &&
              jnum(j, "history.0.rating_after") == after0 && jnum(j, "rating.lost") == 1,
          "Ann's history");
    cJSON_Delete(j);

    /* The player's own list shows the ratings of the seats. */
    http(srv, "GET", "/v1/players/me/games?status=finished", NULL, h, &r);
    ok = r.status == 200 && cJSON_IsTrue(jget(r.json, "games.0.rated")) &&
         strcmp(jstr(r.json, "games.0.id"), id) == 0 &&
         jnum(r.json, "games.0.players.0.rating_before") == 1500 &&
         jnum(r.json, "games.0.players.0.rating_after") == after0 &&
         jnum(r.json, "games.0.players.1.rating_after") == after1;
    resp_free(&r);
    CHECK(ok, "my games shows the ratings");

    /* A rematch is rated too; it ends by the other resigning. */
    char next[64];
    cJSON *m = NULL;
    snprintf(path, sizeof path, "/v1/games/%s/rematch", id);
    long st = post_as(srv, path, NULL, b.auth, code, &m);
    CHECK(st == 200 || st == 201, "rematch: %ld %s", st, code);
    snprintf(next, sizeof next, "%s", jstr(m, "id"));
    cJSON_Delete(m);
    snprintf(path, sizeof path, "/v1/games/%s", next);
    j = get_json(srv, path);
    /* The rematch's seats (turned: Bob first) show the ratings the first game left. */
    CHECK(j && cJSON_IsTrue(jget(j, "rated")) && jnum(j, "players.0.rating.rating") == after1 &&
              jnum(j, "players.1.rating.rating") == after0 &&
              strcmp(jstr(j, "players.0.player_id"), b.id) == 0 &&
              jnum(j, "players.0.rating.games") == 1 && jnum(j, "players.0.rating.deviation") < 350,
          "the rematch is rated, its seats' ratings those after the first game");
    cJSON_Delete(j);
    /* A new game whose open seat Bob joins: the join reads his rating for the state. */
    char third[64];
    CHECK(rated_pair(srv, &a, &b, third, why, sizeof why) == 0, "%s", why);
    snprintf(path, sizeof path, "/v1/games/%s", third);
    j = get_json(srv, path);
    CHECK(j && jnum(j, "players.0.rating.rating") == after0 &&
              jnum(j, "players.1.rating.rating") == after1 &&
              strcmp(jstr(j, "players.1.player_id"), b.id) == 0,
          "the joined seat's rating");
    cJSON_Delete(j); /* (left running: the lists below see the finished games) */
    CHECK(resign(srv, next, b.auth) == 200, "Bob resigns the rematch");
    CHECK(history_rows(next) == 2, "the rematch rated");
    CHECK(broken_chains() == 0, "a history is not a chain");

    /* The public list of Ann's finished games: newest first, paged by signed cursors. */
    snprintf(path, sizeof path, "/v1/players/%s/games?status=finished&limit=1", a.id);
    j = get_json(srv, path);
    CHECK(j && strcmp(jstr(j, "name"), "Ann") == 0 && cJSON_GetArraySize(jget(j, "games")) == 1 &&
              strcmp(jstr(j, "games.0.id"), next) == 0 && *jstr(j, "next_cursor"),
          "public list page 1");
    char cursor[256];
    snprintf(cursor, sizeof cursor, "%s", jstr(j, "next_cursor"));
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/v1/players/%s/games?limit=1&cursor=%s", a.id, cursor);
    j = get_json(srv, path);
    CHECK(j && cJSON_GetArraySize(jget(j, "games")) == 1 &&
              strcmp(jstr(j, "games.0.id"), id) == 0 && cJSON_IsNull(jget(j, "next_cursor")) &&
              jnum(j, "games.0.players.1.rating_after") == after1,
          "public list page 2");
    cJSON_Delete(j);
    /* Refusals: another player's cursor, another status, an unknown player. */
    snprintf(path, sizeof path, "/v1/players/%s/games?limit=1&cursor=%s", b.id, cursor);
    http(srv, "GET", path, NULL, NULL, &r);
    CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0,
          "a cursor of another player's list: %ld", r.status);
    resp_free(&r);
    snprintf(path, sizeof path, "/v1/players/%s/games?status=active", a.id);
    http(srv, "GET", path, NULL, NULL, &r);
    CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0,
          "status=active: %ld", r.status);
    resp_free(&r);
    expect_not_found(srv, "/v1/players/aaaaaaaa-0000-4000-8000-00000000000f/games");
}

/* Waits up to `ms` for game `id` to be finished: 0, or -1. */
static int wait_finished(const char *id, int ms)
{
    const char *v[1] = {id};
    for (int t = 0; t < ms; t += 50) {
        if (db_scalar_params("SELECT count(*) FROM games WHERE id = $1::uuid AND status = "
                             "'finished'",
                             1, v) == 1)
            return 0;
        usleep(50000);
    }
    return -1;
}

ITEST(test_rated_bots, "rated: computer players rated per level and think class, a full game")
{
    char code[64], id[64];
    cJSON *j = NULL;
    long st = post_as(srv, "/v1/games",
                      "{\"rated\":true,\"players\":[{\"bot\":\"random\",\"think_ms\":10},{\"bot\":"
                      "\"greedy\",\"think_ms\":150}]," RATED_CLOCK "}",
                      NULL, code, &j);
    CHECK(st == 201, "create: %ld %s", st, code);
    snprintf(id, sizeof id, "%s", jstr(j, "id"));
    cJSON_Delete(j);
    CHECK(wait_finished(id, 60000) == 0, "the computer players did not finish");
    CHECK(history_rows(id) == 2, "rated once");
    const char *v[1] = {id};
    CHECK(db_scalar_params("SELECT count(*) FROM rating_history WHERE game_id = $1::uuid AND "
                           "subject IN ('bot:random:fast', 'bot:greedy:normal')",
                           1, v) == 2,
          "the subjects are level and think class");
    j = get_json(srv, "/v1/bots");
    CHECK(j, "GET /v1/bots");
    int found = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, jget(j, "bots"))
    {
        if (strcmp(jstr(b, "level"), "greedy") == 0 &&
            strcmp(jstr(b, "think_class"), "normal") == 0)
            found = jnum(b, "ratings.classic.games") >= 1;
    }
    cJSON_Delete(j);
    CHECK(found, "greedy/normal rated in classic");
    /* The finished game's state: computer players have no player id, and a rating in the
     * pool each (the one their game left, as read with the state). */
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", id);
    j = get_json(srv, path);
    long greedy = db_scalar("SELECT games FROM ratings WHERE subject = 'bot:greedy:normal' AND "
                            "pool = 'classic'");
    CHECK(j && !jget(j, "players.1.player_id") && jnum(j, "players.1.rating.games") == greedy &&
              jnum(j, "players.0.rating.games") >= 1,
          "the computer players' ratings in the state");
    cJSON_Delete(j);
}

/* One thread of test_rated_two_servers: resigns its games on its server. */
struct ender {
    const struct server *srv; /* where it sends */
    char (*ids)[64];          /* the games */
    int n;                    /* how many */
    const char *auth;         /* the resigning player */
    int failed;               /* resignations not answered 200 */
};

static void *end_games(void *arg)
{
    struct ender *e = arg;
    for (int i = 0; i < e->n; i++) e->failed += resign(e->srv, e->ids[i], e->auth) != 200;
    return NULL;
}

ITEST(test_rated_two_servers,
      "rated: two servers ending games of the same players at once, each rated once")
{
    enum { GAMES = 12 };
    struct server y = {0};
    struct person a, b;
    char why[300];
    static char ids[GAMES][64];
    CHECK(person_new(srv, "Ann", &a, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Bob", &b, why, sizeof why) == 0, "%s", why);
    for (int i = 0; i < GAMES; i++)
        CHECK(rated_pair(srv, &a, &b, ids[i], why, sizeof why) == 0, "%s", why);
    CHECK(hard_server_start(&y, NULL, 0) == 0, "the second server did not start");
    /* Half of the games ended by Ann through one server, half by Bob through the other, at
     * once: every end locks both ratings. */
    struct ender e[2] = {{srv, ids, GAMES / 2, a.auth, 0},
                         {&y, ids + GAMES / 2, GAMES / 2, b.auth, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, end_games, &e[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    (void)hard_server_stop(&y);
    CHECK(e[0].failed == 0 && e[1].failed == 0, "resignations failed: %d, %d", e[0].failed,
          e[1].failed);
    for (int i = 0; i < GAMES; i++)
        CHECK(history_rows(ids[i]) == 2, "game %d rated %ld rows", i, history_rows(ids[i]));
    const char *v[1] = {a.id};
    CHECK(db_scalar_params("SELECT games FROM ratings WHERE subject = $1 AND pool = 'classic'", 1,
                           v) == GAMES,
          "Ann's games counted once each");
    CHECK(broken_chains() == 0, "a history is not a chain: an update was lost or doubled");
}

ITEST(test_rated_kill9,
      "rated: a server killed (-9) while rated games end, each ended game rated once")
{
    enum { GAMES = 6 };
    struct server x = {0};
    char ids[GAMES][64], code[64];
    CHECK(hard_server_start(&x, NULL, 0) == 0, "the server to kill did not start");
#define ENDED "SELECT count(*) FROM games WHERE rated AND status = 'finished'"
    long ended_before = db_scalar(ENDED);
    /* srv paused: x alone plays the computer players until it is killed mid-game. */
    kill(srv->pid, SIGSTOP);
    int made = 0;
    for (int i = 0; i < GAMES; i++) {
        cJSON *j = NULL;
        if (post_as(&x, "/v1/games",
                    "{\"rated\":true,\"players\":[{\"bot\":\"random\",\"think_ms\":10},{\"bot\":"
                    "\"greedy\",\"think_ms\":10}]," RATED_CLOCK "}",
                    NULL, code, &j) == 201)
            snprintf(ids[made++], sizeof ids[0], "%s", jstr(j, "id"));
        cJSON_Delete(j);
    }
    /* Killed as soon as the first of them has ended: the others end meanwhile or later. */
    for (int t = 0; t < 600 && db_scalar(ENDED) == ended_before; t++) usleep(10000);
    hard_server_kill(&x);
    long ended = db_scalar(ENDED) - ended_before;
    kill(srv->pid, SIGCONT);
    CHECK(made == GAMES, "created %d of %d", made, GAMES);
    for (int i = 0; i < GAMES; i++)
        CHECK(wait_finished(ids[i], 90000) == 0, "game %d unfinished", i);
    printf("  %ld of %d rated games had ended when the server was killed\n", ended, GAMES);
    for (int i = 0; i < GAMES; i++)
        CHECK(history_rows(ids[i]) == 2, "game %d: %ld rows", i, history_rows(ids[i]));
    CHECK(db_scalar("SELECT count(*) FROM games g WHERE g.rated AND g.status = 'finished' AND "
                    "(SELECT count(*) FROM rating_history h WHERE h.game_id = g.id) <> "
                    "(SELECT count(*) FROM players p WHERE p.game_id = g.id)") == 0,
          "a finished rated game without its ratings");
    CHECK(broken_chains() == 0, "a history is not a chain");
}
