/* t_bots.c: computer players' seats (issue 13): against a person, on their own, a server
 * killed while they play, the lease of a claimed turn, refused specs, hints, and the hard
 * level. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

/*
 * Waits (up to `limit_ms`) until game `g` is finished, or (seat >= 0) until it is seat
 * `seat`'s turn. Returns the status text's first letter ('f' finished, 'a' active) with the
 * game's JSON in *out (caller deletes), or 0 on timeout/failure.
 */
static int wait_turn(const struct server *srv, const struct game *g, int seat, long limit_ms,
                     cJSON **out)
{
    long long end = hard_now_ms() + limit_ms;
    *out = NULL;
    while (hard_now_ms() < end) {
        cJSON *j = game_get(srv, g);
        if (j) {
            const char *st = jstr(j, "status");
            if (strcmp(st, "finished") == 0 || (seat >= 0 && jnum(j, "turn.seat") == seat)) {
                *out = j;
                return st[0];
            }
            cJSON_Delete(j);
        }
        usleep(3000);
    }
    return 0;
}

/* The check every bot game ends with: a sound log (db_log_sound) with placements in it, and
 * no job left for the finished game. */
static int log_sound(const char *id, char *why, size_t cap)
{
    if (db_log_sound(id, why, cap)) return -1;
    long places = db_scalar_id(
        "SELECT count(*) FROM actions WHERE game_id = $1::uuid AND kind = 'place'", id);
    long jobs = db_scalar_id("SELECT count(*) FROM jobs WHERE game_id = $1::uuid", id);
    if (places <= 0) {
        snprintf(why, cap, "%ld placements stored", places);
        return -1;
    }
    if (jobs != 0) {
        snprintf(why, cap, "%ld jobs left for a finished game", jobs);
        return -1;
    }
    return 0;
}

ITEST(test_bots_against_person, "bots: a person against two computer players to the end")
{
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"bot\":\"random\"},{\"bot\":\"greedy\","
                 "\"think_ms\":50}],\"seed\":5," SHORT_DECK "}");
    cJSON *j = game_get(srv, &g);
    CHECK(j, "no game");
    int shown = strcmp(jstr(j, "players.1.bot"), "random") == 0 &&
                strcmp(jstr(j, "players.2.bot"), "greedy") == 0 &&
                jnum(j, "players.2.think_ms") == 50 && jnum(j, "players.1.think_ms") == 250 &&
                jget(j, "players.0.bot") == NULL && cJSON_IsTrue(jget(j, "hints"));
    cJSON_Delete(j);
    CHECK(shown, "the state does not show the bots");
    CHECK(g.token[0][0] && !g.token[1][0] && !g.token[2][0], "tokens: only the person's seat");
    char why[400];
    long long worst = 0;
    int turns = 0, finished = 0;
    for (int i = 0; i < 40 && !finished; i++) {
        int p = play_turn(srv, &g, 1, why, sizeof why);
        CHECK(p >= 0, "Ann's turn %d: %s", i, why);
        if (p == 1) break;
        long long t0 = hard_now_ms();
        cJSON *s = NULL;
        int st = wait_turn(srv, &g, 0, 15000, &s);
        long long took = hard_now_ms() - t0;
        cJSON_Delete(s);
        CHECK(st, "the bots did not play within 15 s (turn %d)", i);
        finished = st == 'f';
        if (took > worst) worst = took;
        turns++;
    }
    j = game_get(srv, &g);
    int done = j && strcmp(jstr(j, "status"), "finished") == 0;
    cJSON_Delete(j);
    CHECK(done, "the game did not finish");
    CHECK(log_sound(g.id, why, sizeof why) == 0, "%s", why);
    printf("  a person against two bots: %d rounds, two bots' turns took %lld ms at most\n", turns,
           worst);
    /* Two bots' turns (250 + 50 ms of think time allowed each, plus 100 ms each; several
     * times that for a server under a sanitizer on a busy machine). */
    long long bound = hard_san_ms(2000, 6000);
    CHECK(worst < bound, "the bots took %lld ms for a round", worst);
}

ITEST(test_bots_only, "bots: games of computer players only play to their end")
{
    struct game g;
    long long t0 = hard_now_ms();
    NEW_GAME(&g, "{\"players\":[{\"bot\":\"greedy\"},{\"bot\":\"random\"},{\"bot\":\"mcts\","
                 "\"think_ms\":10}],\"seed\":6," SHORT_DECK "}");
    cJSON *j = NULL;
    int st = wait_turn(srv, &g, -1, 10000, &j);
    long long took = hard_now_ms() - t0;
    CHECK(st == 'f', "a game of bots did not finish in 10 s");
    int ok = jnum(j, "deck_remaining") == 0;
    cJSON_Delete(j);
    CHECK(ok, "finished with tiles left");
    char why[400];
    CHECK(log_sound(g.id, why, sizeof why) == 0, "%s", why);
    /* Every ruleset: a game of bots plays to its end. */
    static const char *const others[] = {
        "{\"ruleset\":\"hills\",\"players\":[{\"bot\":\"greedy\",\"think_ms\":10},{\"bot\":"
        "\"random\",\"think_ms\":10}],\"seed\":7}",
        "{\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"players\":[{\"bot\":"
        "\"greedy\","
        "\"think_ms\":10},{\"bot\":\"random\",\"think_ms\":10}],\"seed\":8}",
        "{\"ruleset\":\"classic\",\"options\":{\"river\":true},\"players\":[{\"bot\":\"random\","
        "\"think_ms\":10},{\"bot\":\"greedy\",\"think_ms\":10}],\"seed\":9}",
    };
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        struct game o;
        char why2[300];
        CHECK(game_new(srv, others[i], &o, why2, sizeof why2) == 0, "game %zu: %s", i, why2);
        cJSON *oj = NULL;
        int ost = wait_turn(srv, &o, -1, 60000, &oj);
        cJSON_Delete(oj);
        CHECK(ost == 'f', "bots did not finish game %zu", i);
        CHECK(log_sound(o.id, why, sizeof why) == 0, "game %zu: %s", i, why);
    }
    printf("  bots only: a short game of three bots in %lld ms\n", took);
}

ITEST(test_bots_server_killed,
      "bots: a server killed (-9) while its bots play, another finishing each turn once")
{
    /* A server whose workers play a long game of bots is killed mid-game (it claims and
     * holds turns all the time); the other server finishes it, each action once. */
    struct server x = {0};
    CHECK(hard_server_start(&x, NULL, 0) == 0, "the server to kill did not start");
    struct game g;
    char why[400];
    int rc = game_new(&x,
                      "{\"players\":[{\"bot\":\"random\",\"think_ms\":10},{\"bot\":\"random\","
                      "\"think_ms\":10}],\"seed\":11}",
                      &g, why, sizeof why);
    /* Killed early in the game, once its bots have played a few turns. */
    int before = -1;
    for (int i = 0; rc == 0 && i < 2000 && (before = game_version(&x, &g)) < 12; i++) usleep(1000);
    hard_server_kill(&x);
    CHECK(rc == 0, "%s", why);
    cJSON *j = NULL;
    int st = wait_turn(srv, &g, -1, 60000, &j);
    int after = j ? (int)jnum(j, "version") : -1;
    cJSON_Delete(j);
    CHECK(st == 'f', "the other server did not finish the game (version %d at the kill)", before);
    CHECK(log_sound(g.id, why, sizeof why) == 0, "%s", why);
    printf("  kill -9 while bots play: version %d at the kill, finished at %d by the other\n",
           before, after);
}

ITEST(test_bots_lease, "bots: a turn leased by a dead server is played once the lease runs out")
{
    /* A server with no workers creates a game whose seat 0 is a bot: the turn is due at
     * once. A dead server's claim is simulated: the job leased for 5 s. The running server
     * (srv) must wait for the lease to run out, then play the turn, once. The look at 0.9 s
     * is timed from the lease, not from x's stop (a drain, and under a sanitizer its leak
     * check): a slow stop must not let the lease run out first. (With the spec proxy
     * srv->pid is still the server's.) */
    HARD_SERVER(x, 0, "BOT_WORKERS=0");
    struct game g;
    char why[400] = "";
    int rc = -1, tries = 0;
    long set = -1;
    long long t0 = 0;
    /* The running server would claim the new turn at once (its workers are woken by the
     * creation's NOTIFY): it is paused meanwhile, as if it were busy. */
    kill(srv->pid, SIGSTOP);
    while (set != 1 && tries++ < 3) {
        rc = game_new(&x, "{\"players\":[{\"bot\":\"greedy\"},{\"name\":\"Bob\"}],\"seed\":12}", &g,
                      why, sizeof why);
        if (rc) break;
        set = db_scalar_id("WITH u AS (UPDATE jobs SET due_at = now() + interval '5 s', "
                           "claimed_until = now() + interval '5 s', attempts = 1 WHERE "
                           "game_id = $1::uuid AND kind = 'bot' AND version = 1 RETURNING 1) "
                           "SELECT count(*) FROM u",
                           g.id);
        t0 = hard_now_ms();
    }
    kill(srv->pid, SIGCONT);
    (void)hard_server_stop(&x);
    CHECK(rc == 0, "%s", why);
    CHECK(set == 1, "no bot job at creation (%ld)", set);
    hard_sleep_until(t0 + 900);
    int early = game_version(srv, &g);
    long long waited = hard_now_ms() - t0;
    CHECK(waited < 4500, "x took %lld ms to stop: the lease is nearly out, nothing to see", waited);
    cJSON *j = NULL;
    int st = wait_turn(srv, &g, 1, 15000, &j);
    long long took = hard_now_ms() - t0;
    cJSON_Delete(j);
    CHECK(early == 1, "the turn was played while another server held it (version %d)", early);
    CHECK(st == 'a', "the turn was not played after the lease ran out");
    CHECK(db_replay_check(g.id, why, sizeof why) == 0, "%s", why);
    CHECK(db_scalar_id("SELECT count(*) FROM actions WHERE game_id = $1::uuid", g.id) == 2,
          "the bot's turn is not one draw and one placement");
    printf("  a leased bot turn: played %lld ms after a 5000 ms lease began\n", took);
}

ITEST(test_bots_refused, "bots: bad computer player specs refused, nothing stored")
{
    static const struct create_refusal cases[] = {
        {"{\"players\":[{\"bot\":\"clever\"},{\"name\":\"Bob\"}]}", "unknown_bot_level"},
        {"{\"players\":[{\"bot\":3},{\"name\":\"Bob\"}]}", "unknown_bot_level"},
        {"{\"players\":[{\"bot\":\"mcts\",\"think_ms\":5},{\"name\":\"Bob\"}]}",
         "invalid_think_ms"},
        {"{\"players\":[{\"bot\":\"mcts\",\"think_ms\":10001},{\"name\":\"Bob\"}]}",
         "invalid_think_ms"},
        {"{\"players\":[{\"bot\":\"mcts\",\"think_ms\":\"250\"},{\"name\":\"Bob\"}]}",
         "invalid_think_ms"},
        {"{\"players\":[{\"bot\":\"mcts\",\"think_ms\":2.5},{\"name\":\"Bob\"}]}",
         "invalid_think_ms"},
        {"{\"players\":[{\"bot\":\"random\",\"name\":\"R\"},{\"name\":\"Bob\"}]}", "invalid_body"},
        {"{\"players\":[{\"name\":\"Ann\",\"think_ms\":250},{\"name\":\"Bob\"}]}", "invalid_body"},
        {"{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"hints\":\"no\"}", "invalid_body"},
    };
    expect_create_refusals(srv, NULL, cases, sizeof cases / sizeof *cases);
}

/* GET the hint of game `g` with `auth` (NULL: none) and `query` into r. */
static void get_hint(const struct server *srv, const struct game *g, const char *auth,
                     const char *query, struct resp *r)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/hint%s", g->id, query);
    const char *h[2] = {auth, NULL};
    http(srv, "GET", path, NULL, h, r);
}

/* Seat 0 of game `g` draws; returns the answer's status. */
static long draw_seat0(const struct server *srv, const struct game *g)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g->id);
    const char *h0[2] = {g->auth[0], NULL};
    struct resp r;
    http(srv, "POST", path, NULL, h0, &r);
    long status = r.status;
    resp_free(&r);
    return status;
}

/* Expects `r` to be `status` with `code`; records a failure (returns) otherwise. */
#define EXPECT(r, st, c, what)                                                                     \
    do {                                                                                           \
        int ok_ = (r).status == (st) && strcmp(jstr((r).json, "code"), (c)) == 0;                  \
        long got_ = (r).status;                                                                    \
        char b_[160];                                                                              \
        snprintf(b_, sizeof b_, "%.150s", (r).body ? (r).body : "");                               \
        resp_free(&(r));                                                                           \
        CHECK(ok_, "%s: %ld %s (wanted %d %s)", what, got_, b_, st, c);                            \
    } while (0)

ITEST(test_hints, "bots: hints for the seat to move, off with hints: false")
{
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":21}");
    struct resp r;
    get_hint(srv, &g, g.auth[0], "", &r);
    EXPECT(r, 409, "wrong_phase", "before the draw");
    get_hint(srv, &g, NULL, "", &r);
    EXPECT(r, 401, "missing_token", "no token");
    long drew = draw_seat0(srv, &g);
    CHECK(drew == 200, "draw: %ld", drew);
    char path[160];
    const char *h0[2] = {g.auth[0], NULL};
    get_hint(srv, &g, g.auth[1], "", &r);
    EXPECT(r, 403, "not_your_turn", "the other seat");
    get_hint(srv, &g, g.auth[0], "?think_ms=5", &r);
    EXPECT(r, 400, "invalid_think_ms", "think_ms=5");
    long long t0 = hard_now_ms();
    get_hint(srv, &g, g.auth[0], "?think_ms=100", &r);
    long long took = hard_now_ms() - t0;
    const cJSON *pl = jget(r.json, "placement");
    int ok = r.status == 200 && pl && jget(pl, "x") && jget(pl, "rotation") &&
             strcmp(jstr(r.json, "level"), "mcts") == 0 && jnum(r.json, "think_ms") == 100;
    char *body = pl ? cJSON_PrintUnformatted(pl) : NULL;
    long st = r.status;
    char txt[200];
    snprintf(txt, sizeof txt, "%.190s", r.body ? r.body : "");
    resp_free(&r);
    if (!ok) free(body);
    CHECK(ok, "hint: %ld %s", st, txt);
    /* The hint is a placement the server takes as it is. */
    snprintf(path, sizeof path, "/v1/games/%s/placements", g.id);
    http(srv, "POST", path, body, h0, &r);
    free(body);
    long placed = r.status;
    resp_free(&r);
    CHECK(placed == 201, "the hint's placement answered %ld", placed);
    printf("  hint answered in %lld ms\n", took);

    struct game off;
    NEW_GAME(&off, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"hints\":false}");
    cJSON *j = game_get(srv, &off);
    int shown = j && cJSON_IsFalse(jget(j, "hints"));
    cJSON_Delete(j);
    CHECK(shown, "the state does not say hints: false");
    draw_seat0(srv, &off);
    get_hint(srv, &off, off.auth[0], "", &r);
    EXPECT(r, 403, "hints_disabled", "hints: false");
}

/* The hard level (issue 31): a game of it against greedy played to its end by the server,
 * and a hint asked of it (?level=hard), an unknown level refused. */
ITEST(test_bots_hard, "bots: a hard computer player plays a game to its end; hints of level hard")
{
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"bot\":\"hard\",\"think_ms\":50},{\"bot\":\"greedy\"}],"
                 "\"seed\":12," SHORT_DECK "}");
    cJSON *j = NULL;
    int st = wait_turn(srv, &g, -1, 30000, &j);
    int hard = j && strcmp(jstr(j, "players.0.bot"), "hard") == 0;
    cJSON_Delete(j);
    CHECK(st == 'f', "the hard player's game did not finish in 30 s");
    CHECK(hard, "seat 0 is not the hard player");
    char why[400];
    CHECK(log_sound(g.id, why, sizeof why) == 0, "%s", why);

    struct game h;
    NEW_GAME(&h, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":22}");
    long drew = draw_seat0(srv, &h);
    CHECK(drew == 200, "draw: %ld", drew);
    struct resp r;
    get_hint(srv, &h, h.auth[0], "?level=clever", &r);
    EXPECT(r, 400, "unknown_bot_level", "level=clever");
    get_hint(srv, &h, h.auth[0], "?level=hard&think_ms=50", &r);
    int ok = r.status == 200 && jget(r.json, "placement.x") &&
             strcmp(jstr(r.json, "level"), "hard") == 0 && jnum(r.json, "think_ms") == 50;
    long got = r.status;
    resp_free(&r);
    CHECK(ok, "hint of level hard: %ld", got);
}

/*
 * A rematch keeps the computer players: Ann against a greedy player resigns (the game is
 * finished), asks for the rematch, and in the next game the computer player (now seat 0)
 * moves by itself, with the same level and time.
 */
ITEST(test_bots_rematch, "bots: a rematch keeps the computer players, which move by themselves")
{
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"bot\":\"greedy\",\"think_ms\":50}],"
                 "\"seed\":11," SHORT_DECK "}");
    char path[160];
    const char *h0[] = {g.auth[0], NULL};
    snprintf(path, sizeof path, "/v1/games/%s/resign", g.id);
    struct resp r;
    http(srv, "POST", path, NULL, h0, &r);
    long resigned = r.status;
    resp_free(&r);
    CHECK(resigned == 200, "resign: %ld", resigned);
    snprintf(path, sizeof path, "/v1/games/%s/rematch", g.id);
    http(srv, "POST", path, NULL, h0, &r);
    long st = r.status;
    struct game next;
    memset(&next, 0, sizeof next);
    snprintf(next.id, sizeof next.id, "%s", jstr(r.json, "id"));
    next.nplayers = 2;
    resp_free(&r);
    CHECK(st == 201 && next.id[0], "rematch: %ld", st);
    cJSON *j = NULL;
    int turn = wait_turn(srv, &next, 1, 15000, &j);
    int kept = j && strcmp(jstr(j, "players.0.bot"), "greedy") == 0 &&
               jnum(j, "players.0.think_ms") == 50 && jnum(j, "version") >= 3;
    cJSON_Delete(j);
    CHECK(turn == 'a', "the computer player of the rematch did not move within 5 s");
    CHECK(kept, "the rematch's seat 0 is not the greedy computer player that moved");
}
