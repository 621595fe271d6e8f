/* t_cache.c: the server's cache of decoded games (api/game/games.c) across a game's moves. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

#define CACHE_GAME "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":11}"

/* What a run of cache_run() counted. */
struct cache_run {
    long loads_first;   /* games read from the database by the first four turns */
    long loads_refused; /* by the refused placement */
    long loads_after;   /* by the two turns after it */
    long created;       /* the version GET showed at first */
    long version;       /* the version GET showed at the end */
    long stored;        /* the version stored at the end */
};

/* The database loads of `srv` so far. */
static long loads(const struct server *srv)
{
    return hard_metric(srv, "tilehall_game_loads_total");
}

/* One GET of game `g` (as its readers would, between the moves): 0 when it answered 200 with
 * the state at the version stored, which it puts into *version. */
static int read_game(const struct server *srv, const struct game *g, long *version)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    struct resp r;
    http(srv, "GET", path, NULL, NULL, &r);
    cJSON *j = r.status == 200 ? cJSON_Parse(r.body) : NULL;
    *version = j ? (long)jnum(j, "version") : -1;
    cJSON_Delete(j);
    resp_free(&r);
    return *version >= 0 ? 0 : -1;
}

/* Plays a game on a server started with `env`: four turns, each read between its draw and
 * placement and after, then a placement refused (seat 0 places before drawing), then two
 * turns more. 0, or -1 with `why`. */
static int cache_run(const char *env, struct cache_run *out, char *why, size_t cap)
{
    const char *const settings[] = {env, NULL};
    struct server one;
    if (hard_server_start(&one, settings, 0) != 0) {
        snprintf(why, cap, "the server with %s did not start", env);
        return -1;
    }
    struct game g;
    int rc = game_new(&one, CACHE_GAME, &g, why, cap);
    long v = 0, at = rc == 0 ? loads(&one) : 0;
    if (rc == 0) rc = read_game(&one, &g, &out->created);
    for (int turn = 0; rc == 0 && turn < 4; turn++)
        rc = read_game(&one, &g, &v) || play_turn(&one, &g, 0, why, cap) || read_game(&one, &g, &v);
    out->loads_first = loads(&one) - at;
    at = loads(&one);
    if (rc == 0) {
        char path[128];
        snprintf(path, sizeof path, "/v1/games/%s/placements", g.id);
        const char *h[] = {g.auth[0], NULL};
        struct resp r;
        http(&one, "POST", path, "{\"x\":1,\"y\":0,\"rotation\":0}", h, &r);
        if (r.status != 409 || strcmp(problem_code(&r), "wrong_phase") != 0) {
            snprintf(why, cap, "a placement before the draw: %ld %.200s", r.status, r.body);
            rc = -1;
        }
        resp_free(&r);
    }
    out->loads_refused = loads(&one) - at;
    at = loads(&one);
    for (int turn = 0; rc == 0 && turn < 2; turn++) rc = play_turn(&one, &g, 0, why, cap);
    out->loads_after = loads(&one) - at;
    if (rc == 0) rc = read_game(&one, &g, &out->version);
    out->stored =
        rc == 0 ? db_scalar_id("SELECT version FROM games WHERE id = $1::uuid", g.id) : -1;
    int code = hard_server_stop(&one);
    if (rc == 0 && code != 0) {
        snprintf(why, cap, "server exit status %d", code);
        rc = -1;
    }
    return rc;
}

/*
 * An action takes the cached game out of its slot and, once committed, gives it back
 * (games_keep): one game's moves, one after another, read it from the database once, at its
 * first, whether moves are committed in batches or each alone, with reads in between. A move
 * refused on the cached game is tried once more on the stored one (one load), and the moves
 * after it find the game in the cache again. The state read at the end is the one stored.
 */
ITEST(test_cache_moves,
      "game cache: a game's moves, one after another, read it from the database once")
{
    (void)srv;
    const char *envs[] = {"COMMIT_THREADS=1", "COMMIT_THREADS=0"};
    for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++) {
        char why[400] = "";
        struct cache_run run = {0};
        CHECK(cache_run(envs[i], &run, why, sizeof why) == 0, "%s: %s", envs[i], why);
        CHECK(run.loads_first == 1,
              "%s: four turns and nine reads of one game loaded it %ld times (want 1)", envs[i],
              run.loads_first);
        CHECK(run.loads_refused == 1,
              "%s: the refused placement loaded the game %ld times (want 1)", envs[i],
              run.loads_refused);
        CHECK(run.loads_after == 0, "%s: two turns after it loaded the game %ld times (want 0)",
              envs[i], run.loads_after);
        CHECK(run.version == run.stored && run.version == run.created + 12,
              "%s: GET shows version %ld, the database %ld (want %ld: 6 turns of 2 actions)",
              envs[i], run.version, run.stored, run.created + 12);
    }
}
