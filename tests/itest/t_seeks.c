/* t_seeks.c: play now (issue 26): seeks paired by the matchmaker (api/jobs/matchmaker.c, a job
 * of no game) into games whose seats are bound to the seekers: each field's compatibility
 * (options compared after defaults), tables of 3 and 4, computer players after
 * bot_after_seconds, cancel (owner only), lapse (SEEK_LAPSE_SECONDS=4 on a second server; a
 * long poll keeps a seek), the limit of open seeks, the lobby, never a player with themself or
 * with a player they blocked, 40 players seeking at once on two servers: every seek in
 * exactly one game, every game with the right seats; an Idempotency-Key (raced on two servers
 * too), and the long poll woken across servers by the seek's notification (migrations/0029).
 *
 * The matchmaker serves every waiting seek of the database: each test seeks with a clock of
 * its own (turn_seconds) so that no two tests' seeks are compatible. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "hard.h"
#include "hook.h"
#include "tests.h"

/* POST /v1/seeks `body` as `p`: the status; the seek's id into id[64] (201), the problem's
 * code into code[64] (else). */
static long seek_post(const struct server *srv, const struct person *p, const char *body,
                      char id[64], char code[64])
{
    const char *h[2] = {p->auth, NULL};
    struct resp r;
    http(srv, "POST", "/v1/seeks", body, h, &r);
    long st = r.status;
    if (id) snprintf(id, 64, "%s", r.json && st == 201 ? jstr(r.json, "id") : "");
    if (code) snprintf(code, 64, "%s", r.json && st >= 400 ? jstr(r.json, "code") : "");
    resp_free(&r);
    return st;
}

/* GET /v1/seeks/{id}?wait=`wait` as `p`: the seek (caller deletes), or NULL unless 200. */
static cJSON *seek_get(const struct server *srv, const struct person *p, const char *id, int wait)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/seeks/%s?wait=%d", id, wait);
    const char *h[2] = {p->auth, NULL};
    long st = 0;
    cJSON *j = get_json_as(srv, path, h, &st);
    return st == 200 ? j : (cJSON_Delete(j), NULL);
}

/* The seek's status after a poll of up to `wait` s into status[16] ("" when unreadable),
 * its game into game[64] (or ""), its seat (or -1). */
static int seek_status(const struct server *srv, const struct person *p, const char *id, int wait,
                       char status[16], char game[64])
{
    cJSON *j = seek_get(srv, p, id, wait);
    snprintf(status, 16, "%s", j ? jstr(j, "status") : "");
    if (game) snprintf(game, 64, "%s", j ? jstr(j, "game_id") : "");
    int seat = j && jget(j, "seat") ? (int)jnum(j, "seat") : -1;
    cJSON_Delete(j);
    return seat;
}

/* DELETE /v1/seeks/{id} as `p`: the status; the code into code[64]. */
static long seek_delete(const struct server *srv, const struct person *p, const char *id,
                        char code[64])
{
    char path[160];
    snprintf(path, sizeof path, "/v1/seeks/%s", id);
    const char *h[2] = {p->auth, NULL};
    struct resp r;
    http(srv, "DELETE", path, NULL, h, &r);
    long st = r.status;
    snprintf(code, 64, "%s", r.json && st >= 400 ? jstr(r.json, "code") : "");
    resp_free(&r);
    return st;
}

/* A correspondence seek's body: `players` seats, turn_seconds `turn` (the test's own),
 * `extra` members (may be ""), each with a leading comma. */
static void seek_body(char *buf, size_t cap, int players, int turn, const char *extra)
{
    snprintf(buf, cap, "{\"players\":%d,\"clock\":{\"turn_seconds\":%d}%s}", players, turn, extra);
}

/* Posts seek `body` as `p` (its id into id1[64]), then as `q` (id2[64]), and checks that
 * neither is paired after the matchmaker had 3 s to: both still "waiting". `why` names the
 * pairing that must not be ("self-paired"). */
static void expect_unpaired(const struct server *srv, const struct person *p,
                            const struct person *q, const char *body, char id1[64], char id2[64],
                            const char *why)
{
    char code[64], s1[16], s2[16];
    CHECK(seek_post(srv, p, body, id1, code) == 201, "seek: %s", code);
    CHECK(seek_post(srv, q, body, id2, code) == 201, "seek: %s", code);
    seek_status(srv, q, id2, 3, s2, NULL);
    seek_status(srv, p, id1, 0, s1, NULL);
    CHECK(strcmp(s1, "waiting") == 0 && strcmp(s2, "waiting") == 0, "%s: %s, %s", why, s1, s2);
}

/* The people seated in game `id` bound to seeks that name that game and seat. */
static long seats_bound(const char *id)
{
    return db_scalar_id("SELECT count(*) FROM seeks s JOIN players p ON p.game_id = s.game_id "
                        "AND p.seat = s.seat AND p.person_id = s.person_id WHERE s.game_id = "
                        "$1::uuid AND s.status = 'matched'",
                        id);
}

ITEST(test_seeks_pair, "seeks: two seekers paired, seats bound, the game in their lists")
{
    struct person a, b;
    char why[300], ia[64], ib[64], code[64], sa[16], sb[16], ga[64], gb[64], body[256];
    CHECK(person_new(srv, "Sue", &a, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Sam", &b, why, sizeof why) == 0, "%s", why);
    /* Sam's player webhook hears of the new game. */
    struct listener *l = listener_start();
    CHECK(l, "no webhook listener");
    char hook[160], url[96];
    snprintf(url, sizeof url, "{\"url\":\"http://127.0.0.1:%d/sam\"}", l->port);
    const char *hb[2] = {b.auth, NULL};
    struct resp hr;
    http(srv, "POST", "/v1/players/me/webhook", url, hb, &hr);
    long hst = hr.status;
    resp_free(&hr);
    if (hst != 200 && hst != 201) listener_stop(l);
    CHECK(hst == 200 || hst == 201, "Sam's webhook: %ld", hst);
    snprintf(hook, sizeof hook, "%s", "");
    seek_body(body, sizeof body, 2, 86401, "");
    CHECK(seek_post(srv, &a, body, ia, code) == 201, "first seek: %s", code);
    CHECK(seek_post(srv, &b, body, ib, code) == 201, "second seek: %s", code);
    int seat_a = seek_status(srv, &a, ia, 15, sa, ga);
    int seat_b = seek_status(srv, &b, ib, 15, sb, gb);
    CHECK(strcmp(sa, "matched") == 0 && strcmp(sb, "matched") == 0, "statuses %s, %s", sa, sb);
    CHECK(ga[0] && strcmp(ga, gb) == 0, "games %s and %s", ga, gb);
    CHECK(seat_a >= 0 && seat_b >= 0 && seat_a + seat_b == 1, "seats %d and %d", seat_a, seat_b);
    CHECK(seats_bound(ga) == 2, "%ld seats bound to the seekers", seats_bound(ga));
    CHECK(db_scalar_id("SELECT count(*) FROM games WHERE id = $1::uuid AND status = 'active' AND "
                       "clock->>'turn_seconds' = '86401'",
                       ga) == 1,
          "the game is not active with the seeks' clock");
    /* Each seeker's own list of games holds it. */
    const char *h[2] = {a.auth, NULL};
    long st = 0;
    cJSON *list = get_json_as(srv, "/v1/players/me/games", h, &st);
    CHECK(list && st == 200, "Sue's list: %ld", st);
    char *text = cJSON_PrintUnformatted(list);
    int listed = text && strstr(text, ga) != NULL;
    free(text);
    cJSON_Delete(list);
    if (!listed) listener_stop(l);
    CHECK(listed, "the new game is not in Sue's list");
    int heard = 0;
    for (int i = 0; i < 100 && !heard; i++) {
        pthread_mutex_lock(&l->lock);
        for (int k = 0; k < l->n && k < HOOK_MAX; k++)
            heard |= l->req[k].body && strstr(l->req[k].body, ga) != NULL;
        pthread_mutex_unlock(&l->lock);
        if (!heard) usleep(100000);
    }
    listener_stop(l);
    CHECK(heard, "Sam's webhook heard nothing of game %s", ga);
    (void)hook;
    /* A matched seek is no longer cancelled. */
    CHECK(seek_delete(srv, &a, ia, code) == 409 && strcmp(code, "seek_not_waiting") == 0,
          "cancelling a matched seek: %s", code);
}

ITEST(test_seeks_self_cancel, "seeks: never self-paired; cancel by the owner only; 404, 403")
{
    struct person a, b;
    char why[300], i1[64], i2[64], code[64], s1[16], body[256];
    CHECK(person_new(srv, "Solo", &a, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Other", &b, why, sizeof why) == 0, "%s", why);
    seek_body(body, sizeof body, 2, 86402, "");
    expect_unpaired(srv, &a, &a, body, i1, i2, "self-paired");
    if (itest_failure[0]) return;
    CHECK(seek_delete(srv, &b, i1, code) == 403 && strcmp(code, "not_seek_owner") == 0,
          "another player cancelled: %s", code);
    const char *h[2] = {b.auth, NULL};
    long st = 0;
    char path[160];
    snprintf(path, sizeof path, "/v1/seeks/%s", i1);
    cJSON_Delete(get_json_as(srv, path, h, &st));
    CHECK(st == 403, "another player read the seek: %ld", st);
    CHECK(seek_delete(srv, &a, i1, code) == 200, "cancel: %s", code);
    CHECK(seek_delete(srv, &a, i2, code) == 200, "cancel: %s", code);
    seek_status(srv, &a, i1, 0, s1, NULL);
    CHECK(strcmp(s1, "cancelled") == 0, "status after cancel: %s", s1);
    CHECK(seek_delete(srv, &a, "00000000-0000-4000-8000-000000000000", code) == 404,
          "no such seek: %s", code);
}

/* A pair of seek bodies and whether they must be paired. */
struct pairing {
    const char *a, *b; /* the extra members of each (after players and clock) */
    int pb;            /* players of b (a has 2) */
    int turn_b;        /* turn_seconds of b (0: a's) */
    int paired;        /* 1: must be paired */
    const char *what;
};

ITEST(test_seeks_fields, "seeks: each field compared (options after defaults, clock kind and "
                         "values, players, ruleset, rated, rating ranges)")
{
    static const struct pairing cases[] = {
        {"", ",\"options\":{\"river\":false}", 2, 0, 1, "an option at its default"},
        {"", ",\"options\":{\"river\":true}", 2, 0, 0, "an option"},
        {"", ",\"ruleset\":\"hills\"", 2, 0, 0, "the ruleset"},
        {"", "", 3, 0, 0, "the player count"},
        {"", "", 2, -1, 0, "the clock's values"},
        {"", ",\"rated\":true", 2, 0, 0, "the rated flag"},
        {",\"rating_range\":[0,100]", "", 2, 0, 0, "a rating range"},
        {",\"rating_range\":[1400,1600]", ",\"rating_range\":[1500,1500]", 2, 0, 1,
         "rating ranges holding each other"},
    };
    enum { N = sizeof cases / sizeof cases[0] };
    struct person pa[N], pb[N];
    char ids[N][2][64], why[300], code[64], body[320];
    for (int i = 0; i < N; i++) {
        char na[16], nb[16];
        snprintf(na, sizeof na, "F%da", i);
        snprintf(nb, sizeof nb, "F%db", i);
        CHECK(person_new(srv, na, &pa[i], why, sizeof why) == 0, "%s", why);
        CHECK(person_new(srv, nb, &pb[i], why, sizeof why) == 0, "%s", why);
        int turn = 87000 + i * 10;
        seek_body(body, sizeof body, 2, turn, cases[i].a);
        CHECK(seek_post(srv, &pa[i], body, ids[i][0], code) == 201, "%s: %s", cases[i].what, code);
        int tb = cases[i].turn_b < 0 ? turn + 1 : turn;
        seek_body(body, sizeof body, cases[i].pb, tb, cases[i].b);
        CHECK(seek_post(srv, &pb[i], body, ids[i][1], code) == 201, "%s: %s", cases[i].what, code);
    }
    sleep(3); /* the matchmaker ran after each POST */
    for (int i = 0; i < N; i++) {
        char sa[16], sb[16], ga[64], gb[64];
        seek_status(srv, &pa[i], ids[i][0], cases[i].paired ? 10 : 0, sa, ga);
        seek_status(srv, &pb[i], ids[i][1], 0, sb, gb);
        if (cases[i].paired)
            CHECK(strcmp(sa, "matched") == 0 && strcmp(ga, gb) == 0, "%s: not paired (%s, %s)",
                  cases[i].what, sa, sb);
        else
            CHECK(strcmp(sa, "waiting") == 0 && strcmp(sb, "waiting") == 0, "%s: paired (%s, %s)",
                  cases[i].what, sa, sb);
        if (!cases[i].paired) {
            CHECK(seek_delete(srv, &pa[i], ids[i][0], code) == 200, "cancel: %s", code);
            CHECK(seek_delete(srv, &pb[i], ids[i][1], code) == 200, "cancel: %s", code);
        }
    }
}

/* `n` players seeking a table of `n` (turn_seconds `turn`): one game of n seats, each bound. */
static void table_of(const struct server *srv, int n, int turn, char *why, size_t cap)
{
    struct person p[6];
    char ids[6][64], code[64], body[256], game[64] = "";
    why[0] = '\0';
    seek_body(body, sizeof body, n, turn, "");
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "T%d_%d", n, i);
        if (person_new(srv, name, &p[i], why, cap) != 0) return;
        if (seek_post(srv, &p[i], body, ids[i], code) != 201) {
            snprintf(why, cap, "seek %d: %s", i, code);
            return;
        }
    }
    unsigned seats = 0;
    for (int i = 0; i < n; i++) {
        char st[16], g[64];
        int seat = seek_status(srv, &p[i], ids[i], 15, st, g);
        if (strcmp(st, "matched") != 0 || (game[0] && strcmp(game, g) != 0) || seat < 0) {
            snprintf(why, cap, "seek %d: %s, game %s, seat %d", i, st, g, seat);
            return;
        }
        snprintf(game, sizeof game, "%s", g);
        seats |= 1u << seat;
    }
    if (seats != (1u << n) - 1 || seats_bound(game) != n)
        snprintf(why, cap, "seats %#x, %ld bound", seats, seats_bound(game));
}

ITEST(test_seeks_tables, "seeks: tables of 3 and of 4, every seat bound to its seeker")
{
    char why[300];
    table_of(srv, 3, 86403, why, sizeof why);
    CHECK(!why[0], "3 players: %s", why);
    table_of(srv, 4, 86404, why, sizeof why);
    CHECK(!why[0], "4 players: %s", why);
}

ITEST(test_seeks_bots, "seeks: computer players fill the missing seats after bot_after_seconds")
{
    struct person a;
    char why[300], id[64], code[64], st[16], game[64], body[256];
    CHECK(person_new(srv, "Lonely", &a, why, sizeof why) == 0, "%s", why);
    seek_body(body, sizeof body, 3, 86405, ",\"bot_after_seconds\":5");
    long long t0 = hard_now_ms();
    CHECK(seek_post(srv, &a, body, id, code) == 201, "seek: %s", code);
    seek_status(srv, &a, id, 2, st, NULL);
    CHECK(strcmp(st, "waiting") == 0, "matched before bot_after_seconds: %s", st);
    for (int i = 0; i < 6 && strcmp(st, "matched") != 0; i++) seek_status(srv, &a, id, 3, st, game);
    long long ms = hard_now_ms() - t0;
    CHECK(strcmp(st, "matched") == 0, "no game after %lld ms: %s", ms, st);
    CHECK(ms >= 5000, "computer players after %lld ms", ms);
    CHECK(db_scalar_id("SELECT count(*) FROM players WHERE game_id = $1::uuid AND bot IS NOT NULL",
                       game) == 2,
          "not two computer players");
    /* Each of its own level or think class: a rating of its own at a rated table. */
    CHECK(db_scalar_id("SELECT count(DISTINCT (bot, think_ms)) FROM players WHERE game_id = "
                       "$1::uuid AND bot IS NOT NULL",
                       game) == 2,
          "twin computer players");
    CHECK(seats_bound(game) == 1, "the seeker's seat is not bound");
}

ITEST(test_seeks_lapse, "seeks: a live seek lapses unpolled (SEEK_LAPSE_SECONDS=4 on a second "
                        "server) while a long-polled one stays, a correspondence seek at its "
                        "expiry")
{
    /* The short lapse on a second server: its matchmaker expires the lapsed live seeks of
     * the whole database, which holds only this test's while it runs. The owner long-polls
     * one seek for 5 s (read again every third of the lapse), and leaves the
     * other alone: only that one lapses. */
    char why[300], code[64], st[16] = "", polled[64], alone[64];
    struct server z;
    const char *env[] = {"SEEK_LAPSE_SECONDS=4", NULL};
    CHECK(hard_server_start(&z, env, 0) == 0, "the server with the short lapse did not start");
    struct person w;
    int made = person_new(&z, "Brief", &w, why, sizeof why) == 0;
    static const char live_body[] = "{\"clock\":{\"initial_seconds\":301,\"increment_seconds\":5}}";
    long p1 = made ? seek_post(&z, &w, live_body, polled, code) : 0;
    long p2 = made ? seek_post(&z, &w, live_body, alone, code) : 0;
    char st_polled[16] = "", st_alone[16] = "";
    /* The poll's length and the unpolled seek's age as this client saw them: a failure
     * (seen once, in a run shorter than the poll should allow) says which was short. */
    long long made_ms = hard_now_ms(), poll_ms = 0, age_ms = 0;
    if (p1 == 201 && p2 == 201) {
        seek_status(&z, &w, polled, 5, st, NULL); /* 5 s: past the lapse of the other */
        poll_ms = hard_now_ms() - made_ms;
        seek_status(&z, &w, polled, 0, st_polled, NULL);
        age_ms = hard_now_ms() - made_ms;
        seek_status(&z, &w, alone, 0, st_alone, NULL);
    }
    /* Cancelled, so that no later seek of the same pool meets it. */
    long gone = p1 == 201 ? seek_delete(&z, &w, polled, code) : 0;
    int stopped = hard_server_stop(&z);
    CHECK(made, "%s", why);
    CHECK(p1 == 201 && p2 == 201, "live seeks: %ld %ld %s", p1, p2, code);
    CHECK(strcmp(st, "waiting") == 0, "the long-polled seek %s after its poll", st);
    CHECK(poll_ms >= 4990, "the long poll of 5 s answered after %lld ms", poll_ms);
    CHECK(strcmp(st_alone, "expired") == 0,
          "the unpolled seek %s %lld ms after its creation (a lapse of 4 s)", st_alone, age_ms);
    CHECK(strcmp(st_polled, "waiting") == 0, "the long-polled seek %s", st_polled);
    CHECK(gone == 200, "cancel: %ld %s", gone, code);
    CHECK(stopped == 0, "the server exited with %d", stopped);

    /* A correspondence seek past its 7 days (nothing shortens them: moved back here). */
    struct person a;
    char corr[64], live[64];
    CHECK(person_new(srv, "Gone", &a, why, sizeof why) == 0, "%s", why);
    CHECK(seek_post(srv, &a, live_body, live, code) == 201, "live seek: %s", code);
    char body[256];
    seek_body(body, sizeof body, 2, 86406, "");
    CHECK(seek_post(srv, &a, body, corr, code) == 201, "correspondence seek: %s", code);
    CHECK(db_scalar_id("WITH u AS (UPDATE seeks SET expires_at = now() WHERE id = $1::uuid "
                       "RETURNING 1) SELECT count(*) FROM u",
                       corr) == 1,
          "correspondence seek not moved back");
    CHECK(seek_delete(srv, &a, live, code) == 200, "cancel: %s", code);
    /* An ended seek is kept a day (its answer stays readable), then deleted by a run. */
    CHECK(db_scalar_id("WITH u AS (UPDATE seeks SET ended_at = now() - interval '2 days' WHERE "
                       "id = $1::uuid RETURNING 1) SELECT count(*) FROM u",
                       live) == 1,
          "live seek's end not moved back");
    /* The matchmaker expires the other (a new seek wakes it). */
    char other[64];
    seek_body(body, sizeof body, 2, 86407, "");
    CHECK(seek_post(srv, &a, body, other, code) == 201, "seek: %s", code);
    /* The run is the slow lane's: wait for it, up to 15 s (a busy sanitizer's server). */
    for (int i = 0;
         i < 150 && db_scalar_id("SELECT count(*) FROM seeks WHERE id = $1::uuid", live) != 0; i++)
        usleep(100000);
    CHECK(db_scalar_id("SELECT count(*) FROM seeks WHERE id = $1::uuid AND status = 'expired'",
                       corr) == 1,
          "the correspondence seek did not expire");
    CHECK(db_scalar_id("SELECT count(*) FROM seeks WHERE id = $1::uuid", live) == 0,
          "a seek ended two days ago is still stored");
    CHECK(seek_delete(srv, &a, other, code) == 200, "cancel: %s", code);
}

ITEST(test_seeks_limit_lobby, "seeks: 10 open per player (429 too_many_seeks), the lobby of "
                              "correspondence seeks without a token (400 for an unknown ruleset)")
{
    struct person a;
    char why[300], ids[10][64], code[64], body[256];
    CHECK(person_new(srv, "Many", &a, why, sizeof why) == 0, "%s", why);
    for (int i = 0; i < 10; i++) {
        seek_body(body, sizeof body, 2, 88000 + i, ",\"ruleset\":\"discovery\"");
        CHECK(seek_post(srv, &a, body, ids[i], code) == 201, "seek %d: %s", i, code);
    }
    seek_body(body, sizeof body, 2, 88010, "");
    CHECK(seek_post(srv, &a, body, NULL, code) == 429 && strcmp(code, "too_many_seeks") == 0,
          "an 11th seek: %s", code);
    long st = 0;
    cJSON *lobby = get_json_as(srv, "/v1/seeks?ruleset=discovery", NULL, &st);
    CHECK(lobby && st == 200, "lobby: %ld", st);
    int n = cJSON_GetArraySize(jget(lobby, "seeks"));
    const char *first = jstr(lobby, "seeks.0.ruleset");
    int ok = n == 10 && strcmp(first, "discovery") == 0;
    cJSON_Delete(lobby);
    CHECK(ok, "the lobby lists %d seeks (%s)", n, first);
    /* Numbers far beyond an int's range are refused, not cast (UBSan watches this run). */
    CHECK(seek_post(srv, &a, "{\"players\":1e300,\"clock\":{\"turn_seconds\":60}}", NULL, code) ==
                  400 &&
              strcmp(code, "invalid_body") == 0,
          "players 1e300: %s", code);
    CHECK(seek_post(srv, &a,
                    "{\"players\":2,\"bot_after_seconds\":-1e300,\"clock\":{\"turn_seconds\":60}}",
                    NULL, code) == 400 &&
              strcmp(code, "invalid_bot_after_seconds") == 0,
          "bot_after_seconds -1e300: %s", code);
    struct resp nope;
    http(srv, "GET", "/v1/seeks?ruleset=nope", NULL, NULL, &nope);
    ok = nope.status == 400 && nope.json &&
         strcmp(jstr(nope.json, "code"), "invalid_parameter") == 0;
    st = nope.status;
    resp_free(&nope);
    CHECK(ok, "the lobby of an unknown ruleset: %ld", st);
    for (int i = 0; i < 10; i++) CHECK(seek_delete(srv, &a, ids[i], code) == 200, "cancel");
    CHECK(seek_post(srv, &a, body, ids[0], code) == 201, "a seek after cancelling: %s", code);
    CHECK(seek_delete(srv, &a, ids[0], code) == 200, "cancel");
}

ITEST(test_seeks_limit_race, "seeks: 8 creations at once with 9 open, 4 to each of two servers: "
                             "exactly one 201, the others 429, 10 open")
{
    struct person a;
    char why[300], code[64], body[256], bodies[8][256];
    CHECK(person_new(srv, "Racing", &a, why, sizeof why) == 0, "%s", why);
    for (int i = 0; i < 9; i++) {
        seek_body(body, sizeof body, 2, 87000 + i, ",\"ruleset\":\"discovery\"");
        CHECK(seek_post(srv, &a, body, NULL, code) == 201, "seek %d: %s", i, code);
    }
    struct server other;
    CHECK(hard_server_start(&other, NULL, 0) == 0, "the second server did not start");
    struct hard_racer racers[8];
    memset(racers, 0, sizeof racers);
    for (int i = 0; i < 8; i++) {
        seek_body(bodies[i], sizeof bodies[i], 2, 87100 + i, ",\"ruleset\":\"discovery\"");
        racers[i].srv = i % 2 ? &other : srv;
        snprintf(racers[i].path, sizeof racers[i].path, "/v1/seeks");
        racers[i].body = bodies[i];
        racers[i].h[0] = a.auth;
    }
    hard_together(racers, 8);
    int created = 0, refused = 0;
    for (int i = 0; i < 8; i++) {
        created += racers[i].r.status == 201;
        refused += racers[i].r.status == 429;
        resp_free(&racers[i].r);
    }
    hard_server_stop(&other);
    long open = db_scalar_id("SELECT count(*) FROM seeks WHERE person_id = $1::uuid AND status = "
                             "'waiting'",
                             a.id);
    /* Gone before the next test of this worker's database reads the lobby. */
    db_scalar_id("WITH d AS (DELETE FROM seeks WHERE person_id = $1::uuid RETURNING 1) SELECT "
                 "count(*) FROM d",
                 a.id);
    CHECK(created == 1 && refused == 7 && open == 10,
          "%d created, %d refused (429) of 8; %ld open (10 at most)", created, refused, open);
}

ITEST(test_seeks_blocked, "seeks: never paired with a player one of them blocked")
{
    struct person a, b;
    char why[300], ia[64], ib[64], code[64], body[256], path[160];
    CHECK(person_new(srv, "Blocker", &a, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Blocked", &b, why, sizeof why) == 0, "%s", why);
    snprintf(path, sizeof path, "/v1/players/me/blocks/%s", b.id);
    const char *h[2] = {a.auth, NULL};
    struct resp r;
    http(srv, "POST", path, "{}", h, &r);
    long st = r.status;
    resp_free(&r);
    CHECK(st == 201, "block: %ld", st);
    seek_body(body, sizeof body, 2, 86408, "");
    expect_unpaired(srv, &b, &a, body, ib, ia, "paired");
    if (itest_failure[0]) return;
    CHECK(seek_delete(srv, &a, ia, code) == 200 && seek_delete(srv, &b, ib, code) == 200, "cancel");
}

ITEST(test_seeks_race, "seeks: 40 players seeking at once on two servers, each seek in exactly "
                       "one game with the right seats")
{
    enum { N = 40 };
    static struct person p[N];
    static struct hard_racer racers[N];
    static char bodies[2][256];
    struct server y = {0};
    char why[300];
    for (int i = 0; i < N; i++) {
        char name[16];
        snprintf(name, sizeof name, "R%02d", i);
        CHECK(person_new(srv, name, &p[i], why, sizeof why) == 0, "%s", why);
    }
    /* Half seek tables of 2, half tables of 4 (10 and 5 games). */
    seek_body(bodies[0], sizeof bodies[0], 2, 86409, "");
    seek_body(bodies[1], sizeof bodies[1], 4, 86409, "");
    CHECK(hard_server_start(&y, NULL, 0) == 0, "the second server did not start");
    for (int i = 0; i < N; i++) {
        memset(&racers[i], 0, sizeof racers[i]);
        racers[i].srv = i % 2 ? &y : srv;
        snprintf(racers[i].path, sizeof racers[i].path, "/v1/seeks");
        racers[i].body = bodies[i < N / 2 ? 0 : 1];
        racers[i].h[0] = p[i].auth;
    }
    hard_together(racers, N);
    int created = 0;
    static char ids[N][64];
    for (int i = 0; i < N; i++) {
        created += racers[i].r.status == 201;
        snprintf(ids[i], sizeof ids[i], "%s", racers[i].r.json ? jstr(racers[i].r.json, "id") : "");
        resp_free(&racers[i].r);
    }
    if (created != N) (void)hard_server_stop(&y);
    CHECK(created == N, "%d of %d seeks created", created, N);
    int matched = 0;
    char unmatched[512] = "";
    for (int i = 0; i < N; i++) {
        char st[16];
        long long t0 = hard_now_ms();
        seek_status(i % 2 ? &y : srv, &p[i], ids[i], 20, st, NULL);
        matched += strcmp(st, "matched") == 0;
        /* What the poll answered (empty: not 200), after how long, and what the table
         * holds now (a flake seen once in CI: one of 40 after 30 s). */
        if (strcmp(st, "matched") != 0) {
            long stored = db_scalar_id("SELECT CASE status WHEN 'waiting' THEN 1 WHEN 'matched' "
                                       "THEN 2 ELSE 3 END FROM seeks WHERE id = $1::uuid",
                                       ids[i]);
            size_t o = strlen(unmatched);
            snprintf(unmatched + o, sizeof unmatched - o,
                     " [seek %d on %s: poll \"%s\" after %lld ms; stored 1 waiting 2 matched "
                     "3 other: %ld]",
                     i, i % 2 ? "the second server" : "the first", st, hard_now_ms() - t0, stored);
        }
    }
    (void)hard_server_stop(&y);
    CHECK(matched == N, "%d of %d seeks matched:%s", matched, N, unmatched);
    /* Every seek in one game; every game of the seeks with as many seats as the seek asked,
     * each seat bound to the seek's player at the seek's seat. */
    CHECK(db_scalar("SELECT count(*) FROM seeks s JOIN players p ON p.game_id = s.game_id AND "
                    "p.seat = s.seat AND p.person_id = s.person_id WHERE s.pool LIKE "
                    "'%86409%'") == N,
          "not every seek sits in its game");
    CHECK(db_scalar("SELECT count(*) FROM (SELECT s.game_id FROM seeks s WHERE s.pool LIKE "
                    "'%86409%' GROUP BY s.game_id HAVING count(*) = min(s.players) AND "
                    "count(*) = (SELECT count(*) FROM players p WHERE p.game_id = s.game_id) "
                    "AND count(DISTINCT s.person_id) = count(*)) x") == 15,
          "not 15 games of the right seats");
}

ITEST(test_seeks_killed, "seeks: the server that took the seeks killed (-9) at once; the other "
                         "server pairs them, once")
{
    struct person a, b;
    struct server y = {0};
    char why[300], ia[64], ib[64], code[64], sa[16], sb[16], ga[64], gb[64], body[256];
    CHECK(person_new(srv, "Kay", &a, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Kim", &b, why, sizeof why) == 0, "%s", why);
    CHECK(hard_server_start(&y, NULL, 0) == 0, "the second server did not start");
    seek_body(body, sizeof body, 2, 86410, "");
    long s1 = seek_post(&y, &a, body, ia, code);
    long s2 = seek_post(&y, &b, body, ib, code);
    hard_server_kill(&y); /* maybe while its matchmaker ran */
    CHECK(s1 == 201 && s2 == 201, "seeks: %ld, %ld", s1, s2);
    /* A lease held by the dead server runs out (MATCHMAKER_LEASE_MS); polls keep the seeks. */
    for (int i = 0; i < 8; i++) {
        seek_status(srv, &a, ia, 5, sa, ga);
        if (strcmp(sa, "matched") == 0) break;
    }
    seek_status(srv, &b, ib, 0, sb, gb);
    CHECK(strcmp(sa, "matched") == 0 && strcmp(sb, "matched") == 0 && strcmp(ga, gb) == 0,
          "after the kill: %s, %s", sa, sb);
    CHECK(db_scalar_id("SELECT count(*) FROM seeks WHERE game_id = $1::uuid", ga) == 2 &&
              seats_bound(ga) == 2,
          "the game's seats are not the two seeks'");
}

ITEST(test_seeks_idempotency, "seeks: an Idempotency-Key seeks once (also raced on two servers), "
                              "a repeat gets the first answer, the key with another body is 409")
{
    struct person a, b;
    char why[300], body[256], other[256], raced[256];
    CHECK(person_new(srv, "Keyed", &a, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Keyed2", &b, why, sizeof why) == 0, "%s", why);
    seek_body(body, sizeof body, 2, 86411, "");
    seek_body(other, sizeof other, 2, 86412, "");
    seek_body(raced, sizeof raced, 2, 86414, "");
    const char *h[3] = {a.auth, "Idempotency-Key: seek-key-1", NULL};
    struct resp r1, r2, r3, r4;
    http(srv, "POST", "/v1/seeks", body, h, &r1);
    http(srv, "POST", "/v1/seeks", body, h, &r2);
    http(srv, "POST", "/v1/seeks", other, h, &r3);
    const char *hb[3] = {b.auth, "Idempotency-Key: seek-key-1", NULL};
    http(srv, "POST", "/v1/seeks", other, hb, &r4); /* another player's key: its own */
    int first = r1.status == 201 && r1.body && r1.location[0];
    int same = r2.status == 201 && r1.body && r2.body && strcmp(r1.body, r2.body) == 0 &&
               strcmp(r1.location, r2.location) == 0;
    int reused = r3.status == 409 && strcmp(problem_code(&r3), "idempotency_key_reused") == 0;
    int own = r4.status == 201;
    char id[64], idb[64];
    snprintf(id, sizeof id, "%s", first && r1.json ? jstr(r1.json, "id") : "");
    snprintf(idb, sizeof idb, "%s", own && r4.json ? jstr(r4.json, "id") : "");
    long r3st = r3.status;
    resp_free(&r1);
    resp_free(&r2);
    resp_free(&r3);
    resp_free(&r4);
    CHECK(first, "first: no 201 with a Location");
    CHECK(same, "the repeat's answer is not the first one");
    CHECK(reused, "the key with another body: %ld", r3st);
    CHECK(own && strcmp(id, idb) != 0, "another player's seek with the same key");
    CHECK(db_scalar_id("SELECT count(*) FROM seeks WHERE person_id = $1::uuid", a.id) == 1,
          "the repeat sought again");
    /* The same key sent 6 times at once to two servers: one seek, one answer for all. */
    char differs[200];
    CHECK(hard_race_key(srv, "/v1/seeks", raced, a.auth, "Idempotency-Key: seek-key-2", 6, differs,
                        sizeof differs),
          "the raced repeats' answers differ (%s)", differs);
    CHECK(db_scalar_id("SELECT count(*) FROM seeks WHERE person_id = $1::uuid", a.id) == 2,
          "the raced key sought more than once");
    char code[64];
    CHECK(seek_delete(srv, &a, id, code) == 200, "cancel: %s", code);
    CHECK(db_scalar_id("WITH u AS (UPDATE seeks SET status = 'cancelled', ended_at = now() WHERE "
                       "person_id = $1::uuid AND status = 'waiting' RETURNING 1) SELECT count(*) "
                       "FROM u",
                       a.id) == 1,
          "the raced seek was not waiting");
    CHECK(seek_delete(srv, &b, idb, code) == 200, "cancel: %s", code);
}

/* A long poll of a seek on a thread of its own: when it was answered, and with what. */
struct poller {
    const struct server *srv;
    const struct person *p;
    const char *id;
    char status[16];
    long long answered_ms; /* hard_now_ms() when the answer came */
};

static void *poll_thread(void *arg)
{
    struct poller *x = arg;
    seek_status(x->srv, x->p, x->id, 30, x->status, NULL);
    x->answered_ms = hard_now_ms();
    return NULL;
}

/* Starts a 30 s long poll of seek `id` on `srv` as `p` in `x`, and lets it settle in. */
static int poll_start(struct poller *x, pthread_t *t, const struct server *srv,
                      const struct person *p, const char *id)
{
    memset(x, 0, sizeof *x);
    x->srv = srv;
    x->p = p;
    x->id = id;
    if (pthread_create(t, NULL, poll_thread, x) != 0) return -1;
    usleep(700000); /* the poll waits on its server by now */
    return 0;
}

ITEST(test_seeks_wake, "seeks: a long poll on one server is woken at once when the seek is "
                       "cancelled or matched on another (notified, not re-read)")
{
    struct person a, b;
    struct server y = {0};
    char why[300], ia[64], ib[64], code[64], body[256];
    CHECK(person_new(srv, "Waker", &a, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Woken", &b, why, sizeof why) == 0, "%s", why);
    seek_body(body, sizeof body, 2, 86413, "");
    CHECK(seek_post(srv, &a, body, ia, code) == 201, "seek: %s", code);
    CHECK(hard_server_start(&y, NULL, 0) == 0, "the second server did not start");
    /* Cancelled on the first server while its owner polls on the second: the poll reads it
     * again without the notification only after SEEK_RECHECK_MS (5 s). */
    struct poller x;
    pthread_t t;
    if (poll_start(&x, &t, &y, &a, ia)) (void)hard_server_stop(&y);
    CHECK(x.srv, "no poll thread");
    long long t0 = hard_now_ms();
    long st = seek_delete(srv, &a, ia, code);
    pthread_join(t, NULL);
    long long cancel_ms = x.answered_ms - t0;
    /* Matched: the second seek on the first server, the poll of the first on the second. */
    CHECK(seek_post(srv, &a, body, ia, code) == 201, "seek: %s", code);
    int started = poll_start(&x, &t, &y, &a, ia) == 0;
    long long t1 = hard_now_ms();
    long st2 = started ? seek_post(srv, &b, body, ib, code) : 0;
    if (started) pthread_join(t, NULL);
    long long match_ms = x.answered_ms - t1;
    /* How long after the binding (the database's ended_at) the poll was answered. */
    long long answer_age_ms = hard_now_ms() - x.answered_ms;
    long long bind_age_ms =
        started ? db_scalar_id("SELECT (extract(epoch FROM clock_timestamp() - ended_at) * 1000)"
                               "::bigint FROM seeks WHERE id = $1::uuid",
                               ia)
                : 0;
    long long after_bind_ms = bind_age_ms - answer_age_ms;
    (void)hard_server_stop(&y);
    CHECK(st == 200, "cancel: %s", code);
    /* Unwoken, a poll answers at the 5 s recheck: 4 s tells the wake apart and leaves a
     * sanitizer's server on a busy machine its time. */
    CHECK(cancel_ms < 4000, "the poll answered %lld ms after the cancel", cancel_ms);
    CHECK(started && st2 == 201, "the second seek: %s", code);
    CHECK(strcmp(x.status, "matched") == 0, "the poll answered %s", x.status);
    CHECK(match_ms < 15000 && after_bind_ms < 4000,
          "the poll answered %lld ms after the second seek, %lld ms after the binding", match_ms,
          after_bind_ms);
}
