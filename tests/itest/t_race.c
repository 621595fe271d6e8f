/* t_race.c: racing clients, several servers, restarts and a lost database connection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hard.h"
#include "tests.h"

/*
 * Sends the same action from two clients at once (to srv1 and srv2), both with
 * `if_match` (a header line or NULL). Writes into `why` and returns -1 unless exactly one
 * got `win` and the other 412 (with If-Match: whoever comes second is stale), or without
 * If-Match 409/412 (or 403 not_your_turn for a placement that came after the turn passed
 * to the next seat).
 */
static int race(const struct server *srv1, const struct server *srv2, const char *path,
                const char *body, const char *auth, const char *if_match, long win, char *why,
                size_t cap)
{
    struct hard_racer a[2] = {{.srv = srv1, .body = body, .h = {auth, if_match, NULL}},
                              {.srv = srv2, .body = body, .h = {auth, if_match, NULL}}};
    for (int i = 0; i < 2; i++) snprintf(a[i].path, sizeof a[i].path, "%s", path);
    hard_together(a, 2);
    int wins = 0, losses = 0;
    for (int i = 0; i < 2; i++) {
        long st = a[i].r.status;
        const char *code = problem_code(&a[i].r);
        if (st == win)
            wins++;
        else if (if_match ? st == 412 && strcmp(code, "version_mismatch") == 0
                          : ((st == 409 || st == 412) && code[0]) ||
                                (st == 403 && body && strcmp(code, "not_your_turn") == 0))
            losses++;
    }
    int rc = wins == 1 && losses == 1 ? 0 : -1;
    if (rc)
        snprintf(why, cap, "%s: %ld %.100s / %ld %.100s", path, a[0].r.status, a[0].r.body,
                 a[1].r.status, a[1].r.body);
    for (int i = 0; i < 2; i++) resp_free(&a[i].r);
    return rc;
}

/* Races every action of `turns` turns of game `g` between srv1 and srv2. */
static int race_turns(const struct server *srv1, const struct server *srv2, const struct game *g,
                      int turns, char *why, size_t cap)
{
    for (int i = 0; i < turns; i++) {
        cJSON *j = game_get(srv1, g);
        if (!j) return snprintf(why, cap, "get"), -1;
        int seat = (int)jnum(j, "turn.seat"), version = (int)jnum(j, "version");
        cJSON_Delete(j);
        char path[160], im[64];
        snprintf(im, sizeof im, "If-Match: \"%d\"", version);
        const char *if_match = i % 2 ? im : NULL;
        snprintf(path, sizeof path, "/v1/games/%s/draw", g->id);
        if (race(srv1, srv2, path, NULL, g->auth[seat], if_match, 200, why, cap)) return -1;
        snprintf(im, sizeof im, "If-Match: \"%d\"", version + 1);
        snprintf(path, sizeof path, "/v1/games/%s/placements", g->id);
        struct resp r;
        http(srv2, "GET", path, NULL, NULL, &r);
        char body[128];
        snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d}",
                 (int)jnum(r.json, "placements.0.x"), (int)jnum(r.json, "placements.0.y"),
                 (int)jnum(r.json, "placements.0.rotation"));
        resp_free(&r);
        if (race(srv1, srv2, path, body, g->auth[seat], if_match, 201, why, cap)) return -1;
        if (game_version(srv2, g) != version + 2)
            return snprintf(why, cap, "version %d after a raced turn from %d",
                            game_version(srv2, g), version),
                   -1;
    }
    return 0;
}

#define RACE_GAME "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":99}"

ITEST(test_race, "two clients race for one turn")
{
    char why[400];
    struct game g;
    CHECK(game_new(srv, RACE_GAME, &g, why, sizeof why) == 0, "%s", why);
    CHECK(race_turns(srv, srv, &g, 6, why, sizeof why) == 0, "%s", why);
}

ITEST(test_two_servers, "two servers on one database")
{
    struct server two = {0};
    CHECK(server_start(&two) == 0, "second server did not start");
    char why[400];
    struct game g;
    int rc = game_new(&two, RACE_GAME, &g, why, sizeof why);
    int raced = rc == 0 ? race_turns(srv, &two, &g, 6, why, sizeof why) : -1;
    /* Turns alternate between the servers. */
    int played = 0;
    for (int i = 0; raced == 0 && i < 6; i++) {
        int p = play_turn(i % 2 ? srv : &two, &g, 1, why, sizeof why);
        if (p < 0) break;
        played++;
    }
    cJSON *a = game_get(srv, &g), *b = game_get(&two, &g);
    char *ta = a ? cJSON_PrintUnformatted(a) : NULL, *tb = b ? cJSON_PrintUnformatted(b) : NULL;
    int same = ta && tb && strcmp(ta, tb) == 0;
    free(ta);
    free(tb);
    cJSON_Delete(a);
    cJSON_Delete(b);
    int code = server_stop(&two);
    CHECK(rc == 0 && raced == 0 && played == 6, "%s", why);
    CHECK(same, "the two servers show different games");
    CHECK(code == 0, "second server exit status %d", code);
}

ITEST(test_restart, "restart mid-game")
{
    char why[400];
    struct game g;
    CHECK(game_new(srv, RACE_GAME, &g, why, sizeof why) == 0, "%s", why);
    for (int i = 0; i < 3; i++) CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "%s", why);
    struct resp r;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g.id);
    cJSON *j = game_get(srv, &g);
    int seat = j ? (int)jnum(j, "turn.seat") : 0;
    cJSON_Delete(j);
    const char *h[] = {g.auth[seat], NULL};
    http(srv, "POST", path, NULL, h, &r);
    CHECK(r.status == 200, "draw: %ld", r.status);
    resp_free(&r);
    j = game_get(srv, &g);
    char *before = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    snprintf(path, sizeof path, "/v1/games/%s/events", g.id);
    http(srv, "GET", path, NULL, NULL, &r);
    int nev = cJSON_GetArraySize(jget(r.json, "events"));
    resp_free(&r);
    int code = server_stop(srv);
    int started = server_start(srv);
    j = game_get(srv, &g);
    char *after = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    int same = before && after && strcmp(before, after) == 0;
    free(before);
    free(after);
    CHECK(code == 0, "server exit status %d", code);
    CHECK(started == 0, "restart failed");
    CHECK(same, "the game changed across the restart");
    /* The turn goes on where it stopped: the drawn tile is placed now. */
    CHECK(play_turn(srv, &g, 0, why, sizeof why) == 0, "%s", why);
    http(srv, "GET", path, NULL, NULL, &r);
    const cJSON *evs = jget(r.json, "events");
    int n = cJSON_GetArraySize(evs);
    int ok = n > nev;
    for (int i = 0; i < n; i++) ok &= jnum(cJSON_GetArrayItem(evs, i), "seq") == i + 1;
    resp_free(&r);
    CHECK(ok, "events after the restart: %d then %d", nev, n);
}

ITEST_SOLO(test_db_loss, "database connection lost: 503, then reconnect")
{
    struct game g;
    NEW_GAME(&g, RACE_GAME);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    struct resp r;
    for (int i = 0; i < 40; i++) { /* every worker thread gets its connection */
        http(srv, "GET", path, NULL, NULL, &r);
        resp_free(&r);
    }
    const char *url = getenv("DATABASE_URL");
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "psql -X -q -t \"%s\" -c \"SELECT count(pg_terminate_backend(pid)) FROM "
             "pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()\" "
             ">/dev/null",
             url);
    CHECK(system(cmd) == 0, "psql could not terminate the server's connections");
    /* A dead connection is replaced on the spot: no request notices. */
    for (int i = 0; i < 40; i++) {
        http(srv, "GET", path, NULL, NULL, &r);
        long st = r.status;
        resp_free(&r);
        CHECK(st == 200, "after the connections were cut: %ld", st);
    }
    /* The database itself down: 503 with Retry-After, then back by itself. */
    const char *stop = getenv("TILEHALL_PG_STOP"), *start = getenv("TILEHALL_PG_START");
    if (!stop || !start) return;
    CHECK(system(stop) == 0, "could not stop PostgreSQL");
    http(srv, "GET", path, NULL, NULL, &r);
    int down_ok = r.status == 503 && strcmp(problem_code(&r), "database_unavailable") == 0 &&
                  strtol(r.retry_after, NULL, 10) > 0;
    char got[300];
    snprintf(got, sizeof got, "%ld %.200s (Retry-After %s)", r.status, r.body, r.retry_after);
    resp_free(&r);
    http(srv, "GET", "/readyz", NULL, NULL, &r);
    long ready_down = r.status;
    resp_free(&r);
    struct game g2;
    char why[400];
    int created = game_new(srv, RACE_GAME, &g2, why, sizeof why);
    int restarted = system(start) == 0;
    CHECK(down_ok, "with the database down: %s", got);
    CHECK(ready_down == 503, "readyz with the database down: %ld", ready_down);
    CHECK(created != 0 && strstr(why, "503"), "create with the database down: %s", why);
    CHECK(restarted, "could not start PostgreSQL again");
    int back = 0;
    for (int i = 0; i < 100 && !back; i++) {
        http(srv, "GET", "/readyz", NULL, NULL, &r);
        back = r.status == 200;
        resp_free(&r);
        if (!back) usleep(100000);
    }
    CHECK(back, "readyz not back after PostgreSQL came back");
    for (int i = 0; i < 20; i++) {
        http(srv, "GET", path, NULL, NULL, &r);
        long st = r.status;
        resp_free(&r);
        CHECK(st == 200 || st == 503, "after the restart: %ld", st);
        if (st == 503) usleep(300000);
    }
    CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "after the restart: %s", why);
}
