/* t_tourney_play.c: tournaments played to the end (issue 27): a swiss of 8 over 3 rounds
 * (with an entrant leaving after the start), a round robin of 4, a knockout of 6 (byes to
 * the top seeds), a swiss at 3 players per game, the start at `starts_at` and the start's
 * refusals, and a swiss on two servers with one of them killed (-9) at every round change.
 * The games are driven by the test: every seat but the last resigns, in seat order. After
 * each tournament the invariants: every entrant still in sits once a round, no pair meets
 * twice while avoidable, no second bye, the points add up, one round_started a round and one
 * tournament_finished, and every game of the entrants belongs to one table. And the events
 * delivered to the entrants' player webhooks, each once; the events' long poll woken by a
 * round started through another server, and their stream (SSE) to its end. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "db.h"
#include "hard.h"
#include "hook.h"
#include "tests.h"

#define MAXP 16

/* A tournament and its entrants. */
struct field {
    char id[64];
    struct person org;
    struct person p[MAXP];
    int n;
    int leaver;      /* the entrant who leaves after the start (-1: none) */
    int leave_round; /* the round in which it leaves */
};

/* `method` `path` as `auth` on `srv`; the status (code[64] the problem's, or ""). */
static long req(const struct server *srv, const char *method, const char *path, const char *body,
                const char *auth, char code[64])
{
    const char *h[2] = {auth, NULL};
    struct resp r;
    http(srv, method, path, body, auth ? h : NULL, &r);
    long st = r.status;
    snprintf(code, 64, "%s", r.json && st >= 400 ? jstr(r.json, "code") : "");
    resp_free(&r);
    return st;
}

/* The entrant of f with id `id`, or -1. */
static int who(const struct field *f, const char *id)
{
    for (int i = 0; i < f->n; i++)
        if (strcmp(f->p[i].id, id) == 0) return i;
    return -1;
}

/* Creates tournament `body` with n entrants who all join; 0 or -1 (why). */
static int field_new(const struct server *srv, const char *body, int n, struct field *f, char *why,
                     size_t cap)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    f->leaver = -1;
    if (person_new(srv, "Organiser", &f->org, why, cap)) return -1;
    const char *h[2] = {f->org.auth, NULL};
    struct resp r;
    http(srv, "POST", "/v1/tournaments", body, h, &r);
    if (r.status != 201) {
        snprintf(why, cap, "create: %ld %.200s", r.status, r.body);
        resp_free(&r);
        return -1;
    }
    snprintf(f->id, sizeof f->id, "%s", jstr(r.json, "id"));
    resp_free(&r);
    char path[160], code[64];
    snprintf(path, sizeof path, "/v1/tournaments/%s/join", f->id);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "E%02d", i);
        if (person_new(srv, name, &f->p[i], why, cap)) return -1;
        long st = req(srv, "POST", path, NULL, f->p[i].auth, code);
        if (st != 201) {
            snprintf(why, cap, "join %d: %ld %s", i, st, code);
            return -1;
        }
    }
    return 0;
}

/* GET the tournament of f (caller deletes), NULL unless 200. */
static cJSON *tget(const struct server *srv, const struct field *f)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/tournaments/%s", f->id);
    return get_json(srv, path);
}

/* Waits up to `ms` until f's round passed `round` or it ended (finished, cancelled); the
 * tournament then (the caller deletes), or NULL. */
static cJSON *wait_past(const struct server *srv, const struct field *f, int round, int ms)
{
    for (int waited = 0; waited <= ms; waited += 50) {
        cJSON *t = tget(srv, f);
        if (t && (jnum(t, "round") > round || strcmp(jstr(t, "status"), "finished") == 0 ||
                  strcmp(jstr(t, "status"), "cancelled") == 0))
            return t;
        cJSON_Delete(t);
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* Plays round `round` of `t`: in every game still active, every seat but the last resigns,
 * in seat order (the leaver of this round leaves first). Returns 0, or -1 (why). */
static int play_round(const struct server *srv, struct field *f, const cJSON *t, int round,
                      char *why, size_t cap)
{
    char path[200], code[64];
    const cJSON *r = cJSON_GetArrayItem(jget(t, "pairings"), round - 1);
    if (!r || jnum(r, "round") != round) {
        snprintf(why, cap, "round %d missing", round);
        return -1;
    }
    if (f->leaver >= 0 && f->leave_round == round) {
        snprintf(path, sizeof path, "/v1/tournaments/%s/leave", f->id);
        long st = req(srv, "POST", path, NULL, f->p[f->leaver].auth, code);
        if (st != 204) {
            snprintf(why, cap, "leave after the start: %ld %s", st, code);
            return -1;
        }
    }
    const cJSON *x;
    cJSON_ArrayForEach(x, jget(r, "tables"))
    {
        const cJSON *players = jget(x, "players");
        int n = cJSON_GetArraySize(players);
        if (n < 2) continue;
        snprintf(path, sizeof path, "/v1/games/%s/resign", jstr(x, "game"));
        for (int s = 0; s < n - 1; s++) {
            int e = who(f, cJSON_GetArrayItem(players, s)->valuestring);
            if (e < 0) {
                snprintf(why, cap, "a seat of no entrant");
                return -1;
            }
            if (e == f->leaver && f->leave_round <= round) continue; /* resigned by leaving */
            long st = req(srv, "POST", path, NULL, f->p[e].auth, code);
            /* 409 game_not_active: the leaver's resignation ended it already. */
            if (st != 200 && !(st == 409 && strcmp(code, "game_not_active") == 0)) {
                snprintf(why, cap, "resign in round %d: %ld %s", round, st, code);
                return -1;
            }
        }
    }
    return 0;
}

/* Starts f as its organiser: the tournament once round 1 began (the caller deletes), or
 * NULL (why). */
static cJSON *start_round1(const struct server *srv, struct field *f, char *why, size_t cap)
{
    char path[160], code[64];
    snprintf(path, sizeof path, "/v1/tournaments/%s/start", f->id);
    long st = req(srv, "POST", path, NULL, f->org.auth, code);
    if (st != 200) {
        snprintf(why, cap, "start: %ld %s", st, code);
        return NULL;
    }
    cJSON *t = wait_past(srv, f, 0, 15000);
    if (!t) snprintf(why, cap, "round 1 did not begin");
    return t;
}

/* Tournament `body` with n entrants who all join, started: as start_round1(). */
static cJSON *field_started(const struct server *srv, const char *body, int n, struct field *f,
                            char *why, size_t cap)
{
    return field_new(srv, body, n, f, why, cap) ? NULL : start_round1(srv, f, why, cap);
}

/* Plays f to its end on srv (and, with y, every other round's resignations there, y killed
 * at once after each round's last one and started again). *rounds gets the rounds played.
 * The finished tournament (caller deletes), or NULL (why). */
static cJSON *play_out(const struct server *srv, struct server *y, struct field *f, int *rounds,
                       char *why, size_t cap)
{
    *rounds = 0;
    cJSON *t = start_round1(srv, f, why, cap);
    if (!t) return NULL;
    while (t && strcmp(jstr(t, "status"), "running") == 0) {
        int round = (int)jnum(t, "round");
        *rounds = round;
        const struct server *at = y && round % 2 ? y : srv;
        int rc = play_round(at, f, t, round, why, cap);
        cJSON_Delete(t);
        if (rc) return NULL;
        if (y && at == y) { /* killed in the round change: maybe in the middle of the pairing */
            hard_server_kill(y);
            if (hard_server_start(y, NULL, 0)) {
                snprintf(why, cap, "the second server did not start again");
                return NULL;
            }
        }
        /* A pairing claimed by a killed server waits for its lease (TOURNEY_RUN_LEASE_MS). */
        t = wait_past(srv, f, round, 20000);
    }
    if (!t) snprintf(why, cap, "round %d never ended", *rounds);
    if (t && strcmp(jstr(t, "status"), "finished") != 0) {
        snprintf(why, cap, "status %s", jstr(t, "status"));
        cJSON_Delete(t);
        t = NULL;
    }
    return t;
}

/* The invariants of finished tournament t of f at `per` a table: see the top. `repeats_ok`:
 * pairs may meet again (small fields at 3 a table). Returns 0, or -1 (why). */
static int invariants(const struct field *f, const cJSON *t, int per, int repeats_ok, char *why,
                      size_t cap)
{
    static unsigned char met[MAXP][MAXP];
    int byes[MAXP] = {0};
    double expect_points = 0;
    memset(met, 0, sizeof met);
    const cJSON *r;
    cJSON_ArrayForEach(r, jget(t, "pairings"))
    {
        int round = (int)jnum(r, "round"), seen[MAXP] = {0};
        const cJSON *x;
        cJSON_ArrayForEach(x, jget(r, "tables"))
        {
            const cJSON *players = jget(x, "players");
            int n = cJSON_GetArraySize(players), e[4];
            if (n < 1 || n > per) {
                snprintf(why, cap, "a table of %d in round %d", n, round);
                return -1;
            }
            for (int s = 0; s < n; s++) {
                e[s] = who(f, cJSON_GetArrayItem(players, s)->valuestring);
                if (e[s] < 0 || seen[e[s]]++) {
                    snprintf(why, cap, "an entrant twice (or unknown) in round %d", round);
                    return -1;
                }
            }
            if (n == 1) {
                expect_points += 1;
                if (++byes[e[0]] > 1 && strcmp(jstr(t, "format"), "swiss") == 0) {
                    snprintf(why, cap, "a second bye in round %d", round);
                    return -1;
                }
                continue;
            }
            if (!jget(x, "game") || !cJSON_IsString(jget(x, "game"))) {
                snprintf(why, cap, "a table without its game in round %d", round);
                return -1;
            }
            expect_points += n / 2.0;
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b < n; b++) {
                    if (met[e[a]][e[b]]++ && !repeats_ok) {
                        snprintf(why, cap, "a pair met again in round %d", round);
                        return -1;
                    }
                    met[e[b]][e[a]]++;
                }
        }
        /* Every entrant still in sits once (a knockout: only those not out). */
        if (strcmp(jstr(t, "format"), "knockout") != 0)
            for (int i = 0; i < f->n; i++) {
                int in = !(i == f->leaver && round > f->leave_round);
                if (in != seen[i]) {
                    snprintf(why, cap, "entrant %d %s round %d", i, in ? "missing from" : "in",
                             round);
                    return -1;
                }
            }
    }
    double points = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, jget(t, "standings")) points += jnum(s, "points");
    if (cJSON_GetArraySize(jget(t, "standings")) != f->n || points < expect_points - 0.01 ||
        points > expect_points + 0.01) {
        snprintf(why, cap, "standings: %d lines, %.2f points, want %.2f",
                 cJSON_GetArraySize(jget(t, "standings")), points, expect_points);
        return -1;
    }
    /* Ranks in order, points never rising down the list. */
    for (int i = 1; i < f->n; i++) {
        const cJSON *a = cJSON_GetArrayItem(jget(t, "standings"), i - 1),
                    *b = cJSON_GetArrayItem(jget(t, "standings"), i);
        if (jnum(a, "rank") > jnum(b, "rank") ||
            (strcmp(jstr(t, "format"), "knockout") != 0 && jnum(a, "points") < jnum(b, "points"))) {
            snprintf(why, cap, "standings out of order at %d", i);
            return -1;
        }
    }
    /* The events: one round_started a round, then one tournament_finished. */
    const char *v[1] = {f->id};
    long started = db_scalar_params("SELECT count(*) FROM tournament_events WHERE tournament_id "
                                    "= $1::uuid AND type = 'round_started'",
                                    1, v),
         finished = db_scalar_params("SELECT count(*) FROM tournament_events WHERE "
                                     "tournament_id = $1::uuid AND type = 'tournament_finished'",
                                     1, v);
    if (started != cJSON_GetArraySize(jget(t, "pairings")) || finished != 1) {
        snprintf(why, cap, "events: %ld round_started, %ld tournament_finished", started, finished);
        return -1;
    }
    /* Every game of the entrants belongs to one table, every table of two or more has one. */
    long games = db_scalar_params(
             "SELECT count(DISTINCT p.game_id) FROM players p JOIN tournament_entrants e ON "
             "e.person_id = p.person_id WHERE e.tournament_id = $1::uuid",
             1, v),
         tables = db_scalar_params("SELECT count(*) FROM tournament_tables WHERE tournament_id "
                                   "= $1::uuid AND cardinality(seats) > 1 AND game_id IS NOT NULL",
                                   1, v),
         all = db_scalar_params("SELECT count(*) FROM tournament_tables WHERE tournament_id = "
                                "$1::uuid AND cardinality(seats) > 1",
                                1, v);
    if (games != tables || tables != all) {
        snprintf(why, cap, "%ld games of the entrants, %ld tables with a game, %ld tables", games,
                 tables, all);
        return -1;
    }
    return 0;
}

/* Tournament `body` of n entrants (entrant `leaver`, unless -1, leaving in `leave_round`)
 * played to its end on srv (and y: see play_out) and its invariants checked at `per` a
 * table: the finished tournament (caller deletes), or NULL (why). */
static cJSON *played(const struct server *srv, struct server *y, const char *body, int n,
                     int leaver, int leave_round, int per, int repeats_ok, char *why, size_t cap)
{
    static struct field f;
    int rounds = 0;
    if (field_new(srv, body, n, &f, why, cap)) return NULL;
    f.leaver = leaver;
    f.leave_round = leave_round;
    cJSON *t = play_out(srv, y, &f, &rounds, why, cap);
    if (t && invariants(&f, t, per, repeats_ok, why, cap)) {
        cJSON_Delete(t);
        t = NULL;
    }
    return t;
}

/* The seat-0 entrant of table `table` of round `round` (0 first) of t: its place in joining
 * order, read from its name (E00, E01 ...), or -1. */
static int entrant_at(const cJSON *t, int round, int table)
{
    char path[64];
    snprintf(path, sizeof path, "pairings.%d.tables.%d.players.0", round, table);
    const char *id = jstr(t, path);
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(t, "entrants"))
    {
        if (strcmp(jstr(e, "player"), id) == 0) return (int)strtol(jstr(e, "name") + 1, NULL, 10);
    }
    return -1;
}

ITEST(tourney_swiss8, "tournaments: a swiss of 8 over 3 rounds, one entrant leaving in round 2")
{
    char why[300];
    cJSON *t = played(srv, NULL,
                      "{\"name\":\"Swiss 8\",\"format\":\"swiss\",\"rounds\":3,"
                      "\"players_per_game\":2,\"max_players\":8}",
                      8, 5, 2, 2, 0, why, sizeof why);
    CHECK(t, "%s", why);
    int three = cJSON_GetArraySize(jget(t, "pairings")) == 3;
    /* The leaver: out of round 3 (7 left: one bye), its round 2 game lost. */
    int bye3 = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, jget(t, "pairings.2.tables")) bye3 += cJSON_IsTrue(jget(x, "bye"));
    cJSON_Delete(t);
    CHECK(three, "3 rounds");
    CHECK(bye3 == 1, "round 3 of 7 has one bye: %d", bye3);
}

/* A leave sent `delay_us` after the start of test_tourney_leave_round_change's last move. */
struct leave_racer {
    pthread_t thread;
    const struct server *srv;
    const struct field *f;
    int entrant;
    int delay_us;
    long status;
};

static void *leave_main(void *arg)
{
    struct leave_racer *l = arg;
    char path[160], code[64];
    usleep((useconds_t)l->delay_us);
    snprintf(path, sizeof path, "/v1/tournaments/%s/leave", l->f->id);
    l->status = req(l->srv, "POST", path, NULL, l->f->p[l->entrant].auth, code);
    return NULL;
}

/* Into out[]: the entrants of f who left (leaves answered 204) and still hold an unresigned
 * seat in a running game of round 2 of t, as "E03 " ...; "" when none. */
static void leavers_seated(const struct server *srv, const struct field *f, const cJSON *t,
                           const struct leave_racer *l, int nl, char *out, size_t cap)
{
    out[0] = '\0';
    const cJSON *x;
    cJSON_ArrayForEach(x, jget(cJSON_GetArrayItem(jget(t, "pairings"), 1), "tables"))
    {
        if (!cJSON_IsString(jget(x, "game"))) continue;
        char path[160];
        snprintf(path, sizeof path, "/v1/games/%s", jstr(x, "game"));
        cJSON *g = get_json(srv, path);
        if (!g) continue;
        const cJSON *pl;
        cJSON_ArrayForEach(pl, jget(g, "players"))
        {
            for (int i = 0; i < nl; i++) {
                if (l[i].status != 204 ||
                    strcmp(jstr(pl, "player_id"), f->p[l[i].entrant].id) != 0 ||
                    cJSON_IsTrue(jget(pl, "resigned")) || strcmp(jstr(g, "status"), "active") != 0)
                    continue;
                size_t len = strlen(out);
                snprintf(out + len, cap - len, "E%02d ", l[i].entrant);
            }
        }
        cJSON_Delete(g);
    }
}

ITEST(tourney_leave_round_change,
      "tournaments: 8 of 16 entrants leave while round 1's last game ends and round 2 is paired "
      "and created: none keeps a seat in a running game of round 2")
{
    static struct field f;
    char why[300], path[200], code[64], seated[200] = "";
    cJSON *t = field_started(srv,
                             "{\"name\":\"Leavers\",\"format\":\"swiss\",\"rounds\":3,"
                             "\"players_per_game\":2,\"max_players\":16}",
                             16, &f, why, sizeof why);
    CHECK(t, "%s", why);
    /* Round 1: every game but the last ends (its first seat resigns). */
    const cJSON *tables = jget(cJSON_GetArrayItem(jget(t, "pairings"), 0), "tables");
    int ntables = cJSON_GetArraySize(tables), last_e = -1, failed = 0;
    char last_game[200] = "";
    for (int k = 0; k < ntables && !failed; k++) {
        const cJSON *x = cJSON_GetArrayItem(tables, k);
        int e = who(&f, cJSON_GetArrayItem(jget(x, "players"), 0)->valuestring);
        snprintf(path, sizeof path, "/v1/games/%s/resign", jstr(x, "game"));
        if (k == ntables - 1) {
            last_e = e;
            snprintf(last_game, sizeof last_game, "%s", path);
        } else if (e < 0 || req(srv, "POST", path, NULL, f.p[e].auth, code) != 200) {
            failed = 1;
        }
    }
    if (failed || last_e < 0 || ntables != 8) cJSON_Delete(t);
    CHECK(!failed && last_e >= 0 && ntables == 8, "round 1's games: %d tables", ntables);
    /* The last game ends while eight entrants of the first seven games leave, one every 6 ms
     * from then on: some leaves land while round 2 is paired and its games created. */
    struct leave_racer l[8];
    for (int i = 0; i < 8; i++) {
        const cJSON *x = cJSON_GetArrayItem(tables, i % 7);
        l[i] = (struct leave_racer){.srv = srv, .f = &f, .delay_us = 6000 * i};
        l[i].entrant = who(&f, cJSON_GetArrayItem(jget(x, "players"), i / 7 ? 0 : 1)->valuestring);
    }
    cJSON_Delete(t);
    for (int i = 0; i < 8; i++) pthread_create(&l[i].thread, NULL, leave_main, &l[i]);
    long st = req(srv, "POST", last_game, NULL, f.p[last_e].auth, code);
    for (int i = 0; i < 8; i++) pthread_join(l[i].thread, NULL);
    CHECK(st == 200, "the last game's resignation: %ld %s", st, code);
    t = wait_past(srv, &f, 1, 15000);
    CHECK(t, "round 2 did not begin");
    /* The leaves resign their games before answering; the sweep that the round's beginning
     * plans resigns those whose leave came while it paired (up to 5 s for its last steps). */
    for (int waited = 0; waited <= 5000; waited += 100) {
        leavers_seated(srv, &f, t, l, 8, seated, sizeof seated);
        if (!seated[0]) break;
        usleep(100000);
    }
    int left = 0;
    for (int i = 0; i < 8; i++) left += l[i].status == 204;
    cJSON_Delete(t);
    CHECK(left == 8, "%d of 8 leaves answered 204", left);
    CHECK(!seated[0], "entrants who left still seated in round 2: %s", seated);
}

/* Whether `person` has resigned in game `game`, looked at every 100 ms for up to `ms`. */
static int resigned_within(const struct server *srv, const char *game, const char *person, int ms)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", game);
    for (int waited = 0;; waited += 100) {
        cJSON *g = get_json(srv, path);
        int done = 0;
        const cJSON *pl;
        cJSON_ArrayForEach(pl, jget(g, "players"))
        {
            if (strcmp(jstr(pl, "player_id"), person) == 0 && cJSON_IsTrue(jget(pl, "resigned")))
                done = 1;
        }
        cJSON_Delete(g);
        if (done) return 1;
        if (waited >= ms) return 0;
        usleep(100000);
    }
}

ITEST(tourney_sweep_backstop,
      "tournaments: a leave's commit plans the tournament's sweep; a leave whose server died "
      "before it resigned the game (its commit made by hand) is resigned by that sweep, once, "
      "with two servers' workers after it")
{
    static const char body[] = "{\"name\":\"Sweep\",\"format\":\"swiss\",\"rounds\":2,"
                               "\"players_per_game\":2,\"max_players\":4}";
    static struct field f;
    char why[300], path[200], code[64], game0[64], game1[64];
    cJSON *t = field_started(srv, body, 4, &f, why, sizeof why);
    CHECK(t, "%s", why);
    /* Round 1's two tables: a the first seat of table 0, b the second seat of table 1. */
    const cJSON *r1 = jget(cJSON_GetArrayItem(jget(t, "pairings"), 0), "tables");
    const cJSON *x0 = cJSON_GetArrayItem(r1, 0), *x1 = cJSON_GetArrayItem(r1, 1);
    int a = x0 ? who(&f, cJSON_GetArrayItem(jget(x0, "players"), 0)->valuestring) : -1;
    int b = x1 ? who(&f, cJSON_GetArrayItem(jget(x1, "players"), 1)->valuestring) : -1;
    snprintf(game0, sizeof game0, "%s", x0 ? jstr(x0, "game") : "");
    snprintf(game1, sizeof game1, "%s", x1 ? jstr(x1, "game") : "");
    cJSON_Delete(t);
    CHECK(a >= 0 && b >= 0 && game0[0] && game1[0], "round 1's two tables");

    /* a leaves: its game is resigned before the answer, and the leave's commit planned the
     * sweep (due STORE_TOURNEY_SWEEP_BACKSTOP_MS, 2 s, later: unless that much went by, it
     * is still there). */
    snprintf(path, sizeof path, "/v1/tournaments/%s/leave", f.id);
    long long sent = hard_now_ms();
    CHECK(req(srv, "POST", path, NULL, f.p[a].auth, code) == 204, "a leaves: %s", code);
    long planned = db_scalar_id("SELECT count(*) FROM jobs WHERE kind = 'tournament_sweep' AND "
                                "subject = $1 AND game_id IS NULL AND due_at > now()",
                                f.id);
    long long looked = hard_now_ms() - sent;
    CHECK(planned == 1 || (planned == 0 && looked >= 1900),
          "the leave's commit planned no sweep (%ld after %lld ms)", planned, looked);
    CHECK(resigned_within(srv, game0, f.p[a].id, 0), "a's game not resigned by the leave");

    /* b "leaves" as a server killed after the leave's commit would leave it: marked out, its
     * sweep planned (as ST_TOURNEY_WITHDRAW and ST_TOURNEY_SWEEP_PLAN write them), its game
     * not resigned. The sweep resigns it, once, with a second server's workers claiming jobs
     * too. */
    struct server two;
    CHECK(hard_server_start(&two, NULL, 0) == 0, "the second server did not start");
    const char *v2[2] = {f.id, f.p[b].id};
    long written = db_scalar_params(
        "WITH l AS (UPDATE tournament_entrants SET left_round = 1 WHERE tournament_id = $1::uuid "
        "AND person_id = $2::uuid RETURNING 1), j AS (INSERT INTO jobs AS j (game_id, kind, "
        "subject, version, due_at, lease_ms) VALUES (NULL, 'tournament_sweep', $1, 0, now(), "
        "10000) ON CONFLICT (game_id, kind, subject) DO UPDATE SET version = j.version + 1, "
        "due_at = now() RETURNING 1) SELECT (SELECT count(*) FROM l) + (SELECT count(*) FROM j)",
        2, v2);
    int swept = written == 2 && resigned_within(srv, game1, f.p[b].id, 10000);
    /* A second run of the sweep (a double claim) would find the seat resigned and change
     * nothing; what is checked is that the game shows one resignation, b's. */
    usleep(1500000); /* both servers' workers poll meanwhile */
    long resigns = db_scalar_id("SELECT count(*) FROM events WHERE game_id = $1::uuid AND type = "
                                "'seat_resigned'",
                                game1);
    int stopped = hard_server_stop(&two);
    CHECK(written == 2, "b's leave written by hand: %ld rows", written);
    CHECK(swept, "the sweep did not resign b's seat");
    CHECK(resigns == 1, "%ld resignations in b's game", resigns);
    CHECK(stopped == 0, "the second server exited with %d", stopped);
    /* Round 2 then begins without them, and the sweep's job is gone (done, not looping). */
    t = wait_past(srv, &f, 1, 15000);
    CHECK(t, "round 2 did not begin");
    const cJSON *r2 = jget(cJSON_GetArrayItem(jget(t, "pairings"), 1), "tables");
    int seated = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, r2)
    {
        const cJSON *pl;
        cJSON_ArrayForEach(pl, jget(x, "players"))
        {
            if (cJSON_IsString(pl) &&
                (who(&f, pl->valuestring) == a || who(&f, pl->valuestring) == b))
                seated++;
        }
    }
    cJSON_Delete(t);
    CHECK(seated == 0, "%d leavers seated in round 2", seated);
    long left = -1;
    for (int waited = 0; waited <= 10000; waited += 100) {
        left = db_scalar_id("SELECT count(*) FROM jobs WHERE kind = 'tournament_sweep' AND "
                            "subject = $1",
                            f.id);
        if (left == 0) break;
        usleep(100000);
    }
    CHECK(left == 0, "the sweep's job still there: %ld", left);
}

ITEST(tourney_round_robin4, "tournaments: a round robin of 4: everyone meets everyone once")
{
    char why[300];
    cJSON *t =
        played(srv, NULL, "{\"name\":\"RR 4\",\"format\":\"round_robin\",\"players_per_game\":2}",
               4, -1, 0, 2, 0, why, sizeof why);
    CHECK(t, "%s", why);
    int n = cJSON_GetArraySize(jget(t, "pairings")), games = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, jget(t, "pairings")) games += cJSON_GetArraySize(jget(r, "tables"));
    cJSON_Delete(t);
    CHECK(n == 3 && games == 6, "%d rounds, %d games: every pair once", n, games);
}

ITEST(tourney_knockout6, "tournaments: a knockout of 6: byes to the top seeds, one champion")
{
    char why[300];
    cJSON *t =
        played(srv, NULL, "{\"name\":\"KO 6\",\"format\":\"knockout\",\"players_per_game\":2}", 6,
               -1, 0, 2, 0, why, sizeof why);
    CHECK(t, "%s", why);
    int n = cJSON_GetArraySize(jget(t, "pairings")), byes = 0, seeds_ok = 1;
    const cJSON *x;
    int table = 0;
    cJSON_ArrayForEach(x, jget(t, "pairings.0.tables"))
    {
        /* A bye goes to seed 1 or 2 (joining order: no ratings). */
        if (cJSON_IsTrue(jget(x, "bye"))) {
            int e = entrant_at(t, 0, table);
            byes++;
            seeds_ok &= e == 0 || e == 1;
        }
        table++;
    }
    int champion = jnum(t, "standings.0.rank") == 1 && jnum(t, "standings.0.rounds_won") == 3 &&
                   jnum(t, "standings.1.rank") == 2;
    cJSON_Delete(t);
    CHECK(n == 3 && byes == 2 && seeds_ok, "%d rounds, %d byes in round 1 (top seeds: %d)", n, byes,
          seeds_ok);
    CHECK(champion, "one champion with 3 rounds won");
}

ITEST(tourney_three_a_table, "tournaments: a swiss of 7 at 3 players per game")
{
    char why[300];
    cJSON *t = played(srv, NULL,
                      "{\"name\":\"Swiss 3s\",\"format\":\"swiss\",\"rounds\":2,"
                      "\"players_per_game\":3}",
                      7, -1, 0, 3, 1, why, sizeof why);
    CHECK(t, "%s", why);
    /* 7 at 3 a table: 3, 2, 2. */
    int sizes = cJSON_GetArraySize(jget(t, "pairings.0.tables.0.players")) * 100 +
                cJSON_GetArraySize(jget(t, "pairings.0.tables.1.players")) * 10 +
                cJSON_GetArraySize(jget(t, "pairings.0.tables.2.players"));
    cJSON_Delete(t);
    CHECK(sizes == 322, "round 1's tables: %d", sizes);
}

ITEST(tourney_start_rules, "tournaments: the start by the organiser only, with two entrants, "
                           "or at starts_at")
{
    char why[300], code[64], path[160];
    struct field f;
    CHECK(field_new(srv, "{\"name\":\"Solo\",\"format\":\"knockout\"}", 1, &f, why, sizeof why) ==
              0,
          "%s", why);
    snprintf(path, sizeof path, "/v1/tournaments/%s/start", f.id);
    CHECK(req(srv, "POST", path, NULL, f.p[0].auth, code) == 403 &&
              strcmp(code, "not_organiser") == 0,
          "an entrant starts it: %s", code);
    CHECK(req(srv, "POST", path, NULL, f.org.auth, code) == 409 &&
              strcmp(code, "tournament_too_few") == 0,
          "one entrant: %s", code);
    CHECK(req(srv, "POST", path, NULL, NULL, code) == 401, "no token");
    CHECK(db_scalar_id("SELECT count(*) FROM tournaments WHERE id = $1::uuid AND status = 'open'",
                       f.id) == 1,
          "still open");

    /* An announced start two seconds from now: started by the job planned at creation. */
    char body[256], at[32];
    time_t soon = time(NULL) + 2;
    struct tm tm;
    gmtime_r(&soon, &tm);
    strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(body, sizeof body, "{\"name\":\"At\",\"format\":\"knockout\",\"starts_at\":\"%s\"}",
             at);
    struct field g;
    CHECK(field_new(srv, body, 2, &g, why, sizeof why) == 0, "%s", why);
    cJSON *t = wait_past(srv, &g, 0, 8000);
    int ok = t && strcmp(jstr(t, "status"), "running") == 0 && jnum(t, "round") == 1 &&
             cJSON_IsString(jget(t, "pairings.0.tables.0.game"));
    cJSON_Delete(t);
    CHECK(ok, "started at starts_at with round 1's game");
    snprintf(path, sizeof path, "/v1/tournaments/%s/start", g.id);
    CHECK(req(srv, "POST", path, NULL, g.org.auth, code) == 409 &&
              strcmp(code, "tournament_not_open") == 0,
          "started twice: %s", code);
    snprintf(path, sizeof path, "/v1/tournaments/%s/events?after=0", g.id);
    cJSON *ev = get_json(srv, path);
    ok = ev && strcmp(jstr(ev, "events.0.type"), "round_started") == 0 &&
         jnum(ev, "events.0.data.round") == 1;
    cJSON_Delete(ev);
    CHECK(ok, "round_started in the events");
}

ITEST(tourney_killed, "tournaments: a swiss on two servers, one killed (-9) at each round change: "
                      "every round paired once")
{
    char why[300];
    struct server y = {0};
    CHECK(hard_server_start(&y, NULL, 0) == 0, "the second server did not start");
    cJSON *t = played(srv, &y,
                      "{\"name\":\"Killed\",\"format\":\"swiss\",\"rounds\":3,"
                      "\"players_per_game\":2}",
                      8, -1, 0, 2, 0, why, sizeof why);
    (void)hard_server_stop(&y);
    CHECK(t, "%s", why);
    int n = cJSON_GetArraySize(jget(t, "pairings"));
    cJSON_Delete(t);
    CHECK(n == 3, "%d rounds", n);
}

/* The tournament events that listener `l` got on path `path` (X-Tilehall-Event round_started
 * or tournament_finished): each signed with `secret`, naming tournament `id`, the seqs
 * want[0..nwant) once each in order. Returns how many it got (it stops at one wrong: -1,
 * why). */
static int tourney_hooks(struct listener *l, const char *path, const char *id, const char *secret,
                         const int *want, int nwant, char *why, size_t cap)
{
    int got = 0;
    pthread_mutex_lock(&l->lock);
    for (int i = 0; i < l->n && i < HOOK_MAX && got >= 0; i++) {
        const struct hook_req *r = &l->req[i];
        if (strcmp(r->path, path) != 0 || (strcmp(r->event, "round_started") != 0 &&
                                           strcmp(r->event, "tournament_finished") != 0))
            continue;
        cJSON *b = cJSON_Parse(r->body);
        char delivery[96];
        int seq = got < nwant ? want[got] : -1;
        snprintf(delivery, sizeof delivery, "%s:tournament:%d", id, seq);
        if (seq < 0 || !hook_signature_ok(secret, r) || strcmp(jstr(b, "tournament"), id) != 0 ||
            jnum(b, "event.seq") != seq || strcmp(jstr(b, "event.type"), r->event) != 0 ||
            strcmp(r->delivery, delivery) != 0) {
            snprintf(why, cap, "%s: delivery %s (want %s), signature %s, tournament %s", path,
                     r->delivery, delivery, hook_signature_ok(secret, r) ? "ok" : "wrong",
                     jstr(b, "tournament"));
            got = -1;
        } else {
            got++;
        }
        cJSON_Delete(b);
    }
    pthread_mutex_unlock(&l->lock);
    return got;
}

ITEST(tourney_webhooks, "tournaments: round_started and tournament_finished delivered once to "
                        "each entrant's player webhook, signed (the leaver's: no later round)")
{
    enum { N = 5 };
    char why[300] = "", secret[N][96], body[160], path[16];
    static struct field f;
    struct listener *l = listener_start();
    CHECK(l, "no listener");
    int ok = field_new(srv,
                       "{\"name\":\"Hooked\",\"format\":\"swiss\",\"rounds\":2,"
                       "\"players_per_game\":2}",
                       N, &f, why, sizeof why) == 0;
    for (int i = 0; ok && i < N; i++) {
        const char *h[2] = {f.p[i].auth, NULL};
        struct resp r;
        snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%d/e%d\"}", l->port, i);
        http(srv, "POST", "/v1/players/me/webhook", body, h, &r);
        ok = r.status == 200;
        snprintf(secret[i], sizeof secret[i], "%s", ok ? jstr(r.json, "secret") : "");
        if (!ok) snprintf(why, sizeof why, "webhook of %d: %ld", i, r.status);
        resp_free(&r);
    }
    f.leaver = N - 1; /* leaves in round 1: gets round 1's start and the end, not round 2's */
    f.leave_round = 1;
    int rounds = 0;
    cJSON *t = ok ? play_out(srv, NULL, &f, &rounds, why, sizeof why) : NULL;
    ok = t && invariants(&f, t, 2, 0, why, sizeof why) == 0;
    cJSON_Delete(t);
    const int all[3] = {1, 2, 3}, leaver[2] = {1, 3};
    int done = 0;
    for (int waited = 0; ok && !done && waited <= 15000; waited += 50) {
        done = 1;
        for (int i = 0; ok && i < N; i++) {
            snprintf(path, sizeof path, "/e%d", i);
            int want = i == f.leaver ? 2 : 3;
            int got = tourney_hooks(l, path, f.id, secret[i], i == f.leaver ? leaver : all, want,
                                    why, sizeof why);
            ok = got >= 0 && got <= want;
            done &= got == want;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        if (ok && !done) nanosleep(&ts, NULL);
    }
    /* Nothing more comes: a second delivery of an event would show here. */
    struct timespec settle = {0, 300 * 1000 * 1000};
    if (ok && done) nanosleep(&settle, NULL);
    for (int i = 0; ok && done && i < N; i++) {
        snprintf(path, sizeof path, "/e%d", i);
        int want = i == f.leaver ? 2 : 3;
        ok = tourney_hooks(l, path, f.id, secret[i], i == f.leaver ? leaver : all, want, why,
                           sizeof why) == want;
    }
    listener_stop(l);
    CHECK(ok, "%s", why);
    CHECK(done, "the tournament's deliveries did not all come");
    CHECK(rounds == 2, "%d rounds", rounds);
}

/* A tournament's event stream read on a thread of its own (tstream_start, tstream_join) for
 * at most `ms` (then cut): what came, and whether the server ended it. */
struct tstream {
    char url[512];    /* what it reads */
    char last_id[16]; /* Last-Event-ID to send, or "" */
    long ms;          /* the transfer is cut after this long */
    struct resp r;    /* the answer: status, Content-Type, the stream's bytes */
    int ended;        /* 1: the server ended it before the cut */
    long long took;   /* ms from the request to the end (or the cut) */
    pthread_t thread;
    int started;
};

static void *tstream_main(void *p)
{
    struct tstream *s = p;
    long long t0 = hard_now_ms();
    CURL *h = curl_easy_init();
    if (!h) return NULL;
    char lei[48];
    snprintf(lei, sizeof lei, "Last-Event-ID: %s", s->last_id);
    const char *lines[] = {"Accept: text/event-stream", s->last_id[0] ? lei : NULL, NULL};
    struct curl_slist *hl = resp_headers(lines, 0);
    resp_request(h, s->url, "GET", NULL, hl);
    resp_capture(h, resp_on_body, resp_on_header, &s->r, s->ms);
    s->ended = resp_perform(h, &s->r) == CURLE_OK;
    /* A stream cut at the end of its window has its status too. */
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &s->r.status);
    curl_slist_free_all(hl);
    curl_easy_cleanup(h);
    s->took = hard_now_ms() - t0;
    return NULL;
}

/* Starts reading stream `path` at `base` (a server's base or direct URL) with Last-Event-ID
 * `last_id` (NULL: none) for at most `ms`. */
static void tstream_start(struct tstream *s, const char *base, const char *path,
                          const char *last_id, long ms)
{
    memset(s, 0, sizeof *s);
    snprintf(s->url, sizeof s->url, "%s%s", base, path);
    snprintf(s->last_id, sizeof s->last_id, "%s", last_id ? last_id : "");
    s->ms = ms;
    s->started = pthread_create(&s->thread, NULL, tstream_main, s) == 0;
}

/* Waits for the stream's end (or cut); 1 when it was read at all. */
static int tstream_join(struct tstream *s)
{
    if (s->started) pthread_join(s->thread, NULL);
    if (!s->r.body) s->r.body = calloc(1, 1);
    return s->started && s->r.body;
}

/* The tstream_start() and tstream_join() of a stream that should end by itself. */
static int tstream_read(struct tstream *s, const char *base, const char *path, const char *last_id,
                        long ms)
{
    tstream_start(s, base, path, last_id, ms);
    return tstream_join(s);
}

/* The ids of the events of stream body `b`, "1,2" (in order), into out[cap]. */
static void stream_ids(const char *b, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    for (const char *p = b; p && (p = strstr(p, "id: ")); p += 4)
        if (p == b || p[-1] == '\n')
            o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, "%s%ld", o ? "," : "",
                                  strtol(p + 4, NULL, 10));
}

/* A long poll sent on a thread of its own. */
struct tpoll {
    const struct server *srv; /* where */
    char path[256];           /* what */
    struct resp r;            /* the answer */
    long long ms;             /* when it came (hard_now_ms) */
    long long wall;           /* ... and in Unix milliseconds */
};

static void *tpoll_main(void *p)
{
    struct tpoll *a = p;
    http(a->srv, "GET", a->path, NULL, NULL, &a->r);
    a->ms = hard_now_ms();
    a->wall = wall_ms();
    return NULL;
}

/* GET `path` of srv: the status, the events' count into *n (-1 without a list) and the
 * milliseconds it took into *ms. */
static long timed_events(const struct server *srv, const char *path, int *n, long long *ms)
{
    struct resp r;
    long long t0 = hard_now_ms();
    http(srv, "GET", path, NULL, NULL, &r);
    *ms = hard_now_ms() - t0;
    const cJSON *ev = jget(r.json, "events");
    *n = cJSON_IsArray(ev) ? cJSON_GetArraySize(ev) : -1;
    long st = r.status;
    resp_free(&r);
    return st;
}

/* A swiss of 4 over 2 rounds, for the events' tests. */
#define EVENTS_SWISS "{\"name\":\"Live\",\"format\":\"swiss\",\"rounds\":2,\"players_per_game\":2}"

ITEST(tourney_events_long_poll,
      "tournaments: the events' long poll (wait=) woken by a round started through another "
      "server, after honoured, an empty answer at its end, at once when finished")
{
    char why[300] = "", path[200];
    static struct field f;
    CHECK(field_new(srv, EVENTS_SWISS, 4, &f, why, sizeof why) == 0, "%s", why);
    char code[64];
    snprintf(path, sizeof path, "/v1/tournaments/%s/start", f.id);
    CHECK(req(srv, "POST", path, NULL, f.org.auth, code) == 200, "start: %s", code);
    cJSON *t = wait_past(srv, &f, 0, 15000);
    CHECK(t, "round 1 did not start");

    /* Events after `after` answer at once; none after it: the wait's end, an empty list. */
    int n = 0;
    long long ms = 0;
    snprintf(path, sizeof path, "/v1/tournaments/%s/events?after=0&wait=30", f.id);
    long st = timed_events(srv, path, &n, &ms);
    CHECK(st == 200 && n == 1 && ms < 5000, "after=0&wait=30: %ld, %d events, %lld ms", st, n, ms);
    snprintf(path, sizeof path, "/v1/tournaments/%s/events?after=1&wait=1", f.id);
    st = timed_events(srv, path, &n, &ms);
    CHECK(st == 200 && n == 0 && ms >= 900 && ms < 5000, "after=1&wait=1: %ld, %d events, %lld ms",
          st, n, ms);

    /* The second server runs no jobs (round 2 is paired by the first) and rechecks only every
     * minute: only the notification of the event can wake its long poll in time.
     * REQUEST_TIMEOUT=1: a long poll woken after that is still answered (not 408). */
    const char *env[] = {"LIVE_FALLBACK_MS=60000", "REQUEST_TIMEOUT=1", "BOT_WORKERS=0",
                         "SSE_HEARTBEAT=1", NULL};
    struct server two;
    int up = hard_server_start(&two, env, 0) == 0;
    struct tpoll a = {.srv = &two};
    snprintf(a.path, sizeof a.path, "/v1/tournaments/%s/events?after=1&wait=30", f.id);
    pthread_t th;
    int started = up && pthread_create(&th, NULL, tpoll_main, &a) == 0;
    /* Its stream too, from Last-Event-ID 1: round 2's start, and heartbeats meanwhile. */
    struct tstream sx;
    char spath[200];
    snprintf(spath, sizeof spath, "/v1/tournaments/%s/events/stream", f.id);
    if (up) tstream_start(&sx, two.direct, spath, "1", 10000); /* time for a sanitizer's round */
    usleep(1500000); /* both wait now, the poll longer than REQUEST_TIMEOUT */
    long long t0 = hard_now_ms();
    int played = up ? play_round(srv, &f, t, 1, why, sizeof why) : -1; /* on the first server */
    cJSON_Delete(t);
    if (started) pthread_join(th, NULL);
    int streamed = up && tstream_join(&sx);
    int stopped = up ? hard_server_stop(&two) : -1;
    long long poll_ms = a.ms - t0;
    long long wake_ms = a.wall - rfc3339_ms(jstr(a.r.json, "events.0.at"));
    int ok = a.r.status == 200 && cJSON_GetArraySize(jget(a.r.json, "events")) == 1 &&
             jnum(a.r.json, "events.0.seq") == 2 &&
             strcmp(jstr(a.r.json, "events.0.type"), "round_started") == 0 &&
             jnum(a.r.json, "events.0.data.round") == 2;
    char got[300], ids[64] = "";
    snprintf(got, sizeof got, "%ld %.260s", a.r.status, a.r.body ? a.r.body : "");
    resp_free(&a.r);
    int beats = 0, stream_ok = 0;
    char sgot[300] = "not read";
    if (streamed) {
        stream_ids(sx.r.body, ids, sizeof ids);
        snprintf(sgot, sizeof sgot, "%ld ended %d events %s: %.200s", sx.r.status, sx.ended, ids,
                 sx.r.body);
        beats = strstr(sx.r.body, ": heartbeat\n") != NULL;
        stream_ok = sx.r.status == 200 && strcmp(ids, "2") == 0 &&
                    strstr(sx.r.body, "id: 2\nevent: round_started\ndata: {") && !sx.ended;
        resp_free(&sx.r);
    }
    CHECK(up, "the second server did not start");
    CHECK(played == 0, "round 1: %s", why);
    CHECK(started && ok, "long poll on the second server: %s", got);
    /* Unwoken, it would answer at its deadline, 30 s on (the recheck is a minute away); the
     * time from the last resignation includes the pairing of round 2 and its games. */
    CHECK(poll_ms < 10000, "the long poll on the other server answered %lld ms after round 1 ended",
          poll_ms);
    CHECK(wake_ms < 5000, "the long poll answered %lld ms after the event", wake_ms);
    printf("     tournament long poll woken on the other server %lld ms after round 1's end, "
           "%lld ms after round_started's commit\n",
           poll_ms, wake_ms);
    CHECK(stream_ok, "the second server's stream from Last-Event-ID 1: %s", sgot);
    CHECK(beats, "no heartbeat on the second server's stream");
    CHECK(stopped == 0, "the second server exited with %d", stopped);

    /* Played to its end: a finished tournament's long poll answers at once. */
    t = wait_past(srv, &f, 1, 15000);
    CHECK(t && jnum(t, "round") == 2, "round 2 did not start");
    played = play_round(srv, &f, t, 2, why, sizeof why);
    cJSON_Delete(t);
    CHECK(played == 0, "round 2: %s", why);
    t = wait_past(srv, &f, 2, 15000);
    ok = t && strcmp(jstr(t, "status"), "finished") == 0;
    cJSON_Delete(t);
    CHECK(ok, "not finished");
    snprintf(path, sizeof path, "/v1/tournaments/%s/events?after=3&wait=30", f.id);
    st = timed_events(srv, path, &n, &ms);
    CHECK(st == 200 && n == 0 && ms < 5000, "finished, after=3&wait=30: %ld, %d events, %lld ms",
          st, n, ms);
    snprintf(path, sizeof path, "/v1/tournaments/%s/events?after=1&wait=30", f.id);
    st = timed_events(srv, path, &n, &ms);
    CHECK(st == 200 && n == 2 && ms < 5000, "finished, after=1: %ld, %d events, %lld ms", st, n,
          ms);
}

ITEST(tourney_events_stream, "tournaments: the events' stream (SSE): round_started as it starts, "
                             "the end after tournament_finished, Last-Event-ID resuming")
{
    char why[300] = "", path[200], spath[200], code[64], ids[64];
    static struct field f;
    CHECK(field_new(srv, "{\"name\":\"Streamed\",\"format\":\"knockout\"}", 2, &f, why,
                    sizeof why) == 0,
          "%s", why);
    /* Open before the start, through the spec proxy: it hears round 1's start and the end. */
    snprintf(spath, sizeof spath, "/v1/tournaments/%s/events/stream", f.id);
    struct tstream s;
    tstream_start(&s, srv->base, spath, NULL, 30000);
    usleep(300000);
    snprintf(path, sizeof path, "/v1/tournaments/%s/start", f.id);
    long st = req(srv, "POST", path, NULL, f.org.auth, code);
    cJSON *t = st == 200 ? wait_past(srv, &f, 0, 15000) : NULL;
    int played = t ? play_round(srv, &f, t, 1, why, sizeof why) : -1;
    cJSON_Delete(t);
    int read = tstream_join(&s);
    stream_ids(s.r.body, ids, sizeof ids);
    int ok = read && s.r.status == 200 && strncmp(s.r.ctype, "text/event-stream", 17) == 0 &&
             strncmp(s.r.body, "retry: 2000\n\n", 13) == 0 && strcmp(ids, "1,2") == 0 &&
             strstr(s.r.body, "id: 1\nevent: round_started\ndata: {\"seq\"") &&
             strstr(s.r.body, "id: 2\nevent: tournament_finished\ndata: {\"seq\"");
    char got[400];
    snprintf(got, sizeof got, "%ld %s ended %d after %lld ms: %.300s", s.r.status, s.r.ctype,
             s.ended, s.took, s.r.body ? s.r.body : "");
    int ended = s.ended;
    resp_free(&s.r);
    CHECK(st == 200, "start: %ld %s", st, code);
    CHECK(played == 0, "round 1: %s", why);
    CHECK(ok, "the stream: %s", got);
    CHECK(ended, "the stream did not end after tournament_finished: %s", got);

    /* Finished: Last-Event-ID resumes after it (over `after`), `after` without it; with
     * every event seen the stream ends at once, with none. */
    static const struct {
        const char *query, *last_id, *want;
    } resume[] = {
        {"", "1", "2"}, {"?after=0", "1", "2"}, {"?after=1", NULL, "2"},
        {"", "2", ""},  {"?after=2", NULL, ""}, {"", "x7", "1,2"},
    };
    for (size_t i = 0; i < sizeof resume / sizeof resume[0]; i++) {
        char p[240];
        snprintf(p, sizeof p, "%s%s", spath, resume[i].query);
        read = tstream_read(&s, srv->base, p, resume[i].last_id, 5000);
        stream_ids(s.r.body, ids, sizeof ids);
        ok = read && s.r.status == 200 && s.ended && strcmp(ids, resume[i].want) == 0;
        snprintf(got, sizeof got, "%ld ended %d events %s", s.r.status, s.ended, ids);
        resp_free(&s.r);
        CHECK(ok, "stream%s with Last-Event-ID %s: %s, want %s", resume[i].query,
              resume[i].last_id ? resume[i].last_id : "(none)", got, resume[i].want);
    }
    /* The events path with Accept: text/event-stream answers the same stream. */
    snprintf(path, sizeof path, "/v1/tournaments/%s/events", f.id);
    read = tstream_read(&s, srv->base, path, "1", 5000);
    stream_ids(s.r.body, ids, sizeof ids);
    ok = read && s.r.status == 200 && s.ended && strcmp(ids, "2") == 0 &&
         strncmp(s.r.ctype, "text/event-stream", 17) == 0;
    snprintf(got, sizeof got, "%ld %s ended %d events %s", s.r.status, s.r.ctype, s.ended, ids);
    resp_free(&s.r);
    CHECK(ok, "the events path with Accept: text/event-stream: %s", got);
}
