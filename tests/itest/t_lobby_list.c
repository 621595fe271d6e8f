/* t_lobby_list.c: the lobby (issue 30, item 6): games created "listed" shown to anyone
 * as open tables (GET /v1/lobby/tables: waiting for a seat) and games to watch (GET
 * /v1/lobby/games: being played), newest first, by ruleset, page by page with a cursor;
 * unlisted, aborted and finished games never shown; a listed game's open seat taken by its
 * number, by name and by player token, the last one starting the game; an unlisted game's
 * seat by number refused (invite_required), a taken seat refused (seat_taken), each
 * refusal leaving the game as it was; eight joiners racing for one seat: one takes it.
 * Other tests may list games meanwhile: the checks look for this test's games only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "lobby.h"
#include "tests.h"

#define LIST_MAX 400 /* ids one walk of a list keeps at most */

/* A list walked page by page: the ids in the order shown, the status of each page. */
struct walk {
    int n;                 /* ids in id */
    char id[LIST_MAX][40]; /* the entries' ids, in order */
    long status;           /* the first status not 200, else 200 */
    int pages;             /* pages read */
    int bad_order;         /* 1: an entry not older than the one before it */
    cJSON *entry;          /* the entry of `want` (copied), or NULL */
};

/* Walks `path` (its query starting with '?') with pages of `limit` to its end, keeping the
 * entry of game `want` (NULL: none) in w->entry (caller deletes). */
static void walk_list(const struct server *srv, const char *path, int limit, const char *want,
                      struct walk *w)
{
    memset(w, 0, sizeof *w);
    w->status = 200;
    char cursor[128] = "", url[512], last_at[40] = "";
    const char *key = strstr(path, "/tables") ? "tables" : "games";
    for (;;) {
        snprintf(url, sizeof url, "%s%slimit=%d%s%s", path, strchr(path, '?') ? "&" : "?", limit,
                 cursor[0] ? "&cursor=" : "", cursor);
        struct resp r;
        http(srv, "GET", url, NULL, NULL, &r);
        w->pages++;
        if (r.status != 200 || !r.json) {
            w->status = r.status;
            resp_free(&r);
            return;
        }
        const cJSON *e;
        cJSON_ArrayForEach(e, jget(r.json, key))
        {
            const char *at = jstr(e, "created_at");
            if (last_at[0] && strcmp(at, last_at) > 0) w->bad_order = 1;
            snprintf(last_at, sizeof last_at, "%s", at);
            if (w->n < LIST_MAX) snprintf(w->id[w->n++], sizeof w->id[0], "%s", jstr(e, "id"));
            if (want && strcmp(jstr(e, "id"), want) == 0 && !w->entry)
                w->entry = cJSON_Duplicate(e, 1);
        }
        const cJSON *next = jget(r.json, "next_cursor");
        int more = cJSON_IsString(next);
        if (more) snprintf(cursor, sizeof cursor, "%s", next->valuestring);
        resp_free(&r);
        if (!more || w->pages > 200) return;
    }
}

/* Where game `id` is in walk `w`: its index, or -1. */
static int walk_find(const struct walk *w, const char *id)
{
    for (int i = 0; i < w->n; i++)
        if (strcmp(w->id[i], id) == 0) return i;
    return -1;
}

/* The number of times `id` is in walk `w` (a cursor must show each entry once). */
static int walk_count(const struct walk *w, const char *id)
{
    int c = 0;
    for (int i = 0; i < w->n; i++) c += strcmp(w->id[i], id) == 0;
    return c;
}

#define OPEN2(extra) "{\"players\":[{\"name\":\"Ann\"},{\"open\":true}]" extra "}"

ITEST(test_lobby_lists,
      "lobby: open tables and games to watch, newest first, by ruleset, paged, unlisted never")
{
    char code[64];
    struct lobby a, b, hidden, played, hidden_played, aborted, ended;
    CHECK(lobby_new(srv, OPEN2(",\"listed\":true"), NULL, &a, NULL) == 201, "create a");
    CHECK(
        lobby_new(srv,
                  "{\"ruleset\":\"hills\",\"players\":[{\"name\":\"Bo\"},{\"open\":true},{\"open\":"
                  "true}],\"listed\":true,\"clock\":{\"turn_seconds\":86400}}",
                  NULL, &b, NULL) == 201,
        "create b");
    CHECK(lobby_new(srv, OPEN2(",\"listed\":false"), NULL, &hidden, NULL) == 201, "create hidden");
    CHECK(lobby_new(srv, "{\"players\":[{\"name\":\"P\"},{\"name\":\"Q\"}],\"listed\":true}", NULL,
                    &played, NULL) == 201,
          "create played");
    CHECK(lobby_new(srv, "{\"players\":[{\"name\":\"P\"},{\"name\":\"Q\"}]}", NULL, &hidden_played,
                    NULL) == 201,
          "create hidden_played");
    CHECK(lobby_new(srv, OPEN2(",\"listed\":true"), NULL, &aborted, NULL) == 201, "create aborted");
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/abort", aborted.g.id);
    CHECK(lobby_post(srv, path, NULL, aborted.g.auth[0], NULL, code, sizeof code, NULL) == 200,
          "abort: %s", code);
    CHECK(lobby_new(srv, "{\"players\":[{\"name\":\"P\"},{\"name\":\"Q\"}],\"listed\":true}", NULL,
                    &ended, NULL) == 201,
          "create ended");
    snprintf(path, sizeof path, "/v1/games/%s/resign", ended.g.id);
    CHECK(lobby_post(srv, path, NULL, ended.g.auth[0], NULL, code, sizeof code, NULL) == 200,
          "resign: %s", code);

    /* Open tables, pages of 2: a and b (b newer, first), each once; no other of ours. */
    struct walk w;
    walk_list(srv, "/v1/lobby/tables", 2, b.g.id, &w);
    cJSON *be = w.entry;
    CHECK(w.status == 200, "tables: %ld", w.status);
    CHECK(!w.bad_order, "tables are not newest first");
    int ia = walk_find(&w, a.g.id), ib = walk_find(&w, b.g.id);
    CHECK(ia >= 0 && ib >= 0 && ib < ia, "tables: a at %d, b at %d (b is newer)", ia, ib);
    CHECK(walk_count(&w, a.g.id) == 1 && walk_count(&w, b.g.id) == 1,
          "a cursor showed an entry twice");
    CHECK(walk_find(&w, hidden.g.id) < 0 && walk_find(&w, played.g.id) < 0 &&
              walk_find(&w, aborted.g.id) < 0 && walk_find(&w, ended.g.id) < 0 &&
              walk_find(&w, hidden_played.g.id) < 0,
          "tables show an unlisted, started, aborted or finished game");
    char *text = be ? cJSON_PrintUnformatted(be) : NULL;
    int shape = text && strcmp(jstr(be, "ruleset"), "hills") == 0 &&
                strcmp(jstr(be, "status"), "waiting") == 0 &&
                jnum(be, "clock.turn_seconds") == 86400 && !jget(be, "clock.turn_start_ms") &&
                cJSON_IsFalse(jget(be, "rated")) && jget(be, "options") &&
                strcmp(jstr(be, "seats.0.name"), "Bo") == 0 &&
                cJSON_IsFalse(jget(be, "seats.0.open")) && cJSON_IsTrue(jget(be, "seats.1.open")) &&
                cJSON_IsNull(jget(be, "seats.1.name")) && cJSON_IsTrue(jget(be, "seats.2.open")) &&
                jstr(be, "created_at")[0] && !strstr(text, "invite") && !strstr(text, "token");
    free(text);
    cJSON_Delete(be);
    CHECK(shape, "the open table's entry has not its setup, clock settings and seats");

    /* By ruleset: hills shows b, not a. */
    walk_list(srv, "/v1/lobby/tables?ruleset=hills", 50, NULL, &w);
    CHECK(w.status == 200 && walk_find(&w, b.g.id) >= 0 && walk_find(&w, a.g.id) < 0,
          "?ruleset=hills: %ld, b %d, a %d", w.status, walk_find(&w, b.g.id),
          walk_find(&w, a.g.id));

    /* Games to watch: the listed game in play, not the others. */
    walk_list(srv, "/v1/lobby/games", 3, played.g.id, &w);
    CHECK(w.status == 200 && !w.bad_order, "games: %ld", w.status);
    cJSON *pe = w.entry;
    int watch = pe && strcmp(jstr(pe, "status"), "active") == 0 &&
                strcmp(jstr(pe, "seats.1.name"), "Q") == 0 && cJSON_IsNull(jget(pe, "clock"));
    cJSON_Delete(pe);
    CHECK(watch, "the game to watch is missing or not as played");
    CHECK(walk_find(&w, a.g.id) < 0 && walk_find(&w, hidden_played.g.id) < 0 &&
              walk_find(&w, ended.g.id) < 0 && walk_find(&w, aborted.g.id) < 0,
          "games to watch show a waiting, unlisted, finished or aborted game");

    /* Its last seat taken, a table becomes a game to watch. */
    CHECK(lobby_join_seat(srv, &a, 1, "Cy", NULL, code, sizeof code, NULL) == 200, "join a: %s",
          code);
    walk_list(srv, "/v1/lobby/tables", 50, NULL, &w);
    CHECK(walk_find(&w, a.g.id) < 0, "a started but is still an open table");
    walk_list(srv, "/v1/lobby/games", 50, NULL, &w);
    CHECK(walk_find(&w, a.g.id) >= 0, "a started but is no game to watch");
}

ITEST(test_lobby_join_seat,
      "lobby: a listed game's seat by number, by name and player token; refusals change nothing")
{
    char code[64], why[300];
    struct person cy;
    CHECK(person_new(srv, "Cy", &cy, why, sizeof why) == 0, "player: %s", why);
    struct lobby l, hidden;
    CHECK(lobby_new(srv,
                    "{\"players\":[{\"name\":\"Ann\"},{\"open\":true},{\"open\":true}],\"listed\":"
                    "true}",
                    NULL, &l, NULL) == 201,
          "create");
    CHECK(lobby_new(srv, OPEN2(""), NULL, &hidden, NULL) == 201, "create unlisted");
    long st = 0;
    UNCHANGED(&hidden, st = lobby_join_seat(srv, &hidden, 1, "Bob", NULL, code, sizeof code, NULL),
              "an unlisted game's seat by number changed the game");
    CHECK(st == 403 && strcmp(code, "invite_required") == 0, "unlisted: %ld %s", st, code);
    UNCHANGED(&l, st = lobby_join_seat(srv, &l, 0, "Bob", NULL, code, sizeof code, NULL),
              "a taken seat changed the game");
    CHECK(st == 409 && strcmp(code, "seat_taken") == 0, "seat 0: %ld %s", st, code);
    UNCHANGED(&l, st = lobby_join_seat(srv, &l, 3, "Bob", NULL, code, sizeof code, NULL),
              "a seat past the last changed the game");
    CHECK(st == 400 && strcmp(code, "invalid_body") == 0, "seat 3: %ld %s", st, code);

    /* Seat 2 by name: a token of its own; the game still waits for seat 1. */
    struct resp r;
    st = lobby_join_seat(srv, &l, 2, "Bob", NULL, code, sizeof code, &r);
    int named = st == 200 && jnum(r.json, "seat") == 2 && jstr(r.json, "token")[0] &&
                strcmp(jstr(r.json, "status"), "waiting") == 0;
    resp_free(&r);
    CHECK(named, "seat 2 by name: %ld %s", st, code);
    UNCHANGED(&l, st = lobby_join_seat(srv, &l, 2, "Dee", NULL, code, sizeof code, NULL),
              "a seat taken by name changed the game again");
    CHECK(st == 409 && strcmp(code, "seat_taken") == 0, "seat 2 again: %ld %s", st, code);

    /* Seat 1 by player token: bound, no token; the last seat starts the game. */
    st = lobby_join_seat(srv, &l, 1, NULL, cy.auth, code, sizeof code, &r);
    int bound = st == 200 && jnum(r.json, "seat") == 1 && !jget(r.json, "token") &&
                strcmp(jstr(r.json, "status"), "active") == 0;
    resp_free(&r);
    CHECK(bound, "seat 1 by player token: %ld %s", st, code);
    cJSON *j = game_get(srv, &l.g);
    int started = j && strcmp(jstr(j, "status"), "active") == 0 &&
                  strcmp(jstr(j, "players.1.name"), "Cy") == 0 &&
                  strcmp(jstr(j, "players.2.name"), "Bob") == 0;
    cJSON_Delete(j);
    CHECK(started && db_events_of(l.g.id, "game_started") == 1,
          "the last seat did not start the game once");
    UNCHANGED(&l, st = lobby_join_seat(srv, &l, 1, "Eve", NULL, code, sizeof code, NULL),
              "a started game's seat changed the game");
    CHECK(st == 409 && strcmp(code, "seat_taken") == 0, "a started game: %ld %s", st, code);
}

#define RACERS 8

ITEST(test_lobby_seat_race, "lobby: eight joiners racing for one seat by number, one takes it")
{
    struct lobby l;
    CHECK(lobby_new(srv, OPEN2(",\"listed\":true"), NULL, &l, NULL) == 201, "create");
    struct lobby_racer rs[RACERS];
    for (int i = 0; i < RACERS; i++) {
        rs[i] = (struct lobby_racer){.srv = srv, .l = &l, .seat = 1};
        snprintf(rs[i].name, sizeof rs[i].name, "S%d", i);
    }
    int lost = 0, winner = lobby_race(rs, RACERS, 409, "seat_taken", &lost);
    CHECK(winner >= 0 && lost == RACERS - 1, "no one winner, %d got seat_taken", lost);
    CHECK(lobby_won_by(srv, &l, rs[winner].name),
          "not active with the winner at seat 1, one game_started, one join stored");
}
