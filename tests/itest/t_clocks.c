/* t_clocks.c: clocks of games (issue 12): a deadline met, missed with autoplay (the third
 * timeout resigns the seat) and with resign, a bank running down with increments, a late
 * move refused, two servers and one deadline, a server killed with a deadline due, and
 * deadline_near once a turn. Short: banks of 8 s at most. The
 * long-form lateness figures are test_clocks_bench (make bench-clocks, not make test). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

/* Events of `id` of type `type` (and seat `seat` unless -1) in `ev`. */
static int count_events(const cJSON *ev, const char *type, int seat)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, ev)
    {
        if (strcmp(jstr(e, "type"), type) == 0 && (seat < 0 || jnum(e, "seat") == seat)) n++;
    }
    return n;
}

/* Waits up to `limit_ms` until game `g` on `srv` has `n` events of `type`; the events in
 * *out (caller deletes). 1 when it has, else 0. */
static int wait_events(const struct server *srv, const struct game *g, const char *type, int n,
                       long limit_ms, cJSON **out)
{
    long long end = hard_now_ms() + limit_ms;
    *out = NULL;
    for (;;) {
        cJSON *ev = game_events(srv, g->id);
        if (ev && count_events(ev, type, -1) >= n) {
            *out = ev;
            return 1;
        }
        if (hard_now_ms() >= end) {
            *out = ev;
            return 0;
        }
        cJSON_Delete(ev);
        usleep(20000);
    }
}

ITEST(test_clocks_refused, "clocks: bad clocks refused with their codes, nothing stored")
{
    static const struct create_refusal cases[] = {
        {"3", "invalid_clock"},
        {"{}", "invalid_clock"},
        {"{\"turn_seconds\":4}", "invalid_turn_seconds"},
        {"{\"turn_seconds\":2592001}", "invalid_turn_seconds"},
        {"{\"turn_seconds\":1.5}", "invalid_clock"},
        {"{\"turn_seconds\":60,\"initial_seconds\":60}", "invalid_clock"},
        {"{\"initial_seconds\":0}", "invalid_bank_seconds"},
        {"{\"initial_seconds\":60,\"increment_seconds\":-1}", "invalid_bank_seconds"},
        {"{\"increment_seconds\":5}", "invalid_clock"},
        {"{\"turn_seconds\":60,\"on_timeout\":\"skip\"}", "invalid_on_timeout"},
        {"{\"turn_seconds\":60,\"tempo\":1}", "unknown_field"},
    };
    expect_create_refusals(srv,
                           "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"clock\":%s}",
                           cases, sizeof cases / sizeof *cases);
}

ITEST(test_clocks_met, "clocks: a deadline met, the next turn's deadline")
{
    struct game g;
    long long t0 = wall_ms();
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":3,"
                 "\"clock\":{\"turn_seconds\":5}," SHORT_DECK "}");
    cJSON *j = game_get(srv, &g);
    CHECK(j, "no game");
    long long d0 = rfc3339_ms(jstr(j, "deadline"));
    int shown = jnum(j, "clock.turn_seconds") == 5 &&
                strcmp(jstr(j, "clock.on_timeout"), "autoplay") == 0 &&
                jget(j, "players.0.clock_ms") == NULL;
    cJSON_Delete(j);
    CHECK(shown, "the state does not show the clock");
    CHECK(d0 >= t0 + 4500 && d0 <= wall_ms() + 5500, "first deadline %lld, created at %lld", d0,
          t0);
    char why[300];
    CHECK(play_turn(srv, &g, 0, why, sizeof why) == 0, "%s", why);
    struct resp r;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/turn", g.id);
    http(srv, "GET", path, NULL, NULL, &r);
    long long d1 = rfc3339_ms(jstr(r.json, "deadline"));
    int seat = (int)jnum(r.json, "seat");
    resp_free(&r);
    CHECK(seat == 1 && d1 > d0 - 5000 && d1 >= d0 && d1 <= wall_ms() + 5500,
          "the next turn's deadline %lld (seat %d), first %lld", d1, seat, d0);
    CHECK(db_scalar_id("SELECT count(*) FROM games WHERE id = $1::uuid AND deadline IS NOT NULL",
                       g.id) == 1,
          "games.deadline not stored");
    cJSON *ev = game_events(srv, g.id);
    int timed = count_events(ev, "turn_timed_out", -1);
    cJSON_Delete(ev);
    CHECK(timed == 0, "a met deadline timed out");
}

/* Plays seat `seat`'s turns of `g` whenever it is to move, until the game is finished or
 * `limit_ms` passed. 1 when finished. */
static int play_seat_until_end(const struct server *srv, const struct game *g, int seat,
                               long limit_ms)
{
    long long end = hard_now_ms() + limit_ms;
    char why[300];
    while (hard_now_ms() < end) {
        cJSON *j = game_get(srv, g);
        if (!j) return 0;
        int finished = strcmp(jstr(j, "status"), "finished") == 0;
        int mine = jnum(j, "turn.seat") == seat;
        cJSON_Delete(j);
        if (finished) return 1;
        if (mine)
            (void)play_turn(srv, g, 0, why, sizeof why);
        else
            usleep(10000);
    }
    return 0;
}

ITEST(test_clocks_autoplay,
      "clocks: autoplay at a missed deadline, the third timeout resigns the seat")
{
    /* Ann (seat 0) never moves: a bank of 4 s plus 1 s a turn (her timeouts come after 4,
     * 1 and 1 s). Bob plays at once: his first turn has 4 s, time for a sanitizer's server
     * on a busy machine. Ann's turns are played for her twice, and the third timeout
     * resigns her: Bob wins. */
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":4,"
                 "\"clock\":{\"initial_seconds\":4,\"increment_seconds\":1}," SHORT_DECK "}");
    CHECK(play_seat_until_end(srv, &g, 1, 30000), "the game did not end by Ann's timeouts");
    cJSON *ev = game_events(srv, g.id);
    CHECK(ev, "no events");
    int ann = count_events(ev, "turn_timed_out", 0), bob = count_events(ev, "turn_timed_out", 1);
    int resigned = count_events(ev, "seat_resigned", 0);
    const char *kinds[3] = {"", "", ""};
    int k = 0;
    const cJSON *e;
    const char *result = "";
    cJSON_ArrayForEach(e, ev)
    {
        if (strcmp(jstr(e, "type"), "turn_timed_out") == 0 && jnum(e, "seat") == 0 && k < 3)
            kinds[k++] = jstr(e, "action");
        if (strcmp(jstr(e, "type"), "game_finished") == 0) result = jstr(e, "result");
    }
    int shape = strcmp(kinds[0], "autoplay") == 0 && strcmp(kinds[1], "autoplay") == 0 &&
                strcmp(kinds[2], "resign") == 0 && strcmp(result, "timeout") == 0;
    char res[16];
    snprintf(res, sizeof res, "%s", result);
    cJSON_Delete(ev);
    CHECK(ann == 3 && bob == 0 && resigned == 1, "timeouts: Ann %d, Bob %d, resigned %d", ann, bob,
          resigned);
    CHECK(shape, "timeout actions %s %s %s, result %s", kinds[0], kinds[1], kinds[2], res);
    CHECK(db_scalar_id("SELECT count(*) FROM actions WHERE game_id = $1::uuid AND seat = 0 "
                       "AND kind = 'place'",
                       g.id) == 2,
          "Ann's two timed-out turns are not two placements");
    CHECK(db_scalar_id("SELECT count(*) FROM games WHERE id = $1::uuid AND result = 'timeout'",
                       g.id) == 1,
          "games.result is not timeout");
    cJSON *j = game_get(srv, &g);
    int ok = j && strcmp(jstr(j, "result"), "timeout") == 0 &&
             cJSON_IsTrue(jget(j, "players.0.resigned")) && jget(j, "deadline") &&
             cJSON_IsNull(jget(j, "deadline"));
    cJSON_Delete(j);
    CHECK(ok, "the finished state does not say timeout, resigned, no deadline");
}

ITEST(test_clocks_resign, "clocks: on_timeout resign at once; a rematch keeps the clock")
{
    /* on_timeout resign: Ann's first timeout resigns her; a rematch keeps the clock. */
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":5,"
                 "\"clock\":{\"initial_seconds\":1,\"increment_seconds\":0,\"on_timeout\":"
                 "\"resign\"}," SHORT_DECK "}");
    cJSON *ev = NULL;
    int got = wait_events(srv, &g, "game_finished", 1, 15000, &ev);
    int timed = count_events(ev, "turn_timed_out", 0), res = count_events(ev, "seat_resigned", 0);
    int places = count_events(ev, "tile_placed", -1);
    cJSON_Delete(ev);
    CHECK(got, "the game did not end by Ann's timeout");
    CHECK(timed == 1 && res == 1 && places == 0, "timed out %d, resigned %d, placed %d", timed, res,
          places);
    struct resp r;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/rematch", g.id);
    const char *h[2] = {g.auth[1], NULL};
    http(srv, "POST", path, NULL, h, &r);
    char next[64];
    snprintf(next, sizeof next, "%s", jstr(r.json, "id"));
    long st = r.status;
    resp_free(&r);
    CHECK(st == 201, "rematch: %ld", st);
    snprintf(path, sizeof path, "/v1/games/%s", next);
    http(srv, "GET", path, NULL, NULL, &r);
    int kept = jnum(r.json, "clock.initial_seconds") == 1 &&
               strcmp(jstr(r.json, "clock.on_timeout"), "resign") == 0 &&
               rfc3339_ms(jstr(r.json, "deadline")) > 0;
    resp_free(&r);
    CHECK(kept, "the rematch has not the same clock");
}

ITEST(test_clocks_bank, "clocks: a bank running down with increments")
{
    /* A bank of 6 s plus 2 s a turn: Ann moves after about 0.4 s, keeping about 7.6 s;
     * Bob's runs while it is read. What each bank should be is bounded by the times this
     * client saw each step begin and end, so that a slow server (a sanitizer's, a busy
     * machine) widens the bounds instead of failing them. */
    struct game g;
    long long c0 = hard_now_ms();
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":6,"
                 "\"clock\":{\"initial_seconds\":6,\"increment_seconds\":2}," SHORT_DECK "}");
    long long c1 = hard_now_ms();
    usleep(400000);
    char why[300];
    long long p0 = hard_now_ms();
    CHECK(play_turn(srv, &g, 0, why, sizeof why) == 0, "%s", why);
    long long p1 = hard_now_ms();
    struct resp r;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/turn", g.id);
    usleep(300000);
    long long g0 = hard_now_ms();
    http(srv, "GET", path, NULL, NULL, &r);
    long long g1 = hard_now_ms();
    long long ann = (long long)jnum(r.json, "clock_ms.0"),
              bob = (long long)jnum(r.json, "clock_ms.1");
    long long dl = rfc3339_ms(jstr(r.json, "deadline")) - wall_ms();
    long long g2 = hard_now_ms();
    resp_free(&r);
    /* Ann's turn began with the creation's commit (c0..c1) and ended with her placement's
     * (p0..p1); Bob's began there and was read during the GET (g0..g1). 50 ms of slack for
     * the servers' and this client's clocks' rounding. */
    long long ann_lo = 8000 - (p1 - c0) - 50, ann_hi = 8000 - (p0 - c1) + 50;
    long long bob_lo = 6000 - (g1 - p0) - 50, bob_hi = 6000 - (g0 - p1) + 50;
    long long dl_lo = 6000 - (g2 - p0) - 50, dl_hi = 6000 - (g0 - p1) + 50;
    CHECK(ann > ann_lo && ann < ann_hi, "Ann's bank after her turn: %lld ms (%lld to %lld)", ann,
          ann_lo, ann_hi);
    CHECK(bob > bob_lo && bob < bob_hi, "Bob's bank running: %lld ms (%lld to %lld)", bob, bob_lo,
          bob_hi);
    CHECK(dl > dl_lo && dl < dl_hi, "Bob's deadline in %lld ms (%lld to %lld)", dl, dl_lo, dl_hi);
    cJSON *j = game_get(srv, &g);
    long long shown = j ? (long long)jnum(j, "players.1.clock_ms") : -1;
    cJSON_Delete(j);
    CHECK(shown > 0 && shown <= bob, "the state's clock_ms of Bob: %lld (turn said %lld)", shown,
          bob);
    /* Bob lets his bank run out: autoplayed, his bank is then the increment alone. */
    cJSON *ev = NULL;
    int got = wait_events(srv, &g, "turn_timed_out", 1, 12000, &ev);
    cJSON_Delete(ev);
    CHECK(got, "Bob's bank ran out without a timeout");
    /* turn_timed_out comes with the autoplay's draw; the increment follows its placement:
     * read once the turn has passed back to Ann (2 s at most). */
    long long bob2 = -1;
    for (int i = 0; i < 200; i++) {
        http(srv, "GET", path, NULL, NULL, &r);
        int back = r.status == 200 && jnum(r.json, "seat") == 0;
        bob2 = (long long)jnum(r.json, "clock_ms.1");
        resp_free(&r);
        if (back) break;
        usleep(10000);
    }
    CHECK(bob2 >= 1000 && bob2 <= 2000, "Bob's bank after his timeout: %lld ms", bob2);
}

/* Starts `x` (with its computer players and deadlines unless !`workers`), pauses srv
 * (SIGSTOP: it acts on no deadline till the caller resumes it, SIGCONT, whatever this
 * returns) and creates on x a game of Ann and Bob from `seed` with the short deck and the
 * clock `clock` (JSON). 0, or -1 with `why`. */
static int clock_game_alone(struct server *srv, struct server *x, int workers, int seed,
                            const char *clock, struct game *g, char *why, size_t cap)
{
    static const char *const no_workers[] = {"BOT_WORKERS=0", NULL};
    if (hard_server_start(x, workers ? NULL : no_workers, 0) != 0) {
        snprintf(why, cap, "the server%s did not start", workers ? "" : " without workers");
        return -1;
    }
    kill(srv->pid, SIGSTOP);
    char body[400];
    snprintf(
        body, sizeof body,
        "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":%d,\"clock\":%s," SHORT_DECK
        "}",
        seed, clock);
    return game_new(x, body, g, why, cap);
}

ITEST(test_clocks_late, "clocks: a move after the deadline refused, nothing applied")
{
    /* Nobody acts at the deadline (srv paused, the creating server without workers): a move
     * after it is refused with 409 turn_timed_out and nothing stored; srv then acts. */
    struct server x = {0};
    struct game g;
    char why[300] = "";
    int rc = clock_game_alone(srv, &x, 0, 7, "{\"initial_seconds\":1}", &g, why, sizeof why);
    long st = 0, st2 = 0;
    char code[40] = "";
    if (rc == 0) {
        struct resp r;
        game_post(&x, &g, 0, "draw", NULL, &r); /* in time */
        st = r.status;
        resp_free(&r);
        usleep(1300000);
        game_post(&x, &g, 0, "placements", "{\"x\":1,\"y\":0,\"rotation\":0}", &r);
        st2 = r.status;
        snprintf(code, sizeof code, "%s", jstr(r.json, "code"));
        resp_free(&r);
    }
    int v = rc == 0 ? game_version(&x, &g) : -1;
    kill(srv->pid, SIGCONT);
    (void)hard_server_stop(&x);
    CHECK(rc == 0, "%s", why);
    CHECK(st == 200, "the draw in time: %ld", st);
    CHECK(st2 == 409 && strcmp(code, "turn_timed_out") == 0, "the late move: %ld %s", st2, code);
    CHECK(v == 2, "something was stored by the late move (version %d)", v);
    /* The timed-out turn's placement is the game's first; only the events before Bob's
     * first placement are its turn's: Bob has 1 s on his clock too, and Ann's next turn
     * none, so on a busy machine (x's stop above may take a second) they may be played by
     * the time the events are read (a CI run once counted two placements of Ann's). */
    cJSON *ev = NULL;
    int got = wait_events(srv, &g, "tile_placed", 1, 15000, &ev);
    int placed = 0, timed = 0;
    char kinds[200] = "";
    const cJSON *e;
    cJSON_ArrayForEach(e, ev)
    {
        const char *type = jstr(e, "type");
        int seat = (int)jnum(e, "seat");
        size_t at = strlen(kinds);
        snprintf(kinds + at, sizeof kinds - at, "%s%s/%d", at ? " " : "", type, seat);
        if (strcmp(type, "tile_placed") == 0 && seat != 0) break;
        if (strcmp(type, "tile_placed") == 0) placed++;
        if (strcmp(type, "turn_timed_out") == 0 && seat == 0 && jnum(e, "turn") == 1) timed++;
    }
    cJSON_Delete(ev);
    CHECK(got && timed == 1 && placed == 1,
          "the server did not play the timed-out turn once (%d timed out, %d placed: %s)", timed,
          placed, kinds);
}

/* Checks that game `g` has exactly one turn_timed_out of seat 0 at turn 1 and one draw and
 * one placement by seat 0. The timed-out turn is two commits (its draw with turn_timed_out,
 * then its placement): the check waits for the placement's event, which comes last. */
static int acted_once(const struct server *srv, const struct game *g, char *why, size_t cap)
{
    /* Long enough for a server under a sanitizer on a busy machine, and for a lease of 6 s
     * (test_clocks_lease) to run out. */
    cJSON *ev = NULL;
    int got = wait_events(srv, g, "tile_placed", 1, 15000, &ev);
    cJSON_Delete(ev);
    ev = NULL;
    got = got && wait_events(srv, g, "turn_timed_out", 1, 5000, &ev);
    int timed = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, ev)
    {
        if (strcmp(jstr(e, "type"), "turn_timed_out") == 0 && jnum(e, "turn") == 1) timed++;
    }
    cJSON_Delete(ev);
    long draws = db_scalar_id(
        "SELECT count(*) FROM actions WHERE game_id = $1::uuid AND seat = 0 AND kind = 'draw'",
        g->id);
    long places = db_scalar_id(
        "SELECT count(*) FROM actions WHERE game_id = $1::uuid AND seat = 0 AND kind = 'place'",
        g->id);
    if (!got || timed != 1 || draws != 1 || places != 1) {
        snprintf(why, cap, "timed out %d times at turn 1, %ld draws, %ld placements of seat 0",
                 timed, draws, places);
        return -1;
    }
    return 0;
}

ITEST(test_clocks_race, "clocks: two servers, one expired deadline, exactly one acting")
{
    /* Two servers with workers, both woken for the same expired deadlines: each acts once. */
    struct server y = {0};
    CHECK(hard_server_start(&y, NULL, 0) == 0, "the second server did not start");
    struct game g[4];
    char why[300] = "";
    int rc = 0;
    for (int i = 0; i < 4 && rc == 0; i++)
        rc = game_new(i % 2 ? &y : srv,
                      "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":8,"
                      "\"clock\":{\"initial_seconds\":1,\"increment_seconds\":5}," SHORT_DECK "}",
                      &g[i], why, sizeof why);
    for (int i = 0; i < 4 && rc == 0; i++) rc = acted_once(srv, &g[i], why, sizeof why);
    (void)hard_server_stop(&y);
    CHECK(rc == 0, "%s", why);
}

ITEST(test_clocks_killed, "clocks: a server killed with a deadline due, another acting")
{
    /* The server that would act is killed (-9) with the deadline due: srv (paused till
     * then, as if elsewhere) acts for it, once. */
    struct server x = {0};
    struct game g;
    char why[300] = "";
    int rc = clock_game_alone(srv, &x, 1, 9, "{\"initial_seconds\":1,\"increment_seconds\":5}", &g,
                              why, sizeof why);
    usleep(700000);
    hard_server_kill(&x);
    usleep(500000); /* past the deadline, nobody running */
    long long t0 = hard_now_ms();
    kill(srv->pid, SIGCONT);
    CHECK(rc == 0, "%s", why);
    CHECK(acted_once(srv, &g, why, sizeof why) == 0, "%s", why);
    printf("  kill -9 before a deadline: the other server acted %lld ms after it resumed\n",
           hard_now_ms() - t0);
}

ITEST(test_clocks_lease,
      "clocks: a deadline leased by a dead server is acted on once the lease runs out")
{
    /* A deadline claimed by a server that died holding it (its lease, 6 s, simulated in the
     * table): nobody acts at the deadline (1 s) while the lease runs; srv acts once after.
     * The lease is long and the look is timed from it, not from x's stop (a drain, and under
     * a sanitizer its leak check), so that a slow stop cannot let the lease run out first. */
    struct server x = {0};
    struct game g;
    char why[300] = "";
    int rc = clock_game_alone(srv, &x, 0, 11, "{\"initial_seconds\":1,\"increment_seconds\":5}", &g,
                              why, sizeof why);
    long set = rc ? -1
                  : db_scalar_id("WITH u AS (UPDATE jobs SET due_at = now() + interval '6 s', "
                                 "claimed_until = now() + interval '6 s', attempts = 1 WHERE "
                                 "game_id = $1::uuid AND kind = 'deadline' RETURNING 1) "
                                 "SELECT count(*) FROM u",
                                 g.id);
    long long leased = hard_now_ms();
    kill(srv->pid, SIGCONT);
    (void)hard_server_stop(&x);
    CHECK(rc == 0, "%s", why);
    CHECK(set == 1, "no deadline job at creation (%ld)", set);
    hard_sleep_until(leased + 1500);
    long long waited = hard_now_ms() - leased;
    CHECK(waited < 5000, "x took %lld ms to stop: the lease is nearly out, nothing to see", waited);
    /* (deadline_near, a job of its own, went out at 0.75 s: not what is held.) */
    long early =
        db_scalar_id("SELECT count(*) FROM actions WHERE game_id = $1::uuid AND seat = 0", g.id);
    CHECK(early == 0, "the deadline was acted on while another server held it (%ld actions)",
          early);
    CHECK(acted_once(srv, &g, why, sizeof why) == 0, "%s", why);
}

ITEST(test_clocks_near, "clocks: deadline_near once a turn")
{
    /* A bank of 8 s, resign at the timeout: deadline_near at 2 s left, once; events as
     * every event (history here; long polls, streams and webhooks read the same rows). The
     * near's job must run in that second or it is dropped: it waits in the one fast lane
     * behind the other tests' games (one owner, 127.0.0.1), slow under the sanitizers: a
     * second was not always enough under ASan. */
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":10,"
                 "\"clock\":{\"initial_seconds\":8,\"on_timeout\":\"resign\"}," SHORT_DECK "}");
    cJSON *ev = NULL;
    int got = wait_events(srv, &g, "game_finished", 1, 16000, &ev);
    int near = count_events(ev, "deadline_near", 0);
    long long rem = -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, ev)
    {
        if (strcmp(jstr(e, "type"), "deadline_near") == 0) rem = (long long)jnum(e, "remaining_ms");
    }
    cJSON_Delete(ev);
    CHECK(got, "the game did not end by the timeout");
    CHECK(near == 1, "%d deadline_near events", near);
    CHECK(rem > 0 && rem <= 2000, "deadline_near with %lld ms left", rem);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

ITEST(test_clocks_bench, "clocks_bench: lateness of 250 timeouts (make bench-clocks)")
{
    /* make bench-clocks: 50 games nobody plays (banks of 1 s plus 1 s): 5 timeouts each
     * (the fifth resigns seat 0); how late each action came after its deadline. */
    if (!getenv("CLOCKS_BENCH")) {
        printf("  skipped (make bench-clocks runs it)\n");
        return;
    }
    enum { GAMES = 50 };
    static struct game g[GAMES];
    char why[300];
    for (int i = 0; i < GAMES; i++)
        CHECK(game_new(srv,
                       "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],"
                       "\"clock\":{\"initial_seconds\":1,\"increment_seconds\":1}," SHORT_DECK "}",
                       &g[i], why, sizeof why) == 0,
              "%s", why);
    static long long late[GAMES * 8];
    int n = 0;
    for (int i = 0; i < GAMES; i++) {
        cJSON *ev = NULL;
        int got = wait_events(srv, &g[i], "game_finished", 1, 60000, &ev);
        const cJSON *e;
        cJSON_ArrayForEach(e, ev)
        {
            if (strcmp(jstr(e, "type"), "turn_timed_out") == 0 && n < GAMES * 8)
                late[n++] = (long long)jnum(e, "late_ms");
        }
        cJSON_Delete(ev);
        CHECK(got, "game %d did not end by its timeouts", i);
    }
    qsort(late, (size_t)n, sizeof *late, cmp_ll);
    CHECK(n >= 200, "only %d timeouts", n);
    printf("  %d timeouts: late after the deadline p50 %lld ms, p99 %lld ms, max %lld ms\n", n,
           late[n / 2], late[(n * 99) / 100], late[n - 1]);
}

/*
 * The player's list of games shows a clocked game's deadline, the same as the state's: a
 * player creates a game with its own seat and a day a turn.
 */
ITEST(test_clocks_in_my_games, "clocks: the player's list of games shows the deadline")
{
    struct resp r;
    http(srv, "POST", "/v1/players", "{\"name\":\"Ann\"}", NULL, &r);
    char auth[160];
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", jstr(r.json, "token"));
    long made = r.status;
    resp_free(&r);
    CHECK(made == 201, "player: %ld", made);
    const char *h[] = {auth, NULL};
    http(
        srv, "POST", "/v1/games",
        "{\"players\":[{\"player\":\"me\"},{\"name\":\"Bob\"}],\"clock\":{\"turn_seconds\":86400}}",
        h, &r);
    char id[64], deadline[64];
    snprintf(id, sizeof id, "%s", jstr(r.json, "id"));
    snprintf(deadline, sizeof deadline, "%s", jstr(r.json, "deadline"));
    long created = r.status;
    resp_free(&r);
    CHECK(created == 201 && rfc3339_ms(deadline) > wall_ms(), "create: %ld, deadline %s", created,
          deadline);
    http(srv, "GET", "/v1/players/me/games", NULL, h, &r);
    const cJSON *e = cJSON_GetArrayItem(jget(r.json, "games"), 0);
    char listed[64];
    snprintf(listed, sizeof listed, "%s", e ? jstr(e, "deadline") : "");
    int mine = e && strcmp(jstr(e, "id"), id) == 0;
    long st = r.status;
    resp_free(&r);
    CHECK(st == 200 && mine, "my games: %ld", st);
    CHECK(rfc3339_ms(listed) == rfc3339_ms(deadline), "listed deadline %s, the game's %s", listed,
          deadline);
}
